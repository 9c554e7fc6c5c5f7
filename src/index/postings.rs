//! The posting of one term: its documents, their term frequencies in blocks a scorer can
//! walk and skip, and where its positions are.
//!
//! Layout (all inside the field's postings stream, at the term's address):
//!
//! ```text
//! varint n                       documents
//! documents                      n <= 32: delta varints; else varint length + roaring bitmap
//! -- fields with frequencies (text) --
//! varint positions address       in the field's positions stream (u64)
//! n < 128:  n varint frequencies
//! n >= 128: ceil(n / 128) skip entries of 15 bytes:
//!             last document (u32 LE), positions offset of the block's first document
//!             (u32 LE, from the positions address), the block's best frequency (u32 LE)
//!             and norm (u8) — the pair that scores highest under BM25 with the field's
//!             average length — and the bit widths of the block's frequencies and of its
//!             document deltas (u8, u8);
//!           then per block its 128 documents as deltas from the previous block's last
//!           and its 128 frequencies, each bit-packed (`bitpacking`'s 4x layout, 16 ×
//!           width bytes; the last block padded with its last document and zeros)
//! ```
//!
//! The documents are stored twice for text terms: as a roaring set for set algebra and
//! exact counts, and in blocks a scorer decodes 128 at a time (faster than walking the
//! set) and skips by their skip entries.
//!
//! Positions: per document, its `tf` positions as delta varints restarting at each
//! document. The skip entries' offsets let a phrase jump to the block of a candidate
//! instead of reading every position before it.

use super::bitpack;
use super::codec::{get_u32, put_u32, put_varint};
use super::docset::{DocSet, SortedBuilder};
use super::stream::StreamReader;
use crate::error::{Error, Result};
use bitpacking::{BitPacker, BitPacker4x};

/// Documents per frequency block.
pub const BLOCK: usize = bitpack::BLOCK;

/// Posting lists with at most this many documents store them as delta varints; longer
/// ones as roaring bitmaps (smaller and fast for set algebra).
const SMALL_LIST: usize = 32;

/// Bytes per skip entry.
const SKIP_ENTRY: usize = 15;

/// What a text field's posting needs to record its blocks' best BM25 pair: each
/// document's norm byte and the BM25 length factor per norm byte
/// (`k1 * (1 - b + b * length / avgdl)` with the field's final average length).
pub struct BlockScoring<'n> {
    /// Norm bytes by document.
    pub norms: &'n [u8],
    /// The length factor per norm byte.
    pub length_factor: [f32; 256],
}

impl BlockScoring<'_> {
    /// The BM25 frequency factor `tf / (tf + length factor)` of a document; weights only
    /// scale it, so the best of a block under it is the best under any weight.
    fn factor(&self, doc: u32, tf: u32) -> f32 {
        let nb = self.norms.get(doc as usize).copied().unwrap_or(0);
        tf as f32 / (tf as f32 + self.length_factor[nb as usize])
    }
}

/// What a text field's term adds to its documents.
#[cfg(test)]
pub struct TextTerm<'a> {
    /// Frequency per document.
    pub tfs: &'a [u32],
    /// Each document's positions in turn.
    pub positions: &'a [u32],
    /// The field's positions stream, which the term's positions are appended to.
    pub positions_out: &'a mut Vec<u8>,
    /// The stream address of `positions_out`'s first byte (the bytes before it were
    /// already written out).
    pub positions_base: u64,
    /// The field's norms and length factors.
    pub scoring: &'a BlockScoring<'a>,
}

