//! The `completion` field type (ES 6.8's `CompletionFieldMapper`): its mapping
//! parameters, how `_mapping` prints them, and the one term each (document, input)
//! becomes in the field's dictionary.
//!
//! A completion entry is indexed as a keyword-like term that carries everything the
//! suggester needs, so that it goes through the loader, the runs and the merge as any
//! term does: the input as its analyzer makes it (tokens joined by Lucene's separator
//! labels, `analysed_form`), the weight, the input as given (the option's `text`) and
//! its contexts. The suggester reads the dictionary back once per generation into its
//! own structure (`search::suggest::completion`).

use super::mapper_parsing;
use crate::analysis::definition::AnalysisRegistry;
use crate::analysis::Analyzer;
use crate::error::Result;
use serde_json::{json, Map, Value};

/// Lucene's `ConcatenateGraphFilter.SEP_LABEL`: between the tokens of an input.
pub const SEP_LABEL: char = '\u{1F}';
/// Lucene's `CompletionAnalyzer.HOLE_CHARACTER` (reserved in inputs).
pub const HOLE_CHARACTER: char = '\u{1E}';
/// Lucene's `ContextSuggestField.CONTEXT_SEPARATOR` (reserved in contexts).
pub const CONTEXT_SEPARATOR: char = '\u{1D}';
/// Lucene's `NRTSuggesterBuilder.END_BYTE` (reserved in inputs); in an entry's term, the
/// end of the analysed form and of the weight.
pub const END_LABEL: char = '\u{0}';

/// A `category` context of a completion field (`geo` contexts are refused).
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryContext {
    /// `name`.
    pub name: String,
    /// `path`: the document field whose values are contexts too.
    pub path: Option<String>,
}

/// The parameters of a completion field.
#[derive(Debug, Clone, PartialEq)]
pub struct CompletionMapping {
    /// `analyzer` (default `simple`).
    pub analyzer: Analyzer,
    /// `search_analyzer` (default: `analyzer`).
    pub search_analyzer: Analyzer,
    /// `preserve_separators` (default true).
    pub preserve_separators: bool,
    /// `preserve_position_increments` (default true).
    pub preserve_position_increments: bool,
    /// `max_input_length` in UTF-16 units (default 50).
    pub max_input_length: usize,
    /// `contexts`, in mapping order (a context's number is its position).
    pub contexts: Vec<CategoryContext>,
}

/// The parameters ES 6.8's completion type parser reads besides `type`.
const KNOWN: [&str; 8] = [
    "analyzer",
    "search_analyzer",
    "preserve_separators",
    "preserve_position_increments",
    "max_input_length",
    "max_input_len",
    "contexts",
    "fields",
];

impl CompletionMapping {
    /// Reads a completion field's definition as ES 6.8's `CompletionFieldMapper.TypeParser`.
    pub fn parse(path: &str, def: &Value, analysis: &AnalysisRegistry) -> Result<CompletionMapping> {
        let leaf = path.rsplit('.').next().unwrap_or(path);
        let obj = def.as_object().cloned().unwrap_or_default();
        let rest: String = obj
            .iter()
            .filter(|(k, _)| k.as_str() != "type" && !KNOWN.contains(&k.as_str()))
            .map(|(k, v)| format!(" [{k} : {}]", super::java_string_of(v)))
            .collect();
        if !rest.is_empty() {
            return Err(mapper_parsing(format!("Mapping definition for [{leaf}] has unsupported parameters: {rest}")));
        }
        if obj.contains_key("fields") {
            return Err(mapper_parsing(format!(
                "multi-fields of completion field [{path}] are not supported by metagate"
            )));
        }
        let named = |key: &str| -> Result<Option<Analyzer>> {
            let Some(v) = obj.get(key) else { return Ok(None) };
            let name = v.as_str().map_or_else(|| v.to_string(), str::to_string);
            analysis
                .field_analyzer(&name)
                .map(Some)
                .map_err(|_| mapper_parsing(format!("Can't find default or mapped analyzer with name [{name}]")))
        };
        let analyzer = match named("analyzer")? {
            Some(a) => a,
            None => analysis.field_analyzer("simple")?,
        };
        let search_analyzer = named("search_analyzer")?.unwrap_or_else(|| analyzer.clone());
        let flag = |key: &str| -> Result<bool> {
            match obj.get(key) {
                None => Ok(true),
                Some(Value::Bool(b)) => Ok(*b),
                Some(Value::String(s)) if s == "true" || s == "false" => Ok(s == "true"),
                Some(other) => Err(mapper_parsing(format!(
                    "Failed to parse value [{}] as only [true] or [false] are allowed.",
                    super::java_string_of(other)
                ))),
            }
        };
        let max_input_length = match obj.get("max_input_length").or_else(|| obj.get("max_input_len")) {
            None => 50,
            Some(v) => {
                let n = v
                    .as_i64()
                    .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
                    .ok_or_else(|| mapper_parsing(format!("For input string: \"{}\"", super::java_string_of(v))))?;
                if n <= 0 {
                    return Err(mapper_parsing(format!("[max_input_length] must be > 0 but was [{n}]")));
                }
                n.min(i32::MAX as i64) as usize
            }
        };
        let contexts = match obj.get("contexts") {
            None => Vec::new(),
            Some(v) => parse_contexts(path, v)?,
        };
        Ok(CompletionMapping {
            analyzer,
            search_analyzer,
            preserve_separators: flag("preserve_separators")?,
            preserve_position_increments: flag("preserve_position_increments")?,
            max_input_length,
            contexts,
        })
    }

