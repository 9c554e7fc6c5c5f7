//! Per-field byte streams (postings, positions) stored in fixed-size chunks, so a field
//! costs a handful of redb entries instead of one per term. The term dictionary maps
//! each term to its byte address in the field's postings stream.

use super::codec::put_varint;
use super::docset::DocSet;
use crate::error::{Error, Result};
use crate::store::{Snapshot, WriteTxn};

/// Bytes per stored chunk.
pub const CHUNK: usize = 32 * 1024;

/// Posting lists with at most this many documents are delta-encoded varints; longer
/// ones are roaring bitmaps (smaller and fast for set algebra).
const SMALL_LIST: usize = 32;

fn chunk_key(fid: u32, chunk: u64) -> u64 {
    ((fid as u64) << 32) | chunk
}

/// Writes a stream as chunks `fid:0`, `fid:1`, ... of table `part`.
pub fn write_stream(txn: &mut WriteTxn, generation: u64, part: &str, fid: u32, bytes: &[u8]) -> Result<()> {
    txn.gen_put_all(generation, part, bytes.chunks(CHUNK).enumerate().map(|(i, c)| (chunk_key(fid, i as u64), c)))
}

/// Appends one posting list; returns its address. `positions` is the address of the
/// term's positions in the positions stream (text fields).
pub fn encode_posting(out: &mut Vec<u8>, docs: &[u32], tfs: Option<&[u32]>, positions: Option<u64>) -> u64 {
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
    if let Some(tfs) = tfs {
        for &tf in tfs {
            put_varint(out, tf);
        }
    }
    if let Some(p) = positions {
        put_u64_varint(out, p);
    }
    addr
}

fn put_u64_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Sequential reads from a chunked stream, fetching chunks as needed.
pub struct StreamReader<'a> {
    snap: &'a Snapshot,
    generation: u64,
    part: &'static str,
    fid: u32,
    pos: u64,
    chunk_no: u64,
    chunk: Vec<u8>,
}

impl<'a> StreamReader<'a> {
    /// A reader positioned at `addr`.
    pub fn new(snap: &'a Snapshot, generation: u64, part: &'static str, fid: u32, addr: u64) -> StreamReader<'a> {
        StreamReader { snap, generation, part, fid, pos: addr, chunk_no: u64::MAX, chunk: Vec::new() }
    }

    /// Moves to `addr`, keeping the chunk already loaded (terms read in dictionary order
    /// often share it).
    pub fn seek(&mut self, addr: u64) {
        self.pos = addr;
    }

    fn load(&mut self) -> Result<()> {
        let want = self.pos / CHUNK as u64;
        if want != self.chunk_no {
            self.chunk = self
                .snap
                .gen_get(self.generation, self.part, chunk_key(self.fid, want))?
                .ok_or_else(|| Error::storage(format!("missing {} chunk {want} of field {}", self.part, self.fid)))?;
            self.chunk_no = want;
        }
        Ok(())
    }

    /// One byte.
    pub fn byte(&mut self) -> Result<u8> {
        self.load()?;
        let i = (self.pos % CHUNK as u64) as usize;
        let b = *self.chunk.get(i).ok_or_else(|| Error::storage("truncated stream"))?;
        self.pos += 1;
        Ok(b)
    }

    /// A LEB128 varint (u64).
    pub fn varint(&mut self) -> Result<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= ((b & 0x7f) as u64) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(Error::storage("corrupt varint"))
    }

    /// `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            self.load()?;
            let i = (self.pos % CHUNK as u64) as usize;
            let take = (n - out.len()).min(CHUNK - i);
            let slice = self.chunk.get(i..i + take).ok_or_else(|| Error::storage("truncated stream"))?;
            out.extend_from_slice(slice);
            self.pos += take as u64;
        }
        Ok(out)
    }
}

/// A decoded posting list.
pub struct DecodedPosting {
    /// Documents.
    pub docs: DocSet,
    /// Frequencies (text fields).
    pub tfs: Option<Vec<u32>>,
    /// Address of the positions (text fields).
    pub positions: Option<u64>,
}

/// Decodes the posting at the reader's position.
pub fn decode_posting(r: &mut StreamReader<'_>, with_freqs: bool) -> Result<DecodedPosting> {
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
    let (tfs, positions) = if with_freqs {
        let mut t = Vec::with_capacity(n);
        for _ in 0..n {
            t.push(r.varint()? as u32);
        }
        (Some(t), Some(r.varint()?))
    } else {
        (None, None)
    };
    Ok(DecodedPosting { docs, tfs, positions })
}

/// Decodes the positions of a term (one list per document, `tfs[i]` entries each).
pub fn decode_positions(r: &mut StreamReader<'_>, tfs: &[u32]) -> Result<Vec<Vec<u32>>> {
    let mut all = Vec::with_capacity(tfs.len());
    for &tf in tfs {
        let mut prev = 0u32;
        let mut v = Vec::with_capacity(tf as usize);
        for _ in 0..tf {
            prev = prev.wrapping_add(r.varint()? as u32);
            v.push(prev);
        }
        all.push(v);
    }
    Ok(all)
}

/// Appends positions (delta-encoded per document); returns their address.
pub fn encode_positions(out: &mut Vec<u8>, tfs: &[u32], positions: &[u32]) -> u64 {
    let addr = out.len() as u64;
    let mut k = 0usize;
    for &tf in tfs {
        let mut prev = 0u32;
        for &p in &positions[k..k + tf as usize] {
            put_varint(out, p - prev);
            prev = p;
        }
        k += tf as usize;
    }
    addr
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::codec::get_varint;

    #[test]
    fn small_and_large_lists_roundtrip_through_varints() {
        let mut buf = Vec::new();
        let small: Vec<u32> = vec![3, 9, 400];
        let large: Vec<u32> = (0..1000).map(|i| i * 3).collect();
        let a = encode_posting(&mut buf, &small, Some(&[1, 2, 3]), Some(77));
        let b = encode_posting(&mut buf, &large, None, None);
        // Decode through a plain slice view of the same layout.
        let mut p = a as usize;
        assert_eq!(get_varint(&buf, &mut p), Some(3));
        assert!(b > a);
    }
}
