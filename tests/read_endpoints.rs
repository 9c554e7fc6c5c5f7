//! ES 6.8's single-purpose read endpoints through the gateway: `_explain`, with ES 6.8's
//! REST YAML cases for them (rest-api-spec/test/explain/) translated to one node.

mod common;
use common::mapped_index::{index, Index};
use serde_json::{json, Value};

fn fixture(tag: &str) -> Index {
    index(
        tag,
        json!({"mappings": {"test": {"properties": {"number": {"type": "integer"}, "field": {"type": "text"},
                                                    "foo": {"type": "keyword"}, "d": {"type": "date"}}}}}),
        &[
            ("id_1", json!({"foo": "bar", "title": "howdy"})),
            ("1", json!({"field": "foo bar", "include": {"field1": "v1", "field2": "v2"}, "count": 1})),
        ],
    )
}

fn get(ix: &Index, path: &str) -> (u16, Value) {
    ix.send("GET", path, Value::Null)
}

#[test]
fn explain_answers_matched_and_the_explanation() {
    let ix = fixture("explain-basic");
    let (status, v) = ix.send("POST", "/test/test/id_1/_explain", json!({"query": {"match_all": {}}}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v,
        json!({"_index": "test", "_type": "test", "_id": "id_1", "matched": true,
               "explanation": {"value": 1.0, "description": "*:*", "details": []}})
    );
    // The typeless form answers with `_doc`, which finds a document of any type.
    let (status, v) = ix.send("GET", "/test/_explain/id_1", json!({"query": {"term": {"foo": "bar"}}}));
    assert_eq!((status, &v["_type"], &v["matched"]), (200, &json!("_doc"), &json!(true)), "{v}");
    assert_eq!(v["explanation"]["description"], "weight(foo:bar in 0) [PerFieldSimilarity], result of:");
    // The explanation is the one a search with `explain` gives the same hit.
    let body = json!({"query": {"match": {"field": "bar"}}});
    let (_, explained) = ix.send("POST", "/test/test/1/_explain", body.clone());
    let mut search = body;
    search["explain"] = json!(true);
    let hits = ix.search(search);
    assert_eq!(explained["explanation"], hits["hits"]["hits"][0]["_explanation"]);
    assert!(explained["explanation"]["description"].as_str().unwrap().starts_with("weight(field:bar in "));
}

#[test]
fn explain_of_a_document_that_does_not_match_or_is_not_there() {
    let ix = fixture("explain-missing");
    let (status, v) = ix.send("POST", "/test/test/id_1/_explain", json!({"query": {"term": {"foo": "nope"}}}));
    assert_eq!(status, 200);
    assert_eq!(v["matched"], false);
    assert_eq!(v["explanation"]["value"], 0.0);
    let (status, v) = ix.send("POST", "/test/test/nope/_explain", json!({"query": {"match_all": {}}}));
    assert_eq!((status, v), (404, json!({"_index": "test", "_type": "test", "_id": "nope", "matched": false})));
    // A type that is not the document's finds nothing, as GET.
    let (status, _) = ix.send("POST", "/test/other/id_1/_explain", json!({"query": {"match_all": {}}}));
    assert_eq!(status, 404);
    let (status, v) = ix.send("POST", "/nope/test/1/_explain", json!({"query": {"match_all": {}}}));
    assert_eq!((status, &v["error"]["type"]), (404, &json!("index_not_found_exception")));
}

#[test]
fn explain_refuses_bodies_without_a_query() {
    let ix = fixture("explain-refused");
    // 11_basic_with_types.yml: "Explain body without query element".
    let (status, v) = ix.send("POST", "/test/test/id_1/_explain", json!({"match_all": {}}));
    assert_eq!(status, 400);
    assert_eq!(v["error"]["reason"], "request does not support [match_all]");
    let missing = json!({"error": {"root_cause": [{"type": "action_request_validation_exception", "reason": "Validation Failed: 1: query is missing;"}],
                                   "type": "action_request_validation_exception", "reason": "Validation Failed: 1: query is missing;"}, "status": 400});
    assert_eq!(ix.send("POST", "/test/test/id_1/_explain", json!({})), (400, missing.clone()));
    assert_eq!(get(&ix, "/test/test/id_1/_explain"), (400, missing));
    let (status, v) = get(&ix, "/test/test/id_1/_explain?fields=a&q=bar");
    assert_eq!((status, &v["error"]["type"]), (400, &json!("illegal_argument_exception")));
    let (status, v) = get(&ix, "/test/test/id_1/_explain?size=1&q=bar");
    assert_eq!(status, 400);
    assert_eq!(
        v["error"]["reason"],
        "request [/elastic/v1/test/test/id_1/_explain] contains unrecognized parameter: [size]"
    );
    let (status, _) = ix.send("PUT", "/test/test/id_1/_explain", json!({"query": {"match_all": {}}}));
    assert_eq!(status, 405);
}

#[test]
fn explain_takes_query_string_parameters() {
    // 30_query_string.yml.
    let ix = fixture("explain-q");
    let matched = |q: &str| {
        let (status, v) = get(&ix, &format!("/test/test/1/_explain?{q}"));
        assert_eq!(status, 200, "{q}: {v}");
        v["matched"].as_bool().unwrap()
    };
    assert!(matched("q=bar&df=field"));
    assert!(matched("q=field:foo%20field:xyz"));
    assert!(!matched("q=field:foo%20field:xyz&default_operator=AND"));
    assert!(matched("q=field:BA*"));
    assert!(!matched("q=number:foo&lenient=true"));
}

#[test]
fn explain_embeds_the_document_when_asked() {
    // 20_source_filtering.yml.
    let ix = fixture("explain-source");
    let explain = |params: &str| {
        let (status, v) =
            ix.send("POST", &format!("/test/test/1/_explain?{params}"), json!({"query": {"match_all": {}}}));
        assert_eq!(status, 200, "{v}");
        v
    };
    assert!(explain("_source=false").get("get").is_none());
    assert!(explain("").get("get").is_none());
    assert_eq!(
        explain("_source=true")["get"],
        json!({"_seq_no": 1, "_primary_term": 1, "found": true,
               "_source": {"field": "foo bar", "include": {"field1": "v1", "field2": "v2"}, "count": 1}})
    );
    assert_eq!(explain("_source=include.field1")["get"]["_source"], json!({"include": {"field1": "v1"}}));
    assert_eq!(
        explain("_source_includes=include.field1,include.field2")["get"]["_source"],
        json!({"include": {"field1": "v1", "field2": "v2"}})
    );
    assert_eq!(
        explain("_source_includes=include&_source_excludes=*.field2")["get"]["_source"],
        json!({"include": {"field1": "v1"}})
    );
    assert_eq!(explain("stored_fields=_none_")["get"], json!({"_seq_no": 1, "_primary_term": 1, "found": true}));
}

fn validate(ix: &Index, path_and_query: &str, body: Value) -> Value {
    let (status, v) = ix.send("POST", path_and_query, body);
    assert_eq!(status, 200, "{v}");
    v
}

#[test]
fn validate_query_answers_valid_and_each_index_query() {
    // indices.validate_query/10_basic.yml, on one index.
    let ix = fixture("validate-basic");
    let shards = json!({"total": 1, "successful": 1, "failed": 0});
    assert_eq!(
        validate(&ix, "/test/_validate/query?q=query%20string", Value::Null),
        json!({"_shards": shards, "valid": true})
    );
    assert_eq!(
        validate(&ix, "/_validate/query?explain=true", Value::Null),
        json!({"_shards": shards, "valid": true, "explanations": [{"index": "test", "valid": true, "explanation": "*:*"}]})
    );
    let explained = |query: Value| {
        let v = validate(&ix, "/test/_validate/query?explain", json!({ "query": query }));
        assert_eq!(v["valid"], true, "{v}");
        v["explanations"][0]["explanation"].as_str().unwrap().to_string()
    };
    assert_eq!(explained(json!({"match": {"field": "Foo bar"}})), "field:foo field:bar");
    assert_eq!(explained(json!({"term": {"foo": "bar"}})), "foo:bar");
    assert_eq!(
        explained(json!({"bool": {"must": {"match": {"field": "foo"}}, "filter": {"term": {"foo": "x"}},
                                  "must_not": {"term": {"foo": "y"}}}})),
        "+field:foo -foo:y #foo:x"
    );
    assert_eq!(explained(json!({"match_phrase": {"field": "foo bar"}})), "field:\"foo bar\"");
    // A type in the path is the search context's type filter.
    let v = validate(&ix, "/test/test/_validate/query?explain", json!({"query": {"term": {"foo": "bar"}}}));
    assert_eq!(v["explanations"][0]["explanation"], "+foo:bar #*:*");
    let v = validate(&ix, "/test/other/_validate/query?explain", json!({"query": {"term": {"foo": "bar"}}}));
    assert_eq!(
        v["explanations"][0]["explanation"],
        "+foo:bar #MatchNoDocsQuery(\"Type list does not contain the index type\")"
    );
    let v = validate(&ix, "/test/_validate/query?all_shards=true", json!({"query": {"term": {"foo": "bar"}}}));
    assert_eq!(v["explanations"], json!([{"index": "test", "shard": 0, "valid": true, "explanation": "foo:bar"}]));
    let v = validate(&ix, "/test/_validate/query?rewrite=true", json!({"query": {"term": {"foo": "bar"}}}));
    assert_eq!(v["explanations"][0]["explanation"], "foo:bar");
    let (status, v) = ix.send("POST", "/test/_validate/query?rewrite=true", json!({"query": {"prefix": {"foo": "b"}}}));
    assert_eq!((status, &v["error"]["type"]), (400, &json!("illegal_argument_exception")));
    // Queries whose Lucene string metagate does not print are refused, not misprinted.
    for query in [
        json!({"term": {"foo": {"value": "x", "boost": 2}}}),
        json!({"fuzzy": {"foo": "bar"}}),
        json!({"query_string": {"query": "foo:x AND field:bar"}}),
        json!({"range": {"d": {"gte": "2020-01-01"}}}),
    ] {
        let (status, v) = ix.send("POST", "/test/_validate/query?explain", json!({ "query": query }));
        assert_eq!((status, &v["error"]["type"]), (400, &json!("illegal_argument_exception")), "{query}");
        assert_eq!(validate(&ix, "/test/_validate/query", json!({ "query": query }))["valid"], true);
    }
}

#[test]
fn validate_query_answers_invalid_queries_as_es() {
    let ix = fixture("validate-invalid");
    // Read on the REST layer: `{"valid": false}`, the message only with `explain`.
    assert_eq!(validate(&ix, "/_validate/query", json!({"query": {"invalid_query": {}}})), json!({"valid": false}));
    assert_eq!(
        validate(&ix, "/_validate/query?explain=true", json!({"query": {"invalid_query": {}}})),
        json!({"valid": false, "error": "org.elasticsearch.common.ParsingException: no [query] registered for [invalid_query]"})
    );
    assert_eq!(validate(&ix, "/_validate/query", json!({"match_all": {}})), json!({"valid": false}));
    assert_eq!(
        validate(&ix, "/_validate/query?explain=true", json!({"match_all": {}})),
        json!({"valid": false, "error": "org.elasticsearch.common.ParsingException: request does not support [match_all]"})
    );
    // Refused by the index: invalid there, with the shard's message.
    let v = validate(&ix, "/test/_validate/query?explain=true", json!({"query": {"term": {"number": "foo"}}}));
    assert_eq!(v["valid"], false, "{v}");
    assert_eq!(v["explanations"][0]["valid"], false);
    let error = v["explanations"][0]["error"].as_str().unwrap();
    assert!(error.contains("QueryShardException") && error.contains("For input string: \"foo\""), "{error}");
    let v = validate(&ix, "/test/_validate/query", json!({"query": {"term": {"number": "foo"}}}));
    assert_eq!(v, json!({"_shards": {"total": 1, "successful": 1, "failed": 0}, "valid": false}));
    // indices.validate_query/20_query_string.yml.
    for q in [
        "q=bar&df=field",
        "q=field:foo%20field:xyz",
        "q=field:foo%20field:xyz&default_operator=AND",
        "q=field:BA*",
        "q=number:foo&lenient=true",
    ] {
        assert_eq!(get(&ix, &format!("/test/_validate/query?{q}")).1["valid"], true, "{q}");
    }
    let (status, v) = get(&ix, "/nope/_validate/query");
    assert_eq!((status, &v["error"]["type"]), (404, &json!("index_not_found_exception")));
}

fn text(ix: &Index, path: &str) -> (u16, String) {
    let r = ix.gateway.handle_in_process(&metagate::gateway::Request {
        method: "GET".into(),
        path: format!("/elastic/v1{path}"),
        headers: Vec::new(),
        body: Vec::new(),
    });
    (r.status, String::from_utf8_lossy(&r.body).into_owned())
}

fn uuid(ix: &Index) -> String {
    get(ix, "/test/_settings").1["test"]["settings"]["index"]["uuid"].as_str().unwrap().to_string()
}

#[test]
fn search_shards_lists_the_node_and_each_index_shard() {
    // search_shards/10_basic.yml.
    let ix = fixture("search-shards");
    let (status, v) = get(&ix, "/test/_search_shards?routing=foo");
    assert_eq!(status, 200);
    assert_eq!(
        v,
        json!({"nodes": {"metagate-node-0": {"name": "metagate-node-0", "ephemeral_id": "metagate-node-0",
                                             "transport_address": "127.0.0.1:9300", "attributes": {}}},
               "indices": {"test": {}},
               "shards": [[{"state": "STARTED", "primary": true, "node": "metagate-node-0", "relocating_node": null,
                            "shard": 0, "index": "test", "allocation_id": {"id": uuid(&ix)}}]]})
    );
    assert_eq!(ix.send("POST", "/_search_shards", Value::Null).1["shards"][0][0]["index"], "test");
    assert_eq!(get(&ix, "/nope/_search_shards").0, 404);
    assert_eq!(get(&ix, "/nope/_search_shards?ignore_unavailable=true").1["shards"], json!([]));
}

#[test]
fn cluster_health_is_green_with_one_shard_per_index() {
    // cluster.health/10_basic.yml and 20_request_timeout.yml, on one node.
    let ix = fixture("health");
    let health = json!({"cluster_name": "metagate", "status": "green", "timed_out": false, "number_of_nodes": 1,
                        "number_of_data_nodes": 1, "active_primary_shards": 1, "active_shards": 1, "relocating_shards": 0,
                        "initializing_shards": 0, "unassigned_shards": 0, "delayed_unassigned_shards": 0,
                        "number_of_pending_tasks": 0, "number_of_in_flight_fetch": 0,
                        "task_max_waiting_in_queue_millis": 0, "active_shards_percent_as_number": 100.0});
    assert_eq!(get(&ix, "/_cluster/health"), (200, health.clone()));
    assert_eq!(
        get(&ix, "/_cluster/health?wait_for_status=green&wait_for_no_relocating_shards=true"),
        (200, health.clone())
    );
    assert_eq!(get(&ix, "/_cluster/health/test?wait_for_active_shards=all&wait_for_nodes=%3E%3D1").1, health);
    let v = get(&ix, "/_cluster/health?level=indices").1;
    assert_eq!(
        v["indices"],
        json!({"test": {"status": "green", "number_of_shards": 1, "number_of_replicas": 0, "active_primary_shards": 1,
                        "active_shards": 1, "relocating_shards": 0, "initializing_shards": 0, "unassigned_shards": 0}})
    );
    assert_eq!(get(&ix, "/_cluster/health?level=shards").1["indices"]["test"]["shards"]["0"]["primary_active"], true);
    let v = get(&ix, "/_cluster/health?human").1;
    assert_eq!((&v["task_max_waiting_in_queue"], &v["active_shards_percent"]), (&json!("0s"), &json!("100.0%")));
    // A missing index is red at once; waiting for better cannot succeed on a read-only file.
    let (status, v) = get(&ix, "/_cluster/health/nope");
    assert_eq!(
        (status, &v["status"], &v["timed_out"], &v["active_shards"]),
        (200, &json!("red"), &json!(false), &json!(0))
    );
    let (status, v) = get(&ix, "/_cluster/health/nope?wait_for_status=yellow&timeout=1s");
    assert_eq!((status, &v["status"], &v["timed_out"]), (408, &json!("red"), &json!(true)));
    assert_eq!(get(&ix, "/_cluster/health?wait_for_nodes=2").0, 408);
    let (status, v) = get(&ix, "/_cluster/health?wait_for_status=blue");
    assert_eq!((status, &v["error"]["reason"]), (400, &json!("unknown cluster health status [blue]")));
}

/// ES 6.8's CommonStats of an idle shard holding `docs` documents of `bytes` bytes.
fn idle_sections(docs: u64, bytes: u64) -> Value {
    json!({
        "docs": {"count": docs, "deleted": 0},
        "store": {"size_in_bytes": bytes},
        "indexing": {"index_total": 0, "index_time_in_millis": 0, "index_current": 0, "index_failed": 0,
                     "delete_total": 0, "delete_time_in_millis": 0, "delete_current": 0, "noop_update_total": 0,
                     "is_throttled": false, "throttle_time_in_millis": 0},
        "get": {"total": 0, "time_in_millis": 0, "exists_total": 0, "exists_time_in_millis": 0, "missing_total": 0,
                "missing_time_in_millis": 0, "current": 0},
        "search": {"open_contexts": 0, "query_total": 0, "query_time_in_millis": 0, "query_current": 0,
                   "fetch_total": 0, "fetch_time_in_millis": 0, "fetch_current": 0, "scroll_total": 0,
                   "scroll_time_in_millis": 0, "scroll_current": 0, "suggest_total": 0,
                   "suggest_time_in_millis": 0, "suggest_current": 0},
        "merges": {"current": 0, "current_docs": 0, "current_size_in_bytes": 0, "total": 0,
                   "total_time_in_millis": 0, "total_docs": 0, "total_size_in_bytes": 0,
                   "total_stopped_time_in_millis": 0, "total_throttled_time_in_millis": 0,
                   "total_auto_throttle_in_bytes": 20971520},
        "refresh": {"total": 0, "total_time_in_millis": 0, "listeners": 0},
        "flush": {"total": 0, "periodic": 0, "total_time_in_millis": 0},
        "warmer": {"current": 0, "total": 0, "total_time_in_millis": 0},
        "query_cache": {"memory_size_in_bytes": 0, "total_count": 0, "hit_count": 0, "miss_count": 0,
                        "cache_size": 0, "cache_count": 0, "evictions": 0},
        "fielddata": {"memory_size_in_bytes": 0, "evictions": 0},
        "completion": {"size_in_bytes": 0},
        "segments": {"count": 1, "memory_in_bytes": 0, "terms_memory_in_bytes": 0, "stored_fields_memory_in_bytes": 0,
                     "term_vectors_memory_in_bytes": 0, "norms_memory_in_bytes": 0, "points_memory_in_bytes": 0,
                     "doc_values_memory_in_bytes": 0, "index_writer_memory_in_bytes": 0,
                     "version_map_memory_in_bytes": 0, "fixed_bit_set_memory_in_bytes": 0,
                     "max_unsafe_auto_id_timestamp": -1, "file_sizes": {}},
        "translog": {"operations": 0, "size_in_bytes": 0, "uncommitted_operations": 0,
                     "uncommitted_size_in_bytes": 0, "earliest_last_modified_age": 0},
        "request_cache": {"memory_size_in_bytes": 0, "evictions": 0, "hit_count": 0, "miss_count": 0},
        "recovery": {"current_as_source": 0, "current_as_target": 0, "throttle_time_in_millis": 0}
    })
}

/// The keys of an object, in order.
fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

#[test]
fn stats_of_an_idle_index_print_every_section_in_es_order() {
    let ix = fixture("stats");
    let (status, v) = get(&ix, "/test/_stats");
    assert_eq!(status, 200, "{v}");
    let bytes = v["_all"]["total"]["store"]["size_in_bytes"].as_u64().unwrap();
    assert!(bytes > 0);
    let section = idle_sections(2, bytes);
    assert_eq!(
        v,
        json!({"_shards": {"total": 1, "successful": 1, "failed": 0}, "_all": {"primaries": section, "total": section},
               "indices": {"test": {"uuid": uuid(&ix), "primaries": section, "total": section}}})
    );
    // CommonStats's order, and each section's.
    let all = &v["_all"]["primaries"];
    assert_eq!(keys(all), keys(&section));
    for name in keys(&section) {
        assert_eq!(keys(&all[name]), keys(&section[name]), "{name}");
    }
    let v = get(&ix, "/_stats/docs?level=cluster").1;
    assert_eq!(v["_all"]["primaries"], json!({"docs": {"count": 2, "deleted": 0}}));
    assert!(v.get("indices").is_none());
    // Metrics print their sections in CommonStats's order whatever the path's; `merge`
    // prints `merges`, `suggest` the search section.
    let v = get(&ix, "/test/_stats/request_cache,merge,docs,suggest?level=cluster").1;
    assert_eq!(keys(&v["_all"]["total"]), ["docs", "search", "merges", "request_cache"]);
    let (status, v) = get(&ix, "/_stats/foo");
    assert_eq!(
        (status, &v["error"]["reason"]),
        (400, &json!("request [/elastic/v1/_stats/foo] contains unrecognized metric: [foo]"))
    );
    assert_eq!(get(&ix, "/test/_stats?level=foo").0, 400);
}

#[test]
fn stats_human_fields_and_the_shards_level() {
    let ix = fixture("stats-human");
    let v = get(&ix, "/test/_stats/get,fielddata,completion,segments?human&fields=*&level=shards").1;
    let get_section = &v["_all"]["total"]["get"];
    assert_eq!(keys(get_section)[..3], ["total", "getTime", "time_in_millis"]);
    assert_eq!(get_section["getTime"], "0s");
    assert_eq!(
        v["_all"]["total"]["fielddata"],
        json!({"memory_size": "0b", "memory_size_in_bytes": 0, "evictions": 0, "fields": {}})
    );
    assert_eq!(v["_all"]["total"]["completion"], json!({"size": "0b", "size_in_bytes": 0, "fields": {}}));
    assert_eq!(v["_all"]["total"]["segments"]["fixed_bit_set"], "0b");
    let shard = &v["indices"]["test"]["shards"]["0"][0];
    assert_eq!(keys(shard), ["routing", "get", "fielddata", "completion", "segments", "seq_no"]);
    assert_eq!(
        shard["routing"],
        json!({"state": "STARTED", "primary": true, "node": shard["routing"]["node"], "relocating_node": null})
    );
    assert_eq!(shard["seq_no"], json!({"max_seq_no": 1, "local_checkpoint": 1, "global_checkpoint": 1}));
}

#[test]
fn stats_count_searches_gets_and_the_request_cache() {
    let ix = fixture("stats-counted");
    let search = |params: &str, body: Value| ix.send("POST", &format!("/test/_search{params}"), body);
    // Two searches with hits: a query and a fetch phase each.
    assert_eq!(search("", json!({"query": {"match": {"field": "foo"}}})).0, 200);
    assert_eq!(search("", json!({"size": 1})).0, 200);
    // A `size: 0` aggregation: cached after its first run.
    let aggs = json!({"size": 0, "aggs": {"f": {"terms": {"field": "foo"}}}});
    let (status, first) = search("", aggs.clone());
    assert_eq!(status, 200);
    let (_, second) = search("", aggs.clone());
    let strip = |mut v: Value| {
        v.as_object_mut().unwrap().remove("took");
        v
    };
    assert_eq!(strip(first), strip(second.clone()));
    // Not with `request_cache=false`, nor with `now`.
    assert_eq!(strip(search("?request_cache=false", aggs.clone()).1), strip(second));
    let dated = json!({"size": 0, "query": {"range": {"d": {"lte": "now"}}}});
    assert_eq!(search("", dated.clone()).0, 200);
    assert_eq!(search("", dated).0, 200);
    // `request_cache=true` caches a search with hits too.
    assert_eq!(search("?request_cache=true", json!({"size": 1})).0, 200);
    assert_eq!(search("?request_cache=true", json!({"size": 1})).0, 200);
    // GETs: one found, one missing.
    assert_eq!(get(&ix, "/test/test/1").0, 200);
    assert_eq!(get(&ix, "/test/test/nope").0, 404);
    let v = get(&ix, "/test/_stats/search,get,request_cache,segments?level=cluster").1;
    let total = &v["_all"]["total"];
    assert_eq!(total["search"]["query_total"], 9);
    // One shard: ES queries and fetches in one round trip, so every search fetches.
    assert_eq!(total["search"]["fetch_total"], 9);
    assert_eq!(
        (&total["get"]["total"], &total["get"]["exists_total"], &total["get"]["missing_total"]),
        (&json!(2), &json!(1), &json!(1))
    );
    let cache = &total["request_cache"];
    assert_eq!((&cache["hit_count"], &cache["miss_count"], &cache["evictions"]), (&json!(2), &json!(2), &json!(0)));
    assert!(cache["memory_size_in_bytes"].as_u64().unwrap() > 0);
    // The searches loaded term dictionaries and norms.
    let segments = &total["segments"];
    let terms = segments["terms_memory_in_bytes"].as_u64().unwrap();
    let norms = segments["norms_memory_in_bytes"].as_u64().unwrap();
    assert!(terms > 0 && norms > 0);
    assert_eq!(segments["memory_in_bytes"], terms + norms);
    assert_eq!(get(&ix, "/test/_search?request_cache=maybe").0, 400);
}

#[test]
fn the_index_setting_turns_the_request_cache_off_unless_asked() {
    let ix = index(
        "stats-cache-off",
        json!({"settings": {"index.requests.cache.enable": false},
               "mappings": {"test": {"properties": {"foo": {"type": "keyword"}}}}}),
        &[("1", json!({"foo": "bar"}))],
    );
    let body = json!({"size": 0, "aggs": {"f": {"terms": {"field": "foo"}}}});
    for _ in 0..2 {
        assert_eq!(ix.send("POST", "/test/_search", body.clone()).0, 200);
    }
    let cache = |ix: &Index| get(ix, "/test/_stats/request_cache").1["_all"]["total"]["request_cache"].clone();
    assert_eq!((&cache(&ix)["hit_count"], &cache(&ix)["miss_count"]), (&json!(0), &json!(0)));
    for _ in 0..2 {
        assert_eq!(ix.send("POST", "/test/_search?request_cache=true", body.clone()).0, 200);
    }
    assert_eq!((&cache(&ix)["hit_count"], &cache(&ix)["miss_count"]), (&json!(1), &json!(1)));
}

#[test]
fn cat_health_and_shards_tables() {
    // cat.health/10_basic.yml and cat.shards/10_basic.yml, on one node.
    let ix = fixture("cat-health");
    let (status, t) = text(&ix, "/_cat/health?v");
    assert_eq!(status, 200);
    let lines: Vec<&str> = t.lines().collect();
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(
        header,
        [
            "epoch",
            "timestamp",
            "cluster",
            "status",
            "node.total",
            "node.data",
            "shards",
            "pri",
            "relo",
            "init",
            "unassign",
            "pending_tasks",
            "max_task_wait_time",
            "active_shards_percent"
        ]
    );
    assert_eq!(
        lines[1].split_whitespace().skip(2).collect::<Vec<_>>(),
        ["metagate", "green", "1", "1", "1", "1", "0", "0", "0", "0", "-", "100.0%"]
    );
    let (_, t) = text(&ix, "/_cat/health?ts=false&h=cluster,status");
    assert_eq!(t, "metagate green\n");
    let (_, j) = text(&ix, "/_cat/health?format=json&ts=false");
    assert_eq!(
        serde_json::from_str::<Value>(&j).unwrap(),
        json!([{"cluster": "metagate", "status": "green", "node.total": "1", "node.data": "1", "shards": "1", "pri": "1",
                "relo": "0", "init": "0", "unassign": "0", "pending_tasks": "0", "max_task_wait_time": "-",
                "active_shards_percent": "100.0%"}])
    );
    let (_, t) = text(&ix, "/_cat/shards?v&h=index,shard,prirep,state,docs");
    assert_eq!(t, "index shard prirep state   docs\ntest      0 p      STARTED    2\n");
    let (_, j) = text(&ix, "/_cat/shards/test?format=json&bytes=b");
    let rows: Value = serde_json::from_str(&j).unwrap();
    assert_eq!(rows[0]["node"], "metagate-node-0");
    assert_eq!(rows[0]["ip"], "127.0.0.1");
    assert!(rows[0]["store"].as_str().unwrap().parse::<u64>().unwrap() > 0);
    assert_eq!(text(&ix, "/_cat/shards/nope").0, 404);
}

#[test]
fn hits_carry_seq_no_and_primary_term_when_asked() {
    let ix = fixture("seq-no");
    let v = ix.search(json!({"query": {"ids": {"values": ["1"]}}, "seq_no_primary_term": true, "version": true}));
    let hit = &v["hits"]["hits"][0];
    let keys: Vec<&str> = hit.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys[..7], ["_index", "_type", "_id", "_version", "_seq_no", "_primary_term", "_score"]);
    // The load order, as GET reports it.
    assert_eq!(hit["_seq_no"], get(&ix, "/test/test/1").1["_seq_no"]);
    assert_eq!(hit["_primary_term"], 1);
    let (_, v) = get(&ix, "/test/_search?q=_id:id_1&seq_no_primary_term=true");
    assert_eq!(v["hits"]["hits"][0]["_seq_no"], 0);
    assert!(ix.search(json!({})).to_string().find("_seq_no").is_none());
}

