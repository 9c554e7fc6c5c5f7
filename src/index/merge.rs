//! The streaming k-way merge of a load's runs into one generation, field by field: terms
//! in byte order into the fst, each term's postings from every run (in document order,
//! since runs hold consecutive documents) into the postings and positions streams,
//! then norms, doc values and points. Documents deleted by a later duplicate `_id` are
//! dropped here and the rest renumbered densely.
//!
//! Only one term's postings, one field's norms and one field's doc values are in memory
//! at a time.

use super::codec::{get_varint, ListBuilder};
use super::meta::FieldStats;
use super::norms::{avg_field_length, int_to_byte4, norm_cache};
use super::packed;
use super::postings::{encode_term, BlockScoring, TextTerm};
use super::segment::{NumKind, Run, Section, SectionReader};
use super::stream::StreamWriter;
use crate::error::{Error, Result};
use crate::store::WriteTxn;
use roaring::RoaringBitmap;

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

/// One run's terms of a field, read in order.
struct TermCursor<'r> {
    reader: SectionReader<'r>,
    term: Vec<u8>,
    posting: Vec<u8>,
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
        self.reader.read_vec(n, &mut self.posting)
    }
}

fn corrupt() -> Error {
    Error::storage("load temporary file: corrupt posting")
}

/// One term's documents (renumbered), frequencies and positions, gathered from its runs.
#[derive(Default)]
struct TermPostings {
    docs: Vec<u32>,
    tfs: Vec<u32>,
    positions: Vec<u32>,
}

impl TermPostings {
    fn clear(&mut self) {
        self.docs.clear();
        self.tfs.clear();
        self.positions.clear();
    }

