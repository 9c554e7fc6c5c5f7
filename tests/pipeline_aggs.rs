//! Pipeline aggregations against what ES 6.8 answers: the examples of the 6.8 reference
//! (its `sales` index: seven sales over three months), the REST tests of
//! `search.aggregation/250_moving_fn.yml` and `80_typed_keys.yml` that name pipelines,
//! and ES's validation texts.

mod common;

use common::mapped_index::{index, Index};
use serde_json::{json, Value};

/// The `sales` index of ES's documentation tests.
fn sales() -> Index {
    let body = json!({"mappings": {"_doc": {"properties": {
        "date": {"type": "date", "format": "yyyy/MM/dd HH:mm:ss"},
        "price": {"type": "long"}, "promoted": {"type": "boolean"},
        "rating": {"type": "long"}, "type": {"type": "keyword"}
    }}}});
    let docs = [
        ("1", json!({"date": "2015/01/01 00:00:00", "price": 200, "promoted": true, "rating": 1, "type": "hat"})),
        ("2", json!({"date": "2015/01/01 00:00:00", "price": 200, "promoted": true, "rating": 1, "type": "t-shirt"})),
        ("3", json!({"date": "2015/01/01 00:00:00", "price": 150, "promoted": true, "rating": 5, "type": "bag"})),
        ("4", json!({"date": "2015/02/01 00:00:00", "price": 50, "promoted": false, "rating": 1, "type": "hat"})),
        ("5", json!({"date": "2015/02/01 00:00:00", "price": 10, "promoted": true, "rating": 4, "type": "t-shirt"})),
        ("6", json!({"date": "2015/03/01 00:00:00", "price": 200, "promoted": true, "rating": 1, "type": "hat"})),
        ("7", json!({"date": "2015/03/01 00:00:00", "price": 175, "promoted": false, "rating": 2, "type": "t-shirt"})),
    ];
    index("pipeline-sales", body, &docs)
}

/// `sales_per_month` with the monthly `sales` sum and `extra` sub-aggregations.
fn monthly(extra: Value) -> Value {
    let mut subs = json!({"sales": {"sum": {"field": "price"}}});
    for (k, v) in extra.as_object().unwrap() {
        subs[k] = v.clone();
    }
    json!({"sales_per_month": {"date_histogram": {"field": "date", "interval": "month"}, "aggs": subs}})
}

fn aggs(ix: &Index, aggs: Value) -> Value {
    ix.search(json!({"size": 0, "aggs": aggs}))["aggregations"].clone()
}

/// The answer of a failing search: status, the root cause's type and reason.
fn failure(ix: &Index, aggs: Value) -> (u16, String, String) {
    let (status, v) = ix.send("POST", "/test/_search", json!({"size": 0, "aggs": aggs}));
    let root = &v["error"]["root_cause"][0];
    (status, root["type"].as_str().unwrap_or_default().into(), root["reason"].as_str().unwrap_or_default().into())
}

/// The values of pipeline `name` in each monthly bucket (`None` where it is absent).
fn per_bucket(v: &Value, name: &str) -> Vec<Option<Value>> {
    v["sales_per_month"]["buckets"].as_array().unwrap().iter().map(|b| b.get(name).cloned()).collect()
}

const MONTHS: [&str; 3] = ["2015/01/01 00:00:00", "2015/02/01 00:00:00", "2015/03/01 00:00:00"];

#[test]
fn derivative_first_and_second_order() {
    let ix = sales();
    let v = aggs(
        &ix,
        monthly(json!({
            "sales_deriv": {"derivative": {"buckets_path": "sales"}},
            "sales_2nd_deriv": {"derivative": {"buckets_path": "sales_deriv"}}
        })),
    );
    assert_eq!(
        v["sales_per_month"]["buckets"],
        json!([
            {"key_as_string": MONTHS[0], "key": 1420070400000i64, "doc_count": 3, "sales": {"value": 550.0}},
            {"key_as_string": MONTHS[1], "key": 1422748800000i64, "doc_count": 2, "sales": {"value": 60.0},
             "sales_deriv": {"value": -490.0}},
            {"key_as_string": MONTHS[2], "key": 1425168000000i64, "doc_count": 2, "sales": {"value": 375.0},
             "sales_deriv": {"value": 315.0}, "sales_2nd_deriv": {"value": 805.0}}
        ])
    );
}

