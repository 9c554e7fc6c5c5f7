//! The `geo_shape` field: its mapping parameters as ES 6.8's `GeoShapeFieldMapper.
//! TypeParser` reads and checks them (the prefix tree and strategy are read, checked and
//! printed back; metagate matches shapes with exact geometry, see `search/geo/shape.rs`),
//! how `_mapping` prints them, and how a document's value becomes what the loader keeps:
//! the two corners of each shape's bounding box as packed points (`geo::pack`), which
//! also answer `exists`. The shapes themselves are read again from `_source` by a query.

use super::params::{boolean, java_string, unsupported};
use super::{mapper_parsing, FieldMapping};
use crate::error::{Error, Exception, Result};
use crate::geo::shape::{self, Shape, ShapeOptions};
use crate::geo::{self, DistanceUnit, GeoError};
use serde_json::{json, Map, Value};

/// The prefix trees ES 6.8 knows (`tree`).
const TREES: [&str; 3] = ["geohash", "legacyquadtree", "quadtree"];

/// A `geo_shape` field's own parameters, each as given (`None`: ES's default).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GeoShapeMapping {
    /// `tree` (`geohash` unless given).
    pub tree: Option<String>,
    /// `tree_levels`.
    pub tree_levels: Option<i32>,
    /// `precision`, in meters.
    pub precision: Option<f64>,
    /// `strategy` (`recursive` unless given).
    pub strategy: Option<String>,
    /// `distance_error_pct`.
    pub distance_error_pct: Option<f64>,
    /// `orientation`: `Some(false)` for left-handed (clockwise) shells.
    pub orientation_right: Option<bool>,
    /// `points_only` (the `term` strategy implies it).
    pub points_only: bool,
}

impl GeoShapeMapping {
    /// The shapes the field takes: points only.
    pub fn points_only(&self) -> bool {
        self.points_only
    }
}

/// Reads a `geo_shape` field's parameters in the order the mapping gives them, with
/// ES's errors, then refuses what metagate does not run (`store`, `copy_to`, `fields`).
pub(super) fn parse_params(f: &mut FieldMapping, def: &Value) -> Result<()> {
    let mut g = GeoShapeMapping::default();
    let mut points_only = None;
    let text = |v: &Value| v.as_str().map_or_else(|| java_string(v), str::to_string);
    for (key, v) in def.as_object().into_iter().flatten() {
        match key.as_str() {
            "tree" => g.tree = Some(text(v)),
            "tree_levels" => {
                let t = text(v);
                g.tree_levels = Some(t.parse::<i32>().map_err(|_| number_format(&t))?);
            }
            "precision" => {
                g.precision = Some(
                    DistanceUnit::parse(&text(v), DistanceUnit::Meters, DistanceUnit::Meters)
                        .map_err(|e| mapper_parsing(e.reason))?,
                )
            }
            "distance_error_pct" => {
                g.distance_error_pct =
                    Some(geo::parse::java_parse_double(&text(v)).map_err(|e| mapper_parsing(e.reason))?)
            }
            "orientation" => {
                g.orientation_right = Some(shape::orientation_is_right(&text(v)).map_err(|e| mapper_parsing(e.reason))?)
            }
            "strategy" => {
                let s = text(v);
                if s == "term" {
                    g.points_only = true;
                }
                g.strategy = Some(s);
            }
            "points_only" => points_only = Some(boolean(&f.path, "points_only", v)?),
            "ignore_z_value" => f.params.ignore_z_value = Some(boolean(&f.path, "ignore_z_value", v)?),
            _ => {}
        }
    }
    if let Some(p) = points_only {
        if g.strategy.as_deref() == Some("term") && !p {
            return Err(mapper_parsing("points_only cannot be set to false for term strategy"));
        }
        g.points_only = p;
    }
    // The field type is frozen after the parameters: the tree, then the strategy.
    if let Some(t) = g.tree.as_deref().filter(|t| !TREES.contains(t)) {
        return Err(mapper_parsing(format!("Unknown prefix tree type [{t}]")));
    }
    if let Some(s) = g.strategy.as_deref().filter(|s| !["recursive", "term"].contains(s)) {
        return Err(mapper_parsing(format!("Unknown prefix tree strategy [{s}]")));
    }
    // ES keeps no stored value nor doc values of a shape, and gives none to
    // multi-fields; a copied shape is re-read from text metagate does not keep.
    if f.params.store {
        return Err(unsupported(&f.path, "[store: true]".into()));
    }
    if !f.params.copy_to.is_empty() {
        return Err(unsupported(&f.path, "[copy_to]".into()));
    }
    if def.get("fields").and_then(Value::as_object).is_some_and(|m| !m.is_empty()) {
        return Err(unsupported(&f.path, "[fields]".into()));
    }
    f.doc_values = false;
    f.params.geo_shape = Some(Box::new(g));
    Ok(())
}

