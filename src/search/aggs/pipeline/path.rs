//! Reading a `buckets_path` against rendered aggregation results, as ES 6.8's
//! `BucketHelpers.resolveBucketValue` reads it against its internal aggregations: the
//! bucket's `_count` and `_key`, a single-value metric, a multi-value metric's named
//! value (`stats.avg`, `percentiles[99.0]`), through single-bucket aggregations.

use crate::error::{Error, Exception, Result};
use crate::request::pipeline_aggs::GapPolicy;
use serde_json::{Map, Value};

/// How the parent's bucket keys read as `_key`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// A number (`histogram`; `terms` over numbers).
    Number,
    /// A date (`date_histogram`: a Joda `DateTime` in ES, not a number).
    Date,
    /// Text (`terms` over strings, `range`, `filters`).
    Text,
}

/// The aggregation of `map` named `name` (under `type#name` with `typed_keys`).
pub fn find_agg<'m>(map: &'m Map<String, Value>, name: &str, typed: bool) -> Option<&'m Value> {
    if typed {
        map.iter().find(|(k, _)| k.split_once('#').is_some_and(|(_, n)| n == name)).map(|(_, v)| v)
    } else {
        map.get(name)
    }
}

/// What a path names.
enum Prop {
    /// A number (`_count`, a numeric `_key`, a metric's named value).
    Number(f64),
    /// A single-value metric (its value).
    SingleValue(f64),
    /// Anything else, by the Java class ES names in its error.
    Other(&'static str),
}

/// The shape of a rendered aggregation body.
enum Shape<'a> {
    MultiBucket,
    SingleBucket(&'a Map<String, Value>),
    SingleValue(f64),
    Stats(&'a Map<String, Value>),
    Percentiles(&'a Value),
    Other(&'static str),
}

fn number_of(v: Option<&Value>) -> f64 {
    v.and_then(Value::as_f64).unwrap_or(f64::NAN)
}

fn shape(body: &Value) -> Shape<'_> {
    let Some(m) = body.as_object() else { return Shape::Other("java.lang.Object") };
    if m.contains_key("buckets") {
        return Shape::MultiBucket;
    }
    if m.contains_key("doc_count") {
        return Shape::SingleBucket(m);
    }
    if let Some(v) = m.get("values") {
        return Shape::Percentiles(v);
    }
    if m.contains_key("count") && m.contains_key("avg") {
        return Shape::Stats(m);
    }
    if let Some(v) = m.get("value") {
        return match v {
            Value::Number(_) | Value::Null => Shape::SingleValue(number_of(Some(v))),
            _ => Shape::Other("org.elasticsearch.search.aggregations.metrics.InternalScriptedMetric"),
        };
    }
    if m.contains_key("hits") {
        return Shape::Other("org.elasticsearch.search.aggregations.metrics.InternalTopHits");
    }
    Shape::Other("org.elasticsearch.search.aggregations.InternalAggregation")
}

/// `path not supported for [name]: [a, b]` (ES's IllegalArgumentException, a 400).
fn unsupported_path(name: &str, rest: &[String]) -> Error {
    Error::illegal_argument(format!("path not supported for [{name}]: [{}]", rest.join(", ")))
}

/// A named value of a multi-value metric (`stats`, `extended_stats`, their `_bucket`s).
fn stats_value(m: &Map<String, Value>, value: &str) -> Result<f64> {
    let key = match value {
        "count" | "sum" | "min" | "max" | "avg" => value,
        "sum_of_squares" | "variance" | "std_deviation" if m.contains_key("sum_of_squares") => value,
        "std_upper" | "std_lower" if m.contains_key("std_deviation_bounds") => {
            let bounds = m.get("std_deviation_bounds");
            let side = if value == "std_upper" { "upper" } else { "lower" };
            return Ok(number_of(bounds.and_then(|b| b.get(side))));
        }
        _ if m.contains_key("sum_of_squares") => {
            return Err(Error::illegal_argument(format!("Unknown value [{value}] in common stats aggregation")))
        }
        _ => return Err(Error::illegal_argument(format!("Unknown value [{value}] in common stats aggregation"))),
    };
    Ok(number_of(m.get(key)))
}

/// A percentile by its name (`99`, `99.0`): the rendered value of that percent.
fn percentile_value(values: &Value, name: &str) -> Result<f64> {
    let p: f64 = name.trim().parse().map_err(|_| {
        Error::new(400, Exception::new("number_format_exception", format!("For input string: \"{name}\"")))
    })?;
    let found = match values {
        Value::Object(m) => m.get(&crate::json_value::java_double(p)).map(|v| number_of(Some(v))),
        Value::Array(a) => {
            a.iter().find(|e| e.get("key").and_then(Value::as_f64) == Some(p)).map(|e| number_of(e.get("value")))
        }
        _ => None,
    };
    found.ok_or_else(|| {
        Error::illegal_argument(format!(
            "percentile [{}] was not computed by the aggregation: metagate computes the requested percents only",
            crate::json_value::java_double(p)
        ))
    })
}

/// The property at `rest` below the aggregation `body` named `name` (ES's
/// `InternalAggregation.getProperty`); `None` where ES raises
/// InvalidAggregationPathException (which the pipelines read as "no value").
fn agg_property(body: &Value, name: &str, rest: &[String], typed: bool) -> Result<Option<Prop>> {
    Ok(Some(match shape(body) {
        Shape::MultiBucket if rest.is_empty() => {
            Prop::Other("org.elasticsearch.search.aggregations.InternalMultiBucketAggregation")
        }
        Shape::MultiBucket => {
            // ES collects the property of every bucket into an array (no number), and a
            // bucket lacking the path makes the whole path name nothing.
            let buckets: Vec<&Map<String, Value>> = match body.get("buckets") {
                Some(Value::Array(a)) => a.iter().filter_map(Value::as_object).collect(),
                Some(Value::Object(o)) => o.values().filter_map(Value::as_object).collect(),
                _ => Vec::new(),
            };
            for b in buckets {
                if bucket_property(b, KeyKind::Text, rest, typed)?.is_none() {
                    return Ok(None);
                }
            }
            Prop::Other("java.lang.Object[]")
        }
        Shape::SingleBucket(_) if rest.is_empty() => {
            Prop::Other("org.elasticsearch.search.aggregations.bucket.InternalSingleBucketAggregation")
        }
        Shape::SingleBucket(m) => {
            if rest[0] == "_count" {
                if rest.len() > 1 {
                    return Ok(None);
                }
                return Ok(Some(Prop::Number(number_of(m.get("doc_count")))));
            }
            let Some(sub) = find_agg(m, &rest[0], typed) else { return Ok(None) };
            return agg_property(sub, &rest[0], &rest[1..], typed);
        }
        Shape::SingleValue(v) if rest.is_empty() => Prop::SingleValue(v),
        Shape::SingleValue(v) if rest.len() == 1 && rest[0] == "value" => Prop::Number(v),
        Shape::SingleValue(_) => return Err(unsupported_path(name, rest)),
        Shape::Stats(_) if rest.is_empty() => {
            Prop::Other("org.elasticsearch.search.aggregations.metrics.InternalNumericMetricsAggregation.MultiValue")
        }
        Shape::Stats(m) if rest.len() == 1 => Prop::Number(stats_value(m, &rest[0])?),
        Shape::Percentiles(_) if rest.is_empty() => {
            Prop::Other("org.elasticsearch.search.aggregations.metrics.InternalNumericMetricsAggregation.MultiValue")
        }
        Shape::Percentiles(values) if rest.len() == 1 => Prop::Number(percentile_value(values, &rest[0])?),
        Shape::Stats(_) | Shape::Percentiles(_) => return Err(unsupported_path(name, rest)),
        Shape::Other(class) => Prop::Other(class),
    }))
}

/// The error of a path that names no number.
fn not_a_number(class: &str) -> Error {
    Error::new(
        500,
        Exception::new(
            "aggregation_execution_exception",
            format!(
                "buckets_path must reference either a number value or a single value numeric metric aggregation, got: {class}"
            ),
        ),
    )
}

/// The property at `path` of a bucket (ES's `InternalBucket.getProperty`); `None` where
/// the path names nothing.
fn bucket_property(bucket: &Map<String, Value>, keys: KeyKind, path: &[String], typed: bool) -> Result<Option<Prop>> {
    Ok(match path.first().map(String::as_str) {
        None => {
            Some(Prop::Other("org.elasticsearch.search.aggregations.InternalMultiBucketAggregation.InternalBucket"))
        }
        Some("_count") if path.len() > 1 => None,
        Some("_count") => Some(Prop::Number(number_of(bucket.get("doc_count")))),
        Some("_key") if path.len() > 1 => None,
        Some("_key") => Some(match (keys, bucket.get("key")) {
            (KeyKind::Date, _) => Prop::Other("org.joda.time.DateTime"),
            (_, Some(Value::Number(n))) => Prop::Number(n.as_f64().unwrap_or(f64::NAN)),
            _ => Prop::Other("java.lang.String"),
        }),
        Some(name) => match find_agg(bucket, name, typed) {
            Some(sub) => agg_property(sub, name, &path[1..], typed)?,
            None => None,
        },
    })
}

/// The value at `path` in `bucket` (a bucket of a multi-bucket aggregation whose keys
/// are `keys`), with `gap` applied to a bucket without documents or a value without a
/// number: `Ok(None)` for a path that names nothing there, NaN for a skipped gap.
pub fn resolve_bucket_value(
    bucket: &Map<String, Value>,
    keys: KeyKind,
    path: &[String],
    gap: GapPolicy,
    typed: bool,
) -> Result<Option<f64>> {
    let value = match bucket_property(bucket, keys, path, typed)? {
        None => return Ok(None),
        Some(Prop::Number(v) | Prop::SingleValue(v)) => v,
        Some(Prop::Other(class)) => return Err(not_a_number(class)),
    };
    let doc_count_path = path.len() == 1 && path[0] == "_count";
    let empty = number_of(bucket.get("doc_count")) == 0.0;
    if !value.is_finite() || (empty && !doc_count_path) {
        return Ok(Some(match gap {
            GapPolicy::InsertZeros => 0.0,
            GapPolicy::Skip => f64::NAN,
        }));
    }
    Ok(Some(value))
}

/// A bucket's key as ES's `getKeyAsString` gives it: `key_as_string` when rendered, else
/// the key (`name` for a keyed bucket without a key).
pub fn key_as_string(bucket: &Map<String, Value>, keyed_name: Option<&str>) -> String {
    if let Some(Value::String(s)) = bucket.get("key_as_string") {
        return s.clone();
    }
    match bucket.get("key") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) if n.is_f64() => crate::json_value::java_double(n.as_f64().unwrap_or(0.0)),
        Some(Value::Number(n)) => n.to_string(),
        _ => keyed_name.unwrap_or_default().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn path(p: &str) -> Vec<String> {
        crate::request::pipeline_aggs::BucketsPath::parse(p).unwrap().strings()
    }

    #[test]
    fn values_resolve_through_metrics_and_single_buckets() {
        let b = json!({"key": 1.0, "doc_count": 2, "s": {"value": 5.0}, "st": {"count": 2, "min": 1.0, "max": 4.0, "avg": 2.5, "sum": 5.0},
            "f": {"doc_count": 1, "m": {"value": 3.0}}, "p": {"values": {"50.0": 7.0}}});
        let b = b.as_object().unwrap();
        let r = |p: &str| resolve_bucket_value(b, KeyKind::Number, &path(p), GapPolicy::Skip, false).unwrap();
        assert_eq!(r("s"), Some(5.0));
        assert_eq!(r("s.value"), Some(5.0));
        assert_eq!(r("st.avg"), Some(2.5));
        assert_eq!(r("f>m"), Some(3.0));
        assert_eq!(r("f>_count"), Some(1.0));
        assert_eq!(r("p[50]"), Some(7.0));
        assert_eq!(r("p.50"), Some(7.0));
        assert_eq!(r("_count"), Some(2.0));
        assert_eq!(r("_key"), Some(1.0));
        assert_eq!(r("nothing"), None);
        // A bucket key in the path (a later version's syntax) names nothing in 6.8.
        let t = json!({"key": 1.0, "doc_count": 2, "t": {"buckets": [{"key": "a", "doc_count": 1}]}});
        let t = t.as_object().unwrap();
        assert_eq!(
            resolve_bucket_value(t, KeyKind::Number, &path("t['a']>_count"), GapPolicy::Skip, false).unwrap(),
            None
        );
        let e = resolve_bucket_value(b, KeyKind::Number, &path("st"), GapPolicy::Skip, false).unwrap_err();
        assert!(e.reason().starts_with("buckets_path must reference either a number value"), "{}", e.reason());
    }

    #[test]
    fn an_empty_bucket_is_a_gap_except_for_its_count() {
        let b = json!({"key": 1.0, "doc_count": 0, "s": {"value": 0.0}, "a": {"value": null}});
        let b = b.as_object().unwrap();
        let r = |p: &str, g| resolve_bucket_value(b, KeyKind::Number, &path(p), g, false).unwrap();
        assert!(r("s", GapPolicy::Skip).unwrap().is_nan());
        assert_eq!(r("a", GapPolicy::InsertZeros), Some(0.0));
        assert_eq!(r("_count", GapPolicy::Skip), Some(0.0));
    }
}
