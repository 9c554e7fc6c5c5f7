//! The forms a geo point is written in, read as ES 6.8 reads them (`GeoUtils.
//! parseGeoPoint`, `GeoPoint.resetFromString`, `GeoPointFieldMapper.parse`), with ES's
//! errors: an object `{"lat", "lon"}` or `{"geohash"}`, an array `[lon, lat]` (a third
//! value is a z), a string `"lat,lon"`, a geohash, or WKT `POINT (lon lat)`.

use super::geohash::{self, Corner};
use super::GeoPoint;
use serde_json::Value;

/// An error reading a point: its Java exception type (as ES names it) and message.
/// `parse_exception`s are the malformed values `ignore_malformed` skips; the others
/// (ES's `IllegalArgumentException`, `NumberFormatException`) it does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeoError {
    /// ES's exception type (`parse_exception`, `illegal_argument_exception`, ...).
    pub kind: &'static str,
    /// The message.
    pub reason: String,
}

impl GeoError {
    /// An `ElasticsearchParseException`.
    pub fn parse(reason: impl Into<String>) -> GeoError {
        GeoError { kind: "parse_exception", reason: reason.into() }
    }

    /// An `IllegalArgumentException`.
    pub fn illegal_argument(reason: impl Into<String>) -> GeoError {
        GeoError { kind: "illegal_argument_exception", reason: reason.into() }
    }

    /// Whether `ignore_malformed` skips the value.
    pub fn is_malformed(&self) -> bool {
        self.kind == "parse_exception"
    }
}

/// Java's `Double.parseDouble`: surrounding whitespace, a sign, `NaN`, `Infinity`, an
/// exponent and a trailing `d` or `f` are taken; its error is `NumberFormatException`'s.
pub fn java_parse_double(text: &str) -> Result<f64, GeoError> {
    let fail = || GeoError {
        kind: "number_format_exception",
        reason: if text.trim().is_empty() { "empty String".into() } else { format!("For input string: \"{text}\"") },
    };
    let t = text.trim_matches(|c: char| c <= ' ');
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    let negative = t.starts_with('-');
    match unsigned {
        "NaN" => return Ok(f64::NAN),
        "Infinity" => return Ok(if negative { f64::NEG_INFINITY } else { f64::INFINITY }),
        _ => {}
    }
    let body = t.strip_suffix(['d', 'D', 'f', 'F']).unwrap_or(t);
    let digits = body.strip_prefix(['+', '-']).unwrap_or(body);
    // Rust also reads `inf` and `nan`: Java reads digits, a point and an exponent only.
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-')) {
        return Err(fail());
    }
    body.parse::<f64>().map_err(|_| fail())
}

/// Java's `Double.toString` (ES's messages print coordinates with it).
fn java(v: f64) -> String {
    crate::json_value::java_double(v)
}

/// Reads points with one setting: whether a third coordinate (z) is ignored.
#[derive(Debug, Clone, Copy)]
pub struct PointParser {
    /// `ignore_z_value`: a z is dropped (else refused).
    pub ignore_z: bool,
}

impl PointParser {
    /// The reader queries use (a z is refused).
    pub fn query() -> PointParser {
        PointParser { ignore_z: false }
    }

    /// `GeoPoint.assertZValue`.
    fn check_z(&self, z: f64) -> Result<(), GeoError> {
        if self.ignore_z {
            return Ok(());
        }
        Err(GeoError::parse(format!(
            "Exception parsing coordinates: found Z value [{}] but [ignore_z_value] parameter is [false]",
            java(z)
        )))
    }

    /// `GeoUtils.parseGeoPoint`: one point in any form.
    pub fn point(&self, v: &Value) -> Result<GeoPoint, GeoError> {
        self.point_at(v, Corner::BottomLeft)
    }

    /// [`PointParser::point`] where a geohash stands for `corner` of its cell (a
    /// bounding box's corners).
    pub fn point_at(&self, v: &Value, corner: Corner) -> Result<GeoPoint, GeoError> {
        match v {
            Value::Object(members) => self.object(members, corner),
            Value::Array(items) => {
                let (mut lon, mut lat) = (f64::NAN, f64::NAN);
                for (i, item) in items.iter().enumerate() {
                    let Value::Number(n) = item else { return Err(GeoError::parse("numeric value expected")) };
                    let x = n.as_f64().unwrap_or(f64::NAN);
                    match i {
                        0 => lon = x,
                        1 => lat = x,
                        2 => self.check_z(x)?,
                        _ => return Err(GeoError::parse("[geo_point] field type does not accept > 3 dimensions")),
                    }
                }
                Ok(GeoPoint::new(lat, lon))
            }
            Value::String(s) => self.string_at(s, corner),
            _ => Err(GeoError::parse("geo_point expected")),
        }
    }

