//! `_source` filtering as a request asks for it: the body's `_source` value and the URL's
//! `_source*` parameters parsed into a [`SourceFilter`]. It is applied to documents in
//! `search/source.rs`.

use crate::json_value::token_name;
use crate::query::Scalar;
use serde_json::Value;

/// What of `_source` to return.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SourceFilter {
    /// `_source: false`.
    pub disabled: bool,
    /// Include patterns (empty: everything).
    pub includes: Vec<String>,
    /// Exclude patterns.
    pub excludes: Vec<String>,
}

impl SourceFilter {
    /// Whether the filter returns the source untouched.
    pub fn is_identity(&self) -> bool {
        !self.disabled && self.includes.is_empty() && self.excludes.is_empty()
    }

    /// Parses the body `_source` value with the errors of ES 6.8's
    /// `FetchSourceContext.fromXContent` (and, for `null`, which is no value token there,
    /// of the enclosing `SearchSourceBuilder`).
    pub fn from_json(v: &Value) -> Result<SourceFilter, String> {
        let unknown = |key: &str, v: &Value| format!("Unknown key for a {} in [{key}].", token_name(v));
        match v {
            Value::Bool(b) => Ok(SourceFilter { disabled: !b, ..Default::default() }),
            Value::String(s) => Ok(SourceFilter { includes: vec![s.clone()], ..Default::default() }),
            // ES reads every element's text; an array or object inside has no text to read.
            Value::Array(a) => Ok(SourceFilter {
                includes: a
                    .iter()
                    .map(|x| {
                        Scalar::from_json(x).map(|s| s.text()).ok_or_else(|| "[_source] values must be strings".into())
                    })
                    .collect::<Result<_, String>>()?,
                ..Default::default()
            }),
            Value::Object(o) => {
                let mut f = SourceFilter::default();
                for (k, x) in o {
                    if !matches!(k.as_str(), "includes" | "include" | "excludes" | "exclude") {
                        return Err(unknown(k, x));
                    }
                    let list = match x {
                        Value::String(s) => vec![s.clone()],
                        Value::Array(a) => a
                            .iter()
                            .map(|e| e.as_str().map(str::to_string).ok_or_else(|| unknown(k, e)))
                            .collect::<Result<_, String>>()?,
                        other => return Err(unknown(k, other)),
                    };
                    match k.as_str() {
                        "includes" | "include" => f.includes = list,
                        _ => f.excludes = list,
                    }
                }
                Ok(f)
            }
            Value::Null => Err(unknown("_source", v)),
            Value::Number(_) => {
                Err(format!("Expected one of [VALUE_BOOLEAN, START_OBJECT] but found [{}]", token_name(v)))
            }
        }
    }

    /// The filter the URL parameters ask for (`_source`, `_source_includes`,
    /// `_source_excludes`, and 6.8's deprecated singular spellings, which win and warn),
    /// or `None` when none is given. `get` reads one parameter.
    pub fn from_params<'a>(get: &dyn Fn(&str) -> Option<&'a str>) -> Option<SourceFilter> {
        let split = |v: &str| v.split(',').filter(|s| !s.is_empty()).map(str::to_string).collect::<Vec<_>>();
        let deprecated = |old: &str, new: &str| {
            let v = get(old);
            if v.is_some() {
                crate::deprecation::warn(format!("Deprecated parameter [{old}] used, expected [{new}] instead"));
            }
            v.or_else(|| get(new))
        };
        let (source, includes, excludes) = (
            get("_source"),
            deprecated("_source_include", "_source_includes"),
            deprecated("_source_exclude", "_source_excludes"),
        );
        if source.is_none() && includes.is_none() && excludes.is_none() {
            return None;
        }
        let mut f = match source {
            Some("false") => SourceFilter { disabled: true, ..Default::default() },
            Some("true") | None => SourceFilter::default(),
            Some(list) => SourceFilter { includes: split(list), ..Default::default() },
        };
        if let Some(v) = includes {
            f.disabled = false;
            f.includes = split(v);
        }
        if let Some(v) = excludes {
            f.disabled = false;
            f.excludes = split(v);
        }
        Some(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(v: Value) -> String {
        SourceFilter::from_json(&v).unwrap_err()
    }

    #[test]
    fn forms() {
        let f = |v: Value| SourceFilter::from_json(&v).unwrap();
        assert!(f(json!(false)).disabled);
        assert_eq!(f(json!("a")).includes, ["a"]);
        assert_eq!(f(json!(["a", 1, true])).includes, ["a", "1", "true"]);
        let o = f(json!({"includes": "a", "exclude": ["b", "c"]}));
        assert_eq!((o.includes, o.excludes), (vec!["a".to_string()], vec!["b".to_string(), "c".to_string()]));
    }

    #[test]
    fn errors_name_the_token_es_names() {
        assert_eq!(err(json!({"fields": ["a"]})), "Unknown key for a START_ARRAY in [fields].");
        assert_eq!(err(json!({"fields": [1]})), "Unknown key for a START_ARRAY in [fields].");
        assert_eq!(err(json!({"fields": "a"})), "Unknown key for a VALUE_STRING in [fields].");
        assert_eq!(err(json!({"includes": 5})), "Unknown key for a VALUE_NUMBER in [includes].");
        assert_eq!(err(json!({"includes": null})), "Unknown key for a VALUE_NULL in [includes].");
        assert_eq!(err(json!({"excludes": ["a", {}]})), "Unknown key for a START_OBJECT in [excludes].");
        assert_eq!(err(json!(5)), "Expected one of [VALUE_BOOLEAN, START_OBJECT] but found [VALUE_NUMBER]");
        assert_eq!(err(json!(null)), "Unknown key for a VALUE_NULL in [_source].");
    }
}
