//! A phrase suggestion's `collate`: its Mustache query template rendered for each
//! correction (`{{suggestion}}` and the collate's `params`), read as a query and run in
//! filter context on the index; a correction collates when a document matches.

use crate::error::{Error, Result};
use crate::index::IndexReader;
use crate::request::phrase_suggest::Collate;
use crate::request::template::SearchTemplate;
use crate::search::context::Executor;
use crate::store::Snapshot;
use serde_json::Value;

/// Whether the collate query of `suggestion` matches a document of `reader`.
pub fn matches(reader: &IndexReader, snap: &Snapshot, now: i64, collate: &Collate, suggestion: &str) -> Result<bool> {
    let mut params = collate.params.clone();
    params.insert("suggestion".into(), Value::String(suggestion.to_string()));
    let template = SearchTemplate {
        source: collate.source.clone(),
        params: Value::Object(params),
        explain: false,
        profile: false,
    };
    let text = template.render()?;
    let json: Value = serde_json::from_str(&text).map_err(|e| Error::json_parse(e.to_string()))?;
    let query = crate::query::dsl::DslParser::new(&text).parse(&json)?;
    Ok(!Executor::new(reader, snap, now).filter(&query)?.is_empty())
}
