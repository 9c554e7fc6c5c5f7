//! The fetch phase: what each collected hit shows — `_source` (the stored bytes, or a
//! filtered copy), highlight, `docvalue_fields`, sort values, `explain`, version — as
//! typed hits that `response` writes, and the checks ES makes on what a hit may load.

pub(crate) mod inner_hits;

use super::context::Executor;
use super::response::hit_values::{HitFields, HitValue};
use super::response::{HitJson, Hits};
use super::script_host::{Access, ScriptRunner};
use super::source::{self, SourceJson, StoredSource};
use super::weight::Weight;
use super::{highlight, sort, QueryResult};
use crate::error::{Error, Exception, Result};
use crate::index::IndexReader;
use crate::request::sort::SortSpec;
use crate::request::SearchRequest;
use crate::store::Snapshot;
use std::sync::Arc;

/// The bytes a hit is charged besides its `_source`, `_id`, `_type` and index name: its
/// score, sort values and the members that hold them (an estimate).
const HIT_BYTES: usize = 96;

/// The breaker label of fetched hits. ES 6.8 charges no breaker for them (its fetch
/// phase holds a shard's page at a time); this one names the phase, in ES's `<...>` style.
pub const FETCH_LABEL: &str = "<fetch>";

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

/// Renders hits (fetch phase): `_source` (verbatim, or filtered), highlight, sort values,
/// version. A source is parsed only when a filter or a highlighter reads it.
///
/// Each hit's bytes are charged to the request's breaker. The fetch phase does not stop
/// at the deadline: ES bounds only the query phase with `timeout` and fetches every hit
/// it found, and the work here is bounded by the page (`index.max_result_window`) and the
/// breaker. It stops for a client that has gone. (An explanation compiles the query
/// again: past the deadline, its term walks stop as the search's did, so that `explain`
/// cannot make a timed-out search long; its values may then differ from the scores.)
pub fn fetch_phase(
    targets: &[Arc<IndexReader>],
    snap: &Snapshot,
    req: &SearchRequest,
    result: &QueryResult,
    now_ms: i64,
) -> Result<Hits> {
    let track =
        sort::needs_scores(&req.sort) && req.sort.iter().all(|s| matches!(s, SortSpec::Score(_))) || req.track_scores;
    let scores_shown = req.sort.is_empty() || track;
    let mut hits = Vec::with_capacity(result.hits.len());
    inner_hits::check_windows(targets, &req.inner_hits)?;
    let no_source = !req.returns_source();
    let no_ids = req.stored_fields_disabled();
    // The query compiled for explanations, and for highlighting, once per index that
    // has a hit.
    let mut explainers: Vec<Option<Weight<'_>>> = targets.iter().map(|_| None).collect();
    // Script fields: a runner per index and field, made on the index's first hit; a
    // script that does not compile fails the search whether or not there are hits.
    if let Some(first) = targets.first() {
        for f in &req.script_fields {
            f.script.check(Some(&first.meta.name))?;
        }
    }
    let mut script_runners: Vec<Option<Vec<ScriptRunner<'_>>>> = targets.iter().map(|_| None).collect();
    let mut highlighters: Vec<Option<highlight::Highlighter<'_, '_>>> = targets.iter().map(|_| None).collect();
    for (i, h) in result.hits.iter().enumerate() {
        // Only the client's leaving stops a fetch (see above): a passed deadline does not.
        if i % 64 == 0 {
            crate::budget::check_cancelled()?;
        }
        let reader = &targets[h.target];
        let stored = reader.document(snap, h.doc)?;
        let (id, doc_type) = (stored.id().into_owned(), stored.doc_type().into_owned());
        // An index mapped `_source: {enabled: false}` keeps none to return.
        let source_kept = reader.meta.mapping.root.source.enabled;
        let no_source = no_source || !source_kept;
        let stored_asked = match &req.stored_fields {
            Some(names) if source_kept => super::stored_fields::asks_stored(reader, names),
            _ => false,
        };
        let source_bytes = if no_source { 0 } else { stored.source().len() };
        crate::budget::charge(
            source_bytes + id.len() + doc_type.len() + reader.meta.name.len() + HIT_BYTES,
            FETCH_LABEL,
        )?;
        // Parsed only for whoever reads inside it: a filter, the highlighter or inner hits.
        let parsed = if (!no_source && !req.source.is_identity())
            || ((req.highlight.is_some() || !req.inner_hits.is_empty()) && source_kept)
            || stored_asked
        {
            Some(source::parse_stored(stored.source(), &id)?)
        } else {
            None
        };
        let source = match &parsed {
            _ if no_source => None,
            Some(src) if !req.source.is_identity() => Some(SourceJson::Filtered(req.source.apply(src))),
            // ES copies an unfiltered source into the response as stored, byte for byte.
            _ => Some(SourceJson::Stored(StoredSource::from_store(stored))),
        };
        let mut fields = match (&parsed, &req.stored_fields) {
            (Some(src), Some(names)) if stored_asked => {
                Some(super::stored_fields::values(reader, src, names)?).filter(|f| !f.is_empty())
            }
            _ => None,
        };
        if !req.docvalue_fields.is_empty() {
            let dv = docvalue_fields(reader, snap, h.doc, &req.docvalue_fields)?;
            if !dv.is_empty() {
                fields.get_or_insert_with(HitFields::default).extend(dv);
            }
        }
        if !req.script_fields.is_empty() {
            let runners = match &mut script_runners[h.target] {
                Some(r) => r,
                slot => slot.insert(
                    req.script_fields
                        .iter()
                        .map(|f| ScriptRunner::new(&f.script, reader, snap, SCRIPT_FIELD_ACCESS))
                        .collect::<Result<Vec<_>>>()?,
                ),
            };
            for (f, runner) in req.script_fields.iter().zip(runners.iter_mut()) {
                let value = match runner.run(h.doc) {
                    Ok(v) => v.unwrap_or(crate::script::Value::Null),
                    Err(_) if f.ignore_failure => continue,
                    Err(e) => return Err(e),
                };
                // A collection's elements are the field's values; anything else is one.
                let values = match (&value, runner.json(&value)) {
                    (
                        crate::script::Value::List(_)
                        | crate::script::Value::Set(_)
                        | crate::script::Value::DocField(_),
                        serde_json::Value::Array(items),
                    ) => items.into_iter().map(HitValue::from_script).collect(),
                    (_, one) => vec![HitValue::from_script(one)],
                };
                fields.get_or_insert_with(HitFields::default).insert(f.name.clone(), values);
            }
        }
        let highlight = match (&req.highlight, &parsed) {
            (Some(hl), Some(src)) => {
                let highlighter = match &mut highlighters[h.target] {
                    Some(x) => x,
                    slot => {
                        slot.insert(highlight::Highlighter::new(Executor::new(reader, snap, now_ms), &req.query, hl)?)
                    }
                };
                Some(highlighter.highlight(src, &id)?).filter(|h| !h.is_empty())
            }
            _ => None,
        };
        let sort = (!req.sort.is_empty()).then(|| h.sort.iter().zip(&req.sort).map(|(v, s)| v.shown(s)).collect());
        let explanation = if req.explain {
            let weight = match &mut explainers[h.target] {
                Some(w) => w,
                slot => slot
                    .insert(Executor::new(reader, snap, now_ms).compile_explained(&req.query_for(&reader.meta.name))?),
            };
            Some(weight.explain_hit(h.doc)?)
        } else {
            None
        };
        let inner_hits = match req.inner_hits.is_empty() {
            true => None,
            false => Some(inner_hits::render(
                &Executor::new(reader, snap, now_ms),
                &req.inner_hits,
                h.doc,
                &id,
                &doc_type,
                parsed.as_ref(),
                req.explain,
            )?),
        };
        hits.push(HitJson {
            located: req.explain,
            index: reader.meta.name.clone(),
            type_id: (!no_ids).then_some((doc_type, id)),
            nested: None,
            version: req.version,
            seq_no: req.seq_no_primary_term.then_some(h.doc),
            score: scores_shown.then_some(h.score),
            routing: match no_ids {
                true => None,
                false => reader.routing(snap, h.doc)?,
            },
            source,
            fields,
            highlight,
            sort,
            explanation,
            inner_hits,
        });
    }
    // ES 6.8: size 0 counts without collecting, reporting 0.0; no hits or untracked
    // scores give null.
    let max_score = if req.size == 0 {
        Some(0.0)
    } else if !scores_shown || result.max_score.is_nan() {
        None
    } else {
        Some(result.max_score)
    };
    Ok(Hits { total: req.track_total_hits.then_some(result.total), max_score, hits })
}

