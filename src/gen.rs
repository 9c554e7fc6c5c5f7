//! A deterministic generator of registry tool records in the gateway's RIN layout, for
//! benchmarks at any size. Text follows the embedded demo corpus: words are drawn from the
//! unigram distribution of the real tool descriptions (Zipf-like by nature), description
//! lengths from the real length distribution, keywords and types from the real sets.

use crate::analysis::Analyzer;
use crate::error::{Error, Result};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, Write};

/// SplitMix64: tiny, fast and stable across versions (so a seed always yields the same
/// corpus, whatever crate versions are installed).
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}

/// A sampler over weighted items (cumulative weights, binary search).
#[derive(Debug, Clone)]
struct Weighted<T> {
    items: Vec<T>,
    cumulative: Vec<u64>,
}

impl<T: Clone> Weighted<T> {
    fn new(mut pairs: Vec<(T, u64)>) -> Weighted<T> {
        pairs.retain(|(_, w)| *w > 0);
        let mut cumulative = Vec::with_capacity(pairs.len());
        let mut sum = 0;
        for (_, w) in &pairs {
            sum += w;
            cumulative.push(sum);
        }
        Weighted { items: pairs.into_iter().map(|(t, _)| t).collect(), cumulative }
    }

    fn sample(&self, rng: &mut Rng) -> Option<T> {
        let total = *self.cumulative.last()?;
        let x = rng.below(total);
        let i = self.cumulative.partition_point(|c| *c <= x);
        self.items.get(i).cloned()
    }
}

/// Statistics learned from real tool records.
#[derive(Debug, Clone)]
pub struct Model {
    words: Weighted<String>,
    lengths: Weighted<u32>,
    keywords: Weighted<String>,
    types: Weighted<String>,
    name_words: Weighted<String>,
}

const ORGANISMS: [&str; 8] = [
    "Homo sapiens",
    "Mus musculus",
    "Rattus norvegicus",
    "Danio rerio",
    "Drosophila melanogaster",
    "Caenorhabditis elegans",
    "Saccharomyces cerevisiae",
    "Arabidopsis thaliana",
];

impl Model {
    /// Learns from registry records in bulk NDJSON (the demo's tool index).
    pub fn learn(bulk: impl BufRead) -> Result<Model> {
        let mut words: HashMap<String, u64> = HashMap::new();
        let mut lengths: HashMap<u32, u64> = HashMap::new();
        let mut keywords: HashMap<String, u64> = HashMap::new();
        let mut types: HashMap<String, u64> = HashMap::new();
        let mut name_words: HashMap<String, u64> = HashMap::new();
        for line in bulk.lines() {
            let line = line?;
            let Ok(v) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            let Some(item) = v.get("item") else { continue };
            if let Some(d) = item.get("description").and_then(Value::as_str) {
                let toks = Analyzer::whitespace().analyze(d).unwrap_or_default();
                *lengths.entry(toks.len().min(400) as u32).or_default() += 1;
                for t in toks {
                    *words.entry(t.text).or_default() += 1;
                }
            }
            if let Some(n) = item.get("name").and_then(Value::as_str) {
                for t in Analyzer::whitespace().analyze(n).unwrap_or_default() {
                    *name_words.entry(t.text).or_default() += 1;
                }
            }
            for k in item.get("keywords").and_then(Value::as_array).into_iter().flatten() {
                if let Some(k) = k.get("keyword").and_then(Value::as_str) {
                    *keywords.entry(k.to_string()).or_default() += 1;
                }
            }
            for t in item.get("types").and_then(Value::as_array).into_iter().flatten() {
                if let Some(t) = t.get("name").and_then(Value::as_str) {
                    *types.entry(t.to_string()).or_default() += 1;
                }
            }
        }
        if words.is_empty() {
            return Err(Error::illegal_argument("no registry descriptions to learn from"));
        }
        let sorted = |m: HashMap<String, u64>| {
            let mut v: Vec<(String, u64)> = m.into_iter().collect();
            v.sort();
            v
        };
        let mut l: Vec<(u32, u64)> = lengths.into_iter().collect();
        l.sort();
        Ok(Model {
            words: Weighted::new(sorted(words)),
            lengths: Weighted::new(l),
            keywords: Weighted::new(sorted(keywords)),
            types: Weighted::new(sorted(types)),
            name_words: Weighted::new(sorted(name_words)),
        })
    }