fn ndjson(ix: &Index, path: &str, lines: &[Value]) -> (u16, Value) {
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let r = ix.gateway.handle_in_process(&metagate::gateway::Request {
        method: "POST".into(),
        path: format!("/elastic/v1{path}"),
        headers: vec![("Content-Type".into(), "application/x-ndjson".into())],
        body: body.into_bytes(),
    });
    (r.status, serde_json::from_slice(&r.body).unwrap_or(Value::Null))
}

#[test]
fn search_template_runs_the_rendered_search() {
    // lang_mustache/30_search_template.yml.
    let ix = fixture("search-template");
    let body =
        json!({"source": {"query": {"term": {"foo": {"value": "{{template}}"}}}}, "params": {"template": "bar"}});
    let (status, v) = ix.send("POST", "/_search/template", body.clone());
    assert_eq!((status, &v["hits"]["total"]), (200, &json!(1)), "{v}");
    assert_eq!(v["hits"]["hits"][0]["_id"], "id_1");
    // The answer is the rendered search's, byte for byte but `took`.
    let (_, searched) = ix.send("POST", "/_search", json!({"query": {"term": {"foo": {"value": "bar"}}}}));
    assert_eq!(common::without_took(v), common::without_took(searched));
    let (_, v) = ix.send(
        "GET",
        "/test/_search/template",
        json!({"source": {"query": {"match_{{template}}": {}}}, "params": {"template": "all"}}),
    );
    assert_eq!(v["hits"]["total"], 2);
    // `explain` of the template request; `size` of the URL is dropped as ES drops it.
    let (_, v) = ix.send(
        "POST",
        "/test/test/_search/template?size=0",
        json!({"source": "{\"query\": {\"match\": {\"{{field}}\": \"{{value}}\"}}}",
        "params": {"field": "field", "value": "foo"}, "explain": true}),
    );
    assert_eq!(v["hits"]["hits"].as_array().map(Vec::len), Some(1), "{v}");
    assert!(v["hits"]["hits"][0]["_explanation"]["description"].as_str().unwrap().starts_with("weight(field:foo in "));
    let (_, v) = ix.send("POST", "/test/_search/template?scroll=1m", body);
    assert!(v["_scroll_id"].is_string(), "{v}");
    // Stored templates are not in the file.
    let (status, v) = ix.send("POST", "/_search/template", json!({"id": "unknown", "params": {"template": "value1"}}));
    assert_eq!((status, &v["error"]["type"]), (404, &json!("resource_not_found_exception")));
    let (status, v) = ix.send("POST", "/_search/template", json!({"source": {"query": {"term": {"foo": "{{{x}}"}}}}));
    assert_eq!(
        (status, &v["error"]["type"], &v["error"]["lang"]),
        (400, &json!("script_exception"), &json!("mustache")),
        "{v}"
    );
}

