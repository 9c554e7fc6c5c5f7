//! The catalog entry of one concrete index, stored as JSON in the `indices` table.

use crate::error::{Error, Result};
use crate::mapping::Mapping;
use crate::settings::IndexSettings;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// Statistics and identity of one indexed field within a generation.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldStats {
    /// Numeric id used in postings keys and blob names.
    pub id: u32,
    /// Documents with at least one term in the field.
    pub doc_count: u64,
    /// Sum of all term frequencies (total tokens).
    pub sum_total_term_freq: u64,
    /// Sum of document frequencies over all terms.
    pub sum_doc_freq: u64,
    /// Number of distinct terms.
    pub terms: u64,
    /// Whether an inverted index exists for the field.
    pub inverted: bool,
    /// Whether doc values exist for the field.
    pub doc_values: bool,
}

/// What a load defines an index as, besides its mapping: written into its catalog entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Definition {
    /// Index family, when created from a family template.
    pub family: Option<String>,
    /// The index settings.
    pub settings: IndexSettings,
    /// The mapping type's name.
    pub type_name: Option<String>,
}

/// Everything the catalog knows about one concrete index.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexMeta {
    /// The concrete index name.
    pub name: String,
    /// The generation holding its data.
    pub generation: u64,
    /// A stable random id (ES `index_uuid`).
    pub uuid: String,
    /// Creation time, epoch millis.
    pub created_ms: i64,
    /// Number of documents.
    pub doc_count: u64,
    /// Bytes written for the generation.
    pub size_bytes: u64,
    /// Index family, when created from a family template.
    pub family: Option<String>,
    /// The mapping after loading (including dynamic fields).
    pub mapping: Mapping,
    /// The index settings given at creation, and the limits searches apply.
    pub settings: IndexSettings,
    /// The mapping type's name (`None` in files written before it was kept).
    pub type_name: Option<String>,
    /// Per-field statistics by path.
    pub fields: BTreeMap<String, FieldStats>,
}

impl IndexMeta {
    /// The index's creation date, epoch millis: the `index.creation_date` its settings
    /// give (an index exported from a cluster keeps the cluster's), else when it was loaded.
    pub fn creation_date_ms(&self) -> i64 {
        self.settings
            .given()
            .get("index.creation_date")
            .and_then(|v| v.to_json().as_str().and_then(|t| t.parse().ok()))
            .unwrap_or(self.created_ms)
    }

    /// Serializes to the catalog JSON.
    pub fn to_json(&self) -> Value {
        let mut fields = Map::new();
        for (k, f) in &self.fields {
            fields.insert(
                k.clone(),
                json!({"id": f.id, "doc_count": f.doc_count, "sum_total_term_freq": f.sum_total_term_freq,
                       "sum_doc_freq": f.sum_doc_freq, "terms": f.terms, "inverted": f.inverted, "doc_values": f.doc_values}),
            );
        }
        let mut v = json!({
            "name": self.name, "generation": self.generation, "uuid": self.uuid,
            "created_ms": self.created_ms, "doc_count": self.doc_count, "size_bytes": self.size_bytes,
            "family": self.family, "mapping": self.mapping.to_json(),
            "settings": self.settings.to_json(), "type_name": self.type_name,
            "fields": fields
        });
        // The `synonyms_path` files read at creation: the file answers without them.
        if !self.mapping.analysis.files.is_empty() {
            v["analysis_files"] = json!(self.mapping.analysis.files);
        }
        v
    }

    /// Parses the catalog JSON.
    pub fn from_json(v: &Value) -> Result<IndexMeta> {
        let bad = || Error::storage("corrupt catalog entry");
        let u = |k: &str| v.get(k).and_then(Value::as_u64).ok_or_else(bad);
        let mut fields = BTreeMap::new();
        if let Some(Value::Object(fs)) = v.get("fields") {
            for (k, f) in fs {
                let g = |n: &str| f.get(n).and_then(Value::as_u64).unwrap_or(0);
                fields.insert(
                    k.clone(),
                    FieldStats {
                        id: g("id") as u32,
                        doc_count: g("doc_count"),
                        sum_total_term_freq: g("sum_total_term_freq"),
                        sum_doc_freq: g("sum_doc_freq"),
                        terms: g("terms"),
                        inverted: f.get("inverted").and_then(Value::as_bool).unwrap_or(false),
                        doc_values: f.get("doc_values").and_then(Value::as_bool).unwrap_or(false),
                    },
                );
            }
        }
        let settings = IndexSettings::from_catalog(v.get("settings").unwrap_or(&Value::Null))?;
        Ok(IndexMeta {
            name: v.get("name").and_then(Value::as_str).ok_or_else(bad)?.to_string(),
            generation: u("generation")?,
            uuid: v.get("uuid").and_then(Value::as_str).unwrap_or("_na_").to_string(),
            created_ms: v.get("created_ms").and_then(Value::as_i64).unwrap_or(0),
            doc_count: u("doc_count")?,
            size_bytes: v.get("size_bytes").and_then(Value::as_u64).unwrap_or(0),
            family: v.get("family").and_then(Value::as_str).map(str::to_string),
            mapping: Mapping::from_catalog(v.get("mapping").ok_or_else(bad)?, {
                let mut registry = settings.analysis_registry();
                if let Some(Value::Object(files)) = v.get("analysis_files") {
                    for (path, text) in files {
                        registry.files.insert(path.clone(), text.as_str().unwrap_or_default().to_string());
                    }
                }
                registry
            })?,
            settings,
            type_name: v.get("type_name").and_then(Value::as_str).map(str::to_string),
            fields,
        })
    }
}
