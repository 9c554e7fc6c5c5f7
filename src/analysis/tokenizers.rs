//! Tokenizers, each Lucene's own algorithm as ES 6.8 configures it: offsets are UTF-16
//! units of the (char-filtered) text they read, corrected by the chain afterwards.

use super::chars::{self, utf16_len, Utf16Cursor};
use super::java_regex::JavaRegex;
use super::limits::Quota;
use super::token::{AnalyzedToken, TokenStream};
use crate::error::Result;
use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input, MatchKind};

/// Lucene's CharTokenizer buffer limit, the default `max_token_length`.
pub const DEFAULT_MAX_TOKEN_LENGTH: usize = 255;

/// A tokenizer of a chain.
#[derive(Debug, Clone)]
pub enum Tokenizer {
    /// `standard`: UAX#29 words, split at `max_token_length` characters.
    Standard { max_token_length: usize },
    /// `uax_url_email`: the `standard` tokenizer's words, URLs and email addresses (Lucene's
    /// UAX29URLEmailTokenizer), within `max_token_length` characters.
    UaxUrlEmail { max_token_length: usize },
    /// `classic`: Lucene's ClassicTokenizer grammar; longer tokens are skipped.
    Classic { max_token_length: usize },
    /// `whitespace`: runs of non-whitespace (Java's `isWhitespace`).
    Whitespace { max_token_length: usize },
    /// `letter`: runs of letters (Java's `isLetter`).
    Letter,
    /// `lowercase`: runs of letters, lowercased.
    Lowercase,
    /// `keyword`: the whole text as one token.
    Keyword,
    /// `char_group`: runs of characters that are none of the given ones or classes.
    CharGroup(TokenChars),
    /// `ngram` and `edge_ngram`: n-grams of runs of `token_chars` (all characters when
    /// none are given).
    NGram { min_gram: usize, max_gram: usize, token_chars: Option<TokenChars>, edges_only: bool },
    /// `pattern`: the text split at matches (`group` -1) or the matches' group.
    Pattern { regex: JavaRegex, group: i64 },
    /// `simple_pattern`: the longest matches of a Lucene regexp.
    SimplePattern(Regex),
    /// `simple_pattern_split`: the text between the longest matches of a Lucene regexp.
    SimplePatternSplit(Regex),
    /// `path_hierarchy`: each ancestor path of a delimited path.
    PathHierarchy { delimiter: char, replacement: char, skip: usize },
}

/// Character classes (ES's `token_chars` and `tokenize_on_chars`) and single characters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TokenChars {
    /// Letters (`Character.isLetter`).
    pub letter: bool,
    /// Decimal digits.
    pub digit: bool,
    /// `Character.isWhitespace`.
    pub whitespace: bool,
    /// Punctuation categories.
    pub punctuation: bool,
    /// Symbol categories.
    pub symbol: bool,
    /// Single characters.
    pub chars: Vec<char>,
}

impl TokenChars {
    /// Whether `c` is one of the classes or characters.
    pub fn contains(&self, c: char) -> bool {
        (self.letter && chars::is_letter(c))
            || (self.digit && chars::is_digit(c))
            || (self.whitespace && chars::is_whitespace(c))
            || (self.punctuation && chars::is_punctuation(c))
            || (self.symbol && chars::is_symbol(c))
            || self.chars.contains(&c)
    }
}

impl Tokenizer {
    /// The tokens of `text` (offsets not yet corrected through char filters).
    pub fn tokenize(&self, text: &str) -> Result<TokenStream> {
        let tokens = match self {
            Tokenizer::Classic { max_token_length } => return super::classic::tokenize(text, *max_token_length),
            Tokenizer::Standard { max_token_length } => standard(text, *max_token_length),
            Tokenizer::UaxUrlEmail { max_token_length } => super::uax_url_email::tokenize(text, *max_token_length)?,
            Tokenizer::Whitespace { max_token_length } => {
                char_tokens(text, *max_token_length, |c| !chars::is_whitespace(c), |c| c)
            }
            Tokenizer::Letter => char_tokens(text, DEFAULT_MAX_TOKEN_LENGTH, chars::is_letter, |c| c),
            Tokenizer::Lowercase => char_tokens(text, DEFAULT_MAX_TOKEN_LENGTH, chars::is_letter, chars::to_lower),
            Tokenizer::Keyword => vec![AnalyzedToken::word(text.to_string(), 0, utf16_len(text))],
            Tokenizer::CharGroup(split_on) => {
                char_tokens(text, DEFAULT_MAX_TOKEN_LENGTH, |c| !split_on.contains(c), |c| c)
            }
            Tokenizer::NGram { min_gram, max_gram, token_chars, edges_only } => {
                ngrams(text, *min_gram, *max_gram, token_chars.as_ref(), *edges_only)?
            }
            Tokenizer::Pattern { regex, group } => pattern(text, regex, *group),
            Tokenizer::SimplePattern(regex) => simple_pattern(text, regex, false),
            Tokenizer::SimplePatternSplit(regex) => simple_pattern(text, regex, true),
            Tokenizer::PathHierarchy { delimiter, replacement, skip } => {
                path_hierarchy(text, *delimiter, *replacement, *skip)?
            }
        };
        Ok(TokenStream { tokens, final_offset: utf16_len(text), final_position_increment: 0 })
    }
}

