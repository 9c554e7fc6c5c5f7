//! `geo_point` fields as ES 6.8 maps, loads and searches them, through the gateway:
//! every input form and its errors, `_mapping` and `_field_caps`, and the geo queries
//! decided as Lucene's `LatLonPoint` queries decide them.

mod common;

use common::mapped_index::{index, load_error, mapped, Index};
use serde_json::{json, Value};

/// Cities, each in another input form.
fn cities() -> Index {
    index(
        "geo_cities",
        mapped(json!({"name": {"type": "keyword"}, "location": {"type": "geo_point"}})),
        &[
            ("paris", json!({"name": "Paris", "location": {"lat": 48.8566, "lon": 2.3522}})),
            ("london", json!({"name": "London", "location": "51.5074,-0.1278"})),
            ("berlin", json!({"name": "Berlin", "location": [13.405, 52.52]})),
            ("madrid", json!({"name": "Madrid", "location": "POINT (-3.7038 40.4168)"})),
            ("new_york", json!({"name": "New York", "location": "dr5regw3pg6f"})),
            ("sydney", json!({"name": "Sydney", "location": {"lat": "-33.8688", "lon": "151.2093"}})),
            ("suva", json!({"name": "Suva", "location": [178.4415, -18.1416, 12.0]})),
            ("tonga", json!({"name": "Nukuʻalofa", "location": [[-175.2018, -21.1394]]})),
            ("nowhere", json!({"name": "Nowhere"})),
        ],
    )
}

#[test]
fn every_input_form_loads() {
    let ix = cities();
    assert!(ix.report.errors.is_empty(), "{:?}", ix.report.errors);
    assert_eq!(
        ix.ids(json!({"exists": {"field": "location"}})),
        vec!["berlin", "london", "madrid", "new_york", "paris", "suva", "sydney", "tonga"]
    );
}

#[test]
fn geo_distance_matches_within_the_radius() {
    let ix = cities();
    // Paris–London is 343.5 km by Lucene's haversine.
    let near = |d: &str| ix.ids(json!({"geo_distance": {"distance": d, "location": {"lat": 48.8566, "lon": 2.3522}}}));
    assert_eq!(near("343km"), vec!["paris"]);
    assert_eq!(near("344km"), vec!["london", "paris"]);
    assert_eq!(near("900km"), vec!["berlin", "london", "paris"]);
    // Every form of the center, and units.
    assert_eq!(
        ix.ids(json!({"geo_distance": {"distance": "214mi", "location": "48.8566,2.3522"}})),
        vec!["london", "paris"]
    );
    assert_eq!(
        ix.ids(json!({"geo_distance": {"distance": 344000, "location": [2.3522, 48.8566]}})),
        vec!["london", "paris"]
    );
    assert_eq!(
        ix.ids(json!({"geo_distance": {"distance": 344, "unit": "km", "location": "u09tvw0f6szy"}})),
        vec!["london", "paris"]
    );
    // Across the dateline.
    assert_eq!(
        ix.ids(json!({"geo_distance": {"distance": "1000km", "location": {"lat": -20, "lon": 180}}})),
        vec!["suva", "tonga"]
    );
}

#[test]
fn geo_bounding_box_in_every_form() {
    let ix = cities();
    let europe = vec!["berlin", "london", "madrid", "paris"];
    assert_eq!(
        ix.ids(json!({"geo_bounding_box": {"location": {"top_left": {"lat": 60, "lon": -10}, "bottom_right": {"lat": 35, "lon": 20}}}})),
        europe
    );
    assert_eq!(
        ix.ids(json!({"geo_bounding_box": {"location": {"top": 60, "left": -10, "bottom": 35, "right": 20}}})),
        europe
    );
    assert_eq!(ix.ids(json!({"geo_bounding_box": {"location": {"wkt": "BBOX (-10, 20, 60, 35)"}}})), europe);
    assert_eq!(
        ix.ids(json!({"geo_bounding_box": {"location": {"top_left": [-10, 60], "bottom_right": "35,20"}}})),
        europe
    );
    // Geohash corners stand for their cells' corners: "u" is 45..90 N, 0..45 E.
    assert_eq!(
        ix.ids(json!({"geo_bounding_box": {"location": {"top_left": "u", "bottom_right": "u"}}})),
        vec!["berlin", "paris"]
    );
    // Left east of right: the box crosses the dateline.
    assert_eq!(
        ix.ids(json!({"geo_bounding_box": {"location": {"top": -10, "left": 170, "bottom": -30, "right": -170}}})),
        vec!["suva", "tonga"]
    );
}

