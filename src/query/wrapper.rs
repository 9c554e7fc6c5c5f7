//! Queries that stand for others: `wrapper` (a query written as base64 JSON, parsed as
//! the query it holds) and `type` (ES 6.8's mapping-type filter: every document of an
//! index whose type it names, none of another's, as a `_type` term matches).

use super::dsl::DslParser;
use super::{Query, Scalar};
use crate::error::{Error, Result};
use crate::json_value::{num_f32, value_to_string};
use base64::Engine as _;
use serde_json::Value;

fn parsing(msg: impl Into<String>) -> Error {
    Error::parsing_no_pos(msg.into())
}

/// `{"wrapper": {"query": "<base64 of a query object>"}}`: the decoded query, parsed
/// with its own text for positions (ES parses it when it rewrites the request).
pub fn parse_wrapper(body: &Value, depth: usize) -> Result<Query> {
    let o = body.as_object().ok_or_else(|| parsing("[wrapper] query malformed"))?;
    let mut it = o.iter();
    let (k, v) = it.next().ok_or_else(|| parsing("[wrapper] query malformed"))?;
    if k != "query" {
        return Err(parsing(format!("[wrapper] query malformed, expected `query` but was {k}")));
    }
    let encoded = match v {
        Value::String(s) => s,
        Value::Null => return Err(parsing("wrapper query has no [query] specified")),
        _ => return Err(parsing("[wrapper] query malformed")),
    };
    if let Some((extra, _)) = it.next() {
        return Err(parsing(format!("[wrapper] query malformed, expected `query` but was {extra}")));
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .map_err(|e| parsing(format!("[wrapper] query malformed, [query] is not base64: {e}")))?;
    if bytes.is_empty() {
        return Err(Error::illegal_argument("query source text cannot be null or empty"));
    }
    let text = String::from_utf8(bytes).map_err(|_| parsing("[wrapper] query malformed, [query] is not UTF-8 JSON"))?;
    let inner: Value = serde_json::from_str(&text)
        .map_err(|e| parsing(format!("[wrapper] query malformed, [query] is not JSON: {e}")))?;
    DslParser::new(&text).parse_depth(&inner, depth + 1)
}

/// `{"type": {"value": "_doc"}}`.
pub fn parse_type(body: &Value) -> Result<Query> {
    let o = body.as_object().ok_or_else(|| parsing("[type] filter doesn't support [type]"))?;
    let (mut value, mut boost) = (None, 1.0);
    for (k, v) in o {
        if v.is_object() || v.is_array() {
            return Err(parsing(format!("[type] filter doesn't support [{k}]")));
        }
        match k.as_str() {
            "value" => value = Some(value_to_string(v)),
            "boost" => boost = num_f32(v).ok_or_else(|| parsing("[type] query [boost] must be a number"))?,
            "_name" => {}
            other => return Err(parsing(format!("[type] filter doesn't support [{other}]"))),
        }
    }
    let value = value.ok_or_else(|| parsing("[type] filter needs to be provided with a value for the type"))?;
    Ok(Query::Term { field: "_type".into(), value: Scalar::Text(value), boost })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wrapper_holds_a_query() {
        let encoded = base64::engine::general_purpose::STANDARD.encode(r#"{"term": {"f": "v"}}"#);
        let q = DslParser::new("").parse(&json!({"wrapper": {"query": encoded}})).unwrap();
        assert_eq!(q, Query::Term { field: "f".into(), value: Scalar::Text("v".into()), boost: 1.0 });
        let e = DslParser::new("").parse(&json!({"wrapper": {"qery": "x"}})).unwrap_err();
        assert_eq!(e.reason(), "[wrapper] query malformed, expected `query` but was qery");
    }

    #[test]
    fn type_needs_a_value() {
        let e = DslParser::new("").parse(&json!({"type": {}})).unwrap_err();
        assert_eq!(e.reason(), "[type] filter needs to be provided with a value for the type");
        let e = DslParser::new("").parse(&json!({"type": {"valu": "x"}})).unwrap_err();
        assert_eq!(e.reason(), "[type] filter doesn't support [valu]");
    }
}
