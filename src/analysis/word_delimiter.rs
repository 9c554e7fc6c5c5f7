//! The `word_delimiter` and `word_delimiter_graph` token filters: Lucene's
//! WordDelimiterFilter and WordDelimiterGraphFilter as ES 6.8's factories configure them.
//!
//! Both split a term into subwords at delimiters, case changes and letter-digit changes
//! (Lucene's WordDelimiterIterator, over UTF-16 units as Java sees them), and may add
//! catenations of the parts and the original term. They differ in how they place what
//! they make: the old filter stacks catenations on a part (position length 1) and sorts
//! its buffer by start offset, while the graph filter gives each token the positions it
//! spans (a catenation's length is the parts it joins) and emits the original first.
//! Their steps are kept as Lucene takes them, since order, increments and offsets follow
//! from them.

use super::chars::java_type;
use super::stopwords::WordSet;
use super::token::{AnalyzedToken, TokenStream};
use crate::error::{Error, Exception, Result};

/// A lowercase letter.
const LOWER: u8 = 1;
/// An uppercase letter.
const UPPER: u8 = 2;
/// A digit.
const DIGIT: u8 = 4;
/// A delimiter between subwords.
const SUBWORD_DELIM: u8 = 8;
/// Any letter.
const ALPHA: u8 = LOWER | UPPER;
/// A letter or digit.
const ALPHANUM: u8 = ALPHA | DIGIT;
/// `WordDelimiterIterator.DONE`.
const DONE: i64 = -1;

fn is_alpha(t: u8) -> bool {
    t & ALPHA != 0
}
fn is_digit(t: u8) -> bool {
    t & DIGIT != 0
}
fn is_delim(t: u8) -> bool {
    t & SUBWORD_DELIM != 0
}
fn is_upper(t: u8) -> bool {
    t & UPPER != 0
}

/// `WordDelimiterIterator.getType`: the type Java's general category gives a UTF-16 unit
/// (a surrogate is a letter and a digit, so pairs never split).
fn java_unit_type(unit: u16) -> u8 {
    if (0xD800..=0xDFFF).contains(&unit) {
        return ALPHA | DIGIT;
    }
    match char::from_u32(u32::from(unit)).map(java_type) {
        Some(1) => UPPER,
        Some(2) => LOWER,
        Some(3..=8) => ALPHA,
        Some(9..=11) => DIGIT,
        _ => SUBWORD_DELIM,
    }
}

/// `WordDelimiterIterator.DEFAULT_WORD_DELIM_TABLE` below 256: `Character.isLowerCase`
/// (which counts `ª` and `º`), `isUpperCase`, `isDigit`, else a delimiter.
fn default_latin1_type(unit: u16) -> u8 {
    match unit {
        0xAA | 0xBA => LOWER,
        _ => match java_unit_type(unit) {
            t @ (LOWER | UPPER) => t,
            _ if char::from_u32(u32::from(unit)).is_some_and(|c| java_type(c) == 9) => DIGIT,
            _ => SUBWORD_DELIM,
        },
    }
}

/// How characters are typed: Lucene's default table, or an ES `type_table` (Java's types
/// for every character, the rules' characters overridden).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum TypeTable {
    /// `DEFAULT_WORD_DELIM_TABLE`.
    #[default]
    Default,
    /// ES's `parseTypes`: sorted `(unit, type)` overrides.
    Custom(Vec<(u16, u8)>),
}

impl TypeTable {
    fn type_of(&self, unit: u16) -> u8 {
        match self {
            TypeTable::Default if unit < 256 => default_latin1_type(unit),
            TypeTable::Default => java_unit_type(unit),
            TypeTable::Custom(overrides) => match overrides.binary_search_by_key(&unit, |(u, _)| *u) {
                Ok(i) => overrides[i].1,
                Err(_) => java_unit_type(unit),
            },
        }
    }

