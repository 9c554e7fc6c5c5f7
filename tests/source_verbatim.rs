//! Stored `_source` goes into responses as loaded, byte for byte, as ES 6.8 copies an
//! unfiltered source into its response (`JsonXContentGenerator.writeRawField`): through
//! `_search`, scroll pages, GET, `_source`, `_mget`, `_msearch` and the in-process doors.
//! A `_source` filter, `filter_path` or `pretty` makes ES parse and write it again, and
//! so here.

mod common;
use metagate::gateway::{call::Call, Gateway, GatewayConfig, Request, Response};
use metagate::{Engine, HitValue, LoadOptions, SortShown};
use serde_json::Value;
use std::sync::Arc;

/// Valid JSON that a parse-and-write round trip would change: spacing, an exponent, a
/// trailing zero, `\u` and `\/` escapes.
const ODD: &str =
    r#"{"name" : "Caf\u00e9 tool",  "n":1.0E+2, "list":[ 1 ,2.50 ], "empty" : {}, "text":"tab\there \/"}"#;
/// The same document as serde_json (and Jackson) write it after parsing.
const ODD_REWRITTEN: &str = r#"{"name":"Café tool","n":100.0,"list":[1,2.5],"empty":{},"text":"tab\there /"}"#;
const PLAIN: &str = r#"{"name":"plain tool","n":3,"list":[4],"empty":{},"text":"x"}"#;

fn setup() -> Gateway {
    let e = Engine::open_or_create(&common::temp_file("verbatim")).unwrap();
    let bulk = format!(
        "{{\"index\":{{\"_id\":\"a\",\"_type\":\"rin\"}}}}\n{ODD}\n{{\"index\":{{\"_id\":\"b\",\"_type\":\"rin\"}}}}\n{PLAIN}\n"
    );
    e.load("odd", bulk.as_bytes(), &LoadOptions::default(), &mut |_, _| {}).unwrap();
    Gateway::new(Arc::new(e), GatewayConfig::default())
}

fn ask(g: &Gateway, method: &str, path: &str, query: &str, body: &str) -> Response {
    let mut r = Request::local(method, path, query, body);
    if path.contains("_msearch") {
        r.headers = vec![("Content-Type".into(), "application/x-ndjson".into())];
    }
    let resp = g.handle_in_process(&r);
    assert_eq!(resp.status, 200, "{method} {path}?{query}: {}", text(&resp));
    resp
}

fn text(r: &Response) -> String {
    String::from_utf8(r.body.clone()).unwrap()
}

fn source_member(source: &str) -> String {
    format!("\"_source\":{source}")
}