#[test]
fn geo_polygon_matches_inside_the_ring() {
    let ix = cities();
    let ring = json!([{"lat": 55, "lon": -5}, {"lat": 55, "lon": 15}, {"lat": 45, "lon": 15}, {"lat": 45, "lon": -5}]);
    assert_eq!(ix.ids(json!({"geo_polygon": {"location": {"points": ring}}})), vec!["berlin", "london", "paris"]);
    let (status, kind, reason) =
        ix.refused(json!({"query": {"geo_polygon": {"location": {"points": [[0, 0], [1, 1]]}}}}));
    assert_eq!(
        (status, kind.as_str(), reason.as_str()),
        (400, "illegal_argument_exception", "too few points defined for geo_polygon query")
    );
}

#[test]
fn malformed_points_are_bad_lines_unless_ignored() {
    let docs = [
        ("lat", json!({"p": {"lat": 91, "lon": 0}})),
        ("lon", json!({"p": "0,181"})),
        ("missing", json!({"p": {"lat": 1}})),
        ("key", json!({"p": {"lat": 1, "lon": 2, "alt": 3}})),
        ("text", json!({"p": "here,there"})),
        ("number", json!({"p": 12})),
        ("wkt", json!({"p": "LINESTRING (1 2, 3 4) point"})),
        ("z", json!({"p": [1, 2, 3]})),
        ("ok", json!({"p": "1,2"})),
    ];
    let strict = index("geo_strict", mapped(json!({"p": {"type": "geo_point", "ignore_z_value": false}})), &docs);
    let reasons: Vec<&str> = strict.report.errors.iter().map(|e| e.reason.as_str()).collect();
    assert_eq!(
        reasons,
        vec![
            "[mapper_parsing_exception] failed to parse: [illegal_argument_exception] illegal latitude value [91.0] for p",
            "[mapper_parsing_exception] failed to parse: [illegal_argument_exception] illegal longitude value [181.0] for p",
            "[mapper_parsing_exception] failed to parse: [parse_exception] field [lon] missing",
            "[mapper_parsing_exception] failed to parse: [parse_exception] field must be either [lat], [lon] or [geohash]",
            "[mapper_parsing_exception] failed to parse: [parse_exception] latitude must be a number",
            "[mapper_parsing_exception] failed to parse: [parse_exception] geo_point expected",
            "[mapper_parsing_exception] failed to parse: [parse_exception] [geo_point] supports only POINT among WKT primitives, but found LINESTRING",
            "[mapper_parsing_exception] failed to parse: [parse_exception] Exception parsing coordinates: found Z value [3.0] but [ignore_z_value] parameter is [false]",
        ]
    );
    // ignore_malformed skips malformed points (the document loads without them) and
    // folds coordinates out of range back in.
    let lenient = index("geo_lenient", mapped(json!({"p": {"type": "geo_point", "ignore_malformed": true}})), &docs);
    assert!(lenient.report.errors.is_empty(), "{:?}", lenient.report.errors);
    assert_eq!(lenient.ids(json!({"exists": {"field": "p"}})), vec!["lat", "lon", "ok", "z"]);
    // 91°N folds to 89°N on the other side of the pole; 181°E is 179°W (as Lucene's
    // GeoEncodingUtils quantizes them).
    let v = lenient
        .search(json!({"query": {"ids": {"values": ["lat", "lon"]}}, "sort": ["_id"], "docvalue_fields": ["p"]}));
    let points: Vec<&Value> = v["hits"]["hits"].as_array().unwrap().iter().map(|h| &h["fields"]["p"][0]).collect();
    assert_eq!(
        points,
        vec![
            &json!({"lat": 88.99999997578561, "lon": 179.99999991618097}),
            &json!({"lat": 0.0, "lon": -179.00000005960464})
        ]
    );
}

