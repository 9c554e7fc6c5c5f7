//! Aliases with a `filter` and routing values, as ES 6.8 keeps, applies and prints them:
//! the filter ANDed with every search, count, msearch, scroll page, `_explain` and
//! `_validate/query` through the alias (and not when the index is also named itself or
//! through an alias without one), several filtered aliases as any of their filters,
//! `_search_shards` listing the filtering aliases and their filter, `_alias`,
//! `GET {index}` and `_cat/aliases` as ES prints them (`cat.aliases/10_basic.yml`'s
//! complex alias and routing cases), the filter checked when the alias is made,
//! create-index bodies with filtered aliases, and the command line's `alias add --filter`.

mod common;

use metagate::gateway::{Gateway, GatewayConfig, Request};
use metagate::{AliasAction, AliasOptions, Engine, LoadOptions};
use serde_json::{json, Value};
use std::sync::Arc;

struct Fixture {
    engine: Arc<Engine>,
    gateway: Gateway,
    file: std::path::PathBuf,
}

/// Index `test`: four users' documents; index `other`: one document.
fn fixture(tag: &str, create_body: Option<Value>) -> Fixture {
    let file = common::temp_file(tag);
    let e = Engine::open_or_create(&file).unwrap();
    let docs = [("1", "kimchy", 1), ("2", "kimchy", 2), ("3", "shay", 3), ("4", "bob", 4)];
    let lines: String = docs
        .iter()
        .map(|(id, user, n)| format!("{}\n{}\n", json!({"index": {"_id": id}}), json!({"user": user, "n": n})))
        .collect();
    let body = create_body.unwrap_or(json!({"mappings": {"_doc": {"properties": {
        "user": {"type": "keyword"}, "n": {"type": "integer"}}}}}));
    let opts = LoadOptions { create_body: Some(body), ..Default::default() };
    e.load("test", lines.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    let other = format!("{}\n{}\n", json!({"index": {"_id": "9"}}), json!({"user": "kimchy", "n": 9}));
    e.load("other", other.as_bytes(), &LoadOptions::default(), &mut |_, _| {}).unwrap();
    let engine = Arc::new(e);
    let gateway = Gateway::new(engine.clone(), GatewayConfig { rate_limit: 0.0, ..Default::default() });
    Fixture { engine, gateway, file }
}

#[allow(clippy::result_large_err)] // the crate's own error type
fn add(f: &Fixture, alias: &str, index: &str, options: AliasOptions) -> metagate::Result<()> {
    f.engine.update_aliases(&[AliasAction::AddWithOptions { alias: alias.into(), index: index.into(), options }])
}

fn filtered(filter: Value) -> AliasOptions {
    AliasOptions { filter: Some(filter), ..Default::default() }
}

fn send(f: &Fixture, method: &str, path: &str, body: &str) -> (u16, String) {
    let r = f.gateway.handle_in_process(&Request {
        method: method.into(),
        path: format!("/elastic/v1{path}"),
        headers: vec![("Content-Type".into(), "application/json".into())],
        body: body.as_bytes().to_vec(),
    });
    (r.status, String::from_utf8_lossy(&r.body).into_owned())
}

fn json_of(f: &Fixture, method: &str, path: &str, body: &str) -> Value {
    let (status, text) = send(f, method, path, body);
    assert_eq!(status, 200, "{path}: {text}");
    serde_json::from_str(&text).unwrap()
}

fn ids(f: &Fixture, index: &str) -> Vec<String> {
    let v = json_of(f, "POST", &format!("/{index}/_search"), r#"{"sort": [{"n": "asc"}]}"#);
    v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap().to_string()).collect()
}

#[test]
fn searches_through_a_filtered_alias_see_the_filtered_documents() {
    let f = fixture("alias-filter-search", None);
    add(&f, "kimchy", "test", filtered(json!({"term": {"user": "kimchy"}}))).unwrap();
    add(&f, "shay", "test", filtered(json!({"term": {"user": "shay"}}))).unwrap();
    f.engine.update_aliases(&[AliasAction::Add { alias: "all".into(), index: "test".into() }]).unwrap();
    assert_eq!(ids(&f, "kimchy"), ["1", "2"]);
    assert_eq!(ids(&f, "test"), ["1", "2", "3", "4"]);
    // Several filtered aliases: a document matching any of the filters.
    assert_eq!(ids(&f, "kimchy,shay"), ["1", "2", "3"]);
    assert_eq!(ids(&f, "kim*"), ["1", "2"]);
    // The index named itself, or through an alias without a filter: no filter.
    assert_eq!(ids(&f, "kimchy,test"), ["1", "2", "3", "4"]);
    assert_eq!(ids(&f, "kimchy,all"), ["1", "2", "3", "4"]);
    assert_eq!(ids(&f, "_all").len(), 5);
    // The filter is a filter: the query's scores are kept.
    let through = json_of(&f, "POST", "/kimchy/_search", r#"{"query": {"match": {"user": "kimchy"}}}"#);
    let direct = json_of(&f, "POST", "/test/_search", r#"{"query": {"match": {"user": "kimchy"}}}"#);
    assert_eq!(through["hits"]["hits"][0]["_score"], direct["hits"]["hits"][0]["_score"]);
    // Count, msearch and aggregations see the same documents.
    assert_eq!(json_of(&f, "GET", "/kimchy/_count", "")["count"], 2);
    let m = json_of(
        &f,
        "POST",
        "/_msearch",
        "{\"index\": \"kimchy\"}\n{\"size\": 0}\n{\"index\": \"test\"}\n{\"size\": 0}\n",
    );
    assert_eq!((&m["responses"][0]["hits"]["total"], &m["responses"][1]["hits"]["total"]), (&json!(2), &json!(4)));
    let a = json_of(&f, "POST", "/shay/_search", r#"{"size": 0, "aggs": {"s": {"sum": {"field": "n"}}}}"#);
    assert_eq!(a["aggregations"]["s"]["value"], 3.0);
    // A collapse through the alias, and its groups' inner hits, see the same documents.
    add(&f, "from2", "test", filtered(json!({"range": {"n": {"gte": 2}}}))).unwrap();
    let c = json_of(
        &f,
        "POST",
        "/from2/_search",
        r#"{"collapse": {"field": "user", "inner_hits": {"name": "all", "size": 5}}, "sort": [{"n": "asc"}]}"#,
    );
    assert_eq!(c["hits"]["total"], 3);
    let groups: Vec<(&Value, &Value)> = c["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (&h["_id"], &h["inner_hits"]["all"]["hits"]["total"]))
        .collect();
    assert_eq!(groups, [(&json!("2"), &json!(1)), (&json!("3"), &json!(1)), (&json!("4"), &json!(1))]);
    // `_explain` through the alias: the filter is a filter clause beside the query, so
    // a document outside it does not match and one inside keeps the query's score.
    let q = r#"{"query": {"match": {"user": "kimchy"}}}"#;
    let through = json_of(&f, "POST", "/kimchy/_doc/1/_explain", q);
    let direct = json_of(&f, "POST", "/test/_doc/1/_explain", q);
    assert_eq!(through["matched"], true);
    assert_eq!(through["explanation"]["value"], direct["explanation"]["value"]);
    let outside = json_of(&f, "POST", "/kimchy/_doc/3/_explain", r#"{"query": {"match_all": {}}}"#);
    assert_eq!(outside["matched"], false);
    assert_eq!(json_of(&f, "POST", "/test/_doc/3/_explain", r#"{"query": {"match_all": {}}}"#)["matched"], true);
}

#[test]
fn validate_query_through_a_filtered_alias_adds_its_filter() {
    let f = fixture("alias-filter-validate", None);
    add(&f, "kimchy", "test", filtered(json!({"term": {"user": "kimchy"}}))).unwrap();
    add(&f, "shay", "test", filtered(json!({"term": {"user": "shay"}}))).unwrap();
    let explained = |path: &str, body: &str| -> Value {
        let v = json_of(&f, "POST", path, body);
        assert_eq!(v["valid"], true, "{v}");
        v["explanations"][0]["explanation"].clone()
    };
    // ES's DefaultSearchContext.buildFilteredQuery: the query required, the filter a filter.
    assert_eq!(explained("/kimchy/_validate/query?explain", r#"{"query": {"match_all": {}}}"#), "+*:* #user:kimchy");
    assert_eq!(
        explained("/kimchy,shay/_validate/query?explain", r#"{"query": {"term": {"user": "bob"}}}"#),
        "+user:bob #(user:kimchy user:shay)"
    );
    assert_eq!(
        explained(
            "/kimchy/_validate/query?explain",
            r#"{"query": {"bool": {"must": [{"term": {"user": "a"}}, {"term": {"user": "b"}}]}}}"#
        ),
        "+(+user:a +user:b) #user:kimchy"
    );
    // With the path's type first, as ES adds it.
    assert_eq!(
        explained("/kimchy/_doc/_validate/query?explain", r#"{"query": {"term": {"user": "bob"}}}"#),
        "+user:bob #*:* #user:kimchy"
    );
    // The index named itself: no filter.
    assert_eq!(explained("/test/_validate/query?explain", r#"{"query": {"term": {"user": "bob"}}}"#), "user:bob");
    // Without `explain`, the query is still valid.
    assert_eq!(json_of(&f, "POST", "/kimchy/_validate/query", r#"{"query": {"match_all": {}}}"#)["valid"], true);
}

#[test]
fn search_shards_list_the_filtering_aliases_and_their_filter() {
    // search_shards/10_basic.yml of 6.8, "Search shards aliases with and without filters".
    let f = fixture("alias-filter-search-shards", None);
    f.engine
        .update_aliases(&[AliasAction::Add { alias: "test_alias_no_filter".into(), index: "test".into() }])
        .unwrap();
    add(&f, "test_alias_filter_1", "test", filtered(json!({"term": {"user": "value1"}}))).unwrap();
    add(&f, "test_alias_filter_2", "test", filtered(json!({"term": {"user": "value2"}}))).unwrap();
    let indices = |expr: &str| json_of(&f, "GET", &format!("/{expr}/_search_shards"), "")["indices"].clone();
    assert_eq!(indices("test_alias_no_filter"), json!({"test": {}}));
    assert_eq!(
        indices("test_alias_filter_1"),
        json!({"test": {"aliases": ["test_alias_filter_1"],
                        "filter": {"term": {"user": {"value": "value1", "boost": 1.0}}}}})
    );
    assert_eq!(
        indices("test_alias_filter_2,test_alias_filter_1"),
        json!({"test": {"aliases": ["test_alias_filter_1", "test_alias_filter_2"],
                        "filter": {"bool": {"should": [{"term": {"user": {"value": "value1", "boost": 1.0}}},
                                                       {"term": {"user": {"value": "value2", "boost": 1.0}}}],
                                            "adjust_pure_negative": true, "boost": 1.0}}}})
    );
    assert_eq!(indices("test*"), json!({"test": {}}));
    assert_eq!(indices("test_alias_filter_1,test_alias_no_filter"), json!({"test": {}}));
    // A filter metagate does not print as ES would is refused, not printed as given.
    add(&f, "matching", "test", filtered(json!({"match": {"user": "kimchy"}}))).unwrap();
    let (status, text) = send(&f, "GET", "/matching/_search_shards", "");
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("metagate does not print the alias filter of a [match] query in _search_shards"));
}

/// The `_id`s of a page.
fn page_ids(v: &Value) -> Vec<String> {
    v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap().to_string()).collect()
}

#[test]
fn scrolls_through_a_filtered_alias_keep_its_filter_on_every_page() {
    let f = fixture("alias-filter-scroll", None);
    add(&f, "kimchy", "test", filtered(json!({"term": {"user": "kimchy"}}))).unwrap();
    add(&f, "shay", "test", filtered(json!({"term": {"user": "shay"}}))).unwrap();
    let body = r#"{"size": 1, "sort": [{"n": "asc"}]}"#;
    let first = json_of(&f, "POST", "/kimchy,shay/_search?scroll=1m", body);
    assert_eq!((page_ids(&first), &first["hits"]["total"]), (vec!["1".to_string()], &json!(3)));
    let next = |f: &Fixture, id: &Value| {
        json_of(f, "POST", "/_search/scroll", &json!({"scroll": "1m", "scroll_id": id}).to_string())
    };
    let second = next(&f, &first["_scroll_id"]);
    assert_eq!(page_ids(&second), ["2"]);
    // The filters are the ones of the scroll's start: changing the alias changes nothing.
    f.engine.update_aliases(&[AliasAction::Remove { alias: "shay".into(), index: "test".into() }]).unwrap();
    // Another process on the file reads them from the id.
    let engine = Arc::new(Engine::open(&f.file).unwrap());
    let other = Fixture {
        gateway: Gateway::new(engine.clone(), GatewayConfig { rate_limit: 0.0, ..Default::default() }),
        engine,
        file: f.file.clone(),
    };
    let third = next(&other, &second["_scroll_id"]);
    assert_eq!((page_ids(&third), &third["hits"]["total"]), (vec!["3".to_string()], &json!(3)));
    assert!(page_ids(&next(&other, &third["_scroll_id"])).is_empty());
    // In this process too.
    let again = json_of(&f, "POST", "/kimchy/_search?scroll=1m", r#"{"size": 10}"#);
    assert_eq!(again["hits"]["total"], 2);
}

#[test]
fn aliases_print_their_filter_and_routing_as_es() {
    let f = fixture("alias-filter-print", None);
    let complex = AliasOptions {
        filter: Some(json!({"term": {"foo": "bar"}})),
        index_routing: Some("ir".into()),
        search_routing: Some("sr1,sr2".into()),
        ..Default::default()
    };
    add(&f, "test_alias", "test", complex).unwrap();
    let routed =
        AliasOptions { index_routing: Some("1".into()), search_routing: Some("1".into()), ..Default::default() };
    add(&f, "test_1", "test", routed).unwrap();
    f.engine.update_aliases(&[AliasAction::Add { alias: "plain".into(), index: "other".into() }]).unwrap();
    let v = json_of(&f, "GET", "/_alias", "");
    assert_eq!(
        v.to_string(),
        json!({
            "other": {"aliases": {"plain": {}}},
            "test": {"aliases": {
                "test_1": {"index_routing": "1", "search_routing": "1"},
                "test_alias": {"filter": {"term": {"foo": "bar"}}, "index_routing": "ir", "search_routing": "sr1,sr2"}}}
        })
        .to_string()
    );
    let v = json_of(&f, "GET", "/test/_alias/test_alias", "");
    assert_eq!(
        v,
        json!({"test": {"aliases": {"test_alias":
            {"filter": {"term": {"foo": "bar"}}, "index_routing": "ir", "search_routing": "sr1,sr2"}}}})
    );
    let v = json_of(&f, "GET", "/test", "");
    assert_eq!(v["test"]["aliases"]["test_1"], json!({"index_routing": "1", "search_routing": "1"}));
    let (status, text) = send(&f, "GET", "/_cat/aliases?v&s=alias", "");
    assert_eq!(status, 200);
    assert_eq!(
        text,
        "alias      index filter routing.index routing.search\n\
         plain      other -      -             -\n\
         test_1     test  -      1             1\n\
         test_alias test  *      ir            sr1,sr2\n"
    );
    // Adding the alias again replaces its options, as ES replaces an alias's metadata.
    f.engine.update_aliases(&[AliasAction::Add { alias: "test_1".into(), index: "test".into() }]).unwrap();
    assert_eq!(json_of(&f, "GET", "/test/_alias/test_1", ""), json!({"test": {"aliases": {"test_1": {}}}}));
}

#[test]
fn filters_and_routing_are_checked_when_the_alias_is_made() {
    let f = fixture("alias-filter-checks", None);
    let e = add(&f, "bad", "test", filtered(json!({"nope": {}}))).unwrap_err();
    assert_eq!(
        (e.status, e.kind(), e.reason()),
        (400, "illegal_argument_exception", "failed to parse filter for alias [bad]")
    );
    assert_eq!(e.to_json()["error"]["caused_by"]["type"], "parsing_exception");
    assert_eq!(e.to_json()["error"]["root_cause"][0]["reason"], "failed to parse filter for alias [bad]");
    let e =
        add(&f, "bad", "test", AliasOptions { index_routing: Some("1,2".into()), ..Default::default() }).unwrap_err();
    assert_eq!(e.reason(), "alias [bad] has several index routing values associated with it");
    assert!(f.engine.aliases().unwrap().is_empty());
}

#[test]
fn create_index_bodies_define_filtered_aliases() {
    let body = json!({
        "mappings": {"_doc": {"properties": {"user": {"type": "keyword"}, "n": {"type": "integer"}}}},
        "aliases": {"kimchy": {"filter": {"term": {"user": "kimchy"}}, "routing": "7"}, "every": {}}
    });
    let f = fixture("alias-filter-create", Some(body));
    assert_eq!(ids(&f, "kimchy"), ["1", "2"]);
    assert_eq!(ids(&f, "every"), ["1", "2", "3", "4"]);
    assert_eq!(
        json_of(&f, "GET", "/test/_alias", ""),
        json!({"test": {"aliases": {
            "every": {},
            "kimchy": {"filter": {"term": {"user": "kimchy"}}, "index_routing": "7", "search_routing": "7"}}}})
    );
    // `is_write_index` is kept and printed last; a second write index is ES's error.
    let body = json!({"aliases": {"logs": {"is_write_index": true, "routing": "2"}}});
    let e = Engine::open_or_create(&common::temp_file("alias-filter-write-index")).unwrap();
    let opts = LoadOptions { create_body: Some(body.clone()), ..Default::default() };
    e.load("a", &b"{\"index\":{}}\n{\"a\": 1}\n"[..], &opts, &mut |_, _| {}).unwrap();
    let entries = e.alias_entries().unwrap();
    assert_eq!(
        entries[0].1.options.to_json().to_string(),
        r#"{"index_routing":"2","search_routing":"2","is_write_index":true}"#
    );
    let err = e.load("b", &b"{\"index\":{}}\n{\"a\": 1}\n"[..], &opts, &mut |_, _| {}).unwrap_err();
    assert_eq!(
        (err.status, err.kind(), err.reason()),
        (500, "illegal_state_exception", "alias [logs] has more than one write index [a,b]")
    );
    let bad = json!({"aliases": {"x": {"filter": {"nope": {}}}}});
    let e = Engine::open_or_create(&common::temp_file("alias-filter-create-bad")).unwrap();
    let opts = LoadOptions { create_body: Some(bad), ..Default::default() };
    let err = e.load("test", &b"{\"index\":{}}\n{\"a\": 1}\n"[..], &opts, &mut |_, _| {}).unwrap_err();
    assert_eq!(err.reason(), "failed to parse filter for alias [x]");
}

#[test]
fn the_command_line_adds_a_filtered_alias() {
    let f = fixture("alias-filter-cli", None);
    let file = f.file.to_str().unwrap().to_string();
    drop(f);
    let out = common::cli::run(&[
        "alias",
        "--file",
        &file,
        "add",
        "kimchy",
        "test",
        "--filter",
        r#"{"term": {"user": "kimchy"}}"#,
        "--routing",
        "1",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let f2 = Engine::open(std::path::Path::new(&file)).unwrap();
    let entries = f2.alias_entries().unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(
        entries[0].1.options.to_json(),
        json!({"filter": {"term": {"user": "kimchy"}}, "index_routing": "1", "search_routing": "1"})
    );
    let out = common::cli::run(&["alias", "--file", &file, "add", "x", "test", "--filter", "{nope"]);
    assert!(!out.status.success());
}
