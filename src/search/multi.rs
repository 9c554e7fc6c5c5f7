//! `multi_match` (and the field expansion `query_string` shares): best_fields, most_fields,
//! cross_fields, phrase and phrase_prefix over field patterns with boosts.

use super::context::Executor;
use super::highlight_terms::{self, HighlightTerms};
use super::phrase::MatchPhrase;
use super::weight::{BoolWeight, Weight};
use crate::analysis::Analyzer;
use crate::error::Result;
use crate::index::DocSet;
use crate::mapping::{FieldMapping, FieldType};
use crate::query::{MatchQuery, MultiMatchType, Operator, Query};

/// A `multi_match`, as `Query::MultiMatch` holds it.
#[derive(Clone, Copy)]
pub struct MultiMatch<'q> {
    /// Field patterns with their boosts; empty means every field (`*`).
    pub fields: &'q [(String, f32)],
    /// The text searched for.
    pub text: &'q str,
    /// `type`.
    pub kind: MultiMatchType,
    /// `tie_breaker`.
    pub tie_breaker: Option<f32>,
    /// The options each field's `match` takes (its field and text are set per field).
    pub options: &'q MatchQuery,
}

/// Compiles a multi_match. An empty field list means every field (`*`).
///
/// It highlights the match (or phrase) of its text on every field its patterns name,
/// of any type, though `*` runs on text and keyword fields only.
pub fn multi_match<'a>(ex: &Executor<'a>, q: &MultiMatch<'_>, boost: f32, scoring: bool) -> Result<Weight<'a>> {
    let MultiMatch { fields, text, kind, options, .. } = *q;
    let w = multi_match_weight(ex, q, boost, scoring);
    // Lucene's string names the fields as given, not as expanded.
    let w = ex.printed(w, || {
        let parts: Vec<String> = fields.iter().map(|(f, _)| format!("{f}:{text}")).collect();
        format!("({})", parts.join(" | "))
    });
    ex.noted(w, || {
        let default = vec![("*".to_string(), 1.0)];
        let patterns = if fields.is_empty() { &default } else { fields };
        let analyzer = options.analyzer.as_deref();
        let fuzzy = options.fuzziness.as_deref().map(|f| (f, options.prefix_length, options.transpositions));
        let mut terms = HighlightTerms::default();
        for (fm, _) in ex.expand_fields(patterns, true) {
            terms.absorb(&match kind {
                MultiMatchType::Phrase | MultiMatchType::PhrasePrefix => {
                    let prefix = kind == MultiMatchType::PhrasePrefix;
                    highlight_terms::of_phrase(ex, &fm.path, text, 0, analyzer, prefix)
                }
                _ => highlight_terms::of_match(ex, &fm.path, text, analyzer, fuzzy),
            });
        }
        terms
    })
}

fn multi_match_weight<'a>(ex: &Executor<'a>, q: &MultiMatch<'_>, boost: f32, scoring: bool) -> Result<Weight<'a>> {
    let MultiMatch { fields, text, kind, tie_breaker, options } = *q;
    let default = vec![("*".to_string(), 1.0)];
    let patterns = if fields.is_empty() { &default } else { fields };
    let all_types = !patterns.iter().any(|(p, _)| p == "*");
    let expanded = ex.expand_fields(patterns, all_types);
    let lenient = options.lenient || !all_types;
    let boost = boost * options.boost;
    if expanded.is_empty() {
        return Ok(Weight::none());
    }
    match kind {
        MultiMatchType::BestFields | MultiMatchType::MostFields => {
            let mut subs = Vec::with_capacity(expanded.len());
            for (fm, fboost) in &expanded {
                let mut m = options.clone();
                m.field = fm.path.clone();
                m.text = text.to_string();
                m.lenient = lenient;
                m.boost = *fboost;
                match ex.compile(&Query::Match(m), boost, scoring) {
                    Ok(r) => subs.push(r),
                    Err(e) if lenient && !super::clauses::is_too_many_clauses(&e) => {}
                    Err(e) => return Err(e),
                }
            }
            Ok(if kind == MultiMatchType::BestFields {
                Weight::field_dis_max(subs, tie_breaker.unwrap_or(0.0), ex.explain)
            } else {
                Weight::any_of(subs, 1)
            })
        }
        MultiMatchType::Phrase | MultiMatchType::PhrasePrefix => {
            let mut subs = Vec::new();
            for (fm, fboost) in &expanded {
                if fm.ftype != FieldType::Text && fm.ftype != FieldType::Keyword {
                    continue;
                }
                let phrase = MatchPhrase {
                    field: &fm.path,
                    text,
                    slop: 0,
                    analyzer: options.analyzer.as_deref(),
                    prefix: kind == MultiMatchType::PhrasePrefix,
                    max_expansions: options.max_expansions,
                };
                subs.push(ex.phrase(&phrase, boost * fboost)?);
            }
            Ok(Weight::field_dis_max(subs, tie_breaker.unwrap_or(0.0), ex.explain))
        }
        MultiMatchType::CrossFields if options.cutoff_frequency.is_some() => {
            Err(crate::error::Error::illegal_argument(
                "[cutoff_frequency] of a cross_fields [multi_match] query is not supported by metagate",
            ))
        }
        MultiMatchType::CrossFields => cross_fields(ex, q, &expanded, boost, scoring, lenient),
    }
}

