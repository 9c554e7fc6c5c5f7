//! `metagate serve --upstream`: the gateway in front of a cluster. A second `metagate
//! serve` process on 127.0.0.1 stands in for the cluster (it speaks the same API), so the
//! forwarding path runs end to end, process to process.

mod common;

use common::http::Resp;

use metagate::Engine;
use metagate::Family;
use metagate::LoadOptions;
use serde_json::json;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::bin;

/// Starts `metagate serve ARGS` on a free port, its stderr into `log`, and waits until it
/// answers.
fn serve(args: &[&str], log: &Path) -> (common::Served, u16) {
    let port = common::free_port();
    let bind = format!("127.0.0.1:{port}");
    let child = Command::new(bin())
        .arg("serve")
        .args(["--bind", &bind, "--threads", "4"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap();
    let served = common::Served(child);
    common::wait_until_listening(port);
    (served, port)
}

/// One request to the server on `port` (a JSON body gets its Content-Type).
fn http(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Resp {
    let mut all = headers.to_vec();
    if !body.is_empty() {
        all.push(("Content-Type", "application/json"));
    }
    common::http::send(("127.0.0.1", port), method, path, &all, body)
}

/// A data file (generated tools under `RIN_Tool_pr`, with a key `up`) and a keys-only file
/// (key `alice`); returns (data file, keys file, up key, alice's key).
fn files() -> (String, String, String, String) {
    let data = common::temp_file("upstream-data");
    let engine = Engine::open_or_create(&data).unwrap();
    let mut tools = Vec::new();
    metagate::gen::Model::from_demo().unwrap().write_bulk(3, 1_500, &mut tools).unwrap();
    let opts = LoadOptions { alias: Some("RIN_Tool_pr".into()), family: Some(Family::Registry), ..Default::default() };
    engine.load("tools-v1", tools.as_slice(), &opts, &mut |_, _| {}).unwrap();
    let up = metagate::gateway::keys::add(&engine, "up").unwrap();
    drop(engine);
    let keys = common::temp_file("upstream-keys");
    let engine = Engine::open_or_create(&keys).unwrap();
    let alice = metagate::gateway::keys::add(&engine, "alice").unwrap();
    drop(engine);
    (data.to_str().unwrap().into(), keys.to_str().unwrap().into(), up, alice)
}

#[test]
fn the_gateway_in_front_of_a_cluster_answers_as_the_cluster() {
    let (data, keys, up_key, alice) = files();
    let dir = common::temp_file("upstream-logs").with_extension("d");
    std::fs::create_dir_all(&dir).unwrap();
    let (_up, up_port) = serve(&["--file", &data, "--rate-limit", "0"], &dir.join("upstream.log"));
    let upstream = format!("http://127.0.0.1:{up_port}/elastic/v1");
    let header = format!("apikey: {up_key}");
    let (_gw, gw_port) = serve(
        &["--file", &keys, "--rate-limit", "0", "--upstream", &upstream, "--upstream-header", &header],
        &dir.join("gateway.log"),
    );
    let through = |method: &str, path: &str, body: &str| http(gw_port, method, path, &[("apikey", &alice)], body);
    let direct = |method: &str, path: &str, body: &str| http(up_port, method, path, &[("apikey", &up_key)], body);

    // The same requests through the gateway and directly: the same answers.
    let agg = json!({"query": {"match": {"item.description": "protein alignment"}}, "size": 5,
                     "aggs": {"types": {"terms": {"field": "item.types.name.aggregate"}}},
                     "highlight": {"fields": {"item.description": {}}}})
    .to_string();
    let cases: Vec<(&str, &str, String)> = vec![
        ("GET", "/elastic/v1/RIN_Tool_pr/_search?q=protein&size=3", String::new()),
        ("POST", "/elastic/v1/RIN_Tool_pr/_search", agg.clone()),
        ("GET", "/elastic/v1/RIN_Tool_pr/_search?size=2", agg.clone()),
        ("POST", "/api/1/elastic/RIN_Tool_pr/rin/_search?sort=_id&size=4", String::new()),
        ("POST", "/elastic/v1/RIN_Tool_pr/other/_search", String::new()),
        ("GET", "/elastic/v1/RIN_Tool_pr/_search?q=gene&filter_path=hits.total,hits.hits._id&pretty", String::new()),
        ("GET", "/elastic/v1/no_such_index/_search", String::new()),
        ("POST", "/elastic/v1/RIN_Tool_pr/_search", "{\"query\" {}}".into()),
        ("POST", "/elastic/v1/RIN_Tool_pr/_search", json!({"query": {"nope": {}}}).to_string()),
        ("GET", "/elastic/v1/_search/scroll?scroll_id=garbage", String::new()),
        ("GET", "/elastic/v1/_cat/aliases?format=json", String::new()),
        // The other read APIs go to the cluster too.
        ("GET", "/elastic/v1/RIN_Tool_pr/_count?q=protein", String::new()),
        ("POST", "/elastic/v1/_msearch", "{\"index\":\"RIN_Tool_pr\"}\n{\"size\":1}\n".into()),
        ("GET", "/elastic/v1/RIN_Tool_pr/_mapping?include_type_name=true", String::new()),
        ("GET", "/elastic/v1/RIN_Tool_pr/_doc/rrid:scr_0000001", String::new()),
        ("GET", "/elastic/v1/_alias/RIN_Tool_pr", String::new()),
    ];
    for (method, path, body) in &cases {
        let (a, b) = (through(method, path, body), direct(method, path, body));
        assert_eq!((a.status, a.header("content-type")), (b.status, b.header("content-type")), "{method} {path}");
        assert_eq!(a.comparable(), b.comparable(), "{method} {path}");
        assert_eq!(a.header("access-control-allow-origin"), ["*"], "{method} {path}");
    }
    let (a, b) = (through("GET", "/elastic/v1/_cat/aliases?v", ""), direct("GET", "/elastic/v1/_cat/aliases?v", ""));
    assert_eq!(
        (a.status, a.text().as_str(), a.header("content-type")),
        (b.status, b.text().as_str(), b.header("content-type"))
    );
    assert!(a.text().contains("RIN_Tool_pr tools-v1"), "{}", a.text());
    // HEAD: no body, the length of the GET's.
    let h = through("HEAD", "/elastic/v1/RIN_Tool_pr/_search?q=protein&_source=false&size=1", "");
    assert_eq!(h.status, 200);
    assert!(h.header("content-length")[0].parse::<usize>().unwrap() > 100);

    // Scroll through the gateway: every document once, then the clear.
    let first = through(
        "POST",
        "/elastic/v1/RIN_Tool_pr/_search?scroll=1m",
        &json!({"size": 400, "_source": false}).to_string(),
    );
    assert_eq!(first.status, 200, "{}", first.text());
    let mut page = first.json();
    let total = page["hits"]["total"].as_u64().unwrap();
    assert_eq!(total, 1_500);
    let mut ids = BTreeSet::new();
    loop {
        let hits = page["hits"]["hits"].as_array().unwrap().clone();
        if hits.is_empty() {
            break;
        }
        for h in hits {
            assert!(ids.insert(h["_id"].as_str().unwrap().to_string()));
        }
        let id = page["_scroll_id"].as_str().unwrap().to_string();
        let next = through("POST", "/elastic/v1/_search/scroll", &json!({"scroll": "1m", "scroll_id": id}).to_string());
        assert_eq!(next.status, 200, "{}", next.text());
        page = next.json();
    }
    assert_eq!(ids.len() as u64, total);
    let id = page["_scroll_id"].as_str().unwrap().to_string();
    let cleared = through("DELETE", "/elastic/v1/_search/scroll", &json!({"scroll_id": [id]}).to_string());
    assert_eq!((cleared.status, cleared.json()), (200, json!({"succeeded": true, "num_freed": 1})));

    // The gateway's own answers: the keys are its own, and its errors are the local ones.
    let path = "/elastic/v1/RIN_Tool_pr/_search?q=x";
    let (a, b) = (http(gw_port, "GET", path, &[], ""), http(up_port, "GET", path, &[], ""));
    assert_eq!((a.status, a.json(), a.header("www-authenticate")), (401, b.json(), b.header("www-authenticate")));
    let a = http(gw_port, "GET", path, &[("apikey", &up_key)], "");
    assert_eq!(a.status, 403);
    assert_eq!(a.json()["error"]["reason"], json!(format!("invalid API key for REST request [{path}]")));
    let ok = http(gw_port, "GET", &format!("{path}&key={alice}"), &[], "");
    assert_eq!(ok.status, 200);
    let (a, b) = (
        through("GET", "/elastic/v1/RIN_Tool_pr/_search?api_key=1", ""),
        direct("GET", "/elastic/v1/RIN_Tool_pr/_search?api_key=1", ""),
    );
    assert_eq!((a.status, a.json()), (400, b.json()));
    let (a, b) =
        (through("PUT", "/elastic/v1/RIN_Tool_pr/_search", ""), direct("PUT", "/elastic/v1/RIN_Tool_pr/_search", ""));
    assert_eq!((a.status, a.json(), a.header("allow")), (405, b.json(), b.header("allow")));
    // Writes never reach the cluster: the gateway is read-only.
    let (a, b) = (through("DELETE", "/elastic/v1/tools-v1", ""), direct("DELETE", "/elastic/v1/tools-v1", ""));
    assert_eq!((a.status, a.json()), (403, b.json()));
    let o = http(gw_port, "OPTIONS", "/api/1/elastic/RIN_Tool_pr/_search", &[], "");
    assert_eq!((o.status, o.header("access-control-allow-methods")), (200, vec!["GET, POST, OPTIONS, HEAD"]));
    let root = through("GET", "/elastic/v1/", "");
    assert_eq!(root.json()["version"]["number"], json!("6.8.23"));

    // The cluster saw the gateway's configured header, never the client's key.
    let upstream_log = std::fs::read_to_string(dir.join("upstream.log")).unwrap();
    let forwarded: Vec<&str> = upstream_log
        .lines()
        .filter(|l| l.starts_with("GET ") || l.starts_with("POST ") || l.starts_with("DELETE "))
        .collect();
    assert!(forwarded.len() > cases.len(), "{upstream_log}");
    let through_gateway = forwarded.iter().filter(|l| l.ends_with("key=up")).count();
    assert!(through_gateway >= cases.len() + 5, "{upstream_log}");
    assert!(!upstream_log.contains(&alice));
    let gateway_log = std::fs::read_to_string(dir.join("gateway.log")).unwrap();
    assert!(gateway_log.contains("upstream: Elasticsearch 6.8.23 at http://127.0.0.1:"), "{gateway_log}");
    assert!(!gateway_log.contains(&alice) && !gateway_log.contains(&up_key));
}

#[test]
fn an_unreachable_or_silent_cluster_is_502_or_504() {
    let (_, keys, _, alice) = files();
    let dir = common::temp_file("upstream-down").with_extension("d");
    std::fs::create_dir_all(&dir).unwrap();
    let dead = common::free_port();
    let upstream = format!("http://127.0.0.1:{dead}");
    let (_gw, port) = serve(&["--file", &keys, "--rate-limit", "1", "--upstream", &upstream], &dir.join("down.log"));
    let a = http(port, "GET", "/elastic/v1/RIN_Tool_pr/_search", &[("apikey", &alice)], "");
    assert_eq!(a.status, 502);
    let reason = a.json()["error"]["reason"].as_str().unwrap().to_string();
    assert!(reason.starts_with(&format!("[http://127.0.0.1:{dead}] connect_exception: ")), "{reason}");
    assert_eq!(a.json()["error"]["root_cause"][0]["type"], json!("connect_transport_exception"));
    assert_eq!(a.json()["status"], json!(502));
    assert_eq!(a.header("content-type"), ["application/json; charset=UTF-8"]);
    assert_eq!(a.header("access-control-allow-origin"), ["*"]);
    // The gateway's rate limit still applies before anything is forwarded.
    let b = http(port, "GET", "/elastic/v1/RIN_Tool_pr/_search", &[("apikey", &alice)], "");
    assert_eq!((b.status, b.json()["error"]["type"].clone()), (429, json!("es_rejected_execution_exception")));
    // Keys are still checked first.
    assert_eq!(http(port, "GET", "/elastic/v1/RIN_Tool_pr/_search", &[], "").status, 401);

    // A cluster that takes connections and never answers: 504 after the timeout.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let upstream = format!("http://{}", silent.local_addr().unwrap());
    let (_gw, port) = serve(
        &["--file", &keys, "--rate-limit", "0", "--upstream", &upstream, "--upstream-timeout", "1"],
        &dir.join("silent.log"),
    );
    let started = Instant::now();
    let a = http(port, "POST", "/elastic/v1/RIN_Tool_pr/_search", &[("apikey", &alice)], "{}");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(a.status, 504, "{}", a.text());
    assert_eq!(a.json()["error"]["type"], json!("receive_timeout_transport_exception"));
    assert!(
        a.json()["error"]["reason"].as_str().unwrap().ends_with("request timed out after [1000ms]"),
        "{}",
        a.text()
    );
    drop(silent);
}

#[test]
fn upstream_options_are_checked() {
    let (_, keys, _, _) = files();
    for (args, expect) in [
        (vec!["--upstream", "ftp://x"], "must start with http:// or https://"),
        (vec!["--upstream", "http://u:p@h:9200"], "not in the cluster address"),
        (vec!["--upstream", "http://h:9200", "--upstream-header", "no colon"], "is not of the form [Name: value]"),
        (vec!["--upstream", "http://h:9200", "--upstream-timeout", "0"], "must be a positive number of seconds"),
    ] {
        let out = Command::new(bin()).args(["serve", "--file", &keys]).args(&args).output().unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect), "{args:?}: {err}");
        assert!(!err.contains("u:p"), "{err}");
    }
    // --upstream needs the keys file.
    let out = Command::new(bin()).args(["serve", "--upstream", "http://h:9200"]).output().unwrap();
    assert!(!out.status.success());
}