#[test]
fn render_template_shows_the_rendered_search() {
    // lang_mustache/20_render_search_template.yml and 25_custom_functions.yml.
    let ix = fixture("render-template");
    let (status, v) = ix.send("POST", "/_render/template", json!({"source": {"query": {"match": {"text": "{{my_value}}"}},
        "aggs": {"my_terms": {"terms": {"field": "{{my_field}}"}}}}, "params": {"my_value": "foo", "my_field": "field1"}}));
    assert_eq!(
        (status, v),
        (
            200,
            json!({"template_output": {"query": {"match": {"text": "foo"}}, "aggs": {"my_terms": {"terms": {"field": "field1"}}}}})
        )
    );
    let (_, v) = ix.send(
        "GET",
        "/_render/template",
        json!({"source": "{ \"query\": { \"match\": { \"text\": \"{{my_value}}\" } }, \"size\": {{my_size}} }",
        "params": {"my_value": "b\"ar", "my_size": 20}}),
    );
    assert_eq!(v, json!({"template_output": {"query": {"match": {"text": "b\"ar"}}, "size": 20}}));
    let (_, v) = ix.send(
        "POST",
        "/_render/template",
        json!({"source": "{\"terms\": {{#toJson}}ids{{/toJson}}, \"q\": \"{{#join}}ids{{/join}}\"}",
        "params": {"ids": ["a", "b"]}}),
    );
    // toJson writes JSON text into the template's text, join the values.
    assert_eq!(v, json!({"template_output": {"terms": ["a", "b"], "q": "a,b"}}));
    let (_, v) = ix.send(
        "POST",
        "/_render/template",
        json!({"source": {"query": {"match": {"url":
        "https://localhost:9200/{{#url}}{{index}}{{/url}}/{{#url}}{{type}}{{/url}}/_search"}}},
        "params": {"index": "<logstash-{now/d-2d}>", "type": "métriques"}}),
    );
    assert_eq!(
        v["template_output"]["query"]["match"]["url"],
        "https://localhost:9200/%3Clogstash-%7Bnow%2Fd-2d%7D%3E/m%C3%A9triques/_search"
    );
    let (status, v) = ix.send(
        "POST",
        "/_render/template",
        json!({"source": {"query": {"match": {"text": "{{{my_value}}"}}}, "params": {}}),
    );
    assert_eq!(status, 400);
    assert_eq!(v["error"]["reason"], "Improperly closed variable in query-template:1");
    let (status, _) = ix.send("POST", "/_render/template/1", json!({"params": {}}));
    assert_eq!(status, 404);
}

