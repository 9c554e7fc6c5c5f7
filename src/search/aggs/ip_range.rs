//! The `ip_range` aggregation (ES 6.8's `BinaryRangeAggregator` over an `ip` field):
//! each range counts the documents with an address from `from` (included) to `to`
//! (excluded), ranges answered sorted by (from, to), keyed by the key given, the mask,
//! or `from-to` with `*` for an open end.

use super::values::{FieldValues, ValueKind};
use super::{Ctx, Typed};
use crate::error::{Error, Exception, Result};
use crate::index::DocSet;
use crate::mapping::ip::{self, Ip};
use crate::request::aggs::AggNode;
use crate::request::ip_range_agg::IpRangeSpec;
use crate::search::response::aggregations::{AggBody, Bucket, BucketKey, BucketList, KeyValue, ListHead};

/// Computes `ip_range`: its typed-keys name and its body.
pub fn ip_range(ctx: &Ctx<'_>, node: &AggNode, spec: &IpRangeSpec, docs: &[DocSet]) -> Result<Typed> {
    let fv = FieldValues::open(ctx, &spec.field)?;
    if !matches!(fv.kind, ValueKind::Ip | ValueKind::Unmapped) {
        return Err(Error::all_shards_failed(
            400,
            ctx.targets.first().map(|t| t.meta.name.as_str()),
            Exception::new(
                "illegal_argument_exception",
                format!(
                    "Field [{}] of type [{}] is not supported for aggregation [ip_range]",
                    spec.field.field,
                    fv.kind.type_name()
                ),
            ),
        ));
    }
    let mut ranges = spec.ranges.clone();
    // Open ends sort as the lowest and highest addresses (an open `to` past every one).
    ranges.sort_by_key(|r| {
        let from = r.from.map_or((0u8, 0u128), |f| (1, u128::from_be_bytes(f)));
        let to = r.to.map_or((1u8, 0u128), |t| (0, u128::from_be_bytes(t)));
        (from, to)
    });
    ctx.add_buckets(&node.name, ranges.len())?;
    let mut buckets = Vec::with_capacity(ranges.len());
    for r in ranges {
        let from_term = r.from.as_ref().map(ip::term);
        let to_term = r.to.as_ref().map(ip::term);
        let mut sub = Vec::with_capacity(docs.len());
        for (t, d) in docs.iter().enumerate() {
            let mut s = DocSet::new();
            for doc in super::walk(d) {
                let mut hit = false;
                fv.for_each_key(t, doc, |k| {
                    if let super::values::Key::Str(term) = k {
                        hit |= from_term.as_deref().is_none_or(|f| term.as_str() >= f)
                            && to_term.as_deref().is_none_or(|to| term.as_str() < to);
                    }
                });
                if hit {
                    s.insert(doc);
                }
            }
            sub.push(s);
        }
        let shown = |a: &Option<Ip>| a.as_ref().map(ip::format);
        let key = r.key.clone().unwrap_or_else(|| {
            format!("{}-{}", shown(&r.from).unwrap_or_else(|| "*".into()), shown(&r.to).unwrap_or_else(|| "*".into()))
        });
        let bound = |a: &Option<Ip>| shown(a).map(|s| (KeyValue::Str(s), None));
        let key = BucketKey::Range { key, from: bound(&r.from), to: bound(&r.to) };
        let subs = super::run_all(ctx, &node.subs, &sub)?;
        buckets.push(Bucket { key, doc_count: docs_total(&sub), significance: None, subs });
    }
    Ok(("ip_range", AggBody::Buckets(BucketList { head: ListHead::Plain, buckets, keyed: spec.keyed })))
}

fn docs_total(docs: &[DocSet]) -> u64 {
    docs.iter().map(DocSet::len).sum()
}
