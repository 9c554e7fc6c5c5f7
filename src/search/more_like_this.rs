//! `more_like_this` as ES 6.8 builds it (`MoreLikeThisQueryBuilder.doToQuery`,
//! `MoreLikeThisQuery.rewrite`, `XMoreLikeThis`):
//! - `like` texts are analyzed for the first field (with `analyzer`, else that field's
//!   search analyzer), their words counted together; each word is searched in the field
//!   of the query's fields where it is most frequent;
//! - `like` documents give their terms per field (ES's term vectors, generated from
//!   `_source` with each field's index analyzer; an artificial `doc` parsed as the index
//!   would index it; a document of another index read in the search's snapshot and
//!   analyzed as that index indexes it, skipped when its index or itself is missing);
//!   each field selects its own words in the searched index;
//! - a word passes `min_term_freq`, `min_doc_freq`, `max_doc_freq`, the word lengths and
//!   `stop_words`, is scored `tf * idf` (`ClassicSimilarity`), and the best
//!   `max_query_terms` make a boolean of BM25 term queries (boosted by their score over
//!   the lowest kept one, times `boost_terms`, when it is set) with `minimum_should_match`;
//! - `unlike` texts and documents remove their terms from the selection;
//! - unless `include`, the liked stored documents never match.

use super::clauses::MAX_CLAUSE_COUNT;
use super::context::{Executor, Resolved};
use super::highlight_terms::HighlightTerms;
use super::mlt_terms::{classic_idf, ScoreTerm, TermQueue, WordCounts};
use super::weight::{BoolWeight, Weight};
use crate::analysis::Analyzer;
use crate::error::{Error, Result};
use crate::index::{DocSet, ID_FIELD};
use crate::mapping::{FieldMapping, FieldType};
use crate::query::more_like_this::{LikeItem, MoreLikeThisQuery};
use crate::query::MinimumShouldMatch;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

/// `XMoreLikeThis.DEFAULT_MAX_NUM_TOKENS_PARSED`: tokens read of each liked text.
const MAX_TOKENS_PARSED: usize = 5000;

/// A document's terms by field, each with its frequency (a term vector).
type TermVectors = BTreeMap<String, BTreeMap<String, i64>>;

