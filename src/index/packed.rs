//! Bit-packed integer columns: doc values and points store each column with as many bits
//! per value as its range needs, offset from the column's least value, and read any entry
//! at random with one unaligned load.

use super::codec::{get_u32, get_u64, put_u32};

/// Bits needed to hold `max` (0 for 0).
pub fn width(max: u64) -> u8 {
    (64 - max.leading_zeros()) as u8
}

/// Bytes of `n` values packed at `width` bits, with the 8 bytes of padding that let a
/// reader load 8 bytes at any value's first byte.
fn packed_len(n: usize, width: u8) -> Option<usize> {
    n.checked_mul(usize::from(width))?.div_ceil(8).checked_add(8)
}

/// Appends `values` (each below 2^`width`) packed at `width` bits, little-endian bit order,
/// and the padding.
#[cfg(test)]
pub fn pack(out: &mut Vec<u8>, values: impl Iterator<Item = u64>, width: u8) {
    let mut packer = Packer::new(width);
    for v in values {
        packer.push(out, v);
    }
    packer.finish(out);
}

/// Packs values one at a time, for arrays written while they are produced: the bytes are
/// those of [`pack`] over the same values.
pub struct Packer {
    acc: u128,
    bits: u32,
    width: u32,
}

impl Packer {
    /// A packer of values below 2^`width`.
    pub fn new(width: u8) -> Packer {
        Packer { acc: 0, bits: 0, width: u32::from(width) }
    }

    /// Appends `v`'s bits; whole bytes go to `out`.
    #[inline]
    pub fn push(&mut self, out: &mut Vec<u8>, v: u64) {
        self.acc |= u128::from(v) << self.bits;
        self.bits += self.width;
        while self.bits >= 8 {
            out.push(self.acc as u8);
            self.acc >>= 8;
            self.bits -= 8;
        }
    }

    /// Appends the last partial byte and the padding.
    pub fn finish(self, out: &mut Vec<u8>) {
        if self.bits > 0 {
            out.push(self.acc as u8);
        }
        out.extend_from_slice(&[0; 8]);
    }
}

/// A packed array inside a buffer: where it starts, its width and length.
#[derive(Debug, Clone, Copy, Default)]
pub struct Packed {
    at: usize,
    width: u8,
    len: usize,
}

impl Packed {
    /// The array of `len` values of `width` bits at byte `at` of `buf`, if it fits; and the
    /// byte after it.
    pub fn at(buf: &[u8], at: usize, width: u8, len: usize) -> Option<(Packed, usize)> {
        let end = at.checked_add(packed_len(len, width)?)?;
        (width <= 64 && end <= buf.len()).then_some((Packed { at, width, len }, end))
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Value `i` (0 past the end).
    #[inline]
    pub fn get(&self, buf: &[u8], i: usize) -> u64 {
        if self.width == 0 || i >= self.len {
            return 0;
        }
        let bit = i * usize::from(self.width);
        let byte = self.at + bit / 8;
        let shift = (bit % 8) as u32;
        let mut v = get_u64(buf, byte) >> shift;
        if shift + u32::from(self.width) > 64 {
            v |= u64::from(buf.get(byte + 8).copied().unwrap_or(0)) << (64 - shift);
        }
        if self.width == 64 {
            v
        } else {
            v & ((1u64 << self.width) - 1)
        }
    }
}

/// Per-document values of one field, each document's ascending.
///
/// Layout: a `u8` form (0: single — no document has more than one value; 1: multi), `u32`
/// document count `n`, `u64` base (the least value, compared as `i64`), `u8` value width,
/// `u8` offset width; then, single: `n` slots of `value - base + 1` (0: no value); multi:
/// `n + 1` offsets into the values, then the values as `value - base`. Arithmetic wraps,
/// so any `u64` (a long, a double's bits, an ordinal) round-trips.
#[derive(Debug)]
pub struct Column {
    n: usize,
    base: u64,
    single: bool,
    offsets: Packed,
    values: Packed,
}

const SINGLE: u8 = 0;
const MULTI: u8 = 1;
const HEADER: usize = 1 + 4 + 8 + 1 + 1;

/// What a column's header needs, gathered in a first pass over its documents (in
/// order, each one's values ascending), so that the column can be written in a second.
#[derive(Debug, Clone, Default)]
pub struct ColumnStats {
    docs: usize,
    with_values: u64,
    values: u64,
    least: i64,
    most: i64,
    multi: bool,
}

impl ColumnStats {
    /// Counts the next document, with `values`.
    #[inline]
    pub fn add(&mut self, values: &[u64]) {
        self.docs += 1;
        if values.is_empty() {
            return;
        }
        if self.values == 0 {
            (self.least, self.most) = (values[0] as i64, values[0] as i64);
        }
        for &v in values {
            self.least = self.least.min(v as i64);
            self.most = self.most.max(v as i64);
        }
        self.with_values += 1;
        self.values += values.len() as u64;
        self.multi |= values.len() > 1;
    }

