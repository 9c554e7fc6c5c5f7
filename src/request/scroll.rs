//! The scroll requests, as ES 6.8's RestSearchAction (a search with `scroll`),
//! RestSearchScrollAction and RestClearScrollAction read them.

use super::indices_options::{indices_options, IndicesOptions};
use super::SearchRequest;
use crate::error::{Error, Exception, Result};
use serde_json::Value;

/// URI parameters that shape a search (the only ones a scroll id needs to carry; anything
/// else, such as an API key sent as `key=`, must not be copied into an id).
const REQUEST_PARAMS: [&str; 25] = [
    "q",
    "df",
    "analyzer",
    "default_operator",
    "lenient",
    "analyze_wildcard",
    "from",
    "size",
    "sort",
    "explain",
    "version",
    "track_scores",
    "track_total_hits",
    "seq_no_primary_term",
    "typed_keys",
    "terminate_after",
    "timeout",
    "stored_fields",
    "docvalue_fields",
    "_source",
    "_source_includes",
    "_source_include",
    "_source_excludes",
    "_source_exclude",
    "search_type",
];

/// A search that starts a scroll (`{index}/_search?scroll=`).
#[derive(Debug)]
pub struct ScrollStartRequest {
    /// The index expression.
    pub index: String,
    /// The search, without `timeout` (ES applies none to scrolls: a cut page would make
    /// later pages skip hits).
    pub search: SearchRequest,
    /// The keep-alive, in milliseconds.
    pub keep_alive_ms: i64,
    /// How the index expression resolves (its error is raised where ES raises it, after
    /// the request's own checks).
    pub indices: Result<IndicesOptions>,
    /// The request's text — its body and the URI parameters that shape it — which the
    /// scroll's ids carry, so that any process opening the file can run its pages.
    pub source: ScrollSource,
}

/// The text a scroll id carries to run the scroll's pages (see [`ScrollStartRequest`]).
#[derive(Debug, Clone)]
pub struct ScrollSource {
    /// The body.
    pub body: String,
    /// The URI parameters that shape the search.
    pub params: Vec<(String, String)>,
}

impl ScrollStartRequest {
    /// Reads a scroll's first request: `keep_alive` (the `scroll` parameter, checked
    /// first), then the body and URI parameters (without `scroll`) and the path's
    /// `_type`s, as a search reads them.
    pub fn parse(
        index: &str,
        types: &[String],
        body: &str,
        params: &[(String, String)],
        keep_alive: &str,
    ) -> Result<ScrollStartRequest> {
        let keep_alive_ms = parse_keep_alive(keep_alive)?;
        let mut search = SearchRequest::parse(body, params, types)?;
        search.deadline = None;
        let source = ScrollSource {
            body: body.to_string(),
            params: params.iter().filter(|(k, _)| REQUEST_PARAMS.contains(&k.as_str())).cloned().collect(),
        };
        Ok(ScrollStartRequest {
            index: index.to_string(),
            search,
            keep_alive_ms,
            indices: indices_options(params),
            source,
        })
    }
}

/// A scroll's next page (`_search/scroll`).
#[derive(Debug, Clone, PartialEq)]
pub struct ScrollNextRequest {
    /// The scroll id.
    pub scroll_id: String,
    /// A renewed keep-alive, in milliseconds; without one the page carries no
    /// `_scroll_id` (ES 6.8 behaviour).
    pub keep_alive_ms: Option<i64>,
}

impl ScrollNextRequest {
    /// A continuation of `scroll_id`, renewing its keep-alive when one is given.
    pub fn new(scroll_id: &str, keep_alive: Option<&str>) -> Result<ScrollNextRequest> {
        Ok(ScrollNextRequest {
            scroll_id: scroll_id.to_string(),
            keep_alive_ms: keep_alive.map(parse_keep_alive).transpose()?,
        })
    }

    /// Reads a continuation: the id from the body, else the path (`path_id`, ES's
    /// `scroll_id` parameter), else the `scroll_id` parameter; the keep-alive from the
    /// body, else the `scroll` parameter.
    pub fn parse(path_id: Option<&str>, body: &str, params: &[(String, String)]) -> Result<ScrollNextRequest> {
        let fields = ScrollBody::parse(body)?;
        if fields.ids.as_ref().is_some_and(|ids| ids.len() != 1) {
            return Err(Error::illegal_argument(
                "Unknown parameter [scroll_id] in request body or parameter is of the wrong type[START_ARRAY] ",
            ));
        }
        let id = fields.ids.and_then(|mut v| v.pop()).or_else(|| url_ids(path_id, params).map(str::to_string));
        let keep = fields.scroll.or_else(|| param(params, "scroll").map(str::to_string));
        ScrollNextRequest::named(&id.unwrap_or_default(), keep.as_deref())
    }

    /// A continuation as a caller names it: an empty `scroll_id` is ES's validation
    /// error, checked before the keep-alive.
    pub fn named(scroll_id: &str, keep_alive: Option<&str>) -> Result<ScrollNextRequest> {
        if scroll_id.is_empty() {
            return Err(validation("scrollId is missing"));
        }
        ScrollNextRequest::new(scroll_id, keep_alive)
    }
}

/// A clear of scrolls (`DELETE _search/scroll`).
#[derive(Debug, Clone, PartialEq)]
pub struct ClearScrollRequest {
    /// The scroll ids, or the single id `_all`.
    pub ids: Vec<String>,
}

