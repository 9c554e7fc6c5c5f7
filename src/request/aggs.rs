//! The `aggs` / `aggregations` request section parsed into a tree, with the errors ES 6.8
//! gives for malformed definitions. Parsing happens before any index is read, so a bad
//! definition fails the request as a whole, as in ES.

use crate::date::TimeZone;
use crate::error::{Error, Exception, Result};
use crate::json_value::bool_of;
use crate::json_value::token_name;
use crate::query::dsl::DslParser;
use crate::query::pattern::translate_lucene_regex;
use crate::query::Query;
use crate::query::Scalar;
use crate::request::sort::{parse_sort, SortSpec};
use crate::request::source::SourceFilter;
use regex_automata::meta::Regex;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// One named aggregation and its sub-aggregations.
#[derive(Debug, Clone)]
pub struct AggNode {
    /// The name the client gave it (its key in the response).
    pub name: String,
    /// What it computes.
    pub kind: AggKind,
    /// `meta`, echoed in the response.
    pub meta: Option<Value>,
    /// Sub-aggregations, computed per bucket.
    pub subs: Vec<AggNode>,
}

/// The aggregation types.
#[derive(Debug, Clone)]
pub enum AggKind {
    /// `terms`.
    Terms(TermsSpec),
    /// `composite`.
    Composite(CompositeSpec),
    /// `histogram`.
    Histogram(HistogramSpec),
    /// `date_histogram`.
    DateHistogram(DateHistogramSpec),
    /// `range` and `date_range`.
    Range(RangeSpec),
    /// `ip_range`.
    IpRange(crate::request::ip_range_agg::IpRangeSpec),
    /// `filter`.
    Filter(Box<Query>),
    /// `filters`.
    Filters(FiltersSpec),
    /// `missing`.
    Missing(String),
    /// `global`.
    Global,
    /// `top_hits`.
    TopHits(TopHitsSpec),
    /// The single- and multi-value metrics.
    Metric(MetricSpec),
    /// `geo_distance`, `geohash_grid`, `geo_bounds`, `geo_centroid`.
    Geo(super::geo_aggs::GeoAgg),
    /// `nested`: the nested documents at `path` of the incoming documents.
    Nested(String),
    /// `reverse_nested`: the documents at `path` (the roots when `None`) holding the
    /// incoming nested documents.
    ReverseNested(Option<String>),
    /// A pipeline aggregation: computed from other aggregations' results.
    Pipeline(Box<super::pipeline_aggs::PipelineSpec>),
    /// `weighted_avg`.
    WeightedAvg(super::weighted_avg_agg::WeightedAvgSpec),
    /// `significant_terms` and `significant_text`.
    Significant(Box<super::significant_agg::SignificantSpec>),
    /// `adjacency_matrix`.
    AdjacencyMatrix(super::bucket_aggs_more::AdjacencySpec),
    /// `sampler`: the best-scoring `shard_size` documents of each index.
    Sampler(usize),
    /// `diversified_sampler`.
    DiversifiedSampler(super::bucket_aggs_more::DiversifiedSamplerSpec),
    /// `auto_date_histogram`.
    AutoDateHistogram(super::bucket_aggs_more::AutoDateHistogramSpec),
    /// `scripted_metric`.
    ScriptedMetric(super::scripted_metric_agg::ScriptedMetricSpec),
}

impl AggKind {
    /// Whether this aggregation makes buckets (only those take sub-aggregations).
    fn takes_subs(&self) -> bool {
        !matches!(
            self,
            AggKind::TopHits(_)
                | AggKind::Metric(_)
                | AggKind::Pipeline(_)
                | AggKind::WeightedAvg(_)
                | AggKind::ScriptedMetric(_)
                | AggKind::Geo(super::geo_aggs::GeoAgg::Bounds { .. } | super::geo_aggs::GeoAgg::Centroid { .. })
        )
    }
}

/// The field an aggregation reads, with its `missing` value and output `format`.
#[derive(Debug, Clone, Default)]
pub struct FieldSpec {
    /// Field path (`_index`, `_type` and `_id` included).
    pub field: String,
    /// Value for documents without one.
    pub missing: Option<Scalar>,
    /// Date format for `key_as_string` / `value_as_string`.
    pub format: Option<String>,
    /// `value_type`: the kind of values a field that no target maps stands for.
    pub value_type: Option<ValueType>,
    /// `script`: the values come from it (with `field` too, it maps each of the
    /// field's values, given as `_value`).
    pub script: Option<std::sync::Arc<crate::script::Script>>,
}

/// The `value_type` of a values-source aggregation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    /// `string`.
    String,
    /// `long`, `integer`, `short`, `byte`, `number`, `numeric`.
    Long,
    /// `double`, `float`.
    Double,
    /// `date`.
    Date,
    /// `boolean`.
    Boolean,
}

impl ValueType {
    /// ES's names for value types.
    fn parse(name: &str) -> Option<ValueType> {
        Some(match name {
            "string" => ValueType::String,
            "long" | "integer" | "short" | "byte" | "number" | "numeric" => ValueType::Long,
            "double" | "float" => ValueType::Double,
            "date" => ValueType::Date,
            "boolean" => ValueType::Boolean,
            _ => return None,
        })
    }
}

/// A bucket order criterion.
#[derive(Debug, Clone, PartialEq)]
pub enum OrderKey {
    /// `_count`.
    Count { asc: bool },
    /// `_key` (and the deprecated `_term`).
    Key { asc: bool },
    /// A sub-aggregation value: `name` or `name.stat` (or `name>..`, not supported).
    Sub { agg: String, stat: Option<String>, asc: bool },
}

/// Which terms a `terms` aggregation keeps, as given (compiled against the field's kind
/// when the aggregation runs: values of a numeric or date field are parsed as such).
#[derive(Debug, Clone)]
pub enum TermFilter {
    /// A Lucene regular expression over the whole term (keyword fields only).
    Regex(Box<Regex>),
    /// Exact values, as written.
    Set(HashSet<String>),
    /// `{"partition": p, "num_partitions": n}`: the terms whose hash falls in partition
    /// `p` of `n` (include only).
    Partition {
        /// Zero-based partition.
        partition: u32,
        /// Number of partitions.
        num: u32,
    },
}

/// `terms`.
#[derive(Debug, Clone)]
pub struct TermsSpec {
    /// The field.
    pub field: FieldSpec,
    /// Buckets returned.
    pub size: usize,
    /// Buckets with fewer documents are dropped.
    pub min_doc_count: u64,
    /// Bucket order (ties broken by key ascending).
    pub order: Vec<OrderKey>,
    /// `include`.
    pub include: Option<TermFilter>,
    /// `exclude`.
    pub exclude: Option<TermFilter>,
}

/// `histogram`.
#[derive(Debug, Clone)]
pub struct HistogramSpec {
    /// The field.
    pub field: FieldSpec,
    /// Bucket width.
    pub interval: f64,
    /// Shift of the bucket boundaries.
    pub offset: f64,
    /// Buckets with fewer documents are dropped (0: gaps are filled).
    pub min_doc_count: u64,
    /// Range to fill with empty buckets when `min_doc_count` is 0.
    pub extended_bounds: Option<(f64, f64)>,
    /// Bucket order.
    pub order: Vec<OrderKey>,
    /// Render buckets as an object keyed by the key string.
    pub keyed: bool,
}