/// Lucene's CharTokenizer: maximal runs of token characters, each normalized, cut when
/// the term reaches `max_len` UTF-16 units.
fn char_tokens(
    text: &str,
    max_len: usize,
    is_token_char: impl Fn(char) -> bool,
    normalize: impl Fn(char) -> char,
) -> Vec<AnalyzedToken> {
    let mut out = Vec::new();
    let mut term = String::new();
    let (mut start, mut end, mut len) = (0usize, 0usize, 0usize);
    let mut offset = 0usize;
    for c in text.chars() {
        let units = c.len_utf16();
        if is_token_char(c) {
            if len == 0 {
                start = offset;
                end = start;
            }
            end += units;
            let n = normalize(c);
            term.push(n);
            len += n.len_utf16();
            if len >= max_len {
                out.push(AnalyzedToken::word(std::mem::take(&mut term), start, end));
                len = 0;
            }
        } else if len > 0 {
            out.push(AnalyzedToken::word(std::mem::take(&mut term), start, end));
            len = 0;
        }
        offset += units;
    }
    if len > 0 {
        out.push(AnalyzedToken::word(term, start, end));
    }
    out
}

/// Lucene's StandardTokenizer: the UAX#29 words it keeps (see [`super::standard_tokens`]),
/// typed as its grammar types them. A word longer than `max_len` characters is cut as
/// Lucene's scanner cuts it: its buffer then holds `max_len` characters from the word's
/// start (UTF-16 units), the longest token in them is emitted, and scanning starts
/// afresh after it.
fn standard(text: &str, max_len: usize) -> Vec<AnalyzedToken> {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut from = 0;
    loop {
        let mut restart = None;
        super::standard_tokens(&text[from..], |at, word| {
            if restart.is_some() {
                return;
            }
            let start = from + at;
            if word.len() <= max_len || utf16_len(word) <= max_len {
                spans.push((start, start + word.len()));
                return;
            }
            // The buffer holds `max_len` UTF-16 units; a character that does not fit whole
            // stays out.
            let mut window_end = start;
            let mut units = 0;
            for c in text[start..].chars() {
                units += c.len_utf16();
                if units > max_len {
                    break;
                }
                window_end += c.len_utf8();
            }
            if window_end == start {
                // Not even one character fits: Lucene's scanner stops there.
                restart = Some(text.len());
                return;
            }
            let mut first = None;
            super::standard_tokens(&text[start..window_end], |wat, w| {
                if first.is_none() {
                    first = Some((start + wat, start + wat + w.len()));
                }
            });
            match first {
                Some((s, e)) => {
                    spans.push((s, e));
                    restart = Some(e);
                }
                None => restart = Some(window_end),
            }
        });
        match restart {
            Some(p) if p < text.len() => from = p,
            _ => break,
        }
    }
    let mut cursor = Utf16Cursor::new(text);
    spans
        .into_iter()
        .map(|(s, e)| {
            let (us, ue) = (cursor.unit_of(s), cursor.unit_of(e));
            let mut t = AnalyzedToken::word(text[s..e].to_string(), us, ue);
            t.token_type = standard_type(&text[s..e]);
            t
        })
        .collect()
}

