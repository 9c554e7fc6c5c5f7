//! Scorers: the matching documents of a compiled query as an ascending stream, each with
//! its score on demand (Lucene's `Scorer`, tantivy's `DocSet` + `Scorer`).
//!
//! A scorer is positioned on its first match when it is made; [`Scorer::advance`] moves
//! to the next one and [`Scorer::seek`] skips ahead, so conjunctions leapfrog (the
//! cheapest clause leads, the others skip to it) and nothing materialises the list of
//! every match. Scores are computed only for the documents a collector looks at, with
//! the same f32/f64 arithmetic Lucene 7 uses, so they are bit-identical to ES 6.8's.

use super::bm25::Bm25Weight;
use crate::budget::Ticker;
use crate::error::Error;
use crate::index::{DocCursor, DocSet, Freqs, BLOCK};

/// The document a scorer reports once it is exhausted.
pub const NO_MORE: u32 = u32::MAX;

/// An ascending stream of matching documents with their scores.
pub trait Scorer {
    /// The current document, or [`NO_MORE`].
    fn doc(&self) -> u32;
    /// Moves to the next matching document and returns it (or [`NO_MORE`]).
    fn advance(&mut self) -> u32;
    /// Moves to the first matching document at or after `target` (never backwards) and
    /// returns it (or [`NO_MORE`]).
    fn seek(&mut self, target: u32) -> u32;
    /// The score of the current document.
    fn score(&mut self) -> f32;
    /// An estimate of how many documents match (leapfrogging leads with the cheapest).
    fn cost(&self) -> u64;
    /// Tells the scorer that documents scoring at most `min` can no longer make the
    /// page (the collector's window is full and its worst hit scores `min`); it may then
    /// skip them. Only a top-level scorer of a relevance-ordered pass is told.
    fn set_min_competitive_score(&mut self, _min: f32) {}
    /// An upper bound of every score this scorer can give (infinite when unknown).
    fn max_score(&self) -> f32 {
        f32::INFINITY
    }
    /// The last document of the scoring window (a block of a term's posting) that holds
    /// the first match `>= target`, without moving; [`NO_MORE`] when the scorer has no
    /// windows.
    fn window_end(&mut self, _target: u32) -> u32 {
        NO_MORE
    }
    /// A bound of the scores of matches in `from..=up_to`.
    fn max_score_in(&mut self, _from: u32, _up_to: u32) -> f32 {
        self.max_score()
    }
    /// A failure met while matching (reading positions, computing a function), reported
    /// once the stream has been consumed: the document in question was skipped.
    fn take_error(&mut self) -> Option<Error> {
        None
    }
}

/// Boxed scorers borrowing their compiled query.
pub type BoxScorer<'w> = Box<dyn Scorer + 'w>;

/// Matches nothing.
pub struct EmptyScorer;

impl Scorer for EmptyScorer {
    fn doc(&self) -> u32 {
        NO_MORE
    }
    fn advance(&mut self) -> u32 {
        NO_MORE
    }
    fn seek(&mut self, _target: u32) -> u32 {
        NO_MORE
    }
    fn score(&mut self) -> f32 {
        0.0
    }
    fn cost(&self) -> u64 {
        0
    }
}

/// The documents of a set, all with one score (filters, multi-term queries, ranges).
pub struct SetScorer<'w> {
    cursor: DocCursor<'w>,
    doc: u32,
    score: f32,
    cost: u64,
}

impl<'w> SetScorer<'w> {
    /// Streams `docs` with a constant `score`.
    pub fn new(docs: &'w DocSet, score: f32) -> SetScorer<'w> {
        let mut cursor = docs.cursor();
        let doc = cursor.next_doc().unwrap_or(NO_MORE);
        SetScorer { cursor, doc, score, cost: docs.len() }
    }
}

impl Scorer for SetScorer<'_> {
    #[inline]
    fn doc(&self) -> u32 {
        self.doc
    }
    #[inline]
    fn advance(&mut self) -> u32 {
        self.doc = self.cursor.next_doc().unwrap_or(NO_MORE);
        self.doc
    }
    fn seek(&mut self, target: u32) -> u32 {
        if target > self.doc {
            // The next document is the usual target of a leading set: a step, where
            // roaring's skip searches its containers again.
            self.doc = if target == self.doc + 1 {
                self.cursor.next_doc().unwrap_or(NO_MORE)
            } else {
                self.cursor.seek(target).unwrap_or(NO_MORE)
            };
        }
        self.doc
    }
    #[inline]
    fn score(&mut self) -> f32 {
        self.score
    }
    fn cost(&self) -> u64 {
        self.cost
    }
    fn max_score(&self) -> f32 {
        self.score
    }
}

