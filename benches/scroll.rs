//! Full scroll of a large index: documents per second, per-page time at the start and the
//! end of the scroll (a page must not cost more late than early), and peak RSS of the
//! scroll itself (the load's peak is reset through `/proc/self/clear_refs` first).
//!
//! Run: `cargo bench --bench scroll` (1,000,000 documents, pages of 1000). Set
//! `METAGATE_BENCH_DOCS` for another size; the generated file is kept in the temp dir
//! (`metagate-bench/scroll-<docs>.redb`) and reused by later runs.

use metagate::LoadOptions;
use metagate::{Engine, ScrollNextRequest, ScrollStartRequest};

mod common;
use common::{status_kb, Generated};
use std::time::Instant;

fn engine(n: u64) -> Engine {
    let (e, built) = common::cached_engine("scroll", "big", n);
    if built {
        return e;
    }
    let t = Instant::now();
    let input = Generated::new(n, |i| {
        format!(
            "{{\"index\":{{\"_id\":\"r{i}\",\"_type\":\"rin\"}}}}\n{{\"name\":\"record {i} of the benchmark\",\"n\":{i},\"kind\":\"k{}\",\"description\":\"a generated record with words {} and {}\",\"valid\":{}}}\n",
            i % 97,
            i % 1013,
            i % 31,
            i % 2 == 0
        )
    });
    e.load("big", input, &LoadOptions::default(), &mut |_, _| {}).expect("load");
    eprintln!("loaded {n} documents in {:.1} s", t.elapsed().as_secs_f64());
    e
}

/// Scrolls `body` to the end; returns (documents, seconds, ms per page for the first and
/// last ten pages, RSS in MB after each quarter of the pages).
fn scroll(e: &Engine, body: &str) -> (u64, f64, f64, f64, Vec<u64>) {
    let t = Instant::now();
    let mut page_ms = Vec::new();
    let mut p = Instant::now();
    // Each page is written out as the bytes a client receives.
    let mut page =
        e.start_scroll(ScrollStartRequest::parse("big", &[], body, &[], "1m").expect("request"), None).expect("start");
    let mut docs = 0u64;
    let mut rss = Vec::new();
    loop {
        std::hint::black_box(page.to_bytes());
        page_ms.push(p.elapsed().as_secs_f64() * 1e3);
        let hits = page.hits().len();
        if hits == 0 {
            break;
        }
        docs += hits as u64;
        if page_ms.len() % 250 == 0 {
            rss.push(status_kb("VmRSS:") / 1024);
        }
        let id = page.scroll_id().expect("scroll id").to_string();
        p = Instant::now();
        page = e.next_scroll_page(&ScrollNextRequest::new(&id, Some("1m")).expect("request"), None).expect("next");
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let pages = page_ms.len().saturating_sub(1);
    let first = mean(&page_ms[..pages.min(10)]);
    let last = mean(&page_ms[pages.saturating_sub(10)..pages]);
    (docs, t.elapsed().as_secs_f64(), first, last, rss)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not, and then a small
    // index only proves the bench still runs (as criterion does in test mode).
    let benching = std::env::args().any(|a| a == "--bench");
    let default_docs = if benching { 1_000_000 } else { 2_000 };
    let n: u64 = std::env::var("METAGATE_BENCH_DOCS").ok().and_then(|v| v.parse().ok()).unwrap_or(default_docs);
    let e = engine(n);
    // Reset the peak so it measures the scroll, not the load (Linux: "5" resets VmHWM).
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let before = status_kb("VmRSS:");
    for (what, body) in [
        ("_doc order, size 1000", r#"{"size":1000,"sort":["_doc"]}"#),
        ("match_all, no sort, size 1000", r#"{"size":1000}"#),
        ("term query, _doc order, size 1000", r#"{"size":1000,"sort":["_doc"],"query":{"term":{"valid":true}}}"#),
    ] {
        let (docs, secs, first, last, rss) = scroll(&e, body);
        println!(
            "{what}: {docs} docs in {secs:.2} s = {:.0} docs/s; page {first:.2} ms (first 10) vs {last:.2} ms (last 10); RSS every 250 pages {rss:?} MB; peak RSS {} MB (RSS before {} MB)",
            docs as f64 / secs,
            status_kb("VmHWM:") / 1024,
            before / 1024
        );
    }
}
