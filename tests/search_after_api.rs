//! `search_after` through the engine API: paging on keyword, numeric, date, `_score`,
//! `_id` and `_doc` sorts with tie-breaks gives exactly the full sorted result, and the
//! ES 6.8 validation errors.

mod common;
use metagate::Engine;
use serde_json::{json, Value};

fn engine(tag: &str, n: usize) -> Engine {
    let docs: Vec<(String, Value)> = (0..n)
        .map(|i| {
            let mut d = json!({
                "k": format!("k{}", i % 7),
                "n": (i * 37) % 50,
                "f": (i % 9) as f64 / 4.0,
                "d": format!("2020-01-{:02}T00:00:00Z", 1 + i % 28),
                "t": format!("alpha {}", "beta ".repeat(i % 5)),
            });
            // Missing values sort last ascending and first descending.
            if i % 11 == 0 {
                let o = d.as_object_mut().unwrap();
                o.remove("k");
                o.remove("n");
            }
            (format!("id{i:04}"), d)
        })
        .collect();
    common::engine_with(tag, "a", Some("A_pr"), &docs, None)
}

fn hits(page: &Value) -> Vec<Value> {
    page["hits"]["hits"].as_array().unwrap().clone()
}

fn ids(hits: &[Value]) -> Vec<String> {
    hits.iter().map(|h| h["_id"].as_str().unwrap().to_string()).collect()
}

