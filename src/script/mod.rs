//! Painless, the scripting language of ES 6.8's searches: the subset search scripts use.
//!
//! A request's `script` objects are parsed once, when the request is ([`Script::parse`]:
//! `source`/`inline`, `lang`, `params`; `"lang": "expression"` compiles a Lucene
//! expression instead, see `expression`; `id` and other languages answer ES's errors);
//! the compiled tree is then run per document ([`Script::run`]) against a [`Host`] that
//! gives `doc`, `_score`, `_value` and `params._source` in the context that allows them.
//! A compile error is kept and raised when the search reaches an index, as ES raises it
//! on the shard (`search_phase_execution_exception` over `script_exception`).
//!
//! Layout: `lexer` (text → tokens with byte offsets), `parser` (→ `ast`, bounded depth),
//! `value` (values and the per-run heap with its bounds), `time` (dates and times as
//! date doc values give them), `ops` (Java operators and
//! casts), `api` (the allow-listed Java methods), `interp` (statements, the loop counter,
//! budget looks), `lambda` (lambdas, method references, script functions and the
//! methods taking them), `regex` (regex literals, `=~`, `Pattern`, `Matcher`; off unless
//! enabled), `exceptions` (`try`/`catch`/`throw`), `stream` (`list.stream()` pipelines), `format` (Java's number-to-string),
//! `error` (ES's error shapes).

pub mod api;
pub mod ast;
pub mod error;
pub mod exceptions;
pub mod expression;
pub mod fast;
pub mod format;
pub mod geo;
pub mod interp;
pub mod lambda;
pub mod lexer;
pub mod moving_functions;
pub mod ops;
pub mod parser;
pub mod regex;
pub mod stream;
pub mod time;
pub mod value;

pub use error::Halt;
pub use interp::Host;
pub use value::{DocKind, DocValues, Heap, Value};

use crate::error::{Error, Exception, Result};
use std::sync::Arc;

/// A script of a request, compiled.
#[derive(Clone)]
pub struct Script {
    /// Its source text.
    pub source: String,
    /// Its `params` (an object).
    pub params: serde_json::Value,
    compiled: std::result::Result<Arc<parser::Parsed>, error::CompileError>,
    /// The numeric fast path's form of it, when it is one numeric expression.
    fast: Option<Arc<fast::Fast>>,
    /// A Lucene expression (`"lang": "expression"`) instead of Painless: compiled, or
    /// the compiler's error.
    expression: Option<Arc<std::result::Result<expression::Expression, expression::ParseError>>>,
}

impl std::fmt::Debug for Script {
    /// The source and params (the compiled tree would only repeat them, at length).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Script").field("source", &self.source).field("params", &self.params).finish()
    }
}

impl PartialEq for Script {
    /// Scripts are equal when their source and params are (a query's identity).
    fn eq(&self, other: &Script) -> bool {
        self.source == other.source && self.params == other.params && self.is_expression() == other.is_expression()
    }
}

/// `illegal_argument_exception` as ES's `Script` parser raises it (a request error).
fn script_parse_error(reason: impl Into<String>) -> Error {
    Error::new(400, Exception::new("parsing_exception", reason))
}

