//! `scripted_metric`, as ES 6.8 runs it with one shard per index: per index, the init
//! script, the map script on each document and the combine script share one state (the
//! `state` variable, also `params._agg`); the reduce script then sees the indices'
//! results as `states` (also `params._aggs`). Without a combine script an index's result
//! is its state; without a reduce script the aggregation's value is the list of results.

use super::Ctx;
use crate::error::{Error, Result};
use crate::index::DocSet;
use crate::request::scripted_metric_agg::ScriptedMetricSpec;
use crate::script::{DocValues, Halt, Heap, Host, Script, Value};
use crate::search::response::aggregations::AggBody;
use crate::search::script_host::{Access, ScriptRunner};
use serde_json::Map;
use std::sync::Arc;

/// The host of the scripts that run without a document (init, combine, reduce): they
/// read `params` and the context's entries of it, nothing of a document.
struct NoDocHost {
    extra_params: Vec<(String, Value)>,
}

impl Host for NoDocHost {
    fn doc_values(&mut self, _name: &str, offset: usize) -> std::result::Result<DocValues, Halt> {
        Err(Halt::at(offset, "illegal_argument_exception", "Variable [doc] is not defined."))
    }
    fn has_field(&mut self, _name: &str) -> bool {
        false
    }
    fn source(&mut self, offset: usize) -> std::result::Result<serde_json::Value, Halt> {
        Err(Halt::null_pointer(offset))
    }
    fn score(&mut self, offset: usize) -> std::result::Result<f64, Halt> {
        Err(Halt::at(offset, "illegal_argument_exception", "Variable [_score] is not defined."))
    }
    fn value(&mut self, offset: usize) -> std::result::Result<Value, Halt> {
        Err(Halt::at(offset, "illegal_argument_exception", "Variable [_value] is not defined."))
    }
    fn param(&mut self, key: &str) -> Option<Value> {
        self.extra_params.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    }
}

/// `script` compiled with the context variable `local`, its params the aggregation's
/// `params` merged with its own (ES refuses a name given in both).
fn prepared(script: &Script, local: &str, agg_params: Option<&Map<String, serde_json::Value>>) -> Result<Script> {
    let mut params = agg_params.cloned().unwrap_or_default();
    if let serde_json::Value::Object(own) = &script.params {
        for (k, v) in own {
            if params.contains_key(k) {
                return Err(Error::illegal_argument(format!(
                    "Parameter name \"{k}\" used in both aggregation and script parameters"
                )));
            }
            params.insert(k.clone(), v.clone());
        }
    }
    let mut merged = Script::compile(&script.source, serde_json::Value::Object(params));
    merged = merged.with_locals(&[local]);
    Ok(merged)
}

/// One index's result: the combine script's value, or the state.
fn shard_result(ctx: &Ctx<'_>, spec: &ScriptedMetricSpec, t: usize, docs: &DocSet) -> Result<serde_json::Value> {
    let index = ctx.targets[t].meta.name.clone();
    // ES compiles the shard's scripts in this order; an expression cannot be one.
    let shard_scripts = [
        (spec.init.as_deref(), "aggs_init"),
        (Some(&*spec.map), "aggs_map"),
        (spec.combine.as_deref(), "aggs_combine"),
    ];
    for (script, context) in shard_scripts {
        if let Some(e) = script.and_then(|s| s.unsupported_context(context)) {
            let cause = crate::error::Exception::new("illegal_argument_exception", e.reason().to_string());
            return Err(Error::all_shards_failed(400, Some(&index), cause));
        }
    }
    let agg_params = Some(&spec.params);
    let init = spec.init.as_deref().map(|s| prepared(s, "state", agg_params)).transpose()?;
    let map = Arc::new(prepared(&spec.map, "state", agg_params)?);
    let combine = spec.combine.as_deref().map(|s| prepared(s, "state", agg_params)).transpose()?;
    for s in [&init, &combine].into_iter().flatten() {
        s.check(Some(&index))?;
    }
    // Only a map script that reads `_score` makes the query's scores be computed.
    let access =
        Access { source: true, score: map.reads_score(), context: crate::search::script_host::Context::AggsMap };
    let mut runner = ScriptRunner::new(&map, &ctx.targets[t], ctx.snap, access)?;
    // The state lives in the runner's heap, which no run empties.
    let state = runner.heap.new_map(Default::default(), 0).map_err(|h| map.failure(Some(&index), &h))?;
    let extra = vec![("_agg".to_string(), state.clone())];
    let locals = [state.clone()];
    let mut bare = NoDocHost { extra_params: extra.clone() };
    if let Some(init) = &init {
        init.run_resumed(&mut runner.heap, &mut bare, &locals).map_err(|h| init.failure(Some(&index), &h))?;
    }
    runner.host.extra_params = extra;
    for doc in super::walk(docs) {
        if access.score {
            runner.host.score = ctx.score(t, doc)? as f64;
        }
        if runner.run_resumed(doc, &locals)?.is_none() {
            break;
        }
    }
    let result = match &combine {
        Some(combine) => {
            combine.run_resumed(&mut runner.heap, &mut bare, &locals).map_err(|h| combine.failure(Some(&index), &h))?
        }
        None => state,
    };
    Ok(runner.json(&result))
}

/// `scripted_metric`.
pub fn scripted_metric(ctx: &Ctx<'_>, spec: &ScriptedMetricSpec, docs: &[DocSet]) -> Result<super::Typed> {
    let mut results = Vec::with_capacity(docs.len());
    for (t, d) in docs.iter().enumerate() {
        results.push(shard_result(ctx, spec, t, d)?);
    }
    let Some(reduce) = &spec.reduce else {
        return Ok(("scripted_metric", AggBody::Scripted(serde_json::Value::Array(results))));
    };
    let index = ctx.targets.first().map(|r| r.meta.name.clone());
    if let Some(e) = reduce.unsupported_context("aggs_reduce") {
        return Err(e);
    }
    // The reduce script has its own params only, plus `_aggs`.
    let reduce = prepared(reduce, "states", None)?;
    reduce.check(index.as_deref())?;
    let mut heap = Heap::default();
    let fail = |h: Halt| reduce.failure(index.as_deref(), &h);
    let states = heap.from_json(&serde_json::Value::Array(results), 0, 0).map_err(fail)?;
    let mut host = NoDocHost { extra_params: vec![("_aggs".to_string(), states.clone())] };
    let value = reduce.run_resumed(&mut heap, &mut host, &[states]).map_err(fail)?;
    Ok(("scripted_metric", AggBody::Scripted(heap.to_json(&value, 0))))
}
