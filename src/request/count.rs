//! `_count`'s request, as ES 6.8's RestCountAction reads it: a body that holds only a
//! `query`, or without a body the URL's `q` and its companions, and the URI parameters
//! `min_score` and `terminate_after`; read into the search that counts.

use super::indices_options::{indices_options, IndicesOptions};
use super::{inner_hits, min_score_param, terminate_after_param, uri_query, SearchRequest};
use crate::error::{Error, Exception, Result};
use crate::query::dsl::DslParser;
use crate::query::Query;
use serde_json::Value;

/// A parsed `_count` request.
#[derive(Debug, Clone)]
pub struct CountRequest {
    /// The search that counts: the query (the body's, else `q`'s, else `match_all`), no
    /// hits (`size` 0), `min_score`, `terminate_after` and the path's `_type`s.
    pub search: SearchRequest,
    /// How the index expression resolves.
    pub indices: IndicesOptions,
}

impl CountRequest {
    /// Reads a `_count` request: its body (text, empty for none), its URI parameters and
    /// the `_type`s of its path. Errors come in ES's order: the body's shape, then
    /// `min_score`, then the query, then the URL's query parameters.
    pub fn parse(body: &str, params: &[(String, String)], types: &[String]) -> Result<CountRequest> {
        let get = |name: &str| params.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        let has_body = !body.trim().is_empty();
        let body_query = if has_body { body_query(body)? } else { None };
        let min_score = get("min_score").map(min_score_param).transpose()?;
        let mut search = SearchRequest { size: 0, min_score, types: types.to_vec(), ..SearchRequest::default() };
        if let Some(v) = &body_query {
            search.query = DslParser::new(body).parse(v)?;
            search.inner_hits = inner_hits::collect(&search.query)?;
        }
        // ES reads `q` and its companions only when there is no body.
        if !has_body {
            if let Some(query) = uri_query(params)? {
                search.query = query;
            }
        }
        if let Some(v) = get("terminate_after") {
            search.terminate_after = terminate_after_param(v)?;
        }
        Ok(CountRequest { search, indices: indices_options(params)? })
    }
}

/// The `query` of a body that holds only a query, as ES's `RestActions.getQueryContent`
/// reads it (`None` for `{}`); any other member is `request does not support [..]`.
pub fn body_query(body: &str) -> Result<Option<Value>> {
    let v: Value = serde_json::from_str(body).map_err(|e| Error::json_parse(super::json_error_text(&e)))?;
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

/// The query of a body that holds only a query (see [`body_query`]), parsed and its
/// `inner_hits` checked as a search body's are; `None` for no body or `{}`.
pub fn parse_body_query(body: &str) -> Result<Option<Query>> {
    if body.trim().is_empty() {
        return Ok(None);
    }
    let Some(v) = body_query(body)? else { return Ok(None) };
    let query = DslParser::new(body).parse(&v)?;
    inner_hits::collect(&query)?;
    Ok(Some(query))
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
    use serde_json::json;

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn bodies_take_only_a_query() {
        assert_eq!(body_query("{}").ok(), Some(None));
        assert_eq!(body_query(r#"{"query":{"term":{"a":1}}}"#).ok(), Some(Some(json!({"term": {"a": 1}}))));
        let e = body_query(r#"{"size":0}"#).err().map(|e| e.to_json());
        assert_eq!(
            e,
            Some(
                json!({"error": {"root_cause": [{"type": "parsing_exception", "reason": "request does not support [size]", "line": 1, "col": 2}],
                                  "type": "parsing_exception", "reason": "request does not support [size]", "line": 1, "col": 2}, "status": 400})
            )
        );
        assert_eq!(key_position("{\n  \"query\": {},\n  \"from\": 1}", "from"), (3, 3));
    }

    #[test]
    fn uri_parameters_are_read_directly() {
        let req = CountRequest::parse("", &pairs(&[("q", "a:b"), ("min_score", "1.5"), ("terminate_after", "3")]), &[])
            .unwrap();
        assert!(matches!(req.search.query, Query::QueryString(_)));
        assert_eq!((req.search.size, req.search.min_score, req.search.terminate_after), (0, Some(1.5), Some(3)));
        // With a body, `q` is not read; `min_score` is checked before the body's query.
        let req = CountRequest::parse("{}", &pairs(&[("q", "a:b")]), &[]).unwrap();
        assert!(matches!(req.search.query, Query::MatchAll { .. }));
        let e = CountRequest::parse(r#"{"query":{"nope":{}}}"#, &pairs(&[("min_score", "x")]), &[]).unwrap_err();
        assert_eq!(e.reason(), "Failed to parse float parameter [min_score] with value [x]");
        let e = CountRequest::parse("", &pairs(&[("terminate_after", "-1")]), &[]).unwrap_err();
        assert_eq!(e.reason(), "terminateAfter must be > 0");
    }
}
