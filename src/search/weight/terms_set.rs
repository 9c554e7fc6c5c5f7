//! The weight of a `terms_set` query (compiled by `search/terms_set.rs`): its matches and
//! scores, computed when compiled, and their explanation.

use super::Weight;
use crate::error::Result;
use crate::index::DocSet;
use crate::search::explain::Expl;
use crate::search::scorer::{BoxScorer, ListScorer};

/// The matches of a `terms_set`, computed when compiled.
pub struct TermsSetWeight<'a> {
    /// Matching documents.
    pub docs: DocSet,
    /// The same, ascending, with their scores.
    pub(crate) doc_list: Vec<u32>,
    pub(crate) scores: Vec<f32>,
    /// The terms' weights (kept for explanations only).
    pub(crate) subs: Vec<Weight<'a>>,
}

impl TermsSetWeight<'_> {
    /// The matches with their scores.
    pub fn scorer(&self) -> BoxScorer<'_> {
        Box::new(ListScorer::new(&self.doc_list, &self.scores))
    }

    /// The sum of the matching terms' explanations.
    pub fn explain(&self, doc: u32, scoring: bool) -> Result<Option<Expl>> {
        let Ok(i) = self.doc_list.binary_search(&doc) else { return Ok(None) };
        let mut details = Vec::new();
        for w in &self.subs {
            details.extend(w.explain(doc, scoring)?);
        }
        Ok(Some(Expl::new(self.scores[i], "sum of:", details)))
    }
}
