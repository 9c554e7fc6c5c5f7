//! The `suggest` section of a search body, read as ES 6.8's `SuggestBuilder` and the
//! suggestion builders read it: a global `text`, then named suggestions, each with its
//! `text`, `prefix` or `regex` and one suggester (`completion`, `term`, `phrase`: the
//! last read by `phrase_suggest.rs`).

use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// One named suggestion.
#[derive(Debug, Clone, PartialEq)]
pub struct SuggestSpec {
    /// Its name (the response's key).
    pub name: String,
    /// `text`, else the section's global `text`.
    pub text: Option<String>,
    /// `prefix`.
    pub prefix: Option<String>,
    /// `regex`.
    pub regex: Option<String>,
    /// The suggester and its options.
    pub kind: SuggesterKind,
}

/// A suggester with its options.
#[derive(Debug, Clone, PartialEq)]
pub enum SuggesterKind {
    /// `completion`.
    Completion(CompletionSuggest),
    /// `term`.
    Term(TermSuggest),
    /// `phrase`.
    Phrase(Box<super::phrase_suggest::PhraseSuggest>),
}

impl SuggesterKind {
    /// The suggester's name (`typed_keys` prefixes it).
    pub fn type_name(&self) -> &'static str {
        match self {
            SuggesterKind::Completion(_) => "completion",
            SuggesterKind::Term(_) => "term",
            SuggesterKind::Phrase(_) => "phrase",
        }
    }
}

/// The completion suggester's options.
#[derive(Debug, Clone, PartialEq)]
pub struct CompletionSuggest {
    /// `field`.
    pub field: String,
    /// `size` (5).
    pub size: usize,
    /// `shard_size`: the entries each index collects (`size` when absent).
    pub shard_size: Option<usize>,
    /// `skip_duplicates`.
    pub skip_duplicates: bool,
    /// `fuzzy`.
    pub fuzzy: Option<FuzzyOptions>,
    /// `regex` options (with a `regex` text).
    pub regex: RegexOptions,
    /// `contexts`: per context name, the queried values.
    pub contexts: Vec<(String, Vec<QueryContext>)>,
}

/// `fuzzy` options of a completion suggestion (ES's `FuzzyOptions`).
#[derive(Debug, Clone, PartialEq)]
pub struct FuzzyOptions {
    /// Maximum edits (`fuzziness`; `AUTO` is one edit here, as `Fuzziness.asDistance()`).
    pub max_edits: u32,
    /// `transpositions` (true).
    pub transpositions: bool,
    /// `min_length` (3): shorter prefixes match exactly.
    pub min_length: usize,
    /// `prefix_length` (1): leading labels that must match exactly.
    pub prefix_length: usize,
    /// `unicode_aware` (false): edits count code points rather than bytes.
    pub unicode_aware: bool,
}

impl Default for FuzzyOptions {
    fn default() -> FuzzyOptions {
        FuzzyOptions { max_edits: 1, transpositions: true, min_length: 3, prefix_length: 1, unicode_aware: false }
    }
}

/// `regex` options of a completion suggestion.
#[derive(Debug, Clone, PartialEq)]
pub struct RegexOptions {
    /// `flags` as Lucene's `RegExp` syntax flags.
    pub flags: u32,
    /// `max_determinized_states` (10,000).
    pub max_determinized_states: usize,
}

impl Default for RegexOptions {
    fn default() -> RegexOptions {
        RegexOptions { flags: 0xffff, max_determinized_states: 10_000 }
    }
}

/// One queried category context.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryContext {
    /// `context`.
    pub context: String,
    /// `boost` (1).
    pub boost: f64,
    /// `prefix`: values starting with `context` match.
    pub prefix: bool,
}

