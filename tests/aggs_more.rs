//! ES 6.8's REST tests for the aggregations added after the first set
//! (rest-api-spec `search.aggregation/`: `200_percentile_ranks_tdigest_metric.yml`,
//! `260_weighted_avg.yml`, `270_median_absolute_deviation_metric.yml`, `10_histogram.yml`'s
//! format test, `30_sig_terms.yml`, `90_sig_text.yml`, `70_adjacency_matrix.yml`,
//! `330_auto_date_histogram.yml`), translated onto an index loaded through the gateway, with
//! the examples of ES's reference pages whose data they give (weighted_avg's exams,
//! adjacency_matrix's emails). Where ES estimates (t-digest percentile ranks) metagate answers
//! exactly; those cases assert the exact answer and say what ES's estimate was. Where a test
//! needs what metagate does not run (fielddata on text), the translation says how it
//! differs.

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

/// `10_histogram.yml`'s index: numbers 1, 51, 101 and 151.
fn numbers_index() -> Index {
    index(
        "histo",
        mapped(json!({"number": {"type": "integer"}, "price": {"type": "double"},
                      "date": {"type": "date", "format": "epoch_second"}})),
        &[
            ("1", json!({"number": 1, "price": 1.25, "date": "1000"})),
            ("2", json!({"number": 51, "price": 2.5, "date": "2000"})),
            ("3", json!({"number": 101, "date": "3000"})),
            ("4", json!({"number": 151, "date": "4000"})),
        ],
    )
}

#[test]
fn histogram_basic_and_format() {
    let ix = numbers_index();
    let r = aggs(&ix, json!({"aggs": {"histo": {"histogram": {"field": "number", "interval": 50}}}}));
    assert_eq!(
        r["histo"]["buckets"],
        json!([{"key": 0.0, "doc_count": 1}, {"key": 50.0, "doc_count": 1},
               {"key": 100.0, "doc_count": 1}, {"key": 150.0, "doc_count": 1}])
    );
    // "Format test": `key_as_string` in the DecimalFormat pattern, before `key`.
    let r = aggs(
        &ix,
        json!({"aggs": {"histo": {"histogram": {"field": "number", "interval": 50, "format": "Value is ##0.0"}}}}),
    );
    assert_eq!(
        serde_json::to_string(&r["histo"]["buckets"][0]).unwrap(),
        r#"{"key_as_string":"Value is 0.0","key":0.0,"doc_count":1}"#
    );
    let texts: Vec<&str> =
        r["histo"]["buckets"].as_array().unwrap().iter().map(|b| b["key_as_string"].as_str().unwrap()).collect();
    assert_eq!(texts, ["Value is 0.0", "Value is 50.0", "Value is 100.0", "Value is 150.0"]);
    // Keyed: the formatted key names the bucket.
    let r = aggs(
        &ix,
        json!({"aggs": {"h": {"histogram": {"field": "number", "interval": 100, "format": "0", "keyed": true}}}}),
    );
    assert_eq!(
        r["h"]["buckets"],
        json!({"0": {"key_as_string": "0", "key": 0.0, "doc_count": 2}, "100": {"key_as_string": "100", "key": 100.0, "doc_count": 2}})
    );
    // A histogram of a date field prints keys in the field's format (ES's date
    // DocValueFormat is never RAW).
    let r = aggs(&ix, json!({"aggs": {"h": {"histogram": {"field": "date", "interval": 2000000}}}}));
    assert_eq!(
        r["h"]["buckets"],
        json!([{"key_as_string": "0", "key": 0.0, "doc_count": 1}, {"key_as_string": "2000", "key": 2000000.0, "doc_count": 2},
               {"key_as_string": "4000", "key": 4000000.0, "doc_count": 1}])
    );
    // A malformed pattern fails on the shard.
    let e = ix.refused(json!({"aggs": {"h": {"histogram": {"field": "number", "interval": 1, "format": "0.0.0"}}}}));
    assert_eq!(
        e,
        (400, "illegal_argument_exception".into(), "Multiple decimal separators in pattern \"0.0.0\"".into())
    );
}

