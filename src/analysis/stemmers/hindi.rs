//! Lucene's HindiNormalizer (Pingali and Varma, with Larkey et al.'s additions) and
//! HindiStemmer (Ramanathan and Rao's light stemmer).

use super::utf16::{cut_first_ending, with_units};

const VIRAMA: u16 = 0x094D;

/// What the normalizer does with one unit.
enum Step {
    Keep,
    Replace(u16),
    Delete,
}

fn step(c: u16) -> Step {
    use Step::*;
    match c {
        // candrabindu -> bindu
        0x0901 => Replace(0x0902),
        // nukta, zero-width joiner and non-joiner, virama
        0x093C | 0x200D | 0x200C | VIRAMA => Delete,
        // the nukta forms
        0x0929 => Replace(0x0928),
        0x0931 => Replace(0x0930),
        0x0934 => Replace(0x0933),
        0x0958 => Replace(0x0915),
        0x0959 => Replace(0x0916),
        0x095A => Replace(0x0917),
        0x095B => Replace(0x091C),
        0x095C => Replace(0x0921),
        0x095D => Replace(0x0922),
        0x095E => Replace(0x092B),
        0x095F => Replace(0x092F),
        // chandra and short vowels
        0x0945 | 0x0946 => Replace(0x0947),
        0x0949 | 0x094A => Replace(0x094B),
        0x090D | 0x090E => Replace(0x090F),
        0x0911 | 0x0912 => Replace(0x0913),
        0x0972 => Replace(0x0905),
        // long to short independent vowels
        0x0906 => Replace(0x0905),
        0x0908 => Replace(0x0907),
        0x090A => Replace(0x0909),
        0x0960 => Replace(0x090B),
        0x0961 => Replace(0x090C),
        0x0910 => Replace(0x090F),
        0x0914 => Replace(0x0913),
        // long to short dependent vowels
        0x0940 => Replace(0x093F),
        0x0942 => Replace(0x0941),
        0x0944 => Replace(0x0943),
        0x0963 => Replace(0x0962),
        0x0948 => Replace(0x0947),
        0x094C => Replace(0x094B),
        _ => Keep,
    }
}

/// HindiNormalizationFilter's form of `term`.
pub fn normalize(term: &str) -> String {
    with_units(term, |s, mut len| {
        let mut i = 0;
        while i < len {
            // dead n (NA + virama) -> bindu
            if s[i] == 0x0928 && i + 1 < len && s[i + 1] == VIRAMA {
                s[i] = 0x0902;
                s.copy_within(i + 2..len, i + 1);
                len -= 1;
                i += 1;
                continue;
            }
            match step(s[i]) {
                Step::Keep => i += 1,
                Step::Replace(to) => {
                    s[i] = to;
                    i += 1;
                }
                Step::Delete => {
                    s.copy_within(i + 1..len, i);
                    len -= 1;
                }
            }
        }
        len
    })
}

/// `(word longer than, suffixes)`, each group's suffixes as long as the group cuts.
const SUFFIXES: &[(usize, &[&str])] = &[
    (6, &["ाएंगी", "ाएंगे", "ाऊंगी", "ाऊंगा", "ाइयाँ", "ाइयों", "ाइयां"]),
    (
        5,
        &[
            "ाएगी",
            "ाएगा",
            "ाओगी",
            "ाओगे",
            "एंगी",
            "ेंगी",
            "एंगे",
            "ेंगे",
            "ूंगी",
            "ूंगा",
            "ातीं",
            "नाओं",
            "नाएं",
            "ताओं",
            "ताएं",
            "ियाँ",
            "ियों",
            "ियां",
        ],
    ),
    (
        4,
        &[
            "ाकर",
            "ाइए",
            "ाईं",
            "ाया",
            "ेगी",
            "ेगा",
            "ोगी",
            "ोगे",
            "ाने",
            "ाना",
            "ाते",
            "ाती",
            "ाता",
            "तीं",
            "ाओं",
            "ाएं",
            "ुओं",
            "ुएं",
            "ुआं",
        ],
    ),
    (3, &["कर", "ाओ", "िए", "ाई", "ाए", "ने", "नी", "ना", "ते", "ीं", "ती", "ता", "ाँ", "ां", "ों", "ें"]),
    (2, &["ो", "े", "ू", "ु", "ी", "ि", "ा"]),
];

/// The Hindi light stem of `term` (expected normalized).
pub fn stem(term: &str) -> String {
    with_units(term, |s, len| cut_first_ending(s, len, SUFFIXES).unwrap_or(len))
}

#[cfg(test)]
mod tests {
    #[test]
    fn normalizes_and_stems() {
        assert_eq!(super::normalize("\u{928}\u{94D}"), "\u{902}");
        assert_eq!(super::normalize("\u{915}\u{93C}"), "\u{915}");
        assert_eq!(super::stem("किताबें"), "किताब");
    }
}
