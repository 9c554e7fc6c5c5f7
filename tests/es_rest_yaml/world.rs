//! One test's cluster: a fresh metagate file behind the gateway. metagate serves reads;
//! the writes a test sets its data up with become loads: `indices.create` keeps the body,
//! `index` / `create` / `bulk` add lines, and each write reloads its index from all of
//! them (so a write after a search is seen, as after ES's refresh); `indices.refresh` has
//! nothing to do; aliases are alias actions; other writes are not supported.

use metagate::gateway::{Gateway, GatewayConfig, Request, Response};
use metagate::{AliasAction, AliasOptions, Engine, LoadOptions};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// An index the test wrote: its create-index body and its bulk lines so far.
#[derive(Default)]
struct Written {
    create_body: Option<Value>,
    /// (action line, source line) pairs in order.
    lines: Vec<(Value, String)>,
    /// The version of each `_id`.
    versions: BTreeMap<String, u64>,
}

/// What a call answered: status and body (JSON, or text for `_cat`).
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// The body.
    pub body: Value,
    /// The texts of the `Warning` headers.
    pub warnings: Vec<String>,
}

/// A write the runner cannot turn into a load: the test cannot run here.
pub struct Unsupported(pub String);

/// The file, the gateway and the writes of one test.
pub struct World {
    gateway: Gateway,
    written: BTreeMap<String, Written>,
    auto_ids: u64,
    seq_no: u64,
}

impl World {
    /// A cluster over a new file at `path`.
    pub fn new(path: &std::path::Path) -> World {
        let engine = Arc::new(Engine::open_or_create(path).expect("open the test file"));
        let config = GatewayConfig { rate_limit: 0.0, record_key_use: false, ..GatewayConfig::default() };
        World { gateway: Gateway::new(engine, config), written: BTreeMap::new(), auto_ids: 0, seq_no: 0 }
    }

    /// Sends a read request through the gateway, as an in-process door does.
    pub fn send(&self, method: &str, path: &str, query: &str, body: &str, headers: &[(String, String)]) -> Answer {
        let mut req = Request::local(method, path, query, body);
        for (k, v) in headers {
            req.headers.retain(|(name, _)| !name.eq_ignore_ascii_case(k));
            req.headers.push((k.clone(), v.clone()));
        }
        answer(&self.gateway.handle_in_process(&req))
    }

