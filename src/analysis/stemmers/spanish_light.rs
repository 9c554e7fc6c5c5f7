//! Lucene's SpanishLightStemmer (Savoy's CLEF-2001 light stemmer): accents folded, then
//! one plural or final vowel removed.

use super::utf16::{fold_vowels, u, with_units};

const ACCENTS: &[(char, &str)] = &[('a', "àáâä"), ('o', "òóôö"), ('e', "èéêë"), ('u', "ùúûü"), ('i', "ìíîï")];

/// The light Spanish stem of `term`.
pub fn stem(term: &str) -> String {
    with_units(term, |s, len| {
        if len < 5 {
            return len;
        }
        fold_vowels(s, len, ACCENTS);
        let at = |i: usize| s[len - i];
        match char::from_u32(at(1) as u32) {
            Some('o' | 'a' | 'e') => len - 1,
            Some('s') => {
                if at(2) == u('e') && at(3) == u('s') && at(4) == u('e') {
                    len - 2
                } else if at(2) == u('e') && at(3) == u('c') {
                    s[len - 3] = u('z');
                    len - 2
                } else if matches!(char::from_u32(at(2) as u32), Some('o' | 'a' | 'e')) {
                    len - 2
                } else {
                    len
                }
            }
            _ => len,
        }
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_eq!(super::stem("nacionalidades"), "nacionalidad");
        assert_eq!(super::stem("luces"), "luz");
        assert_eq!(super::stem("caballos"), "caball");
        assert_eq!(super::stem("café"), "café");
    }
}
