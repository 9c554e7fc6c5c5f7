//! Search execution over one or more indices and the response it produces.

pub mod aggs;
pub mod bm25;
pub mod collect;
pub mod exec;
pub mod explain;
mod filter_cache;
mod function_score;
pub mod highlight;
mod multi;
pub mod murmur3;
mod phrase;
pub mod query_text;
pub mod rescore;
pub mod response;
pub mod scorer;
pub mod slice;
pub mod sort;
pub mod source;
mod terms;
pub mod weight;

use crate::error::{Error, Exception, Result};
use crate::index::{DocSet, IndexReader};
use crate::query::Scalar;
use crate::request::sort::SortSpec;
use crate::request::SearchRequest;
use crate::store::Snapshot;
use collect::{PassStats, TargetSteps, TopHits};
use exec::Executor;
use serde_json::{json, Map, Value};
use sort::SortValue;
use std::sync::Arc;

/// One collected hit.
#[derive(Debug, Clone)]
pub struct Hit {
    /// Position of the index in the target list.
    pub target: usize,
    /// Document ordinal.
    pub doc: u32,
    /// Score (NaN when not computed).
    pub score: f32,
    /// Sort values (empty for relevance order).
    pub sort: Vec<SortValue>,
}

/// What the query phase found.
#[derive(Debug)]
pub struct QueryResult {
    /// Exact number of matching documents.
    pub total: u64,
    /// Highest score among all matches (NaN when scores are not tracked).
    pub max_score: f32,
    /// Hits `from..from+size` in order.
    pub hits: Vec<Hit>,
    /// Per-target matching documents (for aggregations), before `post_filter`.
    pub matched: Vec<DocSet>,
    /// Whether `terminate_after` stopped collection.
    pub terminated_early: bool,
}

/// Where collection starts (scroll and search_after cursors).
#[derive(Debug, Clone, Default)]
pub enum After {
    /// From the beginning.
    #[default]
    Start,
    /// After these typed sort values (scroll cursors), tie-broken by (target, doc); with no
    /// tie-break, hits equal to the values are skipped.
    Values(Vec<SortValue>, Option<(usize, u32)>),
    /// `search_after` as the client sent it. ES converts the values per shard to the sort
    /// fields' types, so they are converted per index; hits equal to them are skipped.
    Raw(Vec<Scalar>),
}

/// Whether the request needs scores computed.
pub fn needs_scoring(req: &SearchRequest) -> bool {
    sort::needs_scores(&req.sort) || req.track_scores || req.min_score.is_some()
}

/// Runs the query phase. `window` is how many hits to keep (from + size).
pub fn query_phase(
    targets: &[Arc<IndexReader>],
    snap: &Snapshot,
    req: &SearchRequest,
    now_ms: i64,
    after: &After,
    window: usize,
) -> Result<QueryResult> {
    // A request without hits to rank (size 0) needs no scores: only `min_score` does.
    let scoring = needs_scoring(req) && (window > 0 || req.min_score.is_some());
    query_phase_with(targets, &req.sort, window, &mut |ti, reader, top| {
        let ex = Executor { reader, snap, now_ms };
        let weight = compile_query(&ex, req, scoring)?;
        let steps = TargetSteps::new(&ex, req)?;
        collect::collect_target(ti, reader, snap, &weight, &steps, scoring, after, top)
    })
}

/// Compiles the request's query for one index. Without scores it is evaluated as a set
/// (roaring algebra), so that collection takes the set path: the total is a cardinality
/// and the hits are the first documents the order asks for.
pub fn compile_query<'a>(ex: &Executor<'a>, req: &SearchRequest, scoring: bool) -> Result<weight::Weight<'a>> {
    let w = ex.compile(&req.query, 1.0, scoring)?;
    if scoring {
        return Ok(w);
    }
    Ok(weight::Weight::Const { docs: w.docset()?, score: 0.0 })
}

