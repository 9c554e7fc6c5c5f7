//! Generations that open scrolls still read.
//!
//! A scroll reads the generations it started on. When `load --replace` swaps an index's
//! generation for a new one while scrolls are open on the old one, the old generation is
//! *retired* instead of dropped: its catalog entry is kept beside it, the scrolls go on
//! reading it, and the first load or index deletion after the last of them ends (or is
//! cleared) drops it (`reclaim` runs in those transactions). Deleting an index still drops its generation at once, as deleting an index
//! ends its scrolls in ES.
//!
//! Scrolls say what they read with *pins* in the file's `scrolls` table — one per pinned
//! generation, written when a scroll starts, holding a deadline a few minutes past the
//! scroll's own so that a scroll renewing its keep-alive page after page rewrites its pins
//! only every few minutes. Every process sharing the file sees them, so a CLI replacing an
//! index knows about the scrolls a server has open.

use super::ScrollId;
use crate::error::{Error, Result};
use crate::index::IndexMeta;
use crate::store::{Catalog, Snapshot, WriteTxn};

/// `pin/{generation}/{nonce}` → deadline (epoch ms).
const PIN_PREFIX: &str = "pin/";
/// `retired/{generation}` → the catalog entry of the index as that generation had it.
const RETIRED_PREFIX: &str = "retired/";
/// How long pins outlive the scroll's own deadline.
pub(crate) const PIN_SLACK_MS: i64 = 5 * 60 * 1000;

fn pin_key(generation: u64, nonce: u64) -> String {
    format!("{PIN_PREFIX}{generation:020}/{nonce}")
}

fn retired_key(generation: u64) -> String {
    format!("{RETIRED_PREFIX}{generation:020}")
}

fn deadline(v: &[u8]) -> i64 {
    std::str::from_utf8(v).ok().and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// Pins every generation `sid` reads until its deadline plus [`PIN_SLACK_MS`].
pub(crate) fn pin(w: &mut WriteTxn, sid: &ScrollId) -> Result<()> {
    let until = sid.expires_ms.saturating_add(PIN_SLACK_MS).to_string();
    for (_, generation) in &sid.indices {
        w.put(Catalog::Scrolls, &pin_key(*generation, sid.nonce), until.as_bytes())?;
    }
    Ok(())
}

/// Whether `sid`'s pins already cover its deadline (so a continuation writes nothing).
pub(crate) fn pins_cover(snap: &Snapshot, sid: &ScrollId) -> Result<bool> {
    let Some((_, generation)) = sid.indices.first() else { return Ok(true) };
    Ok(snap.get(Catalog::Scrolls, &pin_key(*generation, sid.nonce))?.is_some_and(|v| deadline(&v) >= sid.expires_ms))
}

/// Removes the pins of a cleared scroll.
pub(crate) fn unpin(w: &mut WriteTxn, sid: &ScrollId) -> Result<()> {
    for (_, generation) in &sid.indices {
        w.remove(Catalog::Scrolls, &pin_key(*generation, sid.nonce))?;
    }
    Ok(())
}

/// Removes every pin (a clear of `_all`).
pub(crate) fn unpin_all(w: &mut WriteTxn) -> Result<()> {
    for (k, _) in w.list(Catalog::Scrolls)? {
        if k.starts_with(PIN_PREFIX) {
            w.remove(Catalog::Scrolls, &k)?;
        }
    }
    Ok(())
}

/// Whether a live pin names `generation` (in the transaction's view, at `now`).
fn pinned(entries: &[(String, Vec<u8>)], generation: u64, now: i64) -> bool {
    let prefix = format!("{PIN_PREFIX}{generation:020}/");
    entries.iter().any(|(k, v)| k.starts_with(&prefix) && deadline(v) > now)
}

/// Retires the generation an index is leaving (`catalog_entry`: the index's catalog JSON
/// as it was): kept while a live scroll pins it, dropped at once otherwise.
pub fn retire(w: &mut WriteTxn, generation: u64, catalog_entry: &[u8], now: i64) -> Result<()> {
    if pinned(&w.list(Catalog::Scrolls)?, generation, now) {
        w.put(Catalog::Scrolls, &retired_key(generation), catalog_entry)
    } else {
        w.drop_generation(generation)
    }
}

/// Drops retired generations that no live scroll pins any more, and expired pins.
pub fn reclaim(w: &mut WriteTxn, now: i64) -> Result<()> {
    let entries = w.list(Catalog::Scrolls)?;
    for (k, v) in &entries {
        if let Some(g) = k.strip_prefix(RETIRED_PREFIX).and_then(|g| g.parse::<u64>().ok()) {
            if !pinned(&entries, g, now) {
                w.drop_generation(g)?;
                w.remove(Catalog::Scrolls, k)?;
            }
        } else if k.starts_with(PIN_PREFIX) && deadline(v) <= now {
            w.remove(Catalog::Scrolls, k)?;
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
