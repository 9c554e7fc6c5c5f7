//! Compiles a query tree for one index: field resolution, analysis per field, term
//! statistics and BM25 weights, into a [`Weight`] that streams its matches and explains
//! them. Boosts are pushed down to the leaves, as Lucene does, so scores round exactly as
//! ES's. Booleans of one clause are that clause, as Lucene rewrites them.

use super::bm25::{avg_field_length, idf, Bm25Weight};
use super::context::{number_value, query_shard_error, token_count, Executor, Resolved};
use super::filter_cache;
use super::highlight_terms::{self, HighlightTerms};
use super::multi::MultiMatch;
use super::phrase::MatchPhrase;
use super::terms::{self, FuzzyTerm};
use super::weight::{BoolWeight, ConstExplain, TermExplain, TermWeight, Weight};
use crate::analysis::field::query_positions;
use crate::analysis::Token;
use crate::error::{Error, Exception, Result};
use crate::index::{Bound, DocSet, Num, Postings, ID_FIELD};
use crate::json_value::{java_double, java_float};
use crate::mapping::{FieldMapping, FieldType};
use crate::query::pattern::{translate_lucene_regex, wildcard_to_regex};
use crate::query::*;

impl<'a> Executor<'a> {
    /// `w`, which runs a query that highlights `terms()` (asked only when compiling for
    /// highlighting); then a failure to compile `w` is a weight that matches nothing
    /// but still highlights.
    pub(crate) fn noted(&self, w: Result<Weight<'a>>, terms: impl FnOnce() -> HighlightTerms) -> Result<Weight<'a>> {
        if !self.highlight {
            return w;
        }
        Ok(w.unwrap_or_else(|_| Weight::none()).with_highlights(terms()))
    }

    /// `w` described, for explanations only, as the constant-score query `q`.
    fn described_as(&self, w: Weight<'a>, q: impl FnOnce() -> String) -> Weight<'a> {
        if !self.explain {
            return w;
        }
        let q = q();
        w.described(true, || ConstExplain::Query(q.clone())).with_query_string(q)
    }

    /// `w`, which runs a query Lucene prints as `q()` (asked only when compiling for
    /// explanations, where an enclosing query's description prints it).
    pub(crate) fn printed(&self, w: Result<Weight<'a>>, q: impl FnOnce() -> String) -> Result<Weight<'a>> {
        match self.explain {
            true => Ok(w?.with_query_string(q())),
            false => w,
        }
    }

    /// The documents for which `script` answers `true`, among `candidates` (every
    /// document when `None`: a script query alone; beside other required clauses of a
    /// boolean it verifies only their candidates, as ES's two-phase iteration does),
    /// looking at the budget as it goes.
    fn script_docs(
        &self,
        script: &std::sync::Arc<crate::script::Script>,
        candidates: Option<&DocSet>,
    ) -> Result<DocSet> {
        use crate::script::{Halt, Value};
        let access = crate::search::script_host::Access::default();
        let mut runner = crate::search::script_host::ScriptRunner::new(script, self.reader, self.snap, access)?;
        let mut docs = DocSet::new();
        let mut ticker = crate::budget::Ticker::new();
        let every = DocSet::full(self.reader.max_doc());
        for doc in candidates.unwrap_or(&every).iter() {
            if ticker.tick()? {
                break;
            }
            match runner.run(doc)? {
                Some(Value::Bool(true)) => {
                    docs.insert(doc);
                }
                Some(Value::Bool(false)) => {}
                None => break,
                Some(other) => {
                    let halt = Halt::at(
                        0,
                        "class_cast_exception",
                        format!("Cannot cast {} to java.lang.Boolean", crate::script::Heap::class_name(&other)),
                    );
                    return Err(script.failure(Some(&self.reader.meta.name), &halt));
                }
            }
        }
        Ok(docs)
    }

    /// The documents matching `q` in filter context (no scores: set algebra), from the
    /// filter cache when the generation answered it before.
    pub fn filter(&self, q: &Query) -> Result<DocSet> {
        let meta = &self.reader.meta;
        let key = if self.reader.max_doc() >= filter_cache::MIN_DOCS {
            filter_cache::key(&format!("{}/{}", meta.uuid, meta.generation), q)
        } else {
            None
        };
        if let Some(docs) = key.as_ref().and_then(filter_cache::get) {
            return Ok((*docs).clone());
        }
        let docs = self.compile(q, 1.0, false)?.docset()?;
        // A set computed past the deadline may be part of the answer (a term walk or a
        // union cut short): it serves this search only.
        if let Some(key) = key.filter(|_| !crate::budget::timed_out()) {
            filter_cache::put(key, std::sync::Arc::new(docs.clone()), self.reader.max_doc());
        }
        Ok(docs)
    }

    /// Compiles `q`; `boost` is the product of enclosing boosts; `scoring` is false in
    /// filter context, where only the matching set counts.
    pub fn compile(&self, q: &Query, boost: f32, scoring: bool) -> Result<Weight<'a>> {
        match self.compile_query(q, boost, scoring) {
            // Compiled for highlighting, a query that cannot run highlights what its arm
            // recorded before failing (`noted`), else nothing.
            Err(_) if self.highlight => Ok(Weight::none()),
            w => w,
        }
    }

    /// `q` compiled on this index to explain its hits' scores (in an
    /// `Executor::explaining` context); `Weight::explain_hit` then explains each hit.
    pub fn compile_explained(&self, q: &Query) -> Result<Weight<'a>> {
        self.explaining().compile(q, 1.0, true)
    }

    fn compile_query(&self, q: &Query, boost: f32, scoring: bool) -> Result<Weight<'a>> {
        match q {
            Query::MatchAll { boost: b } => {
                Ok(self.described_as(Weight::constant(self.all_docs(), boost * b), || "*:*".into()))
            }
            Query::MatchNone => self.printed(Ok(Weight::none()), || "MatchNoDocsQuery(\"\")".into()),
            // Highlighting runs no script: a script query names no terms.
            Query::Script { .. } if self.highlight => Ok(Weight::none()),
            Query::Script { script, boost: b } => {
                let docs = self.script_docs(script, None)?;
                Ok(self.described_as(Weight::constant(docs, boost * b), || format!("ScriptQuery({})", script.source)))
            }
            Query::Term { field, value, boost: b } => self.term(field, value, boost * b, false),
            Query::Terms { field, values, boost: b } => {
                let max = self.reader.meta.settings.limits.max_terms_count;
                if values.len() as u64 > max {
                    // ES 6.8 warns and runs the query (7.0 refuses it).
                    crate::deprecation::warn(format!(
                        "Deprecated: the number of terms [{}] used in the Terms Query request has exceeded the allowed maximum of [{max}]. This maximum can be set by changing the [index.max_terms_count] index level setting.",
                        values.len()
                    ));
                }
                let mut docs = DocSet::new();
                let mut terms = HighlightTerms::default();
                // A union cut at the deadline holds the documents of the values read.
                let mut ticker = crate::budget::Ticker::every(256);
                for v in values {
                    if ticker.tick()? {
                        break;
                    }
                    let w = self.term(field, v, 1.0, false)?;
                    if self.highlight {
                        w.highlights(&mut terms);
                    }
                    docs.or_with(&w.docset()?);
                }
                let w = self.described_as(Weight::constant(docs, boost * b), || {
                    format!("{field}:({})", values.iter().map(Scalar::text).collect::<Vec<_>>().join(" "))
                });
                self.noted(Ok(w), || terms)
            }
            Query::TermsLookup(t) => {
                let values = super::terms_lookup::values(self, &t.lookup)?;
                let q = Query::Terms { field: t.field.clone(), values, boost: t.boost };
                self.compile_query(&q, boost, scoring)
            }
            Query::Ids { values, boost: b } => {
                let mut docs = DocSet::new();
                let mut ticker = crate::budget::Ticker::every(256);
                for v in values {
                    if ticker.tick()? {
                        break;
                    }
                    docs.or_with(&self.keyword_docs(ID_FIELD, v)?);
                }
                Ok(self.described_as(Weight::constant(docs, boost * b), || format!("_id:({})", values.join(" "))))
            }
            Query::Match(m) => {
                let w = self.printed(self.match_query(m, boost), || self.match_string(m));
                self.noted(w, || {
                    let fuzzy = m.fuzziness.as_deref().map(|f| (f, m.prefix_length, m.transpositions));
                    highlight_terms::of_match(self, &m.field, &m.text, m.analyzer.as_deref(), fuzzy)
                })
            }
            Query::MatchPhrase { field, text, slop, analyzer, prefix, max_expansions, boost: b } => {
                let q = MatchPhrase {
                    field,
                    text,
                    slop: *slop,
                    analyzer: analyzer.as_deref(),
                    prefix: *prefix,
                    max_expansions: *max_expansions,
                };
                self.phrase(&q, boost * b)
            }
            Query::MultiMatch { fields, text, kind, tie_breaker, options } => {
                let q = MultiMatch { fields, text, kind: *kind, tie_breaker: *tie_breaker, options };
                super::multi::multi_match(self, &q, boost, scoring)
            }
            Query::Range(r) => {
                Ok(self.described_as(Weight::constant(self.range(r)?, boost * r.boost), || range_string(r)))
            }
            Query::Geo(g) => super::geo::query::compile(self, g, boost),
            Query::GeoShape(g) => super::geo::shape::compile(self, g, boost),
            Query::Exists { field, boost: b } => {
                Ok(self.described_as(Weight::constant(self.exists(field)?, boost * b), || {
                    // The routing field has neither doc values nor norms.
                    if field == "_routing" {
                        return "ConstantScore(_field_names:_routing)".to_string();
                    }
                    let kind = match self.resolve(field) {
                        Resolved::Field(fm) if fm.ftype == FieldType::Text => "NormsFieldExistsQuery",
                        _ => "DocValuesFieldExistsQuery",
                    };
                    format!("ConstantScore({kind} [field={field}])")
                }))
            }
            Query::Prefix { field, value, boost: b } => {
                let w = match terms::prefix_field(self, field, value) {
                    Some(hidden) => terms::indexed_prefix(self, field, &hidden, value).map(|docs| {
                        self.described_as(Weight::constant(docs, boost * b), || {
                            format!("ConstantScore({hidden}:{value})")
                        })
                    }),
                    None => terms::prefix(self, field, value).map(|docs| {
                        self.described_as(Weight::constant(docs, boost * b), || format!("{field}:{value}*"))
                    }),
                };
                self.noted(w, || HighlightTerms::prefix(field, self.exact_term(field, value)))
            }
            Query::Wildcard { field, pattern, boost: b } => {
                let docs = terms::wildcard(self, field, pattern);
                let w = docs
                    .map(|docs| self.described_as(Weight::constant(docs, boost * b), || format!("{field}:{pattern}")));
                self.noted(w, || HighlightTerms::pattern(field, &wildcard_to_regex(&self.exact_term(field, pattern)).0))
            }
            Query::Regexp { field, pattern, max_determinized_states, limit_length, boost: b } => {
                let docs = match *limit_length {
                    true => terms::check_regex_length(self, pattern),
                    false => Ok(()),
                }
                .and_then(|()| terms::regexp(self, field, pattern, *max_determinized_states));
                let w = docs.map(|docs| {
                    self.described_as(Weight::constant(docs, boost * b), || format!("{field}:/{pattern}/"))
                });
                self.noted(w, || {
                    let regex = translate_lucene_regex(&self.exact_term(field, pattern));
                    HighlightTerms::pattern(field, &format!("(?s)^(?:{regex})$"))
                })
            }
            Query::Fuzzy { field, value, fuzziness, prefix_length, max_expansions, transpositions, boost: b } => {
                let q = FuzzyTerm {
                    field,
                    value,
                    fuzziness,
                    prefix_length: *prefix_length,
                    max_expansions: *max_expansions,
                    transpositions: *transpositions,
                };
                terms::fuzzy(self, &q, boost * b)
            }
            Query::Bool(b) => self.bool_query(b, boost * b.boost, scoring),
            Query::ConstantScore { filter, boost: b } => {
                let (w, inner) = self.constant_filter(filter, boost * b)?;
                self.printed(Ok(w), || format!("ConstantScore({inner})"))
            }
            Query::DisMax { queries, tie_breaker, boost: b } => {
                let subs = queries.iter().map(|q| self.compile(q, boost * b, scoring)).collect::<Result<Vec<_>>>()?;
                let printed = self.explain.then(|| {
                    let s = subs.iter().map(Weight::query_string).collect::<Vec<_>>().join(" | ");
                    match *tie_breaker {
                        0.0 => format!("({s})"),
                        tie => format!("({s})~{}", java_float(tie)),
                    }
                });
                self.printed(Ok(Weight::dis_max(subs, *tie_breaker)), || printed.unwrap_or_default())
            }
            Query::Boosting { positive, negative, negative_boost, boost: b } => {
                let positive = self.compile(positive, boost * b, scoring)?;
                // Lucene prints a boosting query as its positive query.
                let printed = self.explain.then(|| positive.query_string());
                let w = Weight::Boosting {
                    positive: Box::new(positive),
                    negative: self.filter(negative)?,
                    factor: *negative_boost,
                };
                self.printed(Ok(w), || printed.unwrap_or_default())
            }
            Query::FunctionScore(fs) => super::function_score::compile(self, fs, boost, scoring),
            Query::QueryString(qs) => super::query_text::compile(self, qs, boost, scoring),
            Query::Nested(n) => self.nested_query(n, boost, scoring),
            Query::Span(s) => super::span::compile(self, s, boost),
            Query::TermsSet(t) if self.highlight => {
                let mut terms = HighlightTerms::default();
                for v in &t.values {
                    terms.absorb(&HighlightTerms::term(&t.field, self.exact_term(&t.field, &v.text())));
                }
                self.noted(Ok(Weight::none()), || terms)
            }
            Query::TermsSet(t) => super::terms_set::compile(self, t, boost),
            Query::Common(c) => {
                let w = super::common_terms::compile(self, c, boost);
                self.noted(w, || highlight_terms::of_match(self, &c.field, &c.text, c.analyzer.as_deref(), None))
            }
            Query::MoreLikeThis(q) => match super::more_like_this::compile(self, q, boost) {
                // Compiling for highlighting never fails (its selected terms highlight).
                Err(_) if self.highlight => Ok(Weight::none()),
                w => w,
            },
        }
    }

