//! Read access to one generation: term dictionaries, postings, norms, doc values, sources.
//!
//! Immutable per-field structures (term dictionaries, norms, doc values) are loaded on first
//! use and cached for the life of the reader; postings are read per query from the file.

use super::codec::{ListBuilder, ListView};
use super::docset::DocSet;
#[cfg(not(target_arch = "wasm32"))]
use super::docstore::SequentialDocs;
use super::docstore::{DocStoreReader, StoredDoc};
use super::meta::{FieldStats, IndexMeta};
use super::packed::{Column, PointColumn};
use super::postings::{decode_term, Freqs, PostingPlaces, Postings, BLOCK};
use super::stream::StreamReader;
use super::TermAddr;
use crate::error::{Error, Result};
use crate::store::Snapshot;
use fst::{IntoStreamer, Streamer};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Per-document sorted values of a numeric-like field.
#[derive(Debug)]
pub struct NumericDocValues {
    is_double: bool,
    buf: Vec<u8>,
    column: Column,
}

impl NumericDocValues {
    /// Whether values are f64 (otherwise i64).
    pub fn is_double(&self) -> bool {
        self.is_double
    }

    /// Number of values of `doc`.
    pub fn count(&self, doc: u32) -> usize {
        let (s, e) = self.column.span(&self.buf, doc);
        e - s
    }

    fn raw(&self, doc: u32) -> impl Iterator<Item = u64> + '_ {
        let (s, e) = self.column.span(&self.buf, doc);
        (s..e).map(move |i| self.column.value(&self.buf, i))
    }

    /// Values of `doc` as f64, ascending.
    pub fn values_f64(&self, doc: u32) -> impl Iterator<Item = f64> + '_ {
        self.raw(doc).map(move |r| if self.is_double { f64::from_bits(r) } else { r as i64 as f64 })
    }

    /// Values of `doc` as i64 (doubles truncated), ascending.
    pub fn values_i64(&self, doc: u32) -> impl Iterator<Item = i64> + '_ {
        self.raw(doc).map(move |r| if self.is_double { f64::from_bits(r) as i64 } else { r as i64 })
    }
}

/// Per-document sorted term ordinals of a keyword field, with the ordinal -> term list.
#[derive(Debug)]
pub struct KeywordDocValues {
    buf: Vec<u8>,
    column: Column,
    terms: ListView,
}

impl KeywordDocValues {
    /// Ordinals of `doc`, ascending (= term order).
    pub fn ords(&self, doc: u32) -> impl Iterator<Item = u32> + '_ {
        let (s, e) = self.column.span(&self.buf, doc);
        (s..e).map(move |i| self.column.value(&self.buf, i) as u32)
    }

    /// The term of an ordinal.
    pub fn term(&self, ord: u32) -> &str {
        std::str::from_utf8(self.terms.get(ord as usize)).unwrap_or("")
    }

    /// Number of distinct terms.
    pub fn term_count(&self) -> usize {
        self.terms.len()
    }

    /// Ordinal of `term`, or the insertion point as `Err`.
    pub fn lookup(&self, term: &str) -> std::result::Result<u32, u32> {
        let (mut lo, mut hi) = (0usize, self.terms.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.terms.get(mid).cmp(term.as_bytes()) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Ok(mid as u32),
            }
        }
        Err(lo as u32)
    }
}

/// Numeric values sorted with their documents, for range queries.
#[derive(Debug)]
pub struct Points {
    is_double: bool,
    buf: Vec<u8>,
    column: PointColumn,
}

impl Points {
    fn value(&self, i: usize) -> f64 {
        let r = self.column.value(&self.buf, i);
        if self.is_double {
            f64::from_bits(r)
        } else {
            r as i64 as f64
        }
    }

    fn value_i64(&self, i: usize) -> i64 {
        let r = self.column.value(&self.buf, i);
        if self.is_double {
            f64::from_bits(r) as i64
        } else {
            r as i64
        }
    }

    fn doc(&self, i: usize) -> u32 {
        self.column.doc(&self.buf, i)
    }

    /// The smallest and largest value, if any.
    pub fn min_max(&self) -> Option<(f64, f64)> {
        let n = self.column.len();
        (n > 0).then(|| (self.value(0), self.value(n - 1)))
    }

