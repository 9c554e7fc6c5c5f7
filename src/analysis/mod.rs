//! Text analysis: Lucene's analysis chains read from ES 6.8 definitions ([`definition`],
//! [`chain`]), the analyzers and normalizers fields name ([`field`]), and `_analyze`.
//!
//! This module keeps the fast path of the built-in analyzers. `standard` is Lucene's StandardAnalyzer as ES configures it: UAX#29 word segmentation,
//! lowercasing, no stop words, tokens longer than 255 characters split into 255-char pieces.
//! Which segments become tokens is Lucene's choice, kept as data in [`lucene_tables`]
//! (derived from Lucene itself): segments with a letter, digit, ideograph, kana or emoji of
//! Lucene's Unicode version, keycap and flag sequences, and runs of complex-context
//! scripts (Thai, Lao, Myanmar, Khmer, ...) as one token each; not superscripts, fractions
//! or symbols that Lucene passes over.

pub mod analyze_api;
pub mod chain;
pub mod char_filters;
pub mod chars;
pub mod cjk_bigram;
pub mod classic;
pub mod common_grams;
#[rustfmt::skip]
mod classic_tables;
pub mod definition;
pub mod field;
pub mod flatten_graph;
pub mod html_strip;
#[rustfmt::skip]
mod java_chars;
pub mod java_regex;
pub mod language;
pub mod limits;
pub mod pattern_capture;
#[rustfmt::skip]
mod lucene_tables;
mod settings;
pub mod stemmers;
#[rustfmt::skip]
mod stopword_lists;
pub mod stopwords;
pub mod synonyms;
pub mod token;
pub mod token_filters;
pub mod tokenizers;
pub mod uax_url_email;
#[rustfmt::skip]
mod url_tlds;
pub mod word_delimiter;

pub use field::{Analyzer, Normalizer};
use unicode_segmentation::UnicodeSegmentation;

/// Lucene's default `max_token_length` for the standard tokenizer.
pub const MAX_TOKEN_LENGTH: usize = 255;

/// One token produced by an analyzer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The token text after filtering.
    pub text: String,
    /// Position in the token stream (0-based, before any multi-value gap).
    pub position: u32,
    /// Byte offset of the token start in the input.
    pub start: usize,
    /// Byte offset one past the token end in the input.
    pub end: usize,
}

/// Whether `c` falls in one of the sorted, disjoint `ranges`.
fn in_table(ranges: &[(u32, u32)], c: char) -> bool {
    ranges.binary_search_by(|&(lo, hi)| chars::against_range(lo, hi, c as u32)).is_ok()
}

/// Whether Lucene makes a token of a UAX#29 segment.
fn is_token(segment: &str) -> bool {
    let mut regional = 0;
    for c in segment.chars() {
        if c.is_ascii() {
            if c.is_ascii_alphanumeric() {
                return true;
            }
            continue;
        }
        if in_table(lucene_tables::TOKEN_CHARS, c) || c == '\u{20E3}' {
            // A letter, digit or emoji; or a keycap sequence (`#️⃣`).
            return true;
        }
        if ('\u{1F1E6}'..='\u{1F1FF}').contains(&c) {
            regional += 1;
        }
    }
    // A flag: a pair of regional indicators.
    regional >= 2
}

/// Whether a segment is complex-context script, which Lucene does not split.
fn is_complex_context(segment: &str) -> bool {
    segment.chars().next().is_some_and(|c| in_table(lucene_tables::COMPLEX_CONTEXT, c))
}

/// Whether `c` splits a UAX#29 segment for Lucene: a code point of its Unicode version's
/// "other" class (`¸` in `hangã¸j`), which newer Unicode may class with letters.
fn breaks_segment(c: char) -> bool {
    !(c.is_ascii_alphanumeric()
        || in_table(lucene_tables::TOKEN_CHARS, c)
        || in_table(lucene_tables::JOINERS, c)
        || ('\u{1F1E6}'..='\u{1F1FF}').contains(&c))
}

