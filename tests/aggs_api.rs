//! Aggregations through the engine API, compared as whole JSON with what ES 6.8 answers:
//! terms (facets as the portals ask for them), composite paging, histograms, ranges,
//! single-bucket aggregations, metrics, top_hits, typed_keys, limits and errors.

mod common;
use metagate::Engine;
use metagate::Family;
use serde_json::{json, Value};

fn engine() -> Engine {
    common::engine_with(
        "aggs",
        "tools",
        Some("Tools_pr"),
        &[
            (
                "d1",
                json!({"item": {"types": [{"name": "Software"}, {"name": "Database"}], "status": "Active"},
                       "count": 5, "score": 1.5, "date": "2020-01-15T10:00:00Z", "valid": true}),
            ),
            (
                "d2",
                json!({"item": {"types": [{"name": "software"}], "status": "active"},
                       "count": 10, "score": 2.5, "date": "2020-01-20T00:00:00Z", "valid": false}),
            ),
            (
                "d3",
                json!({"item": {"types": [{"name": "Database"}], "status": "Retired"},
                       "count": 15, "date": "2020-03-02T12:00:00Z", "valid": true}),
            ),
            (
                "d4",
                json!({"item": {"types": [{"name": "Service"}], "status": "Active"},
                       "count": 20, "score": 4.0, "date": "2021-06-01T00:00:00Z"}),
            ),
            ("d5", json!({"item": {"status": "Active"}, "count": 25, "valid": true})),
        ],
        Some(Family::Registry),
    )
}

/// The `aggregations` of a `size: 0` request with `aggs` (and an optional query).
fn aggs(e: &Engine, query: Option<Value>, aggs: Value) -> Value {
    let mut body = json!({"size": 0, "aggs": aggs});
    if let Some(q) = query {
        body["query"] = q;
    }
    let r = common::search(e, "Tools_pr", &body.to_string()).unwrap_or_else(|err| panic!("{}", err.to_json()));
    r["aggregations"].clone()
}

fn error(e: &Engine, body: Value) -> (u16, Value) {
    let err = common::search(e, "Tools_pr", &body.to_string()).expect_err("the request must fail");
    (err.status, err.to_json())
}

#[test]
fn facet_request_of_the_portals() {
    let e = engine();
    let body = json!({"size": 0, "aggregations": {"types": {"terms": {
        "field": "item.types.name.aggregate", "size": 200, "order": [{"_count": "desc"}, {"_key": "asc"}]}}}});
    let r = common::search(&e, "Tools_pr", &body.to_string()).unwrap();
    assert_eq!(r["hits"], json!({"total": 5, "max_score": 0.0, "hits": []}));
    assert_eq!(
        r["aggregations"],
        json!({"types": {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0, "buckets": [
            {"key": "database", "doc_count": 2}, {"key": "software", "doc_count": 2}, {"key": "service", "doc_count": 1}]}})
    );
}

#[test]
fn terms_size_order_filters_and_missing() {
    let e = engine();
    assert_eq!(
        aggs(&e, None, json!({"t": {"terms": {"field": "item.types.name.aggregate", "size": 1}}})),
        json!({"t": {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 3, "buckets": [{"key": "database", "doc_count": 2}]}})
    );
    // A keyword without normalizer keeps case; ties order by key bytes.
    assert_eq!(
        aggs(&e, None, json!({"s": {"terms": {"field": "item.status"}}}))["s"]["buckets"],
        json!([{"key": "Active", "doc_count": 3}, {"key": "Retired", "doc_count": 1}, {"key": "active", "doc_count": 1}])
    );
    assert_eq!(
        aggs(
            &e,
            None,
            json!({"t": {"terms": {"field": "item.types.name.aggregate", "order": {"_key": "desc"},
            "include": "s.*", "exclude": ["service"]}}})
        )["t"]["buckets"],
        json!([{"key": "software", "doc_count": 2}])
    );
    assert_eq!(
        aggs(
            &e,
            None,
            json!({"t": {"terms": {"field": "item.types.name.aggregate", "order": {"_term": "asc"}, "missing": "none"}}})
        )["t"]["buckets"],
        json!([{"key": "database", "doc_count": 2}, {"key": "none", "doc_count": 1}, {"key": "service", "doc_count": 1}, {"key": "software", "doc_count": 2}])
    );
    // min_doc_count 0 lists the field's other terms with zero counts.
    assert_eq!(
        aggs(
            &e,
            Some(json!({"ids": {"values": ["d4"]}})),
            json!({"t": {"terms": {"field": "item.types.name.aggregate", "min_doc_count": 0}}})
        )["t"]["buckets"],
        json!([{"key": "service", "doc_count": 1}, {"key": "database", "doc_count": 0}, {"key": "software", "doc_count": 0}])
    );
    // Ordered by a metric sub-aggregation (ties by key).
    assert_eq!(
        aggs(
            &e,
            None,
            json!({"t": {"terms": {"field": "item.types.name.aggregate", "order": {"avg_count": "desc"}},
            "aggs": {"avg_count": {"avg": {"field": "count"}}}}})
        )["t"]["buckets"],
        json!([{"key": "service", "doc_count": 1, "avg_count": {"value": 20.0}},
               {"key": "database", "doc_count": 2, "avg_count": {"value": 10.0}},
               {"key": "software", "doc_count": 2, "avg_count": {"value": 7.5}}])
    );
}

