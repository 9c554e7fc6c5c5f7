//! `nested` objects as ES 6.8 indexes and answers them: each object its own hidden
//! document stored before its parent, top-level answers counting parents only, and the
//! `nested` query joining nested matches to their parents.

mod common;

use common::mapped_index::{index, mapped, Index};
use common::rng::Rng;
use serde_json::{json, Value};

/// The blog of ES's `nested` datatype page: the users of a group as nested objects.
fn groups() -> Index {
    index(
        "nested_groups",
        mapped(json!({
            "group": {"type": "keyword"},
            "user": {"type": "nested", "properties": {
                "first": {"type": "keyword"}, "last": {"type": "keyword"}, "age": {"type": "integer"}}},
            "tag": {"type": "keyword"},
            "meta": {"properties": {"k": {"type": "keyword"}}}
        })),
        &[
            (
                "1",
                json!({"group": "fans", "user": [{"first": "John", "last": "Smith", "age": 30}, {"first": "Alice", "last": "White", "age": 25}], "tag": "a"}),
            ),
            ("2", json!({"group": "crew", "user": {"first": "Alice", "last": "Smith", "age": 40}, "tag": "b"})),
            ("3", json!({"group": "none", "tag": "a"})),
            ("4", json!({"group": "empty", "user": []})),
        ],
    )
}

/// The `_id`s a scroll returns, page after page.
fn scrolled(ix: &Index, body: Value) -> Vec<String> {
    let (_, mut page) = ix.send("POST", "/test/_search?scroll=1m", body);
    let mut ids = Vec::new();
    loop {
        let hits = page["hits"]["hits"].as_array().unwrap().clone();
        if hits.is_empty() {
            return ids;
        }
        ids.extend(hits.iter().map(|h| h["_id"].as_str().unwrap().to_string()));
        let id = page["_scroll_id"].as_str().unwrap().to_string();
        page = ix.send("POST", "/_search/scroll", json!({"scroll": "1m", "scroll_id": id})).1;
    }
}

fn nested(path: &str, query: Value) -> Value {
    json!({"nested": {"path": path, "query": query}})
}

#[test]
fn the_mapping_prints_nested_objects_as_es() {
    let ix = groups();
    assert_eq!(ix.report.docs, 4);
    assert_eq!(
        ix.mapping()["properties"]["user"],
        json!({"type": "nested", "properties": {
            "age": {"type": "integer"}, "first": {"type": "keyword"}, "last": {"type": "keyword"}}})
    );
}

#[test]
fn top_level_answers_count_parents_only() {
    let ix = groups();
    let v = ix.search(json!({"query": {"match_all": {}}, "sort": ["_id"]}));
    assert_eq!(v["hits"]["total"], 4);
    let ids: Vec<&str> = v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["1", "2", "3", "4"]);
    let (_, c) = ix.send("GET", "/test/_count", Value::Null);
    assert_eq!(c["count"], 4);
    // Purely negative queries complete against every document: still parents only.
    let (_, c) = ix.send("POST", "/test/_count", json!({"query": {"bool": {"must_not": {"term": {"tag": "a"}}}}}));
    assert_eq!(c["count"], 2);
    // A field under the nested path matches nothing without a `nested` query.
    assert_eq!(ix.ids(json!({"term": {"user.first": "Alice"}})), Vec::<String>::new());
    assert_eq!(ix.ids(json!({"exists": {"field": "user.age"}})), Vec::<String>::new());
    // Aggregations count parents.
    let v = ix.search(json!({"size": 0, "aggs": {
        "tags": {"terms": {"field": "tag"}}, "all": {"global": {}}, "missing": {"missing": {"field": "tag"}}}}));
    assert_eq!(
        v["aggregations"]["tags"]["buckets"],
        json!([{"key": "a", "doc_count": 2}, {"key": "b", "doc_count": 1}])
    );
    assert_eq!(v["aggregations"]["all"]["doc_count"], 4);
    assert_eq!(v["aggregations"]["missing"]["doc_count"], 1);
    // Lookups by `_id`.
    let (status, g) = ix.send("GET", "/test/_doc/1", Value::Null);
    assert_eq!(status, 200);
    assert_eq!(g["_source"]["user"][1]["first"], "Alice");
    let (_, m) = ix.send("POST", "/test/_mget", json!({"ids": ["2", "9"]}));
    assert_eq!(m["docs"][0]["found"], true);
    assert_eq!(m["docs"][1]["found"], false);
    // Scroll pages and slices see parents only.
    assert_eq!(scrolled(&ix, json!({"size": 1})), ["1", "2", "3", "4"]);
    let mut sliced: Vec<String> =
        (0..2).flat_map(|id| scrolled(&ix, json!({"size": 1, "slice": {"id": id, "max": 2}}))).collect();
    sliced.sort();
    assert_eq!(sliced, ["1", "2", "3", "4"]);
}

