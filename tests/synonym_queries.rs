//! Query-time synonyms: terms an analyzer stacks at one position become Lucene's
//! SynonymQuery (one pseudo-term: the largest document frequency, the summed
//! frequencies), scored and explained as Lucene scores and explains it, through `match`,
//! `multi_match`, `query_string` and `simple_query_string`. Scores are checked against
//! Lucene itself (tests/lucene/LuceneScores.java, `synonyms` mode).

mod common;

use base64::Engine as _;
use common::lucene_analysis::JARS;
use metagate::{Engine, LoadOptions};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

const RULES: &[&str] = &["quick, fast, speedy", "dog, hound, canine", "car, automobile, auto", "red => crimson, red"];
const WORDS: &[&str] = &[
    "quick",
    "fast",
    "speedy",
    "Dog",
    "hound",
    "canine",
    "car",
    "automobile",
    "auto",
    "red",
    "crimson",
    "the",
    "lazy",
    "fox",
    "jumps",
    "over",
    "blue",
    "road",
    "park",
    "dog",
];

/// Deterministic documents of 1 to 12 words.
fn documents() -> Vec<(String, String)> {
    documents_of(WORDS)
}

/// Deterministic documents of 1 to 12 of `words`.
fn documents_of(words: &[&str]) -> Vec<(String, String)> {
    let mut state: u64 = 42;
    let mut next = move || {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    (0..400)
        .map(|i| {
            let n = 1 + next() % 12;
            (format!("d{i}"), (0..n).map(|_| words[next() % words.len()]).collect::<Vec<_>>().join(" "))
        })
        .collect()
}

fn queries() -> Vec<String> {
    let mut q: Vec<String> = WORDS.iter().map(|w| w.to_string()).collect();
    q.extend(
        [
            "fast dog",
            "speedy hound car",
            "red",
            "crimson road",
            "lazy automobile",
            "the fox",
            "quick quick",
            "auto park blue",
        ]
        .map(String::from),
    );
    q
}

fn engine() -> Engine {
    let e = Engine::open_or_create(&common::temp_file("synonym-queries")).unwrap();
    let body = json!({
        "settings": {"analysis": {
            "filter": {"syn": {"type": "synonym", "synonyms": RULES}},
            "analyzer": {"syn_text": {"tokenizer": "standard", "filter": ["lowercase", "syn"]}}}},
        "mappings": {"_doc": {"properties": {"d": {"type": "text", "analyzer": "syn_text"}, "e": {"type": "text"}}}}
    });
    let mut bulk = String::new();
    for (id, text) in documents() {
        bulk.push_str(&format!("{}\n", json!({"id": id, "d": text, "e": text})));
    }
    let opts = LoadOptions { create_body: Some(body), id_field: Some("id".into()), ..Default::default() };
    e.load("syn", bulk.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    e
}

/// Lucene's total and top 10 (id, score bits) per query.
fn lucene(queries: &[String]) -> Vec<(u64, Vec<(String, u32)>)> {
    lucene_of("synonyms", RULES, &documents(), queries)
}

/// Lucene's answers in `mode` (`synonyms`, `graph`, `common`) with `rules` over `docs`.
fn lucene_of(
    mode: &str,
    rules: &[&str],
    docs: &[(String, String)],
    queries: &[String],
) -> Vec<(u64, Vec<(String, u32)>)> {
    let classes = std::env::temp_dir().join(format!("metagate-lucene-scores-{}-{mode}", std::process::id()));
    let jars = format!("{JARS}:/usr/share/java/lucene-misc-8.7.0.jar:/usr/share/java/lucene-queries-8.7.0.jar");
    let status = Command::new("javac")
        .args(["-nowarn", "-cp", &jars, "-d"])
        .arg(&classes)
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/lucene/LuceneScores.java"))
        .status()
        .unwrap();
    assert!(status.success());
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let mut input = format!("{}\n", docs.len());
    for (id, text) in docs {
        input.push_str(&format!("{id}\t{}\n", b64(text)));
    }
    for q in queries {
        input.push_str(&format!("{}\n", b64(q)));
    }
    let mut child = Command::new("java")
        .arg("-cp")
        .arg(format!("{}:{jars}", classes.display()))
        .arg("LuceneScores")
        .arg(mode)
        .args(rules)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let _ = std::fs::remove_dir_all(&classes);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let (total, top) = line.split_once('\t').unwrap_or((line, ""));
            let hits = top
                .split_whitespace()
                .map(|h| {
                    let (id, bits) = h.split_once(':').unwrap();
                    (id.to_string(), u32::from_str_radix(bits, 16).unwrap())
                })
                .collect();
            (total.parse().unwrap(), hits)
        })
        .collect()
}

