//! A generation's term dictionaries (one fst per field), built on threads of their own
//! behind the merge.
//!
//! Building an fst is a large part of a load's work (each key's unshared suffix is a
//! chain of nodes to compile and look up in the builder's registry, and keyword fields
//! hold long unique values), and it needs nothing but the terms and their posting
//! addresses in order. So the merge spills each field's `(term, address)` pairs to an
//! unnamed temporary file and goes on to the next field, while builder threads (one a
//! core, up to a few) turn the finished spills into fsts in temporary files of their
//! own; the merge copies each finished fst into its blob (only the merge's thread
//! touches the transaction). Memory stays that of the buffers whatever the fields hold.
//! Where no thread can be started, each fst is built on the merge's thread, with the
//! same bytes.

use super::blob::BlobWriter;
use super::fst_writer::FstWriter;
use super::segment::{temp_file, Section, SectionReader};
use crate::error::{Error, Result};
use crate::store::{WriteTxn, BLOB_PART};
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Builder threads at most.
const MAX_BUILDERS: usize = 4;

fn dictionary_error(e: impl std::fmt::Display) -> Error {
    Error::storage(format!("term dictionary: {e}"))
}

/// One field's terms, in byte order, as the merge writes them.
pub struct TermSpill {
    fid: u32,
    out: BufWriter<File>,
    /// Bytes written.
    len: u64,
    /// The varint length of the term being written.
    head: Vec<u8>,
}

impl TermSpill {
    /// Adds `term` (after every term added before) at posting address `addr`.
    pub fn insert(&mut self, term: &[u8], addr: u64) -> Result<()> {
        self.head.clear();
        super::codec::put_varint(&mut self.head, term.len() as u32);
        self.len += (self.head.len() + term.len() + 8) as u64;
        (|| {
            self.out.write_all(&self.head)?;
            self.out.write_all(term)?;
            self.out.write_all(&addr.to_le_bytes())
        })()
        .map_err(dictionary_error)
    }
}

/// A spill to build into field `fid`'s fst.
struct Job {
    fid: u32,
    terms: File,
    len: u64,
}

/// A built fst in a temporary file, or why it could not be built.
struct Built {
    fid: u32,
    fst: Result<File>,
}

/// The builder threads: spills go out to them, built fsts come back.
struct Builders {
    jobs: Sender<Job>,
    built: Receiver<Built>,
    handles: Vec<JoinHandle<()>>,
}

/// The dictionaries of one generation: spills go in, fsts come out into blobs.
pub struct Dictionaries {
    generation: u64,
    dir: PathBuf,
    worker: Option<Builders>,
    /// Spills sent to the worker and not yet copied into their blobs.
    pending: usize,
    /// Bytes of the fsts written so far.
    bytes: u64,
}

impl Dictionaries {
    /// The dictionaries of `generation`, spilling to unnamed files in `dir`.
    pub fn new(generation: u64, dir: &Path) -> Dictionaries {
        let (jobs, job_rx) = channel::<Job>();
        let (built_tx, built) = channel::<Built>();
        let job_rx = Arc::new(Mutex::new(job_rx));
        // A builder a core, up to a few: the fields' dictionaries are independent.
        let builders = std::thread::available_parallelism().map_or(1, |n| n.get().clamp(1, MAX_BUILDERS));
        let mut handles = Vec::new();
        for _ in 0..builders {
            let (job_rx, built_tx, dir) = (job_rx.clone(), built_tx.clone(), dir.to_path_buf());
            let spawned = std::thread::Builder::new().name("metagate-fst".into()).spawn(move || loop {
                let job = match job_rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                let Ok(job) = job else { return };
                let fst = build(&job.terms, job.len, &dir);
                if built_tx.send(Built { fid: job.fid, fst }).is_err() {
                    return;
                }
            });
            match spawned {
                Ok(h) => handles.push(h),
                Err(_) => break,
            }
        }
        let worker = (!handles.is_empty()).then_some(Builders { jobs, built, handles });
        Dictionaries { generation, dir: dir.to_path_buf(), worker, pending: 0, bytes: 0 }
    }

    /// An empty spill for field `fid`.
    pub fn field(&self, fid: u32) -> Result<TermSpill> {
        Ok(TermSpill { fid, out: BufWriter::with_capacity(1 << 16, temp_file(&self.dir)?), len: 0, head: Vec::new() })
    }

    /// Hands a field's complete spill over to be built, and stores the fsts finished
    /// meanwhile.
    pub fn submit(&mut self, txn: &mut WriteTxn, spill: TermSpill) -> Result<()> {
        let TermSpill { fid, out, len, .. } = spill;
        let terms = out.into_inner().map_err(|e| dictionary_error(e.into_error()))?;
        let job = Job { fid, terms, len };
        let job = match &self.worker {
            Some(b) => match b.jobs.send(job) {
                Ok(()) => {
                    self.pending += 1;
                    while let Some(built) = self.worker.as_ref().and_then(|b| b.built.try_recv().ok()) {
                        self.store(txn, built)?;
                    }
                    return Ok(());
                }
                // The worker is gone (it panicked): build here.
                Err(unsent) => unsent.0,
            },
            None => job,
        };
        let fst = build(&job.terms, job.len, &self.dir);
        self.store(txn, Built { fid, fst })
    }

