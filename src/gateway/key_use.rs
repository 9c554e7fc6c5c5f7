//! Writing each key's last use (`last_used_ms`) off the request's thread.
//!
//! The write is a write transaction, and another process (a `metagate load`) may hold the
//! file's write lock for seconds: a request that wrote it would wait that long. So a
//! request only notes the key's name here; one background thread per gateway, started on
//! the first note, waits for the lock and writes. Notes are coalesced (at most one pending
//! per key, and the gateway notes a key at most once a minute), so the pending set stays
//! as small as the set of keys. Where no thread can be started (the browser), the write
//! happens in place, as before.

use super::keys;
use crate::engine::Engine;
use std::collections::BTreeSet;
use std::sync::{Arc, Condvar, Mutex, Weak};

/// The keys waiting to be written and whether the gateway is gone.
#[derive(Default)]
struct Pending {
    names: BTreeSet<String>,
    closed: bool,
    /// Whether the writer thread runs (or could not be started: `Some(false)`).
    writer: Option<bool>,
}

/// Hands key-use writes to a background thread.
#[derive(Default)]
pub(super) struct KeyUseWriter {
    shared: Arc<(Mutex<Pending>, Condvar)>,
}

impl KeyUseWriter {
    /// Notes that `name` was used now; its write happens soon, on the writer thread of
    /// `engine`'s file.
    pub(super) fn note(&self, engine: &Arc<Engine>, name: &str) {
        let (lock, wake) = &*self.shared;
        let mut p = lock.lock().unwrap_or_else(|e| e.into_inner());
        if p.writer.is_none() {
            let shared = self.shared.clone();
            let weak = Arc::downgrade(engine);
            let started = std::thread::Builder::new()
                .name("metagate-key-use".into())
                .spawn(move || write_loop(&shared, &weak))
                .is_ok();
            p.writer = Some(started);
        }
        if p.writer == Some(false) {
            drop(p);
            keys::touch(engine.store(), name);
            return;
        }
        p.names.insert(name.to_string());
        wake.notify_one();
    }
}

impl Drop for KeyUseWriter {
    fn drop(&mut self) {
        let (lock, wake) = &*self.shared;
        lock.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        wake.notify_one();
    }
}

/// The writer thread: writes noted keys until the gateway is gone (what is still pending
/// then is written first).
fn write_loop(shared: &(Mutex<Pending>, Condvar), engine: &Weak<Engine>) {
    let (lock, wake) = shared;
    loop {
        let (names, closed) = {
            let mut p = lock.lock().unwrap_or_else(|e| e.into_inner());
            while p.names.is_empty() && !p.closed {
                p = wake.wait(p).unwrap_or_else(|e| e.into_inner());
            }
            (std::mem::take(&mut p.names), p.closed)
        };
        let Some(engine) = engine.upgrade() else { return };
        for name in &names {
            // Waits for the file's write lock here, on no request's time.
            keys::touch(engine.store(), name);
        }
        if closed {
            return;
        }
    }
}
