//! Field collapsing as ES 6.8 answers it: ES 6.8's REST tests
//! (`search/110_field_collapsing.yml`) translated, then the answers around them that the
//! YAML does not pin (the whole hit as ES prints it, the missing-value group, relevance
//! order, `post_filter`, the refusals of the field and of other options).

mod common;

use common::mapped_index::{index, mapped, Index};
use serde_json::{json, Value};

/// The YAML's setup: six documents in three groups of `numeric_group`.
fn numeric_groups(tag: &str) -> Index {
    let docs = [
        ("1", json!({"numeric_group": 1, "sort": 10})),
        ("2", json!({"numeric_group": 1, "sort": 6})),
        ("3", json!({"numeric_group": 1, "sort": 24})),
        ("4", json!({"numeric_group": 25, "sort": 10})),
        ("5", json!({"numeric_group": 25, "sort": 5})),
        ("6", json!({"numeric_group": 3, "sort": 36})),
    ];
    index(tag, mapped(json!({"numeric_group": {"type": "long"}, "sort": {"type": "long"}})), &docs)
}

fn hits(v: &Value) -> &Vec<Value> {
    v["hits"]["hits"].as_array().unwrap()
}

fn ids(v: &Value) -> Vec<&str> {
    hits(v).iter().map(|h| h["_id"].as_str().unwrap()).collect()
}

fn inner_ids<'a>(hit: &'a Value, name: &str) -> Vec<&'a str> {
    hit["inner_hits"][name]["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap()).collect()
}

#[test]
fn yaml_field_collapsing() {
    let ix = numeric_groups("collapse-yaml-basic");
    let v = ix.search(json!({"collapse": {"field": "numeric_group"}, "sort": [{"sort": "desc"}]}));
    assert_eq!(v["hits"]["total"], 6);
    assert_eq!(ids(&v), ["6", "3", "4"]);
    let fields: Vec<&Value> = hits(&v).iter().map(|h| &h["fields"]["numeric_group"]).collect();
    assert_eq!(fields, [&json!([3]), &json!([1]), &json!([25])]);
    let sorts: Vec<&Value> = hits(&v).iter().map(|h| &h["sort"]).collect();
    assert_eq!(sorts, [&json!([36]), &json!([24]), &json!([10])]);
    assert!(hits(&v).iter().all(|h| h.get("inner_hits").is_none() && h["_index"] == "test"));
    // The whole hit, in ES's member order.
    assert_eq!(
        hits(&v)[0],
        json!({"_index": "test", "_type": "_doc", "_id": "6", "_score": null,
               "_source": {"numeric_group": 3, "sort": 36},
               "fields": {"numeric_group": [3]}, "sort": [36]})
    );
    assert_eq!(v["hits"]["max_score"], Value::Null);
}

#[test]
fn yaml_field_collapsing_and_from() {
    let ix = numeric_groups("collapse-yaml-from");
    let v = ix.search(json!({"from": 2, "collapse": {"field": "numeric_group"}, "sort": [{"sort": "desc"}]}));
    assert_eq!(v["hits"]["total"], 6);
    assert_eq!(ids(&v), ["4"]);
    assert_eq!(hits(&v)[0]["fields"]["numeric_group"], json!([25]));
    assert_eq!(hits(&v)[0]["sort"], json!([10]));
}

fn check_sub_hits(v: &Value) {
    assert_eq!(v["hits"]["total"], 6);
    assert_eq!(ids(v), ["6", "3", "4"]);
    let h = hits(v);
    let totals: Vec<&Value> = h.iter().map(|x| &x["inner_hits"]["sub_hits"]["hits"]["total"]).collect();
    assert_eq!(totals, [&json!(1), &json!(3), &json!(2)]);
    assert_eq!(inner_ids(&h[0], "sub_hits"), ["6"]);
    assert_eq!(inner_ids(&h[1], "sub_hits"), ["2", "1"]);
    assert_eq!(inner_ids(&h[2], "sub_hits"), ["5", "4"]);
}

#[test]
fn yaml_field_collapsing_and_inner_hits() {
    let ix = numeric_groups("collapse-yaml-inner");
    let v = ix.search(json!({
        "collapse": {"field": "numeric_group", "inner_hits": {"name": "sub_hits", "size": 2, "sort": [{"sort": "asc"}]}},
        "sort": [{"sort": "desc"}]}));
    check_sub_hits(&v);
    // An inner hit is a search hit of the group's search, printed whole.
    assert_eq!(
        hits(&v)[2]["inner_hits"],
        json!({"sub_hits": {"hits": {"total": 2, "max_score": null, "hits": [
            {"_index": "test", "_type": "_doc", "_id": "5", "_score": null,
             "_source": {"numeric_group": 25, "sort": 5}, "sort": [5]},
            {"_index": "test", "_type": "_doc", "_id": "4", "_score": null,
             "_source": {"numeric_group": 25, "sort": 10}, "sort": [10]}]}}})
    );
    let v = ix.search(json!({
        "collapse": {"field": "numeric_group", "max_concurrent_group_searches": 10,
                     "inner_hits": {"name": "sub_hits", "size": 2, "sort": [{"sort": "asc"}]}},
        "sort": [{"sort": "desc"}]}));
    check_sub_hits(&v);
}

