//! An HTTP client to one Elasticsearch or OpenSearch cluster (on `ureq`): what `export
//! --to` loads through and what `serve --upstream` forwards to.
//!
//! One agent per cluster, so connections are kept alive and reused across requests and
//! threads. Every request carries the configured headers (basic auth, an ES API key, a
//! gateway's `apikey`: whatever the cluster wants); they are never printed. Failures are
//! ES-shaped errors: 502 when the cluster cannot be reached or answers garbage, 504 when
//! it does not answer within the timeout.

use crate::compat::ClusterVersion;
use crate::error::{Error, Result};
use crate::gateway::upstream::{self, Forward, Upstream};
use crate::gateway::Response;
use std::sync::OnceLock;
use std::time::Duration;

/// Largest answer read from a cluster (a search of 10,000 large records fits).
const MAX_ANSWER: u64 = 512 * 1024 * 1024;

/// How to reach a cluster.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// Its address, e.g. `https://search.example.org:9200` (a path prefix is kept).
    pub url: String,
    /// Headers added to every request (`Authorization: Basic …`, `apikey: …`).
    pub headers: Vec<(String, String)>,
    /// Time for one whole request, connection to last byte of the answer.
    pub timeout: Duration,
    /// Time to open a connection.
    pub connect_timeout: Duration,
}

impl ClusterConfig {
    /// A cluster at `url` with no extra headers, 60 s per request and 5 s to connect.
    pub fn new(url: &str) -> ClusterConfig {
        ClusterConfig {
            url: url.to_string(),
            headers: Vec::new(),
            timeout: Duration::from_secs(60),
            connect_timeout: Duration::from_secs(5),
        }
    }
}

/// Parses a `Name: value` header line as given on the command line.
pub fn parse_header(line: &str) -> Result<(String, String)> {
    let (name, value) = line
        .split_once(':')
        .ok_or_else(|| Error::illegal_argument(format!("header [{line}] is not of the form [Name: value]")))?;
    let name = name.trim();
    let valid_name =
        !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    if !valid_name || value.bytes().any(|b| b == b'\r' || b == b'\n') {
        return Err(Error::illegal_argument(format!("header [{name}] is not a valid HTTP header")));
    }
    Ok((name.to_string(), value.trim().to_string()))
}

/// A cluster's answer.
#[derive(Debug, Clone)]
pub struct ClusterAnswer {
    /// HTTP status.
    pub status: u16,
    /// `Content-Type`, when the cluster sent one.
    pub content_type: Option<String>,
    /// `Warning` headers (deprecations), passed on to clients.
    pub warnings: Vec<String>,
    /// The body, decompressed.
    pub body: Vec<u8>,
}

/// A connection pool to one cluster.
#[derive(Debug)]
pub struct Cluster {
    agent: ureq::Agent,
    /// The address without a trailing slash.
    base: String,
    /// The address without credentials, for messages.
    shown: String,
    headers: Vec<(String, String)>,
    timeout: Duration,
    version: OnceLock<ClusterVersion>,
}

impl Cluster {
    /// A client for the cluster `config` names (nothing is sent yet).
    pub fn new(config: &ClusterConfig) -> Result<Cluster> {
        let url = config.url.trim_end_matches('/');
        let Some((scheme, rest)) = url.split_once("://").filter(|(s, _)| matches!(*s, "http" | "https")) else {
            return Err(Error::illegal_argument(format!(
                "cluster address [{}] must start with http:// or https://",
                config.url
            )));
        };
        if rest.is_empty() {
            return Err(Error::illegal_argument(format!("cluster address [{}] names no host", config.url)));
        }
        // Credentials belong in a header (--upstream-header 'Authorization: Basic …'), so
        // an address in a log or an error never carries them.
        let authority = rest.split('/').next().unwrap_or(rest);
        if authority.contains('@') {
            return Err(Error::illegal_argument(
                "put credentials in a header (e.g. 'Authorization: Basic …'), not in the cluster address",
            ));
        }
        let agent = ureq::Agent::new_with_config(
            ureq::Agent::config_builder()
                .http_status_as_error(false)
                .timeout_global(Some(config.timeout))
                .timeout_connect(Some(config.connect_timeout))
                .max_redirects(0)
                .user_agent(format!("metagate/{}", crate::node::VERSION))
                .build(),
        );
        Ok(Cluster {
            agent,
            base: url.to_string(),
            shown: format!("{scheme}://{rest}"),
            headers: config.headers.clone(),
            timeout: config.timeout,
            version: OnceLock::new(),
        })
    }

    /// The address, for messages.
    pub fn address(&self) -> &str {
        &self.shown
    }

