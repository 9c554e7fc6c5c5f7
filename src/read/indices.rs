//! What clients read about indices: `_mapping`, `_field_caps`, `_alias`/`_aliases` and
//! whether an index exists, as ES 6.8's RestGetMappingAction, RestFieldCapabilitiesAction,
//! RestGetAliasesAction and RestGetIndicesAction answer them.

use crate::engine::{indices_options, Engine};
use crate::error::{Error, Exception, Result};
use crate::index::{IndexMeta, IndexReader};
use crate::mapping::{simple_match, FieldType};
use crate::store::Snapshot;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Metadata fields `_field_caps` lists for matching patterns: (name, searchable,
/// aggregatable), as ES 6.8's metadata mappers declare them (indexed or not, field data or
/// not).
const META_FIELDS: [(&str, bool, bool); 9] = [
    ("_field_names", true, false),
    ("_id", true, true),
    ("_ignored", true, false),
    ("_index", true, true),
    ("_routing", true, false),
    ("_seq_no", false, true),
    ("_source", false, false),
    ("_type", true, true),
    ("_version", false, false),
];

/// A field's capabilities per type: the indices that have it, searchable, aggregatable.
type TypeCaps = BTreeMap<String, Vec<(String, bool, bool)>>;

/// The deprecation 6.8 attaches to a mapping request that leaves `include_type_name` out.
const INCLUDE_TYPE_NAME_WARNING: &str = "[types removal] The parameter include_type_name should be explicitly specified in get mapping requests to prepare for 7.0. In 7.0 include_type_name will default to 'false', which means responses will omit the type name in mapping definitions.";

/// The mapping type of an index.
fn doc_type(reader: &IndexReader, snap: &Snapshot) -> Result<String> {
    reader.type_name(snap)
}

/// `flat_settings`: settings as flat `index.*` keys rather than nested objects.
fn flat_settings(params: &[(String, String)]) -> bool {
    params.iter().any(|(k, v)| k == "flat_settings" && v != "false")
}

/// An index's settings as `GET {index}` and `_settings` print them (only the keys matching
/// `patterns`, when there are any).
fn rendered_settings(meta: &IndexMeta, flat: bool, patterns: &[&str]) -> Value {
    let created = crate::settings::Created { name: &meta.name, uuid: &meta.uuid, created_ms: meta.created_ms };
    meta.settings.render(&created, flat, patterns)
}

/// The answer of a request for named types or aliases: what was found, with ES's inline
/// 404 `error` in front when some names matched nothing (`alias [x] missing`,
/// `aliases [x,y] missing`).
fn with_missing(found: Map<String, Value>, missing: &[&str], one: &str, many: &str) -> (u16, Value) {
    let reason = match missing {
        [] => return (200, Value::Object(found)),
        [name] => format!("{one} [{name}] missing"),
        names => format!("{many} [{}] missing", names.join(",")),
    };
    let mut body = Map::new();
    body.insert("error".into(), json!(reason));
    body.insert("status".into(), json!(404));
    body.extend(found);
    (404, Value::Object(body))
}

/// Whether `name` matches a comma-separated list of names and patterns.
fn matches_any(patterns: &str, name: &str) -> bool {
    patterns.split(',').map(str::trim).any(|p| p == "_all" || simple_match(p, name))
}

impl Engine {
    /// The targets of an index expression (every index when `None`).
    fn targets_of(
        &self,
        snap: &Snapshot,
        index: Option<&str>,
        params: &[(String, String)],
    ) -> Result<Vec<Arc<IndexReader>>> {
        self.resolve(snap, index.unwrap_or("_all"), indices_options(params)?)
    }

    /// GET `_mapping`: (status, body). `types` filters by document type (patterns);
    /// `include_type_name` (6.8's default: true) keys each mapping by its type.
    pub fn get_mapping(
        &self,
        index: Option<&str>,
        types: Option<&str>,
        params: &[(String, String)],
    ) -> Result<(u16, Value)> {
        let include_type_name = match params.iter().rev().find(|(k, _)| k == "include_type_name") {
            Some((_, v)) => v != "false",
            None => {
                crate::deprecation::warn(INCLUDE_TYPE_NAME_WARNING);
                true
            }
        };
        if types.is_some() && !include_type_name {
            return Err(Error::illegal_argument(
                "Types cannot be provided in get mapping requests, unless include_type_name is set to true.",
            ));
        }
        // `paramAsStringArrayOrEmptyIfAll`: `_all` or `*` alone asks for every type.
        let types = types.filter(|t| !matches!(t.trim(), "" | "_all" | "*"));
        let snap = self.snapshot()?;
        let mut out = Map::new();
        let mut seen_types: Vec<String> = Vec::new();
        for reader in self.targets_of(&snap, index, params)? {
            let t = doc_type(&reader, &snap)?;
            let mapping = reader.meta.mapping.to_json();
            let mappings = match types {
                Some(filter) if !matches_any(filter, &t) => json!({}),
                _ if include_type_name => json!({ t.clone(): mapping }),
                _ => mapping,
            };
            if types.is_some() && mappings.as_object().is_some_and(Map::is_empty) {
                continue;
            }
            seen_types.push(t);
            out.insert(reader.meta.name.clone(), json!({ "mappings": mappings }));
        }
        // ES 6.8's RestGetMappingAction: nothing found for named indices is a missing
        // index (whatever `ignore_unavailable` or `allow_no_indices` let through), for
        // named types a missing type.
        let named_indices = index.map(str::trim).filter(|i| !i.is_empty());
        if out.is_empty() {
            match (named_indices, types) {
                (Some(names), None) => {
                    let joined: Vec<&str> = names.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
                    return Err(Error::index_not_found(&joined.join(",")));
                }
                (_, Some(filter)) => {
                    let names: Vec<&str> = filter.split(',').map(str::trim).collect();
                    return Err(Error::new(
                        404,
                        Exception::new("type_missing_exception", format!("type[[{}]] missing", names.join(",")))
                            .with_meta("index_uuid", "_na_")
                            .with_meta("index", "_all"),
                    ));
                }
                (None, None) => {}
            }
        }
        let Some(filter) = types else {
            return Ok((200, Value::Object(out)));
        };
        // The requested types no index has, sorted; a pattern is missing when it matches
        // none.
        let mut missing: Vec<&str> = filter
            .split(',')
            .map(str::trim)
            .filter(|p| !seen_types.iter().any(|t| t == p || (p.contains('*') && simple_match(p, t))))
            .collect();
        missing.sort_unstable();
        missing.dedup();
        Ok(with_missing(out, &missing, "type", "types"))
    }

    /// `_field_caps` of the fields matching `fields` (names and patterns) in `index`.
    pub fn field_caps(&self, index: Option<&str>, fields: &[String], params: &[(String, String)]) -> Result<Value> {
        if fields.is_empty() {
            return Err(Error::new(
                400,
                Exception::new("action_request_validation_exception", "Validation Failed: 1: no fields specified;"),
            ));
        }
        let wanted = |name: &str| fields.iter().any(|p| simple_match(p, name));
        let snap = self.snapshot()?;
        let targets = self.targets_of(&snap, index, params)?;
        let mut caps: BTreeMap<String, TypeCaps> = BTreeMap::new();
        for reader in &targets {
            let name = &reader.meta.name;
            for (path, f) in &reader.meta.mapping.fields {
                if wanted(path) {
                    let aggregatable = match f.ftype {
                        FieldType::Text => f.params.fielddata,
                        _ => f.doc_values,
                    };
                    caps.entry(path.clone()).or_default().entry(f.type_name().to_string()).or_default().push((
                        name.clone(),
                        f.index,
                        aggregatable,
                    ));
                }
            }
            // An alias answers with its target's type and abilities.
            for (alias, target) in &reader.meta.mapping.aliases {
                let Some(f) = reader.meta.mapping.field(target) else { continue };
                if wanted(alias) {
                    let aggregatable = match f.ftype {
                        FieldType::Text => f.params.fielddata,
                        _ => f.doc_values,
                    };
                    caps.entry(alias.clone()).or_default().entry(f.type_name().to_string()).or_default().push((
                        name.clone(),
                        f.index,
                        aggregatable,
                    ));
                }
            }
            for (meta, searchable, aggregatable) in META_FIELDS {
                if wanted(meta) {
                    caps.entry(meta.into()).or_default().entry(meta.into()).or_default().push((
                        name.clone(),
                        searchable,
                        aggregatable,
                    ));
                }
            }
        }
        let mut out = Map::new();
        for (field, by_type) in caps {
            let several_types = by_type.len() > 1;
            let mut entry = Map::new();
            for (ty, per_index) in by_type {
                let mut c = Map::new();
                c.insert("type".into(), json!(ty));
                // ES merges the indices' abilities with AND: a field is searchable only
                // where every index can search it, and the exceptions are then listed.
                let searchable = per_index.iter().all(|(_, s, _)| *s);
                let aggregatable = per_index.iter().all(|(_, _, a)| *a);
                c.insert("searchable".into(), json!(searchable));
                c.insert("aggregatable".into(), json!(aggregatable));
                let names = |keep: &dyn Fn(&(String, bool, bool)) -> bool| -> Vec<String> {
                    let mut v: Vec<String> = per_index.iter().filter(|x| keep(x)).map(|x| x.0.clone()).collect();
                    v.sort();
                    v
                };
                if several_types {
                    c.insert("indices".into(), json!(names(&|_| true)));
                }
                if !searchable && per_index.iter().any(|(_, s, _)| *s) {
                    c.insert("non_searchable_indices".into(), json!(names(&|x| !x.1)));
                }
                if !aggregatable && per_index.iter().any(|(_, _, a)| *a) {
                    c.insert("non_aggregatable_indices".into(), json!(names(&|x| !x.2)));
                }
                entry.insert(ty, Value::Object(c));
            }
            out.insert(field, Value::Object(entry));
        }
        Ok(json!({ "fields": out }))
    }

    /// GET `_alias` / `_aliases`: (status, body). Without `names`, every target index is
    /// listed, with its aliases or none; with `names`, only indices that have a matching
    /// alias, and a name that matches nothing anywhere makes the answer 404 with ES's
    /// inline `error`.
    pub fn get_aliases(
        &self,
        index: Option<&str>,
        names: Option<&str>,
        params: &[(String, String)],
    ) -> Result<(u16, Value)> {
        let snap = self.snapshot()?;
        let targets = self.targets_of(&snap, index, params)?;
        let alias_map = self.alias_targets(&snap)?;
        let mut out = Map::new();
        let mut found: Vec<&str> = Vec::new();
        for reader in &targets {
            let mut aliases = Map::new();
            for (alias, indices) in &alias_map {
                let wanted = names.is_none_or(|n| {
                    let mut keep = false;
                    for p in n.split(',').map(str::trim) {
                        match p.strip_prefix('-') {
                            Some(excluded) if keep => keep = !simple_match(excluded, alias),
                            _ => keep |= p == "_all" || simple_match(p, alias),
                        }
                    }
                    keep
                });
                if let Some(t) = indices.iter().find(|t| wanted && t.index == reader.meta.name) {
                    aliases.insert(alias.clone(), t.options.to_json());
                    found.push(alias);
                }
            }
            if names.is_none() || !aliases.is_empty() {
                out.insert(reader.meta.name.clone(), json!({ "aliases": aliases }));
            }
        }
        let Some(names) = names else {
            return Ok((200, Value::Object(out)));
        };
        // ES names the missing aliases as a sorted set: in order, each once.
        let missing: Vec<&str> = names
            .split(',')
            .map(str::trim)
            .filter(|p| !p.contains('*') && *p != "_all" && !p.starts_with('-') && !found.contains(p))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        Ok(with_missing(out, &missing, "alias", "aliases"))
    }

    /// Whether `index` (a name, alias or pattern) exists, as HEAD `{index}` answers.
    pub fn index_exists(&self, index: &str, params: &[(String, String)]) -> Result<bool> {
        let snap = self.snapshot()?;
        match self.resolve(&snap, index, indices_options(params)?) {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == "index_not_found_exception" => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// GET `{index}`: each index's aliases, mapping and settings.
    pub(crate) fn get_index(&self, index: &str, params: &[(String, String)]) -> Result<Value> {
        let snap = self.snapshot()?;
        let targets = self.resolve(&snap, index, indices_options(params)?)?;
        if targets.is_empty() {
            return Err(Error::index_not_found(index));
        }
        let alias_map = self.alias_targets(&snap)?;
        let mut out = Map::new();
        for t in targets {
            let meta = &t.meta;
            let aliases: Map<String, Value> = alias_map
                .iter()
                .filter_map(|(a, indices)| {
                    indices.iter().find(|x| x.index == meta.name).map(|x| (a.clone(), x.options.to_json()))
                })
                .collect();
            let settings = rendered_settings(meta, flat_settings(params), &[]);
            out.insert(
                meta.name.clone(),
                json!({"aliases": aliases, "mappings": {doc_type(&t, &snap)?: meta.mapping.to_json()}, "settings": settings}),
            );
        }
        Ok(Value::Object(out))
    }

    /// GET `[{index}]/_settings[/{name}]`: each index's settings, only those matching the
    /// comma-separated `name` patterns when given; an index left with none is left out,
    /// as ES leaves it out.
    pub(crate) fn get_settings(&self, index: &str, name: Option<&str>, params: &[(String, String)]) -> Result<Value> {
        let snap = self.snapshot()?;
        let targets = self.resolve(&snap, index, indices_options(params)?)?;
        let flat = flat_settings(params);
        let patterns: Vec<&str> = name.map(|n| n.split(',').filter(|p| !p.is_empty()).collect()).unwrap_or_default();
        let mut out = Map::new();
        for t in targets {
            let meta = &t.meta;
            let settings = rendered_settings(meta, flat, &patterns);
            if settings.as_object().is_some_and(|o| !o.is_empty()) {
                out.insert(meta.name.clone(), json!({ "settings": settings }));
            }
        }
        Ok(Value::Object(out))
    }

    /// The catalog entries of the indices an expression names (default options), for
    /// `_cat/indices`.
    pub(crate) fn index_entries(&self, index: &str) -> Result<Vec<IndexMeta>> {
        let snap = self.snapshot()?;
        Ok(self.resolve(&snap, index, Default::default())?.iter().map(|t| t.meta.clone()).collect())
    }
}
