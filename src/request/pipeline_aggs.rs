//! Pipeline aggregations (`derivative`, `cumulative_sum`, `serial_diff`, `moving_avg`,
//! `moving_fn`, `bucket_script`, `bucket_selector`, `bucket_sort` and the `*_bucket`
//! siblings) parsed as ES 6.8's parsers read them, with their texts. They compute over
//! other aggregations' results, not documents: `search/aggs/pipeline/` runs them once
//! the aggregations they name are rendered.

use crate::error::{Error, Result};
use crate::json_value::token_name;
use crate::script::Script;
use serde_json::{Map, Value};
use std::sync::Arc;

/// How a bucket without a value (no documents, or a metric without a value) counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GapPolicy {
    /// `skip`: the bucket is left out of the computation.
    Skip,
    /// `insert_zeros`: the bucket counts as 0.
    InsertZeros,
}

impl GapPolicy {
    fn parse(text: &str) -> Result<GapPolicy> {
        match text {
            "skip" => Ok(GapPolicy::Skip),
            "insert_zeros" => Ok(GapPolicy::InsertZeros),
            _ => Err(parse_err(format!("Invalid gap policy: [{text}], accepted values: [insert_zeros, skip]"))),
        }
    }
}

/// One element of a `buckets_path`: an aggregation name (or `_count`, `_key`, a metric
/// name) and the `[key]` written after it.
#[derive(Debug, Clone, PartialEq)]
pub struct PathElement {
    /// The name.
    pub name: String,
    /// The bracketed key, when there is one.
    pub key: Option<String>,
}

/// A parsed `buckets_path` (ES's `AggregationPath`): `agg>agg>metric.value`,
/// `agg>percentiles[99.9]`, `_count`.
#[derive(Debug, Clone, PartialEq)]
pub struct BucketsPath {
    /// The path as written.
    pub text: String,
    /// Its elements, `>`-separated, the last split at its last `.` or `[`.
    pub elements: Vec<PathElement>,
}

impl BucketsPath {
    /// Parses a path as ES's `AggregationPath.parse` does, with its errors.
    pub fn parse(text: &str) -> Result<BucketsPath> {
        let invalid = |el: &str| {
            Error::new(
                500,
                crate::error::Exception::new(
                    "aggregation_execution_exception",
                    format!("Invalid path element [{el}] in path [{text}]"),
                ),
            )
        };
        // Spring's tokenizeToStringArray: trimmed tokens, empty ones dropped.
        let parts: Vec<&str> = text.split('>').map(str::trim).filter(|s| !s.is_empty()).collect();
        let mut elements = Vec::with_capacity(parts.len() + 1);
        for (i, el) in parts.iter().enumerate() {
            let last = i == parts.len() - 1;
            if let Some(open) = el.rfind('[') {
                if open == 0 || open + 3 > el.len() || !el.ends_with(']') {
                    return Err(invalid(el));
                }
                elements.push(PathElement {
                    name: el[..open].to_string(),
                    key: Some(el[open + 1..el.len() - 1].to_string()),
                });
                continue;
            }
            if last {
                if let Some(dot) = el.rfind('.') {
                    if dot == 0 || dot + 2 > el.len() {
                        return Err(invalid(el));
                    }
                    elements.push(PathElement { name: el[..dot].to_string(), key: Some(el[dot + 1..].to_string()) });
                    continue;
                }
            }
            elements.push(PathElement { name: el.to_string(), key: None });
        }
        if elements.is_empty() {
            return Err(Error::illegal_argument(format!("Invalid path [{text}]")));
        }
        Ok(BucketsPath { text: text.to_string(), elements })
    }

    /// The path as the list of strings ES resolves properties with (each name, then its key).
    pub fn strings(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.elements.len() * 2);
        for e in &self.elements {
            out.push(e.name.clone());
            if let Some(k) = &e.key {
                out.push(k.clone());
            }
        }
        out
    }
}

/// The models of `moving_avg`.
#[derive(Debug, Clone, PartialEq)]
pub enum MovAvgModel {
    /// `simple`: the mean of the window.
    Simple,
    /// `linear`: weights growing linearly with recency.
    Linear,
    /// `ewma` with its `alpha`.
    Ewma { alpha: f64 },
    /// `holt` with `alpha` and `beta`.
    Holt { alpha: f64, beta: f64 },
    /// `holt_winters`.
    HoltWinters {
        /// Level smoothing.
        alpha: f64,
        /// Trend smoothing.
        beta: f64,
        /// Seasonality smoothing.
        gamma: f64,
        /// Season length in buckets.
        period: usize,
        /// `type: mult` (else additive).
        multiplicative: bool,
        /// `pad`: add a tiny value to multiplicative data (zeros would divide by zero).
        pad: bool,
    },
}

