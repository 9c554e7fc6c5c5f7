//! `explain`: the Lucene 7 explanation tree of a hit's score, as ES 6.8 renders it.
//!
//! The tree follows the Lucene weights ES builds for each query: BM25 term and phrase
//! weights (`weight(field:term in doc) [PerFieldSimilarity], result of:` → `score(...),
//! product of:` → boost, idf, tfNorm), `sum of:` for booleans (filter clauses as `match on
//! required clause`), `max of:` / `max plus T times others of:` for dis_max, constant-score
//! queries described by their Lucene `toString`, and ES's function_score explanations.
//! Values are computed the way Lucene's `explain` computes them (boost × idf × tfNorm, float
//! sums in clause order), which can differ from the scorer's value in the last bit, as in ES.

use super::bm25::{avg_field_length, idf, B, K1};
use super::exec::{Executor, Resolved};
use super::function_score::{self, Prepared};
use super::query_text::{self as qs, Node};
use super::response::java_double;
pub use super::response::java_float;
use super::response::score_json;
use crate::error::Result;
use crate::index::norms::byte4_to_int;
use crate::mapping::{FieldMapping, FieldType};
use crate::query::query_string::Occur;
use crate::query::{BoolQuery, FunctionScoreQuery, MatchQuery, MultiMatchType, Query, Scalar, ScoreFunctionKind};
use serde_json::{json, Value};

/// One node of a Lucene explanation.
#[derive(Debug, Clone, PartialEq)]
pub struct Expl {
    /// The value.
    pub value: f32,
    /// What it is.
    pub description: String,
    /// How it was computed.
    pub details: Vec<Expl>,
}

impl Expl {
    fn new(value: f32, description: impl Into<String>, details: Vec<Expl>) -> Expl {
        Expl { value, description: description.into(), details }
    }

    fn leaf(value: f32, description: impl Into<String>) -> Expl {
        Expl::new(value, description, Vec::new())
    }

    /// ES's JSON form (`value`, `description`, `details`).
    pub fn to_json(&self) -> Value {
        json!({
            "value": score_json(self.value),
            "description": self.description,
            "details": self.details.iter().map(Expl::to_json).collect::<Vec<_>>(),
        })
    }
}

/// The explanation of `doc`'s score under `q`.
pub fn explain(ex: &Executor<'_>, q: &Query, doc: u32) -> Result<Value> {
    let e = Explainer { ex, doc };
    let x = e.query(q, 1.0, true)?.unwrap_or_else(|| Expl::leaf(0.0, "no matching term"));
    Ok(x.to_json())
}

struct Explainer<'e, 'a> {
    ex: &'e Executor<'a>,
    doc: u32,
}

/// `boost` suffix of a constant-score description.
fn boosted_desc(desc: String, score: f32) -> String {
    if score == 1.0 {
        desc
    } else {
        format!("{desc}^{}", java_float(score))
    }
}

impl Explainer<'_, '_> {
    fn matches(&self, q: &Query) -> Result<bool> {
        self.ex.compile(q, 1.0, false)?.matches(self.doc)
    }

    /// A constant-score query (ConstantScoreWeight): its Lucene string, the boost.
    fn constant(&self, q: &Query, boost: f32) -> Result<Option<Expl>> {
        if !self.matches(q)? {
            return Ok(None);
        }
        Ok(Some(Expl::leaf(boost, boosted_desc(self.lstr(q), boost))))
    }

    fn query(&self, q: &Query, boost: f32, scoring: bool) -> Result<Option<Expl>> {
        match q {
            Query::MatchAll { boost: b } => Ok(Some(Expl::leaf(boost * b, boosted_desc("*:*".into(), boost * b)))),
            Query::MatchNone => Ok(None),
            Query::Term { field, value, boost: b } => self.term(field, &value.text(), boost * b, scoring, false),
            Query::Terms { boost: b, .. } | Query::Ids { boost: b, .. } => self.constant(q, boost * b),
            Query::Range(r) => self.constant(q, boost * r.boost),
            Query::Exists { boost: b, .. }
            | Query::Prefix { boost: b, .. }
            | Query::Wildcard { boost: b, .. }
            | Query::Regexp { boost: b, .. } => self.constant(q, boost * b),
            Query::Match(m) => self.match_query(m, boost, scoring),
            Query::MatchPhrase { field, text, slop, analyzer, prefix, max_expansions, boost: b } => {
                self.phrase(field, text, *slop, analyzer.as_deref(), *prefix, *max_expansions, boost * b, scoring)
            }
            Query::MultiMatch { fields, text, kind, tie_breaker, options } => {
                self.multi_match(fields, text, *kind, *tie_breaker, options, boost, scoring)
            }
            Query::Fuzzy { field, value, fuzziness, prefix_length, max_expansions, transpositions, boost: b } => self
                .fuzzy(field, value, fuzziness, *prefix_length, *max_expansions, *transpositions, boost * b, scoring),
            Query::Bool(b) => self.bool_query(b, boost * b.boost, scoring),
            Query::ConstantScore { filter, boost: b } => {
                if !self.matches(filter)? {
                    return Ok(None);
                }
                let score = boost * b;
                Ok(Some(Expl::leaf(score, boosted_desc(format!("ConstantScore({})", self.lstr(filter)), score))))
            }
            Query::DisMax { queries, tie_breaker, boost: b } => {
                let subs = queries.iter().map(|c| self.query(c, boost * b, scoring)).collect::<Result<Vec<_>>>()?;
                Ok(dis_max(subs, *tie_breaker, queries.len() == 1))
            }
            Query::Boosting { positive, negative, negative_boost, boost: b } => {
                let Some(pos) = self.query(positive, boost * b, scoring)? else { return Ok(None) };
                if !self.matches(negative)? {
                    return Ok(Some(pos));
                }
                let v = pos.value * negative_boost;
                Ok(Some(Expl::new(v, "product of:", vec![pos, Expl::leaf(*negative_boost, "boost")])))
            }
            Query::FunctionScore(fs) => self.function_score(fs, boost, scoring),
            Query::QueryString(q) => {
                let node = qs::build(self.ex, q)?;
                self.node(&node, boost * q.boost, scoring)
            }
        }
    }

