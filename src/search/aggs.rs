//! Aggregations.

use crate::error::{Error, Result};
use crate::index::{DocSet, IndexReader};
use crate::store::Snapshot;
use serde_json::Value;
use std::sync::Arc;

/// Computes the `aggregations` section.
pub fn aggregate(
    _spec: &Value,
    _targets: &[Arc<IndexReader>],
    _matched: &[DocSet],
    _snap: &Snapshot,
    _typed_keys: bool,
    _now_ms: i64,
) -> Result<Value> {
    Err(Error::illegal_argument("aggregations are not supported by this build"))
}
