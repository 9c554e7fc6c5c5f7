//! The `*_bucket` sibling pipelines: one value computed over the buckets of a sibling
//! multi-bucket aggregation (ES 6.8's `BucketMetricsPipelineAggregator` and its kinds).

use super::path::{key_as_string, resolve_bucket_value, KeyKind};
use super::{execution_error, Output};
use crate::error::Result;
use crate::request::pipeline_aggs::BucketMetric;
use crate::request::pipeline_aggs::PipelineKind;
use crate::search::response::aggregations::{AggBody, AggResult, AggResults, Extended, Stats, StatsLayout};

/// Computes the pipeline of `out` over the aggregations of `level` and adds its result.
pub fn run(out: &Output<'_>, level: &mut AggResults) -> Result<()> {
    let PipelineKind::Sibling(metric) = &out.spec.kind else { return Ok(()) };
    let path = out.spec.paths[0].1.strings();
    let mut keys = Vec::new();
    let mut values = Vec::new();
    if let Some(agg) = level.find(&path[0]) {
        let AggBody::Buckets(list) = &agg.body else {
            return Err(execution_error(format!(
                "buckets_path must reference either a number value or a single value numeric metric aggregation, got: org.elasticsearch.search.aggregations.InternalAggregation at aggregation [{}]",
                path[0]
            )));
        };
        for bucket in &list.buckets {
            let kind = match (bucket.key_number(), bucket.key_as_string()) {
                (Some(_), None) => KeyKind::Number,
                (Some(_), Some(_)) => KeyKind::Date,
                (None, _) => KeyKind::Text,
            };
            if let Some(v) = resolve_bucket_value(bucket, kind, &path[1..], out.spec.gap_policy)? {
                if !v.is_nan() {
                    keys.push(key_as_string(bucket, list.keyed));
                    values.push(v);
                }
            }
        }
    }
    level.0.push(result(out, metric, keys, &values));
    Ok(())
}

/// The result of `metric` over the collected `values` (of buckets `keys`).
fn result(out: &Output<'_>, metric: &BucketMetric, keys: Vec<String>, values: &[f64]) -> AggResult {
    match metric {
        BucketMetric::Sum | BucketMetric::Avg => {
            let mut sum = 0.0;
            for v in values {
                sum += v;
            }
            if *metric == BucketMetric::Avg {
                return out.simple_value(if values.is_empty() { f64::NAN } else { sum / values.len() as f64 });
            }
            out.simple_value(sum)
        }
        BucketMetric::Max | BucketMetric::Min => {
            let max = *metric == BucketMetric::Max;
            let mut best = if max { f64::NEG_INFINITY } else { f64::INFINITY };
            let mut best_keys: Vec<String> = Vec::new();
            for (k, &v) in keys.into_iter().zip(values) {
                if (max && v > best) || (!max && v < best) {
                    best_keys.clear();
                    best_keys.push(k);
                    best = v;
                } else if v == best {
                    best_keys.push(k);
                }
            }
            out.result(
                "bucket_metric_value",
                AggBody::BucketMetricValue { value: out.formatted(best), keys: best_keys },
            )
        }
        BucketMetric::Stats | BucketMetric::ExtendedStats { .. } => {
            let (mut count, mut sum, mut min, mut max, mut squares) =
                (0u64, 0.0, f64::INFINITY, f64::NEG_INFINITY, 0.0);
            for &v in values {
                count += 1;
                sum += v;
                min = f64::min(min, v);
                max = f64::max(max, v);
                squares += v * v;
            }
            let avg = sum / count as f64;
            let text = |v: f64| if count > 0 { out.format.as_ref().map(|f| f.format(v)) } else { None };
            let mut stats = Stats {
                count,
                min,
                max,
                avg,
                sum,
                extended: None,
                strings: [text(min), text(max), text(avg), text(sum)],
                extended_strings: None,
                layout: StatsLayout::Bucket,
            };
            let BucketMetric::ExtendedStats { sigma } = metric else {
                return out.result("stats_bucket", AggBody::Stats(Box::new(stats)));
            };
            let variance = (squares - (sum * sum) / count as f64) / count as f64;
            let std = variance.sqrt();
            let e = Extended {
                sum_of_squares: squares,
                variance,
                std_deviation: std,
                upper: avg + std * sigma,
                lower: avg - std * sigma,
            };
            if let (true, Some(f)) = (count > 0, &out.format) {
                stats.extended_strings = Some([
                    f.format(e.sum_of_squares),
                    f.format(e.variance),
                    f.format(e.std_deviation),
                    f.format(e.upper),
                    f.format(e.lower),
                ]);
            }
            stats.extended = Some(e);
            out.result("extended_stats_bucket", AggBody::Stats(Box::new(stats)))
        }
        BucketMetric::Percentiles { percents, keyed } => {
            let mut sorted = values.to_vec();
            sorted.sort_by(f64::total_cmp);
            let at = |p: f64| {
                if sorted.is_empty() {
                    return f64::NAN;
                }
                // Java's Math.round: half up.
                let index = ((p / 100.0) * (sorted.len() - 1) as f64 + 0.5).floor() as usize;
                sorted[index.min(sorted.len() - 1)]
            };
            let values = percents
                .iter()
                .map(|&p| {
                    let v = at(p);
                    (p, v, out.text(v))
                })
                .collect();
            out.result("percentiles_bucket", AggBody::Percentiles { values, keyed: *keyed })
        }
    }
}
