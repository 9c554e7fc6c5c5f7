//! Completion suggestion latency at 1,000,000 entries: one completion field with a
//! category context, each document one input of two generated words with a weight.
//! Measures whole requests (`Engine::search_response`: parse, suggest, fetch of the
//! options' `_source`, write) over many different prefixes and prints the p50, p90 and
//! p99 of each case; the first suggestion, which reads the field's entries into the
//! reader's cache, is timed apart.
//!
//! Run: `cargo bench --bench suggest`. `METAGATE_BENCH_DOCS` sets another size; the
//! index is kept in the temp dir (`metagate-bench/suggest-<docs>.redb`) and reused.
//! Under `cargo test --benches` a 2,000-document index only proves the bench runs.

use metagate::{Engine, LoadOptions, SearchRequest};
use serde_json::json;
use std::time::{Duration, Instant};

mod common;
use common::Generated;

const SYLLABLES: [&str; 24] = [
    "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "bar", "cor", "den", "fal", "gor", "hin", "jul", "mor",
    "pen", "qua", "ris", "sel", "tur", "ven", "wex",
];

fn word(mut i: u64, syllables: u64) -> String {
    let mut w = String::new();
    for _ in 0..syllables {
        w.push_str(SYLLABLES[(i % 24) as usize]);
        i /= 24;
    }
    w
}

fn engine(n: u64) -> Engine {
    let (e, built) = common::cached_engine("suggest", "suggest", n);
    if built {
        return e;
    }
    let t = Instant::now();
    let input = Generated::new(n, |i| {
        let h = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20;
        let name = format!("{} {}", word(h, 3), word(h >> 15, 2));
        let doc =
            json!({"name": {"input": name, "weight": h % 10_000, "contexts": {"kind": format!("k{}", i % 7)}}, "n": i});
        format!("{{\"index\":{{\"_id\":\"d{i}\"}}}}\n{doc}\n")
    });
    let body = json!({"mappings": {"_doc": {"properties": {
        "name": {"type": "completion", "contexts": [{"name": "kind", "type": "category"}]},
        "n": {"type": "long"}
    }}}});
    let opts = LoadOptions { create_body: Some(body), ..Default::default() };
    let report = e.load("suggest", input, &opts, &mut |_, _| {}).expect("load");
    assert!(report.errors.is_empty(), "{:?}", report.errors.first());
    eprintln!("loaded {n} documents in {:.1} s", t.elapsed().as_secs_f64());
    e
}

/// A request body for a prefix.
type Body = Box<dyn Fn(&str) -> String>;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let n = common::bench_docs();
    let e = engine(n);
    let t = Instant::now();
    let first =
        common::search(&e, "suggest", r#"{"size":0,"suggest":{"s":{"prefix":"ka","completion":{"field":"name"}}}}"#);
    first.expect("first suggestion");
    eprintln!("first suggestion (reads the entries): {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    // Prefixes of one, two and three syllables.
    let prefixes: Vec<String> = (0..600u64).map(|i| word(i * 7 + 3, 1 + i % 3)).collect();
    let cases: Vec<(&str, Body)> = vec![
        (
            "prefix",
            Box::new(|p| {
                format!(r#"{{"size":0,"suggest":{{"s":{{"prefix":"{p}","completion":{{"field":"name"}}}}}}}}"#)
            }),
        ),
        (
            "prefix_skip_duplicates",
            Box::new(|p| {
                format!(
                    r#"{{"size":0,"suggest":{{"s":{{"prefix":"{p}","completion":{{"field":"name","skip_duplicates":true}}}}}}}}"#
                )
            }),
        ),
        (
            "context",
            Box::new(|p| {
                format!(
                    r#"{{"size":0,"suggest":{{"s":{{"prefix":"{p}","completion":{{"field":"name","contexts":{{"kind":["k1",{{"context":"k2","boost":2}}]}}}}}}}}}}"#
                )
            }),
        ),
        (
            "fuzzy",
            Box::new(|p| {
                format!(
                    r#"{{"size":0,"suggest":{{"s":{{"prefix":"{p}x","completion":{{"field":"name","fuzzy":true}}}}}}}}"#
                )
            }),
        ),
    ];
    for (name, body) in &cases {
        let mut times = Vec::with_capacity(prefixes.len());
        for p in &prefixes {
            let b = body(p);
            let t = Instant::now();
            let r = e
                .search_request("suggest", &SearchRequest::from_body(&b).expect("request"), Default::default())
                .expect("suggestion");
            times.push(t.elapsed());
            std::hint::black_box(r);
        }
        times.sort();
        println!(
            "suggest_{n}_entries/{name}: p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms ({} requests)",
            percentile(&times, 0.5).as_secs_f64() * 1e3,
            percentile(&times, 0.9).as_secs_f64() * 1e3,
            percentile(&times, 0.99).as_secs_f64() * 1e3,
            times.len()
        );
    }
}
