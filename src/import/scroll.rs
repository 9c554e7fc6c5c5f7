//! An index's documents scrolled out of a cluster, read as `_bulk` NDJSON: each page is
//! fetched only when the load has consumed the one before, so one page is in memory.
//!
//! The scroll is sorted by `_doc` (the cheapest order a cluster has). A page with failed
//! shards stops the import rather than leaving documents out. A cluster error is kept
//! here and handed back by [`ScrollReader::finish`]: the load only sees its input end in
//! an I/O error, and rolls back.

use super::{path_segment, ImportOptions, ImportProgress};
use crate::cluster::Cluster;
use crate::compat::ClusterVersion;
use crate::error::{Error, Result};
use crate::export::to_cluster::{expect_ok, SendReport};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Read;

/// A JSON object's members, values kept as the cluster wrote them (a `_source` keeps its
/// bytes).
type RawObject = HashMap<String, Box<RawValue>>;

/// One hit of a page.
struct Hit {
    id: String,
    doc_type: Option<String>,
    source: Option<Box<RawValue>>,
}

/// One scroll page, as every supported version writes it.
struct Page {
    scroll_id: Option<String>,
    failed_shards: u64,
    /// `hits.total`: a number (6.x, `rest_total_hits_as_int`) or `{"value": n, …}`.
    total: Option<u64>,
    hits: Vec<Hit>,
}

impl Page {
    fn parse(answer: &[u8]) -> std::result::Result<Page, serde_json::Error> {
        let mut top: RawObject = serde_json::from_slice(answer)?;
        let scroll_id = top.get("_scroll_id").map(|v| serde_json::from_str::<String>(v.get())).transpose()?;
        let shards: Value = top.get("_shards").map(|v| serde_json::from_str(v.get())).transpose()?.unwrap_or_default();
        let failed_shards = shards.get("failed").and_then(Value::as_u64).unwrap_or(0);
        let mut hits: RawObject = match top.remove("hits") {
            Some(h) => serde_json::from_str(h.get())?,
            None => RawObject::new(),
        };
        let total: Value = hits.get("total").map(|v| serde_json::from_str(v.get())).transpose()?.unwrap_or_default();
        let total = total.as_u64().or_else(|| total.get("value").and_then(Value::as_u64));
        let raw_hits: Vec<RawObject> = match hits.remove("hits") {
            Some(h) => serde_json::from_str(h.get())?,
            None => Vec::new(),
        };
        let mut out = Vec::with_capacity(raw_hits.len());
        for mut h in raw_hits {
            let text = |h: &RawObject, k: &str| h.get(k).map(|v| serde_json::from_str::<String>(v.get())).transpose();
            let id = text(&h, "_id")?.unwrap_or_default();
            let doc_type = text(&h, "_type")?;
            out.push(Hit { id, doc_type, source: h.remove("_source") });
        }
        Ok(Page { scroll_id, failed_shards, total, hits: out })
    }
}

/// What the scroll did.
pub(super) struct ScrollStats {
    /// Pages read.
    pub pages: u64,
    /// Requests sent again while the cluster was busy.
    pub retries: u64,
}

/// The documents of one index as a `Read` of `_bulk` lines.
pub(super) struct ScrollReader<'a> {
    cluster: &'a Cluster,
    version: &'a ClusterVersion,
    index: &'a str,
    opts: &'a ImportOptions,
    progress: ImportProgress<'a>,
    scroll_id: Option<String>,
    started: bool,
    done: bool,
    buf: Vec<u8>,
    pos: usize,
    docs: u64,
    total: u64,
    pages: u64,
    sent: SendReport,
    error: Option<Error>,
}

