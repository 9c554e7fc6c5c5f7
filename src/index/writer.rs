//! Builds one immutable generation from a stream of documents in bounded memory.
//!
//! Documents are inverted into the current segment (`segment.rs`: per field an
//! arena-backed term table with compressed postings, doc values as columns); when the
//! segment's memory passes the budget it is written sorted to a temporary run and the
//! arena starts over. Sources are spooled to a temporary file as they arrive. At the
//! end the runs are merged field by field into the generation's tables (`merge.rs`),
//! dropping the documents a later duplicate `_id` replaced.

use super::arena::Arena;
use super::codec::put_varint;
use super::docstore::DocStoreWriter;
use super::merge::{merge_field, FieldPlan, Live, Merge};
use super::meta::{FieldStats, IndexMeta};
use super::segment::{flush, temp_file, FieldSegment, NumKind, Run, Section, SectionReader};
use super::{ID_FIELD, TYPE_FIELD};
use crate::analysis::Token;
use crate::error::{Error, Exception, Result};
use crate::mapping::{FieldMapping, FieldType, FieldValue, Mapping};
use crate::store::WriteTxn;
use roaring::RoaringBitmap;
use rustc_hash::FxHashMap;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Lucene's position increment gap between the values of a multi-valued text field.
pub const POSITION_INCREMENT_GAP: u32 = 100;

/// The memory budget of a load's segment when none is given.
pub const DEFAULT_MEMORY: usize = 256 << 20;

struct FieldBuild {
    mapping: FieldMapping,
    date_format: Option<crate::date::DateFormat>,
    subs: Vec<String>,
    plan: FieldPlan,
    seg: FieldSegment,
}

impl FieldBuild {
    fn new(mapping: FieldMapping, subs: Vec<String>) -> Result<FieldBuild> {
        let ftype = mapping.ftype;
        let inverted = match ftype {
            FieldType::Text | FieldType::Keyword | FieldType::Boolean => mapping.index,
            _ => false,
        };
        let doc_values = match ftype {
            FieldType::Text => false,
            FieldType::Boolean => true,
            _ => mapping.doc_values || !mapping.index,
        };
        let date_format = if ftype == FieldType::Date {
            Some(
                crate::date::DateFormat::parse_format(mapping.date_format())
                    .map_err(|e| mapper_error(e.to_string()))?,
            )
        } else {
            None
        };
        let plan = FieldPlan {
            inverted,
            with_freqs: inverted && ftype == FieldType::Text,
            keyword_values: doc_values && ftype == FieldType::Keyword,
            numbers: match ftype {
                _ if !doc_values => None,
                FieldType::Text | FieldType::Keyword => None,
                FieldType::Double | FieldType::Float => Some(NumKind::Double),
                _ => Some(NumKind::Long),
            },
        };
        Ok(FieldBuild { mapping, date_format, subs, plan, seg: FieldSegment::default() })
    }

