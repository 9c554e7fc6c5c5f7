//! Lucene's LatvianStemmer (a light form of Kreslins' algorithm): the first matching
//! noun or adjective ending is cut when enough vowels remain, undoing the
//! palatalization some endings cause.

use super::utf16::{ends_with, u, with_units};

/// `(ending, vowels the word must have more than, palatalizes)`, in Lucene's order.
const AFFIXES: &[(&str, usize, bool)] = &[
    ("ajiem", 3, false),
    ("ajai", 3, false),
    ("ajam", 2, false),
    ("ajām", 2, false),
    ("ajos", 2, false),
    ("ajās", 2, false),
    ("iem", 2, true),
    ("ajā", 2, false),
    ("ais", 2, false),
    ("ai", 2, false),
    ("ei", 2, false),
    ("ām", 1, false),
    ("am", 1, false),
    ("ēm", 1, false),
    ("īm", 1, false),
    ("im", 1, false),
    ("um", 1, false),
    ("us", 1, true),
    ("as", 1, false),
    ("ās", 1, false),
    ("es", 1, false),
    ("os", 1, true),
    ("ij", 1, false),
    ("īs", 1, false),
    ("ēs", 1, false),
    ("is", 1, false),
    ("ie", 1, false),
    ("u", 1, true),
    ("a", 1, true),
    ("i", 1, true),
    ("e", 1, false),
    ("ā", 1, false),
    ("ē", 1, false),
    ("ī", 1, false),
    ("ū", 1, false),
    ("o", 1, false),
    ("s", 0, false),
    ("š", 0, false),
];

/// The Latvian stem of `term` (expected lowercased).
pub fn stem(term: &str) -> String {
    with_units(term, |s, len| {
        let vowels = s[..len].iter().filter(|c| "aeiouāīēū".encode_utf16().any(|v| v == **c)).count();
        for (affix, vc, palatalizes) in AFFIXES {
            let n = affix.encode_utf16().count();
            if vowels > *vc && len >= n + 3 && ends_with(s, len, affix) {
                let len = len - n;
                return if *palatalizes { unpalatalize(s, len) } else { len };
            }
        }
        len
    })
}

/// Sets the last two units of `s[..len]` to `pair`.
fn set_last_two(s: &mut [u16], len: usize, pair: [char; 2]) {
    s[len - 2] = u(pair[0]);
    s[len - 1] = u(pair[1]);
}

/// Undoes the consonant change before a removed ending (all but the ambiguous s/t → š
/// and d/z → ž). `s[len]` is the first unit of the removed ending.
fn unpalatalize(s: &mut [u16], len: usize) -> usize {
    if s[len] == u('u') {
        if ends_with(s, len, "kš") {
            set_last_two(s, len + 1, ['s', 't']);
            return len + 1;
        }
        if ends_with(s, len, "ņņ") {
            set_last_two(s, len, ['n', 'n']);
            return len;
        }
    }
    if ["pj", "bj", "mj", "vj"].iter().any(|e| ends_with(s, len, e)) {
        return len - 1;
    }
    for (from, to) in [
        ("šņ", ['s', 'n']),
        ("žņ", ['z', 'n']),
        ("šļ", ['s', 'l']),
        ("žļ", ['z', 'l']),
        ("ļņ", ['l', 'n']),
        ("ļļ", ['l', 'l']),
    ] {
        if ends_with(s, len, from) {
            set_last_two(s, len, to);
            return len;
        }
    }
    for (from, to) in [('č', 'c'), ('ļ', 'l'), ('ņ', 'n')] {
        if s[len - 1] == u(from) {
            s[len - 1] = u(to);
            return len;
        }
    }
    len
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_eq!(super::stem("grāmatas"), "grāmat");
        assert_eq!(super::stem("lācis"), "lāc");
        assert_eq!(super::stem("ceļu"), "cel");
    }
}
