//! The fetch phase: what each collected hit shows — `_source` (filtered), highlight,
//! `docvalue_fields`, sort values, `explain`, version — and the checks ES makes on what a
//! hit may load.

use super::exec::Executor;
use super::{explain, highlight, response, sort, QueryResult};
use crate::error::{Error, Exception, Result};
use crate::index::IndexReader;
use crate::request::sort::SortSpec;
use crate::request::SearchRequest;
use crate::store::Snapshot;
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// ES 6.8's shard-level check of `stored_fields: _none_`: nothing of a hit can be loaded
/// then, so asking for `_source` or `version` with it fails every shard.
pub fn check_stored_fields(targets: &[Arc<IndexReader>], req: &SearchRequest) -> Result<()> {
    if !req.stored_fields_disabled() {
        return Ok(());
    }
    let what = if req.version {
        "version"
    } else if req.source_requested && !req.source.disabled {
        "_source"
    } else {
        return Ok(());
    };
    match targets.first() {
        None => Ok(()),
        Some(t) => Err(Error::all_shards_failed(
            500,
            Some(&t.meta.name),
            Exception::new(
                "search_context_exception",
                format!("`stored_fields` cannot be disabled if {what} is requested"),
            ),
        )),
    }
}

/// Renders hits (fetch phase): `_source` filtering, highlight, sort values, version.
pub fn fetch_phase(
    targets: &[Arc<IndexReader>],
    snap: &Snapshot,
    req: &SearchRequest,
    result: &QueryResult,
    now_ms: i64,
) -> Result<Value> {
    let track =
        sort::needs_scores(&req.sort) && req.sort.iter().all(|s| matches!(s, SortSpec::Score(_))) || req.track_scores;
    let scores_shown = req.sort.is_empty() || track;
    let mut hits = Vec::with_capacity(result.hits.len());
    let no_source = !req.returns_source();
    let no_ids = req.stored_fields_disabled();
    for h in &result.hits {
        let reader = &targets[h.target];
        let stored = reader.document(snap, h.doc)?;
        let mut hit = Map::new();
        if req.explain {
            hit.insert("_shard".into(), json!(format!("[{}][0]", reader.meta.name)));
            hit.insert("_node".into(), json!(crate::NODE_ID));
        }
        hit.insert("_index".into(), json!(reader.meta.name));
        if !no_ids {
            hit.insert("_type".into(), json!(stored.doc_type));
            hit.insert("_id".into(), json!(stored.id));
        }
        if req.version {
            hit.insert("_version".into(), json!(1));
        }
        hit.insert("_score".into(), if scores_shown { response::score_json(h.score) } else { Value::Null });
        let source: Option<Value> = if no_source && req.highlight.is_none() {
            None
        } else {
            Some(
                serde_json::from_slice(&stored.source)
                    .map_err(|e| Error::storage(format!("stored source is not JSON: {e}")))?,
            )
        };
        let mut source = source;
        if !no_source {
            if let Some(src) = &source {
                let rendered = if !req.source.is_identity() {
                    req.source.apply(src)
                } else if req.highlight.is_none() {
                    // Nothing reads the source after this: move it rather than deep-copy it.
                    source.take().unwrap_or_default()
                } else {
                    src.clone()
                };
                hit.insert("_source".into(), rendered);
            }
        }
        if !req.docvalue_fields.is_empty() {
            let fields = docvalue_fields(reader, snap, h.doc, &req.docvalue_fields)?;
            if !fields.is_empty() {
                hit.insert("fields".into(), Value::Object(fields));
            }
        }
        if let (Some(hl), Some(src)) = (&req.highlight, &source) {
            let ex = Executor { reader, snap, now_ms };
            let h = highlight::highlight(&ex, &req.query, hl, src)?;
            if !h.is_empty() {
                hit.insert("highlight".into(), Value::Object(h));
            }
        }
        if !req.sort.is_empty() {
            hit.insert("sort".into(), Value::Array(h.sort.iter().zip(&req.sort).map(|(v, s)| v.to_json(s)).collect()));
        }
        if req.explain {
            let ex = Executor { reader, snap, now_ms };
            hit.insert("_explanation".into(), explain::explain(&ex, &req.query, h.doc)?);
        }
        hits.push(Value::Object(hit));
    }
    // ES 6.8: size 0 counts without collecting, reporting 0.0; no hits or untracked
    // scores give null.
    let max_score = if req.size == 0 {
        json!(0.0)
    } else if !scores_shown || result.max_score.is_nan() {
        Value::Null
    } else {
        response::score_json(result.max_score)
    };
    // Built by hand: `json!` would serialize `hits` into a deep copy.
    let mut out = Map::new();
    out.insert("total".into(), if req.track_total_hits { json!(result.total) } else { json!(-1) });
    out.insert("max_score".into(), max_score);
    out.insert("hits".into(), Value::Array(hits));
    Ok(Value::Object(out))
}

fn docvalue_fields(reader: &IndexReader, snap: &Snapshot, doc: u32, fields: &[String]) -> Result<Map<String, Value>> {
    let mut out = Map::new();
    for f in fields {
        let name = if f == "_id" { crate::index::ID_FIELD } else { f.as_str() };
        let Some(fm) = reader.meta.mapping.field(name).cloned().or_else(|| {
            (name == crate::index::ID_FIELD)
                .then(|| crate::mapping::FieldMapping::new(name, crate::mapping::FieldType::Keyword))
        }) else {
            continue;
        };
        let values: Vec<Value> = match fm.ftype {
            crate::mapping::FieldType::Text => {
                return Err(Error::illegal_argument(format!("Can't load fielddata on [{f}] because fielddata is unsupported on fields of type [text]. Use doc values instead.")))
            }
            crate::mapping::FieldType::Keyword => match reader.keyword_doc_values(snap, name)? {
                Some(dv) => dv.ords(doc).map(|o| json!(dv.term(o))).collect(),
                None => Vec::new(),
            },
            t => match reader.numeric_doc_values(snap, name)? {
                Some(dv) if dv.is_double() => dv.values_f64(doc).map(|v| json!(v)).collect(),
                Some(dv) if t == crate::mapping::FieldType::Date => {
                    let fmt = crate::date::DateFormat::parse_format(fm.date_format()).map_err(|e| Error::illegal_argument(e.to_string()))?;
                    dv.values_i64(doc).map(|v| json!(fmt.format(v))).collect()
                }
                Some(dv) if t == crate::mapping::FieldType::Boolean => dv.values_i64(doc).map(|v| json!(v != 0)).collect(),
                Some(dv) => dv.values_i64(doc).map(|v| json!(v)).collect(),
                None => Vec::new(),
            },
        };
        if !values.is_empty() {
            out.insert(f.clone(), Value::Array(values));
        }
    }
    Ok(out)
}
