//! Mapping parameters as ES 6.8 applies them, through load, search, aggregations,
//! `_mapping` and `_field_caps`: `copy_to`, `null_value`, `ignore_malformed`, `coerce`,
//! `index: false`, `doc_values: false`, `store` with `stored_fields`, `norms: false`,
//! `dynamic` per object, `_source` filtering, `_routing.required`, `_meta`, disabled
//! objects, `exists` on metadata fields, and ES's refusals of what is not taken.

mod common;

use common::mapped_index::{index, load_error, mapped};

use serde_json::{json, Value};

#[test]
fn copy_to_fills_the_target_field_and_its_multi_fields() {
    let ix = index(
        "copy-to",
        mapped(json!({
            "first": {"type": "text", "copy_to": "full"},
            "last": {"type": "text", "copy_to": ["full"]},
            "full": {"type": "text", "fields": {"raw": {"type": "keyword"}}}
        })),
        &[("1", json!({"first": "John", "last": "Smith"})), ("2", json!({"first": "Jane", "last": "Doe"}))],
    );
    assert_eq!(ix.ids(json!({"match": {"full": {"query": "john smith", "operator": "and"}}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"term": {"full.raw": "Doe"}})), vec!["2"]);
    // The source is the document as sent: the copies are indexed only.
    let hit = &ix.search(json!({"query": {"ids": {"values": ["1"]}}}))["hits"]["hits"][0];
    assert_eq!(hit["_source"], json!({"first": "John", "last": "Smith"}));
    assert_eq!(ix.mapping()["properties"]["first"], json!({"type": "text", "copy_to": ["full"]}));
}

#[test]
fn null_value_is_indexed_for_explicit_nulls() {
    let ix = index(
        "null-value",
        mapped(json!({
            "status": {"type": "keyword", "null_value": "NULL"},
            "n": {"type": "integer", "null_value": -1}
        })),
        &[
            ("1", json!({"status": null, "n": null})),
            ("2", json!({"status": "ok", "n": 3})),
            ("3", json!({"status": [], "n": [null, 5]})),
            ("4", json!({})),
        ],
    );
    assert_eq!(ix.ids(json!({"term": {"status": "NULL"}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"term": {"n": -1}})), vec!["1", "3"]);
    // An empty array is no value, and a missing field is no null.
    assert_eq!(ix.ids(json!({"exists": {"field": "status"}})), vec!["1", "2"]);
    assert_eq!(ix.mapping()["properties"]["status"], json!({"type": "keyword", "null_value": "NULL"}));
    assert_eq!(
        load_error(mapped(json!({"s": {"type": "keyword", "null_value": null}}))),
        "[mapper_parsing_exception] Property [null_value] cannot be null."
    );
}

#[test]
fn ignore_malformed_skips_the_value_and_coerce_false_refuses_strings() {
    let ix = index(
        "malformed",
        mapped(json!({
            "lenient": {"type": "integer", "ignore_malformed": true},
            "strict": {"type": "integer", "coerce": false},
            "when": {"type": "date", "ignore_malformed": true}
        })),
        &[
            ("1", json!({"lenient": "foo", "when": "not a date"})),
            ("2", json!({"lenient": "12", "strict": 3})),
            ("3", json!({"strict": "3"})),
            ("4", json!({"strict": 3.5})),
        ],
    );
    // Documents 3 and 4 are refused; 1 is kept without its malformed values.
    let lines: Vec<u64> = ix.report.errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![6, 8]);
    assert_eq!(
        ix.report.errors[0].reason,
        "[mapper_parsing_exception] failed to parse field [strict] of type [integer]"
    );
    assert_eq!(ix.ids(json!({"match_all": {}})), vec!["1", "2"]);
    assert_eq!(ix.ids(json!({"exists": {"field": "lenient"}})), vec!["2"]);
    assert_eq!(ix.ids(json!({"exists": {"field": "when"}})), Vec::<String>::new());
    assert_eq!(ix.ids(json!({"term": {"lenient": 12}})), vec!["2"]);
}

