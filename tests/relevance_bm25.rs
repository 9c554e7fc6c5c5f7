//! Relevance: scores and rankings equal ES 6.8's (Lucene 7 BM25, one shard) for several
//! hundred generated queries over real registry records (the first 2000 tools of the demo
//! corpus: names, descriptions longer than 40 tokens, multi-valued resource types).
//!
//! The expected scores come from a naive reference scorer written here from the published
//! formulas, over token lists, in f32 as Lucene computes: idf in f64 cast to f32, one-byte
//! length norms (`SmallFloat.intToByte4`), `(k1 + 1)` weights, boolean sums in f64 cast
//! once, required + optional added in f32, dis_max as `max + tie * (sum - max)`, phrase idf
//! summed in f64, constant scores equal to the boost, cross_fields terms blended as
//! Lucene's `BlendedTermQuery`. No engine code is used to compute them (tokens aside:
//! those are checked against Lucene itself).

mod common;

use common::{hit_scores, lucene::lossy_length, rng::Rng};

use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Read;

const DOCS: usize = 2000;
const FIELDS: [&str; 3] = ["item.name", "item.description", "item.types.name"];
const K1: f32 = 1.2;
const B: f32 = 0.75;

/// ES's standard analyzer. The token streams themselves are checked against Lucene's own
/// StandardAnalyzer over the whole demo corpus (tests/python/clients/test_lucene_analysis.py), so
/// the reference takes them from the engine; what is under test here is the scoring.
fn analyze(text: &str) -> Vec<String> {
    metagate::analyze("standard", text).unwrap()
}

/// The values at a dotted path (arrays flattened).
fn values_at(v: &Value, path: &[&str], out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a.iter().for_each(|x| values_at(x, path, out)),
        Value::Object(o) => {
            if let Some((first, rest)) = path.split_first() {
                if let Some(child) = o.get(*first) {
                    values_at(child, rest, out);
                }
            }
        }
        Value::String(s) if path.is_empty() => out.push(s.clone()),
        _ => {}
    }
}

struct Corpus {
    ids: Vec<String>,
    sources: Vec<Value>,
    /// field -> doc -> tokens of every value, concatenated.
    tokens: HashMap<&'static str, Vec<Vec<String>>>,
}

fn load_corpus() -> Corpus {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/demo/tools.ndjson.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).expect("demo tools file"))
        .read_to_string(&mut text)
        .expect("gzip");
    let mut lines = text.lines();
    let mut ids = Vec::new();
    let mut sources = Vec::new();
    while ids.len() < DOCS {
        let (Some(action), Some(src)) = (lines.next(), lines.next()) else { break };
        let action: Value = serde_json::from_str(action).unwrap();
        ids.push(action["index"]["_id"].as_str().unwrap().to_string());
        sources.push(serde_json::from_str::<Value>(src).unwrap());
    }
    let mut tokens = HashMap::new();
    for f in FIELDS {
        let parts: Vec<&str> = f.split('.').collect();
        let per_doc = sources
            .iter()
            .map(|s| {
                let mut vals = Vec::new();
                values_at(s, &parts, &mut vals);
                vals.iter().flat_map(|v| analyze(v)).collect()
            })
            .collect();
        tokens.insert(f, per_doc);
    }
    Corpus { ids, sources, tokens }
}

/// The naive reference: BM25 over the token lists.
struct Reference<'c> {
    c: &'c Corpus,
    df: HashMap<(&'static str, String), u64>,
    /// field -> (docs with the field, total tokens)
    stats: HashMap<&'static str, (u64, u64)>,
    /// field -> doc -> term frequencies
    tfs: HashMap<&'static str, Vec<HashMap<String, u32>>>,
}

