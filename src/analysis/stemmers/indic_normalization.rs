//! Lucene's IndicNormalizer: sequences of two or three characters of one Indic script
//! that Unicode 5.2 (chapter 6) and the LDC's graphical decompositions give a single
//! character for are composed into it.

use super::utf16::with_units;

const DEVANAGARI: u16 = 1;
const BENGALI: u16 = 2;
const GURMUKHI: u16 = 4;
const GUJARATI: u16 = 8;
const ORIYA: u16 = 16;
const TAMIL: u16 = 32;
const TELUGU: u16 = 64;
const KANNADA: u16 = 128;
const MALAYALAM: u16 = 256;

/// The scripts: `(flag, first unit of its 128-unit block)`.
const SCRIPTS: &[(u16, u16)] = &[
    (DEVANAGARI, 0x0900),
    (BENGALI, 0x0980),
    (GURMUKHI, 0x0A00),
    (GUJARATI, 0x0A80),
    (ORIYA, 0x0B00),
    (TAMIL, 0x0B80),
    (TELUGU, 0x0C00),
    (KANNADA, 0x0C80),
    (MALAYALAM, 0x0D00),
];

/// No third character.
const NONE: i16 = -1;
/// The zero-width joiner as a third character.
const ZWJ: i16 = 0xFF;

/// `(first, second, third, composed, scripts)`: offsets into the script's block, in
/// Lucene's order (the first matching row wins).
const DECOMPOSITIONS: &[(u16, u16, i16, u16, u16)] = &[
    (0x05, 0x3E, 0x45, 0x11, DEVANAGARI | GUJARATI),
    (0x05, 0x3E, 0x46, 0x12, DEVANAGARI),
    (0x05, 0x3E, 0x47, 0x13, DEVANAGARI | GUJARATI),
    (0x05, 0x3E, 0x48, 0x14, DEVANAGARI | GUJARATI),
    (0x05, 0x3E, NONE, 0x06, DEVANAGARI | BENGALI | GURMUKHI | GUJARATI | ORIYA),
    (0x05, 0x45, NONE, 0x72, DEVANAGARI),
    (0x05, 0x45, NONE, 0x0D, GUJARATI),
    (0x05, 0x46, NONE, 0x04, DEVANAGARI),
    (0x05, 0x47, NONE, 0x0F, GUJARATI),
    (0x05, 0x48, NONE, 0x10, GURMUKHI | GUJARATI),
    (0x05, 0x49, NONE, 0x11, DEVANAGARI | GUJARATI),
    (0x05, 0x4A, NONE, 0x12, DEVANAGARI),
    (0x05, 0x4B, NONE, 0x13, DEVANAGARI | GUJARATI),
    (0x05, 0x4C, NONE, 0x14, DEVANAGARI | GURMUKHI | GUJARATI),
    (0x06, 0x45, NONE, 0x11, DEVANAGARI | GUJARATI),
    (0x06, 0x46, NONE, 0x12, DEVANAGARI),
    (0x06, 0x47, NONE, 0x13, DEVANAGARI | GUJARATI),
    (0x06, 0x48, NONE, 0x14, DEVANAGARI | GUJARATI),
    (0x07, 0x57, NONE, 0x08, MALAYALAM),
    (0x09, 0x41, NONE, 0x0A, DEVANAGARI),
    (0x09, 0x57, NONE, 0x0A, TAMIL | MALAYALAM),
    (0x0E, 0x46, NONE, 0x10, MALAYALAM),
    (0x0F, 0x45, NONE, 0x0D, DEVANAGARI),
    (0x0F, 0x46, NONE, 0x0E, DEVANAGARI),
    (0x0F, 0x47, NONE, 0x10, DEVANAGARI),
    (0x0F, 0x57, NONE, 0x10, ORIYA),
    (0x12, 0x3E, NONE, 0x13, MALAYALAM),
    (0x12, 0x4C, NONE, 0x14, TELUGU | KANNADA),
    (0x12, 0x55, NONE, 0x13, TELUGU),
    (0x12, 0x57, NONE, 0x14, TAMIL | MALAYALAM),
    (0x13, 0x57, NONE, 0x14, ORIYA),
    (0x15, 0x3C, NONE, 0x58, DEVANAGARI),
    (0x16, 0x3C, NONE, 0x59, DEVANAGARI | GURMUKHI),
    (0x17, 0x3C, NONE, 0x5A, DEVANAGARI | GURMUKHI),
    (0x1C, 0x3C, NONE, 0x5B, DEVANAGARI | GURMUKHI),
    (0x21, 0x3C, NONE, 0x5C, DEVANAGARI | BENGALI | ORIYA),
    (0x22, 0x3C, NONE, 0x5D, DEVANAGARI | BENGALI | ORIYA),
    (0x23, 0x4D, ZWJ, 0x7A, MALAYALAM),
    (0x24, 0x4D, ZWJ, 0x4E, BENGALI),
    (0x28, 0x3C, NONE, 0x29, DEVANAGARI),
    (0x28, 0x4D, ZWJ, 0x7B, MALAYALAM),
    (0x2B, 0x3C, NONE, 0x5E, DEVANAGARI | GURMUKHI),
    (0x2F, 0x3C, NONE, 0x5F, DEVANAGARI | BENGALI),
    (0x2C, 0x41, 0x41, 0x0B, TELUGU),
    (0x30, 0x3C, NONE, 0x31, DEVANAGARI),
    (0x30, 0x4D, ZWJ, 0x7C, MALAYALAM),
    (0x32, 0x4D, ZWJ, 0x7D, MALAYALAM),
    (0x33, 0x3C, NONE, 0x34, DEVANAGARI),
    (0x33, 0x4D, ZWJ, 0x7E, MALAYALAM),
    (0x35, 0x41, NONE, 0x2E, TELUGU),
    (0x3E, 0x45, NONE, 0x49, DEVANAGARI | GUJARATI),
    (0x3E, 0x46, NONE, 0x4A, DEVANAGARI),
    (0x3E, 0x47, NONE, 0x4B, DEVANAGARI | GUJARATI),
    (0x3E, 0x48, NONE, 0x4C, DEVANAGARI | GUJARATI),
    (0x3F, 0x55, NONE, 0x40, KANNADA),
    (0x41, 0x41, NONE, 0x42, GURMUKHI),
    (0x46, 0x3E, NONE, 0x4A, TAMIL | MALAYALAM),
    (0x46, 0x42, 0x55, 0x4B, KANNADA),
    (0x46, 0x42, NONE, 0x4A, KANNADA),
    (0x46, 0x46, NONE, 0x48, MALAYALAM),
    (0x46, 0x55, NONE, 0x47, TELUGU | KANNADA),
    (0x46, 0x56, NONE, 0x48, TELUGU | KANNADA),
    (0x46, 0x57, NONE, 0x4C, TAMIL | MALAYALAM),
    (0x47, 0x3E, NONE, 0x4B, BENGALI | ORIYA | TAMIL | MALAYALAM),
    (0x47, 0x57, NONE, 0x4C, BENGALI | ORIYA),
    (0x4A, 0x55, NONE, 0x4B, KANNADA),
    (0x72, 0x3F, NONE, 0x07, GURMUKHI),
    (0x72, 0x40, NONE, 0x08, GURMUKHI),
    (0x72, 0x47, NONE, 0x0F, GURMUKHI),
    (0x73, 0x41, NONE, 0x09, GURMUKHI),
    (0x73, 0x42, NONE, 0x0A, GURMUKHI),
    (0x73, 0x4B, NONE, 0x13, GURMUKHI),
];

