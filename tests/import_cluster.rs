//! `metagate import`: an index read from a cluster into the file. Two things stand in for
//! a cluster: `metagate serve` (it speaks the search API, so an import from it must
//! answer the same searches as the file it serves), and the fake cluster of the export
//! tests, answering as ES 7.x does, busy (503) or failing mid-way.

mod common;

use common::cli::{run, run_ok, serve};
use common::fake_cluster::{index_source, info, scroll_page, FakeCluster};
use metagate::cluster::{Cluster, ClusterConfig};
use metagate::export::to_cluster::SendOptions;
use metagate::import::{import, ImportOptions};
use metagate::{Engine, LoadOptions};
use serde_json::{json, Value};
use std::time::Duration;

const DOCS: usize = 2_345;

/// A create-index body with a custom analyzer, a typed mapping and an alias.
fn books_body() -> Value {
    json!({
        "settings": {"index": {"number_of_shards": 1, "max_result_window": 20000,
            "analysis": {"analyzer": {"folded": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "asciifolding"]}}}}},
        "mappings": {"book": {"properties": {
            "title": {"type": "text", "analyzer": "folded", "fields": {"raw": {"type": "keyword"}}},
            "year": {"type": "integer"}, "shelf": {"type": "keyword"}}}},
        "aliases": {"library": {}}
    })
}

fn books_bulk() -> String {
    let words = ["Café", "cafe", "heart", "valve", "river", "Élan", "stone", "north"];
    let mut out = String::new();
    for i in 0..DOCS {
        let title = format!("{} {} {}", words[i % 8], words[(i / 8) % 8], words[(i * 7) % 8]);
        // Some documents have a routing, which hits print and the import must keep.
        match i % 10 {
            0 => out.push_str(&format!("{{\"index\":{{\"_id\":\"b{i}\",\"routing\":\"r{}\"}}}}\n", i % 3)),
            _ => out.push_str(&format!("{{\"index\":{{\"_id\":\"b{i}\"}}}}\n")),
        }
        // Keys out of order and a float written as the user wrote it: kept verbatim.
        out.push_str(&format!(
            "{{\"year\":{},\"title\":\"{title}\",\"shelf\":\"s{}\",\"w\":1.50}}\n",
            1900 + i % 120,
            i % 13
        ));
    }
    out
}

/// Searches an import must answer as the original.
fn searches() -> Vec<Value> {
    vec![
        json!({"query": {"match": {"title": "cafe elan"}}, "size": 20}),
        json!({"query": {"term": {"shelf": "s3"}}, "sort": [{"year": "desc"}, {"_id": "asc"}], "size": 30}),
        json!({"size": 0, "aggs": {"s": {"terms": {"field": "shelf", "size": 20}}, "y": {"stats": {"field": "year"}}}}),
        json!({"query": {"query_string": {"query": "title:(heart OR river) AND year:[1950 TO 1990]"}}, "size": 10}),
        json!({"query": {"match_all": {}}, "sort": ["title.raw", "_id"], "size": 50, "from": 100}),
    ]
}

/// A search answer without `took` and with the index renamed, to compare two files.
fn comparable(mut v: Value, index: &str) -> Value {
    v.as_object_mut().unwrap().remove("took");
    if let Some(hits) = v["hits"]["hits"].as_array_mut() {
        for h in hits {
            h["_index"] = json!(index);
        }
    }
    v
}