impl<'c> Reference<'c> {
    fn new(c: &'c Corpus) -> Reference<'c> {
        let mut df = HashMap::new();
        for f in FIELDS {
            for doc in &c.tokens[f] {
                let mut seen: Vec<&String> = doc.iter().collect();
                seen.sort();
                seen.dedup();
                for t in seen {
                    *df.entry((f, t.clone())).or_insert(0) += 1;
                }
            }
        }
        let stats = FIELDS
            .iter()
            .map(|f| {
                let docs = c.tokens[f].iter().filter(|t| !t.is_empty()).count() as u64;
                let total = c.tokens[f].iter().map(|t| t.len() as u64).sum();
                (*f, (docs, total))
            })
            .collect();
        let tfs = FIELDS
            .iter()
            .map(|f| {
                let per_doc = c.tokens[f]
                    .iter()
                    .map(|toks| {
                        let mut m = HashMap::new();
                        for t in toks {
                            *m.entry(t.clone()).or_insert(0) += 1;
                        }
                        m
                    })
                    .collect();
                (*f, per_doc)
            })
            .collect();
        Reference { c, df, stats, tfs }
    }

    fn doc_count(&self, f: &'static str) -> u64 {
        self.stats[f].0
    }

    fn avgdl(&self, f: &'static str) -> f32 {
        (self.stats[f].1 as f64 / self.stats[f].0 as f64) as f32
    }

    fn idf(df: u64, n: u64) -> f32 {
        (1.0f64 + (n as f64 - df as f64 + 0.5) / (df as f64 + 0.5)).ln() as f32
    }

    fn df(&self, f: &'static str, t: &str) -> u64 {
        self.df.get(&(f, t.to_string())).copied().unwrap_or(0)
    }

    /// BM25 of a weight (`idf * boost`) for a frequency in a document.
    fn bm25(&self, f: &'static str, doc: usize, idf: f32, boost: f32, freq: f32) -> f32 {
        let len = lossy_length(self.c.tokens[f][doc].len() as u32) as f32;
        let norm = K1 * ((1.0 - B) + B * len / self.avgdl(f));
        let weight_value = idf * boost * (K1 + 1.0);
        weight_value * freq / (freq + norm)
    }

    fn term_df(&self, f: &'static str, doc: usize, t: &str, df: u64, boost: f32) -> Option<f32> {
        let tf = self.tfs[f][doc].get(t).copied().unwrap_or(0);
        (tf > 0).then(|| self.bm25(f, doc, Self::idf(df, self.doc_count(f)), boost, tf as f32))
    }

    fn term(&self, f: &'static str, doc: usize, t: &str, boost: f32) -> Option<f32> {
        self.term_df(f, doc, t, self.df(f, t), boost)
    }

    /// An exact phrase (consecutive positions) in a single-valued field.
    fn phrase(&self, f: &'static str, doc: usize, terms: &[String], boost: f32) -> Option<f32> {
        let toks = &self.c.tokens[f][doc];
        let freq =
            (0..toks.len()).filter(|&i| terms.iter().enumerate().all(|(k, t)| toks.get(i + k) == Some(t))).count();
        if freq == 0 {
            return None;
        }
        let n = self.doc_count(f);
        let idf: f64 = terms.iter().map(|t| Self::idf(self.df(f, t), n) as f64).sum();
        Some(self.bm25(f, doc, idf as f32, boost, freq as f32))
    }

    /// Lucene's BlendedTermQuery document frequencies for one term over `fields`.
    fn blended_dfs(&self, fields: &[&'static str], t: &str) -> Vec<u64> {
        let dfs: Vec<u64> = fields.iter().map(|f| self.df(f, t)).collect();
        if dfs.len() <= 1 {
            return dfs;
        }
        let max = *dfs.iter().max().unwrap();
        if max == 0 {
            return dfs;
        }
        let min_sum_ttf: u64 = fields.iter().map(|f| self.stats[f].1).min().unwrap();
        let max_doc = (DOCS as u64).min(min_sum_ttf);
        let mut order: Vec<usize> = (0..dfs.len()).collect();
        order.sort_by(|a, b| dfs[*b].cmp(&dfs[*a]));
        let mut out = dfs.clone();
        let mut prev = dfs[order[0]];
        let mut actual = max_doc.min(max);
        for i in order {
            if dfs[i] == 0 {
                break;
            }
            if prev > dfs[i] {
                actual += 1;
            }
            out[i] = max_doc.min(actual);
            prev = dfs[i];
        }
        out
    }
}

/// Lucene's disjunction sum: f32 scores added in f64, cast once.
fn sum(scores: &[Option<f32>]) -> Option<f32> {
    let v: Vec<f32> = scores.iter().flatten().copied().collect();
    (!v.is_empty()).then(|| v.iter().map(|s| *s as f64).sum::<f64>() as f32)
}

/// A conjunction: every clause must match.
fn all(scores: &[Option<f32>]) -> Option<f32> {
    if scores.iter().any(|s| s.is_none()) {
        return None;
    }
    sum(scores)
}

/// Required plus optional (ReqOptSumScorer adds in f32).
fn req_opt(req: Option<f32>, opt: Option<f32>) -> Option<f32> {
    match (req, opt) {
        (None, _) => None,
        (Some(r), None) => Some(r),
        (Some(r), Some(o)) => Some(r + o),
    }
}

/// DisjunctionMaxScorer.
fn dis_max(scores: &[Option<f32>], tie: f32) -> Option<f32> {
    let v: Vec<f32> = scores.iter().flatten().copied().collect();
    if v.is_empty() {
        return None;
    }
    let mut s = 0f32;
    let mut max = f32::NEG_INFINITY;
    for x in &v {
        s += x;
        max = max.max(*x);
    }
    Some(max + (s - max) * tie)
}

/// Query terms: plain lowercase alphanumerics drawn from random documents (frequent terms
/// come up often, rare ones too), so every query syntax reads them as bare terms.
fn pick_term(c: &Corpus, rng: &mut Rng, field: &'static str) -> String {
    loop {
        let doc = &c.tokens[field][rng.index(DOCS)];
        if doc.is_empty() {
            continue;
        }
        let t = &doc[rng.index(doc.len())];
        if t.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit()) && t.len() > 1 {
            return t.clone();
        }
    }
}

struct Checker<'c> {
    c: &'c Corpus,
    e: metagate::Engine,
    checked: usize,
    matched_docs: usize,
    long_fields_scored: usize,
}

