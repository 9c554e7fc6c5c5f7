//! The geo queries of ES 6.8's DSL: `geo_distance`, `geo_bounding_box` and
//! `geo_polygon`, parsed as their builders' `fromXContent` read them, with their errors.
//! What depends on the field (mapped? a geo point?) and the validation of coordinates
//! is left to the search, as ES checks them on the shard.

use super::Query;
use crate::error::{Error, Exception, Result};
use crate::geo::geohash::Corner;
use crate::geo::{DistanceUnit, GeoDistance, GeoError, GeoPoint, PointParser};
use crate::json_value::{bool_of, num_f32};
use serde_json::{Map, Value};

/// A geo query on one field.
#[derive(Debug, Clone, PartialEq)]
pub struct GeoQuery {
    /// The geo point field.
    pub field: String,
    /// What it matches.
    pub shape: GeoShape,
    /// `validation_method`.
    pub validation: GeoValidation,
    /// `ignore_unmapped`: an unmapped field matches nothing instead of failing.
    pub ignore_unmapped: bool,
    /// `boost`.
    pub boost: f32,
}

/// The area a geo query matches.
#[derive(Debug, Clone, PartialEq)]
pub enum GeoShape {
    /// Points within `meters` of `center`.
    Distance {
        /// The circle's center.
        center: GeoPoint,
        /// Its radius in meters.
        meters: f64,
    },
    /// Points within a box (crossing the dateline when `left > right`).
    BoundingBox {
        /// The top-left corner.
        top_left: GeoPoint,
        /// The bottom-right corner.
        bottom_right: GeoPoint,
    },
    /// Points within a polygon (its ring as given; closed when searched).
    Polygon(Vec<GeoPoint>),
}

/// `validation_method`: how coordinates out of range are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeoValidation {
    /// Refused.
    Strict,
    /// Accepted as they are.
    IgnoreMalformed,
    /// Folded into range.
    Coerce,
}

impl GeoValidation {
    /// `GeoValidationMethod.isIgnoreMalformed`: no check of the coordinates.
    pub fn ignores_malformed(self) -> bool {
        self != GeoValidation::Strict
    }

    /// `GeoValidationMethod.fromString`.
    pub fn parse(v: &Value) -> Result<GeoValidation> {
        let s = crate::json_value::value_to_string(v);
        match s.to_lowercase().as_str() {
            "strict" => Ok(GeoValidation::Strict),
            "ignore_malformed" => Ok(GeoValidation::IgnoreMalformed),
            "coerce" => Ok(GeoValidation::Coerce),
            _ => Err(Error::illegal_argument(format!(
                "operator needs to be either [COERCE, IGNORE_MALFORMED, STRICT], but not [{s}]"
            ))),
        }
    }
}

fn geo_error(e: GeoError) -> Error {
    Error::new(400, Exception::new(e.kind, e.reason))
}

fn parsing(reason: String) -> Error {
    Error::parsing_no_pos(reason)
}

/// ES's `ElasticsearchParseException` (a 400 `parse_exception`).
fn parse_exception(reason: String) -> Error {
    Error::new(400, Exception::new("parse_exception", reason))
}

fn body_object<'v>(name: &str, body: &'v Value) -> Result<&'v Map<String, Value>> {
    body.as_object().ok_or_else(|| parsing(format!("[{name}] query malformed, no start_object after query name")))
}

