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

/// Java's `Double.toString`, which ES uses for numbers in texts and keys (`100.0`,
/// `1.5E7`, `1.0E-4`).
pub fn java_double(v: f64) -> String {
    java_layout(v, format!("{v}"), format!("{v:e}"))
}

/// Java's `Float.toString` (explanations print f32 values this way).
pub fn java_float(v: f32) -> String {
    java_layout(v as f64, format!("{v}"), format!("{v:e}"))
}

/// Java's layout from Rust's shortest round-trip digits: plain decimal with at least one
/// fractional digit for magnitudes in [1e-3, 1e7), else one digit, a fraction, `E` and
/// the exponent.
fn java_layout(v: f64, plain: String, scientific: String) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    let with_fraction = |s: &str| if s.contains('.') { s.to_string() } else { format!("{s}.0") };
    if v == 0.0 || (1e-3..1e7).contains(&v.abs()) {
        with_fraction(&plain)
    } else {
        let (mantissa, exp) = scientific.split_once('e').unwrap_or((&scientific, "0"));
        format!("{}E{exp}", with_fraction(mantissa))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_number_forms() {
        assert_eq!(java_double(100.0), "100.0");
        assert_eq!(java_double(1.5), "1.5");
        assert_eq!(java_double(0.0), "0.0");
        assert_eq!(java_double(-2.0), "-2.0");
        assert_eq!(java_double(1.4436576e12), "1.4436576E12");
        assert_eq!(java_double(1e7), "1.0E7");
        assert_eq!(java_double(0.0001), "1.0E-4");
        assert_eq!(java_float(1.2), "1.2");
        assert_eq!(java_float(0.1), "0.1");
        assert_eq!(java_float(f32::NAN), "NaN");
        assert_eq!(java_float(3.0e9), "3.0E9");
    }
}