impl Script {
    /// Parses ES's `script` value (a string, or an object with `source`/`inline`, `lang`,
    /// `params`, `options`) and compiles it.
    pub fn parse(v: &serde_json::Value) -> Result<Script> {
        let (source, params) = match v {
            serde_json::Value::String(s) => (s.clone(), serde_json::Value::Object(Default::default())),
            serde_json::Value::Object(o) => {
                let mut source = None;
                let mut lang = None;
                let mut params = serde_json::Value::Object(Default::default());
                for (k, x) in o {
                    match k.as_str() {
                        "source" | "inline" => match x {
                            serde_json::Value::String(s) => source = Some(s.clone()),
                            _ => return Err(script_parse_error(format!("[script] failed to parse field [{k}]"))),
                        },
                        "lang" => lang = x.as_str().map(str::to_string),
                        "params" => {
                            if !x.is_object() {
                                return Err(script_parse_error("[script] failed to parse field [params]"));
                            }
                            params = x.clone();
                        }
                        "options" => {}
                        "id" | "stored" | "file" => {
                            let id = x.as_str().unwrap_or_default();
                            return Err(Error::new(
                                404,
                                Exception::new(
                                    "resource_not_found_exception",
                                    format!("unable to find script [{id}] in cluster state"),
                                ),
                            ));
                        }
                        other => {
                            return Err(script_parse_error(format!(
                                "[script] unknown field [{other}], parser not found"
                            )))
                        }
                    }
                }
                let expression = lang.as_deref() == Some("expression");
                if let Some(lang) = lang.filter(|l| l != "painless" && l != "expression") {
                    return Err(Error::illegal_argument(format!("script_lang not supported [{lang}]")));
                }
                let Some(source) = source else {
                    return Err(Error::illegal_argument(
                        "must specify either [source] for an inline script or [id] for a stored script",
                    ));
                };
                if expression {
                    return Ok(Script::compile_expression(&source, params));
                }
                (source, params)
            }
            _ => return Err(script_parse_error("[script] unexpected token, expected a string or an object")),
        };
        Ok(Script::compile(&source, params))
    }

    /// `source` compiled as a Lucene expression, with `params`.
    pub fn compile_expression(source: &str, params: serde_json::Value) -> Script {
        Script {
            source: source.to_string(),
            params,
            compiled: Err(error::CompileError::new(0, "illegal_state_exception", "not a painless script")),
            fast: None,
            expression: Some(Arc::new(expression::Expression::compile(source))),
        }
    }

    /// Whether the script is a Lucene expression (`"lang": "expression"`).
    pub fn is_expression(&self) -> bool {
        self.expression.is_some()
    }

    /// The compiled expression of an expression script (`None` for Painless, or when
    /// it did not compile: [`Script::check`] raises that).
    pub fn expression(&self) -> Option<&expression::Expression> {
        self.expression.as_deref().and_then(|e| e.as_ref().ok())
    }

    /// The same script (same language) with other `params`.
    pub fn with_params(&self, params: serde_json::Value) -> Script {
        match &self.expression {
            Some(e) => Script { params, expression: Some(e.clone()), ..self.clone() },
            None => Script::compile(&self.source, params),
        }
    }

    /// The error ES 6.8 gives compiling an expression for a context its expression
    /// engine does not handle (`None` for Painless).
    pub fn unsupported_context(&self, context: &str) -> Option<Error> {
        self.is_expression().then(|| {
            Error::illegal_argument(format!("expression engine does not know how to handle script context [{context}]"))
        })
    }

    /// The same script compiled where the context defines the variables `locals` (see
    /// [`parser::parse_with_locals`]); it runs with [`Script::run_resumed`].
    pub fn with_locals(&self, locals: &[&str]) -> Script {
        let compiled = parser::parse_with_locals(&self.source, locals).map(Arc::new);
        Script { source: self.source.clone(), params: self.params.clone(), compiled, fast: None, expression: None }
    }

    /// Runs the script on `heap` as the previous run left it (nothing is freed between
    /// runs: the heap's bounds hold for all of them), with its context variables set to
    /// `locals`.
    pub fn run_resumed<H: Host>(
        &self,
        heap: &mut Heap,
        host: &mut H,
        locals: &[Value],
    ) -> std::result::Result<Value, Halt> {
        let Ok(p) = &self.compiled else { return Ok(Value::Null) };
        if p.regex_at.is_some() {
            if let Some(e) = regex_failure(p) {
                return Err(Halt::at(e.offset, e.kind, e.message));
            }
        }
        let mut run =
            interp::Run::resume(heap, host, &self.params, &p.doc_fields, p.slots, locals).with_functions(&p.functions);
        run.run(&p.body)
    }

