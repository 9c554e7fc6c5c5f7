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
use crate::request::source::SourceFilter;
use crate::search::json_out::Object;
use crate::search::source::{self, SourceJson, StoredSource};
use crate::store::Snapshot;
use serde_json::Value;
use std::sync::Arc;

/// What of a document to return.
#[derive(Debug, Clone, Default)]
pub struct GetOptions {
    /// The `_source` filter, when one was asked for.
    pub source: Option<SourceFilter>,
    /// `stored_fields`: `_source` among them, and fields mapped `store: true`.
    pub stored_fields: Option<Vec<String>>,
    /// `version`: the version the caller expects (a mismatch is a conflict).
    pub version: Option<i64>,
}

impl GetOptions {
    /// The options of ES 6.8's GET parameters.
    pub fn from_params(params: &[(String, String)]) -> Result<GetOptions> {
        let get = |k: &str| params.iter().rev().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        if get("fields").is_some() {
            return Err(Error::illegal_argument(
                "the parameter [fields] is no longer supported, please use [stored_fields] to retrieve stored fields or [_source] to load the field from _source",
            ));
        }
        let version = match get("version") {
            Some(v) => Some(v.parse::<i64>().map_err(|_| {
                Error::illegal_argument(format!("Failed to parse long parameter [version] with value [{v}]"))
            })?),
            None => None,
        };
        Ok(GetOptions {
            source: SourceFilter::from_params(&get),
            stored_fields: get("stored_fields").map(|v| v.split(',').map(str::to_string).collect()),
            version,
        })
    }

    /// Whether `_source` is returned: asked for, or not excluded by `stored_fields`.
    fn fetches_source(&self) -> bool {
        match (&self.source, &self.stored_fields) {
            (Some(f), _) => !f.disabled,
            (None, Some(fields)) => fields.iter().any(|f| f == "_source"),
            (None, None) => true,
        }
    }
}

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

/// Writes the GET answer of a found document (`shown_type`: the type the request named,
/// or the document's own) into an open object.
fn write_found(
    o: &mut Object<'_>,
    reader: &IndexReader,
    shown_type: &str,
    ord: u32,
    doc: StoredDoc,
    opts: &GetOptions,
) -> Result<()> {
    o.str("_index", &reader.meta.name);
    o.str("_type", shown_type);
    o.str("_id", &doc.id());
    o.int("_version", 1);
    write_embedded(o, reader, ord, doc, opts)
}

