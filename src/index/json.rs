//! A loaded document as parsed for indexing: a JSON tree whose strings borrow from the
//! source line when they hold no escapes, and whose objects are lists of members, so a
//! document costs a few vectors rather than a string and a hash map entry per value.
//!
//! It reads what `serde_json::Value` reads (the same parser, errors and numbers) and
//! keeps `Value`'s meaning of a repeated member name: the first position, the last value.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::fmt;

/// A JSON value of a document.
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as `serde_json` reads it.
    Number(Number),
    /// A string.
    Str(Cow<'a, str>),
    /// An array.
    Array(Vec<Json<'a>>),
    /// An object's members in order.
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

impl<'a> Json<'a> {
    /// Parses one JSON text.
    pub fn parse(bytes: &'a [u8]) -> serde_json::Result<Json<'a>> {
        serde_json::from_slice(bytes)
    }

    /// The members of an object, each name once (at its first place, with its last value).
    pub fn members(&self) -> Option<impl Iterator<Item = (&str, &Json<'a>)>> {
        let Json::Object(members) = self else { return None };
        Some(members.iter().enumerate().filter_map(|(i, (name, _))| {
            if members[..i].iter().any(|(earlier, _)| earlier == name) {
                return None;
            }
            let last = members[i..].iter().rev().find(|(n, _)| n == name).map_or(&members[i].1, |(_, v)| v);
            Some((name.as_ref(), last))
        }))
    }

    /// The value as a `serde_json::Value` (what the tests compare, and what a geo
    /// point's reader takes).
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::Str(s) => Value::String(s.to_string()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(_) => Value::Object(
                self.members().into_iter().flatten().map(|(k, v)| (k.to_string(), v.to_value())).collect(),
            ),
        }
    }
}

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json<'de>, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Json<'de>, E> {
        Ok(Number::from_f64(f).map_or(Json::Null, Json::Number))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::Str(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json<'de>, E> {
        Ok(Json::Str(Cow::Owned(s.to_string())))
    }

    fn visit_string<E>(self, s: String) -> Result<Json<'de>, E> {
        Ok(Json::Str(Cow::Owned(s)))
    }

    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json<'de>, D::Error> {
        Deserialize::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(name) = map.next_key::<Name<'de>>()? {
            members.push((name.0, map.next_value()?));
        }
        Ok(Json::Object(members))
    }
}

/// A member name, borrowed when it holds no escapes.
struct Name<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Name<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Name<'de>, D::Error> {
        struct NameVisitor;
        impl<'de> Visitor<'de> for NameVisitor {
            type Value = Name<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }

            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Borrowed(s)))
            }

            fn visit_str<E: de::Error>(self, s: &str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Owned(s.to_string())))
            }

            fn visit_string<E>(self, s: String) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Owned(s)))
            }
        }
        deserializer.deserialize_str(NameVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_value_reads() {
        for text in [
            r#"{"a":1,"b":[true,null,-2,3.5e10,"x\"y"],"c":{"d":"é\u00e9"},"e":18446744073709551615,"f":1e-7}"#,
            r#"{"a":1,"b":2,"a":3}"#,
            r#"[]"#,
            r#""\ud83d\ude00""#,
            r#"{"k":{},"k":{"x":[1,{"k":2,"k":[3]}]}}"#,
        ] {
            let v: Value = serde_json::from_str(text).unwrap();
            assert_eq!(Json::parse(text.as_bytes()).unwrap().to_value(), v, "{text}");
            // Same text back, member order and numbers included.
            assert_eq!(Json::parse(text.as_bytes()).unwrap().to_value().to_string(), v.to_string());
        }
    }

    #[test]
    fn fails_where_value_fails_with_the_same_message() {
        for text in [r#"{"a":}"#, r#"{"a":1"#, "1e400", "[1,]", "", r#"{"a" 1}"#, "\"\\x\""] {
            let v = serde_json::from_str::<Value>(text).unwrap_err().to_string();
            assert_eq!(Json::parse(text.as_bytes()).unwrap_err().to_string(), v, "{text}");
        }
    }

    #[test]
    fn strings_without_escapes_are_borrowed() {
        let Json::Object(m) = Json::parse(br#"{"name":"plain","esc\"aped":"a\nb"}"#).unwrap() else { panic!() };
        assert!(matches!(&m[0].0, Cow::Borrowed("name")));
        assert!(matches!(&m[0].1, Json::Str(Cow::Borrowed("plain"))));
        assert!(matches!(&m[1].0, Cow::Owned(n) if n == "esc\"aped"));
        assert!(matches!(&m[1].1, Json::Str(Cow::Owned(s)) if s == "a\nb"));
    }
}
