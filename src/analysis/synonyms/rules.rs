//! Synonym rules read as Lucene's SynonymMap parsers read them (Solr and WordNet formats,
//! with ES's `lenient`), each phrase analysed by the chain that precedes the filter, into
//! a [`SynonymMap`].

use super::super::chain::Analysis;
use super::super::limits::Quota;
use crate::error::{Error, Exception, Result};
use std::collections::{HashMap, HashSet};

/// What joins the words of a multi-word phrase in the map (Lucene's `WORD_SEPARATOR`).
pub const WORD_SEPARATOR: char = '\u{0}';

/// The rules of one synonym filter, as its definition gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSet {
    /// The rules text, lines joined by line separators (`None`: the definition gives
    /// neither `synonyms` nor `synonyms_path`, which ES finds when it builds the chain).
    pub text: Option<String>,
    /// `format: wordnet` (else Solr).
    pub wordnet: bool,
    /// `expand`: equivalent synonyms map each to all (else all to the first).
    pub expand: bool,
    /// `lenient`: rules whose phrases the analyzer refuses are skipped.
    pub lenient: bool,
}

/// What one input phrase maps to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    /// Output phrases (indexes into [`SynonymMap::words`]), deduplicated, in the order
    /// they were added.
    pub outputs: Vec<usize>,
    /// Whether the input tokens are kept beside the outputs.
    pub keep_original: bool,
}

/// Lucene's SynonymMap: input phrases (words joined by [`WORD_SEPARATOR`]) to outputs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SynonymMap {
    /// Each input phrase's entry.
    pub entries: HashMap<String, Entry>,
    /// Every prefix of an input phrase that ends with a word and its separator: where
    /// matching may go on to the next token.
    pub continuations: HashSet<String>,
    /// Output phrases by ordinal.
    pub words: Vec<String>,
    /// The most words on either side of a rule (Lucene's `maxHorizontalContext`).
    pub max_horizontal_context: usize,
}

impl SynonymMap {
    /// Whether the map has no rule (Lucene then leaves the stream alone).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The output phrase `ord` split into its words.
    pub fn output_words(&self, ord: usize) -> impl Iterator<Item = &str> {
        self.words[ord].split(WORD_SEPARATOR)
    }

    fn add(&mut self, input: &str, output: &str, keep_original: bool, ords: &mut Ords) {
        let ord = *ords.words.entry(output.to_string()).or_insert_with(|| {
            self.words.push(output.to_string());
            self.words.len() - 1
        });
        let entry = self.entries.entry(input.to_string()).or_default();
        if ords.pairs.insert((input.to_string(), ord)) {
            entry.outputs.push(ord);
        }
        entry.keep_original |= keep_original;
        for (i, c) in input.char_indices() {
            if c == WORD_SEPARATOR {
                self.continuations.insert(input[..=i].to_string());
            }
        }
        let words = |s: &str| s.split(WORD_SEPARATOR).count();
        self.max_horizontal_context = self.max_horizontal_context.max(words(input)).max(words(output));
    }
}

/// Builds the map of `rules`, analysing each phrase with `analyzer` (the chain before the
/// filter). Errors are ES's: `failed to build synonyms`, caused by the parser's
/// `Invalid synonym rule at line N`, caused by what the analysis refused.
pub fn build(rules: &RuleSet, analyzer: &Analysis) -> Result<SynonymMap> {
    let Some(text) = &rules.text else {
        return Err(Error::illegal_argument("synonym requires either `synonyms` or `synonyms_path` to be configured"));
    };
    let mut builder = Builder {
        map: SynonymMap::default(),
        ords: Ords::default(),
        analyzer,
        lenient: rules.lenient,
        quota: Quota::default(),
    };
    let mut line_number = 0;
    let parsed = if rules.wordnet {
        builder.wordnet(text, rules.expand, &mut line_number)
    } else {
        builder.solr(text, rules.expand, &mut line_number)
    };
    match parsed {
        Ok(()) => Ok(builder.map),
        Err(cause) if cause.kind == QUOTA => {
            Err(Error::new(400, Exception::new("illegal_argument_exception", cause.reason)))
        }
        Err(cause) => {
            let top = Exception::new("illegal_argument_exception", "failed to build synonyms");
            let tree = top.clone().caused_by(
                Exception::new("parse_exception", format!("Invalid synonym rule at line {line_number}"))
                    .caused_by(cause),
            );
            Err(Error::new(400, tree).with_root_causes(vec![top]))
        }
    }
}

/// Lines as Java's `BufferedReader.readLine` splits them (`\n`, `\r`, `\r\n`).
fn java_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                lines.push(&text[start..i]);
                start = i + 1;
            }
            b'\r' => {
                lines.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < bytes.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// Output ordinals by phrase, and the (input, output) pairs added (Lucene's dedup).
#[derive(Default)]
struct Ords {
    words: HashMap<String, usize>,
    pairs: HashSet<(String, usize)>,
}

/// The kind of the internal exception that carries a quota error past the parser's
/// wrapping (ES has no such limit: rules that would expand past it are metagate's refusal).
const QUOTA: &str = "<quota>";

struct Builder<'a> {
    map: SynonymMap,
    ords: Ords,
    analyzer: &'a Analysis,
    lenient: bool,
    /// Each pair added is charged: `a, b, c, ...` expands to every ordered pair.
    quota: Quota,
}

type Parsed<T> = std::result::Result<T, Exception>;

fn illegal(reason: String) -> Exception {
    Exception::new("illegal_argument_exception", reason)
}

