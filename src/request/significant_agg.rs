//! `significant_terms` and `significant_text` (ES 6.8's `SignificantTermsAggregationBuilder`
//! and `SignificantTextAggregationBuilder`): the field, the bucket thresholds, include and
//! exclude, the background filter and the significance heuristic, with ES's errors.

use super::aggs::{
    bool_field, field_key, int_of, no_scripts, parse_err, parse_term_filter, require_field, unknown_field, FieldSpec,
    TermFilter,
};
use crate::error::{Error, Result};
use crate::json_value::token_name;
use crate::query::dsl::DslParser;
use crate::query::Query;
use crate::script::Script;
use serde_json::{Map, Value};
use std::sync::Arc;

/// How a term's frequencies in the foreground and the background score it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Heuristic {
    /// `jlh` (the default).
    Jlh,
    /// `mutual_information`.
    MutualInformation {
        /// Whether terms rarer in the foreground than in the rest score too.
        include_negatives: bool,
        /// Whether the background holds the foreground.
        background_is_superset: bool,
    },
    /// `chi_square`.
    ChiSquare {
        /// As for `mutual_information`.
        include_negatives: bool,
        /// As for `mutual_information`.
        background_is_superset: bool,
    },
    /// `gnd` (Google normalized distance).
    Gnd {
        /// As for `mutual_information`.
        background_is_superset: bool,
    },
    /// `percentage`: foreground over background frequency.
    Percentage,
    /// `script_heuristic`: a Painless script ([`SignificantSpec::script`]) reading the four
    /// counts from `params`.
    Script,
}

/// `significant_terms` or `significant_text`.
#[derive(Debug, Clone)]
pub struct SignificantSpec {
    /// The field (`missing`, `format` too for `significant_terms`).
    pub field: FieldSpec,
    /// `significant_text`: the terms come from analysing `_source` text.
    pub text: Option<TextSource>,
    /// Buckets returned.
    pub size: usize,
    /// Candidates kept by score before `min_doc_count` applies (`None`: twice `size`).
    pub shard_size: Option<usize>,
    /// Buckets with fewer foreground documents are dropped (after scoring).
    pub min_doc_count: u64,
    /// Candidates with fewer foreground documents are not scored.
    pub shard_min_doc_count: u64,
    /// `include`.
    pub include: Option<TermFilter>,
    /// `exclude`.
    pub exclude: Option<TermFilter>,
    /// The background (`None`: the whole index).
    pub background_filter: Option<Box<Query>>,
    /// The scoring.
    pub heuristic: Heuristic,
    /// The script of [`Heuristic::Script`].
    pub script: Option<Arc<Script>>,
}

/// What `significant_text` analyses.
#[derive(Debug, Clone)]
pub struct TextSource {
    /// `_source` fields read instead of the field itself (`source_fields`).
    pub source_fields: Option<Vec<String>>,
    /// `filter_duplicate_text`: tokens of runs of six already seen are left out.
    pub filter_duplicate_text: bool,
}

