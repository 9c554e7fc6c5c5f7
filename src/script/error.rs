//! Script failures and their ES 6.8 rendering: `script_exception` with `script_stack`,
//! `script` and `lang` (6.8 has no `position`; it came in 7.x), its Java cause as
//! `caused_by`, inside the shard-failure shape of a search.

use crate::error::{Error, Exception};

/// A failure found while compiling: where, and the Java exception Painless throws.
#[derive(Debug, Clone, PartialEq)]
pub struct CompileError {
    /// Byte offset in the source the error points at.
    pub offset: usize,
    /// The ES name of the Java exception (`illegal_argument_exception`, ...).
    pub kind: &'static str,
    /// Its message.
    pub message: String,
}

impl CompileError {
    /// An error at `offset`.
    pub fn new(offset: usize, kind: &'static str, message: impl Into<String>) -> CompileError {
        CompileError { offset, kind, message: message.into() }
    }
}

/// A failure while running: where, and the Java exception (or `painless_error`).
#[derive(Debug, Clone, PartialEq)]
pub struct RuntimeError {
    /// Byte offset of the expression that failed.
    pub offset: usize,
    /// The ES name of the Java exception.
    pub kind: &'static str,
    /// Its message; `None` for exceptions Java throws without one (a null dereference).
    pub message: Option<String>,
}

/// Why a run stopped early.
#[derive(Debug, Clone, PartialEq)]
pub enum Halt {
    /// A Java exception or Painless error (boxed: runs return `Result<Value, Halt>` on
    /// their hot path, which a small error keeps small).
    Error(Box<RuntimeError>),
    /// The request's deadline passed (the search answers `timed_out`).
    TimedOut,
    /// The request's client went away.
    Cancelled,
}

impl Halt {
    /// A halt with an exception of `kind` at `offset`.
    pub fn at(offset: usize, kind: &'static str, message: impl Into<String>) -> Halt {
        Halt::Error(Box::new(RuntimeError { offset, kind, message: Some(message.into()) }))
    }

    /// Java's message-less `NullPointerException` at `offset`.
    pub fn null_pointer(offset: usize) -> Halt {
        Halt::Error(Box::new(RuntimeError { offset, kind: "null_pointer_exception", message: None }))
    }
}

/// The `script_stack` lines of a compile error: the source 25 bytes either side of the
/// offset (with `... ` marks where cut) and a pointer under it, as Painless writes them.
pub fn compile_stack(source: &str, offset: usize) -> Vec<String> {
    let offset = floor_boundary(source, offset.min(source.len()));
    let start = floor_boundary(source, offset.saturating_sub(25));
    let end = floor_boundary(source, (offset + 25).min(source.len()));
    let mut snippet = String::new();
    if start > 0 {
        snippet.push_str("... ");
    }
    snippet.push_str(&source[start..end]);
    if end < source.len() {
        snippet.push_str(" ...");
    }
    let mut pointer = String::new();
    if start > 0 {
        pointer.push_str("    ");
    }
    pointer.extend(std::iter::repeat_n(' ', source[start..offset].chars().count()));
    pointer.push_str("^---- HERE");
    vec![snippet, pointer]
}

/// The `script_stack` lines of a runtime error: the statement that failed (from its
/// start to the next statement's) and a pointer at the failing expression.
pub fn runtime_stack(source: &str, statements: &[usize], offset: usize) -> Vec<String> {
    let offset = floor_boundary(source, offset.min(source.len()));
    let start = statements.iter().copied().filter(|&s| s <= offset).max().unwrap_or(0);
    let end = statements.iter().copied().filter(|&s| s > start).min().unwrap_or(source.len());
    let start = floor_boundary(source, start);
    let end = floor_boundary(source, end.max(start));
    let mut pointer: String = std::iter::repeat_n(' ', source[start..offset.max(start)].chars().count()).collect();
    pointer.push_str("^---- HERE");
    vec![source[start..end].to_string(), pointer]
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The `script_exception` ES raises: `reason` "compile error" or "runtime error".
pub fn script_exception(reason: &str, stack: Vec<String>, source: &str, cause: Exception) -> Exception {
    Exception::new("script_exception", reason)
        .with_meta("script_stack", stack)
        .with_meta("script", source)
        .with_meta("lang", "painless")
        .caused_by(cause)
}

/// The exception a compile error becomes.
pub fn compile_exception(source: &str, e: &CompileError) -> Exception {
    script_exception(
        "compile error",
        compile_stack(source, e.offset),
        source,
        Exception::new(e.kind, e.message.clone()),
    )
}

/// The exception a runtime error becomes.
pub fn runtime_exception(source: &str, statements: &[usize], e: &RuntimeError) -> Exception {
    let cause = match &e.message {
        Some(m) => Exception::new(e.kind, m.clone()),
        None => Exception::new(e.kind, "").with_null_reason(),
    };
    script_exception("runtime error", runtime_stack(source, statements, e.offset), source, cause)
}

/// A script failure in a search: ES's shard failure (`all shards failed`), 400.
pub fn search_failure(index: Option<&str>, exception: Exception) -> Error {
    Error::all_shards_failed(400, index, exception)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compile_stack_cuts_25_bytes_either_side() {
        assert_eq!(compile_stack("while (true) {}", 0), vec!["while (true) {}".to_string(), "^---- HERE".into()]);
        let src = "def a = 1; def b = 2; def c = 3; def d = 4; x y";
        let off = src.find('x').unwrap();
        let s = compile_stack(src, off);
        assert_eq!(s[0], "... 2; def c = 3; def d = 4; x y");
        assert_eq!(s[1], format!("    {}^---- HERE", " ".repeat(25)));
    }

    #[test]
    fn runtime_stack_shows_the_failing_statement() {
        let src = "int a = 1; int b = a / 0; return b;";
        let s = runtime_stack(src, &[0, 11, 26], 19);
        assert_eq!(s, vec!["int b = a / 0; ".to_string(), "        ^---- HERE".into()]);
    }
}
