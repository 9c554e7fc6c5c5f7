//! Compiled queries: one query tree resolved against one index (fields, analysis, term
//! statistics, BM25 weights), ready to stream its matches ([`Weight::scorer`]) or to be
//! evaluated as a document set ([`Weight::docset`]), Lucene's `Weight`.
//!
//! Each query type has one home: constant-score sets (filters, multi-term queries,
//! ranges, `match_all`), BM25 terms, booleans, `dis_max`, phrases (`phrase.rs`),
//! `boosting` and `function_score` (`function_score.rs`). Filter context never scores:
//! there a query is a roaring set, combined with set algebra.

use super::bm25::Bm25Weight;
use super::function_score::FunctionScoreWeight;
use super::phrase::PhraseWeight;
use super::scorer::{
    BoolScorer, BoostingScorer, BoxScorer, DisMaxScorer, EmptyScorer, ListScorer, Required, SetScorer, TermScorer,
    NO_MORE,
};
use crate::error::Result;
use crate::index::{DocSet, Freqs};
use std::borrow::Cow;
use std::sync::Arc;

/// A query compiled for one index.
pub enum Weight<'a> {
    /// Every document of a set, with one score.
    Const {
        /// The documents.
        docs: DocSet,
        /// Their score.
        score: f32,
    },
    /// One term scored with BM25.
    Term(Box<TermWeight>),
    /// A boolean combination.
    Bool(Box<BoolWeight<'a>>),
    /// Lucene's `DisjunctionMaxQuery`.
    DisMax {
        /// The disjuncts.
        subs: Vec<Weight<'a>>,
        /// `tie_breaker`.
        tie: f32,
    },
    /// A phrase (exact, sloppy or with an expanded last term).
    Phrase(Box<PhraseWeight<'a>>),
    /// `boosting`: the positive clause, demoted where the negative one matches.
    Boosting {
        /// Scored clause.
        positive: Box<Weight<'a>>,
        /// Demoted documents.
        negative: DocSet,
        /// `negative_boost`.
        factor: f32,
    },
    /// `function_score`.
    FunctionScore(Box<FunctionScoreWeight<'a>>),
    /// Matches computed earlier (a scroll's, kept between its pages): ascending
    /// documents and their scores.
    List {
        /// The documents.
        docs: &'a [u32],
        /// Their scores.
        scores: &'a [f32],
    },
}

/// A text term's postings with its BM25 weight and its field's norms.
pub struct TermWeight {
    /// Documents containing the term.
    pub docs: DocSet,
    freqs: Freqs,
    /// Per block, a bound of its documents' scores.
    bounds: Vec<f32>,
    norms: Option<Arc<Vec<u8>>>,
    bm25: Bm25Weight,
}

/// Block bounds are the block's best (frequency, norm) pair scored with the query's
/// weight, raised by this relative margin: the pair was chosen in f32 without the weight,
/// so rounding could order two nearly equal pairs differently than the scorer does.
const BOUND_MARGIN: f32 = 1.0 + 1e-5;

impl TermWeight {
    /// Scores a text term's documents (`docs`, `freqs`) with `bm25` over `norms`.
    pub fn new(docs: DocSet, freqs: Freqs, norms: Option<Arc<Vec<u8>>>, bm25: Bm25Weight) -> TermWeight {
        let bounds = (0..freqs.block_count())
            .map(|b| match freqs.block(b) {
                Some(i) => bm25.score(i.best_tf as f32, i.best_norm) * BOUND_MARGIN,
                // A short list has no skip entry: no bound, it is scored whole.
                None => f32::INFINITY,
            })
            .collect();
        TermWeight { docs, freqs, bounds, norms, bm25 }
    }
}

/// A boolean query's clauses, compiled.
pub struct BoolWeight<'a> {
    /// Required, scored.
    pub must: Vec<Weight<'a>>,
    /// Required, unscored: the intersection of every filter clause.
    pub filter: Option<DocSet>,
    /// Optional, scored.
    pub should: Vec<Weight<'a>>,
    /// Excluded documents.
    pub must_not: DocSet,
    /// Optional clauses that must match.
    pub min_should_match: usize,
}

impl<'a> Weight<'a> {
    /// Matches nothing.
    pub fn none() -> Weight<'a> {
        Weight::Const { docs: DocSet::new(), score: 0.0 }
    }

    /// A boolean combination, simplified where Lucene's rewrite would: nothing to
    /// match, or a single clause.
    pub fn boolean(b: BoolWeight<'a>) -> Weight<'a> {
        if b.min_should_match > b.should.len() {
            return Weight::none();
        }
        Weight::Bool(Box::new(b))
    }

    /// Lucene's `DisjunctionMaxQuery` (a single disjunct is itself: its score is
    /// `s + (s - s) * tie = s`).
    pub fn dis_max(mut subs: Vec<Weight<'a>>, tie: f32) -> Weight<'a> {
        match subs.len() {
            0 => Weight::none(),
            1 => subs.pop().unwrap_or_else(Weight::none),
            _ => Weight::DisMax { subs, tie },
        }
    }

    /// The set and score of a constant-score query.
    pub fn as_const(&self) -> Option<(&DocSet, f32)> {
        match self {
            Weight::Const { docs, score } => Some((docs, *score)),
            _ => None,
        }
    }

    /// Streams the matches with their scores.
    pub fn scorer(&self) -> Result<BoxScorer<'_>> {
        Ok(match self {
            Weight::Const { docs, score } => Box::new(SetScorer::new(docs, *score)),
            Weight::Term(t) => {
                let norms = t.norms.as_deref().map(|n| n.as_slice());
                Box::new(TermScorer::new(&t.docs, &t.freqs, &t.bounds, norms, &t.bm25))
            }
            Weight::Bool(b) => {
                let mut required = Vec::with_capacity(b.must.len() + 1);
                for w in &b.must {
                    required.push(Required { scorer: w.scorer()?, scored: true });
                }
                if let Some(f) = &b.filter {
                    required.push(Required { scorer: Box::new(SetScorer::new(f, 0.0)), scored: false });
                }
                let optional = b.should.iter().map(|w| w.scorer()).collect::<Result<Vec<_>>>()?;
                if required.is_empty() && optional.is_empty() {
                    return Ok(Box::new(EmptyScorer));
                }
                let excluded = (!b.must_not.is_empty()).then_some(&b.must_not);
                Box::new(BoolScorer::new(required, optional, excluded, b.min_should_match))
            }
            Weight::DisMax { subs, tie } => {
                Box::new(DisMaxScorer::new(subs.iter().map(|w| w.scorer()).collect::<Result<Vec<_>>>()?, *tie))
            }
            Weight::Phrase(p) => p.scorer()?,
            Weight::Boosting { positive, negative, factor } => {
                Box::new(BoostingScorer::new(positive.scorer()?, negative, *factor))
            }
            Weight::FunctionScore(f) => f.scorer()?,
            Weight::List { docs, scores } => Box::new(ListScorer::new(docs, scores)),
        })
    }

    /// The matching documents as a set: set algebra where the clauses allow it, else the
    /// scorer's stream.
    pub fn docset(&self) -> Result<DocSet> {
        match self {
            Weight::Const { docs, .. } => Ok(docs.clone()),
            Weight::Term(t) => Ok(t.docs.clone()),
            Weight::Bool(b) if b.min_should_match <= 1 => {
                let mut required: Option<DocSet> = b.filter.clone();
                for w in &b.must {
                    let s = w.docset()?;
                    match required.as_mut() {
                        None => required = Some(s),
                        Some(r) => r.and_with(&s),
                    }
                }
                let needs_should = required.is_none() || b.min_should_match == 1;
                let mut docs = match (required, needs_should) {
                    (Some(r), false) => r,
                    (required, _) => {
                        let mut any = DocSet::new();
                        for w in &b.should {
                            any.or_with(&w.docset()?);
                        }
                        match required {
                            Some(mut r) => {
                                r.and_with(&any);
                                r
                            }
                            None => any,
                        }
                    }
                };
                docs.sub_with(&b.must_not);
                Ok(docs)
            }
            Weight::DisMax { subs, .. } => {
                let mut docs = DocSet::new();
                for w in subs {
                    docs.or_with(&w.docset()?);
                }
                Ok(docs)
            }
            Weight::Boosting { positive, .. } => positive.docset(),
            Weight::List { docs, .. } => Ok(DocSet::from_sorted(docs)),
            Weight::FunctionScore(f) if !f.filters_by_score() => f.inner.docset(),
            _ => {
                let mut scorer = self.scorer()?;
                let mut docs = Vec::new();
                while scorer.doc() != NO_MORE {
                    docs.push(scorer.doc());
                    scorer.advance();
                }
                match scorer.take_error() {
                    Some(e) => Err(e),
                    None => Ok(DocSet::from_sorted(&docs)),
                }
            }
        }
    }

    /// The matching documents when set algebra gives them without scoring (no phrase,
    /// no `function_score`, no `minimum_should_match` above one); `None` otherwise.
    pub fn matches_by_sets(&self) -> Result<Option<Cow<'_, DocSet>>> {
        fn algebraic(w: &Weight<'_>) -> bool {
            match w {
                Weight::Const { .. } | Weight::Term(_) => true,
                Weight::Bool(b) => b.min_should_match <= 1 && b.must.iter().chain(&b.should).all(algebraic),
                Weight::DisMax { subs, .. } => subs.iter().all(algebraic),
                Weight::Boosting { positive, .. } => algebraic(positive),
                Weight::Phrase(_) | Weight::FunctionScore(_) | Weight::List { .. } => false,
            }
        }
        Ok(match self {
            Weight::Const { docs, .. } => Some(Cow::Borrowed(docs)),
            Weight::Term(t) => Some(Cow::Borrowed(&t.docs)),
            w if algebraic(w) => Some(Cow::Owned(w.docset()?)),
            _ => None,
        })
    }

    /// [`Weight::scorer`] for a query whose exact matches `matches` are known (from
    /// [`Weight::matches_by_sets`]): a conjunction then leads with that set, so its
    /// clauses only ever seek to documents they hold, instead of leapfrogging through
    /// the misses of the cheapest clause.
    pub fn scorer_within<'s>(&'s self, matches: &'s DocSet) -> Result<BoxScorer<'s>> {
        match self {
            Weight::Bool(b) if b.must.len() + usize::from(b.filter.is_some()) >= 2 => {
                let mut required = Vec::with_capacity(b.must.len() + 1);
                for w in &b.must {
                    required.push(Required { scorer: w.scorer()?, scored: true });
                }
                // The matches lie inside the filter and outside the excluded documents.
                required.push(Required { scorer: Box::new(SetScorer::new(matches, 0.0)), scored: false });
                let optional = b.should.iter().map(|w| w.scorer()).collect::<Result<Vec<_>>>()?;
                Ok(Box::new(BoolScorer::new(required, optional, None, b.min_should_match)))
            }
            _ => self.scorer(),
        }
    }

    /// Whether `doc` matches (explanations ask this of one document).
    pub fn matches(&self, doc: u32) -> Result<bool> {
        let mut scorer = self.scorer()?;
        let hit = scorer.seek(doc) == doc;
        match scorer.take_error() {
            Some(e) => Err(e),
            None => Ok(hit),
        }
    }
}
