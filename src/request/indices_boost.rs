//! `indices_boost`: per-index factors of the query's scores, in ES 6.8's two forms (an
//! array of one-key objects; the deprecated object), with `SearchSourceBuilder`'s
//! errors. The engine resolves each entry's index expression (aliases, wildcards; an
//! unknown name is `index_not_found_exception`); the first entry naming an index sets
//! its factor.

use crate::error::{Error, Result};
use crate::json_value::{num_f32, token_name};
use serde_json::Value;

const DEPRECATION: &str = "Object format in indices_boost is deprecated, please use array format instead";

fn parsing(msg: String) -> Error {
    Error::parsing_no_pos(msg)
}

/// The entries (index expression, boost) in request order.
pub fn parse(v: &Value) -> Result<Vec<(String, f32)>> {
    match v {
        Value::Object(o) => {
            crate::deprecation::warn(DEPRECATION.to_string());
            o.iter()
                .map(|(name, b)| match b {
                    Value::Object(_) | Value::Array(_) => {
                        Err(parsing(format!("Unknown key for a {} in [{name}].", token_name(b))))
                    }
                    _ => num_f32(b)
                        .map(|f| (name.clone(), f))
                        .ok_or_else(|| parsing(format!("[indices_boost] boost of [{name}] must be a number"))),
                })
                .collect()
        }
        Value::Array(items) => items.iter().map(entry).collect(),
        other => Err(parsing(format!("Unknown key for a {} in [indices_boost].", token_name(other)))),
    }
}

/// One `{"index": boost}` of the array form.
fn entry(v: &Value) -> Result<(String, f32)> {
    let Value::Object(o) = v else {
        return Err(parsing(format!("Expected [START_OBJECT] in [indices_boost] but found [{}]", token_name(v))));
    };
    let mut it = o.iter();
    let Some((name, b)) = it.next() else {
        return Err(parsing("Expected [FIELD_NAME] in [indices_boost] but found [END_OBJECT]".into()));
    };
    let boost = match b {
        Value::Number(_) => num_f32(b).unwrap_or(1.0),
        _ => return Err(parsing(format!("Expected [VALUE_NUMBER] in [indices_boost] but found [{}]", token_name(b)))),
    };
    if it.next().is_some() {
        return Err(parsing("Expected [END_OBJECT] in [indices_boost] but found [FIELD_NAME]".into()));
    }
    Ok((name.clone(), boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_forms_and_errors() {
        assert_eq!(parse(&json!([{"a": 2.0}, {"b*": 1}])).unwrap(), vec![("a".into(), 2.0), ("b*".into(), 1.0)]);
        assert_eq!(parse(&json!({"a": 2.0})).unwrap(), vec![("a".into(), 2.0)]);
        assert_eq!(
            parse(&json!([{"a": "x"}])).unwrap_err().reason(),
            "Expected [VALUE_NUMBER] in [indices_boost] but found [VALUE_STRING]"
        );
        assert_eq!(
            parse(&json!([{"a": 1, "b": 2}])).unwrap_err().reason(),
            "Expected [END_OBJECT] in [indices_boost] but found [FIELD_NAME]"
        );
    }
}
