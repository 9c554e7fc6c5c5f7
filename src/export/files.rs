//! An export written to a directory, to be loaded into a cluster with its standard APIs:
//!
//! | file | what |
//! |---|---|
//! | `{index}.index.json` | the body of `PUT /{index}` (settings and mapping) |
//! | `{index}.bulk.ndjson` (`.gz` with gzip) | the body of `POST /_bulk`, every document |
//! | `aliases.json` | the body of `POST /_aliases` |
//! | `load.sh` | loads all of it with curl: `sh load.sh URL [curl options]` |
//!
//! Documents are streamed: one at a time is in memory, whatever the index's size.

use super::{bulk_entry, path_segment, Export};
use crate::compat::Flavor;
use crate::error::{Error, Result};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Documents per `_bulk` request in `load.sh` (two lines each), a body of a few MB for
/// registry records: well below ES's 100 MB `http.max_content_length`.
pub const SCRIPT_BULK_DOCS: usize = 5_000;

/// What an export to a directory wrote.
#[derive(Debug, Clone, Default)]
pub struct WrittenFiles {
    /// Every file written, in the order written.
    pub files: Vec<PathBuf>,
    /// Documents written.
    pub docs: u64,
}

/// Writes `export` into `dir` (created when missing) in `flavor`, the bulk files gzipped
/// when `gzip`; `progress` is called with the number of documents written so far.
pub fn write_dir(
    export: &Export,
    dir: &Path,
    flavor: Flavor,
    gzip: bool,
    progress: &mut dyn FnMut(u64),
) -> Result<WrittenFiles> {
    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let mut out = WrittenFiles::default();
    for index in export.indices() {
        let path = dir.join(format!("{}.index.json", index.name));
        write_json(&path, &export.create_index_body(index, flavor))?;
        out.files.push(path);
        let path = dir.join(bulk_file_name(&index.name, gzip));
        let file = BufWriter::new(File::create(&path).map_err(|e| io_error(&path, e))?);
        let mut write_docs = |sink: &mut dyn Write| {
            let mut entry = Vec::new();
            export.for_each_document(index, |doc, routing| {
                entry.clear();
                bulk_entry(index, doc, routing, flavor, &mut entry)?;
                sink.write_all(&entry).map_err(|e| io_error(&path, e))?;
                out.docs += 1;
                progress(out.docs);
                Ok(())
            })
        };
        // Finished explicitly: dropping a gzip stream writes its trailer but swallows
        // the error of a full disk.
        let flushed = if gzip {
            let mut enc = flate2::write::GzEncoder::new(file, flate2::Compression::default());
            write_docs(&mut enc)?;
            enc.finish().and_then(|mut f| f.flush())
        } else {
            let mut plain = file;
            write_docs(&mut plain)?;
            plain.flush()
        };
        flushed.map_err(|e| io_error(&path, e))?;
        out.files.push(path);
    }
    let path = dir.join("aliases.json");
    write_json(&path, &export.alias_actions())?;
    out.files.push(path);
    let path = dir.join("load.sh");
    std::fs::write(&path, load_script(export, gzip)).map_err(|e| io_error(&path, e))?;
    out.files.push(path);
    Ok(out)
}

fn bulk_file_name(index: &str, gzip: bool) -> String {
    format!("{index}.bulk.ndjson{}", if gzip { ".gz" } else { "" })
}

fn write_json(path: &Path, v: &serde_json::Value) -> Result<()> {
    let mut text = serde_json::to_string_pretty(v).map_err(|e| Error::storage(e.to_string()))?;
    text.push('\n');
    std::fs::write(path, text).map_err(|e| io_error(path, e))
}

fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::storage(format!("cannot write [{}]: {e}", path.display()))
}

/// A POSIX shell word for `s`.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The `load.sh` of an export: create each index, send its documents in `_bulk`
/// requests of [`SCRIPT_BULK_DOCS`], refresh it, then point the aliases. It stops at the
/// first request the cluster refuses, and at a `_bulk` answer that reports refused
/// documents, printing the cluster's answer.
fn load_script(export: &Export, gzip: bool) -> String {
    let mut s = String::from(
        r#"#!/bin/sh
# Loads this export into an Elasticsearch (6.8, 7.x, 8.x) or OpenSearch cluster:
#   sh load.sh URL [curl options, e.g. -u user:password or -H 'Authorization: ApiKey ...']
set -eu
url=${1:?usage: sh load.sh http://localhost:9200 [curl options]}
url=${url%/}
shift
here=$(cd "$(dirname "$0")" && pwd)
parts=$(mktemp -d)
trap 'rm -rf "$parts"' EXIT

# send METHOD PATH CONTENT-TYPE FILE [curl options]
send() {
  method=$1 path=$2 type=$3 file=$4
  shift 4
  answer=$(curl -sS -X "$method" "$url$path" -H "Content-Type: $type" --data-binary "@$file" "$@" -w '\n%{http_code}')
  code=$(printf '%s\n' "$answer" | tail -n 1)
  body=$(printf '%s\n' "$answer" | sed '$d')
  case $code in
    2??) ;;
    *) printf '%s %s: HTTP %s: %s\n' "$method" "$path" "$code" "$body" >&2; exit 1 ;;
  esac
  case $body in
    *'"errors":true'*) printf '%s %s: the cluster refused documents: %s\n' "$method" "$path" "$body" >&2; exit 1 ;;
  esac
}

"#,
    );
    let lines = SCRIPT_BULK_DOCS * 2;
    let reader = if gzip { "gzip -dc" } else { "cat" };
    for index in export.indices() {
        let name = shell_quote(&index.name);
        let segment = path_segment(&index.name);
        let path = shell_quote(&format!("/{segment}"));
        let refresh = shell_quote(&format!("/{segment}/_refresh"));
        let bulk = shell_quote(&bulk_file_name(&index.name, gzip));
        let create = shell_quote(&format!("{}.index.json", index.name));
        s.push_str(&format!(
            "echo \"creating \"{name}\" ({docs} documents)\"\n\
             send PUT {path} application/json \"$here\"/{create} \"$@\"\n\
             rm -f \"$parts\"/part.*\n\
             {reader} \"$here\"/{bulk} | (cd \"$parts\" && split -l {lines} - part.)\n\
             for part in \"$parts\"/part.*; do\n\
             \x20 [ -e \"$part\" ] || continue\n\
             \x20 send POST /_bulk application/x-ndjson \"$part\" \"$@\"\n\
             done\n\
             send POST {refresh} application/json /dev/null \"$@\"\n\n",
            docs = index.docs,
        ));
    }
    if !export.aliases().is_empty() {
        s.push_str("send POST /_aliases application/json \"$here\"/aliases.json \"$@\"\n");
    }
    s.push_str("echo done\n");
    s
}
