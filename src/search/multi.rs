//! `multi_match` (and the field expansion `query_string` shares): best_fields, most_fields,
//! cross_fields, phrase and phrase_prefix over field patterns with boosts, built the way
//! ES 6.8's `MultiMatchQuery` builds them:
//!
//! - one field: that field's query with the field boost, nothing around it;
//! - best_fields / most_fields / phrase: one query per mapped field combined by dis_max,
//!   whose default tie breaker is 0 for best_fields and phrase and 1.0 for most_fields
//!   (6.8 sums most_fields through a dis_max, not a bool);
//! - cross_fields: fields grouped by search analyzer, each query term blended across the
//!   group's fields (Lucene's `BlendedTermQuery` document-frequency blending), groups
//!   combined by dis_max.

use super::bm25::idf;
use super::exec::{combine_bool, dis_max, Executor};
use super::matches::Matches;
use crate::analysis::{Analyzer, Normalizer};
use crate::error::Result;
use crate::index::DocSet;
use crate::mapping::{FieldMapping, FieldType};
use crate::query::{MatchQuery, MultiMatchType, Operator, Query};
use serde_json::Value;

/// Runs a multi_match. An empty field list means every field (`*`).
#[allow(clippy::too_many_arguments)]
pub fn multi_match(
    ex: &Executor<'_>,
    fields: &[(String, f32)],
    text: &str,
    kind: MultiMatchType,
    tie_breaker: Option<f32>,
    options: &MatchQuery,
    boost: f32,
    scoring: bool,
) -> Result<Matches> {
    let default = vec![("*".to_string(), 1.0)];
    let patterns = if fields.is_empty() { &default } else { fields };
    // ES makes the query lenient when `*` is among the fields and leniency was not set.
    let all_field = patterns.iter().any(|(p, _)| p == "*");
    let expanded = ex.expand_fields(patterns, true);
    let lenient = options.lenient || all_field;
    let boost = boost * options.boost;
    if expanded.is_empty() {
        return Ok(zero_terms(ex, options, boost));
    }
    let per_field = |fm: &FieldMapping, fboost: f32| -> Result<Option<Matches>> {
        let r = match kind {
            MultiMatchType::Phrase | MultiMatchType::PhrasePrefix => ex.phrase(
                &fm.path,
                text,
                0,
                options.analyzer.as_deref(),
                kind == MultiMatchType::PhrasePrefix,
                options.max_expansions,
                boost * fboost,
            ),
            _ => {
                let m = MatchQuery {
                    field: fm.path.clone(),
                    text: text.to_string(),
                    lenient,
                    boost: fboost,
                    ..options.clone()
                };
                ex.run(&Query::Match(m), boost, scoring)
            }
        };
        match r {
            Ok(m) => Ok(Some(m)),
            Err(_) if lenient => Ok(None),
            Err(e) => Err(e),
        }
    };
    if expanded.len() == 1 {
        let (fm, fboost) = expanded[0];
        return Ok(per_field(fm, fboost)?.unwrap_or_else(Matches::none));
    }
    match kind {
        MultiMatchType::CrossFields => {
            cross_fields(ex, &expanded, text, tie_breaker.unwrap_or(0.0), options, boost, scoring, lenient)
        }
        _ => {
            let mut subs = Vec::with_capacity(expanded.len());
            for (fm, fboost) in &expanded {
                if let Some(m) = per_field(fm, *fboost)? {
                    subs.push(m);
                }
            }
            let default_tie = if kind == MultiMatchType::MostFields { 1.0 } else { 0.0 };
            Ok(dis_max(subs, tie_breaker.unwrap_or(default_tie)))
        }
    }
}

/// `zero_terms_query` of the options: nothing, or everything with a constant score.
fn zero_terms(ex: &Executor<'_>, options: &MatchQuery, boost: f32) -> Matches {
    if options.zero_terms_all {
        Matches::Set { docs: DocSet::full(ex.reader.max_doc()), score: boost }
    } else {
        Matches::none()
    }
}

/// How ES groups cross_fields fields: by the search analyzer instance they share.
#[derive(Debug, Clone, Copy, PartialEq)]
enum GroupKey {
    /// A tokenizing analyzer (text fields; numeric and date fields use the index default).
    Analyzer(Analyzer),
    /// A keyword normalizer (one lowercased token).
    Normalizer(Normalizer),
    /// Lucene's keyword analyzer (plain keyword and boolean fields): the text as one term.
    Keyword,
}

