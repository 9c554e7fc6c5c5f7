//! Lucene's UAX29URLEmailTokenizer (ES's `uax_url_email`): the standard tokenizer's UAX#29
//! words, plus URLs and email addresses as single tokens typed `<URL>` and `<EMAIL>`.
//!
//! Lucene's scanner is a JFlex grammar: at each position the rule with the longest match
//! wins (a trailing-context rule counts its context), the earlier rule on a tie. Its rules,
//! in order: a URL (RFC 3986 shapes: `http(s)`, `ftp` and `file` schemes, or a bare host
//! with a port, path, query or fragment); a bare host followed by a character that is not
//! `-` or a word character; a bare host followed by one that is, which only makes the
//! scanner look again at the same place without the bare-host rules (LUCENE-5391, split by
//! TLD prefixes as LUCENE-8278 does, see [`super::url_tlds`]); a bare host at the end;
//! `mailto` before `:` and an address, a word; an address; the standard tokenizer's words;
//! any other character, skipped. A bare host ends in a top-level domain of Lucene's list.
//!
//! The scanner sees at most `max_token_length` UTF-16 units from where a token starts
//! (Lucene's buffer), which bounds every match; hosts, URLs and addresses are ASCII, so
//! the expressions read only the ASCII run there. A look-ahead budget stops inputs that
//! would make a huge `max_token_length` scan quadratically.

use super::chars::{self, utf16_len, Utf16Cursor};
use super::token::AnalyzedToken;
use super::url_tlds::{TLDS, TLD_PREFIXES_1, TLD_PREFIXES_2};
use crate::error::{Error, Result};
use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input, MatchKind};
use std::sync::OnceLock;

/// The grammar's expressions, each matched anchored and longest.
struct Grammar {
    url: Regex,
    /// A bare host (any TLD).
    host: Regex,
    /// A bare host (any TLD) and one ASCII character that is not `-` or a word character.
    host_then_other: Regex,
    /// Bare hosts by TLD group, alone and followed by one ASCII `-` or word character.
    hosts: [Regex; 3],
    hosts_then_word: [Regex; 3],
    /// `mailto:` and an address.
    mailto: Regex,
    email: Regex,
}

/// A case-insensitive alternation of TLDs, each with the dot before it and an optional
/// root dot after it.
fn tld_pattern(tlds: &[&str]) -> String {
    let alternatives: Vec<String> =
        tlds.iter()
            .map(|tld| {
                tld.chars()
                    .map(|c| {
                        if c.is_ascii_alphabetic() {
                            format!("[{}{}]", c, c.to_ascii_uppercase())
                        } else {
                            c.to_string()
                        }
                    })
                    .collect()
            })
            .collect();
    format!(r"\.(?:{})\.?", alternatives.join("|"))
}

fn build(pattern: &str) -> Regex {
    Regex::builder()
        .configure(Regex::config().match_kind(MatchKind::All))
        .build(pattern)
        .expect("the uax_url_email grammar compiles")
}