fn ours(e: &Engine, query: &Value) -> (u64, Vec<(String, u32)>) {
    ours_on(e, "syn", query)
}

fn ours_on(e: &Engine, index: &str, query: &Value) -> (u64, Vec<(String, u32)>) {
    let answer = common::search(e, index, &json!({"query": query, "size": 10, "_source": false}).to_string()).unwrap();
    let hits = answer["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["_id"].as_str().unwrap().to_string(), (h["_score"].as_f64().unwrap() as f32).to_bits()))
        .collect();
    (answer["hits"]["total"].as_u64().unwrap(), hits)
}

/// Lucene 8 keeps Lucene 7's BM25 (LegacyBM25Similarity) but orders its float operations
/// differently: the same total and documents, scores within 4 ulps, the same order but
/// for neighbours that close.
fn same(o: &(u64, Vec<(String, u32)>), l: &(u64, Vec<(String, u32)>)) -> bool {
    let close = |a: u32, b: u32| a.abs_diff(b) <= 4;
    let by_id = |h: &[(String, u32)]| h.iter().cloned().collect::<std::collections::HashMap<_, _>>();
    let (mine, theirs) = (by_id(&o.1), by_id(&l.1));
    o.0 == l.0
        && mine.len() == theirs.len()
        && mine.iter().all(|(id, s)| theirs.get(id).is_some_and(|t| close(*s, *t)))
        && o.1.iter().zip(&l.1).all(|(a, b)| a.0 == b.0 || close(a.1, b.1))
}

#[test]
fn match_scores_stacked_terms_as_lucenes_synonym_query() {
    let e = engine();
    let queries = queries();
    let theirs = lucene(&queries);
    assert_eq!(theirs.len(), queries.len());
    let mut differ = Vec::new();
    for (q, l) in queries.iter().zip(&theirs) {
        let o = ours(&e, &json!({"match": {"d": q}}));
        if !same(&o, l) {
            differ.push(format!("{q:?}\n  metagate {o:?}\n  lucene   {l:?}"));
        }
    }
    assert!(theirs.iter().filter(|(t, _)| *t > 0).count() > 20);
    assert!(differ.is_empty(), "{} differ:\n{}", differ.len(), differ.join("\n"));
}

/// ES's `common` query adds every token of the query text as a term, stacked ones too:
/// Lucene's CommonTermsQuery over them (the `common` mode, cutoff 30%: the synonyms, stacked in the documents too, are high-frequency terms, the other words low).
#[test]
fn common_terms_query_takes_stacked_tokens_as_terms() {
    let e = engine();
    let queries = queries();
    let theirs = lucene_of("common", RULES, &documents(), &queries);
    assert_eq!(theirs.len(), queries.len());
    let mut differ = Vec::new();
    for (q, l) in queries.iter().zip(&theirs) {
        let o = ours(&e, &json!({"common": {"d": {"query": q, "cutoff_frequency": 0.3}}}));
        if !same(&o, l) {
            differ.push(format!("{q:?}\n  metagate {o:?}\n  lucene   {l:?}"));
        }
    }
    assert!(theirs.iter().filter(|(t, _)| *t > 0).count() > 20);
    assert!(differ.is_empty(), "{} differ:\n{}", differ.len(), differ.join("\n"));
}

#[test]
fn every_text_query_builds_the_same_synonym_query() {
    let e = engine();
    for q in ["fast", "speedy hound", "crimson road"] {
        let expected = ours(&e, &json!({"match": {"d": q}}));
        assert!(expected.0 > 0, "{q}");
        for query in [
            json!({"multi_match": {"query": q, "fields": ["d"]}}),
            json!({"query_string": {"query": q, "default_field": "d"}}),
            json!({"simple_query_string": {"query": q, "fields": ["d"]}}),
        ] {
            assert_eq!(ours(&e, &query), expected, "{query}");
        }
    }
    // A one-position phrase is a SynonymQuery too (Lucene's QueryBuilder).
    assert_eq!(ours(&e, &json!({"match_phrase": {"d": "hound"}})), ours(&e, &json!({"match": {"d": "hound"}})));
}

#[test]
fn explain_prints_the_synonym_query_as_lucene_does() {
    let e = engine();
    let answer =
        common::search(&e, "syn", &json!({"query": {"match": {"d": "fast"}}, "explain": true, "size": 1}).to_string())
            .unwrap();
    let explanation = &answer["hits"]["hits"][0]["_explanation"];
    let description = explanation["description"].as_str().unwrap();
    assert!(
        description.starts_with("weight(Synonym(d:fast d:quick d:speedy) in ")
            && description.ends_with(") [PerFieldSimilarity], result of:"),
        "{description}"
    );
    let score = answer["hits"]["hits"][0]["_score"].as_f64().unwrap();
    assert_eq!(explanation["value"].as_f64().unwrap(), score);
    let freq = &explanation["details"][0]["details"][1]["details"][0];
    assert!(freq["description"].as_str().unwrap().starts_with("termFreq="), "{freq}");
}

#[test]
fn synonyms_path_is_read_from_the_configuration_folder_and_kept_in_the_file() {
    let dir = std::env::temp_dir().join(format!("metagate-synonym-config-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("analysis")).unwrap();
    std::fs::write(dir.join("analysis/syn.txt"), "# landmarks\ncoffee, espresso\nmarket => bazaar\n").unwrap();
    let body = |path: &str| {
        json!({
            "settings": {"analysis": {
                "filter": {"syn": {"type": "synonym_graph", "synonyms_path": path}},
                "analyzer": {"syn_text": {"tokenizer": "standard", "filter": ["lowercase", "syn"]}}}},
            "mappings": {"_doc": {"properties": {"t": {"type": "text", "analyzer": "syn_text"}}}}
        })
    };
    let file = common::temp_file("synonym-config");
    let load = |path: &str, config: Option<&std::path::Path>| {
        let e = Engine::open_or_create(&file).unwrap();
        let opts = LoadOptions {
            create_body: Some(body(path)),
            config_dir: config.map(|c| c.to_path_buf()),
            replace: true,
            ..Default::default()
        };
        let docs = "{\"t\": \"Espresso bar\"}\n{\"t\": \"Night market\"}\n";
        e.load("cfg", docs.as_bytes(), &opts, &mut |_, _| {}).map(|_| ()).map_err(Box::new)
    };
    load("analysis/syn.txt", Some(&dir)).unwrap();
    // Reopened, the index still has the rules: the file holds them.
    let e = Engine::open_or_create(&file).unwrap();
    let total = |q: &str| {
        let answer = common::search(&e, "cfg", &json!({"query": {"match": {"t": q}}}).to_string()).unwrap();
        answer["hits"]["total"].as_u64().unwrap()
    };
    // `market => bazaar` replaces the term in the index and in queries alike.
    assert_eq!((total("coffee"), total("bazaar"), total("market"), total("night")), (1, 1, 1, 1));
    drop(e);
    // ES's errors: a missing file, a path outside the folder.
    let missing = load("nope.txt", Some(&dir)).unwrap_err();
    assert_eq!(missing.kind(), "illegal_argument_exception");
    assert_eq!(
        missing.reason(),
        format!("IOException while reading synonyms_path_path: {}", dir.join("nope.txt").display())
    );
    let outside = load("../secret.txt", Some(&dir)).unwrap_err();
    assert_eq!(outside.kind(), "access_control_exception");
    let no_folder = load("analysis/syn.txt", None).unwrap_err();
    assert_eq!(no_folder.reason(), "IOException while reading synonyms_path_path: analysis/syn.txt");
    let _ = std::fs::remove_dir_all(&dir);
}

const GRAPH_RULES: &[&str] =
    &["ny, new york", "usa, united states, america", "tv => television, tv", "big apple => nyc, new york city"];
const GRAPH_WORDS: &[&str] = &[
    "ny",
    "new",
    "york",
    "city",
    "usa",
    "united",
    "states",
    "america",
    "tv",
    "television",
    "big",
    "apple",
    "nyc",
    "the",
    "of",
    "red",
    "park",
];

#[test]
fn graph_synonyms_at_query_time_score_as_lucenes_graph_query() {
    let docs = documents_of(GRAPH_WORDS);
    let e = Engine::open_or_create(&common::temp_file("synonym-graph")).unwrap();
    let body = json!({
        "settings": {"analysis": {
            "filter": {"syn": {"type": "synonym_graph", "synonyms": GRAPH_RULES}},
            "analyzer": {
                "plain": {"tokenizer": "standard", "filter": ["lowercase"]},
                "syn_graph": {"tokenizer": "standard", "filter": ["lowercase", "syn"]}}}},
        "mappings": {"_doc": {"properties": {"d": {"type": "text", "analyzer": "plain", "search_analyzer": "syn_graph"}}}}
    });
    let mut bulk = String::new();
    for (id, text) in &docs {
        bulk.push_str(&format!("{}\n", json!({"id": id, "d": text})));
    }
    let opts = LoadOptions { create_body: Some(body), id_field: Some("id".into()), ..Default::default() };
    e.load("graph", bulk.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    let queries: Vec<String> = [
        "ny",
        "new york",
        "usa",
        "united states",
        "the united states of america",
        "tv",
        "big apple",
        "red big apple park",
        "ny city",
        "new york city",
        "park ny usa",
        "america tv",
        "york",
        "apple",
    ]
    .map(String::from)
    .to_vec();
    let mut differ = Vec::new();
    for (mode, operator) in [("graph", "or"), ("graph-and", "and")] {
        let theirs = lucene_of(mode, GRAPH_RULES, &docs, &queries);
        assert_eq!(theirs.len(), queries.len());
        for (q, l) in queries.iter().zip(&theirs) {
            let o = ours_on(&e, "graph", &json!({"match": {"d": {"query": q, "operator": operator}}}));
            if !same(&o, l) {
                differ.push(format!("{operator} {q:?}\n  metagate {o:?}\n  lucene   {l:?}"));
            }
        }
        assert!(theirs.iter().filter(|(t, _)| *t > 0).count() > 5);
    }
    assert!(differ.is_empty(), "{} differ:\n{}", differ.len(), differ.join("\n"));
    // query_string and multi_match build the same graph query through match.
    for q in ["ny city", "big apple"] {
        let expected = ours_on(&e, "graph", &json!({"match": {"d": q}}));
        assert_eq!(ours_on(&e, "graph", &json!({"query_string": {"query": q, "default_field": "d"}})), expected);
        assert_eq!(ours_on(&e, "graph", &json!({"multi_match": {"query": q, "fields": ["d"]}})), expected);
    }
    // A graph with minimum_should_match is refused rather than built otherwise.
    let refused = common::search(
        &e,
        "graph",
        &json!({"query": {"match": {"d": {"query": "ny city", "minimum_should_match": 1}}}}).to_string(),
    );
    assert!(refused.unwrap_err().reason().contains("graph query"));
    // Inside a constant_score, the graph query is printed as Lucene prints it.
    let answer = common::search(
        &e,
        "graph",
        &json!({"query": {"constant_score": {"filter": {"match": {"d": "ny city"}}}}, "explain": true, "size": 1})
            .to_string(),
    )
    .unwrap();
    let description = answer["hits"]["hits"][0]["_explanation"]["description"].as_str().unwrap().to_string();
    assert_eq!(description, "ConstantScore((d:\"new york\" d:ny) d:city)");
    let answer = common::search(
        &e,
        "graph",
        &json!({"query": {"constant_score": {"filter": {"match": {"d": "ny"}}}}, "explain": true, "size": 1})
            .to_string(),
    )
    .unwrap();
    let description = answer["hits"]["hits"][0]["_explanation"]["description"].as_str().unwrap().to_string();
    assert_eq!(description, "ConstantScore(d:\"new york\" d:ny)");
    // `ny` is the graph of `ny` and the phrase `new york`.
    let answer = common::search(
        &e,
        "graph",
        &json!({"query": {"match": {"d": "ny"}}, "explain": true, "size": 100}).to_string(),
    )
    .unwrap();
    let explained = answer["hits"]["hits"].to_string();
    assert!(explained.contains("weight(d:\\\"new york\\\" in "), "{}", &explained[..explained.len().min(2000)]);
}
