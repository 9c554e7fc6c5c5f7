//! The doc store's block codec, measured: LZ4 (`lz4_flex`, what metagate uses) against
//! zstd, at blocks of 16, 32 and 64 KiB, on the generated records laid out as metagate's
//! doc store lays them out (varint length + `_id`, `_type`, `_source`). For each it reports
//! the stored bytes per document and the time to decompress the blocks of a scroll page of
//! 1000 documents, read in order as a scroll reads them.
//!
//! ```sh
//! metagate-compare --worker codecs --docs 100000
//! ```

use crate::corpus::Corpus;
use serde_json::{json, Value};
use std::time::Instant;

/// Block sizes measured.
const BLOCKS: [usize; 3] = [16 << 10, 32 << 10, 64 << 10];

fn put_varint(out: &mut Vec<u8>, mut v: usize) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The records cut into blocks of about `block` bytes: (block bytes, documents in it).
fn blocks(records: &[Vec<u8>], block: usize) -> Vec<(Vec<u8>, usize)> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    let mut docs = 0;
    for r in records {
        cur.extend_from_slice(r);
        docs += 1;
        if cur.len() >= block {
            out.push((std::mem::take(&mut cur), docs));
            docs = 0;
        }
    }
    if docs > 0 {
        out.push((cur, docs));
    }
    out
}

/// Size and scroll-page decompression time of every codec and block size over `n` records.
pub fn run(corpus: &Corpus, n: u64) -> Value {
    let records: Vec<Vec<u8>> = (0..n)
        .map(|i| {
            let (id, source) = corpus.record(i);
            let source = serde_json::to_vec(&source).expect("json");
            let mut r = Vec::new();
            for part in [id.as_bytes(), b"_doc".as_slice(), &source] {
                put_varint(&mut r, part.len());
                r.extend_from_slice(part);
            }
            r
        })
        .collect();
    let raw: usize = records.iter().map(Vec::len).sum();
    let mut rows = Vec::new();
    for block in BLOCKS {
        let plain = blocks(&records, block);
        for codec in ["lz4", "zstd-1", "zstd-3"] {
            let t = Instant::now();
            let packed: Vec<(Vec<u8>, usize, usize)> = plain
                .iter()
                .map(|(b, docs)| {
                    let c = match codec {
                        "lz4" => lz4_flex::compress_prepend_size(b),
                        "zstd-1" => zstd::bulk::compress(b, 1).expect("zstd"),
                        _ => zstd::bulk::compress(b, 3).expect("zstd"),
                    };
                    (c, b.len(), *docs)
                })
                .collect();
            let compress_s = t.elapsed().as_secs_f64();
            let bytes: usize = packed.iter().map(|p| p.0.len()).sum();
            // A full scroll, block after block, three times over; per 1000 documents.
            let t = Instant::now();
            let mut sink = 0usize;
            for _ in 0..3 {
                for (c, len, _) in &packed {
                    let d = match codec {
                        "lz4" => lz4_flex::decompress_size_prepended(c).expect("lz4"),
                        _ => zstd::bulk::decompress(c, *len).expect("zstd"),
                    };
                    sink += d.len();
                }
            }
            std::hint::black_box(sink);
            let page_ms = t.elapsed().as_secs_f64() * 1e3 / 3.0 / (n as f64 / 1000.0);
            rows.push(json!({"codec": codec, "block_kib": block >> 10, "bytes_per_doc": bytes as f64 / n as f64,
                             "ratio": raw as f64 / bytes as f64, "decompress_ms_per_1000_docs": page_ms,
                             "compress_s": compress_s}));
        }
    }
    json!({"docs": n, "raw_bytes_per_doc": raw as f64 / n as f64, "codecs": rows})
}
