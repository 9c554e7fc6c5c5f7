//! Field collapsing as ES 6.8 runs it: the checks `CollapseBuilder.build` makes on each
//! index, a query phase that keeps the best hit of each value of the field
//! (`CollapsingTopDocsCollector`: the groups are ranked by their best hit in the search's
//! order, the total counts every match), and the expansion of each returned group
//! (`ExpandSearchPhase`): one search per group and `inner_hits`, of the request's query
//! and `post_filter` within the group.

use super::collect::{self, hit_order, TargetSteps};
use super::context::Executor;
use super::response::hit_values::InnerHits;
use super::response::Hits;
use super::sort::KeyExtractor;
use super::{After, Hit, QueryResult};
use crate::error::{Error, Exception, Result};
use crate::index::{IndexReader, KeywordDocValues, NumericDocValues};
use crate::mapping::FieldType;
use crate::query::{BoolQuery, Query, Scalar};
use crate::request::collapse::{CollapseSpec, GroupHitsSpec};
use crate::request::SearchRequest;
use crate::store::Snapshot;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

/// The value a hit was collapsed on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GroupKey {
    /// The document has no value: all such documents are one group.
    Missing,
    /// A keyword's term.
    Term(String),
    /// An integral number.
    Long(i64),
    /// A floating number, by its bits (Lucene groups on the stored bits).
    Double(u64),
}

impl GroupKey {
    /// The query that keeps the group's documents (ES: a `match` on the value, or no
    /// value at all).
    fn filter(&self, field: &str) -> Query {
        let value = match self {
            GroupKey::Missing => {
                let exists = Query::Exists { field: field.to_string(), boost: 1.0 };
                return Query::Bool(BoolQuery { must_not: vec![exists], boost: 1.0, ..BoolQuery::default() });
            }
            GroupKey::Term(t) => Scalar::Text(t.clone()),
            GroupKey::Long(n) => Scalar::Long(*n),
            GroupKey::Double(bits) => Scalar::Double(f64::from_bits(*bits)),
        };
        Query::Term { field: field.to_string(), value, boost: 1.0 }
    }
}

fn context_failure(index: &str, reason: String) -> Error {
    Error::all_shards_failed(500, Some(index), Exception::new("search_context_exception", reason))
}

/// `CollapseBuilder.build`'s checks, in its order, then the request's options ES refuses
/// with a collapse (`search_after`, `rescore`); each fails every shard.
pub fn check(targets: &[Arc<IndexReader>], req: &SearchRequest, spec: &CollapseSpec) -> Result<()> {
    let Some(first) = targets.first() else { return Ok(()) };
    if req.search_after.is_some() {
        return Err(context_failure(
            &first.meta.name,
            "cannot use `collapse` in conjunction with `search_after`".into(),
        ));
    }
    if !req.rescore.is_empty() {
        return Err(context_failure(&first.meta.name, "cannot use `collapse` in conjunction with `rescore`".into()));
    }
    let field = &spec.field;
    for t in targets {
        let name = &t.meta.name;
        let mapping = &t.meta.mapping;
        let meta_field = META_FIELDS.contains(&field.as_str());
        let fm = match mapping.field(mapping.resolve_alias(field)) {
            Some(fm) => fm,
            None if meta_field => {
                return Err(context_failure(
                    name,
                    format!("unknown type for collapse field `{field}`, only keywords and numbers are accepted"),
                ))
            }
            None => {
                return Err(context_failure(name, format!("no mapping found for `{field}` in order to collapse on")))
            }
        };
        if !collapsible(fm) {
            return Err(context_failure(
                name,
                format!("unknown type for collapse field `{field}`, only keywords and numbers are accepted"),
            ));
        }
        if !fm.doc_values {
            return Err(context_failure(name, format!("cannot collapse on field `{field}` without `doc_values`")));
        }
        if !fm.index && !spec.inner_hits.is_empty() {
            return Err(context_failure(
                name,
                format!(
                    "cannot expand `inner_hits` for collapse field `{field}`, only indexed field can retrieve `inner_hits`"
                ),
            ));
        }
    }
    Ok(())
}

/// ES 6.8's metadata fields: mapped everywhere, none of them a keyword or number type.
const META_FIELDS: [&str; 10] =
    ["_field_names", "_id", "_ignored", "_index", "_routing", "_seq_no", "_source", "_type", "_uid", "_version"];

