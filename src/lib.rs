//! metagate: an embedded search engine for research metadata that serves the
//! Elasticsearch 6.8 search API from one redb file.
//!
//! The [`Engine`] opens a file, resolves index expressions and aliases, and runs searches
//! whose requests and responses are ES 6.8 JSON. Loading builds immutable index
//! generations; aliases move atomically between them.

// `Error` carries a whole ES exception tree; it is returned on cold paths only, so its
// size does not matter and boxing it would only add indirection to every constructor.
#![allow(clippy::result_large_err)]

pub mod analysis;
#[cfg(feature = "cluster")]
pub mod cluster;
pub mod compat;
pub mod date;
#[cfg(feature = "demo")]
pub mod demo;
pub mod deprecation;
pub mod engine;
pub mod error;
// Exports read and write files: not in the browser.
#[cfg(not(target_arch = "wasm32"))]
pub mod export;
// The C ABI has no use in the browser, and its exported symbols would keep the whole
// engine (loading, the gateway) in the WASM module.
#[cfg(not(target_arch = "wasm32"))]
pub mod ffi;
pub mod gateway;
pub mod gen;
#[cfg(feature = "http")]
pub mod http;
pub mod index;
pub mod index_names;
pub mod load;
pub mod mapping;
pub mod query;
pub mod read;
pub mod scroll;
pub mod search;
pub mod store;

pub use engine::{AliasAction, Engine, IndexInfo, IndicesOptions};
pub use error::{Error, Result};

/// The node id this engine reports where ES names a node.
pub const NODE_ID: &str = "metagate-node-0";

/// The Elasticsearch version the API speaks (reported by `GET /` and in `Warning` headers).
pub const ES_VERSION: &str = "6.8.23";

/// The crate version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
