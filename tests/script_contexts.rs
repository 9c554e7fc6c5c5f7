//! Painless in more of ES 6.8's search contexts: date and ip doc values, scripts in
//! bucket aggregations, `scripted_metric`, and the `script` query beside other clauses.

mod common;

use common::mapped_index::{index, mapped, Index};
use metagate::gateway::Request;
use serde_json::{json, Value};

fn events() -> Index {
    index(
        "script-dates",
        mapped(json!({
            "when": {"type": "date"},
            "addr": {"type": "ip"},
            "loc": {"type": "geo_point"},
            "n": {"type": "long"},
            "tag": {"type": "keyword"}
        })),
        &[
            // A Friday, 10:05 UTC.
            (
                "1",
                json!({"when": "2019-03-01T10:05:00Z", "addr": "192.168.0.1", "loc": "52.37,4.89", "n": 1, "tag": "a"}),
            ),
            ("2", json!({"when": "2020-02-29T23:59:58.250Z", "addr": "::1", "n": 2, "tag": "b"})),
            ("3", json!({"when": ["2018-12-31T00:00:00Z", "2021-06-15T12:00:00Z"], "n": 3, "tag": "a"})),
            ("4", json!({"n": 4, "tag": "c"})),
        ],
    )
}

/// A search's status, body and `Warning` header texts.
fn search_warned(ix: &Index, body: Value) -> (u16, Value, Vec<String>) {
    let r = ix.gateway.handle_in_process(&Request {
        method: "POST".into(),
        path: "/elastic/v1/test/_search".into(),
        headers: vec![("Content-Type".to_string(), "application/json".to_string())],
        body: body.to_string().into_bytes(),
    });
    let warnings = r
        .headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("warning"))
        .map(|(_, v)| {
            // 299 Elasticsearch-6.8.x-hash "message" "date": the message.
            let quoted = v.split_once('"').map(|(_, rest)| rest).unwrap_or_default();
            quoted.split_once("\" \"").map(|(m, _)| m.to_string()).unwrap_or_default()
        })
        .collect();
    (r.status, serde_json::from_slice(&r.body).unwrap(), warnings)
}

/// The values of script field `f` of each hit, in `_id` order (a list's elements, or
/// the one value).
fn field_values(ix: &Index, script: &str) -> Vec<Value> {
    let v = ix.search(json!({"sort": ["_id"], "script_fields": {"f": {"script": script}}}));
    v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["fields"]["f"].clone()).collect()
}

/// [`field_values`] of a script answering one value.
fn field_value(ix: &Index, script: &str) -> Vec<Value> {
    field_values(ix, script).into_iter().map(|v| v[0].clone()).collect()
}

