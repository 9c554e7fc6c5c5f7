//! `composite`: pages through every combination of source keys in key order.
//!
//! Only the `size` smallest keys after `after` are kept while documents are read (a
//! bounded ordered map). A key dropped from it is larger than all kept keys, and the
//! largest kept key only decreases, so a dropped key can never belong to the page and
//! the counts of kept keys are exact.

use super::values::{FieldValues, Key, TargetValues, ValueKind};
use super::{run_all, Ctx};
use crate::error::{Error, Result};
use crate::index::DocSet;
use crate::query::Scalar;
use crate::request::aggs::{AggNode, CompositeKind, CompositeSource, CompositeSpec, DateInterval, UnresolvedValue};
use crate::search::response::aggregations::{AggBody, Bucket, BucketKey, BucketList, KeyValue, ListHead};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

/// A composite key: one optional value per source (`None` is the missing bucket).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct CompositeKey(Vec<Option<Key>>);

/// Key order of one composite: per source ascending or descending; the missing bucket
/// comes first in ascending order and last in descending order.
#[derive(Clone)]
struct KeyOrder(Vec<bool>);

impl KeyOrder {
    fn cmp(&self, a: &CompositeKey, b: &CompositeKey) -> Ordering {
        for ((x, y), asc) in a.0.iter().zip(&b.0).zip(&self.0) {
            let c = x.cmp(y);
            let c = if *asc { c } else { c.reverse() };
            if c != Ordering::Equal {
                return c;
            }
        }
        Ordering::Equal
    }
}

/// A key in a map ordered by the composite's order.
struct Ordered {
    key: CompositeKey,
    order: std::rc::Rc<KeyOrder>,
}

impl PartialEq for Ordered {
    fn eq(&self, o: &Ordered) -> bool {
        self.order.cmp(&self.key, &o.key) == Ordering::Equal
    }
}
impl Eq for Ordered {}
impl PartialOrd for Ordered {
    fn partial_cmp(&self, o: &Ordered) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Ordered {
    fn cmp(&self, o: &Ordered) -> Ordering {
        self.order.cmp(&self.key, &o.key)
    }
}

/// A source's field values and how they become keys.
struct Source<'s> {
    spec: &'s CompositeSource,
    values: FieldValues,
}

impl Source<'_> {
    /// The distinct keys of `doc` (empty when it has none and there is no missing bucket).
    fn keys(&self, t: usize, doc: u32, out: &mut Vec<Option<Key>>) {
        out.clear();
        match &self.spec.kind {
            CompositeKind::Terms => self.values.for_each_key(t, doc, |k| out.push(Some(k))),
            CompositeKind::Histogram(interval) => self.values.for_each_number(t, doc, |v| {
                let k = Some(Key::Double((v / interval).floor() * interval));
                if out.last() != Some(&k) {
                    out.push(k);
                }
            }),
            CompositeKind::DateHistogram(interval, tz) => self.values.for_each_number(t, doc, |v| {
                let ms = v as i64;
                let start = match interval {
                    DateInterval::Calendar(u) => crate::date::calendar_floor(ms, *u, tz.offset_secs()).unwrap_or(ms),
                    DateInterval::Fixed(len) => {
                        let off = tz.offset_secs() as i64 * 1000;
                        (ms + off).div_euclid(*len) * len - off
                    }
                };
                let k = Some(Key::Long(start));
                if out.last() != Some(&k) {
                    out.push(k);
                }
            }),
        }
        if out.is_empty() && self.spec.missing_bucket {
            out.push(None);
        }
    }

    /// A key as the bucket writes it.
    fn key_value(&self, k: &Option<Key>) -> KeyValue {
        let Some(k) = k else { return KeyValue::Null };
        match (&self.spec.kind, k) {
            (CompositeKind::DateHistogram(_, tz), Key::Long(ms)) => {
                match (&self.spec.field.format, &self.values.kind) {
                    (Some(_), ValueKind::Date(fmt)) => KeyValue::Str(fmt.format_at(*ms, tz.offset_secs())),
                    _ => KeyValue::Long(*ms),
                }
            }
            (CompositeKind::Terms, Key::Long(v)) if matches!(self.values.kind, ValueKind::Bool) => {
                KeyValue::Bool(*v != 0)
            }
            _ => self.values.key_value(k),
        }
    }

    /// Reads an `after` value into a key of this source.
    fn after_key(&self, v: &UnresolvedValue, now_ms: i64) -> Result<Option<Key>> {
        let bad =
            || Error::illegal_argument(format!("Invalid value for [after.{}]: [{}]", self.spec.name, v.json_text()));
        let UnresolvedValue::Scalar(v) = v else { return Err(bad()) };
        Ok(Some(match (v, v.as_f64(), &self.spec.kind, &self.values.kind) {
            (Scalar::Null, ..) => return Ok(None),
            (Scalar::Text(s), _, CompositeKind::Terms, ValueKind::Keyword | ValueKind::Unmapped) => Key::Str(s.clone()),
            (Scalar::Text(s), _, CompositeKind::Terms, ValueKind::Ip) => {
                Key::Str(crate::mapping::ip::term(&crate::mapping::ip::parse(s).map_err(|_| bad())?.bytes))
            }
            (Scalar::Bool(b), _, _, ValueKind::Bool) => Key::Long(*b as i64),
            (Scalar::Text(s), _, _, ValueKind::Bool) => Key::Long((s == "true") as i64),
            (_, Some(f), CompositeKind::Histogram(_), _) | (_, Some(f), _, ValueKind::Double) => Key::Double(f),
            (Scalar::Long(n), ..) => Key::Long(*n),
            // A number beyond a long saturates, as the JSON number's double cast to a long.
            (_, Some(f), ..) => Key::Long(f as i64),
            (Scalar::Text(s), _, _, ValueKind::Date(fmt)) => {
                Key::Long(crate::date::parse_date_math(s, now_ms, false, fmt, None).map_err(|_| bad())?)
            }
            (Scalar::Text(s), _, _, ValueKind::Long) => Key::Long(s.parse().map_err(|_| bad())?),
            (Scalar::Text(s), _, _, ValueKind::Double) => Key::Double(s.parse().map_err(|_| bad())?),
            _ => return Err(bad()),
        }))
    }
}