/// Documents given as an ascending list, each with its own score (a rescoring window, a
/// precomputed list).
pub struct ListScorer<'w> {
    docs: &'w [u32],
    scores: &'w [f32],
    i: usize,
}

impl<'w> ListScorer<'w> {
    /// Streams `docs` (ascending, no duplicates) with `scores` (same length).
    pub fn new(docs: &'w [u32], scores: &'w [f32]) -> ListScorer<'w> {
        ListScorer { docs, scores, i: 0 }
    }
}

impl Scorer for ListScorer<'_> {
    fn doc(&self) -> u32 {
        self.docs.get(self.i).copied().unwrap_or(NO_MORE)
    }
    fn advance(&mut self) -> u32 {
        self.i += 1;
        self.doc()
    }
    fn seek(&mut self, target: u32) -> u32 {
        self.i = gallop(self.docs, self.i, target);
        self.doc()
    }
    fn score(&mut self) -> f32 {
        self.scores.get(self.i).copied().unwrap_or(0.0)
    }
    fn cost(&self) -> u64 {
        self.docs.len() as u64
    }
}

/// The first index `>= from` whose document is `>= target` in an ascending list:
/// exponential probing, then binary search, so short skips stay cheap.
#[inline]
pub fn gallop(docs: &[u32], from: usize, target: u32) -> usize {
    let n = docs.len();
    if from >= n || docs[from] >= target {
        return from;
    }
    let mut lo = from;
    let mut step = 1;
    let mut hi = from + 1;
    while hi < n && docs[hi] < target {
        lo = hi;
        step *= 2;
        hi = from + step;
    }
    let hi = hi.min(n);
    lo + 1 + docs[lo + 1..hi].partition_point(|&d| d < target)
}

/// A text term's postings scored with BM25, walked a block of [`BLOCK`] documents at a
/// time: the documents of a block come from the posting's roaring set, its frequencies
/// are unpacked only when a document of it is scored, and a block whose best possible
/// score cannot compete is skipped without being decoded.
pub struct TermScorer<'w> {
    cursor: DocCursor<'w>,
    freqs: &'w Freqs,
    /// Upper bounds of the blocks' scores.
    bounds: &'w [f32],
    norms: Option<&'w [u8]>,
    weight: &'w Bm25Weight,
    n: usize,
    block: usize,
    docs: [u32; BLOCK],
    len: usize,
    pos: usize,
    tfs: [u32; BLOCK],
    tfs_block: usize,
    min_competitive: f32,
    /// The largest block bound.
    max: f32,
    /// Counts the documents of the blocks entered, to look at the request's budget every
    /// few thousand: the scorers of scored queries are built on term scorers, so their
    /// collection loops pay nothing per document for the budget. Past the deadline, or
    /// once the client has gone, the scorer ends (the collector then reports it).
    ticker: Ticker,
}

