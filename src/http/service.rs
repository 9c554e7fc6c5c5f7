//! One request through hyper: its head checked by the gateway before its body is read,
//! the body read within the body limits and the in-flight byte budget, the answer from a
//! worker, and that answer handed back to hyper to write; the access log.

use super::access_log::{RequestLog, Sink};
use super::body::{BodyError, PendingBody, Reservation};
use super::pool::{Job, Pool, PoolConfig, Share};
use super::ServeOptions;
use crate::budget::{BytePool, Limits};
use crate::error::{Error, Exception};
use crate::gateway::{redact, Admission, Gateway, Request, RequestHead, Response};
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderName, HeaderValue, CONNECTION, CONTENT_LENGTH};
use hyper::server::conn::http1;
use hyper::{Method, StatusCode, Uri};
use hyper_util::rt::TokioTimer;
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

/// Largest request head (request line plus headers); a longer one is refused (431). It is
/// also hyper's read buffer limit, but that one is checked only while a head is partial:
/// alone it lets through a longer head that arrives in one read.
const MAX_HEAD: usize = 64 * 1024;

/// Headers a head may have: as many as fit in [`MAX_HEAD`] (a header line is at least
/// `a:` and CRLF), so that only the head's size refuses, as with ES (Netty counts no
/// headers). hyper's default, 100, refused clients ES serves.
const MAX_HEADERS: usize = MAX_HEAD / 4;

/// The body of every answer: the gateway's bytes, whole.
pub(super) type Body = Full<Bytes>;

/// What every connection of one server shares.
pub(super) struct Shared {
    gateway: Arc<Gateway>,
    pool: Pool,
    /// The bytes of the request bodies being read or answered (ES's `in_flight_requests`).
    in_flight: Arc<BytePool>,
    /// Where access-log lines go.
    log: Sink,
    /// The server's options.
    pub(super) opts: ServeOptions,
    /// hyper's HTTP/1.1 settings for served connections.
    pub(super) http: http1::Builder,
}

impl Shared {
    /// The state of a server answering with `gateway` under `opts` (starts the workers).
    pub(super) fn new(gateway: Arc<Gateway>, opts: &ServeOptions) -> std::io::Result<Shared> {
        let limits = Limits {
            cancel: None,
            max_time: Some(opts.max_request_time),
            request_bytes: Some(opts.max_request_bytes),
            total: Some(Arc::new(BytePool::new("parent", opts.max_total_bytes))),
        };
        let config =
            PoolConfig { threads: opts.threads, queue_size: opts.queue_size, key_share: opts.key_share(), limits };
        let pool = Pool::new(config, gateway.clone(), opts.demo.clone())?;
        let http = http_settings(opts.read_timeout, true);
        let in_flight = Arc::new(BytePool::new("in_flight_requests", opts.max_in_flight_bytes));
        let log = match (&opts.access_log_to, opts.access_log) {
            (Some(tx), _) => Sink::Channel(tx.clone()),
            (None, true) => Sink::Stderr,
            (None, false) => Sink::Off,
        };
        Ok(Shared { gateway, pool, in_flight, log, opts: opts.clone(), http })
    }

