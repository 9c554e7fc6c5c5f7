//! Scroll: cursors that outlive the process and cannot be forged.
//!
//! # Design
//!
//! A scroll id is self-contained (see [`id`]): it carries the pinned concrete indices and
//! generations, the request, `now` at the start, the position after the last returned hit
//! and the keep-alive deadline, signed with HMAC-SHA256 under a secret kept in the file.
//! Nothing is held open between pages, so:
//!
//! - any process that opens the file — a restarted server, a second server behind a load
//!   balancer, the CLI — continues any scroll; no lock is held between pages, and a
//!   replaced generation is kept for scrolls (see [`retention`]: a grace period while a
//!   process may read scrolls without pins, and pins for scrolls the grace does not
//!   cover, written without waiting for the file's write lock, so a load never makes a
//!   scroll wait);
//! - a tampered id fails the signature and costs one hash; an id cannot widen its query;
//! - pages neither skip nor repeat: the pinned generations are immutable, so moving an
//!   alias, loading a new generation or replacing the index (its old generation is kept
//!   until its scrolls end) changes nothing mid-scroll; a pinned index that has been
//!   deleted makes the scroll missing (404), as deleting an index does in ES.
//!
//! Clearing is the one shared state: a cleared scroll's nonce is recorded in the file's
//! `scrolls` table (with a deadline after which no id of it can be alive, so the record
//! is pruned through the table's expiry index, see [`records`]), and `_all` bumps the
//! caller's clear-all epoch in `meta` that every older id of that caller fails. Both are
//! read on each continuation, so a clear stops a scroll everywhere at once.
//!
//! # Owners
//!
//! A scroll belongs to the API key that started it (its name is in the id; in-process and
//! keyless callers own theirs as "no owner"). Only its owner continues or clears it:
//! another key's id answers as an unknown scroll (404 `search_context_missing_exception`),
//! and `DELETE _search/scroll/_all` ends the caller's own scrolls only (an in-process
//! caller's `_all`: the scrolls without owner). Each key may hold
//! [`context::MAX_CONTEXTS_PER_KEY`] live scrolls of the process's
//! [`context::MAX_CONTEXTS`], so no key locks the others out.
//!
//! # Contexts and ids
//!
//! ES 6.8 keeps a scroll's position on the server and usually answers every page with the
//! same `_scroll_id`, so clients may send back the first id or the last. Both work here:
//! every page gets an id of its own that carries its position (so a restarted server or
//! another process sharing the file continues from it), and this process keeps a
//! [`context`] per scroll that each continuation advances, whatever id it came with — as
//! in ES, continuing twice with the same id returns the next page each time, and an
//! exhausted scroll answers empty pages. Contexts live in memory only.
//!
//! # Speed
//!
//! Each page re-runs the query phase from the cursor (`search_after` semantics with the
//! (index, document) tie-break). Within one process the match sets of a scroll are cached
//! (see [`cache`]), and for `_doc` order — or relevance order over a constant score, the
//! usual `match_all` download — the query phase walks the match set from the cursor, so a
//! page costs time proportional to the page, not to the pages before it.

mod cache;
mod context;
pub(crate) mod id;
mod records;
pub mod retention;

use crate::engine::Engine;
use crate::error::{Error, Exception, Result};
use crate::index::{IndexMeta, IndexReader};
use crate::node::now_ms;
use crate::request::scroll::{ScrollNextRequest, ScrollStartRequest};
use crate::request::SearchRequest;
use crate::search::collect::{self, KeptHits, PassStats, TargetSteps, TopHits};
use crate::search::context::Executor;
use crate::search::pipeline::{self, HitSource};
use crate::search::response::{HitJson, SearchResponse};
use crate::search::sort::SortValue;
use crate::search::{self, After};
use crate::store::{Catalog, Snapshot};
use context::Context;
use id::{Position, ScrollId};
use serde_json::Value;
use std::sync::Arc;
use web_time::Instant;

