//! Moving indices out of a metagate file into an Elasticsearch or OpenSearch cluster.
//!
//! An [`Export`] reads one snapshot of the file: the concrete indices an index name or
//! alias expression resolves to, and the aliases that point at them. For each index it
//! gives what a cluster needs to hold the same data:
//!
//! - the create-index body: settings (one shard, so that BM25 statistics and therefore
//!   scores are the ones metagate computes; `index.max_result_window`; the lower-casing
//!   normalizer of the `.aggregate` sub-fields) and the mapping after loading, every field
//!   explicit, with the dynamic templates for documents added later;
//! - the documents as `_bulk` NDJSON: an `index` action with `_index`, `_id` (and `_type`
//!   for ES 6.8) and the stored `_source` as it was loaded, in document order;
//! - `_aliases` actions that point the aliases at the indices.
//!
//! [`files`] writes them to a directory with a `load.sh` that loads them with curl;
//! [`to_cluster`] sends them to a cluster directly.

pub mod files;
#[cfg(feature = "cluster")]
pub mod to_cluster;

use crate::compat::Flavor;
use crate::engine::{Engine, IndicesOptions};
use crate::error::{Error, Result};
use crate::index::{IndexReader, StoredDoc};
use crate::store::Snapshot;
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// The normalizer the exported mappings name for metagate's `lowercase` one. ES 6.8 ships
/// no built-in normalizer and later versions ship one named `lowercase`; a custom
/// normalizer of another name, defined in the index settings, means the same on all of them.
pub const LOWERCASE_NORMALIZER: &str = "metagate_lowercase";

/// One index of an export.
pub struct ExportIndex {
    /// The concrete index name.
    pub name: String,
    /// The document type of its records (`_doc` when it has none).
    pub doc_type: String,
    /// Number of documents.
    pub docs: u64,
    reader: Arc<IndexReader>,
}

/// What an index name or alias expression exports, read from one snapshot.
pub struct Export {
    snap: Snapshot,
    indices: Vec<ExportIndex>,
    /// (alias, index) pairs, for the exported indices only.
    aliases: Vec<(String, String)>,
    /// The options (filter, routing) of each of those pairs.
    alias_options: Vec<crate::settings::alias::AliasOptions>,
}

impl Export {
    /// The indices `name` resolves to (an index, an alias, a list or a pattern) and the
    /// aliases that point at them. A name that matches nothing is `index_not_found_exception`.
    pub fn plan(engine: &Engine, name: &str) -> Result<Export> {
        let snap = engine.snapshot()?;
        let opts = IndicesOptions { ignore_unavailable: false, allow_no_indices: false };
        let readers = engine.resolve(&snap, name, opts)?;
        if readers.is_empty() {
            return Err(Error::index_not_found(name));
        }
        let mut indices = Vec::new();
        for reader in readers {
            let doc_type = reader.type_name(&snap)?;
            indices.push(ExportIndex {
                name: reader.meta.name.clone(),
                doc_type,
                docs: match reader.root_docs(&snap)? {
                    Some(roots) => roots.len(),
                    None => u64::from(reader.max_doc()),
                },
                reader,
            });
        }
        let mut aliases = Vec::new();
        let mut alias_options = Vec::new();
        for (alias, targets) in engine.alias_targets(&snap)? {
            for t in targets.into_iter().filter(|t| indices.iter().any(|i| i.name == t.index)) {
                aliases.push((alias.clone(), t.index));
                alias_options.push(t.options);
            }
        }
        Ok(Export { snap, indices, aliases, alias_options })
    }

    /// The exported indices, sorted by name.
    pub fn indices(&self) -> &[ExportIndex] {
        &self.indices
    }

    /// (alias, index) pairs pointing at exported indices.
    pub fn aliases(&self) -> &[(String, String)] {
        &self.aliases
    }

    /// Documents over all exported indices.
    pub fn total_docs(&self) -> u64 {
        self.indices.iter().map(|i| i.docs).sum()
    }

