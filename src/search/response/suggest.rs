//! The response's `suggest` member, typed: each suggestion's entries and their options,
//! written once by the response writer as ES 6.8 writes them.

use super::HitJson;
use crate::search::json_out::{self, Object};

/// `suggest`: each suggestion's entries under its name (`type#name` with `typed_keys`),
/// in ES's order (by name).
#[derive(Debug, Clone, Default)]
pub struct Suggest(pub Vec<(String, Vec<SuggestEntry>)>);

/// One entry of a suggestion: the text suggested for and its options.
#[derive(Debug, Clone)]
pub struct SuggestEntry {
    /// The text (a term suggestion's token, a completion's text or prefix).
    pub text: String,
    /// Where the text starts in the suggestion's text, in UTF-16 units.
    pub offset: usize,
    /// The text's length, in UTF-16 units.
    pub length: usize,
    /// The options, best first.
    pub options: Vec<SuggestOption>,
}

/// One option of an entry.
#[derive(Debug, Clone)]
pub enum SuggestOption {
    /// A term suggestion's: a term of the index, its score and document frequency.
    Term {
        /// The suggested term.
        text: String,
        /// Its score (written as Jackson writes a Java `float`).
        score: f32,
        /// Documents holding it.
        freq: u64,
    },
    /// A completion suggestion's: the suggested input and the document's hit.
    Completion {
        /// The suggested input.
        text: String,
        /// The document: its members are written inside the option, after `text`.
        hit: Box<HitJson>,
        /// The option's contexts, names and values in the order ES prints them (Java's
        /// hash order); empty for a field without contexts.
        contexts: Vec<(String, Vec<String>)>,
    },
    /// A phrase suggestion's: a corrected phrase.
    Phrase {
        /// The correction.
        text: String,
        /// The correction with its corrected words between the highlight tags.
        highlighted: Option<String>,
        /// Its score (written as Jackson writes a Java `float`).
        score: f32,
        /// With a pruning `collate`: whether the collate query matched.
        collate_match: Option<bool>,
    },
}

impl Suggest {
    /// Writes the `suggest` object at the end of `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        let mut o = Object::start(out);
        for (name, entries) in &self.0 {
            let w = o.key(name);
            w.push(b'[');
            for (i, e) in entries.iter().enumerate() {
                if i > 0 {
                    w.push(b',');
                }
                e.write(w);
            }
            w.push(b']');
        }
        o.end();
    }
}

impl SuggestEntry {
    fn write(&self, out: &mut Vec<u8>) {
        let mut e = Object::start(out);
        e.str("text", &self.text);
        e.int("offset", self.offset as i64);
        e.int("length", self.length as i64);
        let w = e.key("options");
        w.push(b'[');
        for (i, option) in self.options.iter().enumerate() {
            if i > 0 {
                w.push(b',');
            }
            option.write(w);
        }
        w.push(b']');
        e.end();
    }
}

impl SuggestOption {
    fn write(&self, out: &mut Vec<u8>) {
        let mut o = Object::start(out);
        match self {
            SuggestOption::Term { text, score, freq } => {
                o.str("text", text);
                write_float(o.key("score"), *score);
                o.int("freq", *freq as i64);
            }
            SuggestOption::Completion { text, hit, contexts } => {
                o.str("text", text);
                // The hit's members go inside the option, as ES's `serializeHit` writes them.
                hit.write_members(&mut o);
                if !contexts.is_empty() {
                    let mut c = Object::start(o.key("contexts"));
                    for (name, values) in contexts {
                        let w = c.key(name);
                        w.push(b'[');
                        for (i, v) in values.iter().enumerate() {
                            if i > 0 {
                                w.push(b',');
                            }
                            json_out::string(w, v);
                        }
                        w.push(b']');
                    }
                    c.end();
                }
            }
            SuggestOption::Phrase { text, highlighted, score, collate_match } => {
                o.str("text", text);
                if let Some(h) = highlighted {
                    o.str("highlighted", h);
                }
                write_float(o.key("score"), *score);
                if let Some(m) = collate_match {
                    o.bool("collate_match", *m);
                }
            }
        }
        o.end();
    }
}

/// A float as Jackson writes a Java `float` (`Float.toString`: `0.5`, `7.756904E-6`).
fn write_float(out: &mut Vec<u8>, f: f32) {
    json_out::write_score(out, Some(f));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn term_entries_write_in_es_order() {
        let s = Suggest(vec![(
            "term#s".into(),
            vec![SuggestEntry {
                text: "helo".into(),
                offset: 0,
                length: 4,
                options: vec![SuggestOption::Term { text: "hello".into(), score: 0.75, freq: 3 }],
            }],
        )]);
        let mut out = Vec::new();
        s.write(&mut out);
        assert_eq!(
            String::from_utf8(out).ok().as_deref(),
            Some(
                r#"{"term#s":[{"text":"helo","offset":0,"length":4,"options":[{"text":"hello","score":0.75,"freq":3}]}]}"#
            )
        );
    }

    #[test]
    fn completion_options_hold_the_hit_members_then_contexts() {
        let hit = HitJson {
            located: false,
            index: "i".into(),
            type_id: Some(("_doc".into(), "1".into())),
            nested: None,
            version: false,
            seq_no: None,
            score: Some(2.0),
            routing: None,
            source: None,
            fields: None,
            highlight: None,
            sort: None,
            explanation: None,
            inner_hits: None,
        };
        let contexts = vec![("place".to_string(), vec!["cafe".to_string(), "bar".to_string()])];
        let option = SuggestOption::Completion { text: "nir".into(), hit: Box::new(hit), contexts };
        let mut out = Vec::new();
        option.write(&mut out);
        assert_eq!(
            String::from_utf8(out).ok().as_deref(),
            Some(
                r#"{"text":"nir","_index":"i","_type":"_doc","_id":"1","_score":2.0,"contexts":{"place":["cafe","bar"]}}"#
            )
        );
    }

    #[test]
    fn phrase_options_write_highlighted_before_score_and_collate_match_after() {
        let option = SuggestOption::Phrase {
            text: "xorr the god".into(),
            highlighted: Some("<em>xorr</em> the god".into()),
            score: 0.5,
            collate_match: Some(false),
        };
        let mut out = Vec::new();
        option.write(&mut out);
        assert_eq!(
            String::from_utf8(out).ok().as_deref(),
            Some(r#"{"text":"xorr the god","highlighted":"<em>xorr</em> the god","score":0.5,"collate_match":false}"#)
        );
    }

    #[test]
    fn floats_keep_a_fraction() {
        let mut out = Vec::new();
        write_float(&mut out, 2.0);
        out.push(b' ');
        write_float(&mut out, 0.8333333);
        out.push(b' ');
        write_float(&mut out, 7.756904e-6);
        assert_eq!(out, b"2.0 0.8333333 7.756904E-6");
    }
}
