//! `_msearch`, as ES 6.8's MultiSearchResponse writes it: each search of the request
//! answered on its own (a failure is that item's `error` with its `status`), in order,
//! under `responses`.

use crate::budget;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::request::msearch::MsearchRequest;
use crate::search::json_out::Object;
use serde_json::Value;

/// The breaker label of the item answers an `_msearch` holds until it is sent (ES 6.8
/// has no breaker for them: it names them in its `<...>` style).
pub const MSEARCH_LABEL: &str = "<msearch>";

/// The answer to an `_msearch`, written as JSON bytes as it was computed (each item's
/// answer is held as bytes from when it is ready, within the request's breaker).
#[derive(Debug, Clone, PartialEq)]
pub struct MsearchResponse {
    bytes: Vec<u8>,
}

impl MsearchResponse {
    /// ES's JSON: each response as `_search` writes it, then its `status`.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The response as a JSON tree (read back from its bytes).
    pub fn to_value(&self) -> Result<Value> {
        serde_json::from_slice(&self.bytes).map_err(|e| Error::storage(format!("response is not JSON: {e}")))
    }
}

impl Engine {
    /// Runs every search of an `_msearch`, each through the search pipeline.
    pub fn msearch(&self, req: MsearchRequest) -> MsearchResponse {
        let mut out = Vec::new();
        let mut top = Object::start(&mut out);
        let list = top.key("responses");
        list.push(b'[');
        for (i, mut item) in req.items.into_iter().enumerate() {
            if i > 0 {
                list.push(b',');
            }
            // Each search counts its `timeout` from its own start, as ES's do.
            item.search.start_clock();
            let held = budget::charged();
            let answer = item.indices.and_then(|opts| self.search_request(&item.index, &item.search, opts));
            // What the search charged while it built its answer (hits, buckets) is given
            // back: the answer is held from here on as the bytes written below.
            budget::discharge(budget::charged().saturating_sub(held));
            let at = list.len();
            write_item(list, answer);
            // The answers written so far stay in memory until the response is sent: an
            // item that would pass the request's breaker answers the breaker's 429 in
            // their place, as ES answers an item that trips a breaker, and the response
            // stays within the limit.
            if let Err(e) = budget::charge(list.len() - at, MSEARCH_LABEL) {
                list.truncate(at);
                write_item(list, Err(e));
            }
        }
        list.push(b']');
        top.end();
        MsearchResponse { bytes: out }
    }
}

/// Writes one item of `responses`: the search's answer and status 200, or its error and
/// that error's status.
fn write_item(list: &mut Vec<u8>, answer: Result<crate::search::response::SearchResponse>) {
    let mut o = Object::start(list);
    match answer {
        Ok(r) => {
            r.write_members(&mut o);
            o.int("status", 200);
        }
        Err(e) => {
            o.value("error", &e.to_json()["error"]);
            o.int("status", i64::from(e.status));
        }
    }
    o.end();
}