#[test]
fn mapping_and_field_caps_as_es() {
    let ix = index(
        "geo_mapping",
        mapped(json!({
            "a": {"type": "geo_point"},
            "b": {"type": "geo_point", "ignore_malformed": true, "ignore_z_value": false, "null_value": "91,1"},
            "c": {"type": "geo_point", "null_value": {"lat": 1, "lon": 2}}
        })),
        &[("1", json!({"c": null})), ("2", json!({"a": null}))],
    );
    assert_eq!(
        ix.mapping()["properties"],
        json!({
            "a": {"type": "geo_point"},
            "b": {"type": "geo_point", "ignore_malformed": true, "ignore_z_value": false, "null_value": {"lat": 89.0, "lon": -179.0}},
            "c": {"type": "geo_point", "null_value": {"lat": 1.0, "lon": 2.0}}
        })
    );
    // An explicit null indexes the null value.
    assert_eq!(ix.ids(json!({"exists": {"field": "c"}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"exists": {"field": "a"}})), Vec::<String>::new());
    let (_, caps) = ix.send("GET", "/test/_field_caps?fields=a", Value::Null);
    assert_eq!(
        caps["fields"]["a"],
        json!({"geo_point": {"type": "geo_point", "searchable": true, "aggregatable": true}})
    );
    assert_eq!(
        load_error(mapped(json!({"g": {"type": "geo_point", "null_value": "91,1"}}))),
        "[mapper_parsing_exception] illegal latitude value [91.0]"
    );
    assert_eq!(
        load_error(mapped(json!({"g": {"type": "geo_point", "precision": "1m"}}))),
        "[mapper_parsing_exception] Mapping definition for [g] has unsupported parameters:  [precision : 1m]"
    );
}

#[test]
fn other_queries_on_a_geo_point_answer_es_errors() {
    let ix = cities();
    assert_eq!(
        ix.refused(json!({"query": {"term": {"location": "1,2"}}})),
        (
            400,
            "query_shard_exception".into(),
            "failed to create query: Geo fields do not support exact searching, use dedicated geo queries instead: [location]".into()
        )
    );
    assert_eq!(
        ix.refused(json!({"query": {"range": {"location": {"gte": 1}}}})).2,
        "Field [location] of type [geo_point] does not support range queries"
    );
    assert_eq!(
        ix.refused(json!({"sort": ["location"]})).2,
        "can't sort on geo_point field without using specific sorting feature, like geo_distance"
    );
    let unmapped = json!({"geo_distance": {"distance": "1km", "nothere": [0, 0]}});
    assert_eq!(ix.refused(json!({"query": unmapped})).2, "failed to find geo_point field [nothere]");
    assert_eq!(
        ix.ids(json!({"geo_distance": {"distance": "1km", "nothere": [0, 0], "ignore_unmapped": true}})),
        Vec::<String>::new()
    );
    assert_eq!(
        ix.refused(json!({"query": {"geo_distance": {"distance": "1km", "name": [0, 0]}}})).2,
        "field [name] is not a geo_point field"
    );
    assert_eq!(
        ix.refused(json!({"query": {"geo_distance": {"distance": "1km", "location": [0, 100]}}})).2,
        "illegal latitude value [100.0] for [geo_distance]"
    );
    // coerce folds the center; ignore_malformed hands it to Lucene, which refuses it.
    assert_eq!(
        ix.ids(json!({"geo_distance": {"distance": "400km", "location": [362.3522, 48.8566], "validation_method": "coerce"}})),
        vec!["london", "paris"]
    );
    assert_eq!(
        ix.refused(json!({"query": {"geo_distance": {"distance": "0km", "location": [0, 0]}}})).2,
        "distance must be greater than zero"
    );
    assert_eq!(
        ix.refused(json!({"query": {"geo_distance": {"location": [0, 0]}}})).2,
        "geo_distance requires 'distance' to be specified"
    );
    assert_eq!(
        ix.refused(
            json!({"query": {"geo_bounding_box": {"location": {"top": 10, "left": 0, "bottom": 20, "right": 5}}}})
        )
        .2,
        "top is below bottom corner: 10.0 vs. 20.0"
    );
    // The validation failure is no ES exception: the shard's exception is the root cause.
    let bad_box =
        json!({"query": {"geo_bounding_box": {"location": {"top": 100, "left": 0, "bottom": 20, "right": 5}}}});
    assert_eq!(
        ix.refused(bad_box.clone()),
        (400, "query_shard_exception".into(), "couldn't validate latitude/ longitude values".into())
    );
    let (_, v) = ix.send("POST", "/test/_search", bad_box);
    assert_eq!(
        v["error"]["failed_shards"][0]["reason"]["caused_by"],
        json!({"type": "action_request_validation_exception", "reason": "Validation Failed: 1: top latitude is invalid: 100.0;"})
    );
}

