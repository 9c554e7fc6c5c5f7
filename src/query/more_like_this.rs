//! The `more_like_this` query of ES 6.8 (`MoreLikeThisQueryBuilder.fromXContent`): JSON ->
//! [`MoreLikeThisQuery`], with the builder's parse errors. What depends on the index
//! (fields, analyzers, the liked documents) is resolved when the query runs.

use crate::error::{Error, Exception, Result};
use crate::json_value::{bool_of, num_f32, value_to_string};
use serde_json::{Map, Value};

/// A document `like` or `unlike` names: a stored one by `_id`, or an artificial `doc`.
#[derive(Debug, Clone, PartialEq)]
pub struct LikeItem {
    /// `_index` (the searched index when absent).
    pub index: Option<String>,
    /// `_type`.
    pub doc_type: Option<String>,
    /// `_id` of a stored document.
    pub id: Option<String>,
    /// `doc`: an artificial document, analyzed as the index would index it.
    pub doc: Option<Value>,
    /// `fields` of the item (the query's fields when absent).
    pub fields: Option<Vec<String>>,
    /// `per_field_analyzer`: analyzer names by field.
    pub per_field_analyzer: Vec<(String, String)>,
}

/// `more_like_this`: documents sharing the most characteristic terms of the liked texts
/// and documents (ES's `MoreLikeThisQuery` over Lucene's `XMoreLikeThis`).
#[derive(Debug, Clone, PartialEq)]
pub struct MoreLikeThisQuery {
    /// `fields` (`None`: the index's default field).
    pub fields: Option<Vec<String>>,
    /// Texts of `like`.
    pub like_texts: Vec<String>,
    /// Documents of `like`.
    pub like_items: Vec<LikeItem>,
    /// Texts of `unlike`: their terms are never selected.
    pub unlike_texts: Vec<String>,
    /// Documents of `unlike`.
    pub unlike_items: Vec<LikeItem>,
    /// `max_query_terms` (25).
    pub max_query_terms: i32,
    /// `min_term_freq` (2).
    pub min_term_freq: i32,
    /// `min_doc_freq` (5).
    pub min_doc_freq: i32,
    /// `max_doc_freq` (unbounded).
    pub max_doc_freq: i32,
    /// `min_word_length` (0: none).
    pub min_word_length: i32,
    /// `max_word_length` (0: none).
    pub max_word_length: i32,
    /// `stop_words`.
    pub stop_words: Option<Vec<String>>,
    /// `analyzer` for the texts.
    pub analyzer: Option<String>,
    /// `minimum_should_match` ("30%").
    pub minimum_should_match: String,
    /// `boost_terms` (0: terms unboosted).
    pub boost_terms: f32,
    /// `include`: whether the liked documents may match.
    pub include: bool,
    /// `fail_on_unsupported_field`.
    pub fail_on_unsupported_field: bool,
    /// `boost`.
    pub boost: f32,
}

fn parsing(msg: impl Into<String>) -> Error {
    Error::parsing_no_pos(msg.into())
}

/// ES's `ElasticsearchParseException` (a 400 `parse_exception`).
fn parse_exception(reason: String) -> Error {
    Error::new(400, Exception::new("parse_exception", reason))
}

/// `parser.intValue()`: a number (truncated) or a numeric string.
fn int_value(key: &str, v: &Value) -> Result<i32> {
    let n = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    match n {
        Some(n) if n.is_finite() && n >= i32::MIN as f64 && n <= i32::MAX as f64 => Ok(n as i32),
        _ => Err(parsing(format!("[mlt] query [{key}] must be an integer"))),
    }
}

fn boolean(key: &str, v: &Value) -> Result<bool> {
    bool_of(v).ok_or_else(|| parsing(format!("[mlt] query [{key}] must be a boolean")))
}

/// `parseLikeField`: a text or an item.
fn like_entry(v: &Value, texts: &mut Vec<String>, items: &mut Vec<LikeItem>) -> Result<()> {
    match v {
        Value::Object(o) => items.push(parse_item(o)?),
        Value::Array(_) => {
            return Err(Error::illegal_argument("Content of 'like' parameter should either be a string or an object"))
        }
        // A null text is no text.
        Value::Null => {}
        other => texts.push(value_to_string(other)),
    }
    Ok(())
}

/// `Item.parse`.
fn parse_item(o: &Map<String, Value>) -> Result<LikeItem> {
    let mut item =
        LikeItem { index: None, doc_type: None, id: None, doc: None, fields: None, per_field_analyzer: Vec::new() };
    for (k, v) in o {
        match k.as_str() {
            "_index" => item.index = Some(value_to_string(v)),
            "_type" => item.doc_type = Some(value_to_string(v)),
            "_id" => item.id = Some(value_to_string(v)),
            "doc" => item.doc = Some(v.clone()),
            "fields" => match v {
                Value::Array(a) => item.fields = Some(a.iter().map(value_to_string).collect()),
                _ => {
                    return Err(parse_exception(
                        "failed to parse More Like This item. field [fields] must be an array".into(),
                    ))
                }
            },
            "per_field_analyzer" => match v {
                Value::Object(m) => {
                    item.per_field_analyzer = m.iter().map(|(f, a)| (f.clone(), value_to_string(a))).collect()
                }
                _ => {
                    return Err(parse_exception(
                        "failed to parse More Like This item. [per_field_analyzer] must be an object".into(),
                    ))
                }
            },
            // One shard: routing picks no other copy of the document.
            "routing" => {}
            "version" | "version_type" => {
                return Err(Error::illegal_argument(format!(
                    "[{k}] of a [more_like_this] item is not supported by metagate"
                )))
            }
            other => {
                return Err(parse_exception(format!("failed to parse More Like This item. unknown field [{other}]")))
            }
        }
    }
    match (&item.id, &item.doc) {
        (Some(_), Some(_)) => Err(parse_exception(
            "failed to parse More Like This item. either [id] or [doc] can be specified, but not both!".into(),
        )),
        (None, None) => {
            Err(parse_exception("failed to parse More Like This item. neither [id] nor [doc] is specified!".into()))
        }
        _ => Ok(item),
    }
}