    /// ES's `parseTypes` over `type_table` rules (`char => TYPE`), with its errors.
    pub fn parse(rules: &[String]) -> Result<TypeTable> {
        let runtime = |m: String| Error::new(500, Exception::new("runtime_exception", m));
        let mut map = std::collections::BTreeMap::new();
        for rule in rules {
            // `(.*)\s*=>\s*(.*)\s*$`: the greedy first group ends at the last `=>`.
            let Some((lhs, rhs)) = rule.rsplit_once("=>") else {
                return Err(runtime(format!("Invalid Mapping Rule : [{rule}]")));
            };
            let lhs = parse_escaped(java_trim(lhs)).map_err(runtime)?;
            let ty = match java_trim(rhs) {
                "LOWER" => Some(LOWER),
                "UPPER" => Some(UPPER),
                "ALPHA" => Some(ALPHA),
                "DIGIT" => Some(DIGIT),
                "ALPHANUM" => Some(ALPHANUM),
                "SUBWORD_DELIM" => Some(SUBWORD_DELIM),
                _ => None,
            };
            if lhs.len() != 1 {
                return Err(runtime(format!("Invalid Mapping Rule : [{rule}]. Only a single character is allowed.")));
            }
            let Some(ty) = ty else {
                return Err(runtime(format!("Invalid Mapping Rule : [{rule}]. Illegal type.")));
            };
            map.insert(lhs[0], ty);
        }
        Ok(TypeTable::Custom(map.into_iter().collect()))
    }
}

/// Java's `String.trim`: characters up to U+0020 off both ends.
fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

/// ES's `parseString` of a type-table rule's character: `\\`, `\n`, `\t`, `\r`, `\b`, `\f`,
/// `\uXXXX`; another escaped character stands for itself. UTF-16 units.
fn parse_escaped(s: &str) -> std::result::Result<Vec<u16>, String> {
    let units: Vec<u16> = s.encode_utf16().collect();
    let bad = || format!("Invalid escaped char in [{s}]");
    let mut out = Vec::new();
    let mut i = 0;
    while i < units.len() {
        let mut c = units[i];
        i += 1;
        if c == u16::from(b'\\') {
            if i >= units.len() {
                return Err(bad());
            }
            c = units[i];
            i += 1;
            c = match c {
                0x6E => 0x0A,
                0x74 => 0x09,
                0x72 => 0x0D,
                0x62 => 0x08,
                0x66 => 0x0C,
                0x75 => {
                    if i + 3 >= units.len() {
                        return Err(bad());
                    }
                    let hex = String::from_utf16_lossy(&units[i..i + 4]);
                    i += 4;
                    u16::from_str_radix(&hex, 16).map_err(|_| bad())?
                }
                other => other,
            };
        }
        out.push(c);
    }
    Ok(out)
}

/// The options of a word delimiter filter (ES's names; the defaults are ES's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordDelimiter {
    /// `generate_word_parts`: letter parts are tokens.
    pub generate_word_parts: bool,
    /// `generate_number_parts`: digit parts are tokens.
    pub generate_number_parts: bool,
    /// `catenate_words`: runs of letter parts joined.
    pub catenate_words: bool,
    /// `catenate_numbers`: runs of digit parts joined.
    pub catenate_numbers: bool,
    /// `catenate_all`: all parts joined.
    pub catenate_all: bool,
    /// `preserve_original`: the term itself kept too.
    pub preserve_original: bool,
    /// `split_on_case_change`: `PowerShot` is two parts.
    pub split_on_case_change: bool,
    /// `split_on_numerics`: `j2se` is three parts.
    pub split_on_numerics: bool,
    /// `stem_english_possessive`: a trailing `'s` dropped from each part.
    pub stem_english_possessive: bool,
    /// `protected_words`: terms passed through whole.
    pub protected_words: Option<WordSet>,
    /// `type_table`: how characters are typed.
    pub type_table: TypeTable,
    /// `adjust_offsets` (graph filter only): parts take their own offsets within the
    /// term rather than the term's.
    pub adjust_offsets: bool,
}