/// The `_id`s and sort values of a sorted search.
fn sorted(ix: &Index, sort: Value) -> Vec<(String, Value)> {
    let v = ix.search(json!({"sort": sort, "size": 20, "_source": false}));
    v["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["_id"].as_str().unwrap().to_string(), h["sort"][0].clone()))
        .collect()
}

#[test]
fn geo_distance_sort_values_are_es() {
    let ix = cities();
    // Distances from Paris in km, as Lucene's haversine gives them from the stored
    // (quantized) points (values from Lucene 8.7's SloppyMath).
    let by_distance =
        sorted(&ix, json!([{"_geo_distance": {"location": {"lat": 48.8566, "lon": 2.3522}, "unit": "km"}}]));
    assert_eq!(by_distance[0], ("paris".into(), json!(0.0)));
    assert_eq!(by_distance[1], ("london".into(), json!(343.55653472410233)));
    assert_eq!(by_distance[2], ("berlin".into(), json!(877.4645311556541)));
    assert_eq!(by_distance[3], ("madrid".into(), json!(1052.8937002921612)));
    // A document without a point sorts as +Infinity, which Jackson writes quoted.
    assert_eq!(by_distance.last().unwrap(), &("nowhere".to_string(), json!("Infinity")));
    let desc = sorted(&ix, json!([{"_geo_distance": {"location": "48.8566,2.3522", "order": "desc", "unit": "km"}}]));
    assert_eq!(desc[0].0, "nowhere");
    assert_eq!(desc.last().unwrap(), &("paris".to_string(), json!(0.0)));
    let plane = sorted(
        &ix,
        json!([{"_geo_distance": {"location": [2.3522, 48.8566], "unit": "km", "distance_type": "plane"}}]),
    );
    assert_eq!(plane[2], ("berlin".into(), json!(878.7493559018927)));
    // Several points: the least distance to any of them (Berlin's own point is one).
    let two = sorted(&ix, json!([{"_geo_distance": {"location": [[2.3522, 48.8566], [13.405, 52.52]], "unit": "km"}}]));
    assert_eq!(two[0].1, json!(0.0));
    assert_eq!(two[1].1, json!(0.0));
    let (status, kind, reason) = ix.refused(json!({"sort": [{"_geo_distance": {"nothere": [0, 0]}}]}));
    assert_eq!(
        (status, kind.as_str(), reason.as_str()),
        (400, "illegal_argument_exception", "failed to find mapper for [nothere] for geo distance based sort")
    );
    let unmapped = sorted(&ix, json!([{"_geo_distance": {"nothere": [0, 0], "ignore_unmapped": true}}, "_id"]));
    assert_eq!(unmapped[0], ("berlin".into(), json!("Infinity")));
    assert_eq!(
        ix.refused(json!({"sort": [{"_geo_distance": {"location": [0, 0], "mode": "sum"}}]})).2,
        "sort_mode [sum] isn't supported for sorting by geo distance"
    );
    assert_eq!(
        ix.refused(json!({"sort": [{"_geo_distance": {"location": [0, 0], "unit": "parsec"}}]})).2,
        "No distance unit match [parsec]"
    );
    assert_eq!(
        ix.refused(json!({"sort": [{"_geo_distance": {"location": [0, 100]}}]})).2,
        "illegal latitude value [100.0] for [GeoDistanceSort] for field [location]."
    );
}

/// The museums of ES's REST tests and aggregation docs (Amsterdam, Antwerp, Paris).
fn museums() -> Index {
    let points = [
        "52.374081,4.912350",
        "52.369219,4.901618",
        "52.371667,4.914722",
        "51.222900,4.405200",
        "48.861111,2.336389",
        "48.860000,2.327000",
    ];
    let docs: Vec<(String, Value)> =
        points.iter().enumerate().map(|(i, p)| ((i + 1).to_string(), json!({"location": p, "rank": i + 1}))).collect();
    let docs: Vec<(&str, Value)> = docs.iter().map(|(id, d)| (id.as_str(), d.clone())).collect();
    index("geo_museums", mapped(json!({"location": {"type": "geo_point"}, "rank": {"type": "integer"}})), &docs)
}

#[test]
fn geohash_grid_as_the_rest_test() {
    let ix = museums();
    // search.aggregation/280_geohash_grid.yml.
    let v = ix.search(json!({"size": 0, "aggs": {"grid": {"geohash_grid": {"field": "location", "precision": 3}}}}));
    assert_eq!(
        v["aggregations"]["grid"],
        json!({"buckets": [{"key": "u17", "doc_count": 3}, {"key": "u09", "doc_count": 2}, {"key": "u15", "doc_count": 1}]})
    );
    // Sub-aggregations per cell, `size`, and a precision given as a distance.
    let (_, v) = ix.send(
        "POST",
        "/test/_search?typed_keys=true",
        json!({"size": 0, "aggs": {"grid": {
            "geohash_grid": {"field": "location", "precision": "500km", "size": 1},
            "aggs": {"top": {"max": {"field": "rank"}}}
        }}}),
    );
    assert_eq!(
        v["aggregations"]["geohash_grid#grid"],
        // ES's GeoUtils.geoHashLevelsForPrecision makes 500 km level 4.
        json!({"buckets": [{"key": "u173", "doc_count": 3, "max#top": {"value": 3.0}}]})
    );
    assert_eq!(
        ix.refused(json!({"aggs": {"grid": {"geohash_grid": {"field": "location", "precision": 13}}}})).2,
        "Invalid geohash aggregation precision of 13. Must be between 1 and 12."
    );
}

#[test]
fn geo_distance_aggregation_as_the_rest_test() {
    let ix = index(
        "geo_us",
        mapped(json!({"location": {"type": "geo_point"}})),
        &[
            ("ny", json!({"location": {"lat": 40.7128, "lon": -74.0060}})),
            ("la", json!({"location": {"lat": 34.0522, "lon": -118.2437}})),
            ("chicago", json!({"location": {"lat": 41.8781, "lon": -87.6298}})),
        ],
    );
    // search.aggregation/340_geo_distance.yml.
    let ranges = json!([{"to": 1000000}, {"from": 1000000, "to": 5000000}, {"from": 5000000}]);
    let v = ix.search(json!({"size": 0, "aggs": {"distance": {"geo_distance": {
        "field": "location", "origin": "35.7796, -78.6382", "ranges": ranges
    }}}}));
    assert_eq!(
        v["aggregations"]["distance"],
        json!({"buckets": [
            {"key": "*-1000000.0", "to": 1000000.0, "doc_count": 1},
            {"key": "1000000.0-5000000.0", "from": 1000000.0, "to": 5000000.0, "doc_count": 2},
            {"key": "5000000.0-*", "from": 5000000.0, "doc_count": 0}
        ]})
    );
    let v = ix.search(json!({"size": 0, "aggs": {"distance": {"geo_distance": {
        "field": "location", "origin": [-78.6382, 35.7796], "unit": "km", "distance_type": "plane", "keyed": true,
        "ranges": [{"to": 1000, "key": "near"}, {"from": 1000}]
    }}}}));
    assert_eq!(
        v["aggregations"]["distance"],
        json!({"buckets": {
            "near": {"to": 1000.0, "doc_count": 1},
            "1000.0-*": {"from": 1000.0, "doc_count": 2}
        }})
    );
}

#[test]
fn geo_bounds_and_centroid_as_es() {
    let ix = museums();
    // The numbers of ES's geo_bounds and geo_centroid documentation for these points.
    let v = ix.search(json!({"size": 0, "aggs": {
        "box": {"geo_bounds": {"field": "location", "wrap_longitude": true}},
        "centre": {"geo_centroid": {"field": "location"}}
    }}));
    assert_eq!(
        v["aggregations"]["box"],
        json!({"bounds": {
            "top_left": {"lat": 52.374080987647176, "lon": 2.3269999679178},
            "bottom_right": {"lat": 48.85999997612089, "lon": 4.91472196765244}
        }})
    );
    assert_eq!(
        v["aggregations"]["centre"],
        json!({"location": {"lat": 51.00982965203002, "lon": 3.9662131341174245}, "count": 6})
    );
    // Nothing matched: no bounds, a count of 0.
    let v = ix.search(json!({"size": 0, "query": {"match_none": {}}, "aggs": {
        "box": {"geo_bounds": {"field": "location"}},
        "centre": {"geo_centroid": {"field": "location"}}
    }}));
    assert_eq!(v["aggregations"], json!({"box": {}, "centre": {"count": 0}}));
    // Points on both sides of the dateline: the narrower box crosses it.
    let pacific = index(
        "geo_pacific",
        mapped(json!({"p": {"type": "geo_point"}})),
        &[("1", json!({"p": [179, 0]})), ("2", json!({"p": [-179, 1]}))],
    );
    let v = pacific.search(json!({"size": 0, "aggs": {
        "wrapped": {"geo_bounds": {"field": "p"}},
        "flat": {"geo_bounds": {"field": "p", "wrap_longitude": false}}
    }}));
    assert_eq!(v["aggregations"]["wrapped"]["bounds"]["top_left"]["lon"], json!(178.9999999757856));
    assert_eq!(v["aggregations"]["flat"]["bounds"]["top_left"]["lon"], json!(-179.00000005960464));
    assert_eq!(
        ix.refused(json!({"aggs": {"c": {"geo_centroid": {"field": "rank"}}}})).2,
        "Expected geo_point type on field [rank], but got [integer]"
    );
    assert_eq!(
        ix.refused(json!({"aggs": {"a": {"avg": {"field": "location"}}}})).2,
        "Expected numeric type on field [location], but got [geo_point]"
    );
}

/// Lucene's answers to geo queries over `points` (tests/lucene/LuceneGeo.java).
fn lucene_geo(points: &[(f64, f64)], queries: &[String]) -> Vec<String> {
    let mut input: String = points.iter().map(|(lat, lon)| format!("P {lat:?} {lon:?}\n")).collect();
    input.extend(queries.iter().map(|q| format!("{q}\n")));
    common::lucene_analysis::java_oracle("LuceneGeo", "/usr/share/java/lucene-core-8.7.0.jar", input)
}

#[test]
fn queries_match_what_lucene_matches() {
    // Points clustered around a few centers (so circles and boxes cut through them) and
    // spread over the globe, dateline and poles included.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (x >> 11) as f64 / (1u64 << 53) as f64
    };
    let centers = [(48.8566, 2.3522), (-33.8688, 151.2093), (0.0, 179.9), (89.5, 0.0), (-18.0, -179.95)];
    let mut points = Vec::new();
    for i in 0..6000 {
        let p = if i % 3 == 0 {
            (next() * 180.0 - 90.0, next() * 360.0 - 180.0)
        } else {
            let (lat, lon) = centers[i % centers.len()];
            ((lat + (next() - 0.5) * 2.0).clamp(-90.0, 90.0), (lon + (next() - 0.5) * 2.0).clamp(-180.0, 180.0))
        };
        points.push(p);
    }
    let docs: Vec<(String, Value)> = points
        .iter()
        .enumerate()
        .map(|(i, (lat, lon))| (i.to_string(), json!({"n": i, "p": {"lat": lat, "lon": lon}})))
        .collect();
    let docs: Vec<(&str, Value)> = docs.iter().map(|(id, d)| (id.as_str(), d.clone())).collect();
    let ix = index("geo_oracle", mapped(json!({"n": {"type": "integer"}, "p": {"type": "geo_point"}})), &docs);
    let mut queries = Vec::new();
    let mut bodies = Vec::new();
    for (i, (lat, lon)) in centers.iter().enumerate() {
        for radius in [1_000.0, 25_000.0, 80_000.0 + i as f64 * 1234.5, 111_000.0, 2_000_000.0] {
            queries.push(format!("D {lat:?} {lon:?} {radius:?}"));
            bodies.push(json!({"geo_distance": {"distance": format!("{radius}m"), "p": {"lat": lat, "lon": lon}}}));
        }
        let (h, w) = (0.3 + i as f64 * 0.1, 0.4);
        let (min_lat, max_lat) = ((lat - h).max(-90.0), (lat + h).min(90.0));
        let (mut min_lon, mut max_lon) = (lon - w, lon + w);
        if max_lon > 180.0 {
            max_lon -= 360.0;
        }
        if min_lon < -180.0 {
            min_lon += 360.0;
        }
        queries.push(format!("B {min_lat:?} {max_lat:?} {min_lon:?} {max_lon:?}"));
        bodies.push(
            json!({"geo_bounding_box": {"p": {"top": max_lat, "left": min_lon, "bottom": min_lat, "right": max_lon}}}),
        );
    }
    let expected = lucene_geo(&points, &queries);
    assert_eq!(expected.len(), queries.len());
    // Most queries cut through a cluster: the comparison is over real matches.
    let matched: usize = expected.iter().map(|l| l.split_whitespace().count()).sum();
    assert!(expected.iter().filter(|l| !l.is_empty()).count() >= 25 && matched > 3000, "{matched}");
    for ((q, body), want) in queries.iter().zip(&bodies).zip(&expected) {
        let v =
            ix.search(json!({"query": body, "sort": ["n"], "size": 10000, "_source": false, "docvalue_fields": ["n"]}));
        let got: Vec<String> =
            v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["fields"]["n"][0].to_string()).collect();
        assert_eq!(got.join(" "), *want, "{q}");
    }
}

