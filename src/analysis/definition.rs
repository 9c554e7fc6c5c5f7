//! ES 6.8 analysis definitions read from JSON: components named by a built-in name or
//! defined inline (`{"type": ..., options}`), the `settings.analysis` sections of an
//! index, and the built-in analyzers, with ES's errors for what it refuses.
//!
//! Components ES 6.8 knows but metagate does not run exactly (uax_url_email,
//! several language analyzers, ...) answer an
//! `illegal_argument_exception` saying so, never an approximation.

use super::chain::{Analysis, Kind, Named};
use super::char_filters::{CharFilter, Mapping, Replacement};
use super::field::{Analyzer, Normalizer};
use super::html_strip::HtmlStrip;
use super::java_regex::JavaRegex;
use super::language;
use super::settings::Options;
use super::stemmers::{LightStemmer, Normalization};
use super::stopwords::WordSet;
use super::token_filters::{KeywordMatcher, Shingle, TokenFilter};
use super::tokenizers::{lucene_regexp, TokenChars, Tokenizer, DEFAULT_MAX_TOKEN_LENGTH};
use super::word_delimiter::{TypeTable, WordDelimiter};
use crate::deprecation;
use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// ES's `index.max_ngram_diff` default.
pub const DEFAULT_MAX_NGRAM_DIFF: i64 = 1;
/// `TextFieldMapper.Defaults.POSITION_INCREMENT_GAP`: index analyzers' gap.
pub const INDEX_POSITION_INCREMENT_GAP: u32 = 100;

/// Tokenizer types ES 6.8 (with its analysis-common module) registers.
const ES_TOKENIZERS: &[&str] = &[
    "standard",
    "classic",
    "letter",
    "lowercase",
    "whitespace",
    "keyword",
    "uax_url_email",
    "pattern",
    "simple_pattern",
    "simple_pattern_split",
    "char_group",
    "ngram",
    "nGram",
    "edge_ngram",
    "edgeNGram",
    "path_hierarchy",
    "PathHierarchy",
    "thai",
];
/// Char filter types ES 6.8 registers.
const ES_CHAR_FILTERS: &[&str] = &["html_strip", "mapping", "pattern_replace"];
/// Token filter types ES 6.8 registers (metagate runs a part of them).
const ES_FILTERS: &[&str] = &[
    "apostrophe",
    "arabic_normalization",
    "arabic_stem",
    "asciifolding",
    "bengali_normalization",
    "brazilian_stem",
    "cjk_bigram",
    "cjk_width",
    "classic",
    "common_grams",
    "condition",
    "czech_stem",
    "decimal_digit",
    "delimited_payload",
    "delimited_payload_filter",
    "dictionary_decompounder",
    "dutch_stem",
    "edge_ngram",
    "edgeNGram",
    "elision",
    "fingerprint",
    "flatten_graph",
    "french_stem",
    "german_normalization",
    "german_stem",
    "hindi_normalization",
    "hunspell",
    "hyphenation_decompounder",
    "indic_normalization",
    "keep",
    "keep_types",
    "keyword_marker",
    "keyword_repeat",
    "kstem",
    "length",
    "limit",
    "lowercase",
    "min_hash",
    "multiplexer",
    "ngram",
    "nGram",
    "pattern_capture",
    "pattern_replace",
    "persian_normalization",
    "porter_stem",
    "predicate_token_filter",
    "remove_duplicates",
    "reverse",
    "russian_stem",
    "scandinavian_folding",
    "scandinavian_normalization",
    "serbian_normalization",
    "shingle",
    "snowball",
    "sorani_normalization",
    "standard",
    "stemmer",
    "stemmer_override",
    "stop",
    "synonym",
    "synonym_graph",
    "trim",
    "truncate",
    "unique",
    "uppercase",
    "word_delimiter",
    "word_delimiter_graph",
    "decimal_digit",
];
/// Analyzer types ES 6.8 registers.
const ES_ANALYZERS: &[&str] = &[
    "standard",
    "simple",
    "whitespace",
    "stop",
    "keyword",
    "pattern",
    "fingerprint",
    "snowball",
    "arabic",
    "armenian",
    "basque",
    "bengali",
    "brazilian",
    "bulgarian",
    "catalan",
    "chinese",
    "cjk",
    "czech",
    "danish",
    "dutch",
    "english",
    "estonian",
    "finnish",
    "french",
    "galician",
    "german",
    "greek",
    "hindi",
    "hungarian",
    "indonesian",
    "irish",
    "italian",
    "latvian",
    "lithuanian",
    "norwegian",
    "persian",
    "portuguese",
    "romanian",
    "russian",
    "sorani",
    "spanish",
    "swedish",
    "turkish",
    "thai",
    "standard_html_strip",
];

fn unsupported(what: &str, name: &str) -> Error {
    Error::illegal_argument(format!("the {what} [{name}] is not supported by metagate"))
}

/// Where names are looked up: the built-ins only (`_analyze` without an index), or an
/// index's `settings.analysis` and then the built-ins.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysisRegistry {
    /// Whether lookups are an index's (ES's errors then drop the word `global`).
    pub index: bool,
    /// The index's `analysis` settings (`analyzer`, `normalizer`, `tokenizer`, `filter`,
    /// `char_filter` sections).
    pub settings: Map<String, Value>,
    /// `index.max_ngram_diff`.
    pub max_ngram_diff: i64,
    /// The `synonyms_path` files read when the index was created, by the path as
    /// written ([`super::synonyms::files`]).
    pub files: std::collections::BTreeMap<String, String>,
}

impl AnalysisRegistry {
    /// The registry of a request without an index.
    pub fn global() -> Self {
        AnalysisRegistry {
            index: false,
            settings: Map::new(),
            max_ngram_diff: DEFAULT_MAX_NGRAM_DIFF,
            files: Default::default(),
        }
    }

    /// The registry of an index with these `analysis` settings.
    pub fn for_index(settings: Map<String, Value>) -> Self {
        AnalysisRegistry { index: true, settings, max_ngram_diff: DEFAULT_MAX_NGRAM_DIFF, files: Default::default() }
    }

    /// The registry of an index without `analysis` settings.
    pub fn empty_index() -> Self {
        Self::for_index(Map::new())
    }

    fn section(&self, section: &str, name: &str) -> Option<&Map<String, Value>> {
        self.settings.get(section)?.get(name)?.as_object()
    }

