//! Collection: one pass over each index's matches that applies the request's per-index
//! steps (`_type`, `slice`, `min_score`, `post_filter`, `terminate_after`), counts the
//! exact total, tracks the best score, keeps what aggregations need and offers each hit
//! to a bounded collector. Nothing holds a list of every match: a hit is kept only while
//! it can still make the page.

use super::context::Executor;
use super::scorer::NO_MORE;
use super::sort::{self, compare, KeyExtractor, SortValue};
use super::weight::Weight;
use super::{slice, After, Hit};
use crate::budget::DocTicker;
use crate::error::{Error, Exception, Result};
use crate::index::{DocSet, TYPE_FIELD};
use crate::request::sort::{Order, SortSpec};
use crate::request::SearchRequest;
use std::cmp::Ordering;

/// The steps of a request that apply to each index's matches, in ES's order.
pub struct TargetSteps {
    /// `_type` and `slice` together: only these documents are candidates.
    candidates: Option<DocSet>,
    min_score: Option<f32>,
    post_filter: Option<DocSet>,
    terminate_after: Option<u64>,
    /// Whether the request set a `timeout` (the budget holds its deadline): such a search
    /// stays on the counting pass, whose total is what was collected before the deadline,
    /// as ES's is.
    has_timeout: bool,
    /// Whether aggregations need the matches before `post_filter`.
    keep_matched: bool,
}

impl TargetSteps {
    /// The steps of `req` on the index of `ex`.
    pub fn new(ex: &Executor<'_>, req: &SearchRequest) -> Result<TargetSteps> {
        // Nested documents are never hits: ES adds its non-nested filter to the query
        // when the mapping has nested objects (an index without them pays nothing).
        let mut candidates: Option<DocSet> = ex.reader.root_docs(ex.snap)?.map(|r| (*r).clone());
        if !req.types.is_empty() {
            let mut types = DocSet::new();
            for t in &req.types {
                types.or_with(&ex.keyword_docs(TYPE_FIELD, t)?);
            }
            candidates = Some(types);
        }
        // An alias's filter: a filter clause beside the query, as ES adds it.
        if let Some((_, filter)) = req.alias_filters.iter().find(|(index, _)| *index == ex.reader.meta.name) {
            let docs = ex.filter(filter)?;
            match candidates.as_mut() {
                Some(c) => c.and_with(&docs),
                None => candidates = Some(docs),
            }
        }
        if let Some((id, max)) = req.slice {
            let s = slice::slice_docs(ex, id, max)?;
            match candidates.as_mut() {
                Some(c) => c.and_with(&s),
                None => candidates = Some(s),
            }
        }
        let post_filter = match &req.post_filter {
            Some(pf) => Some(ex.filter(pf)?),
            None => None,
        };
        Ok(TargetSteps {
            candidates,
            min_score: req.min_score,
            post_filter,
            terminate_after: req.terminate_after,
            has_timeout: req.deadline.is_some(),
            keep_matched: req.aggs.is_some(),
        })
    }

    /// No steps: a result that already went through them (a scroll's cached matches).
    pub fn none() -> TargetSteps {
        TargetSteps {
            candidates: None,
            min_score: None,
            post_filter: None,
            terminate_after: None,
            has_timeout: false,
            keep_matched: false,
        }
    }

    /// Whether every match is a hit (no step drops or keeps any) and the hits are counted
    /// as a whole: a request's own `timeout` counts only what was collected before it
    /// passed, as ES does, which a total from set algebra would not.
    /// Whether the only step (if any) is the set of candidate documents.
    fn only_candidates(&self) -> bool {
        self.min_score.is_none()
            && self.post_filter.is_none()
            && self.terminate_after.is_none()
            && !self.has_timeout
            && !self.keep_matched
    }
}

/// A document in a bounded heap of the best scores, ordered worst first: lower score,
/// or the same score and a later document (which loses Lucene's tie-break).
#[derive(Clone, Copy)]
struct Scored {
    score: f32,
    doc: u32,
}

