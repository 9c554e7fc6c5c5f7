//! The gateway's routes for ES 6.8's single-purpose read endpoints beside search and the
//! document APIs: `_explain`, `_validate/query`, `_search_shards`, `_cluster/health`,
//! `_stats`, `_cat/health`, `_cat/shards`, and the search templates (`_search/template`,
//! `_msearch/template`, `_render/template`), `_termvectors`, `_mtermvectors` and
//! `_scripts/painless/_execute`. Each has its paths, the methods ES registers, the URL
//! parameters its handler consumes, and its answer from the engine.

use super::cluster_api;
use super::index_stats;
use super::routes::{COMMON, SEARCH_PARAMS};
use super::templates;
use super::{json_response, written_response, Response};
use crate::engine::Engine;
use crate::error::Result;
use crate::request::termvectors::{MtermvectorsRequest, TermVectorsRequest};

/// One of these endpoints with its path parts (decoded).
#[derive(Debug, Clone)]
pub enum Endpoint {
    /// `{index}/{type}/{id}/_explain`, `{index}/_explain/{id}` (type `_doc`).
    Explain { index: String, doc_type: String, id: String },
    /// `[{index}[/{type}]]/_validate/query`.
    ValidateQuery { index: String, types: Vec<String> },
    /// `[{index}[/{type}]]/_search_shards`.
    SearchShards { index: String },
    /// `_cluster/health[/{index}]`.
    ClusterHealth { index: Option<String> },
    /// `[{index}]/_stats[/{metric}]`.
    Stats { index: String, metric: Option<String> },
    /// `_cat/health`.
    CatHealth,
    /// `_cat/shards[/{index}]`.
    CatShards { index: Option<String> },
    /// `[{index}[/{type}]]/_search/template`: answered by the gateway's search.
    SearchTemplate { index: String, types: Vec<String> },
    /// `[{index}[/{type}]]/_msearch/template`.
    MsearchTemplate { index: Option<String>, types: Vec<String> },
    /// `_render/template[/{id}]`.
    RenderTemplate { id: Option<String> },
    /// `{index}/{type}[/{id}]/_termvectors`, `{index}/_termvectors[/{id}]`.
    Termvectors { index: String, doc_type: String, id: Option<String> },
    /// `[{index}[/{type}]]/_mtermvectors`.
    Mtermvectors { index: Option<String>, doc_type: Option<String> },
    /// `_scripts/painless/_execute`.
    PainlessExecute,
}

/// What `IndicesOptions.fromRequest` consumes.
const INDICES_OPTIONS: [&str; 4] = ["expand_wildcards", "ignore_unavailable", "allow_no_indices", "ignore_throttled"];
/// AbstractCatAction reads `help` and declares the table parameters as response
/// parameters.
const CAT_PARAMS: [&str; 10] = ["local", "help", "format", "h", "v", "ts", "pri", "bytes", "size", "time"];
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
        ["_search_shards"] => Endpoint::SearchShards { index: "_all".into() },
        [index, "_search_shards"] | [index, _, "_search_shards"] if index_like(index) => {
            Endpoint::SearchShards { index: own(index) }
        }
        ["_cluster", "health"] => Endpoint::ClusterHealth { index: None },
        ["_cluster", "health", index] => Endpoint::ClusterHealth { index: Some(own(index)) },
        ["_stats"] => Endpoint::Stats { index: "_all".into(), metric: None },
        ["_stats", metric] => Endpoint::Stats { index: "_all".into(), metric: Some(own(metric)) },
        [index, "_stats"] if index_like(index) => Endpoint::Stats { index: own(index), metric: None },
        [index, "_stats", metric] if index_like(index) => {
            Endpoint::Stats { index: own(index), metric: Some(own(metric)) }
        }
        ["_search", "template"] => Endpoint::SearchTemplate { index: "_all".into(), types: Vec::new() },
        [index, "_search", "template"] if index_like(index) => {
            Endpoint::SearchTemplate { index: own(index), types: Vec::new() }
        }
        [index, ty, "_search", "template"] if index_like(index) => {
            Endpoint::SearchTemplate { index: own(index), types: types(ty) }
        }
        ["_msearch", "template"] => Endpoint::MsearchTemplate { index: None, types: Vec::new() },
        [index, "_msearch", "template"] if index_like(index) => {
            Endpoint::MsearchTemplate { index: Some(own(index)), types: Vec::new() }
        }
        [index, ty, "_msearch", "template"] if index_like(index) => {
            Endpoint::MsearchTemplate { index: Some(own(index)), types: types(ty) }
        }
        ["_render", "template"] => Endpoint::RenderTemplate { id: None },
        ["_render", "template", id] => Endpoint::RenderTemplate { id: Some(own(id)) },
        [index, "_termvectors"] if index_like(index) => {
            Endpoint::Termvectors { index: own(index), doc_type: "_doc".into(), id: None }
        }
        [index, "_termvectors", id] if index_like(index) => {
            Endpoint::Termvectors { index: own(index), doc_type: "_doc".into(), id: Some(own(id)) }
        }
        [index, ty, "_termvectors"] if index_like(index) => {
            Endpoint::Termvectors { index: own(index), doc_type: own(ty), id: None }
        }
        [index, ty, id, "_termvectors"] if index_like(index) => {
            Endpoint::Termvectors { index: own(index), doc_type: own(ty), id: Some(own(id)) }
        }
        ["_mtermvectors"] => Endpoint::Mtermvectors { index: None, doc_type: None },
        [index, "_mtermvectors"] if index_like(index) => {
            Endpoint::Mtermvectors { index: Some(own(index)), doc_type: None }
        }
        [index, ty, "_mtermvectors"] if index_like(index) => {
            Endpoint::Mtermvectors { index: Some(own(index)), doc_type: Some(own(ty)) }
        }
        ["_scripts", "painless", "_execute"] => Endpoint::PainlessExecute,
        ["_cat", "health"] => Endpoint::CatHealth,
        ["_cat", "shards"] => Endpoint::CatShards { index: None },
        ["_cat", "shards", index] => Endpoint::CatShards { index: Some(own(index)) },
        _ => return None,
    })
}