    /// The body of `PUT /{index}` that creates `index` with its settings and mapping.
    pub fn create_index_body(&self, index: &ExportIndex, flavor: Flavor) -> Value {
        let meta = &index.reader.meta;
        let mut mapping = meta.mapping.to_json();
        let uses_lowercase = rename_normalizers(&mut mapping);
        // The settings the index was created with, less the ones a cluster sets itself.
        let mut index_settings = match meta.settings.subtree("index.") {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        for private in ["creation_date", "uuid", "version", "provided_name"] {
            index_settings.remove(private);
        }
        // One shard: ES computes BM25 statistics per shard, metagate per index.
        index_settings.insert("number_of_shards".into(), json!(1));
        index_settings.insert("max_result_window".into(), json!(meta.settings.limits.max_result_window));
        let mut settings = json!({ "index": index_settings });
        if uses_lowercase {
            settings["analysis"] = json!({"normalizer": {LOWERCASE_NORMALIZER: {
                "type": "custom", "char_filter": [], "filter": ["lowercase"]
            }}});
        }
        let mappings = match flavor {
            Flavor::Typed => json!({ index.doc_type.clone(): mapping }),
            Flavor::Typeless => mapping,
        };
        json!({"settings": settings, "mappings": mappings})
    }

    /// The body of `POST /_aliases` that points every exported alias at its indices.
    pub fn alias_actions(&self) -> Value {
        let actions: Vec<Value> = self
            .aliases
            .iter()
            .zip(&self.alias_options)
            .map(|((alias, index), options)| {
                let mut add = json!({"index": index, "alias": alias});
                if let (Value::Object(a), Value::Object(o)) = (&mut add, options.to_json()) {
                    a.extend(o);
                }
                json!({ "add": add })
            })
            .collect();
        json!({ "actions": actions })
    }

    /// Calls `f` with each document of `index` in document order, and the routing it
    /// was loaded with.
    pub fn for_each_document(
        &self,
        index: &ExportIndex,
        mut f: impl FnMut(&StoredDoc, Option<&str>) -> Result<()>,
    ) -> Result<()> {
        let routings = index.reader.keyword_doc_values(&self.snap, crate::index::ROUTING_FIELD)?;
        for (ord, doc) in index.reader.documents(&self.snap)?.enumerate() {
            let doc = doc?;
            // Nested documents (stored without an `_id`) are part of their root's source.
            if !doc.id().is_empty() {
                let routing = routings.as_ref().and_then(|dv| dv.ords(ord as u32).next().map(|o| dv.term(o)));
                f(&doc, routing)?;
            }
        }
        Ok(())
    }
}

/// Appends the two `_bulk` lines of `doc` (action, with its `routing` if it has one, and
/// source) to `out`.
pub(crate) fn bulk_entry(
    index: &ExportIndex,
    doc: &StoredDoc,
    routing: Option<&str>,
    flavor: Flavor,
    out: &mut Vec<u8>,
) -> Result<()> {
    let mut action = Map::new();
    action.insert("_index".into(), json!(index.name));
    if flavor == Flavor::Typed {
        action.insert("_type".into(), json!(doc.doc_type()));
    }
    action.insert("_id".into(), json!(doc.id()));
    if let Some(r) = routing {
        action.insert("routing".into(), json!(r));
    }
    serde_json::to_writer(&mut *out, &json!({ "index": action })).map_err(|e| Error::storage(e.to_string()))?;
    out.push(b'\n');
    if doc.source().iter().any(|&b| b == b'\n' || b == b'\r') {
        // A source stored with line breaks between its tokens would end the NDJSON line:
        // write it compactly (key order is kept).
        let v: Value = serde_json::from_slice(doc.source())
            .map_err(|e| Error::storage(format!("stored _source of [{}] is not JSON: {e}", doc.id())))?;
        serde_json::to_writer(&mut *out, &v).map_err(|e| Error::storage(e.to_string()))?;
    } else {
        out.extend_from_slice(doc.source());
    }
    out.push(b'\n');
    Ok(())
}

/// Renames the `lowercase` normalizer to [`LOWERCASE_NORMALIZER`] everywhere in a mapping
/// (fields and dynamic templates); true when it was used.
fn rename_normalizers(v: &mut Value) -> bool {
    match v {
        Value::Object(o) => {
            let mut used = false;
            for (k, child) in o.iter_mut() {
                if k == "normalizer" && child.as_str() == Some("lowercase") {
                    *child = json!(LOWERCASE_NORMALIZER);
                    used = true;
                } else {
                    used |= rename_normalizers(child);
                }
            }
            used
        }
        Value::Array(a) => a.iter_mut().fold(false, |used, x| rename_normalizers(x) | used),
        _ => false,
    }
}

/// `name` percent-encoded for a URL path (index names may hold `%`, `+`, `&`, ...).
pub(crate) fn path_segment(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizers_are_renamed_everywhere() {
        let mut m = json!({"dynamic_templates": [{"s": {"mapping": {"fields": {"aggregate": {"normalizer": "lowercase"}}}}}],
                           "properties": {"a": {"type": "keyword"}}});
        assert!(rename_normalizers(&mut m));
        assert_eq!(
            m.pointer("/dynamic_templates/0/s/mapping/fields/aggregate/normalizer"),
            Some(&json!(LOWERCASE_NORMALIZER))
        );
        assert!(!rename_normalizers(&mut json!({"properties": {"a": {"type": "keyword"}}})));
    }

    #[test]
    fn path_segments() {
        assert_eq!(path_segment("tools-2026.v1_a"), "tools-2026.v1_a");
        assert_eq!(path_segment("a+b%c&d"), "a%2Bb%25c%26d");
    }
}
