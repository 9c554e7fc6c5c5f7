//! The HTTP/1.1 transport: reads requests off TCP connections, hands them to
//! [`Gateway::handle`] and writes the answers back. It translates and enforces transport
//! limits; every decision about what to answer lives in the gateway, except for the
//! browser demo page's static files under `/demo/`, which the server answers itself when
//! [`ServeOptions::demo`] is set (see [`demo_page`]), so that the gateway stays free of
//! filesystem I/O.
//!
//! Why not tiny_http: tiny_http 0.12 accepts connections and reads request heads on
//! threads of its own and offers no way to set socket timeouts, so a client that sends a
//! body slowly (or never reads its answer) holds a worker forever. This module is a small
//! HTTP/1.1 server on `std::net` that owns its sockets:
//!
//! - one thread per connection (at most `max_connections`; more are answered 503 and
//!   closed), and at most `threads` requests inside the gateway at once;
//! - keep-alive (HTTP/1.1 by default, HTTP/1.0 with `Connection: keep-alive`), pipelining
//!   answered in order; an idle connection is closed after `idle_timeout`;
//! - a request's head and body must arrive within `read_timeout` of its first byte (a
//!   client trickling bytes is cut off, 408), answers must be taken within `write_timeout`;
//! - `Content-Length` or `Transfer-Encoding: chunked` bodies; `Expect: 100-continue`;
//!   bodies over `max_body` are refused with 413 before they are read (the connection is
//!   then closed, as Netty does for ES);
//! - heads over 64 KiB or malformed are 400 and close the connection.
//!
//! One access-log line per request goes to stderr: method, path with secrets redacted,
//! status, milliseconds, key name (never the key).

pub mod demo_page;

use crate::gateway::{redact, Gateway, Request, Response};
use demo_page::DemoPage;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Largest request head (request line plus headers) accepted.
const MAX_HEAD: usize = 64 * 1024;

/// How the server listens and what it tolerates from clients.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Address to listen on (`127.0.0.1:9200`; port 0 picks a free port).
    pub bind: String,
    /// Requests answered at once (searches run on the connection threads; this bounds
    /// how many are inside the engine together).
    pub threads: usize,
    /// Open connections at most; further ones get 503 and are closed.
    pub max_connections: usize,
    /// Time from a request's first byte until its whole body has arrived.
    pub read_timeout: Duration,
    /// Time a kept-alive connection may wait for its next request.
    pub idle_timeout: Duration,
    /// Time a client has to take an answer.
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
            idle_timeout: Duration::from_secs(120),
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
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

/// Shared by every connection of one server.
struct Shared {
    gateway: Arc<Gateway>,
    opts: ServeOptions,
    connections: AtomicUsize,
    pool: Pool,
}

impl Server {
    /// Binds and starts accepting in the background.
    pub fn start(gateway: Arc<Gateway>, opts: &ServeOptions) -> crate::Result<Server> {
        let listener = TcpListener::bind(&opts.bind)
            .map_err(|e| crate::Error::storage(format!("cannot listen on {}: {e}", opts.bind)))?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let pool = Pool::new(opts.threads, gateway.clone(), opts.demo.clone())?;
        let shared = Arc::new(Shared { gateway, opts: opts.clone(), connections: AtomicUsize::new(0), pool });
        let stop2 = stop.clone();
        let accept = std::thread::Builder::new()
            .name("metagate-accept".into())
            .spawn(move || accept_loop(listener, shared, stop2))?;
        Ok(Server { addr, stop, accept: Some(accept) })
    }

    /// The address actually bound (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Blocks while the server runs (until [`Server::shutdown`] from another handle or
    /// the end of the process).
    pub fn wait(mut self) {
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }

    /// Stops accepting connections; open connections finish their current request.
    pub fn shutdown(mut self) {
        self.stop_accepting();
    }

    fn stop_accepting(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // The accept call blocks; a connection of our own wakes it to see the flag.
        let _ = TcpStream::connect_timeout(&wake_addr(self.addr), Duration::from_secs(1));
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.accept.is_some() {
            self.stop_accepting();
        }
    }
}

