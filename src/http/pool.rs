//! The worker threads that answer requests: `threads` of them behind one bounded queue,
//! shared fairly between API keys.
//!
//! Answering blocks (a search, a file read, a forward to an upstream cluster), so it must
//! not run on the I/O thread, where it would stall every connection. tokio's own blocking
//! pool grows to hundreds of threads under load; a fixed set bounds what runs inside the
//! engine at once and keeps the latency tail short when many connections compete for few
//! cores.
//!
//! - **Bounded queue.** At most `queue_size` requests wait (ES's search pool queues
//!   1,000); a further one is refused at once with ES's 429
//!   `es_rejected_execution_exception` rather than waiting without end.
//! - **Shares.** One key holds at most `key_share` workers at once: a waiting request
//!   whose key already holds its share lets a later request of another key go first;
//!   otherwise requests are answered in arrival order. Requests without a key (the demo
//!   page's files) share per client address, so one browser cannot hold every worker
//!   either.
//! - **Cancellation.** A request whose client has gone (its [`CancelFlag`] set) is dropped
//!   from the queue unanswered; one already running stops at its budget's next look, as
//!   it runs inside [`budget::enter`] with the server's limits.

use super::demo_page::DemoPage;
use crate::budget::{self, CancelFlag, Limits};
use crate::gateway::{Admission, Gateway, Request, Response};
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Condvar, Mutex};
use tokio::sync::oneshot;

/// Whose share of the workers a request counts against.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Share {
    /// An API key, by name.
    Key(String),
    /// A request without a key, by its client's address.
    Client(IpAddr),
}

/// A request handed to the workers.
pub(super) struct Job {
    /// The request, its body read.
    pub(super) req: Request,
    /// The gateway's admission of its head; `None` for the demo page's files.
    pub(super) admission: Option<Admission>,
    /// Whose share it counts against.
    pub(super) share: Share,
    /// Set when its client has gone.
    pub(super) cancel: CancelFlag,
}

/// A job's answer, with the request given back (for the access log).
pub(super) type Answer = (Request, Response);

/// How the workers run.
#[derive(Debug, Clone)]
pub(super) struct PoolConfig {
    /// Worker threads (at least one).
    pub(super) threads: usize,
    /// Requests waiting at most.
    pub(super) queue_size: usize,
    /// Workers one key (or one keyless client) holds at most.
    pub(super) key_share: usize,
    /// The budget each request is answered within (its cancel flag added).
    pub(super) limits: Limits,
}

/// The queue and what runs, under one lock.
#[derive(Default)]
struct State {
    queue: VecDeque<(Job, oneshot::Sender<Answer>)>,
    /// Workers each share holds now.
    running: HashMap<Share, usize>,
    completed: u64,
    closed: bool,
}

impl State {
    /// Drops the queued jobs whose client has gone, then takes the first job whose share
    /// has a worker left.
    fn take(&mut self, key_share: usize) -> Option<(Job, oneshot::Sender<Answer>)> {
        self.queue.retain(|(job, _)| !job.cancel.is_cancelled());
        let i =
            self.queue.iter().position(|(job, _)| self.running.get(&job.share).copied().unwrap_or(0) < key_share)?;
        let taken = self.queue.remove(i)?;
        *self.running.entry(taken.0.share.clone()).or_insert(0) += 1;
        Some(taken)
    }

    /// A worker has finished a job of `share`.
    fn finished(&mut self, share: &Share) {
        if let Some(n) = self.running.get_mut(share) {
            *n -= 1;
            if *n == 0 {
                self.running.remove(share);
            }
        }
        self.completed += 1;
    }
}

/// What the pool looked like when it refused a job (ES's rejection text shows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct QueueFull {
    /// The queue's capacity.
    pub(super) capacity: usize,
    /// Worker threads.
    pub(super) threads: usize,
    /// Workers answering a request.
    pub(super) active: usize,
    /// Requests waiting.
    pub(super) queued: usize,
    /// Requests answered so far.
    pub(super) completed: u64,
}

impl QueueFull {
    /// ES 6.8's `EsRejectedExecutionException` text (`EsAbortPolicy`: "rejected execution
    /// of <task> on <executor>", the executor as `EsThreadPoolExecutor.toString` writes it),
    /// naming what metagate runs: the request `what` and its worker pool.
    pub(super) fn reason(&self, what: &str) -> String {
        format!(
            "rejected execution of request [{what}] on metagate worker pool[name = {}/search, queue capacity = {}, \
             metagate.http.Pool[Running, pool size = {}, active threads = {}, queued tasks = {}, completed tasks = {}]]",
            crate::node::NODE_ID,
            self.capacity,
            self.threads,
            self.active,
            self.queued,
            self.completed
        )
    }
}

type Shared = (Mutex<State>, Condvar);

/// `threads` workers answering queued requests.
pub(super) struct Pool {
    shared: Arc<Shared>,
    config: PoolConfig,
}