/// cross_fields: fields are grouped by analyzer; within a group every query term is one
/// term blended across the group's fields (Lucene's `BlendedTermQuery`, as query_string's
/// cross_fields blends it), combined with the operator; groups are combined with dis_max.
fn cross_fields<'a>(
    ex: &Executor<'a>,
    q: &MultiMatch<'_>,
    fields: &[(&FieldMapping, f32)],
    boost: f32,
    scoring: bool,
    lenient: bool,
) -> Result<Weight<'a>> {
    let (text, tie_breaker, options) = (q.text, q.tie_breaker.unwrap_or(0.0), q.options);
    #[derive(PartialEq)]
    enum GroupKey {
        Text(Analyzer),
        Exact(String),
    }
    let mut groups: Vec<(GroupKey, Vec<(&FieldMapping, f32)>)> = Vec::new();
    for (fm, b) in fields {
        let key = match fm.ftype {
            FieldType::Text => GroupKey::Text(ex.search_analyzer(fm, options.analyzer.as_deref(), false)?),
            _ => GroupKey::Exact(fm.path.clone()),
        };
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push((fm, *b)),
            None => groups.push((key, vec![(fm, *b)])),
        }
    }
    let mut group_results = Vec::new();
    for (key, gfields) in groups {
        match key {
            GroupKey::Exact(path) => {
                let m =
                    MatchQuery { field: path, text: text.to_string(), lenient, boost: gfields[0].1, ..options.clone() };
                match ex.compile(&Query::Match(m), boost, scoring) {
                    Ok(r) => group_results.push(r),
                    Err(e) if lenient && !super::clauses::is_too_many_clauses(&e) => {}
                    Err(e) => return Err(e),
                }
            }
            GroupKey::Text(analyzer) => {
                // Counted before the terms are built (see `match`).
                let n = super::context::token_count(&analyzer, text)?;
                if n == 0 {
                    continue;
                }
                super::clauses::check(ex, n)?;
                let tokens = analyzer.analyze_query(text, false)?;
                let fields: Vec<(String, f32)> = gfields.iter().map(|(f, b)| (f.path.clone(), *b)).collect();
                let mut per_term = Vec::with_capacity(tokens.len());
                for t in &tokens {
                    per_term.push(super::query_text::blended_term(ex, &fields, &t.text, tie_breaker, boost, lenient)?);
                }
                let r = if per_term.len() == 1 {
                    per_term.pop().unwrap_or_else(Weight::none)
                } else {
                    let n = per_term.len();
                    match options.operator {
                        Operator::And => Weight::boolean(BoolWeight {
                            must: per_term,
                            filter: None,
                            should: Vec::new(),
                            must_not: DocSet::new(),
                            min_should_match: 0,
                            filter_clauses: Vec::new(),
                        }),
                        Operator::Or => {
                            let msm = options.minimum_should_match.as_ref().map(|s| s.resolve(n)).unwrap_or(1).max(1);
                            Weight::any_of(per_term, msm)
                        }
                    }
                };
                group_results.push(r);
            }
        }
    }
    Ok(Weight::field_dis_max(group_results, tie_breaker, ex.explain))
}
