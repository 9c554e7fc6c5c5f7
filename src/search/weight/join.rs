//! Lucene's `ToParentBlockJoinQuery` over one generation: nested documents precede
//! their parent, so a parent's block is the documents after the previous parent; a
//! parent matches when a document of its block matches the child query, and scores
//! from those documents' scores by the score mode (summed in `f64`, as Lucene does).

use crate::error::Result;
use crate::index::DocSet;
use crate::query::nested::ScoreMode;
use crate::search::explain::Expl;
use crate::search::highlight_terms::HighlightTerms;
use crate::search::scorer::{BoxScorer, Scorer, NO_MORE};
use crate::search::weight::Weight;
use std::sync::Arc;

/// A compiled `nested` query in scoring context.
pub struct JoinWeight<'a> {
    child: Weight<'a>,
    children: Arc<DocSet>,
    parents: Arc<DocSet>,
    mode: ScoreMode,
}

/// The parents (the first document of `parents` at or after each) of `children`: both
/// cursors only move forward, and the children of a found parent are skipped at once.
pub fn parents_of(children: &DocSet, parents: &DocSet) -> DocSet {
    let mut out = Vec::new();
    let mut kids = children.cursor();
    let mut ups = parents.cursor();
    let mut next = kids.next_doc();
    while let Some(c) = next {
        let Some(p) = ups.seek(c) else { break };
        out.push(p);
        next = match p.checked_add(1) {
            Some(after) => kids.seek(after),
            None => None,
        };
    }
    DocSet::from_sorted(&out)
}

/// The documents of `children` in the blocks of `docs`: for each document, those after
/// the previous document of `parents` (Lucene's `BitSet.prevSetBit`) and before it.
pub fn children_of(docs: &DocSet, parents: &DocSet, children: &DocSet) -> DocSet {
    let mut out = Vec::new();
    let mut cursor = children.cursor();
    // The cursor's last document, read but not yet placed in a block.
    let mut pending: Option<u32> = None;
    for p in docs.iter() {
        let start = parents.prev_before(p).map_or(0, |q| q + 1);
        let mut c = match pending {
            Some(d) if d >= start => Some(d),
            _ => cursor.seek(start),
        };
        while let Some(doc) = c.filter(|d| *d < p) {
            out.push(doc);
            c = cursor.next_doc();
        }
        pending = c;
        if pending.is_none() {
            break;
        }
    }
    DocSet::from_sorted(&out)
}

impl<'a> JoinWeight<'a> {
    /// The join of `child`'s matches among `children` onto `parents`.
    pub fn new(child: Weight<'a>, children: Arc<DocSet>, parents: Arc<DocSet>, mode: ScoreMode) -> JoinWeight<'a> {
        JoinWeight { child, children, parents, mode }
    }

    /// The parents of the child query's matches.
    pub fn docset(&self) -> Result<DocSet> {
        let mut matched = self.child.docset()?;
        matched.and_with(&self.children);
        Ok(parents_of(&matched, &self.parents))
    }

    /// The block-join scorer.
    pub fn scorer(&self) -> Result<BoxScorer<'_>> {
        let mut scorer = BlockJoinScorer {
            child: self.child.scorer()?,
            children: &self.children,
            parents: &self.parents,
            mode: self.mode,
            doc: 0,
            score: 0.0,
        };
        // Standing on the first match once built, as every scorer does.
        scorer.next_parent();
        Ok(Box::new(scorer))
    }

    /// What the child query highlights.
    pub fn highlights(&self, out: &mut HighlightTerms) {
        self.child.highlights(out)
    }

    /// Lucene's `BlockJoinScorer.explain`: the score, how many documents of the block
    /// matched (and the block's range), and the best one's explanation.
    pub fn explain(&self, doc: u32, scoring: bool) -> Result<Option<Expl>> {
        if !self.parents.contains(doc) {
            return Ok(None);
        }
        let start = self.parents.prev_before(doc).map_or(0, |p| p + 1);
        let mut best: Option<Expl> = None;
        let mut matches = 0u32;
        let mut acc = Accumulator::new(self.mode);
        for c in start..doc {
            if !self.children.contains(c) {
                continue;
            }
            if let Some(e) = self.child.explain(c, scoring)? {
                matches += 1;
                acc.add(e.value);
                if best.as_ref().is_none_or(|b| e.value > b.value) {
                    best = Some(e);
                }
            }
        }
        let Some(best) = best else { return Ok(None) };
        let desc =
            format!("Score based on {matches} child docs in range from {start} to {}, best match:", i64::from(doc) - 1);
        Ok(Some(Expl::new(acc.score(), desc, vec![best])))
    }
}

/// A parent's score gathered from its matching nested documents.
struct Accumulator {
    mode: ScoreMode,
    score: f64,
    count: u32,
}

impl Accumulator {
    fn new(mode: ScoreMode) -> Accumulator {
        Accumulator { mode, score: 0.0, count: 0 }
    }

    fn add(&mut self, s: f32) {
        let s = if self.mode == ScoreMode::None { 0.0 } else { f64::from(s) };
        self.score = match (self.count, self.mode) {
            (0, _) => s,
            (_, ScoreMode::Sum) => self.score + s,
            (_, ScoreMode::Avg) => self.score + s,
            (_, ScoreMode::Min) => self.score.min(s),
            (_, ScoreMode::Max) => self.score.max(s),
            (_, ScoreMode::None) => 0.0,
        };
        self.count += 1;
    }

    fn score(&self) -> f32 {
        match self.mode {
            ScoreMode::Avg if self.count > 0 => (self.score / f64::from(self.count)) as f32,
            _ => self.score as f32,
        }
    }
}

struct BlockJoinScorer<'w> {
    child: BoxScorer<'w>,
    children: &'w DocSet,
    parents: &'w DocSet,
    mode: ScoreMode,
    doc: u32,
    score: f32,
}

impl BlockJoinScorer<'_> {
    /// Moves to the parent of the child scorer's next match at or after where it is,
    /// gathering that block's scores.
    fn next_parent(&mut self) -> u32 {
        let mut c = self.child.doc();
        while c != NO_MORE && !self.children.contains(c) {
            c = self.child.advance();
        }
        if c == NO_MORE {
            self.doc = NO_MORE;
            return NO_MORE;
        }
        let Some(parent) = self.parents.next_from(c) else {
            self.doc = NO_MORE;
            return NO_MORE;
        };
        let scores = self.mode != ScoreMode::None;
        let mut acc = Accumulator::new(self.mode);
        while c < parent {
            if self.children.contains(c) {
                acc.add(if scores { self.child.score() } else { 0.0 });
            }
            c = self.child.advance();
        }
        self.doc = parent;
        self.score = acc.score();
        parent
    }
}

impl Scorer for BlockJoinScorer<'_> {
    fn doc(&self) -> u32 {
        self.doc
    }
    fn advance(&mut self) -> u32 {
        if self.doc == NO_MORE {
            return NO_MORE;
        }
        self.next_parent()
    }
    fn seek(&mut self, target: u32) -> u32 {
        if self.doc >= target {
            return self.doc;
        }
        // The blocks of parents at or after `target` start after the last parent before it.
        let start = self.parents.prev_before(target).map_or(0, |p| p + 1);
        if self.child.doc() < start {
            self.child.seek(start);
        }
        self.next_parent()
    }
    fn score(&mut self) -> f32 {
        self.score
    }
    fn cost(&self) -> u64 {
        self.child.cost()
    }
    fn take_error(&mut self) -> Option<crate::error::Error> {
        self.child.take_error()
    }
}
