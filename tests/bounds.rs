//! Bounds on what a client can make the engine do, through the gateway as a port sees it:
//! each bound answers ES's error (type, reason, status) before the work is done, and the
//! keys' promises (revocation seen by another process, secrets never logged, no writes
//! when key bookkeeping is off).

mod common;
use metagate::gateway::{keys, Gateway, GatewayConfig, Request};
use serde_json::{json, Value};
use std::sync::Arc;

const INDEX: &str = "tools";
const DOCS: usize = 3000;

/// Documents with a text `description`, a unique `name` and `count`; the first 36² also
/// carry a distinct two-character `code`, all within two edits of each other.
fn docs() -> Vec<(String, Value)> {
    let words = ["sequence", "alignment", "protein", "structure", "genome", "annotation", "database", "analysis"];
    let alphabet: Vec<char> = "0123456789abcdefghijklmnopqrstuvwxyz".chars().collect();
    (0..DOCS)
        .map(|i| {
            let description = format!("{} {} tool {i}", words[i % words.len()], words[(i / 8) % words.len()]);
            let mut doc = json!({"name": format!("tool {i}"), "description": description, "count": i});
            if i < 36 * 36 {
                doc["code"] = json!(format!("{}{}", alphabet[i % 36], alphabet[i / 36]));
            }
            (format!("d{i}"), doc)
        })
        .collect()
}

struct Fixture {
    gateway: Gateway,
    key: String,
    file: std::path::PathBuf,
}

fn fixture(tag: &str, config: GatewayConfig) -> Fixture {
    let file = common::temp_file(tag);
    let e = metagate::Engine::open_or_create(&file).unwrap();
    e.load(INDEX, common::bulk(&docs()).as_bytes(), &Default::default(), &mut |_, _| {}).unwrap();
    let key = keys::add(&e, "tester").unwrap();
    Fixture { gateway: Gateway::new(Arc::new(e), config), key, file }
}

fn unlimited() -> GatewayConfig {
    GatewayConfig { rate_limit: 0.0, ..Default::default() }
}

impl Fixture {
    /// Status and JSON body of one request with the key.
    fn send(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        self.send_as(&self.key, method, path, body)
    }

    /// Status and JSON body of one request with `key`.
    fn send_as(&self, key: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
        let mut headers = vec![("apikey".to_string(), key.to_string())];
        if !body.is_empty() {
            headers.push(("Content-Type".to_string(), "application/json".to_string()));
        }
        let req = Request {
            method: method.into(),
            path: format!("/elastic/v1{path}"),
            headers,
            body: body.as_bytes().to_vec(),
        };
        let r = self.gateway.handle(&req);
        (r.status, serde_json::from_slice(&r.body).unwrap_or(Value::Null))
    }

    fn search(&self, body: Value) -> (u16, Value) {
        self.send("POST", &format!("/{INDEX}/_search"), &body.to_string())
    }

    /// Status, body and `Warning` headers of one search.
    fn search_warned(&self, body: Value) -> (u16, Value, Vec<String>) {
        let req = Request {
            method: "POST".into(),
            path: format!("/elastic/v1/{INDEX}/_search"),
            headers: vec![
                ("apikey".to_string(), self.key.clone()),
                ("Content-Type".to_string(), "application/json".to_string()),
            ],
            body: body.to_string().into_bytes(),
        };
        let r = self.gateway.handle(&req);
        let warnings =
            r.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case("warning")).map(|(_, v)| v.clone()).collect();
        (r.status, serde_json::from_slice(&r.body).unwrap_or(Value::Null), warnings)
    }

    fn uuid(&self) -> String {
        let (_, v) = self.send("GET", &format!("/{INDEX}"), "");
        v[INDEX]["settings"]["index"]["uuid"].as_str().unwrap().to_string()
    }
}

/// ES's answer when building the query on the shard fails with Lucene's `TooManyClauses`.
fn too_many_clauses(uuid: &str, reason: &str, caused_by: Value) -> Value {
    let cause = json!({"type": "query_shard_exception", "reason": reason, "index_uuid": uuid, "index": INDEX});
    let mut full = cause.clone();
    full["caused_by"] = caused_by;
    json!({
        "error": {
            "root_cause": [cause],
            "type": "search_phase_execution_exception",
            "reason": "all shards failed",
            "phase": "query",
            "grouped": true,
            "failed_shards": [{"shard": 0, "index": INDEX, "node": metagate::NODE_ID, "reason": full}]
        },
        "status": 400
    })
}

