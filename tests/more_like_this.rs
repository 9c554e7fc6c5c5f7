//! `more_like_this` as ES 6.8 answers it: the terms selected from liked texts and the
//! scores of the query they make, checked against Lucene's own `MoreLikeThis`
//! (tests/lucene/LuceneQueries.java, ClassicSimilarity term selection, Lucene 7's BM25)
//! over generated documents; liked and unliked documents; the builder's errors; and ES
//! 6.8's REST tests `mlt/10_basic.yml`, `20_docs.yml` and `30_unlike.yml`, translated.

mod common;

use base64::Engine as _;
use common::lucene_analysis::{java_oracle, JARS};
use common::mapped_index::{index, mapped};
use metagate::Engine;
use serde_json::{json, Value};

const WORDS: &[&str] = &[
    "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "the", "red", "fast", "fence", "foxes", "jumped", "river",
    "stone", "cloud", "green", "tree",
];

/// Deterministic documents of 1 to 16 words, most words in many of them.
fn documents() -> Vec<(String, String)> {
    let mut state: u64 = 11;
    let mut next = move || {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    (0..400)
        .map(|i| {
            let n = 1 + next() % 16;
            let words: Vec<&str> = (0..n).map(|_| WORDS[next() % WORDS.len()]).collect();
            (format!("d{i}"), words.join(" "))
        })
        .collect()
}

fn engine() -> Engine {
    let docs: Vec<(String, Value)> = documents().into_iter().map(|(id, d)| (id, json!({"d": d}))).collect();
    common::engine_with("more-like-this", "mlt", None, &docs, None)
}

/// (min_term_freq, min_doc_freq, max_query_terms, boost_terms, minimum_should_match %, text)
type Case = (u32, u32, u32, f32, u32, &'static str);

fn cases() -> Vec<Case> {
    vec![
        (2, 5, 25, 0.0, 30, "the quick fox the quick fox jumps over the lazy dog dog"),
        (1, 5, 25, 0.0, 30, "the quick brown fox jumps over the lazy dog"),
        (1, 1, 3, 0.0, 30, "river stone cloud green tree red fast fence"),
        (1, 1, 2, 0.0, 0, "stone cloud green tree"),
        (1, 1, 25, 1.0, 30, "river river river stone stone cloud"),
        (1, 1, 4, 2.5, 50, "fence fence foxes jumped jumped jumped the the dog"),
        (3, 1, 25, 0.0, 30, "tree tree tree green green"),
        (1, 1000, 25, 0.0, 30, "quick brown"),
        (1, 1, 25, 0.0, 100, "zebra quick zebra"),
    ]
}

fn dsl(c: &Case) -> Value {
    json!({"more_like_this": {"fields": ["d"], "like": c.5, "min_term_freq": c.0, "min_doc_freq": c.1,
        "max_query_terms": c.2, "boost_terms": c.3, "minimum_should_match": format!("{}%", c.4)}})
}

fn notation(c: &Case) -> String {
    format!("mlt({},{},{},{},{},{})", c.0, c.1, c.2, c.3, c.4, c.5)
}

fn oracle_jars() -> String {
    format!("{JARS}:/usr/share/java/lucene-misc-8.7.0.jar:/usr/share/java/lucene-queries-8.7.0.jar")
}

/// Lucene's total and top 10 (id, score bits) per query, in the oracle's notation.
fn lucene_lines(queries: &[String]) -> Vec<(u64, Vec<(String, u32)>)> {
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let docs = documents();
    let mut input = format!("{}\n", docs.len());
    for (id, text) in &docs {
        input.push_str(&format!("{id}\t{}\n", b64(text)));
    }
    for q in queries {
        input.push_str(&format!("{q}\n"));
    }
    let lines = java_oracle("LuceneQueries", &oracle_jars(), input);
    lines
        .iter()
        .map(|line| {
            let (total, top) = line.split_once('\t').unwrap_or((line, ""));
            let hits = top
                .split_whitespace()
                .map(|h| {
                    let (id, bits) = h.split_once(':').unwrap();
                    (id.to_string(), u32::from_str_radix(bits, 16).unwrap())
                })
                .collect();
            (total.parse().unwrap(), hits)
        })
        .collect()
}

fn ours(e: &Engine, query: &Value) -> (u64, Vec<(String, u32)>) {
    let answer = common::search(e, "mlt", &json!({"query": query, "size": 10, "_source": false}).to_string()).unwrap();
    let hits = answer["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["_id"].as_str().unwrap().to_string(), (h["_score"].as_f64().unwrap() as f32).to_bits()))
        .collect();
    (answer["hits"]["total"].as_u64().unwrap(), hits)
}

/// Lucene 8 computes Lucene 7's BM25 as `w - w / (1 + freq * normInverse)`, rounding
/// scores to the precision of the weight: the same total and documents, scores within a
/// few ulps of the weight, the same order but for neighbours that close.
fn same(o: &(u64, Vec<(String, u32)>), l: &(u64, Vec<(String, u32)>)) -> bool {
    let close = |a: u32, b: u32| {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        (x - y).abs() <= 2.0 * f32::EPSILON * 16.0 * x.max(y)
    };
    let by_id = |h: &[(String, u32)]| h.iter().cloned().collect::<std::collections::HashMap<_, _>>();
    let (mine, theirs) = (by_id(&o.1), by_id(&l.1));
    o.0 == l.0
        && mine.len() == theirs.len()
        && mine.iter().all(|(id, s)| theirs.get(id).is_some_and(|t| close(*s, *t)))
        && o.1.iter().zip(&l.1).all(|(a, b)| a.0 == b.0 || close(a.1, b.1))
}

#[test]
fn liked_texts_select_and_score_as_lucene() {
    let e = engine();
    let cases = cases();
    let theirs = lucene_lines(&cases.iter().map(notation).collect::<Vec<_>>());
    assert_eq!(theirs.len(), cases.len());
    let mut differ = Vec::new();
    for (c, l) in cases.iter().zip(&theirs) {
        let o = ours(&e, &dsl(c));
        if !same(&o, l) {
            differ.push(format!("{}\n  metagate {o:?}\n  lucene   {l:?}", notation(c)));
        }
    }
    assert!(differ.is_empty(), "{} differ:\n{}", differ.len(), differ.join("\n"));
    // The cases find documents, and the selection matters: not every case finds the same.
    let totals: Vec<u64> = theirs.iter().map(|(t, _)| *t).collect();
    assert!(totals.iter().filter(|t| **t > 0).count() >= cases.len() - 2, "{totals:?}");
    assert_eq!(totals[7], 0, "no word is in 1000 documents");
}

#[test]
fn a_liked_document_is_its_text_without_itself() {
    let e = engine();
    let docs = documents();
    let (id, text) = docs.iter().find(|(_, t)| t.split(' ').count() >= 12).unwrap();
    let opts = json!({"fields": ["d"], "min_term_freq": 1, "min_doc_freq": 1});
    let with = |like: Value, extra: Value| {
        let mut q = opts.clone();
        q["like"] = like;
        for (k, v) in extra.as_object().unwrap() {
            q[k] = v.clone();
        }
        json!({"more_like_this": q})
    };
    let by_text = ours(&e, &with(json!(text), json!({})));
    let included = ours(&e, &with(json!([{"_id": id}]), json!({"include": true})));
    assert_eq!(included, by_text);
    assert!(by_text.1.iter().any(|(i, _)| i == id));
    // Excluded by default.
    let excluded = ours(&e, &with(json!({"_index": "mlt", "_id": id}), json!({})));
    assert_eq!(excluded.0, by_text.0 - 1);
    assert!(excluded.1.iter().all(|(i, _)| i != id));
    // The selected terms highlight.
    let body =
        json!({"query": with(json!("river river stone"), json!({})), "highlight": {"fields": {"d": {}}}, "size": 1});
    let v = common::search(&e, "mlt", &body.to_string()).unwrap();
    let fragment = v["hits"]["hits"][0]["highlight"]["d"][0].as_str().unwrap().to_string();
    assert!(fragment.contains("<em>river</em>") || fragment.contains("<em>stone</em>"), "{fragment}");
    // A missing document likes nothing.
    assert_eq!(ours(&e, &with(json!([{"_id": "nope"}]), json!({}))).0, 0);
}

/// Items of another index (`_index`): ES fetches them with a multi term vectors request
/// (the document analyzed as that index indexes it), selects their terms in the searched
/// index, skips an item whose index or document is missing, and excludes the searched
/// index's documents that have a liked item's `_id`, whatever its index.
#[test]
fn liked_documents_of_another_index() {
    let e = engine();
    let docs = documents();
    let body = json!({"mappings": {"rin": {"properties": {"d": {"type": "text", "analyzer": "english"}}}}});
    let opts = metagate::LoadOptions { create_body: Some(body), alias: Some("stemmed".into()), ..Default::default() };
    let (twin, twin_text) = &docs[7];
    let other = [("x1", json!({"d": "Foxes jumped over the fences"})), (twin.as_str(), json!({"d": twin_text}))];
    e.load("other", common::bulk(&other).as_bytes(), &opts, &mut |_, _| {}).unwrap();
    let mlt =
        |like: Value| json!({"more_like_this": {"fields": ["d"], "like": like, "min_term_freq": 1, "min_doc_freq": 1}});
    // English stems, stop words left out: the terms of the text "fox jump over fenc" here.
    let stems = ours(&e, &mlt(json!("fox jump over fenc")));
    assert!(stems.0 > 0);
    assert_eq!(ours(&e, &mlt(json!({"_index": "other", "_id": "x1"}))), stems);
    assert_eq!(ours(&e, &mlt(json!({"_index": "stemmed", "_type": "_doc", "_id": "x1"}))), stems);
    // A missing index or document likes nothing, without an error.
    assert_eq!(ours(&e, &mlt(json!([{"_index": "nope", "_id": "x1"}, "fox jump over fenc"]))), stems);
    assert_eq!(ours(&e, &mlt(json!({"_index": "other", "_id": "nope"}))).0, 0);
    // The twin's text analyzed as English; this index's document of that id never matches.
    let twin_like = ours(&e, &mlt(json!({"_index": "other", "_id": twin})));
    assert!(twin_like.0 > 0 && twin_like.1.iter().all(|(id, _)| id != twin));
    let included = json!({"more_like_this": {"fields": ["d"], "like": {"_index": "other", "_id": twin},
        "min_term_freq": 1, "min_doc_freq": 1, "include": true}});
    assert_eq!(ours(&e, &included).0, twin_like.0 + 1);
}

/// XMoreLikeThis stops at Lucene's clause limit (1024) instead of failing, keeping the
/// terms it pops first: the lowest scored.
#[test]
fn terms_beyond_the_clause_limit_are_dropped() {
    let words: Vec<String> = (0..1100).map(|i| format!("w{i}")).collect();
    let docs: Vec<(String, Value)> = vec![("many".to_string(), json!({"d": words.join(" ")}))];
    let e = common::engine_with("mlt-clauses", "mlt", None, &docs, None);
    let q = json!({"more_like_this": {"fields": ["d"], "like": words.join(" "), "min_term_freq": 1,
        "min_doc_freq": 1, "max_query_terms": 5000, "minimum_should_match": "100%", "include": true}});
    // 1024 clauses, all required by 100%: the one document matches them all.
    let v = common::search(&e, "mlt", &json!({"query": q}).to_string()).unwrap();
    assert_eq!(v["hits"]["total"], 1);
    let bool_limit = json!({"bool": {"should": words.iter().map(|w| json!({"term": {"d": w}})).collect::<Vec<_>>()}});
    assert!(common::search(&e, "mlt", &json!({"query": bool_limit}).to_string()).is_err());
}

#[test]
fn unliked_terms_are_never_selected() {
    let e = engine();
    let q = |like: &str, unlike: Option<&str>| {
        let mut m = json!({"fields": ["d"], "like": like, "min_term_freq": 1, "min_doc_freq": 1});
        if let Some(u) = unlike {
            m["unlike"] = json!([u]);
        }
        json!({"more_like_this": m})
    };
    let unliked = ours(&e, &q("river stone cloud", Some("stone Cloud")));
    assert_eq!(unliked, ours(&e, &q("river", None)));
    assert_ne!(unliked, ours(&e, &q("river stone cloud", None)));
}

#[test]
fn refusals_as_es() {
    let e = engine();
    let err = |q: Value| {
        let e = common::search(&e, "mlt", &json!({"query": q}).to_string()).unwrap_err();
        format!("[{}] {}", e.kind(), e.reason())
    };
    assert_eq!(
        err(json!({"more_like_this": {"fields": ["d"]}})),
        "[parsing_exception] more_like_this requires 'like' to be specified"
    );
    assert_eq!(
        err(json!({"more_like_this": {"like": "x", "fields": ["d"], "unlike_texts": "y"}})),
        "[parsing_exception] [mlt] query does not support [unlike_texts]"
    );
    assert_eq!(
        err(json!({"more_like_this": {"like": "x", "fields": ["d"], "max_query_terms": 0}})),
        "[illegal_argument_exception] requires 'maxQueryTerms' to be greater than 0"
    );
    assert!(err(json!({"more_like_this": {"like": "x"}})).starts_with(
        "[illegal_argument_exception] [more_like_this] query cannot infer the field to analyze the free text"
    ));
    assert_eq!(
        err(json!({"more_like_this": {"like": {"_id": "d1", "_version": 1}, "fields": ["d"]}})),
        "[parse_exception] failed to parse More Like This item. unknown field [_version]"
    );
}

#[test]
fn unsupported_fields_fail_or_are_skipped() {
    let idx = index(
        "mlt-types",
        mapped(json!({"n": {"type": "integer"}, "t": {"type": "text"}, "k": {"type": "keyword"}})),
        &[
            ("1", json!({"n": 1, "t": "alpha beta", "k": "Alpha"})),
            ("2", json!({"n": 2, "t": "alpha gamma", "k": "Alpha"})),
            ("3", json!({"n": 3, "t": "delta", "k": "beta"})),
        ],
    );
    let (status, kind, reason) =
        idx.refused(json!({"query": {"more_like_this": {"fields": ["t", "n"], "like": "alpha"}}}));
    assert_eq!(
        (status, kind.as_str(), reason.as_str()),
        (400, "illegal_argument_exception", "more_like_this only supports text/keyword fields: [n]")
    );
    let q = |fields: Value, like: &str| {
        json!({"more_like_this": {"fields": fields, "like": like, "min_term_freq": 1, "min_doc_freq": 1,
            "fail_on_unsupported_field": false}})
    };
    assert_eq!(idx.ids(q(json!(["t", "n"]), "alpha")), ["1", "2"]);
    assert!(idx.ids(q(json!(["n"]), "alpha")).is_empty());
    // A keyword field likes its whole value; a word goes to the field most documents have it in.
    assert_eq!(idx.ids(q(json!(["k"]), "Alpha")), ["1", "2"]);
    // ES ignores an analyzer the index does not know.
    let mut unknown = q(json!(["k"]), "Alpha");
    unknown["more_like_this"]["analyzer"] = json!("no_such_analyzer");
    assert_eq!(idx.ids(unknown), ["1", "2"]);
    let mut standard = q(json!(["k"]), "Alpha");
    standard["more_like_this"]["analyzer"] = json!("standard");
    assert!(idx.ids(standard).is_empty(), "the standard analyzer's [alpha] is no keyword term");
    assert_eq!(idx.ids(q(json!(["t", "k"]), "beta")), ["1"]);
}

/// `mlt/10_basic.yml`: a liked document's field with no term frequent enough selects
/// nothing.
#[test]
fn rest_10_basic() {
    let idx = index(
        "mlt-yaml-10",
        json!({"settings": {"index": {"number_of_replicas": 0}},
               "mappings": {"test": {"properties": {"foo": {"type": "text"}, "title": {"type": "text"}}}}}),
        &[("1", json!({"foo": "bar", "title": "howdy"}))],
    );
    let v = idx.search(json!({"query": {"more_like_this": {"like": [{"_id": 1}], "fields": ["title"]}}}));
    assert_eq!(v["hits"]["total"], 0);
}

/// `mlt/20_docs.yml`: an artificial document and liked documents of the index, included.
#[test]
fn rest_20_docs() {
    let idx = index(
        "mlt-yaml-20",
        json!({"settings": {"number_of_replicas": 0}}),
        &[("1", json!({"foo": "bar"})), ("2", json!({"foo": "baz"})), ("3", json!({"foo": "foo"}))],
    );
    let items = json!([{"_index": "test", "_type": "_doc", "doc": {"foo": "bar"}},
        {"_index": "test", "_type": "_doc", "_id": 2}, {"_id": 3}]);
    let v = idx.search(json!({"query": {"more_like_this": {"like": items, "include": true,
        "min_doc_freq": 0, "min_term_freq": 0}}}));
    assert_eq!(v["hits"]["total"], 3);
    // The artificial document alone: its text field and the keyword multi-field dynamic
    // mapping gives it; it is never excluded.
    let alone = json!({"more_like_this": {"like": {"doc": {"foo": "bar", "new": "fresh"}}, "min_doc_freq": 0,
        "min_term_freq": 0, "minimum_should_match": 1}});
    assert_eq!(idx.ids(alone), ["1"]);
    let keyword_only = json!({"more_like_this": {"like": {"doc": {"foo": "bar"}, "fields": ["foo.keyword"]},
        "min_doc_freq": 0, "min_term_freq": 0}});
    assert_eq!(idx.ids(keyword_only), ["1"]);
}

/// `mlt/30_unlike.yml`: an unliked document's terms are not selected.
#[test]
fn rest_30_unlike() {
    let idx = index(
        "mlt-yaml-30",
        json!({"settings": {"number_of_replicas": 0}}),
        &[("1", json!({"foo": "bar baz selected"})), ("2", json!({"foo": "bar"})), ("3", json!({"foo": "bar baz"}))],
    );
    let v = idx.search(json!({"query": {"more_like_this": {
        "like": {"_index": "test", "_type": "_doc", "_id": 1},
        "unlike": {"_index": "test", "_type": "_doc", "_id": 3},
        "include": true, "min_doc_freq": 0, "min_term_freq": 0}}}));
    assert_eq!(v["hits"]["total"], 1);
    assert_eq!(v["hits"]["hits"][0]["_id"], "1");
}
