//! Loading with an Elasticsearch 6.8 create-index body: settings kept and reported as a
//! node reports them, the limits searches apply taken per index, the mapping's type name
//! kept in `_mapping`, `GET {index}` and hits, aliases added, and ES's refusals.

mod common;

use metagate::gateway::{Gateway, GatewayConfig, Request};
use metagate::{Engine, LoadOptions};
use serde_json::{json, Value};
use std::sync::Arc;

/// Plain JSON lines (no `_type`): they take the mapping's type.
fn lines(n: usize) -> String {
    (0..n)
        .map(|i| json!({"id": format!("r{i}"), "title": format!("record number {i}"), "n": i}).to_string() + "\n")
        .collect()
}

fn body() -> Value {
    json!({
        "settings": {
            "number_of_shards": 3,
            "index.refresh_interval": "30s",
            "index": {"max_result_window": 50, "max_inner_result_window": 5, "max_terms_count": 3, "max_regex_length": 4,
                      "max_docvalue_fields_search": 2, "max_script_fields": 1, "max_slices_per_scroll": 2}
        },
        "mappings": {"record": {"properties": {"title": {"type": "text"}, "id": {"type": "keyword"}, "n": {"type": "long"}}}},
        "aliases": {"records": {}, "everything": {}}
    })
}

/// Loads 20 records into `name`.
#[allow(clippy::result_large_err)]
fn load(e: &Engine, name: &str, opts: &LoadOptions) -> metagate::Result<metagate::LoadReport> {
    e.load(name, lines(20).as_bytes(), opts, &mut |_, _| {})
}

fn with_body(body: Value) -> LoadOptions {
    LoadOptions { create_body: Some(body), id_field: Some("id".into()), ..Default::default() }
}

struct Fixture {
    gateway: Gateway,
}

impl Fixture {
    fn new(tag: &str) -> Fixture {
        let e = Engine::open_or_create(&common::temp_file(tag)).unwrap();
        load(&e, "recs", &with_body(body())).unwrap();
        // A second index the `everything` alias already points at keeps it.
        let other = LoadOptions { create_body: Some(json!({"aliases": {"everything": {}}})), ..Default::default() };
        load(&e, "other", &other).unwrap();
        Fixture { gateway: Gateway::new(Arc::new(e), GatewayConfig { rate_limit: 0.0, ..Default::default() }) }
    }

    fn send(&self, method: &str, path: &str, body: Value) -> (u16, Value, Vec<String>) {
        let body = if body.is_null() { Vec::new() } else { body.to_string().into_bytes() };
        let mut headers = Vec::new();
        if !body.is_empty() {
            headers.push(("Content-Type".to_string(), "application/json".to_string()));
        }
        let path = format!("/elastic/v1{path}");
        let r = self.gateway.handle_in_process(&Request { method: method.into(), path, headers, body });
        let warnings = common::response_header(&r, "warning").into_iter().map(str::to_string).collect();
        (r.status, serde_json::from_slice(&r.body).unwrap_or(Value::Null), warnings)
    }

    /// The status and first root cause of a refused search.
    fn refused(&self, path: &str, body: Value) -> (u16, String) {
        let (status, v, _) = self.send("POST", path, body);
        (status, v["error"]["root_cause"][0]["reason"].as_str().unwrap_or_default().to_string())
    }
}

#[test]
fn the_type_name_is_kept_in_mapping_index_and_hits() {
    let f = Fixture::new("create-type");
    let (_, mapping, _) = f.send("GET", "/recs/_mapping?include_type_name=true", Value::Null);
    assert_eq!(mapping["recs"]["mappings"]["record"]["properties"]["title"], json!({"type": "text"}));
    let (_, index, _) = f.send("GET", "/recs", Value::Null);
    assert!(index["recs"]["mappings"]["record"].is_object(), "{index}");
    let (_, hits, _) = f.send("POST", "/recs/_search", json!({"query": {"term": {"id": "r3"}}}));
    assert_eq!(hits["hits"]["hits"][0]["_type"], "record");
    assert_eq!(hits["hits"]["hits"][0]["_id"], "r3");
}

