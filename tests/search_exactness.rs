//! Answers of ES 6.8 around the search request that are easy to get almost right: the
//! URL parameters RestSearchAction checks before the search source (its texts, its
//! order), `_shards.skipped` of a one-shard search, the aggregation setters' refusals as
//! Java prints their numbers, and `exists` on metadata fields. From ES 6.8's REST tests
//! (`search/120_batch_reduce_size.yml`, `search/140_pre_filter_search_shards.yml`,
//! `search/160_exists_query.yml`) and its sources.

mod common;

use common::mapped_index::{index, mapped, Index};
use serde_json::{json, Value};

fn dated(tag: &str) -> Index {
    let docs = [
        ("1", json!({"created_at": "2016-01-01", "n": 1.5})),
        ("2", json!({"created_at": "2017-01-01", "n": 2.5})),
        ("3", json!({"created_at": "2018-01-01"})),
    ];
    index(tag, mapped(json!({"created_at": {"type": "date", "format": "yyyy-MM-dd"}, "n": {"type": "double"}})), &docs)
}

/// Status, root cause type and reason of a search refused at `path`.
fn refusal(ix: &Index, path: &str, body: Value) -> (u16, String, String) {
    let (status, v) = ix.send("POST", path, body);
    let cause = &v["error"]["root_cause"][0];
    (status, cause["type"].as_str().unwrap_or_default().into(), cause["reason"].as_str().unwrap_or_default().into())
}

fn illegal(reason: &str) -> (u16, String, String) {
    (400, "illegal_argument_exception".into(), reason.into())
}

#[test]
fn url_parameters_checked_before_the_search_source() {
    let ix = dated("exact-url-params");
    for (query, want) in [
        ("batched_reduce_size=1", "batchedReduceSize must be >= 2"),
        ("pre_filter_shard_size=0", "preFilterShardSize must be >= 1"),
        ("max_concurrent_shard_requests=0", "maxConcurrentShardRequests must be >= 1"),
        ("search_type=query_and_fetch", "Unsupported search type [query_and_fetch]"),
        ("search_type=dfs_query_and_fetch", "Unsupported search type [dfs_query_and_fetch]"),
        ("search_type=scan", "No search type for [scan]"),
        ("allow_partial_search_results=maybe", "Failed to parse value [maybe] as only [true] or [false] are allowed."),
        // In ES's order: the reduce size before the search type, both before `size`.
        ("search_type=scan&batched_reduce_size=0&size=x", "batchedReduceSize must be >= 2"),
        ("search_type=scan&size=x", "No search type for [scan]"),
    ] {
        assert_eq!(refusal(&ix, &format!("/test/_search?{query}"), Value::Null), illegal(want), "{query}");
    }
    let (status, v) = ix.send("POST", "/test/_search?batched_reduce_size=x", Value::Null);
    assert_eq!(status, 400);
    assert_eq!(v["error"]["reason"], "Failed to parse int parameter [batched_reduce_size] with value [x]");
    for ok in [
        "batched_reduce_size=2",
        "pre_filter_shard_size=1",
        "max_concurrent_shard_requests=1",
        "search_type=dfs_query_then_fetch",
    ] {
        let (status, v) = ix.send("POST", &format!("/test/_search?{ok}"), Value::Null);
        assert_eq!((status, &v["hits"]["total"]), (200, &json!(3)), "{ok}");
    }
}

#[test]
fn one_shard_is_never_skipped() {
    // ES 6.8 pre-filters shards only when a search has more of them than
    // `pre_filter_shard_size`: one index is one shard, so even a range that lies outside
    // every value of the index leaves it searched (`skipped: 0`).
    let ix = dated("exact-skipped");
    let (status, v) = ix.send(
        "POST",
        "/test/_search?pre_filter_shard_size=1",
        json!({"size": 0, "query": {"range": {"created_at": {"gte": "2019-02-01", "lt": "2020-02-01"}}}}),
    );
    assert_eq!(status, 200);
    assert_eq!(v["_shards"], json!({"total": 1, "successful": 1, "skipped": 0, "failed": 0}));
    assert_eq!(v["hits"]["total"], 0);
}

