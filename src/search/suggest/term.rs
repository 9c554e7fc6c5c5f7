//! The term suggester: for each token of the text, the field's terms a few edits away,
//! as Lucene's `DirectSpellChecker` finds them with the settings ES 6.8 gives it
//! (`DirectSpellcheckerSettings`, the `internal` string distance).
//!
//! A token gets no suggestion when it is shorter than `min_word_length`, when
//! `suggest_mode` is `missing` and the token is indexed, or when it is more frequent
//! than `max_term_freq`. Candidates share the token's first `prefix_length` code points
//! and are at most `max_edits` (restricted Damerau) edits away; their score is Lucene's
//! fuzzy similarity `1 - edits / min(length of the term, length of the token)`, and
//! they must reach `accuracy`, be in more documents than the threshold (`min_doc_freq`,
//! or the token's own frequency with `popular`), and differ from the token. As Lucene,
//! one-edit candidates are gathered first (the best `shard_size × max_inspections`),
//! two-edit ones only when those were fewer; the union is sorted (score, then
//! frequency, then text; or frequency first with `sort: frequency`) and cut at the
//! shard size.

use super::super::edits::edit_distance;
use crate::analysis::Analyzer;
use crate::error::Result;
use crate::index::IndexReader;
use crate::request::suggest::{SuggestMode, TermSuggest};
use crate::store::Snapshot;
use std::cmp::Ordering;

/// One suggested term.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggested {
    /// The term.
    pub text: String,
    /// Its similarity to the token.
    pub score: f32,
    /// The number of documents holding it.
    pub freq: u64,
}

/// One token of the text: the analysed term and its UTF-16 offset and length.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// The term.
    pub term: String,
    /// UTF-16 offset in the text.
    pub offset: usize,
    /// UTF-16 length in the text.
    pub length: usize,
}

/// The tokens `analyzer` makes of `text`, with Java's (UTF-16) offsets.
pub fn tokens(analyzer: &Analyzer, text: &str) -> Result<Vec<Token>> {
    let mut out = Vec::new();
    let mut buf = String::new();
    analyzer.for_each_token(text, &mut buf, |term, _, start, end| {
        let start = start.min(text.len());
        let end = end.clamp(start, text.len());
        let offset = text.get(..start).map_or(0, |s| s.encode_utf16().count());
        let length = text.get(start..end).map_or(0, |s| s.encode_utf16().count());
        out.push(Token { term: term.to_string(), offset, length });
    })?;
    Ok(out)
}

/// Lucene's order of `SuggestWord`s: best first.
pub fn compare(a: &Suggested, b: &Suggested, by_frequency: bool) -> Ordering {
    let by_score = b.score.total_cmp(&a.score);
    let by_freq = b.freq.cmp(&a.freq);
    let by_text = a.text.encode_utf16().cmp(b.text.encode_utf16());
    if by_frequency {
        by_freq.then(by_score).then(by_text)
    } else {
        by_score.then(by_freq).then(by_text)
    }
}