/// The term suggester's options (ES's `TermSuggestionBuilder`).
#[derive(Debug, Clone, PartialEq)]
pub struct TermSuggest {
    /// `field`.
    pub field: String,
    /// `analyzer` (the field's search analyzer when absent).
    pub analyzer: Option<String>,
    /// `size` (5).
    pub size: usize,
    /// `shard_size` (`size` when absent).
    pub shard_size: Option<usize>,
    /// `suggest_mode`: missing (default), popular, always.
    pub suggest_mode: SuggestMode,
    /// `sort`: by score (default) or frequency.
    pub sort_by_frequency: bool,
    /// `max_edits` (2).
    pub max_edits: u32,
    /// `prefix_length` (1).
    pub prefix_length: usize,
    /// `min_word_length` (4).
    pub min_word_length: usize,
    /// `min_doc_freq` (0): a fraction below 1, else a count.
    pub min_doc_freq: f32,
    /// `max_term_freq` (0.01): a fraction below 1, else a count.
    pub max_term_freq: f32,
    /// `max_inspections` (5).
    pub max_inspections: usize,
    /// `accuracy` (0.5).
    pub accuracy: f32,
    /// `lowercase_terms`.
    pub lowercase_terms: bool,
}

/// When the term suggester suggests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuggestMode {
    /// Only for terms not in the index.
    Missing,
    /// Only suggestions more frequent than the term.
    Popular,
    /// Always.
    Always,
}

pub(super) fn illegal(reason: impl Into<String>) -> Error {
    Error::illegal_argument(reason.into())
}

pub(super) fn parsing(reason: impl Into<String>) -> Error {
    Error::parsing_no_pos(reason.into())
}

/// Reads the `suggest` section.
pub fn parse(v: &Value) -> Result<Vec<SuggestSpec>> {
    let Value::Object(section) = v else {
        return Err(parsing(format!("unexpected token [{}] after [suggest]", token(v))));
    };
    let mut global = None;
    for (k, val) in section {
        if !val.is_object() {
            match (k.as_str(), val) {
                ("text", Value::String(s)) => global = Some(s.clone()),
                ("text", Value::Number(_) | Value::Bool(_)) => global = Some(crate::json_value::value_to_string(val)),
                (_, Value::Array(_)) => return Err(parsing(format!("unexpected token [START_ARRAY] after [{k}]"))),
                _ => return Err(illegal(format!("[suggest] does not support [{k}]"))),
            }
        }
    }
    let mut out: Vec<SuggestSpec> = Vec::new();
    for (name, val) in section {
        let Value::Object(body) = val else { continue };
        let spec = parse_suggestion(name, body, global.as_deref())?;
        out.push(spec);
    }
    Ok(out)
}

pub(super) fn token(v: &Value) -> &'static str {
    match v {
        Value::Null => "VALUE_NULL",
        Value::Bool(_) => "VALUE_BOOLEAN",
        Value::Number(_) => "VALUE_NUMBER",
        Value::String(_) => "VALUE_STRING",
        Value::Array(_) => "START_ARRAY",
        Value::Object(_) => "START_OBJECT",
    }
}

pub(super) fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(_) | Value::Bool(_) => Some(crate::json_value::value_to_string(v)),
        _ => None,
    }
}

fn parse_suggestion(name: &str, body: &Map<String, Value>, global: Option<&str>) -> Result<SuggestSpec> {
    let (mut text, mut prefix, mut regex, mut kind) = (None, None, None, None);
    for (k, v) in body {
        if let Value::Object(options) = v {
            kind = Some(match k.as_str() {
                "completion" => SuggesterKind::Completion(parse_completion(options)?),
                "term" => SuggesterKind::Term(parse_term(options)?),
                "phrase" => SuggesterKind::Phrase(Box::new(super::phrase_suggest::parse(options)?)),
                other => {
                    return Err(parsing(format!(
                        "unable to parse SuggestionBuilder with name [{other}]: parser not found"
                    )))
                }
            });
            continue;
        }
        let value = text_of(v).ok_or_else(|| parsing(format!("suggestion does not support [{k}]")))?;
        match k.as_str() {
            "text" => text = Some(value),
            "prefix" => prefix = Some(value),
            "regex" => regex = Some(value),
            other => return Err(parsing(format!("suggestion does not support [{other}]"))),
        }
    }
    let kind = kind.ok_or_else(|| illegal("missing suggestion object"))?;
    let text = text.or_else(|| global.map(str::to_string));
    Ok(SuggestSpec { name: name.to_string(), text, prefix, regex, kind })
}