    /// Indexes all values of this field for `doc` (`base`: the segment's first document).
    fn index<'v>(
        &mut self,
        arena: &mut Arena,
        doc: u32,
        base: u32,
        vals: impl Iterator<Item = &'v FieldValue>,
        tokens: &mut Vec<Token>,
    ) {
        let fm = &self.mapping;
        let plan = self.plan;
        let seg = &mut self.seg;
        match fm.ftype {
            FieldType::Text => {
                if !plan.inverted {
                    return;
                }
                let mut length = 0u32;
                let mut next_pos = 0u32;
                for (i, v) in vals.enumerate() {
                    let FieldValue::Str(s) = v else { continue };
                    tokens.clear();
                    fm.analyzer.analyze_into(s, tokens);
                    let base = if i == 0 { 0 } else { next_pos + POSITION_INCREMENT_GAP };
                    for t in tokens.drain(..) {
                        let p = base + t.position;
                        next_pos = p + 1;
                        length += 1;
                        let id = seg.terms.intern(arena, t.text.as_bytes());
                        seg.terms.add_position(arena, id, doc, p);
                    }
                    if i > 0 && next_pos < base {
                        next_pos = base;
                    }
                }
                let at = (doc - base) as usize;
                if seg.lengths.len() <= at {
                    seg.lengths.resize(at + 1, 0);
                }
                seg.lengths[at] = length;
            }
            FieldType::Keyword => {
                for v in vals {
                    let FieldValue::Str(s) = v else { continue };
                    if let Some(limit) = fm.ignore_above {
                        if s.len() > limit && s.chars().count() > limit {
                            continue;
                        }
                    }
                    let normalized;
                    let term: &str = match fm.normalizer {
                        Some(n) => {
                            normalized = n.normalize(s);
                            &normalized
                        }
                        None => s,
                    };
                    add_keyword(seg, arena, plan, term.as_bytes(), doc);
                }
            }
            FieldType::Boolean => {
                for v in vals {
                    let FieldValue::Long(b) = v else { continue };
                    if plan.inverted {
                        let id = seg.terms.intern(arena, if *b != 0 { b"T" } else { b"F" });
                        seg.terms.add_doc(arena, id, doc);
                    }
                    if plan.numbers.is_some() {
                        seg.numbers.push((doc, *b as u64));
                    }
                }
            }
            _ => {
                for v in vals {
                    match (plan.numbers, v) {
                        (Some(NumKind::Long), FieldValue::Long(n)) => seg.numbers.push((doc, *n as u64)),
                        (Some(NumKind::Double), FieldValue::Double(f)) => seg.numbers.push((doc, f.to_bits())),
                        (Some(NumKind::Double), FieldValue::Long(n)) => seg.numbers.push((doc, (*n as f64).to_bits())),
                        _ => {}
                    }
                }
            }
        }
    }
}

