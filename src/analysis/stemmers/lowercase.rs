//! The languages' lowercase filters. Lucene's TurkishLowerCaseFilter: `I` lowercases to
//! dotless `ı`, unless a combining dot above follows it (with other non-spacing marks
//! between), which then makes it `i` and is removed; every other character lowercases as
//! Java lowercases it. IrishLowerCaseFilter: a `n` or `t` before an uppercase vowel gets a
//! hyphen after it (`nAthair` → `n-athair`), then each UTF-16 unit is lowercased.

use crate::analysis::chars::{java_type, to_lower};

const COMBINING_DOT_ABOVE: char = '\u{307}';
/// `Character.NON_SPACING_MARK`.
const JAVA_NON_SPACING_MARK: u8 = 6;

/// The Turkish lowercase form of `term`.
pub fn turkish(term: &str) -> String {
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

/// The Irish lowercase form of `term`.
pub fn irish(term: &str) -> String {
    let mut out = String::with_capacity(term.len() + 1);
    let mut chars = term.chars().peekable();
    let mut first = chars.next();
    if let (Some(c @ ('n' | 't')), Some(next)) = (first, chars.peek()) {
        if "AEIOUÁÉÍÓÚ".contains(*next) {
            out.push(c);
            out.push('-');
            first = None;
        }
    }
    // Lucene lowercases `char`s: a character outside the BMP stays as it is.
    let lower = |c: char| if (c as u32) < 0x10000 { to_lower(c) } else { c };
    out.extend(first.into_iter().chain(chars).map(lower));
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn turkish_dotted_and_dotless() {
        assert_eq!(super::turkish("ISPARTA"), "ısparta");
        assert_eq!(super::turkish("I\u{307}STANBUL"), "istanbul");
        assert_eq!(super::turkish("İstanbul"), "istanbul");
    }

    #[test]
    fn irish_prefixes() {
        assert_eq!(super::irish("nAthair"), "n-athair");
        assert_eq!(super::irish("tÉan"), "t-éan");
        assert_eq!(super::irish("Nathair"), "nathair");
    }
}
