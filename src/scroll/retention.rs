//! Generations that open scrolls still read.
//!
//! A scroll reads the generations it started on. When `load --replace` swaps an index's
//! generation for a new one while scrolls may read it, the old generation is *retired*
//! rather than dropped: its catalog entry is kept beside it (`retired/{generation:020}`)
//! and scrolls go on reading it. The first load or index deletion after its grace drops it
//! unless a live *pin* names it (then the next one looks again); `reclaim` runs in those
//! transactions, alias, key and scroll bookkeeping writes never drop a generation. When no
//! scroll may read it (no pin, no process note, below), replacing drops it at once.
//! Deleting an index drops its generation at once, as deleting an index ends its scrolls
//! in ES.
//!
//! # Pins, and why a scroll never waits for a load
//!
//! A load holds the file's write lock for its whole merge, in whichever process runs it,
//! so no request may need that lock. A scroll says what it reads with pins in the
//! `scrolls` table (`pin/{generation:020}/{nonce}` → deadline: the scroll's own plus
//! [`PIN_SLACK_MS`], so a scroll renewing its keep-alive page after page rewrites its
//! pins only every few minutes), but only when the grace alone does not cover it:
//!
//! - a scroll whose keep-alive is at most [`UNPINNED_KEEP_ALIVE_MS`] reading current
//!   generations writes nothing but, once an hour or so, its process's note
//!   `active/{process}` (deadline: [`ACTIVE_TTL_MS`] ahead, renewed while less than
//!   [`UNPINNED_KEEP_ALIVE_MS`] plus [`PIN_SLACK_MS`] remain, so it outlives every scroll
//!   it covers). A load that replaces a generation while any such note is live retires
//!   the generation for [`RETIRE_GRACE_MS`], which outlasts those scrolls' deadlines, and
//!   their next page (due before the deadline) finds the generation retired and pins it;
//! - a longer keep-alive, or a page read from a retired generation, pins.
//!
//! So a file no process scrolls (a CLI loading, replacing, compacting) keeps exactly its
//! indices' generations, and a server scrolling it keeps replaced ones for the grace. The
//! one scroll this can lose is one started when its process has no live note in the file
//! (its first scroll, or its first after an idle hour) while a load that replaces its
//! index holds the lock: the note waits for the lock, that load drops the generation, and
//! the scroll's next page answers as if the index had been deleted (404).
//!
//! Pins are written with [`crate::store::Store::write_or_defer`]: at once when the lock is
//! free, else by the file's bookkeeping thread once it is, while the request answers.
//! A deferred pin is still on time: a retired generation is dropped only by a
//! transaction that began (took the lock) after its grace, and a pin is queued at the
//! latest [`UNPINNED_KEEP_ALIVE_MS`] (plus a page's time) after the retirement, well within
//! the grace, so it is written before any such transaction starts unless several loads
//! queue for the lock ahead of it for longer than the rest of the grace.
//!
//! The cost of the grace is disk: a generation replaced while a process scrolls stays in
//! the file for at least [`RETIRE_GRACE_MS`] (a file reloaded more often than that holds
//! one generation more per reload within the grace). Every pin (grace included), note
//! and cleared-scroll record expires through the table's expiry index
//! ([`super::records`]), so no request's write lists the table; a load or deletion reads
//! the few `retired/` entries whole.

use super::records;
use super::ScrollId;
use crate::error::{Error, Result};
use crate::index::IndexMeta;
use crate::store::{Catalog, Snapshot, Store, WriteTxn};
use std::collections::BTreeMap;

/// `pin/{generation:020}/{nonce}` → deadline (epoch ms).
pub(crate) const PIN_PREFIX: &str = "pin/";
/// `retired/{generation:020}` → the catalog entry of the index as that generation had it.
const RETIRED_PREFIX: &str = "retired/";
/// `active/{process}` → until when that process may hold scrolls without pins.
const ACTIVE_PREFIX: &str = "active/";
/// How far ahead a process's note reaches when written.
pub(crate) const ACTIVE_TTL_MS: i64 = 60 * 60 * 1000;
/// How long pins outlive the scroll's own deadline.
pub(crate) const PIN_SLACK_MS: i64 = 5 * 60 * 1000;
/// The longest keep-alive that needs no pin on the generations a scroll reads while they
/// are current (the grace covers it).
pub(crate) const UNPINNED_KEEP_ALIVE_MS: i64 = 10 * 60 * 1000;
/// How long a replaced generation is kept at least: three times
/// [`UNPINNED_KEEP_ALIVE_MS`], so that a pin queued behind a long load is still on time.
pub const RETIRE_GRACE_MS: i64 = 3 * UNPINNED_KEEP_ALIVE_MS;
/// Batches of due records a load or index deletion prunes at most.
const RECLAIM_BATCHES: usize = 64;

