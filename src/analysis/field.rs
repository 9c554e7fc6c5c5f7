//! The analyzers and normalizers that fields and queries name.
//!
//! An [`Analyzer`] is a name (as a mapping prints it, and as ES compares analyzers) and
//! how it runs: one of the four built-ins metagate runs on a fast path (`standard`,
//! `simple`, `whitespace`, `keyword`: Lucene's tokens without building a token stream,
//! oracle-tested as the chains are), or an analysis [`Analysis`] chain from the index's
//! `settings.analysis` or ES's other built-ins. A [`Normalizer`] is the keyword
//! counterpart: metagate's `lowercase`, or an index's custom normalizer.

use super::chain::Analysis;
use super::token::{AnalyzedToken, TokenStream};
use super::{for_each_piece, lowercase_into, runs, standard_tokens, Token};
use crate::error::Result;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// `TextFieldMapper.Defaults.POSITION_INCREMENT_GAP`: positions between the values of a
/// multi-valued text field.
pub const POSITION_INCREMENT_GAP: u32 = 100;

/// How an analyzer runs.
#[derive(Debug, Clone)]
enum Run {
    /// UAX#29 words, lowercased.
    Standard,
    /// Runs of letters, lowercased.
    Simple,
    /// Runs of non-whitespace, case kept.
    Whitespace,
    /// The whole input as one token.
    Keyword,
    /// A chain of char filters, a tokenizer and token filters.
    Chain(Arc<Analysis>),
}

/// An analyzer a field or query uses. Two analyzers are the same when their names are
/// (within an index a name means one analyzer, and ES compares them by name).
#[derive(Debug, Clone)]
pub struct Analyzer {
    name: Arc<str>,
    run: Run,
}

impl PartialEq for Analyzer {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for Analyzer {}

impl Hash for Analyzer {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state)
    }
}

impl Analyzer {
    /// A built-in analyzer metagate runs on its fast path, by its ES name.
    pub fn fast(name: &str) -> Option<Analyzer> {
        let run = match name {
            "standard" => Run::Standard,
            "simple" => Run::Simple,
            "whitespace" => Run::Whitespace,
            "keyword" => Run::Keyword,
            _ => return None,
        };
        Some(Analyzer { name: name.into(), run })
    }

    /// `whitespace`.
    pub fn whitespace() -> Analyzer {
        Analyzer { name: "whitespace".into(), run: Run::Whitespace }
    }

    /// The analyzer an index uses where a field names none and the index defines no
    /// `default`: the standard analyzer under ES's name `default`.
    pub fn index_default() -> Analyzer {
        Analyzer { name: "default".into(), run: Run::Standard }
    }

    /// An analysis chain under `name`.
    pub fn chain(name: &str, analysis: Analysis) -> Analyzer {
        Analyzer { name: name.into(), run: Run::Chain(Arc::new(analysis)) }
    }

    /// The analyzer's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The chain, for an analyzer that runs one.
    pub fn analysis(&self) -> Option<&Analysis> {
        match &self.run {
            Run::Chain(a) => Some(a),
            _ => None,
        }
    }

    /// Positions between the values of a multi-valued field (Lucene's
    /// `getPositionIncrementGap`).
    pub fn position_increment_gap(&self) -> u32 {
        match &self.run {
            Run::Chain(a) => a.position_increment_gap,
            _ => POSITION_INCREMENT_GAP,
        }
    }

    /// The tokens of `text`, with positions from 0 and byte offsets into `text`.
    pub fn analyze(&self, text: &str) -> Result<Vec<Token>> {
        if let Run::Chain(a) = &self.run {
            return Ok(placed_tokens(text, &a.analyze(text)?));
        }
        let mut out = Vec::new();
        let mut buf = String::new();
        let mut position = -1i64;
        self.for_each_token(text, &mut buf, |term, increment, start, end| {
            position += i64::from(increment);
            out.push(Token { text: term.to_string(), position: position.max(0) as u32, start, end });
        })?;
        Ok(out)
    }

