//! Fields analysed by the analyzers an index defines: a create-index body's
//! `settings.analysis` analyzers and normalizers on text and keyword fields, the index's
//! `default` / `default_search` analyzers, `search_analyzer`, `search_quote_analyzer` and
//! `position_increment_gap`, as indexing, queries, `_mapping` and `_analyze` see them, and
//! ES's errors for definitions it refuses.

mod common;

use metagate::{Engine, LoadOptions};
use serde_json::{json, Value};

fn create_body() -> Value {
    json!({
        "settings": {"analysis": {
            "char_filter": {"dashes": {"type": "mapping", "mappings": ["- => _"]}},
            "filter": {"en_stop": {"type": "stop", "stopwords": "_english_"}},
            "analyzer": {
                "folded": {"tokenizer": "standard", "filter": ["lowercase", "asciifolding"]},
                "codes": {"tokenizer": "whitespace", "char_filter": ["dashes"], "filter": ["lowercase"]},
                "stopped": {"tokenizer": "standard", "filter": ["lowercase", "en_stop"]},
                "kept": {"tokenizer": "keyword", "filter": ["lowercase"]},
                "default_search": {"tokenizer": "whitespace"}
            },
            "normalizer": {"fold": {"type": "custom", "filter": ["lowercase", "asciifolding"]}}
        }},
        "mappings": {"doc": {"properties": {
            "title": {"type": "text", "analyzer": "folded"},
            "code": {"type": "text", "analyzer": "codes", "search_analyzer": "kept"},
            "body": {"type": "text", "analyzer": "stopped", "search_analyzer": "stopped",
                     "search_quote_analyzer": "standard", "position_increment_gap": 0},
            "plain": {"type": "text"},
            "english": {"type": "text", "analyzer": "english"},
            "tag": {"type": "keyword", "normalizer": "fold"}
        }}}
    })
}

fn docs() -> String {
    let docs = [
        json!({"title": "Café Müller", "code": "AB-12 x", "body": "the quick fox", "plain": "Alpha Beta",
               "english": "running mice", "tag": "Crème"}),
        json!({"title": "cafe mueller", "code": "ab_12", "body": ["quick", "fox"], "plain": "alpha beta",
               "english": "the runner ran", "tag": "creme brulee"}),
    ];
    docs.iter()
        .enumerate()
        .map(|(i, d)| json!({"index": {"_id": format!("d{i}")}}).to_string() + "\n" + &d.to_string() + "\n")
        .collect()
}

fn engine(tag: &str) -> Engine {
    let e = Engine::open_or_create(&common::temp_file(tag)).unwrap();
    let opts = LoadOptions { create_body: Some(create_body()), ..Default::default() };
    e.load("idx", docs().as_bytes(), &opts, &mut |_, _| {}).unwrap();
    e
}

fn ids(e: &Engine, query: Value) -> Vec<String> {
    let res = common::search(e, "idx", &json!({"query": query, "sort": ["_id"]}).to_string()).unwrap();
    common::hit_ids(&res)
}

#[test]
fn fields_index_and_search_with_their_analyzers() {
    let e = engine("custom-search");
    // `folded` folds accents at index and query time.
    assert_eq!(ids(&e, json!({"match": {"title": "CAFE"}})), ["d0", "d1"]);
    assert_eq!(ids(&e, json!({"match": {"title": "müller"}})), ["d0"]);
    // `codes` maps `-` to `_` when indexing; `kept` searches the whole text lowercased.
    assert_eq!(ids(&e, json!({"match": {"code": "AB_12"}})), ["d0", "d1"]);
    assert_eq!(ids(&e, json!({"match": {"code": "ab-12"}})), Vec::<String>::new());
    // Built-in language analyzers stem.
    assert_eq!(ids(&e, json!({"match": {"english": "run"}})), ["d0"]);
    assert_eq!(ids(&e, json!({"match": {"english": "mouse"}})), Vec::<String>::new());
    // A normalizer from the index's settings, on values and on query terms.
    assert_eq!(ids(&e, json!({"term": {"tag": "CREME"}})), ["d0"]);
    assert_eq!(ids(&e, json!({"prefix": {"tag": "crè"}})), ["d0", "d1"]);
    // `default_search` analyses query text of fields without analyzers: whitespace keeps case.
    assert_eq!(ids(&e, json!({"match": {"plain": "alpha"}})), ["d0", "d1"]);
    assert_eq!(ids(&e, json!({"match": {"plain": "Alpha"}})), Vec::<String>::new());
    // An analyzer a query names, from the index's settings.
    assert_eq!(ids(&e, json!({"match": {"plain": {"query": "Alpha", "analyzer": "folded"}}})), ["d0", "d1"]);
}

