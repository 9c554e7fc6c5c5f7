//! The typed requests of the in-process doors (the C ABI and through it Python, WASM,
//! the CLI): each names one endpoint with its parts, parsed once when the call is made
//! (its route's parameter check, then its request read as the route reads it), and is
//! answered by the gateway's handler for that route, so these doors get the HTTP API's
//! answers byte for byte — the same parameter checks, errors, deprecation warnings and
//! rendering (`filter_path`, `pretty`, `error_trace`).

use super::params::{parse_query_string, percent_encode};
use super::routes::{route, Route};
use super::{check_params, internal_error, param, redact, BASES};
use crate::error::{Error, Result};
use crate::request::count::CountRequest;
use crate::request::get::GetRequest;
use crate::request::indices_options::{indices_options, IndicesOptions};
use crate::request::mapping::MappingRequest;
use crate::request::mget::MgetRequest;
use crate::request::msearch::MsearchRequest;
use crate::request::scroll::{ClearScrollRequest, ScrollNextRequest, ScrollStartRequest};
use crate::request::SearchRequest;

/// One request of an in-process door, made by the constructors below from the door's
/// arguments: a URL query string without `?` (such as `q=item.name:blast&size=3`; empty
/// for none) and a JSON (or NDJSON) body (empty for none).
#[derive(Debug)]
pub enum Call {
    /// `POST /{index}/_search` ([`Call::search`]).
    Search(Parsed<SearchCall>),
    /// `POST /{index}/_count` ([`Call::count`]).
    Count(Parsed<CountCall>),
    /// `POST [/{index}]/_msearch` ([`Call::msearch`]).
    Msearch(Parsed<MsearchRequest>),
    /// `GET /{index}/{doc_type}/{id}` ([`Call::get`]).
    Get(Parsed<GetRequest>),
    /// `POST [/{index}]/_mget` ([`Call::mget`]).
    Mget(Parsed<MgetRequest>),
    /// `GET [/{index}]/_mapping` ([`Call::mapping`]).
    Mapping(Parsed<MappingRequest>),
    /// `POST /{index}/_search?scroll={keep_alive}` ([`Call::scroll_start`], or
    /// [`Call::search`] with a `scroll` parameter).
    ScrollStart(Parsed<ScrollStartRequest>),
    /// `POST /_search/scroll` ([`Call::scroll_next`]).
    ScrollNext(Parsed<ScrollNextRequest>),
    /// `DELETE /_search/scroll` ([`Call::clear_scroll`]).
    ClearScroll(Parsed<ClearScrollRequest>),
}

/// A search of an index expression: what `POST /{index}/_search` runs.
#[derive(Debug, Clone)]
pub struct SearchCall {
    /// The index expression.
    pub index: String,
    /// The search.
    pub search: SearchRequest,
    /// How the index expression resolves.
    pub indices: IndicesOptions,
}

/// A count of an index expression: what `POST /{index}/_count` runs.
#[derive(Debug, Clone)]
pub struct CountCall {
    /// The index expression.
    pub index: String,
    /// The count.
    pub count: CountRequest,
}

/// A door's request parsed once: the typed request, or the error its arguments are
/// (answered as the HTTP route answers it), with the URL parameters that shape the
/// answer (`pretty`, `filter_path`, `error_trace`) and the deprecation warnings reading
/// it raised (sent as `Warning` headers with the answer).
#[derive(Debug, Clone)]
pub struct Parsed<T> {
    /// The request, or why the arguments are none.
    pub request: Result<T>,
    /// The URL parameters as the door gave them.
    pub params: Vec<(String, String)>,
    /// The deprecation messages of reading the request.
    pub warnings: Vec<String>,
}

impl<T> Parsed<T> {
    /// A request built by the caller, answered without rendering parameters.
    pub fn new(request: T) -> Parsed<T> {
        Parsed { request: Ok(request), params: Vec::new(), warnings: Vec::new() }
    }
}

impl Call {
    /// `POST /{index}/_search` of a door's arguments: `query`'s parameters checked as the
    /// route checks them, then `body` (or ES's `source` parameter) and `query` read into
    /// a [`SearchRequest`]. A `scroll` parameter makes it the first page of a scroll, as
    /// on the route ([`Call::ScrollStart`]).
    pub fn search(index: &str, query: &str, body: &str) -> Call {
        let path = format!("/{}/_search", seg(index));
        let routed = |r: &Route| match r {
            Route::Search { index, types } => Some((index.clone(), types.clone())),
            _ => None,
        };
        let has_body = !body.is_empty();
        if parse_query_string(query).iter().any(|(k, _)| k == "scroll") {
            return Call::ScrollStart(parse("POST", &path, query, has_body, routed, |(index, types), params| {
                let body = super::body_text(body.as_bytes(), params)?;
                let keep_alive = param(params, "scroll").unwrap_or_default();
                let rest: Vec<(String, String)> = params.iter().filter(|(k, _)| k != "scroll").cloned().collect();
                ScrollStartRequest::parse(&index, &types, &body, &rest, keep_alive)
            }));
        }
        Call::Search(parse("POST", &path, query, has_body, routed, |(index, types), params| {
            let body = super::body_text(body.as_bytes(), params)?;
            let search = SearchRequest::parse(&body, params, &types)?;
            Ok(SearchCall { index, search, indices: indices_options(params)? })
        }))
    }

