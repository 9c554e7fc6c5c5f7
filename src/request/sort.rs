//! The `sort` and `search_after` of a search request, parsed with the request: sort
//! criteria and the typed scalars they carry. Sort keys and their comparison are in
//! `search/sort.rs`.

use crate::error::{Error, Exception, Result};
use crate::json_value::token_name;
use crate::query::Scalar;
use serde_json::Value;

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Ascending.
    Asc,
    /// Descending.
    Desc,
}

/// How a multi-valued field picks its sort value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Smallest value.
    Min,
    /// Largest value.
    Max,
    /// Sum (numbers).
    Sum,
    /// Average (numbers).
    Avg,
    /// Median (numbers).
    Median,
}

/// A sort's `nested` object (ES 6.8's `NestedSortBuilder`): the nested path whose
/// objects hold the values, an optional `filter` on them, and a deeper level.
#[derive(Debug, Clone, PartialEq)]
pub struct NestedSort {
    /// `path`.
    pub path: String,
    /// `filter`: only the objects it matches give values.
    pub filter: Option<crate::query::Query>,
    /// `nested`: a level below `path`.
    pub nested: Option<Box<NestedSort>>,
}

impl NestedSort {
    fn parse(v: &Value) -> Result<NestedSort> {
        let o = v.as_object().ok_or_else(|| Error::parsing_no_pos("[nested] sort must be an object"))?;
        let mut path = None;
        let mut filter = None;
        let mut nested = None;
        for (k, x) in o {
            match k.as_str() {
                "path" => path = x.as_str().map(str::to_string),
                "filter" => filter = Some(crate::query::dsl::DslParser::new("").parse(x)?),
                "nested" => nested = Some(Box::new(NestedSort::parse(x)?)),
                other => {
                    return Err(Error::parsing_no_pos(format!("[nested] unknown field [{other}], parser not found")))
                }
            }
        }
        let path = path.ok_or_else(|| Error::illegal_argument("[nested] sort requires a [path]"))?;
        Ok(NestedSort { path, filter, nested })
    }
}

/// Where documents without a value go.
#[derive(Debug, Clone, PartialEq)]
pub enum Missing {
    /// After every value.
    Last,
    /// Before every value.
    First,
    /// Sorted as if they had this value.
    Value(Scalar),
}

/// One sort criterion.
#[derive(Debug, Clone, PartialEq)]
pub enum SortSpec {
    /// By relevance.
    Score(Order),
    /// By index order.
    Doc(Order),
    /// By a field's values.
    Field {
        field: String,
        order: Order,
        mode: Option<Mode>,
        missing: Missing,
        unmapped_type: Option<String>,
        /// `nested` (or 6.8's deprecated `nested_path` / `nested_filter`): the values are
        /// those of the document's nested objects there.
        nested: Option<Box<NestedSort>>,
    },
    /// `_script`: by a script's value, a number (`type: number`) or its text (`string`).
    Script { script: std::sync::Arc<crate::script::Script>, numeric: bool, order: Order },
    /// `_geo_distance`: by the distance of a geo point field from given points.
    GeoDistance(Box<super::geo_sort::GeoDistanceSort>),
}

/// `{"_script": {"script": ..., "type": "number" | "string", "order": ...}}`.
fn parse_script_sort(v: &Value) -> Result<SortSpec> {
    let o = v.as_object().ok_or_else(|| Error::parsing_no_pos("[_script] malformed: expected an object"))?;
    let mut script = None;
    let mut numeric = None;
    let mut order = Order::Asc;
    for (k, x) in o {
        match k.as_str() {
            "script" => script = Some(crate::script::Script::parse(x)?),
            "type" => {
                numeric = Some(match x.as_str() {
                    Some("number") => true,
                    Some("string") => false,
                    other => {
                        return Err(Error::illegal_argument(format!(
                            "Unknown ScriptSortType [{}]",
                            other.unwrap_or_default()
                        )))
                    }
                })
            }
            "order" => order = parse_order(x.as_str().unwrap_or(""))?,
            "mode" if x.as_str() == Some("min") || x.as_str() == Some("max") => {}
            other => {
                return Err(Error::new(
                    400,
                    Exception::new("parsing_exception", format!("[_script] unknown field [{other}], parser not found")),
                ))
            }
        }
    }
    let script = script.ok_or_else(|| Error::illegal_argument("[_script] requires a [script]"))?;
    let numeric = numeric.ok_or_else(|| Error::illegal_argument("[_script] requires a [type]"))?;
    Ok(SortSpec::Script { script: std::sync::Arc::new(script), numeric, order })
}

