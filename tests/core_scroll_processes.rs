//! Two processes share one scroll: the parent starts it, a child process (this test binary
//! re-run) continues it from the same file, and the parent finishes it with the child's id.

mod common;
use common::hit_ids as ids;
use metagate::Engine;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::process::Command;

const CHILD_FILE: &str = "METAGATE_SCROLL_CHILD_FILE";
const CHILD_ID: &str = "METAGATE_SCROLL_CHILD_ID";

#[test]
fn two_processes_share_one_scroll() {
    if let (Ok(file), Ok(id)) = (std::env::var(CHILD_FILE), std::env::var(CHILD_ID)) {
        // Child: continue the scroll from another process and report the page.
        let e = Engine::open(std::path::Path::new(&file)).unwrap();
        let page = common::scroll_next(&e, &id, Some("1m")).unwrap();
        println!("CHILD {}", json!({"ids": ids(&page), "scroll_id": page["_scroll_id"]}));
        return;
    }
    let path = common::temp_file("scroll-procs");
    let e = Engine::open_or_create(&path).unwrap();
    let docs: Vec<(String, Value)> = (0..250).map(|i| (format!("d{i}"), json!({"n": i}))).collect();
    e.load("x", common::bulk(&docs).as_bytes(), &Default::default(), &mut |_, _| {}).unwrap();
    let first = common::scroll_start(&e, "x", r#"{"size":100,"sort":["_doc"]}"#, &[], "1m").unwrap();
    let mut seen = ids(&first);
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "two_processes_share_one_scroll", "--nocapture", "--test-threads", "1"])
        .env(CHILD_FILE, &path)
        .env(CHILD_ID, first["_scroll_id"].as_str().unwrap())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find_map(|l| l.split_once("CHILD ").map(|(_, rest)| rest))
        .unwrap_or_else(|| panic!("child said: {stdout}"));
    let child: Value = serde_json::from_str(line).unwrap();
    seen.extend(child["ids"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()));
    let last = common::scroll_next(&e, child["scroll_id"].as_str().unwrap(), Some("1m")).unwrap();
    seen.extend(ids(&last));
    assert_eq!(seen.len(), 250);
    assert_eq!(seen.iter().collect::<HashSet<_>>().len(), 250);
}
