//! Metric aggregations (`value_count`, `cardinality`, `min`, `max`, `avg`, `sum`, `stats`,
//! `extended_stats`, `percentiles`, `percentile_ranks`, `median_absolute_deviation`) and
//! `top_hits`.

use super::exact_ranks;
use super::values::{FieldValues, Key, TargetValues};
use super::{Ctx, Typed};
use crate::error::{Error, Result};
use crate::index::DocSet;
use crate::request::aggs::{MetricKind, MetricSpec, TopHitsSpec};
use crate::request::SearchRequest;
use crate::search::fetch::docvalue_fields;
use crate::search::fetch::inner_hits::nested_doc_hit;
use crate::search::response::aggregations::{AggBody, Num, Stats as StatsResult, StatsLayout};
use crate::search::response::{HitJson, Hits};
use crate::search::sort::{compare, KeyExtractor};
use crate::search::source::SourceJson;
use crate::search::{fetch_phase, Hit, QueryResult};
use std::collections::HashSet;

/// Kahan-compensated sum, as ES sums doubles.
#[derive(Default)]
pub(super) struct Sum {
    pub(super) value: f64,
    compensation: f64,
}

impl Sum {
    pub(super) fn add(&mut self, v: f64) {
        if !v.is_finite() {
            self.value += v;
            return;
        }
        let y = v - self.compensation;
        let t = self.value + y;
        self.compensation = (t - self.value) - y;
        self.value = t;
    }
}

/// A metric aggregation.
pub fn metric(ctx: &Ctx<'_>, spec: &MetricSpec, docs: &[DocSet]) -> Result<Typed> {
    let name = spec.kind.name();
    let want = match &spec.kind {
        MetricKind::Cardinality => super::scripted::Want::Terms,
        MetricKind::ValueCount
        | MetricKind::Min
        | MetricKind::Max
        | MetricKind::Avg
        | MetricKind::Sum
        | MetricKind::Stats => match &spec.field.script {
            Some(script) => return scripted_metric(ctx, spec, script, docs),
            None => super::scripted::Want::Numbers,
        },
        _ => super::scripted::Want::Numbers,
    };
    let mut fv = super::scripted::values_of(ctx, &spec.field, docs, want)?;
    if !matches!(spec.kind, MetricKind::ValueCount | MetricKind::Cardinality) {
        fv.numeric_missing_when_unmapped(ctx)?;
    }
    match &spec.kind {
        MetricKind::ValueCount => {
            let mut n = 0u64;
            for (t, d) in docs.iter().enumerate() {
                for doc in super::walk(d) {
                    n += fv.value_count(t, doc) as u64;
                }
            }
            return Ok((name, count_value(n)));
        }
        MetricKind::Cardinality => return Ok((name, count_value(cardinality(&fv, docs)))),
        _ => {}
    }
    fv.require_numeric(ctx, &spec.field.field, name)?;
    let mut values_needed = matches!(
        spec.kind,
        MetricKind::Percentiles(..) | MetricKind::PercentileRanks(..) | MetricKind::MedianAbsoluteDeviation
    )
    .then(Vec::new);
    let (mut count, mut min, mut max) = (0u64, f64::INFINITY, f64::NEG_INFINITY);
    let (mut sum, mut squares) = (Sum::default(), Sum::default());
    for (t, d) in docs.iter().enumerate() {
        for doc in super::walk(d) {
            fv.for_each_number(t, doc, |v| {
                count += 1;
                min = min.min(v);
                max = max.max(v);
                sum.add(v);
                squares.add(v * v);
                if let Some(all) = values_needed.as_mut() {
                    all.push(v);
                }
            });
        }
    }
    Ok(render_stats(&fv, spec, Stats { count, min, max, sum, squares }, values_needed))
}

/// The result of a counting metric (`value_count`, `cardinality`).
fn count_value(n: u64) -> AggBody {
    AggBody::Value { value: Num::Count(n), as_string: None }
}

/// What the numeric metrics gather.
struct Stats {
    count: u64,
    min: f64,
    max: f64,
    sum: Sum,
    squares: Sum,
}

