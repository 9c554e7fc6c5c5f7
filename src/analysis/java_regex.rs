//! Java regular expressions (`java.util.regex`, as ES's `pattern` tokenizer,
//! `pattern_replace` filters and `keywords_pattern` compile them) run on regex-automata.
//!
//! The translation keeps what both engines read alike and rewrites what differs:
//! - `\d \w \s` (and negations) are ASCII classes in Java: written out as ASCII ranges;
//! - `.` stops at every Java line terminator (`\n \r \u0085 \u2028 \u2029`), not only `\n`;
//! - `\uhhhh`, `\e`, `\cX`, `\0ooo` escapes become `\x{...}`; `\Q...\E` quotes literally;
//! - Java's `$` also matches before a line terminator that ends the input: translated to
//!   the end of input, and [`JavaRegex::differs_on`] flags the inputs where that differs.
//!
//! Refused (ES-shaped `illegal_argument_exception`), because regex-automata cannot match
//! them or would match them differently: look-around, atomic groups, possessive
//! quantifiers, back-references, `\b \B \G \Z \R \X \h \v \k`, POSIX-like `\p{Alpha}`
//! classes (ASCII-only in Java), inline flags and ES `flags` other than `DOTALL`, and
//! `--`, `~~`, `[:` inside classes (set operations or POSIX classes for Rust, literals for
//! Java). Both engines prefer the leftmost-first alternative, so the matches of the
//! patterns that pass are Java's; empty matches are iterated as `Matcher.find` does.

use regex_automata::meta::Regex;
use regex_automata::util::captures::Captures;
use regex_automata::{Anchored, Input};

/// How a pattern compares letters: exactly, Java's `CASE_INSENSITIVE` (ASCII letters
/// only), or with `UNICODE_CASE` too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseFold {
    /// Letters match themselves.
    Exact,
    /// ASCII letters match either case.
    Ascii,
    /// Letters match by Unicode simple case folding.
    Unicode,
}

/// A compiled Java pattern.
#[derive(Debug, Clone)]
pub struct JavaRegex {
    source: String,
    regex: Regex,
    /// The pattern anchored at both ends, for `Matcher.matches`.
    whole: Regex,
    has_dollar: bool,
    fold_ascii: bool,
}

const LINE_TERMINATORS: &str = "\\n\\r\\x{85}\\x{2028}\\x{2029}";
const SPACE: &str = "\\t\\n\\x0B\\x0C\\r ";
const WORD: &str = "0-9A-Za-z_";

impl JavaRegex {
    /// Compiles `pattern` with ES's `flags` (a `|`-separated list of Java flag names).
    pub fn new(pattern: &str, flags: &str) -> Result<JavaRegex, String> {
        let mut dotall = false;
        for flag in flags.split('|').map(str::trim).filter(|f| !f.is_empty()) {
            match flag {
                "DOTALL" => dotall = true,
                "CASE_INSENSITIVE"
                | "MULTILINE"
                | "COMMENTS"
                | "UNICODE_CASE"
                | "UNICODE_CHARACTER_CLASS"
                | "CANON_EQ"
                | "LITERAL"
                | "UNIX_LINES" => {
                    return Err(format!("regex flag [{flag}] is not supported by metagate"));
                }
                other => return Err(format!("Unknown regex flag [{other}]")),
            }
        }
        JavaRegex::compile(pattern, dotall, CaseFold::Exact)
    }

    /// Compiles `pattern` with Java's `DOTALL` (`dotall`) and case folding.
    pub fn compile(pattern: &str, dotall: bool, fold: CaseFold) -> Result<JavaRegex, String> {
        let (translated, has_dollar) = translate(pattern, dotall)?;
        let fold_ascii = fold == CaseFold::Ascii;
        // Unicode folding of non-ASCII letters would go beyond Java's ASCII-only folding.
        if fold_ascii
            && (!pattern.is_ascii() || ["\\x", "\\u", "\\p", "\\P", "\\0"].iter().any(|e| pattern.contains(e)))
        {
            return Err(format!(
                "case-insensitive matching of non-ASCII characters in [{pattern}] is not supported by metagate"
            ));
        }
        let translated = if fold == CaseFold::Exact { translated } else { format!("(?i){translated}") };
        let regex = Regex::new(&translated).map_err(|e| format!("invalid pattern [{pattern}]: {e}"))?;
        let whole =
            Regex::new(&format!("^(?:{translated})\\z")).map_err(|e| format!("invalid pattern [{pattern}]: {e}"))?;
        Ok(JavaRegex { source: pattern.to_string(), regex, whole, has_dollar, fold_ascii })
    }

