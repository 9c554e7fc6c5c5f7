//! Queries: the index-independent tree parsed from the DSL (like ES query builders).
//! Field types, analysis and statistics are applied per index when the tree executes.

pub mod common;
pub mod dsl;
pub mod geo;
pub mod geo_shape;
pub mod more_like_this;
pub mod nested;
pub mod pattern;
pub mod query_string;
pub mod simple_query_string;
pub mod span;
pub mod terms_lookup;
pub mod terms_set;
pub mod wrapper;

use serde_json::Value;

/// `operator` of match-style queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operator {
    /// Any term may match.
    Or,
    /// Every term must match.
    And,
}

/// ES `minimum_should_match` in any accepted form.
#[derive(Debug, Clone, PartialEq)]
pub enum MinimumShouldMatch {
    /// The raw spec (`2`, `-1`, `75%`, `-25%`, `3<90%`, `2<-25% 9<-3`).
    Spec(String),
}

impl MinimumShouldMatch {
    /// How many of `optional` clauses must match (ES `Queries.calculateMinShouldMatch`).
    pub fn resolve(&self, optional: usize) -> usize {
        let MinimumShouldMatch::Spec(spec) = self;
        calculate_min_should_match(optional as i64, spec).max(0) as usize
    }
}

/// ES `Queries.calculateMinShouldMatch`.
fn calculate_min_should_match(option_clause_count: i64, spec: &str) -> i64 {
    let spec = spec.trim();
    if spec.contains('<') {
        // Conditional: "3<90%" or "2<-25% 9<-3": the last condition whose bound is below
        // the clause count applies.
        let mut result = option_clause_count;
        for part in spec.split_whitespace() {
            if let Some((upper, rest)) = part.split_once('<') {
                if let Ok(upper) = upper.trim().parse::<i64>() {
                    if upper < option_clause_count {
                        result = calculate_min_should_match(option_clause_count, rest);
                    } else {
                        break;
                    }
                }
            }
        }
        return result;
    }
    let result = if let Some(p) = spec.strip_suffix('%') {
        let pct: i64 = p.trim().parse().unwrap_or(0);
        let calc = (option_clause_count as f64 * pct as f64 / 100.0) as i64;
        if calc < 0 {
            option_clause_count + calc
        } else {
            calc
        }
    } else {
        let n: i64 = spec.parse().unwrap_or(0);
        if n < 0 {
            option_clause_count + n
        } else {
            n
        }
    };
    if option_clause_count < result {
        option_clause_count
    } else if result < 0 {
        0
    } else {
        result
    }
}

/// A boolean clause list.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BoolQuery {
    /// Scored, required.
    pub must: Vec<Query>,
    /// Unscored, required.
    pub filter: Vec<Query>,
    /// Scored, optional unless `minimum_should_match`.
    pub should: Vec<Query>,
    /// Excluded.
    pub must_not: Vec<Query>,
    /// `minimum_should_match`.
    pub minimum_should_match: Option<MinimumShouldMatch>,
    /// `boost`.
    pub boost: f32,
}

/// `multi_match` / `query_string` `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiMatchType {
    /// Max of per-field scores (+ tie_breaker * others).
    BestFields,
    /// Sum of per-field scores.
    MostFields,
    /// Terms blended across fields.
    CrossFields,
    /// Phrase per field.
    Phrase,
    /// Phrase prefix per field.
    PhrasePrefix,
}

/// A range bound value as given (string or number).
#[derive(Debug, Clone, PartialEq)]
pub struct RangeQuery {
    /// Field name.
    pub field: String,
    /// Lower bound and whether inclusive.
    pub lower: Option<(Scalar, bool)>,
    /// Upper bound and whether inclusive.
    pub upper: Option<(Scalar, bool)>,
    /// Date format for the bounds.
    pub format: Option<String>,
    /// Time zone for date bounds.
    pub time_zone: Option<String>,
    /// `relation` to a range field's ranges (`None`: intersects, the default).
    pub relation: Option<crate::mapping::ranges::Relation>,
    /// `boost`.
    pub boost: f32,
}