impl PartialEq for Scored {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Scored {}

impl PartialOrd for Scored {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Scored {
    fn cmp(&self, other: &Self) -> Ordering {
        other.score.total_cmp(&self.score).then(self.doc.cmp(&other.doc))
    }
}

/// The best `window` hits by score when the total comes from set algebra: the scorer
/// learns the worst kept score as soon as the window is full and skips what cannot beat
/// it (blocks of postings whose best score is lower), so the cost follows the page, not
/// the match count. `None` when the query's total needs a scoring pass. Only the
/// documents of `candidates` (when given) are hits.
fn collect_top_scores(
    ti: usize,
    weight: &Weight<'_>,
    candidates: Option<&DocSet>,
    window: usize,
    top: &mut TopHits<'_>,
) -> Result<Option<PassStats>> {
    let Some(mut matches) = weight.matches_by_sets()? else { return Ok(None) };
    if let Some(c) = candidates {
        matches.to_mut().and_with(c);
    }
    let total = matches.len();
    // Only the server's cap can cut this pass (no request `timeout` takes it): the hits
    // are then those scored until then, the total still the exact one.
    let mut scorer = weight.scorer_within(&matches)?;
    // Hits of earlier indices already set a bar: ties lose to them.
    top.trim();
    let mut bar = top.bound.as_ref().map(|h| h.score);
    if let Some(b) = bar {
        scorer.set_min_competitive_score(b);
    }
    let mut heap: std::collections::BinaryHeap<Scored> = std::collections::BinaryHeap::with_capacity(window + 1);
    // The term scorers under `scorer` look at the budget block by block and end early
    // past the deadline or once the client has gone (see `TermScorer`).
    let mut doc = scorer.doc();
    while doc != NO_MORE {
        // A scorer that does not lead with the matches may stand on a non-candidate.
        if candidates.is_some() && !matches.contains(doc) {
            doc = scorer.advance();
            continue;
        }
        let score = scorer.score();
        if bar.is_none_or(|b| score > b) {
            let hit = Scored { score, doc };
            if heap.len() < window {
                heap.push(hit);
            } else if heap.peek().is_some_and(|worst| hit < *worst) {
                heap.pop();
                heap.push(hit);
            }
            if heap.len() == window {
                let worst = heap.peek().map_or(f32::NEG_INFINITY, |w| w.score);
                if bar.is_none_or(|b| worst > b) {
                    bar = Some(worst);
                    scorer.set_min_competitive_score(worst);
                }
            }
        }
        doc = scorer.advance();
    }
    if let Some(e) = scorer.take_error() {
        return Err(e);
    }
    crate::budget::check_cancelled()?;
    let timed_out = crate::budget::timed_out();
    let mut stats = PassStats { total, max_score: f32::NAN, timed_out, ..Default::default() };
    for h in heap {
        stats.max_score = stats.max_score.max(h.score);
        top.offer(Hit { target: ti, doc: h.doc, score: h.score, sort: Vec::new() });
    }
    // An index whose every match loses to earlier indices' hits reports no best score:
    // the best of those hits is at least as high.
    Ok(Some(stats))
}

/// What a pass over one index found besides its hits.
#[derive(Debug, Default)]
pub struct PassStats {
    /// Exact number of hits.
    pub total: u64,
    /// Best score among them (NaN when none or not scoring).
    pub max_score: f32,
    /// The matches before `post_filter`, when aggregations asked for them.
    pub matched: DocSet,
    /// Whether `terminate_after` cut the hits.
    pub terminated_early: bool,
    /// Whether the request's `timeout` stopped collection (the hits, total and
    /// aggregation matches are those found until then).
    pub timed_out: bool,
}

/// Runs `weight` through `steps`, handing every hit from document `from` on (ascending)
/// to `sink`; the sink answers whether it wants more. Hits before `from` are counted,
/// not shown. Constant-score queries take the set path: the steps are set algebra and
/// the total is a cardinality, so the sink sees only what it asks for and a scroll page
/// deep in a large set starts where it is instead of walking up to it. Past the budget's
/// deadline (or the request's own) the pass stops with what it found and says so.
pub fn pass(
    weight: &Weight<'_>,
    steps: &TargetSteps,
    scoring: bool,
    from: u32,
    sink: &mut dyn FnMut(u32, f32) -> bool,
) -> Result<PassStats> {
    let mut stats = PassStats { max_score: f32::NAN, ..Default::default() };
    let mut ticker = DocTicker::new();
    if let Some((all, score)) = weight.as_const() {
        // The set itself when no step narrows it (a scroll's kept set, page after page).
        let mut narrowed: Option<DocSet> = None;
        if let Some(c) = &steps.candidates {
            let mut d = all.clone();
            d.and_with(c);
            narrowed = Some(d);
        }
        if steps.min_score.is_some_and(|min| score < min) {
            narrowed = Some(DocSet::new());
        }
        if steps.keep_matched {
            stats.matched = narrowed.as_ref().unwrap_or(all).clone();
        }
        if let Some(pf) = &steps.post_filter {
            let mut d = narrowed.take().unwrap_or_else(|| all.clone());
            d.and_with(pf);
            narrowed = Some(d);
        }
        let docs = narrowed.as_ref().unwrap_or(all);
        let mut total = docs.len();
        if let Some(limit) = steps.terminate_after.filter(|l| total > *l) {
            stats.terminated_early = true;
            total = limit;
        }
        stats.total = total;
        if total > 0 && scoring {
            stats.max_score = score;
        }
        // `terminate_after` keeps the first `total` documents: none at or past `end`.
        let end = if stats.terminated_early { docs.select(total) } else { None };
        let mut cursor = docs.cursor();
        let mut d = if total == 0 { None } else { cursor.seek(from) };
        while let Some(doc) = d.filter(|x| end.is_none_or(|e| *x < e)) {
            if ticker.passes(doc) && ticker.look(doc)? {
                stats.timed_out = true;
                break;
            }
            if !sink(doc, score) {
                break;
            }
            d = cursor.next_doc();
        }
        return Ok(stats);
    }
    let mut scorer = weight.scorer()?;
    let mut matched = Vec::new();
    let mut wants = true;
    let limit = steps.terminate_after.unwrap_or(u64::MAX);
    // The term scorers under `scorer` look at the budget block by block and end early
    // past the deadline or once the client has gone (see `TermScorer`).
    let mut doc = scorer.doc();
    while doc != NO_MORE {
        if let Some(c) = &steps.candidates {
            if !c.contains(doc) {
                doc = scorer.advance();
                continue;
            }
        }
        let score = if scoring || steps.min_score.is_some() { scorer.score() } else { 0.0 };
        if steps.min_score.is_some_and(|min| score < min) {
            doc = scorer.advance();
            continue;
        }
        if steps.keep_matched {
            matched.push(doc);
        }
        let shown = steps.post_filter.as_ref().is_none_or(|pf| pf.contains(doc));
        if shown {
            if stats.total == limit {
                stats.terminated_early = true;
                if !steps.keep_matched {
                    break;
                }
            } else {
                stats.total += 1;
                if scoring {
                    // f32::max skips NaN: the first score replaces the initial NaN.
                    stats.max_score = stats.max_score.max(score);
                }
                if wants && doc >= from {
                    wants = sink(doc, score);
                }
            }
        }
        doc = scorer.advance();
    }
    if let Some(e) = scorer.take_error() {
        return Err(e);
    }
    crate::budget::check_cancelled()?;
    stats.timed_out = crate::budget::timed_out();
    stats.matched = DocSet::from_sorted(&matched);
    Ok(stats)
}

/// Hits of one index computed once and kept: what a scroll's later pages read instead
/// of running the query again.
pub enum KeptHits {
    /// A constant-score set.
    Set {
        /// The documents.
        docs: DocSet,
        /// Their score.
        score: f32,
    },
    /// Ascending documents with their scores.
    List {
        /// The documents.
        docs: Vec<u32>,
        /// Their scores.
        scores: Vec<f32>,
    },
}

impl KeptHits {
    /// Runs `weight` through `steps` once and keeps the hits it found.
    pub fn compute(weight: &Weight<'_>, steps: &TargetSteps, scoring: bool) -> Result<(KeptHits, PassStats)> {
        let (mut docs, mut scores) = (Vec::new(), Vec::new());
        let stats = pass(weight, steps, scoring, 0, &mut |doc, score| {
            docs.push(doc);
            scores.push(score);
            true
        })?;
        let kept = match weight.as_const() {
            Some((_, score)) => KeptHits::Set { docs: DocSet::from_sorted(&docs), score },
            None => KeptHits::List { docs, scores },
        };
        Ok((kept, stats))
    }