    fn object(&self, members: &serde_json::Map<String, Value>, corner: Corner) -> Result<GeoPoint, GeoError> {
        let (mut lat, mut lon, mut hash) = (f64::NAN, f64::NAN, None);
        let mut bad_number = false;
        for (key, value) in members {
            let coordinate = |what: &str| -> Result<Option<f64>, GeoError> {
                match value {
                    Value::Number(n) => Ok(n.as_f64()),
                    Value::String(s) => Ok(java_parse_double(s).ok()),
                    _ => Err(GeoError::parse(format!("{what} must be a number"))),
                }
            };
            match key.as_str() {
                "lat" => match coordinate("latitude")? {
                    Some(x) => lat = x,
                    None => bad_number = true,
                },
                "lon" => match coordinate("longitude")? {
                    Some(x) => lon = x,
                    None => bad_number = true,
                },
                "geohash" => match value {
                    Value::String(s) => hash = Some(s.as_str()),
                    _ => return Err(GeoError::parse("geohash must be a string")),
                },
                _ => return Err(GeoError::parse("field must be either [lat], [lon] or [geohash]")),
            }
        }
        if let Some(hash) = hash {
            if !lat.is_nan() || !lon.is_nan() {
                return Err(GeoError::parse("field must be either lat/lon or geohash"));
            }
            return geohash::decode_corner(hash, corner);
        }
        if bad_number {
            return Err(GeoError::parse("[lat] and [lon] must be valid double values"));
        }
        if lat.is_nan() {
            return Err(GeoError::parse("field [lat] missing"));
        }
        if lon.is_nan() {
            return Err(GeoError::parse("field [lon] missing"));
        }
        Ok(GeoPoint::new(lat, lon))
    }

    /// `GeoPoint.resetFromString`: WKT when the text names a point, `lat,lon[,z]` when it
    /// has a comma, else a geohash.
    pub fn string(&self, s: &str) -> Result<GeoPoint, GeoError> {
        self.string_at(s, Corner::BottomLeft)
    }

    fn string_at(&self, s: &str, corner: Corner) -> Result<GeoPoint, GeoError> {
        if s.to_lowercase().contains("point") {
            return self.wkt(s);
        }
        if s.contains(',') {
            // Java's `split` drops trailing empty parts.
            let mut parts: Vec<&str> = s.split(',').collect();
            while parts.len() > 1 && parts.last() == Some(&"") {
                parts.pop();
            }
            if parts.len() > 3 {
                return Err(GeoError::parse(format!(
                    "failed to parse [{}], expected 2 or 3 coordinates but found: [{{}}]",
                    parts.len()
                )));
            }
            let lat = java_parse_double(parts[0]).map_err(|_| GeoError::parse("latitude must be a number"))?;
            let Some(lon) = parts.get(1) else {
                return Err(GeoError {
                    kind: "array_index_out_of_bounds_exception",
                    reason: "Index 1 out of bounds for length 1".into(),
                });
            };
            let lon = java_parse_double(lon).map_err(|_| GeoError::parse("longitude must be a number"))?;
            if let Some(z) = parts.get(2) {
                self.check_z(java_parse_double(z)?)?;
            }
            return Ok(GeoPoint::new(lat, lon));
        }
        geohash::decode_corner(s, corner)
    }

    /// A WKT text: only a `POINT` is a geo point.
    fn wkt(&self, s: &str) -> Result<GeoPoint, GeoError> {
        let invalid = || GeoError::parse("Invalid WKT format");
        let tokens = wkt_tokens(s).ok_or_else(invalid)?;
        let Some(first) = tokens.first() else { return Err(invalid()) };
        let kind = first.to_uppercase();
        const OTHERS: [&str; 7] =
            ["MULTIPOINT", "LINESTRING", "MULTILINESTRING", "POLYGON", "MULTIPOLYGON", "GEOMETRYCOLLECTION", "BBOX"];
        if OTHERS.contains(&kind.as_str()) {
            let name = if kind == "BBOX" { "ENVELOPE" } else { kind.as_str() };
            return Err(GeoError::parse(format!(
                "[geo_point] supports only POINT among WKT primitives, but found {name}"
            )));
        }
        if kind != "POINT" {
            return Err(invalid());
        }
        let rest = &tokens[1..];
        let (open, close) = (rest.first().map(String::as_str), rest.last().map(String::as_str));
        if open != Some("(") || close != Some(")") || rest.len() < 4 {
            return Err(invalid());
        }
        let coords = rest[1..rest.len() - 1]
            .iter()
            .map(|t| java_parse_double(t).map_err(|_| invalid()))
            .collect::<Result<Vec<f64>, GeoError>>()?;
        match coords[..] {
            [lon, lat] => Ok(GeoPoint::new(lat, lon)),
            [lon, lat, z] => {
                self.check_z(z)?;
                Ok(GeoPoint::new(lat, lon))
            }
            _ => Err(invalid()),
        }
    }