    /// Sends `method path` (path with its query string, below the address) with a body of
    /// `content_type`; the answer comes back whatever its status.
    pub fn request(&self, method: &str, path: &str, content_type: Option<&str>, body: &[u8]) -> Result<ClusterAnswer> {
        let url = format!("{}{path}", self.base);
        let content_type = content_type.or((!body.is_empty()).then_some("application/json"));
        let result = match (method, body.is_empty()) {
            ("GET", true) => self.with_headers(self.agent.get(&url), content_type).call(),
            ("GET", false) => self.with_headers(self.agent.get(&url), content_type).force_send_body().send(body),
            ("POST", _) => self.with_headers(self.agent.post(&url), content_type).send(body),
            ("PUT", _) => self.with_headers(self.agent.put(&url), content_type).send(body),
            ("DELETE", true) => self.with_headers(self.agent.delete(&url), content_type).call(),
            ("DELETE", false) => self.with_headers(self.agent.delete(&url), content_type).force_send_body().send(body),
            ("HEAD", _) => self.with_headers(self.agent.head(&url), content_type).call(),
            _ => return Err(Error::illegal_argument(format!("method [{method}] is not sent to a cluster"))),
        };
        let mut resp = result.map_err(|e| self.transport_error(path, e))?;
        let headers = resp.headers();
        let content_type = headers.get("content-type").and_then(|v| v.to_str().ok()).map(str::to_string);
        let warnings = headers.get_all("warning").iter().filter_map(|v| v.to_str().ok()).map(str::to_string).collect();
        let status = resp.status().as_u16();
        let body = if method == "HEAD" {
            Vec::new()
        } else {
            resp.body_mut().with_config().limit(MAX_ANSWER).read_to_vec().map_err(|e| self.transport_error(path, e))?
        };
        Ok(ClusterAnswer { status, content_type, warnings, body })
    }

    fn with_headers<B>(&self, mut rb: ureq::RequestBuilder<B>, content_type: Option<&str>) -> ureq::RequestBuilder<B> {
        for (k, v) in &self.headers {
            rb = rb.header(k.as_str(), v.as_str());
        }
        if let Some(ct) = content_type {
            rb = rb.header("Content-Type", ct);
        }
        rb
    }

    fn transport_error(&self, path: &str, e: ureq::Error) -> Error {
        match e {
            ureq::Error::Timeout(_) => upstream::timed_out(&self.shown, path, self.timeout.as_secs_f64()),
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => {
                upstream::timed_out(&self.shown, path, self.timeout.as_secs_f64())
            }
            ureq::Error::Io(io) => upstream::unreachable(&self.shown, &io.to_string()),
            ureq::Error::HostNotFound => upstream::unreachable(&self.shown, "host not found"),
            ureq::Error::ConnectionFailed => upstream::unreachable(&self.shown, "connection failed"),
            other => upstream::bad_answer(&self.shown, &other.to_string()),
        }
    }

    /// Product and version from `GET /`, asked once (until it succeeds).
    pub fn cluster_version(&self) -> Result<ClusterVersion> {
        if let Some(v) = self.version.get() {
            return Ok(v.clone());
        }
        let answer = self.request("GET", "/", None, &[])?;
        if answer.status != 200 {
            return Err(upstream::bad_answer(
                &self.shown,
                &format!("GET / answered {}: {}", answer.status, String::from_utf8_lossy(&answer.body)),
            ));
        }
        let info: serde_json::Value = serde_json::from_slice(&answer.body)
            .map_err(|e| upstream::bad_answer(&self.shown, &format!("GET / is not JSON: {e}")))?;
        let version = ClusterVersion::from_info(&info)
            .ok_or_else(|| upstream::bad_answer(&self.shown, "GET / names no version.number"))?;
        Ok(self.version.get_or_init(|| version).clone())
    }
}

impl Upstream for Cluster {
    fn version(&self) -> Result<ClusterVersion> {
        self.cluster_version()
    }

    fn send(&self, req: &Forward) -> Result<Response> {
        let answer = self.request(&req.method, &req.path, req.content_type.as_deref(), &req.body)?;
        let mut headers = vec![(
            "Content-Type".to_string(),
            answer.content_type.unwrap_or_else(|| crate::gateway::JSON_CONTENT_TYPE.to_string()),
        )];
        headers.extend(answer.warnings.into_iter().map(|w| ("Warning".to_string(), w)));
        Ok(Response { status: answer.status, headers, body: answer.body, key_name: None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_from_the_command_line() {
        assert_eq!(parse_header("Authorization: Basic dTpw").ok(), Some(("Authorization".into(), "Basic dTpw".into())));
        assert_eq!(parse_header("apikey:abc").ok(), Some(("apikey".into(), "abc".into())));
        assert!(parse_header("no colon").is_err());
        assert!(parse_header(": empty name").is_err());
        assert!(parse_header("bad name: x").is_err());
        assert!(parse_header("X: a\r\nInjected: b").is_err());
    }

    #[test]
    fn addresses() {
        assert!(Cluster::new(&ClusterConfig::new("ftp://x")).is_err());
        assert!(Cluster::new(&ClusterConfig::new("http://")).is_err());
        let e = Cluster::new(&ClusterConfig::new("https://u:p@h:9200")).err().map(|e| e.reason().to_string());
        assert!(e.is_some_and(|r| !r.contains("u:p")));
        let c = Cluster::new(&ClusterConfig::new("http://127.0.0.1:9200/prefix/")).ok();
        assert_eq!(c.as_ref().map(Cluster::address), Some("http://127.0.0.1:9200/prefix"));
    }

    #[test]
    fn unreachable_cluster_is_502() {
        // A port that was free a moment ago: nothing listens there.
        let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port());
        let Ok(port) = port else { return };
        let c = Cluster::new(&ClusterConfig::new(&format!("http://127.0.0.1:{port}"))).ok();
        let e = c.and_then(|c| c.cluster_version().err());
        assert_eq!(e.as_ref().map(|e| (e.status, e.kind())), Some((502, "connect_transport_exception")));
    }
}
