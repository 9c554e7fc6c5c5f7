//! The public demo page at `/demo/`: the browser build's static files and the metagate
//! file the page searches.
//!
//! No API key is needed here: nothing under `/demo/` searches on the server. The page
//! downloads the file image (`/demo/demo.redb`) and searches it in the browser with the
//! WASM build, so the key that guards the search routes guards nothing here.

use super::{no_handler, plain, Response, TEXT_CONTENT_TYPE};
use std::path::{Path, PathBuf};

/// The URL path of the file image the page opens, under `/demo/`.
pub const DATA_NAME: &str = "demo.redb";

/// What `/demo/` serves.
#[derive(Debug, Clone)]
pub struct DemoPage {
    /// Directory of the page (`wasm/www`: `index.html`, scripts, `pkg/` with the module).
    pub dir: PathBuf,
    /// The metagate file served as `/demo/demo.redb`, if any.
    pub data: Option<PathBuf>,
}

impl DemoPage {
    /// The answer for `raw_path` (no query string) when it lies under `/demo`, else `None`.
    pub(super) fn answer(&self, raw_path: &str, uri: &str, method: &str) -> Option<Response> {
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
        Some(file(&path, content_type(&path)))
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

    fn page() -> DemoPage {
        let dir = std::env::temp_dir().join(format!("metagate-demo-page-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok();
        std::fs::write(dir.join("index.html"), "<p>hi</p>").ok();
        DemoPage { dir, data: None }
    }

    #[test]
    fn serves_index_redirects_and_refuses_escapes() {
        let p = page();
        let r = p.answer("/demo/", "/demo/", "GET").map(|r| (r.status, r.body));
        assert_eq!(r, Some((200, b"<p>hi</p>".to_vec())));
        assert_eq!(p.answer("/demo", "/demo", "GET").map(|r| r.status), Some(301));
        assert_eq!(p.answer("/demo/../Cargo.toml", "", "GET").map(|r| r.status), Some(404));
        assert_eq!(p.answer("/demo/%2e%2e/x", "", "GET").map(|r| r.status), Some(404));
        assert_eq!(p.answer("/demo/.hidden", "", "GET").map(|r| r.status), Some(404));
        assert_eq!(p.answer("/demo/demo.redb", "", "GET").map(|r| r.status), Some(404));
        assert_eq!(p.answer("/demo/", "/demo/", "POST").map(|r| r.status), Some(400));
        assert!(p.answer("/demonstration", "", "GET").is_none());
        assert!(p.answer("/elastic/v1/_search", "", "GET").is_none());
        std::fs::remove_dir_all(&p.dir).ok();
    }
}