    fn scope(&self) -> &'static str {
        if self.index {
            ""
        } else {
            "global "
        }
    }

    /// A tokenizer named or defined by `spec` (a string or an object with `type`).
    pub fn tokenizer(&self, spec: &Value) -> Result<Named<Tokenizer>> {
        match spec {
            Value::String(name) => {
                if let Some(def) = self.section("tokenizer", name) {
                    return Ok(Named::new(name.clone(), self.tokenizer_of(def, name)?));
                }
                if !ES_TOKENIZERS.contains(&name.as_str()) {
                    return Err(Error::illegal_argument(format!(
                        "failed to find {}tokenizer under [{name}]",
                        self.scope()
                    )));
                }
                Ok(Named::new(name.clone(), self.tokenizer_of(&type_only(name), name)?))
            }
            Value::Object(def) => {
                let ty = anonymous_type(def, "tokenizer")?;
                if !ES_TOKENIZERS.contains(&ty.as_str()) {
                    return Err(Error::illegal_argument(format!("failed to find global tokenizer under [{ty}]")));
                }
                Ok(Named::new("_anonymous_tokenizer", self.tokenizer_of(def, "_anonymous_tokenizer")?))
            }
            _ => Err(Error::illegal_argument("tokenizer should be a string or an object")),
        }
    }

    fn tokenizer_of(&self, def: &Map<String, Value>, name: &str) -> Result<Tokenizer> {
        let o = Options::new(def);
        let ty = o.string("type").unwrap_or_default();
        let illegal = |m: String| Error::illegal_argument(m);
        Ok(match ty.as_str() {
            "standard" => {
                let max = o.int("max_token_length", DEFAULT_MAX_TOKEN_LENGTH as i64)?;
                if !(1..=1024 * 1024).contains(&max) {
                    return Err(illegal(format!(
                        "maxTokenLength must be greater than 0 and less than 1048576 passed: {max}"
                    )));
                }
                Tokenizer::Standard { max_token_length: max as usize }
            }
            "uax_url_email" => {
                let max = o.int("max_token_length", DEFAULT_MAX_TOKEN_LENGTH as i64)?;
                if max < 1 {
                    return Err(illegal("maxTokenLength must be greater than zero".into()));
                }
                if max > 1024 * 1024 {
                    return Err(illegal("maxTokenLength may not exceed 1048576".into()));
                }
                Tokenizer::UaxUrlEmail { max_token_length: max as usize }
            }
            "whitespace" => {
                let max = o.int("max_token_length", DEFAULT_MAX_TOKEN_LENGTH as i64)?;
                if !(1..=1024 * 1024).contains(&max) {
                    return Err(illegal(format!(
                        "maxTokenLen must be greater than 0 and less than 1048576 passed: {max}"
                    )));
                }
                Tokenizer::Whitespace { max_token_length: max as usize }
            }
            "classic" => {
                let max = o.int("max_token_length", DEFAULT_MAX_TOKEN_LENGTH as i64)?;
                if max < 1 {
                    return Err(illegal("maxTokenLength must be greater than zero".into()));
                }
                Tokenizer::Classic { max_token_length: max.min(i32::MAX as i64) as usize }
            }
            "letter" => Tokenizer::Letter,
            "lowercase" => Tokenizer::Lowercase,
            "keyword" => Tokenizer::Keyword,
            "char_group" => {
                let mut chars = TokenChars::default();
                for c in o.list("tokenize_on_chars").unwrap_or_default() {
                    parse_char_class(&c, &mut chars)?;
                }
                Tokenizer::CharGroup(chars)
            }
            "ngram" | "nGram" | "edge_ngram" | "edgeNGram" => {
                let edge = ty.starts_with("edge");
                let min = o.int("min_gram", 1)?;
                let max = o.int("max_gram", if edge { 1 } else { 2 })?;
                if !edge && max - min > self.max_ngram_diff {
                    deprecation::warn(format!(
                        "Deprecated big difference between max_gram and min_gram in NGram Tokenizer,expected difference must be less than or equal to: [{}]",
                        self.max_ngram_diff
                    ));
                }
                check_grams(min, max)?;
                let token_chars = match o.list("token_chars") {
                    Some(list) if !list.is_empty() => {
                        let mut chars = TokenChars::default();
                        // ES reads the setting as a list, splitting a string at commas
                        // (`"letter,digit"`).
                        for c in list.iter().flat_map(|c| c.split(',')) {
                            match c.trim() {
                                "letter" => chars.letter = true,
                                "digit" => chars.digit = true,
                                "whitespace" => chars.whitespace = true,
                                "punctuation" => chars.punctuation = true,
                                "symbol" => chars.symbol = true,
                                other => {
                                    return Err(illegal(format!(
                                        "Unknown token type: '{other}', must be one of [symbol, punctuation, whitespace, letter, digit]"
                                    )))
                                }
                            }
                        }
                        Some(chars)
                    }
                    _ => None,
                };
                Tokenizer::NGram { min_gram: min as usize, max_gram: max as usize, token_chars, edges_only: edge }
            }
            "pattern" => {
                let pattern = o.string("pattern").unwrap_or_else(|| "\\W+".to_string());
                let regex = JavaRegex::new(&pattern, &o.string("flags").unwrap_or_default()).map_err(illegal)?;
                let group = o.int("group", -1)?;
                if group > regex.groups() as i64 {
                    return Err(illegal(format!("invalid group number {group} for pattern [{pattern}]")));
                }
                Tokenizer::Pattern { regex, group }
            }
            "simple_pattern" | "simple_pattern_split" => {
                let pattern = o.string("pattern").unwrap_or_default();
                let regex = lucene_regexp(&pattern).map_err(illegal)?;
                if ty == "simple_pattern" {
                    Tokenizer::SimplePattern(regex)
                } else {
                    Tokenizer::SimplePatternSplit(regex)
                }
            }
            "path_hierarchy" | "PathHierarchy" => {
                let one_char = |key: &str, default: char| -> Result<char> {
                    match o.string(key) {
                        None => Ok(default),
                        Some(s) if s.chars().count() == 1 => Ok(s.chars().next().unwrap_or(default)),
                        Some(_) => Err(illegal(format!("{key} can only be a one char value"))),
                    }
                };
                let delimiter = one_char("delimiter", '/')?;
                let replacement = one_char("replacement", delimiter)?;
                let skip = o.int("skip", 0)?;
                if skip < 0 {
                    return Err(illegal("skip cannot be negative".into()));
                }
                if o.boolean("reverse", false)? {
                    return Err(unsupported("tokenizer option", "path_hierarchy.reverse"));
                }
                Tokenizer::PathHierarchy { delimiter, replacement, skip: skip as usize }
            }
            "thai" => return Err(unsupported("tokenizer", &ty)),
            _ => return Err(illegal(format!("Unknown tokenizer type [{ty}] for [{name}]"))),
        })
    }

    /// A char filter named or defined by `spec`.
    pub fn char_filter(&self, spec: &Value) -> Result<Named<CharFilter>> {
        match spec {
            Value::String(name) => {
                if let Some(def) = self.section("char_filter", name) {
                    return Ok(Named::new(name.clone(), self.char_filter_of(def, name)?));
                }
                if !ES_CHAR_FILTERS.contains(&name.as_str()) {
                    return Err(Error::illegal_argument(format!(
                        "failed to find {}char filter under [{name}]",
                        self.scope()
                    )));
                }
                Ok(Named::new(name.clone(), self.char_filter_of(&type_only(name), name)?))
            }
            Value::Object(def) => {
                let ty = anonymous_type(def, "char filter")?;
                if !ES_CHAR_FILTERS.contains(&ty.as_str()) {
                    return Err(Error::illegal_argument(format!("failed to find global char filter under [{ty}]")));
                }
                Ok(Named::new("_anonymous_charfilter", self.char_filter_of(def, "_anonymous_charfilter")?))
            }
            _ => Err(Error::illegal_argument("char_filter should be a string or an object")),
        }
    }

    fn char_filter_of(&self, def: &Map<String, Value>, name: &str) -> Result<CharFilter> {
        let o = Options::new(def);
        let ty = o.string("type").unwrap_or_default();
        Ok(match ty.as_str() {
            "mapping" => {
                let Some(rules) = o.list("mappings") else {
                    return Err(Error::illegal_argument(
                        "mapping requires either `mappings` or `mappings_path` to be configured",
                    ));
                };
                let mut m = Mapping::default();
                for rule in rules {
                    let (key, value) = parse_mapping_rule(&rule)?;
                    m.add(key, value).map_err(Error::illegal_argument)?;
                }
                CharFilter::Mapping(m)
            }
            "pattern_replace" => {
                let Some(pattern) = o.string("pattern") else {
                    return Err(Error::illegal_argument(format!(
                        "pattern is missing for [{name}] char filter of type 'pattern_replace'"
                    )));
                };
                let pattern = JavaRegex::new(&pattern, &o.string("flags").unwrap_or_default())
                    .map_err(Error::illegal_argument)?;
                let replacement = Replacement::parse(
                    &o.string("replacement").unwrap_or_default(),
                    pattern.groups(),
                    &pattern.group_names(),
                )
                .map_err(Error::illegal_argument)?;
                CharFilter::PatternReplace { pattern, replacement }
            }
            "html_strip" => CharFilter::HtmlStrip(HtmlStrip::new(&o.list("escaped_tags").unwrap_or_default())),
            _ => return Err(Error::illegal_argument(format!("Unknown char_filter type [{ty}] for [{name}]"))),
        })
    }

    /// A token filter named or defined by `spec`.
    pub fn token_filter(&self, spec: &Value) -> Result<Named<TokenFilter>> {
        match spec {
            Value::String(name) => {
                if let Some(def) = self.section("filter", name) {
                    return Ok(Named::new(name.clone(), self.filter_of(def, name)?));
                }
                if !ES_FILTERS.contains(&name.as_str()) {
                    return Err(Error::illegal_argument(format!(
                        "failed to find {}token filter under [{name}]",
                        self.scope()
                    )));
                }
                Ok(Named::new(name.clone(), self.filter_of(&type_only(name), name)?))
            }
            Value::Object(def) => {
                let ty = anonymous_type(def, "token filter")?;
                if !ES_FILTERS.contains(&ty.as_str()) {
                    return Err(Error::illegal_argument(format!("failed to find global token filter under [{ty}]")));
                }
                Ok(Named::new("_anonymous_tokenfilter", self.filter_of(def, "_anonymous_tokenfilter")?))
            }
            _ => Err(Error::illegal_argument("filter should be a string or an object")),
        }
    }

    fn filter_of(&self, def: &Map<String, Value>, name: &str) -> Result<TokenFilter> {
        let o = Options::new(def);
        let ty = o.string("type").unwrap_or_default();
        let illegal = |m: String| Error::illegal_argument(m);
        if let Some(n) = Normalization::named(&ty) {
            return Ok(TokenFilter::Normalization(n));
        }
        Ok(match ty.as_str() {
            "lowercase" => match o.string("language").as_deref() {
                None => TokenFilter::Lowercase,
                Some("turkish") => TokenFilter::TurkishLowercase,
                Some("irish") => TokenFilter::IrishLowercase,
                Some("greek") => TokenFilter::GreekLowercase,
                Some(_) => TokenFilter::Lowercase,
            },
            "uppercase" => TokenFilter::Uppercase,
            "asciifolding" => TokenFilter::AsciiFolding { preserve_original: o.boolean("preserve_original", false)? },
            "stop" => {
                if !o.boolean("remove_trailing", true)? {
                    return Err(unsupported("stop filter option", "remove_trailing: false"));
                }
                TokenFilter::Stop(words(&o, "stopwords", &["_english_"], o.boolean("ignore_case", false)?)?)
            }
            "trim" => TokenFilter::Trim,
            "truncate" => {
                let length = o.int("length", -1)?;
                if length <= 0 {
                    return Err(illegal("length parameter must be provided".into()));
                }
                TokenFilter::Truncate { length: length as usize }
            }
            "length" => {
                let min = o.int("min", 0)?;
                let max = o.int("max", i32::MAX as i64)?;
                if min < 0 {
                    return Err(illegal("minimum length must be greater than or equal to zero".into()));
                }
                if min > max {
                    return Err(illegal("maximum length must not be greater than minimum length".into()));
                }
                TokenFilter::Length { min: min as usize, max: max as usize }
            }
            "limit" => {
                // Consuming the rest of the stream changes none of the tokens kept; the
                // option is still read as ES reads it.
                o.boolean("consume_all_tokens", false)?;
                TokenFilter::Limit { max_token_count: o.size("max_token_count", 1)? }
            }
            "unique" => TokenFilter::Unique { only_on_same_position: o.boolean("only_on_same_position", false)? },
            "reverse" => TokenFilter::Reverse,
            "keyword_repeat" => TokenFilter::KeywordRepeat,
            // Lucene's RemoveDuplicatesTokenFilter: a term repeated at one position is
            // dropped, which is `unique` restricted to positions.
            "remove_duplicates" => TokenFilter::Unique { only_on_same_position: true },
            "elision" => {
                let ignore_case = o.boolean("articles_case", false)?;
                match o.list("articles") {
                    Some(a) => TokenFilter::Elision(WordSet::resolve(&a, ignore_case)),
                    None => {
                        return Err(illegal("elision filter requires [articles] or [articles_path] setting".into()))
                    }
                }
            }
            "apostrophe" => TokenFilter::Apostrophe,
            "ngram" | "nGram" | "edge_ngram" | "edgeNGram" => {
                if ty == "nGram" || ty == "edgeNGram" {
                    let proper = if ty == "nGram" { "ngram" } else { "edge_ngram" };
                    deprecation::warn(format!(
                        "The [{ty}] token filter name is deprecated and will be removed in a future version. Please change the filter name to [{proper}] instead."
                    ));
                }
                let edge = ty.starts_with("edge");
                let min = o.int("min_gram", 1)?;
                let max = o.int("max_gram", 2)?;
                if !edge && max - min > self.max_ngram_diff {
                    deprecation::warn(format!(
                        "Deprecated big difference between max_gram and min_gram in NGram Tokenizer,expected difference must be less than or equal to: [{}]",
                        self.max_ngram_diff
                    ));
                }
                check_grams(min, max)?;
                if edge {
                    let back = match o.string("side").as_deref() {
                        None | Some("front") => false,
                        Some("back") => true,
                        Some(other) => return Err(illegal(format!("invalid side: [{other}]"))),
                    };
                    TokenFilter::EdgeNGram { min_gram: min as usize, max_gram: max as usize, back }
                } else {
                    TokenFilter::NGram { min_gram: min as usize, max_gram: max as usize }
                }
            }
            "keyword_marker" => {
                let ignore_case = o.boolean("ignore_case", false)?;
                let pattern = o.string("keywords_pattern");
                let keywords = o.list("keywords");
                match (keywords, pattern) {
                    (Some(_), Some(_)) => {
                        return Err(illegal("cannot specify both `keywords_pattern` and `keywords` or `keywords_path`".into()))
                    }
                    (None, None) => {
                        return Err(illegal("keyword filter requires either `keywords`, `keywords_path`, or `keywords_pattern` to be configured".into()))
                    }
                    (Some(k), None) => TokenFilter::KeywordMarker(KeywordMatcher::Words(WordSet::resolve(&k, ignore_case))),
                    (None, Some(p)) => {
                        TokenFilter::KeywordMarker(KeywordMatcher::Pattern(JavaRegex::new(&p, "").map_err(illegal)?))
                    }
                }
            }
            "pattern_replace" => {
                let Some(pattern) = o.string("pattern") else {
                    return Err(illegal(format!(
                        "pattern is missing for [{name}] token filter of type 'pattern_replace'"
                    )));
                };
                let pattern = JavaRegex::new(&pattern, &o.string("flags").unwrap_or_default()).map_err(illegal)?;
                let replacement = Replacement::parse(
                    &o.string("replacement").unwrap_or_default(),
                    pattern.groups(),
                    &pattern.group_names(),
                )
                .map_err(illegal)?;
                TokenFilter::PatternReplace { pattern, replacement, all: o.boolean("all", true)? }
            }
            "decimal_digit" => TokenFilter::DecimalDigit,
            "classic" => TokenFilter::Classic,
            "cjk_bigram" => {
                let ignored = o.list("ignored_scripts").unwrap_or_default();
                let keep = |script: &str| !ignored.iter().any(|s| s == script);
                let scripts = super::cjk_bigram::Scripts {
                    han: keep("han"),
                    hiragana: keep("hiragana"),
                    katakana: keep("katakana"),
                    hangul: keep("hangul"),
                };
                TokenFilter::CjkBigram { scripts, output_unigrams: o.boolean("output_unigrams", false)? }
            }
            "common_grams" => {
                let ignore_case = o.boolean("ignore_case", false)?;
                let query_mode = o.boolean("query_mode", false)?;
                if o.has("common_words_path") {
                    return Err(unsupported("option", "common_words_path"));
                }
                if !o.has("common_words") {
                    return Err(illegal(
                        "missing or empty [common_words] or [common_words_path] configuration for common_grams token filter"
                            .into(),
                    ));
                }
                TokenFilter::CommonGrams { common_words: words(&o, "common_words", &[], ignore_case)?, query_mode }
            }
            "pattern_capture" => {
                let Some(sources) = o.list("patterns") else {
                    return Err(illegal(format!("required setting 'patterns' is missing for token filter [{name}]")));
                };
                let patterns = sources
                    .iter()
                    .map(|p| JavaRegex::new(p, ""))
                    .collect::<std::result::Result<Vec<_>, _>>()
                    .map_err(illegal)?;
                TokenFilter::PatternCapture { patterns, preserve_original: o.boolean("preserve_original", true)? }
            }
            "porter_stem" => TokenFilter::PorterStem,
            "arabic_stem" => TokenFilter::LightStem(LightStemmer::Arabic),
            "czech_stem" => TokenFilter::LightStem(LightStemmer::Czech),
            "kstem" => TokenFilter::KStem,
            "cjk_width" => TokenFilter::CjkWidth,
            "stemmer" => {
                let language = o.string("language").or_else(|| o.string("name")).unwrap_or_else(|| "porter".into());
                language::stemmer_filter(&language)?
            }
            "snowball" => {
                let language = o.string("language").or_else(|| o.string("name")).unwrap_or_else(|| "English".into());
                language::snowball_filter(&language::capitalize(&language))?
            }
            "stemmer_override" => language::stemmer_override(o.list("rules"), o.has("rules_path"))?,
            "shingle" => {
                let max = o.int("max_shingle_size", 2)?;
                let min = o.int("min_shingle_size", 2)?;
                if max - min > 3 {
                    deprecation::warn(
                        "Deprecated big difference between maxShingleSize and minShingleSize in Shingle TokenFilter,expected difference must be less than or equal to: [3]",
                    );
                }
                if max < 2 {
                    return Err(illegal("Max shingle size must be >= 2".into()));
                }
                if min < 2 {
                    return Err(illegal("Min shingle size must be >= 2".into()));
                }
                if min > max {
                    return Err(illegal("Min shingle size must be <= max shingle size".into()));
                }
                TokenFilter::Shingle(Shingle {
                    min: min as usize,
                    max: max as usize,
                    output_unigrams: o.boolean("output_unigrams", true)?,
                    output_unigrams_if_no_shingles: o.boolean("output_unigrams_if_no_shingles", false)?,
                    token_separator: o.string("token_separator").unwrap_or_else(|| " ".into()),
                    filler_token: o.string("filler_token").unwrap_or_else(|| "_".into()),
                })
            }
            "word_delimiter" | "word_delimiter_graph" => {
                let graph = ty == "word_delimiter_graph";
                let options = word_delimiter(&o, graph)?;
                if graph {
                    TokenFilter::WordDelimiterGraph(Box::new(options))
                } else {
                    TokenFilter::WordDelimiter(Box::new(options))
                }
            }
            "flatten_graph" => TokenFilter::FlattenGraph,
            "fingerprint" => {
                let separator = match o.string("separator") {
                    None => ' ',
                    Some(sep) if sep.chars().count() == 1 => sep.chars().next().unwrap_or(' '),
                    Some(_) => {
                        return Err(illegal(
                            "Setting [separator] must be a single, non-null character. [separator] was set to [\""
                                .to_string()
                                + &o.string("separator").unwrap_or_default()
                                + "\"].",
                        ))
                    }
                };
                TokenFilter::Fingerprint { separator, max_output_size: o.size("max_output_size", 255)? }
            }
            "standard" => {
                deprecation::warn(
                    "The [standard] token filter name is deprecated and will be removed in a future version.",
                );
                TokenFilter::Limit { max_token_count: usize::MAX }
            }
            "synonym" | "synonym_graph" => {
                let synonyms = super::synonyms::definition(&o, &self.files)?;
                if ty == "synonym" {
                    TokenFilter::Synonym(synonyms)
                } else {
                    TokenFilter::SynonymGraph(synonyms)
                }
            }
            t if ES_FILTERS.contains(&t) => return Err(unsupported("token filter", t)),
            _ => return Err(illegal(format!("Unknown filter type [{ty}] for [{name}]"))),
        })
    }

    /// A normalizer the index's `normalizer` section defines: the keyword tokenizer with
    /// char filters and token filters that work on whole values (`None` when undefined).
    pub fn normalizer(&self, name: &str) -> Result<Option<Analysis>> {
        let Some(def) = self.section("normalizer", name) else {
            return Ok(None);
        };
        let o = Options::new(def);
        match o.string("type").as_deref() {
            None | Some("custom") => {}
            Some(t) => return Err(Error::illegal_argument(format!("Unknown normalizer type [{t}] for [{name}]"))),
        }
        if o.has("tokenizer") {
            return Err(Error::illegal_argument(format!("Custom normalizer [{name}] cannot configure a tokenizer")));
        }
        let mut char_filters = Vec::new();
        for c in o.list("char_filter").unwrap_or_default() {
            let f = self.char_filter(&Value::String(c.clone())).map_err(|e| {
                if e.reason().starts_with("failed to find") {
                    Error::illegal_argument(format!(
                        "Custom normalizer [{name}] failed to find char_filter under name [{c}]"
                    ))
                } else {
                    e
                }
            })?;
            // ES lets a normalizer use only multi-term aware char filters.
            if matches!(f.component, CharFilter::HtmlStrip(_)) {
                return Err(Error::illegal_argument(format!(
                    "Custom normalizer [{name}] may not use char filter [{c}]"
                )));
            }
            char_filters.push(f);
        }
        let mut filters = Vec::new();
        for f in o.list("filter").unwrap_or_default() {
            let filter = self.token_filter(&Value::String(f.clone())).map_err(|e| {
                if e.reason().starts_with("failed to find") {
                    Error::illegal_argument(format!(
                        "Custom normalizer [{name}] failed to find filter under name [{f}]"
                    ))
                } else {
                    e
                }
            })?;
            if !filter.component.works_on_whole_values() {
                return Err(Error::illegal_argument(format!("Custom normalizer [{name}] may not use filter [{f}]")));
            }
            filters.push(filter);
        }
        Ok(Some(Analysis {
            kind: Kind::Custom,
            char_filters,
            tokenizer: Named::new("keyword", Tokenizer::Keyword),
            filters,
            position_increment_gap: 0,
            offset_gap: 1,
        }))
    }

    /// Reads the files the index's synonym filters name by `synonyms_path` from the
    /// configuration folder `config`, as ES reads them when it creates the index.
    pub fn read_files(&mut self, config: Option<&std::path::Path>) -> Result<()> {
        self.files = super::synonyms::files::read_all(self.settings.get("filter").and_then(Value::as_object), config)?;
        Ok(())
    }

    /// Builds every definition of the index's settings, used or not, as ES does when
    /// it creates the index: the first one it refuses is the error.
    pub fn check_definitions(&self) -> Result<()> {
        for section in ["char_filter", "tokenizer", "filter", "analyzer", "normalizer"] {
            let Some(Value::Object(defs)) = self.settings.get(section) else { continue };
            for name in defs.keys() {
                let spec = Value::String(name.clone());
                match section {
                    "char_filter" => self.char_filter(&spec).map(drop)?,
                    "tokenizer" => self.tokenizer(&spec).map(drop)?,
                    "filter" => self.token_filter(&spec).map(drop)?,
                    "analyzer" => self.analyzer(name).map(drop)?,
                    _ => self.normalizer(name).map(drop)?,
                }
            }
        }
        Ok(())
    }

    /// ES 6.8 refuses the 5.x name `default_index` for the index analyzer (index
    /// `index` created since 5.0, as every index metagate makes is).
    pub fn check_no_default_index(&self, index: &str) -> Result<()> {
        if self.section("analyzer", "default_index").is_some() {
            return Err(Error::illegal_argument(format!(
                "setting [index.analysis.analyzer.default_index] is not supported anymore, use \
                 [index.analysis.analyzer.default] instead for index [{index}]"
            )));
        }
        Ok(())
    }

    /// The analyzer a mapping or query names, as fields run it: the index's definition
    /// of `name`, else a built-in (the four metagate runs on its fast path, or a chain).
    pub fn field_analyzer(&self, name: &str) -> Result<Analyzer> {
        if self.section("analyzer", name).is_some() {
            return Ok(Analyzer::chain(name, self.analyzer(name)?));
        }
        if let Some(fast) = Analyzer::fast(name) {
            return Ok(fast);
        }
        if name == "default" {
            return Ok(Analyzer::index_default());
        }
        Ok(Analyzer::chain(name, self.analyzer(name)?))
    }

    /// The analyzers of a text field that names none (ES's `IndexAnalyzers` defaults):
    /// the index's `default` (else `standard` under the name `default`) for indexing,
    /// `default_search` (else the index one) for queries, `default_search_quoted` (else
    /// the search one) for quoted query text.
    pub fn default_analyzers(&self) -> Result<[Analyzer; 3]> {
        let defined = |name: &str| -> Result<Option<Analyzer>> {
            match self.section("analyzer", name) {
                Some(_) => Ok(Some(Analyzer::chain(name, self.analyzer(name)?))),
                None => Ok(None),
            }
        };
        let index = defined("default")?.unwrap_or_else(Analyzer::index_default);
        let search = defined("default_search")?.unwrap_or_else(|| index.clone());
        let quote = defined("default_search_quoted")?.unwrap_or_else(|| search.clone());
        Ok([index, search, quote])
    }

    /// The normalizer a keyword mapping names: the index's custom one, else metagate's
    /// built-in `lowercase` (`None`: neither).
    pub fn field_normalizer(&self, name: &str) -> Result<Option<Normalizer>> {
        Ok(match self.normalizer(name)? {
            Some(a) => Some(Normalizer::chain(name, a)),
            None if name == "lowercase" => Some(Normalizer::Lowercase),
            None => None,
        })
    }

    /// An analyzer by name: the index's, else a built-in.
    pub fn analyzer(&self, name: &str) -> Result<Analysis> {
        if let Some(def) = self.section("analyzer", name) {
            return self.analyzer_of(def, name);
        }
        if !(ES_ANALYZERS.contains(&name) || (self.index && name == "default")) {
            return Err(Error::illegal_argument(format!("failed to find {}analyzer [{name}]", self.scope())));
        }
        let name = if name == "default" { "standard" } else { name };
        let mut a = self.analyzer_of(&type_only(name), name)?;
        a.position_increment_gap = if self.index { INDEX_POSITION_INCREMENT_GAP } else { 0 };
        Ok(a)
    }

    fn analyzer_of(&self, def: &Map<String, Value>, name: &str) -> Result<Analysis> {
        let o = Options::new(def);
        let ty = o.string("type");
        let gap = o.int("position_increment_gap", INDEX_POSITION_INCREMENT_GAP as i64)?.max(0) as u32;
        let built_in = |tokenizer: Tokenizer, filters: Vec<(&str, TokenFilter)>| Analysis {
            kind: Kind::BuiltIn(name.to_string()),
            char_filters: Vec::new(),
            tokenizer: Named::new(name, tokenizer),
            filters: filters.into_iter().map(|(n, f)| Named::new(n, f)).collect(),
            position_increment_gap: gap,
            offset_gap: 1,
        };
        Ok(match ty.as_deref() {
            None | Some("custom") => {
                let Some(tokenizer) = o.string("tokenizer") else {
                    return Err(Error::illegal_argument(format!(
                        "analyzer [{name}] must specify either an analyzer type, or a tokenizer"
                    )));
                };
                let tokenizer = self.tokenizer(&Value::String(tokenizer.clone())).map_err(|_| {
                    Error::illegal_argument(format!(
                        "Custom Analyzer [{name}] failed to find tokenizer under name [{tokenizer}]"
                    ))
                })?;
                let mut char_filters = Vec::new();
                for c in o.list("char_filter").unwrap_or_default() {
                    char_filters.push(self.char_filter(&Value::String(c.clone())).map_err(|e| {
                        if e.kind() == "illegal_argument_exception" && e.reason().starts_with("failed to find") {
                            Error::illegal_argument(format!(
                                "Custom Analyzer [{name}] failed to find char_filter under name [{c}]"
                            ))
                        } else {
                            e
                        }
                    })?);
                }
                let mut filters = Vec::new();
                for f in o.list("filter").unwrap_or_default() {
                    filters.push(self.token_filter(&Value::String(f.clone())).map_err(|e| {
                        if e.kind() == "illegal_argument_exception" && e.reason().starts_with("failed to find") {
                            Error::illegal_argument(format!(
                                "Custom Analyzer [{name}] failed to find filter under name [{f}]"
                            ))
                        } else {
                            e
                        }
                    })?);
                }
                let mut analysis = Analysis {
                    kind: Kind::Custom,
                    char_filters,
                    tokenizer,
                    filters,
                    position_increment_gap: gap,
                    offset_gap: 1,
                };
                super::synonyms::bind(&mut analysis)?;
                analysis
            }
            Some("standard") => {
                let max = o.int("max_token_length", DEFAULT_MAX_TOKEN_LENGTH as i64)?;
                let stop = words(&o, "stopwords", &["_none_"], false)?;
                if !(1..=1024 * 1024).contains(&max) {
                    return Err(Error::illegal_argument(format!(
                        "maxTokenLength must be greater than 0 and less than 1048576 passed: {max}"
                    )));
                }
                built_in(
                    Tokenizer::Standard { max_token_length: max as usize },
                    vec![("lowercase", TokenFilter::Lowercase), ("stop", TokenFilter::Stop(stop))],
                )
            }
            Some("simple") => built_in(Tokenizer::Lowercase, Vec::new()),
            Some("whitespace") => {
                built_in(Tokenizer::Whitespace { max_token_length: DEFAULT_MAX_TOKEN_LENGTH }, Vec::new())
            }
            Some("keyword") => built_in(Tokenizer::Keyword, Vec::new()),
            Some("stop") => {
                let stop = words(&o, "stopwords", &["_english_"], false)?;
                built_in(Tokenizer::Lowercase, vec![("stop", TokenFilter::Stop(stop))])
            }
            Some("pattern") => {
                let pattern = o.string("pattern").unwrap_or_else(|| "\\W+".to_string());
                let regex = JavaRegex::new(&pattern, &o.string("flags").unwrap_or_default())
                    .map_err(Error::illegal_argument)?;
                let mut filters = Vec::new();
                if o.boolean("lowercase", true)? {
                    filters.push(("lowercase", TokenFilter::Lowercase));
                }
                filters.push(("stop", TokenFilter::Stop(words(&o, "stopwords", &["_none_"], false)?)));
                built_in(Tokenizer::Pattern { regex, group: -1 }, filters)
            }
            Some("english") => {
                let mut filters = vec![
                    ("possessive", TokenFilter::PossessiveEnglish),
                    ("lowercase", TokenFilter::Lowercase),
                    ("stop", TokenFilter::Stop(words(&o, "stopwords", &["_english_"], false)?)),
                ];
                if let Some(exclusion) = o.list("stem_exclusion").filter(|e| !e.is_empty()) {
                    let set = WordSet::resolve(&exclusion, false);
                    filters.push(("keyword_marker", TokenFilter::KeywordMarker(KeywordMatcher::Words(set))));
                }
                filters.push(("porter_stem", TokenFilter::PorterStem));
                built_in(Tokenizer::Standard { max_token_length: DEFAULT_MAX_TOKEN_LENGTH }, filters)
            }
            Some("snowball") => {
                // ES passes `language` to the Snowball class lookup as given (no capitalizing).
                let lang = o.string("language").unwrap_or_else(|| "English".into());
                let filters = language::snowball_analyzer(&lang, |default| words(&o, "stopwords", default, false))?;
                built_in(Tokenizer::Standard { max_token_length: DEFAULT_MAX_TOKEN_LENGTH }, filters)
            }
            Some(t)
                if language::SNOWBALL_LANGUAGE_ANALYZERS.iter().any(|(a, _)| *a == t)
                    || language::LIGHT_LANGUAGE_ANALYZERS.contains(&t)
                    || language::OTHER_LANGUAGE_ANALYZERS.contains(&t) =>
            {
                let stop = |list: &str| words(&o, "stopwords", &[list], false);
                let filters = language::snowball_language_analyzer(t, &o, stop)
                    .or_else(|| language::light_language_analyzer(t, &o, stop))
                    .or_else(|| language::other_language_analyzer(t, &o, stop))
                    .unwrap_or_else(|| Ok(Vec::new()))?;
                let mut a = built_in(Tokenizer::Standard { max_token_length: DEFAULT_MAX_TOKEN_LENGTH }, filters);
                if t == "persian" {
                    // Lucene's PersianCharFilter: the zero-width non-joiner becomes a space.
                    let mut zwnj = Mapping::default();
                    zwnj.add("\u{200C}".into(), " ".into()).map_err(Error::illegal_argument)?;
                    a.char_filters.push(Named::new("persian", CharFilter::Mapping(zwnj)));
                }
                a
            }
            Some("fingerprint") => {
                let separator = o.string("separator").and_then(|s| s.chars().next()).unwrap_or(' ');
                built_in(
                    Tokenizer::Standard { max_token_length: DEFAULT_MAX_TOKEN_LENGTH },
                    vec![
                        ("lowercase", TokenFilter::Lowercase),
                        ("asciifolding", TokenFilter::AsciiFolding { preserve_original: false }),
                        ("stop", TokenFilter::Stop(words(&o, "stopwords", &["_none_"], false)?)),
                        (
                            "fingerprint",
                            TokenFilter::Fingerprint { separator, max_output_size: o.size("max_output_size", 255)? },
                        ),
                    ],
                )
            }
            Some("standard_html_strip") => {
                deprecation::warn(
                    "Deprecated analyzer [standard_html_strip] used, replace it with a custom analyzer using [standard] \
                     tokenizer and [html_strip] char_filter, plus [lowercase] filter",
                );
                let stop = words(&o, "stopwords", &["_none_"], false)?;
                let mut a = built_in(
                    Tokenizer::Standard { max_token_length: DEFAULT_MAX_TOKEN_LENGTH },
                    vec![("lowercase", TokenFilter::Lowercase), ("stop", TokenFilter::Stop(stop))],
                );
                a.char_filters.push(Named::new("html_strip", CharFilter::HtmlStrip(HtmlStrip::new::<&str>(&[]))));
                a
            }
            Some(t) if ES_ANALYZERS.contains(&t) => return Err(unsupported("analyzer", t)),
            Some(t) => return Err(Error::illegal_argument(format!("Unknown analyzer type [{t}] for [{name}]"))),
        })
    }
}

