//! One request through hyper: its body read within the body limits, the gateway's answer
//! from a worker, and that answer handed back to hyper to write; the access log.

use super::pool::Pool;
use super::ServeOptions;
use crate::gateway::{redact, Gateway, Request, Response};
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderName, HeaderValue, CONNECTION, CONTENT_LENGTH};
use hyper::server::conn::http1;
use hyper::{Method, StatusCode, Uri};
use hyper_util::rt::TokioTimer;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Largest request head (request line plus headers); a longer one is refused (431). It is
/// also hyper's read buffer limit, but that one is checked only while a head is partial:
/// alone it lets through a longer head that arrives in one read.
const MAX_HEAD: usize = 64 * 1024;

/// The body of every answer: the gateway's bytes, whole.
pub(super) type Body = Full<Bytes>;

/// What every connection of one server shares.
pub(super) struct Shared {
    gateway: Arc<Gateway>,
    pool: Pool,
    /// The server's options.
    pub(super) opts: ServeOptions,
    /// hyper's HTTP/1.1 settings for served connections.
    pub(super) http: http1::Builder,
}

impl Shared {
    /// The state of a server answering with `gateway` under `opts` (starts the workers).
    pub(super) fn new(gateway: Arc<Gateway>, opts: &ServeOptions) -> std::io::Result<Shared> {
        let pool = Pool::new(opts.threads, gateway.clone(), opts.demo.clone())?;
        let http = http_settings(opts.read_timeout, true);
        Ok(Shared { gateway, pool, opts: opts.clone(), http })
    }

    /// The answer to one request.
    pub(super) async fn respond(
        self: Arc<Self>,
        req: hyper::Request<Incoming>,
    ) -> Result<hyper::Response<Body>, Infallible> {
        let started = Instant::now();
        let (parts, body) = req.into_parts();
        let head = parts.method == Method::HEAD;
        let max = self.opts.max_body;
        // Refused before a byte of it is read (nor is `100 Continue` sent for it); the
        // connection is closed rather than read through the body.
        let declared = parts.headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        if declared.is_some_and(|n| n > max as u64) {
            return Ok(answer(self.gateway.payload_too_large(max), head, true));
        }
        // Polling the body is what sends `100 Continue` to a client that waits for it.
        let body = match tokio::time::timeout(self.opts.read_timeout, Limited::new(body, max).collect()).await {
            Ok(Ok(collected)) => collected.to_bytes(),
            Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => {
                return Ok(answer(self.gateway.payload_too_large(max), head, true));
            }
            // The client closed or broke the chunked framing mid-body.
            Ok(Err(_)) => return Ok(answer(self.gateway.transport_error(400, "incomplete request body"), head, true)),
            Err(_) => return Ok(answer(self.gateway.transport_error(408, ""), head, true)),
        };
        let req = Request {
            method: parts.method.as_str().to_string(),
            path: target(&parts.uri),
            headers: parts
                .headers
                .iter()
                .map(|(k, v)| (k.as_str().to_string(), String::from_utf8_lossy(v.as_bytes()).into_owned()))
                .collect(),
            body: body.into(),
        };
        let Some((req, resp)) = self.pool.answer(req).await else {
            return Ok(answer(self.gateway.transport_error(503, "the server is shutting down"), head, true));
        };
        // Logged before writing, so the line exists once the client has its answer.
        if self.opts.access_log {
            log_line(&req, &resp, started);
        }
        Ok(answer(resp, head, false))
    }

    /// The answer to a connection over the cap: 503, then the connection is closed.
    pub(super) fn too_many_connections(&self) -> hyper::Response<Body> {
        answer(self.gateway.transport_error(503, "too many open connections"), false, true)
    }
}

/// hyper's settings: heads within `read_timeout` and `MAX_HEAD`, header names in title
/// case, no `Date` header (the gateway's answers never had one); kept-alive connections
/// unless `keep_alive` is false.
pub(super) fn http_settings(read_timeout: Duration, keep_alive: bool) -> http1::Builder {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(read_timeout)
        .max_header_size(MAX_HEAD)
        .max_buf_size(MAX_HEAD)
        .keep_alive(keep_alive)
        .title_case_headers(true)
        .auto_date_header(false);
    http
}

/// The path and query of a request target: an absolute-form target
/// (`http://host/p?q`) is reduced to its origin form (`/p?q`), as the gateway routes by it.
fn target(uri: &Uri) -> String {
    match uri.path_and_query() {
        Some(p) if p.as_str().starts_with(['/', '*']) => p.as_str().to_string(),
        Some(p) => format!("/{}", p.as_str()),
        None => "/".to_string(),
    }
}

/// The gateway's answer as hyper writes it; `head`: the request was HEAD; `close`: the
/// connection is closed after it.
fn answer(resp: Response, head: bool, close: bool) -> hyper::Response<Body> {
    let mut out = hyper::Response::new(Full::new(Bytes::from(resp.body)));
    *out.status_mut() = StatusCode::from_u16(resp.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = out.headers_mut();
    for (k, v) in &resp.headers {
        // hyper frames bodies itself; a HEAD answer's length is the one a GET's body would
        // have, so it is the only one passed on.
        if !head && k.eq_ignore_ascii_case("content-length") {
            continue;
        }
        // A name or value hyper cannot write (a CR or LF would split the answer) is dropped.
        if let (Ok(name), Ok(value)) = (HeaderName::from_bytes(k.as_bytes()), HeaderValue::from_bytes(v.as_bytes())) {
            headers.append(name, value);
        }
    }
    if close {
        headers.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    out
}

fn log_line(req: &Request, resp: &Response, started: Instant) {
    eprintln!(
        "{} {} {} {:.1}ms key={}",
        req.method,
        redact(&req.path),
        resp.status,
        started.elapsed().as_secs_f64() * 1000.0,
        resp.key_name.as_deref().unwrap_or("-")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_in_origin_form() {
        let t = |s: &str| target(&s.parse::<Uri>().unwrap());
        assert_eq!(t("/a/_search?q=x"), "/a/_search?q=x");
        assert_eq!(t("http://h:9200/a/_search"), "/a/_search");
        assert_eq!(t("http://h:9200"), "/");
        assert_eq!(t("http://h?x=1"), "/?x=1");
        assert_eq!(t("*"), "*");
        assert_eq!(t("/a/_search?q=%22x%22"), "/a/_search?q=%22x%22");
    }

    #[test]
    fn answers_keep_headers_and_frame_their_body() {
        let resp = Response {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "text/plain".into()),
                ("Warning".into(), "a".into()),
                ("Warning".into(), "b".into()),
                ("Content-Length".into(), "99".into()),
                ("X-Split".into(), "a\r\nInjected: 1".into()),
            ],
            body: b"hello".to_vec(),
            key_name: None,
        };
        let get = answer(resp.clone(), false, false);
        assert_eq!(get.status(), 200);
        assert_eq!(get.headers().get_all("warning").iter().collect::<Vec<_>>(), ["a", "b"]);
        assert!(get.headers().get("content-length").is_none());
        assert!(get.headers().get("x-split").is_none());
        assert!(get.headers().get("connection").is_none());
        let head = answer(resp, true, true);
        assert_eq!(head.headers()["content-length"], "99");
        assert_eq!(head.headers()["connection"], "close");
    }
}
