//! The embedded demo corpus: real registry, lexicon and dataset records (see
//! data/demo/NOTICE for sources and licences) built into a metagate file on first use.

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::load::LoadOptions;
use crate::mapping::Family;
use serde_json::Value;
use std::path::Path;

include!(concat!(env!("OUT_DIR"), "/demo_files.rs"));

/// One index of the demo manifest.
#[derive(Debug, Clone)]
pub struct DemoIndex {
    /// Concrete index name.
    pub index: String,
    /// Embedded file name.
    pub file: String,
    /// Template family.
    pub family: Family,
    /// `_type` of its records.
    pub doc_type: String,
    /// Aliases pointing at it.
    pub aliases: Vec<String>,
    /// Number of records.
    pub docs: u64,
}

fn embedded(name: &str) -> Option<&'static [u8]> {
    DEMO_FILES.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}

/// The demo manifest.
pub(crate) fn manifest() -> Result<Vec<DemoIndex>> {
    let raw = embedded("manifest.json")
        .ok_or_else(|| Error::storage("this build carries no demo corpus (data/demo/manifest.json was missing)"))?;
    let v: Value = serde_json::from_slice(raw).map_err(|e| Error::storage(format!("demo manifest: {e}")))?;
    let list =
        v.get("indices").and_then(Value::as_array).ok_or_else(|| Error::storage("demo manifest has no [indices]"))?;
    list.iter()
        .map(|i| {
            let s = |k: &str| i.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            Ok(DemoIndex {
                index: s("index"),
                file: s("file"),
                family: Family::from_name(&s("family")).unwrap_or(Family::Registry),
                doc_type: s("type"),
                aliases: i
                    .get("aliases")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
                    .unwrap_or_default(),
                docs: i.get("docs").and_then(Value::as_u64).unwrap_or(0),
            })
        })
        .collect()
}

/// Records per index of the browser demo file: enough for facets and paging to be worth
/// looking at, small enough (a few MB) for a page to download and open in a moment.
pub const WEB_RECORDS_PER_INDEX: usize = 2_000;

/// The first `n` records of an embedded `_bulk` file. Every demo record is one action
/// line followed by one source line, so records are pairs of lines.
fn first_records(gz: &[u8], n: usize) -> Result<Vec<u8>> {
    use std::io::BufRead;
    let mut out = Vec::new();
    let mut reader = crate::load::maybe_gzip(gz)?;
    let mut line = Vec::new();
    for _ in 0..n.saturating_mul(2) {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        out.extend_from_slice(&line);
        if !line.ends_with(b"\n") {
            out.push(b'\n');
        }
    }
    Ok(out)
}

/// Builds the demo indices and aliases into `path` (which must not hold them yet), every
/// record or the first `per_index` of each index; `progress(index, done_indices,
/// total_indices)` is called before each index.
fn build_limited(
    path: &Path,
    per_index: Option<usize>,
    progress: &mut dyn FnMut(&DemoIndex, usize, usize),
) -> Result<Engine> {
    let mut engine = Engine::open_or_create(path)?;
    let indices = manifest()?;
    let existing: Vec<String> = engine.indices()?.into_iter().map(|i| i.name).collect();
    for (n, idx) in indices.iter().enumerate() {
        progress(idx, n, indices.len());
        if existing.contains(&idx.index) {
            continue;
        }
        let bytes =
            embedded(&idx.file).ok_or_else(|| Error::storage(format!("demo file [{}] is not embedded", idx.file)))?;
        let opts = LoadOptions {
            family: Some(idx.family),
            doc_type: idx.doc_type.clone(),
            alias: idx.aliases.first().cloned(),
            ..Default::default()
        };
        match per_index {
            Some(n) => engine.load(&idx.index, first_records(bytes, n)?.as_slice(), &opts, &mut |_, _| {})?,
            None => engine.load(&idx.index, bytes, &opts, &mut |_, _| {})?,
        };
        for extra in idx.aliases.iter().skip(1) {
            engine.update_aliases(&[crate::engine::AliasAction::Add {
                alias: extra.clone(),
                index: idx.index.clone(),
            }])?;
        }
    }
    // Loading leaves free pages behind; the demo file is written once, so compact it. A
    // file another process is reading is left as it is: it serves the same either way.
    engine.compact()?;
    Ok(engine)
}

/// Opens the demo file at `path`, building it first when it is missing or incomplete.
pub fn open_or_build(path: &Path, progress: &mut dyn FnMut(&DemoIndex, usize, usize)) -> Result<Engine> {
    open_or_build_limited(path, None, progress)
}

/// Opens the browser demo file at `path` — the same indices, aliases and mappings as the
/// full demo, with the first `per_index` records of each index — building it first when
/// it is missing or incomplete.
pub fn open_or_build_web(
    path: &Path,
    per_index: usize,
    progress: &mut dyn FnMut(&DemoIndex, usize, usize),
) -> Result<Engine> {
    open_or_build_limited(path, Some(per_index), progress)
}

fn open_or_build_limited(
    path: &Path,
    per_index: Option<usize>,
    progress: &mut dyn FnMut(&DemoIndex, usize, usize),
) -> Result<Engine> {
    if path.exists() {
        match Engine::open(path) {
            Ok(engine) => {
                let have: Vec<String> = engine.indices()?.into_iter().map(|i| i.name).collect();
                if manifest()?.iter().all(|m| have.contains(&m.index)) {
                    return Ok(engine);
                }
            }
            // A demo file of an earlier format is rebuilt from the embedded corpus.
            Err(e) if crate::store::is_format_mismatch(&e) => {
                std::fs::remove_file(path).map_err(|io| Error::storage(format!("{}: {io}", path.display())))?;
            }
            Err(e) => return Err(e),
        }
    }
    build_limited(path, per_index, progress)
}
