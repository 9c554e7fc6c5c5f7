//! `query_string`, `simple_query_string` and URI `q`: the parsed syntax turned into a
//! per-index query tree ([`Node`]) shaped like the Lucene query ES 6.8 builds, then run.
//!
//! The shapes follow ES 6.8's `QueryStringQueryParser` / `SimpleQueryStringQueryParser`
//! and `MultiMatchQuery`:
//!
//! - field-less text goes to `fields` (patterns and boosts; a field named by several
//!   entries gets the product of their boosts) or `default_field`; `*` means every mapped
//!   field and makes the query lenient;
//! - text over one field is that field's `match`-style query (analyzed with its search
//!   analyzer, terms combined with `default_operator`), wrapped in the field boost; over
//!   several fields one query per field combined by dis_max (tie breaker 0, or 1.0 for
//!   `most_fields`), or blended terms per analyzer group (`cross_fields`), or phrases;
//! - runs of bare terms are analyzed together (Lucene 7 does not split on whitespace) and
//!   their boolean clauses join the enclosing clause list;
//! - wildcards, prefixes, regexps, fuzzy terms and ranges are normalized per field (text
//!   fields lowercase them), combined by dis_max over the fields;
//! - `minimum_should_match` applies to the top-level boolean query only.

use super::context::{Executor, Resolved};
use super::highlight_terms::HighlightTerms;
use super::weight::{BoolWeight, ConstExplain, Weight};
use crate::analysis::{Analyzer, Normalizer};
use crate::error::{Error, Exception, Result};
use crate::index::DocSet;
use crate::mapping::{simple_match, FieldMapping, FieldType};
use crate::query::query_string::{default_occur, Occur, QsNode};
use crate::query::simple_query_string::SNode;
use crate::query::{
    MatchQuery, MinimumShouldMatch, MultiMatchType, Query, QueryStringQuery, QueryText, RangeQuery, Scalar,
};

/// ES's `indices.query.bool.max_clause_count`, which also bounds field expansion.
const MAX_FIELDS: usize = 1024;

/// A query_string query after parsing and field resolution for one index: the Lucene
/// query structure ES would run, with engine queries at the leaves.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// An engine query; `lenient` turns its failures (unparsable numbers, bad patterns)
    /// into "no match", as ES's lenient field queries do.
    Leaf {
        /// The query.
        query: Query,
        /// Whether errors mean no match.
        lenient: bool,
    },
    /// A boolean query: clauses, `minimum_should_match` (0 = Lucene's default) and boost.
    Bool {
        /// The clauses and how they occur.
        clauses: Vec<(Occur, Node)>,
        /// Required number of matching optional clauses.
        msm: usize,
        /// Boost passed to the clauses.
        boost: f32,
    },
    /// Lucene's `DisjunctionMaxQuery`.
    DisMax {
        /// The disjuncts.
        subs: Vec<Node>,
        /// `tie_breaker`.
        tie: f32,
    },
    /// Lucene's `BoostQuery`.
    Boost(Box<Node>, f32),
    /// One analyzed term blended across fields that share an analyzer (cross_fields):
    /// Lucene's `BlendedTermQuery` with dis_max combination.
    Blend {
        /// The fields and their boosts.
        fields: Vec<(String, f32)>,
        /// The analyzed term.
        term: String,
        /// `tie_breaker` between the fields.
        tie: f32,
        /// Whether unparsable values for points-only fields mean no match.
        lenient: bool,
    },
}

fn leaf(query: Query, lenient: bool) -> Node {
    Node::Leaf { query, lenient }
}

fn none() -> Node {
    leaf(Query::MatchNone, false)
}

/// What converting one piece of syntax gives: a plain boolean query (whose clauses a
/// run of bare terms adds to the enclosing clause list, Lucene's `addMultiTermClauses`)
/// or any other query.
enum Built {
    Clauses(Vec<(Occur, Node)>),
    One(Box<Node>),
}

impl Built {
    fn one(n: Node) -> Built {
        Built::One(Box::new(n))
    }

    fn node(self) -> Node {
        match self {
            Built::Clauses(clauses) => Node::Bool { clauses, msm: 0, boost: 1.0 },
            Built::One(n) => *n,
        }
    }
}

/// Compiles a query_string / simple_query_string query.
pub fn compile<'a>(ex: &Executor<'a>, q: &QueryStringQuery, boost: f32, scoring: bool) -> Result<Weight<'a>> {
    let node = build(ex, q)?;
    // Lucene's string of it is, in an explanation, the text as written.
    ex.printed(compile_node(ex, &node, boost * q.boost, scoring), || q.query.clone())
}