    /// Compiles `source` with `params`.
    pub fn compile(source: &str, params: serde_json::Value) -> Script {
        let compiled = parser::parse(source).map(Arc::new);
        let fast = compiled.as_ref().ok().and_then(|p| {
            let expr = match p.body.as_slice() {
                [ast::Stmt { kind: ast::StmtKind::Expr(e), .. }] => e,
                [ast::Stmt { kind: ast::StmtKind::Return(Some(e)), .. }] => e,
                _ => return None,
            };
            fast::compile(expr, &params, &p.doc_fields).map(Arc::new)
        });
        Script { source: source.to_string(), params, compiled, fast, expression: None }
    }

    /// The compile error as the search on `index` raises it, or the program.
    fn program(&self, index: Option<&str>) -> Result<&parser::Parsed> {
        let failed =
            |e: &error::CompileError| Err(error::search_failure(index, error::compile_exception(&self.source, e)));
        match &self.compiled {
            Ok(p) => match regex_failure(p) {
                Some(e) => failed(&e),
                None => Ok(p),
            },
            Err(e) => failed(e),
        }
    }

    /// Fails as the search on `index` fails when the script does not compile.
    pub fn check(&self, index: Option<&str>) -> Result<()> {
        if let Some(e) = &self.expression {
            return match e.as_ref() {
                Ok(_) => Ok(()),
                Err(p) => Err(error::search_failure(index, expression::errors::compile_exception(&self.source, p))),
            };
        }
        self.program(index).map(|_| ())
    }

    /// The field names `doc['name']` reads with literal names, by field number (what
    /// [`Host::doc_first`] is asked for).
    pub fn doc_fields(&self) -> &[String] {
        match &self.compiled {
            Ok(p) => &p.doc_fields,
            Err(_) => &[],
        }
    }

    /// Whether the script reads `_score` (a context computes scores for it only then).
    pub fn reads_score(&self) -> bool {
        if let Some(e) = &self.expression {
            return e.as_ref().as_ref().is_ok_and(|e| e.variables.iter().any(|v| v == "_score"));
        }
        self.compiled.as_ref().is_ok_and(|p| p.reads_score)
    }

    /// Runs the script for one document. `heap` is reused between runs.
    ///
    /// An expression runs here as a bucket script does in ES 6.8 (`bucket_script`,
    /// `bucket_selector`): each of `params` sets the variable of its name, which must
    /// exist and be a number; document contexts run expressions through
    /// `search::script_host`, which links their variables to the index.
    pub fn run<H: Host>(&self, heap: &mut Heap, host: &mut H) -> std::result::Result<Value, Halt> {
        if let Some(e) = &self.expression {
            return match e.as_ref() {
                Ok(e) => expression::errors::run_with_params(e, &self.params).map(Value::Double),
                Err(_) => Ok(Value::Null),
            };
        }
        let Ok(p) = &self.compiled else { return Ok(Value::Null) };
        if let Some(v) = self.fast.as_ref().and_then(|f| f.eval(host, heap)) {
            return Ok(v);
        }
        if p.regex_at.is_some() {
            if let Some(e) = regex_failure(p) {
                return Err(Halt::at(e.offset, e.kind, e.message));
            }
        }
        let mut run = interp::Run::new(heap, host, &self.params, &p.doc_fields, p.slots).with_functions(&p.functions);
        run.run(&p.body)
    }

    /// The error a halted run becomes in a search over `index`: the runtime
    /// `script_exception` as a shard failure, or the cancellation.
    pub fn failure(&self, index: Option<&str>, halt: &Halt) -> Error {
        match self.runtime_exception(halt) {
            Some(e) => error::search_failure(index, e),
            None => Error::cancelled(),
        }
    }

    /// The `script_exception` of a script that does not compile here (a regex where
    /// regexes are disabled included), as ES raises it outside a search.
    pub fn compile_exception(&self) -> Option<Exception> {
        if let Some(e) = &self.expression {
            return e.as_ref().as_ref().err().map(|p| expression::errors::compile_exception(&self.source, p));
        }
        match &self.compiled {
            Ok(p) => regex_failure(p).map(|e| error::compile_exception(&self.source, &e)),
            Err(e) => Some(error::compile_exception(&self.source, e)),
        }
    }

