//! What a compiled query highlights, per field: its terms, prefixes, patterns, fuzzy
//! automata and phrases, as ES 6.8's unified highlighter looks for them in a field's text.
//!
//! The compile arms record these on the weights they return when the executor compiles
//! for highlighting ([`super::context::Executor::highlighting`]); composite weights combine
//! their children's ([`super::weight::Weight::highlights`]). What is highlighted is the
//! query's view, not the index's: a token absent from the index is still looked for, a
//! fuzzy query looks for its automaton rather than the terms it expanded to, and raw
//! values stay as the query wrote them.

use super::context::{Executor, Resolved};
use super::edits::{edit_distance, max_edits};
use crate::analysis::{Analyzer, Token};
use crate::mapping::FieldType;
use regex_automata::meta::Regex;
use std::collections::HashMap;

/// A phrase to find: terms with their relative positions, the slop, and whether the last
/// term is a prefix.
pub type PhraseSpec = (Vec<(u32, String)>, u32, bool);

/// A fuzzy term to find: its characters, the edits allowed, the prefix length that must
/// match exactly, and whether a transposition counts as one edit.
pub type FuzzySpec = (Vec<char>, u32, usize, bool);

/// What to look for in one field's text.
#[derive(Default, Clone)]
pub struct Matchers {
    /// Exact terms.
    pub terms: Vec<String>,
    /// Term prefixes.
    pub prefixes: Vec<String>,
    /// Whole-term patterns (wildcards, regexps).
    pub patterns: Vec<Regex>,
    /// Fuzzy terms.
    pub fuzzy: Vec<FuzzySpec>,
    /// Phrases, matched only where the whole phrase occurs.
    pub phrases: Vec<PhraseSpec>,
}

impl Matchers {
    /// Whether nothing is looked for.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
            && self.prefixes.is_empty()
            && self.patterns.is_empty()
            && self.fuzzy.is_empty()
            && self.phrases.is_empty()
    }

    /// Whether the single token `t` matches (phrases aside).
    pub fn single(&self, t: &str) -> bool {
        self.terms.iter().any(|x| x == t)
            || self.prefixes.iter().any(|p| t.starts_with(p.as_str()))
            || self.patterns.iter().any(|r| r.is_match(t))
            || self.fuzzy.iter().any(|(q, edits, prefix, tr)| {
                let c: Vec<char> = t.chars().collect();
                c.len() >= *prefix
                    && q.iter().take(*prefix).eq(c.iter().take(*prefix))
                    && edit_distance(q, &c, *tr, *edits).is_some()
            })
    }

    /// Adds everything `other` looks for.
    pub fn absorb(&mut self, other: &Matchers) {
        self.terms.extend(other.terms.iter().cloned());
        self.prefixes.extend(other.prefixes.iter().cloned());
        self.patterns.extend(other.patterns.iter().cloned());
        self.fuzzy.extend(other.fuzzy.iter().cloned());
        self.phrases.extend(other.phrases.iter().cloned());
    }
}

/// What a query highlights, per field name as the query names it.
#[derive(Default, Clone)]
pub struct HighlightTerms {
    fields: HashMap<String, Matchers>,
}

impl HighlightTerms {
    /// The matchers of `field`, created empty.
    pub fn field(&mut self, field: &str) -> &mut Matchers {
        self.fields.entry(field.to_string()).or_default()
    }

    /// What is looked for in `field`, if anything was recorded for it.
    pub fn get(&self, field: &str) -> Option<&Matchers> {
        self.fields.get(field)
    }

    /// Every field's matchers.
    pub fn all(&self) -> impl Iterator<Item = &Matchers> {
        self.fields.values()
    }

    /// Adds everything `other` highlights.
    pub fn absorb(&mut self, other: &HighlightTerms) {
        for (f, m) in &other.fields {
            self.field(f).absorb(m);
        }
    }

    /// One exact term of `field`.
    pub fn term(field: &str, term: String) -> HighlightTerms {
        let mut h = HighlightTerms::default();
        h.field(field).terms.push(term);
        h
    }

    /// One prefix of `field`.
    pub fn prefix(field: &str, prefix: String) -> HighlightTerms {
        let mut h = HighlightTerms::default();
        h.field(field).prefixes.push(prefix);
        h
    }

