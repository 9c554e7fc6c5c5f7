//! Multi-term queries: prefix, wildcard, regexp, fuzzy and keyword ranges, expanded over
//! the term dictionary and answered as unions of postings.

use super::context::{Executor, Resolved};
use super::edits::{edit_distance, max_edits};
use super::highlight_terms::HighlightTerms;
use super::weight::{ConstExplain, Weight};
use crate::error::{Error, Exception, Result};
use crate::index::{DocSet, TermAddr};
use crate::mapping::FieldType;
use crate::query::pattern::{translate_lucene_regex, wildcard_to_regex};
use crate::query::RangeQuery;
use regex_automata::meta::Regex;

/// Most terms one multi-term query may expand to (bounds work and memory).
pub const MAX_EXPANSIONS: usize = 1_000_000;

fn too_many_terms(field: &str) -> Error {
    Error::new(
        400,
        Exception::new(
            "too_many_clauses",
            format!("maxClauseCount is set to {MAX_EXPANSIONS}: too many terms match in field [{field}]"),
        ),
    )
}

/// The indexed field name and the normalizer-applied value for a multi-term query.
pub(crate) fn target<'a>(ex: &Executor<'a>, field: &str, value: &str) -> Option<(String, String)> {
    match ex.resolve(field) {
        Resolved::Unmapped => None,
        Resolved::Meta(f) => Some((f.to_string(), value.to_string())),
        Resolved::Field(fm) => match fm.ftype {
            FieldType::Keyword => Some((fm.path.clone(), fm.keyword_term(value).unwrap_or_else(|_| value.to_string()))),
            FieldType::Text => Some((fm.path.clone(), value.to_string())),
            _ => None,
        },
    }
}

fn union_of(ex: &Executor<'_>, field: &str, terms: &[(String, TermAddr)]) -> Result<DocSet> {
    let addrs: Vec<TermAddr> = terms.iter().map(|(_, a)| *a).collect();
    ex.reader.postings_union(ex.snap, field, &addrs)
}

/// `prefix`.
pub fn prefix(ex: &Executor<'_>, field: &str, value: &str) -> Result<DocSet> {
    ex.searched(field)?;
    refuse_on_ip(ex, "prefix", field)?;
    let Some((f, p)) = target(ex, field, value) else {
        return Ok(DocSet::new());
    };
    let pb = p.as_bytes().to_vec();
    let terms = ex.reader.scan_terms(ex.snap, &f, &pb, &|k| k.starts_with(&pb), &mut |_| true, MAX_EXPANSIONS)?;
    if terms.len() > MAX_EXPANSIONS {
        return Err(too_many_terms(field));
    }
    union_of(ex, &f, &terms)
}

/// The hidden field that answers a prefix of `field`, when the field indexes prefixes
/// of `value`'s length (`index_prefixes`; ES's `TextFieldType.prefixQuery`, which makes
/// it a constant-score term query on that field).
pub fn prefix_field(ex: &Executor<'_>, field: &str, value: &str) -> Option<String> {
    let Resolved::Field(fm) = ex.resolve(field) else { return None };
    let prefixes = fm.params.index_prefixes.filter(|_| fm.ftype == FieldType::Text && fm.index)?;
    prefixes.answers(value).then(|| crate::mapping::index_prefixes::IndexPrefixes::hidden_field(&fm.path))
}

/// The documents of `value` as one term of the hidden prefix field `hidden` of `field`.
pub fn indexed_prefix(ex: &Executor<'_>, field: &str, hidden: &str, value: &str) -> Result<DocSet> {
    ex.searched(field)?;
    match ex.reader.term_addr(ex.snap, hidden, value)? {
        Some(addr) => ex.reader.postings_union(ex.snap, hidden, &[addr]),
        None => Ok(DocSet::new()),
    }
}

fn scan_regex(ex: &Executor<'_>, field: &str, re: &Regex, prefix: &str) -> Result<DocSet> {
    let pb = prefix.as_bytes().to_vec();
    let terms =
        ex.reader.scan_terms(ex.snap, field, &pb, &|k| k.starts_with(&pb), &mut |k| re.is_match(k), MAX_EXPANSIONS)?;
    if terms.len() > MAX_EXPANSIONS {
        return Err(too_many_terms(field));
    }
    union_of(ex, field, &terms)
}