#[test]
fn date_doc_values_are_joda_compatible_zoned_date_times() {
    let ix = events();
    assert_eq!(
        field_values(
            &ix,
            "def d = doc['when'].value; [d.year, d.monthValue, d.dayOfMonth, d.dayOfYear, d.hour, d.minute, d.second]"
        ),
        vec![
            json!([2019, 3, 1, 60, 10, 5, 0]),
            json!([2020, 2, 29, 60, 23, 59, 58]),
            json!([2018, 12, 31, 365, 0, 0, 0]),
            json!([1970, 1, 1, 1, 0, 0, 0])
        ]
    );
    // toString is java.time's; a date in a response is ES's date printer's.
    assert_eq!(
        field_value(&ix, "doc['when'].value.toString()"),
        vec![
            json!("2019-03-01T10:05Z"),
            json!("2020-02-29T23:59:58.250Z"),
            json!("2018-12-31T00:00Z"),
            json!("1970-01-01T00:00Z")
        ]
    );
    assert_eq!(field_value(&ix, "doc['when'].value")[0], json!("2019-03-01T10:05:00.000Z"));
    assert_eq!(
        field_value(&ix, "doc['when'].value.toInstant().toEpochMilli()"),
        vec![json!(1_551_434_700_000i64), json!(1_583_020_798_250i64), json!(1_546_214_400_000i64), json!(0)]
    );
    assert_eq!(
        field_value(&ix, "doc['when'].value.getMonth() + ' ' + doc['when'].value.dayOfWeekEnum")[0],
        json!("MARCH FRIDAY")
    );
    assert_eq!(
        field_value(&ix, "doc['when'].size() > 1 && doc['when'].values[0].isBefore(doc['when'].values[1])"),
        vec![json!(false), json!(false), json!(true), json!(false)]
    );
    assert_eq!(field_value(&ix, "doc['when'].value.plusDays(1).dayOfMonth")[1], json!(1));
    assert_eq!(field_value(&ix, "doc['when'].value == doc['when'].value")[0], json!(true));
    assert_eq!(field_value(&ix, "doc['addr'].value")[..2], [json!("192.168.0.1"), json!("::1")]);

    // The Joda getters answer with 6.8's deprecation warnings.
    let (status, v, warnings) = search_warned(
        &ix,
        json!({"sort": ["_id"], "script_fields": {"f": {"script": "def d = doc['when'].value; [d.millis, d.getDayOfWeek(), d.monthOfYear, d.hourOfDay, d.minuteOfHour, d.secondOfMinute]"}}}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["hits"]["hits"][0]["fields"]["f"], json!([1_551_434_700_000i64, 5, 3, 10, 5, 0]));
    assert_eq!(
        warnings,
        vec![
            "Use of the joda time method [getMillis()] is deprecated. Use [toInstant().toEpochMilli()] instead.",
            "The return type of [getDayOfWeek()] will change to an enum in 7.0. Use getDayOfWeekEnum().getValue().",
            "Use of the joda time method [getMonthOfYear()] is deprecated. Use [getMonthValue()] instead.",
            "Use of the joda time method [getHourOfDay()] is deprecated. Use [getHour()] instead.",
            "Use of the joda time method [getMinuteOfHour()] is deprecated. Use [getMinute()] instead.",
            "Use of the joda time method [getSecondOfMinute()] is deprecated. Use [getSecond()] instead.",
            // Document 4 has no date: its `.value` is the epoch.
            "returning default values for missing document values is deprecated. \
             Set system property '-Des.scripting.exception_for_missing_value=true' \
             to make behaviour compatible with future major versions!",
        ]
    );
    let (_, v, warnings) = search_warned(
        &ix,
        json!({"sort": ["_id"], "script_fields": {"f": {"script": "[doc['when'].date.year, doc['when'].dates.size()]"}}}),
    );
    assert_eq!(v["hits"]["hits"][2]["fields"]["f"], json!([2018, 2]));
    assert_eq!(
        warnings,
        vec![
            "getDate is no longer necessary on date fields as the value is now a date.",
            "getDates is no longer necessary on date fields as the values are now dates.",
            "returning default values for missing document values is deprecated. \
             Set system property '-Des.scripting.exception_for_missing_value=true' \
             to make behaviour compatible with future major versions!",
        ]
    );
    // A plain ZonedDateTime has no Joda getters.
    let (status, v, _) =
        search_warned(&ix, json!({"script_fields": {"f": {"script": "doc['when'].value.plusDays(1).getMillis()"}}}));
    assert_eq!(status, 400);
    assert_eq!(
        v["error"]["failed_shards"][0]["reason"]["caused_by"]["reason"],
        "Unable to find dynamic method [getMillis] with [0] arguments for class [java.time.ZonedDateTime]."
    );
}

#[test]
fn geo_point_doc_values_read_as_es_geo_points() {
    let ix = events();
    // The coordinates as Lucene's `LatLonDocValuesField` encoding gives them back
    // (GeoEncodingUtils: floor(v / step) * step, steps of 180 and 360 over 2^32).
    let lat = (52.37f64 / (180.0 / 4294967296.0)).floor() * (180.0 / 4294967296.0);
    let lon = (4.89f64 / (360.0 / 4294967296.0)).floor() * (360.0 / 4294967296.0);
    assert_eq!(field_value(&ix, "doc['loc'].value")[0], json!({"lat": lat, "lon": lon}));
    assert_eq!(
        field_values(&ix, "doc['loc'].empty ? null : [doc['loc'].lat, doc['loc'].value.lon, doc['loc'].lons.size()]")
            [0],
        json!([lat, lon, 1])
    );
    assert_eq!(
        field_value(&ix, "doc['loc'].empty ? null : doc['loc'].value.toString()")[0],
        json!(format!("{lat}, {lon}"))
    );
    assert_eq!(field_value(&ix, "doc['loc'].value == null")[1], json!(true));
}

#[test]
fn scripts_filter_and_sort_on_dates() {
    let ix = events();
    let (status, v) = ix.send("POST", "/test/_search", json!({"query": {"script": {"script": {"source": "doc['when'].size() > 0 && doc['when'].value.year >= params.y", "params": {"y": 2019}}}},
        "sort": [{"_script": {"type": "number", "script": "doc['when'].value.toInstant().toEpochMilli()", "order": "desc"}}]}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(common::hit_ids(&v), vec!["2", "1"]);
}

#[test]
fn a_script_filter_runs_only_on_the_other_clauses_candidates() {
    let ix = events();
    // On document 4 (n = 4) the script divides by zero: it must never run there.
    let script = json!({"script": {"script": "100 / (4 - doc['n'].value) > 0"}});
    let (status, v) = ix.send("POST", "/test/_search", json!({"query": script}));
    assert_eq!(status, 400);
    assert_eq!(v["error"]["failed_shards"][0]["reason"]["caused_by"]["reason"], "/ by zero");
    for query in [
        json!({"bool": {"filter": [{"term": {"tag": "a"}}, script]}}),
        json!({"bool": {"must": {"match": {"tag": "a"}}, "filter": script}}),
        json!({"bool": {"filter": [script, {"range": {"n": {"lt": 4}}}], "must_not": {"term": {"tag": "b"}}}}),
    ] {
        assert_eq!(ix.ids(query), vec!["1", "3"]);
    }
    // Beside only optional clauses the script has no candidates to verify: it runs on all.
    let (status, _) = ix.send(
        "POST",
        "/test/_search",
        json!({"query": {"bool": {"should": {"term": {"tag": "a"}}, "filter": script}}}),
    );
    assert_eq!(status, 400);
}

#[test]
fn bucket_aggregations_take_scripts_and_value_scripts() {
    let ix = events();
    let v = ix.search(json!({"size": 0, "aggs": {
        "h": {"histogram": {"script": "doc['n'].value * 2", "interval": 3}},
        "scaled": {"range": {"field": "n", "script": "_value * 10", "ranges": [{"to": 25}, {"from": 25}]}},
        "years": {"date_histogram": {"script": "doc['when'].values", "interval": "year"}},
        "eras": {"date_range": {"script": "doc['when'].values", "ranges": [{"to": "2020-01-01"}, {"from": "2020-01-01"}]}},
        "distinct": {"cardinality": {"script": "doc['tag'].value"}},
        "pairs": {"composite": {"sources": [
            {"t": {"terms": {"script": "doc['tag'].value.toUpperCase()"}}},
            {"h": {"histogram": {"script": "doc['n'].value % 2", "interval": 1}}}
        ]}}
    }}));
    let aggs = &v["aggregations"];
    assert_eq!(
        aggs["h"]["buckets"],
        json!([{"key": 0.0, "doc_count": 1}, {"key": 3.0, "doc_count": 1}, {"key": 6.0, "doc_count": 2}])
    );
    let counts = |a: &Value| -> Vec<(String, u64)> {
        a["buckets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                let key = b.get("key_as_string").or_else(|| b.get("key")).unwrap();
                (key.as_str().map(str::to_string).unwrap_or_else(|| key.to_string()), b["doc_count"].as_u64().unwrap())
            })
            .collect()
    };
    assert_eq!(counts(&aggs["scaled"]), vec![("*-25.0".to_string(), 2), ("25.0-*".to_string(), 2)]);
    assert_eq!(
        counts(&aggs["years"]),
        vec![
            ("2018-01-01T00:00:00.000Z".to_string(), 1),
            ("2019-01-01T00:00:00.000Z".to_string(), 1),
            ("2020-01-01T00:00:00.000Z".to_string(), 1),
            ("2021-01-01T00:00:00.000Z".to_string(), 1),
        ]
    );
    assert_eq!(aggs["years"]["buckets"][0]["key"], json!(1_514_764_800_000i64));
    assert_eq!(
        counts(&aggs["eras"]),
        vec![("*-2020-01-01T00:00:00.000Z".to_string(), 2), ("2020-01-01T00:00:00.000Z-*".to_string(), 2)]
    );
    assert_eq!(aggs["distinct"]["value"], json!(3));
    assert_eq!(
        aggs["pairs"]["buckets"],
        json!([
            {"key": {"t": "A", "h": 1.0}, "doc_count": 2},
            {"key": {"t": "B", "h": 0.0}, "doc_count": 1},
            {"key": {"t": "C", "h": 0.0}, "doc_count": 1}
        ])
    );
}

#[test]
fn numeric_metrics_over_a_script_match_the_same_metrics_over_the_field() {
    let ix = events();
    let by_field = ix.search(json!({"size": 0, "aggs": {
        "p": {"percentiles": {"field": "n", "percents": [25, 50, 99]}},
        "e": {"extended_stats": {"field": "n"}},
        "c": {"cardinality": {"field": "n"}}
    }}));
    let by_script = ix.search(json!({"size": 0, "aggs": {
        "p": {"percentiles": {"script": "doc['n'].value", "percents": [25, 50, 99]}},
        "e": {"extended_stats": {"script": {"source": "doc['n'].value * params.one", "params": {"one": 1}}}},
        "c": {"cardinality": {"field": "n", "script": "_value"}}
    }}));
    assert_eq!(by_field["aggregations"], by_script["aggregations"]);
    assert_eq!(by_field["aggregations"]["e"]["count"], json!(4));
}

#[test]
fn scripted_metric_runs_init_map_combine_and_reduce() {
    let ix = events();
    // ES 6.8's documented example, over tag a as sales and the others as costs.
    let v = ix.search(json!({"size": 0, "aggs": {
        "profit": {"scripted_metric": {
            "init_script": "state.transactions = []",
            "map_script": "state.transactions.add(doc.tag.value == 'a' ? doc.n.value : -1 * doc.n.value)",
            "combine_script": "double profit = 0; for (t in state.transactions) { profit += t } return profit",
            "reduce_script": "double profit = 0; for (a in states) { profit += a } return profit"
        }},
        "older": {"scripted_metric": {
            "params": {"k": 10},
            "init_script": "params._agg.total = 0L",
            "map_script": "params._agg.total += doc['n'].value * params.k",
            "combine_script": "return params._agg.total",
            "reduce_script": {"source": "long s = params.base; for (x in params._aggs) { s += x } return s", "params": {"base": 1}}
        }},
        "raw": {"scripted_metric": {"map_script": "state.n = (state.n ?: 0) + 1"}},
        "per_tag": {"terms": {"field": "tag"}, "aggs": {"sum": {"scripted_metric": {
            "init_script": "state.s = 0", "map_script": "state.s += doc['n'].value", "combine_script": "state.s",
            "reduce_script": "states[0]"
        }}}}
    }}));
    let aggs = &v["aggregations"];
    assert_eq!(aggs["profit"], json!({"value": -2.0}));
    assert_eq!(aggs["older"], json!({"value": 101}));
    // No combine: the state; no reduce: the list of the shards' results.
    assert_eq!(aggs["raw"], json!({"value": [{"n": 4}]}));
    let sums: Vec<(String, Value)> = aggs["per_tag"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["key"].as_str().unwrap().to_string(), b["sum"]["value"].clone()))
        .collect();
    assert_eq!(sums, vec![("a".into(), json!(4)), ("b".into(), json!(2)), ("c".into(), json!(4))]);

    let (status, v) =
        ix.send("POST", "/test/_search", json!({"aggs": {"x": {"scripted_metric": {"init_script": "state.a = 1"}}}}));
    assert_eq!((status, v["error"]["reason"].as_str()), (400, Some("map_script field is required in [x].")));
    let (status, v) = ix.send(
        "POST",
        "/test/_search",
        json!({"aggs": {"x": {"scripted_metric": {"params": {"a": 1}, "map_script": {"source": "state.a = params.a", "params": {"a": 2}}}}}}),
    );
    assert_eq!(status, 400, "{v}");
    assert_eq!(
        v["error"]["root_cause"][0]["reason"],
        "Parameter name \"a\" used in both aggregation and script parameters"
    );
}

#[test]
fn aggregation_scripts_read_the_query_score() {
    let ix = events();
    let scored = json!({"function_score": {"query": {"match_all": {}},
        "script_score": {"script": "doc['n'].value"}, "boost_mode": "replace"}});
    let v = ix.search(json!({"size": 0, "query": scored, "aggs": {
        "by_score": {"terms": {"script": "_score", "order": {"_key": "asc"}}},
        "doubled": {"sum": {"script": "_score * 2"}},
        "scored_values": {"max": {"field": "n", "script": "_value * _score"}},
        "hist": {"histogram": {"script": "_score", "interval": 2}}
    }}));
    let a = &v["aggregations"];
    let keys: Vec<&Value> = a["by_score"]["buckets"].as_array().unwrap().iter().map(|b| &b["key"]).collect();
    assert_eq!(keys, [&json!("1.0"), &json!("2.0"), &json!("3.0"), &json!("4.0")]);
    assert_eq!(a["doubled"]["value"], json!(20.0));
    assert_eq!(a["scored_values"]["value"], json!(16.0));
    let counts: Vec<(f64, u64)> = a["hist"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["key"].as_f64().unwrap(), b["doc_count"].as_u64().unwrap()))
        .collect();
    assert_eq!(counts, [(0.0, 1), (2.0, 2), (4.0, 1)]);
    // A bool of filters alone scores 0.0, as Lucene scores it.
    let v = ix.search(json!({"size": 0, "query": {"bool": {"filter": {"term": {"tag": "a"}}}},
        "aggs": {"s": {"terms": {"script": "_score"}}}}));
    assert_eq!(v["aggregations"]["s"]["buckets"], json!([{"key": "0.0", "doc_count": 2}]));
}