fn lucene_too_many_clauses() -> Value {
    json!({"type": "too_many_clauses", "reason": "maxClauseCount is set to 1024"})
}

fn words(n: usize, sep: &str) -> String {
    (0..n).map(|i| format!("w{i}")).collect::<Vec<_>>().join(sep)
}

#[test]
fn clause_limits_count_each_boolean_query_as_lucene_does() {
    let f = fixture("bounds-clauses", unlimited());
    let uuid = f.uuid();
    let built =
        too_many_clauses(&uuid, "failed to create query: maxClauseCount is set to 1024", lucene_too_many_clauses());

    // query_string: 20,000 OR-ed terms. Lucene's parser turns TooManyClauses into a
    // ParseException, which ES reports like a syntax error.
    let q = words(20_000, " OR ");
    let (status, body) = f.search(json!({"query": {"query_string": {"query": q, "default_field": "description"}}}));
    assert_eq!(status, 400);
    let parse = json!({"type": "parse_exception", "reason": format!("Cannot parse '{q}': too many boolean clauses"),
        "caused_by": lucene_too_many_clauses()});
    assert_eq!(body, too_many_clauses(&uuid, &format!("Failed to parse query [{q}]"), parse));
    // The same through the URI's `q`.
    let (status, body) = f.send("GET", &format!("/{INDEX}/_search?df=description&q={}", words(1025, "+OR+")), "");
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["failed_shards"][0]["reason"]["caused_by"]["reason"],
        json!(format!("Cannot parse '{}': too many boolean clauses", words(1025, " OR ")))
    );

    // The words of simple_query_string, match and multi_match become one clause each.
    let text = words(1025, " ");
    for query in [
        json!({"simple_query_string": {"query": text, "fields": ["description"]}}),
        json!({"match": {"description": text}}),
        json!({"match": {"description": {"query": text, "operator": "and"}}}),
        json!({"multi_match": {"query": text, "fields": ["description", "name"]}}),
        json!({"multi_match": {"query": text, "fields": ["description", "name"], "type": "cross_fields"}}),
        // Every field, numbers included, is lenient about values, not about size.
        json!({"multi_match": {"query": text}}),
    ] {
        assert_eq!(f.search(json!({"query": query})), (400, built.clone()), "{query}");
    }
    // 1024 words are one boolean query at the limit: accepted.
    let (status, body) = f.search(json!({"query": {"match": {"description": words(1023, " ") + " alignment"}}}));
    assert_eq!(status, 200, "{body}");
    assert!(body["hits"]["total"].as_u64().unwrap() > 0);

    // bool: 1025 clauses fail, in query and in filter context alike...
    let clauses: Vec<Value> = (0..1025).map(|i| json!({"term": {"count": i}})).collect();
    assert_eq!(f.search(json!({"query": {"bool": {"should": clauses}}})), (400, built.clone()));
    assert_eq!(
        f.search(json!({"query": {"constant_score": {"filter": {"bool": {"filter": clauses}}}}})),
        (400, built.clone())
    );
    // ...while two of 1000 each are two boolean queries within the limit (Lucene 7 counts
    // per BooleanQuery), and a terms query of 5,000 values is no boolean query at all.
    let half: Vec<Value> = (0..1000).map(|i| json!({"term": {"count": i}})).collect();
    let other: Vec<Value> = (1000..2000).map(|i| json!({"term": {"count": i}})).collect();
    let values: Vec<usize> = (0..5000).collect();
    let (status, body) = f.search(json!({"size": 0, "query": {"bool": {
        "should": [{"bool": {"should": half}}, {"bool": {"should": other}}],
        "filter": {"terms": {"count": values}}, "minimum_should_match": 1}}}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["hits"]["total"], json!(2000));
}