/// Parses `{"more_like_this": {...}}`'s body (also reached as `mlt`).
pub fn parse(body: &Value) -> Result<MoreLikeThisQuery> {
    let o = body.as_object().ok_or_else(|| parsing("[mlt] query malformed, no start_object after query name"))?;
    let mut q = MoreLikeThisQuery {
        fields: None,
        like_texts: Vec::new(),
        like_items: Vec::new(),
        unlike_texts: Vec::new(),
        unlike_items: Vec::new(),
        max_query_terms: 25,
        min_term_freq: 2,
        min_doc_freq: 5,
        max_doc_freq: i32::MAX,
        min_word_length: 0,
        max_word_length: 0,
        stop_words: None,
        analyzer: None,
        minimum_should_match: "30%".into(),
        boost_terms: 0.0,
        include: false,
        fail_on_unsupported_field: true,
        boost: 1.0,
    };
    let unsupported = |k: &str| parsing(format!("[mlt] query does not support [{k}]"));
    for (k, v) in o {
        match (k.as_str(), v) {
            ("like", Value::Array(a)) => {
                for e in a {
                    like_entry(e, &mut q.like_texts, &mut q.like_items)?
                }
            }
            ("unlike", Value::Array(a)) => {
                for e in a {
                    like_entry(e, &mut q.unlike_texts, &mut q.unlike_items)?
                }
            }
            ("like", v) => like_entry(v, &mut q.like_texts, &mut q.like_items)?,
            ("unlike", v) => like_entry(v, &mut q.unlike_texts, &mut q.unlike_items)?,
            ("fields", Value::Array(a)) => q.fields = Some(a.iter().map(value_to_string).collect()),
            ("stop_words", Value::Array(a)) => q.stop_words = Some(a.iter().map(value_to_string).collect()),
            (k, Value::Array(_) | Value::Object(_)) => return Err(unsupported(k)),
            ("max_query_terms", v) => q.max_query_terms = int_value(k, v)?,
            ("min_term_freq", v) => q.min_term_freq = int_value(k, v)?,
            ("min_doc_freq", v) => q.min_doc_freq = int_value(k, v)?,
            ("max_doc_freq", v) => q.max_doc_freq = int_value(k, v)?,
            ("min_word_length", v) => q.min_word_length = int_value(k, v)?,
            ("max_word_length", v) => q.max_word_length = int_value(k, v)?,
            ("analyzer", v) => q.analyzer = Some(value_to_string(v)),
            ("minimum_should_match", v) => q.minimum_should_match = value_to_string(v),
            ("boost_terms", v) => {
                q.boost_terms = num_f32(v).ok_or_else(|| parsing("[mlt] query [boost_terms] must be a number"))?
            }
            ("include", v) => q.include = boolean(k, v)?,
            ("fail_on_unsupported_field", v) => q.fail_on_unsupported_field = boolean(k, v)?,
            ("boost", v) => q.boost = num_f32(v).ok_or_else(|| parsing("[mlt] query [boost] must be a number"))?,
            ("_name", _) => {}
            (k, _) => return Err(unsupported(k)),
        }
    }
    if q.like_texts.is_empty() && q.like_items.is_empty() {
        return Err(parsing("more_like_this requires 'like' to be specified"));
    }
    if q.fields.as_ref().is_some_and(Vec::is_empty) {
        return Err(parsing("more_like_this requires 'fields' to be non-empty"));
    }
    Ok(q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn forms_and_errors() {
        let q = parse(&json!({"fields": ["a", "b"], "like": ["one text", {"_id": "1"}, "two"],
            "unlike": "three", "min_term_freq": 1, "max_query_terms": "12", "include": true}))
        .unwrap();
        assert_eq!(q.like_texts, vec!["one text", "two"]);
        assert_eq!(q.like_items[0].id.as_deref(), Some("1"));
        assert_eq!(q.unlike_texts, vec!["three"]);
        assert_eq!((q.min_term_freq, q.max_query_terms, q.include), (1, 12, true));
        assert_eq!((q.min_doc_freq, q.minimum_should_match.as_str()), (5, "30%"));
        let reason = |v: Value| parse(&v).unwrap_err().reason().to_string();
        assert_eq!(reason(json!({"fields": ["a"]})), "more_like_this requires 'like' to be specified");
        assert_eq!(reason(json!({"fields": [], "like": "x"})), "more_like_this requires 'fields' to be non-empty");
        assert_eq!(reason(json!({"like": "x", "likes": 1})), "[mlt] query does not support [likes]");
        assert_eq!(reason(json!({"like": "x", "boost_terms": [1]})), "[mlt] query does not support [boost_terms]");
        assert_eq!(
            reason(json!({"like": {"_id": "1", "doc": {}}})),
            "failed to parse More Like This item. either [id] or [doc] can be specified, but not both!"
        );
        assert_eq!(
            reason(json!({"like": {"_index": "i"}})),
            "failed to parse More Like This item. neither [id] nor [doc] is specified!"
        );
        assert_eq!(
            reason(json!({"like": {"_id": "1", "x": 1}})),
            "failed to parse More Like This item. unknown field [x]"
        );
        assert_eq!(
            reason(json!({"like": [["x"]]})),
            "Content of 'like' parameter should either be a string or an object"
        );
    }
}
