//! The gateway contract as a pure function: `Gateway::handle(&Request) -> Response`.
//!
//! Every door asks it, so they all answer the same bytes: the HTTP server with the
//! requests it reads ([`Gateway::handle`]), the in-process doors — the C ABI and Python
//! over it, WASM, the CLI's `search` — with typed [`call::Call`]s ([`Gateway::call`]:
//! the same routes and answers, without the key, rate and body-size checks that guard a
//! port). No I/O happens here except reading the file through the engine: the browser
//! demo page's static files under `/demo/` are served by the HTTP door itself
//! (`http::demo_page`), which finishes its answers with `finish` so that they carry the
//! same CORS headers.
//!
//! # Routes
//! Under both bases, `/elastic/v1` and `/api/1/elastic`:
//!
//! | path | methods |
//! |---|---|
//! | `/{index}/_search`, `/{index}/{type}/_search` (filters `_type`), `/_search` (all indices) | GET, POST (HEAD) |
//! | `/_search/scroll`, `/_search/scroll/{scroll_id}` | GET, POST continue; DELETE clears |
//! | `/_cat/aliases`, `/_cat/aliases/{name}` | GET (HEAD) |
//! | `/` (cluster info, for clients that ping) | GET (HEAD) |
//! | any path under a base | OPTIONS: 200, no key needed |
//!
//! Trailing slashes and empty segments are ignored; segments are percent-decoded. HEAD
//! answers like GET with the body removed (its length kept in `Content-Length`). GET may
//! carry a body, read like POST's. An unknown route is ES's 400 `text/plain`
//! `No handler found for uri [<uri>] and method [<method>]`; a known route with another
//! method is 405 with `Allow`.
//!
//! # Checks, in order
//! 1. body over `max_body` → 413 `{"error":"...","status":413}`;
//! 2. a body without `Content-Type` → 406 `Content-Type header is missing`; a type other
//!    than `application/json` / `application/x-ndjson` → 406 `Content-Type header [..] is
//!    not supported` (ES 6.8's simple errors; a bodyless request needs no type);
//! 3. URL parameters: ES 6.8's `request [<path>] contains unrecognized parameter: [..]`
//!    (with `did you mean`), using the parameters each ES handler consumes; `df`,
//!    `analyzer`, `analyze_wildcard`, `lenient`, `default_operator` only with `q`;
//!    `api_key` is therefore a 400, even without a key, as the specification says;
//! 4. the API key (`apikey` header, else `key=` parameter; an empty value counts as none):
//!    - none → 401 `security_exception`, reason `missing authentication token for REST
//!      request [<uri>]`, with the three challenges `Bearer realm="security"`, `ApiKey`,
//!      `Basic realm="security" charset="UTF-8"` in `error.header.WWW-Authenticate` (and
//!      the root cause's) and as three `WWW-Authenticate` headers;
//!    - unknown or revoked → 403, body chosen here in the same shape:
//!      `{"error":{"root_cause":[{"type":"security_exception","reason":"invalid API key for REST request [<uri>]"}],"type":"security_exception","reason":"invalid API key for REST request [<uri>]"},"status":403}`;
//! 5. the per-key rate (token bucket, `rate_limit` requests/s with an equal burst) → 429
//!    with `Retry-After: <seconds>` and
//!    `{"error":{"root_cause":[{"type":"es_rejected_execution_exception","reason":"rate limit of <r> requests per second exceeded for API key [<name>]"}],"type":"es_rejected_execution_exception","reason":"..."},"status":429}`.
//!
//! `<uri>` is the path with its query string, `key=` values replaced by `<redacted>`.
//! Keys are read from a fresh snapshot of the file on every request, so `metagate keys
//! revoke` takes effect at once, also for a running server.
//!
//! # Rendering
//! Success bodies honour `filter_path` and `pretty` (Jackson's layout); error bodies honour
//! `pretty` but not `filter_path` (ES disables filtering for errors). `human` and
//! `error_trace` are accepted everywhere (`error_trace` adds each exception's chain as `stack_trace`). JSON is sent as
//! `application/json; charset=UTF-8`. Every response, errors included, carries the
//! specification's three CORS headers.
//!
//! # In front of a cluster
//! With [`GatewayConfig::upstream`] set, searches, scrolls and `_cat/aliases` are answered
//! by an Elasticsearch or OpenSearch cluster instead of the file, after every check above;
//! the file then holds only the keys. See [`upstream`] for what is sent.
//!
//! # Writes
//! The gateway never writes index data, aliases or keys. It writes two kinds of
//! bookkeeping to the file: a key's "last used" time (at most once a minute per key and
//! process, shown by `metagate keys list`; written with `Store::write_or_defer`, so a
//! request never waits for the file's write lock) and cleared scroll
//! ids (so that every process serving the file sees a clear).
//!
//! # Admission
//! A transport that reads bodies itself asks [`Gateway::admit`] with the request's head
//! first: checks 1-5 above (and the route's) need no body byte, so an unauthenticated or
//! misrouted request is refused before its body is read. [`Gateway::handle`] is
//! [`Gateway::admit`] then [`Gateway::answer_admitted`].

