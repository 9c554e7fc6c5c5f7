//! Reading a `buckets_path` against the typed aggregation results, as ES 6.8's
//! `BucketHelpers.resolveBucketValue` reads it against its internal aggregations: the
//! bucket's `_count` and `_key`, a single-value metric, a multi-value metric's named
//! value (`stats.avg`, `percentiles[99.0]`), through single-bucket aggregations.

use crate::error::{Error, Exception, Result};
use crate::json_value::java_double;
use crate::request::pipeline_aggs::GapPolicy;
use crate::search::response::aggregations::{key_text, read, AggBody, Bucket, BucketKey, KeyValue, Stats};

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

/// What a path names.
enum Prop {
    /// A number (`_count`, a numeric `_key`, a metric's named value).
    Number(f64),
    /// A single-value metric (its value).
    SingleValue(f64),
    /// Anything else, by the Java class ES names in its error.
    Other(&'static str),
}

/// The value of a single-value result (a metric, `simple_value`, a derivative, a
/// `*_bucket` value, a scripted metric whose object is a number); `None` for the others.
fn single_value(body: &AggBody) -> Option<f64> {
    match body {
        AggBody::Value { value, .. } => Some(value.read()),
        AggBody::Derivative { value, .. } | AggBody::BucketMetricValue { value, .. } => Some(read(value.value)),
        AggBody::Scripted(v) if v.is_number() || v.is_null() => Some(v.as_f64().unwrap_or(f64::NAN)),
        _ => None,
    }
}

/// `path not supported for [name]: [a, b]` (ES's IllegalArgumentException, a 400).
fn unsupported_path(name: &str, rest: &[String]) -> Error {
    Error::illegal_argument(format!("path not supported for [{name}]: [{}]", rest.join(", ")))
}

/// A named value of a multi-value metric (`stats`, `extended_stats`, their `_bucket`s).
fn stats_value(s: &Stats, value: &str) -> Result<f64> {
    let found = match value {
        "count" | "sum" | "min" | "max" | "avg" | "sum_of_squares" | "variance" | "std_deviation" => s.named(value),
        "std_upper" | "std_lower" => s.extended.as_ref().map(|e| {
            let side = if value == "std_upper" { e.upper } else { e.lower };
            if s.count == 0 {
                f64::NAN
            } else {
                read(side)
            }
        }),
        _ => None,
    };
    found.ok_or_else(|| Error::illegal_argument(format!("Unknown value [{value}] in common stats aggregation")))
}

/// A percentile by its name (`99`, `99.0`): the value of that percent.
fn percentile_value(values: &[(f64, f64, Option<String>)], keyed: bool, name: &str) -> Result<f64> {
    let p: f64 = name.trim().parse().map_err(|_| {
        Error::new(400, Exception::new("number_format_exception", format!("For input string: \"{name}\"")))
    })?;
    // Keyed, a repeated percent is one member holding the last value.
    let found = if keyed {
        let key = java_double(p);
        values.iter().rev().find(|(k, ..)| java_double(*k) == key)
    } else {
        values.iter().find(|(k, ..)| *k == p)
    };
    found.map(|(_, v, _)| read(*v)).ok_or_else(|| {
        Error::illegal_argument(format!(
            "percentile [{}] was not computed by the aggregation: metagate computes the requested percents only",
            java_double(p)
        ))
    })
}

/// The property at `rest` below the aggregation result `body` named `name` (ES's
/// `InternalAggregation.getProperty`); `None` where ES raises
/// InvalidAggregationPathException (which the pipelines read as "no value").
fn agg_property(body: &AggBody, name: &str, rest: &[String]) -> Result<Option<Prop>> {
    const MULTI_VALUE: &str =
        "org.elasticsearch.search.aggregations.metrics.InternalNumericMetricsAggregation.MultiValue";
    Ok(Some(match body {
        AggBody::Buckets(_) if rest.is_empty() => {
            Prop::Other("org.elasticsearch.search.aggregations.InternalMultiBucketAggregation")
        }
        AggBody::Buckets(list) => {
            // ES collects the property of every bucket into an array (no number), and a
            // bucket lacking the path makes the whole path name nothing.
            for b in &list.buckets {
                if bucket_property(b, KeyKind::Text, rest)?.is_none() {
                    return Ok(None);
                }
            }
            Prop::Other("java.lang.Object[]")
        }
        AggBody::SingleBucket { .. } if rest.is_empty() => {
            Prop::Other("org.elasticsearch.search.aggregations.bucket.InternalSingleBucketAggregation")
        }
        AggBody::SingleBucket { doc_count, subs } => {
            if rest[0] == "_count" {
                if rest.len() > 1 {
                    return Ok(None);
                }
                return Ok(Some(Prop::Number(*doc_count as f64)));
            }
            let Some(sub) = subs.find(&rest[0]) else { return Ok(None) };
            return agg_property(&sub.body, &rest[0], &rest[1..]);
        }
        AggBody::Stats(_) | AggBody::Percentiles { .. } if rest.is_empty() => Prop::Other(MULTI_VALUE),
        AggBody::Stats(s) if rest.len() == 1 => Prop::Number(stats_value(s, &rest[0])?),
        AggBody::Percentiles { values, keyed } if rest.len() == 1 => {
            Prop::Number(percentile_value(values, *keyed, &rest[0])?)
        }
        AggBody::Stats(_) | AggBody::Percentiles { .. } => return Err(unsupported_path(name, rest)),
        AggBody::TopHits(_) => Prop::Other("org.elasticsearch.search.aggregations.metrics.InternalTopHits"),
        AggBody::GeoBounds(_) | AggBody::GeoCentroid { .. } => {
            Prop::Other("org.elasticsearch.search.aggregations.InternalAggregation")
        }
        other => match single_value(other) {
            Some(v) if rest.is_empty() => Prop::SingleValue(v),
            Some(v) if rest.len() == 1 && rest[0] == "value" => Prop::Number(v),
            Some(_) => return Err(unsupported_path(name, rest)),
            None => Prop::Other("org.elasticsearch.search.aggregations.metrics.InternalScriptedMetric"),
        },
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
fn bucket_property(bucket: &Bucket, keys: KeyKind, path: &[String]) -> Result<Option<Prop>> {
    Ok(match path.first().map(String::as_str) {
        None => {
            Some(Prop::Other("org.elasticsearch.search.aggregations.InternalMultiBucketAggregation.InternalBucket"))
        }
        Some("_count") if path.len() > 1 => None,
        Some("_count") => Some(Prop::Number(bucket.doc_count as f64)),
        Some("_key") if path.len() > 1 => None,
        Some("_key") => Some(match (keys, bucket.key_number()) {
            (KeyKind::Date, _) => Prop::Other("org.joda.time.DateTime"),
            (_, Some(n)) => Prop::Number(n),
            _ => Prop::Other("java.lang.String"),
        }),
        Some(name) => match bucket.subs.find(name) {
            Some(sub) => agg_property(&sub.body, name, &path[1..])?,
            None => None,
        },
    })
}

/// The value at `path` in `bucket` (a bucket of a multi-bucket aggregation whose keys
/// are `keys`), with `gap` applied to a bucket without documents or a value without a
/// number: `Ok(None)` for a path that names nothing there, NaN for a skipped gap.
pub fn resolve_bucket_value(bucket: &Bucket, keys: KeyKind, path: &[String], gap: GapPolicy) -> Result<Option<f64>> {
    let value = match bucket_property(bucket, keys, path)? {
        None => return Ok(None),
        Some(Prop::Number(v) | Prop::SingleValue(v)) => v,
        Some(Prop::Other(class)) => return Err(not_a_number(class)),
    };
    let doc_count_path = path.len() == 1 && path[0] == "_count";
    if !value.is_finite() || (bucket.doc_count == 0 && !doc_count_path) {
        return Ok(Some(match gap {
            GapPolicy::InsertZeros => 0.0,
            GapPolicy::Skip => f64::NAN,
        }));
    }
    Ok(Some(value))
}

/// A bucket's key as ES's `getKeyAsString` gives it: `key_as_string` when the bucket has
/// one, else the key (a keyed `filters` bucket's name; nothing for an unkeyed one).
pub fn key_as_string(bucket: &Bucket, keyed: bool) -> String {
    if let Some(s) = bucket.key_as_string() {
        return s.to_string();
    }
    match &bucket.key {
        BucketKey::Term { key, .. } | BucketKey::Histogram { key, .. } => match key {
            KeyValue::Str(_) | KeyValue::Long(_) | KeyValue::Double(_) => key_text(key),
            KeyValue::Bool(_) | KeyValue::Null => String::new(),
        },
        BucketKey::Range { key, .. } => key.clone(),
        BucketKey::Named(name) if keyed => name.clone(),
        BucketKey::Named(_) | BucketKey::Composite(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::response::aggregations::{AggResult, AggResults, Num, StatsLayout};

    fn path(p: &str) -> Vec<String> {
        crate::request::pipeline_aggs::BucketsPath::parse(p).unwrap().strings()
    }

    fn sub(name: &str, body: AggBody) -> AggResult {
        AggResult { name: name.into(), type_name: "t", meta: None, body }
    }

    fn value(v: f64) -> AggBody {
        AggBody::Value { value: Num::Double(v), as_string: None }
    }

    fn bucket(doc_count: u64, subs: Vec<AggResult>) -> Bucket {
        let key = BucketKey::Histogram { key: KeyValue::Double(1.0), as_string: None };
        Bucket { key, doc_count, significance: None, subs: AggResults(subs) }
    }

    #[test]
    fn values_resolve_through_metrics_and_single_buckets() {
        let stats = Stats {
            count: 2,
            min: 1.0,
            max: 4.0,
            avg: 2.5,
            sum: 5.0,
            extended: None,
            strings: [None, None, None, None],
            extended_strings: None,
            layout: StatsLayout::Metric,
        };
        let b = bucket(
            2,
            vec![
                sub("s", value(5.0)),
                sub("st", AggBody::Stats(Box::new(stats))),
                sub("f", AggBody::SingleBucket { doc_count: 1, subs: AggResults(vec![sub("m", value(3.0))]) }),
                sub("p", AggBody::Percentiles { values: vec![(50.0, 7.0, None)], keyed: true }),
            ],
        );
        let r = |p: &str| resolve_bucket_value(&b, KeyKind::Number, &path(p), GapPolicy::Skip).unwrap();
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
        let inner = Bucket {
            key: BucketKey::Term { key: KeyValue::Str("a".into()), as_string: None },
            doc_count: 1,
            significance: None,
            subs: AggResults::default(),
        };
        let list = crate::search::response::aggregations::BucketList {
            head: crate::search::response::aggregations::ListHead::Plain,
            buckets: vec![inner],
            keyed: false,
        };
        let t = bucket(2, vec![sub("t", AggBody::Buckets(list))]);
        assert_eq!(resolve_bucket_value(&t, KeyKind::Number, &path("t['a']>_count"), GapPolicy::Skip).unwrap(), None);
        let e = resolve_bucket_value(&b, KeyKind::Number, &path("st"), GapPolicy::Skip).unwrap_err();
        assert!(e.reason().starts_with("buckets_path must reference either a number value"), "{}", e.reason());
    }

    #[test]
    fn an_empty_bucket_is_a_gap_except_for_its_count() {
        let b = bucket(0, vec![sub("s", value(0.0)), sub("a", value(f64::INFINITY))]);
        let r = |p: &str, g| resolve_bucket_value(&b, KeyKind::Number, &path(p), g).unwrap();
        assert!(r("s", GapPolicy::Skip).unwrap().is_nan());
        assert_eq!(r("a", GapPolicy::InsertZeros), Some(0.0));
        assert_eq!(r("_count", GapPolicy::Skip), Some(0.0));
    }
}
