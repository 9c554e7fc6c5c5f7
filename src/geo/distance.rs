//! Distances as ES 6.8 reads and computes them: `DistanceUnit` (names, the meters of
//! each, a distance given as text with its unit) and `GeoDistance` (`arc`, Lucene's
//! sloppy haversine, and `plane`).

use super::parse::{java_parse_double, GeoError};
use super::sloppy;
use super::GeoPoint;

/// A unit of length, in ES's order (`DistanceUnit.values()`: a distance's suffix is
/// matched against the units in this order, so `km` is found before `m`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DistanceUnit {
    /// Inches.
    Inch,
    /// Yards.
    Yard,
    /// Feet.
    Feet,
    /// Kilometers.
    Kilometers,
    /// Nautical miles.
    NauticalMiles,
    /// Millimeters.
    Millimeters,
    /// Centimeters.
    Centimeters,
    /// Miles.
    Miles,
    /// Meters, ES's default.
    Meters,
}

const UNITS: [DistanceUnit; 9] = [
    DistanceUnit::Inch,
    DistanceUnit::Yard,
    DistanceUnit::Feet,
    DistanceUnit::Kilometers,
    DistanceUnit::NauticalMiles,
    DistanceUnit::Millimeters,
    DistanceUnit::Centimeters,
    DistanceUnit::Miles,
    DistanceUnit::Meters,
];

impl DistanceUnit {
    /// The names ES accepts for the unit, the first being how it prints it.
    pub fn names(self) -> &'static [&'static str] {
        match self {
            DistanceUnit::Inch => &["in", "inch"],
            DistanceUnit::Yard => &["yd", "yards"],
            DistanceUnit::Feet => &["ft", "feet"],
            DistanceUnit::Kilometers => &["km", "kilometers"],
            DistanceUnit::NauticalMiles => &["NM", "nmi", "nauticalmiles"],
            DistanceUnit::Millimeters => &["mm", "millimeters"],
            DistanceUnit::Centimeters => &["cm", "centimeters"],
            DistanceUnit::Miles => &["mi", "miles"],
            DistanceUnit::Meters => &["m", "meters"],
        }
    }

    /// Meters in one unit.
    pub fn meters(self) -> f64 {
        match self {
            DistanceUnit::Inch => 0.0254,
            DistanceUnit::Yard => 0.9144,
            DistanceUnit::Feet => 0.3048,
            DistanceUnit::Kilometers => 1000.0,
            DistanceUnit::NauticalMiles => 1852.0,
            DistanceUnit::Millimeters => 0.001,
            DistanceUnit::Centimeters => 0.01,
            DistanceUnit::Miles => 1609.344,
            DistanceUnit::Meters => 1.0,
        }
    }

    /// `DistanceUnit.fromString`: the unit one of whose names is `name`.
    pub fn from_name(name: &str) -> Result<DistanceUnit, GeoError> {
        UNITS
            .into_iter()
            .find(|u| u.names().contains(&name))
            .ok_or_else(|| GeoError::illegal_argument(format!("No distance unit match [{name}]")))
    }

    /// `DistanceUnit.convert`: `value` in `from` units as `to` units.
    pub fn convert(value: f64, from: DistanceUnit, to: DistanceUnit) -> f64 {
        if from == to {
            value
        } else {
            value * from.meters() / to.meters()
        }
    }

    /// `DistanceUnit.parse`: a distance written with an optional unit suffix (else in
    /// `default`), as `to` units.
    pub fn parse(text: &str, default: DistanceUnit, to: DistanceUnit) -> Result<f64, GeoError> {
        for unit in UNITS {
            for name in unit.names() {
                if let Some(number) = text.strip_suffix(name) {
                    return Ok(DistanceUnit::convert(java_parse_double(number)?, unit, to));
                }
            }
        }
        Ok(DistanceUnit::convert(java_parse_double(text)?, default, to))
    }
}

/// How a distance is computed (`distance_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeoDistance {
    /// Lucene's sloppy haversine.
    Arc,
    /// A flat approximation, fast and inexact over long distances.
    Plane,
}