pub(super) fn bool_of(k: &str, v: &Value) -> Result<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" || s == "false" => Ok(s == "true"),
        _ => Err(parsing(format!("[{k}] failed to parse field: expected a boolean"))),
    }
}

pub(super) fn int_of(k: &str, v: &Value) -> Result<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .ok_or_else(|| parsing(format!("[{k}] failed to parse field: expected an integer")))
}

pub(super) fn float_of(k: &str, v: &Value) -> Result<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .ok_or_else(|| parsing(format!("[{k}] failed to parse field: expected a number")))
}

pub(super) fn positive_size(k: &str, v: &Value) -> Result<usize> {
    let n = int_of(k, v)?;
    if n <= 0 {
        return Err(illegal(format!("{k} must be positive")));
    }
    Ok(n as usize)
}

fn parse_completion(o: &Map<String, Value>) -> Result<CompletionSuggest> {
    let mut c = CompletionSuggest {
        field: String::new(),
        size: 5,
        shard_size: None,
        skip_duplicates: false,
        fuzzy: None,
        regex: RegexOptions::default(),
        contexts: Vec::new(),
    };
    let mut field = None;
    for (k, v) in o {
        match k.as_str() {
            "field" => field = text_of(v),
            "size" => c.size = positive_size("size", v)?,
            "shard_size" => c.shard_size = Some(positive_size("shard_size", v)?),
            "analyzer" => {}
            "skip_duplicates" => c.skip_duplicates = bool_of(k, v)?,
            "fuzzy" => {
                c.fuzzy = match v {
                    Value::Bool(true) => Some(FuzzyOptions::default()),
                    Value::Bool(false) => None,
                    Value::Object(f) => Some(parse_fuzzy(f)?),
                    _ => return Err(parsing("[fuzzy] failed to parse field")),
                }
            }
            "regex" => {
                let Value::Object(r) = v else { return Err(parsing("[regex] failed to parse field")) };
                for (rk, rv) in r {
                    match rk.as_str() {
                        "flags" => c.regex.flags = regex_flags(rv)?,
                        "max_determinized_states" => c.regex.max_determinized_states = int_of(rk, rv)?.max(0) as usize,
                        other => return Err(parsing(format!("[regexp] unknown field [{other}]"))),
                    }
                }
            }
            "contexts" => c.contexts = parse_query_contexts(v)?,
            other => return Err(parsing(format!("[completion] unknown field [{other}]"))),
        }
    }
    c.field = field.ok_or_else(|| illegal("field must be set"))?;
    Ok(c)
}

fn parse_fuzzy(o: &Map<String, Value>) -> Result<FuzzyOptions> {
    let mut f = FuzzyOptions::default();
    for (k, v) in o {
        match k.as_str() {
            "fuzziness" => {
                let text = crate::json_value::value_to_string(v);
                // `Fuzziness.asDistance()` without a text counts five characters.
                f.max_edits = fuzziness_distance(&text)?;
            }
            "transpositions" => f.transpositions = bool_of(k, v)?,
            "min_length" => f.min_length = int_of(k, v)?.max(0) as usize,
            "prefix_length" => f.prefix_length = int_of(k, v)?.max(0) as usize,
            "unicode_aware" => f.unicode_aware = bool_of(k, v)?,
            "max_determinized_states" => {
                int_of(k, v)?;
            }
            other => return Err(parsing(format!("[fuzzy] unknown field [{other}]"))),
        }
    }
    Ok(f)
}

