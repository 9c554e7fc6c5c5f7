//! The `scripted_metric` aggregation's body, read as ES 6.8's
//! `ScriptedMetricAggregationBuilder` reads it: `init_script`, `map_script` (required),
//! `combine_script`, `reduce_script` and `params`.

use crate::error::{Error, Result};
use crate::json_value::token_name;
use crate::script::Script;
use serde_json::{Map, Value};
use std::sync::Arc;

/// `scripted_metric`.
#[derive(Debug, Clone)]
pub struct ScriptedMetricSpec {
    /// Runs once per shard before the documents.
    pub init: Option<Arc<Script>>,
    /// Runs once per document.
    pub map: Arc<Script>,
    /// Runs once per shard after the documents; its value is the shard's result.
    pub combine: Option<Arc<Script>>,
    /// Runs once over the shards' results; its value is the aggregation's.
    pub reduce: Option<Arc<Script>>,
    /// The aggregation's `params` (an object), shared by init, map and combine.
    pub params: Map<String, Value>,
}

/// Parses a `scripted_metric` body as 6.8's parser does: scripts are strings or objects,
/// `params` an object; anything else is a parsing error.
pub fn parse(name: &str, o: &Map<String, Value>) -> Result<ScriptedMetricSpec> {
    let mut scripts: [Option<Arc<Script>>; 4] = [None, None, None, None];
    let mut params = Map::new();
    for (k, v) in o {
        if !matches!(v, Value::Object(_) | Value::String(_)) {
            return Err(Error::parsing_no_pos(format!("Unexpected token {} in [{name}].", token_name(v))));
        }
        let slot = match (k.as_str(), v) {
            ("init_script", _) => 0,
            ("map_script", _) => 1,
            ("combine_script", _) => 2,
            ("reduce_script", _) => 3,
            ("params", Value::Object(p)) => {
                params = p.clone();
                continue;
            }
            _ => return Err(Error::parsing_no_pos(format!("Unknown key for a {} in [{name}]: [{k}].", token_name(v)))),
        };
        scripts[slot] = Some(Arc::new(Script::parse(v)?));
    }
    let [init, map, combine, reduce] = scripts;
    let Some(map) = map else {
        return Err(Error::parsing_no_pos(format!("map_script field is required in [{name}].")));
    };
    Ok(ScriptedMetricSpec { init, map, combine, reduce, params })
}
