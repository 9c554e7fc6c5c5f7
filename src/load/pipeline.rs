//! A load's three stages, each on its own thread: the calling thread reads the input in
//! chunks (the input need not be `Send`: it may generate its bytes as it is read), a
//! parse thread turns their lines into prepared documents (JSON, mapping, analysis), and
//! a build thread inverts those into segments. Bounded channels between the stages keep
//! a few chunks in flight, so memory does not grow with the input and the slowest stage
//! sets the pace; emptied buffers go back upstream to be filled again.

use super::lines::LineParser;
use super::Progress;
use crate::error::{Error, Result};
use crate::index::{Prepared, SegmentWriter};
use std::io::Read;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::sync_channel;

/// Bytes of input handed to the parse stage at a time.
const CHUNK: usize = 256 << 10;
/// Chunks that may wait for the parse stage (4 MiB), and batches of prepared documents
/// that may wait for the build stage: enough that reading and parsing go on while the
/// build stage writes a full segment to its run.
const CHUNKS_IN_FLIGHT: usize = 16;
const BATCHES_IN_FLIGHT: usize = 8;

/// Reads `input` to its end through `parser` into `writer`; returns the bytes read.
/// The first error of a stage ends the others: the build stage's (storage), then the
/// parse stage's (too many bad lines), then the input's.
pub fn run(
    input: &mut dyn Read,
    parser: &mut LineParser<'_>,
    writer: &mut SegmentWriter,
    progress: Progress<'_>,
) -> Result<u64> {
    let docs = AtomicU32::new(0);
    let docs = &docs;
    std::thread::scope(|scope| {
        let (chunk_tx, chunk_rx) = sync_channel::<Vec<u8>>(CHUNKS_IN_FLIGHT);
        let (free_chunk_tx, free_chunk_rx) = sync_channel::<Vec<u8>>(CHUNKS_IN_FLIGHT + 2);
        let (batch_tx, batch_rx) = sync_channel::<Prepared>(BATCHES_IN_FLIGHT);
        let (free_batch_tx, free_batch_rx) = sync_channel::<Prepared>(BATCHES_IN_FLIGHT + 2);
        let parse = std::thread::Builder::new()
            .name("metagate-parse".into())
            .spawn_scoped(scope, move || -> Result<()> {
                for chunk in chunk_rx {
                    let mut batch = free_batch_rx.try_recv().unwrap_or_default();
                    parser.feed(&chunk, &mut batch)?;
                    let _ = free_chunk_tx.try_send(chunk);
                    if batch_tx.send(batch).is_err() {
                        // The build stage stopped: its error is the load's.
                        return Ok(());
                    }
                }
                let mut batch = free_batch_rx.try_recv().unwrap_or_default();
                parser.finish(&mut batch)?;
                let _ = batch_tx.send(batch);
                Ok(())
            })
            .map_err(thread_error)?;
        let build =
            std::thread::Builder::new().name("metagate-build".into()).spawn_scoped(scope, move || -> Result<()> {
                for mut batch in batch_rx {
                    writer.add(&batch)?;
                    docs.store(writer.doc_count(), Ordering::Relaxed);
                    batch.clear();
                    let _ = free_batch_tx.try_send(batch);
                }
                Ok(())
            });
        let build = match build {
            Ok(b) => b,
            Err(e) => {
                drop(chunk_tx);
                let _ = parse.join();
                return Err(thread_error(e));
            }
        };
        let mut bytes = 0u64;
        let read = loop {
            let mut chunk = free_chunk_rx.try_recv().unwrap_or_else(|_| Vec::with_capacity(CHUNK));
            chunk.clear();
            match Read::take(&mut *input, CHUNK as u64).read_to_end(&mut chunk) {
                Ok(0) => break Ok(()),
                Ok(n) => bytes += n as u64,
                Err(e) => break Err(e),
            }
            if chunk_tx.send(chunk).is_err() {
                // The parse stage stopped (or the build stage behind it): its error is the load's.
                break Ok(());
            }
            progress(bytes, docs.load(Ordering::Relaxed) as u64);
        };
        drop(chunk_tx);
        let parsed = parse.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        let built = build.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        built?;
        parsed?;
        read?;
        progress(bytes, docs.load(Ordering::Relaxed) as u64);
        Ok(bytes)
    })
}

fn thread_error(e: std::io::Error) -> Error {
    Error::storage(format!("load: cannot start a thread: {e}"))
}