/// Builds the per-index query tree of a query_string or simple_query_string query
/// (without the query's own `boost`).
pub fn build(ex: &Executor<'_>, q: &QueryStringQuery) -> Result<Node> {
    let conv = Conv::new(ex, q)?;
    let node = match &q.parsed {
        QueryText::Simple(tree) => {
            let node = conv.simple_node(tree)?;
            super::clauses::check(ex, widest(&node))?;
            node
        }
        QueryText::Lucene(Ok(tree)) => {
            let node = conv.top(tree)?;
            super::clauses::check_query_string(ex, widest(&node), &q.query)?;
            node
        }
        // ES: an empty query string is the zero-terms query.
        QueryText::Empty => return Ok(none()),
        // ES parses the text on each shard, so a syntax error fails every shard.
        QueryText::Lucene(Err(e)) => {
            return Err(shard_failure(
                ex,
                Exception::new("query_shard_exception", format!("Failed to parse query [{}]", q.query))
                    .with_meta("index_uuid", ex.reader.meta.uuid.as_str())
                    .with_meta("index", ex.reader.meta.name.as_str())
                    .caused_by(Exception::new("parse_exception", e.message.clone())),
            ))
        }
        QueryText::Unparsed => return Err(Error::illegal_argument("query_string text was not parsed")),
    };
    Ok(apply_msm(node, q.minimum_should_match.as_ref()))
}

/// A failure while building the query on the shard: ES reports every shard failing.
fn shard_failure(ex: &Executor<'_>, cause: Exception) -> Error {
    let status = 400;
    Error::all_shards_failed(status, Some(&ex.reader.meta.name), cause)
}

/// `Queries.maybeApplyMinimumShouldMatch` on the top-level query (under its boosts).
fn apply_msm(node: Node, msm: Option<&MinimumShouldMatch>) -> Node {
    let Some(spec) = msm else { return node };
    match node {
        Node::Boost(inner, b) => Node::Boost(Box::new(apply_msm(*inner, Some(spec))), b),
        Node::Bool { clauses, msm: _, boost } => {
            let optional = clauses.iter().filter(|(o, _)| *o == Occur::Should).count();
            let n = spec.resolve(optional);
            Node::Bool { clauses, msm: n, boost }
        }
        other => other,
    }
}

/// Compiles a query tree; `boost` is the product of the enclosing boosts.
pub fn compile_node<'a>(ex: &Executor<'a>, node: &Node, boost: f32, scoring: bool) -> Result<Weight<'a>> {
    match node {
        Node::Leaf { query, lenient } => match ex.compile(query, boost, scoring) {
            Ok(w) => Ok(w),
            Err(_) if *lenient => Ok(Weight::none()),
            Err(e) => Err(e),
        },
        Node::Boost(inner, b) => compile_node(ex, inner, boost * b, scoring),
        Node::DisMax { subs, tie } => {
            let subs = subs.iter().map(|s| compile_node(ex, s, boost, scoring)).collect::<Result<Vec<_>>>()?;
            Ok(Weight::dis_max(subs, *tie))
        }
        Node::Bool { clauses, msm, boost: b } => {
            let boost = boost * b;
            // Lucene rewrites a one-clause boolean to its clause.
            if let [(occur, c)] = clauses.as_slice() {
                if (*occur == Occur::Must && *msm == 0) || (*occur == Occur::Should && *msm <= 1) {
                    return compile_node(ex, c, boost, scoring);
                }
            }
            let mut must = Vec::new();
            let mut should = Vec::new();
            let mut must_not = DocSet::new();
            for (occur, c) in clauses {
                match occur {
                    Occur::Must => must.push(compile_node(ex, c, boost, scoring)?),
                    Occur::Should => should.push(compile_node(ex, c, boost, scoring)?),
                    Occur::MustNot => must_not.or_with(&compile_node(ex, c, 1.0, false)?.docset()?),
                }
            }
            // What the required and optional clauses highlight, whatever the boolean becomes.
            let mut terms = HighlightTerms::default();
            if ex.highlight {
                must.iter().chain(&should).for_each(|w| w.highlights(&mut terms));
            }
            if clauses.is_empty() {
                return Ok(Weight::none());
            }
            if must.is_empty() && should.is_empty() {
                // Queries.fixNegativeQueryIfNeeded: a purely negative query matches all else.
                let mut docs = DocSet::full(ex.reader.max_doc());
                docs.sub_with(&must_not);
                return Ok(Weight::constant(docs, boost).described(ex.explain, || ConstExplain::NegativeBool));
            }
            let min_should_match = if must.is_empty() { (*msm).max(1) } else { *msm };
            let w = Weight::boolean(BoolWeight {
                must,
                filter: None,
                should,
                must_not,
                min_should_match,
                filter_clauses: Vec::new(),
            });
            ex.noted(Ok(w), || terms)
        }
        Node::Blend { fields, term, tie, lenient } => blended_term(ex, fields, term, *tie, boost, *lenient),
    }
}

/// How cross_fields groups fields: by the search analyzer they share.
#[derive(Debug, Clone, PartialEq)]
enum GroupKey {
    /// A tokenizing analyzer (text fields; numbers and dates use the index default).
    Analyzer(Analyzer),
    /// A keyword normalizer: the text as one normalized term.
    Normalizer(Normalizer),
    /// Lucene's keyword analyzer (plain keywords, booleans, `_id`): the text as one term.
    Keyword,
}

/// The conversion context of one query on one index.
struct Conv<'e, 'a> {
    ex: &'e Executor<'a>,
    q: &'e QueryStringQuery,
    /// Fields (with boosts) that field-less syntax targets.
    defaults: Vec<(String, f32)>,
    /// Whether the default field is the all-fields pattern `*`.
    default_all: bool,
    /// Lucene's default field (`this.field`): `default_field`, `*`, or none with `fields`.
    default_field: Option<String>,
    lenient: bool,
    forced: Option<Analyzer>,
}

