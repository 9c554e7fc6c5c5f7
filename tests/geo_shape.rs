//! `geo_shape` fields as ES 6.8 maps, loads and searches them, through the gateway: the
//! mapping parameters and their errors, GeoJSON and WKT values and their errors,
//! `ignore_malformed`, `exists`, `_mapping` and `_field_caps`.

mod common;

use common::mapped_index::{index, load_error, mapped, Index};
use serde_json::{json, Value};

/// One document per shape form, GeoJSON and WKT.
fn shapes() -> Index {
    index(
        "geo_shapes",
        mapped(json!({"name": {"type": "keyword"}, "area": {"type": "geo_shape"}})),
        &[
            ("point", json!({"area": {"type": "point", "coordinates": [2.35, 48.85]}})),
            ("line", json!({"area": {"type": "LineString", "coordinates": [[0, 0], [10, 10]]}})),
            (
                "holed",
                json!({"area": {"type": "polygon", "coordinates": [
                    [[20, 20], [30, 20], [30, 30], [20, 30], [20, 20]],
                    [[24, 24], [26, 24], [26, 26], [24, 26], [24, 24]]
                ]}}),
            ),
            ("multipoint", json!({"area": {"type": "multipoint", "coordinates": [[-50, -10], [-40, -10]]}})),
            (
                "multiline",
                json!({"area": {"type": "multilinestring", "coordinates": [[[-60, 5], [-55, 5]], [[-60, 7], [-55, 7]]]}}),
            ),
            (
                "multipolygon",
                json!({"area": {"type": "multipolygon", "coordinates": [
                    [[[100, 0], [101, 0], [101, 1], [100, 1], [100, 0]]],
                    [[[102, 2], [103, 2], [103, 3], [102, 3], [102, 2]]]
                ]}}),
            ),
            (
                "collection",
                json!({"area": {"type": "geometrycollection", "geometries": [
                    {"type": "point", "coordinates": [-120, 40]},
                    "LINESTRING (-121 41, -122 42)"
                ]}}),
            ),
            ("envelope", json!({"area": {"type": "envelope", "coordinates": [[-10, 60], [5, 50]]}})),
            ("circle", json!({"area": {"type": "circle", "coordinates": [140, -30], "radius": "100km"}})),
            ("wkt", json!({"area": "POLYGON ((60 -5, 70 -5, 70 5, 60 5, 60 -5))"})),
            ("bbox", json!({"area": "BBOX (150, 160, -40, -45)"})),
            ("two", json!({"area": [{"type": "point", "coordinates": [0, 80]}, "POINT (1 81)"]})),
            ("empty", json!({"area": "POINT EMPTY", "name": "no shape"})),
            ("null", json!({"area": null, "name": "no shape"})),
            ("none", json!({"name": "no shape"})),
        ],
    )
}

#[test]
fn every_shape_form_loads_and_exists() {
    let ix = shapes();
    assert!(ix.report.errors.is_empty(), "{:?}", ix.report.errors);
    assert_eq!(
        ix.ids(json!({"exists": {"field": "area"}})),
        vec![
            "bbox",
            "circle",
            "collection",
            "envelope",
            "holed",
            "line",
            "multiline",
            "multipoint",
            "multipolygon",
            "point",
            "two",
            "wkt"
        ]
    );
    // `_source` is the document as loaded.
    let v = ix.search(json!({"query": {"ids": {"values": ["wkt"]}}}));
    assert_eq!(v["hits"]["hits"][0]["_source"], json!({"area": "POLYGON ((60 -5, 70 -5, 70 5, 60 5, 60 -5))"}));
}

/// The reasons a load gives for each document of `docs` under `field_mapping`.
fn load_reasons(tag: &str, field_mapping: Value, docs: &[(&str, Value)]) -> (Index, Vec<String>) {
    let ix = index(tag, mapped(json!({"s": field_mapping})), docs);
    let reasons = ix.report.errors.iter().map(|e| e.reason.clone()).collect();
    (ix, reasons)
}