#[test]
fn derivative_units_give_a_normalized_value() {
    let ix = sales();
    let v = aggs(&ix, monthly(json!({"sales_deriv": {"derivative": {"buckets_path": "sales", "unit": "day"}}})));
    assert_eq!(
        per_bucket(&v, "sales_deriv"),
        [
            None,
            // ES divides by the distance from the previous bucket in units: January has
            // 31 days, February 28 (the reference's sample swaps the two divisors; its
            // response is not one of the documentation's tested ones).
            Some(json!({"value": -490.0, "normalized_value": -15.806451612903226})),
            Some(json!({"value": 315.0, "normalized_value": 11.25}))
        ]
    );
}

#[test]
fn derivative_format_adds_value_as_string() {
    let ix = sales();
    let v = aggs(&ix, monthly(json!({"d": {"derivative": {"buckets_path": "sales", "format": "$#,##0.00"}}})));
    assert_eq!(per_bucket(&v, "d")[1], Some(json!({"value": -490.0, "value_as_string": "-$490.00"})));
}

#[test]
fn sibling_bucket_metrics() {
    let ix = sales();
    let mut all = monthly(json!({}));
    for (name, def) in [
        ("avg_monthly_sales", json!({"avg_bucket": {"buckets_path": "sales_per_month>sales"}})),
        ("max_monthly_sales", json!({"max_bucket": {"buckets_path": "sales_per_month>sales"}})),
        ("min_monthly_sales", json!({"min_bucket": {"buckets_path": "sales_per_month>sales"}})),
        ("sum_monthly_sales", json!({"sum_bucket": {"buckets_path": "sales_per_month>sales"}})),
        ("stats_monthly_sales", json!({"stats_bucket": {"buckets_path": "sales_per_month>sales"}})),
        ("ext_monthly_sales", json!({"extended_stats_bucket": {"buckets_path": "sales_per_month>sales"}})),
        (
            "percentiles_monthly_sales",
            json!({"percentiles_bucket": {"buckets_path": "sales_per_month>sales", "percents": [25.0, 50.0, 75.0]}}),
        ),
    ] {
        all[name] = def;
    }
    let v = aggs(&ix, all);
    assert_eq!(v["avg_monthly_sales"], json!({"value": 328.3333333333333}));
    assert_eq!(v["max_monthly_sales"], json!({"value": 550.0, "keys": [MONTHS[0]]}));
    assert_eq!(v["min_monthly_sales"], json!({"value": 60.0, "keys": [MONTHS[1]]}));
    assert_eq!(v["sum_monthly_sales"], json!({"value": 985.0}));
    assert_eq!(
        v["stats_monthly_sales"],
        json!({"count": 3, "min": 60.0, "max": 550.0, "avg": 328.3333333333333, "sum": 985.0})
    );
    assert_eq!(
        v["ext_monthly_sales"],
        json!({"count": 3, "min": 60.0, "max": 550.0, "avg": 328.3333333333333, "sum": 985.0,
               "sum_of_squares": 446725.0, "variance": 41105.55555555556, "std_deviation": 202.74505063146563,
               "std_deviation_bounds": {"upper": 733.8234345962646, "lower": -77.15676792959795}})
    );
    assert_eq!(v["percentiles_monthly_sales"], json!({"values": {"25.0": 375.0, "50.0": 375.0, "75.0": 550.0}}));
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys[0], "sales_per_month", "siblings come after the aggregations they read");
}

#[test]
fn sibling_metrics_of_no_buckets_are_null() {
    let ix = sales();
    let mut all = json!({"h": {"histogram": {"field": "price", "interval": 10, "min_doc_count": 1},
                              "aggs": {"s": {"sum": {"field": "price"}}}}});
    all["mx"] = json!({"max_bucket": {"buckets_path": "h>s"}});
    all["av"] = json!({"avg_bucket": {"buckets_path": "h>s"}});
    all["st"] = json!({"stats_bucket": {"buckets_path": "h>s"}});
    let v = ix.search(json!({"size": 0, "query": {"term": {"type": "nothing"}}, "aggs": all}))["aggregations"].clone();
    assert_eq!(v["mx"], json!({"value": null, "keys": []}));
    assert_eq!(v["av"], json!({"value": null}));
    assert_eq!(v["st"], json!({"count": 0, "min": null, "max": null, "avg": null, "sum": 0.0}));
}

