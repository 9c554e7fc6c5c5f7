//! `geo_distance` latency over 1,000,000 geo points spread over the globe: circles of
//! 10 km, 100 km and 1,000 km (the issue asks under 10 ms p50), a bounding box and a
//! `_geo_distance` sort of the 10 nearest.
//!
//! Run: `cargo bench --bench geo`. `METAGATE_BENCH_DOCS` sets another size; the index is
//! kept in the temp dir (`metagate-bench/geo-<docs>.redb`) and reused by later runs.
//! Under `cargo test --benches` a 2,000-document index only proves the bench runs.

use criterion::{criterion_group, criterion_main, Criterion};
use metagate::Engine;
use metagate::LoadOptions;
use std::hint::black_box;
use std::time::{Duration, Instant};

mod common;
use common::Generated;

/// A point of document `i`: a fixed pseudo-random spread, uniform over the sphere's
/// latitudes and longitudes.
fn point(i: u64) -> (f64, f64) {
    let mut x = i.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    x ^= x >> 29;
    let a = (x >> 11) as f64 / (1u64 << 53) as f64;
    let y = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let b = (y >> 11) as f64 / (1u64 << 53) as f64;
    ((2.0 * a - 1.0).asin().to_degrees(), b * 360.0 - 180.0)
}

fn engine(n: u64) -> Engine {
    let (e, built) = common::cached_engine("geo", "geo", n);
    if built {
        return e;
    }
    let t = Instant::now();
    let input = Generated::new(n, |i| {
        let (lat, lon) = point(i);
        format!("{{\"index\":{{\"_id\":\"p{i}\"}}}}\n{{\"name\":\"place {i}\",\"location\":{{\"lat\":{lat:.6},\"lon\":{lon:.6}}}}}\n")
    });
    let body = serde_json::json!({"mappings": {"_doc": {"properties": {
        "name": {"type": "keyword"}, "location": {"type": "geo_point"}
    }}}});
    let opts = LoadOptions { create_body: Some(body), ..Default::default() };
    e.load("geo", input, &opts, &mut |_, _| {}).expect("load");
    eprintln!("loaded {n} documents in {:.1} s", t.elapsed().as_secs_f64());
    e
}

fn bench(c: &mut Criterion) {
    let n = common::bench_docs();
    let e = engine(n);
    let distance = |d: &str| {
        format!(r#"{{"query":{{"geo_distance":{{"distance":"{d}","location":{{"lat":48.8566,"lon":2.3522}}}}}}}}"#)
    };
    let cases = [
        ("geo_distance_10km", distance("10km")),
        ("geo_distance_100km", distance("100km")),
        ("geo_distance_1000km", distance("1000km")),
        (
            "geo_bounding_box_10x10_degrees",
            r#"{"query":{"geo_bounding_box":{"location":{"top":55,"left":-5,"bottom":45,"right":5}}}}"#.to_string(),
        ),
        (
            "geo_distance_sort_nearest_10_within_1000km",
            r#"{"query":{"geo_distance":{"distance":"1000km","location":[2.3522,48.8566]}},"sort":[{"_geo_distance":{"location":[2.3522,48.8566]}}]}"#.to_string(),
        ),
    ];
    let mut g = c.benchmark_group(format!("geo_{n}_points"));
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    for (name, body) in &cases {
        let r = common::search(&e, "geo", body).expect("search");
        assert!(r["hits"]["total"].as_u64().is_some(), "{name}");
        g.bench_function(*name, |b| b.iter(|| black_box(common::search(&e, "geo", black_box(body)).expect("search"))));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