    /// `GeoPointFieldMapper.parse`: every point of one document value (a point, an array
    /// of points, `null`) for the field `name`; with `ignore_malformed`, malformed
    /// points are left out and the others folded into range rather than refused.
    pub fn document(
        &self,
        name: &str,
        v: &Value,
        ignore_malformed: bool,
        out: &mut Vec<GeoPoint>,
    ) -> Result<(), GeoError> {
        let one = |parsed: Result<GeoPoint, GeoError>, out: &mut Vec<GeoPoint>| -> Result<(), GeoError> {
            match parsed.and_then(|p| checked(name, p, ignore_malformed)) {
                Ok(p) => {
                    out.push(p);
                    Ok(())
                }
                Err(e) if ignore_malformed && e.is_malformed() => Ok(()),
                Err(e) => Err(e),
            }
        };
        match v {
            Value::Array(items) => match items.first() {
                Some(Value::Number(_)) => {
                    // `[lon, lat]` or `[lon, lat, z]`, read by the mapper itself.
                    let number = |i: usize| -> Result<f64, GeoError> {
                        match items.get(i) {
                            Some(Value::Number(n)) => Ok(n.as_f64().unwrap_or(f64::NAN)),
                            Some(Value::String(s)) => java_parse_double(s),
                            _ => Err(GeoError {
                                kind: "json_parse_exception",
                                reason: "Current token not numeric, can not use numeric value accessors".into(),
                            }),
                        }
                    };
                    let (lon, lat) = (number(0)?, number(1)?);
                    match items.len() {
                        2 => {}
                        3 if matches!(items[2], Value::Number(_)) => self.check_z(number(2)?)?,
                        _ => return Err(GeoError::parse("[geo_point] field type does not accept > 3 dimensions")),
                    }
                    let p = checked(name, GeoPoint::new(lat, lon), ignore_malformed)?;
                    out.push(p);
                    Ok(())
                }
                _ => {
                    for item in items {
                        let parsed = match item {
                            Value::String(s) => self.string(s),
                            other => self.point(other),
                        };
                        one(parsed, out)?;
                    }
                    Ok(())
                }
            },
            Value::Null => Ok(()),
            other => one(self.point(other), out),
        }
    }
}

/// The mapper's check of a parsed point: refused out of range, or folded into range
/// with `ignore_malformed`; then Lucene's own check of what it indexes.
fn checked(name: &str, p: GeoPoint, ignore_malformed: bool) -> Result<GeoPoint, GeoError> {
    let p = if ignore_malformed {
        if !p.lat.is_finite() || !p.lon.is_finite() {
            return Err(GeoError::parse("cannot normalize the point - not a number"));
        }
        super::normalize(p, true, true)
    } else {
        if p.lat > 90.0 || p.lat < -90.0 {
            return Err(GeoError::illegal_argument(format!("illegal latitude value [{}] for {name}", java(p.lat))));
        }
        if p.lon > 180.0 || p.lon < -180.0 {
            return Err(GeoError::illegal_argument(format!("illegal longitude value [{}] for {name}", java(p.lon))));
        }
        p
    };
    if !super::valid_lat(p.lat) {
        return Err(GeoError::illegal_argument(format!(
            "invalid latitude {}; must be between -90.0 and 90.0",
            java(p.lat)
        )));
    }
    if !super::valid_lon(p.lon) {
        return Err(GeoError::illegal_argument(format!(
            "invalid longitude {}; must be between -180.0 and 180.0",
            java(p.lon)
        )));
    }
    Ok(p)
}

