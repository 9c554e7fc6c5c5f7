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