/// Longest keep-alive accepted (ES 6.8's default `search.max_keep_alive`).
const MAX_KEEP_ALIVE_MS: i64 = 24 * 60 * 60 * 1000;
/// `meta` key of the clear-all epoch of scrolls without owner; a key's is
/// `scroll_epoch/{key name}` (see [`epoch_key`]).
const EPOCH_KEY: &str = "scroll_epoch";
/// Prefix of cleared-scroll records in the `scrolls` table.
const CLEARED_PREFIX: &str = "cleared/";
/// 400 `Cannot parse scroll id`, shaped as ES's `IllegalArgumentException` with a cause
/// (the root cause is the wrapper itself, since it is not an ES exception).
fn cannot_parse(detail: &str) -> Error {
    let top = Exception::new("illegal_argument_exception", "Cannot parse scroll id");
    Error::new(400, top.clone().caused_by(Exception::new("illegal_argument_exception", detail)))
        .with_root_causes(vec![top])
}

/// 404 for an expired, cleared or unknown scroll, as es68-wire.md 1.5 shows it.
fn context_missing(nonce: u64) -> Error {
    let cause = Exception::new("search_context_missing_exception", format!("No search context found for id [{nonce}]"));
    let mut e = Error::all_shards_failed(404, None, cause.clone());
    e.exception = e.exception.caused_by(cause);
    e
}

/// The failure of a scroll start past `max` live scrolls ([`context::MAX_CONTEXTS`] in
/// all, or [`context::MAX_CONTEXTS_PER_KEY`] of the caller's key): ES 7's
/// `SearchService.createAndPutContext` check on every shard (a plain
/// `ElasticsearchException`, 500). ES 6.8 logs the same text as a deprecation and goes on;
/// here the bound holds, since each live scroll holds memory and pins generations.
fn too_many_scrolls(targets: &[Arc<IndexReader>], max: usize) -> Error {
    shard_failure(
        targets,
        500,
        "exception",
        format!("Trying to create too many scroll contexts. Must be less than or equal to: [{max}]. This limit can be set by changing the [search.max_open_scroll_context] setting."),
    )
}

/// A failure of every shard of `targets` (ES raises these per shard).
fn shard_failure(targets: &[Arc<IndexReader>], status: u16, kind: &str, reason: String) -> Error {
    Error::all_shards_failed(status, targets.first().map(|t| t.meta.name.as_str()), Exception::new(kind, reason))
}

/// A scroll page that the server's cap (`serve --max-request-time`) cut. ES applies no
/// `timeout` to scrolls (QueryPhase sets one only when `scrollContext == null`), so a
/// scroll never answers part of a page: a page with hits missing would make the next page
/// start after them and skip them for good. The closest ES failure is the one its query
/// phase raises when a search runs out of time and may not answer part
/// (`allow_partial_search_results: false`): `QueryPhaseExecutionException("Time exceeded")`,
/// which the query phase's catch-all wraps in "Failed to execute main query", failing
/// every shard (500).
fn time_exceeded(targets: &[Arc<IndexReader>]) -> Error {
    let inner = Exception::new("query_phase_execution_exception", "Time exceeded");
    let outer =
        Exception::new("query_phase_execution_exception", "Failed to execute main query").caused_by(inner.clone());
    Error::all_shards_failed(500, targets.first().map(|t| t.meta.name.as_str()), outer).with_root_causes(vec![inner])
}

/// `TimeValue.toString()` of ES 6.8: the largest unit with one truncated decimal.
pub(crate) fn time_value_string(ms: i64) -> String {
    if ms <= 0 {
        return if ms == 0 { "0s".into() } else { ms.to_string() };
    }
    let (unit, suffix) = [(86_400_000, "d"), (3_600_000, "h"), (60_000, "m"), (1_000, "s")]
        .into_iter()
        .find(|(u, _)| ms >= *u)
        .unwrap_or((1, "ms"));
    let value = ms as f64 / unit as f64;
    let text = format!("{value}");
    // Java keeps the first fraction digit, truncated, and drops a zero one.
    let shown = match text.split_once('.') {
        Some((int, frac)) => match frac.chars().next() {
            Some(d) if d != '0' => format!("{int}.{d}"),
            _ => int.to_string(),
        },
        None => text,
    };
    format!("{shown}{suffix}")
}

/// The keep-alive limit, checked per shard in ES (so it fails every shard).
fn check_keep_alive(ms: i64, targets: &[Arc<IndexReader>]) -> Result<()> {
    if ms > MAX_KEEP_ALIVE_MS && !targets.is_empty() {
        return Err(shard_failure(
            targets,
            400,
            "illegal_argument_exception",
            format!(
                "Keep alive for scroll ({}) is too large. It must be less than ({}). This limit can be set by changing the [search.max_keep_alive] cluster level setting.",
                time_value_string(ms),
                time_value_string(MAX_KEEP_ALIVE_MS)
            ),
        ));
    }
    Ok(())
}