    /// The field as `_mapping` prints it (ES's `CompletionFieldMapper.toXContent`).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), json!("completion"));
        m.insert("analyzer".into(), json!(self.analyzer.name()));
        if self.search_analyzer.name() != self.analyzer.name() {
            m.insert("search_analyzer".into(), json!(self.search_analyzer.name()));
        }
        m.insert("preserve_separators".into(), json!(self.preserve_separators));
        m.insert("preserve_position_increments".into(), json!(self.preserve_position_increments));
        m.insert("max_input_length".into(), json!(self.max_input_length));
        if !self.contexts.is_empty() {
            let contexts = self
                .contexts
                .iter()
                .map(|c| {
                    let mut o = Map::new();
                    o.insert("name".into(), json!(c.name));
                    o.insert("type".into(), json!("CATEGORY"));
                    if let Some(p) = &c.path {
                        o.insert("path".into(), json!(p));
                    }
                    Value::Object(o)
                })
                .collect();
            m.insert("contexts".into(), Value::Array(contexts));
        }
        Value::Object(m)
    }

    /// The number of the context named `name`.
    pub fn context_index(&self, name: &str) -> Option<usize> {
        self.contexts.iter().position(|c| c.name == name)
    }

    /// An input as the field's analyzer makes it (see [`analysed_form`]).
    pub fn analyse_input(&self, input: &str) -> Result<String> {
        analysed_form(&self.analyzer, input, self.preserve_separators, self.preserve_position_increments)
    }

    /// A query text as the field's search analyzer makes it.
    pub fn analyse_query(&self, text: &str) -> Result<String> {
        analysed_form(&self.search_analyzer, text, self.preserve_separators, self.preserve_position_increments)
    }

    /// `input` cut at `max_input_length` UTF-16 units, never inside a surrogate pair (as
    /// ES's `CompletionFieldMapper.parse`).
    pub fn truncate<'a>(&self, input: &'a str) -> &'a str {
        let mut units = 0;
        for (i, c) in input.char_indices() {
            if units >= self.max_input_length {
                return &input[..i];
            }
            units += c.len_utf16();
        }
        input
    }
}

/// ES's `ContextMappings.load` over a `contexts` definition (one object or a list).
fn parse_contexts(path: &str, v: &Value) -> Result<Vec<CategoryContext>> {
    let list: Vec<&Value> = match v {
        Value::Array(a) => {
            if a.is_empty() {
                return Err(mapper_parsing("expected at least one context mapping"));
            }
            a.iter().collect()
        }
        Value::Object(_) => vec![v],
        _ => return Err(mapper_parsing("expected a list or an entry of context mapping")),
    };
    let mut out: Vec<CategoryContext> = Vec::new();
    for c in list {
        let Some(o) = c.as_object() else {
            return Err(mapper_parsing("expected a list or an entry of context mapping"));
        };
        let required = |k: &str| -> Result<String> {
            o.get(k)
                .filter(|v| !v.is_null())
                .map(|v| v.as_str().map_or_else(|| super::java_string_of(v), str::to_string))
                .ok_or_else(|| mapper_parsing(format!("missing [{k}] in context mapping")))
        };
        let name = required("name")?;
        let ctype = required("type")?;
        match ctype.to_ascii_lowercase().as_str() {
            "category" => {}
            "geo" => {
                return Err(mapper_parsing(format!(
                    "context [{name}] of completion field [{path}]: geo contexts are not supported by metagate; use a category context"
                )))
            }
            _ => return Err(mapper_parsing(format!("No context type for [{ctype}]"))),
        }
        let rest: Vec<String> = o
            .iter()
            .filter(|(k, _)| !["name", "type", "path"].contains(&k.as_str()))
            .map(|(k, v)| format!("{k}={}", super::java_string_of(v)))
            .collect();
        if !rest.is_empty() {
            return Err(mapper_parsing(format!(
                "Mapping definition for [{name}] has unsupported parameters:  [{}]",
                rest.join(", ")
            )));
        }
        let path = o.get("path").map(|v| v.as_str().map_or_else(|| super::java_string_of(v), str::to_string));
        out.push(CategoryContext { name, path });
    }
    Ok(out)
}

