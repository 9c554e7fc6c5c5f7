//! ES 6.8's errors of expressions: the `script_exception`s of `convertToScriptException`
//! ("compile error" over the whole source, "link error" over one variable, a pointer
//! under the `ParseException`'s offset, `lang` `expression`), and the bucket scripts'
//! parameter errors.

use super::binding::LinkError;
use super::{Expression, ParseError};
use crate::error::Exception;
use crate::script::Halt;

/// `convertToScriptException(message, source, portion, cause)`.
fn script_exception(reason: &str, source: &str, portion: &str, offset: Option<usize>, cause: Exception) -> Exception {
    let pointer = format!("{}^---- HERE", " ".repeat(offset.unwrap_or(0)));
    Exception::new("script_exception", reason)
        .with_meta("script_stack", vec![portion.to_string(), pointer])
        .with_meta("script", source)
        .with_meta("lang", "expression")
        .caused_by(cause)
}

/// The exception an expression that does not compile raises: a `ParseException` as
/// ES's "compile error"; a `NumberFormatException` (an overflowing hex or octal
/// literal) escapes the engine's handler as itself.
pub fn compile_exception(source: &str, e: &ParseError) -> Exception {
    match e.java_kind {
        Some(kind) => Exception::new(kind, e.message.clone()),
        None => script_exception(
            "compile error",
            source,
            source,
            Some(e.offset),
            Exception::new("parse_exception", e.message.clone()),
        ),
    }
}

/// The exception a variable that does not link raises.
pub fn link_exception(source: &str, e: &LinkError) -> Exception {
    script_exception("link error", source, &e.variable, e.offset, Exception::new(e.kind, e.message.clone()))
}

/// What `Expression.toString()` prints in the bucket scripts' errors: the generated
/// class and an identity hash (Java's is arbitrary; this one is the source's hash).
pub fn java_object_name(e: &Expression) -> String {
    let hash = e.variables.iter().fold(e.variables.len() as u32, |h, v| {
        v.encode_utf16().fold(h, |h, c| h.wrapping_mul(31).wrapping_add(u32::from(c)))
    });
    format!("org.apache.lucene.expressions.js.JavascriptCompiler$CompiledExpression@{hash:x}")
}

/// Runs `e` as ES's bucket aggregation scripts do: every parameter sets the variable
/// of its name (which must exist, and be a number); variables without one are 0.
pub fn run_with_params(e: &Expression, params: &serde_json::Value) -> Result<f64, Halt> {
    let mut values = vec![0.0; e.variables.len()];
    if let Some(map) = params.as_object() {
        for (name, value) in map {
            let Some(i) = e.variables.iter().position(|v| v == name) else {
                return Err(Halt::at(
                    0,
                    "illegal_argument_exception",
                    format!(
                        "Error using {}. The variable [{name}] does not exist in the executable expressions script.",
                        java_object_name(e)
                    ),
                ));
            };
            let Some(v) = value.as_f64() else {
                return Err(Halt::at(
                    0,
                    "illegal_argument_exception",
                    format!(
                        "Error using {}. Executable expressions scripts can only process numbers.  The variable [{name}] is not a number.",
                        java_object_name(e)
                    ),
                ));
            };
            values[i] = v;
        }
    }
    Ok(e.evaluate(&values))
}
