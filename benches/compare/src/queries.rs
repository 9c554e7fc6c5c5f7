//! The query classes and their variants. Variants are drawn from a sample of the corpus
//! itself (description words over a spread of document frequencies, bigrams that occur,
//! identifiers that exist), the same for every engine, so each engine answers the same
//! questions.

use crate::corpus::Corpus;
use std::collections::HashMap;

/// One query of a class, in engine-neutral terms; each engine translates it.
#[derive(Debug, Clone)]
pub enum Query {
    /// Q1: `term` on `item.identifier.aggregate`.
    Term { identifier: String },
    /// Q2-Q4: `match` on `item.description` (one word, or two with OR / AND).
    Match { words: Vec<String>, and: bool },
    /// Q5: `match_phrase` on `item.description`.
    Phrase { words: Vec<String> },
    /// Q6: the portal's search: `query_string` over `*`, cross_fields, AND, with a `terms`
    /// filter on the resource type and a date `range` on the creation date.
    Portal { words: Vec<String>, types: Vec<String>, from_year: i64, to_year: i64 },
    /// Q7: `size: 0` with a `terms` aggregation (size 200) on the keywords, over the
    /// documents matching one description word.
    Facet { word: String },
    /// Q8: filter on the organism, sort on the lower-cased name, size 100.
    SortedFilter { organism: String },
    /// Q9a: `prefix` on `item.identifier.aggregate`.
    Prefix { prefix: String },
    /// Q9b: `wildcard` (`*` only) on `item.name.aggregate`.
    Wildcard { pattern: String },
}

/// A query class: its label and its variants (empty for the scroll).
pub struct Class {
    /// `Q1` ... `Q10`.
    pub id: &'static str,
    /// The variants, run round-robin.
    pub variants: Vec<Query>,
}

/// The id of the scroll class, which engines run page by page instead of per variant.
pub const SCROLL: &str = "Q10";

/// How many variants a class gets.
const VARIANTS: usize = 12;

/// How many records the vocabulary is learned from.
const SAMPLE: u64 = 5_000;

/// Ranks `0..max` spread logarithmically (so common and rare words both appear).
fn log_ranks(max: usize, k: usize) -> Vec<usize> {
    let mut out: Vec<usize> =
        (0..k).map(|i| ((max as f64).powf(i as f64 / (k - 1) as f64) - 1.0).round() as usize).collect();
    // Rounding may repeat small ranks; nudge repeats upwards.
    for i in 1..out.len() {
        if out[i] <= out[i - 1] {
            out[i] = out[i - 1] + 1;
        }
    }
    out
}

/// Whitespace tokens that every analyzer in the comparison reads as the same single
/// token: plain ASCII lower-case words.
fn plain(tok: &str) -> bool {
    tok.len() >= 3 && tok.bytes().all(|b| b.is_ascii_lowercase())
}

/// Keys of a document-frequency map, most frequent first (ties by key, for determinism).
fn by_frequency(m: HashMap<String, u64>) -> Vec<String> {
    let mut v: Vec<(String, u64)> = m.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v.into_iter().map(|(k, _)| k).collect()
}

