//! Answers where metagate differed from ES 6.8 until the REST YAML runner found them:
//! each test asserts ES's answer for one of them (`_cat/indices` creation dates,
//! `_field_caps` merging, `cardinality`'s threshold, the missing-alias error, value-script
//! `terms` keys, the unified highlighter on a field with offsets, `_source` of a document
//! stored without one, `token_chars` given as one string, overlapping highlight matches,
//! `top_hits` of nested documents as nested hits, numbers
//! in date fields read with the field's format, the health of an index asking for
//! replicas).

mod common;

use metagate::gateway::{Gateway, GatewayConfig, Request};
use metagate::{Engine, LoadOptions};
use serde_json::{json, Value};
use std::sync::Arc;

/// An engine with each `(index, create body, documents)` loaded, behind a gateway.
fn gateway(tag: &str, indices: &[(&str, Value, Vec<Value>)], alias: Option<(&str, &str)>) -> Gateway {
    let e = Engine::open_or_create(&common::temp_file(tag)).unwrap();
    for (name, body, docs) in indices {
        let lines: String = docs
            .iter()
            .enumerate()
            .map(|(i, d)| format!("{}\n{}\n", json!({"index": {"_id": (i + 1).to_string()}}), d))
            .collect();
        let alias = alias.filter(|(_, index)| index == name).map(|(a, _)| a.to_string());
        let opts = LoadOptions { create_body: Some(body.clone()), alias, max_errors: 100, ..Default::default() };
        e.load(name, lines.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    }
    Gateway::new(Arc::new(e), GatewayConfig { rate_limit: 0.0, ..Default::default() })
}

/// Sends a request: its status and body text.
fn send(g: &Gateway, method: &str, path: &str, body: Value) -> (u16, String) {
    let body = if body.is_null() { Vec::new() } else { body.to_string().into_bytes() };
    let headers = vec![("Content-Type".to_string(), "application/json".to_string())];
    let r = g.handle_in_process(&Request { method: method.into(), path: format!("/elastic/v1{path}"), headers, body });
    (r.status, String::from_utf8_lossy(&r.body).into_owned())
}

/// Sends a request whose answer is JSON.
fn send_json(g: &Gateway, method: &str, path: &str, body: Value) -> (u16, Value) {
    let (status, text) = send(g, method, path, body);
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn typed(properties: Value) -> Value {
    json!({"mappings": {"_doc": {"properties": properties}}})
}

#[test]
fn cat_indices_prints_the_creation_date_only_when_asked() {
    let g = gateway("cat-cd", &[("index1", typed(json!({"a": {"type": "keyword"}})), vec![json!({"a": "x"})])], None);
    let (_, all) = send(&g, "GET", "/_cat/indices", Value::Null);
    assert_eq!(all.split_whitespace().count(), 10, "{all}");
    let (_, text) = send(&g, "GET", "/_cat/indices?h=i,cd,cds", Value::Null);
    let cells: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(cells.len(), 3, "{text}");
    assert_eq!(cells[0], "index1");
    let ms: i64 = cells[1].parse().unwrap();
    let expected = chrono::DateTime::from_timestamp_millis(ms).unwrap().format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
    assert_eq!(cells[2], expected);
    // The long names answer too.
    let (_, body) = send(&g, "GET", "/_cat/indices?h=creation.date,creation.date.string&format=json", Value::Null);
    let rows: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(rows, json!([{"creation.date": ms.to_string(), "creation.date.string": expected}]));
}

#[test]
fn cat_indices_health_is_yellow_for_replicas_one_node_cannot_hold() {
    let no_replicas = json!({"settings": {"number_of_shards": "1", "number_of_replicas": "0"}});
    let replicas = json!({"settings": {"number_of_shards": "1", "number_of_replicas": "1"}});
    let g = gateway(
        "cat-health",
        &[("foo", no_replicas, vec![json!({"a": 1})]), ("bar", replicas, vec![json!({"a": 1})])],
        None,
    );
    let (_, text) = send(&g, "GET", "/_cat/indices?h=index,health,rep&s=index", Value::Null);
    assert_eq!(text.split_whitespace().collect::<Vec<_>>(), ["bar", "yellow", "1", "foo", "green", "0"]);
    assert_eq!(send(&g, "GET", "/_cat/indices?health=green&h=index", Value::Null).1, "foo\n");
    assert_eq!(send(&g, "GET", "/_cat/indices?health=yellow&h=index", Value::Null).1, "bar\n");
    assert_eq!(send(&g, "GET", "/_cat/indices?health=red&h=index", Value::Null).1, "");
    let (status, v) = send_json(&g, "GET", "/_cat/indices?health=blue", Value::Null);
    assert_eq!(status, 400);
    assert_eq!(v["error"]["reason"], "unknown cluster health status [blue]");
    // Cluster health says the same: the replica is unassigned, the cluster yellow.
    let (status, h) = send_json(&g, "GET", "/_cluster/health?level=indices&human", Value::Null);
    assert_eq!(status, 200);
    assert_eq!(
        (&h["status"], &h["active_shards"], &h["unassigned_shards"], &h["active_shards_percent"]),
        (&json!("yellow"), &json!(2), &json!(1), &json!("66.7%"))
    );
    assert_eq!(
        (&h["indices"]["bar"]["status"], &h["indices"]["bar"]["number_of_replicas"]),
        (&json!("yellow"), &json!(1))
    );
    assert_eq!(h["indices"]["foo"]["status"], "green");
    assert_eq!(send_json(&g, "GET", "/_cluster/health/foo", Value::Null).1["status"], "green");
    let (status, h) = send_json(&g, "GET", "/_cluster/health?wait_for_status=green&timeout=1ms", Value::Null);
    assert_eq!((status, &h["timed_out"]), (408, &json!(true)));
    let (_, text) = send(&g, "GET", "/_cat/health?h=status,shards,unassign,asp", Value::Null);
    assert_eq!(text.split_whitespace().collect::<Vec<_>>(), ["yellow", "2", "1", "66.7%"]);
}

#[test]
fn cat_shards_lists_the_unassigned_replicas_and_stats_count_them() {
    let no_replicas = json!({"settings": {"number_of_shards": "1", "number_of_replicas": "0"}});
    let replicas = json!({"settings": {"number_of_shards": "1", "number_of_replicas": "2"}});
    let g = gateway(
        "cat-shards-replicas",
        &[("foo", no_replicas, vec![json!({"a": 1})]), ("bar", replicas, vec![json!({"a": 1}), json!({"a": 2})])],
        None,
    );
    // A one-node ES: the primary started, each replica a row with its state alone.
    let (_, text) = send(&g, "GET", "/_cat/shards?h=index,shard,prirep,state,docs,ip", Value::Null);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "bar 0 p STARTED    2 127.0.0.1",
            "bar 0 r UNASSIGNED   ",
            "bar 0 r UNASSIGNED   ",
            "foo 0 p STARTED    1 127.0.0.1"
        ]
    );
    // JSON has nulls where there is no value; `s` puts them last.
    let (_, body) = send(&g, "GET", "/_cat/shards/bar?format=json&h=prirep,state,docs,node&s=docs", Value::Null);
    let rows: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        rows,
        json!([{"prirep": "p", "state": "STARTED", "docs": "2", "node": "metagate-node-0"},
               {"prirep": "r", "state": "UNASSIGNED", "docs": null, "node": null},
               {"prirep": "r", "state": "UNASSIGNED", "docs": null, "node": null}])
    );
    let (_, text) = send(&g, "GET", "/_cat/shards?h=i,p,st&s=st:desc,i", Value::Null);
    assert_eq!(
        text.split_whitespace().collect::<Vec<_>>(),
        ["bar", "r", "UNASSIGNED", "bar", "r", "UNASSIGNED", "bar", "p", "STARTED", "foo", "p", "STARTED"]
    );
    // `_stats` counts every copy in `_shards.total`, the started ones as successful.
    let (_, v) = send_json(&g, "GET", "/_stats/docs", Value::Null);
    assert_eq!(v["_shards"], json!({"total": 4, "successful": 2, "failed": 0}));
}

