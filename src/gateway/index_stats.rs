//! `[{index}]/_stats[/{metric}]` as ES 6.8's RestIndicesStatsAction answers it on one
//! node: every index is one started primary (its replicas unassigned, counted in
//! `_shards.total` only), and each section is CommonStats's, in its order and with its
//! keys. What metagate counts is real (`read::shard_stats`: documents, bytes, search
//! query and fetch phases, GETs, the request cache, segments and the term dictionaries
//! held in memory, completion terms); what a read-only file never does (indexing,
//! merging, refreshing, flushing, warming, translog, recovery, the query and fielddata
//! caches, scroll lifetimes) is reported as ES reports an idle shard.

use super::read::byte_size;
use super::{json_response, param, Response};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::node::NODE_ID;
use crate::read::shard_stats::ShardStats;
use crate::request::indices_options::indices_options;
use crate::scroll::time_value_string;
use serde_json::{json, Map, Value};

/// The metrics of ES 6.8's `_stats` path, each with the section it prints (`suggest`
/// prints the search section, where 6.x counts suggestions).
const METRICS: [(&str, &str); 17] = [
    ("docs", "docs"),
    ("store", "store"),
    ("indexing", "indexing"),
    ("get", "get"),
    ("search", "search"),
    ("merge", "merges"),
    ("refresh", "refresh"),
    ("flush", "flush"),
    ("warmer", "warmer"),
    ("query_cache", "query_cache"),
    ("fielddata", "fielddata"),
    ("completion", "completion"),
    ("segments", "segments"),
    ("translog", "translog"),
    ("suggest", "search"),
    ("request_cache", "request_cache"),
    ("recovery", "recovery"),
];

/// The sections in CommonStats's order.
const SECTIONS: [&str; 16] = [
    "docs",
    "store",
    "indexing",
    "get",
    "search",
    "merges",
    "refresh",
    "flush",
    "warmer",
    "query_cache",
    "fielddata",
    "completion",
    "segments",
    "translog",
    "request_cache",
    "recovery",
];

/// Lucene's ConcurrentMergeScheduler starts its auto-throttle at 20 MB/s, which an idle
/// ES shard reports.
const MERGE_AUTO_THROTTLE_BYTES: u64 = 20 * 1024 * 1024;

/// What the request asks each section to show.
struct Shape {
    sections: Vec<&'static str>,
    human: bool,
    /// `fielddata_fields` (or `fields`), when given.
    fielddata_fields: Option<Vec<String>>,
    /// `completion_fields` (or `fields`), when given.
    completion_fields: Option<Vec<String>>,
}

/// The sum of some shards' figures.
#[derive(Default)]
struct Sum {
    docs: u64,
    bytes: u64,
    query_total: u64,
    query_millis: u64,
    fetch_total: u64,
    fetch_millis: u64,
    exists_total: u64,
    exists_millis: u64,
    missing_total: u64,
    missing_millis: u64,
    cache_hits: u64,
    cache_misses: u64,
    cache_evictions: u64,
    cache_bytes: u64,
    segments: u64,
    terms_memory: u64,
    norms_memory: u64,
    completion_bytes: u64,
    completion_fields: Vec<(String, u64)>,
    /// Shards summed (merge throttles add up per shard, as ES adds them).
    shards: u64,
}

impl Sum {
    fn of<'a>(shards: impl IntoIterator<Item = &'a ShardStats>) -> Sum {
        let mut s = Sum::default();
        for st in shards {
            let c = &st.counted;
            s.docs += st.index.doc_count;
            s.bytes += st.index.size_bytes;
            s.query_total += c.query_total;
            s.query_millis += c.query_millis;
            s.fetch_total += c.fetch_total;
            s.fetch_millis += c.fetch_millis;
            s.exists_total += c.exists_total;
            s.exists_millis += c.exists_millis;
            s.missing_total += c.missing_total;
            s.missing_millis += c.missing_millis;
            s.cache_hits += c.cache_hits;
            s.cache_misses += c.cache_misses;
            s.cache_evictions += c.cache_evictions;
            s.cache_bytes += c.cache_bytes;
            s.segments += st.segments;
            s.terms_memory += st.terms_memory;
            s.norms_memory += st.norms_memory;
            s.completion_bytes += st.completion_bytes;
            for (field, bytes) in &st.completion_fields {
                match s.completion_fields.iter_mut().find(|(f, _)| f == field) {
                    Some((_, b)) => *b += bytes,
                    None => s.completion_fields.push((field.clone(), *bytes)),
                }
            }
            s.shards += 1;
        }
        s
    }
}

