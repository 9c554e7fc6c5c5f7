//! The Lucene analysis oracle (tests/lucene/LuceneAnalysis.java, run on Debian's
//! liblucene8-java): Lucene's tokens for analysis specs, and metagate's `_analyze`
//! answers in the same line format, for the analysis tests to compare.

use base64::Engine as _;
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

/// Lucene's jars, as Debian installs them.
pub const JARS: &str = "/usr/share/java/lucene-analyzers-common-8.7.0.jar:/usr/share/java/lucene-core-8.7.0.jar";

/// Lucene's tokens for each (spec, text) line, in the oracle's line format.
pub fn lucene_tokens(lines: &[(String, String)]) -> Vec<String> {
    let mut input = String::new();
    for (spec, text) in lines {
        input.push_str(&format!("{spec}\t{}\n", base64::engine::general_purpose::STANDARD.encode(text)));
    }
    java_oracle("LuceneAnalysis", JARS, input)
}

/// Compiles `tests/lucene/{class}.java` against `jars`, runs it with `input` on its
/// standard input and returns its output lines: the Java oracles' common runner.
pub fn java_oracle(class: &str, jars: &str, input: String) -> Vec<String> {
    // One folder per call: the tests of a file run in parallel, each with its oracle.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let classes = std::env::temp_dir().join(format!("metagate-oracle-{class}-{}-{call}", std::process::id()));
    let status = Command::new("javac")
        .args(["-nowarn", "-cp", jars, "-d"])
        .arg(&classes)
        .arg(format!("{}/tests/lucene/{class}.java", env!("CARGO_MANIFEST_DIR")))
        .stderr(Stdio::null())
        .status()
        .expect("the Lucene oracle needs javac and liblucene8-java (tests/run_all.sh installs them)");
    assert!(status.success());
    let mut child = Command::new("java")
        .arg("-cp")
        .arg(format!("{}:{jars}", classes.display()))
        .arg(class)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let _ = std::fs::remove_dir_all(&classes);
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect()
}

/// An `_analyze` answer in the oracle's line format: per token its base64 term,
/// position, offsets, position length and base64 type.
pub fn oracle_line(answer: &Value) -> String {
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    answer["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            format!(
                "{},{},{},{},{},{}",
                b64(t["token"].as_str().unwrap()),
                t["position"],
                t["start_offset"],
                t["end_offset"],
                t.get("positionLength").and_then(Value::as_u64).unwrap_or(1),
                b64(t["type"].as_str().unwrap())
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}