mod admit;
pub mod call;
mod cat;
mod cluster_api;
mod endpoints;
mod filter_json;
mod index_stats;
pub mod keys;
mod painless_execute;
pub(crate) mod params;
mod ratelimit;
mod read;
mod render;
mod routes;
mod templates;
pub mod upstream;

pub use admit::{Admission, RequestHead};
pub use params::percent_encode;

use crate::engine::Engine;
use crate::error::{Error, ErrorShape, Exception};
use crate::request::scroll::{ClearScrollRequest, ScrollNextRequest, ScrollStartRequest};
use routes::{route, Route};
use serde_json::{json, Value};
use std::sync::Arc;
use web_time::Instant;

/// An HTTP request, transport-free.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// Method (`GET`, `POST`, ...).
    pub method: String,
    /// Path with the query string, as sent (still percent-encoded).
    pub path: String,
    /// Headers in order (names case-insensitive).
    pub headers: Vec<(String, String)>,
    /// Body bytes.
    pub body: Vec<u8>,
}

impl Request {
    /// A request below the API base, as a test or a tool writes one: `path` (such as
    /// `/RIN_Tool_pr/_search`, its segments encoded with [`params::percent_encode`]), the
    /// query string without `?` (may be empty) and a JSON (or NDJSON) body (may be empty).
    pub fn local(method: &str, path: &str, query: &str, body: &str) -> Request {
        let path = if query.is_empty() { format!("{}{path}", BASES[0]) } else { format!("{}{path}?{query}", BASES[0]) };
        let headers = if body.is_empty() {
            Vec::new()
        } else {
            vec![("Content-Type".to_string(), "application/json".to_string())]
        };
        Request { method: method.to_string(), path, headers, body: body.as_bytes().to_vec() }
    }
}

/// An HTTP response, transport-free.
#[derive(Debug, Clone, Default)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Headers in order.
    pub headers: Vec<(String, String)>,
    /// Body bytes.
    pub body: Vec<u8>,
    /// Name of the API key used, for the access log (never the key itself).
    pub key_name: Option<String>,
}

/// Gateway settings.
#[derive(Debug, Clone)]
pub struct GatewayConfig {
    /// Requests per second per key, also the burst size (0 disables).
    pub rate_limit: f64,
    /// Largest accepted body.
    pub max_body: usize,
    /// The cluster that answers searches, scrolls and `_cat/aliases`, if not the file.
    pub upstream: Option<Arc<dyn upstream::Upstream>>,
    /// Whether each key's last use is written to the file (`last_used_ms`, at most once
    /// a minute per key). Off, a request never writes key data.
    pub record_key_use: bool,
}

impl Default for GatewayConfig {
    fn default() -> GatewayConfig {
        GatewayConfig { rate_limit: 10.0, max_body: 100 * 1024 * 1024, upstream: None, record_key_use: true }
    }
}

/// The CORS headers every response carries (specification, endpoint 6).
pub(crate) const CORS_HEADERS: [(&str, &str); 3] = [
    ("Access-Control-Allow-Origin", "*"),
    ("Access-Control-Allow-Methods", "GET, POST, OPTIONS, HEAD"),
    ("Access-Control-Allow-Headers", "Authorization, Origin, X-Requested-With, Content-Type, Accept"),
];

/// The three challenges of a 401, in ES's priority order (bearer, API key, basic).
pub(crate) const WWW_AUTHENTICATE: [&str; 3] =
    ["Bearer realm=\"security\"", "ApiKey", "Basic realm=\"security\" charset=\"UTF-8\""];

/// The content type of every JSON answer.
pub(crate) const JSON_CONTENT_TYPE: &str = "application/json; charset=UTF-8";
/// The content type of every plain-text answer.
pub(crate) const TEXT_CONTENT_TYPE: &str = "text/plain; charset=UTF-8";
const BASES: [&str; 2] = ["/elastic/v1", "/api/1/elastic"];

/// Who asks: a client over a transport (key, rate and body checks apply) or an
/// in-process door.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Caller {
    Remote,
    InProcess,
}

