//! Decoding of the postings' bit-packed blocks (`bitpacking`'s 4x layout: 128 values as 4
//! interleaved lanes of 32, each lane packed low bits first into `width` 32-bit words,
//! word `k` of lane `l` at word index `4k + l`, little-endian).
//!
//! Native builds decode with the `bitpacking` crate, whose SIMD kernels are the fastest
//! decoding there is. The browser build decodes with one plain loop instead: the crate's
//! portable kernels are unrolled for every width, and those two functions alone were a
//! tenth of the gzipped module (BENCHMARKS.md, "The browser module"). Both decode the same
//! bytes to the same values; a test holds them to it.

/// Values per block.
pub const BLOCK: usize = 128;

/// Bytes of a block packed `width` bits per value.
pub fn block_bytes(width: u8) -> usize {
    BLOCK * width as usize / 8
}

/// Decodes one block of values packed `width` bits each.
#[cfg(not(target_arch = "wasm32"))]
pub fn unpack(packed: &[u8], out: &mut [u32; BLOCK], width: u8) {
    use bitpacking::{BitPacker, BitPacker4x};
    BitPacker4x::new().decompress(packed, out, width);
}

/// Decodes one block of ascending values stored as deltas (each from the value before it,
/// the first from `previous`).
#[cfg(not(target_arch = "wasm32"))]
pub fn unpack_sorted(previous: u32, packed: &[u8], out: &mut [u32; BLOCK], width: u8) {
    use bitpacking::{BitPacker, BitPacker4x};
    BitPacker4x::new().decompress_sorted(previous, packed, out, width);
}

/// Decodes one block of values packed `width` bits each.
#[cfg(target_arch = "wasm32")]
pub fn unpack(packed: &[u8], out: &mut [u32; BLOCK], width: u8) {
    unpack_plain(packed, out, width);
}

/// Decodes one block of ascending values stored as deltas (each from the value before it,
/// the first from `previous`).
#[cfg(target_arch = "wasm32")]
pub fn unpack_sorted(previous: u32, packed: &[u8], out: &mut [u32; BLOCK], width: u8) {
    unpack_plain(packed, out, width);
    add_prefix_sums(previous, out);
}

/// The one-loop decoder of the browser build. `packed` holds at least
/// [`block_bytes`]`(width)` bytes (callers check lengths when they read a posting).
#[cfg(any(target_arch = "wasm32", test))]
fn unpack_plain(packed: &[u8], out: &mut [u32; BLOCK], width: u8) {
    let width = u32::from(width.min(32));
    if width == 0 {
        out.fill(0);
        return;
    }
    let mask = if width == 32 { u32::MAX } else { (1u32 << width) - 1 };
    let word = |k: usize, lane: usize| {
        let at = (4 * k + lane) * 4;
        u32::from_le_bytes([packed[at], packed[at + 1], packed[at + 2], packed[at + 3]])
    };
    for lane in 0..4 {
        let (mut k, mut bit) = (0usize, 0u32);
        for row in 0..BLOCK / 4 {
            let mut value = word(k, lane) >> bit;
            if bit + width > 32 {
                // The value continues in the low bits of the lane's next word.
                value |= word(k + 1, lane) << (32 - bit);
            }
            out[4 * row + lane] = value & mask;
            bit += width;
            if bit >= 32 {
                bit -= 32;
                k += 1;
            }
        }
    }
}

/// Turns deltas into the values they step through, starting after `previous` (wrapping,
/// as the encoder's subtraction wrapped).
#[cfg(any(target_arch = "wasm32", test))]
fn add_prefix_sums(previous: u32, values: &mut [u32; BLOCK]) {
    let mut running = previous;
    for v in values.iter_mut() {
        running = running.wrapping_add(*v);
        *v = running;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitpacking::{BitPacker, BitPacker4x};

    /// Values that fill every width exactly: each value uses up to `width` bits.
    fn values(width: u8, seed: u64) -> [u32; BLOCK] {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut out = [0u32; BLOCK];
        for v in out.iter_mut() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mask = if width == 32 { u32::MAX } else { (1u32 << width) - 1 };
            *v = (state as u32) & mask;
        }
        // The extremes of the width, so every straddling word boundary is exercised.
        out[0] = if width == 32 { u32::MAX } else { (1u32 << width) - 1 };
        out[BLOCK - 1] = out[0];
        out
    }

    #[test]
    fn the_plain_loop_decodes_what_the_crate_packs_at_every_width() {
        let packer = BitPacker4x::new();
        for width in 0..=32u8 {
            for seed in 1..4 {
                let input = values(width, seed);
                let mut packed = vec![0u8; block_bytes(width)];
                assert_eq!(packer.compress(&input, &mut packed, width), block_bytes(width));
                let mut ours = [0u32; BLOCK];
                unpack_plain(&packed, &mut ours, width);
                assert_eq!(ours, input, "width {width}");
                let mut theirs = [0u32; BLOCK];
                unpack(&packed, &mut theirs, width);
                assert_eq!(theirs, input, "width {width}");
            }
        }
    }

    #[test]
    fn sorted_blocks_decode_alike_from_any_previous_value() {
        let packer = BitPacker4x::new();
        for (seed, previous) in [(1u64, 0u32), (2, 17), (3, 1_000_000), (4, u32::MAX - 5_000)] {
            let mut ascending = [0u32; BLOCK];
            let mut at = previous;
            for (i, v) in ascending.iter_mut().enumerate() {
                at = at.wrapping_add(1 + (seed as u32 * 31 + i as u32 * 7) % 40);
                *v = at;
            }
            let width = packer.num_bits_sorted(previous, &ascending);
            let mut packed = vec![0u8; block_bytes(width)];
            packer.compress_sorted(previous, &ascending, &mut packed, width);
            let mut ours = [0u32; BLOCK];
            unpack_plain(&packed, &mut ours, width);
            add_prefix_sums(previous, &mut ours);
            assert_eq!(ours, ascending, "previous {previous}");
            let mut theirs = [0u32; BLOCK];
            unpack_sorted(previous, &packed, &mut theirs, width);
            assert_eq!(theirs, ascending);
        }
    }
}
