//! How ES reads JSON values where its parsers expect a scalar: the names of JSON tokens in
//! its parse errors, a value as the text ES sees, its booleans and numbers. A leaf: the
//! request parsers, the gateway and the read APIs all use it, and it uses nothing of the
//! crate.

use serde_json::Value;

/// A number (or numeric string) as f32.
pub fn num_f32(v: &Value) -> Option<f32> {
    match v {
        Value::Number(n) => n.as_f64().map(|f| f as f32),
        Value::String(s) => s.trim().parse::<f32>().ok(),
        _ => None,
    }
}

/// ES boolean parsing: JSON booleans and the strings `"true"`/`"false"`.
pub fn bool_of(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s == "true" => Some(true),
        Value::String(s) if s == "false" => Some(false),
        _ => None,
    }
}

/// The name ES's `XContentParser.Token` gives the token a JSON value starts with, as its
/// parse errors print it (numbers are `VALUE_NUMBER`, booleans `VALUE_BOOLEAN`: ES's
/// names, not Jackson's). The one table for every parser of the crate.
pub fn token_name(v: &Value) -> &'static str {
    match v {
        Value::Object(_) => "START_OBJECT",
        Value::Array(_) => "START_ARRAY",
        Value::String(_) => "VALUE_STRING",
        Value::Number(_) => "VALUE_NUMBER",
        Value::Bool(_) => "VALUE_BOOLEAN",
        Value::Null => "VALUE_NULL",
    }
}

/// A scalar as the string ES would see.
pub fn value_to_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