#[test]
fn terms_and_regexp_sizes_and_fuzzy_expansions_are_bounded() {
    let f = fixture("bounds-terms", unlimited());
    // Past `index.max_terms_count`, ES 6.8 warns and runs the query (7.0 refuses it).
    let values: Vec<usize> = (0..65_537).collect();
    let (status, body, warnings) = f.search_warned(json!({"size": 0, "query": {"terms": {"count": values}}}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["hits"]["total"], json!(DOCS));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("\"Deprecated: the number of terms [65537] used in the Terms Query request has exceeded the allowed maximum of [65536]. This maximum can be set by changing the [index.max_terms_count] index level setting.\""),
        "{warnings:?}"
    );
    let values: Vec<usize> = (0..65_536).collect();
    let (status, body, warnings) = f.search_warned(json!({"size": 0, "query": {"terms": {"count": values}}}));
    assert_eq!((status, &body["hits"]["total"], warnings.len()), (200, &json!(DOCS), 0));

    let (status, body) = f.search(json!({"query": {"regexp": {"name.keyword": "a".repeat(1001)}}}));
    assert_eq!(status, 400);
    assert_eq!(body["error"]["root_cause"][0]["reason"], "The length of regex [1001] used in the Regexp Query request has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.");
    // A pattern whose automaton would pass 10,000 states is refused, not compiled.
    let (status, body) = f.search(json!({"query": {"regexp": {"name.keyword": "((a{100}){100}){10}"}}}));
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["root_cause"][0]["type"], "too_complex_to_determinize_exception", "{body}");

    // fuzzy keeps at most min(max_expansions, 1024) terms (Lucene's top-terms rewrite):
    // all 1,296 codes lie within two edits of "ab", yet asking for a million expansions
    // matches 1024 of them, and the default (50) matches 50.
    let fuzzy = |extra: Value| {
        let mut q = json!({"value": "ab", "fuzziness": 2});
        if let Value::Object(m) = extra {
            q.as_object_mut().unwrap().extend(m);
        }
        f.search(json!({"size": 0, "query": {"fuzzy": {"code.keyword": q}}})).1["hits"]["total"].clone()
    };
    assert_eq!(fuzzy(json!({"max_expansions": 1_000_000})), json!(1024));
    assert_eq!(fuzzy(json!({})), json!(50));
}

#[test]
fn size_window_nesting_and_body_size_are_bounded() {
    let f = fixture("bounds-window", GatewayConfig { rate_limit: 0.0, max_body: 64 * 1024, ..Default::default() });
    // ES 6.8 raises both on the shard as query_phase_execution_exception, 500 (7.0 made
    // them 400).
    let (status, body) = f.search(json!({"size": 10_001}));
    assert_eq!(status, 500);
    assert_eq!(body["error"]["root_cause"][0]["type"], "query_phase_execution_exception");
    assert_eq!(body["error"]["root_cause"][0]["reason"], "Result window is too large, from + size must be less than or equal to: [10000] but was [10001]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.");
    let (status, body) = f.send("POST", &format!("/{INDEX}/_search?scroll=1m"), &json!({"size": 10_001}).to_string());
    assert_eq!(status, 500);
    assert!(
        body["error"]["root_cause"][0]["reason"]
            .as_str()
            .unwrap()
            .starts_with("Batch size is too large, size must be less than or equal to: [10000] but was [10001]."),
        "{body}"
    );

    // A body over the server's limit is refused before it is parsed.
    let big = json!({"query": {"match": {"description": "x ".repeat(40 * 1024)}}}).to_string();
    assert_eq!(f.send("POST", &format!("/{INDEX}/_search"), &big).0, 413);

    // Nesting: JSON deeper than the JSON reader accepts (128 levels; a query of 64 `bool`
    // levels is as deep) is a malformed body, which ES 6.8 answers with 500
    // `json_parse_exception`; nothing recurses past it.
    let mut q = json!({"match_all": {}});
    for _ in 0..100 {
        q = json!({"bool": {"must": q}});
    }
    let deep = "[".repeat(5000) + &"]".repeat(5000);
    for body in [json!({"query": q}).to_string(), format!("{{\"query\":{deep}}}")] {
        let (status, answer) = f.send("POST", &format!("/{INDEX}/_search"), &body);
        assert_eq!(status, 500, "{answer}");
        assert_eq!(answer["error"]["root_cause"][0]["type"], "json_parse_exception");
        assert!(answer["error"]["root_cause"][0]["reason"].as_str().unwrap().contains("recursion limit exceeded"));
    }
}

#[test]
fn buckets_are_bounded_before_they_are_built() {
    let f = fixture("bounds-buckets", unlimited());
    let (status, body) =
        f.search(json!({"size": 0, "aggs": {"h": {"histogram": {"field": "count", "interval": 0.01}}}}));
    assert_eq!(status, 500);
    let cause = &body["error"]["root_cause"][0];
    assert_eq!(cause["type"], "too_many_buckets_exception");
    assert_eq!(cause["max_buckets"], json!(10_000));
    assert!(cause["reason"]
        .as_str()
        .unwrap()
        .starts_with("Trying to create too many buckets. Must be less than or equal to: [10000] but was ["));
}

