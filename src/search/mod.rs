//! Search execution over one or more indices and the response it produces.

pub mod aggs;
pub mod bm25;
pub mod clauses;
pub mod collapse;
pub mod collect;
mod common_terms;
pub mod context;
mod edits;
mod exec;
pub mod explain;
mod fetch;
mod filter_cache;
mod function_score;
pub mod geo;
mod graph_query;
pub mod highlight;
mod highlight_terms;
mod ip_query;
pub mod json_out;
mod mlt_terms;
mod more_like_this;
mod multi;
pub mod murmur3;
pub mod nested;
mod phrase;
pub(crate) mod pipeline;
pub mod query_text;
mod range_field_query;
pub mod rescore;
pub mod response;
pub mod scorer;
pub mod script_document;
pub mod script_host;
pub mod slice;
pub mod sort;
pub mod source;
pub mod span;
pub(crate) mod stored_fields;
pub mod suggest;
pub mod synonym;
mod terms;
mod terms_lookup;
mod terms_set;
pub mod weight;

use crate::error::{Error, Exception, Result};
use crate::index::{DocSet, IndexReader};
use crate::query::Scalar;
use crate::request::sort::SortSpec;
use crate::request::SearchRequest;
use crate::store::Snapshot;
use collect::{PassStats, TargetSteps, TopHits};
use context::Executor;
pub use fetch::{check_stored_fields, fetch_phase};
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
    /// Whether the request's `timeout` stopped collection.
    pub timed_out: bool,
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
        let ex = Executor::new(reader, snap, now_ms);
        let weight = compile_query(&ex, req, scoring)?;
        let steps = TargetSteps::new(&ex, req)?;
        collect::collect_target(ti, &ex, &weight, &steps, scoring, after, top)
    })
}

/// Compiles the request's query for one index. Without scores it is evaluated as a set
/// (roaring algebra), so that collection takes the set path: the total is a cardinality
/// and the hits are the first documents the order asks for.
pub fn compile_query<'a>(ex: &Executor<'a>, req: &SearchRequest, scoring: bool) -> Result<weight::Weight<'a>> {
    let w = ex.compile(&req.query_for(&ex.reader.meta.name), 1.0, scoring)?;
    if scoring {
        return Ok(w);
    }
    Ok(weight::Weight::constant(w.docset()?, 0.0))
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
    let (mut terminated_early, mut timed_out) = (false, false);
    for (ti, reader) in targets.iter().enumerate() {
        let st = collect(ti, reader, &mut top)?;
        total += st.total;
        // f32::max skips NaN: indices without scored hits leave it as it is.
        max_score = max_score.max(st.max_score);
        matched.push(st.matched);
        terminated_early |= st.terminated_early;
        timed_out |= st.timed_out;
    }
    Ok(QueryResult { total, max_score, hits: top.into_sorted(), matched, terminated_early, timed_out })
}

/// ES 6.8's `SearchService.parseSource` limits on what a search fetches per hit, per
/// index: `index.max_docvalue_fields_search` and `index.max_script_fields` (the entries
/// as requested), each an `illegal_argument_exception` of every shard.
pub fn check_fetch_limits(targets: &[Arc<IndexReader>], req: &SearchRequest) -> Result<()> {
    for t in targets {
        let limits = &t.meta.settings.limits;
        let over = |what: &str, max: u64, n: usize, key: &str| {
            Error::all_shards_failed(
                400,
                Some(&t.meta.name),
                Exception::new(
                    "illegal_argument_exception",
                    format!(
                        "Trying to retrieve too many {what}. Must be less than or equal to: [{max}] but was [{n}]. This limit can be set by changing the [{key}] index level setting."
                    ),
                ),
            )
        };
        if req.docvalue_fields.len() as u64 > limits.max_docvalue_fields_search {
            let n = req.docvalue_fields.len();
            return Err(over(
                "docvalue_fields",
                limits.max_docvalue_fields_search,
                n,
                "index.max_docvalue_fields_search",
            ));
        }
        if req.script_fields.len() as u64 > limits.max_script_fields {
            let n = req.script_fields.len();
            return Err(over("script_fields", limits.max_script_fields, n, "index.max_script_fields"));
        }
    }
    Ok(())
}

/// Checks `from + size` against each target's `index.max_result_window`.
pub fn check_window(targets: &[Arc<IndexReader>], from: i64, size: i64, scroll: bool) -> Result<()> {
    let window = from.max(0) + size.max(0);
    for t in targets {
        let max = t.meta.settings.limits.max_result_window as i64;
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
