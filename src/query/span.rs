//! The span queries of ES 6.8 (`span_term`, `span_multi`, `span_near`, `span_or`,
//! `span_not`, `span_first`, `span_containing`, `span_within`, `field_masking_span`, and
//! `span_gap`, a gap between the clauses of an ordered `span_near`):
//! JSON -> [`SpanQuery`], with the parse errors of ES's span query builders.

use super::dsl::DslParser;
use super::Query;
use crate::error::{Error, Result};
use crate::json_value::{bool_of, num_f32, value_to_string};
use serde_json::Value;

/// A span query: matches positions, not only documents; Lucene's `SpanQuery` tree.
#[derive(Debug, Clone, PartialEq)]
pub enum SpanQuery {
    /// `span_term`: one term, as `term` reads its value (keyword normalizers applied).
    Term { field: String, value: String, boost: f32 },
    /// `span_multi`: a prefix, wildcard, regexp, fuzzy or range query's terms, each a
    /// span (Lucene's `SpanMultiTermQueryWrapper`). `top_terms` is the size of the
    /// inner query's `top_terms_N` rewrite; without it every term is kept, up to
    /// Lucene's clause limit (ES's `TopTermSpanBooleanQueryRewriteWithMaxClause`).
    Multi { inner: Box<Query>, top_terms: Option<usize>, boost: f32 },
    /// `span_near`: the clauses within `slop` positions, in order or not.
    Near { clauses: Vec<SpanQuery>, slop: u32, in_order: bool, boost: f32 },
    /// `span_or`: any clause's spans.
    Or { clauses: Vec<SpanQuery>, boost: f32 },
    /// `span_not`: `include`'s spans that no `exclude` span overlaps, widened by `pre`
    /// positions before and `post` after.
    Not { include: Box<SpanQuery>, exclude: Box<SpanQuery>, pre: u32, post: u32, boost: f32 },
    /// `span_first`: the spans of `inner` that end at or before `end`.
    First { inner: Box<SpanQuery>, end: u32, boost: f32 },
    /// `span_containing`: the spans of `big` that contain a span of `little`.
    Containing { big: Box<SpanQuery>, little: Box<SpanQuery>, boost: f32 },
    /// `span_within`: the spans of `little` inside a span of `big`.
    Within { big: Box<SpanQuery>, little: Box<SpanQuery>, boost: f32 },
    /// `field_masking_span`: `inner` presented as a query on `field`, so that clauses on
    /// other fields can be combined with it.
    FieldMasking { inner: Box<SpanQuery>, field: String, boost: f32 },
    /// `span_gap`: `width` positions skipped between two clauses of an ordered
    /// `span_near` (Lucene's `SpanNearQuery.Builder.addGap`); no query of its own.
    Gap { field: String, width: i32 },
}

impl SpanQuery {
    /// The query's own `boost` (Lucene applies only the outermost span's).
    pub fn boost(&self) -> f32 {
        match self {
            SpanQuery::Term { boost, .. }
            | SpanQuery::Multi { boost, .. }
            | SpanQuery::Near { boost, .. }
            | SpanQuery::Or { boost, .. }
            | SpanQuery::Not { boost, .. }
            | SpanQuery::First { boost, .. }
            | SpanQuery::Containing { boost, .. }
            | SpanQuery::Within { boost, .. }
            | SpanQuery::FieldMasking { boost, .. } => *boost,
            // ES's SpanGapQueryBuilder has no boost (asking for it throws).
            SpanQuery::Gap { .. } => 1.0,
        }
    }
}

fn parsing(msg: impl Into<String>) -> Error {
    Error::parsing_no_pos(msg.into())
}

/// The query names of the span family.
pub const NAMES: &[&str] = &[
    "span_term",
    "span_multi",
    "span_near",
    "span_or",
    "span_not",
    "span_first",
    "span_containing",
    "span_within",
    "field_masking_span",
    "span_gap",
];