#[test]
fn cat_indices_keeps_the_creation_date_the_settings_give() {
    let body = json!({"settings": {"index.creation_date": "1474389951325"}, "mappings": {"_doc": {"properties": {}}}});
    let g = gateway("cat-cd-kept", &[("kept", body, vec![json!({"a": 1})])], None);
    let (_, text) = send(&g, "GET", "/_cat/indices?h=cd,cds", Value::Null);
    assert_eq!(text.split_whitespace().collect::<Vec<_>>(), vec!["1474389951325", "2016-09-20T16:45:51.325Z"]);
}

#[test]
fn field_caps_is_searchable_only_where_every_index_searches() {
    let g = gateway(
        "caps",
        &[
            (
                "test1",
                typed(json!({"t": {"type": "text", "index": false}, "f": {"type": "float", "doc_values": false}})),
                vec![json!({"t": "x", "f": 1.0})],
            ),
            ("test2", typed(json!({"t": {"type": "text"}, "f": {"type": "float"}})), vec![json!({"t": "x", "f": 1.0})]),
        ],
        None,
    );
    let (_, caps) = send_json(&g, "GET", "/test1,test2/_field_caps?fields=t,f", Value::Null);
    assert_eq!(
        caps["fields"]["t"]["text"],
        json!({"type": "text", "searchable": false, "aggregatable": false, "non_searchable_indices": ["test1"]})
    );
    assert_eq!(
        caps["fields"]["f"]["float"],
        json!({"type": "float", "searchable": true, "aggregatable": false, "non_aggregatable_indices": ["test1"]})
    );
}