/// What a `*_bucket` sibling aggregation computes over the buckets' values.
#[derive(Debug, Clone, PartialEq)]
pub enum BucketMetric {
    /// `avg_bucket`.
    Avg,
    /// `max_bucket`.
    Max,
    /// `min_bucket`.
    Min,
    /// `sum_bucket`.
    Sum,
    /// `stats_bucket`.
    Stats,
    /// `extended_stats_bucket` with its `sigma`.
    ExtendedStats { sigma: f64 },
    /// `percentiles_bucket`.
    Percentiles { percents: Vec<f64>, keyed: bool },
}

/// A `bucket_sort` criterion: a `buckets_path` (or `_key`) and its direction.
#[derive(Debug, Clone, PartialEq)]
pub struct BucketSortKey {
    /// The path sorted on.
    pub path: String,
    /// Ascending.
    pub asc: bool,
}

/// The pipeline aggregation types.
#[derive(Debug, Clone)]
pub enum PipelineKind {
    /// `derivative`; `unit` as milliseconds, when given.
    Derivative { unit_ms: Option<f64> },
    /// `cumulative_sum`.
    CumulativeSum,
    /// `serial_diff` with its `lag`.
    SerialDiff { lag: usize },
    /// `moving_avg`.
    MovingAvg { model: MovAvgModel, window: usize, predict: usize },
    /// `moving_fn`: the script sees the `window` values before each bucket.
    MovingFn { window: usize, script: Arc<Script> },
    /// `bucket_script`: a value per bucket from the named values.
    BucketScript(Arc<Script>),
    /// `bucket_selector`: keeps the buckets the script accepts.
    BucketSelector(Arc<Script>),
    /// `bucket_sort`.
    BucketSort { sort: Vec<BucketSortKey>, from: usize, size: Option<usize> },
    /// A `*_bucket` sibling aggregation.
    Sibling(BucketMetric),
}

impl PipelineKind {
    /// Whether it runs over the buckets of its parent (else over a sibling's buckets).
    pub fn is_parent(&self) -> bool {
        !matches!(self, PipelineKind::Sibling(_))
    }
}

/// One pipeline aggregation.
#[derive(Debug, Clone)]
pub struct PipelineSpec {
    /// Its type name as written (`derivative`, `max_bucket`, ...).
    pub type_name: String,
    /// What it computes.
    pub kind: PipelineKind,
    /// `buckets_path`: (variable name, path). Single-path types name their one path `_value`.
    pub paths: Vec<(String, BucketsPath)>,
    /// `gap_policy`.
    pub gap_policy: GapPolicy,
    /// `format`: a Java DecimalFormat pattern for `value_as_string`.
    pub format: Option<String>,
}

/// The type names parsed here.
pub const PIPELINE_TYPES: &[&str] = &[
    "derivative",
    "cumulative_sum",
    "serial_diff",
    "moving_avg",
    "moving_fn",
    "bucket_script",
    "bucket_selector",
    "bucket_sort",
    "avg_bucket",
    "max_bucket",
    "min_bucket",
    "sum_bucket",
    "stats_bucket",
    "extended_stats_bucket",
    "percentiles_bucket",
];

fn parse_err(reason: impl Into<String>) -> Error {
    Error::parsing_no_pos(reason)
}

fn unknown_key(name: &str, k: &str, v: &Value) -> Error {
    parse_err(format!("Unknown key for a {} in [{name}]: [{k}].", token_name(v)))
}

fn number(name: &str, k: &str, v: &Value) -> Result<f64> {
    match v {
        Value::Number(n) => Ok(n.as_f64().unwrap_or(0.0)),
        _ => Err(unknown_key(name, k, v)),
    }
}

fn integer(name: &str, k: &str, v: &Value) -> Result<i64> {
    match v {
        Value::Number(n) => Ok(n.as_i64().unwrap_or_else(|| n.as_f64().unwrap_or(0.0) as i64)),
        _ => Err(unknown_key(name, k, v)),
    }
}

fn text<'v>(name: &str, k: &str, v: &'v Value) -> Result<&'v str> {
    v.as_str().ok_or_else(|| unknown_key(name, k, v))
}