#[test]
fn metric_and_range_formats() {
    let ix = numbers_index();
    let r = aggs(
        &ix,
        json!({"aggs": {
            "avg": {"avg": {"field": "number", "format": "#,##0.00"}},
            "stats": {"stats": {"field": "price", "format": "0.0"}},
            "range": {"range": {"field": "number", "format": "0.0", "ranges": [{"to": 50}, {"from": 50}]}}}}),
    );
    assert_eq!(r["avg"], json!({"value": 76.0, "value_as_string": "76.00"}));
    // 1.25 is an exact tie: Java's default HALF_EVEN (ES 6.8 sets no rounding mode)
    // keeps the even 1.2.
    assert_eq!(
        r["stats"],
        json!({"count": 2, "min": 1.25, "max": 2.5, "avg": 1.875, "sum": 3.75,
               "min_as_string": "1.2", "max_as_string": "2.5", "avg_as_string": "1.9", "sum_as_string": "3.8"})
    );
    assert_eq!(
        r["range"]["buckets"],
        json!([{"key": "*-50.0", "to": 50.0, "to_as_string": "50.0", "doc_count": 1},
               {"key": "50.0-*", "from": 50.0, "from_as_string": "50.0", "doc_count": 3}])
    );
    // A terms key of a number with a format.
    let r = aggs(
        &ix,
        json!({"aggs": {"t": {"terms": {"field": "number", "format": "000", "size": 1, "order": {"_key": "asc"}}}}}),
    );
    assert_eq!(r["t"]["buckets"], json!([{"key": 1, "key_as_string": "001", "doc_count": 1}]));
}

#[test]
fn date_range_keys_in_the_field_format() {
    let ix = numbers_index();
    // An `epoch_second` field: bounds read and keys printed in seconds.
    let r = aggs(
        &ix,
        json!({"aggs": {"r": {"date_range": {"field": "date", "ranges": [{"to": "2500"}, {"from": "2500"}]}}}}),
    );
    assert_eq!(
        r["r"]["buckets"],
        json!([{"key": "*-2500", "to": 2500000.0, "to_as_string": "2500", "doc_count": 2},
               {"key": "2500-*", "from": 2500000.0, "from_as_string": "2500", "doc_count": 2}])
    );
    // `format` overrides the field's.
    let r = aggs(
        &ix,
        json!({"aggs": {"r": {"date_range": {"field": "date", "format": "yyyy-MM-dd'T'HH:mm",
            "ranges": [{"from": "1970-01-01T00:30"}]}}}}),
    );
    assert_eq!(
        r["r"]["buckets"],
        json!([{"key": "1970-01-01T00:30-*", "from": 1800000.0, "from_as_string": "1970-01-01T00:30", "doc_count": 3}])
    );
}

#[test]
fn missing_on_unmapped_fields() {
    let ix = numbers_index();
    // ES reads the `missing` value of a field no index maps as a number for metrics of
    // numbers: every document counts it.
    let r = aggs(
        &ix,
        json!({"aggs": {
            "avg": {"avg": {"field": "nope", "missing": 2}},
            "sum": {"sum": {"field": "nope", "missing": "1.5"}},
            "min": {"min": {"field": "nope", "missing": 2}},
            "max": {"max": {"field": "nope", "missing": 2}},
            "stats": {"stats": {"field": "nope", "missing": 1}},
            "pct": {"percentiles": {"field": "nope", "missing": 3, "percents": [50]}},
            "count": {"value_count": {"field": "nope", "missing": 1}},
            "card": {"cardinality": {"field": "nope", "missing": 1}},
            "histo": {"histogram": {"field": "nope", "missing": 7, "interval": 5}},
            "range": {"range": {"field": "nope", "missing": 7, "ranges": [{"from": 5}]}},
            "dh": {"date_histogram": {"field": "nope", "missing": "2020-01-15", "interval": "month"}}}}),
    );
    assert_eq!(r["avg"], json!({"value": 2.0}));
    assert_eq!(r["sum"], json!({"value": 6.0}));
    assert_eq!(r["min"], json!({"value": 2.0}));
    assert_eq!(r["max"], json!({"value": 2.0}));
    assert_eq!(r["stats"], json!({"count": 4, "min": 1.0, "max": 1.0, "avg": 1.0, "sum": 4.0}));
    assert_eq!(r["pct"], json!({"values": {"50.0": 3.0}}));
    assert_eq!(r["count"], json!({"value": 4}));
    assert_eq!(r["card"], json!({"value": 1}));
    assert_eq!(r["histo"]["buckets"], json!([{"key": 5.0, "doc_count": 4}]));
    assert_eq!(r["range"]["buckets"], json!([{"key": "5.0-*", "from": 5.0, "doc_count": 4}]));
    assert_eq!(
        r["dh"]["buckets"],
        json!([{"key_as_string": "2020-01-01T00:00:00.000Z", "key": 1577836800000i64, "doc_count": 4}])
    );
    // Without `missing`, nothing: null values and no buckets.
    let r = aggs(
        &ix,
        json!({"aggs": {"avg": {"avg": {"field": "nope"}}, "h": {"histogram": {"field": "nope", "interval": 5}}}}),
    );
    assert_eq!(r, json!({"avg": {"value": null}, "h": {"buckets": []}}));
    // A missing value that is not a number.
    let e = ix.refused(json!({"aggs": {"avg": {"avg": {"field": "nope", "missing": "abc"}}}}));
    assert_eq!(e, (400, "number_format_exception".into(), "For input string: \"abc\"".into()));
}