#[test]
fn positions_keep_stop_word_gaps_and_the_fields_gap() {
    let e = engine("custom-positions");
    // `the` leaves a hole: the phrase `quick fox` with the stop words' search analyzer
    // matches d0, and d1's two values touch (position_increment_gap 0).
    assert_eq!(ids(&e, json!({"match_phrase": {"body": {"query": "quick fox", "analyzer": "stopped"}}})), ["d0", "d1"]);
    // The search quote analyzer (`standard`, no stop words) keeps `the`, which the field
    // never indexed.
    assert_eq!(ids(&e, json!({"match_phrase": {"body": "the quick"}})), Vec::<String>::new());
    assert_eq!(
        ids(&e, json!({"query_string": {"query": "\"the quick\"", "default_field": "body"}})),
        Vec::<String>::new()
    );
    assert_eq!(ids(&e, json!({"match": {"body": "the quick"}})), ["d0", "d1"]);
}

#[test]
fn mapping_reports_the_analyzers_as_es_prints_them() {
    let e = engine("custom-mapping");
    let m = e.get_mapping(&metagate::MappingRequest::parse(Some("idx"), None, &[]).unwrap()).unwrap().to_json();
    let props = &m["idx"]["mappings"]["doc"]["properties"];
    assert_eq!(props["title"], json!({"type": "text", "analyzer": "folded"}));
    assert_eq!(props["code"], json!({"type": "text", "analyzer": "codes", "search_analyzer": "kept"}));
    assert_eq!(
        props["body"],
        json!({"type": "text", "analyzer": "stopped", "search_analyzer": "stopped",
               "search_quote_analyzer": "standard", "position_increment_gap": 0})
    );
    // The index's `default_search` differs from its default index analyzer.
    assert_eq!(props["plain"], json!({"type": "text", "analyzer": "default", "search_analyzer": "default_search"}));
    assert_eq!(props["tag"], json!({"type": "keyword", "normalizer": "fold"}));
}

#[test]
fn analyze_with_a_field_uses_its_chain() {
    let e = engine("custom-analyze");
    let analyze = |body: serde_json::Value| {
        e.analyze(Some("idx"), &metagate::AnalyzeRequest::parse(&body.to_string()).unwrap()).unwrap().to_json()
    };
    let v = analyze(json!({"field": "title", "text": "Crème Brûlée"}));
    let tokens: Vec<&str> = v["tokens"].as_array().unwrap().iter().map(|t| t["token"].as_str().unwrap()).collect();
    assert_eq!(tokens, ["creme", "brulee"]);
    let v = analyze(json!({"field": "tag", "text": "Crème Brûlée"}));
    assert_eq!(v["tokens"][0]["token"], "creme brulee");
}

