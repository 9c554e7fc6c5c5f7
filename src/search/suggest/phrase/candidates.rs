//! The candidates of each token of a phrase, as ES 6.8's `DirectCandidateGenerator`
//! draws them: the term suggester's spell checker over the generator's field (optional
//! `pre_filter` on the token, `post_filter` on each candidate), each candidate scored
//! `distance × (total term frequency + 1) / (field's total term frequency + 1)`, the
//! sets merged across generators and cut at the shard size.
//!
//! Outside `always` mode the spell checker's threshold rises with the token's own
//! document frequency `d`: `round(d × log5(d − plateau) + 1)`, the plateau being
//! `min_doc_freq` (as a count, or a fraction of the documents).

use super::super::term;
use crate::analysis::Analyzer;
use crate::error::Result;
use crate::index::{IndexReader, BLOCK};
use crate::mapping::FieldType;
use crate::request::suggest::{SuggestMode, TermSuggest};
use crate::store::Snapshot;
use std::cell::RefCell;
use std::collections::HashMap;

/// A term's document frequency and total term frequency in a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TermStats {
    /// Documents holding the term.
    pub doc_freq: u64,
    /// Occurrences of the term (its document frequency in fields without frequencies).
    pub total_term_freq: u64,
}

/// The terms of one field of one index, with Lucene's field statistics and a cache of
/// the term statistics looked up (the scorer asks for the same n-grams many times).
pub struct FieldTerms<'r> {
    reader: &'r IndexReader,
    snap: &'r Snapshot,
    field: String,
    /// Whether the field keeps term frequencies (Lucene's `sumTotalTermFreq` is -1
    /// for fields indexed without them: then document frequencies stand in).
    with_freqs: bool,
    /// `sumTotalTermFreq`, or the document count without frequencies.
    pub sum_total_term_freq: i64,
    /// The number of distinct terms (Lucene's `Terms.size()`).
    pub num_terms: i64,
    cache: RefCell<HashMap<String, TermStats>>,
}

impl<'r> FieldTerms<'r> {
    /// The field's terms; `None` when the index has none for it (Lucene's
    /// `MultiFields.getTerms` answering null).
    pub fn open(reader: &'r IndexReader, snap: &'r Snapshot, field: &str) -> Option<FieldTerms<'r>> {
        let stats = reader.field_stats(field).filter(|s| s.inverted && s.terms > 0)?;
        let with_freqs = reader.meta.mapping.field(field).is_some_and(|f| f.ftype == FieldType::Text);
        let sum_total_term_freq =
            if with_freqs { stats.sum_total_term_freq as i64 } else { i64::from(reader.max_doc()) };
        Some(FieldTerms {
            reader,
            snap,
            field: field.to_string(),
            with_freqs,
            sum_total_term_freq,
            num_terms: stats.terms as i64,
            cache: RefCell::new(HashMap::new()),
        })
    }

    /// A term's statistics (zeros for a term the field lacks).
    pub fn stats(&self, term: &str) -> Result<TermStats> {
        if let Some(s) = self.cache.borrow().get(term) {
            return Ok(*s);
        }
        let stats = match self.reader.term_addr(self.snap, &self.field, term)? {
            None => TermStats::default(),
            Some(addr) => {
                let postings = self.reader.postings(self.snap, &self.field, addr)?;
                let doc_freq = postings.docs.len();
                let total_term_freq = match (&postings.freqs, self.with_freqs) {
                    (Some(f), true) => {
                        let mut block = [0u32; BLOCK];
                        let mut sum = 0u64;
                        for b in 0..f.block_count() {
                            let n = f.decode_block(b, &mut block);
                            sum += block[..n].iter().map(|&x| u64::from(x)).sum::<u64>();
                        }
                        sum
                    }
                    _ => doc_freq,
                };
                TermStats { doc_freq, total_term_freq }
            }
        };
        self.cache.borrow_mut().insert(term.to_string(), stats);
        Ok(stats)
    }

    /// What the language model counts: the total term frequency, or the document
    /// frequency in a field without frequencies (ES's `WordScorer.frequency`).
    pub fn frequency(&self, term: &str) -> Result<u64> {
        let s = self.stats(term)?;
        Ok(if self.with_freqs { s.total_term_freq } else { s.doc_freq })
    }
}