/// `composite`.
pub fn composite(ctx: &Ctx<'_>, node: &AggNode, spec: &CompositeSpec, docs: &[DocSet]) -> Result<super::Typed> {
    let mut sources = Vec::with_capacity(spec.sources.len());
    for s in &spec.sources {
        let want = match s.kind {
            CompositeKind::Terms => super::scripted::Want::Terms,
            CompositeKind::DateHistogram(..) => super::scripted::Want::Dates,
            _ => super::scripted::Want::Numbers,
        };
        let values = super::scripted::values_of(ctx, &s.field, docs, want)?;
        if !matches!(s.kind, CompositeKind::Terms) {
            values.require_numeric(ctx, &s.field.field, "composite")?;
        }
        sources.push(Source { spec: s, values });
    }
    let order = std::rc::Rc::new(KeyOrder(spec.sources.iter().map(|s| s.asc).collect()));
    let after = match &spec.after {
        Some(a) => {
            Some(CompositeKey(sources.iter().zip(a).map(|(s, v)| s.after_key(v, ctx.now_ms)).collect::<Result<_>>()?))
        }
        None => None,
    };
    let page = if let Some(p) = single_keyword_page(&sources, docs, spec.size, after.as_ref(), &order) {
        p
    } else {
        collect_page(&sources, docs, spec.size, after.as_ref(), &order)
    };
    ctx.add_buckets(&node.name, page.len())?;
    let mut bucket_docs: Vec<Vec<DocSet>> = Vec::new();
    if !node.subs.is_empty() {
        bucket_docs = docs_of_keys(&sources, docs, &page);
    }
    let key_of = |k: &CompositeKey| -> Vec<(String, KeyValue)> {
        sources.iter().zip(&k.0).map(|(s, v)| (s.spec.name.clone(), s.key_value(v))).collect()
    };
    let after_key = page.last().map(|(last, _)| key_of(last));
    let mut buckets = Vec::with_capacity(page.len());
    for (i, (k, count)) in page.iter().enumerate() {
        let subs = match bucket_docs.get(i) {
            Some(d) => run_all(ctx, &node.subs, d)?,
            None => Default::default(),
        };
        buckets.push(Bucket { key: BucketKey::Composite(key_of(k)), doc_count: *count, significance: None, subs });
    }
    Ok(("composite", AggBody::Buckets(BucketList { head: ListHead::Composite { after_key }, buckets, keyed: false })))
}