    /// Runs a write API, or says why it cannot.
    pub fn write(&mut self, api: &str, params: &Map<String, Value>) -> Result<Answer, Unsupported> {
        let text = |k: &str| params.get(k).map(param_text);
        match api {
            "indices.create" => {
                let name = text("index").unwrap_or_default();
                if self.written.contains_key(&name) {
                    let meta = json!({"index_uuid": "_na_", "index": name});
                    let reason = format!("index [{name}/_na_] already exists");
                    return Ok(ok(400, es_error(400, "resource_already_exists_exception", &reason, meta)));
                }
                let body = params.get("body").cloned().filter(|b| !b.is_null());
                let written = Written { create_body: body, ..Written::default() };
                if let Err(e) = self.load(&name, &written) {
                    return Ok(error_answer(&e));
                }
                self.written.insert(name.clone(), written);
                Ok(ok(200, json!({"acknowledged": true, "shards_acknowledged": true, "index": name})))
            }
            "index" | "create" => {
                for unsupported in ["pipeline", "version", "version_type", "if_seq_no", "if_primary_term", "parent"] {
                    if params.contains_key(unsupported) {
                        return Err(Unsupported(format!("{api} with [{unsupported}]")));
                    }
                }
                let index = text("index").unwrap_or_default();
                let create = api == "create" || text("op_type").as_deref() == Some("create");
                let mut action = Map::new();
                action.insert("_type".into(), Value::String(text("type").unwrap_or_else(|| "_doc".into())));
                if let Some(id) = text("id") {
                    action.insert("_id".into(), Value::String(id));
                }
                if let Some(r) = text("routing") {
                    action.insert("routing".into(), Value::String(r));
                }
                // A string body is the document's JSON text, sent as it is (`body: |`).
                let source = match params.get("body") {
                    Some(Value::String(s)) => serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone())),
                    other => other.cloned().unwrap_or(Value::Null),
                };
                let mut item = self.bulk_item(&index, if create { "create" } else { "index" }, action, &source)?;
                let status = item["status"].as_u64().unwrap_or(500) as u16;
                if status >= 400 {
                    return Ok(ok(status, json!({"error": item["error"], "status": status})));
                }
                // The index API's answer is the bulk item without its status.
                if let Value::Object(m) = &mut item {
                    m.remove("status");
                }
                Ok(ok(status, item))
            }
            "bulk" => self.bulk(params),
            "indices.refresh" | "indices.flush" | "indices.forcemerge" | "indices.clear_cache" => {
                Ok(ok(200, json!({"_shards": {"total": 1, "successful": 1, "failed": 0}})))
            }
            "indices.put_alias" => {
                let body = params.get("body").filter(|b| !b.is_null()).cloned().unwrap_or(json!({}));
                let names = text("name").unwrap_or_default();
                let mut actions = Vec::new();
                for index in self.resolve(&text("index").unwrap_or_default()) {
                    for alias in names.split(',') {
                        match AliasOptions::parse(alias, &body) {
                            Ok(options) => actions.push(AliasAction::AddWithOptions {
                                alias: alias.to_string(),
                                index: index.clone(),
                                options,
                            }),
                            Err(e) => return Ok(error_answer(&e)),
                        }
                    }
                }
                Ok(self.alias_actions(&actions))
            }
            "indices.update_aliases" => {
                let mut actions = Vec::new();
                let list = params.get("body").and_then(|b| b.get("actions")).and_then(Value::as_array);
                for a in list.into_iter().flatten() {
                    let Some((kind, spec)) = a.as_object().and_then(|o| o.iter().next()) else { continue };
                    if kind != "add" && kind != "remove" {
                        return Err(Unsupported(format!("indices.update_aliases [{kind}]")));
                    }
                    // The alias's options: the action's keys other than its names.
                    let options_def: serde_json::Map<String, Value> = spec
                        .as_object()
                        .into_iter()
                        .flatten()
                        .filter(|(k, _)| !["index", "indices", "alias", "aliases"].contains(&k.as_str()))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect();
                    let many = |one: &str, more: &str| -> Vec<String> {
                        match spec.get(one).or_else(|| spec.get(more)) {
                            Some(Value::Array(a)) => a.iter().map(param_text).collect(),
                            Some(v) => vec![param_text(v)],
                            None => Vec::new(),
                        }
                    };
                    for index in many("index", "indices").iter().flat_map(|i| self.resolve(i)) {
                        for alias in many("alias", "aliases") {
                            let (alias, index) = (alias.clone(), index.clone());
                            actions.push(if kind == "add" {
                                match AliasOptions::parse(&alias, &Value::Object(options_def.clone())) {
                                    Ok(options) => AliasAction::AddWithOptions { alias, index, options },
                                    Err(e) => return Ok(error_answer(&e)),
                                }
                            } else {
                                AliasAction::Remove { alias, index }
                            });
                        }
                    }
                }
                Ok(self.alias_actions(&actions))
            }
            "indices.delete" => {
                let mut deleted = false;
                for name in text("index").unwrap_or_default().split(',') {
                    for index in self.resolve(name) {
                        if let Err(e) = self.gateway.engine().delete_index(&index) {
                            return Ok(error_answer(&e));
                        }
                        self.written.remove(&index);
                        deleted = true;
                    }
                    if !deleted && !name.contains('*') {
                        return Ok(error_answer(&metagate::Error::index_not_found(name)));
                    }
                }
                Ok(ok(200, json!({"acknowledged": true})))
            }
            other => Err(Unsupported(format!("write API {other}"))),
        }
    }

    /// Concrete indices an expression names among those written (`*` wildcards, `_all`).
    fn resolve(&self, expr: &str) -> Vec<String> {
        let mut out = Vec::new();
        for part in expr.split(',') {
            if part == "_all" || part.contains('*') {
                let pattern = if part == "_all" { "*" } else { part };
                out.extend(self.written.keys().filter(|n| wildcard(pattern, n)).cloned());
            } else {
                out.push(part.to_string());
            }
        }
        out
    }

    fn alias_actions(&self, actions: &[AliasAction]) -> Answer {
        match self.gateway.engine().update_aliases(actions) {
            Ok(()) => ok(200, json!({"acknowledged": true})),
            Err(e) => error_answer(&e),
        }
    }

    fn bulk(&mut self, params: &Map<String, Value>) -> Result<Answer, Unsupported> {
        if params.contains_key("pipeline") {
            return Err(Unsupported("bulk with [pipeline]".into()));
        }
        let lines: Vec<Value> = match params.get("body") {
            Some(Value::String(s)) => s
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str(l).unwrap_or(Value::String(l.to_string())))
                .collect(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|l| match l {
                    Value::String(s) => serde_json::from_str(s).unwrap_or(Value::String(s.clone())),
                    other => other.clone(),
                })
                .collect(),
            _ => Vec::new(),
        };
        let default_index = params.get("index").map(param_text);
        let default_type = params.get("type").map(param_text);
        let mut items = Vec::new();
        let mut errors = false;
        let mut it = lines.into_iter();
        while let Some(action) = it.next() {
            let Some((kind, meta)) =
                action.as_object().and_then(|o| o.iter().next()).map(|(k, v)| (k.clone(), v.clone()))
            else {
                return Err(Unsupported("bulk line that is not an action".into()));
            };
            if kind != "index" && kind != "create" {
                return Err(Unsupported(format!("bulk [{kind}]")));
            }
            let mut meta = meta.as_object().cloned().unwrap_or_default();
            let index =
                meta.remove("_index").map(|v| param_text(&v)).or_else(|| default_index.clone()).unwrap_or_default();
            if !meta.contains_key("_type") {
                meta.insert("_type".into(), Value::String(default_type.clone().unwrap_or_else(|| "_doc".into())));
            }
            for unsupported in ["pipeline", "version", "version_type", "parent", "_parent"] {
                if meta.contains_key(unsupported) {
                    return Err(Unsupported(format!("bulk action with [{unsupported}]")));
                }
            }
            let source = it.next().unwrap_or(Value::Null);
            let item = self.bulk_item(&index, &kind, meta, &source)?;
            errors |= item["status"].as_u64().is_some_and(|s| s >= 400);
            items.push(json!({ kind: item }));
        }
        Ok(ok(200, json!({"took": 0, "errors": errors, "items": items})))
    }

    /// Adds one document to `index` (created on first use) and reloads it: the item
    /// ES's bulk would answer for it.
    fn bulk_item(
        &mut self,
        index: &str,
        kind: &str,
        mut action: Map<String, Value>,
        source: &Value,
    ) -> Result<Value, Unsupported> {
        let doc_type = action.get("_type").map(param_text).unwrap_or_else(|| "_doc".into());
        let id = match action.get("_id").map(param_text) {
            Some(id) => id,
            None => {
                self.auto_ids += 1;
                let id = format!("yamlAutoId{:010}", self.auto_ids);
                action.insert("_id".into(), Value::String(id.clone()));
                id
            }
        };
        let mut written = self.written.remove(index).unwrap_or_default();
        let previous = written.versions.get(&id).copied();
        if kind == "create" && previous.is_some() {
            self.written.insert(index.to_string(), written);
            let reason = format!(
                "[{doc_type}][{id}]: version conflict, document already exists (current version [{}])",
                previous.unwrap_or(1)
            );
            let meta = json!({"index_uuid": "_na_", "shard": "0", "index": index});
            let e = es_error(409, "version_conflict_engine_exception", &reason, meta);
            return Ok(item_error(index, &doc_type, &id, &e));
        }
        let source_text = match source {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        written.lines.push((json!({ "index": Value::Object(action) }), source_text));
        let result = self.load(index, &written);
        let item = match result {
            Ok(report) if report.errors.is_empty() => {
                let version = previous.map_or(1, |v| v + 1);
                written.versions.insert(id.clone(), version);
                self.seq_no += 1;
                json!({
                    "_index": index, "_type": doc_type, "_id": id, "_version": version,
                    "result": if previous.is_some() { "updated" } else { "created" },
                    "_shards": {"total": 2, "successful": 1, "failed": 0},
                    "_seq_no": self.seq_no - 1, "_primary_term": 1,
                    "status": if previous.is_some() { 200 } else { 201 },
                })
            }
            Ok(report) => {
                written.lines.pop();
                let reason = report.errors.last().map(|e| e.reason.clone()).unwrap_or_default();
                let e = line_error(&reason);
                let _ = self.load(index, &written);
                item_error(index, &doc_type, &id, &e)
            }
            Err(e) => {
                written.lines.pop();
                item_error(index, &doc_type, &id, &e.to_json())
            }
        };
        if !written.lines.is_empty() || written.create_body.is_some() || self.exists(index) {
            self.written.insert(index.to_string(), written);
        }
        Ok(item)
    }

    fn exists(&self, index: &str) -> bool {
        self.gateway.engine().indices().is_ok_and(|l| l.iter().any(|i| i.name == index))
    }

    /// (Re)loads `name` from everything written to it.
    // The crate's error type, as the engine returns it.
    #[allow(clippy::result_large_err)]
    fn load(&self, name: &str, written: &Written) -> metagate::Result<metagate::LoadReport> {
        let mut ndjson = String::new();
        for (action, source) in &written.lines {
            ndjson.push_str(&action.to_string());
            ndjson.push('\n');
            ndjson.push_str(source);
            ndjson.push('\n');
        }
        let opts = LoadOptions {
            create_body: written.create_body.clone(),
            replace: true,
            max_errors: usize::MAX,
            ..LoadOptions::default()
        };
        self.gateway.engine().load(name, ndjson.as_bytes(), &opts, &mut |_, _| {})
    }
}