#[test]
fn percentiles_bucket_unkeyed_and_formatted() {
    let ix = sales();
    let mut all = monthly(json!({}));
    all["p"] = json!({"percentiles_bucket": {"buckets_path": "sales_per_month>sales", "percents": [50], "keyed": false, "format": "0.0"}});
    let v = aggs(&ix, all);
    assert_eq!(v["p"], json!({"values": [{"key": 50.0, "value": 375.0, "value_as_string": "375.0"}]}));
}

#[test]
fn cumulative_sum() {
    let ix = sales();
    let v = aggs(&ix, monthly(json!({"cumulative_sales": {"cumulative_sum": {"buckets_path": "sales"}}})));
    assert_eq!(
        per_bucket(&v, "cumulative_sales"),
        [Some(json!({"value": 550.0})), Some(json!({"value": 610.0})), Some(json!({"value": 985.0}))]
    );
}

#[test]
fn serial_diff_with_lag() {
    let ix = sales();
    let v = aggs(
        &ix,
        monthly(json!({"d1": {"serial_diff": {"buckets_path": "sales"}},
                                     "d2": {"serial_diff": {"buckets_path": "sales", "lag": 2}}})),
    );
    assert_eq!(per_bucket(&v, "d1"), [None, Some(json!({"value": -490.0})), Some(json!({"value": 315.0}))]);
    assert_eq!(per_bucket(&v, "d2"), [None, None, Some(json!({"value": -175.0}))]);
}

#[test]
fn bucket_script_over_a_filter_and_a_metric() {
    let ix = sales();
    let v = aggs(
        &ix,
        monthly(json!({
            "t-shirts": {"filter": {"term": {"type": "t-shirt"}}, "aggs": {"sales": {"sum": {"field": "price"}}}},
            "t-shirt-percentage": {"bucket_script": {
                "buckets_path": {"tShirtSales": "t-shirts>sales", "totalSales": "sales"},
                "script": "params.tShirtSales / params.totalSales * 100"
            }}
        })),
    );
    assert_eq!(
        per_bucket(&v, "t-shirt-percentage"),
        [
            Some(json!({"value": 36.36363636363637})),
            Some(json!({"value": 16.666666666666664})),
            Some(json!({"value": 46.666666666666664}))
        ]
    );
}

#[test]
fn bucket_selector_keeps_what_the_script_accepts() {
    let ix = sales();
    let v = aggs(
        &ix,
        monthly(json!({"sales_bucket_filter": {"bucket_selector": {
            "buckets_path": {"totalSales": "sales"}, "script": "params.totalSales > 200"
        }}})),
    );
    let keys: Vec<&str> = v["sales_per_month"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["key_as_string"].as_str().unwrap())
        .collect();
    assert_eq!(keys, [MONTHS[0], MONTHS[2]]);
}

#[test]
fn bucket_selector_sees_a_skipped_gap_as_nan() {
    let ix = sales();
    // Prices in buckets of 50: the 100 bucket is empty, its `avg` a gap the selector
    // reads as NaN (no comparison holds), as ES passes Double.NaN.
    let v = aggs(
        &ix,
        json!({"h": {"histogram": {"field": "price", "interval": 50}, "aggs": {
            "a": {"avg": {"field": "rating"}},
            "keep": {"bucket_selector": {"buckets_path": {"r": "a"}, "script": "params.r < 2 || params.r >= 2"}}
        }}}),
    );
    let keys: Vec<f64> = v["h"]["buckets"].as_array().unwrap().iter().map(|b| b["key"].as_f64().unwrap()).collect();
    assert_eq!(keys, [0.0, 50.0, 150.0, 200.0]);
}

#[test]
fn bucket_sort_orders_and_pages() {
    let ix = sales();
    let v = aggs(
        &ix,
        json!({"sales_per_month": {"date_histogram": {"field": "date", "interval": "month"}, "aggs": {
            "total_sales": {"sum": {"field": "price"}},
            "sales_bucket_sort": {"bucket_sort": {"sort": [{"total_sales": {"order": "desc"}}], "size": 3}}
        }}}),
    );
    let keys: Vec<&str> = v["sales_per_month"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["key_as_string"].as_str().unwrap())
        .collect();
    assert_eq!(keys, [MONTHS[0], MONTHS[2], MONTHS[1]]);
    let v = aggs(
        &ix,
        json!({"sales_per_month": {"date_histogram": {"field": "date", "interval": "month"}, "aggs": {
            "bucket_truncate": {"bucket_sort": {"from": 1, "size": 1}}
        }}}),
    );
    assert_eq!(
        v["sales_per_month"]["buckets"],
        json!([{"key_as_string": MONTHS[1], "key": 1422748800000i64, "doc_count": 2}])
    );
}