#[test]
fn numeric_boolean_and_date_terms() {
    let e = engine();
    assert_eq!(
        aggs(&e, None, json!({"c": {"terms": {"field": "count", "size": 2}}})),
        json!({"c": {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 3, "buckets": [
            {"key": 5, "doc_count": 1}, {"key": 10, "doc_count": 1}]}})
    );
    assert_eq!(
        aggs(&e, None, json!({"v": {"terms": {"field": "valid"}}}))["v"]["buckets"],
        json!([{"key": 1, "key_as_string": "true", "doc_count": 3}, {"key": 0, "key_as_string": "false", "doc_count": 1}])
    );
    assert_eq!(
        aggs(&e, Some(json!({"ids": {"values": ["d1"]}})), json!({"d": {"terms": {"field": "date"}}}))["d"]["buckets"],
        json!([{"key": 1579082400000i64, "key_as_string": "2020-01-15T10:00:00.000Z", "doc_count": 1}])
    );
}

#[test]
fn metrics() {
    let e = engine();
    let r = aggs(
        &e,
        None,
        json!({
            "min": {"min": {"field": "count"}}, "max": {"max": {"field": "count"}}, "avg": {"avg": {"field": "count"}},
            "sum": {"sum": {"field": "count"}}, "n": {"value_count": {"field": "count"}},
            "stats": {"stats": {"field": "count"}}, "ext": {"extended_stats": {"field": "count"}},
            "card": {"cardinality": {"field": "item.status"}}, "card_lc": {"cardinality": {"field": "item.status.aggregate"}},
            "pct": {"percentiles": {"field": "count", "percents": [50, 95]}},
            "first": {"min": {"field": "date"}}, "avg_score": {"avg": {"field": "score"}}
        }),
    );
    assert_eq!(
        r,
        json!({
            "min": {"value": 5.0}, "max": {"value": 25.0}, "avg": {"value": 15.0}, "sum": {"value": 75.0}, "n": {"value": 5},
            "stats": {"count": 5, "min": 5.0, "max": 25.0, "avg": 15.0, "sum": 75.0},
            "ext": {"count": 5, "min": 5.0, "max": 25.0, "avg": 15.0, "sum": 75.0, "sum_of_squares": 1375.0,
                    "variance": 50.0, "std_deviation": 7.0710678118654755,
                    "std_deviation_bounds": {"upper": 29.14213562373095, "lower": 0.857864376269049}},
            "card": {"value": 3}, "card_lc": {"value": 2},
            "pct": {"values": {"50.0": 15.0, "95.0": 24.0}},
            "first": {"value": 1579082400000.0, "value_as_string": "2020-01-15T10:00:00.000Z"},
            "avg_score": {"value": 2.6666666666666665}
        })
    );
    let empty = aggs(
        &e,
        Some(json!({"match_none": {}})),
        json!({"min": {"min": {"field": "count"}}, "sum": {"sum": {"field": "count"}},
               "stats": {"stats": {"field": "count"}}, "pct": {"percentiles": {"field": "count", "percents": [50], "keyed": false}}}),
    );
    assert_eq!(
        empty,
        json!({"min": {"value": null}, "sum": {"value": 0.0},
               "stats": {"count": 0, "min": null, "max": null, "avg": null, "sum": 0.0},
               "pct": {"values": [{"key": 50.0, "value": null}]}})
    );
}

