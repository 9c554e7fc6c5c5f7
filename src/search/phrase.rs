//! Phrase queries (exact, sloppy, and with a prefix-expanded last term) compiled over
//! positions into `weight::phrase::PhraseWeight`, which scores and explains them.
//!
//! Scoring follows Lucene 7's PhraseWeight: idf is the sum of the terms' idfs, the
//! frequency is the number of exact matches, or Σ 1/(distance+1) for sloppy matches.
//! Explanations show the phrase as Lucene's `PhraseQuery` / `MultiPhraseQuery` print it
//! and the frequency the scorer finds.

use super::bm25::{avg_field_length, idf, Bm25Weight};
use super::context::Executor;
use super::weight::phrase::{PhraseExplain, PhraseTerm, PhraseWeight};
use super::weight::Weight;
use crate::analysis::Token;
use crate::budget::Ticker;
use crate::error::Result;
use crate::index::{DocSet, TermAddr};
use crate::mapping::FieldMapping;
use rustc_hash::FxHashMap;

/// Phrase words looked up between two looks at the budget: a word costs a dictionary
/// lookup and a postings read (microseconds).
const WORDS_PER_LOOK: u32 = 64;

/// A `match_phrase` (or `match_phrase_prefix`) of a text on one field, as
/// `Executor::phrase` compiles it: `multi_match`'s phrase types make one per field.
#[derive(Clone, Copy)]
pub struct MatchPhrase<'q> {
    /// The field searched.
    pub field: &'q str,
    /// The text, analyzed with the field's search quote analyzer unless `analyzer` is set.
    pub text: &'q str,
    /// How far apart (in moves) the terms may be.
    pub slop: u32,
    /// The analyzer the query names.
    pub analyzer: Option<&'q str>,
    /// Whether the last term is a prefix (`match_phrase_prefix`).
    pub prefix: bool,
    /// How many terms the prefix expands to at most.
    pub max_expansions: usize,
}

/// Compiles a phrase over analyzed tokens.
pub fn compile<'a>(
    ex: &Executor<'a>,
    fm: &FieldMapping,
    tokens: &[Token],
    slop: u32,
    prefix: bool,
    max_expansions: usize,
    boost: f32,
) -> Result<Weight<'a>> {
    if tokens.is_empty() {
        return Ok(Weight::none());
    }
    if tokens.len() == 1 && !prefix {
        return ex.scored_term(fm, &tokens[0].text, boost);
    }
    if tokens.len() == 1 {
        // A one-position MultiPhraseQuery rewrites to a disjunction of its terms.
        let mut should = Vec::new();
        for (t, _) in expand_prefix(ex, fm, &tokens[0].text, max_expansions)? {
            should.push(ex.scored_term(fm, &t, boost)?);
        }
        return Ok(Weight::any_of(should, 1));
    }
    let base = tokens[0].position;
    let st = ex.reader.field_stats(&fm.path);
    let doc_count = st.map(|s| s.doc_count).unwrap_or(0);
    // Lucene sums the terms' idfs in a double and casts once.
    let mut idf_sum = 0f64;
    let mut terms: Vec<PhraseTerm> = Vec::new();
    // The terms' texts, kept for explanations only.
    let mut texts = Vec::new();
    let mut slots: Vec<(u32, Vec<usize>)> = Vec::with_capacity(tokens.len());
    // Where each distinct term sits in `terms`: a long phrase repeats its words.
    let mut term_of: FxHashMap<TermAddr, usize> = FxHashMap::default();
    let mut ticker = Ticker::every(WORDS_PER_LOOK);
    for (i, t) in tokens.iter().enumerate() {
        if ticker.tick()? {
            // Past the deadline: a phrase cut short would match more than the phrase, so
            // the part not yet read leaves it matching nothing.
            return Ok(Weight::none());
        }
        let last = i + 1 == tokens.len();
        let found: Vec<(String, TermAddr)> = if prefix && last {
            expand_prefix(ex, fm, &t.text, max_expansions)?
        } else {
            let addr = ex.reader.term_addr(ex.snap, &fm.path, &t.text)?;
            addr.map(|a| (if ex.explain { t.text.clone() } else { String::new() }, a)).into_iter().collect()
        };
        if found.is_empty() {
            // A term stacked with others may be absent: its position needs one of them.
            let stacked = tokens.iter().filter(|o| o.position == t.position).count() > 1;
            if stacked {
                continue;
            }
            return Ok(Weight::none());
        }
        let mut members = Vec::with_capacity(found.len());
        for (text, addr) in found {
            let k = match term_of.get(&addr) {
                Some(&k) => k,
                None => {
                    let postings = ex.reader.postings(ex.snap, &fm.path, addr)?;
                    terms.push(PhraseTerm { postings });
                    term_of.insert(addr, terms.len() - 1);
                    if ex.explain {
                        texts.push(text);
                    }
                    terms.len() - 1
                }
            };
            idf_sum += idf(terms[k].postings.docs.len(), doc_count) as f64;
            members.push(k);
        }
        // Terms stacked at one position are one slot of a MultiPhraseQuery.
        match slots.last_mut() {
            Some((at, held)) if i > 0 && *at == t.position - base => held.extend(members),
            _ => slots.push((t.position - base, members)),
        }
    }
    let positions = 1 + tokens.windows(2).filter(|w| w[0].position != w[1].position).count();
    if slots.len() < positions {
        // Every term stacked at some position is absent.
        return Ok(Weight::none());
    }
    let mut candidates: Option<DocSet> = None;
    for (_, members) in &slots {
        if ticker.tick()? {
            return Ok(Weight::none());
        }
        let mut any = DocSet::new();
        for &k in members {
            any.or_with(&terms[k].postings.docs);
        }
        match candidates.as_mut() {
            None => candidates = Some(any),
            Some(c) => c.and_with(&any),
        }
    }
    let has_norms = fm.params.has_norms(fm.ftype);
    let avgdl = has_norms.then(|| avg_field_length(st.map(|s| s.sum_total_term_freq).unwrap_or(0), doc_count));
    Ok(Weight::Phrase(Box::new(PhraseWeight {
        ex: *ex,
        field: fm.path.clone(),
        terms,
        slots,
        slop,
        bm25: Bm25Weight::new(idf_sum as f32, boost, avgdl),
        norms: if has_norms { ex.reader.norms(ex.snap, &fm.path)? } else { None },
        candidates: candidates.unwrap_or_default(),
        explain: ex.explain.then(|| Box::new(PhraseExplain { texts, doc_count, boost, avgdl })),
    })))
}

/// The terms a phrase prefix expands to: the first `max_expansions` terms of the field
/// starting with `prefix`, in term order (ES's `MultiPhrasePrefixQuery`).
pub(crate) fn expand_prefix(
    ex: &Executor<'_>,
    fm: &FieldMapping,
    prefix: &str,
    max_expansions: usize,
) -> Result<Vec<(String, TermAddr)>> {
    let pb = prefix.as_bytes().to_vec();
    let limit = max_expansions.max(1);
    let mut terms = ex.reader.scan_terms(ex.snap, &fm.path, &pb, &|k| k.starts_with(&pb), &mut |_| true, limit)?;
    terms.truncate(limit);
    Ok(terms)
}
