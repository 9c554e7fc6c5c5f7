//! The C ABI. Every function returns a status: `0` or an HTTP status for calls that
//! answer like the HTTP API (`200` on success, the ES error status otherwise). Output
//! strings are NUL-terminated UTF-8 JSON allocated by metagate; free them with
//! `mg_string_free` (and byte buffers with `mg_bytes_free`). No panic crosses this
//! boundary: a panic is caught and reported as a 500 error JSON.
//!
//! Threading: an `MgEngine` handle may be used by many threads at once for every call
//! except `mg_close`, which must be the last call on the handle (no other call may be
//! running or start afterwards). Loading and alias changes serialise on the file's write
//! lock; searches never block each other.

use crate::engine::Engine;
use crate::error::{Error, Exception};
use crate::gateway::call::Call;
use crate::gateway::{error_response, Gateway, Request, Response};
use crate::load::LoadOptions;
use serde_json::{json, Value};
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::ptr;

/// An open metagate file (opaque to C).
pub struct MgEngine {
    gateway: crate::gateway::Gateway,
}

/// Open mode for `mg_open`: existing file only.
pub const MG_OPEN_EXISTING: i32 = 0;
/// Open mode for `mg_open`: create the file when missing.
pub const MG_OPEN_CREATE: i32 = 1;

fn to_c(s: String) -> *mut c_char {
    // Interior NULs cannot occur in serde_json output; strip them defensively anyway.
    CString::new(s.replace('\0', "")).map(CString::into_raw).unwrap_or(ptr::null_mut())
}

unsafe fn set_out(out: *mut *mut c_char, s: String) {
    if !out.is_null() {
        *out = to_c(s);
    }
}

unsafe fn str_arg<'a>(p: *const c_char, name: &str) -> Result<&'a str, Error> {
    if p.is_null() {
        return Err(Error::illegal_argument(format!("[{name}] must not be NULL")));
    }
    CStr::from_ptr(p).to_str().map_err(|_| Error::illegal_argument(format!("[{name}] is not valid UTF-8")))
}

unsafe fn opt_str_arg<'a>(p: *const c_char, name: &str) -> Result<Option<&'a str>, Error> {
    if p.is_null() {
        Ok(None)
    } else {
        str_arg(p, name).map(Some)
    }
}

fn panic_error() -> Error {
    Error::new(500, Exception::new("exception", "internal error: a panic was caught at the C boundary"))
}

/// Runs `f`, writing its JSON (or the error JSON) to `out`; returns the status.
unsafe fn respond(out: *mut *mut c_char, f: impl FnOnce() -> Result<(u16, Value), Error>) -> i32 {
    answer(out, || {
        let (status, v) = f()?;
        Ok(Response { status, body: v.to_string().into_bytes(), ..Default::default() })
    })
}

unsafe fn engine<'a>(h: *const MgEngine) -> Result<&'a Engine, Error> {
    h.as_ref().map(|h| h.gateway.engine()).ok_or_else(|| Error::illegal_argument("engine handle is NULL"))
}

/// The library version as a static NUL-terminated string (do not free).
#[no_mangle]
pub extern "C" fn mg_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

/// Opens `path` (`mode`: `MG_OPEN_EXISTING` or `MG_OPEN_CREATE`). On success stores the
/// handle in `*out` and returns 0; on failure returns the error status and stores the ES
/// error JSON in `*err` (free it with `mg_string_free`).
///
/// # Safety
/// `path` must be a valid NUL-terminated string; `out` must be writable; `err` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn mg_open(
    path: *const c_char,
    mode: i32,
    out: *mut *mut MgEngine,
    err: *mut *mut c_char,
) -> i32 {
    let r = catch_unwind(AssertUnwindSafe(|| -> Result<Box<MgEngine>, Error> {
        let p = str_arg(path, "path")?;
        let engine = match mode {
            MG_OPEN_EXISTING => Engine::open(Path::new(p))?,
            MG_OPEN_CREATE => Engine::open_or_create(Path::new(p))?,
            other => {
                return Err(Error::illegal_argument(format!(
                    "unknown open mode [{other}]: use MG_OPEN_EXISTING (0) or MG_OPEN_CREATE (1)"
                )))
            }
        };
        let gateway = Gateway::new(std::sync::Arc::new(engine), crate::gateway::GatewayConfig::default());
        Ok(Box::new(MgEngine { gateway }))
    }));
    match r {
        Ok(Ok(h)) => {
            if !out.is_null() {
                *out = Box::into_raw(h);
            }
            0
        }
        Ok(Err(e)) => {
            set_out(err, e.to_json().to_string());
            e.status as i32
        }
        Err(_) => {
            set_out(err, panic_error().to_json().to_string());
            500
        }
    }
}

