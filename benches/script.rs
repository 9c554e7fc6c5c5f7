//! Script evaluations per second: `doc['n'].value * params.f + Math.log(1 +
//! doc['m'].value)`, the measure of the interpreter's numeric path, run over
//! 1,000 documents' values per iteration by a host that reads them from columns (as the
//! search host reads doc values), so the figure is the interpreter's own cost.
//!
//! Run: `cargo bench --bench script`; criterion's throughput line is evaluations per
//! second (`elem/s`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use metagate::script::{DocKind, DocValues, Halt, Heap, Host, Script, Value};
use std::hint::black_box;

/// Doc values of two numeric fields, `n` (long) and `m` (double), by document.
struct Columns {
    n: Vec<i64>,
    m: Vec<f64>,
    doc: usize,
}

impl Host for Columns {
    fn doc_values(&mut self, name: &str, _offset: usize) -> Result<DocValues, Halt> {
        Ok(match name {
            "n" => DocValues { kind: DocKind::Longs, values: vec![Value::Long(self.n[self.doc])] },
            _ => DocValues { kind: DocKind::Doubles, values: vec![Value::Double(self.m[self.doc])] },
        })
    }
    fn doc_first(&mut self, field: usize, _name: &str, _offset: usize) -> Result<Value, Halt> {
        // Field numbers follow the script's first reads: 0 is `n`, 1 is `m`.
        Ok(if field == 0 { Value::Long(self.n[self.doc]) } else { Value::Double(self.m[self.doc]) })
    }
    fn has_field(&mut self, _name: &str) -> bool {
        true
    }
    fn source(&mut self, _offset: usize) -> Result<serde_json::Value, Halt> {
        Ok(serde_json::Value::Null)
    }
    fn score(&mut self, _offset: usize) -> Result<f64, Halt> {
        Ok(1.0)
    }
    fn value(&mut self, _offset: usize) -> Result<Value, Halt> {
        Ok(Value::Null)
    }
}

fn bench(c: &mut Criterion) {
    const DOCS: usize = 1_000;
    let script =
        Script::compile("doc['n'].value * params.f + Math.log(1 + doc['m'].value)", serde_json::json!({"f": 1.5}));
    let mut host = Columns {
        n: (0..DOCS as i64).map(|i| i * 7 % 1000).collect(),
        m: (0..DOCS).map(|i| i as f64 / 3.0).collect(),
        doc: 0,
    };
    let mut heap = Heap::default();
    // The script computes what Rust computes.
    host.doc = 5;
    let v = script.run(&mut heap, &mut host).unwrap();
    assert_eq!(v, Value::Double(35.0 * 1.5 + (1.0 + 5.0 / 3.0f64).ln()));
    let mut group = c.benchmark_group("script");
    group.throughput(Throughput::Elements(DOCS as u64));
    group.bench_function("doc_n_times_param_plus_log", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for d in 0..DOCS {
                host.doc = d;
                if let Ok(Value::Double(x)) = script.run(&mut heap, &mut host) {
                    sum += x;
                }
            }
            black_box(sum)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