/// `30_sig_terms.yml` / `90_sig_text.yml`'s index: good and bad texts in two classes.
/// ES's `significant_terms` test reads the text through fielddata, which metagate does
/// not build: the same words are also a keyword array, `words`.
fn goodbad() -> Index {
    index(
        "goodbad",
        mapped(json!({"text": {"type": "text"}, "words": {"type": "keyword"}, "class": {"type": "keyword"}})),
        &[
            ("1", json!({"text": "good", "words": ["good"], "class": "good"})),
            ("2", json!({"text": "good", "words": ["good"], "class": "good"})),
            ("3", json!({"text": "bad", "words": ["bad"], "class": "bad"})),
            ("4", json!({"text": "bad", "words": ["bad"], "class": "bad"})),
            ("5", json!({"text": "good bad", "words": ["good", "bad"], "class": "good"})),
            ("6", json!({"text": "good bad", "words": ["good", "bad"], "class": "bad"})),
            ("7", json!({"text": "bad", "words": ["bad"], "class": "bad"})),
        ],
    )
}

/// The significant buckets per class of a `significant_terms` or `significant_text`
/// (`def`) under a `terms` of `class`.
fn by_class(ix: &Index, agg_type: &str, def: Value) -> Value {
    let r = aggs(ix, json!({"aggs": {"class": {"terms": {"field": "class"}, "aggs": {"sig": {agg_type: def}}}}}));
    r["class"]["buckets"].clone()
}

/// Asserts one class's significant answer: its sizes and its buckets' keys, counts and
/// scores (to 1e-9).
fn assert_sig(answer: &Value, doc_count: u64, bg_count: u64, buckets: &[(&str, u64, f64, u64)]) {
    assert_eq!(answer["doc_count"], doc_count, "{answer}");
    assert_eq!(answer["bg_count"], bg_count, "{answer}");
    let got = answer["buckets"].as_array().unwrap();
    assert_eq!(got.len(), buckets.len(), "{answer}");
    for (b, (key, n, score, bg)) in got.iter().zip(buckets) {
        assert_eq!(b["key"], *key);
        assert_eq!(b["doc_count"], *n);
        close(&b["score"], *score);
        assert_eq!(b["bg_count"], *bg);
        // ES's member order.
        assert_eq!(b.as_object().unwrap().keys().collect::<Vec<_>>(), ["key", "doc_count", "score", "bg_count"]);
    }
}

