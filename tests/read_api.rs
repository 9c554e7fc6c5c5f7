//! The read APIs besides `_search`, through the gateway, against ES 6.8's answers:
//! `_count`, `_msearch`, GET by id and `_source`, `_mget`, `_mapping`, `_field_caps`,
//! aliases, HEAD `{index}`, `_cat/indices`, `_cat/count`, and the read-only refusal of
//! writes.

mod common;
use common::response_header as header;
use metagate::gateway::{keys, Gateway, GatewayConfig, Request, Response};
use serde_json::{json, Value};
use std::sync::Arc;

const INDEX: &str = "scr_005400-registry_tools_pr-rin-test";

fn setup() -> (Gateway, String) {
    let e = common::engine_with(
        "read",
        INDEX,
        Some("RIN_Tool_pr"),
        &[
            ("rrid:scr_1", json!({"item": {"name": "BLAST", "description": "alignment search tool"}, "n": 1})),
            ("rrid:scr_2", json!({"item": {"name": "Clustal", "description": "multiple alignment"}, "n": 2})),
            ("rrid:scr_3", json!({"item": {"name": "ImageJ", "description": "image analysis"}, "n": 3})),
        ],
        Some(metagate::Family::Registry),
    );
    let bulk = "{\"index\":{\"_id\":\"ilx_1\",\"_type\":\"term\"}}\n{\"label\":\"heart\"}\n";
    e.load("lexicon-v1", bulk.as_bytes(), &Default::default(), &mut |_, _| {}).unwrap();
    e.update_aliases(&[metagate::AliasAction::Add { alias: "Lexicon_pr".into(), index: "lexicon-v1".into() }]).unwrap();
    let key = keys::add(&e, "reader").unwrap();
    (Gateway::new(Arc::new(e), GatewayConfig { rate_limit: 0.0, ..Default::default() }), key)
}

fn call(g: &Gateway, key: &str, method: &str, path: &str, body: &str) -> Response {
    let mut headers = vec![("apikey".to_string(), key.to_string())];
    if !body.is_empty() {
        let ct = if path.contains("_msearch") { "application/x-ndjson" } else { "application/json" };
        headers.push(("Content-Type".to_string(), ct.to_string()));
    }
    g.handle(&Request {
        method: method.into(),
        path: format!("/elastic/v1{path}"),
        headers,
        body: body.as_bytes().to_vec(),
    })
}

fn status_json(r: &Response) -> (u16, Value) {
    (r.status, serde_json::from_slice(&r.body).unwrap_or(Value::Null))
}

