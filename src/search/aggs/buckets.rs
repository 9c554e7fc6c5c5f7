//! Multi-bucket aggregations: `terms`, `histogram`, `date_histogram`, `range` /
//! `date_range` and `filters`.

use super::include::KeyFilter;
use super::values::{FieldValues, Key, TargetValues, ValueKind};
use super::{run_all, total, Ctx, Typed, MAX_BUCKETS};
use crate::error::{Error, Result};
use crate::index::DocSet;
use crate::json_value::java_double;
use crate::query::Scalar;
use crate::request::aggs::{
    AggNode, DateHistogramSpec, DateInterval, FiltersSpec, HistogramSpec, OrderKey, RangeSpec, TermsSpec,
    UnresolvedValue,
};
use crate::search::response::aggregations::{AggBody, AggResults, BucketKey, BucketList, KeyValue, ListHead};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

/// One bucket while it is built: key, count, and (when sub-aggregations need them) its
/// documents per target and the sub-aggregation results.
pub(super) struct Bucket {
    pub(super) key: Key,
    pub(super) count: u64,
    pub(super) subs: Option<AggResults>,
}

/// The value of a sub-aggregation named by an order path, for ordering: its member
/// `stat`, or its `value` (a bucket's `doc_count`); NaN if absent, which sorts after
/// every number as Java's `Double.compare` does.
fn sub_value(b: &Bucket, agg: &str, stat: Option<&str>) -> f64 {
    let Some(sub) = b.subs.as_ref().and_then(|s| s.find(agg)) else { return f64::NAN };
    let value = match stat {
        Some(s) => sub.body.member(s),
        None => sub.body.member("value").or_else(|| sub.body.member("doc_count")),
    };
    value.unwrap_or(f64::NAN)
}

/// Orders buckets by the criteria, then by key ascending (ES's tie-break).
fn compare(order: &[OrderKey], a: &Bucket, b: &Bucket) -> Ordering {
    for o in order {
        let c = match o {
            OrderKey::Count { asc } => {
                let c = a.count.cmp(&b.count);
                if *asc {
                    c
                } else {
                    c.reverse()
                }
            }
            OrderKey::Key { asc } => {
                let c = a.key.cmp(&b.key);
                if *asc {
                    c
                } else {
                    c.reverse()
                }
            }
            OrderKey::Sub { agg, stat, asc } => {
                let c = sub_value(a, agg, stat.as_deref()).total_cmp(&sub_value(b, agg, stat.as_deref()));
                if *asc {
                    c
                } else {
                    c.reverse()
                }
            }
        };
        if c != Ordering::Equal {
            return c;
        }
    }
    a.key.cmp(&b.key)
}

/// Fails when an order names a sub-aggregation the request does not have.
fn check_order(node: &AggNode, order: &[OrderKey]) -> Result<bool> {
    let mut by_sub = false;
    for o in order {
        if let OrderKey::Sub { agg, .. } = o {
            if !node.subs.iter().any(|s| &s.name == agg) {
                return Err(Error::illegal_argument(format!(
                    "Invalid aggregator order path [{agg}]. Unknown aggregation [{agg}]"
                )));
            }
            by_sub = true;
        }
    }
    Ok(by_sub)
}

/// The documents of each key, per target.
pub(super) fn docs_for_keys(fv: &FieldValues, docs: &[DocSet], keys: &[Key]) -> Vec<Vec<DocSet>> {
    let index: HashMap<&Key, usize> = keys.iter().enumerate().map(|(i, k)| (k, i)).collect();
    let mut out: Vec<Vec<DocSet>> = (0..keys.len()).map(|_| vec![DocSet::new(); docs.len()]).collect();
    let missing_bucket = fv.missing.as_ref().and_then(|m| index.get(m).copied());
    for (t, d) in docs.iter().enumerate() {
        match &fv.targets[t] {
            TargetValues::Keyword(dv) => {
                // Ordinal -> bucket, so the per-document loop does no string work.
                let mut of_ord = vec![usize::MAX; dv.term_count()];
                for (i, k) in keys.iter().enumerate() {
                    if let Key::Str(s) = k {
                        if let Ok(o) = dv.lookup(s) {
                            of_ord[o as usize] = i;
                        }
                    }
                }
                for doc in super::walk(d) {
                    let mut any = false;
                    for o in dv.ords(doc) {
                        any = true;
                        if let Some(&b) = of_ord.get(o as usize).filter(|b| **b != usize::MAX) {
                            out[b][t].insert(doc);
                        }
                    }
                    if let (false, Some(b)) = (any, missing_bucket) {
                        out[b][t].insert(doc);
                    }
                }
            }
            _ => {
                for doc in super::walk(d) {
                    fv.for_each_key(t, doc, |k| {
                        if let Some(&b) = index.get(&k) {
                            out[b][t].insert(doc);
                        }
                    });
                }
            }
        }
    }
    out
}

