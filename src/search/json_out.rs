//! JSON written straight into a byte buffer, member by member, so that a response is
//! never built as a `serde_json::Value` tree first. Strings, doubles and the `Value`s
//! that remain (aggregations, filtered sources, a script field's maps and lists) go
//! through serde_json's serializer, so they come out byte for byte as `Value::to_string`
//! writes them.

use serde_json::{json, Value};

/// Writes `s` as a JSON string (quoted and escaped as serde_json escapes it).
pub fn string(out: &mut Vec<u8>, s: &str) {
    // Serializing a `str` into a `Vec` cannot fail: no I/O error, no non-string key.
    let _ = serde_json::to_writer(&mut *out, s);
}

/// Writes an `f64` as serde_json writes a number `Value` made from it (shortest
/// round-trip digits), `null` for a value JSON has no token for.
pub fn double(out: &mut Vec<u8>, f: f64) {
    // As `string`: serializing an `f64` into a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut *out, &f);
}

/// Writes a `Value` in compact form.
pub fn value(out: &mut Vec<u8>, v: &Value) {
    // As `string`: a `Value` has string keys only and a `Vec` never refuses bytes.
    let _ = serde_json::to_writer(&mut *out, v);
}

/// One JSON object being written: `{` on start, a comma before every member after the
/// first, `}` on [`Object::end`].
pub struct Object<'a> {
    out: &'a mut Vec<u8>,
    empty: bool,
}

impl<'a> Object<'a> {
    /// Opens an object at the end of `out`.
    pub fn start(out: &'a mut Vec<u8>) -> Object<'a> {
        out.push(b'{');
        Object { out, empty: true }
    }

    /// Writes the member name `key` and returns the buffer for its value, which the
    /// caller must write next (a nested [`Object::start`], [`string`], [`value`], ...).
    pub fn key(&mut self, key: &str) -> &mut Vec<u8> {
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        string(self.out, key);
        self.out.push(b':');
        self.out
    }

    /// A string member.
    pub fn str(&mut self, key: &str, v: &str) {
        string(self.key(key), v);
    }

    /// A member whose value is a `Value`.
    pub fn value(&mut self, key: &str, v: &Value) {
        value(self.key(key), v);
    }

    /// An integer member.
    pub fn int(&mut self, key: &str, n: i64) {
        use std::io::Write;
        // Writing into a `Vec` cannot fail.
        let _ = write!(self.key(key), "{n}");
    }

    /// A boolean member.
    pub fn bool(&mut self, key: &str, b: bool) {
        self.key(key).extend_from_slice(if b { b"true" } else { b"false" });
    }

    /// Closes the object.
    pub fn end(self) {
        self.out.push(b'}');
    }
}

/// A score as a JSON value, for a response built as a `Value` tree (term vectors): the
/// shortest decimal of the f32, `null` for NaN. Within `[1e-3, 1e7)` it prints as ES
/// prints the float; outside, a `Value` cannot hold Java's scientific form, which
/// [`write_score`] writes.
pub fn score_json(score: f32) -> Value {
    if score.is_nan() {
        return Value::Null;
    }
    let shortest: f64 = format!("{score}").parse().unwrap_or(score as f64);
    json!(shortest)
}

/// A score as ES writes it: Jackson writes a float with Java's `Float.toString`, in
/// plain notation for magnitudes in `[1e-3, 1e7)` (`0.5`, `1234567.0`) and in Java's
/// scientific form elsewhere (`1.0E-5`, `3.4028235E38`); `None`, NaN and the infinities
/// are `null`.
///
/// The plain form is written straight from the f32: Rust's shortest digits are Java's
/// there, with `.0` added to a whole number. A response writes one score per hit, where
/// a detour through a `String` would cost more than the rest of the hit.
pub(crate) fn write_score(out: &mut Vec<u8>, score: Option<f32>) {
    use std::io::Write;
    match score {
        Some(s) if s == 0.0 || (1e-3..1e7).contains(&s.abs()) => {
            let start = out.len();
            // Writing into a Vec cannot fail.
            let _ = write!(out, "{s}");
            if !out[start..].contains(&b'.') {
                out.extend_from_slice(b".0");
            }
        }
        Some(s) if s.is_finite() => out.extend_from_slice(crate::json_value::java_float(s).as_bytes()),
        _ => out.extend_from_slice(b"null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn members_as_value_writes_them() {
        let mut out = Vec::new();
        let mut o = Object::start(&mut out);
        o.str("a\"b", "é\u{1}\n");
        o.int("n", -3);
        o.bool("t", true);
        o.value("v", &json!([1.5, null, {"x": "y"}]));
        o.key("r").extend_from_slice(br#"{"k" : 1.0E+2}"#);
        let mut inner = Object::start(o.key("o"));
        inner.int("z", 0);
        inner.end();
        Object::start(o.key("empty")).end();
        o.end();
        assert_eq!(
            String::from_utf8(out).ok(),
            Some(
                r#"{"a\"b":"é\u0001\n","n":-3,"t":true,"v":[1.5,null,{"x":"y"}],"r":{"k" : 1.0E+2},"o":{"z":0},"empty":{}}"#
                    .to_string()
            )
        );
    }
}

#[cfg(test)]
mod score_tests {
    use super::*;
    use crate::json_value::java_float;

    #[test]
    fn scores_write_as_java_writes_floats() {
        let mut specials = vec![0.0f32, -0.0, 1.0, 0.5, 1e-3, 9.99e-4, 1e-7, 1e-5, 1e7, 9_999_999.0, 1e16, 3.4e38];
        specials.extend([f32::MAX, f32::MIN_POSITIVE, 1e-45]);
        // Every bit pattern at a stride, and a dense run of typical BM25 scores.
        let strided = (0..=u32::MAX).step_by(4099).map(f32::from_bits);
        let typical = (0..200_000u32).map(|i| 0.5 + i as f32 * 0.000_123_4);
        for s in specials.into_iter().chain(strided).chain(typical) {
            let mut direct = Vec::new();
            write_score(&mut direct, Some(s));
            let expected = if s.is_finite() { java_float(s) } else { "null".to_string() };
            assert_eq!(String::from_utf8(direct).ok(), Some(expected), "score bits {:#x}", s.to_bits());
        }
        let cases = [(1e-5f32, "1.0E-5"), (f32::MAX, "3.4028235E38"), (5e-4, "5.0E-4"), (1234567.0, "1234567.0")];
        for (s, text) in cases {
            let mut out = Vec::new();
            write_score(&mut out, Some(s));
            assert_eq!(out, text.as_bytes());
        }
        for s in [None, Some(f32::NAN), Some(f32::INFINITY), Some(f32::NEG_INFINITY)] {
            let mut out = Vec::new();
            write_score(&mut out, s);
            assert_eq!(out, b"null");
        }
    }
}
