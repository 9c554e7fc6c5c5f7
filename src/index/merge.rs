//! The streaming k-way merge of a load's runs into one generation, field by field: terms
//! in byte order into the fst, each term's postings from every run (in document order,
//! since runs hold consecutive documents) into the postings and positions streams,
//! then norms, doc values and points. Documents deleted by a later duplicate `_id` are
//! dropped here and the rest renumbered densely.
//!
//! Nothing here grows with the number of documents but a field's norms (a byte per
//! document) and, for keyword doc values, the map from each run's term ranks to final
//! ordinals. A term's postings are written in two passes over its runs' postings (see
//! [`TermScan`]); the fst is built behind the merge on a second thread ([`Dictionaries`]); doc values
//! and points are written in passes over the runs — the first finds the column's range
//! and widths, the next pack the entries into the blob as they come — rather than
//! gathered whole.

use super::blob::BlobWriter;
use super::codec::{get_varint, ListBuilder};
use super::dictionary::Dictionaries;
use super::meta::FieldStats;
use super::norms::{avg_field_length, int_to_byte4, norm_cache};
use super::packed::{ColumnLayout, ColumnStats, PointLayout, PointStats};
use super::postings::{BlockScoring, TermScan};
use super::segment::{NumKind, Run, Section, SectionReader};
use super::stream::StreamWriter;
use crate::error::{Error, Result};
use crate::store::WriteTxn;
use roaring::RoaringBitmap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Which documents survive the load, and their final numbers.
pub struct Live {
    deleted: RoaringBitmap,
}

impl Live {
    /// Every document but `deleted`.
    pub fn new(deleted: RoaringBitmap) -> Live {
        Live { deleted }
    }

    /// The final number of load ordinal `doc`, or `None` when it was replaced.
    pub fn renumber(&self, doc: u32) -> Option<u32> {
        if self.deleted.is_empty() {
            return Some(doc);
        }
        if self.deleted.contains(doc) {
            return None;
        }
        Some(doc - self.deleted.rank(doc) as u32)
    }
}

/// What a field stores.
#[derive(Clone, Copy, Debug)]
pub struct FieldPlan {
    /// Terms and postings.
    pub inverted: bool,
    /// Frequencies, positions and norms (text).
    pub with_freqs: bool,
    /// Keyword doc values (ordinals into the sorted terms).
    pub keyword_values: bool,
    /// Numeric doc values and points.
    pub numbers: Option<NumKind>,
}

/// A posting longer than this stays in its run file and is read again for each pass
/// over the term; shorter ones (nearly all) are kept from the cursor's read.
const INLINE_POSTING: usize = 64 << 10;

/// One run's terms of a field, read in order.
struct TermCursor<'r> {
    run: &'r Run,
    reader: SectionReader<'r>,
    term: Vec<u8>,
    /// The current term's posting: its bytes, or where they lie when longer than
    /// [`INLINE_POSTING`].
    posting: Vec<u8>,
    posting_at: Option<Section>,
    done: bool,
}

impl TermCursor<'_> {
    fn advance(&mut self) -> Result<()> {
        if self.reader.at_end() {
            self.done = true;
            return Ok(());
        }
        let n = self.reader.varint()? as usize;
        self.reader.read_vec(n, &mut self.term)?;
        let n = self.reader.varint()? as usize;
        if n > INLINE_POSTING {
            self.posting_at = Some(Section::new(self.reader.position(), n as u64));
            self.posting.clear();
            self.reader.skip(n)
        } else {
            self.posting_at = None;
            self.reader.read_vec(n, &mut self.posting)
        }
    }
}

fn corrupt() -> Error {
    Error::storage("load temporary file: corrupt posting")
}

/// Calls `each` with every surviving document (renumbered) of a run's posting bytes (see
/// `terms.rs` for their layout) and, with frequencies, its positions.
fn decode_posting(
    bytes: &[u8],
    with_freqs: bool,
    live: &Live,
    positions: &mut Vec<u32>,
    each: &mut dyn FnMut(u32, &[u32]) -> Result<()>,
) -> Result<()> {
    let mut i = 0;
    let mut doc = 0u32;
    while i < bytes.len() {
        doc += get_varint(bytes, &mut i).ok_or_else(corrupt)?;
        let renumbered = live.renumber(doc);
        positions.clear();
        if with_freqs {
            let mut pos = 0u32;
            while i < bytes.len() {
                let v = get_varint(bytes, &mut i).ok_or_else(corrupt)?;
                if v == 0 {
                    break;
                }
                pos += v - 1;
                positions.push(pos);
            }
        }
        if let Some(d) = renumbered {
            each(d, positions)?;
        }
    }
    Ok(())
}

