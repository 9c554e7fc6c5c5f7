//! The three engines behind one interface: build from the corpus, open, answer a query,
//! scroll everything.

pub mod fts;
pub mod mg;
pub mod tv;

use crate::corpus::Corpus;
use crate::queries::{Outcome, Query};
use std::path::Path;

/// Names, in table order.
pub const ENGINES: [&str; 3] = ["metagate", "tantivy", "fts5"];

/// An opened engine. `Sync`: the two-thread run shares one instance.
pub trait Searcher: Sync {
    /// Answers one query: the top hits with their sources, and the exact total.
    fn run(&self, q: &Query) -> Outcome;
    /// Reads every document in index order, `page` at a time, calling `on_page` after
    /// each page with the number of hits it held. Returns the documents read.
    fn scroll(&self, page: usize, on_page: &mut dyn FnMut(usize)) -> u64;
}

/// Builds `engine`'s index of the first `n` records under `dir`; returns bytes on disk.
pub fn build(engine: &str, corpus: &Corpus, n: u64, dir: &Path) -> u64 {
    match engine {
        "metagate" => mg::build(corpus, n, dir),
        "tantivy" => tv::build(corpus, n, dir),
        "fts5" => fts::build(corpus, n, dir),
        other => panic!("unknown engine {other}"),
    }
}

/// Opens `engine`'s index under `dir`.
pub fn open(engine: &str, dir: &Path) -> Box<dyn Searcher> {
    match engine {
        "metagate" => Box::new(mg::Mg::open(dir)),
        "tantivy" => Box::new(tv::Tv::open(dir)),
        "fts5" => Box::new(fts::Fts::open(dir)),
        other => panic!("unknown engine {other}"),
    }
}

/// Bytes of every file under `path`.
pub fn disk_bytes(path: &Path) -> u64 {
    if path.is_file() {
        return path.metadata().map(|m| m.len()).unwrap_or(0);
    }
    std::fs::read_dir(path).into_iter().flatten().flatten().map(|e| disk_bytes(&e.path())).sum()
}
