//! ES 6.8's Painless execute API (`_scripts/painless/_execute`) through the gateway: the
//! `painless_test`, `filter` and `score` contexts, their results and ES's errors.

mod common;

use common::mapped_index::{index, Index};
use serde_json::{json, Value};

fn fixture() -> Index {
    index(
        "script-execute",
        json!({
            "settings": {"analysis": {"normalizer": {"lower": {"type": "custom", "filter": ["lowercase"]}}}},
            "mappings": {"_doc": {"properties": {
                "rank": {"type": "long"},
                "price": {"type": "double"},
                "field": {"type": "keyword"},
                "tag": {"type": "keyword", "normalizer": "lower"},
                "text": {"type": "text"},
                "when": {"type": "date"},
                "flag": {"type": "boolean"}
            }}}
        }),
        &[("1", json!({"rank": 1}))],
    )
}

fn execute(ix: &Index, body: Value) -> (u16, Value) {
    ix.send("POST", "/_scripts/painless/_execute", body)
}

/// The result of a request that must succeed.
fn result(ix: &Index, body: Value) -> Value {
    let (status, v) = execute(ix, body);
    assert_eq!(status, 200, "{v}");
    v["result"].clone()
}

fn filter(ix: &Index, source: &str, document: Value) -> Value {
    result(
        ix,
        json!({"script": {"source": source}, "context": "filter",
                      "context_setup": {"index": "test", "document": document}}),
    )
}

fn score(ix: &Index, source: &str, document: Value) -> Value {
    result(
        ix,
        json!({"script": {"source": source, "params": {"max_rank": 5.0}}, "context": "score",
                      "context_setup": {"index": "test", "document": document}}),
    )
}

#[test]
fn painless_test_answers_the_value_as_java_prints_it() {
    let ix = fixture();
    let run =
        |source: &str| result(&ix, json!({"script": {"source": source, "params": {"count": 100.0, "total": 1000.0}}}));
    assert_eq!(run("params.count / params.total"), json!("0.1"));
    assert_eq!(run("10 - 100"), json!("-90"));
    assert_eq!(run("[1, 2L, 'x']"), json!("[1, 2, x]"));
    assert_eq!(run("null"), json!("null"));
    assert_eq!(run("1.0f / 3"), json!("0.33333334"));
    assert_eq!(run("Integer.MAX_VALUE + 1"), json!("-2147483648"));
    let explicit = json!({"script": {"source": "'a' + 1"}, "context": "painless_test"});
    assert_eq!(result(&ix, explicit), json!("a1"));
}

#[test]
fn filter_reads_the_document_as_the_index_would_index_it() {
    let ix = fixture();
    // Coerced, normalized, parsed as the mapping says.
    assert_eq!(filter(&ix, "doc['rank'].value == 3L", json!({"rank": "3"})), json!(true));
    assert_eq!(filter(&ix, "doc['tag'].value == 'mixed'", json!({"tag": "MiXeD"})), json!(true));
    assert_eq!(
        filter(&ix, "doc['when'].value.getYear() == 2019", json!({"when": "2019-03-01T10:05:00Z"})),
        json!(true)
    );
    assert_eq!(filter(&ix, "doc['flag'].value", json!({"flag": "false"})), json!(false));
    // Doc values are sorted (keywords also deduplicated).
    assert_eq!(
        filter(
            &ix,
            "doc['field'].values == ['a', 'b'] && doc['rank'].values == [2L, 2L, 5L]",
            json!({"field": ["b", "a", "b"], "rank": [5, 2, 2]})
        ),
        json!(true)
    );
    // A missing value reads as 6.8 reads it; `params._source` is the document.
    assert_eq!(filter(&ix, "doc['rank'].value == 0 && doc['field'].size() == 0", json!({})), json!(true));
    assert_eq!(filter(&ix, "params._source.other == 'x'", json!({"other": "x"})), json!(true));
    assert_eq!(filter(&ix, "doc['field'].value.length() <= 4", json!({"field": "four"})), json!(true));
}

#[test]
fn score_answers_a_double() {
    let ix = fixture();
    assert_eq!(score(&ix, "doc['rank'].value / params.max_rank", json!({"rank": 4})), json!(0.8));
    assert_eq!(score(&ix, "doc['rank'].value", json!({"rank": 4})), json!(4.0));
    assert_eq!(score(&ix, "_score", json!({"rank": 4})), json!(0.0));
    assert_eq!(score(&ix, "doc['price'].value * 2", json!({"price": "1.25"})), json!(2.5));
    assert_eq!(score(&ix, "doc['rank'].value / 0.0", json!({"rank": 4})), json!("Infinity"));
    assert_eq!(score(&ix, "0.0 / 0.0", json!({})), json!("NaN"));
}

