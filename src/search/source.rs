//! A document's `_source` as a response carries it: the stored bytes verbatim, as ES
//! returns a source no filter touches, or — with includes and excludes (wildcards on
//! dotted paths) — a filtered copy of the parsed source.

use super::json_out;
use crate::error::{Error, Result};
use crate::index::StoredDoc;
use crate::mapping::simple_match;
use crate::request::source::SourceFilter;
use serde_json::{Map, Value};

/// Stored `_source` bytes, copied into a response as they are.
#[derive(Debug, Clone)]
pub struct StoredSource(StoredDoc);

impl StoredSource {
    /// The `_source` of a document read from the doc store: one JSON value, trimmed, as
    /// the loader checked and stored it. A damaged file cannot slip other bytes into a
    /// response: the doc store verifies each block's checksum as it decompresses it.
    /// The bytes stay in the store's decompressed block until the response is written.
    pub fn from_store(doc: StoredDoc) -> StoredSource {
        StoredSource(doc)
    }

    /// The JSON text.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.source()
    }
}

/// Parses the stored source of document `id` into a tree (for filtering, highlighting).
pub fn parse_stored(bytes: &[u8], id: &str) -> Result<Value> {
    serde_json::from_slice(bytes).map_err(|e| not_json(id, &e))
}

fn not_json(id: &str, e: &serde_json::Error) -> Error {
    Error::storage(format!("stored source of [{id}] is not JSON: {e}"))
}

/// `_source` in a response.
#[derive(Debug, Clone)]
pub enum SourceJson {
    /// Unfiltered: the stored bytes, written as they are.
    Stored(StoredSource),
    /// Parsed: what a filter keeps, or a nested inner hit's object of its root's
    /// source; ES re-serializes these.
    Filtered(Value),
}

impl SourceJson {
    /// Writes the source at the end of `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            SourceJson::Stored(s) => out.extend_from_slice(s.as_bytes()),
            SourceJson::Filtered(v) => json_out::value(out, v),
        }
    }
}

// The filter is parsed with the request; applying it to a document is execution.
impl SourceFilter {
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