#[test]
fn an_import_from_metagate_serve_answers_the_same_searches() {
    let original = common::temp_file("import-src");
    let f = original.to_str().unwrap();
    let expected: Vec<Value> = {
        let engine = Engine::open_or_create(&original).unwrap();
        let opts = LoadOptions { create_body: Some(books_body()), ..Default::default() };
        engine.load("books", books_bulk().as_bytes(), &opts, &mut |_, _| {}).unwrap();
        searches()
            .iter()
            .map(|s| comparable(common::search(&engine, "library", &s.to_string()).unwrap(), "books"))
            .collect()
    };
    let key = run_ok(&["keys", "add", "importer", "--file", f]).trim().to_string();
    let (_server, port) = serve(f, &[]);
    let copy = common::temp_file("import-copy");
    let c = copy.to_str().unwrap();
    let from = format!("http://127.0.0.1:{port}/elastic/v1");
    let header = format!("apikey: {key}");
    let out =
        run(&["import", "--file", c, "--from", &from, "--index", "library", "--as", "shelved", "--header", &header]);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "import failed: {stderr}");
    assert!(stdout.contains(&format!("imported {DOCS} documents of [books]")), "{stdout}");
    assert!(!stdout.contains(&key) && !stderr.contains(&key));

    let engine = Engine::open(&copy).unwrap();
    let file_bytes = std::fs::read(&copy).unwrap();
    assert!(!file_bytes.windows(key.len()).any(|w| w == key.as_bytes()), "the key landed in the file");
    for (search, want) in searches().iter().zip(&expected) {
        // The alias came along with the index.
        let got = comparable(common::search(&engine, "library", &search.to_string()).unwrap(), "books");
        assert_eq!(&got, want, "{search}");
    }
    // The mapping kept its type name and the custom analyzer; sources are verbatim.
    let hit = common::search(&engine, "shelved", r#"{"query": {"ids": {"values": ["b5"]}}}"#).unwrap();
    assert_eq!(hit["hits"]["hits"][0]["_type"], json!("book"));
    let raw = books_bulk().lines().nth(11).unwrap().to_string();
    assert_eq!(hit["hits"]["hits"][0]["_source"], serde_json::from_str::<Value>(&raw).unwrap());
    assert!(String::from_utf8_lossy(&file_bytes).contains("\"w\":1.50"));

    // Read in three slices (the server answers sliced scrolls): every document, once.
    let sliced = run_ok(&[
        "import", "--file", c, "--from", &from, "--index", "books", "--as", "sliced", "--header", &header, "--slices",
        "3", "--page", "100",
    ]);
    assert!(sliced.contains(&format!("imported {DOCS} documents")) && !sliced.contains("replaced"), "{sliced}");
    let engine2 = Engine::open(&copy).unwrap();
    let agg =
        json!({"size": 0, "aggs": {"s": {"terms": {"field": "shelf", "size": 20}}, "y": {"stats": {"field": "year"}}}});
    assert_eq!(comparable(common::search(&engine2, "sliced", &agg.to_string()).unwrap(), "books"), expected[2]);
    drop(engine2);
    // Imported again under the same name: refused unless --replace, as load is.
    let again =
        run(&["import", "--file", c, "--from", &from, "--index", "books", "--as", "shelved", "--header", &header]);
    assert!(!again.status.success());
    let replaced = run_ok(&[
        "import",
        "--file",
        c,
        "--from",
        &from,
        "--index",
        "books",
        "--as",
        "shelved",
        "--header",
        &header,
        "--replace",
    ]);
    assert!(replaced.contains(&format!("imported {DOCS} documents")));
    // Without the key the source refuses, and the error says so without any secret.
    let refused = run(&["import", "--file", c, "--from", &from, "--index", "books", "--as", "other"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("security_exception"));
}

const SECRET: &str = "Basic c2VjcmV0OnBhc3N3b3Jk";

/// `GET /books` of an ES 7.17 cluster: typeless mapping, settings a node adds.
fn definition_7x() -> String {
    json!({"books": {
        "aliases": {},
        "mappings": {"properties": {"title": {"type": "text", "analyzer": "folded"}, "year": {"type": "integer"}}},
        "settings": {"index": {
            "routing": {"allocation": {"include": {"_tier_preference": "data_content"}}},
            "number_of_shards": "1", "provided_name": "books", "creation_date": "1700000000000",
            "number_of_replicas": "1", "uuid": "Zb3n", "version": {"created": "7170099"},
            "analysis": {"analyzer": {"folded": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "asciifolding"]}}}
        }}
    }})
    .to_string()
}

