//! `synonyms_path`: rules files read, when an index is created, from the configuration
//! folder given to the load (ES's `Environment.configFile()`), with ES 6.8's errors. The
//! registry keeps their text, so an index answers the same wherever its file is opened.

use crate::error::{Error, Exception, Result};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// The text of every file the index's synonym filters name by `synonyms_path`, keyed by
/// the path as written.
pub fn read_all(filters: Option<&Map<String, Value>>, config: Option<&Path>) -> Result<BTreeMap<String, String>> {
    let mut files = BTreeMap::new();
    for def in filters.into_iter().flat_map(|f| f.values()).filter_map(Value::as_object) {
        let ty = def.get("type").and_then(Value::as_str).unwrap_or_default();
        if !matches!(ty, "synonym" | "synonym_graph") || def.contains_key("synonyms") {
            continue;
        }
        let Some(path) = def.get("synonyms_path").and_then(Value::as_str) else { continue };
        if !files.contains_key(path) {
            files.insert(path.to_string(), read(path, config)?);
        }
    }
    Ok(files)
}

/// Removes `.` and resolves `..` without touching the disk.
fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// ES's `Analysis.getReaderFromFile` for `synonyms_path`: the path resolved against the
/// configuration folder; outside it, the security manager's refusal.
/// Without a folder, nothing is there to read: every file is missing.
fn read(written: &str, config: Option<&Path>) -> Result<String> {
    let (path, shown) = match config {
        Some(config) => {
            let config = normalized(config);
            let path = normalized(&config.join(written));
            let shown = path.display().to_string();
            if !path.starts_with(&config) {
                return Err(access_denied(&shown));
            }
            (Some(path), shown)
        }
        None => (None, written.to_string()),
    };
    let io_error = |cause: Exception| {
        let top = Exception::new(
            "illegal_argument_exception",
            format!("IOException while reading synonyms_path_path: {shown}"),
        );
        Error::new(400, top.clone().caused_by(cause)).with_root_causes(vec![top])
    };
    let Some(path) = path else {
        return Err(io_error(Exception::new("no_such_file_exception", shown.clone())));
    };
    read_utf8(&path, &shown, io_error)
}

fn access_denied(shown: &str) -> Error {
    Error::new(
        500,
        Exception::new(
            "access_control_exception",
            format!("access denied (\"java.io.FilePermission\" \"{shown}\" \"read\")"),
        ),
    )
}

fn read_utf8(path: &Path, shown: &str, io_error: impl Fn(Exception) -> Error) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => io_error(Exception::new("no_such_file_exception", shown)),
        _ => io_error(Exception::new("i_o_exception", e.to_string())),
    })?;
    String::from_utf8(bytes).map_err(|_| {
        let top = Exception::new(
            "illegal_argument_exception",
            format!(
                "Unsupported character encoding detected while reading synonyms_path_path: {shown} files must be UTF-8 encoded"
            ),
        );
        Error::new(400, top.clone().caused_by(Exception::new("malformed_input_exception", "Input length = 1")))
            .with_root_causes(vec![top])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn filters(path: &str) -> Map<String, Value> {
        json!({"syn": {"type": "synonym", "synonyms_path": path}}).as_object().unwrap().clone()
    }

    #[test]
    fn files_are_read_inside_the_configuration_folder_only() {
        let dir = std::env::temp_dir().join(format!("metagate-syn-config-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("analysis")).unwrap();
        std::fs::write(dir.join("analysis/syn.txt"), "a, b\n").unwrap();
        let files = read_all(Some(&filters("analysis/syn.txt")), Some(&dir)).unwrap();
        assert_eq!(files["analysis/syn.txt"], "a, b\n");
        let missing = read_all(Some(&filters("nope.txt")), Some(&dir)).unwrap_err();
        assert_eq!(
            missing.reason(),
            format!("IOException while reading synonyms_path_path: {}", dir.join("nope.txt").display())
        );
        let tree = missing.exception.to_json(true);
        assert_eq!(tree["caused_by"]["type"], "no_such_file_exception");
        let outside = read_all(Some(&filters("../../etc/passwd")), Some(&dir)).unwrap_err();
        assert_eq!(outside.status, 500);
        assert_eq!(outside.kind(), "access_control_exception");
        std::fs::write(dir.join("latin1.txt"), [0xE9u8, b'\n']).unwrap();
        let latin = read_all(Some(&filters("latin1.txt")), Some(&dir)).unwrap_err();
        assert!(latin.reason().starts_with("Unsupported character encoding detected"), "{}", latin.reason());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