/// Computes the sub-aggregations of every bucket.
fn fill_subs(ctx: &Ctx<'_>, node: &AggNode, buckets: &mut [Bucket], docs: Vec<Vec<DocSet>>) -> Result<()> {
    for (b, d) in buckets.iter_mut().zip(docs) {
        b.subs = Some(run_all(ctx, &node.subs, &d)?);
    }
    Ok(())
}

/// Sorts, and computes sub-aggregations first when the order needs them.
pub(super) fn order_buckets(
    ctx: &Ctx<'_>,
    node: &AggNode,
    order: &[OrderKey],
    buckets: &mut [Bucket],
    docs_of: &dyn Fn(&[Key]) -> Vec<Vec<DocSet>>,
) -> Result<()> {
    if check_order(node, order)? {
        // Every candidate bucket gets its sub-aggregations computed: bound them first.
        ctx.check_buckets(buckets.len())?;
        let keys: Vec<Key> = buckets.iter().map(|b| b.key.clone()).collect();
        fill_subs(ctx, node, buckets, docs_of(&keys))?;
    }
    buckets.sort_by(|a, b| compare(order, a, b));
    Ok(())
}

/// Computes the sub-aggregations of the buckets that are returned, if not done yet.
pub(super) fn finish_subs(
    ctx: &Ctx<'_>,
    node: &AggNode,
    buckets: &mut [Bucket],
    docs_of: &dyn Fn(&[Key]) -> Vec<Vec<DocSet>>,
) -> Result<()> {
    if node.subs.is_empty() || buckets.first().map(|b| b.subs.is_some()).unwrap_or(true) {
        return Ok(());
    }
    let keys: Vec<Key> = buckets.iter().map(|b| b.key.clone()).collect();
    fill_subs(ctx, node, buckets, docs_of(&keys))
}

