//! ES 6.8's Painless execute API (`_scripts/painless/_execute`): a script run once,
//! without a search. `painless_test` runs it with `params` only and answers its value
//! as Java's `Objects.toString` prints it; `filter` and `score` run it over the setup's
//! document as the setup's index would index it (`search::script_document`), answering a
//! boolean or a double. Errors are the script's own `script_exception`s (400), not a
//! search's shard failures.

use crate::engine::Engine;
use crate::error::{Error, Exception, Result};
use crate::request::painless_execute::{ExecuteContext, PainlessExecute};
use crate::script::{Halt, Heap, Host, NoDocument, Script, Value};
use crate::search::script_document::DocumentHost;
use crate::search::script_host::Access;
use serde_json::json;

/// A `script_exception` as the API answers it: its own root cause, since what caused it
/// is a Java exception, not an Elasticsearch one.
fn script_error(e: Exception) -> Error {
    Error::new(400, e.clone()).with_root_causes(vec![e])
}

/// The variables each context defines besides `params`.
fn defined(context: ExecuteContext) -> &'static [&'static str] {
    match context {
        ExecuteContext::PainlessTest => &[],
        ExecuteContext::Filter => &["doc"],
        ExecuteContext::Score => &["doc", "_score"],
    }
}

/// Runs `script` on `host`: its value, or its error as ES answers it.
fn run(script: &Script, host: &mut impl Host, heap: &mut Heap) -> Result<Value> {
    match script.run(heap, host) {
        Ok(v) => Ok(v),
        Err(halt) => match script.runtime_exception(&halt) {
            Some(e) => Err(script_error(e)),
            None => Err(Error::cancelled()),
        },
    }
}

/// A `class_cast_exception` of a result the context cannot return, as the script's
/// runtime error.
fn cast_error(script: &Script, v: &Value, to: &str) -> Error {
    let halt = Halt::at(0, "class_cast_exception", format!("Cannot cast {} to {to}", Heap::class_name(v)));
    match script.runtime_exception(&halt) {
        Some(e) => script_error(e),
        None => Error::cancelled(),
    }
}

impl Engine {
    /// `_scripts/painless/_execute`: `{"result": …}`.
    pub fn painless_execute(&self, req: &PainlessExecute) -> Result<serde_json::Value> {
        let _regex = crate::script::regex::allow(self.script_regex());
        let snap = self.snapshot()?;
        let setup = req.setup.as_ref();
        // The named index is resolved first (a single index or an alias of one), as ES
        // routes the request to its shard.
        let reader = match setup.and_then(|s| s.index.as_deref()) {
            Some(name) => Some(super::docs::single_index(self, &snap, name)?),
            None => None,
        };
        let script = &req.script;
        if script.is_expression() {
            // ES runs the test context's scripts through the expression engine, which
            // refuses it; its filter and score contexts over a document are not served.
            let context = match req.context {
                ExecuteContext::PainlessTest => "painless_test",
                ExecuteContext::Filter => "filter",
                ExecuteContext::Score => "score",
            };
            if let Some(e) = script.unsupported_context(context).filter(|_| context == "painless_test") {
                return Err(e);
            }
            return Err(Error::illegal_argument(format!(
                "lang [expression] in the [{context}] context of _scripts/painless/_execute is not supported"
            )));
        }
        let compiles = || match script.compile_exception().or_else(|| script.undefined_variable(defined(req.context))) {
            Some(e) => Err(script_error(e)),
            None => Ok(()),
        };
        let mut heap = Heap::default();
        if req.context == ExecuteContext::PainlessTest {
            compiles()?;
            let v = run(script, &mut NoDocument, &mut heap)?;
            return Ok(json!({ "result": heap.to_string(&v, 0) }));
        }
        // Validation made sure of both.
        let (Some(reader), Some(document)) = (reader, setup.and_then(|s| s.document.as_ref())) else {
            return Err(Error::illegal_argument("index and document are required parameters for current context"));
        };
        let access = Access { source: true, score: req.context == ExecuteContext::Score, ..Access::default() };
        let mut host = DocumentHost::new(&reader, document, access)?;
        compiles()?;
        if req.context == ExecuteContext::Filter {
            return match run(script, &mut host, &mut heap)? {
                Value::Bool(b) => Ok(json!({ "result": b })),
                other => Err(cast_error(script, &other, "java.lang.Boolean")),
            };
        }
        if setup.is_some_and(|s| s.query.is_some()) {
            return Err(Error::new(
                400,
                Exception::new(
                    "illegal_argument_exception",
                    "[query] of [context_setup] is not supported by metagate: the score context runs without a query (_score is 0.0)",
                ),
            ));
        }
        let v = run(script, &mut host, &mut heap)?;
        match crate::script::ops::Num::of(&v) {
            // Jackson writes a double that is not finite as a string.
            Some(n) if !n.f64().is_finite() => Ok(json!({ "result": crate::json_value::java_double(n.f64()) })),
            Some(n) => Ok(json!({ "result": n.f64() })),
            None => Err(cast_error(script, &v, "java.lang.Double")),
        }
    }
}
