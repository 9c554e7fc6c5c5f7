//! One error type for every failure a user can see, rendered as the ES 6.8 error JSON.
//!
//! ES errors are trees of exceptions (`type`, `reason`, metadata, `caused_by`) plus a
//! `root_cause` list and an HTTP status. A struct with named constructors (one per ES
//! exception we raise) keeps the exact texts in one place and lets callers nest causes
//! the way ES does, which a flat enum could not express without repeating every field.

use serde_json::{Map, Value};
use std::fmt;

/// An Elasticsearch-shaped error: status plus an exception tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// HTTP status the error is answered with.
    pub status: u16,
    /// The exception at the top of the tree.
    pub exception: Exception,
    /// Explicit root causes; when empty, the deepest `caused_by` (or the top) is used.
    pub root_causes: Vec<Exception>,
    /// How the error body is shaped on the wire.
    pub shape: ErrorShape,
}

/// How an error is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorShape {
    /// `{"error":{"root_cause":[..],"type":..,"reason":..},"status":N}`.
    Full,
    /// `{"error":"<reason>","status":N}` (ES `createSimpleErrorResponse`).
    Simple,
    /// The reason as a `text/plain` body (ES "No handler found" answers).
    PlainText,
}

/// One exception in an ES error tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Exception {
    /// ES type name, such as `parsing_exception`.
    pub kind: String,
    /// Human-readable reason.
    pub reason: String,
    /// Type-specific members, rendered after `reason` in this order.
    pub metadata: Vec<(String, Value)>,
    /// The nested cause, rendered as `caused_by`.
    pub caused_by: Option<Box<Exception>>,
    /// Response headers carried in the body (`header`), e.g. `WWW-Authenticate`.
    pub headers: Vec<(String, Vec<String>)>,
    /// The reason renders as JSON `null` (a Java exception thrown without a message).
    pub reason_is_null: bool,
}

/// Result alias used throughout the crate.
pub type Result<T> = std::result::Result<T, Error>;

impl Exception {
    /// A new exception with no metadata.
    pub fn new(kind: &str, reason: impl Into<String>) -> Exception {
        Exception {
            kind: kind.to_string(),
            reason: reason.into(),
            metadata: Vec::new(),
            caused_by: None,
            headers: Vec::new(),
            reason_is_null: false,
        }
    }

    /// Renders `reason` as `null`, as ES does for a Java exception without a message.
    pub fn with_null_reason(mut self) -> Exception {
        self.reason_is_null = true;
        self
    }

    /// Adds a metadata member.
    pub fn with_meta(mut self, key: &str, value: impl Into<Value>) -> Exception {
        self.metadata.push((key.to_string(), value.into()));
        self
    }

    /// Sets the cause.
    pub fn caused_by(mut self, cause: Exception) -> Exception {
        self.caused_by = Some(Box::new(cause));
        self
    }

    /// Renders the exception object; `with_cause` controls `caused_by` (root causes omit it).
    pub fn to_json(&self, with_cause: bool) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), Value::String(self.kind.clone()));
        let reason = if self.reason_is_null { Value::Null } else { Value::String(self.reason.clone()) };
        m.insert("reason".into(), reason);
        for (k, v) in &self.metadata {
            m.insert(k.clone(), v.clone());
        }
        if with_cause {
            if let Some(c) = &self.caused_by {
                m.insert("caused_by".into(), c.to_json(true));
            }
        }
        if !self.headers.is_empty() {
            let mut h = Map::new();
            for (name, values) in &self.headers {
                let v = if values.len() == 1 {
                    Value::String(values[0].clone())
                } else {
                    Value::Array(values.iter().cloned().map(Value::String).collect())
                };
                h.insert(name.clone(), v);
            }
            m.insert("header".into(), Value::Object(h));
        }
        Value::Object(m)
    }

    fn deepest(&self) -> &Exception {
        match &self.caused_by {
            Some(c) => c.deepest(),
            None => self,
        }
    }
}

impl Error {
    /// A full-shaped error from an exception.
    pub fn new(status: u16, exception: Exception) -> Error {
        Error { status, exception, root_causes: Vec::new(), shape: ErrorShape::Full }
    }

    /// Sets explicit root causes.
    pub fn with_root_causes(mut self, causes: Vec<Exception>) -> Error {
        self.root_causes = causes;
        self
    }

    /// 400 `illegal_argument_exception`.
    pub fn illegal_argument(reason: impl Into<String>) -> Error {
        Error::new(400, Exception::new("illegal_argument_exception", reason))
    }

    /// 400 `parsing_exception` with the position ES reports.
    pub fn parsing(reason: impl Into<String>, line: u32, col: u32) -> Error {
        Error::new(400, Exception::new("parsing_exception", reason).with_meta("line", line).with_meta("col", col))
    }

    /// 400 `parsing_exception` without a known position (line 1, col 1 is not claimed).
    pub fn parsing_no_pos(reason: impl Into<String>) -> Error {
        Error::new(400, Exception::new("parsing_exception", reason))
    }

    /// 404 `index_not_found_exception` exactly as ES 6.8 renders it.
    pub fn index_not_found(name: &str) -> Error {
        Error::index_not_found_as(name, "index_or_alias")
    }

