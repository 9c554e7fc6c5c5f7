//! `metagate export`: the files for a cluster, and the same sent to a cluster directly.
//!
//! No Elasticsearch runs here, so two things stand in for one: metagate itself, which
//! reads `_bulk` NDJSON and ES mappings (an export loaded back must answer every query
//! exactly as the original), and a fake cluster on 127.0.0.1 that records what `--to` and
//! `load.sh` send and answers as a busy cluster would (429s for whole requests and for
//! single documents).

mod common;
use common::without_took as comparable;

use common::fake_cluster::{bulk_accepted, info, FakeCluster, Recorded};
use metagate::cluster::{Cluster, ClusterConfig};
use metagate::compat::Flavor;
use metagate::export::to_cluster::{send, SendOptions};
use metagate::export::{files::write_dir, Export, LOWERCASE_NORMALIZER};
use metagate::Family;
use metagate::LoadOptions;
use metagate::{AliasAction, Engine};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

const TOOLS: u64 = 1_200;

/// A file with a registry index of generated tools (alias `RIN_Tool_pr`), a small index
/// under dynamic mapping with numbers, dates, booleans and a source written over several
/// lines, and an alias `both` over the two. Built once, shared by the tests (read only).
fn source_file() -> &'static Engine {
    static SOURCE: std::sync::OnceLock<Engine> = std::sync::OnceLock::new();
    SOURCE.get_or_init(build_source)
}

fn build_source() -> Engine {
    let engine = Engine::open_or_create(&common::temp_file("export-src")).unwrap();
    let mut tools = Vec::new();
    metagate::gen::Model::from_demo().unwrap().write_bulk(7, TOOLS, &mut tools).unwrap();
    let opts = LoadOptions { alias: Some("RIN_Tool_pr".into()), family: Some(Family::Registry), ..Default::default() };
    engine.load("tools-v1", tools.as_slice(), &opts, &mut |_, _| {}).unwrap();
    let small = "{\"index\":{\"_id\":\"a\",\"_type\":\"rec\",\"routing\":\"r7\"}}\n\
                 {\"title\":\"Heart valve\",\"count\":3,\"ratio\":0.5,\"ok\":true,\"when\":\"2020-01-02\",\"tags\":[\"X\",\"y\"]}\n\
                 {\"index\":{\"_id\":\"b \\\"q\\\"\",\"_type\":\"rec\"}}\n\
                 {\"title\":\"Valve of the heart\",\"count\":7,\"ratio\":1.25,\"ok\":false,\"when\":\"2021-06-30\",\"tags\":[\"y\"]}\n";
    engine.load("small", small.as_bytes(), &LoadOptions::default(), &mut |_, _| {}).unwrap();
    engine
        .update_aliases(&[
            AliasAction::Add { alias: "both".into(), index: "tools-v1".into() },
            AliasAction::Add { alias: "both".into(), index: "small".into() },
        ])
        .unwrap();
    engine
}

/// The queries an export must answer as the original does.
fn queries() -> Vec<(&'static str, Value)> {
    vec![
        ("RIN_Tool_pr", json!({"query": {"match": {"item.description": "protein sequence alignment"}}, "size": 20})),
        ("RIN_Tool_pr", json!({"query": {"term": {"item.types.name.aggregate": "software application"}}, "size": 3})),
        (
            "RIN_Tool_pr",
            json!({"size": 0, "aggs": {"t": {"terms": {"field": "item.types.name.aggregate", "size": 50}},
                                                 "k": {"terms": {"field": "item.keywords.keyword.aggregate", "size": 20}}}}),
        ),
        (
            "RIN_Tool_pr",
            json!({"query": {"query_string": {"query": "item.name:(gene OR protein) AND database"}}, "size": 10}),
        ),
        ("RIN_Tool_pr", json!({"sort": [{"item.name.aggregate": "desc"}, {"_id": "asc"}], "size": 15})),
        (
            "RIN_Tool_pr",
            json!({"query": {"range": {"provenance.ingestTime": {"gte": "20190101T000000+0000"}}}, "size": 5,
                               "sort": ["_id"]}),
        ),
        ("small", json!({"query": {"match": {"title": "heart valve"}}})),
        (
            "small",
            json!({"query": {"range": {"when": {"gte": "2021-01-01"}}}, "aggs": {"c": {"stats": {"field": "count"}},
                          "tags": {"terms": {"field": "tags.keyword"}}}}),
        ),
        ("small", json!({"query": {"bool": {"filter": [{"term": {"ok": true}}, {"range": {"ratio": {"lt": 1}}}]}}})),
        ("both", json!({"query": {"match_all": {}}, "sort": ["_id"], "size": 5})),
        ("both", json!({"query": {"multi_match": {"query": "heart protein", "fields": ["title", "item.name"]}}})),
    ]
}