    /// Documents with at least one value.
    pub fn with_values(&self) -> u64 {
        self.with_values
    }
}

/// How a column's entries are packed, as its header says.
#[derive(Debug, Clone, Copy)]
pub struct ColumnLayout {
    /// Whether it has one slot per document (else offsets, then values).
    pub single: bool,
    base: u64,
    value_width: u8,
    offset_width: u8,
}

impl ColumnLayout {
    /// Appends the header of the column that `stats` describes and returns its layout.
    pub fn header(out: &mut Vec<u8>, stats: &ColumnStats) -> ColumnLayout {
        let base = if stats.values == 0 { 0 } else { stats.least as u64 };
        let range = if stats.values == 0 { 0 } else { (stats.most as u64).wrapping_sub(base) };
        let single = !stats.multi && range < u64::MAX;
        let (value_width, offset_width) =
            if single { (width(range + 1), 0) } else { (width(range), width(stats.values)) };
        out.push(if single { SINGLE } else { MULTI });
        put_u32(out, stats.docs as u32);
        out.extend_from_slice(&base.to_le_bytes());
        out.push(value_width);
        out.push(offset_width);
        ColumnLayout { single, base, value_width, offset_width }
    }

    /// The single form's slot of a document with `values` (none or one).
    #[inline]
    pub fn slot(&self, values: &[u64]) -> u64 {
        values.first().map_or(0, |&v| v.wrapping_sub(self.base) + 1)
    }

    /// The multi form's stored value of `v`.
    #[inline]
    pub fn value(&self, v: u64) -> u64 {
        v.wrapping_sub(self.base)
    }

    /// A packer of the single form's slots or the multi form's values.
    pub fn value_packer(&self) -> Packer {
        Packer::new(self.value_width)
    }

    /// A packer of the multi form's offsets.
    pub fn offset_packer(&self) -> Packer {
        Packer::new(self.offset_width)
    }
}

/// Appends the column of documents whose values are `values[offsets[d]..offsets[d + 1]]`
/// (the merge writes columns in passes; this is the same column from whole arrays).
#[cfg(test)]
pub fn encode_column(out: &mut Vec<u8>, offsets: &[u32], values: &[u64]) {
    let docs = || offsets.windows(2).map(|w| &values[w[0] as usize..w[1] as usize]);
    let mut stats = ColumnStats::default();
    docs().for_each(|d| stats.add(d));
    let layout = ColumnLayout::header(out, &stats);
    if layout.single {
        pack(out, docs().map(|d| layout.slot(d)), layout.value_width);
    } else {
        pack(out, offsets.iter().map(|&o| u64::from(o)), layout.offset_width);
        pack(out, values.iter().map(|&v| layout.value(v)), layout.value_width);
    }
}

impl Column {
    /// Reads a column at byte `at` of `buf`, checking that every part lies in the buffer
    /// and the offsets ascend; `None` when it does not.
    pub fn parse(buf: &[u8], at: usize) -> Option<Column> {
        let header = buf.get(at..at.checked_add(HEADER)?)?;
        let n = get_u32(header, 1) as usize;
        let base = get_u64(header, 5);
        let (value_width, offset_width) = (header[13], header[14]);
        match header[0] {
            SINGLE => {
                let (values, _) = Packed::at(buf, at + HEADER, value_width, n)?;
                Some(Column { n, base, single: true, offsets: Packed::default(), values })
            }
            MULTI => {
                let (offsets, end) = Packed::at(buf, at + HEADER, offset_width, n.checked_add(1)?)?;
                let mut last = 0;
                for d in 0..=n {
                    let o = offsets.get(buf, d);
                    if o < last {
                        return None;
                    }
                    last = o;
                }
                let (values, _) = Packed::at(buf, end, value_width, usize::try_from(last).ok()?)?;
                Some(Column { n, base, single: false, offsets, values })
            }
            _ => None,
        }
    }