/// ES's `Fuzziness.asDistance()` without a text: `AUTO` counts five characters.
fn fuzziness_distance(f: &str) -> Result<u32> {
    let upper = f.trim().to_ascii_uppercase();
    if let Some(rest) = upper.strip_prefix("AUTO") {
        let (lo, hi) = match rest.strip_prefix(':').and_then(|r| r.split_once(',')) {
            Some((a, b)) => (a.trim().parse::<usize>().ok(), b.trim().parse::<usize>().ok()),
            None if rest.is_empty() => (Some(3), Some(6)),
            None => (None, None),
        };
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Err(parsing("failed to find low and high distance values"));
        };
        return Ok(if 5 <= lo {
            0
        } else if 5 > hi {
            2
        } else {
            1
        });
    }
    match f.trim().parse::<f32>() {
        Ok(v) if v >= 0.0 => Ok((v as u32).min(2)),
        _ => Err(illegal(format!("fuzziness [{f}] is not a valid value; use 0, 1, 2 or AUTO"))),
    }
}

/// Lucene `RegExp` flags by ES's names (`RegexpFlag`), `|`-separated, or a number.
fn regex_flags(v: &Value) -> Result<u32> {
    if let Value::Number(n) = v {
        return Ok(n.as_u64().unwrap_or(0xffff) as u32);
    }
    let s = crate::json_value::value_to_string(v);
    let mut flags = 0u32;
    for name in s.split('|') {
        flags |= match name.trim().to_ascii_uppercase().as_str() {
            "INTERSECTION" => 0x0001,
            "COMPLEMENT" => 0x0002,
            "EMPTY" => 0x0004,
            "ANYSTRING" => 0x0008,
            "INTERVAL" => 0x0020,
            "ALL" | "" => 0xffff,
            "NONE" => 0,
            other => return Err(illegal(format!("Unknown regexp flag [{other}]"))),
        };
    }
    Ok(flags)
}

fn parse_query_contexts(v: &Value) -> Result<Vec<(String, Vec<QueryContext>)>> {
    let Value::Object(o) = v else { return Err(parsing("[contexts] failed to parse field: expected an object")) };
    let mut out = Vec::new();
    for (name, val) in o {
        let items: Vec<&Value> = match val {
            Value::Array(a) => a.iter().collect(),
            other => vec![other],
        };
        let mut list = Vec::new();
        for item in items {
            list.push(match item {
                Value::Object(c) => {
                    let mut q = QueryContext { context: String::new(), boost: 1.0, prefix: false };
                    let mut given = None;
                    for (k, cv) in c {
                        match k.as_str() {
                            "context" => given = text_of(cv),
                            "boost" => {
                                q.boost = float_of(k, cv)?;
                                if q.boost < 0.0 {
                                    return Err(illegal(format!(
                                        "[boost] must be greater than 0. Found [{}]",
                                        q.boost
                                    )));
                                }
                            }
                            "prefix" => q.prefix = bool_of(k, cv)?,
                            other => return Err(parsing(format!("[category] unknown field [{other}]"))),
                        }
                    }
                    q.context = given.ok_or_else(|| parsing("category context must have a [context] value"))?;
                    q
                }
                other => QueryContext {
                    context: text_of(other)
                        .ok_or_else(|| parsing("category context must be an object, string, number or boolean"))?,
                    boost: 1.0,
                    prefix: false,
                },
            });
        }
        out.push((name.clone(), list));
    }
    Ok(out)
}

/// The term suggestion of a search's URI parameters (`suggest_field`, `suggest_text`,
/// `suggest_size`, `suggest_mode`).
pub fn uri_term_suggestion(field: &str, text: Option<String>, size: i32, mode: Option<&str>) -> Result<SuggestSpec> {
    let mut options = Map::new();
    options.insert("field".into(), Value::String(field.to_string()));
    options.insert("size".into(), Value::from(size));
    if let Some(m) = mode {
        options.insert("suggest_mode".into(), Value::String(m.to_string()));
    }
    Ok(SuggestSpec {
        name: field.to_string(),
        text,
        prefix: None,
        regex: None,
        kind: SuggesterKind::Term(parse_term(&options)?),
    })
}

