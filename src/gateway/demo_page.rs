//! The public demo page at `/demo/`: the browser build's static files and the metagate
//! file the page searches.
//!
//! No API key is needed here: nothing under `/demo/` searches on the server. The page
//! downloads the file image (`/demo/demo.redb`) and searches it in the browser with the
//! WASM build, so the key that guards the search routes guards nothing here.
//!
//! The module and the file image are sent gzipped to browsers that accept it (the image
//! shrinks about 4x); each is compressed once and kept until the file changes.

use super::{no_handler, plain, Response, TEXT_CONTENT_TYPE};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// The URL path of the file image the page opens, under `/demo/`.
pub const DATA_NAME: &str = "demo.redb";

/// Compressed bodies by path, with the length and modification time they were made from.
type GzipCache = Arc<Mutex<HashMap<PathBuf, (u64, Option<SystemTime>, Arc<Vec<u8>>)>>>;

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

    /// The answer for `raw_path` (no query string) when it lies under `/demo`, else `None`.
    /// `gzip`: the client accepts a gzipped body.
    pub(super) fn answer(&self, raw_path: &str, uri: &str, method: &str, gzip: bool) -> Option<Response> {
        let rest = raw_path.strip_prefix("/demo")?;
        if !(rest.is_empty() || rest.starts_with('/')) {
            return None;
        }
        if !matches!(method, "GET" | "HEAD") {
            return Some(no_handler(uri, method));
        }
        if rest.is_empty() {
            // The page's relative URLs (app.js, pkg/...) resolve against `/demo/`.
            let mut r = plain(301, TEXT_CONTENT_TYPE, b"moved to /demo/".to_vec());
            r.headers.push(("Location".into(), "/demo/".into()));
            return Some(r);
        }
        let rel = super::params::percent_decode(rest.trim_start_matches('/'), false);
        if rel == DATA_NAME {
            return Some(match &self.data {
                Some(p) if gzip => self.gzipped_file(p, "application/octet-stream"),
                Some(p) => file(p, "application/octet-stream"),
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
        let r = p.answer("/demo/", "/demo/", "GET", false).map(|r| (r.status, r.body));
        assert_eq!(r, Some((200, b"<p>hi</p>".to_vec())));
        assert_eq!(p.answer("/demo", "/demo", "GET", false).map(|r| r.status), Some(301));
        assert_eq!(p.answer("/demo/../Cargo.toml", "", "GET", false).map(|r| r.status), Some(404));
        assert_eq!(p.answer("/demo/%2e%2e/x", "", "GET", false).map(|r| r.status), Some(404));
        assert_eq!(p.answer("/demo/.hidden", "", "GET", false).map(|r| r.status), Some(404));
        assert_eq!(p.answer("/demo/demo.redb", "", "GET", false).map(|r| r.status), Some(404));
        assert_eq!(p.answer("/demo/", "/demo/", "POST", false).map(|r| r.status), Some(400));
        assert!(p.answer("/demonstration", "", "GET", false).is_none());
        assert!(p.answer("/elastic/v1/_search", "", "GET", false).is_none());
        std::fs::remove_dir_all(&p.dir).ok();
    }

    #[test]
    fn gzips_the_file_image_for_clients_that_accept_it() {
        let mut p = page("gzip");
        let data = p.dir.join("image.redb");
        let bytes: Vec<u8> = (0..100_000u32).flat_map(|i| (i % 7).to_le_bytes()).collect();
        std::fs::write(&data, &bytes).ok();
        p.data = Some(data);
        let plain = p.answer("/demo/demo.redb", "", "GET", false).map(|r| r.body);
        assert_eq!(plain.as_deref(), Some(bytes.as_slice()));
        // Twice: the second answer comes from the cache.
        for _ in 0..2 {
            let r = p.answer("/demo/demo.redb", "", "GET", true).unwrap_or_default();
            assert!(r.headers.iter().any(|(k, v)| k == "Content-Encoding" && v == "gzip"));
            assert!(r.body.len() < bytes.len() / 4);
            let mut out = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(r.body.as_slice()), &mut out).ok();
            assert_eq!(out, bytes);
        }
        std::fs::remove_dir_all(&p.dir).ok();
    }
}
