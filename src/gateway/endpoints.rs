//! The gateway's routes for ES 6.8's single-purpose read endpoints beside search and the
//! document APIs: `_explain`, `_validate/query`. Each has its paths, the methods ES registers, the URL
//! parameters its handler consumes, and its answer from the engine.

use super::routes::COMMON;
use super::{json_response, written_response, Response};
use crate::engine::Engine;
use crate::error::Result;

/// One of these endpoints with its path parts (decoded).
#[derive(Debug, Clone)]
pub enum Endpoint {
    /// `{index}/{type}/{id}/_explain`, `{index}/_explain/{id}` (type `_doc`).
    Explain { index: String, doc_type: String, id: String },
    /// `[{index}[/{type}]]/_validate/query`.
    ValidateQuery { index: String, types: Vec<String> },
}

/// What `IndicesOptions.fromRequest` consumes.
const INDICES_OPTIONS: [&str; 4] = ["expand_wildcards", "ignore_unavailable", "allow_no_indices", "ignore_throttled"];
/// A body given as parameters (RestRequest.contentOrSourceParam).
const SOURCE: [&str; 2] = ["source", "source_content_type"];
/// What `urlParamsToQueryBuilder` reads beside `q` (only without a body).
const Q_PARAMS: [&str; 5] = ["df", "analyzer", "analyze_wildcard", "lenient", "default_operator"];
/// FetchSourceContext.parseFromRestRequest.
const SOURCE_PARAMS: [&str; 5] =
    ["_source", "_source_includes", "_source_excludes", "_source_include", "_source_exclude"];

/// The endpoint a path names, if it is one of these (`seg`: decoded segments).
pub fn route(seg: &[&str]) -> Option<Endpoint> {
    let index_like = |s: &str| !s.starts_with('_') || s == "_all";
    let own = |s: &str| s.to_string();
    let types = |t: &str| t.split(',').filter(|t| !t.is_empty()).map(str::to_string).collect::<Vec<_>>();
    Some(match seg {
        [index, ty, id, "_explain"] if index_like(index) => {
            Endpoint::Explain { index: own(index), doc_type: own(ty), id: own(id) }
        }
        [index, "_explain", id] if index_like(index) => {
            Endpoint::Explain { index: own(index), doc_type: "_doc".into(), id: own(id) }
        }
        ["_validate", "query"] => Endpoint::ValidateQuery { index: "_all".into(), types: Vec::new() },
        [index, "_validate", "query"] if index_like(index) => {
            Endpoint::ValidateQuery { index: own(index), types: Vec::new() }
        }
        [index, ty, "_validate", "query"] if index_like(index) => {
            Endpoint::ValidateQuery { index: own(index), types: types(ty) }
        }
        _ => return None,
    })
}

impl Endpoint {
    /// The methods ES registers for the path.
    pub fn methods(&self) -> &'static [&'static str] {
        match self {
            Endpoint::Explain { .. } | Endpoint::ValidateQuery { .. } => &["GET", "POST"],
        }
    }

    /// Adds the URL parameters ES's handler consumes to `p` (which holds [`COMMON`]).
    pub fn params(&self, p: &mut Vec<&'static str>, has_body: bool, has_q: bool) {
        debug_assert!(p.starts_with(&COMMON));
        match self {
            Endpoint::Explain { .. } => {
                p.extend(["index", "type", "id", "parent", "routing", "preference", "q", "stored_fields", "fields"]);
                p.extend(SOURCE_PARAMS);
                p.extend(SOURCE);
                if has_q && !has_body {
                    p.extend(Q_PARAMS);
                }
            }
            Endpoint::ValidateQuery { .. } => {
                p.extend(["index", "type", "explain", "rewrite", "all_shards"]);
                p.extend(INDICES_OPTIONS);
                p.extend(SOURCE);
                if has_q && !has_body {
                    p.extend(["q"]);
                    p.extend(Q_PARAMS);
                }
            }
        }
    }
}

/// The answer of one of these endpoints.
pub(super) fn answer(engine: &Engine, e: Endpoint, body: &str, params: &[(String, String)]) -> Result<Response> {
    match e {
        Endpoint::Explain { index, doc_type, id } => {
            let (status, bytes) = engine.explain_bytes(&index, &doc_type, &id, body, params)?;
            Ok(written_response(status, bytes, params))
        }
        Endpoint::ValidateQuery { index, types } => {
            Ok(json_response(200, &engine.validate_query(&index, &types, body, params)?, params))
        }
    }
}
