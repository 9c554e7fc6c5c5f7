//! A file image opened read-only — from memory, or read on demand through a source (the
//! WASM door's two ways) — answers exactly as the file does, keeps its own scroll
//! bookkeeping, and refuses changes with the ES error for a read-only block.

mod common;
use common::without_took as strip;
use metagate::{AliasAction, Engine};
use metagate::{ChunkPolicy, ImageSource};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

fn file_with_docs(tag: &str, n: usize) -> PathBuf {
    let path = common::temp_file(tag);
    let docs: Vec<(String, Value)> =
        (0..n).map(|i| (i.to_string(), json!({"t": format!("alpha beta{} gamma{}", i % 7, i % 3), "n": i}))).collect();
    let e = Engine::open_or_create(&path).unwrap();
    let opts = metagate::LoadOptions { alias: Some("xs".into()), ..Default::default() };
    e.load("x", common::bulk(&docs).as_bytes(), &opts, &mut |_, _| {}).unwrap();
    path
}

/// A file read through `ImageSource`, counting requests and bytes.
struct FileSource {
    bytes: Vec<u8>,
    requests: Arc<AtomicU64>,
    fetched: Arc<AtomicU64>,
}

impl ImageSource for FileSource {
    fn len(&self) -> std::io::Result<u64> {
        Ok(self.bytes.len() as u64)
    }
    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        self.requests.fetch_add(1, Ordering::Relaxed);
        self.fetched.fetch_add(out.len() as u64, Ordering::Relaxed);
        out.copy_from_slice(&self.bytes[offset as usize..offset as usize + out.len()]);
        Ok(())
    }
}

const QUERIES: [&str; 4] = [
    r#"{"query":{"match":{"t":"beta3"}}}"#,
    r#"{"query":{"match_phrase":{"t":"alpha beta1"}},"sort":[{"n":"desc"}],"size":3}"#,
    r#"{"size":0,"aggs":{"n":{"histogram":{"field":"n","interval":50}}}}"#,
    r#"{"query":{"range":{"n":{"gte":10,"lt":20}}},"highlight":{"fields":{"t":{}}}}"#,
];

#[test]
fn image_in_memory_answers_like_the_file() {
    let path = file_with_docs("image", 300);
    let file = Engine::open(&path).unwrap();
    let image = Engine::from_bytes(std::fs::read(&path).unwrap()).unwrap();
    for q in QUERIES {
        assert_eq!(
            strip(common::search(&file, "xs", q).unwrap()),
            strip(common::search(&image, "xs", q).unwrap()),
            "{q}"
        );
    }
    assert_eq!(file.aliases().unwrap(), image.aliases().unwrap());
    let err = Engine::from_bytes(b"not a database".to_vec()).err().expect("garbage is refused");
    assert_eq!(err.status, 500);
    assert!(err.reason().starts_with("cannot open metagate image"), "{}", err.reason());
}

#[test]
fn image_read_on_demand_answers_like_the_file_and_fetches_only_what_it_reads() {
    let path = file_with_docs("image-source", 3000);
    let bytes = std::fs::read(&path).unwrap();
    let total = bytes.len() as u64;
    let requests = Arc::new(AtomicU64::new(0));
    let fetched = Arc::new(AtomicU64::new(0));
    let source = FileSource { bytes, requests: requests.clone(), fetched: fetched.clone() };
    let policy = ChunkPolicy { chunk_bytes: 4096, cache_bytes: 1 << 20 };
    let lazy = Engine::from_source(source, policy).unwrap();
    let file = Engine::open(&path).unwrap();
    let first = strip(common::search(&lazy, "xs", QUERIES[0]).unwrap());
    assert_eq!(first, strip(common::search(&file, "xs", QUERIES[0]).unwrap()));
    let after_first = fetched.load(Ordering::Relaxed);
    assert!(after_first < total / 2, "one query fetched {after_first} of {total} bytes");
    for q in QUERIES {
        assert_eq!(
            strip(common::search(&lazy, "xs", q).unwrap()),
            strip(common::search(&file, "xs", q).unwrap()),
            "{q}"
        );
    }
    // Asked again, the first query is answered from the cached chunks.
    let (n, b) = (requests.load(Ordering::Relaxed), fetched.load(Ordering::Relaxed));
    common::search(&lazy, "xs", QUERIES[0]).unwrap();
    assert_eq!((requests.load(Ordering::Relaxed), fetched.load(Ordering::Relaxed)), (n, b));
}

#[test]
fn scrolls_on_an_image_page_and_clear_in_memory() {
    let path = file_with_docs("image-scroll", 25);
    let image = Engine::from_bytes(std::fs::read(&path).unwrap()).unwrap();
    let body = r#"{"size":10,"sort":["n"]}"#;
    let first = common::scroll_start(&image, "x", body, &[], "1m").unwrap();
    let id = first["_scroll_id"].as_str().unwrap().to_string();
    let second = common::scroll_next(&image, &id, Some("1m")).unwrap();
    assert_eq!(second["hits"]["hits"][0]["_id"], json!("10"));
    assert_eq!(image.clear_scroll(std::slice::from_ref(&id), None).unwrap(), 1);
    assert_eq!(image.clear_scroll(std::slice::from_ref(&id), None).unwrap(), 0);
    let gone = common::scroll_next(&image, &id, Some("1m")).unwrap_err();
    assert_eq!(gone.status, 404);
    // `_all` clears every scroll of this image; the file itself is not touched.
    let other = common::scroll_start(&image, "x", body, &[], "1m").unwrap();
    let other_id = other["_scroll_id"].as_str().unwrap().to_string();
    assert_eq!(image.clear_scroll(&["_all".to_string()], None).unwrap(), 1);
    assert_eq!(common::scroll_next(&image, &other_id, None).unwrap_err().status, 404);
}

#[test]
fn changes_to_an_image_answer_the_read_only_block() {
    let path = file_with_docs("image-ro", 5);
    let image = Engine::from_bytes(std::fs::read(&path).unwrap()).unwrap();
    let expect_block = |e: metagate::Error| {
        assert_eq!(e.status, 403);
        assert_eq!(e.to_json()["error"]["type"], json!("cluster_block_exception"), "{}", e.to_json());
        assert_eq!(
            e.reason(),
            "blocked by: [FORBIDDEN/5/this metagate file is open read-only (an image from bytes or HTTP ranges)];"
        );
    };
    expect_block(image.update_aliases(&[AliasAction::Add { alias: "y".into(), index: "x".into() }]).unwrap_err());
    expect_block(image.delete_index("x").unwrap_err());
    let docs = common::bulk(&[("9", json!({"t": "new"}))]);
    expect_block(image.load("z", docs.as_bytes(), &Default::default(), &mut |_, _| {}).unwrap_err());
    // Nothing changed.
    assert_eq!(common::search(&image, "x", "").unwrap()["hits"]["total"], json!(5));
    assert_eq!(image.aliases().unwrap(), vec![("xs".to_string(), "x".to_string())]);
}
