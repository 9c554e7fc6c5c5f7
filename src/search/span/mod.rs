//! Span queries compiled for one index, scored as Lucene's `SpanWeight` / `SpanScorer`
//! score them: a document's frequency is Σ 1 / (1 + width) over the query's spans in it
//! (`spans.rs`), scored with BM25 under the statistics of every term the query holds
//! (idfs summed in term order, Lucene's `TreeMap` of the terms) and the norms of the
//! query's field (a `field_masking_span`'s field when one sits at the top).
//!
//! Only the outermost span's boost counts: Lucene builds the clauses' weights without
//! theirs. Documents are candidates by set algebra (a near's clauses all present, an
//! or's any); positions are read for candidates only.

mod expand;
pub mod spans;

use super::bm25::{avg_field_length, idf, Bm25Weight};
use super::context::{Executor, Resolved};
use super::explain::{bm25_expl, idf_expl, java_float, non_scoring, Expl};
use super::highlight_terms::HighlightTerms;
use super::scorer::{BoxScorer, Scorer, NO_MORE};
use super::weight::Weight;
use crate::budget::Ticker;
use crate::error::{Error, Exception, Result};
use crate::index::{DocCursor, DocSet, PositionsCursor, Postings};
use crate::mapping::FieldType;
use crate::query::span::SpanQuery;
use spans::Span;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A span query's tree over the index's terms.
enum Node {
    /// Matches nothing (an absent term, an empty expansion).
    Nothing,
    /// A term: its index in [`SpanWeight::terms`].
    Term(usize),
    Or(Vec<Node>),
    Near {
        subs: Vec<Node>,
        slop: i64,
        in_order: bool,
    },
    Not {
        include: Box<Node>,
        exclude: Box<Node>,
        pre: i64,
        post: i64,
    },
    First {
        inner: Box<Node>,
        end: i64,
    },
    Containing {
        big: Box<Node>,
        little: Box<Node>,
    },
    Within {
        big: Box<Node>,
        little: Box<Node>,
    },
}

/// A compiled span query.
pub struct SpanWeight<'a> {
    ex: Executor<'a>,
    /// The terms' postings, each with its field.
    terms: Vec<(String, Postings)>,
    root: Node,
    candidates: DocSet,
    bm25: Bm25Weight,
    norms: Option<Arc<Vec<u8>>>,
    explain: Option<Box<SpanExplain>>,
}

/// What an explanation shows beside the spans.
struct SpanExplain {
    /// Lucene's string of the query.
    desc: String,
    /// The document frequencies of the query's terms, in term order.
    dfs: Vec<u64>,
    doc_count: u64,
    boost: f32,
    avgdl: Option<f32>,
}

/// One clause compiled: its node, its field (Lucene's `getField`), Lucene's string of
/// it and the documents that may hold its spans.
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

