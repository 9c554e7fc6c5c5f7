//! A stand-in for an Elasticsearch or OpenSearch cluster on 127.0.0.1: it records every
//! request and answers what the test's responder says. HTTP/1.1 with keep-alive and
//! `Content-Length` or chunked bodies — enough for ureq and curl.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// One request the fake cluster received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    pub fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// What the responder answers: status and JSON body.
pub type Responder = dyn Fn(&Recorded, usize) -> (u16, String) + Send + Sync;

/// A running fake cluster.
pub struct FakeCluster {
    pub port: u16,
    pub requests: Arc<Mutex<Vec<Recorded>>>,
}

impl FakeCluster {
    /// Starts a fake cluster; `respond` gets each request and its number (0-based).
    pub fn start(respond: impl Fn(&Recorded, usize) -> (u16, String) + Send + Sync + 'static) -> FakeCluster {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests: Arc<Mutex<Vec<Recorded>>> = Arc::default();
        let respond: Arc<Responder> = Arc::new(respond);
        let recs = requests.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let (recs, respond) = (recs.clone(), respond.clone());
                std::thread::spawn(move || serve_connection(conn, &recs, &*respond));
            }
        });
        FakeCluster { port, requests }
    }

    /// The address to give metagate.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The requests so far.
    pub fn recorded(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }
}

/// The `GET /` answer of a cluster of `number` (`distribution` for OpenSearch).
pub fn info(number: &str, distribution: Option<&str>) -> String {
    let mut v = serde_json::json!({"name": "fake", "cluster_name": "fake", "version": {"number": number}, "tagline": "You Know, for Search"});
    if let Some(d) = distribution {
        v["version"]["distribution"] = serde_json::json!(d);
    }
    v.to_string()
}

fn serve_connection(conn: TcpStream, recs: &Mutex<Vec<Recorded>>, respond: &Responder) {
    let mut out = conn.try_clone().unwrap();
    let mut r = BufReader::new(conn);
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let (method, path) = (parts.next().unwrap_or("").to_string(), parts.next().unwrap_or("").to_string());
        let mut headers = Vec::new();
        loop {
            let mut h = String::new();
            if r.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
        let get = |n: &str| headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(n)).map(|(_, v)| v.clone());
        let mut body = Vec::new();
        if let Some(len) = get("content-length").and_then(|l| l.parse::<usize>().ok()) {
            body.resize(len, 0);
            if r.read_exact(&mut body).is_err() {
                return;
            }
        } else if get("transfer-encoding").is_some_and(|t| t.eq_ignore_ascii_case("chunked")) {
            loop {
                let mut size = String::new();
                r.read_line(&mut size).unwrap_or(0);
                let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
                let mut chunk = vec![0; n + 2];
                if r.read_exact(&mut chunk).is_err() {
                    return;
                }
                if n == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..n]);
            }
        }
        let rec = Recorded { method, path, headers, body };
        let n = {
            let mut all = recs.lock().unwrap();
            all.push(rec.clone());
            all.len() - 1
        };
        let (status, text) = respond(&rec, n);
        let head = format!(
            "HTTP/1.1 {status} X\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: {}\r\n\r\n",
            text.len()
        );
        if out.write_all(head.as_bytes()).and_then(|_| out.write_all(text.as_bytes())).is_err() {
            return;
        }
    }
}

/// A `_bulk` answer that accepts every document of `req` (201 each, no errors).
pub fn bulk_accepted(req: &Recorded) -> String {
    let docs = req.body_text().lines().count() / 2;
    let items: Vec<serde_json::Value> = (0..docs).map(|_| serde_json::json!({"index": {"status": 201}})).collect();
    serde_json::json!({"errors": false, "items": items}).to_string()
}

