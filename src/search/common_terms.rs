//! Lucene's `CommonTermsQuery` as ES 6.8's `ExtendedCommonTermsQuery` builds it: the
//! query's terms split by document frequency — above `cutoff_frequency` (a fraction of
//! the index's documents below 1, else a document count) high-frequency, else low —
//! into a required group of the low-frequency terms and an optional group of the high
//! ones, each combined with its operator and `minimum_should_match` (ES's spec over the
//! group's size). Without low-frequency terms the high ones are required together
//! (unless their `minimum_should_match` says otherwise). One term is a term query.
//! Terms at one position (synonyms) are separate terms, as ES's query builder adds them.

use super::context::{Executor, Resolved};
use super::weight::{BoolWeight, Weight};
use crate::error::Result;
use crate::index::DocSet;
use crate::mapping::{FieldMapping, FieldType};
use crate::query::common::{CommonSpec, CommonTermsQuery};
use crate::query::Operator;

/// The `common` query: its text analyzed for the field, then [`build`].
pub fn compile<'a>(ex: &Executor<'a>, q: &CommonTermsQuery, boost: f32) -> Result<Weight<'a>> {
    let boost = boost * q.boost;
    let fm = match ex.searched(&q.field)? {
        Resolved::Field(fm) => fm,
        // A term of the text on a field without terms matches nothing.
        Resolved::Unmapped | Resolved::Meta(_) => return Ok(Weight::none()),
    };
    let terms: Vec<String> = match fm.ftype {
        // CommonTermsQueryBuilder adds every token of the stream as a term: stacked
        // tokens (synonyms) and graph tokens are terms like any other.
        FieldType::Text => ex
            .search_analyzer(fm, q.analyzer.as_deref(), false)?
            .analyze(&q.text)?
            .into_iter()
            .map(|t| t.text)
            .collect(),
        FieldType::Keyword => vec![fm.keyword_term(&q.text)?],
        _ => return Ok(Weight::none()),
    };
    super::clauses::check(ex, terms.len())?;
    build(ex, fm, &terms, &q.spec, boost)
}

/// Lucene's `CommonTermsQuery.rewrite` of `terms` on `fm`.
pub fn build<'a>(
    ex: &Executor<'a>,
    fm: &FieldMapping,
    terms: &[String],
    spec: &CommonSpec,
    boost: f32,
) -> Result<Weight<'a>> {
    match terms {
        [] => return Ok(Weight::none()),
        [one] => return ex.scored_term(fm, one, boost),
        _ => {}
    }
    let max_doc = ex.reader.max_doc() as f32;
    let cutoff = spec.cutoff_frequency;
    let mut low = Vec::new();
    let mut high = Vec::new();
    for t in terms {
        let df = match ex.reader.term_addr(ex.snap, &fm.path, t)? {
            Some(addr) => ex.reader.postings(ex.snap, &fm.path, addr)?.docs.len() as i64,
            None => {
                // An absent term is a low-frequency one.
                low.push(ex.scored_term(fm, t, boost)?);
                continue;
            }
        };
        let is_high = (cutoff >= 1.0 && df as f32 > cutoff) || df > (cutoff * max_doc).ceil() as i64;
        let w = ex.scored_term(fm, t, boost)?;
        if is_high {
            high.push(w);
        } else {
            low.push(w);
        }
    }
    let mut high_operator = spec.high_freq_operator;
    let low_msm = match (spec.low_freq_operator, &spec.low_freq_msm) {
        (Operator::Or, Some(m)) if !low.is_empty() => m.resolve(low.len()),
        _ => 0,
    };
    let high_msm = match (high_operator, &spec.high_freq_msm) {
        (Operator::Or, Some(m)) if !high.is_empty() => m.resolve(high.len()),
        _ => 0,
    };
    if low.is_empty() && high_msm == 0 {
        // Only common terms: a conjunction of them, not a slow disjunction.
        high_operator = Operator::And;
    }
    let group = |clauses: Vec<Weight<'a>>, op: Operator, msm: usize| match op {
        Operator::And => Weight::boolean(BoolWeight {
            must: clauses,
            filter: None,
            should: Vec::new(),
            must_not: DocSet::new(),
            min_should_match: 0,
            filter_clauses: Vec::new(),
        }),
        // A boolean of optional clauses alone needs one of them.
        Operator::Or => Weight::any_of(clauses, msm.max(1)),
    };
    let low = (!low.is_empty()).then(|| group(low, spec.low_freq_operator, low_msm));
    let high = (!high.is_empty()).then(|| group(high, high_operator, high_msm));
    Ok(match (low, high) {
        (Some(low), None) => low,
        (None, Some(high)) => high,
        (Some(low), Some(high)) => Weight::boolean(BoolWeight {
            must: vec![low],
            filter: None,
            should: vec![high],
            must_not: DocSet::new(),
            min_should_match: 0,
            filter_clauses: Vec::new(),
        }),
        (None, None) => Weight::none(),
    })
}