/// `{"type": name}`: a built-in component with its defaults.
fn type_only(name: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("type".into(), Value::String(name.to_string()));
    m
}

/// The `type` of an inline definition, or ES's error naming the definition.
fn anonymous_type(def: &Map<String, Value>, what: &str) -> Result<String> {
    Options::new(def).string("type").ok_or_else(|| {
        Error::illegal_argument(format!("Missing [type] setting for anonymous {what}: {}", java_map(def)))
    })
}

/// A JSON object as Java's `Map.toString` prints it.
fn java_map(m: &Map<String, Value>) -> String {
    fn java_value(v: &Value) -> String {
        match v {
            Value::String(s) => s.clone(),
            Value::Array(a) => format!("[{}]", a.iter().map(java_value).collect::<Vec<_>>().join(", ")),
            Value::Object(o) => java_map(o),
            other => other.to_string(),
        }
    }
    format!("{{{}}}", m.iter().map(|(k, v)| format!("{k}={}", java_value(v))).collect::<Vec<_>>().join(", "))
}

/// A word list setting (ES's `Analysis.parseWords`): `_none_`, predefined lists, words.
fn words(o: &Options, key: &str, default: &[&str], ignore_case: bool) -> Result<WordSet> {
    if o.has(&format!("{key}_path")) {
        return Err(unsupported("option", &format!("{key}_path")));
    }
    let list = o.list(key).unwrap_or_else(|| default.iter().map(|s| s.to_string()).collect());
    if list.len() == 1 && list[0] == "_none_" {
        return Ok(WordSet::resolve::<&str>(&[], ignore_case));
    }
    // A `_name_` that is no predefined list is a word, as ES takes it.
    Ok(WordSet::resolve(&list, ignore_case))
}

