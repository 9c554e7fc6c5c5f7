//! Scripts in searches, through the gateway as every door asks it: the SPARC portal's
//! anatomy facet over the demo's dataset index, script fields, the script query,
//! `script_score`, `_script` sorts and aggregation scripts, and their errors.

mod common;

use metagate::gateway::{call::Call, Gateway};
use metagate::{Engine, Family, LoadOptions};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Read;
use std::sync::Arc;

const DATASETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/demo/datasets.ndjson.gz");

fn search(gw: &Gateway, index: &str, body: &Value) -> (u16, Value) {
    let body = body.to_string();
    let a = gw.call(Call::search(index, "", &body));
    (a.status, serde_json::from_slice(&a.body).unwrap())
}

fn datasets_gateway() -> Gateway {
    let e = Engine::open_or_create(&common::temp_file("script-sparc")).unwrap();
    let opts = LoadOptions {
        family: Some(Family::from_name("dataset").unwrap()),
        doc_type: "ks".into(),
        alias: Some("Portal_Dataset_pr".into()),
        ..Default::default()
    };
    let gz = std::fs::read(DATASETS).unwrap();
    e.load("scr_017041-portal_datasets_pr-ks-2026nov22", gz.as_slice(), &opts, &mut |_, _| {}).unwrap();
    Gateway::new(Arc::new(e), Default::default())
}

/// Java's `String.hashCode`.
fn java_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(u as i32))
}

/// Java's `HashMap.toString` of a small map of strings (one table of 16 buckets), which
/// is what ES's terms script makes of each organ object (`Object.toString`).
fn java_map_text(o: &serde_json::Map<String, Value>) -> String {
    assert!(o.len() <= 12);
    let mut entries: Vec<(usize, usize, &String, &Value)> = o
        .iter()
        .enumerate()
        .map(|(i, (k, v))| {
            let h = java_hash(k) as u32;
            (((h ^ (h >> 16)) & 15) as usize, i, k, v)
        })
        .collect();
    entries.sort_by_key(|e| (e.0, e.1));
    let parts: Vec<String> =
        entries.iter().map(|(_, _, k, v)| format!("{k}={}", v.as_str().expect("string values"))).collect();
    format!("{{{}}}", parts.join(", "))
}

#[test]
fn the_sparc_anatomy_facet_counts_organ_objects_as_es_does() {
    // The buckets, from the source documents themselves.
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(DATASETS).unwrap()).read_to_string(&mut text).unwrap();
    let mut expected: BTreeMap<String, u64> = BTreeMap::new();
    for line in text.lines().skip(1).step_by(2) {
        let doc: Value = serde_json::from_str(line).unwrap();
        let mut keys: Vec<String> = match doc.get("anatomy").and_then(|a| a.get("organ")) {
            Some(Value::Array(organs)) => organs.iter().map(|o| java_map_text(o.as_object().unwrap())).collect(),
            Some(Value::Null) | None => Vec::new(),
            Some(other) => panic!("unexpected organ {other}"),
        };
        keys.sort();
        keys.dedup();
        for k in keys {
            *expected.entry(k).or_default() += 1;
        }
    }
    assert!(expected.len() >= 3, "the demo datasets name several organs");
    let mut want: Vec<(String, u64)> = expected.into_iter().collect();
    want.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.as_bytes().cmp(b.0.as_bytes())));

    let gw = datasets_gateway();
    let request = json!({"from": 0, "size": 0, "aggregations": {"names_and_curies": {"terms": {"script": {"lang": "painless",
      "inline": "def a=null;if(params['_source']['anatomy'] != null ) { if(params['_source']['anatomy']['organ'] != null ) { a = params['_source']['anatomy']['organ'];}} return a;"},
      "size": 200}}}});
    let (status, answer) = search(&gw, "Portal_Dataset_pr", &request);
    assert_eq!(status, 200, "{answer}");
    let agg = &answer["aggregations"]["names_and_curies"];
    let got: Vec<(String, u64)> = agg["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["key"].as_str().unwrap().to_string(), b["doc_count"].as_u64().unwrap()))
        .collect();
    assert_eq!(got, want);
    assert_eq!(agg["doc_count_error_upper_bound"], 0);
    assert_eq!(agg["sum_other_doc_count"], 0);
    // Java's HashMap prints these keys as curie, name, matchingStatus (tests/script_java.rs
    // compares that order with a real HashMap's).
    assert!(got[0].0.starts_with("{curie=UBERON:"), "{}", got[0].0);
}