/// The common options of the three queries; `Ok(false)` when `key` is none of them.
fn common_option(name: &str, key: &str, v: &Value, q: &mut (GeoValidation, bool, f32)) -> Result<bool> {
    match key {
        "_name" => {}
        "boost" => q.2 = num_f32(v).ok_or_else(|| parsing(format!("[{name}] query [boost] must be a number")))?,
        "ignore_unmapped" => {
            q.1 = bool_of(v).ok_or_else(|| {
                Error::illegal_argument(format!(
                    "Failed to parse value [{}] as only [true] or [false] are allowed.",
                    crate::json_value::value_to_string(v)
                ))
            })?
        }
        "validation_method" => q.0 = GeoValidation::parse(v)?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// Parses `geo_distance`, `geo_bounding_box` or `geo_polygon` (`name`).
pub fn parse(name: &str, body: &Value) -> Result<Query> {
    let o = body_object(name, body)?;
    match name {
        "geo_distance" => distance(o),
        "geo_bounding_box" => bounding_box(o),
        _ => polygon(o),
    }
}

fn distance(o: &Map<String, Value>) -> Result<Query> {
    const NAME: &str = "geo_distance";
    let mut common = (GeoValidation::Strict, false, 1.0f32);
    let mut field: Option<String> = None;
    let mut point = GeoPoint::new(f64::NAN, f64::NAN);
    let mut distance: Option<String> = None;
    let mut unit = DistanceUnit::Meters;
    let parser = PointParser::query();
    for (key, v) in o {
        match v {
            Value::Array(_) => {
                field = Some(key.clone());
                point = parser.point(v).map_err(geo_error)?;
            }
            Value::Object(members) => {
                if let Some(first) = &field {
                    return Err(parsing(format!(
                        "[{NAME}] query doesn't support multiple fields, found [{first}] and [{key}]"
                    )));
                }
                field = Some(key.clone());
                // `{lat, lon}` read by the query itself: each member a number (or its text).
                for (k, c) in members {
                    let number = || -> Result<f64> {
                        match c {
                            Value::Number(n) => Ok(n.as_f64().unwrap_or(f64::NAN)),
                            Value::String(s) => crate::geo::parse::java_parse_double(s).map_err(geo_error),
                            _ => Err(parsing(format!("[{NAME}] point must be numbers"))),
                        }
                    };
                    match k.as_str() {
                        "lat" => point.lat = number()?,
                        "lon" => point.lon = number()?,
                        "geohash" => {
                            point = crate::geo::geohash::decode(&crate::json_value::value_to_string(c))
                                .map_err(geo_error)?
                        }
                        _ => return Err(parsing("field must be either [lat], [lon] or [geohash]".into())),
                    }
                }
            }
            _ => match key.as_str() {
                "distance" => distance = Some(crate::json_value::value_to_string(v)),
                "unit" => unit = DistanceUnit::from_name(&crate::json_value::value_to_string(v)).map_err(geo_error)?,
                "distance_type" => {
                    // Parsed and checked; ES 6.8's query is Lucene's haversine either way.
                    GeoDistance::from_name(&crate::json_value::value_to_string(v)).map_err(geo_error)?;
                }
                k if k.ends_with(".lat") => {
                    point.lat = number_of(v)?;
                    field = Some(k[..k.len() - 4].to_string());
                }
                k if k.ends_with(".lon") => {
                    point.lon = number_of(v)?;
                    field = Some(k[..k.len() - 4].to_string());
                }
                k => {
                    if common_option(NAME, k, v, &mut common)? {
                        continue;
                    }
                    if field.is_some() {
                        return Err(parsing(format!("failed to parse [{NAME}] query. unexpected field [{k}]")));
                    }
                    point = parser.string(&crate::json_value::value_to_string(v)).map_err(geo_error)?;
                    field = Some(k.to_string());
                }
            },
        }
    }
    let distance = distance.ok_or_else(|| parsing("geo_distance requires 'distance' to be specified".into()))?;
    let field = field.ok_or_else(|| Error::illegal_argument("fieldName must not be null or empty"))?;
    let meters = DistanceUnit::parse(&distance, unit, DistanceUnit::Meters).map_err(geo_error)?;
    if meters <= 0.0 {
        return Err(Error::illegal_argument("distance must be greater than zero"));
    }
    Ok(Query::Geo(Box::new(GeoQuery {
        field,
        shape: GeoShape::Distance { center: point, meters },
        validation: common.0,
        ignore_unmapped: common.1,
        boost: common.2,
    })))
}

fn number_of(v: &Value) -> Result<f64> {
    match v {
        Value::Number(n) => Ok(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => crate::geo::parse::java_parse_double(s).map_err(geo_error),
        _ => Err(parsing("[geo_distance] point must be numbers".into())),
    }
}

fn bounding_box(o: &Map<String, Value>) -> Result<Query> {
    const NAME: &str = "geo_bounding_box";
    let mut common = (GeoValidation::Strict, false, 1.0f32);
    let mut found: Option<(String, [f64; 4])> = None;
    for (key, v) in o {
        match v {
            Value::Object(members) => {
                let bbox = parse_box(members)
                    .map_err(|e| parse_exception(format!("failed to parse [{NAME}] query. [{}]", e.reason())))?;
                found = Some((key.clone(), bbox));
            }
            _ => {
                if common_option(NAME, key, v, &mut common)? {
                    continue;
                }
                if key == "type" {
                    let t = crate::json_value::value_to_string(v);
                    if !matches!(t.to_lowercase().as_str(), "memory" | "indexed") {
                        return Err(Error::illegal_argument(format!("No type found for name [{t}]")));
                    }
                    continue;
                }
                return Err(parsing(format!("failed to parse [{NAME}] query. unexpected field [{key}]")));
            }
        }
    }
    let (field, [top, left, bottom, right]) =
        found.ok_or_else(|| parse_exception(format!("failed to parse [{NAME}] query. bounding box not provided")))?;
    // `setCorners`, checked before the validation method is set (so always).
    let invalid =
        [("top latitude", top), ("left longitude", left), ("bottom latitude", bottom), ("right longitude", right)]
            .into_iter()
            .find(|(_, v)| !v.is_finite());
    if let Some((what, v)) = invalid {
        return Err(Error::illegal_argument(format!("{what} is invalid: {}", java(v))));
    }
    if top < bottom {
        return Err(Error::illegal_argument(format!("top is below bottom corner: {} vs. {}", java(top), java(bottom))));
    }
    if top == bottom {
        return Err(Error::illegal_argument(format!(
            "top cannot be the same as bottom: {} == {}",
            java(top),
            java(bottom)
        )));
    }
    if left == right {
        return Err(Error::illegal_argument(format!(
            "left cannot be the same as right: {} == {}",
            java(left),
            java(right)
        )));
    }
    Ok(Query::Geo(Box::new(GeoQuery {
        field,
        shape: GeoShape::BoundingBox { top_left: GeoPoint::new(top, left), bottom_right: GeoPoint::new(bottom, right) },
        validation: common.0,
        ignore_unmapped: common.1,
        boost: common.2,
    })))
}

fn java(v: f64) -> String {
    crate::json_value::java_double(v)
}

/// `GeoBoundingBoxQueryBuilder.parseBoundingBox`: `[top, left, bottom, right]` from
/// corners, sides or WKT `BBOX (left, right, top, bottom)`.
fn parse_box(members: &Map<String, Value>) -> Result<[f64; 4]> {
    let (mut top, mut left, mut bottom, mut right) = (f64::NAN, f64::NAN, f64::NAN, f64::NAN);
    let mut envelope: Option<[f64; 4]> = None;
    let parser = PointParser::query();
    let corner = |v: &Value, c: Corner| parser.point_at(v, c).map_err(geo_error);
    for (key, v) in members {
        match key.as_str() {
            "wkt" => envelope = Some(parse_bbox_wkt(&crate::json_value::value_to_string(v))?),
            "top" => top = side(v)?,
            "bottom" => bottom = side(v)?,
            "left" => left = side(v)?,
            "right" => right = side(v)?,
            "top_left" | "topLeft" => {
                let p = corner(v, Corner::TopLeft)?;
                (top, left) = (p.lat, p.lon);
            }
            "bottom_right" | "bottomRight" => {
                let p = corner(v, Corner::BottomRight)?;
                (bottom, right) = (p.lat, p.lon);
            }
            "top_right" | "topRight" => {
                let p = corner(v, Corner::TopRight)?;
                (top, right) = (p.lat, p.lon);
            }
            "bottom_left" | "bottomLeft" => {
                let p = corner(v, Corner::BottomLeft)?;
                (bottom, left) = (p.lat, p.lon);
            }
            other => return Err(parse_exception(format!("failed to parse bounding box. unexpected field [{other}]"))),
        }
    }
    if let Some(e) = envelope {
        if !(top.is_nan() || bottom.is_nan() || left.is_nan() || right.is_nan()) {
            return Err(parse_exception(
                "failed to parse bounding box. Conflicting definition found using well-known text and explicit corners."
                    .into(),
            ));
        }
        return Ok(e);
    }
    Ok([top, left, bottom, right])
}

fn side(v: &Value) -> Result<f64> {
    match v {
        Value::Number(n) => Ok(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => crate::geo::parse::java_parse_double(s).map_err(geo_error),
        _ => Err(parse_exception("geo_point expected".into())),
    }
}

/// WKT `BBOX (minLon, maxLon, maxLat, minLat)` (also named `ENVELOPE`).
fn parse_bbox_wkt(text: &str) -> Result<[f64; 4]> {
    let bad = || parse_exception(format!("failed to parse WKT bounding box: [{text}]"));
    let t = text.trim();
    let upper = t.to_uppercase();
    let rest = upper.strip_prefix("BBOX").or_else(|| upper.strip_prefix("ENVELOPE")).ok_or_else(bad)?;
    let inner = rest.trim().strip_prefix('(').and_then(|r| r.strip_suffix(')')).ok_or_else(bad)?;
    let nums: Vec<f64> = inner
        .split(',')
        .map(|p| crate::geo::parse::java_parse_double(p.trim()).map_err(|_| bad()))
        .collect::<Result<_>>()?;
    match nums[..] {
        [min_lon, max_lon, max_lat, min_lat] => Ok([max_lat, min_lon, min_lat, max_lon]),
        _ => Err(bad()),
    }
}

fn polygon(o: &Map<String, Value>) -> Result<Query> {
    const NAME: &str = "geo_polygon";
    let mut common = (GeoValidation::Strict, false, 1.0f32);
    let mut found: Option<(String, Vec<GeoPoint>)> = None;
    let parser = PointParser::query();
    for (key, v) in o {
        match v {
            Value::Object(members) => {
                let mut shell = None;
                for (k, pts) in members {
                    if k != "points" {
                        return Err(parsing(format!("[{NAME}] query does not support [{k}]")));
                    }
                    let Value::Array(items) = pts else {
                        return Err(parsing(format!(
                            "[{NAME}] query does not support token type [{}] under [{k}]",
                            crate::json_value::token_name(pts)
                        )));
                    };
                    shell = Some(items.iter().map(|p| parser.point(p).map_err(geo_error)).collect::<Result<Vec<_>>>()?);
                }
                found = Some((key.clone(), shell.unwrap_or_default()));
            }
            _ => {
                if common_option(NAME, key, v, &mut common)? {
                    continue;
                }
                return Err(parsing(format!("[{NAME}] query does not support [{key}]")));
            }
        }
    }
    let (field, mut points) = found.ok_or_else(|| Error::illegal_argument("fieldName must not be null"))?;
    // The builder closes the ring and wants three distinct points at least.
    if points.is_empty() {
        return Err(Error::illegal_argument("polygon must not be null or empty"));
    }
    if points.first() != points.last() {
        points.push(points[0]);
    }
    if points.len() < 4 {
        return Err(Error::illegal_argument("too few points defined for geo_polygon query"));
    }
    Ok(Query::Geo(Box::new(GeoQuery {
        field,
        shape: GeoShape::Polygon(points),
        validation: common.0,
        ignore_unmapped: common.1,
        boost: common.2,
    })))
}