/// Parses the span query `name` with its `body`.
pub fn parse(p: &mut DslParser<'_>, name: &str, body: &Value, depth: usize) -> Result<Query> {
    let q = match name {
        "span_term" => parse_term(body)?,
        "span_multi" => parse_multi(p, body, depth)?,
        "span_near" => parse_near(p, body, depth)?,
        "span_or" => parse_or(p, body, depth)?,
        "span_not" => parse_not(p, body, depth)?,
        "span_first" => parse_first(p, body, depth)?,
        "span_containing" | "span_within" => parse_contain(p, name, body, depth)?,
        "span_gap" => parse_gap(body)?,
        _ => parse_masking(p, body, depth)?,
    };
    Ok(Query::Span(Box::new(q)))
}

fn object<'v>(name: &str, body: &'v Value) -> Result<&'v serde_json::Map<String, Value>> {
    body.as_object().ok_or_else(|| parsing(format!("[{name}] query malformed, no start_object after query name")))
}

fn boost_value(name: &str, v: &Value) -> Result<f32> {
    num_f32(v).ok_or_else(|| parsing(format!("[{name}] query [boost] must be a number")))
}

fn int_value(name: &str, key: &str, v: &Value) -> Result<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .ok_or_else(|| parsing(format!("[{name}] query [{key}] must be an integer")))
}

/// A clause that must be a span query: `what` is ES's message when it is not.
fn span_clause(p: &mut DslParser<'_>, v: &Value, depth: usize, what: &str) -> Result<SpanQuery> {
    match p.parse_depth(v, depth + 1)? {
        Query::Span(s) => Ok(*s),
        _ => Err(parsing(what.to_string())),
    }
}

fn parse_term(body: &Value) -> Result<SpanQuery> {
    let name = "span_term";
    let o = object(name, body)?;
    let mut field: Option<&String> = None;
    let mut value = None;
    let mut boost = 1.0;
    for (k, v) in o {
        if let Some(f) = field {
            return Err(parsing(format!("[{name}] query doesn't support multiple fields, found [{f}] and [{k}]")));
        }
        field = Some(k);
        match v {
            Value::Object(inner) => {
                for (ik, iv) in inner {
                    match ik.as_str() {
                        "term" | "value" => value = Some(value_to_string(iv)),
                        "boost" => boost = boost_value(name, iv)?,
                        "_name" => {}
                        other => return Err(parsing(format!("[span_term] query does not support [{other}]"))),
                    }
                }
            }
            Value::Null => {}
            other => value = Some(value_to_string(other)),
        }
    }
    let field = field.ok_or_else(|| parsing("[span_term] query malformed, no field specified"))?;
    let value = value.ok_or_else(|| Error::illegal_argument("value cannot be null"))?;
    Ok(SpanQuery::Term { field: field.clone(), value, boost })
}

/// The size of a `top_terms_N`, `top_terms_boost_N` or `top_terms_blended_freqs_N`
/// rewrite named in a multi-term query's body (`{"prefix": {"f": {"rewrite": ...}}}`).
fn top_terms_of(inner: &Value) -> Result<Option<usize>> {
    let rewrite = inner
        .as_object()
        .and_then(|o| o.values().next())
        .and_then(|by_field| by_field.as_object())
        .and_then(|o| o.values().find_map(|v| v.as_object()).or(Some(o)))
        .and_then(|o| o.get("rewrite"))
        .and_then(Value::as_str);
    let Some(rewrite) = rewrite else { return Ok(None) };
    for prefix in ["top_terms_blended_freqs_", "top_terms_boost_", "top_terms_"] {
        if let Some(n) = rewrite.strip_prefix(prefix) {
            return n
                .parse::<usize>()
                .map(Some)
                .map_err(|_| Error::illegal_argument(format!("[rewrite] failed to parse [{rewrite}]")));
        }
    }
    Ok(None)
}

fn parse_multi(p: &mut DslParser<'_>, body: &Value, depth: usize) -> Result<SpanQuery> {
    let name = "span_multi";
    let o = object(name, body)?;
    let mut inner = None;
    let mut top_terms = None;
    let mut boost = 1.0;
    for (k, v) in o {
        match k.as_str() {
            "match" => {
                let q = p.parse_depth(v, depth + 1)?;
                match q {
                    Query::Prefix { .. }
                    | Query::Wildcard { .. }
                    | Query::Regexp { .. }
                    | Query::Fuzzy { .. }
                    | Query::Range(_) => {}
                    _ => return Err(parsing("spanMultiTerm [match] must be of type multi term query")),
                }
                top_terms = top_terms_of(v)?;
                inner = Some(q);
            }
            "boost" => boost = boost_value(name, v)?,
            "_name" => {}
            other => return Err(parsing(format!("[span_multi] query does not support [{other}]"))),
        }
    }
    let inner = inner.ok_or_else(|| parsing("spanMultiTerm must have [match] multi term query clause"))?;
    Ok(SpanQuery::Multi { inner: Box::new(inner), top_terms, boost })
}