    /// The kept hits as a query to collect from.
    pub fn weight(&self) -> Weight<'_> {
        match self {
            KeptHits::Set { docs, score } => Weight::constant(docs.clone(), *score),
            KeptHits::List { docs, scores } => Weight::List { docs, scores },
        }
    }

    /// Approximate heap size, for caches that bound their memory.
    pub fn approx_bytes(&self) -> usize {
        match self {
            // Roaring stores at most 2 bytes per document.
            KeptHits::Set { docs, .. } => (docs.len() as usize).saturating_mul(2) + 64,
            KeptHits::List { docs, .. } => docs.len().saturating_mul(8) + 64,
        }
    }
}

/// Orders two hits: sort values (or score desc), then target, then doc — ES's shard-index
/// and doc-id tie-break.
pub fn hit_order(specs: &[SortSpec], a: &Hit, b: &Hit) -> Ordering {
    let primary = if specs.is_empty() { b.score.total_cmp(&a.score) } else { compare(specs, &a.sort, &b.sort) };
    primary.then(a.target.cmp(&b.target)).then(a.doc.cmp(&b.doc))
}

/// Keeps the best `window` hits offered to it, in any order; a hit that cannot beat the
/// worst kept one once the window is full is turned away at the cost of one comparison.
pub struct TopHits<'s> {
    specs: &'s [SortSpec],
    window: usize,
    keep: Vec<Hit>,
    /// The worst kept hit once `keep` holds a full window.
    bound: Option<Hit>,
}

