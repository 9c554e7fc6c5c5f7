//! ES 6.8's `_analyze`: the request body (RestAnalyzeAction), the choice of analyzer
//! (TransportAnalyzeAction: a field's, a named one, one built from `tokenizer`, `filter`
//! and `char_filter`, a normalizer, or the default), and the response with or without
//! `explain` (AnalyzeResponse, DetailAnalyzeResponse).

use super::chain::{Analysis, Kind, Named, Placed, PlacedToken};
use super::definition::{AnalysisRegistry, INDEX_POSITION_INCREMENT_GAP};
use super::token::TokenStream;
use super::tokenizers::Tokenizer;
use crate::error::{Error, Exception, Result};
use crate::json_value::token_name;
use serde_json::{json, Map, Value};

/// A parsed `_analyze` request.
#[derive(Debug, Default)]
pub struct AnalyzeRequest {
    /// The texts.
    pub text: Vec<String>,
    /// `analyzer`.
    pub analyzer: Option<String>,
    /// `tokenizer` (a name or a definition).
    pub tokenizer: Option<Value>,
    /// `filter` entries.
    pub filters: Vec<Value>,
    /// `char_filter` entries.
    pub char_filters: Vec<Value>,
    /// `normalizer`.
    pub normalizer: Option<String>,
    /// `field`.
    pub field: Option<String>,
    /// `explain`.
    pub explain: bool,
    /// `attributes` (lowercased).
    pub attributes: Vec<String>,
}

/// How a mapped field analyses text, for `field`.
#[derive(Debug, Clone)]
pub enum FieldAnalysis {
    /// A text field's index analyzer.
    Analyzer(Analysis),
    /// A keyword field: its normalizer, or the keyword analyzer.
    Keyword(Analysis),
    /// Any other field type: ES refuses to analyse it.
    NotTokenized,
}

fn validation(messages: &[&str]) -> Error {
    let listed: String = messages.iter().enumerate().map(|(i, m)| format!("{}: {m};", i + 1)).collect();
    Error::new(400, Exception::new("action_request_validation_exception", format!("Validation Failed: {listed}")))
}

impl AnalyzeRequest {
    /// Parses a request body (an empty body is a request without text).
    pub fn parse(body: &str) -> Result<AnalyzeRequest> {
        let mut req = AnalyzeRequest::default();
        if body.trim().is_empty() {
            return Ok(req);
        }
        let value: Value = serde_json::from_str(body).map_err(|e| Error::json_parse(e.to_string()))?;
        let Value::Object(map) = value else {
            return Err(Error::parsing_no_pos("request body must be an object"));
        };
        for (key, v) in map {
            let wrong = || {
                Error::illegal_argument(format!(
                    "Unknown parameter [{key}] in request body or parameter is of the wrong type[{}] ",
                    token_name(&v)
                ))
            };
            match (key.as_str(), &v) {
                ("text", Value::String(s)) => req.text = vec![s.clone()],
                ("text", Value::Array(a)) => {
                    let mut texts = Vec::new();
                    for t in a {
                        match t {
                            Value::String(s) => texts.push(s.clone()),
                            other => {
                                return Err(Error::illegal_argument(format!(
                                    "{key} array element should only contain text but found {}",
                                    token_name(other)
                                )))
                            }
                        }
                    }
                    req.text = texts;
                }
                ("analyzer", Value::String(s)) => req.analyzer = Some(s.clone()),
                ("field", Value::String(s)) => req.field = Some(s.clone()),
                ("normalizer", Value::String(s)) => req.normalizer = Some(s.clone()),
                ("tokenizer", Value::String(_) | Value::Object(_)) => req.tokenizer = Some(v.clone()),
                ("filter" | "char_filter", Value::Array(a)) => {
                    for item in a {
                        if !matches!(item, Value::String(_) | Value::Object(_)) {
                            return Err(Error::illegal_argument(format!(
                                "{key} array element should only contain {key} name or definition but found {}",
                                token_name(item)
                            )));
                        }
                    }
                    if key == "filter" {
                        req.filters = a.clone();
                    } else {
                        req.char_filters = a.clone();
                    }
                }
                ("filter" | "char_filter", Value::String(_) | Value::Object(_)) => {
                    if key == "filter" {
                        req.filters = vec![v.clone()];
                    } else {
                        req.char_filters = vec![v.clone()];
                    }
                }
                ("explain", Value::Bool(b)) => req.explain = *b,
                ("explain", Value::String(s)) if s == "true" || s == "false" => req.explain = s == "true",
                ("attributes", Value::Array(a)) => {
                    for item in a {
                        match item {
                            Value::String(s) => req.attributes.push(s.to_lowercase()),
                            other => {
                                return Err(Error::illegal_argument(format!(
                                    "{key} array element should only contain attribute name but found {}",
                                    token_name(other)
                                )))
                            }
                        }
                    }
                }
                _ => return Err(wrong()),
            }
        }
        Ok(req)
    }