    /// The tokens of query text, as Lucene's QueryBuilder turns them into queries:
    /// several terms at one position become a SynonymQuery (in a phrase, a
    /// MultiPhraseQuery), which callers that build neither refuse with `stacked_ok`
    /// false. A token graph (terms spanning several positions: multi-word synonyms of
    /// `synonym_graph`, graph word delimiters) makes a graph query, which `match` builds
    /// from [`Analyzer::query_graph`] (and the queries that build matches through it);
    /// here it is refused.
    pub fn analyze_query(&self, text: &str, stacked_ok: bool) -> Result<Vec<Token>> {
        let tokens = match &self.run {
            Run::Chain(a) => {
                let stream = a.analyze(text)?;
                if stream.tokens.iter().any(|t| t.position_length > 1) {
                    return Err(
                        self.unsupported_query("a token graph (terms spanning several positions)", "graph query")
                    );
                }
                placed_tokens(text, &stream)
            }
            _ => self.analyze(text)?,
        };
        if !stacked_ok && query_positions(&tokens).iter().any(|p| p.len() > 1) {
            return Err(self.unsupported_query("several terms at one position", "SynonymQuery"));
        }
        Ok(tokens)
    }

    /// The tokens of query text that makes a token graph (some position length above
    /// 1): each token's term, position increment and position length, for a graph
    /// query; `None` when the text makes no graph.
    pub fn query_graph(&self, text: &str) -> Result<Option<Vec<AnalyzedToken>>> {
        let Run::Chain(a) = &self.run else { return Ok(None) };
        let stream = a.analyze(text)?;
        Ok(stream.tokens.iter().any(|t| t.position_length > 1).then_some(stream.tokens))
    }

    fn unsupported_query(&self, what: &str, query: &str) -> crate::error::Error {
        crate::error::Error::illegal_argument(format!(
            "the analyzer [{}] makes {what} of the query text, which Lucene queries as a {query}: not supported by \
             metagate here (query with a search_analyzer that makes neither)",
            self.name
        ))
    }

    /// Calls `emit(term, position_increment, start, end)` with each token of `text`
    /// (byte offsets into `text`) and returns the position increment left at the end
    /// (stop words removed last). The fast built-ins lowercase into `buf`, so indexing a
    /// value allocates nothing per token.
    pub fn for_each_token(
        &self,
        text: &str,
        buf: &mut String,
        mut emit: impl FnMut(&str, u32, usize, usize),
    ) -> Result<u32> {
        let mut push = |piece: &str, start: usize, lower: bool| {
            for_each_piece(piece, |offset, chunk| {
                let term = if lower {
                    lowercase_into(chunk, buf);
                    buf.as_str()
                } else {
                    chunk
                };
                emit(term, 1, start + offset, start + offset + chunk.len());
            });
        };
        match &self.run {
            Run::Standard => standard_tokens(text, |start, word| push(word, start, true)),
            Run::Simple => {
                for (start, word) in runs(text, |c| c.is_alphabetic()) {
                    push(word, start, true);
                }
            }
            Run::Whitespace => {
                for (start, word) in runs(text, |c| !c.is_whitespace()) {
                    push(word, start, false);
                }
            }
            Run::Keyword => emit(text, 1, 0, text.len()),
            Run::Chain(analysis) => {
                let stream = analysis.analyze(text)?;
                for_each_placed(text, &stream, |t, start, end| emit(&t.term, t.position_increment, start, end));
                return Ok(stream.final_position_increment);
            }
        }
        Ok(0)
    }

    /// Lucene's `Analyzer.normalize`: what multi-term queries (wildcard, prefix, fuzzy,
    /// regexp) do to their text — the char filters and the token filters that work on
    /// whole values, over the text as one term.
    pub fn normalize(&self, text: &str) -> Result<String> {
        Ok(match &self.run {
            Run::Standard | Run::Simple => super::lowercase(text),
            Run::Whitespace | Run::Keyword => text.to_string(),
            Run::Chain(a) => a.normalize(text)?,
        })
    }

