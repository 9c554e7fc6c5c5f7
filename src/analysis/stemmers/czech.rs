//! Lucene's CzechStemmer (Dolamic and Savoy's light stemmer): case endings, then
//! possessive endings, then a normalization of the final consonants.

use super::utf16::{cut_first_ending, ends_with, u, with_units};

/// `(word longer than, endings)`, tried in order; the first match is cut.
const CASES: &[(usize, &[&str])] = &[
    (7, &["atech"]),
    (6, &["ětem", "etem", "atům"]),
    (
        5,
        &[
            "ech", "ich", "ích", "ého", "ěmi", "emi", "ému", "ěte", "ete", "ěti", "eti", "ího", "iho", "ími", "ímu",
            "imu", "ách", "ata", "aty", "ých", "ama", "ami", "ové", "ovi", "ými",
        ],
    ),
    (4, &["em", "es", "ém", "ím", "ům", "at", "ám", "os", "us", "ým", "mi", "ou"]),
    (3, &["a", "e", "i", "o", "u", "ů", "y", "á", "é", "í", "ý", "ě"]),
];

/// The Czech stem of `term` (expected lowercased).
pub fn stem(term: &str) -> String {
    with_units(term, |s, len| {
        let len = remove_case(s, len);
        let len = remove_possessives(s, len);
        if len > 0 {
            normalize(s, len)
        } else {
            len
        }
    })
}

fn remove_case(s: &[u16], len: usize) -> usize {
    cut_first_ending(s, len, CASES).unwrap_or(len)
}

fn remove_possessives(s: &[u16], len: usize) -> usize {
    if len > 5 && ["ov", "in", "ův"].iter().any(|e| ends_with(s, len, e)) {
        return len - 2;
    }
    len
}

fn normalize(s: &mut [u16], len: usize) -> usize {
    for (from, to) in [("čt", "ck"), ("št", "sk")] {
        if ends_with(s, len, from) {
            let mut to = to.encode_utf16();
            s[len - 2] = to.next().unwrap_or_default();
            s[len - 1] = to.next().unwrap_or_default();
            return len;
        }
    }
    let last = s[len - 1];
    if last == u('c') || last == u('č') {
        s[len - 1] = u('k');
        return len;
    }
    if last == u('z') || last == u('ž') {
        s[len - 1] = u('h');
        return len;
    }
    if len > 1 && s[len - 2] == u('e') {
        s[len - 2] = s[len - 1];
        return len - 1;
    }
    if len > 2 && s[len - 2] == u('ů') {
        s[len - 2] = u('o');
    }
    len
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_eq!(super::stem("hradech"), "hrad");
        assert_eq!(super::stem("města"), "měst");
        assert_eq!(super::stem("kočka"), "kočk");
        assert_eq!(super::stem("ženou"), "žn");
    }
}