/// The members of a found document after its coordinates and version, as ES's
/// `GetResult.toXContentEmbedded` writes them (also the `get` of `_explain`).
pub(super) fn write_embedded(
    o: &mut Object<'_>,
    reader: &IndexReader,
    ord: u32,
    doc: StoredDoc,
    opts: &GetOptions,
) -> Result<()> {
    o.int("_seq_no", i64::from(ord));
    o.int("_primary_term", 1);
    o.bool("found", true);
    // A document of an index mapped `_source: {enabled: false}` was stored without one.
    // Stored fields, read back from the stored source, follow it as in ES's GetResult.
    let stored = match &opts.stored_fields {
        Some(names) if !doc.source().is_empty() && crate::search::stored_fields::asks_stored(reader, names) => {
            let src = source::parse_stored(doc.source(), &doc.id())?;
            Some(crate::search::stored_fields::values(reader, &src, names)?).filter(|f| !f.is_empty())
        }
        _ => None,
    };
    if opts.fetches_source() && !doc.source().is_empty() {
        let source = response_source(doc, opts.source.as_ref())?;
        source.write(o.key("_source"));
    }
    if let Some(fields) = stored {
        crate::search::response::hit_values::write_fields(o.key("fields"), &fields);
    }
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

impl Engine {
    /// GET `{index}/{type}/{id}`: (status, body) — 200 with the document, or 404 with
    /// `found: false`.
    pub fn get_document(&self, index: &str, doc_type: &str, id: &str, opts: &GetOptions) -> Result<(u16, Value)> {
        let (status, bytes) = self.get_document_bytes(index, doc_type, id, opts)?;
        Ok((status, read_back(&bytes)?))
    }

    /// [`Engine::get_document`] written as JSON bytes (the source copied as stored).
    pub(crate) fn get_document_bytes(
        &self,
        index: &str,
        doc_type: &str,
        id: &str,
        opts: &GetOptions,
    ) -> Result<(u16, Vec<u8>)> {
        let snap = self.snapshot()?;
        let reader = single_index(self, &snap, index)?;
        let name = reader.meta.name.as_str();
        match lookup(&reader, &snap, Some(doc_type), id)? {
            Some((ord, doc)) => {
                check_version(opts, &reader, doc_type, id)?;
                Ok((200, written(|o| write_found(o, &reader, doc_type, ord, doc, opts))?))
            }
            None => {
                let body = written(|o| {
                    write_missing(o, name, Some(doc_type), id);
                    Ok(())
                })?;
                Ok((404, body))
            }
        }
    }

    /// GET `{index}/{type}/{id}/_source`: the (filtered) source alone, or 404
    /// `resource_not_found_exception` when the document, or its stored source, is missing.
    pub fn get_source(&self, index: &str, doc_type: &str, id: &str, filter: Option<&SourceFilter>) -> Result<Value> {
        read_back(&self.get_source_bytes(index, doc_type, id, filter)?)
    }

    /// [`Engine::get_source`] written as JSON bytes (as stored when no filter applies).
    pub(crate) fn get_source_bytes(
        &self,
        index: &str,
        doc_type: &str,
        id: &str,
        filter: Option<&SourceFilter>,
    ) -> Result<Vec<u8>> {
        if filter.is_some_and(|f| f.disabled) {
            return Err(Error::new(
                400,
                Exception::new(
                    "action_request_validation_exception",
                    "Validation Failed: 1: fetching source can not be disabled;",
                ),
            ));
        }
        let snap = self.snapshot()?;
        let reader = single_index(self, &snap, index)?;
        match lookup(&reader, &snap, Some(doc_type), id)? {
            // A document of an index mapped `_source: {enabled: false}` has none to give.
            Some((_, doc)) if doc.source().is_empty() => Err(Error::new(
                404,
                Exception::new(
                    "resource_not_found_exception",
                    format!("Source not found [{}]/[{doc_type}]/[{id}]", reader.meta.name),
                ),
            )),
            Some((_, doc)) => {
                let mut out = Vec::new();
                response_source(doc, filter)?.write(&mut out);
                Ok(out)
            }
            None => Err(Error::new(
                404,
                Exception::new(
                    "resource_not_found_exception",
                    format!("Document not found [{}]/[{doc_type}]/[{id}]", reader.meta.name),
                ),
            )),
        }
    }

    /// `_mget`: `{"docs": [{"_index", "_type", "_id", "_source"}]}`, or `{"ids": [...]}`
    /// with the index (and type) of the path. Each document is answered as GET answers it,
    /// a missing index as an `error` of its own; the request fails only when the body is
    /// malformed.
    pub fn mget(
        &self,
        index: Option<&str>,
        doc_type: Option<&str>,
        body: &str,
        params: &[(String, String)],
    ) -> Result<Value> {
        read_back(&self.mget_bytes(index, doc_type, body, params)?)
    }

    /// [`Engine::mget`] written as JSON bytes.
    pub(crate) fn mget_bytes(
        &self,
        index: Option<&str>,
        doc_type: Option<&str>,
        body: &str,
        params: &[(String, String)],
    ) -> Result<Vec<u8>> {
        let get = |k: &str| params.iter().rev().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        if get("fields").is_some() {
            return Err(Error::illegal_argument(
                "The parameter [fields] is no longer supported, please use [stored_fields] to retrieve stored fields or _source filtering if the field is not stored",
            ));
        }
        let defaults =
            GetOptions::from_params(&params.iter().filter(|(k, _)| k != "version").cloned().collect::<Vec<_>>())?;
        let items = parse_mget(body, index, doc_type, &defaults)?;
        let snap = self.snapshot()?;
        written(|top| {
            let list = top.key("docs");
            list.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    list.push(b',');
                }
                let mut o = Object::start(list);
                match single_index(self, &snap, &item.index) {
                    Ok(reader) => {
                        let name = reader.meta.name.as_str();
                        match lookup(&reader, &snap, item.doc_type.as_deref(), &item.id)? {
                            Some((ord, doc)) => {
                                let shown = item.doc_type.clone().unwrap_or_else(|| doc.doc_type().into_owned());
                                write_found(&mut o, &reader, &shown, ord, doc, &item.opts)?
                            }
                            None => write_missing(&mut o, name, item.doc_type.as_deref(), &item.id),
                        }
                    }
                    Err(e) => {
                        o.str("_index", &item.index);
                        match &item.doc_type {
                            Some(t) => o.str("_type", t),
                            None => o.value("_type", &Value::Null),
                        }
                        o.str("_id", &item.id);
                        o.value("error", &e.to_json()["error"]);
                    }
                }
                o.end();
            }
            list.push(b']');
            Ok(())
        })
    }
}

