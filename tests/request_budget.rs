//! A request's budget bounds what a search does, through the public `Engine` API inside a
//! `budget::enter` scope (as a door opens one per request): a `timeout` stops term
//! expansion and phrase matching, not only collection, and answers `timed_out: true`; a
//! client that hangs up ends the work with `task_cancelled_exception`; a boolean of too
//! many clauses answers ES's `too_many_clauses`; an `_msearch` whose answers would pass
//! the request's breaker answers its late items with their own 429s and stays bounded.
//!
//! Timing assertions say "bounded", with wide margins: the machine is shared and these
//! run in debug builds.

// The engine's `Error` carries ES's exception tree (the library allows it for the same reason).
#![allow(clippy::result_large_err)]

mod common;
use metagate::budget::{self, CancelFlag, Limits};
use metagate::gen::Model;
use metagate::Engine;
use serde_json::{json, Value};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const INDEX: &str = "tools";
/// Records in the generated index.
const RECORDS: u64 = 2_000;

/// A vocabulary of distinct pronounceable words (`bakodu`, ...), so the dictionary is
/// large enough that a fuzzy term's walk of it is real work.
fn vocabulary() -> Vec<String> {
    let (cons, vowels) = (b"bdfgklmnprstvz", b"aeiou");
    let syllable =
        |i: usize| format!("{}{}", cons[i % cons.len()] as char, vowels[(i / cons.len()) % vowels.len()] as char);
    let per = cons.len() * vowels.len();
    (0..4_000).map(|i| format!("{}{}{}", syllable(i), syllable(i / per + 7), syllable(i * 7 + 3))).collect()
}

/// One engine for the whole file: a generated index of [`RECORDS`] tool records whose
/// descriptions draw on [`vocabulary`].
fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let words = vocabulary();
        let mut learn = String::new();
        for chunk in words.chunks(40) {
            learn.push_str("{\"index\":{}}\n");
            learn.push_str(&json!({"item": {"description": chunk.join(" ")}}).to_string());
            learn.push('\n');
        }
        let model = Model::learn(learn.as_bytes()).unwrap();
        let mut bulk = Vec::new();
        model.write_bulk(7, RECORDS, &mut bulk).unwrap();
        let e = Engine::open_or_create(&common::temp_file("request-budget")).unwrap();
        e.load(INDEX, bulk.as_slice(), &Default::default(), &mut |_, _| {}).unwrap();
        e
    })
}

/// `n` words of the vocabulary, in order, as one text.
fn text_of(n: usize) -> String {
    let words = vocabulary();
    (0..n).map(|i| words[i % words.len()].as_str()).collect::<Vec<_>>().join(" ")
}

/// A `match` of 1,000 words, each within two edits of hundreds of terms.
fn fuzzy_body(timeout: Option<&str>) -> String {
    let mut body = json!({"query": {"match": {"item.description": {"query": text_of(1_000), "fuzziness": 2}}}});
    if let Some(t) = timeout {
        body["timeout"] = json!(t);
    }
    body.to_string()
}

/// Runs `f` in a request's budget of `limits`; its result and how long it took.
fn within<T>(limits: Limits, f: impl FnOnce() -> T) -> (T, Duration) {
    let _scope = budget::enter(limits);
    let started = Instant::now();
    let out = f();
    (out, started.elapsed())
}