impl<'e, 'a> Conv<'e, 'a> {
    fn new(ex: &'e Executor<'a>, q: &'e QueryStringQuery) -> Result<Conv<'e, 'a>> {
        let name = if q.simple { "simple_query_string" } else { "query_string" };
        let forced = match q.analyzer.as_deref() {
            None => None,
            Some(a) => Some(ex.reader.meta.mapping.analysis.field_analyzer(a).map_err(|_| {
                shard_failure(
                    ex,
                    Exception::new("query_shard_exception", format!("[{name}] analyzer [{a}] not found"))
                        .with_meta("index_uuid", ex.reader.meta.uuid.as_str())
                        .with_meta("index", ex.reader.meta.name.as_str()),
                )
            })?),
        };
        let mut conv =
            Conv { ex, q, defaults: Vec::new(), default_all: false, default_field: None, lenient: q.lenient, forced };
        // ES: `default_field` wins over `fields`.
        if !q.fields.is_empty() && (q.simple || q.default_field.is_none()) {
            let mut out = Vec::new();
            for (f, b) in &q.fields {
                conv.resolve_into(f, *b, &mut out);
            }
            conv.default_all = q.fields.iter().any(|(f, _)| f == "*");
            conv.lenient |= conv.default_all;
            conv.defaults = out;
        } else {
            let df = if q.simple { "*".to_string() } else { q.default_field.clone().unwrap_or_else(|| "*".into()) };
            conv.default_all = df == "*";
            conv.lenient |= conv.default_all;
            let mut out = Vec::new();
            conv.resolve_into(&df, 1.0, &mut out);
            conv.defaults = out;
            conv.default_field = Some(df);
        }
        conv.check_fields(&conv.defaults)?;
        Ok(conv)
    }

    fn check_fields(&self, fields: &[(String, f32)]) -> Result<()> {
        if fields.len() > MAX_FIELDS {
            return Err(Error::illegal_argument(format!(
                "field expansion matches too many fields, limit: {MAX_FIELDS}, got: {}",
                fields.len()
            )));
        }
        Ok(())
    }

    /// `QueryParserHelper.resolveMappingField`: a pattern expands to the mapped fields it
    /// matches, a plain name stands for itself (mapped or not); boosts multiply.
    fn resolve_into(&self, pattern: &str, weight: f32, out: &mut Vec<(String, f32)>) {
        let mut add = |name: &str| match out.iter_mut().find(|(f, _)| f == name) {
            Some(e) => e.1 *= weight,
            None => out.push((name.to_string(), weight)),
        };
        if pattern.contains('*') {
            for p in self.ex.reader.meta.mapping.field_paths() {
                if simple_match(pattern, p) {
                    add(p);
                }
            }
        } else {
            add(pattern);
        }
    }

    /// `extractMultiFields`: the fields a piece of syntax with `field` (or none) targets.
    fn fields_for(&self, field: Option<&str>) -> Result<Vec<(String, f32)>> {
        match field {
            None => Ok(self.defaults.clone()),
            Some("*") if self.default_all => Ok(self.defaults.clone()),
            Some(f) => {
                let mut out = Vec::new();
                self.resolve_into(f, 1.0, &mut out);
                self.check_fields(&out)?;
                Ok(out)
            }
        }
    }

