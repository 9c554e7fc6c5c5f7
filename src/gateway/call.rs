//! The typed requests of the in-process doors (the C ABI and through it Python, WASM,
//! the CLI): each names one endpoint with its parts, so these doors get the HTTP API's
//! answers byte for byte — the same parameter checks, errors and rendering
//! (`filter_path`, `pretty`). GET, `_mget` and `_mapping` are parsed once, when the
//! call is made ([`Call::get`], [`Call::mget`], [`Call::mapping`]), and answered by the
//! gateway's handlers for their routes; the others are written as the gateway's
//! [`Request`] ([`Call::request`]).

use super::params::{parse_query_string, percent_encode};
use super::routes::{route, Route};
use super::{check_params, redact, Request, BASES};
use crate::error::{Error, Result};
use crate::request::get::GetRequest;
use crate::request::mapping::MappingRequest;
use crate::request::mget::MgetRequest;
use serde_json::json;

/// One request of an in-process door. `query` is a URL query string without `?` (such
/// as `q=item.name:blast&size=3`; empty for none); `body` is JSON text (empty for none).
#[derive(Debug, Clone)]
pub enum Call<'a> {
    /// `POST /{index}/_search`.
    Search { index: &'a str, query: &'a str, body: &'a str },
    /// `POST /{index}/_count`.
    Count { index: &'a str, query: &'a str, body: &'a str },
    /// `POST [/{index}]/_msearch` (an NDJSON body).
    Msearch { index: Option<&'a str>, query: &'a str, body: &'a str },
    /// `GET /{index}/{doc_type}/{id}` ([`Call::get`]).
    Get(Parsed<GetRequest>),
    /// `POST [/{index}]/_mget` ([`Call::mget`]).
    Mget(Parsed<MgetRequest>),
    /// `GET [/{index}]/_mapping` ([`Call::mapping`]).
    Mapping(Parsed<MappingRequest>),
    /// `POST /{index}/_search?scroll={keep_alive}`.
    ScrollStart { index: &'a str, keep_alive: &'a str, body: &'a str },
    /// `POST /_search/scroll`; without a keep-alive the page carries no `_scroll_id`.
    ScrollNext { scroll_id: &'a str, keep_alive: Option<&'a str> },
    /// `DELETE /_search/scroll` (`["_all"]` clears every scroll).
    ClearScroll { ids: Vec<String> },
}

/// A door's request parsed once: the typed request, or the error its arguments are
/// (answered as the HTTP route answers it), with the URL parameters that shape the
/// answer (`pretty`, `filter_path`, `error_trace`).
#[derive(Debug, Clone)]
pub struct Parsed<T> {
    /// The request, or why the arguments are none.
    pub request: Result<T>,
    /// The URL parameters as the door gave them.
    pub params: Vec<(String, String)>,
}

impl<T> Parsed<T> {
    /// A request built by the caller, answered without rendering parameters.
    pub fn new(request: T) -> Parsed<T> {
        Parsed { request: Ok(request), params: Vec::new() }
    }
}

impl Call<'static> {
    /// `GET /{index}/{doc_type}/{id}` of a door's arguments: `query`'s parameters
    /// checked as the route checks them, then read into a [`GetRequest`].
    pub fn get(index: &str, doc_type: &str, id: &str, query: &str) -> Call<'static> {
        let path = format!("/{}/{}/{}", seg(index), seg(doc_type), seg(id));
        let routed = |r: &Route| matches!(r, Route::Doc { .. });
        Call::Get(parse("GET", &path, query, false, routed, |params| {
            super::body_text(b"", params)?;
            GetRequest::parse(index, doc_type, id, params)
        }))
    }

    /// `POST [/{index}]/_mget` of a door's arguments: `query`'s parameters checked as the
    /// route checks them, then `body` (or ES's `source` parameter) read into an
    /// [`MgetRequest`].
    pub fn mget(index: Option<&str>, query: &str, body: &str) -> Call<'static> {
        let path = format!("{}/_mget", opt_index(index));
        let routed = |r: &Route| matches!(r, Route::Mget { doc_type: None, .. });
        Call::Mget(parse("POST", &path, query, !body.is_empty(), routed, |params| {
            let body = super::body_text(body.as_bytes(), params)?;
            MgetRequest::parse(index, None, &body, params)
        }))
    }

    /// `GET [/{index}]/_mapping` of a door's arguments, typed (`include_type_name=true`)
    /// unless `query` chooses: in-process callers get 6.8's default shape without its
    /// deprecation warning.
    pub fn mapping(index: Option<&str>, query: &str) -> Call<'static> {
        let query = typed_mapping_query(query);
        let path = format!("{}/_mapping", opt_index(index));
        let routed = |r: &Route| matches!(r, Route::Mapping { types: None, .. });
        Call::Mapping(parse("GET", &path, &query, false, routed, |params| {
            super::body_text(b"", params)?;
            MappingRequest::parse(index, None, params)
        }))
    }
}

/// `query` with `include_type_name=true` added unless it names the parameter.
fn typed_mapping_query(query: &str) -> String {
    if parse_query_string(query).iter().any(|(k, _)| k == "include_type_name") {
        query.to_string()
    } else if query.is_empty() {
        "include_type_name=true".to_string()
    } else {
        format!("{query}&include_type_name=true")
    }
}

