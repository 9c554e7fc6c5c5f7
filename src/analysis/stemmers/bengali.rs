//! Lucene's BengaliNormalizer (UzZaman and Khan's spelling normalization) and
//! BengaliStemmer (Sengupta and Chaudhuri's verb endings, with Savoy's light rules).

use super::utf16::{ends_with, with_units};

const HASANTA: u16 = 0x09CD;

/// BengaliNormalizationFilter's form of `term`.
pub fn normalize(term: &str) -> String {
    with_units(term, |s, len| normalize_units(s, len))
}

/// Removes `s[at]` from `s[..len]`, returning the new length.
fn delete(s: &mut [u16], at: usize, len: usize) -> usize {
    s.copy_within(at + 1..len, at);
    len - 1
}

/// The normalizer's pass over `s[..len]`: each rule sees the unit at `i` after the
/// rules before it changed the word, and may move `i` back over what it removed.
fn normalize_units(s: &mut [u16], mut len: usize) -> usize {
    // A rule that removes units steps `i` back over them (never below -1, so the loop's
    // step makes it valid again), as Lucene's loop does.
    let mut i: isize = 0;
    while (i as usize) < len {
        let at = i as usize;
        match s[at] {
            // chandrabindu: deleted
            0x0981 => {
                len = delete(s, at, len);
                i -= 1;
            }
            // dirgho i / u kar to rossho
            0x09C0 => s[at] = 0x09BF,
            0x09C2 => s[at] = 0x09C1,
            // khio (ka + hasanta + murdhonno sh sign)
            0x0995 if at + 2 < len && s[at + 1] == HASANTA && s[at + 2] == 0x09BF => {
                if at == 0 {
                    s[at] = 0x0996;
                    len = delete(s, at + 2, len);
                    len = delete(s, at + 1, len);
                } else {
                    s[at + 1] = 0x0996;
                    len = delete(s, at + 2, len);
                }
            }
            // nga to anusvara
            0x0999 => s[at] = 0x0982,
            // ja phala
            0x09AF if at == 2 && s[at - 1] == HASANTA => {
                s[at - 1] = 0x09C7;
                if at + 1 < len && s[at + 1] == 0x09BE {
                    len = delete(s, at + 1, len);
                }
                len = delete(s, at, len);
                i -= 1;
            }
            0x09AF if at >= 1 && s[at - 1] == HASANTA => {
                len = delete(s, at, len);
                len = delete(s, at - 1, len);
                i -= 2;
            }
            // ba phala
            0x09AC if at >= 1 && s[at - 1] == HASANTA => {
                if at == 2 || (at >= 5 && s[at - 3] == HASANTA) {
                    len = delete(s, at, len);
                    len = delete(s, at - 1, len);
                    i -= 2;
                } else if at >= 2 {
                    s[at - 1] = s[at - 2];
                    len = delete(s, at, len);
                    i -= 1;
                }
            }
            // visarga
            0x0983 => {
                if at == len - 1 {
                    if len <= 3 {
                        s[at] = 0x09B9;
                    } else {
                        len = delete(s, at, len);
                    }
                } else {
                    s[at] = s[at + 1];
                }
            }
            // the sh letters, na, the ra forms, khanda ta
            0x09B6 | 0x09B7 => s[at] = 0x09B8,
            0x09A3 => s[at] = 0x09A8,
            0x09DC | 0x09DD => s[at] = 0x09B0,
            0x09CE => s[at] = 0x09A4,
            _ => {}
        }
        i += 1;
    }
    len
}

