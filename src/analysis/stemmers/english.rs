//! Lucene's small English filters: the minimal (plural) stemmer and the possessive filter.

/// Lucene's EnglishMinimalStemmer: plural `-s`, `-es`, `-ies` only.
pub fn minimal_english(term: &str) -> String {
    let mut s: Vec<char> = term.chars().collect();
    let len = s.len();
    if len < 3 || s[len - 1] != 's' {
        return term.to_string();
    }
    let keep = match s[len - 2] {
        'u' | 's' => len,
        'e' => {
            if len > 3 && s[len - 3] == 'i' && s[len - 4] != 'a' && s[len - 4] != 'e' {
                s[len - 3] = 'y';
                len - 2
            } else if matches!(s[len - 3], 'i' | 'a' | 'o' | 'e') {
                len
            } else {
                len - 1
            }
        }
        _ => len - 1,
    };
    s[..keep].iter().collect()
}

/// Lucene's EnglishPossessiveFilter: a trailing `'s` (with `'`, `’` or `＇`) removed.
pub fn possessive(term: &str) -> String {
    let chars: Vec<char> = term.chars().collect();
    let n = chars.len();
    if n >= 2 && matches!(chars[n - 2], '\'' | '\u{2019}' | '\u{FF07}') && matches!(chars[n - 1], 's' | 'S') {
        return chars[..n - 2].iter().collect();
    }
    term.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_and_possessive() {
        assert_eq!(minimal_english("flies"), "fly");
        assert_eq!(minimal_english("glasses"), "glasse");
        assert_eq!(minimal_english("toes"), "toes");
        assert_eq!(minimal_english("cats"), "cat");
        assert_eq!(possessive("dog's"), "dog");
        assert_eq!(possessive("dogs’S"), "dogs");
    }
}