#[test]
fn msearch_template_answers_each_item() {
    // lang_mustache/50_multi_search_template.yml, on one index.
    let ix = fixture("msearch-template");
    let (status, v) = ndjson(
        &ix,
        "/_msearch/template",
        &[
            json!({"index": "test"}),
            json!({"source": "{\"query\": {\"match\": {\"field\": \"{{value}}\"} } }", "params": {"value": "foo"}}),
            json!({"index": "test"}),
            json!({"source": "{\"query\": {\"match\": {", "params": {}}),
            json!({}),
            json!({"source": {"query": {"term": {"foo": "{{text}}"}}, "size": 0}, "params": {"text": "bar"}}),
            json!({"index": "test"}),
            json!({"source": "{\"query\": {\"{{query_type}}\": {} }}", "params": {"query_type": "unknown"}}),
            json!({"index": "test"}),
            json!({"id": "stored"}),
        ],
    );
    assert_eq!(status, 200, "{v}");
    let r = &v["responses"];
    assert_eq!((&r[0]["hits"]["total"], &r[0]["status"]), (&json!(1), &json!(200)));
    assert_eq!(r[1]["error"]["root_cause"][0]["type"], "json_parse_exception");
    assert_eq!((&r[2]["hits"]["total"], r[2]["hits"]["hits"].as_array().map(Vec::len)), (&json!(1), Some(0)));
    assert_eq!(r[3]["error"]["root_cause"][0]["reason"], "no [query] registered for [unknown]");
    assert_eq!((&r[4]["error"]["type"], &r[4]["status"]), (&json!("resource_not_found_exception"), &json!(404)));
    // A pair without a template fails the request.
    let (status, v) = ndjson(&ix, "/test/_msearch/template", &[json!({}), json!({"source": ""})]);
    assert_eq!((status, &v["error"]["reason"]), (400, &json!("Validation Failed: 1: template is missing;")));
}

