//! `"lang": "expression"`: Lucene expressions in ES 6.8's search contexts (script
//! fields, `function_score`, `_script` sort, aggregation and value scripts, `script`
//! queries, `terms_set`, bucket scripts), ES's variables over the field types, and
//! ES's compile and link errors, with the contexts ES refuses them in.

mod common;

use common::mapped_index::{index, mapped, Index};
use serde_json::{json, Value};

fn fixture() -> Index {
    index(
        "script-expression",
        mapped(json!({
            "n": {"type": "long"},
            "d": {"type": "double"},
            "ok": {"type": "boolean"},
            "when": {"type": "date"},
            "loc": {"type": "geo_point"},
            "tag": {"type": "keyword"},
            "body": {"type": "text"}
        })),
        &[
            // A Friday, 10:05:07 UTC.
            (
                "1",
                json!({"n": [20, 5, 1, 10], "d": 2.5, "ok": true, "when": "2019-03-01T10:05:07Z", "loc": "52.37,4.89", "tag": "a", "body": "x"}),
            ),
            ("2", json!({"n": 3, "d": -1.25, "ok": false, "when": "2020-02-29T23:59:58Z", "tag": "b"})),
            ("3", json!({"tag": "a"})),
        ],
    )
}

fn expression(source: &str) -> Value {
    json!({"lang": "expression", "source": source})
}

/// Script field `f` of each hit in `_id` order (its one value).
fn field(ix: &Index, script: Value) -> Vec<Value> {
    let v = ix.search(json!({"sort": ["_id"], "script_fields": {"f": {"script": script}}}));
    v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["fields"]["f"][0].clone()).collect()
}

/// The `reason` of the first failed shard of a refused search, and the status.
fn shard_failure(ix: &Index, body: Value) -> (u16, Value) {
    let (status, v) = ix.send("POST", "/test/_search", body);
    assert_eq!(v["error"]["type"], "search_phase_execution_exception", "{v}");
    (status, v["error"]["failed_shards"][0]["reason"].clone())
}

#[test]
fn the_rest_test_script_field() {
    let ix = fixture();
    assert_eq!(field(&ix, expression("doc['n'].value + 19")), vec![json!(20.0), json!(22.0), json!(19.0)]);
}

#[test]
fn numeric_members_and_methods() {
    let ix = fixture();
    let cases = [
        ("doc['n']", [1.0, 3.0, 0.0]),
        ("doc['n'].min()", [1.0, 3.0, 0.0]),
        ("doc['n'].max()", [20.0, 3.0, 0.0]),
        ("doc['n'].sum()", [36.0, 3.0, 0.0]),
        ("doc['n'].avg()", [9.0, 3.0, 0.0]),
        ("doc['n'].median()", [7.5, 3.0, 0.0]),
        ("doc['n'].count()", [4.0, 1.0, 0.0]),
        ("doc['n'].length", [4.0, 1.0, 0.0]),
        ("doc['n'].size()", [4.0, 1.0, 0.0]),
        ("doc['n'].empty", [0.0, 0.0, 1.0]),
        ("doc['n'].isEmpty()", [0.0, 0.0, 1.0]),
        ("doc[\"d\"].getValue() * 2", [5.0, -2.5, 0.0]),
        ("doc['ok'].value", [1.0, 0.0, 0.0]),
        ("doc['n'].value > 2 ? 100 : -100", [-100.0, 100.0, -100.0]),
        ("pow(doc['d'].value, 2) + x", [7.25, 2.5625, 1.0]),
    ];
    for (source, want) in cases {
        let script = json!({"lang": "expression", "source": source, "params": {"x": 1}});
        assert_eq!(field(&ix, script), want.map(|v| json!(v)).to_vec(), "{source}");
    }
}

#[test]
fn date_methods_and_the_date_object() {
    let ix = fixture();
    let cases = [
        ("doc['when'].getYear()", [2019.0, 2020.0, 1970.0]),
        // Calendar.MONTH counts from 0.
        ("doc['when'].getMonth()", [2.0, 1.0, 0.0]),
        ("doc['when'].getDayOfMonth()", [1.0, 29.0, 1.0]),
        ("doc['when'].getHourOfDay()", [10.0, 23.0, 0.0]),
        ("doc['when'].getMinutes()", [5.0, 59.0, 0.0]),
        ("doc['when'].getSeconds()", [7.0, 58.0, 0.0]),
        ("doc['when'].date.monthOfYear", [3.0, 2.0, 1.0]),
        ("doc['when'].date.dayOfWeek", [5.0, 6.0, 4.0]),
        ("doc['when'].date.getDayOfYear()", [60.0, 60.0, 1.0]),
        ("doc['when'].date.weekOfWeekyear", [9.0, 9.0, 1.0]),
        ("doc['when'].date.centuryOfEra", [20.0, 20.0, 19.0]),
        ("doc['when'].date.yearOfCentury", [19.0, 20.0, 70.0]),
        ("doc['when'].date.secondOfDay", [36307.0, 86398.0, 0.0]),
        ("doc['when'].value", [1551434707000.0, 1583020798000.0, 0.0]),
    ];
    for (source, want) in cases {
        assert_eq!(field(&ix, expression(source)), want.map(|v| json!(v)).to_vec(), "{source}");
    }
}

