//! Nested documents at search time: the `nested` query (a block join from the nested
//! documents at a path to their parents, ES 6.8's `ESToParentBlockJoinQuery`), and the
//! sets that keep nested documents out of top-level answers.

pub mod sort;

use super::context::{query_shard_error, Executor};
use super::weight::join::{self, JoinWeight};
use super::weight::Weight;
use crate::error::Result;
use crate::index::DocSet;
use crate::query::nested::{NestedQuery, ScoreMode};
use std::sync::Arc;

impl<'a> Executor<'a> {
    /// Every document a top-level query may answer: the root documents when the index
    /// has nested ones, else all.
    pub fn top_level_docs(&self) -> Result<DocSet> {
        Ok(match self.reader.root_docs(self.snap)? {
            Some(roots) => (*roots).clone(),
            None => DocSet::full(self.reader.max_doc()),
        })
    }

    /// The parents a join in the current scope maps nested documents to: the nested
    /// documents of the enclosing `nested` query's path, else the root documents.
    fn join_parents(&self) -> Result<Arc<DocSet>> {
        match self.nested_scope {
            Some(scope) => self.reader.nested_docs(self.snap, scope),
            None => {
                Ok(self.reader.root_docs(self.snap)?.unwrap_or_else(|| Arc::new(DocSet::full(self.reader.max_doc()))))
            }
        }
    }

    /// Compiles a `nested` query: its inner query runs over the nested documents at
    /// `path` (in that path's scope), and each parent scores from its matching ones.
    pub(crate) fn nested_query(&self, q: &NestedQuery, boost: f32, scoring: bool) -> Result<Weight<'a>> {
        let mapping = &self.reader.meta.mapping;
        let Some((path, object)) = mapping.objects.get_key_value(q.path.as_str()) else {
            if q.ignore_unmapped {
                return self.printed(Ok(Weight::none()), || "MatchNoDocsQuery(\"\")".into());
            }
            return Err(query_shard_error(format!("[nested] failed to find nested object under path [{}]", q.path)));
        };
        if object.nested.is_none() {
            return Err(query_shard_error(format!(
                "[nested] nested object under path [{}] is not of nested type",
                q.path
            )));
        }
        let parents = self.join_parents()?;
        let children = self.reader.nested_docs(self.snap, path)?;
        let inner_ex = Executor { nested_scope: Some(path.as_str()), ..*self };
        let wants_scores = scoring && q.score_mode != ScoreMode::None;
        let child = inner_ex.compile(&q.query, boost * q.boost, wants_scores)?;
        let printed = self.explain.then(|| format!("ToParentBlockJoinQuery ({})", child.query_string()));
        if !scoring {
            let mut matched = child.docset()?;
            matched.and_with(&children);
            let w = Weight::constant(join::parents_of(&matched, &parents), boost * q.boost);
            let w = match self.highlight {
                true => {
                    let mut terms = super::highlight_terms::HighlightTerms::default();
                    child.highlights(&mut terms);
                    w.with_highlights(terms)
                }
                false => w,
            };
            return self.printed(Ok(w), || printed.unwrap_or_default());
        }
        // A constant-score inner query gives every parent the same score, except summed
        // (its children's count): the join is then set algebra.
        if let Some((_, score)) = child.as_const().filter(|_| q.score_mode != ScoreMode::Sum && !self.explain) {
            let score = if q.score_mode == ScoreMode::None { 0.0 } else { score };
            let mut matched = child.docset()?;
            matched.and_with(&children);
            let w = Weight::constant(join::parents_of(&matched, &parents), score);
            let w = match self.highlight {
                true => {
                    let mut terms = super::highlight_terms::HighlightTerms::default();
                    child.highlights(&mut terms);
                    w.with_highlights(terms)
                }
                false => w,
            };
            return Ok(w);
        }
        let w = Weight::Join(Box::new(JoinWeight::new(child, children, parents, q.score_mode)));
        self.printed(Ok(w), || printed.unwrap_or_default())
    }
}
