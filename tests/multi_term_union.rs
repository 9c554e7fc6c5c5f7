//! Prefix, wildcard and regexp queries expanded to many terms, mixing terms with long
//! postings and single-document ones: the union equals the documents counted here.

mod common;
use serde_json::json;

#[test]
fn expansions_union_long_and_short_postings() {
    let docs: Vec<(String, serde_json::Value)> = (0..600)
        .map(|i| {
            let code = if i % 2 == 0 { format!("ab{}", i % 3) } else { format!("abx{i}") };
            (format!("d{i}"), json!({"code": code, "other": format!("zz{i}")}))
        })
        .collect();
    let e = common::engine_with("union", "u", None, &docs, None);
    let total = |q: serde_json::Value| {
        common::search(&e, "u", &json!({"size": 0, "query": q}).to_string()).unwrap()["hits"]["total"].as_u64().unwrap()
    };
    let count =
        |pred: &dyn Fn(&str) -> bool| docs.iter().filter(|(_, v)| pred(v["code"].as_str().unwrap())).count() as u64;
    assert_eq!(total(json!({"prefix": {"code.keyword": "ab"}})), 600);
    assert_eq!(total(json!({"prefix": {"code.keyword": "abx1"}})), count(&|c| c.starts_with("abx1")));
    assert_eq!(total(json!({"wildcard": {"code.keyword": "ab?"}})), 300);
    assert_eq!(total(json!({"wildcard": {"code.keyword": "ab*5"}})), count(&|c| c.ends_with('5')));
    assert_eq!(
        total(json!({"regexp": {"code.keyword": "ab(1|x[0-9]*7)"}})),
        count(&|c| c == "ab1" || (c.starts_with("abx") && c.ends_with('7')))
    );
}
