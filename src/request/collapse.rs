//! `collapse`, read as ES 6.8's `CollapseBuilder` reads it: the field whose value groups
//! the hits (one hit, the best by the search's order, per value), the `inner_hits` that
//! expand each group (one object or an array of several, `InnerHitBuilder`'s options) and
//! `max_concurrent_group_searches` (checked, not kept: groups are searched one by one). Execution is `search::collapse`.

use crate::error::{Error, Exception, Result};
use crate::json_value::{bool_of, token_name};
use crate::request::sort::{parse_sort, SortSpec};
use crate::request::source::SourceFilter;
use serde_json::Value;

/// A parsed `collapse`.
#[derive(Debug, Clone)]
pub struct CollapseSpec {
    /// `field`: a keyword or numeric field with doc values (checked per index).
    pub field: String,
    /// `inner_hits`, in the order given (ES keys each group's results by name in a hash
    /// map: a repeated name keeps the last one's hits, see `search::collapse`).
    pub inner_hits: Vec<GroupHitsSpec>,
    /// Whether the request has a query of its own (body `query` or URI `q`): ES's group
    /// searches add it to the group's filter only then, which decides their scores.
    pub query_given: bool,
}

/// One `inner_hits` of a `collapse`: a search of each group's documents.
#[derive(Debug, Clone)]
pub struct GroupHitsSpec {
    /// `name`: the key under each hit's `inner_hits`.
    pub name: String,
    /// `from`.
    pub from: i64,
    /// `size` (3 by default, as `InnerHitBuilder`'s).
    pub size: i64,
    /// `sort` (by score when empty).
    pub sort: Vec<SortSpec>,
    /// `track_scores`.
    pub track_scores: bool,
    /// `explain`.
    pub explain: bool,
    /// `version`.
    pub version: bool,
    /// `_source`, and whether it was given.
    pub source: Option<SourceFilter>,
    /// `docvalue_fields`.
    pub docvalue_fields: Vec<String>,
}

fn parsing(reason: impl Into<String>) -> Error {
    Error::parsing_no_pos(reason)
}

/// ObjectParser's wrapping of a setter's refusal: `[collapse] failed to parse field [k]`
/// caused by the setter's `illegal_argument_exception`.
/// The root cause is the parsing exception itself: ES looks for root causes through
/// its own exceptions only.
fn failed_field(object: &str, key: &str, cause: &str) -> Error {
    let top = Exception::new("parsing_exception", format!("[{object}] failed to parse field [{key}]"));
    Error::new(400, top.clone().caused_by(Exception::new("illegal_argument_exception", cause)))
        .with_root_causes(vec![top])
}

impl CollapseSpec {
    /// Parses the body's `collapse` object.
    pub fn parse(v: &Value) -> Result<CollapseSpec> {
        let Value::Object(o) = v else {
            return Err(parsing(format!("[collapse] Expected START_OBJECT but was: {}", token_name(v))));
        };
        let mut field = None;
        let mut inner_hits = Vec::new();
        for (k, x) in o {
            match k.as_str() {
                "field" => {
                    let name = match x {
                        Value::String(s) => s.clone(),
                        Value::Number(n) => n.to_string(),
                        Value::Bool(b) => b.to_string(),
                        _ => {
                            return Err(parsing(format!(
                                "[collapse] field doesn't support values of type: {}",
                                token_name(x)
                            )))
                        }
                    };
                    if name.is_empty() {
                        return Err(failed_field("collapse", k, "field name is null or empty"));
                    }
                    field = Some(name);
                }
                "max_concurrent_group_searches" => {
                    let n = match x {
                        Value::Number(n) => n.as_i64(),
                        Value::String(s) => s.trim().parse::<i64>().ok(),
                        _ => None,
                    }
                    .and_then(|n| i32::try_from(n).ok())
                    .ok_or_else(|| parsing(format!("[collapse] failed to parse field [{k}]")))?;
                    if n < 1 {
                        return Err(failed_field("collapse", k, "maxConcurrentGroupRequests` must be positive"));
                    }
                    // ES runs that many group searches at a time; here they run one
                    // after the other, so the value only has to be valid.
                }
                "inner_hits" => match x {
                    Value::Object(_) => inner_hits = vec![GroupHitsSpec::parse(x)?],
                    Value::Array(items) => {
                        inner_hits = Vec::with_capacity(items.len());
                        for item in items {
                            if !item.is_object() {
                                return Err(parsing("Invalid token in inner_hits array"));
                            }
                            inner_hits.push(GroupHitsSpec::parse(item)?);
                        }
                    }
                    _ => {
                        return Err(parsing(format!(
                            "[collapse] inner_hits doesn't support values of type: {}",
                            token_name(x)
                        )))
                    }
                },
                _ => return Err(parsing(format!("[collapse] unknown field [{k}], parser not found"))),
            }
        }
        // ES builds the collapse context with a null field and fails on the shard; a
        // request without a field cannot run anywhere, so it is refused here.
        let field = field.ok_or_else(|| Error::illegal_argument("[collapse] requires a [field]"))?;
        Ok(CollapseSpec { field, inner_hits, query_given: false })
    }
}