/// Compiles `more_like_this` for this index.
pub fn compile<'a>(ex: &Executor<'a>, q: &MoreLikeThisQuery, boost: f32) -> Result<Weight<'a>> {
    if q.max_query_terms <= 0 {
        return Err(Error::illegal_argument("requires 'maxQueryTerms' to be greater than 0"));
    }
    let boost = boost * q.boost;
    let fields = match &q.fields {
        None => {
            // ES 6.8's `index.query.default_field` is `*`, which names no field to
            // analyze free text for.
            if !q.like_texts.is_empty() || !q.unlike_texts.is_empty() {
                return Err(Error::illegal_argument(
                    "[more_like_this] query cannot infer the field to analyze the free text, you should update the \
                     [index.query.default_field] index setting to a field that exists in the mapping or set the \
                     [fields] option in the query.",
                ));
            }
            None
        }
        Some(names) => {
            let mut out = Vec::new();
            for name in names {
                match ex.resolve(name) {
                    Resolved::Field(fm) if matches!(fm.ftype, FieldType::Text | FieldType::Keyword) => {
                        out.push(fm.path.clone())
                    }
                    Resolved::Unmapped => out.push(name.clone()),
                    _ if q.fail_on_unsupported_field => {
                        return Err(Error::illegal_argument(format!(
                            "more_like_this only supports text/keyword fields: [{name}]"
                        )))
                    }
                    _ => {}
                }
            }
            if out.is_empty() {
                // ES builds no query: nothing matches.
                return Ok(Weight::none());
            }
            Some(out)
        }
    };
    let mlt = Selection { ex, q };
    let text_field = fields.as_ref().and_then(|f| f.first().cloned());
    let text_analyzer = match &text_field {
        Some(f) => Some(mlt.text_analyzer(f)?),
        None => None,
    };

    // Terms never selected: those of the unliked texts (for the first field) and documents.
    let mut skip: HashSet<(String, String)> = HashSet::new();
    if let (Some(field), Some(analyzer)) = (&text_field, &text_analyzer) {
        for text in &q.unlike_texts {
            for t in mlt.text_words(field, analyzer, text)? {
                skip.insert((field.clone(), t));
            }
        }
    }
    for item in &q.unlike_items {
        if let Some(tv) = mlt.item_vectors(item, fields.as_deref())? {
            for (field, terms) in tv {
                skip.extend(terms.into_keys().map(|t| (field.clone(), t)));
            }
        }
    }

    let mut parts = Vec::new();
    if !q.like_items.is_empty() {
        let mut vectors = Vec::new();
        for item in &q.like_items {
            vectors.extend(mlt.item_vectors(item, fields.as_deref())?);
        }
        parts.push(mlt.like_vectors(&vectors, &skip, boost)?);
    }
    if let (Some(field), Some(analyzer), Some(fields)) = (&text_field, &text_analyzer, &fields) {
        if !q.like_texts.is_empty() {
            let mut words = WordCounts::default();
            for text in &q.like_texts {
                for w in mlt.text_words(field, analyzer, text)?.into_iter().take(MAX_TOKENS_PARSED) {
                    if !mlt.is_noise(&w) && !skip.contains(&(field.clone(), w.clone())) {
                        words.add(&w, 1);
                    }
                }
            }
            let clauses = mlt.query_terms(&words, fields, boost, MAX_CLAUSE_COUNT)?;
            parts.push(mlt.with_minimum_should_match(clauses));
        }
    }
    let like = Weight::any_of(parts, 1);
    if q.like_items.is_empty() {
        return Ok(like);
    }
    let mut must_not = DocSet::new();
    if !q.include {
        for item in &q.like_items {
            if let Some(id) = &item.id {
                must_not.or_with(&ex.keyword_docs(ID_FIELD, id)?);
            }
        }
    }
    Ok(Weight::boolean(BoolWeight {
        must: Vec::new(),
        filter: None,
        should: vec![like],
        must_not,
        min_should_match: 1,
        filter_clauses: Vec::new(),
    }))
}

/// The query and the index its terms are selected in.
struct Selection<'e, 'a> {
    ex: &'e Executor<'a>,
    q: &'e MoreLikeThisQuery,
}