/// Closes a handle; NULL is ignored. No other call may use the handle afterwards.
///
/// # Safety
/// `h` must come from `mg_open` and not be closed twice.
#[no_mangle]
pub unsafe extern "C" fn mg_close(h: *mut MgEngine) {
    if !h.is_null() {
        let _ = catch_unwind(AssertUnwindSafe(|| drop(Box::from_raw(h))));
    }
}

/// Lets the engine's scripts use regexes (`/…/`, `=~`, `==~`) when `on` is nonzero, as
/// `metagate serve --script-regex` and ES's `script.painless.regex.enabled: true` do; `0`
/// turns them off again (ES 6.8's default: a script using one fails to compile). Applies
/// to the requests that start afterwards. Returns 0, or 400 for a NULL handle.
///
/// # Safety
/// `h` must come from `mg_open` (or be NULL).
#[no_mangle]
pub unsafe extern "C" fn mg_set_script_regex(h: *const MgEngine, on: i32) -> i32 {
    match catch_unwind(AssertUnwindSafe(|| engine(h).map(|e| e.set_script_regex(on != 0)))) {
        Ok(Ok(())) => 0,
        Ok(Err(e)) => e.status as i32,
        Err(_) => 500,
    }
}

/// Runs `f`, writing the body of the gateway answer it builds (or the error JSON) to
/// `out`; returns the status.
unsafe fn answer(out: *mut *mut c_char, f: impl FnOnce() -> Result<Response, Error>) -> i32 {
    let resp = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => error_response(&e, &[]),
        Err(_) => error_response(&panic_error(), &[]),
    };
    set_out(out, String::from_utf8_lossy(&resp.body).into_owned());
    resp.status as i32
}

unsafe fn gateway<'a>(h: *const MgEngine) -> Result<&'a Gateway, Error> {
    h.as_ref().map(|h| &h.gateway).ok_or_else(|| Error::illegal_argument("engine handle is NULL"))
}

/// Asks the in-process gateway: the HTTP API's answer to the same request.
unsafe fn call(h: *const MgEngine, call: Call) -> Result<Response, Error> {
    Ok(gateway(h)?.call(call))
}

/// A query-string argument (NULL: none).
unsafe fn query_arg<'a>(p: *const c_char) -> Result<&'a str, Error> {
    Ok(opt_str_arg(p, "params")?.unwrap_or(""))
}

/// A body argument (NULL: none).
unsafe fn body_arg<'a>(p: *const c_char) -> Result<&'a str, Error> {
    Ok(opt_str_arg(p, "body")?.unwrap_or(""))
}

/// Searches `index` (an ES index expression) with a JSON `body` (NULL or "" = match_all).
/// Returns 200 and the ES response in `*out`, or the error status and ES error JSON.
///
/// # Safety
/// Pointers must be valid NUL-terminated strings (body may be NULL); `out` writable.
#[no_mangle]
pub unsafe extern "C" fn mg_search(
    h: *const MgEngine,
    index: *const c_char,
    body: *const c_char,
    out: *mut *mut c_char,
) -> i32 {
    mg_search_uri(h, index, body, ptr::null(), out)
}

/// Search with URI parameters: `params` is a query string such as
/// `q=item.name:blast&size=3` (NULL or "" for none) applied over the JSON `body` (may be
/// NULL), exactly as the HTTP `_search` endpoint combines them.
///
/// # Safety
/// As `mg_search`.
#[no_mangle]
pub unsafe extern "C" fn mg_search_uri(
    h: *const MgEngine,
    index: *const c_char,
    body: *const c_char,
    params: *const c_char,
    out: *mut *mut c_char,
) -> i32 {
    answer(out, || {
        let (index, query, body) = (str_arg(index, "index")?, query_arg(params)?, body_arg(body)?);
        call(h, Call::search(index, query, body))
    })
}

