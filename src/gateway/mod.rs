//! The gateway contract as a pure function: `Gateway::handle(&Request) -> Response`.
//!
//! Routes (under `/elastic/v1` and `/api/1/elastic`): `{index}/_search`,
//! `{index}/{type}/_search`, `_search`, `_search/scroll[/{ids}]`, `_cat/aliases[/{name}]`;
//! OPTIONS anywhere. Every response carries the CORS headers of the specification.
//!
//! Authentication: the `apikey` header or the `key` parameter. No key: 401
//! `security_exception` with three `WWW-Authenticate` challenges. An unknown or revoked
//! key: 403 with an ES-shaped body chosen here —
//! `{"error":{"root_cause":[{"type":"security_exception","reason":"invalid API key for REST request [<path>]"}],...},"status":403}`.
//! Over the per-key rate: 429 `es_rejected_execution_exception` with `Retry-After`.
//! The gateway never writes index data; it records key use (last used) and scroll
//! clearing in the file.

pub mod cat;
pub mod keys;
pub mod params;
pub mod ratelimit;
pub mod render;

use crate::engine::Engine;
use crate::error::{Error, ErrorShape, Exception};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;
use web_time::Instant;

/// An HTTP request, transport-free.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// Method (`GET`, `POST`, ...).
    pub method: String,
    /// Path with the query string.
    pub path: String,
    /// Headers in order (names case-insensitive).
    pub headers: Vec<(String, String)>,
    /// Body bytes.
    pub body: Vec<u8>,
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
    /// Requests per second per key (0 disables).
    pub rate_limit: f64,
    /// Largest accepted body.
    pub max_body: usize,
    /// Directory served at `/demo/` (the WASM page), if any.
    pub demo_dir: Option<PathBuf>,
}

impl Default for GatewayConfig {
    fn default() -> GatewayConfig {
        GatewayConfig { rate_limit: 10.0, max_body: 100 * 1024 * 1024, demo_dir: None }
    }
}

/// The CORS headers every response carries (specification, endpoint 6).
pub const CORS_HEADERS: [(&str, &str); 3] = [
    ("Access-Control-Allow-Origin", "*"),
    ("Access-Control-Allow-Methods", "GET, POST, OPTIONS, HEAD"),
    ("Access-Control-Allow-Headers", "Authorization, Origin, X-Requested-With, Content-Type, Accept"),
];

/// The three challenges of a 401, in ES's priority order.
pub const WWW_AUTHENTICATE: [&str; 3] =
    ["Bearer realm=\"security\"", "ApiKey", "Basic realm=\"security\" charset=\"UTF-8\""];

const JSON: &str = "application/json; charset=UTF-8";
const BASES: [&str; 2] = ["/elastic/v1", "/api/1/elastic"];
/// Parameters every endpoint accepts (rendering and our auth parameter).
const COMMON: [&str; 6] = ["pretty", "human", "filter_path", "error_trace", "format", "key"];
const SEARCH_PARAMS: [&str; 43] = [
    "batched_reduce_size",
    "pre_filter_shard_size",
    "max_concurrent_shard_requests",
    "allow_partial_search_results",
    "search_type",
    "request_cache",
    "scroll",
    "routing",
    "preference",
    "q",
    "from",
    "size",
    "explain",
    "version",
    "seq_no_primary_term",
    "timeout",
    "terminate_after",
    "stored_fields",
    "docvalue_fields",
    "_source",
    "_source_includes",
    "_source_excludes",
    "_source_include",
    "_source_exclude",
    "track_scores",
    "track_total_hits",
    "sort",
    "stats",
    "suggest_field",
    "suggest_text",
    "suggest_size",
    "suggest_mode",
    "ignore_unavailable",
    "allow_no_indices",
    "expand_wildcards",
    "ignore_throttled",
    "typed_keys",
    "rest_total_hits_as_int",
    "source",
    "source_content_type",
    "index",
    "type",
    "df",
];
/// Only read when `q` is present (ES returns early otherwise).
const Q_PARAMS: [&str; 5] = ["df", "analyzer", "analyze_wildcard", "lenient", "default_operator"];
const SCROLL_PARAMS: [&str; 4] = ["scroll", "scroll_id", "rest_total_hits_as_int", "typed_keys"];
const CAT_PARAMS: [&str; 7] = ["h", "help", "local", "master_timeout", "s", "v", "name"];

/// The gateway over one engine.
pub struct Gateway {
    engine: Arc<Engine>,
    config: GatewayConfig,
    limiter: ratelimit::RateLimiter,
    /// When each key's last use was written to the file (written at most once a minute,
    /// so requests do not each pay for a durable write).
    touched: std::sync::Mutex<std::collections::HashMap<String, Instant>>,
}

enum Route {
    Search { index: String, types: Vec<String> },
    Scroll { ids: Option<String> },
    CatAliases { name: Option<String> },
}