#[test]
fn histograms() {
    let e = engine();
    assert_eq!(
        aggs(&e, None, json!({"h": {"histogram": {"field": "count", "interval": 10}}})),
        json!({"h": {"buckets": [{"key": 0.0, "doc_count": 1}, {"key": 10.0, "doc_count": 2}, {"key": 20.0, "doc_count": 2}]}})
    );
    // Gaps are filled (min_doc_count 0 is the histogram default), and extended_bounds widen.
    let q = json!({"bool": {"must_not": {"range": {"count": {"gte": 10, "lte": 15}}}}});
    assert_eq!(
        aggs(&e, Some(q.clone()), json!({"h": {"histogram": {"field": "count", "interval": 10}}}))["h"]["buckets"],
        json!([{"key": 0.0, "doc_count": 1}, {"key": 10.0, "doc_count": 0}, {"key": 20.0, "doc_count": 2}])
    );
    let b = aggs(
        &e,
        Some(q),
        json!({"h": {"histogram": {"field": "count", "interval": 10, "extended_bounds": {"min": 0, "max": 50}}}}),
    );
    assert_eq!(b["h"]["buckets"].as_array().unwrap().len(), 6);
    assert_eq!(
        aggs(
            &e,
            None,
            json!({"h": {"histogram": {"field": "count", "interval": 10, "keyed": true, "min_doc_count": 2}}})
        ),
        json!({"h": {"buckets": {"10.0": {"key": 10.0, "doc_count": 2}, "20.0": {"key": 20.0, "doc_count": 2}}}})
    );
    assert_eq!(
        aggs(&e, None, json!({"m": {"date_histogram": {"field": "date", "interval": "month", "min_doc_count": 1}}})),
        json!({"m": {"buckets": [
            {"key_as_string": "2020-01-01T00:00:00.000Z", "key": 1577836800000i64, "doc_count": 2},
            {"key_as_string": "2020-03-01T00:00:00.000Z", "key": 1583020800000i64, "doc_count": 1},
            {"key_as_string": "2021-06-01T00:00:00.000Z", "key": 1622505600000i64, "doc_count": 1}]}})
    );
    let filled =
        aggs(&e, None, json!({"m": {"date_histogram": {"field": "date", "interval": "1M", "format": "yyyy-MM"}}}));
    let buckets = filled["m"]["buckets"].as_array().unwrap();
    assert_eq!(buckets.len(), 18);
    assert_eq!(buckets[1], json!({"key_as_string": "2020-02", "key": 1580515200000i64, "doc_count": 0}));
    assert_eq!(
        aggs(
            &e,
            Some(json!({"ids": {"values": ["d2"]}})),
            json!({"d": {"date_histogram": {"field": "date", "interval": "day", "time_zone": "+01:00"}}})
        ),
        json!({"d": {"buckets": [{"key_as_string": "2020-01-20T00:00:00.000+01:00", "key": 1579474800000i64, "doc_count": 1}]}})
    );
}

#[test]
fn ranges() {
    let e = engine();
    let ranges = json!([{"to": 10}, {"from": 20}, {"from": 10, "to": 20}]);
    assert_eq!(
        aggs(&e, None, json!({"r": {"range": {"field": "count", "ranges": ranges}}})),
        json!({"r": {"buckets": [
            {"key": "*-10.0", "to": 10.0, "doc_count": 1},
            {"key": "10.0-20.0", "from": 10.0, "to": 20.0, "doc_count": 2},
            {"key": "20.0-*", "from": 20.0, "doc_count": 2}]}})
    );
    assert_eq!(
        aggs(
            &e,
            None,
            json!({"r": {"range": {"field": "count", "keyed": true, "ranges": [{"key": "small", "to": 10}]}}})
        ),
        json!({"r": {"buckets": {"small": {"to": 10.0, "doc_count": 1}}}})
    );
    assert_eq!(
        aggs(
            &e,
            None,
            json!({"r": {"date_range": {"field": "date", "ranges": [{"to": "2020-02-01"}, {"from": "2020-02-01"}]}}})
        ),
        json!({"r": {"buckets": [
            {"key": "*-2020-02-01T00:00:00.000Z", "to": 1580515200000.0, "to_as_string": "2020-02-01T00:00:00.000Z", "doc_count": 2},
            {"key": "2020-02-01T00:00:00.000Z-*", "from": 1580515200000.0, "from_as_string": "2020-02-01T00:00:00.000Z", "doc_count": 2}]}})
    );
}

