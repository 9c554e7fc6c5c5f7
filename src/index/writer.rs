//! Builds one immutable generation from a stream of prepared documents (`prepare.rs`)
//! in bounded memory.
//!
//! Documents are inverted into the current segment (`segment.rs`: per field an
//! arena-backed term table with compressed postings, doc values as columns); when the
//! segment's memory passes the budget it is written sorted to a temporary run and the
//! arena starts over. Sources are spooled to a temporary file as they arrive. At the
//! end the runs are merged field by field into the generation's tables (`merge.rs`),
//! dropping the documents a later duplicate `_id` replaced.

use super::arena::Arena;
use super::dictionary::Dictionaries;
use super::docstore::{DocStoreBlocks, DocStoreBuilder};
use super::merge::{merge_field, FieldPlan, Live, Merge};
use super::meta::{Definition, FieldStats, IndexMeta};
use super::prepare::{Prepared, Schema, TermUse};
use super::segment::{flush, temp_file, FieldSegment, NumKind, Run, Section, SectionReader};
use super::terms::term_hash;
use super::{DocSet, ID_FIELD};
use crate::error::{Error, Result};
use crate::store::WriteTxn;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The memory budget of a load's segment when none is given.
pub const DEFAULT_MEMORY: usize = 256 << 20;

/// A field in the segment writer: what it stores and what the current segment holds.
struct FieldState {
    plan: FieldPlan,
    seg: FieldSegment,
}

/// An append-only temporary file read back in order (spooled sources).
struct Spool {
    out: BufWriter<File>,
    len: u64,
}

impl Spool {
    fn new(dir: &Path) -> Result<Spool> {
        Ok(Spool { out: BufWriter::with_capacity(1 << 16, temp_file(dir)?), len: 0 })
    }

    fn append(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.write_all(bytes).map_err(|e| Error::storage(format!("load temporary file: {e}")))?;
        self.len += bytes.len() as u64;
        Ok(())
    }

    fn finish(self) -> Result<(File, Section)> {
        let file = self.out.into_inner().map_err(|e| Error::storage(format!("load temporary file: {e}")))?;
        Ok((file, Section::new(0, self.len)))
    }
}

/// Inverts prepared documents into segments within a memory budget, spilling each full
/// segment to a run, and spools their records.
pub struct SegmentWriter {
    fields: Vec<FieldState>,
    arena: Arena,
    doc_count: u32,
    segment_base: u32,
    runs: Vec<Run>,
    budget: usize,
    dir: PathBuf,
    sources: Spool,
    /// The hashes of a batch's terms, taken ahead of their lookups.
    hashes: Vec<u64>,
}

/// How many terms ahead of its lookup a term's table entry is prefetched; its slot is
/// prefetched half as far ahead, once the entry is likely cached.
const PREFETCH_AHEAD: usize = 12;

impl SegmentWriter {
    /// A writer that keeps a segment within about `budget` bytes and spills to unnamed
    /// temporary files in `dir`.
    pub fn new(budget: usize, dir: &Path) -> Result<SegmentWriter> {
        Ok(SegmentWriter {
            fields: Vec::new(),
            arena: Arena::default(),
            doc_count: 0,
            segment_base: 0,
            runs: Vec::new(),
            budget,
            dir: dir.to_path_buf(),
            sources: Spool::new(dir)?,
            hashes: Vec::new(),
        })
    }

    /// Number of documents added so far (replaced ones included).
    pub fn doc_count(&self) -> u32 {
        self.doc_count
    }

    /// Bytes the current segment holds.
    pub fn memory(&self) -> usize {
        self.arena.memory() + self.fields.iter().map(|f| f.seg.memory()).sum::<usize>()
    }

    /// Adds a batch of prepared documents (their load ordinals follow the last batch's).
    pub fn add(&mut self, batch: &Prepared) -> Result<()> {
        self.sources.append(&batch.spool)?;
        let mut notices = batch.fields.iter().peekable();
        self.hashes.clear();
        self.hashes.extend(batch.ops.iter().map(|op| term_hash(&batch.term_bytes[op.at..op.at + op.len])));
        let (mut ops, mut lengths, mut numbers) = (0, 0, 0);
        for (i, end) in batch.docs.iter().enumerate() {
            while let Some(n) = notices.next_if(|n| n.before_doc <= i) {
                self.define(n.field, n.plan);
            }
            let doc = self.doc_count;
            self.doc_count += 1;
            for (k, op) in batch.ops.iter().enumerate().take(end.ops).skip(ops) {
                for (ahead, slot_too) in [(PREFETCH_AHEAD, false), (PREFETCH_AHEAD / 2, true)] {
                    if let Some(next) = batch.ops.get(k + ahead) {
                        if let Some(f) = self.fields.get(next.field as usize) {
                            f.seg.terms.prefetch(self.hashes[k + ahead], slot_too);
                        }
                    }
                }
                let seg = &mut self.fields[op.field as usize].seg;
                let id = seg.terms.intern(&mut self.arena, &batch.term_bytes[op.at..op.at + op.len], self.hashes[k]);
                match op.kind {
                    TermUse::At(pos) => seg.terms.add_position(&mut self.arena, id, doc, pos),
                    TermUse::Doc => seg.terms.add_doc(&mut self.arena, id, doc),
                    TermUse::DocValue => {
                        seg.terms.add_doc(&mut self.arena, id, doc);
                        seg.keywords.push((doc, id));
                    }
                }
            }
            for &(field, length, tokens) in &batch.lengths[lengths..end.lengths] {
                let seg = &mut self.fields[field as usize].seg;
                let at = (doc - self.segment_base) as usize;
                if seg.lengths.len() <= at {
                    seg.lengths.resize(at + 1, (0, 0));
                }
                seg.lengths[at] = (length, tokens);
            }
            for &(field, bits) in &batch.numbers[numbers..end.numbers] {
                self.fields[field as usize].seg.numbers.push((doc, bits));
            }
            (ops, lengths, numbers) = (end.ops, end.lengths, end.numbers);
            if self.memory() >= self.budget {
                self.flush_segment()?;
            }
        }
        for n in notices {
            self.define(n.field, n.plan);
        }
        Ok(())
    }

