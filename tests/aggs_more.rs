//! ES 6.8's REST tests for the aggregations added after the first set
//! (rest-api-spec `search.aggregation/200_percentile_ranks_tdigest_metric.yml`,
//! `260_weighted_avg.yml`, `270_median_absolute_deviation_metric.yml`, ...), translated
//! onto an index loaded through the gateway, with the examples of ES's reference pages.
//! Where ES estimates (t-digest percentile ranks) metagate answers exactly; those cases
//! assert the exact answer and say what ES's estimate was.

mod common;

use common::mapped_index::{index, mapped, Index};
use serde_json::{json, Value};

/// The `aggregations` of a search of `test`.
fn aggs(ix: &Index, body: Value) -> Value {
    ix.search(body)["aggregations"].clone()
}

/// Asserts two numbers agree to 1e-9 (answers computed in doubles whose last bit the
/// order of operations decides).
fn close(actual: &Value, expected: f64) {
    let a = actual.as_f64().unwrap_or_else(|| panic!("not a number: {actual}"));
    assert!((a - expected).abs() < 1e-9, "{a} != {expected}");
}

/// `200_percentile_ranks_tdigest_metric.yml`'s index.
fn ranks_index() -> Index {
    index(
        "ranks",
        mapped(json!({"int_field": {"type": "integer"}, "double_field": {"type": "double"},
                      "string_field": {"type": "keyword"}})),
        &[
            ("1", json!({"int_field": 1, "double_field": 1.0, "string_field": "foo"})),
            ("2", json!({"int_field": 51, "double_field": 51.0, "string_field": "foo"})),
            ("3", json!({"int_field": 101, "double_field": 101.0, "string_field": "foo"})),
            ("4", json!({"int_field": 151, "double_field": 151.0, "string_field": "foo"})),
        ],
    )
}

#[test]
fn percentile_ranks_basic_and_filtered() {
    let ix = ranks_index();
    let body = json!({"aggs": {
        "percentile_ranks_int": {"percentile_ranks": {"field": "int_field", "values": [50, 99]}},
        "percentile_ranks_double": {"percentile_ranks": {"field": "double_field", "values": [99, 50]}}}});
    let r = ix.search(body);
    assert_eq!(r["hits"]["total"], 4);
    for name in ["percentile_ranks_int", "percentile_ranks_double"] {
        let values = &r["aggregations"][name]["values"];
        // ES's t-digest answers 37.0 and 36.5 over four values. Exactly, 50 lies 49/50 of
        // the way from the first value (rank 0) to the second (rank 1): rank 0.98 of 3;
        // 99 is at rank 1.96. Keys come sorted, as ES sorts them.
        assert_eq!(values.as_object().unwrap().keys().collect::<Vec<_>>(), ["50.0", "99.0"]);
        close(&values["50.0"], 98.0 / 3.0);
        close(&values["99.0"], 196.0 / 3.0);
    }
    // "Filtered test": over 51, 101 and 151, 50 is below every value (ES's estimate: 16.0).
    let r = aggs(
        &ix,
        json!({"query": {"constant_score": {"filter": {"range": {"int_field": {"gte": 50}}}}},
               "aggs": {"r": {"percentile_ranks": {"field": "int_field", "values": [50]}}}}),
    );
    assert_eq!(r["r"], json!({"values": {"50.0": 0.0}}));
    // Only aggs, meta, and non-keyed output.
    let r = aggs(
        &ix,
        json!({"size": 0, "aggs": {"r": {"meta": {"foo": "bar"},
            "percentile_ranks": {"field": "int_field", "values": [151, 1], "keyed": false}}}}),
    );
    assert_eq!(
        r["r"],
        json!({"meta": {"foo": "bar"}, "values": [{"key": 1.0, "value": 0.0}, {"key": 151.0, "value": 100.0}]})
    );
}