impl Default for WordDelimiter {
    fn default() -> Self {
        WordDelimiter {
            generate_word_parts: true,
            generate_number_parts: true,
            catenate_words: false,
            catenate_numbers: false,
            catenate_all: false,
            preserve_original: false,
            split_on_case_change: true,
            split_on_numerics: true,
            stem_english_possessive: true,
            protected_words: None,
            type_table: TypeTable::Default,
            adjust_offsets: true,
        }
    }
}

impl WordDelimiter {
    fn should_concatenate(&self, t: u8) -> bool {
        (self.catenate_words && is_alpha(t)) || (self.catenate_numbers && is_digit(t))
    }

    fn should_generate_parts(&self, t: u8) -> bool {
        (self.generate_word_parts && is_alpha(t)) || (self.generate_number_parts && is_digit(t))
    }

    fn is_protected(&self, term: &str) -> bool {
        self.protected_words.as_ref().is_some_and(|w| w.contains(term))
    }
}

/// Lucene's WordDelimiterIterator over one term's UTF-16 units.
struct Subwords<'a> {
    types: Vec<u8>,
    text: &'a [u16],
    start_bounds: usize,
    end_bounds: usize,
    current: i64,
    end: i64,
    has_final_possessive: bool,
    skip_possessive: bool,
    options: &'a WordDelimiter,
}

impl<'a> Subwords<'a> {
    /// `setText`, then the first `next()`.
    fn new(text: &'a [u16], options: &'a WordDelimiter) -> Self {
        let types = text.iter().map(|&u| options.type_table.type_of(u)).collect();
        let mut it = Subwords {
            types,
            text,
            start_bounds: 0,
            end_bounds: text.len(),
            current: 0,
            end: 0,
            has_final_possessive: false,
            skip_possessive: false,
            options,
        };
        while it.start_bounds < text.len() && is_delim(it.types[it.start_bounds]) {
            it.start_bounds += 1;
        }
        while it.end_bounds > it.start_bounds && is_delim(it.types[it.end_bounds - 1]) {
            it.end_bounds -= 1;
        }
        if it.ends_with_possessive(it.end_bounds) {
            it.has_final_possessive = true;
        }
        it.current = it.start_bounds as i64;
        it.next();
        it
    }

    fn next(&mut self) {
        self.current = self.end;
        if self.current == DONE {
            return;
        }
        if self.skip_possessive {
            self.current += 2;
            self.skip_possessive = false;
        }
        let end_bounds = self.end_bounds as i64;
        let mut last_type = 0;
        while self.current < end_bounds && {
            last_type = self.types[self.current as usize];
            is_delim(last_type)
        } {
            self.current += 1;
        }
        if self.current >= end_bounds {
            self.end = DONE;
            return;
        }
        self.end = self.current + 1;
        while self.end < end_bounds {
            let t = self.types[self.end as usize];
            if self.is_break(last_type, t) {
                break;
            }
            last_type = t;
            self.end += 1;
        }
        if self.end < end_bounds - 1 && self.ends_with_possessive(self.end as usize + 2) {
            self.skip_possessive = true;
        }
    }

    /// The type of the current subword: its first unit's, letters as `ALPHA`.
    fn word_type(&self) -> u8 {
        if self.end == DONE {
            return 0;
        }
        match self.types[self.current as usize] {
            LOWER | UPPER => ALPHA,
            t => t,
        }
    }

    fn is_break(&self, last: u8, t: u8) -> bool {
        if t & last != 0 {
            return false;
        }
        if !self.options.split_on_case_change && is_alpha(last) && is_alpha(t) {
            return false;
        }
        if is_upper(last) && is_alpha(t) {
            return false;
        }
        if !self.options.split_on_numerics && ((is_alpha(last) && is_digit(t)) || (is_digit(last) && is_alpha(t))) {
            return false;
        }
        true
    }

