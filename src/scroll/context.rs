//! Scroll contexts: where each live scroll stands in this process, so that continuing a
//! scroll advances it whatever id the client sends, as an ES search context does.
//!
//! ES 6.8 keeps a scroll's position on the server and usually answers every page with the
//! same `_scroll_id`, so many clients keep sending the first id. Here every page also gets
//! an id of its own that carries its position (so a restarted server, or another process
//! sharing the file, continues from it); the context adds ES's semantics on top: a
//! continuation starts from the furthest of the id's position and the context's, and
//! moves the context on. A client that re-sends an old id gets the next page, an
//! exhausted scroll answers empty pages, and a client that sends back each new id is
//! served exactly as before. Without a context (another process, a restart, an eviction)
//! the id's own position is used.
//!
//! Contexts are small (a position and a deadline) and bounded in number; expired ones are
//! dropped as new ones arrive.

use super::id::Position;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Live scrolls this process may hold (ES's `search.max_open_scroll_context`, 500 per
/// node). Starting one more is refused ([`reserve`]); a continuation of a scroll another
/// process started that finds the map full drops the context nearest its deadline
/// instead, since that scroll goes on from the ids it handed out.
pub(crate) const MAX_CONTEXTS: usize = 500;

/// Where a scroll stands.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Context {
    /// Pages served after the first (the id of page `n` carries `n`).
    pub pages: u64,
    /// The position after the last hit served (`None` before any hit).
    pub after: Option<Position>,
    /// Keep-alive deadline, epoch milliseconds.
    pub expires_ms: i64,
}

/// (file, nonce): the scroll.
type Key = (u64, u64);

fn contexts() -> std::sync::MutexGuard<'static, HashMap<Key, Context>> {
    static CONTEXTS: OnceLock<Mutex<HashMap<Key, Context>>> = OnceLock::new();
    // Every mutation is one insert or remove: a poisoned map is still consistent.
    CONTEXTS.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

/// The context of a scroll, if this process has one.
pub(crate) fn get(file: u64, nonce: u64) -> Option<Context> {
    contexts().get(&(file, nonce)).cloned()
}

/// Moves a scroll's context to `next` if it still stands where the page was computed
/// from (`from_pages` pages; no context counts as any position at or before it). False
/// when another request advanced it meanwhile: the page must be computed again.
pub(crate) fn advance(file: u64, nonce: u64, from_pages: u64, next: Context, now_ms: i64) -> bool {
    let mut map = contexts();
    if map.get(&(file, nonce)).is_some_and(|c| c.pages > from_pages) {
        return false;
    }
    if map.len() >= MAX_CONTEXTS && !map.contains_key(&(file, nonce)) {
        map.retain(|_, c| c.expires_ms >= now_ms);
        if map.len() >= MAX_CONTEXTS {
            if let Some(k) = map.iter().min_by_key(|(_, c)| c.expires_ms).map(|(k, _)| *k) {
                map.remove(&k);
            }
        }
    }
    map.insert((file, nonce), next);
    true
}

/// Takes a place for a new scroll, expiring at `expires_ms`, unless [`MAX_CONTEXTS`] live
/// scrolls hold them all (expired ones are dropped first). Checked and taken under one
/// lock, so concurrent starts cannot pass the bound together.
pub(crate) fn reserve(file: u64, nonce: u64, expires_ms: i64, now_ms: i64) -> bool {
    let mut map = contexts();
    if map.len() >= MAX_CONTEXTS {
        map.retain(|_, c| c.expires_ms >= now_ms);
        if map.len() >= MAX_CONTEXTS {
            return false;
        }
    }
    map.insert((file, nonce), Context { pages: 0, after: None, expires_ms });
    true
}

/// Drops a scroll's context (cleared or expired).
pub(crate) fn forget(file: u64, nonce: u64) {
    contexts().remove(&(file, nonce));
}

/// Drops every context of a file (clear `_all`).
pub(crate) fn forget_file(file: u64) {
    contexts().retain(|(f, _), _| *f != file);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(pages: u64, expires_ms: i64) -> Context {
        Context { pages, after: None, expires_ms }
    }

    #[test]
    fn advances_only_from_where_it_stands() {
        let file = 0xC0_7E_47;
        assert!(get(file, 1).is_none());
        assert!(advance(file, 1, 0, ctx(1, 100), 0));
        assert!(advance(file, 1, 1, ctx(2, 100), 0));
        // A page computed from an older position loses the race.
        assert!(!advance(file, 1, 1, ctx(2, 100), 0));
        assert_eq!(get(file, 1).map(|c| c.pages), Some(2));
        forget(file, 1);
        assert!(get(file, 1).is_none());
        assert!(advance(file, 2, 0, ctx(1, 100), 0));
        assert!(advance(file + 1, 2, 0, ctx(1, 100), 0));
        forget_file(file);
        assert!(get(file, 2).is_none() && get(file + 1, 2).is_some());
        forget_file(file + 1);
    }
}