/// Loads the `_bulk` bodies and create-index bodies of an export into a new metagate
/// file under the same names, with the same aliases.
fn reload(indices: &[(String, Value, Vec<u8>)], alias_actions: &Value, flavor: Flavor) -> Engine {
    let engine = Engine::open_or_create(&common::temp_file("export-copy")).unwrap();
    for (name, create, bulk) in indices {
        assert_eq!(create["settings"]["index"]["number_of_shards"], json!(1));
        let mapping = match flavor {
            Flavor::Typed => create["mappings"].as_object().unwrap().values().next().unwrap().clone(),
            Flavor::Typeless => create["mappings"].clone(),
        };
        if mapping.to_string().contains(LOWERCASE_NORMALIZER) {
            assert_eq!(
                create["settings"]["analysis"]["normalizer"][LOWERCASE_NORMALIZER],
                json!({"type": "custom", "char_filter": [], "filter": ["lowercase"]})
            );
        }
        // metagate knows the normalizer by its built-in name.
        let mapping: Value =
            serde_json::from_str(&mapping.to_string().replace(LOWERCASE_NORMALIZER, "lowercase")).unwrap();
        let opts = LoadOptions {
            mapping: Some(mapping),
            max_result_window: create["settings"]["index"]["max_result_window"].as_u64(),
            ..Default::default()
        };
        engine.load(name, bulk.as_slice(), &opts, &mut |_, _| {}).unwrap();
    }
    for a in alias_actions["actions"].as_array().unwrap() {
        let add = &a["add"];
        engine
            .update_aliases(&[AliasAction::Add {
                alias: add["alias"].as_str().unwrap().into(),
                index: add["index"].as_str().unwrap().into(),
            }])
            .unwrap();
    }
    engine
}

/// Hits' `_type`s removed; for a typeless copy they must all be `_doc`, as ES 7 answers.
fn without_types(mut v: Value, must_be_doc: bool) -> Value {
    for hit in v.pointer_mut("/hits/hits").and_then(Value::as_array_mut).into_iter().flatten() {
        let t = hit.as_object_mut().and_then(|h| h.remove("_type"));
        assert!(!must_be_doc || t == Some(json!("_doc")), "{t:?}");
    }
    v
}

/// Every query answers the same on `original` and `copy`; `typed`: the copy kept the
/// document types (ES 6.8), else its hits say `_doc`.
fn assert_same_answers(original: &Engine, copy: &Engine, typed: bool) {
    assert_eq!(original.aliases().unwrap(), copy.aliases().unwrap());
    for (index, body) in queries() {
        let a = common::search(original, index, &body.to_string());
        let b = common::search(copy, index, &body.to_string());
        match (a, b) {
            (Ok(a), Ok(b)) => {
                let (mut a, mut b) = (comparable(a), comparable(b));
                if !typed {
                    (a, b) = (without_types(a, false), without_types(b, true));
                }
                assert!(a == b, "{index} {body}: first difference at {}", first_difference(&a, &b, String::new()));
            }
            (Err(a), Err(b)) => assert_eq!(a.to_json(), b.to_json(), "{index} {body}"),
            (a, b) => panic!("{index} {body}: {a:?} vs {b:?}"),
        }
    }
}