impl<'w> TermScorer<'w> {
    /// Streams a posting (`docs`, `freqs`) scored with `weight` over `norms`; `bounds`
    /// holds each block's score bound.
    pub fn new(
        docs: &'w DocSet,
        freqs: &'w Freqs,
        bounds: &'w [f32],
        norms: Option<&'w [u8]>,
        weight: &'w Bm25Weight,
    ) -> TermScorer<'w> {
        let mut s = TermScorer {
            cursor: docs.cursor(),
            freqs,
            bounds,
            norms,
            weight,
            n: docs.len() as usize,
            block: usize::MAX,
            docs: [0; BLOCK],
            len: 0,
            pos: 0,
            tfs: [0; BLOCK],
            tfs_block: usize::MAX,
            min_competitive: f32::NEG_INFINITY,
            max: bounds.iter().copied().fold(f32::NEG_INFINITY, f32::max),
            ticker: Ticker::new(),
        };
        s.enter_block(0);
        s
    }

    fn block_count(&self) -> usize {
        self.n.div_ceil(BLOCK)
    }

    /// The first block from the current one whose last document is `>= target` (the
    /// block count when none is).
    fn first_block_reaching(&self, target: u32) -> usize {
        self.first_block_reaching_from(self.block, target)
    }

    /// [`TermScorer::first_block_reaching`] from block `from` on, by binary search of the
    /// skip entries.
    fn first_block_reaching_from(&self, from: usize, target: u32) -> usize {
        let (mut lo, mut hi) = (from.min(self.block_count()), self.block_count());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.last_doc(mid) < target {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The last document of block `b`, from its skip entry.
    fn last_doc(&self, b: usize) -> u32 {
        self.freqs.block(b).map_or(NO_MORE, |i| i.last_doc)
    }

    /// Loads the first block from `b` on that can still compete, positioned on its first
    /// document.
    fn enter_block(&mut self, mut b: usize) {
        let count = self.block_count();
        while b < count && self.bounds.get(b).is_some_and(|&m| m <= self.min_competitive) {
            b += 1;
        }
        if b >= count || self.ticker.tick_by(BLOCK as u32).unwrap_or(true) {
            self.block = count;
            self.len = 0;
            self.pos = 0;
            return;
        }
        self.len = (self.n - b * BLOCK).min(BLOCK);
        self.pos = 0;
        // Blocked postings unpack their documents; a short list walks the posting's set.
        if !self.freqs.decode_docs(b, &mut self.docs) {
            let first = self.cursor.seek(0);
            self.docs[0] = first.unwrap_or(NO_MORE);
            for i in 1..self.len {
                self.docs[i] = self.cursor.next_doc().unwrap_or(NO_MORE);
            }
        }
        self.block = b;
    }
}

impl Scorer for TermScorer<'_> {
    #[inline]
    fn doc(&self) -> u32 {
        if self.pos < self.len {
            self.docs[self.pos]
        } else {
            NO_MORE
        }
    }
    #[inline]
    fn advance(&mut self) -> u32 {
        self.pos += 1;
        if self.pos >= self.len && self.block < self.block_count() {
            self.enter_block(self.block + 1);
        }
        self.doc()
    }
    fn seek(&mut self, target: u32) -> u32 {
        if target <= self.doc() {
            return self.doc();
        }
        if self.block < self.block_count() && target > self.docs[self.len - 1] {
            // The first block whose last document reaches the target: usually the next
            // one, else a binary search of the skip entries.
            let next = self.block + 1;
            let b = if next < self.block_count() && self.last_doc(next) >= target {
                next
            } else {
                self.first_block_reaching_from(next + 1, target)
            };
            self.enter_block(b);
        }
        if self.pos < self.len {
            self.pos += self.docs[self.pos..self.len].partition_point(|&d| d < target);
            if self.pos >= self.len && self.block < self.block_count() {
                self.enter_block(self.block + 1);
            }
        }
        self.doc()
    }
    #[inline]
    fn score(&mut self) -> f32 {
        if self.tfs_block != self.block {
            self.freqs.decode_block(self.block, &mut self.tfs);
            self.tfs_block = self.block;
        }
        let tf = self.tfs[self.pos] as f32;
        let nb = self.norms.and_then(|n| n.get(self.doc() as usize)).copied().unwrap_or(0);
        self.weight.score(tf, nb)
    }
    fn cost(&self) -> u64 {
        self.n as u64
    }
    fn set_min_competitive_score(&mut self, min: f32) {
        self.min_competitive = min;
    }
    fn max_score(&self) -> f32 {
        self.max
    }
    fn window_end(&mut self, target: u32) -> u32 {
        let b = self.first_block_reaching(target);
        if b < self.block_count() {
            self.last_doc(b)
        } else {
            NO_MORE
        }
    }
    fn max_score_in(&mut self, from: u32, up_to: u32) -> f32 {
        let count = self.block_count();
        let mut b = self.first_block_reaching(from);
        let mut max = f32::NEG_INFINITY;
        // Every block holding a document in the range: up to the first that ends at or
        // after `up_to`.
        while b < count {
            max = max.max(self.bounds.get(b).copied().unwrap_or(f32::INFINITY));
            if self.last_doc(b) >= up_to {
                break;
            }
            b += 1;
        }
        max
    }
}

/// A required clause of a boolean scorer and whether its score counts (`must`) or not
/// (`filter`).
pub struct Required<'w> {
    /// The clause.
    pub scorer: BoxScorer<'w>,
    /// Whether it adds to the score.
    pub scored: bool,
}

