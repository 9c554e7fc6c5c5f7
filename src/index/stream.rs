//! Per-field byte streams (postings, positions) stored in fixed-size chunks, so a field
//! costs a handful of redb entries instead of one per term. The term dictionary maps
//! each term to its byte address in the field's postings stream.

use crate::error::{Error, Result};
use crate::store::{Snapshot, StoredBytes, WriteTxn};

/// Bytes per stored chunk: one chunk fills one 32 KiB redb page exactly. A redb leaf
/// holding one `u64 -> bytes` entry adds 16 bytes (4 of page header, 4 of value length, the
/// 8-byte key), and a value that does not fit a page doubles its allocation, so chunks of a
/// full 32 KiB took 64 KiB each.
pub const CHUNK: usize = 32 * 1024 - 16;

/// The key of chunk `chunk` of field `fid`'s stream.
pub(super) fn chunk_key(fid: u32, chunk: u64) -> u64 {
    ((fid as u64) << 32) | chunk
}

/// Writes a stream as chunks `fid:0`, `fid:1`, ... of table `part` while it is produced:
/// callers append to [`StreamWriter::buf`] and call [`StreamWriter::drain`], which writes
/// the whole chunks and keeps the rest, so a stream of any length holds one chunk or so.
pub struct StreamWriter {
    part: &'static str,
    fid: u32,
    /// Bytes not yet written; the first is at stream address [`StreamWriter::base`].
    pub buf: Vec<u8>,
    /// The stream address of `buf[0]`.
    pub base: u64,
}

impl StreamWriter {
    /// An empty stream of field `fid` in table `part`.
    pub fn new(part: &'static str, fid: u32) -> StreamWriter {
        StreamWriter { part, fid, buf: Vec::new(), base: 0 }
    }

    /// Writes the whole chunks buffered so far.
    pub fn drain(&mut self, txn: &mut WriteTxn, generation: u64) -> Result<()> {
        let whole = self.buf.len() / CHUNK * CHUNK;
        if whole == 0 {
            return Ok(());
        }
        let first = self.base / CHUNK as u64;
        let fid = self.fid;
        txn.gen_put_all(
            generation,
            self.part,
            self.buf[..whole].chunks(CHUNK).enumerate().map(|(i, c)| (chunk_key(fid, first + i as u64), c)),
        )?;
        self.buf.drain(..whole);
        self.base += whole as u64;
        Ok(())
    }

    /// Writes what is left; returns the stream's length.
    pub fn finish(mut self, txn: &mut WriteTxn, generation: u64) -> Result<u64> {
        self.drain(txn, generation)?;
        if !self.buf.is_empty() {
            let key = chunk_key(self.fid, self.base / CHUNK as u64);
            txn.gen_put_all(generation, self.part, std::iter::once((key, self.buf.as_slice())))?;
        }
        Ok(self.base + self.buf.len() as u64)
    }
}

/// Where a stream's bytes come from.
enum Source<'a> {
    /// Chunks of a generation's table.
    File { snap: &'a Snapshot, generation: u64, part: &'static str, fid: u32 },
    /// One buffer (tests of the encodings).
    #[cfg(test)]
    Bytes(&'a [u8]),
}

/// The chunk a reader holds: borrowed from the file's page, not copied.
enum Chunk {
    None,
    Stored(StoredBytes),
    #[cfg(test)]
    Owned(Vec<u8>),
}

impl Chunk {
    fn bytes(&self) -> &[u8] {
        match self {
            Chunk::None => &[],
            Chunk::Stored(b) => b,
            #[cfg(test)]
            Chunk::Owned(b) => b,
        }
    }
}

/// Sequential reads from a chunked stream, fetching chunks as needed.
pub struct StreamReader<'a> {
    source: Source<'a>,
    pos: u64,
    chunk_no: u64,
    chunk: Chunk,
}