/// The path of the first member where `a` and `b` differ, with both values.
fn first_difference(a: &Value, b: &Value, at: String) -> String {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) if x.keys().eq(y.keys()) => x
            .iter()
            .zip(y.values())
            .find(|((_, u), v)| u != v)
            .map_or(at.clone(), |((k, u), v)| first_difference(u, v, format!("{at}/{k}"))),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find(|(_, (u, v))| u != v)
            .map_or(at.clone(), |(i, (u, v))| first_difference(u, v, format!("{at}/{i}"))),
        _ => format!("{at}: {a} vs {b}"),
    }
}

fn read_gz(path: &Path) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()).read_to_end(&mut out).unwrap();
    out
}

#[test]
fn files_reload_into_the_same_index_in_both_flavors() {
    let original = source_file();
    let export = Export::plan(original, "both").unwrap();
    let names: Vec<&str> = export.indices().iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["small", "tools-v1"]);
    assert_eq!(export.total_docs(), TOOLS + 2);
    for (flavor, gzip) in [(Flavor::Typed, false), (Flavor::Typeless, true)] {
        let dir = common::temp_file("export-dir").with_extension("d");
        let mut seen = Vec::new();
        let written = write_dir(&export, &dir, flavor, gzip, &mut |n| seen.push(n)).unwrap();
        assert_eq!(written.docs, TOOLS + 2);
        assert_eq!(seen.last(), Some(&(TOOLS + 2)));
        let mut indices = Vec::new();
        for name in ["small", "tools-v1"] {
            let create: Value =
                serde_json::from_slice(&std::fs::read(dir.join(format!("{name}.index.json"))).unwrap()).unwrap();
            let bulk = if gzip {
                read_gz(&dir.join(format!("{name}.bulk.ndjson.gz")))
            } else {
                std::fs::read(dir.join(format!("{name}.bulk.ndjson"))).unwrap()
            };
            let text = String::from_utf8(bulk.clone()).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len() % 2, 0);
            for pair in lines.chunks(2) {
                let action: Value = serde_json::from_str(pair[0]).unwrap();
                assert_eq!(action["index"]["_index"], json!(name));
                assert_eq!(action["index"].get("_type").is_some(), flavor == Flavor::Typed, "{}", pair[0]);
                assert!(serde_json::from_str::<Value>(pair[1]).unwrap().is_object());
            }
            match flavor {
                Flavor::Typed => {
                    let ty = if name == "small" { "rec" } else { "rin" };
                    assert!(create["mappings"][ty]["properties"].is_object(), "{create}");
                }
                Flavor::Typeless => assert!(create["mappings"]["properties"].is_object(), "{create}"),
            }
            indices.push((name.to_string(), create, bulk));
        }
        // The source written over several lines became one NDJSON line, the same JSON.
        let small = String::from_utf8(indices[0].2.clone()).unwrap();
        assert!(small.contains(r#"{"index":{"_index":"small","#) && small.contains(r#""_id":"b \"q\""}}"#), "{small}");
        // A routing travels in the action.
        assert!(small.contains(r#""_id":"a","routing":"r7"}}"#), "{small}");
        let aliases: Value = serde_json::from_slice(&std::fs::read(dir.join("aliases.json")).unwrap()).unwrap();
        assert_eq!(
            aliases,
            json!({"actions": [{"add": {"index": "tools-v1", "alias": "RIN_Tool_pr"}},
                               {"add": {"index": "small", "alias": "both"}},
                               {"add": {"index": "tools-v1", "alias": "both"}}]})
        );
        assert_same_answers(original, &reload(&indices, &aliases, flavor), flavor == Flavor::Typed);
    }
}

#[test]
fn an_alias_exports_only_its_indices_and_aliases() {
    let original = source_file();
    let export = Export::plan(original, "RIN_Tool_pr").unwrap();
    assert_eq!(export.indices().len(), 1);
    assert_eq!(
        export.alias_actions(),
        json!({"actions": [{"add": {"index": "tools-v1", "alias": "RIN_Tool_pr"}}, {"add": {"index": "tools-v1", "alias": "both"}}]})
    );
    let e = Export::plan(original, "nothing_here").err().unwrap();
    assert_eq!((e.status, e.kind()), (404, "index_not_found_exception"));
    let e = Export::plan(original, "nothing*").err().unwrap();
    assert_eq!((e.status, e.kind()), (404, "index_not_found_exception"));
}

/// A fake cluster of `version` that refuses the first `_bulk` request with 429 and, in
/// the second, the first document with 429; everything else succeeds.
fn busy_cluster(version: &'static str) -> FakeCluster {
    let bulks = std::sync::atomic::AtomicUsize::new(0);
    FakeCluster::start(move |req: &Recorded, _| {
        let path = req.path.as_str();
        match (req.method.as_str(), path) {
            ("GET", "/") => (200, info(version, None)),
            ("POST", "/_bulk") => {
                let earlier = bulks.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if earlier == 0 {
                    return (429, r#"{"error":{"type":"es_rejected_execution_exception","reason":"rejected execution"},"status":429}"#.into());
                }
                let text = req.body_text();
                let docs = text.lines().count() / 2;
                let items: Vec<Value> = (0..docs)
                    .map(|i| {
                        if earlier == 1 && i == 0 {
                            json!({"index": {"status": 429, "error": {"type": "es_rejected_execution_exception", "reason": "busy"}}})
                        } else {
                            json!({"index": {"status": 201, "result": "created"}})
                        }
                    })
                    .collect();
                (200, json!({"took": 1, "errors": earlier == 1, "items": items}).to_string())
            }
            _ => (200, r#"{"acknowledged":true}"#.into()),
        }
    })
}

fn fast() -> SendOptions {
    SendOptions { batch_docs: 500, first_backoff: Duration::from_millis(5), ..Default::default() }
}

#[test]
fn to_cluster_retries_busy_answers_and_reproduces_the_index() {
    let original = source_file();
    let fake = busy_cluster("6.8.23");
    let cluster = Cluster::new(&ClusterConfig::new(&fake.url())).unwrap();
    let version = cluster.cluster_version().unwrap();
    let flavor = Flavor::for_cluster(&version);
    assert_eq!(flavor, Flavor::Typed);
    let export = Export::plan(original, "both").unwrap();
    let mut progress = Vec::new();
    let report = send(&export, &cluster, flavor, &fast(), &mut |n| progress.push(n)).unwrap();
    assert_eq!((report.indices, report.docs, report.aliases), (2, TOOLS + 2, 3));
    // One whole request refused, then one document: both sent again.
    assert_eq!(report.retries, 2);
    assert_eq!(progress.last(), Some(&(TOOLS + 2)));
    let reqs = fake.recorded();
    let calls: Vec<(String, String)> = reqs
        .iter()
        .map(|r| (r.method.clone(), r.path.clone()))
        .filter(|(m, p)| !(m == "POST" && p == "/_bulk"))
        .collect();
    let expect: Vec<(String, String)> = [
        ("GET", "/"),
        ("PUT", "/small"),
        ("POST", "/small/_refresh"),
        ("PUT", "/tools-v1"),
        ("POST", "/tools-v1/_refresh"),
        ("POST", "/_aliases"),
    ]
    .iter()
    .map(|(m, p)| (m.to_string(), p.to_string()))
    .collect();
    assert_eq!(calls, expect);
    for r in reqs.iter().filter(|r| r.path == "/_bulk") {
        assert_eq!(r.header("content-type"), Some("application/x-ndjson"));
        assert!(r.body.len() <= 5 * 1024 * 1024);
        assert!(r.body_text().lines().count() <= 1_000);
    }
    // Every document arrived (a retried one twice: once refused, once accepted).
    let mut bulk_by_index: std::collections::BTreeMap<String, Vec<u8>> = Default::default();
    let mut ids = BTreeSet::new();
    let bulks: Vec<&Recorded> = reqs.iter().filter(|r| r.path == "/_bulk").collect();
    for (n, r) in bulks.iter().enumerate() {
        if n == 0 {
            continue; // refused whole
        }
        let text = r.body_text();
        let lines: Vec<&str> = text.lines().collect();
        for (i, pair) in lines.chunks(2).enumerate() {
            if n == 1 && i == 0 {
                continue; // refused as busy, sent again later
            }
            let action: Value = serde_json::from_str(pair[0]).unwrap();
            let index = action["index"]["_index"].as_str().unwrap().to_string();
            assert!(ids.insert((index.clone(), action["index"]["_id"].as_str().unwrap().to_string())), "{}", pair[0]);
            let b = bulk_by_index.entry(index).or_default();
            b.extend_from_slice(pair[0].as_bytes());
            b.push(b'\n');
            b.extend_from_slice(pair[1].as_bytes());
            b.push(b'\n');
        }
    }
    assert_eq!(ids.len() as u64, TOOLS + 2);
    let creates: Vec<(String, Value, Vec<u8>)> = ["small", "tools-v1"]
        .iter()
        .map(|n| {
            let put = reqs.iter().find(|r| r.method == "PUT" && r.path == format!("/{n}")).unwrap();
            let create: Value = serde_json::from_slice(&put.body).unwrap();
            let index = export.indices().iter().find(|i| i.name == *n).unwrap();
            assert_eq!(create, export.create_index_body(index, flavor));
            (n.to_string(), create, bulk_by_index.remove(*n).unwrap())
        })
        .collect();
    let aliases: Value = serde_json::from_slice(&reqs.last().unwrap().body).unwrap();
    assert_eq!(aliases, export.alias_actions());
    assert_same_answers(original, &reload(&creates, &aliases, flavor), true);
}

#[test]
fn to_cluster_takes_the_clusters_flavor_and_headers() {
    let original = source_file();
    let fake = FakeCluster::start(|req: &Recorded, _| match req.path.as_str() {
        "/" => (200, info("2.11.0", Some("opensearch"))),
        "/_bulk" => (200, bulk_accepted(req)),
        _ => (200, "{}".into()),
    });
    let mut config = ClusterConfig::new(&fake.url());
    config.headers.push(("Authorization".into(), "Basic dTpw".into()));
    let cluster = Cluster::new(&config).unwrap();
    let version = cluster.cluster_version().unwrap();
    assert_eq!(version.describe(), "OpenSearch 2.11.0");
    let export = Export::plan(original, "small").unwrap();
    let report = send(&export, &cluster, Flavor::for_cluster(&version), &fast(), &mut |_| {}).unwrap();
    assert_eq!((report.docs, report.retries, report.bulk_requests), (2, 0, 1));
    let reqs = fake.recorded();
    assert!(reqs.iter().all(|r| r.header("authorization") == Some("Basic dTpw")));
    let put: Value = serde_json::from_slice(&reqs[1].body).unwrap();
    assert!(put["mappings"]["properties"]["title"].is_object(), "{put}");
    let bulk = reqs.iter().find(|r| r.path == "/_bulk").unwrap().body_text();
    assert!(bulk.starts_with(r#"{"index":{"_index":"small","_id":"a","routing":"r7"}}"#), "{bulk}");
}

#[test]
fn to_cluster_stops_at_a_refused_document_and_at_a_refused_index() {
    let original = source_file();
    let fake = FakeCluster::start(|req: &Recorded, _| {
        match (req.method.as_str(), req.path.as_str()) {
        ("GET", "/") => (200, info("7.17.0", None)),
        ("PUT", "/tools-v1") => (
            400,
            r#"{"error":{"root_cause":[],"type":"resource_already_exists_exception","reason":"index [tools-v1/x] already exists"},"status":400}"#.into(),
        ),
        ("POST", "/_bulk") => {
            let items = vec![
                json!({"index": {"status": 201}}),
                json!({"index": {"status": 400, "error": {"type": "mapper_parsing_exception", "reason": "failed to parse field [count]"}}}),
            ];
            (200, json!({"errors": true, "items": items}).to_string())
        }
        _ => (200, "{}".into()),
    }
    });
    let cluster = Cluster::new(&ClusterConfig::new(&fake.url())).unwrap();
    let export = Export::plan(original, "small").unwrap();
    let e = send(&export, &cluster, Flavor::Typeless, &fast(), &mut |_| {}).err().unwrap();
    assert_eq!((e.status, e.kind()), (400, "mapper_parsing_exception"));
    assert_eq!(e.reason(), "document [b \"q\"] of [small] was refused: failed to parse field [count]");
    let export = Export::plan(original, "tools-v1").unwrap();
    let e = send(&export, &cluster, Flavor::Typeless, &fast(), &mut |_| {}).err().unwrap();
    assert_eq!((e.status, e.kind()), (400, "resource_already_exists_exception"));
    assert_eq!(e.reason(), "PUT /tools-v1: index [tools-v1/x] already exists");
}

#[test]
fn to_cluster_gives_up_on_a_cluster_that_stays_busy_or_away() {
    let original = source_file();
    let fake = FakeCluster::start(|req: &Recorded, _| match req.path.as_str() {
        "/_bulk" => (
            503,
            r#"{"error":{"type":"unavailable_shards_exception","reason":"primary shard is not active"},"status":503}"#
                .into(),
        ),
        _ => (200, "{}".into()),
    });
    let cluster = Cluster::new(&ClusterConfig::new(&fake.url())).unwrap();
    let export = Export::plan(original, "small").unwrap();
    let opts = SendOptions { attempts: 3, ..fast() };
    let e = send(&export, &cluster, Flavor::Typed, &opts, &mut |_| {}).err().unwrap();
    assert_eq!((e.status, e.kind()), (503, "unavailable_shards_exception"));
    assert_eq!(fake.recorded().iter().filter(|r| r.path == "/_bulk").count(), 3);
    // Nothing listening: 502 after the tries.
    let port = common::free_port();
    let cluster = Cluster::new(&ClusterConfig::new(&format!("http://127.0.0.1:{port}"))).unwrap();
    let e = send(&export, &cluster, Flavor::Typed, &opts, &mut |_| {}).err().unwrap();
    assert_eq!((e.status, e.kind()), (502, "connect_transport_exception"));
}

#[test]
fn load_script_loads_the_files_with_curl() {
    if std::process::Command::new("curl").arg("--version").output().is_err() {
        panic!("curl is needed for this test (tests/run_all.sh installs it)");
    }
    let original = source_file();
    let fake = FakeCluster::start(|req: &Recorded, _| match req.path.as_str() {
        "/_bulk" => (200, bulk_accepted(req)),
        _ => (200, r#"{"acknowledged":true}"#.into()),
    });
    let export = Export::plan(original, "both").unwrap();
    let dir = common::temp_file("export-script").with_extension("d");
    write_dir(&export, &dir, Flavor::Typed, true, &mut |_| {}).unwrap();
    let out = std::process::Command::new("sh")
        .arg(dir.join("load.sh"))
        .arg(format!("{}/", fake.url()))
        .args(["-H", "Authorization: Basic dTpw"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let reqs = fake.recorded();
    let calls: Vec<String> = reqs.iter().map(|r| format!("{} {}", r.method, r.path)).collect();
    let bulks_for_tools = (TOOLS as usize).div_ceil(metagate::export::files::SCRIPT_BULK_DOCS);
    let mut expect =
        vec!["PUT /small".to_string(), "POST /_bulk".into(), "POST /small/_refresh".into(), "PUT /tools-v1".into()];
    expect.extend(std::iter::repeat_n("POST /_bulk".to_string(), bulks_for_tools));
    expect.extend(["POST /tools-v1/_refresh".to_string(), "POST /_aliases".into()]);
    assert_eq!(calls, expect);
    assert!(reqs.iter().all(|r| r.header("authorization") == Some("Basic dTpw")));
    let sent: usize = reqs.iter().filter(|r| r.path == "/_bulk").map(|r| r.body_text().lines().count() / 2).sum();
    assert_eq!(sent as u64, TOOLS + 2);
    let put: Value = serde_json::from_slice(&reqs[0].body).unwrap();
    assert_eq!(put, export.create_index_body(&export.indices()[0], Flavor::Typed));
    // A cluster that refuses documents stops the script with its answer.
    let refusing = FakeCluster::start(|req: &Recorded, _| match req.path.as_str() {
        "/_bulk" => (
            200,
            r#"{"errors":true,"items":[{"index":{"status":400,"error":{"type":"mapper_parsing_exception"}}}]}"#.into(),
        ),
        _ => (200, "{}".into()),
    });
    let out = std::process::Command::new("sh").arg(dir.join("load.sh")).arg(refusing.url()).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("POST /_bulk: the cluster refused documents") && err.contains("mapper_parsing_exception"),
        "{err}"
    );
    assert!(!refusing.recorded().iter().any(|r| r.path == "/_aliases"));
}

#[test]
fn the_export_command_writes_files_and_sends_to_a_cluster() {
    let bin = env!("CARGO_BIN_EXE_metagate");
    let file = common::temp_file("export-cli");
    let data = file.with_extension("ndjson");
    std::fs::write(
        &data,
        common::bulk(&[
            ("rrid:scr_1", json!({"item": {"name": "BLAST"}})),
            ("rrid:scr_2", json!({"item": {"name": "Fiji"}})),
        ]),
    )
    .unwrap();
    let run = |args: &[&str]| std::process::Command::new(bin).args(args).output().unwrap();
    let f = file.to_str().unwrap();
    let out = run(&[
        "load",
        "--file",
        f,
        "--index",
        "tools-v1",
        "--alias",
        "RIN_Tool_pr",
        "--family",
        "registry",
        data.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dir = file.with_extension("out");
    let d = dir.to_str().unwrap();
    let out = run(&["export", "--file", f, "--index", "RIN_Tool_pr", "--out", d, "--gzip", "--target", "es7"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("exported 2 documents of [tools-v1] and 1 alias(es) to "), "{said}");
    let bulk = String::from_utf8(read_gz(&dir.join("tools-v1.bulk.ndjson.gz"))).unwrap();
    assert_eq!(bulk.lines().next(), Some(r#"{"index":{"_index":"tools-v1","_id":"rrid:scr_1"}}"#));
    for name in ["tools-v1.index.json", "aliases.json", "load.sh"] {
        assert!(dir.join(name).is_file(), "{name}");
    }
    let fake = FakeCluster::start(|req: &Recorded, _| match req.path.as_str() {
        "/" => (200, info("6.8.23", None)),
        "/_bulk" => (200, bulk_accepted(req)),
        _ => (200, "{}".into()),
    });
    let url = fake.url();
    let out = run(&[
        "export",
        "--file",
        f,
        "--index",
        "tools-v1",
        "--to",
        &url,
        "--header",
        "Authorization: ApiKey abc",
        "--batch",
        "1",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.starts_with(&format!(
            "sent 2 documents of [tools-v1] and 1 alias(es) to {url} (Elasticsearch 6.8.23) in "
        )),
        "{said}"
    );
    assert!(said.trim_end().ends_with(": 2 _bulk requests, 0 retries"), "{said}");
    let reqs = fake.recorded();
    assert!(reqs.iter().all(|r| r.header("authorization") == Some("ApiKey abc")));
    assert!(reqs.iter().any(|r| r.body_text().contains(r#""_type":"rin""#)));
    // Bad arguments answer clearly.
    for (args, expect) in [
        (vec!["--index", "nope", "--out", d], "[index_not_found_exception] no such index"),
        (vec!["--index", "tools-v1", "--out", d, "--target", "es5"], "unknown target [es5]"),
        (vec!["--index", "tools-v1", "--to", "http://u:p@x"], "not in the cluster address"),
        (vec!["--index", "tools-v1"], "--out"),
    ] {
        let out = run(&[&["export", "--file", f][..], &args].concat());
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect), "{args:?}: {err}");
    }
}