#[test]
fn explanations_print_lucenes_queries() {
    let ix = cities();
    let explain = |q: Value| {
        let v = ix.search(json!({"query": q, "explain": true, "size": 1}));
        v["hits"]["hits"][0]["_explanation"]["description"].as_str().unwrap_or_default().to_string()
    };
    assert_eq!(
        explain(json!({"geo_distance": {"distance": "10km", "location": [2.3522, 48.8566]}})),
        "location:48.8566,2.3522 +/- 10000.0 meters"
    );
    // The bounds as Lucene encodes them (lower bounds rounded up to a cell): Lucene 8.7's
    // strings of the same queries.
    assert_eq!(
        explain(json!({"geo_bounding_box": {"location": {"top": 49, "left": 2, "bottom": 48, "right": 3}}})),
        "location:[48.000000030733645 TO 48.999999971129],[2.000000048428774 TO 2.999999988824129]"
    );
    assert_eq!(
        explain(json!({"geo_bounding_box": {"location": {"top": -10, "left": 170, "bottom": -30, "right": -170}}})),
        "ConstantScore(location:[-29.999999972060323 TO -10.00000003259629],[-180.0 TO -170.00000000931323] location:[-29.999999972060323 TO -10.00000003259629],[170.00000000931323 TO 179.99999991618097])"
    );
}
