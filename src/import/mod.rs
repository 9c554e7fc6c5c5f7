//! `metagate import`: one index of an Elasticsearch 6.x/7.x/8.x or OpenSearch 1/2 cluster
//! loaded into the file as one new generation — the inverse of `export --to`.
//!
//! `GET /` names the cluster, `GET /{index}` gives its settings, mapping and aliases,
//! which become an ES 6.8 create-index body (`create_body`); then the documents are
//! scrolled (`scroll.rs`; sliced on request, each slice on a thread) and streamed as
//! `_bulk` lines into [`Engine::load`], one page in memory at a time (per slice). The load is one write transaction, so a cluster that fails mid-way
//! leaves nothing behind. Requests go through `export`'s retrying sender: 429s, 503s and
//! unreachable moments are tried again after a doubling pause.
//!
//! Credentials (headers, `user:pass@` in the address) travel in headers only; they are
//! never written to the file, and any error text that would carry one is redacted.

use crate::cluster::Cluster;
use crate::compat::ClusterVersion;
use crate::engine::Engine;
use crate::error::{Error, Exception, Result};
use crate::export::path_segment;
use crate::export::to_cluster::{expect_ok, SendOptions, SendReport};
use crate::load::{LoadOptions, LoadReport};
use base64::Engine as _;
use serde_json::{json, Map, Value};

mod scroll;

/// What to import and how.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// The index (or an alias naming one index) on the cluster.
    pub index: String,
    /// The name of the new index in the file (default: the cluster's index name).
    pub target: Option<String>,
    /// Documents per scroll page.
    pub page_size: usize,
    /// How long the cluster keeps the scroll between pages (`1m`).
    pub keep_alive: String,
    /// Slices of a sliced scroll read at once (1: one plain scroll). Documents then
    /// arrive in the order the slices deliver them, which is the order ties of equal
    /// score or sort value come back in.
    pub slices: usize,
    /// Retries and pauses while the cluster is busy (as `export --to` uses them).
    pub retry: SendOptions,
    /// Replace an index of the same name in the file.
    pub replace: bool,
    /// Secrets to keep out of every message (header values, passwords).
    pub secrets: Vec<String>,
}

impl ImportOptions {
    /// Imports `index` under its own name, 1,000 documents a page, a one-minute scroll.
    pub fn new(index: &str) -> ImportOptions {
        ImportOptions {
            index: index.to_string(),
            target: None,
            page_size: 1_000,
            keep_alive: "1m".into(),
            slices: 1,
            retry: SendOptions::default(),
            replace: false,
            secrets: Vec::new(),
        }
    }
}

/// What was imported.
#[derive(Debug, Clone)]
pub struct ImportReport {
    /// The cluster, as `GET /` described it.
    pub version: ClusterVersion,
    /// The concrete index read on the cluster.
    pub source: String,
    /// The index written in the file.
    pub target: String,
    /// The load's own report (documents, bytes, size).
    pub load: LoadReport,
    /// Scroll pages read.
    pub pages: u64,
    /// Requests sent again because the cluster was busy.
    pub retries: u64,
    /// Settings the cluster reported that ES 6.8 does not know, left out.
    pub dropped_settings: Vec<String>,
    /// Aliases with a filter or routing (which one file does not apply), left out.
    pub dropped_aliases: Vec<String>,
}

/// Progress callback: (documents read so far, documents the cluster says there are).
pub type ImportProgress<'a> = &'a mut dyn FnMut(u64, u64);

/// Imports one index of `cluster` into `engine` as one new generation.
pub fn import(
    engine: &Engine,
    cluster: &Cluster,
    opts: &ImportOptions,
    progress: ImportProgress<'_>,
) -> Result<ImportReport> {
    run(engine, cluster, opts, progress).map_err(|e| redact(e, &opts.secrets))
}

