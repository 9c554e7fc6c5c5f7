//! Builds the ES 6.8 search response JSON.

use serde_json::{json, Map, Value};

/// A score as ES prints it: the shortest decimal of the f32 (Java `Float.toString`
/// digits), `null` for NaN.
pub fn score_json(score: f32) -> Value {
    if score.is_nan() {
        return Value::Null;
    }
    let shortest: f64 = format!("{score}").parse().unwrap_or(score as f64);
    json!(shortest)
}

/// `_shards` for `n` searched indices (one shard each).
pub fn shards(n: usize) -> Value {
    json!({"total": n, "successful": n, "skipped": 0, "failed": 0})
}

/// The response envelope in ES's key order.
pub fn envelope(
    scroll_id: Option<&str>,
    took: u64,
    terminated_early: bool,
    shard_count: usize,
    hits: Value,
    aggs: Option<Value>,
) -> Value {
    let mut m = Map::new();
    if let Some(id) = scroll_id {
        m.insert("_scroll_id".into(), json!(id));
    }
    m.insert("took".into(), json!(took));
    m.insert("timed_out".into(), json!(false));
    if terminated_early {
        m.insert("terminated_early".into(), json!(true));
    }
    m.insert("_shards".into(), shards(shard_count));
    m.insert("hits".into(), hits);
    if let Some(a) = aggs {
        m.insert("aggregations".into(), a);
    }
    Value::Object(m)
}

/// Java's `Double.toString`, which ES uses for numbers in texts and keys (`100.0`,
/// `1.5E7`, `1.0E-4`).
pub fn java_double(v: f64) -> String {
    java_layout(v, format!("{v}"), format!("{v:e}"))
}

/// Java's `Float.toString` (explanations print f32 values this way).
pub fn java_float(v: f32) -> String {
    java_layout(v as f64, format!("{v}"), format!("{v:e}"))
}

/// Java's layout from Rust's shortest round-trip digits: plain decimal with at least one
/// fractional digit for magnitudes in [1e-3, 1e7), else one digit, a fraction, `E` and
/// the exponent.
fn java_layout(v: f64, plain: String, scientific: String) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    let with_fraction = |s: &str| if s.contains('.') { s.to_string() } else { format!("{s}.0") };
    if v == 0.0 || (1e-3..1e7).contains(&v.abs()) {
        with_fraction(&plain)
    } else {
        let (mantissa, exp) = scientific.split_once('e').unwrap_or((&scientific, "0"));
        format!("{}E{exp}", with_fraction(mantissa))
    }
}

#[cfg(test)]
mod java_tests {
    use super::*;

    #[test]
    fn java_number_forms() {
        assert_eq!(java_double(100.0), "100.0");
        assert_eq!(java_double(1.5), "1.5");
        assert_eq!(java_double(0.0), "0.0");
        assert_eq!(java_double(-2.0), "-2.0");
        assert_eq!(java_double(1.4436576e12), "1.4436576E12");
        assert_eq!(java_double(1e7), "1.0E7");
        assert_eq!(java_double(0.0001), "1.0E-4");
        assert_eq!(java_float(1.2), "1.2");
        assert_eq!(java_float(0.1), "0.1");
        assert_eq!(java_float(f32::NAN), "NaN");
        assert_eq!(java_float(3.0e9), "3.0E9");
    }
}
