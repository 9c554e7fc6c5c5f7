//! A set of document ordinals (a roaring bitmap), the currency of filters and matches.

use roaring::RoaringBitmap;

/// A set of document ordinals within one generation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DocSet(RoaringBitmap);

impl DocSet {
    /// The empty set.
    pub fn new() -> DocSet {
        DocSet(RoaringBitmap::new())
    }

    /// Every ordinal in `0..n`.
    pub fn full(n: u32) -> DocSet {
        let mut b = RoaringBitmap::new();
        b.insert_range(0..n);
        DocSet(b)
    }

    /// Builds a set from ascending or unordered ordinals.
    pub fn from_docs(docs: impl IntoIterator<Item = u32>) -> DocSet {
        DocSet(docs.into_iter().collect())
    }

    /// The set of a bitmap built elsewhere in the index.
    pub(crate) fn from_bitmap(bitmap: RoaringBitmap) -> DocSet {
        DocSet(bitmap)
    }

    /// The bitmap itself, for the index's own writers.
    pub(crate) fn into_bitmap(self) -> RoaringBitmap {
        self.0
    }

    /// Builds from ascending ordinals (faster).
    pub fn from_sorted(docs: &[u32]) -> DocSet {
        let mut b = SortedBuilder::default();
        for &d in docs {
            b.push(d);
        }
        DocSet(b.finish())
    }

    pub(crate) fn serialize(&self, out: &mut Vec<u8>) {
        let _ = self.0.serialize_into(out);
    }

    pub(crate) fn deserialize(bytes: &[u8]) -> Option<DocSet> {
        RoaringBitmap::deserialize_from(bytes).ok().map(DocSet)
    }

    /// Adds an ordinal.
    pub fn insert(&mut self, doc: u32) -> bool {
        self.0.insert(doc)
    }

    /// Removes an ordinal.
    pub fn remove(&mut self, doc: u32) -> bool {
        self.0.remove(doc)
    }

    /// The first ordinal at or after `doc` (a nested document's parent in a parents set):
    /// a seek, not a rank and a select (a select scans the containers before it).
    pub fn next_from(&self, doc: u32) -> Option<u32> {
        self.0.range(doc..).next()
    }

    /// The last ordinal before `doc` (where a parent's block of nested documents starts).
    pub fn prev_before(&self, doc: u32) -> Option<u32> {
        self.0.range(..doc).next_back()
    }

    /// Membership test.
    pub fn contains(&self, doc: u32) -> bool {
        self.0.contains(doc)
    }

    /// Number of ordinals.
    pub fn len(&self) -> u64 {
        self.0.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Ascending iteration.
    pub fn iter(&self) -> DocIter<'_> {
        DocIter(self.0.iter())
    }

    /// In-place intersection.
    pub fn and_with(&mut self, other: &DocSet) {
        self.0 &= &other.0;
    }

    /// In-place union.
    pub fn or_with(&mut self, other: &DocSet) {
        self.0 |= &other.0;
    }

    /// In-place difference.
    pub fn sub_with(&mut self, other: &DocSet) {
        self.0 -= &other.0;
    }

    /// The index of `doc` among the set's ordinals in ascending order (its place in a
    /// posting), if it is in the set: one rank, for a single lookup (an explanation);
    /// walks over many documents keep a cursor instead.
    pub fn index_of(&self, doc: u32) -> Option<usize> {
        self.0.contains(doc).then(|| self.0.rank(doc) as usize - 1)
    }

    /// The `n`-th ordinal in ascending order (from 0), if the set has that many.
    pub fn select(&self, n: u64) -> Option<u32> {
        u32::try_from(n).ok().and_then(|n| self.0.select(n))
    }

    /// An ascending cursor that can also skip ahead (the document stream of a filter).
    pub fn cursor(&self) -> DocCursor<'_> {
        DocCursor(self.0.iter())
    }
}

/// Ascending iteration over a [`DocSet`] with skipping.
pub struct DocCursor<'a>(roaring::bitmap::Iter<'a>);

impl DocCursor<'_> {
    /// The next ordinal.
    #[inline]
    pub fn next_doc(&mut self) -> Option<u32> {
        self.0.next()
    }

    /// The first ordinal at or after `target` (ordinals before it are skipped).
    #[inline]
    pub fn seek(&mut self, target: u32) -> Option<u32> {
        self.0.advance_to(target);
        self.0.next()
    }
}

