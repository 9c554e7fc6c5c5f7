//! Filter-context results kept per index generation, like Elasticsearch's query cache:
//! a generation never changes, so a filter that depends only on its data (terms, ranges
//! without `now`, `exists`, prefixes, `ids`, booleans of these) has one answer for as
//! long as the generation lives. Portal searches repeat the same few filters with every
//! query; their sets are computed once per process.
//!
//! Only indices of at least [`MIN_DOCS`] documents are cached (below that a filter costs
//! less than the cache's bookkeeping, ES's rule for segments). Memory is bounded by an
//! approximate byte budget with least-recently-used eviction.

use crate::index::DocSet;
use crate::lru::Lru;
use crate::query::{MinimumShouldMatch, Query, RangeQuery, Scalar};
use std::sync::{Arc, Mutex, OnceLock};

/// Indices smaller than this are not cached.
pub const MIN_DOCS: u32 = 10_000;
/// Total budget for cached sets.
const BUDGET_BYTES: usize = 64 << 20;
/// At most this many entries.
const MAX_ENTRIES: usize = 4096;

/// A cached filter: the generation's identity and the filter.
pub type Key = (String, FilterKey);

fn cache() -> std::sync::MutexGuard<'static, Lru<Key, Arc<DocSet>>> {
    static CACHE: OnceLock<Mutex<Lru<Key, Arc<DocSet>>>> = OnceLock::new();
    // Every mutation is a single insert or remove: a poisoned map is still consistent.
    CACHE.get_or_init(|| Mutex::new(Lru::new(BUDGET_BYTES, MAX_ENTRIES))).lock().unwrap_or_else(|p| p.into_inner())
}

/// The cache key of `q` in the generation `generation_id`, when its answer depends on
/// the generation's data alone.
pub fn key(generation_id: &str, q: &Query) -> Option<Key> {
    FilterKey::of(q).map(|k| (generation_id.to_string(), k))
}

/// A filter as the cache knows it: what decides its set of documents, typed. Boosts are
/// left out (a filter's set does not depend on them), so filters differing only in boosts
/// share their set.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FilterKey {
    /// `term`.
    Term { field: String, value: ScalarKey },
    /// `terms`.
    Terms { field: String, values: Vec<ScalarKey> },
    /// `range` without `now` in its bounds.
    Range {
        field: String,
        lower: Option<(ScalarKey, bool)>,
        upper: Option<(ScalarKey, bool)>,
        format: Option<String>,
        time_zone: Option<String>,
        relation: Option<crate::mapping::ranges::Relation>,
    },
    /// `exists`.
    Exists { field: String },
    /// `prefix`.
    Prefix { field: String, value: String },
    /// `ids`.
    Ids { values: Vec<String> },
    /// `bool` of cacheable clauses.
    Bool {
        must: Vec<FilterKey>,
        filter: Vec<FilterKey>,
        should: Vec<FilterKey>,
        must_not: Vec<FilterKey>,
        minimum_should_match: Option<String>,
    },
    /// `constant_score` of a cacheable filter.
    ConstantScore(Box<FilterKey>),
}

/// A query value in a [`FilterKey`]: a [`Scalar`] with its double as bits, so that keys
/// compare and hash exactly.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ScalarKey {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A long.
    Long(i64),
    /// An unsigned integer beyond a long.
    Unsigned(u64),
    /// A double's bits.
    Double(u64),
    /// A string.
    Text(String),
}

impl ScalarKey {
    fn of(s: &Scalar) -> ScalarKey {
        match s {
            Scalar::Null => ScalarKey::Null,
            Scalar::Bool(b) => ScalarKey::Bool(*b),
            Scalar::Long(n) => ScalarKey::Long(*n),
            Scalar::Unsigned(n) => ScalarKey::Unsigned(*n),
            Scalar::Double(d) => ScalarKey::Double(d.to_bits()),
            Scalar::Text(t) => ScalarKey::Text(t.clone()),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            ScalarKey::Text(t) => t.len() + 24,
            _ => 16,
        }
    }
}

