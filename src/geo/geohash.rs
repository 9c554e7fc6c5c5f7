//! Geohashes as ES 6.8's `GeoHashUtils` computes them: a geohash string read as a point
//! (its cell's lower-left corner on a 31-bit grid), the cell of a stored point at a
//! precision (`geohash_grid`'s buckets), and precisions given as distances.

use super::parse::GeoError;
use super::GeoPoint;

const BASE_32: &[u8; 32] = b"0123456789bcdefghjkmnpqrstuvwxyz";
/// The longest geohash.
pub const PRECISION: u32 = 12;
/// The grid ES decodes geohashes on: 31 bits a coordinate.
const BITS: u32 = 31;
const MORTON_OFFSET: u32 = (BITS << 1) - PRECISION * 5;

/// Lucene's `BitUtil.flipFlop`: swaps each even bit with the odd bit above it.
fn flip_flop(b: u64) -> u64 {
    ((b & 0xAAAA_AAAA_AAAA_AAAA) >> 1) | ((b & 0x5555_5555_5555_5555) << 1)
}

/// Lucene's `BitUtil.deinterleave`: the even bits, packed.
fn deinterleave(mut b: u64) -> u64 {
    b &= 0x5555_5555_5555_5555;
    b = (b ^ (b >> 1)) & 0x3333_3333_3333_3333;
    b = (b ^ (b >> 2)) & 0x0F0F_0F0F_0F0F_0F0F;
    b = (b ^ (b >> 4)) & 0x00FF_00FF_00FF_00FF;
    b = (b ^ (b >> 8)) & 0x0000_FFFF_0000_FFFF;
    b = (b ^ (b >> 16)) & 0x0000_0000_FFFF_FFFF;
    b
}