    /// [`Analyzer::normalize`] of a wildcard pattern: escaped characters and the
    /// wildcards themselves stay as they are, the runs between them are normalized.
    pub fn normalize_wildcard(&self, pattern: &str) -> Result<String> {
        if let Run::Whitespace | Run::Keyword = self.run {
            return Ok(pattern.to_string());
        }
        let mut out = String::with_capacity(pattern.len());
        let mut run = String::new();
        let flush = |run: &mut String, out: &mut String| -> Result<()> {
            if !run.is_empty() {
                out.push_str(&self.normalize(run)?);
                run.clear();
            }
            Ok(())
        };
        let mut chars = pattern.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    flush(&mut run, &mut out)?;
                    out.push(c);
                    if let Some(n) = chars.next() {
                        out.push(n);
                    }
                }
                '*' | '?' => {
                    flush(&mut run, &mut out)?;
                    out.push(c);
                }
                _ => run.push(c),
            }
        }
        flush(&mut run, &mut out)?;
        Ok(out)
    }
}

/// A keyword field's normalizer.
#[derive(Debug, Clone)]
pub enum Normalizer {
    /// metagate's built-in `lowercase` (the gateway's `.aggregate` sub-fields): lowercases
    /// the whole value.
    Lowercase,
    /// A custom normalizer of the index's `settings.analysis`, under its name.
    Chain(Arc<str>, Arc<Analysis>),
}

impl PartialEq for Normalizer {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Normalizer {}

impl Hash for Normalizer {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state)
    }
}

impl Normalizer {
    /// A custom normalizer under `name`.
    pub fn chain(name: &str, analysis: Analysis) -> Normalizer {
        Normalizer::Chain(name.into(), Arc::new(analysis))
    }

    /// The normalizer's name.
    pub fn name(&self) -> &str {
        match self {
            Normalizer::Lowercase => "lowercase",
            Normalizer::Chain(name, _) => name,
        }
    }

    /// The chain, for a custom normalizer.
    pub fn analysis(&self) -> Option<&Analysis> {
        match self {
            Normalizer::Chain(_, a) => Some(a),
            Normalizer::Lowercase => None,
        }
    }

    /// Applies the normalizer.
    pub fn normalize(&self, value: &str) -> Result<String> {
        let mut out = String::new();
        self.normalize_into(value, &mut out)?;
        Ok(out)
    }

    /// Applies the normalizer into `out` (cleared first), reusing its allocation.
    pub fn normalize_into(&self, value: &str, out: &mut String) -> Result<()> {
        match self {
            Normalizer::Lowercase => lowercase_into(value, out),
            Normalizer::Chain(_, a) => {
                out.clear();
                out.push_str(&a.normalize(value)?);
            }
        }
        Ok(())
    }
}

/// The terms of query tokens grouped by position, in order: Lucene's QueryBuilder makes
/// one clause of each group (a term query, or a SynonymQuery for several).
pub fn query_positions(tokens: &[Token]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut last = None;
    for t in tokens {
        match out.last_mut() {
            Some(group) if last == Some(t.position) => group.push(t.text.clone()),
            _ => out.push(vec![t.text.clone()]),
        }
        last = Some(t.position);
    }
    out
}

/// Calls `f(token, start, end)` with each token of a chain's `stream` over `text` and its
/// byte offsets into `text`.
fn for_each_placed(text: &str, stream: &TokenStream, mut f: impl FnMut(&AnalyzedToken, usize, usize)) {
    let bytes = Utf16Offsets::new(text);
    for t in &stream.tokens {
        f(t, bytes.at(t.start_offset), bytes.at(t.end_offset));
    }
}