/// Parses the body of pipeline aggregation `t` named `name`.
pub fn parse(name: &str, t: &str, o: &Map<String, Value>) -> Result<PipelineSpec> {
    let mut paths: Option<Vec<(String, BucketsPath)>> = None;
    let mut gap_policy = None;
    let mut format = None;
    let mut unit = None;
    let mut lag = 1i64;
    let mut window: Option<i64> = None;
    let mut predict = 0i64;
    let mut model_name = "simple".to_string();
    let mut settings: Option<&Map<String, Value>> = None;
    let mut minimize = false;
    let mut script = None;
    let mut sort = Vec::new();
    let mut from = 0i64;
    let mut size = None;
    let mut sigma = 2.0;
    let mut percents = vec![1.0, 5.0, 25.0, 50.0, 75.0, 95.0, 99.0];
    let mut keyed = true;
    let multi_paths = matches!(t, "bucket_script" | "bucket_selector");
    for (k, v) in o {
        match (t, k.as_str()) {
            (_, "buckets_path") if t != "bucket_sort" => {
                paths = Some(match v {
                    Value::String(s) => vec![("_value".to_string(), BucketsPath::parse(s)?)],
                    Value::Array(a) => a
                        .iter()
                        .enumerate()
                        .map(|(i, p)| {
                            let s = p.as_str().ok_or_else(|| unknown_key(name, k, p))?;
                            Ok((
                                if multi_paths { format!("_value{i}") } else { "_value".into() },
                                BucketsPath::parse(s)?,
                            ))
                        })
                        .collect::<Result<_>>()?,
                    Value::Object(m) if multi_paths => m
                        .iter()
                        .map(|(var, p)| {
                            let s = p.as_str().ok_or_else(|| unknown_key(name, k, p))?;
                            Ok((var.clone(), BucketsPath::parse(s)?))
                        })
                        .collect::<Result<_>>()?,
                    _ => return Err(unknown_key(name, k, v)),
                });
            }
            (_, "gap_policy") if t != "cumulative_sum" => gap_policy = Some(GapPolicy::parse(text(name, k, v)?)?),
            (_, "format") if t != "bucket_selector" && t != "bucket_sort" => {
                format = Some(text(name, k, v)?.to_string())
            }
            ("derivative", "unit") => unit = Some(text(name, k, v)?.to_string()),
            ("serial_diff", "lag") => {
                lag = integer(name, k, v)?;
                if lag <= 0 {
                    return Err(parse_err(format!(
                        "Lag must be a positive, non-zero integer.  Value supplied was{lag} in [{name}]: [lag]."
                    )));
                }
            }
            ("moving_avg" | "moving_fn", "window") => window = Some(integer(name, k, v)?),
            ("moving_avg", "predict") => {
                predict = integer(name, k, v)?;
                if predict <= 0 {
                    return Err(Error::illegal_argument(format!(
                        "predict must be greater than 0. Found [{predict}] in [{name}]"
                    )));
                }
            }
            ("moving_avg", "model") => model_name = text(name, k, v)?.to_string(),
            ("moving_avg", "settings") => {
                settings = Some(v.as_object().ok_or_else(|| unknown_key(name, k, v))?);
            }
            ("moving_avg", "minimize") => minimize = v.as_bool().ok_or_else(|| unknown_key(name, k, v))?,
            ("moving_fn" | "bucket_script" | "bucket_selector", "script") => script = Some(Arc::new(Script::parse(v)?)),
            ("bucket_sort", "sort") => sort = parse_sort(name, v)?,
            ("bucket_sort", "from") => {
                from = integer(name, k, v)?;
                if from < 0 {
                    return Err(Error::illegal_argument(format!("[from] must be a non-negative integer: [{from}]")));
                }
            }
            ("bucket_sort", "size") => {
                let n = integer(name, k, v)?;
                if n <= 0 {
                    return Err(Error::illegal_argument(format!("[size] must be a positive integer: [{n}]")));
                }
                size = Some(n as usize);
            }
            ("extended_stats_bucket", "sigma") => {
                sigma = number(name, k, v)?;
                if sigma < 0.0 {
                    return Err(Error::illegal_argument("sigma must be a non-negative double"));
                }
            }
            ("percentiles_bucket", "percents") => {
                let Value::Array(a) = v else { return Err(unknown_key(name, k, v)) };
                percents = a.iter().map(|p| number(name, k, p)).collect::<Result<_>>()?;
                if percents.iter().any(|p| !(0.0..=100.0).contains(p)) {
                    return Err(Error::illegal_argument(
                        "percents must only contain non-null doubles from 0.0-100.0 inclusive",
                    ));
                }
            }
            ("percentiles_bucket", "keyed") => keyed = v.as_bool().ok_or_else(|| unknown_key(name, k, v))?,
            // BucketMetricsParser's own text for what its types do not read.
            _ if t.ends_with("_bucket") => {
                return Err(parse_err(format!("Unexpected token {} [{k}] in [{name}]", token_name(v))))
            }
            _ => return Err(unknown_key(name, k, v)),
        }
    }
    let paths = match paths {
        Some(p) => p,
        None if t == "bucket_sort" => Vec::new(),
        None => {
            let what = match t {
                "avg_bucket"
                | "max_bucket"
                | "min_bucket"
                | "sum_bucket"
                | "stats_bucket"
                | "extended_stats_bucket"
                | "percentiles_bucket" => String::new(),
                "bucket_script" => "series_arithmetic ".into(),
                // SerialDiffPipelineAggregationBuilder's parser names itself so.
                "serial_diff" => "derivative ".into(),
                other => format!("{other} "),
            };
            return Err(parse_err(format!("Missing required field [buckets_path] for {what}aggregation [{name}]")));
        }
    };
    let gap_policy = gap_policy.unwrap_or(GapPolicy::Skip);
    let needs_script = |script: Option<Arc<Script>>, what: &str| {
        script.ok_or_else(|| parse_err(format!("Missing required field [script] for {what} aggregation [{name}]")))
    };
    let kind = match t {
        "derivative" => PipelineKind::Derivative { unit_ms: unit.map(|u| unit_millis(&u)).transpose()? },
        "cumulative_sum" => PipelineKind::CumulativeSum,
        "serial_diff" => PipelineKind::SerialDiff { lag: lag as usize },
        "moving_avg" => {
            crate::deprecation::warn(
                "The moving_avg aggregation has been deprecated in favor of the moving_fn aggregation.",
            );
            let window = window.unwrap_or(5);
            if window <= 0 {
                return Err(Error::illegal_argument(format!("[window] must be a positive integer: [{name}]")));
            }
            let model = parse_model(&model_name, settings)?;
            if minimize {
                if matches!(model, MovAvgModel::Simple | MovAvgModel::Linear) {
                    return Err(Error::illegal_argument(format!(
                        "The [{model_name}] model cannot be minimized for aggregation [{name}]"
                    )));
                }
                return Err(Error::illegal_argument(format!(
                    "[minimize] of moving_avg aggregation [{name}] is not supported by metagate: ES fits the model's settings by simulated annealing, which it cannot reproduce"
                )));
            }
            PipelineKind::MovingAvg { model, window: window as usize, predict: predict as usize }
        }
        "moving_fn" => {
            let script = needs_script(script, "moving_fn")?;
            let window = window.ok_or_else(|| parse_err("Required [window]"))?;
            if window <= 0 {
                return Err(Error::illegal_argument("[window] must be a positive, non-zero integer."));
            }
            PipelineKind::MovingFn { window: window as usize, script }
        }
        "bucket_script" => PipelineKind::BucketScript(needs_script(script, "series_arithmetic")?),
        "bucket_selector" => PipelineKind::BucketSelector(needs_script(script, "bucket_selector")?),
        "bucket_sort" => PipelineKind::BucketSort { sort, from: from as usize, size },
        "avg_bucket" => PipelineKind::Sibling(BucketMetric::Avg),
        "max_bucket" => PipelineKind::Sibling(BucketMetric::Max),
        "min_bucket" => PipelineKind::Sibling(BucketMetric::Min),
        "sum_bucket" => PipelineKind::Sibling(BucketMetric::Sum),
        "stats_bucket" => PipelineKind::Sibling(BucketMetric::Stats),
        "extended_stats_bucket" => PipelineKind::Sibling(BucketMetric::ExtendedStats { sigma }),
        _ => PipelineKind::Sibling(BucketMetric::Percentiles { percents, keyed }),
    };
    if let Some(f) = &format {
        crate::request::decimal_format::DecimalFormat::parse(f).map_err(Error::illegal_argument)?;
    }
    Ok(PipelineSpec { type_name: t.to_string(), kind, paths, gap_policy, format })
}

