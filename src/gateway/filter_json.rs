//! An alias's filter as ES 6.8 prints a parsed query (`QueryBuilder.toXContent`): every
//! option with its default, in the builder's order, `boost` as a float. `_search_shards`
//! prints filters so. Only the query types below are printed; another is refused by
//! name rather than printed as it was given, which ES would not do.

use crate::error::{Error, Result};
use serde_json::{json, Map, Value};

/// The printed form of `filter`, or the refusal naming the query type not printed.
pub(super) fn printed(filter: &Value) -> Result<Value> {
    let Some((kind, body)) = filter.as_object().and_then(|o| o.iter().next()) else {
        return Err(unsupported("this"));
    };
    match kind.as_str() {
        "match_all" => Ok(json!({"match_all": tail(body.as_object(), Map::new())})),
        "term" | "prefix" | "wildcard" => {
            let key = match kind.as_str() {
                "wildcard" => "wildcard",
                _ => "value",
            };
            let (field, v) = single_field(body, kind)?;
            let mut inner = Map::new();
            let options = v.as_object();
            let value = match options {
                Some(o) => o.get(key).or_else(|| o.get("value")).cloned().ok_or_else(|| unsupported(kind))?,
                None => v.clone(),
            };
            inner.insert(key.into(), value);
            if kind == "prefix" || kind == "wildcard" {
                if let Some(r) = options.and_then(|o| o.get("rewrite")) {
                    inner.insert("rewrite".into(), r.clone());
                }
            }
            let inner = tail(options, inner);
            Ok(json!({ kind.as_str(): { field: inner } }))
        }
        "terms" => {
            let o = body.as_object().ok_or_else(|| unsupported(kind))?;
            let mut fields = o.iter().filter(|(k, _)| k.as_str() != "boost" && k.as_str() != "_name");
            let (Some((field, values)), None) = (fields.next(), fields.next()) else {
                return Err(unsupported(kind));
            };
            if !values.is_array() {
                return Err(unsupported("terms lookup"));
            }
            let mut inner = Map::new();
            inner.insert(field.clone(), values.clone());
            Ok(json!({"terms": tail(Some(o), inner)}))
        }
        "exists" => {
            let o = body.as_object().ok_or_else(|| unsupported(kind))?;
            let field = o.get("field").cloned().ok_or_else(|| unsupported(kind))?;
            let mut inner = Map::new();
            inner.insert("field".into(), field);
            Ok(json!({"exists": tail(Some(o), inner)}))
        }
        "range" => {
            let (field, v) = single_field(body, kind)?;
            let o = v.as_object().ok_or_else(|| unsupported(kind))?;
            let (mut from, mut to, mut include_lower, mut include_upper) = (Value::Null, Value::Null, true, true);
            for (k, x) in o {
                match k.as_str() {
                    "gte" => (from, include_lower) = (x.clone(), true),
                    "gt" => (from, include_lower) = (x.clone(), false),
                    "lte" => (to, include_upper) = (x.clone(), true),
                    "lt" => (to, include_upper) = (x.clone(), false),
                    "from" => from = x.clone(),
                    "to" => to = x.clone(),
                    "include_lower" => include_lower = x.as_bool().unwrap_or(true),
                    "include_upper" => include_upper = x.as_bool().unwrap_or(true),
                    "boost" | "_name" | "time_zone" | "format" => {}
                    _ => return Err(unsupported("range (with [relation])")),
                }
            }
            let mut inner = Map::new();
            inner.insert("from".into(), from);
            inner.insert("to".into(), to);
            inner.insert("include_lower".into(), json!(include_lower));
            inner.insert("include_upper".into(), json!(include_upper));
            for k in ["time_zone", "format"] {
                if let Some(x) = o.get(k) {
                    inner.insert(k.into(), x.clone());
                }
            }
            Ok(json!({"range": { field: tail(Some(o), inner) }}))
        }
        "bool" => {
            let o = body.as_object().ok_or_else(|| unsupported(kind))?;
            let mut inner = Map::new();
            for clause in ["must", "filter", "must_not", "should"] {
                let printed_clauses = match o.get(clause) {
                    None => continue,
                    Some(Value::Array(a)) => a.iter().map(printed).collect::<Result<Vec<_>>>()?,
                    Some(one) => vec![printed(one)?],
                };
                if !printed_clauses.is_empty() {
                    inner.insert(clause.into(), Value::Array(printed_clauses));
                }
            }
            inner.insert("adjust_pure_negative".into(), o.get("adjust_pure_negative").cloned().unwrap_or(json!(true)));
            if let Some(m) = o.get("minimum_should_match") {
                inner.insert(
                    "minimum_should_match".into(),
                    json!(m.as_str().map_or_else(|| m.to_string(), String::from)),
                );
            }
            Ok(json!({"bool": tail(Some(o), inner)}))
        }
        other => Err(unsupported(other)),
    }
}

/// Several aliases' filters: a `bool` of them as `should` clauses (ES's
/// `ShardSearchRequest.parseAliasFilter`).
pub(super) fn printed_any(filters: &[Value]) -> Result<Value> {
    match filters {
        [one] => printed(one),
        many => {
            let should = many.iter().map(printed).collect::<Result<Vec<_>>>()?;
            Ok(json!({"bool": {"should": should, "adjust_pure_negative": true, "boost": 1.0}}))
        }
    }
}

/// The one `field: options` member of a query object.
fn single_field<'a>(body: &'a Value, kind: &str) -> Result<(String, &'a Value)> {
    let o = body.as_object().ok_or_else(|| unsupported(kind))?;
    let mut fields = o.iter();
    match (fields.next(), fields.next()) {
        (Some((f, v)), None) => Ok((f.clone(), v)),
        _ => Err(unsupported(kind)),
    }
}

/// `boost` (a float, 1.0 by default) and `_name` when given, after the query's own keys.
fn tail(options: Option<&Map<String, Value>>, mut inner: Map<String, Value>) -> Value {
    let boost = options.and_then(|o| o.get("boost")).and_then(|b| b.as_f64().or_else(|| b.as_str()?.parse().ok()));
    inner.insert("boost".into(), json!(boost.unwrap_or(1.0)));
    if let Some(name) = options.and_then(|o| o.get("_name")) {
        inner.insert("_name".into(), name.clone());
    }
    Value::Object(inner)
}

fn unsupported(kind: &str) -> Error {
    Error::illegal_argument(format!("metagate does not print the alias filter of a [{kind}] query in _search_shards"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_print_as_es_query_builders() {
        assert_eq!(
            printed(&json!({"term": {"field": "value1"}})).unwrap(),
            json!({"term": {"field": {"value": "value1", "boost": 1.0}}})
        );
        assert_eq!(
            printed(&json!({"range": {"n": {"gt": 2, "boost": 2}}})).unwrap(),
            json!({"range": {"n": {"from": 2, "to": null, "include_lower": false, "include_upper": true, "boost": 2.0}}})
        );
        assert_eq!(
            printed(&json!({"bool": {"must_not": {"term": {"a": 1}}}})).unwrap(),
            json!({"bool": {"must_not": [{"term": {"a": {"value": 1, "boost": 1.0}}}], "adjust_pure_negative": true, "boost": 1.0}})
        );
        assert!(printed(&json!({"match": {"a": "b"}})).is_err());
    }
}
