//! metagate for the browser: open the very same file the CLI writes, from bytes, and search
//! it with the Elasticsearch 6.8 API. Every method answers with the JSON the HTTP server
//! would send; failures throw a JS `Error` whose `status` is the HTTP status and whose
//! `body` is the Elasticsearch error JSON.

use metagate::gateway::call::Call;
use metagate::gateway::{Gateway, GatewayConfig, Response};
use metagate::Engine;
use metagate::{ChunkPolicy, ImageSource};
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/js/range.js")]
extern "C" {
    /// One synchronous HTTP range request (see js/range.js).
    #[wasm_bindgen(js_name = rangeRead, catch)]
    fn range_read(url: &str, offset: f64, length: f64) -> Result<RangeAnswer, JsValue>;

    type RangeAnswer;
    #[wasm_bindgen(method, getter)]
    fn bytes(this: &RangeAnswer) -> js_sys::Uint8Array;
    #[wasm_bindgen(method, getter)]
    fn total(this: &RangeAnswer) -> f64;
    #[wasm_bindgen(method, getter)]
    fn etag(this: &RangeAnswer) -> String;
}

/// Every redb file starts with these bytes; checking them first turns "this is not a
/// metagate file at all" into a plain message instead of a storage error.
const REDB_MAGIC: [u8; 9] = [b'r', b'e', b'd', b'b', 0x1A, 0x0A, 0xA9, 0x0D, 0x0A];

/// The file image as one owned vector: a `Uint8Array` (any view) or an `ArrayBuffer`,
/// copied once into WASM memory.
fn image_of(bytes: &JsValue) -> Result<Vec<u8>, JsValue> {
    if let Some(view) = bytes.dyn_ref::<js_sys::Uint8Array>() {
        return Ok(view.to_vec());
    }
    if let Some(buf) = bytes.dyn_ref::<js_sys::ArrayBuffer>() {
        return Ok(js_sys::Uint8Array::new(buf).to_vec());
    }
    Err(js_error(metagate::Error::illegal_argument("a metagate file is opened from a Uint8Array or an ArrayBuffer")))
}

/// Refuses what does not start like a redb file, with a plain message.
fn check_magic(head: &[u8]) -> Result<(), JsValue> {
    if head.len() < REDB_MAGIC.len() || head[..REDB_MAGIC.len()] != REDB_MAGIC {
        let what = if head.is_empty() { "the input is empty" } else { "it does not start with a redb header" };
        return Err(js_error(metagate::Error::illegal_argument(format!("not a metagate file: {what}"))));
    }
    Ok(())
}

#[wasm_bindgen(typescript_custom_section)]
const TS_ERROR: &str = r#"
/** What every method throws: `status` is the HTTP status the server would answer,
 * `body` the Elasticsearch error JSON. */
export interface MetagateError extends Error {
    status: number;
    body: string;
}
"#;

/// The JS `Error` for an engine error (see `MetagateError` in the TypeScript definitions).
fn js_error(e: metagate::Error) -> JsValue {
    let body = e.to_json().to_string();
    let err = js_sys::Error::new(&format!("{} {}", e.status, e.reason()));
    let _ = js_sys::Reflect::set(&err, &"status".into(), &JsValue::from(e.status));
    let _ = js_sys::Reflect::set(&err, &"body".into(), &JsValue::from_str(&body));
    err.into()
}

/// The body of a success, or the JS `Error` the rest become (`status`, and `body` with
/// the Elasticsearch error JSON, or a missing document's `found: false`).
fn answer(resp: Response) -> Result<String, JsValue> {
    let body = String::from_utf8_lossy(&resp.body).into_owned();
    if (200..300).contains(&resp.status) {
        return Ok(body);
    }
    let reason = serde_json::from_str::<Value>(&body)
        .ok()
        .and_then(|v| v.pointer("/error/reason").and_then(Value::as_str).map(str::to_string));
    let err = js_sys::Error::new(&match reason {
        Some(r) => format!("{} {r}", resp.status),
        None => resp.status.to_string(),
    });
    let _ = js_sys::Reflect::set(&err, &"status".into(), &JsValue::from(resp.status));
    let _ = js_sys::Reflect::set(&err, &"body".into(), &JsValue::from_str(&body));
    Err(err.into())
}

/// Requests made and bytes fetched by a lazily opened image.
#[derive(Debug, Default)]
struct FetchCount {
    requests: AtomicU64,
    bytes: AtomicU64,
}

