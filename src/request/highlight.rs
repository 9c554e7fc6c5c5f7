//! The `highlight` section of a search request, parsed once with the request into the
//! fields to highlight, each with its options (the field's over the top-level ones) and
//! its `highlight_query`, so that every hit is highlighted from typed values.

use crate::error::{Error, Result};
use crate::query::dsl::DslParser;
use crate::query::Query;
use serde_json::{Map, Value};

/// ES's `styled` tags schema.
const STYLED_PRE_TAGS: [&str; 10] = [
    "<em class=\"hlt1\">",
    "<em class=\"hlt2\">",
    "<em class=\"hlt3\">",
    "<em class=\"hlt4\">",
    "<em class=\"hlt5\">",
    "<em class=\"hlt6\">",
    "<em class=\"hlt7\">",
    "<em class=\"hlt8\">",
    "<em class=\"hlt9\">",
    "<em class=\"hlt10\">",
];

/// A parsed `highlight` section.
#[derive(Debug, Clone, PartialEq)]
pub struct HighlightSpec {
    /// The fields (names or patterns) in request order.
    pub fields: Vec<FieldSpec>,
}

/// One entry of `highlight.fields`.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSpec {
    /// A field name or a `*` pattern.
    pub pattern: String,
    /// The options in force for it.
    pub options: Options,
    /// Its `highlight_query`, else the top-level one; `None`: the search's query.
    pub query: Option<Query>,
}

/// Options of one highlighted field (field options over the top-level ones).
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The tag before a match.
    pub pre: String,
    /// The tag after a match.
    pub post: String,
    /// `fragment_size` in characters.
    pub fragment_size: usize,
    /// `number_of_fragments` (0: every matching value whole).
    pub fragments: usize,
    /// `require_field_match`.
    pub require_field_match: bool,
    /// `no_match_size`.
    pub no_match_size: usize,
    /// `encoder: html`.
    pub html: bool,
    /// `order: score`.
    pub by_score: bool,
    /// `type: plain`: the plain highlighter, which re-analyzes every value even where
    /// the field keeps offsets.
    pub plain: bool,
}

fn bad(msg: String) -> Error {
    Error::parsing_no_pos(msg)
}

fn tags(v: &Value, what: &str) -> Result<Option<String>> {
    match v {
        Value::Array(a) => Ok(a
            .first()
            .map(|t| t.as_str().map(str::to_string).ok_or_else(|| bad(format!("[highlight] {what} must be strings"))))
            .transpose()?),
        Value::String(s) => Ok(Some(s.clone())),
        _ => Err(bad(format!("[highlight] {what} must be an array of strings"))),
    }
}

fn uint(v: &Value, what: &str) -> Result<usize> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .map(|n| n as usize)
            .ok_or_else(|| bad(format!("[highlight] [{what}] must be a non-negative integer"))),
        Value::String(s) => {
            s.trim().parse().map_err(|_| bad(format!("[highlight] [{what}] must be a non-negative integer")))
        }
        _ => Err(bad(format!("[highlight] [{what}] must be a non-negative integer"))),
    }
}

impl Options {
    /// ES's defaults: `<em>` tags, 100-character fragments, 5 of them.
    pub fn defaults() -> Options {
        Options {
            pre: "<em>".into(),
            post: "</em>".into(),
            fragment_size: 100,
            fragments: 5,
            require_field_match: true,
            no_match_size: 0,
            html: false,
            by_score: false,
            plain: false,
        }
    }