    fn is_single_word(&self) -> bool {
        let end_bounds = self.end_bounds as i64 - if self.has_final_possessive { 2 } else { 0 };
        self.current == self.start_bounds as i64 && self.end == end_bounds
    }

    fn ends_with_possessive(&self, pos: usize) -> bool {
        self.options.stem_english_possessive
            && pos > 2
            && self.text[pos - 2] == u16::from(b'\'')
            && (self.text[pos - 1] == u16::from(b's') || self.text[pos - 1] == u16::from(b'S'))
            && is_alpha(self.types[pos - 3])
            && (pos == self.end_bounds || is_delim(self.types[pos]))
    }

    fn span(&self) -> (usize, usize) {
        (self.current as usize, self.end as usize)
    }
}

/// A run of parts being joined (`WordDelimiterConcatenation`).
#[derive(Default)]
struct Concatenation {
    text: Vec<u16>,
    start_part: usize,
    end_part: usize,
    start_pos: usize,
    word_type: u8,
    subwords: usize,
}

impl Concatenation {
    fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    fn clear(&mut self) {
        self.text.clear();
        self.start_part = 0;
        self.end_part = 0;
        self.word_type = 0;
        self.subwords = 0;
    }

    fn append(&mut self, it: &Subwords, word_pos: usize, set_type: bool) {
        let (start, end) = it.span();
        if self.is_empty() {
            if set_type {
                self.word_type = it.word_type();
            }
            self.start_part = start;
            self.start_pos = word_pos;
        }
        self.text.extend_from_slice(&it.text[start..end]);
        self.subwords += 1;
        self.end_part = end;
    }
}

/// One token the graph filter will emit: its positions within the term's graph and the
/// slice of the term it covers (with its own text when it is a catenation).
struct Part {
    start_pos: usize,
    end_pos: usize,
    start_part: usize,
    end_part: usize,
    text: Option<Vec<u16>>,
}

/// Lucene's WordDelimiterGraphFilter.
pub fn apply_graph(o: &WordDelimiter, stream: &mut TokenStream) {
    let mut out = Vec::with_capacity(stream.tokens.len());
    let mut accum: u32 = 0;
    let mut last_start_offset = 0usize;
    let mut units = Vec::new();
    for mut t in std::mem::take(&mut stream.tokens) {
        units.clear();
        units.extend(t.term.encode_utf16());
        accum += t.position_increment;
        let mut it = Subwords::new(&units, o);
        if (it.current == 0 && it.end == units.len() as i64) || o.is_protected(&t.term) {
            t.position_increment = accum;
            accum = 0;
            out.push(t);
            continue;
        }
        if it.end == DONE {
            // Only delimiters: dropped (a hole), or kept as it came.
            if o.preserve_original {
                accum = 0;
                out.push(t);
            }
            continue;
        }
        let adjusting = o.adjust_offsets && t.end_offset.checked_sub(t.start_offset) == Some(units.len());
        let parts = graph_parts(o, &mut it, units.len());
        let mut word_pos = 0usize;
        for p in parts {
            let (mut start, mut end) = if adjusting {
                (t.start_offset + p.start_part, t.start_offset + p.end_part)
            } else {
                (t.start_offset, t.end_offset)
            };
            start = start.max(last_start_offset);
            end = end.max(last_start_offset);
            last_start_offset = start;
            let text = p.text.as_deref().unwrap_or(&units[p.start_part..p.end_part]);
            let mut token = t.clone();
            token.term = String::from_utf16_lossy(text);
            token.start_offset = start;
            token.end_offset = end;
            token.position_increment = (i64::from(accum) + p.start_pos as i64 - word_pos as i64).max(0) as u32;
            accum = 0;
            token.position_length = (p.end_pos - p.start_pos) as u32;
            word_pos = p.start_pos;
            out.push(token);
        }
    }
    stream.tokens = out;
}