/// A segment cut after each joiner that newer Unicode (WB3c) lets join a word to an emoji:
/// Lucene's grammar ends the word with the joiner (`abc\u{200D}😀` is `abc\u{200D}`, `😀`).
fn split_word_before_emoji(at: usize, segment: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut cuts = vec![0];
    if segment.contains('\u{200D}') {
        let mut base_is_word = false;
        let mut chars = segment.char_indices().peekable();
        while let Some((_, c)) = chars.next() {
            if c == '\u{200D}' {
                if let Some(&(j, next)) = chars.peek() {
                    // An emoji: a token character of Lucene's that is no letter or digit.
                    let emoji = !next.is_alphanumeric() && in_table(lucene_tables::TOKEN_CHARS, next);
                    if base_is_word && emoji {
                        cuts.push(j);
                    }
                }
            } else if !matches!(chars::java_type(c), 6..=8 | 16) {
                base_is_word = c.is_alphanumeric() || chars::java_type(c) == 23;
            }
        }
    }
    cuts.push(segment.len());
    (0..cuts.len() - 1).map(move |k| (at + cuts[k], &segment[cuts[k]..cuts[k + 1]]))
}

/// Calls `emit(offset, token)` with each token of Lucene's StandardTokenizer: the UAX#29
/// word segments (split again where Lucene's older Unicode breaks) that Lucene keeps, with
/// adjacent complex-context segments joined.
pub(crate) fn standard_tokens<'t>(text: &'t str, mut emit: impl FnMut(usize, &'t str)) {
    standard_tokens_while(text, text.is_ascii(), |at, word| {
        emit(at, word);
        true
    });
}

/// The length of the first token of [`standard_tokens`] if it starts the text: the
/// standard tokenizer's word where a scanner stands. `is_ascii` says whether the text is
/// ASCII, which the scanner knows (checking it here would read the whole text each time).
pub(crate) fn standard_token_at_start(text: &str, is_ascii: bool) -> Option<usize> {
    let mut first = None;
    standard_tokens_while(text, is_ascii, |at, word| {
        first = (at == 0).then_some(word.len());
        false
    });
    first
}

/// [`standard_tokens`] until `emit` answers false.
fn standard_tokens_while<'t>(text: &'t str, is_ascii: bool, mut emit: impl FnMut(usize, &'t str) -> bool) {
    if is_ascii {
        // Lucene and UAX#29 agree on ASCII: every segment with a letter or digit, which
        // unicode-segmentation finds on its ASCII fast path.
        for (start, word) in text.unicode_word_indices() {
            if !emit(start, word) {
                return;
            }
        }
        return;
    }
    let go_on = std::cell::Cell::new(true);
    let mut emit = |at: usize, word: &'t str| {
        if go_on.get() {
            go_on.set(emit(at, word));
        }
    };
    // The last token, held back while a complex-context run may still grow.
    let mut pending: Option<(usize, usize, bool)> = None;
    let mut take = |at: usize, piece: &'t str, pending: &mut Option<(usize, usize, bool)>| {
        // A text-presentation selector is no part of an emoji token (`↔︎` is `↔`).
        let piece = match piece.strip_suffix('\u{FE0E}') {
            Some(p) if !p.ends_with(char::is_alphanumeric) => p,
            _ => piece,
        };
        let complex = !piece.as_bytes()[0].is_ascii() && is_complex_context(piece);
        match pending {
            Some((start, end, true)) if complex && *end == at => *end = at + piece.len(),
            _ => {
                if let Some((start, end, _)) = pending.take() {
                    emit(start, &text[start..end]);
                }
                *pending = Some((at, at + piece.len(), complex));
            }
        }
    };
    for (start, segment) in text.split_word_bound_indices().flat_map(|(at, seg)| split_word_before_emoji(at, seg)) {
        if !go_on.get() {
            return;
        }
        // A keycap sequence (`#️⃣`) is one token, its base included.
        if segment.is_ascii() || segment.contains('\u{20E3}') || !segment.chars().any(breaks_segment) {
            if is_token(segment) {
                take(start, segment, &mut pending);
            }
            continue;
        }
        let mut from = 0;
        for (i, c) in segment.char_indices().chain(std::iter::once((segment.len(), ' '))) {
            if i == segment.len() || breaks_segment(c) {
                let piece = &segment[from..i];
                if !piece.is_empty() && is_token(piece) {
                    take(start + from, piece, &mut pending);
                }
                from = i + c.len_utf8();
            }
        }
    }
    if let Some((start, end, _)) = pending {
        emit(start, &text[start..end]);
    }
}