impl ClearScrollRequest {
    /// Reads a clear: the ids from the body, else the path (`path_ids`) or the
    /// `scroll_id` parameter, comma-separated.
    pub fn parse(path_ids: Option<&str>, body: &str, params: &[(String, String)]) -> Result<ClearScrollRequest> {
        let fields = ScrollBody::parse(body)?;
        let ids: Vec<String> = match fields.ids {
            Some(ids) => ids,
            None => url_ids(path_ids, params)
                .map(|s| s.split(',').filter(|x| !x.is_empty()).map(str::to_string).collect())
                .unwrap_or_default(),
        };
        ClearScrollRequest::new(ids)
    }

    /// A clear of `ids` as a caller names them: none is ES's validation error.
    pub fn new(ids: Vec<String>) -> Result<ClearScrollRequest> {
        if ids.is_empty() {
            return Err(validation("no scroll ids specified"));
        }
        Ok(ClearScrollRequest { ids })
    }
}

/// The path's ids, else the `scroll_id` parameter (the path part is that parameter in ES).
fn url_ids<'a>(path: Option<&'a str>, params: &'a [(String, String)]) -> Option<&'a str> {
    path.or_else(|| param(params, "scroll_id"))
}

fn param<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

fn validation(what: &str) -> Error {
    Error::new(400, Exception::new("action_request_validation_exception", format!("Validation Failed: 1: {what};")))
}

/// Parses a keep-alive (REST layer: a bad value fails before anything else).
fn parse_keep_alive(s: &str) -> Result<i64> {
    let d = crate::date::parse_time_value(s, "scroll").map_err(|e| Error::illegal_argument(e.to_string()))?;
    Ok(i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The members of a scroll or clear-scroll body.
#[derive(Debug, Default)]
struct ScrollBody {
    ids: Option<Vec<String>>,
    scroll: Option<String>,
}

impl ScrollBody {
    /// Parses `{"scroll_id": .., "scroll": ..}` as ES 6.8's SearchScrollRequest /
    /// ClearScrollRequest do: anything else is 400 `illegal_argument_exception`.
    fn parse(body: &str) -> Result<ScrollBody> {
        if body.trim().is_empty() {
            return Ok(ScrollBody::default());
        }
        let v: Value = serde_json::from_str(body).map_err(|e| {
            Error::new(
                400,
                Exception::new("illegal_argument_exception", "Failed to parse request body")
                    .caused_by(Exception::new("json_parse_exception", super::json_error_text(&e))),
            )
        })?;
        let Value::Object(obj) = v else {
            return Err(Error::illegal_argument("Malformed content, must start with an object"));
        };
        let mut out = ScrollBody::default();
        for (k, v) in obj {
            match (k.as_str(), &v) {
                ("scroll_id", Value::String(s)) => out.ids = Some(vec![s.clone()]),
                ("scroll_id", Value::Array(a)) if a.iter().all(Value::is_string) => {
                    out.ids = Some(a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
                }
                ("scroll", Value::String(s)) => out.scroll = Some(s.clone()),
                _ => {
                    return Err(Error::illegal_argument(format!(
                        "Unknown parameter [{k}] in request body or parameter is of the wrong type[{}] ",
                        crate::json_value::token_name(&v)
                    )))
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scroll_bodies() {
        let b = ScrollBody::parse(r#"{"scroll":"1m","scroll_id":"abc"}"#).ok().unwrap_or_default();
        assert_eq!((b.ids, b.scroll), (Some(vec!["abc".to_string()]), Some("1m".to_string())));
        let e = ScrollBody::parse(r#"{"scroll_id":"abc","size":1}"#).err().map(|e| e.reason().to_string());
        assert_eq!(
            e.as_deref(),
            Some("Unknown parameter [size] in request body or parameter is of the wrong type[VALUE_NUMBER] ")
        );
        let e = ScrollBody::parse("[1]").err().map(|e| e.reason().to_string());
        assert_eq!(e.as_deref(), Some("Malformed content, must start with an object"));
        let e = ScrollBody::parse("{").err().map(|e| (e.status, e.reason().to_string()));
        assert_eq!(e, Some((400, "Failed to parse request body".to_string())));
    }

    #[test]
    fn ids_come_from_the_body_then_the_url() {
        let p = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
        let next = ScrollNextRequest::parse(Some("a"), r#"{"scroll_id":"b"}"#, &p("scroll", "1m")).unwrap();
        assert_eq!(next, ScrollNextRequest { scroll_id: "b".into(), keep_alive_ms: Some(60_000) });
        let next = ScrollNextRequest::parse(None, "", &p("scroll_id", "c")).unwrap();
        assert_eq!(next, ScrollNextRequest { scroll_id: "c".into(), keep_alive_ms: None });
        assert_eq!(
            ScrollNextRequest::parse(None, "", &[]).unwrap_err().reason(),
            "Validation Failed: 1: scrollId is missing;"
        );
        let clear = ClearScrollRequest::parse(Some("a,,b"), "", &[]).unwrap();
        assert_eq!(clear.ids, ["a", "b"]);
        let e = ClearScrollRequest::parse(None, "", &[]).unwrap_err();
        assert_eq!(e.reason(), "Validation Failed: 1: no scroll ids specified;");
    }
}
