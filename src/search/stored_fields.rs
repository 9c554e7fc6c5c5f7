//! `stored_fields`: the values of fields mapped `store: true`, as ES returns them in a
//! hit's `fields`. metagate keeps no second copy of a stored field: its values are read
//! from the stored `_source` (the mapping refuses a stored field `_source` drops) and
//! coerced as the loader indexed them.

use crate::error::Result;
use crate::index::IndexReader;
use crate::mapping::{simple_match, FieldMapping, FieldType, FieldValue, Leaf, Mapping};
use crate::search::response::hit_values::{HitFields, HitValue};
use serde_json::Value;

/// Whether `requested` names a field of this index that is stored.
pub fn asks_stored(reader: &IndexReader, requested: &[String]) -> bool {
    stored_matches(&reader.meta.mapping, requested).next().is_some()
}

fn stored_matches<'m>(mapping: &'m Mapping, requested: &'m [String]) -> impl Iterator<Item = &'m FieldMapping> {
    mapping
        .fields
        .values()
        .filter(move |f| f.params.store && requested.iter().any(|r| r == &f.path || simple_match(r, &f.path)))
}

/// The stored fields of one hit whose `_source` is `source`, by path.
pub fn values(reader: &IndexReader, source: &Value, requested: &[String]) -> Result<HitFields> {
    let mut out = HitFields::default();
    for fm in stored_matches(&reader.meta.mapping, requested) {
        // A multi-field holds its parent's values.
        let path = fm.parent.as_deref().unwrap_or(&fm.path);
        let mut leaves = Vec::new();
        collect(source, path, &mut leaves);
        let format = match fm.ftype {
            FieldType::Date => crate::date::DateFormat::parse_format(fm.date_format()).ok(),
            _ => None,
        };
        let mut values = Vec::new();
        for leaf in leaves {
            let leaf = match leaf {
                Value::String(s) => Leaf::Str(s),
                Value::Number(n) => Leaf::Number(n),
                Value::Bool(b) => Leaf::Bool(*b),
                Value::Null => match &fm.params.null_value {
                    Some(Value::String(s)) => Leaf::Str(s),
                    Some(Value::Number(n)) => Leaf::Number(n),
                    Some(Value::Bool(b)) => Leaf::Bool(*b),
                    _ => continue,
                },
                _ => continue,
            };
            // A value the loader skipped (`ignore_malformed`) was not stored either.
            let Ok(v) = Mapping::coerce_with(fm, leaf, format.as_ref()) else { continue };
            values.push(match (fm.ftype, v) {
                (FieldType::Date, FieldValue::Long(ms)) => match &format {
                    Some(f) => HitValue::Str(f.format(ms)),
                    None => HitValue::Long(ms),
                },
                (FieldType::Boolean, FieldValue::Long(b)) => HitValue::Bool(b != 0),
                (_, FieldValue::Long(n)) => HitValue::Long(n),
                (_, FieldValue::Double(f)) => HitValue::Double(f),
                (_, FieldValue::Str(s)) => HitValue::Str(s.into_owned()),
            });
        }
        if !values.is_empty() {
            out.insert(fm.path.clone(), values);
        }
    }
    Ok(out)
}

/// The scalars at dotted `path` in `v`, through arrays and dotted keys.
fn collect<'v>(v: &'v Value, path: &str, out: &mut Vec<&'v Value>) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| collect(i, path, out)),
        Value::Object(m) => {
            for (k, child) in m {
                if k == path {
                    match child {
                        Value::Array(items) => items.iter().for_each(|i| collect_leaf(i, out)),
                        other => collect_leaf(other, out),
                    }
                } else if let Some(rest) = path.strip_prefix(k.as_str()).and_then(|r| r.strip_prefix('.')) {
                    collect(child, rest, out);
                }
            }
        }
        _ => {}
    }
}

fn collect_leaf<'v>(v: &'v Value, out: &mut Vec<&'v Value>) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| collect_leaf(i, out)),
        Value::Object(_) => {}
        other => out.push(other),
    }
}