/// Appends one term's posting (and, for text fields, its positions) from whole lists;
/// returns the posting's address. The merge writes postings in passes ([`TermScan`]);
/// this is the same posting at once.
#[cfg(test)]
pub fn encode_term(out: &mut Vec<u8>, docs: &[u32], text: Option<TextTerm<'_>>) -> u64 {
    let addr = out.len() as u64;
    put_varint(out, docs.len() as u32);
    if docs.len() <= SMALL_LIST {
        let mut prev = 0u32;
        for (i, &d) in docs.iter().enumerate() {
            put_varint(out, if i == 0 { d } else { d - prev });
            prev = d;
        }
    } else {
        let mut bm = Vec::new();
        DocSet::from_sorted(docs).serialize(&mut bm);
        put_varint(out, bm.len() as u32);
        out.extend_from_slice(&bm);
    }
    let Some(TextTerm { tfs, positions, positions_out, positions_base, scoring }) = text else { return addr };
    let positions_addr = positions_out.len() as u64;
    put_u64_varint(out, positions_base + positions_addr);
    // Positions, remembering where each block's first document starts.
    let mut block_starts = Vec::with_capacity(docs.len().div_ceil(BLOCK));
    let mut k = 0usize;
    for (i, &tf) in tfs.iter().enumerate() {
        if i % BLOCK == 0 {
            block_starts.push((positions_out.len() as u64 - positions_addr) as u32);
        }
        let mut prev = 0u32;
        for &p in &positions[k..k + tf as usize] {
            put_varint(positions_out, p - prev);
            prev = p;
        }
        k += tf as usize;
    }
    if docs.len() < BLOCK {
        for &tf in tfs {
            put_varint(out, tf);
        }
        return addr;
    }
    let packer = BitPacker4x::new();
    let mut packed = Vec::new();
    let mut block = [0u32; BLOCK];
    let mut doc_block = [0u32; BLOCK];
    let mut previous_last = 0u32;
    for (b, (chunk_docs, chunk_tfs)) in docs.chunks(BLOCK).zip(tfs.chunks(BLOCK)).enumerate() {
        block.fill(0);
        block[..chunk_tfs.len()].copy_from_slice(chunk_tfs);
        let bits = packer.num_bits(&block);
        // The documents as deltas from the previous block's last; the last block repeats
        // its last document (deltas of zero).
        let last = *chunk_docs.last().unwrap_or(&0);
        doc_block.fill(last);
        doc_block[..chunk_docs.len()].copy_from_slice(chunk_docs);
        let doc_bits = packer.num_bits_sorted(previous_last, &doc_block);
        let mut best = (0usize, f32::MIN);
        for (j, (&d, &tf)) in chunk_docs.iter().zip(chunk_tfs).enumerate() {
            let f = scoring.factor(d, tf);
            if f > best.1 {
                best = (j, f);
            }
        }
        let best_doc = chunk_docs[best.0];
        put_u32(out, *chunk_docs.last().unwrap_or(&0));
        put_u32(out, block_starts[b]);
        put_u32(out, chunk_tfs[best.0]);
        out.push(scoring.norms.get(best_doc as usize).copied().unwrap_or(0));
        out.push(bits);
        out.push(doc_bits);
        let at = packed.len();
        let doc_bytes = BitPacker4x::compressed_block_size(doc_bits);
        packed.resize(at + doc_bytes + BitPacker4x::compressed_block_size(bits), 0);
        packer.compress_sorted(previous_last, &doc_block, &mut packed[at..], doc_bits);
        packer.compress(&block, &mut packed[at + doc_bytes..], bits);
        previous_last = last;
    }
    out.extend_from_slice(&packed);
    addr
}

/// Writes one term's posting while its documents go by in order, in two passes, so that
/// no list of the term's documents is held (a term of every document would otherwise
/// hold them all): the first pass ([`TermScan`]) counts the documents, gathers their
/// set, writes their positions and each block's skip entry; [`TermScan::header`] writes
/// everything before the blocks; a second pass over the same documents ([`BlockPacker`])
/// packs the blocks. The bytes are those of [`encode_term`].
#[derive(Default)]
pub struct TermScan {
    n: usize,
    /// The first documents, kept while the list may still be short.
    small: Vec<u32>,
    set: SortedBuilder,
    text: Option<TextScan>,
}

/// A text term's first pass beyond its documents.
struct TextScan {
    /// The term's positions address.
    positions_addr: u64,
    /// The frequencies while fewer than a block.
    tfs: Vec<u32>,
    block: Block,
    skips: Vec<u8>,
}

/// The block being gathered: its documents, frequencies and where its positions start.
struct Block {
    docs: [u32; BLOCK],
    tfs: [u32; BLOCK],
    len: usize,
    positions_start: u32,
    previous_last: u32,
}

impl Block {
    fn new() -> Block {
        Block { docs: [0; BLOCK], tfs: [0; BLOCK], len: 0, positions_start: 0, previous_last: 0 }
    }

    /// The bit widths of the block's frequencies and document deltas, with the blocks
    /// padded as stored (frequencies with zeros, documents with the last).
    fn widths(&mut self, packer: &BitPacker4x) -> (u8, u8) {
        self.tfs[self.len..].fill(0);
        let last = self.docs[self.len - 1];
        self.docs[self.len..].fill(last);
        (packer.num_bits(&self.tfs), packer.num_bits_sorted(self.previous_last, &self.docs))
    }
}