    fn mapping(&self, field: &str) -> Option<&'a FieldMapping> {
        match self.ex.resolve(field) {
            Resolved::Field(fm) => Some(fm),
            _ => None,
        }
    }

    fn is_mapped(&self, field: &str) -> bool {
        !matches!(self.ex.resolve(field), Resolved::Unmapped)
    }

    /// The analyzer text in `field` is analyzed with (the forced one, else the field's).
    fn analyzer(&self, fm: &FieldMapping) -> Analyzer {
        self.forced.clone().unwrap_or_else(|| fm.search_analyzer.clone())
    }

    /// `Analyzer.normalize` of a field: what text fields do to multi-term query text
    /// (lowercasing, for the lowercasing analyzers); keywords are normalized when run.
    /// Text the analyzer cannot normalize (see `Analysis::normalize`) stays as written.
    fn normalize(&self, field: &str, text: &str) -> String {
        match self.mapping(field) {
            Some(fm) if fm.ftype == FieldType::Text => {
                self.analyzer(fm).normalize(text).unwrap_or_else(|_| text.to_string())
            }
            _ => text.to_string(),
        }
    }

    /// Like [`Conv::normalize`] for a wildcard pattern: escaped characters and the
    /// wildcards stay as they are.
    fn normalize_wildcard(&self, field: &str, pattern: &str) -> String {
        match self.mapping(field) {
            Some(fm) if fm.ftype == FieldType::Text => {
                self.analyzer(fm).normalize_wildcard(pattern).unwrap_or_else(|_| pattern.to_string())
            }
            _ => pattern.to_string(),
        }
    }

    /// A `match` of `text` on `field` with the query's analyzer and default operator,
    /// for text its analyzer does not turn into term queries alone: the match query
    /// builds the SynonymQueries of stacked terms, or reports why it cannot.
    fn refused_match(&self, field: &str, text: &str) -> Node {
        let mut m = MatchQuery::new(field.to_string(), text.to_string());
        m.analyzer = self.q.analyzer.clone();
        m.operator = self.q.default_operator;
        leaf(Query::Match(m), false)
    }

    /// For text whose analysis these builders cannot use (stacked terms in a
    /// cross-field blend or an analyzed prefix, token graphs): a `match` that analyses it
    /// the same refusing way (a fuzzy match takes no stacked terms) and so reports why
    /// when it runs.
    fn refusal(&self, field: &str, text: &str) -> Node {
        let mut m = MatchQuery::new(field.to_string(), text.to_string());
        m.analyzer = self.q.analyzer.clone();
        m.fuzziness = Some("0".to_string());
        leaf(Query::Match(m), false)
    }

    fn occur(&self) -> Occur {
        default_occur(self.q.default_operator)
    }

    /// The dis_max tie breaker for per-field queries of the query's `type`.
    fn type_tie(&self) -> f32 {
        self.q.tie_breaker.unwrap_or(if self.q.kind == MultiMatchType::MostFields { 1.0 } else { 0.0 })
    }

    /// The match-style query of `text` on one field (Lucene's `QueryBuilder` boolean
    /// query: one term query per token, the default operator), with the field's boost.
    fn match_field(&self, field: &str, text: &str, boost: f32) -> Built {
        let built = match self.ex.resolve(field) {
            Resolved::Unmapped => return Built::one(none()),
            Resolved::Field(fm) if fm.ftype == FieldType::Text => {
                let Ok(tokens) = self.analyzer(fm).analyze_query(text, false) else {
                    // The match query reports why the text cannot be queried.
                    return Built::one(self.refused_match(field, text));
                };
                let term = |t: &str| {
                    leaf(
                        Query::Term { field: field.to_string(), value: Scalar::Text(t.to_string()), boost: 1.0 },
                        false,
                    )
                };
                match tokens.len() {
                    0 => return Built::one(none()),
                    1 => Built::one(term(&tokens[0].text)),
                    _ => Built::Clauses(tokens.iter().map(|t| (self.occur(), term(&t.text))).collect()),
                }
            }
            _ => {
                let mut m = MatchQuery::new(field.to_string(), text.to_string());
                m.lenient = self.lenient;
                Built::one(leaf(Query::Match(m), self.lenient))
            }
        };
        if boost == 1.0 {
            built
        } else {
            Built::one(Node::Boost(Box::new(built.node()), boost))
        }
    }

    /// A phrase (or phrase prefix) on one field; other field types take a term query.
    fn phrase_field(&self, field: &str, text: &str, slop: u32, prefix: bool, boost: f32) -> Node {
        match self.ex.resolve(field) {
            Resolved::Unmapped => none(),
            Resolved::Field(fm) if fm.ftype == FieldType::Text || (prefix && fm.ftype == FieldType::Keyword) => leaf(
                Query::MatchPhrase {
                    field: field.to_string(),
                    text: text.to_string(),
                    slop,
                    analyzer: self.q.analyzer.clone(),
                    prefix,
                    max_expansions: 50,
                    boost,
                },
                self.lenient,
            ),
            _ => {
                let mut m = MatchQuery::new(field.to_string(), text.to_string());
                m.lenient = self.lenient;
                m.boost = boost;
                leaf(Query::Match(m), self.lenient)
            }
        }
    }

    /// `MultiMatchQuery.parse(type, fields, text)`.
    fn text_query(&self, fields: &[(String, f32)], text: &str, kind: MultiMatchType, slop: u32, tie: f32) -> Built {
        if fields.is_empty() {
            return Built::one(none());
        }
        let one = |f: &str, b: f32| -> Built {
            match kind {
                MultiMatchType::Phrase | MultiMatchType::PhrasePrefix => {
                    Built::one(self.phrase_field(f, text, slop, kind == MultiMatchType::PhrasePrefix, b))
                }
                _ => self.match_field(f, text, b),
            }
        };
        if fields.len() == 1 {
            return one(&fields[0].0, fields[0].1);
        }
        if kind == MultiMatchType::CrossFields {
            return self.cross_fields(fields, text, tie);
        }
        // Unmapped fields are left out (ES's `parseGroup` returns nothing for them).
        let mut subs: Vec<Built> = fields.iter().filter(|(f, _)| self.is_mapped(f)).map(|(f, b)| one(f, *b)).collect();
        match subs.len() {
            0 => Built::one(none()),
            1 => subs.pop().unwrap_or(Built::one(none())),
            _ => Built::one(Node::DisMax { subs: subs.into_iter().map(Built::node).collect(), tie }),
        }
    }

    fn group_key(&self, field: &str) -> GroupKey {
        if let Some(a) = &self.forced {
            return GroupKey::Analyzer(a.clone());
        }
        match self.mapping(field) {
            Some(fm) => match fm.ftype {
                FieldType::Text => GroupKey::Analyzer(fm.search_analyzer.clone()),
                FieldType::Keyword => match &fm.normalizer {
                    Some(n) => GroupKey::Normalizer(n.clone()),
                    None => GroupKey::Keyword,
                },
                FieldType::Boolean => GroupKey::Keyword,
                // Points-only fields have no analyzer of their own: ES uses the default.
                _ => GroupKey::Analyzer(Analyzer::index_default()),
            },
            None => GroupKey::Keyword,
        }
    }

    /// cross_fields: fields grouped by analyzer; every term of the text is blended across
    /// a group's fields (a group of one field runs plain term queries, without the field's
    /// boost, as ES 6.8 does); groups (and a no-match per unmapped field) are combined by
    /// dis_max.
    fn cross_fields(&self, fields: &[(String, f32)], text: &str, tie: f32) -> Built {
        let mut groups: Vec<(GroupKey, Vec<(String, f32)>)> = Vec::new();
        let mut parts: Vec<Built> = Vec::new();
        for (f, b) in fields {
            if !self.is_mapped(f) {
                parts.push(Built::one(none()));
                continue;
            }
            let key = self.group_key(f);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, v)) => v.push((f.clone(), *b)),
                None => groups.push((key, vec![(f.clone(), *b)])),
            }
        }
        for (key, gfields) in &groups {
            let tokens: Vec<String> = match key {
                GroupKey::Analyzer(a) => match a.analyze_query(text, false) {
                    Ok(tokens) => tokens.into_iter().map(|t| t.text).collect(),
                    Err(_) => {
                        parts.push(Built::one(self.refusal(&gfields[0].0, text)));
                        continue;
                    }
                },
                GroupKey::Normalizer(n) => vec![n.normalize(text).unwrap_or_else(|_| text.to_string())],
                GroupKey::Keyword => vec![text.to_string()],
            };
            let per_term = |t: &str| -> Node {
                if gfields.len() > 1 {
                    return Node::Blend { fields: gfields.clone(), term: t.to_string(), tie, lenient: self.lenient };
                }
                let f = &gfields[0].0;
                match self.mapping(f) {
                    Some(fm) if fm.ftype == FieldType::Text => {
                        leaf(Query::Term { field: f.clone(), value: Scalar::Text(t.to_string()), boost: 1.0 }, false)
                    }
                    _ => {
                        let mut m = MatchQuery::new(f.clone(), t.to_string());
                        m.lenient = self.lenient;
                        leaf(Query::Match(m), self.lenient)
                    }
                }
            };
            parts.push(match tokens.len() {
                0 => Built::one(none()),
                1 => Built::one(per_term(&tokens[0])),
                _ => Built::Clauses(tokens.iter().map(|t| (self.occur(), per_term(t))).collect()),
            });
        }
        match parts.len() {
            0 => Built::one(none()),
            1 => parts.pop().unwrap_or(Built::one(none())),
            _ => Built::one(Node::DisMax { subs: parts.into_iter().map(Built::node).collect(), tie }),
        }
    }

    /// One query per field (built by `make`, `None` for unmapped fields), field boosts
    /// applied, combined by dis_max with the type's tie breaker.
    fn per_field(&self, fields: &[(String, f32)], make: impl Fn(&str) -> Result<Node>) -> Result<Node> {
        self.disjunction(fields, self.type_tie(), make)
    }

    /// One query per field, boosted by the field's boost, combined by dis_max with `tie`.
    fn disjunction(&self, fields: &[(String, f32)], tie: f32, make: impl Fn(&str) -> Result<Node>) -> Result<Node> {
        let mut subs: Vec<Node> = Vec::with_capacity(fields.len());
        for (f, b) in fields {
            let n = if self.is_mapped(f) { make(f)? } else { none() };
            subs.push(if *b == 1.0 { n } else { Node::Boost(Box::new(n), *b) });
        }
        Ok(match subs.len() {
            0 => none(),
            1 => subs.pop().unwrap_or_else(none),
            _ => Node::DisMax { subs, tie },
        })
    }

    fn boosted(node: Node, boost: Option<f32>) -> Node {
        match boost {
            Some(b) => Node::Boost(Box::new(node), b),
            None => node,
        }
    }

    /// The top-level query.
    fn top(&self, tree: &QsNode) -> Result<Node> {
        Ok(match tree {
            QsNode::Term { field, text, boost: None } => self.term(field.as_deref(), text)?.node(),
            other => self.node(other)?,
        })
    }

    fn term(&self, field: Option<&str>, text: &str) -> Result<Built> {
        let fields = self.fields_for(field)?;
        Ok(self.text_query(&fields, text, self.q.kind, self.q.phrase_slop, self.type_tie()))
    }

    /// Converts one node of the syntax tree.
    fn node(&self, n: &QsNode) -> Result<Node> {
        Ok(match n {
            QsNode::MatchAll { boost } => Self::boosted(leaf(Query::match_all(), false), *boost),
            QsNode::Exists { field, boost } => {
                Self::boosted(leaf(Query::Exists { field: field.clone(), boost: 1.0 }, false), *boost)
            }
            QsNode::Term { field, text, boost } => Self::boosted(self.term(field.as_deref(), text)?.node(), *boost),
            QsNode::Phrase { field, text, slop, boost } => {
                let fields = self.fields_for(field.as_deref())?;
                let slop = slop.unwrap_or(self.q.phrase_slop);
                let kind = if self.q.kind == MultiMatchType::PhrasePrefix {
                    MultiMatchType::PhrasePrefix
                } else {
                    MultiMatchType::Phrase
                };
                let node = self.text_query(&fields, text, kind, slop, self.q.tie_breaker.unwrap_or(0.0)).node();
                Self::boosted(node, *boost)
            }
            QsNode::Fuzzy { field, text, fuzziness, boost } => {
                let fields = self.fields_for(field.as_deref())?;
                let edits = self.fuzzy_edits(text, fuzziness)?;
                let node = self.per_field(&fields, |f| {
                    Ok(match edits {
                        Some(e) => leaf(
                            Query::Fuzzy {
                                field: f.to_string(),
                                value: self.normalize(f, text),
                                fuzziness: e.to_string(),
                                prefix_length: 0,
                                max_expansions: 50,
                                transpositions: true,
                                boost: 1.0,
                            },
                            self.lenient,
                        ),
                        None => none(),
                    })
                })?;
                Self::boosted(node, *boost)
            }
            QsNode::Wildcard { field, pattern, boost } => {
                let fields = self.fields_for(field.as_deref())?;
                let node = self.per_field(&fields, |f| self.wildcard_field(f, pattern))?;
                Self::boosted(node, *boost)
            }
            QsNode::Regexp { field, pattern, boost } => {
                let fields = self.fields_for(field.as_deref())?;
                let node = self.per_field(&fields, |f| {
                    Ok(match self.mapping(f) {
                        Some(fm) if fm.ftype.is_numeric_like() => none(),
                        _ => leaf(
                            Query::Regexp {
                                field: f.to_string(),
                                pattern: self.normalize(f, pattern),
                                max_determinized_states: 10_000,
                                limit_length: false,
                                boost: 1.0,
                            },
                            self.lenient,
                        ),
                    })
                })?;
                Self::boosted(node, *boost)
            }
            QsNode::Range { field, lower, upper, include_lower, include_upper, boost } => {
                let fields = self.fields_for(field.as_deref())?;
                let node = self.per_field(&fields, |f| {
                    let bound =
                        |v: &Option<String>, incl: bool| v.as_ref().map(|s| (Scalar::Text(self.normalize(f, s)), incl));
                    Ok(leaf(
                        Query::Range(RangeQuery {
                            field: f.to_string(),
                            lower: bound(lower, *include_lower),
                            upper: bound(upper, *include_upper),
                            format: None,
                            time_zone: None,
                            relation: None,
                            boost: 1.0,
                        }),
                        self.lenient,
                    ))
                })?;
                Self::boosted(node, *boost)
            }
            QsNode::Bool { clauses, boost } => {
                let mut out: Vec<(Occur, Node)> = Vec::with_capacity(clauses.len());
                for (occur, c) in clauses {
                    match c {
                        // A run of bare terms: its boolean clauses join this clause list.
                        QsNode::Term { field, text, boost: None } if text.contains(char::is_whitespace) => {
                            match self.term(field.as_deref(), text)? {
                                Built::Clauses(cs) => out.extend(cs.into_iter().map(|(_, n)| (*occur, n))),
                                Built::One(n) => out.push((*occur, *n)),
                            }
                        }
                        other => out.push((*occur, self.node(other)?)),
                    }
                }
                Node::Bool { clauses: out, msm: 0, boost: boost.unwrap_or(1.0) }
            }
        })
    }

    /// Edits of a `term~N` / `term~`: `~` alone uses `fuzziness` (default AUTO) on the
    /// term's length; a number is truncated to an int and must be 0, 1 or 2.
    fn fuzzy_edits(&self, text: &str, raw: &str) -> Result<Option<u32>> {
        if raw.is_empty() {
            let f = self.q.fuzziness.clone().unwrap_or_else(|| "AUTO".into());
            return super::edits::max_edits(&f, text.chars().count()).map(Some);
        }
        let v: f32 = raw.parse().unwrap_or(0.0);
        let edits = v.max(0.0) as u32;
        if edits > 2 {
            if self.lenient {
                return Ok(None);
            }
            return Err(shard_failure(
                self.ex,
                Exception::new(
                    "illegal_argument_exception",
                    format!("Valid edit distances are [0, 1, 2] but was [{edits}]"),
                ),
            ));
        }
        Ok(Some(edits))
    }

    /// A wildcard term on one field: a single trailing `*` is Lucene's prefix query.
    fn wildcard_field(&self, field: &str, pattern: &str) -> Result<Node> {
        let fm = self.mapping(field);
        if let Some(body) = prefix_body(pattern) {
            if let Some(fm) = fm {
                if fm.ftype.is_numeric_like() {
                    // ES: prefix queries only run on keyword and text fields.
                    if self.lenient {
                        return Ok(none());
                    }
                    return Err(shard_failure(
                        self.ex,
                        Exception::new(
                            "query_shard_exception",
                            format!(
                                "Can only use prefix queries on keyword and text fields - not on [{field}] which is of type [{}]",
                                fm.ftype.name()
                            ),
                        )
                        .with_meta("index_uuid", self.ex.reader.meta.uuid.as_str())
                        .with_meta("index", self.ex.reader.meta.name.as_str()),
                    ));
                }
                if fm.ftype == FieldType::Text && self.q.analyze_wildcard {
                    return Ok(self.analyzed_prefix(fm, &body));
                }
            }
            return Ok(leaf(
                Query::Prefix { field: field.to_string(), value: self.normalize(field, &body), boost: 1.0 },
                self.lenient,
            ));
        }
        if fm.map(|f| f.ftype.is_numeric_like()).unwrap_or(false) {
            // A wildcard over a points-only field finds no terms.
            return Ok(none());
        }
        Ok(leaf(
            Query::Wildcard { field: field.to_string(), pattern: self.normalize_wildcard(field, pattern), boost: 1.0 },
            self.lenient,
        ))
    }

    /// `analyze_wildcard` prefixes: the text analyzed, term queries for all positions
    /// but the last, a prefix query on the last (default operator between them).
    fn analyzed_prefix(&self, fm: &FieldMapping, body: &str) -> Node {
        let Ok(tokens) = self.analyzer(fm).analyze_query(body, false) else {
            return self.refusal(&fm.path, body);
        };
        let prefix = |t: &str| leaf(Query::Prefix { field: fm.path.clone(), value: t.to_string(), boost: 1.0 }, false);
        match tokens.len() {
            0 => none(),
            1 => prefix(&tokens[0].text),
            n => {
                let clauses = tokens
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let q = if i + 1 == n {
                            prefix(&t.text)
                        } else {
                            leaf(
                                Query::Term { field: fm.path.clone(), value: Scalar::Text(t.text.clone()), boost: 1.0 },
                                false,
                            )
                        };
                        (self.occur(), q)
                    })
                    .collect();
                Node::Bool { clauses, msm: 0, boost: 1.0 }
            }
        }
    }

    /// simple_query_string: a node of its syntax tree.
    fn simple_node(&self, n: &SNode) -> Result<Node> {
        let fields = &self.defaults;
        Ok(match n {
            SNode::MatchAll => leaf(Query::match_all(), false),
            SNode::MatchNone => none(),
            SNode::Bool(clauses) => Node::Bool {
                clauses: clauses.iter().map(|(o, c)| Ok((*o, self.simple_node(c)?))).collect::<Result<Vec<_>>>()?,
                msm: 0,
                boost: 1.0,
            },
            SNode::Text(text) => self.text_query(fields, text, MultiMatchType::MostFields, 0, 1.0).node(),
            SNode::Phrase(text, slop) => self.text_query(fields, text, MultiMatchType::Phrase, *slop, 0.0).node(),
            SNode::Fuzzy(text, edits) => self.disjunction(fields, 1.0, |f| {
                Ok(leaf(
                    Query::Fuzzy {
                        field: f.to_string(),
                        value: self.normalize(f, text),
                        fuzziness: edits.to_string(),
                        prefix_length: 0,
                        max_expansions: 50,
                        transpositions: true,
                        boost: 1.0,
                    },
                    self.lenient,
                ))
            })?,
            SNode::Prefix(text) => {
                self.disjunction(fields, 1.0, |f| self.wildcard_field(f, &format!("{}*", escape_wildcards(text))))?
            }
        })
    }
}