/// `bufferWordParts`: every part and catenation of one term, in emission order.
fn graph_parts(o: &WordDelimiter, it: &mut Subwords, term_len: usize) -> Vec<Part> {
    let mut parts = Vec::new();
    let mut word_pos = 0usize;
    let mut last_concat_count = 0usize;
    let mut concat = Concatenation::default();
    let mut concat_all = Concatenation::default();
    let part = |start_pos, end_pos, (start_part, end_part): (usize, usize)| Part {
        start_pos,
        end_pos,
        start_part,
        end_part,
        text: None,
    };
    if o.preserve_original {
        parts.push(part(0, 1, (0, term_len)));
    }
    let flush = |c: &mut Concatenation, parts: &mut Vec<Part>, word_pos: &mut usize, last: &mut usize| {
        if *word_pos == c.start_pos {
            *word_pos += 1;
        }
        *last = c.subwords;
        if c.subwords != 1 || !o.should_generate_parts(c.word_type) {
            parts.push(Part {
                start_pos: c.start_pos,
                end_pos: *word_pos,
                start_part: c.start_part,
                end_part: c.end_part,
                text: Some(c.text.clone()),
            });
        }
        c.clear();
    };
    if it.is_single_word() {
        parts.push(part(word_pos, word_pos + 1, it.span()));
        word_pos += 1;
        it.next();
    } else {
        while it.end != DONE {
            let word_type = it.word_type();
            if !concat.is_empty() && concat.word_type & word_type == 0 {
                flush(&mut concat, &mut parts, &mut word_pos, &mut last_concat_count);
            }
            if o.should_concatenate(word_type) {
                concat.append(&*it, word_pos, true);
            }
            if o.catenate_all {
                concat_all.append(&*it, word_pos, true);
            }
            if o.should_generate_parts(word_type) {
                parts.push(part(word_pos, word_pos + 1, it.span()));
                word_pos += 1;
            }
            it.next();
        }
        if !concat.is_empty() {
            flush(&mut concat, &mut parts, &mut word_pos, &mut last_concat_count);
        }
        if !concat_all.is_empty() {
            if concat_all.subwords > last_concat_count {
                if word_pos == concat_all.start_pos {
                    word_pos += 1;
                }
                parts.push(Part {
                    start_pos: concat_all.start_pos,
                    end_pos: word_pos,
                    start_part: concat_all.start_part,
                    end_part: concat_all.end_part,
                    text: Some(std::mem::take(&mut concat_all.text)),
                });
            }
            concat_all.clear();
        }
    }
    let sorted_from = if o.preserve_original {
        parts[0].end_pos = word_pos.max(1);
        1
    } else {
        0
    };
    // Lucene's stable merge sort: by start, longer first.
    parts[sorted_from..].sort_by(|a, b| a.start_part.cmp(&b.start_part).then(b.end_part.cmp(&a.end_part)));
    parts
}

/// The state of Lucene's WordDelimiterFilter across one term.
struct Classic<'o> {
    o: &'o WordDelimiter,
    accum: i64,
    has_output_token: bool,
    has_output_following_original: bool,
    saved: AnalyzedToken,
    has_illegal_offsets: bool,
}

