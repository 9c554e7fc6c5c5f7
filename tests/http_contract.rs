//! The specification's endpoint, authentication and error tables over real HTTP: a server
//! on 127.0.0.1 with an ephemeral port, driven by raw `TcpStream` requests (so the exact
//! bytes on the wire are checked) and by curl.

mod common;
use common::http::{connect, raw_request, read_response, send, Resp};
use metagate::gateway::{keys, Gateway, GatewayConfig};
use metagate::http::demo_page::DemoPage;
use metagate::http::{ServeOptions, Server};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

struct Fixture {
    server: Server,
    gateway: Arc<Gateway>,
    key: String,
}

impl Fixture {
    fn addr(&self) -> SocketAddr {
        self.server.local_addr()
    }
}

fn start(rate: f64, opts: ServeOptions) -> Fixture {
    let e = common::engine_with(
        "http",
        "scr_005400-registry_tools_pr-rin-test",
        Some("RIN_Tool_pr"),
        &[
            ("rrid:scr_1", json!({"item": {"name": "BLAST", "description": "alignment search tool"}})),
            ("rrid:scr_2", json!({"item": {"name": "Clustal", "description": "multiple alignment"}})),
            ("rrid:scr_3", json!({"item": {"name": "ImageJ", "description": "image analysis"}})),
        ],
        Some(metagate::Family::Registry),
    );
    let key = keys::add(&e, "tester").unwrap();
    let gateway = Arc::new(Gateway::new(Arc::new(e), GatewayConfig { rate_limit: rate, ..Default::default() }));
    let opts = ServeOptions { bind: "127.0.0.1:0".into(), threads: 4, access_log: false, ..opts };
    Fixture { server: Server::start(gateway.clone(), &opts).unwrap(), gateway, key }
}

fn fixture() -> Fixture {
    start(0.0, ServeOptions::default())
}

fn get(f: &Fixture, path: &str) -> Resp {
    send(f.addr(), "GET", path, &[("apikey", &f.key)], "")
}

fn post(f: &Fixture, path: &str, body: &str) -> Resp {
    send(f.addr(), "POST", path, &[("apikey", &f.key), ("Content-Type", "application/json")], body)
}

fn assert_cors(r: &Resp) {
    assert_eq!(r.header("Access-Control-Allow-Origin"), ["*"], "{r:?}");
    assert_eq!(r.header("Access-Control-Allow-Methods"), ["GET, POST, OPTIONS, HEAD"]);
    assert_eq!(
        r.header("Access-Control-Allow-Headers"),
        ["Authorization, Origin, X-Requested-With, Content-Type, Accept"]
    );
}

const JSON_CT: &str = "application/json; charset=UTF-8";

#[test]
fn endpoint_1_post_search_on_both_bases() {
    let f = fixture();
    for base in ["/elastic/v1", "/api/1/elastic"] {
        let r =
            post(&f, &format!("{base}/RIN_Tool_pr/_search"), r#"{"query":{"match":{"item.description":"alignment"}}}"#);
        assert_eq!(r.status, 200);
        assert_eq!(r.header("Content-Type"), [JSON_CT]);
        assert_cors(&r);
        let v = r.json();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["took", "timed_out", "_shards", "hits"]);
        assert_eq!(v["_shards"], json!({"total":1,"successful":1,"skipped":0,"failed":0}));
        assert_eq!(v["hits"]["total"], 2);
        let hit = &v["hits"]["hits"][0];
        assert_eq!(hit["_index"], "scr_005400-registry_tools_pr-rin-test");
        assert_eq!(hit["_type"], "rin");
        // The shorter description scores higher (BM25 length norm).
        assert_eq!(hit["_id"], "rrid:scr_2");
        assert!(hit["_score"].as_f64().unwrap() > v["hits"]["hits"][1]["_score"].as_f64().unwrap());
        assert_eq!(hit["_source"], json!({"item": {"name": "Clustal", "description": "multiple alignment"}}));
    }
}