/// Documents a roaring container holds: one value of the high 16 bits.
const CONTAINER: u32 = 1 << 16;
/// Past this many documents a container is a bitmap (roaring's own threshold).
const ARRAY_LIMIT: usize = 4096;

/// Builds a bitmap from ascending documents a container at a time. Pushing into a
/// roaring bitmap one document at a time looks for the maximum of a bitmap container
/// by scanning its words from the top on every push, so a dense term cost about a
/// thousand steps a document; here a dense container is set in a plain bitset and
/// handed over whole. The result is the bitmap the pushes would build.
#[derive(Default)]
pub struct SortedBuilder {
    set: RoaringBitmap,
    /// The current container's documents (low 16 bits), ascending.
    chunk: Vec<u16>,
    /// The current container's high bits.
    high: u32,
}

impl SortedBuilder {
    /// Adds `doc`, normally above every document before it (any other is inserted).
    pub fn push(&mut self, doc: u32) {
        let high = doc / CONTAINER;
        if high != self.high || self.chunk.last().is_some_and(|&l| l as u32 >= doc % CONTAINER) {
            if high < self.high || (high == self.high && !self.chunk.is_empty()) {
                // Out of order: not the ascending case this is for.
                self.flush();
                self.set.insert(doc);
                return;
            }
            self.flush();
            self.high = high;
        }
        self.chunk.push((doc % CONTAINER) as u16);
    }

    fn flush(&mut self) {
        if self.chunk.is_empty() {
            return;
        }
        let base = self.high * CONTAINER;
        let container = if self.chunk.len() > ARRAY_LIMIT {
            let mut words = [0u64; (CONTAINER / 64) as usize];
            for &lo in &self.chunk {
                words[lo as usize / 64] |= 1 << (lo % 64);
            }
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            RoaringBitmap::from_lsb0_bytes(base, &bytes)
        } else {
            RoaringBitmap::from_sorted_iter(self.chunk.iter().map(|&lo| base + lo as u32)).unwrap_or_default()
        };
        self.set |= container;
        self.chunk.clear();
    }

    /// Drops what was pushed.
    pub fn clear(&mut self) {
        self.set.clear();
        self.chunk.clear();
        self.high = 0;
    }

    /// The bitmap, leaving the builder empty for the next.
    pub fn finish(&mut self) -> RoaringBitmap {
        self.flush();
        self.high = 0;
        std::mem::take(&mut self.set)
    }
}

/// The documents of a set, ascending ([`DocSet::iter`]).
pub struct DocIter<'a>(roaring::bitmap::Iter<'a>);

impl Iterator for DocIter<'_> {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        self.0.next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn index_of_is_the_place_in_ascending_order() {
        let set = DocSet::from_docs([3, 9, 70_000, 70_001]);
        assert_eq!(set.index_of(3), Some(0));
        assert_eq!(set.index_of(9), Some(1));
        assert_eq!(set.index_of(70_001), Some(3));
        assert_eq!(set.index_of(4), None);
        assert_eq!(DocSet::new().index_of(0), None);
    }

    proptest! {
        #[test]
        fn built_sets_equal_pushed_sets_byte_for_byte(
            runs in proptest::collection::vec((0u32..200_000, 1u32..9000, 1u32..4), 0..6),
            stray in proptest::collection::vec(0u32..300_000, 0..4),
        ) {
            // Ascending runs of documents (dense and sparse), then a few strays in any order.
            let mut docs: Vec<u32> = Vec::new();
            for (start, len, step) in runs {
                let from = docs.last().map_or(start, |&l| l + 1 + start % 97);
                docs.extend((0..len).map(|i| from + i * step));
            }
            let mut pushed = RoaringBitmap::new();
            let mut b = SortedBuilder::default();
            for &d in docs.iter().chain(&stray) {
                pushed.insert(d);
                b.push(d);
            }
            let built = b.finish();
            prop_assert!(b.finish().is_empty());
            let (mut x, mut y) = (Vec::new(), Vec::new());
            pushed.serialize_into(&mut x).unwrap();
            built.serialize_into(&mut y).unwrap();
            prop_assert_eq!(x, y);
        }
    }
}