fn small_gateway() -> Gateway {
    let docs = vec![
        ("1", json!({"n": 1, "m": 0.5, "tag": "aaa", "text": "one fish"})),
        ("2", json!({"n": 2, "m": 1.5, "tag": "bbb", "text": "two fish"})),
        ("3", json!({"n": 3, "m": 2.5, "tag": "aaa", "text": "red fish"})),
        ("4", json!({"tag": "ccc", "text": "blue fish"})),
    ];
    Gateway::new(Arc::new(common::engine_with("script-small", "things", None, &docs, None)), Default::default())
}

fn ids(answer: &Value) -> Vec<String> {
    common::hit_ids(answer)
}

#[test]
fn script_fields_take_params_and_source() {
    let gw = small_gateway();
    let (status, a) = search(
        &gw,
        "things",
        &json!({"sort": ["_doc"], "script_fields": {
            "bar": {"script": {"source": "doc['tag.keyword'].value + params.x", "params": {"x": "!"}}},
            "twice": {"script": "doc['n'].value * 2"},
            "from_source": {"script": {"source": "params['_source']['text'].toUpperCase()"}},
            "list": {"script": "[doc['n'].value, doc['n'].size()]"}
        }}),
    );
    assert_eq!(status, 200, "{a}");
    let hits = a["hits"]["hits"].as_array().unwrap();
    assert_eq!(hits[0]["fields"]["bar"], json!(["aaa!"]));
    assert_eq!(hits[1]["fields"]["twice"], json!([4]));
    assert_eq!(hits[2]["fields"]["from_source"], json!(["RED FISH"]));
    // A missing long reads as 0 in ES 6.8 (with its deprecation), and a list is the values.
    assert_eq!(hits[3]["fields"]["list"], json!([0, 0]));
    assert_eq!(hits[3]["fields"]["bar"], json!(["ccc!"]));
    assert!(hits[0]["_source"].is_object(), "script fields keep _source");
}

