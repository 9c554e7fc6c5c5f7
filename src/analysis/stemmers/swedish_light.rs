//! Lucene's SwedishLightStemmer: a final `s`, then the longest of a few inflectional
//! suffix groups (each with its minimum word length), or one final letter.

use super::utf16::{cut_first_ending, ends_with, with_units};

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
        if len > 4 && ends_with(s, len, "s") {
            len -= 1;
        }
        cut_first_ending(s, len, GROUPS).unwrap_or_else(|| {
            if len > 3 && ["t", "a", "e", "n"].iter().any(|c| ends_with(s, len, c)) {
                len - 1
            } else {
                len
            }
        })
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