#[test]
fn the_nested_query_matches_within_one_object() {
    let ix = groups();
    let both = |first: &str, last: &str| {
        nested("user", json!({"bool": {"must": [{"term": {"user.first": first}}, {"term": {"user.last": last}}]}}))
    };
    assert_eq!(ix.ids(both("Alice", "Smith")), vec!["2"]);
    assert_eq!(ix.ids(both("Alice", "White")), vec!["1"]);
    assert_eq!(ix.ids(both("John", "White")), Vec::<String>::new());
    assert_eq!(ix.ids(nested("user", json!({"match_all": {}}))), vec!["1", "2"]);
    assert_eq!(ix.ids(nested("user", json!({"range": {"user.age": {"gte": 30}}}))), vec!["1", "2"]);
    // Purely negative inside: the nested documents of the path only.
    assert_eq!(ix.ids(nested("user", json!({"bool": {"must_not": {"term": {"user.first": "John"}}}}))), vec!["1", "2"]);
    // In filter context, combined with root fields.
    let q =
        json!({"bool": {"filter": [nested("user", json!({"term": {"user.first": "Alice"}})), {"term": {"tag": "a"}}]}});
    assert_eq!(ix.ids(q), vec!["1"]);
    let (_, c) =
        ix.send("POST", "/test/_count", json!({"query": nested("user", json!({"term": {"user.last": "Smith"}}))}));
    assert_eq!(c["count"], 2);
}

#[test]
fn score_modes_combine_the_matching_nested_documents() {
    let ix = groups();
    let score = |mode: &str, q: Value| {
        let v = ix.search(json!({"query": {"nested": {"path": "user", "score_mode": mode, "query": q}}, "sort": ["_id"], "track_scores": true}));
        v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_score"].as_f64().unwrap() as f32).collect::<Vec<_>>()
    };
    // A keyword term scores its idf; the statistics count nested documents: three users
    // have `last`, two of them "Smith".
    // Lucene computes idf in doubles, then a float; a parent's score in doubles over
    // the float scores of its nested documents, then a float.
    let idf = |n: f64, df: f64| (1.0 + (n - df + 0.5) / (df + 0.5)).ln() as f32;
    let smith = idf(3.0, 2.0);
    let john = idf(3.0, 1.0);
    let either = json!({"bool": {"should": [{"term": {"user.last": "Smith"}}, {"term": {"user.first": "John"}}]}});
    // Document 1: John Smith scores smith + john, Alice White does not match; 2: smith.
    let one = smith + john;
    assert_eq!(score("avg", either.clone()), vec![one, smith]);
    assert_eq!(score("max", either.clone()), vec![one, smith]);
    let any = json!({"bool": {"should": [{"term": {"user.last": "Smith"}}, {"term": {"user.last": "White"}}]}});
    let white = idf(3.0, 1.0);
    let (s, w) = (f64::from(smith), f64::from(white));
    assert_eq!(score("sum", any.clone()), vec![(s + w) as f32, smith]);
    assert_eq!(score("min", any.clone()), vec![smith.min(white), smith]);
    assert_eq!(score("avg", any.clone()), vec![((s + w) / 2.0) as f32, smith]);
    assert_eq!(score("none", any), vec![0.0, 0.0]);
}

#[test]
fn a_nested_hit_explains_its_block_as_lucene() {
    let ix = groups();
    let v = ix.search(json!({"query": nested("user", json!({"term": {"user.last": "Smith"}})), "explain": true, "sort": ["_id"], "track_scores": true}));
    let hits = v["hits"]["hits"].as_array().unwrap();
    // Document "1" is stored as its users in reverse order (0, 1), then itself (2), as
    // ES 6.8 orders a block; "2" as its user (3) and itself (4).
    let descriptions: Vec<&str> = hits.iter().map(|h| h["_explanation"]["description"].as_str().unwrap()).collect();
    assert_eq!(
        descriptions,
        [
            "Score based on 1 child docs in range from 0 to 1, best match:",
            "Score based on 1 child docs in range from 3 to 3, best match:"
        ]
    );
    assert_eq!(hits[0]["_explanation"]["value"], hits[0]["_score"]);
    assert_eq!(hits[0]["_explanation"]["details"][0]["value"], hits[0]["_score"]);
}

