//! Lucene's SoraniNormalizer and SoraniStemmer: letter variants folded to Sorani's
//! (yeh, keheh, ae, rreh), harakat and format characters removed; then postpositions,
//! possessive pronouns and the noun endings removed.

use super::utf16::{ends_with, with_units};
use crate::analysis::chars::java_type;

const FARSI_YEH: u16 = 0x06CC;
const HEH: u16 = 0x0647;
const AE: u16 = 0x06D5;
const RREH: u16 = 0x0695;
/// `Character.FORMAT`.
const JAVA_FORMAT: u8 = 16;

/// SoraniNormalizationFilter's form of `term`.
pub fn normalize(term: &str) -> String {
    with_units(term, |s, mut len| {
        let mut i = 0;
        while i < len {
            let delete = match s[i] {
                0x064A | 0x0649 => {
                    s[i] = FARSI_YEH;
                    false
                }
                0x0643 => {
                    s[i] = 0x06A9;
                    false
                }
                // zero-width non-joiner: a heh before it is the vowel ae
                0x200C => {
                    if i > 0 && s[i - 1] == HEH {
                        s[i - 1] = AE;
                    }
                    true
                }
                HEH => {
                    if i == len - 1 {
                        s[i] = AE;
                    }
                    false
                }
                0x0629 => {
                    s[i] = AE;
                    false
                }
                0x06BE => {
                    s[i] = HEH;
                    false
                }
                0x0631 => {
                    if i == 0 {
                        s[i] = RREH;
                    }
                    false
                }
                0x0692 => {
                    s[i] = RREH;
                    false
                }
                0x0640 | 0x064B..=0x0652 => true,
                c => char::from_u32(c as u32).is_some_and(|c| java_type(c) == JAVA_FORMAT),
            };
            if delete {
                s.copy_within(i + 1..len, i);
                len -= 1;
            } else {
                i += 1;
            }
        }
        len
    })
}

/// `(word longer than, ending, units removed)`: the noun endings, tried in order; the
/// first match ends stemming.
const NOUN_ENDINGS: &[(usize, &str, usize)] = &[
    // indefinite singular ezafe
    (6, "ێکی", 3),
    (7, "یەکی", 4),
    // indefinite singular
    (5, "ێک", 2),
    (6, "یەک", 3),
    // definite singular
    (6, "ەکە", 3),
    (5, "کە", 2),
    // definite plural
    (7, "ەکان", 4),
    (6, "کان", 3),
    // indefinite plural ezafe
    (7, "یانی", 4),
    (6, "انی", 3),
    // indefinite plural
    (6, "یان", 3),
    (5, "ان", 2),
    // demonstrative plural
    (7, "یانە", 4),
    (6, "انە", 3),
    // demonstrative singular
    (5, "ایە", 2),
    (5, "ەیە", 2),
    (4, "ە", 1),
    // absolute singular ezafe
    (4, "ی", 1),
];

/// The Sorani light stem of `term` (expected normalized).
pub fn stem(term: &str) -> String {
    with_units(term, |s, mut len| {
        // postposition
        if len > 5 && ends_with(s, len, "دا") {
            len -= 2;
        } else if len > 4 && ends_with(s, len, "نا") {
            len -= 1;
        } else if len > 6 && ends_with(s, len, "ەوە") {
            len -= 3;
        }
        // possessive pronoun
        if len > 6 && ["مان", "یان", "تان"].iter().any(|e| ends_with(s, len, e)) {
            len -= 3;
        }
        for (longer_than, ending, cut) in NOUN_ENDINGS {
            if len > *longer_than && ends_with(s, len, ending) {
                return len - cut;
            }
        }
        len
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn normalizes_and_stems() {
        assert_eq!(super::normalize("\u{64A}"), "\u{6CC}");
        assert_eq!(super::normalize("\u{647}\u{200C}\u{628}"), "\u{6D5}\u{628}");
        assert_eq!(super::stem("پیاوەکان"), "پیاو");
    }
}
