//! Documents by `_id`: GET `{index}/{type}/{id}`, its `_source` alone, and `_mget`, as
//! ES 6.8's RestGetAction, RestGetSourceAction and RestMultiGetAction answer them.
//!
//! One index is one shard: a document is found in the one index its name (or an alias of
//! exactly one index) names. Loaded generations are immutable, so every document has
//! `_version` 1, `_primary_term` 1 and its load order as `_seq_no`. The type `_doc` finds
//! a document of any type (6.8's `resolveDocumentType`) and is the type the answer
//! reports; another type must be the document's own.

use crate::engine::Engine;
use crate::error::{Error, Exception, Result};
use crate::index::{IndexReader, StoredDoc, ID_FIELD};
use crate::request::get::{GetRequest, SourceRequest};
use crate::request::mget::MgetRequest;
use crate::request::source::SourceFilter;
use crate::search::json_out::Object;
use crate::search::source::{self, SourceJson, StoredSource};
use crate::store::Snapshot;
use serde_json::Value;
use std::sync::Arc;

pub use crate::request::get::GetOptions;

/// The one index a single-document request names: a concrete index, or an alias of one.
pub(crate) fn single_index(engine: &Engine, snap: &Snapshot, name: &str) -> Result<Arc<IndexReader>> {
    let readers = engine.index_readers(snap)?;
    if let Some(r) = readers.get(name) {
        return Ok(r.clone());
    }
    let aliases = engine.alias_map(snap)?;
    match aliases.get(name).map(Vec::as_slice) {
        Some([one]) => readers.get(one).cloned().ok_or_else(|| not_found(name)),
        Some(many) if many.len() > 1 => Err(Error::illegal_argument(format!(
            "Alias [{name}] has more than one indices associated with it [[{}]], can't execute a single index op",
            many.join(", ")
        ))),
        _ => Err(not_found(name)),
    }
}

/// `index_not_found_exception` as single-document APIs raise it (no wildcard expansion).
fn not_found(name: &str) -> Error {
    Error::index_not_found_as(name, "index_expression")
}

/// [`lookup`] for a GET of the document: counted in the index's `get` statistics.
fn counted_lookup(
    engine: &Engine,
    reader: &IndexReader,
    snap: &Snapshot,
    doc_type: Option<&str>,
    id: &str,
) -> Result<Option<(u32, StoredDoc)>> {
    let started = web_time::Instant::now();
    let found = lookup(reader, snap, doc_type, id)?;
    engine.counters().of(&reader.meta.uuid).get(found.is_some(), started.elapsed().as_nanos() as u64);
    Ok(found)
}

/// The ordinal and stored form of `id` in `reader`, if `doc_type` matches it (`_doc` or
/// `None` match any type).
pub(super) fn lookup(
    reader: &IndexReader,
    snap: &Snapshot,
    doc_type: Option<&str>,
    id: &str,
) -> Result<Option<(u32, StoredDoc)>> {
    let Some(addr) = reader.term_addr(snap, ID_FIELD, id)? else {
        return Ok(None);
    };
    let Some(doc) = reader.postings(snap, ID_FIELD, addr)?.docs.iter().next() else {
        return Ok(None);
    };
    let stored = reader.document(snap, doc)?;
    match doc_type {
        Some(t) if t != "_doc" && t != stored.doc_type() => Ok(None),
        _ => Ok(Some((doc, stored))),
    }
}

/// The answer to GET `{index}/{type}/{id}`: the document, or what ES answers for one
/// that is not there.
#[derive(Debug, Clone)]
pub enum GetResponse {
    /// 200: the document.
    Found(FoundDocument),
    /// 404 (`found: false`).
    Missing(MissingDocument),
}

/// A document a GET found, with what of it was asked for.
#[derive(Debug, Clone)]
pub struct FoundDocument {
    /// The concrete index.
    pub index: String,
    /// The type shown: the one the request named, or the document's own.
    pub doc_type: String,
    /// The document's `_id`.
    pub id: String,
    /// Its load order (`_seq_no`).
    pub seq_no: u32,
    /// The routing it was loaded with (`_routing`).
    pub routing: Option<String>,
    /// Its `_source`, unless not asked for or not stored.
    pub source: Option<SourceJson>,
    /// Its stored fields, when `stored_fields` asked for some it has.
    pub fields: Option<crate::search::response::hit_values::HitFields>,
}

