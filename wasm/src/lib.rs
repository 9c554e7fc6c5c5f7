//! metagate for the browser: open the very same file the CLI writes, from bytes, and search
//! it with the Elasticsearch 6.8 API. Every method answers with the JSON the HTTP server
//! would send; failures throw a JS `Error` whose `status` is the HTTP status and whose
//! `body` is the Elasticsearch error JSON.

use metagate::Engine;
use serde_json::Value;
use wasm_bindgen::prelude::*;

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
    /// Opens a metagate file from its bytes (a `Uint8Array` copy of the `.redb` file).
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: &[u8]) -> Result<Metagate, JsValue> {
        Engine::from_bytes(bytes.to_vec()).map(|engine| Metagate { engine }).map_err(js_error)
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
