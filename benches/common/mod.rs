//! Helpers shared by the bench binaries: a bulk NDJSON stream generated while it is read
//! (so a million-document load never holds its input in memory) and RSS readings.
#![allow(dead_code)]
// The crate's own error type, returned by the helpers that run text through the typed API.
#![allow(clippy::result_large_err)]

use std::io::Read;

/// Bulk NDJSON of `n` records; `line(i)` writes the action and source lines of record `i`.
pub struct Generated<F: Fn(u64) -> String> {
    next: u64,
    n: u64,
    line: F,
    buf: Vec<u8>,
    pos: usize,
}

impl<F: Fn(u64) -> String> Generated<F> {
    /// A stream of records `0..n`.
    pub fn new(n: u64, line: F) -> Self {
        Generated { next: 0, n, line, buf: Vec::new(), pos: 0 }
    }
}

impl<F: Fn(u64) -> String> Read for Generated<F> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pos == self.buf.len() {
            self.buf.clear();
            self.pos = 0;
            while self.next < self.n && self.buf.len() < 1 << 16 {
                let l = (self.line)(self.next);
                self.buf.extend_from_slice(l.as_bytes());
                self.next += 1;
            }
        }
        let k = out.len().min(self.buf.len() - self.pos);
        out[..k].copy_from_slice(&self.buf[self.pos..self.pos + k]);
        self.pos += k;
        Ok(k)
    }
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

/// How many documents a bench generates: `METAGATE_BENCH_DOCS`, else 1,000,000 under
/// `cargo bench` and 2,000 when `cargo test` runs the bench once.
pub fn bench_docs() -> u64 {
    let benching = std::env::args().any(|a| a == "--bench");
    let default = if benching { 1_000_000 } else { 2_000 };
    std::env::var("METAGATE_BENCH_DOCS").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The bench file `{stem}-{n}.redb` in the temp folder, kept between runs, and whether it
/// already holds index `index` with `n` documents (else it is a new, empty file to load
/// it into).
pub fn cached_engine(stem: &str, index: &str, n: u64) -> (metagate::Engine, bool) {
    let dir = std::env::temp_dir().join("metagate-bench");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{stem}-{n}.redb"));
    if let Ok(e) = metagate::Engine::open(&path) {
        if e.indices().map(|i| i.iter().any(|x| x.name == index && x.docs == n)).unwrap_or(false) {
            return (e, true);
        }
    }
    let _ = std::fs::remove_file(&path);
    (metagate::Engine::open_or_create(&path).expect("engine"), false)
}

/// A search given as text (the benches' bodies), parsed and run through the engine's typed
/// API and read back as a JSON tree: the work a text search did before the typed API.
pub fn search(e: &metagate::Engine, index: &str, body: &str) -> metagate::Result<serde_json::Value> {
    let req = metagate::SearchRequest::from_body(body)?;
    e.search_request(index, &req, Default::default())?.to_value()
}