    /// `POST /{index}/_search?scroll={keep_alive}`: the first page of a scroll, read as
    /// [`Call::search`] reads a search.
    pub fn scroll_start(index: &str, keep_alive: &str, body: &str) -> Call {
        Call::search(index, &format!("scroll={}", seg(keep_alive)), body)
    }

    /// `POST /{index}/_count` of a door's arguments: `query`'s parameters checked as the
    /// route checks them, then `body` and `query` read into a [`CountRequest`].
    pub fn count(index: &str, query: &str, body: &str) -> Call {
        let path = format!("/{}/_count", seg(index));
        let routed = |r: &Route| match r {
            Route::Count { index, types } => Some((index.clone(), types.clone())),
            _ => None,
        };
        Call::Count(parse("POST", &path, query, !body.is_empty(), routed, |(index, types), params| {
            let body = super::body_text(body.as_bytes(), params)?;
            Ok(CountCall { index, count: CountRequest::parse(&body, params, &types)? })
        }))
    }

    /// `POST [/{index}]/_msearch` of a door's arguments: `query`'s parameters checked as
    /// the route checks them, then the NDJSON `body` read into an [`MsearchRequest`].
    pub fn msearch(index: Option<&str>, query: &str, body: &str) -> Call {
        let path = format!("{}/_msearch", opt_index(index));
        let routed = |r: &Route| match r {
            Route::Msearch { index, types } => Some((index.clone(), types.clone())),
            _ => None,
        };
        Call::Msearch(parse("POST", &path, query, !body.is_empty(), routed, |(index, types), params| {
            let body = super::body_text(body.as_bytes(), params)?;
            MsearchRequest::parse(index.as_deref(), &types, &body, params)
        }))
    }

    /// `POST /_search/scroll`: the next page of scroll `scroll_id`, renewing its
    /// keep-alive when one is given; without one the page carries no `_scroll_id`.
    pub fn scroll_next(scroll_id: &str, keep_alive: Option<&str>) -> Call {
        let routed = |r: &Route| matches!(r, Route::Scroll { ids: None }).then_some(());
        Call::ScrollNext(parse("POST", "/_search/scroll", "", true, routed, |(), _| {
            ScrollNextRequest::named(scroll_id, keep_alive)
        }))
    }

    /// `DELETE /_search/scroll` of `ids` (`["_all"]` clears every scroll).
    pub fn clear_scroll(ids: Vec<String>) -> Call {
        let routed = |r: &Route| matches!(r, Route::Scroll { ids: None }).then_some(());
        Call::ClearScroll(parse("DELETE", "/_search/scroll", "", true, routed, |(), _| ClearScrollRequest::new(ids)))
    }

    /// `GET /{index}/{doc_type}/{id}` of a door's arguments: `query`'s parameters
    /// checked as the route checks them, then read into a [`GetRequest`].
    pub fn get(index: &str, doc_type: &str, id: &str, query: &str) -> Call {
        let path = format!("/{}/{}/{}", seg(index), seg(doc_type), seg(id));
        let routed = |r: &Route| matches!(r, Route::Doc { .. }).then_some(());
        Call::Get(parse("GET", &path, query, false, routed, |(), params| {
            super::body_text(b"", params)?;
            GetRequest::parse(index, doc_type, id, params)
        }))
    }

    /// `POST [/{index}]/_mget` of a door's arguments: `query`'s parameters checked as the
    /// route checks them, then `body` (or ES's `source` parameter) read into an
    /// [`MgetRequest`].
    pub fn mget(index: Option<&str>, query: &str, body: &str) -> Call {
        let path = format!("{}/_mget", opt_index(index));
        let routed = |r: &Route| matches!(r, Route::Mget { doc_type: None, .. }).then_some(());
        Call::Mget(parse("POST", &path, query, !body.is_empty(), routed, |(), params| {
            let body = super::body_text(body.as_bytes(), params)?;
            MgetRequest::parse(index, None, &body, params)
        }))
    }

