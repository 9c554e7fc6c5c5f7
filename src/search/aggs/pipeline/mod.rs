//! Pipeline aggregations, run over the typed aggregation results as ES 6.8 runs them when
//! it reduces: the pipelines among an aggregation's sub-aggregations run, in the order
//! their `buckets_path`s require, once that aggregation's result is built — a parent pipeline
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
use crate::search::response::aggregations::{AggBody, AggResult, AggResults, Formatted, Num};
use serde_json::Value;

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

/// What one pipeline writes into a bucket or a level: a result under its name.
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

    /// The pipeline's result: `body` under its name, with its `meta`.
    fn result(&self, type_name: &'static str, body: AggBody) -> AggResult {
        AggResult { name: self.node.name.clone(), type_name, meta: self.node.meta.clone(), body }
    }

    /// `v` with its text in the pipeline's `format` (written only when `v` is finite).
    fn formatted(&self, v: f64) -> Formatted {
        Formatted { value: v, as_string: self.text(v) }
    }

    /// `v` in the pipeline's `format`, when it has one and `v` is finite.
    fn text(&self, v: f64) -> Option<String> {
        self.format.as_ref().filter(|_| v.is_finite()).map(|f| f.format(v))
    }

    /// ES's `InternalSimpleValue` (`simple_value`).
    fn simple_value(&self, v: f64) -> AggResult {
        self.result("simple_value", AggBody::Value { value: Num::Double(v), as_string: self.text(v) })
    }
}

/// Runs the pipelines among `node`'s sub-aggregations over its result `body`.
pub fn run_within(ctx: &Ctx<'_>, node: &AggNode, body: &mut AggBody) -> Result<()> {
    for (pnode, spec) in ordered(&node.subs) {
        let out = Output::new(ctx, pnode, spec)?;
        let result = if spec.kind.is_parent() {
            parent::run(&out, node, body)
        } else {
            match body {
                AggBody::Buckets(list) => list.buckets.iter_mut().try_for_each(|b| sibling::run(&out, &mut b.subs)),
                AggBody::SingleBucket { subs, .. } => sibling::run(&out, subs),
                // Only bucket aggregations take sub-aggregations (`request/aggs.rs`).
                _ => Ok(()),
            }
        };
        result.map_err(reduce_failure)?;
    }
    Ok(())
}

/// Runs the top level's sibling pipelines over the top-level results.
pub fn run_top(ctx: &Ctx<'_>, nodes: &[AggNode], aggs: &mut AggResults) -> Result<()> {
    for (pnode, spec) in ordered(nodes) {
        let out = Output::new(ctx, pnode, spec)?;
        sibling::run(&out, aggs).map_err(reduce_failure)?;
    }
    Ok(())
}
