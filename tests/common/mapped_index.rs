//! An index made from a create-index body and bulk documents, queried through the
//! gateway in process: the fixture of the mapping and field-type tests.

use metagate::gateway::{Gateway, GatewayConfig, Request};
use metagate::{Engine, LoadOptions, LoadReport};
use serde_json::{json, Value};
use std::sync::Arc;

/// A loaded index `test` and the load's report.
pub struct Index {
    pub gateway: Gateway,
    pub report: LoadReport,
}

/// Loads bulk `docs` (`(id, source)` pairs) into `test` with the create-index `body`.
pub fn index(tag: &str, body: Value, docs: &[(&str, Value)]) -> Index {
    let e = Engine::open_or_create(&super::temp_file(tag)).unwrap();
    let lines: String = docs.iter().map(|(id, d)| format!("{}\n{}\n", json!({"index": {"_id": id}}), d)).collect();
    let opts = LoadOptions { create_body: Some(body), max_errors: 100, ..Default::default() };
    let report = e.load("test", lines.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    Index { gateway: Gateway::new(Arc::new(e), GatewayConfig { rate_limit: 0.0, ..Default::default() }), report }
}

/// The error a load with `body` answers (`[type] reason`), empty when it loads.
pub fn load_error(body: Value) -> String {
    let e = Engine::open_or_create(&super::temp_file("refused")).unwrap();
    let opts = LoadOptions { create_body: Some(body), ..Default::default() };
    match e.load("test", &b"{\"a\": 1}\n"[..], &opts, &mut |_, _| {}) {
        Ok(_) => String::new(),
        Err(e) => format!("[{}] {}", e.kind(), e.reason()),
    }
}

impl Index {
    /// Sends a request to the gateway: its status and JSON body.
    pub fn send(&self, method: &str, path: &str, body: Value) -> (u16, Value) {
        let body = if body.is_null() { Vec::new() } else { body.to_string().into_bytes() };
        let headers = vec![("Content-Type".to_string(), "application/json".to_string())];
        let r = self.gateway.handle_in_process(&Request {
            method: method.into(),
            path: format!("/elastic/v1{path}"),
            headers,
            body,
        });
        (r.status, serde_json::from_slice(&r.body).unwrap_or(Value::Null))
    }

    /// A search of `test` that must succeed.
    pub fn search(&self, body: Value) -> Value {
        let (status, v) = self.send("POST", "/test/_search", body);
        assert_eq!(status, 200, "{v}");
        v
    }

    /// The `_id`s a query finds, in `_id` order.
    pub fn ids(&self, query: Value) -> Vec<String> {
        let v = self.search(json!({"query": query, "sort": ["_id"], "size": 100}));
        v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap().to_string()).collect()
    }

    /// The status and first root cause of a refused search.
    pub fn refused(&self, body: Value) -> (u16, String, String) {
        let (status, v) = self.send("POST", "/test/_search", body);
        let cause = &v["error"]["root_cause"][0];
        (status, cause["type"].as_str().unwrap_or_default().into(), cause["reason"].as_str().unwrap_or_default().into())
    }

    /// The typeless mapping `_mapping` reports.
    pub fn mapping(&self) -> Value {
        let (_, v) = self.send("GET", "/test/_mapping?include_type_name=false", Value::Null);
        v["test"]["mappings"].clone()
    }
}

/// A typeless create-index body mapping `properties`.
pub fn mapped(properties: Value) -> Value {
    json!({"mappings": {"_doc": {"properties": properties}}})
}