    /// A `term` query on any field type.
    fn term(&self, field: &str, value: &str, boost: f32, scoring: bool, lenient: bool) -> Result<Option<Expl>> {
        let q = Query::Term { field: field.to_string(), value: Scalar::Text(value.to_string()), boost: 1.0 };
        match self.ex.resolve(field) {
            Resolved::Unmapped => Ok(None),
            Resolved::Meta(_) => self.constant(&q, boost),
            Resolved::Field(fm) => match fm.ftype {
                FieldType::Text => self.bm25_term(fm, value, None, boost, scoring),
                FieldType::Keyword => {
                    let t = fm.normalizer.map(|n| n.normalize(value)).unwrap_or_else(|| value.to_string());
                    self.bm25_term(fm, &t, None, boost, scoring)
                }
                FieldType::Boolean => {
                    let t = match value {
                        "true" => "T",
                        "false" | "" => "F",
                        _ => return Ok(None),
                    };
                    self.bm25_term(fm, t, None, boost, scoring)
                }
                _ => match self.constant(&q, boost) {
                    Ok(e) => Ok(e),
                    Err(_) if lenient => Ok(None),
                    Err(e) => Err(e),
                },
            },
        }
    }

    /// Lucene's `TermWeight.explain` with BM25 (or the non-scoring similarity of filters);
    /// `df` overrides the document frequency (blended and fuzzy terms).
    fn bm25_term(
        &self,
        fm: &FieldMapping,
        term: &str,
        df: Option<u64>,
        boost: f32,
        scoring: bool,
    ) -> Result<Option<Expl>> {
        let ex = self.ex;
        let Some(addr) = ex.reader.term_addr(ex.snap, &fm.path, term)? else { return Ok(None) };
        let p = ex.reader.postings(ex.snap, &fm.path, addr)?;
        let Some(idx) = p.docs.index_of(self.doc) else { return Ok(None) };
        let freq = p.freqs.as_ref().and_then(|f| f.get(idx)).unwrap_or(1) as f32;
        let desc = format!("{}:{}", fm.path, term);
        if !scoring {
            return Ok(Some(non_scoring(&desc, self.doc, freq, "termFreq")));
        }
        let doc_count = ex.reader.field_stats(&fm.path).map(|s| s.doc_count).unwrap_or(0);
        let df = df.unwrap_or(p.docs.len());
        let idf_e = idf_expl(df, doc_count);
        self.bm25(fm, &desc, freq, "termFreq", idf_e, boost).map(Some)
    }

    /// `weight(...) [PerFieldSimilarity], result of:` over BM25's `explainScore`.
    fn bm25(
        &self,
        fm: &FieldMapping,
        query_desc: &str,
        freq: f32,
        label: &str,
        idf_e: Expl,
        boost: f32,
    ) -> Result<Expl> {
        let ex = self.ex;
        let freq_e = Expl::leaf(freq, format!("{label}={}", java_float(freq)));
        let tf_norm = if fm.ftype == FieldType::Text {
            let st = ex.reader.field_stats(&fm.path);
            let avgdl =
                avg_field_length(st.map(|s| s.sum_total_term_freq).unwrap_or(0), st.map(|s| s.doc_count).unwrap_or(0));
            let nb = ex
                .reader
                .norms(ex.snap, &fm.path)?
                .as_ref()
                .and_then(|n| n.get(self.doc as usize).copied())
                .unwrap_or(0);
            let dl = byte4_to_int(nb) as f32;
            let v = (freq * (K1 + 1.0)) / (freq + K1 * (1.0 - B + B * dl / avgdl));
            Expl::new(
                v,
                "tfNorm, computed as (freq * (k1 + 1)) / (freq + k1 * (1 - b + b * fieldLength / avgFieldLength)) from:",
                vec![
                    freq_e,
                    Expl::leaf(K1, "parameter k1"),
                    Expl::leaf(B, "parameter b"),
                    Expl::leaf(avgdl, "avgFieldLength"),
                    Expl::leaf(dl, "fieldLength"),
                ],
            )
        } else {
            let v = (freq * (K1 + 1.0)) / (freq + K1);
            Expl::new(
                v,
                "tfNorm, computed as (freq * (k1 + 1)) / (freq + k1) from:",
                vec![freq_e, Expl::leaf(K1, "parameter k1"), Expl::leaf(0.0, "parameter b (norms omitted for field)")],
            )
        };
        let value = boost * idf_e.value * tf_norm.value;
        let mut details = Vec::with_capacity(3);
        if boost != 1.0 {
            details.push(Expl::leaf(boost, "boost"));
        }
        details.push(idf_e);
        details.push(tf_norm);
        let f = java_float(freq);
        let score = Expl::new(value, format!("score(doc={},freq={f} = {label}={f}\n), product of:", self.doc), details);
        Ok(Expl::new(
            value,
            format!("weight({query_desc} in {}) [PerFieldSimilarity], result of:", self.doc),
            vec![score],
        ))
    }