impl<'a> ScrollReader<'a> {
    pub(super) fn new(
        cluster: &'a Cluster,
        version: &'a ClusterVersion,
        index: &'a str,
        opts: &'a ImportOptions,
        progress: ImportProgress<'a>,
    ) -> ScrollReader<'a> {
        ScrollReader {
            cluster,
            version,
            index,
            opts,
            progress,
            scroll_id: None,
            started: false,
            done: false,
            buf: Vec::new(),
            pos: 0,
            docs: 0,
            total: 0,
            pages: 0,
            sent: SendReport::default(),
            error: None,
        }
    }

    /// Clears the scroll on the cluster (whatever happened) and gives back the cluster's
    /// error, if one stopped the reading.
    pub(super) fn finish(mut self) -> Result<ScrollStats> {
        if let Some(id) = self.scroll_id.take() {
            // Best effort: the scroll expires on its own after the keep-alive anyway.
            let body = json!({ "scroll_id": [id] }).to_string();
            let _ = self.cluster.request("DELETE", "/_search/scroll", Some("application/json"), body.as_bytes());
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(ScrollStats { pages: self.pages, retries: self.sent.retries }),
        }
    }

    /// Fetches the next page into `buf` as `_bulk` lines; marks the end when it is empty.
    fn next_page(&mut self) -> Result<()> {
        let answer = if !self.started {
            self.started = true;
            let mut body = json!({ "size": self.opts.page_size.max(1), "sort": ["_doc"] });
            let mut path = format!("/{}/_search?scroll={}", path_segment(self.index), self.opts.keep_alive);
            if self.version.total_is_object() {
                // Exact totals for the progress bar, as a number.
                body["track_total_hits"] = json!(true);
                path.push_str("&rest_total_hits_as_int=true");
            }
            expect_ok(self.cluster, "POST", &path, body.to_string().as_bytes(), &self.opts.retry, &mut self.sent)?
        } else {
            let Some(id) = &self.scroll_id else {
                self.done = true;
                return Ok(());
            };
            let body = json!({ "scroll": self.opts.keep_alive, "scroll_id": id }).to_string();
            expect_ok(self.cluster, "POST", "/_search/scroll", body.as_bytes(), &self.opts.retry, &mut self.sent)?
        };
        let page = Page::parse(&answer)
            .map_err(|e| Error::simple(502, format!("the cluster's scroll page is not a search answer: {e}")))?;
        self.pages += 1;
        if page.failed_shards > 0 {
            let failed = page.failed_shards;
            return Err(Error::simple(
                502,
                format!("{failed} shard(s) of [{}] failed during the scroll; nothing was imported", self.index),
            ));
        }
        if page.scroll_id.is_some() {
            self.scroll_id = page.scroll_id;
        }
        if let Some(total) = page.total {
            self.total = total;
        }
        if page.hits.is_empty() {
            self.done = true;
            return Ok(());
        }
        if self.scroll_id.is_none() {
            return Err(Error::simple(502, "the cluster's scroll page carries no _scroll_id"));
        }
        self.buf.clear();
        self.pos = 0;
        for hit in &page.hits {
            self.write_hit(hit)?;
        }
        self.docs += page.hits.len() as u64;
        (self.progress)(self.docs, self.total.max(self.docs));
        Ok(())
    }

    fn write_hit(&mut self, hit: &Hit) -> Result<()> {
        let Some(source) = &hit.source else {
            return Err(Error::illegal_argument(format!(
                "document [{}] of [{}] has no _source: an index without _source cannot be imported",
                hit.id, self.index
            )));
        };
        let mut action = json!({ "_id": hit.id });
        if let Some(t) = &hit.doc_type {
            action["_type"] = json!(t);
        }
        let to_bulk = |e: serde_json::Error| Error::storage(e.to_string());
        serde_json::to_writer(&mut self.buf, &json!({ "index": action })).map_err(to_bulk)?;
        self.buf.push(b'\n');
        let raw = source.get();
        if raw.bytes().any(|b| b == b'\n' || b == b'\r') {
            // Line breaks between tokens would end the NDJSON line: written compactly.
            let v: Value = serde_json::from_str(raw).map_err(to_bulk)?;
            serde_json::to_writer(&mut self.buf, &v).map_err(to_bulk)?;
        } else {
            self.buf.extend_from_slice(raw.as_bytes());
        }
        self.buf.push(b'\n');
        Ok(())
    }
}

impl Read for ScrollReader<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.pos >= self.buf.len() {
            if self.done || self.error.is_some() {
                return if self.error.is_some() { Err(std::io::Error::other("the cluster failed")) } else { Ok(0) };
            }
            if let Err(e) = self.next_page() {
                self.error = Some(e);
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}