    /// Documents with a value in the range (bounds given as i64 when the field is integral
    /// so that large longs compare exactly).
    pub fn range(&self, lower: Bound, upper: Bound) -> DocSet {
        let above = |i: usize| -> bool {
            match lower {
                Bound::Unbounded => true,
                Bound::Included(v) => self.cmp_value(i, v) != std::cmp::Ordering::Less,
                Bound::Excluded(v) => self.cmp_value(i, v) == std::cmp::Ordering::Greater,
            }
        };
        let below = |i: usize| -> bool {
            match upper {
                Bound::Unbounded => true,
                Bound::Included(v) => self.cmp_value(i, v) != std::cmp::Ordering::Greater,
                Bound::Excluded(v) => self.cmp_value(i, v) == std::cmp::Ordering::Less,
            }
        };
        let n = self.column.len();
        // Binary search for the first value above the lower bound.
        let (mut lo, mut hi) = (0usize, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if above(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let mut docs: Vec<u32> = Vec::new();
        let mut i = lo;
        while i < n && below(i) {
            docs.push(self.doc(i));
            i += 1;
        }
        DocSet::from_docs(docs)
    }

    /// Calls `f` with each integral value in `lo..=hi` and its document, in value order:
    /// a binary search, then a scan of that stretch only (geo points, whose packed
    /// longs sort by latitude, read one band of latitudes this way).
    pub fn scan_i64(&self, lo: i64, hi: i64, mut f: impl FnMut(i64, u32)) {
        let n = self.column.len();
        let (mut a, mut b) = (0usize, n);
        while a < b {
            let mid = (a + b) / 2;
            if self.value_i64(mid) >= lo {
                b = mid;
            } else {
                a = mid + 1;
            }
        }
        let mut i = a;
        while i < n {
            let v = self.value_i64(i);
            if v > hi {
                break;
            }
            f(v, self.doc(i));
            i += 1;
        }
    }

    fn cmp_value(&self, i: usize, v: Num) -> std::cmp::Ordering {
        match v {
            Num::I(x) if !self.is_double => self.value_i64(i).cmp(&x),
            Num::I(x) => self.value(i).total_cmp(&(x as f64)),
            Num::F(x) => self.value(i).total_cmp(&x),
        }
    }
}

/// A numeric bound value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// Integral.
    I(i64),
    /// Floating.
    F(f64),
}

/// A range bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// No bound.
    Unbounded,
    /// Inclusive.
    Included(Num),
    /// Exclusive.
    Excluded(Num),
}

type Cache<T> = Mutex<HashMap<u32, Arc<T>>>;

/// A field's term dictionary: term -> postings address.
type TermDict = fst::Map<Vec<u8>>;

/// A reader over one concrete index (one generation).
#[derive(Debug)]
pub struct IndexReader {
    /// The catalog entry.
    pub meta: IndexMeta,
    fsts: Cache<TermDict>,
    norms: Cache<Vec<u8>>,
    keyword_dv: Cache<KeywordDocValues>,
    numeric_dv: Cache<NumericDocValues>,
    points: Cache<Points>,
    /// Structures other layers build from this generation's data, by their own key
    /// (the completion suggester's entries), kept as long as the reader.
    extensions: Mutex<HashMap<String, Arc<dyn std::any::Any + Send + Sync>>>,
    docs: DocStoreReader,
    /// Root and nested document sets (`nested_sets.rs`).
    pub(super) nested: super::nested_sets::NestedSets,
}

/// The error for a per-field structure whose bytes are not what this build writes (a
/// damaged file image): a storage error, never a panic or an endless loop.
fn damaged(what: &str, field: &str) -> Error {
    Error::storage(format!("damaged {what} of field [{field}]: the file is corrupt"))
}

fn cached<T>(cache: &Cache<T>, fid: u32, load: impl FnOnce() -> Result<Option<T>>) -> Result<Option<Arc<T>>> {
    if let Some(v) = cache.lock().map_err(|_| Error::storage("cache lock poisoned"))?.get(&fid) {
        return Ok(Some(v.clone()));
    }
    let loaded = match load()? {
        Some(v) => Arc::new(v),
        None => return Ok(None),
    };
    cache.lock().map_err(|_| Error::storage("cache lock poisoned"))?.insert(fid, loaded.clone());
    Ok(Some(loaded))
}

