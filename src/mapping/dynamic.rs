//! Dynamic mapping: how ES 6.8 maps a field the first time a document carries it.

use super::{mapper_parsing, Dynamic, Mapping};
use crate::error::Result;
use serde_json::{json, Value};

/// The JSON kind of a new value, as `match_mapping_type` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchType {
    /// A string that is not a detected date.
    String,
    /// An integer number.
    Long,
    /// A floating-point number.
    Double,
    /// `true` / `false`.
    Boolean,
    /// A string detected as a date.
    Date,
    /// An object.
    Object,
}

impl MatchType {
    fn name(self) -> &'static str {
        match self {
            MatchType::String => "string",
            MatchType::Long => "long",
            MatchType::Double => "double",
            MatchType::Boolean => "boolean",
            MatchType::Date => "date",
            MatchType::Object => "object",
        }
    }
}

/// One entry of `dynamic_templates`.
#[derive(Debug, Clone, PartialEq)]
pub struct DynamicTemplate {
    /// The template as given, for rendering.
    pub raw: Value,
    match_name: Option<String>,
    unmatch: Option<String>,
    path_match: Option<String>,
    path_unmatch: Option<String>,
    match_mapping_type: Option<String>,
    /// `match_pattern: regex`: the patterns are Java regexes matching whole names.
    regex: bool,
    mapping: Value,
}

impl DynamicTemplate {
    /// Parses `{"name": {"match": .., "mapping": {..}}}`.
    pub fn from_json(v: &Value) -> Result<DynamicTemplate> {
        let (_, body) = v
            .as_object()
            .and_then(|o| o.iter().next())
            .ok_or_else(|| mapper_parsing("a dynamic template must be an object with one named entry"))?;
        let s = |k: &str| body.get(k).and_then(Value::as_str).map(str::to_string);
        let regex = match body.get("match_pattern").and_then(Value::as_str) {
            None | Some("simple") => false,
            Some("regex") => true,
            Some(other) => return Err(mapper_parsing(format!("No matching pattern matched on [{other}]"))),
        };
        if regex {
            for key in ["match", "unmatch", "path_match", "path_unmatch"] {
                if let Some(p) = s(key) {
                    crate::analysis::java_regex::JavaRegex::new(&p, "").map_err(mapper_parsing)?;
                }
            }
        }
        let mapping =
            body.get("mapping").cloned().ok_or_else(|| mapper_parsing("dynamic template must have a [mapping]"))?;
        Ok(DynamicTemplate {
            raw: v.clone(),
            match_name: s("match"),
            unmatch: s("unmatch"),
            path_match: s("path_match"),
            path_unmatch: s("path_unmatch"),
            match_mapping_type: s("match_mapping_type"),
            regex,
            mapping,
        })
    }

    fn matches(&self, path: &str, name: &str, kind: MatchType) -> bool {
        let glob = |p: &Option<String>, s: &str| {
            p.as_ref().map(|p| match self.regex {
                // `String.matches`: the whole name (checked to compile when parsed).
                true => crate::analysis::java_regex::JavaRegex::new(p, "").is_ok_and(|r| r.matches_whole(s)),
                false => simple_match(p, s),
            })
        };
        if let Some(t) = &self.match_mapping_type {
            if t != "*" && t != kind.name() {
                return false;
            }
        }
        glob(&self.match_name, name) != Some(false)
            && glob(&self.unmatch, name) != Some(true)
            && glob(&self.path_match, path) != Some(false)
            && glob(&self.path_unmatch, path) != Some(true)
    }

    fn render(&self, name: &str, kind: MatchType) -> Value {
        substitute(&self.mapping, name, kind.name())
    }
}

fn substitute(v: &Value, name: &str, dynamic_type: &str) -> Value {
    match v {
        Value::String(s) => Value::String(s.replace("{name}", name).replace("{dynamic_type}", dynamic_type)),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, v)| (k.clone(), substitute(v, name, dynamic_type))).collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(|v| substitute(v, name, dynamic_type)).collect()),
        other => other.clone(),
    }
}

