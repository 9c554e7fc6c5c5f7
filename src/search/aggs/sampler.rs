//! `sampler` (ES 6.8's `SamplerAggregator` with its best-docs deferring collector).

use super::Ctx;
use crate::error::Result;
use crate::index::DocSet;
use crate::request::aggs::AggNode;
use serde_json::Value;

/// `sampler` (ES 6.8's `SamplerAggregator`): the sub-aggregations see the `shard_size`
/// best-scoring documents of each index (ties by document order, as Lucene's top-docs
/// collector keeps them); `doc_count` is their number.
pub fn sampler(ctx: &Ctx<'_>, node: &AggNode, shard_size: usize, docs: &[DocSet]) -> Result<(String, Value)> {
    let mut sampled = Vec::with_capacity(docs.len());
    for (t, d) in docs.iter().enumerate() {
        let mut scored = Vec::new();
        for doc in super::walk(d) {
            scored.push((ctx.score(t, doc)?, doc));
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.truncate(shard_size);
        sampled.push(DocSet::from_docs(scored.into_iter().map(|(_, doc)| doc)));
    }
    Ok(("sampler".into(), super::single_bucket(ctx, node, &sampled)?))
}
