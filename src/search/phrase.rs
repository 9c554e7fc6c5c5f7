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
    let base = tokens[0].position;
    let mut slots = Vec::with_capacity(tokens.len());
    let mut idf_sum = 0f32;
    let st = ex.reader.field_stats(&fm.path);
    let doc_count = st.map(|s| s.doc_count).unwrap_or(0);
    let mut postings: HashMap<TermAddr, Postings> = HashMap::new();
    for (i, t) in tokens.iter().enumerate() {
        let last = i + 1 == tokens.len();
        let ords: Vec<TermAddr> = if prefix && last {
            let pb = t.text.as_bytes().to_vec();
            ex.reader
                .scan_terms(ex.snap, &fm.path, &pb, &|k| k.starts_with(&pb), &mut |_| true, max_expansions.max(1))?
                .into_iter()
                .take(max_expansions.max(1))
                .map(|(_, o)| o)
                .collect()
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
            idf_sum += idf(postings[&o].docs.len(), doc_count);
        }
        slots.push(Slot { offset: t.position - base, ords });
    }
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
    let avgdl = avg_field_length(st.map(|s| s.sum_total_term_freq).unwrap_or(0), doc_count);
    let weight = Bm25Weight::new(idf_sum, boost, Some(avgdl));
    let norms = ex.reader.norms(ex.snap, &fm.path)?;
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

/// Sloppy frequency: for each occurrence of the first term, the best placement of the
/// others within `slop` moves counts `1 / (distance + 1)`.
fn sloppy_freq(slots: &[Vec<u32>], offsets: &[u32], slop: u32) -> f32 {
    let mut freq = 0f32;
    let mut used_starts = std::collections::HashSet::new();
    for &p in &slots[0] {
        let anchor = p as i64 - offsets[0] as i64;
        // For each other slot, the position whose implied start is nearest the anchor.
        let mut min_start = anchor;
        let mut max_start = anchor;
        let mut ok = true;
        let mut chosen = vec![p as i64];
        for (ps, &o) in slots.iter().zip(offsets).skip(1) {
            let best = ps.iter().map(|&q| q as i64 - o as i64).min_by_key(|s| (s - anchor).abs());
            match best {
                Some(s) => {
                    if chosen.contains(&(s + o as i64)) {
                        ok = false;
                        break;
                    }
                    chosen.push(s + o as i64);
                    min_start = min_start.min(s);
                    max_start = max_start.max(s);
                }
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            continue;
        }
        let distance = (max_start - min_start) as u32;
        if distance <= slop && used_starts.insert(min_start) {
            freq += 1.0 / (distance as f32 + 1.0);
        }
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