    /// The first match at or after byte `from`: each group's span.
    pub fn find_at(&self, text: &str, from: usize) -> Option<Vec<Option<(usize, usize)>>> {
        Self::spans(&self.regex, Input::new(text).range(from..))
    }

    /// The match of the whole text (`Matcher.matches`): each group's span.
    pub fn match_whole(&self, text: &str) -> Option<Vec<Option<(usize, usize)>>> {
        Self::spans(&self.whole, Input::new(text))
    }

    /// The match at the start of the text (`Matcher.lookingAt`): each group's span.
    pub fn match_prefix(&self, text: &str) -> Option<Vec<Option<(usize, usize)>>> {
        Self::spans(&self.regex, Input::new(text).anchored(Anchored::Yes))
    }

    fn spans(regex: &Regex, input: Input<'_>) -> Option<Vec<Option<(usize, usize)>>> {
        let mut caps = regex.create_captures();
        regex.search_captures(&input, &mut caps);
        caps.get_match()?;
        Some((0..caps.group_len()).map(|g| caps.get_group(g).map(|sp| (sp.start, sp.end))).collect())
    }

    /// The Java source of the pattern.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The number of capture groups (group 0 not counted).
    pub fn groups(&self) -> usize {
        self.regex.group_info().group_len(regex_automata::PatternID::ZERO).saturating_sub(1)
    }

    /// Named groups and their numbers.
    pub fn group_names(&self) -> Vec<(String, usize)> {
        self.regex
            .group_info()
            .pattern_names(regex_automata::PatternID::ZERO)
            .enumerate()
            .filter_map(|(i, n)| n.map(|n| (n.to_string(), i)))
            .collect()
    }