#[test]
fn moving_avg_models() {
    let ix = sales();
    let v = aggs(
        &ix,
        monthly(json!({"the_movavg": {"moving_avg": {"buckets_path": "sales", "window": 30, "model": "simple"}}})),
    );
    assert_eq!(per_bucket(&v, "the_movavg"), [None, Some(json!({"value": 550.0})), Some(json!({"value": 305.0}))]);
    let v = aggs(&ix, monthly(json!({"m": {"moving_avg": {"buckets_path": "sales", "model": "linear"}}})));
    // (550·1 + 60·2) / (1 + 1 + 2): ES's linear weights start their total at 1.
    assert_eq!(per_bucket(&v, "m")[2], Some(json!({"value": 167.5})));
    let v = aggs(
        &ix,
        monthly(json!({"m": {"moving_avg": {"buckets_path": "sales", "model": "ewma", "settings": {"alpha": 0.5}}}})),
    );
    assert_eq!(per_bucket(&v, "m")[2], Some(json!({"value": 305.0})));
    let v = aggs(
        &ix,
        monthly(
            json!({"m": {"moving_avg": {"buckets_path": "sales", "model": "holt", "settings": {"alpha": 0.5, "beta": 0.5}}}}),
        ),
    );
    // ES 6.8's Holt model smooths its first value from zero: s1 = 0.5·550, then s2 = 60, b = 0.
    assert_eq!(per_bucket(&v, "m")[1], Some(json!({"value": 275.0})));
    assert_eq!(per_bucket(&v, "m")[2], Some(json!({"value": 60.0})));
}

#[test]
fn moving_avg_is_deprecated_and_minimize_refused() {
    let ix = sales();
    let (status, _, reason) = failure(
        &ix,
        monthly(json!({"m": {"moving_avg": {"buckets_path": "sales", "model": "holt", "minimize": true}}})),
    );
    assert_eq!(status, 400);
    assert!(reason.contains("[minimize]") && reason.contains("simulated annealing"), "{reason}");
    let (_, _, reason) = failure(
        &ix,
        monthly(json!({"m": {"moving_avg": {"buckets_path": "sales", "model": "simple", "minimize": true}}})),
    );
    assert_eq!(reason, "The [simple] model cannot be minimized for aggregation [m]");
}

#[test]
fn moving_avg_predicts_on_a_histogram() {
    let ix = sales();
    let v = aggs(
        &ix,
        json!({"h": {"histogram": {"field": "rating", "interval": 2}, "aggs": {
            "c": {"sum": {"field": "price"}},
            "m": {"moving_avg": {"buckets_path": "c", "predict": 2}}
        }}}),
    );
    // Ratings 0-1: 650, 2-3: 175, 4-5: 160; two predictions after the last bucket.
    let buckets = v["h"]["buckets"].as_array().unwrap();
    assert_eq!(buckets.len(), 5);
    assert_eq!(buckets[3], json!({"key": 6.0, "doc_count": 0, "m": {"value": 328.3333333333333}}));
    assert_eq!(buckets[4], json!({"key": 8.0, "doc_count": 0, "m": {"value": 328.3333333333333}}));
}

#[test]
fn moving_avg_predicts_months_after_a_date_histogram() {
    let ix = sales();
    let v = aggs(&ix, monthly(json!({"m": {"moving_avg": {"buckets_path": "sales", "window": 30, "predict": 2}}})));
    let buckets = v["sales_per_month"]["buckets"].as_array().unwrap();
    assert_eq!(buckets.len(), 5);
    assert_eq!(
        buckets[3],
        json!({"key_as_string": "2015/04/01 00:00:00", "key": 1427846400000i64, "doc_count": 0, "m": {"value": 328.3333333333333}})
    );
    assert_eq!(buckets[4]["key_as_string"], json!("2015/05/01 00:00:00"));
}