/// The gateway over one engine.
pub struct Gateway {
    engine: Arc<Engine>,
    config: GatewayConfig,
    limiter: ratelimit::RateLimiter,
    /// When each key's last use was noted for writing to the file (at most once a minute,
    /// so requests do not each cost a durable write).
    touched: std::sync::Mutex<std::collections::HashMap<String, Instant>>,
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

/// The last value of URL parameter `name`.
fn param<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// `uri` with the values of secret-bearing parameters (`key`, and look-alikes such as
/// `api_key` that clients send by mistake) replaced, for logs and error texts.
pub(crate) fn redact(uri: &str) -> String {
    match uri.split_once('?') {
        None => uri.to_string(),
        Some((p, q)) => {
            let kept: Vec<String> = q
                .split('&')
                .map(|kv| {
                    let name = kv.split_once('=').map_or(kv, |(k, _)| k);
                    if is_secret_param(name) {
                        format!("{name}=<redacted>")
                    } else {
                        kv.to_string()
                    }
                })
                .collect();
            format!("{p}?{}", kept.join("&"))
        }
    }
}

/// Whether a raw parameter name carries a secret. Compared decoded, as the gateway reads
/// it (`k%65y=` is `key=`).
fn is_secret_param(raw_name: &str) -> bool {
    let name = params::percent_decode(raw_name, true).to_ascii_lowercase();
    name.ends_with("key") || matches!(name.as_str(), "token" | "access_token" | "password" | "secret")
}

/// A response with a body and its content type.
pub(crate) fn plain(status: u16, content_type: &str, body: Vec<u8>) -> Response {
    Response { status, headers: vec![("Content-Type".into(), content_type.into())], body, key_name: None }
}

impl Gateway {
    /// A gateway answering from `engine`.
    pub fn new(engine: Arc<Engine>, config: GatewayConfig) -> Gateway {
        let limiter = ratelimit::RateLimiter::new(config.rate_limit);
        Gateway { engine, config, limiter, touched: Default::default() }
    }

    /// The engine behind the gateway.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The settings the gateway runs with.
    pub fn config(&self) -> &GatewayConfig {
        &self.config
    }

    /// Answers one request. Never panics on any input: a panic below (a bug) becomes a
    /// 500 `exception` instead of taking the caller down.
    pub fn handle(&self, req: &Request) -> Response {
        self.handle_as(req, Caller::Remote)
    }

    /// Answers a request of an in-process door (the C ABI, Python, WASM, the CLI): the
    /// same routes, checks and answers as [`Gateway::handle`], without the API key, the
    /// rate limit and the body cap, which guard a port — an in-process caller already
    /// holds the file and the body.
    pub fn handle_in_process(&self, req: &Request) -> Response {
        self.handle_as(req, Caller::InProcess)
    }

    /// Answers a typed in-process request, parsed when it was made, by its route's
    /// handler and rendering: the same answer as [`Gateway::handle_in_process`] gives the
    /// request the call names.
    pub fn call(&self, call: call::Call) -> Response {
        use call::Call;
        match call {
            Call::Search(parsed) => {
                self.answer_parsed("POST", parsed, |e, c| read::search(e, &c.index, &c.search, c.indices))
            }
            Call::Count(parsed) => self.answer_parsed("POST", parsed, |e, c| read::count(e, &c.index, &c.count)),
            Call::Msearch(parsed) => self.answer_parsed("POST", parsed, read::msearch),
            Call::Get(parsed) => self.answer_parsed("GET", parsed, |e, r| read::get(e, &r)),
            Call::Mget(parsed) => self.answer_parsed("POST", parsed, |e, r| read::mget(e, &r)),
            Call::Mapping(parsed) => self.answer_parsed("GET", parsed, |e, r| read::mapping(e, &r, false)),
            Call::ScrollStart(parsed) => self.answer_parsed("POST", parsed, |e, r| read::scroll_start(e, r, None)),
            Call::ScrollNext(parsed) => self.answer_parsed("POST", parsed, |e, r| read::scroll_next(e, &r, None)),
            Call::ClearScroll(parsed) => self.answer_parsed("DELETE", parsed, |e, r| read::clear_scroll(e, &r, None)),
        }
    }

