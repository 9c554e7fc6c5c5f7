//! The term and completion suggesters against Lucene itself (tests/lucene/LuceneSuggest.java
//! on Debian's liblucene8-java): generated documents and misspelled or partial queries,
//! every option's text, score (to the bit) and frequency or document compared.

mod common;

use common::mapped_index::{index, mapped, Index};
use serde_json::{json, Value};

const JARS: &str = "/usr/share/java/lucene-core-8.7.0.jar:/usr/share/java/lucene-analyzers-common-8.7.0.jar:/usr/share/java/lucene-suggest-8.7.0.jar";

fn lucene(input: &str) -> Vec<String> {
    common::lucene_analysis::java_oracle("LuceneSuggest", JARS, input.to_string())
}

/// A small deterministic generator.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

const SYLLABLES: [&str; 12] = ["ka", "lo", "mi", "ne", "ru", "sa", "tor", "vin", "zel", "bar", "cor", "den"];

fn word(g: &mut Lcg) -> String {
    (0..2 + g.next(2)).map(|_| SYLLABLES[g.next(12) as usize]).collect()
}

/// A misspelling: a swap, a drop, a change or an insertion.
fn misspell(g: &mut Lcg, w: &str) -> String {
    let mut c: Vec<char> = w.chars().collect();
    let i = 1 + g.next(c.len() as u64 - 1) as usize;
    match g.next(4) {
        0 if i + 1 < c.len() => c.swap(i, i + 1),
        1 => {
            c.remove(i);
        }
        2 => c[i] = 'x',
        _ => c.insert(i, 'e'),
    }
    c.into_iter().collect()
}

fn options(v: &Value, term: bool) -> String {
    v.as_array().unwrap()[0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let score = if term { &o["score"] } else { &o["_score"] };
            let bits = format!("{:x}", (score.as_f64().unwrap() as f32).to_bits());
            let last = if term { o["freq"].to_string() } else { o["_id"].as_str().unwrap().to_string() };
            format!("{}/{bits}/{last}", o["text"].as_str().unwrap())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn borrowed(docs: &[(String, Value)]) -> Vec<(&str, Value)> {
    docs.iter().map(|(id, d)| (id.as_str(), d.clone())).collect()
}

fn suggest(ix: &Index, body: Value) -> Value {
    ix.search(json!({"size": 0, "suggest": {"s": body}}))["suggest"]["s"].clone()
}

#[test]
fn suggestions_match_lucene() {
    let mut g = Lcg(7);
    let vocabulary: Vec<String> = (0..120).map(|_| word(&mut g)).collect();
    let mut input = String::new();
    let mut term_docs = Vec::new();
    for i in 0..300 {
        let text: Vec<&str> = (0..3 + g.next(4)).map(|_| vocabulary[g.next(120) as usize].as_str()).collect();
        let text = text.join(" ");
        input.push_str(&format!("T\t{text}\n"));
        term_docs.push((i.to_string(), json!({"body": text})));
    }
    let mut completion_docs = Vec::new();
    for i in 0..300 {
        let text = format!("{} {}", vocabulary[g.next(120) as usize], vocabulary[g.next(120) as usize]);
        let weight = g.next(40);
        input.push_str(&format!("C\t{weight}\t{text}\n"));
        completion_docs.push((i.to_string(), json!({"s": {"input": text, "weight": weight}})));
    }
    let mut queries: Vec<(bool, Value)> = Vec::new();
    for i in 0..90 {
        let w = vocabulary[g.next(120) as usize].clone();
        let token = if i % 5 == 4 { w } else { misspell(&mut g, &w) };
        let mode = ["MISSING", "POPULAR", "ALWAYS"][i % 3];
        let edits = 1 + (i / 3) % 2;
        input.push_str(&format!("QT\t{token}\t{mode}\t{edits}\n"));
        queries.push((
            true,
            json!({"text": token, "term": {"field": "body", "suggest_mode": mode.to_lowercase(), "max_edits": edits}}),
        ));
    }
    for i in 0..90 {
        let w = vocabulary[g.next(120) as usize].clone();
        let len = 1 + g.next(w.len() as u64) as usize;
        let fuzzy = i % 3;
        let prefix = if fuzzy > 0 { misspell(&mut g, &w) } else { w[..len].to_string() };
        let (prefix_length, transpositions) = (g.next(2), g.next(2));
        input.push_str(&format!("QC\t{prefix}\t{fuzzy}\t{prefix_length}\t{transpositions}\t0\n"));
        let mut completion = json!({"field": "s"});
        if fuzzy > 0 {
            completion["fuzzy"] =
                json!({"fuzziness": fuzzy, "prefix_length": prefix_length, "transpositions": transpositions == 1});
        }
        queries.push((false, json!({"prefix": prefix, "completion": completion})));
    }
    let expected = lucene(&input);
    assert_eq!(expected.len(), queries.len(), "the oracle answers every query");
    let term_ix = index("suggest_oracle_terms", mapped(json!({"body": {"type": "text"}})), &borrowed(&term_docs));
    let completion_ix =
        index("suggest_oracle_completion", mapped(json!({"s": {"type": "completion"}})), &borrowed(&completion_docs));
    let mut differ = Vec::new();
    let mut nonempty = 0;
    for ((term, body), want) in queries.iter().zip(&expected) {
        let ix = if *term { &term_ix } else { &completion_ix };
        let got = options(&suggest(ix, body.clone()), *term);
        nonempty += usize::from(!want.is_empty());
        if &got != want {
            differ.push(format!("{body}\n  lucene:   {want}\n  metagate: {got}"));
        }
    }
    assert!(nonempty > 100, "the cases suggest something ({nonempty})");
    assert!(differ.is_empty(), "{} of {} differ:\n{}", differ.len(), queries.len(), differ.join("\n"));
}