    /// Creates field `field`, or gives it a new plan keeping what it gathered so far.
    fn define(&mut self, field: usize, plan: FieldPlan) {
        match self.fields.get_mut(field) {
            Some(f) => f.plan = plan,
            None => {
                debug_assert_eq!(field, self.fields.len(), "fields are announced in order");
                self.fields.push(FieldState { plan, seg: FieldSegment::default() });
            }
        }
    }

    /// Writes the current segment to a run and starts the next.
    fn flush_segment(&mut self) -> Result<()> {
        let docs = self.doc_count - self.segment_base;
        if docs == 0 {
            return Ok(());
        }
        let mut fields: Vec<(&mut FieldSegment, Option<NumKind>)> =
            self.fields.iter_mut().map(|f| (&mut f.seg, f.plan.numbers)).collect();
        let run = flush(&self.dir, &mut self.arena, &mut fields, self.segment_base, docs)?;
        self.runs.push(run);
        self.segment_base = self.doc_count;
        release_free_memory();
        Ok(())
    }

    /// Writes the last segment; after this the documents are fixed and their `_id`s can be
    /// checked for duplicates. `schema` names the fields the documents were prepared with.
    pub fn seal(mut self, schema: Schema) -> Result<Segments> {
        self.flush_segment()?;
        Ok(Segments { schema, runs: self.runs, sources: self.sources, doc_count: self.doc_count, dir: self.dir })
    }
}

/// Gives the allocator's free pages back to the system. A segment's tables and arena
/// are freed on the build thread while other threads allocate, and glibc keeps what a
/// thread's arena freed, so without this the resident size grew with every segment
/// (353 MB after 1,000,000 records, 482 MB after 3,000,000).
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: glibc's malloc_trim takes no pointer and may be called from any thread.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// A load's documents once written: its fields, runs and spooled records.
pub struct Segments {
    schema: Schema,
    runs: Vec<Run>,
    sources: Spool,
    doc_count: u32,
    dir: PathBuf,
}

impl Segments {
    /// Number of root documents (replaced ones included; nested ones are not counted).
    pub fn doc_count(&self) -> u32 {
        self.doc_count - self.schema.children.len() as u32
    }