/// Lowercases per code point with the simple (one-to-one) Unicode mapping, as Java's
/// `Character.toLowerCase` does: `İ` becomes `i`, not `i̇`.
pub fn lowercase(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    lowercase_into(s, &mut out);
    out
}

/// [`lowercase`] into `out` (cleared first), reusing its allocation.
pub fn lowercase_into(s: &str, out: &mut String) {
    out.clear();
    if s.is_ascii() {
        out.push_str(s);
        out.make_ascii_lowercase();
    } else {
        out.extend(s.chars().map(|c| c.to_lowercase().next().unwrap_or(c)));
    }
}

/// Maximal runs of characters satisfying `keep`, with their byte offsets.
pub(crate) fn runs(text: &str, keep: impl Fn(char) -> bool) -> impl Iterator<Item = (usize, &str)> {
    let mut spans = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        match (keep(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                spans.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, &text[s..]));
    }
    spans.into_iter()
}

/// Calls `f(offset, piece)` with `word` split into pieces of at most `MAX_TOKEN_LENGTH`
/// characters, as Lucene's tokenizer does when its buffer fills.
pub(crate) fn for_each_piece<'w>(word: &'w str, f: impl FnMut(usize, &'w str)) {
    for_each_piece_of(word, MAX_TOKEN_LENGTH, f)
}

/// [`for_each_piece`] with pieces of at most `max_len` characters.
fn for_each_piece_of<'w>(word: &'w str, max_len: usize, mut f: impl FnMut(usize, &'w str)) {
    let max_len = max_len.max(1);
    if word.len() <= max_len || word.chars().count() <= max_len {
        return f(0, word);
    }
    let mut piece_start = 0;
    for (count, (i, _)) in word.char_indices().enumerate() {
        if count > 0 && count % max_len == 0 {
            f(piece_start, &word[piece_start..i]);
            piece_start = i;
        }
    }
    f(piece_start, &word[piece_start..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(a: Analyzer, s: &str) -> Vec<String> {
        a.analyze(s).unwrap().into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn standard_segments_and_lowercases() {
        assert_eq!(
            texts(Analyzer::fast("standard").unwrap(), "The 2 QUICK Brown-Foxes jumped over the lazy dog's bone."),
            ["the", "2", "quick", "brown", "foxes", "jumped", "over", "the", "lazy", "dog's", "bone"]
        );
    }

    #[test]
    fn standard_keeps_decimal_numbers_and_splits_punctuation() {
        assert_eq!(
            texts(Analyzer::fast("standard").unwrap(), "v1.2 costs 3.50, e-mail"),
            ["v1.2", "costs", "3.50", "e", "mail"]
        );
        assert_eq!(texts(Analyzer::fast("standard").unwrap(), "RRID:SCR_000415"), ["rrid:scr_000415"]);
        assert_eq!(texts(Analyzer::fast("standard").unwrap(), "doi:10.26275/abc"), ["doi", "10.26275", "abc"]);
    }

    #[test]
    fn standard_splits_ideographs() {
        assert_eq!(texts(Analyzer::fast("standard").unwrap(), "我是中国人"), ["我", "是", "中", "国", "人"]);
    }

    #[test]
    fn long_tokens_split_at_255() {
        let long = "a".repeat(600);
        let toks = Analyzer::fast("standard").unwrap().analyze(&long).unwrap();
        assert_eq!(toks.len(), 3);
        assert_eq!(toks[0].text.len(), 255);
        assert_eq!(toks[2].text.len(), 90);
        assert_eq!(toks[2].position, 2);
    }

    #[test]
    fn positions_and_offsets() {
        let toks = Analyzer::fast("standard").unwrap().analyze("Hello  World").unwrap();
        assert_eq!(toks[1].position, 1);
        assert_eq!(&"Hello  World"[toks[1].start..toks[1].end], "World");
    }

    #[test]
    fn other_analyzers() {
        assert_eq!(texts(Analyzer::fast("simple").unwrap(), "Brown-Foxes 42x"), ["brown", "foxes", "x"]);
        assert_eq!(texts(Analyzer::whitespace(), " Brown-Foxes  42x "), ["Brown-Foxes", "42x"]);
        assert_eq!(texts(Analyzer::fast("keyword").unwrap(), "Brown Foxes"), ["Brown Foxes"]);
    }

    #[test]
    fn java_style_lowercase() {
        assert_eq!(lowercase("İSTANBUL"), "istanbul");
    }
}
