//! A load split into many segments (a tiny `memory` budget) gives exactly the answers of
//! the same load built in one segment: scores, totals, aggregations, phrases, sorting,
//! explanations, and `_id` duplicates resolved across segments (last one wins).

mod common;

use metagate::{Engine, Family, LoadOptions};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Loads `input` twice: in one segment, and with a budget that flushes a segment per
/// document or so.
fn one_and_many(tag: &str, input: &str, family: Option<Family>, mapping: Option<Value>) -> (Engine, Engine) {
    let load = |memory: usize| {
        let e = Engine::open_or_create(&common::temp_file(tag)).unwrap();
        let opts = LoadOptions { family, memory, max_errors: 1000, mapping: mapping.clone(), ..Default::default() };
        e.load("idx", input.as_bytes(), &opts, &mut |_, _| {}).unwrap();
        e
    };
    (load(1 << 30), load(1))
}

/// A search answer without its timing.
fn answer(e: &Engine, body: &Value) -> Value {
    let mut v = common::search(e, "idx", &body.to_string()).unwrap();
    v.as_object_mut().unwrap().remove("took");
    v
}

fn assert_same(one: &Engine, many: &Engine, bodies: &[Value]) {
    for body in bodies {
        assert_eq!(answer(one, body), answer(many, body), "{body}");
    }
}

