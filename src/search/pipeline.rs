//! The one search pipeline: a parsed request over resolved index readers — query phase,
//! fetch phase, aggregations, suggestions — into a [`SearchResponse`]. `_search`, each
//! `_msearch` item, `_count` and every scroll page run through [`run`]; they differ only
//! in the checks they make first and in where the query phase's hits come from
//! ([`HitSource`]).

use super::collect::{PassStats, TopHits};
use super::response::SearchResponse;
use super::{After, Hit};
use crate::error::Result;
use crate::index::IndexReader;
use crate::request::SearchRequest;
use crate::store::Snapshot;
use std::sync::Arc;
use web_time::Instant;

/// Where the query phase's hits come from.
pub enum HitSource<'a> {
    /// A search: the request's query phase (collapsed or rescored when it asks), from the
    /// start or after `search_after`'s values, keeping `from + size` hits.
    Search(After),
    /// A scroll page: `collect(target index, reader, top hits)` offers each index's hits
    /// from the scroll's position (from the scroll's cached matches), keeping `size` hits.
    Scroll(&'a mut dyn FnMut(usize, &IndexReader, &mut TopHits<'_>) -> Result<PassStats>),
}

/// A run's answer, and the last hit of a scroll's page (where its next page starts).
pub struct Ran {
    /// The response, without `_scroll_id`; `took` counts from the `started` given to [`run`].
    pub response: SearchResponse,
    /// The page's last hit, for [`HitSource::Scroll`] and a page with hits.
    pub last: Option<Hit>,
    /// The time of the query phase (with aggregations and suggestions), for `_stats`.
    pub query_nanos: u64,
    /// The time of the fetch phase.
    pub fetch_nanos: u64,
    /// The positions in `targets` of the indices the fetch phase read hits from.
    pub fetched_from: Vec<usize>,
}

/// Runs `req` over `targets` (resolved and checked by the caller) in `snap`, with `now`
/// for date math. Aggregations run when the request has them (a scroll takes them out of
/// its pages after the first), suggestions likewise.
pub fn run(
    targets: &[Arc<IndexReader>],
    snap: &Snapshot,
    req: &SearchRequest,
    now: i64,
    source: HitSource<'_>,
    started: Instant,
) -> Result<Ran> {
    let phases_started = Instant::now();
    let mut groups = Vec::new();
    // Only a scroll needs the page's last hit (its next page starts after it).
    let scrolling = matches!(source, HitSource::Scroll(_));
    let mut result = match source {
        HitSource::Search(after) => {
            let window = (req.from + req.size) as usize;
            if let Some(c) = &req.collapse {
                let (result, keys) = super::collapse::query_phase(targets, snap, req, c, now, window)?;
                groups = keys;
                result
            } else if req.rescore.is_empty() {
                super::query_phase(targets, snap, req, now, &after, window)?
            } else {
                super::rescore::query_phase_rescored(targets, snap, req, now, window)?
            }
        }
        HitSource::Scroll(collect) => {
            let size = usize::try_from(req.size).unwrap_or(0);
            super::query_phase_with(targets, &req.sort, size, collect)?
        }
    };
    let skipped = (req.from as usize).min(result.hits.len());
    result.hits.drain(..skipped);
    groups.drain(..skipped.min(groups.len()));
    let last = if scrolling { result.hits.last().cloned() } else { None };
    let mut fetched_from: Vec<usize> = result.hits.iter().map(|h| h.target).collect();
    fetched_from.sort_unstable();
    fetched_from.dedup();
    let fetch_started = Instant::now();
    let hits = match &req.collapse {
        None => super::fetch_phase(targets, snap, req, &result, now)?,
        Some(c) => {
            // ES fetches the collapse field as one more `docvalue_fields` entry.
            let mut fetched = req.clone();
            if !fetched.docvalue_fields.contains(&c.field) {
                fetched.docvalue_fields.push(c.field.clone());
            }
            let mut hits = super::fetch_phase(targets, snap, &fetched, &result, now)?;
            super::collapse::expand(targets, snap, req, c, &groups, &mut hits, now)?;
            hits
        }
    };
    let fetch_nanos = fetch_started.elapsed().as_nanos() as u64;
    let aggregations = match &req.aggs {
        Some(nodes) => {
            Some(super::aggs::aggregate(nodes, targets, &result.matched, snap, &req.query, req.typed_keys, now)?)
        }
        None => None,
    };
    let suggest = match req.suggest.is_empty() {
        true => None,
        false => Some(super::suggest::run(targets, snap, req, now)?),
    };
    // Aggregations end their walks quietly when the client goes: say so here.
    crate::budget::check_cancelled()?;
    let response = SearchResponse {
        scroll_id: None,
        took: started.elapsed().as_millis() as u64,
        terminated_early: result.terminated_early,
        timed_out: result.timed_out || crate::budget::timed_out(),
        shards: targets.len(),
        hits,
        aggregations,
        suggest,
    };
    let query_nanos = (phases_started.elapsed().as_nanos() as u64).saturating_sub(fetch_nanos);
    Ok(Ran { response, last, query_nanos, fetch_nanos, fetched_from })
}