/// The general page: every document's key combinations into a bounded ordered map.
fn collect_page(
    sources: &[Source<'_>],
    docs: &[DocSet],
    size: usize,
    after: Option<&CompositeKey>,
    order: &std::rc::Rc<KeyOrder>,
) -> Vec<(CompositeKey, u64)> {
    let mut page: BTreeMap<Ordered, u64> = BTreeMap::new();
    let mut per_source: Vec<Vec<Option<Key>>> = vec![Vec::new(); sources.len()];
    let mut combos: Vec<CompositeKey> = Vec::new();
    for (t, d) in docs.iter().enumerate() {
        for doc in super::walk(d) {
            for (s, out) in sources.iter().zip(per_source.iter_mut()) {
                s.keys(t, doc, out);
            }
            cartesian(&per_source, &mut combos);
            for key in combos.drain(..) {
                if let Some(a) = after {
                    if order.cmp(&key, a) != Ordering::Greater {
                        continue;
                    }
                }
                let entry = Ordered { key, order: order.clone() };
                if let Some(c) = page.get_mut(&entry) {
                    *c += 1;
                    continue;
                }
                if page.len() == size {
                    match page.last_key_value() {
                        Some((largest, _)) if entry < *largest => {
                            page.pop_last();
                        }
                        _ => continue,
                    }
                }
                page.insert(entry, 1);
            }
        }
    }
    page.into_iter().map(|(k, c)| (k.key, c)).collect()
}

/// Every combination of one key per source (none if a source has no key).
fn cartesian(per_source: &[Vec<Option<Key>>], out: &mut Vec<CompositeKey>) {
    out.clear();
    out.push(CompositeKey(Vec::with_capacity(per_source.len())));
    for keys in per_source {
        let mut next = Vec::with_capacity(out.len() * keys.len());
        for prefix in out.iter() {
            for k in keys {
                let mut c = prefix.clone();
                c.0.push(k.clone());
                next.push(c);
            }
        }
        *out = next;
    }
}

/// The page of a single ascending or descending keyword `terms` source without a missing
/// bucket, counted by ordinal: no key is built for a term off the page.
fn single_keyword_page(
    sources: &[Source<'_>],
    docs: &[DocSet],
    size: usize,
    after: Option<&CompositeKey>,
    order: &std::rc::Rc<KeyOrder>,
) -> Option<Vec<(CompositeKey, u64)>> {
    let [s] = sources else { return None };
    if s.spec.kind != CompositeKind::Terms || s.spec.missing_bucket || s.values.missing.is_some() {
        return None;
    }
    let after_term = match after.map(|a| &a.0[0]) {
        Some(Some(Key::Str(t))) => Some(t.as_str()),
        Some(_) => return None,
        None => None,
    };
    let mut merged: BTreeMap<Ordered, u64> = BTreeMap::new();
    for (t, d) in docs.iter().enumerate() {
        let dv = match &s.values.targets[t] {
            TargetValues::Keyword(dv) => dv,
            TargetValues::None => continue,
            _ => return None,
        };
        let mut counts = vec![0u32; dv.term_count()];
        for doc in super::walk(d) {
            for o in dv.ords(doc) {
                if let Some(c) = counts.get_mut(o as usize) {
                    *c += 1;
                }
            }
        }
        // Terms are in byte order, so the page is a run of ordinals from `after`.
        let ords: Box<dyn Iterator<Item = usize>> = if s.spec.asc {
            let start = match after_term {
                Some(a) => match dv.lookup(a) {
                    Ok(o) => o as usize + 1,
                    Err(o) => o as usize,
                },
                None => 0,
            };
            Box::new(start..counts.len())
        } else {
            let end = match after_term {
                Some(a) => match dv.lookup(a) {
                    Ok(o) | Err(o) => o as usize,
                },
                None => counts.len(),
            };
            Box::new((0..end).rev())
        };
        let mut taken = 0;
        for o in ords {
            if taken == size {
                break;
            }
            if counts[o] > 0 {
                taken += 1;
                let key = CompositeKey(vec![Some(Key::Str(dv.term(o as u32).to_string()))]);
                *merged.entry(Ordered { key, order: order.clone() }).or_insert(0) += u64::from(counts[o]);
            }
        }
    }
    Some(merged.into_iter().take(size).map(|(k, c)| (k.key, c)).collect())
}

/// The documents of each bucket on the page, per target.
fn docs_of_keys(sources: &[Source<'_>], docs: &[DocSet], page: &[(CompositeKey, u64)]) -> Vec<Vec<DocSet>> {
    let index: HashMap<&CompositeKey, usize> = page.iter().enumerate().map(|(i, (k, _))| (k, i)).collect();
    let mut out: Vec<Vec<DocSet>> = (0..page.len()).map(|_| vec![DocSet::new(); docs.len()]).collect();
    let mut per_source: Vec<Vec<Option<Key>>> = vec![Vec::new(); sources.len()];
    let mut combos = Vec::new();
    for (t, d) in docs.iter().enumerate() {
        for doc in super::walk(d) {
            for (s, o) in sources.iter().zip(per_source.iter_mut()) {
                s.keys(t, doc, o);
            }
            cartesian(&per_source, &mut combos);
            for k in combos.drain(..) {
                if let Some(&i) = index.get(&k) {
                    out[i][t].insert(doc);
                }
            }
        }
    }
    out
}