    /// Adds a run's posting bytes (see `terms.rs` for their layout).
    fn add(&mut self, bytes: &[u8], with_freqs: bool, live: &Live) -> Result<()> {
        let mut i = 0;
        let mut doc = 0u32;
        while i < bytes.len() {
            doc += get_varint(bytes, &mut i).ok_or_else(corrupt)?;
            let renumbered = live.renumber(doc);
            if !with_freqs {
                if let Some(d) = renumbered {
                    self.docs.push(d);
                }
                continue;
            }
            let (mut tf, mut pos) = (0u32, 0u32);
            while i < bytes.len() {
                let v = get_varint(bytes, &mut i).ok_or_else(corrupt)?;
                if v == 0 {
                    break;
                }
                pos += v - 1;
                tf += 1;
                if renumbered.is_some() {
                    self.positions.push(pos);
                }
            }
            if let Some(d) = renumbered {
                self.docs.push(d);
                self.tfs.push(tf);
            }
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
                let len = if r.at_end() { 0 } else { r.u32()? };
                if live.renumber(d).is_some() {
                    norms.push(int_to_byte4(len));
                    if len > 0 {
                        docs += 1;
                        sum += len as u64;
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
            reader: run.reader(section(run, |f| f.terms)),
            term: Vec::new(),
            posting: Vec::new(),
            done: false,
        };
        c.advance()?;
        cursors.push(c);
    }
    let mut ords: Vec<Vec<u32>> = vec![Vec::new(); runs.len()];
    let mut fst_builder = fst::MapBuilder::memory();
    let mut postings = StreamWriter::new("postings", fid);
    let mut positions = StreamWriter::new("positions", fid);
    // The ordinal -> term list of keyword doc values. An indexed field's list is its
    // dictionary's keys in order, which readers take from the fst; only doc values of a
    // field that is not indexed store a list of their own.
    let mut term_list = ListBuilder::default();
    let mut with_terms = RoaringBitmap::new();
    let mut acc = TermPostings::default();
    let mut ordinal = 0u32;
    let mut current: Vec<u8> = Vec::new();
    while let Some(min) = cursors.iter().filter(|c| !c.done).map(|c| &c.term).min() {
        current.clear();
        current.extend_from_slice(min);
        acc.clear();
        let mut from = Vec::with_capacity(runs.len());
        for (k, c) in cursors.iter_mut().enumerate() {
            if !c.done && c.term == current {
                acc.add(&c.posting, plan.with_freqs, live)?;
                from.push(k);
                c.advance()?;
            }
        }
        // A term left only in replaced documents is gone.
        let ord = if acc.docs.is_empty() { u32::MAX } else { ordinal };
        for k in from {
            ords[k].push(ord);
        }
        if acc.docs.is_empty() {
            continue;
        }
        ordinal += 1;
        if plan.keyword_values && !plan.inverted {
            term_list.push(&current);
        }
        if !plan.inverted {
            continue;
        }
        if !plan.with_freqs {
            with_terms.extend(acc.docs.iter().copied());
        }
        let text = plan.with_freqs.then(|| TextTerm {
            tfs: &acc.tfs,
            positions: &acc.positions,
            positions_out: &mut positions.buf,
            positions_base: positions.base,
            scoring: &scoring,
        });
        let addr = postings.base + encode_term(&mut postings.buf, &acc.docs, text);
        fst_builder.insert(&current, addr).map_err(|e| Error::storage(format!("term dictionary: {e}")))?;
        st.sum_doc_freq += acc.docs.len() as u64;
        st.terms += 1;
        postings.drain(txn, generation)?;
        positions.drain(txn, generation)?;
    }
    if plan.inverted {
        size += postings.finish(txn, generation)?;
        if plan.with_freqs {
            size += positions.finish(txn, generation)?;
        } else {
            st.doc_count = with_terms.len();
            st.sum_total_term_freq = st.sum_doc_freq;
        }
        let fst_bytes = fst_builder.into_inner().map_err(|e| Error::storage(format!("term dictionary: {e}")))?;
        size += fst_bytes.len() as u64;
        txn.gen_put_blob(generation, &format!("fst/{fid}"), &fst_bytes)?;
        if let Some(norms) = &norms {
            size += norms.len() as u64;
            txn.gen_put_blob(generation, &format!("norms/{fid}"), norms)?;
        }
    }
    if plan.keyword_values {
        let (dv, with_values) = keyword_values(runs, field, &ords, live, live_docs)?;
        if !plan.inverted {
            st.doc_count = with_values;
        }
        size += dv.len() as u64;
        txn.gen_put_blob(generation, &format!("dv/{fid}"), &dv)?;
        if !plan.inverted {
            let terms = term_list.finish();
            size += terms.len() as u64;
            txn.gen_put_blob(generation, &format!("terms/{fid}"), &terms)?;
        }
    }
    if let Some(kind) = plan.numbers {
        let (dv, with_values) = numeric_values(runs, field, kind, live, live_docs)?;
        if !plan.inverted {
            st.doc_count = with_values;
        }
        size += dv.len() as u64;
        txn.gen_put_blob(generation, &format!("dv/{fid}"), &dv)?;
        let pts = points(runs, field, kind, live)?;
        size += pts.len() as u64;
        txn.gen_put_blob(generation, &format!("pts/{fid}"), &pts)?;
    }
    Ok((st, size))
}

/// Per-document values gathered in document order, encoded as a [`packed`] column.
struct ValuesOut {
    offsets: Vec<u32>,
    values: Vec<u64>,
    with_values: u64,
}

impl ValuesOut {
    fn new(live_docs: u32) -> ValuesOut {
        let mut offsets = Vec::with_capacity(live_docs as usize + 1);
        offsets.push(0);
        ValuesOut { offsets, values: Vec::new(), with_values: 0 }
    }

    fn end_doc(&mut self, added: usize) {
        if added > 0 {
            self.with_values += 1;
        }
        self.offsets.push(self.values.len() as u32);
    }

    /// The blob: `kind` (numeric fields' byte), then the column; and the number of
    /// documents with a value.
    fn encode(self, kind: Option<u8>) -> (Vec<u8>, u64) {
        let mut out = Vec::new();
        out.extend(kind);
        packed::encode_column(&mut out, &self.offsets, &self.values);
        (out, self.with_values)
    }
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

fn keyword_values(
    runs: &[Run],
    field: usize,
    ords: &[Vec<u32>],
    live: &Live,
    live_docs: u32,
) -> Result<(Vec<u8>, u64)> {
    let mut out = ValuesOut::new(live_docs);
    for (k, run) in runs.iter().enumerate() {
        let section = run.fields.get(field).map(|f| f.doc_values).unwrap_or_default();
        per_document(
            run,
            section,
            |r| Ok(r.varint()? as u32),
            |d, ranks| {
                if live.renumber(d).is_none() {
                    return Ok(());
                }
                let start = out.values.len();
                for &rank in ranks {
                    let ord = ords[k].get(rank as usize).copied().ok_or_else(corrupt)?;
                    // Ranks arrive sorted and ordinals follow ranks, so a repeated value
                    // is the previous one.
                    let repeated = out.values.len() > start && out.values.last() == Some(&u64::from(ord));
                    if ord != u32::MAX && !repeated {
                        out.values.push(u64::from(ord));
                    }
                }
                let added = out.values.len() - start;
                out.end_doc(added);
                Ok(())
            },
        )?;
    }
    Ok(out.encode(None))
}

fn numeric_values(runs: &[Run], field: usize, kind: NumKind, live: &Live, live_docs: u32) -> Result<(Vec<u8>, u64)> {
    let mut out = ValuesOut::new(live_docs);
    for run in runs {
        let section = run.fields.get(field).map(|f| f.doc_values).unwrap_or_default();
        per_document(
            run,
            section,
            |r| r.u64(),
            |d, values| {
                if live.renumber(d).is_some() {
                    let start = out.values.len();
                    out.values.extend_from_slice(values);
                    out.values[start..].sort_by(|a, b| kind.cmp(*a, *b));
                    out.end_doc(values.len());
                }
                Ok(())
            },
        )?;
    }
    let tag = if kind == NumKind::Double { 1 } else { 0 };
    Ok(out.encode(Some(tag)))
}

/// Points: every (value, document) pair sorted by value then document, merged from the
/// runs' sorted sections.
fn points(runs: &[Run], field: usize, kind: NumKind, live: &Live) -> Result<Vec<u8>> {
    let mut readers: Vec<SectionReader<'_>> =
        runs.iter().map(|run| run.reader(run.fields.get(field).map(|f| f.points).unwrap_or_default())).collect();
    let mut heads: Vec<Option<(u64, u32)>> = Vec::with_capacity(readers.len());
    for r in readers.iter_mut() {
        heads.push(next_point(r)?);
    }
    let (mut values, mut docs) = (Vec::new(), Vec::new());
    let mut last: Option<(u64, u32)> = None;
    loop {
        let mut best: Option<usize> = None;
        for (k, h) in heads.iter().enumerate() {
            if let Some((v, d)) = h {
                let better = match best.and_then(|b| heads[b]) {
                    None => true,
                    Some((bv, bd)) => kind.cmp(*v, bv).then(d.cmp(&bd)).is_lt(),
                };
                if better {
                    best = Some(k);
                }
            }
        }
        let Some(k) = best else { break };
        let Some((v, d)) = heads[k] else { break };
        heads[k] = next_point(&mut readers[k])?;
        let Some(d) = live.renumber(d) else { continue };
        let same = |(lv, ld): (u64, u32)| {
            ld == d
                && match kind {
                    NumKind::Long => lv == v,
                    NumKind::Double => f64::from_bits(lv) == f64::from_bits(v),
                }
        };
        if last.is_some_and(same) {
            continue;
        }
        last = Some((v, d));
        values.push(v);
        docs.push(d);
    }
    let mut out = vec![if kind == NumKind::Double { 1 } else { 0 }];
    packed::encode_points(&mut out, &values, &docs);
    Ok(out)
}

fn next_point(r: &mut SectionReader<'_>) -> Result<Option<(u64, u32)>> {
    if r.at_end() {
        return Ok(None);
    }
    let v = r.u64()?;
    let d = r.varint()? as u32;
    Ok(Some((v, d)))
}