fn pin_key(generation: u64, nonce: u64) -> String {
    format!("{PIN_PREFIX}{generation:020}/{nonce}")
}

fn retired_key(generation: u64) -> String {
    format!("{RETIRED_PREFIX}{generation:020}")
}

/// The pin that holds a retired generation for its grace.
fn grace_key(generation: u64) -> String {
    format!("{PIN_PREFIX}{generation:020}/grace")
}

/// Whether `sid` must pin what it reads: a keep-alive the grace does not cover, or a
/// generation already retired (`reads_retired`).
pub(crate) fn needs_pin(sid: &ScrollId, now: i64, reads_retired: bool) -> bool {
    reads_retired || sid.expires_ms.saturating_sub(now) > UNPINNED_KEEP_ALIVE_MS
}

/// Names this process in its note (random: process ids are reused).
fn process_id() -> u64 {
    static ID: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *ID.get_or_init(|| rand::random::<u64>() >> 11)
}

/// Makes sure the file knows this process reads scrolls without pins until `now` plus
/// what an unpinned scroll can live (see the module docs), renewing its note when it
/// reaches less far, without waiting for the file's write lock. `file` names the file in
/// this process.
pub(crate) fn announce(store: &Store, file: u64, now: i64) -> Result<()> {
    static WRITTEN: std::sync::Mutex<BTreeMap<u64, i64>> = std::sync::Mutex::new(BTreeMap::new());
    if store.is_read_only() {
        return Ok(());
    }
    let until = now.saturating_add(ACTIVE_TTL_MS);
    {
        // One insert per change: a poisoned map is still consistent.
        let mut written = WRITTEN.lock().unwrap_or_else(|p| p.into_inner());
        let needed = now.saturating_add(UNPINNED_KEEP_ALIVE_MS + PIN_SLACK_MS);
        if written.get(&file).is_some_and(|u| *u >= needed) {
            return Ok(());
        }
        written.insert(file, until);
    }
    let key = format!("{ACTIVE_PREFIX}{}", process_id());
    let queued = store.write_or_defer(Box::new(move |w| {
        records::put_expiring(w, &key, until)?;
        records::prune(w, crate::node::now_ms()).map(|_| ())
    }));
    if queued.is_err() {
        WRITTEN.lock().unwrap_or_else(|p| p.into_inner()).remove(&file);
    }
    queued.map(|_| ())
}

/// Pins every generation `sid` reads until its deadline plus [`PIN_SLACK_MS`], without
/// waiting for the file's write lock (see the module docs), unless its pins already
/// cover that deadline.
pub(crate) fn pin_soon(store: &Store, snap: &Snapshot, sid: &ScrollId) -> Result<()> {
    if store.is_read_only() || pins_cover(snap, sid)? {
        return Ok(());
    }
    let (nonce, until) = (sid.nonce, sid.expires_ms.saturating_add(PIN_SLACK_MS));
    let generations: Vec<u64> = sid.indices.iter().map(|(_, g)| *g).collect();
    store.write_or_defer(Box::new(move |w| {
        pin(w, nonce, &generations, until)?;
        records::prune(w, crate::node::now_ms()).map(|_| ())
    }))?;
    Ok(())
}

/// Pins `generations` for scroll `nonce` until `until` (a pin is only ever extended).
fn pin(w: &mut WriteTxn, nonce: u64, generations: &[u64], until: i64) -> Result<()> {
    for generation in generations {
        let key = pin_key(*generation, nonce);
        if w.get(Catalog::Scrolls, &key)?.is_some_and(|v| records::deadline(&v) >= until) {
            continue;
        }
        records::put_expiring(w, &key, until)?;
    }
    Ok(())
}

/// Whether `sid`'s pins already cover its deadline (so a page writes nothing).
fn pins_cover(snap: &Snapshot, sid: &ScrollId) -> Result<bool> {
    let Some((_, generation)) = sid.indices.first() else { return Ok(true) };
    Ok(snap
        .get(Catalog::Scrolls, &pin_key(*generation, sid.nonce))?
        .is_some_and(|v| records::deadline(&v) >= sid.expires_ms))
}

/// Removes the pins of a cleared scroll.
pub(crate) fn unpin(w: &mut WriteTxn, sid: &ScrollId) -> Result<()> {
    for (_, generation) in &sid.indices {
        records::remove_expiring(w, &pin_key(*generation, sid.nonce))?;
    }
    Ok(())
}

/// Whether a pin on `generation` is live at `now`: one key range, as many entries as
/// scrolls pin it.
fn pinned(w: &WriteTxn, generation: u64, now: i64) -> Result<bool> {
    let from = format!("{PIN_PREFIX}{generation:020}/");
    let to = format!("{PIN_PREFIX}{generation:020}0");
    Ok(w.range(Catalog::Scrolls, &from, &to, usize::MAX)?.iter().any(|(_, v)| records::deadline(v) >= now))
}

