//! `geo_distance`, `geo_bounding_box` and `geo_polygon` as ES 6.8 builds them
//! (coordinates checked or folded per `validation_method`) and as Lucene's `LatLonPoint`
//! queries decide them, on the quantized points: a circle by the sloppy haversine sort
//! key, a box on the encoded coordinates (its lower bounds rounded up), a polygon by
//! crossings on the decoded points.

use super::{geo_field, shard_error};
use crate::error::{Error, Exception, Result};
use crate::geo::distance::DistanceMatcher;
use crate::geo::{self, GeoPoint};
use crate::index::DocSet;
use crate::query::geo::{GeoQuery, GeoShape, GeoValidation};
use crate::search::context::{query_shard_error, Executor};
use crate::search::weight::{ConstExplain, Weight};

fn java(v: f64) -> String {
    crate::json_value::java_double(v)
}

/// Lucene's own checks of what it is given (`GeoUtils.checkLatitude` / `Longitude`):
/// an `IllegalArgumentException` ES reports as a failure to create the query.
fn lucene_check(p: GeoPoint) -> Result<()> {
    if !geo::valid_lat(p.lat) {
        return Err(query_shard_error(format!("invalid latitude {}; must be between -90.0 and 90.0", java(p.lat))));
    }
    if !geo::valid_lon(p.lon) {
        return Err(query_shard_error(format!("invalid longitude {}; must be between -180.0 and 180.0", java(p.lon))));
    }
    Ok(())
}

/// The constant-score weight of a geo query on one index.
pub fn compile<'a>(ex: &Executor<'a>, q: &GeoQuery, boost: f32) -> Result<Weight<'a>> {
    let Some(fm) = geo_field(ex, &q.field, q.ignore_unmapped)? else {
        return Ok(Weight::none());
    };
    let field = &fm.path;
    let (docs, printed) = match &q.shape {
        GeoShape::Distance { center, meters } => {
            let center = checked_point(ex, *center, q.validation, "geo_distance")?;
            lucene_check(center)?;
            let printed = format!("{field}:{},{} +/- {} meters", java(center.lat), java(center.lon), java(*meters));
            (distance_docs(ex, field, center, *meters)?, printed)
        }
        GeoShape::BoundingBox { top_left, bottom_right } => {
            let (tl, br) = checked_box(ex, *top_left, *bottom_right, q.validation)?;
            lucene_check(tl)?;
            lucene_check(br)?;
            let printed = box_string(field, br.lat, tl.lat, tl.lon, br.lon);
            (box_docs(ex, field, br.lat, tl.lat, tl.lon, br.lon)?, printed)
        }
        GeoShape::Polygon(ring) => {
            let ring =
                ring.iter().map(|p| checked_point(ex, *p, q.validation, "geo_polygon")).collect::<Result<Vec<_>>>()?;
            for p in &ring {
                lucene_check(*p)?;
            }
            // Lucene's `Polygon.toString` in `Arrays.toString` of the query's polygons.
            let vertices: String = ring.iter().map(|p| format!("[{}, {}] ", java(p.lat), java(p.lon))).collect();
            (polygon_docs(ex, field, &ring)?, format!("{field}:[{vertices}]"))
        }
    };
    let w = Weight::constant(docs, boost * q.boost);
    // Explanations print Lucene's string of the query ES builds.
    Ok(if ex.explain {
        w.described(true, || ConstExplain::Query(printed.clone())).with_query_string(printed)
    } else {
        w
    })
}