#[test]
fn include_in_parent_and_root_index_the_fields_there_too() {
    let ix = index(
        "nested_include",
        mapped(json!({
            "a": {"type": "nested", "include_in_parent": true, "properties": {
                "x": {"type": "keyword"},
                "b": {"type": "nested", "include_in_root": true, "properties": {"y": {"type": "keyword"}}}}},
            "c": {"type": "nested", "properties": {"z": {"type": "keyword"}}}
        })),
        &[
            ("1", json!({"a": [{"x": "one", "b": [{"y": "deep"}, {"y": "er"}]}, {"x": "two"}], "c": {"z": "zed"}})),
            ("2", json!({"a": {"x": "three", "b": {"y": "other"}}})),
        ],
    );
    assert_eq!(ix.ids(json!({"term": {"a.x": "two"}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"term": {"a.b.y": "deep"}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"term": {"c.z": "zed"}})), Vec::<String>::new());
    // Both cross-object fields are in the parent: the flattened match ES gives too.
    assert_eq!(ix.ids(json!({"bool": {"must": [{"term": {"a.x": "two"}}, {"term": {"a.b.y": "deep"}}]}})), vec!["1"]);
    // Nested in nested: the inner query's scope is the outer path's documents.
    let deep = json!({"nested": {"path": "a", "query": {"bool": {"must": [
        {"term": {"a.x": "one"}},
        {"nested": {"path": "a.b", "query": {"term": {"a.b.y": "er"}}}}]}}}});
    assert_eq!(ix.ids(deep), vec!["1"]);
    let wrong = json!({"nested": {"path": "a", "query": {"bool": {"must": [
        {"term": {"a.x": "two"}},
        {"nested": {"path": "a.b", "query": {"term": {"a.b.y": "er"}}}}]}}}});
    assert_eq!(ix.ids(wrong), Vec::<String>::new());
    // A deeper path straight from the top joins onto the root documents.
    assert_eq!(ix.ids(nested("a.b", json!({"term": {"a.b.y": "other"}}))), vec!["2"]);
}

#[test]
fn a_replaced_document_takes_its_nested_documents_along() {
    let ix = index(
        "nested_replaced",
        mapped(json!({"n": {"type": "nested", "properties": {"k": {"type": "keyword"}}}})),
        &[
            ("1", json!({"n": [{"k": "old"}, {"k": "both"}]})),
            ("2", json!({"n": {"k": "kept"}})),
            ("1", json!({"n": {"k": "new"}})),
        ],
    );
    assert_eq!(ix.report.docs, 2);
    assert_eq!(ix.ids(nested("n", json!({"term": {"n.k": "old"}}))), Vec::<String>::new());
    assert_eq!(ix.ids(nested("n", json!({"term": {"n.k": "both"}}))), Vec::<String>::new());
    assert_eq!(ix.ids(nested("n", json!({"term": {"n.k": "new"}}))), vec!["1"]);
    assert_eq!(ix.ids(nested("n", json!({"term": {"n.k": "kept"}}))), vec!["2"]);
}

#[test]
fn nested_query_errors_are_es_errors() {
    let ix = groups();
    assert_eq!(
        ix.refused(json!({"query": nested("meta", json!({"match_all": {}}))})),
        (
            400,
            "query_shard_exception".into(),
            "failed to create query: [nested] nested object under path [meta] is not of nested type".into()
        )
    );
    // A leaf field is no object.
    for path in ["nope", "group"] {
        assert_eq!(
            ix.refused(json!({"query": nested(path, json!({"match_all": {}}))})),
            (
                400,
                "query_shard_exception".into(),
                format!("failed to create query: [nested] failed to find nested object under path [{path}]")
            )
        );
    }
    let v =
        ix.search(json!({"query": {"nested": {"path": "nope", "ignore_unmapped": true, "query": {"match_all": {}}}}}));
    assert_eq!(v["hits"]["total"], 0);
    assert_eq!(
        ix.refused(json!({"query": {"nested": {"query": {"match_all": {}}}}})),
        (400, "illegal_argument_exception".into(), "[nested] requires 'path' field".into())
    );
    assert_eq!(
        ix.refused(json!({"query": {"nested": {"path": "user"}}})),
        (400, "illegal_argument_exception".into(), "[nested] requires 'query' field".into())
    );
    assert_eq!(
        ix.refused(json!({"query": {"nested": {"path": "user", "score_mode": "median", "query": {"match_all": {}}}}})),
        (400, "illegal_argument_exception".into(), "No score mode for child query [median] found".into())
    );
    assert_eq!(
        ix.refused(json!({"query": {"nested": {"path": "user", "foo": 1, "query": {"match_all": {}}}}})),
        (400, "parsing_exception".into(), "[nested] query does not support [foo]".into())
    );
}