/// The labels Lucene's completion analysis makes of `text`: the analyzer's tokens
/// concatenated, each position step a separator label when `preserve_separators`
/// (`TokenStreamToAutomaton` then `ConcatenateGraphFilter`: a hole left by a removed
/// token is one more separator when `preserve_position_increments`, none otherwise).
/// Analyzers that stack tokens (synonyms) make token graphs, which metagate does not
/// expand: they are refused.
pub fn analysed_form(analyzer: &Analyzer, text: &str, preserve_sep: bool, preserve_pos: bool) -> Result<String> {
    let mut out = String::new();
    let mut buf = String::new();
    let mut first = true;
    let mut stacked = false;
    analyzer.for_each_token(text, &mut buf, |term, increment, _, _| {
        if increment == 0 && !first {
            stacked = true;
            return;
        }
        let steps = match (first, preserve_pos) {
            (true, true) => increment.saturating_sub(1),
            (true, false) => 0,
            (false, true) => increment,
            (false, false) => 1,
        };
        if preserve_sep {
            for _ in 0..steps.min(1 << 16) {
                out.push(SEP_LABEL);
            }
        }
        out.push_str(term);
        first = false;
    })?;
    if stacked {
        return Err(crate::error::Error::illegal_argument(format!(
            "analyzer [{}] stacks tokens: completion over token graphs is not supported by metagate",
            analyzer.name()
        )));
    }
    Ok(out)
}

/// The reserved character of `s`, with its UTF-16 index, as Lucene's `SuggestField`
/// refuses inputs holding one.
pub fn reserved_char(s: &str, reserved: &[char]) -> Option<(char, usize)> {
    let mut at = 0;
    for c in s.chars() {
        if reserved.contains(&c) {
            return Some((c, at));
        }
        at += c.len_utf16();
    }
    None
}

/// The term of one completion entry: analysed form, [`END_LABEL`], the weight in ten
/// digits, [`END_LABEL`], the input as given, then per context
/// [`CONTEXT_SEPARATOR`], the context's number as a character and its value.
pub fn entry_term(analysed: &str, weight: u32, surface: &str, contexts: &[(usize, &str)]) -> String {
    let mut t = String::with_capacity(analysed.len() + surface.len() + 12);
    t.push_str(analysed);
    t.push(END_LABEL);
    t.push_str(&format!("{weight:010}"));
    t.push(END_LABEL);
    t.push_str(surface);
    for (i, v) in contexts {
        t.push(CONTEXT_SEPARATOR);
        t.push(char::from_u32(0x30 + *i as u32).unwrap_or('0'));
        t.push_str(v);
    }
    t
}

/// One completion entry read back from its term.
#[derive(Debug, Clone, PartialEq)]
pub struct EntryParts<'a> {
    /// The analysed form.
    pub analysed: &'a str,
    /// The weight.
    pub weight: u32,
    /// The input as given.
    pub surface: &'a str,
    /// (context number, value).
    pub contexts: Vec<(usize, &'a str)>,
}

/// Reads an entry term written by [`entry_term`]; `None` for anything else.
pub fn parse_entry_term(term: &str) -> Option<EntryParts<'_>> {
    let (analysed, rest) = term.split_once(END_LABEL)?;
    let (weight, rest) = rest.split_once(END_LABEL)?;
    let weight = weight.parse().ok()?;
    let mut parts = rest.split(CONTEXT_SEPARATOR);
    let surface = parts.next()?;
    let mut contexts = Vec::new();
    for p in parts {
        let mut chars = p.chars();
        let i = chars.next()? as u32;
        contexts.push((i.checked_sub(0x30)? as usize, chars.as_str()));
    }
    Some(EntryParts { analysed, weight, surface, contexts })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analysed_forms_join_tokens_with_separators() {
        let simple = Analyzer::fast("simple").unwrap();
        assert_eq!(analysed_form(&simple, "Foo  Bar!", true, true).unwrap(), "foo\u{1F}bar");
        assert_eq!(analysed_form(&simple, "Foo Bar", false, true).unwrap(), "foobar");
        assert_eq!(analysed_form(&simple, "", true, true).unwrap(), "");
    }

    #[test]
    fn entry_terms_round_trip() {
        let t = entry_term("foo\u{1F}bar", 42, "Foo Bar", &[(0, "red"), (1, "x")]);
        let p = parse_entry_term(&t).unwrap();
        assert_eq!(p.analysed, "foo\u{1F}bar");
        assert_eq!(p.weight, 42);
        assert_eq!(p.surface, "Foo Bar");
        assert_eq!(p.contexts, vec![(0, "red"), (1, "x")]);
    }
}
