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