#[test]
fn single_bucket_aggregations() {
    let e = engine();
    assert_eq!(
        aggs(
            &e,
            None,
            json!({"f": {"filter": {"term": {"item.status": "Active"}}, "aggs": {"c": {"sum": {"field": "count"}}}}})
        ),
        json!({"f": {"doc_count": 3, "c": {"value": 50.0}}})
    );
    assert_eq!(
        aggs(
            &e,
            None,
            json!({"f": {"filters": {"other_bucket": true, "filters": {
            "retired": {"term": {"item.status.aggregate": "retired"}}, "active": {"term": {"item.status.aggregate": "active"}}}}}})
        ),
        json!({"f": {"buckets": {"active": {"doc_count": 4}, "retired": {"doc_count": 1}, "_other_": {"doc_count": 0}}}})
    );
    assert_eq!(
        aggs(&e, None, json!({"f": {"filters": {"filters": [{"term": {"valid": true}}, {"match_all": {}}]}}})),
        json!({"f": {"buckets": [{"doc_count": 3}, {"doc_count": 5}]}})
    );
    assert_eq!(aggs(&e, None, json!({"m": {"missing": {"field": "score"}}})), json!({"m": {"doc_count": 2}}));
    assert_eq!(
        aggs(
            &e,
            Some(json!({"match_none": {}})),
            json!({"g": {"global": {}, "aggs": {"n": {"value_count": {"field": "count"}}}}})
        ),
        json!({"g": {"doc_count": 5, "n": {"value": 5}}})
    );
}

#[test]
fn top_hits_per_bucket() {
    let e = engine();
    let r = aggs(
        &e,
        None,
        json!({"s": {"terms": {"field": "item.status.aggregate"}, "aggs": {"top": {"top_hits": {
            "size": 1, "sort": [{"count": "desc"}], "_source": ["count"]}}}}}),
    );
    let index = r["s"]["buckets"][0]["top"]["hits"]["hits"][0]["_index"].clone();
    assert_eq!(
        r["s"]["buckets"],
        json!([
            {"key": "active", "doc_count": 4, "top": {"hits": {"total": 4, "max_score": null, "hits": [
                {"_index": index, "_type": "rin", "_id": "d5", "_score": null, "_source": {"count": 25}, "sort": [25]}]}}},
            {"key": "retired", "doc_count": 1, "top": {"hits": {"total": 1, "max_score": null, "hits": [
                {"_index": index, "_type": "rin", "_id": "d3", "_score": null, "_source": {"count": 15}, "sort": [15]}]}}}
        ])
    );
    assert!(index.as_str().unwrap().starts_with("tools"));
    // Relevance order by default, with the query's scores.
    let r = aggs(
        &e,
        Some(json!({"match": {"item.types.name": "software"}})),
        json!({"top": {"top_hits": {"size": 2, "_source": false}}}),
    );
    let hits = &r["top"]["hits"];
    assert_eq!(hits["total"], json!(2));
    assert_eq!(hits["hits"][0]["_id"], json!("d2"));
    assert_eq!(hits["max_score"], hits["hits"][0]["_score"]);
    assert!(hits["hits"][0]["_score"].as_f64().unwrap() > hits["hits"][1]["_score"].as_f64().unwrap());
}