/// A date histogram interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DateInterval {
    /// A calendar unit: `y`, `q`, `M`, `w`, `d`, `h`, `m`, `s`.
    Calendar(char),
    /// A fixed length in milliseconds.
    Fixed(i64),
}

/// `date_histogram`.
#[derive(Debug, Clone)]
pub struct DateHistogramSpec {
    /// The field.
    pub field: FieldSpec,
    /// Bucket width.
    pub interval: DateInterval,
    /// Shift of the bucket boundaries, in milliseconds.
    pub offset: i64,
    /// Fixed time zone.
    pub time_zone: TimeZone,
    /// Buckets with fewer documents are dropped (0: gaps are filled).
    pub min_doc_count: u64,
    /// Range to fill when `min_doc_count` is 0 (dates or date math, resolved at search time).
    pub extended_bounds: Option<(UnresolvedValue, UnresolvedValue)>,
    /// Bucket order.
    pub order: Vec<OrderKey>,
    /// Render buckets as an object keyed by `key_as_string`.
    pub keyed: bool,
}

/// One range of a `range` / `date_range` aggregation.
#[derive(Debug, Clone)]
pub struct RangeDef {
    /// Custom key.
    pub key: Option<String>,
    /// Lower bound (inclusive).
    pub from: Option<Scalar>,
    /// Upper bound (exclusive).
    pub to: Option<Scalar>,
}

/// `range` / `date_range`.
#[derive(Debug, Clone)]
pub struct RangeSpec {
    /// The field.
    pub field: FieldSpec,
    /// The ranges, in request order.
    pub ranges: Vec<RangeDef>,
    /// Render buckets as an object keyed by the range key.
    pub keyed: bool,
    /// `date_range` (bounds are dates and render as strings too).
    pub date: bool,
    /// Time zone for date bounds.
    pub time_zone: Option<TimeZone>,
}

/// `filters`.
#[derive(Debug, Clone)]
pub struct FiltersSpec {
    /// Named filters (keyed output) or anonymous ones (array output, names `None`).
    pub filters: Vec<(Option<String>, Query)>,
    /// Whether the filters were named.
    pub keyed: bool,
    /// Key of the bucket of documents no filter matched, when asked for.
    pub other_bucket_key: Option<String>,
}

/// `top_hits`.
#[derive(Debug, Clone)]
pub struct TopHitsSpec {
    /// Offset into the bucket's hits.
    pub from: usize,
    /// Hits returned per bucket.
    pub size: usize,
    /// Sort (relevance when empty).
    pub sort: Vec<SortSpec>,
    /// `_source` filter.
    pub source: SourceFilter,
    /// `version`.
    pub version: bool,
    /// `seq_no_primary_term`.
    pub seq_no_primary_term: bool,
    /// `explain`.
    pub explain: bool,
    /// `track_scores`: scores computed and shown under a sort by field.
    pub track_scores: bool,
    /// `docvalue_fields`.
    pub docvalue_fields: Vec<String>,
}

/// The metric aggregations.
#[derive(Debug, Clone, PartialEq)]
pub enum MetricKind {
    /// `value_count`.
    ValueCount,
    /// `cardinality` (exact).
    Cardinality,
    /// `min`.
    Min,
    /// `max`.
    Max,
    /// `avg`.
    Avg,
    /// `sum`.
    Sum,
    /// `stats`.
    Stats,
    /// `extended_stats` with its `sigma`.
    ExtendedStats(f64),
    /// `percentiles`: percents and keyed output.
    Percentiles(Vec<f64>, bool),
    /// `percentile_ranks`: the values (ascending) and keyed output.
    PercentileRanks(Vec<f64>, bool),
    /// `median_absolute_deviation` (exact).
    MedianAbsoluteDeviation,
}

impl MetricKind {
    /// The ES type name.
    pub fn name(&self) -> &'static str {
        match self {
            MetricKind::ValueCount => "value_count",
            MetricKind::Cardinality => "cardinality",
            MetricKind::Min => "min",
            MetricKind::Max => "max",
            MetricKind::Avg => "avg",
            MetricKind::Sum => "sum",
            MetricKind::Stats => "stats",
            MetricKind::ExtendedStats(_) => "extended_stats",
            MetricKind::Percentiles(..) => "percentiles",
            MetricKind::PercentileRanks(..) => "percentile_ranks",
            MetricKind::MedianAbsoluteDeviation => "median_absolute_deviation",
        }
    }
}

/// A metric over one field.
#[derive(Debug, Clone)]
pub struct MetricSpec {
    /// What to compute.
    pub kind: MetricKind,
    /// The field.
    pub field: FieldSpec,
}

/// How a composite source turns values into keys.
#[derive(Debug, Clone, PartialEq)]
pub enum CompositeKind {
    /// `terms`: the value itself.
    Terms,
    /// `histogram` with its interval.
    Histogram(f64),
    /// `date_histogram` with its interval and zone.
    DateHistogram(DateInterval, TimeZone),
}

/// One source of a composite key.
#[derive(Debug, Clone)]
pub struct CompositeSource {
    /// Its name in the key object.
    pub name: String,
    /// The value-to-key rule.
    pub kind: CompositeKind,
    /// The field and format.
    pub field: FieldSpec,
    /// Ascending order (the default).
    pub asc: bool,
    /// Whether documents without a value make a `null` key.
    pub missing_bucket: bool,
}

/// `composite`.
#[derive(Debug, Clone)]
pub struct CompositeSpec {
    /// Buckets per page.
    pub size: usize,
    /// The key sources, in order.
    pub sources: Vec<CompositeSource>,
    /// Start after this key (`after`): one value per source, in the sources' order.
    pub after: Option<Vec<UnresolvedValue>>,
}

/// A value that is read as the field's type at search time (a `composite` `after` key, a
/// `date_histogram` bound): a scalar, or an array or object, which no field type accepts,
/// kept as its JSON text because ES quotes it in the error.
#[derive(Debug, Clone, PartialEq)]
pub enum UnresolvedValue {
    /// `null`, a boolean, a number or a string.
    Scalar(Scalar),
    /// An array or an object, as JSON text.
    Other(String),
}

impl UnresolvedValue {
    fn from_json(v: &Value) -> UnresolvedValue {
        Scalar::from_json(v).map(UnresolvedValue::Scalar).unwrap_or_else(|| UnresolvedValue::Other(v.to_string()))
    }

    /// The value as JSON text, as ES quotes it in messages.
    pub fn json_text(&self) -> String {
        match self {
            UnresolvedValue::Scalar(s) => s.to_json().to_string(),
            UnresolvedValue::Other(text) => text.clone(),
        }
    }
}

pub(super) fn parse_err(reason: impl Into<String>) -> Error {
    Error::parsing_no_pos(reason)
}

