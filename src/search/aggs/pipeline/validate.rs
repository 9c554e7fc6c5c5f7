//! The checks ES 6.8 makes of pipeline aggregations when a shard builds its aggregators:
//! the order their `buckets_path`s require (`AggregatorFactories.resolvePipelineAggregatorOrder`)
//! and each type's `doValidate`, failing every shard with ES's texts.

use crate::error::{Error, Exception, Result};
use crate::request::aggs::{AggKind, AggNode};
use crate::request::pipeline_aggs::{PipelineKind, PipelineSpec};

/// A check's failure: its status and exception (400 for ES's IllegalArgumentException,
/// 500 for IllegalStateException and AggregationExecutionException).
struct Failure(u16, &'static str, String);

fn illegal_argument(reason: String) -> Failure {
    Failure(400, "illegal_argument_exception", reason)
}

fn illegal_state(reason: String) -> Failure {
    Failure(500, "illegal_state_exception", reason)
}

/// Checks the pipelines of the whole tree, as the shards of `index` would.
pub fn validate(nodes: &[AggNode], index: Option<&str>) -> Result<()> {
    check_level(nodes, None)
        .map_err(|Failure(status, kind, reason)| Error::all_shards_failed(status, index, Exception::new(kind, reason)))
}

fn pipelines(nodes: &[AggNode]) -> Vec<(&AggNode, &PipelineSpec)> {
    nodes
        .iter()
        .filter_map(|n| match &n.kind {
            AggKind::Pipeline(p) => Some((n, &**p)),
            _ => None,
        })
        .collect()
}

fn check_level(nodes: &[AggNode], parent: Option<&AggNode>) -> std::result::Result<(), Failure> {
    let order = resolve_order(nodes).map_err(illegal_argument)?;
    let pipes = pipelines(nodes);
    for i in order {
        let (node, spec) = pipes[i];
        check_pipeline(node, spec, nodes, parent)?;
    }
    for node in nodes.iter().filter(|n| !matches!(n.kind, AggKind::Pipeline(_))) {
        check_level(&node.subs, Some(node))?;
    }
    Ok(())
}

/// The pipelines of `nodes` (indices into their pipelines, in tree order) in the order
/// their paths require, or ES's error for a path that names nothing or a cycle.
pub fn resolve_order(nodes: &[AggNode]) -> std::result::Result<Vec<usize>, String> {
    let pipes = pipelines(nodes);
    let mut ordered = Vec::with_capacity(pipes.len());
    let mut state = vec![0u8; pipes.len()]; // 0 unmarked, 1 in progress, 2 done
    fn visit(
        i: usize,
        nodes: &[AggNode],
        pipes: &[(&AggNode, &PipelineSpec)],
        state: &mut [u8],
        ordered: &mut Vec<usize>,
    ) -> std::result::Result<(), String> {
        match state[i] {
            1 => return Err(format!("Cyclical dependency found with pipeline aggregator [{}]", pipes[i].0.name)),
            2 => return Ok(()),
            _ => {}
        }
        state[i] = 1;
        for (_, path) in &pipes[i].1.paths {
            if path.text == "_count" || path.text == "_key" {
                continue;
            }
            let first = &path.elements[0].name;
            if let Some(agg) = nodes.iter().find(|n| &n.name == first && !matches!(n.kind, AggKind::Pipeline(_))) {
                let mut agg = agg;
                let last = path.elements.len() - 1;
                for (j, el) in path.elements.iter().enumerate().skip(1) {
                    if j == last && (el.name.eq_ignore_ascii_case("_key") || el.name == "_count") {
                        break;
                    }
                    if let Some(sub) =
                        agg.subs.iter().find(|s| s.name == el.name && !matches!(s.kind, AggKind::Pipeline(_)))
                    {
                        agg = sub;
                        continue;
                    }
                    let pipeline_sub = j == last && agg.subs.iter().any(|s| s.name == el.name);
                    if !pipeline_sub {
                        return Err(format!("No aggregation [{}] found for path [{}]", el.name, path.text));
                    }
                }
                continue;
            }
            match pipes.iter().position(|(n, _)| &n.name == first) {
                Some(dep) => visit(dep, nodes, pipes, state, ordered)?,
                None => return Err(format!("No aggregation found for path [{}]", path.text)),
            }
        }
        state[i] = 2;
        ordered.push(i);
        Ok(())
    }
    for i in 0..pipes.len() {
        visit(i, nodes, &pipes, &mut state, &mut ordered)?;
    }
    Ok(ordered)
}

/// The Java class ES names for an aggregation's builder in its errors.
fn builder_class(kind: &AggKind) -> &'static str {
    match kind {
        AggKind::Metric(m) => match m.kind.name() {
            "avg" => "org.elasticsearch.search.aggregations.metrics.AvgAggregationBuilder",
            "sum" => "org.elasticsearch.search.aggregations.metrics.SumAggregationBuilder",
            "min" => "org.elasticsearch.search.aggregations.metrics.MinAggregationBuilder",
            "max" => "org.elasticsearch.search.aggregations.metrics.MaxAggregationBuilder",
            "stats" => "org.elasticsearch.search.aggregations.metrics.StatsAggregationBuilder",
            "extended_stats" => "org.elasticsearch.search.aggregations.metrics.ExtendedStatsAggregationBuilder",
            "value_count" => "org.elasticsearch.search.aggregations.metrics.ValueCountAggregationBuilder",
            "cardinality" => "org.elasticsearch.search.aggregations.metrics.CardinalityAggregationBuilder",
            _ => "org.elasticsearch.search.aggregations.metrics.PercentilesAggregationBuilder",
        },
        AggKind::Filter(_) => "org.elasticsearch.search.aggregations.bucket.filter.FilterAggregationBuilder",
        AggKind::Missing(_) => "org.elasticsearch.search.aggregations.bucket.missing.MissingAggregationBuilder",
        AggKind::Global => "org.elasticsearch.search.aggregations.bucket.global.GlobalAggregationBuilder",
        AggKind::Nested(_) => "org.elasticsearch.search.aggregations.bucket.nested.NestedAggregationBuilder",
        AggKind::ReverseNested(_) => {
            "org.elasticsearch.search.aggregations.bucket.nested.ReverseNestedAggregationBuilder"
        }
        AggKind::TopHits(_) => "org.elasticsearch.search.aggregations.metrics.TopHitsAggregationBuilder",
        _ => "org.elasticsearch.search.aggregations.AggregationBuilder",
    }
}

