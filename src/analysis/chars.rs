//! Java's view of characters, as Lucene's tokenizers and filters consult it: general
//! categories, `isLetter`, `isDigit`, `isWhitespace` and the simple case mappings of the
//! oracle's JVM (tables in [`java_chars`](super::java_chars)), and UTF-16 lengths, the unit
//! of Lucene's offsets.

use super::java_chars::{CATEGORIES, LOWER, UPPER};

/// `Character.UNASSIGNED`.
const UNASSIGNED: u8 = 0;
/// `Character.DECIMAL_DIGIT_NUMBER`.
pub const DECIMAL_DIGIT_NUMBER: u8 = 9;

/// Where the code point `c` stands against the range `lo..=hi`: the comparison a binary
/// search over sorted, disjoint ranges needs.
pub fn against_range(lo: u32, hi: u32, c: u32) -> std::cmp::Ordering {
    if hi < c {
        std::cmp::Ordering::Less
    } else if lo > c {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Equal
    }
}

/// `Character.getType(c)`.
pub fn java_type(c: char) -> u8 {
    let c = c as u32;
    match CATEGORIES.binary_search_by(|&(lo, hi, _)| against_range(lo, hi, c)) {
        Ok(i) => CATEGORIES[i].2,
        Err(_) => UNASSIGNED,
    }
}

/// `Character.isLetter(c)`: general categories Lu, Ll, Lt, Lm, Lo.
pub fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    (1..=5).contains(&java_type(c))
}

/// `Character.isDigit(c)`: general category Nd.
pub fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    java_type(c) == DECIMAL_DIGIT_NUMBER
}

/// `Character.isWhitespace(c)`: space, line and paragraph separators but the no-break
/// spaces, and the ASCII controls tab to carriage return and the separators 0x1C-0x1F.
pub fn is_whitespace(c: char) -> bool {
    match c {
        '\t'..='\r' | '\u{1C}'..='\u{1F}' => true,
        '\u{A0}' | '\u{2007}' | '\u{202F}' => false,
        _ => (12..=14).contains(&java_type(c)),
    }
}

/// Java's punctuation categories (connector, dash, open, close, initial and final quote,
/// other).
pub fn is_punctuation(c: char) -> bool {
    matches!(java_type(c), 20..=24 | 29 | 30)
}

/// Java's symbol categories (math, currency, modifier, other).
pub fn is_symbol(c: char) -> bool {
    matches!(java_type(c), 25..=28)
}

fn mapped(table: &[(u32, u32)], c: char) -> char {
    match table.binary_search_by_key(&(c as u32), |&(from, _)| from) {
        Ok(i) => char::from_u32(table[i].1).unwrap_or(c),
        Err(_) => c,
    }
}

/// `Character.toLowerCase(int)`: the simple one-to-one mapping.
pub fn to_lower(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    mapped(LOWER, c)
}

/// `Character.toUpperCase(int)`: the simple one-to-one mapping.
pub fn to_upper(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_uppercase();
    }
    mapped(UPPER, c)
}

/// The decimal value of a DECIMAL_DIGIT_NUMBER character (`Character.getNumericValue`):
/// Unicode lays every decimal digit out in runs of ten from zero.
pub fn decimal_value(c: char) -> Option<u32> {
    let cp = c as u32;
    let i = CATEGORIES.partition_point(|&(_, hi, _)| hi < cp);
    match CATEGORIES.get(i) {
        Some(&(lo, _, DECIMAL_DIGIT_NUMBER)) if lo <= cp => Some((cp - lo) % 10),
        _ => None,
    }
}

/// The length of `s` in UTF-16 code units, the unit of Java strings and Lucene offsets.
pub fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    s.chars().map(char::len_utf16).sum()
}

/// Maps byte offsets of one string to UTF-16 offsets, walking forward (offsets must be
/// asked in non-decreasing order).
pub struct Utf16Cursor<'s> {
    text: &'s str,
    byte: usize,
    unit: usize,
}

impl<'s> Utf16Cursor<'s> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'s str) -> Self {
        Utf16Cursor { text, byte: 0, unit: 0 }
    }

    /// The UTF-16 offset of byte offset `at` (a char boundary at or after the last asked).
    pub fn unit_of(&mut self, at: usize) -> usize {
        if at < self.byte {
            self.byte = 0;
            self.unit = 0;
        }
        self.unit += utf16_len(&self.text[self.byte..at]);
        self.byte = at;
        self.unit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_classes() {
        assert!(is_letter('é') && !is_letter('\u{0301}') && !is_letter('Ⅻ'));
        assert!(is_digit('٣') && !is_digit('²'));
        assert!(is_whitespace('\u{2003}') && !is_whitespace('\u{A0}') && is_whitespace('\u{1F}'));
        assert!(is_punctuation('-') && is_symbol('$') && !is_symbol('a'));
        assert_eq!(to_lower('İ'), 'i');
        assert_eq!(to_upper('ß'), 'ß');
        assert_eq!(decimal_value('٣'), Some(3));
        assert_eq!(decimal_value('𝟗'), Some(9));
        assert_eq!(decimal_value('x'), None);
        assert_eq!(utf16_len("a😀"), 3);
    }
}
