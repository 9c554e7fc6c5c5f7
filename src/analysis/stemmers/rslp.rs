//! RSLP stemmers as Lucene 8 runs them (`RSLPStemmerBase` and its users): steps of
//! suffix rules, each rule a suffix, the shortest stem it leaves, a replacement and the
//! words or endings it spares, the first matching rule of a step fired. Galician
//! (`GalicianStemmer`, `GalicianMinimalStemmer`) and Portuguese (`PortugueseStemmer`)
//! chain the steps of their rule files (rslp_tables.rs, generated from Lucene's).

use super::rslp_tables::*;

/// The words or endings a rule spares.
pub(super) enum Exceptions {
    /// None.
    None,
    /// Whole words.
    Words(&'static [&'static str]),
    /// Word endings.
    Suffixes(&'static [&'static str]),
}

/// One suffix rule.
pub(super) struct Rule {
    pub suffix: &'static str,
    /// The shortest stem (before the replacement) the rule leaves, in UTF-16 units.
    pub min: usize,
    pub replacement: &'static str,
    pub exceptions: Exceptions,
}

/// A step: its rules in order, skipped for words shorter than `min` units or (when
/// `conditions` is not empty) ending in none of `conditions`.
pub(super) struct Step {
    pub min: usize,
    pub conditions: &'static [&'static str],
    pub rules: &'static [Rule],
}

fn ends_with(s: &[u16], suffix: &str) -> bool {
    let n = suffix.encode_utf16().count();
    s.len() >= n && s[s.len() - n..].iter().copied().eq(suffix.encode_utf16())
}

impl Rule {
    fn matches(&self, s: &[u16]) -> bool {
        let n = self.suffix.encode_utf16().count();
        if s.len() < n + self.min || !ends_with(s, self.suffix) {
            return false;
        }
        match self.exceptions {
            Exceptions::None => true,
            Exceptions::Words(words) => !words.iter().any(|w| w.encode_utf16().eq(s.iter().copied())),
            Exceptions::Suffixes(endings) => !endings.iter().any(|e| ends_with(s, e)),
        }
    }
}

impl Step {
    /// Fires the first rule that matches. Returns whether the word's length changed:
    /// Lucene's stemmers tell whether a step did something by its length alone.
    fn apply(&self, s: &mut Vec<u16>) -> bool {
        let len = s.len();
        if len < self.min || (!self.conditions.is_empty() && !self.conditions.iter().any(|c| ends_with(s, c))) {
            return false;
        }
        let Some(rule) = self.rules.iter().find(|r| r.matches(s)) else { return false };
        s.truncate(len - rule.suffix.encode_utf16().count());
        s.extend(rule.replacement.encode_utf16());
        s.len() != len
    }
}

/// Replaces accented vowels by their base letter as `map` says.
fn fold(s: &mut [u16], map: impl Fn(char) -> Option<char>) {
    for unit in s.iter_mut() {
        if let Some(base) = char::from_u32(u32::from(*unit)).and_then(&map) {
            *unit = base as u16;
        }
    }
}

/// The stem of `term` by Lucene 8's GalicianStemmer.
pub fn galician(term: &str) -> String {
    let mut s: Vec<u16> = term.encode_utf16().collect();
    GALICIAN_PLURAL.apply(&mut s);
    GALICIAN_UNIFICATION.apply(&mut s);
    GALICIAN_ADVERB.apply(&mut s);
    while GALICIAN_AUGMENTATIVE.apply(&mut s) {}
    if !GALICIAN_NOUN.apply(&mut s) {
        GALICIAN_VERB.apply(&mut s);
    }
    GALICIAN_VOWEL.apply(&mut s);
    fold(&mut s, |c| match c {
        'á' => Some('a'),
        'é' | 'ê' => Some('e'),
        'í' => Some('i'),
        'ó' => Some('o'),
        'ú' => Some('u'),
        _ => None,
    });
    String::from_utf16_lossy(&s)
}

/// The stem of `term` by Lucene 8's GalicianMinimalStemmer: the plural step alone.
pub fn minimal_galician(term: &str) -> String {
    let mut s: Vec<u16> = term.encode_utf16().collect();
    GALICIAN_PLURAL.apply(&mut s);
    String::from_utf16_lossy(&s)
}

/// The stem of `term` by Lucene 8's PortugueseStemmer (`portuguese_rslp`).
pub fn portuguese(term: &str) -> String {
    let mut s: Vec<u16> = term.encode_utf16().collect();
    PORTUGUESE_PLURAL.apply(&mut s);
    PORTUGUESE_ADVERB.apply(&mut s);
    PORTUGUESE_FEMININE.apply(&mut s);
    PORTUGUESE_AUGMENTATIVE.apply(&mut s);
    if !PORTUGUESE_NOUN.apply(&mut s) && !PORTUGUESE_VERB.apply(&mut s) {
        PORTUGUESE_VOWEL.apply(&mut s);
    }
    fold(&mut s, |c| match c {
        'à'..='å' => Some('a'),
        'ç' => Some('c'),
        'è'..='ë' => Some('e'),
        'ì'..='ï' => Some('i'),
        'ñ' => Some('n'),
        'ò'..='ö' => Some('o'),
        'ù'..='ü' => Some('u'),
        'ý' | 'ÿ' => Some('y'),
        _ => None,
    });
    String::from_utf16_lossy(&s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lucene_stems() {
        // Lucene 8.7's stems (tests/lucene/StemWords.java).
        assert_eq!(galician("cancións"), "cant");
        assert_eq!(galician("cansadísimo"), "cans");
        assert_eq!(minimal_galician("cancións"), "canción");
        assert_eq!(minimal_galician("papeis"), "papel");
        assert_eq!(portuguese("canções"), "cancao");
    }
}