fn header<'a>(req: &'a Request, name: &str) -> Option<&'a str> {
    req.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

/// `uri` with secrets (`key=`) removed, for logs and error texts.
pub fn redact(uri: &str) -> String {
    match uri.split_once('?') {
        None => uri.to_string(),
        Some((p, q)) => {
            let kept: Vec<String> =
                q.split('&')
                    .map(|kv| {
                        if kv.starts_with("key=") || kv == "key" {
                            "key=<redacted>".to_string()
                        } else {
                            kv.to_string()
                        }
                    })
                    .collect();
            format!("{p}?{}", kept.join("&"))
        }
    }
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

    /// Answers one request.
    pub fn handle(&self, req: &Request) -> Response {
        let mut resp = self.dispatch(req);
        for (k, v) in CORS_HEADERS {
            resp.headers.push((k.to_string(), v.to_string()));
        }
        if req.method.eq_ignore_ascii_case("HEAD") {
            resp.headers.push(("Content-Length".into(), resp.body.len().to_string()));
            resp.body.clear();
        }
        resp
    }

    fn dispatch(&self, req: &Request) -> Response {
        let method = req.method.to_ascii_uppercase();
        let (raw_path, query) = req.path.split_once('?').unwrap_or((req.path.as_str(), ""));
        let params = params::parse_query_string(query);
        if let Some(dir) = &self.config.demo_dir {
            if raw_path == "/demo" || raw_path.starts_with("/demo/") {
                return static_file(dir, raw_path.trim_start_matches("/demo"));
            }
        }
        let Some(rest) =
            BASES.iter().find_map(|b| raw_path.strip_prefix(b).filter(|r| r.is_empty() || r.starts_with('/')))
        else {
            return no_handler(raw_path, &method);
        };
        if method == "OPTIONS" {
            return Response {
                status: 200,
                headers: vec![
                    ("Content-Type".into(), "application/json".into()),
                    ("Content-Length".into(), "0".into()),
                ],
                body: Vec::new(),
                key_name: None,
            };
        }
        let segments: Vec<String> =
            rest.split('/').filter(|s| !s.is_empty()).map(|s| params::percent_decode(s, false)).collect();
        let seg: Vec<&str> = segments.iter().map(String::as_str).collect();
        let route = match seg.as_slice() {
            ["_search"] => Route::Search { index: "_all".into(), types: Vec::new() },
            ["_search", "scroll"] => Route::Scroll { ids: None },
            ["_search", "scroll", ids] => Route::Scroll { ids: Some(ids.to_string()) },
            ["_cat", "aliases"] => Route::CatAliases { name: None },
            ["_cat", "aliases", name] => Route::CatAliases { name: Some(name.to_string()) },
            [index, "_search"] if !index.starts_with('_') || *index == "_all" => {
                Route::Search { index: index.to_string(), types: Vec::new() }
            }
            [index, ty, "_search"] if !index.starts_with('_') || *index == "_all" => {
                Route::Search { index: index.to_string(), types: ty.split(',').map(str::to_string).collect() }
            }
            _ => return no_handler(raw_path, &method),
        };
        let allowed: &[&str] = match route {
            Route::Search { .. } => &["GET", "POST", "HEAD"],
            Route::Scroll { .. } => &["GET", "POST", "DELETE", "HEAD"],
            Route::CatAliases { .. } => &["GET", "HEAD"],
        };
        if !allowed.contains(&method.as_str()) {
            let allow = allowed.iter().filter(|m| **m != "HEAD").copied().collect::<Vec<_>>().join(", ");
            let mut r = error_response(
                &Error::simple(
                    405,
                    format!("Incorrect HTTP method for uri [{}] and method [{method}], allowed: [{allow}]", req.path),
                ),
                &params,
            );
            r.headers.push(("Allow".into(), allow.replace(' ', "")));
            return r;
        }
        if let Some(e) = self.check_params(raw_path, &route, &params) {
            return error_response(&e, &params);
        }
        // Authentication and rate limit.
        let key = header(req, "apikey")
            .map(str::to_string)
            .or_else(|| params.iter().rev().find(|(k, _)| k == "key").map(|(_, v)| v.clone()));
        let key_name = match key {
            None => return error_response(&missing_token(&redact(&req.path)), &params),
            Some(k) => match keys::authenticate(self.engine.store(), &k) {
                Ok(Some(name)) => name,
                Ok(None) => return error_response(&invalid_key(raw_path), &params),
                Err(e) => return error_response(&e, &params),
            },
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
            let mut r = error_response(&e, &params);
            r.headers.push(("Retry-After".into(), wait.as_secs().max(1).to_string()));
            r.key_name = Some(key_name);
            return r;
        }
        if req.body.len() > self.config.max_body {
            let mut r = error_response(
                &Error::simple(
                    413,
                    format!("request body is larger than the limit of [{}] bytes", self.config.max_body),
                ),
                &params,
            );
            r.key_name = Some(key_name);
            return r;
        }
        if !req.body.is_empty() {
            match header(req, "content-type") {
                None => {
                    return with_key(
                        error_response(&Error::simple(406, "Content-Type header is missing"), &params),
                        key_name,
                    )
                }
                Some(ct) => {
                    let mime = ct.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
                    if mime != "application/json" && mime != "application/x-ndjson" {
                        return with_key(
                            error_response(
                                &Error::simple(406, format!("Content-Type header [{ct}] is not supported")),
                                &params,
                            ),
                            key_name,
                        );
                    }
                }
            }
        }
        let body = match std::str::from_utf8(&req.body) {
            Ok(b) => b,
            Err(_) => {
                return with_key(
                    error_response(&Error::json_parse("Invalid UTF-8 start byte in request body"), &params),
                    key_name,
                )
            }
        };
        let result = match route {
            Route::Search { index, types } => self.search(&index, types, body, &params),
            Route::Scroll { ids } => self.scroll(&method, ids, body, &params),
            Route::CatAliases { name } => {
                return with_key(self.cat_aliases(name, &params), key_name);
            }
        };
        let resp = match result {
            Ok((status, v)) => json_response(status, &v, &params),
            Err(e) => error_response(&e, &params),
        };
        self.record_use(&key_name);
        with_key(resp, key_name)
    }

    fn record_use(&self, key_name: &str) {
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
        keys::touch(self.engine.store(), key_name);
    }

    fn check_params(&self, path: &str, route: &Route, params: &[(String, String)]) -> Option<Error> {
        let has_q = params.iter().any(|(k, _)| k == "q");
        let mut candidates: Vec<&str> = COMMON.to_vec();
        match route {
            Route::Search { .. } => {
                candidates.extend(SEARCH_PARAMS);
                if has_q {
                    candidates.extend(Q_PARAMS);
                }
            }
            Route::Scroll { .. } => candidates.extend(SCROLL_PARAMS),
            Route::CatAliases { .. } => candidates.extend(CAT_PARAMS),
        }
        let mut unconsumed: Vec<&str> =
            params.iter().map(|(k, _)| k.as_str()).filter(|k| !candidates.contains(k)).collect();
        if !has_q {
            // `df` is declared by the handler but read only with `q`.
            if let Some(df) = params.iter().find(|(k, _)| k == "df") {
                unconsumed.push(df.0.as_str());
            }
        }
        params::unrecognized_params_message(path, &unconsumed, &candidates).map(Error::illegal_argument)
    }

    fn search(
        &self,
        index: &str,
        types: Vec<String>,
        body: &str,
        params: &[(String, String)],
    ) -> crate::Result<(u16, Value)> {
        if let Some((_, scroll)) = params.iter().rev().find(|(k, _)| k == "scroll") {
            let mut p: Vec<(String, String)> = params.to_vec();
            p.retain(|(k, _)| k != "scroll");
            return Ok((200, self.engine.scroll_start(index, body, &p, scroll)?));
        }
        let mut req = crate::search::request::SearchRequest::from_body(body)?;
        req.apply_uri_params(params)?;
        req.types = types;
        Ok((200, self.engine.search_request(index, &req, crate::engine::indices_options(params)?)?))
    }

    fn scroll(
        &self,
        method: &str,
        ids: Option<String>,
        body: &str,
        params: &[(String, String)],
    ) -> crate::Result<(u16, Value)> {
        let parsed: Value = if body.trim().is_empty() {
            Value::Null
        } else {
            serde_json::from_str(body).map_err(|e| Error::json_parse(crate::search::request::json_error_text(&e)))?
        };
        let param = |k: &str| params.iter().rev().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        if method == "DELETE" {
            let mut list: Vec<String> = match parsed.get("scroll_id") {
                Some(Value::String(s)) => vec![s.clone()],
                Some(Value::Array(a)) => a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
                _ => Vec::new(),
            };
            if list.is_empty() {
                if let Some(ids) = ids.or_else(|| param("scroll_id")) {
                    list = ids.split(',').map(str::to_string).collect();
                }
            }
            if list.is_empty() {
                return Err(Error::new(
                    400,
                    Exception::new(
                        "action_request_validation_exception",
                        "Validation Failed: 1: no scroll ids specified;",
                    ),
                ));
            }
            let freed = self.engine.clear_scroll(&list)?;
            return Ok((if freed == 0 { 404 } else { 200 }, json!({"succeeded": true, "num_freed": freed})));
        }
        let scroll_id =
            parsed.get("scroll_id").and_then(Value::as_str).map(str::to_string).or(ids).or_else(|| param("scroll_id"));
        let keep = parsed.get("scroll").and_then(Value::as_str).map(str::to_string).or_else(|| param("scroll"));
        let Some(id) = scroll_id else {
            return Err(Error::new(
                400,
                Exception::new("action_request_validation_exception", "Validation Failed: 1: scrollId is missing;"),
            ));
        };
        Ok((200, self.engine.scroll_next(&id, keep.as_deref())?))
    }

    fn cat_aliases(&self, name: Option<String>, params: &[(String, String)]) -> Response {
        let get = |k: &str| params.iter().rev().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let flag = |k: &str| get(k).map(|v| v != "false").unwrap_or(false);
        let rows = match self.engine.aliases() {
            Ok(r) => r,
            Err(e) => return error_response(&e, params),
        };
        let rows: Vec<(String, String)> = match &name {
            None => rows,
            Some(n) => {
                rows.into_iter().filter(|(a, _)| n.split(',').any(|p| crate::mapping::simple_match(p, a))).collect()
            }
        };
        let p = cat::CatParams { v: flag("v"), help: flag("help"), h: get("h"), s: get("s"), format: get("format") };
        match cat::render_aliases(&rows, &p) {
            Ok((body, ct)) => {
                let body = if ct.starts_with("application/json") {
                    let v: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                    return json_response(200, &v, params);
                } else {
                    body
                };
                Response {
                    status: 200,
                    headers: vec![("Content-Type".into(), ct.into())],
                    body: body.into_bytes(),
                    key_name: None,
                }
            }
            Err(e) => error_response(&e, params),
        }
    }
}