    /// The answer to one request from the client at `peer`. hyper drops this future when
    /// the client hangs up; the request's log then cancels its work (see `access_log.rs`).
    pub(super) async fn respond(
        self: Arc<Self>,
        req: hyper::Request<Incoming>,
        peer: IpAddr,
    ) -> Result<hyper::Response<Body>, Infallible> {
        let (parts, body) = req.into_parts();
        let path = target(&parts.uri);
        let method = parts.method.as_str().to_string();
        let mut log = RequestLog::new(self.log.clone(), &method, &path);
        let head = parts.method == Method::HEAD;
        let reply = |log: &mut RequestLog, resp: Response, close: bool| {
            log.answered(&resp);
            Ok(answer(resp, head, close))
        };
        let max = self.opts.max_body;
        // Refused before a byte of it is read (nor is `100 Continue` sent for it); the
        // connection is closed rather than read through the body.
        let declared = parts.headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        if declared.is_some_and(|n| n > max as u64) {
            return reply(&mut log, self.gateway.payload_too_large(max), true);
        }
        let body = match PendingBody::start(body, self.opts.read_timeout, max).await {
            Ok(body) => body,
            Err(e) => return reply(&mut log, self.body_error(e, None, &method), true),
        };
        let request_head = RequestHead {
            method: method.clone(),
            path: path.clone(),
            headers: parts_headers(&parts.headers),
            body_len: body.declared(),
            has_body: body.has_body(),
        };
        // The demo page's files need no key; everything else is the gateway's to admit,
        // from the head alone. A refused request's body is never read: its connection is
        // closed instead.
        let admission = if self.opts.demo.as_ref().is_some_and(|d| d.serves(&path)) {
            None
        } else {
            match self.gateway.admit(&request_head) {
                Ok(admission) => Some(admission),
                Err(refused) => return reply(&mut log, refused, body.has_body()),
            }
        };
        let headers = request_head.headers;
        log.set_key(admission.as_ref().and_then(Admission::key_name));
        let share = match admission.as_ref().and_then(Admission::key_name) {
            Some(key) => Share::Key(key.to_string()),
            None => Share::Client(peer),
        };
        // Held until the answer is built: the body's bytes count until then.
        let mut reservation = Reservation::new(self.in_flight.clone());
        let body = match body.read(max, &mut reservation).await {
            Ok(bytes) => bytes,
            Err(e) => return reply(&mut log, self.body_error(e, admission.as_ref(), &method), true),
        };
        let req = Request { method: method.clone(), path: path.clone(), headers, body };
        let job = Job { req, admission, share, cancel: log.cancel_flag() };
        let answered = match self.pool.submit(job) {
            Ok(answered) => answered,
            Err(refused) => {
                let (job, full) = *refused;
                let reason = full.reason(&format!("{method} {}", redact(&path)));
                let e = Error::new(429, Exception::new("es_rejected_execution_exception", reason));
                return reply(&mut log, self.refusal(job.admission.as_ref(), &method, &e), false);
            }
        };
        let Ok((_req, resp)) = answered.await else {
            return reply(&mut log, self.gateway.transport_error(503, "the server is shutting down"), true);
        };
        drop(reservation);
        reply(&mut log, resp, false)
    }

    /// The answer to a body that could not be read.
    fn body_error(&self, e: BodyError, admission: Option<&Admission>, method: &str) -> Response {
        match e {
            BodyError::TooLarge => self.gateway.payload_too_large(self.opts.max_body),
            BodyError::Incomplete => self.gateway.transport_error(400, "incomplete request body"),
            BodyError::TimedOut => self.gateway.transport_error(408, ""),
            BodyError::Breaker(e) => self.refusal(admission, method, &e),
        }
    }

    /// `e` as the answer to a request the server cannot take now (admitted by the gateway,
    /// or one of the demo page's).
    fn refusal(&self, admission: Option<&Admission>, method: &str, e: &Error) -> Response {
        match admission {
            Some(a) => self.gateway.refuse_admitted(a, e),
            None => self.gateway.refuse(method, e),
        }
    }

    /// The answer to a connection over the cap: 503, then the connection is closed.
    pub(super) fn too_many_connections(&self) -> hyper::Response<Body> {
        answer(self.gateway.transport_error(503, "too many open connections"), false, true)
    }
}

/// The headers as the gateway reads them.
fn parts_headers(headers: &hyper::HeaderMap) -> Vec<(String, String)> {
    headers.iter().map(|(k, v)| (k.as_str().to_string(), String::from_utf8_lossy(v.as_bytes()).into_owned())).collect()
}

/// hyper's settings: heads within `read_timeout` and `MAX_HEAD`, header names in title
/// case, no `Date` header (the gateway's answers never had one); kept-alive connections
/// unless `keep_alive` is false.
pub(super) fn http_settings(read_timeout: Duration, keep_alive: bool) -> http1::Builder {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(read_timeout)
        .max_header_size(MAX_HEAD)
        .max_headers(MAX_HEADERS)
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