/// ES 6.8 `SearchRequest.validate()` for scroll requests.
fn validate_scroll_request(req: &SearchRequest) -> Result<()> {
    if !req.indices_boost.is_empty() {
        // Each page would have to resolve the boosts' index expressions again.
        return Err(Error::illegal_argument("[indices_boost] in a scroll is not supported by metagate"));
    }
    let mut problems = Vec::new();
    if !req.track_total_hits {
        problems.push("disabling [track_total_hits] is not allowed in a scroll context");
    }
    if req.from > 0 {
        problems.push("using [from] is not allowed in a scroll context");
    }
    if req.size == 0 {
        problems.push("[size] cannot be [0] in a scroll context");
    }
    if problems.is_empty() {
        if !req.rescore.is_empty() {
            // Each page would rescore its own window: not what a whole-set download means.
            return Err(Error::illegal_argument("[rescore] is not supported in a scroll by this engine"));
        }
        if !req.suggest.is_empty() {
            // A scroll's pages carry hits only: its first page would drop the suggestions.
            return Err(Error::illegal_argument("[suggest] is not supported in a scroll by metagate"));
        }
        return Ok(());
    }
    let text: String = problems.iter().enumerate().map(|(i, p)| format!("{}: {p};", i + 1)).collect();
    Err(Error::new(400, Exception::new("action_request_validation_exception", format!("Validation Failed: {text}"))))
}

/// The request a scroll's pages after the first run, read from the request its id
/// carries (accepted when the scroll started and signed, so it parses again): without
/// aggregations, answered on the first page only as in ES, and without `timeout`, which
/// ES does not apply to scrolls.
fn page_request(sid: &ScrollId) -> Result<SearchRequest> {
    let mut req = SearchRequest::parse(&sid.body, &sid.params, &sid.types)?;
    let sources: Vec<crate::engine::AliasFilterSource> = sid
        .alias_filters
        .iter()
        .map(|(index, filters)| crate::engine::AliasFilterSource {
            index: index.clone(),
            aliases: Vec::new(),
            filters: filters.clone(),
        })
        .collect();
    req.alias_filters = crate::engine::parse_alias_filters(&sources)?;
    req.deadline = None;
    req.aggs = None;
    Ok(req)
}

/// Whether a context may keep the scroll's parsed request (see
/// [`context::KEPT_REQUEST_MAX`]).
fn keepable(sid: &ScrollId) -> bool {
    let params: usize = sid.params.iter().map(|(k, v)| k.len() + v.len()).sum();
    sid.body.len() + params <= context::KEPT_REQUEST_MAX
}

fn cleared_key(nonce: u64) -> String {
    format!("{CLEARED_PREFIX}{nonce}")
}

/// The `meta` key of `owner`'s clear-all epoch.
fn epoch_key(owner: Option<&str>) -> String {
    match owner {
        None => EPOCH_KEY.to_string(),
        Some(name) => format!("{EPOCH_KEY}/{name}"),
    }
}

/// `owner`'s clear-all epoch as `snap` sees it.
fn read_epoch(snap: &Snapshot, owner: Option<&str>) -> Result<u64> {
    Ok(parse_u64(snap.get(Catalog::Meta, &epoch_key(owner))?))
}

fn parse_u64(v: Option<Vec<u8>>) -> u64 {
    v.and_then(|b| String::from_utf8(b).ok()).and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// The file's signing secret.
struct FileKeys {
    secret: Vec<u8>,
}

impl FileKeys {
    fn read(snap: &Snapshot) -> Result<FileKeys> {
        let secret = snap
            .get(Catalog::Meta, "scroll_secret")?
            .filter(|s| !s.is_empty())
            .ok_or_else(|| Error::storage("the file has no scroll secret"))?;
        Ok(FileKeys { secret })
    }

    /// Names this file in the process-wide match cache.
    fn tag(&self) -> u64 {
        let h = id::hmac_sha256(&self.secret, &[b"metagate scroll cache"]);
        u64::from_le_bytes([h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]])
    }
}

/// Drops what this process keeps of a scroll: its cached matches and its context.
fn forget_state(file: u64, nonce: u64) {
    cache::forget(file, nonce);
    context::forget(file, nonce);
}

