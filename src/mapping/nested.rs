//! `nested` objects: each object under such a path is indexed as a document of its own,
//! stored just before its parent (ES 6.8's `ObjectMapper.Nested`), with
//! `include_in_parent` / `include_in_root` copying its fields into the enclosing
//! documents as well.

use super::root::ObjectMapping;
use super::{java_string_of, mapper_parsing, Mapping};
use crate::error::Result;
use serde_json::{json, Map, Value};

/// What makes an object `nested`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NestedParams {
    /// `include_in_parent`: the fields are also indexed in the enclosing document.
    pub include_in_parent: bool,
    /// `include_in_root`: the fields are also indexed in the root document.
    pub include_in_root: bool,
}

/// Reads a `"type": "nested"` definition: the object's own parameters plus the two
/// `include_in_*` flags (read as ES's `nodeBooleanValue` reads them).
pub(super) fn parse(path: &str, def: &Value) -> Result<ObjectMapping> {
    let mut rest = def.as_object().cloned().unwrap_or_default();
    let mut flag = |key: &str| -> Result<bool> {
        match rest.remove(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(b),
            Some(Value::String(s)) if s == "true" || s == "false" => Ok(s == "true"),
            Some(other) => Err(mapper_parsing(format!(
                "Failed to parse value [{}] as only [true] or [false] are allowed.",
                java_string_of(&other)
            ))),
        }
    };
    let nested =
        NestedParams { include_in_parent: flag("include_in_parent")?, include_in_root: flag("include_in_root")? };
    let mut object = ObjectMapping::parse(path, &Value::Object(rest))?;
    object.nested = Some(nested);
    Ok(object)
}

/// What `_mapping` prints of a nested object before its other parameters, in ES's order.
pub(super) fn render(nested: &NestedParams, o: &mut Map<String, Value>) {
    o.insert("type".into(), json!("nested"));
    if nested.include_in_parent {
        o.insert("include_in_parent".into(), json!(true));
    }
    if nested.include_in_root {
        o.insert("include_in_root".into(), json!(true));
    }
}

impl Mapping {
    /// The nested parameters of the object at `path`, when it is mapped `nested`.
    pub fn nested_at(&self, path: &str) -> Option<NestedParams> {
        self.objects.get(path).and_then(|o| o.nested)
    }

    /// The nearest nested object strictly enclosing `path`, `None` at the root level.
    pub fn nested_parent_of<'p>(&self, path: &'p str) -> Option<&'p str> {
        let mut p = path;
        while let Some((parent, _)) = p.rsplit_once('.') {
            if self.nested_at(parent).is_some() {
                return Some(parent);
            }
            p = parent;
        }
        None
    }

    /// Whether some object is mapped `nested` (documents then have hidden children).
    pub fn has_nested(&self) -> bool {
        self.objects.values().any(|o| o.nested.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_objects_parse_and_print_as_es() {
        let m = Mapping::from_json(&json!({"properties": {
            "a": {"type": "nested", "include_in_parent": true, "properties": {
                "b": {"type": "nested", "properties": {"c": {"type": "keyword"}}}}}}}))
        .unwrap();
        assert_eq!(m.nested_at("a"), Some(NestedParams { include_in_parent: true, include_in_root: false }));
        assert_eq!(m.nested_parent_of("a.b.c"), Some("a.b"));
        assert_eq!(m.nested_parent_of("a.b"), Some("a"));
        assert_eq!(m.nested_parent_of("a"), None);
        assert_eq!(
            m.to_json()["properties"]["a"],
            json!({"type": "nested", "include_in_parent": true, "properties": {
                "b": {"type": "nested", "properties": {"c": {"type": "keyword"}}}}})
        );
        let e =
            Mapping::from_json(&json!({"properties": {"a": {"type": "nested", "include_in_root": 3}}})).unwrap_err();
        assert_eq!(e.reason(), "Failed to parse value [3] as only [true] or [false] are allowed.");
    }
}