    /// Learns from the embedded demo tool index.
    #[cfg(feature = "demo")]
    pub fn from_demo() -> Result<Model> {
        let manifest = crate::demo::manifest()?;
        let tools = manifest
            .iter()
            .find(|m| m.aliases.iter().any(|a| a == "RIN_Tool_pr"))
            .ok_or_else(|| Error::storage("the demo has no tool index"))?;
        let bytes = crate::demo::DEMO_FILES
            .iter()
            .find(|(n, _)| *n == tools.file)
            .map(|(_, b)| *b)
            .ok_or_else(|| Error::storage("demo tool file not embedded"))?;
        Model::learn(crate::load::maybe_gzip(bytes)?)
    }

    /// Record `i` of the corpus for `seed` (records are independent, so any slice of a
    /// corpus can be generated alone).
    pub fn record(&self, seed: u64, i: u64) -> (String, Value) {
        let mut rng = Rng::new(seed.wrapping_mul(0x1000_0000_01b3) ^ i);
        let len = self.lengths.sample(&mut rng).unwrap_or(20).max(3);
        let description: Vec<String> = (0..len).filter_map(|_| self.words.sample(&mut rng)).collect();
        let name_len = 1 + rng.below(3);
        let name: Vec<String> = (0..name_len).filter_map(|_| self.name_words.sample(&mut rng)).collect();
        let ident = format!("SCR_{:07}", i);
        let kw_count = rng.below(6);
        let keywords: Vec<Value> =
            (0..kw_count).filter_map(|_| self.keywords.sample(&mut rng)).map(|k| json!({"keyword": k})).collect();
        let types: Vec<Value> =
            self.types.sample(&mut rng).into_iter().map(|t| json!({"name": t, "type": "resource type"})).collect();
        let organism = ORGANISMS[rng.below(ORGANISMS.len() as u64) as usize];
        let day = 10_957 + rng.below(9_000) as i64; // 2000-01-01 + up to ~24 years
        let created = chrono::DateTime::from_timestamp(day * 86_400 + rng.below(86_400) as i64, 0).unwrap_or_default();
        let stamp = created.format("%Y%m%dT%H%M%S+0000").to_string();
        let mentions = (1u64 << rng.below(12)) + rng.below(7);
        let docid = ident.to_lowercase();
        (
            format!("rrid:{docid}"),
            json!({
                "item": {
                    "name": name.join(" "),
                    "description": description.join(" "),
                    "identifier": ident,
                    "docid": format!("rrid:{docid}"),
                    "curie": format!("RRID:{ident}"),
                    "types": types,
                    "keywords": keywords,
                },
                "rrid": {"curie": format!("RRID:{ident}"), "properCitation": format!("({} , RRID:{ident})", name.join(" "))},
                "organisms": {"related": [{"role": "studied", "species": {"name": organism}}]},
                "mentions": [{"totalMentions": {"count": mentions}, "availability": {"keyword": if mentions > 100 { "widely used" } else { "available" }}}],
                "provenance": {"creationDate": [stamp.clone()], "ingestTime": stamp, "ingestMethod": "generated"},
                "recordValid": true
            }),
        )
    }

    /// Writes `n` records as ES bulk NDJSON.
    pub fn write_bulk(&self, seed: u64, n: u64, out: &mut dyn Write) -> Result<()> {
        for i in 0..n {
            let (id, src) = self.record(seed, i);
            writeln!(out, "{}", json!({"index": {"_id": id, "_type": "rin"}}))?;
            writeln!(out, "{src}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_weighted() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        assert_eq!(a.next_u64(), b.next_u64());
        let w = Weighted::new(vec![("x".to_string(), 1), ("y".to_string(), 0), ("z".to_string(), 3)]);
        let mut r = Rng::new(1);
        let mut z = 0;
        for _ in 0..1000 {
            if w.sample(&mut r).as_deref() == Some("z") {
                z += 1;
            }
        }
        assert!((650..850).contains(&z), "{z}");
    }

    #[test]
    fn learns_and_generates_the_same_record_twice() {
        let bulk = "{\"index\":{}}\n{\"item\":{\"name\":\"BLAST tool\",\"description\":\"sequence alignment search tool for DNA\",\"keywords\":[{\"keyword\":\"Sequence analysis\"}],\"types\":[{\"name\":\"software application\"}]}}\n";
        let m = Model::learn(bulk.as_bytes()).unwrap();
        let (id1, r1) = m.record(42, 5);
        let (id2, r2) = m.record(42, 5);
        assert_eq!((id1, r1.clone()), (id2, r2));
        assert_eq!(r1["item"]["identifier"], "SCR_0000005");
        assert!(r1["item"]["description"].as_str().unwrap().split(' ').all(|w| [
            "sequence",
            "alignment",
            "search",
            "tool",
            "for",
            "DNA"
        ]
        .contains(&w)));
    }
}