impl TermScan {
    /// A scan to [`TermScan::start`]: one serves every term of a field, keeping its buffers.
    pub fn new() -> TermScan {
        TermScan::default()
    }

    /// Starts a term of a field with frequencies (`Some`, the stream address its
    /// positions start at) or without.
    pub fn start(&mut self, positions_addr: Option<u64>) {
        self.n = 0;
        self.small.clear();
        self.set.clear();
        match (positions_addr, self.text.as_mut()) {
            (Some(addr), Some(t)) => {
                t.positions_addr = addr;
                t.tfs.clear();
                t.skips.clear();
                t.block.len = 0;
                t.block.previous_last = 0;
            }
            (Some(positions_addr), None) => {
                self.text = Some(TextScan { positions_addr, tfs: Vec::new(), block: Block::new(), skips: Vec::new() })
            }
            (None, _) => self.text = None,
        }
    }

    /// Documents added.
    pub fn len(&self) -> u64 {
        self.n as u64
    }

    /// Whether no document was added.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Adds a document of a field without frequencies.
    pub fn add_doc(&mut self, doc: u32) {
        self.n += 1;
        if self.n <= SMALL_LIST {
            self.small.push(doc);
            return;
        }
        // Past a short list the documents go into a set (most terms never get one).
        if self.n == SMALL_LIST + 1 {
            for &d in &self.small {
                self.set.push(d);
            }
        }
        self.set.push(doc);
    }

    /// Adds a text document: its frequency and positions (appended to the positions
    /// stream, whose next byte has address `positions_at`).
    pub fn add_text(
        &mut self,
        doc: u32,
        positions: &[u32],
        positions_out: &mut Vec<u8>,
        positions_at: u64,
        scoring: &BlockScoring<'_>,
    ) {
        self.add_doc(doc);
        let Some(t) = self.text.as_mut() else { return };
        if t.block.len == 0 {
            t.block.positions_start = (positions_at - t.positions_addr) as u32;
        }
        let mut prev = 0u32;
        for &p in positions {
            put_varint(positions_out, p - prev);
            prev = p;
        }
        let tf = positions.len() as u32;
        if t.tfs.len() < BLOCK {
            t.tfs.push(tf);
        }
        t.block.docs[t.block.len] = doc;
        t.block.tfs[t.block.len] = tf;
        t.block.len += 1;
        if t.block.len == BLOCK {
            t.close_block(scoring);
        }
    }

    /// Writes the posting up to its blocks; returns the packer of the blocks when the
    /// term has any (feed it the same documents again).
    pub fn header(&mut self, out: &mut Vec<u8>, scoring: &BlockScoring<'_>) -> Option<BlockPacker> {
        put_varint(out, self.n as u32);
        if self.n <= SMALL_LIST {
            let mut prev = 0u32;
            for (i, &d) in self.small.iter().enumerate() {
                put_varint(out, if i == 0 { d } else { d - prev });
                prev = d;
            }
        } else {
            let mut bm = Vec::new();
            DocSet::from_bitmap(self.set.finish()).serialize(&mut bm);
            put_varint(out, bm.len() as u32);
            out.extend_from_slice(&bm);
        }
        let t = self.text.as_mut()?;
        put_u64_varint(out, t.positions_addr);
        if self.n < BLOCK {
            for &tf in &t.tfs {
                put_varint(out, tf);
            }
            return None;
        }
        if t.block.len > 0 {
            t.close_block(scoring);
        }
        out.extend_from_slice(&t.skips);
        Some(BlockPacker { packer: BitPacker4x::new(), block: Block::new() })
    }
}

impl TextScan {
    fn close_block(&mut self, scoring: &BlockScoring<'_>) {
        let packer = BitPacker4x::new();
        let b = &mut self.block;
        let (bits, doc_bits) = b.widths(&packer);
        let mut best = (0usize, f32::MIN);
        for j in 0..b.len {
            let f = scoring.factor(b.docs[j], b.tfs[j]);
            if f > best.1 {
                best = (j, f);
            }
        }
        let last = b.docs[b.len - 1];
        put_u32(&mut self.skips, last);
        put_u32(&mut self.skips, b.positions_start);
        put_u32(&mut self.skips, b.tfs[best.0]);
        self.skips.push(scoring.norms.get(b.docs[best.0] as usize).copied().unwrap_or(0));
        self.skips.push(bits);
        self.skips.push(doc_bits);
        b.previous_last = last;
        b.len = 0;
    }
}