#[test]
fn index_false_refuses_queries_and_field_caps_say_not_searchable() {
    let ix = index(
        "not-indexed",
        mapped(json!({"code": {"type": "keyword", "index": false}, "n": {"type": "long", "index": false}})),
        &[("1", json!({"code": "a", "n": 1})), ("2", json!({"code": "b", "n": 2}))],
    );
    for q in [json!({"term": {"code": "a"}}), json!({"range": {"n": {"gte": 1}}}), json!({"prefix": {"code": "a"}})] {
        let (status, kind, reason) = ix.refused(json!({ "query": q }));
        assert_eq!((status, kind.as_str()), (400, "query_shard_exception"));
        assert!(reason.ends_with("since it is not indexed."), "{reason}");
    }
    let (_, _, reason) = ix.refused(json!({"query": {"term": {"n": 1}}}));
    assert_eq!(reason, "failed to create query: Cannot search on field [n] since it is not indexed.");
    // Doc values still answer exists, sort and aggregations.
    assert_eq!(ix.ids(json!({"exists": {"field": "code"}})), vec!["1", "2"]);
    let v = ix.search(json!({"size": 0, "aggs": {"codes": {"terms": {"field": "code"}}}}));
    assert_eq!(v["aggregations"]["codes"]["buckets"][1], json!({"key": "b", "doc_count": 1}));
    let (_, caps) = ix.send("GET", "/test/_field_caps?fields=code", Value::Null);
    assert_eq!(
        caps["fields"]["code"],
        json!({"keyword": {"type": "keyword", "searchable": false, "aggregatable": true}})
    );
    assert_eq!(ix.mapping()["properties"]["n"], json!({"type": "long", "index": false}));
}

#[test]
fn doc_values_false_refuses_sort_and_aggregations_but_exists_and_queries_work() {
    let ix = index(
        "no-dv",
        mapped(json!({"tag": {"type": "keyword", "doc_values": false}, "n": {"type": "integer", "doc_values": false}})),
        &[("1", json!({"tag": "a", "n": 5})), ("2", json!({"tag": "b"}))],
    );
    assert_eq!(ix.ids(json!({"term": {"n": 5}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"range": {"n": {"gt": 1}}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"exists": {"field": "n"}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"exists": {"field": "tag"}})), vec!["1", "2"]);
    let (status, kind, reason) = ix.refused(json!({"sort": ["n"]}));
    assert_eq!((status, kind.as_str()), (400, "illegal_argument_exception"));
    assert_eq!(reason, "Can't load fielddata on [n] because fielddata is unsupported on fields of type [integer]. Use doc values instead.");
    let (_, _, reason) = ix.refused(json!({"aggs": {"t": {"terms": {"field": "tag"}}}}));
    assert_eq!(reason, "Can't load fielddata on [tag] because fielddata is unsupported on fields of type [keyword]. Use doc values instead.");
    let (_, caps) = ix.send("GET", "/test/_field_caps?fields=n", Value::Null);
    assert_eq!(caps["fields"]["n"]["integer"]["aggregatable"], json!(false));
}

#[test]
fn stored_fields_return_stored_values_only() {
    let ix = index(
        "stored",
        mapped(json!({
            "title": {"type": "text", "store": true},
            "when": {"type": "date", "store": true},
            "n": {"type": "long", "store": true},
            "other": {"type": "keyword"}
        })),
        &[("1", json!({"title": "Some title", "when": "2017-01-01", "n": [3, 1], "other": "x"}))],
    );
    let v = ix.search(json!({"stored_fields": ["title", "when", "n", "other"]}));
    let hit = &v["hits"]["hits"][0];
    assert!(hit.get("_source").is_none(), "{hit}");
    assert_eq!(hit["fields"], json!({"n": [3, 1], "title": ["Some title"], "when": ["2017-01-01T00:00:00.000Z"]}));
    assert_eq!(ix.mapping()["properties"]["title"], json!({"type": "text", "store": true}));
    // GET answers them too, after `_source` when both are asked for.
    let (_, doc) = ix.send("GET", "/test/_doc/1?stored_fields=n,other", Value::Null);
    assert_eq!(
        doc,
        json!({"_index": "test", "_type": "_doc", "_id": "1", "_version": 1, "_seq_no": 0, "_primary_term": 1,
               "found": true, "fields": {"n": [3, 1]}})
    );
    let (_, doc) = ix.send("GET", "/test/_doc/1?stored_fields=_source,title", Value::Null);
    let keys: Vec<&String> = doc.as_object().unwrap().keys().collect();
    assert_eq!(keys[keys.len() - 2..], ["_source", "fields"]);
}