#[test]
fn composite_pages_through_every_key() {
    let e = engine();
    let page = |after: Option<Value>| {
        let mut c = json!({"size": 2, "sources": [{"t": {"terms": {"field": "item.types.name.aggregate"}}}]});
        if let Some(a) = after {
            c["after"] = a;
        }
        aggs(&e, None, json!({"ids": {"composite": c}}))["ids"].clone()
    };
    let p1 = page(None);
    assert_eq!(
        p1,
        json!({"after_key": {"t": "service"}, "buckets": [{"key": {"t": "database"}, "doc_count": 2}, {"key": {"t": "service"}, "doc_count": 1}]})
    );
    let p2 = page(Some(p1["after_key"].clone()));
    assert_eq!(p2, json!({"after_key": {"t": "software"}, "buckets": [{"key": {"t": "software"}, "doc_count": 2}]}));
    assert_eq!(page(Some(p2["after_key"].clone())), json!({"buckets": []}));

    // Two sources, a missing bucket, descending order and a date_histogram source.
    let r = aggs(
        &e,
        None,
        json!({"c": {"composite": {"sources": [
            {"s": {"terms": {"field": "item.status.aggregate"}}},
            {"v": {"terms": {"field": "valid", "missing_bucket": true}}}]}}}),
    );
    assert_eq!(
        r["c"]["buckets"],
        json!([{"key": {"s": "active", "v": null}, "doc_count": 1}, {"key": {"s": "active", "v": false}, "doc_count": 1},
               {"key": {"s": "active", "v": true}, "doc_count": 2}, {"key": {"s": "retired", "v": true}, "doc_count": 1}])
    );
    let r = aggs(
        &e,
        None,
        json!({"c": {"composite": {"size": 1, "sources": [{"y": {"date_histogram": {"field": "date", "interval": "1y", "order": "desc"}}}]}}}),
    );
    assert_eq!(
        r["c"],
        json!({"after_key": {"y": 1609459200000i64}, "buckets": [{"key": {"y": 1609459200000i64}, "doc_count": 1}]})
    );
    let r = aggs(
        &e,
        None,
        json!({"c": {"composite": {"size": 1, "after": {"t": "database"}, "sources": [{"t": {"terms": {"field": "item.types.name.aggregate"}}}]},
               "aggs": {"total": {"sum": {"field": "count"}}}}}),
    );
    assert_eq!(r["c"]["buckets"], json!([{"key": {"t": "service"}, "doc_count": 1, "total": {"value": 20.0}}]));
}

#[test]
fn typed_keys_and_meta() {
    let e = engine();
    let body = json!({"size": 0, "aggs": {
        "t": {"terms": {"field": "item.types.name.aggregate", "size": 1}, "meta": {"label": "Types"},
              "aggs": {"m": {"max": {"field": "count"}}}},
        "c": {"terms": {"field": "count", "size": 1}}, "x": {"terms": {"field": "nothing"}}}});
    let r = common::search_with(&e, "Tools_pr", &body.to_string(), &[("typed_keys".into(), "true".into())]).unwrap();
    assert_eq!(
        r["aggregations"],
        json!({
            "sterms#t": {"meta": {"label": "Types"}, "doc_count_error_upper_bound": 0, "sum_other_doc_count": 3,
                         "buckets": [{"key": "database", "doc_count": 2, "max#m": {"value": 15.0}}]},
            "lterms#c": {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 4, "buckets": [{"key": 5, "doc_count": 1}]},
            "sterms#x": {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0, "buckets": []}
        })
    );
}

#[test]
fn aggregations_only_on_the_first_scroll_page() {
    let e = engine();
    let body = json!({"size": 2, "aggs": {"n": {"value_count": {"field": "count"}}}}).to_string();
    let first = common::scroll_start(&e, "Tools_pr", &body, &[], "1m").unwrap();
    assert_eq!(first["aggregations"], json!({"n": {"value": 5}}));
    let next = common::scroll_next(&e, first["_scroll_id"].as_str().unwrap(), Some("1m")).unwrap();
    assert!(next.get("aggregations").is_none());
}