    /// The answer to a parsed in-process call of `method`: its parse error, or `handler`'s
    /// reply, rendered with the call's parameters as the route renders it, with the
    /// deprecation warnings of reading and of answering it (one header per message, as a
    /// request collects them); a panic is a 500. An upstream cluster answers requests, not
    /// parsed calls: with one, these calls are refused rather than answered from the file.
    fn answer_parsed<T>(
        &self,
        method: &str,
        parsed: call::Parsed<T>,
        handler: impl FnOnce(&Engine, T) -> crate::Result<read::Reply>,
    ) -> Response {
        crate::deprecation::start();
        let call::Parsed { request, params, warnings } = parsed;
        for message in warnings {
            crate::deprecation::warn(message);
        }
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let request = request?;
            if self.config.upstream.is_some() {
                return Err(Error::illegal_argument(
                    "a parsed in-process call is answered from the file; with an upstream cluster, send the request to Gateway::handle_in_process",
                ));
            }
            handler(self.engine(), request)
        }));
        let resp = match answered {
            Ok(Ok(reply)) => read::respond(reply, &params),
            Ok(Err(e)) => error_response(&e, &params),
            Err(_) => error_response(&internal_error(), &[]),
        };
        finish_method(method, with_warnings(resp, &crate::deprecation::take()))
    }

    fn handle_as(&self, req: &Request, caller: Caller) -> Response {
        match self.admit_as(&RequestHead::of(req), caller) {
            Ok(admission) => self.answer_admitted(req, &admission),
            Err(refused) => refused,
        }
    }

    /// Checks a remote request's head, in the order [`Gateway::handle`] does, everything
    /// that needs no body byte: base path, `OPTIONS`, route, method (405), declared body
    /// size (413), `Content-Type` (406), URL parameters (400), the API key (401/403), the
    /// rate (429). `Ok`: read the body and answer with [`Gateway::answer_admitted`];
    /// `Err`: the finished answer to send at once (the body need not be read).
    pub fn admit(&self, head: &RequestHead) -> Result<Admission, Response> {
        self.admit_as(head, Caller::Remote)
    }

    /// The answer to an admitted request whose body is now read; nothing admission checked
    /// is checked again. `req` must be the request whose head was admitted.
    pub fn answer_admitted(&self, req: &Request, admission: &Admission) -> Response {
        crate::deprecation::start();
        let resp = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer_checked(req, admission)))
            .unwrap_or_else(|_| error_response(&internal_error(), &[]));
        let mut warnings = admission.warnings.clone();
        warnings.extend(crate::deprecation::take());
        finish_method(&req.method, with_warnings(resp, &warnings))
    }

    /// The answer to an admitted request that the transport cannot take after all (over
    /// the in-flight byte budget, the workers' queue full): `e` rendered as the request's
    /// other errors are (`pretty`), with its key's name for the log.
    pub fn refuse_admitted(&self, admission: &Admission, e: &Error) -> Response {
        let mut resp = error_response(e, &admission.params);
        resp.key_name = admission.key_name.clone();
        finish_method(&admission.method, resp)
    }

    /// The 413 a transport sends when a body is over the limit before reading it.
    pub fn payload_too_large(&self, max_body: usize) -> Response {
        finish_cors(error_response(&too_large(max_body), &[]))
    }

    /// An answer for a request the transport could not take (400 an incomplete body, 408
    /// too slow, 503 over the connection cap or shutting down): `text` as a simple error,
    /// or an empty body.
    pub fn transport_error(&self, status: u16, text: &str) -> Response {
        let resp = if text.is_empty() {
            Response { status, ..Default::default() }
        } else {
            error_response(&Error::simple(status, text), &[])
        };
        finish_cors(resp)
    }

    /// `e` as the finished answer to a request of `method` that a transport cannot take
    /// and the gateway has not admitted (the demo page's files, which need no key).
    pub fn refuse(&self, method: &str, e: &Error) -> Response {
        finish_method(method, error_response(e, &[]))
    }

    fn admit_as(&self, head: &RequestHead, caller: Caller) -> Result<Admission, Response> {
        crate::deprecation::start();
        let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.check_head(head, caller)))
            .unwrap_or_else(|_| Err(error_response(&internal_error(), &[])));
        let warnings = crate::deprecation::take();
        match checked {
            Ok(mut admission) => {
                admission.warnings = warnings;
                Ok(admission)
            }
            Err(resp) => Err(finish_method(&head.method, with_warnings(resp, &warnings))),
        }
    }

    /// The head checks of [`Gateway::admit`]; an in-process caller skips the key, the rate
    /// and the body cap.
    fn check_head(&self, req: &RequestHead, caller: Caller) -> Result<Admission, Response> {
        let method = req.method.to_ascii_uppercase();
        let (raw_path, query) = req.path.split_once('?').unwrap_or((req.path.as_str(), ""));
        let uri = redact(&req.path);
        let params = params::parse_query_string(query);
        let Some(rest) =
            BASES.iter().find_map(|b| raw_path.strip_prefix(b).filter(|r| r.is_empty() || r.starts_with('/')))
        else {
            return Err(no_handler(&uri, &req.method));
        };
        if method == "OPTIONS" {
            // CORS pre-flight: answered on any path under a base, with or without a key.
            return Err(Response {
                status: 200,
                headers: vec![
                    ("Content-Type".into(), "application/json".into()),
                    ("Content-Length".into(), "0".into()),
                ],
                body: Vec::new(),
                key_name: None,
            });
        }
        let Some(route) = route(rest) else {
            return Err(no_handler(&uri, &req.method));
        };
        let allowed = route.methods();
        if !allowed.contains(&method.as_str()) {
            let allow: Vec<&str> = allowed.iter().filter(|m| **m != "HEAD").copied().collect();
            let mut r = error_response(
                &Error::simple(
                    405,
                    format!(
                        "Incorrect HTTP method for uri [{uri}] and method [{}], allowed: [{}]",
                        req.method,
                        allow.join(", ")
                    ),
                ),
                &params,
            );
            r.headers.push(("Allow".into(), allow.join(",")));
            return Err(r);
        }
        if caller == Caller::Remote && req.body_len.is_some_and(|n| n > self.config.max_body as u64) {
            return Err(error_response(&too_large(self.config.max_body), &params));
        }
        if let Err(e) = check_content_type(req) {
            return Err(error_response(&e, &params));
        }
        let has_body = req.has_body || param(&params, "source").is_some();
        if let Some(e) = check_params(raw_path, &route, &method, has_body, &params) {
            return Err(error_response(&e, &params));
        }
        let mut admission = Admission { caller, method, route, params, key_name: None, warnings: Vec::new() };
        if caller == Caller::InProcess {
            return Ok(admission);
        }
        let key_name = match self.authenticate(req, &admission.params, &uri) {
            Ok(name) => name,
            Err(e) => return Err(error_response(&e, &admission.params)),
        };
        if let Err(wait) = self.limiter.check(&key_name, Instant::now()) {
            let e = Error::new(
                429,
                Exception::new(
                    "es_rejected_execution_exception",
                    format!(
                        "rate limit of {} requests per second exceeded for API key [{key_name}]",
                        self.config.rate_limit
                    ),
                ),
            );
            let mut r = error_response(&e, &admission.params);
            // Whole seconds, rounded up: a client waiting that long finds a token.
            r.headers.push(("Retry-After".into(), (wait.as_secs_f64().ceil() as u64).max(1).to_string()));
            return Err(with_key(r, key_name));
        }
        admission.key_name = Some(key_name);
        Ok(admission)
    }

    /// The answer to an admitted request, before warnings and HEAD handling.
    fn answer_checked(&self, req: &Request, admission: &Admission) -> Response {
        let (raw_path, query) = req.path.split_once('?').unwrap_or((req.path.as_str(), ""));
        let rest = BASES.iter().find_map(|b| raw_path.strip_prefix(b)).unwrap_or(raw_path);
        let params = &admission.params;
        let resp = self
            .answer(
                req,
                (rest, query),
                admission.route.clone(),
                &admission.method,
                params,
                admission.key_name.as_deref(),
            )
            .unwrap_or_else(|e| error_response(&e, params));
        match (admission.caller, &admission.key_name) {
            (Caller::Remote, Some(key_name)) => {
                self.record_use(key_name);
                with_key(resp, key_name.clone())
            }
            _ => resp,
        }
    }

    /// The key's name, or the 401/403 to answer.
    fn authenticate(&self, req: &RequestHead, params: &[(String, String)], uri: &str) -> crate::Result<String> {
        let key = header(&req.headers, "apikey")
            .filter(|k| !k.is_empty())
            .or_else(|| param(params, "key").filter(|k| !k.is_empty()));
        let Some(key) = key else {
            return Err(missing_token(uri));
        };
        match self.engine.authenticate_key(key)? {
            Some(name) => Ok(name),
            None => Err(invalid_key(uri)),
        }
    }

    /// The answer to an accepted request; `(rest, query)` is its path below the base and
    /// its query string, as sent; `key_name` the caller's API key (`None` in process), which
    /// owns the scrolls it starts.
    fn answer(
        &self,
        req: &Request,
        (rest, query): (&str, &str),
        route: Route,
        method: &str,
        params: &[(String, String)],
        key_name: Option<&str>,
    ) -> crate::Result<Response> {
        if route.writes(method) {
            return Err(read::cluster_read_only());
        }
        if let (Some(cluster), Some(what)) = (&self.config.upstream, route.forwarded()) {
            let version = cluster.version()?;
            return cluster.send(&upstream::forward_request(req, rest, query, what, &version));
        }
        let body = request_body(req, params)?;
        let accept = header(&req.headers, "Accept");
        let (status, v) = match route {
            Route::Root => (200, cluster_info()),
            Route::Search { index, types } => {
                return Ok(read::respond(self.search(&index, types, &body, params, key_name)?, params))
            }
            Route::Scroll { ids } => return self.scroll(method, ids, &body, params, key_name),
            Route::CatAliases { name } => return self.cat_aliases(name, params, accept),
            Route::CatIndices { index } => return read::cat_indices(self.engine(), index.as_deref(), params, accept),
            Route::CatCount { index } => {
                return read::cat_count(self.engine(), index.as_deref(), &body, params, accept)
            }
            Route::Endpoint(endpoints::Endpoint::SearchTemplate { index, types }) => {
                let (search, kept) = templates::search_body(&body, params)?;
                return Ok(read::respond(self.search(&index, types, &search, &kept, key_name)?, params));
            }
            Route::Endpoint(e) => {
                let path = req.path.split('?').next().unwrap_or_default();
                return endpoints::answer(self.engine(), e, &body, params, path, accept);
            }
            other => return Ok(read::respond(read::answer(self.engine(), other, method, &body, params)?, params)),
        };
        Ok(json_response(status, &v, params))
    }

    fn record_use(&self, key_name: &str) {
        if !self.config.record_key_use {
            return;
        }
        let now = Instant::now();
        {
            let mut t = self.touched.lock().unwrap_or_else(|p| p.into_inner());
            match t.get(key_name) {
                Some(at) if now.duration_since(*at).as_secs() < 60 => return,
                _ => {
                    t.insert(key_name.to_string(), now);
                }
            }
        }
        self.engine.record_key_use(key_name);
    }

    fn search(
        &self,
        index: &str,
        types: Vec<String>,
        body: &str,
        params: &[(String, String)],
        key_name: Option<&str>,
    ) -> crate::Result<read::Reply> {
        if let Some(scroll) = param(params, "scroll") {
            let p: Vec<(String, String)> = params.iter().filter(|(k, _)| k != "scroll").cloned().collect();
            let req = ScrollStartRequest::parse(index, &types, body, &p, scroll)?;
            return read::scroll_start(self.engine(), req, key_name);
        }
        let req = crate::request::SearchRequest::parse(body, params, &types)?;
        read::search(self.engine(), index, &req, crate::engine::indices_options(params)?)
    }

    fn scroll(
        &self,
        method: &str,
        ids: Option<String>,
        body: &str,
        params: &[(String, String)],
        key_name: Option<&str>,
    ) -> crate::Result<Response> {
        // The path part is ES's `scroll_id` parameter; the body wins over both.
        let reply = if method == "DELETE" {
            read::clear_scroll(self.engine(), &ClearScrollRequest::parse(ids.as_deref(), body, params)?, key_name)?
        } else {
            read::scroll_next(self.engine(), &ScrollNextRequest::parse(ids.as_deref(), body, params)?, key_name)?
        };
        Ok(read::respond(reply, params))
    }

    fn cat_aliases(
        &self,
        name: Option<String>,
        params: &[(String, String)],
        accept: Option<&str>,
    ) -> crate::Result<Response> {
        let rows = self.engine.alias_entries()?;
        let rows: Vec<_> = match &name {
            None => rows,
            Some(n) => {
                rows.into_iter().filter(|(a, _)| n.split(',').any(|p| crate::mapping::simple_match(p, a))).collect()
            }
        };
        read::cat_table(&cat::ALIAS_COLUMNS, &cat::alias_option_rows(&rows), params, accept)
    }
}

