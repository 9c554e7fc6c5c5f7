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
    let a = gw.call(&Call::Search { index, query: "", body: &body });
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
