//! Timing: per-class latency samples, the scroll's per-page latencies, and throughput of
//! one and two threads issuing queries at once.

use crate::engines::Searcher;
use crate::queries::{Class, Outcome, Query, SCROLL};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A class's timed run stops after this many samples...
const MAX_SAMPLES: usize = 300;
/// ...or this much time (after at least one pass over its variants)...
const BUDGET: Duration = Duration::from_secs(3);
/// ...but never before this many samples.
const MIN_SAMPLES: usize = 20;
/// How long each throughput run lasts.
const THROUGHPUT_RUN: Duration = Duration::from_secs(4);

/// The `p`-th percentile (nearest rank) of sorted samples, in microseconds.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn summary(mut us: Vec<f64>) -> Value {
    us.sort_by(|a, b| a.total_cmp(b));
    json!({"p50_us": percentile(&us, 50.0), "p99_us": percentile(&us, 99.0), "samples": us.len(),
           "mean_us": us.iter().sum::<f64>() / us.len().max(1) as f64})
}

/// Runs one class: a warm-up pass records every variant's answer (for the cross-engine
/// check), then timed round-robin passes.
pub fn class(s: &dyn Searcher, c: &Class, docs: u64) -> Value {
    if c.id == SCROLL {
        return scroll(s, docs);
    }
    let answers: Vec<Outcome> = c.variants.iter().map(|q| s.run(q)).collect();
    let mut us = Vec::new();
    let start = Instant::now();
    let mut i = 0;
    while us.len() < MAX_SAMPLES && (us.len() < MIN_SAMPLES.max(c.variants.len()) || start.elapsed() < BUDGET) {
        let q = &c.variants[i % c.variants.len()];
        let t = Instant::now();
        std::hint::black_box(s.run(q));
        us.push(t.elapsed().as_secs_f64() * 1e6);
        i += 1;
    }
    let mut out = summary(us);
    out["totals"] = json!(answers.iter().map(|a| a.total).collect::<Vec<_>>());
    out["hits"] = json!(answers.iter().map(|a| a.hits).collect::<Vec<_>>());
    out["sigs"] = json!(answers.iter().map(|a| a.sig.clone()).collect::<Vec<_>>());
    out
}

/// Full scrolls at 1000 per page (enough of them for 100+ pages); per-page latencies,
/// and the time of one whole scroll.
fn scroll(s: &dyn Searcher, docs: u64) -> Value {
    let mut us = Vec::new();
    let mut whole = Vec::new();
    let mut read = 0;
    while us.len() < 100 {
        let start = Instant::now();
        let mut last = start;
        read = s.scroll(1000, &mut |_| {
            let now = Instant::now();
            us.push((now - last).as_secs_f64() * 1e6);
            last = now;
        });
        whole.push(start.elapsed().as_secs_f64());
        if read == 0 {
            break;
        }
    }
    assert_eq!(read, docs, "a scroll reads every document");
    let mut out = summary(us);
    out["totals"] = json!([read]);
    out["scroll_secs"] = json!(whole.iter().cloned().fold(f64::INFINITY, f64::min));
    out
}

/// Queries per second of `threads` threads each issuing `mix` round-robin (offset per
/// thread) for a fixed time, and the CPUs the process used meanwhile.
pub fn throughput(s: &dyn Searcher, mix: &[Query], threads: usize) -> (f64, f64) {
    let cpu0 = cpu_secs();
    let start = Instant::now();
    let done: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut n = 0;
                    while start.elapsed() < THROUGHPUT_RUN {
                        std::hint::black_box(s.run(&mix[(n + t * 7) % mix.len()]));
                        n += 1;
                    }
                    n
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("query thread")).sum()
    });
    let wall = start.elapsed().as_secs_f64();
    (done as f64 / wall, (cpu_secs() - cpu0) / wall)
}

/// CPU seconds (user + system) this process has used: with the machine shared, the CPUs
/// a two-thread run actually got say how much of its speed-up was possible.
pub fn cpu_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesised command name (state first): utime and stime are the
    // 12th and 13th (fields 14 and 15 of proc(5)).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let field = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    // Clock ticks are 100 per second on Linux.
    (field(11) + field(12)) / 100.0
}

/// A `/proc/self/status` field in kB (0 where there is none).
pub fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

/// The load average (1, 5, 15 minutes) as `uptime` prints it.
pub fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&v, 50.0), 50.0);
        assert_eq!(percentile(&v, 99.0), 99.0);
        assert_eq!(percentile(&[7.0], 99.0), 7.0);
    }
}