/// The classes for a corpus of `n` documents.
pub fn classes(corpus: &Corpus, n: u64) -> Vec<Class> {
    let mut words: HashMap<String, u64> = HashMap::new();
    let mut bigrams: HashMap<String, u64> = HashMap::new();
    let mut types: HashMap<String, u64> = HashMap::new();
    let mut names = Vec::new();
    for i in 0..SAMPLE.min(n) {
        let f = corpus.flat(i);
        let toks: Vec<&str> = f.description.split_whitespace().collect();
        let mut seen: Vec<String> = toks.iter().filter(|t| plain(t)).map(|t| t.to_string()).collect();
        seen.sort();
        seen.dedup();
        for w in seen {
            *words.entry(w).or_default() += 1;
        }
        let mut pairs: Vec<String> =
            toks.windows(2).filter(|w| plain(w[0]) && plain(w[1])).map(|w| format!("{} {}", w[0], w[1])).collect();
        pairs.sort();
        pairs.dedup();
        for p in pairs {
            *bigrams.entry(p).or_default() += 1;
        }
        for t in f.types {
            *types.entry(t).or_default() += 1;
        }
        if f.name_key.len() >= 3 && f.name_key.bytes().take(3).all(|b| b.is_ascii_lowercase()) {
            names.push(f.name_key);
        }
    }
    let words = by_frequency(words);
    let bigrams = by_frequency(bigrams);
    let types = by_frequency(types);
    let pick = |list: &[String], max: usize| -> Vec<String> {
        log_ranks(max.min(list.len()), VARIANTS).into_iter().filter_map(|r| list.get(r).cloned()).collect()
    };
    let single = pick(&words, 3000);
    let pairs: Vec<Vec<String>> =
        (0..single.len()).map(|k| vec![single[k].clone(), single[(k + 4) % single.len()].clone()]).collect();
    let phrases: Vec<Vec<String>> =
        pick(&bigrams, 1000).iter().map(|b| b.split(' ').map(str::to_string).collect()).collect();
    let ident = |k: u64| format!("scr_{:07}", (k * 7_919 + 13) % n);
    let organisms = [
        "homo sapiens",
        "mus musculus",
        "rattus norvegicus",
        "danio rerio",
        "drosophila melanogaster",
        "caenorhabditis elegans",
        "saccharomyces cerevisiae",
        "arabidopsis thaliana",
    ];
    vec![
        Class { id: "Q1", variants: (0..VARIANTS as u64).map(|k| Query::Term { identifier: ident(k) }).collect() },
        Class {
            id: "Q2",
            variants: single.iter().map(|w| Query::Match { words: vec![w.clone()], and: false }).collect(),
        },
        Class { id: "Q3", variants: pairs.iter().map(|p| Query::Match { words: p.clone(), and: false }).collect() },
        Class { id: "Q4", variants: pairs.iter().map(|p| Query::Match { words: p.clone(), and: true }).collect() },
        Class { id: "Q5", variants: phrases.into_iter().map(|words| Query::Phrase { words }).collect() },
        Class {
            id: "Q6",
            variants: pairs
                .iter()
                .enumerate()
                .map(|(k, p)| Query::Portal {
                    words: p.clone(),
                    types: types.iter().take(3).cloned().collect(),
                    from_year: 2000 + (k as i64 % 8),
                    to_year: 2010 + (k as i64 % 8),
                })
                .collect(),
        },
        Class { id: "Q7", variants: single.iter().map(|w| Query::Facet { word: w.clone() }).collect() },
        Class {
            id: "Q8",
            variants: organisms.iter().map(|o| Query::SortedFilter { organism: o.to_string() }).collect(),
        },
        Class {
            id: "Q9a",
            variants: (0..VARIANTS as u64)
                .map(|k| {
                    let id = ident(k * 31 + 5);
                    let keep = if k % 2 == 0 { 9 } else { 8 };
                    Query::Prefix { prefix: id[..keep].to_string() }
                })
                .collect(),
        },
        Class {
            id: "Q9b",
            variants: (0..VARIANTS)
                .filter_map(|k| names.get(k * 97 % names.len().max(1)))
                .map(|name| Query::Wildcard { pattern: format!("{}*e*", &name[..3]) })
                .collect(),
        },
        Class { id: SCROLL, variants: Vec::new() },
    ]
}

/// Whether a class ranks the top hits by score (tantivy's `TopDocs`): the classes with
/// a top-hits-only anchor.
pub fn scored_top_hits(id: &str) -> bool {
    !matches!(id, "Q7" | "Q8" | "Q10")
}

/// What a class asks, for the table.
pub fn describe(id: &str) -> &'static str {
    match id {
        "Q1" => "term, keyword",
        "Q2" => "match, 1 term",
        "Q3" => "match, 2 terms OR",
        "Q4" => "match, 2 terms AND",
        "Q5" => "match_phrase",
        "Q6" => "portal search + filters",
        "Q7" => "terms agg 200, size 0",
        "Q8" => "filter + keyword sort, 100",
        "Q9a" => "prefix, keyword",
        "Q9b" => "wildcard, keyword",
        "Q10" => "scroll `_doc` 1000 (per page)",
        _ => "",
    }
}

/// What an engine answered: the exact total, the hits it returned, and a short signature
/// of the part of the answer that must agree across engines (facet buckets, sort keys).
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// The exact number of matching documents.
    pub total: u64,
    /// Hits returned (each with its source fetched).
    pub hits: usize,
    /// Comparable part of the answer ("" where ranking differs by design).
    pub sig: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_spread_and_strictly_increase() {
        let r = log_ranks(3000, 12);
        assert_eq!(r[0], 0);
        assert!(r.windows(2).all(|w| w[0] < w[1]));
        assert!(*r.last().unwrap() >= 2990);
    }
}
