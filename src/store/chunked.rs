//! The read-only storage under a file image: bytes in memory, or a file read on demand, a
//! chunk at a time (in the browser, over HTTP range requests), so that searching a large
//! file fetches only the pages the searches touch.
//!
//! redb asks for pages of a few KiB; each request to a remote source costs a round trip, so
//! such an image is fetched in aligned chunks, neighbouring missing chunks of one read are
//! fetched together, and the chunks are kept in a bounded least-recently-used cache.
//!
//! The image is opened as a reader beside a writer (redb's `SingleWriter` mode), which
//! reads the last commit as the header names it and needs no allocator state: an image
//! taken while a server had the file open opens as well as a cleanly closed one. Nothing
//! else shares the image, so its byte-range locks are granted at once (see
//! `query_lock_range` for the one lock it reports as held).

use redb::{BackendError, StorageBackend};
use std::collections::{BTreeMap, HashMap};
use std::io::{Error as IoError, ErrorKind};
use std::ops::Bound;
use std::sync::Mutex;

/// Random reads of a file image that is not in memory.
// An image is never empty (a redb file has a header), so no `is_empty`.
#[allow(clippy::len_without_is_empty)]
pub trait ImageSource: Send + Sync + 'static {
    /// The image's length in bytes.
    fn len(&self) -> std::io::Result<u64>;

    /// Fills `out` with the bytes at `offset`; the range lies within the image.
    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()>;
}

/// How an image is fetched and kept.
#[derive(Debug, Clone, Copy)]
pub struct ChunkPolicy {
    /// Bytes per fetched chunk (aligned to multiples of it).
    pub chunk_bytes: u64,
    /// Most bytes of chunks kept; the least recently used go first.
    pub cache_bytes: u64,
}

impl Default for ChunkPolicy {
    fn default() -> ChunkPolicy {
        ChunkPolicy { chunk_bytes: 64 << 10, cache_bytes: 64 << 20 }
    }
}

/// Cached chunks by index, with the clock of their last use.
#[derive(Default)]
struct Cache {
    chunks: HashMap<u64, (Vec<u8>, u64)>,
    /// Last-use clock -> chunk index, to find the least recently used.
    by_use: BTreeMap<u64, u64>,
    clock: u64,
    bytes: u64,
}

impl Cache {
    fn touch(&mut self, index: u64) -> Option<&[u8]> {
        self.clock += 1;
        let clock = self.clock;
        let (data, used) = self.chunks.get_mut(&index)?;
        self.by_use.remove(used);
        *used = clock;
        self.by_use.insert(clock, index);
        Some(data)
    }

    fn insert(&mut self, index: u64, data: Vec<u8>, limit: u64) {
        self.clock += 1;
        self.bytes += data.len() as u64;
        if let Some((old, used)) = self.chunks.insert(index, (data, self.clock)) {
            self.bytes -= old.len() as u64;
            self.by_use.remove(&used);
        }
        self.by_use.insert(self.clock, index);
        while self.bytes > limit && self.chunks.len() > 1 {
            let Some((_, oldest)) = self.by_use.pop_first() else { break };
            if let Some((data, _)) = self.chunks.remove(&oldest) {
                self.bytes -= data.len() as u64;
            }
        }
    }
}

/// A read-only redb storage backend over an [`ImageSource`].
pub struct ChunkedBackend<S: ImageSource> {
    source: S,
    len: u64,
    policy: ChunkPolicy,
    /// `None`: reads go straight to the source (an image in memory).
    cache: Option<Mutex<Cache>>,
}

impl<S: ImageSource> std::fmt::Debug for ChunkedBackend<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChunkedBackend").field("len", &self.len).field("policy", &self.policy).finish()
    }
}

fn read_only() -> IoError {
    IoError::new(ErrorKind::PermissionDenied, "the image is read-only")
}

impl<S: ImageSource> ChunkedBackend<S> {
    /// Reads `source` through chunks of `policy`.
    pub fn new(source: S, policy: ChunkPolicy) -> std::io::Result<ChunkedBackend<S>> {
        if policy.chunk_bytes == 0 {
            return Err(IoError::new(ErrorKind::InvalidInput, "the chunk size must be positive"));
        }
        let len = source.len()?;
        Ok(ChunkedBackend { source, len, policy, cache: Some(Mutex::new(Cache::default())) })
    }

