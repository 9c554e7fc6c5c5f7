//! Lucene's RussianLightStemmer (Dolamic and Savoy): case endings, then a final soft
//! sign, `и` or doubled `н`.

use super::utf16::{cut_first_ending, u, with_units};

const CASES: &[(usize, &[&str])] = &[
    (6, &["иями", "оями"]),
    (5, &["иям", "иях", "оях", "ями", "оям", "оьв", "ами", "его", "ему", "ери", "ими", "ого", "ому", "ыми", "оев"]),
    (
        4,
        &[
            "ая", "яя", "ях", "юю", "ах", "ею", "их", "ия", "ию", "ьв", "ою", "ую", "ям", "ых", "ея", "ам", "ем", "ей",
            "ём", "ев", "ий", "им", "ое", "ой", "ом", "ов", "ые", "ый", "ым", "ми",
        ],
    ),
    (3, &["а", "е", "и", "о", "у", "й", "ы", "я", "ь"]),
];

/// The light Russian stem of `term` (expected lowercased).
pub fn stem(term: &str) -> String {
    with_units(term, |s, len| {
        let len = cut_first_ending(s, len, CASES).unwrap_or(len);
        if len > 3 {
            let last = s[len - 1];
            if last == u('ь') || last == u('и') || (last == u('н') && s[len - 2] == u('н')) {
                return len - 1;
            }
        }
        len
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_eq!(super::stem("книгами"), "книг");
        assert_eq!(super::stem("длинный"), "длин");
    }
}