/// A metric over a script's values (`value_count`, `min`, `max`, `avg`, `sum`, `stats`).
fn scripted_metric(
    ctx: &Ctx<'_>,
    spec: &MetricSpec,
    script: &std::sync::Arc<crate::script::Script>,
    docs: &[DocSet],
) -> Result<Typed> {
    let name = spec.kind.name();
    let count_only = matches!(spec.kind, MetricKind::ValueCount);
    let mut st =
        Stats { count: 0, min: f64::INFINITY, max: f64::NEG_INFINITY, sum: Sum::default(), squares: Sum::default() };
    super::scripted::for_each_number(ctx, &spec.field, script, docs, count_only, &mut |v| {
        st.count += 1;
        st.min = st.min.min(v);
        st.max = st.max.max(v);
        st.sum.add(v);
        st.squares.add(v * v);
    })?;
    if count_only {
        return Ok((name, count_value(st.count)));
    }
    let fv = FieldValues::open(ctx, &crate::request::aggs::FieldSpec { script: None, ..spec.field.clone() })?;
    Ok(render_stats(&fv, spec, st, None))
}

/// The result of a numeric metric.
fn render_stats(fv: &FieldValues, spec: &MetricSpec, st: Stats, values_needed: Option<Vec<f64>>) -> Typed {
    let Stats { count, min, max, sum, squares } = st;
    let avg = if count == 0 { f64::NAN } else { sum.value / count as f64 };
    let single = |v: f64| AggBody::Value { value: Num::Double(v), as_string: fv.value_as_string(v) };
    let body = match &spec.kind {
        MetricKind::Min => single(min),
        MetricKind::Max => single(max),
        MetricKind::Avg => single(avg),
        MetricKind::Sum => single(sum.value),
        MetricKind::Stats | MetricKind::ExtendedStats(_) => {
            let extended = match spec.kind {
                MetricKind::ExtendedStats(sigma) => {
                    let variance = (squares.value - sum.value * sum.value / count as f64) / count as f64;
                    let std = variance.sqrt();
                    Some(crate::search::response::aggregations::Extended {
                        sum_of_squares: squares.value,
                        variance,
                        std_deviation: std,
                        upper: avg + sigma * std,
                        lower: avg - sigma * std,
                    })
                }
                _ => None,
            };
            let text = |v: f64| if count > 0 { fv.value_as_string(v) } else { None };
            AggBody::Stats(Box::new(StatsResult {
                count,
                min,
                max,
                avg,
                sum: sum.value,
                extended,
                strings: [text(min), text(max), text(avg), text(sum.value)],
                extended_strings: None,
                layout: StatsLayout::Metric,
            }))
        }
        MetricKind::Percentiles(percents, keyed) => {
            let mut all = values_needed.unwrap_or_default();
            all.sort_by(f64::total_cmp);
            let values = percents.iter().map(|p| percentile(&all, *p)).collect::<Vec<_>>();
            return ("tdigest_percentiles", keyed_values(fv, percents, values, *keyed));
        }
        MetricKind::PercentileRanks(ranked, keyed) => {
            let mut all = values_needed.unwrap_or_default();
            all.sort_by(f64::total_cmp);
            let values = ranked.iter().map(|v| exact_ranks::percent_rank(&all, *v)).collect::<Vec<_>>();
            return ("tdigest_percentile_ranks", keyed_values(fv, ranked, values, *keyed));
        }
        MetricKind::MedianAbsoluteDeviation => {
            let mut all = values_needed.unwrap_or_default();
            all.sort_by(f64::total_cmp);
            single(exact_ranks::median_absolute_deviation(&all))
        }
        // Answered by `metric` before any statistics are gathered.
        MetricKind::ValueCount | MetricKind::Cardinality => count_value(count),
    };
    (spec.kind.name(), body)
}

