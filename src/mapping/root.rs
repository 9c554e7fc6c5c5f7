//! The parts of a mapping that are not leaf fields: the root's metadata fields
//! (`_source`, `_all`, `_routing`), `_meta`, and objects' own `dynamic` and `enabled`.

use super::{java_string_of, mapper_parsing, Dynamic};
use crate::error::Result;
use serde_json::{json, Map, Value};

/// `_source`: whether documents keep it, and which of its paths.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceParams {
    /// `enabled` (a document's `_source` is not kept when `false`).
    pub enabled: bool,
    /// `includes`: the paths kept (all when empty).
    pub includes: Vec<String>,
    /// `excludes`: the paths dropped.
    pub excludes: Vec<String>,
}

impl Default for SourceParams {
    fn default() -> SourceParams {
        SourceParams { enabled: true, includes: Vec::new(), excludes: Vec::new() }
    }
}

impl SourceParams {
    /// Whether the stored source is the document as sent.
    pub fn is_whole(&self) -> bool {
        self.enabled && self.includes.is_empty() && self.excludes.is_empty()
    }

    /// Whether the stored source keeps the values at `path` (a pattern naming it or
    /// one of its parents decides).
    pub fn keeps(&self, path: &str) -> bool {
        let names = |patterns: &[String]| {
            let mut at = 0;
            let mut prefixes = Vec::new();
            while let Some(i) = path[at..].find('.') {
                prefixes.push(&path[..at + i]);
                at += i + 1;
            }
            prefixes.push(path);
            patterns.iter().any(|p| prefixes.iter().any(|q| super::simple_match(p, q)))
        };
        self.enabled && (self.includes.is_empty() || names(&self.includes)) && !names(&self.excludes)
    }
}

/// The root mapping's own parameters.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RootParams {
    /// `_source`.
    pub source: SourceParams,
    /// `_all: {"enabled": false}` as given (ES 6 refuses it enabled).
    pub all_disabled: bool,
    /// `_meta`, kept as given.
    pub meta: Option<Value>,
    /// `_routing.required`, when given.
    pub routing_required: Option<bool>,
    /// `numeric_detection`: strings that parse as numbers are mapped as numbers.
    pub numeric_detection: bool,
}

/// An object's own parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectMapping {
    /// `dynamic` for fields new under it (the nearest object's setting wins).
    pub dynamic: Option<Dynamic>,
    /// `enabled`: when `false` its content is kept in `_source` only.
    pub enabled: bool,
    /// `type: nested`: its objects are documents of their own.
    pub nested: Option<super::nested::NestedParams>,
}

impl Default for ObjectMapping {
    fn default() -> ObjectMapping {
        ObjectMapping { dynamic: None, enabled: true, nested: None }
    }
}

/// ES's reading of `dynamic`.
pub(super) fn parse_dynamic(d: &Value) -> Result<Dynamic> {
    Ok(match d {
        Value::Bool(true) => Dynamic::True,
        Value::Bool(false) => Dynamic::False,
        Value::String(s) if s == "true" => Dynamic::True,
        Value::String(s) if s == "false" => Dynamic::False,
        Value::String(s) if s == "strict" => Dynamic::Strict,
        _ => return Err(mapper_parsing(format!("Could not convert [dynamic] to boolean: {d}"))),
    })
}

/// How `_mapping` prints `dynamic`.
pub(super) fn dynamic_name(d: Dynamic) -> &'static str {
    match d {
        Dynamic::True => "true",
        Dynamic::False => "false",
        Dynamic::Strict => "strict",
    }
}

fn enabled_flag(name: &str, v: &Value) -> Result<bool> {
    match v.get("enabled") {
        None => Ok(true),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::String(s)) if s == "true" || s == "false" => Ok(s == "true"),
        Some(other) => Err(mapper_parsing(format!(
            "Failed to parse value [{}] as only [true] or [false] are allowed. (parameter [enabled] of [{name}])",
            java_string_of(other)
        ))),
    }
}

fn string_list(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(a)) => a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    }
}

/// The keys a root mapping takes besides these metadata fields.
const ROOT_KEYS: [&str; 6] =
    ["properties", "dynamic", "date_detection", "numeric_detection", "dynamic_date_formats", "dynamic_templates"];

