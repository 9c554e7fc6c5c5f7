//! The query DSL forms of issue 3 through the engine API: match family, term-level
//! queries, compound queries and function_score, with their scores where ES defines them.

mod common;
use metagate::Engine;
use metagate::Family;
use serde_json::{json, Value};

fn engine() -> Engine {
    common::engine_with(
        "dsl",
        "tools",
        None,
        &[
            (
                "a1",
                json!({"item": {"name": "BLAST", "description": "Basic local alignment search tool", "status": "Active"},
                          "count": 7, "date": "2020-01-15T10:00:00Z", "score": 2.5}),
            ),
            (
                "a2",
                json!({"item": {"name": "Clustal Omega", "description": "Multiple sequence alignment of proteins", "status": "inactive"},
                          "count": 40, "date": "2021-06-01T00:00:00Z"}),
            ),
            (
                "a3",
                json!({"item": {"name": "ImageJ", "description": "Image processing in Java", "status": "Active"},
                          "count": 0, "date": "2019-03-02T12:00:00Z", "score": 0.5}),
            ),
            (
                "a4",
                json!({"item": {"name": "Protein sequence aligner", "description": "Aligns protein sequences", "status": "retired"}}),
            ),
        ],
        Some(Family::Registry),
    )
}

fn search(e: &Engine, query: Value) -> Value {
    let body = json!({"query": query, "size": 10}).to_string();
    common::search(e, "tools", &body).unwrap_or_else(|err| panic!("{body}: {:?}", err.to_json()))
}

