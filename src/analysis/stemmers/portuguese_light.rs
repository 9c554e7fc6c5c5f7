//! Lucene's PortugueseLightStemmer (Savoy's "UniNE" light stemmer): plural suffixes, the
//! feminine normalized to the masculine, a final vowel dropped, accents folded.

use super::utf16::{fold_vowels, u, with_units};

const ACCENTS: &[(char, &str)] =
    &[('a', "àáâäã"), ('o', "òóôöõ"), ('e', "èéêë"), ('u', "ùúûü"), ('i', "ìíîï"), ('c', "ç")];

fn ends(s: &[u16], len: usize, suffix: &str) -> bool {
    let suffix: Vec<u16> = suffix.encode_utf16().collect();
    len >= suffix.len() && s[len - suffix.len()..len] == suffix[..]
}

/// Sets the units before `len` to `tail`.
fn set_tail(s: &mut [u16], len: usize, tail: &str) {
    let tail: Vec<u16> = tail.encode_utf16().collect();
    s[len - tail.len()..len].copy_from_slice(&tail);
}

/// The light Portuguese stem of `term`.
pub fn stem(term: &str) -> String {
    with_units(term, |s, len| {
        if len < 4 {
            return len;
        }
        let mut len = remove_suffix(s, len);
        if len > 3 && s[len - 1] == u('a') {
            len = norm_feminine(s, len);
        }
        if len > 4 && "eao".encode_utf16().any(|c| c == s[len - 1]) {
            len -= 1;
        }
        fold_vowels(s, len, ACCENTS);
        len
    })
}

fn remove_suffix(s: &mut [u16], len: usize) -> usize {
    if len > 4 && ends(s, len, "es") && "rslz".encode_utf16().any(|c| c == s[len - 3]) {
        return len - 2;
    }
    if len > 3 && ends(s, len, "ns") {
        set_tail(s, len - 1, "m");
        return len - 1;
    }
    if len > 4 && (ends(s, len, "eis") || ends(s, len, "éis")) {
        set_tail(s, len - 1, "el");
        return len - 1;
    }
    if len > 4 && ends(s, len, "ais") {
        set_tail(s, len - 1, "l");
        return len - 1;
    }
    if len > 4 && ends(s, len, "óis") {
        set_tail(s, len - 1, "ol");
        return len - 1;
    }
    if len > 4 && ends(s, len, "is") {
        set_tail(s, len, "l");
        return len;
    }
    if len > 3 && (ends(s, len, "ões") || ends(s, len, "ães")) {
        set_tail(s, len - 1, "ão");
        return len - 1;
    }
    if len > 6 && ends(s, len, "mente") {
        return len - 5;
    }
    if len > 3 && s[len - 1] == u('s') {
        return len - 1;
    }
    len
}

fn norm_feminine(s: &mut [u16], len: usize) -> usize {
    if len > 7 && ["inha", "iaca", "eira"].iter().any(|f| ends(s, len, f)) {
        set_tail(s, len, "o");
        return len;
    }
    if len > 6 {
        if ["osa", "ica", "ida", "ada", "iva", "ama"].iter().any(|f| ends(s, len, f)) {
            set_tail(s, len, "o");
            return len;
        }
        if ends(s, len, "ona") {
            set_tail(s, len - 1, "ão");
            return len - 1;
        }
        if ends(s, len, "ora") {
            return len - 1;
        }
        if ends(s, len, "esa") {
            set_tail(s, len - 2, "ê");
            return len - 1;
        }
        if ends(s, len, "na") {
            set_tail(s, len, "o");
            return len;
        }
    }
    len
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_eq!(super::stem("canções"), "canca");
        assert_eq!(super::stem("papéis"), "papel");
        assert_eq!(super::stem("rapidamente"), "rapid");
    }
}
