//! The gateway in front of a cluster: which request goes to the cluster for a request the
//! gateway accepted, and the errors it answers when the cluster cannot be reached.
//!
//! The gateway keeps everything of its own (API keys, rate limit, CORS, parameter checks,
//! error envelopes, both base paths, OPTIONS, `GET /`) and hands searches, scrolls and
//! `_cat/aliases` to an [`Upstream`], which does the I/O. What it sends is the client's
//! request below the base path, less the `key` parameter and the `apikey` header, with
//! two translations where the cluster's version needs them (see [`crate::compat`]):
//! `rest_total_hits_as_int=true` on searches and scrolls for clusters whose `hits.total`
//! is an object (ES 7+, OpenSearch), and no type segment for clusters that refuse one
//! (ES 8+, OpenSearch 2+). HEAD is sent as GET (the gateway removes the body itself,
//! keeping its length), and GET with a body as POST (the same action in ES, and not every
//! HTTP client or proxy passes a body on GET).

use super::{params, Request, Response};
use crate::compat::ClusterVersion;
#[cfg(feature = "cluster")]
use crate::error::{Error, Exception};

/// A request for the cluster, transport-free.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forward {
    /// `GET`, `POST` or `DELETE`.
    pub method: String,
    /// The path below the cluster's address, with its query string (still encoded).
    pub path: String,
    /// The client's `Content-Type`, when there is a body.
    pub content_type: Option<String>,
    /// The body.
    pub body: Vec<u8>,
}

/// A cluster the gateway forwards to.
pub trait Upstream: Send + Sync + std::fmt::Debug {
    /// The cluster's product and version (asked once, then remembered).
    fn version(&self) -> crate::Result<ClusterVersion>;

    /// Sends one request; the cluster's status, content type and body come back whatever
    /// the status. An unreachable cluster is 502 `connect_transport_exception`, one that
    /// does not answer in time 504 `receive_timeout_transport_exception`
    /// (as this module's `unreachable` and `timed_out` build them).
    fn send(&self, req: &Forward) -> crate::Result<Response>;
}

/// What the gateway routed, as far as forwarding needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Forwarded {
    /// A search; `typed` when the path has a type segment (`/{index}/{type}/_search`).
    Search {
        /// Whether the second path segment is a type.
        typed: bool,
    },
    /// A scroll continuation or clear.
    Scroll,
    /// `_cat/aliases`.
    CatAliases,
    /// `_msearch` (its responses carry `hits.total`).
    Msearch,
    /// Any other read endpoint (`_count`, documents, mappings, aliases, ...), sent as is.
    Read,
}

/// The request to send for an accepted client request. `rest` is the path below the base
/// as the client sent it (encoded), `query` its query string.
pub(crate) fn forward_request(
    req: &Request,
    rest: &str,
    query: &str,
    what: Forwarded,
    cluster: &ClusterVersion,
) -> Forward {
    let mut segments: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
    if what == (Forwarded::Search { typed: true }) && cluster.rejects_type_segment() {
        segments.remove(1);
    }
    let mut pairs: Vec<&str> = query
        .split('&')
        .filter(|kv| !kv.is_empty())
        .filter(|kv| params::percent_decode(kv.split_once('=').map_or(*kv, |(k, _)| k), true) != "key")
        .collect();
    let wants_int_total =
        matches!(what, Forwarded::Search { .. } | Forwarded::Scroll | Forwarded::Msearch) && cluster.total_is_object();
    let asked = pairs.iter().any(|kv| kv.split_once('=').map_or(*kv, |(k, _)| k) == "rest_total_hits_as_int");
    if wants_int_total && !asked {
        pairs.push("rest_total_hits_as_int=true");
    }
    let mut path = format!("/{}", segments.join("/"));
    if !pairs.is_empty() {
        path.push('?');
        path.push_str(&pairs.join("&"));
    }
    let method = match req.method.to_ascii_uppercase().as_str() {
        "HEAD" => "GET".to_string(),
        "GET" if !req.body.is_empty() => "POST".to_string(),
        m => m.to_string(),
    };
    let content_type =
        if req.body.is_empty() { None } else { super::header(&req.headers, "Content-Type").map(str::to_string) };
    Forward { method, path, content_type, body: req.body.clone() }
}

