//! Readers during writes from another process: `metagate serve` answers `_search` and
//! `_count` on an alias while CLI processes replace the index behind it with corpora of
//! two sizes and swap the alias between two indices of those sizes. Every answer must come
//! from one snapshot: its total is one corpus's size, never a mix of the two.
//!
//! `METAGATE_CONCURRENCY_ROUNDS` (default 3) sets the number of load-and-swap rounds;
//! `METAGATE_BIN` runs another build of the binary.

mod common;
use common::cli::{env_or, gen, run_ok};
use common::http::send;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Sizes of the two corpora.
const A: u64 = 300;
const B: u64 = 700;

/// What the readers saw: totals by value, and anything that was not a 200 with a total.
#[derive(Default)]
struct Seen {
    totals: BTreeMap<u64, u64>,
    bad: Vec<String>,
}

/// One reader: searches and counts on `Flip_pr` until `stop`, noting every total.
fn reader(port: u16, key: String, stop: Arc<AtomicBool>, seen: Arc<Mutex<Seen>>) {
    let addr = ("127.0.0.1", port);
    let requests: [(&str, &str, &str, &str); 4] = [
        ("GET", "/elastic/v1/Flip_pr/_search?size=0", "", "/hits/total"),
        ("POST", "/elastic/v1/Flip_pr/_search", r#"{"size":3,"query":{"match_all":{}}}"#, "/hits/total"),
        ("GET", "/elastic/v1/Flip_pr/_count", "", "/count"),
        (
            "POST",
            "/elastic/v1/Flip_pr/_search",
            r#"{"size":0,"aggs":{"n":{"value_count":{"field":"item.identifier.keyword"}}}}"#,
            "/hits/total",
        ),
    ];
    let mut i = 0;
    while !stop.load(Ordering::Relaxed) {
        let (method, path, body, pointer) = requests[i % requests.len()];
        i += 1;
        let headers = [("apikey", key.as_str()), ("Content-Type", "application/json")];
        let r = send(addr, method, path, &headers, body);
        let v = r.json();
        let mut s = seen.lock().unwrap();
        match v.pointer(pointer).and_then(Value::as_u64) {
            Some(total) if r.status == 200 => {
                *s.totals.entry(total).or_default() += 1;
                // The aggregation counts the same snapshot's documents.
                if let Some(n) = v.pointer("/aggregations/n/value").and_then(Value::as_u64) {
                    if n != total {
                        s.bad.push(format!("{path}: total {total} but value_count {n}"));
                    }
                }
            }
            _ => s.bad.push(format!("{method} {path}: {} {}", r.status, r.text())),
        }
    }
}

#[test]
fn every_answer_comes_from_one_snapshot() {
    let dir = std::env::temp_dir().join(format!("metagate-concurrency-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("data.redb");
    let f = file.to_str().unwrap();
    let (a, b) = (dir.join("a.ndjson"), dir.join("b.ndjson"));
    gen(&a, A as usize, 11);
    gen(&b, B as usize, 12);
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    run_ok(&["load", "--file", f, "--index", "a", a]);
    run_ok(&["load", "--file", f, "--index", "b", b]);
    run_ok(&["load", "--file", f, "--index", "live", "--alias", "Flip_pr", a]);
    let key = run_ok(&["keys", "add", "reader", "--file", f]).trim().to_string();

    let (_served, port) = common::cli::serve(f, &["--threads", "4"]);

    let stop = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(Mutex::new(Seen::default()));
    let readers: Vec<_> = (0..4)
        .map(|_| {
            let (key, stop, seen) = (key.clone(), stop.clone(), seen.clone());
            std::thread::spawn(move || reader(port, key, stop, seen))
        })
        .collect();
    // The writers: another process per write, as an operator runs them.
    let rounds = env_or("METAGATE_CONCURRENCY_ROUNDS", 3);
    for round in 0..rounds {
        let (corpus, other) = if round % 2 == 0 { (b, "a") } else { (a, "b") };
        run_ok(&["load", "--file", f, "--index", "live", "--alias", "Flip_pr", "--replace", corpus]);
        std::thread::sleep(Duration::from_millis(300));
        run_ok(&["alias", "--file", f, "swap", "Flip_pr", other]);
        std::thread::sleep(Duration::from_millis(300));
        run_ok(&["alias", "--file", f, "swap", "Flip_pr", "live"]);
    }
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::Relaxed);
    for r in readers {
        r.join().unwrap();
    }
    let seen = seen.lock().unwrap();
    println!("concurrency: {rounds} rounds, totals seen {:?}", seen.totals);
    assert!(seen.bad.is_empty(), "{:?}", &seen.bad[..seen.bad.len().min(5)]);
    assert_eq!(seen.totals.keys().copied().collect::<Vec<_>>(), vec![A, B], "totals other than {A} or {B}");
    let _ = std::fs::remove_dir_all(&dir);
}