#[test]
fn endpoint_2_get_search_with_q_and_variants() {
    let f = fixture();
    let r = get(&f, "/elastic/v1/RIN_Tool_pr/_search?q=alignment&size=1");
    assert_eq!(r.status, 200);
    assert_cors(&r);
    assert_eq!(r.json()["hits"]["total"], 2);
    assert_eq!(r.json()["hits"]["hits"].as_array().unwrap().len(), 1);
    // Percent-encoded query and names, a trailing slash, `_search` over all indices.
    assert_eq!(get(&f, "/elastic/v1/RIN_Tool_pr/_search?q=item.name%3Ablast").json()["hits"]["total"], 1);
    assert_eq!(get(&f, "/elastic/v1/RIN_Tool_pr%2C*_pr/_search/").json()["hits"]["total"], 3);
    assert_eq!(get(&f, "/elastic/v1/_search?q=image").json()["hits"]["total"], 1);
    // A type segment filters by `_type`.
    assert_eq!(get(&f, "/elastic/v1/RIN_Tool_pr/rin/_search").json()["hits"]["total"], 3);
    assert_eq!(get(&f, "/elastic/v1/RIN_Tool_pr/term/_search").json()["hits"]["total"], 0);
    // GET with a body is read like POST.
    let r = send(
        f.addr(),
        "GET",
        "/elastic/v1/RIN_Tool_pr/_search",
        &[("apikey", &f.key), ("Content-Type", "application/json")],
        r#"{"query":{"term":{"_id":"rrid:scr_3"}}}"#,
    );
    assert_eq!(r.json()["hits"]["total"], 1);
    // HEAD: GET's status and headers, no body.
    let r = send(f.addr(), "HEAD", "/elastic/v1/RIN_Tool_pr/_search", &[("apikey", &f.key)], "");
    assert_eq!(r.status, 200);
    assert!(r.body.is_empty());
    assert_ne!(r.header("Content-Length"), ["0"]);
    assert_cors(&r);
}

#[test]
fn endpoints_3_and_4_scroll_and_clear() {
    let f = fixture();
    let r = post(&f, "/elastic/v1/RIN_Tool_pr/_search?scroll=1s", r#"{"size":2,"query":{"match_all":{}}}"#);
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(v.as_object().unwrap().keys().next().unwrap(), "_scroll_id");
    assert_eq!(v["hits"]["hits"].as_array().unwrap().len(), 2);
    let id = v["_scroll_id"].as_str().unwrap().to_string();
    let r = post(&f, "/elastic/v1/_search/scroll", &json!({"scroll": "1s", "scroll_id": id}).to_string());
    assert_eq!(r.status, 200);
    assert_cors(&r);
    let v = r.json();
    assert_eq!(v["hits"]["hits"].as_array().unwrap().len(), 1);
    let id2 = v["_scroll_id"].as_str().unwrap().to_string();
    let r = post(&f, "/elastic/v1/_search/scroll", &json!({"scroll": "1s", "scroll_id": id2}).to_string());
    assert_eq!(r.json()["hits"]["hits"], json!([]));
    // The id in the URL path; the body wins over the URL.
    let r = get(&f, &format!("/elastic/v1/_search/scroll/{id2}?scroll=1s"));
    assert_eq!(r.status, 200);
    let r = post(&f, "/elastic/v1/_search/scroll/garbage", &json!({"scroll": "1s", "scroll_id": id2}).to_string());
    assert_eq!(r.status, 200);
    // Clear: 200 with num_freed, then 404 for the same id; continuing is then 404.
    let r = send(
        f.addr(),
        "DELETE",
        "/elastic/v1/_search/scroll",
        &[("apikey", &f.key), ("Content-Type", "application/json")],
        &json!({"scroll_id": [id2]}).to_string(),
    );
    assert_eq!((r.status, r.json()), (200, json!({"succeeded": true, "num_freed": 1})));
    let r = send(f.addr(), "DELETE", &format!("/elastic/v1/_search/scroll/{id2}"), &[("apikey", &f.key)], "");
    assert_eq!((r.status, r.json()), (404, json!({"succeeded": true, "num_freed": 0})));
    let r = post(&f, "/elastic/v1/_search/scroll", &json!({"scroll": "1s", "scroll_id": id2}).to_string());
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["error"]["root_cause"][0]["type"], "search_context_missing_exception");
    // No id at all.
    let r = post(&f, "/elastic/v1/_search/scroll", r#"{"scroll":"1s"}"#);
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["error"]["reason"], "Validation Failed: 1: scrollId is missing;");
}