/// A door's arguments parsed as the gateway parses the request they would make: the
/// path must name the route (`routed`; an index such as `_search` makes another one,
/// which ES would answer instead), the parameters must be ones the route reads, then
/// `read` builds the request.
fn parse<T>(
    method: &str,
    path: &str,
    query: &str,
    has_body: bool,
    routed: impl Fn(&Route) -> bool,
    read: impl FnOnce(&[(String, String)]) -> Result<T>,
) -> Parsed<T> {
    let params = parse_query_string(query);
    let full_path = format!("{}{path}", BASES[0]);
    let request = match route(path) {
        Some(r) if routed(&r) => {
            let has_body = has_body || params.iter().any(|(k, _)| k == "source");
            match check_params(&full_path, &r, method, has_body, &params) {
                Some(e) => Err(e),
                None => read(&params),
            }
        }
        _ => {
            let uri = if query.is_empty() { full_path } else { format!("{full_path}?{query}") };
            Err(Error::plain_text(400, format!("No handler found for uri [{}] and method [{method}]", redact(&uri))))
        }
    };
    Parsed { request, params }
}

impl Call<'_> {
    /// The gateway request this call is written as; `None` for the calls that carry a
    /// parsed request (answered without one).
    pub fn request(&self) -> Option<Request> {
        Some(match self {
            Call::Search { index, query, body } => {
                Request::local("POST", &format!("/{}/_search", seg(index)), query, body)
            }
            Call::Count { index, query, body } => {
                Request::local("POST", &format!("/{}/_count", seg(index)), query, body)
            }
            Call::Msearch { index, query, body } => {
                Request::local("POST", &format!("{}/_msearch", opt_index(*index)), query, body)
            }
            Call::Get(_) | Call::Mget(_) | Call::Mapping(_) => return None,
            Call::ScrollStart { index, keep_alive, body } => Request::local(
                "POST",
                &format!("/{}/_search", seg(index)),
                &format!("scroll={}", seg(keep_alive)),
                body,
            ),
            Call::ScrollNext { scroll_id, keep_alive } => {
                let mut body = json!({ "scroll_id": scroll_id });
                if let Some(keep) = keep_alive {
                    body["scroll"] = json!(keep);
                }
                Request::local("POST", "/_search/scroll", "", &body.to_string())
            }
            Call::ClearScroll { ids } => {
                Request::local("DELETE", "/_search/scroll", "", &json!({ "scroll_id": ids }).to_string())
            }
        })
    }
}

/// One path segment, encoded so that it decodes to itself (`a/b` stays one id).
fn seg(s: &str) -> String {
    percent_encode(s)
}

/// `/{index}`, or nothing: the endpoint then applies to every index.
fn opt_index(index: Option<&str>) -> String {
    index.map(|i| format!("/{}", seg(i))).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason<T>(p: &Parsed<T>) -> Option<String> {
        p.request.as_ref().err().map(|e| e.reason().to_string())
    }

    #[test]
    fn parts_survive_the_path() {
        let Call::Get(p) = Call::get("<logs-{now/d}>", "_doc", "a/b c", "_source_includes=x") else {
            panic!("not a get")
        };
        let req = p.request.as_ref().ok();
        assert_eq!(req.map(|r| (r.index.as_str(), r.id.as_str())), Some(("<logs-{now/d}>", "a/b c")));
        assert!(req.is_some_and(|r| r.options.source.is_some()));
        let r = Call::Search { index: "a,b*", query: "q=x%3Ay&size=3", body: "" }.request();
        assert_eq!(r.as_ref().map(|r| r.path.as_str()), Some("/elastic/v1/a%2Cb%2A/_search?q=x%3Ay&size=3"));
        assert!(r.is_some_and(|r| r.headers.is_empty()), "a request without a body needs no Content-Type");
    }

    #[test]
    fn parameters_are_checked_as_the_route_checks_them() {
        let Call::Get(p) = Call::get("Lab", "_doc", "1", "size=3") else { panic!("not a get") };
        assert!(
            reason(&p).is_some_and(
                |r| r.starts_with("request [/elastic/v1/Lab/_doc/1] contains unrecognized parameter: [size]")
            )
        );
        let Call::Get(p) = Call::get("_search", "_doc", "1", "") else { panic!("not a get") };
        assert_eq!(
            reason(&p).as_deref(),
            Some("No handler found for uri [/elastic/v1/_search/_doc/1] and method [GET]")
        );
        let Call::Mget(p) = Call::mget(None, "", "") else { panic!("not an mget") };
        assert_eq!(reason(&p).as_deref(), Some("request body or source parameter is required"));
    }

    #[test]
    fn mapping_is_typed_unless_asked() {
        assert_eq!(typed_mapping_query(""), "include_type_name=true");
        assert_eq!(typed_mapping_query("pretty"), "pretty&include_type_name=true");
        assert_eq!(typed_mapping_query("include_type_name=false"), "include_type_name=false");
        let Call::Mapping(p) = Call::mapping(None, "include_type_name=false") else { panic!("not a mapping") };
        assert_eq!(p.request.ok().map(|r| r.include_type_name), Some(false));
    }

    #[test]
    fn scroll_bodies() {
        let next = Call::ScrollNext { scroll_id: "abc", keep_alive: Some("1m") }.request().unwrap_or_default();
        assert_eq!(String::from_utf8_lossy(&next.body), r#"{"scroll_id":"abc","scroll":"1m"}"#);
        assert_eq!(next.headers, vec![("Content-Type".to_string(), "application/json".to_string())]);
        let clear = Call::ClearScroll { ids: vec!["_all".into()] }.request().unwrap_or_default();
        assert_eq!(
            (clear.method.as_str(), String::from_utf8_lossy(&clear.body).as_ref()),
            ("DELETE", r#"{"scroll_id":["_all"]}"#)
        );
    }
}