/// The second pass of [`TermScan`]: packs the term's blocks as its documents go by again.
pub struct BlockPacker {
    packer: BitPacker4x,
    block: Block,
}

impl BlockPacker {
    /// Adds the next document and its frequency.
    pub fn add(&mut self, out: &mut Vec<u8>, doc: u32, tf: u32) {
        let b = &mut self.block;
        b.docs[b.len] = doc;
        b.tfs[b.len] = tf;
        b.len += 1;
        if b.len == BLOCK {
            self.pack(out);
        }
    }

    fn pack(&mut self, out: &mut Vec<u8>) {
        let b = &mut self.block;
        let (bits, doc_bits) = b.widths(&self.packer);
        let at = out.len();
        let doc_bytes = BitPacker4x::compressed_block_size(doc_bits);
        out.resize(at + doc_bytes + BitPacker4x::compressed_block_size(bits), 0);
        self.packer.compress_sorted(b.previous_last, &b.docs, &mut out[at..], doc_bits);
        self.packer.compress(&b.tfs, &mut out[at + doc_bytes..], bits);
        b.previous_last = b.docs[b.len - 1];
        b.len = 0;
    }

    /// Packs the last, partial block.
    pub fn finish(mut self, out: &mut Vec<u8>) {
        if self.block.len > 0 {
            self.pack(out);
        }
    }
}

fn put_u64_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// One block's skip entry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlockInfo {
    /// The block's last document.
    pub last_doc: u32,
    /// Where the block's positions start, from the term's positions address.
    pub positions_offset: u32,
    /// The block's best-scoring frequency.
    pub best_tf: u32,
    /// ... and that document's norm byte.
    pub best_norm: u8,
}

/// A term's frequencies: a short list, or blocks with skip entries, decoded a block at a
/// time.
#[derive(Debug, Clone)]
pub enum Freqs {
    /// Fewer than [`BLOCK`] documents: the frequencies themselves.
    Short(Vec<u32>),
    /// [`BLOCK`] documents or more.
    Blocks {
        /// Documents in the posting.
        n: usize,
        /// The skip entries.
        skips: Vec<u8>,
        /// The bit-packed blocks: each block's documents, then its frequencies.
        packed: Vec<u8>,
        /// Byte offset of each block in `packed`.
        starts: Vec<u32>,
    },
}

impl Freqs {
    /// Number of blocks (a short list is one).
    pub fn block_count(&self) -> usize {
        match self {
            Freqs::Short(_) => 1,
            Freqs::Blocks { starts, .. } => starts.len(),
        }
    }

    /// The skip entry of block `b` (`None` for short lists, which have none).
    pub fn block(&self, b: usize) -> Option<BlockInfo> {
        let Freqs::Blocks { skips, .. } = self else { return None };
        let at = b * SKIP_ENTRY;
        let e = skips.get(at..at + SKIP_ENTRY)?;
        Some(BlockInfo {
            last_doc: get_u32(e, 0),
            positions_offset: get_u32(e, 4),
            best_tf: get_u32(e, 8),
            best_norm: e[12],
        })
    }

    /// Decodes the frequencies of block `b` into `out`; returns how many it holds.
    pub fn decode_block(&self, b: usize, out: &mut [u32; BLOCK]) -> usize {
        if b >= self.block_count() {
            return 0;
        }
        match self {
            Freqs::Short(v) => {
                out[..v.len()].copy_from_slice(v);
                v.len()
            }
            Freqs::Blocks { n, skips, packed, starts } => {
                let bits = skips[b * SKIP_ENTRY + 13];
                let doc_bits = skips[b * SKIP_ENTRY + 14];
                let at = starts[b] as usize + bitpack::block_bytes(doc_bits);
                // Lengths were checked when the posting was read.
                bitpack::unpack(&packed[at..], out, bits);
                (*n - b * BLOCK).min(BLOCK)
            }
        }
    }