/// Lucene's boolean scoring over required, optional and excluded clauses: candidates are
/// the conjunction of the required clauses (or, without any, the disjunction of the
/// optional ones), minus the excluded documents, with at least `min_should_match`
/// optional clauses matching. The score is `f32(Σ must)` plus `f32(Σ should)`, each sum
/// in f64 in clause order, as Lucene's scorers add them.
pub struct BoolScorer<'w> {
    required: Vec<Required<'w>>,
    /// Indices of `required` by ascending cost: the first leads the leapfrog.
    lead_order: Vec<usize>,
    /// The cheapest scored required clause, whose blocks are the windows of block-max
    /// skipping (an unscored lead, such as the query's known matches, has no blocks).
    window_lead: Option<usize>,
    optional: Vec<BoxScorer<'w>>,
    /// The optional clauses that can still bring a competitive document on their own
    /// (MaxScore): in a pure disjunction, clauses whose bounds add up to no more than the
    /// collector's bar only add to documents another clause brings.
    essential: Vec<usize>,
    excluded: Option<&'w DocSet>,
    min_should_match: usize,
    has_must: bool,
    doc: u32,
    /// The collector's bar (block-max conjunction: windows of the lead's blocks whose
    /// clauses' bounds add up to at most it are skipped whole).
    bar: f32,
    /// The last document of the window whose bound was last checked.
    window_end: Option<u32>,
}

impl<'w> BoolScorer<'w> {
    /// A boolean scorer positioned on its first match. `optional` clauses must not be
    /// empty when `required` is.
    pub fn new(
        required: Vec<Required<'w>>,
        optional: Vec<BoxScorer<'w>>,
        excluded: Option<&'w DocSet>,
        min_should_match: usize,
    ) -> BoolScorer<'w> {
        let mut lead_order: Vec<usize> = (0..required.len()).collect();
        lead_order.sort_by_key(|&i| required[i].scorer.cost());
        let has_must = required.iter().any(|r| r.scored);
        let window_lead = lead_order.iter().copied().find(|&i| required[i].scored);
        let essential = (0..optional.len()).collect();
        let mut s = BoolScorer {
            required,
            lead_order,
            window_lead,
            optional,
            essential,
            excluded,
            min_should_match,
            has_must,
            doc: 0,
            bar: f32::NEG_INFINITY,
            window_end: None,
        };
        s.doc = s.find(0);
        s
    }

    /// The first document `>= target` on which every required clause sits.
    fn align_required(&mut self, mut target: u32) -> u32 {
        let lead = self.lead_order[0];
        'candidates: loop {
            target = self.skip_weak_windows(target);
            if target == NO_MORE {
                return NO_MORE;
            }
            let lead_scorer = &mut self.required[lead].scorer;
            let d = if lead_scorer.doc() < target { lead_scorer.seek(target) } else { lead_scorer.doc() };
            if d == NO_MORE {
                return NO_MORE;
            }
            for k in 1..self.lead_order.len() {
                let s = &mut self.required[self.lead_order[k]].scorer;
                let x = if s.doc() < d { s.seek(d) } else { s.doc() };
                if x != d {
                    if x == NO_MORE {
                        return NO_MORE;
                    }
                    target = x;
                    continue 'candidates;
                }
            }
            return d;
        }
    }

    /// The first document `>= target` not inside a window of the lead's blocks where
    /// every clause's bound adds up to at most the bar (Lucene's block-max conjunction):
    /// such windows cannot hold a competitive document.
    fn skip_weak_windows(&mut self, mut target: u32) -> u32 {
        // Inside the window last checked (or with no bar yet): nothing to decide.
        if self.bar == f32::NEG_INFINITY || self.window_end.is_some_and(|end| target <= end) {
            return target;
        }
        let optional: f64 = self.optional.iter().map(|s| s.max_score() as f64).sum();
        let Some(lead) = self.window_lead else {
            self.window_end = Some(NO_MORE);
            return target;
        };
        loop {
            if self.window_end.is_some_and(|end| target <= end) {
                return target;
            }
            let end = if optional.is_finite() { self.required[lead].scorer.window_end(target) } else { NO_MORE };
            if end == NO_MORE {
                // No windows or no bound: no skipping until the bar rises.
                self.window_end = Some(NO_MORE);
                return target;
            }
            let mut bound = optional;
            for r in self.required.iter_mut().filter(|r| r.scored) {
                bound += r.scorer.max_score_in(target, end) as f64;
            }
            // The margin covers Lucene's f64 sums cast to f32.
            if bound.is_finite() && ((bound * (1.0 + 1e-5)) as f32) <= self.bar {
                if end == NO_MORE - 1 {
                    return NO_MORE;
                }
                target = end + 1;
                continue;
            }
            self.window_end = Some(end);
            return target;
        }
    }

    /// Passes the collector's bar down a conjunction: where required clause `i` scores at
    /// most `min` minus the bounds of every other clause, the document cannot compete,
    /// so the clause may skip it.
    fn bar_required(&mut self, min: f32) {
        let bound = |s: &BoxScorer<'_>| s.max_score() as f64;
        let optional: f64 = self.optional.iter().map(bound).sum();
        let maxes: Vec<f64> = self.required.iter().map(|r| if r.scored { bound(&r.scorer) } else { 0.0 }).collect();
        for i in 0..self.required.len() {
            if !self.required[i].scored {
                continue;
            }
            let others: f64 = optional + maxes.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, m)| m).sum::<f64>();
            if !others.is_finite() {
                return;
            }
            // The margin covers Lucene's f64 sums cast to f32.
            let bar = (min as f64 - others * (1.0 + 1e-5)) as f32;
            if bar > 0.0 {
                self.required[i].scorer.set_min_competitive_score(bar);
            }
        }
    }

    /// The smallest document `>= target` of any essential optional clause.
    fn min_optional(&mut self, target: u32) -> u32 {
        let mut min = NO_MORE;
        for &i in &self.essential {
            let s = &mut self.optional[i];
            let d = if s.doc() < target { s.seek(target) } else { s.doc() };
            min = min.min(d);
        }
        min
    }

    fn find(&mut self, mut target: u32) -> u32 {
        loop {
            let d = if self.required.is_empty() { self.min_optional(target) } else { self.align_required(target) };
            if d == NO_MORE {
                return NO_MORE;
            }
            let next = d + 1;
            if self.excluded.is_some_and(|ex| ex.contains(d)) {
                target = next;
                continue;
            }
            if self.min_should_match > 0 {
                let mut matched = 0;
                for s in self.optional.iter_mut() {
                    let x = if s.doc() < d { s.seek(d) } else { s.doc() };
                    matched += usize::from(x == d);
                }
                if matched < self.min_should_match {
                    target = next;
                    continue;
                }
            }
            return d;
        }
    }
}

