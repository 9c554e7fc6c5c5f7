//! A field's term dictionary (its fst) built on a second thread while the merge writes the
//! field's postings on the first.
//!
//! Building the fst is about a quarter of a load's work (each key's unshared suffix is a
//! chain of nodes to compile and look up in the builder's registry, and keyword fields
//! hold long unique values), and it needs nothing but the terms and their addresses in
//! order, so it overlaps the rest of the merge. The merge sends the terms in batches;
//! the builder thread sends back its output in parts, which the merge writes into the
//! transaction (only the merge's thread touches it). Where no thread can be started,
//! the dictionary is built inline, with the same bytes.

use super::blob::{BlobWriter, SharedBuf};
use crate::error::{Error, Result};
use crate::store::{WriteTxn, BLOB_PART};
use std::io;
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::thread::JoinHandle;

/// Bytes of terms sent to the builder at once.
const BATCH: usize = 64 << 10;

/// Batches that may wait for the builder: the merge runs at most this far ahead of it.
const QUEUE: usize = 8;

fn dictionary_error(e: impl std::fmt::Display) -> Error {
    Error::storage(format!("term dictionary: {e}"))
}

/// Writes blob `fst/{fid}` from terms inserted in byte order.
pub struct DictionaryWriter {
    blob: BlobWriter,
    builder: Builder,
}

enum Builder {
    /// On its own thread: batches go out, parts of the fst come back.
    Thread {
        batch: Vec<u8>,
        terms: Option<SyncSender<Vec<u8>>>,
        parts: Receiver<Vec<u8>>,
        worker: JoinHandle<Result<()>>,
    },
    /// On the merge's thread.
    Inline { fst: fst::MapBuilder<SharedBuf>, out: SharedBuf },
}

impl DictionaryWriter {
    /// The dictionary of field `fid` of `generation`.
    pub fn new(generation: u64, fid: u32) -> Result<DictionaryWriter> {
        let blob = BlobWriter::new(generation, format!("fst/{fid}"));
        let (terms, batches) = sync_channel::<Vec<u8>>(QUEUE);
        let (parts_out, parts) = channel::<Vec<u8>>();
        let spawned = std::thread::Builder::new()
            .name("metagate-fst".into())
            .spawn(move || build(batches, PartSender { buf: Vec::new(), to: parts_out }));
        match spawned {
            Ok(worker) => Ok(DictionaryWriter {
                blob,
                builder: Builder::Thread { batch: Vec::new(), terms: Some(terms), parts, worker },
            }),
            Err(_) => DictionaryWriter::inline(generation, fid),
        }
    }

    /// The dictionary of field `fid` of `generation`, built on the caller's thread.
    fn inline(generation: u64, fid: u32) -> Result<DictionaryWriter> {
        let blob = BlobWriter::new(generation, format!("fst/{fid}"));
        let out = SharedBuf::default();
        let builder = Builder::Inline { fst: fst::MapBuilder::new(out.clone()).map_err(dictionary_error)?, out };
        Ok(DictionaryWriter { blob, builder })
    }

    /// Adds `term` (after every term added before) at posting address `addr`.
    pub fn insert(&mut self, txn: &mut WriteTxn, term: &[u8], addr: u64) -> Result<()> {
        match &mut self.builder {
            Builder::Thread { batch, terms, parts, .. } => {
                // A builder that stopped has dropped its end; `finish` reports why.
                let Some(sender) = terms else { return Ok(()) };
                super::codec::put_varint(batch, term.len() as u32);
                batch.extend_from_slice(term);
                batch.extend_from_slice(&addr.to_le_bytes());
                if batch.len() >= BATCH {
                    let full = std::mem::replace(batch, Vec::with_capacity(BATCH + 1024));
                    if sender.send(full).is_err() {
                        *terms = None;
                    }
                }
                while let Ok(part) = parts.try_recv() {
                    self.blob.buf.extend_from_slice(&part);
                }
            }
            Builder::Inline { fst, out } => {
                fst.insert(term, addr).map_err(dictionary_error)?;
                if out.len() >= BLOB_PART {
                    out.move_to(&mut self.blob.buf);
                }
            }
        }
        self.blob.drain(txn)
    }

