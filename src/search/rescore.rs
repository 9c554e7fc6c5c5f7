//! `rescore`: ES 6.8's query rescorer. Each index (one shard) collects its top
//! `max(from + size, window_size)` hits; the top `window_size` of them get
//! `query_weight × score` combined with `rescore_query_weight × rescore score` (`total`,
//! `multiply`, `avg`, `max`, `min`) where the rescore query matches, the others
//! `query_weight × score`, and the shard's hits are sorted again. Several rescorers apply
//! in turn. The shards' hits are then merged as usual and `max_score` is the best
//! rescored score.

use super::context::Executor;
use super::{query_phase, After, Hit, QueryResult};
use crate::error::{Error, Exception, Result};
use crate::index::{DocSet, IndexReader};
use crate::request::rescore::{Rescore, ScoreMode};
use crate::request::SearchRequest;
use crate::store::Snapshot;
use std::sync::Arc;

// The mode is parsed with the request; what it means for two scores is execution.
impl ScoreMode {
    fn combine(self, a: f32, b: f32) -> f32 {
        match self {
            ScoreMode::Total => a + b,
            ScoreMode::Multiply => a * b,
            ScoreMode::Avg => (a + b) / 2.0,
            ScoreMode::Max => a.max(b),
            ScoreMode::Min => a.min(b),
        }
    }
}

/// ES 6.8's shard-level checks: no field sort beside a rescorer, and no window over
/// `index.max_rescore_window` (by default the index's `max_result_window`).
pub fn check(targets: &[Arc<IndexReader>], req: &SearchRequest) -> Result<()> {
    let Some(t) = targets.first() else { return Ok(()) };
    if req.rescore.is_empty() {
        return Ok(());
    }
    // DefaultSearchContext.preProcess raises these as query_phase_execution_exception (500).
    let fail = |reason: String| {
        Err(Error::all_shards_failed(
            500,
            Some(&t.meta.name),
            Exception::new("query_phase_execution_exception", reason),
        ))
    };
    if crate::request::sort::is_sorted(&req.sort) {
        return fail("Cannot use [sort] option in conjunction with [rescore].".into());
    }
    let max = t.meta.settings.limits.max_rescore_window as usize;
    for r in &req.rescore {
        if r.window_size > max {
            return fail(format!(
                "Rescore window [{}] is too large. It must be less than [{max}]. This prevents allocating massive heaps for storing the results to be rescored. This limit can be set by changing the [index.max_rescore_window] index level setting.",
                r.window_size
            ));
        }
    }
    Ok(())
}

/// The query phase with rescoring: each index collects and rescores its own top hits,
/// then the indices' hits merge by score (ties by index, then document), as shards do.
pub fn query_phase_rescored(
    targets: &[Arc<IndexReader>],
    snap: &Snapshot,
    req: &SearchRequest,
    now_ms: i64,
    window: usize,
) -> Result<QueryResult> {
    let shard_window = req.rescore.iter().map(|r| r.window_size).fold(window, usize::max);
    let mut hits: Vec<Hit> = Vec::new();
    let mut matched: Vec<DocSet> = Vec::with_capacity(targets.len());
    let (mut total, mut terminated_early, mut timed_out) = (0, false, false);
    for (ti, target) in targets.iter().enumerate() {
        let mut r = query_phase(std::slice::from_ref(target), snap, req, now_ms, &After::Start, shard_window)?;
        total += r.total;
        terminated_early |= r.terminated_early;
        timed_out |= r.timed_out;
        matched.append(&mut r.matched);
        let ex = Executor::new(target, snap, now_ms);
        for rescore in &req.rescore {
            rescore_hits(&ex, rescore, &mut r.hits)?;
        }
        hits.extend(r.hits.into_iter().map(|h| Hit { target: ti, ..h }));
    }
    sort_by_score(&mut hits);
    let max_score = hits.first().map_or(f32::NAN, |h| h.score);
    hits.truncate(window);
    Ok(QueryResult { total, max_score, hits, matched, terminated_early, timed_out })
}

/// Rescores the top `window_size` of one shard's `hits` (sorted by score) and sorts them
/// all again; the hits past the window keep `query_weight × score`.
fn rescore_hits(ex: &Executor<'_>, rescore: &Rescore, hits: &mut [Hit]) -> Result<()> {
    let n = rescore.window_size.min(hits.len());
    if hits.is_empty() {
        return Ok(());
    }
    let second = ex.compile(&rescore.query, 1.0, true)?;
    let mut scorer = second.scorer()?;
    let mut by_doc: Vec<usize> = (0..n).collect();
    by_doc.sort_by_key(|&i| hits[i].doc);
    for (k, i) in by_doc.into_iter().enumerate() {
        // The window is bounded (`index.max_rescore_window`) and rescored whole, as ES
        // rescores past a `timeout`: only a client that has gone stops it.
        if k % 256 == 0 {
            crate::budget::check_cancelled()?;
        }
        let first = hits[i].score * rescore.query_weight;
        let doc = hits[i].doc;
        hits[i].score = if scorer.seek(doc) == doc {
            rescore.score_mode.combine(first, scorer.score() * rescore.rescore_query_weight)
        } else {
            first
        };
    }
    if let Some(e) = scorer.take_error() {
        return Err(e);
    }
    for h in &mut hits[n..] {
        h.score *= rescore.query_weight;
    }
    sort_by_score(hits);
    Ok(())
}

/// Descending score, ties by index then document (Lucene's order).
fn sort_by_score(hits: &mut [Hit]) {
    hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.target.cmp(&b.target)).then(a.doc.cmp(&b.doc)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_modes() {
        let modes = [ScoreMode::Total, ScoreMode::Multiply, ScoreMode::Avg, ScoreMode::Max, ScoreMode::Min];
        let got: Vec<f32> = modes.iter().map(|m| m.combine(2.0, 3.0)).collect();
        assert_eq!(got, [5.0, 6.0, 2.5, 3.0, 2.0]);
    }
}
