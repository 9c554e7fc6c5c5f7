//! `inner_hits` of `nested` queries: per top hit, the nested documents of its block that
//! match the nested query's inner query (Lucene's `ParentChildrenBlockJoinQuery`), scored,
//! sorted and windowed, each with its `_nested` identity and its object of the root's
//! `_source`, as ES 6.8's fetch phase writes them.

use crate::error::{Error, Result};
use crate::index::{DocSet, IndexReader};
use crate::request::inner_hits::InnerHitsSpec;
use crate::request::sort::SortSpec;
use crate::search::context::Executor;
use crate::search::highlight::Highlighter;
use crate::search::response::hit_values::{InnerHits, NestedIdentity};
use crate::search::response::{HitJson, Hits};
use crate::search::scorer::NO_MORE;
use crate::search::sort::{compare, KeyExtractor};
use crate::search::source::SourceJson;
use crate::store::Snapshot;
use serde_json::Value;
use std::sync::Arc;

/// ES's shard-level bound: each definition's `from + size` within the index's
/// `index.max_inner_result_window`.
pub fn check_windows(targets: &[Arc<IndexReader>], specs: &[InnerHitsSpec]) -> Result<()> {
    for t in targets {
        let max = t.meta.settings.limits.max_inner_result_window;
        for s in specs {
            let window = s.from.saturating_add(s.size);
            if window > max {
                return Err(Error::all_shards_failed(
                    400,
                    Some(&t.meta.name),
                    crate::error::Exception::new(
                        "illegal_argument_exception",
                        format!(
                            "Inner result window is too large, the inner hit definition's [{}]'s from + size must be less than or equal to: [{max}] but was [{window}]. This limit can be set by changing the [index.max_inner_result_window] index level setting.",
                            s.name
                        ),
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The documents of the parent level of nested documents at `path`: the enclosing
/// nested path's, else the roots.
fn parent_level(reader: &IndexReader, snap: &Snapshot, path: &str) -> Result<Arc<DocSet>> {
    match reader.meta.mapping.nested_parent_of(path) {
        Some(p) => reader.nested_docs(snap, p),
        None => Ok(reader.root_docs(snap)?.unwrap_or_else(|| Arc::new(DocSet::full(reader.max_doc())))),
    }
}

/// The `_nested` identity of nested document `doc` at `path`, outermost level first:
/// each level's path (relative to the enclosing nested path) and its offset among the
/// objects of its parent, in source order (its block holds them in reverse).
fn identity(reader: &IndexReader, snap: &Snapshot, doc: u32, path: &str) -> Result<Vec<(String, u64)>> {
    let mapping = &reader.meta.mapping;
    let mut levels = Vec::new();
    let (mut doc, mut path) = (doc, path.to_string());
    loop {
        let parent_path = mapping.nested_parent_of(&path).map(str::to_string);
        let parents = parent_level(reader, snap, &path)?;
        let parent = parents.next_from(doc).unwrap_or(NO_MORE);
        let siblings = reader.nested_docs(snap, &path)?;
        let mut cursor = siblings.cursor();
        let mut offset = 0;
        let mut next = cursor.seek(doc + 1);
        while next.is_some_and(|d| d < parent) {
            offset += 1;
            next = cursor.next_doc();
        }
        let field = match &parent_path {
            Some(p) => path[p.len() + 1..].to_string(),
            None => path.clone(),
        };
        levels.push((field, offset));
        match parent_path {
            Some(p) => (doc, path) = (parent, p),
            None => break,
        }
    }
    levels.reverse();
    Ok(levels)
}

/// The object of the root's source a nested document stands for.
fn nested_source<'v>(root: &'v Value, levels: &[(String, u64)]) -> Option<&'v Value> {
    let mut v = root;
    for (field, offset) in levels {
        for part in field.split('.') {
            v = v.get(part)?;
        }
        v = match v {
            Value::Array(a) => a.get(*offset as usize)?,
            one if *offset == 0 => one,
            _ => return None,
        };
    }
    Some(v)
}

/// A nested document as a `top_hits` under a `nested` aggregation shows it (ES's
/// `FetchPhase.createNestedSearchHit`): its root document's `_type` and `_id`, its
/// `_nested` identity and its object of the root's `_source`.
pub struct NestedDocHit {
    /// The root document of its block.
    pub root: u32,
    /// The root's `_type`.
    pub doc_type: String,
    /// The root's `_id`.
    pub id: String,
    /// `_nested`.
    pub identity: NestedIdentity,
    /// Its object of the root's source, filtered by `filter`; `None` when the source is
    /// not asked for or not stored.
    pub source: Option<Value>,
}

/// The nested document `doc` at `path` of `reader` as a hit (see [`NestedDocHit`]).
pub fn nested_doc_hit(
    reader: &IndexReader,
    snap: &Snapshot,
    doc: u32,
    path: &str,
    filter: &crate::request::source::SourceFilter,
) -> Result<NestedDocHit> {
    let root = reader.root_docs(snap)?.and_then(|roots| roots.next_from(doc)).unwrap_or(doc);
    let stored = reader.document(snap, root)?;
    let (doc_type, id) = (stored.doc_type().into_owned(), stored.id().into_owned());
    let levels = identity(reader, snap, doc, path)?;
    let source = match filter.disabled || stored.source().is_empty() {
        true => None,
        false => {
            let root_source = crate::search::source::parse_stored(stored.source(), &id)?;
            nested_source(&root_source, &levels)
                .map(|src| if filter.is_identity() { src.clone() } else { filter.apply(src) })
        }
    };
    Ok(NestedDocHit { root, doc_type, id, identity: NestedIdentity(levels), source })
}

/// A nested object placed under its levels' fields (`{"a": {"b": object}}`), as ES 6.8's
/// fetch phase rebuilds a nested hit's source for highlighting.
fn at_path(levels: &[(String, u64)], object: &Value) -> Value {
    levels.iter().rev().fold(object.clone(), |inner, (field, _)| {
        let mut wrapper = serde_json::Map::new();
        wrapper.insert(field.clone(), inner);
        Value::Object(wrapper)
    })
}

/// A hit's `inner_hits` object: each definition's hits under its name. `root` is the hit's
/// document: a top hit, or a nested hit for the definitions of nested queries inside.
pub fn render(
    ex: &Executor<'_>,
    specs: &[InnerHitsSpec],
    root: u32,
    id: &str,
    doc_type: &str,
    root_source: Option<&Value>,
    located: bool,
) -> Result<InnerHits> {
    let reader = ex.reader;
    let mut out = InnerHits::default();
    for spec in specs {
        let Some((path, object)) = reader.meta.mapping.objects.get_key_value(spec.path.as_str()) else {
            continue;
        };
        if object.nested.is_none() {
            continue;
        }
        let inner = Executor { nested_scope: Some(path.as_str()), ..*ex };
        let parents = parent_level(reader, ex.snap, path)?;
        let children = reader.nested_docs(ex.snap, path)?;
        let start = parents.prev_before(root).map_or(0, |p| p + 1);
        let weight = inner.compile(&spec.query, 1.0, true)?;
        let mut matched: Vec<(u32, f32)> = Vec::new();
        let mut scorer = weight.scorer()?;
        let mut d = scorer.seek(start);
        while d < root {
            if children.contains(d) {
                matched.push((d, scorer.score()));
            }
            d = scorer.advance();
        }
        if let Some(e) = scorer.take_error() {
            return Err(e);
        }
        drop(scorer);
        let by_score = spec.sort.is_empty() || spec.sort.iter().all(|s| matches!(s, SortSpec::Score(_)));
        let shows_scores = by_score || spec.track_scores;
        let mut keyed: Vec<(u32, f32, Vec<crate::search::sort::SortValue>)> = Vec::with_capacity(matched.len());
        if spec.sort.is_empty() {
            keyed.extend(matched.iter().map(|&(d, s)| (d, s, Vec::new())));
            keyed.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        } else {
            let keys = KeyExtractor::new(&spec.sort, reader, ex.snap)?;
            keyed.extend(matched.iter().map(|&(d, s)| (d, s, keys.values(d, s))));
            if let Some(e) = keys.take_error() {
                return Err(e);
            }
            keyed.sort_by(|a, b| compare(&spec.sort, &a.2, &b.2).then(a.0.cmp(&b.0)));
        }
        let max_score = matched.iter().map(|m| m.1).fold(f32::NAN, f32::max);
        let explainer = match spec.explain {
            true => Some(inner.compile_explained(&spec.query)?),
            false => None,
        };
        let highlighter = match &spec.highlight {
            Some(hl) => Some(Highlighter::new(inner, &spec.query, hl)?),
            None => None,
        };
        let mut hits = Vec::new();
        for (doc, score, sort) in keyed.iter().skip(spec.from as usize).take(spec.size as usize) {
            let levels = identity(reader, ex.snap, *doc, path)?;
            let object = root_source.and_then(|r| nested_source(r, &levels));
            let source = match object {
                Some(src) if !spec.source.disabled => {
                    Some(if spec.source.is_identity() { src.clone() } else { spec.source.apply(src) })
                }
                _ => None,
            };
            // ES highlights a nested hit from its object alone, placed at its path.
            let highlight = match (&highlighter, object) {
                (Some(h), Some(object)) => Some(h.highlight(&at_path(&levels, object), id)?).filter(|h| !h.is_empty()),
                _ => None,
            };
            let inner_hits = match spec.children.is_empty() {
                true => None,
                false => Some(render(ex, &spec.children, *doc, id, doc_type, root_source, located)?),
            };
            let fields = match spec.docvalue_fields.is_empty() {
                true => None,
                false => Some(super::docvalue_fields(reader, ex.snap, *doc, &spec.docvalue_fields)?)
                    .filter(|f| !f.is_empty()),
            };
            let explanation = match &explainer {
                Some(w) => Some(w.explain_hit(*doc)?),
                None => None,
            };
            hits.push(HitJson {
                located: located && explainer.is_some(),
                index: reader.meta.name.clone(),
                type_id: Some((doc_type.to_string(), id.to_string())),
                nested: Some(NestedIdentity(levels)),
                version: false,
                seq_no: None,
                score: shows_scores.then_some(*score),
                // ES loads no metadata field of a nested hit.
                routing: None,
                // ES writes the nested object it parsed out of the root's source.
                source: source.map(SourceJson::Filtered),
                fields,
                highlight,
                sort: (!spec.sort.is_empty()).then(|| sort.iter().zip(&spec.sort).map(|(v, s)| v.shown(s)).collect()),
                explanation,
                inner_hits,
            });
        }
        let max_score = Some(max_score).filter(|m| shows_scores && !m.is_nan());
        out.insert(spec.name.clone(), Hits { total: Some(matched.len() as u64), max_score, hits });
    }
    Ok(out)
}
