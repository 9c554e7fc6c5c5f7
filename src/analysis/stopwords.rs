//! Stop word sets: ES's predefined lists (`_english_`, `_french_`, ...) and word lists
//! that name them, as ES's `Analysis.parseWords` resolves them.

use super::chars::to_lower;
use super::stopword_lists as lists;
use std::collections::HashSet;

/// The words of a predefined list (`_english_`), if `name` is one.
pub fn named(name: &str) -> Option<&'static [&'static str]> {
    lists::LISTS.binary_search_by_key(&name, |(n, _)| n).ok().map(|i| lists::LISTS[i].1)
}

/// A set of words, matched exactly or ignoring case (Java's per-code-point lowercase, as
/// Lucene's CharArraySet does).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WordSet {
    words: HashSet<String>,
    ignore_case: bool,
}

impl WordSet {
    /// The set of `words`, each a word or the name of a predefined list.
    pub fn resolve<S: AsRef<str>>(words: &[S], ignore_case: bool) -> WordSet {
        let mut set = WordSet { words: HashSet::new(), ignore_case };
        for w in words {
            let w = w.as_ref();
            match named(w) {
                Some(list) => list.iter().for_each(|l| set.insert(l)),
                None => set.insert(w),
            }
        }
        set
    }

    /// The set of `words` as given (`_english_` is a word here, as in ES's
    /// `stem_exclusion`).
    pub fn literal<S: AsRef<str>>(words: &[S], ignore_case: bool) -> WordSet {
        let mut set = WordSet { words: HashSet::new(), ignore_case };
        words.iter().for_each(|w| set.insert(w.as_ref()));
        set
    }

    fn insert(&mut self, w: &str) {
        let w = if self.ignore_case { w.chars().map(to_lower).collect() } else { w.to_string() };
        self.words.insert(w);
    }

    /// Whether the set has no word.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Whether `term` is in the set.
    pub fn contains(&self, term: &str) -> bool {
        if self.words.is_empty() {
            return false;
        }
        if self.ignore_case {
            self.words.contains(&term.chars().map(to_lower).collect::<String>())
        } else {
            self.words.contains(term)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_lists_resolve() {
        assert!(named("_english_").unwrap().contains(&"the"));
        assert!(named("_french_").unwrap().contains(&"le"));
        let s = WordSet::resolve(&["_english_", "Foo"], true);
        assert!(s.contains("THE") && s.contains("foo") && !s.contains("bar"));
        assert!(!WordSet::resolve(&["Foo"], false).contains("foo"));
    }
}