#[test]
fn norms_false_scores_without_length() {
    let ix = index(
        "norms",
        mapped(json!({"a": {"type": "text", "norms": false}, "b": {"type": "text"}})),
        &[
            ("1", json!({"a": "fox", "b": "fox"})),
            ("2", json!({"a": "fox jumps over the lazy dog", "b": "fox jumps over the lazy dog"})),
        ],
    );
    let scores = |field: &str| -> Vec<f64> {
        let v = ix.search(json!({"query": {"match": {field: "fox"}}, "sort": ["_id"], "track_scores": true}));
        v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_score"].as_f64().unwrap()).collect()
    };
    let (a, b) = (scores("a"), scores("b"));
    // Without norms both documents score idf · (k1 + 1) · 1 / (1 + k1); with them the
    // shorter scores higher.
    assert_eq!(a[0], a[1]);
    assert!(b[0] > b[1]);
    assert_eq!(ix.mapping()["properties"]["a"], json!({"type": "text", "norms": false}));
    assert_eq!(ix.ids(json!({"exists": {"field": "a"}})), vec!["1", "2"]);
}

#[test]
fn dynamic_strict_refuses_documents_per_object() {
    let ix = index(
        "strict",
        json!({"mappings": {"_doc": {"dynamic": "strict", "properties": {
            "name": {"type": "keyword"},
            "free": {"type": "object", "dynamic": true},
            "loose": {"type": "object", "dynamic": false}
        }}}}),
        &[("1", json!({"name": "a", "free": {"x": 1}, "loose": {"y": "z"}})), ("2", json!({"name": "b", "extra": 1}))],
    );
    assert_eq!(ix.report.errors.len(), 1);
    assert_eq!(
        ix.report.errors[0].reason,
        "[strict_dynamic_mapping_exception] mapping set to strict, dynamic introduction of [extra] within [_doc] is not allowed"
    );
    let m = ix.mapping();
    assert_eq!(m["dynamic"], json!("strict"));
    assert_eq!(m["properties"]["free"], json!({"dynamic": "true", "properties": {"x": {"type": "long"}}}));
    assert_eq!(m["properties"]["loose"], json!({"type": "object", "dynamic": "false"}));
    assert_eq!(ix.ids(json!({"term": {"free.x": 1}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"exists": {"field": "loose.y"}})), Vec::<String>::new());
}

#[test]
fn source_enabled_false_includes_and_excludes() {
    let off = index(
        "source-off",
        json!({"mappings": {"_doc": {"_source": {"enabled": false}, "properties": {"t": {"type": "keyword"}}}}}),
        &[("1", json!({"t": "a"}))],
    );
    let hit = &off.search(json!({"query": {"term": {"t": "a"}}}))["hits"]["hits"][0];
    assert_eq!(hit["_id"], json!("1"));
    assert!(hit.get("_source").is_none(), "{hit}");
    assert_eq!(off.mapping()["_source"], json!({"enabled": false}));
    let (_, doc) = off.send("GET", "/test/_doc/1", Value::Null);
    assert_eq!(doc["found"], json!(true));
    assert!(doc.get("_source").is_none(), "{doc}");

    let filtered = index(
        "source-filtered",
        json!({"mappings": {"_doc": {"_source": {"includes": ["a.*", "b"], "excludes": ["a.secret"]}}}}),
        &[("1", json!({"a": {"x": 1, "secret": 2}, "b": 3, "c": 4}))],
    );
    let hit = &filtered.search(json!({"query": {"term": {"c": 4}}}))["hits"]["hits"][0];
    assert_eq!(hit["_source"], json!({"a": {"x": 1}, "b": 3}));
    assert_eq!(filtered.mapping()["_source"], json!({"includes": ["a.*", "b"], "excludes": ["a.secret"]}));
}

