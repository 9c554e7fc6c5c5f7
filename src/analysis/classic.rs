//! The `classic` tokenizer and token filter: Lucene's ClassicTokenizer (the JFlex grammar
//! of Lucene's pre-3.1 StandardTokenizer) and ClassicFilter.
//!
//! The grammar's rules are regular expressions over character classes (letters, digits
//! and Thai of Unicode 3.0, Chinese and Japanese, a few punctuation marks). Each UTF-16
//! unit of the text is mapped to one ASCII byte naming its class, and each rule runs as a
//! regex over those bytes: at a token start the longest match of any rule wins, the
//! earlier rule on a tie, as JFlex scans. The class tables come from Lucene itself
//! (`tests/lucene/ClassicTables.java`).

use super::classic_tables::{ALPHANUM, DIGIT, LETTER};
use super::token::{AnalyzedToken, TokenStream};
use crate::error::{Error, Result};
use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input, MatchKind};
use std::sync::OnceLock;

/// The grammar's token types, in its rule order (which wins a tie).
const RULES: &[(&str, &str)] = &[
    ("<ALPHANUM>", r"[LTD]+"),
    ("<APOSTROPHE>", r"L+('L+)+"),
    ("<ACRONYM>", r"L\.(L\.)+"),
    ("<COMPANY>", r"L+[&@]L+"),
    ("<EMAIL>", r"[LTD]+([._\-][LTD]+)*@[LTD]+([.\-][LTD]+)+"),
    ("<HOST>", r"[LTD]+(\.[LTD]+)+"),
    ("<NUM>", r"A P H|H P A|A(P H P A)+|H(P A P H)+|A P H(P A P H)+|H P A(P H P A)+"),
    ("<CJ>", r"C"),
    ("<ACRONYM_DEP>", r"[LTD]+\.([LTD]+\.)+"),
];

/// Which rules need which byte somewhere in a run, so a run without it skips them.
fn needs(rule: usize) -> Option<u8> {
    match rule {
        1 => Some(b'\''),
        2 | 5 | 8 => Some(b'.'),
        4 => Some(b'@'),
        6 => Some(b'D'),
        _ => None,
    }
}

fn rules() -> &'static [Regex] {
    static RULES_COMPILED: OnceLock<Vec<Regex>> = OnceLock::new();
    RULES_COMPILED.get_or_init(|| {
        RULES
            .iter()
            .map(|(_, pattern)| {
                let pattern = pattern
                    .replace("A", "[LTD]+")
                    .replace("H", "[LD]*D[LD]*")
                    .replace("P", r"[_\-/.,]")
                    .replace(' ', "");
                Regex::builder()
                    .configure(Regex::config().match_kind(MatchKind::All))
                    .build(&pattern)
                    .unwrap_or_else(|e| panic!("classic grammar rule {pattern}: {e}"))
            })
            .collect()
    })
}

fn in_table(table: &[(u16, u16)], u: u16) -> bool {
    table.binary_search_by(|&(lo, hi)| super::chars::against_range(u32::from(lo), u32::from(hi), u32::from(u))).is_ok()
}

/// The class byte of one UTF-16 unit.
fn class(u: u16) -> u8 {
    if u < 0x80 {
        let b = u as u8;
        return match b {
            b'a'..=b'z' | b'A'..=b'Z' => b'L',
            b'0'..=b'9' => b'D',
            b'.' | b'-' | b'_' | b'/' | b',' | b'\'' | b'&' | b'@' => b,
            _ => b'x',
        };
    }
    let cj = matches!(u, 0x3100..=0x312F | 0x3040..=0x309F | 0x30A0..=0x30FF | 0x31F0..=0x31FF | 0x3300..=0x337F
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xFF65..=0xFF9F);
    if cj {
        b'C'
    } else if !in_table(ALPHANUM, u) {
        b'x'
    } else if in_table(LETTER, u) {
        b'L'
    } else if in_table(DIGIT, u) {
        b'D'
    } else {
        b'T'
    }
}

/// Whether a class continues a run in which a multi-character token may extend.
fn in_run(b: u8) -> bool {
    matches!(b, b'L' | b'T' | b'D' | b'.' | b'-' | b'_' | b'/' | b',' | b'\'' | b'&' | b'@')
}

