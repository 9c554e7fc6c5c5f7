//! Elasticsearch's REST YAML tests for the read APIs, run against metagate.
//!
//! The test texts are vendored under `tests/es_rest_yaml/core/` (rest-api-spec) and
//! `tests/es_rest_yaml/modules/` (see `tests/es_rest_yaml/SOURCES.md`). Each test runs
//! over a fresh file: its `indices.create` / `index` / `bulk` writes become loads, its
//! read calls go through `Gateway::handle_in_process` as HTTP-shaped requests (paths
//! from ES 6.8's API specification), and its assertions are checked as ES's runner
//! checks them. `skip.version` ranges are compared with 6.8.23.
//!
//! `tests/es_rest_yaml/expected.txt` lists every test that does not pass, with its
//! reason. The test fails when a listed test passes (the list only shrinks: remove it)
//! or when an unlisted test fails. `METAGATE_YAML_BLESS=1 cargo test --test es_rest_yaml`
//! rewrites the list from the run, keeping the reasons of listed tests and marking new
//! ones `unclassified`. `METAGATE_YAML_FILTER=text` runs only the files whose path
//! contains `text` (the list is then not checked for tests that did not run).

mod common;

#[path = "es_rest_yaml/apis.rs"]
mod apis;
#[path = "es_rest_yaml/assertions.rs"]
mod assertions;
#[path = "es_rest_yaml/expected.rs"]
mod expected;
#[path = "es_rest_yaml/runner.rs"]
mod runner;
#[path = "es_rest_yaml/suite.rs"]
mod suite;
#[path = "es_rest_yaml/world.rs"]
mod world;

use runner::Outcome;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

const HEADER: &str = "\
# ES REST YAML tests that do not pass against metagate: `file | test | reason`.
# The reason starts with its category (the text before the first `:`):
#   unsupported    the test writes in ways a load cannot express (updates, deletes,
#                  versions, pipelines, alias filters), or names a runner feature we lack
#   7.x text       the vendored text is 7.x's and asserts 7.x behaviour that 6.8 differs from
#   older text     the vendored text predates a 6.8 behaviour it does not expect
#   multi-shard    the test depends on several shards or nodes
#   missing        metagate lacks the feature or endpoint named (issue in parentheses)
#   differs        metagate answers differently from ES 6.8 (a bug to fix)
#   unclassified   new failure, not yet looked at (the first failing step follows)
# `METAGATE_YAML_BLESS=1 cargo test --test es_rest_yaml` rewrites this list from a run.
";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/es_rest_yaml")
}

/// Every `.yml`/`.yaml` file under `dir`, sorted.
fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            yaml_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "yml" || e == "yaml") {
            out.push(p);
        }
    }
}