/// ES 6.8 RestController: a body needs a Content-Type it can parse (406 otherwise).
fn check_content_type(req: &RequestHead) -> crate::Result<()> {
    if !req.has_body {
        return Ok(());
    }
    match header(&req.headers, "content-type") {
        None => Err(Error::simple(406, "Content-Type header is missing")),
        Some(ct) => {
            let mime = ct.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
            // ES reads `application/x-ndjson` as JSON too. SMILE, CBOR and YAML bodies,
            // which ES would parse, are refused: this gateway reads JSON only.
            if mime == "application/json" || mime == "application/x-ndjson" {
                Ok(())
            } else {
                Err(Error::simple(406, format!("Content-Type header [{ct}] is not supported")))
            }
        }
    }
}

/// The request body as text: the body, or ES's `source` + `source_content_type`
/// parameters when there is none (RestRequest.contentOrSourceParam).
fn request_body(req: &Request, params: &[(String, String)]) -> crate::Result<String> {
    body_text(&req.body, params)
}

/// A body as text, or the `source` parameter's when it is empty (see [`request_body`]).
fn body_text(body: &[u8], params: &[(String, String)]) -> crate::Result<String> {
    if !body.is_empty() {
        return String::from_utf8(body.to_vec())
            .map_err(|_| Error::json_parse("Invalid UTF-8 start byte in request body"));
    }
    let Some(source) = param(params, "source") else {
        return Ok(String::new());
    };
    let illegal_state = |reason: String| Error::new(500, Exception::new("illegal_state_exception", reason));
    let Some(ct) = param(params, "source_content_type") else {
        return Err(illegal_state("source and source_content_type parameters are required".into()));
    };
    let mime = ct.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    if mime != "application/json" && mime != "application/x-ndjson" {
        return Err(illegal_state(format!("Unknown value for source_content_type [{ct}]")));
    }
    Ok(source.to_string())
}