impl GeoDistance {
    /// `GeoDistance.fromString`.
    pub fn from_name(name: &str) -> Result<GeoDistance, GeoError> {
        match name.to_lowercase().as_str() {
            "arc" => Ok(GeoDistance::Arc),
            "plane" => Ok(GeoDistance::Plane),
            _ => Err(GeoError::illegal_argument(format!("No geo distance for [{name}]"))),
        }
    }

    /// `GeoDistance.calculate`: the distance from `a` to `b` in `unit`.
    pub fn calculate(self, a: GeoPoint, b: GeoPoint, unit: DistanceUnit) -> f64 {
        let meters = match self {
            GeoDistance::Arc => sloppy::haversin_meters(a.lat, a.lon, b.lat, b.lon),
            GeoDistance::Plane => plane_meters(a, b),
        };
        DistanceUnit::convert(meters, DistanceUnit::Meters, unit)
    }
}

/// ES's `GeoUtils.planeDistance`.
fn plane_meters(a: GeoPoint, b: GeoPoint) -> f64 {
    let x = (b.lon - a.lon) * sloppy::TO_RADIANS * libm::cos((b.lat + a.lat) / 2.0 * sloppy::TO_RADIANS);
    let y = (b.lat - a.lat) * sloppy::TO_RADIANS;
    (x * x + y * y).sqrt() * sloppy::TO_METERS
}

/// Which points a `geo_distance` query of `radius` meters around `center` matches:
/// Lucene's `LatLonPoint.newDistanceQuery` (a quantized point whose sloppy haversine
/// sort key is at most the radius's), with the latitude band that holds them.
#[derive(Debug, Clone, Copy)]
pub struct DistanceMatcher {
    center: GeoPoint,
    max_key: f64,
    /// The encoded latitudes that may match, inclusive.
    pub lat_band: (i32, i32),
}

impl DistanceMatcher {
    /// The matcher of a circle (`radius` in meters, positive).
    pub fn new(center: GeoPoint, radius: f64) -> DistanceMatcher {
        let max_key = sloppy::distance_query_sort_key(radius);
        // A degree of latitude is at least 110.5 km anywhere on the sphere Lucene uses
        // (its radius makes it 111.19 km); the band is widened by a cell on each side so
        // that it never cuts a matching point.
        let degrees = radius / (sloppy::TO_METERS * sloppy::TO_RADIANS) * 1.01 + 1e-5;
        let lo = super::encode_lat((center.lat - degrees).max(-90.0)).saturating_sub(1);
        let hi = super::encode_lat((center.lat + degrees).min(90.0)).saturating_add(1);
        let lat_band = if center.lat - degrees <= -90.0 || center.lat + degrees >= 90.0 {
            // Near a pole every longitude is close: keep the band to the pole.
            (
                if center.lat - degrees <= -90.0 { i32::MIN } else { lo },
                if center.lat + degrees >= 90.0 { i32::MAX } else { hi },
            )
        } else {
            (lo, hi)
        };
        DistanceMatcher { center, max_key, lat_band }
    }

    /// Whether the stored point `(lat, lon)` (encoded) is within the circle.
    pub fn matches(&self, lat: i32, lon: i32) -> bool {
        let key =
            sloppy::haversin_sort_key(super::decode_lat(lat), super::decode_lon(lon), self.center.lat, self.center.lon);
        key <= self.max_key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_parse_with_their_units() {
        let m = |s: &str| DistanceUnit::parse(s, DistanceUnit::Meters, DistanceUnit::Meters).unwrap();
        assert_eq!(m("12km"), 12000.0);
        assert_eq!(m("12"), 12.0);
        assert_eq!(m("1mi"), 1609.344);
        assert_eq!(m("1.5m"), 1.5);
        assert_eq!(m("2nmi"), 3704.0);
        assert_eq!(m("10mm"), 0.01);
        assert!(DistanceUnit::parse("12 parsecs", DistanceUnit::Meters, DistanceUnit::Meters).is_err());
        assert_eq!(DistanceUnit::from_name("mi"), Ok(DistanceUnit::Miles));
        assert_eq!(DistanceUnit::from_name("x").unwrap_err().reason, "No distance unit match [x]");
    }
}