/// Reads a term's postings again from the runs that hold it (`from`, in document order):
/// each surviving document and its positions.
struct TermWalk<'c, 'r> {
    cursors: &'c [TermCursor<'r>],
    from: &'c [usize],
    with_freqs: bool,
    live: &'c Live,
}

impl TermWalk<'_, '_> {
    fn run(
        &self,
        scratch: &mut Vec<u8>,
        positions: &mut Vec<u32>,
        each: &mut dyn FnMut(u32, &[u32]) -> Result<()>,
    ) -> Result<()> {
        for &k in self.from {
            let c = &self.cursors[k];
            let bytes = match c.posting_at {
                None => &c.posting,
                Some(at) => {
                    c.run.reader(at).read_vec(at.byte_len() as usize, scratch)?;
                    &*scratch
                }
            };
            decode_posting(bytes, self.with_freqs, self.live, positions, each)?;
        }
        Ok(())
    }
}

/// What every field's merge reads from and writes to.
pub struct Merge<'a> {
    /// The new generation.
    pub generation: u64,
    /// The load's runs, in document order.
    pub runs: &'a [Run],
    /// The surviving documents.
    pub live: &'a Live,
    /// How many survive.
    pub live_docs: u32,
}

/// Writes field `field` (numbered `fid` in the generation) from every run; returns its
/// statistics (with `fid`) and the bytes written.
pub fn merge_field(
    txn: &mut WriteTxn,
    merge: &Merge<'_>,
    dictionaries: &mut Dictionaries,
    fid: u32,
    field: usize,
    plan: FieldPlan,
) -> Result<(FieldStats, u64)> {
    let Merge { generation, runs, live, live_docs } = *merge;
    let mut st = FieldStats {
        id: fid,
        doc_count: 0,
        sum_total_term_freq: 0,
        sum_doc_freq: 0,
        terms: 0,
        inverted: plan.inverted,
        doc_values: plan.keyword_values || plan.numbers.is_some(),
    };
    let mut size = 0u64;
    let section =
        |r: &Run, pick: fn(&super::segment::FieldRun) -> Section| r.fields.get(field).map(pick).unwrap_or_default();
    // Norms first: the blocks' best scores need the field's final average length.
    let norms = if plan.with_freqs {
        let mut norms = Vec::with_capacity(live_docs as usize);
        let (mut docs, mut sum) = (0u64, 0u64);
        for run in runs {
            let s = section(run, |f| f.lengths);
            let mut r = run.reader(s);
            for d in run.base..run.base + run.docs {
                let (len, tokens) = if r.at_end() { (0, 0) } else { (r.u32()?, r.u32()?) };
                if live.renumber(d).is_some() {
                    norms.push(int_to_byte4(len));
                    // Lucene's sumTotalTermFreq counts every token, stacked ones too.
                    if tokens > 0 {
                        docs += 1;
                        sum += tokens as u64;
                    }
                }
            }
        }
        st.doc_count = docs;
        st.sum_total_term_freq = sum;
        Some(norms)
    } else {
        None
    };
    let scoring = BlockScoring {
        norms: norms.as_deref().unwrap_or_default(),
        length_factor: norm_cache(avg_field_length(st.sum_total_term_freq, st.doc_count)),
    };
    // Terms, merged across runs; `ords[run][rank]` is the final ordinal of a run's term.
    let mut cursors = Vec::with_capacity(runs.len());
    for run in runs {
        let mut c = TermCursor {
            run,
            reader: run.reader(section(run, |f| f.terms)),
            term: Vec::new(),
            posting: Vec::new(),
            posting_at: None,
            done: false,
        };
        c.advance()?;
        cursors.push(c);
    }
    let mut ords: Vec<Vec<u32>> = vec![Vec::new(); runs.len()];
    // The dictionary is built behind the merge, from the terms spilled here.
    let mut dictionary = if plan.inverted { Some(dictionaries.field(fid)?) } else { None };
    let mut postings = StreamWriter::new("postings", fid);
    let mut positions = StreamWriter::new("positions", fid);
    // The ordinal -> term list of keyword doc values. An indexed field's list is its
    // dictionary's keys in order, which readers take from the fst; only doc values of a
    // field that is not indexed store a list of their own.
    let mut term_list = ListBuilder::default();
    // Which documents hold a term (a bit each: they come in any order across terms).
    let mut with_terms = vec![0u64; (live_docs as usize).div_ceil(64)];
    let (mut scratch, mut term_positions) = (Vec::new(), Vec::new());
    let mut ordinal = 0u32;
    let mut current: Vec<u8> = Vec::new();
    let mut from = Vec::with_capacity(runs.len());
    let mut scan = TermScan::new();
    while let Some(min) = cursors.iter().filter(|c| !c.done).map(|c| &c.term).min() {
        current.clear();
        current.extend_from_slice(min);
        from.clear();
        from.extend(cursors.iter().enumerate().filter(|(_, c)| !c.done && c.term == current).map(|(k, _)| k));
        let walk = TermWalk { cursors: &cursors, from: &from, with_freqs: plan.with_freqs, live };
        // First pass: count the documents, write their positions and the blocks' skip
        // entries.
        scan.start(plan.with_freqs.then(|| positions.base + positions.buf.len() as u64));
        walk.run(&mut scratch, &mut term_positions, &mut |doc, pos| {
            if plan.with_freqs {
                let at = positions.base + positions.buf.len() as u64;
                scan.add_text(doc, pos, &mut positions.buf, at, &scoring);
                positions.drain(txn, generation)
            } else {
                scan.add_doc(doc);
                if let Some(w) = with_terms.get_mut(doc as usize / 64) {
                    *w |= 1 << (doc % 64);
                }
                Ok(())
            }
        })?;
        let doc_freq = scan.len();
        // A term left only in replaced documents is gone.
        let gone = scan.is_empty();
        let ord = if gone { u32::MAX } else { ordinal };
        for &k in &from {
            ords[k].push(ord);
        }
        if !gone {
            ordinal += 1;
            if plan.keyword_values && !plan.inverted {
                term_list.push(&current);
            }
            if plan.inverted {
                let addr = postings.base + postings.buf.len() as u64;
                // Second pass, for terms long enough to have blocks: pack them.
                if let Some(mut packer) = scan.header(&mut postings.buf, &scoring) {
                    walk.run(&mut scratch, &mut term_positions, &mut |doc, pos| {
                        packer.add(&mut postings.buf, doc, pos.len() as u32);
                        postings.drain(txn, generation)
                    })?;
                    packer.finish(&mut postings.buf);
                }
                if let Some(d) = dictionary.as_mut() {
                    d.insert(&current, addr)?;
                }
                st.sum_doc_freq += doc_freq;
                st.terms += 1;
                postings.drain(txn, generation)?;
                positions.drain(txn, generation)?;
            }
        }
        for &k in &from {
            cursors[k].advance()?;
        }
    }
    if plan.inverted {
        size += postings.finish(txn, generation)?;
        if plan.with_freqs {
            size += positions.finish(txn, generation)?;
        } else {
            st.doc_count = with_terms.iter().map(|w| w.count_ones() as u64).sum();
            st.sum_total_term_freq = st.sum_doc_freq;
        }
        if let Some(d) = dictionary.take() {
            dictionaries.submit(txn, d)?;
        }
        if let Some(norms) = &norms {
            size += norms.len() as u64;
            txn.gen_put_blob(generation, &format!("norms/{fid}"), norms)?;
        }
    }
    if plan.keyword_values {
        let source = ValueSource::Keyword(&ords);
        let key = format!("dv/{fid}");
        let (bytes, with_values) =
            write_column(txn, generation, key, None, |f| for_each_doc_values(runs, field, source, live, f))?;
        if !plan.inverted {
            st.doc_count = with_values;
        }
        size += bytes;
        if !plan.inverted {
            let terms = term_list.finish();
            size += terms.len() as u64;
            txn.gen_put_blob(generation, &format!("terms/{fid}"), &terms)?;
        }
    }
    if let Some(kind) = plan.numbers {
        let source = ValueSource::Numbers(kind);
        let tag = Some(if kind == NumKind::Double { 1 } else { 0 });
        let key = format!("dv/{fid}");
        let (bytes, with_values) =
            write_column(txn, generation, key, tag, |f| for_each_doc_values(runs, field, source, live, f))?;
        if !plan.inverted {
            st.doc_count = with_values;
        }
        size += bytes;
        size += write_points(txn, generation, fid, runs, field, kind, live)?;
    }
    Ok((st, size))
}

