//! One segment of a load: what the documents of a memory budget add to each field, held
//! in an arena while they arrive, then written sorted to an unnamed temporary file (a
//! "run") that the merge reads back in order.
//!
//! A run holds, per field, sections the merge streams:
//! - terms: each term in byte order as `varint length, bytes, varint posting length,
//!   posting` (the posting as [`TermTable`] records it);
//! - keyword doc values: `(varint doc delta, varint term rank)` pairs in document order,
//!   the rank being the term's place in this run's sorted terms;
//! - numeric doc values: `(varint doc delta, u64 LE value bits)` in document order;
//! - points: `(u64 LE value bits, varint doc)` sorted by value then document;
//! - lengths (text fields): each document's length (tokens not stacked on the one
//!   before) then its token count, u32 LE each.
//!
//! Documents are load ordinals; deltas restart in each section.

use super::arena::Arena;
use super::terms::TermTable;
use crate::error::{Error, Result};
use std::fs::File;
use std::io::{BufWriter, Write};
#[cfg(unix)]
use std::os::unix::fs::FileExt;
use std::path::Path;

/// Values of a numeric field: whole numbers or doubles (how points sort).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NumKind {
    /// i64 (dates, booleans, integers).
    Long,
    /// f64.
    Double,
}

impl NumKind {
    /// Orders two values' bits as numbers.
    pub fn cmp(self, a: u64, b: u64) -> std::cmp::Ordering {
        match self {
            NumKind::Long => (a as i64).cmp(&(b as i64)),
            NumKind::Double => f64::from_bits(a).total_cmp(&f64::from_bits(b)),
        }
    }
}

/// What one field has gathered in the current segment.
#[derive(Default)]
pub struct FieldSegment {
    /// The field's terms and postings (inverted fields, and keyword doc values).
    pub terms: TermTable,
    /// Text fields: per document of the segment, its length for the norm (stacked tokens
    /// not counted) and its token count (for the field's sum of term frequencies).
    pub lengths: Vec<(u32, u32)>,
    /// Keyword doc values: (document, term number).
    pub keywords: Vec<(u32, u32)>,
    /// Numeric doc values: (document, value bits).
    pub numbers: Vec<(u32, u64)>,
}

impl FieldSegment {
    /// Heap bytes held (the arena apart).
    pub fn memory(&self) -> usize {
        self.terms.memory() + self.lengths.capacity() * 8 + self.keywords.capacity() * 8 + self.numbers.capacity() * 16
    }
}

/// Where a section lies in its run file.
#[derive(Clone, Copy, Default, Debug)]
pub struct Section {
    at: u64,
    len: u64,
}

/// A field's sections in one run.
#[derive(Clone, Copy, Default, Debug)]
pub struct FieldRun {
    /// Sorted terms with postings.
    pub terms: Section,
    /// Keyword or numeric doc values.
    pub doc_values: Section,
    /// Sorted points.
    pub points: Section,
    /// Text lengths.
    pub lengths: Section,
}

impl Section {
    /// The section of `len` bytes at `at`.
    pub fn new(at: u64, len: u64) -> Section {
        Section { at, len }
    }

    /// Its length in bytes.
    pub fn byte_len(&self) -> u64 {
        self.len
    }
}

impl Run {
    /// A reader of one of this run's sections.
    pub fn reader(&self, section: Section) -> SectionReader<'_> {
        SectionReader::new(&self.file, section)
    }
}

/// A flushed segment.
pub struct Run {
    file: File,
    /// Its first document.
    pub base: u32,
    /// Its number of documents.
    pub docs: u32,
    /// Sections by field number (fields added later have none).
    pub fields: Vec<FieldRun>,
}

fn io(e: std::io::Error) -> Error {
    Error::storage(format!("load temporary file: {e}"))
}

/// A temporary file beside `dir` that the system removes when it is closed, even if the
/// process is killed (so a killed load leaves nothing behind).
#[cfg(not(target_arch = "wasm32"))]
pub fn temp_file(dir: &Path) -> Result<File> {
    tempfile::tempfile_in(dir).map_err(io)
}

