//! The `*_bucket` sibling pipelines: one value computed over the buckets of a sibling
//! multi-bucket aggregation (ES 6.8's `BucketMetricsPipelineAggregator` and its kinds).

use super::path::{find_agg, key_as_string, resolve_bucket_value, KeyKind};
use super::{execution_error, Output};
use crate::error::Result;
use crate::request::pipeline_aggs::BucketMetric;
use crate::request::pipeline_aggs::PipelineKind;
use serde_json::{Map, Value};

/// Computes the pipeline of `out` over the aggregations of `level` and adds its result.
pub fn run(out: &Output<'_>, level: &mut Map<String, Value>) -> Result<()> {
    let PipelineKind::Sibling(metric) = &out.spec.kind else { return Ok(()) };
    let path = out.spec.paths[0].1.strings();
    let mut keys = Vec::new();
    let mut values = Vec::new();
    if let Some(agg) = find_agg(level, &path[0], out.ctx.typed_keys) {
        let Some(buckets) = agg.get("buckets") else {
            return Err(execution_error(format!(
                "buckets_path must reference either a number value or a single value numeric metric aggregation, got: org.elasticsearch.search.aggregations.InternalAggregation at aggregation [{}]",
                path[0]
            )));
        };
        let entries: Vec<(Option<&str>, &Map<String, Value>)> = match buckets {
            Value::Array(a) => a.iter().filter_map(Value::as_object).map(|b| (None, b)).collect(),
            Value::Object(o) => o.iter().filter_map(|(k, b)| b.as_object().map(|b| (Some(k.as_str()), b))).collect(),
            _ => Vec::new(),
        };
        for (name, bucket) in entries {
            let kind = match bucket.get("key") {
                Some(Value::Number(_)) if !bucket.contains_key("key_as_string") => KeyKind::Number,
                Some(Value::Number(_)) => KeyKind::Date,
                _ => KeyKind::Text,
            };
            if let Some(v) = resolve_bucket_value(bucket, kind, &path[1..], out.spec.gap_policy, out.ctx.typed_keys)? {
                if !v.is_nan() {
                    keys.push(key_as_string(bucket, name));
                    values.push(v);
                }
            }
        }
    }
    let (key, body) = render(out, metric, &keys, &values);
    level.insert(key, body);
    Ok(())
}

/// The result of `metric` over the collected `values` (of buckets `keys`).
fn render(out: &Output<'_>, metric: &BucketMetric, keys: &[String], values: &[f64]) -> (String, Value) {
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
            let mut best_keys: Vec<&String> = Vec::new();
            for (k, &v) in keys.iter().zip(values) {
                if (max && v > best) || (!max && v < best) {
                    best_keys.clear();
                    best_keys.push(k);
                    best = v;
                } else if v == best {
                    best_keys.push(k);
                }
            }
            let mut m = out.body();
            out.number(&mut m, "value", best);
            m.insert("keys".into(), Value::from(best_keys.into_iter().cloned().collect::<Vec<_>>()));
            (out.key("bucket_metric_value"), Value::Object(m))
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
            let mut m = out.body();
            m.insert("count".into(), Value::from(count));
            let avg = sum / count as f64;
            if count > 0 {
                m.insert("min".into(), Value::from(min));
                m.insert("max".into(), Value::from(max));
                m.insert("avg".into(), Value::from(avg));
                m.insert("sum".into(), Value::from(sum));
                if let Some(f) = &out.format {
                    for (k, v) in [("min", min), ("max", max), ("avg", avg), ("sum", sum)] {
                        m.insert(format!("{k}_as_string"), Value::from(f.format(v)));
                    }
                }
            } else {
                for k in ["min", "max", "avg"] {
                    m.insert(k.into(), Value::Null);
                }
                m.insert("sum".into(), Value::from(0.0));
            }
            let BucketMetric::ExtendedStats { sigma } = metric else {
                return (out.key("stats_bucket"), Value::Object(m));
            };
            if count > 0 {
                let variance = (squares - (sum * sum) / count as f64) / count as f64;
                let std = variance.sqrt();
                let (upper, lower) = (avg + std * sigma, avg - std * sigma);
                m.insert("sum_of_squares".into(), Value::from(squares));
                m.insert("variance".into(), Value::from(variance));
                m.insert("std_deviation".into(), Value::from(std));
                m.insert("std_deviation_bounds".into(), serde_json::json!({"upper": upper, "lower": lower}));
                if let Some(f) = &out.format {
                    m.insert("sum_of_squares_as_string".into(), Value::from(f.format(squares)));
                    m.insert("variance_as_string".into(), Value::from(f.format(variance)));
                    m.insert("std_deviation_as_string".into(), Value::from(f.format(std)));
                    m.insert(
                        "std_deviation_bounds_as_string".into(),
                        serde_json::json!({"upper": f.format(upper), "lower": f.format(lower)}),
                    );
                }
            } else {
                m.insert("sum_of_squares".into(), Value::Null);
                m.insert("variance".into(), Value::Null);
                m.insert("std_deviation".into(), Value::Null);
                m.insert("std_deviation_bounds".into(), serde_json::json!({"upper": null, "lower": null}));
            }
            (out.key("extended_stats_bucket"), Value::Object(m))
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
            let mut m = out.body();
            let rendered = if *keyed {
                let mut o = Map::new();
                for &p in percents {
                    let key = crate::json_value::java_double(p);
                    out.number(&mut o, &key, at(p));
                }
                Value::Object(o)
            } else {
                Value::Array(
                    percents
                        .iter()
                        .map(|&p| {
                            let mut o = Map::new();
                            o.insert("key".into(), Value::from(p));
                            out.number(&mut o, "value", at(p));
                            Value::Object(o)
                        })
                        .collect(),
                )
            };
            m.insert("values".into(), rendered);
            (out.key("percentiles_bucket"), Value::Object(m))
        }
    }
}