/// Where a lazily opened image's bytes come from.
enum Reader {
    /// Range requests to a URL; every answer must carry the ETag of the first (the file
    /// must not change under the reader).
    Url { url: String, etag: String },
    /// A JS function `(offset, length) => Uint8Array`.
    Callback(js_sys::Function),
}

/// An image read through JS, synchronously.
struct JsSource {
    reader: Reader,
    len: u64,
    count: Arc<FetchCount>,
}

// SAFETY: the module is built for wasm32-unknown-unknown without the atomics feature, so
// there is exactly one thread and the JS handles never cross threads. redb's backend
// trait requires Send + Sync only because native builds may share a database.
unsafe impl Send for JsSource {}
unsafe impl Sync for JsSource {}

fn io_error(e: JsValue) -> std::io::Error {
    let text = e
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"));
    std::io::Error::other(text)
}

impl ImageSource for JsSource {
    fn len(&self) -> std::io::Result<u64> {
        Ok(self.len)
    }

    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        let bytes = match &self.reader {
            Reader::Url { url, etag } => {
                let answer = range_read(url, offset as f64, out.len() as f64).map_err(io_error)?;
                if answer.etag() != *etag || answer.total() as u64 != self.len {
                    return Err(std::io::Error::other(format!(
                        "{url} changed on the server since it was opened: open it again"
                    )));
                }
                answer.bytes()
            }
            Reader::Callback(read) => {
                let got = read.call2(&JsValue::NULL, &(offset as f64).into(), &(out.len() as f64).into());
                got.map_err(io_error)?
                    .dyn_into::<js_sys::Uint8Array>()
                    .map_err(|_| std::io::Error::other("the read function must return a Uint8Array"))?
            }
        };
        if bytes.length() as usize != out.len() {
            return Err(std::io::Error::other(format!(
                "asked for {} bytes at {offset}, got {}",
                out.len(),
                bytes.length()
            )));
        }
        bytes.copy_to(out);
        self.count.requests.fetch_add(1, Ordering::Relaxed);
        self.count.bytes.fetch_add(out.len() as u64, Ordering::Relaxed);
        Ok(())
    }
}

#[wasm_bindgen(typescript_custom_section)]
const TS_LAZY: &str = r#"
/** How a file is opened: `scriptRegex` lets scripts use regexes (`/.../`, `=~`, `==~`),
 * as `metagate serve --script-regex` and ES's `script.painless.regex.enabled` do (off by
 * default, as in ES 6.8). */
export interface OpenOptions {
    scriptRegex?: boolean;
}

/** How a lazily opened file is fetched: in aligned chunks of `chunkBytes` (default
 * 65536), keeping at most `cacheBytes` of them (default 64 MiB). */
export interface LazyOptions extends OpenOptions {
    chunkBytes?: number;
    cacheBytes?: number;
}

/** What a lazily opened file has fetched so far, and its length. */
export interface FetchStats {
    requests: number;
    bytes: number;
    size: number;
}
"#;

/// The chunk policy from `{chunkBytes, cacheBytes}` (either may be missing).
fn policy_of(options: &JsValue) -> Result<ChunkPolicy, JsValue> {
    let mut policy = ChunkPolicy::default();
    if options.is_undefined() || options.is_null() {
        return Ok(policy);
    }
    let field = |name: &str, max: f64| -> Result<Option<u64>, JsValue> {
        let v = js_sys::Reflect::get(options, &name.into())?;
        if v.is_undefined() {
            return Ok(None);
        }
        match v.as_f64() {
            Some(n) if n.fract() == 0.0 && n >= 1.0 && n <= max => Ok(Some(n as u64)),
            _ => Err(js_error(metagate::Error::illegal_argument(format!(
                "[{name}] must be a whole number of bytes from 1 to {max}"
            )))),
        }
    };
    if let Some(n) = field("chunkBytes", (16u64 << 20) as f64)? {
        policy.chunk_bytes = n;
    }
    if let Some(n) = field("cacheBytes", (1u64 << 31) as f64)? {
        policy.cache_bytes = n;
    }
    Ok(policy)
}

/// `scriptRegex` of the open options (either kind; missing: off).
fn script_regex_of(options: &JsValue) -> Result<bool, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(false);
    }
    let v = js_sys::Reflect::get(options, &"scriptRegex".into())?;
    if v.is_undefined() {
        return Ok(false);
    }
    v.as_bool().ok_or_else(|| js_error(metagate::Error::illegal_argument("[scriptRegex] must be a boolean")))
}