/// Bytes a reader holds in memory ([`IndexReader::memory`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReaderMemory {
    /// Term dictionaries.
    pub terms: u64,
    /// Norms.
    pub norms: u64,
}

impl IndexReader {
    /// A reader for the index described by `meta`.
    pub fn new(meta: IndexMeta) -> IndexReader {
        IndexReader {
            fsts: Mutex::new(HashMap::new()),
            norms: Mutex::new(HashMap::new()),
            keyword_dv: Mutex::new(HashMap::new()),
            numeric_dv: Mutex::new(HashMap::new()),
            points: Mutex::new(HashMap::new()),
            extensions: Mutex::new(HashMap::new()),
            docs: DocStoreReader::new(meta.generation, meta.doc_count as u32),
            nested: Default::default(),
            meta,
        }
    }

    /// Number of documents.
    pub fn max_doc(&self) -> u32 {
        self.meta.doc_count as u32
    }

    /// The mapping type's name: the one the index was created with, or for files written
    /// before it was kept, the type its documents carry (`_doc` when it has none).
    pub fn type_name(&self, snap: &Snapshot) -> Result<String> {
        match &self.meta.type_name {
            Some(t) => Ok(t.clone()),
            None if self.max_doc() == 0 => Ok("_doc".into()),
            None => Ok(self.document(snap, 0)?.doc_type().into_owned()),
        }
    }

    /// The mapping type, if the index has a mapping: the one it was created with, or the
    /// type its documents carry; `None` for an index created without mappings that holds
    /// no document (ES 6.8 has no mapping for it yet, and a get that names no type
    /// reports `_type: null`).
    pub fn mapped_type(&self, snap: &Snapshot) -> Result<Option<String>> {
        match &self.meta.type_name {
            None if self.max_doc() == 0 => Ok(None),
            _ => self.type_name(snap).map(Some),
        }
    }

    /// Statistics of a field, if it has indexed data.
    pub fn field_stats(&self, field: &str) -> Option<&FieldStats> {
        self.meta.fields.get(field)
    }

    fn gen(&self) -> u64 {
        self.meta.generation
    }

    fn fst(&self, snap: &Snapshot, field: &str) -> Result<Option<(u32, Arc<TermDict>)>> {
        let Some(st) = self.field_stats(field).filter(|s| s.inverted) else {
            return Ok(None);
        };
        let fid = st.id;
        let m = cached(&self.fsts, fid, || {
            let Some(bytes) = snap.gen_blob(self.gen(), &format!("fst/{fid}"))? else {
                return Ok(None);
            };
            fst::Map::new(bytes).map(Some).map_err(|e| Error::storage(format!("corrupt term dictionary: {e}")))
        })?;
        Ok(m.map(|m| (fid, m)))
    }

    /// Bytes of `field`'s term dictionary (0 when it has none), loading it as a search
    /// would.
    pub fn term_dictionary_bytes(&self, snap: &Snapshot, field: &str) -> Result<u64> {
        Ok(self.fst(snap, field)?.map_or(0, |(_, m)| m.as_fst().as_bytes().len() as u64))
    }

    /// What this reader holds in memory of its generation now: the term dictionaries and
    /// norms searches have loaded.
    pub fn memory(&self) -> ReaderMemory {
        let terms = self.fsts.lock().map_or(0, |m| m.values().map(|f| f.as_fst().as_bytes().len() as u64).sum());
        let norms = self.norms.lock().map_or(0, |m| m.values().map(|n| n.len() as u64).sum());
        ReaderMemory { terms, norms }
    }

    /// The address of an exact term's postings.
    pub fn term_addr(&self, snap: &Snapshot, field: &str, term: &str) -> Result<Option<TermAddr>> {
        Ok(self.fst(snap, field)?.and_then(|(_, m)| m.get(term)))
    }