#[test]
fn endpoint_5_cat_aliases() {
    let f = fixture();
    let r = get(&f, "/elastic/v1/_cat/aliases?v");
    assert_eq!(r.status, 200);
    assert_eq!(r.header("Content-Type"), ["text/plain; charset=UTF-8"]);
    assert_cors(&r);
    assert_eq!(
        r.text(),
        "alias       index                                 filter routing.index routing.search\n\
         RIN_Tool_pr scr_005400-registry_tools_pr-rin-test -      -             -\n"
    );
    assert_eq!(get(&f, "/elastic/v1/_cat/aliases").text(), "RIN_Tool_pr scr_005400-registry_tools_pr-rin-test - - -\n");
    let r = get(&f, "/elastic/v1/_cat/aliases/RIN_*?format=json&h=alias,index");
    assert_eq!(r.header("Content-Type"), [JSON_CT]);
    assert_eq!(r.json(), json!([{"alias":"RIN_Tool_pr","index":"scr_005400-registry_tools_pr-rin-test"}]));
    assert_eq!(get(&f, "/elastic/v1/_cat/aliases/Nope*").text(), "");
}

#[test]
fn endpoint_6_options_without_and_with_key() {
    let f = fixture();
    for path in ["/elastic/v1/RIN_Tool_pr/_search", "/elastic/v1/_search/scroll", "/elastic/v1/_cat/aliases"] {
        for headers in [vec![], vec![("apikey", f.key.as_str())], vec![("apikey", "wrong")]] {
            let r = send(f.addr(), "OPTIONS", path, &headers, "");
            assert_eq!(r.status, 200);
            assert_eq!(r.header("Content-Type"), ["application/json"]);
            assert_eq!(r.header("Content-Length"), ["0"]);
            assert!(r.body.is_empty());
            assert_cors(&r);
        }
    }
}

#[test]
fn authentication_table() {
    let f = fixture();
    let path = "/elastic/v1/RIN_Tool_pr/_search";
    // Header, then the key= parameter.
    assert_eq!(send(f.addr(), "GET", path, &[("apikey", &f.key)], "").status, 200);
    assert_eq!(send(f.addr(), "GET", path, &[("APIKEY", &f.key)], "").status, 200);
    assert_eq!(send(f.addr(), "GET", &format!("{path}?key={}", f.key), &[], "").status, 200);
    // api_key: 400 with ES's exact unrecognized-parameter body.
    let r = send(f.addr(), "GET", &format!("{path}?api_key={}", f.key), &[], "");
    assert_eq!(r.status, 400);
    assert_cors(&r);
    assert_eq!(
        r.json(),
        json!({"error":{"root_cause":[{"type":"illegal_argument_exception","reason":"request [/elastic/v1/RIN_Tool_pr/_search] contains unrecognized parameter: [api_key]"}],"type":"illegal_argument_exception","reason":"request [/elastic/v1/RIN_Tool_pr/_search] contains unrecognized parameter: [api_key]"},"status":400})
    );
    // No key (or an empty one): 401 with three challenges, in the body and as headers.
    let challenges = ["Bearer realm=\"security\"", "ApiKey", "Basic realm=\"security\" charset=\"UTF-8\""];
    for (p, headers) in [(format!("{path}?q=x"), vec![]), (format!("{path}?q=x"), vec![("apikey", "")])] {
        let r = send(f.addr(), "GET", &p, &headers, "");
        assert_eq!(r.status, 401);
        assert_cors(&r);
        assert_eq!(r.header("WWW-Authenticate"), challenges);
        let reason = "missing authentication token for REST request [/elastic/v1/RIN_Tool_pr/_search?q=x]";
        let ex = json!({"type":"security_exception","reason":reason,"header":{"WWW-Authenticate":challenges}});
        assert_eq!(
            r.json(),
            json!({"error":{"root_cause":[ex.clone()],"type":"security_exception","reason":reason,"header":{"WWW-Authenticate":challenges}},"status":401})
        );
    }
    // A secret given as key= is not echoed back.
    let r = send(f.addr(), "GET", &format!("{path}?key=not-a-key"), &[], "");
    assert_eq!(r.status, 403);
    assert!(!r.text().contains("not-a-key"));
    // Unknown key: 403 with the documented body.
    let r = send(f.addr(), "GET", path, &[("apikey", "wrong")], "");
    assert_eq!(r.status, 403);
    assert_cors(&r);
    let reason = "invalid API key for REST request [/elastic/v1/RIN_Tool_pr/_search]";
    assert_eq!(
        r.json(),
        json!({"error":{"root_cause":[{"type":"security_exception","reason":reason}],"type":"security_exception","reason":reason},"status":403})
    );
}