#[test]
fn aggregation_setters_print_javas_numbers() {
    let ix = dated("exact-agg-setters");
    assert_eq!(
        refusal(&ix, "/test/_search", json!({"aggs": {"s": {"extended_stats": {"field": "n", "sigma": -1}}}})),
        illegal("[sigma] must be greater than or equal to 0. Found [-1.0] in [s]")
    );
    assert_eq!(
        refusal(
            &ix,
            "/test/_search",
            json!({"aggs": {"c": {"cardinality": {"field": "n", "precision_threshold": -1}}}})
        ),
        illegal("[precisionThreshold] must be greater than or equal to 0. Found [-1] in [c]")
    );
    let v = ix.search(json!({"size": 0, "aggs": {"c": {"cardinality": {"field": "n", "precision_threshold": 0}}}}));
    assert_eq!(v["aggregations"]["c"]["value"], 2);
}

#[test]
fn exists_on_metadata_fields_matches_every_document() {
    let ix = dated("exact-exists-meta");
    for field in ["_id", "_type", "_index", "_uid"] {
        assert_eq!(ix.ids(json!({"exists": {"field": field}})), ["1", "2", "3"], "{field}");
    }
    assert_eq!(ix.ids(json!({"exists": {"field": "n"}})), ["1", "2"]);
}

/// `indices.get_mapping/20_missing_type.yml` and `30_missing_index.yml` as ES 6.8
/// answers them (its versions of the files: `ignore_unavailable` does not turn a missing
/// index into `{}` before 7.0).
#[test]
fn yaml_get_mapping_missing_types_and_indices() {
    let body = json!({"mappings": {"test_type": {"properties": {"text": {"type": "text", "analyzer": "whitespace"}}}}});
    let ix = index("exact-get-mapping", body, &[("1", json!({"text": "a"}))]);
    let mapping = json!({"test_type": {"properties": {"text": {"type": "text", "analyzer": "whitespace"}}}});
    let (status, v) = ix.send("GET", "/test/_mapping/not_test_type", Value::Null);
    assert_eq!((status, &v["error"]["reason"]), (404, &json!("type[[not_test_type]] missing")));
    let (status, v) = ix.send("GET", "/test/_mapping/test*,not*", Value::Null);
    assert_eq!(
        (status, v),
        (404, json!({"error": "type [not*] missing", "status": 404, "test": {"mappings": mapping}}))
    );
    let (status, v) = ix.send("GET", "/test/_mapping/test_type,not_test_type", Value::Null);
    assert_eq!((status, &v["error"]), (404, &json!("type [not_test_type] missing")));
    let (status, v) = ix.send("GET", "/test/_mapping/test_type,not_test_type,another_not_test_type", Value::Null);
    assert_eq!((status, &v["error"]), (404, &json!("types [another_not_test_type,not_test_type] missing")));
    assert!(v["test"]["mappings"]["test_type"].is_object());
    let (status, v) = ix.send("GET", "/test/_mapping/a,b", Value::Null);
    assert_eq!((status, &v["error"]["reason"]), (404, &json!("type[[a,b]] missing")));
    // `*` alone is every type.
    let (status, v) = ix.send("GET", "/test/_mapping/*", Value::Null);
    assert_eq!((status, &v["test"]["mappings"]), (200, &mapping));
    let missing_index = json!({"type": "index_not_found_exception", "reason": "no such index",
        "resource.type": "index_or_alias", "resource.id": "test_index", "index_uuid": "_na_", "index": "test_index"});
    for query in ["", "?ignore_unavailable=true", "?ignore_unavailable=true&allow_no_indices=false"] {
        let (status, v) = ix.send("GET", &format!("/test_index/_mapping{query}"), Value::Null);
        assert_eq!((status, &v["error"]["root_cause"][0]), (404, &missing_index), "{query}");
    }
    // A pattern that matches no index finds no mapping: a missing index in 6.8 too.
    let (status, v) = ix.send("GET", "/nothing*/_mapping", Value::Null);
    assert_eq!((status, &v["error"]["root_cause"][0]["resource.id"]), (404, &json!("nothing*")));
}