#[test]
fn errors_and_limits() {
    let e = engine();
    let (status, body) = error(&e, json!({"aggs": {"x": {"foo": {"field": "a"}}}}));
    assert_eq!(status, 400);
    assert_eq!(body["error"]["type"], json!("parsing_exception"));
    assert_eq!(body["error"]["reason"], json!("Could not find aggregator type [foo] in [x]"));

    let (status, body) = error(&e, json!({"aggs": {"d": {"matrix_stats": {"fields": ["count"]}}}}));
    assert_eq!(status, 400);
    assert_eq!(body["error"]["reason"], json!("[matrix_stats] aggregation [d] is not supported by this engine"));

    let (status, body) = error(&e, json!({"aggs": {"t": {"terms": {"field": "item.types.name"}}}}));
    assert_eq!(status, 400);
    assert_eq!(body["error"]["type"], json!("search_phase_execution_exception"));
    assert_eq!(body["error"]["root_cause"][0]["type"], json!("illegal_argument_exception"));
    assert!(body["error"]["root_cause"][0]["reason"]
        .as_str()
        .unwrap()
        .starts_with("Fielddata is disabled on text fields by default. Set fielddata=true on [item.types.name]"));

    // A script reading a field no index maps fails at run time, as ES's does.
    let (status, body) = error(&e, json!({"aggs": {"t": {"terms": {"script": {"source": "doc['a'].value"}}}}}));
    assert_eq!(status, 400);
    assert_eq!(body["error"]["root_cause"][0]["type"], json!("script_exception"));
    assert_eq!(body["error"]["root_cause"][0]["reason"], json!("runtime error"));
    assert_eq!(
        body["error"]["failed_shards"][0]["reason"]["caused_by"]["reason"],
        json!("No field found for [a] in mapping with types []")
    );
    // Aggregations whose scripts do not run here refuse them as a node that disallows them.
    let (status, body) =
        error(&e, json!({"aggs": {"h": {"ip_range": {"script": {"source": "1"}, "ranges": [{"to": "10.0.0.5"}]}}}}));
    assert_eq!(status, 400);
    assert_eq!(body["error"]["root_cause"][0]["reason"], json!("cannot execute scripts using [aggs] context"));

    let (status, body) = error(&e, json!({"aggs": {"a": {"avg": {"field": "item.status"}}}}));
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["root_cause"][0]["reason"],
        json!("Field [item.status] of type [keyword] is not supported for aggregation [avg]")
    );

    let (status, body) =
        error(&e, json!({"aggs": {"a": {"avg": {"field": "count"}, "aggs": {"b": {"max": {"field": "count"}}}}}}));
    assert_eq!(status, 500);
    assert_eq!(body["error"]["reason"], json!("Aggregator [a] of type [avg] cannot accept sub-aggregations"));

    let (status, body) = error(&e, json!({"aggs": {"t": {"terms": {"field": "count", "size": 0}}}}));
    assert_eq!(status, 400);
    assert_eq!(body["error"]["reason"], json!("[size] must be greater than 0. Found [0] in [t]"));

    let (status, body) = error(&e, json!({"aggs": {"t": {"terms": {"field": "count", "sise": 3}}}}));
    assert_eq!(status, 400);
    assert_eq!(body["error"]["reason"], json!("[terms] unknown field [sise], parser not found"));

    let (status, body) = error(&e, json!({"aggs": {"t": {"terms": {"field": "count"}, "avg": {"field": "count"}}}}));
    assert_eq!(status, 400);
    assert_eq!(body["error"]["reason"], json!("Found two aggregation type definitions in [t]: [terms] and [avg]"));

    // Ordering by a sub-aggregation computes it for every candidate: bounded too.
    let many: Vec<(String, Value)> =
        (0..10_001).map(|i| (format!("m{i}"), json!({"k": format!("k{i}"), "n": i}))).collect();
    let big = common::engine_with("aggs-many", "many", None, &many, None);
    let err = common::search(
        &big,
        "many",
        &json!({"size": 0, "aggs": {"k": {"terms": {"field": "k.keyword", "order": {"m": "desc"}},
            "aggs": {"m": {"max": {"field": "n"}}}}}})
        .to_string(),
    )
    .expect_err("over the bucket limit");
    assert_eq!(err.to_json()["error"]["root_cause"][0]["type"], json!("too_many_buckets_exception"));

    // The bucket limit refuses before the buckets are built.
    let (status, body) = error(&e, json!({"aggs": {"h": {"histogram": {"field": "count", "interval": 0.001}}}}));
    assert_eq!(status, 500);
    assert_eq!(body["error"]["root_cause"][0]["type"], json!("too_many_buckets_exception"));
    assert!(body["error"]["root_cause"][0]["reason"]
        .as_str()
        .unwrap()
        .starts_with("Trying to create too many buckets. Must be less than or equal to: [10000] but was ["));
    assert_eq!(body["error"]["root_cause"][0]["max_buckets"], json!(10000));
}