impl GroupHitsSpec {
    /// Parses one `inner_hits` object (ES 6.8's `InnerHitBuilder` options).
    fn parse(v: &Value) -> Result<GroupHitsSpec> {
        let mut spec = GroupHitsSpec {
            name: String::new(),
            from: 0,
            size: 3,
            sort: Vec::new(),
            track_scores: false,
            explain: false,
            version: false,
            source: None,
            docvalue_fields: Vec::new(),
        };
        let mut named = false;
        let count = |k: &str, v: &Value| -> Result<i64> {
            v.as_i64()
                .filter(|n| i32::try_from(*n).is_ok())
                .ok_or_else(|| parsing(format!("[inner_hits] failed to parse field [{k}]")))
        };
        let flag =
            |k: &str, v: &Value| bool_of(v).ok_or_else(|| parsing(format!("[inner_hits] failed to parse field [{k}]")));
        for (k, x) in v.as_object().into_iter().flatten() {
            match k.as_str() {
                "name" => {
                    spec.name = x
                        .as_str()
                        .map(str::to_string)
                        .ok_or_else(|| parsing("[inner_hits] failed to parse field [name]"))?;
                    named = true;
                }
                "from" => spec.from = count(k, x)?,
                "size" => spec.size = count(k, x)?,
                "sort" => spec.sort = parse_sort(x)?,
                "track_scores" => spec.track_scores = flag(k, x)?,
                "explain" => spec.explain = flag(k, x)?,
                "version" => spec.version = flag(k, x)?,
                "ignore_unmapped" => {
                    flag(k, x)?;
                }
                "_source" => spec.source = Some(SourceFilter::from_json(x).map_err(Error::parsing_no_pos)?),
                "docvalue_fields" => spec.docvalue_fields.extend(super::inner_hits::docvalue_fields(x)?),
                "highlight" | "seq_no_primary_term" | "stored_fields" | "script_fields" => {
                    return Err(Error::illegal_argument(format!(
                        "[inner_hits] option [{k}] of [collapse] is not supported by metagate"
                    )))
                }
                // `collapse` inside `inner_hits` (a second level) came with ES 7.0.
                _ => return Err(parsing(format!("[inner_hits] unknown field [{k}], parser not found"))),
            }
        }
        if !named {
            // ES 6.8 keys such a group's hits under a null name, which it cannot print.
            return Err(Error::illegal_argument(
                "[inner_hits] of [collapse] without a [name] are not supported by metagate",
            ));
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_inner_hits_object_or_an_array_of_them() {
        let one = CollapseSpec::parse(&json!({"field": "g", "inner_hits": {"name": "a", "size": 2}})).unwrap();
        assert_eq!((one.field.as_str(), one.inner_hits.len(), one.inner_hits[0].size), ("g", 1, 2));
        let two = CollapseSpec::parse(&json!({"field": "g", "inner_hits": [{"name": "a"}, {"name": "b", "from": 1}]}))
            .unwrap();
        assert_eq!(
            two.inner_hits.iter().map(|h| (h.name.as_str(), h.from, h.size)).collect::<Vec<_>>(),
            [("a", 0, 3), ("b", 1, 3)]
        );
    }

    #[test]
    fn refusals_carry_es_texts() {
        let e = CollapseSpec::parse(&json!({"field": "g", "max_concurrent_group_searches": 0})).unwrap_err();
        assert_eq!(e.reason(), "[collapse] failed to parse field [max_concurrent_group_searches]");
        assert!(e.to_json().to_string().contains("maxConcurrentGroupRequests` must be positive"));
        let e = CollapseSpec::parse(&json!({"field": "g", "bogus": 1})).unwrap_err();
        assert_eq!(e.reason(), "[collapse] unknown field [bogus], parser not found");
        let e = CollapseSpec::parse(&json!({"field": "g", "inner_hits": {"name": "a", "collapse": {"field": "h"}}}))
            .unwrap_err();
        assert_eq!(e.reason(), "[inner_hits] unknown field [collapse], parser not found");
        let e = CollapseSpec::parse(&json!({"field": "g", "inner_hits": [{"name": "a"}, 3]})).unwrap_err();
        assert_eq!(e.reason(), "Invalid token in inner_hits array");
    }
}
