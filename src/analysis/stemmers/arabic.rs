//! Lucene's ArabicNormalizer and ArabicStemmer (Larkey's light10 stemmer): hamza seats
//! and letter variants folded, diacritics and tatweel removed; then one attached prefix
//! and the common suffixes removed.

use super::utf16::{delete_n, with_units};

const ALEF: u16 = 0x0627;
const YEH: u16 = 0x064A;
const HEH: u16 = 0x0647;

/// The units ArabicNormalizer deletes: tatweel and the harakat.
fn is_deleted_mark(c: u16) -> bool {
    c == 0x0640 || (0x064B..=0x0652).contains(&c)
}

/// Normalizes `s[..len]` in place and returns its new length.
pub fn normalize_units(s: &mut [u16], len: usize) -> usize {
    let mut out = 0;
    for i in 0..len {
        let c = match s[i] {
            // alef madda, alef with hamza above and below
            0x0622 | 0x0623 | 0x0625 => ALEF,
            // dotless yeh (alef maksura)
            0x0649 => YEH,
            // teh marbuta
            0x0629 => HEH,
            c if is_deleted_mark(c) => continue,
            c => c,
        };
        s[out] = c;
        out += 1;
    }
    out
}

/// ArabicNormalizationFilter's form of `term`.
pub fn normalize(term: &str) -> String {
    with_units(term, |s, len| normalize_units(s, len))
}

/// The prefixes, tried in order; the first that fits is removed.
const PREFIXES: &[&str] = &[
    "\u{627}\u{644}",
    "\u{648}\u{627}\u{644}",
    "\u{628}\u{627}\u{644}",
    "\u{643}\u{627}\u{644}",
    "\u{641}\u{627}\u{644}",
    "\u{644}\u{644}",
    "\u{648}",
];

/// The suffixes, each removed in turn where it fits.
const SUFFIXES: &[&str] = &[
    "\u{647}\u{627}",
    "\u{627}\u{646}",
    "\u{627}\u{62A}",
    "\u{648}\u{646}",
    "\u{64A}\u{646}",
    "\u{64A}\u{647}",
    "\u{64A}\u{629}",
    "\u{647}",
    "\u{629}",
    "\u{64A}",
];

/// The Arabic light stem of `term`.
pub fn stem(term: &str) -> String {
    with_units(term, |s, mut len| {
        for prefix in PREFIXES {
            let p: Vec<u16> = prefix.encode_utf16().collect();
            // The `wa-` prefix needs a word of 4 units, the others 2 units left over.
            let fits = if p.len() == 1 { len >= 4 } else { len >= p.len() + 2 };
            if fits && s[..p.len()] == p[..] {
                len = delete_n(s, 0, len, p.len());
                break;
            }
        }
        for suffix in SUFFIXES {
            let x: Vec<u16> = suffix.encode_utf16().collect();
            if len >= x.len() + 2 && s[len - x.len()..len] == x[..] {
                len -= x.len();
            }
        }
        len
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn normalizes_and_stems() {
        assert_eq!(super::normalize("أَحْمَد"), "احمد");
        assert_eq!(super::stem("الكتاب"), "كتاب");
        assert_eq!(super::stem("مكتبات"), "مكتب");
    }
}
