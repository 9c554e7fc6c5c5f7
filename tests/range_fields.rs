//! The range field types as ES 6.8 indexes and answers them: values as objects of
//! `gt` / `gte` / `lt` / `lte` (open ends, exclusive bounds stored as the next value
//! inward), `ip_range` CIDR blocks, the `range` query's `relation`, `term` and `match`
//! matching the ranges that hold a value, `exists`, `_source` as sent, and ES's errors
//! for malformed values, sorts and aggregations.

mod common;

use common::mapped_index::{index, load_error, mapped, Index};
use serde_json::{json, Value};

fn ranges() -> Index {
    index(
        "ranges",
        mapped(json!({
            "ir": {"type": "integer_range"},
            "lr": {"type": "long_range"},
            "fr": {"type": "float_range"},
            "dr": {"type": "date_range", "format": "yyyy-MM-dd"},
            "ipr": {"type": "ip_range"}
        })),
        &[
            ("ir0", json!({"ir": {"gte": 1, "lte": 10}})),
            ("ir1", json!({"ir": {"gt": 1, "lt": 10}})),
            ("ir6", json!({"ir": {"gte": 20}})),
            ("ir7", json!({"ir": {}})),
            ("ir8", json!({"ir": {"gte": 1.5}})),
            ("ir9", json!({"ir": [{"gte": 30, "lte": 31}, {"gte": -5, "lt": -1}]})),
            ("lr0", json!({"lr": {"gt": -9_007_199_254_740_993i64, "lte": 9_007_199_254_740_993i64}})),
            ("fr0", json!({"fr": {"gt": 1.5, "lte": 2.5}})),
            ("dr0", json!({"dr": {"gte": "2024-01-01", "lte": "2024-12-31"}})),
            ("ipr0", json!({"ipr": "10.0.0.0/24"})),
            ("ipr1", json!({"ipr": {"gte": "10.0.0.0", "lte": "10.0.0.255"}})),
            ("ipr2", json!({"ipr": {"gt": "10.0.1.0", "lt": "::ffff:10.0.2.0"}})),
            // Refused, as ES refuses them.
            ("bad0", json!({"ir": {"gte": 10, "lte": 1}})),
            ("bad1", json!({"ir": {"gte": "a"}})),
            ("bad2", json!({"ir": 5})),
            ("bad3", json!({"ir": {"foo": 1}})),
            ("bad4", json!({"fr": {"gt": 1.5, "lt": 1.5}})),
            ("bad5", json!({"ipr": "10.0.0.1"})),
            ("bad6", json!({"ipr": {"gte": "10.0.0.9", "lte": "10.0.0.1"}})),
        ],
    )
}

fn ids(ix: &Index, query: Value) -> Vec<String> {
    ix.ids(query)
}

#[test]
fn malformed_ranges_are_refused_with_es_causes() {
    let ix = ranges();
    let reasons: Vec<&str> = ix.report.errors.iter().map(|e| e.reason.as_str()).collect();
    assert_eq!(
        reasons,
        vec![
            "[mapper_parsing_exception] failed to parse field [ir] of type [integer_range]: [illegal_argument_exception] \
             min value (10) is greater than max value (1)",
            "[mapper_parsing_exception] failed to parse field [ir] of type [integer_range]: [mapper_parsing_exception] \
             failed to parse field [ir] of type [integer]",
            "[mapper_parsing_exception] failed to parse field [ir] of type [integer_range]: [mapper_parsing_exception] \
             error parsing field [ir], expected an object but got ir",
            "[mapper_parsing_exception] failed to parse field [ir] of type [integer_range]: [mapper_parsing_exception] \
             error parsing field [ir], with unknown parameter [foo]",
            "[mapper_parsing_exception] failed to parse field [fr] of type [float_range]: [illegal_argument_exception] \
             min value (1.5000001) is greater than max value (1.4999999)",
            "[mapper_parsing_exception] failed to parse field [ipr] of type [ip_range]: [illegal_argument_exception] \
             Expected [ip/prefix] but was [10.0.0.1]",
            "[mapper_parsing_exception] failed to parse field [ipr] of type [ip_range]: [illegal_argument_exception] \
             min value cannot be greater than max value for InetAddressRange field",
        ]
    );
}