/// Parses the body of a `significant_terms` (`t` is the type name) or `significant_text`.
pub fn parse(name: &str, t: &str, o: &Map<String, Value>, raw: &str) -> Result<SignificantSpec> {
    let text = t == "significant_text";
    if !text {
        no_scripts(o)?;
    }
    let mut spec = SignificantSpec {
        field: FieldSpec::default(),
        text: text.then_some(TextSource { source_fields: None, filter_duplicate_text: false }),
        size: 10,
        shard_size: None,
        min_doc_count: 3,
        shard_min_doc_count: 0,
        include: None,
        exclude: None,
        background_filter: None,
        heuristic: Heuristic::Jlh,
        script: None,
    };
    for (k, v) in o {
        if text && k == "field" {
            spec.field.field = v
                .as_str()
                .ok_or_else(|| parse_err(format!("[{t}] field doesn't support values of type: {}", token_name(v))))?
                .to_string();
            continue;
        }
        if !text && field_key(t, k, v, &mut spec.field)? {
            continue;
        }
        let count = |what: &str, min: i64| -> Result<i64> {
            let n = int_of(t, k, v)?;
            if n < min {
                let bound = if min == 1 { "greater than 0" } else { "greater than or equal to 0" };
                return Err(Error::illegal_argument(format!("[{what}] must be {bound}. Found [{n}] in [{name}]")));
            }
            Ok(n)
        };
        match k.as_str() {
            "size" => spec.size = count("size", 1)? as usize,
            "shard_size" => spec.shard_size = Some(count("shardSize", 1)? as usize),
            "min_doc_count" => spec.min_doc_count = count("minDocCount", 0)? as u64,
            "shard_min_doc_count" => spec.shard_min_doc_count = count("shardMinDocCount", 0)? as u64,
            "include" => spec.include = Some(parse_term_filter(t, k, v)?),
            "exclude" => spec.exclude = Some(parse_term_filter(t, k, v)?),
            "execution_hint" if !text => {}
            "background_filter" => spec.background_filter = Some(Box::new(DslParser::new(raw).parse(v)?)),
            "jlh" | "percentage" => {
                let Value::Object(body) = v else { return Err(unknown_field(t, k)) };
                if let Some(other) = body.keys().next() {
                    return Err(Error::new(
                        400,
                        crate::error::Exception::new(
                            "parse_exception",
                            format!("failed to parse [{k}] significance heuristic. expected an empty object, but got [{other}] instead"),
                        ),
                    ));
                }
                spec.heuristic = if k == "jlh" { Heuristic::Jlh } else { Heuristic::Percentage };
            }
            "mutual_information" | "chi_square" | "gnd" => spec.heuristic = parse_nxy(k, v)?,
            "script_heuristic" => {
                let Value::Object(body) = v else { return Err(unknown_field(t, k)) };
                spec.script = Some(Arc::new(parse_script_heuristic(body)?));
                spec.heuristic = Heuristic::Script;
            }
            "filter_duplicate_text" if text => {
                let on = bool_field(t, k, v)?;
                if let Some(source) = spec.text.as_mut() {
                    source.filter_duplicate_text = on;
                }
            }
            "source_fields" if text => {
                let fields = match v {
                    Value::Array(a) => a.iter().map(|x| x.as_str().map(str::to_string)).collect::<Option<Vec<_>>>(),
                    Value::String(s) => Some(vec![s.clone()]),
                    _ => None,
                }
                .ok_or_else(|| parse_err(format!("[{t}] failed to parse field [source_fields]")))?;
                if let Some(source) = spec.text.as_mut() {
                    source.source_fields = Some(fields);
                }
            }
            _ => return Err(unknown_field(t, k)),
        }
    }
    if spec.field.field.is_empty() && text {
        return Err(Error::illegal_argument(format!("[field] must not be null: [{name}]")));
    }
    require_field(&spec.field)?;
    if matches!(spec.include, Some(TermFilter::Partition { .. })) && spec.exclude.is_some() {
        return Err(Error::illegal_argument("Cannot specify any excludes when using a partition-based include"));
    }
    Ok(spec)
}

/// `script_heuristic`'s body as ScriptHeuristic.parse reads it: a `script`, nothing else.
fn parse_script_heuristic(body: &Map<String, Value>) -> Result<Script> {
    let heuristic_error = |what: String| {
        Error::new(
            400,
            crate::error::Exception::new(
                "parse_exception",
                format!("failed to parse [script_heuristic] significance heuristic. {what}"),
            ),
        )
    };
    let mut script = None;
    for (name, x) in body {
        match name.as_str() {
            "script" => script = Some(Script::parse(x)?),
            other => return Err(heuristic_error(format!("unknown object [{other}]"))),
        }
    }
    script.ok_or_else(|| heuristic_error("no script found in script_heuristic".to_string()))
}

/// The options of `mutual_information`, `chi_square` and `gnd` (`NXYSignificanceHeuristic`).
fn parse_nxy(k: &str, v: &Value) -> Result<Heuristic> {
    let Value::Object(body) = v else {
        return Err(parse_err(format!("failed to parse [{k}] significance heuristic")));
    };
    let (mut include_negatives, mut background_is_superset) = (false, true);
    for (name, x) in body {
        match name.as_str() {
            "include_negatives" if k != "gnd" => include_negatives = bool_field(k, name, x)?,
            "background_is_superset" => background_is_superset = bool_field(k, name, x)?,
            _ => {
                return Err(Error::new(
                    400,
                    crate::error::Exception::new(
                        "parse_exception",
                        format!("failed to parse [{k}] significance heuristic. unknown field [{name}]"),
                    ),
                ))
            }
        }
    }
    Ok(match k {
        "mutual_information" => Heuristic::MutualInformation { include_negatives, background_is_superset },
        "chi_square" => Heuristic::ChiSquare { include_negatives, background_is_superset },
        _ => Heuristic::Gnd { background_is_superset },
    })
}