/// Options of `match`-family queries.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchQuery {
    /// Field name (may be a pattern in multi-field contexts).
    pub field: String,
    /// Query text.
    pub text: String,
    /// `operator`.
    pub operator: Operator,
    /// `minimum_should_match`.
    pub minimum_should_match: Option<MinimumShouldMatch>,
    /// `analyzer` override.
    pub analyzer: Option<String>,
    /// `fuzziness` (`AUTO`, `1`, ...).
    pub fuzziness: Option<String>,
    /// `prefix_length` for fuzzy terms.
    pub prefix_length: usize,
    /// `max_expansions` for fuzzy/prefix terms.
    pub max_expansions: usize,
    /// `fuzzy_transpositions`.
    pub transpositions: bool,
    /// `zero_terms_query: all`.
    pub zero_terms_all: bool,
    /// `lenient`.
    pub lenient: bool,
    /// `boost`.
    pub boost: f32,
    /// `auto_generate_synonyms_phrase_query`: the multi-word paths of a token graph are
    /// phrases (true, ES's default) or conjunctions of their terms.
    pub synonym_phrases: bool,
    /// `cutoff_frequency`: the terms make a common terms query (both groups with the
    /// query's operator, `minimum_should_match` for the low-frequency one), as ES 6.8's
    /// `MatchQuery.createCommonTermsQuery` builds it.
    pub cutoff_frequency: Option<f32>,
}

impl MatchQuery {
    /// A `match` on `field` for `text` with ES's defaults (operator OR, 50 expansions,
    /// transpositions on).
    pub fn new(field: String, text: String) -> MatchQuery {
        MatchQuery {
            field,
            text,
            operator: Operator::Or,
            minimum_should_match: None,
            analyzer: None,
            fuzziness: None,
            prefix_length: 0,
            max_expansions: 50,
            transpositions: true,
            zero_terms_all: false,
            lenient: false,
            boost: 1.0,
            synonym_phrases: true,
            cutoff_frequency: None,
        }
    }
}

/// A JSON scalar of a request (a `term` or `range` value, a `search_after` value, a sort's
/// `missing`), kept with the distinctions ES's conversions make: integers that fit a long,
/// larger ones, floats. Execution converts it to a field's type, as ES does per shard.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer that fits a signed 64-bit long.
    Long(i64),
    /// A larger non-negative integer.
    Unsigned(u64),
    /// A number written with a fraction or exponent.
    Double(f64),
    /// A string.
    Text(String),
}

impl Scalar {
    /// The scalar a JSON value is; `None` for arrays and objects.
    pub fn from_json(v: &Value) -> Option<Scalar> {
        Some(match v {
            Value::Null => Scalar::Null,
            Value::Bool(b) => Scalar::Bool(*b),
            Value::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => Scalar::Long(i),
                (None, Some(u)) => Scalar::Unsigned(u),
                _ => Scalar::Double(n.as_f64().unwrap_or(0.0)),
            },
            Value::String(s) => Scalar::Text(s.clone()),
            Value::Array(_) | Value::Object(_) => return None,
        })
    }

    /// The value as a long, if it is a number that fits one exactly.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Scalar::Long(n) => Some(*n),
            _ => None,
        }
    }

    /// The value as a double, if it is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Scalar::Long(n) => Some(*n as f64),
            Scalar::Unsigned(u) => Some(*u as f64),
            Scalar::Double(f) => Some(*f),
            _ => None,
        }
    }

    /// The scalar as JSON again (for messages that quote the value as ES writes it).
    pub fn to_json(&self) -> Value {
        match self {
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => Value::from(*b),
            Scalar::Long(n) => Value::from(*n),
            Scalar::Unsigned(u) => Value::from(*u),
            Scalar::Double(f) => Value::from(*f),
            Scalar::Text(s) => Value::from(s.as_str()),
        }
    }

    /// The string, if it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Scalar::Text(s) => Some(s),
            _ => None,
        }
    }

    /// The text ES reads from the scalar: a string as is, JSON's spelling otherwise.
    pub fn text(&self) -> String {
        match self {
            Scalar::Null => "null".into(),
            Scalar::Bool(b) => b.to_string(),
            Scalar::Long(n) => n.to_string(),
            Scalar::Unsigned(u) => u.to_string(),
            Scalar::Double(f) => Value::from(*f).to_string(),
            Scalar::Text(s) => s.clone(),
        }
    }
}

