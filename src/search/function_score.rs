//! `function_score` compiled for one index: its inner query's weight wrapped in a
//! `weight::function_score::FunctionScoreWeight`, which applies (and explains) the
//! functions with ES 6.8's score and boost modes.

use super::context::Executor;
use super::weight::function_score::{filter_sets, prepare, FunctionScoreWeight};
use super::weight::Weight;
use crate::error::Result;
use crate::query::FunctionScoreQuery;

/// Compiles a function_score query.
pub fn compile<'a>(ex: &Executor<'a>, fs: &FunctionScoreQuery, boost: f32, scoring: bool) -> Result<Weight<'a>> {
    // Lucene hands the query's boost to the inner query's weight.
    let inner = ex.compile(&fs.query, boost * fs.boost, scoring || fs.min_score.is_some())?;
    // Without scores the functions change nothing, but ES explains them all the same.
    // Functions highlight nothing: a weight compiled for highlighting is its query's.
    if (!scoring && fs.min_score.is_none() && !ex.explain) || ex.highlight {
        return Ok(inner);
    }
    // An explanation prints each function's filter (`match filter: ...`): compiled once
    // for its set and its string.
    let (filters, filter_descs) = match ex.explain {
        true => {
            let mut filters = Vec::with_capacity(fs.functions.len());
            let mut descs = Vec::with_capacity(fs.functions.len());
            for f in &fs.functions {
                let Some(q) = &f.filter else {
                    filters.push(None);
                    descs.push(None);
                    continue;
                };
                let w = ex.compile(q, 1.0, false)?;
                descs.push(Some(w.query_string()));
                filters.push(Some(w.docset()?));
            }
            (filters, descs)
        }
        false => (filter_sets(ex, &fs.functions)?, Vec::new()),
    };
    let printed = ex.explain.then(|| format!("function score ({}, functions: [...])", inner.query_string()));
    let w = Weight::FunctionScore(Box::new(FunctionScoreWeight {
        ex: *ex,
        filters,
        prepared: prepare(ex, &fs.functions)?,
        query: fs.clone(),
        inner,
        filter_descs,
    }));
    ex.printed(Ok(w), || printed.unwrap_or_default())
}
