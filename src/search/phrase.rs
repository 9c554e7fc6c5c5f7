//! Phrase queries (exact, sloppy, and with a prefix-expanded last term) over positions.
//!
//! Scoring follows Lucene 7's PhraseWeight: idf is the sum of the terms' idfs, the
//! frequency is the number of exact matches, or Σ 1/(distance+1) for sloppy matches.
//! Explanations show the phrase as Lucene's `PhraseQuery` / `MultiPhraseQuery` print it
//! and the frequency the scorer finds.

use super::bm25::{avg_field_length, idf, Bm25Weight};
use super::context::Executor;
use super::explain::{bm25_expl, idf_expl, non_scoring, Expl};
use super::scorer::{BoxScorer, Scorer, NO_MORE};
use super::weight::Weight;
use crate::analysis::Token;
use crate::budget::Ticker;
use crate::error::{Error, Result};
use crate::index::{DocCursor, DocSet, PositionsCursor, Postings, TermAddr};
use crate::mapping::FieldMapping;
use rustc_hash::FxHashMap;
use std::sync::Arc;

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

/// One term of a phrase: its postings.
struct PhraseTerm {
    postings: Postings,
}

/// A phrase compiled for one index.
pub struct PhraseWeight<'a> {
    ex: Executor<'a>,
    field: String,
    terms: Vec<PhraseTerm>,
    /// Per phrase position: its offset and the indices (in `terms`) of the terms it
    /// accepts (several only for an expanded prefix).
    slots: Vec<(u32, Vec<usize>)>,
    slop: u32,
    bm25: Bm25Weight,
    norms: Option<Arc<Vec<u8>>>,
    /// Documents holding a term of every slot: the only ones whose positions are read.
    candidates: DocSet,
    /// What explanations show, when compiled for them.
    explain: Option<Box<PhraseExplain>>,
}

/// What a phrase's explanation shows beside its postings.
struct PhraseExplain {
    /// Per term (as `PhraseWeight::terms`), its text.
    texts: Vec<String>,
    /// Documents with the field.
    doc_count: u64,
    /// The boost, enclosing boosts multiplied in.
    boost: f32,
    /// Average field length, for fields with norms.
    avgdl: Option<f32>,
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

impl<'a> PhraseWeight<'a> {
    /// Streams the candidates where the phrase occurs, scored by its frequency.
    pub fn scorer(&self) -> Result<BoxScorer<'_>> {
        let mut s = self.phrase_scorer();
        s.doc = s.find(None);
        Ok(Box::new(s))
    }

    /// Lucene's `PhraseWeight.explain` for `doc`: the phrase as Lucene prints it (holes
    /// as `?`, a slot's alternatives in parentheses), the sum of its terms' idfs and the
    /// phrase frequency in `doc`.
    pub fn explain(&self, doc: u32, scoring: bool) -> Result<Option<Expl>> {
        let Some(x) = self.explain.as_deref() else { return Ok(None) };
        let mut s = self.phrase_scorer();
        let found = s.find(Some(doc));
        if let Some(e) = s.error.take() {
            return Err(e);
        }
        if found != doc {
            return Ok(None);
        }
        let freq = s.freq;
        let mut parts = Vec::new();
        let mut next = 0u32;
        for (offset, members) in &self.slots {
            while next < *offset {
                parts.push("?".to_string());
                next += 1;
            }
            parts.push(match members.as_slice() {
                [k] => x.texts[*k].clone(),
                _ => format!("({})", members.iter().map(|k| x.texts[*k].as_str()).collect::<Vec<_>>().join(" ")),
            });
            next = offset + 1;
        }
        let mut desc = format!("{}:\"{}\"", self.field, parts.join(" "));
        if self.slop != 0 {
            desc.push_str(&format!("~{}", self.slop));
        }
        if !scoring {
            return Ok(Some(non_scoring(&desc, doc, freq, "phraseFreq")));
        }
        let idfs: Vec<Expl> = self
            .slots
            .iter()
            .flat_map(|(_, members)| members.iter().map(|k| idf_expl(self.terms[*k].postings.docs.len(), x.doc_count)))
            .collect();
        // Lucene sums the idfs in a double.
        let sum: f64 = idfs.iter().map(|e| e.value as f64).sum();
        let idf_e = Expl::new(sum as f32, "idf(), sum of:", idfs);
        let norm = self.norms.as_ref().and_then(|n| n.get(doc as usize)).copied().unwrap_or(0);
        Ok(Some(bm25_expl(&desc, doc, freq, "phraseFreq", idf_e, x.boost, x.avgdl.map(|a| (a, norm)))))
    }

