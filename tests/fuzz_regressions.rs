//! The fuzz targets' inputs (`fuzz/fuzz_targets/`) replayed through the same harnesses
//! (`metagate::fuzzing`) in the normal test suite: the seed corpora, and every input a
//! fuzzer found crashing, hanging or growing without bound, kept as the file
//! `tests/fuzz_regressions/<target>/<name>`. Each must return normally, and in time.

use std::path::Path;
use std::time::{Duration, Instant};

/// The harness of each target, by directory name.
fn harness(target: &str) -> fn(&[u8]) {
    match target {
        "dsl" => metagate::fuzzing::dsl,
        "query_syntax" => metagate::fuzzing::query_syntax,
        "gateway" => metagate::fuzzing::gateway,
        "ndjson" => metagate::fuzzing::ndjson,
        "scroll_id" => metagate::fuzzing::scroll_id,
        "aggs" => metagate::fuzzing::aggs,
        "image" => metagate::fuzzing::image,
        "script" => metagate::fuzzing::script,
        other => panic!("tests/fuzz_regressions/{other}: no such fuzz target"),
    }
}

/// Runs every input under `root/<target>/` through its target's harness; returns how many.
fn replay(root: &Path) -> usize {
    let mut replayed = 0;
    for target in std::fs::read_dir(root).unwrap() {
        let target = target.unwrap().path();
        if !target.is_dir() {
            continue;
        }
        let run = harness(target.file_name().unwrap().to_str().unwrap());
        for input in std::fs::read_dir(&target).unwrap() {
            let input = input.unwrap().path();
            let bytes = std::fs::read(&input).unwrap();
            let started = Instant::now();
            run(&bytes);
            // Debug builds are slow; a finding that was a hang took far longer than this.
            let took = started.elapsed();
            assert!(took < Duration::from_secs(5), "{} took {took:?}", input.display());
            replayed += 1;
        }
    }
    replayed
}

/// The seed corpora (real requests, `fuzz/seeds/<target>/`) and every kept finding
/// (`tests/fuzz_regressions/<target>/`, when there are any) return normally through the
/// harnesses the fuzzers run.
#[test]
fn fuzz_inputs_replay_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(replay(&root.join("fuzz/seeds")) >= 7 * 10, "too few seeds under fuzz/seeds");
    let findings = root.join("tests/fuzz_regressions");
    if findings.is_dir() {
        replay(&findings);
    }
}