fn pages() -> Vec<String> {
    vec![
        scroll_page(
            "s0",
            3,
            &[("1", r#"{"title":"Crème brûlée","year":2001}"#), ("2", r#"{"title":"Creme","year":1999}"#)],
        ),
        scroll_page("s1", 3, &[("3", r#"{"year":1850,"title":"Brulee"}"#)]),
    ]
}

fn quick_retries() -> ImportOptions {
    let mut opts = ImportOptions::new("books");
    opts.retry = SendOptions { first_backoff: Duration::from_millis(5), attempts: 4, ..Default::default() };
    opts.secrets = vec![SECRET.to_string()];
    opts
}

fn fake_7x_cluster(
    fail: impl Fn(&common::fake_cluster::Recorded, usize) -> Option<(u16, String)> + Send + Sync + 'static,
) -> FakeCluster {
    let (info, definition, pages) = (info("7.17.9", None), definition_7x(), pages());
    FakeCluster::start(move |req, n| {
        fail(req, n)
            .or_else(|| index_source(req, &info, "books", &definition, &pages))
            .unwrap_or((404, r#"{"error":"no"}"#.into()))
    })
}

fn client(fake: &FakeCluster) -> Cluster {
    let mut config = ClusterConfig::new(&fake.url());
    config.headers.push(("Authorization".into(), SECRET.into()));
    Cluster::new(&config).unwrap()
}

#[test]
fn an_import_from_a_busy_7x_cluster_retries_and_loads_every_document() {
    // The first scroll request is answered 503, the first continuation 429.
    let fake = fake_7x_cluster(|req, _| {
        let busy = |status: u16| {
            Some((status, format!(r#"{{"error":{{"type":"busy","reason":"try later"}},"status":{status}}}"#)))
        };
        if req.path.starts_with("/books/_search") && !SEEN_SEARCH.swap(true, SeqCst) {
            busy(503)
        } else if req.method == "POST" && req.path == "/_search/scroll" && !SEEN_SCROLL.swap(true, SeqCst) {
            busy(429)
        } else {
            None
        }
    });
    let engine = Engine::open_or_create(&common::temp_file("import-busy")).unwrap();
    let mut seen = Vec::new();
    let report =
        import(&engine, &client(&fake), &quick_retries(), &mut |docs, total| seen.push((docs, total))).unwrap();
    assert_eq!((report.load.docs, report.retries, report.source.as_str()), (3, 2, "books"));
    assert_eq!(report.dropped_settings, Vec::<String>::new());
    assert_eq!(seen, [(2, 3), (3, 3)]);
    // ES 7's typeless mapping is the `_doc` type; the analyzer folds accents.
    let res = common::search(&engine, "books", r#"{"query": {"match": {"title": "creme brulee"}}}"#).unwrap();
    assert_eq!(common::hit_ids(&res), ["1", "2", "3"].map(String::from));
    assert_eq!(res["hits"]["hits"][2]["_source"], json!({"year": 1850, "title": "Brulee"}));
    assert_eq!(res["hits"]["hits"][0]["_type"], json!("_doc"));
    let recorded = fake.recorded();
    assert!(recorded.iter().all(|r| r.header("authorization") == Some(SECRET)));
    let first = recorded.iter().find(|r| r.path.starts_with("/books/_search")).unwrap();
    assert_eq!(first.path, "/books/_search?scroll=1m&rest_total_hits_as_int=true");
    assert_eq!(
        serde_json::from_slice::<Value>(&first.body).unwrap(),
        json!({"size": 1000, "sort": ["_doc"], "track_total_hits": true})
    );
    let cleared = recorded.iter().filter(|r| r.method == "DELETE").map(|r| r.body_text()).collect::<Vec<_>>();
    assert_eq!(cleared, [r#"{"scroll_id":["s1"]}"#]);
}

static SEEN_SEARCH: AtomicBool = AtomicBool::new(false);
static SEEN_SCROLL: AtomicBool = AtomicBool::new(false);
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};

#[test]
fn a_cluster_failing_mid_way_leaves_no_index_and_no_secret() {
    // The second page fails for good, with an error that quotes the request's credentials.
    let fake = fake_7x_cluster(|req, _| {
        (req.method == "POST" && req.path == "/_search/scroll").then(|| {
            let echoed = req.header("authorization").unwrap_or("").to_string();
            (500, json!({"error": {"type": "search_phase_execution_exception", "reason": format!("all shards failed for [{echoed}]")}, "status": 500}).to_string())
        })
    });
    let file = common::temp_file("import-fail");
    let engine = Engine::open_or_create(&file).unwrap();
    let mut sliced = quick_retries();
    sliced.slices = 2;
    // Both slices fail on their second page: the import stops, nothing is left.
    let e = import(&engine, &client(&fake), &sliced, &mut |_, _| {}).unwrap_err();
    assert_eq!(e.reason(), "POST /_search/scroll: all shards failed for [<redacted>]");
    assert!(engine.indices().unwrap().is_empty());
    let e = import(&engine, &client(&fake), &quick_retries(), &mut |_, _| {}).unwrap_err();
    assert_eq!((e.status, e.kind()), (500, "search_phase_execution_exception"));
    assert_eq!(e.reason(), "POST /_search/scroll: all shards failed for [<redacted>]");
    assert!(!e.to_json().to_string().contains(SECRET));
    // Nothing of the half-read index is visible, and the scroll was cleared.
    assert!(engine.indices().unwrap().is_empty());
    assert!(common::search(&engine, "books", "{}").is_err());
    assert!(fake.recorded().iter().any(|r| r.method == "DELETE" && r.path == "/_search/scroll"));
    // The same import from a cluster that works then succeeds in the same file.
    let healthy = fake_7x_cluster(|_, _| None);
    let report = import(&engine, &client(&healthy), &quick_retries(), &mut |_, _| {}).unwrap();
    assert_eq!(report.load.docs, 3);
}

#[test]
fn credentials_in_the_address_become_a_header_and_never_show() {
    let fake = fake_7x_cluster(|_, _| None);
    let file = common::temp_file("import-cli");
    let from = format!("http://secret:password@127.0.0.1:{}", fake.port);
    let out = run_ok(&["import", "--file", file.to_str().unwrap(), "--from", &from, "--index", "books", "--as", "b2"]);
    assert!(out.contains("imported 3 documents of [books]") && !out.contains("password"), "{out}");
    assert!(fake.recorded().iter().all(|r| r.header("authorization") == Some(SECRET)));
    // An index the cluster does not have: the error names neither user nor password.
    let out = run(&["import", "--file", file.to_str().unwrap(), "--from", &from, "--index", "nope"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && !stderr.contains("password") && !stderr.contains("secret"), "{stderr}");
}

/// A file like the export tests' source: generated registry tools behind an alias, and a
/// small index under dynamic mapping with a source written over several lines.
fn export_source() -> Engine {
    let engine = Engine::open_or_create(&common::temp_file("import-export-src")).unwrap();
    let mut tools = Vec::new();
    metagate::gen::Model::from_demo().unwrap().write_bulk(11, 1_500, &mut tools).unwrap();
    let opts =
        LoadOptions { alias: Some("Tools_pr".into()), family: Some(metagate::Family::Registry), ..Default::default() };
    engine.load("tools-v1", tools.as_slice(), &opts, &mut |_, _| {}).unwrap();
    let small = "{\"index\":{\"_id\":\"a\",\"_type\":\"rec\"}}\n\
                 {\"title\":\"Heart valve\",\"count\":3,\"ratio\":0.5,\"ok\":true,\"when\":\"2020-01-02\",\"tags\":[\"X\",\"y\"]}\n\
                 {\"index\":{\"_id\":\"b\",\"_type\":\"rec\"}}\n\
                 {\"title\":\"Valve of the heart\",\"count\":7,\"ratio\":1.25,\"ok\":false,\"when\":\"2021-06-30\",\"tags\":[\"y\"]}\n";
    engine.load("small", small.as_bytes(), &LoadOptions::default(), &mut |_, _| {}).unwrap();
    engine
}

fn export_searches() -> Vec<(&'static str, Value)> {
    vec![
        ("Tools_pr", json!({"query": {"match": {"item.description": "protein sequence alignment"}}, "size": 20})),
        ("Tools_pr", json!({"query": {"term": {"item.types.name.aggregate": "software application"}}, "size": 3})),
        ("Tools_pr", json!({"size": 0, "aggs": {"t": {"terms": {"field": "item.types.name.aggregate", "size": 50}}}})),
        (
            "Tools_pr",
            json!({"query": {"query_string": {"query": "item.name:(gene OR protein) AND database"}}, "size": 10}),
        ),
        ("Tools_pr", json!({"sort": [{"item.name.aggregate": "desc"}, {"_id": "asc"}], "size": 15})),
        ("small", json!({"query": {"match": {"title": "heart valve"}}})),
        (
            "small",
            json!({"query": {"range": {"when": {"gte": "2021-01-01"}}}, "aggs": {"c": {"stats": {"field": "count"}}}}),
        ),
    ]
}

#[test]
fn an_export_then_an_import_answers_the_same() {
    let source = export_source();
    let export = metagate::export::Export::plan(&source, "*").unwrap();
    for (number, distribution) in [("6.8.23", None), ("7.17.9", None), ("2.11.1", Some("opensearch"))] {
        let (fake, kept) = common::fake_cluster::keeping(number, distribution);
        let cluster = Cluster::new(&ClusterConfig::new(&fake.url())).unwrap();
        let flavor = metagate::compat::Flavor::for_cluster(&cluster.cluster_version().unwrap());
        metagate::export::to_cluster::send(&export, &cluster, flavor, &SendOptions::default(), &mut |_| {}).unwrap();
        assert_eq!(kept.lock().unwrap().len(), 2);
        let copy = Engine::open_or_create(&common::temp_file("import-export-copy")).unwrap();
        for index in ["tools-v1", "small"] {
            let report = import(&copy, &cluster, &ImportOptions::new(index), &mut |_, _| {}).unwrap();
            assert_eq!(report.version.number, number);
            assert_eq!(report.dropped_aliases, Vec::<String>::new());
        }
        for (index, search) in export_searches() {
            let mut want = comparable(common::search(&source, index, &search.to_string()).unwrap(), "-");
            let mut got = comparable(common::search(&copy, index, &search.to_string()).unwrap(), "-");
            if distribution.is_some() || number.starts_with('7') {
                // A typeless cluster gives its documents back as `_doc`.
                for hits in [&mut want, &mut got] {
                    for h in hits["hits"]["hits"].as_array_mut().unwrap() {
                        h["_type"] = json!("_doc");
                    }
                }
            }
            assert_eq!(got, want, "{number}: {index} {search}");
        }
    }
}

#[test]
fn a_malformed_header_is_not_echoed() {
    let out = run(&["import", "--from", "http://127.0.0.1:9", "--index", "x", "--header", "Bearer abcdef123456"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("is not of the form") && !stderr.contains("abcdef123456"),
        "{stderr}"
    );
}