/// ES's `Analysis.getWordList`: the `{key}_path` file (read from the node's configuration
/// folder, which metagate has not: ES's error for a missing file), else the `{key}` list.
fn word_list(o: &Options, key: &str) -> Result<Option<Vec<String>>> {
    if let Some(path) = o.string(&format!("{key}_path")) {
        return Err(Error::illegal_argument(format!("IOException while reading {key}_path: {path}")));
    }
    Ok(o.list(key))
}

/// The options of `word_delimiter` and `word_delimiter_graph`, read in the order ES's
/// factories read them (`adjust_offsets` for the graph filter only).
fn word_delimiter(o: &Options, graph: bool) -> Result<WordDelimiter> {
    let type_table = match word_list(o, "type_table")? {
        Some(rules) => TypeTable::parse(&rules)?,
        None => TypeTable::Default,
    };
    let d = WordDelimiter::default();
    let mut w = WordDelimiter {
        generate_word_parts: o.boolean("generate_word_parts", d.generate_word_parts)?,
        generate_number_parts: o.boolean("generate_number_parts", d.generate_number_parts)?,
        catenate_words: o.boolean("catenate_words", d.catenate_words)?,
        catenate_numbers: o.boolean("catenate_numbers", d.catenate_numbers)?,
        catenate_all: o.boolean("catenate_all", d.catenate_all)?,
        split_on_case_change: o.boolean("split_on_case_change", d.split_on_case_change)?,
        preserve_original: o.boolean("preserve_original", d.preserve_original)?,
        split_on_numerics: o.boolean("split_on_numerics", d.split_on_numerics)?,
        stem_english_possessive: o.boolean("stem_english_possessive", d.stem_english_possessive)?,
        type_table,
        ..d
    };
    if let Some(words) = word_list(o, "protected_words")? {
        w.protected_words = Some(WordSet::literal(&words, o.boolean("protected_words_case", false)?));
    }
    if graph {
        w.adjust_offsets = o.boolean("adjust_offsets", true)?;
    }
    Ok(w)
}

