//! Fuzzing harnesses: one function per fuzz target in `fuzz/` and per replayed input in
//! `tests/fuzz_regressions.rs`, so a crash found by the fuzzer is replayed through exactly
//! the code that found it. Each takes arbitrary bytes and returns normally for every
//! input; a panic, a hang or unbounded memory is a finding.
//!
//! Built only with the `fuzzing` feature: the default library does not carry it.

use crate::gateway::{keys, Gateway, GatewayConfig, Request};
use crate::store::Catalog;
use crate::{Engine, Family, LoadOptions};
use serde_json::json;
use std::sync::OnceLock;

/// The searched indices: `reg` (registry template, alias `tools`) and `dyn` (dynamic
/// mapping).
const INDICES: [&str; 4] = ["reg", "dyn", "tools", "reg,dyn"];

/// Registry-shaped records, with the field paths real clients query.
fn registry_records() -> String {
    let kinds = ["software", "database", "antibody", "cell line", "organism"];
    let words = ["alignment", "sequence", "image", "analysis", "brain", "mouse", "neuron", "protein", "DOI:10.1/x"];
    let mut out = String::new();
    for i in 0..40u32 {
        let w = |k: u32| words[((i * 7 + k * 3) % words.len() as u32) as usize];
        let action = json!({"index": {"_id": format!("rrid:scr_{i:06}"), "_type": "rin"}});
        let doc = json!({
            "item": {
                "name": format!("{} {} tool {i}", w(0), w(1)),
                "identifier": format!("SCR_{i:06}"),
                "description": format!("A {} resource for {} {} and {}", kinds[(i % 5) as usize], w(2), w(3), w(4)),
                "types": [{"name": kinds[(i % 5) as usize]}],
                "keywords": [{"keyword": w(5)}, {"keyword": w(6)}],
                "synonyms": [{"name": format!("syn{}", i % 4)}],
            },
            "rrid": {"curie": format!("RRID:SCR_{i:06}")},
            "mentions": [{"totalMentions": {"count": i * 13 % 97}, "availability": {"keyword": if i % 2 == 0 { "available" } else { "gone" }}}],
            "provenance": {"creationDate": format!("2019{:02}{:02}T101500+0000", 1 + i % 12, 1 + i % 28)},
            "recordValid": i % 3 != 0,
        });
        out.push_str(&format!("{action}\n{doc}\n"));
    }
    out
}

/// Records under ES's default dynamic mapping: text with `.keyword`, numbers, dates,
/// booleans, arrays and objects.
fn dynamic_records() -> String {
    let mut out = String::new();
    for i in 0..30i64 {
        let doc = json!({
            "t": format!("alpha beta{} gamma{} delta epsilon", i % 7, i % 3),
            "k": format!("K{}", i % 5),
            "n": i - 10,
            "f": i as f64 / 3.0,
            "d": format!("2020-{:02}-{:02}", 1 + i % 12, 1 + i % 28),
            "b": i % 2 == 0,
            "tags": ["x", format!("y{}", i % 4)],
            "o": {"a": {"b": format!("deep {i}")}},
        });
        out.push_str(&format!("{}\n{doc}\n", json!({"index": {"_id": i.to_string()}})));
    }
    out
}

/// A temporary file path for building images (tmpfs when the machine has one).
fn temp_path(tag: &str) -> std::path::PathBuf {
    let dir = if std::path::Path::new("/dev/shm").is_dir() { "/dev/shm".into() } else { std::env::temp_dir() };
    let n = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    dir.join(format!("metagate-fuzz-{tag}-{}-{n}.redb", std::process::id()))
}