    fn match_query(&self, m: &MatchQuery, boost: f32, scoring: bool) -> Result<Option<Expl>> {
        let boost = boost * m.boost;
        let fm = match self.ex.resolve(&m.field) {
            Resolved::Unmapped => return Ok(None),
            Resolved::Meta(_) => return self.term(&m.field, &m.text, boost, scoring, m.lenient),
            Resolved::Field(fm) => fm,
        };
        if fm.ftype != FieldType::Text {
            if let (FieldType::Keyword, Some(f)) = (fm.ftype, &m.fuzziness) {
                let t = fm.normalizer.map(|n| n.normalize(&m.text)).unwrap_or_else(|| m.text.clone());
                return self.fuzzy(
                    &m.field,
                    &t,
                    f,
                    m.prefix_length,
                    m.max_expansions,
                    m.transpositions,
                    boost,
                    scoring,
                );
            }
            return self.term(&m.field, &m.text, boost, scoring, m.lenient);
        }
        let tokens = self.ex.search_analyzer(fm, m.analyzer.as_deref())?.analyze(&m.text);
        if tokens.is_empty() {
            return Ok(m.zero_terms_all.then(|| Expl::leaf(boost, boosted_desc("*:*".into(), boost))));
        }
        let leaf = |t: &str| -> Result<Option<Expl>> {
            match &m.fuzziness {
                Some(f) => {
                    self.fuzzy(&fm.path, t, f, m.prefix_length, m.max_expansions, m.transpositions, boost, scoring)
                }
                None => self.bm25_term(fm, t, None, boost, scoring),
            }
        };
        if tokens.len() == 1 {
            return leaf(&tokens[0].text);
        }
        let clauses = tokens.iter().map(|t| leaf(&t.text)).collect::<Result<Vec<_>>>()?;
        let and = m.operator == crate::query::Operator::And;
        let msm = match &m.minimum_should_match {
            Some(spec) if !and => spec.resolve(clauses.len()),
            _ => 0,
        };
        let (must, should) = if and { (clauses, Vec::new()) } else { (Vec::new(), clauses) };
        Ok(boolean(must, Vec::new(), should, false, msm))
    }

    #[allow(clippy::too_many_arguments)]
    fn phrase(
        &self,
        field: &str,
        text: &str,
        slop: u32,
        analyzer: Option<&str>,
        prefix: bool,
        max_expansions: usize,
        boost: f32,
        scoring: bool,
    ) -> Result<Option<Expl>> {
        let (fm, tokens) = match self.ex.resolve(field) {
            Resolved::Field(fm) if fm.ftype == FieldType::Text => {
                (fm, self.ex.search_analyzer(fm, analyzer)?.analyze(text))
            }
            Resolved::Field(fm) if fm.ftype == FieldType::Keyword && prefix => {
                let t = fm.normalizer.map(|n| n.normalize(text)).unwrap_or_else(|| text.to_string());
                (fm, vec![crate::analysis::Token { text: t, position: 0, start: 0, end: text.len() }])
            }
            Resolved::Field(_) | Resolved::Meta(_) => {
                if prefix {
                    let q = Query::Prefix { field: field.to_string(), value: text.to_string(), boost: 1.0 };
                    return self.constant(&q, boost);
                }
                return self.term(field, text, boost, scoring, false);
            }
            Resolved::Unmapped => return Ok(None),
        };
        if tokens.is_empty() {
            return Ok(None);
        }
        if tokens.len() == 1 && !prefix {
            return self.bm25_term(fm, &tokens[0].text, None, boost, scoring);
        }
        if tokens.len() == 1 {
            let mut subs = Vec::new();
            for (t, _) in super::phrase::expand_prefix(self.ex, fm, &tokens[0].text, max_expansions)? {
                subs.push(self.bm25_term(fm, &t, None, boost, scoring)?);
            }
            return Ok(sum_of_should(subs));
        }
        let Some(stats) = super::phrase::doc_stats(self.ex, fm, &tokens, slop, prefix, max_expansions, self.doc)?
        else {
            return Ok(None);
        };
        // PhraseQuery / MultiPhraseQuery toString: holes as `?`, alternatives in parens.
        let mut parts = Vec::new();
        let mut next = 0u32;
        for (offset, terms) in &stats.slots {
            while next < *offset {
                parts.push("?".to_string());
                next += 1;
            }
            parts.push(if terms.len() == 1 {
                terms[0].0.clone()
            } else {
                format!("({})", terms.iter().map(|t| t.0.as_str()).collect::<Vec<_>>().join(" "))
            });
            next = offset + 1;
        }
        let mut desc = format!("{}:\"{}\"", fm.path, parts.join(" "));
        if slop != 0 {
            desc.push_str(&format!("~{slop}"));
        }
        if !scoring {
            return Ok(Some(non_scoring(&desc, self.doc, stats.freq, "phraseFreq")));
        }
        let doc_count = self.ex.reader.field_stats(&fm.path).map(|s| s.doc_count).unwrap_or(0);
        let idfs: Vec<Expl> =
            stats.slots.iter().flat_map(|(_, terms)| terms.iter().map(|(_, df)| idf_expl(*df, doc_count))).collect();
        let sum: f64 = idfs.iter().map(|e| e.value as f64).sum();
        let idf_e = Expl::new(sum as f32, "idf(), sum of:", idfs);
        self.bm25(fm, &desc, stats.freq, "phraseFreq", idf_e, boost).map(Some)
    }