fn check_grams(min: i64, max: i64) -> Result<()> {
    if min < 1 {
        return Err(Error::illegal_argument("minGram must be greater than zero"));
    }
    if min > max {
        return Err(Error::illegal_argument("minGram must not be greater than maxGram"));
    }
    Ok(())
}

/// One `tokenize_on_chars` entry of `char_group`: a character, an escape or a class.
fn parse_char_class(c: &str, chars: &mut TokenChars) -> Result<()> {
    let n = c.chars().count();
    if n == 0 {
        return Err(Error::illegal_argument("[tokenize_on_chars] cannot contain empty characters"));
    }
    if n == 1 {
        chars.chars.push(c.chars().next().unwrap_or(' '));
        return Ok(());
    }
    if let Some(rest) = c.strip_prefix('\\') {
        chars.chars.push(parse_escaped(rest, c)?);
        return Ok(());
    }
    match c {
        "letter" => chars.letter = true,
        "digit" => chars.digit = true,
        "whitespace" => chars.whitespace = true,
        "punctuation" => chars.punctuation = true,
        "symbol" => chars.symbol = true,
        _ => return Err(Error::illegal_argument(format!("Invalid escaped char in [{c}]"))),
    }
    Ok(())
}

fn parse_escaped(rest: &str, whole: &str) -> Result<char> {
    let bad = || Error::illegal_argument(format!("Invalid escaped char in [{whole}]"));
    let mut it = rest.chars();
    match it.next() {
        Some('u') => u32::from_str_radix(it.as_str(), 16).ok().and_then(char::from_u32).ok_or_else(bad),
        Some('n') if it.as_str().is_empty() => Ok('\n'),
        Some('t') if it.as_str().is_empty() => Ok('\t'),
        Some('r') if it.as_str().is_empty() => Ok('\r'),
        Some('b') if it.as_str().is_empty() => Ok('\u{8}'),
        Some('f') if it.as_str().is_empty() => Ok('\u{C}'),
        _ => Err(bad()),
    }
}