/// The script of a unit: its flag and block base.
fn script_of(c: u16) -> Option<(u16, u16)> {
    SCRIPTS.iter().copied().find(|(_, base)| (*base..*base + 0x80).contains(&c))
}

/// Composes the sequences of `s[..len]` in place and returns the new length.
pub fn normalize_units(s: &mut [u16], mut len: usize) -> usize {
    let mut i = 0;
    while i < len {
        if let Some((flag, base)) = script_of(s[i]) {
            len = compose(s, i, len, flag, base);
        }
        i += 1;
    }
    len
}

/// IndicNormalizationFilter's form of `term`.
pub fn normalize(term: &str) -> String {
    with_units(term, |s, len| normalize_units(s, len))
}

fn compose(s: &mut [u16], pos: usize, len: usize, flag: u16, base: u16) -> usize {
    let first = s[pos] - base;
    if pos + 1 >= len || script_of(s[pos + 1]) != Some((flag, base)) {
        return len;
    }
    let second = s[pos + 1] - base;
    let third = match s.get(pos + 2) {
        Some(&c) if pos + 2 < len && c == 0x200D => ZWJ,
        Some(&c) if pos + 2 < len && script_of(c) == Some((flag, base)) => (c - base) as i16,
        _ => NONE,
    };
    let row = DECOMPOSITIONS.iter().find(|(a, b, c, _, scripts)| {
        *a == first && scripts & flag != 0 && *b == second && (*c == NONE || *c == third)
    });
    let Some(&(_, _, c, composed, _)) = row else {
        return len;
    };
    s[pos] = base + composed;
    let remove = if c == NONE { 1 } else { 2 };
    s.copy_within(pos + 1 + remove..len, pos + 1);
    len - remove
}

#[cfg(test)]
mod tests {
    #[test]
    fn composes() {
        // devanagari A + vowel sign AA -> AA
        assert_eq!(super::normalize("\u{905}\u{93E}"), "\u{906}");
        // bengali khanda ta: TA + virama + ZWJ
        assert_eq!(super::normalize("\u{9A4}\u{9CD}\u{200D}"), "\u{9CE}");
        assert_eq!(super::normalize("abc"), "abc");
    }
}
