//! Lucene's PersianNormalizer: heh and yeh variants and keheh folded to their Arabic
//! letters, the hamza above heh removed.

use super::utf16::with_units;

/// PersianNormalizationFilter's form of `term`.
pub fn normalize(term: &str) -> String {
    with_units(term, |s, len| {
        let mut out = 0;
        for i in 0..len {
            let c = match s[i] {
                // farsi yeh, yeh barree
                0x06CC | 0x06D2 => 0x064A,
                // keheh
                0x06A9 => 0x0643,
                // heh with yeh above, heh goal
                0x06C0 | 0x06C1 => 0x0647,
                // hamza above
                0x0654 => continue,
                c => c,
            };
            s[out] = c;
            out += 1;
        }
        out
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn normalizes() {
        assert_eq!(super::normalize("\u{6A9}\u{62A}\u{627}\u{628}\u{6CC}"), "\u{643}\u{62A}\u{627}\u{628}\u{64A}");
    }
}
