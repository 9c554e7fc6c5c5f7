//! `_source` filtering as a request asks for it: the body's `_source` value and the URL's
//! `_source*` parameters parsed into a [`SourceFilter`]. It is applied to documents in
//! `search/source.rs`.

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

    /// Parses the body `_source` value.
    pub fn from_json(v: &Value) -> Result<SourceFilter, String> {
        let list = |v: &Value| -> Result<Vec<String>, String> {
            match v {
                Value::String(s) => Ok(vec![s.clone()]),
                Value::Array(a) => a
                    .iter()
                    .map(|x| {
                        x.as_str().map(str::to_string).ok_or_else(|| "[_source] values must be strings".to_string())
                    })
                    .collect(),
                Value::Null => Ok(Vec::new()),
                _ => Err("[_source] must be a boolean, a string, an array or an object".into()),
            }
        };
        match v {
            Value::Bool(b) => Ok(SourceFilter { disabled: !b, ..Default::default() }),
            Value::String(_) | Value::Array(_) => Ok(SourceFilter { includes: list(v)?, ..Default::default() }),
            Value::Object(o) => {
                let mut f = SourceFilter::default();
                for (k, v) in o {
                    match k.as_str() {
                        "includes" | "include" => f.includes = list(v)?,
                        "excludes" | "exclude" => f.excludes = list(v)?,
                        other => return Err(format!("Unknown key for a START_ARRAY in [{other}].")),
                    }
                }
                Ok(f)
            }
            _ => Err("[_source] must be a boolean, a string, an array or an object".into()),
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
