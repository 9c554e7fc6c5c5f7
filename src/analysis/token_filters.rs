//! Token filters, each Lucene's (or ES's own) algorithm over a whole token stream.

use super::char_filters::Replacement;
use super::chars::{self, utf16_len};
use super::java_chars::{ASCII_FOLDING, HALFWIDTH_KANA, KANA_COMPOSED};
use super::java_regex::JavaRegex;
use super::limits::Quota;
use super::stemmers;
use super::stemmers::snowball::Snowball;
use super::stemmers::{LightStemmer, Normalization};
use super::stopwords::WordSet;
use super::token::{AnalyzedToken, TokenStream};
use crate::error::Result;

/// A token filter of a chain.
#[derive(Debug, Clone)]
pub enum TokenFilter {
    /// `lowercase`: Java's per-code-point lowercase.
    Lowercase,
    /// `uppercase`: Java's per-code-point uppercase.
    Uppercase,
    /// `asciifolding`: Lucene's ASCII folding; the original kept too (stacked) if asked.
    AsciiFolding { preserve_original: bool },
    /// `stop`: removes the words of a set.
    Stop(WordSet),
    /// `trim`: strips characters up to U+0020 from both ends.
    Trim,
    /// `truncate`: cuts terms to `length` UTF-16 units.
    Truncate { length: usize },
    /// `length`: keeps terms of `min..=max` UTF-16 units.
    Length { min: usize, max: usize },
    /// `limit`: keeps the first `max_token_count` tokens.
    Limit { max_token_count: usize },
    /// `unique`: drops terms seen before (at the same position only, if asked).
    Unique { only_on_same_position: bool },
    /// `reverse`: reverses each term by code point.
    Reverse,
    /// `keyword_repeat`: Lucene's KeywordRepeatFilter: each token twice at one position,
    /// first marked as a keyword (stemmers leave it), then unmarked.
    KeywordRepeat,
    /// `elision`: strips an article and its apostrophe from the front of terms.
    Elision(WordSet),
    /// `apostrophe`: cuts each term at its first apostrophe.
    Apostrophe,
    /// `edge_ngram`: prefixes of `min_gram..=max_gram` code points (of the suffixes, with
    /// `back`).
    EdgeNGram { min_gram: usize, max_gram: usize, back: bool },
    /// `ngram`: every n-gram of `min_gram..=max_gram` code points.
    NGram { min_gram: usize, max_gram: usize },
    /// `keyword_marker`: marks terms of a set, or matching a pattern, as keywords.
    KeywordMarker(KeywordMatcher),
    /// `pattern_replace`: Java `replaceAll` (or `replaceFirst`) on each term.
    PatternReplace { pattern: JavaRegex, replacement: Replacement, all: bool },
    /// `decimal_digit`: decimal digits of any script to ASCII.
    DecimalDigit,
    /// `porter_stem` and `stemmer` (`english`, `porter`): Lucene's Porter stemmer.
    PorterStem,
    /// `kstem`, and `stemmer` `light_english` / `kstem`: Lucene's KStemFilter.
    KStem,
    /// `stemmer` `minimal_english`: plurals only.
    MinimalEnglishStem,
    /// `stemmer` `possessive_english`: trailing `'s` removed.
    PossessiveEnglish,
    /// `snowball`, and `stemmer` with a Snowball language: Lucene's SnowballFilter.
    Snowball(Snowball),
    /// `stemmer` with a light language (`light_german`, ...).
    LightStem(LightStemmer),
    /// `lowercase` with `language: turkish`: Lucene's TurkishLowerCaseFilter.
    TurkishLowercase,
    /// `lowercase` with `language: irish`: Lucene's IrishLowerCaseFilter.
    IrishLowercase,
    /// `lowercase` with `language: greek`: Lucene's GreekLowerCaseFilter.
    GreekLowercase,
    /// A language's normalization filter (`german_normalization`, `arabic_normalization`, ...).
    Normalization(Normalization),
    /// `stemmer_override`: terms of the map replaced and marked as keywords.
    StemmerOverride(std::collections::HashMap<String, String>),
    /// `shingle`: word n-grams of `min..=max` tokens joined by `separator`.
    Shingle(Shingle),
    /// `cjk_width`: fullwidth ASCII to ASCII, halfwidth katakana to fullwidth (voiced
    /// marks composed).
    CjkWidth,
    /// `pattern_capture`: the capture groups of patterns' matches, stacked on the token.
    PatternCapture { patterns: Vec<JavaRegex>, preserve_original: bool },
    /// `common_grams`: bigrams with common words (only those, where they apply, in query
    /// mode).
    CommonGrams { common_words: WordSet, query_mode: bool },
    /// `cjk_bigram`: bigrams of adjacent CJK characters.
    CjkBigram { scripts: super::cjk_bigram::Scripts, output_unigrams: bool },
    /// `classic`: Lucene's ClassicFilter (possessives and acronym dots removed).
    Classic,
    /// `fingerprint`: the sorted unique terms as one token.
    Fingerprint { separator: char, max_output_size: usize },
    /// `synonym`: Lucene's SynonymFilter.
    Synonym(super::synonyms::Synonyms),
    /// `synonym_graph`: Lucene's SynonymGraphFilter.
    SynonymGraph(super::synonyms::Synonyms),
    /// `word_delimiter`: Lucene's WordDelimiterFilter (parts and catenations stacked).
    WordDelimiter(Box<super::word_delimiter::WordDelimiter>),
    /// `word_delimiter_graph`: Lucene's WordDelimiterGraphFilter (a token graph).
    WordDelimiterGraph(Box<super::word_delimiter::WordDelimiter>),
    /// `flatten_graph`: Lucene's FlattenGraphFilter.
    FlattenGraph,
}