#[test]
fn nested_and_reverse_nested_aggregations_move_between_scopes() {
    let ix = groups();
    let v = ix.search(json!({"size": 0, "aggs": {"users": {"nested": {"path": "user"}, "aggs": {
        "first": {"terms": {"field": "user.first"}, "aggs": {"back": {"reverse_nested": {}, "aggs": {
            "tags": {"terms": {"field": "tag"}}}}}},
        "age": {"avg": {"field": "user.age"}}}}}}));
    assert_eq!(
        v["aggregations"],
        json!({"users": {"doc_count": 3,
            "first": {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0, "buckets": [
                {"key": "Alice", "doc_count": 2, "back": {"doc_count": 2, "tags": {
                    "doc_count_error_upper_bound": 0, "sum_other_doc_count": 0,
                    "buckets": [{"key": "a", "doc_count": 1}, {"key": "b", "doc_count": 1}]}}},
                {"key": "John", "doc_count": 1, "back": {"doc_count": 1, "tags": {
                    "doc_count_error_upper_bound": 0, "sum_other_doc_count": 0,
                    "buckets": [{"key": "a", "doc_count": 1}]}}}]},
            "age": {"value": 95.0 / 3.0}}})
    );
    // Over the query's matches only, with typed keys.
    let (_, v) = ix.send(
        "POST",
        "/test/_search?typed_keys",
        json!({"size": 0, "query": {"term": {"tag": "a"}}, "aggs": {"users": {"nested": {"path": "user"}, "aggs": {
            "back": {"reverse_nested": {}}}}}}),
    );
    assert_eq!(v["aggregations"], json!({"nested#users": {"doc_count": 2, "reverse_nested#back": {"doc_count": 1}}}));
    // A path that names no object aggregates nothing, as ES's unmapped aggregator.
    let v = ix.search(json!({"size": 0, "aggs": {"n": {"nested": {"path": "group"}}}}));
    assert_eq!(v["aggregations"]["n"], json!({"doc_count": 0}));
    assert_eq!(
        ix.refused(json!({"size": 0, "aggs": {"n": {"nested": {"path": "meta"}}}})),
        (500, "aggregation_execution_exception".into(), "[nested] nested path [meta] is not nested".into())
    );
    assert_eq!(
        ix.refused(json!({"size": 0, "aggs": {"n": {"nested": {}}}})),
        (400, "parsing_exception".into(), "Missing [path] field for nested aggregation [n]".into())
    );
    assert_eq!(
        ix.refused(json!({"size": 0, "aggs": {"r": {"reverse_nested": {}}}})),
        (
            400,
            "search_parse_exception".into(),
            "Reverse nested aggregation [r] can only be used inside a [nested] aggregation".into()
        )
    );
}

#[test]
fn nested_aggregations_follow_nested_in_nested_blocks() {
    let ix = index(
        "nested_agg_deep",
        mapped(json!({"a": {"type": "nested", "properties": {
            "x": {"type": "keyword"},
            "b": {"type": "nested", "properties": {"y": {"type": "keyword"}}}}}})),
        &[
            ("1", json!({"a": [{"x": "p", "b": [{"y": "u"}, {"y": "v"}]}, {"x": "q", "b": {"y": "u"}}]})),
            ("2", json!({"a": {"x": "p"}})),
        ],
    );
    let v = ix.search(json!({"size": 0, "aggs": {"a": {"nested": {"path": "a"}, "aggs": {
        "x": {"terms": {"field": "a.x"}, "aggs": {"b": {"nested": {"path": "a.b"}, "aggs": {
            "y": {"terms": {"field": "a.b.y"}},
            "up": {"reverse_nested": {"path": "a"}},
            "root": {"reverse_nested": {}}}}}}}}}}));
    let x = &v["aggregations"]["a"]["x"]["buckets"];
    assert_eq!(v["aggregations"]["a"]["doc_count"], 3);
    assert_eq!(x[0]["key"], "p");
    assert_eq!(x[0]["doc_count"], 2);
    assert_eq!(x[0]["b"]["doc_count"], 2);
    assert_eq!(x[0]["b"]["up"]["doc_count"], 1);
    assert_eq!(x[0]["b"]["root"]["doc_count"], 1);
    assert_eq!(x[0]["b"]["y"]["buckets"], json!([{"key": "u", "doc_count": 1}, {"key": "v", "doc_count": 1}]));
    assert_eq!(x[1]["key"], "q");
    assert_eq!(x[1]["b"]["doc_count"], 1);
    // Straight from the top, a deeper path takes every such document of each block.
    let v = ix.search(json!({"size": 0, "aggs": {"b": {"nested": {"path": "a.b"}}}}));
    assert_eq!(v["aggregations"]["b"]["doc_count"], 3);
}