    /// The documents of `q` in filter context, each scoring `score`: Lucene's
    /// `ConstantScoreQuery`, explained by Lucene's string of `q` (returned beside it when
    /// compiling for explanations). Compiled for highlighting, it highlights what `q` does.
    fn constant_filter(&self, q: &Query, score: f32) -> Result<(Weight<'a>, String)> {
        if !self.explain && !self.highlight {
            return Ok((Weight::constant(self.filter(q)?, score), String::new()));
        }
        let inner = self.compile(q, 1.0, false)?;
        let printed = inner.query_string();
        let mut terms = HighlightTerms::default();
        inner.highlights(&mut terms);
        let w = Weight::constant(inner.docset()?, score)
            .described(self.explain, || ConstExplain::Query(format!("ConstantScore({printed})")));
        Ok((self.noted(Ok(w), || terms)?, printed))
    }

    /// `term` semantics per field type; `lenient` turns unparsable values into no match.
    /// It highlights the value as the field indexes it whole, found or not.
    pub fn term(&self, field: &str, value: &Scalar, boost: f32, lenient: bool) -> Result<Weight<'a>> {
        let w = self.printed(self.term_weight(field, value, boost, lenient), || self.term_string(field, value));
        self.noted(w, || HighlightTerms::term(field, self.exact_term(field, &value.text())))
    }

    fn term_weight(&self, field: &str, value: &Scalar, boost: f32, lenient: bool) -> Result<Weight<'a>> {
        // A constant-score term explains itself as Lucene prints a term query on the field.
        let described = |w: Weight<'a>| {
            w.described(self.explain, || ConstExplain::Query(self.term_string(field, &Scalar::Text(value.text()))))
        };
        match self.searched(field)? {
            Resolved::Unmapped => Ok(Weight::none()),
            // ES 6.8 indexes `_routing` as an untokenized string without norms: its term
            // query is a scored TermQuery (BM25 with `b` unused), unlike `_id` and `_type`.
            Resolved::Meta(f) if f == crate::index::ROUTING_FIELD => {
                self.scored_term(&FieldMapping::new(f, FieldType::Keyword), &value.text(), boost)
            }
            Resolved::Meta(f) => Ok(described(Weight::constant(self.keyword_docs(f, &value.text())?, boost))),
            Resolved::Field(fm) => match fm.ftype {
                FieldType::Text => self.scored_term(fm, &value.text(), boost),
                FieldType::Keyword => self.scored_term(fm, &fm.keyword_term(&value.text())?, boost),
                FieldType::Ip => match super::ip_query::term_docs(self, fm, value, lenient)? {
                    Some(docs) => Ok(described(Weight::constant(docs, boost))),
                    None => Ok(Weight::none()),
                },
                FieldType::Range(kind) => match super::range_field_query::term_docs(self, fm, kind, value) {
                    Ok(docs) => Ok(described(Weight::constant(docs, boost))),
                    Err(_) if lenient => Ok(Weight::none()),
                    Err(e) => Err(e),
                },
                FieldType::Boolean => {
                    let t = match value {
                        Scalar::Bool(true) => "T",
                        Scalar::Bool(false) => "F",
                        Scalar::Text(s) if s == "true" => "T",
                        Scalar::Text(s) if s == "false" || s.is_empty() => "F",
                        _ if lenient => return Ok(Weight::none()),
                        _ => {
                            return Err(query_shard_error(format!(
                                "Can't parse boolean value [{}], expected [true] or [false]",
                                value.text()
                            )))
                        }
                    };
                    self.scored_term(fm, t, boost)
                }
                FieldType::GeoPoint | FieldType::GeoShape => Err(super::geo::exact_search_error(fm)),
                _ => {
                    let n = match self.number_value(fm, value, false, None) {
                        // A half or scaled float matches the value as it would be indexed.
                        Ok(Num::F(x)) => Num::F(fm.round_float(x)),
                        Ok(n) => n,
                        Err(_) if lenient => return Ok(Weight::none()),
                        Err(e) => return Err(e),
                    };
                    let docs = match self.reader.points(self.snap, &fm.path)? {
                        Some(p) => p.range(Bound::Included(n), Bound::Included(n)),
                        None => DocSet::new(),
                    };
                    Ok(described(Weight::constant(docs, boost)))
                }
            },
        }
    }

    /// Lucene's string of the query a `term` of `value` on `field` becomes: a point
    /// range for numbers and dates, the normalized term for keywords.
    fn term_string(&self, field: &str, value: &Scalar) -> String {
        let v = value.text();
        match self.resolve(field) {
            Resolved::Field(fm) if fm.ftype.is_numeric_like() && fm.ftype != FieldType::Boolean => {
                let n = self.number_value(fm, value, false, None).map(point_string).unwrap_or(v);
                format!("{field}:[{n} TO {n}]")
            }
            Resolved::Field(fm) if fm.ftype == FieldType::Ip => super::ip_query::term_string(field, &v),
            _ => format!("{field}:{}", self.exact_term(field, &v)),
        }
    }

    /// A BM25-scored term on an inverted field.
    pub fn scored_term(&self, fm: &FieldMapping, term: &str, boost: f32) -> Result<Weight<'a>> {
        let Some(addr) = self.reader.term_addr(self.snap, &fm.path, term)? else {
            return Ok(Weight::none());
        };
        let postings = self.reader.postings(self.snap, &fm.path, addr)?;
        let df = postings.docs.len();
        self.scored_postings(fm, term, postings, df, boost)
    }

    /// The postings of `term` in `fm` scored with BM25 for document frequency `df` (the
    /// term's own, or one shared by blended and fuzzy terms) and `boost`. Without
    /// frequencies (keyword-like fields) every document scores one occurrence: a
    /// constant-score set.
    pub fn scored_postings(
        &self,
        fm: &FieldMapping,
        term: &str,
        postings: Postings,
        df: u64,
        boost: f32,
    ) -> Result<Weight<'a>> {
        let st = self.reader.field_stats(&fm.path);
        let doc_count = st.map(|s| s.doc_count).unwrap_or(0);
        let has_norms = fm.params.has_norms(fm.ftype);
        let avgdl = has_norms.then(|| avg_field_length(st.map(|s| s.sum_total_term_freq).unwrap_or(0), doc_count));
        let bm25 = Bm25Weight::new(idf(df, doc_count), boost, avgdl);
        let explain = self.explain.then(|| TermExplain {
            field: fm.path.clone(),
            term: term.to_string(),
            df,
            doc_count,
            boost,
            avgdl,
        });
        match postings.freqs {
            Some(freqs) => {
                let norms = if has_norms { self.reader.norms(self.snap, &fm.path)? } else { None };
                Ok(Weight::Term(Box::new(TermWeight::new(postings.docs, freqs, norms, bm25, explain.map(Box::new)))))
            }
            None => {
                let w = Weight::constant(postings.docs, bm25.score(1.0, 0));
                Ok(match explain {
                    Some(t) => w.described(true, || ConstExplain::Term(t)),
                    None => w,
                })
            }
        }
    }

    /// Lucene's SynonymQuery of `terms`, stacked at one position of `fm`'s query text.
    pub fn synonym(&self, fm: &FieldMapping, terms: &[String], boost: f32) -> Result<Weight<'a>> {
        Ok(Weight::Synonym(Box::new(super::synonym::SynonymWeight::new(self, fm, terms, boost)?)))
    }

    /// Lucene's string of the query a `match` becomes: its analyzed terms (each required
    /// with `and`) on a text field, else the `term` of its text.
    fn match_string(&self, m: &MatchQuery) -> String {
        match self.resolve(&m.field) {
            Resolved::Field(fm) if fm.ftype == FieldType::Text => {
                if m.fuzziness.is_none() && m.minimum_should_match.is_none() {
                    let graph =
                        self.search_analyzer(fm, m.analyzer.as_deref(), false).and_then(|a| a.query_graph(&m.text));
                    if let Ok(Some(graph)) = graph {
                        let must = m.operator == Operator::And;
                        return super::graph_query::query_string(&m.field, &graph, must, m.synonym_phrases)
                            .unwrap_or_default();
                    }
                }
                let tokens = self
                    .search_analyzer(fm, m.analyzer.as_deref(), false)
                    .and_then(|a| a.analyze_query(&m.text, m.fuzziness.is_none()))
                    .unwrap_or_default();
                let groups = query_positions(&tokens);
                let plus = if m.operator == Operator::And && groups.len() > 1 { "+" } else { "" };
                let clause = |g: &[String]| match g {
                    [one] => format!("{}:{one}", m.field),
                    _ => super::synonym::query_string(&m.field, g),
                };
                groups.iter().map(|g| format!("{plus}{}", clause(g))).collect::<Vec<_>>().join(" ")
            }
            _ => self.term_string(&m.field, &Scalar::Text(m.text.clone())),
        }
    }

    fn match_query(&self, m: &MatchQuery, boost: f32) -> Result<Weight<'a>> {
        let boost = boost * m.boost;
        let fm = match self.searched(&m.field)? {
            Resolved::Unmapped => return Ok(Weight::none()),
            Resolved::Meta(_) => return self.term(&m.field, &Scalar::Text(m.text.clone()), boost, m.lenient),
            Resolved::Field(fm) => fm,
        };
        match fm.ftype {
            FieldType::Text => {}
            FieldType::Keyword => {
                if let Some(f) = &m.fuzziness {
                    let term = fm.keyword_term(&m.text)?;
                    return terms::fuzzy(self, &fuzzy_term(m, &m.field, &term, f), boost);
                }
                return self.term(&m.field, &Scalar::Text(m.text.clone()), boost, m.lenient);
            }
            _ => return self.term(&m.field, &Scalar::Text(m.text.clone()), boost, m.lenient),
        }
        let analyzer = self.search_analyzer(fm, m.analyzer.as_deref(), false)?;
        // One clause per term, counted before any term is built or looked up: a text of
        // millions of words costs a pass over it, not a token (and its string) each.
        super::clauses::check(self, token_count(&analyzer, &m.text)?)?;
        if m.fuzziness.is_none() && m.minimum_should_match.is_none() {
            if let Some(graph) = analyzer.query_graph(&m.text)? {
                let must = m.operator == Operator::And;
                return super::graph_query::compile(self, fm, &graph, must, m.synonym_phrases, boost);
            }
        }
        // Stacked terms make SynonymQueries; with fuzziness metagate builds none (refused).
        let tokens: Vec<Token> = analyzer.analyze_query(&m.text, m.fuzziness.is_none())?;
        if tokens.is_empty() {
            return Ok(if m.zero_terms_all {
                let w = Weight::constant(self.all_docs(), boost);
                w.described(self.explain, || ConstExplain::Query("*:*".into()))
            } else {
                Weight::none()
            });
        }
        let leaf = |t: &str| -> Result<Weight<'a>> {
            match &m.fuzziness {
                Some(f) => terms::fuzzy(self, &fuzzy_term(m, &fm.path, t, f), boost),
                None => self.scored_term(fm, t, boost),
            }
        };
        if tokens.len() == 1 {
            return leaf(&tokens[0].text);
        }
        let position = |terms: &[String]| match terms {
            [one] => leaf(one),
            _ => self.synonym(fm, terms, boost),
        };
        let groups = query_positions(&tokens);
        if groups.len() == 1 {
            return position(&groups[0]);
        }
        if let (Some(cutoff), None) = (m.cutoff_frequency, &m.fuzziness) {
            // ES turns a boolean of plain terms into a common terms query (a boolean with
            // a synonym stays one).
            if groups.iter().all(|g| g.len() == 1) {
                let terms: Vec<String> = groups.iter().map(|g| g[0].clone()).collect();
                let spec = crate::query::common::CommonSpec {
                    cutoff_frequency: cutoff,
                    low_freq_operator: m.operator,
                    high_freq_operator: m.operator,
                    low_freq_msm: m.minimum_should_match.clone(),
                    high_freq_msm: None,
                };
                return super::common_terms::build(self, fm, &terms, &spec, boost);
            }
        }
        let clauses = groups.iter().map(|g| position(g)).collect::<Result<Vec<_>>>()?;
        let (must, should) = match m.operator {
            Operator::And => (clauses, Vec::new()),
            Operator::Or => (Vec::new(), clauses),
        };
        let msm = match (&m.minimum_should_match, m.operator) {
            (Some(spec), Operator::Or) => spec.resolve(should.len()),
            _ => usize::from(!should.is_empty()),
        };
        Ok(Weight::boolean(BoolWeight {
            must,
            filter: None,
            should,
            must_not: DocSet::new(),
            min_should_match: msm,
            filter_clauses: Vec::new(),
        }))
    }

    /// Phrase and phrase-prefix queries.
    pub fn phrase(&self, q: &MatchPhrase<'_>, boost: f32) -> Result<Weight<'a>> {
        let MatchPhrase { field, text, slop, analyzer, prefix, .. } = *q;
        let w = self.phrase_weight(q, boost);
        let w = self.printed(w, || match slop {
            0 => format!("{field}:\"{text}\""),
            _ => format!("{field}:\"{text}\"~{slop}"),
        });
        self.noted(w, || highlight_terms::of_phrase(self, field, text, slop, analyzer, prefix))
    }

    fn phrase_weight(&self, q: &MatchPhrase<'_>, boost: f32) -> Result<Weight<'a>> {
        let MatchPhrase { field, text, slop, analyzer, prefix, max_expansions } = *q;
        let fm = match self.searched(field)? {
            Resolved::Field(fm) if fm.ftype == FieldType::Text => fm,
            Resolved::Field(fm) if fm.ftype == FieldType::Keyword && prefix => {
                // The keyword's single (normalized) term, expanded like a one-term phrase prefix.
                let token = Token { text: fm.keyword_term(text)?, position: 0, start: 0, end: text.len() };
                return super::phrase::compile(self, fm, &[token], 0, true, max_expansions, boost);
            }
            Resolved::Field(_) | Resolved::Meta(_) => {
                if prefix {
                    let w = Weight::constant(terms::prefix(self, field, text)?, boost);
                    return Ok(w.described(self.explain, || ConstExplain::Query(format!("{field}:{text}*"))));
                }
                return self.term(field, &Scalar::Text(text.to_string()), boost, false);
            }
            Resolved::Unmapped => return Ok(Weight::none()),
        };
        let tokens = self.search_analyzer(fm, analyzer, true)?.analyze_query(text, true)?;
        if let [terms] = query_positions(&tokens).as_slice() {
            if terms.len() > 1 {
                if prefix {
                    return Err(Error::illegal_argument(
                        "a phrase prefix of several terms at one position is not supported by metagate",
                    ));
                }
                // One position: Lucene's QueryBuilder makes a SynonymQuery, not a phrase.
                return self.synonym(fm, terms, boost);
            }
        }
        super::phrase::compile(self, fm, &tokens, slop, prefix, max_expansions, boost)
    }

    fn bool_query(&self, b: &BoolQuery, boost: f32, scoring: bool) -> Result<Weight<'a>> {
        let clauses = b.must.len() + b.filter.len() + b.should.len() + b.must_not.len();
        // The highlighter looks for the terms of a boolean of any size.
        if !self.highlight {
            super::clauses::check(self, clauses)?;
        }
        if clauses == 1 {
            // Lucene rewrites a one-clause boolean to its clause; a lone filter scores 0.
            // Its string is still the boolean's.
            let msm = |optional| b.minimum_should_match.as_ref().map_or(optional, |s| s.resolve(optional));
            if let (Some(c), 0) = (b.must.first(), msm(0)) {
                let w = self.compile(c, boost, scoring)?;
                let printed = self.explain.then(|| bool_string(b, &[w.query_string()], &[], &[], &[]));
                return self.printed(Ok(w), || printed.unwrap_or_default());
            }
            if let (Some(c), 0 | 1) = (b.should.first(), msm(1)) {
                let w = self.compile(c, boost, scoring)?;
                let printed = self.explain.then(|| bool_string(b, &[], &[], &[w.query_string()], &[]));
                return self.printed(Ok(w), || printed.unwrap_or_default());
            }
            if let (Some(c), 0) = (b.filter.first(), msm(0)) {
                let (w, inner) = self.constant_filter(c, 0.0)?;
                return self.printed(Ok(w), || bool_string(b, &[], &[], &[], &[inner]));
            }
        }
        let must = b.must.iter().map(|q| self.compile(q, boost, scoring)).collect::<Result<Vec<_>>>()?;
        // Filters are sets; one intersection of them all joins the conjunction. Script
        // filters come last and verify only what the other required clauses let through.
        let mut filter: Option<DocSet> = None;
        let is_script = |q: &Query| matches!(q, Query::Script { .. });
        for q in b.filter.iter().filter(|q| !is_script(q)) {
            let docs = self.filter(q)?;
            match filter.as_mut() {
                None => filter = Some(docs),
                Some(f) => f.and_with(&docs),
            }
        }
        if b.filter.iter().any(is_script) {
            filter = Some(self.script_filters(b, filter)?);
        }
        let should = b.should.iter().map(|q| self.compile(q, boost, scoring)).collect::<Result<Vec<_>>>()?;
        let mut must_not = DocSet::new();
        let mut must_not_strings = Vec::new();
        for q in &b.must_not {
            if self.explain {
                let w = self.compile(q, 1.0, false)?;
                must_not_strings.push(w.query_string());
                must_not.or_with(&w.docset()?);
            } else {
                must_not.or_with(&self.filter(q)?);
            }
        }
        // An explanation shows each filter clause (under the non-scoring similarity), and
        // the highlighter looks for their terms.
        let filter_clauses = match self.explain || self.highlight {
            true => b.filter.iter().map(|q| self.compile(q, boost, scoring)).collect::<Result<Vec<_>>>()?,
            false => Vec::new(),
        };
        let printed = self.explain.then(|| {
            let strings = |ws: &[Weight<'_>]| ws.iter().map(Weight::query_string).collect::<Vec<_>>();
            bool_string(b, &strings(&must), &must_not_strings, &strings(&should), &strings(&filter_clauses))
        });
        // What the scored and filter clauses highlight, whatever the boolean becomes.
        let mut terms = HighlightTerms::default();
        if self.highlight {
            must.iter().chain(&should).chain(&filter_clauses).for_each(|w| w.highlights(&mut terms));
        }
        let msm = match &b.minimum_should_match {
            Some(spec) => spec.resolve(should.len()),
            None => usize::from(must.is_empty() && filter.is_none() && !should.is_empty()),
        };
        let w = if must.is_empty() && filter.is_none() && should.is_empty() {
            // ES adds a match_all to pure negative (and empty) bool queries.
            let mut docs = self.all_docs();
            docs.sub_with(&must_not);
            let negative = !b.must_not.is_empty();
            Weight::constant(docs, boost).described(self.explain, || match negative {
                true => ConstExplain::NegativeBool,
                false => ConstExplain::Query("*:*".into()),
            })
        } else {
            Weight::boolean(BoolWeight { must, filter, should, must_not, min_should_match: msm, filter_clauses })
        };
        let w = self.printed(Ok(w), || printed.unwrap_or_default());
        self.noted(w, || terms)
    }

    /// The documents passing the script filters of `b` among its other required
    /// clauses' candidates: `filter` (the other filters' intersection) and the `must`
    /// clauses' matches, less the `must_not` ones; every document when there are none.
    fn script_filters(&self, b: &BoolQuery, filter: Option<DocSet>) -> Result<DocSet> {
        let mut candidates = filter;
        for q in &b.must {
            let docs = self.compile(q, 1.0, false)?.docset()?;
            match candidates.as_mut() {
                None => candidates = Some(docs),
                Some(c) => c.and_with(&docs),
            }
        }
        if let Some(c) = candidates.as_mut() {
            for q in &b.must_not {
                c.sub_with(&self.filter(q)?);
            }
        }
        for q in &b.filter {
            if let Query::Script { script, .. } = q {
                let passed = self.script_docs(script, candidates.as_ref())?;
                candidates = Some(passed);
            }
        }
        Ok(candidates.unwrap_or_default())
    }

    fn range(&self, r: &RangeQuery) -> Result<DocSet> {
        match self.searched(&r.field)? {
            Resolved::Unmapped => Ok(DocSet::new()),
            Resolved::Meta(f) => terms::keyword_range(self, f, r),
            Resolved::Field(fm) => match fm.ftype {
                FieldType::Text | FieldType::Keyword => terms::keyword_range(self, &fm.path, r),
                FieldType::Ip => super::ip_query::range_docs(self, fm, r),
                FieldType::Range(kind) => super::range_field_query::range_docs(self, fm, kind, r),
                FieldType::GeoPoint | FieldType::GeoShape => Err(super::geo::range_error(fm)),
                _ => {
                    let bound = |b: &Option<(Scalar, bool)>, is_upper: bool| -> Result<Bound> {
                        Ok(match b {
                            None => Bound::Unbounded,
                            Some((v, incl)) => {
                                // Date math rounding: gt and lte round up, gte and lt round down.
                                let round_up = if is_upper { *incl } else { !*incl };
                                let n = number_value(
                                    fm,
                                    v,
                                    round_up,
                                    r.format.as_deref(),
                                    r.time_zone.as_deref(),
                                    self.now_ms,
                                )?;
                                if *incl {
                                    Bound::Included(n)
                                } else {
                                    Bound::Excluded(n)
                                }
                            }
                        })
                    };
                    let lo = bound(&r.lower, false)?;
                    let hi = bound(&r.upper, true)?;
                    Ok(match self.reader.points(self.snap, &fm.path)? {
                        Some(p) => p.range(lo, hi),
                        None => DocSet::new(),
                    })
                }
            },
        }
    }

    /// Documents having any value for `field` (or any field under an object path).
    pub fn exists(&self, field: &str) -> Result<DocSet> {
        let mapping = &self.reader.meta.mapping;
        let field = mapping.resolve_alias(field);
        let mut paths: Vec<&str> = Vec::new();
        if mapping.field(field).is_some() {
            paths.push(field);
        }
        if mapping.is_object(field) || field.contains('*') {
            let prefix = format!("{field}.");
            for p in mapping.field_paths() {
                let matches =
                    if field.contains('*') { crate::mapping::simple_match(field, p) } else { p.starts_with(&prefix) };
                if matches && mapping.field(p).map(|f| f.parent.is_none()).unwrap_or(false) {
                    paths.push(p);
                }
            }
        }
        // Metadata fields every document has (ES 6.8 answers them from `_field_names`
        // or their own terms); `_source` is not searchable.
        if matches!(field, "_id" | "_type" | "_uid" | "_index" | "_seq_no" | "_version") {
            return Ok(self.all_docs());
        }
        // `_routing`, kept for the documents loaded with one (ES: a `_field_names` term).
        if field == "_routing" {
            return terms::all_terms_docs(self, crate::index::ROUTING_FIELD);
        }
        if field == "_source" {
            return Err(Error::new(
                400,
                Exception::new("query_shard_exception", "The _source field is not searchable"),
            ));
        }
        let mut docs = DocSet::new();
        for p in paths {
            let Some(fm) = mapping.field(p) else { continue };
            docs.or_with(&self.field_presence(fm)?);
        }
        Ok(docs)
    }

    fn field_presence(&self, fm: &FieldMapping) -> Result<DocSet> {
        match fm.ftype {
            FieldType::Text => {
                let norms = self.reader.norms(self.snap, &fm.path)?;
                Ok(norms
                    .map(|n| DocSet::from_docs(n.iter().enumerate().filter(|(_, b)| **b > 0).map(|(i, _)| i as u32)))
                    .unwrap_or_default())
            }
            FieldType::Range(_) => terms::all_terms_docs(self, &fm.path),
            FieldType::Keyword | FieldType::Ip => {
                if let Some(dv) = self.reader.keyword_doc_values(self.snap, &fm.path)? {
                    let n = self.reader.max_doc();
                    return Ok(DocSet::from_docs((0..n).filter(|d| dv.ords(*d).next().is_some())));
                }
                terms::all_terms_docs(self, &fm.path)
            }
            _ => {
                let Some(dv) = self.reader.numeric_doc_values(self.snap, &fm.path)? else {
                    return Ok(DocSet::new());
                };
                let n = self.reader.max_doc();
                Ok(DocSet::from_docs((0..n).filter(|d| dv.count(*d) > 0)))
            }
        }
    }
}

/// Lucene's string of the boolean query `b` given its clauses' strings: `+` required,
/// `-` excluded, `#` filter clauses, nested booleans in parentheses, and `~n` for a
/// `minimum_should_match` it keeps.
fn bool_string(b: &BoolQuery, must: &[String], must_not: &[String], should: &[String], filter: &[String]) -> String {
    let mut parts = Vec::new();
    let groups =
        [("+", &b.must, must), ("-", &b.must_not, must_not), ("", &b.should, should), ("#", &b.filter, filter)];
    for (prefix, queries, strings) in groups {
        for (q, s) in queries.iter().zip(strings) {
            parts.push(match q {
                Query::Bool(_) => format!("{prefix}({s})"),
                _ => format!("{prefix}{s}"),
            });
        }
    }
    let s = parts.join(" ");
    match b.minimum_should_match.as_ref().map(|m| m.resolve(b.should.len())).unwrap_or(0) {
        0 => s,
        msm => format!("({s})~{msm}"),
    }
}

/// The fuzzy term `value` of a fuzzy `match` `m` on `field` (the options are the match's).
fn fuzzy_term<'q>(m: &MatchQuery, field: &'q str, value: &'q str, fuzziness: &'q str) -> FuzzyTerm<'q> {
    FuzzyTerm {
        field,
        value,
        fuzziness,
        prefix_length: m.prefix_length,
        max_expansions: m.max_expansions,
        transpositions: m.transpositions,
    }
}

/// Lucene's string of a range query: its bounds as written, `*` where open.
fn range_string(r: &RangeQuery) -> String {
    let b = |v: &Option<(Scalar, bool)>| v.as_ref().map(|(v, _)| v.text()).unwrap_or_else(|| "*".into());
    let lo = if r.lower.as_ref().map(|l| l.1).unwrap_or(true) { '[' } else { '{' };
    let hi = if r.upper.as_ref().map(|u| u.1).unwrap_or(true) { ']' } else { '}' };
    format!("{}:{lo}{} TO {}{hi}", r.field, b(&r.lower), b(&r.upper))
}

/// A number as Lucene's point queries print it.
fn point_string(n: Num) -> String {
    match n {
        Num::I(i) => i.to_string(),
        Num::F(f) => java_double(f),
    }
}