/// WKT's tokens: words and numbers, and the punctuation `(`, `)`, `,`.
fn wkt_tokens(s: &str) -> Option<Vec<String>> {
    let mut tokens = Vec::new();
    let mut word = String::new();
    for c in s.chars() {
        if c.is_whitespace() || matches!(c, '(' | ')' | ',') {
            if !word.is_empty() {
                tokens.push(std::mem::take(&mut word));
            }
            if !c.is_whitespace() {
                tokens.push(c.to_string());
            }
        } else if c.is_alphanumeric() || matches!(c, '.' | '-' | '+') {
            word.push(c);
        } else {
            return None;
        }
    }
    if !word.is_empty() {
        tokens.push(word);
    }
    Some(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(v: Value, ignore_malformed: bool) -> Result<Vec<(f64, f64)>, String> {
        let mut out = Vec::new();
        PointParser { ignore_z: true }
            .document("location", &v, ignore_malformed, &mut out)
            .map(|_| out.iter().map(|p| (p.lat, p.lon)).collect())
            .map_err(|e| format!("[{}] {}", e.kind, e.reason))
    }

    #[test]
    fn every_form_es_reads() {
        assert_eq!(doc(json!({"lat": 41.12, "lon": -71.34}), false), Ok(vec![(41.12, -71.34)]));
        assert_eq!(doc(json!({"lat": "41.12", "lon": "-71.34"}), false), Ok(vec![(41.12, -71.34)]));
        assert_eq!(doc(json!("41.12,-71.34"), false), Ok(vec![(41.12, -71.34)]));
        assert_eq!(doc(json!([-71.34, 41.12]), false), Ok(vec![(41.12, -71.34)]));
        assert_eq!(doc(json!([-71.34, 41.12, 10]), false), Ok(vec![(41.12, -71.34)]));
        assert_eq!(doc(json!("POINT (-71.34 41.12)"), false), Ok(vec![(41.12, -71.34)]));
        assert_eq!(doc(json!([[-71.34, 41.12], "1,2"]), false), Ok(vec![(41.12, -71.34), (1.0, 2.0)]));
        assert_eq!(doc(json!(["1,2", {"lat": 3, "lon": 4}]), false), Ok(vec![(1.0, 2.0), (3.0, 4.0)]));
        assert_eq!(doc(Value::Null, false), Ok(vec![]));
        let hash = doc(json!("drm3btev3e86"), false).unwrap();
        assert!((hash[0].0 - 41.12).abs() < 1e-6 && (hash[0].1 + 71.34).abs() < 1e-6, "{hash:?}");
    }

    #[test]
    fn errors_are_es() {
        let e = |v: Value| doc(v, false).unwrap_err();
        assert_eq!(
            e(json!({"lat": 91, "lon": 0})),
            "[illegal_argument_exception] illegal latitude value [91.0] for location"
        );
        assert_eq!(e(json!("0,181")), "[illegal_argument_exception] illegal longitude value [181.0] for location");
        assert_eq!(e(json!({"lat": 1})), "[parse_exception] field [lon] missing");
        assert_eq!(e(json!({"lon": 1})), "[parse_exception] field [lat] missing");
        assert_eq!(
            e(json!({"lat": 1, "lon": 2, "x": 3})),
            "[parse_exception] field must be either [lat], [lon] or [geohash]"
        );
        assert_eq!(e(json!({"lat": "a", "lon": 2})), "[parse_exception] [lat] and [lon] must be valid double values");
        assert_eq!(e(json!({"lat": true, "lon": 2})), "[parse_exception] latitude must be a number");
        assert_eq!(e(json!("a,1")), "[parse_exception] latitude must be a number");
        assert_eq!(e(json!("1,b")), "[parse_exception] longitude must be a number");
        assert_eq!(e(json!(12)), "[parse_exception] geo_point expected");
        assert_eq!(
            e(json!("LINESTRING (1 2, 3 4) point")),
            "[parse_exception] [geo_point] supports only POINT among WKT primitives, but found LINESTRING"
        );
        assert_eq!(e(json!("POINT (1)")), "[parse_exception] Invalid WKT format");
        assert_eq!(e(json!([1, 2, 3, 4])), "[parse_exception] [geo_point] field type does not accept > 3 dimensions");
        let strict_z = PointParser::query().point(&json!([1, 2, 3])).unwrap_err();
        assert_eq!(
            strict_z.reason,
            "Exception parsing coordinates: found Z value [3.0] but [ignore_z_value] parameter is [false]"
        );
        // ignore_malformed: malformed points are skipped, points out of range folded in.
        assert_eq!(doc(json!([{"lat": 1}, "2,3"]), true), Ok(vec![(2.0, 3.0)]));
        assert_eq!(doc(json!({"lat": 91, "lon": 0}), true), Ok(vec![(89.0, 180.0)]));
        // A point that cannot be folded is malformed; without ignore_malformed, Lucene
        // refuses it.
        assert_eq!(doc(json!("NaN,1"), true), Ok(vec![]));
        assert_eq!(
            doc(json!("NaN,1"), false).unwrap_err(),
            "[illegal_argument_exception] invalid latitude NaN; must be between -90.0 and 90.0"
        );
    }

    #[test]
    fn java_doubles() {
        assert_eq!(java_parse_double(" 1.5 "), Ok(1.5));
        assert_eq!(java_parse_double("2d"), Ok(2.0));
        assert_eq!(java_parse_double("-Infinity"), Ok(f64::NEG_INFINITY));
        assert!(java_parse_double("inf").is_err());
        assert_eq!(java_parse_double("x").unwrap_err().reason, "For input string: \"x\"");
    }
}