/// Writes ES's members of a section in order.
struct Section {
    out: Map<String, Value>,
    human: bool,
}

impl Section {
    fn n(&mut self, key: &str, v: impl Into<Value>) -> &mut Self {
        self.out.insert(key.into(), v.into());
        self
    }

    /// ES's `humanReadableField` for a time: the readable form first, with `human`.
    fn time(&mut self, raw: &str, readable: &str, millis: u64) -> &mut Self {
        if self.human {
            self.out.insert(readable.into(), json!(time_value_string(millis as i64)));
        }
        self.n(raw, millis)
    }

    /// ES's `humanReadableField` for bytes.
    fn bytes(&mut self, raw: &str, readable: &str, bytes: u64) -> &mut Self {
        if self.human {
            self.out.insert(readable.into(), json!(byte_size(bytes, None)));
        }
        self.n(raw, bytes)
    }

    /// A per-field object (`FieldMemoryStats`).
    fn fields(&mut self, fields: &[(String, u64)], raw: &str, readable: &str) -> &mut Self {
        let mut o = Map::new();
        for (field, bytes) in fields {
            let mut f = Map::new();
            if self.human {
                f.insert(readable.into(), json!(byte_size(*bytes, None)));
            }
            f.insert(raw.into(), json!(bytes));
            o.insert(field.clone(), Value::Object(f));
        }
        self.n("fields", Value::Object(o))
    }
}