#[test]
fn inner_hits_show_the_matching_nested_objects() {
    let ix = groups();
    let v = ix.search(json!({"query": {"nested": {"path": "user", "query": {"term": {"user.first": "Alice"}},
        "inner_hits": {}}}, "sort": ["_id"]}));
    // A float score as the answer prints it.
    let idf: Value =
        serde_json::from_str(&((1.0f64 + (3.0 - 2.0 + 0.5) / (2.0 + 0.5)).ln() as f32).to_string()).unwrap();
    assert_eq!(
        v["hits"]["hits"][0]["inner_hits"],
        json!({"user": {"hits": {"total": 1, "max_score": idf, "hits": [{
            "_index": "test", "_type": "_doc", "_id": "1",
            "_nested": {"field": "user", "offset": 1},
            "_score": idf,
            "_source": {"first": "Alice", "last": "White", "age": 25}}]}}})
    );
    assert_eq!(
        v["hits"]["hits"][1]["inner_hits"]["user"]["hits"]["hits"][0]["_nested"],
        json!({"field": "user", "offset": 0})
    );
    // Named, windowed, sorted, filtered, with doc values.
    let v = ix.search(json!({"query": {"nested": {"path": "user", "query": {"match_all": {}},
        "inner_hits": {"name": "people", "size": 1, "from": 1, "sort": [{"user.age": "desc"}],
            "_source": ["first"], "docvalue_fields": ["user.age"]}}}, "sort": ["_id"]}));
    assert_eq!(
        v["hits"]["hits"][0]["inner_hits"],
        json!({"people": {"hits": {"total": 2, "max_score": null, "hits": [{
            "_index": "test", "_type": "_doc", "_id": "1",
            "_nested": {"field": "user", "offset": 1},
            "_score": null,
            "_source": {"first": "Alice"},
            "fields": {"user.age": [25]},
            "sort": [25]}]}}})
    );
    let (status, _, reason) = ix.refused(json!({"query": {"nested": {"path": "user", "query": {"match_all": {}},
        "inner_hits": {"size": 101}}}}));
    assert_eq!(status, 400);
    assert_eq!(reason, "Inner result window is too large, the inner hit definition's [user]'s from + size must be less than or equal to: [100] but was [101]. This limit can be set by changing the [index.max_inner_result_window] index level setting.");
    assert_eq!(
        ix.refused(json!({"query": {"bool": {"should": [
            {"nested": {"path": "user", "query": {"match_all": {}}, "inner_hits": {}}},
            {"nested": {"path": "user", "query": {"match_all": {}}, "inner_hits": {}}}]}}})),
        (400, "illegal_argument_exception".into(), "[inner_hits] already contains an entry for key [user]".into())
    );
}