/// A load's line error (`[type] reason`) as an ES error body.
fn line_error(reason: &str) -> Value {
    let (kind, text) = match reason.strip_prefix('[').and_then(|r| r.split_once("] ")) {
        Some((k, t)) => (k.to_string(), t.to_string()),
        None => ("mapper_parsing_exception".to_string(), reason.to_string()),
    };
    es_error(400, &kind, &text, json!({}))
}

/// An ES error body: `{"error": {"root_cause", "type", "reason", meta...}, "status"}`.
fn es_error(status: u16, kind: &str, reason: &str, meta: Value) -> Value {
    let mut cause = json!({"type": kind, "reason": reason});
    if let (Value::Object(c), Value::Object(m)) = (&mut cause, meta) {
        c.extend(m);
    }
    let mut error = json!({"root_cause": [cause.clone()]});
    if let (Value::Object(e), Value::Object(c)) = (&mut error, cause) {
        e.extend(c);
    }
    json!({"error": error, "status": status})
}

/// A bulk item's failure from an error body.
fn item_error(index: &str, doc_type: &str, id: &str, body: &Value) -> Value {
    let mut error = body["error"].clone();
    if let Value::Object(m) = &mut error {
        m.remove("root_cause");
    }
    json!({"_index": index, "_type": doc_type, "_id": id, "status": body["status"], "error": error})
}

