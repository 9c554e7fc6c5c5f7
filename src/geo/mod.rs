//! Geo points as ES 6.8 reads them and Lucene stores them: the input forms and their
//! errors (`parse`), Lucene's 32-bit quantization of latitude and longitude (below),
//! geohashes (`geohash`), distances and their units (`distance`, with Lucene's
//! `SloppyMath` in `sloppy`); geo shapes in GeoJSON (`shape`) and WKT (`wkt`). Pure
//! functions: the loader, the query parser and the search all use them.

pub mod distance;
pub mod geohash;
pub mod parse;
pub mod relate;
pub mod shape;
pub mod sloppy;
mod sloppy_tables;
pub mod wkt;

pub use distance::{DistanceUnit, GeoDistance};
pub use parse::{GeoError, PointParser};

/// A latitude and longitude in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GeoPoint {
    /// Latitude.
    pub lat: f64,
    /// Longitude.
    pub lon: f64,
}

impl GeoPoint {
    /// The point at `lat`, `lon`.
    pub fn new(lat: f64, lon: f64) -> GeoPoint {
        GeoPoint { lat, lon }
    }
}

/// `(1 << 32) / 180`: Lucene's latitude scale (`GeoEncodingUtils.LAT_SCALE`).
const LAT_SCALE: f64 = (1u64 << 32) as f64 / 180.0;
/// `(1 << 32) / 360`: Lucene's longitude scale.
const LON_SCALE: f64 = (1u64 << 32) as f64 / 360.0;
const LAT_DECODE: f64 = 1.0 / LAT_SCALE;
const LON_DECODE: f64 = 1.0 / LON_SCALE;

/// Lucene's `encodeLatitude`: the cell at or below `lat` (90 is stored as the cell just
/// below it). `lat` must be within [-90, 90].
pub fn encode_lat(lat: f64) -> i32 {
    let lat = if lat == 90.0 { next_down(lat) } else { lat };
    (lat / LAT_DECODE).floor() as i32
}

/// Lucene's `encodeLatitudeCeil`: the cell at or above `lat` (a box's lower bound).
pub fn encode_lat_ceil(lat: f64) -> i32 {
    let lat = if lat == 90.0 { next_down(lat) } else { lat };
    (lat / LAT_DECODE).ceil() as i32
}

/// Lucene's `encodeLongitude`: the cell at or below `lon` (180 as the cell below it).
pub fn encode_lon(lon: f64) -> i32 {
    let lon = if lon == 180.0 { next_down(lon) } else { lon };
    (lon / LON_DECODE).floor() as i32
}

/// Lucene's `encodeLongitudeCeil`.
pub fn encode_lon_ceil(lon: f64) -> i32 {
    let lon = if lon == 180.0 { next_down(lon) } else { lon };
    (lon / LON_DECODE).ceil() as i32
}

/// Lucene's `decodeLatitude`.
pub fn decode_lat(enc: i32) -> f64 {
    f64::from(enc) * LAT_DECODE
}

/// Lucene's `decodeLongitude`.
pub fn decode_lon(enc: i32) -> f64 {
    f64::from(enc) * LON_DECODE
}

/// The long `LatLonDocValuesField` stores: the encoded latitude in the high half, the
/// encoded longitude in the low half. Sorted as signed longs, these order points by
/// latitude first, which is what lets a query read only a band of latitudes.
pub fn pack(p: GeoPoint) -> i64 {
    pack_encoded(encode_lat(p.lat), encode_lon(p.lon))
}

/// [`pack`] of already encoded coordinates.
pub fn pack_encoded(lat: i32, lon: i32) -> i64 {
    (i64::from(lat) << 32) | i64::from(lon as u32)
}

/// The encoded latitude and longitude of a packed point.
pub fn unpack_encoded(v: i64) -> (i32, i32) {
    ((v >> 32) as i32, v as i32)
}

/// The point a packed long stands for (each coordinate its cell's lower corner).
pub fn unpack(v: i64) -> GeoPoint {
    let (lat, lon) = unpack_encoded(v);
    GeoPoint::new(decode_lat(lat), decode_lon(lon))
}

/// Java's `Math.nextDown` for finite positive values.
fn next_down(v: f64) -> f64 {
    f64::from_bits(v.to_bits() - 1)
}

/// ES's `GeoUtils.normalizePoint(point, normLat, normLon)`: latitudes past the poles fold
/// back (moving the longitude half a turn), longitudes wrap into [-180, 180].
pub fn normalize(p: GeoPoint, norm_lat: bool, norm_lon: bool) -> GeoPoint {
    let (mut lat, mut lon) = (p.lat, p.lon);
    let norm_lat = norm_lat && !(-90.0..=90.0).contains(&lat);
    let norm_lon = norm_lon && (!(-180.0..=180.0).contains(&lon) || norm_lat);
    if norm_lat {
        lat = centered_modulus(lat, 360.0);
        let mut shift = true;
        if lat < -90.0 {
            lat = -180.0 - lat;
        } else if lat > 90.0 {
            lat = 180.0 - lat;
        } else {
            shift = false;
        }
        if shift && norm_lon {
            lon += 180.0;
        }
    }
    if norm_lon {
        lon = centered_modulus(lon, 360.0);
    }
    GeoPoint::new(lat, lon)
}

/// ES's `GeoUtils.centeredModulus`: `dividend` into (-divisor/2, divisor/2].
fn centered_modulus(dividend: f64, divisor: f64) -> f64 {
    // Java's `%` on doubles is C's fmod, as Rust's.
    let mut r = dividend % divisor;
    if r <= 0.0 {
        r += divisor;
    }
    if r > divisor / 2.0 {
        r -= divisor;
    }
    r
}

/// Whether a latitude is within [-90, 90] (ES's `GeoUtils.isValidLatitude`).
pub fn valid_lat(lat: f64) -> bool {
    lat.is_finite() && (-90.0..=90.0).contains(&lat)
}

/// Whether a longitude is within [-180, 180].
pub fn valid_lon(lon: f64) -> bool {
    lon.is_finite() && (-180.0..=180.0).contains(&lon)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_is_lucenes() {
        // Values Lucene's GeoEncodingUtils gives.
        assert_eq!(encode_lat(0.0), 0);
        assert_eq!(encode_lat(90.0), i32::MAX);
        assert_eq!(encode_lat(-90.0), i32::MIN);
        assert_eq!(encode_lon(180.0), i32::MAX);
        assert_eq!(encode_lon(-180.0), i32::MIN);
        assert_eq!(encode_lat(41.12), 981_161_417);
        assert_eq!(encode_lat_ceil(41.12), 981_161_418);
        assert_eq!(decode_lat(encode_lat(41.12)), 41.1199999647215);
        let p = GeoPoint::new(41.12, -71.34);
        assert_eq!(unpack(pack(p)), GeoPoint::new(41.1199999647215, -71.34000004269183));
        // Packed points sort by latitude first.
        assert!(pack(GeoPoint::new(-1.0, 170.0)) < pack(GeoPoint::new(1.0, -170.0)));
    }

    #[test]
    fn normalization_is_es() {
        assert_eq!(normalize(GeoPoint::new(91.0, 0.0), true, true), GeoPoint::new(89.0, 180.0));
        assert_eq!(normalize(GeoPoint::new(0.0, 190.0), true, true), GeoPoint::new(0.0, -170.0));
        assert_eq!(normalize(GeoPoint::new(0.0, -180.0), true, true), GeoPoint::new(0.0, -180.0));
        assert_eq!(normalize(GeoPoint::new(0.0, 540.0), true, true), GeoPoint::new(0.0, 180.0));
    }
}
