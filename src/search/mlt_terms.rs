//! The term selection of ES 6.8's `XMoreLikeThis`, down to its ties: words counted in a
//! Java `HashMap` (whose iteration order decides which of equally scored words a full
//! queue keeps), scored `tf * idf` with `ClassicSimilarity`'s idf, kept in Lucene's
//! `PriorityQueue` (a binary heap, lowest score on top) and popped lowest first.

/// Words with their counts in the order a Java `HashMap<String, Int>` iterates them.
#[derive(Default)]
pub struct WordCounts {
    /// Distinct words in insertion order, with their counts.
    words: Vec<(String, i64)>,
    index: std::collections::HashMap<String, usize>,
}

impl WordCounts {
    /// Adds `n` occurrences of `word`.
    pub fn add(&mut self, word: &str, n: i64) {
        match self.index.get(word) {
            Some(&i) => self.words[i].1 += n,
            None => {
                self.index.insert(word.to_string(), self.words.len());
                self.words.push((word.to_string(), n));
            }
        }
    }

    /// The words as the `HashMap` iterates them: by bucket of the final table, then in
    /// insertion order (a resize splits buckets keeping their order).
    pub fn java_order(&self) -> Vec<(&str, i64)> {
        let mut order: Vec<(usize, usize)> = (0..self.words.len()).map(|i| (0, i)).collect();
        let capacity = java_hash_map_capacity(self.words.len());
        for entry in &mut order {
            entry.0 = java_bucket(&self.words[entry.1].0, capacity);
        }
        order.sort();
        order.into_iter().map(|(_, i)| (self.words[i].0.as_str(), self.words[i].1)).collect()
    }
}

/// The table size of a Java `HashMap` after `n` distinct insertions (16, doubled
/// whenever the size exceeds three quarters of it).
pub fn java_hash_map_capacity(n: usize) -> usize {
    let mut capacity = 16usize;
    while n > capacity / 4 * 3 {
        capacity *= 2;
    }
    capacity
}

/// The bucket of `s` in a table of `capacity`: `String.hashCode` spread as
/// `HashMap.hash` does.
pub fn java_bucket(s: &str, capacity: usize) -> usize {
    let mut h: i32 = 0;
    for unit in s.encode_utf16() {
        h = h.wrapping_mul(31).wrapping_add(unit as i32);
    }
    let spread = h ^ ((h as u32) >> 16) as i32;
    (spread as u32 as usize) & (capacity - 1)
}

/// A selected word: its field (the one of the highest document frequency) and score.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreTerm {
    /// The term.
    pub word: String,
    /// The field it is searched in.
    pub field: String,
    /// `tf * idf`.
    pub score: f32,
}

/// `ClassicSimilarity.idf`: `1 + ln((numDocs + 1) / (docFreq + 1))`, in float.
pub fn classic_idf(doc_freq: u64, num_docs: u64) -> f32 {
    (((num_docs + 1) as f64 / (doc_freq + 1) as f64).ln() + 1.0) as f32
}

/// Lucene's `PriorityQueue` of a fixed size ordered by score (lowest on top).
pub struct TermQueue {
    heap: Vec<ScoreTerm>,
    limit: usize,
}

impl TermQueue {
    /// A queue keeping at most `limit` terms.
    pub fn new(limit: usize) -> TermQueue {
        TermQueue { heap: Vec::with_capacity(limit), limit }
    }

    /// `XMoreLikeThis.createQueue`'s insertion: added while there is room, else
    /// replacing the lowest when strictly better.
    pub fn offer(&mut self, t: ScoreTerm) {
        if self.heap.len() < self.limit {
            self.heap.push(t);
            self.up_heap(self.heap.len() - 1);
        } else if let Some(top) = self.heap.first() {
            if top.score < t.score {
                self.heap[0] = t;
                self.down_heap(0);
            }
        }
    }

    /// Every term, popped lowest first.
    pub fn drain(mut self) -> Vec<ScoreTerm> {
        let mut out = Vec::with_capacity(self.heap.len());
        while !self.heap.is_empty() {
            let last = self.heap.len() - 1;
            self.heap.swap(0, last);
            out.extend(self.heap.pop());
            if !self.heap.is_empty() {
                self.down_heap(0);
            }
        }
        out
    }

    // Zero-based: the children of `i` are `2i+1` and `2i+2`, the same tree as Lucene's
    // one-based heap.
    fn up_heap(&mut self, mut i: usize) {
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.heap[i].score < self.heap[parent].score {
                self.heap.swap(i, parent);
                i = parent;
            } else {
                break;
            }
        }
    }

    fn down_heap(&mut self, mut i: usize) {
        let n = self.heap.len();
        loop {
            let mut j = 2 * i + 1;
            if j >= n {
                break;
            }
            if j + 1 < n && self.heap[j + 1].score < self.heap[j].score {
                j += 1;
            }
            if self.heap[j].score < self.heap[i].score {
                self.heap.swap(i, j);
                i = j;
            } else {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_hash_order_and_capacity() {
        // "Aa" and "BB" share Java's hash code 2112: insertion order decides.
        assert_eq!(java_bucket("Aa", 16), java_bucket("BB", 16));
        let mut w = WordCounts::default();
        for s in ["BB", "b", "Aa", "a"] {
            w.add(s, 1);
        }
        w.add("a", 2);
        // "a" = 97 -> bucket 1, "b" = 98 -> 2, 2112 -> 0.
        let order: Vec<_> = w.java_order().into_iter().map(|(s, n)| format!("{s}{n}")).collect();
        assert_eq!(order, vec!["BB1", "Aa1", "a3", "b1"]);
        assert_eq!(java_hash_map_capacity(12), 16);
        assert_eq!(java_hash_map_capacity(13), 32);
    }

    #[test]
    fn queue_keeps_the_best_and_pops_lowest_first() {
        let mut q = TermQueue::new(3);
        for (w, s) in [("a", 1.0), ("b", 3.0), ("c", 2.0), ("d", 5.0), ("e", 1.5), ("f", 2.0)] {
            q.offer(ScoreTerm { word: w.into(), field: "f".into(), score: s });
        }
        let popped: Vec<_> = q.drain().into_iter().map(|t| t.word).collect();
        assert_eq!(popped, vec!["c", "b", "d"]);
        assert_eq!(classic_idf(0, 0), 1.0);
    }
}