    /// Calls `f` with every `_id` added more than once and its load ordinals (ascending).
    pub fn for_each_duplicate(&self, mut f: impl FnMut(&[u8], &[u32]) -> Result<()>) -> Result<()> {
        let Some(field) = self.schema.field(ID_FIELD) else { return Ok(()) };
        let mut cursors: Vec<(SectionReader<'_>, Vec<u8>, Vec<u8>, bool)> = Vec::new();
        for run in &self.runs {
            let mut r = run.reader(run.fields.get(field).map(|s| s.terms).unwrap_or_default());
            let (mut term, mut posting) = (Vec::new(), Vec::new());
            let live = next_term(&mut r, &mut term, &mut posting)?;
            cursors.push((r, term, posting, live));
        }
        let mut docs = Vec::new();
        let mut current = Vec::new();
        while let Some(min) = cursors.iter().filter(|c| c.3).map(|c| &c.1).min() {
            current.clear();
            current.extend_from_slice(min);
            docs.clear();
            for (r, term, posting, live) in cursors.iter_mut() {
                if *live && *term == current {
                    let mut i = 0;
                    let mut doc = 0u32;
                    while i < posting.len() {
                        doc += super::codec::get_varint(posting, &mut i)
                            .ok_or_else(|| Error::storage("load temporary file: corrupt posting"))?;
                        docs.push(doc);
                    }
                    *live = next_term(r, term, posting)?;
                }
            }
            if docs.len() > 1 {
                f(&current, &docs)?;
            }
        }
        Ok(())
    }

    /// Writes the generation without the `deleted` load ordinals and returns its catalog
    /// entry (not yet registered).
    pub fn write(
        self,
        txn: &mut WriteTxn,
        name: &str,
        generation: u64,
        definition: Definition,
        deleted: DocSet,
    ) -> Result<IndexMeta> {
        let schema = &self.schema;
        // A replaced document takes its nested documents (the block before it) along.
        let mut deleted = deleted;
        if !schema.children.is_empty() {
            for parent in deleted.iter().collect::<Vec<_>>() {
                let mut doc = parent;
                while doc > 0 && schema.children.contains(doc - 1) {
                    doc -= 1;
                    deleted.insert(doc);
                }
            }
        }
        let live_docs = self.doc_count - deleted.len() as u32;
        let live = Live::new(deleted.into_bitmap());
        // Field numbers follow the paths' order; the fields are merged largest dictionary
        // first, so the dictionary builder starts on the longest work while the merge
        // goes on with the rest.
        let mut order: Vec<(&str, usize)> =
            schema.fields.iter().enumerate().map(|(i, (p, _))| (p.as_str(), i)).collect();
        order.sort();
        let term_bytes = |field: usize| -> u64 {
            self.runs.iter().filter_map(|r| r.fields.get(field)).map(|f| f.terms.byte_len()).sum()
        };
        let mut work: Vec<(u64, u32, &str, usize)> = order
            .into_iter()
            .enumerate()
            .map(|(fid, (path, field))| {
                let dictionary = if schema.fields[field].1.inverted { term_bytes(field) } else { 0 };
                (dictionary, fid as u32, path, field)
            })
            .collect();
        work.sort_by_key(|&(bytes, fid, ..)| (std::cmp::Reverse(bytes), fid));
        let mut stats: BTreeMap<String, FieldStats> = BTreeMap::new();
        let merge = Merge { generation, runs: &self.runs, live: &live, live_docs };
        let mut dictionaries = Dictionaries::new(generation, &self.dir);
        let mut size = 0;
        let (sources, dir, live) = (self.sources, &self.dir, &live);
        std::thread::scope(|scope| -> Result<()> {
            // The doc store is compressed on a thread of its own while the fields merge
            // (and their dictionaries build): it needs nothing from them.
            let docs = std::thread::Builder::new()
                .name("metagate-docs".into())
                .spawn_scoped(scope, move || build_sources(sources, live, dir))
                .map_err(|e| Error::storage(format!("load: cannot start a thread: {e}")))?;
            for (_, fid, path, field) in work {
                let plan = schema.fields[field].1;
                let (st, bytes) = merge_field(txn, &merge, &mut dictionaries, fid, field, plan)?;
                size += bytes;
                stats.insert(path.to_string(), st);
            }
            let (mut stream, blocks) = docs.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?;
            // The sources go in while the last dictionaries are built.
            size += blocks.store(txn, generation, &mut stream)?;
            Ok(())
        })?;
        size += dictionaries.finish(txn)?;
        Ok(IndexMeta {
            name: name.to_string(),
            generation,
            uuid: random_id(22),
            created_ms: crate::node::now_ms(),
            doc_count: live_docs as u64,
            size_bytes: size,
            family: definition.family,
            mapping: self.schema.mapping,
            settings: definition.settings,
            type_name: definition.type_name,
            fields: stats,
        })
    }
}

/// Reads a run's next term and posting; false at the end.
fn next_term(r: &mut SectionReader<'_>, term: &mut Vec<u8>, posting: &mut Vec<u8>) -> Result<bool> {
    if r.at_end() {
        return Ok(false);
    }
    let n = r.varint()? as usize;
    r.read_vec(n, term)?;
    let n = r.varint()? as usize;
    r.read_vec(n, posting)?;
    Ok(true)
}

/// Compresses the spooled documents that stayed live, in their final order, into a doc
/// store stream in a temporary file; returns the file (at its start) and the blocks.
fn build_sources(spool: Spool, live: &Live, dir: &Path) -> Result<(File, DocStoreBlocks)> {
    let (file, section) = spool.finish()?;
    let mut r = SectionReader::new(&file, section);
    let mut store = DocStoreBuilder::new(BufWriter::with_capacity(1 << 16, temp_file(dir)?));
    let mut rec = Vec::new();
    let mut doc = 0u32;
    while !r.at_end() {
        let n = r.varint()? as usize;
        r.read_vec(n, &mut rec)?;
        if live.renumber(doc).is_some() {
            let [id, doc_type, source] = super::prepare::spooled_parts(&rec)?;
            store.append(&String::from_utf8_lossy(id), &String::from_utf8_lossy(doc_type), source)?;
        }
        doc += 1;
    }
    let (out, blocks) = store.finish()?;
    let temp_error = |e: std::io::Error| Error::storage(format!("load temporary file: {e}"));
    let mut file = out.into_inner().map_err(|e| temp_error(e.into_error()))?;
    file.seek(SeekFrom::Start(0)).map_err(temp_error)?;
    Ok((file, blocks))
}

/// A random URL-safe id (ES auto-generated ids are 20 characters).
pub fn random_id(len: usize) -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut rng = rand::thread_rng();
    (0..len).map(|_| ALPHABET[rng.gen_range(0..64)] as char).collect()
}
