//! Compiled queries: one query tree resolved against one index (fields, analysis, term
//! statistics, BM25 weights), ready to stream its matches ([`Weight::scorer`]), to be
//! evaluated as a document set ([`Weight::docset`]) or to explain one document's score
//! ([`Weight::explain`]), Lucene's `Weight`.
//!
//! Each weight type has one home: constant-score sets (filters, multi-term queries,
//! ranges, `match_all`), BM25 terms, booleans, `dis_max` and `boosting` here; phrases
//! (`phrase.rs`), spans (`span/`), `function_score` (`function_score.rs`), `terms_set`
//! (`terms_set.rs`) and the nested block join (`join.rs`) beside it, each with its scorer
//! and explanation. The modules that compile those queries import this one, never the
//! reverse. Filter context never scores: there a query is a roaring set, combined with
//! set algebra.
//!
//! What only an explanation needs (Lucene's strings of the queries, the clauses that
//! filter context reduces to sets) is kept by a weight compiled for explanations
//! ([`super::context::Executor::explaining`]); what the highlighter looks for
//! ([`Weight::highlights`]) by a weight compiled for highlighting
//! ([`super::context::Executor::highlighting`]); the search path builds none of it.

pub mod function_score;
pub mod join;
pub mod phrase;
pub mod span;
pub mod terms_set;