fn grammar() -> &'static Grammar {
    static GRAMMAR: OnceLock<Grammar> = OnceLock::new();
    GRAMMAR.get_or_init(|| {
        let label = "[A-Za-z0-9](?:[-A-Za-z0-9]*[A-Za-z0-9])?";
        let labels = format!(r"{label}(?:\.{label})*");
        let tld = [tld_pattern(TLDS), tld_pattern(TLD_PREFIXES_1), tld_pattern(TLD_PREFIXES_2)];
        let domain = |t: &str| format!("{labels}(?:{t})");
        let any_tld = format!("{}|{}|{}", tld[0], tld[1], tld[2]);
        let strict_domain = domain(&any_tld);
        let octet = "(?:0{0,2}[0-9]|0?[1-9][0-9]|1[0-9][0-9]|2(?:[0-4][0-9]|5[0-5]))";
        let ipv4 = format!(r"{octet}(?:\.{octet}){{3}}");
        let h = "[0-9A-Fa-f]{1,4}";
        let ls32 = format!("(?:{ipv4}|{h}:{h})");
        let ipv6 = [
            format!("(?:{h}:){{6}}{ls32}"),
            format!("::(?:{h}:){{5}}{ls32}"),
            format!("(?:{h})?::(?:{h}:){{4}}{ls32}"),
            format!("(?:(?:{h}:){{0,1}}{h})?::(?:{h}:){{3}}{ls32}"),
            format!("(?:(?:{h}:){{0,2}}{h})?::(?:{h}:){{2}}{ls32}"),
            format!("(?:(?:{h}:){{0,3}}{h})?::{h}:{ls32}"),
            format!("(?:(?:{h}:){{0,4}}{h})?::{ls32}"),
            format!("(?:(?:{h}:){{0,5}}{h})?::{h}"),
            format!("(?:(?:{h}:){{0,6}}{h})?::"),
        ]
        .join("|");
        let host_strict = |d: &str| format!(r"(?:\[(?:{ipv6})\]|{ipv4}|{d})");
        let host_loose = format!(r"(?:\[(?:{ipv6})\]|{ipv4}|{labels})");
        let unreserved = "[-._~A-Za-z0-9]";
        let pct = "%[0-9A-Fa-f]{2}";
        let sub_delims = "[!$&'()*+,;=]";
        let login_seg = format!("(?:{unreserved}|{pct}|{sub_delims})*");
        let login = format!("(?:{login_seg}(?::{login_seg})?@)");
        let query = format!(r"(?:\?(?:{unreserved}|{pct}|{sub_delims}|[:@/?])*)");
        let fragment = format!("(?:#(?:{unreserved}|{pct}|{sub_delims}|[:@/?])*)");
        let port = "(?::[0-9]{1,5})";
        let path = format!("(?:/(?:{unreserved}|{pct}|[;:@&=])*)+");
        let http_full = format!("[hH][tT][tT][pP][sS]?://{login}?{host_loose}{port}?(?:{path})?{query}?{fragment}?");
        let after_bare_host = [
            format!("{port}(?:{path})?{query}?{fragment}?"),
            format!("{port}?(?:{path}){query}?{fragment}?"),
            format!("{port}?(?:{path})?{query}{fragment}?"),
            format!("{port}?(?:{path})?{query}?{fragment}"),
        ]
        .join("|");
        let http_bare = format!("{}(?:{after_bare_host})", host_strict(&strict_domain));
        let file_seg = format!("(?:{unreserved}|{pct}|[?:@&=])*");
        let file_path = format!("/{file_seg}(?:/{file_seg})*");
        let ftp =
            format!("[fF][tT][pP]://{login}?{host_loose}{port}?{file_path}(?:;[tT][yY][pP][eE]=[aAiIdD])?{fragment}?");
        let file = format!("[fF][iI][lL][eE]://{host_loose}?{file_path}{fragment}?");
        let url = format!("(?:{http_full})|(?:{http_bare})|(?:{ftp})|(?:{file})");
        let quoted = r#""(?:[\x01-\x08\x0B\x0C\x0E-\x21\x23-\x5B\x5D-\x7E]|\\[\x00-\x7F])*""#;
        // `+-/` in Lucene's class is a range: `+ , - . /`.
        let atom = r"[A-Za-z0-9!#$%&'*+,\-./=?^_`{|}~]";
        let local = format!(r"(?:{atom}+|{quoted})(?:\.(?:{atom}+|{quoted}))*");
        let literal = r"(?:[\x01-\x08\x0B\x0C\x0E-\x5A\x5E-\x7F]|\\[\x00-\x7F])";
        let bracketed = format!(r"\[(?:{literal}*|{ipv4}|[iI][pP][vV]6:(?:{ipv6}))\]");
        let email = format!("{local}@(?:{strict_domain}|{bracketed})");
        let word_char = "[-0-9A-Za-z_]";
        let other_char = r"[\x00-\x2C\x2E-\x2F\x3A-\x40\x5B-\x5E\x60\x7B-\x7F]";
        let hosts = [0, 1, 2].map(|i| host_strict(&domain(&tld[i])));
        Grammar {
            url: build(&url),
            host: build(&host_strict(&strict_domain)),
            host_then_other: build(&format!("{}{other_char}", host_strict(&strict_domain))),
            hosts_then_word: [0, 1, 2].map(|i| build(&format!("{}{word_char}", hosts[i]))),
            hosts: hosts.map(|h| build(&h)),
            mailto: build(&format!("[mM][aA][iI][lL][tT][oO]:(?:{email})")),
            email: build(&email),
        }
    })
}

