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

    /// The query the nested documents must match.
    pub fn child(&self) -> &Weight<'a> {
        &self.child
    }

    /// The parents of the child query's matches.
    pub fn docset(&self) -> Result<DocSet> {
        let mut matched = self.child.docset()?;
        matched.and_with(&self.children);
        Ok(parents_of(&matched, &self.parents))
    }

    /// The block-join scorer.
    pub fn scorer(&self) -> Result<BoxScorer<'_>> {
        // A parent averaging, or taking the max or min of, its children's scores can
        // beat the collector's bar only when one of its children does: a second child
        // scorer, told the bar, finds those children and skips the rest by block maxima.
        let probe = match self.mode {
            ScoreMode::Avg | ScoreMode::Max | ScoreMode::Min => Some(self.child.scorer()?),
            ScoreMode::Sum | ScoreMode::None => None,
        };
        let mut scorer = BlockJoinScorer {
            child: self.child.scorer()?,
            probe,
            bar: None,
            children: &self.children,
            parents: &self.parents,
            mode: self.mode,
            doc: 0,
            score: 0.0,
        };
        // Standing on the first match once built, as every scorer does.
        scorer.next_parent(0);
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
    /// Every match of the child query: a parent's score gathers all of its block's.
    child: BoxScorer<'w>,
    /// The child query again, told the collector's bar (modes whose parent score is at
    /// most its best child's): it finds the blocks that can compete.
    probe: Option<BoxScorer<'w>>,
    /// The collector's bar once the probe has been told it.
    bar: Option<f32>,
    children: &'w DocSet,
    parents: &'w DocSet,
    mode: ScoreMode,
    doc: u32,
    score: f32,
}

impl BlockJoinScorer<'_> {
    /// Moves to the first parent at or after `target` with a matching child, gathering
    /// that block's scores; with a bar, to the first such parent that can compete.
    fn next_parent(&mut self, target: u32) -> u32 {
        let parent = match (self.bar, self.probe.as_mut()) {
            (Some(bar), Some(probe)) => next_competitive_block(probe, self.children, self.parents, target, bar),
            _ => next_matching_block(&mut self.child, self.children, self.parents, target),
        };
        let Some((start, parent)) = parent else {
            self.doc = NO_MORE;
            return NO_MORE;
        };
        let scores = self.mode != ScoreMode::None;
        let mut acc = Accumulator::new(self.mode);
        let mut c = if self.child.doc() < start { self.child.seek(start) } else { self.child.doc() };
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

/// The block (its first document and its parent) of `child`'s first match among
/// `children` at or after `target`.
fn next_matching_block(
    child: &mut BoxScorer<'_>,
    children: &DocSet,
    parents: &DocSet,
    target: u32,
) -> Option<(u32, u32)> {
    let mut c = if child.doc() < target { child.seek(target) } else { child.doc() };
    while c != NO_MORE && !children.contains(c) {
        c = child.advance();
    }
    if c == NO_MORE {
        return None;
    }
    let parent = parents.next_from(c)?;
    Some((block_start(parents, c), parent))
}

/// The first block at or after `target` where a child scores above `bar` (the probe has
/// been told the bar, so it skips whole windows that cannot). Only such a block's
/// parent can score above it when the parent's score is at most its best child's.
fn next_competitive_block(
    probe: &mut BoxScorer<'_>,
    children: &DocSet,
    parents: &DocSet,
    target: u32,
    bar: f32,
) -> Option<(u32, u32)> {
    let mut c = if probe.doc() < target { probe.seek(target) } else { probe.doc() };
    loop {
        if c == NO_MORE {
            return None;
        }
        if children.contains(c) && probe.score() > bar {
            let parent = parents.next_from(c)?;
            return Some((block_start(parents, c), parent));
        }
        c = probe.advance();
    }
}

/// The first document of the block holding `doc`: the one after the previous parent.
fn block_start(parents: &DocSet, doc: u32) -> u32 {
    parents.prev_before(doc).map_or(0, |p| p + 1)
}

impl Scorer for BlockJoinScorer<'_> {
    fn doc(&self) -> u32 {
        self.doc
    }
    fn advance(&mut self) -> u32 {
        if self.doc == NO_MORE {
            return NO_MORE;
        }
        self.next_parent(self.doc + 1)
    }
    fn seek(&mut self, target: u32) -> u32 {
        if self.doc >= target {
            return self.doc;
        }
        // The blocks of parents at or after `target` start after the last parent before it.
        self.next_parent(block_start(self.parents, target))
    }
    fn score(&mut self) -> f32 {
        self.score
    }
    fn cost(&self) -> u64 {
        self.child.cost()
    }
    fn max_score(&self) -> f32 {
        match self.mode {
            ScoreMode::Avg | ScoreMode::Max | ScoreMode::Min => self.child.max_score(),
            ScoreMode::None => 0.0,
            ScoreMode::Sum => f32::INFINITY,
        }
    }
    fn set_min_competitive_score(&mut self, min: f32) {
        if let Some(probe) = self.probe.as_mut() {
            if self.bar.is_none_or(|bar| min > bar) {
                probe.set_min_competitive_score(min);
                self.bar = Some(min);
            }
        }
    }
    fn take_error(&mut self) -> Option<crate::error::Error> {
        let probe = self.probe.as_mut().and_then(|p| p.take_error());
        self.child.take_error().or(probe)
    }
}