/// ES 6.8's unrecognized-parameter check for a route.
fn check_params(path: &str, route: &Route, method: &str, has_body: bool, params: &[(String, String)]) -> Option<Error> {
    if route.writes(method) {
        return None;
    }
    let has_q = params.iter().any(|(k, _)| k == "q");
    let candidates = route.params(method, has_body, has_q);
    let unconsumed: Vec<&str> = params.iter().map(|(k, _)| k.as_str()).filter(|k| !candidates.contains(k)).collect();
    params::unrecognized_params_message(path, &unconsumed, &candidates).map(Error::illegal_argument)
}

/// GET `/`: the cluster-information document ES 6.8 answers, so that clients which ping
/// or check the version before searching work.
fn cluster_info() -> Value {
    json!({
        "name": crate::node::NODE_ID,
        "cluster_name": "metagate",
        "cluster_uuid": "_na_",
        "version": {
            "number": crate::node::ES_VERSION,
            "build_flavor": "oss",
            "build_type": "metagate",
            "build_hash": crate::node::build_hash(),
            "build_date": "2022-01-06T00:00:00.000000Z",
            "build_snapshot": false,
            "lucene_version": "7.7.3",
            "minimum_wire_compatibility_version": "5.6.0",
            "minimum_index_compatibility_version": "5.0.0"
        },
        "tagline": "You Know, for Search"
    })
}

