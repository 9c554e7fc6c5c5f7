//! `auto_date_histogram` (ES 6.8's `AutoDateHistogramAggregator` and the reduce of
//! `InternalAutoDateHistogram`): the finest rounding of ES's ladder — seconds, minutes,
//! hours, days, months, years — whose buckets stay within `buckets` times its largest
//! inner interval; then, as ES's final reduce does, the gaps are filled, coarser roundings
//! taken while there are too many buckets, and consecutive buckets merged by the first
//! inner interval (`7d`, `3M`, ...) that brings them within `buckets`. The response names
//! that `interval`.

use super::buckets::{count_by, docs_by, value_span, DateRounding};
use super::values::{FieldValues, ValueKind};
use super::{Ctx, MAX_BUCKETS};
use crate::error::Result;
use crate::index::DocSet;
use crate::request::aggs::{AggNode, DateInterval, FieldSpec, ValueType};
use crate::request::bucket_aggs_more::AutoDateHistogramSpec;
use crate::search::response::aggregations::{AggBody, AggResults, Bucket, BucketKey, BucketList, KeyValue, ListHead};

/// ES's rounding ladder: the unit and its inner intervals.
const LADDER: [(char, &[usize]); 6] = [
    ('s', &[1, 5, 10, 30]),
    ('m', &[1, 5, 10, 30]),
    ('h', &[1, 3, 12]),
    ('d', &[1, 7]),
    ('M', &[1, 3]),
    ('y', &[1, 5, 10, 20, 50, 100]),
];

/// The rough length of each rounding's unit (ES's `getRoughEstimateDurationMillis`).
const ROUGH_MS: [i64; 6] = [1000, 60_000, 3_600_000, 86_400_000, 30 * 86_400_000, 365 * 86_400_000];

/// One unit after `ms` as Joda's `nextRoundingValue` adds it in the zone: months and years
/// keep the day of the month (clamped), the others are fixed lengths.
fn plus_unit(ms: i64, unit: char, tz: i32) -> Option<i64> {
    let months = match unit {
        'M' => 1,
        'y' => 12,
        'd' => return ms.checked_add(86_400_000),
        'h' => return ms.checked_add(3_600_000),
        'm' => return ms.checked_add(60_000),
        _ => return ms.checked_add(1000),
    };
    let off = tz as i64 * 1000;
    let local = chrono::DateTime::from_timestamp_millis(ms.checked_add(off)?)?.naive_utc();
    let next = local.checked_add_months(chrono::Months::new(months))?;
    next.and_utc().timestamp_millis().checked_sub(off)
}

/// ES's `getAppropriateRounding`: from the rounding in use, the first whose buckets
/// between the smallest and the largest key (stepping one unit from the smallest) stay
/// within `target` times its largest inner interval, a rough estimate choosing where to
/// start counting.
fn appropriate_rounding(min: i64, max: i64, idx: usize, target: usize, tz: i32) -> usize {
    if idx == LADDER.len() - 1 {
        return idx;
    }
    let mut current = idx;
    for (i, rough) in ROUGH_MS.iter().enumerate().skip(idx + 1) {
        let estimate = (max - min) / rough;
        if estimate < (target.saturating_mul(max_inner(i))) as i64 {
            current = i - 1;
            break;
        }
    }
    loop {
        let unit = LADDER[current].0;
        let bound = target.saturating_mul(max_inner(current));
        let (mut key, mut required) = (min, 0usize);
        while key < max && required <= bound {
            required += 1;
            match plus_unit(key, unit, tz) {
                Some(k) if k > key => key = k,
                _ => break,
            }
        }
        current += 1;
        if required <= bound || current == LADDER.len() {
            return current - 1;
        }
    }
}

/// The largest inner interval of rounding `idx`.
fn max_inner(idx: usize) -> usize {
    LADDER[idx].1.last().copied().unwrap_or(1)
}

