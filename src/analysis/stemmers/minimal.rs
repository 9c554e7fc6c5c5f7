//! Lucene's minimal (plural-only) stemmers for French and German, Savoy's.

use super::utf16::{u, with_units};

/// Lucene's FrenchMinimalStemmer: `-aux` to `-al`, then a final `s`, `r`, `e`, `é` and a
/// doubled final unit dropped.
pub fn french(term: &str) -> String {
    with_units(term, |s, mut len| {
        if len < 6 {
            return len;
        }
        if s[len - 1] == u('x') {
            if s[len - 3] == u('a') && s[len - 2] == u('u') {
                s[len - 2] = u('l');
            }
            return len - 1;
        }
        for drop in ['s', 'r', 'e', 'é'] {
            if s[len - 1] == u(drop) {
                len -= 1;
            }
        }
        // Any doubled unit, letter or not, as Lucene has it.
        if s[len - 1] == s[len - 2] {
            len -= 1;
        }
        len
    })
}

/// Lucene's GermanMinimalStemmer: umlauts folded, then `-nen`, `-en`, `-se`, `-es`,
/// `-er`, or one of `n`, `e`, `s`, `r` removed.
pub fn german(term: &str) -> String {
    with_units(term, |s, len| {
        if len < 5 {
            return len;
        }
        for unit in s.iter_mut().take(len) {
            let base = match char::from_u32(*unit as u32) {
                Some('ä') => 'a',
                Some('ö') => 'o',
                Some('ü') => 'u',
                _ => continue,
            };
            *unit = u(base);
        }
        if len > 6 && s[len - 3] == u('n') && s[len - 2] == u('e') && s[len - 1] == u('n') {
            return len - 3;
        }
        let last = s[len - 1];
        if len > 5 {
            let pair = [('n', 'e'), ('e', 's'), ('s', 'e'), ('r', 'e')];
            if pair.iter().any(|(end, before)| last == u(*end) && s[len - 2] == u(*before)) {
                return len - 2;
            }
        }
        if "nesr".encode_utf16().any(|c| c == last) {
            return len - 1;
        }
        len
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_eq!(super::french("chevaux"), "cheval");
        assert_eq!(super::german("häusern"), "hauser");
    }
}
