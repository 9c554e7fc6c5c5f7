//! The `_geo_distance` sort's values: per document, the distances from each of its
//! points to each point of the sort (ES's `GeoUtils.distanceValues`, on the quantized
//! points), reduced by the sort's mode. A document without a point sorts as +Infinity,
//! ES's missing value for this sort in either order.

use crate::error::{Error, Exception, Result};
use crate::geo::{self, GeoPoint};
use crate::index::{IndexReader, NumericDocValues};
use crate::mapping::FieldType;
use crate::query::geo::GeoValidation;
use crate::request::geo_sort::GeoDistanceSort;
use crate::request::sort::{Mode, Order};
use crate::store::Snapshot;
use std::sync::Arc;

/// One index's source of `_geo_distance` sort values.
pub struct GeoSortSource {
    values: Option<Arc<NumericDocValues>>,
    points: Vec<GeoPoint>,
    spec: GeoDistanceSort,
    mode: Mode,
}

fn shard_failure(reader: &IndexReader, kind: &str, reason: String) -> Error {
    Error::all_shards_failed(400, Some(&reader.meta.name), Exception::new(kind, reason))
}

impl GeoSortSource {
    /// Checks the sort's points and field against `reader` as `GeoDistanceSortBuilder.
    /// build` does on a shard.
    pub fn new(spec: &GeoDistanceSort, reader: &IndexReader, snap: &Snapshot) -> Result<GeoSortSource> {
        let java = crate::json_value::java_double;
        if !spec.validation.ignores_malformed() {
            for p in &spec.points {
                let bad = if !geo::valid_lat(p.lat) {
                    Some(format!(
                        "illegal latitude value [{}] for [GeoDistanceSort] for field [{}].",
                        java(p.lat),
                        spec.field
                    ))
                } else if !geo::valid_lon(p.lon) {
                    Some(format!(
                        "illegal longitude value [{}] for [GeoDistanceSort] for field [{}].",
                        java(p.lon),
                        spec.field
                    ))
                } else {
                    None
                };
                if let Some(reason) = bad {
                    return Err(shard_failure(reader, "parse_exception", reason));
                }
            }
        }
        let points = match spec.validation {
            GeoValidation::Coerce => spec.points.iter().map(|p| geo::normalize(*p, true, true)).collect(),
            _ => spec.points.clone(),
        };
        let mapping = &reader.meta.mapping;
        let values = match mapping.field(mapping.resolve_alias(&spec.field)) {
            Some(fm) if fm.ftype == FieldType::GeoPoint => reader.numeric_doc_values(snap, &fm.path)?,
            Some(fm) => {
                return Err(shard_failure(
                    reader,
                    "illegal_argument_exception",
                    format!("field [{}] of type [{}] is not a geo_point field", spec.field, fm.type_name()),
                ))
            }
            None if spec.ignore_unmapped => None,
            None => {
                return Err(shard_failure(
                    reader,
                    "illegal_argument_exception",
                    format!("failed to find mapper for [{}] for geo distance based sort", spec.field),
                ))
            }
        };
        let mode = spec.mode.unwrap_or(if spec.order == Order::Asc { Mode::Min } else { Mode::Max });
        Ok(GeoSortSource { values, points, spec: spec.clone(), mode })
    }

    /// The sort value of `doc`, in the sort's unit.
    pub fn value(&self, doc: u32) -> f64 {
        let Some(dv) = &self.values else { return f64::INFINITY };
        let mut distances: Vec<f64> = Vec::with_capacity(dv.count(doc) * self.points.len());
        for packed in dv.values_i64(doc) {
            let point = geo::unpack(packed);
            for from in &self.points {
                distances.push(self.spec.distance_type.calculate(*from, point, self.spec.unit));
            }
        }
        if distances.is_empty() {
            return f64::INFINITY;
        }
        distances.sort_by(f64::total_cmp);
        let n = distances.len();
        match self.mode {
            Mode::Min => distances[0],
            Mode::Max => distances[n - 1],
            Mode::Avg | Mode::Sum => distances.iter().sum::<f64>() / n as f64,
            Mode::Median if n % 2 == 0 => (distances[n / 2 - 1] + distances[n / 2]) / 2.0,
            Mode::Median => distances[n / 2],
        }
    }
}
