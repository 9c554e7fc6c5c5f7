//! The result of executing a query on one index: which documents match, with what score.

use crate::index::DocSet;

/// Matching documents of one (sub)query.
#[derive(Debug, Clone)]
pub enum Matches {
    /// Every document in the set has the same score.
    Set {
        /// The documents.
        docs: DocSet,
        /// Their common score.
        score: f32,
    },
    /// Per-document scores, ascending by document, no duplicates.
    Scored(Vec<(u32, f32)>),
}

impl Matches {
    /// No documents.
    pub fn none() -> Matches {
        Matches::Set { docs: DocSet::new(), score: 0.0 }
    }

    /// The matching documents as a set.
    pub fn to_docset(&self) -> DocSet {
        match self {
            Matches::Set { docs, .. } => docs.clone(),
            Matches::Scored(v) => DocSet::from_sorted(&v.iter().map(|(d, _)| *d).collect::<Vec<_>>()),
        }
    }

    /// Consumes into a set.
    pub fn into_docset(self) -> DocSet {
        match self {
            Matches::Set { docs, .. } => docs,
            m => m.to_docset(),
        }
    }

    /// Number of matching documents.
    pub fn len(&self) -> u64 {
        match self {
            Matches::Set { docs, .. } => docs.len(),
            Matches::Scored(v) => v.len() as u64,
        }
    }

    /// Whether nothing matches.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A cursor for ascending lookups.
    pub fn cursor(&self) -> Cursor<'_> {
        Cursor { m: self, pos: 0 }
    }

    /// Keeps only documents in `filter`.
    pub fn retain(self, filter: &DocSet) -> Matches {
        match self {
            Matches::Set { mut docs, score } => {
                docs.and_with(filter);
                Matches::Set { docs, score }
            }
            Matches::Scored(mut v) => {
                v.retain(|(d, _)| filter.contains(*d));
                Matches::Scored(v)
            }
        }
    }

    /// Iterates (doc, score) ascending.
    pub fn for_each(&self, mut f: impl FnMut(u32, f32)) {
        match self {
            Matches::Set { docs, score } => docs.iter().for_each(|d| f(d, *score)),
            Matches::Scored(v) => v.iter().for_each(|(d, s)| f(*d, *s)),
        }
    }
}

/// Ascending-document lookups into a `Matches`.
pub struct Cursor<'a> {
    m: &'a Matches,
    pos: usize,
}

impl Cursor<'_> {
    /// The score of `doc` if it matches; calls must come in ascending `doc` order.
    #[inline]
    pub fn score(&mut self, doc: u32) -> Option<f32> {
        match self.m {
            Matches::Set { docs, score } => docs.contains(doc).then_some(*score),
            Matches::Scored(v) => {
                while self.pos < v.len() && v[self.pos].0 < doc {
                    self.pos += 1;
                }
                match v.get(self.pos) {
                    Some((d, s)) if *d == doc => Some(*s),
                    _ => None,
                }
            }
        }
    }
}