/// Counts the documents of `index` matching the JSON `body`'s `query` (NULL or "" =
/// all, or the query string's `q`): 200 with `{"count":N,"_shards":{..}}`, as `_count`.
///
/// # Safety
/// As `mg_search_uri`.
#[no_mangle]
pub unsafe extern "C" fn mg_count(
    h: *const MgEngine,
    index: *const c_char,
    body: *const c_char,
    params: *const c_char,
    out: *mut *mut c_char,
) -> i32 {
    answer(out, || {
        let (index, query, body) = (str_arg(index, "index")?, query_arg(params)?, body_arg(body)?);
        call(h, Call::count(index, query, body))
    })
}

/// Runs an `_msearch` NDJSON `body` (header and body lines, newline-terminated); `index`
/// (may be NULL) applies where a header names none. 200 with `{"responses":[..]}`.
///
/// # Safety
/// As `mg_search_uri` (`index` and `params` may be NULL).
#[no_mangle]
pub unsafe extern "C" fn mg_msearch(
    h: *const MgEngine,
    index: *const c_char,
    body: *const c_char,
    params: *const c_char,
    out: *mut *mut c_char,
) -> i32 {
    answer(out, || {
        let (index, query, body) = (opt_str_arg(index, "index")?, query_arg(params)?, str_arg(body, "body")?);
        call(h, Call::msearch(index, query, body))
    })
}

/// Gets document `id` of type `doc_type` (`_doc`: any type) from `index`: 200 with the
/// document, or 404 with `"found":false`. `params` as GET's (`_source_includes=..`).
///
/// # Safety
/// As `mg_search_uri` (`params` may be NULL).
#[no_mangle]
pub unsafe extern "C" fn mg_get(
    h: *const MgEngine,
    index: *const c_char,
    doc_type: *const c_char,
    id: *const c_char,
    params: *const c_char,
    out: *mut *mut c_char,
) -> i32 {
    answer(out, || {
        let (index, doc_type) = (str_arg(index, "index")?, str_arg(doc_type, "doc_type")?);
        call(h, Call::get(index, doc_type, str_arg(id, "id")?, query_arg(params)?))
    })
}

/// `_mget`: the JSON `body` (`{"docs":[..]}` or `{"ids":[..]}` with `index`, which may
/// be NULL otherwise); 200 with `{"docs":[..]}`.
///
/// # Safety
/// As `mg_search_uri` (`index` and `params` may be NULL).
#[no_mangle]
pub unsafe extern "C" fn mg_mget(
    h: *const MgEngine,
    index: *const c_char,
    body: *const c_char,
    params: *const c_char,
    out: *mut *mut c_char,
) -> i32 {
    answer(out, || {
        let (index, query, body) = (opt_str_arg(index, "index")?, query_arg(params)?, str_arg(body, "body")?);
        call(h, Call::mget(index, query, body))
    })
}

/// The mappings of `index` (NULL: every index), keyed by index and type as `_mapping`
/// answers them (`include_type_name=false` in `params` drops the type level).
///
/// # Safety
/// As `mg_search_uri` (`index` and `params` may be NULL).
#[no_mangle]
pub unsafe extern "C" fn mg_get_mapping(
    h: *const MgEngine,
    index: *const c_char,
    params: *const c_char,
    out: *mut *mut c_char,
) -> i32 {
    answer(out, || call(h, Call::mapping(opt_str_arg(index, "index")?, query_arg(params)?)))
}

/// Starts a scroll (`keep_alive` such as "1m"); the response carries `_scroll_id`.
///
/// # Safety
/// As `mg_search`.
#[no_mangle]
pub unsafe extern "C" fn mg_scroll_start(
    h: *const MgEngine,
    index: *const c_char,
    body: *const c_char,
    keep_alive: *const c_char,
    out: *mut *mut c_char,
) -> i32 {
    answer(out, || {
        let (index, keep_alive) = (str_arg(index, "index")?, str_arg(keep_alive, "keep_alive")?);
        call(h, Call::scroll_start(index, keep_alive, body_arg(body)?))
    })
}

/// Next page of a scroll; `keep_alive` NULL ends keep-alive renewal (no `_scroll_id`).
///
/// # Safety
/// As `mg_search`.
#[no_mangle]
pub unsafe extern "C" fn mg_scroll_next(
    h: *const MgEngine,
    scroll_id: *const c_char,
    keep_alive: *const c_char,
    out: *mut *mut c_char,
) -> i32 {
    answer(out, || {
        let scroll_id = str_arg(scroll_id, "scroll_id")?;
        call(h, Call::scroll_next(scroll_id, opt_str_arg(keep_alive, "keep_alive")?))
    })
}

