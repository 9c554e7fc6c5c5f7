//! What clients read about indices: `_mapping`, `_field_caps`, `_alias`/`_aliases` and
//! whether an index exists, as ES 6.8's RestGetMappingAction, RestFieldCapabilitiesAction,
//! RestGetAliasesAction and RestGetIndicesAction answer them.

use crate::engine::Engine;
use crate::error::{Error, Exception, Result};
use crate::index::{IndexMeta, IndexReader};
use crate::mapping::{simple_match, FieldType};
use crate::request::aliases::AliasesRequest;
use crate::request::field_caps::{no_fields_specified, FieldCapsRequest};
use crate::request::index_info::{IndexRequest, SettingsRequest};
use crate::request::mapping::{FieldMappingRequest, MappingRequest};
use crate::settings::alias::AliasOptions;
use crate::store::Snapshot;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

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

/// The mapping type of an index.
fn doc_type(reader: &IndexReader, snap: &Snapshot) -> Result<String> {
    reader.type_name(snap)
}

/// An index's settings as `GET {index}` and `_settings` print them (only the keys matching
/// `patterns`, when there are any).
fn rendered_settings(meta: &IndexMeta, flat: bool, patterns: &[&str]) -> Value {
    let created = crate::settings::Created { name: &meta.name, uuid: &meta.uuid, created_ms: meta.created_ms };
    meta.settings.render(&created, flat, patterns)
}

/// Whether `name` matches a comma-separated list of names and patterns.
fn matches_any(patterns: &str, name: &str) -> bool {
    patterns.split(',').map(str::trim).any(|p| p == "_all" || simple_match(p, name))
}

/// The answer of a request for named types or aliases: what was found, with ES's inline
/// 404 `error` in front when some names matched nothing (`alias [x] missing`,
/// `aliases [x,y] missing`).
fn with_missing(found: Map<String, Value>, missing: &[String], one: &str, many: &str) -> Value {
    let reason = match missing {
        [] => return Value::Object(found),
        [name] => format!("{one} [{name}] missing"),
        names => format!("{many} [{}] missing", names.join(",")),
    };
    let mut body = Map::new();
    body.insert("error".into(), json!(reason));
    body.insert("status".into(), json!(404));
    body.extend(found);
    Value::Object(body)
}

/// The answer to GET `_mapping`.
#[derive(Debug, Clone)]
pub struct MappingResponse {
    /// Each index's mapping, in the order the expression resolved them.
    pub indices: Vec<IndexMapping>,
    /// The requested types no index has (sorted, each once); the answer is then 404.
    pub missing_types: Vec<String>,
}

/// One index's mapping in a `_mapping` answer.
#[derive(Debug, Clone)]
pub struct IndexMapping {
    /// The concrete index.
    pub index: String,
    /// The mapping's type, when the mapping is keyed by it (`include_type_name`).
    pub type_name: Option<String>,
    /// The mapping as ES prints it.
    pub mapping: Value,
}

impl MappingResponse {
    /// 404 when a requested type is missing, else 200.
    pub fn status(&self) -> u16 {
        if self.missing_types.is_empty() {
            200
        } else {
            404
        }
    }

    /// The answer's JSON.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        for m in &self.indices {
            let mappings = match &m.type_name {
                Some(t) => json!({ t.clone(): m.mapping.clone() }),
                None => m.mapping.clone(),
            };
            out.insert(m.index.clone(), json!({ "mappings": mappings }));
        }
        with_missing(out, &self.missing_types, "type", "types")
    }
}

/// The answer to GET `_alias` / `_aliases`.
#[derive(Debug, Clone)]
pub struct AliasesResponse {
    /// Each listed index with the aliases it has among those asked for.
    pub indices: Vec<IndexAliases>,
    /// The names asked for that no alias has (sorted, each once); the answer is then 404.
    pub missing: Vec<String>,
}

/// One index of an `_alias` answer.
#[derive(Debug, Clone)]
pub struct IndexAliases {
    /// The concrete index.
    pub index: String,
    /// Its aliases, by name, with their options on it.
    pub aliases: Vec<(String, AliasOptions)>,
}

/// An index's aliases as ES prints them: each name with its options.
fn aliases_json(aliases: &[(String, AliasOptions)]) -> Value {
    Value::Object(aliases.iter().map(|(a, o)| (a.clone(), o.to_json())).collect())
}

impl AliasesResponse {
    /// 404 when a name asked for is missing, else 200.
    pub fn status(&self) -> u16 {
        if self.missing.is_empty() {
            200
        } else {
            404
        }
    }