/// Lucene's string of `LatLonPoint.newBoxQuery`: a point range over the encoded
/// bounds (decoded), two of them in a constant-score boolean when the box crosses the
/// dateline.
fn box_string(field: &str, min_lat: f64, max_lat: f64, min_lon: f64, max_lon: f64) -> String {
    let lat = format!(
        "[{} TO {}]",
        java(geo::decode_lat(geo::encode_lat_ceil(min_lat))),
        java(geo::decode_lat(geo::encode_lat(max_lat)))
    );
    let range =
        |lo: i32, hi: i32| format!("{field}:{lat},[{} TO {}]", java(geo::decode_lon(lo)), java(geo::decode_lon(hi)));
    let min_lon = if min_lon == 180.0 && max_lon < min_lon { -180.0 } else { min_lon };
    let (lo, hi) = (geo::encode_lon_ceil(min_lon), geo::encode_lon(max_lon));
    if max_lon < min_lon {
        format!("ConstantScore({} {})", range(i32::MIN, hi), range(lo, i32::MAX))
    } else {
        range(lo, hi)
    }
}

/// A center or vertex as the builders take it: refused out of range unless malformed
/// values are ignored, folded into range with `coerce`.
fn checked_point(ex: &Executor<'_>, p: GeoPoint, validation: GeoValidation, name: &str) -> Result<GeoPoint> {
    if !validation.ignores_malformed() {
        if !geo::valid_lat(p.lat) {
            return Err(shard_error(ex, format!("illegal latitude value [{}] for [{name}]", java(p.lat))));
        }
        if !geo::valid_lon(p.lon) {
            return Err(shard_error(ex, format!("illegal longitude value [{}] for [{name}]", java(p.lon))));
        }
    }
    Ok(if validation == GeoValidation::Coerce { geo::normalize(p, true, true) } else { p })
}

/// A box's corners as `GeoBoundingBoxQueryBuilder.doToQuery` takes them.
fn checked_box(
    ex: &Executor<'_>,
    tl: GeoPoint,
    br: GeoPoint,
    validation: GeoValidation,
) -> Result<(GeoPoint, GeoPoint)> {
    if !validation.ignores_malformed() {
        let mut errors = Vec::new();
        if !geo::valid_lat(tl.lat) {
            errors.push(format!("top latitude is invalid: {}", java(tl.lat)));
        }
        if !geo::valid_lon(tl.lon) {
            errors.push(format!("left longitude is invalid: {}", java(tl.lon)));
        }
        if !geo::valid_lat(br.lat) {
            errors.push(format!("bottom latitude is invalid: {}", java(br.lat)));
        }
        if !geo::valid_lon(br.lon) {
            errors.push(format!("right longitude is invalid: {}", java(br.lon)));
        }
        if !errors.is_empty() {
            let listed: String = errors.iter().enumerate().map(|(i, e)| format!("{}: {e};", i + 1)).collect();
            let meta = &ex.reader.meta;
            let e = Exception::new("query_shard_exception", "couldn't validate latitude/ longitude values")
                .with_meta("index_uuid", meta.uuid.as_str())
                .with_meta("index", meta.name.as_str())
                .caused_by(Exception::new(
                    "action_request_validation_exception",
                    format!("Validation Failed: {listed}"),
                ));
            return Err(Error::all_shards_failed(400, Some(&meta.name), e));
        }
    }
    if validation != GeoValidation::Coerce {
        return Ok((tl, br));
    }
    // A box spanning whole turns of longitude is every longitude.
    let complete = (br.lon - tl.lon) % 360.0 == 0.0 && br.lon > tl.lon;
    let mut tl = geo::normalize(tl, true, !complete);
    let mut br = geo::normalize(br, true, !complete);
    if complete {
        tl.lon = -180.0;
        br.lon = 180.0;
    }
    Ok((tl, br))
}

/// The documents with a point in `lo..=hi` of the packed order (one band of latitudes)
/// that `keep` accepts.
fn band_docs(
    ex: &Executor<'_>,
    field: &str,
    lat_lo: i32,
    lat_hi: i32,
    mut keep: impl FnMut(i32, i32) -> bool,
) -> Result<DocSet> {
    let Some(points) = ex.reader.points(ex.snap, field)? else { return Ok(DocSet::new()) };
    // Within one latitude the longitude is the low half, unsigned: 0 to all ones.
    let (lo, hi) = (geo::pack_encoded(lat_lo, 0), geo::pack_encoded(lat_hi, -1));
    let mut docs = Vec::new();
    points.scan_i64(lo, hi, |v, doc| {
        let (lat, lon) = geo::unpack_encoded(v);
        if keep(lat, lon) {
            docs.push(doc);
        }
    });
    docs.sort_unstable();
    docs.dedup();
    Ok(DocSet::from_docs(docs))
}