impl<'a> Selection<'_, 'a> {
    /// The analyzer of the liked texts: `analyzer` when the index has it (ES ignores an
    /// unknown name), else the first field's search analyzer (the index's default search
    /// analyzer for an unmapped one).
    fn text_analyzer(&self, field: &str) -> Result<Analyzer> {
        if let Some(a) = self.q.analyzer.as_deref().and_then(|n| self.ex.named_analyzer(n).ok()) {
            return Ok(a);
        }
        match self.ex.resolve(field) {
            Resolved::Field(fm) => Ok(fm.search_analyzer.clone()),
            _ => Ok(self.ex.reader.meta.mapping.analysis.default_analyzers()?[1].clone()),
        }
    }

    /// The words of a liked text for `field`: a keyword field's whole normalized value,
    /// else the analyzer's tokens.
    fn text_words(&self, field: &str, analyzer: &Analyzer, text: &str) -> Result<Vec<String>> {
        // Without a known `analyzer`, a keyword field's search analyzer: its normalizer.
        if self.q.analyzer.as_deref().and_then(|n| self.ex.named_analyzer(n).ok()).is_none() {
            if let Resolved::Field(fm) = self.ex.resolve(field) {
                if fm.ftype == FieldType::Keyword {
                    return Ok(fm.keyword_term(text).into_iter().collect());
                }
            }
        }
        Ok(analyzer.analyze(text)?.into_iter().map(|t| t.text).collect())
    }

    /// `isNoiseWord`: outside the word lengths (in UTF-16 units, as Java counts) or a
    /// stop word.
    fn is_noise(&self, word: &str) -> bool {
        let len = word.encode_utf16().count() as i64;
        let (min, max) = (i64::from(self.q.min_word_length), i64::from(self.q.max_word_length));
        (min > 0 && len < min)
            || (max > 0 && len > max)
            || self.q.stop_words.as_ref().is_some_and(|s| s.iter().any(|w| w == word))
    }

    /// Documents of `term` in `field` (0 for a field without it).
    fn doc_freq(&self, field: &str, term: &str) -> Result<u64> {
        Ok(match self.ex.reader.term_addr(self.ex.snap, field, term)? {
            Some(addr) => self.ex.reader.postings(self.ex.snap, field, addr)?.docs.len(),
            None => 0,
        })
    }

    /// `createQueue` then `addToQuery`: the selected words of `words`, each in the field
    /// of `fields` where the most documents have it, as boosted term queries in the
    /// order the queue pops them. A boolean holds at most `room` more: XMoreLikeThis stops
    /// adding at Lucene's clause limit, keeping the lowest scored terms.
    fn query_terms(&self, words: &WordCounts, fields: &[String], boost: f32, room: usize) -> Result<Vec<Weight<'a>>> {
        let q = self.q;
        let num_docs = u64::from(self.ex.reader.max_doc());
        let ordered = words.java_order();
        let mut queue = TermQueue::new((q.max_query_terms as usize).min(ordered.len()));
        let mut ticker = crate::budget::Ticker::every(256);
        for (word, tf) in ordered {
            if ticker.tick()? {
                break;
            }
            if q.min_term_freq > 0 && tf < i64::from(q.min_term_freq) {
                continue;
            }
            let mut top_field = &fields[0];
            let mut doc_freq = 0;
            for f in fields {
                let df = self.doc_freq(f, word)?;
                if df > doc_freq {
                    top_field = f;
                    doc_freq = df;
                }
            }
            if (q.min_doc_freq > 0 && doc_freq < q.min_doc_freq as u64)
                || doc_freq > q.max_doc_freq.max(0) as u64
                || doc_freq == 0
            {
                continue;
            }
            let score = tf as f32 * classic_idf(doc_freq, num_docs);
            queue.offer(ScoreTerm { word: word.to_string(), field: top_field.clone(), score });
        }
        let mut best = None;
        let mut clauses = Vec::new();
        for t in queue.drain().into_iter().take(room) {
            let term_boost = match q.boost_terms != 0.0 {
                true => {
                    let best = *best.get_or_insert(t.score);
                    q.boost_terms * t.score / best
                }
                false => 1.0,
            };
            if let Resolved::Field(fm) = self.ex.resolve(&t.field) {
                let w = self.ex.scored_term(fm, &t.word, boost * term_boost);
                // The selected terms are what the query highlights.
                clauses.push(self.ex.noted(w, || HighlightTerms::term(&t.field, t.word.clone()))?);
            }
        }
        Ok(clauses)
    }

    /// `Queries.applyMinimumShouldMatch` on a boolean of optional clauses.
    fn with_minimum_should_match(&self, clauses: Vec<Weight<'a>>) -> Weight<'a> {
        let msm = MinimumShouldMatch::Spec(self.q.minimum_should_match.clone()).resolve(clauses.len());
        Weight::any_of(clauses, msm.max(1))
    }

    /// `XMoreLikeThis.like(Fields...)`: each field's words over every liked document,
    /// selected in that field, all in one boolean.
    fn like_vectors(
        &self,
        vectors: &[TermVectors],
        skip: &HashSet<(String, String)>,
        boost: f32,
    ) -> Result<Weight<'a>> {
        let mut field_names = WordCounts::default();
        for tv in vectors {
            for field in tv.keys() {
                field_names.add(field, 1);
            }
        }
        let mut clauses = Vec::new();
        for (field, _) in field_names.java_order() {
            let mut words = WordCounts::default();
            for tv in vectors {
                for (term, freq) in tv.get(field).into_iter().flatten() {
                    if !self.is_noise(term) && !skip.contains(&(field.to_string(), term.clone())) {
                        words.add(term, *freq);
                    }
                }
            }
            let room = MAX_CLAUSE_COUNT.saturating_sub(clauses.len());
            clauses.extend(self.query_terms(&words, &[field.to_string()], boost, room)?);
        }
        Ok(self.with_minimum_should_match(clauses))
    }

    /// The term vectors of an item (`None`: no such document, which ES skips), over the
    /// item's fields, else the query's, else every text and keyword field. A document of
    /// another index (`_index`, an index or an alias of one) is read in the search's
    /// snapshot and analyzed as that index indexes it; its terms are then selected in the
    /// searched index, as ES's multi term vectors fetch gives them to MoreLikeThis.
    fn item_vectors(&self, item: &LikeItem, fields: Option<&[String]>) -> Result<Option<TermVectors>> {
        if let Some(doc) = &item.doc {
            return self.doc_vectors(item, doc).map(Some);
        }
        let Some(id) = &item.id else { return Ok(None) };
        let other;
        let other_ex;
        let ex = match &item.index {
            Some(index) if index != &self.ex.reader.meta.name => {
                match super::terms_lookup::single_index(self.ex.snap, index) {
                    Ok(reader) => {
                        other = reader;
                        other_ex = Executor::new(&other, self.ex.snap, self.ex.now_ms);
                        &other_ex
                    }
                    // ES skips an item its multi term vectors request failed on (no such
                    // index, an alias of several): no error, no terms.
                    Err(e) if matches!(e.kind(), "index_not_found_exception" | "illegal_argument_exception") => {
                        return Ok(None)
                    }
                    Err(e) => return Err(e),
                }
            }
            _ => self.ex,
        };
        // ES gives an item without `_type` the searched index's type.
        let wanted = match &item.doc_type {
            Some(t) => t.clone(),
            None => self.ex.reader.type_name(self.ex.snap)?,
        };
        if wanted != "_doc" && wanted != ex.reader.type_name(ex.snap)? {
            return Ok(None);
        }
        let Some(doc) = ex.keyword_docs(ID_FIELD, id)?.iter().next() else { return Ok(None) };
        let stored = ex.reader.document(ex.snap, doc)?;
        let source: Value = match serde_json::from_slice(stored.source()) {
            Ok(v) => v,
            Err(_) => return Ok(None),
        };
        let mapping = &ex.reader.meta.mapping;
        let selected: Vec<&FieldMapping> = match item.fields.as_deref().or(fields) {
            Some(names) => names.iter().filter_map(|n| mapping.field(mapping.resolve_alias(n))).collect(),
            None => mapping.field_paths().filter_map(|p| mapping.field(p)).collect(),
        };
        let mut tv = TermVectors::new();
        for fm in selected {
            if !matches!(fm.ftype, FieldType::Text | FieldType::Keyword) || !fm.index {
                continue;
            }
            let mut values = Vec::new();
            raw_values(&source, &fm.path, &mut values);
            if values.is_empty() {
                continue;
            }
            let analyzer = match item.per_field_analyzer.iter().find(|(f, _)| f == &fm.path) {
                Some((_, name)) => Some(ex.named_analyzer(name)?),
                None => None,
            };
            let terms = tv.entry(fm.path.clone()).or_default();
            for v in values {
                let words: Vec<String> = match (&analyzer, fm.ftype) {
                    (Some(a), _) => a.analyze(&v)?.into_iter().map(|t| t.text).collect(),
                    (None, FieldType::Keyword) => fm.keyword_term(&v).into_iter().collect(),
                    (None, _) => fm.analyzer.analyze(&v)?.into_iter().map(|t| t.text).collect(),
                };
                for w in words {
                    *terms.entry(w).or_default() += 1;
                }
            }
            if terms.is_empty() {
                tv.remove(&fm.path);
            }
        }
        Ok(Some(tv))
    }
}