/// The type StandardTokenizer's grammar gives a token.
pub(super) fn standard_type(token: &str) -> &'static str {
    if token.is_ascii() {
        // An ASCII token is a word if it has a letter, else a number.
        return if token.bytes().any(|b| b.is_ascii_alphabetic()) { "<ALPHANUM>" } else { "<NUM>" };
    }
    let first = token.chars().next().unwrap_or(' ');
    if super::is_complex_context(token) {
        return "<SOUTHEAST_ASIAN>";
    }
    let han = |c: char| {
        matches!(c as u32, 0x2E80..=0x2FDF | 0x3005 | 0x3007 | 0x3021..=0x3029 | 0x3038..=0x303B | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3134F)
    };
    let hiragana = |c: char| matches!(c as u32, 0x3041..=0x309F | 0x1B001..=0x1B11F);
    let katakana = |c: char| matches!(c as u32, 0x30A0..=0x30FF | 0x31F0..=0x31FF | 0x32D0..=0x32FE | 0x3300..=0x3357 | 0xFF66..=0xFF9F | 0x1B000);
    let hangul = |c: char| matches!(c as u32, 0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xAC00..=0xD7AF | 0xD7B0..=0xD7FF | 0xFFA0..=0xFFDC);
    let marks = |c: char| matches!(chars::java_type(c), 6..=8 | 16) || c == '\u{200D}';
    // One ideograph or hiragana, with the marks and joiners that extend it.
    let single = token.chars().skip(1).all(marks);
    if han(first) && single {
        return "<IDEOGRAPHIC>";
    }
    if hiragana(first) && single {
        return "<HIRAGANA>";
    }
    if token.chars().all(|c| katakana(c) || marks(c)) && katakana(first) {
        return "<KATAKANA>";
    }
    if token.chars().all(|c| hangul(c) || marks(c)) && hangul(first) {
        return "<HANGUL>";
    }
    let lettered = token.chars().any(|c| c.is_alphabetic() && !marks(c));
    // A keycap sequence alone is an emoji; digits after it make it a number (the longer
    // match of Lucene's numeric rule).
    let keycap = matches!(first, '0'..='9' | '#' | '*')
        && token.contains('\u{20E3}')
        && token.chars().skip(1).all(|c| marks(c) || c == '\u{FE0F}');
    if !lettered && token.chars().any(|c| c.is_numeric()) && !keycap {
        return "<NUM>";
    }
    if !lettered {
        return "<EMOJI>";
    }
    "<ALPHANUM>"
}

/// Lucene's NGramTokenizer (and EdgeNGramTokenizer with `edges_only`), over code points.
fn ngrams(
    text: &str,
    min: usize,
    max: usize,
    token_chars: Option<&TokenChars>,
    edges_only: bool,
) -> Result<Vec<AnalyzedToken>> {
    let mut quota = Quota::default();
    let cps: Vec<char> = text.chars().collect();
    // Where each code point starts, in bytes and in UTF-16 units (one past the end
    // last), so a gram is one slice of the text and its offsets two look-ups.
    let mut bytes = Vec::with_capacity(cps.len() + 1);
    let mut units = Vec::with_capacity(cps.len() + 1);
    let (mut b, mut u) = (0usize, 0usize);
    for &c in &cps {
        bytes.push(b);
        units.push(u);
        b += c.len_utf8();
        u += c.len_utf16();
    }
    bytes.push(b);
    units.push(u);
    let is_token = |c: char| token_chars.is_none_or(|t| t.contains(c));
    let mut out = Vec::new();
    let end = cps.len() as isize;
    let (mut start, mut gram) = (0isize, min as isize);
    let (mut last_non_token, mut last_checked) = (-1isize, -1isize);
    if min == 0 {
        return Ok(out);
    }
    loop {
        if gram > max as isize || start + gram > end {
            if start + 1 + min as isize > end {
                return Ok(out);
            }
            start += 1;
            gram = min as isize;
        }
        let term_end = start + gram - 1;
        if term_end > last_checked {
            let mut i = term_end;
            while i > last_checked {
                if !is_token(cps[i as usize]) {
                    last_non_token = i;
                    break;
                }
                i -= 1;
            }
            last_checked = term_end;
        }
        let contains_non_token = last_non_token >= start && last_non_token < start + gram;
        let not_at_edge = edges_only && last_non_token != start - 1;
        if contains_non_token || not_at_edge {
            start += 1;
            gram = min as isize;
            continue;
        }
        let (from, to) = (start as usize, (start + gram) as usize);
        let term = text[bytes[from]..bytes[to]].to_string();
        quota.token(term.len())?;
        out.push(AnalyzedToken::word(term, units[from], units[to]));
        gram += 1;
    }
}