    /// The compile error of a script naming a context variable (`doc`, `_score`,
    /// `_value`, `values`) outside `defined`, as Painless refuses it in a context without
    /// that variable: the first such name in the source.
    pub fn undefined_variable(&self, defined: &[&str]) -> Option<Exception> {
        let p = self.compiled.as_ref().ok()?;
        let (name, offset) =
            p.context_variables.iter().filter(|(n, _)| !defined.contains(n)).min_by_key(|(_, offset)| *offset)?;
        let e = error::CompileError::new(
            *offset,
            "illegal_argument_exception",
            format!("Variable [{name}] is not defined."),
        );
        Some(error::compile_exception(&self.source, &e))
    }

    /// The runtime `script_exception` of a halted run (`None`: it was cancelled or timed
    /// out).
    pub fn runtime_exception(&self, halt: &Halt) -> Option<Exception> {
        if self.is_expression() {
            return match halt {
                Halt::Error(e) => Some(Exception::new(e.kind, e.message.clone().unwrap_or_default())),
                Halt::Cancelled | Halt::TimedOut => None,
            };
        }
        match halt {
            Halt::Error(e) => {
                let statements = self.compiled.as_ref().map(|p| p.statements.as_slice()).unwrap_or(&[]);
                Some(error::runtime_exception(&self.source, statements, e))
            }
            Halt::Cancelled | Halt::TimedOut => None,
        }
    }
}

/// The compile error of a program's regexes on this thread: disabled (ES 6.8's
/// default), or a literal that does not compile.
fn regex_failure(p: &parser::Parsed) -> Option<error::CompileError> {
    let at = p.regex_at?;
    if !regex::enabled() {
        return Some(error::CompileError::new(at, "illegal_state_exception", parser::REGEX_DISABLED));
    }
    p.regex_error.clone()
}

/// A host with no document: scripts that read `doc`, `_score` or `_source` fail (tests,
/// the Java oracle comparison, constant scripts).
#[derive(Debug, Default)]
pub struct NoDocument;

impl Host for NoDocument {
    fn doc_values(&mut self, name: &str, offset: usize) -> std::result::Result<DocValues, Halt> {
        Err(Halt::at(offset, "illegal_argument_exception", format!("No field found for [{name}] in mapping")))
    }
    fn has_field(&mut self, _name: &str) -> bool {
        false
    }
    fn source(&mut self, offset: usize) -> std::result::Result<serde_json::Value, Halt> {
        Err(Halt::null_pointer(offset))
    }
    fn score(&mut self, offset: usize) -> std::result::Result<f64, Halt> {
        Err(Halt::at(offset, "illegal_argument_exception", "Variable [_score] is not defined."))
    }
    fn value(&mut self, offset: usize) -> std::result::Result<Value, Halt> {
        Err(Halt::at(offset, "illegal_argument_exception", "Variable [_value] is not defined."))
    }
}

/// Evaluates `source` without a document, regexes enabled, and renders its value as
/// Java's `String.valueOf` would (the Java comparison tests and examples use it).
pub fn eval_to_string(source: &str) -> std::result::Result<String, String> {
    let _regex = regex::allow(true);
    let script = Script::compile(source, serde_json::json!({}));
    let compiled = match &script.compiled {
        Ok(p) => regex_failure(p).map_or(Ok(()), Err),
        Err(e) => Err(e.clone()),
    };
    if let Err(e) = compiled {
        return Err(format!("{}: {}", e.kind, e.message));
    }
    let mut heap = Heap::default();
    match script.run(&mut heap, &mut NoDocument) {
        Ok(v) => Ok(heap.to_string(&v, 0)),
        Err(Halt::Error(e)) => Err(format!("{}: {}", e.kind, e.message.unwrap_or_else(|| "null".into()))),
        Err(other) => Err(format!("{other:?}")),
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_functions;