#[test]
fn geo_point_members() {
    let ix = fixture();
    let lat = field(&ix, expression("doc['loc'].lat"));
    assert!((lat[0].as_f64().unwrap() - 52.37).abs() < 1e-6, "{lat:?}");
    assert_eq!(lat[1], json!(0.0));
    let lon = field(&ix, expression("doc['loc'].getLon()"));
    assert!((lon[0].as_f64().unwrap() - 4.89).abs() < 1e-6, "{lon:?}");
    assert_eq!(field(&ix, expression("doc['loc'].empty")), vec![json!(0.0), json!(1.0), json!(1.0)]);
    let km = field(&ix, expression("haversin(doc['loc'].lat, doc['loc'].lon, 48.86, 2.35)"));
    assert!((km[0].as_f64().unwrap() - 430.0).abs() < 5.0, "{km:?}");
}

#[test]
fn scores_sorts_filters_and_terms_set() {
    let ix = fixture();
    let v = ix.search(json!({
        "query": {"function_score": {
            "query": {"match_all": {}},
            "script_score": {"script": expression("_score * 10 + doc['d'].value")},
            "boost_mode": "replace"
        }},
        "sort": ["_id"],
        "track_scores": true
    }));
    let scores: Vec<Value> = v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_score"].clone()).collect();
    assert_eq!(scores, vec![json!(12.5), json!(8.75), json!(10.0)]);

    let v = ix.search(
        json!({"sort": {"_script": {"type": "number", "script": expression("-doc['n'].max()"), "order": "asc"}}}),
    );
    let ids: Vec<&str> = v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["1", "2", "3"]);
    assert_eq!(v["hits"]["hits"][0]["sort"], json!([-20.0]));

    assert_eq!(ix.ids(json!({"script": {"script": expression("doc['n'].value >= 1")}})), ["1", "2"]);
    assert_eq!(ix.ids(json!({"script": {"script": expression("doc['d'].value")}})), ["1", "2"]);
    // A filter keeps what is not 0 (as a double: 0.5 passes).
    assert_eq!(ix.ids(json!({"script": {"script": expression("0.5")}})), ["1", "2", "3"]);
    assert_eq!(ix.ids(json!({"script": {"script": expression("0.5 && 1")}})), Vec::<String>::new());

    let ids = ix.ids(json!({"terms_set": {"tag": {
        "terms": ["a", "b"],
        "minimum_should_match_script": expression("num_terms - 1")
    }}}));
    assert_eq!(ids, ["1", "2", "3"]);
}

#[test]
fn aggregation_and_value_scripts() {
    let ix = fixture();
    let v = ix.search(json!({"size": 0, "aggs": {
        "s": {"sum": {"script": expression("doc['d'].value * 2")}},
        "v": {"max": {"field": "d", "script": expression("_value * 10")}},
        "t": {"terms": {"script": expression("doc['n'].empty")}}
    }}));
    assert_eq!(v["aggregations"]["s"]["value"], json!(2.5));
    assert_eq!(v["aggregations"]["v"]["value"], json!(25.0));
    assert_eq!(
        v["aggregations"]["t"]["buckets"],
        json!([{"key": "0.0", "doc_count": 2}, {"key": "1.0", "doc_count": 1}])
    );
}

#[test]
fn bucket_scripts() {
    let ix = fixture();
    let v = ix.search(json!({"size": 0, "aggs": {"by": {
        "terms": {"field": "tag", "order": {"_key": "asc"}},
        "aggs": {
            "total": {"sum": {"field": "d"}},
            "double": {"bucket_script": {"buckets_path": {"t": "total"}, "script": expression("t * 2")}},
            "keep": {"bucket_selector": {"buckets_path": {"c": "_count"}, "script": expression("c == 2")}}
        }
    }}}));
    let buckets = v["aggregations"]["by"]["buckets"].as_array().unwrap();
    assert_eq!(buckets.len(), 1, "{v}");
    assert_eq!(buckets[0]["key"], "a");
    assert_eq!(buckets[0]["double"]["value"], json!(5.0));
}

