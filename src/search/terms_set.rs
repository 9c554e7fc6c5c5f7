//! `terms_set` as Lucene's `CoveringQuery` runs it: a document matches when at least
//! `max(1, n)` of the terms' queries match it, `n` its value of the minimum field (the
//! first, truncated) or the script's answer (a document without one never matches);
//! it scores the sum of the matching queries' scores, added in double.

use super::context::{query_shard_error, Executor, Resolved};
use super::scorer::NO_MORE;
use super::weight::terms_set::TermsSetWeight;
use super::weight::Weight;
use crate::error::{Error, Exception, Result};
use crate::index::DocSet;
use crate::query::terms_set::{MinimumSource, TermsSetQuery};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Compiles `q` under `boost`: the terms' weights, then per candidate the count check.
pub fn compile<'a>(ex: &Executor<'a>, q: &TermsSetQuery, boost: f32) -> Result<Weight<'a>> {
    let boost = boost * q.boost;
    if q.values.is_empty() {
        return Ok(Weight::none());
    }
    super::clauses::check(ex, q.values.len())?;
    let subs = q.values.iter().map(|v| ex.term(&q.field, v, boost, false)).collect::<Result<Vec<_>>>()?;
    let minimum = q.minimum.as_ref().ok_or_else(|| {
        Error::new(500, Exception::new("illegal_state_exception", "No minimum should match has been specified"))
    })?;
    // Per candidate: how many queries match and the sum of their scores.
    let mut found: BTreeMap<u32, (u64, f64)> = BTreeMap::new();
    for w in &subs {
        let mut s = w.scorer()?;
        while s.doc() != NO_MORE {
            let e = found.entry(s.doc()).or_insert((0, 0.0));
            e.0 += 1;
            e.1 += s.score() as f64;
            s.advance();
        }
        if let Some(e) = s.take_error() {
            return Err(e);
        }
    }
    let mut required = Required::new(ex, minimum, q.values.len())?;
    let (mut doc_list, mut scores) = (Vec::new(), Vec::new());
    for (doc, (count, sum)) in found {
        if let Some(n) = required.of(doc)? {
            if count as i64 >= n.max(1) {
                doc_list.push(doc);
                scores.push(sum as f32);
            }
        }
    }
    let docs = DocSet::from_sorted(&doc_list);
    let subs = if ex.explain { subs } else { Vec::new() };
    Ok(Weight::TermsSet(Box::new(TermsSetWeight { docs, doc_list, scores, subs })))
}

/// Each document's required count.
enum Required<'a> {
    Field(Option<Arc<crate::index::NumericDocValues>>),
    Script(Box<super::script_host::ScriptRunner<'a>>),
}

impl<'a> Required<'a> {
    fn new(ex: &Executor<'a>, source: &MinimumSource, num_terms: usize) -> Result<Required<'a>> {
        Ok(match source {
            MinimumSource::Field(f) => {
                let path = match ex.resolve(f) {
                    Resolved::Field(fm) => fm.path.clone(),
                    _ => return Err(query_shard_error(format!("failed to find minimum_should_match field [{f}]"))),
                };
                Required::Field(ex.reader.numeric_doc_values(ex.snap, &path)?)
            }
            MinimumSource::Script(script) => {
                let mut params = script.params.clone();
                if let Some(o) = params.as_object_mut() {
                    o.insert("num_terms".into(), serde_json::json!(num_terms));
                }
                let script = Arc::new(script.with_params(params));
                let access =
                    super::script_host::Access { context: super::script_host::Context::TermsSet, ..Default::default() };
                Required::Script(Box::new(super::script_host::ScriptRunner::new(&script, ex.reader, ex.snap, access)?))
            }
        })
    }

    /// The count `doc` requires; `None` when it has none.
    fn of(&mut self, doc: u32) -> Result<Option<i64>> {
        Ok(match self {
            Required::Field(None) => None,
            Required::Field(Some(dv)) if dv.is_double() => dv.values_f64(doc).next().map(|v| v as i64),
            Required::Field(Some(dv)) => dv.values_i64(doc).next(),
            Required::Script(runner) => match runner.run(doc)? {
                Some(v) => Some(runner.number(&v)? as i64),
                None => None,
            },
        })
    }
}