fn parse_near(p: &mut DslParser<'_>, body: &Value, depth: usize) -> Result<SpanQuery> {
    let name = "span_near";
    let o = object(name, body)?;
    let (mut clauses, mut slop, mut in_order, mut boost) = (Vec::new(), 0u32, true, 1.0);
    for (k, v) in o {
        match (k.as_str(), v) {
            ("clauses", Value::Array(items)) => {
                for item in items {
                    clauses.push(span_clause(p, item, depth, "span_near [clauses] must be of type span query")?);
                }
            }
            ("in_order", v) if !v.is_array() && !v.is_object() => {
                in_order = bool_of(v).ok_or_else(|| parsing("[span_near] query [in_order] must be a boolean"))?
            }
            ("slop", v) if !v.is_array() && !v.is_object() => slop = int_value(name, "slop", v)?.max(0) as u32,
            ("boost", v) if !v.is_array() && !v.is_object() => boost = boost_value(name, v)?,
            ("_name", _) => {}
            (other, _) => return Err(parsing(format!("[span_near] query does not support [{other}]"))),
        }
    }
    if clauses.is_empty() {
        return Err(parsing("span_near must include [clauses]"));
    }
    Ok(SpanQuery::Near { clauses, slop, in_order, boost })
}

fn parse_or(p: &mut DslParser<'_>, body: &Value, depth: usize) -> Result<SpanQuery> {
    let name = "span_or";
    let o = object(name, body)?;
    let (mut clauses, mut boost) = (Vec::new(), 1.0);
    for (k, v) in o {
        match (k.as_str(), v) {
            ("clauses", Value::Array(items)) => {
                for item in items {
                    clauses.push(span_clause(p, item, depth, "span_or [clauses] must be of type span query")?);
                }
            }
            ("boost", v) if !v.is_array() && !v.is_object() => boost = boost_value(name, v)?,
            ("_name", _) => {}
            (other, _) => return Err(parsing(format!("[span_or] query does not support [{other}]"))),
        }
    }
    if clauses.is_empty() {
        return Err(parsing("spanOr must include [clauses]"));
    }
    Ok(SpanQuery::Or { clauses, boost })
}

fn parse_not(p: &mut DslParser<'_>, body: &Value, depth: usize) -> Result<SpanQuery> {
    let name = "span_not";
    let o = object(name, body)?;
    let (mut include, mut exclude, mut boost) = (None, None, 1.0);
    let (mut dist, mut pre, mut post): (Option<i64>, Option<i64>, Option<i64>) = (None, None, None);
    for (k, v) in o {
        match (k.as_str(), v) {
            ("include", Value::Object(_)) => {
                include = Some(span_clause(p, v, depth, "spanNot [include] must be of type span query")?)
            }
            ("exclude", Value::Object(_)) => {
                exclude = Some(span_clause(p, v, depth, "spanNot [exclude] must be of type span query")?)
            }
            ("dist", v) if !v.is_object() && !v.is_array() => dist = Some(int_value(name, "dist", v)?),
            ("pre", v) if !v.is_object() && !v.is_array() => pre = Some(int_value(name, "pre", v)?),
            ("post", v) if !v.is_object() && !v.is_array() => post = Some(int_value(name, "post", v)?),
            ("boost", v) if !v.is_object() && !v.is_array() => boost = boost_value(name, v)?,
            ("_name", _) => {}
            (other, _) => return Err(parsing(format!("[span_not] query does not support [{other}]"))),
        }
    }
    let include = include.ok_or_else(|| parsing("spanNot must have [include] span query clause"))?;
    let exclude = exclude.ok_or_else(|| parsing("spanNot must have [exclude] span query clause"))?;
    if dist.is_some() && (pre.is_some() || post.is_some()) {
        return Err(parsing("spanNot can either use [dist] or [pre] & [post] (or none)"));
    }
    // Negative values count as 0, as ES's builder sets them.
    let (pre, post) = match dist {
        Some(d) => (d.max(0), d.max(0)),
        None => (pre.unwrap_or(0).max(0), post.unwrap_or(0).max(0)),
    };
    Ok(SpanQuery::Not {
        include: Box::new(include),
        exclude: Box::new(exclude),
        pre: pre.min(u32::MAX as i64) as u32,
        post: post.min(u32::MAX as i64) as u32,
        boost,
    })
}