#[test]
fn term_and_match_find_the_ranges_holding_a_value() {
    let ix = ranges();
    assert_eq!(ids(&ix, json!({"term": {"ir": 5}})), vec!["ir0", "ir1", "ir7", "ir8"]);
    // gt 1 is stored as 2, lt 10 as 9.
    assert_eq!(ids(&ix, json!({"term": {"ir": 1}})), vec!["ir0", "ir7", "ir8"]);
    assert_eq!(ids(&ix, json!({"term": {"ir": 10}})), vec!["ir0", "ir7", "ir8"]);
    assert_eq!(ids(&ix, json!({"term": {"ir": -1}})), vec!["ir7"]);
    assert_eq!(ids(&ix, json!({"term": {"ir": -2}})), vec!["ir7", "ir9"]);
    assert_eq!(ids(&ix, json!({"match": {"ir": "20"}})), vec!["ir6", "ir7", "ir8"]);
    assert_eq!(ids(&ix, json!({"term": {"lr": 9_007_199_254_740_993i64}})), vec!["lr0"]);
    assert_eq!(ids(&ix, json!({"term": {"lr": -9_007_199_254_740_993i64}})), Vec::<String>::new());
    // A float's exclusive bound is its next float up.
    assert_eq!(ids(&ix, json!({"term": {"fr": 1.5}})), Vec::<String>::new());
    assert_eq!(ids(&ix, json!({"term": {"fr": 1.5000001}})), vec!["fr0"]);
    assert_eq!(ids(&ix, json!({"term": {"dr": "2024-06-01"}})), vec!["dr0"]);
    assert_eq!(ids(&ix, json!({"term": {"ipr": "10.0.0.7"}})), vec!["ipr0", "ipr1"]);
    assert_eq!(ids(&ix, json!({"term": {"ipr": "10.0.1.0"}})), Vec::<String>::new());
    assert_eq!(ids(&ix, json!({"term": {"ipr": "10.0.1.1"}})), vec!["ipr2"]);
    assert_eq!(ids(&ix, json!({"exists": {"field": "ir"}})), vec!["ir0", "ir1", "ir6", "ir7", "ir8", "ir9"]);
}

#[test]
fn range_queries_test_each_relation() {
    let ix = ranges();
    let range = |body: Value| ids(&ix, json!({"range": {"ir": body}}));
    assert_eq!(range(json!({"gt": 4, "lt": 6})), vec!["ir0", "ir1", "ir7", "ir8"]);
    assert_eq!(range(json!({"gte": 3, "lte": 4, "relation": "within"})), Vec::<String>::new());
    assert_eq!(range(json!({"gte": 0, "lte": 10, "relation": "within"})), vec!["ir0", "ir1"]);
    assert_eq!(range(json!({"gte": -10, "lte": 40, "relation": "WITHIN"})), vec!["ir0", "ir1", "ir9"]);
    assert_eq!(range(json!({"gte": 12, "lte": 18, "relation": "contains"})), vec!["ir7", "ir8"]);
    assert_eq!(range(json!({"gte": 2, "lte": 9, "relation": "contains"})), vec!["ir0", "ir1", "ir7", "ir8"]);
    assert_eq!(range(json!({"gte": 25, "relation": "intersects"})), vec!["ir6", "ir7", "ir8", "ir9"]);
    // Within an open-ended query: every range up to 10.
    assert_eq!(range(json!({"lte": 10, "relation": "within"})), vec!["ir0", "ir1", "ir9"]);
    assert_eq!(
        ids(&ix, json!({"range": {"dr": {"gte": "2024-03-01", "lt": "2024-04-01", "relation": "within"}}})),
        Vec::<String>::new()
    );
    assert_eq!(
        ids(&ix, json!({"range": {"dr": {"gte": "2023-01-01", "lte": "2025-01-01", "relation": "within"}}})),
        vec!["dr0"]
    );
    assert_eq!(
        ids(&ix, json!({"range": {"ipr": {"gte": "10.0.0.0", "lte": "10.0.1.255", "relation": "within"}}})),
        vec!["ipr0", "ipr1", "ipr2"]
    );
    assert_eq!(
        ids(&ix, json!({"range": {"ipr": {"gte": "10.0.0.0", "lte": "10.0.1.254", "relation": "within"}}})),
        vec!["ipr0", "ipr1"]
    );
}

