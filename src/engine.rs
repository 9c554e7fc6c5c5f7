//! The engine: one metagate file, its indices and aliases, and search over them.

use crate::error::{Error, Exception, Result};
use crate::index::{IndexMeta, IndexReader};
use crate::node::now_ms;
use crate::request::SearchRequest;
use crate::search::response::SearchResponse;
use crate::search::{self, After};
use crate::settings::alias::AliasTarget;
use crate::store::{Catalog, ChunkPolicy, ImageSource, Snapshot, Store};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
#[cfg(not(target_arch = "wasm32"))]
use std::path::Path;
use std::sync::{Arc, Mutex};
use web_time::Instant;

/// The catalog of one catalog version, parsed: readers by index name (with the raw
/// entry each was parsed from) and aliases.
struct CatalogView {
    version: u64,
    readers: BTreeMap<String, (Vec<u8>, Arc<IndexReader>)>,
    aliases: BTreeMap<String, Vec<String>>,
    /// The aliases' indices with the alias's options on each (filter, routing).
    alias_targets: BTreeMap<String, Vec<AliasTarget>>,
}

/// The filters of the aliases a search reaches an index through
/// ([`Engine::alias_filter_sources`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AliasFilterSource {
    /// The concrete index.
    pub index: String,
    /// The filtering aliases reaching it, sorted.
    pub aliases: Vec<String>,
    /// Their filters, in the same order.
    pub filters: Vec<Value>,
}

/// Each index's alias filters parsed into one query: a document must match any of them
/// (ES's `should`).
pub(crate) fn parse_alias_filters(sources: &[AliasFilterSource]) -> Result<Vec<(String, crate::query::Query)>> {
    let mut out = Vec::with_capacity(sources.len());
    for source in sources {
        let mut parsed = Vec::with_capacity(source.filters.len());
        for f in &source.filters {
            let raw = f.to_string();
            parsed.push(crate::query::dsl::DslParser::new(&raw).parse(f)?);
        }
        let filter = match parsed.len() {
            1 => parsed.remove(0),
            _ => {
                crate::query::Query::Bool(crate::query::BoolQuery { should: parsed, boost: 1.0, ..Default::default() })
            }
        };
        out.push((source.index.clone(), filter));
    }
    Ok(out)
}

/// A metagate file opened for search (and, from the CLI, for loading).
pub struct Engine {
    store: Store,
    readers: Mutex<HashMap<(String, u64), Arc<IndexReader>>>,
    /// The catalog as last parsed: it changes rarely, so a request reads the catalog
    /// version instead of listing and parsing the catalog.
    catalog: Mutex<Option<Arc<CatalogView>>>,
    /// How long a load that replaces an index keeps the old generation for scrolls, when
    /// tests shorten it (`Engine::set_retire_grace_ms`); `None`: the retention policy's
    /// own grace.
    pub(crate) retire_grace_ms: Mutex<Option<i64>>,
    /// Whether scripts may use regexes (ES's `script.painless.regex.enabled`, off).
    script_regex: std::sync::atomic::AtomicBool,
    /// What `_stats` counts per index.
    counters: crate::shard_counters::Counters,
    /// The shard request cache.
    request_cache: crate::request_cache::RequestCache,
}

pub use crate::request::indices_options::{indices_options, IndicesOptions};

/// One row of `metagate indices`.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexInfo {
    /// Concrete name.
    pub name: String,
    /// Documents.
    pub docs: u64,
    /// Bytes of its generation.
    pub size_bytes: u64,
    /// Aliases pointing at it.
    pub aliases: Vec<String>,
    /// Generation number.
    pub generation: u64,
}