/// `auto_date_histogram`.
pub fn auto_date_histogram(
    ctx: &Ctx<'_>,
    node: &AggNode,
    spec: &AutoDateHistogramSpec,
    docs: &[DocSet],
) -> Result<super::Typed> {
    // A field no index maps reads `missing` as a date, as for `date_histogram`.
    let field = FieldSpec { value_type: spec.field.value_type.or(Some(ValueType::Date)), ..spec.field.clone() };
    let fv = FieldValues::open(ctx, &field)?;
    fv.require_numeric(ctx, &spec.field.field, "auto_date_histogram")?;
    let tz = spec.time_zone.as_ref().map(|z| z.offset_secs()).unwrap_or(0);
    let span = value_span(ctx, &spec.field.field)?;
    let roundings: Vec<DateRounding> =
        LADDER.iter().map(|(u, _)| DateRounding::new(DateInterval::Calendar(*u), 0, tz, span)).collect();
    let target = spec.buckets;
    // The shard's rounding: it moves up while the distinct keys pass the bound.
    let mut idx = 0;
    let mut counts = count_by(&fv, docs, &mut |v| roundings[0].floor(v as i64));
    while idx < LADDER.len() - 1 && counts.len() > target.saturating_mul(max_inner(idx)) {
        idx += 1;
        counts = count_by(&fv, docs, &mut |v| roundings[idx].floor(v as i64));
    }
    // The reduce: the rounding must also cover the keys' range within the bound.
    if let (Some((&min, _)), Some((&max, _))) = (counts.first_key_value(), counts.last_key_value()) {
        let wanted = appropriate_rounding(min, max, idx, target, tz);
        if wanted > idx {
            idx = wanted;
            let mut merged = std::collections::BTreeMap::new();
            for (k, c) in counts {
                *merged.entry(roundings[idx].floor(k)).or_insert(0u64) += c;
            }
            counts = merged;
        }
    }
    // The final reduce: gaps filled (each empty bucket counts towards the limit, as ES's
    // reduce consumes them), coarser roundings while too many, consecutive merges.
    let mut buckets: Vec<(i64, u64)> = Vec::with_capacity(counts.len());
    for (k, c) in counts {
        if let Some(&(last, _)) = buckets.last() {
            let mut next = roundings[idx].next(last);
            while let Some(n) = next.filter(|n| *n < k) {
                buckets.push((n, 0));
                if buckets.len() > MAX_BUCKETS {
                    ctx.check_buckets(buckets.len())?;
                }
                next = roundings[idx].next(n).filter(|m| *m > n);
            }
        }
        buckets.push((k, c));
    }
    while buckets.len() > target.saturating_mul(max_inner(idx)) && idx < LADDER.len() - 1 {
        idx += 1;
        let mut merged: Vec<(i64, u64)> = Vec::new();
        for (k, c) in buckets {
            let key = roundings[idx].floor(k);
            match merged.last_mut() {
                Some((last, n)) if *last == key => *n += c,
                _ => merged.push((key, c)),
            }
        }
        buckets = merged;
    }
    let mut inner = 1;
    if buckets.len() > target {
        if let Some(&i) = LADDER[idx].1.iter().find(|i| buckets.len() / **i <= target) {
            inner = i;
            buckets = buckets.chunks(i).map(|group| (group[0].0, group.iter().map(|(_, c)| c).sum())).collect();
        }
    }
    ctx.add_buckets(&node.name, buckets.len())?;
    let keys: Vec<i64> = buckets.iter().map(|(k, _)| *k).collect();
    let rounding = &roundings[idx];
    let bucket_of = |v: f64| {
        let r = rounding.floor(v as i64);
        keys[keys.partition_point(|k| *k <= r).saturating_sub(1)]
    };
    let sub_docs = if node.subs.is_empty() || keys.is_empty() {
        Vec::new()
    } else {
        docs_by(&fv, docs, &keys, &mut |v| bucket_of(v))
    };
    let fmt = match &fv.kind {
        ValueKind::Date(f) => Some(f.clone()),
        _ => None,
    };
    let mut rendered = Vec::with_capacity(buckets.len());
    for (i, (key, count)) in buckets.into_iter().enumerate() {
        let key =
            BucketKey::Histogram { key: KeyValue::Long(key), as_string: fmt.as_ref().map(|f| f.format_at(key, tz)) };
        let subs = match sub_docs.get(i) {
            Some(d) => super::run_all(ctx, &node.subs, d)?,
            None => AggResults::default(),
        };
        rendered.push(Bucket { key, doc_count: count, significance: None, subs });
    }
    let head = ListHead::AutoDate { interval: format!("{inner}{}", LADDER[idx].0) };
    Ok(("auto_date_histogram", AggBody::Buckets(BucketList { head, buckets: rendered, keyed: false })))
}