/// The clean image every search harness reads, and the API key it holds.
fn clean_image() -> &'static (Vec<u8>, String) {
    static IMAGE: OnceLock<(Vec<u8>, String)> = OnceLock::new();
    IMAGE.get_or_init(|| {
        let path = temp_path("image");
        let engine = Engine::open_or_create(&path).expect("create the fuzzing image");
        let opts = LoadOptions { alias: Some("tools".into()), family: Some(Family::Registry), ..Default::default() };
        engine.load("reg", registry_records().as_bytes(), &opts, &mut |_, _| {}).expect("load reg");
        engine.load("dyn", dynamic_records().as_bytes(), &Default::default(), &mut |_, _| {}).expect("load dyn");
        let key = keys::add(&engine, "fuzzer").expect("add a key");
        drop(engine);
        let bytes = std::fs::read(&path).expect("read the fuzzing image");
        std::fs::remove_file(&path).ok();
        (bytes, key)
    })
}

/// The engine over the clean image (read-only, in memory: no input changes it).
fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| Engine::from_bytes(clean_image().0.clone()).expect("open the fuzzing image"))
}

/// Which index a harness searches, from one input byte.
fn index_of(b: u8) -> &'static str {
    INDICES[b as usize % INDICES.len()]
}

/// The search body as DSL text: parsed and executed on the small index (the first byte
/// picks the index).
pub fn dsl(data: &[u8]) {
    let Some((&which, body)) = data.split_first() else { return };
    let Ok(body) = std::str::from_utf8(body) else { return };
    let _ = search(engine(), index_of(which), body);
}

/// A Painless script: the first byte picks where it runs (alone, as a script field, a
/// `script` query, a `terms` script or a `_script` sort on the small index), the rest is
/// its source.
pub fn script(data: &[u8]) {
    let Some((&which, source)) = data.split_first() else { return };
    let Ok(source) = std::str::from_utf8(source) else { return };
    let script = serde_json::json!({"source": source, "params": {"x": 2, "s": "a"}});
    let body = match which % 5 {
        0 => {
            let _ = crate::script::eval_to_string(source);
            return;
        }
        1 => serde_json::json!({"script_fields": {"f": {"script": script}}}),
        2 => serde_json::json!({"query": {"script": {"script": script}}}),
        3 => serde_json::json!({"size": 0, "aggs": {"t": {"terms": {"script": script}}}}),
        _ => serde_json::json!({"sort": {"_script": {"type": "string", "script": script}}}),
    };
    let _ = search(engine(), index_of(which / 5), &body.to_string());
}

/// Lucene syntax: the first byte picks the parser (even `query_string`, odd
/// `simple_query_string`) and its options, the rest is the query text, executed on the
/// small index.
pub fn query_syntax(data: &[u8]) {
    let Some((&which, text)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(text);
    let operator = if which & 2 == 0 { "or" } else { "and" };
    let query = if which & 1 == 0 {
        let mut q = json!({"query": text, "default_operator": operator});
        if which & 4 != 0 {
            q["fields"] = json!(["item.name^2", "item.description", "*identifier", "t", "k"]);
        }
        if which & 8 != 0 {
            q["lenient"] = json!("true");
        }
        if which & 16 != 0 {
            q["analyze_wildcard"] = json!(true);
        }
        json!({"query_string": q})
    } else {
        let mut q = json!({"query": text, "default_operator": operator});
        if which & 4 != 0 {
            q["fields"] = json!(["item.name^3", "item.description", "t", "k.keyword"]);
        }
        if which & 8 != 0 {
            q["flags"] = json!("OR|AND|PREFIX|PHRASE|FUZZY|NEAR");
        }
        json!({"simple_query_string": q})
    };
    let index = index_of(which >> 5);
    let _ = search(engine(), index, &json!({"query": query, "highlight": {"fields": {"*": {}}}}).to_string());
    // The URI form (`?q=`) reads the same syntax through the URL parameters.
    let params = vec![("q".to_string(), text.into_owned()), ("default_operator".to_string(), operator.to_string())];
    let _ = search_with(engine(), index, "", &params);
}

/// An HTTP request in text form: a method line, a path line (with its query string), header
/// lines `Name: value` up to an empty line, and the body. `$KEY` in the path or a header
/// value stands for the image's API key. Answered by [`Gateway::handle`]; an answer that is
/// the gateway's own panic guard (a 500 `exception`) is a finding.
pub fn gateway(data: &[u8]) {
    let (head, body) = match data.windows(2).position(|w| w == b"\n\n") {
        Some(at) => (&data[..at], &data[at + 2..]),
        None => (data, &[][..]),
    };
    let head = String::from_utf8_lossy(head);
    let key = &clean_image().1;
    let mut lines = head.split('\n');
    let method = lines.next().unwrap_or_default().to_string();
    let path = lines.next().unwrap_or_default().replace("$KEY", key);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().replace("$KEY", key)))
        .collect();
    let req = Request { method, path, headers, body: body.to_vec() };
    static GATEWAY: OnceLock<Gateway> = OnceLock::new();
    let gateway = GATEWAY.get_or_init(|| {
        let engine = Engine::from_bytes(clean_image().0.clone()).expect("open the fuzzing image");
        // No rate limit: answers must not depend on how fast the fuzzer runs.
        Gateway::new(
            std::sync::Arc::new(engine),
            GatewayConfig { rate_limit: 0.0, max_body: 1 << 20, record_key_use: false, ..Default::default() },
        )
    });
    let resp = gateway.handle(&req);
    let guarded = resp.status == 500
        && String::from_utf8_lossy(&resp.body).contains("internal error while answering the request");
    assert!(!guarded, "the gateway's panic guard answered {} {:?}", req.method, req.path);
}