/// The readers of an id's pinned generations — current, or retired but kept for open
/// scrolls — if all still exist, and whether any of them is retired.
fn pinned(
    engine: &Engine,
    snap: &Snapshot,
    metas: &[IndexMeta],
    sid: &ScrollId,
) -> Result<Option<(Vec<Arc<IndexReader>>, bool)>> {
    let mut readers = Vec::with_capacity(sid.indices.len());
    let mut retired = false;
    for (name, generation) in &sid.indices {
        let meta = match metas.iter().find(|m| &m.name == name && m.generation == *generation) {
            Some(m) => m.clone(),
            None => match retention::retired_meta(snap, *generation)?.filter(|m| &m.name == name) {
                Some(m) => {
                    retired = true;
                    m
                }
                None => return Ok(None),
            },
        };
        readers.push(engine.reader(meta));
    }
    Ok(Some((readers, retired)))
}

impl Engine {
    /// Starts a scroll for `owner`: the name of the API key the caller authenticated with
    /// (`None`: an in-process or keyless caller), the only one that may continue or clear
    /// it. The typed response's [`SearchResponse::to_bytes`] writes ES's JSON.
    pub fn start_scroll(&self, req: ScrollStartRequest, owner: Option<&str>) -> Result<SearchResponse> {
        let started = Instant::now();
        // The REST-level checks (keep-alive, body) were made when the request was read.
        let ScrollStartRequest { index, search: mut req, keep_alive_ms: keep_ms, indices, source } = req;
        // ES applies no `timeout` to scrolls: a cut page would make later pages skip hits.
        let _deadline = crate::budget::search_deadline(None);
        req.validate()?;
        validate_scroll_request(&req)?;
        let snap = self.snapshot()?;
        let targets = self.resolve(&snap, &index, indices?)?;
        // The aliases' filters apply to every page: the id carries them as they are now.
        let alias_filters = self.alias_filter_sources(&snap, &index)?;
        req.alias_filters = crate::engine::parse_alias_filters(&alias_filters)?;
        // Shard-level checks (SearchService.createContext order).
        if !targets.is_empty() {
            if req.search_after.is_some() {
                return Err(shard_failure(
                    &targets,
                    500,
                    "search_context_exception",
                    "`search_after` cannot be used in a scroll context.".into(),
                ));
            }
            if req.collapse.is_some() {
                return Err(shard_failure(
                    &targets,
                    500,
                    "search_context_exception",
                    "cannot use `collapse` in a scroll context".into(),
                ));
            }
            // `index.max_slices_per_scroll`: the smallest of the indices fails first.
            let limit = targets.iter().map(|t| t.meta.settings.limits.max_slices_per_scroll).min().unwrap_or(1024);
            if let Some((_, max)) = req.slice.filter(|(_, max)| u64::from(*max) > limit) {
                // DefaultSearchContext.preProcess: a query_phase_execution_exception (500).
                return Err(shard_failure(
                    &targets,
                    500,
                    "query_phase_execution_exception",
                    format!("The number of slices [{max}] is too large. It must be less than [{limit}]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting."),
                ));
            }
        }
        search::check_stored_fields(&targets, &req)?;
        search::check_fetch_limits(&targets, &req)?;
        search::check_window(&targets, 0, req.size, true)?;
        check_keep_alive(keep_ms, &targets)?;
        let keys = FileKeys::read(&snap)?;
        let now = now_ms();
        let mut sid = ScrollId {
            // 53 bits: the id is shown as a number and stays exact in any JSON reader.
            nonce: rand::random::<u64>() >> 11,
            epoch: read_epoch(&snap, owner)?,
            indices: targets.iter().map(|t| (t.meta.name.clone(), t.meta.generation)).collect(),
            types: req.types.clone(),
            body: source.body,
            alias_filters: alias_filters.into_iter().map(|f| (f.index, f.filters)).collect(),
            params: source.params,
            now_ms: now,
            after: None,
            expires_ms: now.saturating_add(keep_ms),
            pages: 0,
            owner: owner.map(str::to_string),
        };
        if !targets.is_empty() {
            context::reserve(keys.tag(), sid.nonce, owner, sid.expires_ms, now)
                .map_err(|max| too_many_scrolls(&targets, max))?;
        }
        let page = match self.scroll_page(&snap, &targets, &req, &mut sid, keys.tag(), true) {
            Ok(page) => page,
            Err(e) => {
                context::forget(keys.tag(), sid.nonce);
                return Err(e);
            }
        };
        // Aggregations are answered on the first page only, as in ES: the pages after it
        // run the request without them.
        req.aggs = None;
        let context = Context {
            pages: 0,
            after: sid.after.clone(),
            expires_ms: sid.expires_ms,
            owner: sid.owner.clone(),
            request: keepable(&sid).then(|| Arc::new(req)),
        };
        context::advance(keys.tag(), sid.nonce, 0, context, now);
        if retention::needs_pin(&sid, now, false) {
            // A keep-alive longer than a replaced generation's grace: the file learns which
            // generations the scroll reads (see `retention`), without waiting for a load.
            retention::pin_soon(self.store(), &snap, &sid)?;
        } else if !targets.is_empty() {
            retention::announce(self.store(), keys.tag(), now)?;
        }
        let text = sid.encode(&keys.secret);
        Ok(respond(Some(text), started, page))
    }