impl Classic<'_> {
    /// `position(inject)`: the increment of the next part or catenation.
    fn position(&mut self, inject: bool) -> u32 {
        let pos_inc = self.accum;
        if self.has_output_token {
            self.accum = 0;
            return if inject { 0 } else { pos_inc.max(1) as u32 };
        }
        self.has_output_token = true;
        if !self.has_output_following_original {
            self.has_output_following_original = true;
            return 0;
        }
        self.accum = 0;
        pos_inc.max(1) as u32
    }

    /// A token of the saved term's type with cleared attributes.
    fn token(&self, text: &[u16], start: usize, end: usize, position_increment: u32) -> AnalyzedToken {
        AnalyzedToken {
            term: String::from_utf16_lossy(text),
            position_increment,
            position_length: 1,
            start_offset: start,
            end_offset: end,
            token_type: self.saved.token_type,
            keyword: false,
        }
    }

    /// `generatePart`.
    fn part(&mut self, it: &Subwords, single_word: bool) -> AnalyzedToken {
        let (cur, end) = it.span();
        let (s0, e0) = (self.saved.start_offset, self.saved.end_offset);
        let (start, end_offset) = if self.has_illegal_offsets {
            if single_word && s0 + cur <= e0 {
                (s0 + cur, e0)
            } else {
                (s0, e0)
            }
        } else {
            (s0 + cur, s0 + end)
        };
        let inc = self.position(false);
        self.token(&it.text[cur..end], start, end_offset, inc)
    }

    /// `WordDelimiterConcatenation.write` (then cleared).
    fn write(&mut self, c: &mut Concatenation) -> AnalyzedToken {
        let (start, end) = if self.has_illegal_offsets {
            (self.saved.start_offset, self.saved.end_offset)
        } else {
            (self.saved.start_offset + c.start_part, self.saved.start_offset + c.end_part)
        };
        let inc = self.position(true);
        let t = self.token(&c.text, start, end, inc);
        self.accum = 0;
        c.clear();
        t
    }
}

