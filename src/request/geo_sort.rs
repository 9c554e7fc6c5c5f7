//! The `_geo_distance` sort criterion, parsed as ES 6.8's `GeoDistanceSortBuilder.
//! fromXContent` reads it: the field and its points (one or several, in any form),
//! `order`, `unit`, `distance_type`, `mode`, `validation_method`, `ignore_unmapped`.

use super::sort::{Mode, Order};
use crate::error::{Error, Exception, Result};
use crate::geo::{DistanceUnit, GeoDistance, GeoError, GeoPoint, PointParser};
use crate::query::geo::GeoValidation;
use serde_json::Value;

/// A `_geo_distance` sort.
#[derive(Debug, Clone, PartialEq)]
pub struct GeoDistanceSort {
    /// The geo point field.
    pub field: String,
    /// The points distances are measured from (the least distance to any counts).
    pub points: Vec<GeoPoint>,
    /// The direction.
    pub order: Order,
    /// The unit of the sort values.
    pub unit: DistanceUnit,
    /// `arc` or `plane`.
    pub distance_type: GeoDistance,
    /// How several distances of a document make one (default: min ascending, max
    /// descending).
    pub mode: Option<Mode>,
    /// `validation_method` of the points.
    pub validation: GeoValidation,
    /// `ignore_unmapped`: an index without the field sorts every document last.
    pub ignore_unmapped: bool,
}

fn parsing(reason: String) -> Error {
    Error::new(400, Exception::new("parsing_exception", reason))
}

fn geo_error(e: GeoError) -> Error {
    Error::new(400, Exception::new(e.kind, e.reason))
}

/// `GeoDistanceSortBuilder.parseGeoPoints`: an array of points, where numbers pair up as
/// `[lon, lat]`.
fn parse_points(items: &[Value], out: &mut Vec<GeoPoint>) -> Result<()> {
    let parser = PointParser::query();
    let mut i = 0;
    while i < items.len() {
        match &items[i] {
            Value::Number(lon) => {
                let lat = match items.get(i + 1) {
                    Some(Value::Number(lat)) => lat.as_f64().unwrap_or(f64::NAN),
                    other => {
                        let token = other.map_or("END_ARRAY", crate::json_value::token_name);
                        return Err(geo_error(GeoError::parse(format!(
                            "geo point parsing: expected second number but got [{token}] instead"
                        ))));
                    }
                };
                out.push(GeoPoint::new(lat, lon.as_f64().unwrap_or(f64::NAN)));
                i += 2;
            }
            other => {
                out.push(parser.point(other).map_err(geo_error)?);
                i += 1;
            }
        }
    }
    Ok(())
}

/// Parses the body of `{"_geo_distance": {...}}`.
pub fn parse(v: &Value) -> Result<GeoDistanceSort> {
    let o = v.as_object().ok_or_else(|| parsing("[_geo_distance] malformed: expected an object".into()))?;
    let mut s = GeoDistanceSort {
        field: String::new(),
        points: Vec::new(),
        order: Order::Asc,
        unit: DistanceUnit::Meters,
        distance_type: GeoDistance::Arc,
        mode: None,
        validation: GeoValidation::Strict,
        ignore_unmapped: false,
    };
    let mut field: Option<String> = None;
    let text = crate::json_value::value_to_string;
    for (key, x) in o {
        let mut set_field = |name: &str| -> Result<()> {
            if let Some(f) = &field {
                if f != name {
                    return Err(parsing(format!("Trying to reset fieldName to [{name}], already set to [{f}].")));
                }
            }
            field = Some(name.to_string());
            Ok(())
        };
        match (key.as_str(), x) {
            (_, Value::Array(items)) => {
                parse_points(items, &mut s.points)?;
                field = Some(key.clone());
            }
            ("nested_path" | "nested_filter" | "nested", _) => {
                return Err(Error::illegal_argument(
                    "nested sorting is not supported: arrays of objects are mapped as [object]",
                ))
            }
            (_, Value::Object(_)) => {
                set_field(key)?;
                s.points.push(PointParser::query().point(x).map_err(geo_error)?);
            }
            ("order", _) => s.order = super::sort::parse_order(&text(x))?,
            ("unit", _) => s.unit = DistanceUnit::from_name(&text(x)).map_err(geo_error)?,
            ("distance_type", _) => s.distance_type = GeoDistance::from_name(&text(x)).map_err(geo_error)?,
            ("validation_method", _) => s.validation = GeoValidation::parse(x)?,
            ("mode", _) => {
                let mode = super::sort::parse_mode(&text(x))?;
                if mode == Mode::Sum {
                    return Err(Error::illegal_argument("sort_mode [sum] isn't supported for sorting by geo distance"));
                }
                s.mode = Some(mode);
            }
            ("ignore_unmapped", _) => {
                s.ignore_unmapped = crate::json_value::bool_of(x).ok_or_else(|| {
                    Error::illegal_argument(format!(
                        "Failed to parse value [{}] as only [true] or [false] are allowed.",
                        text(x)
                    ))
                })?
            }
            (_, Value::String(point)) => {
                set_field(key)?;
                s.points.push(PointParser::query().string(point).map_err(geo_error)?);
            }
            (k, _) if field.as_deref() == Some(k) => {
                return Err(parsing(format!("Only geohashes of type string supported for field [{k}]")))
            }
            (k, _) => return Err(parsing(format!("[_geo_distance] does not support [{k}]"))),
        }
    }
    s.field = field.ok_or_else(|| Error::illegal_argument("fieldName must not be null"))?;
    if s.points.is_empty() {
        return Err(Error::illegal_argument("Geo distance sorting needs at least one point."));
    }
    Ok(s)
}