    /// Whether Java would match `text` differently: `$` before a final line terminator.
    pub fn differs_on(&self, text: &str) -> bool {
        (self.has_dollar && text.ends_with(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}']))
            // The Kelvin sign and the long s fold to ASCII letters in Unicode, not in Java's
            // ASCII-only case-insensitive matching.
            || (self.fold_ascii && text.contains(['\u{212A}', '\u{17F}']))
    }

    /// Whether the whole of `text` matches (`Matcher.matches`).
    pub fn matches_whole(&self, text: &str) -> bool {
        self.whole.is_match(text)
    }

    /// Every match as `Matcher.find` walks them: each match's group spans (byte ranges).
    pub fn captures_iter<'t>(&'t self, text: &'t str) -> impl Iterator<Item = Vec<Option<(usize, usize)>>> + 't {
        let mut from = 0usize;
        let mut done = false;
        let mut caps: Captures = self.regex.create_captures();
        std::iter::from_fn(move || {
            if done || from > text.len() {
                return None;
            }
            self.regex.search_captures(&Input::new(text).range(from..), &mut caps);
            let m = caps.get_match()?;
            let (s, e) = (m.start(), m.end());
            if s == e {
                // Java moves one character past an empty match.
                match text[e..].chars().next() {
                    Some(c) => from = e + c.len_utf8(),
                    None => done = true,
                }
            } else {
                from = e;
            }
            let groups = (0..caps.group_len()).map(|g| caps.get_group(g).map(|sp| (sp.start, sp.end))).collect();
            Some(groups)
        })
    }
}

/// Translates a Java pattern; returns the regex-automata pattern and whether it uses `$`.
fn translate(p: &str, dotall: bool) -> Result<(String, bool), String> {
    let refuse = |what: &str| Err(format!("the Java regex construct [{what}] in [{p}] is not supported by metagate"));
    let chars: Vec<char> = p.chars().collect();
    let mut out = String::with_capacity(p.len() * 2);
    let mut has_dollar = false;
    let mut depth = 0usize; // inside a character class (nested classes count)
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '\\' => {
                let Some(n) = next else { return Err(format!("Unexpected internal error near index 1\n{p}")) };
                i += 2;
                match n {
                    'd' => out.push_str(if depth > 0 { "0-9" } else { "[0-9]" }),
                    'w' => out.push_str(&if depth > 0 { WORD.to_string() } else { format!("[{WORD}]") }),
                    's' => out.push_str(&if depth > 0 { SPACE.to_string() } else { format!("[{SPACE}]") }),
                    'D' => out.push_str("[^0-9]"),
                    'W' => out.push_str(&format!("[^{WORD}]")),
                    'S' => out.push_str(&format!("[^{SPACE}]")),
                    't' => out.push_str("\\t"),
                    'n' => out.push_str("\\n"),
                    'r' => out.push_str("\\r"),
                    'f' => out.push_str("\\x0C"),
                    'a' => out.push_str("\\x07"),
                    'e' => out.push_str("\\x1B"),
                    'A' | 'z' if depth == 0 => {
                        out.push('\\');
                        out.push(n);
                    }
                    'c' => {
                        let Some(x) = chars.get(i) else { return refuse("\\c") };
                        out.push_str(&format!("\\x{{{:X}}}", (*x as u32) ^ 64));
                        i += 1;
                    }
                    'x' | 'u' | '0' => {
                        let (value, used) =
                            escape_number(&chars[i..], n).ok_or_else(|| format!("Illegal escape in [{p}]"))?;
                        if (0xD800..=0xDFFF).contains(&value) {
                            return refuse("surrogate escape");
                        }
                        out.push_str(&format!("\\x{{{value:X}}}"));
                        i += used;
                    }
                    'p' | 'P' => {
                        // Unicode general categories read alike; Java's other \p names
                        // (Alpha, Lower, javaLetter, In/Is blocks) do not.
                        let (name, used) = braced_name(&chars[i..]);
                        let ok = matches!(
                            name.as_str(),
                            "L" | "Lu"
                                | "Ll"
                                | "Lt"
                                | "Lm"
                                | "Lo"
                                | "M"
                                | "Mn"
                                | "Mc"
                                | "Me"
                                | "N"
                                | "Nd"
                                | "Nl"
                                | "No"
                                | "P"
                                | "Pc"
                                | "Pd"
                                | "Ps"
                                | "Pe"
                                | "Pi"
                                | "Pf"
                                | "Po"
                                | "S"
                                | "Sm"
                                | "Sc"
                                | "Sk"
                                | "So"
                                | "Z"
                                | "Zs"
                                | "Zl"
                                | "Zp"
                        );
                        if !ok {
                            return refuse(&format!("\\{n}{{{name}}}"));
                        }
                        out.push_str(&format!("\\{n}{{{name}}}"));
                        i += used;
                    }
                    'Q' => {
                        let rest: String = chars[i..].iter().collect();
                        let (quoted, used) = match rest.find("\\E") {
                            Some(end) => (&rest[..end], rest[..end].chars().count() + 2),
                            None => (rest.as_str(), chars.len() - i),
                        };
                        for q in quoted.chars() {
                            push_literal(&mut out, q);
                        }
                        i += used;
                    }
                    n if n.is_ascii_alphanumeric() => return refuse(&format!("\\{n}")),
                    n => push_literal(&mut out, n),
                }
                continue;
            }
            '[' => {
                if next == Some(':') {
                    return refuse("[:");
                }
                depth += 1;
                out.push('[');
                i += 1;
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i) == Some(&']') {
                    return refuse("[]");
                }
                continue;
            }
            ']' if depth > 0 => {
                depth -= 1;
                out.push(']');
            }
            '-' | '~' if depth > 0 && next == Some(c) => return refuse(&format!("{c}{c}")),
            '.' if depth == 0 => {
                if dotall {
                    out.push_str("(?s:.)");
                } else {
                    out.push_str(&format!("[^{LINE_TERMINATORS}]"));
                }
            }
            '$' if depth == 0 => {
                has_dollar = true;
                out.push_str("\\z");
            }
            '(' if depth == 0 && next == Some('?') => {
                let after = chars.get(i + 2).copied();
                let after2 = chars.get(i + 3).copied();
                match (after, after2) {
                    (Some(':'), _) => {
                        out.push_str("(?:");
                        i += 3;
                        continue;
                    }
                    (Some('<'), Some(a)) if a.is_ascii_alphabetic() => {
                        out.push_str("(?<");
                        i += 3;
                        continue;
                    }
                    _ => return refuse("(?"),
                }
            }
            '*' | '+' | '?' | '}' if depth == 0 && next == Some('+') => return refuse("possessive quantifier"),
            c if depth > 0 && matches!(c, '&') => out.push('&'),
            c => out.push(c),
        }
        i += 1;
    }
    Ok((out, has_dollar))
}