#[test]
fn moving_fn_runs_moving_functions_over_the_window() {
    let ix = sales();
    let v = aggs(
        &ix,
        monthly(json!({
            "avg": {"moving_fn": {"buckets_path": "sales", "window": 10, "script": "MovingFunctions.unweightedAvg(values)"}},
            "max": {"moving_fn": {"buckets_path": "sales", "window": 1, "script": "MovingFunctions.max(values)"}},
            "sum": {"moving_fn": {"buckets_path": "sales", "window": 2, "script": "MovingFunctions.sum(values)"}},
            "own": {"moving_fn": {"buckets_path": "sales", "window": 2, "script": {
                "source": "double t = 0; for (double x : values) { t += x * params.k } return t;", "params": {"k": 2}}}}
        })),
    );
    assert_eq!(
        per_bucket(&v, "avg"),
        [Some(json!({"value": null})), Some(json!({"value": 550.0})), Some(json!({"value": 305.0}))]
    );
    assert_eq!(
        per_bucket(&v, "max"),
        [Some(json!({"value": null})), Some(json!({"value": 550.0})), Some(json!({"value": 60.0}))]
    );
    assert_eq!(
        per_bucket(&v, "sum"),
        [Some(json!({"value": 0.0})), Some(json!({"value": 550.0})), Some(json!({"value": 610.0}))]
    );
    assert_eq!(per_bucket(&v, "own")[2], Some(json!({"value": 1220.0})));
}

/// `250_moving_fn.yml`.
#[test]
fn rest_moving_fn_bad_window() {
    let ix = sales();
    for aggs in [
        monthly(
            json!({"the_mov_fn": {"moving_fn": {"buckets_path": "sales", "window": -1, "script": "MovingFunctions.windowMax(values)"}}}),
        ),
        json!({"the_avg": {"avg": {"field": "price"}},
               "the_mov_fn": {"moving_fn": {"buckets_path": "the_avg", "window": -1, "script": "MovingFunctions.windowMax(values)"}}}),
    ] {
        let (status, _, reason) = failure(&ix, aggs);
        assert_eq!(status, 400);
        assert_eq!(reason, "[window] must be a positive, non-zero integer.");
    }
}

/// `80_typed_keys.yml`: the pipelines' type names.
#[test]
fn rest_typed_keys_of_pipelines() {
    let ix = sales();
    let v = ix.search(json!({"size": 0, "aggregations": {
        "test_created_histogram": {"date_histogram": {"field": "date", "interval": "month"}, "aggregations": {
            "test_sum": {"sum": {"field": "price"}},
            "test_moving_avg": {"moving_avg": {"buckets_path": "test_sum"}},
            "test_deriv": {"derivative": {"buckets_path": "test_sum"}}
        }},
        "test_max_bucket": {"max_bucket": {"buckets_path": "test_created_histogram>test_sum"}},
        "test_stats_bucket": {"stats_bucket": {"buckets_path": "test_created_histogram>test_sum"}}
    }}));
    assert!(v["aggregations"]["test_created_histogram"].is_object());
    let (_, v) = ix.send(
        "POST",
        "/test/_search?typed_keys=true",
        json!({"size": 0, "aggregations": {
            "test_created_histogram": {"date_histogram": {"field": "date", "interval": "month"}, "aggregations": {
                "test_sum": {"sum": {"field": "price"}},
                "test_moving_avg": {"moving_avg": {"buckets_path": "test_sum"}},
                "test_deriv": {"derivative": {"buckets_path": "test_sum"}}
            }},
            "test_max_bucket": {"max_bucket": {"buckets_path": "test_created_histogram>test_sum"}},
            "test_stats_bucket": {"stats_bucket": {"buckets_path": "test_created_histogram>test_sum"}}
        }}),
    );
    let a = &v["aggregations"];
    let h = &a["date_histogram#test_created_histogram"]["buckets"];
    assert!(h[0]["sum#test_sum"].is_object());
    assert!(h[1]["simple_value#test_moving_avg"].is_object());
    assert!(h[1]["derivative#test_deriv"].is_object());
    assert_eq!(a["bucket_metric_value#test_max_bucket"], json!({"value": 550.0, "keys": [MONTHS[0]]}));
    assert!(a["stats_bucket#test_stats_bucket"].is_object());
}