/// `terms`.
pub fn terms(ctx: &Ctx<'_>, node: &AggNode, spec: &TermsSpec, docs: &[DocSet]) -> Result<Typed> {
    if let Some(script) = &spec.field.script {
        return super::scripted::terms(ctx, node, spec, script, docs);
    }
    let fv = FieldValues::open(ctx, &spec.field)?;
    // An unmapped field's result (ES's UnmappedTerms) is typed as string terms
    // (`UnmappedTerms.getType`), as `typed_keys` names it.
    let type_name = match (&fv.kind, &fv.missing) {
        (_, None) if fv.unmapped => "sterms",
        (ValueKind::Keyword | ValueKind::Ip | ValueKind::Unmapped, _) => "sterms",
        (ValueKind::Double, _) => "dterms",
        _ => "lterms",
    };
    let mut counts: HashMap<Key, u64> = HashMap::new();
    // The candidates' bytes, given back once the kept buckets (charged on their own) are
    // chosen.
    let mut candidates = 0usize;
    for (t, d) in docs.iter().enumerate() {
        match &fv.targets[t] {
            TargetValues::Keyword(dv) => {
                let array = dv.term_count().saturating_mul(4);
                ctx.charge_as(array, super::ARRAYS_LABEL)?;
                let mut per_ord = vec![0u32; dv.term_count()];
                let mut missing = 0u64;
                for doc in super::walk(d) {
                    let mut any = false;
                    for o in dv.ords(doc) {
                        any = true;
                        if let Some(c) = per_ord.get_mut(o as usize) {
                            *c += 1;
                        }
                    }
                    missing += u64::from(!any);
                }
                // Every counted term becomes a candidate key: charged in batches, so that a
                // field of millions of distinct values trips the breaker, not the memory.
                let mut pending = 0usize;
                for (o, c) in per_ord.iter().enumerate() {
                    if *c > 0 || spec.min_doc_count == 0 {
                        let term = dv.term(o as u32);
                        pending += super::CANDIDATE_BYTES + term.len();
                        if pending >= 1 << 16 {
                            candidates += pending;
                            ctx.charge(std::mem::take(&mut pending), &node.name)?;
                        }
                        *counts.entry(Key::Str(term.to_string())).or_default() += u64::from(*c);
                    }
                }
                candidates += pending;
                ctx.charge(pending, &node.name)?;
                drop(per_ord);
                crate::budget::discharge(array);
                if let (true, Some(m)) = (missing > 0, &fv.missing) {
                    *counts.entry(m.clone()).or_default() += missing;
                }
            }
            _ => {
                let before = counts.len();
                for doc in super::walk(d) {
                    fv.for_each_key(t, doc, |k| *counts.entry(k).or_default() += 1);
                }
                if spec.min_doc_count == 0 {
                    for doc in super::walk(&ctx.executor(t).top_level_docs()?) {
                        fv.for_each_key(t, doc, |k| {
                            counts.entry(k).or_default();
                        });
                    }
                }
                // Numeric keys are counted as they come: charged once this index is done.
                let added = (counts.len() - before).saturating_mul(super::CANDIDATE_BYTES);
                candidates += added;
                ctx.charge(added, &node.name)?;
            }
        }
    }
    let include = spec.include.as_ref().map(|f| KeyFilter::compile(ctx, &node.name, &fv, f)).transpose()?;
    let exclude = spec.exclude.as_ref().map(|f| KeyFilter::compile(ctx, &node.name, &fv, f)).transpose()?;
    let mut buckets: Vec<Bucket> = counts
        .into_iter()
        .filter(|(k, c)| {
            *c >= spec.min_doc_count && {
                let text = fv.key_text(k);
                include.as_ref().map(|f| f.accepts(k, &text)).unwrap_or(true)
                    && !exclude.as_ref().map(|f| f.accepts(k, &text)).unwrap_or(false)
            }
        })
        .map(|(key, count)| Bucket { key, count, subs: None })
        .collect();
    let docs_of = |keys: &[Key]| docs_for_keys(&fv, docs, keys);
    order_buckets(ctx, node, &spec.order, &mut buckets, &docs_of)?;
    let all: u64 = buckets.iter().map(|b| b.count).sum();
    buckets.truncate(spec.size);
    let shown: u64 = buckets.iter().map(|b| b.count).sum();
    crate::budget::discharge(candidates);
    ctx.add_buckets(&node.name, buckets.len())?;
    finish_subs(ctx, node, &mut buckets, &docs_of)?;
    let buckets = buckets
        .into_iter()
        .map(|b| {
            let key = BucketKey::Term { as_string: fv.key_as_string(&b.key, None), key: fv.key_value(&b.key) };
            bucket(key, b)
        })
        .collect();
    let list = BucketList { head: ListHead::Terms { sum_other_doc_count: all - shown }, buckets, keyed: false };
    Ok((type_name, AggBody::Buckets(list)))
}

/// A built bucket as a result.
pub(super) fn bucket(key: BucketKey, b: Bucket) -> crate::search::response::aggregations::Bucket {
    crate::search::response::aggregations::Bucket {
        key,
        doc_count: b.count,
        significance: None,
        subs: b.subs.unwrap_or_default(),
    }
}

/// Counts documents per bucket (a document counts once per bucket), where `bucket_of`
/// maps a value to its bucket's key; values come in ascending order.
pub(super) fn count_by(fv: &FieldValues, docs: &[DocSet], bucket_of: &mut dyn FnMut(f64) -> i64) -> BTreeMap<i64, u64> {
    let mut counts = BTreeMap::new();
    for (t, d) in docs.iter().enumerate() {
        for doc in super::walk(d) {
            let mut last = None;
            fv.for_each_number(t, doc, |v| {
                let b = bucket_of(v);
                if last != Some(b) {
                    last = Some(b);
                    *counts.entry(b).or_insert(0u64) += 1;
                }
            });
        }
    }
    counts
}

/// The documents of each bucket key (see [`count_by`]).
pub(super) fn docs_by(
    fv: &FieldValues,
    docs: &[DocSet],
    keys: &[i64],
    bucket_of: &mut dyn FnMut(f64) -> i64,
) -> Vec<Vec<DocSet>> {
    let index: HashMap<i64, usize> = keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    let mut out: Vec<Vec<DocSet>> = (0..keys.len()).map(|_| vec![DocSet::new(); docs.len()]).collect();
    for (t, d) in docs.iter().enumerate() {
        for doc in super::walk(d) {
            fv.for_each_number(t, doc, |v| {
                if let Some(&i) = index.get(&bucket_of(v)) {
                    out[i][t].insert(doc);
                }
            });
        }
    }
    out
}

