//! The block doc store: every document's `_id`, `_type` and `_source` bytes in document
//! order, packed into blocks of about [`BLOCK_BYTES`] and each block compressed with LZ4.
//!
//! Compressing many records together finds the repetition between them (field names,
//! shared values) that one record alone does not have, so the store is about half the
//! size of per-record compression; a scroll page or a top-10 fetch decompresses each
//! block it touches once, through a small cache of decompressed blocks.
//!
//! The compressed blocks are one byte stream stored in the fixed-size chunks of
//! `index::stream` (table `g{N}/docs`, field number 0), so a block costs no redb entry of
//! its own and no page rounding. The block index (blob `docs`) lists each block's first
//! document and where it starts in the stream: `u32` block count, then per block its
//! first document (`u32`) and stream offset (`u64`), then the stream's length (`u64`).
//!
//! A stored block is the CRC-32 of its decompressed bytes (`u32`), then LZ4's
//! size-prepended compression of them. A decompressed block is its records one after
//! another: varint length + `_id`, varint length + `_type`, varint length + `_source`.
//! The checksum is why a reader may copy a `_source` into a response without checking
//! that it is JSON: the loader stored it checked, and damage is caught here, once per
//! block, at a small fraction of a JSON scan's cost.
//!
//! Writing streams: [`DocStoreBuilder`] takes documents in order and writes each block
//! to a writer as soon as it fills (a load's temporary file), so its memory is one
//! block whatever the number of documents; [`DocStoreBlocks::store`] copies the stream
//! into the load's transaction a chunk at a time (through `index::stream`'s
//! `StreamWriter`). [`DocStoreReader`] serves random access (with the cache) and
//! [`SequentialDocs`] reads a whole store in order (export, copying a store into another).

use super::codec::{get_u32, get_u64, get_varint, put_u32, put_varint};
use super::stream::{StreamReader, StreamWriter};
use crate::error::{Error, Result};
use crate::lru::Lru;
use crate::store::{Snapshot, WriteTxn};
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};

/// Uncompressed bytes after which a block is closed. 16 KiB rather than 32: a fetch of
/// scattered hits (a sorted top-100) decompresses a block per hit, so halving the block
/// nearly halves it, for about 30 more bytes per document (BENCHMARKS.md, "The block doc
/// store", and the 16 KiB change after it).
pub const BLOCK_BYTES: usize = 16 * 1024;

/// The generation table holding the compressed stream's chunks.
pub const DOCS_PART: &str = "docs";

/// The blob key of the block index.
const INDEX_BLOB: &str = "docs";

/// The stream's field number in the chunk keys (the store is the table's only stream).
const STREAM_FID: u32 = 0;

/// Decompressed blocks kept per index reader: a scroll page of 1000 typical records spans
/// a few dozen 16 KiB blocks, and a top-10 fetch at most ten.
const CACHE_BYTES: usize = 8 << 20;
/// At most this many cached blocks (bounds the LRU's linear eviction scan).
const CACHE_ENTRIES: usize = 512;

/// LZ4 cannot expand data more than about 255 times: a block claiming a larger size is
/// damaged, and trusting its size prefix could allocate gigabytes.
const MAX_RATIO: usize = 255;

/// The chunk key of chunk `no` of the store's stream.
#[cfg(test)]
fn chunk_key(no: u64) -> u64 {
    super::stream::chunk_key(STREAM_FID, no)
}

/// Compresses documents, in order, into a doc store's stream, written to any writer as
/// blocks fill (the load builds it into a temporary file on a thread of its own, beside
/// the field merges), and lists the blocks; [`DocStoreBlocks::store`] then copies the
/// stream into a generation.
pub struct DocStoreBuilder<W: Write> {
    out: W,
    /// Bytes of the stream written to `out`.
    written: u64,
    /// The open block's records, uncompressed.
    block: Vec<u8>,
    /// The first document of the open block.
    block_first: u32,
    /// The next document's ordinal.
    next_doc: u32,
    /// `(first document, stream offset)` of each closed block.
    index: Vec<(u32, u64)>,
}

/// The blocks of a built doc store stream: where each starts, and the stream's length.
pub struct DocStoreBlocks {
    index: Vec<(u32, u64)>,
    length: u64,
}

