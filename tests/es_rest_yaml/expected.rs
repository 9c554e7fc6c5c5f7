//! The list of tests that do not pass, each with its reason: `file | test | reason`
//! lines (`#` comments). The suite fails when a listed test passes (remove it) or an
//! unlisted test fails; blessing rewrites the list from a run, keeping known reasons.

use std::collections::BTreeMap;

/// (file, test) → reason.
pub type Expected = BTreeMap<(String, String), String>;

/// The list in `text`.
pub fn parse(text: &str) -> Expected {
    let mut out = Expected::new();
    for line in text.lines() {
        let line = line.trim_end();
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.splitn(2, " | ");
        let (Some(file), Some(rest)) = (parts.next(), parts.next()) else {
            continue;
        };
        let (test, reason) = rest.rsplit_once(" | ").unwrap_or((rest, ""));
        out.insert((file.to_string(), test.to_string()), reason.to_string());
    }
    out
}

/// The text of a list: `header` lines, then one line per failing test, sorted.
pub fn render(header: &str, failing: &Expected) -> String {
    let mut out = String::from(header);
    for ((file, test), reason) in failing {
        out.push_str(&format!("{file} | {test} | {reason}\n"));
    }
    out
}

/// The reason category of a reason (the text before the first `:`), for summaries.
pub fn category(reason: &str) -> &str {
    reason.split_once(':').map_or(reason, |(c, _)| c).trim()
}