/// Walks a run's doc-value records (documents ascending, a value each, a document
/// repeated per value) and calls `each` once per document of the run with its values
/// (none for a document without any).
fn per_document<V>(
    run: &Run,
    section: Section,
    mut read: impl FnMut(&mut SectionReader<'_>) -> Result<V>,
    mut each: impl FnMut(u32, &[V]) -> Result<()>,
) -> Result<()> {
    let mut r = run.reader(section);
    let mut pending: Option<(u32, V)> = None;
    let mut values = Vec::new();
    for d in run.base..run.base + run.docs {
        values.clear();
        loop {
            let (doc, v) = match pending.take() {
                Some(p) => p,
                None if r.at_end() => break,
                None => {
                    let doc = run.base + r.varint()? as u32;
                    (doc, read(&mut r)?)
                }
            };
            if doc != d {
                pending = Some((doc, v));
                break;
            }
            values.push(v);
        }
        each(d, &values)?;
    }
    Ok(())
}

/// Where a field's doc values come from (they are walked once per pass).
#[derive(Clone, Copy)]
enum ValueSource<'a> {
    /// Keyword ordinals: each run's term ranks and `ords[run][rank]`, their final ordinals.
    Keyword(&'a [Vec<u32>]),
    /// Numbers, sorted per document by their kind.
    Numbers(NumKind),
}

/// Calls `each` with every surviving document's values, in final document order, each
/// document's ascending (keyword ordinals once each).
fn for_each_doc_values(
    runs: &[Run],
    field: usize,
    source: ValueSource<'_>,
    live: &Live,
    each: &mut dyn FnMut(&[u64]) -> Result<()>,
) -> Result<()> {
    let mut values: Vec<u64> = Vec::new();
    for (k, run) in runs.iter().enumerate() {
        let section = run.fields.get(field).map(|f| f.doc_values).unwrap_or_default();
        match source {
            ValueSource::Keyword(ords) => per_document(
                run,
                section,
                |r| Ok(r.varint()? as u32),
                |d, ranks| {
                    if live.renumber(d).is_none() {
                        return Ok(());
                    }
                    values.clear();
                    for &rank in ranks {
                        let ord = ords[k].get(rank as usize).copied().ok_or_else(corrupt)?;
                        // Ranks arrive sorted and ordinals follow ranks, so a repeated value
                        // is the previous one.
                        if ord != u32::MAX && values.last() != Some(&u64::from(ord)) {
                            values.push(u64::from(ord));
                        }
                    }
                    each(&values)
                },
            )?,
            ValueSource::Numbers(kind) => per_document(
                run,
                section,
                |r| r.u64(),
                |d, found| {
                    if live.renumber(d).is_none() {
                        return Ok(());
                    }
                    values.clear();
                    values.extend_from_slice(found);
                    values.sort_by(|a, b| kind.cmp(*a, *b));
                    each(&values)
                },
            )?,
        }
    }
    Ok(())
}

/// Writes the doc-values column blob `key` (after the numeric fields' `tag` byte) of the
/// documents that `walk` visits, in two or three passes: the column's range and form
/// first, then its slots, or its offsets and then its values. Returns the blob's length
/// and how many documents have a value.
fn write_column(
    txn: &mut WriteTxn,
    generation: u64,
    key: String,
    tag: Option<u8>,
    mut walk: impl FnMut(&mut dyn FnMut(&[u64]) -> Result<()>) -> Result<()>,
) -> Result<(u64, u64)> {
    let mut stats = ColumnStats::default();
    walk(&mut |values| {
        stats.add(values);
        Ok(())
    })?;
    let mut blob = BlobWriter::new(generation, key);
    blob.buf.extend(tag);
    let layout = ColumnLayout::header(&mut blob.buf, &stats);
    if layout.single {
        let mut slots = layout.value_packer();
        walk(&mut |values| {
            slots.push(&mut blob.buf, layout.slot(values));
            blob.drain(txn)
        })?;
        slots.finish(&mut blob.buf);
    } else {
        let (mut offsets, mut total) = (layout.offset_packer(), 0u64);
        offsets.push(&mut blob.buf, 0);
        walk(&mut |values| {
            total += values.len() as u64;
            offsets.push(&mut blob.buf, total);
            blob.drain(txn)
        })?;
        offsets.finish(&mut blob.buf);
        let mut packed = layout.value_packer();
        walk(&mut |values| {
            for &v in values {
                packed.push(&mut blob.buf, layout.value(v));
            }
            blob.drain(txn)
        })?;
        packed.finish(&mut blob.buf);
    }
    Ok((blob.finish(txn)?, stats.with_values()))
}

/// Writes blob `pts/{fid}`: every (value, document) pair sorted by value then document,
/// merged from the runs' sorted sections, in three passes (the range, the values, the
/// documents); returns its length.
fn write_points(
    txn: &mut WriteTxn,
    generation: u64,
    fid: u32,
    runs: &[Run],
    field: usize,
    kind: NumKind,
    live: &Live,
) -> Result<u64> {
    let mut stats = PointStats::default();
    let mut merge = PointMerge::new(runs, field, kind, live)?;
    while let Some((v, d)) = merge.next()? {
        stats.add(v, d);
    }
    let mut blob = BlobWriter::new(generation, format!("pts/{fid}"));
    blob.buf.push(if kind == NumKind::Double { 1 } else { 0 });
    let layout = PointLayout::header(&mut blob.buf, &stats);
    let mut values = layout.value_packer();
    let mut merge = PointMerge::new(runs, field, kind, live)?;
    while let Some((v, _)) = merge.next()? {
        values.push(&mut blob.buf, layout.value(v));
        blob.drain(txn)?;
    }
    values.finish(&mut blob.buf);
    let mut docs = layout.doc_packer();
    let mut merge = PointMerge::new(runs, field, kind, live)?;
    while let Some((_, d)) = merge.next()? {
        docs.push(&mut blob.buf, u64::from(d));
        blob.drain(txn)?;
    }
    docs.finish(&mut blob.buf);
    blob.finish(txn)
}

/// A field's points from every run in value then document order, renumbered, without
/// replaced documents and without a document's repeats of a value.
struct PointMerge<'r> {
    kind: NumKind,
    live: &'r Live,
    readers: Vec<SectionReader<'r>>,
    /// Each run's next point as (order key, document, run, value bits).
    heads: BinaryHeap<Reverse<(i64, u32, usize, u64)>>,
    last: Option<(u64, u32)>,
}