#[test]
fn unfiltered_sources_come_back_as_stored() {
    let g = setup();
    let odd = source_member(ODD);
    let hits = text(&ask(&g, "POST", "/odd/_search", "", r#"{"sort":["_doc"]}"#));
    assert!(hits.contains(&format!("{odd},\"sort\":[0]}},")), "{hits}");
    assert!(hits.contains(&source_member(PLAIN)), "{hits}");
    // The highlighter reads the parsed source; the hit still carries the stored bytes.
    let r = text(&ask(
        &g,
        "POST",
        "/odd/_search",
        "",
        r#"{"query":{"match":{"name":"café"}},"highlight":{"fields":{"name":{}}}}"#,
    ));
    assert!(r.contains(&format!("{odd},\"highlight\":{{\"name\":[\"<em>Café</em> tool\"]}}")), "{r}");
    // Scroll pages, the first and the next.
    let first = ask(&g, "POST", "/odd/_search", "scroll=1m", r#"{"size":1,"sort":["_doc"]}"#);
    assert!(text(&first).contains(&odd));
    let id = serde_json::from_slice::<Value>(&first.body).unwrap()["_scroll_id"].as_str().unwrap().to_string();
    let next = g.call(Call::scroll_next(&id, Some("1m")));
    assert!(text(&next).contains(&source_member(PLAIN)));
    // Documents by id.
    let doc = text(&ask(&g, "GET", "/odd/_doc/a", "", ""));
    assert_eq!(
        doc,
        format!(
            r#"{{"_index":"odd","_type":"_doc","_id":"a","_version":1,"_seq_no":0,"_primary_term":1,"found":true,{odd}}}"#
        )
    );
    assert_eq!(text(&ask(&g, "GET", "/odd/rin/a/_source", "", "")), ODD);
    assert!(text(&ask(&g, "POST", "/odd/_mget", "", r#"{"ids":["a"]}"#)).contains(&odd));
    // A collapse's inner hits copy their sources as the top hits do.
    let r = text(&ask(
        &g,
        "POST",
        "/odd/_search",
        "",
        r#"{"query":{"ids":{"values":["a"]}},"collapse":{"field":"name.keyword","inner_hits":{"name":"same"}}}"#,
    ));
    assert_eq!(r.matches(&odd).count(), 2, "{r}");
    let m = text(&ask(&g, "POST", "/_msearch", "", "{\"index\":\"odd\"}\n{\"size\":1}\n"));
    assert!(m.contains(&format!("{odd}}}]}},\"status\":200}}]}}")), "{m}");
    // The in-process doors (C, Python, WASM) ask the gateway with a typed call.
    assert!(text(&g.call(Call::search("odd", "size=1", ""))).contains(&odd));
    assert!(text(&g.call(Call::get("odd", "_doc", "a", ""))).contains(&odd));
}

#[test]
fn filters_and_rendering_write_the_parsed_source() {
    let g = setup();
    // A `_source` filter writes what it keeps.
    let r = text(&ask(&g, "GET", "/odd/_search", "size=1&_source_includes=n,name", ""));
    assert!(r.contains(r#""_source":{"name":"Café tool","n":100.0}"#), "{r}");
    let r = text(&ask(&g, "GET", "/odd/_doc/a", "_source_includes=n", ""));
    assert!(r.ends_with(r#""found":true,"_source":{"n":100.0}}"#), "{r}");
    assert_eq!(
        text(&ask(&g, "GET", "/odd/rin/a/_source", "_source_excludes=list,text", "")),
        r#"{"name":"Café tool","n":100.0,"empty":{}}"#
    );
    // `filter_path` and `pretty` render the response as a tree.
    let r = text(&ask(&g, "GET", "/odd/_search", "size=1&filter_path=hits.hits._source", ""));
    assert_eq!(r, format!(r#"{{"hits":{{"hits":[{{"_source":{ODD_REWRITTEN}}}]}}}}"#));
    let r = text(&ask(&g, "GET", "/odd/_search", "size=1&filter_path=hits.hits._source.n,hits.total&pretty", ""));
    assert_eq!(
        r,
        "{\n  \"hits\" : {\n    \"total\" : 2,\n    \"hits\" : [\n      {\n        \"_source\" : {\n          \"n\" : 100.0\n        }\n      }\n    ]\n  }\n}\n"
    );
    let r = text(&ask(&g, "GET", "/odd/rin/a/_source", "pretty", ""));
    assert_eq!(
        r,
        "{\n  \"name\" : \"Café tool\",\n  \"n\" : 100.0,\n  \"list\" : [\n    1,\n    2.5\n  ],\n  \"empty\" : { },\n  \"text\" : \"tab\\there /\"\n}\n"
    );
    let r = text(&ask(
        &g,
        "POST",
        "/_msearch",
        "filter_path=responses.hits.hits._id,responses.status",
        "{}\n{\"size\":1}\n",
    ));
    assert_eq!(r, r#"{"responses":[{"hits":{"hits":[{"_id":"a"}]},"status":200}]}"#);
}

#[test]
fn the_tree_api_reads_the_written_response() {
    let g = setup();
    let e = g.engine();
    let v = common::search(e, "odd", r#"{"size":1}"#).unwrap();
    assert_eq!(v["hits"]["hits"][0]["_source"], serde_json::from_str::<Value>(ODD).unwrap());
    let typed = e
        .search_request("odd", &metagate::SearchRequest::from_body(r#"{"size":1}"#).unwrap(), Default::default())
        .unwrap();
    assert_eq!((typed.total(), typed.hits().len()), (Some(2), 1));
    assert_eq!(typed.hits()[0].source_json().as_deref(), Some(ODD.as_bytes()));
    // Hits are typed: a collapse's field value, its group's inner hits and their sort values.
    let body = r#"{"size":1,"sort":["_doc"],"collapse":{"field":"name.keyword","inner_hits":{"name":"same","sort":["_doc"]}}}"#;
    let c =
        e.search_request("odd", &metagate::SearchRequest::parse(body, &[], &[]).unwrap(), Default::default()).unwrap();
    let top = &c.hits()[0];
    assert_eq!(top.fields().and_then(|f| f.get("name.keyword")), Some(&vec![HitValue::Str("Café tool".into())]));
    let inner = top.inner_hits().and_then(|i| i.get("same")).unwrap();
    assert_eq!((inner.total(), inner.hits()[0].id()), (Some(1), Some("a")));
    assert_eq!(inner.hits()[0].sort(), [SortShown::Long(0)]);
    let hits: Vec<Value> =
        e.scroll_iter(common::scroll_request("odd", r#"{"size":1}"#, "1m")).map(Result::unwrap).collect();
    assert_eq!(hits.iter().map(|h| h["_id"].as_str().unwrap()).collect::<Vec<_>>(), ["a", "b"]);
}
