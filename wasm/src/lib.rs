//! metagate for the browser: open the very same file the CLI writes, from bytes, and search
//! it with the Elasticsearch 6.8 API. Every method answers with the JSON the HTTP server
//! would send; failures throw a JS `Error` whose `status` is the HTTP status and whose
//! `body` is the Elasticsearch error JSON.

use metagate::Engine;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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

fn params_of(query_string: &str) -> Vec<(String, String)> {
    query_string
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            let dec = |s: &str| {
                js_sys::decode_uri_component(&s.replace('+', " ")).map(String::from).unwrap_or_else(|_| s.to_string())
            };
            (dec(k), dec(v))
        })
        .collect()
}

/// An open metagate file image.
#[wasm_bindgen]
pub struct Metagate {
    engine: Engine,
}

#[wasm_bindgen]
impl Metagate {
    /// Opens a metagate file from its bytes: the `.redb` file the CLI writes, as a
    /// `Uint8Array` or an `ArrayBuffer` (copied; the caller's buffer is left untouched).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer")] bytes: JsValue,
    ) -> Result<Metagate, JsValue> {
        let image = image_of(&bytes)?;
        if image.len() < REDB_MAGIC.len() || image[..REDB_MAGIC.len()] != REDB_MAGIC {
            let what = if image.is_empty() { "the input is empty" } else { "it does not start with a redb header" };
            return Err(js_error(metagate::Error::illegal_argument(format!("not a metagate file: {what}"))));
        }
        Engine::from_bytes(image).map(|engine| Metagate { engine }).map_err(js_error)
    }

    /// Searches an index expression with a JSON body (string; "" = match_all); returns the
    /// response JSON string.
    pub fn search(&self, index: &str, body: &str) -> Result<String, JsValue> {
        self.engine.search(index, body).map(|v| v.to_string()).map_err(js_error)
    }

    /// Searches with URI parameters (`q=...&size=3`) over an optional JSON body.
    #[wasm_bindgen(js_name = searchUri)]
    pub fn search_uri(&self, index: &str, body: &str, params: &str) -> Result<String, JsValue> {
        self.engine.search_with(index, body, &params_of(params)).map(|v| v.to_string()).map_err(js_error)
    }

    /// Starts a scroll; the response carries `_scroll_id`.
    #[wasm_bindgen(js_name = scrollStart)]
    pub fn scroll_start(&self, index: &str, body: &str, keep_alive: &str) -> Result<String, JsValue> {
        self.engine.scroll_start(index, body, &[], keep_alive).map(|v| v.to_string()).map_err(js_error)
    }

    /// The next page of a scroll.
    #[wasm_bindgen(js_name = scrollNext)]
    pub fn scroll_next(&self, scroll_id: &str, keep_alive: Option<String>) -> Result<String, JsValue> {
        self.engine.scroll_next(scroll_id, keep_alive.as_deref()).map(|v| v.to_string()).map_err(js_error)
    }

    /// Clears scroll ids; returns `num_freed`.
    #[wasm_bindgen(js_name = clearScroll)]
    pub fn clear_scroll(&self, ids: Vec<String>) -> Result<u32, JsValue> {
        self.engine.clear_scroll(&ids).map(|n| n as u32).map_err(js_error)
    }

    /// Concrete indices as a JSON array string.
    pub fn indices(&self) -> Result<String, JsValue> {
        let list: Vec<Value> =
            self.engine.indices().map_err(js_error)?.iter().map(metagate::engine::index_info_json).collect();
        Ok(Value::Array(list).to_string())
    }

    /// Aliases as a JSON array string of `{alias, index}`.
    pub fn aliases(&self) -> Result<String, JsValue> {
        let list: Vec<Value> = self
            .engine
            .aliases()
            .map_err(js_error)?
            .into_iter()
            .map(|(a, i)| serde_json::json!({"alias": a, "index": i}))
            .collect();
        Ok(Value::Array(list).to_string())
    }

    /// The engine version.
    pub fn version() -> String {
        metagate::VERSION.to_string()
    }
}