fn parse_first(p: &mut DslParser<'_>, body: &Value, depth: usize) -> Result<SpanQuery> {
    let name = "span_first";
    let o = object(name, body)?;
    let (mut inner, mut end, mut boost) = (None, None, 1.0);
    for (k, v) in o {
        match (k.as_str(), v) {
            ("match", Value::Object(_)) => {
                inner = Some(span_clause(p, v, depth, "spanFirst [match] must be of type span query")?)
            }
            ("end", v) if !v.is_object() && !v.is_array() => end = Some(int_value(name, "end", v)?),
            ("boost", v) if !v.is_object() && !v.is_array() => boost = boost_value(name, v)?,
            ("_name", _) => {}
            (other, _) => return Err(parsing(format!("[span_first] query does not support [{other}]"))),
        }
    }
    let inner = inner.ok_or_else(|| parsing("spanFirst must have [match] span query clause"))?;
    let end = end.ok_or_else(|| parsing("spanFirst must have [end] set for it"))?;
    Ok(SpanQuery::First { inner: Box::new(inner), end: end.clamp(0, u32::MAX as i64) as u32, boost })
}

fn parse_contain(p: &mut DslParser<'_>, name: &str, body: &Value, depth: usize) -> Result<SpanQuery> {
    let o = object(name, body)?;
    let (mut big, mut little, mut boost) = (None, None, 1.0);
    for (k, v) in o {
        match (k.as_str(), v) {
            ("big", Value::Object(_)) => {
                big = Some(span_clause(p, v, depth, &format!("{name} [big] must be of type span query"))?)
            }
            ("little", Value::Object(_)) => {
                little = Some(span_clause(p, v, depth, &format!("{name} [little] must be of type span query"))?)
            }
            ("boost", v) if !v.is_object() && !v.is_array() => boost = boost_value(name, v)?,
            ("_name", _) => {}
            (other, _) => return Err(parsing(format!("[{name}] query does not support [{other}]"))),
        }
    }
    let big = Box::new(big.ok_or_else(|| parsing(format!("{name} must include [big]")))?);
    let little = Box::new(little.ok_or_else(|| parsing(format!("{name} must include [little]")))?);
    Ok(match name {
        "span_containing" => SpanQuery::Containing { big, little, boost },
        _ => SpanQuery::Within { big, little, boost },
    })
}

/// `{"span_gap": {"field": width}}`, as SpanGapQueryBuilder.fromXContent reads it: one
/// field, its value an integer (any sign: Lucene sets no bound on a gap's width).
fn parse_gap(body: &Value) -> Result<SpanQuery> {
    let name = "span_gap";
    let o = object(name, body)?;
    let mut gap: Option<(&String, i32)> = None;
    for (k, v) in o {
        if let Some((f, _)) = gap {
            return Err(parsing(format!("[{name}] query doesn't support multiple fields, found [{f}] and [{k}]")));
        }
        let width = match v {
            Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
            Value::String(s) => s.trim().parse::<f64>().ok().map(|f| f as i64),
            _ => None,
        }
        .and_then(|w| i32::try_from(w).ok())
        .ok_or_else(|| parsing(format!("[{name}] query [{k}] must be an integer width")))?;
        gap = Some((k, width));
    }
    match gap {
        Some((field, width)) if !field.is_empty() => Ok(SpanQuery::Gap { field: field.clone(), width }),
        _ => Err(Error::illegal_argument("[span_gap] field name is null or empty")),
    }
}