fn stream_error(e: std::io::Error) -> Error {
    Error::storage(format!("document store stream: {e}"))
}

impl<W: Write> DocStoreBuilder<W> {
    /// A builder of an empty store writing its stream to `out`.
    pub fn new(out: W) -> DocStoreBuilder<W> {
        DocStoreBuilder {
            out,
            written: 0,
            block: Vec::with_capacity(BLOCK_BYTES + BLOCK_BYTES / 4),
            block_first: 0,
            next_doc: 0,
            index: Vec::new(),
        }
    }

    /// Appends the next document; its ordinal is the number appended before it.
    pub fn append(&mut self, id: &str, doc_type: &str, source: &[u8]) -> Result<()> {
        if self.next_doc == u32::MAX {
            return Err(Error::storage("too many documents for one index"));
        }
        for part in [id.as_bytes(), doc_type.as_bytes(), source] {
            let len = u32::try_from(part.len()).map_err(|_| Error::storage("document too large to store"))?;
            put_varint(&mut self.block, len);
            self.block.extend_from_slice(part);
        }
        self.next_doc += 1;
        if self.block.len() >= BLOCK_BYTES {
            self.close_block()?;
        }
        Ok(())
    }

    /// Compresses the open block onto the stream.
    fn close_block(&mut self) -> Result<()> {
        if self.next_doc == self.block_first {
            return Ok(());
        }
        self.index.push((self.block_first, self.written));
        let compressed = lz4_flex::compress_prepend_size(&self.block);
        self.out.write_all(&crc32fast::hash(&self.block).to_le_bytes()).map_err(stream_error)?;
        self.out.write_all(&compressed).map_err(stream_error)?;
        self.written += 4 + compressed.len() as u64;
        self.block.clear();
        self.block_first = self.next_doc;
        Ok(())
    }

    /// Closes the last block; returns the writer and the blocks.
    pub fn finish(mut self) -> Result<(W, DocStoreBlocks)> {
        self.close_block()?;
        self.out.flush().map_err(stream_error)?;
        Ok((self.out, DocStoreBlocks { index: self.index, length: self.written }))
    }
}

impl DocStoreBlocks {
    /// Copies the stream, read from `stream`'s current position, into generation
    /// `generation` of `txn` a chunk at a time, and writes the block index; returns the
    /// store's size in bytes.
    pub fn store(self, txn: &mut WriteTxn, generation: u64, stream: &mut dyn Read) -> Result<u64> {
        let mut out = StreamWriter::new(DOCS_PART, STREAM_FID);
        let mut left = self.length;
        while left > 0 {
            let at = out.buf.len();
            let n = left.min(1 << 20) as usize;
            out.buf.resize(at + n, 0);
            stream.read_exact(&mut out.buf[at..]).map_err(stream_error)?;
            left -= n as u64;
            out.drain(txn, generation)?;
        }
        let length = out.finish(txn, generation)?;
        let mut index = Vec::with_capacity(4 + self.index.len() * 12 + 8);
        put_u32(&mut index, self.index.len() as u32);
        for (first, offset) in &self.index {
            put_u32(&mut index, *first);
            index.extend_from_slice(&offset.to_le_bytes());
        }
        index.extend_from_slice(&length.to_le_bytes());
        txn.gen_put_blob(generation, INDEX_BLOB, &index)?;
        Ok(length + index.len() as u64)
    }
}

/// The block index of a stored doc store.
#[derive(Debug)]
struct BlockIndex {
    /// First document of each block, ascending from 0.
    first: Vec<u32>,
    /// Stream offset of each block, then the stream's length.
    offsets: Vec<u64>,
}