/// ES `Regex.simpleMatch`: `*` matches any run of characters.
pub fn simple_match(pattern: &str, s: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == s;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !s.starts_with(first) || s.len() < first.len() + last.len() || !s.ends_with(last) {
        return false;
    }
    let mut rest = &s[first.len()..s.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

impl Mapping {
    /// Maps a new field at `path` from its first value. Returns false when the field is to
    /// be ignored (`dynamic: false`); errors for `dynamic: strict`.
    pub fn map_dynamic(&mut self, path: &str, value: &Value) -> Result<bool> {
        match self.dynamic_for(path) {
            Dynamic::False => return Ok(false),
            Dynamic::Strict => {
                let (parent, name) = path.rsplit_once('.').unwrap_or(("_doc", path));
                return Err(super::Error::new(
                    400,
                    super::Exception::new(
                        "strict_dynamic_mapping_exception",
                        format!(
                            "mapping set to strict, dynamic introduction of [{name}] within [{parent}] is not allowed"
                        ),
                    ),
                ));
            }
            Dynamic::True => {}
        }
        let name = path.rsplit('.').next().unwrap_or(path);
        let (kind, date_format) = match value {
            Value::String(s) => match self.detect_date(s) {
                Some(fmt) => (MatchType::Date, Some(fmt)),
                // `numeric_detection`: ES tries a long, then a double.
                None if self.root.numeric_detection && s.trim() == s && s.parse::<i64>().is_ok() => {
                    (MatchType::Long, None)
                }
                None if self.root.numeric_detection
                    && s.trim() == s
                    && s.bytes().any(|b| b.is_ascii_digit())
                    && s.parse::<f64>().is_ok() =>
                {
                    (MatchType::Double, None)
                }
                None => (MatchType::String, None),
            },
            Value::Number(n) if n.is_i64() || n.is_u64() => (MatchType::Long, None),
            Value::Number(_) => (MatchType::Double, None),
            Value::Bool(_) => (MatchType::Boolean, None),
            Value::Object(_) => (MatchType::Object, None),
            _ => return Ok(false),
        };
        let template =
            self.dynamic_templates.iter().find(|t| t.matches(path, name, kind)).map(|t| t.render(name, kind));
        let def = match template {
            Some(mut def) => {
                if def.get("type").is_none() {
                    def["type"] = json!(default_type(kind));
                }
                if kind == MatchType::Date && def.get("format").is_none() && def["type"] == "date" {
                    if let Some(f) = &date_format {
                        def["format"] = json!(f);
                    }
                }
                def
            }
            None => match kind {
                MatchType::String => {
                    json!({"type": "text", "fields": {"keyword": {"type": "keyword", "ignore_above": 256}}})
                }
                MatchType::Date => {
                    json!({"type": "date", "format": date_format.unwrap_or_default()})
                }
                other => json!({"type": default_type(other)}),
            },
        };
        self.add_definition(path, &def)?;
        Ok(true)
    }

    /// Returns the dynamic date format a string matches, if date detection is on.
    fn detect_date(&self, s: &str) -> Option<String> {
        if !self.date_detection {
            return None;
        }
        self.dynamic_date_formats.iter().find_map(|f| {
            let fmt = crate::date::DateFormat::parse_format(f).ok()?;
            fmt.parse(s).ok().map(|_| f.clone())
        })
    }
}

fn default_type(kind: MatchType) -> &'static str {
    match kind {
        MatchType::String => "text",
        MatchType::Long => "long",
        MatchType::Double => "float",
        MatchType::Boolean => "boolean",
        MatchType::Date => "date",
        MatchType::Object => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapping::FieldType;

    #[test]
    fn default_dynamic_mapping_follows_es68() {
        let mut m = Mapping::default();
        m.map_dynamic("title", &json!("hello")).unwrap();
        m.map_dynamic("n", &json!(3)).unwrap();
        m.map_dynamic("f", &json!(1.5)).unwrap();
        m.map_dynamic("b", &json!(true)).unwrap();
        m.map_dynamic("d", &json!("2015-01-01")).unwrap();
        assert_eq!(m.field("title").unwrap().ftype, FieldType::Text);
        assert_eq!(m.field("title.keyword").unwrap().ignore_above, Some(256));
        assert_eq!(m.field("n").unwrap().ftype, FieldType::Long);
        assert_eq!(m.field("f").unwrap().ftype, FieldType::Float);
        assert_eq!(m.field("b").unwrap().ftype, FieldType::Boolean);
        assert_eq!(m.field("d").unwrap().ftype, FieldType::Date);
    }

    #[test]
    fn templates_match_in_order() {
        let mut m = Mapping::from_json(&json!({"dynamic_templates": [
            {"kw": {"match": "keyword", "match_mapping_type": "string", "mapping": {"type": "keyword"}}},
            {"strings": {"match_mapping_type": "string", "mapping": {"type": "text", "fields": {"aggregate": {"type": "keyword", "normalizer": "lowercase"}}}}}
        ]}))
        .unwrap();
        m.map_dynamic("item.keywords.keyword", &json!("Alignment")).unwrap();
        m.map_dynamic("item.name", &json!("BLAST")).unwrap();
        assert_eq!(m.field("item.keywords.keyword").unwrap().ftype, FieldType::Keyword);
        assert!(m.field("item.name.aggregate").is_some());
    }

    #[test]
    fn regex_templates_match_whole_names() {
        let mut m = Mapping::from_json(&json!({"dynamic_templates": [
            {"ids": {"match_pattern": "regex", "match": "^[a-z]+_id$", "mapping": {"type": "keyword"}}}
        ]}))
        .unwrap();
        m.map_dynamic("user_id", &json!("x")).unwrap();
        m.map_dynamic("user_id2", &json!("x")).unwrap();
        assert_eq!(m.field("user_id").unwrap().ftype, FieldType::Keyword);
        assert_eq!(m.field("user_id2").unwrap().ftype, FieldType::Text);
        let bad = json!({"dynamic_templates": [{"t": {"match_pattern": "glob", "mapping": {}}}]});
        assert_eq!(Mapping::from_json(&bad).unwrap_err().reason(), "No matching pattern matched on [glob]");
    }

    #[test]
    fn strict_rejects() {
        let mut m = Mapping::from_json(&json!({"dynamic": "strict", "properties": {}})).unwrap();
        let e = m.map_dynamic("a.b", &json!(1)).unwrap_err();
        assert_eq!(e.kind(), "strict_dynamic_mapping_exception");
    }

    #[test]
    fn simple_match_globs() {
        assert!(simple_match("*_pr", "RIN_Tool_pr"));
        assert!(simple_match("a*b*c", "aXbYc"));
        assert!(!simple_match("a*b", "ab_"));
        assert!(simple_match("*", ""));
    }
}