    #[allow(clippy::too_many_arguments)]
    fn fuzzy(
        &self,
        field: &str,
        value: &str,
        fuzziness: &str,
        prefix_length: usize,
        max_expansions: usize,
        transpositions: bool,
        boost: f32,
        scoring: bool,
    ) -> Result<Option<Expl>> {
        let ex = self.ex;
        let Some((indexed, found)) =
            super::terms::fuzzy_expansions(ex, field, value, fuzziness, prefix_length, max_expansions, transpositions)?
        else {
            return Ok(None);
        };
        let Resolved::Field(fm) = ex.resolve(field) else {
            let q = Query::Fuzzy {
                field: field.to_string(),
                value: value.to_string(),
                fuzziness: fuzziness.to_string(),
                prefix_length,
                max_expansions,
                transpositions,
                boost: 1.0,
            };
            return self.constant(&q, boost);
        };
        let mut max_df = 0;
        for (_, _, addr) in &found {
            max_df = max_df.max(ex.reader.postings(ex.snap, &indexed, *addr)?.docs.len());
        }
        let qlen = fm.normalizer.map(|n| n.normalize(value)).unwrap_or_else(|| value.to_string()).chars().count();
        let mut subs = Vec::new();
        for (d, t, _) in &found {
            let len = qlen.min(t.chars().count()).max(1);
            let term_boost = if *d == 0 { 1.0 } else { 1.0 - (*d as f32 / len as f32) };
            subs.push(self.bm25_term(fm, t, Some(max_df), boost * term_boost, scoring)?);
        }
        Ok(sum_of_should(subs))
    }

    fn bool_query(&self, b: &BoolQuery, boost: f32, scoring: bool) -> Result<Option<Expl>> {
        let total = b.must.len() + b.filter.len() + b.should.len() + b.must_not.len();
        if total == 0 {
            return Ok(Some(Expl::leaf(boost, boosted_desc("*:*".into(), boost))));
        }
        // Lucene rewrites a one-clause boolean to its clause (a lone filter scores 0).
        if total == 1 && b.minimum_should_match.as_ref().map(|m| m.resolve(b.should.len()) <= 1).unwrap_or(true) {
            if let Some(c) = b.must.first().or(b.should.first()) {
                return self.query(c, boost, scoring);
            }
            if let Some(c) = b.filter.first() {
                if !self.matches(c)? {
                    return Ok(None);
                }
                return Ok(Some(Expl::leaf(0.0, format!("ConstantScore({})^0.0", self.lstr(c)))));
            }
        }
        for c in &b.must_not {
            if self.matches(c)? {
                return Ok(None);
            }
        }
        let mut must = b.must.iter().map(|c| self.query(c, boost, scoring)).collect::<Result<Vec<_>>>()?;
        let filter = b.filter.iter().map(|c| self.query(c, boost, false)).collect::<Result<Vec<_>>>()?;
        let should = b.should.iter().map(|c| self.query(c, boost, scoring)).collect::<Result<Vec<_>>>()?;
        if must.is_empty() && filter.is_empty() && should.is_empty() {
            // ES 6.8 adds a match_all MUST clause to purely negative queries.
            must.push(Some(Expl::leaf(boost, boosted_desc("*:*".into(), boost))));
        }
        let msm = b.minimum_should_match.as_ref().map(|s| s.resolve(b.should.len())).unwrap_or(0);
        Ok(boolean(must, filter, should, false, msm))
    }