    /// ES's `AnalyzeRequest.validate`.
    fn validate(&self, has_index: bool) -> Result<()> {
        let mut problems = Vec::new();
        if self.text.is_empty() {
            problems.push("text is missing");
        }
        if self.analyzer.is_some()
            && (self.tokenizer.is_some() || !self.filters.is_empty() || !self.char_filters.is_empty())
        {
            problems.push("custom tokenizer or filters cannot be specified if a named analyzer is specified");
        }
        if self.normalizer.is_some() && (self.tokenizer.is_some() || self.analyzer.is_some()) {
            problems.push("tokenizer/analyze should be null if normalizer is specified");
        }
        if self.normalizer.is_some() && !has_index {
            problems.push("index is required if normalizer is specified");
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(validation(&problems))
        }
    }
}

/// What `_analyze` needs of an index: its analysis registry, its fields, and its
/// normalizers.
pub struct IndexAnalysis<'a> {
    /// The index's registry.
    pub registry: AnalysisRegistry,
    /// How a mapped field analyses text (`None` for an unmapped field).
    pub field: &'a dyn Fn(&str) -> Option<FieldAnalysis>,
    /// A normalizer of the index by name.
    pub normalizer: &'a dyn Fn(&str) -> Option<Analysis>,
}

/// An `_analyze` answer: the tokens, or the `explain` detail.
#[derive(Debug)]
pub enum AnalyzeResponse {
    /// The tokens of all texts, placed.
    Tokens(Vec<PlacedToken>),
    /// DetailAnalyzeResponse's JSON.
    Detail(Value),
}

impl AnalyzeResponse {
    /// The response as JSON.
    pub fn to_json(&self) -> Value {
        match self {
            AnalyzeResponse::Tokens(tokens) => {
                let mut m = Map::new();
                m.insert("tokens".into(), Value::Array(tokens.iter().map(|t| token_json(t, None)).collect()));
                Value::Object(m)
            }
            AnalyzeResponse::Detail(d) => {
                let mut m = Map::new();
                m.insert("detail".into(), d.clone());
                Value::Object(m)
            }
        }
    }

    /// The response as ES writes it, straight to bytes (no intermediate JSON values).
    pub fn to_bytes(&self) -> Vec<u8> {
        use std::io::Write;
        let tokens = match self {
            AnalyzeResponse::Tokens(tokens) => tokens,
            AnalyzeResponse::Detail(d) => {
                let mut out = b"{\"detail\":".to_vec();
                let _ = serde_json::to_writer(&mut out, d);
                out.push(b'}');
                return out;
            }
        };
        let mut out = Vec::with_capacity(64 + tokens.len() * 96);
        out.extend_from_slice(b"{\"tokens\":[");
        for (i, t) in tokens.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"token\":");
            let _ = serde_json::to_writer(&mut out, &t.token.term);
            let _ = write!(out, ",\"start_offset\":{},\"end_offset\":{},\"type\":", t.start_offset, t.end_offset);
            let _ = serde_json::to_writer(&mut out, t.token.token_type);
            let _ = write!(out, ",\"position\":{}", t.position);
            if t.token.position_length > 1 {
                let _ = write!(out, ",\"positionLength\":{}", t.token.position_length);
            }
            out.push(b'}');
        }
        out.extend_from_slice(b"]}");
        out
    }
}