/// The `values` of `percentiles` and `percentile_ranks` (ES's
/// `AbstractInternalTDigestPercentiles.doXContent`), each value's text in the field's
/// format.
fn keyed_values(fv: &FieldValues, keys: &[f64], values: Vec<f64>, keyed: bool) -> AggBody {
    let values = keys.iter().zip(values).map(|(k, v)| (*k, v, fv.value_as_string(v))).collect();
    AggBody::Percentiles { values, keyed }
}

/// The `p`th percentile of sorted values: linear interpolation between the closest ranks
/// (NaN when there are none).
pub(super) fn percentile(sorted: &[f64], p: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        n => {
            let rank = p / 100.0 * (n - 1) as f64;
            let lo = rank.floor() as usize;
            let hi = (lo + 1).min(n - 1);
            // Weighted as ES's t-digest averages its neighbours, so the last bits agree
            // (the 5th percentile of 1, 51, 101, 151 is 8.500000000000002).
            let f = rank - lo as f64;
            sorted[lo] * (1.0 - f) + sorted[hi] * f
        }
    }
}

/// Exact number of distinct values.
fn cardinality(fv: &FieldValues, docs: &[DocSet]) -> u64 {
    let mut seen: HashSet<Key> = HashSet::new();
    for (t, d) in docs.iter().enumerate() {
        if let TargetValues::Keyword(dv) = &fv.targets[t] {
            // Distinct ordinals first, so each term is copied once.
            let mut ords = vec![false; dv.term_count()];
            let mut missing = false;
            for doc in super::walk(d) {
                let mut any = false;
                for o in dv.ords(doc) {
                    any = true;
                    if let Some(x) = ords.get_mut(o as usize) {
                        *x = true;
                    }
                }
                missing |= !any;
            }
            for (o, _) in ords.iter().enumerate().filter(|(_, x)| **x) {
                seen.insert(Key::Str(dv.term(o as u32).to_string()));
            }
            if let (true, Some(m)) = (missing, &fv.missing) {
                seen.insert(m.clone());
            }
        } else {
            for doc in super::walk(d) {
                fv.for_each_key(t, doc, |k| {
                    seen.insert(k);
                });
            }
        }
    }
    seen.len() as u64
}

/// `top_hits`: the best hits of the bucket, rendered as a search renders hits; under a
/// `nested` aggregation, the bucket's nested documents, each scored with its root
/// document's score (ES hands the sub-aggregations of `nested` the query's scorer,
/// which stands on the root) and rendered as ES's nested hits.
pub fn top_hits(ctx: &Ctx<'_>, spec: &TopHitsSpec, docs: &[DocSet]) -> Result<Typed> {
    let nested_path = ctx.nested_scope.borrow().clone();
    if nested_path.is_some() && spec.explain {
        return Err(Error::illegal_argument(
            "[top_hits] option [explain] under a [nested] aggregation is not supported on this engine",
        ));
    }
    let req = SearchRequest {
        query: ctx.query.clone(),
        size: spec.size as i64,
        sort: spec.sort.clone(),
        source: spec.source.clone(),
        version: spec.version,
        seq_no_primary_term: spec.seq_no_primary_term,
        explain: spec.explain,
        track_scores: spec.track_scores,
        docvalue_fields: spec.docvalue_fields.clone(),
        ..SearchRequest::default()
    };
    let scoring = spec.sort.is_empty() || spec.track_scores || crate::search::sort::needs_scores(&spec.sort);
    let mut hits = Vec::new();
    let mut max_score = f32::NAN;
    for (t, d) in docs.iter().enumerate() {
        let keys = KeyExtractor::new(&spec.sort, &ctx.targets[t], ctx.snap)?;
        let roots = match nested_path.is_some() {
            true => ctx.targets[t].root_docs(ctx.snap)?,
            false => None,
        };
        for doc in super::walk(d) {
            let scored = roots.as_ref().and_then(|r| r.next_from(doc)).unwrap_or(doc);
            let score = if scoring { ctx.score(t, scored)? } else { f32::NAN };
            if scoring && (max_score.is_nan() || score > max_score) {
                max_score = score;
            }
            let sort = if spec.sort.is_empty() { Vec::new() } else { keys.values(doc, score) };
            hits.push(Hit { target: t, doc, score, sort });
        }
        if let Some(e) = keys.take_error() {
            return Err(e);
        }
    }
    let window = spec.from + spec.size;
    let order = |a: &Hit, b: &Hit| {
        let primary =
            if spec.sort.is_empty() { b.score.total_cmp(&a.score) } else { compare(&spec.sort, &a.sort, &b.sort) };
        primary.then(a.target.cmp(&b.target)).then(a.doc.cmp(&b.doc))
    };
    if hits.len() > window && window > 0 {
        hits.select_nth_unstable_by(window - 1, order);
        hits.truncate(window);
    }
    hits.sort_by(order);
    hits.drain(..spec.from.min(hits.len()));
    hits.truncate(spec.size);
    let result = QueryResult {
        total: super::total(docs),
        max_score: if scoring { max_score } else { f32::NAN },
        hits,
        matched: Vec::new(),
        terminated_early: false,
        timed_out: false,
    };
    let rendered = match &nested_path {
        Some(path) => nested_hits(ctx, &req, path, &result)?,
        None => fetch_phase(ctx.targets, ctx.snap, &req, &result, ctx.now_ms)?,
    };
    Ok(("top_hits", AggBody::TopHits(Box::new(rendered))))
}

