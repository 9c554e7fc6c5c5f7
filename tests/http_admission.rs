//! The server's admission of requests, over real sockets: heads are checked before bodies
//! are read, bodies share an in-flight byte budget, a bounded queue shares the workers
//! fairly between keys, a client that hangs up cancels its request (and the access log
//! says so), key bookkeeping never waits for the file's write lock on a request's time,
//! and heads with many headers are taken.
//!
//! Slow requests come from a fake upstream cluster whose searches of `slow` run until
//! released or cancelled (it looks at the request's budget as the engine's loops do), so
//! the tests need no heavy query. Margins are wide: the tests check what happens, not how
//! fast.

mod common;
use common::http::{connect, raw_request, read_response, send, Resp};
use metagate::compat::ClusterVersion;
use metagate::gateway::upstream::{Forward, Upstream};
use metagate::gateway::{keys, Gateway, GatewayConfig, Response};
use metagate::http::{ServeOptions, Server};
use metagate::Engine;
use serde_json::json;
use std::io::{BufReader, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A cluster whose searches of `slow` last until released (or cancelled, or 20 s).
#[derive(Debug, Default)]
struct SlowCluster {
    started: AtomicUsize,
    cancelled: AtomicUsize,
    released: AtomicBool,
}

impl Upstream for SlowCluster {
    fn version(&self) -> metagate::Result<ClusterVersion> {
        Ok(ClusterVersion::elasticsearch("6.8.23"))
    }

    fn send(&self, req: &Forward) -> metagate::Result<Response> {
        if req.path.starts_with("/slow/") {
            self.started.fetch_add(1, Ordering::SeqCst);
            let started = Instant::now();
            while !self.released.load(Ordering::SeqCst) && started.elapsed() < Duration::from_secs(20) {
                if let Err(e) = metagate::budget::check() {
                    self.cancelled.fetch_add(1, Ordering::SeqCst);
                    return Err(e);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        Ok(Response {
            status: 200,
            headers: vec![("Content-Type".into(), "application/json; charset=UTF-8".into())],
            body: br#"{"ok":true}"#.to_vec(),
            key_name: None,
        })
    }
}

struct Fixture {
    server: Server,
    cluster: Arc<SlowCluster>,
    gateway: Arc<Gateway>,
    file: PathBuf,
    /// The keys `a` and `b`.
    a: String,
    b: String,
    log: Receiver<String>,
}

impl Fixture {
    fn addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// A search of `index` with `key` on a fresh connection.
    fn search(&self, index: &str, key: &str) -> Resp {
        send(self.addr(), "GET", &format!("/elastic/v1/{index}/_search"), &[("apikey", key)], "")
    }

    /// Starts a search of `slow` with `key` on a thread of its own.
    fn slow(&self, key: &str) -> std::thread::JoinHandle<u16> {
        let (addr, key) = (self.addr(), key.to_string());
        std::thread::spawn(move || send(addr, "GET", "/elastic/v1/slow/_search", &[("apikey", &key)], "").status)
    }

    /// Waits until `n` slow searches have started.
    fn wait_started(&self, n: usize) {
        wait_for(&format!("{n} slow searches to start"), || self.cluster.started.load(Ordering::SeqCst) >= n);
    }

    /// The next access-log line (within 10 s).
    fn log_line(&self) -> String {
        self.log.recv_timeout(Duration::from_secs(10)).expect("an access-log line")
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        self.cluster.released.store(true, Ordering::SeqCst);
    }
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < Duration::from_secs(10), "waited 10 s for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn start(tag: &str, opts: ServeOptions) -> Fixture {
    let file = common::temp_file(tag);
    let engine = Engine::open_or_create(&file).unwrap();
    let (a, b) = (keys::add(&engine, "a").unwrap(), keys::add(&engine, "b").unwrap());
    let cluster = Arc::new(SlowCluster::default());
    let config = GatewayConfig { rate_limit: 0.0, upstream: Some(cluster.clone()), ..Default::default() };
    let gateway = Arc::new(Gateway::new(Arc::new(engine), config));
    let (tx, log) = channel();
    let opts = ServeOptions { bind: "127.0.0.1:0".into(), access_log_to: Some(tx), ..opts };
    let server = Server::start(gateway.clone(), &opts).unwrap();
    Fixture { server, cluster, gateway, file, a, b, log }
}

/// A head announcing a 95 MB body, then a few bytes of it: a request without a key is
/// refused at once (it could not be if the body were read first), its connection closed,
/// and the refusal logged; a keyed one over the in-flight budget is refused the same way.
#[test]
fn bodies_are_not_read_before_the_head_is_admitted() {
    let f = start("http-admission-unread", ServeOptions { threads: 2, ..Default::default() });
    let head = |key: Option<&str>| {
        let mut s = connect(f.addr());
        let key = key.map(|k| format!("apikey: {k}\r\n")).unwrap_or_default();
        let head = format!(
            "POST /elastic/v1/x/_search HTTP/1.1\r\nHost: h\r\n{key}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{{\"query\"",
            95_000_000
        );
        s.write_all(head.as_bytes()).unwrap();
        let started = Instant::now();
        let r = read_response(&mut BufReader::new(s), false);
        assert!(started.elapsed() < Duration::from_secs(5), "the answer waited for the body");
        r
    };
    let r = head(None);
    assert_eq!(r.status, 401);
    assert_eq!(r.header("connection"), ["close"]);
    assert_eq!(r.json()["error"]["reason"], "missing authentication token for REST request [/elastic/v1/x/_search]");
    let line = f.log_line();
    assert!(line.starts_with("POST /elastic/v1/x/_search 401 ") && line.ends_with("key=-"), "{line}");
    let r = head(Some("not-a-key"));
    assert_eq!(r.status, 403);
    assert_eq!(r.header("connection"), ["close"]);
    assert!(f.log_line().contains(" 403 "));
    assert_eq!(f.search("quick", &f.a).status, 200);
}

/// Bodies being read or answered share `max_in_flight_bytes`: one that would pass it is
/// ES's 429 `circuit_breaking_exception`, unread; the bytes come back once answered.
#[test]
fn bodies_share_the_in_flight_budget() {
    let f = start("http-admission-in-flight", ServeOptions { max_in_flight_bytes: 1000, ..Default::default() });
    let mut s = connect(f.addr());
    s.write_all(
        format!("POST /elastic/v1/x/_search HTTP/1.1\r\napikey: {}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{{", f.a)
            .as_bytes(),
    )
    .unwrap();
    let r = read_response(&mut BufReader::new(s), false);
    assert_eq!(r.status, 429);
    assert_eq!(r.header("connection"), ["close"]);
    let reason = "[in_flight_requests] Data too large, data for [<http_request>] would be [5000/4.8kb], which is larger than the limit of [1000/1000b]";
    assert_eq!(
        r.json(),
        json!({"error":{"root_cause":[{"type":"circuit_breaking_exception","reason":reason,"bytes_wanted":5000,"bytes_limit":1000}],"type":"circuit_breaking_exception","reason":reason,"bytes_wanted":5000,"bytes_limit":1000},"status":429})
    );
    // A 600-byte body held by a slow request leaves room for no second one...
    let body = format!("{{\"size\":0{}}}", " ".repeat(590));
    assert_eq!(body.len(), 600);
    let (addr, key, b2) = (f.addr(), f.a.clone(), body.clone());
    let slow = std::thread::spawn(move || {
        send(addr, "POST", "/elastic/v1/slow/_search", &[("apikey", &key), ("Content-Type", "application/json")], &b2)
            .status
    });
    f.wait_started(1);
    let post = |f: &Fixture| {
        send(
            f.addr(),
            "POST",
            "/elastic/v1/x/_search",
            &[("apikey", &f.b), ("Content-Type", "application/json")],
            &body,
        )
    };
    let r = post(&f);
    assert_eq!(r.status, 429);
    assert!(r.json()["error"]["reason"].as_str().unwrap().contains("would be [1200/1.1kb]"), "{}", r.text());
    // ...until it is answered.
    f.cluster.released.store(true, Ordering::SeqCst);
    assert_eq!(slow.join().unwrap(), 200);
    assert_eq!(post(&f).status, 200);
}

/// One worker, a queue of one: a third request is refused with ES's rejection.
#[test]
fn a_full_queue_is_refused_with_429() {
    let opts = ServeOptions { threads: 1, queue_size: 1, ..Default::default() };
    let f = start("http-admission-queue", opts);
    let running = f.slow(&f.a);
    f.wait_started(1);
    let queued = f.slow(&f.a);
    // The queued request has no visible sign: give it ample time to arrive.
    std::thread::sleep(Duration::from_millis(1000));
    let r = f.search("quick", &f.b);
    assert_eq!(r.status, 429, "{}", r.text());
    let reason = format!(
        "rejected execution of request [GET /elastic/v1/quick/_search] on metagate worker pool[name = {}/search, \
         queue capacity = 1, metagate.http.Pool[Running, pool size = 1, active threads = 1, queued tasks = 1, \
         completed tasks = 0]]",
        metagate::NODE_ID
    );
    assert_eq!(
        r.json(),
        json!({"error":{"root_cause":[{"type":"es_rejected_execution_exception","reason":reason}],"type":"es_rejected_execution_exception","reason":reason},"status":429})
    );
    f.cluster.released.store(true, Ordering::SeqCst);
    assert_eq!((running.join().unwrap(), queued.join().unwrap()), (200, 200));
    assert_eq!(f.search("quick", &f.b).status, 200);
}

/// Two workers, a share of one each: key `a`'s three slow searches hold one worker, and
/// key `b`'s quick one is answered on the other at once.
#[test]
fn one_key_cannot_hold_every_worker() {
    let f = start("http-admission-share", ServeOptions { threads: 2, ..Default::default() });
    let slow: Vec<_> = (0..3).map(|_| f.slow(&f.a)).collect();
    f.wait_started(1);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(f.cluster.started.load(Ordering::SeqCst), 1, "key a holds more than its share");
    let started = Instant::now();
    assert_eq!(f.search("quick", &f.b).status, 200);
    assert!(started.elapsed() < Duration::from_secs(5), "key b waited for key a");
    f.cluster.released.store(true, Ordering::SeqCst);
    for s in slow {
        assert_eq!(s.join().unwrap(), 200);
    }
}

/// A client that hangs up cancels its request: the running one sees its cancel flag (and
/// the access log has its line), a queued one never starts.
#[test]
fn a_client_that_hangs_up_cancels_its_request() {
    let f = start("http-admission-hang-up", ServeOptions { threads: 1, ..Default::default() });
    let request = raw_request("GET", "/elastic/v1/slow/_search?q=x", &[("apikey", &f.a)], "");
    let mut running = connect(f.addr());
    running.write_all(&request).unwrap();
    f.wait_started(1);
    let mut queued = connect(f.addr());
    queued.write_all(&request).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    drop(queued);
    let line = f.log_line();
    assert!(line.starts_with("GET /elastic/v1/slow/_search?q=x 499 ") && line.ends_with("key=a cancelled"), "{line}");
    drop(running);
    wait_for("the running search to see its cancel flag", || f.cluster.cancelled.load(Ordering::SeqCst) == 1);
    let line = f.log_line();
    assert!(line.starts_with("GET /elastic/v1/slow/_search?q=x 499 ") && line.ends_with("key=a cancelled"), "{line}");
    // The worker is free again, and the queued request was dropped unstarted.
    assert_eq!(f.search("quick", &f.a).status, 200);
    assert_eq!(f.cluster.started.load(Ordering::SeqCst), 1);
    assert!(f.log_line().starts_with("GET /elastic/v1/quick/_search 200 "));
}

/// While another writer holds the file's write lock (as a load in another process does),
/// a keyed request is answered at once; its key's last use is written once the lock is
/// free.
#[test]
fn key_bookkeeping_does_not_wait_for_the_write_lock() {
    let f = start("http-admission-bookkeeping", ServeOptions { threads: 1, ..Default::default() });
    let mut builder = redb::Builder::new();
    builder.set_concurrency_mode(redb::ConcurrencyMode::MultiWriter);
    let db = builder.open(&f.file).unwrap();
    let held = db.begin_write().unwrap();
    let started = Instant::now();
    for _ in 0..3 {
        assert_eq!(f.search("quick", &f.a).status, 200);
    }
    assert!(started.elapsed() < Duration::from_secs(3), "requests waited for the write lock");
    let last_used =
        || keys::list(f.gateway.engine()).unwrap().into_iter().find(|k| k.name == "a").and_then(|k| k.last_used_ms);
    assert_eq!(last_used(), None);
    drop(held);
    wait_for("the key's last use to be written", || last_used().is_some());
}

/// Only the head's size limits headers: 150 and 1,000 small ones are taken.
#[test]
fn many_headers_are_taken() {
    let f = start("http-admission-headers", ServeOptions::default());
    for n in [150, 1000] {
        let names: Vec<String> = (0..n).map(|i| format!("X-H{i}")).collect();
        let mut headers: Vec<(&str, &str)> = names.iter().map(|h| (h.as_str(), "v")).collect();
        headers.push(("apikey", &f.a));
        let r = send(f.addr(), "GET", "/elastic/v1/quick/_search", &headers, "");
        assert_eq!(r.status, 200, "{n} headers");
    }
}