    /// Reads `source` directly, without chunks or a cache (for an image in memory).
    pub fn direct(source: S) -> std::io::Result<ChunkedBackend<S>> {
        let len = source.len()?;
        Ok(ChunkedBackend { source, len, policy: ChunkPolicy::default(), cache: None })
    }

    fn chunk_range(&self, index: u64) -> (u64, u64) {
        let start = index * self.policy.chunk_bytes;
        (start, (start + self.policy.chunk_bytes).min(self.len))
    }

    /// Fetches chunks `first..=last` (all missing) with one source read.
    fn fetch(&self, first: u64, last: u64) -> std::io::Result<Vec<(u64, Vec<u8>)>> {
        let start = self.chunk_range(first).0;
        let end = self.chunk_range(last).1;
        let mut buf = vec![0; (end - start) as usize];
        self.source.read_at(start, &mut buf)?;
        let size = self.policy.chunk_bytes as usize;
        Ok((first..=last).zip(buf.chunks(size).map(<[u8]>::to_vec)).collect())
    }
}

impl<S: ImageSource> StorageBackend for ChunkedBackend<S> {
    fn len(&self) -> std::io::Result<u64> {
        Ok(self.len)
    }

    fn read(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        let end = offset.checked_add(out.len() as u64).filter(|&e| e <= self.len);
        let Some(end) = end else {
            return Err(IoError::new(ErrorKind::UnexpectedEof, "read past the end of the image"));
        };
        if out.is_empty() {
            return Ok(());
        }
        let Some(cache) = &self.cache else {
            return self.source.read_at(offset, out);
        };
        let size = self.policy.chunk_bytes;
        let (first, last) = (offset / size, (end - 1) / size);
        let mut cache = cache.lock().unwrap_or_else(|p| p.into_inner());
        // Copy what is cached; gather runs of missing chunks to fetch a run at a time.
        let mut missing: Vec<(u64, u64)> = Vec::new();
        for index in first..=last {
            if let Some(data) = cache.touch(index) {
                copy_part(data, index * size, offset, out);
            } else {
                match missing.last_mut() {
                    Some((_, run_end)) if *run_end + 1 == index => *run_end = index,
                    _ => missing.push((index, index)),
                }
            }
        }
        for (run_first, run_last) in missing {
            for (index, data) in self.fetch(run_first, run_last)? {
                copy_part(&data, index * size, offset, out);
                cache.insert(index, data, self.policy.cache_bytes);
            }
        }
        Ok(())
    }

    fn set_len(&self, _: u64) -> std::io::Result<()> {
        Err(read_only())
    }

    fn sync_data(&self) -> std::io::Result<()> {
        Ok(())
    }

    fn write(&self, _: u64, _: &[u8]) -> std::io::Result<()> {
        Err(read_only())
    }

    fn try_lock_range(&self, _: Bound<u64>, _: Bound<u64>) -> Result<bool, BackendError> {
        Ok(true)
    }

    fn try_lock_shared_range(&self, _: Bound<u64>, _: Bound<u64>) -> Result<bool, BackendError> {
        Ok(true)
    }

    fn lock_range(&self, _: Bound<u64>, _: Bound<u64>) -> Result<(), BackendError> {
        Ok(())
    }

    fn lock_shared_range(&self, _: Bound<u64>, _: Bound<u64>) -> Result<(), BackendError> {
        Ok(())
    }

    fn unlock_range(&self, _: Bound<u64>, _: Bound<u64>) -> Result<(), BackendError> {
        Ok(())
    }

    /// Only the byte saying "a live writer has the file consistent" counts as held: an image
    /// taken while a server had the file open is exactly that file, whose header still says
    /// a writer is live. Every other lock is free (nobody else shares the image).
    fn query_lock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<bool, BackendError> {
        let byte = Bound::Included(CONSISTENT_BYTE);
        Ok(start == byte && end == byte)
    }
}

/// The lock byte redb's multi-process protocol (redb 4.6, `CONSISTENT_BYTE`) has a writer
/// hold once its open is complete and the file consistent. Cargo.toml pins redb to 4.6.x;
/// `tests/core_bytes.rs` opens an image of a file a writer holds open, which fails if this
/// byte moves.
const CONSISTENT_BYTE: u64 = (1 << 62) + 4;