/// `(word longer than, units cut, endings)`, tried in order; the first match is cut.
const ENDINGS: &[(usize, usize, &[&str])] = &[
    (
        9,
        8,
        &[
            "\u{9BF}\u{9DF}\u{9BE}\u{99B}\u{9BF}\u{9B2}\u{9BE}\u{9AE}",
            "\u{9BF}\u{9A4}\u{9C7}\u{99B}\u{9BF}\u{9B2}\u{9BE}\u{9AE}",
            "\u{9BF}\u{9A4}\u{9C7}\u{99B}\u{9BF}\u{9B2}\u{9C7}\u{9A8}",
            "\u{987}\u{9A4}\u{9C7}\u{99B}\u{9BF}\u{9B2}\u{9C7}\u{9A8}",
            "\u{9BF}\u{9DF}\u{9BE}\u{99B}\u{9BF}\u{9B2}\u{9C7}\u{9A8}",
            "\u{987}\u{9DF}\u{9BE}\u{99B}\u{9BF}\u{9B2}\u{9C7}\u{9A8}",
        ],
    ),
    (
        8,
        7,
        &[
            "\u{9BF}\u{9A4}\u{9C7}\u{99B}\u{9BF}\u{9B2}\u{9BF}",
            "\u{9BF}\u{9A4}\u{9C7}\u{99B}\u{9BF}\u{9B2}\u{9C7}",
            "\u{9BF}\u{9DF}\u{9BE}\u{99B}\u{9BF}\u{9B2}\u{9BE}",
            "\u{9BF}\u{9DF}\u{9BE}\u{99B}\u{9BF}\u{9B2}\u{9C7}",
            "\u{9BF}\u{9A4}\u{9C7}\u{99B}\u{9BF}\u{9B2}\u{9BE}",
            "\u{9BF}\u{9DF}\u{9BE}\u{99B}\u{9BF}\u{9B2}\u{9BF}",
            "\u{9DF}\u{9C7}\u{9A6}\u{9C7}\u{9B0}\u{995}\u{9C7}",
        ],
    ),
    (
        7,
        6,
        &[
            "\u{9BF}\u{9A4}\u{9C7}\u{99B}\u{9BF}\u{9B8}",
            "\u{9BF}\u{9A4}\u{9C7}\u{99B}\u{9C7}\u{9A8}",
            "\u{9BF}\u{9DF}\u{9BE}\u{99B}\u{9BF}\u{9B8}",
            "\u{9BF}\u{9DF}\u{9BE}\u{99B}\u{9C7}\u{9A8}",
            "\u{9C7}\u{99B}\u{9BF}\u{9B2}\u{9BE}\u{9AE}",
            "\u{9C7}\u{99B}\u{9BF}\u{9B2}\u{9C7}\u{9A8}",
            "\u{9C7}\u{9A6}\u{9C7}\u{9B0}\u{995}\u{9C7}",
        ],
    ),
    (
        6,
        5,
        &[
            "\u{9BF}\u{9A4}\u{9C7}\u{99B}\u{9BF}",
            "\u{9BF}\u{9A4}\u{9C7}\u{99B}\u{9BE}",
            "\u{9BF}\u{9A4}\u{9C7}\u{99B}\u{9C7}",
            "\u{99B}\u{9BF}\u{9B2}\u{9BE}\u{9AE}",
            "\u{99B}\u{9BF}\u{9B2}\u{9C7}\u{9A8}",
            "\u{9BF}\u{9DF}\u{9BE}\u{99B}\u{9BF}",
            "\u{9BF}\u{9DF}\u{9BE}\u{99B}\u{9BE}",
            "\u{9BF}\u{9DF}\u{9BE}\u{99B}\u{9C7}",
            "\u{9C7}\u{99B}\u{9BF}\u{9B2}\u{9C7}",
            "\u{9C7}\u{99B}\u{9BF}\u{9B2}\u{9BE}",
            "\u{9DF}\u{9C7}\u{9A6}\u{9C7}\u{9B0}",
            "\u{9A6}\u{9C7}\u{9B0}\u{995}\u{9C7}",
        ],
    ),
    (
        5,
        4,
        &[
            "\u{9BF}\u{9B2}\u{9BE}\u{9AE}",
            "\u{9BF}\u{9B2}\u{9C7}\u{9A8}",
            "\u{9BF}\u{9A4}\u{9BE}\u{9AE}",
            "\u{9BF}\u{9A4}\u{9C7}\u{9A8}",
            "\u{9BF}\u{9AC}\u{9C7}\u{9A8}",
            "\u{99B}\u{9BF}\u{9B2}\u{9BF}",
            "\u{99B}\u{9BF}\u{9B2}\u{9C7}",
            "\u{99B}\u{9BF}\u{9B2}\u{9BE}",
            "\u{9A4}\u{9C7}\u{99B}\u{9C7}",
            "\u{9BF}\u{9A4}\u{9C7}\u{99B}",
            "\u{996}\u{9BE}\u{9A8}\u{9BE}",
            "\u{996}\u{9BE}\u{9A8}\u{9BF}",
            "\u{997}\u{9C1}\u{9B2}\u{9CB}",
            "\u{997}\u{9C1}\u{9B2}\u{9BF}",
            "\u{9DF}\u{9C7}\u{9B0}\u{9BE}",
            "\u{9C7}\u{9A6}\u{9C7}\u{9B0}",
        ],
    ),
    (
        4,
        3,
        &[
            "\u{9B2}\u{9BE}\u{9AE}",
            "\u{9BF}\u{9B2}\u{9BF}",
            "\u{987}\u{9B2}\u{9BF}",
            "\u{9BF}\u{9B2}\u{9C7}",
            "\u{987}\u{9B2}\u{9C7}",
            "\u{9B2}\u{9C7}\u{9A8}",
            "\u{9BF}\u{9B2}\u{9BE}",
            "\u{987}\u{9B2}\u{9BE}",
            "\u{9A4}\u{9BE}\u{9AE}",
            "\u{9BF}\u{9A4}\u{9BF}",
            "\u{987}\u{9A4}\u{9BF}",
            "\u{9BF}\u{9A4}\u{9C7}",
            "\u{987}\u{9A4}\u{9C7}",
            "\u{9A4}\u{9C7}\u{9A8}",
            "\u{9BF}\u{9A4}\u{9BE}",
            "\u{9BF}\u{9AC}\u{9BE}",
            "\u{987}\u{9AC}\u{9BE}",
            "\u{9BF}\u{9AC}\u{9BF}",
            "\u{987}\u{9AC}\u{9BF}",
            "\u{9AC}\u{9C7}\u{9A8}",
            "\u{9BF}\u{9AC}\u{9C7}",
            "\u{987}\u{9AC}\u{9C7}",
            "\u{99B}\u{9C7}\u{9A8}",
            "\u{9DF}\u{9CB}\u{9A8}",
            "\u{9DF}\u{9C7}\u{9B0}",
            "\u{9C7}\u{9B0}\u{9BE}",
            "\u{9A6}\u{9C7}\u{9B0}",
        ],
    ),
    (
        3,
        2,
        &[
            "\u{9BF}\u{9B8}",
            "\u{9C7}\u{9A8}",
            "\u{9B2}\u{9BF}",
            "\u{9B2}\u{9C7}",
            "\u{9B2}\u{9BE}",
            "\u{9A4}\u{9BF}",
            "\u{9A4}\u{9C7}",
            "\u{9A4}\u{9BE}",
            "\u{9AC}\u{9BF}",
            "\u{9AC}\u{9C7}",
            "\u{9AC}\u{9BE}",
            "\u{99B}\u{9BF}",
            "\u{99B}\u{9BE}",
            "\u{99B}\u{9C7}",
            "\u{9C1}\u{9A8}",
            "\u{9C1}\u{995}",
            "\u{99F}\u{9BE}",
            "\u{99F}\u{9BF}",
            "\u{9A8}\u{9BF}",
            "\u{9C7}\u{9B0}",
            "\u{9A4}\u{9C7}",
            "\u{9B0}\u{9BE}",
            "\u{995}\u{9C7}",
        ],
    ),
    (2, 1, &["\u{9BF}", "\u{9C0}", "\u{9BE}", "\u{9CB}", "\u{9C7}", "\u{9AC}", "\u{9A4}"]),
];

/// The Bengali stem of `term` (expected normalized).
pub fn stem(term: &str) -> String {
    with_units(term, |s, len| {
        for (longer_than, cut, endings) in ENDINGS {
            if len > *longer_than && endings.iter().any(|e| ends_with(s, len, e)) {
                return len - cut;
            }
        }
        len
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn normalizes_and_stems() {
        assert_eq!(super::normalize("\u{9B6}"), "\u{9B8}");
        assert_eq!(super::normalize("\u{995}\u{981}"), "\u{995}");
        assert_ne!(
            super::stem("\u{9AC}\u{987}\u{997}\u{9C1}\u{9B2}\u{9CB}"),
            "\u{9AC}\u{987}\u{997}\u{9C1}\u{9B2}\u{9CB}"
        );
    }
}
