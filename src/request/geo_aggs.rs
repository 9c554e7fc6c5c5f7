//! The geo aggregations of ES 6.8, parsed with their builders' errors: `geo_distance`
//! (ranges of distance from an origin), `geohash_grid` (cells of a precision given as a
//! level or a distance), `geo_bounds` and `geo_centroid`.

use crate::error::{Error, Exception, Result};
use crate::geo::{geohash, DistanceUnit, GeoDistance, GeoError, GeoPoint, PointParser};
use crate::json_value::value_to_string;
use serde_json::{Map, Value};

/// A geo aggregation.
#[derive(Debug, Clone)]
pub enum GeoAgg {
    /// `geo_distance`.
    Distance(DistanceAgg),
    /// `geohash_grid`.
    GeohashGrid {
        /// The geo point field.
        field: String,
        /// The geohash level, 1 to 12.
        precision: u32,
        /// Buckets answered.
        size: usize,
        /// Buckets each index keeps before they are merged.
        shard_size: usize,
    },
    /// `geo_bounds`.
    Bounds {
        /// The geo point field.
        field: String,
        /// Whether the box may cross the dateline when that makes it narrower.
        wrap_longitude: bool,
    },
    /// `geo_centroid`.
    Centroid {
        /// The geo point field.
        field: String,
    },
}

impl GeoAgg {
    /// The field the aggregation reads.
    pub fn field(&self) -> &str {
        match self {
            GeoAgg::Distance(d) => &d.field,
            GeoAgg::GeohashGrid { field, .. } | GeoAgg::Bounds { field, .. } | GeoAgg::Centroid { field } => field,
        }
    }
}

/// `geo_distance`: buckets of distance ranges from `origin`.
#[derive(Debug, Clone)]
pub struct DistanceAgg {
    /// The geo point field.
    pub field: String,
    /// The point distances are measured from.
    pub origin: GeoPoint,
    /// `(key, from, to)` in `unit`, in request order.
    pub ranges: Vec<(Option<String>, Option<f64>, Option<f64>)>,
    /// The unit of the ranges.
    pub unit: DistanceUnit,
    /// `arc` or `plane`.
    pub distance_type: GeoDistance,
    /// Buckets as an object keyed by their keys.
    pub keyed: bool,
}

fn geo_error(e: GeoError) -> Error {
    Error::new(400, Exception::new(e.kind, e.reason))
}

fn unknown(t: &str, k: &str) -> Error {
    Error::parsing_no_pos(format!("[{t}] unknown field [{k}], parser not found"))
}

fn number(t: &str, k: &str, v: &Value) -> Result<f64> {
    match v {
        Value::Number(n) => Ok(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => crate::geo::parse::java_parse_double(s).map_err(geo_error),
        _ => Err(Error::parsing_no_pos(format!("[{t}] failed to parse field [{k}]"))),
    }
}

fn boolean(t: &str, k: &str, v: &Value) -> Result<bool> {
    crate::json_value::bool_of(v).ok_or_else(|| Error::parsing_no_pos(format!("[{t}] failed to parse field [{k}]")))
}

fn integer(t: &str, k: &str, v: &Value) -> Result<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .ok_or_else(|| Error::parsing_no_pos(format!("[{t}] failed to parse field [{k}]")))
}

