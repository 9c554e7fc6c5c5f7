//! Lucene 7 length norms: `SmallFloat.intToByte4`, its decoding, and the BM25 length
//! factor per norm byte (which the index records per block of postings, and scoring uses).

/// BM25's `k1`.
pub const K1: f32 = 1.2;
/// BM25's `b`.
pub const B: f32 = 0.75;

/// Average field length: `sumTotalTermFreq / docCount` in f64, cast to f32.
pub fn avg_field_length(sum_total_term_freq: u64, doc_count: u64) -> f32 {
    if doc_count == 0 {
        return 1.0;
    }
    (sum_total_term_freq as f64 / doc_count as f64) as f32
}

/// The per-norm-byte denominator cache of `BM25Similarity.computeWeight`:
/// `k1 * (1 - b + b * length / avgdl)`.
pub fn norm_cache(avgdl: f32) -> [f32; 256] {
    let mut cache = [0f32; 256];
    for (i, c) in cache.iter_mut().enumerate() {
        *c = K1 * ((1.0 - B) + B * byte4_to_int(i as u8) as f32 / avgdl);
    }
    cache
}

/// Encodes a field length into one byte, exactly as Lucene 7's `SmallFloat.intToByte4`.
pub fn int_to_byte4(i: u32) -> u8 {
    const NUM_FREE_VALUES: u32 = 24;
    if i < NUM_FREE_VALUES {
        i as u8
    } else {
        (NUM_FREE_VALUES + long_to_int4((i - NUM_FREE_VALUES) as u64)) as u8
    }
}

/// Decodes a norm byte back into the (lossy) field length.
pub fn byte4_to_int(b: u8) -> u32 {
    let u = b as u32;
    if u < 24 {
        u
    } else {
        24 + int4_to_long(u - 24) as u32
    }
}

fn long_to_int4(i: u64) -> u32 {
    let num_bits = 64 - i.leading_zeros();
    if num_bits < 4 {
        i as u32
    } else {
        let shift = num_bits - 4;
        let mut encoded = ((i >> shift) as u32) & 0x07;
        encoded |= (shift + 1) << 3;
        encoded
    }
}

fn int4_to_long(i: u32) -> u64 {
    let bits = (i & 0x07) as u64;
    let shift = (i >> 3) as i32 - 1;
    if shift == -1 {
        bits
    } else {
        (bits | 0x08) << shift
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_up_to_40_are_exact() {
        for i in 0..=40 {
            assert_eq!(byte4_to_int(int_to_byte4(i)), i);
        }
    }

    #[test]
    fn larger_lengths_are_lossy_as_lucene() {
        assert_eq!(byte4_to_int(int_to_byte4(41)), 40);
        assert_eq!(byte4_to_int(int_to_byte4(42)), 42);
        assert_eq!(byte4_to_int(int_to_byte4(50)), 50);
        assert_eq!(byte4_to_int(int_to_byte4(100)), 96);
        assert_eq!(byte4_to_int(int_to_byte4(1000)), 984);
        assert_eq!(int_to_byte4(i32::MAX as u32), 255);
    }
}
