//! The HTTP/1.1 transport: hyper reads requests off TCP connections, [`Gateway::handle`]
//! answers them and hyper writes the answers back. This module only translates and
//! enforces transport limits; every decision about what to answer lives in the gateway,
//! except for the browser demo page's static files under `/demo/`, which the server
//! answers itself when [`ServeOptions::demo`] is set (see [`demo_page`]), so that the
//! gateway stays free of filesystem I/O.
//!
//! Why hyper and not tiny_http (BENCHMARKS.md, "HTTP server: hand-written vs hyper", has
//! the measurements): tiny_http 0.12 accepts connections on a thread of its own, so it
//! cannot cap them, and it ends that thread for good on the first accept error; socket
//! timeouts set on its listening socket also time out `accept` itself, so it stopped
//! accepting 30 s after its last connection. Its only read limit is per read call, and it
//! reads heads of any size: a head trickled one byte a second held a thread forever. It
//! writes answers on the workers, so clients that never read stalled every one of them.
//! hyper parses and frames HTTP/1.1 (keep-alive, pipelining, chunked bodies,
//! `Expect: 100-continue`, HEAD) and leaves accepting, limits and threads to us:
//!
//! - one tokio task per connection on one I/O thread; at most `max_connections` open, a
//!   further one is answered 503 and closed (see `connections.rs`);
//! - at most `threads` requests inside the gateway at once, first come first served
//!   (see `pool.rs`): searches block, so they run on those threads, never on the I/O one;
//! - a request head must be complete within `read_timeout` of the connection being ready
//!   for it (hyper's header timer, which also runs while a kept-alive connection idles;
//!   the connection is then closed) and its body within `read_timeout` after that (408);
//! - heads over 64 KiB are refused (431), malformed ones get hyper's 400; bodies over
//!   `max_body` are refused with 413 before they are read, and the connection is closed,
//!   as Netty does for ES;
//! - a client must take some of an answer within every `write_timeout`, or its connection
//!   is dropped (see `write_deadline.rs`).
//!
//! Header names go out in title case (`Content-Type`); hyper cannot keep the gateway's
//! spelling, and HTTP header names are case-insensitive (RFC 9110, section 5.1). A request
//! target must be a valid URI: a raw `"`, `<` or `>` in a query string is hyper's 400.
//!
//! One access-log line per request goes to stderr: method, path with secrets redacted,
//! status, milliseconds, key name (never the key).

mod connections;
pub mod demo_page;
mod pool;
mod service;
mod write_deadline;

use crate::gateway::Gateway;
use demo_page::DemoPage;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::watch;

/// How the server listens and what it tolerates from clients.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Address to listen on (`127.0.0.1:9200`; port 0 picks a free port).
    pub bind: String,
    /// Requests answered at once (searches run on this many worker threads).
    pub threads: usize,
    /// Open connections at most; a further one gets 503 and is closed.
    pub max_connections: usize,
    /// Time a request head has from the moment the connection is ready for it (a
    /// kept-alive connection idle this long is closed), and its body after the head.
    pub read_timeout: Duration,
    /// Time within which a client must take some of an answer being written.
    pub write_timeout: Duration,
    /// Largest request body (ES's `http.max_content_length`, 100 MB).
    pub max_body: usize,
    /// Write one access-log line per request to stderr.
    pub access_log: bool,
    /// The page served at `/demo/` (the WASM demo), if any; no key is needed for it.
    pub demo: Option<DemoPage>,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            bind: "127.0.0.1:9200".into(),
            threads: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(4),
            max_connections: 1024,
            read_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(30),
            max_body: 100 * 1024 * 1024,
            access_log: true,
            demo: None,
        }
    }
}

/// Serves `gateway`, and `demo` at `/demo/` if given, on `bind` with `threads` concurrent
/// requests until the process ends (the other options at their defaults).
pub fn serve(
    gateway: Arc<Gateway>,
    bind: &str,
    threads: usize,
    max_body: usize,
    demo: Option<DemoPage>,
) -> crate::Result<()> {
    let opts = ServeOptions { bind: bind.to_string(), threads, max_body, demo, ..Default::default() };
    Server::start(gateway, &opts)?.wait();
    Ok(())
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    io: Option<JoinHandle<()>>,
}

impl Server {
    /// Binds, then accepts and serves on a thread of its own.
    pub fn start(gateway: Arc<Gateway>, opts: &ServeOptions) -> crate::Result<Server> {
        let listener = std::net::TcpListener::bind(&opts.bind)
            .map_err(|e| crate::Error::storage(format!("cannot listen on {}: {e}", opts.bind)))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let runtime = tokio::runtime::Builder::new_current_thread().enable_io().enable_time().build()?;
        // Registered with the runtime's reactor now, so that a bad socket fails here.
        let listener = {
            let _entered = runtime.enter();
            tokio::net::TcpListener::from_std(listener)?
        };
        let shared = Arc::new(service::Shared::new(gateway, opts)?);
        let (stop, stopped) = watch::channel(false);
        let io = std::thread::Builder::new()
            .name("metagate-http".into())
            .spawn(move || runtime.block_on(connections::accept_loop(listener, shared, stopped)))?;
        Ok(Server { addr, stop, io: Some(io) })
    }

    /// The address actually bound (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Blocks while the server runs (until the end of the process).
    pub fn wait(mut self) {
        if let Some(h) = self.io.take() {
            let _ = h.join();
        }
    }

    /// Stops accepting connections; open ones finish the request they are answering
    /// (for up to `write_timeout`) and are closed.
    pub fn shutdown(mut self) {
        self.stop_serving();
    }

    fn stop_serving(&mut self) {
        let _ = self.stop.send(true);
        if let Some(h) = self.io.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop_serving();
    }
}