/// The term suggester's options (also a phrase suggestion's direct generator's
/// spell checker settings, which ES reads into the same `DirectSpellcheckerSettings`).
pub(super) fn parse_term(o: &Map<String, Value>) -> Result<TermSuggest> {
    let mut t = TermSuggest {
        field: String::new(),
        analyzer: None,
        size: 5,
        shard_size: None,
        suggest_mode: SuggestMode::Missing,
        sort_by_frequency: false,
        max_edits: 2,
        prefix_length: 1,
        min_word_length: 4,
        min_doc_freq: 0.0,
        max_term_freq: 0.01,
        max_inspections: 5,
        accuracy: 0.5,
        lowercase_terms: false,
    };
    let mut field = None;
    for (k, v) in o {
        match k.as_str() {
            "field" => field = text_of(v),
            "analyzer" => t.analyzer = text_of(v),
            "size" => t.size = positive_size("size", v)?,
            "shard_size" => t.shard_size = Some(positive_size("shard_size", v)?),
            "suggest_mode" => {
                t.suggest_mode = match text_of(v).unwrap_or_default().to_ascii_lowercase().as_str() {
                    "missing" => SuggestMode::Missing,
                    "popular" => SuggestMode::Popular,
                    "always" => SuggestMode::Always,
                    other => return Err(illegal(format!("Illegal suggest mode {}", other.to_ascii_uppercase()))),
                }
            }
            "sort" => {
                t.sort_by_frequency = match text_of(v).unwrap_or_default().as_str() {
                    "score" => false,
                    "frequency" => true,
                    other => return Err(illegal(format!("Illegal suggest sort {other}"))),
                }
            }
            "max_edits" => {
                let n = int_of(k, v)?;
                if !(1..=2).contains(&n) {
                    return Err(illegal("max_edits must be between 1 and 2"));
                }
                t.max_edits = n as u32;
            }
            "prefix_length" | "prefix_len" => {
                let n = int_of(k, v)?;
                if n < 0 {
                    return Err(illegal("prefix_length must be positive"));
                }
                t.prefix_length = n as usize;
            }
            "min_word_length" | "min_word_len" => {
                let n = int_of(k, v)?;
                if n < 1 {
                    return Err(illegal("min_word_length must be greater or equal to 1"));
                }
                t.min_word_length = n as usize;
            }
            "min_doc_freq" => {
                let f = float_of(k, v)? as f32;
                if f < 0.0 {
                    return Err(illegal("min_doc_freq must be positive"));
                }
                if f > 1.0 && f.fract() != 0.0 {
                    return Err(illegal("if min_doc_freq is greater than 1, it must be a whole number"));
                }
                t.min_doc_freq = f;
            }
            "max_term_freq" => {
                let f = float_of(k, v)? as f32;
                if f < 0.0 {
                    return Err(illegal("max_term_freq must be positive"));
                }
                if f > 1.0 && f.fract() != 0.0 {
                    return Err(illegal("if max_term_freq is greater than 1, it must be a whole number"));
                }
                t.max_term_freq = f;
            }
            "max_inspections" => {
                let n = int_of(k, v)?;
                if n < 0 {
                    return Err(illegal("max_inspections must be positive"));
                }
                t.max_inspections = n as usize;
            }
            "accuracy" => {
                let f = float_of(k, v)? as f32;
                if !(0.0..=1.0).contains(&f) {
                    return Err(illegal("accuracy must be between 0 and 1"));
                }
                t.accuracy = f;
            }
            "lowercase_terms" => t.lowercase_terms = bool_of(k, v)?,
            "string_distance" => {
                let s = text_of(v).unwrap_or_default();
                if s != "internal" {
                    return Err(illegal(format!(
                        "string_distance [{s}] is not supported by metagate: only [internal] is"
                    )));
                }
            }
            "exact_match" => {
                bool_of(k, v)?;
            }
            other => return Err(parsing(format!("suggester[term] doesn't support field [{other}]"))),
        }
    }
    t.field = field.ok_or_else(|| illegal("field must be set"))?;
    Ok(t)
}
