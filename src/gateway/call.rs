//! The typed requests of the in-process doors (the C ABI and through it Python, WASM,
//! the CLI): each names one endpoint with its parts, and [`Call::request`] writes it as
//! the gateway's [`Request`], so these doors get the HTTP API's answers byte for byte —
//! the same routes, parameter checks, errors and rendering (`filter_path`, `pretty`).

use super::params::{parse_query_string, percent_encode};
use super::Request;
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
    /// `GET /{index}/{doc_type}/{id}`.
    Get { index: &'a str, doc_type: &'a str, id: &'a str, query: &'a str },
    /// `POST [/{index}]/_mget`.
    Mget { index: Option<&'a str>, query: &'a str, body: &'a str },
    /// `GET [/{index}]/_mapping`, typed (`include_type_name=true`) unless `query` chooses:
    /// in-process callers get 6.8's default shape without its deprecation warning.
    Mapping { index: Option<&'a str>, query: &'a str },
    /// `POST /{index}/_search?scroll={keep_alive}`.
    ScrollStart { index: &'a str, keep_alive: &'a str, body: &'a str },
    /// `POST /_search/scroll`; without a keep-alive the page carries no `_scroll_id`.
    ScrollNext { scroll_id: &'a str, keep_alive: Option<&'a str> },
    /// `DELETE /_search/scroll` (`["_all"]` clears every scroll).
    ClearScroll { ids: Vec<String> },
}

impl Call<'_> {
    /// The gateway request this call is.
    pub fn request(&self) -> Request {
        match self {
            Call::Search { index, query, body } => {
                Request::local("POST", &format!("/{}/_search", seg(index)), query, body)
            }
            Call::Count { index, query, body } => {
                Request::local("POST", &format!("/{}/_count", seg(index)), query, body)
            }
            Call::Msearch { index, query, body } => {
                Request::local("POST", &format!("{}/_msearch", opt_index(*index)), query, body)
            }
            Call::Get { index, doc_type, id, query } => {
                Request::local("GET", &format!("/{}/{}/{}", seg(index), seg(doc_type), seg(id)), query, "")
            }
            Call::Mget { index, query, body } => {
                Request::local("POST", &format!("{}/_mget", opt_index(*index)), query, body)
            }
            Call::Mapping { index, query } => {
                let query = if parse_query_string(query).iter().any(|(k, _)| k == "include_type_name") {
                    query.to_string()
                } else if query.is_empty() {
                    "include_type_name=true".to_string()
                } else {
                    format!("{query}&include_type_name=true")
                };
                Request::local("GET", &format!("{}/_mapping", opt_index(*index)), &query, "")
            }
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
        }
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
    use crate::gateway::routes::{route, Route};

    fn below_base(r: &Request) -> &str {
        r.path.strip_prefix("/elastic/v1").unwrap_or("")
    }

    #[test]
    fn parts_survive_the_path() {
        let r = Call::Get { index: "<logs-{now/d}>", doc_type: "_doc", id: "a/b c", query: "" }.request();
        let path = below_base(&r);
        assert!(
            matches!(route(path), Some(Route::Doc { index, doc_type, id }) if index == "<logs-{now/d}>" && doc_type == "_doc" && id == "a/b c"),
            "{path}"
        );
        let r = Call::Search { index: "a,b*", query: "q=x%3Ay&size=3", body: "" }.request();
        assert_eq!(r.path, "/elastic/v1/a%2Cb%2A/_search?q=x%3Ay&size=3");
        assert!(r.headers.is_empty(), "a request without a body needs no Content-Type");
    }

    #[test]
    fn mapping_is_typed_unless_asked() {
        let typed = |q| Call::Mapping { index: None, query: q }.request().path;
        assert_eq!(typed(""), "/elastic/v1/_mapping?include_type_name=true");
        assert_eq!(typed("pretty"), "/elastic/v1/_mapping?pretty&include_type_name=true");
        assert_eq!(typed("include_type_name=false"), "/elastic/v1/_mapping?include_type_name=false");
    }

    #[test]
    fn scroll_bodies() {
        let next = Call::ScrollNext { scroll_id: "abc", keep_alive: Some("1m") }.request();
        assert_eq!(String::from_utf8_lossy(&next.body), r#"{"scroll_id":"abc","scroll":"1m"}"#);
        assert_eq!(next.headers, vec![("Content-Type".to_string(), "application/json".to_string())]);
        let clear = Call::ClearScroll { ids: vec!["_all".into()] }.request();
        assert_eq!(
            (clear.method.as_str(), String::from_utf8_lossy(&clear.body).as_ref()),
            ("DELETE", r#"{"scroll_id":["_all"]}"#)
        );
    }
}
