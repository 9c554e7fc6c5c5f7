//! Span queries compiled for one index into a `weight::span::SpanWeight`, which scores
//! them as Lucene's `SpanWeight` / `SpanScorer` do, with BM25 under the statistics of
//! every term the query holds (idfs summed in term order, Lucene's `TreeMap` of the
//! terms) and the norms of the query's field (a `field_masking_span`'s field when one
//! sits at the top).
//!
//! Only the outermost span's boost counts: Lucene builds the clauses' weights without
//! theirs. Documents are candidates by set algebra (a near's clauses all present, an
//! or's any); positions are read for candidates only.

mod expand;

use super::bm25::{avg_field_length, idf, Bm25Weight};
use super::context::{Executor, Resolved};
use super::explain::java_float;
use super::highlight_terms::HighlightTerms;
use super::weight::span::{Node, SpanExplain, SpanWeight};
use super::weight::Weight;
use crate::error::{Error, Exception, Result};
use crate::index::{DocSet, Postings};
use crate::mapping::FieldType;
use crate::query::span::SpanQuery;
use std::collections::BTreeMap;

struct Part {
    node: Node,
    field: Option<String>,
    printed: String,
    docs: DocSet,
}

/// Compiles a span query tree, gathering its terms' postings and statistics.
struct Builder<'c, 'a> {
    ex: &'c Executor<'a>,
    terms: Vec<(String, Postings)>,
    /// (field, term) → document frequency, for the terms scoring counts.
    stats: BTreeMap<(String, String), u64>,
    highlights: HighlightTerms,
}

/// A failure of ES's `toQuery` (Lucene's builders refusing a clause): ES 6.8's
/// QueryShardContext wraps it in a `query_shard_exception` that fails every shard.
fn build_failure(ex: &Executor<'_>, cause: Exception) -> Error {
    let meta = &ex.reader.meta;
    let reason = match cause.to_json(false)["reason"].as_str() {
        Some(r) => format!("failed to create query: {r}"),
        None => "failed to create query: null".to_string(),
    };
    let e = Exception::new("query_shard_exception", reason)
        .with_meta("index_uuid", meta.uuid.as_str())
        .with_meta("index", meta.name.as_str())
        .caused_by(cause);
    Error::all_shards_failed(400, Some(&meta.name), e)
}

/// Whether `a` and `b` name different fields (a clause without a field goes with any).
fn differ(a: &Option<String>, b: &Option<String>) -> bool {
    matches!((a, b), (Some(x), Some(y)) if x != y)
}