#[test]
fn termvectors_of_a_stored_document_reanalyse_its_source() {
    let ix = fixture("termvectors");
    let (status, mut v) = ix.send("POST", "/test/test/1/_termvectors", json!({"fields": ["field"]}));
    assert_eq!(status, 200, "{v}");
    assert!(v["took"].is_u64());
    v["took"] = json!(0);
    assert_eq!(
        v,
        json!({"_index": "test", "_type": "test", "_id": "1", "_version": 1, "found": true, "took": 0,
               "term_vectors": {"field": {"field_statistics": {"sum_doc_freq": 2, "doc_count": 1, "sum_ttf": 2},
                   "terms": {"bar": {"term_freq": 1, "tokens": [{"position": 1, "start_offset": 4, "end_offset": 7}]},
                             "foo": {"term_freq": 1, "tokens": [{"position": 0, "start_offset": 0, "end_offset": 3}]}}}}})
    );
    // Statistics of the terms in the index; tokens without positions or offsets.
    let (_, v) = get(&ix, "/test/test/1/_termvectors?fields=field,foo&term_statistics=true&positions=false&offsets=false&field_statistics=false");
    assert_eq!(
        v["term_vectors"]["field"],
        json!({"terms": {"bar": {"doc_freq": 1, "ttf": 1, "term_freq": 1}, "foo": {"doc_freq": 1, "ttf": 1, "term_freq": 1}}})
    );
    // Without `fields`, only fields whose mapping keeps term vectors; a missing document.
    let (_, v) = get(&ix, "/test/test/1/_termvectors");
    assert_eq!(v["term_vectors"], json!({}));
    let (status, mut v) = get(&ix, "/test/test/nope/_termvectors");
    v["took"] = json!(0);
    assert_eq!(
        (status, v),
        (200, json!({"_index": "test", "_type": "test", "_id": "nope", "_version": -1, "found": false, "took": 0}))
    );
    let (status, v) = ix.send("POST", "/test/test/1/_termvectors", json!({"fields": ["field"], "dfs": true}));
    assert_eq!((status, &v["error"]["type"]), (400, &json!("illegal_argument_exception")));
}

