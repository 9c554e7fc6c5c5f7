//! The weight of a span query (compiled by `search/span/`), scored as Lucene's
//! `SpanWeight` / `SpanScorer` score it: a document's frequency is Σ 1 / (1 + width)
//! over the query's spans in it (`spans.rs`), scored with BM25 under the statistics of
//! every term the query holds and the norms of the query's field. Positions are read
//! for candidates only.

pub mod spans;

use crate::budget::Ticker;
use crate::error::{Error, Result};
use crate::index::{DocCursor, DocSet, PositionsCursor, Postings};
use crate::search::bm25::Bm25Weight;
use crate::search::context::Executor;
use crate::search::explain::{bm25_expl, idf_expl, non_scoring, Expl};
use crate::search::scorer::{BoxScorer, Scorer, NO_MORE};
use spans::Span;
use std::sync::Arc;

/// A span query's tree over the index's terms.
pub(crate) enum Node {
    /// Matches nothing (an absent term, an empty expansion).
    Nothing,
    /// A term: its index in [`SpanWeight::terms`].
    Term(usize),
    /// A gap of this width between clauses of an ordered near (Lucene's `GapSpans`: a
    /// span at every position); only ever a sub of [`Node::Near`].
    Gap(i64),
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
    pub(crate) ex: Executor<'a>,
    /// The terms' postings, each with its field.
    pub(crate) terms: Vec<(String, Postings)>,
    pub(crate) root: Node,
    pub(crate) candidates: DocSet,
    pub(crate) bm25: Bm25Weight,
    pub(crate) norms: Option<Arc<Vec<u8>>>,
    pub(crate) explain: Option<Box<SpanExplain>>,
}

/// What an explanation shows beside the spans.
pub(crate) struct SpanExplain {
    /// Lucene's string of the query.
    pub(crate) desc: String,
    /// The document frequencies of the query's terms, in term order.
    pub(crate) dfs: Vec<u64>,
    pub(crate) doc_count: u64,
    pub(crate) boost: f32,
    pub(crate) avgdl: Option<f32>,
}

/// One clause compiled: its node, its field (Lucene's `getField`), Lucene's string of
/// it and the documents that may hold its spans.
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
            // A gap holds no positions of its own (see spans::near_ordered_gapped).
            Node::Gap(_) => Vec::new(),
            Node::Near { subs, slop, in_order } if subs.iter().any(|s| matches!(s, Node::Gap(_))) => {
                let mut clauses = Vec::with_capacity(subs.len());
                for s in subs {
                    clauses.push(match s {
                        Node::Gap(width) => spans::NearClause::Gap(*width),
                        other => {
                            let l = self.spans(other, d)?;
                            if l.is_empty() {
                                return Ok(l);
                            }
                            spans::NearClause::Spans(l)
                        }
                    });
                }
                spans::near_ordered_gapped(&clauses, *slop)
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
