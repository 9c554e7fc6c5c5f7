//! An analysis chain: char filters, then a tokenizer, then token filters, each named as
//! the definition named it (for `_analyze`'s `explain`).
//!
//! A mapping's `analyzer`, `search_analyzer`, `search_quote_analyzer` and `normalizer`
//! resolve, through the index's [`AnalysisRegistry`](super::definition::AnalysisRegistry),
//! to a [`field::Analyzer`](super::field::Analyzer) or normalizer that runs one of these.

use super::char_filters::{CharFilter, OffsetMap};
use super::token::{AnalyzedToken, TokenStream};
use super::token_filters::TokenFilter;
use super::tokenizers::Tokenizer;
use crate::error::{Error, Result};

/// A component with the name its definition gave it.
#[derive(Debug, Clone)]
pub struct Named<T> {
    /// The name (`_anonymous_tokenfilter` for an inline definition).
    pub name: String,
    /// The component.
    pub component: T,
}

impl<T> Named<T> {
    /// `component` named `name`.
    pub fn new(name: impl Into<String>, component: T) -> Self {
        Named { name: name.into(), component }
    }
}

/// Whether an analyzer is a custom one (its stages shown apart by `explain`) or a
/// built-in (shown as one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A `custom` analyzer, normalizer, or one built from `_analyze` parameters.
    Custom,
    /// A built-in analyzer (`standard`, `stop`, ...) under this name.
    BuiltIn(String),
}

/// An analyzer or normalizer.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// Custom or built-in.
    pub kind: Kind,
    /// The char filters, in order.
    pub char_filters: Vec<Named<CharFilter>>,
    /// The tokenizer.
    pub tokenizer: Named<Tokenizer>,
    /// The token filters, in order.
    pub filters: Vec<Named<TokenFilter>>,
    /// Positions between the values of an array (Lucene's `getPositionIncrementGap`).
    pub position_increment_gap: u32,
    /// Offsets between the values of an array (Lucene's `getOffsetGap`).
    pub offset_gap: usize,
}

/// The outcome of each stage of a chain over one text, as `explain` shows them.
pub struct Stages {
    /// The text after each char filter.
    pub filtered_texts: Vec<String>,
    /// The tokenizer's stream.
    pub tokenizer: TokenStream,
    /// The stream after each token filter.
    pub filters: Vec<TokenStream>,
}

impl Analysis {
    /// The tokens of `text` through the whole chain.
    pub fn analyze(&self, text: &str) -> Result<TokenStream> {
        let (filtered, maps) = self.char_filter(text, None)?;
        let mut stream = self.tokenize(&filtered, &maps)?;
        for f in &self.filters {
            f.component.apply(&mut stream)?;
        }
        Ok(stream)
    }

    /// Lucene's `Analyzer.normalize`: the char filters, then the token filters that work
    /// on whole values, over `text` as one term (what multi-term queries and normalizers
    /// do to a value).
    pub fn normalize(&self, text: &str) -> Result<String> {
        let (mut filtered, _) = self.char_filter(text, None)?;
        // Lucene's SimpleAnalyzer and StopAnalyzer, whose tokenizer lowercases, normalize
        // with a LowerCaseFilter; a custom analyzer normalizes through its filters only.
        if matches!(self.kind, Kind::BuiltIn(_)) && matches!(self.tokenizer.component, Tokenizer::Lowercase) {
            filtered = super::lowercase(&filtered);
        }
        let len = filtered.encode_utf16().count();
        let mut stream = TokenStream {
            tokens: vec![AnalyzedToken::word(filtered, 0, len)],
            final_offset: len,
            final_position_increment: 0,
        };
        for f in self.filters.iter().filter(|f| f.component.works_on_whole_values()) {
            f.component.apply(&mut stream)?;
        }
        Ok(stream.tokens.into_iter().next().map(|t| t.term).unwrap_or_default())
    }