fn ids(res: &Value) -> Vec<&str> {
    res["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap()).collect()
}

fn sorted_ids(e: &Engine, query: Value) -> Vec<String> {
    let res = search(e, query);
    let mut v: Vec<String> = ids(&res).into_iter().map(str::to_string).collect();
    v.sort();
    v
}

fn score_of(res: &Value, id: &str) -> f32 {
    res["hits"]["hits"].as_array().unwrap().iter().find(|h| h["_id"] == id).unwrap()["_score"].as_f64().unwrap() as f32
}

#[test]
fn match_family() {
    let e = engine();
    assert_eq!(sorted_ids(&e, json!({"match": {"item.name": {"query": "protien", "fuzziness": "AUTO"}}})), ["a4"]);
    assert_eq!(
        sorted_ids(&e, json!({"match": {"item.name": {"query": "clustl omga", "fuzziness": 1, "operator": "and"}}})),
        ["a2"]
    );
    assert_eq!(
        sorted_ids(&e, json!({"match": {"item.description": {"query": "!!!", "zero_terms_query": "all"}}})).len(),
        4
    );
    assert!(sorted_ids(&e, json!({"match": {"item.description": {"query": "!!!"}}})).is_empty());
    assert_eq!(
        sorted_ids(
            &e,
            json!({"match": {"item.description": {"query": "local sequence java", "minimum_should_match": "2"}}})
        ),
        Vec::<String>::new()
    );
    assert_eq!(sorted_ids(&e, json!({"match": {"count": {"query": "abc", "lenient": true}}})), Vec::<String>::new());
    assert_eq!(
        sorted_ids(&e, json!({"match": {"item.description": {"query": "ALIGNMENT", "analyzer": "standard"}}})),
        ["a1", "a2"]
    );
    // Phrases, slop, prefix.
    assert_eq!(sorted_ids(&e, json!({"match_phrase": {"item.description": "sequence alignment"}})), ["a2"]);
    assert!(sorted_ids(&e, json!({"match_phrase": {"item.description": "alignment sequence"}})).is_empty());
    assert_eq!(
        sorted_ids(&e, json!({"match_phrase": {"item.description": {"query": "local search", "slop": 1}}})),
        ["a1"]
    );
    assert_eq!(sorted_ids(&e, json!({"match_phrase_prefix": {"item.description": "sequence ali"}})), ["a2"]);
    assert_eq!(
        sorted_ids(&e, json!({"match_phrase_prefix": {"item.name": {"query": "prot", "max_expansions": 1}}})),
        ["a4"]
    );
    // A one-term phrase prefix scores like the sum of its expanded terms.
    let pp = search(&e, json!({"match_phrase_prefix": {"item.description": "alig"}}));
    let t1 = search(&e, json!({"term": {"item.description": "alignment"}}));
    let t2 = search(&e, json!({"term": {"item.description": "aligns"}}));
    assert_eq!(score_of(&pp, "a1"), score_of(&t1, "a1"));
    assert_eq!(score_of(&pp, "a4"), score_of(&t2, "a4"));
}

#[test]
fn multi_match_forms() {
    let e = engine();
    for t in ["best_fields", "most_fields", "cross_fields", "phrase", "phrase_prefix"] {
        let q =
            json!({"multi_match": {"query": "protein sequence", "type": t, "fields": ["item.name^2", "item.desc*"]}});
        let got = sorted_ids(&e, q);
        assert!(got.contains(&"a4".to_string()), "{t}: {got:?}");
    }
    // best_fields with tie breaker: max + tie * others.
    let name = search(&e, json!({"match": {"item.name": "protein"}}));
    let desc = search(&e, json!({"match": {"item.description": "protein"}}));
    let mm = search(
        &e,
        json!({"multi_match": {"query": "protein", "fields": ["item.name", "item.description"], "tie_breaker": 0.5}}),
    );
    let (n, d) = (score_of(&name, "a4"), score_of(&desc, "a4"));
    let (max, sum) = (n.max(d), n + d);
    assert_eq!(score_of(&mm, "a4"), max + (sum - max) * 0.5);
    // Field boost.
    let boosted = search(&e, json!({"multi_match": {"query": "imagej", "fields": ["item.name^3"]}}));
    let plain = search(&e, json!({"match": {"item.name": "imagej"}}));
    assert_eq!(score_of(&boosted, "a3"), score_of(&plain, "a3") * 3.0);
}

#[test]
fn term_level_queries() {
    let e = engine();
    let plain = search(&e, json!({"term": {"item.status": "Active"}}));
    let object = search(&e, json!({"term": {"item.status": {"value": "Active", "boost": 2.0}}}));
    let legacy = search(&e, json!({"term": {"item.status": {"term": "Active", "boost": 2.0}}}));
    assert_eq!(ids(&plain).len(), 2);
    assert_eq!(score_of(&object, "a1"), score_of(&legacy, "a1"));
    assert_eq!(object["hits"]["hits"][0]["_score"], legacy["hits"]["hits"][0]["_score"]);
    assert!(score_of(&object, "a1") > score_of(&plain, "a1"));
    // terms (constant score = boost), on keywords and on _id.
    let t = search(&e, json!({"terms": {"_id": ["a2", "a3"], "boost": 4}}));
    assert_eq!(ids(&t).len(), 2);
    assert_eq!(score_of(&t, "a2"), 4.0);
    assert_eq!(sorted_ids(&e, json!({"terms": {"item.status.aggregate": ["active", "retired"]}})), ["a1", "a3", "a4"]);
    assert_eq!(sorted_ids(&e, json!({"ids": {"values": ["a4", "zz"]}})), ["a4"]);
    // ranges: gt/gte/lt/lte, from/to/include_*, dates with format, time zone and date math, keywords.
    assert_eq!(sorted_ids(&e, json!({"range": {"count": {"gt": 0, "lte": 40}}})), ["a1", "a2"]);
    assert_eq!(sorted_ids(&e, json!({"range": {"count": {"from": 7, "to": 40, "include_lower": false}}})), ["a2"]);
    assert_eq!(sorted_ids(&e, json!({"range": {"score": {"gte": "1.5"}}})), ["a1"]);
    assert_eq!(
        sorted_ids(&e, json!({"range": {"date": {"gte": "15/01/2020", "lt": "01/01/2021", "format": "dd/MM/yyyy"}}})),
        ["a1"]
    );
    let day = |tz: &str| {
        sorted_ids(&e, json!({"range": {"date": {"gte": "2020-01-15", "lte": "2020-01-15", "time_zone": tz}}}))
    };
    assert_eq!(day("+10:00"), ["a1"]);
    assert!(day("-12:00").is_empty());
    // Rounding up fills the missing time fields: `lte` a day is the end of that day, `gt` too.
    assert_eq!(sorted_ids(&e, json!({"range": {"date": {"lte": "2020-01-15"}}})), ["a1", "a3"]);
    assert_eq!(sorted_ids(&e, json!({"range": {"date": {"gt": "2020-01-15"}}})), ["a2"]);
    assert_eq!(sorted_ids(&e, json!({"range": {"date": {"gte": "2020-01-15", "lt": "2020-01-15T10:00:01"}}})), ["a1"]);
    assert_eq!(sorted_ids(&e, json!({"range": {"date": {"gte": "2020-01-15||/M", "lt": "2020-02-01"}}})), ["a1"]);
    assert_eq!(sorted_ids(&e, json!({"range": {"date": {"lt": "now-1d/d"}}})), ["a1", "a2", "a3"]);
    assert!(sorted_ids(&e, json!({"range": {"date": {"gt": "now/d"}}})).is_empty());
    assert_eq!(sorted_ids(&e, json!({"range": {"item.status.aggregate": {"gte": "b", "lt": "r"}}})), ["a2"]);
    // exists, prefix, wildcard, regexp, fuzzy
    assert_eq!(sorted_ids(&e, json!({"exists": {"field": "score"}})), ["a1", "a3"]);
    assert_eq!(sorted_ids(&e, json!({"exists": {"field": "item"}})).len(), 4);
    assert_eq!(sorted_ids(&e, json!({"prefix": {"item.status.aggregate": "act"}})), ["a1", "a3"]);
    assert_eq!(sorted_ids(&e, json!({"prefix": {"item.status": {"value": "Act", "boost": 2}}})), ["a1", "a3"]);
    assert_eq!(sorted_ids(&e, json!({"wildcard": {"item.name.aggregate": "*omega"}})), ["a2"]);
    assert_eq!(sorted_ids(&e, json!({"wildcard": {"item.name": {"value": "im?gej"}}})), ["a3"]);
    assert_eq!(sorted_ids(&e, json!({"regexp": {"item.name": "clust[a-z]+"}})), ["a2"]);
    assert_eq!(sorted_ids(&e, json!({"fuzzy": {"item.name": {"value": "imagjj", "fuzziness": 1}}})), ["a3"]);
    assert_eq!(sorted_ids(&e, json!({"fuzzy": {"item.name": "protien"}})), ["a4"]);
}

#[test]
fn compound_queries() {
    let e = engine();
    let should = json!([{"match": {"item.description": "alignment"}}, {"match": {"item.description": "protein"}},
                        {"match": {"item.description": "proteins"}}, {"match": {"item.name": "imagej"}}]);
    let msm = |m: Value| sorted_ids(&e, json!({"bool": {"should": should, "minimum_should_match": m}}));
    assert_eq!(msm(json!(2)), ["a2"]);
    assert_eq!(msm(json!("-3")), ["a1", "a2", "a3", "a4"]);
    assert_eq!(msm(json!("50%")), ["a2"]);
    assert_eq!(msm(json!("-75%")), ["a1", "a2", "a3", "a4"]);
    assert_eq!(msm(json!("3<90%")), Vec::<String>::new());
    assert_eq!(msm(json!("1<1")), ["a1", "a2", "a3", "a4"]);
    assert_eq!(msm(json!("2<-25% 9<-3")), Vec::<String>::new());
    // Clauses as objects or arrays; filter and must_not; pure negative scores 1.
    let q = json!({"bool": {"must": {"match": {"item.description": "alignment"}}, "filter": [{"term": {"item.status": "Active"}}],
                   "must_not": {"term": {"count": 40}}}});
    assert_eq!(sorted_ids(&e, q), ["a1"]);
    let neg = search(&e, json!({"bool": {"must_not": [{"term": {"item.status": "Active"}}]}}));
    assert_eq!(ids(&neg).len(), 2);
    assert_eq!(score_of(&neg, "a2"), 1.0);
    let filter_only = search(&e, json!({"bool": {"filter": {"term": {"item.status": "Active"}}}}));
    assert_eq!(score_of(&filter_only, "a1"), 0.0);
    // constant_score, dis_max, boosting
    let cs =
        search(&e, json!({"constant_score": {"filter": {"match": {"item.description": "alignment"}}, "boost": 1.2}}));
    assert_eq!(score_of(&cs, "a2"), 1.2);
    let dm = search(
        &e,
        json!({"dis_max": {"queries": [{"term": {"item.status": "Active"}}, {"match": {"item.name": "blast"}}]}}),
    );
    let t = search(&e, json!({"term": {"item.status": "Active"}}));
    let b = search(&e, json!({"match": {"item.name": "blast"}}));
    assert_eq!(score_of(&dm, "a1"), score_of(&t, "a1").max(score_of(&b, "a1")));
    let boosting = search(
        &e,
        json!({"boosting": {"positive": {"match": {"item.description": "alignment"}}, "negative": {"term": {"item.status": "inactive"}},
                            "negative_boost": 0.25}}),
    );
    let pos = search(&e, json!({"match": {"item.description": "alignment"}}));
    assert_eq!(score_of(&boosting, "a2"), score_of(&pos, "a2") * 0.25);
    assert_eq!(score_of(&boosting, "a1"), score_of(&pos, "a1"));
}

#[test]
fn function_score() {
    let e = engine();
    let q = json!({"match": {"item.description": "alignment"}});
    let base = search(&e, q.clone());
    let fs = |extra: Value| {
        let mut f = json!({"query": q});
        for (k, v) in extra.as_object().unwrap() {
            f[k] = v.clone();
        }
        search(&e, json!({"function_score": f}))
    };
    // field_value_factor: doubles for the function, one cast at the end.
    for (modifier, f) in [
        ("none", (|v: f64| v) as fn(f64) -> f64),
        ("log1p", |v: f64| (v + 1.0).log10()),
        ("log2p", |v: f64| (v + 2.0).log10()),
        ("ln1p", |v: f64| v.ln_1p()),
        ("ln2p", |v: f64| (v + 1.0).ln_1p()),
        ("square", |v: f64| v * v),
        ("sqrt", |v: f64| v.sqrt()),
        ("reciprocal", |v: f64| 1.0 / v),
    ] {
        let r = fs(json!({"field_value_factor": {"field": "count", "factor": 2, "modifier": modifier}}));
        for (id, count) in [("a1", 7.0f64), ("a2", 40.0)] {
            let want = (score_of(&base, id) as f64 * f(count * 2.0)) as f32;
            assert_eq!(score_of(&r, id), want, "{modifier} {id}");
        }
    }
    // missing; an error without it.
    let r = fs(json!({"field_value_factor": {"field": "score", "missing": 1}, "boost_mode": "replace"}));
    assert_eq!(score_of(&r, "a1"), 2.5);
    assert_eq!(score_of(&r, "a2"), 1.0);
    let body = json!({"query": {"function_score": {"query": q, "field_value_factor": {"field": "score"}}}}).to_string();
    let err = common::search(&e, "tools", &body).unwrap_err().to_json();
    assert_eq!(err["error"]["root_cause"][0]["reason"], "Missing value for field [score]");
    // weight, filtered functions, score modes, boost modes, max_boost, min_score.
    let functions = json!([{"filter": {"term": {"item.status": "Active"}}, "weight": 3},
                           {"filter": {"match": {"item.description": "proteins"}}, "weight": 5},
                           {"weight": 2}]);
    let by_mode = |score_mode: &str, boost_mode: &str| {
        fs(json!({"functions": functions, "score_mode": score_mode, "boost_mode": boost_mode}))
    };
    let s1 = score_of(&base, "a1") as f64;
    let s2 = score_of(&base, "a2") as f64;
    assert_eq!(score_of(&by_mode("multiply", "multiply"), "a1"), (s1 * 6.0) as f32);
    assert_eq!(score_of(&by_mode("sum", "multiply"), "a2"), (s2 * 7.0) as f32);
    // avg: the weighted values over the matching functions' weights.
    assert_eq!(score_of(&by_mode("avg", "replace"), "a1"), 1.0);
    assert_eq!(score_of(&by_mode("first", "sum"), "a2"), (s2 + 5.0) as f32);
    assert_eq!(score_of(&by_mode("max", "avg"), "a1"), ((s1 + 3.0) / 2.0) as f32);
    assert_eq!(score_of(&by_mode("min", "min"), "a1"), s1.min(2.0) as f32);
    assert_eq!(score_of(&by_mode("max", "max"), "a2"), 5.0);
    let capped = fs(json!({"functions": functions, "score_mode": "sum", "boost_mode": "replace", "max_boost": 4}));
    assert_eq!(score_of(&capped, "a1"), 4.0);
    let min = fs(json!({"functions": functions, "score_mode": "sum", "boost_mode": "replace", "min_score": 6}));
    assert_eq!(ids(&min), ["a2"]);
    // The query's boost goes into the inner query.
    let boosted = fs(json!({"weight": 2, "boost": 3}));
    assert_eq!(score_of(&boosted, "a1"), ((score_of(&base, "a1") * 3.0) as f64 * 2.0) as f32);
    // random_score: deterministic for a seed, in [0, 1).
    let r1 = search(&e, json!({"function_score": {"random_score": {"seed": 42}}}));
    let r2 = search(&e, json!({"function_score": {"random_score": {"seed": 42}}}));
    let r3 = search(&e, json!({"function_score": {"random_score": {"seed": 43, "field": "_id"}}}));
    assert_eq!(r1["hits"], r2["hits"]);
    assert_ne!(r1["hits"], r3["hits"]);
    for h in r1["hits"]["hits"].as_array().unwrap() {
        let s = h["_score"].as_f64().unwrap();
        assert!((0.0..1.0).contains(&s));
    }
}

#[test]
fn errors() {
    let e = engine();
    let err = common::search(&e, "tools", r#"{"query": {"nope": {}}}"#).unwrap_err().to_json();
    assert_eq!(err["error"]["root_cause"][0]["reason"], "no [query] registered for [nope]");
    assert_eq!(err["error"]["root_cause"][0]["line"], 1);
    let should: Vec<Value> = (0..1100).map(|i| json!({"term": {"count": i}})).collect();
    let err = common::search(&e, "tools", &json!({"query": {"bool": {"should": should}}}).to_string()).unwrap_err();
    assert_eq!(err.status, 400);
    assert_eq!(err.to_json()["error"]["failed_shards"][0]["reason"]["caused_by"]["type"], "too_many_clauses");
    assert_eq!(
        common::search(&e, "tools", r#"{"query":{"nested":{"path":"item","query":{"match_all":{}}}}}"#)
            .unwrap_err()
            .status,
        400
    );
    // Scripts that do not compile fail on the shard, 400.
    assert_eq!(
        common::search(&e, "tools", r#"{"query":{"script":{"script":"doc['count'].value >"}}}"#).unwrap_err().status,
        400
    );
    let err =
        common::search(&e, "tools", r#"{"query":{"function_score":{"script_score":{"script":"1 +"}}}}"#).unwrap_err();
    assert_eq!(err.status, 400);
    assert_eq!(err.to_json()["error"]["root_cause"][0]["reason"], "compile error");
    // Inputs that must never panic.
    for q in [
        json!({"match": {"item.name": {"query": "x", "fuzziness": "AUTO:9,1"}}}),
        json!({"fuzzy": {"item.name": {"value": "", "fuzziness": 2}}}),
        json!({"regexp": {"item.name": "(((("}}),
        json!({"regexp": {"item.name": "[a-z]{1,1000}{1,1000}"}}),
        json!({"wildcard": {"item.name": "\\"}}),
        json!({"range": {"date": {"gte": "not a date"}}}),
        json!({"range": {"count": {"gte": "x"}}}),
        json!({"function_score": {"field_value_factor": {"field": "count", "modifier": "ln"}}}),
        json!({"match_phrase_prefix": {"item.name": ""}}),
        json!({"multi_match": {"query": "x", "fields": []}}),
    ] {
        let _ = common::search(&e, "tools", &json!({"query": q}).to_string());
    }
}

#[test]
fn stored_fields_shape_the_hits_as_es_does() {
    let e = engine();
    let first_hit = |body: Value, params: &[(&str, &str)]| -> Value {
        let params: Vec<(String, String)> = params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let body = json!({"query": {"ids": {"values": ["a1"]}}})
            .as_object()
            .unwrap()
            .clone()
            .into_iter()
            .chain(body.as_object().unwrap().clone())
            .collect::<serde_json::Map<_, _>>();
        let res = common::search_with(&e, "tools", &Value::Object(body).to_string(), &params).unwrap();
        res["hits"]["hits"][0].clone()
    };
    let keys = |hit: &Value| hit.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    // Fields are not stored: naming some returns no `_source` unless it is asked for.
    let hit = first_hit(json!({"stored_fields": ["item.name"]}), &[]);
    assert_eq!(keys(&hit), ["_index", "_type", "_id", "_score"]);
    let hit = first_hit(json!({"stored_fields": "item.name", "_source": ["item.name"]}), &[]);
    assert_eq!(hit["_source"], json!({"item": {"name": "BLAST"}}));
    let hit = first_hit(json!({"stored_fields": ["item.name", "_source"]}), &[]);
    assert_eq!(hit["_source"]["item"]["status"], json!("Active"));
    let hit = first_hit(json!({}), &[("stored_fields", "item.name")]);
    assert_eq!(keys(&hit), ["_index", "_type", "_id", "_score"]);
    let hit = first_hit(json!({}), &[("stored_fields", "item.name"), ("_source_includes", "count")]);
    assert_eq!(hit["_source"], json!({"count": 7}));
    // `_none_`: nothing is loaded, not even `_id` and `_type`.
    let hit = first_hit(json!({"stored_fields": "_none_"}), &[]);
    assert_eq!(hit, json!({"_index": "tools", "_score": 1.0}));
    let hit = first_hit(json!({"stored_fields": "_none_", "_source": false}), &[]);
    assert_eq!(keys(&hit), ["_index", "_score"]);
    for (extra, what) in [(json!({"_source": true}), "_source"), (json!({"version": true}), "version")] {
        let mut body = json!({"stored_fields": "_none_"});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let err = common::search(&e, "tools", &body.to_string()).unwrap_err();
        let reason = format!("`stored_fields` cannot be disabled if {what} is requested");
        assert_eq!(
            err.to_json(),
            json!({"error": {"root_cause": [{"type": "search_context_exception", "reason": reason}],
                             "type": "search_phase_execution_exception", "reason": "all shards failed", "phase": "query",
                             "grouped": true, "failed_shards": [{"shard": 0, "index": "tools", "node": metagate::NODE_ID,
                             "reason": {"type": "search_context_exception", "reason": reason}}]},
                   "status": 500})
        );
    }
}

#[test]
fn regexps_longer_than_max_regex_length_fail_every_shard() {
    let e = engine();
    let ok = "a".repeat(1000);
    assert_eq!(
        common::search(&e, "tools", &json!({"query": {"regexp": {"item.name": ok}}}).to_string()).unwrap()["hits"]
            ["total"],
        0
    );
    // Java counts UTF-16 units: 500 characters outside the BMP are 1000, one more is too many.
    let astral = "𝔸".repeat(500);
    assert!(common::search(&e, "tools", &json!({"query": {"regexp": {"item.name": astral}}}).to_string()).is_ok());
    let reason = "The length of regex [1001] used in the Regexp Query request has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.";
    let expected = json!({"error": {"root_cause": [{"type": "illegal_argument_exception", "reason": reason}],
                                    "type": "search_phase_execution_exception", "reason": "all shards failed", "phase": "query",
                                    "grouped": true, "failed_shards": [{"shard": 0, "index": "tools", "node": metagate::NODE_ID,
                                    "reason": {"type": "illegal_argument_exception", "reason": reason}}]},
                          "status": 400});
    let long = "a".repeat(1001);
    for body in [
        json!({"query": {"regexp": {"item.name": long}}}),
        json!({"query": {"regexp": {"no_such_field": {"value": long}}}}),
    ] {
        let err = common::search(&e, "tools", &body.to_string()).err().unwrap_or_else(|| panic!("{body} was answered"));
        assert_eq!(err.to_json(), expected, "{body}");
    }
    // query_string builds its regexps without that check, as ES's parser does.
    let qs = json!({"query": {"query_string": {"query": format!("item.name:/{long}/"), "default_field": "item.name"}}});
    assert_eq!(common::search(&e, "tools", &qs.to_string()).unwrap()["hits"]["total"], 0);
}

#[test]
fn rescore_reorders_each_shards_top_window() {
    let e = engine();
    let ids_scores = |body: Value| -> Vec<(String, f32)> {
        let r =
            common::search(&e, "tools", &body.to_string()).unwrap_or_else(|err| panic!("{body}: {:?}", err.to_json()));
        common::hit_scores(&r)
    };
    let first = ids_scores(json!({"query": {"match": {"item.description": "alignment sequence protein"}}}));
    let plain: std::collections::HashMap<String, f32> = first.iter().cloned().collect();
    let boost = ids_scores(json!({"query": {"match": {"item.name": "blast"}}}));
    let boosted: std::collections::HashMap<String, f32> = boost.iter().cloned().collect();
    for (mode, combine) in [
        ("total", (|a: f32, b: f32| a + b) as fn(f32, f32) -> f32),
        ("multiply", |a, b| a * b),
        ("avg", |a, b| (a + b) / 2.0),
        ("max", |a: f32, b: f32| a.max(b)),
        ("min", |a: f32, b: f32| a.min(b)),
    ] {
        let got = ids_scores(json!({
            "query": {"match": {"item.description": "alignment sequence protein"}},
            "rescore": {"window_size": 2, "query": {"rescore_query": {"match": {"item.name": "blast"}},
                        "query_weight": 0.7, "rescore_query_weight": 1.5, "score_mode": mode}}}));
        // The top 2 are rescored; the rest keep query_weight × score; all sorted again.
        let window: Vec<&String> = first.iter().take(2).map(|(id, _)| id).collect();
        let mut expect: Vec<(String, f32)> = first
            .iter()
            .map(|(id, s)| {
                let base = s * 0.7;
                let score = match boosted.get(id) {
                    Some(b) if window.contains(&id) => combine(base, b * 1.5),
                    _ => base,
                };
                (id.clone(), score)
            })
            .collect();
        expect.sort_by(|a, b| b.1.total_cmp(&a.1));
        assert_eq!(got, expect, "{mode}");
    }
    assert!(plain.len() >= 3);
    // max_score follows the rescored hits.
    let r = common::search(
        &e,
        "tools",
        &json!({"query": {"match": {"item.description": "alignment"}},
        "rescore": {"query": {"rescore_query": {"match_all": {}}, "rescore_query_weight": 10}}})
        .to_string(),
    )
    .unwrap();
    assert_eq!(r["hits"]["max_score"], r["hits"]["hits"][0]["_score"]);
    // ES's shard-level refusals.
    let err = common::search(
        &e,
        "tools",
        &json!({"sort": ["count"], "rescore": {"query": {"rescore_query": {"match_all": {}}}}}).to_string(),
    )
    .unwrap_err();
    assert_eq!(
        (err.status, err.to_json()["error"]["root_cause"][0].clone()),
        (
            500,
            json!({"type": "query_phase_execution_exception", "reason": "Cannot use [sort] option in conjunction with [rescore]."})
        )
    );
    let err = common::search(
        &e,
        "tools",
        &json!({"rescore": {"window_size": 10001, "query": {"rescore_query": {"match_all": {}}}}}).to_string(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_json()["error"]["root_cause"][0]["reason"],
        json!("Rescore window [10001] is too large. It must be less than [10000]. This prevents allocating massive heaps for storing the results to be rescored. This limit can be set by changing the [index.max_rescore_window] index level setting.")
    );
    let err = common::search(&e, "tools", &json!({"rescore": {"window_size": 5}}).to_string()).unwrap_err();
    assert_eq!(err.reason(), "missing rescore type");
    let err = common::search(
        &e,
        "tools",
        &json!({"rescore": {"query": {"rescore_query": {"match_all": {}}, "score_mode": "sum"}}}).to_string(),
    )
    .unwrap_err();
    assert_eq!(err.reason(), "illegal score_mode [sum]");
}

#[test]
fn terms_lookup_reads_the_values_of_a_document() {
    let e = engine();
    let lookup = |l: Value| json!({"terms": {"item.status.aggregate": l}});
    // a4's `item.status` is "retired"; the index may be left out (the searched one).
    let l = json!({"index": "tools", "type": "_doc", "id": "a4", "path": "item.status", "routing": "r"});
    assert_eq!(sorted_ids(&e, lookup(l)), ["a4"]);
    assert_eq!(sorted_ids(&e, lookup(json!({"type": "_doc", "id": "a2", "path": "item.status"}))), ["a2"]);
    // In a filter, as an aggregation's filter (search.aggregation/50_filter.yml).
    let body = json!({"size": 0, "aggs": {"f": {"filter": {"terms": {"item.status.aggregate":
        {"index": "tools", "type": "_doc", "id": "a4", "path": "item.status"}}}}}});
    let res = common::search(&e, "tools", &body.to_string()).unwrap();
    assert_eq!(res["aggregations"]["f"]["doc_count"], 1);
    // A missing document, type or path gives no values, so no hits.
    for l in [
        json!({"type": "_doc", "id": "nope", "path": "item.status"}),
        json!({"type": "other", "id": "a4", "path": "item.status"}),
        json!({"type": "_doc", "id": "a4", "path": "item.nope"}),
    ] {
        assert_eq!(sorted_ids(&e, lookup(l.clone())), Vec::<String>::new(), "{l}");
    }
    // ES's parse errors.
    let reason = |l: Value| {
        let body = json!({"query": lookup(l)}).to_string();
        let err = common::search(&e, "tools", &body).unwrap_err().to_json();
        err["error"]["root_cause"][0]["reason"].as_str().unwrap().to_string()
    };
    assert_eq!(
        reason(json!({"type": "_doc", "path": "item.status"})),
        "[terms] query lookup element requires specifying the id."
    );
    assert_eq!(
        reason(json!({"type": "_doc", "id": "a4", "path": "p", "nope": 1})),
        "[terms] query does not support [nope] within lookup element"
    );
    // The document's index must exist, as for a GET.
    let body = json!({"query": lookup(json!({"index": "nope", "type": "_doc", "id": "a4", "path": "item.status"})),});
    let err = common::search(&e, "tools", &body.to_string()).unwrap_err().to_json();
    assert_eq!(err["error"]["root_cause"][0]["type"], "index_not_found_exception", "{err}");
    assert_eq!(err["error"]["root_cause"][0]["index"], "nope", "{err}");
}

#[test]
fn terms_lookup_reads_a_document_of_another_index() {
    let e = engine();
    let docs = [("s1", json!({"wanted": ["retired", "inactive"]}))];
    e.load("lists", common::bulk(&docs).as_bytes(), &metagate::LoadOptions::default(), &mut |_, _| {}).unwrap();
    let body = json!({"query": {"terms": {"item.status.aggregate":
        {"index": "lists", "type": "_doc", "id": "s1", "path": "wanted"}}}, "size": 10});
    let res = common::search(&e, "tools", &body.to_string()).unwrap();
    let mut got = ids(&res);
    got.sort();
    assert_eq!(got, ["a2", "a4"]);
}