impl Selection<'_, '_> {
    /// The term vectors of an artificial document: parsed as the index would index it
    /// (new fields mapped dynamically, on a copy of the mapping; multi-fields and
    /// `copy_to` targets take the values too), over the item's `fields`, else all.
    fn doc_vectors(&self, item: &LikeItem, doc: &Value) -> Result<TermVectors> {
        let Value::Object(_) = doc else {
            return Err(Error::illegal_argument("[more_like_this] an artificial document ([doc]) must be an object"));
        };
        let mut mapping = self.ex.reader.meta.mapping.clone();
        let mut leaves = Vec::new();
        doc_leaves(&mut mapping, doc, "", &mut leaves)?;
        let mut tv = TermVectors::new();
        for (path, value) in leaves {
            let Some(fm) = mapping.field(&path) else { continue };
            let mut targets = vec![fm.path.clone()];
            targets.extend(fm.multi_fields.iter().map(|m| format!("{}.{m}", fm.path)));
            targets.extend(fm.params.copy_to.iter().cloned());
            for target in targets {
                let Some(t) = mapping.field(&target) else { continue };
                if !matches!(t.ftype, FieldType::Text | FieldType::Keyword) || !t.index {
                    continue;
                }
                if item.fields.as_ref().is_some_and(|f| !f.contains(&t.path)) {
                    continue;
                }
                let analyzer = match item.per_field_analyzer.iter().find(|(f, _)| f == &t.path) {
                    Some((_, name)) => Some(self.ex.named_analyzer(name)?),
                    None => None,
                };
                let words: Vec<String> = match (&analyzer, t.ftype) {
                    (Some(a), _) => a.analyze(&value)?.into_iter().map(|t| t.text).collect(),
                    // A keyword value over `ignore_above` is not indexed.
                    (None, FieldType::Keyword) if t.ignore_above.is_some_and(|n| value.chars().count() > n) => {
                        Vec::new()
                    }
                    (None, FieldType::Keyword) => t.keyword_term(&value).into_iter().collect(),
                    (None, _) => t.analyzer.analyze(&value)?.into_iter().map(|t| t.text).collect(),
                };
                if words.is_empty() {
                    continue;
                }
                let terms = tv.entry(t.path.clone()).or_default();
                for w in words {
                    *terms.entry(w).or_default() += 1;
                }
            }
        }
        Ok(tv)
    }
}