/// Lucene's WordDelimiterFilter.
pub fn apply_classic(o: &WordDelimiter, stream: &mut TokenStream) {
    let mut out = Vec::with_capacity(stream.tokens.len());
    let mut first = true;
    let mut accum: i64 = 0;
    let mut units = Vec::new();
    for mut t in std::mem::take(&mut stream.tokens) {
        units.clear();
        units.extend(t.term.encode_utf16());
        accum += i64::from(t.position_increment);
        let mut it = Subwords::new(&units, o);
        if (it.current == 0 && it.end == units.len() as i64) || o.is_protected(&t.term) {
            t.position_increment = accum.max(0) as u32;
            accum = 0;
            first = false;
            out.push(t);
            continue;
        }
        if it.end == DONE && !o.preserve_original {
            if t.position_increment == 1 && !first {
                accum -= 1;
            }
            continue;
        }
        let has_illegal_offsets = t.end_offset.checked_sub(t.start_offset) != Some(units.len());
        let mut state = Classic {
            o,
            accum,
            has_output_token: false,
            has_output_following_original: !o.preserve_original,
            saved: t.clone(),
            has_illegal_offsets,
        };
        if o.preserve_original {
            t.position_increment = state.accum.max(0) as u32;
            state.accum = 0;
            first = false;
            out.push(t);
        }
        let mut last_concat_count = 0usize;
        let mut concat = Concatenation::default();
        let mut concat_all = Concatenation::default();
        // Buffered parts and catenations with their start offsets and increments as
        // buffered (the sort keys).
        let mut buffered: Vec<AnalyzedToken> = Vec::new();
        // `flushConcatenation`: written (and to be buffered) unless a lone part that is
        // generated anyway.
        let flush = |c: &mut Concatenation, state: &mut Classic, last: &mut usize| -> Option<AnalyzedToken> {
            *last = c.subwords;
            if c.subwords != 1 || !state.o.should_generate_parts(c.word_type) {
                Some(state.write(c))
            } else {
                c.clear();
                None
            }
        };
        loop {
            if it.end == DONE {
                if !concat.is_empty() {
                    if let Some(c) = flush(&mut concat, &mut state, &mut last_concat_count) {
                        buffered.push(c);
                        continue;
                    }
                }
                if !concat_all.is_empty() {
                    if concat_all.subwords > last_concat_count {
                        let c = state.write(&mut concat_all);
                        buffered.push(c);
                        continue;
                    }
                    concat_all.clear();
                }
                break;
            }
            if it.is_single_word() {
                let p = state.part(&it, true);
                out.push(p);
                it.next();
                first = false;
                continue;
            }
            let word_type = it.word_type();
            if !concat.is_empty() && concat.word_type & word_type == 0 {
                let written = flush(&mut concat, &mut state, &mut last_concat_count);
                state.has_output_token = false;
                if let Some(c) = written {
                    buffered.push(c);
                    continue;
                }
            }
            if o.should_concatenate(word_type) {
                concat.append(&it, 0, true);
            }
            if o.catenate_all {
                concat_all.append(&it, 0, false);
            }
            if o.should_generate_parts(word_type) {
                let p = state.part(&it, false);
                buffered.push(p);
            }
            it.next();
        }
        // Lucene's stable sort: by start offset, larger increment first.
        buffered
            .sort_by(|a, b| a.start_offset.cmp(&b.start_offset).then(b.position_increment.cmp(&a.position_increment)));
        for mut b in buffered {
            if first && b.position_increment == 0 {
                b.position_increment = 1;
            }
            first = false;
            out.push(b);
        }
        accum = state.accum;
    }
    stream.tokens = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(o: &WordDelimiter, graph: bool, terms: &[&str]) -> Vec<(String, u32, u32, usize, usize)> {
        let mut offset = 0;
        let tokens = terms
            .iter()
            .map(|t| {
                let n = t.encode_utf16().count();
                let tok = AnalyzedToken::word(t.to_string(), offset, offset + n);
                offset += n + 1;
                tok
            })
            .collect();
        let mut s = TokenStream { tokens, final_offset: offset, final_position_increment: 0 };
        if graph {
            apply_graph(o, &mut s);
        } else {
            apply_classic(o, &mut s);
        }
        s.tokens
            .into_iter()
            .map(|t| (t.term, t.position_increment, t.position_length, t.start_offset, t.end_offset))
            .collect()
    }

    fn terms(v: &[(String, u32, u32, usize, usize)]) -> Vec<&str> {
        v.iter().map(|t| t.0.as_str()).collect()
    }

    #[test]
    fn splits_on_case_digits_and_delimiters() {
        let o = WordDelimiter::default();
        assert_eq!(
            terms(&run(&o, true, &["PowerShot", "SD500", "wi-fi", "O'Neil's"])),
            ["Power", "Shot", "SD", "500", "wi", "fi", "O", "Neil"]
        );
    }

    #[test]
    fn graph_catenations_span_their_parts() {
        let o = WordDelimiter { catenate_words: true, preserve_original: true, ..Default::default() };
        let got = run(&o, true, &["wi-fi"]);
        assert_eq!(
            got,
            [
                ("wi-fi".into(), 1, 2, 0, 5),
                ("wifi".into(), 0, 2, 0, 5),
                ("wi".into(), 0, 1, 0, 2),
                ("fi".into(), 1, 1, 3, 5)
            ]
        );
        let got = run(&o, false, &["wi-fi"]);
        assert_eq!(
            got,
            [
                ("wi-fi".into(), 1, 1, 0, 5),
                ("wi".into(), 0, 1, 0, 2),
                ("wifi".into(), 0, 1, 0, 5),
                ("fi".into(), 1, 1, 3, 5)
            ]
        );
    }

    #[test]
    fn type_tables_parse_as_es_does() {
        let t = TypeTable::parse(&["$ => DIGIT".into(), "\\u200D => ALPHANUM".into()]).unwrap();
        assert_eq!(t, TypeTable::Custom(vec![(0x24, DIGIT), (0x200D, ALPHANUM)]));
        let e = TypeTable::parse(&["ab => DIGIT".into()]).unwrap_err();
        assert_eq!(e.reason(), "Invalid Mapping Rule : [ab => DIGIT]. Only a single character is allowed.");
        let e = TypeTable::parse(&["a => NOPE".into()]).unwrap_err();
        assert_eq!(e.reason(), "Invalid Mapping Rule : [a => NOPE]. Illegal type.");
    }
}
