//! The public demo page at `/demo/`: the browser build's static files and the metagate
//! file the page searches. The HTTP server answers these paths itself, before the gateway,
//! which does no filesystem I/O.
//!
//! No API key is needed here: nothing under `/demo/` searches on the server. The page
//! downloads the file image (`/demo/demo.redb`) and searches it in the browser with the
//! WASM build, so the key that guards the search routes guards nothing here.
//!
//! The module and the file image are sent gzipped to browsers that accept it (the image
//! shrinks about 4x); each is compressed once and kept until the file changes.
//!
//! The file image also answers single byte-range GETs (RFC 9110 section 14), so that a
//! Web Worker can open a large file lazily with `Range: bytes=a-b` requests: `206` with
//! the identity bytes of the range, `416` for a range that starts past the end, and the
//! whole file (`200`) whenever the Range header is to be ignored (see `byte_range`).

use crate::gateway::{
    error_response, finish_method, internal_error, no_handler, params::percent_decode, plain, redact, Request,
    Response, TEXT_CONTENT_TYPE,
};
use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// The URL path of the file image the page opens, under `/demo/`.
pub(crate) const DATA_NAME: &str = "demo.redb";

/// The longest range answered with `206`; a longer one gets the whole file (`200`).
const MAX_RANGE: u64 = 64 * 1024 * 1024;

/// The content type of the file image.
const DATA_CONTENT_TYPE: &str = "application/octet-stream";

/// Compressed bodies by path, with the length and modification time they were made from.
type GzipCache = Arc<Mutex<HashMap<PathBuf, (u64, Option<SystemTime>, Arc<Vec<u8>>)>>>;

