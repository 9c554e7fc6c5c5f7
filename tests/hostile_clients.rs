//! `metagate serve` against clients that try to take it away from everyone else: heavy
//! queries that would run for a minute, clients that send them and hang up, unauthenticated
//! bodies of 95 MB, an `_msearch` asking for 600,000 hits, and a file aged by scroll
//! churn. Each part checks that a normal client is still served, and that memory and the
//! cost of a request stay bounded.
//!
//! The suite runs it on 20,000 generated records and 3,000 scroll cycles; the documented
//! run (README, "Reliability") is
//! `cargo build --release && METAGATE_BIN=target/release/metagate METAGATE_HOSTILE_RECORDS=200000 METAGATE_HOSTILE_SCROLLS=100000 cargo test --test hostile_clients -- --nocapture`.

mod common;
use common::cli::{bin, env_or, gen, rss_kib, run_ok};
use common::http::{connect, raw_request, read_response, send};
use common::{temp_file, wait_until_listening, Served};
use serde_json::{json, Value};
use std::io::{BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Worker threads of the server under test (the probe ran the default, 4).
const THREADS: usize = 4;
/// The per-request breaker the server runs with.
const REQUEST_BYTES: u64 = 64 * 1024 * 1024;
/// The body bytes all requests may hold at once.
const IN_FLIGHT_BYTES: u64 = 128 * 1024 * 1024;
/// How long a request may run at most.
const MAX_REQUEST_SECS: u64 = 8;
/// The longest a normal query may wait while the server is under attack.
const NORMAL_WITHIN: Duration = Duration::from_secs(1);

struct Server {
    _child: Served,
    pid: u32,
    port: u16,
    log: std::path::PathBuf,
}

fn base(port: u16) -> String {
    format!("127.0.0.1:{port}")
}

/// Starts `metagate serve` on `file` with the limits above, its access log in a file.
fn start(file: &str) -> Server {
    let port = common::free_port();
    let log = temp_file("hostile-log");
    let child = Command::new(bin())
        .args(["serve", "--file", file, "--bind", &base(port), "--rate-limit", "0"])
        .args(["--threads", &THREADS.to_string()])
        .args(["--max-request-time", &MAX_REQUEST_SECS.to_string()])
        .args(["--max-request-bytes", &REQUEST_BYTES.to_string()])
        .args(["--max-in-flight-bytes", &IN_FLIGHT_BYTES.to_string()])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("metagate serve starts");
    let pid = child.id();
    let served = Served(child);
    wait_until_listening(port);
    Server { _child: served, pid, port, log }
}

/// A search as a client with `key` sends it; the answer and how long it took.
fn search(port: u16, key: &str, path: &str, body: &Value) -> (u16, Value, Duration) {
    let started = Instant::now();
    let text = body.to_string();
    // Heavy requests may wait for their key's share of the workers, then run to the cap.
    let mut s = connect(base(port));
    s.set_read_timeout(Some(Duration::from_secs(4 * MAX_REQUEST_SECS + 30))).unwrap();
    let headers = [("apikey", key), ("Content-Type", "application/json")];
    s.write_all(&raw_request("POST", &format!("/elastic/v1/{path}"), &headers, &text)).unwrap();
    let r = read_response(&mut BufReader::new(s), false);
    (r.status, serde_json::from_slice(&r.body).unwrap_or(Value::Null), started.elapsed())
}

/// The normal client's query: one word, ten hits.
fn normal_query(port: u16, key: &str) -> Duration {
    let (status, v, took) =
        search(port, key, "reg/_search", &json!({"query": {"match": {"item.description": "protein"}}}));
    assert_eq!(status, 200, "{v}");
    assert!(v["hits"]["total"].as_u64().unwrap() > 0);
    took
}

/// `n` words of the corpus's descriptions, repeated as needed.
fn words(corpus: &str, n: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in corpus.lines().filter(|l| l.contains("\"description\"")) {
        let v: Value = serde_json::from_str(line).unwrap();
        for w in v["item"]["description"].as_str().unwrap_or("").split_whitespace() {
            let w: String = w.chars().filter(|c| c.is_alphanumeric()).collect();
            if w.len() > 3 && !out.contains(&w) {
                out.push(w);
            }
        }
        if out.len() >= 2000 {
            break;
        }
    }
    (0..n).map(|i| out[i % out.len()].clone()).collect()
}

/// A `match` of 1,000 words, each expanded to the terms two edits away.
fn heavy_fuzzy(words: &[String]) -> Value {
    json!({"query": {"match": {"item.description": {"query": words[..1000].join(" "), "fuzziness": 2}}}})
}

/// A phrase of 100,000 words (about 800 KB).
fn heavy_phrase(words: &[String]) -> Value {
    json!({"query": {"match_phrase": {"item.description": words.join(" ")}}})
}

/// Sends `body` as a client that hangs up after `after`.
fn send_and_hang_up(port: u16, key: &str, body: &Value, after: Duration) {
    let mut s = connect(base(port));
    let text = body.to_string();
    let req =
        raw_request("POST", "/elastic/v1/reg/_search", &[("apikey", key), ("Content-Type", "application/json")], &text);
    s.write_all(&req).unwrap();
    std::thread::sleep(after);
    drop(s);
}

/// Lines of the access log that say a request was cancelled.
fn cancelled_lines(log: &std::path::Path) -> usize {
    std::fs::read_to_string(log).unwrap_or_default().lines().filter(|l| l.contains("cancelled")).count()
}

#[test]
fn hostile_clients_cannot_hold_the_server() {
    let records: usize = env_or("METAGATE_HOSTILE_RECORDS", 20_000);
    let scroll_cycles: usize = env_or("METAGATE_HOSTILE_SCROLLS", 3_000);
    let file = temp_file("hostile");
    let input = file.with_extension("ndjson");
    gen(&input, records, 7);
    let f = file.to_str().unwrap();
    run_ok(&["load", "--file", f, "--index", "reg", "--family", "registry", input.to_str().unwrap()]);
    let heavy_key = run_ok(&["keys", "add", "heavy", "--file", f]).trim().to_string();
    let normal_key = run_ok(&["keys", "add", "normal", "--file", f]).trim().to_string();
    let corpus = std::fs::read_to_string(&input).unwrap();
    let vocabulary = words(&corpus, 100_000);
    drop(corpus);
    let server = start(f);
    let port = server.port;
    let baseline = normal_query(port, &normal_key);
    println!("normal query alone: {baseline:?}");

    // 1. Four heavy queries of one key hold at most its share of the workers, and each
    //    ends by the server's cap: a normal client's query is answered meanwhile.
    for (name, heavy) in [("fuzzy", heavy_fuzzy(&vocabulary)), ("phrase", heavy_phrase(&vocabulary))] {
        let started = Instant::now();
        let runners: Vec<_> = (0..4)
            .map(|_| {
                let (key, body) = (heavy_key.clone(), heavy.clone());
                std::thread::spawn(move || search(port, &key, "reg/_search", &body))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(500));
        let waits: Vec<Duration> = (0..3).map(|_| normal_query(port, &normal_key)).collect();
        println!("normal query beside 4 heavy {name} queries: {waits:?}");
        assert!(waits.iter().all(|w| *w < NORMAL_WITHIN), "{name}: {waits:?}");
        for r in runners {
            let (status, v, took) = r.join().unwrap();
            // Two run at once (the key's share), so the last ends within two caps and a bit.
            assert!(took < Duration::from_secs(2 * MAX_REQUEST_SECS + 10), "{name} ran {took:?}");
            // A heavy query ends by its deadline with what it found, or earlier, complete.
            assert_eq!(status, 200, "{name}: {v}");
            println!("heavy {name}: {took:?}, timed_out {}", v["timed_out"]);
        }
        println!("4 heavy {name} queries ended after {:?}", started.elapsed());
    }

    // 2. Eight clients send heavy queries and hang up: their work stops, so even the same
    //    key's next query is answered at once, and each is logged as cancelled.
    let before = cancelled_lines(&server.log);
    // (A 100,000-word phrase now ends within 200 ms, so the abandoned ones are fuzzy.)
    let heavy = heavy_fuzzy(&vocabulary);
    for _ in 0..8 {
        send_and_hang_up(port, &heavy_key, &heavy, Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_millis(300));
    let waits: Vec<Duration> = (0..3).map(|_| normal_query(port, &heavy_key)).collect();
    println!("normal query after 8 abandoned heavy ones: {waits:?}");
    assert!(waits.iter().all(|w| *w < NORMAL_WITHIN), "{waits:?}");
    let deadline = Instant::now() + Duration::from_secs(10);
    while cancelled_lines(&server.log) < before + 8 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let log = std::fs::read_to_string(&server.log).unwrap_or_default();
    let tail: Vec<&str> = log.lines().rev().take(14).collect();
    assert_eq!(cancelled_lines(&server.log) - before, 8, "every abandoned request is logged as cancelled: {tail:#?}");

    // 3. Twenty-four unauthenticated 95 MB bodies: refused from the head, never read.
    let (rss_before, _) = rss_kib(server.pid);
    let posters: Vec<_> = (0..24)
        .map(|_| {
            std::thread::spawn(move || {
                let len = 95 * 1024 * 1024;
                let mut s = connect(base(port));
                let head = format!(
                    "POST /elastic/v1/reg/_search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {len}\r\n\r\n"
                );
                s.write_all(head.as_bytes()).unwrap();
                s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
                let mut r = BufReader::new(s.try_clone().unwrap());
                let status = read_response(&mut r, false).status;
                // The server answered without the body; whatever is sent now is not read.
                let chunk = vec![b' '; 1 << 16];
                let mut sent = 0usize;
                while sent < len && s.write_all(&chunk).is_ok() {
                    sent += chunk.len();
                }
                (status, sent)
            })
        })
        .collect();
    for p in posters {
        let (status, sent) = p.join().unwrap();
        assert_eq!(status, 401);
        assert!(sent < 95 * 1024 * 1024, "the server read a refused body to its end");
    }
    let (rss_after, _) = rss_kib(server.pid);
    println!("RSS around 24 unauthenticated 95 MB bodies: {rss_before} KiB before, {rss_after} KiB after");
    assert!(rss_after < rss_before + IN_FLIGHT_BYTES / 1024, "{rss_before} -> {rss_after} KiB");
    assert!(normal_query(port, &normal_key) < NORMAL_WITHIN);

    // 4. An `_msearch` of 60 searches for 10,000 hits each: every answer within the
    //    request breaker, the items past it answered with the breaker's 429.
    let mut ndjson = String::new();
    for _ in 0..60 {
        ndjson.push_str("{}\n{\"query\":{\"match_all\":{}},\"size\":10000}\n");
    }
    let (_, peak_before) = rss_kib(server.pid);
    let r = send(
        base(port),
        "POST",
        "/elastic/v1/reg/_msearch",
        &[("apikey", &normal_key), ("Content-Type", "application/x-ndjson")],
        &ndjson,
    );
    assert_eq!(r.status, 200);
    assert!((r.body.len() as u64) < REQUEST_BYTES + 1024 * 1024, "answer of {} bytes", r.body.len());
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    let items = v["responses"].as_array().unwrap();
    assert_eq!(items.len(), 60);
    let refused = items.iter().filter(|i| i["status"] == 429).count();
    for i in items.iter().filter(|i| i["status"] == 429) {
        assert_eq!(i["error"]["type"], "circuit_breaking_exception", "{i}");
    }
    assert!(refused > 0 || records < 10_000, "60 x 10,000 hits fit the breaker?");
    let (_, peak_after) = rss_kib(server.pid);
    println!(
        "_msearch of 60 x 10,000 hits: {} bytes, {refused} items refused; peak RSS {peak_before} -> {peak_after} KiB",
        r.body.len()
    );
    assert!(peak_after < peak_before.max(64 * 1024) + 3 * REQUEST_BYTES / 1024, "{peak_before} -> {peak_after} KiB");

    // 5. Scroll churn: a clear costs the same on a file aged by many start/clear cycles.
    let clear_time = |n: usize| -> Duration {
        let mut times = Vec::with_capacity(n);
        for _ in 0..n {
            let (status, v, _) =
                search(port, &normal_key, "reg/_search?scroll=1m", &json!({"size": 1, "query": {"match_all": {}}}));
            assert_eq!(status, 200, "{v}");
            let id = v["_scroll_id"].as_str().unwrap().to_string();
            let started = Instant::now();
            let r = send(
                base(port),
                "DELETE",
                "/elastic/v1/_search/scroll",
                &[("apikey", &normal_key), ("Content-Type", "application/json")],
                &json!({"scroll_id": [id]}).to_string(),
            );
            times.push(started.elapsed());
            assert_eq!(r.status, 200);
        }
        times.sort();
        times[n / 2]
    };
    let fresh = clear_time(200);
    let started = Instant::now();
    let _ = clear_time(scroll_cycles);
    let aged = clear_time(200);
    println!(
        "a scroll clear's median: {fresh:?} on a fresh file, {aged:?} after {scroll_cycles} more cycles ({:?})",
        started.elapsed()
    );
    assert!(aged <= fresh * 2 + Duration::from_millis(2), "{fresh:?} -> {aged:?}");
    assert!(normal_query(port, &normal_key) < NORMAL_WITHIN);
    let _ = std::fs::remove_file(&input);
}
