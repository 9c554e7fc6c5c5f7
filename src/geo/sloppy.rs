//! Lucene's `SloppyMath`: the table-driven cosine and arc sine its haversine uses. Lucene
//! decides `geo_distance` matches and ES its arc distances with these approximations, so
//! the same tables give the same bits: the sine and cosine tables are Lucene's own
//! (`sloppy_tables.rs`, generated from the JVM: `libm` rounds a few of those angles
//! differently from Java's `StrictMath`), the arc sine tables are computed with `libm`'s
//! fdlibm arc sine, which agrees with `StrictMath` on all of them (tested against Lucene).

use super::sloppy_tables::{COS, SIN};
use std::sync::OnceLock;

/// Earth's mean radius in meters (`SloppyMath.TO_METERS`, ES's `EARTH_MEAN_RADIUS`).
pub const TO_METERS: f64 = 6_371_008.771_4;
/// Degrees to radians (`SloppyMath.TO_RADIANS`).
pub const TO_RADIANS: f64 = std::f64::consts::PI / 180.0;

const ONE_DIV_F2: f64 = 1.0 / 2.0;
const ONE_DIV_F3: f64 = 1.0 / 6.0;
const ONE_DIV_F4: f64 = 1.0 / 24.0;

const SIN_COS_TABS_SIZE: usize = (1 << 11) + 1;
const ASIN_TABS_SIZE: usize = (1 << 13) + 1;

struct Tables {
    delta_hi: f64,
    delta_lo: f64,
    indexer: f64,
    max_for_int_modulo: f64,
    sin: Vec<f64>,
    cos: Vec<f64>,
    asin_max: f64,
    asin_delta: f64,
    asin_indexer: f64,
    asin: Vec<f64>,
    der1: Vec<f64>,
    der2: Vec<f64>,
    der3: Vec<f64>,
    der4: Vec<f64>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let pio2_hi = f64::from_bits(0x3FF9_21FB_5440_0000);
        let pio2_lo = f64::from_bits(0x3DD0_B461_1A62_6331);
        let (twopi_hi, twopi_lo) = (4.0 * pio2_hi, 4.0 * pio2_lo);
        let delta_hi = twopi_hi / (SIN_COS_TABS_SIZE - 1) as f64;
        let delta_lo = twopi_lo / (SIN_COS_TABS_SIZE - 1) as f64;
        let indexer = 1.0 / (delta_hi + delta_lo);
        let max_for_int_modulo = (f64::from(i32::MAX >> 9) / indexer) * 0.99;
        let sin = SIN.map(f64::from_bits).to_vec();
        let cos = COS.map(f64::from_bits).to_vec();
        // Java 9+'s `Math.toRadians` (ES 6.8 runs on a later JDK): degrees times PI / 180.
        let asin_max = libm::sin(73.0 * TO_RADIANS);
        let asin_delta = asin_max / (ASIN_TABS_SIZE - 1) as f64;
        let asin_indexer = 1.0 / asin_delta;
        let mut t = Tables {
            delta_hi,
            delta_lo,
            indexer,
            max_for_int_modulo,
            sin,
            cos,
            asin_max,
            asin_delta,
            asin_indexer,
            asin: vec![0.0; ASIN_TABS_SIZE],
            der1: vec![0.0; ASIN_TABS_SIZE],
            der2: vec![0.0; ASIN_TABS_SIZE],
            der3: vec![0.0; ASIN_TABS_SIZE],
            der4: vec![0.0; ASIN_TABS_SIZE],
        };
        for i in 0..ASIN_TABS_SIZE {
            let x = i as f64 * asin_delta;
            t.asin[i] = libm::asin(x);
            let inv = 1.0 / (1.0 - x * x);
            let inv0_5 = libm::sqrt(inv);
            let inv1_5 = inv0_5 * inv;
            let inv2_5 = inv1_5 * inv;
            let inv3_5 = inv2_5 * inv;
            t.der1[i] = inv0_5;
            t.der2[i] = (x * inv1_5) * ONE_DIV_F2;
            t.der3[i] = ((1.0 + 2.0 * x * x) * inv2_5) * ONE_DIV_F3;
            t.der4[i] = ((5.0 + 2.0 * x * (2.0 + x * (5.0 - 2.0 * x))) * inv3_5) * ONE_DIV_F4;
        }
        t
    })
}