#[test]
fn yaml_refusals_of_scroll_search_after_and_rescore() {
    let ix = numeric_groups("collapse-yaml-refusals");
    let refusal = |path: &str, body: Value| {
        let (status, v) = ix.send("POST", path, body);
        (status, v["error"]["root_cause"][0]["type"].clone(), v["error"]["root_cause"][0]["reason"].clone())
    };
    assert_eq!(
        refusal("/test/_search?scroll=1s", json!({"collapse": {"field": "numeric_group"}})),
        (500, json!("search_context_exception"), json!("cannot use `collapse` in a scroll context"))
    );
    assert_eq!(
        refusal(
            "/test/_search",
            json!({"collapse": {"field": "numeric_group"}, "search_after": [6], "sort": [{"sort": "desc"}]})
        ),
        (500, json!("search_context_exception"), json!("cannot use `collapse` in conjunction with `search_after`"))
    );
    let (status, v) = ix.send(
        "POST",
        "/test/_search",
        json!({"collapse": {"field": "numeric_group"}, "rescore": {"window_size": 20, "query": {
            "rescore_query": {"match_all": {}}, "query_weight": 1, "rescore_query_weight": 2}}}),
    );
    assert_eq!(status, 500);
    assert_eq!(
        v["error"],
        json!({
            "root_cause": [{"type": "search_context_exception", "reason": "cannot use `collapse` in conjunction with `rescore`"}],
            "type": "search_phase_execution_exception", "reason": "all shards failed", "phase": "query", "grouped": true,
            "failed_shards": [{"shard": 0, "index": "test", "node": v["error"]["failed_shards"][0]["node"],
                "reason": {"type": "search_context_exception", "reason": "cannot use `collapse` in conjunction with `rescore`"}}]})
    );
}

#[test]
fn yaml_no_hits_and_inner_hits() {
    let ix = numeric_groups("collapse-yaml-size0");
    let v = ix.search(
        json!({"size": 0, "collapse": {"field": "numeric_group", "inner_hits": {"name": "sub_hits", "size": 1}},
                             "sort": [{"sort": "desc"}]}),
    );
    assert_eq!(v["hits"]["total"], 6);
    assert_eq!(hits(&v).len(), 0);
}

#[test]
fn yaml_field_collapsing_and_multiple_inner_hits() {
    let ix = numeric_groups("collapse-yaml-multi");
    let v = ix.search(json!({
        "collapse": {"field": "numeric_group", "inner_hits": [
            {"name": "sub_hits_asc", "size": 2, "sort": [{"sort": "asc"}]},
            {"name": "sub_hits_desc", "size": 1, "sort": [{"sort": "desc"}]}]},
        "sort": [{"sort": "desc"}]}));
    assert_eq!(ids(&v), ["6", "3", "4"]);
    let h = hits(&v);
    assert_eq!(inner_ids(&h[0], "sub_hits_asc"), ["6"]);
    assert_eq!(inner_ids(&h[0], "sub_hits_desc"), ["6"]);
    assert_eq!(inner_ids(&h[1], "sub_hits_asc"), ["2", "1"]);
    assert_eq!(inner_ids(&h[1], "sub_hits_desc"), ["3"]);
    assert_eq!(h[1]["inner_hits"]["sub_hits_desc"]["hits"]["total"], 3);
    assert_eq!(inner_ids(&h[2], "sub_hits_asc"), ["5", "4"]);
    assert_eq!(inner_ids(&h[2], "sub_hits_desc"), ["4"]);
    // ES keeps a hit's inner hits in a Java HashMap of two entries (a table of 4) and
    // prints them in its order: "sub_hits_asc" hashes to bucket 0, "sub_hits_desc" to 1;
    // "b" to 2 and "a" to 1.
    let names: Vec<&String> = h[1]["inner_hits"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["sub_hits_asc", "sub_hits_desc"]);
    let v = ix.search(json!({
        "collapse": {"field": "numeric_group", "inner_hits": [{"name": "b", "size": 1}, {"name": "a", "size": 1}]},
        "sort": [{"sort": "desc"}]}));
    let names: Vec<&String> = hits(&v)[0]["inner_hits"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["a", "b"]);
}