impl FilterKey {
    /// The key of `q` when its answer depends only on the index data (not on the clock).
    /// Every query type is named here, so a new one must choose.
    pub fn of(q: &Query) -> Option<FilterKey> {
        let all = |qs: &[Query]| qs.iter().map(FilterKey::of).collect::<Option<Vec<_>>>();
        match q {
            Query::Term { field, value, boost: _ } => {
                Some(FilterKey::Term { field: field.clone(), value: ScalarKey::of(value) })
            }
            Query::Terms { field, values, boost: _ } => {
                Some(FilterKey::Terms { field: field.clone(), values: values.iter().map(ScalarKey::of).collect() })
            }
            Query::Range(r) if mentions_now(r) => None,
            Query::Range(r) => {
                let bound =
                    |b: &Option<(Scalar, bool)>| b.as_ref().map(|(v, inclusive)| (ScalarKey::of(v), *inclusive));
                Some(FilterKey::Range {
                    field: r.field.clone(),
                    lower: bound(&r.lower),
                    upper: bound(&r.upper),
                    format: r.format.clone(),
                    time_zone: r.time_zone.clone(),
                    relation: r.relation,
                })
            }
            Query::Exists { field, boost: _ } => Some(FilterKey::Exists { field: field.clone() }),
            Query::Prefix { field, value, boost: _ } => {
                Some(FilterKey::Prefix { field: field.clone(), value: value.clone() })
            }
            Query::Ids { values, boost: _ } => Some(FilterKey::Ids { values: values.clone() }),
            Query::Bool(b) => Some(FilterKey::Bool {
                must: all(&b.must)?,
                filter: all(&b.filter)?,
                should: all(&b.should)?,
                must_not: all(&b.must_not)?,
                minimum_should_match: b.minimum_should_match.as_ref().map(|MinimumShouldMatch::Spec(s)| s.clone()),
            }),
            Query::ConstantScore { filter, boost: _ } => {
                FilterKey::of(filter).map(|k| FilterKey::ConstantScore(Box::new(k)))
            }
            // Sets as cheap to build as to look up.
            Query::MatchAll { .. } | Query::MatchNone => None,
            // Analyzed text and multi-term expansions: not kept (their sets are rarely
            // repeated filters of a portal's searches).
            Query::Match(_)
            | Query::MatchPhrase { .. }
            | Query::MultiMatch { .. }
            | Query::QueryString(_)
            | Query::Wildcard { .. }
            | Query::Regexp { .. }
            | Query::Fuzzy { .. } => None,
            // Scoring constructs: in filter context their sets are their clauses' sets,
            // cached as those clauses.
            Query::DisMax { .. } | Query::Boosting { .. } | Query::FunctionScore(_) => None,
            // Joins over nested blocks: computed from their inner query each time.
            Query::Nested(_) => None,
            // A script's answer may depend on its params and on `now`; run every time.
            Query::Script { .. } => None,
            // Geo sets come from a band of sorted points: cheap enough to build again.
            Query::Geo(_) => None,
            // Shapes re-read from `_source`; an indexed shape may change with a reload.
            Query::GeoShape(_) => None,
            // Positions read per candidate: rarely a repeated filter.
            Query::Span(_) => None,
            // Analyzed text, like `match`.
            Query::Common(_) => None,
            // Selected from term statistics and liked documents at each run.
            Query::MoreLikeThis(_) => None,
            // Counted per document against a field or a script.
            Query::TermsSet(_) => None,
            // Its values are another document's, read per search.
            Query::TermsLookup(_) => None,
        }
    }