#[test]
fn significant_terms_default_index() {
    let ix = goodbad();
    let classes = by_class(&ix, "significant_terms", json!({"field": "words"}));
    assert_eq!(classes[0]["key"], "bad");
    // Class bad: 4 of its 4 documents say "bad", 5 of the 7 do: JLH (1 - 5/7) * (7/5).
    assert_sig(&classes[0]["sig"], 4, 7, &[("bad", 4, 0.4, 5)]);
    // Class good: 3 of 3 say "good", 4 of 7 do: (1 - 4/7) * (7/4).
    assert_eq!(classes[1]["key"], "good");
    assert_sig(&classes[1]["sig"], 3, 7, &[("good", 3, 0.75, 4)]);
    // `percentage` with min_doc_count 1: foreground over background frequency.
    let classes = by_class(&ix, "significant_terms", json!({"field": "words", "min_doc_count": 1, "percentage": {}}));
    assert_sig(&classes[0]["sig"], 4, 7, &[("bad", 4, 0.8, 5), ("good", 1, 0.25, 4)]);
    // `chi_square`: N=7, N11=4, N10=1, N01=0, N00=2: 7 * (4*2)^2 / (4 * 5 * 2 * 3); "good"
    // is rarer in class bad than elsewhere and left out.
    let classes = by_class(&ix, "significant_terms", json!({"field": "words", "min_doc_count": 1, "chi_square": {}}));
    assert_sig(&classes[0]["sig"], 4, 7, &[("bad", 4, 7.0 * 64.0 / 120.0, 5)]);
    // `gnd`: exp(-(ln 5 - ln 4) / (ln 7 - ln 4)).
    let gnd = (-((5f64.ln() - 4f64.ln()) / (7f64.ln() - 4f64.ln()))).exp();
    let classes = by_class(&ix, "significant_terms", json!({"field": "words", "gnd": {}}));
    assert_sig(&classes[0]["sig"], 4, 7, &[("bad", 4, gnd, 5)]);
    // `mutual_information` with negatives: both terms; "good", absent from 3 of the 4
    // documents of class bad and present in 3 of the 3 others, tells more about the class
    // (0.52 bits) than "bad" does (0.47).
    let classes = by_class(
        &ix,
        "significant_terms",
        json!({"field": "words", "min_doc_count": 1, "mutual_information": {"include_negatives": true}}),
    );
    let keys: Vec<&str> =
        classes[0]["sig"]["buckets"].as_array().unwrap().iter().map(|b| b["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["good", "bad"]);
    // A background filter: the documents saying "good" (1, 2, 5, 6).
    let classes = by_class(
        &ix,
        "significant_terms",
        json!({"field": "words", "min_doc_count": 1, "background_filter": {"term": {"text": "good"}}}),
    );
    // Class bad: "bad" in 4 of 4, in 2 of the 4 background documents.
    assert_sig(&classes[0]["sig"], 4, 4, &[("bad", 4, 1.0, 2)]);
    // typed_keys.
    let (_, v) = ix.send(
        "POST",
        "/test/_search?typed_keys",
        json!({"size": 0, "aggs": {"s": {"significant_terms": {"field": "class", "min_doc_count": 1}},
                                    "u": {"significant_terms": {"field": "nope"}},
                                    "t": {"terms": {"field": "nope"}}}}),
    );
    assert_eq!(v["aggregations"]["sigsterms#s"], json!({"doc_count": 7, "bg_count": 7, "buckets": []}));
    // Unmapped results are typed as string terms (ES's `getType` of UnmappedSignificantTerms
    // and UnmappedTerms), as `msearch/20_typed_keys.yml` checks.
    let keys: Vec<&String> = v["aggregations"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["sigsterms#s", "sigsterms#u", "sterms#t"]);
    assert_eq!(v["aggregations"]["sigsterms#u"], json!({"buckets": []}));
    assert_eq!(
        v["aggregations"]["sterms#t"],
        json!({"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0, "buckets": []})
    );
}

/// `script_heuristic`: the script reads the counts from `params` (ES's LongAccessors, which
/// Painless's dynamic arithmetic takes as ints).
#[test]
fn significant_terms_script_heuristic() {
    let ix = goodbad();
    let scripted = |source: &str, params: Value| {
        by_class(
            &ix,
            "significant_terms",
            json!({"field": "words", "min_doc_count": 1,
                   "script_heuristic": {"script": {"source": source, "params": params}}}),
        )
    };
    // Foreground over background frequency in doubles: `percentage`'s scores.
    let classes = scripted("params._subset_freq * params.one / params._superset_freq", json!({"one": 1.0}));
    assert_sig(&classes[0]["sig"], 4, 7, &[("bad", 4, 0.8, 5), ("good", 1, 0.25, 4)]);
    // ES's reference example divides ints: class bad's "bad" 4 / (5 - 4 + 1) = 2, and
    // "good" 1 / (4 - 1 + 1) = 0, which is not returned.
    let classes = scripted("params._subset_freq/(params._superset_freq - params._subset_freq + 1)", json!({}));
    assert_sig(&classes[0]["sig"], 4, 7, &[("bad", 4, 2.0, 5)]);
    // The sizes: 4 of 7 documents for class bad, 3 of 7 for good.
    let classes = scripted("params._subset_size * 100 + params._superset_size * 10 + params._subset_freq", json!({}));
    assert_sig(&classes[1]["sig"], 3, 7, &[("good", 3, 373.0, 4), ("bad", 1, 371.0, 5)]);
    // A result that is no number fails the search as ES's cast does.
    let (status, kind, _) = ix.refused(json!({"aggs": {"s": {"significant_terms": {"field": "words",
        "script_heuristic": {"script": "'x'"}}}}}));
    assert_eq!((status, kind.as_str()), (500, "class_cast_exception"));
    let (status, kind, _) = ix.refused(json!({"aggs": {"s": {"significant_terms": {"field": "words",
        "script_heuristic": {"script": "params._subset_freq.foo()"}}}}}));
    assert_eq!((status, kind.as_str()), (400, "script_exception"));
}

#[test]
fn significant_terms_ip_and_numbers() {
    // "IP test".
    let ix = index(
        "sig-ip",
        mapped(json!({"ip": {"type": "ip"}, "n": {"type": "long"}, "d": {"type": "double"}})),
        &[("1", json!({"ip": "::1", "n": 5, "d": 1.5})), ("2", json!({"n": 6}))],
    );
    let sig = |extra: Value| {
        let mut def = json!({"field": "ip", "min_doc_count": 1});
        def.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        aggs(&ix, json!({"query": {"exists": {"field": "ip"}}, "aggs": {"ip_terms": {"significant_terms": def}}}))
            ["ip_terms"]
            .clone()
    };
    assert_eq!(
        sig(json!({})),
        json!({"doc_count": 1, "bg_count": 2, "buckets": [{"key": "::1", "doc_count": 1, "score": 1.0, "bg_count": 1}]})
    );
    assert_eq!(sig(json!({"include": ["::1"]}))["buckets"].as_array().unwrap().len(), 1);
    assert_eq!(sig(json!({"exclude": ["::1"]}))["buckets"], json!([]));
    let (status, _, _) = ix
        .refused(json!({"size": 0, "aggs": {"ip_terms": {"significant_terms": {"field": "ip", "exclude": "127.*"}}}}));
    assert_eq!(status, 500);
    // A long: `siglterms`, key then key_as_string when formatted.
    let (_, v) = ix.send(
        "POST",
        "/test/_search?typed_keys",
        json!({"size": 0, "query": {"exists": {"field": "ip"}},
               "aggs": {"n": {"significant_terms": {"field": "n", "min_doc_count": 1, "format": "00"}}}}),
    );
    assert_eq!(
        serde_json::to_string(&v["aggregations"]["siglterms#n"]["buckets"]).unwrap(),
        r#"[{"key":5,"key_as_string":"05","doc_count":1,"score":1.0,"bg_count":1}]"#
    );
    // Floating point numbers: ES has no significant terms of them.
    let e = ix.refused(json!({"aggs": {"d": {"significant_terms": {"field": "d"}}}}));
    assert_eq!(
        e,
        (500, "unsupported_operation_exception".into(), "No support for examining floating point numerics".into())
    );
}

#[test]
fn significant_terms_parameters_and_errors() {
    let ix = goodbad();
    let refused = |def: Value| ix.refused(json!({"aggs": {"s": {"significant_terms": def}}}));
    assert_eq!(refused(json!({"field": "class", "size": 0})).2, "[size] must be greater than 0. Found [0] in [s]");
    assert_eq!(
        refused(json!({"field": "class", "min_doc_count": -1})).2,
        "[minDocCount] must be greater than or equal to 0. Found [-1] in [s]"
    );
    assert_eq!(
        refused(json!({"field": "class", "jlh": {"x": 1}})).2,
        "failed to parse [jlh] significance heuristic. expected an empty object, but got [x] instead"
    );
    assert_eq!(
        refused(json!({"field": "class", "gnd": {"include_negatives": true}})).2,
        "failed to parse [gnd] significance heuristic. unknown field [include_negatives]"
    );
    assert_eq!(
        refused(json!({"field": "class", "script_heuristic": {}})).2,
        "failed to parse [script_heuristic] significance heuristic. no script found in script_heuristic"
    );
    assert_eq!(
        refused(json!({"field": "class", "script_heuristic": {"script": "1", "lang": "painless"}})).2,
        "failed to parse [script_heuristic] significance heuristic. unknown object [lang]"
    );
    assert_eq!(
        refused(json!({"field": "class", "foo": 1})).2,
        "[significant_terms] unknown field [foo], parser not found"
    );
    // size and shard_size: the best of the candidates scored.
    let r = aggs(
        &ix,
        json!({"query": {"term": {"class": "bad"}},
               "aggs": {"s": {"significant_terms": {"field": "words", "min_doc_count": 1, "percentage": {}, "size": 1}}}}),
    );
    assert_eq!(r["s"]["buckets"].as_array().unwrap().len(), 1);
    // A text field is refused as for any aggregation (metagate builds no fielddata).
    let (status, kind, _) = ix.refused(json!({"aggs": {"s": {"significant_terms": {"field": "text"}}}}));
    assert_eq!((status, kind.as_str()), (400, "illegal_argument_exception"));
}

#[test]
fn significant_text_default_index() {
    let ix = goodbad();
    let classes = by_class(&ix, "significant_text", json!({"field": "text"}));
    assert_eq!(classes[0]["key"], "bad");
    assert_sig(&classes[0]["sig"], 4, 7, &[("bad", 4, 0.4, 5)]);
    assert_sig(&classes[1]["sig"], 3, 7, &[("good", 3, 0.75, 4)]);
    // `source_fields` reads other `_source` fields with the field's analyzer.
    let classes = by_class(
        &ix,
        "significant_text",
        json!({"field": "text", "source_fields": ["class"], "min_doc_count": 1, "percentage": {}}),
    );
    assert_sig(&classes[0]["sig"], 4, 7, &[("bad", 4, 0.8, 5)]);
    // Sub-aggregations see the documents holding the term.
    let r = aggs(
        &ix,
        json!({"query": {"term": {"class": "good"}},
               "aggs": {"s": {"significant_text": {"field": "text"}, "aggs": {"c": {"value_count": {"field": "class"}}}}}}),
    );
    assert_eq!(r["s"]["buckets"][0]["c"], json!({"value": 3}));
    let e = ix.refused(json!({"aggs": {"s": {"significant_text": {"field": "class"}}}}));
    assert_eq!(e.2, "Field [class] has no analyzer, but SignificantText requires an analyzed field");
}

/// 90_sig_text.yml's "Dedup noise": with `filter_duplicate_text`, a run of six words seen
/// before in the bucket's documents is left out, so the pasted "b1 … b6" and "g1 … g6"
/// count once and only the class words are significant.
#[test]
fn significant_text_filters_duplicate_text() {
    let ix = index(
        "dedup-noise",
        mapped(json!({"text": {"type": "text"}, "class": {"type": "keyword"}})),
        &[
            ("1", json!({"text": "good noisewords1 g1 g2 g3 g4 g5 g6", "class": "good"})),
            ("2", json!({"text": "good  noisewords2 g1 g2 g3 g4 g5 g6", "class": "good"})),
            ("3", json!({"text": "bad noisewords3 b1 b2 b3 b4 b5 b6", "class": "bad"})),
            ("4", json!({"text": "bad noisewords4 b1 b2 b3 b4 b5 b6", "class": "bad"})),
            ("5", json!({"text": "good bad noisewords5 gb1 gb2 gb3 gb4 gb5 gb6", "class": "good"})),
            ("6", json!({"text": "good bad noisewords6 gb1 gb2 gb3 gb4 gb5 gb6", "class": "bad"})),
            ("7", json!({"text": "bad noisewords7 b1 b2 b3 b4 b5 b6", "class": "bad"})),
        ],
    );
    let classes = by_class(&ix, "significant_text", json!({"field": "text", "filter_duplicate_text": true}));
    // Class bad (3, 4, 6, 7): "bad" in all 4, in 5 of 7 overall: JLH (1 - 5/7) * (7/5).
    assert_eq!(classes[0]["key"], "bad");
    assert_sig(&classes[0]["sig"], 4, 7, &[("bad", 4, 0.4, 5)]);
    // Class good (1, 2, 5): "good" in all 3, in 4 of 7 overall.
    assert_eq!(classes[1]["key"], "good");
    assert_sig(&classes[1]["sig"], 3, 7, &[("good", 3, 0.75, 4)]);
    // Without the filter the pasted words of class bad (in 3 of its documents) count too.
    let classes = by_class(&ix, "significant_text", json!({"field": "text"}));
    assert!(classes[0]["sig"]["buckets"].as_array().unwrap().len() > 1);
    let e = ix.refused(json!({"aggs": {"s": {"significant_text": {"field": "text", "filter_duplicate_text": "x"}}}}));
    assert_eq!(e.0, 400);
}

#[test]
fn adjacency_matrix_filters_intersections() {
    // `70_adjacency_matrix.yml`.
    let ix = index(
        "adjacency",
        mapped(json!({"num": {"type": "integer"}})),
        &[("1", json!({"num": [1, 2]})), ("2", json!({"num": [2, 3]})), ("3", json!({"num": [3, 4]}))],
    );
    let r = aggs(
        &ix,
        json!({"size": 0, "aggs": {"conns": {"adjacency_matrix": {"filters": {
            "1": {"term": {"num": 1}}, "2": {"term": {"num": 2}}, "4": {"term": {"num": 4}}}}}}}),
    );
    assert_eq!(
        r["conns"],
        json!({"buckets": [{"key": "1", "doc_count": 1}, {"key": "1&2", "doc_count": 1},
                           {"key": "2", "doc_count": 2}, {"key": "4", "doc_count": 1}]})
    );
    // `separator`, sub-aggregations, typed_keys.
    let (_, v) = ix.send(
        "POST",
        "/test/_search?typed_keys",
        json!({"size": 0, "aggs": {"m": {"adjacency_matrix": {"separator": "|", "filters": {
            "b": {"term": {"num": 3}}, "a": {"term": {"num": 2}}}},
            "aggs": {"s": {"sum": {"field": "num"}}}}}}),
    );
    assert_eq!(
        v["aggregations"]["adjacency_matrix#m"]["buckets"],
        json!([{"key": "a", "doc_count": 2, "sum#s": {"value": 8.0}}, {"key": "a|b", "doc_count": 1, "sum#s": {"value": 5.0}},
               {"key": "b", "doc_count": 2, "sum#s": {"value": 12.0}}])
    );
    let e = ix.refused(json!({"aggs": {"m": {"adjacency_matrix": {"separator": "|"}}}}));
    assert_eq!(e, (500, "illegal_state_exception".into(), "[m] is missing : filters parameter".into()));
    let many: serde_json::Map<String, Value> =
        (0..101).map(|i| (format!("f{i}"), json!({"term": {"num": i}}))).collect();
    let e = ix.refused(json!({"aggs": {"m": {"adjacency_matrix": {"filters": many}}}}));
    assert_eq!(e.1, "query_phase_execution_exception");
    assert_eq!(e.2, "Number of filters is too large, must be less than or equal to: [100] but was [101].This limit can be set by changing the [index.max_adjacency_matrix_filters] index level setting.");
}

#[test]
fn sampler_keeps_the_best_scoring_documents() {
    let ix = index(
        "sampler",
        mapped(json!({"text": {"type": "text"}, "tag": {"type": "keyword"}})),
        &[
            ("1", json!({"text": "rust rust rust", "tag": "a"})),
            ("2", json!({"text": "rust", "tag": "b"})),
            ("3", json!({"text": "rust and more words here", "tag": "c"})),
            ("4", json!({"text": "nothing", "tag": "d"})),
        ],
    );
    let r = aggs(
        &ix,
        json!({"query": {"match": {"text": "rust"}},
               "aggs": {"s": {"sampler": {"shard_size": 2}, "aggs": {"t": {"terms": {"field": "tag"}}}}}}),
    );
    // The two best-scoring matches: the repeated word, then the short text.
    assert_eq!(r["s"]["doc_count"], 2);
    let mut tags: Vec<&str> =
        r["s"]["t"]["buckets"].as_array().unwrap().iter().map(|b| b["key"].as_str().unwrap()).collect();
    tags.sort();
    assert_eq!(tags, ["a", "b"]);
    // The default shard_size (100) keeps every match.
    let r = aggs(&ix, json!({"query": {"match": {"text": "rust"}}, "aggs": {"s": {"sampler": {}}}}));
    assert_eq!(r["s"], json!({"doc_count": 3}));
    let e = ix.refused(json!({"aggs": {"s": {"sampler": {"size": 1}}}}));
    assert_eq!(e.2, "[sampler] unknown field [size], parser not found");
}

#[test]
fn auto_date_histogram_rounding_ladder() {
    // `330_auto_date_histogram.yml`.
    let ix = index(
        "auto-date",
        mapped(json!({"date": {"type": "date"}, "v": {"type": "integer"}})),
        &[
            ("1", json!({"date": "2020-03-01", "v": 1})),
            ("2", json!({"date": "2020-03-02", "v": 2})),
            ("3", json!({"date": "2020-03-08", "v": 3})),
            ("4", json!({"date": "2020-03-09", "v": 4})),
        ],
    );
    let r = aggs(
        &ix,
        json!({"size": 0, "aggs": {"histo": {"auto_date_histogram": {"field": "date", "buckets": 2},
            "aggs": {"v": {"sum": {"field": "v"}}}}}}),
    );
    assert_eq!(
        r["histo"],
        json!({"buckets": [
            {"key_as_string": "2020-03-01T00:00:00.000Z", "key": 1583020800000i64, "doc_count": 2, "v": {"value": 3.0}},
            {"key_as_string": "2020-03-08T00:00:00.000Z", "key": 1583625600000i64, "doc_count": 2, "v": {"value": 7.0}}],
            "interval": "7d"})
    );
    // With room for every day: days, empty ones included.
    let r = aggs(&ix, json!({"size": 0, "aggs": {"h": {"auto_date_histogram": {"field": "date", "buckets": 10}}}}));
    assert_eq!(r["h"]["interval"], "1d");
    let counts: Vec<u64> =
        r["h"]["buckets"].as_array().unwrap().iter().map(|b| b["doc_count"].as_u64().unwrap()).collect();
    assert_eq!(counts, [1, 1, 0, 0, 0, 0, 0, 1, 1]);
    // One bucket: months.
    let r = aggs(
        &ix,
        json!({"size": 0, "aggs": {"h": {"auto_date_histogram": {"field": "date", "buckets": 1, "format": "yyyy-MM"}}}}),
    );
    assert_eq!(
        r["h"],
        json!({"buckets": [{"key_as_string": "2020-03", "key": 1583020800000i64, "doc_count": 4}], "interval": "1M"})
    );
    // No documents: no buckets, the finest interval.
    let r = aggs(
        &ix,
        json!({"size": 0, "query": {"term": {"v": 9}}, "aggs": {"h": {"auto_date_histogram": {"field": "date"}}}}),
    );
    assert_eq!(r["h"], json!({"buckets": [], "interval": "1s"}));
    let e = ix.refused(json!({"aggs": {"h": {"auto_date_histogram": {"field": "date", "buckets": 0}}}}));
    assert_eq!(e.2, "buckets must be greater than 0 for [h]");
}

#[test]
fn diversified_sampler_bounds_documents_per_value() {
    let ix = index(
        "diversified",
        mapped(json!({"text": {"type": "text"}, "author": {"type": "keyword"}, "n": {"type": "long"}})),
        &[
            ("1", json!({"text": "rust rust rust", "author": "ann", "n": 1})),
            ("2", json!({"text": "rust rust", "author": "ann", "n": 1})),
            ("3", json!({"text": "rust", "author": "bob", "n": 2})),
            ("4", json!({"text": "rust and other words", "author": "cid", "n": [3, 4]})),
            ("5", json!({"text": "rust again and again"})),
        ],
    );
    let sample = |def: Value| {
        aggs(
            &ix,
            json!({"query": {"match": {"text": "rust"}},
                   "aggs": {"s": {"diversified_sampler": def, "aggs": {"ids": {"terms": {"field": "_id", "order": {"_key": "asc"}}}}}}}),
        )["s"]
            .clone()
    };
    let ids = |s: &Value| -> Vec<String> {
        s["ids"]["buckets"].as_array().unwrap().iter().map(|b| b["key"].as_str().unwrap().to_string()).collect()
    };
    // One document per author: ann's best (1), bob's, cid's; document 5 has no author and
    // shares the key of the first term, ann's, so it is left out.
    let s = sample(json!({"field": "author", "shard_size": 10}));
    assert_eq!(s["doc_count"], 3);
    assert_eq!(ids(&s), ["1", "3", "4"]);
    // Two per author, at most three in all: the best three within that bound.
    let s = sample(json!({"field": "author", "shard_size": 3, "max_docs_per_value": 2}));
    assert_eq!(s["doc_count"], 3);
    assert_eq!(ids(&s), ["1", "2", "3"]);
    // A multi-valued key is refused.
    let e = ix
        .refused(json!({"query": {"match": {"text": "rust"}}, "aggs": {"s": {"diversified_sampler": {"field": "n"}}}}));
    assert_eq!(
        e,
        (400, "illegal_argument_exception".into(), "Sample diversifying key must be a single valued-field".into())
    );
}

#[test]
fn adjacency_matrix_reference_example() {
    // The reference page's emails: who wrote with whom.
    let ix = index(
        "emails",
        mapped(json!({"accounts": {"type": "keyword"}})),
        &[
            ("1", json!({"accounts": ["hillary", "sidney"]})),
            ("2", json!({"accounts": ["hillary", "donald"]})),
            ("3", json!({"accounts": ["vladimir", "donald"]})),
        ],
    );
    let r = aggs(
        &ix,
        json!({"size": 0, "aggs": {"interactions": {"adjacency_matrix": {"filters": {
            "grpA": {"terms": {"accounts": ["hillary", "sidney"]}},
            "grpB": {"terms": {"accounts": ["donald", "mitt"]}},
            "grpC": {"terms": {"accounts": ["vladimir", "nigel"]}}}}}}}),
    );
    assert_eq!(
        r["interactions"],
        json!({"buckets": [
            {"key": "grpA", "doc_count": 2}, {"key": "grpA&grpB", "doc_count": 1}, {"key": "grpB", "doc_count": 2},
            {"key": "grpB&grpC", "doc_count": 1}, {"key": "grpC", "doc_count": 1}]})
    );
}

/// `200_top_hits_metric.yml`'s index: two documents of one group.
fn top_hits_index() -> Index {
    index(
        "top-hits",
        mapped(json!({"group": {"type": "keyword"}, "last": {"type": "keyword"}, "n": {"type": "integer"}})),
        &[
            ("1", json!({"group": "fans", "last": "Smith", "n": 1})),
            ("2", json!({"group": "fans", "last": "Doe", "n": 2})),
        ],
    )
}

#[test]
fn top_hits_sequence_numbers_explain_and_tracked_scores() {
    let ix = top_hits_index();
    let a = aggs(
        &ix,
        json!({"size": 0, "aggs": {"g": {"terms": {"field": "group"}, "aggs": {"top": {"top_hits": {
            "sort": ["last"], "seq_no_primary_term": true, "_source": false}}}}}}),
    );
    assert_eq!(
        a["g"]["buckets"][0]["top"]["hits"]["hits"],
        json!([
            {"_index": "test", "_type": "_doc", "_id": "2", "_seq_no": 1, "_primary_term": 1, "_score": null, "sort": ["Doe"]},
            {"_index": "test", "_type": "_doc", "_id": "1", "_seq_no": 0, "_primary_term": 1, "_score": null, "sort": ["Smith"]}
        ])
    );
    // `track_scores` computes and shows the scores a sort by field leaves out.
    let a = aggs(
        &ix,
        json!({"size": 0, "aggs": {"top": {"top_hits": {"sort": ["last"], "track_scores": true, "size": 1, "_source": false}}}}),
    );
    assert_eq!(
        a["top"]["hits"],
        json!({"total": 2, "max_score": 1.0, "hits": [
            {"_index": "test", "_type": "_doc", "_id": "2", "_score": 1.0, "sort": ["Doe"]}]})
    );
    // `explain` explains each hit against the query, located on its shard.
    let a = aggs(
        &ix,
        json!({"query": {"term": {"last": "Doe"}}, "size": 0, "aggs": {"top": {"top_hits": {"explain": true, "_source": false}}}}),
    );
    let hit = &a["top"]["hits"]["hits"][0];
    assert_eq!(hit["_shard"], "[test][0]");
    assert_eq!(hit["_explanation"]["value"], hit["_score"]);
    assert!(hit["_explanation"]["description"].as_str().unwrap().starts_with("weight(last:Doe"), "{hit}");
}
