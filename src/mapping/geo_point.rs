//! The `geo_point` field's own mapping parameters (`ignore_z_value`, a `null_value`
//! read as a point), how `_mapping` prints them, and the errors its values answer at
//! load. The points themselves are read by `geo::parse`.

use super::params::{boolean, unsupported};
use super::{mapper_parsing, FieldMapping, FieldValue, Leaf};
use crate::error::{Error, Exception, Result};
use crate::geo::{self, GeoError, PointParser};
use serde_json::{json, Map, Value};

/// Reads `ignore_z_value` and checks `null_value` as ES's `GeoPointFieldMapper.
/// TypeParser` does (a point; out of range refused, or folded in with
/// `ignore_malformed`); the parameters metagate does not run are refused by name.
pub(super) fn parse_params(f: &mut FieldMapping, def: &Value) -> Result<()> {
    if let Some(v) = def.get("ignore_z_value") {
        f.params.ignore_z_value = Some(boolean(&f.path, "ignore_z_value", v)?);
    }
    // ES stores a point as its "lat, lon" text and hands multi-fields its geohash, and
    // `copy_to` re-reads the value's last token: none of these is run here.
    if f.params.store {
        return Err(unsupported(&f.path, "[store: true]".into()));
    }
    if !f.params.copy_to.is_empty() {
        return Err(unsupported(&f.path, "[copy_to]".into()));
    }
    if def.get("fields").and_then(Value::as_object).is_some_and(|m| !m.is_empty()) {
        return Err(unsupported(&f.path, "[fields]".into()));
    }
    if let Some(raw) = f.params.null_value.take() {
        let parser = PointParser { ignore_z: f.params.ignore_z_value.unwrap_or(true) };
        let p = parser.point(&raw).map_err(|e| mapper_parsing(e.reason))?;
        let p = if f.params.ignore_malformed == Some(true) {
            geo::normalize(p, true, true)
        } else if p.lat > 90.0 || p.lat < -90.0 {
            return Err(mapper_parsing(format!("illegal latitude value [{}]", crate::json_value::java_double(p.lat))));
        } else if p.lon > 180.0 || p.lon < -180.0 {
            return Err(mapper_parsing(format!("illegal longitude value [{}]", crate::json_value::java_double(p.lon))));
        } else {
            p
        };
        // ES prints a point as an object of its latitude and longitude.
        f.params.null_value = Some(json!({"lat": p.lat, "lon": p.lon}));
    }
    Ok(())
}

/// `_mapping`'s parameters of a geo point in ES's order: `ignore_malformed`,
/// `ignore_z_value`, `null_value` (the first and last are printed with every type's).
pub(super) fn render(f: &FieldMapping, m: &mut Map<String, Value>) {
    if let Some(z) = f.params.ignore_z_value {
        let null_value = m.shift_remove("null_value");
        m.insert("ignore_z_value".into(), json!(z));
        if let Some(nv) = null_value {
            m.insert("null_value".into(), nv);
        }
    }
}

/// A scalar copied into a geo point field: read as a point's text.
pub(super) fn coerce<'v>(field: &FieldMapping, v: Leaf<'v>) -> Result<FieldValue<'v>> {
    let text = match v {
        Leaf::Str(s) => Value::String(s.to_string()),
        Leaf::Number(n) => Value::Number(n.clone()),
        Leaf::Bool(b) => Value::Bool(b),
    };
    let mut points = Vec::new();
    points_of(field, &text, &mut points)?;
    points
        .first()
        .map(|p| FieldValue::Long(geo::pack(*p)))
        .ok_or_else(|| document_error(GeoError::parse("geo_point expected")))
}

/// The points of one document value of a geo point field, as its mapping reads them.
pub fn points_of(field: &FieldMapping, v: &Value, out: &mut Vec<geo::GeoPoint>) -> Result<()> {
    let parser = PointParser { ignore_z: field.params.ignore_z_value.unwrap_or(true) };
    parser.document(&field.path, v, field.params.ignore_malformed == Some(true), out).map_err(document_error)
}

/// How ES's document parser reports a geo point's error: the mapper's exception is not
/// wrapped with the field's name, so it is `failed to parse` caused by it.
fn document_error(e: GeoError) -> Error {
    Error::new(
        400,
        Exception::new("mapper_parsing_exception", "failed to parse").caused_by(Exception::new(e.kind, e.reason)),
    )
}