fn with_key(mut r: Response, name: String) -> Response {
    r.key_name = Some(name);
    r
}

fn no_handler(path: &str, method: &str) -> Response {
    Response {
        status: 400,
        headers: vec![("Content-Type".into(), "text/plain; charset=UTF-8".into())],
        body: format!("No handler found for uri [{path}] and method [{method}]").into_bytes(),
        key_name: None,
    }
}

fn missing_token(uri: &str) -> Error {
    let mut ex = Exception::new("security_exception", format!("missing authentication token for REST request [{uri}]"));
    ex.headers.push(("WWW-Authenticate".into(), WWW_AUTHENTICATE.iter().map(|s| s.to_string()).collect()));
    Error::new(401, ex)
}

fn invalid_key(path: &str) -> Error {
    Error::new(403, Exception::new("security_exception", format!("invalid API key for REST request [{path}]")))
}

fn render(v: &Value, params: &[(String, String)]) -> Vec<u8> {
    let get = |k: &str| params.iter().rev().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let filtered;
    let v = match get("filter_path") {
        Some(f) if !f.is_empty() => {
            filtered = render::filter_path(v, f);
            &filtered
        }
        _ => v,
    };
    match get("pretty") {
        Some(p) if p != "false" => render::pretty(v).into_bytes(),
        _ => v.to_string().into_bytes(),
    }
}

