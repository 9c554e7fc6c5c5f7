//! Highlighting of matched terms in `_source` text.

use super::exec::Executor;
use crate::error::{Error, Result};
use crate::query::Query;
use serde_json::{Map, Value};

/// Highlight fragments per field.
pub fn highlight(_ex: &Executor<'_>, _q: &Query, _spec: &Value, _source: &Value) -> Result<Map<String, Value>> {
    Err(Error::illegal_argument("[highlight] is not supported by this build"))
}
