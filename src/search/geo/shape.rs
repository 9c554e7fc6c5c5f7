//! The `geo_shape` query on one index, with exact geometry (`geo::relate`) rather than
//! ES's prefix-tree cells: the candidates are the documents with the field, those whose
//! stored box (the packed corners the loader keeps) cannot match are skipped, and the
//! shapes of the rest are read again from `_source` and tested.

use super::shard_error;
use crate::error::{Error, Exception, Result};
use crate::geo::relate::{Parts, Relation};
use crate::geo::shape::{self, BBox, Shape, ShapeOptions};
use crate::index::{DocSet, ID_FIELD};
use crate::mapping::{geo_shape::shapes_of, FieldMapping, FieldType};
use crate::query::geo_shape::{GeoShapeQuery, IndexedShape, ShapeSource};
use crate::search::context::{Executor, Resolved};
use crate::search::weight::Weight;
use serde_json::Value;

/// The constant-score weight of a `geo_shape` query.
pub fn compile<'a>(ex: &Executor<'a>, q: &GeoShapeQuery, boost: f32) -> Result<Weight<'a>> {
    let fm = match ex.resolve(&q.field) {
        Resolved::Field(fm) if fm.ftype == FieldType::GeoShape => fm,
        Resolved::Unmapped if q.ignore_unmapped => return Ok(Weight::none()),
        Resolved::Unmapped => return Err(shard_error(ex, format!("failed to find geo_shape field [{}]", q.field))),
        Resolved::Field(fm) => {
            return Err(shard_error(
                ex,
                format!("Field [{}] is not of type [geo_shape] but of type [{}]", q.field, fm.type_name()),
            ))
        }
        Resolved::Meta(_) => {
            return Err(shard_error(
                ex,
                format!("Field [{}] is not of type [geo_shape] but of type [keyword]", q.field),
            ))
        }
    };
    let query_shape = match &q.shape {
        ShapeSource::Inline(s) => s.clone(),
        ShapeSource::Indexed(i) => indexed_shape(ex, i)?,
    };
    let docs = matching_docs(ex, fm, &query_shape, q.relation)?;
    Ok(Weight::constant(docs, boost * q.boost))
}

/// The documents whose shapes of `fm` stand in `relation` to `query`.
fn matching_docs(ex: &Executor<'_>, fm: &FieldMapping, query: &Shape, relation: Relation) -> Result<DocSet> {
    let Some(dv) = ex.reader.numeric_doc_values(ex.snap, &fm.path)? else { return Ok(DocSet::new()) };
    let query_box = query.bbox();
    let query_parts = Parts::of(std::slice::from_ref(query));
    let mut out = Vec::new();
    let mut shapes = Vec::new();
    let mut read = 0usize;
    for doc in 0..ex.reader.max_doc() {
        if dv.count(doc) == 0 {
            continue;
        }
        let mut b =
            BBox { min_x: f64::INFINITY, min_y: f64::INFINITY, max_x: f64::NEG_INFINITY, max_y: f64::NEG_INFINITY };
        for v in dv.values_i64(doc) {
            let p = crate::geo::unpack(v);
            b.min_x = b.min_x.min(p.lon);
            b.max_x = b.max_x.max(p.lon);
            b.min_y = b.min_y.min(p.lat);
            b.max_y = b.max_y.max(p.lat);
        }
        if !relation.may_hold(&b, &query_box) {
            continue;
        }
        // Reading sources is the slow part: a client that has gone stops it.
        read += 1;
        if read % 1024 == 0 {
            crate::budget::check_cancelled()?;
        }
        shapes.clear();
        let stored = ex.reader.document(ex.snap, doc)?;
        let Ok(source) = serde_json::from_slice::<Value>(stored.source()) else { continue };
        let mut values = Vec::new();
        values_at(&source, &fm.path, &mut values);
        for v in values {
            // The loader took these values: a malformed one was skipped there.
            if shapes_of(fm, v, &mut shapes).is_err() {
                continue;
            }
        }
        if !shapes.is_empty() && relation.holds(&Parts::of(&shapes), &query_parts) {
            out.push(doc);
        }
    }
    Ok(DocSet::from_docs(out))
}

/// The values at dotted `path` in a document's source (objects in arrays followed, a
/// dotted key taken as its path).
fn values_at<'v>(v: &'v Value, path: &str, out: &mut Vec<&'v Value>) {
    match v {
        Value::Object(members) => {
            for (k, child) in members {
                if k == path {
                    out.push(child);
                } else if let Some(rest) = path.strip_prefix(k.as_str()).and_then(|r| r.strip_prefix('.')) {
                    values_at(child, rest, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| values_at(i, path, out)),
        _ => {}
    }
}

/// The shape of another document of this index (`indexed_shape`), as ES's
/// `GeoShapeQueryBuilder` fetches it, with its errors.
fn indexed_shape(ex: &Executor<'_>, i: &IndexedShape) -> Result<Shape> {
    if i.index != ex.reader.meta.name {
        return Err(Error::illegal_argument(format!(
            "[geo_shape] indexed_shape of another index ([{}]) is not supported by metagate",
            i.index
        )));
    }
    let type_name = ex.reader.type_name(ex.snap)?;
    let not_found = || {
        let t = i.doc_type.clone().unwrap_or_else(|| type_name.clone());
        Error::illegal_argument(format!("Shape with ID [{}] in type [{t}] not found", i.id))
    };
    if i.doc_type.as_ref().is_some_and(|t| t != &type_name && t != "_doc") {
        return Err(not_found());
    }
    let Some(doc) = ex.keyword_docs(ID_FIELD, &i.id)?.iter().next() else { return Err(not_found()) };
    let stored = ex.reader.document(ex.snap, doc)?;
    let source: Value = serde_json::from_slice(stored.source()).unwrap_or(Value::Null);
    let mut values = Vec::new();
    values_at(&source, &i.path, &mut values);
    let missing = || {
        Error::new(
            400,
            Exception::new(
                "illegal_state_exception",
                format!("Shape with name [{}] found but missing {} field", i.id, i.path),
            ),
        )
    };
    let value = values.first().ok_or_else(missing)?;
    shape::parse(value, ShapeOptions::default())
        .map_err(|e| Error::new(400, Exception::new(e.kind, e.reason)))?
        .ok_or_else(missing)
}
