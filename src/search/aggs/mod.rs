//! Aggregations, computed over doc values by ordinal or number — never from `_source`.
//!
//! A request's `aggs` section is parsed into a tree with the request (`request/aggs.rs`).
//! After the query phase every aggregation sees the matching documents of each target
//! index (one index = one shard, so counts are exact and `doc_count_error_upper_bound` is
//! 0). Bucket aggregations hand each bucket's documents to their sub-aggregations. Keys
//! merge across indices by value. At most [`MAX_BUCKETS`] buckets are built per request
//! (`too_many_buckets_exception`), so no request can make memory grow without bound.
//!
//! `cardinality` is exact (a set of the distinct values), and `percentiles`,
//! `percentile_ranks` and `median_absolute_deviation` are exact too (`exact_ranks.rs`):
//! sorted values with linear interpolation between the closest ranks, where ES estimates
//! with a t-digest.

mod adjacency;
mod auto_date_histogram;
mod buckets;
mod composite;
mod dedup_text;
mod exact_ranks;
mod geo;
mod include;
mod ip_range;
mod metrics;
mod nested;
mod pipeline;
mod sampler;
mod scripted;
mod scripted_metric;
mod significant;
pub mod values;
mod weighted_avg;

use crate::budget::{Ticker, DOC_ID_STRIDE};
use crate::error::{Error, Exception, Result};
use crate::index::{DocIter, DocSet, IndexReader};
use crate::query::Query;
use crate::request::aggs::{AggKind, AggNode};
use crate::search::response::aggregations::{AggBody, AggResult, AggResults, Aggregations};
use crate::store::Snapshot;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

/// Most buckets one request may build (ES's `search.max_buckets`).
pub const MAX_BUCKETS: usize = 10_000;

/// The bytes a bucket is charged to the request's breaker: its key, count and place in
/// the response (an estimate, as ES's aggregators charge theirs).
pub const BUCKET_BYTES: usize = 128;

/// What ES 6.8's `AggregatorBase` charges each aggregator when it is built
/// (`DEFAULT_WEIGHT`, 5 KiB).
pub const AGGREGATOR_BYTES: usize = 1024 * 5;

/// The bytes a candidate key of a `terms` aggregation is charged besides its text: its
/// count and its place in the map of candidates (an estimate).
pub const CANDIDATE_BYTES: usize = 48;

/// ES's breaker label of the counting arrays its aggregations take from `BigArrays`.
pub const ARRAYS_LABEL: &str = "<reused_arrays>";

/// What every aggregation of one request shares.
pub struct Ctx<'a> {
    /// The target indices, in response order.
    pub targets: &'a [Arc<IndexReader>],
    /// The read snapshot.
    pub snap: &'a Snapshot,
    /// "now" for date math.
    pub now_ms: i64,
    /// The request's query (scores for `top_hits`).
    pub query: &'a Query,
    buckets: Cell<usize>,
    scores: RefCell<Option<Vec<HashMap<u32, f32>>>>,
    /// The path of the enclosing `nested` aggregation (`None`: the root documents).
    nested_scope: RefCell<Option<String>>,
}

impl<'a> Ctx<'a> {
    /// Accounts for `n` more buckets of the aggregation `name`, failing past
    /// [`MAX_BUCKETS`] or when the request's breaker would trip (`<agg [name]>`, ES's label).
    pub fn add_buckets(&self, name: &str, n: usize) -> Result<()> {
        self.check_buckets(n)?;
        self.charge(n.saturating_mul(BUCKET_BYTES), name)?;
        self.buckets.set(self.buckets.get() + n);
        Ok(())
    }

    /// Charges `bytes` of the aggregation `name` to the request's breaker under ES's label
    /// `<agg [name]>`. In ES the breaker trips on the shard, during the query phase, so
    /// every shard fails with the breaker's exception (its 429 the response's status).
    fn charge(&self, bytes: usize, name: &str) -> Result<()> {
        self.charge_as(bytes, &format!("<agg [{name}]>"))
    }

    /// Charges `bytes` under `label` (ES's BigArrays charge its arrays as
    /// `<reused_arrays>`), failing every shard as [`Ctx::charge`] does.
    fn charge_as(&self, bytes: usize, label: &str) -> Result<()> {
        crate::budget::charge(bytes, label).map_err(|e| {
            Error::all_shards_failed(e.status, self.targets.first().map(|t| t.meta.name.as_str()), e.exception)
        })
    }

    /// Fails if `n` more buckets would pass [`MAX_BUCKETS`], without accounting for them
    /// (for work on candidate buckets before the returned ones are known).
    pub fn check_buckets(&self, n: usize) -> Result<()> {
        let total = self.buckets.get().saturating_add(n);
        if total > MAX_BUCKETS {
            return Err(Error::all_shards_failed(
                500,
                self.targets.first().map(|t| t.meta.name.as_str()),
                Exception::new(
                    "too_many_buckets_exception",
                    format!("Trying to create too many buckets. Must be less than or equal to: [{MAX_BUCKETS}] but was [{total}]. This limit can be set by changing the [search.max_buckets] cluster level setting."),
                )
                .with_meta("max_buckets", MAX_BUCKETS as u64),
            ));
        }
        Ok(())
    }