/// The part of `path` (with its query string) after `/demo`, when it lies under it.
fn page_path(path: &str) -> Option<&str> {
    let raw_path = path.split_once('?').map_or(path, |(p, _)| p);
    raw_path.strip_prefix("/demo").filter(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// What `/demo/` serves.
#[derive(Debug, Clone)]
pub struct DemoPage {
    /// Directory of the page (`wasm/www`: `index.html`, scripts, `pkg/` with the module).
    pub dir: PathBuf,
    /// The metagate file served as `/demo/demo.redb`, if any.
    pub data: Option<PathBuf>,
    gzipped: GzipCache,
}

impl DemoPage {
    /// The page in `dir`, opening the metagate file `data`.
    pub fn new(dir: PathBuf, data: Option<PathBuf>) -> DemoPage {
        DemoPage { dir, data, gzipped: GzipCache::default() }
    }

    /// The answer to `req` when its path lies under `/demo`, as the client receives it
    /// (finished like the gateway's answers: CORS headers, and a HEAD's body dropped with
    /// its length kept); else `None`, for the gateway to answer.
    pub fn answer(&self, req: &Request) -> Option<Response> {
        let method = req.method.to_ascii_uppercase();
        let header =
            |name: &str| req.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str());
        let gzip = header("Accept-Encoding").is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("gzip")));
        let range = header("Range");
        // A panic (a bug) must not take the server's worker down: it is the gateway's 500.
        let resp = std::panic::catch_unwind(AssertUnwindSafe(|| self.serve(&req.path, &method, gzip, range)))
            .unwrap_or_else(|_| Some(error_response(&internal_error(), &[])))?;
        Some(finish_method(&req.method, resp))
    }

    /// Whether `path` (with its query string) lies under `/demo`: the page answers it,
    /// not the gateway (and needs no key).
    pub fn serves(&self, path: &str) -> bool {
        page_path(path).is_some()
    }

    /// The unfinished answer for `path` (with its query string) when it lies under `/demo`,
    /// else `None`. `method` is upper case. `gzip`: the client accepts a gzipped body.
    /// `range`: the request's `Range` header, honoured for GETs of the file image only.
    fn serve(&self, path: &str, method: &str, gzip: bool, range: Option<&str>) -> Option<Response> {
        let rest = page_path(path)?;
        if !matches!(method, "GET" | "HEAD") {
            return Some(no_handler(&redact(path), method));
        }
        if rest.is_empty() {
            // The page's relative URLs (app.js, pkg/...) resolve against `/demo/`.
            let mut r = plain(301, TEXT_CONTENT_TYPE, b"moved to /demo/".to_vec());
            r.headers.push(("Location".into(), "/demo/".into()));
            return Some(r);
        }
        let rel = percent_decode(rest.trim_start_matches('/'), false);
        if rel == DATA_NAME {
            return Some(match &self.data {
                // RFC 9110 section 14.2: GET is the only method for which range handling
                // is defined, and a server MUST ignore Range on any other (HEAD included:
                // a HEAD answers like a GET of the whole file).
                Some(p) => self.data_file(p, gzip, range.filter(|_| method == "GET")),
                None => plain(
                    404,
                    TEXT_CONTENT_TYPE,
                    b"no demo file is served: start `metagate serve` without --file, or pass --demo-file".to_vec(),
                ),
            });
        }
        let rel = if rel.is_empty() || rel.ends_with('/') { format!("{rel}index.html") } else { rel };
        if rel.split('/').any(|p| p.is_empty() || p == ".." || p.starts_with('.')) || rel.contains(['\\', '\0']) {
            return Some(not_found());
        }
        let path = self.dir.join(&rel);
        if escapes(&self.dir, &path) {
            return Some(not_found());
        }
        if rel.starts_with("pkg/") && !path.exists() {
            return Some(plain(
                404,
                TEXT_CONTENT_TYPE,
                b"the browser build is missing: run `bash wasm/build.sh` in the source tree".to_vec(),
            ));
        }
        if gzip && rel.ends_with(".wasm") {
            return Some(self.gzipped_file(&path, content_type(&path)));
        }
        Some(file(&path, content_type(&path)))
    }

    /// The file image at `path`: the requested byte range when `range` names one that is
    /// to be honoured, else the whole file (gzipped when `gzip`). Every answer with the
    /// file's bytes says `Accept-Ranges: bytes`.
    fn data_file(&self, path: &Path, gzip: bool, range: Option<&str>) -> Response {
        if let Some(r) = range.and_then(byte_range).and_then(|spec| partial(path, spec)) {
            return r;
        }
        let mut r = if gzip { self.gzipped_file(path, DATA_CONTENT_TYPE) } else { file(path, DATA_CONTENT_TYPE) };
        if r.status == 200 {
            r.headers.push(("Accept-Ranges".into(), "bytes".into()));
        }
        r
    }

    /// A large file gzipped, compressed on first request and whenever it changed since.
    fn gzipped_file(&self, path: &Path, content_type: &str) -> Response {
        let Ok(meta) = std::fs::metadata(path) else {
            return not_found();
        };
        let stamp = (meta.len(), meta.modified().ok());
        let cached = {
            let cache = self.gzipped.lock().unwrap_or_else(|p| p.into_inner());
            cache.get(path).filter(|(len, time, _)| (*len, *time) == stamp).map(|(_, _, gz)| gz.clone())
        };
        let gz = match cached {
            Some(gz) => gz,
            None => {
                let Ok(raw) = std::fs::read(path) else {
                    return not_found();
                };
                // The fast level: most of the size win at a fraction of the default's time.
                let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                let Ok(gz) = enc.write_all(&raw).and_then(|_| enc.finish()) else {
                    return file(path, content_type);
                };
                let gz = Arc::new(gz);
                let mut cache = self.gzipped.lock().unwrap_or_else(|p| p.into_inner());
                cache.insert(path.to_path_buf(), (stamp.0, stamp.1, gz.clone()));
                gz
            }
        };
        let mut r = plain(200, content_type, gz.to_vec());
        r.headers.push(("Content-Encoding".into(), "gzip".into()));
        r.headers.push(("Vary".into(), "Accept-Encoding".into()));
        r.headers.push(("Cache-Control".into(), "no-cache".into()));
        r
    }
}

/// One byte range as a Range header names it (RFC 9110 section 14.1.2), not yet held
/// against the file's length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ByteRange {
    /// `first-last` or `first-` (`last` is `None`), positions counted from 0, inclusive.
    From(u64, Option<u64>),
    /// `-n`: the last `n` bytes.
    Suffix(u64),
}

