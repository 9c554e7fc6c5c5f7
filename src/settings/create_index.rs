//! The body of ES 6.8's create-index API (`PUT /{index}`): `settings`, `mappings` under
//! their type name, and `aliases`.

use super::IndexSettings;
use crate::error::{Error, Exception, Result};
use serde_json::{Map, Value};

/// A parsed create-index body.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CreateIndex {
    /// The index settings.
    pub settings: IndexSettings,
    /// The mapping type's name (`None` when the body maps nothing).
    pub type_name: Option<String>,
    /// The root mapping (`properties`, `dynamic`, `dynamic_templates`, …), without the
    /// type name around it; empty when the body maps nothing.
    pub mapping: Map<String, Value>,
    /// Aliases to point at the new index.
    pub aliases: Vec<String>,
    /// The options of those aliases that have some (`filter`, routing).
    pub alias_options: Vec<(String, super::alias::AliasOptions)>,
}

/// Keys that open a root mapping: a `mappings` object keyed by one of these is a 7.x
/// typeless mapping, read as ES 6.8 reads it with `include_type_name=false`.
const ROOT_MAPPING_KEYS: &[&str] = &[
    "properties",
    "dynamic",
    "dynamic_templates",
    "_source",
    "_all",
    "_meta",
    "_routing",
    "date_detection",
    "numeric_detection",
    "dynamic_date_formats",
    "_field_names",
    "enabled",
];

impl CreateIndex {
    /// Parses a create-index body as ES 6.8's create-index request reads it.
    pub fn parse(body: &Value) -> Result<CreateIndex> {
        let Value::Object(members) = body else {
            return Err(parse_exception("request body is required"));
        };
        let mut out = CreateIndex::default();
        for (name, value) in members {
            match name.as_str() {
                "settings" => {
                    if !value.is_object() {
                        return Err(parse_exception("key [settings] must be an object"));
                    }
                    out.settings = IndexSettings::parse(value)?;
                }
                "mappings" => {
                    let Value::Object(types) = value else {
                        return Err(parse_exception("key [mappings] must be an object"));
                    };
                    let (type_name, mapping) = one_type(types)?;
                    out.type_name = type_name;
                    out.mapping = mapping;
                }
                "aliases" => {
                    let defined = aliases(value)?;
                    out.aliases = defined.iter().map(|(name, _)| name.clone()).collect();
                    out.alias_options = defined.into_iter().filter(|(_, o)| !o.is_empty()).collect();
                }
                _ => return Err(parse_exception(format!("unknown key [{name}] for create index"))),
            }
        }
        check_similarities(&out.settings)?;
        Ok(out)
    }
}

/// Scores follow BM25 with Lucene's defaults; a similarity that would score otherwise is
/// refused rather than silently ignored.
fn check_similarities(settings: &IndexSettings) -> Result<()> {
    let Value::Object(sims) = settings.subtree("index.similarity.") else { return Ok(()) };
    for (name, def) in sims {
        let text = |k: &str| def.get(k).and_then(Value::as_str).map(str::to_string);
        let default_bm25 = text("type").as_deref() == Some("BM25")
            && text("k1").is_none_or(|k| k.parse::<f32>() == Ok(1.2))
            && text("b").is_none_or(|b| b.parse::<f32>() == Ok(0.75))
            && text("discount_overlaps").is_none_or(|d| d == "true")
            && def
                .as_object()
                .is_some_and(|o| o.keys().all(|k| ["type", "k1", "b", "discount_overlaps"].contains(&k.as_str())));
        if !default_bm25 {
            return Err(Error::illegal_argument(format!(
                "similarity [{name}] is not supported: metagate scores with BM25 (k1 1.2, b 0.75)"
            )));
        }
    }
    Ok(())
}

/// The one mapping type of a `mappings` object, unwrapped.
fn one_type(types: &Map<String, Value>) -> Result<(Option<String>, Map<String, Value>)> {
    if types.is_empty() {
        return Ok((None, Map::new()));
    }
    if types.keys().any(|k| ROOT_MAPPING_KEYS.contains(&k.as_str())) {
        return Ok((Some("_doc".into()), types.clone()));
    }
    if types.len() > 1 {
        let names: Vec<&str> = types.keys().map(String::as_str).collect();
        return Err(Error::illegal_argument(format!(
            "Rejecting mapping update to [index] as the final mapping would have more than 1 type: [{}]",
            names.join(", ")
        )));
    }
    let (name, mapping) = types.iter().next().expect("one entry");
    let Value::Object(mapping) = mapping else {
        return Err(Error::new(
            400,
            Exception::new(
                "mapper_parsing_exception",
                format!(
                    "Failed to parse mapping [{name}]: Expected map for property [{name}] but got a {}",
                    java_class(mapping)
                ),
            ),
        ));
    };
    // A mapping may also carry its type name around it once more, as ES accepts.
    let mapping = match mapping.get(name) {
        Some(Value::Object(inner)) if mapping.len() == 1 => inner.clone(),
        _ => mapping.clone(),
    };
    Ok((Some(name.clone()), mapping))
}

/// The aliases of a create-index body, with their options.
fn aliases(value: &Value) -> Result<Vec<(String, super::alias::AliasOptions)>> {
    let Value::Object(aliases) = value else {
        return Err(parse_exception("key [aliases] must be an object"));
    };
    aliases.iter().map(|(alias, def)| Ok((alias.clone(), super::alias::AliasOptions::parse(alias, def)?))).collect()
}

fn parse_exception(reason: impl Into<String>) -> Error {
    Error::new(400, Exception::new("parse_exception", reason))
}

/// The Java class a JSON value becomes in ES's parsed maps, for its cast messages.
fn java_class(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "java.lang.String",
        Value::Bool(_) => "java.lang.Boolean",
        Value::Number(n) if n.is_f64() => "java.lang.Double",
        Value::Number(_) => "java.lang.Integer",
        Value::Array(_) => "java.util.ArrayList",
        Value::Null => "null",
        Value::Object(_) => "java.util.LinkedHashMap",
    }
}