/// `wildcard` (`*` any run, `?` one character, `\` escapes).
pub fn wildcard(ex: &Executor<'_>, field: &str, pattern: &str) -> Result<DocSet> {
    ex.searched(field)?;
    // ES 6.8 reads the pattern as an address (`termQuery`) and fails either way.
    if let Resolved::Field(fm) = ex.resolve(field) {
        if fm.ftype == FieldType::Ip {
            if let Err(e) = crate::mapping::ip::term_query_bounds(pattern) {
                return Err(super::context::query_shard_error(e));
            }
        }
    }
    refuse_on_ip(ex, "wildcard", field)?;
    let Some((f, p)) = target(ex, field, pattern) else {
        return Ok(DocSet::new());
    };
    let (re, prefix) = wildcard_to_regex(&p);
    let regex =
        Regex::new(&re).map_err(|e| Error::illegal_argument(format!("invalid wildcard pattern [{pattern}]: {e}")))?;
    scan_regex(ex, &f, &regex, &prefix)
}

/// `regexp` with Lucene's syntax (the common subset shared with Rust regexes); the
/// compiled automaton is bounded like Lucene's `max_determinized_states`.
pub fn regexp(ex: &Executor<'_>, field: &str, pattern: &str, max_states: usize) -> Result<DocSet> {
    ex.searched(field)?;
    refuse_on_ip(ex, "regexp", field)?;
    let Some((f, p)) = target(ex, field, pattern) else {
        return Ok(DocSet::new());
    };
    let translated = translate_lucene_regex(&p);
    let regex = Regex::builder()
        .configure(Regex::config().nfa_size_limit(Some(max_states.saturating_mul(64))).dfa_size_limit(Some(max_states.saturating_mul(64))))
        .build(&format!("(?s)^(?:{translated})$"))
        .map_err(|e| {
            let msg = e.to_string();
            // The NFA (or DFA) of the pattern would pass its size budget: the pattern is
            // too complex, as Lucene finds when determinizing it.
            if e.size_limit().is_some() || msg.contains("size limit") || msg.contains("exceeds") {
                Error::new(400, Exception::new("too_complex_to_determinize_exception",
                    format!("Determinizing automaton with {max_states} states and ... would result in more than {max_states} states.")))
            } else {
                Error::illegal_argument(format!("failed to parse regexp [{pattern}]: {msg}"))
            }
        })?;
    scan_regex(ex, &f, &regex, "")
}

/// ES 6.8 refuses a `regexp` query whose pattern is longer than `index.max_regex_length`
/// (counted in UTF-16 units, as Java counts) before compiling it, failing every shard.
pub(crate) fn check_regex_length(ex: &Executor<'_>, pattern: &str) -> Result<()> {
    let len = pattern.encode_utf16().count();
    let max = ex.reader.meta.settings.limits.max_regex_length;
    if len as u64 <= max {
        return Ok(());
    }
    Err(Error::all_shards_failed(
        400,
        Some(&ex.reader.meta.name),
        Exception::new(
            "illegal_argument_exception",
            format!(
                "The length of regex [{len}] used in the Regexp Query request has exceeded the allowed maximum of [{max}]. This maximum can be set by changing the [index.max_regex_length] index level setting."
            ),
        ),
    ))
}

/// Keyword (string) ranges over the term dictionary.
pub fn keyword_range(ex: &Executor<'_>, field: &str, r: &RangeQuery) -> Result<DocSet> {
    let norm = |v: &crate::query::Scalar| -> String {
        let s = v.text();
        match ex.resolve(field) {
            Resolved::Field(fm) => fm.keyword_term(&s).unwrap_or(s),
            _ => s,
        }
    };
    let lower = r.lower.as_ref().map(|(v, incl)| (norm(v), *incl));
    let upper = r.upper.as_ref().map(|(v, incl)| (norm(v), *incl));
    let start = lower.as_ref().map(|(s, _)| s.as_bytes().to_vec()).unwrap_or_default();
    let up = upper.clone();
    let go_on = move |k: &[u8]| match &up {
        None => true,
        Some((u, true)) => k <= u.as_bytes(),
        Some((u, false)) => k < u.as_bytes(),
    };
    let lo = lower.clone();
    let mut keep = move |k: &[u8]| match &lo {
        Some((l, false)) => k != l.as_bytes(),
        _ => true,
    };
    let terms = ex.reader.scan_terms(ex.snap, field, &start, &go_on, &mut keep, MAX_EXPANSIONS)?;
    if terms.len() > MAX_EXPANSIONS {
        return Err(too_many_terms(field));
    }
    union_of(ex, field, &terms)
}