    /// Waits for every fst still building and stores it; returns the bytes of all the
    /// fsts stored.
    pub fn finish(mut self, txn: &mut WriteTxn) -> Result<u64> {
        self.finish_pending(txn)?;
        if let Some(Builders { jobs, handles, .. }) = self.worker.take() {
            drop(jobs);
            for handle in handles {
                handle.join().map_err(|_| dictionary_error("a builder thread failed"))?;
            }
        }
        Ok(self.bytes)
    }

    fn finish_pending(&mut self, txn: &mut WriteTxn) -> Result<()> {
        while self.pending > 0 {
            let built = match &self.worker {
                Some(b) => b.built.recv().map_err(|_| dictionary_error("the builder threads stopped"))?,
                None => break,
            };
            self.store(txn, built)?;
        }
        Ok(())
    }

    /// Copies a built fst into blob `fst/{fid}`.
    fn store(&mut self, txn: &mut WriteTxn, built: Built) -> Result<()> {
        self.pending = self.pending.saturating_sub(1);
        let mut file = built.fst?;
        file.seek(SeekFrom::Start(0)).map_err(dictionary_error)?;
        let mut blob = BlobWriter::new(self.generation, format!("fst/{}", built.fid));
        let mut part = vec![0u8; BLOB_PART];
        loop {
            let n = file.read(&mut part).map_err(dictionary_error)?;
            if n == 0 {
                break;
            }
            blob.buf.extend_from_slice(&part[..n]);
            blob.drain(txn)?;
        }
        self.bytes += blob.finish(txn)?;
        Ok(())
    }
}

/// Builds the fst of a spill of `len` bytes (`varint length, term, u64 LE address`
/// records) into a temporary file.
fn build(terms: &File, len: u64, dir: &Path) -> Result<File> {
    let mut spill = SectionReader::new(terms, Section::new(0, len));
    // The writer gathers its bytes itself.
    let mut fst = FstWriter::new(temp_file(dir)?);
    let mut term = Vec::new();
    while !spill.at_end() {
        let n = spill.varint()? as usize;
        spill.read_vec(n, &mut term)?;
        fst.insert(&term, spill.u64()?).map_err(dictionary_error)?;
    }
    fst.finish().map_err(dictionary_error)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn threaded_and_inline_dictionaries_store_the_fst_built_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("f.redb"), true).unwrap();
        let mut txn = store.write().unwrap();
        let mut threaded = Dictionaries::new(1, dir.path());
        let mut inline = Dictionaries { worker: None, ..Dictionaries::new(2, dir.path()) };
        let mut wholes = Vec::new();
        for n in [0usize, 1, 5000, 120_000] {
            let mut terms: Vec<String> =
                (0..n).map(|i| format!("{:x}-{}", i.wrapping_mul(2_654_435_761) % 1_000_003, i % 7)).collect();
            terms.sort();
            terms.dedup();
            let mut whole = fst::MapBuilder::memory();
            for (a, t) in terms.iter().enumerate() {
                whole.insert(t, a as u64 * 3).unwrap();
            }
            wholes.push((n, whole.into_inner().unwrap()));
            let (mut a, mut b) = (threaded.field(n as u32).unwrap(), inline.field(n as u32).unwrap());
            for (addr, t) in terms.iter().enumerate() {
                a.insert(t.as_bytes(), addr as u64 * 3).unwrap();
                b.insert(t.as_bytes(), addr as u64 * 3).unwrap();
            }
            threaded.submit(&mut txn, a).unwrap();
            inline.submit(&mut txn, b).unwrap();
        }
        let total: u64 = wholes.iter().map(|(_, w)| w.len() as u64).sum();
        assert_eq!(threaded.finish(&mut txn).unwrap(), total);
        assert_eq!(inline.finish(&mut txn).unwrap(), total);
        txn.commit().unwrap();
        let snap = store.read().unwrap();
        for (n, whole) in wholes {
            assert_eq!(snap.gen_blob(1, &format!("fst/{n}")).unwrap().unwrap(), whole, "{n} terms");
            assert_eq!(snap.gen_blob(2, &format!("fst/{n}")).unwrap().unwrap(), whole, "{n} terms");
        }
    }

    #[test]
    fn a_term_out_of_order_is_an_error_not_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("f.redb"), true).unwrap();
        let mut txn = store.write().unwrap();
        let mut d = Dictionaries::new(1, dir.path());
        let mut spill = d.field(0).unwrap();
        spill.insert(b"b", 0).unwrap();
        spill.insert(b"a", 1).unwrap();
        for i in 0..100_000u32 {
            spill.insert(format!("c{i:08}").as_bytes(), 2).unwrap();
        }
        // The error comes back from a later submit or from the finish.
        let mut failed = d.submit(&mut txn, spill).is_err();
        for fid in 1..4 {
            let mut s = d.field(fid).unwrap();
            s.insert(b"x", 0).unwrap();
            failed |= d.submit(&mut txn, s).is_err();
        }
        failed |= d.finish(&mut txn).is_err();
        assert!(failed);
    }
}
