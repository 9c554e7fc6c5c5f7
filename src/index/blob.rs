//! Writing a generation's blobs (`fst/`, `dv/`, `pts/`, ...) while they are produced, so
//! that a blob of any size holds about one part in memory instead of all of it.
//!
//! A blob over one page is stored in parts of [`BLOB_PART`] bytes (see `store`); this
//! writer cuts those parts as its buffer fills and writes them into the transaction at
//! once. What it stores is byte for byte what writing the finished blob whole stores.

use crate::error::Result;
use crate::store::{WriteTxn, BLOB_PART};

/// A blob written part by part: append to [`BlobWriter::buf`], call
/// [`BlobWriter::drain`] now and then, and [`BlobWriter::finish`] at the end.
pub struct BlobWriter {
    generation: u64,
    key: String,
    /// Bytes not yet written.
    pub buf: Vec<u8>,
    /// Parts written so far.
    parts: usize,
}

impl BlobWriter {
    /// An empty blob `key` of `generation`.
    pub fn new(generation: u64, key: String) -> BlobWriter {
        BlobWriter { generation, key, buf: Vec::new(), parts: 0 }
    }

    /// Writes the whole parts buffered so far, keeping at least one byte back: whether the
    /// blob is stored whole or in parts is only known once it is finished.
    pub fn drain(&mut self, txn: &mut WriteTxn) -> Result<()> {
        if self.buf.len() <= BLOB_PART {
            return Ok(());
        }
        let whole = (self.buf.len() - 1) / BLOB_PART * BLOB_PART;
        for part in self.buf[..whole].chunks(BLOB_PART) {
            txn.gen_put_blob_part(self.generation, &self.key, self.parts, part)?;
            self.parts += 1;
        }
        self.buf.drain(..whole);
        Ok(())
    }

    /// Writes what is left; returns the blob's length.
    pub fn finish(mut self, txn: &mut WriteTxn) -> Result<u64> {
        self.drain(txn)?;
        if self.parts == 0 {
            txn.gen_put_blob(self.generation, &self.key, &self.buf)?;
        } else {
            txn.gen_put_blob_part(self.generation, &self.key, self.parts, &self.buf)?;
        }
        Ok((self.parts * BLOB_PART + self.buf.len()) as u64)
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn streamed_blobs_read_back_as_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("f.redb"), true).unwrap();
        let lengths = [0, 1, BLOB_PART - 1, BLOB_PART, BLOB_PART + 1, 2 * BLOB_PART, 3 * BLOB_PART + 5];
        let mut txn = store.write().unwrap();
        for (n, &len) in lengths.iter().enumerate() {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 31 + n) as u8).collect();
            let mut w = BlobWriter::new(7, format!("b/{n}"));
            // Appended in uneven pieces, drained after each.
            for piece in bytes.chunks(1000 + n * 77) {
                w.buf.extend_from_slice(piece);
                w.drain(&mut txn).unwrap();
            }
            assert_eq!(w.finish(&mut txn).unwrap(), len as u64);
            txn.gen_put_blob(8, &format!("b/{n}"), &bytes).unwrap();
        }
        txn.commit().unwrap();
        let snap = store.read().unwrap();
        for (n, &len) in lengths.iter().enumerate() {
            let key = format!("b/{n}");
            let streamed = snap.gen_blob(7, &key).unwrap().unwrap();
            assert_eq!(streamed, snap.gen_blob(8, &key).unwrap().unwrap(), "blob {n}");
            assert_eq!(streamed.len(), len);
        }
    }
}