/// A query tree node.
#[derive(Debug, Clone, PartialEq)]
// Variants carry ES's query names, `query_string` among them.
#[allow(clippy::enum_variant_names)]
pub enum Query {
    /// Every document, constant score.
    MatchAll { boost: f32 },
    /// `script`: the documents for which the script answers `true`, constant score.
    Script { script: std::sync::Arc<crate::script::Script>, boost: f32 },
    /// No document.
    MatchNone,
    /// `match` on one field.
    Match(MatchQuery),
    /// `match_phrase` (`slop`) or `match_phrase_prefix` (`max_expansions`).
    MatchPhrase {
        field: String,
        text: String,
        slop: u32,
        analyzer: Option<String>,
        prefix: bool,
        max_expansions: usize,
        boost: f32,
    },
    /// `multi_match`.
    MultiMatch {
        fields: Vec<(String, f32)>,
        text: String,
        kind: MultiMatchType,
        tie_breaker: Option<f32>,
        options: MatchQuery,
    },
    /// `term`: one exact (normalized) value.
    Term { field: String, value: Scalar, boost: f32 },
    /// `terms`: any of several exact values, constant score.
    Terms { field: String, values: Vec<Scalar>, boost: f32 },
    /// `terms` with its values read from a document when the search runs.
    TermsLookup(Box<terms_lookup::TermsLookupQuery>),
    /// `range`.
    Range(RangeQuery),
    /// `exists`.
    Exists { field: String, boost: f32 },
    /// `prefix` on a keyword or text term dictionary.
    Prefix { field: String, value: String, boost: f32 },
    /// `wildcard` with `*` and `?`.
    Wildcard { field: String, pattern: String, boost: f32 },
    /// `regexp` (Lucene syntax subset).
    Regexp {
        field: String,
        pattern: String,
        max_determinized_states: usize,
        /// Whether `index.max_regex_length` applies: ES checks it for the `regexp` query,
        /// not for query_string's `/regex/`.
        limit_length: bool,
        boost: f32,
    },
    /// `fuzzy`.
    Fuzzy {
        field: String,
        value: String,
        fuzziness: String,
        prefix_length: usize,
        max_expansions: usize,
        transpositions: bool,
        boost: f32,
    },
    /// `ids`.
    Ids { values: Vec<String>, boost: f32 },
    /// `bool`.
    Bool(BoolQuery),
    /// `constant_score`.
    ConstantScore { filter: Box<Query>, boost: f32 },
    /// `dis_max`.
    DisMax { queries: Vec<Query>, tie_breaker: f32, boost: f32 },
    /// `boosting`.
    Boosting { positive: Box<Query>, negative: Box<Query>, negative_boost: f32, boost: f32 },
    /// `function_score`.
    FunctionScore(Box<FunctionScoreQuery>),
    /// `query_string` / `simple_query_string` after option parsing.
    QueryString(Box<QueryStringQuery>),
    /// `geo_distance`, `geo_bounding_box` or `geo_polygon`.
    Geo(Box<geo::GeoQuery>),
    /// `geo_shape`.
    GeoShape(Box<geo_shape::GeoShapeQuery>),
    /// `nested`: parents of the nested documents a query matches.
    Nested(Box<nested::NestedQuery>),
    /// A span query (`span_term`, `span_near`, ...).
    Span(Box<span::SpanQuery>),
    /// `common` terms.
    Common(Box<common::CommonTermsQuery>),
    /// `more_like_this`.
    MoreLikeThis(Box<more_like_this::MoreLikeThisQuery>),
    /// `terms_set`.
    TermsSet(Box<terms_set::TermsSetQuery>),
}

impl Query {}