#[test]
fn root_metadata_is_kept_and_printed() {
    let ix = index(
        "root-meta",
        json!({"mappings": {"_doc": {
            "_meta": {"version": 3, "owner": "x"},
            "_all": {"enabled": false},
            "_routing": {"required": true},
            "properties": {"t": {"type": "keyword"}}
        }}}),
        &[("1", json!({"t": "a"}))],
    );
    // A document without routing is refused when the mapping requires it.
    assert_eq!(ix.report.errors.len(), 1);
    assert_eq!(ix.report.errors[0].reason, "[routing_missing_exception] routing is required for [test]/[_doc]/[1]");
    let m = ix.mapping();
    assert_eq!(m["_meta"], json!({"version": 3, "owner": "x"}));
    assert_eq!(m["_routing"], json!({"required": true}));
    assert_eq!(m["_all"], json!({"enabled": false}));
    let keys: Vec<&String> = m.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["_meta", "_routing", "_all", "properties"]);
}

#[test]
fn disabled_objects_are_kept_in_source_only() {
    let ix = index(
        "disabled-object",
        mapped(json!({"session": {"type": "object", "enabled": false}, "n": {"type": "long"}})),
        &[("1", json!({"session": {"a": "b", "deep": {"x": [1, "two"]}}, "n": 1})), ("2", json!({"session": "plain"}))],
    );
    assert!(ix.report.errors.is_empty(), "{:?}", ix.report.errors);
    assert_eq!(ix.ids(json!({"exists": {"field": "session.a"}})), Vec::<String>::new());
    let m = ix.mapping();
    assert_eq!(m["properties"]["session"], json!({"type": "object", "enabled": false}));
    let hit = &ix.search(json!({"query": {"ids": {"values": ["1"]}}}))["hits"]["hits"][0];
    assert_eq!(hit["_source"]["session"]["deep"]["x"], json!([1, "two"]));
}

#[test]
fn exists_on_metadata_fields() {
    let ix =
        index("exists-meta", mapped(json!({"t": {"type": "keyword"}})), &[("1", json!({"t": "a"})), ("2", json!({}))]);
    for f in ["_id", "_type", "_index", "_uid", "_seq_no", "_version"] {
        assert_eq!(ix.ids(json!({"exists": {"field": f}})), vec!["1", "2"], "{f}");
    }
    let (status, kind, reason) = ix.refused(json!({"query": {"exists": {"field": "_source"}}}));
    assert_eq!(
        (status, kind.as_str(), reason.as_str()),
        (400, "query_shard_exception", "The _source field is not searchable")
    );
}

