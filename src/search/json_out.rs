//! JSON written straight into a byte buffer, member by member, so that a response is
//! never built as a `serde_json::Value` tree first. Strings, doubles and the `Value`s
//! that remain (aggregations, filtered sources, a script field's maps and lists) go
//! through serde_json's serializer, so they come out byte for byte as `Value::to_string`
//! writes them.

use serde_json::Value;

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
