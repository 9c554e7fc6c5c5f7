//! The shard request cache of ES 6.8 (`IndicesRequestCache`), for one node whose
//! shards are whole indices: the answer of a search that may be cached is kept under
//! the request and the generations of the indices it read, so the same request on the
//! same data answers from memory. A generation never changes once written, so an entry
//! can never be stale; entries of replaced generations are simply never asked for again
//! and leave by age. The cache is bounded in bytes and entries ([`crate::lru::Lru`]),
//! and every hit, miss, eviction and byte is counted per index for `_stats`
//! (`request_cache`).
//!
//! What may be cached follows `IndicesService.canCache`: never a scroll (scrolls do not
//! come here); with `request_cache=false`, nothing; without the parameter, only `size: 0`
//! searches of indices whose `index.requests.cache.enable` is not false; never a DFS
//! search, nor one whose answer depends on more than the request and the data — the
//! time (`now` in date math), a script, an unseeded `random_score` — which ES's
//! `QueryShardContext.isCachable` refuses. Terms lookups and other documents a query
//! reads (ES rewrites them into the request before the cache sees it) make the key
//! carry the file's catalog version, so any load invalidates such entries.

use crate::index::IndexReader;
use crate::lru::Lru;
use crate::request::SearchRequest;
use crate::search::response::SearchResponse;
use crate::shard_counters::IndexCounters;
use std::sync::{Arc, Mutex};

/// The cache's byte budget (ES's default is 1% of the heap).
const BUDGET_BYTES: usize = 16 << 20;
/// The most entries it keeps.
const MAX_ENTRIES: usize = 4096;
/// A request's key text beyond this is not worth keeping (nor hashing again).
const MAX_KEY_BYTES: usize = 64 << 10;

/// One kept answer and each index's share of its bytes.
struct Entry {
    answer: Cached,
    shares: Vec<(Arc<IndexCounters>, i64)>,
}

/// A search's answer as the cache keeps it.
#[derive(Clone)]
pub struct Cached {
    /// The response (its `took` is the run's; a hit sets its own).
    pub response: SearchResponse,
    /// The positions in the targets of the indices its fetch phase read.
    pub fetched_from: Vec<usize>,
}

/// The request cache of one engine.
pub struct RequestCache {
    entries: Mutex<Lru<String, Entry>>,
}

impl Default for RequestCache {
    fn default() -> RequestCache {
        RequestCache { entries: Mutex::new(Lru::new(BUDGET_BYTES, MAX_ENTRIES)) }
    }
}

/// The key of `req` over `targets`, or `None` when ES would not cache it.
/// `catalog_version` keys the requests that read other documents.
pub fn key(req: &SearchRequest, targets: &[Arc<IndexReader>], catalog_version: u64) -> Option<String> {
    match req.request_cache {
        Some(false) => return None,
        Some(true) => {}
        None => {
            if req.size != 0 || !targets.iter().all(|t| t.meta.settings.request_cache_enabled()) {
                return None;
            }
        }
    }
    if req.dfs || targets.is_empty() {
        return None;
    }
    // The request as parsed, but for when it was received.
    let described = format!("{:?}", SearchRequest { deadline: None, ..req.clone() });
    // Conservative: a word containing `now` (a field name, say) only costs a miss.
    if ["now", "Script", "RandomScore { seed: None"].iter().any(|w| described.contains(w)) {
        return None;
    }
    let mut key = String::with_capacity(described.len() + 64);
    for t in targets {
        key.push_str(&format!("{}@{},", t.meta.uuid, t.meta.generation));
    }
    if ["TermsLookup", "Indexed(", "MoreLikeThis"].iter().any(|w| described.contains(w)) {
        key.push_str(&format!("catalog@{catalog_version},"));
    }
    key.push_str(&described);
    (key.len() <= MAX_KEY_BYTES).then_some(key)
}

impl RequestCache {
    /// The answer kept under `key`, counting a hit or a miss on each index.
    pub fn get(&self, key: &str, counters: &[Arc<IndexCounters>]) -> Option<Cached> {
        let found =
            self.entries.lock().unwrap_or_else(|p| p.into_inner()).get_mut(&key.to_string()).map(|e| e.answer.clone());
        for c in counters {
            c.cache_lookup(found.is_some());
        }
        found
    }

    /// Keeps `answer` under `key`; its bytes are shared among the indices' counters.
    pub fn put(&self, key: String, answer: Cached, counters: &[Arc<IndexCounters>]) {
        if answer.response.timed_out || counters.is_empty() {
            return;
        }
        let bytes = key.len() + answer.response.to_bytes().len();
        let n = counters.len() as i64;
        let each = bytes as i64 / n;
        let shares: Vec<(Arc<IndexCounters>, i64)> = counters
            .iter()
            .enumerate()
            .map(|(i, c)| (c.clone(), if i == 0 { bytes as i64 - each * (n - 1) } else { each }))
            .collect();
        let entry = Entry { answer, shares: shares.clone() };
        let (kept, evicted) = {
            let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
            // Two searches missed together: the first one's entry stays (and its bytes
            // stay counted once).
            if entries.get_mut(&key).is_some() {
                return;
            }
            entries.insert_evicting(key, entry, bytes)
        };
        if kept {
            for (c, share) in &shares {
                c.cache_held(*share, false);
            }
        }
        for gone in evicted {
            for (c, share) in &gone.shares {
                c.cache_held(-share, true);
            }
        }
    }
}