/// Clears scrolls: `ids_json` is a JSON string or array of ids (or "_all"). Returns 200
/// with `{"succeeded":true,"num_freed":N}`, or 404 with the same body when nothing was freed.
///
/// # Safety
/// As `mg_search`.
#[no_mangle]
pub unsafe extern "C" fn mg_scroll_clear(h: *const MgEngine, ids_json: *const c_char, out: *mut *mut c_char) -> i32 {
    answer(out, || {
        let raw = str_arg(ids_json, "ids_json")?;
        let ids = match serde_json::from_str::<Value>(raw) {
            Ok(Value::String(s)) => vec![s],
            Ok(Value::Array(a)) => a
                .into_iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s),
                    other => Err(Error::illegal_argument(format!("[ids_json] holds a non-string id: {other}"))),
                })
                .collect::<Result<_, _>>()?,
            _ => vec![raw.to_string()],
        };
        call(h, Call::clear_scroll(ids))
    })
}

/// Loads NDJSON (`_bulk` or JSON lines, gzip accepted) from the file `path` into a new
/// index, optionally pointing `alias` at it. `options_json` (may be NULL) takes the
/// fields `family`, `id_field`, `type`, `create_body` (an ES 6.8 create-index body),
/// `mapping`, `max_errors`, `max_result_window`, `replace`, `memory`, `config` (the
/// configuration folder `synonyms_path` files are read from).
/// Returns 200 and a report `{"docs":N,"errors":[{"line":L,"reason":R}],...}`.
///
/// # Safety
/// As `mg_search`; `alias` and `options_json` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn mg_load_file(
    h: *const MgEngine,
    index: *const c_char,
    path: *const c_char,
    alias: *const c_char,
    options_json: *const c_char,
    out: *mut *mut c_char,
) -> i32 {
    respond(out, || {
        let e = engine(h)?;
        let file = std::fs::File::open(str_arg(path, "path")?)?;
        load(
            e,
            str_arg(index, "index")?,
            file,
            opt_str_arg(alias, "alias")?,
            opt_str_arg(options_json, "options_json")?,
        )
    })
}

/// As `mg_load_file`, from a memory buffer.
///
/// # Safety
/// `data` must point to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn mg_load_bytes(
    h: *const MgEngine,
    index: *const c_char,
    data: *const u8,
    len: usize,
    alias: *const c_char,
    options_json: *const c_char,
    out: *mut *mut c_char,
) -> i32 {
    respond(out, || {
        let e = engine(h)?;
        if data.is_null() && len > 0 {
            return Err(Error::illegal_argument("[data] must not be NULL"));
        }
        let bytes: &[u8] = if len == 0 { &[] } else { std::slice::from_raw_parts(data, len) };
        load(
            e,
            str_arg(index, "index")?,
            bytes,
            opt_str_arg(alias, "alias")?,
            opt_str_arg(options_json, "options_json")?,
        )
    })
}

fn load(
    e: &Engine,
    index: &str,
    input: impl std::io::Read,
    alias: Option<&str>,
    options: Option<&str>,
) -> Result<(u16, Value), Error> {
    let mut opts = LoadOptions::from_json(options.unwrap_or(""))?;
    if let Some(a) = alias {
        opts.alias = Some(a.to_string());
    }
    let report = e.load(index, input, &opts, &mut |_, _| {})?;
    Ok((200, report.to_json(index)))
}

/// Lists indices: `[{"index","docs.count","store.size","aliases","generation"}]`.
///
/// # Safety
/// `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn mg_indices(h: *const MgEngine, out: *mut *mut c_char) -> i32 {
    respond(out, || Ok((200, engine(h)?.indices_json()?)))
}

/// Lists aliases: `[{"alias","index"}]`.
///
/// # Safety
/// `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn mg_aliases(h: *const MgEngine, out: *mut *mut c_char) -> i32 {
    respond(out, || Ok((200, engine(h)?.aliases_json()?)))
}

