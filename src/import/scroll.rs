//! An index's documents scrolled out of a cluster, read as `_bulk` NDJSON: each page is
//! fetched only when the load has consumed the one before, so one page is in memory.
//! With slices, each slice scrolls on a thread of its own and hands its pages over a
//! channel of one page per slice (memory: about two pages per slice).
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
use std::sync::mpsc::{Receiver, SyncSender};

/// A JSON object's members, values kept as the cluster wrote them (a `_source` keeps its
/// bytes).
type RawObject = HashMap<String, Box<RawValue>>;

/// One hit of a page.
struct Hit {
    id: String,
    doc_type: Option<String>,
    /// `_routing`, kept in the document's action.
    routing: Option<String>,
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
            let routing = text(&h, "_routing")?;
            out.push(Hit { id, doc_type, routing, source: h.remove("_source") });
        }
        Ok(Page { scroll_id, failed_shards, total, hits: out })
    }
}

/// What the scroll did.
#[derive(Debug, Default)]
pub(super) struct ScrollStats {
    /// Pages read.
    pub pages: u64,
    /// Requests sent again while the cluster was busy.
    pub retries: u64,
}

/// One page as `_bulk` lines.
pub(super) struct BulkPage {
    /// The slice it came from (0 without slices).
    slice: usize,
    bulk: Vec<u8>,
    docs: u64,
    /// The slice's `hits.total`, when the page gave it.
    total: Option<u64>,
}

/// One scroll (or one slice of a sliced scroll) over an index, page by page.
pub(super) struct SliceScroll<'a> {
    cluster: &'a Cluster,
    version: &'a ClusterVersion,
    index: &'a str,
    opts: &'a ImportOptions,
    /// (`id`, `max`) of a sliced scroll.
    slice: Option<(usize, usize)>,
    scroll_id: Option<String>,
    started: bool,
    done: bool,
    stats: ScrollStats,
}

impl<'a> SliceScroll<'a> {
    pub(super) fn new(
        cluster: &'a Cluster,
        version: &'a ClusterVersion,
        index: &'a str,
        opts: &'a ImportOptions,
        slice: Option<(usize, usize)>,
    ) -> SliceScroll<'a> {
        SliceScroll {
            cluster,
            version,
            index,
            opts,
            slice,
            scroll_id: None,
            started: false,
            done: false,
            stats: ScrollStats::default(),
        }
    }

    /// The next page, or `None` at the end.
    pub(super) fn next_page(&mut self) -> Result<Option<BulkPage>> {
        if self.done {
            return Ok(None);
        }
        let mut sent = SendReport::default();
        let answer = if !self.started {
            self.started = true;
            let mut body = json!({ "size": self.opts.page_size.max(1), "sort": ["_doc"] });
            if let Some((id, max)) = self.slice {
                body["slice"] = json!({ "id": id, "max": max });
            }
            let mut path = format!("/{}/_search?scroll={}", path_segment(self.index), self.opts.keep_alive);
            if self.version.total_is_object() {
                // Exact totals for the progress bar, as a number.
                body["track_total_hits"] = json!(true);
                path.push_str("&rest_total_hits_as_int=true");
            }
            expect_ok(self.cluster, "POST", &path, body.to_string().as_bytes(), &self.opts.retry, &mut sent)
        } else {
            let Some(id) = &self.scroll_id else {
                self.done = true;
                return Ok(None);
            };
            let body = json!({ "scroll": self.opts.keep_alive, "scroll_id": id }).to_string();
            expect_ok(self.cluster, "POST", "/_search/scroll", body.as_bytes(), &self.opts.retry, &mut sent)
        };
        self.stats.retries += sent.retries;
        let page = Page::parse(&answer?)
            .map_err(|e| Error::simple(502, format!("the cluster's scroll page is not a search answer: {e}")))?;
        self.stats.pages += 1;
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
        if page.hits.is_empty() {
            self.done = true;
            return Ok(None);
        }
        if self.scroll_id.is_none() {
            return Err(Error::simple(502, "the cluster's scroll page carries no _scroll_id"));
        }
        let mut bulk = Vec::new();
        for hit in &page.hits {
            write_hit(self.index, hit, &mut bulk)?;
        }
        let slice = self.slice.map_or(0, |(id, _)| id);
        Ok(Some(BulkPage { slice, bulk, docs: page.hits.len() as u64, total: page.total }))
    }

    /// Clears the scroll on the cluster (best effort: it expires after the keep-alive
    /// anyway) and gives back what it did.
    pub(super) fn finish(mut self) -> ScrollStats {
        if let Some(id) = self.scroll_id.take() {
            let body = json!({ "scroll_id": [id] }).to_string();
            let _ = self.cluster.request("DELETE", "/_search/scroll", Some("application/json"), body.as_bytes());
        }
        self.stats
    }
}

