//! `adjacency_matrix` (ES 6.8's `AdjacencyMatrixAggregator`): a bucket per filter and per
//! pair of filters (`a&b`, the documents matching both), empty ones left out, sorted by
//! key as ES's reduce sorts them.

use super::{run_all, total, Ctx};
use crate::error::{Error, Exception, Result};
use crate::index::DocSet;
use crate::request::aggs::AggNode;
use crate::request::bucket_aggs_more::AdjacencySpec;
use crate::search::response::aggregations::{AggBody, Bucket, BucketKey, BucketList, KeyValue, ListHead};

/// `adjacency_matrix`.
pub fn adjacency_matrix(ctx: &Ctx<'_>, node: &AggNode, spec: &AdjacencySpec, docs: &[DocSet]) -> Result<super::Typed> {
    for reader in ctx.targets {
        let max = reader.meta.settings.limits.max_adjacency_matrix_filters;
        if spec.filters.len() as u64 > max {
            return Err(Error::all_shards_failed(
                500,
                Some(&reader.meta.name),
                Exception::new(
                    "query_phase_execution_exception",
                    format!(
                        "Number of filters is too large, must be less than or equal to: [{max}] but was [{}].This limit can be set by changing the [index.max_adjacency_matrix_filters] index level setting.",
                        spec.filters.len()
                    ),
                ),
            ));
        }
    }
    let mut sets = Vec::with_capacity(spec.filters.len());
    for (_, q) in &spec.filters {
        let mut s = ctx.filter_docs(q)?;
        for (x, d) in s.iter_mut().zip(docs) {
            x.and_with(d);
        }
        sets.push(s);
    }
    let mut buckets: Vec<(String, Vec<DocSet>)> = Vec::new();
    for (i, (name, _)) in spec.filters.iter().enumerate() {
        if total(&sets[i]) > 0 {
            buckets.push((name.clone(), sets[i].clone()));
        }
    }
    for i in 0..sets.len() {
        for j in i + 1..sets.len() {
            let both: Vec<DocSet> = sets[i]
                .iter()
                .zip(&sets[j])
                .map(|(a, b)| {
                    let mut x = a.clone();
                    x.and_with(b);
                    x
                })
                .collect();
            if total(&both) > 0 {
                buckets.push((format!("{}{}{}", spec.filters[i].0, spec.separator, spec.filters[j].0), both));
            }
        }
    }
    buckets.sort_by(|a, b| a.0.cmp(&b.0));
    ctx.add_buckets(&node.name, buckets.len())?;
    let mut rendered = Vec::with_capacity(buckets.len());
    for (key, d) in buckets {
        let subs = run_all(ctx, &node.subs, &d)?;
        let key = BucketKey::Term { key: KeyValue::Str(key), as_string: None };
        rendered.push(Bucket { key, doc_count: total(&d), significance: None, subs });
    }
    Ok(("adjacency_matrix", AggBody::Buckets(BucketList { head: ListHead::Plain, buckets: rendered, keyed: false })))
}