    /// The positions of `doc`'s values, for [`Column::value`].
    #[inline]
    pub fn span(&self, buf: &[u8], doc: u32) -> (usize, usize) {
        let d = doc as usize;
        if d >= self.n {
            (0, 0)
        } else if self.single {
            if self.values.get(buf, d) == 0 {
                (0, 0)
            } else {
                (d, d + 1)
            }
        } else {
            (self.offsets.get(buf, d) as usize, self.offsets.get(buf, d + 1) as usize)
        }
    }

    /// The value at position `i` of a span.
    #[inline]
    pub fn value(&self, buf: &[u8], i: usize) -> u64 {
        let stored = self.values.get(buf, i);
        self.base.wrapping_add(if self.single { stored.wrapping_sub(1) } else { stored })
    }

    /// Every value position: `0..len` for [`Column::value`] (with documents without a
    /// value in between for a single-valued column).
    pub fn positions(&self) -> usize {
        self.values.len()
    }

    /// Whether position `i` holds a value (a single-valued column's slot may be empty).
    pub fn holds(&self, buf: &[u8], i: usize) -> bool {
        !self.single || self.values.get(buf, i) != 0
    }
}

/// (value, document) pairs in value order, for range queries.
///
/// Layout: `u32` count, `u64` base (the least value as `i64`), `u8` value width, `u8`
/// document width, the values as `value - base`, then the documents.
#[derive(Debug)]
pub struct PointColumn {
    base: u64,
    values: Packed,
    docs: Packed,
}

/// What a point column's header needs, gathered in a first pass over its points.
#[derive(Debug, Clone, Default)]
pub struct PointStats {
    count: usize,
    least: i64,
    most: i64,
    last_doc: u32,
}

impl PointStats {
    /// Counts a point.
    #[inline]
    pub fn add(&mut self, value: u64, doc: u32) {
        if self.count == 0 {
            (self.least, self.most) = (value as i64, value as i64);
        }
        self.least = self.least.min(value as i64);
        self.most = self.most.max(value as i64);
        self.last_doc = self.last_doc.max(doc);
        self.count += 1;
    }
}

/// How a point column's arrays are packed, as its header says.
#[derive(Debug, Clone, Copy)]
pub struct PointLayout {
    base: u64,
    value_width: u8,
    doc_width: u8,
}

impl PointLayout {
    /// Appends the header of the point column that `stats` describes and returns its layout.
    pub fn header(out: &mut Vec<u8>, stats: &PointStats) -> PointLayout {
        let base = stats.least as u64;
        let value_width = width((stats.most as u64).wrapping_sub(base));
        let doc_width = width(u64::from(stats.last_doc));
        put_u32(out, stats.count as u32);
        out.extend_from_slice(&base.to_le_bytes());
        out.push(value_width);
        out.push(doc_width);
        PointLayout { base, value_width, doc_width }
    }

    /// The stored form of value `v`.
    #[inline]
    pub fn value(&self, v: u64) -> u64 {
        v.wrapping_sub(self.base)
    }

    /// A packer of the values (first) array.
    pub fn value_packer(&self) -> Packer {
        Packer::new(self.value_width)
    }