#[test]
fn es_rest_yaml_tests() {
    let root = root();
    let filter = std::env::var("METAGATE_YAML_FILTER").ok();
    // `METAGATE_YAML_SHOW=1` prints why each failing test fails (its first failing step).
    let show_failures = std::env::var("METAGATE_YAML_SHOW").is_ok_and(|v| v == "1");
    let mut files = Vec::new();
    for dir in ["core", "modules"] {
        yaml_files(&root.join(dir), &mut files);
    }
    let mut cases = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        if filter.as_deref().is_some_and(|t| !rel.contains(t)) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        let tests = suite::parse_file(&text).unwrap_or_else(|e| panic!("{rel}: {e}"));
        cases.extend(tests.into_iter().map(|t| (rel.clone(), t)));
    }
    assert!(!cases.is_empty(), "no YAML tests found under {}", root.display());

    // Two workers: the machine is shared, and each test is small.
    let next = AtomicUsize::new(0);
    let results: Mutex<BTreeMap<(String, String), Outcome>> = Mutex::new(BTreeMap::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((file, test)) = cases.get(i) else { break };
                let path = common::temp_file("yaml");
                let outcome = std::panic::catch_unwind(|| runner::run(test, &path))
                    .unwrap_or_else(|_| Outcome::Failed("panicked".into()));
                let _ = std::fs::remove_file(&path);
                results.lock().unwrap().insert((file.clone(), test.name.clone()), outcome);
            });
        }
    });
    let results = results.into_inner().unwrap();

    let expected_path = root.join("expected.txt");
    let listed = expected::parse(&std::fs::read_to_string(&expected_path).unwrap_or_default());
    let (mut passed, mut failed_as_expected, mut by_version, mut by_feature) = (0, 0, 0, 0);
    let mut now_passing = Vec::new();
    let mut unexpected = Vec::new();
    let mut failing = expected::Expected::new();
    let mut categories: BTreeMap<String, usize> = BTreeMap::new();
    for (key, outcome) in &results {
        match outcome {
            Outcome::Passed => {
                passed += 1;
                if listed.contains_key(key) {
                    now_passing.push(format!("{} | {}", key.0, key.1));
                }
            }
            Outcome::Failed(why) => {
                if show_failures {
                    println!("FAILED {} | {} | {}", key.0, key.1, why.replace('\n', " "));
                }
                let reason = match listed.get(key) {
                    Some(r) => {
                        failed_as_expected += 1;
                        r.clone()
                    }
                    None => {
                        unexpected.push(format!("{} | {} | {why}", key.0, key.1));
                        let why: String = why.replace(['\n', '|'], " ").chars().take(200).collect();
                        format!("unclassified: {why}")
                    }
                };
                *categories.entry(expected::category(&reason).to_string()).or_default() += 1;
                failing.insert(key.clone(), reason);
            }
            Outcome::SkippedByVersion(_) => by_version += 1,
            Outcome::SkippedByFeature(_) => by_feature += 1,
        }
    }
    // Listed tests that no longer exist or now skip (only checked over a full run).
    let stale: Vec<String> = if filter.is_none() {
        listed
            .keys()
            .filter(|k| !matches!(results.get(*k), Some(Outcome::Passed | Outcome::Failed(_))))
            .map(|(f, t)| format!("{f} | {t}"))
            .collect()
    } else {
        Vec::new()
    };

    println!(
        "ES REST YAML: {} tests in {} files: {passed} passed, {failed_as_expected} failed as expected, \
         {} failed unexpectedly, {by_version} skipped by version (not 6.8), {by_feature} not applicable (runner feature)",
        results.len(),
        files.len(),
        unexpected.len()
    );
    for (c, n) in &categories {
        println!("  failing, {c}: {n}");
    }
    if std::env::var("METAGATE_YAML_BLESS").is_ok_and(|v| v == "1") && filter.is_none() {
        std::fs::write(&expected_path, expected::render(HEADER, &failing)).unwrap();
        println!("rewrote {}", expected_path.display());
        return;
    }
    let mut problems = Vec::new();
    if !now_passing.is_empty() {
        problems.push(format!("now passing, remove from expected.txt:\n  {}", now_passing.join("\n  ")));
    }
    if !unexpected.is_empty() {
        problems.push(format!("failing, not in expected.txt:\n  {}", unexpected.join("\n  ")));
    }
    if !stale.is_empty() {
        problems.push(format!("listed in expected.txt but not run or skipped:\n  {}", stale.join("\n  ")));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The runner itself: a passing test passes, and a wrong `match`, a missed `catch` and an
/// unexpected status each fail it (so the suite cannot pass by checking nothing).
#[test]
fn runner_fails_what_does_not_hold() {
    let text = r#"
setup:
  - do:
      indices.create:
        index: test
        body: { mappings: { properties: { n: { type: long } } } }
  - do:
      index: { index: test, id: 1, body: { n: 5, t: "a b" } }
---
"right":
  - do:
      search: { index: test, body: { query: { match: { t: b } } } }
  - match: { hits.total: 1 }
  - set: { hits.hits.0._id: id }
  - match: { hits.hits.0._id: $id }
  - match: { hits.hits.0._source.t: "/^a\\s b$/" }
  - length: { hits.hits: 1 }
  - gt: { hits.hits.0._source.n: 4 }
  - is_false: hits.hits.1
  - do:
      catch: missing
      get: { index: test, id: 2 }
---
"wrong match":
  - do:
      search: { index: test }
  - match: { hits.total: 2 }
---
"missed catch":
  - do:
      catch: missing
      get: { index: test, id: 1 }
---
"unexpected error":
  - do:
      search: { index: nope }
"#;
    let tests = suite::parse_file(text).unwrap();
    let outcome = |name: &str| {
        let t = tests.iter().find(|t| t.name == name).unwrap();
        let path = common::temp_file("yaml-self");
        let o = runner::run(t, &path);
        let _ = std::fs::remove_file(&path);
        o
    };
    assert_eq!(outcome("right"), Outcome::Passed);
    for name in ["wrong match", "missed catch", "unexpected error"] {
        assert!(matches!(outcome(name), Outcome::Failed(_)), "{name} should fail");
    }
}