/// `bucket_sort`'s `sort`: field sorts as the search's `sort` takes them (a name, an
/// object of name to direction or to `{"order": ..}`, or an array of those).
fn parse_sort(name: &str, v: &Value) -> Result<Vec<BucketSortKey>> {
    let items: Vec<&Value> = match v {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    let mut out = Vec::new();
    for item in items {
        match item {
            Value::String(s) => out.push(BucketSortKey { path: s.clone(), asc: s != "_score" }),
            Value::Object(m) => {
                for (path, dir) in m {
                    let order = match dir {
                        Value::String(s) => s.as_str(),
                        Value::Object(o) => {
                            for key in o.keys() {
                                if key != "order" {
                                    return Err(parse_err(format!(
                                        "[field_sort] unknown field [{key}], parser not found"
                                    )));
                                }
                            }
                            o.get("order").and_then(Value::as_str).unwrap_or("asc")
                        }
                        _ => return Err(unknown_key(name, "sort", dir)),
                    };
                    let asc = match order {
                        "asc" => true,
                        "desc" => false,
                        other => {
                            return Err(Error::illegal_argument(format!(
                                "No enum constant org.elasticsearch.search.sort.SortOrder.{}",
                                other.to_uppercase()
                            )))
                        }
                    };
                    out.push(BucketSortKey { path: path.clone(), asc });
                }
            }
            other => return Err(unknown_key(name, "sort", other)),
        }
    }
    Ok(out)
}

/// A `derivative` `unit` in milliseconds: a date histogram unit name (`1d`, `day`, `month`
/// ...: its base duration) or a time value (`2h`).
fn unit_millis(unit: &str) -> Result<f64> {
    const DAY: f64 = 86_400_000.0;
    let named = match unit {
        "year" | "1y" => Some(31_556_952_000.0),
        "quarter" | "1q" => Some(7_889_238_000.0),
        "month" | "1M" => Some(2_629_746_000.0),
        "week" | "1w" => Some(7.0 * DAY),
        "day" | "1d" => Some(DAY),
        "hour" | "1h" => Some(3_600_000.0),
        "minute" | "1m" => Some(60_000.0),
        "second" | "1s" => Some(1_000.0),
        _ => None,
    };
    if let Some(ms) = named {
        return Ok(ms);
    }
    let lower = unit.trim().to_ascii_lowercase();
    let number_end = lower.find(|c: char| !c.is_ascii_digit()).unwrap_or(lower.len());
    let (n, suffix) = lower.split_at(number_end);
    let scale = match suffix {
        "nanos" => 1e-6,
        "micros" => 1e-3,
        "ms" => 1.0,
        "s" => 1_000.0,
        "m" => 60_000.0,
        "h" => 3_600_000.0,
        "d" => DAY,
        _ => {
            return Err(Error::new(
                400,
                crate::error::Exception::new(
                    "parse_exception",
                    format!("failed to parse setting [DerivativePipelineAggregationBuilder.unit] with value [{unit}] as a time value: unit is missing or unrecognized"),
                ),
            ))
        }
    };
    let n: i64 = n.parse().map_err(|_| {
        Error::new(400, crate::error::Exception::new("parse_exception", format!("failed to parse [{unit}]")))
    })?;
    // TimeValue keeps whole units of its own: the millis are truncated.
    Ok((n as f64 * scale).trunc())
}

/// A `moving_avg` model from its name and `settings`, with ES's defaults and checks.
fn parse_model(model: &str, settings: Option<&Map<String, Value>>) -> Result<MovAvgModel> {
    let empty = Map::new();
    let s = settings.unwrap_or(&empty);
    let mut used: Vec<&str> = Vec::new();
    let mut double = |key: &'static str, default: f64| -> Result<f64> {
        used.push(key);
        match s.get(key) {
            None => Ok(default),
            Some(Value::Number(n)) => {
                let v = n.as_f64().unwrap_or(0.0);
                if !(0.0..=1.0).contains(&v) {
                    return Err(Error::illegal_argument(format!(
                        "Parameter [{key}] must be between 0-1 inclusive.  Provided value was [{}]",
                        crate::json_value::java_double(v)
                    )));
                }
                Ok(v)
            }
            Some(other) => Err(Error::illegal_argument(format!(
                "Parameter [{key}] must be a double, type `{}` provided instead",
                token_name(other)
            ))),
        }
    };
    let m = match model {
        "simple" => MovAvgModel::Simple,
        "linear" => MovAvgModel::Linear,
        "ewma" => MovAvgModel::Ewma { alpha: double("alpha", 0.3)? },
        "holt" => MovAvgModel::Holt { alpha: double("alpha", 0.3)?, beta: double("beta", 0.1)? },
        "holt_winters" => {
            let alpha = double("alpha", 0.3)?;
            let beta = double("beta", 0.1)?;
            let gamma = double("gamma", 0.3)?;
            used.push("period");
            used.push("type");
            used.push("pad");
            let period = match s.get("period") {
                None => 1,
                Some(Value::Number(n)) => n.as_i64().unwrap_or(0),
                Some(other) => {
                    return Err(Error::illegal_argument(format!(
                        "Parameter [period] must be an integer, type `{}` provided instead",
                        token_name(other)
                    )))
                }
            };
            let multiplicative = match s.get("type").map(|v| v.as_str()) {
                None => false,
                Some(Some("add")) => false,
                Some(Some("mult")) => true,
                Some(other) => {
                    return Err(Error::illegal_argument(format!(
                        "Invalid seasonality type [{}] in [holt_winters] model",
                        other.unwrap_or_default()
                    )))
                }
            };
            let pad = match s.get("pad") {
                None => true,
                Some(Value::Bool(b)) => *b,
                Some(other) => {
                    return Err(Error::illegal_argument(format!(
                        "Parameter [pad] must be a boolean, type `{}` provided instead",
                        token_name(other)
                    )))
                }
            };
            if period <= 0 {
                return Err(Error::illegal_argument("[period] must be a positive integer"));
            }
            MovAvgModel::HoltWinters { alpha, beta, gamma, period: period as usize, multiplicative, pad }
        }
        other => {
            return Err(parse_err(format!(
                "Unknown model [{other}] specified.  Valid options are:[simple, linear, ewma, holt, holt_winters]"
            )))
        }
    };
    let unknown: Vec<&String> = s.keys().filter(|k| !used.contains(&k.as_str())).collect();
    if !unknown.is_empty() {
        let list = unknown.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ");
        return Err(Error::illegal_argument(format!("Unrecognized parameter(s): [{list}]")));
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_split_as_aggregation_path_does() {
        let p = BucketsPath::parse("sales_per_month>sales").unwrap();
        assert_eq!(p.strings(), ["sales_per_month", "sales"]);
        let p = BucketsPath::parse("the_stats.avg").unwrap();
        assert_eq!(p.strings(), ["the_stats", "avg"]);
        let p = BucketsPath::parse("h > load_time[99.9]").unwrap();
        assert_eq!(p.strings(), ["h", "load_time", "99.9"]);
        let p = BucketsPath::parse("a['x']>b").unwrap();
        assert_eq!(p.strings(), ["a", "'x'", "b"]);
        let e = BucketsPath::parse("a>.avg").unwrap_err();
        assert_eq!(e.reason(), "Invalid path element [.avg] in path [a>.avg]");
        let e = BucketsPath::parse("a[]").unwrap_err();
        assert_eq!(e.reason(), "Invalid path element [a[]] in path [a[]]");
    }

    #[test]
    fn parse_checks_required_fields_and_values() {
        let e = parse("d", "derivative", json!({}).as_object().unwrap()).unwrap_err();
        assert_eq!(e.reason(), "Missing required field [buckets_path] for derivative aggregation [d]");
        let e = parse("d", "max_bucket", json!({}).as_object().unwrap()).unwrap_err();
        assert_eq!(e.reason(), "Missing required field [buckets_path] for aggregation [d]");
        let e = parse("d", "derivative", json!({"buckets_path": "x", "gap_policy": "none"}).as_object().unwrap())
            .unwrap_err();
        assert_eq!(e.reason(), "Invalid gap policy: [none], accepted values: [insert_zeros, skip]");
        let e = parse("m", "moving_fn", json!({"buckets_path": "x", "window": -1, "script": "1"}).as_object().unwrap())
            .unwrap_err();
        assert_eq!(e.reason(), "[window] must be a positive, non-zero integer.");
        let s = parse(
            "b",
            "bucket_script",
            json!({"buckets_path": {"a": "x", "b": "y.avg"}, "script": "params.a"}).as_object().unwrap(),
        )
        .unwrap();
        assert_eq!(s.paths.iter().map(|(v, _)| v.as_str()).collect::<Vec<_>>(), ["a", "b"]);
    }

    #[test]
    fn derivative_units_are_date_units_or_time_values() {
        assert_eq!(unit_millis("1d").unwrap(), 86_400_000.0);
        assert_eq!(unit_millis("day").unwrap(), 86_400_000.0);
        assert_eq!(unit_millis("2h").unwrap(), 7_200_000.0);
        assert_eq!(unit_millis("1s").unwrap(), 1_000.0);
    }
}
