//! Lucene's GermanLightStemmer (Savoy's "UniNE" light stemmer): umlauts and accents
//! folded, then two steps of inflectional suffixes.

use super::utf16::{fold_vowels, u, with_units};

const ACCENTS: &[(char, &str)] = &[('a', "äàáâ"), ('o', "öòóô"), ('i', "ïìíî"), ('u', "üùúû")];

/// Letters that may stand before an `-s` or `-st` ending.
fn st_ending(c: u16) -> bool {
    "bdfghklmnt".encode_utf16().any(|e| e == c)
}

fn ends(s: &[u16], len: usize, suffix: &str) -> bool {
    let n = suffix.len();
    len >= n && s[len - n..len].iter().copied().eq(suffix.bytes().map(u16::from))
}

fn step1(s: &[u16], len: usize) -> usize {
    if len > 5 && ends(s, len, "ern") {
        return len - 3;
    }
    if len > 4 && s[len - 2] == u('e') && "mnrs".encode_utf16().any(|c| c == s[len - 1]) {
        return len - 2;
    }
    if len > 3 && s[len - 1] == u('e') {
        return len - 1;
    }
    if len > 3 && s[len - 1] == u('s') && st_ending(s[len - 2]) {
        return len - 1;
    }
    len
}

fn step2(s: &[u16], len: usize) -> usize {
    if len > 5 && ends(s, len, "est") {
        return len - 3;
    }
    if len > 4 && s[len - 2] == u('e') && (s[len - 1] == u('r') || s[len - 1] == u('n')) {
        return len - 2;
    }
    if len > 4 && ends(s, len, "st") && st_ending(s[len - 3]) {
        return len - 2;
    }
    len
}

/// The light German stem of `term`.
pub fn stem(term: &str) -> String {
    with_units(term, |s, len| {
        fold_vowels(s, len, ACCENTS);
        let len = step1(s, len);
        step2(s, len)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_eq!(super::stem("häuser"), "haus");
        assert_eq!(super::stem("kindern"), "kind");
        assert_eq!(super::stem("schönsten"), "schon");
    }
}
