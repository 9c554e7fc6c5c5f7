//! `{index}/{type}/{id}/_explain` (and 6.8's typeless `{index}/_explain/{id}`), as ES
//! 6.8's RestExplainAction and TransportExplainAction answer it: the document is found
//! by `_id` in the one index the path names, the query (the body's `query`, else the
//! URL's `q`) is compiled on that index and asked to explain the document's score with
//! the same explanation tree a search's `explain: true` gives its hits.
//!
//! The answer is `{_index, _type, _id, matched, explanation}`, with a `get` object (the
//! document as GET embeds it) when `stored_fields` or a fetching `_source` parameter is
//! given; a document that is not there is a 404 `{_index, _type, _id, matched: false}`.

use super::docs::{lookup, read_back, single_index, write_embedded, written, GetOptions};
use crate::engine::Engine;
use crate::error::{Error, Exception, Result};
use crate::request::count::parse_body_query;
use crate::request::uri_query;
use crate::search::context::Executor;
use serde_json::Value;

impl Engine {
    /// `_explain` of document `id` (of `doc_type`; `_doc` matches any type) in `index`
    /// (an index, or an alias of one): (status, body).
    pub fn explain(
        &self,
        index: &str,
        doc_type: &str,
        id: &str,
        body: &str,
        params: &[(String, String)],
    ) -> Result<(u16, Value)> {
        let (status, bytes) = self.explain_bytes(index, doc_type, id, body, params)?;
        Ok((status, read_back(&bytes)?))
    }

    /// [`Engine::explain`] written as JSON bytes.
    pub(crate) fn explain_bytes(
        &self,
        index: &str,
        doc_type: &str,
        id: &str,
        body: &str,
        params: &[(String, String)],
    ) -> Result<(u16, Vec<u8>)> {
        let get = |k: &str| params.iter().rev().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        if get("fields").is_some() {
            return Err(Error::illegal_argument(
                "The parameter [fields] is no longer supported, please use [stored_fields] to retrieve stored fields",
            ));
        }
        let query = explain_query(body, params)?;
        let opts =
            GetOptions::from_params(&params.iter().filter(|(k, _)| k != "version").cloned().collect::<Vec<_>>())?;
        // ES loads the document only when a stored field or a fetching `_source` is asked
        // for (FetchSourceContext.parseFromRestRequest is null without `_source*`).
        let embeds_get = opts.stored_fields.is_some() || opts.source.as_ref().is_some_and(|f| !f.disabled);
        let snap = self.snapshot()?;
        let reader = single_index(self, &snap, index)?;
        let Some((ord, doc)) = lookup(&reader, &snap, Some(doc_type), id)? else {
            let body = written(|o| {
                o.str("_index", &reader.meta.name);
                o.str("_type", doc_type);
                o.str("_id", id);
                o.bool("matched", false);
                Ok(())
            })?;
            return Ok((404, body));
        };
        // A filtered alias's filter joins the query as a filter clause, as ES's search
        // context builds it (`buildFilteredQuery`: the query MUST, the filter FILTER).
        let query = match self.alias_filters(&snap, index)?.into_iter().find(|(name, _)| *name == reader.meta.name) {
            Some((_, filter)) => crate::query::Query::Bool(crate::query::BoolQuery {
                must: vec![query],
                filter: vec![filter],
                should: Vec::new(),
                must_not: Vec::new(),
                minimum_should_match: None,
                boost: 1.0,
            }),
            None => query,
        };
        let ex = Executor::new(&reader, &snap, crate::node::now_ms());
        let weight = ex.compile_explained(&query)?;
        let found = weight.explain(ord, true)?;
        let matched = found.is_some();
        let explanation = match found {
            Some(x) => x,
            None => weight.explain_hit(ord)?,
        };
        let body = written(|o| {
            o.str("_index", &reader.meta.name);
            o.str("_type", doc_type);
            o.str("_id", id);
            o.bool("matched", matched);
            explanation.write(o.key("explanation"));
            if embeds_get {
                let get = o.key("get");
                let mut inner = crate::search::json_out::Object::start(get);
                write_embedded(&mut inner, &reader, &snap, ord, doc, &opts)?;
                inner.end();
            }
            Ok(())
        })?;
        Ok((200, body))
    }
}

/// The query to explain: the body's `query` (a body holds nothing else), else the URL's
/// `q` with its companions; neither is ES's `query is missing`.
fn explain_query(body: &str, params: &[(String, String)]) -> Result<crate::query::Query> {
    let missing = || {
        Error::new(
            400,
            Exception::new("action_request_validation_exception", "Validation Failed: 1: query is missing;"),
        )
    };
    if !body.trim().is_empty() {
        return parse_body_query(body)?.ok_or_else(missing);
    }
    uri_query(params)?.ok_or_else(missing)
}
