//! The body of ES 6.8's Painless execute API (`_scripts/painless/_execute`): `script`,
//! `context` (`painless_test`, the default, `filter` or `score`) and `context_setup`
//! (`index`, `document`, `query`), read as ES's `painless_execute_request` object parser
//! reads it, with its errors.

use crate::error::{Error, Exception, Result};
use crate::json_value::token_name;
use crate::query::dsl::DslParser;
use crate::query::Query;
use crate::script::Script;
use serde_json::{Map, Value};

/// The parser's name in ES's errors.
const PARSER: &str = "painless_execute_request";

/// Where a script runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExecuteContext {
    /// `painless_test`: `params` only; the result as Java's `Objects.toString`.
    PainlessTest,
    /// `filter`: a boolean over the setup's document.
    Filter,
    /// `score`: a double over the setup's document, `_score` from the setup's query.
    Score,
}

/// `context_setup`.
#[derive(Debug, Clone, Default)]
pub struct ContextSetup {
    /// The index whose mapping parses the document.
    pub index: Option<String>,
    /// The document (an object).
    pub document: Option<Value>,
    /// The query that scores the document (`score`).
    pub query: Option<Query>,
}

/// A Painless execute request.
#[derive(Debug, Clone)]
pub struct PainlessExecute {
    /// The inline script, compiled.
    pub script: Script,
    /// The context.
    pub context: ExecuteContext,
    /// `context_setup`, if given.
    pub setup: Option<ContextSetup>,
}

/// `x_content_parse_exception` (an `IllegalArgumentException`: 400), caused by `cause`.
fn content_error(reason: String, cause: Option<Exception>) -> Error {
    let mut e = Exception::new("x_content_parse_exception", reason);
    if let Some(c) = cause {
        e = e.caused_by(c);
    }
    let root = Exception::new("x_content_parse_exception", e.reason.clone());
    Error::new(400, e).with_root_causes(vec![root])
}

/// The error of a field whose parser failed: ES's object parser wraps it.
fn field_error(parser: &str, field: &str, inner: Error) -> Error {
    content_error(format!("[{parser}] failed to parse field [{field}]"), Some(inner.exception))
}

/// ES's object parser refusing a value of the wrong JSON type.
fn wrong_type(parser: &str, field: &str, v: &Value) -> Error {
    content_error(format!("[{parser}] {field} doesn't support values of type: {}", token_name(v)), None)
}

fn unknown_field(parser: &str, field: &str) -> Error {
    content_error(format!("[{parser}] unknown field [{field}], parser not found"), None)
}

/// The action's validation errors (`Validation Failed: 1: …;`).
fn validation(messages: &[&str]) -> Error {
    let listed: String = messages.iter().enumerate().map(|(i, m)| format!("{}: {m};", i + 1)).collect();
    Error::new(400, Exception::new("action_request_validation_exception", format!("Validation Failed: {listed}")))
}

impl ExecuteContext {
    fn named(name: &str) -> Option<ExecuteContext> {
        match name {
            "painless_test" => Some(ExecuteContext::PainlessTest),
            "filter" => Some(ExecuteContext::Filter),
            "score" => Some(ExecuteContext::Score),
            _ => None,
        }
    }
}

impl PainlessExecute {
    /// Parses and validates a request body (`raw`, JSON text; empty when none was sent).
    pub fn parse(raw: &str) -> Result<PainlessExecute> {
        if raw.trim().is_empty() {
            return Err(Error::new(
                400,
                Exception::new("parse_exception", "request body or source parameter is required"),
            ));
        }
        let body: Value = serde_json::from_str(raw).map_err(|e| Error::json_parse(super::json_error_text(&e)))?;
        let Value::Object(members) = &body else {
            return Err(Error::parsing_no_pos(format!("Expected [START_OBJECT] but found [{}]", token_name(&body))));
        };
        let mut script: Option<std::result::Result<Script, Error>> = None;
        let mut stored = false;
        let mut context: Option<String> = None;
        let mut setup: Option<ContextSetup> = None;
        // ES builds the request when the last of its three arguments arrives, or at the
        // end; an unknown context fails that build, inside the field being parsed if any.
        let mut last_of_three: Option<&str> = None;
        for (k, v) in members {
            match k.as_str() {
                "script" => {
                    if !v.is_object() {
                        return Err(wrong_type(PARSER, k, v));
                    }
                    // A stored script parses; the validation refuses it. A language
                    // other than Painless fails later, when the script compiles.
                    stored = v.get("id").or_else(|| v.get("stored")).is_some();
                    script = Some(match Script::parse(v) {
                        Err(e) if stored => Err(e),
                        Err(e) if e.reason().starts_with("script_lang not supported") => Err(e),
                        Err(e) => return Err(field_error(PARSER, k, e)),
                        Ok(s) => Ok(s),
                    });
                }
                "context" => match v {
                    Value::String(s) => context = Some(s.clone()),
                    other => return Err(wrong_type(PARSER, k, other)),
                },
                "context_setup" => {
                    setup = Some(parse_setup(raw, v).map_err(|e| field_error(PARSER, k, e))?);
                }
                other => return Err(unknown_field(PARSER, other)),
            }
            if script.is_some() && context.is_some() && setup.is_some() && last_of_three.is_none() {
                last_of_three = Some(k.as_str());
            }
        }
        let Some(script) = script else {
            return Err(Error::illegal_argument("Required [script]"));
        };
        let context = match context.as_deref() {
            None => ExecuteContext::PainlessTest,
            Some(name) => ExecuteContext::named(name).ok_or_else(|| {
                let cause = Exception::new(
                    "unsupported_operation_exception",
                    format!("unsupported script context name [{name}]"),
                );
                let built =
                    content_error(format!("Failed to build [{PARSER}] after last required field arrived"), Some(cause));
                match last_of_three {
                    Some(field) => field_error(PARSER, field, built),
                    None => built,
                }
            })?,
        };
        let mut failures: Vec<&str> = Vec::new();
        if stored {
            failures.push("only inline scripts are supported");
        }
        if context != ExecuteContext::PainlessTest {
            // ES's validation reads the setup without looking for it: a filter or score
            // context without one fails with a `NullPointerException`.
            let Some(s) = &setup else {
                return Err(Error::new(500, Exception::new("null_pointer_exception", "").with_null_reason()));
            };
            if s.index.is_none() {
                failures.push("index is a required parameter for current context");
            }
            if s.document.is_none() {
                failures.push("document is a required parameter for current context");
            }
        }
        if !failures.is_empty() {
            return Err(validation(&failures));
        }
        let script = script?;
        Ok(PainlessExecute { script, context, setup })
    }
}