pub(super) fn parse_order(v: &str) -> Result<Order> {
    match v.to_ascii_lowercase().as_str() {
        "asc" => Ok(Order::Asc),
        "desc" => Ok(Order::Desc),
        other => Err(Error::illegal_argument(format!("Unknown SortOrder [{other}]"))),
    }
}

pub(super) fn parse_mode(v: &str) -> Result<Mode> {
    Ok(match v {
        "min" => Mode::Min,
        "max" => Mode::Max,
        "sum" => Mode::Sum,
        "avg" => Mode::Avg,
        "median" => Mode::Median,
        other => return Err(Error::illegal_argument(format!("Unknown SortMode [{other}]"))),
    })
}

fn field_spec(field: &str, order: Order) -> SortSpec {
    match field {
        "_score" => SortSpec::Score(order),
        "_doc" => SortSpec::Doc(order),
        _ => SortSpec::Field {
            field: field.to_string(),
            order,
            mode: None,
            missing: Missing::Last,
            unmapped_type: None,
            nested: None,
        },
    }
}

fn default_order(field: &str) -> Order {
    if field == "_score" {
        Order::Desc
    } else {
        Order::Asc
    }
}

/// Parses the body `sort` (string, object or array of them).
pub fn parse_sort(v: &Value) -> Result<Vec<SortSpec>> {
    let items: Vec<&Value> = match v {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    let mut out = Vec::new();
    for item in items {
        match item {
            Value::String(f) => out.push(field_spec(f, default_order(f))),
            Value::Object(o) => {
                for (field, spec) in o {
                    if field == "_script" {
                        out.push(parse_script_sort(spec)?);
                        continue;
                    }
                    if field == "_geo_distance" {
                        out.push(SortSpec::GeoDistance(Box::new(super::geo_sort::parse(spec)?)));
                        continue;
                    }
                    match spec {
                        Value::String(ord) => out.push(field_spec(field, parse_order(ord)?)),
                        Value::Object(opts) => {
                            let mut order = default_order(field);
                            let mut mode = None;
                            let mut missing = Missing::Last;
                            let mut unmapped_type = None;
                            let mut nested = None;
                            let (mut nested_path, mut nested_filter) = (None, None);
                            for (k, v) in opts {
                                match k.as_str() {
                                    "order" => order = parse_order(v.as_str().unwrap_or(""))?,
                                    "mode" => mode = Some(parse_mode(v.as_str().unwrap_or(""))?),
                                    "missing" => {
                                        missing = match v.as_str() {
                                            Some("_last") => Missing::Last,
                                            Some("_first") => Missing::First,
                                            _ => Missing::Value(Scalar::from_json(v).ok_or_else(|| {
                                                Error::new(
                                                    400,
                                                    Exception::new(
                                                        "parsing_exception",
                                                        format!(
                                                            "[field_sort] missing doesn't support values of type: {}",
                                                            token_name(v)
                                                        ),
                                                    ),
                                                )
                                            })?),
                                        }
                                    }
                                    "unmapped_type" => unmapped_type = v.as_str().map(str::to_string),
                                    "nested" => nested = Some(Box::new(NestedSort::parse(v)?)),
                                    "nested_path" => {
                                        crate::deprecation::warn(
                                            "[nested_path] has been deprecated in favor of the [nested] parameter",
                                        );
                                        nested_path = Some(v.as_str().map(str::to_string).ok_or_else(|| {
                                            Error::parsing_no_pos(
                                                "[field_sort] nested_path doesn't support values of type: ".to_string()
                                                    + token_name(v),
                                            )
                                        })?);
                                    }
                                    "nested_filter" => {
                                        crate::deprecation::warn(
                                            "[nested_filter] has been deprecated in favour for the [nested] parameter",
                                        );
                                        nested_filter = Some(crate::query::dsl::DslParser::new("").parse(v)?);
                                    }
                                    "numeric_type" | "format" => {}
                                    other => {
                                        return Err(Error::new(
                                            400,
                                            Exception::new(
                                                "parsing_exception",
                                                format!("[field_sort] unknown field [{other}], parser not found"),
                                            ),
                                        ))
                                    }
                                }
                            }
                            if nested_path.is_some() || nested_filter.is_some() {
                                if nested.is_some() {
                                    return Err(Error::illegal_argument(
                                        "Setting both nested_path/nested_filter and nested not allowed",
                                    ));
                                }
                                let path = nested_path.ok_or_else(|| {
                                    Error::illegal_argument("[nested_filter] requires [nested_path] to be set")
                                })?;
                                nested = Some(Box::new(NestedSort { path, filter: nested_filter, nested: None }));
                            }
                            out.push(match field_spec(field, order) {
                                SortSpec::Field { field, order, .. } => {
                                    SortSpec::Field { field, order, mode, missing, unmapped_type, nested }
                                }
                                s => s,
                            });
                        }
                        _ => return Err(Error::parsing_no_pos(format!("[sort] malformed value for field [{field}]"))),
                    }
                }
            }
            _ => return Err(Error::parsing_no_pos("[sort] must be a string, an object or an array")),
        }
    }
    Ok(out)
}

/// Parses the URI `sort` parameter (`f`, `f:asc`, comma-separated).
pub fn parse_uri_sort(s: &str) -> Result<Vec<SortSpec>> {
    s.split(',')
        .filter(|p| !p.is_empty())
        .map(|p| match p.rsplit_once(':') {
            Some((f, o)) => Ok(field_spec(f, parse_order(o)?)),
            None => Ok(field_spec(p, default_order(p))),
        })
        .collect()
}

/// Whether the specs sort at all: ES drops a lone `_score` descending (plain relevance
/// order), so `search_after` then has no sort to follow.
pub fn is_sorted(specs: &[SortSpec]) -> bool {
    !matches!(specs, [] | [SortSpec::Score(Order::Desc)])
}

/// Parses `search_after` as ES 6.8's `SearchAfterBuilder` reads it from the body: an
/// array of scalars. The values are converted to the sort fields' types per index, as ES
/// converts them per shard.
pub fn parse_search_after(v: &Value) -> Result<Vec<Scalar>> {
    let token = token_name;
    let arr = match v {
        Value::Array(a) => a,
        other => return Err(Error::parsing_no_pos(format!("Unknown key for a {} in [search_after].", token(other)))),
    };
    if let Some(bad) = arr.iter().find(|x| x.is_object() || x.is_array()) {
        return Err(Error::parsing_no_pos(format!(
            "Expected [VALUE_STRING] or [VALUE_NUMBER] or [VALUE_BOOLEAN] or [VALUE_NULL] but found [{}] inside search_after.",
            token(bad)
        )));
    }
    if arr.is_empty() {
        return Err(Error::illegal_argument("Values must contains at least one value."));
    }
    Ok(arr.iter().filter_map(Scalar::from_json).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn search_after_is_read_into_typed_scalars() {
        let v = parse_search_after(&json!([1, -2, 18446744073709551615u64, 1.5, "x", true, null])).unwrap();
        assert_eq!(
            v,
            [
                Scalar::Long(1),
                Scalar::Long(-2),
                Scalar::Unsigned(u64::MAX),
                Scalar::Double(1.5),
                Scalar::Text("x".into()),
                Scalar::Bool(true),
                Scalar::Null
            ]
        );
        let reason = |v: Value| parse_search_after(&v).unwrap_err().reason().to_string();
        assert_eq!(reason(json!("a")), "Unknown key for a VALUE_STRING in [search_after].");
        assert_eq!(
            reason(json!([1, {}])),
            "Expected [VALUE_STRING] or [VALUE_NUMBER] or [VALUE_BOOLEAN] or [VALUE_NULL] but found [START_OBJECT] inside search_after."
        );
        assert_eq!(reason(json!([])), "Values must contains at least one value.");
    }

    #[test]
    fn a_sort_missing_value_is_a_scalar() {
        let specs = parse_sort(&json!([{"n": {"missing": 7}}, {"k": {"missing": "_first"}}])).unwrap();
        assert!(matches!(&specs[0], SortSpec::Field { missing: Missing::Value(Scalar::Long(7)), .. }));
        assert!(matches!(&specs[1], SortSpec::Field { missing: Missing::First, .. }));
        let e = parse_sort(&json!({"n": {"missing": {}}})).unwrap_err();
        assert_eq!(e.reason(), "[field_sort] missing doesn't support values of type: START_OBJECT");
    }
}