#[test]
fn cardinality_refuses_a_negative_precision_threshold() {
    let g = gateway("card", &[("test", typed(json!({"n": {"type": "long"}})), vec![json!({"n": 1})])], None);
    let body = json!({"aggs": {"distinct_int": {"cardinality": {"field": "n", "precision_threshold": -1}}}});
    let (status, v) = send_json(&g, "POST", "/test/_search", body);
    assert_eq!(status, 400);
    assert_eq!(v["error"]["root_cause"][0]["type"], json!("illegal_argument_exception"));
    assert_eq!(
        v["error"]["root_cause"][0]["reason"],
        json!("[precisionThreshold] must be greater than or equal to 0. Found [-1] in [distinct_int]")
    );
}

#[test]
fn missing_aliases_are_named_in_order() {
    let g = gateway("alias", &[("test", typed(json!({})), vec![json!({"a": 1})])], Some(("test_alias", "test")));
    let (status, v) =
        send_json(&g, "GET", "/_alias/test_alias,non-existent,another-non-existent,non-existent", Value::Null);
    assert_eq!(status, 404);
    assert_eq!(v["error"], json!("aliases [another-non-existent,non-existent] missing"));
    assert_eq!(v["test"], json!({"aliases": {"test_alias": {}}}));
}

#[test]
fn a_value_script_on_a_number_field_keys_buckets_by_number() {
    let g = gateway(
        "value-script",
        &[("test", typed(json!({"n": {"type": "long"}, "s": {"type": "keyword"}})), vec![json!({"n": 1, "s": "abc"})])],
        None,
    );
    let terms = |field: &str, source: &str| {
        let body = json!({"size": 0, "aggs": {"t": {"terms": {"field": field, "script": {"source": source}}}}});
        let (status, v) = send_json(&g, "POST", "/test/_search?typed_keys=true", body);
        assert_eq!(status, 200, "{v}");
        v["aggregations"].clone()
    };
    // ES 6.8 keys a scripted numeric source as doubles.
    assert_eq!(
        terms("n", "_value + 1"),
        json!({"dterms#t": {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0, "buckets": [{"key": 2.0, "doc_count": 1}]}})
    );
    assert_eq!(terms("s", "_value + '1'")["sterms#t"]["buckets"][0]["key"], json!("abc1"));
}

#[test]
fn the_unified_highlighter_reads_offsets_past_max_analyzed_offset() {
    let body = json!({
        "settings": {"index.highlight.max_analyzed_offset": 30},
        "mappings": {"_doc": {"properties": {
            "plain": {"type": "text"},
            "offsets": {"type": "text", "index_options": "offsets"}
        }}}
    });
    let text = "The quick brown fox went to the forest and saw another fox.";
    let g = gateway("hl-offsets", &[("test1", body, vec![json!({"plain": text, "offsets": text})])], None);
    let search = |field: &str, kind: &str| {
        let body = json!({"query": {"match": {field: "fox"}}, "highlight": {"type": kind, "fields": {field: {}}}});
        send_json(&g, "POST", "/test1/_search", body)
    };
    let (status, v) = search("offsets", "unified");
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["hits"]["hits"][0]["highlight"]["offsets"][0],
        json!("The quick brown <em>fox</em> went to the forest and saw another <em>fox</em>.")
    );
    // Re-analysing still has the limit: the plain highlighter, or a field without offsets.
    assert_eq!(search("offsets", "plain").0, 400);
    assert_eq!(search("plain", "unified").0, 400);
}

#[test]
fn the_source_of_a_document_stored_without_one_is_not_found() {
    let body = json!({"mappings": {"_doc": {"_source": {"enabled": false}, "properties": {}}}});
    let g = gateway("no-source", &[("test_1", body, vec![json!({"foo": "bar"})])], None);
    let (status, v) = send_json(&g, "GET", "/test_1/_doc/1/_source", Value::Null);
    assert_eq!(status, 404);
    assert_eq!(v["error"]["root_cause"][0]["type"], json!("resource_not_found_exception"));
    assert_eq!(v["error"]["root_cause"][0]["reason"], json!("Source not found [test_1]/[_doc]/[1]"));
    // The document itself is there.
    assert_eq!(send_json(&g, "GET", "/test_1/_doc/1", Value::Null).1["found"], json!(true));
}