#[test]
fn queries_refused_as_es_refuses_them() {
    let ix = ranges();
    let failed = |q: Value| ix.refused(json!({"query": q}));
    assert_eq!(
        failed(json!({"range": {"ir": {"gte": 2, "lte": 1}}})),
        (
            400,
            "query_shard_exception".into(),
            "failed to create query: min value (2) is greater than max value (1)".into()
        )
    );
    assert_eq!(
        failed(json!({"term": {"ir": 5.5}})),
        (400, "query_shard_exception".into(), "failed to create query: Value [5.5] has a decimal part".into())
    );
    assert_eq!(
        failed(json!({"term": {"ir": 3_000_000_000i64}})).2,
        "failed to create query: Value [3000000000] is out of range for an integer"
    );
    assert_eq!(
        failed(json!({"range": {"ir": {"gte": 1, "relation": "disjoint"}}})),
        (400, "illegal_argument_exception".into(), "[range] query does not support relation [disjoint]".into())
    );
    assert_eq!(
        failed(json!({"prefix": {"ir": "1"}})).2,
        "Can only use prefix queries on keyword and text fields - not on [ir] which is of type [integer_range]"
    );
    assert_eq!(
        failed(json!({"term": {"ipr": "10.0.0"}})).2,
        "failed to create query: '10.0.0' is not an IP string literal."
    );
    let fielddata = "Fielddata is not supported on field [ir] of type [integer_range]";
    assert_eq!(ix.refused(json!({"sort": [{"ir": "asc"}]})).2, fielddata);
    assert_eq!(ix.refused(json!({"aggs": {"t": {"terms": {"field": "ir"}}}})).2, fielddata);
    assert_eq!(ix.refused(json!({"docvalue_fields": ["ir"]})).2, fielddata);
}

#[test]
fn source_mapping_and_field_caps() {
    let ix = ranges();
    let v = ix.search(json!({"query": {"ids": {"values": ["ir9", "ipr0"]}}, "sort": ["_id"]}));
    let sources: Vec<Value> = v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_source"].clone()).collect();
    assert_eq!(
        sources,
        vec![json!({"ipr": "10.0.0.0/24"}), json!({"ir": [{"gte": 30, "lte": 31}, {"gte": -5, "lt": -1}]})]
    );
    let props = ix.mapping()["properties"].clone();
    assert_eq!(props["ir"], json!({"type": "integer_range"}));
    assert_eq!(props["dr"], json!({"type": "date_range", "format": "yyyy-MM-dd"}));
    let (_, caps) = ix.send("GET", "/test/_field_caps?fields=ir,ipr", Value::Null);
    assert_eq!(
        caps["fields"]["ir"],
        json!({"integer_range": {"type": "integer_range", "searchable": true, "aggregatable": false}})
    );
    assert_eq!(
        caps["fields"]["ipr"],
        json!({"ip_range": {"type": "ip_range", "searchable": true, "aggregatable": false}})
    );
}

