//! `_analyze` of a 1 KB text (a demo registry tool description, cut at 1,024 bytes)
//! through the public API: request parsing, the analysis chain, the response JSON. Cases:
//! the default (`standard`) analyzer, a custom chain (mapping char filter,
//! lowercase, stop words, porter stemming), an `edge_ngram` 2-20 chain, and `explain`.
//!
//! Run: `cargo bench --bench analyze`.

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};
use std::hint::black_box;
use std::io::BufRead;

/// The first demo tool description of at least 1 KB, cut to 1,024 bytes.
fn text_1kb() -> String {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/data/demo/tools.ndjson.gz");
    let input = flate2::read::GzDecoder::new(std::fs::File::open(file).expect("demo tools file"));
    for line in std::io::BufReader::new(input).lines() {
        let doc: Value = serde_json::from_str(&line.expect("line")).expect("json");
        if let Some(d) = doc.pointer("/item/description").and_then(Value::as_str) {
            if d.len() >= 1024 {
                let mut end = 1024;
                while !d.is_char_boundary(end) {
                    end -= 1;
                }
                return d[..end].to_string();
            }
        }
    }
    panic!("no description of 1 KB in the demo tools");
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
    ];
    let mut group = c.benchmark_group("analyze_1kb");
    for (name, body) in cases {
        let body = body.to_string();
        group.bench_function(name, |b| {
            b.iter(|| black_box(metagate::analyze_request(black_box(&body)).expect("analyze")))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
