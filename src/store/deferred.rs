//! Bookkeeping writes that wait for the file's write lock on a thread of their own.
//!
//! A load holds the file's write lock for its whole merge (minutes for a large input, in
//! any process sharing the file). Small bookkeeping writes — a scroll's pins — must not make
//! a request wait that long: [`super::Store::write_or_defer`] runs them at once when the
//! lock is free and hands them here otherwise. One thread per file at most, started when the
//! first job is queued and ending when the queue is empty, takes the lock (waiting as long
//! as it must) and commits every queued job in one transaction. It holds the database
//! only while it has work, so a compaction finds the file to itself afterwards.

use super::{Job, Txn, WriteTxn};
use std::sync::{Arc, Condvar, Mutex};

/// The queue of one open file.
#[derive(Default)]
pub(super) struct Deferred(Arc<Shared>);

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Signalled when the writer thread ends.
    idle: Condvar,
}

#[derive(Default)]
struct State {
    jobs: Vec<Job>,
    /// Whether a writer thread is running (it drains `jobs` before it ends).
    running: bool,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // Every mutation is a push, a take or a flag: a poisoned state is consistent.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Deferred {
    /// Queues `job`, starting the writer thread if none runs.
    pub(super) fn push(&self, db: &Arc<redb::Database>, job: Job) {
        let mut state = self.0.lock();
        state.jobs.push(job);
        if state.running {
            return;
        }
        state.running = true;
        drop(state);
        let (shared, db) = (self.0.clone(), db.clone());
        let spawned = std::thread::Builder::new().name("metagate-bookkeeping".into()).spawn({
            let shared = shared.clone();
            move || run(&shared, db)
        });
        if let Err(e) = spawned {
            // No thread: the jobs stay queued for the next push to retry.
            eprintln!("metagate: cannot start the bookkeeping writer: {e}");
            shared.lock().running = false;
            shared.idle.notify_all();
        }
    }

    /// Waits until no writer thread runs.
    pub(super) fn wait_idle(&self) {
        let mut state = self.0.lock();
        while state.running {
            state = self.0.idle.wait(state).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// The writer thread: commits batches of queued jobs until the queue is empty.
fn run(shared: &Shared, db: Arc<redb::Database>) {
    loop {
        let jobs = {
            let mut state = shared.lock();
            if state.jobs.is_empty() {
                // Let the database go before anyone learns the writer is done: a compaction
                // that follows needs it to itself.
                drop(db);
                state.running = false;
                shared.idle.notify_all();
                return;
            }
            std::mem::take(&mut state.jobs)
        };
        if let Err(e) = commit(&db, jobs) {
            eprintln!("metagate: a deferred bookkeeping write failed: {e}");
        }
    }
}

fn commit(db: &redb::Database, jobs: Vec<Job>) -> crate::Result<()> {
    let mut w = WriteTxn(Txn::File(Box::new(db.begin_write().map_err(super::storage)?)));
    for job in jobs {
        job(&mut w)?;
    }
    w.commit()
}