fn registry_corpus(n: u64) -> String {
    let model = metagate::gen::Model::from_demo().unwrap();
    let mut out = Vec::new();
    model.write_bulk(7, n, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn many_segments_answer_exactly_as_one() {
    let input = registry_corpus(300);
    let (one, many) = one_and_many("segs", &input, Some(Family::Registry), None);
    let hits = answer(&one, &json!({"query": {"match": {"item.description": "data analysis"}}}));
    assert!(hits["hits"]["total"].as_u64().unwrap() > 10, "the query matches: {hits}");
    assert_same(
        &one,
        &many,
        &[
            json!({"query": {"match": {"item.description": "data analysis software"}}, "size": 20}),
            json!({"query": {"match_phrase": {"item.description": "data analysis"}}, "size": 20}),
            json!({"query": {"match_phrase": {"item.description": {"query": "data software", "slop": 3}}}}),
            json!({"query": {"multi_match": {"query": "genome database", "fields": ["item.name^2", "item.description"]}},
                   "explain": true, "size": 5}),
            json!({"query": {"match_all": {}}, "sort": [{"item.identifier.aggregate": "desc"}], "size": 15}),
            json!({"query": {"match_all": {}}, "sort": [{"mentions.totalMentions.count": "asc"}, {"item.identifier.aggregate": "asc"}],
                   "size": 15}),
            json!({"query": {"range": {"mentions.totalMentions.count": {"gte": 8, "lt": 300}}}, "size": 0}),
            json!({"query": {"range": {"provenance.ingestTime": {"gte": "20100101T000000+0000"}}}, "size": 3,
                   "sort": [{"provenance.ingestTime": "desc"}]}),
            json!({"size": 0, "aggs": {
                "org": {"terms": {"field": "organisms.related.species.name.aggregate", "size": 20}},
                "kw": {"terms": {"field": "item.keywords.keyword.aggregate", "size": 50}},
                "m": {"stats": {"field": "mentions.totalMentions.count"}},
                "years": {"date_histogram": {"field": "provenance.ingestTime", "interval": "year"}}}}),
            json!({"query": {"term": {"recordValid": true}}, "size": 0}),
            json!({"query": {"ids": {"values": ["rrid:scr_0000007", "rrid:scr_0000299"]}}}),
            json!({"query": {"query_string": {"query": "item.name:(data OR gene*) AND NOT item.description:cell"}},
                   "size": 10}),
        ],
    );
}

/// Terms in tens of thousands of documents: their postings (longer than the merge keeps
/// in memory from a run) are read back from the runs for each pass, and their blocks,
/// doc values and points span many parts.
#[test]
fn long_postings_merge_as_one_segment_writes_them() {
    let mut input = String::new();
    for i in 0..40_000u32 {
        let doc = json!({"t": format!("common w{} common", i % 50), "k": format!("tag{}", i % 3), "n": i % 1000,
                         "x": f64::from(i) / 7.0});
        input.push_str(&format!("{{\"index\":{{\"_id\":\"d{}\"}}}}\n{doc}\n", i % 39_000));
    }
    let load = |memory: usize| {
        let e = Engine::open_or_create(&common::temp_file("long")).unwrap();
        let opts = LoadOptions { memory, ..Default::default() };
        e.load("idx", input.as_bytes(), &opts, &mut |_, _| {}).unwrap();
        e
    };
    let (one, many) = (load(1 << 30), load(2 << 20));
    let total = answer(&one, &json!({"query": {"match": {"t": "common"}}, "size": 0}));
    assert_eq!(total["hits"]["total"], 39_000, "{total}");
    assert_same(
        &one,
        &many,
        &[
            json!({"query": {"match": {"t": "common w7"}}, "size": 30}),
            json!({"query": {"match_phrase": {"t": "w7 common"}}, "size": 5, "sort": [{"n": "desc"}, {"_id": "asc"}]}),
            json!({"query": {"range": {"x": {"gte": 100.5, "lt": 2000}}}, "size": 3, "sort": [{"x": "asc"}]}),
            json!({"size": 0, "aggs": {"k": {"terms": {"field": "k.keyword"}}, "n": {"stats": {"field": "n"}},
                   "x": {"histogram": {"field": "x", "interval": 500}}}}),
            json!({"query": {"term": {"_id": "d38999"}}}),
        ],
    );
}

#[test]
fn duplicate_ids_across_segments_keep_the_last() {
    let docs = [
        ("a", json!({"title": "first alpha", "n": 1, "tag": "x"})),
        ("b", json!({"title": "beta", "n": 2, "tag": "y"})),
        ("a", json!({"title": "second alpha", "n": 3, "tag": "z"})),
        ("c", json!({"title": "gamma alpha", "n": 4, "tag": "x"})),
        ("b", json!({"title": "beta again", "n": 5, "tag": "y"})),
        ("a", json!({"title": "third alpha", "n": 6, "tag": "w"})),
    ];
    let mut input = common::bulk(&docs);
    // A `create` of an existing `_id` is refused and leaves the document before it.
    input.push_str("{\"create\":{\"_id\":\"c\",\"_type\":\"rin\"}}\n{\"title\":\"refused\",\"n\":9,\"tag\":\"q\"}\n");
    let (one, many) = one_and_many("dups", &input, None, None);
    for e in [&one, &many] {
        let all = answer(e, &json!({"query": {"match_all": {}}, "sort": [{"n": "asc"}]}));
        assert_eq!(all["hits"]["total"], 3);
        let got: Vec<(&str, &str)> = all["hits"]["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h["_id"].as_str().unwrap(), h["_source"]["title"].as_str().unwrap()))
            .collect();
        assert_eq!(got, [("c", "gamma alpha"), ("b", "beta again"), ("a", "third alpha")]);
        // Replaced documents leave no terms, values or statistics behind.
        let aggs = answer(
            e,
            &json!({"size": 0, "aggs": {"t": {"terms": {"field": "tag.keyword"}}, "s": {"sum": {"field": "n"}}}}),
        );
        assert_eq!(aggs["aggregations"]["s"]["value"], 15.0);
        let tags: Vec<&str> = aggs["aggregations"]["t"]["buckets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["key"].as_str().unwrap())
            .collect();
        assert_eq!(tags, ["w", "x", "y"]);
        assert_eq!(answer(e, &json!({"query": {"match": {"title": "first"}}}))["hits"]["total"], 0);
    }
    assert_same(&one, &many, &[json!({"query": {"match": {"title": "alpha beta"}}, "explain": true})]);
    let report = {
        let e = Engine::open_or_create(&common::temp_file("dups-report")).unwrap();
        let opts = LoadOptions { memory: 1, max_errors: 1, ..Default::default() };
        e.load("idx", input.as_bytes(), &opts, &mut |_, _| {}).unwrap()
    };
    assert_eq!((report.docs, report.replaced), (3, 3));
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.errors[0].line, 14);
    assert_eq!(report.errors[0].reason, "[rin][c]: version conflict, document already exists (current version [1])");
}

const WORDS: [&str; 12] =
    ["cell", "line", "gene", "data", "map", "atlas", "human", "mouse", "rna", "seq", "tool", "web"];

fn small_corpus() -> impl Strategy<Value = Vec<(u8, Vec<usize>, i64, Vec<usize>)>> {
    prop::collection::vec(
        (0u8..20, prop::collection::vec(0..WORDS.len(), 0..12), -50i64..50, prop::collection::vec(0..4usize, 0..3)),
        1..40,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random small corpora (with repeated ids) answer the same in one and many segments.
    #[test]
    fn random_corpora_answer_the_same(corpus in small_corpus()) {
        let docs: Vec<(String, Value)> = corpus
            .iter()
            .map(|(id, words, n, tags)| {
                let text: Vec<&str> = words.iter().map(|&w| WORDS[w]).collect();
                let tags: Vec<String> = tags.iter().map(|t| format!("t{t}")).collect();
                (format!("d{id}"), json!({"body": text.join(" "), "n": n, "f": *n as f64 / 4.0, "tags": tags}))
            })
            .collect();
        let mapping = json!({"properties": {"body": {"type": "text"}, "n": {"type": "long"}, "f": {"type": "double"},
                                            "tags": {"type": "keyword"}}});
        let (one, many) = one_and_many("prop", &common::bulk(&docs), None, Some(mapping));
        assert_same(&one, &many, &[
            json!({"query": {"match": {"body": "cell gene atlas"}}, "size": 50, "explain": true}),
            json!({"query": {"match_phrase": {"body": "cell line"}}, "size": 50}),
            json!({"query": {"match_all": {}}, "sort": [{"f": "desc"}, {"tags": "asc"}, {"_id": "asc"}], "size": 50}),
            json!({"query": {"range": {"n": {"gte": -10, "lte": 20}}}, "size": 0,
                   "aggs": {"t": {"terms": {"field": "tags"}}, "n": {"stats": {"field": "n"}}}}),
        ]);
    }
}