impl<'s> TopHits<'s> {
    /// An empty collector of `window` hits in the order of `specs`.
    pub fn new(specs: &'s [SortSpec], window: usize) -> TopHits<'s> {
        TopHits { specs, window, keep: Vec::new(), bound: None }
    }

    /// Whether a hit ordered like `probe` could still be kept.
    fn competes(&self, probe: &Hit) -> bool {
        self.bound.as_ref().is_none_or(|b| hit_order(self.specs, probe, b) == Ordering::Less)
    }

    /// Offers a hit.
    pub fn offer(&mut self, hit: Hit) {
        if self.window == 0 || !self.competes(&hit) {
            return;
        }
        self.keep.push(hit);
        if self.keep.len() >= self.window * 2 + 64 {
            self.trim();
        }
    }

    /// Cuts `keep` to the best `window` and remembers the worst of them.
    pub fn trim(&mut self) {
        if self.keep.len() > self.window {
            let specs = self.specs;
            self.keep.select_nth_unstable_by(self.window, |a, b| hit_order(specs, a, b));
            self.keep.truncate(self.window);
        }
        if self.keep.len() == self.window {
            let specs = self.specs;
            self.bound = self.keep.iter().max_by(|a, b| hit_order(specs, a, b)).cloned();
        }
    }

    /// The kept hits, best first.
    pub fn into_sorted(mut self) -> Vec<Hit> {
        self.trim();
        let specs = self.specs;
        self.keep.sort_by(|a, b| hit_order(specs, a, b));
        self.keep
    }
}

/// The first ordinal of an ascending walk that is strictly after the cursor, when the
/// hit order within this index is document order; `None` when no hit of it can follow.
fn doc_order_start(specs: &[SortSpec], ti: usize, constant: Option<f32>, after: &After) -> Option<Option<u32>> {
    match (specs, constant) {
        // `_doc` ascending: the sort value is the ordinal itself, whatever the scores.
        ([SortSpec::Doc(Order::Asc)], _) => Some(match after {
            After::Start => Some(0),
            After::Values(v, tie) => match v.as_slice() {
                [SortValue::Doc(x)] => match tie {
                    // An equal ordinal in a later index still follows (targets break ties).
                    Some((t, _)) if ti > *t => Some(*x),
                    _ => x.checked_add(1),
                },
                _ => return None,
            },
            After::Raw(_) => return None,
        }),
        // Relevance order over a constant score: score desc, then target, then doc.
        ([], Some(score)) => Some(match after {
            After::Start => Some(0),
            After::Values(v, tie) => match v.as_slice() {
                [SortValue::Score(s)] => match score.total_cmp(s) {
                    Ordering::Less => Some(0),
                    Ordering::Greater => None,
                    Ordering::Equal => match tie {
                        Some((t, _)) if ti > *t => Some(0),
                        Some((t, d)) if ti == *t => d.checked_add(1),
                        _ => None,
                    },
                },
                _ => return None,
            },
            After::Raw(_) => return None,
        }),
        _ => None,
    }
}

/// Cuts `candidates` (keyword rank, document, score) to the `window` smallest ranks and
/// every tie of the last of them; returns that rank (the bar a later candidate must not
/// pass), or `u32::MAX` while fewer than `window` are kept.
fn keep_best_keys(candidates: &mut Vec<(u32, u32, f32)>, window: usize) -> u32 {
    if candidates.len() < window || window == 0 {
        return u32::MAX;
    }
    candidates.select_nth_unstable_by_key(window - 1, |c| (c.0, c.1));
    let bound = candidates[window - 1].0;
    candidates.retain(|c| c.0 <= bound);
    bound
}

/// One index's part of the query phase (the index `ti`, read through `ex`): its matches
/// through the steps, its hits that follow `after` into `top`.
pub fn collect_target(
    ti: usize,
    ex: &Executor<'_>,
    weight: &Weight<'_>,
    steps: &TargetSteps,
    scoring: bool,
    after: &After,
    top: &mut TopHits<'_>,
) -> Result<PassStats> {
    let (reader, snap) = (ex.reader, ex.snap);
    let specs = top.specs;
    let window = top.window;
    if window == 0 {
        return pass(weight, steps, scoring, 0, &mut |_, _| false);
    }
    // When hits of this index come in document order, the best `window` of them are the
    // first `window` ordinals after the cursor: no keys, no sorting.
    let constant = weight.as_const().map(|(_, s)| s);
    if let Some(start) = doc_order_start(specs, ti, constant, after) {
        let is_doc_sort = !specs.is_empty();
        let mut taken = 0;
        let Some(start) = start else { return pass(weight, steps, scoring, NO_MORE, &mut |_, _| false) };
        return pass(weight, steps, scoring, start, &mut |doc, score| {
            let sort = if is_doc_sort { vec![SortValue::Doc(doc)] } else { Vec::new() };
            top.offer(Hit { target: ti, doc, score, sort });
            taken += 1;
            taken < window
        });
    }
    if specs.is_empty() && scoring && matches!(after, After::Start) && steps.only_candidates() {
        if let Some(stats) = collect_top_scores(ti, weight, steps.candidates.as_ref(), window, top)? {
            return Ok(stats);
        }
    }
    let keys = if specs.is_empty() { None } else { Some(KeyExtractor::new(specs, reader, snap)?) };
    // A keyword first criterion and no cursor: the `window` best ordinals (and every tie
    // of the last one) are the only documents that can make the top, so only they get
    // full sort values, instead of a string per matching document.
    if let (After::Start, Some(k)) = (after, &keys) {
        if let Some(primary) = sort::KeywordPrimary::new(specs, reader, snap)? {
            let mut candidates: Vec<(u32, u32, f32)> = Vec::new();
            // Once `window` candidates are kept, a key above the worst of them cannot make
            // the page: the bar rises as candidates are cut back, so most documents of a
            // large match cost one key read and one comparison.
            let mut bar = u32::MAX;
            let mut cut_at = window.saturating_mul(4).max(64);
            let stats = pass(weight, steps, scoring, 0, &mut |doc, score| {
                let key = primary.key(doc);
                if key <= bar {
                    candidates.push((key, doc, score));
                    if candidates.len() >= cut_at {
                        bar = keep_best_keys(&mut candidates, window);
                        // Ties of the bar stay: cut again only once as many more came.
                        cut_at = candidates.len().saturating_mul(2).max(cut_at);
                    }
                }
                true
            })?;
            keep_best_keys(&mut candidates, window);
            for (_, doc, score) in candidates {
                top.offer(Hit { target: ti, doc, score, sort: k.values(doc, score) });
            }
            return Ok(stats);
        }
    }
    let converted: Option<Vec<SortValue>> = match (after, &keys) {
        (After::Raw(raw), Some(k)) => {
            Some(k.convert_after(raw).map_err(|cause| Error::all_shards_failed(400, Some(&reader.meta.name), cause))?)
        }
        (After::Raw(_), None) => {
            return Err(Error::all_shards_failed(
                400,
                Some(&reader.meta.name),
                Exception::new("illegal_argument_exception", "Sort must contain at least one field."),
            ))
        }
        _ => None,
    };
    let (after_values, tie): (Option<&[SortValue]>, Option<(usize, u32)>) = match after {
        After::Start => (None, None),
        After::Values(v, tie) => (Some(v.as_slice()), *tie),
        After::Raw(_) => (converted.as_deref(), None),
    };
    let stats = pass(weight, steps, scoring, 0, &mut |doc, score| {
        // Relevance order: a hit that cannot beat the kept window needs nothing more.
        if keys.is_none() && !top.competes(&Hit { target: ti, doc, score, sort: Vec::new() }) {
            return true;
        }
        let sort = match &keys {
            Some(k) => k.values(doc, score),
            None => Vec::new(),
        };
        if let Some(av) = after_values {
            // c: ordering of `after` relative to the hit; keep hits strictly after.
            let c = if specs.is_empty() {
                match av.first() {
                    Some(SortValue::Score(s)) => score.total_cmp(s),
                    _ => Ordering::Equal,
                }
            } else {
                compare(specs, &sort, av).reverse()
            };
            let keep_it = match c {
                Ordering::Less => true,
                Ordering::Greater => false,
                Ordering::Equal => match tie {
                    Some((t, d)) => (ti, doc) > (t, d),
                    None => false,
                },
            };
            if !keep_it {
                return true;
            }
        }
        top.offer(Hit { target: ti, doc, score, sort });
        true
    });
    // A `_script` sort whose script failed fails the search.
    match keys.as_ref().and_then(KeyExtractor::take_error) {
        Some(e) => Err(e),
        None => stats,
    }
}