    /// Terms of `field` accepted by `keep`, streamed in order from `start` while `go_on`
    /// holds; at most `limit + 1` are returned (so the caller can report the overflow).
    /// Past the request's deadline the walk stops with the terms found so far (a fuzzy or
    /// wildcard walk of a large dictionary is the long part of its query).
    pub fn scan_terms(
        &self,
        snap: &Snapshot,
        field: &str,
        start: &[u8],
        go_on: &dyn Fn(&[u8]) -> bool,
        keep: &mut dyn FnMut(&[u8]) -> bool,
        limit: usize,
    ) -> Result<Vec<(String, TermAddr)>> {
        let Some((_, m)) = self.fst(snap, field)? else {
            return Ok(Vec::new());
        };
        let mut stream = m.range().ge(start).into_stream();
        let mut out = Vec::new();
        let mut ticker = crate::budget::Ticker::new();
        while let Some((k, addr)) = stream.next() {
            if ticker.tick()? || !go_on(k) {
                break;
            }
            if keep(k) {
                out.push((String::from_utf8_lossy(k).into_owned(), addr));
                if out.len() > limit {
                    break;
                }
            }
        }
        Ok(out)
    }

    /// Every term of `field` in order with its documents (in document order), to the
    /// end whatever the request's deadline: for structures built once per generation
    /// and cached, which a cut walk would leave incomplete.
    pub fn for_each_term_docs(
        &self,
        snap: &Snapshot,
        field: &str,
        each: &mut dyn FnMut(&[u8], &DocSet) -> Result<()>,
    ) -> Result<()> {
        let Some((_, m)) = self.fst(snap, field)? else {
            return Ok(());
        };
        let Some(st) = self.field_stats(field) else {
            return Ok(());
        };
        let with_freqs = self.has_freqs(field);
        // One stream reader for the walk: terms are stored in order, so each chunk is
        // fetched once however many terms it holds.
        let mut r = StreamReader::new(snap, self.gen(), "postings", st.id, 0);
        let mut stream = m.range().into_stream();
        while let Some((k, addr)) = stream.next() {
            r.seek(addr);
            let postings = decode_term(&mut r, with_freqs)?;
            each(k, &postings.docs)?;
        }
        Ok(())
    }

    /// The structure cached under `key`, built by `build` on first use. A structure
    /// of another type under the same key is a bug of the caller: it is built anew
    /// and not cached.
    pub fn extension<T: std::any::Any + Send + Sync>(
        &self,
        key: &str,
        build: impl FnOnce() -> Result<T>,
    ) -> Result<Arc<T>> {
        let found = self.extensions.lock().map_err(|_| Error::storage("cache lock poisoned"))?.get(key).cloned();
        if let Some(any) = found {
            if let Ok(t) = any.downcast::<T>() {
                return Ok(t);
            }
            return build().map(Arc::new);
        }
        let built = Arc::new(build()?);
        self.extensions
            .lock()
            .map_err(|_| Error::storage("cache lock poisoned"))?
            .insert(key.to_string(), built.clone() as Arc<dyn std::any::Any + Send + Sync>);
        Ok(built)
    }

    /// Postings of the term at `addr` in `field`.
    pub fn postings(&self, snap: &Snapshot, field: &str, addr: TermAddr) -> Result<Postings> {
        let Some(st) = self.field_stats(field) else {
            return Ok(Postings { docs: DocSet::new(), freqs: None, positions: None });
        };
        let with_freqs = self.has_freqs(field);
        let mut r = StreamReader::new(snap, self.gen(), "postings", st.id, addr);
        decode_term(&mut r, with_freqs)
    }

    /// Whether a field's postings carry term frequencies (text fields do).
    fn has_freqs(&self, field: &str) -> bool {
        self.meta.mapping.field(field).map(|f| f.ftype == crate::mapping::FieldType::Text).unwrap_or(false)
    }

