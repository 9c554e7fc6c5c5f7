//! Scroll through the engine API: completeness and order for every page size and sort,
//! restarts, two engines on one file, clearing, forgery, expiry, keep-alive units,
//! snapshot consistency while aliases move, slices, validation errors and the iterator.

mod common;
use common::hit_ids as ids;
use metagate::Engine;
use metagate::LoadOptions;
use serde_json::{json, Value};
use std::collections::HashSet;

fn docs(n: usize, tag: &str) -> Vec<(String, Value)> {
    (0..n)
        .map(|i| {
            let mut d = json!({"t": format!("word{} common", i % 13), "n": i, "k": format!("k{}", i % 17)});
            // Some documents lack the sort fields, to exercise missing values.
            if i % 10 == 3 {
                d.as_object_mut().unwrap().remove("k");
            }
            (format!("{tag}{i}"), d)
        })
        .collect()
}

fn load_opts(e: &Engine, name: &str, d: &[(String, Value)], opts: LoadOptions) {
    e.load(name, common::bulk(d).as_bytes(), &opts, &mut |_, _| {}).unwrap();
}

fn load(e: &Engine, name: &str, alias: Option<&str>, d: &[(String, Value)]) {
    load_opts(e, name, d, LoadOptions { alias: alias.map(str::to_string), ..Default::default() });
}

fn sid(page: &Value) -> String {
    page["_scroll_id"].as_str().unwrap().to_string()
}

/// Every id of a scroll, checking each page's shape on the way.
fn drain(e: &Engine, first: Value, keep: &str) -> Vec<String> {
    let total = first["hits"]["total"].clone();
    let mut all = ids(&first);
    let mut id = sid(&first);
    loop {
        let page = common::scroll_next(e, &id, Some(keep)).unwrap();
        assert_eq!(page.as_object().unwrap().keys().next().unwrap(), "_scroll_id");
        assert_eq!(page["hits"]["total"], total);
        let got = ids(&page);
        if got.is_empty() {
            return all;
        }
        all.extend(got);
        id = sid(&page);
    }
}

fn assert_once(all: &[String], n: usize, what: &str) {
    assert_eq!(all.len(), n, "{what}");
    assert_eq!(all.iter().collect::<HashSet<_>>().len(), n, "{what}: duplicates");
}