    #[allow(clippy::too_many_arguments)]
    fn multi_match(
        &self,
        fields: &[(String, f32)],
        text: &str,
        kind: MultiMatchType,
        tie_breaker: Option<f32>,
        options: &MatchQuery,
        boost: f32,
        scoring: bool,
    ) -> Result<Option<Expl>> {
        // Mirrors search::multi: the engine's multi_match structure.
        let default = vec![("*".to_string(), 1.0)];
        let patterns = if fields.is_empty() { &default } else { fields };
        let all_types = !patterns.iter().any(|(p, _)| p == "*");
        let expanded = self.ex.expand_fields(patterns, all_types);
        let lenient = options.lenient || !all_types;
        let boost = boost * options.boost;
        let tie = tie_breaker.unwrap_or(0.0);
        match kind {
            MultiMatchType::BestFields | MultiMatchType::MostFields => {
                let mut subs = Vec::new();
                for (fm, fboost) in &expanded {
                    let m = MatchQuery {
                        field: fm.path.clone(),
                        text: text.to_string(),
                        lenient,
                        boost: *fboost,
                        ..options.clone()
                    };
                    match self.match_query(&m, boost, scoring) {
                        Ok(e) => subs.push(e),
                        Err(_) if lenient => {}
                        Err(e) => return Err(e),
                    }
                }
                Ok(if kind == MultiMatchType::BestFields { dis_max(subs, tie, false) } else { sum_of_should(subs) })
            }
            MultiMatchType::Phrase | MultiMatchType::PhrasePrefix => {
                let mut subs = Vec::new();
                for (fm, fboost) in &expanded {
                    if fm.ftype != FieldType::Text && fm.ftype != FieldType::Keyword {
                        continue;
                    }
                    subs.push(self.phrase(
                        &fm.path,
                        text,
                        0,
                        options.analyzer.as_deref(),
                        kind == MultiMatchType::PhrasePrefix,
                        options.max_expansions,
                        boost * fboost,
                        scoring,
                    )?);
                }
                Ok(dis_max(subs, tie, false))
            }
            MultiMatchType::CrossFields => {
                // Text fields grouped by analyzer, other fields alone; a term's document
                // frequency is the largest among the group's fields (capped per field).
                type Group<'f> = (Option<crate::analysis::Analyzer>, Vec<(&'f FieldMapping, f32)>);
                let mut groups: Vec<Group<'_>> = Vec::new();
                for (fm, b) in &expanded {
                    let key = (fm.ftype == FieldType::Text).then(|| {
                        options
                            .analyzer
                            .as_deref()
                            .and_then(crate::analysis::Analyzer::from_name)
                            .unwrap_or(fm.search_analyzer)
                    });
                    match groups.iter_mut().find(|(k, v)| key.is_some() && *k == key && !v.is_empty()) {
                        Some((_, v)) => v.push((fm, *b)),
                        None => groups.push((key, vec![(fm, *b)])),
                    }
                }
                let mut results = Vec::new();
                for (key, gfields) in groups {
                    match key {
                        None => {
                            let m = MatchQuery {
                                field: gfields[0].0.path.clone(),
                                text: text.to_string(),
                                lenient,
                                boost: gfields[0].1,
                                ..options.clone()
                            };
                            match self.match_query(&m, boost, scoring) {
                                Ok(e) => results.push(e),
                                Err(_) if lenient => {}
                                Err(e) => return Err(e),
                            }
                        }
                        Some(analyzer) => {
                            let tokens = analyzer.analyze(text);
                            if tokens.is_empty() {
                                continue;
                            }
                            let mut per_term = Vec::new();
                            let fields: Vec<(String, f32)> =
                                gfields.iter().map(|(f, b)| (f.path.clone(), *b)).collect();
                            for t in &tokens {
                                let blend = Node::Blend { fields: fields.clone(), term: t.text.clone(), tie, lenient };
                                per_term.push(self.node(&blend, boost, scoring)?);
                            }
                            let n = per_term.len();
                            results.push(if n == 1 {
                                per_term.pop().flatten()
                            } else if options.operator == crate::query::Operator::And {
                                boolean(per_term, Vec::new(), Vec::new(), false, 0)
                            } else {
                                let msm = options.minimum_should_match.as_ref().map(|s| s.resolve(n)).unwrap_or(0);
                                boolean(Vec::new(), Vec::new(), per_term, false, msm)
                            });
                        }
                    }
                }
                Ok(dis_max(results, tie, false))
            }
        }
    }

    fn function_score(&self, fs: &FunctionScoreQuery, boost: f32, scoring: bool) -> Result<Option<Expl>> {
        let ex = self.ex;
        let Some(sub) = self.query(&fs.query, boost * fs.boost, scoring)? else { return Ok(None) };
        let mut expl = sub.clone();
        if !fs.functions.is_empty() {
            let filters = function_score::filter_sets(ex, &fs.functions)?;
            let prepared = function_score::prepare(ex, &fs.functions)?;
            let values = function_score::weighted_values(ex, &fs.functions, &prepared, &filters, self.doc)?;
            // ES wraps every function in a filter function unless there is exactly one
            // without a filter.
            let filtered = !(fs.functions.len() == 1 && fs.functions[0].filter.is_none());
            let mut fexpls = Vec::new();
            for (i, f) in fs.functions.iter().enumerate() {
                let Some(weighted) = values[i] else { continue };
                let raw = function_score::function_value(ex, &prepared[i], self.doc)?;
                let inner = match (&f.kind, &prepared[i]) {
                    (ScoreFunctionKind::FieldValueFactor { field, factor, modifier, missing }, _) => Expl::leaf(
                        raw as f32,
                        format!(
                            "field value function: {modifier}(doc['{field}'].value{} * factor={})",
                            missing.map(|m| format!("?:{}", java_double(m))).unwrap_or_default(),
                            java_float(*factor)
                        ),
                    ),
                    (ScoreFunctionKind::RandomScore { .. }, Prepared::Random { seed, field, .. }) => Expl::leaf(
                        raw as f32,
                        format!(
                            "random score function (seed: {seed}, field: {})",
                            if field.is_empty() { "null" } else { field.as_str() }
                        ),
                    ),
                    _ => Expl::leaf(1.0, "constant score 1.0 - no function provided"),
                };
                let fe = match f.weight {
                    Some(w) => Expl::new(inner.value * w, "product of:", vec![inner, Expl::leaf(w, "weight")]),
                    None => inner,
                };
                fexpls.push(if filtered {
                    let filter = f.filter.as_ref().map(|q| self.lstr(q)).unwrap_or_else(|| "*:*".into());
                    Expl::new(
                        weighted as f32,
                        "function score, product of:",
                        vec![Expl::leaf(1.0, format!("match filter: {filter}")), fe],
                    )
                } else {
                    fe
                });
            }
            let factor_e = if fexpls.is_empty() {
                Expl::leaf(1.0, "No function matched")
            } else if !filtered && fexpls.len() == 1 {
                fexpls.remove(0)
            } else {
                let factor = function_score::score_mode_factor(&fs.score_mode, &fs.functions, &values);
                Expl::new(factor as f32, format!("function score, score mode [{}]", fs.score_mode), fexpls)
            };
            let max_e = Expl::leaf(fs.max_boost, "maxBoost");
            let min_e = Expl::new(factor_e.value.min(fs.max_boost), "min of:", vec![factor_e, max_e]);
            let q = sub.value;
            let m = min_e.value;
            expl = match fs.boost_mode.as_str() {
                "replace" => min_e,
                "sum" => Expl::new(m + q, "sum of", vec![sub, min_e]),
                "avg" => Expl::new((m + q) / 2.0, "avg of", vec![sub, min_e]),
                "min" => Expl::new(q.min(m), "min of", vec![sub, min_e]),
                "max" => Expl::new(q.max(m), "max of", vec![sub, min_e]),
                _ => Expl::new(q * m, "function score, product of:", vec![sub, min_e]),
            };
        }
        if let Some(min) = fs.min_score {
            if min > expl.value {
                return Ok(None);
            }
        }
        Ok(Some(expl))
    }

    /// A query_string tree.
    fn node(&self, n: &Node, boost: f32, scoring: bool) -> Result<Option<Expl>> {
        match n {
            Node::Leaf { query, lenient } => match self.query(query, boost, scoring) {
                Ok(e) => Ok(e),
                Err(_) if *lenient => Ok(None),
                Err(e) => Err(e),
            },
            Node::Boost(inner, b) => self.node(inner, boost * b, scoring),
            Node::DisMax { subs, tie } => {
                let subs = subs.iter().map(|s| self.node(s, boost, scoring)).collect::<Result<Vec<_>>>()?;
                Ok(dis_max(subs, *tie, true))
            }
            Node::Bool { clauses, msm, boost: b } => {
                let boost = boost * b;
                if clauses.is_empty() {
                    return Ok(None);
                }
                if clauses.len() == 1 && clauses[0].0 != Occur::MustNot && *msm <= 1 {
                    return self.node(&clauses[0].1, boost, scoring);
                }
                let mut must = Vec::new();
                let mut should = Vec::new();
                for (o, c) in clauses {
                    match o {
                        Occur::Must => must.push(self.node(c, boost, scoring)?),
                        Occur::Should => should.push(self.node(c, boost, scoring)?),
                        Occur::MustNot => {
                            if self.node(c, 1.0, false)?.is_some() {
                                return Ok(None);
                            }
                        }
                    }
                }
                if must.is_empty() && should.is_empty() {
                    must.push(Some(Expl::leaf(boost, boosted_desc("*:*".into(), boost))));
                }
                Ok(boolean(must, Vec::new(), should, false, *msm))
            }
            Node::Blend { fields, term, tie, lenient } => {
                let stats = qs::blend_stats(self.ex, fields, term)?;
                let mut subs = Vec::new();
                for (f, b, p, df) in &stats.inverted {
                    let (Some(_), Resolved::Field(fm)) = (p, self.ex.resolve(f)) else { continue };
                    let t = match fm.ftype {
                        FieldType::Keyword => fm.normalizer.map(|n| n.normalize(term)).unwrap_or_else(|| term.clone()),
                        FieldType::Boolean => match term.as_str() {
                            "true" => "T".into(),
                            _ => "F".into(),
                        },
                        _ => term.clone(),
                    };
                    subs.push(self.bm25_term(fm, &t, Some(*df), boost * b, scoring)?);
                }
                let mut all = Vec::new();
                if !stats.inverted.is_empty() {
                    all.push(dis_max(subs, *tie, false));
                }
                for (f, b) in &stats.points {
                    all.push(self.term(f, term, boost * b, scoring, *lenient)?);
                }
                Ok(if all.len() == 1 { all.pop().flatten() } else { dis_max(all, 1.0, false) })
            }
        }
    }

    /// The Lucene `toString` of the query ES builds (for constant-score descriptions).
    fn lstr(&self, q: &Query) -> String {
        let ex = self.ex;
        match q {
            Query::MatchAll { .. } => "*:*".into(),
            Query::MatchNone => "MatchNoDocsQuery(\"\")".into(),
            Query::Term { field, value, .. } => {
                let v = value.text();
                match ex.resolve(field) {
                    Resolved::Field(fm) if fm.ftype.is_numeric_like() && fm.ftype != FieldType::Boolean => {
                        let n = ex.number_value(fm, value, false, None).map(num_str).unwrap_or(v);
                        format!("{field}:[{n} TO {n}]")
                    }
                    Resolved::Field(fm) if fm.ftype == FieldType::Keyword => {
                        format!("{field}:{}", fm.normalizer.map(|n| n.normalize(&v)).unwrap_or(v))
                    }
                    _ => format!("{field}:{v}"),
                }
            }
            Query::Terms { field, values, .. } => {
                format!("{field}:({})", values.iter().map(Scalar::text).collect::<Vec<_>>().join(" "))
            }
            Query::Ids { values, .. } => format!("_id:({})", values.join(" ")),
            Query::Range(r) => {
                let b = |v: &Option<(Scalar, bool)>| v.as_ref().map(|(v, _)| v.text()).unwrap_or_else(|| "*".into());
                let lo = if r.lower.as_ref().map(|l| l.1).unwrap_or(true) { '[' } else { '{' };
                let hi = if r.upper.as_ref().map(|u| u.1).unwrap_or(true) { ']' } else { '}' };
                format!("{}:{lo}{} TO {}{hi}", r.field, b(&r.lower), b(&r.upper))
            }
            Query::Exists { field, .. } => {
                let kind = match ex.resolve(field) {
                    Resolved::Field(fm) if fm.ftype == FieldType::Text => "NormsFieldExistsQuery",
                    _ => "DocValuesFieldExistsQuery",
                };
                format!("ConstantScore({kind} [field={field}])")
            }
            Query::Prefix { field, value, .. } => format!("{field}:{value}*"),
            Query::Wildcard { field, pattern, .. } => format!("{field}:{pattern}"),
            Query::Regexp { field, pattern, .. } => format!("{field}:/{pattern}/"),
            Query::Fuzzy { field, value, fuzziness, .. } => format!("{field}:{value}~{fuzziness}"),
            Query::Match(m) => match ex.resolve(&m.field) {
                Resolved::Field(fm) if fm.ftype == FieldType::Text => {
                    let tokens =
                        ex.search_analyzer(fm, m.analyzer.as_deref()).map(|a| a.analyze(&m.text)).unwrap_or_default();
                    let plus = if m.operator == crate::query::Operator::And && tokens.len() > 1 { "+" } else { "" };
                    tokens.iter().map(|t| format!("{plus}{}:{}", m.field, t.text)).collect::<Vec<_>>().join(" ")
                }
                _ => {
                    self.lstr(&Query::Term { field: m.field.clone(), value: Scalar::Text(m.text.clone()), boost: 1.0 })
                }
            },
            Query::MatchPhrase { field, text, slop, .. } => {
                let mut s = format!("{field}:\"{text}\"");
                if *slop != 0 {
                    s.push_str(&format!("~{slop}"));
                }
                s
            }
            Query::MultiMatch { fields, text, .. } => {
                let parts: Vec<String> = fields.iter().map(|(f, _)| format!("{f}:{text}")).collect();
                format!("({})", parts.join(" | "))
            }
            Query::Bool(b) => {
                let mut parts = Vec::new();
                let mut push = |prefix: &str, c: &Query| {
                    let s = self.lstr(c);
                    parts.push(if matches!(c, Query::Bool(_)) {
                        format!("{prefix}({s})")
                    } else {
                        format!("{prefix}{s}")
                    });
                };
                b.must.iter().for_each(|c| push("+", c));
                b.must_not.iter().for_each(|c| push("-", c));
                b.should.iter().for_each(|c| push("", c));
                b.filter.iter().for_each(|c| push("#", c));
                let msm = b.minimum_should_match.as_ref().map(|s| s.resolve(b.should.len())).unwrap_or(0);
                let s = parts.join(" ");
                if msm > 0 {
                    format!("({s})~{msm}")
                } else {
                    s
                }
            }
            Query::ConstantScore { filter, .. } => format!("ConstantScore({})", self.lstr(filter)),
            Query::DisMax { queries, tie_breaker, .. } => {
                let s = queries.iter().map(|c| self.lstr(c)).collect::<Vec<_>>().join(" | ");
                if *tie_breaker != 0.0 {
                    format!("({s})~{}", java_float(*tie_breaker))
                } else {
                    format!("({s})")
                }
            }
            Query::Boosting { positive, .. } => self.lstr(positive),
            Query::FunctionScore(fs) => format!("function score ({}, functions: [...])", self.lstr(&fs.query)),
            Query::QueryString(q) => q.query.clone(),
        }
    }
}

