//! GET (and HEAD) `_alias` / `_aliases` as a typed request, as ES 6.8's
//! RestGetAliasesAction reads it.

use crate::error::Result;
use crate::request::indices_options::{indices_options, IndicesOptions};

/// GET `[{index}]/_alias[/{name}]`, `_aliases`.
#[derive(Debug, Clone)]
pub struct AliasesRequest {
    /// The index expression; `None` for every index.
    pub index: Option<String>,
    /// The aliases asked for: names, patterns, `_all`, and `-` exclusions,
    /// comma-separated; `None` for every alias (and every index, with or without one).
    pub names: Option<String>,
    /// How the index expression resolves.
    pub indices: IndicesOptions,
}

impl AliasesRequest {
    /// The request of a path's index and names and the URL parameters.
    pub fn parse(index: Option<&str>, names: Option<&str>, params: &[(String, String)]) -> Result<AliasesRequest> {
        Ok(AliasesRequest {
            index: index.map(str::to_string),
            names: names.map(str::to_string),
            indices: indices_options(params)?,
        })
    }
}