impl Scorer for BoolScorer<'_> {
    fn doc(&self) -> u32 {
        self.doc
    }
    fn advance(&mut self) -> u32 {
        if self.doc != NO_MORE {
            self.doc = self.find(self.doc + 1);
        }
        self.doc
    }
    fn seek(&mut self, target: u32) -> u32 {
        if target > self.doc && self.doc != NO_MORE {
            self.doc = self.find(target);
        }
        self.doc
    }
    fn score(&mut self) -> f32 {
        let d = self.doc;
        let mut req = 0f64;
        for r in self.required.iter_mut().filter(|r| r.scored) {
            req += r.scorer.score() as f64;
        }
        let mut opt = 0f64;
        let mut matched = false;
        for s in self.optional.iter_mut() {
            let x = if s.doc() < d { s.seek(d) } else { s.doc() };
            if x == d {
                opt += s.score() as f64;
                matched = true;
            }
        }
        match (self.has_must, matched) {
            (false, _) => opt as f32,
            (true, false) => req as f32,
            (true, true) => ((req as f32) as f64 + (opt as f32) as f64) as f32,
        }
    }
    fn cost(&self) -> u64 {
        match self.lead_order.first() {
            Some(&i) => self.required[i].scorer.cost(),
            None => self.optional.iter().map(|s| s.cost()).sum(),
        }
    }
    fn max_score(&self) -> f32 {
        let req = self.required.iter().filter(|r| r.scored).map(|r| r.scorer.max_score() as f64);
        let sum: f64 = req.chain(self.optional.iter().map(|s| s.max_score() as f64)).sum();
        // Lucene's sums are f64 cast to f32 (twice with both kinds): a margin covers it.
        (sum * (1.0 + 1e-5)) as f32
    }
    fn set_min_competitive_score(&mut self, min: f32) {
        if !self.required.is_empty() {
            if min > self.bar {
                // A higher bar may condemn the current window too.
                self.bar = min;
                self.window_end = None;
            }
            self.bar_required(min);
            return;
        }
        if self.min_should_match > 1 {
            return;
        }
        let mut by_bound: Vec<usize> = (0..self.optional.len()).collect();
        by_bound.sort_by(|&a, &b| self.optional[a].max_score().total_cmp(&self.optional[b].max_score()));
        let mut sum = 0f64;
        let mut cut = 0;
        for (k, &i) in by_bound.iter().enumerate() {
            sum += self.optional[i].max_score() as f64;
            // A document only these clauses match scores at most `sum`: at most the bar.
            if ((sum * (1.0 + 1e-5)) as f32) <= min {
                cut = k + 1;
            } else {
                break;
            }
        }
        self.essential = by_bound[cut..].to_vec();
        self.essential.sort_unstable();
    }
    fn take_error(&mut self) -> Option<Error> {
        let req = self.required.iter_mut().map(|r| &mut r.scorer);
        req.chain(self.optional.iter_mut()).find_map(|s| s.take_error())
    }
}