fn group_key(fm: &FieldMapping, forced: Option<Analyzer>) -> GroupKey {
    if let Some(a) = forced {
        return GroupKey::Analyzer(a);
    }
    match fm.ftype {
        FieldType::Text => GroupKey::Analyzer(fm.search_analyzer),
        FieldType::Keyword => match fm.normalizer {
            Some(n) => GroupKey::Normalizer(n),
            None => GroupKey::Keyword,
        },
        FieldType::Boolean => GroupKey::Keyword,
        // Points-only fields have no analyzer of their own: ES uses the index default.
        _ => GroupKey::Analyzer(Analyzer::Standard),
    }
}

/// The query terms of `text` for a group.
fn group_tokens(key: GroupKey, text: &str) -> Vec<String> {
    match key {
        GroupKey::Analyzer(a) => a.analyze(text).into_iter().map(|t| t.text).collect(),
        GroupKey::Normalizer(n) => vec![n.normalize(text)],
        GroupKey::Keyword => vec![text.to_string()],
    }
}

/// cross_fields: fields are grouped by analyzer; within a group every query term is one
/// blended term across the group's fields, combined with the operator (and
/// `minimum_should_match`); groups are combined with dis_max. A group of one field runs
/// plain term queries and, as in ES 6.8, without that field's boost.
#[allow(clippy::too_many_arguments)]
pub(crate) fn cross_fields(
    ex: &Executor<'_>,
    fields: &[(&FieldMapping, f32)],
    text: &str,
    tie_breaker: f32,
    options: &MatchQuery,
    boost: f32,
    scoring: bool,
    lenient: bool,
) -> Result<Matches> {
    let forced = match options.analyzer.as_deref() {
        Some(name) => Some(ex.search_analyzer(fields[0].0, Some(name))?),
        None => None,
    };
    let mut groups: Vec<(GroupKey, Vec<(&FieldMapping, f32)>)> = Vec::new();
    for (fm, b) in fields {
        let key = group_key(fm, forced);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push((fm, *b)),
            None => groups.push((key, vec![(fm, *b)])),
        }
    }
    let mut group_results = Vec::with_capacity(groups.len());
    for (key, gfields) in &groups {
        let tokens = group_tokens(*key, text);
        if tokens.is_empty() {
            group_results.push(zero_terms(ex, options, boost));
            continue;
        }
        let mut per_term = Vec::with_capacity(tokens.len());
        for t in &tokens {
            let m = if gfields.len() == 1 {
                match ex.term(&gfields[0].0.path, &Value::String(t.clone()), boost, lenient) {
                    Ok(m) => m,
                    Err(_) if lenient => Matches::none(),
                    Err(e) => return Err(e),
                }
            } else {
                blended_term(ex, gfields, t, tie_breaker, boost, lenient)?
            };
            per_term.push(m);
        }
        group_results.push(combine_terms(ex, per_term, options, scoring));
    }
    Ok(if group_results.len() == 1 {
        group_results.pop().unwrap_or_else(Matches::none)
    } else {
        dis_max(group_results, tie_breaker)
    })
}

/// Lucene's `QueryBuilder` boolean of the per-term queries: the operator and
/// `minimum_should_match` (a single term stands alone).
fn combine_terms(ex: &Executor<'_>, mut per_term: Vec<Matches>, options: &MatchQuery, scoring: bool) -> Matches {
    if per_term.len() == 1 {
        return per_term.pop().unwrap_or_else(Matches::none);
    }
    let n = per_term.len();
    match options.operator {
        Operator::And => combine_bool(ex, per_term, Vec::new(), Vec::new(), DocSet::new(), 0, scoring),
        Operator::Or => {
            let msm = options.minimum_should_match.as_ref().map(|s| s.resolve(n)).unwrap_or(0).max(1);
            combine_bool(ex, Vec::new(), Vec::new(), per_term, DocSet::new(), msm, scoring)
        }
    }
}

/// The exact indexed term a term query looks up in an inverted field (`None` for
/// points-only fields, which run their own query).
fn indexed_term(fm: &FieldMapping, token: &str) -> Option<String> {
    match fm.ftype {
        FieldType::Text => Some(token.to_string()),
        FieldType::Keyword => Some(fm.normalizer.map(|n| n.normalize(token)).unwrap_or_else(|| token.to_string())),
        FieldType::Boolean => match token {
            "true" => Some("T".into()),
            "false" | "" => Some("F".into()),
            // Not a boolean: no term of the field can match.
            _ => Some(String::new()),
        },
        _ => None,
    }
}

