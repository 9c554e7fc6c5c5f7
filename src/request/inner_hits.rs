//! `inner_hits` of `nested` queries, read as ES 6.8's `InnerHitBuilder` reads them: the
//! nested documents that matched, per top hit. They are gathered from the query tree
//! once the body is parsed (ES's `InnerHitContextBuilder.extractInnerHits`), so
//! execution never reads their JSON.

use crate::error::{Error, Result};
use crate::json_value::bool_of;
use crate::query::Query;
use crate::request::highlight::HighlightSpec;
use crate::request::sort::{parse_sort, SortSpec};
use crate::request::source::SourceFilter;
use serde_json::Value;

/// One `inner_hits` definition.
#[derive(Debug, Clone)]
pub struct InnerHitsSpec {
    /// `name` (the nested path by default): the key under the hit's `inner_hits`.
    pub name: String,
    /// The nested query's path.
    pub path: String,
    /// The nested query's inner query: what the nested documents must match.
    pub query: Query,
    /// `from`.
    pub from: u64,
    /// `size` (3 by default).
    pub size: u64,
    /// `sort` (by score when empty).
    pub sort: Vec<SortSpec>,
    /// `track_scores` (scores beside a sort).
    pub track_scores: bool,
    /// `_source`.
    pub source: SourceFilter,
    /// `explain`.
    pub explain: bool,
    /// `docvalue_fields`.
    pub docvalue_fields: Vec<String>,
    /// `highlight`, over each nested object.
    pub highlight: Option<HighlightSpec>,
    /// The `inner_hits` of the `nested` queries inside this one's query: shown under
    /// each of this definition's hits.
    pub children: Vec<InnerHitsSpec>,
}

fn parsing(reason: impl Into<String>) -> Error {
    Error::parsing_no_pos(reason)
}

impl InnerHitsSpec {
    fn parse(path: &str, query: &Query, v: &Value) -> Result<InnerHitsSpec> {
        let mut spec = InnerHitsSpec {
            name: path.to_string(),
            path: path.to_string(),
            query: query.clone(),
            from: 0,
            size: 3,
            sort: Vec::new(),
            track_scores: false,
            source: SourceFilter::default(),
            explain: false,
            docvalue_fields: Vec::new(),
            highlight: None,
            children: Vec::new(),
        };
        let count =
            |k: &str, v: &Value| v.as_u64().ok_or_else(|| parsing(format!("[inner_hits] failed to parse field [{k}]")));
        let flag =
            |k: &str, v: &Value| bool_of(v).ok_or_else(|| parsing(format!("[inner_hits] failed to parse field [{k}]")));
        for (k, v) in v.as_object().into_iter().flatten() {
            match k.as_str() {
                "name" => {
                    spec.name = v
                        .as_str()
                        .map(str::to_string)
                        .ok_or_else(|| parsing("[inner_hits] failed to parse field [name]"))?
                }
                "from" => spec.from = count(k, v)?,
                "size" => spec.size = count(k, v)?,
                "sort" => spec.sort = parse_sort(v)?,
                "track_scores" => spec.track_scores = flag(k, v)?,
                "explain" => spec.explain = flag(k, v)?,
                "_source" => spec.source = SourceFilter::from_json(v).map_err(Error::parsing_no_pos)?,
                "docvalue_fields" => spec.docvalue_fields.extend(docvalue_fields(v)?),
                "highlight" => spec.highlight = Some(HighlightSpec::parse(v)?),
                // The nested query's own flag, which it copies here: an unmapped path
                // gives no inner hits either way once the query has accepted it.
                "ignore_unmapped" => {
                    flag(k, v)?;
                }
                "version" | "seq_no_primary_term" | "stored_fields" | "script_fields" => {
                    return Err(Error::illegal_argument(format!(
                        "[inner_hits] option [{k}] is not supported by metagate"
                    )))
                }
                _ => return Err(parsing(format!("[inner_hits] unknown field [{k}], parser not found"))),
            }
        }
        Ok(spec)
    }
}

/// The `inner_hits` of the `nested` queries in `q`, in the order ES visits them; a name
/// used twice is ES's error.
pub fn collect(q: &Query) -> Result<Vec<InnerHitsSpec>> {
    let mut out: Vec<InnerHitsSpec> = Vec::new();
    visit(q, &mut out)?;
    Ok(out)
}

fn visit(q: &Query, out: &mut Vec<InnerHitsSpec>) -> Result<()> {
    match q {
        Query::Bool(b) => {
            for c in b.must.iter().chain(&b.should).chain(&b.filter).chain(&b.must_not) {
                visit(c, out)?;
            }
        }
        Query::ConstantScore { filter, .. } => visit(filter, out)?,
        Query::DisMax { queries, .. } => queries.iter().try_for_each(|c| visit(c, out))?,
        Query::Boosting { positive, negative, .. } => {
            visit(positive, out)?;
            visit(negative, out)?;
        }
        Query::FunctionScore(fs) => visit(&fs.query, out)?,
        // As ES 6.8's `NestedQueryBuilder.extractInnerHitBuilders`: the `inner_hits` of
        // nested queries inside this one are its definition's children, shown under each
        // of its hits; without `inner_hits` here, those inside are not looked at.
        Query::Nested(n) => {
            if let Some(v) = &n.inner_hits {
                let mut spec = InnerHitsSpec::parse(&n.path, &n.query, v)?;
                visit(&n.query, &mut spec.children)?;
                if out.iter().any(|s| s.name == spec.name) {
                    return Err(Error::illegal_argument(format!(
                        "[inner_hits] already contains an entry for key [{}]",
                        spec.name
                    )));
                }
                out.push(spec);
            }
        }
        _ => {}
    }
    Ok(())
}

/// An inner hits' `docvalue_fields`: one entry or an array, each a field name or an
/// object with its `field`.
pub(super) fn docvalue_fields(v: &Value) -> Result<Vec<String>> {
    let items: Vec<&Value> = match v {
        Value::Array(a) => a.iter().collect(),
        one => vec![one],
    };
    items
        .into_iter()
        .map(|item| {
            let field = match item {
                Value::String(s) => Some(s.clone()),
                Value::Object(o) => o.get("field").and_then(Value::as_str).map(str::to_string),
                _ => None,
            };
            field.ok_or_else(|| parsing("[inner_hits] failed to parse field [docvalue_fields]"))
        })
        .collect()
}
