//! A file image opened from memory answers exactly as the file does (the WASM door).

mod common;
use metagate::Engine;
use serde_json::json;

#[test]
fn image_in_memory_answers_like_the_file() {
    let path = common::temp_file("image");
    let docs = [("1", json!({"t": "alpha beta"})), ("2", json!({"t": "beta gamma"}))];
    {
        let e = Engine::open_or_create(&path).unwrap();
        e.load("x", common::bulk(&docs).as_bytes(), &Default::default(), &mut |_, _| {}).unwrap();
    }
    let body = r#"{"query":{"match":{"t":"beta"}}}"#;
    let from_file = Engine::open(&path).unwrap().search("x", body).unwrap();
    let from_bytes = Engine::from_bytes(std::fs::read(&path).unwrap()).unwrap().search("x", body).unwrap();
    let strip = |mut v: serde_json::Value| {
        v["took"] = json!(0);
        v
    };
    assert_eq!(strip(from_file), strip(from_bytes));
    assert!(Engine::from_bytes(b"not a database".to_vec()).is_err());
}