    /// Decodes the documents of block `b` into `out` (`false` for a short list, whose
    /// documents come from the posting's set).
    pub fn decode_docs(&self, b: usize, out: &mut [u32; BLOCK]) -> bool {
        let Freqs::Blocks { skips, packed, starts, .. } = self else { return false };
        if b >= starts.len() {
            return false;
        }
        let doc_bits = skips[b * SKIP_ENTRY + 14];
        let previous_last = if b == 0 { 0 } else { get_u32(skips, (b - 1) * SKIP_ENTRY) };
        bitpack::unpack_sorted(previous_last, &packed[starts[b] as usize..], out, doc_bits);
        true
    }

    /// The frequency of the `k`-th document.
    pub fn get(&self, k: usize) -> Option<u32> {
        let mut block = [0u32; BLOCK];
        let n = self.decode_block(k / BLOCK, &mut block);
        (k % BLOCK < n).then(|| block[k % BLOCK])
    }

    /// Every frequency, in document order.
    #[cfg(test)]
    pub fn to_vec(&self) -> Vec<u32> {
        let mut out = Vec::new();
        let mut block = [0u32; BLOCK];
        for b in 0..self.block_count() {
            let k = self.decode_block(b, &mut block);
            out.extend_from_slice(&block[..k]);
        }
        out
    }
}

/// Finds where documents sit in a term's posting (their index, which addresses their
/// frequencies and positions), moving forward only: through the skip entries to the one
/// block that may hold a document, then within that block's decoded documents. The
/// posting's document list is never built whole.
pub struct PostingPlaces<'p> {
    freqs: &'p Freqs,
    /// The block whose documents `docs` holds (`usize::MAX`: none yet).
    block: usize,
    docs: [u32; BLOCK],
    len: usize,
    /// Where the next search starts within the block.
    at: usize,
}

impl<'p> PostingPlaces<'p> {
    /// Places in the posting of `docs` with frequencies `freqs` (a short list's
    /// documents are taken from the set, which holds fewer than [`BLOCK`]).
    pub fn new(docs: &DocSet, freqs: &'p Freqs) -> PostingPlaces<'p> {
        let mut places = PostingPlaces { freqs, block: usize::MAX, docs: [0; BLOCK], len: 0, at: 0 };
        if let Freqs::Short(_) = freqs {
            for (slot, d) in places.docs.iter_mut().zip(docs.iter()) {
                *slot = d;
                places.len += 1;
            }
            places.block = 0;
        }
        places
    }

    /// The index of `doc` in the posting, if it holds it. Documents must be asked for in
    /// ascending order.
    pub fn find(&mut self, doc: u32) -> Option<usize> {
        if let Freqs::Blocks { n, .. } = self.freqs {
            let mut b = if self.block == usize::MAX { 0 } else { self.block };
            while self.freqs.block(b)?.last_doc < doc {
                b += 1;
            }
            if b != self.block {
                self.freqs.decode_docs(b, &mut self.docs);
                self.block = b;
                self.len = (n - b * BLOCK).min(BLOCK);
                self.at = 0;
            }
        }
        let held = &self.docs[..self.len];
        let i = self.at + held[self.at..].partition_point(|&d| d < doc);
        self.at = i;
        (held.get(i) == Some(&doc)).then_some(self.block * BLOCK + i)
    }
}

/// A decoded posting.
#[derive(Debug, Clone)]
pub struct Postings {
    /// Documents containing the term.
    pub docs: DocSet,
    /// Term frequencies (text fields; `None`: all 1).
    pub freqs: Option<Freqs>,
    /// Address of the term's positions (text fields).
    pub positions: Option<u64>,
}

/// Decodes the posting at the reader's position.
pub fn decode_term(r: &mut StreamReader<'_>, with_freqs: bool) -> Result<Postings> {
    let n = r.varint()? as usize;
    let docs = if n <= SMALL_LIST {
        let mut v = Vec::with_capacity(n);
        let mut prev = 0u32;
        for i in 0..n {
            let d = r.varint()? as u32;
            prev = if i == 0 { d } else { prev.wrapping_add(d) };
            v.push(prev);
        }
        DocSet::from_sorted(&v)
    } else {
        let len = r.varint()? as usize;
        DocSet::deserialize(&r.bytes(len)?).ok_or_else(|| Error::storage("corrupt posting bitmap"))?
    };
    if docs.len() != n as u64 {
        return Err(Error::storage("corrupt posting: document count"));
    }
    if !with_freqs {
        return Ok(Postings { docs, freqs: None, positions: None });
    }
    let positions = Some(r.varint()?);
    let freqs = if n < BLOCK {
        let mut t = Vec::with_capacity(n);
        for _ in 0..n {
            t.push(r.varint()? as u32);
        }
        Freqs::Short(t)
    } else {
        let blocks = n.div_ceil(BLOCK);
        let skips = r.bytes(blocks * SKIP_ENTRY)?;
        let mut starts = Vec::with_capacity(blocks);
        let mut total = 0usize;
        for b in 0..blocks {
            let (bits, doc_bits) = (skips[b * SKIP_ENTRY + 13], skips[b * SKIP_ENTRY + 14]);
            if bits > 32 || doc_bits > 32 {
                return Err(Error::storage("corrupt posting: block width"));
            }
            starts.push(total as u32);
            total += BitPacker4x::compressed_block_size(doc_bits) + BitPacker4x::compressed_block_size(bits);
        }
        let packed = r.bytes(total)?;
        Freqs::Blocks { n, skips, packed, starts }
    };
    Ok(Postings { docs, freqs: Some(freqs), positions })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scoring(norms: &[u8]) -> BlockScoring<'_> {
        BlockScoring { norms, length_factor: super::super::norms::norm_cache(3.0) }
    }

