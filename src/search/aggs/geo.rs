//! The geo aggregations over a geo point field's doc values (Lucene's packed points, so
//! every number comes from the quantized coordinates ES aggregates): `geo_distance`
//! (range buckets of distances from an origin), `geohash_grid`, `geo_bounds` and
//! `geo_centroid`, with ES 6.8's shapes, orders and reductions across indices.

use super::{run_all, total, walk, Ctx, Typed};
use crate::error::{Error, Exception, Result};
use crate::geo::{self, geohash, GeoPoint};
use crate::index::{DocSet, NumericDocValues};
use crate::json_value::java_double;
use crate::mapping::FieldType;
use crate::request::aggs::AggNode;
use crate::request::geo_aggs::{DistanceAgg, GeoAgg};
use crate::search::response::aggregations::{AggBody, Bucket, BucketKey, BucketList, KeyValue, ListHead};
use std::collections::HashMap;
use std::sync::Arc;

/// Runs a geo aggregation.
pub fn geo(ctx: &Ctx<'_>, node: &AggNode, spec: &GeoAgg, docs: &[DocSet]) -> Result<Typed> {
    let values = open(ctx, spec.field())?;
    match spec {
        GeoAgg::Distance(d) => distance(ctx, node, d, &values, docs),
        GeoAgg::GeohashGrid { precision, size, shard_size, .. } => {
            grid(ctx, node, *precision, *size, *shard_size, &values, docs)
        }
        GeoAgg::Bounds { wrap_longitude, .. } => Ok(("geo_bounds", bounds(&values, docs, *wrap_longitude))),
        GeoAgg::Centroid { .. } => Ok(("geo_centroid", centroid(&values, docs))),
    }
}

/// The field's packed points per target (`None` where it is unmapped); ES's error when
/// a target maps it as something else.
fn open(ctx: &Ctx<'_>, field: &str) -> Result<Vec<Option<Arc<NumericDocValues>>>> {
    let mut out = Vec::with_capacity(ctx.targets.len());
    for reader in ctx.targets {
        let mapping = &reader.meta.mapping;
        out.push(match mapping.field(mapping.resolve_alias(field)) {
            None => None,
            Some(fm) if fm.ftype == FieldType::GeoPoint => reader.numeric_doc_values(ctx.snap, &fm.path)?,
            Some(fm) => {
                return Err(Error::all_shards_failed(
                    400,
                    Some(&reader.meta.name),
                    Exception::new(
                        "illegal_argument_exception",
                        format!("Expected geo_point type on field [{field}], but got [{}]", fm.type_name()),
                    ),
                ))
            }
        });
    }
    Ok(out)
}

/// Calls `f` with each matched document's points, target by target.
fn each_point(values: &[Option<Arc<NumericDocValues>>], docs: &[DocSet], mut f: impl FnMut(usize, u32, GeoPoint)) {
    for (t, d) in docs.iter().enumerate() {
        let Some(Some(dv)) = values.get(t) else { continue };
        for doc in walk(d) {
            for packed in dv.values_i64(doc) {
                f(t, doc, geo::unpack(packed));
            }
        }
    }
}

/// `geo_distance`: a range aggregation over each document's distances from the origin.
fn distance(
    ctx: &Ctx<'_>,
    node: &AggNode,
    spec: &DistanceAgg,
    values: &[Option<Arc<NumericDocValues>>],
    docs: &[DocSet],
) -> Result<Typed> {
    let mut ranges: Vec<(Option<String>, f64, f64)> = spec
        .ranges
        .iter()
        .map(|(k, f, t)| (k.clone(), f.unwrap_or(f64::NEG_INFINITY), t.unwrap_or(f64::INFINITY)))
        .collect();
    // ES sorts the ranges by (from, to) and answers in that order.
    ranges.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.2.total_cmp(&b.2)));
    ctx.add_buckets(&node.name, ranges.len())?;
    // Each document's distances, once.
    let mut distances: Vec<HashMap<u32, Vec<f64>>> = vec![HashMap::new(); docs.len()];
    each_point(values, docs, |t, doc, p| {
        distances[t].entry(doc).or_default().push(spec.distance_type.calculate(spec.origin, p, spec.unit));
    });
    let mut buckets = Vec::with_capacity(ranges.len());
    for (key, from, to) in ranges {
        let sub: Vec<DocSet> = distances
            .iter()
            .map(|per_doc| {
                DocSet::from_docs(
                    per_doc.iter().filter(|(_, ds)| ds.iter().any(|d| *d >= from && *d < to)).map(|(doc, _)| *doc),
                )
            })
            .collect();
        let key = key.unwrap_or_else(|| {
            let f = if from.is_finite() { java_double(from) } else { "*".into() };
            let t = if to.is_finite() { java_double(to) } else { "*".into() };
            format!("{f}-{t}")
        });
        let bound = |v: f64| v.is_finite().then_some((KeyValue::Double(v), None));
        let key = BucketKey::Range { key, from: bound(from), to: bound(to) };
        let subs = run_all(ctx, &node.subs, &sub)?;
        buckets.push(Bucket { key, doc_count: total(&sub), significance: None, subs });
    }
    Ok(("geo_distance", AggBody::Buckets(BucketList { head: ListHead::Plain, buckets, keyed: spec.keyed })))
}

/// ES's order of geohash cells (`InternalGeoHashGrid.BucketPriorityQueue`): more
/// documents first, then the greater cell long (signed).
fn cell_order(a: &(i64, u64), b: &(i64, u64)) -> std::cmp::Ordering {
    b.1.cmp(&a.1).then(b.0.cmp(&a.0))
}