impl Checker<'_> {
    /// Runs `query` and compares every hit's score bit for bit and the ranking with the
    /// reference (`expected(doc)` for every document).
    fn check(&mut self, query: Value, expected: impl Fn(usize) -> Option<f32>) {
        let mut want: Vec<(usize, f32)> = (0..DOCS).filter_map(|d| expected(d).map(|s| (d, s))).collect();
        want.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let body = json!({"query": query, "size": DOCS, "_source": false}).to_string();
        let res = common::search(&self.e, "tools", &body).unwrap_or_else(|e| panic!("{body}: {e:?}"));
        let got = hit_scores(&res);
        assert_eq!(res["hits"]["total"].as_u64().unwrap() as usize, want.len(), "total of {body}");
        assert_eq!(got.len(), want.len(), "hits of {body}");
        for ((gid, gs), (wd, ws)) in got.iter().zip(&want) {
            assert_eq!(
                gs.to_bits(),
                ws.to_bits(),
                "{body}: doc {gid} scored {gs}, reference {} for doc {}",
                ws,
                self.c.ids[*wd]
            );
        }
        // Ranking: equal scores keep document order, as Lucene breaks ties.
        let got_ids: Vec<&str> = got.iter().map(|(i, _)| i.as_str()).collect();
        let want_ids: Vec<&str> = want.iter().map(|(d, _)| self.c.ids[*d].as_str()).collect();
        assert_eq!(got_ids, want_ids, "ranking of {body}");
        self.checked += 1;
        self.matched_docs += want.len();
        self.long_fields_scored +=
            want.iter().filter(|(d, _)| self.c.tokens["item.description"][*d].len() > 40).count();
    }
}

