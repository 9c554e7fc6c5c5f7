//! Byte encodings of the per-generation structures (postings, doc values, term lists).

/// Appends `v` as a LEB128 varint.
pub fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads a LEB128 varint at `*pos`, advancing it; `None` on truncated input.
pub fn get_varint(buf: &[u8], pos: &mut usize) -> Option<u32> {
    let mut v: u32 = 0;
    let mut shift = 0;
    loop {
        let b = *buf.get(*pos)?;
        *pos += 1;
        if shift > 28 {
            return None;
        }
        v |= ((b & 0x7f) as u32) << shift;
        if b < 0x80 {
            return Some(v);
        }
        shift += 7;
    }
}

/// Appends a little-endian u32.
pub fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Reads the little-endian u32 at byte `at`.
pub fn get_u32(buf: &[u8], at: usize) -> u32 {
    buf.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).unwrap_or(0)
}

/// Reads the little-endian u64 at byte `at`.
pub fn get_u64(buf: &[u8], at: usize) -> u64 {
    buf.get(at..at + 8)
        .map(|b| {
            let mut a = [0u8; 8];
            a.copy_from_slice(b);
            u64::from_le_bytes(a)
        })
        .unwrap_or(0)
}

/// Reads a LEB128 varint (u64) a byte at a time from `next`; `None` when it runs past
/// ten bytes.
pub fn read_varint_with<E>(mut next: impl FnMut() -> Result<u8, E>) -> Result<Option<u64>, E> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = next()?;
        v |= ((b & 0x7f) as u64) << shift;
        if b < 0x80 {
            return Ok(Some(v));
        }
    }
    Ok(None)
}

/// A list of byte strings: `[count][offsets; count+1][bytes]` ([`ListBuilder`] writes the
/// same layout as its items arrive).
#[cfg(test)]
pub fn encode_list<'a>(items: impl ExactSizeIterator<Item = &'a [u8]>) -> Vec<u8> {
    let n = items.len();
    let mut offsets = Vec::with_capacity(n + 1);
    let mut data = Vec::new();
    offsets.push(0u32);
    for it in items {
        data.extend_from_slice(it);
        offsets.push(data.len() as u32);
    }
    let mut out = Vec::with_capacity(4 + offsets.len() * 4 + data.len());
    put_u32(&mut out, n as u32);
    for o in offsets {
        put_u32(&mut out, o);
    }
    out.extend_from_slice(&data);
    out
}

/// Builds an `encode_list` buffer one item at a time, when the items are not at hand as
/// an iterator of known length (a merge's terms, a dictionary's keys).
#[derive(Default)]
pub struct ListBuilder {
    offsets: Vec<u32>,
    data: Vec<u8>,
}

impl ListBuilder {
    /// Appends an item.
    pub fn push(&mut self, item: &[u8]) {
        self.data.extend_from_slice(item);
        self.offsets.push(self.data.len() as u32);
    }

    /// The encoded list.
    pub fn finish(self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + self.offsets.len() * 4 + self.data.len());
        put_u32(&mut out, self.offsets.len() as u32);
        put_u32(&mut out, 0);
        for o in self.offsets {
            put_u32(&mut out, o);
        }
        out.extend_from_slice(&self.data);
        out
    }
}

/// Random access into an `encode_list` buffer.
#[derive(Debug, Clone)]
pub struct ListView {
    buf: Vec<u8>,
    count: usize,
}

impl ListView {
    /// Wraps an encoded list.
    pub fn new(buf: Vec<u8>) -> ListView {
        let count = get_u32(&buf, 0) as usize;
        let count = count.min(buf.len().saturating_sub(4) / 4);
        ListView { buf, count }
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Item `i` (empty when out of range or corrupt).
    pub fn get(&self, i: usize) -> &[u8] {
        if i >= self.count {
            return &[];
        }
        let base = 4 + (self.count + 1) * 4;
        let s = get_u32(&self.buf, 4 + i * 4) as usize;
        let e = get_u32(&self.buf, 4 + (i + 1) * 4) as usize;
        self.buf.get(base + s..base + e).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_roundtrip() {
        let mut b = Vec::new();
        for v in [0u32, 1, 127, 128, 300, u32::MAX] {
            put_varint(&mut b, v);
        }
        let mut p = 0;
        for v in [0u32, 1, 127, 128, 300, u32::MAX] {
            assert_eq!(get_varint(&b, &mut p), Some(v));
        }
        assert_eq!(get_varint(&b, &mut p), None);
    }

    #[test]
    fn list_roundtrip() {
        let items: Vec<&[u8]> = vec![b"a", b"", b"xyz"];
        let v = ListView::new(encode_list(items.clone().into_iter()));
        assert_eq!(v.len(), 3);
        assert_eq!(v.get(2), b"xyz");
        assert_eq!(v.get(1), b"");
        assert_eq!(v.get(9), b"");
    }
}
