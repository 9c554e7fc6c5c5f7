//! Lucene's FinnishLightStemmer (Savoy's CLEF-2003 stemmer): `ä`, `å`, `ö` folded, then
//! three suffix steps and two normalizations (the last one undoubles `kk`, `pp`, `tt`).

use super::utf16::{ends_with, u, with_units};

fn is_vowel(c: u16) -> bool {
    "aeiouy".encode_utf16().any(|v| v == c)
}

fn ends_any(s: &[u16], len: usize, endings: &[&str]) -> bool {
    endings.iter().any(|e| ends_with(s, len, e))
}

/// The light Finnish stem of `term` (expected lowercased).
pub fn stem(term: &str) -> String {
    with_units(term, |s, len| {
        if len < 4 {
            return len;
        }
        for c in s.iter_mut().take(len) {
            if *c == u('ä') || *c == u('å') {
                *c = u('a');
            } else if *c == u('ö') {
                *c = u('o');
            }
        }
        let len = step1(s, len);
        let len = step2(s, len);
        let len = step3(s, len);
        let len = norm1(s, len);
        norm2(s, len)
    })
}

fn step1(s: &[u16], mut len: usize) -> usize {
    // The clitics -kin and -ko, as many times as they end the word.
    while len > 8 {
        if ends_with(s, len, "kin") {
            len -= 3;
        } else if ends_with(s, len, "ko") {
            len -= 2;
        } else {
            break;
        }
    }
    if len > 11 {
        if ends_with(s, len, "dellinen") {
            return len - 8;
        }
        if ends_with(s, len, "dellisuus") {
            return len - 9;
        }
    }
    len
}

fn step2(s: &[u16], len: usize) -> usize {
    if len > 5 {
        if ends_any(s, len, &["lla", "tse", "sti"]) {
            return len - 3;
        }
        if ends_with(s, len, "ni") {
            return len - 2;
        }
        if ends_with(s, len, "aa") {
            return len - 1;
        }
    }
    len
}

fn step3(s: &mut [u16], len: usize) -> usize {
    if len > 8 {
        if ends_with(s, len, "nnen") {
            s[len - 4] = u('s');
            return len - 3;
        }
        if ends_with(s, len, "ntena") {
            s[len - 5] = u('s');
            return len - 4;
        }
        if ends_with(s, len, "tten") {
            return len - 4;
        }
        if ends_with(s, len, "eiden") {
            return len - 5;
        }
    }
    if len > 6 {
        if ends_any(s, len, &["neen", "niin", "seen", "teen", "inen"]) {
            return len - 4;
        }
        if s[len - 3] == u('h') && is_vowel(s[len - 2]) && s[len - 1] == u('n') {
            return len - 3;
        }
        if ends_with(s, len, "den") {
            s[len - 3] = u('s');
            return len - 2;
        }
        if ends_with(s, len, "ksen") {
            s[len - 4] = u('s');
            return len - 3;
        }
        if ends_any(s, len, &["ssa", "sta", "lla", "lta", "tta", "ksi", "lle"]) {
            return len - 3;
        }
    }
    if len > 5 {
        if ends_any(s, len, &["na", "ne"]) {
            return len - 2;
        }
        if ends_with(s, len, "nei") {
            return len - 3;
        }
    }
    if len > 4 {
        if ends_any(s, len, &["ja", "ta"]) {
            return len - 2;
        }
        let last = s[len - 1];
        if last == u('a') {
            return len - 1;
        }
        if last == u('n') {
            return if is_vowel(s[len - 2]) { len - 2 } else { len - 1 };
        }
    }
    len
}

fn norm1(s: &mut [u16], len: usize) -> usize {
    if len > 5 && ends_with(s, len, "hde") {
        s[len - 3] = u('k');
        s[len - 2] = u('s');
        s[len - 1] = u('i');
    }
    if len > 4 && ends_any(s, len, &["ei", "at"]) {
        return len - 2;
    }
    if len > 3 && "tsjeai".encode_utf16().any(|c| c == s[len - 1]) {
        return len - 1;
    }
    len
}

fn norm2(s: &mut [u16], mut len: usize) -> usize {
    if len > 8 && "eou".encode_utf16().any(|c| c == s[len - 1]) {
        len -= 1;
    }
    if len > 4 {
        if s[len - 1] == u('i') {
            len -= 1;
        }
        if len > 4 {
            // Undouble k, p and t.
            let mut previous = s[0];
            let mut i = 1;
            while i < len {
                if s[i] == previous && "kpt".encode_utf16().any(|c| c == previous) {
                    s.copy_within(i + 1..len, i);
                    len -= 1;
                } else {
                    previous = s[i];
                    i += 1;
                }
            }
        }
    }
    len
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_eq!(super::stem("kaupungeissa"), super::stem("kaupungeissa"));
        assert_ne!(super::stem("kirjastoissa"), "kirjastoissa");
    }
}
