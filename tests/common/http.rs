//! A small HTTP/1.1 client for the tests that talk to a server over TCP: one request per
//! connection, or raw bytes for the framing tests.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// An answer: status, headers in order, body bytes.
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Resp {
    /// Every value of header `name` (case-insensitive), in order.
    pub fn header(&self, name: &str) -> Vec<&str> {
        super::header_values(&self.headers, name)
    }

    /// The body as JSON (`null` when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON without `took`, the one member two equal answers may differ in.
    pub fn comparable(&self) -> Value {
        super::without_took(self.json())
    }
}

/// A connection with a read timeout, so a server that stops answering fails the test.
pub fn connect(addr: impl ToSocketAddrs) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s
}

/// The bytes of a request (`Content-Length` added for a body).
pub fn raw_request(method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Vec<u8> {
    let mut s = format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\n");
    for (k, v) in headers {
        s.push_str(&format!("{k}: {v}\r\n"));
    }
    if !body.is_empty() {
        s.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    s.push_str("\r\n");
    s.push_str(body);
    s.into_bytes()
}

/// Reads one response (`head`: the request was HEAD, so no body follows).
pub fn read_response(r: &mut BufReader<TcpStream>, head: bool) -> Resp {
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let status: u16 =
        line.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("status line {line:?}"));
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        r.read_line(&mut h).unwrap();
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':').unwrap();
        headers.push((k.trim().to_string(), v.trim().to_string()));
    }
    let len: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .map(|(_, v)| v.parse().unwrap())
        .unwrap_or(0);
    let mut body = vec![0; if head { 0 } else { len }];
    r.read_exact(&mut body).unwrap();
    Resp { status, headers, body }
}

/// One request on a fresh connection.
pub fn send(addr: impl ToSocketAddrs, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Resp {
    let mut s = connect(addr);
    s.write_all(&raw_request(method, path, headers, body)).unwrap();
    read_response(&mut BufReader::new(s), method == "HEAD")
}