    /// A scorer over the candidates, before its first one.
    fn phrase_scorer(&self) -> PhraseScorer<'_, 'a> {
        let mut cursors = Vec::with_capacity(self.terms.len());
        for t in &self.terms {
            let c = self.ex.reader.positions_cursor(self.ex.snap, &self.field, &t.postings);
            cursors.push(c);
        }
        PhraseScorer {
            w: self,
            candidates: self.candidates.cursor(),
            cursors,
            slot_positions: vec![Vec::new(); self.slots.len()],
            term_positions: vec![(NO_MORE, Vec::new()); self.terms.len()],
            offsets: self.slots.iter().map(|(o, _)| *o).collect(),
            doc: 0,
            freq: 0.0,
            error: None,
            ticker: Ticker::new(),
        }
    }
}

/// The phrase's matches: candidates whose positions hold the phrase.
struct PhraseScorer<'w, 'a> {
    w: &'w PhraseWeight<'a>,
    candidates: DocCursor<'w>,
    /// Per term: its positions (none for a field without them).
    cursors: Vec<Option<PositionsCursor<'a, 'w>>>,
    slot_positions: Vec<Vec<u32>>,
    /// Per term: the candidate whose positions it holds, and those positions.
    term_positions: Vec<(u32, Vec<u32>)>,
    offsets: Vec<u32>,
    doc: u32,
    freq: f32,
    error: Option<Error>,
    /// Counts the slots read, candidate after candidate (a long phrase's candidate is
    /// itself long work).
    ticker: Ticker,
}

impl PhraseScorer<'_, '_> {
    /// The phrase frequency in candidate `d` (0 when the phrase does not occur).
    fn frequency(&mut self, d: u32) -> Result<f32> {
        for (slot, (_, members)) in self.w.slots.iter().enumerate() {
            let mut buf = std::mem::take(&mut self.slot_positions[slot]);
            buf.clear();
            for &k in members {
                buf.extend_from_slice(self.term_positions(k, d)?);
            }
            if members.len() > 1 {
                buf.sort_unstable();
                buf.dedup();
            }
            let empty = buf.is_empty();
            self.slot_positions[slot] = buf;
            if empty {
                return Ok(0.0);
            }
        }
        Ok(if self.w.slop == 0 {
            exact_freq(&self.slot_positions, &self.offsets)
        } else {
            sloppy_freq(&self.slot_positions, &self.offsets, self.w.slop)
        })
    }

    /// The positions of term `k` in candidate `d`, read once per candidate even when the
    /// phrase repeats the term (empty when the term is not in `d`).
    fn term_positions(&mut self, k: usize, d: u32) -> Result<&[u32]> {
        let (read_for, positions) = &mut self.term_positions[k];
        if *read_for != d {
            *read_for = d;
            positions.clear();
            if let Some(cursor) = self.cursors[k].as_mut() {
                cursor.read_doc(d, positions)?;
            }
        }
        Ok(&self.term_positions[k].1)
    }

    /// The next candidate (after `from`, or the first) where the phrase occurs.
    fn find(&mut self, target: Option<u32>) -> u32 {
        let mut next = match target {
            Some(t) => self.candidates.seek(t),
            None => self.candidates.next_doc(),
        };
        while let Some(d) = next {
            // A candidate costs one step per slot: a long phrase's candidate is long work.
            match self.ticker.tick_by(self.w.slots.len() as u32) {
                Ok(false) => {}
                Ok(true) => break,
                Err(e) => {
                    self.error.get_or_insert(e);
                    break;
                }
            }
            match self.frequency(d) {
                Ok(f) if f > 0.0 => {
                    self.freq = f;
                    return d;
                }
                Ok(_) => {}
                Err(e) => {
                    self.error.get_or_insert(e);
                    // The client has gone (or the index is damaged): nothing more to find.
                    break;
                }
            }
            next = self.candidates.next_doc();
        }
        NO_MORE
    }
}