#[test]
fn compile_errors_as_es() {
    let ix = fixture();
    let (status, reason) =
        shard_failure(&ix, json!({"script_fields": {"f": {"script": expression("doc['n'].value +")}}}));
    assert_eq!(status, 400);
    assert_eq!(
        reason,
        json!({
            "type": "script_exception",
            "reason": "compile error",
            "script_stack": ["doc['n'].value +", "                ^---- HERE"],
            "script": "doc['n'].value +",
            "lang": "expression",
            "caused_by": {"type": "parse_exception", "reason": "unexpected end of expression"}
        })
    );
    let (_, reason) = shard_failure(&ix, json!({"query": {"script": {"script": expression("sqrt(1, 2)")}}}));
    assert_eq!(
        reason["caused_by"]["reason"],
        "Invalid expression 'sqrt(1, 2)': Expected (1) arguments for function call (sqrt), but found (2)."
    );
}

#[test]
fn link_errors_as_es() {
    let ix = fixture();
    let link = |source: &str| shard_failure(&ix, json!({"script_fields": {"f": {"script": expression(source)}}})).1;
    assert_eq!(
        link("x + 1"),
        json!({
            "type": "script_exception",
            "reason": "link error",
            "script_stack": ["x", "^---- HERE"],
            "script": "x + 1",
            "lang": "expression",
            "caused_by": {"type": "parse_exception", "reason": "Unknown variable [x]"}
        })
    );
    let e = link("doc['nope'].value");
    assert_eq!(e["script_stack"], json!(["doc['nope'].value", "     ^---- HERE"]));
    assert_eq!(e["caused_by"], json!({"type": "parse_exception", "reason": "Field [nope] does not exist in mappings"}));
    let e = link("doc[\"tag\"]");
    assert_eq!(e["script_stack"], json!(["doc['tag']", "     ^---- HERE"]));
    assert_eq!(e["caused_by"]["reason"], "Field [tag] must be numeric, date, or geopoint");
    assert_eq!(
        link("doc['n'].foo")["caused_by"],
        json!({"type": "illegal_argument_exception", "reason": "Member variable [foo] does not exist for numeric field [n]."})
    );
    assert_eq!(
        link("doc['when'].date.foo()")["caused_by"]["reason"],
        "Member method [foo] does not exist for date object on field [when]."
    );
    assert_eq!(
        link("doc['loc'].value")["caused_by"]["reason"],
        "Member variable [value] does not exist for geo field [loc]."
    );
    assert_eq!(
        link("doc['n'][0]")["caused_by"]["reason"],
        "Only member variables or member methods may be accessed on a field when not accessing the field directly"
    );
    assert_eq!(
        link("doc['n'][0].x")["caused_by"]["reason"],
        "Variable [doc['n'][0].x] does not follow an allowed format of either doc['field'] or doc['field'].method()"
    );
    assert_eq!(
        link("doc")["caused_by"]["reason"],
        "Variable 'doc' must be used with a specific field like: doc['myfield']"
    );
    assert_eq!(link("doc")["script_stack"], json!(["doc", "   ^---- HERE"]));
    assert!(link("doc['body'].value")["caused_by"]["reason"]
        .as_str()
        .unwrap()
        .starts_with("Fielddata is disabled on text fields"));
    // Script fields bind neither `_score` nor `_value`.
    assert_eq!(link("_score")["caused_by"]["reason"], "Unknown variable [_score]");
    let e = shard_failure(
        &ix,
        json!({"script_fields": {"f": {"script": {"lang": "expression", "source": "p", "params": {"p": "a"}}}}}),
    )
    .1;
    assert_eq!(e["caused_by"]["reason"], "Parameter [p] must be a numeric type");
}

#[test]
fn contexts_es_refuses() {
    let ix = fixture();
    let (status, v) = ix.send(
        "POST",
        "/test/_search",
        json!({"size": 0, "aggs": {"m": {"scripted_metric": {"map_script": expression("1")}}}}),
    );
    assert_eq!(status, 400);
    assert_eq!(
        v["error"]["root_cause"][0],
        json!({"type": "illegal_argument_exception", "reason": "expression engine does not know how to handle script context [aggs_map]"})
    );
    let (status, v) = ix.send(
        "POST",
        "/test/_search",
        json!({"size": 0, "aggs": {"h": {"date_histogram": {"field": "when", "interval": "year"}, "aggs": {
            "c": {"moving_fn": {"buckets_path": "_count", "window": 2, "script": expression("1")}}
        }}}}),
    );
    assert_eq!(status, 400);
    assert_eq!(
        v["error"]["root_cause"][0],
        json!({"type": "illegal_argument_exception", "reason": "expression engine does not know how to handle script context [moving-function]"}),
        "{v}"
    );
}
