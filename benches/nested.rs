//! Nested documents: loading a corpus of parents with 10 nested objects each against the
//! same records with the objects mapped as plain (flattened) objects, counting parents
//! per second; then a `nested` query against the same `bool` over the flattened fields
//! (p50 of repeated runs).
//!
//! Run: `cargo bench --bench nested`. `METAGATE_BENCH_DOCS` sets the number of parents
//! (1,000,000 by default); the two indices are loaded afresh into a file in the temp dir.
//! Under `cargo test --benches` 2,000 parents only prove the bench runs.

use metagate::{Engine, LoadOptions};
use serde_json::json;
use std::hint::black_box;
use std::time::{Duration, Instant};

mod common;
use common::Generated;

/// Nested objects per parent.
const CHILDREN: u64 = 10;
const COLORS: [&str; 8] = ["red", "green", "blue", "black", "white", "grey", "pink", "teal"];

/// Record `i`: a title, a kind, a number and ten items (a color, a size, a label).
fn record(i: u64) -> String {
    let items: Vec<String> = (0..CHILDREN)
        .map(|j| {
            // Independent draws for the three values (splitmix64 of the object's number).
            let mut h = (i * CHILDREN + j).wrapping_add(0x9e37_79b9_7f4a_7c15);
            h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            h ^= h >> 31;
            format!(
                r#"{{"color":"{}","size":{},"label":"item {j} word{}"}}"#,
                COLORS[(h % 8) as usize],
                (h >> 8) % 50,
                (h >> 24) % 100
            )
        })
        .collect();
    format!(
        "{{\"index\":{{\"_id\":\"p{i}\"}}}}\n{{\"title\":\"record {i}\",\"kind\":\"k{}\",\"n\":{i},\"items\":[{}]}}\n",
        i % 100,
        items.join(",")
    )
}

fn body(items_type: &str) -> serde_json::Value {
    json!({"mappings": {"_doc": {"properties": {
        "title": {"type": "text"}, "kind": {"type": "keyword"}, "n": {"type": "long"},
        "items": {"type": items_type, "properties": {
            "color": {"type": "keyword"}, "size": {"type": "integer"}, "label": {"type": "text"}}}}}}})
}

/// Loads `n` records into `name` with `items` mapped as `items_type`; parents per second.
fn load(e: &Engine, name: &str, items_type: &str, n: u64) -> f64 {
    let opts = LoadOptions { create_body: Some(body(items_type)), ..Default::default() };
    let t = Instant::now();
    let report = e.load(name, Generated::new(n, record), &opts, &mut |_, _| {}).expect("load");
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(report.docs, n);
    n as f64 / secs
}

/// The median latency of `runs` searches of `body` on `index`, and its hit count.
fn p50(e: &Engine, index: &str, body: &str, runs: usize) -> (Duration, serde_json::Value) {
    let total = common::search(e, index, body).expect("search")["hits"]["total"].clone();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            black_box(common::search(e, index, black_box(body)).expect("search"));
            t.elapsed()
        })
        .collect();
    times.sort();
    (times[runs / 2], total)
}

fn main() {
    let n = common::bench_docs();
    let dir = std::env::temp_dir().join("metagate-bench");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("nested-{n}.redb"));
    let _ = std::fs::remove_file(&path);
    let e = Engine::open_or_create(&path).expect("engine");
    let flat = load(&e, "flat", "object", n);
    let nested = load(&e, "nested", "nested", n);
    println!("load, {n} parents with {CHILDREN} objects each:");
    println!("  flat (object)   {flat:>10.0} parents/s");
    println!("  nested          {nested:>10.0} parents/s ({:.0}% of flat)", 100.0 * nested / flat);
    let runs = if n >= 100_000 { 41 } else { 5 };
    let both = r#"{"bool":{"filter":[{"term":{"items.color":"red"}},{"range":{"items.size":{"gte":40}}}]}}"#;
    let scored = r#"{"bool":{"must":[{"match":{"items.label":"word7"}},{"term":{"items.color":"red"}}]}}"#;
    let cases = [("filter: color and size", both), ("scored: label and color", scored)];
    for (what, q) in cases {
        let flat_body = format!(r#"{{"query":{q},"size":10}}"#);
        let nested_body = format!(r#"{{"query":{{"nested":{{"path":"items","query":{q}}}}},"size":10}}"#);
        let (f, ft) = p50(&e, "flat", &flat_body, runs);
        let (m, mt) = p50(&e, "nested", &nested_body, runs);
        println!(
            "{what}: bool over flattened fields p50 {:.2} ms ({ft} hits), nested p50 {:.2} ms ({mt} hits), {:.2}x",
            f.as_secs_f64() * 1e3,
            m.as_secs_f64() * 1e3,
            m.as_secs_f64() / f.as_secs_f64()
        );
    }
    drop(e);
    let _ = std::fs::remove_file(&path);
}
