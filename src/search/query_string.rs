//! `query_string` and URI `q`: the Lucene syntax tree turned into engine queries, per index.
//!
//! Field-less terms go to `fields` (patterns and boosts allowed) or `default_field` (`*`:
//! every text and keyword field, leniently), combined per the `type` like `multi_match`;
//! explicit `field:` terms are analyzed with that field's search analyzer and combined with
//! the default operator, as Lucene's `QueryBuilder` does.

use super::exec::Executor;
use super::matches::Matches;
use crate::error::{Error, Exception, Result};
use crate::query::query_string::{parse, Occur, ParseOptions, QsNode};
use crate::query::{BoolQuery, MatchQuery, MultiMatchType, Operator, Query, QueryStringQuery, RangeQuery};
use serde_json::Value;

/// Runs a query_string query.
pub fn run(ex: &Executor<'_>, q: &QueryStringQuery, boost: f32, scoring: bool) -> Result<Matches> {
    if q.simple {
        return Err(Error::new(
            400,
            Exception::new(
                "parsing_exception",
                "[simple_query_string] is not supported by this engine; use [query_string]",
            ),
        ));
    }
    let opts = ParseOptions {
        default_operator_and: q.default_operator == Operator::And,
        allow_leading_wildcard: q.allow_leading_wildcard,
    };
    let tree = parse(&q.query, &opts).map_err(|e| {
        Error::new(
            400,
            Exception::new("query_shard_exception", format!("Failed to parse query [{}]", q.query))
                .with_meta("index_uuid", ex.reader.meta.uuid.as_str())
                .with_meta("index", ex.reader.meta.name.as_str())
                .caused_by(Exception::new("parse_exception", e.message)),
        )
    })?;
    let query = convert(&tree, q, true)?;
    ex.run(&query, boost * q.boost, scoring)
}

/// The default fields of a query: `fields`, else `default_field`, else `*`.
fn default_fields(q: &QueryStringQuery) -> Vec<(String, f32)> {
    if !q.fields.is_empty() {
        return q.fields.clone();
    }
    vec![(q.default_field.clone().unwrap_or_else(|| "*".to_string()), 1.0)]
}

fn match_options(q: &QueryStringQuery, lenient: bool) -> MatchQuery {
    MatchQuery {
        operator: q.default_operator,
        analyzer: q.analyzer.clone(),
        lenient,
        ..MatchQuery::new(String::new(), String::new())
    }
}

/// Whether querying `fields` should ignore type errors (`*` and patterns imply it in ES).
fn is_lenient(q: &QueryStringQuery, fields: &[(String, f32)]) -> bool {
    q.lenient || fields.iter().any(|(f, _)| f.contains('*'))
}

/// The fields a node targets: its own (possibly a pattern) or the defaults.
fn targets(field: &Option<String>, q: &QueryStringQuery) -> Vec<(String, f32)> {
    match field {
        Some(f) => vec![(f.clone(), 1.0)],
        None => default_fields(q),
    }
}

fn single_field(fields: &[(String, f32)]) -> Option<&str> {
    match fields {
        [(f, b)] if !f.contains('*') && *b == 1.0 => Some(f.as_str()),
        _ => None,
    }
}

/// One query per target field (patterns expanded per index), combined with dis_max
/// (best_fields) or a sum (most_fields).
fn per_field(fields: &[(String, f32)], q: &QueryStringQuery, make: impl Fn(&str) -> Query) -> Query {
    if let Some(f) = single_field(fields) {
        return make(f);
    }
    Query::PerField {
        fields: fields.to_vec(),
        template: Box::new(make("")),
        sum: q.kind == MultiMatchType::MostFields,
        tie_breaker: q.tie_breaker.unwrap_or(0.0),
        lenient: true,
    }
}

fn with_boost(q: Query, boost: Option<f32>) -> Query {
    match boost {
        None => q,
        Some(b) => Query::Bool(BoolQuery { must: vec![q], boost: b, ..Default::default() }),
    }
}