/// Lucene's `DisjunctionMaxScorer`: the union of its clauses, scored
/// `max + tie_breaker * (sum - max)` in f32.
pub struct DisMaxScorer<'w> {
    subs: Vec<BoxScorer<'w>>,
    tie_breaker: f32,
    doc: u32,
}

impl<'w> DisMaxScorer<'w> {
    /// The union of `subs`, positioned on its first document.
    pub fn new(subs: Vec<BoxScorer<'w>>, tie_breaker: f32) -> DisMaxScorer<'w> {
        let doc = subs.iter().map(|s| s.doc()).min().unwrap_or(NO_MORE);
        DisMaxScorer { subs, tie_breaker, doc }
    }

    fn find(&mut self, target: u32) -> u32 {
        let mut min = NO_MORE;
        for s in self.subs.iter_mut() {
            let d = if s.doc() < target { s.seek(target) } else { s.doc() };
            min = min.min(d);
        }
        min
    }
}

impl Scorer for DisMaxScorer<'_> {
    fn doc(&self) -> u32 {
        self.doc
    }
    fn advance(&mut self) -> u32 {
        if self.doc != NO_MORE {
            self.doc = self.find(self.doc + 1);
        }
        self.doc
    }
    fn seek(&mut self, target: u32) -> u32 {
        if target > self.doc && self.doc != NO_MORE {
            self.doc = self.find(target);
        }
        self.doc
    }
    fn score(&mut self) -> f32 {
        let mut sum = 0f32;
        let mut max = f32::NEG_INFINITY;
        for s in self.subs.iter_mut() {
            if s.doc() == self.doc {
                let v = s.score();
                sum += v;
                if v > max {
                    max = v;
                }
            }
        }
        max + (sum - max) * self.tie_breaker
    }
    fn cost(&self) -> u64 {
        self.subs.iter().map(|s| s.cost()).sum()
    }
    fn set_min_competitive_score(&mut self, min: f32) {
        // With no tie breaker the score is the best clause's: a clause may skip what it
        // scores at most `min`, since a document it alone would lift cannot compete.
        if self.tie_breaker == 0.0 {
            for s in self.subs.iter_mut() {
                s.set_min_competitive_score(min);
            }
        }
    }
    fn max_score(&self) -> f32 {
        // max + tie * (sum - max) is at most the sum while the tie breaker is in [0, 1].
        if !(0.0..=1.0).contains(&self.tie_breaker) {
            return f32::INFINITY;
        }
        let sum: f32 = self.subs.iter().map(|s| s.max_score()).sum();
        sum * (1.0 + 1e-5)
    }
    fn take_error(&mut self) -> Option<Error> {
        self.subs.iter_mut().find_map(|s| s.take_error())
    }
}

/// ES's `boosting` query: the positive clause's score, times `factor` where the negative
/// set matches.
pub struct BoostingScorer<'w> {
    positive: BoxScorer<'w>,
    negative: &'w DocSet,
    factor: f32,
}