/// Lucene's PatternTokenizer.
fn pattern(text: &str, regex: &JavaRegex, group: i64) -> Vec<AnalyzedToken> {
    let mut out = Vec::new();
    let mut cursor = Utf16Cursor::new(text);
    let mut emit = |s: usize, e: usize, out: &mut Vec<AnalyzedToken>| {
        let (us, ue) = (cursor.unit_of(s), cursor.unit_of(e));
        out.push(AnalyzedToken::word(text[s..e].to_string(), us, ue));
    };
    if group >= 0 {
        for groups in regex.captures_iter(text) {
            if let Some(Some((s, e))) = groups.get(group as usize) {
                if s != e {
                    emit(*s, *e, &mut out);
                }
            }
        }
        return out;
    }
    let mut index = 0;
    for groups in regex.captures_iter(text) {
        let (s, e) = groups[0].unwrap_or((0, 0));
        if s > index {
            emit(index, s, &mut out);
        }
        index = e;
    }
    if index < text.len() {
        emit(index, text.len(), &mut out);
    }
    out
}

/// Compiles a Lucene regexp (`simple_pattern`'s syntax) for longest-match scanning.
pub fn lucene_regexp(pattern: &str) -> std::result::Result<Regex, String> {
    let refuse =
        |what: char| Err(format!("the Lucene regexp operator [{what}] in [{pattern}] is not supported by metagate"));
    let mut out = String::new();
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(n) => out.push_str(&format!("\\x{{{:X}}}", n as u32)),
                None => return Err(format!("invalid pattern [{pattern}]")),
            },
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                let rest = chars.as_str();
                if let Some(stripped) = rest.strip_prefix('^') {
                    out.push('^');
                    chars = stripped.chars();
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '-' if in_class => out.push('-'),
            c if in_class => out.push_str(&format!("\\x{{{:X}}}", c as u32)),
            '.' => out.push_str("(?s:.)"),
            '@' => out.push_str("(?s:.*)"),
            '"' => {
                for n in chars.by_ref() {
                    if n == '"' {
                        break;
                    }
                    out.push_str(&format!("\\x{{{:X}}}", n as u32));
                }
            }
            '&' | '~' | '<' | '>' | '#' => return refuse(c),
            '(' | ')' | '|' | '*' | '+' | '?' | '{' | '}' | ',' => out.push(c),
            c if c.is_ascii_digit() => out.push(c),
            c => out.push_str(&format!("\\x{{{:X}}}", c as u32)),
        }
    }
    Regex::builder()
        .configure(Regex::config().match_kind(MatchKind::All))
        .build(&out)
        .map_err(|e| format!("invalid pattern [{pattern}]: {e}"))
}

/// Lucene's SimplePatternTokenizer (the longest non-empty match at each position, else
/// one character skipped) and SimplePatternSplitTokenizer (the text between them).
fn simple_pattern(text: &str, regex: &Regex, split: bool) -> Vec<AnalyzedToken> {
    let mut out = Vec::new();
    let mut cursor = Utf16Cursor::new(text);
    let mut at = 0;
    let mut piece_start = 0;
    while at < text.len() {
        let found = regex.search(&Input::new(text).range(at..).anchored(Anchored::Yes)).filter(|m| m.end() > at);
        match found {
            Some(m) => {
                if split {
                    if piece_start < at {
                        let (s, e) = (cursor.unit_of(piece_start), cursor.unit_of(at));
                        out.push(AnalyzedToken::word(text[piece_start..at].to_string(), s, e));
                    }
                    piece_start = m.end();
                } else {
                    let (s, e) = (cursor.unit_of(at), cursor.unit_of(m.end()));
                    out.push(AnalyzedToken::word(text[at..m.end()].to_string(), s, e));
                }
                at = m.end();
            }
            None => at += text[at..].chars().next().map_or(1, char::len_utf8),
        }
    }
    if split && piece_start < text.len() {
        let (s, e) = (cursor.unit_of(piece_start), cursor.unit_of(text.len()));
        out.push(AnalyzedToken::word(text[piece_start..].to_string(), s, e));
    }
    out
}