fn run(engine: &Engine, cluster: &Cluster, opts: &ImportOptions, progress: ImportProgress<'_>) -> Result<ImportReport> {
    let version = cluster.cluster_version()?;
    let mut sent = SendReport::default();
    let answer = expect_ok(cluster, "GET", &format!("/{}", path_segment(&opts.index)), &[], &opts.retry, &mut sent)?;
    let described: Value = serde_json::from_slice(&answer)
        .map_err(|e| Error::simple(502, format!("the cluster's GET /{} answer is not JSON: {e}", opts.index)))?;
    let (source, definition) = one_index(&opts.index, &described)?;
    let Definition { body, doc_type, dropped_settings, dropped_aliases } = create_body(&definition, &version)?;
    let target = opts.target.clone().unwrap_or_else(|| source.clone());
    let load_opts = LoadOptions { create_body: Some(body), doc_type, replace: opts.replace, ..Default::default() };
    let slices = opts.slices.max(1);
    let one_scroll = |slice| scroll::SliceScroll::new(cluster, &version, &source, opts, slice);
    let (loaded, finished) = if slices == 1 {
        let mut reader = scroll::ScrollReader::new(scroll::Pages::One(one_scroll(None)), 1, progress);
        let loaded = engine.load(&target, &mut reader, &load_opts, &mut |_, _| {});
        (loaded, reader.finish())
    } else {
        std::thread::scope(|s| {
            let (tx, rx) = std::sync::mpsc::sync_channel(slices);
            let threads: Vec<_> = (0..slices)
                .map(|id| {
                    let (tx, scroll) = (tx.clone(), one_scroll(Some((id, slices))));
                    s.spawn(move || scroll::read_slice(scroll, tx))
                })
                .collect();
            drop(tx);
            let mut reader = scroll::ScrollReader::new(scroll::Pages::Slices(rx, slices), slices, progress);
            let loaded = engine.load(&target, &mut reader, &load_opts, &mut |_, _| {});
            // Dropping the reader's end stops the slices that are still sending.
            let finished = reader.finish();
            let mut stats = scroll::ScrollStats::default();
            for t in threads {
                // A slice that panicked never said it ended: the reader failed the load.
                let s = t.join().unwrap_or_default();
                stats.pages += s.pages;
                stats.retries += s.retries;
            }
            (loaded, finished.map(|_| stats))
        })
    };
    // The scrolls are cleared whatever happened; a cluster failure is the error to report
    // (the load only saw its input stop).
    let (load, stats) = match (loaded, finished) {
        (_, Err(cluster_error)) => return Err(cluster_error),
        (Err(e), Ok(_)) => return Err(e),
        (Ok(load), Ok(stats)) => (load, stats),
    };
    sent.retries += stats.retries;
    Ok(ImportReport {
        version,
        source,
        target,
        load,
        pages: stats.pages,
        retries: sent.retries,
        dropped_settings,
        dropped_aliases,
    })
}

/// The one concrete index a `GET /{index}` answer describes (an alias or pattern may
/// name several: those are imported one at a time).
fn one_index(asked: &str, described: &Value) -> Result<(String, Value)> {
    let Some(indices) = described.as_object() else {
        return Err(Error::simple(502, format!("the cluster's GET /{asked} answer is not an object")));
    };
    match indices.len() {
        0 => Err(Error::index_not_found(asked)),
        1 => {
            let (name, definition) = indices.iter().next().expect("one member");
            Ok((name.clone(), definition.clone()))
        }
        n => {
            let names: Vec<&str> = indices.keys().map(String::as_str).collect();
            Err(Error::illegal_argument(format!(
                "[{asked}] names {n} indices [{}]: import them one at a time",
                names.join(", ")
            )))
        }
    }
}

/// Settings a node sets on its own at creation: they describe that index, not the new one.
const NODE_SETTINGS: &[&str] = &[
    "index.uuid",
    "index.creation_date",
    "index.creation_date_string",
    "index.provided_name",
    "index.version.created",
    "index.version.created_string",
    "index.version.upgraded",
    "index.version.upgraded_string",
    "index.history.uuid",
    "index.resize.source.name",
    "index.resize.source.uuid",
];

/// An index's definition turned into ES 6.8's terms.
struct Definition {
    /// The create-index body.
    body: Value,
    /// The document type of its mapping.
    doc_type: String,
    /// Settings ES 6.8 does not know, left out.
    dropped_settings: Vec<String>,
    /// Aliases with a filter or routing, left out.
    dropped_aliases: Vec<String>,
}