/// ES 6.8 collapses on `KeywordFieldType` and `NumberFieldType` only: `binary`,
/// `scaled_float`, `ip`, `date`, `boolean` and the rest are other types there.
fn collapsible(fm: &crate::mapping::FieldMapping) -> bool {
    match fm.ftype {
        FieldType::Keyword => fm.params.declared_type != Some("binary"),
        FieldType::Float => fm.params.declared_type != Some("scaled_float"),
        FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte | FieldType::Double => true,
        _ => false,
    }
}

/// One index's values of the collapse field.
enum GroupValues {
    Keyword(Arc<KeywordDocValues>),
    Number(Arc<NumericDocValues>),
    None,
}

/// A group key within one index: keyword ordinals stand for their terms until the
/// index's groups are merged with the others'.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum LocalKey {
    Missing,
    Ord(u32),
    Long(i64),
    Double(u64),
}

impl GroupValues {
    fn open(reader: &IndexReader, snap: &Snapshot, field: &str) -> Result<GroupValues> {
        let name = reader.meta.mapping.resolve_alias(field);
        let keyword = reader.meta.mapping.field(name).is_some_and(|f| f.ftype == FieldType::Keyword);
        Ok(if keyword {
            reader.keyword_doc_values(snap, name)?.map_or(GroupValues::None, GroupValues::Keyword)
        } else {
            reader.numeric_doc_values(snap, name)?.map_or(GroupValues::None, GroupValues::Number)
        })
    }

    /// The key of `doc`; `None` when it has several values (ES refuses to collapse it).
    fn key(&self, doc: u32) -> Option<LocalKey> {
        match self {
            GroupValues::None => Some(LocalKey::Missing),
            GroupValues::Keyword(dv) => {
                let mut ords = dv.ords(doc);
                match (ords.next(), ords.next()) {
                    (None, _) => Some(LocalKey::Missing),
                    (Some(o), None) => Some(LocalKey::Ord(o)),
                    _ => None,
                }
            }
            GroupValues::Number(dv) => match dv.count(doc) {
                0 => Some(LocalKey::Missing),
                1 if dv.is_double() => dv.values_f64(doc).next().map(|v| LocalKey::Double(v.to_bits())),
                1 => dv.values_i64(doc).next().map(LocalKey::Long),
                _ => None,
            },
        }
    }

    fn global(&self, key: LocalKey) -> GroupKey {
        match (key, self) {
            (LocalKey::Ord(o), GroupValues::Keyword(dv)) => GroupKey::Term(dv.term(o).to_string()),
            (LocalKey::Long(n), _) => GroupKey::Long(n),
            (LocalKey::Double(b), _) => GroupKey::Double(b),
            _ => GroupKey::Missing,
        }
    }
}

/// The best hit of each group, at most `window` groups once trimmed: a group whose best
/// hit falls behind `window` others can only come back with a better hit, which then is
/// its best (Lucene's first-pass grouping), so the memory follows the page.
struct GroupHeads<'s, K> {
    specs: &'s [crate::request::sort::SortSpec],
    window: usize,
    heads: HashMap<K, Hit>,
    /// The worst kept head once trimmed to a full window.
    bound: Option<Hit>,
}

impl<'s, K: std::hash::Hash + Eq + Clone> GroupHeads<'s, K> {
    fn new(specs: &'s [crate::request::sort::SortSpec], window: usize) -> Self {
        GroupHeads { specs, window, heads: HashMap::new(), bound: None }
    }

    fn better(&self, a: &Hit, b: &Hit) -> bool {
        hit_order(self.specs, a, b) == Ordering::Less
    }

    fn offer(&mut self, key: K, hit: Hit) {
        if let Some(head) = self.heads.get(&key) {
            if self.better(&hit, head) {
                self.heads.insert(key, hit);
            }
            return;
        }
        if self.bound.as_ref().is_some_and(|b| !self.better(&hit, b)) {
            return;
        }
        self.heads.insert(key, hit);
        if self.heads.len() >= self.window.saturating_mul(2) + 64 {
            self.trim();
        }
    }

    /// Keeps the best `window` groups, best first.
    fn trim(&mut self) -> Vec<(K, Hit)> {
        let specs = self.specs;
        let mut all: Vec<(K, Hit)> = self.heads.drain().collect();
        all.sort_by(|a, b| hit_order(specs, &a.1, &b.1));
        all.truncate(self.window);
        if all.len() == self.window {
            self.bound = all.last().map(|(_, h)| h.clone());
        }
        self.heads.extend(all.iter().cloned());
        all
    }
}