/// `SloppyMath.cos`.
pub fn cos(a: f64) -> f64 {
    let t = tables();
    let a = a.abs();
    if a > t.max_for_int_modulo {
        return libm::cos(a);
    }
    let mut index = (a * t.indexer + 0.5) as i32;
    let delta = (a - f64::from(index) * t.delta_hi) - f64::from(index) * t.delta_lo;
    index &= (SIN_COS_TABS_SIZE - 2) as i32;
    let (c, s) = (t.cos[index as usize], t.sin[index as usize]);
    c + delta * (-s + delta * (-c * ONE_DIV_F2 + delta * (s * ONE_DIV_F3 + delta * c * ONE_DIV_F4)))
}

/// `SloppyMath.asin`.
pub fn asin(a: f64) -> f64 {
    let t = tables();
    let (a, negate) = if a < 0.0 { (-a, true) } else { (a, false) };
    let result = if a <= t.asin_max {
        let index = (a * t.asin_indexer + 0.5) as usize;
        let delta = a - index as f64 * t.asin_delta;
        t.asin[index]
            + delta * (t.der1[index] + delta * (t.der2[index] + delta * (t.der3[index] + delta * t.der4[index])))
    } else if a < 1.0 {
        // fdlibm's arc sine near 1, as Lucene has it.
        const PIO2_HI: u64 = 0x3FF9_21FB_5444_2D18;
        const PIO2_LO: u64 = 0x3C91_A626_3314_5C07;
        const PS: [u64; 6] = [
            0x3fc5_5555_5555_5555,
            0xbfd4_d612_03eb_6f7d,
            0x3fc9_c155_0e88_4455,
            0xbfa4_8228_b568_8f3b,
            0x3f49_efe0_7501_b288,
            0x3f02_3de1_0dfd_f709,
        ];
        const QS: [u64; 4] =
            [0xc003_3a27_1c8a_2d4b, 0x4000_2ae5_9c59_8ac8, 0xbfe6_066c_1b8d_0159, 0x3fb3_b8c5_b12e_9282];
        let ps = PS.map(f64::from_bits);
        let qs = QS.map(f64::from_bits);
        let t = (1.0 - a) * 0.5;
        let p = t * (ps[0] + t * (ps[1] + t * (ps[2] + t * (ps[3] + t * (ps[4] + t * ps[5])))));
        let q = 1.0 + t * (qs[0] + t * (qs[1] + t * (qs[2] + t * qs[3])));
        let s = t.sqrt();
        let z = s + s * (p / q);
        f64::from_bits(PIO2_HI) - ((z + z) - f64::from_bits(PIO2_LO))
    } else if a == 1.0 {
        std::f64::consts::PI / 2.0
    } else {
        f64::NAN
    };
    if negate {
        -result
    } else {
        result
    }
}

/// `SloppyMath.haversinSortKey`: what orders distances, cheaper than the distance.
pub fn haversin_sort_key(lat1: f64, lon1: f64, lat2: f64, lon2: f64) -> f64 {
    let x1 = lat1 * TO_RADIANS;
    let x2 = lat2 * TO_RADIANS;
    let h1 = 1.0 - cos(x1 - x2);
    let h2 = 1.0 - cos((lon1 - lon2) * TO_RADIANS);
    let h = h1 + cos(x1) * cos(x2) * h2;
    // Lucene clears the last bits so that later rounding makes no ties.
    f64::from_bits(h.to_bits() & 0xFFFF_FFFF_FFFF_FFF8)
}