/// Lucene's `BitUtil.interleave`: `even`'s bits at the even places, `odd`'s at the odd.
fn interleave(even: u32, odd: u32) -> u64 {
    let spread = |v: u32| {
        let mut v = u64::from(v);
        v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF;
        v = (v | (v << 8)) & 0x00FF_00FF_00FF_00FF;
        v = (v | (v << 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        v = (v | (v << 2)) & 0x3333_3333_3333_3333;
        v = (v | (v << 1)) & 0x5555_5555_5555_5555;
        v
    };
    spread(even) | (spread(odd) << 1)
}

/// A geohash string as ES 6.8 reads it into a point (`GeoPoint.resetFromGeoHash`):
/// the lower-left corner of its cell. ES 6.8 does not check the characters: one
/// outside the alphabet sets every bit above its place, and characters past the
/// twelfth wrap around, so the same arithmetic is kept here.
pub fn decode(hash: &str) -> Result<GeoPoint, GeoError> {
    let mut level: i64 = 11;
    let mut l: u64 = 0;
    for c in hash.chars() {
        let b: i64 = BASE_32.iter().position(|&x| char::from(x) == c).map_or(-1, |i| i as i64);
        // Java's `<<` on a long takes the shift modulo 64.
        let shift = ((level * 5 + i64::from(MORTON_OFFSET)) & 63) as u32;
        l |= (b as u64).wrapping_shl(shift);
        level -= 1;
    }
    let morton = flip_flop(l);
    let lon = deinterleave(morton) as f64 / ((1u64 << BITS) as f64 / 360.0) - 180.0;
    let lat = deinterleave(morton >> 1) as f64 / ((1u64 << BITS) as f64 / 180.0) - 90.0;
    Ok(GeoPoint::new(lat, lon))
}

/// A corner of a geohash's cell (ES's `GeoUtils.EffectivePoint`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corner {
    /// The lower-left corner, what a geohash stands for as a point.
    BottomLeft,
    /// A box's top-left corner given as a geohash.
    TopLeft,
    /// A box's top-right corner.
    TopRight,
    /// A box's bottom-right corner.
    BottomRight,
}

/// The point of a geohash at `corner` of its cell (`GeoPoint.parseGeoHash`): the other
/// corners come from ES's `GeoHashUtils.bbox`, whose arithmetic is kept as it is.
pub fn decode_corner(hash: &str, corner: Corner) -> Result<GeoPoint, GeoError> {
    let bottom_left = decode(hash)?;
    if corner == Corner::BottomLeft {
        return Ok(bottom_left);
    }
    // `longEncode(String)`: the hash's bits (a character outside the alphabet is -1).
    let mut level = hash.chars().count() as i64 - 1;
    let mut l: u64 = 0;
    for c in hash.chars() {
        let b: i64 = BASE_32.iter().position(|&x| char::from(x) == c).map_or(-1, |i| i as i64);
        l |= (b as u64).wrapping_shl(((level * 5) & 63) as u32);
        level -= 1;
    }
    let len = hash.chars().count() as u64;
    let lat = deinterleave(l >> 1) + 1;
    let lon = deinterleave(l) + 1;
    let top_right_long = (interleave(lon as u32, lat as u32) << 4) | len;
    // `GeoPoint.resetFromGeoHash(long)`.
    let shift = (((12 - (top_right_long & 15) as i64) * 5 + 2) & 63) as u32;
    let morton = flip_flop((top_right_long >> 4).wrapping_shl(shift));
    let top_right = GeoPoint::new(
        deinterleave(morton >> 1) as f64 / ((1u64 << BITS) as f64 / 180.0) - 90.0,
        deinterleave(morton) as f64 / ((1u64 << BITS) as f64 / 360.0) - 180.0,
    );
    Ok(match corner {
        Corner::TopLeft => GeoPoint::new(top_right.lat, bottom_left.lon),
        Corner::TopRight => top_right,
        _ => GeoPoint::new(bottom_left.lat, top_right.lon),
    })
}

/// `GeoHashUtils.longEncode(lon, lat, level)` of a stored point (its encoded
/// coordinates): the cell's bits and the level in the low four bits, as a long.
pub fn cell(lat: i32, lon: i32, level: u32) -> i64 {
    let morton = interleave(lon as u32 ^ 0x8000_0000, lat as u32 ^ 0x8000_0000);
    // ES keeps 31 bits a coordinate; the corner cell (all bits set) is ES's own case.
    let encoded = if morton == u64::MAX { morton & 0xC000_0000_0000_0000 } else { morton >> 2 };
    let msf = (PRECISION - level) * 5 + MORTON_OFFSET;
    (((flip_flop(encoded) >> msf) << 4) | u64::from(level)) as i64
}

/// `GeoHashUtils.stringEncode` of a cell long.
pub fn cell_string(cell: i64) -> String {
    let mut v = cell as u64;
    let level = (v & 15) as usize;
    v >>= 4;
    let mut chars = vec![b'0'; level];
    for i in (0..level).rev() {
        chars[i] = BASE_32[(v & 31) as usize];
        v >>= 5;
    }
    String::from_utf8(chars).unwrap_or_default()
}

/// `GeoUtils.geoHashLevelsForPrecision`: the geohash level whose cells are about
/// `meters` wide.
pub fn levels_for_meters(meters: f64) -> u32 {
    if meters == 0.0 {
        return PRECISION;
    }
    const SEMI_MAJOR: f64 = 6_378_137.0;
    const SEMI_MINOR: f64 = 6_356_752.314245;
    let equator = 2.0 * std::f64::consts::PI * SEMI_MAJOR;
    let polar = std::f64::consts::PI * SEMI_MINOR;
    let ratio = 1.0 + polar / equator;
    let width = ((meters * meters) / (ratio * ratio)).sqrt();
    let part = (equator / width).ceil();
    // Java's Math.round of the ceiling, as a long.
    let part = if part >= i64::MAX as f64 { i64::MAX } else { (part + 0.5).floor() as i64 };
    let level = 63 - part.leading_zeros() as i64;
    let adjusted = if part <= (1i64 << level.clamp(0, 62)) { (level + 1) / 2 } else { (level + 2) / 2 };
    adjusted.clamp(0, 64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_strings() {
        let (lat, lon) = (crate::geo::encode_lat(41.12), crate::geo::encode_lon(-71.34));
        assert_eq!(cell_string(cell(lat, lon, 12)), "drm3btev3e86");
        assert_eq!(cell_string(cell(lat, lon, 1)), "d");
        let p = decode("drm3btev3e86").unwrap();
        assert!((p.lat - 41.12).abs() < 1e-6 && (p.lon + 71.34).abs() < 1e-6);
        assert_eq!(decode("s").unwrap(), GeoPoint::new(0.0, 0.0));
        // ES's formula gives level 8 for 1 km (its cells are far smaller).
        assert_eq!(levels_for_meters(1000.0), 8);
        // "u" covers latitudes 45..90 and longitudes 0..45.
        assert_eq!(decode_corner("u", Corner::TopLeft).unwrap(), GeoPoint::new(90.0, 0.0));
        assert_eq!(decode_corner("u", Corner::BottomRight).unwrap(), GeoPoint::new(45.0, 45.0));
    }
}
