//! A damaged file image (a broken download, the wrong file picked in the browser) answers
//! with errors, never with a panic: in the browser a panic aborts the whole module.
//!
//! Images are opened without reading every page first (an image fetched on demand would
//! otherwise be downloaded whole), so every reader — redb's pages, the term dictionaries,
//! postings, doc values and stored sources — must survive bytes it did not write.

mod common;
use metagate::Engine;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

const QUERIES: [&str; 6] = [
    "",
    r#"{"query":{"match":{"t":"beta3 gamma"}},"highlight":{"fields":{"t":{}}}}"#,
    r#"{"query":{"match_phrase":{"t":"alpha beta1"}},"sort":[{"n":"desc"}]}"#,
    r#"{"query":{"prefix":{"k.keyword":"k1"}},"aggs":{"k":{"terms":{"field":"k.keyword"}},"n":{"stats":{"field":"n"}}}}"#,
    r#"{"query":{"range":{"d":{"gte":"2020-01-05"}}},"aggs":{"d":{"date_histogram":{"field":"d","interval":"month"}}}}"#,
    r#"{"query":{"query_string":{"query":"t:gam* OR k:k2"}},"size":50}"#,
];

fn image() -> Vec<u8> {
    let path = common::temp_file("damage");
    let docs: Vec<(String, serde_json::Value)> = (0..400)
        .map(|i| {
            let src = json!({
                "t": format!("alpha beta{} gamma{} delta", i % 7, i % 3),
                "k": format!("k{}", i % 13),
                "n": i,
                "d": format!("2020-01-{:02}", 1 + i % 28),
            });
            (i.to_string(), src)
        })
        .collect();
    let e = Engine::open_or_create(&path).unwrap();
    e.load("x", common::bulk(&docs).as_bytes(), &Default::default(), &mut |_, _| {}).unwrap();
    drop(e);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).ok();
    bytes
}

/// Opens the damaged image and runs every query; errors are fine, panics are not.
/// Returns whether the image opened (damage in unused bytes passes the checksums).
fn exercise(bytes: Vec<u8>) -> bool {
    let Ok(engine) = Engine::from_bytes(bytes) else { return false };
    for q in QUERIES {
        let _ = common::search(&engine, "x", q);
    }
    if let Ok(first) = common::scroll_start(&engine, "x", r#"{"size":100}"#, &[], "1m") {
        if let Some(id) = first["_scroll_id"].as_str() {
            for _ in 0..5 {
                let _ = common::scroll_next(&engine, id, Some("1m"));
            }
        }
    }
    true
}

#[test]
fn damaged_images_answer_errors_not_panics() {
    let clean = image();
    // The undamaged image answers: the queries above do reach every reader.
    let engine = Engine::from_bytes(clean.clone()).unwrap();
    for q in QUERIES {
        common::search(&engine, "x", q).unwrap();
    }
    let mut rng = StdRng::seed_from_u64(7);
    let mut panics = Vec::new();
    let mut opened = 0;
    for round in 0..300 {
        let mut bytes = clean.clone();
        // A few scattered byte flips, or a run of garbage, or a truncation.
        match round % 3 {
            0 => {
                for _ in 0..rng.gen_range(1..8) {
                    let at = rng.gen_range(0..bytes.len());
                    bytes[at] ^= 1 << rng.gen_range(0..8);
                }
            }
            1 => {
                let len = rng.gen_range(1..512).min(bytes.len());
                let at = rng.gen_range(0..bytes.len() - len);
                rng.fill(&mut bytes[at..at + len]);
            }
            _ => {
                let keep = rng.gen_range(0..bytes.len());
                bytes.truncate(keep);
            }
        }
        match std::panic::catch_unwind(|| exercise(bytes)) {
            Ok(true) => opened += 1,
            Ok(false) => {}
            Err(_) => panics.push(round),
        }
    }
    assert!(panics.is_empty(), "damaged images panicked in rounds {panics:?}");
    // Both ways were taken: refused on opening, and opened then searched.
    assert!(opened > 0 && opened < 300, "{opened} of 300 damaged images opened");
}