    /// The executor of target `t`.
    pub fn executor(&self, t: usize) -> crate::search::context::Executor<'_> {
        crate::search::context::Executor::new(&self.targets[t], self.snap, self.now_ms)
    }

    /// The query's score of `doc` in target `t` (computed once per request, on first use).
    pub fn score(&self, t: usize, doc: u32) -> Result<f32> {
        if self.scores.borrow().is_none() {
            let mut all = Vec::with_capacity(self.targets.len());
            for i in 0..self.targets.len() {
                let mut m = HashMap::new();
                let weight = self.executor(i).compile(self.query, 1.0, true)?;
                let mut scorer = weight.scorer()?;
                let mut ticker = Ticker::new();
                while scorer.doc() != crate::search::scorer::NO_MORE && !ticker.tick()? {
                    m.insert(scorer.doc(), scorer.score());
                    scorer.advance();
                }
                if let Some(e) = scorer.take_error() {
                    return Err(e);
                }
                all.push(m);
            }
            *self.scores.borrow_mut() = Some(all);
        }
        Ok(self.scores.borrow().as_ref().and_then(|s| s[t].get(&doc).copied()).unwrap_or(1.0))
    }

    /// Runs `query` as a filter in every target.
    pub fn filter_docs(&self, query: &Query) -> Result<Vec<DocSet>> {
        (0..self.targets.len()).map(|t| self.executor(t).filter(query)).collect()
    }
}

/// The documents of `d` in order, ending early once the request's deadline has passed:
/// an aggregation then answers what it counted until then, as ES's aggregations answer
/// what they collected before the `timeout` (the response says `timed_out`). A client
/// that has gone ends the walk too; the search's next look at the budget reports it.
pub(crate) fn walk(d: &DocSet) -> Walk<'_> {
    Walk { docs: d.iter(), mark: 0, ended: false }
}

/// The iterator of [`walk`]: the set's own iteration, looking at the budget when a
/// document passes the next mark (marks [`DOC_ID_STRIDE`] ids apart), so that a document
/// costs the walk one comparison.
pub(crate) struct Walk<'a> {
    docs: DocIter<'a>,
    mark: u32,
    ended: bool,
}

impl Walk<'_> {
    /// Looks at the budget at `doc`: `doc` if the walk goes on, `None` once it says stop.
    #[cold]
    #[inline(never)]
    fn look(&mut self, doc: u32) -> Option<u32> {
        self.mark = doc.saturating_add(DOC_ID_STRIDE);
        if self.ended || crate::budget::check().unwrap_or(true) {
            self.ended = true;
            return None;
        }
        Some(doc)
    }
}

impl Iterator for Walk<'_> {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        let doc = self.docs.next()?;
        if doc < self.mark {
            return Some(doc);
        }
        self.look(doc)
    }
}

/// Computes the `aggregations` section of a response from the matching documents of
/// each target (`matched`, in target order).
pub fn aggregate(
    nodes: &[AggNode],
    targets: &[Arc<IndexReader>],
    matched: &[DocSet],
    snap: &Snapshot,
    query: &Query,
    typed_keys: bool,
    now_ms: i64,
) -> Result<Aggregations> {
    for t in targets {
        check_inner_windows(nodes, t)?;
    }
    pipeline::validate(nodes, targets.first().map(|t| t.meta.name.as_str()))?;
    let ctx = Ctx {
        targets,
        snap,
        now_ms,
        query,
        buckets: Cell::new(0),
        scores: RefCell::new(None),
        nested_scope: RefCell::new(None),
    };
    let mut results = run_all(&ctx, nodes, matched)?;
    pipeline::run_top(&ctx, nodes, &mut results)?;
    Ok(Aggregations { results, typed_keys })
}

/// ES's shard-level bound on `top_hits`: `from + size` within the index's
/// `index.max_inner_result_window`.
fn check_inner_windows(nodes: &[AggNode], target: &IndexReader) -> Result<()> {
    let max = target.meta.settings.limits.max_inner_result_window;
    for node in nodes {
        if let AggKind::TopHits(spec) = &node.kind {
            let window = spec.from as u64 + spec.size as u64;
            if window > max {
                return Err(Error::all_shards_failed(
                    400,
                    Some(&target.meta.name),
                    Exception::new(
                        "illegal_argument_exception",
                        format!(
                            "Top hits result window is too large, the top hits aggregator [{}]'s from + size must be less than or equal to: [{max}] but was [{window}]. This limit can be set by changing the [index.max_inner_result_window] index level setting.",
                            node.name
                        ),
                    ),
                ));
            }
        }
        check_inner_windows(&node.subs, target)?;
    }
    Ok(())
}