/// Whether an aggregation makes many buckets (ES's `MultiBucketAggregationBuilder`).
fn is_multi_bucket(kind: &AggKind) -> bool {
    use crate::request::geo_aggs::GeoAgg;
    match kind {
        AggKind::Terms(_)
        | AggKind::Composite(_)
        | AggKind::Histogram(_)
        | AggKind::DateHistogram(_)
        | AggKind::Range(_)
        | AggKind::IpRange(_)
        | AggKind::Filters(_) => true,
        AggKind::Geo(g) => !matches!(g, GeoAgg::Bounds { .. } | GeoAgg::Centroid { .. }),
        _ => false,
    }
}

fn check_pipeline(
    node: &AggNode,
    spec: &PipelineSpec,
    siblings: &[AggNode],
    parent: Option<&AggNode>,
) -> std::result::Result<(), Failure> {
    let name = &node.name;
    let t = spec.type_name.as_str();
    let single_path = !matches!(
        spec.kind,
        PipelineKind::BucketScript(_) | PipelineKind::BucketSelector(_) | PipelineKind::BucketSort { .. }
    );
    if single_path && spec.paths.len() != 1 {
        return Err(illegal_state(format!("buckets_path must contain a single entry for aggregation [{name}]")));
    }
    match &spec.kind {
        PipelineKind::Derivative { .. }
        | PipelineKind::CumulativeSum
        | PipelineKind::SerialDiff { .. }
        | PipelineKind::MovingAvg { .. }
        | PipelineKind::MovingFn { .. } => {
            let histogram_min = parent.and_then(|p| match &p.kind {
                AggKind::Histogram(h) => Some(h.min_doc_count),
                AggKind::DateHistogram(d) => Some(d.min_doc_count),
                _ => None,
            });
            match histogram_min {
                None => {
                    return Err(illegal_state(format!(
                    "{t} aggregation [{name}] must have a histogram, date_histogram or auto_date_histogram as parent"
                )))
                }
                Some(n) if n != 0 => {
                    return Err(illegal_state(format!(
                        "parent histogram of {t} aggregation [{name}] must have min_doc_count of 0"
                    )))
                }
                _ => {}
            }
        }
        PipelineKind::BucketSort { sort, size, from } => {
            if sort.is_empty() && size.is_none() && *from == 0 {
                return Err(illegal_state(format!(
                    "[{name}] is configured to perform nothing. Please set either of [sort, size, from] to use bucket_sort"
                )));
            }
        }
        PipelineKind::Sibling(_) => {
            let path = &spec.paths[0].1;
            let first = &path.elements[0].name;
            let Some(agg) = siblings.iter().find(|n| &n.name == first) else {
                return Err(illegal_argument(format!(
                    "buckets_path aggregation does not exist for aggregation [{name}]: {}",
                    path.text
                )));
            };
            if !is_multi_bucket(&agg.kind) {
                return Err(illegal_argument(format!(
                    "The first aggregation in buckets_path must be a multi-bucket aggregation for aggregation [{name}] found :{} for buckets path: {}",
                    builder_class(&agg.kind),
                    path.text
                )));
            }
        }
        PipelineKind::BucketScript(_) | PipelineKind::BucketSelector(_) => {}
    }
    if parent.is_none() && spec.kind.is_parent() {
        return Err(Failure(
            500,
            "aggregation_execution_exception",
            format!(
                "Invalid pipeline aggregation named [{name}] of type [{t}]. Only sibling pipeline aggregations are allowed at the top level"
            ),
        ));
    }
    Ok(())
}
