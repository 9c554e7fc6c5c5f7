//! Loading: ES `_bulk` NDJSON or plain JSON lines (optionally gzip) into a new generation;
//! and deleting an index, the other write that drops generations (both hand the replaced
//! ones to `scroll::retention`).
//!
//! The input's lines become documents (`lines.rs`), prepared against the mapping and
//! inverted into segments on threads of their own (`pipeline.rs`); then duplicate `_id`s
//! are resolved and the generation is merged and registered in one write transaction.

use crate::engine::{validate_alias_name, validate_index_name, AliasAction, Engine};
use crate::error::{Error, Exception, Result};
use crate::index::{Definition, DocSet, IndexMeta, Preparer, SegmentWriter};
use crate::mapping::{family_template, Family, Mapping};
use crate::settings::alias::{AliasOptions, AliasTarget};
use crate::settings::CreateIndex;
use crate::store::Catalog;
use lines::LineParser;
use serde_json::{Map, Value};
use std::io::{BufRead, BufReader, Read};

mod lines;
mod pipeline;

/// How to load.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// For plain JSON lines: the field holding `_id` (random ids otherwise).
    pub id_field: Option<String>,
    /// `_type` of plain JSON lines and bulk actions without one.
    pub doc_type: String,
    /// Point this alias at the new index in the same transaction (moving it off others).
    pub alias: Option<String>,
    /// Template family (registry, lexicon, dataset) for the mapping.
    pub family: Option<Family>,
    /// An ES 6.8 create-index body: `settings`, `mappings` under their type name,
    /// `aliases` (its mapping merged over the family template).
    pub create_body: Option<Value>,
    /// Explicit mapping JSON (merged over the family template and the body's mapping).
    pub mapping: Option<Value>,
    /// Abort after more bad lines than this.
    pub max_errors: usize,
    /// `index.max_result_window` (over the body's settings).
    pub max_result_window: Option<u64>,
    /// Replace an existing index of the same name.
    pub replace: bool,
    /// The configuration folder files of the body's settings are read from
    /// (`synonyms_path`), as ES reads them from its node's config folder.
    pub config_dir: Option<std::path::PathBuf>,
    /// Bytes a segment may hold while documents are inverted; past it the segment is
    /// written to a temporary run and merged at the end.
    pub memory: usize,
}

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions {
            id_field: None,
            doc_type: "_doc".into(),
            alias: None,
            family: None,
            create_body: None,
            mapping: None,
            max_errors: 0,
            max_result_window: None,
            replace: false,
            config_dir: None,
            memory: crate::index::DEFAULT_MEMORY,
        }
    }
}

impl LoadOptions {
    /// The index these options define, by one path: the family's template, then the
    /// create-index body, then the `mapping` and `max_result_window` options over them.
    /// Without a type name in the body, the index's type is its documents' (`_type`, else
    /// the `doc_type` option).
    pub fn create_index(&self) -> Result<CreateIndex> {
        let mut create = match &self.create_body {
            Some(body) => CreateIndex::parse(body)?,
            None => CreateIndex::default(),
        };
        let mut mapping = match self.family {
            Some(f) => match family_template(f) {
                Value::Object(m) => m,
                _ => Map::new(),
            },
            None => Map::new(),
        };
        for (k, v) in std::mem::take(&mut create.mapping) {
            mapping.insert(k, v);
        }
        if let Some(Value::Object(m)) = &self.mapping {
            // The option takes a root mapping, or one wrapped in its type name.
            let root = if m.contains_key("properties") || m.contains_key("dynamic_templates") || m.len() != 1 {
                m.clone()
            } else {
                m.values().next().and_then(Value::as_object).cloned().unwrap_or_default()
            };
            mapping.extend(root);
        }
        create.mapping = mapping;
        if let Some(window) = self.max_result_window {
            create.settings = create.settings.with_max_result_window(window);
        }
        Ok(create)
    }