    fn apply(&mut self, spec: &Map<String, Value>) -> Result<()> {
        for (k, v) in spec {
            match k.as_str() {
                "pre_tags" => {
                    if let Some(t) = tags(v, "pre_tags")? {
                        self.pre = t
                    }
                }
                "post_tags" => {
                    if let Some(t) = tags(v, "post_tags")? {
                        self.post = t
                    }
                }
                "tags_schema" if v.as_str() == Some("styled") => {
                    self.pre = STYLED_PRE_TAGS[0].into();
                    self.post = "</em>".into();
                }
                "fragment_size" => self.fragment_size = uint(v, k)?,
                "number_of_fragments" => self.fragments = uint(v, k)?,
                "no_match_size" => self.no_match_size = uint(v, k)?,
                "require_field_match" => {
                    self.require_field_match = crate::json_value::bool_of(v)
                        .ok_or_else(|| bad("[highlight] [require_field_match] must be a boolean".into()))?
                }
                "encoder" => self.html = v.as_str() == Some("html"),
                "order" => self.by_score = v.as_str() == Some("score"),
                "type" => self.plain = v.as_str() == Some("plain"),
                _ => {}
            }
        }
        Ok(())
    }
}

impl HighlightSpec {
    /// Parses a `highlight` object with the errors a malformed one earns.
    pub fn parse(spec: &Value) -> Result<HighlightSpec> {
        let spec = spec.as_object().ok_or_else(|| bad("[highlight] must be an object".into()))?;
        let mut top = Options::defaults();
        top.apply(spec)?;
        let top_query = match spec.get("highlight_query") {
            Some(hq) => Some(DslParser::new("").parse(hq)?),
            None => None,
        };
        // `fields`: an object, or an array of one-key objects (to keep an order).
        let mut entries: Vec<(String, Map<String, Value>)> = Vec::new();
        match spec.get("fields") {
            Some(Value::Object(o)) => {
                for (k, v) in o {
                    entries.push((k.clone(), v.as_object().cloned().unwrap_or_default()));
                }
            }
            Some(Value::Array(a)) => {
                for item in a {
                    let o =
                        item.as_object().ok_or_else(|| bad("[highlight] [fields] entries must be objects".into()))?;
                    for (k, v) in o {
                        entries.push((k.clone(), v.as_object().cloned().unwrap_or_default()));
                    }
                }
            }
            None => {}
            Some(_) => return Err(bad("[highlight] [fields] must be an object or an array".into())),
        }
        let mut fields = Vec::with_capacity(entries.len());
        for (pattern, fspec) in entries {
            let mut options = top.clone();
            options.apply(&fspec)?;
            let query = match fspec.get("highlight_query") {
                Some(hq) => Some(DslParser::new("").parse(hq)?),
                None => top_query.clone(),
            };
            fields.push(FieldSpec { pattern, options, query });
        }
        Ok(HighlightSpec { fields })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn field_options_override_the_top_level_ones_in_request_order() {
        let spec = HighlightSpec::parse(&json!({
            "pre_tags": ["<b>"], "post_tags": ["</b>"], "number_of_fragments": 2,
            "highlight_query": {"match": {"a": "x"}},
            "fields": [{"b": {"number_of_fragments": 0}}, {"a": {"highlight_query": {"term": {"a": "y"}}}}]
        }))
        .unwrap();
        let names: Vec<&str> = spec.fields.iter().map(|f| f.pattern.as_str()).collect();
        assert_eq!(names, ["b", "a"]);
        let (b, a) = (&spec.fields[0], &spec.fields[1]);
        assert_eq!((b.options.pre.as_str(), b.options.fragments, a.options.fragments), ("<b>", 0, 2));
        assert!(matches!(&b.query, Some(Query::Match(_))), "the top-level highlight_query: {:?}", b.query);
        assert!(matches!(&a.query, Some(Query::Term { .. })), "the field's own: {:?}", a.query);
    }

    #[test]
    fn malformed_specs_fail_when_the_request_is_read() {
        let reason = |v: Value| HighlightSpec::parse(&v).unwrap_err().reason().to_string();
        assert_eq!(reason(json!([])), "[highlight] must be an object");
        assert_eq!(reason(json!({"fields": 3})), "[highlight] [fields] must be an object or an array");
        assert_eq!(
            reason(json!({"fields": {"a": {"fragment_size": -1}}})),
            "[highlight] [fragment_size] must be a non-negative integer"
        );
    }
}