impl Builder<'_> {
    /// Lucene's `SynonymMap.Parser.analyze`: the phrase's terms joined by the separator;
    /// with ES's `lenient`, an empty phrase instead of an error.
    fn analyze(&self, text: &str) -> Parsed<String> {
        match self.analyze_strict(text) {
            Err(_) if self.lenient => Ok(String::new()),
            other => other,
        }
    }

    fn analyze_strict(&self, text: &str) -> Parsed<String> {
        let stream = self.analyzer.analyze(text).map_err(|e| e.exception)?;
        let mut out = String::new();
        for t in &stream.tokens {
            if t.term.is_empty() {
                return Err(illegal(format!("term: {text} analyzed to a zero-length token")));
            }
            if t.position_increment != 1 {
                return Err(illegal(format!(
                    "term: {text} analyzed to a token ({}) with position increment != 1 (got: {})",
                    t.term, t.position_increment
                )));
            }
            if !out.is_empty() {
                out.push(WORD_SEPARATOR);
            }
            out.push_str(&t.term);
        }
        if out.is_empty() {
            return Err(illegal(format!("term: {text} was completely eliminated by analyzer")));
        }
        Ok(out)
    }

    /// ES's parsers add a pair only when both phrases survived a lenient analysis.
    fn add(&mut self, input: &str, output: &str, keep_original: bool) -> Parsed<()> {
        if input.is_empty() || output.is_empty() {
            return Ok(());
        }
        self.quota.token(input.len() + output.len()).map_err(|e| Exception::new(QUOTA, e.reason()))?;
        self.map.add(input, output, keep_original, &mut self.ords);
        Ok(())
    }

    fn solr(&mut self, text: &str, expand: bool, line_number: &mut usize) -> Parsed<()> {
        for line in java_lines(text) {
            *line_number += 1;
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let sides = split(line, "=>");
            if sides.len() > 1 {
                if sides.len() != 2 {
                    return Err(illegal("more than one explicit mapping specified on the same line".into()));
                }
                let inputs = self.phrases(&sides[0])?;
                let outputs = self.phrases(&sides[1])?;
                for input in &inputs {
                    for output in &outputs {
                        self.add(input, output, false)?;
                    }
                }
            } else {
                let inputs = self.phrases(line)?;
                if expand {
                    for (i, input) in inputs.iter().enumerate() {
                        for (j, output) in inputs.iter().enumerate() {
                            if i != j {
                                self.add(input, output, true)?;
                            }
                        }
                    }
                } else {
                    for input in &inputs {
                        self.add(input, &inputs[0], false)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn phrases(&self, side: &str) -> Parsed<Vec<String>> {
        split(side, ",").iter().map(|p| self.analyze(unescape(p).trim_matches(|c: char| c <= ' '))).collect()
    }

    fn wordnet(&mut self, text: &str, expand: bool, line_number: &mut usize) -> Parsed<()> {
        let mut last_id = String::new();
        let mut synset: Vec<String> = Vec::new();
        for line in java_lines(text) {
            *line_number += 1;
            // `s(100000001,1,'word',n,1,0).`: the synset id is characters 2 to 11.
            let Some(id) = line.get(2..11) else {
                return Err(Exception::new(
                    "string_index_out_of_bounds_exception",
                    format!("begin 2, end 11, length {}", line.encode_utf16().count()),
                ));
            };
            if id != last_id {
                self.add_synset(&synset, expand)?;
                synset.clear();
            }
            let start = line.find('\'').map_or(0, |i| i + 1);
            let end = line.rfind('\'').unwrap_or(0);
            if end < start {
                return Err(Exception::new(
                    "string_index_out_of_bounds_exception",
                    format!("begin {start}, end {end}, length {}", line.encode_utf16().count()),
                ));
            }
            synset.push(self.analyze(&line[start..end].replace("''", "'"))?);
            last_id = id.to_string();
        }
        self.add_synset(&synset, expand)
    }

    fn add_synset(&mut self, synset: &[String], expand: bool) -> Parsed<()> {
        if synset.len() <= 1 {
            return Ok(());
        }
        for (i, input) in synset.iter().enumerate() {
            if expand {
                for (j, output) in synset.iter().enumerate() {
                    if i != j {
                        self.add(input, output, true)?;
                    }
                }
            } else {
                self.add(input, &synset[0], false)?;
            }
        }
        Ok(())
    }
}

/// Lucene's SolrSynonymParser split: pieces between `separator`, a backslash keeping the
/// next character (both kept), empty pieces dropped.
fn split(s: &str, separator: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut piece = String::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with(separator) {
            if !piece.is_empty() {
                out.push(std::mem::take(&mut piece));
            }
            rest = &rest[separator.len()..];
            continue;
        }
        rest = &rest[c.len_utf8()..];
        piece.push(c);
        if c == '\\' {
            match rest.chars().next() {
                Some(n) => {
                    piece.push(n);
                    rest = &rest[n.len_utf8()..];
                }
                None => break,
            }
        }
    }
    if !piece.is_empty() {
        out.push(piece);
    }
    out
}

/// Lucene's SolrSynonymParser unescape: a backslash before a character is dropped.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(_)) => out.extend(chars.next()),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_escapes_and_drops_empty_pieces() {
        assert_eq!(split("a,,b\\,c , d", ","), ["a", "b\\,c ", " d"]);
        assert_eq!(split("a => b => c", "=>"), ["a ", " b ", " c"]);
        assert_eq!(unescape("b\\,c\\"), "b,c\\");
    }

    #[test]
    fn java_lines_split_on_every_terminator() {
        assert_eq!(java_lines("a\r\nb\rc\n\nd"), ["a", "b", "c", "", "d"]);
        assert_eq!(java_lines("a\n"), ["a"]);
    }
}