/// The options of a `shingle` filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shingle {
    /// Fewest tokens in a shingle.
    pub min: usize,
    /// Most tokens in a shingle.
    pub max: usize,
    /// Whether single tokens are kept.
    pub output_unigrams: bool,
    /// Whether single tokens are kept when no shingle can be made.
    pub output_unigrams_if_no_shingles: bool,
    /// What joins the tokens.
    pub token_separator: String,
    /// What stands for a removed token.
    pub filler_token: String,
}

/// What `keyword_marker` marks.
#[derive(Debug, Clone)]
pub enum KeywordMatcher {
    /// The words of a set.
    Words(WordSet),
    /// The terms a pattern matches whole.
    Pattern(JavaRegex),
}

impl TokenFilter {
    /// Whether the filter adds Lucene's KeywordAttribute to the stream (it then shows in
    /// `_analyze`'s `explain` attributes).
    pub fn adds_keyword_attribute(&self) -> bool {
        matches!(
            self,
            TokenFilter::KeywordMarker(_)
                | TokenFilter::KeywordRepeat
                | TokenFilter::PorterStem
                | TokenFilter::KStem
                | TokenFilter::MinimalEnglishStem
                | TokenFilter::Snowball(_)
                | TokenFilter::LightStem(_)
                | TokenFilter::StemmerOverride(_)
        )
    }

    /// Whether ES lets a normalizer use the filter (its factory is multi-term aware): it
    /// changes characters and never splits or drops the value.
    pub fn works_on_whole_values(&self) -> bool {
        matches!(
            self,
            TokenFilter::Lowercase
                | TokenFilter::Uppercase
                | TokenFilter::AsciiFolding { .. }
                | TokenFilter::Elision(_)
                | TokenFilter::DecimalDigit
                | TokenFilter::Trim
                | TokenFilter::CjkWidth
                | TokenFilter::Normalization(_)
                | TokenFilter::TurkishLowercase
                | TokenFilter::IrishLowercase
                | TokenFilter::GreekLowercase
        )
    }