    /// `GET [/{index}]/_mapping` of a door's arguments, typed (`include_type_name=true`)
    /// unless `query` chooses: in-process callers get 6.8's default shape without its
    /// deprecation warning.
    pub fn mapping(index: Option<&str>, query: &str) -> Call {
        let query = typed_mapping_query(query);
        let path = format!("{}/_mapping", opt_index(index));
        let routed = |r: &Route| matches!(r, Route::Mapping { types: None, .. }).then_some(());
        Call::Mapping(parse("GET", &path, &query, false, routed, |(), params| {
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
/// path must name the route (`routed` gives its parts; an index such as `_search` makes
/// another route, which ES would answer instead), the parameters must be ones the route
/// reads, then `read` builds the request from the route's parts. The deprecation
/// warnings of reading are kept with the request; a panic while reading (a bug) is the
/// 500 the gateway answers for one.
fn parse<P, T>(
    method: &str,
    path: &str,
    query: &str,
    has_body: bool,
    routed: impl FnOnce(&Route) -> Option<P>,
    read: impl FnOnce(P, &[(String, String)]) -> Result<T>,
) -> Parsed<T> {
    let params = parse_query_string(query);
    let full_path = format!("{}{path}", BASES[0]);
    let outer = crate::deprecation::take();
    let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let found = route(path);
        match found.as_ref().and_then(|r| routed(r).map(|parts| (r, parts))) {
            Some((r, parts)) => {
                let has_body = has_body || params.iter().any(|(k, _)| k == "source");
                match check_params(&full_path, r, method, has_body, &params) {
                    Some(e) => Err(e),
                    None => read(parts, &params),
                }
            }
            None => {
                let uri = if query.is_empty() { full_path.clone() } else { format!("{full_path}?{query}") };
                Err(Error::plain_text(
                    400,
                    format!("No handler found for uri [{}] and method [{method}]", redact(&uri)),
                ))
            }
        }
    }));
    let warnings = crate::deprecation::take();
    for message in outer {
        crate::deprecation::warn(message);
    }
    match parsed {
        Ok(request) => Parsed { request, params, warnings },
        // The gateway renders a panic's 500 without the request's parameters.
        Err(_) => Parsed { request: Err(internal_error()), params: Vec::new(), warnings },
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
        let Call::Search(p) = Call::search("a,b*", "q=x%3Ay&size=3", "") else { panic!("not a search") };
        let req = p.request.as_ref().ok();
        assert_eq!(req.map(|r| (r.index.as_str(), r.search.size)), Some(("a,b*", 3)));
        assert_eq!(p.params, vec![("q".to_string(), "x:y".to_string()), ("size".to_string(), "3".to_string())]);
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
        let Call::Count(p) = Call::count("Lab", "scroll=1m", "") else { panic!("not a count") };
        assert!(reason(&p).is_some_and(|r| r.contains("contains unrecognized parameter: [scroll]")));
    }

    #[test]
    fn a_scroll_parameter_starts_a_scroll() {
        let Call::ScrollStart(p) = Call::search("Lab", "scroll=1m&size=2", "") else { panic!("not a scroll") };
        let req = p.request.as_ref().ok();
        assert_eq!(req.map(|r| (r.keep_alive_ms, r.search.size)), Some((60_000, 2)));
        let Call::ScrollStart(p) = Call::scroll_start("Lab", "10x", "") else { panic!("not a scroll") };
        assert!(reason(&p).is_some_and(|r| r.contains("[scroll]")), "{:?}", reason(&p));
    }

    #[test]
    fn deprecations_of_reading_stay_with_the_call() {
        crate::deprecation::start();
        crate::deprecation::warn("outer");
        let Call::Search(p) = Call::search("Lab", "_source_include=a", "") else { panic!("not a search") };
        assert_eq!(
            p.warnings,
            vec!["Deprecated parameter [_source_include] used, expected [_source_includes] instead"]
        );
        assert_eq!(crate::deprecation::take(), vec!["outer"]);
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
    fn scroll_ids_are_required() {
        let Call::ScrollNext(p) = Call::scroll_next("", Some("1m")) else { panic!("not a scroll page") };
        assert_eq!(reason(&p).as_deref(), Some("Validation Failed: 1: scrollId is missing;"));
        let Call::ScrollNext(p) = Call::scroll_next("abc", Some("1m")) else { panic!("not a scroll page") };
        assert_eq!(p.request.ok(), Some(ScrollNextRequest { scroll_id: "abc".into(), keep_alive_ms: Some(60_000) }));
        let Call::ClearScroll(p) = Call::clear_scroll(Vec::new()) else { panic!("not a clear") };
        assert_eq!(reason(&p).as_deref(), Some("Validation Failed: 1: no scroll ids specified;"));
    }
}
