//! Response rendering options every endpoint honours: `pretty` (Jackson's layout, as ES
//! prints it) and `filter_path`.

use crate::mapping::simple_match;
use serde_json::{Map, Value};

/// Jackson's default pretty printer: two-space indent, `" : "` between key and value.
pub fn pretty(v: &Value) -> String {
    let mut out = String::new();
    write_pretty(v, 0, &mut out);
    out.push('\n');
    out
}

fn write_pretty(v: &Value, indent: usize, out: &mut String) {
    let pad = |n: usize, out: &mut String| out.extend(std::iter::repeat_n(' ', n));
    match v {
        Value::Object(m) if m.is_empty() => out.push_str("{ }"),
        Value::Array(a) if a.is_empty() => out.push_str("[ ]"),
        Value::Object(m) => {
            out.push_str("{\n");
            for (i, (k, x)) in m.iter().enumerate() {
                pad(indent + 2, out);
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(" : ");
                write_pretty(x, indent + 2, out);
                if i + 1 < m.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            pad(indent, out);
            out.push('}');
        }
        Value::Array(a) => {
            out.push_str("[\n");
            for (i, x) in a.iter().enumerate() {
                pad(indent + 2, out);
                write_pretty(x, indent + 2, out);
                if i + 1 < a.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            pad(indent, out);
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// ES `filter_path`: comma-separated dotted paths, `*` for one level (also inside a name),
/// `**` for any depth, `-path` to exclude. Arrays are transparent; emptied objects vanish.
pub fn filter_path(v: &Value, spec: &str) -> Value {
    let mut includes: Vec<Vec<&str>> = Vec::new();
    let mut excludes: Vec<Vec<&str>> = Vec::new();
    for p in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match p.strip_prefix('-') {
            Some(x) => excludes.push(x.split('.').collect()),
            None => includes.push(p.split('.').collect()),
        }
    }
    let mut out = v.clone();
    if !includes.is_empty() {
        out = keep(&out, &includes).unwrap_or_else(|| Value::Object(Map::new()));
    }
    if !excludes.is_empty() {
        out = drop_paths(&out, &excludes).unwrap_or_else(|| Value::Object(Map::new()));
    }
    out
}

/// What remains of the patterns after matching `key` (None: no pattern matches it).
fn advance<'a>(patterns: &[Vec<&'a str>], key: &str) -> (bool, Vec<Vec<&'a str>>) {
    let mut whole = false;
    let mut rest = Vec::new();
    for p in patterns {
        let Some(first) = p.first() else { continue };
        if *first == "**" {
            // `**` may match nothing or this key (and keep matching below).
            rest.push(p.clone());
            if p.len() > 1 && simple_match(p[1], key) {
                if p.len() == 2 {
                    whole = true;
                } else {
                    rest.push(p[2..].to_vec());
                }
            }
        } else if simple_match(first, key) {
            if p.len() == 1 {
                whole = true;
            } else {
                rest.push(p[1..].to_vec());
            }
        }
    }
    (whole, rest)
}

fn keep(v: &Value, patterns: &[Vec<&str>]) -> Option<Value> {
    match v {
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, x) in m {
                let (whole, rest) = advance(patterns, k);
                if whole {
                    out.insert(k.clone(), x.clone());
                } else if !rest.is_empty() {
                    if let Some(y) = keep(x, &rest) {
                        out.insert(k.clone(), y);
                    }
                }
            }
            (!out.is_empty()).then_some(Value::Object(out))
        }
        Value::Array(a) => {
            let items: Vec<Value> = a.iter().filter_map(|x| keep(x, patterns)).collect();
            (!items.is_empty()).then_some(Value::Array(items))
        }
        _ => None,
    }
}

fn drop_paths(v: &Value, patterns: &[Vec<&str>]) -> Option<Value> {
    match v {
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, x) in m {
                let (whole, rest) = advance(patterns, k);
                if whole {
                    continue;
                }
                if rest.is_empty() {
                    out.insert(k.clone(), x.clone());
                } else if let Some(y) = drop_paths(x, &rest) {
                    out.insert(k.clone(), y);
                }
            }
            Some(Value::Object(out))
        }
        Value::Array(a) => Some(Value::Array(a.iter().filter_map(|x| drop_paths(x, patterns)).collect())),
        other => Some(other.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn jackson_layout() {
        assert_eq!(
            pretty(&json!({"a": 1, "b": [], "c": {"d": [true]}})),
            "{\n  \"a\" : 1,\n  \"b\" : [ ],\n  \"c\" : {\n    \"d\" : [\n      true\n    ]\n  }\n}\n"
        );
    }

    #[test]
    fn filter_paths() {
        let r = json!({"took": 1, "hits": {"total": 2, "hits": [{"_id": "a", "_source": {"x": 1}}, {"_id": "b", "_source": {"x": 2}}]}});
        assert_eq!(filter_path(&r, "hits.hits._id"), json!({"hits": {"hits": [{"_id": "a"}, {"_id": "b"}]}}));
        assert_eq!(filter_path(&r, "took,hits.total"), json!({"took": 1, "hits": {"total": 2}}));
        assert_eq!(
            filter_path(&r, "-hits.hits._source"),
            json!({"took": 1, "hits": {"total": 2, "hits": [{"_id": "a"}, {"_id": "b"}]}})
        );
        assert_eq!(filter_path(&r, "**.x"), json!({"hits": {"hits": [{"_source": {"x": 1}}, {"_source": {"x": 2}}]}}));
        assert_eq!(
            filter_path(&r, "hits.hits._s*"),
            json!({"hits": {"hits": [{"_source": {"x": 1}}, {"_source": {"x": 2}}]}})
        );
        assert_eq!(filter_path(&r, "nothing"), json!({}));
    }
}