    /// Options from a JSON object, as the C ABI and Python pass them: `family`,
    /// `id_field`, `type`, `alias`, `create_body`, `mapping`, `max_errors`, `max_result_window`,
    /// `replace`, `memory` (bytes), `config` (the configuration folder; each optional; empty text is the defaults). A member this does not know,
    /// or of the wrong type, is an error rather than a silently different load.
    pub fn from_json(text: &str) -> Result<LoadOptions> {
        let mut opts = LoadOptions::default();
        if text.trim().is_empty() {
            return Ok(opts);
        }
        let v: Value = serde_json::from_str(text).map_err(|e| Error::illegal_argument(format!("load options: {e}")))?;
        let Value::Object(members) = v else {
            return Err(Error::illegal_argument("load options must be a JSON object"));
        };
        let wrong = |name: &str, what: &str| Error::illegal_argument(format!("load option [{name}] must be {what}"));
        for (name, v) in members {
            let text = || v.as_str().map(str::to_string).ok_or_else(|| wrong(&name, "a string"));
            let count = || v.as_u64().ok_or_else(|| wrong(&name, "a non-negative integer"));
            match name.as_str() {
                "family" => opts.family = Some(Family::from_name(&text()?)?),
                "id_field" => opts.id_field = Some(text()?),
                "type" => opts.doc_type = text()?,
                "alias" => opts.alias = Some(text()?),
                "create_body" => opts.create_body = Some(v),
                "mapping" => opts.mapping = Some(v),
                "max_errors" => opts.max_errors = usize::try_from(count()?).unwrap_or(usize::MAX),
                "max_result_window" => opts.max_result_window = Some(count()?),
                "replace" => opts.replace = v.as_bool().ok_or_else(|| wrong(&name, "true or false"))?,
                "memory" => opts.memory = usize::try_from(count()?).unwrap_or(usize::MAX),
                "config" => opts.config_dir = Some(std::path::PathBuf::from(text()?)),
                _ => return Err(Error::illegal_argument(format!("unknown load option [{name}]"))),
            }
        }
        Ok(opts)
    }
}

/// A line that could not be loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct LineError {
    /// 1-based line number in the input.
    pub line: u64,
    /// What was wrong, ES-style.
    pub reason: String,
}

/// The result of a load.
#[derive(Debug, Clone, Default)]
pub struct LoadReport {
    /// Documents indexed.
    pub docs: u64,
    /// Lines rejected.
    pub errors: Vec<LineError>,
    /// Documents replaced by a later line with the same `_id`.
    pub replaced: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Size of the written generation.
    pub size_bytes: u64,
}

impl LoadReport {
    /// The report as the C ABI and Python return it.
    pub fn to_json(&self, index: &str) -> Value {
        let errors: Vec<Value> =
            self.errors.iter().map(|e| serde_json::json!({"line": e.line, "reason": e.reason})).collect();
        serde_json::json!({"index": index, "docs": self.docs, "replaced": self.replaced, "bytes": self.bytes,
                           "size_bytes": self.size_bytes, "errors": errors})
    }
}

/// Progress callback: (bytes read, documents parsed).
pub type Progress<'a> = &'a mut dyn FnMut(u64, u64);

/// Wraps a reader, transparently un-gzipping when the input starts with the gzip magic.
pub fn maybe_gzip<'a>(r: impl Read + 'a) -> Result<Box<dyn BufRead + 'a>> {
    let mut br = BufReader::with_capacity(1 << 16, r);
    let head = br.fill_buf()?;
    if head.len() >= 2 && head[0] == 0x1f && head[1] == 0x8b {
        Ok(Box::new(BufReader::with_capacity(1 << 16, flate2::read::MultiGzDecoder::new(br))))
    } else {
        Ok(Box::new(br))
    }
}