#[test]
fn highlighting_reads_at_most_a_million_characters_of_a_field() {
    let file = common::temp_file("bounds-highlight");
    let e = metagate::Engine::open_or_create(&file).unwrap();
    let big = "word ".repeat(200_001);
    let docs = [("big", json!({"description": big})), ("small", json!({"description": "a word or two"}))];
    e.load(INDEX, common::bulk(&docs).as_bytes(), &Default::default(), &mut |_, _| {}).unwrap();
    let key = keys::add(&e, "tester").unwrap();
    let f = Fixture { gateway: Gateway::new(Arc::new(e), unlimited()), key, file };
    let highlight = json!({"fields": {"description": {}}});
    let (status, body) = f.search(json!({"query": {"match": {"description": "word"}}, "highlight": highlight}));
    assert_eq!(status, 400);
    let reason = format!("The length of [description] field of [big] doc of [{INDEX}] index has exceeded [1000000] - maximum allowed to be analyzed for highlighting. This maximum can be set by changing the [index.highlight.max_analyzed_offset] index level setting. For large texts, indexing with offsets or term vectors is recommended!");
    assert_eq!(body["error"]["root_cause"], json!([{"type": "illegal_argument_exception", "reason": reason}]));
    assert_eq!(body["error"]["phase"], "fetch");
    // The small document alone highlights as usual; the big one without highlighting is found.
    let (status, body) = f.search(json!({"query": {"bool": {"must": {"match": {"description": "word"}}, "filter": {"ids": {"values": ["small"]}}}}, "highlight": highlight}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["hits"]["hits"][0]["highlight"]["description"], json!(["a <em>word</em> or two"]));
    assert_eq!(
        f.search(json!({"query": {"match": {"description": "word"}}, "_source": false})).1["hits"]["total"],
        json!(2)
    );
}

#[test]
fn timeout_stops_collection_and_answers_timed_out() {
    let f = fixture("bounds-timeout", unlimited());
    let query = json!({"match": {"description": "alignment protein genome"}});
    let (status, full) = f.search(json!({"query": query}));
    assert_eq!(status, 200);
    assert_eq!(full["timed_out"], json!(false));
    let total = full["hits"]["total"].as_u64().unwrap();
    assert!(total > 1000);
    // A generous budget changes nothing.
    let (_, roomy) = f.search(json!({"query": query, "timeout": "1m"}));
    assert_eq!(roomy["timed_out"], json!(false));
    assert_eq!(roomy["hits"]["total"], json!(total));
    // A budget spent before collection starts: partial (here empty) results, 200, as ES.
    for (path, body) in [
        (format!("/{INDEX}/_search"), json!({"query": query, "timeout": "1micros"})),
        (format!("/{INDEX}/_search?timeout=1micros"), json!({"query": query})),
    ] {
        let (status, cut) = f.send("POST", &path, &body.to_string());
        assert_eq!(status, 200, "{cut}");
        assert_eq!(cut["timed_out"], json!(true), "{cut}");
        assert!(cut["hits"]["total"].as_u64().unwrap() < total);
        assert_eq!(cut["_shards"]["failed"], json!(0));
    }
    // Scrolls ignore `timeout` (ES applies none to them): every page is whole.
    let (status, page) = f.send(
        "POST",
        &format!("/{INDEX}/_search?scroll=1m"),
        &json!({"query": query, "timeout": "1micros"}).to_string(),
    );
    assert_eq!(status, 200);
    assert_eq!(page["timed_out"], json!(false));
    assert_eq!(page["hits"]["total"], json!(total));
    let (status, _) = f.send("DELETE", "/_search/scroll/_all", "");
    assert_eq!(status, 200);
}

#[test]
fn open_scrolls_and_keep_alive_are_bounded() {
    let f = fixture("bounds-scrolls", unlimited());
    let (status, body) = f.send("POST", &format!("/{INDEX}/_search?scroll=2d"), "{}");
    assert_eq!(status, 400);
    assert_eq!(body["error"]["root_cause"][0]["reason"], "Keep alive for scroll (2d) is too large. It must be less than (1d). This limit can be set by changing the [search.max_keep_alive] cluster level setting.");

    // 100 live scrolls per key, 500 in all.
    let engine = metagate::Engine::open(&f.file).unwrap();
    let mut keys: Vec<String> = vec![f.key.clone()];
    keys.extend((1..=5).map(|i| keys::add(&engine, &format!("reader{i}")).unwrap()));
    let start = |key: &str| f.send_as(key, "POST", &format!("/{INDEX}/_search?scroll=1m"), r#"{"size":1}"#);
    let refusal = |max: usize| {
        let reason = format!("Trying to create too many scroll contexts. Must be less than or equal to: [{max}]. This limit can be set by changing the [search.max_open_scroll_context] setting.");
        (json!([{"type": "exception", "reason": reason}]), json!({"type": "exception", "reason": reason}))
    };
    for i in 0..100 {
        assert_eq!(start(&keys[0]).0, 200, "scroll {i}");
    }
    let (status, body) = start(&keys[0]);
    assert_eq!(status, 500);
    let (root_cause, shard_reason) = refusal(100);
    assert_eq!(body["error"]["root_cause"], root_cause);
    assert_eq!(body["error"]["type"], "search_phase_execution_exception");
    assert_eq!(body["error"]["failed_shards"][0]["reason"], shard_reason);
    for (k, key) in keys[1..5].iter().enumerate() {
        for i in 0..100 {
            assert_eq!(start(key).0, 200, "scroll {i} of key {k}");
        }
    }
    let (status, body) = start(&keys[5]);
    assert_eq!(status, 500);
    assert_eq!(body["error"]["root_cause"], refusal(500).0);
    // Clearing frees the contexts at once.
    assert_eq!(f.send("DELETE", "/_search/scroll/_all", "").0, 200);
    assert_eq!(start(&keys[5]).0, 200);
    assert_eq!(start(&keys[0]).0, 200);
    for key in &keys {
        assert_eq!(f.send_as(key, "DELETE", "/_search/scroll/_all", "").0, 200);
    }
}

#[test]
fn revoking_a_key_stops_it_at_once_in_another_process() {
    let f = fixture("bounds-revoke", unlimited());
    assert_eq!(f.search(json!({"size": 0})).0, 200);
    let out = std::process::Command::new(common::bin())
        .args(["keys", "revoke", "tester", "--file"])
        .arg(&f.file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The very next request of this (still running) gateway fails, as an unknown key does.
    let (status, body) = f.search(json!({"size": 0}));
    let unknown = Fixture { key: "not-a-key".into(), ..f };
    assert_eq!((status, body), unknown.search(json!({"size": 0})));
    assert_eq!(status, 403);
}

#[test]
fn without_key_bookkeeping_requests_leave_the_file_untouched() {
    let f = fixture("bounds-readonly", GatewayConfig { rate_limit: 0.0, record_key_use: false, ..Default::default() });
    let before = std::fs::read(&f.file).unwrap();
    for q in ["alignment", "protein", "tool 7"] {
        assert_eq!(f.send("GET", &format!("/{INDEX}/_search?q={}", q.replace(' ', "+")), "").0, 200);
    }
    assert_eq!(f.send("GET", &format!("/{INDEX}/_count"), "").0, 200);
    assert_eq!(f.send("GET", "/_cat/indices", "").0, 200);
    assert!(std::fs::read(&f.file).unwrap() == before, "a request wrote to the file");
    assert_eq!(keys::list(f.gateway.engine()).unwrap()[0].last_used_ms, None);

    // With bookkeeping (the default) the key's last use is the one thing written.
    let g = Fixture { gateway: Gateway::new(Arc::new(metagate::Engine::open(&f.file).unwrap()), unlimited()), ..f };
    assert_eq!(g.search(json!({"size": 0})).0, 200);
    // Written by the gateway's background writer, soon after the answer.
    let started = std::time::Instant::now();
    while keys::list(g.gateway.engine()).unwrap()[0].last_used_ms.is_none() {
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "the key's last use was never written");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn keys_never_reach_the_access_log() {
    let f = fixture("bounds-log", unlimited());
    let port = common::free_port();
    let mut child = std::process::Command::new(common::bin())
        .args(["serve", "--rate-limit", "0", "--no-key-bookkeeping", "--bind", &format!("127.0.0.1:{port}"), "--file"])
        .arg(&f.file)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    common::wait_until_listening(port);
    let addr = format!("127.0.0.1:{port}");
    let key = f.key.clone();
    let paths = [
        format!("/elastic/v1/{INDEX}/_search?key={key}&q=alignment"),
        format!("/elastic/v1/{INDEX}/_search?api_key={key}"),
        format!("/elastic/v1/nope/_search?k%65y={key}"),
        format!("/elastic/v1/other/x/y/z?key={key}"),
    ];
    for p in &paths {
        common::http::send(addr.as_str(), "GET", p, &[], "");
    }
    common::http::send(addr.as_str(), "GET", &format!("/elastic/v1/{INDEX}/_search"), &[("apikey", &key)], "");
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("<redacted>"), "{log}");
    assert!(log.lines().filter(|l| l.contains("_search")).count() >= 3, "{log}");
    assert!(!log.contains(&key), "a key reached the log:\n{log}");
}
