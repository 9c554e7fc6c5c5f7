//! The `metagate` CLI as child processes, for the tests that kill, race and load it:
//! which binary to run, running it to completion, seeded randomness, the resident memory
//! of a process and answers compared byte for byte.

use metagate::gateway::call::Call;
use metagate::gateway::{Gateway, GatewayConfig};
use metagate::Engine;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;

/// The binary under test: `METAGATE_BIN` if set (a release build for the long runs),
/// else this build's own `metagate`.
pub fn bin() -> String {
    std::env::var("METAGATE_BIN").unwrap_or_else(|_| super::bin().to_string())
}

/// A numeric setting from the environment (long runs), else `default`.
pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The seed of a randomized test: `METAGATE_SEED` to replay a run, else the clock. Printed
/// so that a failing run can be replayed.
pub fn seed(test: &str) -> u64 {
    let seed = env_or("METAGATE_SEED", 0u64);
    let seed = if seed != 0 {
        seed
    } else {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1)
    };
    println!("{test}: METAGATE_SEED={seed}");
    seed
}

/// Runs `metagate args...` to its end.
pub fn run(args: &[&str]) -> Output {
    Command::new(bin()).args(args).output().expect("metagate runs")
}

/// Runs `metagate args...` and fails the test unless it succeeds; returns stdout.
pub fn run_ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "metagate {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `metagate serve` on `file` at a free port without a rate limit (`extra` arguments
/// appended), once it listens: the server, stopped when dropped, and its port.
pub fn serve(file: &str, extra: &[&str]) -> (super::Served, u16) {
    let port = super::free_port();
    let child = Command::new(bin())
        .args(["serve", "--file", file, "--bind", &format!("127.0.0.1:{port}"), "--rate-limit", "0"])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("metagate serve starts");
    let served = super::Served(child);
    super::wait_until_listening(port);
    (served, port)
}

/// `metagate gen -n n --seed seed` into `out`.
pub fn gen(out: &Path, n: usize, seed: u64) {
    run_ok(&["gen", "-n", &n.to_string(), "--seed", &seed.to_string(), "--out", out.to_str().unwrap()]);
}

/// A process's resident and peak resident memory in KiB (`VmRSS`, `VmHWM`).
pub fn rss_kib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The searches whose answers must survive a crash: all documents in order, a scored
/// query, an aggregation and a count.
pub const PROBES: [(&str, &str); 4] = [
    ("", r#"{"size":20,"sort":["_doc"],"query":{"match_all":{}}}"#),
    ("q=item.description:protein&size=10", ""),
    ("size=0", r#"{"aggs":{"k":{"terms":{"field":"item.types.name.keyword","size":20}}}}"#),
    ("q=genome&size=0&track_total_hits=true", ""),
];

/// A gateway over `engine` as the in-process doors ask it.
pub fn gateway(engine: Arc<Engine>) -> Gateway {
    Gateway::new(engine, GatewayConfig::default())
}

/// The answers of [`PROBES`] on `index` (an index or alias) as the gateway writes them,
/// byte for byte but for `took`, the one member two equal answers may differ in.
pub fn probe_answers(gateway: &Gateway, index: &str) -> Vec<(u16, Vec<u8>)> {
    PROBES
        .iter()
        .map(|(query, body)| {
            let r = gateway.call(Call::search(index, query, body));
            (r.status, without_took(&r.body))
        })
        .collect()
}

/// `body` with its leading `"took":N` member (ES writes it first) taken out.
pub fn without_took(body: &[u8]) -> Vec<u8> {
    const TOOK: &[u8] = b"{\"took\":";
    if !body.starts_with(TOOK) {
        return body.to_vec();
    }
    let digits = body[TOOK.len()..].iter().take_while(|b| b.is_ascii_digit()).count();
    let mut out = b"{".to_vec();
    // Skip the digits and the comma after them.
    out.extend_from_slice(&body[TOOK.len() + digits + 1..]);
    out
}
