//! `metagate serve` under 64 connections of mixed clients: valid requests on kept-alive
//! connections, invalid ones (bad JSON, unknown endpoints and parameters, wrong methods,
//! missing indices, deep nesting, garbage), abusive ones (bodies over the limit, declared
//! or streamed; heads trickled a byte at a time; pipelined requests never read). No answer
//! may be a 5xx, every valid request must be answered 200 and every invalid one 4xx, the
//! server must still answer afterwards, and its memory must stay bounded.
//!
//! The suite runs it for 10 s; the documented run (README, "Reliability") is
//! `METAGATE_BIN=target/release/metagate METAGATE_LOAD_SECS=120 cargo test --test serve_load -- --nocapture`.

mod common;
use common::cli::{env_or, gen, rss_kib, run_ok};
use common::http::{connect, raw_request, read_response, send};
use common::Served;
use std::io::{BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Concurrent client connections.
const CONNECTIONS: usize = 64;

/// What the clients counted.
#[derive(Default)]
struct Tally {
    served: AtomicU64,
    refused_as_expected: AtomicU64,
    trickled_bytes: AtomicU64,
    unread_requests: AtomicU64,
    errors: Mutex<Vec<String>>,
}

impl Tally {
    fn error(&self, e: String) {
        let mut errors = self.errors.lock().unwrap();
        if errors.len() < 20 {
            errors.push(e);
        }
    }

    /// Notes an answer that should be as `expected`.
    fn check(&self, what: &str, status: u16, body: &[u8], expected: Expect) {
        self.served.fetch_add(1, Ordering::Relaxed);
        let ok = match expected {
            Expect::Status(s) => status == s,
            Expect::StatusOrInFlight(s) => {
                status == s || (status == 429 && String::from_utf8_lossy(body).contains("[in_flight_requests]"))
            }
            Expect::Refused => (400..500).contains(&status),
            Expect::BadJson => (400..500).contains(&status) || (status == 500 && is_json_parse_exception(body)),
        };
        if !ok {
            let body = String::from_utf8_lossy(&body[..body.len().min(300)]).into_owned();
            self.error(format!("{what}: {status} {body}"));
        } else if status >= 400 {
            self.refused_as_expected.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// What an answer must be.
#[derive(Clone, Copy)]
enum Expect {
    /// Exactly this status.
    Status(u16),
    /// This status, or the in-flight breaker's 429 (bodies being read at once, all clients
    /// together, are over `--max-in-flight-bytes`).
    StatusOrInFlight(u16),
    /// A 4xx.
    Refused,
    /// A body that is not JSON ES reads: a 4xx, or the 500 `json_parse_exception` that
    /// ES 6.8 answers for malformed JSON (reference, section 1.7).
    BadJson,
}

/// Whether `body` is ES's error for malformed JSON.
fn is_json_parse_exception(body: &[u8]) -> bool {
    let v: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
    v.pointer("/error/type").and_then(|t| t.as_str()) == Some("json_parse_exception")
        && v.pointer("/status").and_then(|s| s.as_u64()) == Some(500)
}

/// The valid requests: searches of several kinds, counts, documents, mappings, `_cat`.
const VALID: [(&str, &str, &str); 8] = [
    ("GET", "/elastic/v1/Load_pr/_search?q=protein&size=5", ""),
    (
        "POST",
        "/elastic/v1/Load_pr/_search",
        r#"{"query":{"match":{"item.description":"sequence alignment"}},"size":20}"#,
    ),
    ("POST", "/elastic/v1/Load_pr/_search", r#"{"size":0,"aggs":{"t":{"terms":{"field":"item.types.name.keyword"}}}}"#),
    ("GET", "/elastic/v1/Load_pr/_count?q=genome", ""),
    ("GET", "/elastic/v1/Load_pr/rin/rrid:scr_0000001", ""),
    ("POST", "/elastic/v1/Load_pr/_mget", r#"{"ids":["rrid:scr_0000002","rrid:scr_0000003"]}"#),
    ("GET", "/elastic/v1/_cat/indices?v", ""),
    ("POST", "/elastic/v1/Load_pr/_msearch", "{}\n{\"query\":{\"match\":{\"item.name\":\"tool\"}}}\n"),
];

/// Invalid requests and what ES answers them.
fn invalid() -> Vec<(&'static str, String, String, Expect)> {
    let deep = format!("{}{}", "{\"bool\":{\"must\":".repeat(5000), "}".repeat(10_000));
    vec![
        ("POST", "/elastic/v1/Load_pr/_search".into(), "{\"query\": {\"match\": ".into(), Expect::BadJson),
        ("POST", "/elastic/v1/Load_pr/_search".into(), "{\"query\":{\"nope\":{}}}".into(), Expect::Status(400)),
        ("GET", "/elastic/v1/_nope/_nothing/here".into(), String::new(), Expect::Refused),
        ("GET", "/elastic/v1/Load_pr/_search?frobnicate=1".into(), String::new(), Expect::Status(400)),
        ("PUT", "/elastic/v1/Load_pr/_search".into(), "{}".into(), Expect::Refused),
        ("GET", "/elastic/v1/missing_index/_search".into(), String::new(), Expect::Status(404)),
        // Deeper than any parser's stack should go: refused, never a crash.
        ("POST", "/elastic/v1/Load_pr/_search".into(), format!("{{\"query\":{deep}}}"), Expect::BadJson),
        ("GET", "/elastic/v1/Load_pr/_search?q=item.name:(((((".into(), String::new(), Expect::Status(400)),
    ]
}

/// A kept-alive client of valid requests; reconnects when the server closes.
fn valid_client(port: u16, key: &str, stop: &AtomicBool, tally: &Tally) {
    let headers = [("apikey", key), ("Content-Type", "application/json")];
    let mut conn: Option<(TcpStream, BufReader<TcpStream>)> = None;
    let mut i = 0;
    while !stop.load(Ordering::Relaxed) {
        let (method, path, body) = VALID[i % VALID.len()];
        i += 1;
        let (w, r) = conn.get_or_insert_with(|| {
            let s = connect(("127.0.0.1", port));
            (s.try_clone().unwrap(), BufReader::new(s))
        });
        if w.write_all(&raw_request(method, path, &headers, body)).is_err() {
            conn = None;
            continue;
        }
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read_response(r, false))) {
            Ok(resp) => {
                tally.check(path, resp.status, &resp.body, Expect::Status(200));
                if resp.header("connection").contains(&"close") {
                    conn = None;
                }
            }
            Err(_) => {
                // A kept-alive connection the server closed while idle is expected only
                // after its read timeout (30 s), far longer than a request takes here.
                tally.error(format!("no answer to {method} {path}"));
                conn = None;
            }
        }
    }
}

/// Invalid requests, each on a fresh connection.
fn invalid_client(port: u16, key: &str, stop: &AtomicBool, tally: &Tally) {
    let headers = [("apikey", key), ("Content-Type", "application/json")];
    let requests = invalid();
    let mut i = 0;
    while !stop.load(Ordering::Relaxed) {
        let (method, path, body, expect) = &requests[i % requests.len()];
        i += 1;
        let r = send(("127.0.0.1", port), method, path, &headers, body);
        tally.check(path, r.status, &r.body, *expect);
    }
    // Bytes that are no HTTP at all: hyper's 400.
    let mut s = connect(("127.0.0.1", port));
    s.write_all(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n").unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let status = String::from_utf8_lossy(&out).split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    tally.check("garbage", status, &out, Expect::Status(400));
}

/// Bodies over the 100 MB limit, declared by `Content-Length` (refused before they are
/// read) or streamed in chunks (refused when the limit is passed), and a 5 MB body of
/// junk under the limit (a parse error).
fn huge_body_client(port: u16, key: &str, stop: &AtomicBool, tally: &Tally) {
    let chunk = vec![b'x'; 1 << 20];
    let mut i = 0;
    while !stop.load(Ordering::Relaxed) {
        i += 1;
        let mut s = connect(("127.0.0.1", port));
        let head = match i % 3 {
            0 => format!("POST /elastic/v1/Load_pr/_search HTTP/1.1\r\nHost: x\r\napikey: {key}\r\nContent-Type: application/json\r\nContent-Length: 200000000\r\n\r\n"),
            1 => format!("POST /elastic/v1/Load_pr/_search HTTP/1.1\r\nHost: x\r\napikey: {key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"),
            _ => format!("POST /elastic/v1/Load_pr/_search HTTP/1.1\r\nHost: x\r\napikey: {key}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n", 5 * chunk.len()),
        };
        s.write_all(head.as_bytes()).unwrap();
        // Send until the server answers or closes (at most 110 MB).
        let send_body = std::thread::scope(|scope| {
            let mut w = s.try_clone().unwrap();
            let chunk = &chunk;
            let mode = i % 3;
            scope.spawn(move || {
                // A declared length over the limit is refused before any body is sent.
                let parts = [0, 110, 5][mode];
                for _ in 0..parts {
                    let ok = if mode == 1 {
                        w.write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
                            .and_then(|_| w.write_all(chunk))
                            .and_then(|_| w.write_all(b"\r\n"))
                    } else {
                        w.write_all(chunk)
                    };
                    if ok.is_err() {
                        return;
                    }
                }
                if mode == 1 {
                    let _ = w.write_all(b"0\r\n\r\n");
                }
            });
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                read_response(&mut BufReader::new(s.try_clone().unwrap()), false)
            }))
        });
        match send_body {
            Ok(r) => tally.check(
                "huge body",
                r.status,
                &r.body,
                match i % 3 {
                    0 => Expect::Status(413),
                    // Four clients stream up to 100 MB each at once: the in-flight budget
                    // (256 MiB) may refuse one before its limit is reached.
                    1 => Expect::StatusOrInFlight(413),
                    _ => Expect::BadJson,
                },
            ),
            // A server that refuses a streamed body closes the connection while the body
            // still arrives; the reset may overtake its 413.
            Err(_) if i % 3 == 1 => {
                tally.refused_as_expected.fetch_add(1, Ordering::Relaxed);
            }
            Err(_) => tally.error("no answer to a huge body".into()),
        }
    }
}

/// A request head trickled one byte every 100 ms: the server must not wait on it forever
/// nor hold anyone else up.
fn trickling_client(port: u16, key: &str, stop: &AtomicBool, tally: &Tally) {
    let head = raw_request("GET", "/elastic/v1/Load_pr/_search?q=protein", &[("apikey", key)], "");
    while !stop.load(Ordering::Relaxed) {
        let mut s = connect(("127.0.0.1", port));
        for b in &head {
            if stop.load(Ordering::Relaxed) || s.write_all(&[*b]).is_err() {
                break;
            }
            tally.trickled_bytes.fetch_add(1, Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = s.shutdown(std::net::Shutdown::Both);
    }
}

/// Pipelined requests for large answers, never read: the server must drop the connection
/// (write timeout) without a worker stuck on it.
fn never_reading_client(port: u16, key: &str, stop: &AtomicBool, tally: &Tally) {
    let req = raw_request("GET", "/elastic/v1/Load_pr/_search?size=1000", &[("apikey", key)], "");
    while !stop.load(Ordering::Relaxed) {
        let s = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
        s.set_recv_buffer_size(4096).unwrap();
        s.connect(&std::net::SocketAddr::from(([127, 0, 0, 1], port)).into()).unwrap();
        let mut s: TcpStream = s.into();
        s.set_write_timeout(Some(Duration::from_secs(1))).unwrap();
        for _ in 0..50 {
            if stop.load(Ordering::Relaxed) || s.write_all(&req).is_err() {
                break;
            }
            tally.unread_requests.fetch_add(1, Ordering::Relaxed);
        }
        // Hold it, unread, for a while.
        let until = Instant::now() + Duration::from_secs(5);
        while Instant::now() < until && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
fn serve_holds_under_mixed_load() {
    let secs: u64 = env_or("METAGATE_LOAD_SECS", 10);
    let dir = std::env::temp_dir().join(format!("metagate-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("data.redb");
    let f = file.to_str().unwrap();
    let input = dir.join("corpus.ndjson");
    gen(&input, env_or("METAGATE_LOAD_RECORDS", 2_000), 5);
    run_ok(&["load", "--file", f, "--index", "load", "--alias", "Load_pr", input.to_str().unwrap()]);
    let key = run_ok(&["keys", "add", "load", "--file", f]).trim().to_string();
    let port = common::free_port();
    let child = Command::new(common::cli::bin())
        .args(["serve", "--file", f, "--bind", &format!("127.0.0.1:{port}"), "--rate-limit", "0"])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("serve.log")).unwrap())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut served = Served(child);
    common::wait_until_listening(port);
    let probe = || send(("127.0.0.1", port), "GET", VALID[0].1, &[("apikey", &key)], "").status;
    assert_eq!(probe(), 200);
    let (rss_before, _) = rss_kib(pid);

    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Tally::default());
    let started = Instant::now();
    let clients: Vec<_> = (0..CONNECTIONS)
        .map(|i| {
            let (key, stop, tally) = (key.clone(), stop.clone(), tally.clone());
            std::thread::spawn(move || match i % 16 {
                0..=9 => valid_client(port, &key, &stop, &tally),
                10 | 11 => invalid_client(port, &key, &stop, &tally),
                12 => huge_body_client(port, &key, &stop, &tally),
                13 | 14 => trickling_client(port, &key, &stop, &tally),
                _ => never_reading_client(port, &key, &stop, &tally),
            })
        })
        .collect();
    let mut rss_seen = rss_before;
    while started.elapsed() < Duration::from_secs(secs) {
        std::thread::sleep(Duration::from_millis(250));
        rss_seen = rss_seen.max(rss_kib(pid).0);
        assert!(served.0.try_wait().unwrap().is_none(), "the server died");
    }
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        c.join().unwrap();
    }
    let elapsed = started.elapsed();
    // Still answering, every worker back.
    for _ in 0..8 {
        assert_eq!(probe(), 200);
    }
    std::thread::sleep(Duration::from_secs(2));
    let (rss_after, rss_peak) = rss_kib(pid);
    assert!(served.0.try_wait().unwrap().is_none(), "the server died");
    let errors = tally.errors.lock().unwrap().clone();
    let served_n = tally.served.load(Ordering::Relaxed);
    println!(
        "serve_load: {CONNECTIONS} connections for {elapsed:.0?}: {served_n} requests answered ({:.0}/s), \
         {} refused as ES refuses them, {} errors; {} bytes trickled, {} requests sent and never read; \
         RSS before {} MiB, peak {} MiB, after {} MiB",
        served_n as f64 / elapsed.as_secs_f64(),
        tally.refused_as_expected.load(Ordering::Relaxed),
        errors.len(),
        tally.trickled_bytes.load(Ordering::Relaxed),
        tally.unread_requests.load(Ordering::Relaxed),
        rss_before / 1024,
        rss_peak.max(rss_seen) / 1024,
        rss_after / 1024,
    );
    assert!(errors.is_empty(), "{errors:#?}");
    assert!(served_n > 100, "only {served_n} answers in {elapsed:?}");
    // Bodies are refused before the limit is buffered twice over, and unread answers are
    // dropped: the peak stays well under what 64 connections could pile up.
    assert!(rss_peak < 1024 * 1024, "peak RSS {} MiB", rss_peak / 1024);
    let _ = std::fs::remove_dir_all(&dir);
}