#[test]
fn inner_hits_of_nested_in_nested_name_each_level() {
    let ix = index(
        "nested_inner_deep",
        mapped(json!({"a": {"type": "nested", "properties": {
            "x": {"type": "keyword"},
            "b": {"type": "nested", "properties": {"y": {"type": "keyword"}}}}}})),
        &[("1", json!({"a": [{"x": "p", "b": [{"y": "u"}, {"y": "v"}]}, {"x": "q", "b": {"y": "v"}}]}))],
    );
    let v = ix.search(json!({"query": {"nested": {"path": "a.b", "query": {"term": {"a.b.y": "v"}},
        "inner_hits": {"_source": false, "explain": true}}}}));
    let hits = &v["hits"]["hits"][0]["inner_hits"]["a.b"]["hits"];
    // The block of the root holds no `a.b` object directly under it: ES looks for them
    // between the last `a` object and the root, and finds none.
    assert_eq!(hits["total"], 0);
    let v = ix.search(json!({"query": {"nested": {"path": "a", "query": {"nested": {"path": "a.b",
        "query": {"term": {"a.b.y": "v"}}}}, "inner_hits": {"_source": false}}}}));
    let hits = &v["hits"]["hits"][0]["inner_hits"]["a"]["hits"];
    assert_eq!(hits["total"], 2);
    // Equal scores: the earlier document first, and a block holds its objects in
    // reverse order of the source.
    assert_eq!(hits["hits"][0]["_nested"], json!({"field": "a", "offset": 1}));
    assert_eq!(hits["hits"][1]["_nested"], json!({"field": "a", "offset": 0}));
    // Without `inner_hits` on the outer query, ES does not look for those inside it.
    let v = ix.search(json!({"query": {"nested": {"path": "a", "query": {"nested": {"path": "a.b",
        "query": {"term": {"a.b.y": "v"}}, "inner_hits": {}}}}}}));
    assert_eq!(v["hits"]["hits"][0].get("inner_hits"), None);
    // With it, each hit of the outer definition shows the inner one's hits of its own block.
    let v = ix.search(json!({"query": {"nested": {"path": "a", "query": {"nested": {"path": "a.b",
        "query": {"term": {"a.b.y": "v"}}, "inner_hits": {"name": "bs"}}}, "inner_hits": {"_source": ["x"]}}}}));
    // Three `a.b` documents, two with "v": a keyword term (no norms) scores its idf.
    let idf = (1.0f64 + (3.0 - 2.0 + 0.5) / (2.0 + 0.5)).ln() as f32;
    let score: Value = serde_json::from_str(&idf.to_string()).unwrap();
    let inner = |a: u64, b: u64| {
        json!({"bs": {"hits": {"total": 1, "max_score": score, "hits": [{
            "_index": "test", "_type": "_doc", "_id": "1",
            "_nested": {"field": "a", "offset": a, "_nested": {"field": "b", "offset": b}},
            "_score": score, "_source": {"y": "v"}}]}}})
    };
    assert_eq!(
        v["hits"]["hits"][0]["inner_hits"]["a"]["hits"]["hits"],
        json!([
            {"_index": "test", "_type": "_doc", "_id": "1", "_nested": {"field": "a", "offset": 1},
             "_score": score, "_source": {"x": "q"}, "inner_hits": inner(1, 0)},
            {"_index": "test", "_type": "_doc", "_id": "1", "_nested": {"field": "a", "offset": 0},
             "_score": score, "_source": {"x": "p"}, "inner_hits": inner(0, 1)}
        ])
    );
    // Names are unique within one level only.
    let v = ix.search(json!({"query": {"nested": {"path": "a", "query": {"nested": {"path": "a.b",
        "query": {"match_all": {}}, "inner_hits": {"name": "a"}}}, "inner_hits": {}}}}));
    assert_eq!(v["hits"]["hits"][0]["inner_hits"]["a"]["hits"]["hits"][0]["inner_hits"]["a"]["hits"]["total"], 1);
}

#[test]
fn inner_hits_highlight_each_nested_object_alone() {
    let ix = index(
        "nested_inner_highlight",
        mapped(json!({"title": {"type": "text"}, "comments": {"type": "nested", "properties": {
            "message": {"type": "text"}, "author": {"type": "keyword"}}}})),
        &[(
            "1",
            json!({"title": "quick notes", "comments": [
                {"message": "a quick brown fox", "author": "ann"},
                {"message": "slow and steady", "author": "bob"},
                {"message": "quick quick", "author": "cy"}]}),
        )],
    );
    let v = ix.search(json!({"query": {"nested": {"path": "comments",
        "query": {"match": {"comments.message": "quick"}},
        "inner_hits": {"_source": false, "highlight": {"fields": {"comments.message": {}, "title": {}}}}}}}));
    let hits = v["hits"]["hits"][0]["inner_hits"]["comments"]["hits"]["hits"].as_array().unwrap().clone();
    let shown: Vec<(Value, Value)> =
        hits.iter().map(|h| (h["_nested"]["offset"].clone(), h["highlight"].clone())).collect();
    // "quick quick" is shorter and holds the term twice: it ranks first. Only the nested
    // object's own text is highlighted; the root's title is not part of it.
    assert_eq!(
        shown,
        vec![
            (json!(2), json!({"comments.message": ["<em>quick</em> <em>quick</em>"]})),
            (json!(0), json!({"comments.message": ["a <em>quick</em> brown fox"]}))
        ]
    );
    // A `highlight_query` of the inner definition's own, and ES's errors for a bad one.
    let v = ix.search(json!({"query": {"nested": {"path": "comments", "query": {"match_all": {}},
        "inner_hits": {"_source": false, "from": 1, "size": 1, "sort": ["comments.author"],
            "highlight": {"fields": {"comments.message": {
            "highlight_query": {"match": {"comments.message": "steady"}}}}}}}}}));
    let hit = &v["hits"]["hits"][0]["inner_hits"]["comments"]["hits"]["hits"][0];
    assert_eq!(hit["_nested"]["offset"], 1);
    assert_eq!(hit["highlight"], json!({"comments.message": ["slow and <em>steady</em>"]}));
    let (status, _, _) = ix.refused(json!({"query": {"nested": {"path": "comments", "query": {"match_all": {}},
        "inner_hits": {"highlight": {"fields": 7}}}}}));
    assert_eq!(status, 400);
}