/// Whether a process's note says it may read scrolls without pins at `now`.
fn unpinned_readers(w: &WriteTxn, now: i64) -> Result<bool> {
    Ok(w.range(Catalog::Scrolls, ACTIVE_PREFIX, "active0", usize::MAX)?
        .iter()
        .any(|(_, v)| records::deadline(v) >= now))
}

/// Retires the generation an index is leaving (`catalog_entry`: the index's catalog JSON
/// as it was) if a scroll may read it, dropping it at once otherwise. While a process may
/// read scrolls without pins at `now` (the time the transaction took the lock), the
/// generation gets a grace until `grace_until` (`now` plus [`RETIRE_GRACE_MS`]): a pin of
/// its own, `pin/{generation:020}/grace`, so that [`reclaim`] treats it as any pin.
pub fn retire(w: &mut WriteTxn, generation: u64, catalog_entry: &[u8], now: i64, grace_until: i64) -> Result<()> {
    if unpinned_readers(w, now)? {
        records::put_expiring(w, &grace_key(generation), grace_until)?;
    } else if !pinned(w, generation, now)? {
        return w.drop_generation(generation);
    }
    w.put(Catalog::Scrolls, &retired_key(generation), catalog_entry)
}

/// Prunes expired records (in batches, at most [`RECLAIM_BATCHES`]: the backlog past it
/// waits for the next writes, so no transaction does unbounded bookkeeping), then drops
/// the retired generations no live pin (grace included) names. `now` must be when the
/// transaction took the file's write lock, not a later time: a pin queued behind the
/// transaction is written after it (see the module docs). Retired generations are one key
/// range of few entries (each holds a whole generation's data), read whole.
pub fn reclaim(w: &mut WriteTxn, now: i64) -> Result<()> {
    for _ in 0..RECLAIM_BATCHES {
        if records::prune(w, now)? < records::PRUNE_BATCH {
            break;
        }
    }
    for (key, _) in w.range(Catalog::Scrolls, RETIRED_PREFIX, "retired0", usize::MAX)? {
        let Some(generation) = key.strip_prefix(RETIRED_PREFIX).and_then(|g| g.parse::<u64>().ok()) else {
            continue;
        };
        if !pinned(w, generation, now)? {
            w.remove(Catalog::Scrolls, &key)?;
            w.drop_generation(generation)?;
        }
    }
    Ok(())
}

/// The catalog entry of a retired generation, for the scrolls still reading it.
pub(crate) fn retired_meta(snap: &Snapshot, generation: u64) -> Result<Option<IndexMeta>> {
    let Some(raw) = snap.get(Catalog::Scrolls, &retired_key(generation))? else {
        return Ok(None);
    };
    let v: serde_json::Value =
        serde_json::from_slice(&raw).map_err(|e| Error::storage(format!("corrupt retired generation entry: {e}")))?;
    IndexMeta::from_json(&v).map(Some)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn stored(store: &Store) -> Vec<u64> {
        store.read().unwrap().generations().unwrap()
    }

    #[test]
    fn a_replaced_generation_stays_while_a_scroll_may_read_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("f.redb"), true).unwrap();
        let mut w = store.write().unwrap();
        for g in [5, 6, 7] {
            w.gen_put_all(g, "docs", [(0u64, &b"x"[..])].into_iter()).unwrap();
        }
        // Nothing may read generation 5: replacing drops it in the same transaction.
        retire(&mut w, 5, b"{}", 100, 600).unwrap();
        w.commit().unwrap();
        assert_eq!(stored(&store), [6, 7]);

        // A process reads scrolls without pins until 1,000: 6 is kept for its grace, and
        // dropped by the first reclaim after it (nothing pins it).
        let mut w = store.write().unwrap();
        records::put_expiring(&mut w, "active/1", 1_000).unwrap();
        retire(&mut w, 6, b"{}", 100, 600).unwrap();
        reclaim(&mut w, 500).unwrap();
        w.commit().unwrap();
        assert_eq!(stored(&store), [6, 7]);
        let mut w = store.write().unwrap();
        reclaim(&mut w, 700).unwrap();
        w.commit().unwrap();
        assert_eq!(stored(&store), [7]);

        // Once the note has expired, only a pin keeps a generation, as long as it lives.
        let mut w = store.write().unwrap();
        pin(&mut w, 42, &[7], 2_000).unwrap();
        retire(&mut w, 7, b"{}", 1_500, 2_000).unwrap();
        reclaim(&mut w, 1_600).unwrap();
        w.commit().unwrap();
        assert_eq!(stored(&store), [7]);
        let mut w = store.write().unwrap();
        reclaim(&mut w, 2_100).unwrap();
        w.commit().unwrap();
        assert!(stored(&store).is_empty());
        // Every record and index entry went with what it described.
        assert!(store.read().unwrap().list(Catalog::Scrolls).unwrap().is_empty());
    }
}