/// Adds a keyword term of `doc`: its posting (kept even for doc values alone, so the
/// merge knows which terms survive replaced documents) and its doc value.
fn add_keyword(seg: &mut FieldSegment, arena: &mut Arena, plan: FieldPlan, term: &[u8], doc: u32) {
    if !plan.inverted && !plan.keyword_values {
        return;
    }
    let id = seg.terms.intern(arena, term);
    seg.terms.add_doc(arena, id, doc);
    if plan.keyword_values {
        seg.keywords.push((doc, id));
    }
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

/// Accumulates documents for one new generation, within a memory budget.
pub struct GenerationBuilder {
    mapping: Mapping,
    fields: Vec<FieldBuild>,
    by_path: FxHashMap<String, usize>,
    arena: Arena,
    tokens: Vec<Token>,
    doc_count: u32,
    segment_base: u32,
    runs: Vec<Run>,
    budget: usize,
    dir: PathBuf,
    sources: Spool,
    scratch: Vec<u8>,
}

fn mapper_error(reason: String) -> Error {
    Error::new(400, Exception::new("mapper_parsing_exception", reason))
}

/// ES 6.8's metadata fields (the mappers `IndicesModule` registers).
const METADATA_FIELDS: [&str; 12] = [
    "_ignored",
    "_uid",
    "_id",
    "_routing",
    "_index",
    "_source",
    "_type",
    "_all",
    "_version",
    "_parent",
    "_seq_no",
    "_field_names",
];

impl GenerationBuilder {
    /// A builder that starts from `mapping` (dynamic fields are added as documents
    /// arrive), keeps a segment within about `budget` bytes and spills to unnamed
    /// temporary files in `dir`.
    pub fn new(mapping: Mapping, budget: usize, dir: &Path) -> Result<GenerationBuilder> {
        Ok(GenerationBuilder {
            mapping,
            fields: Vec::new(),
            by_path: FxHashMap::default(),
            arena: Arena::default(),
            tokens: Vec::new(),
            doc_count: 0,
            segment_base: 0,
            runs: Vec::new(),
            budget,
            dir: dir.to_path_buf(),
            sources: Spool::new(dir)?,
            scratch: Vec::new(),
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

    /// Adds one document and returns its load ordinal. On error nothing of the document
    /// is indexed.
    pub fn add(&mut self, id: &str, doc_type: &str, source: &Value, raw_source: &[u8]) -> Result<u32> {
        let Some(members) = source.as_object() else {
            return Err(mapper_error("failed to parse, document is empty or not an object".into()));
        };
        // ES 6.8's DocumentParser refuses its metadata fields at the top of a document
        // (MapperService.META_FIELDS); indexing them as fields would mix them with the
        // document's own `_id`, `_type`, ... terms.
        if let Some(name) = members.keys().find(|k| METADATA_FIELDS.contains(&k.as_str())) {
            return Err(mapper_error(format!(
                "Field [{name}] is a metadata field and cannot be added inside a document. Use the index API request parameters."
            )));
        }
        if id.is_empty() || id.len() > 512 {
            return Err(Error::illegal_argument(format!(
                "id [{id}] is too long, must be no longer than 512 bytes but was: {}",
                id.len()
            )));
        }
        let mut leaves = Vec::new();
        flatten("", source, &mut leaves);
        // Coerce every value first, so a bad value rejects the whole document.
        let mut values: Vec<(usize, FieldValue)> = Vec::with_capacity(leaves.len() * 2);
        for (path, v) in leaves {
            if v.is_object() {
                if self.mapping.field(&path).is_some() {
                    return Err(mapper_error(format!(
                        "failed to parse field [{path}]: a concrete field cannot hold an object"
                    )));
                }
                if !self.mapping.is_object(&path) {
                    self.mapping.map_dynamic(&path, v)?;
                }
                continue;
            }
            if !self.by_path.contains_key(path.as_str()) {
                if self.mapping.field(&path).is_none() {
                    if self.mapping.is_object(&path) {
                        return Err(mapper_error(format!(
                            "object mapping for [{path}] tried to parse field [{path}] as object, but found a concrete value"
                        )));
                    }
                    if !self.mapping.map_dynamic(&path, v)? {
                        continue;
                    }
                }
                self.prepare_field(&path)?;
            }
            let Some(&fi) = self.by_path.get(path.as_str()) else {
                continue;
            };
            let fb = &self.fields[fi];
            let fv = Mapping::coerce_with(&fb.mapping, v, fb.date_format.as_ref())?;
            for sub in fb.subs.iter() {
                if let Some(&si) = self.by_path.get(sub.as_str()) {
                    let sb = &self.fields[si];
                    values.push((si, Mapping::coerce_with(&sb.mapping, v, sb.date_format.as_ref())?));
                }
            }
            values.push((fi, fv));
        }
        let doc = self.doc_count;
        self.doc_count += 1;
        self.scratch.clear();
        spool_record(&mut self.scratch, id, doc_type, raw_source);
        let mut len = Vec::with_capacity(5);
        put_varint(&mut len, self.scratch.len() as u32);
        self.sources.append(&len)?;
        let scratch = std::mem::take(&mut self.scratch);
        self.sources.append(&scratch)?;
        self.scratch = scratch;
        self.index_meta_keyword(ID_FIELD, doc, id);
        self.index_meta_keyword(TYPE_FIELD, doc, doc_type);
        // Group values per field (stable: value order kept) so a multi-valued field is
        // inverted as one field instance.
        values.sort_by_key(|a| a.0);
        let mut tokens = std::mem::take(&mut self.tokens);
        let mut i = 0;
        while i < values.len() {
            let mut j = i + 1;
            while j < values.len() && values[j].0 == values[i].0 {
                j += 1;
            }
            let fb = &mut self.fields[values[i].0];
            fb.index(&mut self.arena, doc, self.segment_base, values[i..j].iter().map(|(_, v)| v), &mut tokens);
            i = j;
        }
        self.tokens = tokens;
        if self.memory() >= self.budget {
            self.flush_segment()?;
        }
        Ok(doc)
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
        Ok(())
    }

    /// Creates the build state of a mapped field and its multi-fields.
    fn prepare_field(&mut self, path: &str) -> Result<()> {
        let Some(fm) = self.mapping.field(path).cloned() else {
            return Ok(());
        };
        let subs: Vec<String> = fm.multi_fields.iter().map(|s| format!("{path}.{s}")).collect();
        for sub in &subs {
            if !self.by_path.contains_key(sub.as_str()) {
                if let Some(sfm) = self.mapping.field(sub).cloned() {
                    self.insert_field(sub, FieldBuild::new(sfm, Vec::new())?);
                }
            }
        }
        self.insert_field(path, FieldBuild::new(fm, subs)?);
        Ok(())
    }

    fn insert_field(&mut self, path: &str, fb: FieldBuild) -> usize {
        match self.by_path.get(path) {
            Some(&i) => {
                // Re-preparing keeps the values gathered so far.
                let seg = std::mem::take(&mut self.fields[i].seg);
                self.fields[i] = FieldBuild { seg, ..fb };
                i
            }
            None => {
                self.fields.push(fb);
                self.by_path.insert(path.to_string(), self.fields.len() - 1);
                self.fields.len() - 1
            }
        }
    }

    fn index_meta_keyword(&mut self, path: &str, doc: u32, value: &str) {
        let fi = match self.by_path.get(path) {
            Some(&i) => i,
            None => {
                let fb = FieldBuild {
                    mapping: FieldMapping::new(path, FieldType::Keyword),
                    date_format: None,
                    subs: Vec::new(),
                    plan: FieldPlan { inverted: true, with_freqs: false, keyword_values: true, numbers: None },
                    seg: FieldSegment::default(),
                };
                self.insert_field(path, fb)
            }
        };
        let fb = &mut self.fields[fi];
        add_keyword(&mut fb.seg, &mut self.arena, fb.plan, value.as_bytes(), doc);
    }

    /// Writes the last segment; after this the documents are fixed and their `_id`s can be
    /// checked for duplicates.
    pub fn seal(&mut self) -> Result<()> {
        self.flush_segment()
    }

    /// Calls `f` with every `_id` added more than once and its load ordinals (ascending).
    /// Needs [`GenerationBuilder::seal`] first.
    pub fn for_each_duplicate(&self, mut f: impl FnMut(&[u8], &[u32]) -> Result<()>) -> Result<()> {
        let Some(&field) = self.by_path.get(ID_FIELD) else { return Ok(()) };
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
    /// entry (not yet registered). Needs [`GenerationBuilder::seal`] first.
    pub fn write(
        self,
        txn: &mut WriteTxn,
        name: &str,
        generation: u64,
        family: Option<String>,
        max_result_window: u64,
        deleted: RoaringBitmap,
    ) -> Result<IndexMeta> {
        let live_docs = self.doc_count - deleted.len() as u32;
        let live = Live::new(deleted);
        let mut size = write_sources(txn, generation, self.sources, &live)?;
        let mut order: Vec<(&str, usize)> = self.by_path.iter().map(|(p, &i)| (p.as_str(), i)).collect();
        order.sort();
        let mut stats: BTreeMap<String, FieldStats> = BTreeMap::new();
        let merge = Merge { generation, runs: &self.runs, live: &live, live_docs };
        for (fid, (path, field)) in order.into_iter().enumerate() {
            let plan = self.fields[field].plan;
            let (st, bytes) = merge_field(txn, &merge, fid as u32, field, plan)?;
            size += bytes;
            stats.insert(path.to_string(), st);
        }
        Ok(IndexMeta {
            name: name.to_string(),
            generation,
            uuid: random_id(22),
            created_ms: crate::engine::now_ms(),
            doc_count: live_docs as u64,
            size_bytes: size,
            family,
            mapping: self.mapping,
            max_result_window,
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

/// Streams the spooled documents that stayed live into the generation's doc store, in
/// their final order; returns the store's size.
fn write_sources(txn: &mut WriteTxn, generation: u64, spool: Spool, live: &Live) -> Result<u64> {
    let (file, section) = spool.finish()?;
    let mut r = SectionReader::new(&file, section);
    let mut store = DocStoreWriter::new(txn, generation);
    let mut rec = Vec::new();
    let mut doc = 0u32;
    while !r.at_end() {
        let n = r.varint()? as usize;
        r.read_vec(n, &mut rec)?;
        if live.renumber(doc).is_some() {
            let [id, doc_type, source] = spooled_parts(&rec)?;
            store.append(&String::from_utf8_lossy(id), &String::from_utf8_lossy(doc_type), source)?;
        }
        doc += 1;
    }
    store.finish()
}

/// A spooled document: `_id`, `_type` and `_source`, each after its varint length (the
/// doc store compresses them in blocks once the live documents are known).
fn spool_record(out: &mut Vec<u8>, id: &str, doc_type: &str, raw: &[u8]) {
    for part in [id.as_bytes(), doc_type.as_bytes(), raw] {
        put_varint(out, part.len() as u32);
        out.extend_from_slice(part);
    }
}

/// The parts of a spooled document.
fn spooled_parts(rec: &[u8]) -> Result<[&[u8]; 3]> {
    let mut at = 0;
    let mut part = || -> Option<&[u8]> {
        let len = super::codec::get_varint(rec, &mut at)? as usize;
        let bytes = rec.get(at..at.checked_add(len)?)?;
        at += len;
        Some(bytes)
    };
    match (part(), part(), part()) {
        (Some(id), Some(doc_type), Some(source)) => Ok([id, doc_type, source]),
        _ => Err(Error::storage("load temporary file: damaged document")),
    }
}

/// Flattens a document into (dotted path, value) leaves; arrays are transparent and
/// objects are reported too (so their paths are mapped as objects).
fn flatten<'a>(prefix: &str, v: &'a Value, out: &mut Vec<(String, &'a Value)>) {
    match v {
        Value::Object(m) => {
            if !prefix.is_empty() {
                out.push((prefix.to_string(), v));
            }
            for (k, child) in m {
                let p = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                flatten(&p, child, out);
            }
        }
        Value::Array(a) => {
            for item in a {
                flatten(prefix, item, out);
            }
        }
        Value::Null => {}
        _ => out.push((prefix.to_string(), v)),
    }
}

/// A random URL-safe id (ES auto-generated ids are 20 characters).
pub fn random_id(len: usize) -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut rng = rand::thread_rng();
    (0..len).map(|_| ALPHABET[rng.gen_range(0..64)] as char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_fields_are_refused_inside_documents() {
        let mut b = GenerationBuilder::new(Mapping::default(), DEFAULT_MEMORY, &std::env::temp_dir()).unwrap();
        let doc = serde_json::json!({"_id": "a", "name": "blast aligner"});
        let e = b
            .add("a", "_doc", &doc, doc.to_string().as_bytes())
            .err()
            .map(|e| (e.kind().to_string(), e.reason().to_string()));
        assert_eq!(
            e,
            Some((
                "mapper_parsing_exception".into(),
                "Field [_id] is a metadata field and cannot be added inside a document. Use the index API request parameters.".into()
            ))
        );
        // Below the top level the name is an ordinary field, as in ES.
        let nested = serde_json::json!({"item": {"_id": "x"}});
        assert!(b.add("b", "_doc", &nested, nested.to_string().as_bytes()).is_ok());
        assert_eq!(b.doc_count(), 1);
    }
}