/// Adds empty buckets between the first and last key (and the bounds), stepping with
/// `next`; refuses before allocating when that would pass the bucket limit.
fn fill_gaps(
    ctx: &Ctx<'_>,
    counts: &mut BTreeMap<i64, u64>,
    bounds: (Option<i64>, Option<i64>),
    next: &dyn Fn(i64) -> Option<i64>,
) -> Result<()> {
    let lo = [counts.keys().next().copied(), bounds.0].into_iter().flatten().min();
    let hi = [counts.keys().next_back().copied(), bounds.1].into_iter().flatten().max();
    let (Some(lo), Some(hi)) = (lo, hi) else { return Ok(()) };
    let mut k = lo;
    let mut n = 0usize;
    let mut keys = Vec::new();
    while k <= hi {
        n += 1;
        if n > MAX_BUCKETS {
            return ctx.check_buckets(n);
        }
        keys.push(k);
        match next(k) {
            Some(nk) if nk > k => k = nk,
            _ => break,
        }
    }
    for k in keys {
        counts.entry(k).or_insert(0);
    }
    Ok(())
}

/// `histogram`.
pub fn histogram(ctx: &Ctx<'_>, node: &AggNode, spec: &HistogramSpec, docs: &[DocSet]) -> Result<Typed> {
    let mut fv = super::scripted::values_of(ctx, &spec.field, docs, super::scripted::Want::Numbers)?;
    fv.require_numeric(ctx, &spec.field.field, "histogram")?;
    fv.numeric_missing_when_unmapped(ctx)?;
    let (interval, offset) = (spec.interval, spec.offset);
    let index_of = move |v: f64| ((v - offset) / interval).floor() as i64;
    let key_of = move |i: i64| i as f64 * interval + offset;
    let mut counts = count_by(&fv, docs, &mut |v| index_of(v));
    if spec.min_doc_count == 0 {
        let bounds = spec
            .extended_bounds
            .map(|(lo, hi)| (lo.is_finite().then(|| index_of(lo)), hi.is_finite().then(|| index_of(hi))));
        fill_gaps(ctx, &mut counts, bounds.unwrap_or((None, None)), &|i| i.checked_add(1))?;
    }
    let mut buckets: Vec<Bucket> = counts
        .into_iter()
        .filter(|(_, c)| *c >= spec.min_doc_count)
        .map(|(i, count)| Bucket { key: Key::Long(i), count, subs: None })
        .collect();
    let docs_of = |keys: &[Key]| {
        let ks: Vec<i64> = keys.iter().map(|k| if let Key::Long(i) = k { *i } else { 0 }).collect();
        docs_by(&fv, docs, &ks, &mut |v| index_of(v))
    };
    order_buckets(ctx, node, &spec.order, &mut buckets, &docs_of)?;
    ctx.add_buckets(&node.name, buckets.len())?;
    finish_subs(ctx, node, &mut buckets, &docs_of)?;
    let buckets = buckets
        .into_iter()
        .map(|b| {
            let key = match b.key {
                Key::Long(i) => key_of(i),
                _ => 0.0,
            };
            // ES's InternalHistogram bucket: `key_as_string` first when the values have a
            // format (a date field's, or `format`), which also keys a keyed answer.
            bucket(BucketKey::Histogram { as_string: fv.value_as_string(key), key: KeyValue::Double(key) }, b)
        })
        .collect();
    Ok(("histogram", AggBody::Buckets(BucketList { head: ListHead::Plain, buckets, keyed: spec.keyed })))
}

/// The bucket rounding of a date histogram: value -> bucket start, and the next start.
pub(super) struct DateRounding {
    interval: DateInterval,
    offset: i64,
    tz: i32,
    /// Bucket starts covering the field's values, ascending, when calendar arithmetic per
    /// value would cost more than a binary search (months, quarters, years).
    starts: Vec<i64>,
}

/// Most precomputed bucket starts (a wider span rounds each value instead).
const MAX_PRECOMPUTED_STARTS: usize = 1 << 16;