    /// A packer of the documents (second) array.
    pub fn doc_packer(&self) -> Packer {
        Packer::new(self.doc_width)
    }
}

/// Appends the point column of `values[i]` in document `docs[i]` (the merge writes points
/// in passes; this is the same column from whole arrays).
#[cfg(test)]
pub fn encode_points(out: &mut Vec<u8>, values: &[u64], docs: &[u32]) {
    let mut stats = PointStats::default();
    values.iter().zip(docs).for_each(|(&v, &d)| stats.add(v, d));
    let layout = PointLayout::header(out, &stats);
    pack(out, values.iter().map(|&v| layout.value(v)), layout.value_width);
    pack(out, docs.iter().map(|&d| u64::from(d)), layout.doc_width);
}

impl PointColumn {
    /// Reads a point column at byte `at` of `buf`, if every part lies in the buffer.
    pub fn parse(buf: &[u8], at: usize) -> Option<PointColumn> {
        let header = buf.get(at..at.checked_add(14)?)?;
        let n = get_u32(header, 0) as usize;
        let base = get_u64(header, 4);
        let (values, end) = Packed::at(buf, at + 14, header[12], n)?;
        let (docs, _) = Packed::at(buf, end, header[13], n)?;
        Some(PointColumn { base, values, docs })
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// The value of point `i` (as stored: a long's or a double's bits).
    #[inline]
    pub fn value(&self, buf: &[u8], i: usize) -> u64 {
        self.base.wrapping_add(self.values.get(buf, i))
    }

    /// The document of point `i`.
    #[inline]
    pub fn doc(&self, buf: &[u8], i: usize) -> u32 {
        self.docs.get(buf, i) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip(docs: &[Vec<u64>]) {
        let mut offsets = vec![0u32];
        let mut values = Vec::new();
        for d in docs {
            values.extend_from_slice(d);
            offsets.push(values.len() as u32);
        }
        let mut buf = vec![7u8; 3];
        encode_column(&mut buf, &offsets, &values);
        let col = Column::parse(&buf, 3).unwrap();
        for (doc, want) in docs.iter().enumerate() {
            let (s, e) = col.span(&buf, doc as u32);
            let got: Vec<u64> = (s..e).map(|i| col.value(&buf, i)).collect();
            assert_eq!(&got, want, "doc {doc}");
        }
        assert_eq!(col.span(&buf, docs.len() as u32), (0, 0));
        // Cut anywhere, the column is refused rather than misread.
        for cut in 3..buf.len() {
            assert!(Column::parse(&buf[..cut], 3).is_none(), "cut at {cut}");
        }
    }

    #[test]
    fn points_round_trip() {
        let values = [(-5i64) as u64, 0, 3, 3, u64::MAX >> 1];
        let docs = [4, 0, 1, 9, 2];
        let mut buf = vec![1u8];
        encode_points(&mut buf, &values, &docs);
        let p = PointColumn::parse(&buf, 1).unwrap();
        assert_eq!(p.len(), 5);
        for i in 0..5 {
            assert_eq!((p.value(&buf, i), p.doc(&buf, i)), (values[i], docs[i]));
        }
        assert!(PointColumn::parse(&buf[..buf.len() - 1], 1).is_none());
    }

    #[test]
    fn widths_and_forms() {
        assert_eq!((width(0), width(1), width(255), width(256), width(u64::MAX)), (0, 1, 8, 9, 64));
        round_trip(&[]);
        round_trip(&[vec![], vec![]]);
        round_trip(&[vec![5], vec![], vec![5]]);
        round_trip(&[vec![u64::MAX], vec![0], vec![(-3i64) as u64]]);
        round_trip(&[vec![1, 2], vec![], vec![3]]);
        round_trip(&[vec![0, u64::MAX], vec![1 << 63]]);
        round_trip(&[vec![f64::to_bits(-2.5)], vec![f64::to_bits(1e300)]]);
    }

    /// The column written from whole arrays in one pass: what the two-pass writer must
    /// reproduce byte for byte.
    fn one_pass_column(out: &mut Vec<u8>, offsets: &[u32], values: &[u64]) {
        let n = offsets.len().saturating_sub(1);
        let base = values.iter().map(|&v| v as i64).min().unwrap_or(0) as u64;
        let range = values.iter().map(|&v| v.wrapping_sub(base)).max().unwrap_or(0);
        let single = offsets.windows(2).all(|w| w[1] - w[0] <= 1) && range < u64::MAX;
        out.push(if single { SINGLE } else { MULTI });
        put_u32(out, n as u32);
        out.extend_from_slice(&base.to_le_bytes());
        if single {
            let slot_width = width(range + 1);
            out.push(slot_width);
            out.push(0);
            let slots =
                offsets.windows(2).map(|w| if w[1] > w[0] { values[w[0] as usize].wrapping_sub(base) + 1 } else { 0 });
            pack(out, slots, slot_width);
        } else {
            let value_width = width(range);
            let offset_width = width(u64::from(offsets.last().copied().unwrap_or(0)));
            out.push(value_width);
            out.push(offset_width);
            pack(out, offsets.iter().map(|&o| u64::from(o)), offset_width);
            pack(out, values.iter().map(|&v| v.wrapping_sub(base)), value_width);
        }
    }

    /// The point column written from whole arrays in one pass.
    fn one_pass_points(out: &mut Vec<u8>, values: &[u64], docs: &[u32]) {
        let base = values.iter().map(|&v| v as i64).min().unwrap_or(0) as u64;
        let value_width = width(values.iter().map(|&v| v.wrapping_sub(base)).max().unwrap_or(0));
        let doc_width = width(u64::from(docs.iter().copied().max().unwrap_or(0)));
        put_u32(out, values.len() as u32);
        out.extend_from_slice(&base.to_le_bytes());
        out.push(value_width);
        out.push(doc_width);
        pack(out, values.iter().map(|&v| v.wrapping_sub(base)), value_width);
        pack(out, docs.iter().map(|&d| u64::from(d)), doc_width);
    }

    /// Writes a column the way the merge streams it: statistics first, then the arrays
    /// value by value.
    fn streamed_column(docs: &[Vec<u64>]) -> Vec<u8> {
        let mut stats = ColumnStats::default();
        docs.iter().for_each(|d| stats.add(d));
        let mut out = Vec::new();
        let layout = ColumnLayout::header(&mut out, &stats);
        if layout.single {
            let mut p = layout.value_packer();
            docs.iter().for_each(|d| p.push(&mut out, layout.slot(d)));
            p.finish(&mut out);
        } else {
            let (mut p, mut total) = (layout.offset_packer(), 0u64);
            p.push(&mut out, 0);
            for d in docs {
                total += d.len() as u64;
                p.push(&mut out, total);
            }
            p.finish(&mut out);
            let mut p = layout.value_packer();
            docs.iter().flatten().for_each(|&v| p.push(&mut out, layout.value(v)));
            p.finish(&mut out);
        }
        out
    }

    proptest! {
        #[test]
        fn streamed_columns_equal_one_pass_columns(
            docs in prop::collection::vec(prop::collection::vec(any::<u64>(), 0..4), 0..60),
            small in prop::collection::vec(prop::collection::vec(-3i64..20, 0..2), 0..60),
        ) {
            let small: Vec<Vec<u64>> = small.into_iter().map(|d| d.into_iter().map(|v| v as u64).collect()).collect();
            for docs in [docs, small] {
                let docs: Vec<Vec<u64>> = docs.into_iter().map(|mut d| { d.sort_by_key(|&v| v as i64); d }).collect();
                let mut offsets = vec![0u32];
                let mut values = Vec::new();
                for d in &docs {
                    values.extend_from_slice(d);
                    offsets.push(values.len() as u32);
                }
                let mut want = Vec::new();
                one_pass_column(&mut want, &offsets, &values);
                let mut got = Vec::new();
                encode_column(&mut got, &offsets, &values);
                prop_assert_eq!(&got, &want);
                prop_assert_eq!(streamed_column(&docs), want);
            }
        }

        #[test]
        fn streamed_points_equal_one_pass_points(points in prop::collection::vec((any::<u64>(), 0u32..5000), 0..80),
                                                 narrow in prop::collection::vec((-40i64..40, 0u32..9), 0..80)) {
            let narrow: Vec<(u64, u32)> = narrow.into_iter().map(|(v, d)| (v as u64, d)).collect();
            for points in [points, narrow] {
                let (values, docs): (Vec<u64>, Vec<u32>) = points.into_iter().unzip();
                let mut want = Vec::new();
                one_pass_points(&mut want, &values, &docs);
                let mut got = Vec::new();
                encode_points(&mut got, &values, &docs);
                prop_assert_eq!(got, want);
            }
        }

        #[test]
        fn columns_round_trip(docs in prop::collection::vec(prop::collection::vec(any::<u64>(), 0..3), 0..40),
                              small in prop::collection::vec(prop::collection::vec(0u64..20, 0..2), 0..40)) {
            let sorted: Vec<Vec<u64>> = docs.into_iter().map(|mut d| { d.sort(); d }).collect();
            round_trip(&sorted);
            round_trip(&small);
        }
    }
}
