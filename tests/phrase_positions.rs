//! Phrases read the positions of their candidates only, jumping through posting blocks:
//! over 600 documents (terms spanning several 128-document blocks), phrases with repeated
//! terms, sloppy phrases and phrase prefixes find exactly the documents that hold them.

mod common;

use serde_json::json;

fn texts(i: usize) -> &'static str {
    match i % 3 {
        0 => "to be or not to be",
        1 => "to be is to do",
        _ => "be to or",
    }
}

fn total(e: &metagate::Engine, query: serde_json::Value) -> u64 {
    let r = common::search(e, "p", &json!({"query": query, "size": 3}).to_string()).unwrap();
    r["hits"]["total"].as_u64().unwrap()
}

#[test]
fn phrases_match_exactly_the_documents_that_hold_them() {
    let docs: Vec<(String, serde_json::Value)> =
        (0..600).map(|i| (format!("d{i}"), json!({"text": texts(i), "n": i}))).collect();
    let e = common::engine_with("phrase-positions", "p", None, &docs, None);
    let phrase = |q: &str| json!({"match_phrase": {"text": q}});
    // The whole sentence repeats "to" and "be".
    assert_eq!(total(&e, phrase("to be or not to be")), 200);
    assert_eq!(total(&e, phrase("not to be")), 200);
    assert_eq!(total(&e, phrase("to be")), 400);
    assert_eq!(total(&e, phrase("be to")), 200);
    assert_eq!(total(&e, phrase("to do")), 200);
    assert_eq!(total(&e, phrase("be or not")), 200);
    assert_eq!(total(&e, phrase("or to")), 0);
    // One word between: slop 1 finds "to … or" in "to be or" and "be to or" is exact.
    assert_eq!(total(&e, json!({"match_phrase": {"text": {"query": "to or", "slop": 1}}})), 400);
    assert_eq!(total(&e, json!({"match_phrase_prefix": {"text": "to be o"}})), 200);
    // Documents of one text score alike, wherever their block.
    let r = common::search(&e, "p", &json!({"query": phrase("to be or not to be"), "size": 200}).to_string()).unwrap();
    let hits = r["hits"]["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 200);
    let first = hits[0]["_score"].as_f64().unwrap();
    assert!(hits.iter().all(|h| h["_score"].as_f64() == Some(first)));
    assert!(hits.iter().all(|h| h["_source"]["n"].as_u64().unwrap() % 3 == 0));
}