/// The browser has no files to spill a load to.
#[cfg(target_arch = "wasm32")]
pub fn temp_file(_dir: &Path) -> Result<File> {
    Err(Error::storage("loading needs a file system"))
}

/// Appends sections to a run file, counting where each lies.
struct RunWriter {
    out: BufWriter<File>,
    at: u64,
    scratch: Vec<u8>,
}

impl RunWriter {
    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.write_all(bytes).map_err(io)?;
        self.at += bytes.len() as u64;
        Ok(())
    }

    fn varint(&mut self, v: u64) -> Result<()> {
        let mut buf = [0u8; 10];
        let mut n = 0;
        let mut v = v;
        while v >= 0x80 {
            buf[n] = (v as u8) | 0x80;
            v >>= 7;
            n += 1;
        }
        buf[n] = v as u8;
        self.put(&buf[..=n])
    }

    fn section(&mut self, f: impl FnOnce(&mut RunWriter) -> Result<()>) -> Result<Section> {
        let at = self.at;
        f(self)?;
        Ok(Section { at, len: self.at - at })
    }
}

/// Writes the segment's fields (`kinds[i]` says how field `i`'s numbers sort) into a new
/// run, then leaves every field empty for the next segment.
pub fn flush(
    dir: &Path,
    arena: &mut Arena,
    fields: &mut [(&mut FieldSegment, Option<NumKind>)],
    base: u32,
    docs: u32,
) -> Result<Run> {
    let file = temp_file(dir)?;
    let mut w =
        RunWriter { out: BufWriter::with_capacity(1 << 16, file.try_clone().map_err(io)?), at: 0, scratch: Vec::new() };
    let mut runs = Vec::with_capacity(fields.len());
    for (seg, kind) in fields.iter_mut() {
        let mut fr = FieldRun::default();
        let sorted = seg.terms.sorted(arena);
        let mut rank = vec![0u32; sorted.len()];
        for (r, &id) in sorted.iter().enumerate() {
            rank[id as usize] = r as u32;
        }
        fr.terms = w.section(|w| {
            for &id in &sorted {
                let term = seg.terms.term(arena, id);
                w.varint(term.len() as u64)?;
                w.put(term)?;
                let slot = seg.terms.slot(id);
                let mut bytes = std::mem::take(&mut w.scratch);
                bytes.clear();
                slot.posting.copy_to(arena, &mut bytes);
                w.varint(bytes.len() as u64)?;
                w.put(&bytes)?;
                w.scratch = bytes;
            }
            Ok(())
        })?;
        if !seg.keywords.is_empty() {
            seg.keywords.sort_unstable_by_key(|&(d, t)| (d, rank[t as usize]));
            fr.doc_values = w.section(|w| {
                for &(d, t) in &seg.keywords {
                    w.varint((d - base) as u64)?;
                    w.varint(rank[t as usize] as u64)?;
                }
                Ok(())
            })?;
        }
        if let (Some(kind), false) = (kind, seg.numbers.is_empty()) {
            fr.doc_values = w.section(|w| {
                for &(d, v) in &seg.numbers {
                    w.varint((d - base) as u64)?;
                    w.put(&v.to_le_bytes())?;
                }
                Ok(())
            })?;
            let kind = *kind;
            seg.numbers.sort_unstable_by(|a, b| kind.cmp(a.1, b.1).then(a.0.cmp(&b.0)));
            fr.points = w.section(|w| {
                for &(d, v) in &seg.numbers {
                    w.put(&v.to_le_bytes())?;
                    w.varint(d as u64)?;
                }
                Ok(())
            })?;
        }
        if !seg.lengths.is_empty() {
            seg.lengths.resize(docs as usize, (0, 0));
            fr.lengths = w.section(|w| {
                for &(l, tokens) in &seg.lengths {
                    w.put(&l.to_le_bytes())?;
                    w.put(&tokens.to_le_bytes())?;
                }
                Ok(())
            })?;
        }
        runs.push(fr);
        **seg = FieldSegment::default();
    }
    w.out.flush().map_err(io)?;
    arena.clear();
    Ok(Run { file, base, docs, fields: runs })
}