    /// A whole-term regular expression of `field` (none when it does not compile).
    pub fn pattern(field: &str, regex: &str) -> HighlightTerms {
        let mut h = HighlightTerms::default();
        if let Ok(r) = Regex::new(regex) {
            h.field(field).patterns.push(r);
        }
        h
    }

    /// A fuzzy term of `field` (none when `fuzziness` is not valid).
    pub fn fuzzy(
        field: &str,
        term: &str,
        fuzziness: &str,
        prefix_length: usize,
        transpositions: bool,
    ) -> HighlightTerms {
        let mut h = HighlightTerms::default();
        h.add_fuzzy(field, term, fuzziness, prefix_length, transpositions);
        h
    }

    fn add_fuzzy(&mut self, field: &str, term: &str, fuzziness: &str, prefix_length: usize, transpositions: bool) {
        let chars: Vec<char> = term.chars().collect();
        let edits = max_edits(fuzziness, chars.len());
        let m = self.field(field);
        if let Ok(edits) = edits {
            m.fuzzy.push((chars, edits, prefix_length, transpositions));
        }
    }
}

/// How a `match` looks for fuzzy terms: `fuzziness`, `prefix_length`, `transpositions`.
pub type Fuzziness<'q> = Option<(&'q str, usize, bool)>;

/// The analyzer the highlighter reads query text with: the query's if it names a known
/// one, else the field's search analyzer.
fn analyzer(ex: &Executor<'_>, fm: &crate::mapping::FieldMapping, forced: Option<&str>, quoted: bool) -> Analyzer {
    ex.search_analyzer(fm, forced, quoted)
        .or_else(|_| ex.search_analyzer(fm, None, quoted))
        .unwrap_or_else(|_| fm.search_analyzer.clone())
}

/// What a `match` of `text` on `field` highlights: the analyzed tokens of a text field,
/// else the text as the field indexes it, each as a term or (with `fuzzy`) a fuzzy term.
pub fn of_match(
    ex: &Executor<'_>,
    field: &str,
    text: &str,
    forced: Option<&str>,
    fuzzy: Fuzziness<'_>,
) -> HighlightTerms {
    let terms: Vec<String> = match ex.resolve(field) {
        Resolved::Field(fm) if fm.ftype == FieldType::Text => {
            analyzer(ex, fm, forced, false).analyze(text).unwrap_or_default().into_iter().map(|t| t.text).collect()
        }
        Resolved::Unmapped => return HighlightTerms::default(),
        _ => vec![ex.exact_term(field, text)],
    };
    let mut h = HighlightTerms::default();
    h.field(field);
    for t in terms {
        match fuzzy {
            Some((f, prefix, tr)) => h.add_fuzzy(field, &t, f, prefix, tr),
            None => h.field(field).terms.push(t),
        }
    }
    h
}

/// What a phrase (or phrase prefix) of `text` on `field` highlights: the whole phrase
/// on a text field (a lone token as a term or prefix), else the text as the field
/// indexes it.
pub fn of_phrase(
    ex: &Executor<'_>,
    field: &str,
    text: &str,
    slop: u32,
    forced: Option<&str>,
    prefix: bool,
) -> HighlightTerms {
    let mut h = HighlightTerms::default();
    let tokens: Vec<Token> = match ex.resolve(field) {
        Resolved::Field(fm) if fm.ftype == FieldType::Text => {
            analyzer(ex, fm, forced, true).analyze(text).unwrap_or_default()
        }
        Resolved::Unmapped => return h,
        _ => {
            let t = ex.exact_term(field, text);
            return match prefix {
                true => HighlightTerms::prefix(field, t),
                false => HighlightTerms::term(field, t),
            };
        }
    };
    let m = h.field(field);
    match tokens.len() {
        0 => {}
        1 if prefix => m.prefixes.push(tokens[0].text.clone()),
        1 => m.terms.push(tokens[0].text.clone()),
        _ => {
            let base = tokens[0].position;
            m.phrases.push((tokens.iter().map(|t| (t.position - base, t.text.clone())).collect(), slop, prefix));
        }
    }
    h
}
