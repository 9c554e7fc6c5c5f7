//! Lucene 7.7's SynonymQuery, which ES 6.8 builds for terms stacked at one position of
//! analysed query text (synonyms, `asciifolding` with `preserve_original`, ...): the
//! terms score as one pseudo-term whose document frequency is the largest of theirs,
//! and a document's frequency is the sum of the terms' frequencies in it, scored with
//! BM25 as a term would be.

use super::bm25::{avg_field_length, idf, Bm25Weight};
use super::context::Executor;
use super::explain::{bm25_expl, idf_expl, non_scoring, Expl};
use crate::error::Result;
use crate::index::{DocSet, BLOCK};
use crate::mapping::FieldMapping;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What a SynonymQuery's explanation names.
struct SynonymExplain {
    /// Lucene's `toString`: `Synonym(field:a field:b)`.
    query: String,
    df: u64,
    doc_count: u64,
    boost: f32,
    avgdl: Option<f32>,
}

/// A SynonymQuery compiled against one index: its matches with their summed
/// frequencies and scores.
pub struct SynonymWeight {
    /// The matching documents.
    pub docs: DocSet,
    /// The same, ascending, for the scorer.
    pub doc_list: Vec<u32>,
    /// Each document's score.
    pub scores: Vec<f32>,
    freqs: Vec<u32>,
    norms: Option<Arc<Vec<u8>>>,
    explain: Option<SynonymExplain>,
}

/// Lucene's `SynonymQuery.toString` of `terms` on `field`: the terms sorted as Lucene
/// sorts them (by their UTF-8 bytes).
pub fn query_string(field: &str, terms: &[String]) -> String {
    let mut sorted: Vec<&String> = terms.iter().collect();
    sorted.sort();
    let inner: Vec<String> = sorted.iter().map(|t| format!("{field}:{t}")).collect();
    format!("Synonym({})", inner.join(" "))
}

impl SynonymWeight {
    /// The SynonymQuery of `terms` (stacked at one position) on `fm`, with `boost`.
    pub fn new(ex: &Executor<'_>, fm: &FieldMapping, terms: &[String], boost: f32) -> Result<SynonymWeight> {
        let mut df = 0u64;
        // Summed frequency per matching document.
        let mut summed: BTreeMap<u32, u32> = BTreeMap::new();
        for term in terms {
            let Some(addr) = ex.reader.term_addr(ex.snap, &fm.path, term)? else { continue };
            let postings = ex.reader.postings(ex.snap, &fm.path, addr)?;
            df = df.max(postings.docs.len());
            let mut block = [0u32; BLOCK];
            let mut filled = 0;
            for (i, doc) in postings.docs.iter().enumerate() {
                let freq = match &postings.freqs {
                    Some(freqs) => {
                        if i % BLOCK == 0 {
                            filled = freqs.decode_block(i / BLOCK, &mut block);
                        }
                        if i % BLOCK < filled {
                            block[i % BLOCK]
                        } else {
                            1
                        }
                    }
                    None => 1,
                };
                *summed.entry(doc).or_default() += freq;
            }
        }
        let st = ex.reader.field_stats(&fm.path);
        let doc_count = st.map(|s| s.doc_count).unwrap_or(0);
        let has_norms = fm.params.has_norms(fm.ftype);
        let avgdl = has_norms.then(|| avg_field_length(st.map(|s| s.sum_total_term_freq).unwrap_or(0), doc_count));
        let norms = if has_norms { ex.reader.norms(ex.snap, &fm.path)? } else { None };
        let bm25 = Bm25Weight::new(idf(df, doc_count), boost, avgdl);
        let norm_of = |doc: u32| norms.as_ref().and_then(|n| n.get(doc as usize).copied()).unwrap_or(0);
        let doc_list: Vec<u32> = summed.keys().copied().collect();
        let freqs: Vec<u32> = summed.values().copied().collect();
        let scores = doc_list.iter().zip(&freqs).map(|(&d, &f)| bm25.score(f as f32, norm_of(d))).collect();
        let explain =
            ex.explain.then(|| SynonymExplain { query: query_string(&fm.path, terms), df, doc_count, boost, avgdl });
        Ok(SynonymWeight { docs: DocSet::from_sorted(&doc_list), doc_list, scores, freqs, norms, explain })
    }

    /// Lucene's `SynonymWeight.explain` for `doc`.
    pub fn explain(&self, doc: u32, scoring: bool) -> Option<Expl> {
        let i = self.doc_list.binary_search(&doc).ok()?;
        let e = self.explain.as_ref()?;
        let freq = self.freqs[i] as f32;
        if !scoring {
            return Some(non_scoring(&e.query, doc, freq, "termFreq"));
        }
        let norm = self.norms.as_ref().and_then(|n| n.get(doc as usize).copied()).unwrap_or(0);
        let norms = e.avgdl.map(|a| (a, norm));
        Some(bm25_expl(&e.query, doc, freq, "termFreq", idf_expl(e.df, e.doc_count), e.boost, norms))
    }
}