    /// The union of several terms' documents, through one stream reader (a chunk is
    /// fetched once, however many terms it holds) into one sorted build of the set.
    pub fn postings_union(&self, snap: &Snapshot, field: &str, addrs: &[TermAddr]) -> Result<DocSet> {
        let Some(st) = self.field_stats(field) else {
            return Ok(DocSet::new());
        };
        let with_freqs = self.has_freqs(field);
        let mut sorted: Vec<TermAddr> = addrs.to_vec();
        sorted.sort_unstable();
        let mut r = StreamReader::new(snap, self.gen(), "postings", st.id, 0);
        let mut small: Vec<u32> = Vec::new();
        let mut big = DocSet::new();
        let mut ticker = crate::budget::Ticker::every(256);
        for a in sorted {
            if ticker.tick()? {
                // Past the deadline: the documents of the terms read so far.
                break;
            }
            r.seek(a);
            let p = decode_term(&mut r, with_freqs)?;
            if p.docs.len() <= 64 {
                small.extend(p.docs.iter());
            } else {
                big.or_with(&p.docs);
            }
        }
        small.sort_unstable();
        small.dedup();
        let mut out = DocSet::from_sorted(&small);
        out.or_with(&big);
        Ok(out)
    }

    /// A forward-only reader of a term's positions, document by document (`None` for
    /// fields without positions).
    pub fn positions_cursor<'s, 'p>(
        &self,
        snap: &'s Snapshot,
        field: &str,
        postings: &'p Postings,
    ) -> Option<PositionsCursor<'s, 'p>> {
        let (st, addr, freqs) = (self.field_stats(field)?, postings.positions?, postings.freqs.as_ref()?);
        Some(PositionsCursor {
            reader: StreamReader::new(snap, self.gen(), "positions", st.id, addr),
            addr,
            freqs,
            places: PostingPlaces::new(&postings.docs, freqs),
            at: 0,
            block: usize::MAX,
            tfs: [0; BLOCK],
        })
    }

    /// The norm bytes of a text field (one per document).
    pub fn norms(&self, snap: &Snapshot, field: &str) -> Result<Option<Arc<Vec<u8>>>> {
        let Some(st) = self.field_stats(field) else {
            return Ok(None);
        };
        let fid = st.id;
        cached(&self.norms, fid, || snap.gen_blob(self.gen(), &format!("norms/{fid}")))
    }

    /// Keyword doc values of a field.
    pub fn keyword_doc_values(&self, snap: &Snapshot, field: &str) -> Result<Option<Arc<KeywordDocValues>>> {
        let Some(st) = self.field_stats(field).filter(|s| s.doc_values) else {
            return Ok(None);
        };
        let fid = st.id;
        cached(&self.keyword_dv, fid, || {
            let Some(buf) = snap.gen_blob(self.gen(), &format!("dv/{fid}"))? else {
                return Ok(None);
            };
            // An indexed field's ordinals are its dictionary's keys in order; a field with
            // doc values only stores its list.
            let terms = match self.fst(snap, field)? {
                Some((_, dict)) => {
                    let mut list = ListBuilder::default();
                    let mut keys = dict.stream();
                    while let Some((term, _)) = keys.next() {
                        list.push(term);
                    }
                    list.finish()
                }
                None => match snap.gen_blob(self.gen(), &format!("terms/{fid}"))? {
                    Some(terms) => terms,
                    None => return Ok(None),
                },
            };
            let terms = ListView::new(terms);
            let column = Column::parse(&buf, 0).ok_or_else(|| damaged("keyword doc values", field))?;
            // Every ordinal names a term: aggregations index their counts by ordinal.
            let ordinal_of = |i| column.value(&buf, i) as usize;
            if (0..column.positions()).any(|i| column.holds(&buf, i) && ordinal_of(i) >= terms.len()) {
                return Err(damaged("keyword doc values", field));
            }
            Ok(Some(KeywordDocValues { buf, column, terms }))
        })
    }

    /// The routing document `doc` was loaded with (`_routing`), if any.
    pub fn routing(&self, snap: &Snapshot, doc: u32) -> Result<Option<String>> {
        let Some(dv) = self.keyword_doc_values(snap, super::ROUTING_FIELD)? else {
            return Ok(None);
        };
        let first = dv.ords(doc).next();
        Ok(first.map(|ord| dv.term(ord).to_string()))
    }