#[test]
fn a_fuzzy_match_of_a_thousand_terms_stops_at_its_timeout() {
    let e = engine();
    let (res, took) = within(Limits::default(), || common::search(e, INDEX, &fuzzy_body(Some("200ms"))));
    let res = res.unwrap();
    assert_eq!(res["timed_out"], true, "{}", res["hits"]["total"]);
    // The walks of the dictionary stop at the deadline; unbounded, this search runs for
    // tens of seconds in a debug build.
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn a_phrase_of_a_hundred_thousand_words_stops_at_its_timeout() {
    let e = engine();
    let body =
        json!({"query": {"match_phrase": {"item.description": text_of(100_000)}}, "timeout": "200ms"}).to_string();
    let (res, took) = within(Limits::default(), || common::search(e, INDEX, &body));
    let res = res.unwrap();
    assert_eq!(res["timed_out"], true);
    assert_eq!(res["hits"]["total"], 0, "a phrase cut short matches nothing rather than more than the phrase");
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn a_search_within_its_timeout_is_not_timed_out() {
    let e = engine();
    let body = json!({"query": {"match": {"item.description": text_of(3)}}, "timeout": "1m"}).to_string();
    let (res, _) = within(Limits::default(), || common::search(e, INDEX, &body));
    let res = res.unwrap();
    assert_eq!(res["timed_out"], false);
    assert!(res["hits"]["total"].as_u64().unwrap() > 0);
}

#[test]
fn a_client_that_hangs_up_ends_a_heavy_search() {
    let e = engine();
    let flag = CancelFlag::new();
    let hang_up = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            flag.cancel();
        })
    };
    let (res, took) =
        within(Limits { cancel: Some(flag), ..Default::default() }, || common::search(e, INDEX, &fuzzy_body(None)));
    hang_up.join().unwrap();
    let err = res.unwrap_err();
    assert_eq!(
        err.to_json(),
        json!({"error": {"root_cause": [{"type": "task_cancelled_exception", "reason": "cancelled"}],
                         "type": "task_cancelled_exception", "reason": "cancelled"}, "status": 500})
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn the_servers_cap_bounds_a_search_without_a_timeout() {
    let e = engine();
    let limits = Limits { max_time: Some(Duration::from_millis(200)), ..Default::default() };
    let (res, took) = within(limits, || common::search(e, INDEX, &fuzzy_body(None)));
    assert_eq!(res.unwrap()["timed_out"], true);
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn a_match_of_more_than_1024_terms_is_too_many_clauses() {
    let e = engine();
    let body = json!({"query": {"match": {"item.description": text_of(1_025)}}}).to_string();
    let err = common::search(e, INDEX, &body).unwrap_err();
    let v = err.to_json();
    assert_eq!(v["status"], 400);
    assert_eq!(v["error"]["type"], "search_phase_execution_exception");
    assert_eq!(v["error"]["reason"], "all shards failed");
    let shard = &v["error"]["failed_shards"][0]["reason"];
    assert_eq!(shard["type"], "query_shard_exception");
    assert_eq!(shard["caused_by"], json!({"type": "too_many_clauses", "reason": "maxClauseCount is set to 1024"}));
    assert_eq!(v["error"]["root_cause"][0]["type"], "query_shard_exception");
    // 1,024 clauses are fine: Lucene's limit is more than 1,024.
    let body = json!({"query": {"match": {"item.description": text_of(1_024)}}, "size": 0}).to_string();
    assert!(common::search(e, INDEX, &body).is_ok());
}

#[test]
fn an_msearch_past_the_request_breaker_answers_its_late_items_with_429s() {
    let e = engine();
    let item = "{}\n{\"query\":{\"match_all\":{}},\"size\":10000}\n";
    let body = item.repeat(60);
    let limit = 8 * 1024 * 1024;
    let limits = Limits { request_bytes: Some(limit), ..Default::default() };
    let (res, took) = within(limits, || {
        metagate::MsearchRequest::parse(Some(INDEX), &[], &body, &[]).and_then(|r| e.msearch(r).to_value())
    });
    let res = res.unwrap();
    let items = res["responses"].as_array().unwrap();
    assert_eq!(items.len(), 60);
    let answered: Vec<&Value> = items.iter().filter(|i| i["status"] == 200).collect();
    let refused: Vec<&Value> = items.iter().filter(|i| i["status"] == 429).collect();
    assert_eq!(answered.len() + refused.len(), 60);
    assert!(!answered.is_empty() && !refused.is_empty(), "{} answered", answered.len());
    for a in &answered {
        assert_eq!(a["hits"]["hits"].as_array().map(Vec::len), Some(RECORDS as usize));
    }
    let e429 = &refused[0]["error"];
    assert_eq!(e429["type"], "circuit_breaking_exception");
    assert_eq!(e429["root_cause"][0]["type"], "circuit_breaking_exception");
    assert_eq!(e429["bytes_limit"], limit as u64);
    let reason = e429["reason"].as_str().unwrap();
    assert!(reason.starts_with("[request] Data too large, data for ["), "{reason}");
    assert!(reason.ends_with("which is larger than the limit of [8388608/8mb]"), "{reason}");
    // The whole answer stays near the limit instead of 60 times an item's size.
    let size = serde_json::to_vec(&res).unwrap().len();
    assert!(size < limit + limit / 2, "{size} bytes");
    assert!(took < Duration::from_secs(20), "took {took:?}");
}

#[test]
fn a_result_window_past_the_int_range_reports_what_es_reports() {
    let e = engine();
    // ES 6.8's DefaultSearchContext adds from and size as longs.
    let err = common::search(e, INDEX, r#"{"from": 2147483647}"#).unwrap_err();
    let reason = err.to_json()["error"]["failed_shards"][0]["reason"]["reason"].as_str().unwrap().to_string();
    assert!(
        reason.starts_with(
            "Result window is too large, from + size must be less than or equal to: [10000] but was [2147483657]."
        ),
        "{reason}"
    );
    let err = common::search_with(e, INDEX, "", &[("from".into(), "99999999999".into())]).unwrap_err();
    assert_eq!((err.status, err.reason()), (400, "Failed to parse int parameter [from] with value [99999999999]"));
}

#[test]
fn a_scroll_page_cut_by_the_servers_cap_fails_rather_than_skipping_hits() {
    let e = engine();
    let limits = Limits { max_time: Some(Duration::from_millis(200)), ..Default::default() };
    let (res, took) = within(limits, || common::scroll_start(e, INDEX, &fuzzy_body(None), &[], "1m"));
    let v = res.unwrap_err().to_json();
    let shard = json!({"type": "query_phase_execution_exception", "reason": "Failed to execute main query",
                       "caused_by": {"type": "query_phase_execution_exception", "reason": "Time exceeded"}});
    assert_eq!(v["status"], 500);
    assert_eq!(v["error"]["type"], "search_phase_execution_exception");
    assert_eq!(v["error"]["failed_shards"][0]["reason"], shard);
    assert_eq!(
        v["error"]["root_cause"],
        json!([{"type": "query_phase_execution_exception", "reason": "Time exceeded"}])
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");
    // A scroll's own `timeout` is ignored, as ES ignores it: the page is whole.
    let body =
        json!({"query": {"match": {"item.description": text_of(3)}}, "timeout": "1nanos", "size": 5}).to_string();
    let (res, _) = within(Limits::default(), || common::scroll_start(e, INDEX, &body, &[], "1m"));
    let page = res.unwrap();
    assert_eq!(page["timed_out"], false);
    assert_eq!(page["hits"]["hits"].as_array().map(Vec::len), Some(5));
}

#[test]
fn a_thousand_wildcards_stop_at_the_timeout() {
    let e = engine();
    let words = vocabulary();
    let text: Vec<String> = words.iter().take(1_000).map(|w| format!("*{}*", &w[1..4])).collect();
    let body = json!({"query": {"query_string": {"query": text.join(" "), "default_field": "item.description"}},
                      "timeout": "200ms"})
    .to_string();
    let (res, took) = within(Limits::default(), || common::search(e, INDEX, &body));
    assert_eq!(res.unwrap()["timed_out"], true);
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn aggregations_are_charged_to_the_request_breaker_as_es_names_them() {
    let e = engine();
    let body = json!({"size": 0, "aggs": {"kinds": {"terms": {"field": "item.types.name.keyword"}}}}).to_string();
    let limits = Limits { request_bytes: Some(4096), ..Default::default() };
    let (res, _) = within(limits, || common::search(e, INDEX, &body));
    let v = res.unwrap_err().to_json();
    let breaker = json!({"type": "circuit_breaking_exception",
        "reason": "[request] Data too large, data for [<agg [kinds]>] would be [5120/5kb], which is larger than the limit of [4096/4kb]",
        "bytes_wanted": 5120, "bytes_limit": 4096});
    assert_eq!(v["status"], 429);
    assert_eq!(v["error"]["type"], "search_phase_execution_exception");
    assert_eq!(v["error"]["root_cause"], json!([breaker]));
    assert_eq!(v["error"]["failed_shards"][0]["reason"], breaker);
    // Within the limit the same request answers.
    let limits = Limits { request_bytes: Some(1 << 20), ..Default::default() };
    let (res, _) = within(limits, || common::search(e, INDEX, &body));
    assert!(res.unwrap()["aggregations"]["kinds"]["buckets"].is_array());
}

#[test]
fn a_filter_cut_short_by_the_deadline_is_not_cached() {
    // The filter cache keeps sets of indices of at least 10,000 documents.
    let docs: Vec<(String, Value)> =
        (0..10_000).map(|i| (format!("d{i}"), json!({"code": format!("c{}", i % 500)}))).collect();
    let e = common::engine_with("request-budget-cache", "codes", None, &docs, None);
    let values: Vec<String> = (0..300).map(|i| format!("c{i}")).collect();
    let filter = json!({"bool": {"filter": {"terms": {"code": values}}}});
    let cut = json!({"query": filter, "timeout": "1micros"}).to_string();
    let (res, _) = within(Limits::default(), || common::search(&e, "codes", &cut));
    let res = res.unwrap();
    assert_eq!(res["timed_out"], true);
    assert!(res["hits"]["total"].as_u64().unwrap() < 6_000);
    let whole = json!({"query": filter}).to_string();
    let (res, _) = within(Limits::default(), || common::search(&e, "codes", &whole));
    let res = res.unwrap();
    assert_eq!((res["timed_out"].clone(), res["hits"]["total"].clone()), (json!(false), json!(6_000)));
}

#[test]
fn a_terms_aggregation_charges_its_counting_array_and_its_candidates() {
    let e = engine();
    let body = json!({"size": 0, "aggs": {"ids": {"terms": {"field": "item.identifier.keyword"}}}}).to_string();
    let reason = |limit: usize| {
        let (res, _) =
            within(Limits { request_bytes: Some(limit), ..Default::default() }, || common::search(e, INDEX, &body));
        res.unwrap_err().to_json()["error"]["root_cause"][0]["reason"].as_str().unwrap().to_string()
    };
    // 2,000 distinct identifiers: an array of 4 bytes per term after the aggregator's 5 KiB.
    assert_eq!(
        reason(6 * 1024),
        "[request] Data too large, data for [<reused_arrays>] would be [13120/12.8kb], which is larger than the limit of [6144/6kb]"
    );
    // Then each counted identifier as a candidate key, charged in batches.
    assert!(reason(64 * 1024).starts_with("[request] Data too large, data for [<agg [ids]>] would be ["));
    let (res, _) =
        within(Limits { request_bytes: Some(1 << 20), ..Default::default() }, || common::search(e, INDEX, &body));
    assert_eq!(res.unwrap()["aggregations"]["ids"]["buckets"].as_array().map(Vec::len), Some(10));
}