#[test]
fn script_errors_answer_es_shard_failures() {
    let gw = small_gateway();
    // The REST test of ES 6.8's 20_scriptfield.yml.
    let (status, a) =
        search(&gw, "things", &json!({"script_fields": {"bar": {"script": {"source": "while (true) {}"}}}}));
    assert_eq!(status, 400);
    assert_eq!(a["error"]["root_cause"][0]["type"], "script_exception");
    assert_eq!(a["error"]["root_cause"][0]["reason"], "compile error");
    assert_eq!(a["error"]["type"], "search_phase_execution_exception");
    assert_eq!(a["error"]["reason"], "all shards failed");
    let shard = &a["error"]["failed_shards"][0];
    assert_eq!(shard["index"], "things");
    assert_eq!(shard["reason"]["type"], "script_exception");
    assert_eq!(shard["reason"]["reason"], "compile error");
    assert_eq!(
        shard["reason"]["caused_by"],
        json!({"type": "illegal_argument_exception", "reason": "While loop has no escape."})
    );
    assert_eq!(shard["reason"]["script_stack"], json!(["while (true) {}", "^---- HERE"]));
    assert_eq!(shard["reason"]["script"], "while (true) {}");
    assert_eq!(shard["reason"]["lang"], "painless");

    // A runtime error: the statement and a pointer at the failing expression.
    let src = "def x = doc['n'].value; return x / (x - x);";
    let (status, a) = search(&gw, "things", &json!({"script_fields": {"bar": {"script": src}}}));
    assert_eq!(status, 400);
    let reason = &a["error"]["failed_shards"][0]["reason"];
    assert_eq!(reason["reason"], "runtime error");
    assert_eq!(reason["script_stack"], json!(["return x / (x - x);", "       ^---- HERE"]));
    assert_eq!(reason["caused_by"], json!({"type": "arithmetic_exception", "reason": "/ by zero"}));
    // ignore_failure leaves the field out instead.
    let (status, a) =
        search(&gw, "things", &json!({"script_fields": {"bar": {"script": src, "ignore_failure": true}}}));
    assert_eq!(status, 200);
    assert!(a["hits"]["hits"][0].get("fields").is_none());

    let (status, a) = search(&gw, "things", &json!({"query": {"script": {"script": "def x = null; x.length() > 1"}}}));
    assert_eq!(status, 400);
    assert_eq!(
        a["error"]["failed_shards"][0]["reason"]["caused_by"],
        json!({"type": "null_pointer_exception", "reason": null})
    );
    let (status, a) =
        search(&gw, "things", &json!({"query": {"script": {"script": "doc['tag.keyword'].value ==~ /a+/"}}}));
    assert_eq!(status, 400);
    assert_eq!(a["error"]["failed_shards"][0]["reason"]["caused_by"]["type"], "illegal_state_exception");
    assert!(a["error"]["failed_shards"][0]["reason"]["caused_by"]["reason"]
        .as_str()
        .unwrap()
        .starts_with("Regexes are disabled. Set [script.painless.regex.enabled] to [true]"));
    let (status, a) =
        search(&gw, "things", &json!({"query": {"script": {"script": "int i = 0; while (i >= 0) { i++ } true"}}}));
    assert_eq!(status, 400);
    assert_eq!(
        a["error"]["failed_shards"][0]["reason"]["caused_by"],
        json!({"type": "painless_error", "reason": "The maximum number of statements that can be executed in a loop has been reached."})
    );
    let (status, a) =
        search(&gw, "things", &json!({"query": {"script": {"script": {"source": "true", "lang": "groovy"}}}}));
    assert_eq!((status, a["error"]["reason"].as_str()), (400, Some("script_lang not supported [groovy]")));
    let (status, a) = search(&gw, "things", &json!({"query": {"script": {"script": {"id": "saved"}}}}));
    assert_eq!(status, 404);
    assert_eq!(a["error"]["type"], "resource_not_found_exception");
}

#[test]
fn script_query_filters_by_the_scripts_answer() {
    let gw = small_gateway();
    let body = json!({"sort": ["_doc"], "query": {"bool": {"filter": {"script": {"script": {
        "source": "doc['n'].value >= params.min && doc['tag.keyword'].value != 'bbb'", "params": {"min": 1}}}}}}});
    let (status, a) = search(&gw, "things", &body);
    assert_eq!(status, 200, "{a}");
    assert_eq!(ids(&a), vec!["1", "3"]);
}

#[test]
fn script_score_reads_the_query_score_and_doc_values() {
    let gw = small_gateway();
    let body = json!({"query": {"function_score": {"query": {"match_all": {}},
        "script_score": {"script": {"source": "_score * 10 + doc['m'].value + Math.log(1 + doc['n'].value)"}},
        "boost_mode": "replace"}}});
    let (status, a) = search(&gw, "things", &body);
    assert_eq!(status, 200, "{a}");
    let got: Vec<(String, f32)> = common::hit_scores(&a);
    let expected: Vec<(String, f32)> = vec![
        ("3".to_string(), (10.0 + 2.5 + (4.0f64).ln()) as f32),
        ("2".to_string(), (10.0 + 1.5 + (3.0f64).ln()) as f32),
        ("1".to_string(), (10.0 + 0.5 + (2.0f64).ln()) as f32),
        ("4".to_string(), 10.0),
    ];
    assert_eq!(got, expected);
}

#[test]
fn script_sorts_by_number_and_string() {
    let gw = small_gateway();
    let body = json!({"sort": [{"_script": {"type": "number", "order": "desc", "script": {"source": "doc['n'].value * params.f", "params": {"f": -1}}}}]});
    let (status, a) = search(&gw, "things", &body);
    assert_eq!(status, 200, "{a}");
    assert_eq!(ids(&a), vec!["4", "1", "2", "3"]);
    assert_eq!(a["hits"]["hits"][0]["sort"], json!([0.0]));
    let body = json!({"sort": [{"_script": {"type": "string", "script": "doc['tag.keyword'].value + doc['n'].value"}}, "_doc"]});
    let (_, a) = search(&gw, "things", &body);
    assert_eq!(ids(&a), vec!["1", "3", "2", "4"]);
    assert_eq!(a["hits"]["hits"][0]["sort"], json!(["aaa1", 0]));
}

