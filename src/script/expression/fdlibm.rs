//! fdlibm's `sinh`, `cosh`, `tanh` and `atan2`, the algorithms of Java's `StrictMath`
//! (which `Math` calls for them): musl's versions, in the `libm` crate, round some
//! arguments differently. Their building blocks (`exp`, `expm1`, `atan`) are the
//! `libm` crate's FreeBSD-derived ones, which agree with fdlibm's.

/// The high 32 bits of `x` as fdlibm's `__HI`.
fn high(x: f64) -> i32 {
    (x.to_bits() >> 32) as i32
}

/// The low 32 bits (`__LO`).
fn low(x: f64) -> u32 {
    x.to_bits() as u32
}

/// Whether `|x|` is within the overflow threshold of `sinh`/`cosh` (`0x408633CE_8fb9f87d`).
fn below_overflow_threshold(ix: i32, x: f64) -> bool {
    ix < 0x4086_33CE || (ix == 0x4086_33CE && low(x) <= 0x8fb9_f87d)
}

/// `StrictMath.sinh`.
pub fn sinh(x: f64) -> f64 {
    let jx = high(x);
    let ix = jx & 0x7fff_ffff;
    if ix >= 0x7ff0_0000 {
        return x + x;
    }
    let h = if jx < 0 { -0.5 } else { 0.5 };
    if ix < 0x4036_0000 {
        if ix < 0x3e30_0000 {
            return x;
        }
        let t = libm::expm1(x.abs());
        if ix < 0x3ff0_0000 {
            return h * (2.0 * t - t * t / (t + 1.0));
        }
        return h * (t + t / (t + 1.0));
    }
    if ix < 0x4086_2E42 {
        return h * libm::exp(x.abs());
    }
    if below_overflow_threshold(ix, x) {
        let w = libm::exp(0.5 * x.abs());
        let t = h * w;
        return t * w;
    }
    x * 1.0e307
}

/// `StrictMath.cosh`.
pub fn cosh(x: f64) -> f64 {
    let ix = high(x) & 0x7fff_ffff;
    if ix >= 0x7ff0_0000 {
        return x * x;
    }
    if ix < 0x3fd6_2e43 {
        let t = libm::expm1(x.abs());
        let w = 1.0 + t;
        if ix < 0x3c80_0000 {
            return w;
        }
        return 1.0 + (t * t) / (w + w);
    }
    if ix < 0x4036_0000 {
        let t = libm::exp(x.abs());
        return 0.5 * t + 0.5 / t;
    }
    if ix < 0x4086_2E42 {
        return 0.5 * libm::exp(x.abs());
    }
    if below_overflow_threshold(ix, x) {
        let w = libm::exp(0.5 * x.abs());
        let t = 0.5 * w;
        return t * w;
    }
    f64::INFINITY
}

/// `StrictMath.tanh`.
pub fn tanh(x: f64) -> f64 {
    let jx = high(x);
    let ix = jx & 0x7fff_ffff;
    if ix >= 0x7ff0_0000 {
        return if jx >= 0 { 1.0 / x + 1.0 } else { 1.0 / x - 1.0 };
    }
    let z = if ix < 0x4036_0000 {
        if ix < 0x3c80_0000 {
            return x * (1.0 + x);
        }
        if ix >= 0x3ff0_0000 {
            let t = libm::expm1(2.0 * x.abs());
            1.0 - 2.0 / (t + 2.0)
        } else {
            let t = libm::expm1(-2.0 * x.abs());
            -t / (t + 2.0)
        }
    } else {
        1.0
    };
    if jx >= 0 {
        z
    } else {
        -z
    }
}

// fdlibm's constants, bit for bit (0x3FE921FB_54442D18, 0x3FF921FB_54442D18,
// 0x400921FB_54442D18 are Rust's; `pi_lo` is 0x3CA1A626_33145C07).
const PI_O_4: f64 = std::f64::consts::FRAC_PI_4;
const PI_O_2: f64 = std::f64::consts::FRAC_PI_2;
const PI: f64 = std::f64::consts::PI;
const PI_LO: f64 = f64::from_bits(0x3CA1_A626_3314_5C07);

/// `StrictMath.atan2(y, x)`.
pub fn atan2(y: f64, x: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x.to_bits() == 1f64.to_bits() {
        return libm::atan(y);
    }
    let (hx, hy) = (high(x), high(y));
    let (ix, iy) = (hx & 0x7fff_ffff, hy & 0x7fff_ffff);
    let m = ((hy >> 31) & 1) | ((hx >> 30) & 2);
    if y == 0.0 {
        return match m {
            0 | 1 => y,
            2 => PI,
            _ => -PI,
        };
    }
    if x == 0.0 {
        return if hy < 0 { -PI_O_2 } else { PI_O_2 };
    }
    if x.is_infinite() {
        return match (y.is_infinite(), m) {
            (true, 0) => PI_O_4,
            (true, 1) => -PI_O_4,
            (true, 2) => 3.0 * PI_O_4,
            (true, _) => -3.0 * PI_O_4,
            (false, 0) => 0.0,
            (false, 1) => -0.0,
            (false, 2) => PI,
            (false, _) => -PI,
        };
    }
    if y.is_infinite() {
        return if hy < 0 { -PI_O_2 } else { PI_O_2 };
    }
    let k = (iy - ix) >> 20;
    let z = if k > 60 {
        PI_O_2 + 0.5 * PI_LO
    } else if hx < 0 && k < -60 {
        0.0
    } else {
        libm::atan((y / x).abs())
    };
    match m {
        0 => z,
        1 => -z,
        2 => PI - (z - PI_LO),
        _ => (z - PI_LO) - PI,
    }
}