/// `geohash_grid`: each index keeps its `shard_size` fullest cells, the merged cells
/// answer the `size` fullest.
fn grid(
    ctx: &Ctx<'_>,
    node: &AggNode,
    precision: u32,
    size: usize,
    shard_size: usize,
    values: &[Option<Arc<NumericDocValues>>],
    docs: &[DocSet],
) -> Result<Typed> {
    let mut merged: HashMap<i64, Vec<DocSet>> = HashMap::new();
    for (t, d) in docs.iter().enumerate() {
        let Some(Some(dv)) = values.get(t) else { continue };
        let mut cells: HashMap<i64, Vec<u32>> = HashMap::new();
        let mut ticker = crate::budget::Ticker::new();
        for doc in walk(d) {
            if ticker.tick()? {
                break;
            }
            let mut own: Vec<i64> = dv
                .values_i64(doc)
                .map(|v| {
                    let (lat, lon) = geo::unpack_encoded(v);
                    geohash::cell(lat, lon, precision)
                })
                .collect();
            own.sort_unstable();
            own.dedup();
            for c in own {
                cells.entry(c).or_default().push(doc);
            }
        }
        let mut ranked: Vec<(i64, u64)> = cells.iter().map(|(c, ds)| (*c, ds.len() as u64)).collect();
        ranked.sort_by(cell_order);
        ranked.truncate(shard_size);
        for (c, _) in ranked {
            let entry = merged.entry(c).or_insert_with(|| vec![DocSet::new(); docs.len()]);
            entry[t] = DocSet::from_docs(cells.remove(&c).unwrap_or_default());
        }
    }
    let mut ranked: Vec<(i64, u64)> = merged.iter().map(|(c, sets)| (*c, total(sets))).collect();
    ranked.sort_by(cell_order);
    ranked.truncate(size);
    ctx.add_buckets(&node.name, ranked.len())?;
    let mut buckets = Vec::with_capacity(ranked.len());
    for (c, count) in ranked {
        let sets = merged.remove(&c).unwrap_or_default();
        let key = BucketKey::Term { key: KeyValue::Str(geohash::cell_string(c)), as_string: None };
        buckets.push(Bucket { key, doc_count: count, significance: None, subs: run_all(ctx, &node.subs, &sets)? });
    }
    Ok(("geohash_grid", AggBody::Buckets(BucketList { head: ListHead::Plain, buckets, keyed: false })))
}

/// `geo_bounds` (`GeoBoundsAggregator` and `InternalGeoBounds`): the box of the points,
/// crossing the dateline when that is narrower and `wrap_longitude` allows it.
fn bounds(values: &[Option<Arc<NumericDocValues>>], docs: &[DocSet], wrap_longitude: bool) -> AggBody {
    let (mut top, mut bottom) = (f64::NEG_INFINITY, f64::INFINITY);
    let (mut pos_left, mut pos_right) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut neg_left, mut neg_right) = (f64::INFINITY, f64::NEG_INFINITY);
    each_point(values, docs, |_, _, p| {
        top = top.max(p.lat);
        bottom = bottom.min(p.lat);
        if p.lon >= 0.0 {
            pos_left = pos_left.min(p.lon);
            pos_right = pos_right.max(p.lon);
        } else {
            neg_left = neg_left.min(p.lon);
            neg_right = neg_right.max(p.lon);
        }
    });
    if top.is_infinite() {
        return AggBody::GeoBounds(None);
    }
    let (left, right) = if pos_left.is_infinite() {
        (neg_left, neg_right)
    } else if neg_left.is_infinite() {
        (pos_left, pos_right)
    } else if wrap_longitude {
        let unwrapped = pos_right - neg_left;
        let wrapped = (180.0 - pos_left) - (-180.0 - neg_right);
        if unwrapped <= wrapped {
            (neg_left, pos_right)
        } else {
            (pos_left, neg_right)
        }
    } else {
        (neg_left, pos_right)
    };
    AggBody::GeoBounds(Some((top, left, bottom, right)))
}

/// Kahan's compensated sum, as ES's centroid sums coordinates.
#[derive(Default, Clone, Copy)]
struct Compensated {
    sum: f64,
    compensation: f64,
}

impl Compensated {
    fn add(&mut self, v: f64) {
        if !v.is_finite() {
            self.sum += v;
            return;
        }
        let corrected = v - self.compensation;
        let next = self.sum + corrected;
        self.compensation = (next - self.sum) - corrected;
        self.sum = next;
    }
}

/// `geo_centroid`: each index's mean of its points' coordinates (compensated sums),
/// then the count-weighted mean of those, as `InternalGeoCentroid.doReduce` combines
/// shards.
fn centroid(values: &[Option<Arc<NumericDocValues>>], docs: &[DocSet]) -> AggBody {
    let mut per_target = vec![(Compensated::default(), Compensated::default(), 0u64); docs.len()];
    each_point(values, docs, |t, _, p| {
        let (lat, lon, n) = &mut per_target[t];
        lat.add(p.lat);
        lon.add(p.lon);
        *n += 1;
    });
    let (mut lat_sum, mut lon_sum, mut count) = (f64::NAN, f64::NAN, 0u64);
    for (lat, lon, n) in per_target {
        if n == 0 {
            continue;
        }
        let (c_lat, c_lon) = (lat.sum / n as f64, lon.sum / n as f64);
        count += n;
        if lat_sum.is_nan() {
            lat_sum = n as f64 * c_lat;
            lon_sum = n as f64 * c_lon;
        } else {
            lat_sum += n as f64 * c_lat;
            lon_sum += n as f64 * c_lon;
        }
    }
    if count == 0 {
        return AggBody::GeoCentroid { location: None, count: 0 };
    }
    AggBody::GeoCentroid { location: Some((lat_sum / count as f64, lon_sum / count as f64)), count }
}