impl<'w> BoostingScorer<'w> {
    /// Scores `positive`, demoting documents of `negative` by `factor`.
    pub fn new(positive: BoxScorer<'w>, negative: &'w DocSet, factor: f32) -> BoostingScorer<'w> {
        BoostingScorer { positive, negative, factor }
    }
}

impl Scorer for BoostingScorer<'_> {
    fn doc(&self) -> u32 {
        self.positive.doc()
    }
    fn advance(&mut self) -> u32 {
        self.positive.advance()
    }
    fn seek(&mut self, target: u32) -> u32 {
        self.positive.seek(target)
    }
    fn score(&mut self) -> f32 {
        let s = self.positive.score();
        if self.negative.contains(self.positive.doc()) {
            s * self.factor
        } else {
            s
        }
    }
    fn cost(&self) -> u64 {
        self.positive.cost()
    }
    fn take_error(&mut self) -> Option<Error> {
        self.positive.take_error()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(s: &mut dyn Scorer) -> Vec<(u32, f32)> {
        let mut out = Vec::new();
        while s.doc() != NO_MORE {
            out.push((s.doc(), s.score()));
            s.advance();
        }
        out
    }

    fn list<'a>(docs: &'a [u32], scores: &'a [f32]) -> BoxScorer<'a> {
        Box::new(ListScorer::new(docs, scores))
    }

    #[test]
    fn gallop_finds_the_first_not_below() {
        let docs = [1, 3, 5, 7, 9, 11, 13];
        for target in 0..16 {
            for from in 0..docs.len() {
                let want = from + docs[from..].partition_point(|&d| d < target);
                assert_eq!(gallop(&docs, from, target), want, "target {target} from {from}");
            }
        }
    }

    #[test]
    fn conjunction_leapfrogs_and_sums_must_scores() {
        let (a, sa) = ([1, 4, 6, 9, 12], [1.0, 1.0, 1.0, 1.0, 1.0]);
        let (b, sb) = ([4, 5, 9, 13], [0.5, 0.5, 0.25, 0.5]);
        let (c, sc) = ([2, 4, 9], [7.0, 7.0, 7.0]);
        let required = vec![
            Required { scorer: list(&a, &sa), scored: true },
            Required { scorer: list(&b, &sb), scored: true },
            Required { scorer: list(&c, &sc), scored: false },
        ];
        let mut s = BoolScorer::new(required, Vec::new(), None, 0);
        assert_eq!(drain(&mut s), vec![(4, 1.5), (9, 1.25)]);
    }

    #[test]
    fn disjunction_counts_min_should_match_and_excludes() {
        let (a, sa) = ([1, 2, 3], [1.0, 1.0, 1.0]);
        let (b, sb) = ([2, 3, 4], [2.0, 2.0, 2.0]);
        let (c, sc) = ([3, 4, 5], [4.0, 4.0, 4.0]);
        let excluded = DocSet::from_docs([4]);
        let optional = vec![list(&a, &sa), list(&b, &sb), list(&c, &sc)];
        let mut s = BoolScorer::new(Vec::new(), optional, Some(&excluded), 2);
        assert_eq!(drain(&mut s), vec![(2, 3.0), (3, 7.0)]);
        let mut any = BoolScorer::new(Vec::new(), vec![list(&a, &sa), list(&c, &sc)], None, 1);
        assert_eq!(drain(&mut any), vec![(1, 1.0), (2, 1.0), (3, 5.0), (4, 4.0), (5, 4.0)]);
    }

    #[test]
    fn dis_max_takes_the_best_plus_a_share_of_the_rest() {
        let (a, sa) = ([1, 2], [1.0, 3.0]);
        let (b, sb) = ([2, 3], [2.0, 5.0]);
        let mut s = DisMaxScorer::new(vec![list(&a, &sa), list(&b, &sb)], 0.5);
        assert_eq!(drain(&mut s), vec![(1, 1.0), (2, 4.0), (3, 5.0)]);
        assert_eq!(s.seek(10), NO_MORE);
    }

    #[test]
    fn seeking_skips_without_going_back() {
        let set = DocSet::from_docs([2, 40, 70_000, 70_001]);
        let mut s = SetScorer::new(&set, 2.0);
        assert_eq!(s.seek(41), 70_000);
        assert_eq!(s.seek(3), 70_000);
        assert_eq!(s.advance(), 70_001);
        assert_eq!(s.advance(), NO_MORE);
    }
}