/// The query phase over indices whose hits `collect(target index, reader, top hits)`
/// offers to the shared collector, so a caller that pages through one request (a scroll)
/// can supply cached matches.
pub fn query_phase_with(
    targets: &[Arc<IndexReader>],
    specs: &[SortSpec],
    window: usize,
    collect: &mut dyn FnMut(usize, &IndexReader, &mut TopHits<'_>) -> Result<PassStats>,
) -> Result<QueryResult> {
    let mut top = TopHits::new(specs, window);
    let mut total = 0u64;
    let mut max_score = f32::NAN;
    let mut matched = Vec::with_capacity(targets.len());
    let mut terminated_early = false;
    for (ti, reader) in targets.iter().enumerate() {
        let st = collect(ti, reader, &mut top)?;
        total += st.total;
        // f32::max skips NaN: indices without scored hits leave it as it is.
        max_score = max_score.max(st.max_score);
        matched.push(st.matched);
        terminated_early |= st.terminated_early;
    }
    Ok(QueryResult { total, max_score, hits: top.into_sorted(), matched, terminated_early })
}

/// Checks `from + size` against each target's `index.max_result_window`.
pub fn check_window(targets: &[Arc<IndexReader>], from: i64, size: i64, scroll: bool) -> Result<()> {
    let window = from.max(0) + size.max(0);
    for t in targets {
        let max = t.meta.max_result_window as i64;
        if window > max {
            let reason = if scroll {
                format!("Batch size is too large, size must be less than or equal to: [{max}] but was [{window}]. Scroll batch sizes cost as much memory as result windows so they are controlled by the [index.max_result_window] index level setting.")
            } else {
                format!("Result window is too large, from + size must be less than or equal to: [{max}] but was [{window}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.")
            };
            return Err(Error::all_shards_failed(
                500,
                Some(&t.meta.name),
                Exception::new("query_phase_execution_exception", reason),
            ));
        }
    }
    Ok(())
}

/// ES 6.8's shard-level check of `stored_fields: _none_`: nothing of a hit can be loaded
/// then, so asking for `_source` or `version` with it fails every shard.
pub fn check_stored_fields(targets: &[Arc<IndexReader>], req: &SearchRequest) -> Result<()> {
    if !req.stored_fields_disabled() {
        return Ok(());
    }
    let what = if req.version {
        "version"
    } else if req.source_requested && !req.source.disabled {
        "_source"
    } else {
        return Ok(());
    };
    match targets.first() {
        None => Ok(()),
        Some(t) => Err(Error::all_shards_failed(
            500,
            Some(&t.meta.name),
            Exception::new(
                "search_context_exception",
                format!("`stored_fields` cannot be disabled if {what} is requested"),
            ),
        )),
    }
}

/// Renders hits (fetch phase): `_source` filtering, highlight, sort values, version.
pub fn fetch_phase(
    targets: &[Arc<IndexReader>],
    snap: &Snapshot,
    req: &SearchRequest,
    result: &QueryResult,
    now_ms: i64,
) -> Result<Value> {
    let track =
        sort::needs_scores(&req.sort) && req.sort.iter().all(|s| matches!(s, SortSpec::Score(_))) || req.track_scores;
    let scores_shown = req.sort.is_empty() || track;
    let mut hits = Vec::with_capacity(result.hits.len());
    let no_source = !req.returns_source();
    let no_ids = req.stored_fields_disabled();
    for h in &result.hits {
        let reader = &targets[h.target];
        let stored = reader.document(snap, h.doc)?;
        let mut hit = Map::new();
        if req.explain {
            hit.insert("_shard".into(), json!(format!("[{}][0]", reader.meta.name)));
            hit.insert("_node".into(), json!(crate::NODE_ID));
        }
        hit.insert("_index".into(), json!(reader.meta.name));
        if !no_ids {
            hit.insert("_type".into(), json!(stored.doc_type));
            hit.insert("_id".into(), json!(stored.id));
        }
        if req.version {
            hit.insert("_version".into(), json!(1));
        }
        hit.insert("_score".into(), if scores_shown { response::score_json(h.score) } else { Value::Null });
        let source: Option<Value> = if no_source && req.highlight.is_none() {
            None
        } else {
            Some(
                serde_json::from_slice(&stored.source)
                    .map_err(|e| Error::storage(format!("stored source is not JSON: {e}")))?,
            )
        };
        let mut source = source;
        if !no_source {
            if let Some(src) = &source {
                let rendered = if !req.source.is_identity() {
                    req.source.apply(src)
                } else if req.highlight.is_none() {
                    // Nothing reads the source after this: move it rather than deep-copy it.
                    source.take().unwrap_or_default()
                } else {
                    src.clone()
                };
                hit.insert("_source".into(), rendered);
            }
        }
        if !req.docvalue_fields.is_empty() {
            let fields = docvalue_fields(reader, snap, h.doc, &req.docvalue_fields)?;
            if !fields.is_empty() {
                hit.insert("fields".into(), Value::Object(fields));
            }
        }
        if let (Some(hl), Some(src)) = (&req.highlight, &source) {
            let ex = Executor { reader, snap, now_ms };
            let h = highlight::highlight(&ex, &req.query, hl, src)?;
            if !h.is_empty() {
                hit.insert("highlight".into(), Value::Object(h));
            }
        }
        if !req.sort.is_empty() {
            hit.insert("sort".into(), Value::Array(h.sort.iter().zip(&req.sort).map(|(v, s)| v.to_json(s)).collect()));
        }
        if req.explain {
            let ex = Executor { reader, snap, now_ms };
            hit.insert("_explanation".into(), explain::explain(&ex, &req.query, h.doc)?);
        }
        hits.push(Value::Object(hit));
    }
    // ES 6.8: size 0 counts without collecting, reporting 0.0; no hits or untracked
    // scores give null.
    let max_score = if req.size == 0 {
        json!(0.0)
    } else if !scores_shown || result.max_score.is_nan() {
        Value::Null
    } else {
        response::score_json(result.max_score)
    };
    // Built by hand: `json!` would serialize `hits` into a deep copy.
    let mut out = Map::new();
    out.insert("total".into(), if req.track_total_hits { json!(result.total) } else { json!(-1) });
    out.insert("max_score".into(), max_score);
    out.insert("hits".into(), Value::Array(hits));
    Ok(Value::Object(out))
}

fn docvalue_fields(reader: &IndexReader, snap: &Snapshot, doc: u32, fields: &[String]) -> Result<Map<String, Value>> {
    let mut out = Map::new();
    for f in fields {
        let name = if f == "_id" { crate::index::ID_FIELD } else { f.as_str() };
        let Some(fm) = reader.meta.mapping.field(name).cloned().or_else(|| {
            (name == crate::index::ID_FIELD)
                .then(|| crate::mapping::FieldMapping::new(name, crate::mapping::FieldType::Keyword))
        }) else {
            continue;
        };
        let values: Vec<Value> = match fm.ftype {
            crate::mapping::FieldType::Text => {
                return Err(Error::illegal_argument(format!("Can't load fielddata on [{f}] because fielddata is unsupported on fields of type [text]. Use doc values instead.")))
            }
            crate::mapping::FieldType::Keyword => match reader.keyword_doc_values(snap, name)? {
                Some(dv) => dv.ords(doc).map(|o| json!(dv.term(o))).collect(),
                None => Vec::new(),
            },
            t => match reader.numeric_doc_values(snap, name)? {
                Some(dv) if dv.is_double() => dv.values_f64(doc).map(|v| json!(v)).collect(),
                Some(dv) if t == crate::mapping::FieldType::Date => {
                    let fmt = crate::date::DateFormat::parse_format(fm.date_format()).map_err(|e| Error::illegal_argument(e.to_string()))?;
                    dv.values_i64(doc).map(|v| json!(fmt.format(v))).collect()
                }
                Some(dv) if t == crate::mapping::FieldType::Boolean => dv.values_i64(doc).map(|v| json!(v != 0)).collect(),
                Some(dv) => dv.values_i64(doc).map(|v| json!(v)).collect(),
                None => Vec::new(),
            },
        };
        if !values.is_empty() {
            out.insert(f.clone(), Value::Array(values));
        }
    }
    Ok(out)
}