#[test]
fn percentile_ranks_of_a_missing_field() {
    let ix = ranks_index();
    // With `missing`, every document has the value 1.0: both values rank at 100 (as in ES).
    let r = aggs(
        &ix,
        json!({"aggs": {"m": {"percentile_ranks": {"field": "missing_field", "missing": 1.0, "values": [50, 99]}}}}),
    );
    assert_eq!(r["m"], json!({"values": {"50.0": 100.0, "99.0": 100.0}}));
    // Without, no values: each rank is null.
    let r = aggs(&ix, json!({"aggs": {"m": {"percentile_ranks": {"field": "missing_field", "values": [50, 99]}}}}));
    assert_eq!(r["m"], json!({"values": {"50.0": null, "99.0": null}}));
    // typed_keys names the t-digest implementation, as ES does.
    let (_, v) = ix.send(
        "POST",
        "/test/_search?typed_keys",
        json!({"size": 0, "aggs": {"m": {"percentile_ranks": {"field": "int_field", "values": [1]}}}}),
    );
    assert_eq!(v["aggregations"]["tdigest_percentile_ranks#m"], json!({"values": {"1.0": 0.0}}));
}

#[test]
fn percentile_ranks_invalid_params() {
    let ix = ranks_index();
    let refused = |def: Value| ix.refused(json!({"aggs": {"percentile_ranks_int": {"percentile_ranks": def}}}));
    let e = refused(json!({"field": "int_field", "values": []}));
    assert_eq!(
        e,
        (
            400,
            "illegal_argument_exception".into(),
            "[values] must not be an empty array: [percentile_ranks_int]".into()
        )
    );
    let e = refused(json!({"field": "int_field", "values": null}));
    assert_eq!(
        e,
        (
            400,
            "parsing_exception".into(),
            "[percentile_ranks] values doesn't support values of type: VALUE_NULL".into()
        )
    );
    let e = refused(json!({"field": "int_field", "values": ["foo"]}));
    assert_eq!(e, (400, "parsing_exception".into(), "[percentile_ranks] failed to parse field [values]".into()));
    let e = refused(json!({"field": "string_field"}));
    assert_eq!(e, (400, "illegal_argument_exception".into(), "Required [values]".into()));
    let (status, _, _) = refused(json!({"field": "string_field", "values": [1]}));
    assert_eq!(status, 400);
}

/// `270_median_absolute_deviation_metric.yml`'s index.
fn mad_index() -> Index {
    index(
        "mad",
        mapped(json!({"int_field": {"type": "integer"}, "double_field": {"type": "double"},
                      "incomplete_field": {"type": "integer"}})),
        &[
            ("1", json!({"int_field": 100, "double_field": 100.0, "incomplete_field": 1000})),
            ("2", json!({"int_field": 200, "double_field": 200.0, "incomplete_field": 2000})),
            ("3", json!({"int_field": 300, "double_field": 300.0})),
        ],
    )
}

#[test]
fn median_absolute_deviation() {
    let ix = mad_index();
    for extra in [json!({}), json!({"compression": 500})] {
        let def = |f: &str| {
            let mut d = json!({"field": f});
            d.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            json!({"median_absolute_deviation": d})
        };
        let r = aggs(&ix, json!({"aggs": {"mad_int": def("int_field"), "mad_double": def("double_field")}}));
        assert_eq!(r, json!({"mad_int": {"value": 100.0}, "mad_double": {"value": 100.0}}));
    }
    // No documents.
    let r = aggs(
        &ix,
        json!({"query": {"bool": {"filter": {"term": {"non_existent_field": "non_existent_value"}}}},
               "aggs": {"mad_no_docs": {"median_absolute_deviation": {"field": "non_existent_field"}}}}),
    );
    assert_eq!(r, json!({"mad_no_docs": {"value": null}}));
    // Missing value: 1000, 2000, 3000.
    let r = aggs(
        &ix,
        json!({"aggs": {"mad_missing": {"median_absolute_deviation": {"field": "incomplete_field", "missing": 3000}}}}),
    );
    assert_eq!(r, json!({"mad_missing": {"value": 1000.0}}));
    // Bad arguments.
    for (c, shown) in [(json!(0), "0.0"), (json!(-1), "-1.0")] {
        let e = ix
            .refused(json!({"aggs": {"mad": {"median_absolute_deviation": {"field": "int_field", "compression": c}}}}));
        assert_eq!(e.1, "illegal_argument_exception");
        assert_eq!(e.2, format!("[compression] must be greater than 0. Found [{shown}] in [mad]"));
    }
    let (_, v) = ix.send(
        "POST",
        "/test/_search?typed_keys",
        json!({"size": 0, "aggs": {"m": {"median_absolute_deviation": {"field": "int_field"}}}}),
    );
    assert_eq!(v["aggregations"]["median_absolute_deviation#m"], json!({"value": 100.0}));
}