/// CommonStats's sections for `s`, those `shape` asks for.
fn render(s: &Sum, shape: &Shape) -> Value {
    let mut out = Map::new();
    for name in SECTIONS.iter().filter(|n| shape.sections.contains(n)) {
        let mut w = Section { out: Map::new(), human: shape.human };
        match *name {
            "docs" => {
                w.n("count", s.docs).n("deleted", 0);
            }
            "store" => {
                w.bytes("size_in_bytes", "size", s.bytes);
            }
            "indexing" => {
                w.n("index_total", 0).time("index_time_in_millis", "index_time", 0).n("index_current", 0);
                w.n("index_failed", 0).n("delete_total", 0).time("delete_time_in_millis", "delete_time", 0);
                w.n("delete_current", 0).n("noop_update_total", 0).n("is_throttled", false);
                w.time("throttle_time_in_millis", "throttle_time", 0);
            }
            "get" => {
                let total = s.exists_total + s.missing_total;
                w.n("total", total).time("time_in_millis", "getTime", s.exists_millis + s.missing_millis);
                w.n("exists_total", s.exists_total).time("exists_time_in_millis", "exists_time", s.exists_millis);
                w.n("missing_total", s.missing_total);
                w.time("missing_time_in_millis", "missing_time", s.missing_millis).n("current", 0);
            }
            "search" => {
                w.n("open_contexts", 0).n("query_total", s.query_total);
                w.time("query_time_in_millis", "query_time", s.query_millis).n("query_current", 0);
                w.n("fetch_total", s.fetch_total).time("fetch_time_in_millis", "fetch_time", s.fetch_millis);
                w.n("fetch_current", 0).n("scroll_total", 0).time("scroll_time_in_millis", "scroll_time", 0);
                w.n("scroll_current", 0).n("suggest_total", 0).time("suggest_time_in_millis", "suggest_time", 0);
                w.n("suggest_current", 0);
            }
            "merges" => {
                w.n("current", 0).n("current_docs", 0).bytes("current_size_in_bytes", "current_size", 0);
                w.n("total", 0).time("total_time_in_millis", "total_time", 0).n("total_docs", 0);
                w.bytes("total_size_in_bytes", "total_size", 0);
                w.time("total_stopped_time_in_millis", "total_stopped_time", 0);
                w.time("total_throttled_time_in_millis", "total_throttled_time", 0);
                w.bytes("total_auto_throttle_in_bytes", "total_auto_throttle", MERGE_AUTO_THROTTLE_BYTES * s.shards);
            }
            "refresh" => {
                w.n("total", 0).time("total_time_in_millis", "total_time", 0).n("listeners", 0);
            }
            "flush" => {
                w.n("total", 0).n("periodic", 0).time("total_time_in_millis", "total_time", 0);
            }
            "warmer" => {
                w.n("current", 0).n("total", 0).time("total_time_in_millis", "total_time", 0);
            }
            "query_cache" => {
                w.bytes("memory_size_in_bytes", "memory_size", 0).n("total_count", 0).n("hit_count", 0);
                w.n("miss_count", 0).n("cache_size", 0).n("cache_count", 0).n("evictions", 0);
            }
            "fielddata" => {
                w.bytes("memory_size_in_bytes", "memory_size", 0).n("evictions", 0);
                if shape.fielddata_fields.is_some() {
                    w.fields(&[], "memory_size_in_bytes", "memory_size");
                }
            }
            "completion" => {
                w.bytes("size_in_bytes", "size", s.completion_bytes);
                if shape.completion_fields.is_some() {
                    w.fields(&s.completion_fields, "size_in_bytes", "size");
                }
            }
            "segments" => {
                let memory = s.terms_memory + s.norms_memory;
                w.n("count", s.segments).bytes("memory_in_bytes", "memory", memory);
                w.bytes("terms_memory_in_bytes", "terms_memory", s.terms_memory);
                w.bytes("stored_fields_memory_in_bytes", "stored_fields_memory", 0);
                w.bytes("term_vectors_memory_in_bytes", "term_vectors_memory", 0);
                w.bytes("norms_memory_in_bytes", "norms_memory", s.norms_memory);
                w.bytes("points_memory_in_bytes", "points_memory", 0);
                w.bytes("doc_values_memory_in_bytes", "doc_values_memory", 0);
                w.bytes("index_writer_memory_in_bytes", "index_writer_memory", 0);
                w.bytes("version_map_memory_in_bytes", "version_map_memory", 0);
                w.bytes("fixed_bit_set_memory_in_bytes", "fixed_bit_set", 0);
                // The engine's value when no document came with an auto-generated id
                // since it opened; ES's sum of no shard is Long.MIN_VALUE.
                w.n("max_unsafe_auto_id_timestamp", if s.shards > 0 { -1 } else { i64::MIN });
                // Lucene's files by extension: a metagate file has none.
                w.n("file_sizes", json!({}));
            }
            "translog" => {
                w.n("operations", 0).bytes("size_in_bytes", "size", 0).n("uncommitted_operations", 0);
                w.bytes("uncommitted_size_in_bytes", "uncommitted_size", 0).n("earliest_last_modified_age", 0);
            }
            "request_cache" => {
                w.bytes("memory_size_in_bytes", "memory_size", s.cache_bytes).n("evictions", s.cache_evictions);
                w.n("hit_count", s.cache_hits).n("miss_count", s.cache_misses);
            }
            _ => {
                w.n("current_as_source", 0).n("current_as_target", 0);
                w.time("throttle_time_in_millis", "throttle_time", 0);
            }
        }
        out.insert((*name).into(), Value::Object(w.out));
    }
    Value::Object(out)
}

/// A comma-separated parameter, when given.
fn list_param(params: &[(String, String)], name: &str) -> Option<Vec<String>> {
    param(params, name).map(|v| v.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect())
}

