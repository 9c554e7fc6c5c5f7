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
//! A context also keeps the scroll's request as its pages run it, parsed once, so a page
//! does not parse the request its id carries again (only a process that holds no context
//! of the scroll does). Contexts are small (a position, a deadline, the owning key's name
//! and a request of at most [`KEPT_REQUEST_MAX`] bytes of text) and bounded in number, in
//! total and per key; expired ones are dropped as new ones arrive.

use super::id::Position;
use crate::request::SearchRequest;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Live scrolls this process may hold (ES's `search.max_open_scroll_context`, 500 per
/// node). Starting one more is refused ([`reserve`]); a continuation of a scroll another
/// process started that finds the map full drops the context nearest its deadline
/// instead, since that scroll goes on from the ids it handed out.
pub(crate) const MAX_CONTEXTS: usize = 500;
/// Live scrolls one API key may hold in this process, so that one key cannot take every
/// place of [`MAX_CONTEXTS`]. In-process and keyless callers (no owner) are bounded by
/// the total only.
pub(crate) const MAX_CONTEXTS_PER_KEY: usize = 100;
/// The longest request text (body and parameters) whose parsed form a context keeps: the
/// contexts' requests then hold at most some [`MAX_CONTEXTS`] times this much memory. A
/// longer request is parsed from the scroll's id for each page instead.
pub(crate) const KEPT_REQUEST_MAX: usize = 16 << 10;

/// Where a scroll stands.
#[derive(Debug, Clone)]
pub(crate) struct Context {
    /// Pages served after the first (the id of page `n` carries `n`).
    pub pages: u64,
    /// The position after the last hit served (`None` before any hit).
    pub after: Option<Position>,
    /// Keep-alive deadline, epoch milliseconds.
    pub expires_ms: i64,
    /// The API key that owns the scroll (`None`: in-process or keyless).
    pub owner: Option<String>,
    /// The request as the scroll's pages after the first run it (without aggregations or
    /// `timeout`); `None` when its text is longer than [`KEPT_REQUEST_MAX`] or no page
    /// has run yet.
    pub request: Option<Arc<SearchRequest>>,
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

/// Takes a place for a new scroll of `owner`, expiring at `expires_ms`, unless live
/// scrolls hold every place: [`MAX_CONTEXTS`] in all, or [`MAX_CONTEXTS_PER_KEY`] of a key
/// (expired ones are dropped first). Checked and taken under one lock, so concurrent
/// starts cannot pass the bound together. The error is the limit reached.
pub(crate) fn reserve(file: u64, nonce: u64, owner: Option<&str>, expires_ms: i64, now_ms: i64) -> Result<(), usize> {
    let mut map = contexts();
    let owned = |map: &HashMap<Key, Context>| match owner {
        Some(_) => map.iter().filter(|((f, _), c)| *f == file && c.owner.as_deref() == owner).count(),
        None => 0,
    };
    let full = |map: &HashMap<Key, Context>| {
        if map.len() >= MAX_CONTEXTS {
            Some(MAX_CONTEXTS)
        } else if owned(map) >= MAX_CONTEXTS_PER_KEY {
            Some(MAX_CONTEXTS_PER_KEY)
        } else {
            None
        }
    };
    if full(&map).is_some() {
        map.retain(|_, c| c.expires_ms >= now_ms);
        if let Some(limit) = full(&map) {
            return Err(limit);
        }
    }
    map.insert(
        (file, nonce),
        Context { pages: 0, after: None, expires_ms, owner: owner.map(str::to_string), request: None },
    );
    Ok(())
}

/// Drops a scroll's context (cleared or expired).
pub(crate) fn forget(file: u64, nonce: u64) {
    contexts().remove(&(file, nonce));
}

/// Drops every context of `owner`'s scrolls of a file (its clear of `_all`); returns
/// their nonces.
pub(crate) fn forget_owner(file: u64, owner: Option<&str>) -> Vec<u64> {
    let mut gone = Vec::new();
    contexts().retain(|(f, nonce), c| {
        let keep = *f != file || c.owner.as_deref() != owner;
        if !keep {
            gone.push(*nonce);
        }
        keep
    });
    gone
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(pages: u64, expires_ms: i64) -> Context {
        Context { pages, after: None, expires_ms, owner: None, request: None }
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
        assert_eq!(forget_owner(file, None), vec![2]);
        assert!(get(file, 2).is_none() && get(file + 1, 2).is_some());
        forget_owner(file + 1, None);
    }

    #[test]
    fn each_key_has_its_own_share_of_the_places() {
        let file = 0xC0_7E_48;
        for nonce in 0..MAX_CONTEXTS_PER_KEY as u64 {
            assert_eq!(reserve(file, nonce, Some("a"), 100, 0), Ok(()));
        }
        assert_eq!(reserve(file, 999, Some("a"), 100, 0), Err(MAX_CONTEXTS_PER_KEY));
        // Another key, and in-process callers, still start scrolls.
        assert_eq!(reserve(file, 1_000, Some("b"), 1_000, 0), Ok(()));
        assert_eq!(reserve(file, 1_001, None, 1_000, 0), Ok(()));
        // Expired places are given back.
        assert_eq!(reserve(file, 999, Some("a"), 300, 200), Ok(()));
        // Clearing `_all` as one key forgets that key's scrolls only.
        assert_eq!(forget_owner(file, Some("b")), vec![1_000]);
        assert!(get(file, 1_001).is_some() && get(file, 999).is_some());
        forget_owner(file, Some("a"));
        forget_owner(file, None);
    }
}