/// JFlex's `\w`, the class of the bare-host rules' trailing character: alphabetic, marks,
/// decimal digits and connector punctuation.
fn is_word_char(c: char) -> bool {
    c.is_alphabetic() || matches!(chars::java_type(c), 6..=9 | 23)
}

/// The longest anchored match of `regex` at `at` in `haystack`: its length.
fn longest(regex: &Regex, haystack: &str, at: usize) -> Option<usize> {
    regex.search(&Input::new(haystack).range(at..).anchored(Anchored::Yes)).map(|m| m.end() - at)
}

/// What the scanner does at a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    /// Emits a token of this many bytes and type.
    Token(usize, &'static str),
    /// A bare host followed by a word character: scan the same place again without the
    /// bare-host rules.
    AvoidBadUrl,
    /// Skips one character.
    Skip,
}

/// Look-ahead work allowed per byte of text, and in all: enough for any text at the
/// default `max_token_length` (at most 255 units read per position).
const BUDGET_PER_BYTE: usize = 256;
const BUDGET_BASE: usize = 16 << 20;

/// Where a byte next occurs at or after a position, searched again only once the
/// position passes it: one pass over the text for all positions.
struct NextByte {
    byte: u8,
    found: Option<usize>,
}

impl NextByte {
    fn new(byte: u8) -> Self {
        NextByte { byte, found: None }
    }

    /// Whether the byte occurs in `bytes[from..end]`.
    fn within(&mut self, bytes: &[u8], from: usize, end: usize) -> bool {
        let next = match self.found {
            Some(p) if p >= from => p,
            _ => {
                let p = from + bytes[from..].iter().position(|&b| b == self.byte).unwrap_or(bytes.len() - from);
                self.found = Some(p);
                p
            }
        };
        next < end
    }
}

/// What the ASCII run where the scanner stands holds: the bytes some rules need.
struct RunHolds {
    at_sign: bool,
    dot: bool,
    colon: bool,
}