/// Where to connect to reach a listener bound to `addr` (an unspecified address is
/// reachable on loopback).
fn wake_addr(addr: SocketAddr) -> SocketAddr {
    let mut a = addr;
    if a.ip().is_unspecified() {
        a.set_ip(match a {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    a
}

fn accept_loop(listener: TcpListener, shared: Arc<Shared>, stop: Arc<AtomicBool>) {
    for conn in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = conn else {
            // Out of descriptors or an aborted handshake: back off briefly, keep serving.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        let open = shared.connections.fetch_add(1, Ordering::SeqCst);
        if open >= shared.opts.max_connections {
            shared.connections.fetch_sub(1, Ordering::SeqCst);
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let body = br#"{"error":"too many open connections","status":503}"#;
            let _ = write_raw(&stream, 503, &[("Content-Type", "application/json; charset=UTF-8")], body, false, true);
            continue;
        }
        let shared2 = shared.clone();
        let spawned = std::thread::Builder::new().name("metagate-conn".into()).spawn(move || {
            serve_connection(stream, &shared2);
            shared2.connections.fetch_sub(1, Ordering::SeqCst);
        });
        if spawned.is_err() {
            shared.connections.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// A request handed to the worker pool and the channel its answer goes back on.
type Job = (Request, std::sync::mpsc::SyncSender<Response>);

/// `threads` workers answering requests first come, first served. Connection threads
/// only read and write sockets; a FIFO queue in front of a fixed set of workers keeps
/// the latency tail short when many connections compete for few cores (a semaphore
/// woken by condvar would wake every waiter on each release).
struct Pool {
    tx: Mutex<std::sync::mpsc::Sender<Job>>,
}

impl Pool {
    fn new(threads: usize, gateway: Arc<Gateway>, demo: Option<DemoPage>) -> std::io::Result<Pool> {
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for _ in 0..threads.max(1) {
            let rx = rx.clone();
            let gateway = gateway.clone();
            let demo = demo.clone();
            std::thread::Builder::new().name("metagate-worker".into()).spawn(move || loop {
                // The lock is held only while taking a job, not while answering it.
                let job = rx.lock().unwrap_or_else(|p| p.into_inner()).recv();
                let Ok((req, reply)) = job else { return };
                let _ = reply.send(answer(&gateway, demo.as_ref(), &req));
            })?;
        }
        Ok(Pool { tx: Mutex::new(tx) })
    }

    /// Answers `req` on a worker; gives the request back if the pool is gone.
    fn answer(&self, req: Request) -> Result<(Request, Response), ()> {
        let (reply_tx, reply_rx) = std::sync::mpsc::sync_channel(1);
        // The request is needed again for the access log; the clone is cheap next to a search.
        let keep =
            Request { method: req.method.clone(), path: req.path.clone(), headers: Vec::new(), body: Vec::new() };
        self.tx.lock().unwrap_or_else(|p| p.into_inner()).send((req, reply_tx)).map_err(|_| ())?;
        reply_rx.recv().map(|resp| (keep, resp)).map_err(|_| ())
    }
}

/// The answer to one request: the demo page's, when it is served and the path is its,
/// else the gateway's. Both run on the workers: reading and gzipping a large file is work
/// that `threads` should bound as much as a search.
fn answer(gateway: &Gateway, demo: Option<&DemoPage>, req: &Request) -> Response {
    demo.and_then(|d| d.answer(req)).unwrap_or_else(|| gateway.handle(req))
}

/// Why reading a request stopped.
#[derive(Debug)]
enum ReadFail {
    /// The client closed (or went idle) between requests: close quietly.
    Closed,
    /// The request did not arrive in time: 408.
    Timeout,
    /// Malformed request: 400 with this text.
    Bad(&'static str),
    /// Body larger than allowed: 413.
    TooLarge,
    /// Transfer coding we do not decode: 501.
    UnsupportedTransferEncoding,
}

/// A parsed request plus what the connection needs to know about it.
struct Incoming {
    req: Request,
    keep_alive: bool,
    http10: bool,
}

fn serve_connection(stream: TcpStream, shared: &Shared) {
    let opts = &shared.opts;
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(opts.write_timeout));
    let Ok(read_half) = stream.try_clone() else { return };
    let mut reader = BufReader::with_capacity(16 * 1024, Deadline::new(read_half));
    loop {
        let incoming = read_request(&mut reader, opts);
        let (incoming, answer_started) = match incoming {
            Ok(x) => (x, Instant::now()),
            Err(ReadFail::Closed) => return,
            Err(fail) => {
                let (status, text): (u16, &str) = match fail {
                    ReadFail::Timeout => (408, ""),
                    ReadFail::Bad(t) => (400, t),
                    ReadFail::TooLarge => (413, ""),
                    ReadFail::UnsupportedTransferEncoding => (501, "Transfer-Encoding is not supported"),
                    ReadFail::Closed => (400, ""),
                };
                let resp = if status == 413 {
                    shared.gateway.payload_too_large(opts.max_body)
                } else {
                    shared.gateway.transport_error(status, text)
                };
                let _ = write_response(&stream, &resp, false, true);
                // Let the client read the answer before the socket goes away.
                let _ = stream.shutdown(Shutdown::Write);
                drain_briefly(&mut reader);
                return;
            }
        };
        let keep = incoming.keep_alive;
        let http10 = incoming.http10;
        let Ok((req, resp)) = shared.pool.answer(incoming.req) else { return };
        // Logged before writing, so the line exists once the client has its answer.
        if opts.access_log {
            log_line(&req, &resp, answer_started);
        }
        let ok = write_response(&stream, &resp, http10 && keep, !keep).is_ok();
        if !ok || !keep {
            let _ = stream.shutdown(Shutdown::Both);
            return;
        }
    }
}

/// Reads what is left of an abandoned request for a moment, so that closing the socket
/// does not reset the connection before the client has read our answer.
fn drain_briefly(reader: &mut BufReader<Deadline>) {
    let until = Instant::now() + Duration::from_millis(200);
    reader.get_mut().arm(until, Duration::from_millis(200));
    let mut sink = [0u8; 8192];
    let mut total = 0usize;
    while let Ok(n) = reader.read(&mut sink) {
        total += n;
        if n == 0 || total > 1 << 20 || Instant::now() > until {
            break;
        }
    }
}

/// A socket reader whose reads fail once a deadline has passed.
struct Deadline {
    stream: TcpStream,
    until: Option<Instant>,
    /// The read timeout currently set on the socket (set only when it changes).
    current: Option<Duration>,
}

impl Deadline {
    fn new(stream: TcpStream) -> Deadline {
        Deadline { stream, until: None, current: None }
    }

    /// Reads block at most `per_read` and fail after `until`.
    fn arm(&mut self, until: Instant, per_read: Duration) {
        self.until = Some(until);
        if self.current != Some(per_read) {
            let _ = self.stream.set_read_timeout(Some(per_read.max(Duration::from_millis(1))));
            self.current = Some(per_read);
        }
    }
}

impl Read for Deadline {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(until) = self.until {
            if Instant::now() >= until {
                return Err(std::io::Error::new(ErrorKind::TimedOut, "request deadline passed"));
            }
        }
        self.stream.read(buf)
    }
}

fn io_fail(e: std::io::Error, got_any: bool) -> ReadFail {
    match e.kind() {
        ErrorKind::WouldBlock | ErrorKind::TimedOut if got_any => ReadFail::Timeout,
        _ => ReadFail::Closed,
    }
}

/// Reads one line of the head (without CRLF), counting against the head budget.
fn read_line(r: &mut BufReader<Deadline>, budget: &mut usize, got_any: bool) -> Result<String, ReadFail> {
    let mut line = Vec::new();
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_fail(e, got_any || !line.is_empty())),
        };
        if buf.is_empty() {
            return Err(if got_any || !line.is_empty() {
                ReadFail::Bad("incomplete request")
            } else {
                ReadFail::Closed
            });
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        if chunk.len() > *budget {
            return Err(ReadFail::Bad("request head too large"));
        }
        *budget -= chunk.len();
        line.extend_from_slice(chunk);
        let n = chunk.len();
        r.consume(n);
        if done {
            while matches!(line.last(), Some(b'\n' | b'\r')) {
                line.pop();
            }
            return String::from_utf8(line).map_err(|_| ReadFail::Bad("request head is not UTF-8"));
        }
    }
}

fn read_request(r: &mut BufReader<Deadline>, opts: &ServeOptions) -> Result<Incoming, ReadFail> {
    // Between requests the connection may idle; once bytes arrive the request has
    // `read_timeout` in total.
    let idle_until = Instant::now() + opts.idle_timeout;
    r.get_mut().arm(idle_until, opts.idle_timeout);
    let mut budget = MAX_HEAD;
    let mut line = String::new();
    // RFC 9112: ignore empty lines before a request line.
    while line.is_empty() {
        if r.buffer().is_empty() {
            match r.fill_buf() {
                Ok([]) => return Err(ReadFail::Closed),
                Ok(_) => {}
                Err(e) => return Err(io_fail(e, false)),
            }
        }
        let deadline = Instant::now() + opts.read_timeout;
        r.get_mut().arm(deadline, opts.read_timeout);
        line = read_line(r, &mut budget, true)?;
    }
    let mut parts = line.split(' ').filter(|s| !s.is_empty());
    let (Some(method), Some(target), Some(version), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(ReadFail::Bad("malformed request line"));
    };
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        _ => return Err(ReadFail::Bad("unsupported HTTP version")),
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(ReadFail::Bad("malformed request method"));
    }
    let path = origin_form(target).ok_or(ReadFail::Bad("malformed request target"))?;
    let mut headers: Vec<(String, String)> = Vec::new();
    loop {
        let h = read_line(r, &mut budget, true)?;
        if h.is_empty() {
            break;
        }
        let Some((name, value)) = h.split_once(':') else {
            return Err(ReadFail::Bad("malformed header"));
        };
        if name.is_empty() || name.ends_with([' ', '\t']) {
            return Err(ReadFail::Bad("malformed header"));
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
    let get = |n: &str| headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(n)).map(|(_, v)| v.as_str());
    let connection = get("connection").unwrap_or("").to_ascii_lowercase();
    let keep_alive = if http10 { connection.contains("keep-alive") } else { !connection.contains("close") };
    let chunked = match get("transfer-encoding") {
        None => false,
        Some(te) if te.eq_ignore_ascii_case("chunked") => true,
        Some(_) => return Err(ReadFail::UnsupportedTransferEncoding),
    };
    let length = match get("content-length") {
        None => None,
        // Both framings at once is how requests are smuggled past proxies: refuse it.
        Some(_) if chunked => return Err(ReadFail::Bad("both Content-Length and Transfer-Encoding")),
        Some(v) => Some(v.parse::<u64>().map_err(|_| ReadFail::Bad("malformed Content-Length"))?),
    };
    if length.is_some_and(|n| n > opts.max_body as u64) {
        return Err(ReadFail::TooLarge);
    }
    let expects_continue = get("expect").is_some_and(|e| e.eq_ignore_ascii_case("100-continue"));
    if expects_continue && !http10 && (chunked || length.unwrap_or(0) > 0) {
        // curl waits a second for this before sending bodies over 1 KiB.
        let _ = (&r.get_ref().stream).write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    let body = if chunked {
        read_chunked(r, opts.max_body)?
    } else {
        let n = length.unwrap_or(0) as usize;
        let mut body = vec![0u8; n];
        read_exact(r, &mut body)?;
        body
    };
    Ok(Incoming { req: Request { method: method.to_string(), path, headers, body }, keep_alive, http10 })
}

fn read_exact(r: &mut BufReader<Deadline>, buf: &mut [u8]) -> Result<(), ReadFail> {
    r.read_exact(buf).map_err(|e| match e.kind() {
        ErrorKind::UnexpectedEof => ReadFail::Bad("incomplete request body"),
        ErrorKind::WouldBlock | ErrorKind::TimedOut => ReadFail::Timeout,
        _ => ReadFail::Closed,
    })
}

fn read_chunked(r: &mut BufReader<Deadline>, max_body: usize) -> Result<Vec<u8>, ReadFail> {
    let mut body = Vec::new();
    let mut budget = MAX_HEAD;
    loop {
        let line = read_line(r, &mut budget, true)?;
        let size = line.split(';').next().unwrap_or("").trim();
        let n = usize::from_str_radix(size, 16).map_err(|_| ReadFail::Bad("malformed chunk size"))?;
        if n == 0 {
            // Trailers, up to the empty line.
            while !read_line(r, &mut budget, true)?.is_empty() {}
            return Ok(body);
        }
        if body.len().saturating_add(n) > max_body {
            return Err(ReadFail::TooLarge);
        }
        let start = body.len();
        body.resize(start + n, 0);
        read_exact(r, &mut body[start..])?;
        if !read_line(r, &mut budget, true)?.is_empty() {
            return Err(ReadFail::Bad("malformed chunk"));
        }
        // Each chunk's size line is small; the head budget bounds their number.
        budget = budget.max(1024);
    }
}

/// The path and query of a request target (absolute-form `http://host/p` is reduced to `/p`).
fn origin_form(target: &str) -> Option<String> {
    if target.starts_with('/') {
        return Some(target.to_string());
    }
    for scheme in ["http://", "https://"] {
        if let Some(rest) =
            target.get(..scheme.len()).filter(|s| s.eq_ignore_ascii_case(scheme)).map(|_| &target[scheme.len()..])
        {
            return Some(match rest.find(['/', '?']) {
                Some(i) if rest[i..].starts_with('/') => rest[i..].to_string(),
                Some(i) => format!("/{}", &rest[i..]),
                None => "/".to_string(),
            });
        }
    }
    // `OPTIONS *` and the like: the gateway answers them as unknown routes.
    (target == "*").then(|| target.to_string())
}

fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        206 => "Partial Content",
        301 => "Moved Permanently",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        408 => "Request Timeout",
        413 => "Request Entity Too Large",
        416 => "Range Not Satisfiable",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

/// Writes a gateway response. A `Content-Length` header from the gateway (HEAD answers)
/// is kept; otherwise the body's length is sent.
fn write_response(stream: &TcpStream, resp: &Response, say_keep_alive: bool, close: bool) -> std::io::Result<()> {
    let headers: Vec<(&str, &str)> = resp.headers.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    write_raw(stream, resp.status, &headers, &resp.body, say_keep_alive, close)
}

fn write_raw(
    mut stream: &TcpStream,
    status: u16,
    headers: &[(&str, &str)],
    body: &[u8],
    say_keep_alive: bool,
    close: bool,
) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(256 + body.len());
    out.extend_from_slice(format!("HTTP/1.1 {status} {}\r\n", reason(status)).as_bytes());
    let mut has_length = false;
    for (k, v) in headers {
        // Header values come from the gateway, but a CR or LF would split the response.
        if k.contains(['\r', '\n', ':']) || v.contains(['\r', '\n']) {
            continue;
        }
        has_length |= k.eq_ignore_ascii_case("content-length");
        out.extend_from_slice(k.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(v.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if !has_length {
        out.extend_from_slice(format!("content-length: {}\r\n", body.len()).as_bytes());
    }
    if close {
        out.extend_from_slice(b"connection: close\r\n");
    } else if say_keep_alive {
        out.extend_from_slice(b"connection: keep-alive\r\n");
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(body);
    stream.write_all(&out)?;
    stream.flush()
}

fn log_line(req: &Request, resp: &Response, started: Instant) {
    eprintln!(
        "{} {} {} {:.1}ms key={}",
        req.method,
        redact(&req.path),
        resp.status,
        started.elapsed().as_secs_f64() * 1000.0,
        resp.key_name.as_deref().unwrap_or("-")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_forms() {
        assert_eq!(origin_form("/a/_search?q=x").as_deref(), Some("/a/_search?q=x"));
        assert_eq!(origin_form("http://h:9200/a/_search").as_deref(), Some("/a/_search"));
        assert_eq!(origin_form("HTTP://h:9200").as_deref(), Some("/"));
        assert_eq!(origin_form("http://h?x=1").as_deref(), Some("/?x=1"));
        assert_eq!(origin_form("*").as_deref(), Some("*"));
        assert_eq!(origin_form("a/b"), None);
    }
}