impl Engine {
    /// Loads documents into a new concrete index `name`; nothing becomes visible unless the
    /// whole load succeeds (within `max_errors`).
    pub fn load(&self, name: &str, input: impl Read, opts: &LoadOptions, progress: Progress<'_>) -> Result<LoadReport> {
        validate_index_name(name)?;
        let create = opts.create_index()?;
        {
            let snap = self.snapshot()?;
            if snap.get(Catalog::Indices, name)?.is_some() && !opts.replace {
                return Err(Error::new(
                    400,
                    Exception::new("resource_already_exists_exception", format!("index [{name}/_na_] already exists"))
                        .with_meta("index_uuid", "_na_")
                        .with_meta("index", name),
                ));
            }
            for (a, options) in &create.alias_options {
                crate::engine::check_alias_filter(a, options)?;
            }
            for a in opts.alias.iter().chain(&create.aliases) {
                validate_alias_name(a)?;
                if snap.get(Catalog::Indices, a)?.is_some() || a == name {
                    return Err(Error::new(
                        400,
                        Exception::new(
                            "invalid_alias_name_exception",
                            format!("Invalid alias name [{a}], an index exists with the same name as the alias"),
                        ),
                    ));
                }
            }
        }
        let mut analysis = create.settings.analysis_registry();
        analysis.read_files(opts.config_dir.as_deref())?;
        analysis.check_definitions()?;
        analysis.check_no_default_index(name)?;
        let mut mapping = Mapping::parse(&Value::Object(create.mapping.clone()), analysis)?;
        let setting = |key: &str| match create.settings.given().get(key) {
            Some(crate::settings::SettingValue::One(v)) => Some(v.clone()),
            _ => None,
        };
        mapping.index_ignore_malformed = setting("index.mapping.ignore_malformed").as_deref() == Some("true");
        mapping.index_no_coerce = setting("index.mapping.coerce").as_deref() == Some("false");
        // Lines without a `_type` take the mapping's.
        let typed;
        let opts = match &create.type_name {
            Some(t) if *t != opts.doc_type => {
                typed = LoadOptions { doc_type: t.clone(), ..opts.clone() };
                &typed
            }
            _ => opts,
        };
        let mut reader = maybe_gzip(input)?;
        let dir = self.store().temp_dir();
        let mut parser = LineParser::new(opts, Preparer::new(mapping), crate::index::temp_file(&dir)?);
        parser.one_type = create.type_name.clone().map(|t| (name.to_string(), t));
        parser.index = name.to_string();
        let mut writer = SegmentWriter::new(opts.memory, &dir)?;
        let bytes = pipeline::run(&mut reader, &mut parser, &mut writer, progress)?;
        let mut report = LoadReport { bytes, errors: std::mem::take(&mut parser.errors), ..LoadReport::default() };
        let (creates, create_types) = (std::mem::take(&mut parser.creates), std::mem::take(&mut parser.create_types));
        let (preparer, line_file) = parser.into_parts()?;
        let segments = writer.seal(preparer.into_schema())?;
        // Duplicate `_id`s, as ES applies them in order: an `index` replaces the document
        // before it, a `create` of an existing `_id` is refused.
        let mut deleted = DocSet::new();
        let mut conflicts = Vec::new();
        segments.for_each_duplicate(|id, docs| {
            let mut current = docs[0];
            for &d in &docs[1..] {
                deleted.insert(if creates.contains(d) { d } else { std::mem::replace(&mut current, d) });
                if creates.contains(d) {
                    let doc_type = create_types.get(&d).map(String::as_str).unwrap_or(&opts.doc_type);
                    let line = crate::index::read_u64_at(&line_file, d as u64 * 8)?;
                    let id = String::from_utf8_lossy(id);
                    conflicts.push(LineError {
                        line,
                        reason: format!(
                            "[{doc_type}][{id}]: version conflict, document already exists (current version [1])"
                        ),
                    });
                } else {
                    report.replaced += 1;
                }
            }
            Ok(())
        })?;
        if !conflicts.is_empty() {
            report.errors.extend(conflicts);
            report.errors.sort_by_key(|e| e.line);
            too_many_errors(&report.errors, opts.max_errors)?;
        }
        report.docs = segments.doc_count() as u64 - deleted.len();
        let mut txn = self.store().write()?;
        // When the write lock was taken, before the merge: a retired generation's grace is
        // measured against it (see `scroll::retention::reclaim`).
        let now = crate::node::now_ms();
        let old = txn.get(Catalog::Indices, name)?;
        let generation = txn.next_generation()?;
        let meta = segments.write(
            &mut txn,
            name,
            generation,
            Definition {
                family: opts.family.map(|f| format!("{f:?}").to_lowercase()),
                settings: create.settings.clone(),
                type_name: create.type_name.clone(),
            },
            deleted,
        )?;
        report.size_bytes = meta.size_bytes;
        txn.put(Catalog::Indices, name, &serde_json::to_vec(&meta.to_json()).unwrap_or_default())?;
        if let Some(old) = old {
            if let Ok(v) = serde_json::from_slice::<Value>(&old) {
                if let Some(g) = v.get("generation").and_then(Value::as_u64) {
                    // Open scrolls may still read the replaced generation: kept for a grace.
                    let grace = self.retire_grace_ms();
                    crate::scroll::retention::retire(&mut txn, g, &old, now, now.saturating_add(grace))?;
                }
            }
        }
        crate::scroll::retention::reclaim(&mut txn, now)?;
        if let Some(alias) = &opts.alias {
            // Move the alias: it points at the new index only.
            let only = AliasTarget { index: name.to_string(), options: AliasOptions::default() };
            txn.put(Catalog::Aliases, alias, &crate::settings::alias::write_entry(&[only]))?;
        }
        for alias in &create.aliases {
            // The body's aliases are added, as ES adds them at creation: other indices
            // the alias points at keep it.
            let mut indices = match txn.get(Catalog::Aliases, alias)? {
                Some(bytes) => crate::settings::alias::read_entry(&bytes).map_err(Error::storage)?,
                None => Vec::new(),
            };
            let options =
                create.alias_options.iter().find(|(a, _)| a == alias).map(|(_, o)| o.clone()).unwrap_or_default();
            indices.retain(|t| t.index != name);
            indices.push(AliasTarget { index: name.to_string(), options });
            indices.sort_by(|a, b| a.index.cmp(&b.index));
            crate::settings::alias::check_write_indices(alias, &indices)?;
            txn.put(Catalog::Aliases, alias, &crate::settings::alias::write_entry(&indices))?;
        }
        txn.commit()?;
        Ok(report)
    }

