//! Scroll bookkeeping as a long-running server meets it: a scroll never waits for another
//! handle's write transaction (a load's merge), and still reads on after the load replaced
//! its index; a scroll start leaves a freshly loaded (compacted) file its length; scrolls
//! belong to the API key that started them; and a clear costs the same on a file that has
//! seen thousands of scrolls as on a fresh one.

mod common;
use common::hit_ids as ids;
use metagate::gateway::{keys, Gateway, GatewayConfig, Request, Response};
use metagate::{Engine, LoadOptions};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::path::Path;
use std::sync::{mpsc, Arc};
use std::time::Duration;

fn docs(n: usize, tag: &str) -> Vec<(String, Value)> {
    (0..n).map(|i| (format!("{tag}{i}"), json!({"t": format!("word{} common", i % 13), "n": i}))).collect()
}

fn load(e: &Engine, name: &str, d: &[(String, Value)], replace: bool) {
    let opts = LoadOptions { replace, ..Default::default() };
    e.load(name, common::bulk(d).as_bytes(), &opts, &mut |_, _| {}).unwrap();
}

fn sid(page: &Value) -> String {
    page["_scroll_id"].as_str().unwrap().to_string()
}

/// Every id of a scroll from its first page on, continuing with each page's id.
fn drain(e: &Engine, first: &Value) -> Vec<String> {
    let mut all = ids(first);
    let mut id = sid(first);
    loop {
        let page = common::scroll_next(e, &id, Some("1m")).unwrap();
        if ids(&page).is_empty() {
            return all;
        }
        all.extend(ids(&page));
        id = sid(&page);
    }
}

/// A second handle on the file holding a write transaction open, as a load in another
/// process does for its whole merge.
fn hold_write_lock(path: &Path) -> (redb::Database, redb::WriteTransaction) {
    let db = redb::Builder::new().set_concurrency_mode(redb::ConcurrencyMode::MultiWriter).open(path).unwrap();
    let txn = db.begin_write().unwrap();
    (db, txn)
}

/// Runs `f` on another thread and waits for it a minute at most (a scroll that waited for
/// the lock would wait forever here).
fn answers_soon<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(60)).expect("the scroll waited for the write lock")
}

