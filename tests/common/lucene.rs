//! Lucene's formulas transcribed independently of the engine's code, for the scoring
//! tests to compute expected values with.

/// Lucene 7 `SmallFloat.intToByte4` then `byte4ToInt`: the length the norm preserves.
pub fn lossy_length(len: u32) -> u32 {
    fn long_to_int4(i: u64) -> u32 {
        let bits = 64 - i.leading_zeros();
        if bits < 4 {
            i as u32
        } else {
            let shift = bits - 4;
            (((i >> shift) as u32) & 7) | ((shift + 1) << 3)
        }
    }
    fn int4_to_long(i: u32) -> u64 {
        let bits = (i & 7) as u64;
        let shift = (i >> 3) as i32 - 1;
        if shift == -1 {
            bits
        } else {
            (bits | 8) << shift
        }
    }
    let byte = if len < 24 { len } else { 24 + long_to_int4((len - 24) as u64) };
    if byte < 24 {
        byte
    } else {
        24 + int4_to_long(byte - 24) as u32
    }
}