/// Aggregations whose scripts this engine does not run yet answer what ES answers on a
/// node that does not allow them (`script.allowed_contexts` without `aggs`).
pub(super) fn no_scripts(o: &Map<String, Value>) -> Result<()> {
    if o.get("script").is_some() {
        return Err(Error::all_shards_failed(
            400,
            None,
            Exception::new("illegal_argument_exception", "cannot execute scripts using [aggs] context"),
        ));
    }
    Ok(())
}

/// Parses an `aggs` object (the value of the `aggs` / `aggregations` key).
pub fn parse_aggs(v: &Value, raw: &str) -> Result<Vec<AggNode>> {
    let o = v.as_object().ok_or_else(|| parse_err(format!("Unexpected token {} in [aggs].", token_name(v))))?;
    let mut out = Vec::with_capacity(o.len());
    for (name, def) in o {
        if name.contains(['[', ']', '>']) {
            return Err(parse_err(format!(
                "Invalid aggregation name [{name}]. Aggregation names can contain any character except '[', ']', and '>'"
            )));
        }
        out.push(parse_node(name, def, raw)?);
    }
    Ok(out)
}

fn parse_node(name: &str, def: &Value, raw: &str) -> Result<AggNode> {
    let Value::Object(o) = def else {
        return Err(parse_err(format!(
            "Aggregation definition for [{name} starts with a [{}], expected a [START_OBJECT].",
            token_name(def)
        )));
    };
    let mut kind: Option<(String, AggKind)> = None;
    let mut subs = Vec::new();
    let mut meta = None;
    for (k, v) in o {
        match k.as_str() {
            "aggs" | "aggregations" => {
                if !subs.is_empty() {
                    return Err(parse_err(format!("Found two sub aggregation definitions under [{name}]")));
                }
                subs = parse_aggs(v, raw)?;
            }
            "meta" => {
                if !v.is_object() {
                    return Err(parse_err(format!(
                        "Expected [START_OBJECT] under [meta], but got a [{}] in [{name}]",
                        token_name(v)
                    )));
                }
                meta = Some(v.clone());
            }
            t => {
                if let Some((first, _)) = &kind {
                    return Err(parse_err(format!(
                        "Found two aggregation type definitions in [{name}]: [{first}] and [{t}]"
                    )));
                }
                let Value::Object(body) = v else {
                    return Err(parse_err(format!(
                        "Expected [START_OBJECT] under [{t}], but got a [{}] in [{name}]",
                        token_name(v)
                    )));
                };
                kind = Some((t.to_string(), parse_kind(name, t, body, raw)?));
            }
        }
    }
    let Some((type_name, kind)) = kind else {
        return Err(parse_err(format!("Missing definition for aggregation [{name}]")));
    };
    if !subs.is_empty() && matches!(kind, AggKind::Pipeline(_)) {
        return Err(parse_err(format!("Aggregation [{name}] cannot define sub-aggregations")));
    }
    if !subs.is_empty() && !kind.takes_subs() {
        return Err(Error::new(
            500,
            Exception::new(
                "aggregation_initialization_exception",
                format!("Aggregator [{name}] of type [{type_name}] cannot accept sub-aggregations"),
            ),
        ));
    }
    Ok(AggNode { name: name.to_string(), kind, meta, subs })
}

/// Checks the `hdr` options of `percentiles` / `percentile_ranks` as ES's builder does
/// (the method itself is refused once the whole aggregation is checked: see
/// [`refuse_hdr`]).
fn check_hdr_options(t: &str, name: &str, v: &Value) -> Result<()> {
    let Value::Object(options) = v else {
        return Err(parse_err(format!("[{t}] failed to parse field [hdr]")));
    };
    for (k, v) in options {
        if k != "number_of_significant_value_digits" {
            return Err(unknown_field("hdr", k));
        }
        // `null` is not an int: a parse error, as ES's object parser answers.
        let digits = int_of("hdr", k, v)?;
        if !(0..=5).contains(&digits) {
            return Err(Error::illegal_argument(format!(
                "[numberOfSignificantValueDigits] must be between 0 and 5: [{name}]"
            )));
        }
    }
    Ok(())
}

/// The `hdr` method, refused by name: metagate computes percentiles as ES's TDigest
/// does, and an HDR histogram's bucketed values would differ from them.
fn refuse_hdr(t: &str, name: &str) -> Error {
    Error::illegal_argument(format!(
        "[hdr] of [{t}] aggregation [{name}] is not supported by metagate: it computes percentiles as ES's [tdigest] method does"
    ))
}

pub(super) fn unknown_field(t: &str, k: &str) -> Error {
    parse_err(format!("[{t}] unknown field [{k}], parser not found"))
}

pub(super) fn int_of(t: &str, k: &str, v: &Value) -> Result<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .ok_or_else(|| parse_err(format!("[{t}] failed to parse field [{k}]")))
}

pub(super) fn f64_of(t: &str, k: &str, v: &Value) -> Result<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .ok_or_else(|| parse_err(format!("[{t}] failed to parse field [{k}]")))
}

pub(super) fn bool_field(t: &str, k: &str, v: &Value) -> Result<bool> {
    bool_of(v).ok_or_else(|| parse_err(format!("[{t}] failed to parse field [{k}]")))
}

/// A `from` / `to` of a range (`null`: unbounded).
fn range_bound(v: &Value) -> Result<Option<Scalar>> {
    match Scalar::from_json(v) {
        Some(Scalar::Null) => Ok(None),
        Some(s) => Ok(Some(s)),
        None => Err(Error::illegal_argument(format!("invalid range bound [{v}]"))),
    }
}

pub(super) fn string_of(t: &str, k: &str, v: &Value) -> Result<String> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| parse_err(format!("[{t}] {k} doesn't support values of type: {}", token_name(v))))
}

/// The keys every values-source aggregation accepts; returns whether `k` was one.
pub(super) fn field_key(t: &str, k: &str, v: &Value, f: &mut FieldSpec) -> Result<bool> {
    match k {
        "field" => f.field = string_of(t, k, v)?,
        // A value (`null`: none), as ES's ValueType.VALUE fields take it.
        "missing" => {
            f.missing = match Scalar::from_json(v) {
                Some(Scalar::Null) => None,
                Some(s) => Some(s),
                None => return Err(parse_err(format!("[{t}] {k} doesn't support values of type: {}", token_name(v)))),
            }
        }
        "format" => f.format = Some(string_of(t, k, v)?),
        "script" => f.script = Some(std::sync::Arc::new(crate::script::Script::parse(v)?)),
        "value_type" | "valueType" => {
            let name = string_of(t, k, v)?;
            f.value_type = Some(
                ValueType::parse(&name)
                    .ok_or_else(|| Error::illegal_argument(format!("Unknown value type [{name}] in [{t}]")))?,
            );
        }
        _ => return Ok(false),
    }
    Ok(true)
}

pub(super) fn require_field(f: &FieldSpec) -> Result<()> {
    if f.field.is_empty() && f.script.is_none() {
        return Err(Error::illegal_argument("Required one of fields [field, script], but none were specified. "));
    }
    Ok(())
}

