//! The HTTP server's limits against hostile clients, each checked while a well-behaved
//! client is being served: a request head trickled byte by byte is cut off, a client that
//! never reads its answers is dropped without holding the only worker, connections over
//! the cap are refused with 503, and heads over 64 KiB with 431. Margins are wide (timeouts of 1-3 s, waits of
//! several times that): the tests check what happens, not how fast.

mod common;
use common::http::{connect, raw_request, read_response, send};
use metagate::gateway::{keys, Gateway, GatewayConfig};
use metagate::http::{ServeOptions, Server};
use serde_json::json;
use std::io::{BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Documents in the test index; `size=DOCS` answers are hundreds of KB.
const DOCS: usize = 1500;

struct Fixture {
    server: Server,
    key: String,
}

impl Fixture {
    fn addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// Status of one search on a fresh connection.
    fn search(&self) -> u16 {
        send(self.addr(), "GET", "/elastic/v1/big/_search?q=alignment&size=3", &[("apikey", &self.key)], "").status
    }
}

fn start(opts: ServeOptions) -> Fixture {
    let words = "sequence alignment protein structure genome annotation database analysis tool";
    let docs: Vec<(String, serde_json::Value)> = (0..DOCS)
        .map(|i| {
            let description = format!("{i} {}", words.repeat(4));
            (format!("rrid:scr_{i}"), json!({"item": {"name": format!("tool {i}"), "description": description}}))
        })
        .collect();
    let e = common::engine_with("http-limits", "big", None, &docs, Some(metagate::Family::Registry));
    let key = keys::add(&e, "tester").unwrap();
    let gateway = Arc::new(Gateway::new(Arc::new(e), GatewayConfig { rate_limit: 0.0, ..Default::default() }));
    let opts = ServeOptions { bind: "127.0.0.1:0".into(), access_log: false, ..opts };
    Fixture { server: Server::start(gateway, &opts).unwrap(), key }
}

/// Whether the server has closed (or reset) `s`: a read that ends, rather than data or
/// the read timeout. Reads any data first.
fn closed_by_server(s: &mut TcpStream) -> bool {
    let mut buf = [0u8; 65536];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => return false,
            Err(_) => return true,
        }
    }
}

#[test]
fn a_trickled_head_is_cut_off_while_others_are_served() {
    let f = start(ServeOptions { read_timeout: Duration::from_secs(1), ..Default::default() });
    let mut slow = connect(f.addr());
    slow.set_read_timeout(Some(Duration::from_millis(1))).unwrap();
    // Longer than the test can send: the head is never complete.
    let head = raw_request("GET", "/elastic/v1/big/_search", &[("X-Pad", &"a".repeat(4096))], "");
    let started = Instant::now();
    let mut cut = false;
    for (i, b) in head.iter().enumerate() {
        // A byte every 50 ms: well inside any per-read timeout, so only a deadline on the
        // whole head ends this.
        if slow.write_all(&[*b]).is_err() || closed_by_server(&mut slow) {
            cut = true;
            break;
        }
        if i % 20 == 0 {
            assert_eq!(f.search(), 200, "a client was refused while another trickled its head");
        }
        if started.elapsed() > Duration::from_secs(15) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(cut, "a head trickled for {:?} was not cut off", started.elapsed());
    assert_eq!(f.search(), 200);
}

#[test]
fn a_client_that_never_reads_is_dropped_and_holds_no_worker() {
    // One worker: were it stuck writing to the non-reader, nobody else would be answered.
    let write_timeout = Duration::from_secs(3);
    let f = start(ServeOptions { threads: 1, write_timeout, ..Default::default() });
    let big = format!("/elastic/v1/big/_search?q=alignment&size={DOCS}");
    let one = send(f.addr(), "GET", &big, &[("apikey", &f.key)], "");
    assert_eq!(one.status, 200);
    assert!(one.body.len() > 200_000, "answers too small to fill the socket buffers: {}", one.body.len());
    let requests = 40;
    // A 4 KiB receive buffer: the server's writes stall after a few KB.
    let sock = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    sock.set_recv_buffer_size(4096).unwrap();
    sock.connect(&f.addr().into()).unwrap();
    let mut reader: TcpStream = sock.into();
    reader.write_all(&raw_request("GET", &big, &[("apikey", &f.key)], "").repeat(requests)).unwrap();
    // While the server is stalled writing to it, others are answered.
    for _ in 0..5 {
        assert_eq!(f.search(), 200, "a client was refused while another did not read");
    }
    // Past the write timeout, with a wide margin, the server has given up on it: reading
    // now reaches the end of the connection before all the answers.
    std::thread::sleep(write_timeout * 3);
    reader.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut got = 0usize;
    let mut buf = vec![0u8; 1 << 20];
    let ended = loop {
        match reader.read(&mut buf) {
            Ok(0) => break true,
            Ok(n) => got += n,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => break false,
            Err(_) => break true,
        }
    };
    assert!(ended, "the server still holds a client that stopped reading ({got} bytes taken)");
    assert!(got < requests * one.body.len(), "every answer arrived: the server never gave up");
    assert_eq!(f.search(), 200);
}

#[test]
fn connections_over_the_cap_are_refused_with_503() {
    let f = start(ServeOptions { max_connections: 2, ..Default::default() });
    let request = raw_request("GET", "/elastic/v1/big/_search?size=0", &[("apikey", &f.key)], "");
    // Two kept-alive connections, each answered once, so the server holds both.
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut s = connect(f.addr());
        s.write_all(&request).unwrap();
        let mut r = BufReader::new(s);
        assert_eq!(read_response(&mut r, false).status, 200);
        held.push(r);
    }
    let mut third = connect(f.addr());
    third.write_all(&request).unwrap();
    let mut r = BufReader::new(third);
    let resp = read_response(&mut r, false);
    assert_eq!(resp.status, 503);
    assert_eq!(resp.json(), json!({"error": "too many open connections", "status": 503}));
    assert_eq!(resp.header("connection"), ["close"]);
    assert_eq!(resp.header("access-control-allow-origin"), ["*"]);
    let mut rest = Vec::new();
    assert_eq!(r.read_to_end(&mut rest).unwrap_or(0), 0);
    // The held connections still work; once one closes, its place is free again.
    held[0].get_mut().write_all(&request).unwrap();
    assert_eq!(read_response(&mut held[0], false).status, 200);
    drop(held.remove(1));
    let started = Instant::now();
    while f.search() != 200 {
        assert!(started.elapsed() < Duration::from_secs(10), "a closed connection's place was not freed");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_head_over_64_kib_is_refused() {
    let f = start(ServeOptions::default());
    for size in [70 * 1024, 1024 * 1024] {
        let mut s = connect(f.addr());
        let head =
            raw_request("GET", "/elastic/v1/big/_search", &[("apikey", &f.key), ("X-Pad", &"a".repeat(size))], "");
        // The server may close before taking it all; the answer is what counts.
        let _ = s.write_all(&head);
        let resp = read_response(&mut BufReader::new(s), false);
        assert_eq!(resp.status, 431, "a {size}-byte header was read");
    }
    assert_eq!(f.search(), 200);
}
