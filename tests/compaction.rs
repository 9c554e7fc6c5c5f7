//! Compaction as an operator meets it: `metagate load` and `delete-index` give the file's
//! free pages back, `metagate compact` does it on demand, and a server that has the file
//! open across all of it keeps answering as a fresh reader of the file does — a scroll it
//! opened before an index was replaced included.

mod common;
use common::cli::{gateway, gen, probe_answers, run, run_ok};
use metagate::Engine;
use std::path::Path;
use std::sync::Arc;

fn len(path: &Path) -> u64 {
    std::fs::metadata(path).unwrap().len()
}

/// The probes' answers on `index`, from a new engine on the file.
fn answers(file: &Path, index: &str) -> Vec<(u16, Vec<u8>)> {
    probe_answers(&gateway(Arc::new(Engine::open(file).unwrap())), index)
}

#[test]
fn loads_and_removals_give_free_pages_back() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("data.redb");
    let (f, data) = (file.to_str().unwrap(), dir.path().join("gen.ndjson"));
    gen(&data, 2_000, 5);
    let data = data.to_str().unwrap();
    run_ok(&["load", "--file", f, "--index", "a", "--alias", "A_pr", data]);
    let one = len(&file);
    let before = answers(&file, "A_pr");

    // Without compaction a replaced generation's pages stay in the file...
    run_ok(&["load", "--file", f, "--index", "a", "--alias", "A_pr", "--replace", "--no-compact", data]);
    let kept = len(&file);
    assert!(kept > one * 3 / 2, "{kept} bytes after a replace that kept its free pages, {one} before");
    // ...until `metagate compact` gives them back.
    let out = run_ok(&["compact", "--file", f]);
    assert!(out.starts_with(&format!("compacted [{f}]: {kept} bytes -> {} bytes in ", len(&file))), "{out}");
    assert!(len(&file) < one * 11 / 10, "{} bytes after compaction, {one} with one generation", len(&file));
    assert_eq!(answers(&file, "A_pr"), before);

    // A load compacts by itself, and so does removing an index.
    run_ok(&["load", "--file", f, "--index", "a", "--alias", "A_pr", "--replace", data]);
    assert!(len(&file) < one * 11 / 10, "{} bytes after a replace, {one} with one generation", len(&file));
    run_ok(&["load", "--file", f, "--index", "b", data]);
    assert!(len(&file) > one * 3 / 2);
    run_ok(&["delete-index", "--file", f, "b"]);
    assert!(len(&file) < one * 11 / 10, "{} bytes after removing [b], {one} with [a] alone", len(&file));
    assert_eq!(answers(&file, "A_pr"), before);

    // A file that is not there is an error, not a new file.
    let missing = dir.path().join("missing.redb");
    let out = run(&["compact", "--file", missing.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no metagate file at"));
    assert!(!missing.exists());
}

#[test]
fn a_server_keeps_answering_across_compactions() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("data.redb");
    let f = file.to_str().unwrap();
    let (a, b) = (dir.path().join("a.ndjson"), dir.path().join("b.ndjson"));
    gen(&a, 1_500, 7);
    gen(&b, 900, 8);
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    run_ok(&["load", "--file", f, "--index", "live", "--alias", "Live_pr", a]);
    run_ok(&["load", "--file", f, "--index", "other", b]);
    let key = run_ok(&["keys", "add", "reader", "--file", f]).trim().to_string();

    let (_served, port) = common::cli::serve(f, &[]);
    let search = |path: &str, body: &str| {
        let r = common::http::send(
            ("127.0.0.1", port),
            "POST",
            path,
            &[("apikey", &key), ("Content-Type", "application/json")],
            body,
        );
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        serde_json::from_str::<serde_json::Value>(&r.text()).unwrap()
    };
    let page = r#"{"size":500,"sort":["_doc"],"query":{"match_all":{}}}"#;
    let first = search("/elastic/v1/Live_pr/_search?scroll=1m", page);
    let scroll_id = first["_scroll_id"].as_str().unwrap().to_string();
    let ids = |v: &serde_json::Value| common::hit_ids(v);
    let mut scrolled = ids(&first);

    // Replaced and removed while the server has the file open: each command compacts it.
    // (An idle server holds no transaction, so none of them finds the file busy.)
    for args in [
        &["load", "--file", f, "--index", "live", "--alias", "Live_pr", "--replace", b][..],
        &["delete-index", "--file", f, "other"],
        &["compact", "--file", f],
    ] {
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && !err.contains("not compacted"), "{args:?}: {err}");
    }

    // The server's answers are a fresh reader's.
    let fresh = answers(&file, "Live_pr");
    let served: Vec<(u16, Vec<u8>)> = common::cli::PROBES
        .iter()
        .map(|(query, body)| {
            let path = format!("/elastic/v1/Live_pr/_search?{query}");
            let r = common::http::send(
                ("127.0.0.1", port),
                "POST",
                &path,
                &[("apikey", &key), ("Content-Type", "application/json")],
                body,
            );
            (r.status, common::cli::without_took(&r.body))
        })
        .collect();
    assert_eq!(served, fresh);
    assert_eq!(search("/elastic/v1/Live_pr/_count", "")["count"], 900);
    // The scroll goes on over the generation it began on, moved by the compactions.
    loop {
        let next = search("/elastic/v1/_search/scroll", &format!(r#"{{"scroll":"1m","scroll_id":"{scroll_id}"}}"#));
        let page = ids(&next);
        if page.is_empty() {
            break;
        }
        scrolled.extend(page);
    }
    let mut expected: Vec<String> = std::fs::read_to_string(a)
        .unwrap()
        .lines()
        .step_by(2)
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]["_id"].as_str().unwrap().to_string())
        .collect();
    expected.sort();
    scrolled.sort();
    assert_eq!(scrolled, expected);
}