/// The sections a `{metric}` path part asks for, in ES's order, or ES's error.
fn asked_sections(metric: Option<&str>, uri: &str) -> Result<Vec<&'static str>> {
    let asked: Vec<&str> = metric.map(|m| m.split(',').collect()).unwrap_or_else(|| vec!["_all"]);
    if asked == ["_all"] {
        return Ok(SECTIONS.to_vec());
    }
    if asked.contains(&"_all") {
        return Err(Error::illegal_argument(format!(
            "request [{uri}] contains _all and individual metrics [{}]",
            asked.join(",")
        )));
    }
    let unknown: Vec<&str> = asked.iter().copied().filter(|m| !METRICS.iter().any(|(k, _)| k == m)).collect();
    if !unknown.is_empty() {
        let noun = if unknown.len() == 1 { "metric" } else { "metrics" };
        return Err(Error::illegal_argument(format!(
            "request [{uri}] contains unrecognized {noun}: [{}]",
            unknown.join(", ")
        )));
    }
    let wanted: Vec<&str> = METRICS.iter().filter(|(k, _)| asked.contains(k)).map(|(_, s)| *s).collect();
    Ok(SECTIONS.iter().copied().filter(|s| wanted.contains(s)).collect())
}

/// `[{index}]/_stats[/{metric}]`: ES's IndicesStatsResponse.
pub(super) fn stats(
    engine: &Engine,
    index: &str,
    metric: Option<&str>,
    uri: &str,
    params: &[(String, String)],
) -> Result<Response> {
    let sections = asked_sections(metric, uri)?;
    let fields = list_param(params, "fields");
    let shape = Shape {
        human: super::param_true(params, "human"),
        fielddata_fields: list_param(params, "fielddata_fields").or_else(|| fields.clone()),
        completion_fields: list_param(params, "completion_fields").or(fields),
        sections,
    };
    if let Some(v) = param(params, "include_segment_file_sizes") {
        if !matches!(v, "" | "true" | "false") {
            return Err(Error::illegal_argument(format!(
                "Failed to parse value [{v}] as only [true] or [false] are allowed."
            )));
        }
    }
    let completion_patterns = shape.completion_fields.clone().unwrap_or_default();
    let shards = engine.shard_stats(index, indices_options(params)?, &completion_patterns)?;
    // IndicesStatsResponse checks the level when it writes itself, after the work.
    let level = param(params, "level").unwrap_or("indices").to_ascii_lowercase();
    if !matches!(level.as_str(), "cluster" | "indices" | "shards") {
        return Err(Error::illegal_argument(format!(
            "level parameter must be one of [cluster] or [indices] or [shards] but was [{}]",
            param(params, "level").unwrap_or_default()
        )));
    }
    let active = shards.len() as u64;
    let total = active + shards.iter().map(|s| s.index.replicas).sum::<u64>();
    let all = render(&Sum::of(&shards), &shape);
    let mut out = Map::new();
    out.insert("_shards".into(), json!({"total": total, "successful": active, "failed": 0}));
    out.insert("_all".into(), json!({"primaries": all, "total": all}));
    if level != "cluster" {
        let mut indices = Map::new();
        for st in &shards {
            let s = render(&Sum::of([st]), &shape);
            let mut entry = Map::new();
            entry.insert("uuid".into(), json!(st.index.uuid));
            entry.insert("primaries".into(), s.clone());
            entry.insert("total".into(), s.clone());
            if level == "shards" {
                let mut shard = Map::new();
                shard.insert(
                    "routing".into(),
                    json!({"state": "STARTED", "primary": true, "node": NODE_ID, "relocating_node": null}),
                );
                if let Value::Object(members) = s {
                    shard.extend(members);
                }
                // Documents are numbered by load order (`_seq_no`), all of them committed.
                let max_seq_no = st.index.doc_count as i64 - 1;
                shard.insert(
                    "seq_no".into(),
                    json!({"max_seq_no": max_seq_no, "local_checkpoint": max_seq_no, "global_checkpoint": max_seq_no}),
                );
                entry.insert("shards".into(), json!({"0": [shard]}));
            }
            indices.insert(st.index.name.clone(), Value::Object(entry));
        }
        out.insert("indices".into(), Value::Object(indices));
    }
    Ok(json_response(200, &Value::Object(out), params))
}
