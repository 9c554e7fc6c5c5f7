//! `metagate keys` and `metagate serve` as processes: a key printed once, listed with its
//! creation and last use, revoked by another process while the server runs.

mod common;
use common::bin;
use std::io::{Read, Write};
use std::process::{Command, Stdio};

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(bin()).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Status and body of a GET.
fn get(port: u16, path: &str, key: &str) -> (u16, String) {
    let r = common::http::send(("127.0.0.1", port), "GET", path, &[("apikey", key)], "");
    (r.status, r.text())
}

#[test]
fn keys_and_serve_across_processes() {
    let file = common::temp_file("cli-keys");
    let f = file.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("metagate-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("tools.ndjson");
    std::fs::write(&data, common::bulk(&[("rrid:scr_1", serde_json::json!({"item": {"name": "BLAST"}}))])).unwrap();
    let (ok, _, err) =
        run(&["load", "--file", f, "--index", "tools-v1", "--alias", "RIN_Tool_pr", data.to_str().unwrap()]);
    assert!(ok, "{err}");
    // add: the key on stdout, once; a second key of the same name is refused.
    let (ok, key, _) = run(&["keys", "add", "alice", "--file", f]);
    assert!(ok);
    let key = key.trim().to_string();
    assert!(key.len() >= 32 && !key.contains(' '));
    assert!(!run(&["keys", "add", "alice", "--file", f]).0);
    let (ok, bob, _) = run(&["keys", "add", "bob", "--file", f]);
    assert!(ok);
    let bob = bob.trim().to_string();
    // The file holds no key in clear.
    let raw = std::fs::read(&file).unwrap();
    assert!(!raw.windows(key.len()).any(|w| w == key.as_bytes()));
    // list: names and creation, nothing used yet.
    let (_, list, _) = run(&["keys", "list", "--file", f]);
    let alice_line = list.lines().find(|l| l.starts_with("alice")).unwrap().to_string();
    assert!(alice_line.trim_end().ends_with('-'), "{list}");
    assert!(!list.contains(&key));

    let port = common::free_port();
    let child = Command::new(bin())
        .args(["serve", "--file", f, "--bind", &format!("127.0.0.1:{port}"), "--rate-limit", "0"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut served = common::Served(child);
    common::wait_until_listening(port);
    let path = "/elastic/v1/RIN_Tool_pr/_search?q=blast";
    assert_eq!(get(port, path, &key).0, 200);
    assert_eq!(get(port, path, &bob).0, 200);
    // Revoked by another process while the server runs: refused at once.
    assert!(run(&["keys", "revoke", "bob", "--file", f]).0);
    let (status, body) = get(port, path, &bob);
    assert_eq!(status, 403, "{body}");
    assert_eq!(get(port, path, &key).0, 200);
    assert!(!run(&["keys", "revoke", "bob", "--file", f]).0);
    // The server recorded alice's use.
    let (_, list, _) = run(&["keys", "list", "--file", f]);
    let alice_line = list.lines().find(|l| l.starts_with("alice")).unwrap();
    assert!(!alice_line.trim_end().ends_with('-'), "{list}");
    assert!(!list.lines().any(|l| l.starts_with("bob")));
    // The access log: one line per request, key names, never a key.
    let _ = served.0.kill();
    let mut log = String::new();
    served.0.stderr.take().unwrap().read_to_string(&mut log).unwrap();
    let lines: Vec<&str> = log.lines().filter(|l| l.starts_with("GET ")).collect();
    assert_eq!(lines.len(), 4, "{log}");
    assert!(
        lines[0].starts_with("GET /elastic/v1/RIN_Tool_pr/_search?q=blast 200 ") && lines[0].ends_with("key=alice")
    );
    assert!(lines[2].contains(" 403 ") && lines[2].ends_with("key=-"));
    assert!(!log.contains(&key) && !log.contains(&bob));
    let _ = std::io::stdout().flush();
}