/// Java's `NumberFormatException` text for an integer parameter.
fn number_format(text: &str) -> Error {
    mapper_parsing(format!("For input string: \"{text}\""))
}

/// `_mapping`'s view of a `geo_shape` field, in ES's order (`doXContentBody`): the
/// type, then each parameter that differs from its default.
pub(super) fn to_json(f: &FieldMapping, g: &GeoShapeMapping) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), json!("geo_shape"));
    if let Some(t) = g.tree.as_deref().filter(|t| *t != "geohash") {
        m.insert("tree".into(), json!(t));
    }
    if let Some(l) = g.tree_levels.filter(|l| *l != 0) {
        m.insert("tree_levels".into(), json!(l));
    }
    if let Some(p) = g.precision {
        m.insert("precision".into(), json!(format!("{}m", crate::json_value::java_double(p))));
    }
    if let Some(s) = g.strategy.as_deref().filter(|s| *s != "recursive") {
        m.insert("strategy".into(), json!(s));
    }
    // Without tree_levels or precision the default error is 0.025, else 0.
    let default_pct = if g.tree_levels.unwrap_or(0) == 0 && g.precision.is_none() { 0.025 } else { 0.0 };
    if let Some(pct) = g.distance_error_pct.filter(|p| *p != default_pct) {
        m.insert("distance_error_pct".into(), json!(pct));
    }
    // ES prints the orientation's Java enum name.
    if g.orientation_right == Some(false) {
        m.insert("orientation".into(), json!("LEFT"));
    }
    if g.points_only && g.strategy.as_deref() != Some("term") {
        m.insert("points_only".into(), json!(true));
    }
    if let Some(c) = f.params.coerce {
        m.insert("coerce".into(), json!(c));
    }
    if let Some(i) = f.params.ignore_malformed {
        m.insert("ignore_malformed".into(), json!(i));
    }
    if let Some(z) = f.params.ignore_z_value {
        m.insert("ignore_z_value".into(), json!(z));
    }
    Value::Object(m)
}

/// How the field reads shapes.
pub fn options(field: &FieldMapping) -> ShapeOptions {
    ShapeOptions { coerce: field.params.coerce.unwrap_or(false), ignore_z: field.params.ignore_z_value.unwrap_or(true) }
}

/// The shapes of one document value of a geo shape field (a shape, `null`, or an
/// array of them), as its mapping reads them; a malformed one is skipped with
/// `ignore_malformed`, else refused with ES's error.
pub fn shapes_of(field: &FieldMapping, v: &Value, out: &mut Vec<Shape>) -> Result<()> {
    if let Value::Array(items) = v {
        return items.iter().try_for_each(|item| shapes_of(field, item, out));
    }
    match one_shape(field, v) {
        Ok(s) => out.extend(s),
        Err(_) if field.params.ignore_malformed == Some(true) => {}
        Err(e) => return Err(e),
    }
    Ok(())
}

fn one_shape(field: &FieldMapping, v: &Value) -> Result<Option<Shape>> {
    let failed = |cause: Exception| {
        Error::new(
            400,
            Exception::new("mapper_parsing_exception", format!("failed to parse [{}]", field.path)).caused_by(cause),
        )
    };
    let shape = shape::parse(v, options(field)).map_err(|e: GeoError| failed(Exception::new(e.kind, e.reason)))?;
    let points_only = field.params.geo_shape.as_ref().is_some_and(|g| g.points_only());
    match shape {
        Some(s) if points_only && !s.is_points() => Err(failed(Exception::new(
            "mapper_parsing_exception",
            format!("[{{{}}}] is configured for points only but a {} was found", field.path, s.jts_name()),
        ))),
        s => Ok(s),
    }
}

/// What the loader keeps of one document value: each shape's box corners as packed
/// points.
pub fn packed_corners(field: &FieldMapping, v: &Value, out: &mut Vec<i64>) -> Result<()> {
    let mut shapes = Vec::new();
    shapes_of(field, v, &mut shapes)?;
    out.extend(shapes.iter().flat_map(|s| s.corners()).map(geo::pack));
    Ok(())
}
