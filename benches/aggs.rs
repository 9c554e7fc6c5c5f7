//! Aggregation latency over a 1,000,000-document index (every document matches):
//! a facet (`terms`, size 200, ordered as the portals ask), a composite page of 1000
//! identifiers from the middle of the key space, a monthly `date_histogram`, and a
//! `stats` metric.
//!
//! Run: `cargo bench --bench aggs`. `METAGATE_BENCH_DOCS` sets another size; the index is
//! kept in the temp dir (`metagate-bench/aggs-<docs>.redb`) and reused by later runs.
//! Under `cargo test --benches` a 2,000-document index only proves the bench runs.

use criterion::{criterion_group, criterion_main, Criterion};
use metagate::Engine;
use metagate::LoadOptions;
use std::hint::black_box;
use std::time::{Duration, Instant};

mod common;
use common::Generated;

fn engine(n: u64) -> Engine {
    let (e, built) = common::cached_engine("aggs", "aggs", n);
    if built {
        return e;
    }
    let t = Instant::now();
    // 1013 facet values with a skewed spread, unique identifiers, dates over ~27 years.
    let input = Generated::new(n, |i| {
        let kind = (i * i) % 1013;
        let day = (i * 7919) % 10_000;
        format!(
            "{{\"index\":{{\"_id\":\"r{i}\",\"_type\":\"rin\"}}}}\n{{\"ident\":\"SCR_{i:08}\",\"kind\":\"k{kind}\",\"n\":{},\"created\":{}}}\n",
            i % 1000,
            946_684_800_000u64 + day * 86_400_000
        )
    });
    e.load("aggs", input, &LoadOptions::default(), &mut |_, _| {}).expect("load");
    eprintln!("loaded {n} documents in {:.1} s", t.elapsed().as_secs_f64());
    e
}

fn bench(c: &mut Criterion) {
    let n = common::bench_docs();
    let e = engine(n);
    let mid = format!("SCR_{:08}", n / 2);
    let cases = [
        (
            "terms_size_200",
            r#"{"size":0,"aggs":{"kinds":{"terms":{"field":"kind.keyword","size":200,"order":[{"_count":"desc"},{"_key":"asc"}]}}}}"#.to_string(),
        ),
        (
            "composite_page_1000",
            format!(r#"{{"size":0,"aggs":{{"ids":{{"composite":{{"size":1000,"after":{{"id":"{mid}"}},"sources":[{{"id":{{"terms":{{"field":"ident.keyword"}}}}}}]}}}}}}}}"#),
        ),
        ("date_histogram_month", r#"{"size":0,"aggs":{"m":{"date_histogram":{"field":"created","interval":"month"}}}}"#.to_string()),
        ("stats", r#"{"size":0,"aggs":{"s":{"stats":{"field":"n"}}}}"#.to_string()),
    ];
    let mut g = c.benchmark_group(format!("aggs_{n}_docs"));
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    for (name, body) in &cases {
        let r = common::search(&e, "aggs", body).expect("search");
        assert_eq!(r["hits"]["total"], serde_json::json!(n), "{name}");
        g.bench_function(*name, |b| b.iter(|| black_box(common::search(&e, "aggs", black_box(body)).expect("search"))));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