/// A `mapping` rule `key => value`, both sides trimmed and unescaped.
fn parse_mapping_rule(rule: &str) -> Result<(String, String)> {
    let invalid = || Error::illegal_argument(format!("Invalid Mapping Rule : [{rule}]"));
    let (lhs, rhs) = rule.rsplit_once("=>").ok_or_else(invalid)?;
    let unescape = |s: &str| -> Result<String> {
        let mut out = String::new();
        let mut it = s.chars();
        while let Some(c) = it.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match it.next() {
                Some('\\') => out.push('\\'),
                Some('"') => out.push('"'),
                Some('\'') => out.push('\''),
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('b') => out.push('\u{8}'),
                Some('f') => out.push('\u{C}'),
                Some('u') => {
                    let hex: String = it.by_ref().take(4).collect();
                    let v = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
                    out.push(v.ok_or_else(|| Error::illegal_argument(format!("Invalid escaped char in [{s}]")))?);
                }
                _ => return Err(Error::illegal_argument(format!("Invalid escaped char in [{s}]"))),
            }
        }
        Ok(out)
    };
    Ok((unescape(lhs.trim())?, unescape(rhs.trim())?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn terms(a: &Analysis, text: &str) -> Vec<String> {
        a.analyze(text).unwrap().tokens.into_iter().map(|t| t.term).collect()
    }

    #[test]
    fn built_in_analyzers() {
        let g = AnalysisRegistry::global();
        assert_eq!(terms(&g.analyzer("stop").unwrap(), "The QUICK fox"), ["quick", "fox"]);
        let e = g.analyzer("nope").unwrap_err();
        assert_eq!(e.reason(), "failed to find global analyzer [nope]");
        assert_eq!(
            AnalysisRegistry::for_index(Map::new()).analyzer("nope").unwrap_err().reason(),
            "failed to find analyzer [nope]"
        );
    }

    #[test]
    fn custom_analyzer_from_settings() {
        let settings = json!({
            "analyzer": {"my": {"tokenizer": "my_tok", "filter": ["lowercase", "my_stop"], "char_filter": ["dash"]}},
            "tokenizer": {"my_tok": {"type": "whitespace"}},
            "filter": {"my_stop": {"type": "stop", "stopwords": ["b"]}},
            "char_filter": {"dash": {"type": "mapping", "mappings": ["- => _"]}}
        });
        let r = AnalysisRegistry::for_index(settings.as_object().unwrap().clone());
        assert_eq!(terms(&r.analyzer("my").unwrap(), "A-1 B c"), ["a_1", "c"]);
    }

    #[test]
    fn normalizers_from_settings() {
        let settings = json!({
            "normalizer": {"n": {"type": "custom", "filter": ["lowercase", "asciifolding"]},
                           "bad": {"filter": ["porter_stem"]}, "tok": {"tokenizer": "standard"}}
        });
        let r = AnalysisRegistry::for_index(settings.as_object().unwrap().clone());
        assert_eq!(terms(&r.normalizer("n").unwrap().unwrap(), "Ça Va"), ["ca va"]);
        assert!(r.normalizer("none").unwrap().is_none());
        assert_eq!(
            r.normalizer("bad").unwrap_err().reason(),
            "Custom normalizer [bad] may not use filter [porter_stem]"
        );
        assert_eq!(r.normalizer("tok").unwrap_err().reason(), "Custom normalizer [tok] cannot configure a tokenizer");
    }

    #[test]
    fn word_delimiter_files_and_tables() {
        let g = AnalysisRegistry::global();
        for key in ["protected_words_path", "type_table_path"] {
            let e = g.token_filter(&json!({"type": "word_delimiter_graph", key: "analysis/words.txt"})).unwrap_err();
            let setting = key.trim_end_matches("_path");
            assert_eq!(e.reason(), format!("IOException while reading {setting}_path: analysis/words.txt"));
        }
        let e = g.token_filter(&json!({"type": "word_delimiter", "type_table": ["# => NOPE"]})).unwrap_err();
        assert_eq!((e.status, e.kind()), (500, "runtime_exception"));
        let e = g.token_filter(&json!({"type": "word_delimiter_graph", "adjust_offsets": "no"})).unwrap_err();
        assert_eq!(e.reason(), "Failed to parse value [no] as only [true] or [false] are allowed.");
        let a = g.token_filter(
            &json!({"type": "word_delimiter", "protected_words": ["Wi-Fi"], "protected_words_case": true}),
        );
        assert!(a.is_ok());
    }

    #[test]
    fn standard_html_strip_warns() {
        crate::deprecation::start();
        let a = AnalysisRegistry::global().analyzer("standard_html_strip").unwrap();
        assert_eq!(terms(&a, "<i>A</i> &lt;B&gt;"), ["a", "b"]);
        assert_eq!(
            crate::deprecation::take(),
            ["Deprecated analyzer [standard_html_strip] used, replace it with a custom analyzer using [standard] \
              tokenizer and [html_strip] char_filter, plus [lowercase] filter"]
        );
    }

    #[test]
    fn es_errors() {
        let g = AnalysisRegistry::global();
        let e = g.tokenizer(&json!({"type": "icu_tokenizer"})).unwrap_err();
        assert_eq!(e.reason(), "failed to find global tokenizer under [icu_tokenizer]");
        let e = g.token_filter(&json!({"stopwords": ["a"]})).unwrap_err();
        assert_eq!(e.reason(), "Missing [type] setting for anonymous token filter: {stopwords=[a]}");
        let e = g.tokenizer(&json!({"type": "ngram", "min_gram": "3", "max_gram": 2})).unwrap_err();
        assert_eq!(e.reason(), "minGram must not be greater than maxGram");
        let e = g.token_filter(&json!({"type": "asciifolding", "preserve_original": "yes"})).unwrap_err();
        assert_eq!(e.reason(), "Failed to parse value [yes] as only [true] or [false] are allowed.");
        let e = g.tokenizer(&json!({"type": "ngram", "min_gram": "x"})).unwrap_err();
        assert_eq!(e.kind(), "settings_exception");
        assert!(g.char_filter(&json!({"type": "html_strip", "escaped_tags": ["b"]})).is_ok());
        let r = AnalysisRegistry::for_index(
            json!({"normalizer": {"n": {"char_filter": ["html_strip"]}}}).as_object().unwrap().clone(),
        );
        assert_eq!(
            r.normalizer("n").unwrap_err().reason(),
            "Custom normalizer [n] may not use char filter [html_strip]"
        );
    }
}
