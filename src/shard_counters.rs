//! The live counters `_stats` reports of each index's one shard: the operations this
//! process served on it (searches' query and fetch phases, scroll pages included, GETs,
//! the shard request cache's hits, misses, evictions and bytes), counted per index uuid
//! as ES counts them per shard. They live as long as the engine, as ES's live as long
//! as the shard: a restart starts them at zero.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The live counters of one index (one shard).
#[derive(Debug, Default)]
pub struct IndexCounters {
    query_total: AtomicU64,
    query_nanos: AtomicU64,
    fetch_total: AtomicU64,
    fetch_nanos: AtomicU64,
    exists_total: AtomicU64,
    exists_nanos: AtomicU64,
    missing_total: AtomicU64,
    missing_nanos: AtomicU64,
    cache_hits: AtomicU64,
    cache_misses: AtomicU64,
    cache_evictions: AtomicU64,
    cache_bytes: AtomicI64,
}

fn add(counter: &AtomicU64, by: u64) {
    counter.fetch_add(by, Ordering::Relaxed);
}

impl IndexCounters {
    /// A query phase that took `nanos`.
    pub fn query(&self, nanos: u64) {
        add(&self.query_total, 1);
        add(&self.query_nanos, nanos);
    }

    /// A fetch phase that took `nanos`.
    pub fn fetch(&self, nanos: u64) {
        add(&self.fetch_total, 1);
        add(&self.fetch_nanos, nanos);
    }

    /// A GET that found its document (`exists`) or not, taking `nanos`.
    pub fn get(&self, exists: bool, nanos: u64) {
        if exists {
            add(&self.exists_total, 1);
            add(&self.exists_nanos, nanos);
        } else {
            add(&self.missing_total, 1);
            add(&self.missing_nanos, nanos);
        }
    }

    /// A request cache lookup that hit or missed.
    pub fn cache_lookup(&self, hit: bool) {
        add(if hit { &self.cache_hits } else { &self.cache_misses }, 1);
    }

    /// `bytes` of this index's entries kept in the request cache (negative: released;
    /// `evicted`: released because the cache was full).
    pub fn cache_held(&self, bytes: i64, evicted: bool) {
        self.cache_bytes.fetch_add(bytes, Ordering::Relaxed);
        if evicted {
            add(&self.cache_evictions, 1);
        }
    }

    /// The counters' values now.
    pub fn read(&self) -> Counted {
        let ms = |c: &AtomicU64| c.load(Ordering::Relaxed) / 1_000_000;
        let n = |c: &AtomicU64| c.load(Ordering::Relaxed);
        Counted {
            query_total: n(&self.query_total),
            query_millis: ms(&self.query_nanos),
            fetch_total: n(&self.fetch_total),
            fetch_millis: ms(&self.fetch_nanos),
            exists_total: n(&self.exists_total),
            exists_millis: ms(&self.exists_nanos),
            missing_total: n(&self.missing_total),
            missing_millis: ms(&self.missing_nanos),
            cache_hits: n(&self.cache_hits),
            cache_misses: n(&self.cache_misses),
            cache_evictions: n(&self.cache_evictions),
            cache_bytes: self.cache_bytes.load(Ordering::Relaxed).max(0) as u64,
        }
    }
}

/// The counters of every index this engine served, by index uuid (a reloaded index
/// has a new uuid, so its counters start again, as a new ES shard's do).
#[derive(Debug, Default)]
pub struct Counters {
    by_uuid: Mutex<HashMap<String, Arc<IndexCounters>>>,
}

impl Counters {
    /// The counters of the index with `uuid`.
    pub fn of(&self, uuid: &str) -> Arc<IndexCounters> {
        let mut map = self.by_uuid.lock().unwrap_or_else(|p| p.into_inner());
        map.entry(uuid.to_string()).or_default().clone()
    }

    /// Forgets the counters of indices no longer in the file.
    pub fn keep_only(&self, live: &[&str]) {
        let mut map = self.by_uuid.lock().unwrap_or_else(|p| p.into_inner());
        map.retain(|uuid, _| live.contains(&uuid.as_str()));
    }
}

/// Counter values of one index, times in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counted {
    /// Query phases run (`search.query_total`).
    pub query_total: u64,
    /// Their time.
    pub query_millis: u64,
    /// Fetch phases run (`search.fetch_total`).
    pub fetch_total: u64,
    /// Their time.
    pub fetch_millis: u64,
    /// GETs that found their document (`get.exists_total`).
    pub exists_total: u64,
    /// Their time.
    pub exists_millis: u64,
    /// GETs that did not (`get.missing_total`).
    pub missing_total: u64,
    /// Their time.
    pub missing_millis: u64,
    /// Request cache hits.
    pub cache_hits: u64,
    /// Request cache misses.
    pub cache_misses: u64,
    /// Request cache entries evicted.
    pub cache_evictions: u64,
    /// Bytes the request cache holds for the index.
    pub cache_bytes: u64,
}
