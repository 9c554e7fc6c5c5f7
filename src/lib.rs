//! metagate: an embedded search engine for research metadata that serves the
//! Elasticsearch 6.8 search API from one redb file.
//!
//! Start from [`Engine`]: it opens a file ([`Engine::open`], [`Engine::open_or_create`],
//! or an image in memory with [`Engine::from_bytes`]), loads NDJSON into immutable index
//! generations ([`Engine::load`] with [`LoadOptions`]), moves aliases between them
//! atomically ([`Engine::update_aliases`], [`Engine::swap_alias`]) and answers the ES read
//! API: its search family takes typed requests, read from ES's bodies and URI parameters
//! ([`SearchRequest`], [`CountRequest`], [`MsearchRequest`], [`ScrollStartRequest`],
//! [`ScrollNextRequest`]), and answers typed responses that write ES 6.8's JSON
//! ([`Engine::search_request`], [`Engine::count`], [`Engine::msearch`],
//! [`Engine::start_scroll`], [`Engine::next_scroll_page`]); [`Engine::get_document`],
//! [`Engine::get_mapping`], ... answer ES's JSON. Every failure is an [`Error`] that
//! renders as ES's error JSON with its HTTP status.
//!
//! ```
//! # fn main() -> metagate::Result<()> {
//! use metagate::{Engine, LoadOptions, SearchRequest};
//!
//! let path = std::env::temp_dir().join(format!("metagate-doc-{}.redb", std::process::id()));
//! let engine = Engine::open_or_create(&path)?;
//! let records = concat!(
//!     "{\"index\":{\"_id\":\"SCR_001\"}}\n",
//!     "{\"name\":\"BLAST\",\"description\":\"sequence alignment search\"}\n",
//!     "{\"index\":{\"_id\":\"SCR_002\"}}\n",
//!     "{\"name\":\"ImageJ\",\"description\":\"image analysis\"}\n",
//! );
//! let options = LoadOptions { alias: Some("tools".into()), ..Default::default() };
//! let report = engine.load("tools-v1", records.as_bytes(), &options, &mut |_, _| {})?;
//! assert_eq!(report.docs, 2);
//!
//! let request = SearchRequest::parse(r#"{"query": {"match": {"description": "alignment"}}}"#, &[], &[])?;
//! let answer = engine.search_request("tools", &request, Default::default())?.to_value()?;
//! assert_eq!(answer["hits"]["total"], 1);
//! assert_eq!(answer["hits"]["hits"][0]["_id"], "SCR_001");
//! # drop(engine);
//! # std::fs::remove_file(&path).ok();
//! # Ok(())
//! # }
//! ```
//!
//! The [`gateway`] is the HTTP contract as a function (routes, API keys, URL parameters,
//! CORS, ES's errors); [`http`] serves it over TCP. The in-process doors — the C ABI in
//! `include/metagate.h`, the Python package over it, the WASM module — ask the same
//! gateway with a typed [`gateway::call::Call`], so every door answers the same bytes:
//!
//! ```
//! # fn main() -> metagate::Result<()> {
//! # let path = std::env::temp_dir().join(format!("metagate-doc-gw-{}.redb", std::process::id()));
//! # let engine = metagate::Engine::open_or_create(&path)?;
//! # let records = "{\"index\":{\"_id\":\"SCR_001\"}}\n{\"name\":\"BLAST\"}\n";
//! # engine.load("tools-v1", records.as_bytes(), &Default::default(), &mut |_, _| {})?;
//! use metagate::gateway::{call::Call, Gateway};
//!
//! let gateway = Gateway::new(std::sync::Arc::new(engine), Default::default());
//! let answer = gateway.call(Call::search("tools-v1", "q=name:blast&filter_path=hits.total", ""));
//! assert_eq!((answer.status, answer.body.as_slice()), (200, &br#"{"hits":{"total":1}}"#[..]));
//! # drop(gateway);
//! # std::fs::remove_file(&path).ok();
//! # Ok(())
//! # }
//! ```
//!
//! [`export`] moves indices to an Elasticsearch or OpenSearch cluster and [`import`] one
//! back ([`cluster`],
//! [`compat`]); [`gen`] writes synthetic registry records for benchmarks; [`demo`] builds
//! the embedded demo corpus. Everything else is the engine's inside (see
//! `ARCHITECTURE.md`) and is not part of the API.

// `Error` carries a whole ES exception tree; it is returned on cold paths only, so its
// size does not matter and boxing it would only add indirection to every constructor.
#![allow(clippy::result_large_err)]