#[test]
fn parameters_es_does_not_take_are_refused_by_name() {
    assert_eq!(
        load_error(mapped(json!({"t": {"type": "text", "ignore_above": 10}}))),
        "[mapper_parsing_exception] Mapping definition for [t] has unsupported parameters:  [ignore_above : 10]"
    );
    assert_eq!(
        load_error(mapped(json!({"o": {"properties": {"n": {"type": "long", "foo": "bar", "baz": [1, 2]}}}}))),
        "[mapper_parsing_exception] Mapping definition for [n] has unsupported parameters:  [foo : bar] [baz : [1, 2]]"
    );
    assert_eq!(
        load_error(json!({"mappings": {"_doc": {"_all": {"enabled": true}}}})),
        "[mapper_parsing_exception] [_all] is disabled in 6.0. As a replacement, you can use [copy_to] on mapping fields to create your own catch all field."
    );
    assert_eq!(
        load_error(json!({"mappings": {"_doc": {"properties": {}, "weird": 1}}})),
        "[mapper_parsing_exception] Root mapping definition has unsupported parameters:  [weird : 1]"
    );
    // Known to ES, but they would change answers metagate computes: refused by name.
    assert_eq!(
        load_error(mapped(json!({"t": {"type": "text", "index_options": "docs"}}))),
        "[mapper_parsing_exception] [index_options: docs] of field [t] is not supported by metagate"
    );
    assert_eq!(
        load_error(mapped(json!({"t": {"type": "keyword", "boost": 2}}))),
        "[mapper_parsing_exception] [boost: 2] of field [t] is not supported by metagate"
    );
    // Accepted and printed: loading hints and ES's defaults.
    let body = mapped(json!({
        "t": {"type": "text", "fielddata": true, "similarity": "BM25", "index_options": "offsets", "term_vector": "with_positions_offsets"},
        "k": {"type": "keyword", "eager_global_ordinals": true, "norms": false, "index_options": "docs"}
    }));
    let ix = index("accepted", body, &[("1", json!({"t": "x", "k": "y"}))]);
    let m = ix.mapping();
    assert_eq!(
        m["properties"]["t"],
        json!({"type": "text", "term_vector": "with_positions_offsets", "index_options": "offsets", "similarity": "BM25", "fielddata": true})
    );
    assert_eq!(
        m["properties"]["k"],
        json!({"type": "keyword", "norms": false, "index_options": "docs", "eager_global_ordinals": true})
    );
}

#[test]
fn index_prefixes_answer_prefixes_from_their_hidden_field() {
    let ix = index(
        "index-prefixes",
        mapped(json!({
            "text": {"type": "text", "index_prefixes": {"min_chars": 1, "max_chars": 10}},
            "o": {"properties": {"t": {"type": "text", "index_prefixes": {}}}},
            "p": {"properties": {"t": {"type": "text", "index_prefixes": {}}}},
            "plain": {"type": "text"}
        })),
        &[
            ("1", json!({"text": "some short words and a stupendously long one", "o": {"t": "quick"}})),
            ("2", json!({"text": "Shortly", "p": {"t": "quiet"}, "plain": "quick"})),
        ],
    );
    // Printed as ES prints it, defaults filled in.
    let m = ix.mapping();
    assert_eq!(m["properties"]["text"], json!({"type": "text", "index_prefixes": {"min_chars": 1, "max_chars": 10}}));
    assert_eq!(m["properties"]["o"]["properties"]["t"]["index_prefixes"], json!({"min_chars": 2, "max_chars": 5}));
    // In range, out of range (the field's own terms), shorter than a token's length.
    assert_eq!(ix.ids(json!({"prefix": {"text": "shor"}})), vec!["1", "2"]);
    assert_eq!(ix.ids(json!({"prefix": {"text": "stupendousl"}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"prefix": {"text": "a"}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"query_string": {"query": "wor*", "default_field": "text"}})), vec!["1"]);
    // A constant score, boosted as asked, explained as ES's ConstantScore over the term.
    let v = ix.search(
        json!({"query": {"query_string": {"default_field": "text", "query": "shor*", "boost": 2}}, "explain": true}),
    );
    assert_eq!(v["hits"]["hits"][0]["_score"], json!(2.0));
    assert_eq!(v["hits"]["hits"][0]["_explanation"]["description"], "ConstantScore(text._index_prefix:shor)^2.0");
    // ES 6.8 names the hidden field after the field's own name: `o.t` and `p.t` share
    // `t._index_prefix`, so a prefix of one finds the other's documents, as in ES.
    assert_eq!(ix.ids(json!({"prefix": {"o.t": "qui"}})), vec!["1", "2"]);
    assert_eq!(ix.ids(json!({"prefix": {"o.t": "quie"}})), vec!["2"]);
    // Past `max_chars`, the field's own terms answer: `p.t` has no `quieter`.
    assert_eq!(ix.ids(json!({"prefix": {"p.t": "quiete"}})), Vec::<String>::new());
    assert_eq!(
        ix.ids(json!({"span_near": {"clauses": [
            {"span_term": {"text": "short"}},
            {"span_multi": {"match": {"prefix": {"text": "word"}}}}
        ]}})),
        vec!["1"]
    );
}