/// One candidate for a token (or the token itself).
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The term.
    pub term: String,
    /// Its statistics in the generator's field.
    pub stats: TermStats,
    /// The channel's likelihood: the spell checker's similarity (a Java `float`), 1 for
    /// the token as written.
    pub string_distance: f64,
    /// The candidate's own score, which orders and cuts the candidate sets.
    pub score: f64,
    /// Whether this is the token as written (left out of highlighting).
    pub user_input: bool,
}

/// A token of the text and the candidates drawn for it, best first.
#[derive(Debug, Clone)]
pub struct CandidateSet {
    /// The token as written.
    pub original: Candidate,
    /// Its candidates.
    pub candidates: Vec<Candidate>,
}

impl CandidateSet {
    /// Merges newly drawn candidates in (a term already present keeps the new
    /// candidate), then orders them strongest first: score, then term.
    fn add_candidates(&mut self, drawn: Vec<Candidate>) {
        let mut merged: Vec<Candidate> = Vec::with_capacity(drawn.len() + self.candidates.len());
        for c in drawn.into_iter().chain(std::mem::take(&mut self.candidates)) {
            if !merged.iter().any(|m| m.term == c.term) {
                merged.push(c);
            }
        }
        merged.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.term.cmp(&b.term)));
        self.candidates = merged;
    }
}

/// The score ES gives a candidate: its channel likelihood times its smoothed share of
/// the field's occurrences.
fn candidate_score(stats: TermStats, distance: f64, sum_total_term_freq: i64) -> f64 {
    distance * ((stats.total_term_freq as f64 + 1.0) / (sum_total_term_freq as f64 + 1.0))
}

/// One `direct_generator` over one index.
pub struct Generator<'r> {
    terms: FieldTerms<'r>,
    settings: TermSuggest,
    size: usize,
    pre_filter: Option<Analyzer>,
    post_filter: Option<Analyzer>,
    non_error_likelihood: f64,
    frequency_plateau: i64,
}

impl<'r> Generator<'r> {
    /// A generator drawing `size` candidates per token from `terms` with the spell
    /// checker `settings`.
    pub fn new(
        terms: FieldTerms<'r>,
        settings: TermSuggest,
        size: usize,
        filters: (Option<Analyzer>, Option<Analyzer>),
        non_error_likelihood: f64,
    ) -> Generator<'r> {
        let threshold = settings.min_doc_freq;
        let frequency_plateau = if threshold >= 1.0 {
            threshold as i64
        } else {
            // Java: (int) (maxDoc * threshold), a float product.
            (terms.reader.max_doc() as f32 * threshold) as i64
        };
        Generator {
            terms,
            settings,
            size,
            pre_filter: filters.0,
            post_filter: filters.1,
            non_error_likelihood,
            frequency_plateau,
        }
    }

    /// The `pre_filter`'s last token of `term` (the term itself without a filter).
    fn pre_filtered(&self, term: &str) -> Result<String> {
        let Some(a) = &self.pre_filter else { return Ok(term.to_string()) };
        let mut last = None;
        let mut buf = String::new();
        a.for_each_token(term, &mut buf, |t, _, _, _| last = Some(t.to_string()))?;
        Ok(last.unwrap_or_else(|| term.to_string()))
    }

    /// A token's statistics in the generator's field (after the `pre_filter`).
    pub fn term_stats(&self, term: &str) -> Result<TermStats> {
        self.terms.stats(&self.pre_filtered(term)?)
    }

    /// A candidate with ES's score for it.
    pub fn candidate(&self, term: String, stats: TermStats, channel: f64, user_input: bool) -> Candidate {
        let score = candidate_score(stats, channel, self.terms.sum_total_term_freq);
        Candidate { term, stats, string_distance: channel, score, user_input }
    }

    /// ES's `thresholdTermFrequency`: the document frequency a candidate must exceed
    /// given the token's (`i32::MAX` means none can).
    fn threshold(&self, doc_freq: u64) -> i64 {
        if doc_freq == 0 {
            return 0;
        }
        let d = doc_freq as f64;
        let x = d * ((d - self.frequency_plateau as f64).log10() * (1.0 / 5f64.log10())) + 1.0;
        // Math.round(double): floor(x + 0.5) as a long (NaN is 0, infinities saturate).
        let rounded = if x.is_nan() { 0 } else { (x + 0.5).floor() as i64 };
        rounded.max(0).min(i64::from(i32::MAX))
    }

    /// Draws this generator's candidates for the set's token into the set.
    pub fn draw(&self, set: &mut CandidateSet) -> Result<()> {
        let term = self.pre_filtered(&set.original.term)?;
        let mut settings = self.settings.clone();
        if settings.suggest_mode != SuggestMode::Always {
            let threshold = self.threshold(set.original.stats.doc_freq);
            if threshold == i64::from(i32::MAX) {
                return Ok(());
            }
            // A larger `min_doc_freq` than the token's threshold stays.
            if settings.min_doc_freq < threshold as f32 {
                settings.min_doc_freq = threshold as f32;
            }
        }
        let found =
            term::suggest_token(self.terms.reader, self.terms.snap, &self.terms.field, &term, &settings, self.size)?;
        let mut drawn = Vec::with_capacity(found.len());
        for word in found {
            let stats = self.terms.stats(&word.text)?;
            let candidate = self.candidate(word.text, stats, f64::from(word.score), false);
            self.post_filter(candidate, &mut drawn)?;
        }
        set.add_candidates(drawn);
        Ok(())
    }

    /// The `post_filter`'s tokens of a candidate, each a candidate: the candidate's own
    /// term keeps its distance, any other term takes the real word likelihood.
    fn post_filter(&self, candidate: Candidate, out: &mut Vec<Candidate>) -> Result<()> {
        let Some(a) = &self.post_filter else {
            out.push(candidate);
            return Ok(());
        };
        let mut tokens: Vec<(String, u32)> = Vec::new();
        let mut buf = String::new();
        a.for_each_token(&candidate.term, &mut buf, |t, inc, _, _| tokens.push((t.to_string(), inc)))?;
        let score = candidate_score(candidate.stats, candidate.string_distance, self.terms.sum_total_term_freq);
        for (token, increment) in tokens {
            if increment > 0 && token == candidate.term {
                let stats = self.terms.stats(&token)?;
                out.push(Candidate {
                    term: token,
                    stats,
                    string_distance: candidate.string_distance,
                    score,
                    user_input: false,
                });
            } else {
                out.push(Candidate {
                    term: token,
                    stats: candidate.stats,
                    string_distance: self.non_error_likelihood,
                    score,
                    user_input: false,
                });
            }
        }
        Ok(())
    }
}