#[test]
fn validation_errors_name_what_es_names() {
    let ix = sales();
    let cases = [
        (
            json!({"t": {"terms": {"field": "type"}, "aggs": {"d": {"derivative": {"buckets_path": "_count"}}}}}),
            (500, "illegal_state_exception", "derivative aggregation [d] must have a histogram, date_histogram or auto_date_histogram as parent"),
        ),
        (
            json!({"h": {"histogram": {"field": "price", "interval": 10, "min_doc_count": 1}, "aggs": {"c": {"cumulative_sum": {"buckets_path": "_count"}}}}}),
            (500, "illegal_state_exception", "parent histogram of cumulative_sum aggregation [c] must have min_doc_count of 0"),
        ),
        (
            monthly(json!({"d": {"derivative": {"buckets_path": "nothing"}}})),
            (400, "illegal_argument_exception", "No aggregation found for path [nothing]"),
        ),
        (
            json!({"m": {"max_bucket": {"buckets_path": "sales_per_month>nothing"}},
                   "sales_per_month": {"date_histogram": {"field": "date", "interval": "month"}}}),
            (400, "illegal_argument_exception", "No aggregation [nothing] found for path [sales_per_month>nothing]"),
        ),
        (
            json!({"a": {"avg": {"field": "price"}}, "m": {"max_bucket": {"buckets_path": "a"}}}),
            (400, "illegal_argument_exception", "The first aggregation in buckets_path must be a multi-bucket aggregation for aggregation [m] found :org.elasticsearch.search.aggregations.metrics.AvgAggregationBuilder for buckets path: a"),
        ),
        (
            monthly(json!({"a": {"derivative": {"buckets_path": "b"}}, "b": {"derivative": {"buckets_path": "a"}}})),
            (400, "illegal_argument_exception", "Cyclical dependency found with pipeline aggregator [a]"),
        ),
        (
            monthly(json!({"s": {"bucket_sort": {}}})),
            (500, "illegal_state_exception", "[s] is configured to perform nothing. Please set either of [sort, size, from] to use bucket_sort"),
        ),
    ];
    for (aggs, (status, kind, reason)) in cases {
        assert_eq!(failure(&ix, aggs.clone()), (status, kind.to_string(), reason.to_string()), "{aggs}");
    }
}

#[test]
fn parse_errors() {
    let ix = sales();
    let (status, kind, reason) = failure(&ix, monthly(json!({"d": {"derivative": {}}})));
    assert_eq!((status, kind.as_str()), (400, "parsing_exception"));
    assert_eq!(reason, "Missing required field [buckets_path] for derivative aggregation [d]");
    let (_, _, reason) =
        failure(&ix, monthly(json!({"d": {"derivative": {"buckets_path": "sales", "gap_policy": "x"}}})));
    assert_eq!(reason, "Invalid gap policy: [x], accepted values: [insert_zeros, skip]");
    let (_, _, reason) = failure(
        &ix,
        monthly(json!({"d": {"derivative": {"buckets_path": "sales"}, "aggs": {"x": {"avg": {"field": "price"}}}}})),
    );
    assert_eq!(reason, "Aggregation [d] cannot define sub-aggregations");
    // SerialDiffPipelineAggregationBuilder's parser calls itself a derivative.
    let (_, _, reason) = failure(&ix, monthly(json!({"d": {"serial_diff": {"lag": 1}}})));
    assert_eq!(reason, "Missing required field [buckets_path] for derivative aggregation [d]");
    let (_, _, reason) = failure(&ix, monthly(json!({"d": {"serial_diff": {"buckets_path": "sales", "lag": 0}}})));
    assert_eq!(reason, "Lag must be a positive, non-zero integer.  Value supplied was0 in [d]: [lag].");
    let (_, _, reason) = failure(&ix, json!({"m": {"max_bucket": {"buckets_path": "a>b", "sigma": 1}}}));
    assert_eq!(reason, "Unexpected token VALUE_NUMBER [sigma] in [m]");
    let (_, _, reason) = failure(&ix, json!({"m": {"bucket_script": {"buckets_path": {"a": "b"}}}}));
    assert_eq!(reason, "Missing required field [script] for series_arithmetic aggregation [m]");
}

#[test]
fn a_path_to_a_multi_value_metric_must_name_its_value() {
    let ix = sales();
    let mut all = json!({"sales_per_month": {"date_histogram": {"field": "date", "interval": "month"},
                                             "aggs": {"st": {"stats": {"field": "price"}}}}});
    all["m"] = json!({"max_bucket": {"buckets_path": "sales_per_month>st.max"}});
    assert_eq!(aggs(&ix, all.clone())["m"], json!({"value": 200.0, "keys": [MONTHS[0], MONTHS[2]]}));
    all["m"] = json!({"max_bucket": {"buckets_path": "sales_per_month>st"}});
    let (status, kind, reason) = failure(&ix, all);
    assert_eq!((status, kind.as_str()), (500, "aggregation_execution_exception"));
    assert!(
        reason.starts_with(
            "buckets_path must reference either a number value or a single value numeric metric aggregation, got: "
        ),
        "{reason}"
    );
}