impl<'a> Builder<'_, 'a> {
    fn part(&mut self, q: &SpanQuery, scored: bool, top: bool) -> Result<Part> {
        let mut p = self.part_inner(q, scored)?;
        // Lucene's SpanBoostQuery prints a clause's boost; the outermost one's is the
        // weight's boost, not part of its query.
        if !top && q.boost() != 1.0 {
            p.printed = format!("({})^{}", p.printed, java_float(q.boost()));
        }
        Ok(p)
    }

    fn same_field_error(&self, msg: &str) -> Error {
        build_failure(self.ex, Exception::new("illegal_argument_exception", msg))
    }

    fn part_inner(&mut self, q: &SpanQuery, scored: bool) -> Result<Part> {
        match q {
            SpanQuery::Term { field, value, .. } => self.term(field, value, scored),
            SpanQuery::Multi { inner, top_terms, .. } => {
                let expanded = expand::expand(self.ex, inner, *top_terms)?;
                let mut subs = Vec::with_capacity(expanded.terms.len());
                let mut docs = DocSet::new();
                let mut printed = Vec::with_capacity(expanded.terms.len());
                for (term, addr) in &expanded.terms {
                    let postings = self.ex.reader.postings(self.ex.snap, &expanded.field, *addr)?;
                    docs.or_with(&postings.docs);
                    subs.push(self.add_term(&expanded.field, term, postings, scored)?);
                    printed.push(format!("{}:{term}", expanded.field));
                }
                Ok(Part {
                    node: Node::Or(subs),
                    field: Some(expanded.field),
                    printed: format!("spanOr([{}])", printed.join(", ")),
                    docs,
                })
            }
            SpanQuery::Near { clauses, slop, in_order, .. } => self.near(clauses, *slop, *in_order, scored),
            SpanQuery::Or { clauses, .. } => {
                let parts = self.parts(clauses, scored)?;
                let field = parts.iter().find_map(|p| p.field.clone());
                if parts.iter().any(|p| differ(&p.field, &field)) {
                    return Err(self.same_field_error("Clauses must have same field."));
                }
                let mut docs = DocSet::new();
                for p in &parts {
                    docs.or_with(&p.docs);
                }
                let printed =
                    format!("spanOr([{}])", parts.iter().map(|p| p.printed.as_str()).collect::<Vec<_>>().join(", "));
                Ok(Part { node: Node::Or(parts.into_iter().map(|p| p.node).collect()), field, printed, docs })
            }
            SpanQuery::Not { include, exclude, pre, post, .. } => {
                let inc = self.part(include, scored, false)?;
                // The excluded clause neither scores nor highlights.
                let exc = self.part(exclude, false, false)?;
                if differ(&inc.field, &exc.field) {
                    return Err(self.same_field_error("Clauses must have same field."));
                }
                Ok(Part {
                    printed: format!("spanNot({}, {}, {pre}, {post})", inc.printed, exc.printed),
                    node: Node::Not {
                        include: Box::new(inc.node),
                        exclude: Box::new(exc.node),
                        pre: *pre as i64,
                        post: *post as i64,
                    },
                    field: inc.field,
                    docs: inc.docs,
                })
            }
            SpanQuery::First { inner, end, .. } => {
                let p = self.part(inner, scored, false)?;
                Ok(Part {
                    printed: format!("spanFirst({}, {end})", p.printed),
                    node: Node::First { inner: Box::new(p.node), end: *end as i64 },
                    field: p.field,
                    docs: p.docs,
                })
            }
            SpanQuery::Containing { big, little, .. } | SpanQuery::Within { big, little, .. } => {
                let b = self.part(big, scored, false)?;
                let l = self.part(little, scored, false)?;
                if b.field != l.field {
                    return Err(self.same_field_error("big and little not same field"));
                }
                let mut docs = b.docs;
                docs.and_with(&l.docs);
                let (name, node) = match q {
                    SpanQuery::Containing { .. } => {
                        ("SpanContaining", Node::Containing { big: Box::new(b.node), little: Box::new(l.node) })
                    }
                    _ => ("SpanWithin", Node::Within { big: Box::new(b.node), little: Box::new(l.node) }),
                };
                Ok(Part { printed: format!("{name}({}, {})", b.printed, l.printed), node, field: b.field, docs })
            }
            // A gap is a clause of an ordered near only: elsewhere ES asks its
            // SpanGapQueryBuilder for a query, which throws.
            SpanQuery::Gap { .. } => Err(build_failure(
                self.ex,
                Exception::new("unsupported_operation_exception", String::new()).with_null_reason(),
            )),
            SpanQuery::FieldMasking { inner, field, .. } => {
                let p = self.part(inner, scored, false)?;
                let masked = match self.ex.resolve(field) {
                    Resolved::Field(fm) => fm.path.clone(),
                    _ => field.clone(),
                };
                Ok(Part {
                    printed: format!("mask({}) as {masked}", p.printed),
                    node: p.node,
                    field: Some(masked),
                    docs: p.docs,
                })
            }
        }
    }

    /// `span_near`, as ES 6.8's SpanNearQueryBuilder builds it with Lucene's
    /// `SpanNearQuery.Builder`: the field is the first clause's (a first gap's own, an
    /// alias resolved); each later clause is compiled and added in turn, a clause on
    /// another field refused by `addClause`, a gap on another field by ES, and any gap
    /// of an unordered near by `addGap`.
    fn near(&mut self, clauses: &[SpanQuery], slop: u32, in_order: bool, scored: bool) -> Result<Part> {
        if clauses.len() == 1 {
            if let SpanQuery::Gap { .. } = clauses[0] {
                // ES builds no query at all from it (a null query).
                return Err(Error::illegal_argument(
                    "a [span_near] whose only clause is a [span_gap] is not supported by metagate",
                ));
            }
            // ES builds the clause itself.
            return self.part(&clauses[0], scored, false);
        }
        if clauses.iter().all(|c| matches!(c, SpanQuery::Gap { .. })) {
            // Lucene's GapSpans match every document at every position: no finite query.
            return Err(Error::illegal_argument(
                "a [span_near] of [span_gap] clauses only is not supported by metagate",
            ));
        }
        let gap_field = |ex: &Executor<'a>, field: &str| match ex.resolve(field) {
            Resolved::Field(fm) => fm.path.clone(),
            _ => field.to_string(),
        };
        let ex = self.ex;
        let add_gap = |width: i32| -> Result<Part> {
            if !in_order {
                let cause =
                    Exception::new("illegal_argument_exception", "Gaps can only be added to ordered near queries");
                return Err(build_failure(ex, cause));
            }
            Ok(Part {
                node: Node::Gap(width as i64),
                field: None,
                printed: format!("SpanGap(:{width})"),
                docs: DocSet::new(),
            })
        };
        let mut parts = Vec::with_capacity(clauses.len());
        let field = match &clauses[0] {
            SpanQuery::Gap { field, width } => {
                parts.push(add_gap(*width)?);
                Some(gap_field(self.ex, field))
            }
            first => {
                let p = self.part(first, scored, false)?;
                let field = p.field.clone();
                parts.push(p);
                field
            }
        };
        for c in &clauses[1..] {
            match c {
                SpanQuery::Gap { field: gap, width } => {
                    if field.as_deref() != Some(gap_field(self.ex, gap).as_str()) {
                        return Err(self.same_field_error("[span_near] clauses must have same field"));
                    }
                    parts.push(add_gap(*width)?);
                }
                clause => {
                    let p = self.part(clause, scored, false)?;
                    if differ(&p.field, &field) {
                        return Err(self.same_field_error(&format!(
                            "Cannot add clause {} to SpanNearQuery for field {}",
                            p.printed,
                            field.as_deref().unwrap_or("")
                        )));
                    }
                    parts.push(p);
                }
            }
        }
        // A gap matches in every document: the candidates are the other clauses'.
        let mut docs: Option<DocSet> = None;
        for p in parts.iter().filter(|p| !matches!(p.node, Node::Gap(_))) {
            match docs.as_mut() {
                None => docs = Some(p.docs.clone()),
                Some(d) => d.and_with(&p.docs),
            }
        }
        let printed = format!(
            "spanNear([{}], {slop}, {in_order})",
            parts.iter().map(|p| p.printed.as_str()).collect::<Vec<_>>().join(", ")
        );
        let subs = parts.into_iter().map(|p| p.node).collect();
        Ok(Part {
            node: Node::Near { subs, slop: slop as i64, in_order },
            field,
            printed,
            docs: docs.unwrap_or_default(),
        })
    }

    fn parts(&mut self, clauses: &[SpanQuery], scored: bool) -> Result<Vec<Part>> {
        clauses.iter().map(|c| self.part(c, scored, false)).collect()
    }

    /// `span_term`: the value as a `term` query reads it on the field.
    fn term(&mut self, field: &str, value: &str, scored: bool) -> Result<Part> {
        let (path, term, positions) = match self.ex.searched(field)? {
            Resolved::Unmapped => (field.to_string(), value.to_string(), true),
            Resolved::Meta(f) => (f.to_string(), value.to_string(), false),
            Resolved::Field(fm) => match fm.ftype {
                FieldType::Text => {
                    let positions = !matches!(fm.params.index_options.as_deref(), Some("docs") | Some("freqs"));
                    (fm.path.clone(), value.to_string(), positions)
                }
                FieldType::Keyword => (fm.path.clone(), fm.keyword_term(value)?, false),
                _ => {
                    return Err(Error::illegal_argument(format!(
                        "[span_term] on field [{field}] of type [{}] is not supported by metagate",
                        fm.type_name()
                    )))
                }
            },
        };
        if scored || self.ex.highlight {
            self.highlights.absorb(&HighlightTerms::term(&path, term.clone()));
        }
        if !positions && self.ex.reader.field_stats(&path).is_some() {
            // Lucene's SpanTermWeight on a field of the segment without positions.
            return Err(Error::new(
                500,
                Exception::new(
                    "illegal_state_exception",
                    format!(
                        "field \"{path}\" was indexed without position data; cannot run SpanTermQuery (term={term})"
                    ),
                ),
            ));
        }
        let printed = format!("{path}:{term}");
        let Some(addr) = self.ex.reader.term_addr(self.ex.snap, &path, &term)? else {
            return Ok(Part { node: Node::Nothing, field: Some(path), printed, docs: DocSet::new() });
        };
        let postings = self.ex.reader.postings(self.ex.snap, &path, addr)?;
        let docs = postings.docs.clone();
        let node = self.add_term(&path, &term, postings, scored)?;
        Ok(Part { node, field: Some(path), printed, docs })
    }

    fn add_term(&mut self, field: &str, term: &str, postings: Postings, scored: bool) -> Result<Node> {
        if scored {
            self.stats.insert((field.to_string(), term.to_string()), postings.docs.len());
            if self.ex.highlight {
                self.highlights.absorb(&HighlightTerms::term(field, term.to_string()));
            }
        }
        self.terms.push((field.to_string(), postings));
        Ok(Node::Term(self.terms.len() - 1))
    }
}