impl DateRounding {
    pub(super) fn new(interval: DateInterval, offset: i64, tz: i32, span: Option<(i64, i64)>) -> DateRounding {
        let mut r = DateRounding { interval, offset, tz, starts: Vec::new() };
        if let (DateInterval::Calendar('M' | 'q' | 'y'), Some((lo, hi))) = (interval, span) {
            let mut k = r.round(lo);
            let mut starts = vec![k];
            while k <= hi && starts.len() <= MAX_PRECOMPUTED_STARTS {
                match r.next(k) {
                    Some(n) if n > k => {
                        starts.push(n);
                        k = n;
                    }
                    _ => break,
                }
            }
            // The last start is the end of the span; values before it are covered.
            if k > hi {
                r.starts = starts;
            }
        }
        r
    }

    pub(super) fn floor(&self, ms: i64) -> i64 {
        match self.starts.as_slice() {
            [first, .., last] if ms >= *first && ms < *last => {
                self.starts[self.starts.partition_point(|s| *s <= ms) - 1]
            }
            _ => self.round(ms),
        }
    }

    fn round(&self, ms: i64) -> i64 {
        let local = ms.saturating_sub(self.offset);
        let start = match self.interval {
            DateInterval::Calendar(u) => crate::date::calendar_floor(local, u, self.tz).unwrap_or(local),
            DateInterval::Fixed(len) => {
                let tz = self.tz as i64 * 1000;
                (local + tz).div_euclid(len) * len - tz
            }
        };
        start + self.offset
    }

    pub(super) fn next(&self, start: i64) -> Option<i64> {
        match self.interval {
            DateInterval::Calendar(u) => {
                crate::date::calendar_next(start - self.offset, u, self.tz).map(|n| n + self.offset)
            }
            DateInterval::Fixed(len) => start.checked_add(len),
        }
    }
}