/// The literal body of a pattern whose only wildcard is one trailing unescaped `*`
/// (Lucene's PREFIXTERM), unescaped.
fn prefix_body(pattern: &str) -> Option<String> {
    let body = pattern.strip_suffix('*')?;
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            '*' | '?' => return None,
            c => out.push(c),
        }
    }
    if out.is_empty() {
        return None;
    }
    Some(out)
}

/// Escapes `*`, `?` and `\` so text can be used as a literal wildcard pattern.
fn escape_wildcards(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '*' | '?' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The exact indexed term a term query looks up in an inverted field (`None` for
/// points-only fields, which run their own query).
fn indexed_term(fm: &FieldMapping, token: &str) -> Option<String> {
    match fm.ftype {
        FieldType::Text => Some(token.to_string()),
        FieldType::Keyword => Some(fm.keyword_term(token).unwrap_or_else(|_| token.to_string())),
        FieldType::Boolean => Some(
            match token {
                "true" => "T",
                "false" | "" => "F",
                // Not a boolean: no term of the field can match.
                _ => "",
            }
            .to_string(),
        ),
        _ => None,
    }
}

/// Lucene's `BlendedTermQuery.blend`: one term's document frequencies across fields made
/// comparable. The most frequent field keeps the largest frequency (capped by `max_doc`,
/// itself capped by the smallest field's total term count when every field has
/// frequencies); each field whose frequency is strictly below the previous one (in
/// descending order) gets one more, a small bias towards the popular fields.
pub fn blend_doc_freqs(dfs: &[u64], max_doc: u64, min_sum_ttf: Option<u64>) -> Vec<u64> {
    if dfs.len() <= 1 {
        return dfs.to_vec();
    }
    let max = dfs.iter().copied().max().unwrap_or(0);
    if max == 0 {
        return dfs.to_vec();
    }
    let max_doc = match min_sum_ttf {
        Some(t) if max_doc > t => t,
        _ => max_doc,
    };
    // A stable sort by document frequency, descending (Lucene's InPlaceMergeSorter).
    let mut order: Vec<usize> = (0..dfs.len()).collect();
    order.sort_by(|a, b| dfs[*b].cmp(&dfs[*a]));
    let mut out = dfs.to_vec();
    let mut prev = dfs[order[0]];
    let mut actual = max_doc.min(max);
    for i in order {
        let current = dfs[i];
        if current == 0 {
            break;
        }
        if prev > current {
            actual += 1;
        }
        out[i] = max_doc.min(actual);
        prev = current;
    }
    out
}

/// The blended statistics of one term over fields: per field the indexed term, its
/// postings (if present) and the blended document frequency; plus the points-only fields.
struct BlendStats {
    /// (field, indexed term, boost, postings if the term exists, blended document frequency).
    inverted: Vec<(String, String, f32, Option<crate::index::Postings>, u64)>,
    /// Points-only fields (numbers, dates) with their boosts.
    points: Vec<(String, f32)>,
}

/// Computes the blended statistics of `term` over `fields`.
fn blend_stats(ex: &Executor<'_>, fields: &[(String, f32)], term: &str) -> Result<BlendStats> {
    let mut inverted = Vec::new();
    let mut points = Vec::new();
    let mut dfs = Vec::new();
    let mut min_sum_ttf: Option<u64> = Some(u64::MAX);
    for (f, b) in fields {
        let Resolved::Field(fm) = ex.resolve(f) else { continue };
        let Some(t) = indexed_term(fm, term) else {
            points.push((f.clone(), *b));
            continue;
        };
        let p = match ex.reader.term_addr(ex.snap, &fm.path, &t)? {
            Some(addr) => Some(ex.reader.postings(ex.snap, &fm.path, addr)?),
            None => None,
        };
        dfs.push(p.as_ref().map(|p| p.docs.len()).unwrap_or(0));
        // Fields without frequencies (keywords) make Lucene skip the max_doc cap.
        min_sum_ttf = match (min_sum_ttf, fm.ftype == FieldType::Text) {
            (Some(m), true) => Some(m.min(ex.reader.field_stats(&fm.path).map(|s| s.sum_total_term_freq).unwrap_or(0))),
            _ => None,
        };
        inverted.push((f.clone(), t, *b, p, 0));
    }
    let blended = blend_doc_freqs(&dfs, ex.reader.max_doc() as u64, min_sum_ttf);
    for (i, e) in inverted.iter_mut().enumerate() {
        e.4 = blended[i];
    }
    Ok(BlendStats { inverted, points })
}

/// A blended term: per-field BM25 with blended document frequencies and field boosts,
/// combined by dis_max; points-only fields run their own term query beside it, and then
/// everything is combined by a dis_max with tie breaker 1 (ES's `blendTerms`). It
/// highlights the term on every field, as each field indexes it whole.
pub(crate) fn blended_term<'a>(
    ex: &Executor<'a>,
    fields: &[(String, f32)],
    term: &str,
    tie: f32,
    boost: f32,
    lenient: bool,
) -> Result<Weight<'a>> {
    ex.noted(blend(ex, fields, term, tie, boost, lenient), || {
        let mut terms = HighlightTerms::default();
        for (f, _) in fields {
            terms.field(f).terms.push(ex.exact_term(f, term));
        }
        terms
    })
}