#[test]
fn stacked_query_terms_make_synonym_queries_and_phrases_run_them() {
    let e = Engine::open_or_create(&common::temp_file("custom-stacked")).unwrap();
    let body = json!({
        "settings": {"analysis": {
            "filter": {"keep_both": {"type": "asciifolding", "preserve_original": true}},
            "analyzer": {"both": {"tokenizer": "standard", "filter": ["lowercase", "keep_both"]}}
        }},
        "mappings": {"_doc": {"properties": {"t": {"type": "text", "analyzer": "both"}}}}
    });
    let opts = LoadOptions { create_body: Some(body), ..Default::default() };
    let lines = "{\"t\": \"café noir\"}\n{\"t\": \"cafe noir\"}\n{\"t\": \"noir café\"}\n";
    e.load("s", lines.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    // `café` analyses to `cafe` and `café` at one position: Lucene's SynonymQuery, whose
    // documents hold either term.
    let res = common::search(&e, "s", &json!({"query": {"match": {"t": "café"}}}).to_string()).unwrap();
    assert_eq!(res["hits"]["total"], 3);
    // Stacked terms with fuzziness are not built by metagate: refused.
    let err =
        common::search(&e, "s", &json!({"query": {"match": {"t": {"query": "café", "fuzziness": 1}}}}).to_string())
            .unwrap_err();
    assert_eq!(err.status, 400);
    assert!(err.reason().contains("SynonymQuery: not supported by metagate"), "{}", err.reason());
    // In a phrase of several positions they are one MultiPhraseQuery position.
    let res = common::search(&e, "s", &json!({"query": {"match_phrase": {"t": "café noir"}}}).to_string()).unwrap();
    assert_eq!(res["hits"]["total"], 2);
}

#[test]
fn keyword_repeat_stacks_stems_on_the_words_a_search_gives() {
    let e = Engine::open_or_create(&common::temp_file("custom-repeat")).unwrap();
    let body = json!({
        "settings": {"analysis": {
            "filter": {"unique_stem": {"type": "unique", "only_on_same_position": true}},
            "analyzer": {
                "index": {"tokenizer": "standard", "filter": ["lowercase"]},
                "search": {"tokenizer": "standard", "filter": ["lowercase", "keyword_repeat", "porter_stem", "unique_stem"]}
            }
        }},
        "mappings": {"_doc": {"properties": {"t": {"type": "text", "analyzer": "index", "search_analyzer": "search"}}}}
    });
    let opts = LoadOptions { create_body: Some(body), ..Default::default() };
    let lines = "{\"t\": \"the fox runs across the street\"}\n{\"t\": \"run fox run\"}\n{\"t\": \"a fox ran\"}\n";
    e.load("s", lines.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    // `runs` searches as `runs` and its stem `run` at one position: both documents match
    // every word; `ran` has neither.
    let q = json!({"query": {"match": {"t": {"query": "fox runs", "operator": "and"}}}});
    let res = common::search(&e, "s", &q.to_string()).unwrap();
    assert_eq!(res["hits"]["total"], 2);
    let request = json!({"analyzer": "search", "text": "fox runs"}).to_string();
    let tokens = e.analyze(Some("s"), &metagate::AnalyzeRequest::parse(&request).unwrap()).unwrap().to_json();
    let terms: Vec<(&str, i64)> = tokens["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["token"].as_str().unwrap(), t["position"].as_i64().unwrap()))
        .collect();
    assert_eq!(terms, [("fox", 0), ("runs", 1), ("run", 1)]);
}

#[test]
fn definitions_es_refuses_are_refused_at_load() {
    let e = Engine::open_or_create(&common::temp_file("custom-refused")).unwrap();
    let refused = |body: Value| {
        let opts = LoadOptions { create_body: Some(body), ..Default::default() };
        let err = e.load("bad", "{\"a\": \"x\"}\n".as_bytes(), &opts, &mut |_, _| {}).unwrap_err();
        (err.status, err.kind().to_string(), err.reason().to_string())
    };
    assert_eq!(
        refused(json!({"mappings": {"_doc": {"properties": {"t": {"type": "text", "analyzer": "nope"}}}}})),
        (400, "mapper_parsing_exception".into(), "analyzer [nope] not found for field [t]".into())
    );
    assert_eq!(
        refused(json!({"mappings": {"_doc": {"properties": {"t": {"type": "text", "search_analyzer": "simple"}}}}})).2,
        "analyzer on field [t] must be set when search_analyzer is set"
    );
    assert_eq!(
        refused(json!({"mappings": {"_doc": {"properties": {"k": {"type": "keyword", "normalizer": "nope"}}}}})).2,
        "normalizer [nope] not found for field [k]"
    );
    // Every analyzer of the settings is built, used or not.
    assert_eq!(
        refused(json!({"settings": {"analysis": {"analyzer": {"a": {"tokenizer": "standard", "filter": ["nope"]}}}}})),
        (
            400,
            "illegal_argument_exception".into(),
            "Custom Analyzer [a] failed to find filter under name [nope]".into()
        )
    );
    assert!(e.indices().unwrap().is_empty());
}
