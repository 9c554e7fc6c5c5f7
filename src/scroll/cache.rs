//! Match sets of live scrolls, kept between pages in this process.
//!
//! A scroll id is self-contained, so any page can be answered by re-running the query on
//! the pinned generations. Keeping each scroll's match sets here makes a page cost time
//! proportional to the page instead of to the match set (the query, slice hashing and
//! filters run once per scroll and process). It is only a cache: a miss — another
//! process, a restart, an eviction — recomputes the same sets from the same snapshot.
//! Memory is bounded by an approximate byte budget with least-recently-used eviction.

use crate::lru::Lru;
use crate::search::collect::KeptHits;
use std::sync::{Arc, Mutex, OnceLock};

/// Total budget for cached match sets.
const BUDGET_BYTES: usize = 256 << 20;
/// At most this many entries, whatever their size.
const MAX_ENTRIES: usize = 1024;

/// One scroll's matches in one pinned index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    /// Distinguishes files open in this process (derived from the file's scroll secret).
    pub file: u64,
    /// The scroll.
    pub nonce: u64,
    /// Position in the pinned target list.
    pub target: usize,
    /// Pinned generation.
    pub generation: u64,
}

/// One scroll's hits in one index, after the request's per-index steps.
pub(crate) struct CachedTarget {
    /// The hits.
    pub hits: KeptHits,
    /// Whether `terminate_after` cut them.
    pub terminated_early: bool,
}

/// A kept value and the deadline after which it is dropped.
struct Entry {
    value: Arc<CachedTarget>,
    expires_ms: i64,
}

fn cache() -> std::sync::MutexGuard<'static, Lru<Key, Entry>> {
    static CACHE: OnceLock<Mutex<Lru<Key, Entry>>> = OnceLock::new();
    // A panic elsewhere while holding the lock leaves a consistent map (every mutation
    // is a single insert or remove), so a poisoned lock is safe to keep using.
    CACHE.get_or_init(|| Mutex::new(Lru::new(BUDGET_BYTES, MAX_ENTRIES))).lock().unwrap_or_else(|p| p.into_inner())
}

/// The cached matches of `key`, renewing its deadline.
pub(crate) fn get(key: &Key, expires_ms: i64) -> Option<Arc<CachedTarget>> {
    let mut c = cache();
    let e = c.get_mut(key)?;
    e.expires_ms = e.expires_ms.max(expires_ms);
    Some(e.value.clone())
}

/// Caches `value` (approximately `bytes` large) until `expires_ms` or eviction.
pub(crate) fn put(key: Key, value: Arc<CachedTarget>, bytes: usize, now_ms: i64, expires_ms: i64) {
    let mut c = cache();
    c.retain(|_, e| e.expires_ms >= now_ms);
    c.insert(key, Entry { value, expires_ms }, bytes);
}

/// Forgets one scroll (cleared or finished).
pub(crate) fn forget(file: u64, nonce: u64) {
    cache().retain(|k, _| !(k.file == file && k.nonce == nonce));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::DocSet;

    fn tm() -> Arc<CachedTarget> {
        let hits = KeptHits::Set { docs: DocSet::full(10), score: 1.0 };
        Arc::new(CachedTarget { hits, terminated_early: false })
    }

    #[test]
    fn put_get_forget_and_expiry() {
        let key = Key { file: 0xfeed_0001, nonce: 1, target: 0, generation: 3 };
        put(key, tm(), 100, 0, 1_000);
        assert!(get(&key, 1_000).is_some());
        forget(key.file, key.nonce);
        assert!(get(&key, 1_000).is_none());
        put(key, tm(), 100, 0, 1_000);
        // Any later insertion past the deadline drops it.
        put(Key { nonce: 2, ..key }, tm(), 100, 5_000, 9_000);
        assert!(get(&key, 1_000).is_none());
        forget(key.file, 2);
        assert!(get(&Key { nonce: 2, ..key }, 9_000).is_none());
        // Oversized values are not kept.
        put(key, tm(), BUDGET_BYTES, 0, 1_000);
        assert!(get(&key, 1_000).is_none());
    }
}
