//! An alias's options on one index as ES 6.8 keeps them (`AliasMetaData`): a `filter`
//! (the query JSON as given), `index_routing` and `search_routing`; how a create-index
//! body and the alias API give them, how the catalog stores them and how `_alias` prints
//! them. The filter is parsed and applied by the engine.

use crate::error::{Error, Result};
use crate::json_value::token_name;
use serde_json::{json, Map, Value};

/// The options of an alias on one index.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AliasOptions {
    /// `filter`: a query, kept as given and ANDed as a filter with every search through
    /// the alias.
    pub filter: Option<Value>,
    /// `index_routing` (`routing` sets both).
    pub index_routing: Option<String>,
    /// `search_routing`.
    pub search_routing: Option<String>,
    /// `is_write_index`, when given.
    pub is_write_index: Option<bool>,
}

impl AliasOptions {
    /// Whether the alias has no options (stored as a plain name).
    pub fn is_empty(&self) -> bool {
        self.filter.is_none()
            && self.index_routing.is_none()
            && self.search_routing.is_none()
            && self.is_write_index.is_none()
    }

    /// Reads an alias definition (`{"filter", "routing", "index_routing",
    /// "search_routing", "is_write_index"}`) as ES 6.8's `Alias` reads it.
    pub fn parse(alias: &str, def: &Value) -> Result<AliasOptions> {
        let mut out = AliasOptions::default();
        let Value::Object(def) = def else { return Ok(out) };
        let text = |k: &str, v: &Value| match v {
            Value::String(s) => Ok(s.clone()),
            Value::Number(n) => Ok(n.to_string()),
            other => Err(Error::illegal_argument(format!(
                "alias [{alias}]: [{k}] must be a string, found [{}]",
                token_name(other)
            ))),
        };
        for (k, v) in def {
            match k.as_str() {
                "filter" => match v {
                    Value::Object(o) if o.is_empty() => {}
                    Value::Object(_) => out.filter = Some(v.clone()),
                    other => {
                        return Err(Error::illegal_argument(format!(
                            "alias [{alias}]: [filter] must be an object, found [{}]",
                            token_name(other)
                        )))
                    }
                },
                "routing" => {
                    let r = text(k, v)?;
                    out.index_routing = Some(r.clone());
                    out.search_routing = Some(r);
                }
                "index_routing" => out.index_routing = Some(text(k, v)?),
                "search_routing" => out.search_routing = Some(text(k, v)?),
                "is_write_index" => {
                    out.is_write_index = Some(v.as_bool().ok_or_else(|| {
                        Error::illegal_argument(format!(
                            "alias [{alias}]: [is_write_index] must be a boolean, found [{}]",
                            token_name(v)
                        ))
                    })?)
                }
                _ => {
                    return Err(Error::illegal_argument(format!("alias [{alias}]: [{k}] is not supported by metagate")))
                }
            }
        }
        out.check(alias)?;
        Ok(out)
    }

    /// `AliasValidator`'s check of the routing values.
    pub fn check(&self, alias: &str) -> Result<()> {
        if self.index_routing.as_deref().is_some_and(|r| r.contains(',')) {
            return Err(Error::illegal_argument(format!(
                "alias [{alias}] has several index routing values associated with it"
            )));
        }
        Ok(())
    }

    /// The alias's object in `_alias` and `GET {index}` (`AliasMetaData.toXContent`).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        if let Some(f) = &self.filter {
            m.insert("filter".into(), f.clone());
        }
        if let Some(r) = &self.index_routing {
            m.insert("index_routing".into(), json!(r));
        }
        if let Some(r) = &self.search_routing {
            m.insert("search_routing".into(), json!(r));
        }
        if let Some(w) = self.is_write_index {
            m.insert("is_write_index".into(), json!(w));
        }
        Value::Object(m)
    }
}

/// One index an alias points at, with the alias's options there.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AliasTarget {
    /// The concrete index.
    pub index: String,
    /// The alias's options on it.
    pub options: AliasOptions,
}

/// ES 6.8's check of an alias's indices once changed: at most one marked
/// `is_write_index: true` (`illegal_state_exception`).
pub fn check_write_indices(alias: &str, targets: &[AliasTarget]) -> Result<()> {
    let writers: Vec<&str> =
        targets.iter().filter(|t| t.options.is_write_index == Some(true)).map(|t| t.index.as_str()).collect();
    if writers.len() > 1 {
        return Err(Error::new(
            500,
            crate::error::Exception::new(
                "illegal_state_exception",
                format!("alias [{alias}] has more than one write index [{}]", writers.join(",")),
            ),
        ));
    }
    Ok(())
}

/// Reads a catalog entry of an alias: a JSON array of its indices, each a name (as every
/// file before alias options holds them) or `{"index", "filter", "index_routing",
/// "search_routing", "is_write_index"}`.
pub fn read_entry(bytes: &[u8]) -> std::result::Result<Vec<AliasTarget>, String> {
    let v: Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    let Value::Array(items) = v else { return Err("an alias entry is not an array".into()) };
    items
        .into_iter()
        .map(|item| match item {
            Value::String(index) => Ok(AliasTarget { index, options: AliasOptions::default() }),
            Value::Object(mut o) => {
                let index = match o.remove("index") {
                    Some(Value::String(s)) => s,
                    _ => return Err("an alias entry names no index".to_string()),
                };
                let string = |v: Option<Value>| v.and_then(|v| v.as_str().map(str::to_string));
                let options = AliasOptions {
                    filter: o.remove("filter"),
                    index_routing: string(o.remove("index_routing")),
                    search_routing: string(o.remove("search_routing")),
                    is_write_index: o.remove("is_write_index").and_then(|v| v.as_bool()),
                };
                Ok(AliasTarget { index, options })
            }
            _ => Err("an alias entry holds neither a name nor an object".to_string()),
        })
        .collect()
}

/// Writes a catalog entry: indices without options as plain names, so that a file whose
/// aliases have none stays as every version wrote it.
pub fn write_entry(targets: &[AliasTarget]) -> Vec<u8> {
    let items: Vec<Value> = targets
        .iter()
        .map(|t| {
            if t.options.is_empty() {
                return json!(t.index);
            }
            let mut m = Map::new();
            m.insert("index".into(), json!(t.index));
            if let Value::Object(o) = t.options.to_json() {
                m.extend(o);
            }
            Value::Object(m)
        })
        .collect();
    serde_json::to_vec(&items).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_entries_read_as_names_and_plain_entries_write_as_before() {
        let old = br#"["a","b"]"#;
        let read = read_entry(old).unwrap();
        assert_eq!(read.iter().map(|t| t.index.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert!(read.iter().all(|t| t.options.is_empty()));
        assert_eq!(write_entry(&read), old.to_vec());
    }

    #[test]
    fn options_round_trip_in_es_order() {
        let def = json!({"routing": "1", "filter": {"term": {"user": "kimchy"}}});
        let options = AliasOptions::parse("x", &def).unwrap();
        assert_eq!(
            options.to_json().to_string(),
            r#"{"filter":{"term":{"user":"kimchy"}},"index_routing":"1","search_routing":"1"}"#
        );
        let t = vec![AliasTarget { index: "i".into(), options }];
        assert_eq!(read_entry(&write_entry(&t)).unwrap(), t);
        let e = AliasOptions::parse("x", &json!({"index_routing": "1,2"})).unwrap_err();
        assert_eq!(e.reason(), "alias [x] has several index routing values associated with it");
    }
}
