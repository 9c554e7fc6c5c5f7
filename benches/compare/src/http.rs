//! The HTTP load run: `metagate serve` on the benchmark's metagate file, `wrk` with 64
//! connections posting Q2 and Q6 bodies alternately; requests/s, p50/p99, errors, and the
//! server's RSS before and after. Only ever 127.0.0.1.

use crate::engines::mg;
use crate::queries::Class;
use serde_json::{json, Value};
use std::io::Write;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The port the server listens on (loopback only).
const PORT: u16 = 19_288;

/// The repository's root (this crate lives in `benches/compare`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// `VmRSS` and `VmHWM` of a process, in kB.
fn rss_kb(pid: u32) -> (u64, u64) {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        s.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Kills the server when the run ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs wrk against a server on `file`; `None` (with the reason printed) when the
/// metagate binary or wrk is missing.
pub fn run(file: &Path, classes: &[Class], threads: usize, secs: u64) -> Option<Value> {
    let bin = repo_root().join("target/release/metagate");
    if !bin.exists() {
        eprintln!("HTTP run skipped: {} is missing (cargo build --release)", bin.display());
        return None;
    }
    if Command::new("wrk").arg("--version").output().is_err() {
        eprintln!("HTTP run skipped: wrk is not installed (apt-get install -y wrk)");
        return None;
    }
    let key_out = Command::new(&bin).args(["keys", "--file"]).arg(file).args(["add", "compare-bench"]).output().ok()?;
    let key = String::from_utf8_lossy(&key_out.stdout).lines().next().unwrap_or_default().trim().to_string();
    if key.is_empty() {
        eprintln!("HTTP run skipped: no key from metagate keys: {}", String::from_utf8_lossy(&key_out.stderr));
        return None;
    }
    // The bodies: Q2 and Q6 variants, alternately.
    let pick = |id: &str| classes.iter().find(|c| c.id == id).map(|c| c.variants.clone()).unwrap_or_default();
    let (q2, q6) = (pick("Q2"), pick("Q6"));
    let bodies_path = file.with_extension("bodies");
    let mut bodies = std::fs::File::create(&bodies_path).ok()?;
    for (a, b) in q2.iter().zip(&q6) {
        writeln!(bodies, "{}\n{}", mg::body(a), mg::body(b)).ok()?;
    }
    drop(bodies);

    let child = Command::new(&bin)
        .args(["serve", "--file"])
        .arg(file)
        .args(["--bind", &format!("127.0.0.1:{PORT}"), "--rate-limit", "0", "--threads", &threads.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let server = Server(child);
    let pid = server.0.id();
    let deadline = Instant::now() + Duration::from_secs(60);
    while TcpStream::connect(("127.0.0.1", PORT)).is_err() {
        if Instant::now() > deadline {
            eprintln!("HTTP run skipped: the server did not listen");
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let (rss_before, _) = rss_kb(pid);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("http/mixed.lua");
    let load_before = crate::measure::loadavg();
    let out = Command::new("wrk")
        // A long client timeout: a slow answer is a latency to report, not an error to hide.
        .args(["-t2", "-c64", &format!("-d{secs}s"), "--timeout", "30s", "-s"])
        .arg(&script)
        .arg(format!("http://127.0.0.1:{PORT}"))
        .env("KEY", &key)
        .env("BODIES", &bodies_path)
        .env("SEARCH_PATH", "/elastic/v1/gen/_search")
        .output()
        .ok()?;
    let (rss_after, hwm) = rss_kb(pid);
    let load_after = crate::measure::loadavg();
    drop(server);
    let _ = Command::new(&bin).args(["keys", "--file"]).arg(file).args(["revoke", "compare-bench"]).output();
    let _ = std::fs::remove_file(&bodies_path);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let line = text.lines().find(|l| l.starts_with("SUMMARY"))?;
    let nums: Vec<u64> = line.split_whitespace().skip(1).skip(1).step_by(2).filter_map(|v| v.parse().ok()).collect();
    let [requests, duration_us, p50, p99, connect, read, write, timeout, status] = nums[..] else {
        eprintln!("HTTP run: unexpected wrk output:\n{text}");
        return None;
    };
    Some(json!({
        "threads": threads, "connections": 64, "secs": secs,
        "requests": requests, "rps": requests as f64 / (duration_us as f64 / 1e6),
        "p50_ms": p50 as f64 / 1000.0, "p99_ms": p99 as f64 / 1000.0,
        "socket_errors": connect + read + write + timeout, "non_2xx": status,
        "rss_before_kb": rss_before, "rss_after_kb": rss_after, "rss_peak_kb": hwm,
        "load": format!("{load_before} → {load_after}"),
    }))
}