/// A scroll page as ES 7.x answers `_search?scroll` and `_search/scroll` with
/// `rest_total_hits_as_int`: `hits` are (`_id`, `_source` text) pairs.
pub fn scroll_page(scroll_id: &str, total: usize, hits: &[(&str, &str)]) -> String {
    let hits: Vec<String> = hits
        .iter()
        .map(|(id, source)| {
            format!(r#"{{"_index":"books","_type":"_doc","_id":"{id}","_score":null,"_source":{source},"sort":[0]}}"#)
        })
        .collect();
    format!(
        r#"{{"_scroll_id":"{scroll_id}","took":1,"timed_out":false,"_shards":{{"total":1,"successful":1,"skipped":0,"failed":0}},"hits":{{"total":{total},"max_score":null,"hits":[{}]}}}}"#,
        hits.join(",")
    )
}

/// What a cluster holding one index answers an import: `GET /` (`info`), `GET /{index}`
/// (`definition`), the scroll's pages in turn (the first for `_search?scroll`, the next
/// ones for `_search/scroll`), and `DELETE /_search/scroll`. `None` for anything else.
pub fn index_source(
    req: &Recorded,
    info: &str,
    index: &str,
    definition: &str,
    pages: &[String],
) -> Option<(u16, String)> {
    let path = req.path.split('?').next().unwrap_or("");
    match (req.method.as_str(), path) {
        ("GET", "/") => Some((200, info.to_string())),
        ("GET", p) if p == format!("/{index}") => Some((200, definition.to_string())),
        ("POST", p) if p == format!("/{index}/_search") => Some((200, pages[0].clone())),
        ("POST", "/_search/scroll") => {
            // The page after the one whose id the request carries ("s0", "s1", …).
            let v: serde_json::Value = serde_json::from_slice(&req.body).unwrap_or_default();
            let n: usize = v["scroll_id"].as_str().and_then(|s| s.strip_prefix('s')).and_then(|n| n.parse().ok())?;
            Some((200, pages.get(n + 1).cloned().unwrap_or_else(|| scroll_page(&format!("s{n}"), 0, &[]))))
        }
        ("DELETE", "/_search/scroll") => Some((200, r#"{"succeeded":true,"num_freed":1}"#.to_string())),
        _ => None,
    }
}

/// An index a [`keeping`] cluster holds: its create-index body, aliases and documents
/// (`_id`, `_type`, `_source` text) in the order they came.
#[derive(Default, Clone)]
pub struct KeptIndex {
    pub body: serde_json::Value,
    pub aliases: Vec<String>,
    pub docs: Vec<(String, Option<String>, String)>,
}

/// A cluster of `number` that keeps what an export sends it (`PUT /{index}`, `_bulk`,
/// `_aliases`) and gives it back to an import (`GET /{index}`, scrolls of `size`
/// documents with ids `{index}:{offset}:{size}`), answering each as that version does.
pub fn keeping(
    number: &str,
    distribution: Option<&str>,
) -> (FakeCluster, Arc<Mutex<std::collections::BTreeMap<String, KeptIndex>>>) {
    use serde_json::{json, Value};
    let kept: Arc<Mutex<std::collections::BTreeMap<String, KeptIndex>>> = Arc::default();
    let store = kept.clone();
    let info = info(number, distribution);
    let typeless = distribution.is_some() || !number.starts_with('6');
    let page = move |index: &str, docs: &[(String, Option<String>, String)], from: usize, size: usize| -> String {
        let hits: Vec<String> = docs
            .iter()
            .skip(from)
            .take(size)
            .map(|(id, t, source)| {
                let t = if typeless { "_doc".to_string() } else { t.clone().unwrap_or_else(|| "_doc".into()) };
                format!(
                    r#"{{"_index":{},"_type":{},"_id":{},"_score":null,"_source":{source},"sort":[0]}}"#,
                    json!(index),
                    json!(t),
                    json!(id)
                )
            })
            .collect();
        let scroll_id = format!("{index}:{}:{size}", from + size);
        format!(
            r#"{{"_scroll_id":{},"took":1,"timed_out":false,"_shards":{{"total":1,"successful":1,"skipped":0,"failed":0}},"hits":{{"total":{},"max_score":null,"hits":[{}]}}}}"#,
            json!(scroll_id),
            docs.len(),
            hits.join(",")
        )
    };
    let fake = FakeCluster::start(move |req, _| {
        let (path, _query) = req.path.split_once('?').unwrap_or((&req.path, ""));
        let body: Value = serde_json::from_slice(&req.body).unwrap_or_default();
        let mut all = store.lock().unwrap();
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        match (req.method.as_str(), segments.as_slice()) {
            ("GET", [""]) => (200, info.clone()),
            ("PUT", [index]) => {
                all.insert(index.to_string(), KeptIndex { body, ..Default::default() });
                (200, json!({"acknowledged": true, "index": index}).to_string())
            }
            ("POST", ["_bulk"]) => {
                let text = req.body_text();
                let mut lines = text.lines();
                while let (Some(action), Some(source)) = (lines.next(), lines.next()) {
                    let action: Value = serde_json::from_str(action).unwrap();
                    let a = &action["index"];
                    let entry = all.entry(a["_index"].as_str().unwrap().to_string()).or_default();
                    entry.docs.push((a["_id"].as_str().unwrap().to_string(), a["_type"].as_str().map(String::from), source.to_string()));
                }
                (200, bulk_accepted(req))
            }
            ("POST", ["_aliases"]) => {
                for a in body["actions"].as_array().into_iter().flatten() {
                    let entry = all.entry(a["add"]["index"].as_str().unwrap().to_string()).or_default();
                    entry.aliases.push(a["add"]["alias"].as_str().unwrap().to_string());
                }
                (200, json!({"acknowledged": true}).to_string())
            }
            ("POST", [_, "_refresh"]) => (200, json!({"_shards": {"total": 1, "successful": 1, "failed": 0}}).to_string()),
            ("GET", [index]) => match all.get(*index) {
                Some(k) => {
                    let aliases: serde_json::Map<String, Value> = k.aliases.iter().map(|a| (a.clone(), json!({}))).collect();
                    let d = json!({*index: {"aliases": aliases, "mappings": k.body["mappings"], "settings": k.body["settings"]}});
                    (200, d.to_string())
                }
                None => (404, json!({"error": {"type": "index_not_found_exception", "reason": format!("no such index [{index}]")}, "status": 404}).to_string()),
            },
            ("POST", [index, "_search"]) => {
                let size = body["size"].as_u64().unwrap_or(10) as usize;
                let docs = all.get(*index).map(|k| k.docs.clone()).unwrap_or_default();
                (200, page(index, &docs, 0, size))
            }
            ("POST", ["_search", "scroll"]) => {
                let id = body["scroll_id"].as_str().unwrap_or("").to_string();
                let (rest, size) = id.rsplit_once(':').unwrap();
                let (index, from) = rest.rsplit_once(':').unwrap();
                let docs = all.get(index).map(|k| k.docs.clone()).unwrap_or_default();
                (200, page(index, &docs, from.parse().unwrap(), size.parse().unwrap()))
            }
            ("DELETE", ["_search", "scroll"]) => (200, json!({"succeeded": true, "num_freed": 1}).to_string()),
            _ => (400, json!({"error": format!("no handler for {} {}", req.method, req.path)}).to_string()),
        }
    });
    (fake, kept)
}