#[test]
fn scripted_metric_map_scripts_read_the_query_score() {
    let ix = events();
    let scored = json!({"function_score": {"query": {"match_all": {}},
        "script_score": {"script": "doc['n'].value"}, "boost_mode": "replace"}});
    let v = ix.search(json!({"size": 0, "query": scored, "aggs": {"total": {"scripted_metric": {
        "init_script": "state.total = 0.0",
        "map_script": "state.total += _score",
        "combine_script": "return state.total",
        "reduce_script": "double t = 0; for (s in states) { t += s } return t"
    }}}}));
    assert_eq!(v["aggregations"]["total"]["value"], json!(10.0));
}

/// ES 6.8's `ScriptDocValues.getValue()` of a document without a value: the type's default
/// with a deprecation warning; ScriptDocValues has no `min`/`max`/`sum`/`avg` in 6.8 (the
/// getters 70_missing_and_multiple_values.yml reads were 7.x-branch only), so `doc[f].min`
/// is Def's list-shortcut error.
#[test]
fn missing_doc_values_answer_defaults_with_a_warning() {
    const MISSING: &str = "returning default values for missing document values is deprecated. \
        Set system property '-Des.scripting.exception_for_missing_value=true' \
        to make behaviour compatible with future major versions!";
    let ix = events();
    // Document 4 has no date, ip or point; `n` is a long everywhere.
    let body = json!({"sort": ["_id"], "script_fields": {"w": {"script": "doc['when'].value.year"}, "n": {"script": "doc['n'].value * 2"}}});
    let (status, v, warnings) = search_warned(&ix, body);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["hits"]["hits"][3]["fields"]["w"], json!([1970]));
    assert_eq!(warnings, vec![MISSING]);
    let (_, _, warnings) = search_warned(&ix, json!({"script_fields": {"n": {"script": "doc['n'].value * 2"}}}));
    assert!(warnings.is_empty(), "{warnings:?}");
    // Keyword, number and boolean defaults, through the getter and the field shortcut.
    let (_, v, warnings) = search_warned(
        &ix,
        json!({"sort": ["_id"], "query": {"ids": {"values": ["4"]}}, "script_fields": {
            "f": {"script": "[doc['addr'].value, doc['loc'].getValue(), doc['when'].size()]"}}}),
    );
    assert_eq!(v["hits"]["hits"][0]["fields"]["f"], json!([null, null, 0]));
    assert_eq!(warnings, vec![MISSING]);

    // A name that is no getter is not a field of ScriptDocValues (a list).
    let (status, v, _) = search_warned(&ix, json!({"script_fields": {"f": {"script": "doc['n']?.min ?: -1"}}}));
    assert_eq!(status, 400);
    assert_eq!(v["error"]["failed_shards"][0]["reason"]["caused_by"]["reason"], "Illegal list shortcut value [min].");
}