/// `context_setup` (ES's `execute_script_context` parser).
fn parse_setup(raw: &str, v: &Value) -> Result<ContextSetup> {
    const SETUP: &str = "execute_script_context";
    let Value::Object(members) = v else {
        return Err(wrong_type(PARSER, "context_setup", v));
    };
    let mut setup = ContextSetup::default();
    for (k, x) in members as &Map<String, Value> {
        match k.as_str() {
            "index" => match x {
                Value::String(s) => setup.index = Some(s.clone()),
                other => return Err(wrong_type(SETUP, k, other)),
            },
            "document" => {
                if !x.is_object() {
                    return Err(wrong_type(SETUP, k, x));
                }
                setup.document = Some(x.clone());
            }
            "query" => {
                if !x.is_object() {
                    return Err(wrong_type(SETUP, k, x));
                }
                let q = DslParser::new(raw).parse(x).map_err(|e| field_error(SETUP, k, e))?;
                setup.query = Some(q);
            }
            other => return Err(unknown_field(SETUP, other)),
        }
    }
    Ok(setup)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(body: &str) -> Value {
        PainlessExecute::parse(body).unwrap_err().to_json()
    }

    #[test]
    fn defaults_to_painless_test() {
        let r = PainlessExecute::parse(r#"{"script":{"source":"1 + 1"}}"#).unwrap();
        assert_eq!(r.context, ExecuteContext::PainlessTest);
        assert!(r.setup.is_none());
    }

    #[test]
    fn unknown_context_fails_the_build() {
        let e = error(r#"{"script":{"source":"1"},"context":"nope"}"#);
        assert_eq!(e["status"], 400);
        assert_eq!(e["error"]["type"], "x_content_parse_exception");
        assert_eq!(
            e["error"]["reason"],
            "Failed to build [painless_execute_request] after last required field arrived"
        );
        assert_eq!(e["error"]["caused_by"]["type"], "unsupported_operation_exception");
        assert_eq!(e["error"]["caused_by"]["reason"], "unsupported script context name [nope]");
        assert_eq!(e["error"]["root_cause"][0]["type"], "x_content_parse_exception");
        // With all three arguments, the build happens inside the last one's field.
        let e = error(r#"{"context":"nope","script":{"source":"1"},"context_setup":{"index":"i"}}"#);
        assert_eq!(e["error"]["reason"], "[painless_execute_request] failed to parse field [context_setup]");
        assert_eq!(e["error"]["caused_by"]["caused_by"]["reason"], "unsupported script context name [nope]");
    }

    #[test]
    fn document_contexts_need_index_and_document() {
        let e = error(r#"{"script":{"source":"true"},"context":"filter","context_setup":{}}"#);
        assert_eq!(e["error"]["type"], "action_request_validation_exception");
        assert_eq!(
            e["error"]["reason"],
            "Validation Failed: 1: index is a required parameter for current context;2: document is a required parameter for current context;"
        );
        let e = error(r#"{"script":{"source":"true"},"context":"score"}"#);
        assert_eq!(e["status"], 500);
        assert_eq!(e["error"]["type"], "null_pointer_exception");
        assert_eq!(e["error"]["reason"], Value::Null);
    }

    #[test]
    fn bad_input() {
        assert_eq!(error("")["error"]["type"], "parse_exception");
        assert_eq!(error(r#"{"context":"filter"}"#)["error"]["reason"], "Required [script]");
        assert_eq!(
            error(r#"{"script":{"source":"1"},"bogus":1}"#)["error"]["reason"],
            "[painless_execute_request] unknown field [bogus], parser not found"
        );
        assert_eq!(
            error(r#"{"script":"1"}"#)["error"]["reason"],
            "[painless_execute_request] script doesn't support values of type: VALUE_STRING"
        );
        assert_eq!(
            error(r#"{"script":{"id":"s"}}"#)["error"]["reason"],
            "Validation Failed: 1: only inline scripts are supported;"
        );
    }
}
