//! Sliced scrolls as ES 6.8 slices a one-shard index: one slice is every document;
//! otherwise a document belongs to slice `id` of `max` when its `_id` term — as Lucene
//! stores it, ES's `Uid.encodeId` form — hashes (MurmurHash3 x86 32, seed 7919) to `id`
//! modulo `max` (ES's `TermsSliceQuery`). The same documents fall in the same slices as
//! in ES, whatever `max`.

use super::context::Executor;
use super::murmur3::murmur3_x86_32;
use crate::error::Result;
use crate::index::{DocSet, ID_FIELD};
use base64::Engine as _;

/// ES's fixed seed for hashing `_id` terms into slices.
const SLICE_SEED: u32 = 7919;

/// The documents of slice `id` of `max`.
pub fn slice_docs(ex: &Executor<'_>, id: u32, max: u32) -> Result<DocSet> {
    let n = ex.reader.max_doc();
    if max <= 1 {
        return Ok(DocSet::full(n));
    }
    let Some(dv) = ex.reader.keyword_doc_values(ex.snap, ID_FIELD)? else {
        return Ok(DocSet::new());
    };
    // Each `_id` term once, then its documents: as ES walks the terms.
    let wanted: Vec<bool> = (0..dv.term_count() as u32)
        .map(|ord| {
            i64::from(murmur3_x86_32(&encode_id(dv.term(ord)), SLICE_SEED) as i32).rem_euclid(i64::from(max))
                == i64::from(id)
        })
        .collect();
    Ok(DocSet::from_docs((0..n).filter(|d| dv.ords(*d).next().is_some_and(|o| wanted[o as usize]))))
}

/// ES 6.8's `Uid.encodeId`: digits two to a byte after `0xfe` (odd lengths end with a
/// `0xf` nibble); canonical URL-safe base64 without padding as its bytes (`0xfd` first when
/// the first byte is `0xfd` or more); anything else as UTF-8 after `0xff`.
pub fn encode_id(id: &str) -> Vec<u8> {
    if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
        let digits = id.as_bytes();
        let mut out = vec![0xfe];
        for pair in digits.chunks(2) {
            let hi = pair[0] - b'0';
            let lo = pair.get(1).map_or(0x0f, |d| d - b'0');
            out.push((hi << 4) | lo);
        }
        return out;
    }
    if is_url_base64_without_padding(id) {
        if let Ok(mut bytes) = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(id) {
            if bytes.first().is_some_and(|b| *b >= 0xfd) {
                bytes.insert(0, 0xfd);
            }
            return bytes;
        }
    }
    let mut out = Vec::with_capacity(id.len() + 1);
    out.push(0xff);
    out.extend_from_slice(id.as_bytes());
    out
}

/// Whether `id` is URL-safe base64 without padding whose last symbol carries no unused bits.
fn is_url_base64_without_padding(id: &str) -> bool {
    let last = id.chars().last();
    let canonical_end = match id.len() & 3 {
        0 => true,
        1 => false,
        2 => matches!(last, Some('A' | 'Q' | 'g' | 'w')),
        _ => matches!(
            last,
            Some('A' | 'E' | 'I' | 'M' | 'Q' | 'U' | 'Y' | 'c' | 'g' | 'k' | 'o' | 's' | 'w' | '0' | '4' | '8')
        ),
    };
    canonical_end && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_encode_as_es_stores_them() {
        assert_eq!(encode_id("123"), [0xfe, 0x12, 0x3f]);
        assert_eq!(encode_id("0229"), [0xfe, 0x02, 0x29]);
        assert_eq!(encode_id("AAAA"), [0, 0, 0]);
        assert_eq!(encode_id("_w"), [0xfd, 0xff]);
        assert_eq!(encode_id("rrid:scr_1"), b"\xffrrid:scr_1");
        // Base64-shaped but not canonical (the last symbol has unused bits set): UTF-8.
        assert_eq!(encode_id("ilx_0101431"), b"\xffilx_0101431");
        assert_eq!(encode_id("abc"), [0x69, 0xb7]);
        assert_eq!(encode_id("abcE"), [0x69, 0xb7, 0x04]);
    }
}