/// Answers an `_analyze` request, without an index (`None`) or on one.
pub fn respond(req: &AnalyzeRequest, index: Option<&IndexAnalysis>) -> Result<AnalyzeResponse> {
    req.validate(index.is_some())?;
    let global = AnalysisRegistry::global();
    let registry = index.map_or(&global, |i| &i.registry);
    let mut analysis: Option<Analysis> = None;
    if let Some(field) = &req.field {
        let Some(index) = index else {
            return Err(Error::illegal_argument(
                "No index provided, and trying to analyzer based on a specific field which requires the index parameter",
            ));
        };
        match (index.field)(field) {
            Some(FieldAnalysis::Analyzer(a)) | Some(FieldAnalysis::Keyword(a)) => analysis = Some(a),
            Some(FieldAnalysis::NotTokenized) => {
                return Err(Error::illegal_argument(format!(
                    "Can't process field [{field}], Analysis requests are only supported on tokenized fields"
                )))
            }
            None => {}
        }
    }
    let analysis = if let (None, Some(name)) = (&analysis, &req.analyzer) {
        registry.analyzer(name)?
    } else if let Some(tokenizer) = &req.tokenizer {
        let tokenizer = registry.tokenizer(tokenizer)?;
        custom(registry, tokenizer, req)?
    } else if let Some(name) = &req.normalizer {
        let lookup = index.map(|i| (i.normalizer)(name));
        lookup.flatten().ok_or_else(|| Error::illegal_argument(format!("failed to find normalizer under [{name}]")))?
    } else if !req.filters.is_empty() || !req.char_filters.is_empty() {
        normalizer_of_request(registry, req)?
    } else if let Some(a) = analysis {
        a
    } else if index.is_some() {
        let mut a = registry.analyzer("default")?;
        a.kind = Kind::BuiltIn("default".into());
        a
    } else {
        registry.analyzer("standard")?
    };
    if req.explain {
        Ok(AnalyzeResponse::Detail(detail(&analysis, req)?))
    } else {
        let mut placed = Placed::new();
        let mut tokens = Vec::new();
        for text in &req.text {
            placed.place(analysis.analyze(text)?, analysis.position_increment_gap, analysis.offset_gap, &mut tokens);
        }
        Ok(AnalyzeResponse::Tokens(tokens))
    }
}

/// The analyzer of `tokenizer` with the request's filters (gap 0, as ES builds it).
fn custom(registry: &AnalysisRegistry, tokenizer: Named<Tokenizer>, req: &AnalyzeRequest) -> Result<Analysis> {
    let mut char_filters = Vec::new();
    for c in &req.char_filters {
        char_filters.push(registry.char_filter(c)?);
    }
    let mut filters = Vec::new();
    for f in &req.filters {
        filters.push(registry.token_filter(f)?);
    }
    let mut analysis =
        Analysis { kind: Kind::Custom, char_filters, tokenizer, filters, position_increment_gap: 0, offset_gap: 1 };
    super::synonyms::bind(&mut analysis)?;
    Ok(analysis)
}