/// An index's definition from `GET /{index}` (any supported version) as an ES 6.8
/// create-index body.
fn create_body(definition: &Value, version: &ClusterVersion) -> Result<Definition> {
    let mut flat = Map::new();
    if let Some(Value::Object(settings)) = definition.get("settings") {
        flatten_settings("", settings, &mut flat);
    }
    let mut settings = Map::new();
    let mut dropped = Vec::new();
    for (key, value) in flat {
        if NODE_SETTINGS.contains(&key.as_str()) {
            continue;
        }
        if crate::settings::is_known_setting(&key) {
            settings.insert(key, value);
        } else {
            dropped.push(key);
        }
    }
    let mappings = definition.get("mappings").cloned().unwrap_or_else(|| json!({}));
    let Value::Object(mappings) = mappings else {
        return Err(Error::simple(502, "the cluster's mappings are not an object"));
    };
    // 6.x keys the mapping by its type; 7.x and later (and OpenSearch) answer it typeless,
    // and their documents are of type `_doc`.
    let (doc_type, mapping) = if version.typeless() || mappings.is_empty() {
        ("_doc".to_string(), Value::Object(mappings))
    } else if mappings.len() == 1 {
        let (t, m) = mappings.into_iter().next().expect("one type");
        (t, m)
    } else {
        let types: Vec<&String> = mappings.keys().collect();
        return Err(Error::illegal_argument(format!(
            "the index has {} mapping types {types:?}; ES 6.8 and metagate take one",
            types.len()
        )));
    };
    let mut body = json!({ "settings": settings, "mappings": { doc_type.clone(): mapping } });
    let mut dropped_aliases = Vec::new();
    if let Some(Value::Object(aliases)) = definition.get("aliases") {
        let mut kept = Map::new();
        for (name, alias) in aliases {
            // A filter or routing metagate cannot apply: the alias is left out rather
            // than answering more documents than it does on the cluster.
            let plain = ["filter", "routing", "index_routing", "search_routing"]
                .iter()
                .all(|k| alias.get(k).is_none_or(|v| v.is_null()));
            if plain {
                kept.insert(name.clone(), json!({}));
            } else {
                dropped_aliases.push(name.clone());
            }
        }
        if !kept.is_empty() {
            body["aliases"] = Value::Object(kept);
        }
    }
    Ok(Definition { body, doc_type, dropped_settings: dropped, dropped_aliases })
}

/// Nested settings as flat `index.…` keys; lists stay lists (analysis chains).
fn flatten_settings(prefix: &str, o: &Map<String, Value>, out: &mut Map<String, Value>) {
    for (k, v) in o {
        let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        match v {
            Value::Object(inner) => flatten_settings(&key, inner, out),
            _ => {
                let key = if key.starts_with("index.") { key } else { format!("index.{key}") };
                out.insert(key, v.clone());
            }
        }
    }
}

/// A cluster address with any `user:pass@` taken out of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    /// The address without credentials (what messages show).
    pub url: String,
    /// `Authorization: Basic …` carrying the credentials instead, if there were some.
    pub authorization: Option<(String, String)>,
    /// The texts to redact from messages (the user info, the password, the token).
    pub secrets: Vec<String>,
}

/// Takes `user:pass@` out of a cluster address, into a basic-auth header.
pub fn credentials_from_address(url: &str) -> Address {
    let plain = || Address { url: url.to_string(), authorization: None, secrets: Vec::new() };
    let Some((scheme, rest)) = url.split_once("://") else { return plain() };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else { return plain() };
    let userinfo = &rest[..at];
    let decode = |s: &str| percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned();
    let (user, pass) = match userinfo.split_once(':') {
        Some((u, p)) => (decode(u), decode(p)),
        None => (decode(userinfo), String::new()),
    };
    let token = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{pass}"));
    let mut secrets = vec![userinfo.to_string(), token.clone()];
    if !pass.is_empty() {
        secrets.push(pass);
    }
    Address {
        url: format!("{scheme}://{}", &rest[at + 1..]),
        authorization: Some(("Authorization".to_string(), format!("Basic {token}"))),
        secrets,
    }
}