/// The generators of one suggestion, drawn one after the other for each token, the
/// merged set cut at the shard size (ES's `MultiCandidateGeneratorWrapper`).
pub struct Generators<'r> {
    /// The generators; the first also makes the tokens' own candidates.
    pub all: Vec<Generator<'r>>,
    /// The candidates kept per token.
    pub shard_size: usize,
}

impl Generators<'_> {
    /// Draws every generator's candidates for the set, then keeps the best.
    pub fn draw(&self, set: &mut CandidateSet) -> Result<()> {
        for g in &self.all {
            g.draw(set)?;
        }
        if set.candidates.len() > self.shard_size {
            // A stable sort by score alone, as Java's object sort is.
            set.candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
            set.candidates.truncate(self.shard_size);
        }
        Ok(())
    }

    /// A token's statistics, as the first generator sees them.
    pub fn term_stats(&self, term: &str) -> Result<TermStats> {
        match self.all.first() {
            Some(g) => g.term_stats(term),
            None => Ok(TermStats::default()),
        }
    }

    /// A candidate made by the first generator.
    pub fn candidate(&self, term: String, stats: TermStats, channel: f64, user_input: bool) -> Candidate {
        match self.all.first() {
            Some(g) => g.candidate(term, stats, channel, user_input),
            None => Candidate { term, stats, string_distance: channel, score: 0.0, user_input },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(term: &str, score: f64) -> Candidate {
        Candidate { term: term.into(), stats: TermStats::default(), string_distance: 0.5, score, user_input: false }
    }

    #[test]
    fn merged_sets_keep_the_new_candidate_and_order_by_score_then_term() {
        let mut set = CandidateSet { original: cand("xor", 1.0), candidates: vec![cand("xorr", 0.1), cand("zz", 0.3)] };
        set.add_candidates(vec![cand("xorn", 0.3), cand("xorr", 0.2)]);
        let got: Vec<(&str, f64)> = set.candidates.iter().map(|c| (c.term.as_str(), c.score)).collect();
        assert_eq!(got, vec![("xorn", 0.3), ("zz", 0.3), ("xorr", 0.2)]);
    }

    #[test]
    fn candidate_scores_follow_es_formula() {
        // 0.75 × (3 + 1) / (99 + 1)
        let s = candidate_score(TermStats { doc_freq: 2, total_term_freq: 3 }, 0.75, 99);
        assert!((s - 0.03).abs() < 1e-12, "{s}");
    }
}