/// Converts the syntax tree; `top` applies `minimum_should_match` to the outer bool.
fn convert(node: &QsNode, q: &QueryStringQuery, top: bool) -> Result<Query> {
    Ok(match node {
        QsNode::MatchAll { boost } => Query::MatchAll { boost: boost.unwrap_or(1.0) },
        QsNode::Exists { field, boost } => Query::Exists { field: field.clone(), boost: boost.unwrap_or(1.0) },
        QsNode::Term { field, text, boost } => {
            let fields = targets(field, q);
            let lenient = is_lenient(q, &fields);
            let inner = match single_field(&fields) {
                Some(f) => {
                    Query::Match(MatchQuery { field: f.to_string(), text: text.clone(), ..match_options(q, lenient) })
                }
                None => Query::MultiMatch {
                    fields: fields.clone(),
                    text: text.clone(),
                    kind: match q.kind {
                        MultiMatchType::Phrase | MultiMatchType::PhrasePrefix => MultiMatchType::BestFields,
                        k => k,
                    },
                    tie_breaker: q.tie_breaker,
                    options: match_options(q, lenient),
                },
            };
            with_boost(inner, *boost)
        }
        QsNode::Phrase { field, text, slop, boost } => {
            let fields = targets(field, q);
            let slop = slop.unwrap_or(q.phrase_slop);
            with_boost(
                per_field(&fields, q, |f| Query::MatchPhrase {
                    field: f.to_string(),
                    text: text.clone(),
                    slop,
                    analyzer: q.analyzer.clone(),
                    prefix: false,
                    max_expansions: 50,
                    boost: 1.0,
                }),
                *boost,
            )
        }
        QsNode::Fuzzy { field, text, fuzziness, boost } => {
            let fields = targets(field, q);
            let fz = if fuzziness.is_empty() {
                q.fuzziness.clone().unwrap_or_else(|| "AUTO".to_string())
            } else {
                fuzziness.clone()
            };
            with_boost(
                per_field(&fields, q, |f| Query::Fuzzy {
                    field: f.to_string(),
                    value: text.to_lowercase(),
                    fuzziness: fz.clone(),
                    prefix_length: 0,
                    max_expansions: 50,
                    transpositions: true,
                    boost: 1.0,
                }),
                *boost,
            )
        }
        QsNode::Wildcard { field, pattern, boost } => {
            let fields = targets(field, q);
            // Text fields hold lowercased terms; ES normalizes wildcard terms the same way.
            let lowered = pattern.to_lowercase();
            with_boost(
                per_field(&fields, q, |f| {
                    if pattern.trim_end_matches('*').chars().all(|c| c != '*' && c != '?' && c != '\\')
                        && pattern.ends_with('*')
                    {
                        Query::Prefix {
                            field: f.to_string(),
                            value: lowered.trim_end_matches('*').to_string(),
                            boost: 1.0,
                        }
                    } else {
                        Query::Wildcard { field: f.to_string(), pattern: lowered.clone(), boost: 1.0 }
                    }
                }),
                *boost,
            )
        }
        QsNode::Regexp { field, pattern, boost } => {
            let fields = targets(field, q);
            with_boost(
                per_field(&fields, q, |f| Query::Regexp {
                    field: f.to_string(),
                    pattern: pattern.clone(),
                    max_determinized_states: 10_000,
                    boost: 1.0,
                }),
                *boost,
            )
        }
        QsNode::Range { field, lower, upper, include_lower, include_upper, boost } => {
            let fields = targets(field, q);
            with_boost(
                per_field(&fields, q, |f| {
                    Query::Range(RangeQuery {
                        field: f.to_string(),
                        lower: lower.as_ref().map(|v| (Value::String(v.clone()), *include_lower)),
                        upper: upper.as_ref().map(|v| (Value::String(v.clone()), *include_upper)),
                        format: None,
                        time_zone: None,
                        boost: 1.0,
                    })
                }),
                *boost,
            )
        }
        QsNode::Bool { clauses, boost } => {
            let mut b = BoolQuery { boost: boost.unwrap_or(1.0), ..Default::default() };
            for (occur, c) in clauses {
                let cq = convert(c, q, false)?;
                match occur {
                    Occur::Must => b.must.push(cq),
                    Occur::Should => b.should.push(cq),
                    Occur::MustNot => b.must_not.push(cq),
                }
            }
            if top {
                b.minimum_should_match = q.minimum_should_match.clone();
            }
            if b.must.is_empty() && b.should.is_empty() && b.must_not.is_empty() {
                return Ok(Query::MatchNone);
            }
            Query::Bool(b)
        }
    })
}