fn blend<'a>(
    ex: &Executor<'a>,
    fields: &[(String, f32)],
    term: &str,
    tie: f32,
    boost: f32,
    lenient: bool,
) -> Result<Weight<'a>> {
    let stats = blend_stats(ex, fields, term)?;
    let has_inverted = !stats.inverted.is_empty();
    let mut subs = Vec::new();
    for (f, t, b, p, df) in stats.inverted {
        let (Some(p), Resolved::Field(fm)) = (p, ex.resolve(&f)) else { continue };
        subs.push(ex.scored_postings(fm, &t, p, df, boost * b)?);
    }
    let mut all = Vec::new();
    if has_inverted {
        all.push(Weight::field_dis_max(subs, tie, ex.explain));
    }
    for (f, b) in &stats.points {
        match ex.term(f, &Scalar::Text(term.to_string()), boost * b, lenient) {
            Ok(w) => all.push(w),
            Err(_) if lenient => all.push(Weight::none()),
            Err(e) => return Err(e),
        }
    }
    Ok(Weight::dis_max(all, 1.0))
}

/// The clause count of the widest boolean query in a query_string tree.
pub fn widest(node: &Node) -> usize {
    match node {
        Node::Bool { clauses, .. } => clauses.iter().map(|(_, c)| widest(c)).fold(clauses.len(), usize::max),
        Node::DisMax { subs, .. } => subs.iter().map(widest).max().unwrap_or(0),
        Node::Boost(inner, _) => widest(inner),
        Node::Leaf { .. } | Node::Blend { .. } => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blending_biases_towards_popular_fields() {
        assert_eq!(blend_doc_freqs(&[3, 10, 3, 7], 100, None), vec![12, 10, 12, 11]);
        assert_eq!(blend_doc_freqs(&[5, 9], 100, Some(8)), vec![8, 8]);
        assert_eq!(blend_doc_freqs(&[0, 4], 100, None), vec![0, 4]);
        assert_eq!(blend_doc_freqs(&[4], 100, None), vec![4]);
    }

    #[test]
    fn prefix_bodies() {
        assert_eq!(prefix_body("abc*"), Some("abc".into()));
        assert_eq!(prefix_body("a\\*b*"), Some("a*b".into()));
        assert_eq!(prefix_body("a*b*"), None);
        assert_eq!(prefix_body("*"), None);
        assert_eq!(prefix_body("ab"), None);
    }
}