/// A chain's `stream` over `text` as [`Token`]s: positions from 0, byte offsets.
fn placed_tokens(text: &str, stream: &TokenStream) -> Vec<Token> {
    let mut out = Vec::with_capacity(stream.tokens.len());
    let mut position = -1i64;
    for_each_placed(text, stream, |t, start, end| {
        position += i64::from(t.position_increment);
        out.push(Token { text: t.term.clone(), position: position.max(0) as u32, start, end });
    });
    out
}

/// Byte offsets of a text's UTF-16 offsets (Lucene counts offsets in UTF-16 units).
struct Utf16Offsets {
    /// The byte offset of each UTF-16 offset; empty for ASCII text, where they agree.
    bytes: Vec<usize>,
    len: usize,
}

impl Utf16Offsets {
    fn new(text: &str) -> Utf16Offsets {
        if text.is_ascii() {
            return Utf16Offsets { bytes: Vec::new(), len: text.len() };
        }
        let mut bytes = Vec::with_capacity(text.len() + 1);
        for (i, c) in text.char_indices() {
            // Both units of a surrogate pair map to the character's start.
            for _ in 0..c.len_utf16() {
                bytes.push(i);
            }
        }
        bytes.push(text.len());
        Utf16Offsets { bytes, len: text.len() }
    }

    /// The byte offset of UTF-16 offset `unit` (clamped to the text).
    fn at(&self, unit: usize) -> usize {
        if self.bytes.is_empty() {
            return unit.min(self.len);
        }
        self.bytes.get(unit).copied().unwrap_or(self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::definition::AnalysisRegistry;
    use serde_json::json;

    fn texts(a: &Analyzer, s: &str) -> Vec<String> {
        a.analyze(s).unwrap().into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn fast_built_ins_match_their_chains() {
        let registry = AnalysisRegistry::global();
        let text = "The 2 QUICK Brown-Foxes jumped über the lazy dog's bone. 我是 v1.2 e-mail";
        for name in ["standard", "simple", "whitespace", "keyword"] {
            let fast = Analyzer::fast(name).unwrap();
            let chain = Analyzer::chain(name, registry.analyzer(name).unwrap());
            assert_eq!(fast.analyze(text).unwrap(), chain.analyze(text).unwrap(), "{name}");
            assert_eq!(fast.normalize("ÜBER Foo").unwrap(), chain.normalize("ÜBER Foo").unwrap(), "{name}");
        }
    }

    #[test]
    fn chains_give_byte_offsets_and_position_gaps() {
        let registry = AnalysisRegistry::for_index(
            json!({"analyzer": {"en": {"type": "stop", "stopwords": ["the"]}}}).as_object().unwrap().clone(),
        );
        let a = Analyzer::chain("en", registry.analyzer("en").unwrap());
        let toks = a.analyze("Über the Fox").unwrap();
        assert_eq!(texts(&a, "Über the Fox"), ["über", "fox"]);
        assert_eq!((toks[1].position, toks[1].start, toks[1].end), (2, 10, 13));
        let mut buf = String::new();
        assert_eq!(a.for_each_token("fox the", &mut buf, |_, _, _, _| {}).unwrap(), 1);
    }

    #[test]
    fn wildcards_normalize_between_wildcards() {
        let a = Analyzer::fast("standard").unwrap();
        assert_eq!(a.normalize_wildcard("Fo\\O*BaR?").unwrap(), "fo\\O*bar?");
        assert_eq!(Analyzer::whitespace().normalize_wildcard("Fo*").unwrap(), "Fo*");
    }

    #[test]
    fn analyzers_compare_by_name() {
        assert_eq!(Analyzer::fast("standard").unwrap(), Analyzer::fast("standard").unwrap());
        assert_ne!(Analyzer::fast("standard").unwrap(), Analyzer::index_default());
        assert_eq!(Normalizer::Lowercase.normalize("DOI:10.26275/X").unwrap(), "doi:10.26275/x");
    }
}
