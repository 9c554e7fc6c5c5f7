//! Reading a component's options as ES's `Settings` reads them: every scalar is a string
//! underneath, so `"2"` and `2`, `"true"` and `true` are the same value; integers and
//! booleans are then parsed strictly, with ES's errors.

use crate::error::{Error, Exception};
use serde_json::{Map, Value};

/// The options of one analysis component (its JSON object).
pub struct Options<'a> {
    map: &'a Map<String, Value>,
}

/// ES's text of a scalar setting value.
fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

impl<'a> Options<'a> {
    /// Options of `map`.
    pub fn new(map: &'a Map<String, Value>) -> Self {
        Options { map }
    }

    /// Whether `key` is set.
    pub fn has(&self, key: &str) -> bool {
        self.map.get(key).is_some_and(|v| !v.is_null())
    }

    /// A string setting (a list's first value, as ES's `Settings.get` gives it).
    pub fn string(&self, key: &str) -> Option<String> {
        match self.map.get(key)? {
            Value::Array(a) => a.first().and_then(scalar),
            v => scalar(v),
        }
    }

    /// An int setting, or `default`.
    pub fn int(&self, key: &str, default: i64) -> Result<i64, Error> {
        match self.string(key) {
            None => Ok(default),
            Some(s) => s.trim().parse::<i32>().map(i64::from).map_err(|_| {
                Error::new(
                    500,
                    Exception::new(
                        "settings_exception",
                        format!("Failed to parse int setting [{key}] with value [{s}]"),
                    ),
                )
            }),
        }
    }

    /// A non-negative int setting as a size.
    pub fn size(&self, key: &str, default: usize) -> Result<usize, Error> {
        let v = self.int(key, default as i64)?;
        Ok(v.max(0) as usize)
    }

    /// A boolean setting, `true` or `false` only.
    pub fn boolean(&self, key: &str, default: bool) -> Result<bool, Error> {
        match self.string(key).as_deref() {
            None => Ok(default),
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(other) => Err(Error::illegal_argument(format!(
                "Failed to parse value [{other}] as only [true] or [false] are allowed."
            ))),
        }
    }

    /// A list setting (a single value is a list of one).
    pub fn list(&self, key: &str) -> Option<Vec<String>> {
        match self.map.get(key)? {
            Value::Array(a) => Some(a.iter().filter_map(scalar).collect()),
            Value::Null => None,
            v => scalar(v).map(|s| vec![s]),
        }
    }
}