/// A number as Lucene's point queries print it.
fn num_str(n: crate::index::Num) -> String {
    match n {
        crate::index::Num::I(i) => i.to_string(),
        crate::index::Num::F(f) => java_double(f),
    }
}

/// `idf, computed as ...` for one term.
fn idf_expl(df: u64, doc_count: u64) -> Expl {
    Expl::new(
        idf(df, doc_count),
        "idf, computed as log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)) from:",
        vec![Expl::leaf(df as f32, "docFreq"), Expl::leaf(doc_count as f32, "docCount")],
    )
}

/// A term or phrase weight under Lucene's non-scoring similarity (filter context).
fn non_scoring(desc: &str, doc: u32, freq: f32, label: &str) -> Expl {
    let f = java_float(freq);
    Expl::new(
        0.0,
        format!("weight({desc} in {doc}) [], result of:"),
        vec![Expl::new(
            0.0,
            format!("score(doc={doc},freq={f}), with freq of:"),
            vec![Expl::leaf(freq, format!("{label}={f}"))],
        )],
    )
}

/// Lucene's `BooleanWeight.explain`: scoring clauses summed in float, filters as
/// `match on required clause`; `None` when a required clause or `minimum_should_match`
/// fails.
fn boolean(
    must: Vec<Option<Expl>>,
    filter: Vec<Option<Expl>>,
    should: Vec<Option<Expl>>,
    _prohibited: bool,
    msm: usize,
) -> Option<Expl> {
    let mut subs = Vec::new();
    let mut sum = 0f32;
    let mut matched = 0usize;
    let mut should_matched = 0usize;
    for e in must {
        let e = e?;
        sum += e.value;
        subs.push(e);
        matched += 1;
    }
    for e in should.into_iter().flatten() {
        sum += e.value;
        subs.push(e);
        matched += 1;
        should_matched += 1;
    }
    for e in filter {
        let e = e?;
        subs.push(Expl::new(0.0, "match on required clause, product of:", vec![Expl::leaf(0.0, "# clause"), e]));
        matched += 1;
    }
    if matched == 0 || should_matched < msm {
        return None;
    }
    Some(Expl::new(sum, "sum of:", subs))
}

