//! `span_multi`'s terms: the inner prefix, wildcard, regexp, fuzzy or range query
//! expanded over the field's dictionary, as Lucene's `SpanMultiTermQueryWrapper`
//! rewrites it: every term (ES's rewrite with Lucene's clause limit), or the top `N` of a
//! `top_terms_N` rewrite; fuzzy queries keep their own top-terms rewrite
//! (`max_expansions` terms, the closest first).

use super::super::clauses::MAX_CLAUSE_COUNT;
use super::super::context::{Executor, Resolved};
use super::super::terms::{fuzzy_expansions, not_on_this_type, target, FuzzyTerm};
use crate::error::{Error, Exception, Result};
use crate::index::TermAddr;
use crate::mapping::FieldType;
use crate::query::pattern::{translate_lucene_regex, wildcard_to_regex};
use crate::query::{Query, RangeQuery};
use regex_automata::meta::Regex;

/// The terms a multi-term query expands to in one index.
pub struct Expanded {
    /// The field searched (its path when mapped).
    pub field: String,
    /// The terms, in term order, with their dictionary addresses.
    pub terms: Vec<(String, TermAddr)>,
}

/// Lucene's `toString` of the inner multi-term query (ES quotes it in the clause-limit
/// error).
fn lucene_string(q: &Query) -> String {
    match q {
        Query::Prefix { field, value, .. } => format!("{field}:{value}*"),
        Query::Wildcard { field, pattern, .. } => format!("{field}:{pattern}"),
        Query::Regexp { field, pattern, .. } => format!("{field}:/{pattern}/"),
        Query::Fuzzy { field, value, fuzziness, .. } => format!("{field}:{value}~{fuzziness}"),
        Query::Range(r) => {
            let b = |v: &Option<(crate::query::Scalar, bool)>| v.as_ref().map_or("*".to_string(), |(s, _)| s.text());
            let open = if r.lower.as_ref().is_some_and(|(_, i)| *i) { '[' } else { '{' };
            let close = if r.upper.as_ref().is_some_and(|(_, i)| *i) { ']' } else { '}' };
            format!("{}:{open}{} TO {}{close}", r.field, b(&r.lower), b(&r.upper))
        }
        _ => String::new(),
    }
}

/// The field of a multi-term query and its kind's name.
fn field_and_kind(q: &Query) -> (&str, &'static str) {
    match q {
        Query::Prefix { field, .. } => (field, "prefix"),
        Query::Wildcard { field, .. } => (field, "wildcard"),
        Query::Regexp { field, .. } => (field, "regexp"),
        Query::Fuzzy { field, .. } => (field, "fuzzy"),
        Query::Range(r) => (&r.field, "range"),
        _ => ("", ""),
    }
}

/// The inner query's own boost (ES makes it the span's boost).
pub fn inner_boost(q: &Query) -> f32 {
    match q {
        Query::Prefix { boost, .. }
        | Query::Wildcard { boost, .. }
        | Query::Regexp { boost, .. }
        | Query::Fuzzy { boost, .. } => *boost,
        Query::Range(r) => r.boost,
        _ => 1.0,
    }
}