/// Compiles the span query `q`, under the enclosing `boost`.
pub fn compile<'a>(ex: &Executor<'a>, q: &SpanQuery, boost: f32) -> Result<Weight<'a>> {
    let mut b = Builder { ex, terms: Vec::new(), stats: BTreeMap::new(), highlights: HighlightTerms::default() };
    let part = b.part(q, true, true);
    let highlights = std::mem::take(&mut b.highlights);
    let w = part.and_then(|part| weight(ex, b.terms, b.stats, part, boost * top_boost(q)));
    ex.noted(w, || highlights)
}

/// The boost of the outermost span: its own, and a `span_multi`'s inner query's (ES
/// makes it a span boost); a field mask passes its query's on.
fn top_boost(q: &SpanQuery) -> f32 {
    match q {
        SpanQuery::Multi { inner, boost, .. } => boost * expand::inner_boost(inner),
        SpanQuery::FieldMasking { inner, boost, .. } => boost * top_boost(inner),
        SpanQuery::Near { clauses, boost, .. } if clauses.len() == 1 => boost * top_boost(&clauses[0]),
        other => other.boost(),
    }
}

fn weight<'a>(
    ex: &Executor<'a>,
    terms: Vec<(String, Postings)>,
    stats: BTreeMap<(String, String), u64>,
    part: Part,
    boost: f32,
) -> Result<Weight<'a>> {
    let printed = part.printed.clone();
    let Some(field) = part.field.filter(|_| !stats.is_empty()) else {
        // No term of the query is in the index: Lucene builds no similarity and no
        // document matches.
        return ex.printed(Ok(Weight::none()), || printed);
    };
    let st = ex.reader.field_stats(&field);
    let doc_count = st.map(|s| s.doc_count).unwrap_or(0);
    let has_norms = match ex.resolve(&field) {
        Resolved::Field(fm) => fm.params.has_norms(fm.ftype),
        _ => false,
    };
    let avgdl = has_norms.then(|| avg_field_length(st.map(|s| s.sum_total_term_freq).unwrap_or(0), doc_count));
    let dfs: Vec<u64> = stats.values().copied().collect();
    // BM25 over several terms sums their idfs in a double.
    let idf_sum = match dfs.as_slice() {
        [one] => idf(*one, doc_count),
        many => many.iter().map(|df| idf(*df, doc_count) as f64).sum::<f64>() as f32,
    };
    let w = Weight::Span(Box::new(SpanWeight {
        ex: *ex,
        terms,
        root: part.node,
        candidates: part.docs,
        bm25: Bm25Weight::new(idf_sum, boost, avgdl),
        norms: if has_norms { ex.reader.norms(ex.snap, &field)? } else { None },
        explain: ex.explain.then(|| Box::new(SpanExplain { desc: printed.clone(), dfs, doc_count, boost, avgdl })),
    }));
    ex.printed(Ok(w), || printed)
}