/// Parses the body of a geo aggregation of type `t` named `name`.
pub fn parse(name: &str, t: &str, o: &Map<String, Value>) -> Result<GeoAgg> {
    let mut field = None;
    let field_key = |k: &str, v: &Value, field: &mut Option<String>| -> bool {
        if k == "field" {
            *field = Some(value_to_string(v));
            true
        } else {
            false
        }
    };
    let agg = match t {
        "geo_distance" => {
            let mut origin = None;
            let mut ranges = Vec::new();
            let (mut unit, mut distance_type, mut keyed) = (DistanceUnit::Meters, GeoDistance::Arc, false);
            for (k, v) in o {
                if field_key(k, v, &mut field) {
                    continue;
                }
                match k.as_str() {
                    "origin" | "center" | "point" => origin = Some(PointParser::query().point(v).map_err(geo_error)?),
                    "unit" => unit = DistanceUnit::from_name(&value_to_string(v)).map_err(geo_error)?,
                    "distance_type" => {
                        distance_type = GeoDistance::from_name(&value_to_string(v)).map_err(geo_error)?
                    }
                    "keyed" => keyed = boolean(t, k, v)?,
                    "ranges" => {
                        let Value::Array(items) = v else {
                            return Err(Error::parsing_no_pos(format!("[{t}] failed to parse field [ranges]")));
                        };
                        for item in items {
                            let Value::Object(r) = item else {
                                return Err(Error::parsing_no_pos(format!("[{t}] failed to parse field [ranges]")));
                            };
                            let (mut key, mut from, mut to) = (None, None, None);
                            for (rk, rv) in r {
                                match rk.as_str() {
                                    "key" => key = Some(value_to_string(rv)),
                                    "from" if !rv.is_null() => from = Some(number("range", rk, rv)?),
                                    "to" if !rv.is_null() => to = Some(number("range", rk, rv)?),
                                    "from" | "to" => {}
                                    other => return Err(unknown("range", other)),
                                }
                            }
                            ranges.push((key, from, to));
                        }
                    }
                    other => return Err(unknown(t, other)),
                }
            }
            let origin = origin.ok_or_else(|| Error::illegal_argument(format!("origin must not be null: [{name}]")))?;
            if ranges.is_empty() {
                return Err(Error::illegal_argument(format!("No [ranges] specified for the [{name}] aggregation")));
            }
            GeoAgg::Distance(DistanceAgg {
                field: field.clone().unwrap_or_default(),
                origin,
                ranges,
                unit,
                distance_type,
                keyed,
            })
        }
        "geohash_grid" => {
            let (mut precision, mut size, mut shard_size) = (5u32, 10_000i64, -1i64);
            for (k, v) in o {
                if field_key(k, v, &mut field) {
                    continue;
                }
                match k.as_str() {
                    "precision" => precision = parse_precision(v)?,
                    "size" => {
                        size = integer(t, k, v)?;
                        if size <= 0 {
                            return Err(Error::illegal_argument(format!(
                                "[size] must be greater than 0. Found [{size}] in [{name}]"
                            )));
                        }
                    }
                    "shard_size" => {
                        shard_size = integer(t, k, v)?;
                        if shard_size <= 0 {
                            return Err(Error::illegal_argument(format!(
                                "[shardSize] must be greater than 0. Found [{shard_size}] in [{name}]"
                            )));
                        }
                    }
                    other => return Err(unknown(t, other)),
                }
            }
            // One index is one shard: it keeps at least `size` cells.
            let size = size.min(i64::from(i32::MAX)) as usize;
            let shard_size = if shard_size < 0 { size } else { (shard_size as usize).max(size) };
            GeoAgg::GeohashGrid { field: field.clone().unwrap_or_default(), precision, size, shard_size }
        }
        "geo_bounds" => {
            let mut wrap_longitude = true;
            for (k, v) in o {
                if field_key(k, v, &mut field) {
                    continue;
                }
                match k.as_str() {
                    "wrap_longitude" => wrap_longitude = boolean(t, k, v)?,
                    other => return Err(unknown(t, other)),
                }
            }
            GeoAgg::Bounds { field: field.clone().unwrap_or_default(), wrap_longitude }
        }
        _ => {
            for (k, v) in o {
                if !field_key(k, v, &mut field) {
                    return Err(unknown(t, k));
                }
            }
            GeoAgg::Centroid { field: field.clone().unwrap_or_default() }
        }
    };
    if agg.field().is_empty() {
        return Err(Error::illegal_argument("Required one of fields [field, script], but none were specified. "));
    }
    Ok(agg)
}

/// `GeoUtils.parsePrecision`: a level, or a distance whose cells are about that wide.
fn parse_precision(v: &Value) -> Result<u32> {
    let check = |p: i64| -> Result<u32> {
        if !(1..=12).contains(&p) {
            return Err(Error::illegal_argument(format!(
                "Invalid geohash aggregation precision of {p}. Must be between 1 and 12."
            )));
        }
        Ok(p as u32)
    };
    match v {
        Value::Number(n) => check(n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)).unwrap_or(0)),
        other => {
            let text = value_to_string(other);
            if let Ok(level) = text.trim().parse::<i64>() {
                return check(level);
            }
            let meters = DistanceUnit::parse(&text, DistanceUnit::Meters, DistanceUnit::Meters).map_err(geo_error)?;
            let level = geohash::levels_for_meters(meters);
            check(i64::from(level)).map_err(|_| Error::illegal_argument(format!("precision too high [{text}]")))
        }
    }
}
