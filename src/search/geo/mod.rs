//! Geo points at search time: the geo queries (`query.rs`; the `geo_shape` query on geo
//! shapes in `shape.rs`), and reading a field's
//! points per document for sorting and aggregations. A geo point field keeps Lucene's
//! packed longs (`geo::pack`) as numeric doc values and as sorted points, so the points
//! of one band of latitudes are one stretch of the sorted points.

pub mod query;
pub mod shape;
pub mod sort;

use super::context::{Executor, Resolved};
use crate::error::{Error, Exception};
use crate::mapping::{FieldMapping, FieldType};

/// The shard failure ES raises for a geo request on `field` of index `ex`.
pub fn shard_error(ex: &Executor<'_>, reason: String) -> Error {
    let meta = &ex.reader.meta;
    let e = Exception::new("query_shard_exception", reason)
        .with_meta("index_uuid", meta.uuid.as_str())
        .with_meta("index", meta.name.as_str());
    Error::all_shards_failed(400, Some(&meta.name), e)
}

/// The geo point field a geo query names: `Ok(None)` when it is unmapped and
/// `ignore_unmapped` is set, ES's errors when it is unmapped or not a geo point.
pub fn geo_field<'a>(ex: &Executor<'a>, field: &str, ignore_unmapped: bool) -> Result<Option<&'a FieldMapping>, Error> {
    match ex.resolve(field) {
        Resolved::Field(fm) if fm.ftype == FieldType::GeoPoint => Ok(Some(fm)),
        Resolved::Unmapped if ignore_unmapped => Ok(None),
        Resolved::Unmapped => Err(shard_error(ex, format!("failed to find geo_point field [{field}]"))),
        _ => Err(shard_error(ex, format!("field [{field}] is not a geo_point field"))),
    }
}

/// ES's refusal of a term-level query (`term`, `terms`, `match`) on a geo point or
/// shape (the shape's text names no field).
pub fn exact_search_error(fm: &FieldMapping) -> Error {
    let reason = "Geo fields do not support exact searching, use dedicated geo queries instead";
    match fm.ftype {
        FieldType::GeoShape => super::context::query_shard_error(reason.to_string()),
        _ => super::context::query_shard_error(format!("{reason}: [{}]", fm.path)),
    }
}

/// ES's refusal of a `range` query on a geo point or shape.
pub fn range_error(fm: &FieldMapping) -> Error {
    Error::illegal_argument(format!("Field [{}] of type [{}] does not support range queries", fm.path, fm.type_name()))
}