    /// Completes the dictionary; returns its length.
    pub fn finish(self, txn: &mut WriteTxn) -> Result<u64> {
        let DictionaryWriter { mut blob, builder } = self;
        match builder {
            Builder::Thread { batch, terms, parts, worker } => {
                if let Some(t) = terms {
                    // An error here means the builder stopped; joining it says why.
                    let _ = t.send(batch);
                }
                for part in parts.iter() {
                    blob.buf.extend_from_slice(&part);
                    blob.drain(txn)?;
                }
                worker.join().map_err(|_| dictionary_error("the builder thread failed"))??;
            }
            Builder::Inline { fst, out } => {
                fst.finish().map_err(dictionary_error)?;
                out.move_to(&mut blob.buf);
            }
        }
        blob.finish(txn)
    }
}

/// The builder thread: reads batches of `varint length, term, u64 LE address` until the
/// merge hangs up, and sends the fst's bytes back in parts.
fn build(batches: Receiver<Vec<u8>>, out: PartSender) -> Result<()> {
    let mut fst = fst::MapBuilder::new(out).map_err(dictionary_error)?;
    for batch in batches.iter() {
        let mut i = 0;
        while i < batch.len() {
            let n = super::codec::get_varint(&batch, &mut i).ok_or_else(|| dictionary_error("bad batch"))? as usize;
            let term = batch.get(i..i + n).ok_or_else(|| dictionary_error("bad batch"))?;
            let addr = batch.get(i + n..i + n + 8).ok_or_else(|| dictionary_error("bad batch"))?;
            fst.insert(term, u64::from_le_bytes(addr.try_into().unwrap_or_default())).map_err(dictionary_error)?;
            i += n + 8;
        }
    }
    let mut out = fst.into_inner().map_err(dictionary_error)?;
    out.send_rest();
    Ok(())
}

/// The builder thread's writer: sends what the fst writes, a part at a time.
struct PartSender {
    buf: Vec<u8>,
    to: Sender<Vec<u8>>,
}

impl PartSender {
    fn send_rest(&mut self) {
        if !self.buf.is_empty() {
            // The merge only hangs up after an error of its own, which it reports.
            let _ = self.to.send(std::mem::take(&mut self.buf));
        }
    }
}

impl io::Write for PartSender {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= BLOB_PART {
            self.send_rest();
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn threaded_and_inline_dictionaries_store_the_fst_built_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("f.redb"), true).unwrap();
        for n in [0usize, 1, 5000, 120_000] {
            let mut terms: Vec<String> =
                (0..n).map(|i| format!("{:x}-{}", i.wrapping_mul(2_654_435_761) % 1_000_003, i % 7)).collect();
            terms.sort();
            terms.dedup();
            let mut whole = fst::MapBuilder::memory();
            for (a, t) in terms.iter().enumerate() {
                whole.insert(t, a as u64 * 3).unwrap();
            }
            let whole = whole.into_inner().unwrap();
            let mut txn = store.write().unwrap();
            let mut threaded = DictionaryWriter::new(1, n as u32).unwrap();
            let mut inline = DictionaryWriter::inline(2, n as u32).unwrap();
            for (a, t) in terms.iter().enumerate() {
                threaded.insert(&mut txn, t.as_bytes(), a as u64 * 3).unwrap();
                inline.insert(&mut txn, t.as_bytes(), a as u64 * 3).unwrap();
            }
            assert_eq!(threaded.finish(&mut txn).unwrap(), whole.len() as u64);
            assert_eq!(inline.finish(&mut txn).unwrap(), whole.len() as u64);
            txn.commit().unwrap();
            let snap = store.read().unwrap();
            assert_eq!(snap.gen_blob(1, &format!("fst/{n}")).unwrap().unwrap(), whole, "{n} terms");
            assert_eq!(snap.gen_blob(2, &format!("fst/{n}")).unwrap().unwrap(), whole, "{n} terms");
        }
    }

    #[test]
    fn a_term_out_of_order_is_an_error_not_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("f.redb"), true).unwrap();
        let mut txn = store.write().unwrap();
        let mut d = DictionaryWriter::new(1, 0).unwrap();
        // Enough terms after the bad one that the merge keeps sending after the builder stops.
        d.insert(&mut txn, b"b", 0).unwrap();
        d.insert(&mut txn, b"a", 1).unwrap();
        for i in 0..100_000u32 {
            d.insert(&mut txn, format!("c{i:08}").as_bytes(), 2).unwrap();
        }
        assert!(d.finish(&mut txn).is_err());
    }
}
