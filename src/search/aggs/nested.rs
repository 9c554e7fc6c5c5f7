//! The `nested` and `reverse_nested` aggregations (ES 6.8's `NestedAggregator` and
//! `ReverseNestedAggregator`): from documents to the nested documents of their blocks,
//! and back to the documents holding them. The scope — the path of the enclosing
//! `nested` aggregation, the roots at the top — says which documents are parents.

use super::{single_bucket, Ctx, Typed};
use crate::error::{Error, Exception, Result};
use crate::index::DocSet;
use crate::request::aggs::AggNode;
use crate::search::response::aggregations::AggBody;
use crate::search::weight::join::{children_of, parents_of};

fn execution_error(ctx: &Ctx<'_>, reason: String) -> Error {
    Error::all_shards_failed(
        500,
        ctx.targets.first().map(|t| t.meta.name.as_str()),
        Exception::new("aggregation_execution_exception", reason),
    )
}

/// Whether `path` is a nested object in target `t` (`None`: not mapped there), or the
/// error ES gives for an object that is not nested.
fn nested_path(ctx: &Ctx<'_>, t: usize, agg: &str, path: &str) -> Result<Option<()>> {
    match ctx.targets[t].meta.mapping.objects.get(path) {
        None => Ok(None),
        Some(o) if o.nested.is_some() => Ok(Some(())),
        Some(_) => Err(execution_error(ctx, format!("[{agg}] nested path [{path}] is not nested"))),
    }
}

/// The documents of the current scope in target `t`.
fn scope_docs(ctx: &Ctx<'_>, t: usize, scope: Option<&str>) -> Result<DocSet> {
    let ex = ctx.executor(t);
    match scope {
        Some(p) => Ok((*ctx.targets[t].nested_docs(ctx.snap, p)?).clone()),
        None => ex.top_level_docs(),
    }
}

/// Runs `node`'s sub-aggregations over `docs` as one bucket, in the scope `scope`.
fn bucket_in_scope(ctx: &Ctx<'_>, node: &AggNode, docs: &[DocSet], scope: Option<String>) -> Result<AggBody> {
    let outer = ctx.nested_scope.replace(scope);
    let out = single_bucket(ctx, node, docs);
    ctx.nested_scope.replace(outer);
    out
}

/// `nested`: the nested documents at `path` in the blocks of `docs`.
pub(super) fn nested(ctx: &Ctx<'_>, node: &AggNode, path: &str, docs: &[DocSet]) -> Result<Typed> {
    let scope = ctx.nested_scope.borrow().clone();
    let mut out = Vec::with_capacity(docs.len());
    for (t, d) in docs.iter().enumerate() {
        if nested_path(ctx, t, "nested", path)?.is_none() {
            out.push(DocSet::new());
            continue;
        }
        let parents = scope_docs(ctx, t, scope.as_deref())?;
        let children = ctx.targets[t].nested_docs(ctx.snap, path)?;
        out.push(children_of(d, &parents, &children));
    }
    Ok(("nested", bucket_in_scope(ctx, node, &out, Some(path.to_string()))?))
}

/// `reverse_nested`: the documents at `path` (the roots when `None`) holding `docs`.
pub(super) fn reverse_nested(ctx: &Ctx<'_>, node: &AggNode, path: Option<&str>, docs: &[DocSet]) -> Result<Typed> {
    if ctx.nested_scope.borrow().is_none() {
        return Err(Error::new(
            400,
            Exception::new(
                "search_parse_exception",
                format!("Reverse nested aggregation [{}] can only be used inside a [nested] aggregation", node.name),
            ),
        ));
    }
    let mut out = Vec::with_capacity(docs.len());
    for (t, d) in docs.iter().enumerate() {
        if let Some(p) = path {
            if nested_path(ctx, t, "reverse_nested", p)?.is_none() {
                out.push(DocSet::new());
                continue;
            }
        }
        out.push(parents_of(d, &scope_docs(ctx, t, path)?));
    }
    Ok(("reverse_nested", bucket_in_scope(ctx, node, &out, path.map(str::to_string))?))
}
