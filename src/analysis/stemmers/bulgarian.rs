//! Lucene's BulgarianStemmer (Savoy's light stemmer): the definite article, then the
//! plural, then a final vowel and two rewrites.

use super::utf16::{ends_with, u, with_units};

/// The Bulgarian stem of `term` (expected lowercased).
pub fn stem(term: &str) -> String {
    with_units(term, |s, mut len| {
        if len < 4 {
            return len;
        }
        if len > 5 && ends_with(s, len, "ища") {
            return len - 3;
        }
        len = remove_article(s, len);
        len = remove_plural(s, len);
        if len > 3 {
            if ends_with(s, len, "я") {
                len -= 1;
            }
            if ["а", "о", "е"].iter().any(|v| ends_with(s, len, v)) {
                len -= 1;
            }
        }
        // ен -> н (the paper lists this rule twice; its Perl implementation, and
        // Lucene, apply it once).
        if len > 4 && ends_with(s, len, "ен") {
            s[len - 2] = u('н');
            len -= 1;
        }
        if len > 5 && s[len - 2] == u('ъ') {
            s[len - 2] = s[len - 1];
            len -= 1;
        }
        len
    })
}

fn remove_article(s: &[u16], len: usize) -> usize {
    if len > 6 && ends_with(s, len, "ият") {
        return len - 3;
    }
    if len > 5 && ["ът", "то", "те", "та", "ия"].iter().any(|a| ends_with(s, len, a)) {
        return len - 2;
    }
    if len > 4 && ends_with(s, len, "ят") {
        return len - 2;
    }
    len
}

fn remove_plural(s: &mut [u16], len: usize) -> usize {
    if len > 6 {
        if ends_with(s, len, "овци") || ends_with(s, len, "ове") {
            return len - 3;
        }
        if ends_with(s, len, "еве") {
            s[len - 3] = u('й');
            return len - 2;
        }
    }
    if len > 5 {
        if ends_with(s, len, "ища") {
            return len - 3;
        }
        if ends_with(s, len, "та") {
            return len - 2;
        }
        if ends_with(s, len, "ци") {
            s[len - 2] = u('к');
            return len - 1;
        }
        if ends_with(s, len, "зи") {
            s[len - 2] = u('г');
            return len - 1;
        }
        if s[len - 3] == u('е') && s[len - 1] == u('и') {
            s[len - 3] = u('я');
            return len - 1;
        }
    }
    if len > 4 {
        if ends_with(s, len, "си") {
            s[len - 2] = u('х');
            return len - 1;
        }
        if ends_with(s, len, "и") {
            return len - 1;
        }
    }
    len
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_eq!(super::stem("градовете"), "град");
        assert_eq!(super::stem("ученици"), "ученик");
        assert_eq!(super::stem("къща"), "къщ");
    }
}