#[test]
fn mapping_parameters_refused_as_es() {
    assert_eq!(
        load_error(mapped(json!({"r": {"type": "long_range", "null_value": 1}}))),
        "[mapper_parsing_exception] Property [null_value] is not supported for [long_range] field types."
    );
    assert_eq!(
        load_error(mapped(json!({"r": {"type": "long_range", "doc_values": true}}))),
        "[mapper_parsing_exception] field [r] does not currently support doc_values"
    );
    assert_eq!(
        load_error(mapped(json!({"r": {"type": "integer_range", "format": "yyyy"}}))),
        "[mapper_parsing_exception] field [r] of type [INTEGER] should not define a dateTimeFormatter unless it is a DATE type"
    );
    assert_eq!(
        load_error(mapped(json!({"r": {"type": "ip_range", "ignore_malformed": true}}))),
        "[mapper_parsing_exception] Mapping definition for [r] has unsupported parameters:  [ignore_malformed : true]"
    );
    assert_eq!(load_error(mapped(json!({"r": {"type": "double_range", "coerce": false}}))), "");
    assert_eq!(
        load_error(mapped(json!({"r": {"type": "double_range", "copy_to": "all"}, "all": {"type": "double_range"}}))),
        "[mapper_parsing_exception] [copy_to] of field [r] is not supported by metagate"
    );
}

/// ES's REST test `range/10_basic.yml`: each range type with the three relations, and
/// `query_string` ranges on them.
#[test]
fn relations_as_the_rest_test_expects() {
    let types = ["integer_range", "long_range", "float_range", "double_range", "date_range", "ip_range"];
    let props: serde_json::Map<String, Value> = types.iter().map(|t| (t.to_string(), json!({"type": t}))).collect();
    let bounds = |t: &str, lo: i64, hi: i64| match t {
        "ip_range" => json!({"gte": format!("192.168.0.{lo}"), "lte": format!("192.168.0.{hi}")}),
        "date_range" => json!({"gte": format!("2017-09-0{lo}"), "lte": format!("2017-09-0{hi}")}),
        _ => json!({"gte": lo, "lte": hi}),
    };
    let doc = |lo: i64, hi: i64| -> Value {
        Value::Object(types.iter().map(|t| (t.to_string(), bounds(t, lo, hi))).collect())
    };
    let ix = index(
        "ranges_rest",
        mapped(Value::Object(props)),
        &[("1", doc(1, 5)), ("2", doc(1, 3)), ("3", doc(4, 5)), ("4", json!({"integer_range": null}))],
    );
    let total = |query: Value| ix.search(json!({"size": 0, "query": query}))["hits"]["total"].clone();
    for t in types {
        let asked = bounds(t, 3, 4);
        for (relation, expected) in [(None, 3), (Some("intersects"), 3), (Some("contains"), 1), (Some("within"), 0)] {
            let mut body = asked.clone();
            if let Some(r) = relation {
                body["relation"] = json!(r);
            }
            assert_eq!(total(json!({"range": {t: body}})), json!(expected), "{t} {relation:?}");
        }
        let (lo, hi) = (asked["gte"].clone(), asked["lte"].clone());
        let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
        let query = format!("{t}:[{} TO {}]", text(&lo), text(&hi));
        assert_eq!(total(json!({"query_string": {"query": query}})), json!(3), "{t}");
    }
    assert_eq!(total(json!({"match_all": {}})), json!(4));
}

#[test]
fn all_field_queries_skip_values_a_range_cannot_read() {
    let ix = ranges();
    // `query_string` over every field is lenient: a text no range type reads finds nothing
    // there rather than failing.
    let v = ix.search(json!({"query": {"query_string": {"query": "hello"}}}));
    assert_eq!(v["hits"]["total"], json!(0));
    let found = ix.ids(json!({"query_string": {"query": "5"}}));
    for id in ["ir0", "ir1", "ir7", "ir8", "lr0"] {
        assert!(found.contains(&id.to_string()), "{id} in {found:?}");
    }
    assert!(!found.contains(&"ir6".to_string()));
}