#[test]
fn revocation_and_new_keys_take_effect_at_once() {
    let f = fixture();
    let path = "/elastic/v1/RIN_Tool_pr/_search";
    let engine = f.gateway.engine();
    let second = keys::add(engine, "second").unwrap();
    assert_eq!(send(f.addr(), "GET", path, &[("apikey", &second)], "").status, 200);
    assert!(keys::revoke(engine, "second").unwrap());
    assert_eq!(send(f.addr(), "GET", path, &[("apikey", &second)], "").status, 403);
    assert_eq!(send(f.addr(), "GET", path, &[("apikey", &f.key)], "").status, 200);
}

#[test]
fn error_table() {
    let f = fixture();
    // 400 illegal_argument_exception: unknown parameter with a suggestion; `df` only with `q`.
    let r = get(&f, "/elastic/v1/RIN_Tool_pr/_search?sze=1");
    assert_eq!(r.status, 400);
    assert_cors(&r);
    assert_eq!(
        r.json()["error"]["reason"],
        "request [/elastic/v1/RIN_Tool_pr/_search] contains unrecognized parameter: [sze] -> did you mean [size]?"
    );
    assert_eq!(
        get(&f, "/elastic/v1/RIN_Tool_pr/_search?df=item.name").json()["error"]["reason"],
        "request [/elastic/v1/RIN_Tool_pr/_search] contains unrecognized parameter: [df]"
    );
    assert_eq!(get(&f, "/elastic/v1/RIN_Tool_pr/_search?q=blast&df=item.name").status, 200);
    // 404 index_not_found_exception, exactly as ES 6.8.
    let r = get(&f, "/elastic/v1/Nope_pr/_search");
    assert_eq!(r.status, 404);
    assert_cors(&r);
    assert_eq!(
        r.json(),
        json!({"error":{"root_cause":[{"type":"index_not_found_exception","reason":"no such index","resource.type":"index_or_alias","resource.id":"Nope_pr","index_uuid":"_na_","index":"Nope_pr"}],"type":"index_not_found_exception","reason":"no such index","resource.type":"index_or_alias","resource.id":"Nope_pr","index_uuid":"_na_","index":"Nope_pr"},"status":404})
    );
    // 500 json_parse_exception for a body missing a colon.
    let r = post(&f, "/elastic/v1/RIN_Tool_pr/_search", r#"{"query" {"match_all":{}}}"#);
    assert_eq!(r.status, 500);
    assert_cors(&r);
    let v = r.json();
    assert_eq!(v["error"]["type"], "json_parse_exception");
    assert_eq!(v["error"]["root_cause"][0]["type"], "json_parse_exception");
    assert_eq!(v["status"], 500);
    // 400 parsing_exception for an unknown query.
    let r = post(&f, "/elastic/v1/RIN_Tool_pr/_search", r#"{"query":{"nope":{}}}"#);
    assert_eq!((r.status, r.json()["error"]["reason"].clone()), (400, json!("no [query] registered for [nope]")));
}

#[test]
fn rest_layer_errors() {
    let f = fixture();
    // Unknown route: 400 text/plain, the whole uri (key redacted) in the text.
    let r = get(&f, "/elastic/v1/RIN_Tool_pr/_recovery?pretty");
    assert_eq!(r.status, 400);
    assert_eq!(r.header("Content-Type"), ["text/plain; charset=UTF-8"]);
    assert_eq!(r.text(), "No handler found for uri [/elastic/v1/RIN_Tool_pr/_recovery?pretty] and method [GET]");
    assert_cors(&r);
    let r = send(f.addr(), "GET", "/other/_search?key=s3cret", &[], "");
    assert_eq!(r.text(), "No handler found for uri [/other/_search?key=<redacted>] and method [GET]");
    // Wrong method: 405 with Allow.
    let r = send(f.addr(), "PUT", "/elastic/v1/_search/scroll", &[("apikey", &f.key)], "");
    assert_eq!(r.status, 405);
    assert_cors(&r);
    assert_eq!(r.header("Allow"), ["GET,POST,DELETE"]);
    assert_eq!(
        r.json(),
        json!({"error":"Incorrect HTTP method for uri [/elastic/v1/_search/scroll] and method [PUT], allowed: [GET, POST, DELETE]","status":405})
    );
    let r = send(f.addr(), "DELETE", "/elastic/v1/RIN_Tool_pr/_search", &[("apikey", &f.key)], "");
    assert_eq!((r.status, r.header("Allow")), (405, vec!["GET,POST"]));
    // Content-Type: missing or unsupported with a body is 406; a bodyless GET needs none.
    let path = "/elastic/v1/RIN_Tool_pr/_search";
    let r = send(f.addr(), "POST", path, &[("apikey", &f.key)], "{}");
    assert_eq!((r.status, r.json()), (406, json!({"error":"Content-Type header is missing","status":406})));
    assert_cors(&r);
    let r = send(
        f.addr(),
        "POST",
        path,
        &[("apikey", &f.key), ("Content-Type", "application/x-www-form-urlencoded")],
        "{}",
    );
    assert_eq!(
        r.json(),
        json!({"error":"Content-Type header [application/x-www-form-urlencoded] is not supported","status":406})
    );
    let r =
        send(f.addr(), "POST", path, &[("apikey", &f.key), ("Content-Type", "application/json; charset=UTF-8")], "{}");
    assert_eq!(r.status, 200);
    // `source` + `source_content_type` stand in for a body.
    let r = get(&f, &format!("{path}?source=%7B%22size%22%3A1%7D&source_content_type=application/json"));
    assert_eq!(r.json()["hits"]["hits"].as_array().unwrap().len(), 1);
    // Rendering parameters on every response: filter_path and pretty on success; errors
    // are pretty but never filtered.
    let r = get(&f, "/elastic/v1/RIN_Tool_pr/_search?filter_path=hits.total&pretty&human&error_trace");
    assert_eq!(r.text(), "{\n  \"hits\" : {\n    \"total\" : 3\n  }\n}\n");
    let r = get(&f, "/elastic/v1/Nope_pr/_search?filter_path=status&pretty");
    assert!(r.text().starts_with("{\n  \"error\" : {\n    \"root_cause\" : [\n"));
    // error_trace adds each exception's chain as `stack_trace`, after its other members.
    let r = get(&f, "/elastic/v1/Nope_pr/_search?error_trace=true");
    let e = &r.json()["error"];
    assert_eq!(e["stack_trace"], json!("[index_not_found_exception]: no such index"));
    assert_eq!(e["root_cause"][0]["stack_trace"], json!("[index_not_found_exception]: no such index"));
    assert_eq!(e.as_object().unwrap().keys().next_back().unwrap(), "stack_trace");
    assert!(get(&f, "/elastic/v1/Nope_pr/_search").json()["error"].get("stack_trace").is_none());
    let r = get(&f, "/elastic/v1/_cat/aliases?format=json&filter_path=alias");
    assert_eq!(r.json(), json!([{"alias":"RIN_Tool_pr"}]));
    // GET `/` answers ES's cluster information (clients ping it).
    let r = get(&f, "/elastic/v1/");
    assert_eq!(r.json()["version"]["number"], "6.8.23");
    assert_eq!(r.json()["tagline"], "You Know, for Search");
}

#[test]
fn rate_limit_answers_429_with_retry_after() {
    let f = start(2.0, ServeOptions::default());
    let statuses: Vec<u16> = (0..3).map(|_| get(&f, "/elastic/v1/RIN_Tool_pr/_search").status).collect();
    assert_eq!(&statuses[..2], &[200, 200]);
    assert_eq!(statuses[2], 429);
    let r = get(&f, "/elastic/v1/RIN_Tool_pr/_search");
    assert_eq!(r.status, 429);
    assert_eq!(r.header("Retry-After"), ["1"]);
    assert_cors(&r);
    assert_eq!(
        r.json(),
        json!({"error":{"root_cause":[{"type":"es_rejected_execution_exception","reason":"rate limit of 2 requests per second exceeded for API key [tester]"}],"type":"es_rejected_execution_exception","reason":"rate limit of 2 requests per second exceeded for API key [tester]"},"status":429})
    );
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(get(&f, "/elastic/v1/RIN_Tool_pr/_search").status, 200);
}

#[test]
fn body_cap_answers_413_before_reading() {
    let f = start(0.0, ServeOptions { max_body: 1000, ..Default::default() });
    let mut s = connect(f.addr());
    // Announces a body over the cap and sends none of it: the answer comes at once.
    s.write_all(
        b"POST /elastic/v1/RIN_Tool_pr/_search HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n",
    )
    .unwrap();
    let r = read_response(&mut BufReader::new(s), false);
    assert_eq!(r.status, 413);
    assert_eq!(r.header("connection"), ["close"]);
    assert_cors(&r);
    assert_eq!(r.json(), json!({"error":"request body is larger than the limit of [1000] bytes","status":413}));
    // Chunked bodies are counted as they arrive (an admitted request's: a head the
    // gateway refuses is answered before its body is read).
    let mut s = connect(f.addr());
    let chunk = "x".repeat(600);
    s.write_all(
        format!("POST /elastic/v1/RIN_Tool_pr/_search HTTP/1.1\r\napikey: {}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n{chunk}\r\n258\r\n{chunk}\r\n0\r\n\r\n", f.key)
            .as_bytes(),
    )
    .unwrap();
    assert_eq!(read_response(&mut BufReader::new(s), false).status, 413);
}

/// The demo page is the server's own: it answers `/demo/` without a key, with the CORS
/// headers every gateway answer carries, ranges of the file image and HEAD's length;
/// other paths still reach the gateway, and without a page `/demo/` is an unknown route.
#[test]
fn demo_page_is_answered_by_the_server() {
    let dir = common::temp_file("http-demo-page").with_extension("www");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<p>hi</p>").unwrap();
    let data: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(dir.join("image.redb"), &data).unwrap();
    let page = DemoPage::new(dir.clone(), Some(dir.join("image.redb")));
    let f = start(0.0, ServeOptions { demo: Some(page), ..Default::default() });
    let r = send(f.addr(), "GET", "/demo/", &[], "");
    assert_eq!((r.status, r.text()), (200, "<p>hi</p>".to_string()));
    assert_eq!(r.header("Content-Type"), ["text/html; charset=UTF-8"]);
    assert_cors(&r);
    let r = send(f.addr(), "HEAD", "/demo/", &[], "");
    assert_eq!((r.status, r.header("Content-Length"), r.body.len()), (200, vec!["9"], 0));
    assert_cors(&r);
    let r = send(f.addr(), "GET", "/demo/demo.redb", &[("Range", "bytes=10-19")], "");
    assert_eq!((r.status, r.header("Content-Range"), &r.body[..]), (206, vec!["bytes 10-19/1000"], &data[10..20]));
    assert_cors(&r);
    let r = send(f.addr(), "GET", "/demo", &[], "");
    assert_eq!((r.status, r.header("Location")), (301, vec!["/demo/"]));
    let r = send(f.addr(), "POST", "/demo/?key=s3cret", &[], "");
    assert_eq!(r.text(), "No handler found for uri [/demo/?key=<redacted>] and method [POST]");
    assert_cors(&r);
    assert_eq!(get(&f, "/elastic/v1/RIN_Tool_pr/_search").status, 200);
    let r = send(fixture().addr(), "GET", "/demo/", &[], "");
    assert_eq!((r.status, r.text()), (400, "No handler found for uri [/demo/] and method [GET]".to_string()));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn keep_alive_pipelining_chunked_and_continue() {
    let f = fixture();
    let s = connect(f.addr());
    let mut w = s.try_clone().unwrap();
    let mut r = BufReader::new(s);
    let k = f.key.as_str();
    // Two requests on one connection, then two pipelined in one write.
    for _ in 0..2 {
        w.write_all(&raw_request("GET", "/elastic/v1/RIN_Tool_pr/_search?size=0", &[("apikey", k)], "")).unwrap();
        assert_eq!(read_response(&mut r, false).status, 200);
    }
    let mut both = raw_request("GET", "/elastic/v1/RIN_Tool_pr/_search?q=blast", &[("apikey", k)], "");
    both.extend(raw_request("HEAD", "/elastic/v1/RIN_Tool_pr/_search", &[("apikey", k)], ""));
    both.extend(raw_request("GET", "/elastic/v1/RIN_Tool_pr/_search?q=imagej", &[("apikey", k)], ""));
    w.write_all(&both).unwrap();
    assert_eq!(read_response(&mut r, false).json()["hits"]["total"], 1);
    assert_eq!(read_response(&mut r, true).status, 200);
    assert_eq!(read_response(&mut r, false).json()["hits"]["hits"][0]["_id"], "rrid:scr_3");
    // A chunked body.
    let body = r#"{"query":{"match":{"item.name":"clustal"}}}"#;
    w.write_all(
        format!(
            "POST /elastic/v1/RIN_Tool_pr/_search HTTP/1.1\r\napikey: {k}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{}\r\n{:x};ext=1\r\n{}\r\n0\r\n\r\n",
            10,
            &body[..10],
            body.len() - 10,
            &body[10..]
        )
        .as_bytes(),
    )
    .unwrap();
    assert_eq!(read_response(&mut r, false).json()["hits"]["hits"][0]["_id"], "rrid:scr_2");
    // Expect: 100-continue gets its interim answer before the body is sent.
    w.write_all(
        format!(
            "POST /elastic/v1/RIN_Tool_pr/_search HTTP/1.1\r\napikey: {k}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    )
    .unwrap();
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    assert_eq!(line, "HTTP/1.1 100 Continue\r\n");
    r.read_line(&mut line).unwrap();
    w.write_all(body.as_bytes()).unwrap();
    assert_eq!(read_response(&mut r, false).status, 200);
    // Connection: close is honoured.
    w.write_all(&raw_request("GET", "/elastic/v1/RIN_Tool_pr/_search", &[("apikey", k), ("Connection", "close")], ""))
        .unwrap();
    let resp = read_response(&mut r, false);
    assert_eq!(resp.header("connection"), ["close"]);
    let mut rest = Vec::new();
    assert_eq!(r.read_to_end(&mut rest).unwrap(), 0);
}

#[test]
fn slow_and_malformed_clients_are_cut_off() {
    let f = start(0.0, ServeOptions { read_timeout: Duration::from_millis(300), ..Default::default() });
    // A body announced but never finished: 408, and the connection closes.
    let mut s = connect(f.addr());
    s.write_all(
        format!("POST /elastic/v1/RIN_Tool_pr/_search HTTP/1.1\r\napikey: {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{", f.key)
            .as_bytes(),
    )
    .unwrap();
    let started = std::time::Instant::now();
    let r = read_response(&mut BufReader::new(s), false);
    assert_eq!(r.status, 408);
    assert!(started.elapsed() < Duration::from_secs(3));
    // A head trickled one byte at a time is cut off at the deadline too.
    let mut s = connect(f.addr());
    let mut cut = false;
    for b in b"GET /elastic/v1/RIN_Tool_pr/_search HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n" {
        if s.write_all(&[*b]).is_err() {
            cut = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    assert!(cut || String::from_utf8_lossy(&out).starts_with("HTTP/1.1 408"), "{:?}", String::from_utf8_lossy(&out));
    // An idle kept-alive connection is closed.
    let mut s = connect(f.addr());
    let mut out = Vec::new();
    let started = std::time::Instant::now();
    assert_eq!(s.read_to_end(&mut out).unwrap_or(0), 0);
    assert!(started.elapsed() < Duration::from_secs(3));
    // Garbage: 400 and close. HTTP that does not parse never reaches the gateway: the
    // answer is hyper's own, with no body and no CORS headers (no browser sends such
    // a request).
    let mut s = connect(f.addr());
    s.write_all(b"NOT HTTP\r\n\r\n").unwrap();
    let mut r = BufReader::new(s);
    let resp = read_response(&mut r, false);
    assert_eq!(resp.status, 400);
    let mut rest = Vec::new();
    assert_eq!(r.read_to_end(&mut rest).unwrap_or(0), 0);
    // The server still answers.
    assert_eq!(get(&f, "/elastic/v1/RIN_Tool_pr/_search").status, 200);
}

#[test]
fn curl_drives_the_server() {
    let f = fixture();
    let base = format!("http://{}/elastic/v1", f.addr());
    let curl = |args: &[&str]| -> (String, String) {
        let out = std::process::Command::new("curl")
            .args(["-s", "-S", "-D", "-", "-o", "-"])
            .args(args)
            .output()
            .expect("curl is needed for this test (apt-get install curl)");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        (head.to_string(), body.to_string())
    };
    let key_header = format!("apikey: {}", f.key);
    // Endpoint 1: POST with a JSON body (curl -d, with the content type set).
    let (head, body) = curl(&[
        "-H",
        &key_header,
        "-H",
        "Content-Type: application/json",
        "-d",
        r#"{"query":{"match":{"item.description":"alignment"}}}"#,
        &format!("{base}/RIN_Tool_pr/_search"),
    ]);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("Access-Control-Allow-Origin: *"));
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["hits"]["total"], 2);
    // curl's default form content type is refused as ES 6.8 does.
    let (head, body) = curl(&["-H", &key_header, "-d", "{}", &format!("{base}/RIN_Tool_pr/_search")]);
    assert!(head.starts_with("HTTP/1.1 406"), "{head}");
    assert_eq!(
        body,
        r#"{"error":"Content-Type header [application/x-www-form-urlencoded] is not supported","status":406}"#
    );
    // Endpoint 2 with key= and a body large enough that curl sends Expect: 100-continue.
    let big = json!({"query": {"match": {"item.description": format!("alignment {}", "x".repeat(3000))}}}).to_string();
    let (head, body) = curl(&[
        "-H",
        "Content-Type: application/json",
        "--data-binary",
        &big,
        &format!("{base}/RIN_Tool_pr/_search?key={}", f.key),
    ]);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["hits"]["total"], 2);
    // Endpoint 5, endpoint 6, 401, HEAD.
    let (_, body) = curl(&["-H", &key_header, &format!("{base}/_cat/aliases?h=alias")]);
    assert_eq!(body, "RIN_Tool_pr\n");
    let (head, body) = curl(&["-X", "OPTIONS", &format!("{base}/RIN_Tool_pr/_search")]);
    assert!(head.starts_with("HTTP/1.1 200") && head.contains("Content-Length: 0") && body.is_empty(), "{head}");
    let (head, _) = curl(&[&format!("{base}/RIN_Tool_pr/_search")]);
    // Header names are case-insensitive (RFC 9110, section 5.1); hyper writes them in
    // title case (`Www-Authenticate`).
    assert!(
        head.starts_with("HTTP/1.1 401") && head.to_ascii_lowercase().matches("\r\nwww-authenticate: ").count() == 3,
        "{head}"
    );
    let out = std::process::Command::new("curl")
        .args(["-s", "-I", "-H", &key_header, &format!("{base}/RIN_Tool_pr/_search")])
        .output()
        .unwrap();
    let head = String::from_utf8_lossy(&out.stdout);
    assert!(head.starts_with("HTTP/1.1 200") && head.ends_with("\r\n\r\n"), "{head}");
}