/// Sequential, buffered reads of one section of a run.
pub struct SectionReader<'r> {
    file: &'r File,
    next: u64,
    end: u64,
    buf: Vec<u8>,
    pos: usize,
}

/// Bytes a section reader fetches at once.
const READ_AHEAD: usize = 64 << 10;

impl<'r> SectionReader<'r> {
    /// A reader of `section` of `file`.
    pub fn new(file: &'r File, section: Section) -> SectionReader<'r> {
        SectionReader { file, next: section.at, end: section.at + section.len, buf: Vec::new(), pos: 0 }
    }

    /// Whether every byte has been read.
    pub fn at_end(&self) -> bool {
        self.pos == self.buf.len() && self.next == self.end
    }

    fn fill(&mut self) -> Result<()> {
        let want = READ_AHEAD.min((self.end - self.next) as usize);
        if want == 0 {
            return Err(Error::storage("load temporary file: truncated section"));
        }
        self.buf.clear();
        self.buf.resize(want, 0);
        read_exact_at(self.file, &mut self.buf, self.next)?;
        self.next += want as u64;
        self.pos = 0;
        Ok(())
    }

    /// The file offset of the next byte to read.
    pub fn position(&self) -> u64 {
        self.next - (self.buf.len() - self.pos) as u64
    }

    /// Skips `n` bytes.
    pub fn skip(&mut self, n: usize) -> Result<()> {
        let buffered = self.buf.len() - self.pos;
        if n <= buffered {
            self.pos += n;
            return Ok(());
        }
        let past = (n - buffered) as u64;
        if past > self.end - self.next {
            return Err(Error::storage("load temporary file: truncated section"));
        }
        self.pos = self.buf.len();
        self.next += past;
        Ok(())
    }

    /// One byte.
    pub fn byte(&mut self) -> Result<u8> {
        if self.pos == self.buf.len() {
            self.fill()?;
        }
        let b = self.buf[self.pos];
        self.pos += 1;
        Ok(b)
    }

    /// A LEB128 varint.
    pub fn varint(&mut self) -> Result<u64> {
        // Most varints in a run are one byte (deltas, lengths, ranks): read in place.
        if let Some(&b) = self.buf.get(self.pos) {
            if b < 0x80 {
                self.pos += 1;
                return Ok(b as u64);
            }
        }
        super::codec::read_varint_with(|| self.byte())?
            .ok_or_else(|| Error::storage("load temporary file: corrupt varint"))
    }

    /// A u64 LE.
    pub fn u64(&mut self) -> Result<u64> {
        let mut b = [0u8; 8];
        self.read_into(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// A u32 LE.
    pub fn u32(&mut self) -> Result<u32> {
        let mut b = [0u8; 4];
        self.read_into(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    /// Fills `out`.
    pub fn read_into(&mut self, out: &mut [u8]) -> Result<()> {
        let mut done = 0;
        while done < out.len() {
            if self.pos == self.buf.len() {
                self.fill()?;
            }
            let take = (out.len() - done).min(self.buf.len() - self.pos);
            out[done..done + take].copy_from_slice(&self.buf[self.pos..self.pos + take]);
            self.pos += take;
            done += take;
        }
        Ok(())
    }

    /// `n` bytes appended to `out` (cleared first).
    pub fn read_vec(&mut self, n: usize, out: &mut Vec<u8>) -> Result<()> {
        out.clear();
        out.resize(n, 0);
        self.read_into(out)
    }
}

/// The u64 LE at byte `at` of `file`.
pub fn read_u64_at(file: &File, at: u64) -> Result<u64> {
    let mut b = [0u8; 8];
    read_exact_at(file, &mut b, at)?;
    Ok(u64::from_le_bytes(b))
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> Result<()> {
    file.read_exact_at(buf, at).map_err(io)
}

#[cfg(not(unix))]
fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = file;
    f.seek(SeekFrom::Start(at)).map_err(io)?;
    f.read_exact(buf).map_err(io)
}
