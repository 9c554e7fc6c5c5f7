//! Pipeline aggregations, run over rendered aggregation results as ES 6.8 runs them when
//! it reduces: the pipelines among an aggregation's sub-aggregations run, in the order
//! their `buckets_path`s require, once that aggregation is rendered — a parent pipeline
//! (`derivative`, `bucket_script`, ...) over its buckets, a sibling one (`max_bucket`,
//! ...) within each of its buckets; the top level's siblings run last.
//!
//! Before any index is read, the tree is checked as ES 6.8 checks it on the shard
//! ([`validate`]): every path's first aggregation exists, a sequence pipeline sits in a
//! histogram with `min_doc_count` 0, a `*_bucket` names a multi-bucket sibling.

mod models;
mod parent;
mod path;
mod sibling;
mod validate;

pub use validate::validate;

use super::Ctx;
use crate::error::{Error, Exception, Result};
use crate::request::aggs::{AggKind, AggNode};
use crate::request::decimal_format::DecimalFormat;
use crate::request::pipeline_aggs::PipelineSpec;
use serde_json::{Map, Value};

/// The error of a pipeline failing while ES reduces the shards' results: the search
/// fails in its fetch phase with no shard failure (`search_phase_execution_exception`,
/// the cause's status).
fn reduce_failure(e: Error) -> Error {
    let top = Exception::new("search_phase_execution_exception", "")
        .with_meta("phase", "fetch")
        .with_meta("grouped", true)
        .with_meta("failed_shards", Value::Array(Vec::new()))
        .caused_by(e.exception.clone());
    Error::new(e.status, top).with_root_causes(vec![e.exception])
}

/// An `aggregation_execution_exception` (500) with `reason`.
fn execution_error(reason: impl Into<String>) -> Error {
    Error::new(500, Exception::new("aggregation_execution_exception", reason))
}

/// The pipelines among `nodes`, in the order their paths require.
fn ordered(nodes: &[AggNode]) -> Vec<(&AggNode, &PipelineSpec)> {
    let pipelines: Vec<(&AggNode, &PipelineSpec)> = nodes
        .iter()
        .filter_map(|n| match &n.kind {
            AggKind::Pipeline(p) => Some((n, &**p)),
            _ => None,
        })
        .collect();
    validate::resolve_order(nodes).map(|order| order.into_iter().map(|i| pipelines[i]).collect()).unwrap_or(pipelines)
}

/// What one pipeline writes into a bucket or a level: its (typed) key and its body.
struct Output<'a> {
    ctx: &'a Ctx<'a>,
    node: &'a AggNode,
    spec: &'a PipelineSpec,
    format: Option<DecimalFormat>,
}

impl<'a> Output<'a> {
    fn new(ctx: &'a Ctx<'a>, node: &'a AggNode, spec: &'a PipelineSpec) -> Result<Output<'a>> {
        let format = spec.format.as_deref().map(DecimalFormat::parse).transpose().map_err(Error::illegal_argument)?;
        Ok(Output { ctx, node, spec, format })
    }

    /// The response key under `type_name` (`typed_keys` prefixes it).
    fn key(&self, type_name: &str) -> String {
        if self.ctx.typed_keys {
            format!("{type_name}#{}", self.node.name)
        } else {
            self.node.name.clone()
        }
    }

    /// A body starting with the aggregation's `meta`.
    fn body(&self) -> Map<String, Value> {
        let mut m = Map::new();
        if let Some(meta) = &self.node.meta {
            m.insert("meta".into(), meta.clone());
        }
        m
    }

    /// `value` (null when not finite) and `value_as_string` under `field`.
    fn number(&self, m: &mut Map<String, Value>, field: &str, v: f64) {
        if v.is_finite() {
            m.insert(field.into(), Value::from(v));
            if let Some(f) = &self.format {
                m.insert(format!("{field}_as_string"), Value::from(f.format(v)));
            }
        } else {
            m.insert(field.into(), Value::Null);
        }
    }

    /// ES's `InternalSimpleValue` (`simple_value`).
    fn simple_value(&self, v: f64) -> (String, Value) {
        let mut m = self.body();
        self.number(&mut m, "value", v);
        (self.key("simple_value"), Value::Object(m))
    }
}

/// Runs the pipelines among `node`'s sub-aggregations over its rendered `body`.
pub fn run_within(ctx: &Ctx<'_>, node: &AggNode, body: &mut Value) -> Result<()> {
    for (pnode, spec) in ordered(&node.subs) {
        let out = Output::new(ctx, pnode, spec)?;
        let result = if spec.kind.is_parent() {
            parent::run(&out, node, body)
        } else if let Some(buckets) = body.get_mut("buckets") {
            for_each_bucket(buckets, |b| sibling::run(&out, b))
        } else if let Value::Object(m) = body {
            sibling::run(&out, m)
        } else {
            Ok(())
        };
        result.map_err(reduce_failure)?;
    }
    Ok(())
}

/// Runs the top level's sibling pipelines over the rendered top-level `aggs`.
pub fn run_top(ctx: &Ctx<'_>, nodes: &[AggNode], aggs: &mut Map<String, Value>) -> Result<()> {
    for (pnode, spec) in ordered(nodes) {
        let out = Output::new(ctx, pnode, spec)?;
        sibling::run(&out, aggs).map_err(reduce_failure)?;
    }
    Ok(())
}

/// Calls `f` on each bucket of a rendered `buckets` (an array, or an object when keyed).
fn for_each_bucket(buckets: &mut Value, f: impl FnMut(&mut Map<String, Value>) -> Result<()>) -> Result<()> {
    match buckets {
        Value::Array(a) => a.iter_mut().filter_map(Value::as_object_mut).try_for_each(f),
        Value::Object(o) => o.values_mut().filter_map(Value::as_object_mut).try_for_each(f),
        _ => Ok(()),
    }
}