#[test]
fn gaps_are_skipped_or_zeroed() {
    let ix = sales();
    // Prices 0-49 (bag 150? no): buckets of 50 from 0 to 200, several empty.
    let v = aggs(
        &ix,
        json!({"h": {"histogram": {"field": "price", "interval": 50}, "aggs": {
            "a": {"avg": {"field": "rating"}},
            "skip": {"derivative": {"buckets_path": "a"}},
            "zeros": {"derivative": {"buckets_path": "a", "gap_policy": "insert_zeros"}}
        }}}),
    );
    let b = v["h"]["buckets"].as_array().unwrap();
    let keys: Vec<f64> = b.iter().map(|x| x["key"].as_f64().unwrap()).collect();
    assert_eq!(keys, [0.0, 50.0, 100.0, 150.0, 200.0]);
    // avg ratings: 0: 4, 50: 1, 100: none, 150: (5+2)/2 = 3.5, 200: 1.
    assert_eq!(b[1]["skip"], json!({"value": -3.0}));
    assert_eq!(b[2].get("skip"), Some(&json!({"value": null})), "a skipped gap gives NaN, rendered null");
    assert_eq!(b[3].get("skip"), Some(&json!({"value": null})));
    assert_eq!(b[4]["skip"], json!({"value": -2.5}));
    assert_eq!(b[2]["zeros"], json!({"value": -1.0}));
    assert_eq!(b[3]["zeros"], json!({"value": 3.5}));
}

#[test]
fn siblings_inside_buckets_and_single_buckets_with_meta() {
    let ix = sales();
    let v = aggs(
        &ix,
        json!({
            "types": {"terms": {"field": "type", "order": {"_key": "asc"}}, "aggs": {
                "months": {"date_histogram": {"field": "date", "interval": "month"}, "aggs": {"s": {"sum": {"field": "price"}}}},
                "best": {"max_bucket": {"buckets_path": "months>s"}, "meta": {"why": "peak"}},
                "by_sales": {"bucket_sort": {"sort": [{"best": "desc"}]}}
            }},
            "promoted": {"filter": {"term": {"promoted": true}}, "aggs": {
                "months": {"date_histogram": {"field": "date", "interval": "month"}},
                "busiest": {"max_bucket": {"buckets_path": "months>_count"}}
            }}
        }),
    );
    let types: Vec<(&str, &Value)> =
        v["types"]["buckets"].as_array().unwrap().iter().map(|b| (b["key"].as_str().unwrap(), &b["best"])).collect();
    // hat: 200, 50, 200 by month; t-shirt: 200, 10, 175; bag: 150 — sorted by their peak,
    // ties in the terms order.
    assert_eq!(
        types,
        [
            ("hat", &json!({"meta": {"why": "peak"}, "value": 200.0, "keys": [MONTHS[0], MONTHS[2]]})),
            ("t-shirt", &json!({"meta": {"why": "peak"}, "value": 200.0, "keys": [MONTHS[0]]})),
            ("bag", &json!({"meta": {"why": "peak"}, "value": 150.0, "keys": [MONTHS[0]]})),
        ]
    );
    assert_eq!(v["promoted"]["busiest"], json!({"value": 3.0, "keys": [MONTHS[0]]}));
}

/// `80_typed_keys.yml` expects moving_avg's deprecation warning.
#[test]
fn moving_avg_warns_it_is_deprecated() {
    let ix = sales();
    let body = json!({"size": 0, "aggs": monthly(json!({"m": {"moving_avg": {"buckets_path": "sales"}}}))});
    let r = ix.gateway.handle_in_process(&metagate::gateway::Request {
        method: "POST".into(),
        path: "/elastic/v1/test/_search".into(),
        headers: vec![("Content-Type".into(), "application/json".into())],
        body: body.to_string().into_bytes(),
    });
    assert_eq!(r.status, 200);
    let warnings: Vec<&str> =
        r.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case("warning")).map(|(_, v)| v.as_str()).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("The moving_avg aggregation has been deprecated in favor of the moving_fn aggregation."),
        "{warnings:?}"
    );
}
