//! Keyword sorts against an order computed here from the documents: multi-valued fields
//! (min/max modes), missing values first or last, ascending and descending, many ties,
//! windows smaller and larger than the match set, and through `from`.

mod common;
use serde_json::{json, Value};

const TAGS: [&str; 7] = ["delta", "Alpha", "alpha", "bravo", "charlie", "echo", "zulu"];

fn docs() -> Vec<(String, Value)> {
    let mut x: u64 = 12345;
    let mut next = move |n: u64| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (x >> 33) % n
    };
    (0..300)
        .map(|i| {
            let tags: Vec<&str> = (0..next(4)).map(|_| TAGS[next(TAGS.len() as u64) as usize]).collect();
            (format!("d{i:03}"), if tags.is_empty() { json!({"n": i}) } else { json!({"tag": tags, "n": i}) })
        })
        .collect()
}

#[test]
fn keyword_sorts_match_a_reference_order() {
    let docs = docs();
    let e = common::engine_with("sortkw", "s", None, &docs, None);
    for order in ["asc", "desc"] {
        for mode in ["min", "max"] {
            for missing in ["_first", "_last"] {
                // The reference: each document's key, missing placed, ties by _id.
                let mut expected: Vec<(Option<String>, &str)> = docs
                    .iter()
                    .map(|(id, v)| {
                        let mut tags: Vec<String> = v["tag"]
                            .as_array()
                            .map(|a| a.iter().map(|t| t.as_str().unwrap().to_string()).collect())
                            .unwrap_or_default();
                        tags.sort();
                        let key = if mode == "min" { tags.first().cloned() } else { tags.last().cloned() };
                        (key, id.as_str())
                    })
                    .collect();
                expected.sort_by(|a, b| {
                    let c = match (&a.0, &b.0) {
                        (None, None) => std::cmp::Ordering::Equal,
                        (None, Some(_)) => {
                            if missing == "_first" {
                                std::cmp::Ordering::Less
                            } else {
                                std::cmp::Ordering::Greater
                            }
                        }
                        (Some(_), None) => {
                            if missing == "_first" {
                                std::cmp::Ordering::Greater
                            } else {
                                std::cmp::Ordering::Less
                            }
                        }
                        (Some(x), Some(y)) => {
                            if order == "asc" {
                                x.cmp(y)
                            } else {
                                y.cmp(x)
                            }
                        }
                    };
                    c.then(a.1.cmp(b.1))
                });
                let expected: Vec<&str> = expected.iter().map(|(_, id)| *id).collect();
                for (from, size) in [(0, 1), (0, 5), (0, 50), (7, 13), (0, 400), (290, 20)] {
                    let body = json!({"from": from, "size": size, "_source": false, "sort": [
                        {"tag.keyword": {"order": order, "mode": mode, "missing": missing}}, {"_id": "asc"}]});
                    let res = common::search(&e, "s", &body.to_string()).unwrap();
                    let got: Vec<&str> =
                        res["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap()).collect();
                    let want: Vec<&str> = expected.iter().skip(from).take(size).copied().collect();
                    assert_eq!(got, want, "order {order} mode {mode} missing {missing} from {from} size {size}");
                }
            }
        }
    }
}
