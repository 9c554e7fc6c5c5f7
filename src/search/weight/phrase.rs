//! A phrase's weight (exact, sloppy, or with a prefix-expanded last term), compiled by
//! `search/phrase.rs`: its scorer over positions and its explanation.
//!
//! Scoring follows Lucene 7's PhraseWeight: idf is the sum of the terms' idfs, the
//! frequency is the number of exact matches, or Σ 1/(distance+1) for sloppy matches.
//! Explanations show the phrase as Lucene's `PhraseQuery` / `MultiPhraseQuery` print it
//! and the frequency the scorer finds.

use crate::budget::Ticker;
use crate::error::{Error, Result};
use crate::index::{DocCursor, DocSet, PositionsCursor, Postings};
use crate::search::bm25::Bm25Weight;
use crate::search::context::Executor;
use crate::search::explain::{bm25_expl, idf_expl, non_scoring, Expl};
use crate::search::scorer::{BoxScorer, Scorer, NO_MORE};
use std::sync::Arc;

/// One term of a phrase: its postings.
pub(crate) struct PhraseTerm {
    /// The term's postings.
    pub(crate) postings: Postings,
}

/// A phrase compiled for one index.
pub struct PhraseWeight<'a> {
    pub(crate) ex: Executor<'a>,
    pub(crate) field: String,
    pub(crate) terms: Vec<PhraseTerm>,
    /// Per phrase position: its offset and the indices (in `terms`) of the terms it
    /// accepts (several only for an expanded prefix).
    pub(crate) slots: Vec<(u32, Vec<usize>)>,
    pub(crate) slop: u32,
    pub(crate) bm25: Bm25Weight,
    pub(crate) norms: Option<Arc<Vec<u8>>>,
    /// Documents holding a term of every slot: the only ones whose positions are read.
    pub(crate) candidates: DocSet,
    /// What explanations show, when compiled for them.
    pub(crate) explain: Option<Box<PhraseExplain>>,
}

/// What a phrase's explanation shows beside its postings.
pub(crate) struct PhraseExplain {
    /// Per term (as `PhraseWeight::terms`), its text.
    pub(crate) texts: Vec<String>,
    /// Documents with the field.
    pub(crate) doc_count: u64,
    /// The boost, enclosing boosts multiplied in.
    pub(crate) boost: f32,
    /// Average field length, for fields with norms.
    pub(crate) avgdl: Option<f32>,
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
