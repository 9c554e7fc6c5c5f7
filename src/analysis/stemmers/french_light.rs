//! Lucene's FrenchLightStemmer (Savoy's "UniNE" light stemmer): plural `-s`/`-x`, one
//! derivational suffix rewritten, then a normalization step (accents folded, doubled
//! letters merged, final `-ie`, `-r`, `-e` dropped).

use super::utf16::{u, with_units};
use crate::analysis::chars::is_letter;

fn ends(s: &[u16], len: usize, suffix: &str) -> bool {
    let suffix: Vec<u16> = suffix.encode_utf16().collect();
    len >= suffix.len() && s[len - suffix.len()..len] == suffix[..]
}

/// Whether a UTF-16 unit is a letter (Java's `Character.isLetter(char)`: a surrogate is
/// not).
fn letter(unit: u16) -> bool {
    char::from_u32(unit as u32).is_some_and(is_letter)
}

/// Sets the units before `len` to `tail` (its last unit at `len - 1`).
fn set_tail(s: &mut [u16], len: usize, tail: &str) {
    let tail: Vec<u16> = tail.encode_utf16().collect();
    s[len - tail.len()..len].copy_from_slice(&tail);
}

/// The light French stem of `term`.
pub fn stem(term: &str) -> String {
    with_units(term, |s, len| {
        let len = strip(s, len);
        norm(s, len)
    })
}

/// The suffix steps; returns the length `norm` then works on.
fn strip(s: &mut [u16], mut len: usize) -> usize {
    if len > 5 && s[len - 1] == u('x') {
        if s[len - 3] == u('a') && s[len - 2] == u('u') && s[len - 4] != u('e') {
            s[len - 2] = u('l');
        }
        len -= 1;
    }
    if len > 3 && s[len - 1] == u('x') {
        len -= 1;
    }
    if len > 3 && s[len - 1] == u('s') {
        len -= 1;
    }
    // (minimum length, suffix, units removed, new tail)
    let rewrites: &[(usize, &str, usize, &str)] = &[(9, "issement", 6, "r"), (8, "issant", 4, "r")];
    for &(min, suffix, cut, tail) in rewrites {
        if len > min && ends(s, len, suffix) {
            len -= cut;
            set_tail(s, len, tail);
            return len;
        }
    }
    if len > 6 && ends(s, len, "ement") {
        len -= 4;
        if len > 3 && ends(s, len, "ive") {
            len -= 1;
            set_tail(s, len, "f");
        }
        return len;
    }
    let rewrites: &[(usize, &str, usize, &str)] = &[
        (11, "ficatrice", 5, "er"),
        (10, "ficateur", 4, "er"),
        (9, "catrice", 3, "quer"),
        (8, "cateur", 2, "quer"),
        (8, "atrice", 4, "er"),
        (7, "ateur", 3, "er"),
    ];
    for &(min, suffix, cut, tail) in rewrites {
        if len > min && ends(s, len, suffix) {
            len -= cut;
            set_tail(s, len, tail);
            return len;
        }
    }
    if len > 6 && ends(s, len, "trice") {
        len -= 1;
        set_tail(s, len, "eur");
    }
    if len > 5 && ends(s, len, "ième") {
        return len - 4;
    }
    if len > 7 && ends(s, len, "teuse") {
        len -= 2;
        set_tail(s, len, "r");
        return len;
    }
    if len > 6 && ends(s, len, "teur") {
        len -= 1;
        set_tail(s, len, "r");
        return len;
    }
    if len > 5 && ends(s, len, "euse") {
        return len - 2;
    }
    if len > 8 && ends(s, len, "ère") {
        len -= 1;
        s[len - 2] = u('e');
        return len;
    }
    if len > 7 && ends(s, len, "ive") {
        len -= 1;
        set_tail(s, len, "f");
        return len;
    }
    if len > 4 && (ends(s, len, "folle") || ends(s, len, "molle")) {
        len -= 2;
        set_tail(s, len, "u");
        return len;
    }
    if len > 9 && ends(s, len, "nnelle") {
        return len - 5;
    }
    if len > 9 && ends(s, len, "nnel") {
        return len - 3;
    }
    if len > 4 && ends(s, len, "ète") {
        len -= 1;
        s[len - 2] = u('e');
    }
    if len > 8 && ends(s, len, "ique") {
        len -= 4;
    }
    if len > 8 && ends(s, len, "esse") {
        return len - 3;
    }
    if len > 7 && ends(s, len, "inage") {
        return len - 3;
    }
    if len > 9 && ends(s, len, "isation") {
        len -= 7;
        if len > 5 && ends(s, len, "ual") {
            s[len - 2] = u('e');
        }
        return len;
    }
    if len > 9 && ends(s, len, "isateur") {
        return len - 7;
    }
    if len > 8 && (ends(s, len, "ation") || ends(s, len, "ition")) {
        return len - 5;
    }
    len
}

/// The normalization every stem goes through.
fn norm(s: &mut Vec<u16>, mut len: usize) -> usize {
    if len > 4 {
        for unit in s.iter_mut().take(len) {
            let base = match char::from_u32(*unit as u32) {
                Some('à' | 'á' | 'â') => 'a',
                Some('ô') => 'o',
                Some('è' | 'é' | 'ê') => 'e',
                Some('ù' | 'û') => 'u',
                Some('î') => 'i',
                Some('ç') => 'c',
                _ => continue,
            };
            *unit = u(base);
        }
        // A letter repeated right after itself is written once.
        let mut previous = s[0];
        let mut i = 1;
        while i < len {
            if s[i] == previous && letter(previous) {
                s.remove(i);
                len -= 1;
            } else {
                previous = s[i];
                i += 1;
            }
        }
    }
    if len > 4 && ends(s, len, "ie") {
        len -= 2;
    }
    if len > 4 {
        for drop in ['r', 'e', 'e'] {
            if s[len - 1] == u(drop) {
                len -= 1;
            }
        }
        if s[len - 1] == s[len - 2] && letter(s[len - 1]) {
            len -= 1;
        }
    }
    len
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_eq!(super::stem("chevaux"), "cheval");
        assert_eq!(super::stem("nationalisation"), "national");
        assert_eq!(super::stem("développements"), "develop");
    }
}