/// Appends a hit's two `_bulk` lines.
fn write_hit(index: &str, hit: &Hit, out: &mut Vec<u8>) -> Result<()> {
    let Some(source) = &hit.source else {
        return Err(Error::illegal_argument(format!(
            "document [{}] of [{index}] has no _source: an index without _source cannot be imported",
            hit.id
        )));
    };
    let mut action = json!({ "_id": hit.id });
    if let Some(t) = &hit.doc_type {
        action["_type"] = json!(t);
    }
    if let Some(r) = &hit.routing {
        action["routing"] = json!(r);
    }
    let to_bulk = |e: serde_json::Error| Error::storage(e.to_string());
    serde_json::to_writer(&mut *out, &json!({ "index": action })).map_err(to_bulk)?;
    out.push(b'\n');
    let raw = source.get();
    if raw.bytes().any(|b| b == b'\n' || b == b'\r') {
        // Line breaks between tokens would end the NDJSON line: written compactly.
        let v: Value = serde_json::from_str(raw).map_err(to_bulk)?;
        serde_json::to_writer(&mut *out, &v).map_err(to_bulk)?;
    } else {
        out.extend_from_slice(raw.as_bytes());
    }
    out.push(b'\n');
    Ok(())
}

/// Where pages come from: one scroll read on the load's thread, or the slices' threads.
pub(super) enum Pages<'a> {
    /// One scroll, a page fetched when the load has taken the one before.
    One(SliceScroll<'a>),
    /// Pages of several slices as their threads send them (a bounded channel; `None`
    /// when a slice has ended), with the number of slices not ended yet.
    Slices(Receiver<Result<Option<BulkPage>>>, usize),
}

/// The documents of one index as a `Read` of `_bulk` lines.
pub(super) struct ScrollReader<'a> {
    pages: Pages<'a>,
    progress: ImportProgress<'a>,
    buf: Vec<u8>,
    pos: usize,
    done: bool,
    docs: u64,
    /// `hits.total` per slice.
    totals: Vec<u64>,
    error: Option<Error>,
}

impl<'a> ScrollReader<'a> {
    pub(super) fn new(pages: Pages<'a>, slices: usize, progress: ImportProgress<'a>) -> ScrollReader<'a> {
        ScrollReader {
            pages,
            progress,
            buf: Vec::new(),
            pos: 0,
            done: false,
            docs: 0,
            totals: vec![0; slices.max(1)],
            error: None,
        }
    }

    /// Ends the reading (clearing a single scroll; slices clear their own): the scroll's
    /// stats, or the cluster's error if one stopped it.
    pub(super) fn finish(self) -> Result<ScrollStats> {
        let stats = match self.pages {
            Pages::One(scroll) => scroll.finish(),
            Pages::Slices(..) => ScrollStats::default(),
        };
        match self.error {
            Some(e) => Err(e),
            None => Ok(stats),
        }
    }

    fn next(&mut self) -> Result<Option<BulkPage>> {
        match &mut self.pages {
            Pages::One(scroll) => scroll.next_page(),
            Pages::Slices(rx, open) => loop {
                if *open == 0 {
                    return Ok(None);
                }
                match rx.recv() {
                    Ok(Ok(None)) => *open -= 1,
                    Ok(page) => return page,
                    // A slice's thread gone without saying it ended: its documents
                    // would be missing, so the import fails instead.
                    Err(_) => return Err(Error::storage("a slice of the scroll stopped before its end")),
                }
            },
        }
    }
}

impl Read for ScrollReader<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.pos >= self.buf.len() {
            if self.error.is_some() {
                return Err(std::io::Error::other("the cluster failed"));
            }
            if self.done {
                return Ok(0);
            }
            match self.next() {
                Ok(Some(page)) => {
                    if let (Some(t), Some(slot)) = (page.total, self.totals.get_mut(page.slice)) {
                        *slot = t;
                    }
                    self.docs += page.docs;
                    let total: u64 = self.totals.iter().sum();
                    (self.progress)(self.docs, total.max(self.docs));
                    self.buf = page.bulk;
                    self.pos = 0;
                }
                Ok(None) => self.done = true,
                Err(e) => self.error = Some(e),
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Reads one slice on its own thread, sending its pages until it ends, fails or the
/// reader stops taking them; then clears its scroll.
pub(super) fn read_slice(mut scroll: SliceScroll<'_>, tx: SyncSender<Result<Option<BulkPage>>>) -> ScrollStats {
    loop {
        match scroll.next_page() {
            Ok(Some(page)) => {
                if tx.send(Ok(Some(page))).is_err() {
                    break;
                }
            }
            Ok(None) => {
                let _ = tx.send(Ok(None));
                break;
            }
            Err(e) => {
                let _ = tx.send(Err(e));
                break;
            }
        }
    }
    scroll.finish()
}