    /// The next page of a scroll of `owner` (see [`Engine::start_scroll`]): another
    /// owner's scroll is missing (404), as are expired, cleared and unknown scrolls
    /// (`search_context_missing_exception`); a malformed or tampered id is 400 `Cannot
    /// parse scroll id`. The typed response's [`SearchResponse::to_bytes`] writes ES's JSON.
    pub fn next_scroll_page(&self, req: &ScrollNextRequest, owner: Option<&str>) -> Result<SearchResponse> {
        let started = Instant::now();
        let keep_ms = req.keep_alive_ms;
        let snap = self.snapshot()?;
        let keys = FileKeys::read(&snap)?;
        let tag = keys.tag();
        let from_id = ScrollId::decode(&req.scroll_id, &keys.secret).map_err(cannot_parse)?;
        let nonce = from_id.nonce;
        if from_id.owner.as_deref() != owner {
            // Another key's scroll: as unknown as a scroll that never was (and its state
            // here is left alone).
            return Err(context_missing(nonce));
        }
        let epoch = read_epoch(&snap, owner)?;
        let metas = self.index_metas(&snap)?;
        // The request as the pages run it: the context's, else parsed from the id once.
        let mut request: Option<Arc<SearchRequest>> = None;
        // Two continuations of one scroll may race in this process: the one whose page
        // was computed from a position the other has already passed computes again.
        loop {
            let mut sid = from_id.clone();
            if let Some(ctx) = context::get(tag, nonce) {
                // A renewed keep-alive renews the scroll, whichever id comes back.
                sid.expires_ms = sid.expires_ms.max(ctx.expires_ms);
                if ctx.pages > sid.pages {
                    (sid.pages, sid.after) = (ctx.pages, ctx.after);
                }
                if request.is_none() {
                    request = ctx.request;
                }
            }
            let now = now_ms();
            if sid.epoch != epoch || now > sid.expires_ms || snap.get(Catalog::Scrolls, &cleared_key(nonce))?.is_some()
            {
                forget_state(tag, nonce);
                return Err(context_missing(nonce));
            }
            let Some((targets, reads_retired)) = pinned(self, &snap, &metas, &sid)? else {
                forget_state(tag, nonce);
                return Err(context_missing(nonce));
            };
            if let Some(ms) = keep_ms {
                check_keep_alive(ms, &targets)?;
                sid.expires_ms = now.saturating_add(ms);
            }
            let req = match &request {
                Some(req) => req.clone(),
                None => {
                    let req = Arc::new(page_request(&sid)?);
                    request = Some(req.clone());
                    req
                }
            };
            let _deadline = crate::budget::search_deadline(None);
            let from_pages = sid.pages;
            let page = self.scroll_page(&snap, &targets, &req, &mut sid, tag, false)?;
            sid.pages = from_pages + 1;
            let context = Context {
                pages: sid.pages,
                after: sid.after.clone(),
                expires_ms: sid.expires_ms,
                owner: sid.owner.clone(),
                request: keepable(&sid).then_some(req),
            };
            if context::advance(tag, nonce, from_pages, context, now) {
                if retention::needs_pin(&sid, now, reads_retired) {
                    retention::pin_soon(self.store(), &snap, &sid)?;
                } else {
                    retention::announce(self.store(), tag, now)?;
                }
                let text = keep_ms.map(|_| sid.encode(&keys.secret));
                return Ok(respond(text, started, page));
            }
        }
    }