    /// The answer's JSON.
    pub fn to_json(&self) -> Value {
        let out = self.indices.iter().map(|i| (i.index.clone(), json!({ "aliases": aliases_json(&i.aliases) })));
        with_missing(out.collect(), &self.missing, "alias", "aliases")
    }
}

/// The answer to `_field_caps`: each matching field's capabilities per type.
#[derive(Debug, Clone, Default)]
pub struct FieldCapsResponse {
    /// By field name, then by type name.
    pub fields: BTreeMap<String, BTreeMap<String, FieldCaps>>,
}

/// A field's capabilities under one type, merged over the indices that have it so.
#[derive(Debug, Clone)]
pub struct FieldCaps {
    /// Searchable in every index.
    pub searchable: bool,
    /// Aggregatable in every index.
    pub aggregatable: bool,
    /// The indices, when the field has several types.
    pub indices: Option<Vec<String>>,
    /// The indices where it is not searchable, when others can search it.
    pub non_searchable_indices: Option<Vec<String>>,
    /// The indices where it is not aggregatable, when others can aggregate it.
    pub non_aggregatable_indices: Option<Vec<String>>,
}

impl FieldCapsResponse {
    /// The answer's JSON.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        for (field, by_type) in &self.fields {
            let mut entry = Map::new();
            for (ty, caps) in by_type {
                let mut c = Map::new();
                c.insert("type".into(), json!(ty));
                c.insert("searchable".into(), json!(caps.searchable));
                c.insert("aggregatable".into(), json!(caps.aggregatable));
                let lists = [
                    ("indices", &caps.indices),
                    ("non_searchable_indices", &caps.non_searchable_indices),
                    ("non_aggregatable_indices", &caps.non_aggregatable_indices),
                ];
                for (key, list) in lists {
                    if let Some(list) = list {
                        c.insert(key.into(), json!(list));
                    }
                }
                entry.insert(ty.clone(), Value::Object(c));
            }
            out.insert(field.clone(), Value::Object(entry));
        }
        json!({ "fields": out })
    }
}

/// The answer to GET `{index}`: each index's aliases, mapping and settings.
#[derive(Debug, Clone)]
pub struct IndexResponse {
    /// The indices, in the order the expression resolved them.
    pub indices: Vec<IndexDescription>,
}

/// One index of a GET `{index}` answer.
#[derive(Debug, Clone)]
pub struct IndexDescription {
    /// The concrete index.
    pub index: String,
    /// Its aliases with their options.
    pub aliases: Vec<(String, AliasOptions)>,
    /// Its mapping's type.
    pub type_name: String,
    /// Its mapping as ES prints it.
    pub mapping: Value,
    /// Its settings as ES prints them.
    pub settings: Value,
}

impl IndexResponse {
    /// The answer's JSON.
    pub fn to_json(&self) -> Value {
        let out = self.indices.iter().map(|d| {
            let body = json!({
                "aliases": aliases_json(&d.aliases),
                "mappings": { d.type_name.clone(): d.mapping.clone() },
                "settings": d.settings.clone(),
            });
            (d.index.clone(), body)
        });
        Value::Object(out.collect())
    }
}

/// The answer to GET `_settings`: each index's settings (those asked for).
#[derive(Debug, Clone)]
pub struct SettingsResponse {
    /// (index, its settings as ES prints them, its `defaults` when they were asked
    /// for), for the indices with any settings left (every index, with defaults).
    pub indices: Vec<(String, Value, Option<Value>)>,
}

impl SettingsResponse {
    /// The answer's JSON.
    pub fn to_json(&self) -> Value {
        Value::Object(
            self.indices
                .iter()
                .map(|(i, s, d)| {
                    let mut entry = Map::new();
                    entry.insert("settings".into(), s.clone());
                    if let Some(d) = d {
                        entry.insert("defaults".into(), d.clone());
                    }
                    (i.clone(), Value::Object(entry))
                })
                .collect(),
        )
    }
}

/// An index's aliases (with their options) from the alias map.
fn aliases_of(
    alias_map: &BTreeMap<String, Vec<crate::settings::alias::AliasTarget>>,
    index: &str,
) -> Vec<(String, AliasOptions)> {
    alias_map
        .iter()
        .filter_map(|(a, targets)| targets.iter().find(|t| t.index == index).map(|t| (a.clone(), t.options.clone())))
        .collect()
}

