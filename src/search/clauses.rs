//! `indices.query.bool.max_clause_count`: Lucene 7's limit on the clauses of one
//! `BooleanQuery`, checked before the clauses are compiled.
//!
//! Lucene 7 (ES 6.8) counts per `BooleanQuery`, not over the whole query tree: two `bool`
//! queries of 1,000 clauses each are fine, one of 1,025 is not. Besides the `bool` query,
//! the queries that build a `BooleanQuery` from the words of their text hit the same
//! limit: `match` and `multi_match` (one clause per analyzed term), `query_string` and
//! `simple_query_string` (one clause per operand of a boolean group). A `terms` query is a
//! `TermInSetQuery` (bounded by `index.max_terms_count` instead), and prefix, wildcard and
//! regexp rewrite to constant-score sets, so neither counts here.

use super::context::Executor;
use crate::error::{Error, Exception, Result};

/// Most clauses one boolean query may hold (Lucene's `BooleanQuery.maxClauseCount`).
pub const MAX_CLAUSE_COUNT: usize = 1024;

/// Lucene's `TooManyClauses`.
fn too_many_clauses() -> Exception {
    Exception::new("too_many_clauses", format!("maxClauseCount is set to {MAX_CLAUSE_COUNT}"))
}

/// The `query_shard_exception` of index `ex` with `reason`, caused by `cause`.
fn shard_exception(ex: &Executor<'_>, reason: String, cause: Exception) -> Error {
    let meta = &ex.reader.meta;
    let e = Exception::new("query_shard_exception", reason)
        .with_meta("index_uuid", meta.uuid.as_str())
        .with_meta("index", meta.name.as_str())
        .caused_by(cause);
    Error::all_shards_failed(400, Some(&meta.name), e)
}

/// Fails when a boolean query of `n` clauses is over the limit. ES wraps Lucene's
/// `TooManyClauses` thrown while building the query in a shard's `query_shard_exception`
/// ("failed to create query"), failing every shard with 400.
pub fn check(ex: &Executor<'_>, n: usize) -> Result<()> {
    if n <= MAX_CLAUSE_COUNT {
        return Ok(());
    }
    Err(shard_exception(
        ex,
        format!("failed to create query: maxClauseCount is set to {MAX_CLAUSE_COUNT}"),
        too_many_clauses(),
    ))
}

/// Whether `e` is the failure [`check`] raises. Leniency must not swallow it: ES's
/// `lenient` covers values that do not parse as a field's type, not the query's size.
pub fn is_too_many_clauses(e: &Error) -> bool {
    e.to_json()["error"]["failed_shards"][0]["reason"]["caused_by"]["type"] == "too_many_clauses"
}

/// Checks a `query_string` `query` whose widest boolean has `widest` clauses: Lucene's
/// classic parser turns `TooManyClauses` into a `ParseException` ("too many boolean
/// clauses"), which ES reports as a failure to parse the query, as it does a syntax
/// error. (A `simple_query_string`'s parser lets `TooManyClauses` escape, so ES reports
/// it as a `bool` query's: [`check`].)
pub fn check_query_string(ex: &Executor<'_>, widest: usize, query: &str) -> Result<()> {
    if widest <= MAX_CLAUSE_COUNT {
        return Ok(());
    }
    let parse = Exception::new("parse_exception", format!("Cannot parse '{query}': too many boolean clauses"))
        .caused_by(too_many_clauses());
    Err(shard_exception(ex, format!("Failed to parse query [{query}]"), parse))
}
