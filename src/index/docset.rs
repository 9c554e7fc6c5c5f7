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

    /// Builds from strictly ascending ordinals (faster).
    pub fn from_sorted(docs: &[u32]) -> DocSet {
        DocSet(RoaringBitmap::from_sorted_iter(docs.iter().copied()).unwrap_or_else(|_| docs.iter().copied().collect()))
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
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_of_is_the_place_in_ascending_order() {
        let set = DocSet::from_docs([3, 9, 70_000, 70_001]);
        assert_eq!(set.index_of(3), Some(0));
        assert_eq!(set.index_of(9), Some(1));
        assert_eq!(set.index_of(70_001), Some(3));
        assert_eq!(set.index_of(4), None);
        assert_eq!(DocSet::new().index_of(0), None);
    }
}