/// A document a GET did not find.
#[derive(Debug, Clone)]
pub struct MissingDocument {
    /// The concrete index.
    pub index: String,
    /// The type the request named, if any.
    pub doc_type: Option<String>,
    /// The `_id` asked for.
    pub id: String,
}

impl FoundDocument {
    /// The document `ord` of `reader` as `opts` asks for it (`shown_type`: the type the
    /// request named, or the document's own).
    fn read(
        reader: &IndexReader,
        snap: &Snapshot,
        shown_type: &str,
        ord: u32,
        doc: StoredDoc,
        opts: &GetOptions,
    ) -> Result<Self> {
        // A document of an index mapped `_source: {enabled: false}` was stored without one.
        // Stored fields, read back from the stored source, follow it as in ES's GetResult.
        let fields = match &opts.stored_fields {
            Some(names) if !doc.source().is_empty() && crate::search::stored_fields::asks_stored(reader, names) => {
                let src = source::parse_stored(doc.source(), &doc.id())?;
                Some(crate::search::stored_fields::values(reader, &src, names)?).filter(|f| !f.is_empty())
            }
            _ => None,
        };
        let id = doc.id().into_owned();
        let source = match opts.fetches_source() && !doc.source().is_empty() {
            true => Some(response_source(doc, opts.source.as_ref())?),
            false => None,
        };
        Ok(FoundDocument {
            index: reader.meta.name.clone(),
            doc_type: shown_type.to_string(),
            id,
            seq_no: ord,
            routing: reader.routing(snap, ord)?,
            source,
            fields,
        })
    }

    /// The members after its coordinates and version, as ES's
    /// `GetResult.toXContentEmbedded` writes them (also the `get` of `_explain`).
    fn write_embedded(&self, o: &mut Object<'_>) {
        o.int("_seq_no", i64::from(self.seq_no));
        o.int("_primary_term", 1);
        if let Some(r) = &self.routing {
            o.str("_routing", r);
        }
        o.bool("found", true);
        if let Some(source) = &self.source {
            source.write(o.key("_source"));
        }
        if let Some(fields) = &self.fields {
            crate::search::response::hit_values::write_fields(o.key("fields"), fields);
        }
    }
}

impl GetResponse {
    /// The HTTP status ES answers with: 200 found, 404 not.
    pub fn status(&self) -> u16 {
        match self {
            GetResponse::Found(_) => 200,
            GetResponse::Missing(_) => 404,
        }
    }

    /// Writes the answer's members into an open object.
    fn write(&self, o: &mut Object<'_>) {
        match self {
            GetResponse::Found(d) => {
                o.str("_index", &d.index);
                o.str("_type", &d.doc_type);
                o.str("_id", &d.id);
                o.int("_version", 1);
                d.write_embedded(o);
            }
            GetResponse::Missing(m) => write_missing(o, &m.index, m.doc_type.as_deref(), &m.id),
        }
    }

    /// The answer as the bytes ES writes (the source copied as stored).
    pub fn to_bytes(&self) -> Vec<u8> {
        written_infallible(|o| self.write(o))
    }

    /// The answer as a JSON tree, read back from [`GetResponse::to_bytes`].
    pub fn to_json(&self) -> Result<Value> {
        read_back(&self.to_bytes())
    }
}

/// The members of a found document after its coordinates and version (the `get` of
/// `_explain`).
pub(super) fn write_embedded(
    o: &mut Object<'_>,
    reader: &IndexReader,
    snap: &Snapshot,
    ord: u32,
    doc: StoredDoc,
    opts: &GetOptions,
) -> Result<()> {
    let doc_type = doc.doc_type().into_owned();
    FoundDocument::read(reader, snap, &doc_type, ord, doc, opts)?.write_embedded(o);
    Ok(())
}

