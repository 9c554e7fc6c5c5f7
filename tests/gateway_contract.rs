//! The specification's endpoint, authentication and error tables, through the
//! transport-free gateway (the HTTP server, the C ABI and Python call the same function).

mod common;
use common::response_header as header;
use metagate::gateway::{keys, Gateway, GatewayConfig, Request, Response};
use serde_json::{json, Value};
use std::sync::Arc;

fn setup(rate: f64) -> (Gateway, String) {
    let e = common::engine_with(
        "gw",
        "scr_005400-registry_tools_pr-rin-test",
        Some("RIN_Tool_pr"),
        &[
            (
                "rrid:scr_1",
                json!({"item": {"name": "BLAST", "description": "alignment search tool", "identifier": "SCR_1"}}),
            ),
            (
                "rrid:scr_2",
                json!({"item": {"name": "Clustal", "description": "multiple alignment", "identifier": "SCR_2"}}),
            ),
            ("rrid:scr_3", json!({"item": {"name": "ImageJ", "description": "image analysis", "identifier": "SCR_3"}})),
        ],
        Some(metagate::Family::Registry),
    );
    let key = keys::add(&e, "tester").unwrap();
    (Gateway::new(Arc::new(e), GatewayConfig { rate_limit: rate, ..Default::default() }), key)
}

fn req(method: &str, path: &str, key: Option<&str>, body: &str) -> Request {
    let mut headers = Vec::new();
    if let Some(k) = key {
        headers.push(("apikey".to_string(), k.to_string()));
    }
    if !body.is_empty() {
        headers.push(("Content-Type".to_string(), "application/json".to_string()));
    }
    Request { method: method.into(), path: path.into(), headers, body: body.as_bytes().to_vec() }
}

fn json_of(r: &Response) -> Value {
    serde_json::from_slice(&r.body).unwrap_or(Value::Null)
}

fn assert_cors(r: &Response) {
    assert_eq!(header(r, "Access-Control-Allow-Origin"), ["*"]);
    assert_eq!(header(r, "Access-Control-Allow-Methods"), ["GET, POST, OPTIONS, HEAD"]);
    assert_eq!(
        header(r, "Access-Control-Allow-Headers"),
        ["Authorization, Origin, X-Requested-With, Content-Type, Accept"]
    );
}

#[test]
fn endpoint_1_post_search_and_2_get_search_on_both_bases() {
    let (g, key) = setup(0.0);
    for base in ["/elastic/v1", "/api/1/elastic"] {
        let r = g.handle(&req(
            "POST",
            &format!("{base}/RIN_Tool_pr/_search"),
            Some(&key),
            r#"{"query":{"match":{"item.description":"alignment"}}}"#,
        ));
        assert_eq!(r.status, 200);
        assert_cors(&r);
        let v = json_of(&r);
        assert_eq!(v["hits"]["total"], 2);
        assert_eq!(v["_shards"], json!({"total":1,"successful":1,"skipped":0,"failed":0}));
        assert_eq!(v["hits"]["hits"][0]["_index"], "scr_005400-registry_tools_pr-rin-test");
        assert_eq!(v["hits"]["hits"][0]["_type"], "rin");
        let r = g.handle(&req("GET", &format!("{base}/RIN_Tool_pr/_search?q=alignment&size=1"), Some(&key), ""));
        assert_eq!(r.status, 200);
        assert_eq!(json_of(&r)["hits"]["hits"].as_array().unwrap().len(), 1);
    }
    // GET with a body is read like POST; a type segment filters by _type.
    let r = g.handle(&req(
        "GET",
        "/elastic/v1/RIN_Tool_pr/rin/_search",
        Some(&key),
        r#"{"query":{"term":{"_id":"rrid:scr_3"}}}"#,
    ));
    assert_eq!(json_of(&r)["hits"]["total"], 1);
    let r = g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/term/_search", Some(&key), ""));
    assert_eq!(json_of(&r)["hits"]["total"], 0);
    // Percent-encoded names and trailing slashes.
    let r = g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr%2C*_pr/_search/", Some(&key), ""));
    assert_eq!(json_of(&r)["hits"]["total"], 3);
    // HEAD: like GET without a body.
    let r = g.handle(&req("HEAD", "/elastic/v1/RIN_Tool_pr/_search", Some(&key), ""));
    assert_eq!(r.status, 200);
    assert!(r.body.is_empty());
}