#[test]
fn termvectors_filter_keeps_the_best_terms() {
    let ix = index(
        "termvectors-filter",
        json!({"mappings": {"_doc": {"properties": {"text": {"type": "text"}}}}}),
        &[("a", json!({"text": "brown fox brown"})), ("b", json!({"text": "fox dog"})), ("c", json!({"text": "cat"}))],
    );
    let terms = |filter: Value| {
        let (status, v) = ix.send(
            "POST",
            "/test/_termvectors/a",
            json!({"fields": ["text"], "positions": false,
            "offsets": false, "field_statistics": false, "filter": filter}),
        );
        assert_eq!(status, 200, "{v}");
        v["term_vectors"]["text"]["terms"].clone()
    };
    // tf × ClassicSimilarity idf: brown 2 × (ln(4/2) + 1), fox 1 × (ln(4/3) + 1).
    assert_eq!(
        terms(json!({})),
        json!({"brown": {"term_freq": 2, "score": 3.3862944}, "fox": {"term_freq": 1, "score": 1.287682}})
    );
    assert_eq!(terms(json!({"max_num_terms": 1})), json!({"brown": {"term_freq": 2, "score": 3.3862944}}));
    assert_eq!(terms(json!({"min_doc_freq": 2})), json!({"fox": {"term_freq": 1, "score": 1.287682}}));
    assert_eq!(terms(json!({"max_term_freq": 1, "min_word_length": 4})), json!({}));
    let (status, _) = ix.send("POST", "/test/_termvectors/a", json!({"filter": {"nope": 1}}));
    assert_eq!(status, 400);
}

