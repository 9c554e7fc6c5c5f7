//! The values of a `terms` lookup, read when the search runs (ES 6.8 reads them in its
//! rewrite phase with a GET of the document): the scalars at the lookup's path in the
//! document's `_source`, in the snapshot the search reads. A missing document, type or
//! path gives no values, as in ES; a missing index is ES's `index_not_found_exception`.

use super::context::Executor;
use crate::error::{Error, Result};
use crate::index::{IndexMeta, IndexReader, ID_FIELD};
use crate::query::terms_lookup::TermsLookup;
use crate::query::Scalar;
use crate::store::{Catalog, Snapshot};
use serde_json::Value;

/// The values `lookup` names, read in its index (by default the one being searched).
pub(super) fn values(ex: &Executor<'_>, lookup: &TermsLookup) -> Result<Vec<Scalar>> {
    let other;
    let reader = match lookup.index.as_deref() {
        Some(name) if name != ex.reader.meta.name => {
            other = single_index(ex.snap, name)?;
            &other
        }
        _ => ex.reader,
    };
    let ex = Executor::new(reader, ex.snap, ex.now_ms);
    if lookup.doc_type != "_doc" && lookup.doc_type != reader.type_name(ex.snap)? {
        return Ok(Vec::new());
    }
    let Some(doc) = ex.keyword_docs(ID_FIELD, &lookup.id)?.iter().next() else { return Ok(Vec::new()) };
    let stored = reader.document(ex.snap, doc)?;
    let Ok(source) = serde_json::from_slice::<Value>(stored.source()) else { return Ok(Vec::new()) };
    let parts: Vec<&str> = lookup.path.split('.').collect();
    let mut out = Vec::new();
    extract(&source, &parts, &mut out);
    Ok(out)
}

/// The reader of the index `name` names as a GET does (an index, or an alias of one
/// index), read from the snapshot's catalog.
pub(super) fn single_index(snap: &Snapshot, name: &str) -> Result<IndexReader> {
    let corrupt = |e: String| Error::storage(format!("corrupt catalog: {e}"));
    let index = match snap.get(Catalog::Indices, name)? {
        Some(_) => name.to_string(),
        None => {
            let raw =
                snap.get(Catalog::Aliases, name)?.ok_or_else(|| Error::index_not_found_as(name, "index_expression"))?;
            let targets = crate::settings::alias::read_entry(&raw).map_err(corrupt)?;
            match targets.as_slice() {
                [one] => one.index.clone(),
                [] => return Err(Error::index_not_found_as(name, "index_expression")),
                many => {
                    let names: Vec<&str> = many.iter().map(|t| t.index.as_str()).collect();
                    return Err(Error::illegal_argument(format!(
                        "Alias [{name}] has more than one indices associated with it [[{}]], can't execute a single index op",
                        names.join(", ")
                    )));
                }
            }
        }
    };
    let raw = snap.get(Catalog::Indices, &index)?.ok_or_else(|| Error::index_not_found_as(name, "index_expression"))?;
    let meta: Value = serde_json::from_slice(&raw).map_err(|e| corrupt(e.to_string()))?;
    Ok(IndexReader::new(IndexMeta::from_json(&meta)?))
}

/// The scalars at `path` below `v`, as ES's `XContentMapValues.extractRawValues` finds
/// them: arrays are walked through, and a key may itself hold dots (`"a.b": …` answers
/// the path `a.b`).
fn extract(v: &Value, path: &[&str], out: &mut Vec<Scalar>) {
    match v {
        Value::Array(items) => items.iter().for_each(|item| extract(item, path, out)),
        Value::Object(o) => {
            let mut key = String::new();
            for (i, part) in path.iter().enumerate() {
                if i > 0 {
                    key.push('.');
                }
                key.push_str(part);
                if let Some(inner) = o.get(&key) {
                    extract(inner, &path[i + 1..], out);
                }
            }
        }
        Value::Null => {}
        scalar if path.is_empty() => out.extend(Scalar::from_json(scalar)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at(v: Value, path: &str) -> Vec<Scalar> {
        let parts: Vec<&str> = path.split('.').collect();
        let mut out = Vec::new();
        extract(&v, &parts, &mut out);
        out
    }

    #[test]
    fn values_are_read_through_arrays_and_dotted_keys() {
        let text = |s: &str| Scalar::Text(s.into());
        assert_eq!(at(json!({"a": ["x", "y"]}), "a"), [text("x"), text("y")]);
        assert_eq!(at(json!({"a": [{"b": 1}, {"b": [2, null]}]}), "a.b"), [Scalar::Long(1), Scalar::Long(2)]);
        assert_eq!(at(json!({"a.b": "x", "a": {"b": "y"}}), "a.b"), [text("y"), text("x")]);
        // An object at the path, or nothing there, gives no values.
        assert_eq!(at(json!({"a": {"b": 1}}), "a"), []);
        assert_eq!(at(json!({"a": 1}), "b"), []);
    }
}
