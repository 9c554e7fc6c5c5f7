//! `explain`: the Lucene 7 explanation tree of a hit's score.

use super::exec::Executor;
use crate::error::{Error, Result};
use crate::query::Query;
use serde_json::Value;

/// The explanation of `doc`'s score under `q`.
pub fn explain(_ex: &Executor<'_>, _q: &Query, _doc: u32) -> Result<Value> {
    Err(Error::illegal_argument("[explain] is not supported by this build"))
}