    /// Every stage of the chain over `text`.
    pub fn stages(&self, text: &str) -> Result<Stages> {
        let mut filtered_texts = Vec::new();
        let (filtered, maps) = self.char_filter(text, Some(&mut filtered_texts))?;
        let tokenizer = self.tokenize(&filtered, &maps)?;
        let mut stream = tokenizer.clone();
        let mut filters = Vec::new();
        for f in &self.filters {
            f.component.apply(&mut stream)?;
            filters.push(stream.clone());
        }
        Ok(Stages { filtered_texts, tokenizer, filters })
    }

    /// Whether the token filters up to stage `upto` (exclusive) add Lucene's
    /// KeywordAttribute to the stream.
    pub fn has_keyword_attribute(&self, upto: usize) -> bool {
        self.filters.iter().take(upto).any(|f| f.component.adds_keyword_attribute())
    }

    fn char_filter(&self, text: &str, mut texts: Option<&mut Vec<String>>) -> Result<(String, Vec<OffsetMap>)> {
        let mut current = text.to_string();
        let mut maps = Vec::with_capacity(self.char_filters.len());
        for f in &self.char_filters {
            if let CharFilter::PatternReplace { pattern, .. } = &f.component {
                if pattern.differs_on(&current) {
                    return Err(java_dollar_error(pattern.source()));
                }
            }
            let (out, map) = f.component.apply(&current)?;
            if let Some(t) = texts.as_deref_mut() {
                t.push(out.clone());
            }
            current = out;
            maps.push(map);
        }
        if let Tokenizer::Pattern { regex, .. } = &self.tokenizer.component {
            if regex.differs_on(&current) {
                return Err(java_dollar_error(regex.source()));
            }
        }
        Ok((current, maps))
    }

    fn tokenize(&self, text: &str, maps: &[OffsetMap]) -> Result<TokenStream> {
        let mut stream = self.tokenizer.component.tokenize(text)?;
        if !maps.is_empty() {
            // Lucene's CharFilter.correctOffset: the last filter's map first.
            let correct = |o: usize| maps.iter().rev().fold(o, |o, m| m.correct(o));
            for t in &mut stream.tokens {
                t.start_offset = correct(t.start_offset);
                t.end_offset = correct(t.end_offset);
            }
            stream.final_offset = correct(stream.final_offset);
        }
        Ok(stream)
    }
}

fn java_dollar_error(pattern: &str) -> Error {
    Error::illegal_argument(format!(
        "the pattern [{pattern}] uses `$` on a text ending with a line terminator, which Java matches differently; \
         not supported by metagate"
    ))
}

/// Tokens of several values analysed as one field: positions and offsets continue from
/// value to value with the analyzer's gaps, as ES's `_analyze` places them.
#[derive(Debug, Default)]
pub struct Placed {
    last_position: i64,
    last_offset: usize,
}

/// One token placed in a multi-valued text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacedToken {
    /// The token's attributes.
    pub token: AnalyzedToken,
    /// Its absolute position.
    pub position: i64,
    /// Its absolute start offset.
    pub start_offset: usize,
    /// Its absolute end offset.
    pub end_offset: usize,
}

impl Placed {
    /// A placement before the first value.
    pub fn new() -> Self {
        Placed { last_position: -1, last_offset: 0 }
    }

    /// Places the tokens of one value's stream, then moves past it and the gaps.
    pub fn place(&mut self, stream: TokenStream, gap: u32, offset_gap: usize, out: &mut Vec<PlacedToken>) {
        for token in stream.tokens {
            if token.position_increment > 0 {
                self.last_position += i64::from(token.position_increment);
            }
            out.push(PlacedToken {
                position: self.last_position,
                start_offset: self.last_offset + token.start_offset,
                end_offset: self.last_offset + token.end_offset,
                token,
            });
        }
        self.last_offset += stream.final_offset + offset_gap;
        self.last_position += i64::from(stream.final_position_increment) + i64::from(gap);
    }
}
