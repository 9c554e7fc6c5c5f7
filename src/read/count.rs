//! `_count`, as ES 6.8's RestCountAction answers it: the exact number of documents a
//! query matches, from the same search pipeline a search runs.

use crate::engine::Engine;
use crate::error::Result;
use crate::request::count::CountRequest;
use serde_json::{json, Map, Value};

/// The answer to a `_count`.
#[derive(Debug, Clone, PartialEq)]
pub struct CountResponse {
    /// `terminated_early`, shown only when the request gave `terminate_after`.
    pub terminated_early: Option<bool>,
    /// The number of matching documents.
    pub count: u64,
    /// Indices searched (one shard each).
    pub shards: usize,
}

impl CountResponse {
    /// ES's JSON: `{"count": N, "_shards": …}`, `terminated_early` first when given.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        if let Some(t) = self.terminated_early {
            out.insert("terminated_early".into(), json!(t));
        }
        out.insert("count".into(), json!(self.count));
        out.insert("_shards".into(), crate::search::response::shards(self.shards));
        Value::Object(out)
    }
}

impl Engine {
    /// Counts the documents of `index` (an expression) that the request's query matches.
    pub fn count(&self, index: &str, req: &CountRequest) -> Result<CountResponse> {
        let res = self.search_request(index, &req.search, req.indices)?;
        Ok(CountResponse {
            terminated_early: req.search.terminate_after.map(|_| res.terminated_early()),
            // A count always tracks the total.
            count: res.total().unwrap_or_default(),
            shards: res.shards,
        })
    }
}