#[test]
fn settings_are_reported_as_strings_with_what_creation_adds() {
    let f = Fixture::new("create-settings");
    let (status, index, _) = f.send("GET", "/recs", Value::Null);
    assert_eq!(status, 200);
    let s = &index["recs"]["settings"]["index"];
    assert_eq!(s["number_of_shards"], "3");
    assert_eq!(s["refresh_interval"], "30s");
    assert_eq!(s["max_result_window"], "50");
    assert_eq!(s["number_of_replicas"], "0");
    assert_eq!(s["provided_name"], "recs");
    assert_eq!(s["version"], json!({"created": "6082399"}));
    let (_, flat, _) = f.send("GET", "/recs?flat_settings=true", Value::Null);
    let flat = flat["recs"]["settings"].as_object().unwrap();
    assert_eq!(flat["index.max_terms_count"], "3");
    let keys: Vec<&String> = flat.keys().collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "flat settings print in key order");
    let (_, aliases, _) = f.send("GET", "/recs", Value::Null);
    assert_eq!(aliases["recs"]["aliases"], json!({"everything": {}, "records": {}}));
}

#[test]
fn aliases_of_the_body_are_added_beside_existing_ones() {
    let f = Fixture::new("create-aliases");
    let (_, v, _) = f.send("POST", "/everything/_search", json!({"size": 0}));
    assert_eq!(v["hits"]["total"], 40, "{v}");
    let (_, v, _) = f.send("POST", "/records/_search", json!({"size": 0}));
    assert_eq!(v["hits"]["total"], 20, "{v}");
}

#[test]
fn searches_apply_the_index_limits() {
    let f = Fixture::new("create-limits");
    // ES raises it in the query phase (500), the others as illegal arguments (400).
    assert_eq!(
        f.refused("/recs/_search", json!({"from": 45, "size": 10})),
        (500, "Result window is too large, from + size must be less than or equal to: [50] but was [55]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.".into())
    );
    let (status, _, _) = f.send("POST", "/recs/_search", json!({"from": 40, "size": 10}));
    assert_eq!(status, 200);
    assert_eq!(
        f.refused("/recs/_search", json!({"size": 0, "aggs": {"best": {"top_hits": {"size": 6}}}})),
        (400, "Top hits result window is too large, the top hits aggregator [best]'s from + size must be less than or equal to: [5] but was [6]. This limit can be set by changing the [index.max_inner_result_window] index level setting.".into())
    );
    let (status, _, _) =
        f.send("POST", "/recs/_search", json!({"size": 0, "aggs": {"best": {"top_hits": {"size": 5}}}}));
    assert_eq!(status, 200);
    assert_eq!(
        f.refused("/recs/_search", json!({"query": {"regexp": {"id": "r1[0-9]*"}}})),
        (400, "The length of regex [8] used in the Regexp Query request has exceeded the allowed maximum of [4]. This maximum can be set by changing the [index.max_regex_length] index level setting.".into())
    );
    let (status, v, warnings) =
        f.send("POST", "/recs/_search", json!({"size": 0, "query": {"terms": {"id": ["r1", "r2", "r3", "r4"]}}}));
    assert_eq!((status, &v["hits"]["total"]), (200, &json!(4)));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains(
        "Deprecated: the number of terms [4] used in the Terms Query request has exceeded the allowed maximum of [3]."
    ));
    assert_eq!(
        f.refused("/recs/_search", json!({"docvalue_fields": ["id", "n", "title"]})),
        (400, "Trying to retrieve too many docvalue_fields. Must be less than or equal to: [2] but was [3]. This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.".into())
    );
    let script = |s: &str| json!({"script": {"source": s}});
    assert_eq!(
        f.refused("/recs/_search", json!({"script_fields": {"a": script("1"), "b": script("2")}})),
        (400, "Trying to retrieve too many script_fields. Must be less than or equal to: [1] but was [2]. This limit can be set by changing the [index.max_script_fields] index level setting.".into())
    );
    let (status, _, _) =
        f.send("POST", "/recs/_search", json!({"docvalue_fields": ["id", "n"], "script_fields": {"a": script("1")}}));
    assert_eq!(status, 200);
    assert_eq!(
        f.refused("/recs/_search?scroll=1m", json!({"slice": {"id": 0, "max": 3}})),
        (500, "The number of slices [3] is too large. It must be less than [2]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.".into())
    );
    // The other index keeps ES's defaults.
    let (status, _, warnings) =
        f.send("POST", "/other/_search", json!({"query": {"terms": {"id": ["r1", "r2", "r3", "r4"]}}}));
    assert_eq!((status, warnings.len()), (200, 0));
}