impl BlockIndex {
    /// Reads and checks the index of a store of `doc_count` documents; a damaged index is
    /// a storage error, never a panic later.
    fn load(snap: &Snapshot, generation: u64, doc_count: u32) -> Result<BlockIndex> {
        let damaged = || Error::storage("damaged document store index: the file is corrupt");
        let buf = snap.gen_blob(generation, INDEX_BLOB)?.ok_or_else(damaged)?;
        let n = get_u32(&buf, 0) as usize;
        if buf.len() != n.checked_mul(12).and_then(|b| b.checked_add(12)).ok_or_else(damaged)? {
            return Err(damaged());
        }
        let first: Vec<u32> = (0..n).map(|b| get_u32(&buf, 4 + b * 12)).collect();
        let mut offsets: Vec<u64> = (0..n).map(|b| get_u64(&buf, 8 + b * 12)).collect();
        offsets.push(get_u64(&buf, 4 + n * 12));
        let firsts_ok = first.first().is_none_or(|f| *f == 0)
            && first.windows(2).all(|w| w[0] < w[1])
            && first.last().is_none_or(|f| *f < doc_count)
            && (n > 0 || doc_count == 0);
        if !firsts_ok || offsets.windows(2).any(|w| w[0] >= w[1]) || offsets[0] != 0 {
            return Err(damaged());
        }
        Ok(BlockIndex { first, offsets })
    }

    /// The block holding `doc`.
    fn block_of(&self, doc: u32) -> usize {
        self.first.partition_point(|f| *f <= doc).saturating_sub(1)
    }

    /// Reads and decompresses block `b` from `stream`.
    fn read_block(&self, stream: &mut StreamReader, b: usize) -> Result<Vec<u8>> {
        let (start, end) = (self.offsets[b], self.offsets[b + 1]);
        stream.seek(start);
        let damaged = || Error::storage("damaged document block: the file is corrupt");
        let len = usize::try_from(end - start).map_err(|_| damaged())?;
        // Borrowed from the stream's chunk when the block lies inside one (most do).
        let compressed = stream.slice(len)?;
        let (checksum, payload) = (get_u32(&compressed, 0), compressed.get(4..).ok_or_else(damaged)?);
        let claimed = payload.get(..4).map_or(usize::MAX, |_| get_u32(payload, 0) as usize);
        if claimed > payload.len().saturating_mul(MAX_RATIO) {
            return Err(damaged());
        }
        let bytes = lz4_flex::decompress_size_prepended(payload)
            .map_err(|e| Error::storage(format!("damaged document block: {e}")))?;
        if crc32fast::hash(&bytes) != checksum {
            return Err(damaged());
        }
        Ok(bytes)
    }
}

/// One decompressed block with where each of its records starts.
#[derive(Debug)]
struct Block {
    bytes: Vec<u8>,
    /// Start of each record in `bytes`.
    starts: Vec<u32>,
}

impl Block {
    /// Splits decompressed `bytes` into `count` records.
    fn parse(bytes: Vec<u8>, count: usize) -> Result<Block> {
        let damaged = || Error::storage("damaged document block: the file is corrupt");
        let mut starts = Vec::with_capacity(count);
        let mut pos = 0usize;
        for _ in 0..count {
            starts.push(pos as u32);
            for _ in 0..3 {
                let len = get_varint(&bytes, &mut pos).ok_or_else(damaged)? as usize;
                pos = pos.checked_add(len).filter(|p| *p <= bytes.len()).ok_or_else(damaged)?;
            }
        }
        Ok(Block { bytes, starts })
    }

    /// Record `i` of `block` (checked by `parse`), sharing the block's bytes.
    fn record(block: &Arc<Block>, i: usize) -> Result<StoredDoc> {
        let damaged = || Error::storage("damaged document block: the file is corrupt");
        let mut pos = *block.starts.get(i).ok_or_else(damaged)? as usize;
        let mut parts = [(0u32, 0u32); 3];
        for part in &mut parts {
            let len = get_varint(&block.bytes, &mut pos).ok_or_else(damaged)? as usize;
            let end = pos.checked_add(len).filter(|e| *e <= block.bytes.len()).ok_or_else(damaged)?;
            *part = (pos as u32, end as u32);
            pos = end;
        }
        let [id, doc_type, source] = parts;
        Ok(StoredDoc { block: block.clone(), id, doc_type, source })
    }
}

/// Random access to one generation's documents, with a cache of decompressed blocks.
pub struct DocStoreReader {
    generation: u64,
    doc_count: u32,
    index: Mutex<Option<Arc<BlockIndex>>>,
    cache: Mutex<Lru<usize, Arc<Block>>>,
}