#[test]
fn aggregation_scripts_and_value_scripts() {
    let gw = small_gateway();
    let body = json!({"size": 0, "aggs": {
        "by_script": {"terms": {"script": "doc['tag.keyword'].value.substring(0, 1)"}},
        "scaled": {"terms": {"field": "n", "script": "_value * 10", "value_type": "long"}},
        "avg_m": {"avg": {"script": "doc['m'].value * 2"}},
        "total": {"sum": {"field": "n", "script": {"source": "_value + params.k", "params": {"k": 1}}}},
        "count": {"value_count": {"script": "doc['tag.keyword'].value"}}
    }});
    let (status, a) = search(&gw, "things", &body);
    assert_eq!(status, 200, "{a}");
    let aggs = &a["aggregations"];
    assert_eq!(
        aggs["by_script"]["buckets"],
        json!([{"key": "a", "doc_count": 2}, {"key": "b", "doc_count": 1}, {"key": "c", "doc_count": 1}])
    );
    assert_eq!(
        aggs["scaled"]["buckets"],
        json!([{"key": 10, "doc_count": 1}, {"key": 20, "doc_count": 1}, {"key": 30, "doc_count": 1}])
    );
    // Document 4 has no m: 6.8 reads 0.0.
    assert_eq!(aggs["avg_m"]["value"], json!((1.0 + 3.0 + 5.0 + 0.0) / 4.0));
    assert_eq!(aggs["total"]["value"], json!(9.0));
    assert_eq!(aggs["count"]["value"], json!(4));
}

#[test]
fn a_long_script_stops_at_the_request_timeout() {
    let gw = small_gateway();
    // 900,000 iterations a document stays under the loop counter; the timeout ends it.
    let body = json!({"timeout": "50ms", "query": {"script": {"script":
        "long s = 0; for (int i = 0; i < 900000; i++) { s += i } s > 0"}}});
    let started = std::time::Instant::now();
    let (status, a) = search(&gw, "things", &body);
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["timed_out"], true);
    assert!(started.elapsed() < std::time::Duration::from_secs(3), "{:?}", started.elapsed());
}

#[test]
fn lambdas_functions_catches_and_enabled_regexes_run_in_script_fields() {
    let engine = common::engine_with(
        "script-language",
        "words",
        None,
        &[("1", serde_json::json!({"w": "abc-123", "n": [3, 1, 2]}))],
        None,
    );
    let body = serde_json::json!({"script_fields": {
        "sorted": {"script": "def l = new ArrayList(doc['n'].values); l.sort((a, b) -> b.compareTo(a)); l"},
        "fn": {"script": "long twice(long x) { 2 * x } twice(doc['n'].value)"},
        "caught": {"script": "try { return doc['nope'].value } catch (IllegalArgumentException e) { return 'none' }"},
        "digits": {"script": "def m = /\\d+/.matcher(doc['w.keyword'].value); m.find() ? m.group() : null"}
    }});
    let e = common::search(&engine, "words", &body.to_string()).unwrap_err();
    let cause = &e.to_json()["error"]["failed_shards"][0]["reason"]["caused_by"];
    assert_eq!(cause["type"], "illegal_state_exception", "{}", e.to_json());
    assert!(cause["reason"].as_str().unwrap().starts_with("Regexes are disabled."));
    engine.set_script_regex(true);
    let v = common::search(&engine, "words", &body.to_string()).unwrap();
    let f = &v["hits"]["hits"][0]["fields"];
    assert_eq!(f["sorted"], serde_json::json!([3, 2, 1]));
    assert_eq!(f["fn"], serde_json::json!([2]));
    assert_eq!(f["caught"], serde_json::json!(["none"]));
    assert_eq!(f["digits"], serde_json::json!(["123"]));
}