fn ok(status: u16, body: Value) -> Answer {
    Answer { status, body, warnings: Vec::new() }
}

fn error_answer(e: &metagate::Error) -> Answer {
    Answer { status: e.status, body: e.to_json(), warnings: Vec::new() }
}

/// A gateway response as the runner reads it: JSON parsed, text kept, `Warning` texts.
fn answer(r: &Response) -> Answer {
    let content_type =
        r.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("content-type")).map(|(_, v)| v.as_str()).unwrap_or("");
    let text = String::from_utf8_lossy(&r.body).to_string();
    let body = if content_type.contains("json") {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    } else {
        Value::String(text)
    };
    let warnings =
        r.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case("warning")).map(|(_, v)| warning_text(v)).collect();
    Answer { status: r.status, body, warnings }
}

/// The message of a `Warning` header (`299 Elasticsearch-... "message" "date"`).
fn warning_text(header: &str) -> String {
    let Some(start) = header.find('"') else {
        return header.to_string();
    };
    let mut out = String::new();
    let mut chars = header[start + 1..].chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            '"' => break,
            c => out.push(c),
        }
    }
    out
}

/// A parameter's text (lists joined with commas).
pub fn param_text(v: &Value) -> String {
    super::apis::param_text(v)
}

fn wildcard(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.starts_with(head)
                && (head.len()..=name.len()).any(|i| name.is_char_boundary(i) && wildcard(tail, &name[i..]))
        }
    }
}