/// Keyword groups, one document without the field, text to score on.
fn keyword_groups(tag: &str) -> Index {
    let docs = [
        ("a1", json!({"g": "x", "n": 1, "t": "red fox"})),
        ("a2", json!({"g": "x", "n": 2, "t": "red red fox"})),
        ("b1", json!({"g": "y", "n": 3, "t": "fox"})),
        ("c1", json!({"n": 4, "t": "red"})),
        ("c2", json!({"n": 5, "t": "blue"})),
        ("m1", json!({"g": ["x", "y"], "n": 6, "t": "green"})),
    ];
    let props = json!({
        "g": {"type": "keyword"}, "n": {"type": "integer"}, "t": {"type": "text"},
        "nodv": {"type": "keyword", "doc_values": false}, "noidx": {"type": "keyword", "index": false},
        "when": {"type": "date"}, "ip": {"type": "ip"}, "alias_g": {"type": "alias", "path": "g"}
    });
    index(tag, mapped(props), &docs)
}

#[test]
fn relevance_order_keeps_each_groups_best_hit() {
    // The group without a value shows no value (as `docvalue_fields` shows none).
    let ix = keyword_groups("collapse-relevance");
    let query = json!({"match": {"t": "red"}});
    let plain = ix.search(json!({"query": query}));
    // The groups' best hits in the plain search's order: group x (a1, a2) and the group
    // without a value (c1).
    let mut heads: Vec<&str> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for id in ids(&plain) {
        let group = if id.starts_with('a') { "x" } else { "-" };
        if !seen.contains(&group) {
            seen.push(group);
            heads.push(id);
        }
    }
    let v = ix.search(json!({"query": query, "collapse": {"field": "g"}}));
    assert_eq!(v["hits"]["total"], 3);
    assert_eq!(ids(&v), heads);
    let scores: Vec<&Value> = hits(&v).iter().map(|h| &h["_score"]).collect();
    let plain_scores: Vec<&Value> =
        hits(&plain).iter().filter(|h| heads.contains(&h["_id"].as_str().unwrap())).map(|h| &h["_score"]).collect();
    assert_eq!(scores, plain_scores);
    assert_eq!(v["hits"]["max_score"], plain["hits"]["max_score"]);
    for h in hits(&v) {
        match h["_id"].as_str().unwrap() {
            "c1" => assert!(h.get("fields").is_none(), "{h}"),
            _ => assert_eq!(h["fields"], json!({"g": ["x"]})),
        }
    }
    // The field through an alias, with the alias's name in `fields`.
    let v = ix.search(json!({"query": query, "collapse": {"field": "alias_g"}}));
    assert_eq!(ids(&v), heads);
    assert!(hits(&v).iter().any(|h| h["fields"] == json!({"alias_g": ["x"]})));
}

#[test]
fn missing_values_form_one_group_and_expand_with_must_not_exists() {
    let ix = keyword_groups("collapse-missing");
    let v = ix.search(json!({
        "query": {"terms": {"n": [1, 2, 3, 4, 5]}},
        "collapse": {"field": "g", "inner_hits": {"name": "all", "sort": ["n"], "_source": false}},
        "sort": [{"n": "desc"}]}));
    assert_eq!(v["hits"]["total"], 5);
    assert_eq!(ids(&v), ["c2", "b1", "a2"]);
    assert_eq!(inner_ids(&hits(&v)[0], "all"), ["c1", "c2"]);
    assert_eq!(inner_ids(&hits(&v)[2], "all"), ["a1", "a2"]);
    assert!(hits(&v)[0]["inner_hits"]["all"]["hits"]["hits"][0].get("_source").is_none());
}

#[test]
fn inner_hits_keep_the_query_score_and_post_filter() {
    let ix = keyword_groups("collapse-inner-score");
    let v = ix.search(json!({
        "query": {"match": {"t": "red fox"}}, "post_filter": {"range": {"n": {"lte": 2}}},
        "collapse": {"field": "g", "inner_hits": {"name": "i"}}}));
    assert_eq!(ids(&v), ["a2"]);
    let inner = &hits(&v)[0]["inner_hits"]["i"]["hits"];
    assert_eq!(inner["total"], 2);
    let plain = ix.search(json!({"query": {"match": {"t": "red fox"}}, "post_filter": {"range": {"n": {"lte": 2}}}}));
    assert_eq!(inner["hits"][0]["_score"], plain["hits"]["hits"][0]["_score"]);
    assert_eq!(inner["max_score"], plain["hits"]["max_score"]);
    // Without a query of its own, a group's search is its filter: every score 0.
    let v = ix.search(json!({"post_filter": {"range": {"n": {"lte": 5}}},
                             "collapse": {"field": "g", "inner_hits": {"name": "i"}}, "sort": ["n"]}));
    assert_eq!(v["hits"]["hits"][0]["inner_hits"]["i"]["hits"]["hits"][0]["_score"], 0.0);
}

