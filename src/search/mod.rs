//! Search execution over one or more indices and the response it produces.

pub mod aggs;
pub mod bm25;
pub mod exec;
pub mod explain;
mod fetch;
mod function_score;
pub mod highlight;
pub mod json_out;
pub mod matches;
mod multi;
pub mod murmur3;
mod phrase;
pub mod query_text;
pub mod rescore;
pub mod response;
pub mod slice;
pub mod sort;
pub mod source;
mod terms;

use crate::error::{Error, Exception, Result};
use crate::index::{DocSet, IndexReader};
use crate::query::Scalar;
use crate::request::sort::{Order, SortSpec};
use crate::request::SearchRequest;
use crate::store::Snapshot;
use exec::Executor;
pub use fetch::{check_stored_fields, fetch_phase};
use matches::Matches;
use sort::{compare, KeyExtractor, SortValue};
use std::cmp::Ordering;
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

/// Orders two hits: sort values (or score desc), then target, then doc — ES's shard-index
/// and doc-id tie-break.
fn hit_order(specs: &[SortSpec], a: &Hit, b: &Hit) -> Ordering {
    let primary = if specs.is_empty() { b.score.total_cmp(&a.score) } else { compare(specs, &a.sort, &b.sort) };
    primary.then(a.target.cmp(&b.target)).then(a.doc.cmp(&b.doc))
}

/// What one index contributes to a request before collection.
#[derive(Debug, Clone)]
pub struct TargetMatches {
    /// Hits candidates: the query with `_type`, `slice`, `min_score`, `post_filter` and
    /// `terminate_after` applied.
    pub matches: Matches,
    /// Matches before `post_filter` (what aggregations see); only computed when the
    /// request has aggregations, empty otherwise.
    pub matched: DocSet,
    /// Whether `terminate_after` cut the matches.
    pub terminated_early: bool,
}

impl TargetMatches {
    /// Approximate heap size, for caches that bound their memory.
    pub fn approx_bytes(&self, max_doc: u32) -> usize {
        // Roaring stores at most 2 bytes per document, or 8 KiB per 65536 ordinals.
        let set = |n: u64| (n as usize).saturating_mul(2).min(max_doc as usize / 8 + 8192);
        let m = match &self.matches {
            Matches::Set { docs, .. } => set(docs.len()),
            Matches::Scored(v) => v.len().saturating_mul(8),
        };
        m + set(self.matched.len()) + 128
    }
}

/// Whether the request needs scores computed.
pub fn needs_scoring(req: &SearchRequest) -> bool {
    sort::needs_scores(&req.sort) || req.track_scores || req.min_score.is_some()
}

/// Runs the query of `req` on one index (everything but collection).
pub fn target_matches(
    reader: &IndexReader,
    snap: &Snapshot,
    req: &SearchRequest,
    now_ms: i64,
) -> Result<TargetMatches> {
    let ex = Executor { reader, snap, now_ms };
    let mut m = ex.run(&req.query, 1.0, needs_scoring(req))?;
    if !req.types.is_empty() {
        let mut types = DocSet::new();
        for t in &req.types {
            types.or_with(&ex.keyword_docs(crate::index::TYPE_FIELD, t)?);
        }
        m = m.retain(&types);
    }
    if let Some((id, max)) = req.slice {
        let slice = slice::slice_docs(&ex, id, max)?;
        m = m.retain(&slice);
    }
    if let Some(min) = req.min_score {
        m = match m {
            Matches::Set { docs, score } => {
                if score >= min {
                    Matches::Set { docs, score }
                } else {
                    Matches::none()
                }
            }
            Matches::Scored(mut v) => {
                v.retain(|(_, s)| *s >= min);
                Matches::Scored(v)
            }
        };
    }
    let matched = if req.aggs.is_some() { m.to_docset() } else { DocSet::new() };
    if let Some(pf) = &req.post_filter {
        let f = ex.run(pf, 1.0, false)?.into_docset();
        m = m.retain(&f);
    }
    let mut terminated_early = false;
    if let Some(limit) = req.terminate_after {
        if m.len() > limit {
            terminated_early = true;
            let mut n = 0;
            let mut v = Vec::new();
            m.for_each(|d, s| {
                if n < limit {
                    v.push((d, s));
                    n += 1;
                }
            });
            m = Matches::Scored(v);
        }
    }
    Ok(TargetMatches { matches: m, matched, terminated_early })
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
    query_phase_with(targets, snap, req, after, window, &mut |_, reader| {
        target_matches(reader, snap, req, now_ms).map(Arc::new)
    })
}

