//! Lucene's ItalianLightStemmer (Savoy's CLEF-2001 light stemmer): accents folded, then
//! the final vowel (with a preceding `i` or `h` for some) removed.

use super::utf16::{fold_vowels, u, with_units};

const ACCENTS: &[(char, &str)] = &[('a', "àáâä"), ('o', "òóôö"), ('e', "èéêë"), ('u', "ùúûü"), ('i', "ìíîï")];

/// The light Italian stem of `term`.
pub fn stem(term: &str) -> String {
    with_units(term, |s, len| {
        if len < 6 {
            return len;
        }
        fold_vowels(s, len, ACCENTS);
        let before = s[len - 2];
        // The units that, before the final vowel, go with it.
        let with: &[char] = match char::from_u32(s[len - 1] as u32) {
            Some('e') => &['i', 'h'],
            Some('i') => &['h', 'i'],
            Some('a' | 'o') => &['i'],
            _ => return len,
        };
        if with.iter().any(|c| u(*c) == before) {
            len - 2
        } else {
            len - 1
        }
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_eq!(super::stem("ospedali"), "ospedal");
        assert_eq!(super::stem("nazionalità"), "nazionalit");
        assert_eq!(super::stem("banche"), "banc");
        assert_eq!(super::stem("gatto"), "gatto");
    }
}