#[test]
fn endpoints_3_and_4_scroll() {
    let (g, key) = setup(0.0);
    let r = g.handle(&req(
        "POST",
        "/elastic/v1/RIN_Tool_pr/_search?scroll=1s",
        Some(&key),
        r#"{"size":2,"query":{"match_all":{}}}"#,
    ));
    assert_eq!(r.status, 200);
    let v = json_of(&r);
    assert_eq!(v.as_object().unwrap().keys().next().unwrap(), "_scroll_id");
    let id = v["_scroll_id"].as_str().unwrap().to_string();
    let r = g.handle(&req(
        "POST",
        "/elastic/v1/_search/scroll",
        Some(&key),
        &json!({"scroll": "1s", "scroll_id": id}).to_string(),
    ));
    let v2 = json_of(&r);
    assert_eq!(v2["hits"]["hits"].as_array().unwrap().len(), 1);
    let id2 = v2["_scroll_id"].as_str().unwrap().to_string();
    // Clear, then continuing is a 404 search_context_missing_exception.
    let r = g.handle(&req(
        "DELETE",
        "/elastic/v1/_search/scroll",
        Some(&key),
        &json!({"scroll_id": [id2.clone()]}).to_string(),
    ));
    assert_eq!((r.status, json_of(&r)), (200, json!({"succeeded": true, "num_freed": 1})));
    let r = g.handle(&req(
        "DELETE",
        "/elastic/v1/_search/scroll",
        Some(&key),
        &json!({"scroll_id": id2.clone()}).to_string(),
    ));
    assert_eq!((r.status, json_of(&r)), (404, json!({"succeeded": true, "num_freed": 0})));
    let r = g.handle(&req("GET", &format!("/elastic/v1/_search/scroll?scroll=1m&scroll_id={id2}"), Some(&key), ""));
    assert_eq!(r.status, 404);
    assert_eq!(json_of(&r)["error"]["root_cause"][0]["type"], "search_context_missing_exception");
    let r = g.handle(&req(
        "POST",
        "/elastic/v1/_search/scroll",
        Some(&key),
        r#"{"scroll":"1m","scroll_id":"not-a-scroll-id"}"#,
    ));
    assert_eq!(r.status, 400);
    assert_eq!(json_of(&r)["error"]["reason"], "Cannot parse scroll id");
}

#[test]
fn endpoint_5_cat_aliases_and_6_options() {
    let (g, key) = setup(0.0);
    let r = g.handle(&req("GET", "/elastic/v1/_cat/aliases?v", Some(&key), ""));
    assert_eq!(r.status, 200);
    assert_eq!(String::from_utf8(r.body.clone()).unwrap(), "alias       index                                 filter routing.index routing.search\nRIN_Tool_pr scr_005400-registry_tools_pr-rin-test -      -             -\n");
    let r = g.handle(&req("GET", "/elastic/v1/_cat/aliases/RIN_*?format=json", Some(&key), ""));
    assert_eq!(
        json_of(&r),
        json!([{"alias":"RIN_Tool_pr","index":"scr_005400-registry_tools_pr-rin-test","filter":"-","routing.index":"-","routing.search":"-"}])
    );
    for key in [None, Some(key.as_str())] {
        let r = g.handle(&req("OPTIONS", "/elastic/v1/RIN_Tool_pr/_search", key, ""));
        assert_eq!(r.status, 200);
        assert!(r.body.is_empty());
        assert_eq!(header(&r, "Content-Type"), ["application/json"]);
        assert_eq!(header(&r, "Content-Length"), ["0"]);
        assert_cors(&r);
    }
}