use super::bm25::Bm25Weight;
use super::explain::{bm25_expl, boosted_desc, idf_expl, non_scoring, Expl};
use super::highlight_terms::HighlightTerms;
use super::scorer::{
    BoolScorer, BoostingScorer, BoxScorer, DisMaxScorer, EmptyScorer, ListScorer, Required, SetScorer, TermScorer,
    NO_MORE,
};
use crate::error::Result;
use crate::index::{DocSet, Freqs};
use function_score::FunctionScoreWeight;
use phrase::PhraseWeight;
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
        /// How it explains a document (weights compiled for explanations only).
        explain: Option<Box<ConstExplain>>,
    },
    /// One term scored with BM25.
    Term(Box<TermWeight>),
    /// Terms stacked at one position, scored as one (Lucene's SynonymQuery).
    Synonym(Box<super::synonym::SynonymWeight>),
    /// A boolean combination.
    Bool(Box<BoolWeight<'a>>),
    /// Lucene's `DisjunctionMaxQuery` (with a single disjunct only when compiled for
    /// an explanation that shows it, see [`Weight::field_dis_max`]).
    DisMax {
        /// The disjuncts.
        subs: Vec<Weight<'a>>,
        /// `tie_breaker`.
        tie: f32,
    },
    /// A phrase (exact, sloppy or with an expanded last term).
    Phrase(Box<PhraseWeight<'a>>),
    /// A span query.
    Span(Box<span::SpanWeight<'a>>),
    /// `terms_set`: its matches and scores, computed when compiled.
    TermsSet(Box<terms_set::TermsSetWeight<'a>>),
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
    /// `nested` in scoring context: a block join onto the parents.
    Join(Box<join::JoinWeight<'a>>),
    /// A weight with what its query says beyond running it (compiled for explanations
    /// or highlighting only); it matches, scores and explains as the weight inside.
    Noted(Box<Noted<'a>>),
}

/// What a compile arm recorded of its query beside the weight that runs it.
pub struct Noted<'a> {
    /// The weight that runs the query.
    pub inner: Weight<'a>,
    /// The terms the query highlights, per field; they stand for the query, whatever
    /// `inner` holds (a fuzzy query highlights its automaton, not its expansions).
    pub highlights: Option<HighlightTerms>,
    /// Lucene's `toString` of the query (compiled for explanations): what an enclosing
    /// constant-score query, boolean or function filter prints for it.
    pub query: Option<String>,
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
    /// The term's statistics, when compiled for explanations.
    explain: Option<Box<TermExplain>>,
}

/// How a constant-score weight explains a matching document.
pub enum ConstExplain {
    /// A constant-score query: Lucene's string of it, the boost appended as ES prints it.
    Query(String),
    /// ES's `match_all` clause added to a purely negative boolean: `sum of:` over it.
    NegativeBool,
    /// A term of a field without frequencies: BM25 of one occurrence, without norms.
    Term(TermExplain),
}

/// What the explanation of a BM25 term shows beside its postings: Lucene's
/// `TermWeight.explain` with `BM25Similarity`.
pub struct TermExplain {
    /// The field.
    pub field: String,
    /// The indexed term.
    pub term: String,
    /// Document frequency (blended or fuzzy terms use a shared one).
    pub df: u64,
    /// Documents with the field.
    pub doc_count: u64,
    /// The boost, enclosing boosts multiplied in.
    pub boost: f32,
    /// Average field length, for fields with norms.
    pub avgdl: Option<f32>,
}

impl TermExplain {
    /// The explanation of `doc` holding the term `freq` times with `norm` (its norm
    /// byte); `scoring` false gives Lucene's non-scoring similarity of filters.
    pub fn explain(&self, doc: u32, freq: f32, norm: u8, scoring: bool) -> Expl {
        let desc = format!("{}:{}", self.field, self.term);
        if !scoring {
            return non_scoring(&desc, doc, freq, "termFreq");
        }
        let norms = self.avgdl.map(|a| (a, norm));
        bm25_expl(&desc, doc, freq, "termFreq", idf_expl(self.df, self.doc_count), self.boost, norms)
    }
}

/// Block bounds are the block's best (frequency, norm) pair scored with the query's
/// weight, raised by this relative margin: the pair was chosen in f32 without the weight,
/// so rounding could order two nearly equal pairs differently than the scorer does.
const BOUND_MARGIN: f32 = 1.0 + 1e-5;

impl TermWeight {
    /// Scores a text term's documents (`docs`, `freqs`) with `bm25` over `norms`;
    /// `explain` is kept for explanations.
    pub fn new(
        docs: DocSet,
        freqs: Freqs,
        norms: Option<Arc<Vec<u8>>>,
        bm25: Bm25Weight,
        explain: Option<Box<TermExplain>>,
    ) -> TermWeight {
        let bounds = (0..freqs.block_count())
            .map(|b| match freqs.block(b) {
                Some(i) => bm25.score(i.best_tf as f32, i.best_norm) * BOUND_MARGIN,
                // A short list has no skip entry: no bound, it is scored whole.
                None => f32::INFINITY,
            })
            .collect();
        TermWeight { docs, freqs, bounds, norms, bm25, explain }
    }

    /// Lucene's `TermWeight.explain` for `doc`.
    fn explain(&self, doc: u32, scoring: bool) -> Option<Expl> {
        let idx = self.docs.index_of(doc)?;
        let freq = self.freqs.get(idx).unwrap_or(1) as f32;
        let norm = self.norms.as_ref().and_then(|n| n.get(doc as usize).copied()).unwrap_or(0);
        Some(self.explain.as_ref()?.explain(doc, freq, norm, scoring))
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
    /// The filter clauses one by one, compiled for explanations only (the search path
    /// keeps their intersection, `filter`).
    pub filter_clauses: Vec<Weight<'a>>,
}

impl BoolWeight<'_> {
    /// Lucene's `BooleanWeight.explain`: scoring clauses summed in float in clause order,
    /// filters as `match on required clause` under the non-scoring similarity; `None`
    /// when a required or excluded clause, or `minimum_should_match`, fails.
    fn explain(&self, doc: u32, scoring: bool) -> Result<Option<Expl>> {
        if self.must_not.contains(doc) {
            return Ok(None);
        }
        let mut subs = Vec::new();
        let mut sum = 0f32;
        let mut should_matched = 0usize;
        for w in &self.must {
            let Some(e) = w.explain(doc, scoring)? else { return Ok(None) };
            sum += e.value;
            subs.push(e);
        }
        for w in &self.should {
            if let Some(e) = w.explain(doc, scoring)? {
                sum += e.value;
                subs.push(e);
                should_matched += 1;
            }
        }
        for w in &self.filter_clauses {
            let Some(e) = w.explain(doc, false)? else { return Ok(None) };
            subs.push(Expl::new(0.0, "match on required clause, product of:", vec![Expl::leaf(0.0, "# clause"), e]));
        }
        if subs.is_empty() || should_matched < self.min_should_match {
            return Ok(None);
        }
        Ok(Some(Expl::new(sum, "sum of:", subs)))
    }
}

impl<'a> Weight<'a> {
    /// Matches nothing.
    pub fn none() -> Weight<'a> {
        Weight::constant(DocSet::new(), 0.0)
    }

    /// Every document of `docs`, scoring `score`.
    pub fn constant(docs: DocSet, score: f32) -> Weight<'a> {
        Weight::Const { docs, score, explain: None }
    }

    /// A constant-score weight that explains itself as `why()` says, asked only when
    /// compiling for explanations (`explaining`), so that searching formats nothing.
    pub fn described(self, explaining: bool, why: impl FnOnce() -> ConstExplain) -> Weight<'a> {
        match self {
            Weight::Const { docs, score, .. } if explaining => {
                Weight::Const { docs, score, explain: Some(Box::new(why())) }
            }
            w => w,
        }
    }

    /// A boolean combination, simplified where Lucene's rewrite would: nothing to
    /// match, or a single clause.
    pub fn boolean(b: BoolWeight<'a>) -> Weight<'a> {
        if b.min_should_match > b.should.len() {
            return Weight::none();
        }
        Weight::Bool(Box::new(b))
    }

    /// Optional clauses of which `min_should_match` must match; a single clause that
    /// must match is itself, as Lucene rewrites it.
    pub fn any_of(mut should: Vec<Weight<'a>>, min_should_match: usize) -> Weight<'a> {
        if should.len() == 1 && min_should_match == 1 {
            return should.pop().unwrap_or_else(Weight::none);
        }
        Weight::boolean(BoolWeight {
            must: Vec::new(),
            filter: None,
            should,
            must_not: DocSet::new(),
            min_should_match,
            filter_clauses: Vec::new(),
        })
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

    /// The `dis_max` multi_match and cross_fields build over fields. Searching, a single
    /// disjunct is itself; Lucene does not rewrite it when a tie breaker is set, so an
    /// explanation (`explaining`) keeps it: `max plus T times others of:` over it.
    pub fn field_dis_max(mut subs: Vec<Weight<'a>>, tie: f32, explaining: bool) -> Weight<'a> {
        if explaining && subs.len() == 1 && tie != 0.0 {
            return Weight::DisMax { subs: vec![subs.pop().unwrap_or_else(Weight::none)], tie };
        }
        Weight::dis_max(subs, tie)
    }

    /// The set and score of a constant-score query.
    pub fn as_const(&self) -> Option<(&DocSet, f32)> {
        match self {
            Weight::Const { docs, score, .. } => Some((docs, *score)),
            Weight::Noted(n) => n.inner.as_const(),
            _ => None,
        }
    }

    /// This weight recording that its query highlights `terms` (replacing what the
    /// weights it was built from recorded: the query's arm knows best).
    pub fn with_highlights(self, terms: HighlightTerms) -> Weight<'a> {
        match self {
            Weight::Noted(mut n) => {
                n.highlights = Some(terms);
                Weight::Noted(n)
            }
            inner => Weight::Noted(Box::new(Noted { inner, highlights: Some(terms), query: None })),
        }
    }

    /// This weight recording Lucene's string of its query (replacing what the weights it
    /// was built from recorded: a one-clause boolean prints as a boolean).
    pub fn with_query_string(self, query: String) -> Weight<'a> {
        match self {
            Weight::Noted(mut n) => {
                n.query = Some(query);
                Weight::Noted(n)
            }
            inner => Weight::Noted(Box::new(Noted { inner, highlights: None, query: Some(query) })),
        }
    }

    /// Lucene's `toString` of this weight's query, as its arm recorded it when compiling
    /// for explanations; empty otherwise.
    pub fn query_string(&self) -> String {
        match self {
            Weight::Noted(n) => match &n.query {
                Some(q) => q.clone(),
                None => n.inner.query_string(),
            },
            _ => String::new(),
        }
    }

    /// Adds to `out` what this weight's query highlights: what its arm recorded, else
    /// what its scored (and filter) clauses highlight. Excluded clauses (`must_not`,
    /// `boosting`'s negative, function filters) highlight nothing.
    pub fn highlights(&self, out: &mut HighlightTerms) {
        match self {
            Weight::Noted(n) => match &n.highlights {
                Some(h) => out.absorb(h),
                None => n.inner.highlights(out),
            },
            Weight::Bool(b) => b.must.iter().chain(&b.should).chain(&b.filter_clauses).for_each(|w| w.highlights(out)),
            Weight::DisMax { subs, .. } => subs.iter().for_each(|w| w.highlights(out)),
            Weight::Boosting { positive, .. } => positive.highlights(out),
            Weight::FunctionScore(f) => f.inner.highlights(out),
            Weight::Join(j) => j.highlights(out),
            Weight::Const { .. }
            | Weight::Term(_)
            | Weight::Synonym(_)
            | Weight::Phrase(_)
            | Weight::Span(_)
            | Weight::TermsSet(_)
            | Weight::List { .. } => {}
        }
    }

    /// The explanation of hit `doc`'s score under this weight (compiled by
    /// `Executor::compile_explained`); a document it does not match has one too.
    pub fn explain_hit(&self, doc: u32) -> Result<Expl> {
        Ok(self.explain(doc, true)?.unwrap_or_else(|| Expl::leaf(0.0, "no matching term")))
    }

    /// Lucene's `Weight.explain`: how `doc` scores, `None` when it does not match;
    /// `scoring` false explains filter context (Lucene's non-scoring similarity).
    pub fn explain(&self, doc: u32, scoring: bool) -> Result<Option<Expl>> {
        Ok(match self {
            Weight::Const { docs, score, explain } => {
                if !docs.contains(doc) {
                    return Ok(None);
                }
                let leaf = |desc: &str| Expl::leaf(*score, boosted_desc(desc, *score));
                match explain.as_deref() {
                    Some(ConstExplain::Query(desc)) => Some(leaf(desc)),
                    Some(ConstExplain::NegativeBool) => Some(Expl::new(*score, "sum of:", vec![leaf("*:*")])),
                    Some(ConstExplain::Term(t)) => Some(t.explain(doc, 1.0, 0, scoring)),
                    None => Some(leaf("")),
                }
            }
            Weight::Term(t) => t.explain(doc, scoring),
            Weight::Synonym(s) => s.explain(doc, scoring),
            Weight::Bool(b) => b.explain(doc, scoring)?,
            Weight::DisMax { subs, tie } => {
                let mut matched = Vec::with_capacity(subs.len());
                for w in subs {
                    matched.extend(w.explain(doc, scoring)?);
                }
                dis_max_expl(matched, *tie)
            }
            Weight::Phrase(p) => p.explain(doc, scoring)?,
            Weight::Span(s) => s.explain(doc, scoring)?,
            Weight::TermsSet(t) => t.explain(doc, scoring)?,
            Weight::Boosting { positive, negative, factor } => match positive.explain(doc, scoring)? {
                Some(pos) if negative.contains(doc) => {
                    Some(Expl::new(pos.value * factor, "product of:", vec![pos, Expl::leaf(*factor, "boost")]))
                }
                other => other,
            },
            Weight::FunctionScore(f) => f.explain(doc, scoring)?,
            Weight::Join(j) => j.explain(doc, scoring)?,
            // Cached matches are never explained: explanations compile the query anew.
            Weight::List { .. } => None,
            Weight::Noted(n) => n.inner.explain(doc, scoring)?,
        })
    }

    /// Streams the matches with their scores.
    pub fn scorer(&self) -> Result<BoxScorer<'_>> {
        Ok(match self {
            Weight::Const { docs, score, .. } => Box::new(SetScorer::new(docs, *score)),
            Weight::Term(t) => {
                let norms = t.norms.as_deref().map(|n| n.as_slice());
                Box::new(TermScorer::new(&t.docs, &t.freqs, &t.bounds, norms, &t.bm25))
            }
            Weight::Synonym(s) => Box::new(ListScorer::new(&s.doc_list, &s.scores)),
            Weight::Bool(b) => b.scorer(None)?,
            Weight::DisMax { subs, tie } => {
                Box::new(DisMaxScorer::new(subs.iter().map(|w| w.scorer()).collect::<Result<Vec<_>>>()?, *tie))
            }
            Weight::Phrase(p) => p.scorer()?,
            Weight::Span(s) => s.scorer()?,
            Weight::TermsSet(t) => t.scorer(),
            Weight::Boosting { positive, negative, factor } => {
                Box::new(BoostingScorer::new(positive.scorer()?, negative, *factor))
            }
            Weight::FunctionScore(f) => f.scorer()?,
            Weight::Join(j) => j.scorer()?,
            Weight::List { docs, scores } => Box::new(ListScorer::new(docs, scores)),
            Weight::Noted(n) => n.inner.scorer()?,
        })
    }

    /// The matching documents as a set: set algebra where the clauses allow it, else the
    /// scorer's stream.
    pub fn docset(&self) -> Result<DocSet> {
        match self {
            Weight::Const { docs, .. } => Ok(docs.clone()),
            Weight::Term(t) => Ok(t.docs.clone()),
            Weight::Synonym(s) => Ok(s.docs.clone()),
            Weight::TermsSet(t) => Ok(t.docs.clone()),
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
            Weight::Join(j) => j.docset(),
            Weight::List { docs, .. } => Ok(DocSet::from_sorted(docs)),
            Weight::Noted(n) => n.inner.docset(),
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
                Weight::Const { .. } | Weight::Term(_) | Weight::Synonym(_) => true,
                Weight::Bool(b) => b.min_should_match <= 1 && b.must.iter().chain(&b.should).all(algebraic),
                Weight::DisMax { subs, .. } => subs.iter().all(algebraic),
                Weight::Boosting { positive, .. } => algebraic(positive),
                Weight::Noted(n) => algebraic(&n.inner),
                Weight::TermsSet(_) => true,
                // The parents of the child query's matches, when those come from sets.
                Weight::Join(j) => algebraic(j.child()),
                Weight::Phrase(_) | Weight::Span(_) | Weight::FunctionScore(_) | Weight::List { .. } => false,
            }
        }
        Ok(match self {
            Weight::Const { docs, .. } => Some(Cow::Borrowed(docs)),
            Weight::Term(t) => Some(Cow::Borrowed(&t.docs)),
            Weight::Synonym(s) => Some(Cow::Borrowed(&s.docs)),
            Weight::TermsSet(t) => Some(Cow::Borrowed(&t.docs)),
            Weight::Noted(n) => n.inner.matches_by_sets()?,
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
            Weight::Bool(b) if b.must.len() + usize::from(b.filter.is_some()) >= 2 => b.scorer(Some(matches)),
            _ => self.scorer(),
        }
    }
}

impl BoolWeight<'_> {
    /// The boolean scorer; with the query's exact `matches` known, that set stands in
    /// for the filter and the exclusions (the matches lie inside the one and outside the
    /// other) and, being the cheapest clause, leads the conjunction.
    fn scorer<'s>(&'s self, matches: Option<&'s DocSet>) -> Result<BoxScorer<'s>> {
        let mut required = Vec::with_capacity(self.must.len() + 1);
        for w in &self.must {
            required.push(Required { scorer: w.scorer()?, scored: true });
        }
        if let Some(set) = matches.or(self.filter.as_ref()) {
            required.push(Required { scorer: Box::new(SetScorer::new(set, 0.0)), scored: false });
        }
        let optional = self.should.iter().map(|w| w.scorer()).collect::<Result<Vec<_>>>()?;
        if required.is_empty() && optional.is_empty() {
            return Ok(Box::new(EmptyScorer));
        }
        let excluded = (matches.is_none() && !self.must_not.is_empty()).then_some(&self.must_not);
        Ok(Box::new(BoolScorer::new(required, optional, excluded, self.min_should_match)))
    }
}

/// Lucene's `DisjunctionMaxWeight.explain` over the matching disjuncts: the best, plus
/// `tie` times the others.
fn dis_max_expl(matched: Vec<Expl>, tie: f32) -> Option<Expl> {
    if matched.is_empty() {
        return None;
    }
    let mut max = f32::NEG_INFINITY;
    let mut sum = 0f32;
    for e in &matched {
        sum += e.value;
        max = max.max(e.value);
    }
    let value = max + (sum - max) * tie;
    let desc = if tie == 0.0 {
        "max of:".to_string()
    } else {
        format!("max plus {} times others of:", super::explain::java_float(tie))
    };
    Some(Expl::new(value, desc, matched))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disjunction_explanations() {
        let d = dis_max_expl(vec![Expl::leaf(1.0, "a"), Expl::leaf(2.0, "b")], 0.5).unwrap();
        assert_eq!(d.value, 2.5);
        assert_eq!(d.description, "max plus 0.5 times others of:");
        assert_eq!(dis_max_expl(vec![Expl::leaf(1.0, "a")], 0.0).unwrap().description, "max of:");
        assert!(dis_max_expl(Vec::new(), 0.0).is_none());
    }
}