impl<'r> PointMerge<'r> {
    fn new(runs: &'r [Run], field: usize, kind: NumKind, live: &'r Live) -> Result<PointMerge<'r>> {
        let mut merge = PointMerge { kind, live, readers: Vec::new(), heads: BinaryHeap::new(), last: None };
        for (k, run) in runs.iter().enumerate() {
            merge.readers.push(run.reader(run.fields.get(field).map(|f| f.points).unwrap_or_default()));
            merge.refill(k)?;
        }
        Ok(merge)
    }

    fn refill(&mut self, k: usize) -> Result<()> {
        if let Some((v, d)) = next_point(&mut self.readers[k])? {
            self.heads.push(Reverse((order_key(self.kind, v), d, k, v)));
        }
        Ok(())
    }

    fn next(&mut self) -> Result<Option<(u64, u32)>> {
        while let Some(Reverse((_, d, k, v))) = self.heads.pop() {
            self.refill(k)?;
            let Some(d) = self.live.renumber(d) else { continue };
            let same = |(lv, ld): (u64, u32)| {
                ld == d
                    && match self.kind {
                        NumKind::Long => lv == v,
                        NumKind::Double => f64::from_bits(lv) == f64::from_bits(v),
                    }
            };
            if self.last.is_some_and(same) {
                continue;
            }
            self.last = Some((v, d));
            return Ok(Some((v, d)));
        }
        Ok(None)
    }
}

/// An integer that orders value bits as [`NumKind::cmp`] does: a long itself; a double's
/// bits with the magnitude bits flipped when negative (the total order of `f64::total_cmp`).
fn order_key(kind: NumKind, v: u64) -> i64 {
    let x = v as i64;
    match kind {
        NumKind::Long => x,
        NumKind::Double => x ^ ((((x >> 63) as u64) >> 1) as i64),
    }
}

fn next_point(r: &mut SectionReader<'_>) -> Result<Option<(u64, u32)>> {
    if r.at_end() {
        return Ok(None);
    }
    let v = r.u64()?;
    let d = r.varint()? as u32;
    Ok(Some((v, d)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn order_keys_order_as_the_kinds_compare(a in any::<u64>(), b in any::<u64>(), x in any::<f64>(), y in any::<f64>()) {
            for kind in [NumKind::Long, NumKind::Double] {
                prop_assert_eq!(order_key(kind, a).cmp(&order_key(kind, b)), kind.cmp(a, b));
            }
            let (x, y) = (x.to_bits(), y.to_bits());
            prop_assert_eq!(order_key(NumKind::Double, x).cmp(&order_key(NumKind::Double, y)), NumKind::Double.cmp(x, y));
        }
    }
}