/// The suggestions for one token in one index, at most `num` of them.
pub fn suggest_token(
    reader: &IndexReader,
    snap: &Snapshot,
    field: &str,
    token: &str,
    spec: &TermSuggest,
    num: usize,
) -> Result<Vec<Suggested>> {
    let query: Vec<char> = token.chars().collect();
    if spec.min_word_length > 0 && query.len() < spec.min_word_length {
        return Ok(Vec::new());
    }
    let doc_freq_of = |term: &str| -> Result<u64> {
        Ok(match reader.term_addr(snap, field, term)? {
            Some(addr) => reader.postings(snap, field, addr)?.docs.len(),
            None => 0,
        })
    };
    let mut docfreq = doc_freq_of(token)?;
    if spec.suggest_mode == SuggestMode::Missing && docfreq > 0 {
        return Ok(Vec::new());
    }
    let max_doc = reader.max_doc() as f32;
    let mqf = spec.max_term_freq;
    if (mqf >= 1.0 && docfreq as f32 > mqf) || docfreq as i64 > (mqf * max_doc).ceil() as i64 {
        return Ok(Vec::new());
    }
    if spec.suggest_mode != SuggestMode::Popular {
        docfreq = 0;
    }
    let threshold = spec.min_doc_freq;
    let docfreq: i64 = if threshold >= 1.0 {
        (docfreq as i64).max(threshold as i64)
    } else if threshold > 0.0 {
        (docfreq as i64).max((threshold * max_doc) as i64 - 1)
    } else {
        docfreq as i64
    };
    let inspections = num.saturating_mul(spec.max_inspections);
    let lookup = Lookup { reader, snap, field, query: &query, spec, docfreq, inspections };
    let mut found = candidates(&lookup, 1)?;
    if spec.max_edits > 1 && found.len() < inspections {
        for s in candidates(&lookup, spec.max_edits)? {
            if !found.iter().any(|f| f.text == s.text) {
                found.push(s);
            }
        }
    }
    found.sort_by(|a, b| compare(a, b, spec.sort_by_frequency));
    found.truncate(num);
    Ok(found)
}

/// What the passes of `DirectSpellChecker.suggestSimilar` for one token share: the
/// field looked in, the token, the suggester's options, the document frequency a
/// suggestion must exceed and how many terms a pass keeps.
#[derive(Clone, Copy)]
struct Lookup<'l> {
    reader: &'l IndexReader,
    snap: &'l Snapshot,
    field: &'l str,
    query: &'l [char],
    spec: &'l TermSuggest,
    docfreq: i64,
    inspections: usize,
}

/// One pass of `DirectSpellChecker.suggestSimilar`: the best `inspections` terms within
/// `max_edits` (score, then term order).
fn candidates(lookup: &Lookup<'_>, max_edits: u32) -> Result<Vec<Suggested>> {
    let Lookup { reader, snap, field, query, spec, docfreq, inspections } = *lookup;
    let prefix_len = spec.prefix_length.max(max_edits.saturating_sub(1) as usize).min(query.len());
    let prefix: String = query[..prefix_len].iter().collect();
    let rest = &query[prefix_len..];
    let pb = prefix.as_bytes().to_vec();
    let mut scored: Vec<(f32, String)> = Vec::new();
    let mut keep = |k: &[u8]| {
        let Ok(term) = std::str::from_utf8(k) else { return false };
        let t: Vec<char> = term.chars().collect();
        let Some(ed) = edit_distance(rest, &t[prefix_len.min(t.len())..], true, max_edits) else { return false };
        let score = if ed == 0 { 1.0 } else { 1.0 - ed as f32 / t.len().min(query.len()) as f32 };
        scored.push((score, term.to_string()));
        false
    };
    reader.scan_terms(snap, field, &pb, &|k| k.starts_with(&pb), &mut keep, usize::MAX - 1)?;
    let token: String = query.iter().collect();
    let mut out: Vec<Suggested> = Vec::new();
    // Term order, as the enumeration meets them; a full queue keeps the best scores and,
    // among equal ones, the first terms.
    for (score, term) in scored {
        if out.len() >= inspections {
            let worst = out.iter().map(|s| s.score).fold(f32::INFINITY, f32::min);
            if score <= worst {
                continue;
            }
        }
        if term == token {
            continue;
        }
        let addr = reader.term_addr(snap, field, &term)?;
        let df = match addr {
            Some(a) => reader.postings(snap, field, a)?.docs.len(),
            None => 0,
        };
        if df as i64 <= docfreq || score < spec.accuracy {
            continue;
        }
        out.push(Suggested { text: term, score, freq: df });
        if out.len() > inspections {
            // Drop the worst: lowest score, then the last term.
            let worst = out
                .iter()
                .enumerate()
                .min_by(|(_, a), (_, b)| a.score.total_cmp(&b.score).then(b.text.cmp(&a.text)))
                .map(|(at, _)| at);
            if let Some(at) = worst {
                out.remove(at);
            }
        }
    }
    Ok(out)
}