/// The query phase of a collapsed search: the best `window` groups over every target,
/// each as its best hit, with the key it was collapsed on; the total counts every match.
pub fn query_phase(
    targets: &[Arc<IndexReader>],
    snap: &Snapshot,
    req: &SearchRequest,
    spec: &CollapseSpec,
    now_ms: i64,
    window: usize,
) -> Result<(QueryResult, Vec<GroupKey>)> {
    let scoring = super::needs_scoring(req) && (window > 0 || req.min_score.is_some());
    let specs = req.sort.as_slice();
    let mut merged: GroupHeads<'_, GroupKey> = GroupHeads::new(specs, window);
    let mut total = 0u64;
    let mut max_score = f32::NAN;
    let mut matched = Vec::with_capacity(targets.len());
    let (mut terminated_early, mut timed_out) = (false, false);
    for (ti, reader) in targets.iter().enumerate() {
        let ex = Executor::new(reader, snap, now_ms);
        let weight = super::compile_query(&ex, req, scoring)?;
        let steps = TargetSteps::new(&ex, req)?;
        let values = GroupValues::open(reader, snap, &spec.field)?;
        let keys = if specs.is_empty() { None } else { Some(KeyExtractor::new(specs, reader, snap)?) };
        let mut local: GroupHeads<'_, LocalKey> = GroupHeads::new(specs, window);
        let mut multi_valued = None;
        let stats = collect::pass(&weight, &steps, scoring, 0, &mut |doc, score| {
            if window == 0 {
                return false;
            }
            let Some(key) = values.key(doc) else {
                multi_valued = Some(doc);
                return false;
            };
            let sort = keys.as_ref().map(|k| k.values(doc, score)).unwrap_or_default();
            local.offer(key, Hit { target: ti, doc, score, sort });
            true
        })?;
        if let Some(e) = keys.as_ref().and_then(KeyExtractor::take_error) {
            return Err(e);
        }
        if let Some(doc) = multi_valued {
            let cause = Exception::new(
                "illegal_state_exception",
                format!("failed to collapse {doc}, the collapse field must be single valued"),
            );
            let phase = Exception::new("query_phase_execution_exception", "Failed to execute main query")
                .caused_by(cause.clone());
            return Err(Error::all_shards_failed(500, Some(&reader.meta.name), phase).with_root_causes(vec![cause]));
        }
        for (key, hit) in local.trim() {
            merged.offer(values.global(key), hit);
        }
        total += stats.total;
        max_score = max_score.max(stats.max_score);
        matched.push(stats.matched);
        terminated_early |= stats.terminated_early;
        timed_out |= stats.timed_out;
    }
    let (keys, hits): (Vec<GroupKey>, Vec<Hit>) = merged.trim().into_iter().unzip();
    Ok((QueryResult { total, max_score, hits, matched, terminated_early, timed_out }, keys))
}

/// The request whose hits are one group's `inner_hits` (ES's `ExpandSearchPhase`): the
/// search's query within the group, its `post_filter`, `_type`s and alias filters, and
/// the inner hits' own page, order and fetch options.
fn group_request(req: &SearchRequest, spec: &CollapseSpec, key: &GroupKey, inner: &GroupHitsSpec) -> SearchRequest {
    let mut group = BoolQuery { boost: 1.0, ..BoolQuery::default() };
    match key.filter(&spec.field) {
        // ES adds the missing value's `must_not` to the group query itself.
        Query::Bool(b) => group.must_not = b.must_not,
        term => group.filter.push(term),
    }
    // Without a query in the request ES's group query is its filter alone (score 0).
    if spec.query_given {
        group.must.push(req.query.clone());
    }
    let mut out = SearchRequest {
        query: Query::Bool(group),
        post_filter: req.post_filter.clone(),
        from: inner.from,
        size: inner.size,
        sort: inner.sort.clone(),
        docvalue_fields: inner.docvalue_fields.clone(),
        explain: inner.explain,
        track_scores: inner.track_scores,
        version: inner.version,
        types: req.types.clone(),
        // ES sends the group searches to the request's own index expression, so its
        // aliases filter them too.
        alias_filters: req.alias_filters.clone(),
        ..SearchRequest::default()
    };
    if let Some(source) = &inner.source {
        out.source = source.clone();
        out.source_requested = true;
    }
    out
}