    /// 404 `index_not_found_exception` naming its `resource.type`: `index_or_alias` where
    /// names are resolved as expressions, `index_expression` for single-document APIs.
    pub fn index_not_found_as(name: &str, resource_type: &str) -> Error {
        Error::new(
            404,
            Exception::new("index_not_found_exception", "no such index")
                .with_meta("resource.type", resource_type)
                .with_meta("resource.id", name)
                .with_meta("index_uuid", "_na_")
                .with_meta("index", name),
        )
    }

    /// 500 `json_parse_exception` (ES 6.8 answers malformed JSON with 500).
    pub fn json_parse(reason: impl Into<String>) -> Error {
        Error::new(500, Exception::new("json_parse_exception", reason))
    }

    /// A `{"error":"..","status":N}` error.
    pub fn simple(status: u16, reason: impl Into<String>) -> Error {
        let mut e = Error::new(status, Exception::new("", reason));
        e.shape = ErrorShape::Simple;
        e
    }

    /// A text/plain error body.
    pub fn plain_text(status: u16, reason: impl Into<String>) -> Error {
        let mut e = Error::new(status, Exception::new("", reason));
        e.shape = ErrorShape::PlainText;
        e
    }

    /// A failure of the storage layer or the file itself (500, `exception` type like ES's
    /// generic server errors).
    pub fn storage(reason: impl Into<String>) -> Error {
        Error::new(500, Exception::new("storage_exception", reason))
    }

    /// `search_phase_execution_exception` wrapping shard failures, as ES 6.8 reports a
    /// failure of every shard (`all shards failed`). `index` is the concrete index.
    pub fn all_shards_failed(status: u16, index: Option<&str>, cause: Exception) -> Error {
        let mut shard = Map::new();
        shard.insert("shard".into(), Value::from(if index.is_some() { 0 } else { -1 }));
        shard.insert("index".into(), index.map(|s| Value::String(s.into())).unwrap_or(Value::Null));
        if index.is_some() {
            shard.insert("node".into(), Value::String(crate::node::NODE_ID.into()));
        }
        shard.insert("reason".into(), cause.to_json(true));
        let top = Exception::new("search_phase_execution_exception", "all shards failed")
            .with_meta("phase", "query")
            .with_meta("grouped", true)
            .with_meta("failed_shards", Value::Array(vec![Value::Object(shard)]));
        Error::new(status, top).with_root_causes(vec![cause])
    }

    /// The ES type of the top exception (empty for simple and text errors).
    pub fn kind(&self) -> &str {
        &self.exception.kind
    }

    /// The reason text of the top exception.
    pub fn reason(&self) -> &str {
        &self.exception.reason
    }

    /// The response body as JSON (`Simple` and `Full` shapes).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        match self.shape {
            ErrorShape::Simple | ErrorShape::PlainText => {
                m.insert("error".into(), Value::String(self.exception.reason.clone()));
            }
            ErrorShape::Full => {
                let roots: Vec<Value> = if self.root_causes.is_empty() {
                    vec![self.exception.deepest().to_json(false)]
                } else {
                    self.root_causes.iter().map(|c| c.to_json(false)).collect()
                };
                let mut inner = Map::new();
                inner.insert("root_cause".into(), Value::Array(roots));
                if let Value::Object(top) = self.exception.to_json(true) {
                    inner.extend(top);
                }
                m.insert("error".into(), Value::Object(inner));
            }
        }
        m.insert("status".into(), Value::from(self.status));
        Value::Object(m)
    }

    /// Headers the error carries (sent as HTTP headers too).
    pub fn headers(&self) -> &[(String, Vec<String>)] {
        &self.exception.headers
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exception.kind.is_empty() {
            write!(f, "{}", self.exception.reason)
        } else {
            write!(f, "[{}] {}", self.exception.kind, self.exception.reason)
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::storage(format!("I/O error: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_not_found_matches_es68_text() {
        let body = Error::index_not_found("test").to_json();
        assert_eq!(
            body.to_string(),
            r#"{"error":{"root_cause":[{"type":"index_not_found_exception","reason":"no such index","resource.type":"index_or_alias","resource.id":"test","index_uuid":"_na_","index":"test"}],"type":"index_not_found_exception","reason":"no such index","resource.type":"index_or_alias","resource.id":"test","index_uuid":"_na_","index":"test"},"status":404}"#
        );
    }

    #[test]
    fn simple_error_shape() {
        let body = Error::simple(406, "Content-Type header is missing").to_json();
        assert_eq!(body.to_string(), r#"{"error":"Content-Type header is missing","status":406}"#);
    }

    #[test]
    fn root_cause_is_deepest_cause_without_its_own_cause() {
        let e = Error::new(
            400,
            Exception::new("search_phase_execution_exception", "outer")
                .caused_by(Exception::new("illegal_argument_exception", "inner")),
        );
        let v = e.to_json();
        assert_eq!(v["error"]["root_cause"][0]["type"], "illegal_argument_exception");
        assert_eq!(v["error"]["caused_by"]["reason"], "inner");
    }
}
