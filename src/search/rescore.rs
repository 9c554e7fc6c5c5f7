//! `rescore`: ES 6.8's query rescorer. Each index (one shard) collects its top
//! `max(from + size, window_size)` hits; the top `window_size` of them get
//! `query_weight × score` combined with `rescore_query_weight × rescore score` (`total`,
//! `multiply`, `avg`, `max`, `min`) where the rescore query matches, the others
//! `query_weight × score`, and the shard's hits are sorted again. Several rescorers apply
//! in turn. The shards' hits are then merged as usual and `max_score` is the best
//! rescored score.

use super::exec::Executor;
use super::{query_phase, After, Hit, QueryResult};
use crate::error::{Error, Exception, Result};
use crate::index::{DocSet, IndexReader};
use crate::query::dsl::{num_f32, DslParser};
use crate::query::Query;
use crate::request::SearchRequest;
use crate::store::Snapshot;
use serde_json::Value;
use std::sync::Arc;

/// How a rescored document's two scores combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreMode {
    /// Their sum.
    Total,
    /// Their product.
    Multiply,
    /// Their mean.
    Avg,
    /// The larger.
    Max,
    /// The smaller.
    Min,
}

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

/// One query rescorer.
#[derive(Debug, Clone)]
pub struct Rescore {
    /// Hits per shard rescored (default 10).
    pub window_size: usize,
    /// The rescore query.
    pub query: Query,
    /// Weight of the first-pass score.
    pub query_weight: f32,
    /// Weight of the rescore query's score.
    pub rescore_query_weight: f32,
    /// How the two combine.
    pub score_mode: ScoreMode,
}

fn parsing(reason: String) -> Error {
    Error::new(400, Exception::new("parsing_exception", reason))
}

/// Parses the body's `rescore` (one rescorer or an array of them).
pub fn parse(v: &Value, parser: &mut DslParser) -> Result<Vec<Rescore>> {
    match v {
        Value::Array(items) => items.iter().map(|x| parse_one(x, parser)).collect(),
        other => Ok(vec![parse_one(other, parser)?]),
    }
}

fn parse_one(v: &Value, parser: &mut DslParser) -> Result<Rescore> {
    let Value::Object(o) = v else {
        return Err(parsing("rescore must be an object".into()));
    };
    let mut window_size = 10usize;
    let mut rescore = None;
    for (k, x) in o {
        match (k.as_str(), x) {
            ("window_size", _) => {
                window_size = x
                    .as_i64()
                    .or_else(|| x.as_str().and_then(|s| s.parse().ok()))
                    .filter(|n| *n >= 0)
                    .ok_or_else(|| Error::illegal_argument("[window_size] must be greater than or equal to 0."))?
                    as usize
            }
            ("query", Value::Object(q)) => {
                let mut r = Rescore {
                    window_size: 10,
                    query: Query::match_all(),
                    query_weight: 1.0,
                    rescore_query_weight: 1.0,
                    score_mode: ScoreMode::Total,
                };
                let mut has_query = false;
                for (qk, qv) in q {
                    match qk.as_str() {
                        "rescore_query" => {
                            r.query = parser.parse(qv)?;
                            has_query = true;
                        }
                        "query_weight" => r.query_weight = num_f32(qv).ok_or_else(|| bad_number(qk, qv))?,
                        "rescore_query_weight" => {
                            r.rescore_query_weight = num_f32(qv).ok_or_else(|| bad_number(qk, qv))?
                        }
                        "score_mode" => {
                            r.score_mode = match qv.as_str().unwrap_or_default() {
                                "total" => ScoreMode::Total,
                                "multiply" => ScoreMode::Multiply,
                                "avg" => ScoreMode::Avg,
                                "max" => ScoreMode::Max,
                                "min" => ScoreMode::Min,
                                other => return Err(Error::illegal_argument(format!("illegal score_mode [{other}]"))),
                            }
                        }
                        other => return Err(parsing(format!("[query] unknown field [{other}], parser not found"))),
                    }
                }
                if !has_query {
                    return Err(Error::illegal_argument("rescore_query cannot be null"));
                }
                rescore = Some(r);
            }
            (name, Value::Object(_)) => {
                return Err(parsing(format!("rescore doesn't support rescorer with name [{name}]")))
            }
            (name, _) => return Err(parsing(format!("rescore doesn't support [{name}]"))),
        }
    }
    let mut r = rescore.ok_or_else(|| parsing("missing rescore type".into()))?;
    r.window_size = window_size;
    Ok(r)
}

fn bad_number(k: &str, v: &Value) -> Error {
    Error::illegal_argument(format!("[{k}] must be a number, found [{v}]"))
}

/// ES 6.8's shard-level checks: no field sort beside a rescorer, and no window over
/// `index.max_rescore_window` (the index's `max_result_window`).
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
    let max = t.meta.max_result_window as usize;
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
    let (mut total, mut terminated_early) = (0, false);
    for (ti, target) in targets.iter().enumerate() {
        let mut r = query_phase(std::slice::from_ref(target), snap, req, now_ms, &After::Start, shard_window)?;
        total += r.total;
        terminated_early |= r.terminated_early;
        matched.append(&mut r.matched);
        let ex = Executor { reader: target, snap, now_ms };
        for rescore in &req.rescore {
            rescore_hits(&ex, rescore, &mut r.hits)?;
        }
        hits.extend(r.hits.into_iter().map(|h| Hit { target: ti, ..h }));
    }
    sort_by_score(&mut hits);
    let max_score = hits.first().map_or(f32::NAN, |h| h.score);
    hits.truncate(window);
    Ok(QueryResult { total, max_score, hits, matched, terminated_early })
}

/// Rescores the top `window_size` of one shard's `hits` (sorted by score) and sorts them
/// all again; the hits past the window keep `query_weight × score`.
fn rescore_hits(ex: &Executor<'_>, rescore: &Rescore, hits: &mut [Hit]) -> Result<()> {
    let n = rescore.window_size.min(hits.len());
    if hits.is_empty() {
        return Ok(());
    }
    let second = ex.run(&rescore.query, 1.0, true)?;
    let mut by_doc: Vec<usize> = (0..n).collect();
    by_doc.sort_by_key(|&i| hits[i].doc);
    let mut cursor = second.cursor();
    for i in by_doc {
        let first = hits[i].score * rescore.query_weight;
        hits[i].score = match cursor.score(hits[i].doc) {
            Some(s) => rescore.score_mode.combine(first, s * rescore.rescore_query_weight),
            None => first,
        };
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