/// Status, top type and reason, and the first cause's type and reason.
fn refused(ix: &Index, body: Value) -> (u16, String, String, String, String) {
    let (status, v) = execute(ix, body);
    let e = &v["error"];
    let text = |x: &Value| x.as_str().unwrap_or_default().to_string();
    (status, text(&e["type"]), text(&e["reason"]), text(&e["caused_by"]["type"]), text(&e["caused_by"]["reason"]))
}

#[test]
fn errors_are_es_errors() {
    let ix = fixture();
    let with = |context: &str, source: &str, document: Value| {
        json!({"script": {"source": source}, "context": context,
               "context_setup": {"index": "test", "document": document}})
    };
    // Compile errors, variables a context does not define included.
    let (status, kind, reason, cause, cause_reason) = refused(&ix, json!({"script": {"source": "doc['rank'].value"}}));
    assert_eq!((status, kind.as_str(), reason.as_str()), (400, "script_exception", "compile error"));
    assert_eq!(
        (cause.as_str(), cause_reason.as_str()),
        ("illegal_argument_exception", "Variable [doc] is not defined.")
    );
    let r = refused(&ix, with("filter", "_score > 0", json!({})));
    assert_eq!((r.0, r.2.as_str(), r.4.as_str()), (400, "compile error", "Variable [_score] is not defined."));
    let r = refused(&ix, json!({"script": {"source": "'a' ==~ /a/"}}));
    assert_eq!((r.1.as_str(), r.3.as_str()), ("script_exception", "illegal_state_exception"));
    // Runtime errors.
    let r = refused(&ix, json!({"script": {"source": "1 / 0"}}));
    assert_eq!(
        (r.0, r.1.as_str(), r.2.as_str(), r.3.as_str()),
        (400, "script_exception", "runtime error", "arithmetic_exception")
    );
    let r = refused(&ix, with("filter", "doc['text'].value == 'a'", json!({"text": "a"})));
    assert_eq!((r.2.as_str(), r.3.as_str()), ("runtime error", "illegal_argument_exception"));
    assert!(r.4.starts_with("Fielddata is disabled on text fields by default."), "{}", r.4);
    let r = refused(&ix, with("filter", "doc['rank'].value", json!({"rank": 1})));
    assert_eq!((r.2.as_str(), r.3.as_str()), ("runtime error", "class_cast_exception"));
    // The document must suit the mapping; the index must exist.
    let r = refused(&ix, with("filter", "true", json!({"rank": "many"})));
    assert_eq!((r.0, r.1.as_str()), (400, "mapper_parsing_exception"));
    let (status, v) = execute(
        &ix,
        with("score", "1", json!({})).pipe(|mut b| {
            b["context_setup"]["index"] = json!("missing");
            b
        }),
    );
    assert_eq!((status, &v["error"]["type"]), (404, &json!("index_not_found_exception")));
    // The request itself.
    let r = refused(&ix, json!({"script": {"source": "1"}, "context": "update"}));
    assert_eq!(
        (r.0, r.1.as_str(), r.2.as_str(), r.3.as_str(), r.4.as_str()),
        (
            400,
            "x_content_parse_exception",
            "Failed to build [painless_execute_request] after last required field arrived",
            "unsupported_operation_exception",
            "unsupported script context name [update]"
        )
    );
    let r = refused(&ix, json!({"script": {"source": "1"}, "context": "filter", "context_setup": {"document": {}}}));
    assert_eq!(
        (r.0, r.1.as_str(), r.2.as_str()),
        (
            400,
            "action_request_validation_exception",
            "Validation Failed: 1: index is a required parameter for current context;"
        )
    );
    let (status, v) = execute(&ix, Value::Null);
    assert_eq!((status, &v["error"]["type"]), (400, &json!("parse_exception")));
    // Only GET and POST.
    let (status, _) = ix.send("PUT", "/_scripts/painless/_execute", json!({"script": {"source": "1"}}));
    assert_eq!(status, 405);
    // A score context's query is not run here: refused rather than ignored.
    let mut b = with("score", "_score", json!({"rank": 1}));
    b["context_setup"]["query"] = json!({"match_all": {}});
    assert_eq!(refused(&ix, b).1, "illegal_argument_exception");
}

trait Pipe: Sized {
    fn pipe<T>(self, f: impl FnOnce(Self) -> T) -> T {
        f(self)
    }
}
impl Pipe for Value {}