impl Engine {
    /// GET `_mapping`. `types` filters by document type (patterns); `include_type_name`
    /// keys each mapping by its type.
    pub fn get_mapping(&self, req: &MappingRequest) -> Result<MappingResponse> {
        let types = req.types.as_deref();
        let snap = self.snapshot()?;
        let mut indices: Vec<IndexMapping> = Vec::new();
        let mut seen_types: Vec<String> = Vec::new();
        for reader in self.resolve(&snap, req.index.as_deref().unwrap_or("_all"), req.indices)? {
            let t = doc_type(&reader, &snap)?;
            if types.is_some_and(|filter| !matches_any(filter, &t)) {
                continue;
            }
            seen_types.push(t.clone());
            let entry = IndexMapping {
                index: reader.meta.name.clone(),
                type_name: req.include_type_name.then_some(t),
                mapping: reader.meta.mapping.to_json(),
            };
            // An index listed twice keeps its first place, as a map insert does.
            match indices.iter_mut().find(|m| m.index == entry.index) {
                Some(m) => *m = entry,
                None => indices.push(entry),
            }
        }
        // ES 6.8's RestGetMappingAction: nothing found for named indices is a missing
        // index (whatever `ignore_unavailable` or `allow_no_indices` let through), for
        // named types a missing type.
        let named_indices = req.index.as_deref().map(str::trim).filter(|i| !i.is_empty());
        if indices.is_empty() {
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
            return Ok(MappingResponse { indices, missing_types: Vec::new() });
        };
        // The requested types no index has, sorted; a pattern is missing when it matches
        // none.
        let mut missing: Vec<String> = filter
            .split(',')
            .map(str::trim)
            .filter(|p| !seen_types.iter().any(|t| t == p || (p.contains('*') && simple_match(p, t))))
            .map(str::to_string)
            .collect();
        missing.sort_unstable();
        missing.dedup();
        Ok(MappingResponse { indices, missing_types: missing })
    }

    /// GET `_mapping/field/{fields}`: each index's fields matching the names and patterns,
    /// as ES 6.8's TransportGetFieldMappingsIndexAction finds them. An index without the
    /// asked types is left out (ES drops that index's failure); nothing at all for named
    /// fields answers 404, a single missing field `{}`.
    pub fn get_field_mapping(&self, req: &FieldMappingRequest) -> Result<FieldMappingResponse> {
        let snap = self.snapshot()?;
        let mut indices: Vec<(String, Option<String>, Map<String, Value>)> = Vec::new();
        for reader in self.resolve(&snap, req.index.as_deref().unwrap_or("_all"), req.indices)? {
            let t = doc_type(&reader, &snap)?;
            if req.types.as_deref().is_some_and(|filter| !matches_any(filter, &t)) {
                continue;
            }
            let mapping = &reader.meta.mapping;
            let mut found = Map::new();
            for pattern in &req.fields {
                let paths: Vec<&String> = if pattern.contains('*') {
                    mapping.field_and_alias_paths().filter(|p| simple_match(pattern, p)).collect()
                } else {
                    mapping.field_and_alias_paths().filter(|p| *p == pattern).collect()
                };
                for path in paths {
                    if let Some(m) = mapping.field_json(path) {
                        let leaf = path.rsplit('.').next().unwrap_or(path);
                        found.insert(path.clone(), json!({"full_name": path, "mapping": {leaf: m}}));
                    }
                }
            }
            let name = reader.meta.name.clone();
            indices.retain(|(i, _, _)| *i != name);
            indices.push((name, Some(t), found));
        }
        let status = if indices.is_empty() && !req.fields.is_empty() { 404 } else { 200 };
        // ES marks the one named field missing in the one index that answered.
        let missing_single = req.single_field && indices.len() == 1 && indices[0].2.is_empty();
        Ok(FieldMappingResponse { indices, include_type_name: req.include_type_name, status, missing_single })
    }