    /// Writes a term the way the merge does: a first pass, the header, a second pass.
    fn two_pass(
        scan: &mut TermScan,
        out: &mut Vec<u8>,
        pos: &mut Vec<u8>,
        docs: &[u32],
        text: Option<(&[u32], &BlockScoring<'_>)>,
    ) {
        scan.start(text.map(|_| 2 + pos.len() as u64));
        let mut k = 0;
        for (i, &d) in docs.iter().enumerate() {
            match text {
                Some((tfs, s)) => {
                    let positions: Vec<u32> = (0..tfs[i]).map(|p| p * 2 + (k as u32 % 3)).collect();
                    k += positions.len();
                    let at = 2 + pos.len() as u64;
                    scan.add_text(d, &positions, pos, at, s);
                }
                None => scan.add_doc(d),
            }
        }
        let scoring = text.map(|(_, s)| s);
        let empty = BlockScoring { norms: &[], length_factor: [1.0; 256] };
        if let Some(mut packer) = scan.header(out, scoring.unwrap_or(&empty)) {
            let tfs = text.map(|(t, _)| t).unwrap_or_default();
            for (i, &d) in docs.iter().enumerate() {
                packer.add(out, d, tfs[i]);
            }
            packer.finish(out);
        }
    }

    proptest::proptest! {
        #[test]
        fn two_passes_write_what_whole_lists_write(
            gaps in proptest::collection::vec(1u32..5000, 1..700),
            tf_seed in proptest::collection::vec(1u32..9, 700),
            text in proptest::bool::ANY,
        ) {
            let docs: Vec<u32> = gaps.iter().scan(0u32, |d, &g| { *d += g; Some(*d - 1) }).collect();
            let tfs: Vec<u32> = (0..docs.len()).map(|i| tf_seed[i % tf_seed.len()]).collect();
            let mut k = 0;
            let positions: Vec<u32> = tfs.iter().flat_map(|&tf| {
                let start = k;
                k += tf as usize;
                (0..tf).map(move |p| p * 2 + (start as u32 % 3))
            }).collect();
            let norms: Vec<u8> = (0..=*docs.last().unwrap()).map(|d| (d * 7 % 200) as u8).collect();
            let s = scoring(&norms);
            let (mut want, mut want_pos) = (vec![1, 2], vec![9; 3]);
            let text_term = text.then(|| TextTerm {
                tfs: &tfs, positions: &positions, positions_out: &mut want_pos, positions_base: 2, scoring: &s,
            });
            encode_term(&mut want, &docs, text_term);
            let (mut got, mut got_pos) = (vec![1, 2], vec![9; 3]);
            // A scan serves one term after another: a first term must leave nothing behind.
            let mut scan = TermScan::new();
            let (mut first, mut first_pos) = (Vec::new(), Vec::new());
            let others: Vec<u32> = docs.iter().map(|d| d / 2).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
            two_pass(&mut scan, &mut first, &mut first_pos, &others, text.then_some((&tfs[..], &s)));
            two_pass(&mut scan, &mut got, &mut got_pos, &docs, text.then_some((&tfs[..], &s)));
            proptest::prop_assert_eq!(got, want);
            proptest::prop_assert_eq!(got_pos, want_pos);
        }
    }

    #[test]
    fn blocks_keep_every_frequency_and_their_best_pair() {
        let n = 300u32;
        let docs: Vec<u32> = (0..n).map(|i| i * 3).collect();
        let tfs: Vec<u32> = (0..n).map(|i| 1 + i % 7).collect();
        let positions: Vec<u32> = tfs.iter().flat_map(|&tf| 0..tf).collect();
        let norms: Vec<u8> = (0..n * 3).map(|d| (d % 40) as u8).collect();
        let s = scoring(&norms);
        let (mut out, mut pos) = (vec![0xAA], Vec::new());
        let text =
            TextTerm { tfs: &tfs, positions: &positions, positions_out: &mut pos, positions_base: 0, scoring: &s };
        let addr = encode_term(&mut out, &docs, Some(text));
        assert_eq!(addr, 1);
        let freqs = {
            // Decode through a memory image of the stream.
            let mut r = StreamReader::over_bytes(&out, addr);
            decode_term(&mut r, true).unwrap()
        };
        assert_eq!(freqs.docs.len(), n as u64);
        let f = freqs.freqs.unwrap();
        assert_eq!(f.block_count(), 3);
        assert_eq!(f.to_vec(), tfs);
        for b in 0..3 {
            let info = f.block(b).unwrap();
            let range = b * BLOCK..((b + 1) * BLOCK).min(n as usize);
            assert_eq!(info.last_doc, docs[range.end - 1]);
            let mut block_docs = [0u32; BLOCK];
            assert!(f.decode_docs(b, &mut block_docs));
            assert_eq!(&block_docs[..range.len()], &docs[range.clone()]);
            let best = range.clone().map(|i| s.factor(docs[i], tfs[i])).fold(f32::MIN, f32::max);
            let got = info.best_tf as f32 / (info.best_tf as f32 + s.length_factor[info.best_norm as usize]);
            assert_eq!(got, best);
            // Positions offsets point at each block's first document.
            let before: u32 = tfs[..range.start].iter().sum();
            assert_eq!(info.positions_offset, before, "one byte per delta here");
        }
    }

    #[test]
    fn short_lists_are_varints() {
        let docs = [1, 5, 9];
        let tfs = [2, 1, 3];
        let positions = [0, 4, 7, 1, 2, 3];
        let norms = [1u8; 10];
        let s = scoring(&norms);
        let (mut out, mut pos) = (Vec::new(), Vec::new());
        encode_term(
            &mut out,
            &docs,
            Some(TextTerm {
                tfs: &tfs,
                positions: &positions,
                positions_out: &mut pos,
                positions_base: 0,
                scoring: &s,
            }),
        );
        let mut r = StreamReader::over_bytes(&out, 0);
        let p = decode_term(&mut r, true).unwrap();
        assert_eq!(p.docs.iter().collect::<Vec<_>>(), docs);
        assert_eq!(p.freqs.unwrap().to_vec(), tfs);
        assert_eq!(pos, vec![0, 4, 7, 1, 1, 1]);
    }

    #[test]
    fn places_find_each_document_and_only_those() {
        for n in [5u32, 127, 128, 300, 1000] {
            let docs: Vec<u32> = (0..n).map(|i| i * 3 + 1).collect();
            let tfs = vec![1u32; n as usize];
            let positions = vec![0u32; n as usize];
            let norms = vec![1u8; (n * 3 + 2) as usize];
            let s = scoring(&norms);
            let (mut out, mut pos) = (Vec::new(), Vec::new());
            let text =
                TextTerm { tfs: &tfs, positions: &positions, positions_out: &mut pos, positions_base: 0, scoring: &s };
            encode_term(&mut out, &docs, Some(text));
            let p = decode_term(&mut StreamReader::over_bytes(&out, 0), true).unwrap();
            let freqs = p.freqs.as_ref().unwrap();
            let mut places = PostingPlaces::new(&p.docs, freqs);
            // Every document and every gap between them, ascending.
            for d in 0..n * 3 + 3 {
                let want = docs.binary_search(&d).ok();
                assert_eq!(places.find(d), want, "document {d} of {n}");
            }
            // Sparse questions skip whole blocks.
            let mut places = PostingPlaces::new(&p.docs, freqs);
            for k in (0..n as usize).step_by(200) {
                assert_eq!(places.find(docs[k]), Some(k));
            }
        }
    }
}