/// Filters without a tokenizer: a normalizer over the keyword tokenizer, which only
/// takes components that work on whole values.
fn normalizer_of_request(registry: &AnalysisRegistry, req: &AnalyzeRequest) -> Result<Analysis> {
    // ES's html_strip works on whole texts only: refused by name before it is built.
    for c in &req.char_filters {
        let ty = match c {
            Value::String(name) => Some(name.as_str()),
            Value::Object(def) => def.get("type").and_then(Value::as_str),
            _ => None,
        };
        if ty == Some("html_strip") {
            let name = if c.is_string() { "html_strip" } else { "_anonymous_charfilter" };
            return Err(Error::illegal_argument(format!("Custom normalizer may not use char filter [{name}]")));
        }
    }
    let tokenizer = Named::new("keyword_for_normalizer", Tokenizer::Keyword);
    // ES's char filters mapping and pattern_replace work on whole values: all of ours.
    let a = custom(registry, tokenizer, req)?;
    for f in &a.filters {
        if !f.component.works_on_whole_values() {
            return Err(Error::illegal_argument(format!("Custom normalizer may not use filter [{}]", f.name)));
        }
    }
    Ok(a)
}

/// `bytes` as Lucene's `BytesRef.toString` prints a term: its UTF-8 bytes in hex.
fn bytes_of(term: &str) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(2 + term.len() * 3);
    out.push('[');
    for (i, b) in term.bytes().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{b:x}");
    }
    out.push(']');
    out
}

/// One token as AnalyzeToken writes it; with `attributes` (explain), the extended
/// attributes `(keyword attribute present, wanted names)`.
fn token_json(t: &PlacedToken, attributes: Option<(bool, &[String])>) -> Value {
    let mut m = Map::new();
    m.insert("token".into(), Value::String(t.token.term.clone()));
    m.insert("start_offset".into(), Value::from(t.start_offset));
    m.insert("end_offset".into(), Value::from(t.end_offset));
    m.insert("type".into(), Value::String(t.token.token_type.to_string()));
    m.insert("position".into(), Value::from(t.position));
    if t.token.position_length > 1 {
        m.insert("positionLength".into(), Value::from(t.token.position_length));
    }
    if let Some((keyword, wanted)) = attributes {
        let want = |name: &str| wanted.is_empty() || wanted.iter().any(|w| w.eq_ignore_ascii_case(name));
        // Sorted by name, as ES's TreeMap sorts them.
        if want("bytes") {
            m.insert("bytes".into(), Value::String(bytes_of(&t.token.term)));
        }
        if keyword && want("keyword") {
            m.insert("keyword".into(), Value::Bool(t.token.keyword));
        }
        if want("positionLength") {
            m.insert("positionLength".into(), Value::from(t.token.position_length));
        }
        if want("termFrequency") {
            m.insert("termFrequency".into(), Value::from(1));
        }
    }
    Value::Object(m)
}

fn token_list(name: &str, streams: Vec<TokenStream>, a: &Analysis, keyword: bool, wanted: &[String]) -> Value {
    let mut placed = Placed::new();
    let mut tokens = Vec::new();
    for s in streams {
        placed.place(s, a.position_increment_gap, a.offset_gap, &mut tokens);
    }
    json!({ "name": name, "tokens": tokens.iter().map(|t| token_json(t, Some((keyword, wanted)))).collect::<Vec<_>>() })
}

/// DetailAnalyzeResponse: each stage of a custom analyzer, or a built-in one whole.
fn detail(a: &Analysis, req: &AnalyzeRequest) -> Result<Value> {
    let wanted = &req.attributes;
    match &a.kind {
        Kind::BuiltIn(name) => {
            let streams = req.text.iter().map(|t| a.analyze(t)).collect::<Result<Vec<_>>>()?;
            let keyword = a.has_keyword_attribute(a.filters.len());
            Ok(json!({ "custom_analyzer": false, "analyzer": token_list(name, streams, a, keyword, wanted) }))
        }
        Kind::Custom => {
            let stages = req.text.iter().map(|t| a.stages(t)).collect::<Result<Vec<_>>>()?;
            let charfilters: Vec<Value> = a
                .char_filters
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let texts: Vec<&String> = stages.iter().map(|s| &s.filtered_texts[i]).collect();
                    json!({ "name": c.name, "filtered_text": texts })
                })
                .collect();
            let tokenizer_streams = stages.iter().map(|s| s.tokenizer.clone()).collect();
            let tokenizer = token_list(&a.tokenizer.name, tokenizer_streams, a, false, wanted);
            let tokenfilters: Vec<Value> = a
                .filters
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let streams = stages.iter().map(|s| s.filters[i].clone()).collect();
                    token_list(&f.name, streams, a, a.has_keyword_attribute(i + 1), wanted)
                })
                .collect();
            Ok(json!({
                "custom_analyzer": true,
                "charfilters": charfilters,
                "tokenizer": tokenizer,
                "tokenfilters": tokenfilters,
            }))
        }
    }
}

