//! Lucene's SwedishLightStemmer: a final `s`, then the longest of a few inflectional
//! suffix groups (each with its minimum word length), or one final letter.

use super::utf16::with_units;

/// `(word longer than, suffixes)`, tried in order; the first group with a match cuts it.
const GROUPS: &[(usize, &[&str])] = &[
    (7, &["elser", "heten"]),
    (6, &["arne", "erna", "ande", "else", "aste", "orna", "aren"]),
    (5, &["are", "ast", "het"]),
    (4, &["ar", "er", "or", "en", "at", "te", "et"]),
];

/// The light Swedish stem of `term`.
pub fn stem(term: &str) -> String {
    with_units(term, |s, mut len| {
        let ends = |len: usize, suffix: &str| {
            let n = suffix.len();
            len >= n && s[len - n..len].iter().copied().eq(suffix.bytes().map(u16::from))
        };
        if len > 4 && ends(len, "s") {
            len -= 1;
        }
        for (longer_than, suffixes) in GROUPS {
            if len > *longer_than {
                if let Some(suffix) = suffixes.iter().find(|suffix| ends(len, suffix)) {
                    return len - suffix.len();
                }
            }
        }
        if len > 3 && ["t", "a", "e", "n"].iter().any(|c| ends(len, c)) {
            return len - 1;
        }
        len
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_eq!(super::stem("kvinnornas"), "kvinn");
        assert_eq!(super::stem("hundarna"), "hundarn");
    }
}