/// Answers one HTTP-shaped request exactly as `metagate serve` would (routes, API keys,
/// CORS, errors), without sockets. `headers_json` is a JSON object of header names to
/// values (may be NULL). Returns the HTTP status; `*out_headers` receives a JSON array of
/// `[name, value]` pairs, `*out_body`/`*out_body_len` the body (free with `mg_bytes_free`).
///
/// # Safety
/// Strings must be valid NUL-terminated UTF-8 (headers_json may be NULL); `body` must
/// point to `body_len` bytes (or be NULL with 0); the out pointers must be writable.
#[no_mangle]
pub unsafe extern "C" fn mg_gateway(
    h: *const MgEngine,
    method: *const c_char,
    path: *const c_char,
    headers_json: *const c_char,
    body: *const u8,
    body_len: usize,
    out_headers: *mut *mut c_char,
    out_body: *mut *mut u8,
    out_body_len: *mut usize,
) -> i32 {
    let args = (method, path, headers_json, body, body_len);
    raw_request(h, Gateway::handle, args, out_headers, out_body, out_body_len)
}

/// Answers one HTTP-shaped request as an in-process door: like `mg_gateway` (same
/// arguments, routes, checks and answers) without the API key, the rate limit and the
/// body cap, which guard a port. For clients that send any endpoint's request themselves
/// (the Python package's in-process Elasticsearch client).
///
/// # Safety
/// As `mg_gateway`.
#[no_mangle]
pub unsafe extern "C" fn mg_gateway_local(
    h: *const MgEngine,
    method: *const c_char,
    path: *const c_char,
    headers_json: *const c_char,
    body: *const u8,
    body_len: usize,
    out_headers: *mut *mut c_char,
    out_body: *mut *mut u8,
    out_body_len: *mut usize,
) -> i32 {
    let args = (method, path, headers_json, body, body_len);
    raw_request(h, Gateway::handle_in_process, args, out_headers, out_body, out_body_len)
}

/// The arguments of an HTTP-shaped request: method, path, headers JSON, body and length.
type RawArgs = (*const c_char, *const c_char, *const c_char, *const u8, usize);

/// Reads an HTTP-shaped request, answers it with `answer` and writes the response out.
unsafe fn raw_request(
    h: *const MgEngine,
    answer: fn(&Gateway, &Request) -> Response,
    (method, path, headers_json, body, body_len): RawArgs,
    out_headers: *mut *mut c_char,
    out_body: *mut *mut u8,
    out_body_len: *mut usize,
) -> i32 {
    let run = || -> Result<Response, Error> {
        let g = gateway(h)?;
        let headers: Vec<(String, String)> = match opt_str_arg(headers_json, "headers_json")? {
            Some(s) if !s.trim().is_empty() => match serde_json::from_str::<Value>(s) {
                Ok(Value::Object(m)) => m
                    .into_iter()
                    .map(|(k, v)| (k, v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())))
                    .collect(),
                _ => return Err(Error::illegal_argument("[headers_json] must be a JSON object")),
            },
            _ => Vec::new(),
        };
        let body = if body.is_null() || body_len == 0 {
            Vec::new()
        } else {
            std::slice::from_raw_parts(body, body_len).to_vec()
        };
        let req = Request {
            method: str_arg(method, "method")?.to_string(),
            path: str_arg(path, "path")?.to_string(),
            headers,
            body,
        };
        Ok(answer(g, &req))
    };
    let resp = match catch_unwind(AssertUnwindSafe(run)) {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => error_response(&e, &[]),
        Err(_) => error_response(&panic_error(), &[]),
    };
    let headers = Value::Array(resp.headers.iter().map(|(k, v)| json!([k, v])).collect());
    set_out(out_headers, headers.to_string());
    let mut bytes = resp.body.into_boxed_slice();
    if !out_body_len.is_null() {
        *out_body_len = bytes.len();
    }
    if !out_body.is_null() {
        *out_body = if bytes.is_empty() { ptr::null_mut() } else { bytes.as_mut_ptr() };
        if !bytes.is_empty() {
            std::mem::forget(bytes);
        }
    }
    resp.status as i32
}

/// Frees a string returned by metagate; NULL is ignored.
///
/// # Safety
/// `s` must come from metagate and be freed once.
#[no_mangle]
pub unsafe extern "C" fn mg_string_free(s: *mut c_char) {
    if !s.is_null() {
        drop(CString::from_raw(s));
    }
}