fn parse_masking(p: &mut DslParser<'_>, body: &Value, depth: usize) -> Result<SpanQuery> {
    let name = "field_masking_span";
    let o = object(name, body)?;
    let (mut inner, mut field, mut boost) = (None, None, 1.0);
    for (k, v) in o {
        match (k.as_str(), v) {
            ("query", Value::Object(_)) => {
                inner = Some(span_clause(p, v, depth, "[field_masking_span] query must be of type span query")?)
            }
            ("field", v) if !v.is_object() && !v.is_array() => field = Some(value_to_string(v)),
            ("boost", v) if !v.is_object() && !v.is_array() => boost = boost_value(name, v)?,
            ("_name", _) => {}
            (other, _) => return Err(parsing(format!("[field_masking_span] query does not support [{other}]"))),
        }
    }
    let inner = inner.ok_or_else(|| parsing("field_masking_span must have [query] span query clause"))?;
    let field = field.ok_or_else(|| parsing("field_masking_span must have [field] set for it"))?;
    Ok(SpanQuery::FieldMasking { inner: Box::new(inner), field, boost })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse_query(v: Value) -> Result<Query> {
        DslParser::new("").parse(&v)
    }

    fn reason(v: Value) -> String {
        parse_query(v).unwrap_err().reason().to_string()
    }

    #[test]
    fn near_of_terms() {
        let q = parse_query(json!({"span_near": {"clauses": [
            {"span_term": {"f": "a"}}, {"span_term": {"f": {"value": "b", "boost": 2}}}], "slop": 3, "in_order": false}}))
        .unwrap();
        let Query::Span(s) = q else { panic!() };
        let SpanQuery::Near { clauses, slop, in_order, .. } = *s else { panic!() };
        assert_eq!((clauses.len(), slop, in_order), (2, 3, false));
        assert_eq!(clauses[1], SpanQuery::Term { field: "f".into(), value: "b".into(), boost: 2.0 });
    }

    #[test]
    fn es_parse_errors() {
        assert_eq!(reason(json!({"span_near": {"slop": 1}})), "span_near must include [clauses]");
        assert_eq!(
            reason(json!({"span_near": {"clauses": [{"term": {"f": "a"}}]}})),
            "span_near [clauses] must be of type span query"
        );
        assert_eq!(reason(json!({"span_or": {"clauses": []}})), "spanOr must include [clauses]");
        assert_eq!(
            reason(json!({"span_not": {"include": {"span_term": {"f": "a"}}}})),
            "spanNot must have [exclude] span query clause"
        );
        assert_eq!(
            reason(json!({"span_not": {"include": {"span_term": {"f": "a"}}, "exclude": {"span_term": {"f": "b"}},
                "dist": 1, "pre": 2}})),
            "spanNot can either use [dist] or [pre] & [post] (or none)"
        );
        assert_eq!(
            reason(json!({"span_first": {"match": {"span_term": {"f": "a"}}}})),
            "spanFirst must have [end] set for it"
        );
        assert_eq!(
            reason(json!({"span_multi": {"match": {"term": {"f": "a"}}}})),
            "spanMultiTerm [match] must be of type multi term query"
        );
        assert_eq!(
            reason(json!({"span_containing": {"big": {"span_term": {"f": "a"}}}})),
            "span_containing must include [little]"
        );
        assert_eq!(
            reason(json!({"field_masking_span": {"query": {"span_term": {"f": "a"}}}})),
            "field_masking_span must have [field] set for it"
        );
    }

    #[test]
    fn gap_clauses() {
        let q = parse_query(json!({"span_near": {"clauses": [
            {"span_term": {"f": "a"}}, {"span_gap": {"f": 2}}, {"span_term": {"f": "b"}}]}}))
        .unwrap();
        let Query::Span(s) = q else { panic!() };
        let SpanQuery::Near { clauses, .. } = *s else { panic!() };
        assert_eq!(clauses[1], SpanQuery::Gap { field: "f".into(), width: 2 });
        assert_eq!(
            reason(json!({"span_gap": {"f": 1, "g": 2}})),
            "[span_gap] query doesn't support multiple fields, found [f] and [g]"
        );
        assert_eq!(reason(json!({"span_gap": {}})), "[span_gap] field name is null or empty");
    }

    #[test]
    fn top_terms_rewrite_is_read() {
        let q =
            parse_query(json!({"span_multi": {"match": {"prefix": {"f": {"value": "a", "rewrite": "top_terms_3"}}}}}));
        let Query::Span(s) = q.unwrap() else { panic!() };
        assert!(matches!(*s, SpanQuery::Multi { top_terms: Some(3), .. }));
    }
}