impl RootParams {
    /// Reads the root's metadata fields and `_meta`, refusing keys ES does not take.
    pub(super) fn parse(body: &Map<String, Value>) -> Result<RootParams> {
        let mut p = RootParams::default();
        let mut rest = String::new();
        for (k, v) in body {
            match k.as_str() {
                k if ROOT_KEYS.contains(&k) => {}
                "_source" => {
                    let unknown: Vec<&String> = v
                        .as_object()
                        .map(|o| {
                            o.keys().filter(|k| !["enabled", "includes", "excludes"].contains(&k.as_str())).collect()
                        })
                        .unwrap_or_default();
                    if let Some(k) = unknown.first() {
                        return Err(mapper_parsing(format!(
                            "Mapping definition for [_source] has unsupported parameters:  [{k} : {}]",
                            java_string_of(&v[k.as_str()])
                        )));
                    }
                    p.source = SourceParams {
                        enabled: enabled_flag("_source", v)?,
                        includes: string_list(v.get("includes")),
                        excludes: string_list(v.get("excludes")),
                    };
                }
                "_all" => {
                    if enabled_flag("_all", v)? {
                        return Err(mapper_parsing("[_all] is disabled in 6.0. As a replacement, you can use [copy_to] on mapping fields to create your own catch all field."));
                    }
                    p.all_disabled = v.get("enabled").is_some();
                }
                "_meta" => {
                    if !v.is_object() {
                        return Err(mapper_parsing(format!(
                            "[_meta] must be an object, got {}[{}]",
                            java_class(v),
                            java_string_of(v)
                        )));
                    }
                    p.meta = Some(v.clone());
                }
                "_routing" => {
                    p.routing_required = match v.get("required") {
                        None => None,
                        Some(Value::Bool(b)) => Some(*b),
                        Some(Value::String(s)) if s == "true" || s == "false" => Some(s == "true"),
                        Some(other) => {
                            return Err(mapper_parsing(format!(
                                "Failed to parse value [{}] as only [true] or [false] are allowed.",
                                java_string_of(other)
                            )))
                        }
                    };
                }
                "numeric_detection" => {}
                _ => rest.push_str(&format!(" [{k} : {}]", java_string_of(v))),
            }
        }
        if !rest.is_empty() {
            return Err(mapper_parsing(format!("Root mapping definition has unsupported parameters: {rest}")));
        }
        p.numeric_detection = match body.get("numeric_detection") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) => s == "true",
            Some(_) => false,
        };
        Ok(p)
    }

    /// `_meta` and the metadata fields set, in ES's order (`_routing`, `_source`, `_all`).
    pub(super) fn render(&self, root: &mut Map<String, Value>) {
        if let Some(m) = &self.meta {
            root.insert("_meta".into(), m.clone());
        }
        if let Some(r) = self.routing_required {
            root.insert("_routing".into(), json!({ "required": r }));
        }
        if self.source != SourceParams::default() {
            let mut s = Map::new();
            if !self.source.enabled {
                s.insert("enabled".into(), json!(false));
            }
            if !self.source.includes.is_empty() {
                s.insert("includes".into(), json!(self.source.includes));
            }
            if !self.source.excludes.is_empty() {
                s.insert("excludes".into(), json!(self.source.excludes));
            }
            root.insert("_source".into(), Value::Object(s));
        }
        if self.all_disabled {
            root.insert("_all".into(), json!({"enabled": false}));
        }
    }
}

fn java_class(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "java.lang.String",
        Value::Bool(_) => "java.lang.Boolean",
        Value::Number(n) if n.is_f64() => "java.lang.Double",
        Value::Number(_) => "java.lang.Integer",
        Value::Array(_) => "java.util.ArrayList",
        _ => "null",
    }
}

impl ObjectMapping {
    /// Reads an object's `dynamic` and `enabled`, refusing other parameters as ES does.
    pub(super) fn parse(path: &str, def: &Value) -> Result<ObjectMapping> {
        let mut o = ObjectMapping::default();
        let Some(obj) = def.as_object() else { return Ok(o) };
        let rest: String = obj
            .iter()
            .filter(|(k, _)| !["type", "properties", "dynamic", "enabled"].contains(&k.as_str()))
            .map(|(k, v)| format!(" [{k} : {}]", java_string_of(v)))
            .collect();
        if !rest.is_empty() {
            let name = path.rsplit('.').next().unwrap_or(path);
            return Err(mapper_parsing(format!("Mapping definition for [{name}] has unsupported parameters: {rest}")));
        }
        if let Some(d) = obj.get("dynamic") {
            o.dynamic = Some(parse_dynamic(d)?);
        }
        o.enabled = enabled_flag(path, def)?;
        Ok(o)
    }

    /// Whether it differs from a plain object.
    pub(super) fn is_plain(&self) -> bool {
        self.dynamic.is_none() && self.enabled && self.nested.is_none()
    }
}
