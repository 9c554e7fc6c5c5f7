//! The typed members of a hit besides `_source` and `_explanation` (`explain::Expl`):
//! the values of `fields`, the fragments of `highlight`, the values of `sort`, the
//! `_nested` identity and `inner_hits`. The fetch phase builds them; the response writer
//! writes each once, as ES 6.8 prints it.

use super::Hits;
use crate::search::json_out::{self, write_score, Object};
use std::io::Write;

/// Members by name, in the order their names were first inserted: inserting a name
/// again replaces its value in place, as a JSON object keeps one member per name.
#[derive(Debug, Clone, PartialEq)]
pub struct Named<T>(Vec<(String, T)>);

impl<T> Default for Named<T> {
    fn default() -> Self {
        Named(Vec::new())
    }
}

impl<T> Named<T> {
    /// Adds `value` under `name`, replacing (in its place) the value already there.
    pub fn insert(&mut self, name: String, value: T) {
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => *v = value,
            None => self.0.push((name, value)),
        }
    }

    /// Inserts every member of `other`, in its order.
    pub fn extend(&mut self, other: Named<T>) {
        for (name, value) in other.0 {
            self.insert(name, value);
        }
    }

    /// Whether there is no member.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The value under `name`.
    pub fn get(&self, name: &str) -> Option<&T> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The members, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &T)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v))
    }

    /// Writes the members as one object, each value by `write_value`.
    fn write_with(&self, out: &mut Vec<u8>, write_value: impl Fn(&mut Vec<u8>, &T)) {
        let mut o = Object::start(out);
        for (name, value) in &self.0 {
            write_value(o.key(name), value);
        }
        o.end();
    }
}

/// One value of a hit's `fields` entry, as `docvalue_fields`, `stored_fields` and
/// `script_fields` give it.
#[derive(Debug, Clone, PartialEq)]
pub enum HitValue {
    /// A long, integer, short or byte (and a date without a format to print it).
    Long(i64),
    /// A double, float, half or scaled float: written as serde_json writes an `f64`
    /// (shortest round-trip digits; `null` for a value JSON cannot hold).
    Double(f64),
    /// A keyword, an `ip` address, a date printed in its field's format, a script's text.
    Str(String),
    /// A boolean.
    Bool(bool),
    /// A geo point's stored (quantized) latitude and longitude.
    GeoPoint {
        /// Latitude.
        lat: f64,
        /// Longitude.
        lon: f64,
    },
    /// A script field's `null`.
    Null,
    /// A map or list a script field returned as one value. It stays JSON: its shape is
    /// whatever the script built (maps of lists of maps...), rendered from the script's
    /// heap with its walk bounds (`script::Heap::to_json`), and a hit only writes it.
    Script(serde_json::Value),
}

impl HitValue {
    /// A script's value, rendered as JSON by its runner: scalars typed, maps and lists
    /// kept whole.
    pub fn from_script(v: serde_json::Value) -> HitValue {
        use serde_json::Value as J;
        match v {
            J::Null => HitValue::Null,
            J::Bool(b) => HitValue::Bool(b),
            J::String(s) => HitValue::Str(s),
            J::Number(n) if n.is_f64() => n.as_f64().map_or(HitValue::Script(J::Number(n)), HitValue::Double),
            J::Number(n) => match n.as_i64() {
                Some(i) => HitValue::Long(i),
                // Painless has no unsigned numbers; kept as it came all the same.
                None => HitValue::Script(J::Number(n)),
            },
            other => HitValue::Script(other),
        }
    }

    /// Writes the value at the end of `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            // Writing into a Vec cannot fail.
            HitValue::Long(n) => {
                let _ = write!(out, "{n}");
            }
            HitValue::Double(f) => json_out::double(out, *f),
            HitValue::Str(s) => json_out::string(out, s),
            HitValue::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            HitValue::GeoPoint { lat, lon } => {
                let mut o = Object::start(out);
                json_out::double(o.key("lat"), *lat);
                json_out::double(o.key("lon"), *lon);
                o.end();
            }
            HitValue::Null => out.extend_from_slice(b"null"),
            HitValue::Script(v) => json_out::value(out, v),
        }
    }
}

/// A hit's `fields`: each field's values.
pub type HitFields = Named<Vec<HitValue>>;

/// A hit's `highlight`: each field's fragments.
pub type Highlight = Named<Vec<String>>;

/// Writes `fields`.
pub(crate) fn write_fields(out: &mut Vec<u8>, fields: &HitFields) {
    fields.write_with(out, |out, values| {
        out.push(b'[');
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            v.write(out);
        }
        out.push(b']');
    });
}

/// Writes `highlight`.
pub(crate) fn write_highlight(out: &mut Vec<u8>, highlight: &Highlight) {
    highlight.write_with(out, |out, fragments| write_strings(out, fragments));
}

fn write_strings(out: &mut Vec<u8>, strings: &[String]) {
    out.push(b'[');
    for (i, s) in strings.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        json_out::string(out, s);
    }
    out.push(b']');
}

/// One value of a hit's `sort`, as ES prints the sort key it compared.
#[derive(Debug, Clone, PartialEq)]
pub enum SortShown {
    /// A long, a date's milliseconds, a boolean as 0/1, a document number, or the
    /// `Long.MIN_VALUE`/`MAX_VALUE` a missing value sorted as.
    Long(i64),
    /// A double (a finite one: the others are [`SortShown::Str`], as Jackson quotes them).
    Double(f64),
    /// A score: written as a float, the way `_score` is.
    Score(f32),
    /// A keyword, an `ip` address, `"Infinity"`, `"-Infinity"` or `"NaN"`.
    Str(String),
    /// No value.
    Null,
}

