//! Char filters: `mapping`, `pattern_replace` and `html_strip` (in [`super::html_strip`]), rewriting the text before the tokenizer
//! and recording, as Lucene's BaseCharFilter does, how offsets of the output map back to
//! the input.

use super::chars::utf16_len;
use super::html_strip::HtmlStrip;
use super::java_regex::JavaRegex;
use super::limits::Quota;
use crate::error::Result;
use std::collections::BTreeMap;

/// Offset corrections of one char filter: from each recorded output offset on, add the
/// cumulative difference (Lucene's `addOffCorrectMap` / `correct`). UTF-16 units.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OffsetMap {
    points: Vec<(usize, i64)>,
}

impl OffsetMap {
    /// Records that from output `offset` on, `cumulative_diff` is added.
    pub(super) fn add(&mut self, offset: usize, cumulative_diff: i64) {
        match self.points.last_mut() {
            Some(last) if last.0 == offset => last.1 = cumulative_diff,
            _ => self.points.push((offset, cumulative_diff)),
        }
    }

    fn last_diff(&self) -> i64 {
        self.points.last().map_or(0, |p| p.1)
    }

    /// The input offset of output offset `offset`.
    pub fn correct(&self, offset: usize) -> usize {
        let i = self.points.partition_point(|p| p.0 <= offset);
        let diff = if i == 0 { 0 } else { self.points[i - 1].1 };
        (offset as i64 + diff).max(0) as usize
    }
}

/// A char filter of a chain.
#[derive(Debug, Clone)]
pub enum CharFilter {
    /// `mapping`: longest-match replacement of keys by values.
    Mapping(Mapping),
    /// `pattern_replace`: Java `Matcher.replaceAll` over the whole text.
    PatternReplace {
        /// The pattern.
        pattern: JavaRegex,
        /// The replacement, with `$n` group references.
        replacement: Replacement,
    },
    /// `html_strip`: Lucene's HTMLStripCharFilter.
    HtmlStrip(HtmlStrip),
}

impl CharFilter {
    /// The filtered text and its offset corrections.
    pub fn apply(&self, text: &str) -> Result<(String, OffsetMap)> {
        match self {
            CharFilter::Mapping(m) => m.apply(text),
            CharFilter::PatternReplace { pattern, replacement } => pattern_replace(pattern, replacement, text),
            CharFilter::HtmlStrip(f) => f.apply(text),
        }
    }
}

/// The rules of a `mapping` char filter (Lucene's NormalizeCharMap), by key.
#[derive(Debug, Clone, Default)]
pub struct Mapping {
    rules: BTreeMap<String, String>,
    longest_key: usize,
    /// The first characters of the keys, so most positions are passed at once.
    first_chars: std::collections::HashSet<char>,
}

impl Mapping {
    /// Adds a rule; Lucene refuses an empty key and a key given twice.
    pub fn add(&mut self, key: String, value: String) -> std::result::Result<(), String> {
        if key.is_empty() {
            return Err("cannot match the empty string".into());
        }
        if self.rules.contains_key(&key) {
            return Err(format!("match \"{key}\" was already added"));
        }
        self.longest_key = self.longest_key.max(key.chars().count());
        self.first_chars.extend(key.chars().next());
        self.rules.insert(key, value);
        Ok(())
    }

    /// The longest key that `text` starts with, and its value.
    fn longest_match<'m>(&'m self, text: &str) -> Option<(usize, &'m str)> {
        if !text.chars().next().is_some_and(|c| self.first_chars.contains(&c)) {
            return None;
        }
        let mut best = None;
        for (taken, (i, c)) in text.char_indices().enumerate() {
            if taken >= self.longest_key {
                break;
            }
            let key = &text[..i + c.len_utf8()];
            // No key continues a prefix that no key starts with.
            match self.rules.range::<str, _>((std::ops::Bound::Included(key), std::ops::Bound::Unbounded)).next() {
                Some((k, v)) if k.starts_with(key) => {
                    if k.len() == key.len() {
                        best = Some((key.len(), v.as_str()));
                    }
                }
                _ => break,
            }
        }
        best
    }

    fn apply(&self, text: &str) -> Result<(String, OffsetMap)> {
        let mut quota = Quota::default();
        let mut out = String::with_capacity(text.len());
        let mut map = OffsetMap::default();
        let mut output_units = 0usize;
        let mut at = 0;
        while at < text.len() {
            if let Some((matched, value)) = self.longest_match(&text[at..]) {
                let matched_units = utf16_len(&text[at..at + matched]) as i64;
                let value_units = utf16_len(value) as i64;
                let diff = matched_units - value_units;
                if diff != 0 {
                    let previous = map.last_diff();
                    if diff > 0 {
                        map.add(output_units + value_units as usize, previous + diff);
                    } else {
                        // The extra output chars all map back to the match's end.
                        for extra in 0..-diff {
                            map.add(output_units + (matched_units + extra) as usize, previous - extra - 1);
                        }
                    }
                }
                quota.bytes(value.len())?;
                out.push_str(value);
                output_units += value_units as usize;
                at += matched;
            } else {
                let c = text[at..].chars().next().unwrap_or('\0');
                out.push(c);
                output_units += c.len_utf16();
                at += c.len_utf8();
            }
        }
        Ok((out, map))
    }
}

/// One piece of a Java replacement string.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Literal(String),
    Group(usize),
}

/// A Java `Matcher.appendReplacement` replacement string, parsed against a pattern's
/// groups as Java parses it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Replacement {
    pieces: Vec<Piece>,
}