/// Adds what every response to a request of `method` carries: CORS headers; HEAD drops the
/// body but keeps its length. Public to the crate for the HTTP door's own answers (the demo
/// page's files).
pub(crate) fn finish_method(method: &str, resp: Response) -> Response {
    let mut resp = finish_cors(resp);
    if method.eq_ignore_ascii_case("HEAD") {
        resp.headers.retain(|(k, _)| !k.eq_ignore_ascii_case("Content-Length"));
        resp.headers.push(("Content-Length".into(), resp.body.len().to_string()));
        resp.body.clear();
    }
    resp
}

fn finish_cors(mut resp: Response) -> Response {
    for (k, v) in CORS_HEADERS {
        resp.headers.push((k.to_string(), v.to_string()));
    }
    resp
}

/// `resp` with a `Warning` header per deprecation message.
fn with_warnings(mut resp: Response, messages: &[String]) -> Response {
    // web-time's clock: std's panics in the browser.
    let now = chrono::DateTime::from_timestamp_millis(crate::node::now_ms()).unwrap_or_default();
    for message in messages {
        resp.headers.push(("Warning".into(), crate::deprecation::header_value(message, now)));
    }
    resp
}

fn with_key(mut r: Response, name: String) -> Response {
    r.key_name = Some(name);
    r
}

/// ES's 400 for a path and method no handler answers; `uri` as redacted for errors.
pub(crate) fn no_handler(uri: &str, method: &str) -> Response {
    plain(400, TEXT_CONTENT_TYPE, format!("No handler found for uri [{uri}] and method [{method}]").into_bytes())
}

fn too_large(max_body: usize) -> Error {
    Error::simple(413, format!("request body is larger than the limit of [{max_body}] bytes"))
}

/// The 500 for a bug: a panic while answering.
pub(crate) fn internal_error() -> Error {
    Error::new(500, Exception::new("exception", "internal error while answering the request"))
}

fn missing_token(uri: &str) -> Error {
    let mut ex = Exception::new("security_exception", format!("missing authentication token for REST request [{uri}]"));
    ex.headers.push(("WWW-Authenticate".into(), WWW_AUTHENTICATE.iter().map(|s| s.to_string()).collect()));
    Error::new(401, ex)
}