/// The single byte range a `Range` header value asks for, or `None` when the header is to
/// be ignored and the whole file sent, which RFC 9110 section 14.2 permits ("a server MAY
/// ignore the Range header field") and, for a unit it does not understand, requires:
/// - a range unit other than `bytes` (units compare case-insensitively, section 14.1);
/// - more than one range (`bytes=0-1,5-6`): answering needs `multipart/byteranges`, which
///   the worker never asks for; the whole file is a correct answer to it;
/// - an invalid ranges-specifier (`bytes=x-y`, `bytes=9-5`, `bytes=-`, `bytes=`, signs or
///   spaces inside a range): section 14.2 lets a server ignore or reject it, and ignoring
///   keeps one rule for everything that is not a well-formed single range. Only a
///   well-formed range that misses the file is `416` (see [`partial`]).
///
/// Empty list elements and the blanks around elements (`bytes=0-9,`, `bytes=, 0-9`) are
/// skipped, as the list rule in section 5.6.1 asks of recipients. Numbers too large for `u64` saturate: they lie past
/// the end of any file, and are compared exactly for the `last < first` check.
fn byte_range(value: &str) -> Option<ByteRange> {
    let (unit, set) = value.split_once('=')?;
    if !unit.eq_ignore_ascii_case("bytes") {
        return None;
    }
    let mut specs = set.split(',').map(|s| s.trim_matches([' ', '\t'])).filter(|s| !s.is_empty());
    let spec = specs.next()?;
    if specs.next().is_some() {
        return None;
    }
    let (first, last) = spec.split_once('-')?;
    if first.is_empty() {
        return Some(ByteRange::Suffix(position(last)?));
    }
    let from = position(first)?;
    if last.is_empty() {
        return Some(ByteRange::From(from, None));
    }
    let to = position(last)?;
    // `last < first` makes the range invalid (section 14.1.2); compare the digits, not
    // the saturated values.
    let (a, b) = (first.trim_start_matches('0'), last.trim_start_matches('0'));
    if (b.len(), b) < (a.len(), a) {
        return None;
    }
    Some(ByteRange::From(from, Some(to)))
}

/// A `1*DIGIT` position, saturating at `u64::MAX`; `None` if not all ASCII digits.
fn position(digits: &str) -> Option<u64> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.bytes().fold(0u64, |n, d| n.saturating_mul(10).saturating_add(u64::from(d - b'0'))))
}

/// The answer to the byte range `spec` of the file at `path`, or `None` to send the whole
/// file instead. Reads only the range (seek, then `read_exact`).
///
/// - A range that starts at or past the end (`bytes=N-` for an `N`-byte file), or a suffix
///   of length 0, is unsatisfiable: `416` with `Content-Range: bytes */N` (sections
///   14.1.1 and 15.5.17).
/// - A last position past the end is clamped to `N - 1`; a suffix longer than the file
///   is the whole file (section 14.1.2), sent as `206` with `bytes 0-(N-1)/N`.
/// - A zero-length file has no byte a `Content-Range` could name, so a (satisfiable)
///   suffix range on it is answered with the whole, empty, file (`200`).
/// - A range longer than [`MAX_RANGE`] gets the whole file (`200`), not a shorter `206`:
///   a `206` must carry exactly the range asked for (section 15.3.7 has no room for a
///   server to cut a single range short, and a client reading a lazily opened file takes
///   the body as the bytes it asked for), while ignoring Range is always allowed. The cap
///   keeps one request from making the server allocate an arbitrary buffer for a slice;
///   the whole-file answer costs what a request without Range costs today.
///
/// No `Content-Encoding` ever: a range addresses the identity bytes, so the identity
/// representation is the one selected for a range request.
fn partial(path: &Path, spec: ByteRange) -> Option<Response> {
    let Ok(mut f) = std::fs::File::open(path) else {
        return Some(not_found());
    };
    // The length of the file actually opened: a file replaced meanwhile keeps its bytes.
    let Ok(meta) = f.metadata() else {
        return Some(not_found());
    };
    let total = meta.len();
    let (start, end) = match spec {
        ByteRange::From(first, _) if first >= total => return Some(unsatisfiable(total)),
        ByteRange::From(first, last) => (first, last.unwrap_or(u64::MAX).min(total - 1)),
        ByteRange::Suffix(0) => return Some(unsatisfiable(total)),
        ByteRange::Suffix(_) if total == 0 => return None,
        ByteRange::Suffix(n) => (total - n.min(total), total - 1),
    };
    let len = end - start + 1;
    if len > MAX_RANGE {
        return None;
    }
    let mut body = vec![0u8; len as usize];
    if f.seek(SeekFrom::Start(start)).and_then(|_| f.read_exact(&mut body)).is_err() {
        // Shorter than its metadata said: cut while being read.
        return Some(plain(500, TEXT_CONTENT_TYPE, b"could not read the demo file".to_vec()));
    }
    let mut r = plain(206, DATA_CONTENT_TYPE, body);
    r.headers.push(("Content-Range".into(), format!("bytes {start}-{end}/{total}")));
    r.headers.push(("Accept-Ranges".into(), "bytes".into()));
    // Not stored: the lazy reader keeps its own cache, and a browser that kept these parts
    // would answer a later whole-file request partly from them.
    r.headers.push(("Cache-Control".into(), "no-store".into()));
    r.headers.push(("ETag".into(), etag(&meta)));
    Some(r)
}