impl<'a> StreamReader<'a> {
    /// A reader positioned at `addr`.
    pub fn new(snap: &'a Snapshot, generation: u64, part: &'static str, fid: u32, addr: u64) -> StreamReader<'a> {
        let source = Source::File { snap, generation, part, fid };
        StreamReader { source, pos: addr, chunk_no: u64::MAX, chunk: Chunk::None }
    }

    /// A reader over a stream held whole in memory, positioned at `addr`.
    #[cfg(test)]
    pub fn over_bytes(bytes: &'a [u8], addr: u64) -> StreamReader<'a> {
        StreamReader { source: Source::Bytes(bytes), pos: addr, chunk_no: u64::MAX, chunk: Chunk::None }
    }

    /// Moves to `addr`, keeping the chunk already loaded (terms read in dictionary order
    /// often share it).
    pub fn seek(&mut self, addr: u64) {
        self.pos = addr;
    }

    fn load(&mut self) -> Result<()> {
        let want = self.pos / CHUNK as u64;
        if want != self.chunk_no {
            self.chunk = match &self.source {
                Source::File { snap, generation, part, fid } => Chunk::Stored(
                    snap.gen_get(*generation, part, chunk_key(*fid, want))?
                        .ok_or_else(|| Error::storage(format!("missing {part} chunk {want} of field {fid}")))?,
                ),
                #[cfg(test)]
                Source::Bytes(b) => Chunk::Owned(b.chunks(CHUNK).nth(want as usize).unwrap_or_default().to_vec()),
            };
            self.chunk_no = want;
        }
        Ok(())
    }

    /// One byte.
    pub fn byte(&mut self) -> Result<u8> {
        self.load()?;
        let i = (self.pos % CHUNK as u64) as usize;
        let b = *self.chunk.bytes().get(i).ok_or_else(|| Error::storage("truncated stream"))?;
        self.pos += 1;
        Ok(b)
    }

    /// A LEB128 varint (u64).
    pub fn varint(&mut self) -> Result<u64> {
        self.load()?;
        let i = (self.pos % CHUNK as u64) as usize;
        // Fast path: the whole varint lies in the loaded chunk.
        let bytes = self.chunk.bytes().get(i..).unwrap_or_default();
        let mut v = 0u64;
        for (n, &b) in bytes.iter().take(10).enumerate() {
            v |= ((b & 0x7f) as u64) << (7 * n);
            if b < 0x80 {
                self.pos += n as u64 + 1;
                return Ok(v);
            }
        }
        if bytes.len() >= 10 {
            return Err(Error::storage("corrupt varint"));
        }
        self.varint_across_chunks()
    }

    /// A varint that may run into the next chunk.
    fn varint_across_chunks(&mut self) -> Result<u64> {
        super::codec::read_varint_with(|| self.byte())?.ok_or_else(|| Error::storage("corrupt varint"))
    }

    /// Skips `n` varints.
    pub fn skip_varints(&mut self, mut n: usize) -> Result<()> {
        while n > 0 {
            self.load()?;
            let i = (self.pos % CHUNK as u64) as usize;
            let bytes = self.chunk.bytes().get(i..).unwrap_or_default();
            if bytes.is_empty() {
                return Err(Error::storage("truncated stream"));
            }
            // A varint ends at each byte below 0x80.
            let mut used = 0;
            for &b in bytes {
                used += 1;
                if b < 0x80 {
                    n -= 1;
                    if n == 0 {
                        break;
                    }
                }
            }
            self.pos += used as u64;
        }
        Ok(())
    }

    /// `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(n);
        self.append(n, &mut out)?;
        Ok(out)
    }

    /// `n` bytes borrowed from the loaded chunk when they lie inside it, else copied
    /// chunk by chunk (a damaged length then fails at the first missing chunk instead of
    /// reserving whatever it claims).
    pub fn slice(&mut self, n: usize) -> Result<std::borrow::Cow<'_, [u8]>> {
        self.load()?;
        let i = (self.pos % CHUNK as u64) as usize;
        if i + n <= self.chunk.bytes().len() {
            self.pos += n as u64;
            return Ok(std::borrow::Cow::Borrowed(&self.chunk.bytes()[i..i + n]));
        }
        let mut out = Vec::new();
        self.append(n, &mut out)?;
        Ok(std::borrow::Cow::Owned(out))
    }

    /// Appends `n` bytes to `out`.
    fn append(&mut self, n: usize, out: &mut Vec<u8>) -> Result<()> {
        let mut left = n;
        while left > 0 {
            self.load()?;
            let i = (self.pos % CHUNK as u64) as usize;
            let take = left.min(CHUNK - i);
            let slice = self.chunk.bytes().get(i..i + take).ok_or_else(|| Error::storage("truncated stream"))?;
            out.extend_from_slice(slice);
            self.pos += take as u64;
            left -= take;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put_varint(out: &mut Vec<u8>, mut v: u64) {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }

    #[test]
    fn varints_read_and_skip_across_chunk_ends() {
        // Values of every length, enough to cross several chunk boundaries at every offset.
        let values: Vec<u64> = (0..40_000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (i % 64)).collect();
        let mut bytes = Vec::new();
        for &v in &values {
            put_varint(&mut bytes, v);
        }
        assert!(bytes.len() > 3 * CHUNK);
        let mut r = StreamReader::over_bytes(&bytes, 0);
        for &v in &values {
            assert_eq!(r.varint().unwrap(), v);
        }
        assert!(r.varint().is_err(), "reading past the end fails");
        // Skipping any number of varints lands on the next one.
        for step in [1usize, 7, 128, 5000] {
            let mut r = StreamReader::over_bytes(&bytes, 0);
            let mut at = 0;
            while at + step < values.len() {
                r.skip_varints(step).unwrap();
                at += step;
                assert_eq!(r.varint().unwrap(), values[at]);
                at += 1;
            }
        }
    }
}