    /// Clears `owner`'s scrolls (see [`Engine::start_scroll`]) by id, or all of
    /// them with the single id `_all`; returns `num_freed` (ES counts one per node for
    /// `_all`, so 1 here). Ids that are already expired, cleared, unknown or another
    /// owner's free nothing; a malformed id fails the request (400) before anything is
    /// cleared.
    pub fn clear_scroll(&self, ids: &[String], owner: Option<&str>) -> Result<u64> {
        let snap = self.snapshot()?;
        let keys = FileKeys::read(&snap)?;
        let now = now_ms();
        // No id can outlive this: every live id was issued with at most the maximum
        // keep-alive (the minute covers a continuation racing with the clear).
        let record_until = now + MAX_KEEP_ALIVE_MS + 60_000;
        let epoch_key = epoch_key(owner);
        if let [only] = ids {
            if only == "_all" {
                // The owner's older ids all fail the new epoch; their pins (if any) end at
                // their deadlines.
                let mut w = self.store().write()?;
                let epoch = parse_u64(w.get(Catalog::Meta, &epoch_key)?);
                w.put(Catalog::Meta, &epoch_key, (epoch + 1).to_string().as_bytes())?;
                records::prune(&mut w, now)?;
                w.commit()?;
                for nonce in context::forget_owner(keys.tag(), owner) {
                    cache::forget(keys.tag(), nonce);
                }
                return Ok(1);
            }
        }
        let decoded: Vec<ScrollId> =
            ids.iter().map(|s| ScrollId::decode(s, &keys.secret).map_err(cannot_parse)).collect::<Result<_>>()?;
        let metas = self.index_metas(&snap)?;
        let epoch = read_epoch(&snap, owner)?;
        let mut live: Vec<u64> = Vec::new();
        for sid in decoded.iter().filter(|sid| sid.owner.as_deref() == owner) {
            // The context's deadline counts too: a keep-alive renewed through a later id
            // keeps the scroll alive for every id of it.
            let renewed = context::get(keys.tag(), sid.nonce).map_or(sid.expires_ms, |c| c.expires_ms);
            forget_state(keys.tag(), sid.nonce);
            let alive = sid.epoch == epoch
                && now <= sid.expires_ms.max(renewed)
                && !live.contains(&sid.nonce)
                && pinned(self, &snap, &metas, sid)?.is_some()
                && snap.get(Catalog::Scrolls, &cleared_key(sid.nonce))?.is_none();
            if alive {
                live.push(sid.nonce);
            }
        }
        if live.is_empty() {
            // Nothing to free: no write transaction (and no fsync) for a no-op.
            return Ok(0);
        }
        let mut w = self.store().write()?;
        // Re-check inside the transaction: another process may have cleared meanwhile.
        let mut freed = 0;
        if parse_u64(w.get(Catalog::Meta, &epoch_key)?) == epoch {
            for nonce in live {
                let key = cleared_key(nonce);
                if w.get(Catalog::Scrolls, &key)?.is_none() {
                    records::put_expiring(&mut w, &key, record_until)?;
                    freed += 1;
                }
                if let Some(sid) = decoded.iter().find(|s| s.nonce == nonce) {
                    retention::unpin(&mut w, sid)?;
                }
            }
        }
        records::prune(&mut w, now)?;
        w.commit()?;
        Ok(freed)
    }

