//! A text field's `index_prefixes` (ES 6.3+, `TextFieldMapper`'s `PrefixFieldType`):
//! the edge n-grams of each token, `min_chars` to `max_chars` code points long, indexed
//! in a hidden field so that a prefix query of a length in range is one term lookup.

use super::mapper_parsing;
use crate::error::{Error, Exception, Result};
use serde_json::{json, Value};

/// ES's defaults (`TextFieldMapper.Defaults.INDEX_PREFIX_MIN_CHARS` / `MAX_CHARS`).
const DEFAULT_MIN_CHARS: i64 = 2;
const DEFAULT_MAX_CHARS: i64 = 5;

/// The suffix of the hidden field that holds the prefixes.
const SUFFIX: &str = "._index_prefix";

/// The prefix lengths a text field indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexPrefixes {
    /// The shortest prefix indexed, in code points (at least 1).
    pub min_chars: usize,
    /// The longest prefix indexed, in code points (below 20).
    pub max_chars: usize,
}

impl IndexPrefixes {
    /// Reads the parameter's object with ES 6.8's checks and texts.
    pub(super) fn parse(v: &Value) -> Result<IndexPrefixes> {
        let Some(obj) = v.as_object() else {
            return Err(mapper_parsing(format!(
                "[index_prefixes] must be an object, got [{}]",
                super::params::java_string(v)
            )));
        };
        let min = integer(obj.get("min_chars"), DEFAULT_MIN_CHARS)?;
        let max = integer(obj.get("max_chars"), DEFAULT_MAX_CHARS)?;
        // `TextFieldMapper.Builder.indexPrefixes`, in its order.
        if min > max {
            return Err(illegal(format!("min_chars [{min}] must be less than max_chars [{max}]")));
        }
        if min < 1 {
            return Err(illegal(format!("min_chars [{min}] must be greater than zero")));
        }
        if max >= 20 {
            return Err(illegal(format!("max_chars [{max}] must be less than 20")));
        }
        // `DocumentMapperParser.checkNoRemainingFields`, named after the parameter,
        // once the bounds are checked.
        let rest: String = obj
            .iter()
            .filter(|(k, _)| k.as_str() != "min_chars" && k.as_str() != "max_chars")
            .map(|(k, v)| format!(" [{k} : {}]", super::params::java_string(v)))
            .collect();
        if !rest.is_empty() {
            return Err(mapper_parsing(format!(
                "Mapping definition for [index_prefixes] has unsupported parameters: {rest}"
            )));
        }
        Ok(IndexPrefixes { min_chars: min as usize, max_chars: max as usize })
    }

    /// The parameter as `_mapping` prints it (`PrefixFieldType.doXContent`).
    pub fn to_json(self) -> Value {
        json!({"min_chars": self.min_chars, "max_chars": self.max_chars})
    }

    /// The hidden field of the field at `path`. ES 6.8 names it after the field's own
    /// name, not its full path (`Builder.name()`; 7.2.1 changed it), so two text fields
    /// of one leaf name under different objects share it, and so do their prefixes.
    pub fn hidden_field(path: &str) -> String {
        format!("{}{SUFFIX}", super::leaf_name(path))
    }

    /// Whether a prefix of `value` is answered from the prefix field: ES compares its
    /// length in UTF-16 units (`String.length()`) with `min_chars` to `max_chars`.
    /// (ES also takes `min_chars - 1` there, with a pattern over the prefix field and
    /// the exact term on the field itself, which match the documents a plain prefix
    /// query matches; metagate answers that length with the plain prefix query.)
    pub fn answers(self, value: &str) -> bool {
        let len = value.encode_utf16().count();
        len >= self.min_chars && len <= self.max_chars
    }

    /// Calls `each` with the edge n-grams of `token` ES indexes (Lucene's
    /// `EdgeNGramTokenFilter` without the original: `min_chars` to `max_chars` code
    /// points, none for a shorter token).
    pub fn for_each_prefix(self, token: &str, mut each: impl FnMut(&str)) {
        for (count, (at, c)) in token.char_indices().enumerate() {
            let len = count + 1;
            if len > self.max_chars {
                break;
            }
            if len >= self.min_chars {
                each(&token[..at + c.len_utf8()]);
            }
        }
    }
}

/// `XContentMapValues.nodeIntegerValue`: a number's `intValue()`, else the text parsed
/// as an `int` (Java's `NumberFormatException` text when it is not one).
fn integer(v: Option<&Value>, default: i64) -> Result<i64> {
    match v {
        None | Some(Value::Null) => Ok(default),
        // Java's `intValue()`: longs wrap, doubles saturate.
        Some(Value::Number(n)) => {
            Ok(n.as_i64().map_or_else(|| n.as_f64().map_or(0, |f| f as i32), |i| i as i32) as i64)
        }
        Some(other) => {
            let text = super::params::java_string(other);
            text.parse::<i32>()
                .map(i64::from)
                .map_err(|_| illegal_kind("number_format_exception", format!("For input string: \"{text}\"")))
        }
    }
}

/// An `IllegalArgumentException` of the type parser, as the mapping's parse failure
/// carries it.
fn illegal(reason: String) -> Error {
    illegal_kind("illegal_argument_exception", reason)
}

fn illegal_kind(kind: &str, reason: String) -> Error {
    Error::new(400, Exception::new("mapper_parsing_exception", reason.clone()).caused_by(Exception::new(kind, reason)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_code_points_between_the_bounds() {
        let p = IndexPrefixes { min_chars: 2, max_chars: 4 };
        let mut out = Vec::new();
        p.for_each_prefix("stupendous", |s| out.push(s.to_string()));
        assert_eq!(out, ["st", "stu", "stup"]);
        out.clear();
        p.for_each_prefix("a", |s| out.push(s.to_string()));
        assert!(out.is_empty());
        out.clear();
        p.for_each_prefix("été", |s| out.push(s.to_string()));
        assert_eq!(out, ["ét", "été"]);
    }

    #[test]
    fn bounds_are_checked_as_es_checks_them() {
        let reason = |v: Value| IndexPrefixes::parse(&v).unwrap_err().reason().to_string();
        assert_eq!(reason(json!({"min_chars": 0})), "min_chars [0] must be greater than zero");
        assert_eq!(reason(json!({"min_chars": 6})), "min_chars [6] must be less than max_chars [5]");
        assert_eq!(reason(json!({"max_chars": 20})), "max_chars [20] must be less than 20");
        assert_eq!(
            reason(json!({"foo": 1})),
            "Mapping definition for [index_prefixes] has unsupported parameters:  [foo : 1]"
        );
        assert_eq!(IndexPrefixes::parse(&json!({})).unwrap(), IndexPrefixes { min_chars: 2, max_chars: 5 });
        assert_eq!(
            IndexPrefixes::parse(&json!({"min_chars": "1", "max_chars": 10})).unwrap(),
            IndexPrefixes { min_chars: 1, max_chars: 10 }
        );
    }
}
