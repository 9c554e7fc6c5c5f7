//! Lucene's span enumerations, one document at a time: each composite walks its
//! clauses' spans forward exactly as Lucene's `Spans` implementations do (the ordered
//! near's lazy stretch, the unordered near's window, the exclusion, containment and
//! position checks), so a document matches, and scores, as in Lucene. A clause's spans
//! in a document are a list in Lucene's order (start, then end); the algorithms only
//! ever move forward in them, so walking lists is walking Lucene's iterators.

/// Lucene's `NO_MORE_POSITIONS`.
const NO_MORE: i64 = i64::MAX;

/// One span: `[start, end)` positions and its width (Lucene's `Spans.width()`, the
/// distance its sloppy frequency counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First position.
    pub start: i64,
    /// One past the last position.
    pub end: i64,
    /// Lucene's `width()`.
    pub width: i64,
}

/// A cursor over one clause's spans: before the first (Lucene's -1), on one, or past
/// the last (`NO_MORE_POSITIONS`).
struct Cursor<'s> {
    spans: &'s [Span],
    at: Option<usize>,
}

impl<'s> Cursor<'s> {
    fn new(spans: &'s [Span]) -> Cursor<'s> {
        Cursor { spans, at: None }
    }

    /// `nextStartPosition`.
    fn next(&mut self) -> i64 {
        let i = self.at.map_or(0, |i| i + 1);
        self.at = Some(i.min(self.spans.len()));
        self.start()
    }

    fn current(&self) -> Option<&Span> {
        self.at.and_then(|i| self.spans.get(i))
    }

    fn start(&self) -> i64 {
        match self.at {
            None => -1,
            Some(_) => self.current().map_or(NO_MORE, |s| s.start),
        }
    }

    fn end(&self) -> i64 {
        match self.at {
            None => -1,
            Some(_) => self.current().map_or(NO_MORE, |s| s.end),
        }
    }

    fn width(&self) -> i64 {
        self.current().map_or(0, |s| s.width)
    }
}

/// Lucene's `PriorityQueue` (a 1-based binary heap), over clause numbers ordered by
/// their cursors' (start, end): ties between clauses break as Lucene's heap breaks them.
struct PositionQueue {
    heap: Vec<usize>,
}

impl PositionQueue {
    fn new(n: usize) -> PositionQueue {
        let mut heap = Vec::with_capacity(n + 1);
        heap.push(usize::MAX);
        PositionQueue { heap }
    }