#[test]
fn a_nested_sort_reads_the_values_of_the_documents_nested_objects() {
    let ix = groups();
    let ids_and_sort = |sort: Value| {
        let v = ix.search(json!({"query": {"match_all": {}}, "sort": [sort, "_id"]}));
        v["hits"]["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h["_id"].as_str().unwrap().to_string(), h["sort"][0].clone()))
            .collect::<Vec<_>>()
    };
    let pairs = |p: &[(&str, Value)]| p.iter().map(|(i, v)| (i.to_string(), v.clone())).collect::<Vec<_>>();
    // Ascending takes each document's least age, descending its greatest.
    assert_eq!(
        ids_and_sort(json!({"user.age": {"order": "asc", "nested": {"path": "user"}}})),
        pairs(&[("1", json!(25)), ("2", json!(40)), ("3", json!(i64::MAX)), ("4", json!(i64::MAX))])
    );
    assert_eq!(
        ids_and_sort(json!({"user.age": {"order": "desc", "nested": {"path": "user"}}})),
        pairs(&[("2", json!(40)), ("1", json!(30)), ("3", json!(i64::MIN)), ("4", json!(i64::MIN))])
    );
    assert_eq!(
        ids_and_sort(json!({"user.age": {"order": "asc", "mode": "avg", "nested": {"path": "user"}}})),
        pairs(&[("1", json!(28)), ("2", json!(40)), ("3", json!(i64::MAX)), ("4", json!(i64::MAX))])
    );
    // Only the objects the filter matches count.
    assert_eq!(
        ids_and_sort(json!({"user.first": {"order": "desc", "nested": {"path": "user",
            "filter": {"term": {"user.last": "Smith"}}}}}))[..2],
        pairs(&[("1", json!("John")), ("2", json!("Alice"))])[..]
    );
    // 6.8's deprecated form, with its warning.
    let (status, v) = ix.send(
        "POST",
        "/test/_search",
        json!({"sort": [{"user.age": {"order": "desc", "nested_path": "user",
            "nested_filter": {"range": {"user.age": {"lt": 35}}}}}, "_id"]}),
    );
    assert_eq!(status, 200);
    let ids: Vec<&str> = v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["1", "2", "3", "4"]);
    assert_eq!(v["hits"]["hits"][0]["sort"][0], 30);
    assert_eq!(
        ix.refused(json!({"sort": [{"user.age": {"nested": {"path": "meta"}}}]})),
        (
            400,
            "query_shard_exception".into(),
            "failed to create query: [nested] nested object under path [meta] is not of nested type".into()
        )
    );
}