    /// Applies the filter to `stream`.
    pub fn apply(&self, stream: &mut TokenStream) -> Result<()> {
        match self {
            TokenFilter::Lowercase => {
                for t in &mut stream.tokens {
                    if t.term.is_ascii() {
                        t.term.make_ascii_lowercase();
                    } else {
                        t.term = t.term.chars().map(chars::to_lower).collect();
                    }
                }
            }
            TokenFilter::Uppercase => {
                for t in &mut stream.tokens {
                    if t.term.is_ascii() {
                        t.term.make_ascii_uppercase();
                    } else {
                        t.term = t.term.chars().map(chars::to_upper).collect();
                    }
                }
            }
            TokenFilter::AsciiFolding { preserve_original } => ascii_folding(stream, *preserve_original),
            TokenFilter::Stop(words) => {
                if !words.is_empty() {
                    stream.retain(|t| !words.contains(&t.term));
                }
            }
            TokenFilter::Trim => map_terms(stream, |t| t.trim_matches(|c: char| c <= ' ').to_string()),
            TokenFilter::Truncate { length } => {
                for t in stream.tokens.iter_mut().filter(|t| !t.keyword) {
                    t.term = truncate_units(&t.term, *length).to_string();
                }
            }
            TokenFilter::Length { min, max } => stream.retain(|t| {
                let n = utf16_len(&t.term);
                n >= *min && n <= *max
            }),
            TokenFilter::Limit { max_token_count } => stream.tokens.truncate(*max_token_count),
            TokenFilter::Unique { only_on_same_position } => unique(stream, *only_on_same_position),
            TokenFilter::Reverse => map_terms(stream, |t| t.chars().rev().collect()),
            TokenFilter::KeywordRepeat => keyword_repeat(stream),
            TokenFilter::Elision(articles) => {
                map_terms(stream, |t| match t.char_indices().find(|(_, c)| matches!(c, '\'' | '\u{2019}')) {
                    Some((i, c)) if articles.contains(&t[..i]) => t[i + c.len_utf8()..].to_string(),
                    _ => t.to_string(),
                })
            }
            TokenFilter::Apostrophe => map_terms(stream, |t| match t.find(['\'', '\u{2019}']) {
                Some(i) => t[..i].to_string(),
                None => t.to_string(),
            }),
            TokenFilter::EdgeNGram { min_gram, max_gram, back } => {
                if *back {
                    TokenFilter::Reverse.apply(stream)?;
                }
                grams(stream, *min_gram, *max_gram, true)?;
                if *back {
                    TokenFilter::Reverse.apply(stream)?;
                }
            }
            TokenFilter::NGram { min_gram, max_gram } => grams(stream, *min_gram, *max_gram, false)?,
            TokenFilter::KeywordMarker(matcher) => {
                for t in &mut stream.tokens {
                    let hit = match matcher {
                        KeywordMatcher::Words(w) => w.contains(&t.term),
                        KeywordMatcher::Pattern(p) => p.matches_whole(&t.term),
                    };
                    if hit {
                        t.keyword = true;
                    }
                }
            }
            TokenFilter::PatternReplace { pattern, replacement, all } => {
                let mut quota = Quota::default();
                for t in &mut stream.tokens {
                    t.term = replace_in_term(&t.term, pattern, replacement, *all, &mut quota)?;
                }
            }
            TokenFilter::PorterStem => stem(stream, stemmers::porter),
            TokenFilter::KStem => {
                for t in stream.tokens.iter_mut().filter(|t| !t.keyword) {
                    if let Some(stemmed) = stemmers::kstem::stem(&t.term) {
                        t.term = stemmed;
                    }
                }
            }
            TokenFilter::MinimalEnglishStem => stem(stream, stemmers::minimal_english),
            TokenFilter::PossessiveEnglish => map_terms(stream, stemmers::possessive),
            TokenFilter::Snowball(stemmer) => stem(stream, |t| stemmer.stem(t)),
            TokenFilter::LightStem(stemmer) => stem(stream, |t| stemmer.stem(t)),
            TokenFilter::Normalization(n) => map_terms(stream, |t| n.normalize(t)),
            TokenFilter::TurkishLowercase => map_terms(stream, stemmers::lowercase::turkish),
            TokenFilter::IrishLowercase => map_terms(stream, stemmers::lowercase::irish),
            TokenFilter::GreekLowercase => map_terms(stream, stemmers::greek::lowercase),
            TokenFilter::StemmerOverride(map) => {
                for t in stream.tokens.iter_mut().filter(|t| !t.keyword) {
                    if let Some(to) = map.get(&t.term) {
                        t.term = to.clone();
                        t.keyword = true;
                    }
                }
            }
            TokenFilter::Shingle(options) => shingles(stream, options)?,
            TokenFilter::CjkWidth => map_terms(stream, cjk_width),
            TokenFilter::Fingerprint { separator, max_output_size } => {
                fingerprint(stream, *separator, *max_output_size)
            }
            TokenFilter::Classic => super::classic::filter(stream),
            TokenFilter::Synonym(synonyms) => synonyms.apply_flat(stream)?,
            TokenFilter::SynonymGraph(synonyms) => synonyms.apply_graph(stream)?,
            TokenFilter::WordDelimiter(options) => super::word_delimiter::apply_classic(options, stream),
            TokenFilter::WordDelimiterGraph(options) => super::word_delimiter::apply_graph(options, stream),
            TokenFilter::FlattenGraph => super::flatten_graph::apply(stream),
            TokenFilter::CjkBigram { scripts, output_unigrams } => {
                super::cjk_bigram::apply(stream, *scripts, *output_unigrams)
            }
            TokenFilter::CommonGrams { common_words, query_mode } => {
                super::common_grams::apply(stream, common_words, *query_mode)
            }
            TokenFilter::PatternCapture { patterns, preserve_original } => {
                super::pattern_capture::apply(stream, patterns, *preserve_original)?
            }
            TokenFilter::DecimalDigit => map_terms(stream, |t| {
                t.chars()
                    .map(|c| match chars::decimal_value(c) {
                        Some(v) if !c.is_ascii() => char::from_digit(v, 10).unwrap_or(c),
                        _ => c,
                    })
                    .collect()
            }),
        }
        Ok(())
    }
}