/// The query phase over match sets supplied by `matches_of(target index, reader)`, so a
/// caller that pages through one request (a scroll) can reuse them between pages.
pub fn query_phase_with(
    targets: &[Arc<IndexReader>],
    snap: &Snapshot,
    req: &SearchRequest,
    after: &After,
    window: usize,
    matches_of: &mut dyn FnMut(usize, &IndexReader) -> Result<Arc<TargetMatches>>,
) -> Result<QueryResult> {
    let scoring = needs_scoring(req);
    let specs = &req.sort;
    let mut total = 0u64;
    let mut max_score = f32::NAN;
    let mut keep: Vec<Hit> = Vec::new();
    let mut matched = Vec::with_capacity(targets.len());
    let mut terminated_early = false;
    for (ti, reader) in targets.iter().enumerate() {
        let tm = matches_of(ti, reader)?;
        matched.push(tm.matched.clone());
        terminated_early |= tm.terminated_early;
        let m = &tm.matches;
        total += m.len();
        if m.is_empty() {
            continue;
        }
        if scoring {
            let local_max = match m {
                Matches::Set { score, .. } => *score,
                Matches::Scored(v) => v.iter().map(|(_, s)| *s).fold(f32::NEG_INFINITY, f32::max),
            };
            if max_score.is_nan() || local_max > max_score {
                max_score = local_max;
            }
        }
        if window > 0 {
            collect_target(ti, reader, snap, specs, m, after, window, &mut keep)?;
        }
    }
    trim(&mut keep, specs, window)?;
    keep.sort_by(|a, b| hit_order(specs, a, b));
    Ok(QueryResult { total, max_score, hits: keep, matched, terminated_early })
}

/// The first ordinal of an ascending walk that is strictly after the cursor, when the hit
/// order within this index is document order; `None` when no hit of it can follow.
fn doc_order_start(specs: &[SortSpec], ti: usize, m: &Matches, after: &After) -> Option<Option<u32>> {
    match (specs, m) {
        // `_doc` ascending: the sort value is the ordinal itself, whatever the scores.
        ([SortSpec::Doc(Order::Asc)], _) => Some(match after {
            After::Start => Some(0),
            After::Values(v, tie) => match v.as_slice() {
                [SortValue::Doc(x)] => match tie {
                    // An equal ordinal in a later index still follows (targets break ties).
                    Some((t, _)) if ti > *t => Some(*x),
                    _ => x.checked_add(1),
                },
                _ => return None,
            },
            After::Raw(_) => return None,
        }),
        // Relevance order over a constant score: score desc, then target, then doc.
        ([], Matches::Set { score, .. }) => Some(match after {
            After::Start => Some(0),
            After::Values(v, tie) => match v.as_slice() {
                [SortValue::Score(s)] => match score.total_cmp(s) {
                    Ordering::Less => Some(0),
                    Ordering::Greater => None,
                    Ordering::Equal => match tie {
                        Some((t, _)) if ti > *t => Some(0),
                        Some((t, d)) if ti == *t => d.checked_add(1),
                        _ => None,
                    },
                },
                _ => return None,
            },
            After::Raw(_) => return None,
        }),
        _ => None,
    }
}

