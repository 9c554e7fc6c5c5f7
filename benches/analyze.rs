//! `_analyze` of a 1 KB text (demo registry tool descriptions, cut at 1,024 bytes)
//! through the public API: request parsing, the analysis chain, the response JSON bytes
//! (what the gateway sends). Cases:
//! the default (`standard`) analyzer, a custom chain (mapping char filter,
//! lowercase, stop words, porter stemming), an `edge_ngram` 2-20 chain, `explain`, and
//! `word_delimiter_graph` chains (with `flatten_graph`) and `kstem` against `whitespace`.
//!
//! Run: `cargo bench --bench analyze`.

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};
use std::hint::black_box;
use std::io::BufRead;

/// Demo tool descriptions, joined by spaces, cut to 1,024 bytes.
fn text_1kb() -> String {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/data/demo/tools.ndjson.gz");
    let input = flate2::read::GzDecoder::new(std::fs::File::open(file).expect("demo tools file"));
    let mut text = String::new();
    for line in std::io::BufReader::new(input).lines() {
        let doc: Value = serde_json::from_str(&line.expect("line")).expect("json");
        if let Some(d) = doc.pointer("/item/description").and_then(Value::as_str) {
            text.push_str(d);
            text.push(' ');
            if text.len() >= 1024 {
                let mut end = 1024;
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.truncate(end);
                return text;
            }
        }
    }
    panic!("the demo tools have less than 1 KB of descriptions");
}

fn bench(c: &mut Criterion) {
    let text = text_1kb();
    let cases = [
        ("standard", json!({"text": text})),
        (
            "custom_chain",
            json!({"text": text, "tokenizer": "standard",
                   "char_filter": [{"type": "mapping", "mappings": ["& => and"]}],
                   "filter": ["lowercase", "stop", "porter_stem"]}),
        ),
        (
            "edge_ngram_2_20",
            json!({"text": text, "tokenizer": "standard",
                   "filter": ["lowercase", {"type": "edge_ngram", "min_gram": 2, "max_gram": 20}]}),
        ),
        ("standard_explain", json!({"text": text, "analyzer": "standard", "explain": true})),
        ("whitespace", json!({"text": text, "tokenizer": "whitespace"})),
        (
            "word_delimiter_graph",
            json!({"text": text, "tokenizer": "whitespace", "filter": ["word_delimiter_graph", "lowercase"]}),
        ),
        (
            "word_delimiter_graph_catenate_flatten",
            json!({"text": text, "tokenizer": "whitespace",
                   "filter": [{"type": "word_delimiter_graph", "catenate_all": true, "preserve_original": true},
                              "flatten_graph", "lowercase"]}),
        ),
        ("kstem", json!({"text": text, "tokenizer": "standard", "filter": ["lowercase", "kstem"]})),
    ];
    let mut group = c.benchmark_group("analyze_1kb");
    for (name, body) in cases {
        let body = body.to_string();
        group.bench_function(name, |b| {
            b.iter(|| {
                let req = metagate::AnalyzeRequest::parse(black_box(&body)).expect("parse");
                black_box(metagate::analyze_request(&req).expect("analyze").to_bytes())
            })
        });
    }
    // The built-in enum's tokens alone (no request, no JSON), for comparison.
    group.bench_function("enum_standard_terms_only", |b| {
        b.iter(|| black_box(metagate::analyze("standard", black_box(&text)).expect("analyze")))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
