//! The `common` terms query of ES 6.8 (`CommonTermsQueryBuilder`): JSON ->
//! [`CommonTermsQuery`], with the builder's parse errors. `match` and `multi_match` with
//! `cutoff_frequency` build the same query from their terms (`MatchQuery::cutoff_frequency`).

use super::{MinimumShouldMatch, Operator};
use crate::error::{Error, Result};
use crate::json_value::{num_f32, value_to_string};
use serde_json::Value;

/// `common`: the analyzed terms split by document frequency into low- and
/// high-frequency groups (Lucene's `CommonTermsQuery`, ES's `ExtendedCommonTermsQuery`).
#[derive(Debug, Clone, PartialEq)]
pub struct CommonTermsQuery {
    /// The field.
    pub field: String,
    /// The text, analyzed by the field's search analyzer (or `analyzer`).
    pub text: String,
    /// `analyzer`.
    pub analyzer: Option<String>,
    /// The split of both groups.
    pub spec: CommonSpec,
    /// `boost`.
    pub boost: f32,
}

/// How terms split and combine: what `common` and a `match` with `cutoff_frequency` share.
#[derive(Debug, Clone, PartialEq)]
pub struct CommonSpec {
    /// `cutoff_frequency`: a fraction of the documents (below 1) or a document count.
    pub cutoff_frequency: f32,
    /// `low_freq_operator`.
    pub low_freq_operator: Operator,
    /// `high_freq_operator`.
    pub high_freq_operator: Operator,
    /// `minimum_should_match` of the low-frequency terms.
    pub low_freq_msm: Option<MinimumShouldMatch>,
    /// `minimum_should_match.high_freq`.
    pub high_freq_msm: Option<MinimumShouldMatch>,
}

fn parsing(msg: impl Into<String>) -> Error {
    Error::parsing_no_pos(msg.into())
}

fn operator(v: &Value) -> Result<Operator> {
    let s = value_to_string(v);
    match s.to_ascii_lowercase().as_str() {
        "or" => Ok(Operator::Or),
        "and" => Ok(Operator::And),
        _ => Err(Error::illegal_argument(format!(
            "No enum constant org.elasticsearch.index.query.Operator.{}",
            s.to_ascii_uppercase()
        ))),
    }
}

/// Parses `{"common": {"<field>": {...} | "<text>"}}`'s body.
pub fn parse(body: &Value) -> Result<CommonTermsQuery> {
    let name = "common";
    let o = body.as_object().ok_or_else(|| parsing("[common] query malformed, no start_object after query name"))?;
    let mut fields = o.iter();
    let (field, v) = fields.next().ok_or_else(|| parsing("[common] query malformed, no field specified"))?;
    if let Some((other, _)) = fields.next() {
        return Err(parsing(format!("[common] query doesn't support multiple fields, found [{field}] and [{other}]")));
    }
    let mut q = CommonTermsQuery {
        field: field.clone(),
        text: String::new(),
        analyzer: None,
        spec: CommonSpec {
            cutoff_frequency: 0.01,
            low_freq_operator: Operator::Or,
            high_freq_operator: Operator::Or,
            low_freq_msm: None,
            high_freq_msm: None,
        },
        boost: 1.0,
    };
    let mut text = None;
    match v {
        Value::Object(inner) => {
            for (k, pv) in inner {
                match (k.as_str(), pv) {
                    ("minimum_should_match", Value::Object(m)) => {
                        for (mk, mv) in m {
                            if mv.is_object() || mv.is_array() {
                                return Err(parsing(format!(
                                    "[{name}] unexpected token type [{}] after [{mk}]",
                                    if mv.is_object() { "START_OBJECT" } else { "START_ARRAY" }
                                )));
                            }
                            let spec = Some(MinimumShouldMatch::Spec(value_to_string(mv)));
                            match mk.as_str() {
                                "low_freq" => q.spec.low_freq_msm = spec,
                                "high_freq" => q.spec.high_freq_msm = spec,
                                other => {
                                    return Err(parsing(format!(
                                        "[{name}] query does not support [{other}] for [minimum_should_match]"
                                    )))
                                }
                            }
                        }
                    }
                    (k, pv) if pv.is_object() || pv.is_array() => {
                        return Err(parsing(format!("[{name}] query does not support [{k}]")))
                    }
                    ("query", pv) => text = Some(value_to_string(pv)),
                    ("analyzer", pv) => q.analyzer = Some(value_to_string(pv)),
                    ("disable_coord" | "_name", _) => {}
                    ("boost", pv) => {
                        q.boost = num_f32(pv).ok_or_else(|| parsing("[common] query [boost] must be a number"))?
                    }
                    ("high_freq_operator", pv) => q.spec.high_freq_operator = operator(pv)?,
                    ("low_freq_operator", pv) => q.spec.low_freq_operator = operator(pv)?,
                    ("minimum_should_match", pv) => {
                        q.spec.low_freq_msm = Some(MinimumShouldMatch::Spec(value_to_string(pv)))
                    }
                    ("cutoff_frequency", pv) => {
                        q.spec.cutoff_frequency =
                            num_f32(pv).ok_or_else(|| parsing("[common] query [cutoff_frequency] must be a number"))?
                    }
                    (other, _) => return Err(parsing(format!("[{name}] query does not support [{other}]"))),
                }
            }
        }
        Value::Null => {}
        other => text = Some(value_to_string(other)),
    }
    q.text = text.ok_or_else(|| parsing("No text specified for text query"))?;
    Ok(q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn forms_and_errors() {
        let q = parse(&json!({"body": {"query": "this is bonsai cool", "cutoff_frequency": 0.001,
            "minimum_should_match": {"low_freq": 2, "high_freq": 3}, "high_freq_operator": "and"}}))
        .unwrap();
        assert_eq!(q.spec.cutoff_frequency, 0.001);
        assert_eq!(q.spec.low_freq_msm, Some(MinimumShouldMatch::Spec("2".into())));
        assert_eq!(q.spec.high_freq_operator, Operator::And);
        assert_eq!(parse(&json!({"body": "a b"})).unwrap().text, "a b");
        assert_eq!(
            parse(&json!({"body": {"cutoff_frequency": 1}})).unwrap_err().reason(),
            "No text specified for text query"
        );
        assert_eq!(
            parse(&json!({"body": {"query": "a", "minimum_should_match": {"mid": 1}}})).unwrap_err().reason(),
            "[common] query does not support [mid] for [minimum_should_match]"
        );
    }
}
