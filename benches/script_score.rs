//! `function_score` with a `script_score` over a one-term match against the plain match,
//! at 1,000,000 documents: what a script costs per matching document in a search. The
//! script is the interpreter benchmark's (`doc['n'].value * params.f + Math.log(1 +
//! doc['m'].value)`); the term matches one document in ten (100,000 documents scored).
//!
//! Run: `cargo bench --bench script_score`; it prints each case's p50 over 31 timed
//! searches before criterion's figures. `METAGATE_BENCH_DOCS` sets another size; the index
//! is kept in the temp dir (`metagate-bench/script-score-2-<docs>.redb`) and reused. Under
//! `cargo test --benches` a 2,000-document index only proves the bench runs.

use criterion::{criterion_group, criterion_main, Criterion};
use metagate::{Engine, LoadOptions};
use std::hint::black_box;
use std::time::{Duration, Instant};

mod common;
use common::Generated;

fn engine(n: u64) -> Engine {
    let (e, built) = common::cached_engine("script-score-2", "scores", n);
    if built {
        return e;
    }
    let t = Instant::now();
    // A text of two terms (one of ten, one of 97 values), a long and a double (written
    // with a fraction, so dynamic mapping makes it a float field).
    let input = Generated::new(n, |i| {
        format!(
            "{{\"index\":{{\"_id\":\"d{i}\",\"_type\":\"doc\"}}}}\n{{\"body\":\"t{} u{}\",\"n\":{},\"m\":{:.2}}}\n",
            i % 10,
            i % 97,
            (i * 7) % 1000,
            (i % 500) as f64 / 4.0
        )
    });
    e.load("scores", input, &LoadOptions::default(), &mut |_, _| {}).expect("load");
    eprintln!("loaded {n} documents in {:.1} s", t.elapsed().as_secs_f64());
    e
}

/// The median of 31 timed searches of `body`.
fn p50(e: &Engine, body: &str) -> Duration {
    let mut times: Vec<Duration> = (0..31)
        .map(|_| {
            let t = Instant::now();
            black_box(common::search(e, "scores", body).expect("search"));
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn bench(c: &mut Criterion) {
    let n = common::bench_docs();
    let e = engine(n);
    let plain = r#"{"query":{"match":{"body":"t3"}}}"#;
    let scripted = r#"{"query":{"function_score":{"query":{"match":{"body":"t3"}},"script_score":{"script":{"source":"doc['n'].value * params.f + Math.log(1 + doc['m'].value)","params":{"f":1.5}}},"boost_mode":"replace"}}}"#;
    // The scripted search ranks by the script: its best hit has the largest n.
    let r = common::search(&e, "scores", scripted).expect("search");
    assert_eq!(r["hits"]["total"], serde_json::json!(n / 10), "one document in ten matches");
    let top = r["hits"]["hits"][0]["_score"].as_f64().expect("a score");
    assert!(top > 900.0 * 1.5, "{top}");
    let cases = [("match_one_term", plain), ("function_score_script", scripted)];
    for (name, body) in cases {
        eprintln!("{name}: p50 {:.2} ms", p50(&e, body).as_secs_f64() * 1000.0);
    }
    let mut g = c.benchmark_group(format!("script_score_{n}_docs"));
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    for (name, body) in cases {
        g.bench_function(name, |b| {
            b.iter(|| black_box(common::search(&e, "scores", black_box(body)).expect("search")))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