#[test]
fn a_scroll_never_waits_for_another_handles_write_and_reads_on_after_a_replace() {
    let path = common::temp_file("scroll-lock");
    let e = Arc::new(Engine::open_or_create(&path).unwrap());
    load(&e, "r", &docs(40, "a"), false);
    let body = r#"{"size":7,"sort":["_doc"]}"#;

    let (db, txn) = hold_write_lock(&path);
    // A short keep-alive writes nothing; a long one queues its pin for when the lock frees.
    let (short, long) = answers_soon({
        let e = e.clone();
        move || {
            (
                common::scroll_start(&e, "r", body, &[], "1m").unwrap(),
                common::scroll_start(&e, "r", body, &[], "2h").unwrap(),
            )
        }
    });
    let long2 = answers_soon({
        let (e, id) = (e.clone(), sid(&long));
        move || common::scroll_next(&e, &id, Some("2h")).unwrap()
    });
    assert_eq!(ids(&long2).len(), 7);
    assert_eq!(e.scroll_records().unwrap(), 0, "nothing is written while the lock is held");
    drop(txn);
    drop(db);
    e.flush_scroll_bookkeeping();
    // The long scroll's pin on its one generation, the process's note that it reads the
    // short one without a pin, and their two expiry-index entries.
    assert_eq!(e.scroll_records().unwrap(), 4);

    // A load replaces the index: new searches see the new records, both scrolls read on in
    // the generation they started on (this engine keeps a replaced generation no longer
    // than its scrolls need it).
    e.set_retire_grace_ms(0);
    load(&e, "r", &docs(40, "b"), true);
    assert!(ids(&common::search(&e, "r", r#"{"size":50}"#).unwrap()).iter().all(|i| i.starts_with('b')));
    let mut short_ids = drain(&e, &short);
    let mut long_ids = ids(&long);
    long_ids.extend(drain(&e, &long2));
    for all in [&mut short_ids, &mut long_ids] {
        assert_eq!(all.len(), 40, "{all:?}");
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), 40);
        assert!(all.iter().all(|i| i.starts_with('a')), "{all:?}");
    }
    // The short scroll pinned the retired generation when it met it, so a later load keeps it.
    let old = e.stored_generations().unwrap()[0];
    load(&e, "other", &docs(3, "o"), false);
    assert!(e.stored_generations().unwrap().contains(&old));
    assert_eq!(e.clear_scroll(&[sid(&short), sid(&long)], None).unwrap(), 2);
    load(&e, "other2", &docs(3, "o"), false);
    assert!(!e.stored_generations().unwrap().contains(&old));
}

#[test]
fn a_scroll_start_leaves_a_freshly_loaded_file_its_length() {
    let path = common::temp_file("scroll-len");
    let mut e = Engine::open_or_create(&path).unwrap();
    // A server that has served scrolls (its first wrote the process's note, renewed about
    // once an hour), then `metagate load` adds an index.
    load(&e, "warm", &docs(3, "w"), false);
    common::scroll_start(&e, "warm", r#"{"size":1}"#, &[], "1m").unwrap();
    load(&e, "r", &docs(3_000, "a"), false);
    // As `metagate load` leaves it: compacted, without a free page.
    assert_eq!(e.compact().unwrap(), metagate::Compaction::Done);
    let len = || std::fs::metadata(&path).unwrap().len();
    let before = len();
    let first = common::scroll_start(&e, "r", r#"{"size":100}"#, &[], "5m").unwrap();
    let second = common::scroll_next(&e, &sid(&first), Some("5m")).unwrap();
    assert_eq!(ids(&second).len(), 100);
    assert_eq!(len(), before, "a scroll start grew the file");
}

fn request(method: &str, path: &str, key: &str, body: &str) -> Request {
    let mut headers = vec![("apikey".to_string(), key.to_string())];
    if !body.is_empty() {
        headers.push(("Content-Type".to_string(), "application/json".to_string()));
    }
    Request { method: method.into(), path: path.into(), headers, body: body.as_bytes().to_vec() }
}

fn json_of(r: &Response) -> Value {
    serde_json::from_slice(&r.body).unwrap()
}

#[test]
fn scrolls_belong_to_the_key_that_started_them() {
    let e = common::engine_with("scroll-owner", "r", None, &docs(20, "a"), None);
    let alice = keys::add(&e, "alice").unwrap();
    let bob = keys::add(&e, "bob").unwrap();
    // No rate limit (0): the test sends a hundred requests at once.
    let g = Gateway::new(Arc::new(e), GatewayConfig { rate_limit: 0.0, ..Default::default() });
    let start = |key: &str| g.handle(&request("POST", "/elastic/v1/r/_search?scroll=1m", key, r#"{"size":2}"#));
    let next = |key: &str, id: &str| {
        g.handle(&request(
            "POST",
            "/elastic/v1/_search/scroll",
            key,
            &json!({"scroll": "1m", "scroll_id": id}).to_string(),
        ))
    };
    let clear = |key: &str, id: &str| {
        g.handle(&request("DELETE", "/elastic/v1/_search/scroll", key, &json!({"scroll_id": [id]}).to_string()))
    };
    let clear_all = |key: &str| g.handle(&request("DELETE", "/elastic/v1/_search/scroll/_all", key, ""));

    let first = start(&alice);
    assert_eq!(first.status, 200);
    let id = sid(&json_of(&first));
    // Another key's id is a missing context, and clearing it frees nothing.
    let theirs = next(&bob, &id);
    assert_eq!(clear(&bob, &id).status, 404);
    assert_eq!(json_of(&clear(&bob, &id)), json!({"succeeded": true, "num_freed": 0}));
    // Bob's `_all` ends Bob's scrolls only.
    let bobs = sid(&json_of(&start(&bob)));
    assert_eq!(json_of(&clear_all(&bob)), json!({"succeeded": true, "num_freed": 1}));
    assert_eq!(next(&bob, &bobs).status, 404);
    assert_eq!(next(&alice, &id).status, 200);
    // Alice's `_all` ends hers; her id now answers exactly as it answered Bob.
    assert_eq!(clear_all(&alice).status, 200);
    let gone = next(&alice, &id);
    assert_eq!(gone.status, 404);
    assert_eq!((theirs.status, json_of(&theirs)), (gone.status, json_of(&gone)));
    assert_eq!(json_of(&gone)["error"]["root_cause"][0]["type"], "search_context_missing_exception");

    // Each key has its own share of the open scrolls: Alice filling hers locks nobody else out.
    let held: Vec<String> = (0..100).map(|_| sid(&json_of(&start(&alice)))).collect();
    let refused = start(&alice);
    assert_eq!(refused.status, 500);
    assert_eq!(
        json_of(&refused)["error"]["root_cause"][0]["reason"],
        "Trying to create too many scroll contexts. Must be less than or equal to: [100]. This limit can be set by changing the [search.max_open_scroll_context] setting."
    );
    assert_eq!(start(&bob).status, 200);
    assert_eq!(clear(&alice, &held[0]).status, 200);
    assert_eq!(start(&alice).status, 200);
    assert_eq!(clear_all(&alice).status, 200);
    assert_eq!(clear_all(&bob).status, 200);
}

/// Start/clear cycles of [`a_clear_costs_the_same_on_a_file_that_has_seen_many_scrolls`]
/// (a debug build does a few thousand a minute; the cost per clear is what is checked).
const CYCLES: usize = 3_000;

#[test]
fn a_clear_costs_the_same_on_a_file_that_has_seen_many_scrolls() {
    let e = common::engine_with("scroll-age", "r", None, &docs(5, "a"), None);
    let cycle = |e: &Engine| {
        let page = common::scroll_start(e, "r", r#"{"size":2}"#, &[], "1m").unwrap();
        let before = metagate::catalog_entries_touched();
        assert_eq!(e.clear_scroll(&[sid(&page)], None).unwrap(), 1);
        metagate::catalog_entries_touched() - before
    };
    // The first cycle reads the catalog; the second is what a clear costs on a fresh file.
    cycle(&e);
    let fresh = cycle(&e);
    for _ in 0..CYCLES {
        cycle(&e);
    }
    assert_eq!(cycle(&e), fresh, "a clear touches more of the scrolls table as the file ages");
    // Each cleared scroll left its record and its expiry-index entry (pruned a day later,
    // a batch per write: see the unit tests of `scroll::records`), and nothing else but the
    // process's note and its entry.
    assert_eq!(e.scroll_records().unwrap(), 2 * (CYCLES + 3) + 2);
}