/// NDJSON loading: the first byte picks the options (template family, `_id` field), the
/// rest is the input, loaded into a scratch file; a successful load is then searched.
pub fn ndjson(data: &[u8]) {
    let Some((&which, input)) = data.split_first() else { return };
    static FILE: OnceLock<(std::path::PathBuf, Engine)> = OnceLock::new();
    let (_, engine) = FILE.get_or_init(|| {
        let path = temp_path("load");
        let engine = Engine::open_or_create(&path).expect("create the load file");
        (path, engine)
    });
    let family = [None, Some(Family::Registry), Some(Family::Lexicon), Some(Family::Dataset)][which as usize % 4];
    let opts = LoadOptions {
        family,
        id_field: (which & 4 != 0).then(|| "id".to_string()),
        max_errors: if which & 8 != 0 { 0 } else { 1000 },
        replace: true,
        ..Default::default()
    };
    if engine.load("scratch", input, &opts, &mut |_, _| {}).is_ok() {
        let _ = search(
            engine,
            "scratch",
            r#"{"query":{"query_string":{"query":"a* OR b"}},"aggs":{"f":{"terms":{"field":"_type"}}}}"#,
        );
    }
}

/// Scroll ids: the first byte picks the form. 0: the rest is the id text as a client
/// sends it; 1: the rest is the id's JSON, signed with the image's secret (reaching the
/// parser behind the signature); 2: the same, deflated. The scroll is then continued.
pub fn scroll_id(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else { return };
    let engine = engine();
    let id = match which % 3 {
        0 => String::from_utf8_lossy(rest).into_owned(),
        form => {
            let Ok(snap) = engine.snapshot() else { return };
            let Ok(Some(secret)) = snap.get(Catalog::Meta, "scroll_secret") else { return };
            crate::scroll::id::ScrollId::sign_payload(rest, form == 2, &secret)
        }
    };
    let keep_alive = ["1m", "1d", "0s", "2d", "-1"][usize::from(which >> 2) % 5];
    let _ = scroll_next(engine, &id, Some(keep_alive));
    let _ = scroll_next(engine, &id, None);
}