/// The scalar leaves of an artificial document with their paths, mapping new fields and
/// objects as dynamic mapping would (a field it ignores is left out).
fn doc_leaves(
    mapping: &mut crate::mapping::Mapping,
    v: &Value,
    path: &str,
    out: &mut Vec<(String, String)>,
) -> Result<()> {
    match v {
        Value::Array(a) => {
            for e in a {
                doc_leaves(mapping, e, path, out)?;
            }
        }
        Value::Object(o) => {
            if !path.is_empty()
                && mapping.field(path).is_none()
                && !mapping.is_object(path)
                && !mapping.map_dynamic(path, &Value::Object(Default::default()))?
            {
                return Ok(());
            }
            for (k, child) in o {
                let child_path = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                doc_leaves(mapping, child, &child_path, out)?;
            }
        }
        Value::Null => {}
        scalar => {
            if mapping.field(path).is_none() && !mapping.is_object(path) && !mapping.map_dynamic(path, scalar)? {
                return Ok(());
            }
            out.push((path.to_string(), leaf_text(scalar)));
        }
    }
    Ok(())
}

fn leaf_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `XContentMapValues.extractRawValues`: the scalar values at a dotted path of a
/// source, through arrays and keys that themselves contain dots.
fn raw_values(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a.iter().for_each(|e| raw_values(e, path, out)),
        Value::Object(o) => {
            for (k, child) in o {
                if k == path {
                    leaf_values(child, out);
                } else if let Some(rest) = path.strip_prefix(k.as_str()).and_then(|r| r.strip_prefix('.')) {
                    raw_values(child, rest, out);
                }
            }
        }
        _ => {}
    }
}

fn leaf_values(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a.iter().for_each(|e| leaf_values(e, out)),
        Value::Null | Value::Object(_) => {}
        Value::String(s) => out.push(s.clone()),
        other => out.push(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn raw_values_follow_dotted_paths_and_arrays() {
        let src = json!({"a": {"b": ["x", 1, null]}, "a.b": "y", "c": [{"d": "z"}, {"d": ["w"]}]});
        let mut out = Vec::new();
        raw_values(&src, "a.b", &mut out);
        assert_eq!(out, vec!["x", "1", "y"]);
        out.clear();
        raw_values(&src, "c.d", &mut out);
        assert_eq!(out, vec!["z", "w"]);
    }
}