/// 502: the cluster at `cluster` (an address without credentials) could not be reached.
// The cluster client is their one user.
#[cfg(feature = "cluster")]
pub(crate) fn unreachable(cluster: &str, detail: &str) -> Error {
    Error::new(502, Exception::new("connect_transport_exception", format!("[{cluster}] connect_exception: {detail}")))
}

/// 504: the cluster at `cluster` did not answer `path` within `seconds`.
// The cluster client is their one user.
#[cfg(feature = "cluster")]
pub(crate) fn timed_out(cluster: &str, path: &str, seconds: f64) -> Error {
    Error::new(
        504,
        Exception::new(
            "receive_timeout_transport_exception",
            format!("[{cluster}][{path}] request timed out after [{}ms]", (seconds * 1000.0).round() as u64),
        ),
    )
}

/// 502: the cluster answered something that is not HTTP the gateway can pass on.
// The cluster client is their one user.
#[cfg(feature = "cluster")]
pub(crate) fn bad_answer(cluster: &str, detail: &str) -> Error {
    Error::new(
        502,
        Exception::new("transport_exception", format!("[{cluster}] invalid answer from the cluster: {detail}")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(method: &str, body: &str) -> Request {
        Request {
            method: method.into(),
            path: String::new(),
            headers: vec![("apikey".into(), "secret".into()), ("content-type".into(), "application/json".into())],
            body: body.as_bytes().to_vec(),
        }
    }

    #[test]
    fn es6_requests_go_as_sent_less_the_key() {
        let es6 = ClusterVersion::elasticsearch("6.8.23");
        let f = forward_request(
            &req("POST", "{}"),
            "/RIN_Tool_pr/_search/",
            "key=s3cret&size=2&k%65y=x",
            Forwarded::Search { typed: false },
            &es6,
        );
        assert_eq!(f.path, "/RIN_Tool_pr/_search?size=2");
        assert_eq!((f.method.as_str(), f.content_type.as_deref()), ("POST", Some("application/json")));
        let f = forward_request(&req("GET", ""), "/a%2Cb/rin/_search", "", Forwarded::Search { typed: true }, &es6);
        assert_eq!((f.method.as_str(), f.path.as_str(), f.content_type), ("GET", "/a%2Cb/rin/_search", None));
    }

    #[test]
    fn newer_clusters_get_integer_totals_and_lose_types() {
        let es7 = ClusterVersion::elasticsearch("7.17.0");
        let f = forward_request(&req("GET", "{}"), "/x/rin/_search", "q=a", Forwarded::Search { typed: true }, &es7);
        assert_eq!((f.method.as_str(), f.path.as_str()), ("POST", "/x/rin/_search?q=a&rest_total_hits_as_int=true"));
        let os2 = ClusterVersion::opensearch("2.11.0");
        let f = forward_request(&req("HEAD", ""), "/x/rin/_search", "", Forwarded::Search { typed: true }, &os2);
        assert_eq!((f.method.as_str(), f.path.as_str()), ("GET", "/x/_search?rest_total_hits_as_int=true"));
        let f = forward_request(
            &req("POST", "{}"),
            "/_search/scroll",
            "rest_total_hits_as_int=false",
            Forwarded::Scroll,
            &os2,
        );
        assert_eq!(f.path, "/_search/scroll?rest_total_hits_as_int=false");
        let f = forward_request(&req("GET", ""), "/_cat/aliases", "v&key=k", Forwarded::CatAliases, &os2);
        assert_eq!(f.path, "/_cat/aliases?v");
    }

    #[test]
    #[cfg(feature = "cluster")]
    fn error_shapes() {
        let e = unreachable("http://127.0.0.1:1", "Connection refused");
        assert_eq!(e.status, 502);
        assert_eq!(
            e.to_json().to_string(),
            r#"{"error":{"root_cause":[{"type":"connect_transport_exception","reason":"[http://127.0.0.1:1] connect_exception: Connection refused"}],"type":"connect_transport_exception","reason":"[http://127.0.0.1:1] connect_exception: Connection refused"},"status":502}"#
        );
        let e = timed_out("http://h:9200", "/x/_search", 1.5);
        assert_eq!((e.status, e.reason()), (504, "[http://h:9200][/x/_search] request timed out after [1500ms]"));
    }
}