/// Lucene's `BlendedTermQuery.blend`: the document frequencies of one term across fields
/// made comparable. The most frequent field gets the largest document frequency (capped by
/// `max_doc`, itself capped by the smallest field's total term count when every field has
/// frequencies); each field with a strictly smaller frequency than the previous one (in
/// descending order) gets one more, a small bias towards the popular fields.
pub(crate) fn blend_doc_freqs(dfs: &[u64], max_doc: u64, min_sum_ttf: Option<u64>) -> Vec<u64> {
    if dfs.len() <= 1 {
        return dfs.to_vec();
    }
    let max = dfs.iter().copied().max().unwrap_or(0);
    if max == 0 {
        return dfs.to_vec();
    }
    let max_doc = match min_sum_ttf {
        Some(t) if max_doc > t => t,
        _ => max_doc,
    };
    // A stable sort by document frequency, descending (Lucene's InPlaceMergeSorter).
    let mut order: Vec<usize> = (0..dfs.len()).collect();
    order.sort_by(|a, b| dfs[*b].cmp(&dfs[*a]));
    let mut out = dfs.to_vec();
    let mut prev = dfs[order[0]];
    let mut actual = max_doc.min(max);
    for i in order {
        let current = dfs[i];
        if current == 0 {
            break;
        }
        if prev > current {
            actual += 1;
        }
        out[i] = max_doc.min(actual);
        prev = current;
    }
    out
}

/// One term over several fields with blended document frequencies (Lucene's
/// `BlendedTermQuery.dismaxBlendedQuery`): per-field BM25 with the field's boost, combined
/// by dis_max. Points-only fields (numbers, dates) run their own term query beside it, and
/// then everything is combined by a dis_max with tie breaker 1.
fn blended_term(
    ex: &Executor<'_>,
    fields: &[(&FieldMapping, f32)],
    term: &str,
    tie_breaker: f32,
    boost: f32,
    lenient: bool,
) -> Result<Matches> {
    let mut others = Vec::new();
    let mut inverted = Vec::new();
    for (fm, b) in fields {
        match indexed_term(fm, term) {
            Some(t) => inverted.push((*fm, *b, t)),
            None => match ex.term(&fm.path, &Value::String(term.to_string()), boost * b, lenient) {
                Ok(m) => others.push(m),
                Err(_) if lenient => others.push(Matches::none()),
                Err(e) => return Err(e),
            },
        }
    }
    let mut postings = Vec::with_capacity(inverted.len());
    let mut dfs = Vec::with_capacity(inverted.len());
    let mut min_sum_ttf: Option<u64> = Some(u64::MAX);
    for (fm, _, t) in &inverted {
        let p = match ex.reader.term_addr(ex.snap, &fm.path, t)? {
            Some(addr) => Some(ex.reader.postings(ex.snap, &fm.path, addr)?),
            None => None,
        };
        dfs.push(p.as_ref().map(|p| p.docs.len()).unwrap_or(0));
        // Fields without frequencies (keywords) make Lucene skip the max_doc cap.
        min_sum_ttf = match (min_sum_ttf, fm.ftype == FieldType::Text) {
            (Some(m), true) => Some(m.min(ex.reader.field_stats(&fm.path).map(|s| s.sum_total_term_freq).unwrap_or(0))),
            _ => None,
        };
        postings.push(p);
    }
    let blended = blend_doc_freqs(&dfs, ex.reader.max_doc() as u64, min_sum_ttf);
    let mut subs = Vec::with_capacity(inverted.len());
    for (i, (fm, b, _)) in inverted.iter().enumerate() {
        let Some(p) = &postings[i] else { continue };
        let w = ex.term_weight(fm, blended[i], boost * b)?;
        subs.push(ex.score_postings(fm, &w, &p.docs, p.tfs.as_deref())?);
    }
    let term_query = if inverted.is_empty() { None } else { Some(dis_max(subs, tie_breaker)) };
    let mut all: Vec<Matches> = term_query.into_iter().chain(others).collect();
    Ok(match all.len() {
        0 => Matches::none(),
        1 => all.pop().unwrap_or_else(Matches::none),
        _ => dis_max(all, 1.0),
    })
}

/// The idf a blended term gets in a field (for explanations).
pub(crate) fn blended_idf(blended_df: u64, doc_count: u64) -> f32 {
    idf(blended_df, doc_count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blending_biases_towards_popular_fields() {
        // Most frequent keeps the max, less frequent ones get one more each step down.
        assert_eq!(blend_doc_freqs(&[3, 10, 3, 7], 100, None), vec![12, 10, 12, 11]);
        // Capped by max_doc, itself capped by the smallest total term count.
        assert_eq!(blend_doc_freqs(&[5, 9], 100, Some(8)), vec![8, 8]);
        assert_eq!(blend_doc_freqs(&[0, 4], 100, None), vec![0, 4]);
        assert_eq!(blend_doc_freqs(&[4], 100, None), vec![4]);
    }
}