    /// About how many bytes the key holds (for the cache's budget).
    fn bytes(&self) -> usize {
        let list = |ks: &[FilterKey]| ks.iter().map(FilterKey::bytes).sum::<usize>();
        let text = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        32 + match self {
            FilterKey::Term { field, value } => field.len() + value.bytes(),
            FilterKey::Terms { field, values } => field.len() + values.iter().map(ScalarKey::bytes).sum::<usize>(),
            FilterKey::Range { field, lower, upper, format, time_zone, relation: _ } => {
                field.len()
                    + lower.as_ref().map_or(0, |(v, _)| v.bytes())
                    + upper.as_ref().map_or(0, |(v, _)| v.bytes())
                    + text(format)
                    + text(time_zone)
            }
            FilterKey::Exists { field } => field.len(),
            FilterKey::Prefix { field, value } => field.len() + value.len(),
            FilterKey::Ids { values } => values.iter().map(|v| v.len() + 24).sum(),
            FilterKey::Bool { must, filter, should, must_not, minimum_should_match } => {
                list(must) + list(filter) + list(should) + list(must_not) + text(minimum_should_match)
            }
            FilterKey::ConstantScore(inner) => inner.bytes(),
        }
    }
}

/// Whether a range's bounds use date math relative to now.
fn mentions_now(r: &RangeQuery) -> bool {
    [&r.lower, &r.upper].iter().any(|b| matches!(b, Some((Scalar::Text(t), _)) if t.contains("now")))
}

/// The cached set of `key`, if any.
pub fn get(key: &Key) -> Option<Arc<DocSet>> {
    cache().get_mut(key).map(|d| d.clone())
}

/// Keeps `docs` for `key`, evicting the least recently used sets beyond the budget.
pub fn put(key: Key, docs: Arc<DocSet>, max_doc: u32) {
    // Roaring holds at most 2 bytes per document, or 8 KiB per 65,536 ordinals.
    let bytes =
        (docs.len() as usize).saturating_mul(2).min(max_doc as usize / 8 + 8192) + key.0.len() + key.1.bytes() + 128;
    cache().insert(key, docs, bytes);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::BoolQuery;

    fn term(v: &str) -> Query {
        Query::Term { field: "f".into(), value: Scalar::Text(v.into()), boost: 1.0 }
    }

    #[test]
    fn only_clock_free_filters_are_cached() {
        assert!(key("g", &term("x")).is_some());
        let range = |lower: &str| {
            Query::Range(RangeQuery {
                field: "d".into(),
                lower: Some((Scalar::Text(lower.into()), true)),
                upper: None,
                format: None,
                time_zone: None,
                relation: None,
                boost: 1.0,
            })
        };
        assert!(key("g", &range("2020-01-01")).is_some());
        assert!(key("g", &range("now-1d/d")).is_none());
        let mixed = Query::Bool(BoolQuery { filter: vec![term("x"), range("now")], ..Default::default() });
        assert!(key("g", &mixed).is_none());
        assert!(key("g", &Query::MatchAll { boost: 1.0 }).is_none());
    }

    #[test]
    fn keys_are_the_filters_sets() {
        let boosted = Query::Term { field: "f".into(), value: Scalar::Text("x".into()), boost: 2.0 };
        assert_eq!(key("g", &term("x")), key("g", &boosted), "a boost does not change the set");
        assert_ne!(key("g", &term("x")), key("g", &term("y")));
        let double = |d: f64| Query::Term { field: "f".into(), value: Scalar::Double(d), boost: 1.0 };
        assert_ne!(key("g", &double(0.1)), key("g", &double(0.1 + f64::EPSILON)));
        let wrapped = Query::ConstantScore { filter: Box::new(term("x")), boost: 1.0 };
        assert_ne!(key("g", &wrapped), key("g", &term("x")));
    }

    #[test]
    fn sets_come_back_until_evicted() {
        let k = key("gen-cache-test", &term("y")).unwrap();
        put(k.clone(), Arc::new(DocSet::from_docs([1, 5, 9])), 100_000);
        assert_eq!(get(&k).unwrap().len(), 3);
        let other = ("gen-cache-test-2".to_string(), k.1.clone());
        assert!(get(&other).is_none(), "another generation has its own answer");
    }
}