#[test]
fn termvectors_follow_the_mapping_and_artificial_documents() {
    // termvectors/10_basic.yml: a field mapped with term vectors, its statistics.
    let ix = index(
        "termvectors-mapped",
        json!({"mappings": {"testtype": {"properties": {"text": {"type": "text", "term_vector": "with_positions_offsets"}}}}}),
        &[("testing_document", json!({"text": "The quick brown fox is brown."}))],
    );
    let (_, v) = get(&ix, "/test/testtype/testing_document/_termvectors?term_statistics=true");
    assert_eq!(v["term_vectors"]["text"]["field_statistics"]["sum_doc_freq"], 5);
    assert_eq!(v["term_vectors"]["text"]["terms"]["brown"]["doc_freq"], 1);
    assert_eq!(v["term_vectors"]["text"]["terms"]["brown"]["tokens"][0]["start_offset"], 10);
    assert_eq!(v["term_vectors"]["text"]["terms"]["brown"]["tokens"][1]["start_offset"], 23);
    assert_eq!(v["term_vectors"]["text"]["terms"]["brown"]["term_freq"], 2);
    // An artificial document: analysed by the mapping, counted against the index.
    let (status, v) = ix.send(
        "POST",
        "/test/testtype/_termvectors",
        json!({"doc": {"text": ["brown cow", "fox"]}, "term_statistics": true}),
    );
    assert_eq!(status, 200, "{v}");
    assert!(v.get("_id").is_none());
    assert_eq!(v["_version"], 0);
    let terms = &v["term_vectors"]["text"]["terms"];
    assert_eq!(
        terms["brown"],
        json!({"doc_freq": 1, "ttf": 2, "term_freq": 1, "tokens": [{"position": 0, "start_offset": 0, "end_offset": 5}]})
    );
    assert_eq!(terms["cow"], json!({"term_freq": 1, "tokens": [{"position": 1, "start_offset": 6, "end_offset": 9}]}));
    // The second value: positions after the gap, offsets after the first value and one.
    assert_eq!(terms["fox"]["tokens"], json!([{"position": 102, "start_offset": 10, "end_offset": 13}]));
    let (_, v) = ix.send(
        "POST",
        "/test/_termvectors",
        json!({"doc": {"text": "Brown"}, "per_field_analyzer": {"text": "keyword"}}),
    );
    assert_eq!(
        v["term_vectors"]["text"]["terms"],
        json!({"Brown": {"term_freq": 1, "tokens": [{"position": 0, "start_offset": 0, "end_offset": 5}]}})
    );
}

