//! A REST YAML test file as ES's runner reads it: YAML documents holding `setup`,
//! `teardown` and named tests, each a list of steps (`skip`, `do`, and assertions).

use serde::Deserialize;
use serde_json::Value;

/// One test of a file, with the file's `setup` steps.
#[derive(Debug, Clone)]
pub struct TestCase {
    /// The test's name (the key of its YAML document).
    pub name: String,
    /// The steps of the file's `setup` section.
    pub setup: Vec<Value>,
    /// The test's own steps.
    pub steps: Vec<Value>,
}

/// The tests of one YAML file's text (libyaml reads it, as lenient with flow
/// collections as the SnakeYAML of ES's runner).
pub fn parse_file(text: &str) -> Result<Vec<TestCase>, String> {
    let mut setup = Vec::new();
    let mut tests: Vec<(String, Vec<Value>)> = Vec::new();
    for doc in serde_yaml_ng::Deserializer::from_str(text) {
        let Value::Object(sections) = Value::deserialize(doc).map_err(|e| format!("YAML: {e}"))? else {
            continue;
        };
        for (name, steps) in sections {
            let steps = match steps {
                Value::Array(s) => s,
                _ => return Err(format!("section [{name}] is not a list of steps")),
            };
            match name.as_str() {
                "setup" => setup = steps,
                "teardown" => {}
                _ => tests.push((name, steps)),
            }
        }
    }
    Ok(tests.into_iter().map(|(name, steps)| TestCase { name, setup: setup.clone(), steps }).collect())
}

/// The version of ES whose behaviour metagate serves, for `skip.version` ranges.
pub const SERVED_VERSION: (u32, u32, u32) = (6, 8, 23);

/// The runner features this runner has (`skip.features` naming another skips the test).
pub const FEATURES: [&str; 10] = [
    "warnings",
    "allowed_warnings",
    "warnings_regex",
    "allowed_warnings_regex",
    "headers",
    "stash_in_path",
    "stash_in_key",
    "embedded_stash_key",
    "contains",
    "close_to",
];

/// Why a `skip` step skips, or `None` when it lets the test run.
pub fn skip_reason(skip: &Value) -> Option<String> {
    if let Some(v) = skip.get("version").and_then(Value::as_str) {
        if version_in_ranges(v, SERVED_VERSION) {
            let why = skip.get("reason").and_then(Value::as_str).unwrap_or("");
            return Some(format!("version {v}: {why}"));
        }
    }
    let features: Vec<&str> = match skip.get("features") {
        Some(Value::String(f)) => vec![f.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let missing: Vec<&str> = features.into_iter().filter(|f| !FEATURES.contains(f)).collect();
    if !missing.is_empty() {
        return Some(format!("feature {}", missing.join(",")));
    }
    None
}

/// Whether `version` lies in one of ES's comma-separated ranges (`"all"`, `" - 6.99.99"`,
/// `"6.0.0 - 6.3.99"`, `"7.0.0 - "`).
pub fn version_in_ranges(ranges: &str, version: (u32, u32, u32)) -> bool {
    ranges.split(',').any(|range| {
        let range = range.trim();
        if range == "all" {
            return true;
        }
        let Some((lo, hi)) = range.split_once(" - ").or_else(|| range.split_once('-')) else {
            return false;
        };
        let lo = parse_version(lo.trim()).unwrap_or((0, 0, 0));
        let hi = parse_version(hi.trim()).unwrap_or((u32::MAX, u32::MAX, u32::MAX));
        lo <= version && version <= hi
    })
}

fn parse_version(v: &str) -> Option<(u32, u32, u32)> {
    let mut parts = v.split('.').map(|p| p.trim().parse::<u32>().ok());
    Some((parts.next()??, parts.next().flatten().unwrap_or(0), parts.next().flatten().unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_ranges() {
        assert!(version_in_ranges(" - 6.99.99", (6, 8, 23)));
        assert!(!version_in_ranges("7.0.0 - ", (6, 8, 23)));
        assert!(version_in_ranges("all", (6, 8, 23)));
        assert!(version_in_ranges("6.0.0 - 6.8.99", (6, 8, 23)));
        assert!(!version_in_ranges(" - 6.3.99", (6, 8, 23)));
        assert!(version_in_ranges(" - 6.3.99, 6.8.0 - 6.8.99", (6, 8, 23)));
    }
}
