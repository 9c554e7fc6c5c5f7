//! BM25 scores equal Lucene 7's to the last f32 bit. The expected values are computed here
//! by an independent, literal transcription of Lucene's formulas (f32 arithmetic, one-byte
//! norms), not by the engine's code.

mod common;
use common::{hit_scores, lucene::lossy_length};
use serde_json::{json, Value};

fn expected(tf: u32, len: u32, df: u64, doc_count: u64, sum_ttf: u64, boost: f32) -> f32 {
    let idf = (1.0f64 + (doc_count as f64 - df as f64 + 0.5) / (df as f64 + 0.5)).ln() as f32;
    let avgdl = (sum_ttf as f64 / doc_count as f64) as f32;
    let norm = 1.2f32 * ((1.0f32 - 0.75f32) + 0.75f32 * lossy_length(len) as f32 / avgdl);
    let weight_value = idf * boost * (1.2f32 + 1.0f32);
    weight_value * tf as f32 / (tf as f32 + norm)
}

fn long_text(words: usize, extra: &str) -> String {
    let mut s: Vec<String> = (0..words).map(|i| format!("w{}", i % 17)).collect();
    s.push(extra.to_string());
    s.join(" ")
}

fn corpus() -> Vec<(&'static str, Value)> {
    vec![
        ("1", json!({"t": "alignment of sequences", "tags": ["genome", "alignment tool"]})),
        ("2", json!({"t": "fast alignment alignment search", "tags": ["search"]})),
        ("3", json!({"t": long_text(45, "alignment"), "tags": ["genome"]})),
        ("4", json!({"t": long_text(130, "search"), "tags": ["alignment", "genome", "protein structure"]})),
        ("5", json!({"t": "protein structure prediction"})),
        ("6", json!({"other": "no t field here"})),
    ]
}

fn lengths() -> Vec<(&'static str, u32)> {
    vec![("1", 3), ("2", 4), ("3", 46), ("4", 131), ("5", 3)]
}