/// A literal character, escaped where regex syntax would read it otherwise.
fn push_literal(out: &mut String, c: char) {
    if c.is_alphanumeric() || c == '_' {
        out.push(c);
    } else {
        out.push_str(&format!("\\x{{{:X}}}", c as u32));
    }
}

/// The value of `\xhh`, `\x{h...}`, `\uhhhh` or `\0ooo` (after the letter) and how many
/// characters it used.
fn escape_number(rest: &[char], kind: char) -> Option<(u32, usize)> {
    let hex = |s: &[char]| u32::from_str_radix(&s.iter().collect::<String>(), 16).ok();
    match kind {
        'x' if rest.first() == Some(&'{') => {
            let end = rest.iter().position(|&c| c == '}')?;
            Some((hex(&rest[1..end])?, end + 1))
        }
        'x' => Some((hex(rest.get(..2)?)?, 2)),
        'u' => Some((hex(rest.get(..4)?)?, 4)),
        _ => {
            // Octal: up to three digits, the first of three at most 3.
            let digits: Vec<u32> = rest.iter().take(3).map_while(|c| c.to_digit(8)).collect();
            if digits.is_empty() {
                return None;
            }
            let take = if digits.len() == 3 && digits[0] > 3 { 2 } else { digits.len() };
            Some((digits[..take].iter().fold(0, |v, d| v * 8 + d), take))
        }
    }
}

/// `{Name}` or a one-letter name after `\p`.
fn braced_name(rest: &[char]) -> (String, usize) {
    if rest.first() == Some(&'{') {
        match rest.iter().position(|&c| c == '}') {
            Some(end) => (rest[1..end].iter().collect(), end + 1),
            None => (rest.iter().collect(), rest.len()),
        }
    } else {
        (rest.first().map(|c| c.to_string()).unwrap_or_default(), 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(p: &str, text: &str) -> Vec<(usize, usize)> {
        JavaRegex::new(p, "").unwrap().captures_iter(text).map(|g| g[0].unwrap()).collect()
    }

    #[test]
    fn ascii_classes_and_java_dot() {
        assert_eq!(spans("\\W+", "héllo wörld"), [(1, 3), (6, 7), (8, 10)]);
        assert_eq!(spans(".+", "a\rb"), [(0, 1), (2, 3)]);
        assert_eq!(spans("[\\d-]+", "12-3x"), [(0, 4)]);
    }

    #[test]
    fn empty_matches_step_like_java() {
        // Java reports the empty match right after `a` (Rust's iterator would not).
        assert_eq!(spans("a*", "baa"), [(0, 0), (1, 3), (3, 3)]);
    }

    #[test]
    fn refuses_what_differs() {
        for p in ["(?=a)", "a++", "\\bx", "(?i)a", "[[:alpha:]]", "\\p{Alpha}", "(a)\\1", "[a--b]"] {
            assert!(JavaRegex::new(p, "").is_err(), "{p}");
        }
        assert!(JavaRegex::new("a", "CASE_INSENSITIVE").is_err());
        assert!(JavaRegex::new("x$", "").unwrap().differs_on("ax\n"));
    }
}
