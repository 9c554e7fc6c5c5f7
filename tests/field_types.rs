//! Field types beyond text, keyword and plain numbers, as ES 6.8 indexes and answers
//! them: `half_float` and `scaled_float` rounding, `boolean` from strings, and field
//! `alias` through queries, sort, aggregations, `_field_caps` and `_mapping`.

mod common;

use common::mapped_index::{index, load_error, mapped};

use serde_json::{json, Value};

#[test]
fn scaled_float_keeps_multiples_of_the_scaling_factor() {
    let ix = index(
        "scaled",
        mapped(json!({"price": {"type": "scaled_float", "scaling_factor": 100}})),
        &[("1", json!({"price": 1.2345})), ("2", json!({"price": "2.005"})), ("3", json!({"price": 10}))],
    );
    // Math.round(1.2345 * 100) = 123: the value is 1.23, and a term matches what rounds
    // to the same multiple.
    assert_eq!(ix.ids(json!({"term": {"price": 1.234}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"term": {"price": 1.23}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"range": {"price": {"gte": 1.235}}})), vec!["2", "3"]);
    let v =
        ix.search(json!({"size": 0, "aggs": {"min": {"min": {"field": "price"}}, "sum": {"sum": {"field": "price"}}}}));
    assert_eq!(v["aggregations"]["min"]["value"], json!(1.23));
    // "2.005" parses to just under 2.005, but its product with 100 rounds up to 200.5 in
    // doubles, as in Java: Math.round gives 201.
    assert_eq!(v["aggregations"]["sum"]["value"].as_f64().unwrap(), 1.23 + 2.01 + 10.0);
    assert_eq!(ix.mapping()["properties"]["price"], json!({"type": "scaled_float", "scaling_factor": 100.0}));
    let (_, caps) = ix.send("GET", "/test/_field_caps?fields=price", Value::Null);
    assert_eq!(
        caps["fields"]["price"],
        json!({"scaled_float": {"type": "scaled_float", "searchable": true, "aggregatable": true}})
    );
    assert_eq!(
        load_error(mapped(json!({"p": {"type": "scaled_float"}}))),
        "[mapper_parsing_exception] Field [p] misses required parameter [scaling_factor]"
    );
}

#[test]
fn half_float_rounds_to_half_precision() {
    let ix = index(
        "half",
        mapped(json!({"h": {"type": "half_float"}})),
        &[("1", json!({"h": 0.1})), ("2", json!({"h": 65504})), ("3", json!({"h": 70000}))],
    );
    // 70000 is past the largest half float: refused as ES refuses it.
    assert_eq!(ix.report.errors.len(), 1);
    assert_eq!(ix.report.errors[0].reason, "[mapper_parsing_exception] failed to parse field [h] of type [half_float]");
    let v = ix.search(json!({"size": 0, "aggs": {"min": {"min": {"field": "h"}}}}));
    // The half float nearest 0.1 is 1638 / 16384.
    assert_eq!(v["aggregations"]["min"]["value"], json!(0.0999755859375));
    assert_eq!(ix.ids(json!({"term": {"h": 0.1}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"term": {"h": 0.09998}})), vec!["1"]);
    assert_eq!(ix.mapping()["properties"]["h"], json!({"type": "half_float"}));
}

#[test]
fn booleans_take_the_strings_es_takes() {
    let ix = index(
        "booleans",
        mapped(json!({"b": {"type": "boolean"}})),
        &[
            ("1", json!({"b": "true"})),
            ("2", json!({"b": "false"})),
            ("3", json!({"b": ""})),
            ("4", json!({"b": "yes"})),
            ("5", json!({"b": true})),
        ],
    );
    assert_eq!(ix.report.errors.len(), 1);
    assert_eq!(ix.report.errors[0].line, 8);
    assert_eq!(ix.ids(json!({"term": {"b": true}})), vec!["1", "5"]);
    assert_eq!(ix.ids(json!({"term": {"b": "false"}})), vec!["2", "3"]);
}