/// The smallest and largest value of a numeric field over the targets (from its points).
pub(super) fn value_span(ctx: &Ctx<'_>, field: &str) -> Result<Option<(i64, i64)>> {
    let mut span: Option<(i64, i64)> = None;
    for reader in ctx.targets {
        if let Some((lo, hi)) = reader.points(ctx.snap, field)?.and_then(|p| p.min_max()) {
            let (lo, hi) = (lo as i64, hi as i64);
            span = Some(span.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        }
    }
    Ok(span)
}

/// `date_histogram`.
pub fn date_histogram(ctx: &Ctx<'_>, node: &AggNode, spec: &DateHistogramSpec, docs: &[DocSet]) -> Result<Typed> {
    // A field no index maps reads its `missing` value as a date, as ES's date values
    // source does (`value_type` only acts then).
    let field = crate::request::aggs::FieldSpec {
        value_type: spec.field.value_type.or(Some(crate::request::aggs::ValueType::Date)),
        ..spec.field.clone()
    };
    let fv = super::scripted::values_of(ctx, &field, docs, super::scripted::Want::Dates)?;
    fv.require_numeric(ctx, &spec.field.field, "date_histogram")?;
    let span = value_span(ctx, &spec.field.field)?;
    let rounding = DateRounding::new(spec.interval, spec.offset, spec.time_zone.offset_secs(), span);
    let bucket_fn = || |v: f64| rounding.floor(v as i64);
    let mut counts = count_by(&fv, docs, &mut bucket_fn());
    if spec.min_doc_count == 0 {
        let bound = |v: &UnresolvedValue, up: bool| -> Result<Option<i64>> {
            let fmt = match &fv.kind {
                ValueKind::Date(f) => f.clone(),
                _ => crate::date::DateFormat::parse_format(crate::mapping::DEFAULT_DATE_FORMAT)
                    .map_err(|e| Error::illegal_argument(e.message))?,
            };
            Ok(match v {
                UnresolvedValue::Scalar(Scalar::Null) => None,
                UnresolvedValue::Scalar(n @ (Scalar::Long(_) | Scalar::Unsigned(_) | Scalar::Double(_))) => n.as_i64(),
                UnresolvedValue::Scalar(Scalar::Text(s)) => Some(
                    crate::date::parse_date_math(s, ctx.now_ms, up, &fmt, Some(&spec.time_zone))
                        .map_err(|e| Error::illegal_argument(e.message))?,
                ),
                _ => return Err(Error::illegal_argument("[extended_bounds] must be dates or numbers")),
            })
        };
        let bounds = match &spec.extended_bounds {
            Some((lo, hi)) => {
                (bound(lo, false)?.map(|v| rounding.floor(v)), bound(hi, true)?.map(|v| rounding.floor(v)))
            }
            None => (None, None),
        };
        fill_gaps(ctx, &mut counts, bounds, &|k| rounding.next(k))?;
    }
    let mut buckets: Vec<Bucket> = counts
        .into_iter()
        .filter(|(_, c)| *c >= spec.min_doc_count)
        .map(|(k, count)| Bucket { key: Key::Long(k), count, subs: None })
        .collect();
    let docs_of = |keys: &[Key]| {
        let ks: Vec<i64> = keys.iter().map(|k| if let Key::Long(i) = k { *i } else { 0 }).collect();
        docs_by(&fv, docs, &ks, &mut bucket_fn())
    };
    order_buckets(ctx, node, &spec.order, &mut buckets, &docs_of)?;
    ctx.add_buckets(&node.name, buckets.len())?;
    finish_subs(ctx, node, &mut buckets, &docs_of)?;
    let fmt = match &fv.kind {
        ValueKind::Date(f) => Some(f.clone()),
        _ => None,
    };
    let buckets = buckets
        .into_iter()
        .map(|b| {
            let key = if let Key::Long(k) = b.key { k } else { 0 };
            let as_string = fmt.as_ref().map(|f| f.format_at(key, rounding.tz));
            bucket(BucketKey::Histogram { key: KeyValue::Long(key), as_string }, b)
        })
        .collect();
    Ok(("date_histogram", AggBody::Buckets(BucketList { head: ListHead::Plain, buckets, keyed: spec.keyed })))
}

/// A range bound as a number: dates through the field's format and date math.
fn range_bound(ctx: &Ctx<'_>, fv: &FieldValues, spec: &RangeSpec, v: &Scalar, up: bool) -> Result<f64> {
    match (&fv.kind, v) {
        // Since 6.0 a date range's bounds are read as text with the field's format, numbers
        // too (an `epoch_second` field's `1000` is 1,000,000 ms).
        (ValueKind::Date(fmt), Scalar::Long(_) | Scalar::Unsigned(_) | Scalar::Double(_)) => {
            crate::date::parse_date_math(&v.to_json().to_string(), ctx.now_ms, up, fmt, spec.time_zone.as_ref())
                .map(|ms| ms as f64)
                .map_err(|e| Error::illegal_argument(e.message))
        }
        (_, Scalar::Long(_) | Scalar::Unsigned(_) | Scalar::Double(_)) => Ok(v.as_f64().unwrap_or(0.0)),
        (ValueKind::Date(fmt), Scalar::Text(s)) => {
            crate::date::parse_date_math(s, ctx.now_ms, up, fmt, spec.time_zone.as_ref())
                .map(|ms| ms as f64)
                .map_err(|e| Error::illegal_argument(e.message))
        }
        (_, Scalar::Text(s)) => {
            s.trim().parse().map_err(|_| Error::illegal_argument(format!("For input string: \"{s}\"")))
        }
        _ => Err(Error::illegal_argument(format!("invalid range bound [{}]", v.to_json()))),
    }
}

/// `range` and `date_range`.
pub fn range(ctx: &Ctx<'_>, node: &AggNode, spec: &RangeSpec, docs: &[DocSet]) -> Result<Typed> {
    let type_name = if spec.date { "date_range" } else { "range" };
    let want = if spec.date { super::scripted::Want::Dates } else { super::scripted::Want::Numbers };
    let mut fv = super::scripted::values_of(ctx, &spec.field, docs, want)?;
    fv.require_numeric(ctx, &spec.field.field, type_name)?;
    fv.numeric_missing_when_unmapped(ctx)?;
    let mut ranges = Vec::with_capacity(spec.ranges.len());
    for r in &spec.ranges {
        let from =
            r.from.as_ref().map(|v| range_bound(ctx, &fv, spec, v, false)).transpose()?.unwrap_or(f64::NEG_INFINITY);
        let to = r.to.as_ref().map(|v| range_bound(ctx, &fv, spec, v, false)).transpose()?.unwrap_or(f64::INFINITY);
        ranges.push((r.key.clone(), from, to));
    }
    // ES sorts the ranges by (from, to) and answers in that order.
    ranges.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.2.total_cmp(&b.2)));
    ctx.add_buckets(&node.name, ranges.len())?;
    // Bounds print in the values' format (a date field's, or `format`), raw otherwise.
    let is_date = fv.value_as_string(0.0).is_some();
    let text = |v: f64| fv.value_as_string(v).unwrap_or_else(|| java_double(v));
    let mut buckets = Vec::with_capacity(ranges.len());
    for (key, from, to) in ranges {
        let mut sub = Vec::with_capacity(docs.len());
        for (t, d) in docs.iter().enumerate() {
            let mut s = DocSet::new();
            for doc in super::walk(d) {
                let mut hit = false;
                fv.for_each_number(t, doc, |v| hit |= v >= from && v < to);
                if hit {
                    s.insert(doc);
                }
            }
            sub.push(s);
        }
        let key = key.unwrap_or_else(|| {
            let f = if from.is_finite() { text(from) } else { "*".into() };
            let t = if to.is_finite() { text(to) } else { "*".into() };
            format!("{f}-{t}")
        });
        let bound = |v: f64| v.is_finite().then(|| (KeyValue::Double(v), is_date.then(|| text(v))));
        let key = BucketKey::Range { key, from: bound(from), to: bound(to) };
        let subs = run_all(ctx, &node.subs, &sub)?;
        buckets.push(crate::search::response::aggregations::Bucket {
            key,
            doc_count: total(&sub),
            significance: None,
            subs,
        });
    }
    Ok((type_name, AggBody::Buckets(BucketList { head: ListHead::Plain, buckets, keyed: spec.keyed })))
}