impl std::fmt::Debug for DocStoreReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DocStoreReader").field("generation", &self.generation).finish_non_exhaustive()
    }
}

impl DocStoreReader {
    /// A reader of the store of `generation`, which holds `doc_count` documents.
    pub fn new(generation: u64, doc_count: u32) -> DocStoreReader {
        DocStoreReader {
            generation,
            doc_count,
            index: Mutex::new(None),
            cache: Mutex::new(Lru::new(CACHE_BYTES, CACHE_ENTRIES)),
        }
    }

    fn index(&self, snap: &Snapshot) -> Result<Arc<BlockIndex>> {
        let mut slot = self.index.lock().map_err(|_| Error::storage("cache lock poisoned"))?;
        if let Some(ix) = slot.as_ref() {
            return Ok(ix.clone());
        }
        let ix = Arc::new(BlockIndex::load(snap, self.generation, self.doc_count)?);
        *slot = Some(ix.clone());
        Ok(ix)
    }

    /// The stored `_id`, `_type` and `_source` bytes of `doc`.
    pub fn document(&self, snap: &Snapshot, doc: u32) -> Result<StoredDoc> {
        if doc >= self.doc_count {
            return Err(Error::storage(format!("missing document {doc}")));
        }
        let index = self.index(snap)?;
        let b = index.block_of(doc);
        let cached = self.cache.lock().map_err(|_| Error::storage("cache lock poisoned"))?.get_mut(&b).cloned();
        let block = match cached {
            Some(block) => block,
            None => {
                let mut stream = StreamReader::new(snap, self.generation, DOCS_PART, STREAM_FID, 0);
                let end = index.first.get(b + 1).copied().unwrap_or(self.doc_count);
                let block = Arc::new(Block::parse(index.read_block(&mut stream, b)?, (end - index.first[b]) as usize)?);
                let bytes = block.bytes.len() + block.starts.len() * 4;
                self.cache.lock().map_err(|_| Error::storage("cache lock poisoned"))?.insert(b, block.clone(), bytes);
                block
            }
        };
        Block::record(&block, (doc - index.first[b]) as usize)
    }
}

/// Every document of a store in order, each block decompressed once and not cached (a
/// full read must not evict what searches use). Exports read stores whole; the browser
/// module has none.
#[cfg(not(target_arch = "wasm32"))]
pub struct SequentialDocs<'s> {
    stream: StreamReader<'s>,
    index: BlockIndex,
    doc_count: u32,
    next: u32,
    block: Option<(usize, Arc<Block>)>,
}

#[cfg(not(target_arch = "wasm32"))]
impl<'s> SequentialDocs<'s> {
    /// A reader of the `doc_count` documents of `generation`'s store, from the first.
    pub fn new(snap: &'s Snapshot, generation: u64, doc_count: u32) -> Result<SequentialDocs<'s>> {
        Ok(SequentialDocs {
            stream: StreamReader::new(snap, generation, DOCS_PART, STREAM_FID, 0),
            index: BlockIndex::load(snap, generation, doc_count)?,
            doc_count,
            next: 0,
            block: None,
        })
    }

    fn read(&mut self) -> Result<StoredDoc> {
        let doc = self.next;
        let b = self.index.block_of(doc);
        if self.block.as_ref().is_none_or(|(have, _)| *have != b) {
            let end = self.index.first.get(b + 1).copied().unwrap_or(self.doc_count);
            let bytes = self.index.read_block(&mut self.stream, b)?;
            self.block = Some((b, Arc::new(Block::parse(bytes, (end - self.index.first[b]) as usize)?)));
        }
        let (_, block) = self.block.as_ref().ok_or_else(|| Error::storage("document block missing"))?;
        Block::record(block, (doc - self.index.first[b]) as usize)
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Iterator for SequentialDocs<'_> {
    type Item = Result<StoredDoc>;

    fn next(&mut self) -> Option<Result<StoredDoc>> {
        if self.next >= self.doc_count {
            return None;
        }
        let r = self.read();
        // A damaged block ends the iteration after its error.
        self.next = if r.is_ok() { self.next + 1 } else { self.doc_count };
        Some(r)
    }
}

/// A stored document: its `_id`, `_type` and `_source` inside the decompressed block
/// that holds it, shared rather than copied (a scroll page of 1000 hits copies no
/// source until the response is written).
#[derive(Clone)]
pub struct StoredDoc {
    block: Arc<Block>,
    id: (u32, u32),
    doc_type: (u32, u32),
    source: (u32, u32),
}

impl StoredDoc {
    fn part(&self, (start, end): (u32, u32)) -> &[u8] {
        &self.block.bytes[start as usize..end as usize]
    }

    /// `_id`.
    pub fn id(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.part(self.id))
    }

    /// `_type`.
    pub fn doc_type(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.part(self.doc_type))
    }