#[test]
fn the_load_option_window_wins_over_the_body() {
    let e = Engine::open_or_create(&common::temp_file("create-window")).unwrap();
    let opts = LoadOptions { max_result_window: Some(7), ..with_body(body()) };
    load(&e, "recs", &opts).unwrap();
    assert_eq!(settings_of(e, "recs")["max_result_window"], "7");
}

/// The nested `settings.index` object `GET {index}` answers.
fn settings_of(e: Engine, index: &str) -> Value {
    let f = Fixture { gateway: Gateway::new(Arc::new(e), GatewayConfig { rate_limit: 0.0, ..Default::default() }) };
    let (status, v, _) = f.send("GET", &format!("/{index}"), Value::Null);
    assert_eq!(status, 200, "{v}");
    v[index]["settings"]["index"].clone()
}

#[test]
fn bodies_es_refuses_are_refused_with_its_texts_and_load_nothing() {
    let e = Engine::open_or_create(&common::temp_file("create-refused")).unwrap();
    let refused = |body: Value| {
        let err = load(&e, "bad", &with_body(body)).unwrap_err();
        (err.status, err.kind().to_string(), err.reason().to_string())
    };
    assert_eq!(
        refused(json!({"settings": {"index.max_result_windw": 5}})),
        (400, "illegal_argument_exception".into(), "unknown setting [index.max_result_windw] did you mean any of [index.max_result_window, index.max_rescore_window, index.max_inner_result_window]?".into())
    );
    assert_eq!(
        refused(json!({"settings": {"number_of_shards": "many"}})),
        (
            400,
            "illegal_argument_exception".into(),
            "Failed to parse value [many] for setting [index.number_of_shards]".into()
        )
    );
    assert_eq!(
        refused(json!({"mappings": {"a": {}, "b": {}}})).2,
        "Rejecting mapping update to [index] as the final mapping would have more than 1 type: [a, b]"
    );
    assert_eq!(refused(json!({"mapping": {}})).2, "unknown key [mapping] for create index");
    assert_eq!(
        refused(json!({"settings": {"analysis": {"analyzer": {"default": {"type": "nope"}}}}})).2,
        "Unknown analyzer type [nope] for [default]"
    );
    assert_eq!(
        refused(json!({"mappings": {"_doc": {"properties": {"t": {"type": "text", "similarity": "classic"}}}}})).2,
        "similarity [classic] of field [t] is not supported: metagate scores with BM25 (k1 1.2, b 0.75)"
    );
    assert!(e.indices().unwrap().is_empty());
}

