//! MurmurHash3, as Lucene's `StringHelper.murmurhash3_x86_32` computes it: ES hashes
//! terms with it to partition aggregations and to slice scrolls; and the x64 128-bit
//! variant of ES's `MurmurHash3.hash128`, which `significant_text`'s duplicate filter
//! hashes tokens with.

/// MurmurHash3, x86 32-bit variant (Lucene's `StringHelper.murmurhash3_x86_32`).
pub(crate) fn murmur3_x86_32(data: &[u8], seed: u32) -> u32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mut h = seed;
    let mut blocks = data.chunks_exact(4);
    for b in &mut blocks {
        let k = u32::from_le_bytes([b[0], b[1], b[2], b[3]]).wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h = (h ^ k).rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let mut k = 0u32;
        for (i, &b) in tail.iter().enumerate() {
            k |= u32::from(b) << (8 * i);
        }
        h ^= k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
    }
    h ^= data.len() as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// The first half (`h1`) of MurmurHash3 x64 128-bit (ES's `MurmurHash3.hash128(...).h1`).
pub(crate) fn murmur3_x64_128_h1(data: &[u8], seed: u64) -> u64 {
    const C1: u64 = 0x87c3_7b91_1142_53d5;
    const C2: u64 = 0x4cf5_ad43_2745_937f;
    let (mut h1, mut h2) = (seed, seed);
    let mut blocks = data.chunks_exact(16);
    for b in &mut blocks {
        let k1 = u64::from_le_bytes(b[..8].try_into().unwrap_or([0; 8]));
        let k2 = u64::from_le_bytes(b[8..].try_into().unwrap_or([0; 8]));
        h1 ^= k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2);
        h1 = h1.rotate_left(27).wrapping_add(h2).wrapping_mul(5).wrapping_add(0x52dc_e729);
        h2 ^= k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1);
        h2 = h2.rotate_left(31).wrapping_add(h1).wrapping_mul(5).wrapping_add(0x3849_5ab5);
    }
    let tail = blocks.remainder();
    let (mut k1, mut k2) = (0u64, 0u64);
    for (i, &b) in tail.iter().enumerate() {
        if i < 8 {
            k1 |= u64::from(b) << (8 * i);
        } else {
            k2 |= u64::from(b) << (8 * (i - 8));
        }
    }
    if tail.len() > 8 {
        h2 ^= k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1);
    }
    if !tail.is_empty() {
        h1 ^= k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2);
    }
    h1 ^= data.len() as u64;
    h2 ^= data.len() as u64;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1.wrapping_add(h2)
}

fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn murmur3_matches_the_reference_vectors() {
        // The reference implementation's published values (SMHasher's MurmurHash3_x86_32).
        assert_eq!(murmur3_x86_32(b"", 0), 0);
        assert_eq!(murmur3_x86_32(b"", 1), 0x514e_28b7);
        assert_eq!(murmur3_x86_32(b"", 0xffff_ffff), 0x81f1_6f39);
        assert_eq!(murmur3_x86_32(b"\0\0\0\0", 0), 0x2362_f9de);
        assert_eq!(murmur3_x86_32(b"aaaa", 0x9747_b28c), 0x5a97_808a);
        assert_eq!(murmur3_x86_32(b"abc", 0), 0xb3dd_93fa);
        assert_eq!(murmur3_x86_32(b"Hello, world!", 0x9747_b28c), 0x2488_4cba);
        assert_eq!(murmur3_x86_32(b"The quick brown fox jumps over the lazy dog", 0x9747_b28c), 0x2fa8_26cd);
    }

    #[test]
    fn murmur3_128_matches_guava() {
        // Guava's Hashing.murmur3_128(0)...asLong(), the same first half.
        for (text, h1) in [
            ("", 0),
            ("a", 0x8555_5565_f659_7889),
            ("hello", 0xcbd8_a7b3_41bd_9b02),
            ("The quick brown fox jumps over the lazy dog", 0xe34b_bc7b_bc07_1b6c),
            ("sixteen bytes!!!", 0xf3a1_e090_ba38_33e8),
            ("seventeen bytes!!", 0x4932_487f_bc4d_71b6),
            ("élan", 0x538b_46a6_cf53_c2de),
        ] {
            assert_eq!(murmur3_x64_128_h1(text.as_bytes(), 0), h1, "{text}");
        }
    }
}