impl Scorer for PhraseScorer<'_, '_> {
    fn doc(&self) -> u32 {
        self.doc
    }
    fn advance(&mut self) -> u32 {
        if self.doc != NO_MORE {
            self.doc = self.find(None);
        }
        self.doc
    }
    fn seek(&mut self, target: u32) -> u32 {
        if target > self.doc && self.doc != NO_MORE {
            self.doc = self.find(Some(target));
        }
        self.doc
    }
    fn score(&mut self) -> f32 {
        let nb = self.w.norms.as_ref().and_then(|n| n.get(self.doc as usize)).copied().unwrap_or(0);
        self.w.bm25.score(self.freq, nb)
    }
    fn cost(&self) -> u64 {
        self.w.candidates.len()
    }
    fn take_error(&mut self) -> Option<Error> {
        self.error.take()
    }
}

/// Number of start positions where every term sits at its offset.
fn exact_freq(slots: &[Vec<u32>], offsets: &[u32]) -> f32 {
    let mut count = 0u32;
    for &p in &slots[0] {
        let start = p as i64 - offsets[0] as i64;
        if slots.iter().zip(offsets).skip(1).all(|(ps, &o)| ps.binary_search(&((start + o as i64) as u32)).is_ok()) {
            count += 1;
        }
    }
    count as f32
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

/// Lucene 7's `SloppyPhraseScorer.phraseFreq` (for phrases without repeated terms): the
/// term cursors sit in a queue ordered by phrase-relative position; the smallest one is
/// advanced while the match it anchors can only get shorter, and every minimal match of
/// length `<= slop` adds `1 / (length + 1)`.
fn sloppy_freq(slots: &[Vec<u32>], offsets: &[u32], slop: u32) -> f32 {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    if slots.len() < 2 || slots.iter().any(|s| s.is_empty()) {
        return 0.0;
    }
    // (position - offset, offset, ordinal): PhraseQueue's order.
    let key = |i: usize, idx: usize| (slots[i][idx] as i64 - offsets[i] as i64, offsets[i], i);
    let mut cursor = vec![0usize; slots.len()];
    let mut end = i64::MIN;
    let mut pq = BinaryHeap::new();
    for i in 0..slots.len() {
        let k = key(i, 0);
        end = end.max(k.0);
        pq.push(Reverse(k));
    }
    let mut freq = 0f32;
    let slop = slop as i64;
    let Some(Reverse(mut pp)) = pq.pop() else { return 0.0 };
    let mut match_length = end - pp.0;
    let mut next = pq.peek().map(|r| r.0 .0).unwrap_or(i64::MAX);
    loop {
        let i = pp.2;
        cursor[i] += 1;
        if cursor[i] >= slots[i].len() {
            break;
        }
        pp = key(i, cursor[i]);
        end = end.max(pp.0);
        if pp.0 > next {
            if match_length <= slop {
                freq += 1.0 / (match_length as f32 + 1.0);
            }
            pq.push(Reverse(pp));
            let Some(Reverse(top)) = pq.pop() else { break };
            pp = top;
            next = pq.peek().map(|r| r.0 .0).unwrap_or(i64::MAX);
            match_length = end - pp.0;
        } else {
            match_length = match_length.min(end - pp.0);
        }
    }
    if match_length <= slop {
        freq += 1.0 / (match_length as f32 + 1.0);
    }
    freq
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_and_sloppy() {
        let slots = vec![vec![0, 5], vec![1, 9]];
        assert_eq!(exact_freq(&slots, &[0, 1]), 1.0);
        let slots = vec![vec![0], vec![2]];
        assert_eq!(exact_freq(&slots, &[0, 1]), 0.0);
        assert_eq!(sloppy_freq(&slots, &[0, 1], 1), 0.5);
        assert_eq!(sloppy_freq(&slots, &[0, 1], 0), 0.0);
    }
}