/// Expands `q` (a multi-term query) over `ex`'s index.
pub fn expand(ex: &Executor<'_>, q: &Query, top_terms: Option<usize>) -> Result<Expanded> {
    let (field, kind) = field_and_kind(q);
    let resolved = ex.searched(field)?;
    let path = match resolved {
        Resolved::Field(fm) => fm.path.clone(),
        _ => field.to_string(),
    };
    if let Resolved::Field(fm) = resolved {
        if !matches!(fm.ftype, FieldType::Keyword | FieldType::Text) {
            if kind == "range" {
                return Err(Error::new(
                    500,
                    Exception::new(
                        "unsupported_operation_exception",
                        "unsupported inner query, should be org.apache.lucene.search.MultiTermQuery but was org.apache.lucene.search.IndexOrDocValuesQuery",
                    ),
                ));
            }
            return Err(not_on_this_type(kind, field, fm.type_name()));
        }
    }
    // Every term unless a top-terms rewrite bounds them; one past Lucene's clause limit
    // is enough to refuse.
    let limit = top_terms.unwrap_or(MAX_CLAUSE_COUNT + 1).max(1);
    let mut terms = match q {
        Query::Fuzzy { field, value, fuzziness, prefix_length, max_expansions, transpositions, .. } => {
            let fuzzy = FuzzyTerm {
                field,
                value,
                fuzziness,
                prefix_length: *prefix_length,
                max_expansions: MAX_CLAUSE_COUNT,
                transpositions: *transpositions,
            };
            let Some((_, found)) = fuzzy_expansions(ex, &fuzzy)? else {
                return Ok(Expanded { field: path, terms: Vec::new() });
            };
            let qlen = target(ex, field, value).map_or(0, |(_, v)| v.chars().count());
            // FuzzyTermsEnum's boost: 1 - edits / min(length); the top terms by boost,
            // then term order, kept by the fuzzy query's own top-terms rewrite.
            let mut scored: Vec<(f32, String, TermAddr)> = found
                .into_iter()
                .map(|(d, t, a)| {
                    let len = qlen.min(t.chars().count()).max(1);
                    (if d == 0 { 1.0 } else { 1.0 - d as f32 / len as f32 }, t, a)
                })
                .collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
            scored.truncate(top_terms.unwrap_or(*max_expansions).max(1));
            let mut terms: Vec<(String, TermAddr)> = scored.into_iter().map(|(_, t, a)| (t, a)).collect();
            terms.sort();
            return Ok(Expanded { field: path, terms });
        }
        Query::Prefix { field, value, .. } => {
            let Some((f, p)) = target(ex, field, value) else { return Ok(Expanded { field: path, terms: Vec::new() }) };
            let pb = p.into_bytes();
            ex.reader.scan_terms(ex.snap, &f, &pb, &|k| k.starts_with(&pb), &mut |_| true, limit)?
        }
        Query::Wildcard { field, pattern, .. } => {
            let Some((f, p)) = target(ex, field, pattern) else {
                return Ok(Expanded { field: path, terms: Vec::new() });
            };
            let (re, prefix) = wildcard_to_regex(&p);
            let regex = Regex::new(&re)
                .map_err(|e| Error::illegal_argument(format!("invalid wildcard pattern [{pattern}]: {e}")))?;
            let pb = prefix.into_bytes();
            ex.reader.scan_terms(ex.snap, &f, &pb, &|k| k.starts_with(&pb), &mut |k| regex.is_match(k), limit)?
        }
        Query::Regexp { field, pattern, .. } => {
            let Some((f, p)) = target(ex, field, pattern) else {
                return Ok(Expanded { field: path, terms: Vec::new() });
            };
            let regex = Regex::new(&format!("(?s)^(?:{})$", translate_lucene_regex(&p)))
                .map_err(|e| Error::illegal_argument(format!("failed to parse regexp [{pattern}]: {e}")))?;
            ex.reader.scan_terms(ex.snap, &f, b"", &|_| true, &mut |k| regex.is_match(k), limit)?
        }
        Query::Range(r) => range_terms(ex, r, limit)?,
        _ => Vec::new(),
    };
    if top_terms.is_none() && terms.len() > MAX_CLAUSE_COUNT {
        return Err(Error::new(
            500,
            Exception::new(
                "runtime_exception",
                format!(
                    "[{} ] exceeds maxClauseCount [ Boolean maxClauseCount is set to {MAX_CLAUSE_COUNT}]",
                    lucene_string(q)
                ),
            ),
        ));
    }
    terms.truncate(limit);
    Ok(Expanded { field: path, terms })
}

/// A keyword or text range's terms (Lucene's `TermRangeQuery`).
fn range_terms(ex: &Executor<'_>, r: &RangeQuery, limit: usize) -> Result<Vec<(String, TermAddr)>> {
    let Some((f, _)) = target(ex, &r.field, "") else { return Ok(Vec::new()) };
    let norm = |v: &crate::query::Scalar| target(ex, &r.field, &v.text()).map_or_else(|| v.text(), |(_, t)| t);
    let lower = r.lower.as_ref().map(|(v, incl)| (norm(v), *incl));
    let upper = r.upper.as_ref().map(|(v, incl)| (norm(v), *incl));
    let start = lower.as_ref().map(|(s, _)| s.as_bytes().to_vec()).unwrap_or_default();
    let go_on = move |k: &[u8]| match &upper {
        None => true,
        Some((u, true)) => k <= u.as_bytes(),
        Some((u, false)) => k < u.as_bytes(),
    };
    let mut keep = move |k: &[u8]| match &lower {
        Some((l, false)) => k != l.as_bytes(),
        _ => true,
    };
    ex.reader.scan_terms(ex.snap, &f, &start, &go_on, &mut keep, limit)
}