#[test]
fn single_term_scores_are_bit_exact_including_lossy_norms() {
    let e = common::engine_with("bm25", "docs", None, &corpus(), None);
    let res = common::search(&e, "docs", r#"{"query":{"match":{"t":"alignment"}}}"#).unwrap();
    let doc_count = 5u64;
    let sum_ttf: u64 = lengths().iter().map(|(_, l)| *l as u64).sum();
    let tfs = [("1", 1u32), ("2", 2), ("3", 1)];
    let got = hit_scores(&res);
    assert_eq!(res["hits"]["total"], 3);
    for (id, tf) in tfs {
        let len = lengths().iter().find(|(i, _)| *i == id).unwrap().1;
        let want = expected(tf, len, 3, doc_count, sum_ttf, 1.0);
        let have = got.iter().find(|(i, _)| i == id).unwrap().1;
        assert_eq!(have.to_bits(), want.to_bits(), "doc {id}: {have} vs {want}");
    }
    // Doc 3 has 46 tokens: its norm is lossy (46 decodes to 44 is not exact in general).
    assert_ne!(lossy_length(131), 131);
}

#[test]
fn multi_valued_field_counts_all_values_with_gap() {
    let e = common::engine_with("bm25mv", "docs", None, &corpus(), None);
    let res = common::search(&e, "docs", r#"{"query":{"match":{"tags":"genome"}}}"#).unwrap();
    // tags lengths: doc1 = 1+2, doc2 = 1, doc3 = 1, doc4 = 1+1+2.
    let tag_lengths = [("1", 3u32), ("2", 1), ("3", 1), ("4", 4)];
    let sum: u64 = tag_lengths.iter().map(|(_, l)| *l as u64).sum();
    for (id, have) in hit_scores(&res) {
        let len = tag_lengths.iter().find(|(i, _)| *i == id).unwrap().1;
        let want = expected(1, len, 3, 4, sum, 1.0);
        assert_eq!(have.to_bits(), want.to_bits(), "doc {id}");
    }
    // Phrases do not match across values (position increment gap 100).
    let res = common::search(&e, "docs", r#"{"query":{"match_phrase":{"tags":"genome alignment"}}}"#).unwrap();
    assert_eq!(res["hits"]["total"], 0);
}

#[test]
fn bool_of_several_clauses_sums_like_lucene() {
    let e = common::engine_with("bm25bool", "docs", None, &corpus(), None);
    let body = r#"{"query":{"bool":{
        "must":[{"match":{"t":{"query":"alignment","boost":2}}}],
        "should":[{"match":{"t":"search"}},{"match":{"tags":"genome"}}],
        "filter":[{"exists":{"field":"t"}}]}}}"#;
    let res = common::search(&e, "docs", body).unwrap();
    let sum_ttf: u64 = lengths().iter().map(|(_, l)| *l as u64).sum();
    let tag_sum = 3 + 1 + 1 + 4;
    let t_len = |id: &str| lengths().iter().find(|(i, _)| *i == id).unwrap().1;
    let tag_len = |id: &str| [("1", 3u32), ("2", 1), ("3", 1), ("4", 4)].iter().find(|(i, _)| *i == id).unwrap().1;
    // doc 1: must(alignment tf1) + should(genome)
    let d1_req = expected(1, t_len("1"), 3, 5, sum_ttf, 2.0);
    let d1_opt = expected(1, tag_len("1"), 3, 4, tag_sum, 1.0);
    let d1 = ((d1_req as f64) + (d1_opt as f64)) as f32;
    // doc 2: must(alignment tf2) + should(search tf1)
    let d2 = ((expected(2, t_len("2"), 3, 5, sum_ttf, 2.0) as f64)
        + (expected(1, t_len("2"), 2, 5, sum_ttf, 1.0) as f64)) as f32;
    // doc 3: must + should(genome), both optional clauses summed in f64 first
    let d3_opt = expected(1, tag_len("3"), 3, 4, tag_sum, 1.0);
    let d3 = ((expected(1, t_len("3"), 3, 5, sum_ttf, 2.0) as f64) + (d3_opt as f64)) as f32;
    let got = hit_scores(&res);
    assert_eq!(got.len(), 3);
    for (id, want) in [("1", d1), ("2", d2), ("3", d3)] {
        let have = got.iter().find(|(i, _)| i == id).unwrap().1;
        assert_eq!(have.to_bits(), want.to_bits(), "doc {id}: {have} vs {want}");
    }
    // Ranking is by score descending.
    let ordered: Vec<f32> = got.iter().map(|(_, s)| *s).collect();
    assert!(ordered.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(res["hits"]["max_score"].as_f64().unwrap() as f32, ordered[0]);
}

#[test]
fn es_documented_example_values() {
    // The ES 6.x explain example: docFreq 1, docCount 5 gives idf 1.3862944.
    let idf = (1.0f64 + (5.0 - 1.0 + 0.5) / (1.0 + 0.5)).ln() as f32;
    assert_eq!(idf, 1.3862944f32);
    let docs: Vec<(String, Value)> = (0..5)
        .map(|i| (i.to_string(), json!({"m": if i == 0 { "trying out elasticsearch".to_string() } else { format!("{} {} {} {} {} {}", "a", "b", "c", "d", "e", if i % 2 == 0 { "f f" } else { "g" }) }})))
        .collect();
    let e = common::engine_with("bm25doc", "twitter", None, &docs, None);
    let res = common::search(&e, "twitter", r#"{"query":{"term":{"m":"elasticsearch"}}}"#).unwrap();
    let s = res["hits"]["hits"][0]["_score"].as_f64().unwrap() as f32;
    let sum: u64 = 3 + 7 + 6 + 7 + 6;
    assert_eq!(s.to_bits(), expected(1, 3, 1, 5, sum, 1.0).to_bits());
}