    fn less(c: &[Cursor<'_>], a: usize, b: usize) -> bool {
        let (s1, s2) = (c[a].start(), c[b].start());
        if s1 == s2 {
            c[a].end() < c[b].end()
        } else {
            s1 < s2
        }
    }

    fn size(&self) -> usize {
        self.heap.len() - 1
    }

    fn top(&self) -> usize {
        self.heap[1]
    }

    fn add(&mut self, c: &[Cursor<'_>], x: usize) {
        self.heap.push(x);
        let mut i = self.size();
        let node = self.heap[i];
        let mut j = i >> 1;
        while j > 0 && Self::less(c, node, self.heap[j]) {
            self.heap[i] = self.heap[j];
            i = j;
            j >>= 1;
        }
        self.heap[i] = node;
    }

    /// `updateTop`: the top's cursor moved; restore the order.
    fn update_top(&mut self, c: &[Cursor<'_>]) -> usize {
        let size = self.size();
        let mut i = 1;
        let node = self.heap[i];
        let mut j = i << 1;
        let mut k = j + 1;
        if k <= size && Self::less(c, self.heap[k], self.heap[j]) {
            j = k;
        }
        while j <= size && Self::less(c, self.heap[j], node) {
            self.heap[i] = self.heap[j];
            i = j;
            j = i << 1;
            k = j + 1;
            if k <= size && Self::less(c, self.heap[k], self.heap[j]) {
                j = k;
            }
        }
        self.heap[i] = node;
        self.heap[1]
    }
}

/// The spans of a term at `positions`.
pub fn term(positions: &[u32]) -> Vec<Span> {
    positions.iter().map(|&p| Span { start: p as i64, end: p as i64 + 1, width: 0 }).collect()
}

/// `SpanOrQuery`'s spans: the clauses' spans merged by (start, end) in a position queue.
pub fn or(lists: &[Vec<Span>]) -> Vec<Span> {
    let mut cursors: Vec<Cursor<'_>> = lists.iter().map(|l| Cursor::new(l)).collect();
    let mut pq = PositionQueue::new(lists.len());
    for i in 0..cursors.len() {
        if lists[i].is_empty() {
            continue;
        }
        cursors[i].next();
        pq.add(&cursors, i);
    }
    let mut out = Vec::new();
    if pq.size() == 0 {
        return out;
    }
    let mut top = pq.top();
    while cursors[top].start() != NO_MORE {
        let c = &cursors[top];
        out.push(Span { start: c.start(), end: c.end(), width: c.width() });
        cursors[top].next();
        top = pq.update_top(&cursors);
    }
    out
}

/// `NearSpansOrdered`: each match starts at a span of the first clause; every later
/// clause moves forward (never back) to its first span starting at or after the previous
/// clause's end; the gaps between them are the width, at most `slop`.
pub fn near_ordered(lists: &[Vec<Span>], slop: i64) -> Vec<Span> {
    if lists.iter().any(Vec::is_empty) {
        return Vec::new();
    }
    near_ordered_cursors(lists.iter().map(|l| NearCursor::Spans(Cursor::new(l))).collect(), slop)
}

/// A clause of an ordered near with gaps: its spans in the document, or a gap.
pub enum NearClause {
    /// A span query's spans.
    Spans(Vec<Span>),
    /// Lucene's `GapSpans` of this width: a span `[p, p + width)` at every position `p`.
    Gap(i64),
}

/// A cursor over a [`NearClause`]: a gap's moves to any position, forward or back
/// (`GapSpans.skipToPosition`), one step at a time as a first clause.
enum NearCursor<'s> {
    Spans(Cursor<'s>),
    Gap { pos: i64, width: i64 },
}

impl NearCursor<'_> {
    fn next(&mut self) -> i64 {
        match self {
            NearCursor::Spans(c) => c.next(),
            NearCursor::Gap { pos, .. } => {
                *pos += 1;
                *pos
            }
        }
    }

    fn start(&self) -> i64 {
        match self {
            NearCursor::Spans(c) => c.start(),
            NearCursor::Gap { pos, .. } => *pos,
        }
    }

    fn end(&self) -> i64 {
        match self {
            NearCursor::Spans(c) => c.end(),
            NearCursor::Gap { pos, width } => *pos + *width,
        }
    }

    /// `NearSpansOrdered.advancePosition`: a gap jumps to `position`, spans move forward
    /// to their first start at or after it.
    fn advance_to(&mut self, position: i64) -> i64 {
        match self {
            NearCursor::Gap { pos, .. } => *pos = position,
            NearCursor::Spans(c) => {
                while c.start() < position {
                    c.next();
                }
            }
        }
        self.start()
    }
}

/// [`near_ordered`] with gaps among the clauses (Lucene's `SpanNearQuery.addGap`): a gap
/// sits exactly at the previous clause's end and moves the next clause's earliest start
/// on by its width; the slop counts the space between clauses, gaps not included. A
/// first-clause gap starts a match at every position until a later clause runs out, so
/// the caller must hold at least one clause that is not a gap.
pub fn near_ordered_gapped(clauses: &[NearClause], slop: i64) -> Vec<Span> {
    if clauses.iter().any(|c| matches!(c, NearClause::Spans(l) if l.is_empty())) {
        return Vec::new();
    }
    let cursors = clauses
        .iter()
        .map(|c| match c {
            NearClause::Spans(l) => NearCursor::Spans(Cursor::new(l)),
            NearClause::Gap(width) => NearCursor::Gap { pos: -1, width: *width },
        })
        .collect();
    near_ordered_cursors(cursors, slop)
}

/// The matches of [`near_ordered`] and [`near_ordered_gapped`] over their clauses' cursors.
fn near_ordered_cursors(mut cursors: Vec<NearCursor<'_>>, slop: i64) -> Vec<Span> {
    let mut out = Vec::new();
    while cursors[0].next() != NO_MORE {
        let match_start = cursors[0].start();
        let mut prev_end = cursors[0].end();
        let mut width = 0i64;
        for c in cursors.iter_mut().skip(1) {
            if c.advance_to(prev_end) == NO_MORE {
                // One clause is exhausted in this document: no further match.
                return out;
            }
            width += c.start() - prev_end;
            prev_end = c.end();
        }
        if width <= slop {
            out.push(Span { start: match_start, end: prev_end, width });
        }
    }
    out
}

/// `NearSpansUnordered`: a window holding one span of every clause, ordered by
/// position; the first span advances each step; the window matches when the space its
/// spans leave uncovered (`maxEnd - minStart - total span length`) is at most `slop`.
/// A match spans from the window's first start to the largest end seen, and its width
/// is that whole stretch (Lucene's `width()`, not the uncovered space).
pub fn near_unordered(lists: &[Vec<Span>], slop: i64) -> Vec<Span> {
    let mut out = Vec::new();
    if lists.iter().any(Vec::is_empty) {
        return out;
    }
    let mut cursors: Vec<Cursor<'_>> = lists.iter().map(|l| Cursor::new(l)).collect();
    let mut pq = PositionQueue::new(lists.len());
    let mut total = 0i64;
    let mut max_end = -1i64;
    for i in 0..cursors.len() {
        cursors[i].next();
        pq.add(&cursors, i);
        max_end = max_end.max(cursors[i].end());
        total += cursors[i].end() - cursors[i].start();
    }
    loop {
        let top = pq.top();
        if max_end - cursors[top].start() - total <= slop {
            let start = cursors[top].start();
            out.push(Span { start, end: max_end, width: max_end - start });
        }
        // nextPosition: the first span of the window advances.
        let c = &mut cursors[top];
        let old = c.end() - c.start();
        if c.next() == NO_MORE {
            return out;
        }
        total += c.end() - c.start() - old;
        max_end = max_end.max(c.end());
        pq.update_top(&cursors);
    }
}

/// `SpanNotQuery`: the spans of `include` that no span of `exclude` overlaps once
/// widened by `pre` positions before and `post` after.
pub fn not(include: &[Span], exclude: &[Span], pre: i64, post: i64) -> Vec<Span> {
    if exclude.is_empty() {
        return include.to_vec();
    }
    let mut ex = Cursor::new(exclude);
    ex.next();
    let mut out = Vec::new();
    for s in include {
        while ex.end() <= s.start - pre {
            if ex.next() == NO_MORE {
                break;
            }
        }
        if ex.start() == NO_MORE || s.end + post <= ex.start() {
            out.push(*s);
        }
    }
    out
}

/// `SpanFirstQuery`: the spans ending at or before `end`.
pub fn first(inner: &[Span], end: i64) -> Vec<Span> {
    inner.iter().take_while(|s| s.start < end).filter(|s| s.end <= end).copied().collect()
}

/// `SpanContainingQuery`: the spans of `big` containing the first span of `little` that
/// starts with or after them (`little` only moves forward).
pub fn containing(big: &[Span], little: &[Span]) -> Vec<Span> {
    let mut out = Vec::new();
    if little.is_empty() {
        return out;
    }
    let mut l = Cursor::new(little);
    for b in big {
        while l.start() < b.start {
            if l.next() == NO_MORE {
                return out;
            }
        }
        if b.end >= l.end() {
            out.push(*b);
        }
    }
    out
}

/// `SpanWithinQuery`: the spans of `little` inside the first span of `big` that ends
/// with or after them (`big` only moves forward).
pub fn within(big: &[Span], little: &[Span]) -> Vec<Span> {
    let mut out = Vec::new();
    if big.is_empty() {
        return out;
    }
    let mut b = Cursor::new(big);
    for s in little {
        while b.end() < s.end {
            if b.next() == NO_MORE {
                return out;
            }
        }
        if b.start() <= s.start {
            out.push(*s);
        }
    }
    out
}

/// The sloppy frequency of a document's spans: Σ 1 / (width + 1), summed in float as
/// Lucene's `SpanScorer` sums BM25's `sloppyFreq`.
pub fn sloppy_freq(spans: &[Span]) -> f32 {
    spans.iter().fold(0f32, |f, s| f + 1.0 / (s.width as f32 + 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(p: &[u32]) -> Vec<Span> {
        term(p)
    }

    #[test]
    fn ordered_near_is_lazy_as_lucene() {
        // "a x b a b": a@0,3 b@2,4; slop 1: (0..3 width 1) then a@3 with b@4 (width 0).
        let s = near_ordered(&[t(&[0, 3]), t(&[2, 4])], 1);
        assert_eq!(s, vec![Span { start: 0, end: 3, width: 1 }, Span { start: 3, end: 5, width: 0 }]);
        assert_eq!(near_ordered(&[t(&[2]), t(&[0])], 5), vec![]);
    }

    #[test]
    fn gaps_place_the_next_clause() {
        use NearClause::{Gap, Spans};
        // "a x x b": a@0 b@3: a gap of 2 puts b exactly after it; slop lets it be later.
        let near = |c: Vec<NearClause>, slop| near_ordered_gapped(&c, slop);
        assert_eq!(near(vec![Spans(t(&[0])), Gap(2), Spans(t(&[3]))], 0), vec![Span { start: 0, end: 4, width: 0 }]);
        assert_eq!(near(vec![Spans(t(&[0])), Gap(3), Spans(t(&[3]))], 0), vec![]);
        assert_eq!(near(vec![Spans(t(&[0])), Gap(1), Spans(t(&[3]))], 1), vec![Span { start: 0, end: 4, width: 1 }]);
        // A first gap starts at every position before the clause it leads to.
        assert_eq!(near(vec![Gap(2), Spans(t(&[3]))], 0), vec![Span { start: 1, end: 4, width: 0 }]);
    }

    #[test]
    fn unordered_near_takes_either_order() {
        let s = near_unordered(&[t(&[2]), t(&[0])], 1);
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].start, s[0].end), (0, 3));
        assert!(near_unordered(&[t(&[5]), t(&[0])], 1).is_empty());
    }

    #[test]
    fn not_first_contain() {
        let inc = t(&[1, 5, 9]);
        assert_eq!(not(&inc, &t(&[6]), 0, 1), t(&[1, 9]));
        assert_eq!(not(&inc, &t(&[6]), 0, 0), inc);
        assert_eq!(first(&inc, 6), t(&[1, 5]));
        let big = near_ordered(&[t(&[0]), t(&[3])], 5);
        assert_eq!(containing(&big, &t(&[2])), big);
        assert_eq!(within(&big, &t(&[2, 7])), t(&[2]));
        assert_eq!(or(&[t(&[3]), t(&[1, 3])]).iter().map(|s| s.start).collect::<Vec<_>>(), vec![1, 3, 3]);
    }
}