/// A disjunction of optional clauses (one clause stands alone, as Lucene rewrites it).
fn sum_of_should(subs: Vec<Option<Expl>>) -> Option<Expl> {
    if subs.len() == 1 {
        return subs.into_iter().next().flatten();
    }
    boolean(Vec::new(), Vec::new(), subs, false, 0)
}

/// Lucene's `DisjunctionMaxWeight.explain`; `unwrap_single`: a one-disjunct query is
/// rewritten to its disjunct.
fn dis_max(subs: Vec<Option<Expl>>, tie: f32, unwrap_single: bool) -> Option<Expl> {
    if subs.len() == 1 && (unwrap_single || tie == 0.0) {
        return subs.into_iter().next().flatten();
    }
    let matched: Vec<Expl> = subs.into_iter().flatten().collect();
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
    let desc =
        if tie == 0.0 { "max of:".to_string() } else { format!("max plus {} times others of:", java_float(tie)) };
    Some(Expl::new(value, desc, matched))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_float_strings() {
        assert_eq!(java_float(1.0), "1.0");
        assert_eq!(java_float(1.3862944), "1.3862944");
        assert_eq!(java_float(0.3), "0.3");
        assert_eq!(java_float(3.4028235e38), "3.4028235E38");
        assert_eq!(java_float(1.0e-4), "1.0E-4");
    }

    #[test]
    fn booleans_and_disjunctions() {
        let a = Expl::leaf(1.0, "a");
        let b = Expl::leaf(2.0, "b");
        let s = boolean(vec![Some(a.clone())], vec![], vec![Some(b.clone()), None], false, 0).unwrap();
        assert_eq!(s.value, 3.0);
        assert_eq!(s.description, "sum of:");
        assert!(boolean(vec![None], vec![], vec![Some(b.clone())], false, 0).is_none());
        assert!(boolean(vec![], vec![], vec![Some(b.clone()), None], false, 2).is_none());
        let d = dis_max(vec![Some(a), Some(b)], 0.5, false).unwrap();
        assert_eq!(d.value, 2.5);
        assert_eq!(d.description, "max plus 0.5 times others of:");
    }
}
