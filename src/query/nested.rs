//! The `nested` query as ES 6.8's `NestedQueryBuilder` reads it: the documents whose
//! nested objects at `path` match `query`, scored from those objects' scores.

use super::dsl::DslParser;
use super::Query;
use crate::error::{Error, Result};
use crate::json_value::{bool_of, num_f32};
use serde_json::Value;

/// How a parent's score comes from its matching nested documents' scores (Lucene's
/// join `ScoreMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreMode {
    /// The mean (the default).
    Avg,
    /// The sum.
    Sum,
    /// The least.
    Min,
    /// The greatest.
    Max,
    /// No score: every parent scores 0.
    None,
}

impl ScoreMode {
    /// ES's `parseScoreMode`.
    pub fn parse(s: &str) -> Result<ScoreMode> {
        Ok(match s {
            "avg" => ScoreMode::Avg,
            "sum" => ScoreMode::Sum,
            "min" => ScoreMode::Min,
            "max" => ScoreMode::Max,
            "none" => ScoreMode::None,
            _ => return Err(Error::illegal_argument(format!("No score mode for child query [{s}] found"))),
        })
    }
}

/// A `nested` query.
#[derive(Debug, Clone, PartialEq)]
pub struct NestedQuery {
    /// `path`: the nested object's path.
    pub path: String,
    /// `query`, run over the nested documents at `path`.
    pub query: Query,
    /// `score_mode`.
    pub score_mode: ScoreMode,
    /// `ignore_unmapped`: an index without `path` matches nothing instead of failing.
    pub ignore_unmapped: bool,
    /// `boost`.
    pub boost: f32,
    /// `inner_hits`, as given (the request reads it: `request::inner_hits`).
    pub inner_hits: Option<Value>,
}

impl DslParser<'_> {
    /// Reads a `nested` query's body.
    pub(super) fn parse_nested(&mut self, body: &Value, depth: usize) -> Result<Query> {
        let unsupported = |k: &str| Error::parsing_no_pos(format!("[nested] query does not support [{k}]"));
        let obj = body
            .as_object()
            .ok_or_else(|| Error::parsing_no_pos("[nested] query malformed, no start_object after query name"))?;
        let (mut path, mut query) = (None, None);
        let mut q = NestedQuery {
            path: String::new(),
            query: Query::MatchNone,
            score_mode: ScoreMode::Avg,
            ignore_unmapped: false,
            boost: 1.0,
            inner_hits: None,
        };
        for (k, v) in obj {
            match (k.as_str(), v) {
                ("query", Value::Object(_)) => query = Some(self.parse_depth(v, depth + 1)?),
                ("inner_hits", Value::Object(_)) => q.inner_hits = Some(v.clone()),
                (_, Value::Object(_) | Value::Array(_)) => return Err(unsupported(k)),
                ("path", v) => path = Some(crate::json_value::value_to_string(v)),
                ("boost", v) => {
                    q.boost =
                        num_f32(v).ok_or_else(|| Error::parsing_no_pos("[nested] query [boost] must be a number"))?
                }
                ("ignore_unmapped", v) => {
                    q.ignore_unmapped = bool_of(v).ok_or_else(|| {
                        Error::parsing_no_pos(format!(
                            "Failed to parse value [{}] as only [true] or [false] are allowed.",
                            crate::json_value::value_to_string(v)
                        ))
                    })?
                }
                ("score_mode", v) => q.score_mode = ScoreMode::parse(&crate::json_value::value_to_string(v))?,
                ("_name", _) => {}
                (k, _) => return Err(unsupported(k)),
            }
        }
        q.path = path.ok_or_else(|| Error::illegal_argument("[nested] requires 'path' field"))?;
        q.query = query.ok_or_else(|| Error::illegal_argument("[nested] requires 'query' field"))?;
        Ok(Query::Nested(Box::new(q)))
    }
}