/// Lucene's ClassicTokenizer: tokens longer than `max_len` units are skipped, their
/// positions passed on.
pub fn tokenize(text: &str, max_len: usize) -> Result<TokenStream> {
    let units: Vec<u16> = text.encode_utf16().collect();
    let classes: Vec<u8> = units.iter().map(|&u| class(u)).collect();
    // Safe: every byte is ASCII.
    let haystack = std::str::from_utf8(&classes).unwrap_or_default();
    let rules = rules();
    let mut budget = 64 * classes.len() + (256 << 20);
    let mut tokens = Vec::new();
    let mut skipped = 0u32;
    let (mut run_end, mut run_has) = (0usize, [false; 4]);
    let mut at = 0;
    while at < classes.len() {
        if !matches!(classes[at], b'L' | b'T' | b'D' | b'C') {
            at += 1;
            continue;
        }
        if at >= run_end {
            run_end = at + classes[at..].iter().position(|&b| !in_run(b)).unwrap_or(classes.len() - at);
            let run = &classes[at..run_end];
            run_has = [b'\'', b'.', b'@', b'D'].map(|b| run.contains(&b));
        }
        let end = if classes[at] == b'C' { at + 1 } else { run_end };
        let mut best: Option<(usize, usize)> = None;
        for (i, rule) in rules.iter().enumerate() {
            if let Some(b) = needs(i) {
                let k = [b'\'', b'.', b'@', b'D'].iter().position(|&x| x == b).unwrap_or(0);
                if !run_has[k] {
                    continue;
                }
            }
            let cost = end - at;
            if cost > budget {
                return Err(Error::illegal_argument(
                    "[classic] the text's runs of joined words need too much look-ahead to scan; metagate stops there",
                ));
            }
            budget -= cost;
            let input = Input::new(haystack).range(at..end).anchored(Anchored::Yes);
            if let Some(m) = rule.search(&input) {
                if m.end() > at && best.is_none_or(|(_, e)| m.end() > e) {
                    best = Some((i, m.end()));
                }
            }
        }
        let Some((rule, token_end)) = best else {
            at += 1;
            continue;
        };
        if token_end - at <= max_len {
            let mut term_units = &units[at..token_end];
            let mut token_type = RULES[rule].0;
            if token_type == "<ACRONYM_DEP>" {
                token_type = "<HOST>";
                term_units = &term_units[..term_units.len() - 1];
            }
            let mut t = AnalyzedToken::word(String::from_utf16_lossy(term_units), at, token_end);
            t.token_type = token_type;
            t.position_increment = skipped + 1;
            skipped = 0;
            tokens.push(t);
        } else {
            skipped += 1;
        }
        at = token_end;
    }
    Ok(TokenStream { tokens, final_offset: units.len(), final_position_increment: skipped })
}

/// Lucene's ClassicFilter: `'s` removed from the end of `<APOSTROPHE>` tokens, dots from
/// `<ACRONYM>` tokens.
pub fn filter(stream: &mut TokenStream) {
    for t in &mut stream.tokens {
        if t.token_type == "<APOSTROPHE>" {
            if let Some(stem) = t.term.strip_suffix("'s").or_else(|| t.term.strip_suffix("'S")) {
                t.term = stem.to_string();
            }
        } else if t.token_type == "<ACRONYM>" {
            t.term.retain(|c| c != '.');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<(String, &'static str)> {
        tokenize(text, 255).unwrap().tokens.into_iter().map(|t| (t.term, t.token_type)).collect()
    }

    #[test]
    fn grammar_types() {
        let got = tokens("O'Reilly's I.B.M. AT&T bob@example.com www.example.org 3.14 中 1.2.3. 1-2");
        let want = [
            ("O'Reilly's", "<APOSTROPHE>"),
            ("I.B.M.", "<ACRONYM>"),
            ("AT&T", "<COMPANY>"),
            ("bob@example.com", "<EMAIL>"),
            ("www.example.org", "<HOST>"),
            ("3.14", "<HOST>"),
            ("中", "<CJ>"),
            ("1.2.3", "<HOST>"),
            ("1-2", "<NUM>"),
        ];
        assert_eq!(got, want.map(|(a, b)| (a.to_string(), b)));
    }

    #[test]
    fn long_tokens_are_skipped() {
        let s = tokenize("ab abcdef cd", 3).unwrap();
        let got: Vec<_> = s.tokens.iter().map(|t| (t.term.as_str(), t.position_increment)).collect();
        assert_eq!(got, [("ab", 1), ("cd", 2)]);
    }

    #[test]
    fn filter_strips_possessives_and_dots() {
        let mut s = tokenize("O'Reilly's I.B.M.", 255).unwrap();
        filter(&mut s);
        let got: Vec<_> = s.tokens.iter().map(|t| t.term.as_str()).collect();
        assert_eq!(got, ["O'Reilly", "IBM"]);
    }
}
