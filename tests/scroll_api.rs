//! Scroll through the engine API: completeness, restarts, sharing across engines,
//! clearing, forgery, expiry, snapshot consistency and slices.

mod common;
use metagate::load::LoadOptions;
use metagate::Engine;
use serde_json::{json, Value};
use std::collections::HashSet;

fn docs(n: usize, tag: &str) -> Vec<(String, Value)> {
    (0..n).map(|i| (format!("{tag}{i}"), json!({"t": format!("word{} common", i % 13), "n": i}))).collect()
}

fn load(e: &Engine, name: &str, alias: Option<&str>, d: &[(String, Value)]) {
    let refs: Vec<(&str, Value)> = d.iter().map(|(i, v)| (i.as_str(), v.clone())).collect();
    let opts = LoadOptions { alias: alias.map(str::to_string), ..Default::default() };
    e.load(name, common::bulk(&refs).as_bytes(), &opts, &mut |_, _| {}).unwrap();
}

fn ids(page: &Value) -> Vec<String> {
    page["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap().to_string()).collect()
}

fn drain(e: &Engine, first: Value, keep: &str) -> Vec<String> {
    let mut all = ids(&first);
    let mut id = first["_scroll_id"].as_str().unwrap().to_string();
    loop {
        let page = e.scroll_next(&id, Some(keep)).unwrap();
        let got = ids(&page);
        if got.is_empty() {
            break;
        }
        all.extend(got);
        id = page["_scroll_id"].as_str().unwrap().to_string();
    }
    all
}

#[test]
fn doc_and_score_scrolls_return_everything_once() {
    let e = Engine::open_or_create(&common::temp_file("scroll")).unwrap();
    load(&e, "a", Some("A_pr"), &docs(2500, "a"));
    for (body, size) in [
        (r#"{"sort":["_doc"],"size":7}"#, 7),
        (r#"{"size":1000}"#, 1000),
        (r#"{"query":{"match":{"t":"common word3"}},"size":100}"#, 100),
    ] {
        let first = e.scroll_start("A_pr", body, &[], "1m").unwrap();
        assert_eq!(first.as_object().unwrap().keys().next().unwrap(), "_scroll_id");
        let all = drain(&e, first.clone(), "1m");
        assert_eq!(all.len(), 2500, "{body}");
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), 2500, "{body}");
        assert_eq!(first["hits"]["total"], 2500);
        assert!(ids(&first).len() <= size);
    }
    // A score-sorted scroll returns hits in descending score order.
    let first = e.scroll_start("A_pr", r#"{"query":{"match":{"t":"word3"}},"size":50}"#, &[], "1m").unwrap();
    let scores: Vec<f64> =
        first["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]));
}

#[test]
fn survives_restart_and_works_from_a_second_engine() {
    let path = common::temp_file("scroll-restart");
    let first;
    {
        let e = Engine::open_or_create(&path).unwrap();
        load(&e, "a", None, &docs(300, "a"));
        first = e.scroll_start("a", r#"{"size":100,"sort":["_doc"]}"#, &[], "5m").unwrap();
    }
    let e1 = Engine::open(&path).unwrap();
    let e2 = Engine::open(&path).unwrap();
    let p2 = e1.scroll_next(first["_scroll_id"].as_str().unwrap(), Some("5m")).unwrap();
    let p3 = e2.scroll_next(p2["_scroll_id"].as_str().unwrap(), Some("5m")).unwrap();
    let mut all = ids(&first);
    all.extend(ids(&p2));
    all.extend(ids(&p3));
    assert_eq!(all.iter().collect::<HashSet<_>>().len(), 300);
    // Cleared through one engine, gone for the other.
    assert_eq!(e1.clear_scroll(&[p3["_scroll_id"].as_str().unwrap().to_string()]).unwrap(), 1);
    let err = e2.scroll_next(p3["_scroll_id"].as_str().unwrap(), Some("5m")).unwrap_err();
    assert_eq!(err.status, 404);
    assert_eq!(err.to_json()["error"]["root_cause"][0]["type"], "search_context_missing_exception");
    assert_eq!(err.to_json()["error"]["type"], "search_phase_execution_exception");
    assert_eq!(err.to_json()["error"]["caused_by"]["type"], "search_context_missing_exception");
    assert_eq!(e1.clear_scroll(&[p3["_scroll_id"].as_str().unwrap().to_string()]).unwrap(), 0);
}

#[test]
fn forged_expired_and_invalid_requests() {
    let e = Engine::open_or_create(&common::temp_file("scroll-bad")).unwrap();
    load(&e, "a", None, &docs(50, "a"));
    let first = e.scroll_start("a", r#"{"size":10}"#, &[], "1m").unwrap();
    let id = first["_scroll_id"].as_str().unwrap();
    // Tampering with the payload breaks the signature.
    let (payload, mac) = id.split_once('.').unwrap();
    let mut bytes: Vec<u8> = payload.bytes().collect();
    bytes[5] = if bytes[5] == b'A' { b'B' } else { b'A' };
    let forged = format!("{}.{mac}", String::from_utf8(bytes).unwrap());
    let err = e.scroll_next(&forged, Some("1m")).unwrap_err();
    assert_eq!(err.status, 400);
    assert_eq!(err.reason(), "Cannot parse scroll id");
    assert_eq!(e.scroll_next("garbage", Some("1m")).unwrap_err().status, 400);
    // Expired.
    let short = e.scroll_start("a", r#"{"size":10}"#, &[], "1ms").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(e.scroll_next(short["_scroll_id"].as_str().unwrap(), Some("1m")).unwrap_err().status, 404);
    // size 0 and oversized batches.
    let err = e.scroll_start("a", r#"{"size":0}"#, &[], "1m").unwrap_err();
    assert_eq!(err.reason(), "Validation Failed: 1: [size] cannot be [0] in a scroll context;");
    let err = e.scroll_start("a", r#"{"size":10001}"#, &[], "1m").unwrap_err();
    assert_eq!(err.status, 500);
    assert!(err.to_json()["error"]["root_cause"][0]["reason"]
        .as_str()
        .unwrap()
        .starts_with("Batch size is too large, size must be less than or equal to: [10000] but was [10001]."));
    // No keep-alive on a continuation: no _scroll_id in the answer.
    let next = e.scroll_next(first["_scroll_id"].as_str().unwrap(), None).unwrap();
    assert!(next.get("_scroll_id").is_none());
    // Clear all.
    let _ = e.scroll_start("a", r#"{"size":10}"#, &[], "1m").unwrap();
    assert!(e.clear_scroll(&["_all".into()]).unwrap() >= 1);
}

#[test]
fn pinned_snapshot_ignores_alias_moves_and_new_generations() {
    let e = Engine::open_or_create(&common::temp_file("scroll-snap")).unwrap();
    load(&e, "v1", Some("T_pr"), &docs(120, "old"));
    let first = e.scroll_start("T_pr", r#"{"size":50,"sort":["_doc"]}"#, &[], "1m").unwrap();
    load(&e, "v2", Some("T_pr"), &docs(80, "new"));
    let all = drain(&e, first, "1m");
    assert_eq!(all.len(), 120);
    assert!(all.iter().all(|i| i.starts_with("old")));
}

#[test]
fn slices_partition_without_overlap() {
    let e = Engine::open_or_create(&common::temp_file("scroll-slice")).unwrap();
    load(&e, "a", None, &docs(1000, "d"));
    let mut seen = HashSet::new();
    let mut count = 0;
    for id in 0..3 {
        let body = format!(r#"{{"size":100,"slice":{{"id":{id},"max":3}},"sort":["_doc"]}}"#);
        let first = e.scroll_start("a", &body, &[], "1m").unwrap();
        for i in drain(&e, first, "1m") {
            count += 1;
            seen.insert(i);
        }
    }
    assert_eq!(count, 1000);
    assert_eq!(seen.len(), 1000);
}

#[test]
fn iterator_api() {
    let e = Engine::open_or_create(&common::temp_file("scroll-iter")).unwrap();
    load(&e, "a", None, &docs(333, "d"));
    let hits: Vec<Value> = e.scroll_iter("a", r#"{"size":100}"#, "1m").collect::<Result<_, _>>().unwrap();
    assert_eq!(hits.len(), 333);
}
