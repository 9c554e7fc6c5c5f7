//! Top hits by score with block skipping are exact: on a generated registry corpus whose
//! frequent words span many posting blocks, every relevance-ordered search answers the
//! same total, `max_score`, hits and scores as the same search made to score every match
//! (a `post_filter` matching everything turns block skipping off).

mod common;

use metagate::gen::Model;
use metagate::{Engine, Family, LoadOptions};
use serde_json::{json, Value};

const DOCS: u64 = 6000;

fn corpus_engine() -> Engine {
    let model = Model::from_demo().unwrap();
    let mut bulk = Vec::new();
    model.write_bulk(7, DOCS, &mut bulk).unwrap();
    let e = Engine::open_or_create(&common::temp_file("pruned")).unwrap();
    let opts = LoadOptions { family: Some(Family::Registry), ..Default::default() };
    e.load("gen", &bulk[..], &opts, &mut |_, _| {}).unwrap();
    e
}

/// Words of the corpus from frequent to rare, from its own descriptions.
fn words_by_frequency(e: &Engine) -> Vec<String> {
    let mut counts = std::collections::HashMap::<String, u32>::new();
    let page = common::search(e, "gen", &json!({"size": 400, "query": {"match_all": {}}}).to_string()).unwrap();
    for h in page["hits"]["hits"].as_array().unwrap() {
        let text = h["_source"]["item"]["description"].as_str().unwrap_or("");
        for w in metagate::analyze("standard", text).unwrap() {
            *counts.entry(w).or_default() += 1;
        }
    }
    let mut words: Vec<(String, u32)> = counts.into_iter().collect();
    words.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    words.into_iter().map(|(w, _)| w).collect()
}

fn answer(e: &Engine, query: &Value, size: u64, exhaustive: bool) -> Value {
    let mut body = json!({"query": query, "size": size});
    if exhaustive {
        body["post_filter"] = json!({"match_all": {}});
    }
    let mut r = common::search(e, "gen", &body.to_string()).unwrap();
    r.as_object_mut().unwrap().remove("took");
    r
}

#[test]
fn skipping_blocks_never_changes_the_answer() {
    let e = corpus_engine();
    let words = words_by_frequency(&e);
    assert!(words.len() > 60, "the corpus has a vocabulary");
    // Frequent words span many 128-document blocks; rare ones fit one.
    let picks: Vec<&String> = words.iter().step_by(3).take(24).collect();
    let mut queries = Vec::new();
    for (i, w) in picks.iter().enumerate() {
        queries.push(json!({"match": {"item.description": w}}));
        let other = picks[(i * 7 + 5) % picks.len()];
        let pair = format!("{w} {other}");
        queries.push(json!({"match": {"item.description": pair}}));
        queries.push(json!({"match": {"item.description": {"query": pair, "operator": "and"}}}));
        queries.push(json!({"bool": {"should": [
            {"match": {"item.description": w}},
            {"match": {"item.name": {"query": other, "boost": 3}}}
        ]}}));
        queries.push(json!({"bool": {"must": [
            {"match": {"item.description": w}},
            {"match": {"item.description": {"query": other, "boost": 2}}}
        ], "filter": [{"exists": {"field": "item.name"}}]}}));
        queries.push(json!({"multi_match": {"query": pair, "fields": ["item.name^2", "item.description"]}}));
        queries.push(json!({"query_string": {
            "query": pair, "fields": ["item.name", "item.description"],
            "type": "cross_fields", "default_operator": "and"
        }}));
    }
    let mut compared = 0;
    for q in &queries {
        for size in [1, 10, 100] {
            let fast = answer(&e, q, size, false);
            let full = answer(&e, q, size, true);
            assert_eq!(fast, full, "query {q} size {size}");
            compared += 1;
        }
    }
    assert_eq!(compared, 24 * 7 * 3);
    // Something matched, on many blocks.
    let big = answer(&e, &json!({"match": {"item.description": words[0]}}), 10, false);
    assert!(big["hits"]["total"].as_u64().unwrap() > 1000, "{}", big["hits"]["total"]);
}