/// `SloppyMath.haversinMeters(sortKey)`.
pub fn haversin_meters_of_key(key: f64) -> f64 {
    TO_METERS * 2.0 * asin(1f64.min((key * 0.5).sqrt()))
}

/// `SloppyMath.haversinMeters`: the distance in meters ES calls `arc`.
pub fn haversin_meters(lat1: f64, lon1: f64, lat2: f64, lon2: f64) -> f64 {
    haversin_meters_of_key(haversin_sort_key(lat1, lon1, lat2, lon2))
}

/// Lucene's `GeoUtils.distanceQuerySortKey`: the least sort key whose distance is at
/// least `radius` (a point matches a distance query when its key is at most this).
pub fn distance_query_sort_key(radius: f64) -> f64 {
    let max = haversin_meters_of_key(f64::MAX);
    if radius >= max {
        return max;
    }
    let (mut lo, mut hi) = (0i64, f64::MAX.to_bits() as i64);
    while lo <= hi {
        let mid = ((lo + hi) as u64 >> 1) as i64;
        let key = f64::from_bits(mid as u64);
        let mid_radius = haversin_meters_of_key(key);
        if mid_radius == radius {
            return key;
        } else if mid_radius > radius {
            hi = mid - 1;
        } else {
            lo = mid + 1;
        }
    }
    f64::from_bits(lo as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_to_exact_math() {
        for i in 0..1000 {
            let a = i as f64 * 0.01 - 5.0;
            assert!((cos(a) - a.cos()).abs() < 1e-14);
        }
        for i in 0..=1000 {
            let a = i as f64 / 1000.0;
            assert!((asin(a) - a.asin()).abs() < 1e-7, "{a}");
        }
        // One degree of a meridian.
        let d = haversin_meters(0.0, 0.0, 1.0, 0.0);
        assert!((d - 111_195.08).abs() < 0.01, "{d}");
        let key = distance_query_sort_key(1000.0);
        assert!(haversin_meters_of_key(key) >= 1000.0);
    }

    /// Java's `java.util.Random`, to replay the oracle's inputs.
    struct JavaRandom(u64);

    impl JavaRandom {
        fn new(seed: u64) -> JavaRandom {
            JavaRandom((seed ^ 0x5DEE_CE66D) & ((1 << 48) - 1))
        }
        fn next(&mut self, bits: u32) -> u64 {
            self.0 = (self.0.wrapping_mul(0x5DEE_CE66D).wrapping_add(0xB)) & ((1 << 48) - 1);
            self.0 >> (48 - bits)
        }
        fn next_double(&mut self) -> f64 {
            (((self.next(26) << 27) + self.next(27)) as f64) * (1.0 / (1u64 << 53) as f64)
        }
    }

    #[test]
    fn bit_for_bit_lucene() {
        // Lucene 8.7's SloppyMath.haversinMeters and GeoUtils.distanceQuerySortKey over
        // 200,000 random pairs, folded into one Java long hash (h = h * 31 + bits).
        let mut r = JavaRandom::new(42);
        let mut h: i64 = 0;
        for i in 0..200_000 {
            let (lat1, lon1) = (r.next_double() * 180.0 - 90.0, r.next_double() * 360.0 - 180.0);
            let span = if i % 3 == 0 { (100.0, 200.0) } else { (1.0, 1.0) };
            let lat2 = lat1 + (r.next_double() - 0.5) * span.0;
            let lon2 = lon1 + (r.next_double() - 0.5) * span.1;
            let m = haversin_meters(lat1, lon1, lat2, lon2);
            h = h.wrapping_mul(31).wrapping_add(m.to_bits() as i64);
            let k = distance_query_sort_key(lat2.abs() * 1000.0);
            h = h.wrapping_mul(31).wrapping_add(k.to_bits() as i64);
        }
        assert_eq!(h, 337_144_968_750_437_049);
        assert_eq!(haversin_meters(0.0, 0.0, 1.0, 0.0), 111_195.079_734_357_64);
    }
}