/// Frees a byte buffer returned by metagate (with its length); NULL is ignored.
///
/// # Safety
/// `p`/`len` must come from metagate and be freed once.
#[no_mangle]
pub unsafe extern "C" fn mg_bytes_free(p: *mut u8, len: usize) {
    if !p.is_null() {
        drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, len)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_process_calls_answer_as_the_http_api() {
        let dir = std::env::temp_dir().join(format!("mg-ffi-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = CString::new(dir.join("t.redb").to_string_lossy().as_ref()).unwrap();
        let text = |p: *mut c_char| unsafe { CStr::from_ptr(p).to_string_lossy().into_owned() };
        unsafe {
            let mut h: *mut MgEngine = ptr::null_mut();
            assert_eq!(mg_open(path.as_ptr(), MG_OPEN_CREATE, &mut h, ptr::null_mut()), 0);
            let data = b"{\"id\":\"a/1\",\"name\":\"blast aligner\"}\n{\"id\":\"b\",\"name\":\"other\"}\n";
            let (idx, opts) = (CString::new("tools").unwrap(), CString::new(r#"{"id_field":"id"}"#).unwrap());
            let mut out: *mut c_char = ptr::null_mut();
            let st = mg_load_bytes(h, idx.as_ptr(), data.as_ptr(), data.len(), ptr::null(), opts.as_ptr(), &mut out);
            assert_eq!(st, 200, "{}", text(out));
            mg_string_free(out);
            // URI parameters go through the gateway's own parsing and checks.
            let qs = CString::new("q=name:blast&size=1&filter_path=hits.total").unwrap();
            assert_eq!(mg_search_uri(h, idx.as_ptr(), ptr::null(), qs.as_ptr(), &mut out), 200);
            assert_eq!(text(out), r#"{"hits":{"total":1}}"#);
            mg_string_free(out);
            let bad = CString::new("sise=1").unwrap();
            assert_eq!(mg_search_uri(h, idx.as_ptr(), ptr::null(), bad.as_ptr(), &mut out), 400);
            assert!(text(out).contains("request [/elastic/v1/tools/_search] contains unrecognized parameter: [sise] -> did you mean [size]?"), "{}", text(out));
            mg_string_free(out);
            // An id with a slash is one path segment.
            let (ty, id) = (CString::new("_doc").unwrap(), CString::new("a/1").unwrap());
            assert_eq!(mg_get(h, idx.as_ptr(), ty.as_ptr(), id.as_ptr(), ptr::null(), &mut out), 200, "{}", text(out));
            assert!(text(out).contains(r#""_id":"a/1""#));
            mg_string_free(out);
            // A raw request: the port's door wants a key, the in-process door does not.
            let (get, count) = (CString::new("GET").unwrap(), CString::new("/elastic/v1/tools/_count").unwrap());
            type Door = unsafe extern "C" fn(
                *const MgEngine,
                *const c_char,
                *const c_char,
                *const c_char,
                *const u8,
                usize,
                *mut *mut c_char,
                *mut *mut u8,
                *mut usize,
            ) -> i32;
            let ask = |door: Door| {
                let (mut headers, mut body, mut len): (*mut c_char, *mut u8, usize) =
                    (ptr::null_mut(), ptr::null_mut(), 0);
                let st = door(
                    h,
                    get.as_ptr(),
                    count.as_ptr(),
                    ptr::null(),
                    ptr::null(),
                    0,
                    &mut headers,
                    &mut body,
                    &mut len,
                );
                assert!(!body.is_null());
                let answer = String::from_utf8_lossy(std::slice::from_raw_parts(body, len)).into_owned();
                mg_string_free(headers);
                mg_bytes_free(body, len);
                (st, answer)
            };
            assert_eq!(ask(mg_gateway).0, 401);
            let (st, answer) = ask(mg_gateway_local);
            assert_eq!(st, 200, "{answer}");
            assert!(answer.starts_with(r#"{"count":2,"#), "{answer}");
            mg_close(h);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn errors_cross_as_json_and_status() {
        unsafe {
            let mut h: *mut MgEngine = ptr::null_mut();
            let mut err: *mut c_char = ptr::null_mut();
            let path = CString::new("/nonexistent/dir/x.redb").unwrap();
            let st = mg_open(path.as_ptr(), MG_OPEN_EXISTING, &mut h, &mut err);
            assert_eq!(st, 500);
            assert!(CStr::from_ptr(err).to_str().unwrap().contains("storage_exception"));
            mg_string_free(err);
            let mut out: *mut c_char = ptr::null_mut();
            let idx = CString::new("x").unwrap();
            assert_eq!(mg_search(ptr::null(), idx.as_ptr(), ptr::null(), &mut out), 400);
            mg_string_free(out);
        }
    }
}