/// An open metagate file image.
#[wasm_bindgen]
pub struct Metagate {
    /// The gateway every method asks, in process: the HTTP API's answers.
    gateway: Gateway,
    /// What a lazily opened image fetched, and its length (none for an image opened from
    /// bytes).
    fetched: Option<(Arc<FetchCount>, u64)>,
}

#[wasm_bindgen]
impl Metagate {
    /// Opens a metagate file from its bytes: the `.redb` file the CLI writes, as a
    /// `Uint8Array` or an `ArrayBuffer` (copied; the caller's buffer is left untouched),
    /// with `OpenOptions`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer")] bytes: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "OpenOptions")] options: JsValue,
    ) -> Result<Metagate, JsValue> {
        let script_regex = script_regex_of(&options)?;
        let image = image_of(&bytes)?;
        check_magic(&image)?;
        Engine::from_bytes(image).map(|engine| Metagate::over(engine, None, script_regex)).map_err(js_error)
    }

    /// Opens a metagate file at `url` lazily, over HTTP range requests: only the pages the
    /// searches touch are fetched, in chunks (see `LazyOptions`). The requests are
    /// synchronous, so this works in a Web Worker (not on a page's main thread, and not
    /// in Node, which has no XMLHttpRequest: use `fromReader` there).
    #[wasm_bindgen(js_name = openUrl)]
    pub fn open_url(
        url: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "LazyOptions")] options: JsValue,
    ) -> Result<Metagate, JsValue> {
        let policy = policy_of(&options)?;
        // The first chunk tells the length and the validator every later answer must carry.
        let first = range_read(url, 0.0, REDB_MAGIC.len() as f64)
            .map_err(|e| js_error(metagate::Error::storage(format!("cannot open metagate image: {}", io_error(e)))))?;
        check_magic(&first.bytes().to_vec())?;
        let reader = Reader::Url { url: url.to_string(), etag: first.etag() };
        let source = JsSource { reader, len: first.total() as u64, count: Arc::default() };
        Metagate::lazy(source, policy, script_regex_of(&options)?)
    }

    /// Opens a metagate file lazily through `read(offset, length)`, a function that returns
    /// exactly that many bytes of the file as a `Uint8Array` (a `FileReaderSync` over a
    /// picked `File` in a worker, `fs.readSync` in Node); `size` is the file's length.
    #[wasm_bindgen(js_name = fromReader)]
    pub fn from_reader(
        #[wasm_bindgen(unchecked_param_type = "(offset: number, length: number) => Uint8Array")] read: js_sys::Function,
        size: f64,
        #[wasm_bindgen(unchecked_optional_param_type = "LazyOptions")] options: JsValue,
    ) -> Result<Metagate, JsValue> {
        let policy = policy_of(&options)?;
        if !(size.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&size)) {
            return Err(js_error(metagate::Error::illegal_argument("[size] must be the file's length in bytes")));
        }
        let source = JsSource { reader: Reader::Callback(read), len: size as u64, count: Arc::default() };
        let mut head = [0u8; REDB_MAGIC.len()];
        if source.len >= head.len() as u64 {
            source.read_at(0, &mut head).map_err(|e| js_error(metagate::Error::storage(e.to_string())))?;
        }
        check_magic(if source.len >= head.len() as u64 { &head } else { &[] })?;
        Metagate::lazy(source, policy, script_regex_of(&options)?)
    }

    fn lazy(source: JsSource, policy: ChunkPolicy, script_regex: bool) -> Result<Metagate, JsValue> {
        let fetched = (source.count.clone(), source.len);
        let engine = Engine::from_source(source, policy).map_err(js_error)?;
        Ok(Metagate::over(engine, Some(fetched), script_regex))
    }

    fn over(engine: Engine, fetched: Option<(Arc<FetchCount>, u64)>, script_regex: bool) -> Metagate {
        engine.set_script_regex(script_regex);
        Metagate { gateway: Gateway::new(Arc::new(engine), GatewayConfig::default()), fetched }
    }

    fn call(&self, call: Call) -> Result<String, JsValue> {
        answer(self.gateway.call(call))
    }

    /// For a lazily opened file, the requests made and bytes fetched so far, and the
    /// file's length; `undefined` for a file opened from bytes.
    #[wasm_bindgen(js_name = fetchStats, unchecked_return_type = "FetchStats | undefined")]
    pub fn fetch_stats(&self) -> JsValue {
        let Some((count, size)) = &self.fetched else { return JsValue::UNDEFINED };
        let out = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&out, &"size".into(), &(*size as f64).into());
        let _ = js_sys::Reflect::set(&out, &"requests".into(), &(count.requests.load(Ordering::Relaxed) as f64).into());
        let _ = js_sys::Reflect::set(&out, &"bytes".into(), &(count.bytes.load(Ordering::Relaxed) as f64).into());
        out.into()
    }

    /// Searches an index expression with a JSON body (string; "" = match_all); returns the
    /// response JSON string.
    pub fn search(&self, index: &str, body: &str) -> Result<String, JsValue> {
        self.call(Call::search(index, "", body))
    }

    /// Searches with URI parameters (`q=...&size=3`) over an optional JSON body.
    #[wasm_bindgen(js_name = searchUri)]
    pub fn search_uri(&self, index: &str, body: &str, params: &str) -> Result<String, JsValue> {
        self.call(Call::search(index, params, body))
    }

    /// Starts a scroll; the response carries `_scroll_id`.
    #[wasm_bindgen(js_name = scrollStart)]
    pub fn scroll_start(&self, index: &str, body: &str, keep_alive: &str) -> Result<String, JsValue> {
        self.call(Call::scroll_start(index, keep_alive, body))
    }

    /// The next page of a scroll.
    #[wasm_bindgen(js_name = scrollNext)]
    pub fn scroll_next(&self, scroll_id: &str, keep_alive: Option<String>) -> Result<String, JsValue> {
        self.call(Call::scroll_next(scroll_id, keep_alive.as_deref()))
    }

    /// Clears scroll ids; returns `num_freed`.
    #[wasm_bindgen(js_name = clearScroll)]
    pub fn clear_scroll(&self, ids: Vec<String>) -> Result<u32, JsValue> {
        let resp = self.gateway.call(Call::clear_scroll(ids));
        // Nothing freed is ES's 404 over HTTP; here it is the count 0.
        let body = if resp.status == 404 { String::from_utf8_lossy(&resp.body).into_owned() } else { answer(resp)? };
        let freed = serde_json::from_str::<Value>(&body).ok().and_then(|v| v["num_freed"].as_u64()).unwrap_or(0);
        Ok(freed as u32)
    }

    /// Counts the documents an index expression's `{"query": ..}` body (or `q=` in
    /// `params`) matches: `{"count": N, "_shards": ..}` as `_count` answers.
    pub fn count(&self, index: &str, body: &str, params: &str) -> Result<String, JsValue> {
        self.call(Call::count(index, params, body))
    }

    /// Runs an `_msearch` NDJSON body (newline-terminated); `index` applies where a header
    /// names none. Each search answers in `responses`.
    pub fn msearch(&self, index: Option<String>, body: &str, params: &str) -> Result<String, JsValue> {
        self.call(Call::msearch(index.as_deref(), params, body))
    }

    /// The document `id` (`docType` defaults to `_doc`, which matches any type); a
    /// missing one throws with `status` 404 and the `found: false` body.
    pub fn get(&self, index: &str, id: &str, doc_type: Option<String>, params: &str) -> Result<String, JsValue> {
        self.call(Call::get(index, doc_type.as_deref().unwrap_or("_doc"), id, params))
    }

    /// Documents by id: `{"docs": [..]}` or `{"ids": [..]}` with `index`.
    pub fn mget(&self, index: Option<String>, body: &str, params: &str) -> Result<String, JsValue> {
        self.call(Call::mget(index.as_deref(), params, body))
    }

    /// Mappings by index and type, as `_mapping` answers (`include_type_name=false` in
    /// `params` drops the type level).
    #[wasm_bindgen(js_name = getMapping)]
    pub fn get_mapping(&self, index: Option<String>, params: &str) -> Result<String, JsValue> {
        self.call(Call::mapping(index.as_deref(), params))
    }

    /// Concrete indices as a JSON array string.
    pub fn indices(&self) -> Result<String, JsValue> {
        self.gateway.engine().indices_json().map(|v| v.to_string()).map_err(js_error)
    }

    /// Aliases as a JSON array string of `{alias, index}`.
    pub fn aliases(&self) -> Result<String, JsValue> {
        self.gateway.engine().aliases_json().map(|v| v.to_string()).map_err(js_error)
    }

    /// The engine version.
    pub fn version() -> String {
        metagate::VERSION.to_string()
    }
}