#[test]
fn index_prefixes_are_checked_as_es_checks_them() {
    let refused = |prefixes: Value| load_error(mapped(json!({"t": {"type": "text", "index_prefixes": prefixes}})));
    assert_eq!(refused(json!({"min_chars": 0})), "[mapper_parsing_exception] min_chars [0] must be greater than zero");
    assert_eq!(
        refused(json!({"min_chars": 3, "max_chars": 2})),
        "[mapper_parsing_exception] min_chars [3] must be less than max_chars [2]"
    );
    assert_eq!(refused(json!({"max_chars": 25})), "[mapper_parsing_exception] max_chars [25] must be less than 20");
    assert_eq!(
        refused(json!({"min_chars": 2, "other": true})),
        "[mapper_parsing_exception] Mapping definition for [index_prefixes] has unsupported parameters:  [other : true]"
    );
    assert_eq!(
        load_error(mapped(json!({"t": {"type": "text", "index": false, "index_prefixes": {}}}))),
        "[mapper_parsing_exception] Cannot set index_prefixes on unindexed field [t]"
    );
    assert_eq!(
        load_error(mapped(json!({"k": {"type": "keyword", "index_prefixes": {}}}))),
        "[mapper_parsing_exception] Mapping definition for [k] has unsupported parameters:  [index_prefixes : {}]"
    );
}

#[test]
fn routings_are_kept_printed_and_found_by_exists() {
    use metagate::gateway::{Gateway, GatewayConfig};
    use metagate::{Engine, LoadOptions};
    let e = Engine::open_or_create(&common::temp_file("routing")).unwrap();
    let lines = concat!(
        "{\"index\": {\"_id\": \"1\", \"routing\": \"r1\"}}\n{\"t\": \"a\"}\n",
        "{\"index\": {\"_id\": \"2\"}}\n{\"t\": \"b\"}\n",
        "{\"index\": {\"_id\": \"3\", \"_routing\": 7}}\n{\"t\": \"c\"}\n",
    );
    let opts = LoadOptions { create_body: Some(mapped(json!({"t": {"type": "keyword"}}))), ..Default::default() };
    e.load("test", lines.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    let ix = common::mapped_index::Index {
        gateway: Gateway::new(std::sync::Arc::new(e), GatewayConfig { rate_limit: 0.0, ..Default::default() }),
        report: Default::default(),
    };
    assert_eq!(ix.ids(json!({"exists": {"field": "_routing"}})), vec!["1", "3"]);
    let v = ix.search(json!({"query": {"exists": {"field": "_routing"}}, "sort": ["_id"], "explain": true}));
    assert_eq!(v["hits"]["hits"][0]["_explanation"]["description"], "ConstantScore(_field_names:_routing)");
    // After `_score`, before `_source`, as ES's metadata fields; none without a routing.
    let v = ix.search(json!({"sort": ["_id"]}));
    let keys: Vec<&String> = v["hits"]["hits"][0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["_index", "_type", "_id", "_score", "_routing", "_source", "sort"]);
    assert_eq!(v["hits"]["hits"][0]["_routing"], "r1");
    assert_eq!(v["hits"]["hits"][1].get("_routing"), None);
    assert_eq!(v["hits"]["hits"][2]["_routing"], "7");
    let (_, got) = ix.send("GET", "/test/_doc/1", Value::Null);
    let keys: Vec<&String> = got.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["_index", "_type", "_id", "_version", "_seq_no", "_primary_term", "_routing", "found", "_source"]
    );
    let (_, got) = ix.send("POST", "/test/_mget", json!({"ids": ["2", "3"]}));
    assert_eq!(got["docs"][0].get("_routing"), None);
    assert_eq!(got["docs"][1]["_routing"], "7");
}