fn json_response(status: u16, v: &Value, params: &[(String, String)]) -> Response {
    Response { status, headers: vec![("Content-Type".into(), JSON.into())], body: render(v, params), key_name: None }
}

/// Renders an error with its status, headers and shape.
pub fn error_response(e: &Error, params: &[(String, String)]) -> Response {
    let mut headers = Vec::new();
    let body = match e.shape {
        ErrorShape::PlainText => {
            headers.push(("Content-Type".into(), "text/plain; charset=UTF-8".into()));
            e.reason().as_bytes().to_vec()
        }
        _ => {
            headers.push(("Content-Type".into(), JSON.into()));
            render(&e.to_json(), params)
        }
    };
    for (name, values) in e.headers() {
        for v in values {
            headers.push((name.clone(), v.clone()));
        }
    }
    Response { status: e.status, headers, body, key_name: None }
}

fn static_file(dir: &std::path::Path, rel: &str) -> Response {
    let rel = rel.trim_start_matches('/');
    let rel = if rel.is_empty() { "index.html" } else { rel };
    if rel.split('/').any(|p| p == ".." || p.starts_with('.')) {
        return no_handler(&format!("/demo/{rel}"), "GET");
    }
    let path = dir.join(rel);
    match std::fs::read(&path) {
        Ok(body) => {
            let ct = match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
                "html" => "text/html; charset=UTF-8",
                "js" | "mjs" => "text/javascript",
                "wasm" => "application/wasm",
                "css" => "text/css",
                "json" => "application/json",
                "svg" => "image/svg+xml",
                "png" => "image/png",
                _ => "application/octet-stream",
            };
            Response { status: 200, headers: vec![("Content-Type".into(), ct.into())], body, key_name: None }
        }
        Err(_) => Response {
            status: 404,
            headers: vec![("Content-Type".into(), "text/plain; charset=UTF-8".into())],
            body: b"not found".to_vec(),
            key_name: None,
        },
    }
}