/// Java's `replaceAll` (or `replaceFirst`) of `pattern` in one term.
fn replace_in_term(
    t: &str,
    pattern: &JavaRegex,
    replacement: &Replacement,
    all: bool,
    quota: &mut Quota,
) -> Result<String> {
    let mut out = String::new();
    let mut last = 0;
    for groups in pattern.captures_iter(t) {
        let (s, e) = groups[0].unwrap_or((0, 0));
        out.push_str(&t[last..s]);
        let before = out.len();
        replacement.expand(t, &groups, &mut out);
        quota.bytes(out.len() - before)?;
        last = e;
        if !all {
            break;
        }
    }
    out.push_str(&t[last..]);
    Ok(out)
}

/// Lucene's CJKWidthFilter over one term.
fn cjk_width(term: &str) -> String {
    let mut out = String::with_capacity(term.len());
    for c in term.chars() {
        let cp = c as u32;
        if (0xFF01..=0xFF5E).contains(&cp) {
            out.push(char::from_u32(cp - 0xFEE0).unwrap_or(c));
        } else if (0xFF65..=0xFF9F).contains(&cp) {
            let composed = match out.chars().last() {
                Some(prev) if cp == 0xFF9E || cp == 0xFF9F => KANA_COMPOSED
                    .iter()
                    .find(|(kana, mark, _)| *kana == prev as u32 && *mark == cp)
                    .and_then(|(_, _, to)| char::from_u32(*to)),
                _ => None,
            };
            match composed {
                Some(to) => {
                    out.pop();
                    out.push(to);
                }
                None => {
                    let i = (cp - 0xFF65) as usize;
                    out.push(char::from_u32(HALFWIDTH_KANA[i].1).unwrap_or(c));
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Stems the terms that are not keywords.
fn stem(stream: &mut TokenStream, f: impl Fn(&str) -> String) {
    for t in &mut stream.tokens {
        if !t.keyword {
            t.term = f(&t.term);
        }
    }
}

/// Lucene's ShingleFilter: at each position its token (if unigrams are kept), then the
/// shingles starting there, shortest first, stacked on it; positions left by removed
/// tokens are filled with the filler token.
fn shingles(stream: &mut TokenStream, o: &Shingle) -> Result<()> {
    let mut quota = Quota::default();
    // The window: real tokens and fillers, each with its absolute position.
    struct Item {
        token: AnalyzedToken,
        filler: bool,
    }
    let mut items: Vec<Item> = Vec::new();
    for t in std::mem::take(&mut stream.tokens) {
        // Each shingle must hold a real token: at most `max - 1` fillers per gap.
        let fillers = (t.position_increment.max(1) as usize - 1).min(o.max - 1);
        for _ in 0..fillers {
            let mut f = AnalyzedToken::word(o.filler_token.clone(), t.start_offset, t.start_offset);
            f.token_type = "shingle";
            items.push(Item { token: f, filler: true });
        }
        items.push(Item { token: t, filler: false });
    }
    let mut out = Vec::new();
    let any_shingle = items.len() >= o.min;
    let unigrams = o.output_unigrams || (o.output_unigrams_if_no_shingles && !any_shingle);
    let mut pending = 0u32; // positions since the last emitted token
    for i in 0..items.len() {
        pending += 1;
        if unigrams && !items[i].filler {
            let mut t = items[i].token.clone();
            t.position_increment = pending;
            pending = 0;
            out.push(t);
        }
        for n in o.min.max(2)..=o.max {
            if i + n > items.len() {
                break;
            }
            let parts = &items[i..i + n];
            if parts.iter().all(|p| p.filler) {
                continue;
            }
            let term = parts.iter().map(|p| p.token.term.as_str()).collect::<Vec<_>>().join(&o.token_separator);
            quota.token(term.len())?;
            let mut t = AnalyzedToken::word(term, parts[0].token.start_offset, parts[n - 1].token.end_offset);
            t.token_type = "shingle";
            // Lucene counts a shingle's length from its first shingle size when unigrams
            // are not output.
            t.position_length = if unigrams { n as u32 } else { (n + 1 - o.min.max(2)) as u32 };
            t.position_increment = pending;
            pending = 0;
            out.push(t);
        }
    }
    stream.final_position_increment += pending;
    stream.tokens = out;
    Ok(())
}

/// Lucene's FingerprintFilter: one token of the unique terms sorted by UTF-16 units, or
/// none when they would exceed `max` characters.
fn fingerprint(stream: &mut TokenStream, separator: char, max: usize) {
    let mut unique: Vec<String> = Vec::new();
    let mut size = 0usize;
    for t in &stream.tokens {
        if size > max {
            continue;
        }
        if !unique.contains(&t.term) {
            if !unique.is_empty() {
                size += 1;
            }
            size += utf16_len(&t.term);
            unique.push(t.term.clone());
        }
    }
    stream.tokens.clear();
    if unique.is_empty() || size > max {
        return;
    }
    unique.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
    let mut t = AnalyzedToken::word(unique.join(&separator.to_string()), 0, stream.final_offset);
    t.token_type = "fingerprint";
    stream.tokens.push(t);
}

fn map_terms(stream: &mut TokenStream, f: impl Fn(&str) -> String) {
    for t in &mut stream.tokens {
        t.term = f(&t.term);
    }
}

/// The first `units` UTF-16 units of `s` (a surrogate pair is not split: Lucene would
/// leave half of it, which no UTF-8 string can hold).
fn truncate_units(s: &str, units: usize) -> &str {
    let mut n = 0;
    for (i, c) in s.char_indices() {
        n += c.len_utf16();
        if n > units {
            return &s[..i];
        }
    }
    s
}

/// Lucene's ASCIIFoldingFilter: each folded term, then (with `preserve_original`) the
/// original stacked on it when folding changed it.
fn ascii_folding(stream: &mut TokenStream, preserve_original: bool) {
    let mut out = Vec::with_capacity(stream.tokens.len());
    for t in std::mem::take(&mut stream.tokens) {
        if t.term.is_ascii() {
            out.push(t);
            continue;
        }
        let mut folded = String::with_capacity(t.term.len());
        for c in t.term.chars() {
            match ASCII_FOLDING.binary_search_by_key(&(c as u32), |(cp, _)| *cp) {
                Ok(i) => folded.push_str(ASCII_FOLDING[i].1),
                Err(_) => folded.push(c),
            }
        }
        if preserve_original && folded != t.term {
            let mut original = t.clone();
            original.position_increment = 0;
            out.push(AnalyzedToken { term: folded, ..t });
            out.push(original);
        } else {
            out.push(AnalyzedToken { term: folded, ..t });
        }
    }
    stream.tokens = out;
}

/// ES's UniqueTokenFilter: a repeated term is dropped without passing on its position.
/// Lucene's KeywordRepeatFilter: the keyword copy comes first, the plain one is stacked
/// on it (increment 0), so a stemmer after it keeps the original next to the stem.
fn keyword_repeat(stream: &mut TokenStream) {
    let mut out = Vec::with_capacity(stream.tokens.len() * 2);
    for t in std::mem::take(&mut stream.tokens) {
        out.push(AnalyzedToken { keyword: true, ..t.clone() });
        out.push(AnalyzedToken { keyword: false, position_increment: 0, ..t });
    }
    stream.tokens = out;
}

fn unique(stream: &mut TokenStream, only_on_same_position: bool) {
    let mut seen = std::collections::HashSet::new();
    stream.tokens.retain(|t| {
        if only_on_same_position && t.position_increment > 0 {
            seen.clear();
        }
        let duplicate = if only_on_same_position {
            t.position_increment == 0 && seen.contains(&t.term)
        } else {
            seen.contains(&t.term)
        };
        seen.insert(t.term.clone());
        !duplicate
    });
}

/// Lucene's NGramTokenFilter and EdgeNGramTokenFilter (no original kept): grams keep the
/// token's offsets and type; the first gram of a token takes the position increments of
/// the token and of the tokens before it that gave no gram.
fn grams(stream: &mut TokenStream, min: usize, max: usize, edges_only: bool) -> Result<()> {
    let mut quota = Quota::default();
    let mut out = Vec::new();
    let mut pending = 0u32;
    for t in std::mem::take(&mut stream.tokens) {
        pending += t.position_increment;
        let cps: Vec<char> = t.term.chars().collect();
        let starts = if edges_only { 0..1.min(cps.len()) } else { 0..cps.len() };
        for start in starts {
            for size in min..=max {
                if start + size > cps.len() || size == 0 {
                    break;
                }
                let mut g = t.clone();
                g.term = cps[start..start + size].iter().collect();
                quota.token(g.term.len())?;
                g.position_increment = pending;
                pending = 0;
                out.push(g);
            }
        }
    }
    stream.final_position_increment += pending;
    stream.tokens = out;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(terms: &[&str]) -> TokenStream {
        let tokens = terms.iter().map(|t| AnalyzedToken::word(t.to_string(), 0, t.len())).collect();
        TokenStream { tokens, final_offset: 0, final_position_increment: 0 }
    }

    fn terms(s: &TokenStream) -> Vec<(&str, u32)> {
        s.tokens.iter().map(|t| (t.term.as_str(), t.position_increment)).collect()
    }

    #[test]
    fn stop_moves_positions() {
        let mut s = stream(&["the", "fox", "the"]);
        TokenFilter::Stop(WordSet::resolve(&["_english_"], false)).apply(&mut s).unwrap();
        assert_eq!(terms(&s), [("fox", 2)]);
        assert_eq!(s.final_position_increment, 1);
    }

    #[test]
    fn folding_keeps_the_original_after() {
        let mut s = stream(&["café", "tea"]);
        TokenFilter::AsciiFolding { preserve_original: true }.apply(&mut s).unwrap();
        assert_eq!(terms(&s), [("cafe", 1), ("café", 0), ("tea", 1)]);
    }

    #[test]
    fn grams_of_terms() {
        let mut s = stream(&["abc", "x"]);
        TokenFilter::NGram { min_gram: 2, max_gram: 3 }.apply(&mut s).unwrap();
        assert_eq!(terms(&s), [("ab", 1), ("abc", 0), ("bc", 0)]);
        assert_eq!(s.final_position_increment, 1);
        let mut s = stream(&["abc"]);
        TokenFilter::EdgeNGram { min_gram: 1, max_gram: 2, back: true }.apply(&mut s).unwrap();
        assert_eq!(terms(&s), [("c", 1), ("bc", 0)]);
    }

    #[test]
    fn keyword_repeat_stacks_a_kept_original_on_the_stem() {
        let mut s = stream(&["runs", "fox"]);
        TokenFilter::KeywordRepeat.apply(&mut s).unwrap();
        TokenFilter::PorterStem.apply(&mut s).unwrap();
        assert_eq!(terms(&s), [("runs", 1), ("run", 0), ("fox", 1), ("fox", 0)]);
        assert_eq!(s.tokens.iter().map(|t| t.keyword).collect::<Vec<_>>(), [true, false, true, false]);
        TokenFilter::Unique { only_on_same_position: true }.apply(&mut s).unwrap();
        assert_eq!(terms(&s), [("runs", 1), ("run", 0), ("fox", 1)]);
    }

    #[test]
    fn unique_and_digits() {
        let mut s = stream(&["a", "b", "a"]);
        TokenFilter::Unique { only_on_same_position: false }.apply(&mut s).unwrap();
        assert_eq!(terms(&s), [("a", 1), ("b", 1)]);
        let mut s = stream(&["٣4"]);
        TokenFilter::DecimalDigit.apply(&mut s).unwrap();
        assert_eq!(terms(&s), [("34", 1)]);
    }
}