#[test]
fn a_typeless_body_and_the_options_json_of_the_c_and_python_doors() {
    let e = Engine::open_or_create(&common::temp_file("create-json")).unwrap();
    let opts = LoadOptions::from_json(
        &json!({"create_body": {"settings": {"max_result_window": 9}, "mappings": {"properties": {"title": {"type": "text"}}}},
                "id_field": "id"})
        .to_string(),
    )
    .unwrap();
    load(&e, "typeless", &opts).unwrap();
    let f = Fixture { gateway: Gateway::new(Arc::new(e), GatewayConfig { rate_limit: 0.0, ..Default::default() }) };
    let (_, v, _) = f.send("GET", "/typeless", Value::Null);
    assert!(v["typeless"]["mappings"]["_doc"]["properties"]["title"].is_object(), "{v}");
    assert_eq!(v["typeless"]["settings"]["index"]["max_result_window"], "9");
}

#[test]
fn documents_of_another_type_are_refused_as_es_refuses_a_second_type() {
    let e = Engine::open_or_create(&common::temp_file("create-second-type")).unwrap();
    let opts = LoadOptions { max_errors: 10, create_body: Some(body()), ..Default::default() };
    let bulk = "{\"index\":{\"_id\":\"a\",\"_type\":\"record\"}}\n{\"title\":\"kept\"}\n{\"index\":{\"_id\":\"b\",\"_type\":\"rin\"}}\n{\"title\":\"refused\"}\n{\"index\":{\"_id\":\"c\"}}\n{\"title\":\"typeless\"}\n";
    let report = e.load("recs", bulk.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    assert_eq!(report.docs, 2);
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.errors[0].line, 3);
    assert_eq!(
        report.errors[0].reason,
        "Rejecting mapping update to [recs] as the final mapping would have more than 1 type: [record, rin]"
    );
}

#[test]
fn get_settings_answers_per_index_with_name_patterns() {
    let f = Fixture::new("create-get-settings");
    let (status, v, _) = f.send("GET", "/recs/_settings", Value::Null);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["recs"]["settings"]["index"]["max_terms_count"], "3");
    assert_eq!(v.as_object().unwrap().len(), 1);
    let (_, v, _) = f.send("GET", "/_settings/index.max_*?flat_settings=true", Value::Null);
    assert_eq!(
        v["recs"]["settings"],
        json!({"index.max_docvalue_fields_search": "2", "index.max_inner_result_window": "5",
               "index.max_regex_length": "4", "index.max_result_window": "50", "index.max_script_fields": "1",
               "index.max_slices_per_scroll": "2", "index.max_terms_count": "3"})
    );
    // An index left with no matching setting is left out.
    assert!(v.get("other").is_none(), "{v}");
    let (status, v, _) = f.send("PUT", "/recs/_settings", json!({"index": {"refresh_interval": "1s"}}));
    assert_eq!(status, 403, "{v}");
    assert_eq!(v["error"]["type"], "cluster_block_exception");
}

#[test]
fn analyze_on_an_index_uses_its_analysis_settings() {
    let e = Engine::open_or_create(&common::temp_file("create-analysis")).unwrap();
    let body = json!({"settings": {"analysis": {
        "analyzer": {"folded": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "asciifolding"]}},
        "tokenizer": {"grams": {"type": "ngram", "min_gram": 2, "max_gram": "3"}}}}});
    load(&e, "texts", &LoadOptions { create_body: Some(body), ..Default::default() }).unwrap();
    let f = Fixture { gateway: Gateway::new(Arc::new(e), GatewayConfig { rate_limit: 0.0, ..Default::default() }) };
    let (status, v, _) = f.send("POST", "/texts/_analyze", json!({"analyzer": "folded", "text": "Café NOIR"}));
    assert_eq!(status, 200, "{v}");
    let terms: Vec<&str> = v["tokens"].as_array().unwrap().iter().map(|t| t["token"].as_str().unwrap()).collect();
    assert_eq!(terms, ["cafe", "noir"]);
    let (_, v, _) = f.send("POST", "/texts/_analyze", json!({"tokenizer": "grams", "text": "abc"}));
    let terms: Vec<&str> = v["tokens"].as_array().unwrap().iter().map(|t| t["token"].as_str().unwrap()).collect();
    assert_eq!(terms, ["ab", "abc", "bc"]);
}
