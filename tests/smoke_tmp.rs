use metagate::{Engine, load::LoadOptions};
#[test]
fn smoke() {
    let dir = std::env::temp_dir().join(format!("mg-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.redb");
    let _ = std::fs::remove_file(&path);
    let e = Engine::open_or_create(&path).unwrap();
    let nd = r#"{"index":{"_id":"1","_type":"rin"}}
{"item":{"name":"BLAST","description":"Basic local alignment search tool","keywords":[{"keyword":"Alignment"}]},"n":3}
{"index":{"_id":"2","_type":"rin"}}
{"item":{"name":"Clustal","description":"Multiple sequence alignment of proteins and alignment of DNA","keywords":[{"keyword":"alignment"}]},"n":5}
{"index":{"_id":"3","_type":"rin"}}
{"item":{"name":"Other","description":"Something else entirely"},"n":7}
"#;
    let opts = LoadOptions { alias: Some("RIN_Tool_pr".into()), family: Some(metagate::mapping::Family::Registry), ..Default::default() };
    let r = e.load("tools-v1", nd.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    assert_eq!(r.docs, 3);
    let res = e.search("RIN_Tool_pr", r#"{"query":{"match":{"item.description":"alignment"}}}"#).unwrap();
    println!("{}", serde_json::to_string_pretty(&res).unwrap());
    let res = e.search("RIN_Tool_pr", r#"{"query":{"bool":{"filter":{"term":{"item.keywords.keyword.aggregate":"ALIGNMENT"}}}},"sort":[{"n":"desc"}]}"#).unwrap();
    println!("{}", serde_json::to_string(&res).unwrap());
    let res = e.search("RIN_*", r#"{"query":{"range":{"n":{"gte":4}}},"_source":["item.name"]}"#).unwrap();
    println!("{}", serde_json::to_string(&res).unwrap());
}
