//! `sampler` (ES 6.8's `SamplerAggregator` with its best-docs deferring collector) and
//! `diversified_sampler` (Lucene's `DiversifiedTopDocsCollector`).

use super::values::{FieldValues, Key, TargetValues};
use super::Ctx;
use crate::error::{Error, Exception, Result};
use crate::index::DocSet;
use crate::request::aggs::AggNode;
use crate::request::bucket_aggs_more::DiversifiedSamplerSpec;
use std::collections::HashMap;

/// `sampler` (ES 6.8's `SamplerAggregator`): the sub-aggregations see the `shard_size`
/// best-scoring documents of each index (ties by document order, as Lucene's top-docs
/// collector keeps them); `doc_count` is their number.
pub fn sampler(ctx: &Ctx<'_>, node: &AggNode, shard_size: usize, docs: &[DocSet]) -> Result<super::Typed> {
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
    Ok(("sampler", super::single_bucket(ctx, node, &sampled)?))
}

/// `diversified_sampler`: the best-scoring documents of each index (`shard_size`), at most
/// `max_docs_per_value` sharing a value of the field. Lucene's collector keeps, under
/// its order (score descending, then document), what choosing the best documents one by
/// one within both bounds keeps. A document without a value shares the key 0 with the
/// first term (ordinal 0) or the number 0, as the collector reads a missing key; a
/// document with several values is refused, as in ES.
pub fn diversified_sampler(
    ctx: &Ctx<'_>,
    node: &AggNode,
    spec: &DiversifiedSamplerSpec,
    docs: &[DocSet],
) -> Result<super::Typed> {
    let fv = FieldValues::open(ctx, &spec.field)?;
    let mut sampled = Vec::with_capacity(docs.len());
    for (t, d) in docs.iter().enumerate() {
        let mut scored = Vec::new();
        for doc in super::walk(d) {
            scored.push((ctx.score(t, doc)?, doc));
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut per_key: HashMap<Key, usize> = HashMap::new();
        let mut kept = Vec::new();
        for (_, doc) in scored {
            if kept.len() >= spec.shard_size {
                break;
            }
            let key = diversity_key(ctx, &fv, t, doc)?;
            let n = per_key.entry(key).or_insert(0);
            if *n < spec.max_docs_per_value {
                *n += 1;
                kept.push(doc);
            }
        }
        sampled.push(DocSet::from_docs(kept));
    }
    Ok(("diversified_sampler", super::single_bucket(ctx, node, &sampled)?))
}

/// The key a document is diversified by: its single value (a keyword's ordinal), 0
/// without one.
fn diversity_key(ctx: &Ctx<'_>, fv: &FieldValues, t: usize, doc: u32) -> Result<Key> {
    let mut keys = Vec::with_capacity(1);
    match &fv.targets[t] {
        TargetValues::Keyword(dv) => keys.extend(dv.ords(doc).map(|o| Key::Long(o as i64))),
        TargetValues::Numeric(_) => fv.for_each_number(t, doc, |v| keys.push(Key::Double(v))),
        TargetValues::Constant(s) => keys.push(Key::Str(s.clone())),
        TargetValues::Computed(values) => keys.extend(values.get(&doc).into_iter().flatten().cloned()),
        TargetValues::None => {}
    }
    match keys.len() {
        0 => Ok(match &fv.targets[t] {
            TargetValues::Keyword(_) => Key::Long(0),
            _ => Key::Double(0.0),
        }),
        1 => Ok(keys.remove(0)),
        _ => Err(Error::all_shards_failed(
            400,
            ctx.targets.first().map(|t| t.meta.name.as_str()),
            Exception::new("illegal_argument_exception", "Sample diversifying key must be a single valued-field"),
        )),
    }
}
