//! Helpers shared by the integration tests.
#![allow(dead_code)]
// The crate's own error type, returned by the helpers that run text through the typed API.
#![allow(clippy::result_large_err)]

use metagate::Engine;
use metagate::LoadOptions;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh temporary file path (removed first).
pub fn temp_file(tag: &str) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join("metagate-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{tag}-{}-{n}.redb", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Bulk NDJSON for (id, source) pairs (ids as `&str` or `String`).
pub fn bulk(docs: &[(impl AsRef<str>, serde_json::Value)]) -> String {
    let mut s = String::new();
    for (id, src) in docs {
        s.push_str(&serde_json::json!({"index": {"_id": id.as_ref(), "_type": "rin"}}).to_string());
        s.push('\n');
        s.push_str(&src.to_string());
        s.push('\n');
    }
    s
}

/// A new engine with one index `name` (alias optional) loaded from `docs`.
pub fn engine_with(
    tag: &str,
    name: &str,
    alias: Option<&str>,
    docs: &[(impl AsRef<str>, serde_json::Value)],
    family: Option<metagate::Family>,
) -> Engine {
    let e = Engine::open_or_create(&temp_file(tag)).unwrap();
    let opts = LoadOptions { alias: alias.map(str::to_string), family, ..Default::default() };
    e.load(name, bulk(docs).as_bytes(), &opts, &mut |_, _| {}).unwrap();
    e
}
pub mod cli;
pub mod fake_cluster;
pub mod http;
pub mod lucene;
pub mod lucene_analysis;
pub mod mapped_index;
pub mod rng;

/// A child process (a `metagate serve`) stopped when dropped.
pub struct Served(pub std::process::Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A port free a moment ago on 127.0.0.1.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The `(_id, _score)` of each hit of a search response, scores as the f32 they are.
pub fn hit_scores(res: &serde_json::Value) -> Vec<(String, f32)> {
    res["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["_id"].as_str().unwrap().to_string(), h["_score"].as_f64().unwrap() as f32))
        .collect()
}

/// The `_id`s of a search response's hits, in order.
pub fn hit_ids(res: &serde_json::Value) -> Vec<String> {
    res["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap().to_string()).collect()
}

/// A response without `took`, the one member two equal answers may differ in.
pub fn without_took(mut v: serde_json::Value) -> serde_json::Value {
    if let serde_json::Value::Object(o) = &mut v {
        o.remove("took");
    }
    v
}

/// Every value of header `name` (case-insensitive) among `headers`, in order.
pub fn header_values<'a>(headers: &'a [(String, String)], name: &str) -> Vec<&'a str> {
    headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str()).collect()
}

/// Every value of header `name` of a gateway answer, in order.
pub fn response_header<'a>(r: &'a metagate::gateway::Response, name: &str) -> Vec<&'a str> {
    header_values(&r.headers, name)
}

/// The `metagate` binary of this build (built with the `cli` feature, as by default).
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_metagate")
}

/// Waits until something listens on 127.0.0.1:`port` (a server process starting).
pub fn wait_until_listening(port: u16) {
    let started = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "nothing listens on port {port}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A search given as text (index expression and body), read into a typed request and run
/// through the engine's typed API; the answer as a JSON tree.
pub fn search(e: &Engine, index: &str, body: &str) -> metagate::Result<serde_json::Value> {
    search_with(e, index, body, &[])
}

/// [`search`] with URI parameters.
pub fn search_with(
    e: &Engine,
    index: &str,
    body: &str,
    params: &[(String, String)],
) -> metagate::Result<serde_json::Value> {
    let req = metagate::SearchRequest::parse(body, params, &[])?;
    e.search_request(index, &req, metagate::indices_options(params)?)?.to_value()
}

/// Starts a scroll given as text, without owner; its first page as a JSON tree.
pub fn scroll_start(
    e: &Engine,
    index: &str,
    body: &str,
    params: &[(String, String)],
    keep_alive: &str,
) -> metagate::Result<serde_json::Value> {
    scroll_start_typed(e, index, &[], body, params, keep_alive)
}

/// [`scroll_start`] for `{index}/{type}/_search?scroll=`.
pub fn scroll_start_typed(
    e: &Engine,
    index: &str,
    types: &[String],
    body: &str,
    params: &[(String, String)],
    keep_alive: &str,
) -> metagate::Result<serde_json::Value> {
    let req = metagate::ScrollStartRequest::parse(index, types, body, params, keep_alive)?;
    e.start_scroll(req, None)?.to_value()
}

/// The next page of a scroll without owner, as a JSON tree.
pub fn scroll_next(e: &Engine, scroll_id: &str, keep_alive: Option<&str>) -> metagate::Result<serde_json::Value> {
    e.next_scroll_page(&metagate::ScrollNextRequest::new(scroll_id, keep_alive)?, None)?.to_value()
}

/// A scroll's first request, given as text (panics on a request that does not parse).
pub fn scroll_request(index: &str, body: &str, keep_alive: &str) -> metagate::ScrollStartRequest {
    metagate::ScrollStartRequest::parse(index, &[], body, &[], keep_alive).unwrap()
}