impl Endpoint {
    /// The methods ES registers for the path.
    pub fn methods(&self) -> &'static [&'static str] {
        match self {
            Endpoint::Explain { .. }
            | Endpoint::ValidateQuery { .. }
            | Endpoint::SearchShards { .. }
            | Endpoint::SearchTemplate { .. }
            | Endpoint::MsearchTemplate { .. }
            | Endpoint::RenderTemplate { .. }
            | Endpoint::Termvectors { .. }
            | Endpoint::Mtermvectors { .. }
            | Endpoint::PainlessExecute => &["GET", "POST"],
            Endpoint::ClusterHealth { .. } | Endpoint::Stats { .. } => &["GET"],
            Endpoint::CatHealth | Endpoint::CatShards { .. } => &["GET", "HEAD"],
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
            Endpoint::SearchShards { .. } => {
                p.extend(["index", "type", "routing", "preference", "local"]);
                p.extend(INDICES_OPTIONS);
            }
            Endpoint::ClusterHealth { .. } => {
                p.extend(["index", "level", "local", "master_timeout", "timeout", "wait_for_active_shards"]);
                p.extend(["wait_for_nodes", "wait_for_events", "wait_for_no_relocating_shards"]);
                p.extend(["wait_for_no_initializing_shards", "wait_for_status"]);
                p.extend(INDICES_OPTIONS);
            }
            Endpoint::Stats { .. } => {
                p.extend(["index", "metric", "level", "types", "groups", "fields", "completion_fields"]);
                p.extend(["fielddata_fields", "include_segment_file_sizes"]);
                p.extend(INDICES_OPTIONS);
            }
            Endpoint::CatHealth => {
                p.extend(CAT_PARAMS);
                p.extend(["s"]);
            }
            Endpoint::CatShards { .. } => {
                p.extend(CAT_PARAMS);
                p.extend(["index", "s", "master_timeout"]);
            }
            Endpoint::SearchTemplate { .. } => {
                p.extend(SEARCH_PARAMS);
                if has_q {
                    p.extend(Q_PARAMS);
                }
            }
            Endpoint::MsearchTemplate { .. } => {
                p.extend(["index", "type", "search_type", "routing", "max_concurrent_searches", "typed_keys"]);
                p.extend(["rest_total_hits_as_int"]);
                p.extend(SOURCE);
            }
            Endpoint::RenderTemplate { .. } => {
                p.extend(["id"]);
                p.extend(SOURCE);
            }
            Endpoint::PainlessExecute => p.extend(SOURCE),
            Endpoint::Termvectors { .. } | Endpoint::Mtermvectors { .. } => {
                p.extend(["index", "type", "id", "ids", "fields", "offsets", "positions", "payloads"]);
                p.extend(["term_statistics", "field_statistics", "routing", "parent", "preference", "realtime"]);
                p.extend(["version", "version_type"]);
                p.extend(SOURCE);
            }
        }
    }
}

/// The answer of one of these endpoints (`path`: the request's path, as ES quotes it;
/// `accept`: its `Accept` header, which cat tables read).
pub(super) fn answer(
    engine: &Engine,
    e: Endpoint,
    body: &str,
    params: &[(String, String)],
    path: &str,
    accept: Option<&str>,
) -> Result<Response> {
    match e {
        Endpoint::Explain { index, doc_type, id } => {
            let (status, bytes) = engine.explain_bytes(&index, &doc_type, &id, body, params)?;
            Ok(written_response(status, bytes, params))
        }
        Endpoint::ValidateQuery { index, types } => {
            Ok(json_response(200, &engine.validate_query(&index, &types, body, params)?, params))
        }
        Endpoint::SearchShards { index } => cluster_api::search_shards(engine, &index, params),
        Endpoint::ClusterHealth { index } => cluster_api::cluster_health(engine, index.as_deref(), params),
        Endpoint::Stats { index, metric } => index_stats::stats(engine, &index, metric.as_deref(), path, params),
        Endpoint::CatHealth => cluster_api::cat_health(engine, params, accept),
        Endpoint::CatShards { index } => cluster_api::cat_shards(engine, index.as_deref(), params, accept),
        Endpoint::MsearchTemplate { index, types } => {
            templates::msearch(engine, index.as_deref(), &types, body, params)
        }
        Endpoint::RenderTemplate { id } => templates::render(id.as_deref(), body, params),
        Endpoint::Termvectors { index, doc_type, id } => Ok(json_response(
            200,
            &engine.termvectors(&TermVectorsRequest::parse(&index, &doc_type, id.as_deref(), body, params)?)?,
            params,
        )),
        Endpoint::Mtermvectors { index, doc_type } => Ok(json_response(
            200,
            &engine.mtermvectors(&MtermvectorsRequest::parse(index.as_deref(), doc_type.as_deref(), body, params)?)?,
            params,
        )),
        Endpoint::PainlessExecute => super::painless_execute::answer(engine, body, params),
        // The gateway runs the rendered search itself (it owns scrolls).
        Endpoint::SearchTemplate { .. } => {
            Err(crate::error::Error::illegal_argument("answered by the gateway's search"))
        }
    }
}