impl SortShown {
    /// The text of a string value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            SortShown::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Writes the value at the end of `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            // Writing into a Vec cannot fail.
            SortShown::Long(n) => {
                let _ = write!(out, "{n}");
            }
            SortShown::Double(f) => json_out::double(out, *f),
            SortShown::Score(f) => write_score(out, Some(*f)),
            SortShown::Str(s) => json_out::string(out, s),
            SortShown::Null => out.extend_from_slice(b"null"),
        }
    }
}

/// Writes `sort`.
pub(crate) fn write_sort(out: &mut Vec<u8>, values: &[SortShown]) {
    out.push(b'[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        v.write(out);
    }
    out.push(b']');
}

/// A nested document's `_nested`: per level, outermost first, its path (relative to the
/// enclosing nested path) and its offset among its parent's objects.
#[derive(Debug, Clone, PartialEq)]
pub struct NestedIdentity(pub Vec<(String, u64)>);

impl NestedIdentity {
    /// Writes `{"field", "offset", "_nested": <the next level>}` (`null` for no level).
    pub fn write(&self, out: &mut Vec<u8>) {
        write_levels(out, &self.0);
    }
}

fn write_levels(out: &mut Vec<u8>, levels: &[(String, u64)]) {
    let Some(((field, offset), inner)) = levels.split_first() else {
        out.extend_from_slice(b"null");
        return;
    };
    let mut o = Object::start(out);
    o.str("field", field);
    o.int("offset", *offset as i64);
    if !inner.is_empty() {
        write_levels(o.key("_nested"), inner);
    }
    o.end();
}

/// A hit's `inner_hits`: each definition's hits, by name.
pub type InnerHits = Named<Hits>;

/// Writes `inner_hits`: `{name: {"hits": ...}}`.
pub(crate) fn write_inner_hits(out: &mut Vec<u8>, inner: &InnerHits) {
    inner.write_with(out, |out, hits| {
        let mut o = Object::start(out);
        hits.write(o.key("hits"));
        o.end();
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn written(write: impl Fn(&mut Vec<u8>)) -> String {
        let mut out = Vec::new();
        write(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn field_values_write_as_their_json_values() {
        let cases = [
            (HitValue::Long(-7), json!(-7)),
            (HitValue::Double(0.1), json!(0.1)),
            (HitValue::Double(1e21), json!(1e21)),
            (HitValue::Double(3.0), json!(3.0)),
            (HitValue::Double(f64::NAN), Value::Null),
            (HitValue::Str("a\"é".into()), json!("a\"é")),
            (HitValue::Bool(false), json!(false)),
            (HitValue::GeoPoint { lat: 41.12, lon: -71.34 }, json!({"lat": 41.12, "lon": -71.34})),
            (HitValue::Null, Value::Null),
            (HitValue::Script(json!({"a": [1, "b"]})), json!({"a": [1, "b"]})),
        ];
        for (v, j) in cases {
            assert_eq!(written(|o| v.write(o)), j.to_string(), "{v:?}");
        }
    }

    #[test]
    fn script_values_keep_their_number_kinds() {
        assert_eq!(HitValue::from_script(json!(3)), HitValue::Long(3));
        assert_eq!(HitValue::from_script(json!(3.0)), HitValue::Double(3.0));
        assert_eq!(HitValue::from_script(json!("x")), HitValue::Str("x".into()));
        assert_eq!(HitValue::from_script(json!([1])), HitValue::Script(json!([1])));
        assert_eq!(HitValue::from_script(Value::Null), HitValue::Null);
    }

    #[test]
    fn named_members_replace_in_place() {
        let mut f = HitFields::default();
        f.insert("b".into(), vec![HitValue::Long(1)]);
        f.insert("a".into(), vec![HitValue::Bool(true)]);
        f.insert("b".into(), vec![HitValue::Str("x".into()), HitValue::Long(2)]);
        assert_eq!(written(|o| write_fields(o, &f)), r#"{"b":["x",2],"a":[true]}"#);
        let mut h = Highlight::default();
        h.insert("t".into(), vec!["<em>a</em> b".into()]);
        assert_eq!(written(|o| write_highlight(o, &h)), r#"{"t":["<em>a</em> b"]}"#);
    }

    #[test]
    fn sort_values_print_as_their_json_values() {
        use crate::search::json_out::score_json;
        let cases = [
            (SortShown::Long(i64::MAX), json!(i64::MAX)),
            (SortShown::Long(i64::MIN), json!(i64::MIN)),
            (SortShown::Double(2.5), json!(2.5)),
            (SortShown::Double(1e300), json!(1e300)),
            (SortShown::Double(-0.0), json!(-0.0)),
            (SortShown::Score(1.2345679), score_json(1.2345679)),
            (SortShown::Score(f32::NAN), Value::Null),
            (SortShown::Str("Infinity".into()), json!("Infinity")),
            (SortShown::Null, Value::Null),
        ];
        let (shown, values): (Vec<SortShown>, Vec<Value>) = cases.into_iter().unzip();
        assert_eq!(written(|o| write_sort(o, &shown)), Value::Array(values).to_string());
        // Outside [1e-3, 1e7) a score is Java's scientific form, which no `Value` prints.
        assert_eq!(written(|o| write_sort(o, &[SortShown::Score(1e-7)])), "[1.0E-7]");
    }

    #[test]
    fn nested_identities_nest_outermost_first() {
        let id = NestedIdentity(vec![("a".into(), 1), ("b.c".into(), 0)]);
        assert_eq!(written(|o| id.write(o)), r#"{"field":"a","offset":1,"_nested":{"field":"b.c","offset":0}}"#);
        assert_eq!(written(|o| NestedIdentity(Vec::new()).write(o)), "null");
    }
}