/// One `_mget` item.
struct MgetItem {
    index: String,
    doc_type: Option<String>,
    id: String,
    opts: GetOptions,
}

fn parsing(reason: impl Into<String>) -> Error {
    Error::new(400, Exception::new("parsing_exception", reason))
}

fn validation(messages: &[String]) -> Error {
    let listed: String = messages.iter().enumerate().map(|(i, m)| format!("{}: {m};", i + 1)).collect();
    Error::new(400, Exception::new("action_request_validation_exception", format!("Validation Failed: {listed}")))
}

fn parse_mget(body: &str, index: Option<&str>, doc_type: Option<&str>, defaults: &GetOptions) -> Result<Vec<MgetItem>> {
    if body.trim().is_empty() {
        return Err(Error::new(400, Exception::new("parse_exception", "request body or source parameter is required")));
    }
    let v: Value = serde_json::from_str(body).map_err(|e| Error::json_parse(crate::request::json_error_text(&e)))?;
    let Value::Object(o) = v else {
        return Err(parsing("Expected [START_OBJECT] but found [START_ARRAY]"));
    };
    let mut items = Vec::new();
    let mut problems = Vec::new();
    for (k, v) in &o {
        let Value::Array(list) = v else {
            return Err(parsing(format!(
                "unexpected token [{}], expected [FIELD_NAME] or [START_ARRAY]",
                crate::json_value::token_name(v)
            )));
        };
        match k.as_str() {
            "docs" => {
                for d in list {
                    let Value::Object(d) = d else {
                        return Err(parsing("docs array element should include an object"));
                    };
                    let mut item = MgetItem {
                        index: index.unwrap_or_default().to_string(),
                        doc_type: doc_type.map(str::to_string),
                        id: String::new(),
                        opts: defaults.clone(),
                    };
                    for (dk, dv) in d {
                        let text = || crate::json_value::value_to_string(dv);
                        match dk.as_str() {
                            "_index" => item.index = text(),
                            "_type" => item.doc_type = Some(text()),
                            "_id" => item.id = text(),
                            "routing" | "_routing" | "parent" | "_parent" | "version_type" | "_version_type" => {}
                            "version" | "_version" => item.opts.version = dv.as_i64(),
                            "stored_fields" => {
                                item.opts.stored_fields = Some(match dv {
                                    Value::Array(a) => a.iter().map(crate::json_value::value_to_string).collect(),
                                    other => vec![crate::json_value::value_to_string(other)],
                                })
                            }
                            "_source" => {
                                item.opts.source =
                                    Some(SourceFilter::from_json(dv).map_err(crate::error::Error::parsing_no_pos)?)
                            }
                            other => {
                                return Err(Error::illegal_argument(format!(
                                    "failed to parse multi get request. unknown field [{other}]"
                                )))
                            }
                        }
                    }
                    items.push(item);
                }
            }
            "ids" => {
                for id in list {
                    items.push(MgetItem {
                        index: index.unwrap_or_default().to_string(),
                        doc_type: doc_type.map(str::to_string),
                        id: crate::json_value::value_to_string(id),
                        opts: defaults.clone(),
                    });
                }
            }
            other => return Err(parsing(format!("unknown key [{other}] for a START_ARRAY, expected [docs] or [ids]"))),
        }
    }
    if items.is_empty() {
        problems.push("no documents to get".to_string());
    }
    for (i, item) in items.iter().enumerate() {
        if item.index.is_empty() {
            problems.push(format!("index is missing for doc {i}"));
        }
        if item.id.is_empty() {
            problems.push(format!("id is missing for doc {i}"));
        }
    }
    if !problems.is_empty() {
        return Err(validation(&problems));
    }
    Ok(items)
}