#[test]
fn malformed_shapes_answer_es_errors_unless_ignored() {
    let docs = [
        ("no_type", json!({"s": {"coordinates": [1, 2]}})),
        ("no_coordinates", json!({"s": {"type": "point"}})),
        ("unknown", json!({"s": {"type": "triangle", "coordinates": [1, 2]}})),
        ("short_line", json!({"s": {"type": "linestring", "coordinates": [[1, 2]]}})),
        ("open_ring", json!({"s": {"type": "polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}})),
        ("few_points", json!({"s": {"type": "polygon", "coordinates": [[[0, 0], [1, 0], [0, 0]]]}})),
        ("upside_down", json!({"s": {"type": "envelope", "coordinates": [[0, 0], [1, 5]]}})),
        ("far", json!({"s": {"type": "point", "coordinates": [0, 95]}})),
        ("number", json!({"s": 12})),
        ("strings", json!({"s": {"type": "point", "coordinates": ["a", "b"]}})),
        ("bad_wkt", json!({"s": "POINT (1 2"})),
        ("z", json!({"s": {"type": "point", "coordinates": [1, 2, 3]}})),
        ("radius", json!({"s": {"type": "point", "coordinates": [1, 2], "radius": "1km"}})),
        ("ok", json!({"s": {"type": "point", "coordinates": [1, 2]}})),
    ];
    let (_, reasons) =
        load_reasons("shape_strict", json!({"type": "geo_shape", "ignore_z_value": false, "coerce": false}), &docs);
    let p = "[mapper_parsing_exception] failed to parse [s]: ";
    let expected: Vec<String> = [
        "[parse_exception] shape type not included",
        "[parse_exception] coordinates not included",
        "[illegal_argument_exception] unknown geo_shape [triangle]",
        "[parse_exception] invalid number of points in LineString (found [1] - must be >= 2)",
        "[parse_exception] invalid LinearRing found (coordinates are not closed)",
        "[parse_exception] invalid number of points in LinearRing (found [3] - must be >= [4])",
        "[illegal_argument_exception] top is below bottom corner: 0.0 vs. 5.0",
        "[invalid_shape_exception] Bad Y value 95.0 is not in boundary Rect(minX=-180.0,maxX=180.0,minY=-90.0,maxY=90.0)",
        "[parse_exception] shape must be an object consisting of type and coordinates",
        "[parse_exception] geo coordinates must be numbers",
        "[parse_exception] expected ) but found: END-OF-STREAM",
        "[parse_exception] Exception parsing coordinates: found Z value [3.0] but [ignore_z_value] parameter is [false]",
        "[parse_exception] cannot have [radius] with type set to [point]",
    ]
    .iter()
    .map(|r| format!("{p}{r}"))
    .collect();
    assert_eq!(reasons, expected);
    // ignore_malformed loads every document without its malformed shape; coerce (the
    // index's `index.mapping.coerce`, true unless set) closes rings and takes three
    // positions.
    let (lenient, reasons) =
        load_reasons("shape_lenient", json!({"type": "geo_shape", "ignore_malformed": true}), &docs);
    assert!(reasons.is_empty(), "{reasons:?}");
    assert_eq!(lenient.ids(json!({"exists": {"field": "s"}})), vec!["few_points", "ok", "open_ring", "z"]);
    // points_only refuses other shapes with ES's (oddly braced) text.
    let (_, reasons) = load_reasons(
        "shape_points",
        json!({"type": "geo_shape", "points_only": true}),
        &[("line", json!({"s": "LINESTRING (0 0, 1 1)"})), ("points", json!({"s": "MULTIPOINT (0 0, 1 1)"}))],
    );
    assert_eq!(
        reasons,
        vec!["[mapper_parsing_exception] failed to parse [s]: [mapper_parsing_exception] [{s}] is configured for points only but a LineString was found"]
    );
}

#[test]
fn mapping_parameters_as_es_checks_and_prints_them() {
    let ix = index(
        "shape_mapping",
        mapped(json!({
            "a": {"type": "geo_shape"},
            "b": {"type": "geo_shape", "tree": "quadtree", "precision": "1km", "distance_error_pct": 0.01,
                  "orientation": "clockwise", "ignore_malformed": true, "coerce": false, "ignore_z_value": true},
            "c": {"type": "geo_shape", "tree": "geohash", "tree_levels": "6", "strategy": "term"},
            "d": {"type": "geo_shape", "strategy": "recursive", "points_only": true, "distance_error_pct": 0.025, "orientation": "ccw"}
        })),
        &[],
    );
    assert_eq!(
        ix.mapping()["properties"],
        json!({
            "a": {"type": "geo_shape"},
            "b": {"type": "geo_shape", "tree": "quadtree", "precision": "1000.0m", "distance_error_pct": 0.01,
                  "orientation": "LEFT", "coerce": false, "ignore_malformed": true, "ignore_z_value": true},
            "c": {"type": "geo_shape", "tree_levels": 6, "strategy": "term"},
            "d": {"type": "geo_shape", "points_only": true}
        })
    );
    let (_, caps) = ix.send("GET", "/test/_field_caps?fields=a", Value::Null);
    assert_eq!(
        caps["fields"]["a"],
        json!({"geo_shape": {"type": "geo_shape", "searchable": true, "aggregatable": false}})
    );
    let refused = |def: Value| load_error(mapped(json!({"g": def})));
    assert_eq!(
        refused(json!({"type": "geo_shape", "tree": "octree"})),
        "[mapper_parsing_exception] Unknown prefix tree type [octree]"
    );
    assert_eq!(
        refused(json!({"type": "geo_shape", "strategy": "bkd"})),
        "[mapper_parsing_exception] Unknown prefix tree strategy [bkd]"
    );
    assert_eq!(
        refused(json!({"type": "geo_shape", "orientation": "sideways"})),
        "[mapper_parsing_exception] Unknown orientation [sideways]"
    );
    assert_eq!(
        refused(json!({"type": "geo_shape", "tree_levels": "many"})),
        "[mapper_parsing_exception] For input string: \"many\""
    );
    assert_eq!(
        refused(json!({"type": "geo_shape", "strategy": "term", "points_only": false})),
        "[mapper_parsing_exception] points_only cannot be set to false for term strategy"
    );
    assert_eq!(
        refused(json!({"type": "geo_shape", "points_only": "yes"})),
        "[mapper_parsing_exception] Failed to parse value [yes] as only [true] or [false] are allowed. (parameter [points_only] of field [g])"
    );
    assert_eq!(
        refused(json!({"type": "geo_shape", "null_value": "POINT (1 2)"})),
        "[mapper_parsing_exception] Mapping definition for [g] has unsupported parameters:  [null_value : POINT (1 2)]"
    );
}

#[test]
fn other_queries_on_a_geo_shape_answer_es_errors() {
    let ix = shapes();
    assert_eq!(
        ix.refused(json!({"query": {"term": {"area": "x"}}})),
        (
            400,
            "query_shard_exception".into(),
            "failed to create query: Geo fields do not support exact searching, use dedicated geo queries instead"
                .into()
        )
    );
    assert_eq!(
        ix.refused(json!({"query": {"range": {"area": {"gte": 1}}}})).2,
        "Field [area] of type [geo_shape] does not support range queries"
    );
    assert_eq!(
        ix.refused(json!({"query": {"geo_distance": {"distance": "1km", "area": [0, 0]}}})).2,
        "field [area] is not a geo_point field"
    );
    assert_eq!(
        ix.refused(json!({"query": {"geo_bounding_box": {"area": {"top": 10, "left": 0, "bottom": 0, "right": 10}}}}))
            .2,
        "field [area] is not a geo_point field"
    );
    assert_eq!(
        ix.refused(json!({"sort": ["area"]})).2,
        "Fielddata is not supported on field [area] of type [geo_shape]"
    );
}

/// The `_id`s a `geo_shape` query on `area` matches with `relation`.
fn matching(ix: &Index, shape: Value, relation: &str) -> Vec<String> {
    ix.ids(json!({"geo_shape": {"area": {"shape": shape, "relation": relation}}}))
}

#[test]
fn geo_shape_query_relations_with_exact_geometry() {
    let ix = shapes();
    let europe = json!({"type": "envelope", "coordinates": [[-15, 65], [10, 45]]});
    assert_eq!(matching(&ix, europe.clone(), "intersects"), vec!["envelope", "point"]);
    assert_eq!(matching(&ix, europe.clone(), "within"), vec!["envelope", "point"]);
    assert_eq!(
        matching(&ix, europe.clone(), "disjoint"),
        vec!["bbox", "circle", "collection", "holed", "line", "multiline", "multipoint", "multipolygon", "two", "wkt"]
    );
    // The default relation is intersects; the shape may be WKT.
    assert_eq!(ix.ids(json!({"geo_shape": {"area": {"shape": "LINESTRING (0 10, 10 0)"}}})), vec!["line"]);
    // A polygon holds a point of its area, not one in its hole (nor a box over the hole).
    assert_eq!(matching(&ix, json!({"type": "point", "coordinates": [22, 22]}), "contains"), vec!["holed"]);
    assert_eq!(matching(&ix, json!({"type": "point", "coordinates": [25, 25]}), "intersects"), Vec::<String>::new());
    assert_eq!(
        matching(&ix, json!({"type": "envelope", "coordinates": [[23, 27], [27, 23]]}), "contains"),
        Vec::<String>::new()
    );
    assert_eq!(
        matching(&ix, json!({"type": "envelope", "coordinates": [[21, 23], [23, 21]]}), "contains"),
        vec!["holed"]
    );
    // Parts of multi-shapes and collections, circles, WKT boxes.
    assert_eq!(
        matching(&ix, json!({"type": "point", "coordinates": [102.5, 2.5]}), "intersects"),
        vec!["multipolygon"]
    );
    assert_eq!(matching(&ix, json!("POINT (-120 40)"), "intersects"), vec!["collection"]);
    assert_eq!(
        matching(&ix, json!({"type": "circle", "coordinates": [140.5, -30], "radius": "10km"}), "intersects"),
        vec!["circle"]
    );
    assert_eq!(
        matching(&ix, json!({"type": "circle", "coordinates": [142, -30], "radius": "10km"}), "intersects"),
        Vec::<String>::new()
    );
    assert_eq!(matching(&ix, json!("BBOX (155, 170, -42, -50)"), "intersects"), vec!["bbox"]);
    // A document with two shapes is within a shape only when both are.
    assert_eq!(matching(&ix, json!("BBOX (-1, 0.5, 85, 75)"), "intersects"), vec!["two"]);
    assert_eq!(matching(&ix, json!("BBOX (-1, 0.5, 85, 75)"), "within"), Vec::<String>::new());
    assert_eq!(matching(&ix, json!("BBOX (-1, 2, 85, 75)"), "within"), vec!["two"]);
    // The shape of another document of the index.
    assert_eq!(
        ix.ids(json!({"geo_shape": {"area": {"indexed_shape": {"index": "test", "id": "envelope", "path": "area"}, "relation": "within"}}})),
        vec!["envelope"]
    );
    // Scores are the boost.
    let v = ix.search(json!({"query": {"geo_shape": {"area": {"shape": europe}, "boost": 2.5}}, "explain": true}));
    assert_eq!(v["hits"]["max_score"], json!(2.5));
    assert_eq!(v["hits"]["hits"][0]["_explanation"]["value"], json!(2.5));
}

#[test]
fn geo_shape_query_errors_as_es() {
    let ix = shapes();
    let point = json!({"type": "point", "coordinates": [0, 0]});
    assert_eq!(
        ix.refused(json!({"query": {"geo_shape": {"nope": {"shape": point}}}})),
        (400, "query_shard_exception".into(), "failed to find geo_shape field [nope]".into())
    );
    assert_eq!(ix.ids(json!({"geo_shape": {"nope": {"shape": point}, "ignore_unmapped": true}})), Vec::<String>::new());
    assert_eq!(
        ix.refused(json!({"query": {"geo_shape": {"name": {"shape": point}}}})).2,
        "Field [name] is not of type [geo_shape] but of type [keyword]"
    );
    assert_eq!(
        ix.refused(json!({"query": {"geo_shape": {"area": {"shape": point, "relation": "over"}}}})),
        (400, "parsing_exception".into(), "Unknown shape operation [over ]".into())
    );
    assert_eq!(
        ix.refused(json!({"query": {"geo_shape": {"area": {"shape": point, "size": 1}}}})).2,
        "[geo_shape] query does not support [size]"
    );
    assert_eq!(
        ix.refused(json!({"query": {"geo_shape": {"area": {"relation": "within"}}}})).2,
        "either shapeBytes or indexedShapeId and indexedShapeType are required"
    );
    assert_eq!(
        ix.refused(json!({"query": {"geo_shape": {"area": {"shape": {"type": "point"}}}}})),
        (400, "parse_exception".into(), "coordinates not included".into())
    );
    assert_eq!(
        ix.refused(json!({"query": {"geo_shape": {"area": {"indexed_shape": {"index": "test", "id": "zzz", "type": "_doc", "path": "area"}}}}})).2,
        "Shape with ID [zzz] in type [_doc] not found"
    );
    assert_eq!(
        ix.refused(json!({"query": {"geo_shape": {"area": {"indexed_shape": {"index": "test", "id": "none", "path": "area"}}}}})).2,
        "Shape with name [none] found but missing area field"
    );
    assert_eq!(
        ix.refused(json!({"query": {"geo_shape": {"area": {"indexed_shape": {"id": "x"}}}}})).2,
        "[geo_shape] indexed_shape of another index ([shapes]) is not supported by metagate"
    );
}