#[test]
fn routing_is_searched_as_es_indexes_it() {
    use metagate::gateway::{Gateway, GatewayConfig};
    use metagate::{Engine, LoadOptions};
    let e = Engine::open_or_create(&common::temp_file("routing_search")).unwrap();
    let lines = concat!(
        "{\"index\": {\"_id\": \"1\", \"routing\": \"r1\"}}\n{\"t\": \"a\"}\n",
        "{\"index\": {\"_id\": \"2\"}}\n{\"t\": \"b\"}\n",
        "{\"index\": {\"_id\": \"3\", \"routing\": \"7\"}}\n{\"t\": \"c\"}\n",
        "{\"index\": {\"_id\": \"4\", \"routing\": \"r1\"}}\n{\"t\": \"d\"}\n",
    );
    let opts = LoadOptions { create_body: Some(mapped(json!({"t": {"type": "keyword"}}))), ..Default::default() };
    e.load("test", lines.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    let ix = common::mapped_index::Index {
        gateway: Gateway::new(std::sync::Arc::new(e), GatewayConfig { rate_limit: 0.0, ..Default::default() }),
        report: Default::default(),
    };
    // `term` is BM25 over the documents with a routing (docCount 3, docFreq 2), norms
    // omitted: the score is the idf, ln(1 + 1.5 / 2.5).
    let v = ix.search(json!({"query": {"term": {"_routing": "r1"}}, "explain": true}));
    assert_eq!(v["hits"]["total"], 2);
    assert_eq!(v["hits"]["max_score"], json!(0.47000363));
    let ex = &v["hits"]["hits"][0]["_explanation"];
    assert_eq!(ex["description"], "weight(_routing:r1 in 0) [PerFieldSimilarity], result of:");
    let score = &ex["details"][0];
    assert_eq!(score["details"][0]["details"][0]["value"], json!(2.0));
    assert_eq!(score["details"][0]["details"][1]["value"], json!(3.0));
    assert_eq!(score["details"][1]["details"][2]["description"], "parameter b (norms omitted for field)");
    assert_eq!(ix.ids(json!({"match": {"_routing": "7"}})), vec!["3"]);
    // `terms` and `range` are constant-score, as TermInSetQuery and TermRangeQuery.
    let v = ix.search(json!({"query": {"terms": {"_routing": ["7", "r1", "r2"]}}, "sort": ["_id"]}));
    let ids: Vec<&str> = v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["1", "3", "4"]);
    let v = ix.search(json!({"query": {"range": {"_routing": {"gte": "r", "lt": "s"}}}}));
    assert_eq!(v["hits"]["total"], 2);
    assert_eq!(v["hits"]["max_score"], json!(1.0));
    assert_eq!(ix.ids(json!({"range": {"_routing": {"lte": "7"}}})), vec!["3"]);
    assert_eq!(ix.ids(json!({"prefix": {"_routing": "r"}})), vec!["1", "4"]);
    assert_eq!(ix.ids(json!({"wildcard": {"_routing": "?1"}})), vec!["1", "4"]);
    assert_eq!(ix.ids(json!({"regexp": {"_routing": "[0-9]+"}})), vec!["3"]);
    // `fuzzy` is scored as on a keyword: one edit in two characters boosts by 0.5.
    let v = ix.search(json!({"query": {"fuzzy": {"_routing": {"value": "r2", "fuzziness": 1}}}}));
    assert_eq!(v["hits"]["total"], 2);
    assert_eq!(v["hits"]["max_score"], json!(0.23500182));
    // No field data: sorting, aggregating and doc values are refused as ES refuses them.
    let refusal = "Fielddata is not supported on field [_routing] of type [_routing]";
    for body in [
        json!({"sort": ["_routing"]}),
        json!({"aggs": {"r": {"terms": {"field": "_routing"}}}}),
        json!({"docvalue_fields": ["_routing"]}),
    ] {
        let (status, got) = ix.send("POST", "/test/_search", body.clone());
        assert_eq!(status, 400, "{body}");
        assert_eq!(got["error"]["root_cause"][0]["type"], "illegal_argument_exception", "{body}");
        assert_eq!(got["error"]["root_cause"][0]["reason"], refusal, "{body}");
    }
}