    /// Deletes a concrete index, its aliases' references and its generation.
    pub fn delete_index(&self, name: &str) -> Result<()> {
        let mut txn = self.store().write()?;
        // When the write lock was taken: what `reclaim` measures graces against.
        let now = crate::node::now_ms();
        let Some(raw) = txn.get(Catalog::Indices, name)? else {
            return Err(Error::index_not_found(name));
        };
        let meta = IndexMeta::from_json(&serde_json::from_slice(&raw).map_err(|e| Error::storage(e.to_string()))?)?;
        txn.remove(Catalog::Indices, name)?;
        for (alias, v) in txn.list(Catalog::Aliases)? {
            let mut names = crate::settings::alias::read_entry(&v).map_err(Error::storage)?;
            let before = names.len();
            names.retain(|n| n.index != name);
            if names.len() != before {
                if names.is_empty() {
                    txn.remove(Catalog::Aliases, &alias)?;
                } else {
                    txn.put(Catalog::Aliases, &alias, &crate::settings::alias::write_entry(&names))?;
                }
            }
        }
        txn.drop_generation(meta.generation)?;
        crate::scroll::retention::reclaim(&mut txn, now)?;
        txn.commit()
    }

    /// Points `alias` at exactly `index` in one transaction (a swap when it pointed elsewhere).
    pub fn swap_alias(&self, alias: &str, index: &str) -> Result<()> {
        let current: Vec<String> = self.aliases()?.into_iter().filter(|(a, _)| a == alias).map(|(_, i)| i).collect();
        let mut actions = vec![AliasAction::Add { alias: alias.into(), index: index.into() }];
        actions.extend(
            current.into_iter().filter(|i| i != index).map(|i| AliasAction::Remove { alias: alias.into(), index: i }),
        );
        self.update_aliases(&actions)
    }
}

/// The load's abort once its errors pass `--max-errors`.
fn too_many_errors(errors: &[LineError], max_errors: usize) -> Result<()> {
    if errors.len() > max_errors {
        let first = &errors[0];
        return Err(Error::illegal_argument(format!(
            "load aborted after {} bad line(s) (--max-errors {}); first at line {}: {}",
            errors.len(),
            max_errors,
            first.line,
            first.reason
        )));
    }
    Ok(())
}
