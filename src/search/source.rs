//! `_source` filtering: includes and excludes with wildcards on dotted paths.

use crate::mapping::simple_match;
use serde_json::{Map, Value};

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

    /// Applies the filter to a parsed source.
    pub fn apply(&self, src: &Value) -> Value {
        match src {
            Value::Object(m) => Value::Object(self.filter_map(m, "")),
            other => other.clone(),
        }
    }

    fn included(&self, path: &str) -> Inclusion {
        if self.includes.is_empty() {
            return Inclusion::Whole;
        }
        let mut partial = false;
        for p in &self.includes {
            if simple_match(p, path) || p == "*" {
                return Inclusion::Whole;
            }
            // An ancestor pattern such as `item` includes `item.name` entirely.
            if path.len() > p.len()
                && path.starts_with(p.as_str())
                && path.as_bytes()[p.len()] == b'.'
                && !p.contains('*')
            {
                return Inclusion::Whole;
            }
            if could_match_below(p, path) {
                partial = true;
            }
        }
        if partial {
            Inclusion::Descend
        } else {
            Inclusion::No
        }
    }

    fn excluded(&self, path: &str) -> bool {
        self.excludes.iter().any(|p| simple_match(p, path))
    }

    fn filter_map(&self, m: &Map<String, Value>, prefix: &str) -> Map<String, Value> {
        let mut out = Map::new();
        for (k, v) in m {
            let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
            if self.excluded(&path) {
                continue;
            }
            match self.included(&path) {
                Inclusion::No => {}
                Inclusion::Whole => {
                    if self.excludes.is_empty() {
                        out.insert(k.clone(), v.clone());
                    } else if let Some(f) = self.filter_value(v, &path, true) {
                        out.insert(k.clone(), f);
                    }
                }
                Inclusion::Descend => {
                    if let Some(f) = self.filter_value(v, &path, false) {
                        out.insert(k.clone(), f);
                    }
                }
            }
        }
        out
    }

    /// Filters below `path`; `whole` means the includes already accept everything here.
    fn filter_value(&self, v: &Value, path: &str, whole: bool) -> Option<Value> {
        match v {
            Value::Object(m) => {
                let sub = if whole {
                    let only_excludes =
                        SourceFilter { disabled: false, includes: Vec::new(), excludes: self.excludes.clone() };
                    only_excludes.filter_map(m, path)
                } else {
                    self.filter_map(m, path)
                };
                if sub.is_empty() && !m.is_empty() && !whole {
                    None
                } else {
                    Some(Value::Object(sub))
                }
            }
            Value::Array(a) => {
                let items: Vec<Value> = a
                    .iter()
                    .filter_map(|x| match x {
                        Value::Object(_) | Value::Array(_) => self.filter_value(x, path, whole),
                        scalar => whole.then(|| scalar.clone()),
                    })
                    .collect();
                if items.is_empty() && !a.is_empty() && !whole {
                    None
                } else {
                    Some(Value::Array(items))
                }
            }
            scalar => whole.then(|| scalar.clone()),
        }
    }
}

enum Inclusion {
    No,
    Whole,
    Descend,
}

/// Whether include pattern `p` may match some path below `path`.
fn could_match_below(p: &str, path: &str) -> bool {
    let prefix = format!("{path}.");
    if p.starts_with(&prefix) {
        return true;
    }
    // A wildcard pattern: compare the literal part before the first `*`.
    match p.find('*') {
        Some(i) => {
            let lit = &p[..i];
            prefix.starts_with(lit) || lit.starts_with(&prefix)
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn f(v: Value) -> SourceFilter {
        SourceFilter::from_json(&v).unwrap()
    }

    #[test]
    fn includes_and_excludes() {
        let src = json!({"item": {"name": "BLAST", "description": "d", "types": [{"name": "tool", "type": "t"}]}, "rrid": {"curie": "x"}});
        assert_eq!(f(json!(["item.name"])).apply(&src), json!({"item": {"name": "BLAST"}}));
        assert_eq!(f(json!("item")).apply(&src)["item"]["description"], "d");
        assert_eq!(f(json!("item.types.name")).apply(&src), json!({"item": {"types": [{"name": "tool"}]}}));
        assert_eq!(f(json!({"excludes": ["item"]})).apply(&src), json!({"rrid": {"curie": "x"}}));
        assert_eq!(
            f(json!({"includes": ["item.*"], "excludes": ["item.description"]})).apply(&src)["item"]
                .as_object()
                .unwrap()
                .len(),
            2
        );
        assert_eq!(f(json!("*.curie")).apply(&src), json!({"rrid": {"curie": "x"}}));
        assert_eq!(f(json!("nothing")).apply(&src), json!({}));
    }
}