fn invalid_key(uri: &str) -> Error {
    Error::new(403, Exception::new("security_exception", format!("invalid API key for REST request [{uri}]")))
}

/// Success rendering: `filter_path`, then `pretty`.
fn render(v: &Value, params: &[(String, String)], filter: bool) -> Vec<u8> {
    let filtered;
    let v = match param(params, "filter_path") {
        Some(f) if filter && !f.is_empty() => {
            filtered = render::filter_path(v, f);
            &filtered
        }
        _ => v,
    };
    match param(params, "pretty") {
        Some(p) if p != "false" => render::pretty(v).into_bytes(),
        _ => v.to_string().into_bytes(),
    }
}

fn json_response(status: u16, v: &Value, params: &[(String, String)]) -> Response {
    plain(status, JSON_CONTENT_TYPE, render(v, params, true))
}

/// A success answer already written as JSON bytes (searches, scroll pages, documents).
/// They go out as written; only `filter_path` and `pretty` need the answer as a tree,
/// read back from the bytes, so they render exactly as a tree built directly would.
fn written_response(status: u16, body: Vec<u8>, params: &[(String, String)]) -> Response {
    let filtered = param(params, "filter_path").is_some_and(|f| !f.is_empty());
    let pretty = param(params, "pretty").is_some_and(|p| p != "false");
    if !filtered && !pretty {
        return plain(status, JSON_CONTENT_TYPE, body);
    }
    match serde_json::from_slice::<Value>(&body) {
        Ok(v) => json_response(status, &v, params),
        // Written here, so it parses; a failure would be a bug, answered as one.
        Err(_) => error_response(&internal_error(), params),
    }
}

/// Renders an error with its status, headers and shape (`pretty` applies, `filter_path`
/// does not: ES builds error bodies without filtering).
pub(crate) fn error_response(e: &Error, params: &[(String, String)]) -> Response {
    let mut resp = match e.shape {
        ErrorShape::PlainText => plain(e.status, TEXT_CONTENT_TYPE, e.reason().as_bytes().to_vec()),
        _ => {
            let mut body = e.to_json();
            if param_true(params, "error_trace") {
                add_stack_traces(&mut body["error"]);
            }
            plain(e.status, JSON_CONTENT_TYPE, render(&body, params, false))
        }
    };
    for (name, values) in e.headers() {
        for v in values {
            resp.headers.push((name.clone(), v.clone()));
        }
    }
    resp
}

fn param_true(params: &[(String, String)], name: &str) -> bool {
    params.iter().any(|(k, v)| k == name && (v.is_empty() || v == "true"))
}

/// `error_trace=true`: ES adds a `stack_trace` to every exception object. The engine has
/// no JVM frames to show; its trace is the exception chain, outermost first, in Java's
/// `type: reason` / `Caused by:` layout.
fn add_stack_traces(exception: &mut Value) {
    let trace = exception_chain(exception);
    let Value::Object(o) = exception else { return };
    for key in ["root_cause", "failed_shards"] {
        if let Some(Value::Array(items)) = o.get_mut(key) {
            for item in items {
                match item.get_mut("reason") {
                    Some(r @ Value::Object(_)) => add_stack_traces(r),
                    _ => add_stack_traces(item),
                }
            }
        }
    }
    if let Some(c) = o.get_mut("caused_by") {
        add_stack_traces(c);
    }
    o.insert("stack_trace".into(), Value::String(trace));
}

/// `[type]: reason` of an exception and each of its causes, one per line.
fn exception_chain(exception: &Value) -> String {
    let mut lines = Vec::new();
    let mut cur = Some(exception);
    while let Some(Value::Object(x)) = cur {
        let kind = x.get("type").and_then(Value::as_str).unwrap_or("exception");
        let reason = x.get("reason").and_then(Value::as_str).unwrap_or("");
        let prefix = if lines.is_empty() { "" } else { "Caused by: " };
        lines.push(format!("{prefix}[{kind}]: {reason}"));
        cur = x.get("caused_by");
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_key_values() {
        assert_eq!(redact("/a/_search?q=x&key=s3cret&size=1"), "/a/_search?q=x&key=<redacted>&size=1");
        assert_eq!(redact("/a?k%65y=s3cret"), "/a?k%65y=<redacted>");
        assert_eq!(redact("/a?keys=1&key"), "/a?keys=1&key=<redacted>");
        assert_eq!(redact("/a?api_key=s&apikey=s&q=key"), "/a?api_key=<redacted>&apikey=<redacted>&q=key");
        assert_eq!(redact("/a"), "/a");
    }
}