/// Collects the hits of one index that follow `after` into `keep`.
#[allow(clippy::too_many_arguments)]
fn collect_target(
    ti: usize,
    reader: &IndexReader,
    snap: &Snapshot,
    specs: &[SortSpec],
    m: &Matches,
    after: &After,
    window: usize,
    keep: &mut Vec<Hit>,
) -> Result<()> {
    // Fast path: when hits of this index come in document order, the best `window` of
    // them are the first `window` ordinals after the cursor — no keys, no sorting, and a
    // cost proportional to the page rather than to the match set.
    if let Some(start) = doc_order_start(specs, ti, m, after) {
        let Some(start) = start else {
            return Ok(());
        };
        let is_doc_sort = !specs.is_empty();
        let mut push = |doc: u32, score: f32| {
            let sort = if is_doc_sort { vec![SortValue::Doc(doc)] } else { Vec::new() };
            keep.push(Hit { target: ti, doc, score, sort });
        };
        match m {
            Matches::Set { docs, score } => docs.iter_from(start).take(window).for_each(|d| push(d, *score)),
            Matches::Scored(v) => {
                let from = v.partition_point(|(d, _)| *d < start);
                v[from..].iter().take(window).for_each(|(d, s)| push(*d, *s));
            }
        }
        return trim(keep, specs, window);
    }
    let keys = if specs.is_empty() { None } else { Some(KeyExtractor::new(specs, reader, snap)?) };
    // Fast path: a keyword first criterion and no cursor. The `window` best ordinals (and
    // every tie of the last one) are the only documents that can make the top, so only
    // they get full sort values, instead of a string per matching document.
    if let (After::Start, Some(k)) = (after, &keys) {
        if let Some(primary) = sort::KeywordPrimary::new(specs, reader, snap)? {
            let mut candidates: Vec<(u32, u32, f32)> = Vec::with_capacity(m.len() as usize);
            m.for_each(|doc, score| candidates.push((primary.key(doc), doc, score)));
            if candidates.len() > window {
                candidates.select_nth_unstable_by_key(window - 1, |c| (c.0, c.1));
                let bound = candidates[window - 1].0;
                candidates.retain(|c| c.0 <= bound);
            }
            for (_, doc, score) in candidates {
                keep.push(Hit { target: ti, doc, score, sort: k.values(doc, score) });
            }
            return trim(keep, specs, window);
        }
    }
    let converted: Option<Vec<SortValue>> = match (after, &keys) {
        (After::Raw(raw), Some(k)) => {
            Some(k.convert_after(raw).map_err(|cause| Error::all_shards_failed(400, Some(&reader.meta.name), cause))?)
        }
        (After::Raw(_), None) => {
            return Err(Error::all_shards_failed(
                400,
                Some(&reader.meta.name),
                Exception::new("illegal_argument_exception", "Sort must contain at least one field."),
            ))
        }
        _ => None,
    };
    let (after_values, tie): (Option<&[SortValue]>, Option<(usize, u32)>) = match after {
        After::Start => (None, None),
        After::Values(v, tie) => (Some(v.as_slice()), *tie),
        After::Raw(_) => (converted.as_deref(), None),
    };
    let mut pending_err = None;
    m.for_each(|doc, score| {
        let sort = match &keys {
            Some(k) => k.values(doc, score),
            None => Vec::new(),
        };
        if let Some(av) = after_values {
            // c: ordering of `after` relative to the hit; keep hits strictly after.
            let c = if specs.is_empty() {
                match av.first() {
                    Some(SortValue::Score(s)) => score.total_cmp(s),
                    _ => Ordering::Equal,
                }
            } else {
                compare(specs, &sort, av).reverse()
            };
            let keep_it = match c {
                Ordering::Less => true,
                Ordering::Greater => false,
                Ordering::Equal => match tie {
                    Some((t, d)) => (ti, doc) > (t, d),
                    None => false,
                },
            };
            if !keep_it {
                return;
            }
        }
        keep.push(Hit { target: ti, doc, score, sort });
        if keep.len() >= window * 2 + 64 {
            if let Err(e) = trim(keep, specs, window) {
                pending_err = Some(e);
            }
        }
    });
    match pending_err {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn trim(keep: &mut Vec<Hit>, specs: &[SortSpec], window: usize) -> Result<()> {
    if keep.len() > window {
        keep.select_nth_unstable_by(window, |a, b| hit_order(specs, a, b));
        keep.truncate(window);
    }
    Ok(())
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
