//! The `scrolls` table's records that expire, and their expiry index.
//!
//! Every record that expires — a cleared scroll's nonce (`cleared/{nonce}`), a scroll's
//! pin on a generation (`pin/{generation:020}/{nonce}`, and a retired generation's grace,
//! `pin/{generation:020}/grace`), a process's note that it reads scrolls without pins
//! (`active/{process}`) — holds its deadline and has an entry `exp/{ms:020}/{key}` (empty value) beside it,
//! where `ms` is when the record may go. The index sorts by expiry, so the records due
//! are one key range from the table's start: each bookkeeping write removes at most
//! [`PRUNE_BATCH`] of the oldest due ones ([`prune`]), reading only those, and nothing on a
//! request's path lists the table. A record whose deadline moves (a pin renewed) has its
//! index entry moved with it ([`put_expiring`]), so each record has exactly one.

use crate::error::Result;
use crate::store::{Catalog, WriteTxn};

/// Prefix of the expiry index.
const EXP_PREFIX: &str = "exp/";
/// Due records one bookkeeping write removes at most. Each write adds at most a few, so
/// a backlog (a day of clears coming due at once) drains over the following writes.
pub(crate) const PRUNE_BATCH: usize = 32;

/// The expiry-index entry of `key`, due at `ms`.
fn exp_key(ms: i64, key: &str) -> String {
    format!("{EXP_PREFIX}{:020}/{key}", ms.max(0))
}

/// The first key past the index entries due before `now`.
fn due_end(now: i64) -> String {
    format!("{EXP_PREFIX}{:020}/", now.max(0))
}

/// The record key an index entry names, and its due time.
fn split_exp(entry: &str) -> Option<(i64, &str)> {
    let rest = entry.strip_prefix(EXP_PREFIX)?;
    let (ms, key) = rest.split_once('/')?;
    Some((ms.parse().ok()?, key))
}

/// The deadline a record's value holds (epoch ms as text; 0 when unreadable).
pub(crate) fn deadline(v: &[u8]) -> i64 {
    std::str::from_utf8(v).ok().and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// Writes `key` with deadline `ms` as its value, and its index entry (moving the one of
/// the value it replaces).
pub(crate) fn put_expiring(w: &mut WriteTxn, key: &str, ms: i64) -> Result<()> {
    if let Some(old) = w.get(Catalog::Scrolls, key)? {
        w.remove(Catalog::Scrolls, &exp_key(deadline(&old), key))?;
    }
    w.put(Catalog::Scrolls, key, ms.to_string().as_bytes())?;
    w.put(Catalog::Scrolls, &exp_key(ms, key), b"")
}

/// Removes a record written by [`put_expiring`] and its index entry.
pub(crate) fn remove_expiring(w: &mut WriteTxn, key: &str) -> Result<()> {
    if let Some(old) = w.get(Catalog::Scrolls, key)? {
        w.remove(Catalog::Scrolls, &exp_key(deadline(&old), key))?;
        w.remove(Catalog::Scrolls, key)?;
    }
    Ok(())
}

/// Removes at most [`PRUNE_BATCH`] of the oldest records due before `now` (a cleared
/// scroll's record, an expired pin or process note) with their index entries, reading only
/// those. Returns how many due entries it read (a full batch means more may be due).
pub(crate) fn prune(w: &mut WriteTxn, now: i64) -> Result<usize> {
    let due = w.range(Catalog::Scrolls, EXP_PREFIX, &due_end(now), PRUNE_BATCH)?;
    for (entry, _) in &due {
        // The record's own deadline decides: the index entry of a moved deadline was moved
        // with it, so this is a check, not a second source of truth.
        if let Some((_, key)) = split_exp(entry) {
            if w.get(Catalog::Scrolls, key)?.is_some_and(|v| deadline(&v) < now) {
                w.remove(Catalog::Scrolls, key)?;
            }
        }
        w.remove(Catalog::Scrolls, entry)?;
    }
    Ok(due.len())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::store::Store;

    fn scrolls(store: &Store) -> Vec<String> {
        store.read().unwrap().list(Catalog::Scrolls).unwrap().into_iter().map(|(k, _)| k).collect()
    }

    #[test]
    fn prunes_the_oldest_due_records_a_batch_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("f.redb"), true).unwrap();
        let mut w = store.write().unwrap();
        for i in 0..100 {
            put_expiring(&mut w, &format!("cleared/{i}"), 1_000 + i).unwrap();
        }
        // A renewed deadline moves its index entry: one entry per record.
        put_expiring(&mut w, "cleared/0", 5_000).unwrap();
        w.commit().unwrap();
        assert_eq!(scrolls(&store).len(), 200);

        // Nothing due: the write reads no entry at all.
        let mut w = store.write().unwrap();
        let before = crate::store::catalog_entries_touched();
        assert_eq!(prune(&mut w, 1_000).unwrap(), 0);
        assert_eq!(crate::store::catalog_entries_touched() - before, 0);
        w.commit().unwrap();

        // 99 due at 2,000: a batch per write, oldest first, the renewed one kept.
        let mut reads = Vec::new();
        loop {
            let mut w = store.write().unwrap();
            let before = crate::store::catalog_entries_touched();
            let n = prune(&mut w, 2_000).unwrap();
            reads.push(crate::store::catalog_entries_touched() - before);
            w.commit().unwrap();
            if n < PRUNE_BATCH {
                break;
            }
        }
        assert_eq!(reads.len(), 4, "{reads:?}");
        assert!(reads.iter().all(|r| *r <= 1 + 4 * PRUNE_BATCH as u64), "{reads:?}");
        let left = scrolls(&store);
        assert_eq!(left, vec!["cleared/0".to_string(), format!("exp/{:020}/cleared/0", 5_000)]);
        let mut w = store.write().unwrap();
        remove_expiring(&mut w, "cleared/0").unwrap();
        w.commit().unwrap();
        assert!(scrolls(&store).is_empty());
    }
}