    /// Runs one page from `sid`'s position through the search pipeline, the query phase
    /// reading the scroll's cached matches, and advances `sid`.
    fn scroll_page(
        &self,
        snap: &Snapshot,
        targets: &[Arc<IndexReader>],
        req: &SearchRequest,
        sid: &mut ScrollId,
        file: u64,
        first: bool,
    ) -> Result<SearchResponse> {
        let started = Instant::now();
        let _regex = crate::script::regex::allow(self.script_regex());
        let after = match &sid.after {
            None => After::Start,
            Some(p) => After::Values(p.values.clone(), Some((p.target, p.doc))),
        };
        let (nonce, now, expires) = (sid.nonce, sid.now_ms, sid.expires_ms);
        let wall = now_ms();
        let scoring = search::needs_scoring(req);
        let mut collect = |ti: usize, reader: &IndexReader, top: &mut TopHits<'_>| -> Result<PassStats> {
            let key = cache::Key { file, nonce, target: ti, generation: reader.meta.generation };
            let cached = if first { None } else { cache::get(&key, expires) };
            let (cached, mut stats) = match cached {
                Some(c) => (c, Default::default()),
                None => {
                    let ex = Executor::new(reader, snap, now);
                    let weight = search::compile_query(&ex, req, scoring)?;
                    let (hits, stats) = KeptHits::compute(&weight, &TargetSteps::new(&ex, req)?, scoring)?;
                    if stats.timed_out {
                        // Part of the hits must not be kept for the pages that follow.
                        return Err(time_exceeded(targets));
                    }
                    let c = Arc::new(cache::CachedTarget { hits, terminated_early: stats.terminated_early });
                    cache::put(key, c.clone(), c.hits.approx_bytes(), wall, expires);
                    (c, stats)
                }
            };
            // The kept hits already went through the request's steps.
            let hits = cached.hits.weight();
            let ex = Executor::new(reader, snap, now);
            let page = collect::collect_target(ti, &ex, &hits, &TargetSteps::none(), scoring, &after, top)?;
            stats.total = page.total;
            stats.max_score = page.max_score;
            stats.terminated_early = cached.terminated_early;
            Ok(stats)
        };
        let ran = pipeline::run(targets, snap, req, now, HitSource::Scroll(&mut collect), started)?;
        let counters: Vec<_> = targets.iter().map(|t| self.counters().of(&t.meta.uuid)).collect();
        crate::engine::count_phases(&counters, ran.query_nanos, ran.fetch_nanos, &ran.fetched_from);
        if ran.response.timed_out {
            return Err(time_exceeded(targets));
        }
        if let Some(last) = ran.last {
            let values = if req.sort.is_empty() { vec![SortValue::Score(last.score)] } else { last.sort };
            sid.after = Some(Position { values, target: last.target, doc: last.doc });
        }
        Ok(ran.response)
    }

    /// Forgets this process's cached state of a scroll (the id stays valid elsewhere).
    fn forget_scroll(&self, scroll_id: &str) {
        let Ok(snap) = self.snapshot() else { return };
        let Ok(keys) = FileKeys::read(&snap) else { return };
        if let Ok(sid) = ScrollId::decode(scroll_id, &keys.secret) {
            forget_state(keys.tag(), sid.nonce);
        }
    }

    /// Sets how long a load that replaces an index keeps the old generation for scrolls
    /// that have not pinned it (default `scroll::retention::RETIRE_GRACE_MS`): for tests,
    /// which cannot wait for the default.
    #[doc(hidden)]
    pub fn set_retire_grace_ms(&self, ms: i64) {
        *self.retire_grace_ms.lock().unwrap_or_else(|p| p.into_inner()) = Some(ms);
    }

    /// How long a load that replaces an index keeps the old generation for scrolls.
    pub(crate) fn retire_grace_ms(&self) -> i64 {
        self.retire_grace_ms.lock().unwrap_or_else(|p| p.into_inner()).unwrap_or(retention::RETIRE_GRACE_MS)
    }

    /// Waits until the scroll bookkeeping this engine deferred (pins written while another
    /// transaction held the file's write lock) is in the file: for tests and orderly exits.
    #[doc(hidden)]
    pub fn flush_scroll_bookkeeping(&self) {
        self.store().flush_deferred();
    }

    /// The number of records in the file's `scrolls` table (cleared scrolls, pins, retired
    /// generations and their expiry index): for tests that check it stays bounded.
    #[doc(hidden)]
    pub fn scroll_records(&self) -> Result<usize> {
        Ok(self.snapshot()?.list(Catalog::Scrolls)?.len())
    }

    /// Iterates every hit of a search (`_doc` order unless the body sorts; `size` is the
    /// page size) through a scroll, renewing its keep-alive on every page. Each item is
    /// one hit as the search response renders it; an error ends the iteration.
    ///
    /// ```no_run
    /// # fn main() -> metagate::Result<()> {
    /// use metagate::ScrollStartRequest;
    /// let engine = metagate::Engine::open(std::path::Path::new("data.metagate"))?;
    /// let req = ScrollStartRequest::parse("RIN_Tool_pr", &[], r#"{"size":1000,"sort":["_doc"]}"#, &[], "1m")?;
    /// for hit in engine.scroll_iter(req) {
    ///     println!("{}", hit?["_id"]);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn scroll_iter(&self, req: ScrollStartRequest) -> ScrollIter<'_> {
        ScrollIter {
            engine: self,
            keep_alive_ms: req.keep_alive_ms,
            state: IterState::Start(Box::new(req)),
            buffer: Vec::new().into_iter(),
        }
    }
}