#[test]
fn weighted_avg_basic() {
    // `260_weighted_avg.yml`.
    let ix = index(
        "wavg",
        mapped(json!({"int_field": {"type": "integer"}, "double_field": {"type": "double"},
                      "string_field": {"type": "keyword"}})),
        &[
            ("1", json!({"int_field": 1, "double_field": 1.0})),
            ("2", json!({"int_field": 2, "double_field": 2.0})),
            ("3", json!({"int_field": 3, "double_field": 3.0})),
            ("4", json!({"int_field": 4, "double_field": 4.0})),
        ],
    );
    let r = ix.search(json!({"aggs": {
        "the_int_avg": {"weighted_avg": {"value": {"field": "int_field"}, "weight": {"field": "int_field"}}},
        "the_double_avg": {"weighted_avg": {"value": {"field": "double_field"}, "weight": {"field": "double_field"}}}}}));
    assert_eq!(r["hits"]["total"], 4);
    assert_eq!(r["hits"]["hits"].as_array().unwrap().len(), 4);
    assert_eq!(r["aggregations"], json!({"the_int_avg": {"value": 3.0}, "the_double_avg": {"value": 3.0}}));
    let e = ix.refused(json!({"aggs": {"w": {"weighted_avg": {"value": {"field": "int_field"}, "weight": {}}}}}));
    assert_eq!(e.2, "[field] and [script] cannot both be null.  Please specify one or the other.");
    let e = ix.refused(json!({"aggs": {"w": {"weighted_avg": {"value": {"field": "int_field"}, "weight": {"field": "string_field"}}}}}));
    assert_eq!((e.0, e.1.as_str()), (400, "illegal_argument_exception"));
    let e = ix.refused(json!({"aggs": {"w": {"weighted_avg": {"value": {"field": "int_field"}, "wait": {}}}}}));
    assert_eq!(e.2, "[weighted_avg] unknown field [wait], parser not found");
}

#[test]
fn weighted_avg_reference_examples() {
    // The reference page's exams: a grade weighted by its weight; then one document with
    // three grades and a single weight, which weighs each of its values.
    let ix = index(
        "exams",
        mapped(json!({"grade": {"type": "integer"}, "weight": {"type": "integer"}})),
        &[
            ("1", json!({"grade": 100, "weight": 2})),
            ("2", json!({"grade": 50, "weight": 3})),
            ("3", json!({"grade": [1, 2, 3], "weight": 2})),
            ("4", json!({"grade": 80})),
            ("5", json!({"weight": 5})),
        ],
    );
    let wavg = |q: Value, weight: Value| {
        aggs(
            &ix,
            json!({"size": 0, "query": q, "aggs": {"weighted_grade": {"weighted_avg": {
            "value": {"field": "grade"}, "weight": weight}}}}),
        )["weighted_grade"]
            .clone()
    };
    // (100*2 + 50*3) / (2+3) = 70.0
    assert_eq!(wavg(json!({"ids": {"values": ["1", "2"]}}), json!({"field": "weight"})), json!({"value": 70.0}));
    // ((1*2) + (2*2) + (3*2)) / (2+2+2) = 2.0
    assert_eq!(wavg(json!({"ids": {"values": ["3"]}}), json!({"field": "weight"})), json!({"value": 2.0}));
    // A document without a weight is skipped unless `missing` gives one; one without a
    // value is skipped.
    assert_eq!(wavg(json!({"ids": {"values": ["1", "4", "5"]}}), json!({"field": "weight"})), json!({"value": 100.0}));
    assert_eq!(
        wavg(json!({"ids": {"values": ["1", "4", "5"]}}), json!({"field": "weight", "missing": 3})),
        json!({"value": 88.0})
    );
    // No weight at all: null.
    assert_eq!(wavg(json!({"ids": {"values": ["4"]}}), json!({"field": "weight"})), json!({"value": null}));
    // Several weights in one document.
    let ix2 = index(
        "exams2",
        mapped(json!({"grade": {"type": "integer"}, "weight": {"type": "integer"}})),
        &[("1", json!({"grade": 1, "weight": [1, 2]}))],
    );
    let e = ix2.refused(
        json!({"aggs": {"w": {"weighted_avg": {"value": {"field": "grade"}, "weight": {"field": "weight"}}}}}),
    );
    assert_eq!(
        e,
        (500, "aggregation_execution_exception".into(), "Encountered more than one weight for a single document. Use a script to combine multiple weights-per-doc into a single value.".into())
    );
}