/// Aggregations: the input is the `aggs` object of a search on the small index.
pub fn aggs(data: &[u8]) {
    let Some((&which, text)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let body = if which & 1 == 0 {
        format!(r#"{{"size":0,"aggs":{text}}}"#)
    } else {
        format!(r#"{{"size":3,"query":{{"query_string":{{"query":"a* OR alpha"}}}},"aggregations":{text}}}"#)
    };
    let _ = search(engine(), index_of(which >> 1), &body);
}

/// Queries that together reach every reader of an image: term dictionaries, postings,
/// norms, doc values, stored sources and the scroll bookkeeping.
const IMAGE_QUERIES: [&str; 6] = [
    "",
    r#"{"query":{"match":{"t":"beta3 gamma"}},"highlight":{"fields":{"t":{}}}}"#,
    r#"{"query":{"match_phrase":{"item.description":"resource for"}},"sort":[{"n":"desc"}]}"#,
    r#"{"query":{"prefix":{"k.keyword":"K1"}},"aggs":{"k":{"terms":{"field":"k.keyword"}},"n":{"stats":{"field":"n"}}}}"#,
    r#"{"query":{"range":{"d":{"gte":"2020-01-05"}}},"aggs":{"d":{"date_histogram":{"field":"d","interval":"month"}}}}"#,
    r#"{"query":{"query_string":{"query":"item.name:align* OR k:k2 OR t:gam*"}},"size":50}"#,
];

/// A damaged file image: the input is a list of patches over the clean image, each 4 bytes
/// of offset (little-endian, modulo the image length), 1 byte of length and that many
/// bytes XORed in; a patch with length 0 truncates the image at its offset. The damaged
/// image is opened and searched.
pub fn image(data: &[u8]) {
    let mut bytes = clean_image().0.clone();
    let mut rest = data;
    while rest.len() >= 5 && !bytes.is_empty() {
        let at = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize % bytes.len();
        let len = rest[4] as usize;
        rest = &rest[5..];
        if len == 0 {
            bytes.truncate(at);
            continue;
        }
        let patch = &rest[..len.min(rest.len())];
        for (i, b) in patch.iter().enumerate() {
            if let Some(x) = bytes.get_mut(at + i) {
                *x ^= b;
            }
        }
        rest = &rest[patch.len()..];
    }
    let Ok(engine) = Engine::from_bytes(bytes) else { return };
    for index in ["reg", "dyn"] {
        for q in IMAGE_QUERIES {
            let _ = search(&engine, index, q);
        }
    }
    if let Ok(first) = scroll_start(&engine, "dyn", r#"{"size":7}"#, &[], "1m") {
        if let Some(id) = first["_scroll_id"].as_str() {
            for _ in 0..5 {
                let _ = scroll_next(&engine, id, Some("1m"));
            }
        }
    }
    if let Ok(req) = crate::request::mapping::MappingRequest::parse(None, None, &[]) {
        let _ = engine.get_mapping(&req);
    }
}

/// A search given as text, through the engine's typed API (the harnesses feed text).
fn search(e: &Engine, index: &str, body: &str) -> crate::Result<serde_json::Value> {
    search_with(e, index, body, &[])
}

/// [`search`] with URI parameters.
fn search_with(e: &Engine, index: &str, body: &str, params: &[(String, String)]) -> crate::Result<serde_json::Value> {
    let req = crate::request::SearchRequest::parse(body, params, &[])?;
    e.search_request(index, &req, crate::engine::indices_options(params)?)?.to_value()
}

/// A scroll started from text, without owner.
fn scroll_start(
    e: &Engine,
    index: &str,
    body: &str,
    params: &[(String, String)],
    keep_alive: &str,
) -> crate::Result<serde_json::Value> {
    let req = crate::request::scroll::ScrollStartRequest::parse(index, &[], body, params, keep_alive)?;
    e.start_scroll(req, None)?.to_value()
}

/// A scroll's next page, without owner.
fn scroll_next(e: &Engine, scroll_id: &str, keep_alive: Option<&str>) -> crate::Result<serde_json::Value> {
    e.next_scroll_page(&crate::request::scroll::ScrollNextRequest::new(scroll_id, keep_alive)?, None)?.to_value()
}