    /// `_field_caps` of the fields matching the request's names and patterns.
    pub fn field_caps(&self, req: &FieldCapsRequest) -> Result<FieldCapsResponse> {
        if req.fields.is_empty() {
            return Err(no_fields_specified());
        }
        let wanted = |name: &str| req.fields.iter().any(|p| simple_match(p, name));
        let snap = self.snapshot()?;
        let targets = self.resolve(&snap, req.index.as_deref().unwrap_or("_all"), req.indices)?;
        let mut caps: BTreeMap<String, TypeCaps> = BTreeMap::new();
        for reader in &targets {
            let name = &reader.meta.name;
            let mapping = &reader.meta.mapping;
            // The paths this index answers, so that an object above several of them is
            // listed once.
            let mut listed: Vec<&str> = Vec::new();
            for (path, f) in &mapping.fields {
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
                    listed.push(path);
                }
            }
            // An alias answers with its target's type and abilities.
            for (alias, target) in &mapping.aliases {
                let Some(f) = mapping.field(target) else { continue };
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
                    listed.push(target);
                }
            }
            // ES 6.8 (since 6.5) also lists the objects above each field it answers,
            // whether or not they match: typed `object` or `nested`, neither searchable
            // nor aggregatable. A multi-field's parent is a field, not an object.
            let mut objects: Vec<&str> = Vec::new();
            for path in listed {
                let mut p = path;
                while let Some((parent, _)) = p.rsplit_once('.') {
                    p = parent;
                    if objects.contains(&parent) {
                        break;
                    }
                    if mapping.fields.contains_key(parent) {
                        continue;
                    }
                    objects.push(parent);
                    let ty = if mapping.nested_at(parent).is_some() { "nested" } else { "object" };
                    caps.entry(parent.to_string()).or_default().entry(ty.to_string()).or_default().push((
                        name.clone(),
                        false,
                        false,
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
        let mut out = FieldCapsResponse::default();
        for (field, by_type) in caps {
            let several_types = by_type.len() > 1;
            let mut entry = BTreeMap::new();
            for (ty, per_index) in by_type {
                // ES merges the indices' abilities with AND: a field is searchable only
                // where every index can search it, and the exceptions are then listed.
                let searchable = per_index.iter().all(|(_, s, _)| *s);
                let aggregatable = per_index.iter().all(|(_, _, a)| *a);
                let names = |keep: &dyn Fn(&(String, bool, bool)) -> bool| -> Vec<String> {
                    let mut v: Vec<String> = per_index.iter().filter(|x| keep(x)).map(|x| x.0.clone()).collect();
                    v.sort();
                    v
                };
                let c = FieldCaps {
                    searchable,
                    aggregatable,
                    indices: several_types.then(|| names(&|_| true)),
                    non_searchable_indices: (!searchable && per_index.iter().any(|(_, s, _)| *s))
                        .then(|| names(&|x| !x.1)),
                    non_aggregatable_indices: (!aggregatable && per_index.iter().any(|(_, _, a)| *a))
                        .then(|| names(&|x| !x.2)),
                };
                entry.insert(ty, c);
            }
            out.fields.insert(field, entry);
        }
        Ok(out)
    }

    /// GET `_alias` / `_aliases`. Without names, every target index is listed, with its
    /// aliases or none; with names, only indices that have a matching alias, and a name
    /// that matches nothing anywhere makes the answer 404 with ES's inline `error`.
    pub fn get_aliases(&self, req: &AliasesRequest) -> Result<AliasesResponse> {
        let names = req.names.as_deref();
        let snap = self.snapshot()?;
        let targets = self.resolve(&snap, req.index.as_deref().unwrap_or("_all"), req.indices)?;
        let alias_map = self.alias_targets(&snap)?;
        let mut indices: Vec<IndexAliases> = Vec::new();
        let mut found: Vec<&str> = Vec::new();
        for reader in &targets {
            let mut aliases = Vec::new();
            for (alias, targets) in &alias_map {
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
                if let Some(t) = targets.iter().find(|t| wanted && t.index == reader.meta.name) {
                    aliases.push((alias.clone(), t.options.clone()));
                    found.push(alias);
                }
            }
            if names.is_none() || !aliases.is_empty() {
                let entry = IndexAliases { index: reader.meta.name.clone(), aliases };
                // An index listed twice keeps its first place, as a map insert does.
                match indices.iter_mut().find(|i| i.index == entry.index) {
                    Some(i) => *i = entry,
                    None => indices.push(entry),
                }
            }
        }
        let Some(names) = names else {
            return Ok(AliasesResponse { indices, missing: Vec::new() });
        };
        // ES names the missing aliases as a sorted set: in order, each once.
        let missing: Vec<String> = names
            .split(',')
            .map(str::trim)
            .filter(|p| !p.contains('*') && *p != "_all" && !p.starts_with('-') && !found.contains(p))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .map(str::to_string)
            .collect();
        Ok(AliasesResponse { indices, missing })
    }

    /// Whether the index expression (a name, alias or pattern) names an index, as HEAD
    /// `{index}` answers.
    pub fn index_exists(&self, req: &IndexRequest) -> Result<bool> {
        let snap = self.snapshot()?;
        match self.resolve(&snap, &req.index, req.indices) {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == "index_not_found_exception" => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// GET `{index}`: each index's aliases, mapping and settings.
    pub fn get_index(&self, req: &IndexRequest) -> Result<IndexResponse> {
        let snap = self.snapshot()?;
        let targets = self.resolve(&snap, &req.index, req.indices)?;
        if targets.is_empty() {
            return Err(Error::index_not_found(&req.index));
        }
        let alias_map = self.alias_targets(&snap)?;
        let mut indices: Vec<IndexDescription> = Vec::new();
        for t in targets {
            let meta = &t.meta;
            let entry = IndexDescription {
                index: meta.name.clone(),
                aliases: aliases_of(&alias_map, &meta.name),
                type_name: doc_type(&t, &snap)?,
                mapping: meta.mapping.to_json(),
                settings: rendered_settings(meta, req.flat_settings, &[]),
            };
            match indices.iter_mut().find(|d| d.index == entry.index) {
                Some(d) => *d = entry,
                None => indices.push(entry),
            }
        }
        Ok(IndexResponse { indices })
    }

    /// GET `[{index}]/_settings[/{name}]`: each index's settings, only those matching the
    /// request's patterns when given; an index left with none is left out, as ES leaves
    /// it out.
    pub fn get_settings(&self, req: &SettingsRequest) -> Result<SettingsResponse> {
        let snap = self.snapshot()?;
        let targets = self.resolve(&snap, &req.index, req.indices)?;
        let patterns: Vec<&str> = req.names.iter().map(String::as_str).collect();
        let mut indices: Vec<(String, Value, Option<Value>)> = Vec::new();
        for t in targets {
            let meta = &t.meta;
            let settings = rendered_settings(meta, req.flat_settings, &patterns);
            let defaults = req.include_defaults.then(|| {
                let created =
                    crate::settings::Created { name: &meta.name, uuid: &meta.uuid, created_ms: meta.created_ms };
                meta.settings.render_defaults(&created, req.flat_settings, &patterns)
            });
            // ES leaves out an index without matching settings, unless defaults were
            // asked for.
            if defaults.is_some() || settings.as_object().is_some_and(|o| !o.is_empty()) {
                match indices.iter_mut().find(|(i, _, _)| *i == meta.name) {
                    Some(entry) => (entry.1, entry.2) = (settings, defaults),
                    None => indices.push((meta.name.clone(), settings, defaults)),
                }
            }
        }
        Ok(SettingsResponse { indices })
    }

    /// The catalog entries of the indices an expression names (default options), for
    /// `_cat/indices`.
    pub(crate) fn index_entries(&self, index: &str) -> Result<Vec<IndexMeta>> {
        let snap = self.snapshot()?;
        Ok(self.resolve(&snap, index, Default::default())?.iter().map(|t| t.meta.clone()).collect())
    }
}

/// The answer of GET `_mapping/field/{fields}`.
#[derive(Debug, Clone)]
pub struct FieldMappingResponse {
    /// Each index, its type, and its matching fields (`{"full_name", "mapping"}` by path).
    indices: Vec<(String, Option<String>, Map<String, Value>)>,
    /// Whether the fields are keyed by the type.
    include_type_name: bool,
    /// 404 when no index answered, as ES 6.8 answers.
    status: u16,
    /// A request for one field of one type of one index that has no such field.
    missing_single: bool,
}

impl FieldMappingResponse {
    /// The HTTP status ES answers with.
    pub fn status(&self) -> u16 {
        if self.missing_single {
            200
        } else {
            self.status
        }
    }

    /// The answer's JSON: `{index: {"mappings": {type: {path: ...}}}}`, without the type
    /// level when `include_type_name` is false; a type without matching fields is left out.
    pub fn to_json(&self) -> Value {
        if self.missing_single {
            return json!({});
        }
        let mut out = Map::new();
        for (index, t, fields) in &self.indices {
            let mappings = match t {
                Some(t) if self.include_type_name => {
                    let mut types = Map::new();
                    if !fields.is_empty() {
                        types.insert(t.clone(), Value::Object(fields.clone()));
                    }
                    Value::Object(types)
                }
                _ => Value::Object(fields.clone()),
            };
            out.insert(index.clone(), json!({ "mappings": mappings }));
        }
        Value::Object(out)
    }
}
