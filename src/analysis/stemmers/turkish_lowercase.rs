//! Lucene's TurkishLowerCaseFilter: `I` lowercases to dotless `ı`, unless a combining dot
//! above follows it (with other non-spacing marks between), which then makes it `i` and
//! is removed; every other character lowercases as Java lowercases it.

use crate::analysis::chars::{java_type, to_lower};

const COMBINING_DOT_ABOVE: char = '\u{307}';
/// `Character.NON_SPACING_MARK`.
const JAVA_NON_SPACING_MARK: u8 = 6;

/// The Turkish lowercase form of `term`.
pub fn lowercase(term: &str) -> String {
    let chars: Vec<char> = term.chars().collect();
    let mut out = String::with_capacity(term.len());
    // Whether the character is an `I` or a non-spacing mark after one.
    let mut i_or_after = false;
    for (i, &c) in chars.iter().enumerate() {
        i_or_after = c == 'I' || (i_or_after && java_type(c) == JAVA_NON_SPACING_MARK);
        if i_or_after {
            if c == COMBINING_DOT_ABOVE {
                continue;
            }
            if c == 'I' {
                let dot_follows = chars[i + 1..]
                    .iter()
                    .take_while(|m| java_type(**m) == JAVA_NON_SPACING_MARK)
                    .any(|m| *m == COMBINING_DOT_ABOVE);
                out.push(if dot_follows { 'i' } else { 'ı' });
                i_or_after = dot_follows;
                continue;
            }
        }
        out.push(to_lower(c));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn dotted_and_dotless() {
        assert_eq!(super::lowercase("ISPARTA"), "ısparta");
        assert_eq!(super::lowercase("I\u{307}STANBUL"), "istanbul");
        assert_eq!(super::lowercase("İstanbul"), "istanbul");
    }
}
