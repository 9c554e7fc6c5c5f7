//! Lucene's HungarianLightStemmer (Savoy's UniNE stemmer): accents folded, then a case
//! ending, a possessive ending, a plural `k` and a final vowel removed.

use super::utf16::{ends_with, fold_vowels, u, with_units};

const ACCENTS: &[(char, &str)] = &[('a', "á"), ('e', "ëé"), ('i', "í"), ('o', "óőõö"), ('u', "úűũûü")];

fn is_vowel(c: u16) -> bool {
    "aeiouy".encode_utf16().any(|v| v == c)
}

fn ends_any(s: &[u16], len: usize, endings: &[&str]) -> bool {
    endings.iter().any(|e| ends_with(s, len, e))
}

/// The light Hungarian stem of `term` (expected lowercased).
pub fn stem(term: &str) -> String {
    with_units(term, |s, len| {
        fold_vowels(s, len, ACCENTS);
        let len = remove_case(s, len);
        let len = remove_possessive(s, len);
        let len = remove_plural(s, len);
        if len > 3 && "aeio".encode_utf16().any(|c| c == s[len - 1]) {
            return len - 1;
        }
        len
    })
}

fn remove_case(s: &[u16], len: usize) -> usize {
    if len > 6 && ends_with(s, len, "kent") {
        return len - 4;
    }
    if len > 5 {
        let three = ["nak", "nek", "val", "vel", "ert", "rol", "ban", "ben", "bol", "nal", "nel", "hoz", "hez", "tol"];
        if ends_any(s, len, &three) {
            return len - 3;
        }
        if ends_any(s, len, &["al", "el"]) && !is_vowel(s[len - 3]) && s[len - 3] == s[len - 4] {
            return len - 3;
        }
    }
    if len > 4 {
        if ends_any(s, len, &["at", "et", "ot", "va", "ve", "ra", "re", "ba", "be", "ul", "ig"]) {
            return len - 2;
        }
        if ends_any(s, len, &["on", "en"]) && !is_vowel(s[len - 3]) {
            return len - 2;
        }
        let last = s[len - 1];
        if last == u('t') || last == u('n') {
            return len - 1;
        }
        if (last == u('a') || last == u('e')) && s[len - 2] == s[len - 3] && !is_vowel(s[len - 2]) {
            return len - 2;
        }
    }
    len
}

fn remove_possessive(s: &[u16], len: usize) -> usize {
    if len > 6 {
        if !is_vowel(s[len - 5]) && ends_any(s, len, &["atok", "otok", "etek"]) {
            return len - 4;
        }
        if ends_any(s, len, &["itek", "itok"]) {
            return len - 4;
        }
    }
    if len > 5 {
        if !is_vowel(s[len - 4]) && ends_any(s, len, &["unk", "tok", "tek"]) {
            return len - 3;
        }
        if is_vowel(s[len - 4]) && ends_with(s, len, "juk") {
            return len - 3;
        }
        if ends_with(s, len, "ink") {
            return len - 3;
        }
    }
    if len > 4 {
        if !is_vowel(s[len - 3]) && ends_any(s, len, &["am", "em", "om", "ad", "ed", "od", "uk"]) {
            return len - 2;
        }
        if is_vowel(s[len - 3]) && ends_any(s, len, &["nk", "ja", "je"]) {
            return len - 2;
        }
        if ends_any(s, len, &["im", "id", "ik"]) {
            return len - 2;
        }
    }
    if len > 3 {
        let (last, before) = (s[len - 1], s[len - 2]);
        let cut = match char::from_u32(last as u32) {
            Some('a' | 'e') => !is_vowel(before),
            Some('m' | 'd') => is_vowel(before),
            Some('i') => true,
            _ => false,
        };
        if cut {
            return len - 1;
        }
    }
    len
}

fn remove_plural(s: &[u16], len: usize) -> usize {
    if len > 3 && s[len - 1] == u('k') {
        let vowel_before = "aoe".encode_utf16().any(|c| c == s[len - 2]);
        return if vowel_before && len > 4 { len - 2 } else { len - 1 };
    }
    len
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_ne!(super::stem("könyvekben"), "könyvekben");
    }
}