#[test]
fn generated_queries_score_and_rank_like_lucene() {
    let c = load_corpus();
    assert_eq!(c.ids.len(), DOCS);
    let docs: Vec<(&str, Value)> = c.ids.iter().map(|s| s.as_str()).zip(c.sources.iter().cloned()).collect();
    let e = common::engine_with("relevance", "tools", None, &docs, Some(metagate::Family::Registry));
    let r = Reference::new(&c);
    let mut k = Checker { c: &c, e, checked: 0, matched_docs: 0, long_fields_scored: 0 };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (name, desc, types) = (FIELDS[0], FIELDS[1], FIELDS[2]);

    for round in 0..40 {
        // term on each field, with and without boost
        let f = FIELDS[round % 3];
        let t = pick_term(&c, &mut rng, f);
        k.check(json!({"term": {f: t}}), |d| r.term(f, d, &t, 1.0));
        let boost = [0.5f32, 2.0, 3.7][round % 3];
        k.check(json!({"term": {f: {"value": t, "boost": boost}}}), |d| r.term(f, d, &t, boost));

        // match OR / AND with 1, 2 or 3 terms
        let n = 1 + round % 3;
        let ts: Vec<String> = (0..n).map(|_| pick_term(&c, &mut rng, desc)).collect();
        let text = ts.join(" ");
        k.check(json!({"match": {desc: text}}), |d| {
            sum(&ts.iter().map(|t| r.term(desc, d, t, 1.0)).collect::<Vec<_>>())
        });
        k.check(json!({"match": {desc: {"query": text, "operator": "and"}}}), |d| {
            all(&ts.iter().map(|t| r.term(desc, d, t, 1.0)).collect::<Vec<_>>())
        });

        // bool: required name term plus optional description / types terms, and a filter
        let t1 = pick_term(&c, &mut rng, name);
        let t2 = pick_term(&c, &mut rng, desc);
        let t3 = pick_term(&c, &mut rng, types);
        k.check(
            json!({"bool": {"must": {"match": {name: t1}}, "should": [{"match": {desc: t2}}, {"match": {types: t3}}]}}),
            |d| req_opt(r.term(name, d, &t1, 1.0), sum(&[r.term(desc, d, &t2, 1.0), r.term(types, d, &t3, 1.0)])),
        );
        k.check(
            json!({"bool": {"should": [{"match": {desc: {"query": t2, "boost": 2}}}, {"match": {types: t3}}, {"match": {name: t1}}], "boost": 1.5}}),
            |d| sum(&[r.term(desc, d, &t2, 3.0), r.term(types, d, &t3, 1.5), r.term(name, d, &t1, 1.5)]),
        );
        k.check(json!({"bool": {"must": [{"match": {desc: t2}}], "filter": [{"match": {types: t3}}]}}), |d| {
            r.term(types, d, &t3, 1.0).and(r.term(desc, d, &t2, 1.0))
        });

        // dis_max with and without a tie breaker
        let tie = [0.0f32, 0.3, 0.7][round % 3];
        let t = pick_term(&c, &mut rng, desc);
        k.check(
            json!({"dis_max": {"queries": [{"match": {name: t}}, {"match": {desc: t}}, {"match": {types: t}}], "tie_breaker": tie}}),
            |d| dis_max(&[r.term(name, d, &t, 1.0), r.term(desc, d, &t, 1.0), r.term(types, d, &t, 1.0)], tie),
        );

        // constant_score: the boost
        let t = pick_term(&c, &mut rng, types);
        k.check(json!({"constant_score": {"filter": {"term": {types: t}}, "boost": 2.5}}), |d| {
            r.term(types, d, &t, 1.0).map(|_| 2.5)
        });

        // exact phrases: a bigram or trigram of a random description
        let doc = &c.tokens[desc][rng.index(DOCS)];
        if doc.len() > 3 {
            let at = rng.index(doc.len() - 2);
            let len = 2 + round % 2;
            let phrase: Vec<String> = doc[at..at + len].to_vec();
            if phrase.iter().all(|t| t.chars().all(|ch| ch.is_alphanumeric())) {
                k.check(json!({"match_phrase": {desc: phrase.join(" ")}}), |d| r.phrase(desc, d, &phrase, 1.0));
            }
        }

        // query_string over fields: bare terms analyzed together per field, best field wins
        let ta = pick_term(&c, &mut rng, name);
        let tb = pick_term(&c, &mut rng, desc);
        k.check(
            json!({"query_string": {"query": format!("{ta} {tb}"), "fields": [format!("{name}^2"), desc.to_string()]}}),
            |d| {
                dis_max(
                    &[
                        sum(&[r.term(name, d, &ta, 2.0), r.term(name, d, &tb, 2.0)]),
                        sum(&[r.term(desc, d, &ta, 1.0), r.term(desc, d, &tb, 1.0)]),
                    ],
                    0.0,
                )
            },
        );
        // explicit fields and operators
        k.check(json!({"query_string": {"query": format!("{name}:{ta} OR {desc}:{tb}")}}), |d| {
            sum(&[r.term(name, d, &ta, 1.0), r.term(desc, d, &tb, 1.0)])
        });
        k.check(json!({"query_string": {"query": format!("{desc}:({ta} {tb})"), "default_operator": "and"}}), |d| {
            all(&[r.term(desc, d, &ta, 1.0), r.term(desc, d, &tb, 1.0)])
        });
        // cross_fields: each term blended across the fields, the same in query_string and
        // multi_match (ES builds both with MultiMatchQuery's BlendedTermQuery)
        let fields = [name, desc];
        let blended = |d: usize| -> Vec<Option<f32>> {
            [&ta, &tb]
                .iter()
                .map(|t| {
                    let dfs = r.blended_dfs(&fields, t);
                    dis_max(&[r.term_df(name, d, t, dfs[0], 1.0), r.term_df(desc, d, t, dfs[1], 1.0)], 0.0)
                })
                .collect()
        };
        k.check(
            json!({"query_string": {"query": format!("{ta} {tb}"), "fields": fields, "type": "cross_fields"}}),
            |d| sum(&blended(d)),
        );
        k.check(
            json!({"multi_match": {"query": format!("{ta} {tb}"), "fields": fields, "type": "cross_fields"}}),
            |d| sum(&blended(d)),
        );
        k.check(
            json!({"multi_match": {"query": format!("{ta} {tb}"), "fields": fields, "type": "cross_fields", "operator": "and"}}),
            |d| all(&blended(d)),
        );
        // multi_match best_fields with a tie breaker
        k.check(
            json!({"multi_match": {"query": format!("{ta} {tb}"), "fields": [name, desc], "tie_breaker": tie}}),
            |d| {
                dis_max(
                    &[
                        sum(&[r.term(name, d, &ta, 1.0), r.term(name, d, &tb, 1.0)]),
                        sum(&[r.term(desc, d, &ta, 1.0), r.term(desc, d, &tb, 1.0)]),
                    ],
                    tie,
                )
            },
        );
    }
    eprintln!("{} queries, {} matching documents compared", k.checked, k.matched_docs);
    assert!(k.checked >= 500, "only {} queries checked", k.checked);
    assert!(k.matched_docs > 10_000, "queries matched too little: {}", k.matched_docs);
    // Lossy norms were exercised: many scored documents have descriptions over 40 tokens.
    assert!(k.long_fields_scored > 1000, "{}", k.long_fields_scored);
    assert!(c.tokens[types].iter().any(|t| t.len() > 3), "multi-valued field present");
}