/// Lucene's PathHierarchyTokenizer: `/a/b/c` gives `/a`, `/a/b`, `/a/b/c`, stacked at one
/// position, all starting after the `skip` first components.
fn path_hierarchy(text: &str, delimiter: char, replacement: char, skip: usize) -> Result<Vec<AnalyzedToken>> {
    let mut quota = Quota::default();
    let mut out = Vec::new();
    let mut chars = text.chars();
    let mut result = String::new(); // the previous token
    let mut result_units = 0usize;
    let (mut skipped, mut start_position) = (0usize, 0usize);
    let mut end_delimiter = false;
    loop {
        let mut term = result.clone();
        let mut length = 0usize;
        let increment = if result.is_empty() { 1 } else { 0 };
        let mut added = false;
        if end_delimiter {
            term.push(replacement);
            length += replacement.len_utf16();
            end_delimiter = false;
            added = true;
        }
        let mut finished = false;
        loop {
            let Some(c) = chars.next() else {
                finished = true;
                break;
            };
            if !added {
                added = true;
                skipped += 1;
                if skipped > skip {
                    term.push(if c == delimiter { replacement } else { c });
                    length += c.len_utf16();
                } else {
                    start_position += c.len_utf16();
                }
            } else if c == delimiter {
                if skipped > skip {
                    end_delimiter = true;
                    break;
                }
                skipped += 1;
                if skipped > skip {
                    term.push(replacement);
                    length += replacement.len_utf16();
                } else {
                    start_position += c.len_utf16();
                }
            } else if skipped > skip {
                term.push(c);
                length += c.len_utf16();
            } else {
                start_position += c.len_utf16();
            }
        }
        if finished && (skipped <= skip || !added) {
            return Ok(out);
        }
        length += result_units;
        quota.token(term.len())?;
        let mut t = AnalyzedToken::word(term.clone(), start_position, start_position + length);
        t.position_increment = increment;
        out.push(t);
        result = term;
        result_units = length;
        if finished {
            return Ok(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(t: &Tokenizer, s: &str) -> Vec<String> {
        t.tokenize(s).unwrap().tokens.into_iter().map(|t| t.term).collect()
    }

    #[test]
    fn char_tokenizers() {
        assert_eq!(terms(&Tokenizer::Whitespace { max_token_length: 255 }, " a-b\u{A0}c  d "), ["a-b\u{A0}c", "d"]);
        assert_eq!(terms(&Tokenizer::Lowercase, "Ünder-SCORE 42x"), ["ünder", "score", "x"]);
        assert_eq!(terms(&Tokenizer::Whitespace { max_token_length: 3 }, "abcdefg"), ["abc", "def", "g"]);
    }

    #[test]
    fn ngram_and_edge_ngram() {
        let t = Tokenizer::NGram { min_gram: 1, max_gram: 2, token_chars: None, edges_only: false };
        assert_eq!(terms(&t, "abc"), ["a", "ab", "b", "bc", "c"]);
        let letters = TokenChars { letter: true, ..Default::default() };
        let e = Tokenizer::NGram { min_gram: 2, max_gram: 3, token_chars: Some(letters), edges_only: true };
        assert_eq!(terms(&e, "Quick fox"), ["Qu", "Qui", "fo", "fox"]);
    }

    #[test]
    fn path_hierarchy_stacks_ancestors() {
        let t = Tokenizer::PathHierarchy { delimiter: '/', replacement: '/', skip: 0 };
        let s = t.tokenize("/a/bc/d").unwrap();
        assert_eq!(s.tokens.iter().map(|t| t.term.as_str()).collect::<Vec<_>>(), ["/a", "/a/bc", "/a/bc/d"]);
        assert_eq!(s.tokens.iter().map(|t| t.position_increment).collect::<Vec<_>>(), [1, 0, 0]);
        assert_eq!(s.tokens[2].end_offset, 7);
    }

    #[test]
    fn patterns() {
        let p = Tokenizer::Pattern { regex: JavaRegex::new("\\W+", "").unwrap(), group: -1 };
        assert_eq!(terms(&p, "foo,bar  baz!"), ["foo", "bar", "baz"]);
        let s = Tokenizer::SimplePattern(lucene_regexp("[0-9]+|ab|abc").unwrap());
        assert_eq!(terms(&s, "x12abcd3"), ["12", "abc", "3"]);
        let s = Tokenizer::SimplePatternSplit(lucene_regexp("-+").unwrap());
        assert_eq!(terms(&s, "a--b-c-"), ["a", "b", "c"]);
    }
}
