//! The worker threads that answer requests: `threads` of them, first come first served.
//!
//! Answering blocks (a search, a file read, a forward to an upstream cluster), so it must
//! not run on the I/O thread, where it would stall every connection. tokio's own blocking
//! pool grows to hundreds of threads under load; a fixed set behind one FIFO queue bounds
//! what runs inside the engine at once and keeps the latency tail short when many
//! connections compete for few cores.

use super::demo_page::DemoPage;
use crate::gateway::{Gateway, Request, Response};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

/// A request handed to the workers and where its answer goes.
type Job = (Request, oneshot::Sender<(Request, Response)>);

/// `threads` workers answering requests in arrival order.
pub(super) struct Pool {
    tx: Mutex<mpsc::Sender<Job>>,
}

impl Pool {
    /// Starts `threads` (at least one) workers answering with `gateway`, and `demo` for
    /// its paths.
    pub(super) fn new(threads: usize, gateway: Arc<Gateway>, demo: Option<DemoPage>) -> std::io::Result<Pool> {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for _ in 0..threads.max(1) {
            let rx = rx.clone();
            let gateway = gateway.clone();
            let demo = demo.clone();
            std::thread::Builder::new().name("metagate-worker".into()).spawn(move || loop {
                // The lock is held only while taking a job, not while answering it.
                let job = rx.lock().unwrap_or_else(|p| p.into_inner()).recv();
                let Ok((req, reply)) = job else { return };
                let resp = answer(&gateway, demo.as_ref(), &req);
                // The client may be gone; its answer is then dropped.
                let _ = reply.send((req, resp));
            })?;
        }
        Ok(Pool { tx: Mutex::new(tx) })
    }

    /// The answer to `req` from a worker, with the request given back (for the access
    /// log); `None` if the workers are gone.
    pub(super) async fn answer(&self, req: Request) -> Option<(Request, Response)> {
        let (reply, answer) = oneshot::channel();
        self.tx.lock().unwrap_or_else(|p| p.into_inner()).send((req, reply)).ok()?;
        answer.await.ok()
    }
}

/// The answer to one request: the demo page's, when it is served and the path is its,
/// else the gateway's. Reading and gzipping a large file is work that `threads` should
/// bound as much as a search.
fn answer(gateway: &Gateway, demo: Option<&DemoPage>, req: &Request) -> Response {
    demo.and_then(|d| d.answer(req)).unwrap_or_else(|| gateway.handle(req))
}