fn parse_kind(name: &str, t: &str, o: &Map<String, Value>, raw: &str) -> Result<AggKind> {
    // Scripts run in `terms`, the metrics that sum, count and bound values, and the
    // pipelines that take one.
    if !matches!(
        t,
        "terms"
            | "value_count"
            | "min"
            | "max"
            | "avg"
            | "sum"
            | "stats"
            | "significant_text"
            | "moving_fn"
            | "bucket_script"
            | "bucket_selector"
            | "extended_stats"
            | "percentiles"
            | "cardinality"
            | "histogram"
            | "date_histogram"
            | "range"
            | "date_range"
            | "composite"
    ) {
        no_scripts(o)?;
    }
    Ok(match t {
        "terms" => AggKind::Terms(parse_terms(name, o)?),
        "composite" => AggKind::Composite(parse_composite(name, o)?),
        "histogram" => AggKind::Histogram(parse_histogram(name, o)?),
        "date_histogram" => AggKind::DateHistogram(parse_date_histogram(name, o)?),
        "range" | "date_range" => AggKind::Range(parse_range(name, t, o)?),
        "ip_range" => AggKind::IpRange(crate::request::ip_range_agg::parse(name, o, |k, v, f| field_key(t, k, v, f))?),
        "geo_distance" | "geohash_grid" | "geo_bounds" | "geo_centroid" => {
            AggKind::Geo(super::geo_aggs::parse(name, t, o)?)
        }
        "filter" => AggKind::Filter(Box::new(DslParser::new(raw).parse(&Value::Object(o.clone()))?)),
        "filters" => AggKind::Filters(parse_filters(o, raw)?),
        "missing" => {
            let mut f = FieldSpec::default();
            for (k, v) in o {
                if !field_key(t, k, v, &mut f)? {
                    return Err(unknown_field(t, k));
                }
            }
            require_field(&f)?;
            AggKind::Missing(f.field)
        }
        "global" => {
            if let Some(k) = o.keys().next() {
                return Err(unknown_field(t, k));
            }
            AggKind::Global
        }
        "top_hits" => AggKind::TopHits(parse_top_hits(o)?),
        "value_count"
        | "cardinality"
        | "min"
        | "max"
        | "avg"
        | "sum"
        | "stats"
        | "extended_stats"
        | "percentiles"
        | "percentile_ranks"
        | "median_absolute_deviation" => AggKind::Metric(parse_metric(name, t, o)?),
        "weighted_avg" => AggKind::WeightedAvg(super::weighted_avg_agg::parse(o)?),
        "significant_terms" | "significant_text" => {
            AggKind::Significant(Box::new(super::significant_agg::parse(name, t, o, raw)?))
        }
        "adjacency_matrix" => AggKind::AdjacencyMatrix(super::bucket_aggs_more::parse_adjacency(name, o, raw)?),
        "sampler" => AggKind::Sampler(super::bucket_aggs_more::parse_sampler(o)?),
        "diversified_sampler" => AggKind::DiversifiedSampler(super::bucket_aggs_more::parse_diversified_sampler(o)?),
        "auto_date_histogram" => {
            AggKind::AutoDateHistogram(super::bucket_aggs_more::parse_auto_date_histogram(name, o)?)
        }
        "nested" | "reverse_nested" => {
            let mut path = None;
            for (k, v) in o {
                match (k.as_str(), v) {
                    ("path", Value::String(p)) => path = Some(p.clone()),
                    (_, Value::String(_)) => {
                        return Err(parse_err(format!("Unknown key for a VALUE_STRING in [{name}]: [{k}].")))
                    }
                    _ => return Err(parse_err(format!("Unexpected token {} in [{name}].", token_name(v)))),
                }
            }
            match (t, path) {
                ("nested", Some(p)) => AggKind::Nested(p),
                ("nested", None) => {
                    return Err(parse_err(format!("Missing [path] field for nested aggregation [{name}]")))
                }
                (_, p) => AggKind::ReverseNested(p),
            }
        }
        t if super::pipeline_aggs::PIPELINE_TYPES.contains(&t) => {
            AggKind::Pipeline(Box::new(super::pipeline_aggs::parse(name, t, o)?))
        }
        "scripted_metric" => AggKind::ScriptedMetric(super::scripted_metric_agg::parse(name, o)?),
        known if UNSUPPORTED.contains(&known) => {
            return Err(Error::illegal_argument(format!(
                "[{known}] aggregation [{name}] is not supported by this engine"
            )))
        }
        other => return Err(parse_err(format!("Could not find aggregator type [{other}] in [{name}]"))),
    })
}

/// ES 6.8 aggregation types this engine does not compute: they get a clear refusal
/// rather than the unknown-type error, which would suggest a typo.
const UNSUPPORTED: &[&str] = &["matrix_stats", "children", "parent"];

