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
use crate::query::{Query, RangeQuery, Scalar};
use std::sync::{Arc, Mutex, OnceLock};

/// Indices smaller than this are not cached.
pub const MIN_DOCS: u32 = 10_000;
/// Total budget for cached sets.
const BUDGET_BYTES: usize = 64 << 20;
/// At most this many entries.
const MAX_ENTRIES: usize = 4096;

/// A cached filter: the generation's identity and the filter's canonical form.
type Key = (String, String);

fn cache() -> std::sync::MutexGuard<'static, Lru<Key, Arc<DocSet>>> {
    static CACHE: OnceLock<Mutex<Lru<Key, Arc<DocSet>>>> = OnceLock::new();
    // Every mutation is a single insert or remove: a poisoned map is still consistent.
    CACHE.get_or_init(|| Mutex::new(Lru::new(BUDGET_BYTES, MAX_ENTRIES))).lock().unwrap_or_else(|p| p.into_inner())
}

/// The cache key of `q` in the generation `generation_id`, when its answer depends on
/// the generation's data alone.
pub fn key(generation_id: &str, q: &Query) -> Option<Key> {
    cacheable(q).then(|| (generation_id.to_string(), format!("{q:?}")))
}

/// Whether a filter's answer depends only on the index data (not on the clock).
fn cacheable(q: &Query) -> bool {
    match q {
        Query::Term { .. } | Query::Terms { .. } | Query::Exists { .. } | Query::Prefix { .. } | Query::Ids { .. } => {
            true
        }
        Query::Range(r) => !mentions_now(r),
        Query::Bool(b) => b.must.iter().chain(&b.filter).chain(&b.should).chain(&b.must_not).all(cacheable),
        Query::ConstantScore { filter, .. } => cacheable(filter),
        _ => false,
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
    let bytes = (docs.len() as usize).saturating_mul(2).min(max_doc as usize / 8 + 8192) + key.1.len() + 128;
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
    fn sets_come_back_until_evicted() {
        let k = key("gen-cache-test", &term("y")).unwrap();
        put(k.clone(), Arc::new(DocSet::from_docs([1, 5, 9])), 100_000);
        assert_eq!(get(&k).unwrap().len(), 3);
        let other = ("gen-cache-test-2".to_string(), k.1.clone());
        assert!(get(&other).is_none(), "another generation has its own answer");
    }
}
