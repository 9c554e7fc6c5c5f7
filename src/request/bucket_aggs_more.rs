//! `adjacency_matrix`, `sampler` and `auto_date_histogram`, parsed with ES 6.8's errors.

use super::aggs::{field_key, int_of, parse_err, parse_time_zone, require_field, string_of, unknown_field, FieldSpec};
use crate::date::TimeZone;
use crate::error::{Error, Exception, Result};
use crate::query::dsl::DslParser;
use crate::query::Query;
use serde_json::{Map, Value};

/// `adjacency_matrix`.
#[derive(Debug, Clone)]
pub struct AdjacencySpec {
    /// The named filters, sorted by name as ES's builder sorts them.
    pub filters: Vec<(String, Query)>,
    /// Joins two names in the key of an intersection (`&`).
    pub separator: String,
}

/// Parses the body of an `adjacency_matrix`.
pub fn parse_adjacency(name: &str, o: &Map<String, Value>, raw: &str) -> Result<AdjacencySpec> {
    let t = "adjacency_matrix";
    let mut spec = AdjacencySpec { filters: Vec::new(), separator: "&".into() };
    for (k, v) in o {
        match k.as_str() {
            "filters" => {
                let Value::Object(named) = v else {
                    return Err(parse_err(format!("[{t}] failed to parse field [filters]")));
                };
                for (fname, q) in named {
                    spec.filters.push((fname.clone(), DslParser::new(raw).parse(q)?));
                }
            }
            "separator" => spec.separator = string_of(t, k, v)?,
            _ => return Err(unknown_field(t, k)),
        }
    }
    if spec.filters.is_empty() {
        // ES's checkConsistency: an IllegalStateException.
        return Err(Error::new(
            500,
            Exception::new("illegal_state_exception", format!("[{name}] is missing : filters parameter")),
        ));
    }
    spec.filters.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(spec)
}

/// Parses the body of a `sampler`: its `shard_size` (100 by default).
pub fn parse_sampler(o: &Map<String, Value>) -> Result<usize> {
    let t = "sampler";
    let mut shard_size = 100;
    for (k, v) in o {
        match k.as_str() {
            "shard_size" => shard_size = int_of(t, k, v)?.max(0) as usize,
            _ => return Err(unknown_field(t, k)),
        }
    }
    Ok(shard_size)
}

/// `diversified_sampler`.
#[derive(Debug, Clone)]
pub struct DiversifiedSamplerSpec {
    /// The field whose values diversify the sample.
    pub field: FieldSpec,
    /// Documents sampled per index.
    pub shard_size: usize,
    /// Most sampled documents sharing a value.
    pub max_docs_per_value: usize,
}

/// Parses the body of a `diversified_sampler`.
pub fn parse_diversified_sampler(o: &Map<String, Value>) -> Result<DiversifiedSamplerSpec> {
    let t = "diversified_sampler";
    let mut spec = DiversifiedSamplerSpec { field: FieldSpec::default(), shard_size: 100, max_docs_per_value: 1 };
    for (k, v) in o {
        match k.as_str() {
            "field" => {
                field_key(t, k, v, &mut spec.field)?;
            }
            "shard_size" => spec.shard_size = int_of(t, k, v)?.max(0) as usize,
            "max_docs_per_value" => spec.max_docs_per_value = int_of(t, k, v)?.max(0) as usize,
            "execution_hint" => {
                string_of(t, k, v)?;
            }
            _ => return Err(unknown_field(t, k)),
        }
    }
    require_field(&spec.field)?;
    Ok(spec)
}

/// `auto_date_histogram`.
#[derive(Debug, Clone)]
pub struct AutoDateHistogramSpec {
    /// The field, `missing` and `format`.
    pub field: FieldSpec,
    /// The most buckets wanted.
    pub buckets: usize,
    /// Fixed time zone of the roundings.
    pub time_zone: Option<TimeZone>,
}

/// Parses the body of an `auto_date_histogram`.
pub fn parse_auto_date_histogram(name: &str, o: &Map<String, Value>) -> Result<AutoDateHistogramSpec> {
    let t = "auto_date_histogram";
    let mut spec = AutoDateHistogramSpec { field: FieldSpec::default(), buckets: 10, time_zone: None };
    for (k, v) in o {
        if field_key(t, k, v, &mut spec.field)? {
            continue;
        }
        match k.as_str() {
            "buckets" => {
                let n = int_of(t, k, v)?;
                if n <= 0 {
                    return Err(Error::illegal_argument(format!("buckets must be greater than 0 for [{name}]")));
                }
                spec.buckets = n as usize;
            }
            "time_zone" => spec.time_zone = Some(parse_time_zone(v)?),
            _ => return Err(unknown_field(t, k)),
        }
    }
    require_field(&spec.field)?;
    Ok(spec)
}