    /// Numeric doc values of a field.
    pub fn numeric_doc_values(&self, snap: &Snapshot, field: &str) -> Result<Option<Arc<NumericDocValues>>> {
        let Some(st) = self.field_stats(field).filter(|s| s.doc_values) else {
            return Ok(None);
        };
        let fid = st.id;
        cached(&self.numeric_dv, fid, || {
            let Some(buf) = snap.gen_blob(self.gen(), &format!("dv/{fid}"))? else {
                return Ok(None);
            };
            let is_double = buf.first() == Some(&1);
            let column = Column::parse(&buf, 1).ok_or_else(|| damaged("numeric doc values", field))?;
            Ok(Some(NumericDocValues { is_double, buf, column }))
        })
    }

    /// Sorted points of a numeric field.
    pub fn points(&self, snap: &Snapshot, field: &str) -> Result<Option<Arc<Points>>> {
        let Some(st) = self.field_stats(field).filter(|s| s.doc_values) else {
            return Ok(None);
        };
        let fid = st.id;
        cached(&self.points, fid, || {
            let Some(buf) = snap.gen_blob(self.gen(), &format!("pts/{fid}"))? else {
                return Ok(None);
            };
            let is_double = buf.first() == Some(&1);
            let column = PointColumn::parse(&buf, 1).ok_or_else(|| damaged("points", field))?;
            if (0..column.len()).any(|i| column.doc(&buf, i) >= self.max_doc()) {
                return Err(damaged("points", field));
            }
            Ok(Some(Points { is_double, buf, column }))
        })
    }

    /// The stored `_id`, `_type` and `_source` bytes of a document.
    pub fn document(&self, snap: &Snapshot, doc: u32) -> Result<StoredDoc> {
        self.docs.document(snap, doc)
    }

    /// Every stored document in order (each block read once, without the cache).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn documents<'s>(&self, snap: &'s Snapshot) -> Result<SequentialDocs<'s>> {
        SequentialDocs::new(snap, self.gen(), self.max_doc())
    }
}

/// Reads the positions of one term's documents in posting order, skipping over the
/// documents it is not asked for: it jumps to a candidate's block through the skip
/// entries, so a phrase reads the positions of its candidates' blocks only.
pub struct PositionsCursor<'s, 'p> {
    reader: StreamReader<'s>,
    /// The term's positions address.
    addr: u64,
    freqs: &'p Freqs,
    /// Finds a document's index in the posting.
    places: PostingPlaces<'p>,
    /// Index (in posting order) of the document whose positions come next.
    at: usize,
    /// The block whose frequencies `tfs` holds.
    block: usize,
    tfs: [u32; BLOCK],
}

impl PositionsCursor<'_, '_> {
    /// Appends the positions of `doc` if the posting holds it (and says whether it does);
    /// documents are asked for in ascending order.
    pub fn read_doc(&mut self, doc: u32, out: &mut Vec<u32>) -> Result<bool> {
        match self.places.find(doc) {
            Some(k) => self.read(k, out).map(|_| true),
            None => Ok(false),
        }
    }

    /// Appends the positions of the `k`-th document of the posting; `k` never goes back.
    pub fn read(&mut self, k: usize, out: &mut Vec<u32>) -> Result<()> {
        let b = k / BLOCK;
        if k < self.at || b >= self.freqs.block_count() {
            return Err(Error::storage("positions read out of order"));
        }
        if b != self.block {
            let n = self.freqs.decode_block(b, &mut self.tfs);
            if k % BLOCK >= n {
                return Err(Error::storage("positions read past the posting"));
            }
            if b > 0 && b != self.at / BLOCK {
                // Jump to the block's first document.
                let offset = self.freqs.block(b).map_or(0, |i| i.positions_offset as u64);
                self.reader.seek(self.addr + offset);
                self.at = b * BLOCK;
            }
            self.block = b;
        }
        if self.at < k {
            let skipped: u32 = self.tfs[self.at % BLOCK..k % BLOCK].iter().sum();
            self.reader.skip_varints(skipped as usize)?;
            self.at = k;
        }
        let mut prev = 0u32;
        for _ in 0..self.tfs[k % BLOCK] {
            prev = prev.wrapping_add(self.reader.varint()? as u32);
            out.push(prev);
        }
        self.at = k + 1;
        Ok(())
    }
}