/// Runs one group's inner search over the targets and answers its `hits`.
fn group_hits(targets: &[Arc<IndexReader>], snap: &Snapshot, req: &SearchRequest, now_ms: i64) -> Result<Hits> {
    req.validate()?;
    super::check_stored_fields(targets, req)?;
    super::check_fetch_limits(targets, req)?;
    super::check_window(targets, req.from, req.size, false)?;
    let window = (req.from + req.size) as usize;
    let mut result = super::query_phase(targets, snap, req, now_ms, &After::Start, window)?;
    result.hits.drain(..(req.from as usize).min(result.hits.len()));
    super::fetch_phase(targets, snap, req, &result, now_ms)
}

/// Adds each returned group's `inner_hits` to its hit (`keys` are the hits' groups).
pub fn expand(
    targets: &[Arc<IndexReader>],
    snap: &Snapshot,
    req: &SearchRequest,
    spec: &CollapseSpec,
    keys: &[GroupKey],
    hits: &mut Hits,
    now_ms: i64,
) -> Result<()> {
    if spec.inner_hits.is_empty() {
        return Ok(());
    }
    let order = java_hash_map_order(spec.inner_hits.iter().map(|h| h.name.as_str()));
    for (hit, key) in hits.hits.iter_mut().zip(keys) {
        crate::budget::check_cancelled()?;
        let mut found: Vec<Option<Hits>> = vec![None; spec.inner_hits.len()];
        for (i, inner) in spec.inner_hits.iter().enumerate() {
            let r = group_request(req, spec, key, inner);
            found[i] = Some(group_hits(targets, snap, &r, now_ms)?);
        }
        let mut out = InnerHits::default();
        for &i in &order {
            // A repeated name keeps its first place and the last definition's hits.
            let name = &spec.inner_hits[i].name;
            let last = spec.inner_hits.iter().rposition(|h| &h.name == name).unwrap_or(i);
            if let Some(v) = found[last].take() {
                out.insert(name.clone(), v);
            }
        }
        hit.inner_hits = Some(out);
    }
    Ok(())
}

/// Java's `String.hashCode` (over UTF-16 units).
fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(i32::from(u)))
}

/// The order in which a Java `HashMap` made with room for `names.len()` entries, then
/// filled with `names` in order, iterates its distinct keys: ES keeps a hit's `inner_hits`
/// in one (`ExpandSearchPhase`), and prints them in that order. Indices of the first
/// occurrence of each name, in iteration order.
fn java_hash_map_order<'a>(names: impl Iterator<Item = &'a str>) -> Vec<usize> {
    let names: Vec<&str> = names.collect();
    let mut firsts: Vec<usize> = Vec::new();
    for (i, n) in names.iter().enumerate() {
        if !firsts.iter().any(|&j| names[j] == *n) {
            firsts.push(i);
        }
    }
    // `new HashMap<>(n)`: a table of the next power of two, doubled whenever the size
    // passes three quarters of it.
    let mut capacity = names.len().max(1).next_power_of_two();
    let mut size = 0;
    for _ in &firsts {
        size += 1;
        if size > capacity * 3 / 4 {
            capacity *= 2;
        }
    }
    let bucket = |i: usize| {
        let h = java_string_hash(names[i]) as u32;
        ((h ^ (h >> 16)) as usize) & (capacity - 1)
    };
    // Within a bucket, entries keep their insertion order (resizes split lists in order).
    let mut order = firsts;
    order.sort_by_key(|&i| bucket(i));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_string_hashes() {
        // Values of Java's "".hashCode(), "a".hashCode(), "sub_hits".hashCode().
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("a"), 97);
        assert_eq!(java_string_hash("ab"), 97 * 31 + 98);
        assert_eq!(java_string_hash("é"), 233);
    }

    #[test]
    fn inner_hits_print_in_hash_map_order() {
        // "b" (98) and "a" (97) in a table of 4: buckets 2 and 1.
        assert_eq!(java_hash_map_order(["b", "a"].into_iter()), vec![1, 0]);
        // A repeated name keeps its first place.
        assert_eq!(java_hash_map_order(["a", "b", "a"].into_iter()), vec![0, 1]);
    }
}