/// The hits of nested documents at `path`, as ES's fetch phase writes nested hits:
/// the root's `_type` and `_id`, `_nested`, the nested object's `_source`, a
/// `_version` of 1 and the root's `_seq_no` (ES gives a block's documents both).
fn nested_hits(ctx: &Ctx<'_>, req: &SearchRequest, path: &str, result: &QueryResult) -> Result<Hits> {
    let by_score = req.sort.iter().all(|s| matches!(s, crate::request::sort::SortSpec::Score(_)));
    let scores_shown = req.sort.is_empty() || by_score || req.track_scores;
    let mut hits = Vec::with_capacity(result.hits.len());
    for h in &result.hits {
        let reader = &ctx.targets[h.target];
        let found = nested_doc_hit(reader, ctx.snap, h.doc, path, &req.source)?;
        let fields = match req.docvalue_fields.is_empty() {
            true => None,
            false => Some(docvalue_fields(reader, ctx.snap, h.doc, &req.docvalue_fields)?).filter(|f| !f.is_empty()),
        };
        hits.push(HitJson {
            located: false,
            index: reader.meta.name.clone(),
            type_id: Some((found.doc_type, found.id)),
            nested: Some(found.identity),
            version: req.version,
            seq_no: req.seq_no_primary_term.then_some(found.root),
            score: scores_shown.then_some(h.score),
            // ES loads no metadata field of a nested hit.
            routing: None,
            source: found.source.map(SourceJson::Filtered),
            fields,
            highlight: None,
            sort: (!req.sort.is_empty()).then(|| h.sort.iter().zip(&req.sort).map(|(v, s)| v.shown(s)).collect()),
            explanation: None,
            inner_hits: None,
        });
    }
    let max_score = Some(result.max_score).filter(|m| scores_shown && !m.is_nan());
    Ok(Hits { total: Some(result.total), max_score, hits })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_interpolate_between_ranks() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile(&v, 0.0), 1.0);
        assert_eq!(percentile(&v, 50.0), 2.5);
        assert_eq!(percentile(&v, 100.0), 4.0);
        // ES 6.8's answers, to the last bit.
        let es = [1.0, 51.0, 101.0, 151.0];
        assert_eq!(percentile(&es, 5.0), 8.500000000000002);
        assert_eq!(percentile(&es, 95.0), 143.49999999999997);
        assert!(percentile(&[], 50.0).is_nan());
    }

    #[test]
    fn kahan_sum_keeps_small_terms() {
        let mut s = Sum::default();
        s.add(1e16);
        for _ in 0..10 {
            s.add(1.0);
        }
        assert_eq!(s.value, 1e16 + 10.0);
    }
}
