//! `terms_set` (ES 6.8's `TermsSetQueryBuilder`): documents matching at least as many
//! of the given terms as a number field of theirs, or a script, asks.

use super::{Query, Scalar};
use crate::error::{Error, Result};
use crate::json_value::{num_f32, value_to_string};
use crate::script::Script;
use serde_json::Value;
use std::sync::Arc;

/// Where each document's required number of matching terms comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum MinimumSource {
    /// `minimum_should_match_field`: a numeric field of the document.
    Field(String),
    /// `minimum_should_match_script`: a script (its `params.num_terms` is the number of
    /// terms).
    Script(Arc<Script>),
}

/// `terms_set`.
#[derive(Debug, Clone, PartialEq)]
pub struct TermsSetQuery {
    /// The field the terms are looked for in.
    pub field: String,
    /// The terms, each a `term` query on the field.
    pub values: Vec<Scalar>,
    /// The required number's source (`None`: ES's "No minimum should match has been
    /// specified", raised on the shard).
    pub minimum: Option<MinimumSource>,
    /// `boost`.
    pub boost: f32,
}

fn parsing(msg: impl Into<String>) -> Error {
    Error::parsing_no_pos(msg.into())
}

/// Parses `{"terms_set": {"<field>": {"terms": [...], ...}}}`'s body.
pub fn parse(body: &Value) -> Result<Query> {
    let name = "terms_set";
    let o = body.as_object().ok_or_else(|| parsing("[terms_set] query malformed, no start_object after query name"))?;
    let mut q = TermsSetQuery { field: String::new(), values: Vec::new(), minimum: None, boost: 1.0 };
    let mut seen_field = false;
    for (field, v) in o {
        if seen_field {
            return Err(parsing(format!(
                "[{name}] query does not support more than one field. Already got: [{}] but also found [{field}]",
                q.field
            )));
        }
        seen_field = true;
        q.field = field.clone();
        let inner =
            v.as_object().ok_or_else(|| parsing(format!("[{name}] unknown token [{}] after [{field}]", token(v))))?;
        for (k, x) in inner {
            match (k.as_str(), x) {
                ("terms", Value::Array(items)) => {
                    q.values = items
                        .iter()
                        .map(|i| Scalar::from_json(i).unwrap_or_else(|| Scalar::Text(i.to_string())))
                        .collect()
                }
                ("minimum_should_match_script", _) => {
                    q.minimum = Some(MinimumSource::Script(Arc::new(Script::parse(x)?)))
                }
                ("minimum_should_match_field", x) if !x.is_object() && !x.is_array() => {
                    q.minimum = Some(MinimumSource::Field(value_to_string(x)))
                }
                ("boost", x) if !x.is_object() && !x.is_array() => {
                    q.boost = num_f32(x).ok_or_else(|| parsing("[terms_set] query [boost] must be a number"))?
                }
                ("_name", _) => {}
                (other, _) => return Err(parsing(format!("[{name}] query does not support [{other}]"))),
            }
        }
    }
    if !seen_field {
        return Err(parsing("[terms_set] query malformed, no field specified"));
    }
    Ok(Query::TermsSet(Box::new(q)))
}

fn token(v: &Value) -> &'static str {
    match v {
        Value::Array(_) => "START_ARRAY",
        Value::String(_) => "VALUE_STRING",
        Value::Number(_) => "VALUE_NUMBER",
        Value::Bool(_) => "VALUE_BOOLEAN",
        Value::Null => "VALUE_NULL",
        Value::Object(_) => "START_OBJECT",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn field_and_script_forms() {
        let Query::TermsSet(q) =
            parse(&json!({"codes": {"terms": ["a", 2], "minimum_should_match_field": "required"}})).unwrap()
        else {
            panic!()
        };
        assert_eq!(q.values, vec![Scalar::Text("a".into()), Scalar::Long(2)]);
        assert_eq!(q.minimum, Some(MinimumSource::Field("required".into())));
        let e = parse(&json!({"codes": {"terms": ["a"], "foo": 1}})).unwrap_err();
        assert_eq!(e.reason(), "[terms_set] query does not support [foo]");
    }
}
