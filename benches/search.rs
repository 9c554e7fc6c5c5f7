//! Search latency through the engine API (parse, execute, top 10, render) on the demo
//! registry tools (19,649 records): term, match with 1–3 terms (OR and AND), phrase,
//! query_string over wildcard field patterns, bool with filters, keyword sort.
//!
//! Run: `cargo bench --bench search`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use metagate::Engine;
use metagate::Family;
use metagate::LoadOptions;
use std::hint::black_box;

fn engine() -> Engine {
    let dir = std::env::temp_dir().join("metagate-bench");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("search-{}.redb", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let e = Engine::open_or_create(&path).expect("engine");
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/data/demo/tools.ndjson.gz");
    let input = flate2::read::GzDecoder::new(std::fs::File::open(file).expect("demo tools file"));
    let opts = LoadOptions { family: Some(Family::Registry), ..Default::default() };
    e.load("tools", input, &opts, &mut |_, _| {}).expect("load");
    e
}

fn bench(c: &mut Criterion) {
    let e = engine();
    let cases: &[(&str, &str)] = &[
        ("term", r#"{"query":{"term":{"item.description":"sequence"}}}"#),
        ("match_1_term", r#"{"query":{"match":{"item.description":"protein"}}}"#),
        ("match_2_terms_or", r#"{"query":{"match":{"item.description":"protein structure"}}}"#),
        ("match_3_terms_or", r#"{"query":{"match":{"item.description":"protein structure prediction"}}}"#),
        (
            "match_2_terms_and",
            r#"{"query":{"match":{"item.description":{"query":"protein structure","operator":"and"}}}}"#,
        ),
        (
            "match_3_terms_and",
            r#"{"query":{"match":{"item.description":{"query":"protein structure prediction","operator":"and"}}}}"#,
        ),
        ("phrase", r#"{"query":{"match_phrase":{"item.description":"sequence alignment"}}}"#),
        (
            "query_string_field_wildcards",
            r#"{"query":{"query_string":{"query":"protein structure","fields":["item.name^2","item.*","*identifier"]}}}"#,
        ),
        (
            "bool_with_filters",
            r#"{"query":{"bool":{"must":{"match":{"item.description":"genome"}},"filter":[{"term":{"item.types.name.aggregate":"web application"}},{"exists":{"field":"item.keywords.keyword"}}]}}}"#,
        ),
        ("sort_keyword", r#"{"query":{"match":{"item.description":"data"}},"sort":[{"item.name.aggregate":"asc"}]}"#),
    ];
    let mut group = c.benchmark_group("search");
    for (name, body) in cases {
        // Every case finds documents (a benchmark of empty results would measure nothing).
        let res = common::search(&e, "tools", body).expect("search");
        assert!(res["hits"]["total"].as_u64().unwrap_or(0) > 0, "{name} matches nothing");
        group.bench_function(*name, |b| {
            b.iter(|| black_box(common::search(&e, "tools", black_box(body)).expect("search")))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