#[test]
fn a_multi_valued_document_fails_the_search() {
    let ix = keyword_groups("collapse-multi-valued");
    let (status, v) = ix.send("POST", "/test/_search", json!({"collapse": {"field": "g"}}));
    assert_eq!(status, 500, "{v}");
    assert_eq!(v["error"]["root_cause"][0]["type"], "illegal_state_exception");
    let reason = v["error"]["root_cause"][0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("failed to collapse ") && reason.ends_with(", the collapse field must be single valued")
    );
    assert_eq!(v["error"]["failed_shards"][0]["reason"]["reason"], "Failed to execute main query");
}

#[test]
fn fields_es_cannot_collapse_on() {
    let ix = keyword_groups("collapse-field-refusals");
    for (body, reason) in [
        (
            json!({"collapse": {"field": "t"}}),
            "unknown type for collapse field `t`, only keywords and numbers are accepted",
        ),
        (
            json!({"collapse": {"field": "when"}}),
            "unknown type for collapse field `when`, only keywords and numbers are accepted",
        ),
        (
            json!({"collapse": {"field": "ip"}}),
            "unknown type for collapse field `ip`, only keywords and numbers are accepted",
        ),
        (
            json!({"collapse": {"field": "_id"}}),
            "unknown type for collapse field `_id`, only keywords and numbers are accepted",
        ),
        (json!({"collapse": {"field": "nope"}}), "no mapping found for `nope` in order to collapse on"),
        (json!({"collapse": {"field": "nodv"}}), "cannot collapse on field `nodv` without `doc_values`"),
        (
            json!({"collapse": {"field": "noidx", "inner_hits": {"name": "i"}}}),
            "cannot expand `inner_hits` for collapse field `noidx`, only indexed field can retrieve `inner_hits`",
        ),
    ] {
        assert_eq!(ix.refused(body), (500, "search_context_exception".into(), reason.into()));
    }
    // Not indexed is fine without inner hits.
    assert_eq!(ix.search(json!({"collapse": {"field": "noidx"}}))["hits"]["total"], 6);
}

#[test]
fn parse_errors() {
    let ix = keyword_groups("collapse-parse");
    assert_eq!(
        ix.refused(json!({"collapse": {"field": "g", "max_concurrent_group_searches": 0}})),
        (400, "parsing_exception".into(), "[collapse] failed to parse field [max_concurrent_group_searches]".into())
    );
    assert_eq!(
        ix.refused(json!({"collapse": {"field": "g", "inner_hits": {"name": "i", "collapse": {"field": "n"}}}})),
        (400, "parsing_exception".into(), "[inner_hits] unknown field [collapse], parser not found".into())
    );
    assert_eq!(
        ix.refused(json!({"collapse": {"field": "g", "size": 3}})),
        (400, "parsing_exception".into(), "[collapse] unknown field [size], parser not found".into())
    );
}

#[test]
fn many_groups_page_as_the_best_hit_of_each_group() {
    // More groups than the collector keeps before trimming: the page must still be the
    // groups' best hits in order, as computed here by brute force.
    let docs: Vec<(String, Value)> =
        (0..900).map(|i| (format!("d{i}"), json!({"numeric_group": (i * 7) % 301, "sort": (i * 13) % 997}))).collect();
    let refs: Vec<(&str, Value)> = docs.iter().map(|(id, d)| (id.as_str(), d.clone())).collect();
    let ix =
        index("collapse-many", mapped(json!({"numeric_group": {"type": "long"}, "sort": {"type": "long"}})), &refs);
    let mut best: std::collections::BTreeMap<i64, (i64, &str)> = std::collections::BTreeMap::new();
    for (id, d) in &docs {
        let (g, s) = (d["numeric_group"].as_i64().unwrap(), d["sort"].as_i64().unwrap());
        let e = best.entry(g).or_insert((s, id.as_str()));
        if s > e.0 {
            *e = (s, id.as_str());
        }
    }
    let mut heads: Vec<(i64, &str)> = best.values().copied().collect();
    heads.sort_by_key(|h| std::cmp::Reverse(h.0));
    for (from, size) in [(0, 10), (40, 25), (290, 20)] {
        let v = ix.search(
            json!({"from": from, "size": size, "collapse": {"field": "numeric_group"}, "sort": [{"sort": "desc"}]}),
        );
        assert_eq!(v["hits"]["total"], 900);
        let want: Vec<&str> = heads.iter().skip(from).take(size).map(|h| h.1).collect();
        assert_eq!(ids(&v), want, "from {from}");
    }
}