fn same_field_error(msg: &str) -> Error {
    Error::illegal_argument(msg)
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
            SpanQuery::Near { clauses, slop, in_order, .. } => {
                if clauses.len() == 1 {
                    // ES builds the clause itself.
                    return self.part(&clauses[0], scored, false);
                }
                let parts = self.parts(clauses, scored)?;
                let field = parts.iter().find_map(|p| p.field.clone());
                if parts.iter().any(|p| differ(&p.field, &field)) {
                    return Err(same_field_error("Clauses must have same field."));
                }
                let mut docs = parts[0].docs.clone();
                for p in &parts[1..] {
                    docs.and_with(&p.docs);
                }
                let printed = format!(
                    "spanNear([{}], {slop}, {in_order})",
                    parts.iter().map(|p| p.printed.as_str()).collect::<Vec<_>>().join(", ")
                );
                let subs = parts.into_iter().map(|p| p.node).collect();
                Ok(Part { node: Node::Near { subs, slop: *slop as i64, in_order: *in_order }, field, printed, docs })
            }
            SpanQuery::Or { clauses, .. } => {
                let parts = self.parts(clauses, scored)?;
                let field = parts.iter().find_map(|p| p.field.clone());
                if parts.iter().any(|p| differ(&p.field, &field)) {
                    return Err(same_field_error("Clauses must have same field."));
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
                    return Err(same_field_error("Clauses must have same field."));
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
                    return Err(same_field_error("big and little not same field"));
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

impl<'a> SpanWeight<'a> {
    /// Streams the candidates holding the query's spans, scored by their sloppy
    /// frequency.
    pub fn scorer(&self) -> Result<BoxScorer<'_>> {
        let mut s = self.span_scorer();
        s.doc = s.find(None);
        Ok(Box::new(s))
    }

    /// Lucene's `SpanWeight.explain`: BM25 of the document's sloppy frequency, labelled
    /// `phraseFreq`.
    pub fn explain(&self, doc: u32, scoring: bool) -> Result<Option<Expl>> {
        let Some(x) = self.explain.as_deref() else { return Ok(None) };
        let mut s = self.span_scorer();
        let found = s.find(Some(doc));
        if let Some(e) = s.error.take() {
            return Err(e);
        }
        if found != doc {
            return Ok(None);
        }
        if !scoring {
            return Ok(Some(non_scoring(&x.desc, doc, s.freq, "phraseFreq")));
        }
        let idf_e = match x.dfs.as_slice() {
            [one] => idf_expl(*one, x.doc_count),
            many => {
                let idfs: Vec<Expl> = many.iter().map(|df| idf_expl(*df, x.doc_count)).collect();
                let sum: f64 = idfs.iter().map(|e| e.value as f64).sum();
                Expl::new(sum as f32, "idf(), sum of:", idfs)
            }
        };
        let norm = self.norms.as_ref().and_then(|n| n.get(doc as usize)).copied().unwrap_or(0);
        Ok(Some(bm25_expl(&x.desc, doc, s.freq, "phraseFreq", idf_e, x.boost, x.avgdl.map(|a| (a, norm)))))
    }

    fn span_scorer(&self) -> SpanScorer<'_, 'a> {
        let cursors =
            self.terms.iter().map(|(f, p)| self.ex.reader.positions_cursor(self.ex.snap, f, p)).collect::<Vec<_>>();
        SpanScorer {
            w: self,
            candidates: self.candidates.cursor(),
            positions: vec![(NO_MORE, Vec::new()); self.terms.len()],
            cursors,
            doc: 0,
            freq: 0.0,
            error: None,
            ticker: Ticker::new(),
        }
    }
}

/// The span query's matches among its candidates.
struct SpanScorer<'w, 'a> {
    w: &'w SpanWeight<'a>,
    candidates: DocCursor<'w>,
    cursors: Vec<Option<PositionsCursor<'a, 'w>>>,
    /// Per term: the candidate whose positions it holds, and those positions.
    positions: Vec<(u32, Vec<u32>)>,
    doc: u32,
    freq: f32,
    error: Option<Error>,
    ticker: Ticker,
}

impl SpanScorer<'_, '_> {
    /// The spans of `node` in candidate `d`.
    fn spans(&mut self, node: &Node, d: u32) -> Result<Vec<Span>> {
        Ok(match node {
            Node::Nothing => Vec::new(),
            Node::Term(k) => {
                let (read_for, buf) = &mut self.positions[*k];
                if *read_for != d {
                    *read_for = d;
                    buf.clear();
                    if let Some(c) = self.cursors[*k].as_mut() {
                        c.read_doc(d, buf)?;
                    }
                }
                spans::term(&self.positions[*k].1)
            }
            Node::Or(subs) => {
                let lists = subs.iter().map(|s| self.spans(s, d)).collect::<Result<Vec<_>>>()?;
                spans::or(&lists)
            }
            Node::Near { subs, slop, in_order } => {
                let mut lists = Vec::with_capacity(subs.len());
                for s in subs {
                    let l = self.spans(s, d)?;
                    if l.is_empty() {
                        return Ok(l);
                    }
                    lists.push(l);
                }
                match in_order {
                    true => spans::near_ordered(&lists, *slop),
                    false => spans::near_unordered(&lists, *slop),
                }
            }
            Node::Not { include, exclude, pre, post } => {
                let inc = self.spans(include, d)?;
                if inc.is_empty() {
                    return Ok(inc);
                }
                spans::not(&inc, &self.spans(exclude, d)?, *pre, *post)
            }
            Node::First { inner, end } => spans::first(&self.spans(inner, d)?, *end),
            Node::Containing { big, little } => spans::containing(&self.spans(big, d)?, &self.spans(little, d)?),
            Node::Within { big, little } => spans::within(&self.spans(big, d)?, &self.spans(little, d)?),
        })
    }

    /// The next candidate (at or after `target`, else after the current one) holding
    /// spans of the query.
    fn find(&mut self, target: Option<u32>) -> u32 {
        let mut next = match target {
            Some(t) => self.candidates.seek(t),
            None => self.candidates.next_doc(),
        };
        let root = &self.w.root;
        while let Some(d) = next {
            match self.ticker.tick() {
                Ok(false) => {}
                Ok(true) => break,
                Err(e) => {
                    self.error.get_or_insert(e);
                    break;
                }
            }
            match self.spans(root, d) {
                Ok(s) if !s.is_empty() => {
                    self.freq = spans::sloppy_freq(&s);
                    return d;
                }
                Ok(_) => {}
                Err(e) => {
                    self.error.get_or_insert(e);
                    break;
                }
            }
            next = self.candidates.next_doc();
        }
        NO_MORE
    }
}

impl Scorer for SpanScorer<'_, '_> {
    fn doc(&self) -> u32 {
        self.doc
    }
    fn advance(&mut self) -> u32 {
        if self.doc != NO_MORE {
            self.doc = self.find(None);
        }
        self.doc
    }
    fn seek(&mut self, target: u32) -> u32 {
        if target > self.doc && self.doc != NO_MORE {
            self.doc = self.find(Some(target));
        }
        self.doc
    }
    fn score(&mut self) -> f32 {
        let nb = self.w.norms.as_ref().and_then(|n| n.get(self.doc as usize)).copied().unwrap_or(0);
        self.w.bm25.score(self.freq, nb)
    }
    fn cost(&self) -> u64 {
        self.w.candidates.len()
    }
    fn take_error(&mut self) -> Option<Error> {
        self.error.take()
    }
}