#[test]
fn count_answers_counts_as_es() {
    let (g, key) = setup();
    let shards = json!({"total": 1, "successful": 1, "skipped": 0, "failed": 0});
    assert_eq!(
        status_json(&call(&g, &key, "GET", "/RIN_Tool_pr/_count", "")),
        (200, json!({"count": 3, "_shards": shards}))
    );
    let r = call(&g, &key, "POST", "/RIN_Tool_pr/_count", r#"{"query":{"match":{"item.description":"alignment"}}}"#);
    assert_eq!(status_json(&r), (200, json!({"count": 2, "_shards": shards})));
    assert_eq!(status_json(&call(&g, &key, "GET", "/RIN_Tool_pr/_count?q=image", "")).1["count"], 1);
    let all = json!({"total": 2, "successful": 2, "skipped": 0, "failed": 0});
    assert_eq!(status_json(&call(&g, &key, "GET", "/_count", "")), (200, json!({"count": 4, "_shards": all})));
    let r = call(&g, &key, "GET", "/RIN_Tool_pr/_count?terminate_after=1", "");
    assert_eq!(status_json(&r), (200, json!({"terminated_early": true, "count": 1, "_shards": shards})));
    // Only `query` in the body; `q` only without one.
    let r = call(&g, &key, "POST", "/RIN_Tool_pr/_count", r#"{"size":0}"#);
    assert_eq!(
        status_json(&r),
        (
            400,
            json!({"error": {"root_cause": [{"type": "parsing_exception", "reason": "request does not support [size]", "line": 1, "col": 2}],
                              "type": "parsing_exception", "reason": "request does not support [size]", "line": 1, "col": 2}, "status": 400})
        )
    );
    let r = call(&g, &key, "POST", "/RIN_Tool_pr/_count?q=x", r#"{"query":{"match_all":{}}}"#);
    assert_eq!(r.status, 400);
    assert_eq!(
        status_json(&r).1["error"]["reason"],
        json!("request [/elastic/v1/RIN_Tool_pr/_count] contains unrecognized parameter: [q]")
    );
    let r = call(&g, &key, "GET", "/nope/_count", "");
    assert_eq!(status_json(&r).1["error"]["type"], "index_not_found_exception");
}

#[test]
fn msearch_answers_each_search() {
    let (g, key) = setup();
    let body = "{\"index\":\"RIN_Tool_pr\"}\n{\"query\":{\"match\":{\"item.description\":\"alignment\"}},\"size\":1}\n\
                {\"index\":\"nope\"}\n{}\n\
                {}\n{\"size\":0}\n";
    let (status, v) = status_json(&call(&g, &key, "POST", "/_msearch", body));
    assert_eq!(status, 200);
    let responses = v["responses"].as_array().unwrap();
    assert_eq!(responses.len(), 3);
    assert_eq!(v.as_object().unwrap().keys().collect::<Vec<_>>(), ["responses"]);
    let first = responses[0].as_object().unwrap();
    assert_eq!(first.keys().collect::<Vec<_>>(), ["took", "timed_out", "_shards", "hits", "status"]);
    assert_eq!((responses[0]["hits"]["total"].clone(), responses[0]["status"].clone()), (json!(2), json!(200)));
    assert_eq!(responses[1]["status"], 404);
    assert_eq!(responses[1]["error"]["type"], "index_not_found_exception");
    assert!(responses[1].get("took").is_none());
    assert_eq!(responses[2]["hits"]["total"], 4);
    // The path's index applies where a header names none.
    let (_, v) = status_json(&call(&g, &key, "POST", "/Lexicon_pr/_msearch", "{}\n{}\n"));
    assert_eq!(v["responses"][0]["hits"]["total"], 1);
    // NDJSON must end with a newline; a request must hold a search.
    let r = call(&g, &key, "POST", "/_msearch", "{}\n{}");
    assert_eq!(status_json(&r).1["error"]["reason"], json!("The msearch request must be terminated by a newline [\n]"));
    let r = call(&g, &key, "POST", "/_msearch", "\n");
    assert_eq!(
        status_json(&r),
        (
            400,
            json!({"error": {"root_cause": [{"type": "action_request_validation_exception", "reason": "Validation Failed: 1: no requests added;"}],
                              "type": "action_request_validation_exception", "reason": "Validation Failed: 1: no requests added;"}, "status": 400})
        )
    );
    // 6.8 accepts and warns about header keys 7.x rejects.
    let r = call(&g, &key, "POST", "/_msearch", "{\"scroll\":\"1m\"}\n{}\n");
    assert_eq!(r.status, 200);
    assert!(header(&r, "Warning")[0]
        .contains("key [scroll] is not supported in the metadata section and will be rejected in 7.x"));
}

#[test]
fn documents_by_id() {
    let (g, key) = setup();
    let r = call(&g, &key, "GET", &format!("/{INDEX}/rin/rrid:scr_2"), "");
    assert_eq!(
        status_json(&r),
        (
            200,
            json!({"_index": INDEX, "_type": "rin", "_id": "rrid:scr_2", "_version": 1, "_seq_no": 1, "_primary_term": 1, "found": true,
                     "_source": {"item": {"name": "Clustal", "description": "multiple alignment"}, "n": 2}})
        )
    );
    // `_doc` finds any type and is the type answered; an alias of one index works too.
    let (status, v) =
        status_json(&call(&g, &key, "GET", "/RIN_Tool_pr/_doc/rrid:scr_1?_source_includes=item.name", ""));
    assert_eq!((status, v["_type"].clone(), v["_index"].clone()), (200, json!("_doc"), json!(INDEX)));
    assert_eq!(v["_source"], json!({"item": {"name": "BLAST"}}));
    let (_, v) = status_json(&call(&g, &key, "GET", "/RIN_Tool_pr/_doc/rrid:scr_1?_source=false", ""));
    assert!(v.get("_source").is_none() && v["found"] == json!(true));
    let (_, v) = status_json(&call(&g, &key, "GET", "/RIN_Tool_pr/_doc/rrid:scr_1?stored_fields=item.name", ""));
    assert!(v.get("_source").is_none());
    // Missing: by id or by type.
    for path in ["/RIN_Tool_pr/rin/nope", "/RIN_Tool_pr/term/rrid:scr_1"] {
        let ty = path.split('/').nth(2).unwrap();
        let id = path.split('/').nth(3).unwrap();
        assert_eq!(
            status_json(&call(&g, &key, "GET", path, "")),
            (404, json!({"_index": INDEX, "_type": ty, "_id": id, "found": false}))
        );
    }
    let r = call(&g, &key, "HEAD", "/RIN_Tool_pr/_doc/nope", "");
    assert_eq!((r.status, r.body.len()), (404, 0));
    // 6.8 has no `{index}/_source/{id}`: that path is a GET of type `_source`.
    assert_eq!(status_json(&call(&g, &key, "GET", "/RIN_Tool_pr/_source/rrid:scr_1", "")).1["found"], false);
    let r = call(&g, &key, "GET", "/nope/_doc/1", "");
    assert_eq!(
        status_json(&r),
        (
            404,
            json!({"error": {"root_cause": [{"type": "index_not_found_exception", "reason": "no such index", "resource.type": "index_expression",
                                               "resource.id": "nope", "index_uuid": "_na_", "index": "nope"}],
                              "type": "index_not_found_exception", "reason": "no such index", "resource.type": "index_expression",
                              "resource.id": "nope", "index_uuid": "_na_", "index": "nope"}, "status": 404})
        )
    );
    let r = call(&g, &key, "GET", "/RIN_Tool_pr/_doc/rrid:scr_1?version=2", "");
    assert_eq!(r.status, 409);
    assert_eq!(
        status_json(&r).1["error"]["reason"],
        json!("[_doc][rrid:scr_1]: version conflict, current version [1] is different than the one provided [2]")
    );
    let r = call(&g, &key, "GET", "/RIN_Tool_pr/_doc/rrid:scr_1?fields=a", "");
    assert_eq!(r.status, 400);
    // The source alone.
    let r = call(&g, &key, "GET", "/RIN_Tool_pr/rin/rrid:scr_3/_source?_source_excludes=item", "");
    assert_eq!(status_json(&r), (200, json!({"n": 3})));
    let r = call(&g, &key, "GET", "/RIN_Tool_pr/_doc/nope/_source", "");
    assert_eq!(
        status_json(&r),
        (
            404,
            json!({"error": {"root_cause": [{"type": "resource_not_found_exception", "reason": format!("Document not found [{INDEX}]/[_doc]/[nope]")}],
                              "type": "resource_not_found_exception", "reason": format!("Document not found [{INDEX}]/[_doc]/[nope]")}, "status": 404})
        )
    );
}

#[test]
fn mget_answers_each_document() {
    let (g, key) = setup();
    let body = json!({"docs": [
        {"_index": "RIN_Tool_pr", "_id": "rrid:scr_3", "_source": ["n"]},
        {"_index": "Lexicon_pr", "_type": "term", "_id": "ilx_1"},
        {"_index": "RIN_Tool_pr", "_id": "gone"},
        {"_index": "nope", "_type": "_doc", "_id": "1"}]});
    let (status, v) = status_json(&call(&g, &key, "POST", "/_mget", &body.to_string()));
    assert_eq!(status, 200);
    let docs = v["docs"].as_array().unwrap();
    assert_eq!(
        docs[0],
        json!({"_index": INDEX, "_type": "rin", "_id": "rrid:scr_3", "_version": 1, "_seq_no": 2, "_primary_term": 1, "found": true, "_source": {"n": 3}})
    );
    assert_eq!(docs[1]["_source"], json!({"label": "heart"}));
    // A missing document of an item without a type shows the index's mapping type
    // (6.8's ShardGetService resolves it before looking).
    assert_eq!(docs[2], json!({"_index": INDEX, "_type": "rin", "_id": "gone", "found": false}));
    assert_eq!(docs[3]["error"]["type"], "index_not_found_exception");
    assert_eq!((docs[3]["_index"].clone(), docs[3]["_type"].clone()), (json!("nope"), json!("_doc")));
    let (_, v) = status_json(&call(
        &g,
        &key,
        "GET",
        "/RIN_Tool_pr/_mget?_source=false",
        r#"{"ids":["rrid:scr_1","rrid:scr_2"]}"#,
    ));
    let found: Vec<Value> = v["docs"].as_array().unwrap().iter().map(|d| d["_id"].clone()).collect();
    assert_eq!(found, [json!("rrid:scr_1"), json!("rrid:scr_2")]);
    assert!(v["docs"][0].get("_source").is_none());
    for (body, reason) in [
        ("{}", "Validation Failed: 1: no documents to get;"),
        (r#"{"ids":["a"]}"#, "Validation Failed: 1: index is missing for doc 0;"),
        (r#"{"foo":[]}"#, "unknown key [foo] for a START_ARRAY, expected [docs] or [ids]"),
    ] {
        assert_eq!(status_json(&call(&g, &key, "POST", "/_mget", body)).1["error"]["reason"], json!(reason), "{body}");
    }
}

#[test]
fn mappings_field_caps_aliases_and_indices() {
    let (g, key) = setup();
    let r = call(&g, &key, "GET", "/Lexicon_pr/_mapping", "");
    assert_eq!(
        status_json(&r).1,
        json!({"lexicon-v1": {"mappings": {"term": {"properties": {"label": {
        "type": "text", "fields": {"keyword": {"type": "keyword", "ignore_above": 256}}}}}}}})
    );
    assert!(header(&r, "Warning")[0]
        .contains("[types removal] The parameter include_type_name should be explicitly specified"));
    let r = call(&g, &key, "GET", "/Lexicon_pr/_mapping?include_type_name=false", "");
    assert!(status_json(&r).1["lexicon-v1"]["mappings"]["properties"]["label"].is_object());
    assert!(header(&r, "Warning").is_empty());
    let r = call(&g, &key, "GET", "/_mapping/rin?include_type_name=true", "");
    assert_eq!(status_json(&r).1.as_object().unwrap().keys().collect::<Vec<_>>(), [INDEX]);
    let r = call(&g, &key, "GET", "/Lexicon_pr/_mapping/nope?include_type_name=true", "");
    assert_eq!(
        status_json(&r),
        (
            404,
            json!({"error": {"root_cause": [{"type": "type_missing_exception", "reason": "type[[nope]] missing", "index_uuid": "_na_", "index": "_all"}],
                              "type": "type_missing_exception", "reason": "type[[nope]] missing", "index_uuid": "_na_", "index": "_all"}, "status": 404})
        )
    );
    // Field capabilities.
    let (_, v) = status_json(&call(&g, &key, "GET", "/_field_caps?fields=label,n,item.name*", ""));
    assert_eq!(
        v,
        json!({"fields": {
            "item": {"object": {"type": "object", "searchable": false, "aggregatable": false}},
            "item.name": {"text": {"type": "text", "searchable": true, "aggregatable": false}},
            "item.name.aggregate": {"keyword": {"type": "keyword", "searchable": true, "aggregatable": true}},
            "label": {"text": {"type": "text", "searchable": true, "aggregatable": false}},
            "n": {"long": {"type": "long", "searchable": true, "aggregatable": true}}}})
    );
    let r = call(&g, &key, "GET", "/_field_caps", "");
    assert_eq!(status_json(&r).1["error"]["reason"], json!("Validation Failed: 1: no fields specified;"));
    // Aliases.
    let (_, v) = status_json(&call(&g, &key, "GET", "/_alias", ""));
    assert_eq!(v, json!({"lexicon-v1": {"aliases": {"Lexicon_pr": {}}}, INDEX: {"aliases": {"RIN_Tool_pr": {}}}}));
    assert_eq!(status_json(&call(&g, &key, "GET", "/_aliases", "")).1, v);
    let (_, v) = status_json(&call(&g, &key, "GET", "/_alias/RIN_*", ""));
    assert_eq!(v, json!({INDEX: {"aliases": {"RIN_Tool_pr": {}}}}));
    let r = call(&g, &key, "GET", "/_alias/RIN_Tool_pr,gone", "");
    assert_eq!(
        status_json(&r),
        (404, json!({"error": "alias [gone] missing", "status": 404, INDEX: {"aliases": {"RIN_Tool_pr": {}}}}))
    );
    assert_eq!(call(&g, &key, "HEAD", "/_alias/Lexicon_pr", "").status, 200);
    let r = call(&g, &key, "HEAD", "/_alias/gone", "");
    assert_eq!((r.status, r.body.len()), (404, 0));
    // Index existence and the index itself.
    assert_eq!(call(&g, &key, "HEAD", "/lexicon-v1", "").status, 200);
    assert_eq!(call(&g, &key, "HEAD", "/RIN_Tool_pr", "").status, 200);
    let r = call(&g, &key, "HEAD", "/nope", "");
    assert_eq!((r.status, r.body.len()), (404, 0));
    let (_, v) = status_json(&call(&g, &key, "GET", "/Lexicon_pr", ""));
    assert_eq!(v["lexicon-v1"]["aliases"], json!({"Lexicon_pr": {}}));
    assert_eq!(v["lexicon-v1"]["settings"]["index"]["number_of_shards"], "1");
}

#[test]
fn cat_indices_and_count() {
    let (g, key) = setup();
    let r = call(&g, &key, "GET", "/_cat/indices?format=json&bytes=b", "");
    let (_, v) = status_json(&r);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows[0].as_object().unwrap().keys().collect::<Vec<_>>(),
        [
            "health",
            "status",
            "index",
            "uuid",
            "pri",
            "rep",
            "docs.count",
            "docs.deleted",
            "store.size",
            "pri.store.size"
        ]
    );
    assert_eq!(
        (rows[0]["index"].clone(), rows[0]["docs.count"].clone(), rows[0]["pri"].clone()),
        (json!("lexicon-v1"), json!("1"), json!("1"))
    );
    assert_eq!((rows[0]["health"].clone(), rows[0]["status"].clone()), (json!("green"), json!("open")));
    assert!(rows[0]["store.size"].as_str().unwrap().parse::<u64>().is_ok());
    let r = call(&g, &key, "GET", "/_cat/indices/RIN_Tool_pr?v&h=index,docs.count", "");
    let text = String::from_utf8(r.body.clone()).unwrap();
    assert_eq!(text, format!("index{} docs.count\n{INDEX}          3\n", " ".repeat(INDEX.len() - 5)));
    let r = call(&g, &key, "GET", "/_cat/count/RIN_Tool_pr?format=json&q=alignment", "");
    let (_, v) = status_json(&r);
    assert_eq!(v[0]["count"], "2");
    assert!(v[0]["epoch"].as_str().unwrap().parse::<u64>().is_ok());
    assert_eq!(v[0]["timestamp"].as_str().unwrap().len(), 8);
    let r = call(&g, &key, "GET", "/_cat/count?ts=false", "");
    assert_eq!(String::from_utf8_lossy(&r.body), "4\n");
}

#[test]
fn writes_answer_a_read_only_cluster() {
    let (g, key) = setup();
    let blocked = json!({"error": {"root_cause": [{"type": "cluster_block_exception", "reason": "blocked by: [FORBIDDEN/6/cluster read-only (api)];"}],
                                   "type": "cluster_block_exception", "reason": "blocked by: [FORBIDDEN/6/cluster read-only (api)];"}, "status": 403});
    for (method, path, body) in [
        ("PUT", "/RIN_Tool_pr/_doc/1", "{}"),
        ("POST", "/RIN_Tool_pr/_doc", "{}"),
        ("DELETE", "/RIN_Tool_pr/rin/rrid:scr_1", ""),
        ("POST", "/_bulk", "{}\n"),
        ("DELETE", "/lexicon-v1", ""),
        ("PUT", "/new-index", "{}"),
        ("POST", "/_aliases", r#"{"actions":[]}"#),
        ("PUT", "/lexicon-v1/_alias/x", ""),
        ("POST", "/RIN_Tool_pr/_delete_by_query", "{}"),
        ("POST", "/RIN_Tool_pr/_doc/1/_update", "{}"),
    ] {
        let r = call(&g, &key, method, path, body);
        assert_eq!(status_json(&r), (403, blocked.clone()), "{method} {path}");
    }
    // Nothing changed.
    assert_eq!(status_json(&call(&g, &key, "GET", "/_count", "")).1["count"], 4);
    // A key is still needed first.
    let r = g.handle(&Request { method: "DELETE".into(), path: "/elastic/v1/lexicon-v1".into(), ..Default::default() });
    assert_eq!(r.status, 401);
}