/// `query_string` options.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryStringQuery {
    /// The Lucene-syntax text.
    pub query: String,
    /// `fields` with boosts (patterns allowed); empty means `default_field`.
    pub fields: Vec<(String, f32)>,
    /// `default_field` (`*` when unset).
    pub default_field: Option<String>,
    /// `default_operator`.
    pub default_operator: Operator,
    /// `type`.
    pub kind: MultiMatchType,
    /// `tie_breaker`.
    pub tie_breaker: Option<f32>,
    /// `lenient`.
    pub lenient: bool,
    /// `analyzer`.
    pub analyzer: Option<String>,
    /// `analyze_wildcard`.
    pub analyze_wildcard: bool,
    /// `allow_leading_wildcard`.
    pub allow_leading_wildcard: bool,
    /// `minimum_should_match`.
    pub minimum_should_match: Option<MinimumShouldMatch>,
    /// `fuzziness` for `~` terms without a value.
    pub fuzziness: Option<String>,
    /// `phrase_slop`.
    pub phrase_slop: u32,
    /// Simple query string syntax (`simple_query_string`) instead of Lucene's.
    pub simple: bool,
    /// `flags` of simple_query_string (bit set; ALL when unset).
    pub simple_flags: u32,
    /// `boost`.
    pub boost: f32,
    /// `query` in its syntax, parsed by [`QueryStringQuery::parse_text`] once the options
    /// are read.
    pub parsed: QueryText,
}

/// The text of a `query_string` / `simple_query_string` in its syntax.
#[derive(Debug, Clone, PartialEq)]
pub enum QueryText {
    /// Not parsed yet (the options are still being read).
    Unparsed,
    /// `query_string` with no text: ES's zero-terms query.
    Empty,
    /// `query_string`'s tree, runs of bare terms grouped as Lucene 7 analyzes them; or
    /// Lucene's syntax error, which ES reports per shard as the query runs.
    Lucene(std::result::Result<query_string::QsNode, query_string::QsError>),
    /// `simple_query_string`'s tree (its syntax has no errors).
    Simple(simple_query_string::SNode),
}

impl QueryStringQuery {
    /// Parses `query` under the options read so far (`default_operator`, `flags`,
    /// `allow_leading_wildcard`); called once the whole query object is read.
    pub fn parse_text(&mut self) {
        self.parsed = if self.simple {
            QueryText::Simple(simple_query_string::parse(&self.query, self.simple_flags, self.default_operator))
        } else if self.query.trim().is_empty() {
            QueryText::Empty
        } else {
            let opts = query_string::ParseOptions {
                default_operator_and: self.default_operator == Operator::And,
                allow_leading_wildcard: self.allow_leading_wildcard,
            };
            QueryText::Lucene(
                query_string::parse(&self.query, &opts)
                    .map(|tree| query_string::group_bare_terms(tree, &self.query, self.default_operator)),
            )
        };
    }
}

/// `function_score` definition.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionScoreQuery {
    /// The inner query.
    pub query: Query,
    /// Functions, each optionally filtered.
    pub functions: Vec<ScoreFunction>,
    /// `score_mode`.
    pub score_mode: String,
    /// `boost_mode`.
    pub boost_mode: String,
    /// `max_boost`.
    pub max_boost: f32,
    /// `min_score`.
    pub min_score: Option<f32>,
    /// `boost`.
    pub boost: f32,
}

/// One function of `function_score`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreFunction {
    /// Only documents matching this filter get the function.
    pub filter: Option<Query>,
    /// `weight`.
    pub weight: Option<f32>,
    /// The function.
    pub kind: ScoreFunctionKind,
}

/// Function kinds.
#[derive(Debug, Clone, PartialEq)]
pub enum ScoreFunctionKind {
    /// Only a weight.
    Weight,
    /// `field_value_factor`.
    FieldValueFactor { field: String, factor: f32, modifier: String, missing: Option<f64> },
    /// `random_score`.
    RandomScore { seed: Option<i64>, field: Option<String> },
    /// `script_score`: the script's value (it may read `_score`).
    Script(std::sync::Arc<crate::script::Script>),
}

impl Query {
    /// `match_all` with boost 1.
    pub fn match_all() -> Query {
        Query::MatchAll { boost: 1.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_should_match_forms() {
        let r = |s: &str, n| MinimumShouldMatch::Spec(s.into()).resolve(n);
        assert_eq!(r("2", 3), 2);
        assert_eq!(r("-1", 3), 2);
        assert_eq!(r("75%", 4), 3);
        assert_eq!(r("-25%", 4), 3);
        assert_eq!(r("3<90%", 3), 3);
        assert_eq!(r("3<90%", 10), 9);
        assert_eq!(r("2<-25% 9<-3", 5), 4);
        assert_eq!(r("2<-25% 9<-3", 12), 9);
        assert_eq!(r("10", 3), 3);
    }
}