/// `LatLonPoint.newDistanceQuery`.
fn distance_docs(ex: &Executor<'_>, field: &str, center: GeoPoint, meters: f64) -> Result<DocSet> {
    let m = DistanceMatcher::new(center, meters);
    band_docs(ex, field, m.lat_band.0, m.lat_band.1, |lat, lon| m.matches(lat, lon))
}

/// `LatLonPoint.newBoxQuery`: latitudes and longitudes compared encoded, the lower
/// bounds rounded up to a cell; a box whose left is east of its right crosses the
/// dateline.
fn box_docs(ex: &Executor<'_>, field: &str, min_lat: f64, max_lat: f64, min_lon: f64, max_lon: f64) -> Result<DocSet> {
    let mut min_lon = min_lon;
    if min_lat == 90.0 {
        return Ok(DocSet::new());
    }
    if min_lon == 180.0 {
        if max_lon == 180.0 {
            return Ok(DocSet::new());
        }
        if max_lon < min_lon {
            min_lon = -180.0;
        }
    }
    let (lat_lo, lat_hi) = (geo::encode_lat_ceil(min_lat), geo::encode_lat(max_lat));
    if lat_lo > lat_hi {
        return Ok(DocSet::new());
    }
    let (lon_lo, lon_hi) = (geo::encode_lon_ceil(min_lon), geo::encode_lon(max_lon));
    let crosses = max_lon < min_lon;
    band_docs(ex, field, lat_lo, lat_hi, |_, lon| {
        if crosses {
            lon >= lon_lo || lon <= lon_hi
        } else {
            lon >= lon_lo && lon <= lon_hi
        }
    })
}

/// `LatLonPoint.newPolygonQuery`: Lucene's `Polygon2D.contains` on the decoded point
/// (the polygon's bounding box, then crossings over its edges).
fn polygon_docs(ex: &Executor<'_>, field: &str, ring: &[GeoPoint]) -> Result<DocSet> {
    let fold = |f: fn(f64, f64) -> f64, init: f64, get: fn(&GeoPoint) -> f64| ring.iter().map(get).fold(init, f);
    let (min_lat, max_lat) = (fold(f64::min, f64::INFINITY, |p| p.lat), fold(f64::max, f64::NEG_INFINITY, |p| p.lat));
    let (min_lon, max_lon) = (fold(f64::min, f64::INFINITY, |p| p.lon), fold(f64::max, f64::NEG_INFINITY, |p| p.lon));
    let (lat_lo, lat_hi) = (geo::encode_lat(min_lat), geo::encode_lat(max_lat).saturating_add(1));
    band_docs(ex, field, lat_lo, lat_hi, |lat, lon| {
        let (lat, lon) = (geo::decode_lat(lat), geo::decode_lon(lon));
        if lat < min_lat || lat > max_lat || lon < min_lon || lon > max_lon {
            return false;
        }
        crosses_odd(ring, lat, lon)
    })
}

/// The crossings test of Lucene's `Polygon2D` (W. R. Franklin's pnpoly), with its
/// edges from each vertex to the next and its arithmetic order.
fn crosses_odd(ring: &[GeoPoint], lat: f64, lon: f64) -> bool {
    let mut inside = false;
    for edge in ring.windows(2) {
        let (lat1, lon1, lat2, lon2) = (edge[0].lat, edge[0].lon, edge[1].lat, edge[1].lon);
        if (lat1 > lat) != (lat2 > lat) && lon < (lon1 - lon2) * (lat - lat2) / (lat1 - lat2) + lon2 {
            inside = !inside;
        }
    }
    inside
}