impl Replacement {
    /// Parses `s` for a pattern with `groups` capture groups (group 0 not counted).
    /// `names` maps group names to numbers for `${name}`.
    pub fn parse(s: &str, groups: usize, names: &[(String, usize)]) -> std::result::Result<Replacement, String> {
        let mut pieces = Vec::new();
        let mut lit = String::new();
        let mut chars = s.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(n) => lit.push(n),
                    None => return Err("character to be escaped is missing".into()),
                },
                '$' => {
                    let group = match chars.next() {
                        None => return Err("Illegal group reference: group index is missing".into()),
                        Some('{') => {
                            let mut name = String::new();
                            loop {
                                match chars.next() {
                                    Some('}') => break,
                                    Some(n) if n.is_ascii_alphanumeric() => name.push(n),
                                    _ => return Err("named capturing group is missing trailing '}'".into()),
                                }
                            }
                            if name.is_empty() {
                                return Err("named capturing group has 0 length name".into());
                            }
                            if name.starts_with(|d: char| d.is_ascii_digit()) {
                                return Err(format!("capturing group name {{{name}}} starts with digit character"));
                            }
                            match names.iter().find(|(n, _)| *n == name) {
                                Some((_, g)) => *g,
                                None => return Err(format!("No group with name {{{name}}}")),
                            }
                        }
                        Some(d) if d.is_ascii_digit() => {
                            let mut g = d as usize - '0' as usize;
                            if g > groups {
                                return Err(format!("No group {g}"));
                            }
                            // Further digits belong to the number while it stays a group.
                            while let Some(&n) = chars.peek() {
                                let Some(v) = n.to_digit(10) else { break };
                                let next = g * 10 + v as usize;
                                if next > groups {
                                    break;
                                }
                                g = next;
                                chars.next();
                            }
                            g
                        }
                        Some(_) => return Err("Illegal group reference".into()),
                    };
                    if !lit.is_empty() {
                        pieces.push(Piece::Literal(std::mem::take(&mut lit)));
                    }
                    pieces.push(Piece::Group(group));
                }
                c => lit.push(c),
            }
        }
        if !lit.is_empty() {
            pieces.push(Piece::Literal(lit));
        }
        Ok(Replacement { pieces })
    }

    /// Appends the replacement for a match whose group spans are `groups` (byte ranges of
    /// `text`, `None` for a group that did not take part).
    pub fn expand(&self, text: &str, groups: &[Option<(usize, usize)>], out: &mut String) {
        for p in &self.pieces {
            match p {
                Piece::Literal(s) => out.push_str(s),
                Piece::Group(g) => {
                    if let Some(Some((s, e))) = groups.get(*g) {
                        out.push_str(&text[*s..*e]);
                    }
                }
            }
        }
    }
}

/// Lucene's PatternReplaceCharFilter: every match replaced, offsets corrected per match.
fn pattern_replace(pattern: &JavaRegex, replacement: &Replacement, text: &str) -> Result<(String, OffsetMap)> {
    let mut quota = Quota::default();
    let mut out = String::with_capacity(text.len());
    let mut map = OffsetMap::default();
    let mut cumulative = 0i64;
    let mut last_end = 0usize;
    let mut out_units = 0usize;
    for groups in pattern.captures_iter(text) {
        let (start, end) = groups[0].unwrap_or((0, 0));
        let skipped = &text[last_end..start];
        out.push_str(skipped);
        out_units += utf16_len(skipped);
        let before = out_units;
        let from = out.len();
        replacement.expand(text, &groups, &mut out);
        quota.bytes(out.len() - from)?;
        let replacement_units = utf16_len(&out[from..]) as i64;
        out_units += replacement_units as usize;
        let group_units = utf16_len(&text[start..end]) as i64;
        if group_units != replacement_units {
            if replacement_units < group_units {
                cumulative += group_units - replacement_units;
                map.add(before + replacement_units as usize, cumulative);
            } else {
                for i in group_units..replacement_units {
                    cumulative -= 1;
                    map.add(before + i as usize, cumulative);
                }
            }
        }
        last_end = end;
    }
    out.push_str(&text[last_end..]);
    Ok((out, map))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapping_takes_the_longest_key_and_corrects_offsets() {
        let mut m = Mapping::default();
        m.add("ph".into(), "f".into()).unwrap();
        m.add("p".into(), "P".into()).unwrap();
        m.add("x".into(), "xyz".into()).unwrap();
        let (out, map) = m.apply("phone px").unwrap();
        assert_eq!(out, "fone Pxyz");
        // "one" starts at output 1, input 2.
        assert_eq!(map.correct(1), 2);
        assert_eq!(map.correct(9), 8);
        assert!(m.add(String::new(), "a".into()).is_err());
    }

    #[test]
    fn java_replacement_strings() {
        let r = Replacement::parse("<$1>\\$", 1, &[]).unwrap();
        let mut out = String::new();
        r.expand("ab", &[Some((0, 2)), Some((1, 2))], &mut out);
        assert_eq!(out, "<b>$");
        assert!(Replacement::parse("$2", 1, &[]).is_err());
        // `$12` with one group is group 1 then `2`.
        let r = Replacement::parse("$12", 1, &[]).unwrap();
        let mut out = String::new();
        r.expand("ab", &[Some((0, 2)), Some((1, 2))], &mut out);
        assert_eq!(out, "b2");
    }
}
