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
//! - the gateway checks a request's head before its body is read
//!   ([`Gateway::admit`]: route, method, declared size, `Content-Type`, parameters, API
//!   key, rate); a refused request is answered at once and, when it announced a body, its
//!   connection closed unread (see `service.rs`);
//! - bodies being read or answered share `max_in_flight_bytes` (ES's `in_flight_requests`
//!   breaker: a declared length is reserved before it is read, a chunked body as its
//!   chunks arrive; past it, 429 `circuit_breaking_exception`; see `body.rs`);
//! - at most `threads` requests inside the gateway at once, behind a queue of
//!   `queue_size` (a full queue is 429 `es_rejected_execution_exception`), one key
//!   holding at most `key_share` workers (see `pool.rs`): searches block, so they run on
//!   those threads, never on the I/O one;
//! - each request is answered inside a budget (`crate::budget`): `max_request_time`,
//!   `max_request_bytes` per request and `max_total_bytes` for all; a client that hangs up
//!   cancels its request (hyper drops its future; a queued request is dropped, a running
//!   one stops at its next look), and the access log says so (`499 ... cancelled`);
//! - a request head must be complete within `read_timeout` of the connection being ready
//!   for it (hyper's header timer, which also runs while a kept-alive connection idles;
//!   the connection is then closed) and its body within `read_timeout` after that (408);
//! - heads over 64 KiB are refused (431), whatever their number of headers; malformed ones
//!   get hyper's 400; bodies over `max_body` are refused with 413 before they are read,
//!   and the connection is closed, as Netty does for ES;
//! - a client must take some of an answer within every `write_timeout`, or its connection
//!   is dropped (see `write_deadline.rs`).
//!
//! Header names go out in title case (`Content-Type`); hyper cannot keep the gateway's
//! spelling, and HTTP header names are case-insensitive (RFC 9110, section 5.1). A request
//! target must be a valid URI: a raw `"`, `<` or `>` in a query string is hyper's 400.
//!
//! One access-log line per request goes to stderr: method, path with secrets redacted,
//! status, milliseconds, key name (never the key); also for requests refused at their
//! head and for those whose client hung up (see `access_log.rs`).

mod access_log;
mod body;
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
    /// Bytes of request bodies being read or answered at once, all requests together
    /// (ES's `in_flight_requests` breaker); a body that would pass it is refused with 429
    /// before it is read. The default, 256 MiB, takes two bodies of the largest size
    /// (`max_body`, 100 MB) at once beside many small ones, while 24 clients each
    /// announcing 95 MB can no longer bring the server to gigabytes.
    pub max_in_flight_bytes: usize,
    /// Requests waiting for a worker at most (ES's search pool queues 1,000); a further one
    /// is refused with 429 `es_rejected_execution_exception`.
    pub queue_size: usize,
    /// Workers one API key may hold at once (its requests beyond wait while another key's
    /// run); `None`: half the workers, rounded up. Requests without a key (the demo page's
    /// files) share per client address.
    pub key_share: Option<usize>,
    /// Longest a request may run (a search's own `timeout` may shorten it); past it a
    /// search answers what it found with `timed_out: true`.
    pub max_request_time: Duration,
    /// Bytes one request may build (hits, buckets, answers: ES's `request` breaker; 429
    /// `circuit_breaking_exception` past it).
    pub max_request_bytes: usize,
    /// Bytes all requests being answered may build together (ES's `parent` breaker).
    pub max_total_bytes: usize,
    /// Write one access-log line per request to stderr.
    pub access_log: bool,
    /// Send the access-log lines to this channel instead of stderr (for tests).
    pub access_log_to: Option<std::sync::mpsc::Sender<String>>,
    /// The page served at `/demo/` (the WASM demo), if any; no key is needed for it.
    pub demo: Option<DemoPage>,
}

impl ServeOptions {
    /// Workers one key may hold: [`ServeOptions::key_share`], else half the workers
    /// rounded up (so one key never holds them all when there are two or more).
    pub fn key_share(&self) -> usize {
        self.key_share.unwrap_or(self.threads.div_ceil(2)).clamp(1, self.threads.max(1))
    }

    /// The server's limits, one per line, as `serve` prints them at start.
    pub fn describe_limits(&self) -> String {
        let mib = |b: usize| crate::budget::byte_size(b);
        [
            format!("workers: {} (one API key holds at most {})", self.threads, self.key_share()),
            format!("queue: {} requests waiting at most", self.queue_size),
            format!("connections: {} open at most", self.max_connections),
            format!("request body: {} at most", mib(self.max_body)),
            format!("request bodies in flight: {} at most", mib(self.max_in_flight_bytes)),
            format!("request time: {:?} at most", self.max_request_time),
            format!("bytes built by one request: {} at most", mib(self.max_request_bytes)),
            format!("bytes built by all requests: {} at most", mib(self.max_total_bytes)),
            format!("read timeout: {:?}, write timeout: {:?}", self.read_timeout, self.write_timeout),
        ]
        .join("\n")
    }
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
            max_in_flight_bytes: 256 << 20,
            queue_size: 1000,
            key_share: None,
            max_request_time: Duration::from_secs(30),
            max_request_bytes: 256 << 20,
            max_total_bytes: 1 << 30,
            access_log: true,
            access_log_to: None,
            demo: None,
        }
    }
}

/// Serves `gateway` with `opts` until the process ends.
pub fn serve(gateway: Arc<Gateway>, opts: &ServeOptions) -> crate::Result<()> {
    Server::start(gateway, opts)?.wait();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_key_holds_half_the_workers_by_default() {
        let share = |threads, key_share| ServeOptions { threads, key_share, ..Default::default() }.key_share();
        assert_eq!([share(1, None), share(2, None), share(4, None), share(5, None)], [1, 1, 2, 3]);
        assert_eq!([share(4, Some(4)), share(4, Some(9)), share(4, Some(0))], [4, 4, 1]);
    }
}
