//! The `rescore` section of a search request: query rescorers parsed with the request,
//! with ES 6.8's parse errors. They run in `search/rescore.rs`.

use crate::error::{Error, Exception, Result};
use crate::json_value::num_f32;
use crate::query::dsl::DslParser;
use crate::query::Query;
use serde_json::Value;

/// How a rescored document's two scores combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreMode {
    /// Their sum.
    Total,
    /// Their product.
    Multiply,
    /// Their mean.
    Avg,
    /// The larger.
    Max,
    /// The smaller.
    Min,
}

/// One query rescorer.
#[derive(Debug, Clone)]
pub struct Rescore {
    /// Hits per shard rescored (default 10).
    pub window_size: usize,
    /// The rescore query.
    pub query: Query,
    /// Weight of the first-pass score.
    pub query_weight: f32,
    /// Weight of the rescore query's score.
    pub rescore_query_weight: f32,
    /// How the two combine.
    pub score_mode: ScoreMode,
}

fn parsing(reason: String) -> Error {
    Error::new(400, Exception::new("parsing_exception", reason))
}

/// Parses the body's `rescore` (one rescorer or an array of them).
pub fn parse(v: &Value, parser: &mut DslParser) -> Result<Vec<Rescore>> {
    match v {
        Value::Array(items) => items.iter().map(|x| parse_one(x, parser)).collect(),
        other => Ok(vec![parse_one(other, parser)?]),
    }
}

fn parse_one(v: &Value, parser: &mut DslParser) -> Result<Rescore> {
    let Value::Object(o) = v else {
        return Err(parsing("rescore must be an object".into()));
    };
    let mut window_size = 10usize;
    let mut rescore = None;
    for (k, x) in o {
        match (k.as_str(), x) {
            ("window_size", _) => {
                window_size = x
                    .as_i64()
                    .or_else(|| x.as_str().and_then(|s| s.parse().ok()))
                    .filter(|n| *n >= 0)
                    .ok_or_else(|| Error::illegal_argument("[window_size] must be greater than or equal to 0."))?
                    as usize
            }
            ("query", Value::Object(q)) => {
                let mut r = Rescore {
                    window_size: 10,
                    query: Query::match_all(),
                    query_weight: 1.0,
                    rescore_query_weight: 1.0,
                    score_mode: ScoreMode::Total,
                };
                let mut has_query = false;
                for (qk, qv) in q {
                    match qk.as_str() {
                        "rescore_query" => {
                            r.query = parser.parse(qv)?;
                            has_query = true;
                        }
                        "query_weight" => r.query_weight = num_f32(qv).ok_or_else(|| bad_number(qk, qv))?,
                        "rescore_query_weight" => {
                            r.rescore_query_weight = num_f32(qv).ok_or_else(|| bad_number(qk, qv))?
                        }
                        "score_mode" => {
                            r.score_mode = match qv.as_str().unwrap_or_default() {
                                "total" => ScoreMode::Total,
                                "multiply" => ScoreMode::Multiply,
                                "avg" => ScoreMode::Avg,
                                "max" => ScoreMode::Max,
                                "min" => ScoreMode::Min,
                                other => return Err(Error::illegal_argument(format!("illegal score_mode [{other}]"))),
                            }
                        }
                        other => return Err(parsing(format!("[query] unknown field [{other}], parser not found"))),
                    }
                }
                if !has_query {
                    return Err(Error::illegal_argument("rescore_query cannot be null"));
                }
                rescore = Some(r);
            }
            (name, Value::Object(_)) => {
                return Err(parsing(format!("rescore doesn't support rescorer with name [{name}]")))
            }
            (name, _) => return Err(parsing(format!("rescore doesn't support [{name}]"))),
        }
    }
    let mut r = rescore.ok_or_else(|| parsing("missing rescore type".into()))?;
    r.window_size = window_size;
    Ok(r)
}

fn bad_number(k: &str, v: &Value) -> Error {
    Error::illegal_argument(format!("[{k}] must be a number, found [{v}]"))
}