/// The `_source` a GET answers: the stored bytes as they are, unless a filter applies.
fn response_source(doc: StoredDoc, filter: Option<&SourceFilter>) -> Result<SourceJson> {
    Ok(match filter {
        Some(f) if !f.is_identity() => SourceJson::Filtered(f.apply(&source::parse_stored(doc.source(), &doc.id())?)),
        _ => SourceJson::Stored(StoredSource::from_store(doc)),
    })
}

/// Writes the answer for a document that is not there into an open object.
fn write_missing(o: &mut Object<'_>, index: &str, doc_type: Option<&str>, id: &str) {
    o.str("_index", index);
    match doc_type {
        Some(t) => o.str("_type", t),
        None => o.value("_type", &Value::Null),
    }
    o.str("_id", id);
    o.bool("found", false);
}

/// A JSON object written by `members`.
pub(super) fn written(members: impl FnOnce(&mut Object<'_>) -> Result<()>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut o = Object::start(&mut out);
    members(&mut o)?;
    o.end();
    Ok(out)
}

/// A JSON object written by `members`, which cannot fail.
fn written_infallible(members: impl FnOnce(&mut Object<'_>)) -> Vec<u8> {
    let mut out = Vec::new();
    let mut o = Object::start(&mut out);
    members(&mut o);
    o.end();
    out
}

/// Reads back JSON written here, for the methods that answer a tree.
pub(super) fn read_back(bytes: &[u8]) -> Result<Value> {
    serde_json::from_slice(bytes).map_err(|e| Error::storage(format!("response is not JSON: {e}")))
}

/// 409 when the caller expects another version than the document's (always 1).
fn check_version(opts: &GetOptions, reader: &IndexReader, doc_type: &str, id: &str) -> Result<()> {
    match opts.version {
        Some(v) if v != 1 => Err(Error::new(
            409,
            Exception::new(
                "version_conflict_engine_exception",
                format!("[{doc_type}][{id}]: version conflict, current version [1] is different than the one provided [{v}]"),
            )
            .with_meta("index_uuid", reader.meta.uuid.as_str())
            .with_meta("shard", "0")
            .with_meta("index", reader.meta.name.as_str()),
        )),
        _ => Ok(()),
    }
}

/// The answer to GET `{index}/{type}/{id}/_source`: the (filtered) source alone.
#[derive(Debug, Clone)]
pub struct SourceResponse {
    /// The source, as stored or as the filter keeps it.
    pub source: SourceJson,
}

impl SourceResponse {
    /// The answer as the bytes ES writes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.source.write(&mut out);
        out
    }

    /// The answer as a JSON tree.
    pub fn to_json(&self) -> Result<Value> {
        read_back(&self.to_bytes())
    }
}

/// The answer to `_mget`: one entry per document asked for, in order.
#[derive(Debug, Clone)]
pub struct MgetResponse {
    /// The documents' answers.
    pub docs: Vec<MgetDocument>,
}

/// One document of an `_mget` answer.
#[derive(Debug, Clone)]
pub enum MgetDocument {
    /// Answered as GET answers it.
    Answered(GetResponse),
    /// Its index could not be read (missing, or an alias of several): ES's `error`.
    Failed {
        /// The index the item named.
        index: String,
        /// The type the item named, if any.
        doc_type: Option<String>,
        /// The `_id` asked for.
        id: String,
        /// Why.
        error: Error,
    },
}

impl MgetResponse {
    /// The answer as the bytes ES writes.
    pub fn to_bytes(&self) -> Vec<u8> {
        written_infallible(|top| {
            let list = top.key("docs");
            list.push(b'[');
            for (i, doc) in self.docs.iter().enumerate() {
                if i > 0 {
                    list.push(b',');
                }
                let mut o = Object::start(list);
                match doc {
                    MgetDocument::Answered(answer) => answer.write(&mut o),
                    MgetDocument::Failed { index, doc_type, id, error } => {
                        o.str("_index", index);
                        match doc_type {
                            Some(t) => o.str("_type", t),
                            None => o.value("_type", &Value::Null),
                        }
                        o.str("_id", id);
                        o.value("error", &error.to_json()["error"]);
                    }
                }
                o.end();
            }
            list.push(b']');
        })
    }

    /// The answer as a JSON tree.
    pub fn to_json(&self) -> Result<Value> {
        read_back(&self.to_bytes())
    }
}

impl Engine {
    /// GET `{index}/{type}/{id}`: the document, or `found: false` (404).
    pub fn get_document(&self, req: &GetRequest) -> Result<GetResponse> {
        let snap = self.snapshot()?;
        let reader = single_index(self, &snap, &req.index)?;
        match counted_lookup(self, &reader, &snap, Some(&req.doc_type), &req.id)? {
            Some((ord, doc)) => {
                check_version(&req.options, &reader, &req.doc_type, &req.id)?;
                Ok(GetResponse::Found(FoundDocument::read(&reader, &snap, &req.doc_type, ord, doc, &req.options)?))
            }
            None => Ok(GetResponse::Missing(MissingDocument {
                index: reader.meta.name.clone(),
                doc_type: Some(req.doc_type.clone()),
                id: req.id.clone(),
            })),
        }
    }

    /// GET `{index}/{type}/{id}/_source`: the (filtered) source alone, or 404
    /// `resource_not_found_exception` when the document, or its stored source, is missing.
    pub fn get_source(&self, req: &SourceRequest) -> Result<SourceResponse> {
        if req.filter.as_ref().is_some_and(|f| f.disabled) {
            return Err(Error::new(
                400,
                Exception::new(
                    "action_request_validation_exception",
                    "Validation Failed: 1: fetching source can not be disabled;",
                ),
            ));
        }
        let (doc_type, id) = (&req.doc_type, &req.id);
        let snap = self.snapshot()?;
        let reader = single_index(self, &snap, &req.index)?;
        match counted_lookup(self, &reader, &snap, Some(doc_type), id)? {
            // A document of an index mapped `_source: {enabled: false}` has none to give.
            Some((_, doc)) if doc.source().is_empty() => Err(Error::new(
                404,
                Exception::new(
                    "resource_not_found_exception",
                    format!("Source not found [{}]/[{doc_type}]/[{id}]", reader.meta.name),
                ),
            )),
            Some((_, doc)) => Ok(SourceResponse { source: response_source(doc, req.filter.as_ref())? }),
            None => Err(Error::new(
                404,
                Exception::new(
                    "resource_not_found_exception",
                    format!("Document not found [{}]/[{doc_type}]/[{id}]", reader.meta.name),
                ),
            )),
        }
    }

    /// `_mget`: each document answered as GET answers it, a missing index as an `error`
    /// of its own.
    pub fn mget(&self, req: &MgetRequest) -> Result<MgetResponse> {
        let snap = self.snapshot()?;
        let mut docs = Vec::with_capacity(req.items.len());
        for item in &req.items {
            docs.push(match single_index(self, &snap, &item.index) {
                Ok(reader) => MgetDocument::Answered(
                    match counted_lookup(self, &reader, &snap, item.doc_type.as_deref(), &item.id)? {
                        Some((ord, doc)) => {
                            let shown = item.doc_type.clone().unwrap_or_else(|| doc.doc_type().into_owned());
                            GetResponse::Found(FoundDocument::read(&reader, &snap, &shown, ord, doc, &item.opts)?)
                        }
                        // An item without a type reports the index's mapping type, as
                        // 6.8's ShardGetService resolves a missing type before looking.
                        None => GetResponse::Missing(MissingDocument {
                            index: reader.meta.name.clone(),
                            doc_type: match &item.doc_type {
                                Some(t) => Some(t.clone()),
                                None => reader.mapped_type(&snap)?,
                            },
                            id: item.id.clone(),
                        }),
                    },
                ),
                Err(error) => MgetDocument::Failed {
                    index: item.index.clone(),
                    doc_type: item.doc_type.clone(),
                    id: item.id.clone(),
                    error,
                },
            });
        }
        Ok(MgetResponse { docs })
    }
}