// The facade: what a Rust user (and the CLI, the WASM crate, the benches) builds on.
// Everything else is the engine's inside and may change without notice.
#[cfg(feature = "cluster")]
pub mod cluster;
pub mod compat;
#[cfg(feature = "demo")]
pub mod demo;
// Exports read and write files: not in the browser.
#[cfg(not(target_arch = "wasm32"))]
pub mod export;
// One index read from a cluster into the file: the inverse of `export --to`.
#[cfg(all(feature = "cluster", not(target_arch = "wasm32")))]
pub mod import;
// A request's deadline, cancel flag and byte breaker (doors open one per request).
pub mod budget;
// Fuzzing harnesses, shared by `fuzz/` and `tests/fuzz_regressions.rs`.
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod gateway;
pub mod gen;
#[cfg(feature = "http")]
pub mod http;
// Painless for search scripts; public for its Java comparison test and bench.
pub mod script;

pub use analysis::analyze_api::{AnalyzeRequest, AnalyzeResponse};
pub use engine::{AliasAction, Engine, IndexInfo, IndicesOptions};
pub use error::{Error, Result};
pub use load::{LineError, LoadOptions, LoadReport, Progress};
pub use mapping::Family;
pub use node::{ES_VERSION, NODE_ID, VERSION};
pub use read::count::CountResponse;
pub use read::docs::{FoundDocument, GetResponse, MgetDocument, MgetResponse, MissingDocument, SourceResponse};
pub use read::indices::{
    AliasesResponse, FieldCaps, FieldCapsResponse, FieldMappingResponse, IndexAliases, IndexDescription, IndexMapping,
    IndexResponse, MappingResponse, SettingsResponse,
};
pub use read::msearch::MsearchResponse;
pub use request::aliases::AliasesRequest;
pub use request::count::CountRequest;
pub use request::field_caps::FieldCapsRequest;
pub use request::get::{GetOptions, GetRequest, SourceRequest};
pub use request::index_info::{IndexRequest, SettingsRequest};
pub use request::indices_options::indices_options;
pub use request::mapping::{FieldMappingRequest, MappingRequest};
pub use request::mget::{MgetItem, MgetRequest};
pub use request::msearch::{MsearchItem, MsearchRequest};
pub use request::scroll::{ClearScrollRequest, ScrollNextRequest, ScrollSource, ScrollStartRequest};
pub use request::SearchRequest;
pub use search::explain::Expl;
/// The typed aggregation results a [`SearchResponse`] holds (`SearchResponse::aggregations`).
pub use search::response::aggregations;
pub use search::response::hit_values::{HitValue, Named, NestedIdentity, SortShown};
pub use search::response::{HitJson, Hits, SearchResponse};
pub use search::suggest::{Suggest, SuggestEntry, SuggestOption};
pub use settings::alias::{AliasOptions, AliasTarget};
#[doc(hidden)]
pub use store::catalog_entries_touched;
pub use store::{ChunkPolicy, Compaction, ImageSource, FORMAT_VERSION};

mod analysis;
mod api_keys;
mod date;
mod deprecation;
mod engine;
mod error;
mod geo;
// The C ABI has no use in the browser, and its exported symbols would keep the whole
// engine (loading, the gateway) in the WASM module. Its `#[no_mangle]` functions are the
// library's C symbols whatever the module's visibility.
#[cfg(not(target_arch = "wasm32"))]
mod ffi;
mod index;
mod index_names;
mod json_value;
mod load;
mod lru;
mod mapping;
mod node;
mod query;
mod read;
mod request;
mod request_cache;
mod scroll;
mod search;
mod settings;
mod shard_counters;
mod store;

/// Runs the ES 6.8 built-in analyzer named `analyzer` (`standard`, `english`, ...,
/// Lucene-exact) over `text` and returns the tokens' terms in order, as `_analyze` lists
/// them.
pub fn analyze(analyzer: &str, text: &str) -> Result<Vec<String>> {
    let analyzer = analysis::definition::AnalysisRegistry::global().field_analyzer(analyzer)?;
    Ok(analyzer.analyze(text)?.into_iter().map(|t| t.text).collect())
}

/// Answers an `_analyze` request without an index (ES 6.8's `GET /_analyze`): the
/// built-in analyzers and components, or ones defined inline.
pub fn analyze_request(req: &AnalyzeRequest) -> Result<AnalyzeResponse> {
    read::analyze::analyze_global(req)
}

/// Answers an `_analyze` request as an index whose `settings.analysis` is `analysis`
/// (and which maps no field) answers it: its analyzers, tokenizers, filters and char
/// filters by name.
pub fn analyze_request_with_analysis(analysis: &serde_json::Value, req: &AnalyzeRequest) -> Result<AnalyzeResponse> {
    read::analyze::analyze_with_analysis(analysis, req)
}