/// Every document with a term of `field` from `lo` to `hi` (bytes, both included):
/// point-like ranges, which ES bounds by no expansion limit.
pub fn term_span(ex: &Executor<'_>, field: &str, lo: &[u8], hi: &[u8]) -> Result<DocSet> {
    let terms = ex.reader.scan_terms(ex.snap, field, lo, &|k| k <= hi, &mut |_| true, usize::MAX - 1)?;
    union_of(ex, field, &terms)
}

/// Every document with a term of `field` that `keep` keeps (a walk of the whole
/// dictionary: range fields' relations).
pub fn terms_where(ex: &Executor<'_>, field: &str, keep: &mut dyn FnMut(&[u8]) -> bool) -> Result<DocSet> {
    let terms = ex.reader.scan_terms(ex.snap, field, b"", &|_| true, keep, usize::MAX - 1)?;
    union_of(ex, field, &terms)
}

/// ES 6.8's refusal of a multi-term query (`prefix`, `regexp`, `fuzzy`, ...) on a field
/// that is neither keyword nor text (`MappedFieldType`'s default).
pub fn not_on_this_type(kind: &str, field: &str, type_name: &str) -> Error {
    Error::new(
        400,
        Exception::new(
            "query_shard_exception",
            format!("Can only use {kind} queries on keyword and text fields - not on [{field}] which is of type [{type_name}]"),
        ),
    )
}

/// Refuses `kind` on an `ip` or range field (numbers keep their earlier answer: no
/// match).
fn refuse_on_ip(ex: &Executor<'_>, kind: &str, field: &str) -> Result<()> {
    match ex.resolve(field) {
        Resolved::Field(fm) if matches!(fm.ftype, FieldType::Ip | FieldType::Range(_)) => {
            Err(not_on_this_type(kind, field, fm.type_name()))
        }
        _ => Ok(()),
    }
}

/// Every document with any term in `field`.
pub fn all_terms_docs(ex: &Executor<'_>, field: &str) -> Result<DocSet> {
    let terms = ex.reader.scan_terms(ex.snap, field, b"", &|_| true, &mut |_| true, usize::MAX - 1)?;
    union_of(ex, field, &terms)
}