/// The tokens of `text`, as Lucene's UAX29URLEmailTokenizer with `max_len` makes them.
pub(super) fn tokenize(text: &str, max_len: usize) -> Result<Vec<AnalyzedToken>> {
    let grammar = grammar();
    let bytes = text.as_bytes();
    let mut budget = BUDGET_PER_BYTE.saturating_mul(text.len()).saturating_add(BUDGET_BASE);
    let mut spans: Vec<(usize, usize, &'static str)> = Vec::new();
    let mut avoid_bad_url = false;
    // The end of the ASCII run at each position is found once per run.
    let mut ascii_end = 0;
    let (mut at_signs, mut dots, mut colons) = (NextByte::new(b'@'), NextByte::new(b'.'), NextByte::new(b':'));
    // Lucene's buffer: `max_len` UTF-16 units from where the scanner stands, a character
    // that does not fit whole left out; it slides along with the scanner.
    let (mut window_end, mut window_units) = (0, 0);
    let mut at = 0;
    while at < text.len() {
        while let Some(c) = text[window_end..].chars().next() {
            if window_units + c.len_utf16() > max_len {
                break;
            }
            window_units += c.len_utf16();
            window_end += c.len_utf8();
        }
        if window_end == at {
            // Not even one character fits: Lucene's scanner stops there.
            break;
        }
        if ascii_end < at {
            ascii_end = at;
        }
        if ascii_end == at {
            ascii_end = at + bytes[at..].iter().position(|b| !b.is_ascii()).unwrap_or(bytes.len() - at);
        }
        let run_end = ascii_end.min(window_end);
        let holds = RunHolds {
            at_sign: at_signs.within(bytes, at, run_end),
            dot: dots.within(bytes, at, run_end),
            colon: colons.within(bytes, at, run_end),
        };
        let action = scan(grammar, &text[..window_end], at, run_end, avoid_bad_url, &holds, &mut budget)?;
        let step = match action {
            Action::AvoidBadUrl => {
                avoid_bad_url = true;
                0
            }
            Action::Skip => text[at..].chars().next().map_or(1, char::len_utf8),
            Action::Token(len, token_type) => {
                spans.push((at, at + len, token_type));
                avoid_bad_url = false;
                len
            }
        };
        window_units -= utf16_len(&text[at..at + step]);
        at += step;
    }
    let mut cursor = Utf16Cursor::new(text);
    Ok(spans
        .into_iter()
        .map(|(s, e, token_type)| {
            let (us, ue) = (cursor.unit_of(s), cursor.unit_of(e));
            let mut t = AnalyzedToken::word(text[s..e].to_string(), us, ue);
            t.token_type = token_type;
            t
        })
        .collect())
}

/// The rule that wins at `at` of `window` (the text the scanner sees), whose ASCII run
/// ends at `run_end` and `holds` what it holds.
fn scan(
    grammar: &Grammar,
    window: &str,
    at: usize,
    run_end: usize,
    avoid_bad_url: bool,
    holds: &RunHolds,
    budget: &mut usize,
) -> Result<Action> {
    let first = window[at..].chars().next().unwrap_or(' ');
    // The winner so far: the length its rule matched (trailing context included) and its
    // action; a later rule takes over only with a longer match.
    let mut best: Option<(usize, Action)> = None;
    let mut offer = |len: Option<usize>, action: Action| {
        if let Some(len) = len.filter(|&l| l > 0) {
            if best.is_none_or(|(b, _)| len > b) {
                best = Some((len, action));
            }
        }
    };
    let ascii = &window[..run_end];
    // A URL has a `.` (a host's), a `:` (a scheme's) or an IPv6 host; a bare host a `.`
    // or an IPv6 host; an address an `@`.
    let may_be_url = first.is_ascii_alphanumeric() && (holds.dot || holds.colon) || first == '[';
    let may_be_host = first.is_ascii_alphanumeric() && holds.dot || first == '[';
    let starts_email = holds.at_sign && (first.is_ascii_alphanumeric() || "!#$%&'*+,-./=?^_`{|}~\"".contains(first));
    if may_be_url || starts_email {
        let work = run_end - at;
        if work > *budget {
            return Err(Error::illegal_argument(
                "[uax_url_email] the text needs too much look-ahead to scan with this [max_token_length]; metagate stops there",
            ));
        }
        *budget -= work;
    }
    // The character after the ASCII run, when the scanner sees one.
    let after_run = window[run_end..].chars().next();
    if may_be_url {
        if let Some(len) = longest(&grammar.url, ascii, at) {
            offer(Some(len), Action::Token(len, "<URL>"));
        }
    }
    // Every bare-host rule matches a host and at most one character more: none when no
    // host starts here, and none past the longest host and a character.
    let host = if may_be_host { longest(&grammar.host, ascii, at) } else { None };
    if let Some(host) = host {
        let ascii = &ascii[..run_end.min(at + host + 1)];
        let whole_run_host = |regex: &Regex| longest(regex, ascii, at) == Some(run_end - at);
        // A bare host and a character after it that is not `-` or a word character: ASCII,
        // or the non-ASCII one after the run (then the host is the whole run).
        if let Some(len) = longest(&grammar.host_then_other, ascii, at) {
            offer(Some(len), Action::Token(len - 1, "<URL>"));
        }
        if let Some(c) = after_run.filter(|&c| !is_word_char(c)) {
            if grammar.hosts.iter().any(whole_run_host) {
                offer(Some(run_end - at + c.len_utf8()), Action::Token(run_end - at, "<URL>"));
            }
        }
        if !avoid_bad_url {
            for group in 0..3 {
                let mut then_word = longest(&grammar.hosts_then_word[group], ascii, at);
                if let Some(c) = after_run.filter(|&c| is_word_char(c)) {
                    if whole_run_host(&grammar.hosts[group]) {
                        then_word = then_word.max(Some(run_end - at + c.len_utf8()));
                    }
                }
                offer(then_word, Action::AvoidBadUrl);
                if let Some(len) = longest(&grammar.hosts[group], ascii, at) {
                    offer(Some(len), Action::Token(len, "<URL>"));
                }
            }
        }
    }
    if starts_email {
        if matches!(first, 'm' | 'M') {
            offer(longest(&grammar.mailto, ascii, at), Action::Token(6, "<ALPHANUM>"));
        }
        if let Some(len) = longest(&grammar.email, ascii, at) {
            offer(Some(len), Action::Token(len, "<EMAIL>"));
        }
    }
    // The standard tokenizer's word, if one starts here: never at ASCII punctuation but
    // `_` and keycap bases, nor at a mark or format character (no rule of Lucene's begins
    // with one, though a UAX#29 segment may when the scan restarts inside a word).
    let starts_word = if first.is_ascii() {
        first.is_ascii_alphanumeric() || matches!(first, '_' | '#' | '*')
    } else {
        first == '\u{200D}' || !matches!(chars::java_type(first), 6..=8 | 16)
    };
    if starts_word {
        // An ASCII word is letters, digits and `_`, with single `.,':;` between: it ends
        // before any other byte or a second such mark, so reading on past there (a long
        // run with a huge buffer) would change nothing.
        let ascii_word_end = if run_end == window.len() {
            let mut end = at;
            let mut marks = 0;
            for &b in &window.as_bytes()[at..] {
                if b.is_ascii_alphanumeric() || b == b'_' {
                    marks = 0;
                } else if matches!(b, b'.' | b',' | b'\'' | b':' | b';') && marks == 0 {
                    marks = 1;
                } else {
                    break;
                }
                end += 1;
            }
            end
        } else {
            window.len()
        };
        if let Some(len) = super::standard_token_at_start(&window[at..ascii_word_end], run_end == window.len()) {
            offer(Some(len), Action::Token(len, super::tokenizers::standard_type(&window[at..at + len])));
        }
    }
    Ok(best.map_or(Action::Skip, |(_, action)| action))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str, max_len: usize) -> Vec<(String, &'static str)> {
        tokenize(text, max_len).unwrap().into_iter().map(|t| (t.term, t.token_type)).collect()
    }

    fn pairs(expected: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
        expected.iter().map(|&(t, ty)| (t.to_string(), ty)).collect()
    }

    #[test]
    fn urls_and_addresses_are_single_tokens() {
        // Lucene 8.7's answers.
        assert_eq!(
            tokens("Write to john.doe+x@example.co.uk (or http://[::1]:8080/a?b=c#d), not example.comx.", 255),
            pairs(&[
                ("Write", "<ALPHANUM>"),
                ("to", "<ALPHANUM>"),
                ("john.doe+x@example.co.uk", "<EMAIL>"),
                ("or", "<ALPHANUM>"),
                ("http://[::1]:8080/a?b=c#d),", "<URL>"),
                ("not", "<ALPHANUM>"),
                ("example.comx", "<ALPHANUM>"),
            ])
        );
        assert_eq!(
            tokens("Visit example.com. now", 255),
            pairs(&[("Visit", "<ALPHANUM>"), ("example.com.", "<URL>"), ("now", "<ALPHANUM>")])
        );
        assert_eq!(
            tokens("mailto:john@example.com", 255),
            pairs(&[("mailto", "<ALPHANUM>"), ("john@example.com", "<EMAIL>")])
        );
        // A bare host before `-` or a word character is no URL; `c` is no TLD.
        assert_eq!(tokens("example.com-", 255), pairs(&[("example.com", "<ALPHANUM>")]));
        assert_eq!(tokens("x@y.c", 255), pairs(&[("x", "<ALPHANUM>"), ("y.c", "<ALPHANUM>")]));
    }

    #[test]
    fn tokens_are_cut_at_the_buffer() {
        assert_eq!(
            tokens("see http://example.com/abcdef", 10),
            pairs(&[("see", "<ALPHANUM>"), ("http://exa", "<URL>"), ("mple.com/a", "<URL>"), ("bcdef", "<ALPHANUM>"),])
        );
        assert_eq!(
            tokens("a@example.com", 10),
            pairs(&[("a", "<ALPHANUM>"), ("example.co", "<URL>"), ("m", "<ALPHANUM>")])
        );
    }

    #[test]
    fn look_ahead_is_bounded() {
        // Every comma may begin an address, so each position reads to the end of the
        // run: within the default buffer that is linear, and a huge buffer meets the
        // budget instead of scanning quadratically.
        let commas = ",".repeat(200_000) + "@";
        assert!(tokenize(&commas, 255).unwrap().is_empty());
        let err = tokenize(&commas, 1 << 20).unwrap_err();
        assert!(err.reason().contains("too much look-ahead"), "{}", err.reason());
        // Labels without a dot are no host, and each word ends at its `-`: nothing to read
        // ahead, whatever the buffer.
        let labels = "a-".repeat(100_000);
        assert_eq!(tokenize(&labels, 255).unwrap().len(), 100_000);
        assert_eq!(tokenize(&labels, 1 << 20).unwrap().len(), 100_000);
    }
}
