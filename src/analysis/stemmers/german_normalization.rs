//! Lucene's GermanNormalizationFilter (the German2 Snowball heuristics): `ß` to `ss`,
//! umlauts to their base vowel, and `ae`, `oe`, `ue` (not after a vowel or `q`) to `a`,
//! `o`, `u`.

/// The normalized form of `term`.
pub fn normalize(term: &str) -> String {
    #[derive(PartialEq)]
    enum State {
        /// Ordinary.
        Plain,
        /// After a letter that keeps a following `u` out of the umlaut state.
        Vowel,
        /// After `a`, `o` or `u`: an `e` here is an umlaut's, and goes.
        Umlaut,
    }
    let mut state = State::Plain;
    let mut out = String::with_capacity(term.len());
    for c in term.chars() {
        match c {
            'a' | 'o' => {
                out.push(c);
                state = State::Umlaut;
            }
            'u' => {
                out.push(c);
                state = if state == State::Plain { State::Umlaut } else { State::Vowel };
            }
            'e' => {
                if state != State::Umlaut {
                    out.push(c);
                }
                state = State::Vowel;
            }
            'i' | 'q' | 'y' => {
                out.push(c);
                state = State::Vowel;
            }
            'ä' | 'ö' | 'ü' => {
                out.push(match c {
                    'ä' => 'a',
                    'ö' => 'o',
                    _ => 'u',
                });
                state = State::Vowel;
            }
            'ß' => {
                out.push_str("ss");
                state = State::Plain;
            }
            _ => {
                out.push(c);
                state = State::Plain;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn normalizes() {
        assert_eq!(super::normalize("schaefer"), "schafer");
        assert_eq!(super::normalize("straße"), "strasse");
        assert_eq!(super::normalize("quelle"), "quelle");
        assert_eq!(super::normalize("ueber"), "uber");
        assert_eq!(super::normalize("bauer"), "bauer");
    }
}