/// The terms a fuzzy query expands to in the indexed field: (edits, term, address), the
/// `max_expansions` closest (fewest edits, then term order). `None` when the field cannot
/// hold terms.
#[allow(clippy::type_complexity)]
pub(crate) fn fuzzy_expansions(
    ex: &Executor<'_>,
    q: &FuzzyTerm<'_>,
) -> Result<Option<(String, Vec<(u32, String, TermAddr)>)>> {
    let FuzzyTerm { field, value, fuzziness, prefix_length, max_expansions, transpositions } = *q;
    let Some((f, v)) = target(ex, field, value) else {
        return Ok(None);
    };
    let qchars: Vec<char> = v.chars().collect();
    let max = max_edits(fuzziness, qchars.len())?;
    let prefix: String = qchars.iter().take(prefix_length).collect();
    let pb = prefix.as_bytes().to_vec();
    let mut found: Vec<(u32, String, TermAddr)> = Vec::new();
    let mut keep = |k: &[u8]| {
        let s = String::from_utf8_lossy(k);
        let tchars: Vec<char> = s.chars().collect();
        edit_distance(&qchars, &tchars, transpositions, max).is_some()
    };
    let terms = ex.reader.scan_terms(ex.snap, &f, &pb, &|k| k.starts_with(&pb), &mut keep, MAX_EXPANSIONS)?;
    for (t, ord) in terms {
        let tchars: Vec<char> = t.chars().collect();
        if let Some(d) = edit_distance(&qchars, &tchars, transpositions, max) {
            found.push((d, t, ord));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    // Lucene's top-terms rewrite keeps at most `min(max_expansions, maxClauseCount)` terms.
    found.truncate(max_expansions.clamp(1, super::clauses::MAX_CLAUSE_COUNT));
    Ok(Some((f, found)))
}

/// A fuzzy query on one value: the value, its field, and how it expands (what `fuzzy`,
/// a fuzzy `match` term and a fuzzy span term share).
#[derive(Clone, Copy)]
pub struct FuzzyTerm<'q> {
    /// The field searched.
    pub field: &'q str,
    /// The value, as the query gives it.
    pub value: &'q str,
    /// `fuzziness`: a number of edits or `AUTO[:low,high]`.
    pub fuzziness: &'q str,
    /// `prefix_length`: leading characters that must match exactly.
    pub prefix_length: usize,
    /// `max_expansions`: how many terms it expands to at most.
    pub max_expansions: usize,
    /// `transpositions`: whether swapping two adjacent characters is one edit.
    pub transpositions: bool,
}

/// `fuzzy`: expands to the `max_expansions` closest terms (fewest edits, then term order)
/// and scores them like Lucene's blended rewrite: each term's BM25 with the largest
/// document frequency among the expansions, boosted by `1 - edits / min(len)`.
/// It highlights its automaton (the value within the edits), not the terms it expanded to.
pub fn fuzzy<'a>(ex: &Executor<'a>, q: &FuzzyTerm<'_>, boost: f32) -> Result<Weight<'a>> {
    let FuzzyTerm { field, value, fuzziness, prefix_length, transpositions, .. } = *q;
    let w = ex.searched(field).and_then(|_| refuse_on_ip(ex, "fuzzy", field)).and_then(|_| fuzzy_weight(ex, q, boost));
    let w = ex.printed(w, || fuzzy_string(field, value, fuzziness));
    ex.noted(w, || HighlightTerms::fuzzy(field, &ex.exact_term(field, value), fuzziness, prefix_length, transpositions))
}

/// Lucene's string of a fuzzy query.
fn fuzzy_string(field: &str, value: &str, fuzziness: &str) -> String {
    format!("{field}:{value}~{fuzziness}")
}

fn fuzzy_weight<'a>(ex: &Executor<'a>, q: &FuzzyTerm<'_>, boost: f32) -> Result<Weight<'a>> {
    let FuzzyTerm { field, value, fuzziness, .. } = *q;
    let Some((f, found)) = fuzzy_expansions(ex, q)? else {
        return Ok(Weight::none());
    };
    let qchars: Vec<char> = target(ex, field, value).map(|(_, v)| v.chars().collect()).unwrap_or_default();
    let fm = match ex.resolve(field) {
        Resolved::Field(fm) => fm.clone(),
        // ES scores a fuzzy `_routing` as any string field's (`exec::term_weight`).
        Resolved::Meta(f) if f == crate::index::ROUTING_FIELD => {
            crate::mapping::FieldMapping::new(f, FieldType::Keyword)
        }
        _ => {
            let mut docs = DocSet::new();
            for (_, _, ord) in &found {
                docs.or_with(&ex.reader.postings(ex.snap, &f, *ord)?.docs);
            }
            return Ok(Weight::constant(docs, boost)
                .described(ex.explain, || ConstExplain::Query(fuzzy_string(field, value, fuzziness))));
        }
    };
    let postings = found.iter().map(|(_, _, ord)| ex.reader.postings(ex.snap, &f, *ord)).collect::<Result<Vec<_>>>()?;
    let max_df = postings.iter().map(|p| p.docs.len()).max().unwrap_or(0);
    let mut should = Vec::new();
    for ((d, t, _), p) in found.iter().zip(postings) {
        let len = qchars.len().min(t.chars().count()).max(1);
        let term_boost = if *d == 0 { 1.0 } else { 1.0 - (*d as f32 / len as f32) };
        should.push(ex.scored_postings(&fm, t, p, max_df, boost * term_boost)?);
    }
    Ok(Weight::any_of(should, 1))
}