/// `e` with every secret in its texts (reasons, causes, metadata) replaced by `<redacted>`.
pub fn redact(mut e: Error, secrets: &[String]) -> Error {
    let secrets: Vec<&str> = secrets.iter().map(String::as_str).filter(|s| s.len() >= 3).collect();
    if !secrets.is_empty() {
        let clean = |text: &str| secrets.iter().fold(text.to_string(), |t, s| t.replace(s, "<redacted>"));
        let clean_exception = |x: &mut Exception| redact_exception(x, &clean);
        clean_exception(&mut e.exception);
        e.root_causes.iter_mut().for_each(clean_exception);
    }
    e
}

fn redact_exception(x: &mut Exception, clean: &dyn Fn(&str) -> String) {
    x.reason = clean(&x.reason);
    for (_, v) in &mut x.metadata {
        if let Ok(cleaned) = serde_json::from_str(&clean(&v.to_string())) {
            *v = cleaned;
        }
    }
    if let Some(cause) = &mut x.caused_by {
        redact_exception(cause, clean);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_7x_definition_becomes_a_68_body() {
        let definition = json!({
            "aliases": {"current": {"filter": {"term": {"a": 1}}}, "all": {}},
            "mappings": {"properties": {"title": {"type": "text", "analyzer": "folded"}}},
            "settings": {"index": {
                "number_of_shards": "1", "uuid": "x1", "creation_date": "1600000000000",
                "provided_name": "books", "version": {"created": "7100299"},
                "max_result_window": "50000", "hidden": "false",
                "analysis": {"analyzer": {"folded": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "asciifolding"]}}}
            }}
        });
        let Definition { body, doc_type, dropped_settings, dropped_aliases } =
            create_body(&definition, &ClusterVersion::elasticsearch("7.17.0")).unwrap();
        assert_eq!(doc_type, "_doc");
        assert_eq!(dropped_settings, ["index.hidden"]);
        assert_eq!(dropped_aliases, ["current"]);
        assert_eq!(
            body,
            json!({
                "settings": {
                    "index.analysis.analyzer.folded.filter": ["lowercase", "asciifolding"],
                    "index.analysis.analyzer.folded.tokenizer": "standard",
                    "index.analysis.analyzer.folded.type": "custom",
                    "index.max_result_window": "50000",
                    "index.number_of_shards": "1"
                },
                "mappings": {"_doc": {"properties": {"title": {"type": "text", "analyzer": "folded"}}}},
                "aliases": {"all": {}}
            })
        );
        assert!(crate::settings::CreateIndex::parse(&body).is_ok());
    }

    #[test]
    fn a_6x_mapping_keeps_its_type() {
        let definition = json!({"mappings": {"rec": {"properties": {"a": {"type": "keyword"}}}}, "settings": {}});
        let d = create_body(&definition, &ClusterVersion::elasticsearch("6.8.23")).unwrap();
        assert_eq!(d.doc_type, "rec");
        assert_eq!(d.body["mappings"], json!({"rec": {"properties": {"a": {"type": "keyword"}}}}));
        let two = json!({"mappings": {"a": {}, "b": {}}});
        assert!(create_body(&two, &ClusterVersion::elasticsearch("5.6.0")).is_err());
    }

    #[test]
    fn one_index_at_a_time() {
        assert_eq!(one_index("x", &json!({"x-1": {}})).map(|(n, _)| n).ok(), Some("x-1".to_string()));
        let e = one_index("x*", &json!({"x1": {}, "x2": {}})).unwrap_err();
        assert_eq!(e.reason(), "[x*] names 2 indices [x1, x2]: import them one at a time");
    }

    #[test]
    fn credentials_leave_the_address() {
        let Address { url, authorization, secrets } = credentials_from_address("https://elastic:s%40cret@h:9200/p");
        assert_eq!(url, "https://h:9200/p");
        // base64("elastic:s@cret")
        assert_eq!(authorization, Some(("Authorization".to_string(), "Basic ZWxhc3RpYzpzQGNyZXQ=".to_string())));
        assert!(secrets.contains(&"s@cret".to_string()));
        assert_eq!(credentials_from_address("http://h:9200/a@b").url, "http://h:9200/a@b");
        let e = redact(Error::simple(502, "GET / failed for Basic ZWxhc3RpYzpzQGNyZXQ="), &secrets);
        assert_eq!(e.reason(), "GET / failed for Basic <redacted>");
    }
}