#[test]
fn an_alias_answers_for_its_field() {
    let ix = index(
        "alias",
        mapped(json!({
            "route_length_miles": {"type": "alias", "path": "distance"},
            "distance": {"type": "long"},
            "tag": {"type": "keyword"},
            "label": {"type": "alias", "path": "tag"}
        })),
        &[
            ("1", json!({"distance": 30, "tag": "b"})),
            ("2", json!({"distance": 10, "tag": "a"})),
            ("3", json!({"route_length_miles": 5})),
        ],
    );
    assert_eq!(ix.report.errors.len(), 1);
    assert_eq!(
        ix.report.errors[0].reason,
        "[mapper_parsing_exception] Cannot write to a field alias [route_length_miles]."
    );
    assert_eq!(ix.ids(json!({"range": {"route_length_miles": {"gte": 20}}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"term": {"label": "a"}})), vec!["2"]);
    assert_eq!(ix.ids(json!({"exists": {"field": "label"}})), vec!["1", "2"]);
    let v = ix.search(json!({"sort": [{"route_length_miles": "asc"}], "_source": false}));
    let sorted: Vec<&Value> = v["hits"]["hits"].as_array().unwrap().iter().map(|h| &h["sort"][0]).collect();
    assert_eq!(sorted, [&json!(10), &json!(30)]);
    let v = ix.search(json!({"size": 0, "aggs": {"labels": {"terms": {"field": "label"}}}}));
    assert_eq!(
        v["aggregations"]["labels"]["buckets"],
        json!([{"key": "a", "doc_count": 1}, {"key": "b", "doc_count": 1}])
    );
    let (_, caps) = ix.send("GET", "/test/_field_caps?fields=route_length_miles", Value::Null);
    assert_eq!(
        caps["fields"],
        json!({"route_length_miles": {"long": {"type": "long", "searchable": true, "aggregatable": true}}})
    );
    assert_eq!(ix.mapping()["properties"]["label"], json!({"type": "alias", "path": "tag"}));
    assert_eq!(
        load_error(mapped(json!({"a": {"type": "alias", "path": "missing"}}))),
        "[mapper_parsing_exception] Invalid [path] value [missing] for field alias [a]: an alias must refer to an existing field in the mappings."
    );
    assert_eq!(
        load_error(mapped(json!({"a": {"type": "alias"}}))),
        "[mapper_parsing_exception] The [path] property must be specified for field [a]."
    );
}

#[test]
fn binary_is_stored_and_returned_never_searched() {
    let ix = index(
        "binary",
        mapped(json!({"blob": {"type": "binary", "store": true}, "n": {"type": "long"}})),
        &[
            ("1", json!({"blob": "YWJjZGUxMjM0", "n": 1})),
            ("2", json!({"n": 2})),
            ("3", json!({"blob": "not base64!"})),
        ],
    );
    assert_eq!(ix.report.errors.len(), 1);
    assert_eq!(ix.report.errors[0].reason, "[mapper_parsing_exception] failed to parse field [blob] of type [binary]");
    assert_eq!(ix.ids(json!({"exists": {"field": "blob"}})), vec!["1"]);
    let (status, v) = ix.send("POST", "/test/_search", json!({"query": {"term": {"blob": "YWJjZGUxMjM0"}}}));
    assert_eq!(status, 400);
    assert_eq!(
        v["error"]["root_cause"][0],
        json!({"type": "query_shard_exception", "reason": "Binary fields do not support searching"})
    );
    let v = ix.search(json!({"query": {"term": {"n": 1}}, "stored_fields": ["blob"]}));
    assert_eq!(v["hits"]["hits"][0]["fields"], json!({"blob": ["YWJjZGUxMjM0"]}));
    let (status, v) = ix.send("POST", "/test/_search", json!({"sort": ["blob"]}));
    assert_eq!(status, 400);
    assert_eq!(
        v["error"]["root_cause"][0]["reason"],
        json!("Can't load fielddata on [blob] because fielddata is unsupported on fields of type [binary]. Use doc values instead.")
    );
    let (_, caps) = ix.send("GET", "/test/_field_caps?fields=blob", Value::Null);
    assert_eq!(
        caps["fields"]["blob"],
        json!({"binary": {"type": "binary", "searchable": false, "aggregatable": false}})
    );
    assert_eq!(ix.mapping()["properties"]["blob"], json!({"type": "binary", "store": true}));
}

#[test]
fn token_count_indexes_the_number_of_tokens() {
    let ix = index(
        "token-count",
        mapped(
            json!({"name": {"type": "text", "fields": {"length": {"type": "token_count", "analyzer": "standard"}}}}),
        ),
        &[("1", json!({"name": "John Smith"})), ("2", json!({"name": "Rachel Alice Williams"}))],
    );
    assert_eq!(ix.ids(json!({"term": {"name.length": 3}})), vec!["2"]);
    assert_eq!(ix.ids(json!({"range": {"name.length": {"lt": 3}}})), vec!["1"]);
    let v = ix.search(json!({"size": 0, "aggs": {"longest": {"max": {"field": "name.length"}}}}));
    assert_eq!(v["aggregations"]["longest"]["value"], json!(3.0));
    assert_eq!(
        ix.mapping()["properties"]["name"],
        json!({"type": "text", "fields": {"length": {"type": "token_count", "analyzer": "standard"}}})
    );
    assert_eq!(
        load_error(mapped(json!({"c": {"type": "token_count"}}))),
        "[mapper_parsing_exception] Analyzer must be set for field [c] but wasn't."
    );
}

#[test]
fn types_not_run_yet_are_refused_by_name() {
    assert_eq!(
        load_error(mapped(json!({"h": {"type": "murmur3"}}))),
        "[mapper_parsing_exception] field type [murmur3] (field [h]) is not supported by metagate"
    );
    assert_eq!(
        load_error(mapped(json!({"x": {"type": "no_such_type"}}))),
        "[mapper_parsing_exception] No handler for type [no_such_type] declared on field [x]"
    );
}