#[test]
fn token_chars_may_be_one_comma_separated_string() {
    let body = json!({
        "settings": {"analysis": {"tokenizer": {"grams": {
            "type": "ngram", "min_gram": 1, "max_gram": 1, "token_chars": "letter,digit"
        }}}},
        "mappings": {"_doc": {"properties": {}}}
    });
    let g = gateway("token-chars", &[("test", body, vec![json!({"a": 1})])], None);
    let (status, v) = send_json(&g, "POST", "/test/_analyze", json!({"tokenizer": "grams", "text": "a1-b"}));
    assert_eq!(status, 200, "{v}");
    let tokens: Vec<&str> = v["tokens"].as_array().unwrap().iter().map(|t| t["token"].as_str().unwrap()).collect();
    assert_eq!(tokens, vec!["a", "1", "b"]);
}

#[test]
fn matches_sharing_one_word_are_highlighted_once() {
    // Every n-gram of a word carries the word's offsets: ES tags the word once.
    let body = json!({
        "settings": {"index.max_ngram_diff": 19, "analysis": {
            "filter": {"grams": {"type": "ngram", "min_gram": 1, "max_gram": 20}},
            "analyzer": {
                "grams": {"tokenizer": "whitespace", "filter": ["grams"]},
                "words": {"tokenizer": "whitespace"}
            }
        }},
        "mappings": {"_doc": {"properties": {
            "name": {"type": "text", "analyzer": "grams", "search_analyzer": "words"}
        }}}
    });
    let g = gateway(
        "ngram-hl",
        &[("test", body, vec![json!({"name": "logicacmg ehemals avinci - the know how company"})])],
        None,
    );
    let search = json!({"query": {"match": {"name": "logica m"}}, "highlight": {"fields": {"name": {}}}});
    let (status, v) = send_json(&g, "POST", "/test/_search", search);
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["hits"]["hits"][0]["highlight"]["name"][0],
        json!("<em>logicacmg</em> <em>ehemals</em> avinci - the know how <em>company</em>")
    );
}

#[test]
fn top_hits_of_nested_documents_are_nested_hits() {
    let body = json!({"mappings": {"_doc": {"properties": {"users": {"type": "nested"}}}}});
    let g = gateway(
        "nested-top-hits",
        &[("test", body, vec![json!({"users": [{"last": "Smith"}, {"last": "White"}]})])],
        None,
    );
    let search = json!({"aggs": {"to-users": {"nested": {"path": "users"}, "aggs": {"users": {"top_hits": {}}}}}});
    let (status, v) = send_json(&g, "POST", "/test/_search", search);
    assert_eq!(status, 200, "{v}");
    let hits = &v["aggregations"]["to-users"]["users"]["hits"]["hits"];
    // Equal scores keep the block's order, where ES 6.8 puts a root's objects in reverse.
    assert_eq!(hits[0]["_nested"], json!({"field": "users", "offset": 1}));
    assert_eq!(hits[0]["_source"], json!({"last": "White"}));
    assert_eq!(hits[1]["_nested"], json!({"field": "users", "offset": 0}));
}

#[test]
fn numbers_in_date_fields_are_read_with_the_fields_format() {
    // ES 6.8 parses a number's text with the date field's format, when indexing and in
    // queries (`parseToLong`) and date ranges alike: `epoch_second` reads seconds.
    let body = typed(json!({"date": {"type": "date", "format": "epoch_second"}, "plain": {"type": "date"}}));
    let docs = vec![json!({"date": 1000, "plain": 1000000}), json!({"date": 2000, "plain": 2000000})];
    let g = gateway("date-numbers", &[("test", body, docs)], None);
    let (status, v) = send_json(
        &g,
        "POST",
        "/test/_search",
        json!({"query": {"range": {"date": {"gte": 1500}}}, "docvalue_fields": ["date", "plain"]}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["hits"]["total"], 1);
    assert_eq!(v["hits"]["hits"][0]["_id"], "2");
    // Doc values hold milliseconds: 2000 seconds, and 2,000,000 epoch_millis in the default format.
    assert_eq!(v["hits"]["hits"][0]["fields"]["date"], json!(["2000"]));
    assert_eq!(v["hits"]["hits"][0]["fields"]["plain"], json!(["1970-01-01T00:33:20.000Z"]));
    let (_, a) = send_json(
        &g,
        "POST",
        "/test/_search",
        json!({"size": 0, "aggs": {"r": {"date_range": {"field": "date", "ranges": [{"from": 1000, "to": 3000}]}},
                                   "m": {"min": {"field": "date"}}}}),
    );
    assert_eq!(a["aggregations"]["r"]["buckets"][0]["key"], "1000-3000");
    assert_eq!(a["aggregations"]["r"]["buckets"][0]["from"], 1_000_000.0);
    assert_eq!(a["aggregations"]["r"]["buckets"][0]["doc_count"], 2);
    assert_eq!(a["aggregations"]["m"]["value"], 1_000_000.0);
}
