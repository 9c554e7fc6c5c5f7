//! Phrase queries (exact, sloppy, and with a prefix-expanded last term) over positions.
//!
//! Scoring follows Lucene 7's PhraseWeight: idf is the sum of the terms' idfs, the
//! frequency is the number of exact matches, or Σ 1/(distance+1) for sloppy matches.

use super::bm25::{avg_field_length, idf, Bm25Weight};
use super::exec::Executor;
use super::matches::Matches;
use crate::analysis::Token;
use crate::error::Result;
use crate::index::{DocSet, Postings, TermAddr};
use crate::mapping::FieldMapping;
use std::collections::HashMap;

/// One phrase position: the alternatives (several only for an expanded prefix).
struct Slot {
    offset: u32,
    ords: Vec<TermAddr>,
}

/// Runs a phrase over analyzed tokens.
pub fn run(
    ex: &Executor<'_>,
    fm: &FieldMapping,
    tokens: &[Token],
    slop: u32,
    prefix: bool,
    max_expansions: usize,
    boost: f32,
) -> Result<Matches> {
    if tokens.is_empty() {
        return Ok(Matches::none());
    }
    if tokens.len() == 1 && !prefix {
        return ex.scored_term(fm, &tokens[0].text, boost);
    }
    if tokens.len() == 1 {
        // A one-position MultiPhraseQuery rewrites to a disjunction of its terms.
        let mut clauses = Vec::new();
        for (t, _) in expand_prefix(ex, fm, &tokens[0].text, max_expansions)? {
            clauses.push(ex.scored_term(fm, &t, boost)?);
        }
        return Ok(match clauses.len() {
            0 => Matches::none(),
            1 => clauses.pop().unwrap_or_else(Matches::none),
            _ => super::exec::combine_bool(ex, Vec::new(), Vec::new(), clauses, DocSet::new(), 1, true),
        });
    }
    let base = tokens[0].position;
    let mut slots = Vec::with_capacity(tokens.len());
    // Lucene sums the terms' idfs in a double and casts once.
    let mut idf_sum = 0f64;
    let st = ex.reader.field_stats(&fm.path);
    let doc_count = st.map(|s| s.doc_count).unwrap_or(0);
    let mut postings: HashMap<TermAddr, Postings> = HashMap::new();
    for (i, t) in tokens.iter().enumerate() {
        let last = i + 1 == tokens.len();
        let ords: Vec<TermAddr> = if prefix && last {
            expand_prefix(ex, fm, &t.text, max_expansions)?.into_iter().map(|(_, o)| o).collect()
        } else {
            ex.reader.term_addr(ex.snap, &fm.path, &t.text)?.into_iter().collect()
        };
        if ords.is_empty() {
            return Ok(Matches::none());
        }
        for &o in &ords {
            if let std::collections::hash_map::Entry::Vacant(e) = postings.entry(o) {
                e.insert(ex.reader.postings(ex.snap, &fm.path, o)?);
            }
            idf_sum += idf(postings[&o].docs.len(), doc_count) as f64;
        }
        slots.push(Slot { offset: t.position - base, ords });
    }
    let idf_sum = idf_sum as f32;
    // Candidate documents contain a term of every slot.
    let mut candidates: Option<DocSet> = None;
    for s in &slots {
        let mut any = DocSet::new();
        for o in &s.ords {
            any.or_with(&postings[o].docs);
        }
        match candidates.as_mut() {
            None => candidates = Some(any),
            Some(c) => c.and_with(&any),
        }
    }
    let candidates = candidates.unwrap_or_default();
    if candidates.is_empty() {
        return Ok(Matches::none());
    }
    // Positions of the candidates, per term.
    let mut positions: HashMap<TermAddr, HashMap<u32, Vec<u32>>> = HashMap::new();
    for (&ord, p) in &postings {
        let all = ex.reader.positions(ex.snap, &fm.path, p)?;
        let per_doc: HashMap<u32, Vec<u32>> = p.docs.iter().zip(all).filter(|(d, _)| candidates.contains(*d)).collect();
        positions.insert(ord, per_doc);
    }
    let has_norms = fm.ftype == crate::mapping::FieldType::Text;
    let avgdl = has_norms.then(|| avg_field_length(st.map(|s| s.sum_total_term_freq).unwrap_or(0), doc_count));
    let weight = Bm25Weight::new(idf_sum, boost, avgdl);
    let norms = if has_norms { ex.reader.norms(ex.snap, &fm.path)? } else { None };
    let mut out = Vec::new();
    for d in candidates.iter() {
        let slot_positions: Vec<Vec<u32>> = slots
            .iter()
            .map(|s| {
                let mut v: Vec<u32> = s.ords.iter().filter_map(|o| positions[o].get(&d)).flatten().copied().collect();
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect();
        let offsets: Vec<u32> = slots.iter().map(|s| s.offset).collect();
        let freq = if slop == 0 {
            exact_freq(&slot_positions, &offsets)
        } else {
            sloppy_freq(&slot_positions, &offsets, slop)
        };
        if freq > 0.0 {
            let nb = norms.as_ref().and_then(|n| n.get(d as usize)).copied().unwrap_or(0);
            out.push((d, weight.score(freq, nb)));
        }
    }
    Ok(Matches::Scored(out))
}

/// What an explanation needs of a phrase in one document.
pub(crate) struct PhraseDoc {
    /// Per phrase position: its offset and the terms it accepts with their document
    /// frequencies.
    pub slots: Vec<(u32, Vec<(String, u64)>)>,
    /// The phrase frequency in the document (exact count or sloppy sum).
    pub freq: f32,
}

/// The phrase statistics of `doc` (`None` when the phrase does not occur in it), computed
/// as [`run`] scores it; for phrases of two or more positions.
pub(crate) fn doc_stats(
    ex: &Executor<'_>,
    fm: &FieldMapping,
    tokens: &[Token],
    slop: u32,
    prefix: bool,
    max_expansions: usize,
    doc: u32,
) -> Result<Option<PhraseDoc>> {
    let Some(first) = tokens.first() else { return Ok(None) };
    let base = first.position;
    let mut slots = Vec::with_capacity(tokens.len());
    let mut slot_positions = Vec::with_capacity(tokens.len());
    let mut offsets = Vec::with_capacity(tokens.len());
    for (i, t) in tokens.iter().enumerate() {
        let terms: Vec<(String, TermAddr)> = if prefix && i + 1 == tokens.len() {
            expand_prefix(ex, fm, &t.text, max_expansions)?
        } else {
            ex.reader.term_addr(ex.snap, &fm.path, &t.text)?.map(|a| (t.text.clone(), a)).into_iter().collect()
        };
        if terms.is_empty() {
            return Ok(None);
        }
        let mut info = Vec::with_capacity(terms.len());
        let mut positions = Vec::new();
        for (term, addr) in terms {
            let p = ex.reader.postings(ex.snap, &fm.path, addr)?;
            info.push((term, p.docs.len()));
            let idx = p.docs.iter().position(|d| d == doc);
            if let Some(idx) = idx {
                if let Some(ps) = ex.reader.positions(ex.snap, &fm.path, &p)?.get(idx) {
                    positions.extend_from_slice(ps);
                }
            }
        }
        positions.sort_unstable();
        positions.dedup();
        slots.push((t.position - base, info));
        slot_positions.push(positions);
        offsets.push(t.position - base);
    }
    if slot_positions.iter().any(|p| p.is_empty()) {
        return Ok(None);
    }
    let freq =
        if slop == 0 { exact_freq(&slot_positions, &offsets) } else { sloppy_freq(&slot_positions, &offsets, slop) };
    Ok((freq > 0.0).then_some(PhraseDoc { slots, freq }))
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