#[test]
fn mtermvectors_answer_each_document() {
    let ix = fixture("mtermvectors");
    let (status, v) = ix.send("POST", "/test/test/_mtermvectors?fields=field", json!({"ids": ["1", "nope"]}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["docs"][0]["term_vectors"]["field"]["terms"]["foo"]["term_freq"], 1);
    assert_eq!(v["docs"][1]["found"], false);
    let (_, v) = ix.send(
        "POST",
        "/_mtermvectors",
        json!({"docs": [
        {"_index": "test", "_type": "test", "_id": "1", "fields": ["field"], "offsets": false},
        {"_index": "nope", "_id": "1"},
        {"_index": "test", "doc": {"field": "x y"}, "fields": ["field"]}]}),
    );
    assert_eq!(v["docs"][0]["term_vectors"]["field"]["terms"]["bar"]["tokens"], json!([{"position": 1}]));
    assert_eq!(v["docs"][1]["error"]["type"], "index_not_found_exception");
    assert_eq!(v["docs"][2]["term_vectors"]["field"]["terms"]["y"]["term_freq"], 1);
    let (status, _) = ix.send("POST", "/_mtermvectors", json!({}));
    assert_eq!(status, 400);
}

#[test]
fn settings_include_defaults_adds_the_applied_defaults() {
    // indices.get_settings/30_defaults.yml, and the `defaults` block beside `settings`.
    let ix = fixture("settings-defaults");
    let (status, v) = get(&ix, "/test/_settings?flat_settings=true");
    assert_eq!(status, 200);
    assert_eq!(v["test"].get("defaults"), None);
    assert_eq!(v["test"]["settings"].get("index.refresh_interval"), None);
    let (_, v) = get(&ix, "/test/_settings?include_defaults=true&flat_settings=true");
    let defaults = &v["test"]["defaults"];
    assert_eq!(defaults["index.refresh_interval"], "1s");
    assert_eq!(defaults["index.max_result_window"], "10000");
    assert_eq!(defaults["index.max_terms_count"], "65536");
    // A given setting is not a default.
    assert_eq!(defaults.get("index.number_of_shards"), None);
    assert_eq!(v["test"]["settings"]["index.number_of_shards"], "1");
    // Nested, and filtered by the names asked for; an index with no matching given
    // setting still answers, with its defaults.
    let (_, v) = get(&ix, "/_settings/index.max_res*?include_defaults=true");
    assert_eq!(
        v,
        json!({"test": {"settings": {},
                        "defaults": {"index": {"max_rescore_window": "10000", "max_result_window": "10000"}}}})
    );
    assert_eq!(get(&ix, "/_settings/index.max_res*").1, json!({}));
}

#[test]
fn field_caps_lists_the_objects_above_the_fields() {
    // field_caps/10_basic.yml "Get object and nested field caps", on one index.
    let ix = index(
        "field-caps-objects",
        json!({"mappings": {"test": {"properties": {
            "obj": {"properties": {"a": {"type": "keyword"}, "b": {"type": "text", "fields": {"raw": {"type": "keyword"}}}}},
            "nest": {"type": "nested", "properties": {"inner": {"properties": {"leaf": {"type": "long"}}}}}}}}}),
        &[("1", json!({"obj": {"a": "x"}}))],
    );
    let (status, v) = get(&ix, "/test/_field_caps?fields=obj.b.raw,nest.inner.leaf");
    assert_eq!(status, 200);
    let off = |ty: &str| json!({ty: {"type": ty, "searchable": false, "aggregatable": false}});
    assert_eq!(
        v["fields"],
        json!({
            "obj.b.raw": {"keyword": {"type": "keyword", "searchable": true, "aggregatable": true}},
            // `obj.b` is a field (with a multi-field), not an object.
            "obj": off("object"),
            "nest.inner.leaf": {"long": {"type": "long", "searchable": true, "aggregatable": true}},
            "nest.inner": off("object"),
            "nest": off("nested"),
        })
    );
    // Without a field below it, an object is not listed.
    assert_eq!(get(&ix, "/test/_field_caps?fields=nest").1, json!({"fields": {}}));
}

/// `_mapping/field/{fields}`: each matching field under its full name with its leaf's
/// mapping; missing fields left out, one missing named field `{}`, a missing type or
/// index 404 as ES 6.8 answers.
#[test]
fn field_mapping_answers_each_matching_field_by_full_name() {
    let ix = index(
        "field-mapping",
        json!({"mappings": {"test": {"properties": {
            "title": {"type": "text", "fields": {"raw": {"type": "keyword"}}},
            "obj": {"properties": {"tag": {"type": "keyword"}, "n": {"type": "integer"}}}}}}}),
        &[("1", json!({"title": "a"}))],
    );
    let (status, v) = get(&ix, "/test/_mapping/test/field/obj.t*,title,nope");
    assert_eq!(status, 200);
    assert_eq!(
        v,
        json!({"test": {"mappings": {"test": {
            "obj.tag": {"full_name": "obj.tag", "mapping": {"tag": {"type": "keyword"}}},
            "title": {"full_name": "title", "mapping": {"title": {"type": "text",
                "fields": {"raw": {"type": "keyword"}}}}}}}}})
    );
    let (status, v) = get(&ix, "/_mapping/field/title.raw?include_type_name=false");
    assert_eq!(
        (status, v["test"]["mappings"]["title.raw"]["mapping"].clone()),
        (200, json!({"raw": {"type": "keyword"}}))
    );
    assert_eq!(get(&ix, "/test/_mapping/test/field/nope"), (200, json!({})));
    assert_eq!(get(&ix, "/test/_mapping/field/nope"), (200, json!({"test": {"mappings": {}}})));
    assert_eq!(get(&ix, "/test/_mapping/other/field/title"), (404, json!({})));
    let (status, v) = get(&ix, "/missing/_mapping/field/title");
    assert_eq!((status, v["error"]["type"].clone()), (404, json!("index_not_found_exception")));
    let (status, v) = get(&ix, "/_mapping/test/field/title?include_type_name=false");
    assert_eq!(
        (status, v["error"]["reason"].clone()),
        (400, json!("Types cannot be specified unless include_type_name is set to true."))
    );
}
