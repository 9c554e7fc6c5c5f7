//! `_count`, as ES 6.8's RestCountAction answers it: the exact number of documents a
//! query matches, from the same query phase a search runs.

use crate::engine::{indices_options, Engine};
use crate::error::{Error, Exception, Result};
use crate::request::SearchRequest;
use serde_json::{json, Map, Value};

impl Engine {
    /// Counts the documents of `index` (an expression) that the body's `query` matches —
    /// or, without a body, the URL's `q` — and answers `{"count": N, "_shards": …}`
    /// (`terminated_early` first when `terminate_after` is given).
    pub fn count(&self, index: &str, types: &[String], body: &str, params: &[(String, String)]) -> Result<Value> {
        let query = count_query(body)?;
        // ES reads `q` and its companions only when there is no body.
        let uri: Vec<(String, String)> = params
            .iter()
            .filter(|(k, _)| {
                matches!(k.as_str(), "min_score" | "terminate_after")
                    || (body.trim().is_empty()
                        && matches!(
                            k.as_str(),
                            "q" | "df" | "analyzer" | "analyze_wildcard" | "lenient" | "default_operator"
                        ))
            })
            .cloned()
            .collect();
        let min_score = uri
            .iter()
            .rev()
            .find(|(k, _)| k == "min_score")
            .map(|(_, v)| {
                v.parse().map_err(|_| {
                    Error::illegal_argument(format!("Failed to parse float parameter [min_score] with value [{v}]"))
                })
            })
            .transpose()?;
        let uri: Vec<(String, String)> = uri.into_iter().filter(|(k, _)| k != "min_score").collect();
        // `min_score` is a `_count` parameter, not a search one: set after the search
        // request is read (the body built here never carries one).
        let mut req = SearchRequest::parse(&json!({"query": query, "size": 0}).to_string(), &uri, types)?;
        req.min_score = min_score;
        let res = self.search_request(index, &req, indices_options(params)?)?;
        let mut out = Map::new();
        if req.terminate_after.is_some() {
            out.insert("terminated_early".into(), json!(res.terminated_early()));
        }
        out.insert("count".into(), res.total().map_or(json!(-1), |n| json!(n)));
        out.insert("_shards".into(), crate::search::response::shards(res.shards));
        Ok(Value::Object(out))
    }
}

/// The `query` of a `_count` body (`match_all` for none or `{}`); any other member is ES's
/// `request does not support [..]`.
fn count_query(body: &str) -> Result<Value> {
    if body.trim().is_empty() {
        return Ok(json!({"match_all": {}}));
    }
    Ok(body_query(body)?.unwrap_or_else(|| json!({"match_all": {}})))
}

/// The `query` of a body that holds only a query, as ES's `RestActions.getQueryContent`
/// reads it (`None` for `{}`); any other member is `request does not support [..]`.
pub(super) fn body_query(body: &str) -> Result<Option<Value>> {
    let v: Value = serde_json::from_str(body).map_err(|e| Error::json_parse(crate::request::json_error_text(&e)))?;
    let Value::Object(o) = v else {
        return Err(Error::new(
            400,
            Exception::new(
                "parsing_exception",
                format!("Expected [START_OBJECT] but found [{}]", crate::json_value::token_name(&v)),
            ),
        ));
    };
    let mut query = None;
    for (k, v) in o {
        if k == "query" {
            query = Some(v);
        } else {
            let (line, col) = key_position(body, &k);
            return Err(Error::parsing(format!("request does not support [{k}]"), line, col));
        }
    }
    Ok(query)
}

/// Line and column (1-based, as Jackson reports a token) of the first `"key"` in `body`.
fn key_position(body: &str, key: &str) -> (u32, u32) {
    let needle = format!("\"{key}\"");
    let at = body.find(&needle).unwrap_or(0);
    let before = &body[..at];
    let line = before.matches('\n').count() as u32 + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32 + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_take_only_a_query() {
        assert_eq!(count_query("").ok(), Some(json!({"match_all": {}})));
        assert_eq!(count_query("{}").ok(), Some(json!({"match_all": {}})));
        assert_eq!(count_query(r#"{"query":{"term":{"a":1}}}"#).ok(), Some(json!({"term": {"a": 1}})));
        let e = count_query(r#"{"size":0}"#).err().map(|e| e.to_json());
        assert_eq!(
            e,
            Some(
                json!({"error": {"root_cause": [{"type": "parsing_exception", "reason": "request does not support [size]", "line": 1, "col": 2}],
                                  "type": "parsing_exception", "reason": "request does not support [size]", "line": 1, "col": 2}, "status": 400})
            )
        );
        assert_eq!(key_position("{\n  \"query\": {},\n  \"from\": 1}", "from"), (3, 3));
    }
}