impl Pool {
    /// Starts the workers answering with `gateway`, and `demo` for its paths.
    pub(super) fn new(config: PoolConfig, gateway: Arc<Gateway>, demo: Option<DemoPage>) -> std::io::Result<Pool> {
        let config = PoolConfig { threads: config.threads.max(1), key_share: config.key_share.max(1), ..config };
        let shared: Arc<Shared> = Arc::default();
        for _ in 0..config.threads {
            let (shared, gateway, demo, config) = (shared.clone(), gateway.clone(), demo.clone(), config.clone());
            std::thread::Builder::new()
                .name("metagate-worker".into())
                .spawn(move || work(&shared, &gateway, demo.as_ref(), &config))?;
        }
        Ok(Pool { shared, config })
    }

    /// Queues `job`; its answer arrives on the receiver (which fails if the workers are
    /// gone). When the queue is full, the job is given back with the pool's state.
    pub(super) fn submit(&self, job: Job) -> Result<oneshot::Receiver<Answer>, Box<(Job, QueueFull)>> {
        let (lock, wake) = &*self.shared;
        let mut s = lock.lock().unwrap_or_else(|p| p.into_inner());
        if s.queue.len() >= self.config.queue_size {
            // Jobs whose client has gone do not count.
            s.queue.retain(|(job, _)| !job.cancel.is_cancelled());
        }
        if s.queue.len() >= self.config.queue_size {
            let full = QueueFull {
                capacity: self.config.queue_size,
                threads: self.config.threads,
                active: s.running.values().sum(),
                queued: s.queue.len(),
                completed: s.completed,
            };
            return Err(Box::new((job, full)));
        }
        let (reply, answer) = oneshot::channel();
        s.queue.push_back((job, reply));
        wake.notify_all();
        Ok(answer)
    }
}

impl Drop for Pool {
    /// The workers end once the queue is empty.
    fn drop(&mut self) {
        let (lock, wake) = &*self.shared;
        lock.lock().unwrap_or_else(|p| p.into_inner()).closed = true;
        wake.notify_all();
    }
}

/// One worker: takes jobs until the pool is closed and its queue empty.
fn work(shared: &Shared, gateway: &Gateway, demo: Option<&DemoPage>, config: &PoolConfig) {
    let (lock, wake) = shared;
    loop {
        let (job, reply) = {
            let mut s = lock.lock().unwrap_or_else(|p| p.into_inner());
            loop {
                if let Some(taken) = s.take(config.key_share) {
                    break taken;
                }
                if s.closed && s.queue.is_empty() {
                    return;
                }
                s = wake.wait(s).unwrap_or_else(|p| p.into_inner());
            }
        };
        let resp = {
            let _scope = budget::enter(Limits { cancel: Some(job.cancel.clone()), ..config.limits.clone() });
            answer(gateway, demo, &job)
        };
        {
            let mut s = lock.lock().unwrap_or_else(|p| p.into_inner());
            s.finished(&job.share);
            // A job that waited for this share's worker may run now.
            wake.notify_all();
        }
        // The client may be gone; its answer is then dropped.
        let _ = reply.send((job.req, resp));
    }
}

/// The answer to one job: the demo page's for its files, else the gateway's to the
/// admitted request. Reading and gzipping a large file is work that `threads` should
/// bound as much as a search.
fn answer(gateway: &Gateway, demo: Option<&DemoPage>, job: &Job) -> Response {
    match &job.admission {
        Some(admission) => gateway.answer_admitted(&job.req, admission),
        None => demo.and_then(|d| d.answer(&job.req)).unwrap_or_else(|| gateway.handle(&job.req)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(share: Share) -> (Job, oneshot::Sender<Answer>) {
        let job = Job { req: Request::default(), admission: None, share, cancel: CancelFlag::new() };
        (job, oneshot::channel().0)
    }

    #[test]
    fn a_key_over_its_share_lets_another_go_first() {
        let a = Share::Key("a".into());
        let b = Share::Client([127, 0, 0, 1].into());
        let mut s = State::default();
        s.queue.extend([job(a.clone()), job(a.clone()), job(b.clone()), job(a.clone())]);
        assert_eq!(s.take(1).unwrap().0.share, a);
        assert_eq!(s.take(1).unwrap().0.share, b, "a holds its one worker: b goes first");
        assert!(s.take(1).is_none(), "both hold their share");
        s.finished(&a);
        assert_eq!(s.take(1).unwrap().0.share, a);
        assert_eq!((s.queue.len(), s.completed), (1, 1));
    }

    #[test]
    fn cancelled_jobs_are_dropped_unanswered() {
        let mut s = State::default();
        let (first, reply) = job(Share::Key("a".into()));
        first.cancel.cancel();
        s.queue.push_back((first, reply));
        s.queue.push_back(job(Share::Key("b".into())));
        assert_eq!(s.take(4).unwrap().0.share, Share::Key("b".into()));
        assert!(s.queue.is_empty());
    }

    #[test]
    fn the_rejection_reads_like_es() {
        let full = QueueFull { capacity: 1000, threads: 4, active: 4, queued: 1000, completed: 7 };
        assert_eq!(
            full.reason("GET /elastic/v1/x/_search"),
            format!(
                "rejected execution of request [GET /elastic/v1/x/_search] on metagate worker pool[name = {}/search, \
                 queue capacity = 1000, metagate.http.Pool[Running, pool size = 4, active threads = 4, queued tasks = \
                 1000, completed tasks = 7]]",
                crate::node::NODE_ID
            )
        );
    }
}