/// Runs sibling aggregations over `docs`; their results in request order (pipelines
/// are run by their parent, after it: [`pipeline::run_within`]).
pub fn run_all(ctx: &Ctx<'_>, nodes: &[AggNode], docs: &[DocSet]) -> Result<AggResults> {
    let mut out = Vec::with_capacity(nodes.len());
    for node in nodes {
        // Pipelines compute from the results of their siblings: their parent runs them.
        if matches!(node.kind, AggKind::Pipeline(_)) {
            continue;
        }
        let (type_name, mut body) = run_node(ctx, node, docs)?;
        pipeline::run_within(ctx, node, &mut body)?;
        out.push(AggResult { name: node.name.clone(), type_name, meta: node.meta.clone(), body });
    }
    Ok(AggResults(out))
}

/// What one aggregation's result is: its `typed_keys` type name and its body.
type Typed = (&'static str, AggBody);

/// Runs one aggregation.
fn run_node(ctx: &Ctx<'_>, node: &AggNode, docs: &[DocSet]) -> Result<Typed> {
    ctx.charge(AGGREGATOR_BYTES, &node.name)?;
    match &node.kind {
        AggKind::Terms(spec) => buckets::terms(ctx, node, spec, docs),
        AggKind::Histogram(spec) => buckets::histogram(ctx, node, spec, docs),
        AggKind::DateHistogram(spec) => buckets::date_histogram(ctx, node, spec, docs),
        AggKind::Range(spec) => buckets::range(ctx, node, spec, docs),
        AggKind::IpRange(spec) => ip_range::ip_range(ctx, node, spec, docs),
        AggKind::Filter(q) => {
            let mut sub = ctx.filter_docs(q)?;
            for (s, d) in sub.iter_mut().zip(docs) {
                s.and_with(d);
            }
            Ok(("filter", single_bucket(ctx, node, &sub)?))
        }
        AggKind::Filters(spec) => buckets::filters(ctx, node, spec, docs),
        AggKind::Missing(field) => {
            let mut sub = Vec::with_capacity(docs.len());
            for (t, d) in docs.iter().enumerate() {
                let mut m = d.clone();
                m.sub_with(&ctx.executor(t).exists(field)?);
                sub.push(m);
            }
            Ok(("missing", single_bucket(ctx, node, &sub)?))
        }
        AggKind::Global => {
            // Every document a top-level query may match (root documents only).
            let all: Vec<DocSet> =
                (0..ctx.targets.len()).map(|t| ctx.executor(t).top_level_docs()).collect::<Result<_>>()?;
            Ok(("global", single_bucket(ctx, node, &all)?))
        }
        AggKind::Composite(spec) => composite::composite(ctx, node, spec, docs),
        AggKind::TopHits(spec) => metrics::top_hits(ctx, spec, docs),
        AggKind::Metric(spec) => metrics::metric(ctx, spec, docs),
        AggKind::ScriptedMetric(spec) => scripted_metric::scripted_metric(ctx, spec, docs),
        AggKind::Geo(spec) => geo::geo(ctx, node, spec, docs),
        AggKind::Nested(path) => nested::nested(ctx, node, path, docs),
        AggKind::ReverseNested(path) => nested::reverse_nested(ctx, node, path.as_deref(), docs),
        // `run_all` leaves pipelines to their parent.
        AggKind::Pipeline(_) => Err(Error::new(
            500,
            Exception::new(
                "illegal_state_exception",
                format!("pipeline aggregation [{}] runs in its parent", node.name),
            ),
        )),
        AggKind::WeightedAvg(spec) => weighted_avg::weighted_avg(ctx, spec, docs),
        AggKind::Significant(spec) => significant::significant(ctx, node, spec, docs),
        AggKind::AdjacencyMatrix(spec) => adjacency::adjacency_matrix(ctx, node, spec, docs),
        AggKind::Sampler(shard_size) => sampler::sampler(ctx, node, *shard_size, docs),
        AggKind::DiversifiedSampler(spec) => sampler::diversified_sampler(ctx, node, spec, docs),
        AggKind::AutoDateHistogram(spec) => auto_date_histogram::auto_date_histogram(ctx, node, spec, docs),
    }
}

/// The result of a single-bucket aggregation: its documents and sub-aggregations.
fn single_bucket(ctx: &Ctx<'_>, node: &AggNode, docs: &[DocSet]) -> Result<AggBody> {
    ctx.add_buckets(&node.name, 1)?;
    Ok(AggBody::SingleBucket { doc_count: total(docs), subs: run_all(ctx, &node.subs, docs)? })
}

/// Documents in all targets.
fn total(docs: &[DocSet]) -> u64 {
    docs.iter().map(DocSet::len).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::{self, CancelFlag, Limits};

    #[test]
    fn a_walk_ends_at_the_deadline_or_when_the_client_goes() {
        let docs = DocSet::full(10_000);
        assert_eq!(walk(&docs).count(), 10_000, "outside a budget nothing stops");
        let flag = CancelFlag::new();
        let _scope = budget::enter(Limits { cancel: Some(flag.clone()), ..Default::default() });
        assert_eq!(walk(&docs).count(), 10_000);
        {
            let _deadline = budget::search_deadline(Some(web_time::Instant::now()));
            assert_eq!(walk(&docs).count(), 0, "past the deadline, the first look ends the walk");
            assert!(budget::timed_out());
        }
        flag.cancel();
        assert_eq!(walk(&docs).count(), 0);
    }
}