#[test]
fn top_hits_under_nested_are_hits_of_the_nested_documents() {
    let ix = groups();
    let body = json!({"size": 0, "aggs": {"to": {"nested": {"path": "user"}, "aggs": {"top": {"top_hits": {
        "sort": [{"user.age": "desc"}], "size": 2, "version": true, "seq_no_primary_term": true}}}}}});
    let v = ix.search(body);
    // Each nested hit: its root's `_id`, `_nested`, `_version` 1 and the root's `_seq_no`
    // (the load order: a block's objects come before their root), its object of the source.
    assert_eq!(
        v["aggregations"]["to"],
        json!({"doc_count": 3, "top": {"hits": {"total": 3, "max_score": null, "hits": [
            {"_index": "test", "_type": "_doc", "_id": "2", "_nested": {"field": "user", "offset": 0},
             "_version": 1, "_seq_no": 4, "_primary_term": 1, "_score": null,
             "_source": {"first": "Alice", "last": "Smith", "age": 40}, "sort": [40]},
            {"_index": "test", "_type": "_doc", "_id": "1", "_nested": {"field": "user", "offset": 0},
             "_version": 1, "_seq_no": 2, "_primary_term": 1, "_score": null,
             "_source": {"first": "John", "last": "Smith", "age": 30}, "sort": [30]}]}}})
    );
    // Scored, each nested document has its root's score (ES's nested aggregation hands
    // its sub-aggregations the query's scorer, which stands on the root).
    let body = json!({"query": {"term": {"group": "fans"}}, "aggs": {"to": {"nested": {"path": "user"},
        "aggs": {"top": {"top_hits": {"_source": false}}}}}});
    let v = ix.search(body);
    let root_score = v["hits"]["hits"][0]["_score"].clone();
    let top = &v["aggregations"]["to"]["top"]["hits"];
    assert_eq!(top["max_score"], root_score);
    let shown: Vec<Value> = top["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| json!([h["_nested"]["offset"], h["_score"], h.get("_source")]))
        .collect();
    // Equal scores keep the block's order: a root's objects in reverse.
    assert_eq!(shown, vec![json!([1, root_score, null]), json!([0, root_score, null])]);
}

/// Parents whose nested objects hold labels of varied lengths and repeats, so that the
/// nested documents' scores differ from block to block.
fn varied_labels(parents: u32) -> Index {
    let words = ["alpha", "beta", "gamma", "delta", "omega"];
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut next = move |n: u64| rng.below(n);
    let docs: Vec<(String, Value)> = (0..parents)
        .map(|i| {
            let items: Vec<Value> = (0..1 + next(12))
                .map(|_| {
                    let label: Vec<&str> = (0..1 + next(9)).map(|_| words[next(5) as usize]).collect();
                    let color = ["red", "blue"][next(2) as usize];
                    json!({"label": label.join(" "), "color": color})
                })
                .collect();
            let title: Vec<&str> = (0..1 + next(6)).map(|_| words[next(5) as usize]).collect();
            (format!("p{i}"), json!({"n": i, "title": title.join(" "), "items": items}))
        })
        .collect();
    let refs: Vec<(&str, Value)> = docs.iter().map(|(id, d)| (id.as_str(), d.clone())).collect();
    index(
        "nested_varied",
        mapped(json!({"n": {"type": "integer"}, "title": {"type": "text"}, "items": {"type": "nested", "properties": {
            "label": {"type": "text"}, "color": {"type": "keyword"}}}})),
        &refs,
    )
}

#[test]
fn a_short_page_of_nested_matches_equals_the_top_of_the_whole_ranking() {
    // A page of 10 lets the join skip blocks whose nested documents cannot beat the page's
    // worst hit, and a query over the parents' own fields skip blocks of postings (among
    // parents only); a page longer than the matches skips nothing. Both must rank alike.
    let ix = varied_labels(3000);
    let top_level = [
        json!({"match": {"title": "alpha gamma"}}),
        json!({"bool": {"must": [{"match": {"title": "beta"}}, {"match": {"title": "delta"}}]}}),
    ];
    let queries = [
        json!({"match": {"items.label": "alpha"}}),
        json!({"match": {"items.label": "omega delta"}}),
        json!({"bool": {"must": [{"match": {"items.label": "gamma"}}, {"term": {"items.color": "red"}}]}}),
        json!({"bool": {"must": [{"match": {"items.label": "beta"}}], "filter": [{"term": {"items.color": "blue"}}]}}),
    ];
    let page = |q: &Value, mode: &str, from: usize, size: usize| {
        let query = match mode {
            "" => q.clone(),
            _ => json!({"nested": {"path": "items", "score_mode": mode, "query": q}}),
        };
        let v = ix.search(json!({"query": query, "from": from, "size": size}));
        let hits: Vec<(String, f64)> = v["hits"]["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h["_id"].as_str().unwrap().to_string(), h["_score"].as_f64().unwrap()))
            .collect();
        (v["hits"]["total"].as_u64().unwrap(), hits)
    };
    let cases = top_level.iter().map(|q| (q, "")).chain(
        queries.iter().flat_map(|q| ["avg", "max", "min", "sum", "none"].into_iter().map(move |mode| (q, mode))),
    );
    for (q, mode) in cases {
        let (total, all) = page(q, mode, 0, 10_000);
        assert!(total > 100 && (total as usize) < 10_000, "{q} {mode}: {total}");
        for (from, size) in [(0, 10), (0, 1), (25, 5)] {
            let (t, short) = page(q, mode, from, size);
            assert_eq!(t, total, "{q} {mode}");
            assert_eq!(short, all[from..from + size].to_vec(), "{q} {mode} from {from} size {size}");
        }
    }
}