#[test]
fn authentication_table() {
    let (g, key) = setup(0.0);
    // Header or key= parameter.
    assert_eq!(g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/_search", Some(&key), "")).status, 200);
    assert_eq!(g.handle(&req("GET", &format!("/elastic/v1/RIN_Tool_pr/_search?key={key}"), None, "")).status, 200);
    // api_key is not recognised: 400 with the exact ES text.
    let r = g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/_search?api_key=x", None, ""));
    assert_eq!(r.status, 400);
    assert_eq!(
        json_of(&r),
        json!({"error":{"root_cause":[{"type":"illegal_argument_exception","reason":"request [/elastic/v1/RIN_Tool_pr/_search] contains unrecognized parameter: [api_key]"}],"type":"illegal_argument_exception","reason":"request [/elastic/v1/RIN_Tool_pr/_search] contains unrecognized parameter: [api_key]"},"status":400})
    );
    // No key: 401 with the three challenges in the body and as headers.
    let r = g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/_search?q=x", None, ""));
    assert_eq!(r.status, 401);
    let challenges = ["Bearer realm=\"security\"", "ApiKey", "Basic realm=\"security\" charset=\"UTF-8\""];
    assert_eq!(header(&r, "WWW-Authenticate"), challenges);
    let v = json_of(&r);
    assert_eq!(v["error"]["type"], "security_exception");
    assert_eq!(
        v["error"]["reason"],
        "missing authentication token for REST request [/elastic/v1/RIN_Tool_pr/_search?q=x]"
    );
    assert_eq!(v["error"]["header"]["WWW-Authenticate"], json!(challenges));
    assert_eq!(v["error"]["root_cause"][0]["header"]["WWW-Authenticate"], json!(challenges));
    assert_eq!(v["status"], 401);
    assert_cors(&r);
    // Unknown key, then a revoked one: 403.
    let r = g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/_search", Some("wrong"), ""));
    assert_eq!(r.status, 403);
    assert_eq!(json_of(&r)["error"]["type"], "security_exception");
    keys::revoke(g.engine(), "tester").unwrap();
    assert_eq!(g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/_search", Some(&key), "")).status, 403);
}

#[test]
fn rate_limit_answers_429_with_retry_after() {
    let (g, key) = setup(2.0);
    let statuses: Vec<u16> =
        (0..4).map(|_| g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/_search", Some(&key), "")).status).collect();
    assert_eq!(&statuses[..2], &[200, 200]);
    let r = g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/_search", Some(&key), ""));
    assert_eq!(r.status, 429);
    assert_eq!(header(&r, "Retry-After"), ["1"]);
    assert_eq!(json_of(&r)["error"]["type"], "es_rejected_execution_exception");
}

#[test]
fn error_table() {
    let (g, key) = setup(0.0);
    // 400 unrecognized parameter with a suggestion.
    let r = g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/_search?sze=1", Some(&key), ""));
    assert_eq!(
        json_of(&r)["error"]["reason"],
        "request [/elastic/v1/RIN_Tool_pr/_search] contains unrecognized parameter: [sze] -> did you mean [size]?"
    );
    // df only with q.
    assert_eq!(g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/_search?df=x", Some(&key), "")).status, 400);
    assert_eq!(
        g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/_search?q=blast&df=item.name", Some(&key), "")).status,
        200
    );
    // 404 index_not_found_exception with its metadata.
    let r = g.handle(&req("GET", "/elastic/v1/Nope_pr/_search", Some(&key), ""));
    assert_eq!(r.status, 404);
    assert_eq!(json_of(&r)["error"]["resource.id"], "Nope_pr");
    assert_eq!(json_of(&r)["error"]["index_uuid"], "_na_");
    // 500 json_parse_exception for a body that is not JSON (a missing colon).
    let r = g.handle(&req("POST", "/elastic/v1/RIN_Tool_pr/_search", Some(&key), r#"{"query" {"match_all":{}}}"#));
    assert_eq!(r.status, 500);
    assert_eq!(json_of(&r)["error"]["type"], "json_parse_exception");
    // Unknown query type.
    let r = g.handle(&req("POST", "/elastic/v1/RIN_Tool_pr/_search", Some(&key), r#"{"query":{"nope":{}}}"#));
    assert_eq!(json_of(&r)["error"]["reason"], "no [query] registered for [nope]");
    // Result window: 500 search_phase_execution_exception wrapping the 6.8 text.
    let r = g.handle(&req("POST", "/elastic/v1/RIN_Tool_pr/_search", Some(&key), r#"{"from":9995,"size":10}"#));
    assert_eq!(r.status, 500);
    let v = json_of(&r);
    assert_eq!(v["error"]["type"], "search_phase_execution_exception");
    assert_eq!(v["error"]["root_cause"][0]["reason"], "Result window is too large, from + size must be less than or equal to: [10000] but was [10005]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.");
    // Unknown route: 400 text; wrong method: 405 with Allow.
    let r = g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/_recovery", Some(&key), ""));
    assert_eq!(
        (r.status, String::from_utf8(r.body.clone()).unwrap()),
        (400, "No handler found for uri [/elastic/v1/RIN_Tool_pr/_recovery] and method [GET]".to_string())
    );
    let r = g.handle(&req("PUT", "/elastic/v1/_search/scroll", Some(&key), ""));
    assert_eq!(r.status, 405);
    assert_eq!(
        json_of(&r),
        json!({"error":"Incorrect HTTP method for uri [/elastic/v1/_search/scroll] and method [PUT], allowed: [GET, POST, DELETE]","status":405})
    );
    assert_eq!(header(&r, "Allow"), ["GET,POST,DELETE"]);
    // Content-Type rules.
    let mut bad = req("POST", "/elastic/v1/RIN_Tool_pr/_search", Some(&key), "{}");
    bad.headers.retain(|(k, _)| k != "Content-Type");
    assert_eq!(json_of(&g.handle(&bad)), json!({"error":"Content-Type header is missing","status":406}));
    bad.headers.push(("Content-Type".into(), "text/plain".into()));
    assert_eq!(
        json_of(&g.handle(&bad)),
        json!({"error":"Content-Type header [text/plain] is not supported","status":406})
    );
    // filter_path and pretty apply to every response.
    let r = g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/_search?filter_path=hits.total&pretty", Some(&key), ""));
    assert_eq!(String::from_utf8(r.body).unwrap(), "{\n  \"hits\" : {\n    \"total\" : 3\n  }\n}\n");
}

#[test]
fn cat_aliases_answers_in_the_format_or_accept_asked_for() {
    let (g, key) = setup(0.0);
    let yaml = "---\n- alias: \"RIN_Tool_pr\"\n  index: \"scr_005400-registry_tools_pr-rin-test\"\n  filter: \"-\"\n  routing.index: \"-\"\n  routing.search: \"-\"\n";
    let r = g.handle(&req("GET", "/elastic/v1/_cat/aliases?format=yaml", Some(&key), ""));
    assert_eq!(
        (r.status, String::from_utf8_lossy(&r.body).as_ref(), header(&r, "Content-Type")),
        (200, yaml, vec!["application/yaml"])
    );
    let mut accept = req("GET", "/api/1/elastic/_cat/aliases", Some(&key), "");
    accept.headers.push(("Accept".into(), "application/json".into()));
    let r = g.handle(&accept);
    assert_eq!(header(&r, "Content-Type"), ["application/json; charset=UTF-8"]);
    assert_eq!(
        json_of(&r),
        json!([{"alias": "RIN_Tool_pr", "index": "scr_005400-registry_tools_pr-rin-test", "filter": "-", "routing.index": "-", "routing.search": "-"}])
    );
    accept.headers.push(("Accept".into(), "application/yaml".into()));
    accept.headers.retain(|(k, v)| !(k == "Accept" && v == "application/json"));
    assert_eq!(g.handle(&accept).body, yaml.as_bytes());
    // `format` wins over `Accept`; a type ES does not render is the text table.
    accept.path = "/api/1/elastic/_cat/aliases?format=text".into();
    let r = g.handle(&accept);
    assert_eq!(header(&r, "Content-Type"), ["text/plain; charset=UTF-8"]);
    assert!(String::from_utf8_lossy(&r.body).starts_with("RIN_Tool_pr scr_005400"));
    assert_cors(&r);
}

#[test]
fn deprecated_forms_answer_with_es_warning_headers() {
    let (g, key) = setup(0.0);
    let warning_of = |r: &Response| -> Vec<String> { header(r, "Warning").iter().map(|s| s.to_string()).collect() };
    let check = |w: &str, message: &str| {
        // The agent as ES's clients match it: the version, then a 7-hex-digit build.
        let build = w.strip_prefix("299 Elasticsearch-6.8.23-").and_then(|r| r.get(..7)).unwrap_or_default();
        assert!(build.len() == 7 && build.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')), "{w}");
        let prefix = format!("299 Elasticsearch-6.8.23-{build} \"{message}\" \"");
        assert!(w.starts_with(&prefix) && w.ends_with(" GMT\""), "{w}");
        // The date is RFC 7231's: `Tue, 24 Nov 2026 06:10:00 GMT`.
        let date = &w[prefix.len()..w.len() - 1];
        assert!(chrono::NaiveDateTime::parse_from_str(date, "%a, %d %b %Y %H:%M:%S GMT").is_ok(), "{date}");
    };
    let body =
        json!({"size": 0, "aggs": {"t": {"terms": {"field": "item.name.aggregate", "order": {"_term": "asc"}}}}})
            .to_string();
    let r = g.handle(&req("POST", "/elastic/v1/RIN_Tool_pr/_search", Some(&key), &body));
    assert_eq!(r.status, 200);
    let w = warning_of(&r);
    assert_eq!(w.len(), 1);
    check(&w[0], "Deprecated aggregation order key [_term] used, replaced by [_key]");
    // Ordered by key all the same.
    let keys: Vec<Value> =
        json_of(&r)["aggregations"]["t"]["buckets"].as_array().unwrap().iter().map(|b| b["key"].clone()).collect();
    assert_eq!(keys, [json!("blast"), json!("clustal"), json!("imagej")]);
    let r = g.handle(&req(
        "GET",
        "/elastic/v1/RIN_Tool_pr/_search?_source_include=item.name&size=1&sort=_id",
        Some(&key),
        "",
    ));
    let w = warning_of(&r);
    assert_eq!(w.len(), 1);
    check(&w[0], "Deprecated parameter [_source_include] used, expected [_source_includes] instead");
    assert_eq!(json_of(&r)["hits"]["hits"][0]["_source"], json!({"item": {"name": "BLAST"}}));
    // The current spellings warn of nothing, and a warning does not outlive its request.
    let r = g.handle(&req("GET", "/elastic/v1/RIN_Tool_pr/_search?_source_includes=item.name", Some(&key), ""));
    assert!(warning_of(&r).is_empty());
}

#[test]
fn date_math_index_names_resolve_as_in_es() {
    let today = chrono::Utc::now().format("logs-%Y.%m.%d").to_string();
    let e = common::engine_with("gw-datemath", &today, None, &[("1", json!({"m": "hello"}))], None);
    let key = keys::add(&e, "tester").unwrap();
    let g = Gateway::new(Arc::new(e), GatewayConfig { rate_limit: 0.0, ..Default::default() });
    // `<logs-{now/d}>`, URL-encoded as clients send it.
    let r = g.handle(&req("GET", "/elastic/v1/%3Clogs-%7Bnow%2Fd%7D%3E/_search", Some(&key), ""));
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(json_of(&r)["hits"]["hits"][0]["_index"], json!(today));
    let r = g.handle(&req("GET", "/elastic/v1/%3Clogs-%7Bnow%2Fd%7D%3E,nothing*/_search", Some(&key), ""));
    assert_eq!(json_of(&r)["hits"]["total"], json!(1));
    let r = g.handle(&req("GET", "/elastic/v1/%3Clogs-%7Bnow%2Fd%3E/_search", Some(&key), ""));
    assert_eq!(
        (r.status, json_of(&r)),
        (
            400,
            json!({"error": {"root_cause": [{"type": "parse_exception", "reason": "invalid dynamic name expression [logs-{now/d>]. date math placeholder is open ended"}],
                             "type": "parse_exception", "reason": "invalid dynamic name expression [logs-{now/d>]. date math placeholder is open ended"},
                   "status": 400})
        )
    );
}

/// `text` with what two equal answers may differ in blanked: each `took` (the time) and
/// `_scroll_id` (each scroll's own id), and the date of each `Warning` header.
fn comparable(r: &Response) -> (u16, Vec<(String, String)>, String) {
    let mut body = String::from_utf8_lossy(&r.body).into_owned();
    for (member, quoted) in [("\"took\"", false), ("\"_scroll_id\"", true)] {
        let mut at = 0;
        while let Some(found) = body[at..].find(member) {
            let start = at + found + member.len();
            let rest = &body[start..];
            let skip = rest.len() - rest.trim_start_matches([' ', ':']).len();
            let value = &rest[skip..];
            let len = if quoted {
                value[1..].find('"').map_or(0, |end| end + 2)
            } else {
                value.len() - value.trim_start_matches(|c: char| c.is_ascii_digit()).len()
            };
            body.replace_range(start + skip..start + skip + len, "_");
            at = start;
        }
    }
    let headers = r
        .headers
        .iter()
        .map(|(k, v)| match v.rfind(" \"") {
            Some(date) if k == "Warning" => (k.clone(), v[..date].to_string()),
            _ => (k.clone(), v.clone()),
        })
        .collect();
    (r.status, headers, body)
}

/// A parsed in-process call answers what the same request answers in process: status,
/// headers and bytes, for answers, parameter errors, parse errors, deprecation warnings
/// and rendering (the path as the call's door encodes it: `:` as `%3A`).
#[test]
fn parsed_calls_answer_as_their_requests() {
    use metagate::gateway::call::Call;
    let (g, _) = setup(0.0);
    let asked = |method: &str, path: &str, body: &str| {
        let (p, q) = path.split_once('?').unwrap_or((path, ""));
        g.handle_in_process(&Request::local(method, p, q, body))
    };
    let same_as = |call: Call, expected: &Response, what: &str| {
        let answered = g.call(call);
        assert_eq!(comparable(&answered), comparable(expected), "{what}");
        answered
    };
    let same = |call: Call, method: &str, path: &str, body: &str| {
        same_as(call, &asked(method, path, body), &format!("{method} {path} {body}"))
    };
    let index = "RIN_Tool_pr";
    for query in
        ["", "pretty", "filter_path=_id,found", "_source_includes=item.name", "size=1", "version=x", "version=2"]
    {
        same(Call::get(index, "_doc", "rrid:scr_1", query), "GET", &format!("/{index}/_doc/rrid%3Ascr_1?{query}"), "");
    }
    same(Call::get(index, "_doc", "nothing", ""), "GET", &format!("/{index}/_doc/nothing"), "");
    same(Call::get("nope", "_doc", "x", "pretty"), "GET", "/nope/_doc/x?pretty", "");
    for (query, body) in [
        ("", r#"{"ids":["rrid:scr_1","zz"]}"#),
        ("_source=false", r#"{"ids":["rrid:scr_2"]}"#),
        ("", "{"),
        ("", ""),
        ("fields=a", r#"{"ids":["rrid:scr_2"]}"#),
    ] {
        same(Call::mget(Some(index), query, body), "POST", &format!("/{index}/_mget?{query}"), body);
    }
    for query in ["include_type_name=true", "include_type_name=false&pretty", "include_type_name=true&local=x&bogus=1"]
    {
        same(Call::mapping(Some(index), query), "GET", &format!("/{index}/_mapping?{query}"), "");
    }
    same(
        Call::mapping(None, "include_type_name=true&ignore_unavailable=maybe"),
        "GET",
        "/_mapping?include_type_name=true&ignore_unavailable=maybe",
        "",
    );
    for (query, body) in [
        ("", ""),
        ("q=item.name:blast&size=1", ""),
        ("pretty", r#"{"size":1,"sort":["_doc"]}"#),
        ("filter_path=hits.total,hits.hits._id", ""),
        ("rest_total_hits_as_int=true&size=0", ""),
        ("typed_keys", r#"{"size":0,"aggs":{"n":{"value_count":{"field":"item.identifier"}}}}"#),
        ("_source_include=item.name&size=1", ""),
        ("source=%7B%22size%22%3A1%7D&source_content_type=application/json", ""),
        ("bogus=1", ""),
        ("sze=1", ""),
        ("size=x", ""),
        ("ignore_unavailable=maybe", ""),
        ("", "{"),
        ("", r#"{"query":{"bogus":{}}}"#),
        ("error_trace=true&pretty", r#"{"query":{"bogus":{}}}"#),
        ("filter_path=hits", r#"{"query":{"bogus":{}}}"#),
    ] {
        same(Call::search(index, query, body), "POST", &format!("/{index}/_search?{query}"), body);
    }
    let warned = g.call(Call::search(index, "_source_include=item.name", ""));
    assert_eq!(header(&warned, "Warning").len(), 1, "reading the call warns");
    same(Call::search("nope*,nope", "pretty", ""), "POST", "/nope%2A%2Cnope/_search?pretty", "");
    same(Call::search("_search", "", ""), "POST", "/_search/_search", "");
    for (query, body) in [
        ("", ""),
        ("q=item.name:blast", ""),
        ("pretty&filter_path=count", ""),
        ("terminate_after=1", r#"{"query":{"match_all":{}}}"#),
        ("size=1", ""),
        ("", "{"),
        ("", r#"{"size":1}"#),
        ("", r#"{"query":{"bogus":{}}}"#),
    ] {
        same(Call::count(index, query, body), "POST", &format!("/{index}/_count?{query}"), body);
    }
    let with_error_item = "{}\n{\"size\":1}\n{\"index\":\"nope\"}\n{}\n{}\n{\"query\":{\"bogus\":{}}}\n";
    for (query, body) in [
        ("", with_error_item),
        ("typed_keys&pretty", "{}\n{\"size\":0,\"aggs\":{\"n\":{\"value_count\":{\"field\":\"item.identifier\"}}}}\n"),
        ("filter_path=responses.status", with_error_item),
        ("bogus=1", with_error_item),
        ("", "not json\n{}\n"),
        ("", ""),
    ] {
        same(Call::msearch(Some(index), query, body), "POST", &format!("/{index}/_msearch?{query}"), body);
        same(Call::msearch(None, query, body), "POST", &format!("/_msearch?{query}"), body);
    }
    // A scroll through either door: equal pages, then equal clears.
    let body = r#"{"size":1,"sort":["_doc"]}"#;
    let expected = asked("POST", &format!("/{index}/_search?scroll=1m"), body);
    let started = same_as(Call::scroll_start(index, "1m", body), &expected, "scroll start");
    let id_of = |r: &Response| json_of(r)["_scroll_id"].as_str().unwrap_or_default().to_string();
    let (id, expected_id) = (id_of(&started), id_of(&expected));
    assert!(!id.is_empty() && id != expected_id);
    let next = |id: &str, keep: Option<&str>| {
        let mut body = json!({ "scroll_id": id });
        if let Some(keep) = keep {
            body["scroll"] = json!(keep);
        }
        asked("POST", "/_search/scroll", &body.to_string())
    };
    same_as(Call::scroll_next(&id, Some("1m")), &next(&expected_id, Some("1m")), "scroll next");
    same_as(Call::scroll_next(&id, None), &next(&expected_id, None), "scroll next without keep-alive");
    let clear = |ids: &[&str]| asked("DELETE", "/_search/scroll", &json!({ "scroll_id": ids }).to_string());
    for _ in 0..2 {
        let cleared = same_as(Call::clear_scroll(vec![id.clone()]), &clear(&[&expected_id]), "clear");
        assert_eq!(json_of(&cleared)["succeeded"], json!(true));
    }
    same_as(Call::scroll_next("garbage", Some("1m")), &next("garbage", Some("1m")), "a garbage id");
    same_as(Call::scroll_next("", None), &next("", None), "no id");
    same_as(Call::scroll_next("x", Some("10x")), &next("x", Some("10x")), "a bad keep-alive");
    same_as(Call::clear_scroll(Vec::new()), &clear(&[]), "no ids");
    same(Call::scroll_start(index, "10x", ""), "POST", &format!("/{index}/_search?scroll=10x"), "");
    same(Call::search(index, "scroll=1m&bogus=1", ""), "POST", &format!("/{index}/_search?scroll=1m&bogus=1"), "");
    same(Call::search(index, "scroll=1m", "{"), "POST", &format!("/{index}/_search?scroll=1m"), "{");
    let started = same(
        Call::search(index, "scroll=1m&size=1&pretty", ""),
        "POST",
        &format!("/{index}/_search?scroll=1m&size=1&pretty"),
        "",
    );
    assert!(!id_of(&started).is_empty());
    same(Call::clear_scroll(vec!["_all".into()]), "DELETE", "/_search/scroll", r#"{"scroll_id":["_all"]}"#);
}