/// A page as a scroll answers it: with its id, if any, and `took` from `started`.
fn respond(id: Option<String>, started: Instant, mut page: SearchResponse) -> SearchResponse {
    page.scroll_id = id;
    page.took = started.elapsed().as_millis() as u64;
    // ES applies no `timeout` to scrolls (their pages must neither skip nor repeat).
    page.timed_out = false;
    page
}

enum IterState {
    Start(Box<ScrollStartRequest>),
    Going(String),
    Done,
}

/// An iterator over every hit of a scroll (see [`Engine::scroll_iter`]). Dropping it
/// early is fine: the scroll holds nothing in the file and simply expires.
pub struct ScrollIter<'a> {
    engine: &'a Engine,
    keep_alive_ms: i64,
    state: IterState,
    buffer: std::vec::IntoIter<HitJson>,
}

impl Iterator for ScrollIter<'_> {
    type Item = Result<Value>;

    fn next(&mut self) -> Option<Result<Value>> {
        loop {
            if let Some(hit) = self.buffer.next() {
                return Some(hit.to_value());
            }
            let page = match std::mem::replace(&mut self.state, IterState::Done) {
                IterState::Done => return None,
                IterState::Start(req) => self.engine.start_scroll(*req, None),
                IterState::Going(scroll_id) => {
                    let req = ScrollNextRequest { scroll_id, keep_alive_ms: Some(self.keep_alive_ms) };
                    let page = self.engine.next_scroll_page(&req, None);
                    let id = req.scroll_id;
                    if page.as_ref().map_or(true, |p| p.hits().is_empty()) {
                        self.engine.forget_scroll(&id);
                    }
                    page
                }
            };
            let page = match page {
                Ok(p) => p,
                Err(e) => return Some(Err(e)),
            };
            if page.hits().is_empty() {
                return None;
            }
            if let Some(id) = page.scroll_id() {
                self.state = IterState::Going(id.to_string());
            }
            self.buffer = page.hits.hits.into_iter();
        }
    }
}

impl Drop for ScrollIter<'_> {
    fn drop(&mut self) {
        if let IterState::Going(id) = &self.state {
            self.engine.forget_scroll(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_requests_carry_the_alias_filters_of_the_id() {
        let sid = ScrollId {
            nonce: 1,
            epoch: 0,
            indices: vec![("t".into(), 1)],
            types: Vec::new(),
            body: "{}".into(),
            alias_filters: vec![(
                "t".into(),
                vec![serde_json::json!({"term": {"u": "a"}}), serde_json::json!({"term": {"u": "b"}})],
            )],
            params: Vec::new(),
            now_ms: 0,
            after: None,
            pages: 0,
            expires_ms: 0,
            owner: None,
        };
        let req = page_request(&sid).unwrap();
        assert_eq!(req.alias_filters.len(), 1);
        assert_eq!(req.alias_filters[0].0, "t");
        assert!(matches!(&req.alias_filters[0].1, crate::query::Query::Bool(b) if b.should.len() == 2));
    }

    #[test]
    fn time_values_render_as_es_does() {
        assert_eq!(time_value_string(86_400_000), "1d");
        assert_eq!(time_value_string(2 * 86_400_000), "2d");
        assert_eq!(time_value_string(36 * 3_600_000), "1.5d");
        assert_eq!(time_value_string(90_000), "1.5m");
        assert_eq!(time_value_string(500), "500ms");
        assert_eq!(time_value_string(0), "0s");
    }

    #[test]
    fn scroll_validation_lists_every_problem() {
        let mut req = SearchRequest::from_body(r#"{"size":0,"from":5}"#).unwrap();
        req.track_total_hits = false;
        let e = validate_scroll_request(&req).unwrap_err();
        assert_eq!(
            e.reason(),
            "Validation Failed: 1: disabling [track_total_hits] is not allowed in a scroll context;2: using [from] is not allowed in a scroll context;3: [size] cannot be [0] in a scroll context;"
        );
    }
}