    /// `_source` JSON bytes as loaded.
    pub fn source(&self) -> &[u8] {
        self.part(self.source)
    }
}

impl std::fmt::Debug for StoredDoc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredDoc").field("id", &self.id()).field("doc_type", &self.doc_type()).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::stream::CHUNK;
    use crate::store::Store;

    /// A fresh file in the temp directory, removed when dropped.
    struct TempStore(std::path::PathBuf, Store);

    impl Drop for TempStore {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    fn temp_store(name: &str) -> TempStore {
        let path = std::env::temp_dir().join(format!("mg-docstore-{name}-{}.redb", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let store = Store::open(&path, true).expect("open");
        TempStore(path, store)
    }

    /// Documents of varied sizes: tiny, typical, empty sources and one larger than a block.
    fn docs() -> Vec<(String, String, Vec<u8>)> {
        (0..3000u32)
            .map(|i| {
                let source = match i % 7 {
                    0 => Vec::new(),
                    1 if i == 1 => vec![b'x'; 3 * BLOCK_BYTES + 17],
                    _ => {
                        format!(r#"{{"name":"record {i}","n":{},"text":"{}"}}"#, i * 31, "ab".repeat((i % 50) as usize))
                            .into_bytes()
                    }
                };
                (format!("id-{i}"), if i % 2 == 0 { "_doc" } else { "t" }.to_string(), source)
            })
            .collect()
    }

    fn write(ts: &TempStore, generation: u64, docs: &[(String, String, Vec<u8>)]) -> u64 {
        let mut txn = ts.1.write().expect("txn");
        let mut w = DocStoreBuilder::new(Vec::new());
        for (id, t, s) in docs {
            w.append(id, t, s).expect("append");
        }
        let (stream, blocks) = w.finish().expect("finish");
        let bytes = blocks.store(&mut txn, generation, &mut &stream[..]).expect("store");
        txn.commit().expect("commit");
        bytes
    }

    #[test]
    fn documents_read_back_in_any_order_and_in_sequence() {
        let ts = temp_store("roundtrip");
        let docs = docs();
        let bytes = write(&ts, 1, &docs);
        let raw: usize = docs.iter().map(|d| d.2.len()).sum();
        assert!(bytes > CHUNK as u64, "the stream spans several chunks ({bytes} bytes)");
        assert!(bytes < raw as u64 / 2, "blocks compress the repetitive records ({bytes} of {raw})");
        let snap = ts.1.read().expect("snap");
        let reader = DocStoreReader::new(1, docs.len() as u32);
        // Backwards, then strided: every block is found from any starting point.
        let order = (0..docs.len()).rev().chain((0..docs.len()).step_by(97));
        for d in order {
            let got = reader.document(&snap, d as u32).expect("document");
            assert_eq!(
                (got.id(), got.doc_type(), got.source()),
                (docs[d].0.as_str().into(), docs[d].1.as_str().into(), docs[d].2.as_slice()),
                "doc {d}"
            );
        }
        let all: Vec<StoredDoc> =
            SequentialDocs::new(&snap, 1, docs.len() as u32).expect("seq").map(|d| d.expect("doc")).collect();
        assert_eq!(all.len(), docs.len());
        assert!(all.iter().zip(&docs).all(|(a, b)| a.id() == b.0 && a.doc_type() == b.1 && a.source() == b.2));
        assert_eq!(
            reader.document(&snap, docs.len() as u32).err().map(|e| e.reason().to_string()),
            Some(format!("missing document {}", docs.len()))
        );
    }

    #[test]
    fn a_cached_block_serves_its_neighbours() {
        let ts = temp_store("cache");
        let docs = docs();
        write(&ts, 1, &docs);
        let snap = ts.1.read().expect("snap");
        let reader = DocStoreReader::new(1, docs.len() as u32);
        for d in 100..200 {
            reader.document(&snap, d).expect("document");
        }
        let index = reader.index(&snap).expect("index");
        let blocks = index.block_of(199) - index.block_of(100) + 1;
        assert!(blocks < 100, "neighbours share blocks");
        let mut cache = reader.cache.lock().expect("lock");
        assert!(
            (index.block_of(100)..=index.block_of(199)).all(|b| cache.get_mut(&b).is_some()),
            "each block read once and kept"
        );
    }

    #[test]
    fn an_empty_store_has_no_documents() {
        let ts = temp_store("empty");
        write(&ts, 1, &[]);
        let snap = ts.1.read().expect("snap");
        assert_eq!(SequentialDocs::new(&snap, 1, 0).expect("seq").count(), 0);
        assert!(DocStoreReader::new(1, 0).document(&snap, 0).is_err());
    }

    #[test]
    fn a_damaged_store_is_a_storage_error() {
        let ts = temp_store("damaged");
        let docs = docs();
        write(&ts, 1, &docs);
        let n = docs.len() as u32;
        // An index that claims more blocks than it holds, or offsets that go backwards.
        for bad in [vec![9, 0, 0, 0], {
            let mut v = vec![2, 0, 0, 0];
            v.extend([0; 8]);
            v.extend([5, 0, 0, 0]);
            v.extend([0; 16]);
            v
        }] {
            let mut txn = ts.1.write().expect("txn");
            txn.gen_put_blob(1, INDEX_BLOB, &bad).expect("put");
            txn.commit().expect("commit");
            let snap = ts.1.read().expect("snap");
            let e = DocStoreReader::new(1, n).document(&snap, 0).err().map(|e| e.reason().to_string());
            assert_eq!(e.as_deref(), Some("damaged document store index: the file is corrupt"));
        }
        // A block whose bytes are garbage (its size prefix claims gigabytes).
        write(&ts, 2, &docs);
        let mut txn = ts.1.write().expect("txn");
        txn.gen_put_all(2, DOCS_PART, std::iter::once((chunk_key(0), &[0xff_u8; CHUNK][..]))).expect("put");
        txn.commit().expect("commit");
        let snap = ts.1.read().expect("snap");
        let e = DocStoreReader::new(2, n).document(&snap, 0).err().map(|e| e.reason().to_string());
        assert_eq!(e.as_deref(), Some("damaged document block: the file is corrupt"));
        let mut seq = SequentialDocs::new(&snap, 2, n).expect("seq");
        assert!(seq.next().is_some_and(|r| r.is_err()));
        assert!(seq.next().is_none(), "iteration stops after a damaged block");
    }

    #[test]
    fn a_block_that_still_decompresses_but_changed_fails_its_checksum() {
        let ts = temp_store("checksum");
        let docs = docs();
        write(&ts, 1, &docs);
        let snap = ts.1.read().expect("snap");
        let mut chunk = snap.gen_get(1, DOCS_PART, chunk_key(0)).expect("get").expect("chunk").to_vec();
        drop(snap);
        // The first record's `_id` ("id-0") is a literal in the first block's LZ4 data:
        // changed, the block still decompresses, to other bytes.
        let at = chunk.windows(4).position(|w| w == b"id-0").expect("a literal `_id`");
        chunk[at + 3] = b'9';
        let mut txn = ts.1.write().expect("txn");
        txn.gen_put_all(1, DOCS_PART, std::iter::once((chunk_key(0), chunk.as_slice()))).expect("put");
        txn.commit().expect("commit");
        let snap = ts.1.read().expect("snap");
        let e = DocStoreReader::new(1, docs.len() as u32).document(&snap, 0).err().map(|e| e.reason().to_string());
        assert_eq!(e.as_deref(), Some("damaged document block: the file is corrupt"));
    }
}
