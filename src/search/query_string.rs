//! `query_string` and `simple_query_string`: Lucene syntax turned into queries per index.

use super::exec::Executor;
use super::matches::Matches;
use crate::error::{Error, Result};
use crate::query::QueryStringQuery;

/// Runs a query_string query.
pub fn run(
    _ex: &Executor<'_>,
    _q: &QueryStringQuery,
    _boost: f32,
    _scoring: bool,
) -> Result<Matches> {
    Err(Error::illegal_argument(
        "[query_string] is not supported by this build",
    ))
}