/// `filters`.
pub fn filters(ctx: &Ctx<'_>, node: &AggNode, spec: &FiltersSpec, docs: &[DocSet]) -> Result<Typed> {
    let mut list: Vec<&(Option<String>, crate::query::Query)> = spec.filters.iter().collect();
    if spec.keyed {
        // ES orders named filters by name.
        list.sort_by(|a, b| a.0.cmp(&b.0));
    }
    ctx.add_buckets(&node.name, list.len() + usize::from(spec.other_bucket_key.is_some()))?;
    let mut matched_any: Vec<DocSet> = vec![DocSet::new(); docs.len()];
    let mut buckets = Vec::with_capacity(list.len() + 1);
    for (name, q) in list {
        let mut sub = ctx.filter_docs(q)?;
        for ((s, d), any) in sub.iter_mut().zip(docs).zip(matched_any.iter_mut()) {
            s.and_with(d);
            any.or_with(s);
        }
        buckets.push(named_bucket(ctx, node, name.clone().unwrap_or_default(), &sub)?);
    }
    if let Some(key) = &spec.other_bucket_key {
        let other: Vec<DocSet> = docs
            .iter()
            .zip(&matched_any)
            .map(|(d, any)| {
                let mut o = d.clone();
                o.sub_with(any);
                o
            })
            .collect();
        buckets.push(named_bucket(ctx, node, key.clone(), &other)?);
    }
    Ok(("filters", AggBody::Buckets(BucketList { head: ListHead::Plain, buckets, keyed: spec.keyed })))
}

/// A `filters` bucket: its documents and sub-aggregations.
fn named_bucket(
    ctx: &Ctx<'_>,
    node: &AggNode,
    name: String,
    docs: &[DocSet],
) -> Result<crate::search::response::aggregations::Bucket> {
    let subs = run_all(ctx, &node.subs, docs)?;
    Ok(crate::search::response::aggregations::Bucket {
        key: BucketKey::Named(name),
        doc_count: total(docs),
        significance: None,
        subs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precomputed_month_starts_round_like_calendar_arithmetic() {
        let (lo, hi) = (-400_000_000_000i64, 1_700_000_000_000i64);
        for (unit, tz, offset) in [('M', 0, 0), ('q', 3600, 0), ('y', -19800, 86_400_000)] {
            let table = DateRounding::new(DateInterval::Calendar(unit), offset, tz, Some((lo, hi)));
            let plain = DateRounding::new(DateInterval::Calendar(unit), offset, tz, None);
            assert!(!table.starts.is_empty() && plain.starts.is_empty());
            let mut x: u64 = 7;
            for _ in 0..10_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let ms = lo + ((x >> 11) as i64).rem_euclid(hi - lo + 1);
                assert_eq!(table.floor(ms), plain.floor(ms), "{unit} {ms}");
            }
            assert_eq!(table.floor(hi + 10 * 366 * 86_400_000), plain.floor(hi + 10 * 366 * 86_400_000));
        }
    }
}