/// The analysis of a field of the built-in families (the `Analyzer` enum), as `_analyze`
/// with `field` uses it: a text field's analyzer under its name with the index gap.
pub fn field_analyzer(registry: &AnalysisRegistry, name: &str) -> Result<Analysis> {
    let mut a = registry.analyzer(name)?;
    a.position_increment_gap = INDEX_POSITION_INCREMENT_GAP;
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: &str) -> Result<Value> {
        respond(&AnalyzeRequest::parse(body)?, None).map(|r| r.to_json())
    }

    #[test]
    fn default_standard_tokens() {
        let v = run(r#"{"text": "Foo Bar"}"#).unwrap();
        assert_eq!(
            v,
            json!({"tokens": [
                {"token": "foo", "start_offset": 0, "end_offset": 3, "type": "<ALPHANUM>", "position": 0},
                {"token": "bar", "start_offset": 4, "end_offset": 7, "type": "<ALPHANUM>", "position": 1}
            ]})
        );
    }

    #[test]
    fn arrays_continue_offsets_and_positions() {
        let v = run(r#"{"text": ["Foo Bar", "Baz"], "tokenizer": "standard"}"#).unwrap();
        let baz = &v["tokens"][2];
        assert_eq!(baz["token"], "Baz");
        assert_eq!(baz["position"], 2);
        assert_eq!(baz["start_offset"], 8);
    }

    #[test]
    fn explain_custom_chain() {
        let v = run(r#"{"text": "foo bar buzz", "tokenizer": "standard", "explain": true,
                        "filter": [{"type": "stop", "stopwords": ["foo", "buzz"]}]}"#)
        .unwrap();
        let d = &v["detail"];
        assert_eq!(d["custom_analyzer"], true);
        assert_eq!(d["tokenizer"]["name"], "standard");
        assert_eq!(d["tokenizer"]["tokens"].as_array().unwrap().len(), 3);
        assert_eq!(d["tokenfilters"][0]["name"], "_anonymous_tokenfilter");
        assert_eq!(
            d["tokenfilters"][0]["tokens"][0],
            json!({"token": "bar", "start_offset": 4, "end_offset": 7, "type": "<ALPHANUM>", "position": 1,
                   "bytes": "[62 61 72]", "positionLength": 1, "termFrequency": 1})
        );
    }

    #[test]
    fn request_errors() {
        let e = run(r#"{"analyzer": "standard"}"#).unwrap_err();
        assert_eq!(e.reason(), "Validation Failed: 1: text is missing;");
        let e = run(r#"{"text": "a", "normalizer": "n"}"#).unwrap_err();
        assert_eq!(e.reason(), "Validation Failed: 1: index is required if normalizer is specified;");
        let e = run(r#"{"text": "a", "tokenizer": 3}"#).unwrap_err();
        assert_eq!(
            e.reason(),
            "Unknown parameter [tokenizer] in request body or parameter is of the wrong type[VALUE_NUMBER] "
        );
        let e = run(r#"{"text": "ABc", "char_filter": ["html_strip"]}"#).unwrap_err();
        assert!(e.reason().contains("html_strip"));
        let e = run(r#"{"text": "a", "field": "f"}"#).unwrap_err();
        assert!(e.reason().starts_with("No index provided"));
    }
}