/// An index where `n` is a long and one where it is a double, with dates and flags.
fn typed_engine() -> Engine {
    let e = common::engine_with(
        "aggs-typed",
        "longs",
        None,
        &[
            ("l1", json!({"n": 1, "when": "2020-01-01", "flag": true, "tag": "x"})),
            ("l2", json!({"n": 2, "when": "2020-01-02", "flag": false, "tag": "y"})),
            ("l3", json!({"n": 3, "when": "2020-01-02", "tag": "z"})),
        ],
        None,
    );
    let bulk = common::bulk(&[("d1", json!({"n": 1.0})), ("d2", json!({"n": 2.5}))]);
    let mapping = json!({"properties": {"n": {"type": "double"}}});
    let opts = metagate::LoadOptions { mapping: Some(mapping), ..Default::default() };
    e.load("doubles", bulk.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    e
}

fn typed_aggs(e: &Engine, index: &str, aggs: Value) -> Result<Value, Value> {
    let body = json!({"size": 0, "aggs": aggs}).to_string();
    let params = vec![("typed_keys".to_string(), "true".to_string())];
    common::search_with(e, index, &body, &params).map(|r| r["aggregations"].clone()).map_err(|e| e.to_json())
}

#[test]
fn terms_keys_are_typed_as_es_types_them() {
    let e = typed_engine();
    // A long in one index and a double in another: equal values share a double bucket.
    assert_eq!(
        typed_aggs(&e, "longs,doubles", json!({"t": {"terms": {"field": "n", "order": {"_key": "asc"}}}})).unwrap(),
        json!({"dterms#t": {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0, "buckets": [
            {"key": 1.0, "doc_count": 2}, {"key": 2.0, "doc_count": 1}, {"key": 2.5, "doc_count": 1}, {"key": 3.0, "doc_count": 1}]}})
    );
    // `value_type` types the keys of a field no index maps (the `missing` value's).
    let unmapped = |value_type: &str, missing: Value| {
        typed_aggs(
            &e,
            "longs",
            json!({"t": {"terms": {"field": "nope", "value_type": value_type, "missing": missing}}}),
        )
        .unwrap()
    };
    assert_eq!(
        unmapped("long", json!(5)),
        json!({"lterms#t": {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0, "buckets": [{"key": 5, "doc_count": 3}]}})
    );
    assert_eq!(
        unmapped("boolean", json!(true)),
        json!({"lterms#t": {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0,
               "buckets": [{"key": 1, "key_as_string": "true", "doc_count": 3}]}})
    );
    assert_eq!(
        unmapped("date", json!("2020-01-01")),
        json!({"lterms#t": {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0,
               "buckets": [{"key": 1577836800000i64, "key_as_string": "2020-01-01T00:00:00.000Z", "doc_count": 3}]}})
    );
    assert_eq!(
        unmapped("double", json!("1.5")),
        json!({"dterms#t": {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0, "buckets": [{"key": 1.5, "doc_count": 3}]}})
    );
    assert_eq!(
        typed_aggs(&e, "longs", json!({"t": {"terms": {"field": "nope", "value_type": "long"}}})).unwrap(),
        json!({"sterms#t": {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0, "buckets": []}})
    );
}

#[test]
fn include_and_exclude_read_values_in_the_fields_type() {
    let e = typed_engine();
    let keys = |aggs: Value| -> Vec<Value> {
        let a = typed_aggs(&e, "longs", json!({"t": aggs})).unwrap();
        let (_, t) = a.as_object().unwrap().iter().next().unwrap();
        t["buckets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.get("key_as_string").cloned().unwrap_or(b["key"].clone()))
            .collect()
    };
    assert_eq!(
        keys(json!({"terms": {"field": "n", "include": [1, "3"], "order": {"_key": "asc"}}})),
        [json!(1), json!(3)]
    );
    assert_eq!(
        keys(json!({"terms": {"field": "n", "exclude": ["2"], "order": {"_key": "asc"}}})),
        [json!(1), json!(3)]
    );
    assert_eq!(
        keys(json!({"terms": {"field": "when", "include": ["2020-01-02"]}})),
        [json!("2020-01-02T00:00:00.000Z")]
    );
    assert_eq!(keys(json!({"terms": {"field": "flag", "exclude": ["false"]}})), [json!("true")]);
    // Partitions: each term in exactly one.
    let mut seen = Vec::new();
    for p in 0..4 {
        seen.extend(keys(json!({"terms": {"field": "tag.keyword", "include": {"partition": p, "num_partitions": 4}}})));
        seen.extend(keys(json!({"terms": {"field": "n", "include": {"partition": p, "num_partitions": 4}}})));
    }
    seen.sort_by_key(|v| v.to_string());
    assert_eq!(seen, [json!("x"), json!("y"), json!("z"), json!(1), json!(2), json!(3)]);
    // Errors, as ES words them.
    let err = typed_aggs(&e, "longs", json!({"t": {"terms": {"field": "n", "include": "1.*"}}})).unwrap_err();
    assert_eq!(err["status"], 500);
    assert_eq!(
        err["error"]["root_cause"][0],
        json!({"type": "aggregation_execution_exception", "reason": "Aggregation [t] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of numeric values for include/exclude clauses used to filter numeric fields"})
    );
    let err = typed_aggs(&e, "longs", json!({"t": {"terms": {"field": "n", "include": ["abc"]}}})).unwrap_err();
    assert_eq!(
        err["error"]["root_cause"][0],
        json!({"type": "number_format_exception", "reason": "For input string: \"abc\""})
    );
    for (include, reason) in [
        (json!({"partition": 4, "num_partitions": 4}), "Partition must be >=0 and < numPartition which is 4"),
        (json!({"num_partitions": 4}), "Missing [partition] parameter for partition-based include"),
        (json!({"partition": 0}), "Missing [num_partitions] parameter for partition-based include"),
    ] {
        let err = typed_aggs(&e, "longs", json!({"t": {"terms": {"field": "n", "include": include}}})).unwrap_err();
        assert_eq!(err["error"]["reason"], json!(reason));
    }
    let err = typed_aggs(
        &e,
        "longs",
        json!({"t": {"terms": {"field": "n", "include": {"partition": 0, "num_partitions": 2}, "exclude": [1]}}}),
    )
    .unwrap_err();
    assert_eq!(err["error"]["reason"], json!("Cannot specify any excludes when using a partition-based include"));
}

/// Keyword doc values take their terms from the field's dictionary when the field is
/// indexed, and from a list of their own when it is not (`"index": false`): both give the
/// same buckets and sort order.
#[test]
fn keyword_doc_values_with_and_without_an_index() {
    let e = Engine::open_or_create(&common::temp_file("aggs-unindexed")).unwrap();
    let values = ["delta", "alpha", "charlie", "alpha", "bravo", "delta", "delta"];
    let docs: Vec<(String, Value)> =
        values.iter().enumerate().map(|(i, v)| (format!("d{i}"), json!({"seen": v, "stored": v}))).collect();
    let mapping = json!({"properties": {"seen": {"type": "keyword"}, "stored": {"type": "keyword", "index": false}}});
    let opts = metagate::LoadOptions { mapping: Some(mapping), ..Default::default() };
    e.load("kw", common::bulk(&docs).as_bytes(), &opts, &mut |_, _| {}).unwrap();
    let buckets = json!([
        {"key": "delta", "doc_count": 3}, {"key": "alpha", "doc_count": 2},
        {"key": "bravo", "doc_count": 1}, {"key": "charlie", "doc_count": 1}
    ]);
    for field in ["seen", "stored"] {
        let res = common::search(
            &e,
            "kw",
            &json!({"size": 3, "sort": [{field: "desc"}, "_doc"], "aggs": {"t": {"terms": {"field": field}}}})
                .to_string(),
        )
        .unwrap();
        assert_eq!(res["aggregations"]["t"]["buckets"], buckets, "{field}");
        let sorted: Vec<&Value> = res["hits"]["hits"].as_array().unwrap().iter().map(|h| &h["sort"][0]).collect();
        assert_eq!(sorted, [&json!("delta"); 3], "{field}");
    }
}

/// An `order` names a sub-aggregation by its name alone: a sibling whose name ends in
/// `#` and that name is another aggregation, with or without `typed_keys`.
#[test]
fn order_by_a_sub_aggregation_reads_the_one_it_names() {
    let e = engine();
    let terms = |order: &str| {
        json!({"t": {"terms": {"field": "item.types.name.aggregate", "size": 3, "order": {order: "asc"}},
                     "aggs": {"x#m": {"min": {"field": "count"}}, "m": {"max": {"field": "count"}}}}})
    };
    let keys = |r: &Value| -> Vec<Value> {
        let buckets = r.get("t").or_else(|| r.get("sterms#t")).unwrap()["buckets"].as_array().unwrap().clone();
        buckets.iter().map(|b| b["key"].clone()).collect()
    };
    let by_max = keys(&aggs(&e, None, terms("m")));
    let by_min = keys(&aggs(&e, None, terms("x#m")));
    assert_ne!(by_max, by_min, "the data orders differently by min and by max");
    let body = json!({"size": 0, "aggs": terms("m")}).to_string();
    let typed = common::search_with(&e, "Tools_pr", &body, &[("typed_keys".into(), "true".into())]).unwrap();
    assert_eq!(keys(&typed["aggregations"]), by_max);
}
