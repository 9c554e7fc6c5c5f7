//! Geo points as ES 6.8 hands them to scripts: a `geo_point` field's doc value is an
//! `org.elasticsearch.common.geo.GeoPoint`, held here as the packed long its doc values
//! store (Lucene's encoding, so `lat`/`lon` read back as ES reads them back).

use super::error::Halt;
use super::format::double_to_string;
use super::value::Value;
use crate::geo::unpack;

/// The Java class name.
pub const CLASS: &str = "org.elasticsearch.common.geo.GeoPoint";

/// Whether a geo point has the getter `name` (`.lat`, `.lon`).
pub fn has_method(name: &str, argc: usize) -> bool {
    argc == 0 && matches!(name, "getLat" | "getLon")
}

/// `GeoPoint.toString`: `lat, lon`.
pub fn to_string(packed: i64) -> String {
    let p = unpack(packed);
    format!("{}, {}", double_to_string(p.lat), double_to_string(p.lon))
}

/// A geo point in a response: `{"lat": …, "lon": …}`.
pub fn to_json(packed: i64) -> serde_json::Value {
    let p = unpack(packed);
    serde_json::json!({"lat": p.lat, "lon": p.lon})
}

/// Calls method `name` on a geo point (`equals` and `toString` are answered before).
pub fn call(packed: i64, name: &str, argc: usize, off: usize) -> Result<Value, Halt> {
    let p = unpack(packed);
    match (name, argc) {
        ("getLat", 0) => Ok(Value::Double(p.lat)),
        ("getLon", 0) => Ok(Value::Double(p.lon)),
        _ => Err(Halt::at(
            off,
            "illegal_argument_exception",
            format!("Unable to find dynamic method [{name}] with [{argc}] arguments for class [{CLASS}]."),
        )),
    }
}

/// The latitudes or longitudes of a field's points (`doc['f'].lats`, `.lons`).
pub fn coordinates(points: &[Value], lats: bool) -> Vec<Value> {
    points
        .iter()
        .filter_map(|v| match v {
            Value::Geo(packed) => {
                let p = unpack(*packed);
                Some(Value::Double(if lats { p.lat } else { p.lon }))
            }
            _ => None,
        })
        .collect()
}