impl Engine {
    /// Lets this engine's scripts use regexes (`/.../`, `=~`, `==~`), as ES's
    /// `script.painless.regex.enabled: true` does; off by default, as in ES 6.8.
    pub fn set_script_regex(&self, on: bool) {
        self.script_regex.store(on, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether this engine's scripts may use regexes.
    pub fn script_regex(&self) -> bool {
        self.script_regex.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Opens an existing file.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open(path: &Path) -> Result<Engine> {
        Ok(Engine::with_store(Store::open(path, false)?))
    }

    /// Opens a file, creating an empty one when missing.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open_or_create(path: &Path) -> Result<Engine> {
        Ok(Engine::with_store(Store::open(path, true)?))
    }

    /// Opens a file image held in memory, read-only: searches and scrolls work, changes to
    /// indices, aliases and keys answer `cluster_block_exception` (403).
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Engine> {
        Ok(Engine::with_store(Store::open_bytes(bytes)?))
    }

    /// Opens a file image read-only from a source read on demand (in the browser, HTTP
    /// range requests): only the pages the searches touch are fetched, in chunks as
    /// `policy` says.
    pub fn from_source(source: impl ImageSource, policy: ChunkPolicy) -> Result<Engine> {
        Ok(Engine::with_store(Store::open_source(source, policy)?))
    }

    fn with_store(store: Store) -> Engine {
        Engine {
            store,
            readers: Mutex::new(HashMap::new()),
            catalog: Mutex::new(None),
            retire_grace_ms: Mutex::new(None),
            script_regex: std::sync::atomic::AtomicBool::new(false),
            counters: Default::default(),
            request_cache: Default::default(),
        }
    }

    /// What `_stats` counts per index.
    pub(crate) fn counters(&self) -> &crate::shard_counters::Counters {
        &self.counters
    }

    /// The underlying store (for keys and scroll bookkeeping).
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// A read snapshot.
    pub(crate) fn snapshot(&self) -> Result<Snapshot> {
        self.store.read()
    }

    /// Catalog entries of every concrete index in a snapshot.
    pub(crate) fn index_metas(&self, snap: &Snapshot) -> Result<Vec<IndexMeta>> {
        Ok(self.index_readers(snap)?.into_values().map(|r| r.meta.clone()).collect())
    }

    /// Readers of every concrete index in a snapshot, by name.
    pub(crate) fn index_readers(&self, snap: &Snapshot) -> Result<BTreeMap<String, Arc<IndexReader>>> {
        Ok(self.catalog_view(snap)?.readers.iter().map(|(name, (_, r))| (name.clone(), r.clone())).collect())
    }

    /// Alias -> concrete index names, in a snapshot.
    pub(crate) fn alias_map(&self, snap: &Snapshot) -> Result<BTreeMap<String, Vec<String>>> {
        Ok(self.catalog_view(snap)?.aliases.clone())
    }

    /// Alias -> its indices with the alias's options on each, in a snapshot.
    pub(crate) fn alias_targets(&self, snap: &Snapshot) -> Result<BTreeMap<String, Vec<AliasTarget>>> {
        Ok(self.catalog_view(snap)?.alias_targets.clone())
    }

    /// The filters the aliases of `expr` put on each concrete index, as ES 6.8's
    /// `IndexNameExpressionResolver.filteringAliases` finds them: none on an index the
    /// expression names itself (by name, pattern or `_all`) or reaches through an alias
    /// without a filter; otherwise the filters of the aliases that reach it, any of which
    /// a document must match.
    pub(crate) fn alias_filters(&self, snap: &Snapshot, expr: &str) -> Result<Vec<(String, crate::query::Query)>> {
        parse_alias_filters(&self.alias_filter_sources(snap, expr)?)
    }

    /// The filters [`Engine::alias_filters`] finds, as the aliases hold them: for each
    /// filtered index, the names of the aliases reaching it (sorted) and their filters.
    pub(crate) fn alias_filter_sources(&self, snap: &Snapshot, expr: &str) -> Result<Vec<AliasFilterSource>> {
        let view = self.catalog_view(snap)?;
        if view.alias_targets.values().flatten().all(|t| t.options.filter.is_none()) {
            return Ok(Vec::new());
        }
        let expr = crate::index_names::resolve_date_math(expr, now_ms())?;
        let mut unfiltered: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
        let mut filters: BTreeMap<&str, Vec<(&str, &Value)>> = BTreeMap::new();
        let parts: Vec<&str> =
            expr.split(',').map(str::trim).filter(|p| !p.is_empty() && !p.starts_with('-')).collect();
        let all = parts.is_empty() || parts.iter().any(|p| *p == "_all" || *p == "*");
        if all {
            return Ok(Vec::new());
        }
        for part in parts {
            let pattern = part.contains('*');
            for name in view.readers.keys() {
                if name == part || (pattern && crate::mapping::simple_match(part, name)) {
                    unfiltered.insert(name);
                }
            }
            for (alias, targets) in &view.alias_targets {
                if alias != part && !(pattern && crate::mapping::simple_match(part, alias)) {
                    continue;
                }
                for t in targets {
                    match &t.options.filter {
                        Some(f) => filters.entry(t.index.as_str()).or_default().push((alias.as_str(), f)),
                        None => {
                            unfiltered.insert(&t.index);
                        }
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (index, mut found) in filters {
            if unfiltered.contains(index) {
                continue;
            }
            found.sort_by(|a, b| a.0.cmp(b.0));
            found.dedup_by(|a, b| a.0 == b.0);
            out.push(AliasFilterSource {
                index: index.to_string(),
                aliases: found.iter().map(|(a, _)| a.to_string()).collect(),
                filters: found.iter().map(|(_, f)| (*f).clone()).collect(),
            });
        }
        Ok(out)
    }

    /// The snapshot's catalog, parsed again only when its version differs from the last
    /// one parsed (entries whose bytes did not change keep their readers).
    fn catalog_view(&self, snap: &Snapshot) -> Result<Arc<CatalogView>> {
        let version = snap.catalog_version()?;
        let previous = self.catalog.lock().unwrap_or_else(|p| p.into_inner()).clone();
        if let Some(view) = previous.as_ref().filter(|v| v.version == version) {
            return Ok(view.clone());
        }
        let mut readers = BTreeMap::new();
        for (name, raw) in snap.list(Catalog::Indices)? {
            let kept = previous.as_ref().and_then(|v| v.readers.get(&name)).filter(|(bytes, _)| *bytes == raw);
            let reader = match kept {
                Some((_, r)) => r.clone(),
                None => {
                    let j: Value =
                        serde_json::from_slice(&raw).map_err(|e| Error::storage(format!("corrupt catalog: {e}")))?;
                    self.reader(IndexMeta::from_json(&j)?)
                }
            };
            readers.insert(name, (raw, reader));
        }
        let mut aliases = BTreeMap::new();
        let mut alias_targets = BTreeMap::new();
        for (k, v) in snap.list(Catalog::Aliases)? {
            let targets = crate::settings::alias::read_entry(&v)
                .map_err(|e| Error::storage(format!("corrupt alias table: {e}")))?;
            aliases.insert(k.clone(), targets.iter().map(|t| t.index.clone()).collect());
            alias_targets.insert(k, targets);
        }
        let view = Arc::new(CatalogView { version, readers, aliases, alias_targets });
        *self.catalog.lock().unwrap_or_else(|p| p.into_inner()) = Some(view.clone());
        Ok(view)
    }

    /// The reader for a catalog entry (cached per generation).
    pub(crate) fn reader(&self, meta: IndexMeta) -> Arc<IndexReader> {
        let key = (meta.name.clone(), meta.generation);
        let mut cache = self.readers.lock().unwrap_or_else(|p| p.into_inner());
        cache.entry(key).or_insert_with(|| Arc::new(IndexReader::new(meta))).clone()
    }

    /// Resolves an index expression (names, aliases, comma lists, wildcards, `-exclusions`,
    /// `_all`) to concrete indices, sorted by name, as ES 6.8 does.
    pub(crate) fn resolve(&self, snap: &Snapshot, expr: &str, opts: IndicesOptions) -> Result<Vec<Arc<IndexReader>>> {
        let expr = crate::index_names::resolve_date_math(expr, now_ms())?;
        let view = self.catalog_view(snap)?;
        let names = resolve_names(&expr, &view.readers, &view.aliases, opts)?;
        Ok(names.into_iter().filter_map(|n| view.readers.get(&n).map(|(_, r)| r.clone())).collect())
    }

    /// `indices_boost`'s entries resolved to concrete indices: the first entry naming an
    /// index gives its boost (ES's `TransportSearchAction.resolveIndexBoosts`).
    fn index_boosts(
        &self,
        snap: &Snapshot,
        entries: &[(String, f32)],
        opts: IndicesOptions,
    ) -> Result<Vec<(String, f32)>> {
        let mut out: Vec<(String, f32)> = Vec::new();
        for (expr, boost) in entries {
            for r in self.resolve(snap, expr, opts)? {
                if !out.iter().any(|(n, _)| *n == r.meta.name) {
                    out.push((r.meta.name.clone(), *boost));
                }
            }
        }
        Ok(out)
    }

    /// Runs a parsed search request on the indices `index` (an expression) resolves to,
    /// through the search pipeline. The response is typed; [`SearchResponse::to_bytes`]
    /// writes ES's JSON.
    pub fn search_request(&self, index: &str, req: &SearchRequest, opts: IndicesOptions) -> Result<SearchResponse> {
        let started = Instant::now();
        req.validate()?;
        // The search's own `timeout` reaches every loop below through the budget; a
        // deadline that passes anywhere makes the answer `timed_out`.
        let _deadline = crate::budget::search_deadline(req.deadline);
        let _regex = crate::script::regex::allow(self.script_regex());
        let snap = self.snapshot()?;
        let targets = self.resolve(&snap, index, opts)?;
        let boosted;
        let req = if req.indices_boost.is_empty() {
            req
        } else {
            boosted =
                SearchRequest { index_boosts: self.index_boosts(&snap, &req.indices_boost, opts)?, ..req.clone() };
            &boosted
        };
        let filtered;
        let req = match self.alias_filters(&snap, index)? {
            filters if filters.is_empty() => req,
            filters => {
                let mut r = req.clone();
                r.alias_filters = filters;
                filtered = r;
                &filtered
            }
        };
        // Shard-level checks, in the order ES 6.8's SearchService.parseSource makes them;
        // they fail every shard, so they come wrapped in `search_phase_execution_exception`.
        let shard_failure = |status: u16, kind: &str, reason: String| {
            Error::all_shards_failed(
                status,
                targets.first().map(|t| t.meta.name.as_str()),
                Exception::new(kind, reason),
            )
        };
        let after = match req.search_after.clone() {
            Some(values) if !targets.is_empty() => {
                if req.from > 0 {
                    return Err(shard_failure(
                        500,
                        "search_context_exception",
                        "`from` parameter must be set to 0 when `search_after` is used.".into(),
                    ));
                }
                if !crate::request::sort::is_sorted(&req.sort) {
                    return Err(shard_failure(
                        400,
                        "illegal_argument_exception",
                        "Sort must contain at least one field.".into(),
                    ));
                }
                if values.len() != req.sort.len() {
                    return Err(shard_failure(
                        400,
                        "illegal_argument_exception",
                        format!("search_after has {} value(s) but sort has {}.", values.len(), req.sort.len()),
                    ));
                }
                After::Raw(values)
            }
            _ => After::Start,
        };
        if req.slice.is_some() && !targets.is_empty() {
            return Err(shard_failure(
                500,
                "search_context_exception",
                "`slice` cannot be used outside of a scroll context".into(),
            ));
        }
        search::check_stored_fields(&targets, req)?;
        search::check_fetch_limits(&targets, req)?;
        if let Some(c) = &req.collapse {
            search::collapse::check(&targets, req, c)?;
        }
        search::check_window(&targets, req.from, req.size, false)?;
        search::rescore::check(&targets, req)?;
        let counters: Vec<_> = targets.iter().map(|t| self.counters.of(&t.meta.uuid)).collect();
        let cache_key = crate::request_cache::key(req, &targets, snap.catalog_version()?);
        if let Some(key) = &cache_key {
            if let Some(mut hit) = self.request_cache.get(key, &counters) {
                hit.response.took = started.elapsed().as_millis() as u64;
                let nanos = started.elapsed().as_nanos() as u64;
                count_phases(&counters, nanos, 0, &hit.fetched_from);
                return Ok(hit.response);
            }
        }
        let ran =
            search::pipeline::run(&targets, &snap, req, now_ms(), search::pipeline::HitSource::Search(after), started)?;
        count_phases(&counters, ran.query_nanos, ran.fetch_nanos, &ran.fetched_from);
        if let Some(key) = cache_key {
            let kept =
                crate::request_cache::Cached { response: ran.response.clone(), fetched_from: ran.fetched_from.clone() };
            self.request_cache.put(key, kept, &counters);
        }
        Ok(ran.response)
    }

    /// Every concrete index with its size and aliases.
    pub fn indices(&self) -> Result<Vec<IndexInfo>> {
        let snap = self.snapshot()?;
        let aliases = self.alias_map(&snap)?;
        Ok(self
            .index_metas(&snap)?
            .into_iter()
            .map(|m| IndexInfo {
                aliases: aliases.iter().filter(|(_, v)| v.contains(&m.name)).map(|(k, _)| k.clone()).collect(),
                name: m.name,
                docs: m.doc_count,
                size_bytes: m.size_bytes,
                generation: m.generation,
            })
            .collect())
    }

    /// [`Engine::indices`] as the in-process doors (C, Python, WASM) return it:
    /// `[{"index","docs.count","store.size","aliases","generation"}]`.
    pub fn indices_json(&self) -> Result<Value> {
        Ok(Value::Array(self.indices()?.iter().map(IndexInfo::to_json).collect()))
    }

    /// [`Engine::aliases`] as the in-process doors return it: `[{"alias","index"}]`.
    pub fn aliases_json(&self) -> Result<Value> {
        Ok(Value::Array(self.aliases()?.into_iter().map(|(a, i)| json!({"alias": a, "index": i})).collect()))
    }

    /// The generations whose data the file holds, ascending: one per index, and those
    /// kept for open scrolls after their index was replaced (until the first load or
    /// index deletion after the scrolls end).
    pub fn stored_generations(&self) -> Result<Vec<u64>> {
        self.snapshot()?.generations()
    }

    /// (alias, index) pairs, sorted.
    pub fn aliases(&self) -> Result<Vec<(String, String)>> {
        let snap = self.snapshot()?;
        let mut out = Vec::new();
        for (alias, names) in self.alias_map(&snap)? {
            for n in names {
                out.push((alias.clone(), n));
            }
        }
        Ok(out)
    }

    /// (alias, index, the alias's options there) triples, sorted: `_cat/aliases`' rows.
    pub fn alias_entries(&self) -> Result<Vec<(String, AliasTarget)>> {
        let snap = self.snapshot()?;
        let mut out = Vec::new();
        for (alias, targets) in self.alias_targets(&snap)? {
            out.extend(targets.into_iter().map(|t| (alias.clone(), t)));
        }
        Ok(out)
    }

    /// Applies alias actions atomically (one transaction): add, remove, or both as a swap.
    pub fn update_aliases(&self, actions: &[AliasAction]) -> Result<()> {
        let mut txn = self.store.write()?;
        for a in actions {
            match a {
                AliasAction::Add { alias, index } => {
                    add_alias(&mut txn, alias, index, &crate::settings::alias::AliasOptions::default())?
                }
                AliasAction::AddWithOptions { alias, index, options } => add_alias(&mut txn, alias, index, options)?,
                AliasAction::Remove { alias, index } => {
                    let mut names = read_alias(&txn, alias)?;
                    let before = names.len();
                    names.retain(|n| n.index != *index);
                    if names.len() == before {
                        return Err(Error::new(
                            404,
                            Exception::new("aliases_not_found_exception", format!("aliases [{alias}] missing"))
                                .with_meta("resource.type", "aliases")
                                .with_meta("resource.id", alias.as_str()),
                        ));
                    }
                    if names.is_empty() {
                        txn.remove(Catalog::Aliases, alias)?;
                    } else {
                        txn.put(Catalog::Aliases, alias, &crate::settings::alias::write_entry(&names))?;
                    }
                }
            }
        }
        txn.commit()
    }

    /// Gives the file's free pages back to the file system (see [`Store::compact`]): after
    /// a load or a removal, the pages of replaced generations and of the load's work are
    /// free inside the file until a later load reuses them. The readers this engine keeps
    /// are let go first, so only other processes can make it [`Busy`](crate::store::Compaction::Busy).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn compact(&mut self) -> Result<crate::store::Compaction> {
        self.readers.get_mut().unwrap_or_else(|p| p.into_inner()).clear();
        *self.catalog.get_mut().unwrap_or_else(|p| p.into_inner()) = None;
        self.store.compact()
    }
}

fn read_alias(txn: &crate::store::WriteTxn, alias: &str) -> Result<Vec<AliasTarget>> {
    Ok(match txn.get(Catalog::Aliases, alias)? {
        Some(v) => crate::settings::alias::read_entry(&v).map_err(Error::storage)?,
        None => Vec::new(),
    })
}

/// Points `alias` at `index` with `options` (replacing the options it had there, as ES
/// replaces an alias's metadata), after ES's checks of the name and the filter.
fn add_alias(
    txn: &mut crate::store::WriteTxn,
    alias: &str,
    index: &str,
    options: &crate::settings::alias::AliasOptions,
) -> Result<()> {
    validate_alias_name(alias)?;
    if txn.get(Catalog::Indices, index)?.is_none() {
        return Err(Error::index_not_found(index));
    }
    if txn.get(Catalog::Indices, alias)?.is_some() {
        return Err(Error::new(
            400,
            Exception::new(
                "invalid_alias_name_exception",
                format!("Invalid alias name [{alias}], an index exists with the same name as the alias"),
            ),
        ));
    }
    check_alias_filter(alias, options)?;
    let mut targets = read_alias(txn, alias)?;
    targets.retain(|t| t.index != index);
    targets.push(AliasTarget { index: index.to_string(), options: options.clone() });
    targets.sort_by(|a, b| a.index.cmp(&b.index));
    crate::settings::alias::check_write_indices(alias, &targets)?;
    txn.put(Catalog::Aliases, alias, &crate::settings::alias::write_entry(&targets))
}

/// ES 6.8's `AliasValidator`: the routing values, and a filter that parses as a query
/// (`failed to parse filter for alias [..]`, caused by the parser's error).
/// Counts a search's phases on its indices' counters as ES counts them per shard: a
/// query phase on each; a fetch phase on each that gave hits, and on the only shard of
/// a one-shard search, which ES queries and fetches in one round trip.
pub(crate) fn count_phases(
    counters: &[Arc<crate::shard_counters::IndexCounters>],
    query_nanos: u64,
    fetch_nanos: u64,
    fetched_from: &[usize],
) {
    for (i, c) in counters.iter().enumerate() {
        c.query(query_nanos);
        if counters.len() == 1 || fetched_from.contains(&i) {
            c.fetch(fetch_nanos);
        }
    }
}

pub(crate) fn check_alias_filter(alias: &str, options: &crate::settings::alias::AliasOptions) -> Result<()> {
    options.check(alias)?;
    let Some(filter) = &options.filter else { return Ok(()) };
    let raw = filter.to_string();
    match crate::query::dsl::DslParser::new(&raw).parse(filter) {
        Ok(_) => Ok(()),
        Err(e) => {
            let top =
                Exception::new("illegal_argument_exception", format!("failed to parse filter for alias [{alias}]"));
            Err(Error::new(400, top.clone().caused_by(e.exception)).with_root_causes(vec![top]))
        }
    }
}

/// An alias change.
#[derive(Debug, Clone, PartialEq)]
pub enum AliasAction {
    /// Point `alias` (also) at `index`, without options.
    Add {
        /// Alias name.
        alias: String,
        /// Concrete index.
        index: String,
    },
    /// Point `alias` (also) at `index` with a filter and routing values.
    AddWithOptions {
        /// Alias name.
        alias: String,
        /// Concrete index.
        index: String,
        /// The filter and routing values.
        options: crate::settings::alias::AliasOptions,
    },
    /// Stop pointing `alias` at `index`.
    Remove {
        /// Alias name.
        alias: String,
        /// Concrete index.
        index: String,
    },
}

/// ES index-name rules (6.8): lowercase, no special characters, not starting with `_-+`.
pub fn validate_index_name(name: &str) -> Result<()> {
    let invalid = |why: &str| {
        Error::new(
            400,
            Exception::new("invalid_index_name_exception", format!("Invalid index name [{name}], {why}"))
                .with_meta("index_uuid", "_na_")
                .with_meta("index", name),
        )
    };
    if name.is_empty() {
        return Err(invalid("must not be empty"));
    }
    if name != name.to_lowercase() {
        return Err(invalid("must be lowercase"));
    }
    validate_common(name, invalid)
}

/// ES alias-name rules (6.8).
pub(crate) fn validate_alias_name(name: &str) -> Result<()> {
    let invalid = |why: &str| {
        Error::new(400, Exception::new("invalid_alias_name_exception", format!("Invalid alias name [{name}], {why}")))
    };
    if name.is_empty() {
        return Err(invalid("alias name must not be empty"));
    }
    validate_common(name, invalid)
}

fn validate_common(name: &str, invalid: impl Fn(&str) -> Error) -> Result<()> {
    for c in ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ',', '#', ':'] {
        if name.contains(c) {
            return Err(invalid(r#"must not contain the following characters [ , ", *, \, <, |, ,, >, /, ?, #, :]"#));
        }
    }
    if name.starts_with(['_', '-', '+']) {
        return Err(invalid("must not start with '_', '-', or '+'"));
    }
    if name == "." || name == ".." {
        return Err(invalid("must not be '.' or '..'"));
    }
    if name.len() > 255 {
        return Err(invalid("index name is too long"));
    }
    Ok(())
}

/// The names an expression resolves to.
pub fn resolve_names<T>(
    expr: &str,
    metas: &BTreeMap<String, T>,
    aliases: &BTreeMap<String, Vec<String>>,
    opts: IndicesOptions,
) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    let parts: Vec<&str> = expr.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
    if parts.is_empty() || parts == ["_all"] {
        return Ok(metas.keys().cloned().collect());
    }
    let expand = |name: &str| -> Vec<String> {
        if metas.contains_key(name) {
            vec![name.to_string()]
        } else if let Some(v) = aliases.get(name) {
            v.clone()
        } else {
            Vec::new()
        }
    };
    for (i, part) in parts.iter().enumerate() {
        if let Some(excl) = part.strip_prefix('-').filter(|_| i > 0) {
            let removed: Vec<String> = if excl.contains('*') {
                metas
                    .keys()
                    .filter(|n| crate::mapping::simple_match(excl, n))
                    .cloned()
                    .chain(
                        aliases
                            .iter()
                            .filter(|(a, _)| crate::mapping::simple_match(excl, a))
                            .flat_map(|(_, v)| v.clone()),
                    )
                    .collect()
            } else {
                expand(excl)
            };
            out.retain(|n| !removed.contains(n));
            continue;
        }
        if part.contains('*') {
            let mut found: Vec<String> =
                metas.keys().filter(|n| crate::mapping::simple_match(part, n)).cloned().collect();
            for (a, v) in aliases {
                if crate::mapping::simple_match(part, a) {
                    found.extend(v.iter().cloned());
                }
            }
            if found.is_empty() && !opts.allow_no_indices {
                return Err(Error::index_not_found(part));
            }
            out.extend(found);
            continue;
        }
        let found = expand(part);
        if found.is_empty() {
            if opts.ignore_unavailable {
                continue;
            }
            return Err(Error::index_not_found(part));
        }
        out.extend(found);
    }
    out.sort();
    out.dedup();
    Ok(out)
}

impl IndexInfo {
    /// The index as the in-process doors list it.
    pub fn to_json(&self) -> Value {
        json!({"index": self.name, "docs.count": self.docs, "store.size": self.size_bytes, "aliases": self.aliases,
               "generation": self.generation})
    }
}