/// A strong validator of the file's bytes (length and modification time), so that a
/// reader fetching ranges one by one notices when the file changed between two of them.
fn etag(meta: &std::fs::Metadata) -> String {
    let nanos =
        meta.modified().ok().and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
    format!("\"{:x}-{nanos:x}\"", meta.len())
}

/// `416` for a range that misses a file of `total` bytes.
fn unsatisfiable(total: u64) -> Response {
    let mut r = plain(416, TEXT_CONTENT_TYPE, b"range not satisfiable".to_vec());
    r.headers.push(("Content-Range".into(), format!("bytes */{total}")));
    r.headers.push(("Accept-Ranges".into(), "bytes".into()));
    r
}

/// Whether `path` (under `dir` by name) resolves outside `dir`: a symbolic link in the
/// page's directory must not hand out files from elsewhere.
fn escapes(dir: &Path, path: &Path) -> bool {
    match (dir.canonicalize(), path.canonicalize()) {
        (Ok(d), Ok(p)) => !p.starts_with(d),
        // A missing file is answered 404 by whoever reads it; nothing is read outside.
        _ => false,
    }
}

fn not_found() -> Response {
    plain(404, TEXT_CONTENT_TYPE, b"not found".to_vec())
}

/// A file's bytes; `no-cache` makes browsers revalidate, so a rebuilt page or file is
/// picked up on reload.
fn file(path: &Path, content_type: &str) -> Response {
    match std::fs::read(path) {
        Ok(body) => {
            let mut r = plain(200, content_type, body);
            r.headers.push(("Cache-Control".into(), "no-cache".into()));
            r
        }
        Err(_) => not_found(),
    }
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=UTF-8",
        "js" | "mjs" => "text/javascript; charset=UTF-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=UTF-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "md" | "ts" => TEXT_CONTENT_TYPE,
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page directory of its own per test (tests run in parallel).
    fn page(test: &str) -> DemoPage {
        let dir = std::env::temp_dir().join(format!("metagate-demo-page-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok();
        std::fs::write(dir.join("index.html"), "<p>hi</p>").ok();
        DemoPage::new(dir, None)
    }

    #[test]
    fn serves_index_redirects_and_refuses_escapes() {
        let p = page("routes");
        let r = p.serve("/demo/", "GET", false, None).map(|r| (r.status, r.body));
        assert_eq!(r, Some((200, b"<p>hi</p>".to_vec())));
        assert_eq!(p.serve("/demo", "GET", false, None).map(|r| r.status), Some(301));
        assert_eq!(p.serve("/demo/../Cargo.toml", "GET", false, None).map(|r| r.status), Some(404));
        assert_eq!(p.serve("/demo/%2e%2e/x", "GET", false, None).map(|r| r.status), Some(404));
        for escape in [
            "/demo/%2E%2E%2FCargo.toml",
            "/demo/..%2f..%2fCargo.toml",
            "/demo//etc/passwd",
            "/demo/%2fetc%2fpasswd",
            "/demo/%5c..%5cCargo.toml",
            "/demo/index.html%00.js",
            "/demo/sub/../../Cargo.toml",
        ] {
            assert_eq!(p.serve(escape, "GET", false, None).map(|r| r.status), Some(404), "{escape}");
        }
        assert_eq!(p.serve("/demo/.hidden", "GET", false, None).map(|r| r.status), Some(404));
        assert_eq!(p.serve("/demo/demo.redb", "GET", false, None).map(|r| r.status), Some(404));
        assert_eq!(p.serve("/demo/", "POST", false, None).map(|r| r.status), Some(400));
        assert!(p.serve("/demonstration", "GET", false, None).is_none());
        assert!(p.serve("/elastic/v1/_search", "GET", false, None).is_none());
        std::fs::remove_dir_all(&p.dir).ok();
    }

    #[cfg(unix)]
    #[test]
    fn symbolic_links_out_of_the_page_are_refused() {
        let p = page("symlink");
        let outside = std::env::temp_dir().join(format!("metagate-outside-{}", std::process::id()));
        std::fs::write(&outside, "secret").unwrap();
        for link in ["leak.txt", "inside.html"] {
            std::fs::remove_file(p.dir.join(link)).ok();
        }
        std::os::unix::fs::symlink(&outside, p.dir.join("leak.txt")).unwrap();
        std::os::unix::fs::symlink(p.dir.join("index.html"), p.dir.join("inside.html")).unwrap();
        assert_eq!(p.serve("/demo/leak.txt", "GET", false, None).map(|r| r.status), Some(404));
        // A link that stays inside the page's directory is served.
        assert_eq!(p.serve("/demo/inside.html", "GET", false, None).map(|r| r.status), Some(200));
        std::fs::remove_file(&outside).ok();
        std::fs::remove_dir_all(&p.dir).ok();
    }

    #[test]
    fn gzips_the_file_image_for_clients_that_accept_it() {
        let mut p = page("gzip");
        let data = p.dir.join("image.redb");
        let bytes: Vec<u8> = (0..100_000u32).flat_map(|i| (i % 7).to_le_bytes()).collect();
        std::fs::write(&data, &bytes).ok();
        p.data = Some(data);
        let plain = p.serve("/demo/demo.redb", "GET", false, None).map(|r| r.body);
        assert_eq!(plain.as_deref(), Some(bytes.as_slice()));
        // Twice: the second answer comes from the cache.
        for _ in 0..2 {
            let r = p.serve("/demo/demo.redb", "GET", true, None).unwrap_or_default();
            assert!(r.headers.iter().any(|(k, v)| k == "Content-Encoding" && v == "gzip"));
            assert!(r.body.len() < bytes.len() / 4);
            let mut out = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(r.body.as_slice()), &mut out).ok();
            assert_eq!(out, bytes);
        }
        std::fs::remove_dir_all(&p.dir).ok();
    }

    /// A page serving a data file of `len` bytes (byte `i` is `i % 251`), and those bytes.
    fn page_with_data(test: &str, len: usize) -> (DemoPage, Vec<u8>) {
        let mut p = page(test);
        let bytes: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        let data = p.dir.join("image.redb");
        std::fs::write(&data, &bytes).ok();
        p.data = Some(data);
        (p, bytes)
    }

    type Answer = (u16, Vec<(String, String)>, Vec<u8>);

    /// The answer, with the ETag of a 206 checked against the file and taken out (so the
    /// expectations below need not name a modification time).
    fn get(p: &DemoPage, gzip: bool, range: Option<&str>) -> Answer {
        let mut r = p.serve("/demo/demo.redb", "GET", gzip, range).unwrap_or_default();
        if r.status == 206 {
            let meta = std::fs::metadata(p.data.as_ref().unwrap()).unwrap();
            let at = r.headers.iter().position(|(k, _)| k == "ETag").expect("a 206 carries an ETag");
            assert_eq!(r.headers.remove(at).1, etag(&meta));
        }
        (r.status, r.headers, r.body)
    }

    fn headers(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn whole(bytes: &[u8]) -> Answer {
        let h = [("Content-Type", DATA_CONTENT_TYPE), ("Cache-Control", "no-cache"), ("Accept-Ranges", "bytes")];
        (200, headers(&h), bytes.to_vec())
    }

    fn slice(bytes: &[u8], first: usize, last: usize) -> Answer {
        let range = format!("bytes {first}-{last}/{}", bytes.len());
        let h = [
            ("Content-Type", DATA_CONTENT_TYPE),
            ("Content-Range", range.as_str()),
            ("Accept-Ranges", "bytes"),
            ("Cache-Control", "no-store"),
        ];
        (206, headers(&h), bytes[first..=last].to_vec())
    }

    fn refused(total: usize) -> Answer {
        let range = format!("bytes */{total}");
        let h = [("Content-Type", TEXT_CONTENT_TYPE), ("Content-Range", range.as_str()), ("Accept-Ranges", "bytes")];
        (416, headers(&h), b"range not satisfiable".to_vec())
    }

    #[test]
    fn whole_file_says_accept_ranges() {
        let (p, bytes) = page_with_data("range-whole", 1000);
        assert_eq!(get(&p, false, None), whole(&bytes));
        let (status, h, body) = get(&p, true, None);
        assert_eq!(status, 200);
        let expected = [
            ("Content-Type", DATA_CONTENT_TYPE),
            ("Content-Encoding", "gzip"),
            ("Vary", "Accept-Encoding"),
            ("Cache-Control", "no-cache"),
            ("Accept-Ranges", "bytes"),
        ];
        assert_eq!(h, headers(&expected));
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(body.as_slice()), &mut out).ok();
        assert_eq!(out, bytes);
        // The page's own files are not ranged.
        let r = p.serve("/demo/", "GET", false, Some("bytes=0-1")).unwrap_or_default();
        assert_eq!((r.status, r.body), (200, b"<p>hi</p>".to_vec()));
        assert!(!r.headers.iter().any(|(k, _)| k == "Accept-Ranges"));
        std::fs::remove_dir_all(&p.dir).ok();
    }

    #[test]
    fn single_ranges_answer_206_with_the_exact_bytes() {
        let (p, bytes) = page_with_data("range-206", 1000);
        assert_eq!(get(&p, false, Some("bytes=0-9")), slice(&bytes, 0, 9));
        assert_eq!(get(&p, false, Some("bytes=5-")), slice(&bytes, 5, 999));
        assert_eq!(get(&p, false, Some("bytes=-4")), slice(&bytes, 996, 999));
        assert_eq!(get(&p, false, Some("bytes=250-260")), slice(&bytes, 250, 260));
        assert_eq!(get(&p, false, Some("bytes=999-999")), slice(&bytes, 999, 999));
        // A last position past the end is clamped; so is one too large for any integer.
        assert_eq!(get(&p, false, Some("bytes=990-5000")), slice(&bytes, 990, 999));
        assert_eq!(get(&p, false, Some("bytes=0-99999999999999999999999")), slice(&bytes, 0, 999));
        // A suffix longer than the file is the whole file, still as a range.
        assert_eq!(get(&p, false, Some("bytes=-5000")), slice(&bytes, 0, 999));
        // The unit is case-insensitive; empty list elements are skipped; leading zeros.
        assert_eq!(get(&p, false, Some("Bytes=0-0")), slice(&bytes, 0, 0));
        assert_eq!(get(&p, false, Some("bytes=3-4,")), slice(&bytes, 3, 4));
        assert_eq!(get(&p, false, Some("bytes=, 3-4")), slice(&bytes, 3, 4));
        assert_eq!(get(&p, false, Some("bytes=007-010")), slice(&bytes, 7, 10));
        std::fs::remove_dir_all(&p.dir).ok();
    }

    #[test]
    fn a_range_with_gzip_accepted_is_identity_bytes() {
        let (p, bytes) = page_with_data("range-gzip", 1000);
        assert_eq!(get(&p, true, Some("bytes=100-199")), slice(&bytes, 100, 199));
        assert_eq!(get(&p, true, Some("bytes=-1")), slice(&bytes, 999, 999));
        std::fs::remove_dir_all(&p.dir).ok();
    }

    #[test]
    fn ranges_past_the_end_answer_416() {
        let (p, _) = page_with_data("range-416", 1000);
        for range in ["bytes=1000-", "bytes=1000-1005", "bytes=5000-6000", "bytes=-0", "bytes=99999999999999999999-"] {
            assert_eq!(get(&p, false, Some(range)), refused(1000), "{range}");
            assert_eq!(get(&p, true, Some(range)), refused(1000), "{range}");
        }
        std::fs::remove_dir_all(&p.dir).ok();
    }

    #[test]
    fn ignored_range_headers_send_the_whole_file() {
        let (p, bytes) = page_with_data("range-ignored", 1000);
        for range in [
            "bytes=0-1,5-6",
            "bytes=0-1, 5-6",
            "bytes=1000-,0-1",
            "items=0-1",
            "bytes=x-y",
            "bytes=9-5",
            "bytes=99999999999999999999-99999999999999999998",
            "bytes=-",
            "bytes=",
            "bytes=,",
            "bytes=+1-2",
            "bytes=1-+2",
            "bytes=1 -2",
            "bytes = 0-1",
            "bytes=0x10-",
            "0-9",
            "",
        ] {
            assert_eq!(get(&p, false, Some(range)), whole(&bytes), "{range:?}");
        }
        std::fs::remove_dir_all(&p.dir).ok();
    }

    #[test]
    fn range_applies_to_get_only() {
        let (p, bytes) = page_with_data("range-head", 1000);
        // HEAD ignores Range (RFC 9110 section 14.2); `answer` drops the body later.
        let r = p.serve("/demo/demo.redb", "HEAD", false, Some("bytes=0-9")).unwrap_or_default();
        assert_eq!((r.status, r.headers, r.body), whole(&bytes));
        std::fs::remove_dir_all(&p.dir).ok();
    }

    #[test]
    fn an_empty_file_has_no_range_to_send() {
        let (p, bytes) = page_with_data("range-empty", 0);
        assert_eq!(get(&p, false, Some("bytes=0-")), refused(0));
        assert_eq!(get(&p, false, Some("bytes=0-0")), refused(0));
        assert_eq!(get(&p, false, Some("bytes=-0")), refused(0));
        assert_eq!(get(&p, false, Some("bytes=-5")), whole(&bytes));
        std::fs::remove_dir_all(&p.dir).ok();
    }

    #[test]
    fn ranges_longer_than_the_cap_send_the_whole_file() {
        let mut p = page("range-cap");
        let data = p.dir.join("big.redb");
        // Sparse: MAX_RANGE + 1 zero bytes.
        let f = std::fs::File::create(&data).and_then(|f| f.set_len(MAX_RANGE + 1));
        assert!(f.is_ok());
        p.data = Some(data);
        let total = MAX_RANGE + 1;
        let (status, h, body) = get(&p, false, Some("bytes=0-"));
        assert_eq!((status, h), (200, whole(&[]).1));
        assert_eq!(body.len() as u64, total);
        assert!(body.iter().all(|b| *b == 0));
        drop(body);
        // Exactly the cap is still a range.
        let (status, h, body) = get(&p, false, Some("bytes=1-"));
        let range = format!("bytes 1-{MAX_RANGE}/{total}");
        let expected = [
            ("Content-Type", DATA_CONTENT_TYPE),
            ("Content-Range", range.as_str()),
            ("Accept-Ranges", "bytes"),
            ("Cache-Control", "no-store"),
        ];
        assert_eq!((status, h), (206, headers(&expected)));
        assert_eq!(body.len() as u64, MAX_RANGE);
        assert!(body.iter().all(|b| *b == 0));
        std::fs::remove_dir_all(&p.dir).ok();
    }

    #[test]
    fn parses_range_headers() {
        assert_eq!(byte_range("bytes=0-9"), Some(ByteRange::From(0, Some(9))));
        assert_eq!(byte_range("bytes=5-"), Some(ByteRange::From(5, None)));
        assert_eq!(byte_range("bytes=-4"), Some(ByteRange::Suffix(4)));
        assert_eq!(byte_range("bytes=-0"), Some(ByteRange::Suffix(0)));
        assert_eq!(byte_range("BYTES=\t1-1 ,"), Some(ByteRange::From(1, Some(1))));
        assert_eq!(byte_range("bytes=099-99"), Some(ByteRange::From(99, Some(99))));
        assert_eq!(byte_range("bytes=99999999999999999999-"), Some(ByteRange::From(u64::MAX, None)));
        assert_eq!(
            byte_range("bytes=99999999999999999998-99999999999999999999"),
            Some(ByteRange::From(u64::MAX, Some(u64::MAX)))
        );
        for bad in ["bytes=0-1,2-3", "items=0-1", "bytes=x-y", "bytes=9-5", "bytes=-", "bytes=", "bytes", "=0-1"] {
            assert_eq!(byte_range(bad), None, "{bad}");
        }
    }

    /// Through `answer`: the `Range` header reaches the page, every answer carries the
    /// gateway's CORS headers, and a HEAD keeps the headers of the whole-file GET and its
    /// length, with no body.
    #[test]
    fn requests_pass_range_and_head_keeps_the_length() {
        let (p, bytes) = page_with_data("range-request", 1000);
        let ask = |method: &str, gzip: bool, range: Option<&str>| {
            let mut h = Vec::new();
            if gzip {
                h.push(("Accept-Encoding".to_string(), "gzip, deflate".to_string()));
            }
            if let Some(range) = range {
                h.push(("Range".to_string(), range.to_string()));
            }
            let req = Request { method: method.into(), path: "/demo/demo.redb".into(), headers: h, body: vec![] };
            let r = p.answer(&req).unwrap_or_default();
            let cors: Vec<(&str, &str)> = r
                .headers
                .iter()
                .filter(|(k, _)| k.starts_with("Access-Control-"))
                .map(|(k, v)| (&k[..], &v[..]))
                .collect();
            assert_eq!(cors, crate::gateway::CORS_HEADERS);
            // The ETag is checked by `get` above.
            let h: Vec<(String, String)> =
                r.headers.into_iter().filter(|(k, _)| !k.starts_with("Access-Control-") && k != "ETag").collect();
            (r.status, h, r.body)
        };
        assert_eq!(ask("GET", false, Some("bytes=10-19")), slice(&bytes, 10, 19));
        assert_eq!(ask("GET", true, Some("bytes=10-19")), slice(&bytes, 10, 19));
        assert_eq!(ask("GET", false, Some("bytes=1000-")), refused(1000));
        // HEAD ignores Range; the body is replaced by its length.
        let mut head = whole(&bytes);
        head.1.push(("Content-Length".into(), "1000".into()));
        head.2.clear();
        assert_eq!(ask("HEAD", false, None), head);
        assert_eq!(ask("HEAD", false, Some("bytes=0-9")), head);
        // With gzip accepted the whole-file answer is gzipped, and so is the length a HEAD says.
        let (status, mut h, gz) = ask("GET", true, None);
        assert_eq!(status, 200);
        h.push(("Content-Length".into(), gz.len().to_string()));
        assert_eq!(ask("HEAD", true, None), (200, h.clone(), Vec::new()));
        assert_eq!(ask("HEAD", true, Some("bytes=0-9")), (200, h, Vec::new()));
        // Paths outside `/demo` are the gateway's.
        let other = Request { method: "GET".into(), path: "/elastic/v1/".into(), ..Default::default() };
        assert!(p.answer(&other).is_none());
        std::fs::remove_dir_all(&p.dir).ok();
    }
}