/// Parses an `order` value: `{"_count": "desc"}`, `[{..}, {..}]`.
fn parse_order(t: &str, v: &Value) -> Result<Vec<OrderKey>> {
    let items: Vec<&Value> = match v {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    let mut out = Vec::new();
    for item in items {
        let Value::Object(o) = item else {
            return Err(parse_err(format!("[{t}] failed to parse field [order]")));
        };
        for (k, dir) in o {
            let asc = match dir.as_str().map(str::to_ascii_lowercase).as_deref() {
                Some("asc") => true,
                Some("desc") => false,
                _ => return Err(parse_err(format!("Unknown order direction [{dir}]"))),
            };
            out.push(match k.as_str() {
                "_count" => OrderKey::Count { asc },
                "_key" | "_term" | "_time" => {
                    if k != "_key" {
                        crate::deprecation::warn(format!("Deprecated aggregation order key [{k}] used, replaced by [_key]"));
                    }
                    OrderKey::Key { asc }
                }
                path => {
                    if path.contains('>') {
                        return Err(Error::illegal_argument(format!(
                            "Invalid aggregation order path [{path}]: ordering by a nested sub-aggregation path is not supported"
                        )));
                    }
                    let (agg, stat) = match path.split_once('.') {
                        Some((a, s)) => (a.to_string(), Some(s.to_string())),
                        None => match path.split_once('[') {
                            Some((a, s)) => (a.to_string(), Some(s.trim_end_matches(']').to_string())),
                            None => (path.to_string(), None),
                        },
                    };
                    OrderKey::Sub { agg, stat, asc }
                }
            });
        }
    }
    Ok(out)
}

pub(super) fn parse_term_filter(t: &str, k: &str, v: &Value) -> Result<TermFilter> {
    match v {
        Value::String(s) => {
            let re = Regex::new(&format!("(?s)^(?:{})$", translate_lucene_regex(s)))
                .map_err(|e| Error::illegal_argument(format!("failed to parse regexp [{s}] in [{k}]: {e}")))?;
            Ok(TermFilter::Regex(Box::new(re)))
        }
        Value::Array(a) => Ok(TermFilter::Set(a.iter().map(crate::json_value::value_to_string).collect())),
        Value::Object(o) if k == "include" => {
            let (mut partition, mut num) = (None, None);
            for (name, x) in o {
                let n = || int_of(t, name, x);
                match name.as_str() {
                    "partition" => partition = Some(n()?),
                    "num_partitions" | "numPartitions" => num = Some(n()?),
                    _ => {
                        return Err(Error::new(
                            400,
                            Exception::new(
                                "parse_exception",
                                format!("Unknown parameter in Include/Exclude clause: {name}"),
                            ),
                        ))
                    }
                }
            }
            let partition = partition
                .ok_or_else(|| Error::illegal_argument("Missing [partition] parameter for partition-based include"))?;
            let num = num.ok_or_else(|| {
                Error::illegal_argument("Missing [num_partitions] parameter for partition-based include")
            })?;
            if partition < 0 || partition >= num {
                return Err(Error::illegal_argument(format!(
                    "Partition must be >=0 and < numPartition which is {num}"
                )));
            }
            Ok(TermFilter::Partition { partition: partition as u32, num: num as u32 })
        }
        Value::Object(_) => {
            Err(Error::illegal_argument(format!("Unrecognized token for an exclude [{}]", token_name(v))))
        }
        _ => Err(parse_err(format!("[{t}] failed to parse field [{k}]"))),
    }
}

fn parse_terms(name: &str, o: &Map<String, Value>) -> Result<TermsSpec> {
    let t = "terms";
    let mut spec = TermsSpec {
        field: FieldSpec::default(),
        size: 10,
        min_doc_count: 1,
        order: vec![OrderKey::Count { asc: false }],
        include: None,
        exclude: None,
    };
    for (k, v) in o {
        if field_key(t, k, v, &mut spec.field)? {
            continue;
        }
        match k.as_str() {
            "size" => {
                let n = int_of(t, k, v)?;
                if n <= 0 {
                    return Err(Error::illegal_argument(format!(
                        "[size] must be greater than 0. Found [{n}] in [{name}]"
                    )));
                }
                spec.size = n as usize;
            }
            "shard_size" => {
                let n = int_of(t, k, v)?;
                if n <= 0 {
                    return Err(Error::illegal_argument(format!(
                        "[shardSize] must be greater than 0. Found [{n}] in [{name}]"
                    )));
                }
            }
            "min_doc_count" => {
                let n = int_of(t, k, v)?;
                if n < 0 {
                    return Err(Error::illegal_argument(format!(
                        "[minDocCount] must be greater than or equal to 0. Found [{n}] in [{name}]"
                    )));
                }
                spec.min_doc_count = n as u64;
            }
            "shard_min_doc_count" | "execution_hint" | "collect_mode" | "show_term_doc_count_error" => {}
            "order" => spec.order = parse_order(t, v)?,
            "include" => spec.include = Some(parse_term_filter(t, k, v)?),
            "exclude" => spec.exclude = Some(parse_term_filter(t, k, v)?),
            _ => return Err(unknown_field(t, k)),
        }
    }
    require_field(&spec.field)?;
    if matches!(spec.include, Some(TermFilter::Partition { .. })) && spec.exclude.is_some() {
        return Err(Error::illegal_argument("Cannot specify any excludes when using a partition-based include"));
    }
    Ok(spec)
}

fn parse_histogram(name: &str, o: &Map<String, Value>) -> Result<HistogramSpec> {
    let t = "histogram";
    let mut spec = HistogramSpec {
        field: FieldSpec::default(),
        interval: 0.0,
        offset: 0.0,
        min_doc_count: 0,
        extended_bounds: None,
        order: vec![OrderKey::Key { asc: true }],
        keyed: false,
    };
    let mut has_interval = false;
    for (k, v) in o {
        if field_key(t, k, v, &mut spec.field)? {
            continue;
        }
        match k.as_str() {
            "interval" => {
                spec.interval = f64_of(t, k, v)?;
                has_interval = true;
                if spec.interval <= 0.0 {
                    return Err(Error::illegal_argument(format!(
                        "[interval] must be >0 for histogram aggregation [{name}]"
                    )));
                }
            }
            "offset" => spec.offset = f64_of(t, k, v)?,
            "min_doc_count" => spec.min_doc_count = int_of(t, k, v)?.max(0) as u64,
            "keyed" => spec.keyed = bool_field(t, k, v)?,
            "order" => spec.order = parse_order(t, v)?,
            "extended_bounds" => {
                let lo = v.get("min").map(|x| f64_of(t, "min", x)).transpose()?.unwrap_or(f64::INFINITY);
                let hi = v.get("max").map(|x| f64_of(t, "max", x)).transpose()?.unwrap_or(f64::NEG_INFINITY);
                spec.extended_bounds = Some((lo, hi));
            }
            _ => return Err(unknown_field(t, k)),
        }
    }
    if !has_interval {
        return Err(Error::illegal_argument(format!("[interval] must be >0 for histogram aggregation [{name}]")));
    }
    require_field(&spec.field)?;
    Ok(spec)
}

/// Parses a 6.8 date histogram interval: a calendar unit name or `1<unit>`, or a fixed
/// time value (`90m`, `2d`) or milliseconds.
pub fn parse_date_interval(v: &Value) -> Result<DateInterval> {
    let s =
        match v {
            Value::Number(n) => {
                return n.as_i64().filter(|ms| *ms > 0).map(DateInterval::Fixed).ok_or_else(|| {
                    Error::illegal_argument("[interval] must be 1 or greater for histogram aggregation")
                })
            }
            Value::String(s) => s.trim(),
            _ => return Err(parse_err("[date_histogram] failed to parse field [interval]")),
        };
    let unit = match s {
        "year" | "1y" => Some('y'),
        "quarter" | "1q" => Some('q'),
        "month" | "1M" => Some('M'),
        "week" | "1w" => Some('w'),
        "day" | "1d" => Some('d'),
        "hour" | "1h" => Some('h'),
        "minute" | "1m" => Some('m'),
        "second" | "1s" => Some('s'),
        _ => None,
    };
    if let Some(u) = unit {
        return Ok(DateInterval::Calendar(u));
    }
    crate::date::fixed_interval_ms(s).map(DateInterval::Fixed).ok_or_else(|| {
        Error::illegal_argument(format!(
            "failed to parse setting [date_histogram.interval] with value [{s}] as a time value: unit is missing or unrecognized"
        ))
    })
}

pub(super) fn parse_time_zone(v: &Value) -> Result<TimeZone> {
    let s = v.as_str().ok_or_else(|| parse_err("[time_zone] must be a string"))?;
    TimeZone::parse(s).map_err(|e| Error::illegal_argument(e.message))
}

fn parse_offset_ms(v: &Value) -> Result<i64> {
    match v {
        Value::Number(n) => n.as_i64().ok_or_else(|| parse_err("[date_histogram] failed to parse field [offset]")),
        Value::String(s) => {
            let t = s.trim();
            let (neg, body) = match t.strip_prefix('-') {
                Some(b) => (true, b),
                None => (false, t.strip_prefix('+').unwrap_or(t)),
            };
            let d = crate::date::parse_time_value(body, "date_histogram.offset")
                .map_err(|e| Error::illegal_argument(e.message))?;
            let ms = d.as_millis() as i64;
            Ok(if neg { -ms } else { ms })
        }
        _ => Err(parse_err("[date_histogram] failed to parse field [offset]")),
    }
}

fn parse_date_histogram(_name: &str, o: &Map<String, Value>) -> Result<DateHistogramSpec> {
    let t = "date_histogram";
    let mut spec = DateHistogramSpec {
        field: FieldSpec::default(),
        interval: DateInterval::Fixed(0),
        offset: 0,
        time_zone: TimeZone::parse("UTC").map_err(|e| Error::illegal_argument(e.message))?,
        min_doc_count: 0,
        extended_bounds: None,
        order: vec![OrderKey::Key { asc: true }],
        keyed: false,
    };
    let mut has_interval = false;
    for (k, v) in o {
        if field_key(t, k, v, &mut spec.field)? {
            continue;
        }
        match k.as_str() {
            "interval" | "calendar_interval" | "fixed_interval" => {
                spec.interval = parse_date_interval(v)?;
                has_interval = true;
            }
            "offset" => spec.offset = parse_offset_ms(v)?,
            "time_zone" => spec.time_zone = parse_time_zone(v)?,
            "min_doc_count" => spec.min_doc_count = int_of(t, k, v)?.max(0) as u64,
            "keyed" => spec.keyed = bool_field(t, k, v)?,
            "order" => spec.order = parse_order(t, v)?,
            "extended_bounds" => {
                let bound =
                    |k: &str| v.get(k).map_or(UnresolvedValue::Scalar(Scalar::Null), UnresolvedValue::from_json);
                spec.extended_bounds = Some((bound("min"), bound("max")))
            }
            _ => return Err(unknown_field(t, k)),
        }
    }
    if !has_interval {
        return Err(Error::illegal_argument("Invalid interval specified, must be non-null and non-empty"));
    }
    require_field(&spec.field)?;
    Ok(spec)
}

fn parse_range(name: &str, t: &str, o: &Map<String, Value>) -> Result<RangeSpec> {
    let mut spec = RangeSpec {
        field: FieldSpec::default(),
        ranges: Vec::new(),
        keyed: false,
        date: t == "date_range",
        time_zone: None,
    };
    let mut has_ranges = false;
    for (k, v) in o {
        if field_key(t, k, v, &mut spec.field)? {
            continue;
        }
        match k.as_str() {
            "keyed" => spec.keyed = bool_field(t, k, v)?,
            "time_zone" => spec.time_zone = Some(parse_time_zone(v)?),
            "ranges" => {
                has_ranges = true;
                let Value::Array(items) = v else {
                    return Err(parse_err(format!("[{t}] failed to parse field [ranges]")));
                };
                for item in items {
                    let Value::Object(r) = item else {
                        return Err(parse_err(format!("[{t}] failed to parse field [ranges]")));
                    };
                    let mut def = RangeDef { key: None, from: None, to: None };
                    for (rk, rv) in r {
                        match rk.as_str() {
                            "key" => def.key = Some(crate::json_value::value_to_string(rv)),
                            "from" => def.from = range_bound(rv)?,
                            "to" => def.to = range_bound(rv)?,
                            other => {
                                return Err(parse_err(format!("[range] unknown field [{other}], parser not found")))
                            }
                        }
                    }
                    spec.ranges.push(def);
                }
            }
            _ => return Err(unknown_field(t, k)),
        }
    }
    if !has_ranges || spec.ranges.is_empty() {
        return Err(Error::illegal_argument(format!("No [ranges] specified for the [{name}] aggregation")));
    }
    require_field(&spec.field)?;
    Ok(spec)
}

fn parse_filters(o: &Map<String, Value>, raw: &str) -> Result<FiltersSpec> {
    let t = "filters";
    let mut spec = FiltersSpec { filters: Vec::new(), keyed: true, other_bucket_key: None };
    let mut other_bucket = None;
    let mut has_filters = false;
    for (k, v) in o {
        match k.as_str() {
            "filters" => {
                has_filters = true;
                match v {
                    Value::Object(named) => {
                        for (fname, q) in named {
                            spec.filters.push((Some(fname.clone()), DslParser::new(raw).parse(q)?));
                        }
                    }
                    Value::Array(list) => {
                        spec.keyed = false;
                        for q in list {
                            spec.filters.push((None, DslParser::new(raw).parse(q)?));
                        }
                    }
                    _ => return Err(parse_err(format!("[{t}] failed to parse field [filters]"))),
                }
            }
            "other_bucket" => other_bucket = Some(bool_field(t, k, v)?),
            "other_bucket_key" => {
                spec.other_bucket_key = Some(string_of(t, k, v)?);
                other_bucket.get_or_insert(true);
            }
            _ => return Err(unknown_field(t, k)),
        }
    }
    if !has_filters {
        return Err(Error::illegal_argument("[filters] cannot be null"));
    }
    spec.other_bucket_key = match other_bucket {
        Some(true) => Some(spec.other_bucket_key.unwrap_or_else(|| "_other_".to_string())),
        _ => None,
    };
    Ok(spec)
}

fn parse_top_hits(o: &Map<String, Value>) -> Result<TopHitsSpec> {
    let t = "top_hits";
    let mut spec = TopHitsSpec {
        from: 0,
        size: 3,
        sort: Vec::new(),
        source: SourceFilter::default(),
        version: false,
        seq_no_primary_term: false,
        explain: false,
        track_scores: false,
        docvalue_fields: Vec::new(),
    };
    for (k, v) in o {
        match k.as_str() {
            "from" => spec.from = int_of(t, k, v)?.max(0) as usize,
            "size" => spec.size = int_of(t, k, v)?.max(0) as usize,
            "sort" => spec.sort = parse_sort(v)?,
            "_source" => spec.source = SourceFilter::from_json(v).map_err(parse_err)?,
            "version" => spec.version = bool_field(t, k, v)?,
            "seq_no_primary_term" => spec.seq_no_primary_term = bool_field(t, k, v)?,
            "explain" => spec.explain = bool_field(t, k, v)?,
            "track_scores" => spec.track_scores = bool_field(t, k, v)?,
            "docvalue_fields" => {
                spec.docvalue_fields = match v {
                    Value::Array(a) => a
                        .iter()
                        .map(|x| match x {
                            Value::String(s) => Ok(s.clone()),
                            Value::Object(f) => f
                                .get("field")
                                .and_then(Value::as_str)
                                .map(str::to_string)
                                .ok_or_else(|| parse_err("[docvalue_fields] expects a field name")),
                            _ => Err(parse_err("[docvalue_fields] expects a field name")),
                        })
                        .collect::<Result<_>>()?,
                    Value::String(s) => vec![s.clone()],
                    _ => return Err(parse_err("[docvalue_fields] expects a field name")),
                }
            }
            "highlight" | "stored_fields" | "script_fields" => {
                return Err(Error::illegal_argument(format!("[top_hits] option [{k}] is not supported")))
            }
            _ => return Err(parse_err(format!("Unknown key for a {} in [{k}].", token_name(v)))),
        }
    }
    Ok(spec)
}

fn parse_metric(name: &str, t: &str, o: &Map<String, Value>) -> Result<MetricSpec> {
    let mut field = FieldSpec::default();
    let mut sigma = 2.0;
    let mut percents = vec![1.0, 5.0, 25.0, 50.0, 75.0, 95.0, 99.0];
    let mut keyed = true;
    // `percentile_ranks`' `values`: required, sorted as ES's builder sorts them.
    let mut rank_values: Option<Vec<f64>> = None;
    let mut hdr = false;
    for (k, v) in o {
        if field_key(t, k, v, &mut field)? {
            continue;
        }
        match (t, k.as_str()) {
            ("percentile_ranks", "values") => {
                let Value::Array(a) = v else {
                    return Err(parse_err(format!("[{t}] {k} doesn't support values of type: {}", token_name(v))));
                };
                rank_values = Some(a.iter().map(|x| f64_of(t, k, x)).collect::<Result<_>>()?);
            }
            ("percentile_ranks", "keyed") => keyed = bool_field(t, k, v)?,
            ("percentile_ranks", "tdigest") => {}
            ("percentile_ranks" | "percentiles", "hdr") => {
                check_hdr_options(t, name, v)?;
                hdr = true;
            }
            ("median_absolute_deviation", "compression") => {
                let c = f64_of(t, k, v)?;
                if c <= 0.0 {
                    return Err(Error::illegal_argument(format!(
                        "[compression] must be greater than 0. Found [{}] in [{name}]",
                        crate::json_value::java_double(c)
                    )));
                }
            }
            ("extended_stats", "sigma") => {
                sigma = f64_of(t, k, v)?;
                if sigma < 0.0 {
                    // A Java double, printed as Java prints it (`-1.0`).
                    return Err(Error::illegal_argument(format!(
                        "[sigma] must be greater than or equal to 0. Found [{}] in [{name}]",
                        crate::json_value::java_double(sigma)
                    )));
                }
            }
            ("cardinality", "precision_threshold") => {
                // Checked as ES's setter checks it; `cardinality` counts exactly here (README).
                let threshold = int_of(t, k, v)?;
                if threshold < 0 {
                    return Err(Error::illegal_argument(format!(
                        "[precisionThreshold] must be greater than or equal to 0. Found [{threshold}] in [{name}]"
                    )));
                }
            }
            ("cardinality", "rehash") => {}
            ("percentiles", "percents") => {
                let Value::Array(a) = v else {
                    return Err(parse_err(format!("[{t}] failed to parse field [percents]")));
                };
                percents = a.iter().map(|x| f64_of(t, k, x)).collect::<Result<_>>()?;
                if percents.is_empty() {
                    return Err(Error::illegal_argument(format!("[percents] must not be empty: [{name}]")));
                }
                if let Some(bad) = percents.iter().find(|p| !(0.0..=100.0).contains(*p)) {
                    return Err(Error::illegal_argument(format!("percent must be in [0,100], got [{bad}]")));
                }
            }
            ("percentiles", "keyed") => keyed = bool_field(t, k, v)?,
            ("percentiles", "tdigest" | "compression") => {
                // The percentiles are exact whatever the compression, but ES refuses a
                // negative one.
                let compression = match v {
                    Value::Object(m) => m.get("compression"),
                    other => Some(other),
                };
                if let Some(c) = compression {
                    let c = f64_of(t, "compression", c)?;
                    if c < 0.0 {
                        return Err(Error::illegal_argument(format!(
                            "[compression] must be greater than or equal to 0. Found [{}] in [{name}]",
                            crate::json_value::java_double(c)
                        )));
                    }
                }
            }
            _ => return Err(unknown_field(t, k)),
        }
    }
    let rank_values = match (t, rank_values) {
        ("percentile_ranks", None) => return Err(Error::illegal_argument("Required [values]")),
        ("percentile_ranks", Some(v)) if v.is_empty() => {
            return Err(Error::illegal_argument(format!("[values] must not be an empty array: [{name}]")))
        }
        (_, Some(mut v)) => {
            v.sort_by(f64::total_cmp);
            v
        }
        (_, None) => Vec::new(),
    };
    require_field(&field)?;
    if hdr {
        return Err(refuse_hdr(t, name));
    }
    let kind = match t {
        "percentile_ranks" => MetricKind::PercentileRanks(rank_values, keyed),
        "median_absolute_deviation" => MetricKind::MedianAbsoluteDeviation,
        "value_count" => MetricKind::ValueCount,
        "cardinality" => MetricKind::Cardinality,
        "min" => MetricKind::Min,
        "max" => MetricKind::Max,
        "avg" => MetricKind::Avg,
        "sum" => MetricKind::Sum,
        "stats" => MetricKind::Stats,
        "extended_stats" => MetricKind::ExtendedStats(sigma),
        _ => MetricKind::Percentiles(percents, keyed),
    };
    Ok(MetricSpec { kind, field })
}

fn parse_composite(name: &str, o: &Map<String, Value>) -> Result<CompositeSpec> {
    let t = "composite";
    let mut spec = CompositeSpec { size: 10, sources: Vec::new(), after: None };
    let mut after: Option<&Map<String, Value>> = None;
    for (k, v) in o {
        match k.as_str() {
            "size" => {
                let n = int_of(t, k, v)?;
                if n <= 0 {
                    return Err(Error::illegal_argument(format!(
                        "[size] must be greater than 0. Found [{n}] in [{name}]"
                    )));
                }
                spec.size = n as usize;
            }
            "after" => {
                let Value::Object(a) = v else {
                    return Err(parse_err(format!("[{t}] failed to parse field [after]")));
                };
                after = Some(a);
            }
            "sources" => {
                let Value::Array(list) = v else {
                    return Err(parse_err(format!("[{t}] failed to parse field [sources]")));
                };
                for item in list {
                    let Some((sname, def)) = item.as_object().filter(|m| m.len() == 1).and_then(|m| m.iter().next())
                    else {
                        return Err(parse_err("[sources] expects an object with a single source per entry"));
                    };
                    spec.sources.push(parse_composite_source(sname, def)?);
                }
            }
            _ => return Err(unknown_field(t, k)),
        }
    }
    if spec.sources.is_empty() {
        return Err(Error::illegal_argument("Composite [sources] cannot be null or empty"));
    }
    let mut seen = HashSet::new();
    for s in &spec.sources {
        if !seen.insert(s.name.as_str()) {
            return Err(Error::illegal_argument(format!(
                "Composite source names must be unique, found duplicates: [{}]",
                s.name
            )));
        }
    }
    if let Some(after) = after {
        if after.len() != spec.sources.len() || spec.sources.iter().any(|s| !after.contains_key(&s.name)) {
            return Err(Error::illegal_argument(format!(
                "[after] has {} value(s) but [sources] has {}",
                after.len(),
                spec.sources.len()
            )));
        }
        spec.after = Some(spec.sources.iter().map(|s| UnresolvedValue::from_json(&after[&s.name])).collect());
    }
    Ok(spec)
}

fn parse_composite_source(name: &str, def: &Value) -> Result<CompositeSource> {
    let Some((t, body)) = def.as_object().filter(|m| m.len() == 1).and_then(|m| m.iter().next()) else {
        return Err(parse_err(format!("[{name}] expects one values source: terms, histogram or date_histogram")));
    };
    let Value::Object(o) = body else {
        return Err(parse_err(format!(
            "Expected [START_OBJECT] under [{t}], but got a [{}] in [{name}]",
            token_name(body)
        )));
    };
    let mut field = FieldSpec::default();
    let mut asc = true;
    let mut missing_bucket = false;
    let mut interval: Option<Value> = None;
    let mut tz = None;
    for (k, v) in o {
        match k.as_str() {
            "field" => field.field = string_of(t, k, v)?,
            "format" => field.format = Some(string_of(t, k, v)?),
            "order" => {
                asc = match v.as_str() {
                    Some("asc") => true,
                    Some("desc") => false,
                    _ => return Err(Error::illegal_argument(format!("Unknown order direction [{v}]"))),
                }
            }
            "missing_bucket" => missing_bucket = bool_field(t, k, v)?,
            "missing" => {
                return Err(Error::illegal_argument(format!(
                    "[missing] is not supported in composite source [{name}]; use [missing_bucket]"
                )))
            }
            "script" => field.script = Some(std::sync::Arc::new(crate::script::Script::parse(v)?)),
            "value_type" => {
                let name = string_of(t, k, v)?;
                field.value_type = Some(
                    ValueType::parse(&name)
                        .ok_or_else(|| Error::illegal_argument(format!("Unknown value type [{name}] in [{t}]")))?,
                );
            }
            "interval" | "calendar_interval" | "fixed_interval" if t != "terms" => interval = Some(v.clone()),
            "time_zone" if t == "date_histogram" => tz = Some(parse_time_zone(v)?),
            _ => return Err(unknown_field(t, k)),
        }
    }
    if field.field.is_empty() && field.script.is_none() {
        return Err(Error::illegal_argument("Required one of fields [field, script], but none were specified. "));
    }
    let kind = match t.as_str() {
        "terms" => CompositeKind::Terms,
        "histogram" => {
            let i = interval.as_ref().map(|v| f64_of(t, "interval", v)).transpose()?.unwrap_or(0.0);
            if i <= 0.0 {
                return Err(Error::illegal_argument(format!(
                    "[interval] must be greater than 0 for [histogram] source [{name}]"
                )));
            }
            CompositeKind::Histogram(i)
        }
        "date_histogram" => {
            let Some(iv) = interval else {
                return Err(Error::illegal_argument("Invalid interval specified, must be non-null and non-empty"));
            };
            let tz = match tz {
                Some(z) => z,
                None => TimeZone::parse("UTC").map_err(|e| Error::illegal_argument(e.message))?,
            };
            CompositeKind::DateHistogram(parse_date_interval(&iv)?, tz)
        }
        other => {
            return Err(parse_err(format!(
                "Could not find a values source of type [{other}] in composite source [{name}]"
            )))
        }
    };
    Ok(CompositeSource { name: name.to_string(), kind, field, asc, missing_bucket })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn field_spec(agg: &Value) -> FieldSpec {
        let nodes = parse_aggs(agg, &agg.to_string()).unwrap();
        match &nodes[0].kind {
            AggKind::Terms(t) => t.field.clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_missing_value_is_a_scalar_and_null_is_none() {
        let f = field_spec(&json!({"t": {"terms": {"field": "f", "missing": 7}}}));
        assert_eq!(f.missing, Some(Scalar::Long(7)));
        let f = field_spec(&json!({"t": {"terms": {"field": "f", "missing": null}}}));
        assert_eq!(f.missing, None);
        let agg = json!({"t": {"terms": {"field": "f", "missing": {"a": 1}}}});
        let e = parse_aggs(&agg, &agg.to_string()).unwrap_err();
        assert_eq!(e.reason(), "[terms] missing doesn't support values of type: START_OBJECT");
    }

    #[test]
    fn hdr_options_are_checked_then_the_method_refused() {
        let parse = |agg: Value| parse_aggs(&agg, &agg.to_string());
        for (t, extra) in [("percentiles", json!({})), ("percentile_ranks", json!({"values": [1]}))] {
            let with_hdr = |hdr: Value| {
                let mut body = extra.clone();
                body["field"] = json!("n");
                body["hdr"] = hdr;
                json!({"p": {t: body}})
            };
            // Valid options pass ES's checks, then the method is refused by name.
            let refused = format!("[hdr] of [{t}] aggregation [p] is not supported by metagate: it computes percentiles as ES's [tdigest] method does");
            for ok in [json!({"number_of_significant_value_digits": 5}), json!({})] {
                assert_eq!(parse(with_hdr(ok)).unwrap_err().reason(), refused);
            }
            for bad in [-1, 6] {
                let e = parse(with_hdr(json!({"number_of_significant_value_digits": bad}))).unwrap_err();
                assert_eq!(e.reason(), "[numberOfSignificantValueDigits] must be between 0 and 5: [p]");
            }
            let e = parse(with_hdr(json!({"number_of_significant_value_digits": null}))).unwrap_err();
            assert_eq!(e.status, 400, "{}", e.reason());
            let e = parse(with_hdr(json!({"digits": 3}))).unwrap_err();
            assert_eq!(e.reason(), "[hdr] unknown field [digits], parser not found");
        }
    }

    #[test]
    fn composite_after_is_typed_in_the_sources_order() {
        let agg = json!({"c": {"composite": {
            "after": {"b": [1, "x"], "a": 1.5},
            "sources": [{"a": {"terms": {"field": "x"}}}, {"b": {"terms": {"field": "y"}}}]
        }}});
        let nodes = parse_aggs(&agg, &agg.to_string()).unwrap();
        let AggKind::Composite(c) = &nodes[0].kind else { panic!("{:?}", nodes[0].kind) };
        let after = c.after.as_deref().unwrap();
        assert_eq!(after, [UnresolvedValue::Scalar(Scalar::Double(1.5)), UnresolvedValue::Other("[1,\"x\"]".into())]);
        // The texts ES quotes in `Invalid value for [after.<source>]`.
        assert_eq!(after.iter().map(UnresolvedValue::json_text).collect::<Vec<_>>(), ["1.5", "[1,\"x\"]"]);
    }

    #[test]
    fn date_histogram_bounds_are_typed_and_a_missing_bound_is_null() {
        let agg = json!({"d": {"date_histogram": {
            "field": "f", "interval": "day", "extended_bounds": {"min": "now-1d", "max": {"a": 1}}
        }}});
        let nodes = parse_aggs(&agg, &agg.to_string()).unwrap();
        let AggKind::DateHistogram(d) = &nodes[0].kind else { panic!("{:?}", nodes[0].kind) };
        let (lo, hi) = d.extended_bounds.clone().unwrap();
        assert_eq!(lo, UnresolvedValue::Scalar(Scalar::Text("now-1d".into())));
        assert_eq!(hi, UnresolvedValue::Other("{\"a\":1}".into()));
        let agg = json!({"d": {"date_histogram": {"field": "f", "interval": "day", "extended_bounds": {"max": 5}}}});
        let nodes = parse_aggs(&agg, &agg.to_string()).unwrap();
        let AggKind::DateHistogram(d) = &nodes[0].kind else { panic!("{:?}", nodes[0].kind) };
        assert_eq!(
            d.extended_bounds,
            Some((UnresolvedValue::Scalar(Scalar::Null), UnresolvedValue::Scalar(Scalar::Long(5))))
        );
    }
}