/// Copies the part of a chunk (starting at `chunk_start` in the image) that overlaps the
/// read of `out` at `offset`.
fn copy_part(chunk: &[u8], chunk_start: u64, offset: u64, out: &mut [u8]) {
    let from = offset.max(chunk_start);
    let to = (offset + out.len() as u64).min(chunk_start + chunk.len() as u64);
    if from < to {
        let src = &chunk[(from - chunk_start) as usize..(to - chunk_start) as usize];
        out[(from - offset) as usize..(to - offset) as usize].copy_from_slice(src);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::sync::Arc;

    /// The reads a source answered: offset and length.
    type ReadLog = Arc<Mutex<Vec<(u64, usize)>>>;

    /// An image in memory that counts the reads it answers.
    struct Counted(Vec<u8>, ReadLog);

    impl ImageSource for Counted {
        fn len(&self) -> std::io::Result<u64> {
            Ok(self.0.len() as u64)
        }
        fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
            self.1.lock().unwrap().push((offset, out.len()));
            out.copy_from_slice(&self.0[offset as usize..offset as usize + out.len()]);
            Ok(())
        }
    }

    fn image(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 % 251) as u8).collect()
    }

    fn backend(n: usize, chunk: u64, cache: u64) -> (ChunkedBackend<Counted>, ReadLog) {
        let log = Arc::new(Mutex::new(Vec::new()));
        let policy = ChunkPolicy { chunk_bytes: chunk, cache_bytes: cache };
        (ChunkedBackend::new(Counted(image(n), log.clone()), policy).unwrap(), log)
    }

    #[test]
    fn reads_whole_aligned_chunks_and_serves_repeats_from_the_cache() {
        let (b, log) = backend(1000, 100, 10_000);
        let mut out = [0u8; 30];
        b.read(250, &mut out).unwrap();
        assert_eq!(&out[..], &image(1000)[250..280]);
        b.read(210, &mut out).unwrap();
        assert_eq!(&out[..], &image(1000)[210..240]);
        assert_eq!(*log.lock().unwrap(), vec![(200, 100)]);
    }

    #[test]
    fn one_read_fetches_neighbouring_missing_chunks_together() {
        let (b, log) = backend(1000, 100, 10_000);
        b.read(150, &mut [0u8; 10]).unwrap(); // chunk 1
        let mut out = vec![0u8; 500];
        b.read(50, &mut out).unwrap(); // chunks 0..=5: 0 and 2..=5 missing
        assert_eq!(out, image(1000)[50..550]);
        assert_eq!(*log.lock().unwrap(), vec![(100, 100), (0, 100), (200, 400)]);
    }

    #[test]
    fn the_last_chunk_is_short_and_reads_past_the_end_fail() {
        let (b, log) = backend(1050, 100, 10_000);
        let mut out = [0u8; 20];
        b.read(1030, &mut out).unwrap();
        assert_eq!(&out[..], &image(1050)[1030..1050]);
        assert_eq!(*log.lock().unwrap(), vec![(1000, 50)]);
        assert_eq!(b.read(1040, &mut out).unwrap_err().kind(), ErrorKind::UnexpectedEof);
        assert_eq!(b.read(u64::MAX - 5, &mut out).unwrap_err().kind(), ErrorKind::UnexpectedEof);
    }

    #[test]
    fn the_least_recently_used_chunk_is_dropped_at_the_limit() {
        let (b, log) = backend(1000, 100, 200);
        let mut out = [0u8; 1];
        for offset in [0, 100, 0, 200, 0, 100] {
            b.read(offset, &mut out).unwrap();
        }
        // 0, 100 fetched; 0 used again; 200 evicts 100; 0 cached; 100 fetched again.
        assert_eq!(*log.lock().unwrap(), vec![(0, 100), (100, 100), (200, 100), (100, 100)]);
    }

    #[test]
    fn writes_are_refused() {
        let (b, _) = backend(100, 10, 100);
        assert_eq!(b.write(0, b"x").unwrap_err().kind(), ErrorKind::PermissionDenied);
        assert_eq!(b.set_len(0).unwrap_err().kind(), ErrorKind::PermissionDenied);
    }

    proptest! {
        #[test]
        fn any_read_returns_the_image_bytes(
            reads in proptest::collection::vec((0usize..2000, 0usize..700), 1..40),
            chunk in 1u64..300,
            cache in 0u64..1500,
        ) {
            let (b, _) = backend(2000, chunk, cache);
            let img = image(2000);
            for (offset, len) in reads {
                let len = len.min(2000 - offset);
                let mut out = vec![0u8; len];
                b.read(offset as u64, &mut out).unwrap();
                prop_assert_eq!(&out[..], &img[offset..offset + len]);
            }
        }
    }
}