/// Pages through `sort` with `search_after` = the last hit's `sort`, returning all ids.
fn page_through(e: &Engine, query: &str, sort: &str, size: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut after: Option<Value> = None;
    loop {
        let sa = after.as_ref().map(|a| format!(r#","search_after":{a}"#)).unwrap_or_default();
        let page =
            common::search(e, "A_pr", &format!(r#"{{"query":{query},"sort":{sort},"size":{size}{sa}}}"#)).unwrap();
        let h = hits(&page);
        if h.is_empty() {
            return out;
        }
        after = Some(h.last().unwrap()["sort"].clone());
        out.extend(ids(&h));
    }
}

#[test]
fn paging_equals_the_full_sorted_result() {
    let n = 300;
    let e = engine("sa-paging", n);
    let all = r#"{"match_all":{}}"#;
    let scored = r#"{"match":{"t":"alpha beta"}}"#;
    for (query, sort) in [
        (all, r#"[{"k.keyword":"asc"},{"_id":"asc"}]"#),
        (all, r#"[{"k.keyword":"desc"},{"n":"asc"},{"_id":"desc"}]"#),
        (all, r#"[{"n":"desc"},{"_id":"asc"}]"#),
        (all, r#"[{"n":{"order":"asc","missing":"_first"}},{"_id":"asc"}]"#),
        (all, r#"[{"f":"asc"},{"_id":"asc"}]"#),
        (all, r#"[{"d":"desc"},{"_id":"asc"}]"#),
        (scored, r#"["_score",{"_id":"asc"}]"#),
        (scored, r#"[{"_score":"asc"},{"d":"asc"},{"_id":"desc"}]"#),
        (all, r#"[{"_id":"desc"}]"#),
        (all, r#"["_doc"]"#),
        (all, r#"[{"_doc":"desc"}]"#),
    ] {
        let full = ids(&hits(
            &common::search(&e, "A_pr", &format!(r#"{{"query":{query},"sort":{sort},"size":1000}}"#)).unwrap(),
        ));
        assert_eq!(full.len(), n, "{sort}");
        for size in [1, 13, 100] {
            assert_eq!(page_through(&e, query, sort, size), full, "{sort} size {size}");
        }
    }
}

#[test]
fn equal_values_are_skipped_without_a_tie_break() {
    let e = engine("sa-ties", 140);
    let page =
        common::search(&e, "A_pr", r#"{"sort":[{"k.keyword":"asc"}],"size":200,"search_after":["k3"]}"#).unwrap();
    let ks: Vec<String> = hits(&page).iter().map(|h| h["sort"][0].to_string()).collect();
    assert!(!ks.is_empty());
    assert!(ks.iter().all(|k| k.as_str() > "\"k3\""), "{ks:?}");
    // Values convert to the field's type: a string for a numeric sort, a number for a
    // keyword sort.
    let a =
        common::search(&e, "A_pr", r#"{"sort":[{"n":"asc"},{"_id":"asc"}],"size":5,"search_after":["20","id0010"]}"#)
            .unwrap();
    let b = common::search(&e, "A_pr", r#"{"sort":[{"n":"asc"},{"_id":"asc"}],"size":5,"search_after":[20,"id0010"]}"#)
        .unwrap();
    assert_eq!(ids(&hits(&a)), ids(&hits(&b)));
    assert!(hits(&a).iter().all(|h| h["sort"][0].as_i64().unwrap() >= 20));
    let c = common::search(&e, "A_pr", r#"{"sort":[{"_id":"asc"}],"size":3,"search_after":[5]}"#).unwrap();
    // "5" sorts before every "id…" in byte order, so everything follows it.
    assert_eq!(ids(&hits(&c)), ["id0000", "id0001", "id0002"]);
    // `null` is the missing value, as is the sentinel ES prints for it.
    let last = common::search(&e, "A_pr", r#"{"sort":[{"n":"asc"},{"_id":"asc"}],"size":200}"#).unwrap();
    let missing_sort = hits(&last).last().unwrap()["sort"].clone();
    assert_eq!(missing_sort[0], json!(i64::MAX));
    let after = common::search(
        &e,
        "A_pr",
        &format!(r#"{{"sort":[{{"n":"asc"}},{{"_id":"asc"}}],"size":200,"search_after":{missing_sort}}}"#),
    )
    .unwrap();
    assert!(hits(&after).is_empty());
}

fn shard_error(e: &Engine, body: &str) -> (u16, Value) {
    let err = common::search(e, "A_pr", body).unwrap_err();
    let j = err.to_json();
    assert_eq!(j["error"]["type"], "search_phase_execution_exception", "{body}: {j}");
    assert_eq!(j["error"]["reason"], "all shards failed");
    assert_eq!(j["error"]["failed_shards"][0]["index"], "a");
    (err.status, j["error"]["root_cause"][0].clone())
}

#[test]
fn validation_errors_are_es_68s() {
    let e = engine("sa-errors", 30);
    assert_eq!(
        shard_error(&e, r#"{"sort":[{"n":"asc"}],"search_after":[1,"x"]}"#),
        (400, json!({"type": "illegal_argument_exception", "reason": "search_after has 2 value(s) but sort has 1."}))
    );
    assert_eq!(
        shard_error(&e, r#"{"sort":[{"n":"asc"}],"from":5,"search_after":[1]}"#),
        (
            500,
            json!({"type": "search_context_exception", "reason": "`from` parameter must be set to 0 when `search_after` is used."})
        )
    );
    for body in [r#"{"search_after":[1]}"#, r#"{"sort":["_score"],"search_after":[1]}"#] {
        assert_eq!(
            shard_error(&e, body),
            (400, json!({"type": "illegal_argument_exception", "reason": "Sort must contain at least one field."}))
        );
    }
    // `_score` ascending is a real sort.
    assert!(common::search(&e, "A_pr", r#"{"sort":[{"_score":"asc"}],"search_after":[1]}"#).is_ok());
    let err = common::search(&e, "A_pr", r#"{"sort":[{"n":"asc"}],"search_after":["abc"]}"#).unwrap_err();
    let j = err.to_json();
    assert_eq!(err.status, 400);
    assert_eq!(
        j["error"]["failed_shards"][0]["reason"],
        json!({"type": "illegal_argument_exception", "reason": "Failed to parse search_after value for field [n].",
               "caused_by": {"type": "number_format_exception", "reason": "For input string: \"abc\""}})
    );
    let (status, root) = shard_error(&e, r#"{"sort":[{"d":"asc"}],"search_after":["2020-01-01"]}"#);
    assert_eq!((status, root["reason"].as_str().unwrap()), (400, "Failed to parse search_after value for field [d]."));
    let (_, root) = shard_error(&e, r#"{"sort":["_doc"],"search_after":[true]}"#);
    assert_eq!(root["reason"], "Failed to parse search_after value for field [null].");
    // Parse-time errors are plain.
    let err = common::search(&e, "A_pr", r#"{"sort":["_doc"],"search_after":[]}"#).unwrap_err();
    assert_eq!(
        (err.status, err.kind(), err.reason()),
        (400, "illegal_argument_exception", "Values must contains at least one value.")
    );
    let err = common::search(&e, "A_pr", r#"{"sort":["_doc"],"search_after":[{"a":1}]}"#).unwrap_err();
    assert_eq!(err.kind(), "parsing_exception");
    assert_eq!(
        err.reason(),
        "Expected [VALUE_STRING] or [VALUE_NUMBER] or [VALUE_BOOLEAN] or [VALUE_NULL] but found [START_OBJECT] inside search_after."
    );
    let err = common::search(&e, "A_pr", r#"{"sort":["_doc"],"search_after":"x"}"#).unwrap_err();
    assert_eq!((err.kind(), err.reason()), ("parsing_exception", "Unknown key for a VALUE_STRING in [search_after]."));
}
