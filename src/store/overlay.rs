//! What a read-only file image records beside the image: the bookkeeping a reader keeps
//! (cleared scrolls and their epoch), held in memory and never written to the image.
//!
//! A file opened from bytes or over HTTP ranges is read-only, yet clearing a scroll is a
//! write in the file's catalog. Those few catalog changes live here instead, layered over
//! the image: reads see the change when there is one and the image otherwise.

use super::Catalog;
use crate::error::{Error, Exception, Result};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Catalog changes by table and key; `None` hides an entry of the image (a removal).
pub type Changes = BTreeMap<(Catalog, String), Option<Vec<u8>>>;

/// The committed changes, replaced whole on each commit so that a snapshot keeps the
/// version it started with.
#[derive(Debug, Default)]
pub struct Overlay(Mutex<Arc<Changes>>);

impl Overlay {
    /// The committed changes as of now.
    pub fn current(&self) -> Arc<Changes> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Applies a transaction's changes on top of what is committed now (not of what was
    /// committed when the transaction began), so two transactions never undo each other.
    pub fn commit(&self, staged: Changes) {
        let mut guard = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let mut next = Changes::clone(&guard);
        next.extend(staged);
        *guard = Arc::new(next);
    }
}

/// The tables a read-only image may change in memory: the reader's own bookkeeping.
/// Indices, aliases and keys describe the file's content and stay as the image has them.
pub fn check_writable(cat: Catalog) -> Result<()> {
    match cat {
        Catalog::Meta | Catalog::Scrolls => Ok(()),
        _ => Err(read_only()),
    }
}

/// The error for a change the image cannot take. ES answers writes to a read-only index
/// with this exception and status.
pub fn read_only() -> Error {
    Error::new(
        403,
        Exception::new(
            "cluster_block_exception",
            "blocked by: [FORBIDDEN/5/this metagate file is open read-only (an image from bytes or HTTP ranges)];",
        ),
    )
}

/// `base` (the image's entries of one table, in key order) with `changes` of that table
/// applied.
pub fn merge_list(cat: Catalog, base: Vec<(String, Vec<u8>)>, changes: &[&Changes]) -> Vec<(String, Vec<u8>)> {
    let mut merged: BTreeMap<String, Vec<u8>> = base.into_iter().collect();
    for layer in changes {
        for ((c, key), value) in layer.range((cat, String::new())..) {
            if *c != cat {
                break;
            }
            match value {
                Some(v) => merged.insert(key.clone(), v.clone()),
                None => merged.remove(key),
            };
        }
    }
    merged.into_iter().collect()
}

/// [`merge_list`] of the keys in `from..to` only, at most `limit` of them: `base` holds the
/// image's entries of that range, and only the changes in it are read.
pub fn merge_range(
    cat: Catalog,
    base: Vec<(String, Vec<u8>)>,
    changes: &[&Changes],
    from: &str,
    to: &str,
    limit: usize,
) -> Vec<(String, Vec<u8>)> {
    if from >= to {
        return Vec::new();
    }
    let mut merged: BTreeMap<String, Vec<u8>> = base.into_iter().collect();
    let (start, end) = ((cat, from.to_string()), (cat, to.to_string()));
    for layer in changes {
        for ((_, key), value) in layer.range(start.clone()..end.clone()) {
            match value {
                Some(v) => merged.insert(key.clone(), v.clone()),
                None => merged.remove(key),
            };
        }
    }
    merged.into_iter().take(limit).collect()
}