/// What script fields may read: `params._source` (the fetch phase has no scorer).
const SCRIPT_FIELD_ACCESS: Access =
    Access { source: true, score: false, context: crate::search::script_host::Context::Field };

pub(crate) fn docvalue_fields(reader: &IndexReader, snap: &Snapshot, doc: u32, fields: &[String]) -> Result<HitFields> {
    let mut out = HitFields::default();
    for f in fields {
        let name = if f == "_id" { crate::index::ID_FIELD } else { reader.meta.mapping.resolve_alias(f) };
        if name == crate::index::ROUTING_FIELD {
            return Err(Error::illegal_argument(crate::index::ROUTING_FIELDDATA_ERROR));
        }
        let Some(fm) = reader.meta.mapping.field(name).cloned().or_else(|| {
            (name == crate::index::ID_FIELD)
                .then(|| crate::mapping::FieldMapping::new(name, crate::mapping::FieldType::Keyword))
        }) else {
            continue;
        };
        if fm.ftype != crate::mapping::FieldType::Text {
            if let Some(e) = fm.fielddata_error() {
                return Err(Error::illegal_argument(e));
            }
        }
        let values: Vec<HitValue> = match fm.ftype {
            crate::mapping::FieldType::Text => {
                return Err(Error::illegal_argument(format!("Can't load fielddata on [{f}] because fielddata is unsupported on fields of type [text]. Use doc values instead.")))
            }
            crate::mapping::FieldType::Keyword => match reader.keyword_doc_values(snap, name)? {
                Some(dv) => dv.ords(doc).map(|o| HitValue::Str(dv.term(o).to_string())).collect(),
                None => Vec::new(),
            },
            // `DocValueFormat.IP`: each address printed from its stored term.
            crate::mapping::FieldType::Ip => match reader.keyword_doc_values(snap, name)? {
                Some(dv) => dv.ords(doc).map(|o| HitValue::Str(crate::mapping::ip::format_term(dv.term(o)))).collect(),
                None => Vec::new(),
            },
            t => match reader.numeric_doc_values(snap, name)? {
                Some(dv) if dv.is_double() => dv.values_f64(doc).map(HitValue::Double).collect(),
                Some(dv) if t == crate::mapping::FieldType::Date => {
                    let fmt = crate::date::DateFormat::parse_format(fm.date_format()).map_err(|e| Error::illegal_argument(e.to_string()))?;
                    dv.values_i64(doc).map(|v| HitValue::Str(fmt.format(v))).collect()
                }
                Some(dv) if t == crate::mapping::FieldType::Boolean => dv.values_i64(doc).map(|v| HitValue::Bool(v != 0)).collect(),
                // ES returns a geo point's doc values as points: the stored (quantized)
                // latitude and longitude.
                Some(dv) if t == crate::mapping::FieldType::GeoPoint => dv
                    .values_i64(doc)
                    .map(|v| {
                        let p = crate::geo::unpack(v);
                        HitValue::GeoPoint { lat: p.lat, lon: p.lon }
                    })
                    .collect(),
                Some(dv) => dv.values_i64(doc).map(HitValue::Long).collect(),
                None => Vec::new(),
            },
        };
        if !values.is_empty() {
            out.insert(f.clone(), values);
        }
    }
    Ok(out)
}