#[test]
fn every_page_size_and_sort_returns_each_document_once_in_search_order() {
    let e = Engine::open_or_create(&common::temp_file("scroll-all")).unwrap();
    let n = 2400;
    load(&e, "a", Some("A_pr"), &docs(n, "a"));
    let sorts = [
        r#""sort":["_doc"]"#,
        // No sort and match_all: relevance order over one constant score.
        r#""query":{"match_all":{}}"#,
        // Real scores with many ties.
        r#""query":{"match":{"t":"common word3 word5"}}"#,
        r#""sort":[{"k.keyword":"desc"},{"n":"asc"}]"#,
        r#""sort":[{"k.keyword":{"order":"asc","missing":"_first"}}]"#,
        r#""sort":[{"n":"desc"}]"#,
        r#""sort":["_score",{"_id":"asc"}],"query":{"match":{"t":"word7 common"}}"#,
    ];
    for sort in sorts {
        // The order a plain search gives is the order the scroll must follow.
        let expected = ids(&common::search(&e, "A_pr", &format!(r#"{{{sort},"size":{n}}}"#)).unwrap());
        assert_eq!(expected.len(), n);
        for size in [1, 7, 1000] {
            if size == 1 && !sort.contains("_doc") && !sort.contains("match_all") {
                continue; // 2400 single-hit pages per sort is slow in debug builds; _doc covers it.
            }
            let body = format!(r#"{{{sort},"size":{size}}}"#);
            let first = common::scroll_start(&e, "A_pr", &body, &[], "1m").unwrap();
            assert_eq!(first.as_object().unwrap().keys().next().unwrap(), "_scroll_id");
            assert_eq!(first["hits"]["total"], n);
            assert_eq!(ids(&first).len(), size);
            let all = drain(&e, first, "1m");
            assert_once(&all, n, &body);
            // Ties (equal scores or keys) break on (index, document) in both, so the
            // sequences are identical, not only the sets.
            assert_eq!(all, expected, "{body}");
        }
    }
}

#[test]
fn restart_mid_scroll_and_a_second_engine_continue_it() {
    let path = common::temp_file("scroll-restart");
    let first;
    {
        let e = Engine::open_or_create(&path).unwrap();
        load(&e, "a", None, &docs(300, "a"));
        first = common::scroll_start(&e, "a", r#"{"size":100,"sort":["_doc"]}"#, &[], "5m").unwrap();
    }
    // The engine that started the scroll is gone; two fresh ones share it.
    let e1 = Engine::open(&path).unwrap();
    let e2 = Engine::open(&path).unwrap();
    let p2 = common::scroll_next(&e1, &sid(&first), Some("5m")).unwrap();
    let p3 = common::scroll_next(&e2, &sid(&p2), Some("5m")).unwrap();
    let p4 = common::scroll_next(&e1, &sid(&p3), Some("5m")).unwrap();
    assert!(ids(&p4).is_empty());
    let mut all = ids(&first);
    all.extend(ids(&p2));
    all.extend(ids(&p3));
    assert_once(&all, 300, "restart");
    // Cleared through one engine, gone for the other at once.
    assert_eq!(e1.clear_scroll(&[sid(&p3)], None).unwrap(), 1);
    let err = common::scroll_next(&e2, &sid(&p3), Some("5m")).unwrap_err();
    assert_eq!(err.status, 404);
    // Every id of that scroll is dead, not only the one cleared.
    assert_eq!(common::scroll_next(&e2, &sid(&first), Some("5m")).unwrap_err().status, 404);
    assert_eq!(e1.clear_scroll(&[sid(&p3)], None).unwrap(), 0);
    // ... and after another restart.
    drop((e1, e2));
    let e3 = Engine::open(&path).unwrap();
    assert_eq!(common::scroll_next(&e3, &sid(&p2), Some("5m")).unwrap_err().status, 404);
}

#[test]
fn missing_scroll_and_bad_ids_have_es_bodies() {
    let e = Engine::open_or_create(&common::temp_file("scroll-errors")).unwrap();
    load(&e, "a", None, &docs(50, "a"));
    let first = common::scroll_start(&e, "a", r#"{"size":10}"#, &[], "1m").unwrap();
    let id = sid(&first);
    assert_eq!(e.clear_scroll(std::slice::from_ref(&id), None).unwrap(), 1);
    let err = common::scroll_next(&e, &id, Some("1m")).unwrap_err();
    let body = err.to_json();
    let ctx = body["error"]["root_cause"][0]["reason"].as_str().unwrap().to_string();
    let n: String = ctx.trim_start_matches("No search context found for id [").trim_end_matches(']').to_string();
    assert!(n.parse::<u64>().is_ok(), "{ctx}");
    let missing = json!({"type": "search_context_missing_exception", "reason": ctx});
    assert_eq!(
        body,
        json!({"error": {
            "root_cause": [missing],
            "type": "search_phase_execution_exception", "reason": "all shards failed", "phase": "query", "grouped": true,
            "failed_shards": [{"shard": -1, "index": null, "reason": missing}],
            "caused_by": missing},
         "status": 404})
    );
    // Tampering: flip one character of the id (the signature no longer matches).
    let mut chars: Vec<char> = id.chars().collect();
    chars[7] = if chars[7] == 'A' { 'B' } else { 'A' };
    let forged: String = chars.into_iter().collect();
    for bad in [forged.as_str(), "garbage", "", "DXF1ZXJ5QW5kRmV0Y2gBAAAAAAAAAAEWZ2VvAA=="] {
        let err = common::scroll_next(&e, bad, Some("1m")).unwrap_err();
        let body = err.to_json();
        assert_eq!(err.status, 400, "{bad}");
        assert_eq!(
            body["error"]["root_cause"],
            json!([{"type": "illegal_argument_exception", "reason": "Cannot parse scroll id"}])
        );
        assert_eq!(body["error"]["type"], "illegal_argument_exception");
        assert_eq!(body["error"]["reason"], "Cannot parse scroll id");
        assert_eq!(body["error"]["caused_by"]["type"], "illegal_argument_exception");
        // Clearing a malformed id fails the same way.
        assert_eq!(e.clear_scroll(&[bad.to_string()], None).unwrap_err().status, 400);
    }
    // An id signed by another file is not ours.
    let other = Engine::open_or_create(&common::temp_file("scroll-other")).unwrap();
    load(&other, "a", None, &docs(5, "o"));
    let foreign = sid(&common::scroll_start(&other, "a", "{}", &[], "1m").unwrap());
    assert_eq!(common::scroll_next(&e, &foreign, Some("1m")).unwrap_err().reason(), "Cannot parse scroll id");
    // Expired: 1 ms keep-alive.
    let short = common::scroll_start(&e, "a", r#"{"size":10}"#, &[], "1ms").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let err = common::scroll_next(&e, &sid(&short), Some("1m")).unwrap_err();
    assert_eq!(err.status, 404);
    assert_eq!(err.to_json()["error"]["caused_by"]["type"], "search_context_missing_exception");
    assert_eq!(e.clear_scroll(&[sid(&short)], None).unwrap(), 0);
}

#[test]
fn keep_alive_units_renewal_and_no_id_without_keep_alive() {
    let e = Engine::open_or_create(&common::temp_file("scroll-keep")).unwrap();
    load(&e, "a", None, &docs(40, "a"));
    for unit in ["1s", "500ms", "1m", "1h", "1d", "2000micros", "90s", "24h"] {
        let first = common::scroll_start(&e, "a", r#"{"size":10}"#, &[], unit).unwrap();
        let next = common::scroll_next(&e, &sid(&first), Some(unit));
        if unit == "2000micros" {
            // 2 ms may well have passed already.
            continue;
        }
        assert_eq!(ids(&next.unwrap()).len(), 10, "{unit}");
    }
    let err = common::scroll_start(&e, "a", "{}", &[], "2d").unwrap_err();
    assert_eq!(err.status, 400);
    assert_eq!(err.kind(), "search_phase_execution_exception");
    assert_eq!(
        err.to_json()["error"]["root_cause"][0]["reason"],
        "Keep alive for scroll (2d) is too large. It must be less than (1d). This limit can be set by changing the [search.max_keep_alive] cluster level setting."
    );
    let first = common::scroll_start(&e, "a", r#"{"size":10}"#, &[], "1m").unwrap();
    assert_eq!(
        common::scroll_next(&e, &sid(&first), Some("36h")).unwrap_err().to_json()["error"]["root_cause"][0]["reason"]
            .as_str()
            .unwrap()
            .split(')')
            .next()
            .unwrap(),
        "Keep alive for scroll (1.5d"
    );
    let err = common::scroll_start(&e, "a", "{}", &[], "soon").unwrap_err();
    assert_eq!(err.status, 400);
    assert_eq!(err.kind(), "illegal_argument_exception");
    // Keep-alive renews: a 1 s scroll stays alive for 1.6 s while each page comes within
    // 1 s (a margin of 600 ms for a busy machine).
    let mut page = common::scroll_start(&e, "a", r#"{"size":5}"#, &[], "1s").unwrap();
    for _ in 0..4 {
        std::thread::sleep(std::time::Duration::from_millis(400));
        page = common::scroll_next(&e, &sid(&page), Some("1s")).unwrap();
    }
    // Without `scroll` the page comes without `_scroll_id`.
    let next = common::scroll_next(&e, &sid(&first), None).unwrap();
    assert!(next.get("_scroll_id").is_none());
    assert_eq!(ids(&next).len(), 10);
}

#[test]
fn continuing_advances_the_scroll_whatever_id_comes_back() {
    let e = Engine::open_or_create(&common::temp_file("scroll-context")).unwrap();
    load(&e, "a", None, &docs(100, "a"));
    let body = r#"{"size":30,"sort":[{"k.keyword":"asc"}]}"#;
    let everything = ids(&common::search(&e, "a", r#"{"size":100,"sort":[{"k.keyword":"asc"}]}"#).unwrap());
    let first = common::scroll_start(&e, "a", body, &[], "1m").unwrap();
    // The same id twice: the next page each time, as an ES search context answers.
    let a = common::scroll_next(&e, &sid(&first), Some("1m")).unwrap();
    let b = common::scroll_next(&e, &sid(&first), Some("1m")).unwrap();
    // A newer id and an older one both continue from where the scroll stands.
    let c = common::scroll_next(&e, &sid(&a), Some("1m")).unwrap();
    let mut seen = ids(&first);
    for page in [&a, &b, &c] {
        assert_eq!(page.as_object().unwrap().keys().next().unwrap(), "_scroll_id");
        assert_eq!(page["hits"]["total"], 100);
        seen.extend(ids(page));
    }
    assert_eq!((ids(&a).len(), ids(&b).len(), ids(&c).len()), (30, 30, 10));
    assert_eq!(seen, everything);
    // Exhausted: empty pages, for any of its ids, until it expires or is cleared.
    for id in [sid(&first), sid(&c), sid(&b)] {
        let page = common::scroll_next(&e, &id, Some("1m")).unwrap();
        assert!(ids(&page).is_empty());
        assert_eq!(page["hits"]["total"], 100);
    }
    assert_eq!(e.clear_scroll(&[sid(&first)], None).unwrap(), 1);
    assert_eq!(common::scroll_next(&e, &sid(&c), Some("1m")).unwrap_err().status, 404);
}

#[test]
fn a_client_that_keeps_sending_the_first_id_reads_everything_once() {
    let e = Engine::open_or_create(&common::temp_file("scroll-first-id")).unwrap();
    load(&e, "a", None, &docs(250, "a"));
    for body in [r#"{"size":40}"#, r#"{"size":40,"sort":["_doc"]}"#, r#"{"size":40,"query":{"match":{"t":"common"}}}"#]
    {
        let first = common::scroll_start(&e, "a", body, &[], "1m").unwrap();
        let total = first["hits"]["total"].as_u64().unwrap() as usize;
        let mut all = ids(&first);
        for _ in 0..total {
            let page = common::scroll_next(&e, &sid(&first), Some("1m")).unwrap();
            if ids(&page).is_empty() {
                break;
            }
            all.extend(ids(&page));
        }
        assert_once(&all, total, body);
    }
}

#[test]
fn pinned_snapshot_ignores_alias_moves_and_new_generations() {
    let e = Engine::open_or_create(&common::temp_file("scroll-snap")).unwrap();
    load(&e, "v1", Some("T_pr"), &docs(120, "old"));
    for sort in [r#""sort":["_doc"]"#, r#""query":{"match":{"t":"common"}}"#, r#""sort":[{"n":"desc"}]"#] {
        let body = format!(r#"{{{sort},"size":50}}"#);
        e.swap_alias("T_pr", "v1").unwrap();
        let first = common::scroll_start(&e, "T_pr", &body, &[], "1m").unwrap();
        // Mid-scroll: a new generation loads and the alias moves to it.
        let second = common::scroll_next(&e, &sid(&first), Some("1m")).unwrap();
        load(&e, &format!("v2{}", sort.len()), Some("T_pr"), &docs(80, "new"));
        assert!(ids(&common::search(&e, "T_pr", "{}").unwrap()).iter().all(|i| i.starts_with("new")));
        let mut all = ids(&first);
        all.extend(drain(&e, second, "1m"));
        assert_once(&all, 120, &body);
        assert!(all.iter().all(|i| i.starts_with("old")));
    }
    // Deleting the pinned index ends the scroll.
    let first = common::scroll_start(&e, "v1", r#"{"size":50}"#, &[], "1m").unwrap();
    e.delete_index("v1").unwrap();
    assert_eq!(common::scroll_next(&e, &sid(&first), Some("1m")).unwrap_err().status, 404);
    assert_eq!(e.clear_scroll(&[sid(&first)], None).unwrap(), 0);
}

#[test]
fn a_replaced_index_stays_readable_by_its_open_scrolls_until_they_end() {
    let e = Engine::open_or_create(&common::temp_file("scroll-retire")).unwrap();
    let generation =
        |e: &Engine, name: &str| e.indices().unwrap().into_iter().find(|i| i.name == name).unwrap().generation;
    let has_docs = |e: &Engine, g: u64| e.stored_generations().unwrap().contains(&g);
    load(&e, "r", None, &docs(30, "r"));
    let old = generation(&e, "r");
    // Without a scroll, replacing drops the old generation at once.
    load_opts(&e, "r", &docs(30, "q"), LoadOptions { replace: true, ..Default::default() });
    assert!(!has_docs(&e, old));
    let old = generation(&e, "r");
    // Once this process scrolls, a replace keeps the old generation for a grace (its
    // scrolls may read it without having told the file), half an hour by default; this
    // engine's is none, so what keeps it afterwards is the scroll's pin alone.
    e.set_retire_grace_ms(0);
    let first = common::scroll_start(&e, "r", r#"{"size":10,"sort":["_doc"]}"#, &[], "1m").unwrap();
    load_opts(&e, "r", &docs(30, "s"), LoadOptions { replace: true, ..Default::default() });
    // New searches see the new records; the scroll reads on in the one it started on.
    assert!(ids(&common::search(&e, "r", r#"{"size":30}"#).unwrap()).iter().all(|i| i.starts_with('s')));
    let mut all = ids(&first);
    // Its next page finds the generation retired and pins it.
    let second = common::scroll_next(&e, &sid(&first), Some("1m")).unwrap();
    assert_eq!(second["hits"]["total"], 30);
    all.extend(drain(&e, second.clone(), "1m"));
    assert_once(&all, 30, "retired");
    assert!(all.iter().all(|i| i.starts_with('q')), "{all:?}");
    // Kept while the scroll lives, whatever else is written meanwhile...
    load(&e, "other", None, &docs(5, "o"));
    assert!(has_docs(&e, old));
    // ...and dropped by the first write after it ends.
    assert_eq!(e.clear_scroll(&[sid(&second)], None).unwrap(), 1);
    load(&e, "other2", None, &docs(5, "o"));
    assert!(!has_docs(&e, old));
    assert_eq!(common::scroll_next(&e, &sid(&first), Some("1m")).unwrap_err().status, 404);
}

#[test]
fn multi_index_scroll_covers_every_index() {
    let e = Engine::open_or_create(&common::temp_file("scroll-multi")).unwrap();
    load(&e, "x1", Some("X_pr"), &docs(70, "p"));
    load(&e, "x2", None, &docs(55, "q"));
    e.update_aliases(&[metagate::AliasAction::Add { alias: "X_pr".into(), index: "x2".into() }]).unwrap();
    for body in [r#"{"size":9,"sort":["_doc"]}"#, r#"{"size":9}"#, r#"{"size":9,"sort":[{"k.keyword":"asc"}]}"#] {
        let expected = ids(&common::search(&e, "X_pr", &body.replace("\"size\":9", "\"size\":500")).unwrap());
        let first = common::scroll_start(&e, "X_pr", body, &[], "1m").unwrap();
        assert_eq!(first["_shards"]["total"], 2);
        let all = drain(&e, first, "1m");
        assert_once(&all, 125, body);
        assert_eq!(all, expected, "{body}");
    }
}

#[test]
fn slices_partition_without_overlap() {
    let e = Engine::open_or_create(&common::temp_file("scroll-slice")).unwrap();
    load(&e, "a", None, &docs(1000, "d"));
    for max in [2u32, 3, 7] {
        let mut seen = HashSet::new();
        let mut count = 0;
        for id in 0..max {
            let body = format!(r#"{{"size":100,"slice":{{"id":{id},"max":{max}}},"sort":["_doc"]}}"#);
            let first = common::scroll_start(&e, "a", &body, &[], "1m").unwrap();
            let part = drain(&e, first.clone(), "1m");
            assert_eq!(first["hits"]["total"], part.len());
            assert!(!part.is_empty());
            for i in part {
                count += 1;
                seen.insert(i);
            }
        }
        assert_eq!(count, 1000, "max {max}");
        assert_eq!(seen.len(), 1000, "max {max}");
    }
    let err = common::scroll_start(&e, "a", r#"{"slice":{"id":0,"max":2000}}"#, &[], "1m").unwrap_err();
    assert_eq!(
        (err.status, err.to_json()["error"]["root_cause"][0]["type"].clone()),
        (500, json!("query_phase_execution_exception"))
    );
    assert!(err.to_json()["error"]["root_cause"][0]["reason"]
        .as_str()
        .unwrap()
        .starts_with("The number of slices [2000] is too large. It must be less than [1024]."));
    // Outside a scroll a slice is refused, as in ES 6.8.
    let err = common::search(&e, "a", r#"{"slice":{"id":0,"max":2}}"#).unwrap_err();
    assert_eq!(err.status, 500);
    assert_eq!(err.to_json()["error"]["root_cause"][0]["type"], "search_context_exception");
}

#[test]
fn scroll_request_validation() {
    let e = Engine::open_or_create(&common::temp_file("scroll-validate")).unwrap();
    load_opts(&e, "a", &docs(50, "a"), LoadOptions { max_result_window: Some(20), ..Default::default() });
    let err = common::scroll_start(&e, "a", r#"{"size":0}"#, &[], "1m").unwrap_err();
    assert_eq!(
        err.to_json(),
        json!({"error": {"root_cause": [{"type": "action_request_validation_exception", "reason": "Validation Failed: 1: [size] cannot be [0] in a scroll context;"}],
                "type": "action_request_validation_exception", "reason": "Validation Failed: 1: [size] cannot be [0] in a scroll context;"},
               "status": 400})
    );
    let err = common::scroll_start(&e, "a", "{}", &[("size".into(), "0".into()), ("from".into(), "3".into())], "1m")
        .unwrap_err();
    assert_eq!(
        err.reason(),
        "Validation Failed: 1: using [from] is not allowed in a scroll context;2: [size] cannot be [0] in a scroll context;"
    );
    let err = common::scroll_start(&e, "a", r#"{"track_total_hits":false}"#, &[], "1m").unwrap_err();
    assert_eq!(err.reason(), "Validation Failed: 1: disabling [track_total_hits] is not allowed in a scroll context;");
    let err = common::scroll_start(&e, "a", r#"{"sort":["_doc"],"search_after":[1]}"#, &[], "1m").unwrap_err();
    assert_eq!(err.status, 500);
    assert_eq!(
        err.to_json()["error"]["root_cause"][0],
        json!({"type": "search_context_exception", "reason": "`search_after` cannot be used in a scroll context."})
    );
    // The batch limit is the index's own max_result_window.
    let err = common::scroll_start(&e, "a", r#"{"size":21}"#, &[], "1m").unwrap_err();
    assert_eq!(err.status, 500);
    assert_eq!(
        err.to_json()["error"]["root_cause"][0],
        json!({"type": "query_phase_execution_exception", "reason": "Batch size is too large, size must be less than or equal to: [20] but was [21]. Scroll batch sizes cost as much memory as result windows so they are controlled by the [index.max_result_window] index level setting."})
    );
    assert_eq!(ids(&common::scroll_start(&e, "a", r#"{"size":20}"#, &[], "1m").unwrap()).len(), 20);
    // A scroll reads past the window: 50 documents through a 20-document window.
    let first = common::scroll_start(&e, "a", r#"{"size":20}"#, &[], "1m").unwrap();
    assert_once(&drain(&e, first, "1m"), 50, "window");
    assert_eq!(common::scroll_start(&e, "nope", "{}", &[], "1m").unwrap_err().status, 404);
}

#[test]
fn uri_parameters_and_types_carry_over_but_keys_do_not() {
    let e = Engine::open_or_create(&common::temp_file("scroll-params")).unwrap();
    load(&e, "a", None, &docs(200, "a"));
    let params: Vec<(String, String)> = vec![
        ("q".into(), "t:word4".into()),
        ("size".into(), "4".into()),
        ("_source".into(), "n".into()),
        ("key".into(), "SECRET-API-KEY".into()),
    ];
    let first = common::scroll_start(&e, "a", "", &params, "1m").unwrap();
    let expected: usize = (0..200).filter(|i| i % 13 == 4).count();
    assert_eq!(first["hits"]["total"], expected);
    assert_eq!(ids(&first).len(), 4);
    let second = common::scroll_next(&e, &sid(&first), Some("1m")).unwrap();
    assert_eq!(second["hits"]["hits"][0]["_source"].as_object().unwrap().keys().collect::<Vec<_>>(), ["n"]);
    let mut all = ids(&first);
    all.extend(drain(&e, second, "1m"));
    assert_once(&all, expected, "q");
    // The id is readable base64; it must not carry credentials.
    use base64::Engine as _;
    let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(sid(&first)).unwrap();
    let mut text = Vec::new();
    let _ = std::io::Read::read_to_end(&mut flate2::read::DeflateDecoder::new(&raw[2..raw.len() - 32]), &mut text);
    text.extend_from_slice(&raw);
    assert!(!String::from_utf8_lossy(&text).contains("SECRET-API-KEY"));
    // `{index}/{type}/_search?scroll=`: only that type.
    let first = common::scroll_start_typed(&e, "a", &["other".into()], r#"{"size":10}"#, &[], "1m").unwrap();
    assert_eq!(first["hits"]["total"], 0);
    let first = common::scroll_start_typed(&e, "a", &["rin".into()], r#"{"size":10}"#, &[], "1m").unwrap();
    assert_once(&drain(&e, first, "1m"), 200, "typed");
}

#[test]
fn clearing_ids_lists_and_all() {
    let e = Engine::open_or_create(&common::temp_file("scroll-clear")).unwrap();
    load(&e, "a", None, &docs(60, "a"));
    let a = common::scroll_start(&e, "a", r#"{"size":10}"#, &[], "1m").unwrap();
    let b = common::scroll_start(&e, "a", r#"{"size":10}"#, &[], "1m").unwrap();
    let b2 = common::scroll_next(&e, &sid(&b), Some("1m")).unwrap();
    // Two ids of one scroll free it once.
    assert_eq!(e.clear_scroll(&[sid(&a), sid(&b), sid(&b2)], None).unwrap(), 2);
    assert_eq!(e.clear_scroll(&[sid(&a)], None).unwrap(), 0);
    let c = common::scroll_start(&e, "a", r#"{"size":10}"#, &[], "1m").unwrap();
    let d = common::scroll_start(&e, "a", r#"{"size":10}"#, &[], "1m").unwrap();
    // ES answers `_all` with one freed per node.
    assert_eq!(e.clear_scroll(&["_all".into()], None).unwrap(), 1);
    for x in [&c, &d] {
        assert_eq!(common::scroll_next(&e, &sid(x), Some("1m")).unwrap_err().status, 404);
    }
    assert_eq!(e.clear_scroll(&["_all".into()], None).unwrap(), 1);
    // Scrolls started after `_all` work.
    let f = common::scroll_start(&e, "a", r#"{"size":10}"#, &[], "1m").unwrap();
    assert_once(&drain(&e, f, "1m"), 60, "after _all");
    // `_all` is special only alone.
    assert_eq!(e.clear_scroll(&["_all".into(), sid(&c)], None).unwrap_err().status, 400);
}

#[test]
fn iterator_yields_every_hit() {
    let e = Engine::open_or_create(&common::temp_file("scroll-iter")).unwrap();
    load(&e, "a", None, &docs(333, "d"));
    let hits: Vec<Value> =
        e.scroll_iter(common::scroll_request("a", r#"{"size":100}"#, "1m")).collect::<Result<_, _>>().unwrap();
    assert_eq!(hits.len(), 333);
    let sorted: Vec<i64> = e
        .scroll_iter(common::scroll_request("a", r#"{"size":40,"sort":[{"n":"desc"}]}"#, "1m"))
        .map(|h| h.unwrap()["_source"]["n"].as_i64().unwrap())
        .collect();
    assert_eq!(sorted, (0..333).rev().collect::<Vec<i64>>());
    // Stopping early is fine.
    assert_eq!(e.scroll_iter(common::scroll_request("a", r#"{"size":7}"#, "1m")).take(10).count(), 10);
    let mut bad = e.scroll_iter(common::scroll_request("missing", "{}", "1m"));
    assert_eq!(bad.next().unwrap().unwrap_err().status, 404);
    assert!(bad.next().is_none());
}

#[test]
fn later_pages_run_the_first_pages_request_without_its_aggregations() {
    let e = Engine::open_or_create(&common::temp_file("scroll-same-request")).unwrap();
    load(&e, "a", None, &docs(9, "a"));
    let params: Vec<(String, String)> = [("seq_no_primary_term", "true"), ("version", "true")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let body = r#"{"size":4,"sort":["_doc"],"_source":["n"],"aggs":{"m":{"max":{"field":"n"}}}}"#;
    let first = common::scroll_start(&e, "a", body, &params, "1m").unwrap();
    assert_eq!(first["aggregations"]["m"]["value"], json!(8.0));
    let mut pages = vec![first];
    loop {
        let page = common::scroll_next(&e, &sid(pages.last().unwrap()), Some("1m")).unwrap();
        if ids(&page).is_empty() {
            break;
        }
        assert!(page.get("aggregations").is_none(), "{page}");
        pages.push(page);
    }
    assert_eq!(pages.len(), 3);
    for page in &pages {
        for hit in page["hits"]["hits"].as_array().unwrap() {
            assert_eq!(hit["_version"], json!(1), "{hit}");
            assert!(hit["_seq_no"].is_u64() && hit["_primary_term"] == json!(1), "{hit}");
            assert_eq!(
                hit["_source"].as_object().map(|o| o.keys().map(String::as_str).collect::<Vec<_>>()),
                Some(vec!["n"]),
                "{hit}"
            );
        }
    }
}
