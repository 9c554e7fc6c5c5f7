//! Geo shapes as ES 6.8 reads them (`ShapeParser`, `GeoJsonParser`, `GeoShapeType`'s
//! checks): GeoJSON objects and WKT strings (`wkt.rs`) made into [`Shape`]s, with ES's
//! errors. Coordinates are longitude then latitude, as GeoJSON writes them. Relations
//! between shapes are in `relate.rs`.

use super::parse::GeoError;
use super::{DistanceUnit, GeoPoint};
use crate::json_value::java_double;
use serde_json::Value;

/// One position: longitude (x) and latitude (y) in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Coord {
    /// Longitude.
    pub x: f64,
    /// Latitude.
    pub y: f64,
}

/// A polygon: its shell, then its holes; every ring closed (first position repeated last).
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon {
    /// The rings, the shell first.
    pub rings: Vec<Vec<Coord>>,
}

/// A geometry of a `geo_shape` field or query.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// One position.
    Point(Coord),
    /// Positions.
    MultiPoint(Vec<Coord>),
    /// A path of two or more positions.
    LineString(Vec<Coord>),
    /// Paths.
    MultiLineString(Vec<Vec<Coord>>),
    /// An area with holes.
    Polygon(Polygon),
    /// Areas.
    MultiPolygon(Vec<Polygon>),
    /// Any shapes.
    Collection(Vec<Shape>),
    /// A box: west, south, east, north.
    Envelope {
        /// Least longitude.
        min_x: f64,
        /// Least latitude.
        min_y: f64,
        /// Greatest longitude.
        max_x: f64,
        /// Greatest latitude.
        max_y: f64,
    },
    /// A circle around `center`, `radius` meters wide.
    Circle {
        /// The center.
        center: Coord,
        /// Radius in meters.
        radius: f64,
    },
}

/// How a field (or a query, with ES's defaults) reads shapes: `coerce` closes open
/// rings, `ignore_z` drops a third coordinate rather than refusing it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapeOptions {
    /// Close rings whose last position is not their first.
    pub coerce: bool,
    /// Take (and drop) a third coordinate.
    pub ignore_z: bool,
}

impl Default for ShapeOptions {
    fn default() -> ShapeOptions {
        ShapeOptions { coerce: false, ignore_z: true }
    }
}

/// A bounding box in degrees (`min_x > max_x` never: a box across the dateline is
/// widened to every longitude).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BBox {
    /// Least longitude.
    pub min_x: f64,
    /// Least latitude.
    pub min_y: f64,
    /// Greatest longitude.
    pub max_x: f64,
    /// Greatest latitude.
    pub max_y: f64,
}

impl BBox {
    fn empty() -> BBox {
        BBox { min_x: f64::INFINITY, min_y: f64::INFINITY, max_x: f64::NEG_INFINITY, max_y: f64::NEG_INFINITY }
    }

    fn add(&mut self, c: Coord) {
        self.min_x = self.min_x.min(c.x);
        self.max_x = self.max_x.max(c.x);
        self.min_y = self.min_y.min(c.y);
        self.max_y = self.max_y.max(c.y);
    }

    fn union(&mut self, o: BBox) {
        self.min_x = self.min_x.min(o.min_x);
        self.max_x = self.max_x.max(o.max_x);
        self.min_y = self.min_y.min(o.min_y);
        self.max_y = self.max_y.max(o.max_y);
    }
}

/// Meters per degree of latitude on ES's mean earth radius.
const METERS_PER_DEGREE: f64 = 6_371_008.771_4 * std::f64::consts::PI / 180.0;

impl Shape {
    /// The box around the shape (a circle's from its radius in degrees of latitude,
    /// widened in longitude by its latitude; every longitude near a pole).
    pub fn bbox(&self) -> BBox {
        let mut b = BBox::empty();
        match self {
            Shape::Point(c) => b.add(*c),
            Shape::MultiPoint(cs) | Shape::LineString(cs) => cs.iter().for_each(|c| b.add(*c)),
            Shape::MultiLineString(ls) => ls.iter().flatten().for_each(|c| b.add(*c)),
            Shape::Polygon(p) => p.rings.iter().flatten().for_each(|c| b.add(*c)),
            Shape::MultiPolygon(ps) => ps.iter().flat_map(|p| p.rings.iter().flatten()).for_each(|c| b.add(*c)),
            Shape::Collection(shapes) => shapes.iter().for_each(|s| b.union(s.bbox())),
            Shape::Envelope { min_x, min_y, max_x, max_y } => {
                b = BBox { min_x: *min_x, min_y: *min_y, max_x: *max_x, max_y: *max_y }
            }
            Shape::Circle { center, radius } => {
                let dlat = radius / METERS_PER_DEGREE;
                let (min_y, max_y) = ((center.y - dlat).max(-90.0), (center.y + dlat).min(90.0));
                let cos = min_y.abs().max(max_y.abs()).to_radians().cos();
                let dlon = if cos < 1e-9 { 360.0 } else { dlat / cos };
                // A circle across the dateline is boxed with every longitude.
                let (min_x, max_x) = if center.x - dlon < -180.0 || center.x + dlon > 180.0 {
                    (-180.0, 180.0)
                } else {
                    (center.x - dlon, center.x + dlon)
                };
                b = BBox { min_x, min_y, max_x, max_y };
            }
        }
        b
    }

    /// The two corners of the box as points (south-west, north-east), as the loader
    /// keeps them per document.
    pub fn corners(&self) -> [GeoPoint; 2] {
        let b = self.bbox();
        [GeoPoint::new(b.min_y, b.min_x), GeoPoint::new(b.max_y, b.max_x)]
    }

    /// Whether the shape is one point or points only (what `points_only` takes).
    pub fn is_points(&self) -> bool {
        match self {
            Shape::Point(_) | Shape::MultiPoint(_) => true,
            Shape::Collection(s) => s.iter().all(Shape::is_points),
            _ => false,
        }
    }

    /// JTS's name of the geometry (ES's `points_only` error names it).
    pub fn jts_name(&self) -> &'static str {
        match self {
            Shape::Point(_) => "Point",
            Shape::MultiPoint(_) => "MultiPoint",
            Shape::LineString(_) => "LineString",
            Shape::MultiLineString(_) => "MultiLineString",
            Shape::Polygon(_) | Shape::Envelope { .. } | Shape::Circle { .. } => "Polygon",
            Shape::MultiPolygon(_) => "MultiPolygon",
            Shape::Collection(_) => "GeometryCollection",
        }
    }
}

/// ES's shape type names (`GeoShapeType`), read case-insensitively.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShapeType {
    Point,
    MultiPoint,
    LineString,
    MultiLineString,
    Polygon,
    MultiPolygon,
    GeometryCollection,
    Envelope,
    Circle,
}

impl ShapeType {
    /// `GeoShapeType.forName`.
    pub(crate) fn from_name(name: &str) -> Result<ShapeType, GeoError> {
        Ok(match name.to_ascii_lowercase().as_str() {
            "point" => ShapeType::Point,
            "multipoint" => ShapeType::MultiPoint,
            "linestring" => ShapeType::LineString,
            "multilinestring" => ShapeType::MultiLineString,
            "polygon" => ShapeType::Polygon,
            "multipolygon" => ShapeType::MultiPolygon,
            "geometrycollection" => ShapeType::GeometryCollection,
            "envelope" => ShapeType::Envelope,
            "circle" => ShapeType::Circle,
            _ => return Err(GeoError::illegal_argument(format!("unknown geo_shape [{name}]"))),
        })
    }

    fn name(self) -> &'static str {
        match self {
            ShapeType::Point => "point",
            ShapeType::MultiPoint => "multipoint",
            ShapeType::LineString => "linestring",
            ShapeType::MultiLineString => "multilinestring",
            ShapeType::Polygon => "polygon",
            ShapeType::MultiPolygon => "multipolygon",
            ShapeType::GeometryCollection => "geometrycollection",
            ShapeType::Envelope => "envelope",
            ShapeType::Circle => "circle",
        }
    }
}

/// A tree of coordinates as GeoJSON nests them (`CoordinateNode`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Leaf(Coord, bool),
    List(Vec<Node>),
}

impl Node {
    fn dimensions(&self) -> usize {
        match self {
            Node::Leaf(_, z) => 2 + usize::from(*z),
            Node::List(c) => c.first().map_or(0, Node::dimensions),
        }
    }

    fn coord(&self) -> Result<Coord, GeoError> {
        match self {
            Node::Leaf(c, _) => Ok(*c),
            Node::List(_) => Err(GeoError::parse("geo coordinates must be numbers")),
        }
    }

    fn children(&self) -> &[Node] {
        match self {
            Node::List(c) => c,
            Node::Leaf(..) => &[],
        }
    }
}

/// The deepest nesting of coordinates read (a polygon set needs four).
const MAX_DEPTH: usize = 16;

/// Reads a field's or a query's shape value: `None` for `null` (or WKT `EMPTY`).
pub fn parse(v: &Value, opts: ShapeOptions) -> Result<Option<Shape>, GeoError> {
    match v {
        Value::Null => Ok(None),
        Value::Object(_) => geojson(v, opts, 0).map(Some),
        Value::String(s) => super::wkt::parse(s, opts),
        _ => Err(GeoError::parse("shape must be an object consisting of type and coordinates")),
    }
}

/// Java's text of a JSON scalar (`XContentParser.text`).
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn geojson(v: &Value, opts: ShapeOptions, depth: usize) -> Result<Shape, GeoError> {
    if depth > MAX_DEPTH {
        return Err(GeoError::parse("geometry collections nest too deep"));
    }
    let Value::Object(members) = v else {
        return Err(GeoError::parse("shape must be an object consisting of type and coordinates"));
    };
    let mut shape_type: Option<ShapeType> = None;
    let mut node: Option<Node> = None;
    let mut geometries: Option<Vec<Shape>> = None;
    let mut radius: Option<f64> = None;
    let mut malformed: Option<String> = None;
    for (key, value) in members {
        match key.as_str() {
            "type" => {
                let t = ShapeType::from_name(&text(value))?;
                match shape_type {
                    Some(prev) if prev != t => {
                        malformed =
                            Some(format!("type already parsed as [{}] cannot redefine as [{}]", prev.name(), t.name()))
                    }
                    _ => shape_type = Some(t),
                }
            }
            "coordinates" => {
                let n = coordinates(value, opts.ignore_z, 0)?;
                if node.as_ref().is_some_and(|prev| prev.dimensions() != n.dimensions()) {
                    return Err(GeoError::parse("Exception parsing coordinates: number of dimensions do not match"));
                }
                node = Some(n);
            }
            "geometries" => {
                match shape_type {
                    None => shape_type = Some(ShapeType::GeometryCollection),
                    Some(ShapeType::GeometryCollection) => {}
                    Some(t) => malformed = Some(format!("cannot have [geometries] with type set to [{}]", t.name())),
                }
                let Value::Array(items) = value else {
                    return Err(GeoError::parse("geometries must be an array of geojson objects"));
                };
                let mut shapes = Vec::with_capacity(items.len());
                for item in items {
                    let shape = match item {
                        Value::String(s) => super::wkt::parse(s, opts)?,
                        Value::Null => None,
                        other => Some(geojson(other, opts, depth + 1)?),
                    };
                    shapes.extend(shape);
                }
                geometries = Some(shapes);
            }
            "radius" => {
                match shape_type {
                    None => shape_type = Some(ShapeType::Circle),
                    Some(ShapeType::Circle) => {}
                    Some(t) => malformed = Some(format!("cannot have [radius] with type set to [{}]", t.name())),
                }
                radius = Some(DistanceUnit::parse(&text(value), DistanceUnit::Meters, DistanceUnit::Meters)?);
            }
            "orientation" => {
                if let Some(t) = shape_type.filter(|t| !matches!(t, ShapeType::Polygon | ShapeType::MultiPolygon)) {
                    malformed = Some(format!("cannot have [orientation] with type set to [{}]", t.name()));
                }
                crate::geo::shape::orientation_is_right(&text(value))?;
            }
            _ => {}
        }
    }
    if let Some(m) = malformed {
        return Err(GeoError::parse(m));
    }
    let Some(shape_type) = shape_type else { return Err(GeoError::parse("shape type not included")) };
    if shape_type == ShapeType::GeometryCollection {
        return geometries.map(Shape::Collection).ok_or_else(|| GeoError::parse("geometries not included"));
    }
    let Some(node) = node else { return Err(GeoError::parse("coordinates not included")) };
    if radius.is_some() && shape_type != ShapeType::Circle {
        return Err(GeoError::parse("field [radius] is supported for [circle] only"));
    }
    build(shape_type, &node, radius, opts)
}

/// `ShapeBuilder.Orientation.fromString`: whether `name` is the right-hand (counter
/// clockwise) orientation; ES's error for a name it does not know.
pub fn orientation_is_right(name: &str) -> Result<bool, GeoError> {
    match name.to_lowercase().as_str() {
        "right" | "counterclockwise" | "ccw" => Ok(true),
        "left" | "clockwise" | "cw" => Ok(false),
        other => Err(GeoError::illegal_argument(format!("Unknown orientation [{other}]"))),
    }
}

/// `GeoJsonParser.parseCoordinates`: numbers, or arrays of them at any depth.
fn coordinates(v: &Value, ignore_z: bool, depth: usize) -> Result<Node, GeoError> {
    match v {
        Value::Object(_) => Err(GeoError::parse("coordinates cannot be specified as objects")),
        Value::Array(items) => match items.first() {
            None => Ok(Node::List(Vec::new())),
            Some(Value::Null) => Err(GeoError::illegal_argument("coordinates cannot contain NULL values)")),
            Some(Value::Array(_)) => {
                if depth > MAX_DEPTH {
                    return Err(GeoError::parse("coordinates nest too deep"));
                }
                let mut nodes: Vec<Node> = Vec::with_capacity(items.len());
                for item in items {
                    let n = match item {
                        Value::Null => {
                            return Err(GeoError::illegal_argument("coordinates cannot contain NULL values)"))
                        }
                        Value::Array(_) | Value::Object(_) => coordinates(item, ignore_z, depth + 1)?,
                        _ => return Err(GeoError::parse("geo coordinates must be numbers")),
                    };
                    if nodes.first().is_some_and(|f| f.dimensions() != n.dimensions()) {
                        return Err(GeoError::parse(
                            "Exception parsing coordinates: number of dimensions do not match",
                        ));
                    }
                    nodes.push(n);
                }
                Ok(Node::List(nodes))
            }
            Some(_) => leaf(items, ignore_z),
        },
        _ => Err(GeoError::parse("geo coordinates must be numbers")),
    }
}

/// `GeoJsonParser.parseCoordinate`: `[lon, lat]` or `[lon, lat, z]`.
fn leaf(items: &[Value], ignore_z: bool) -> Result<Node, GeoError> {
    let number = |i: usize| items.get(i).and_then(Value::as_f64);
    let (Some(x), Some(y)) = (number(0), number(1)) else {
        return Err(GeoError::parse("geo coordinates must be numbers"));
    };
    let z = number(2);
    if let Some(z) = z {
        if !ignore_z {
            return Err(GeoError::parse(format!(
                "Exception parsing coordinates: found Z value [{}] but [ignore_z_value] parameter is [false]",
                java_double(z)
            )));
        }
    }
    if items.len() > 3 && number(3).is_some() {
        return Err(GeoError::parse("geo coordinates greater than 3 dimensions are not supported"));
    }
    Ok(Node::Leaf(Coord { x, y }, z.is_some()))
}

/// `GeoShapeType.getBuilder` with each type's `validate`.
pub(crate) fn build(t: ShapeType, node: &Node, radius: Option<f64>, opts: ShapeOptions) -> Result<Shape, GeoError> {
    let shape = match t {
        ShapeType::Point | ShapeType::Circle => {
            let center = match node {
                Node::Leaf(c, _) => *c,
                Node::List(c) if c.is_empty() => {
                    return Err(GeoError::parse(
                        "invalid number of points (0) provided when expecting a single coordinate ([lat, lng])",
                    ))
                }
                Node::List(_) => {
                    return Err(GeoError::parse("multipoint data provided when single point data expected."))
                }
            };
            match (t, radius) {
                (ShapeType::Point, _) => Shape::Point(center),
                (_, Some(radius)) => Shape::Circle { center, radius },
                (_, None) => return Err(GeoError::parse("radius is not specified")),
            }
        }
        ShapeType::MultiPoint => match node {
            Node::Leaf(c, _) => Shape::MultiPoint(vec![*c]),
            Node::List(c) if c.is_empty() => {
                return Err(GeoError::parse(
                    "invalid number of points (0) provided for geo_shape [multipoint] when expecting an array of 1 or more points",
                ))
            }
            Node::List(c) => Shape::MultiPoint(c.iter().map(Node::coord).collect::<Result<_, _>>()?),
        },
        ShapeType::LineString => Shape::LineString(line(node)?),
        ShapeType::MultiLineString => {
            Shape::MultiLineString(node.children().iter().map(line).collect::<Result<_, _>>()?)
        }
        ShapeType::Polygon => Shape::Polygon(polygon(node, opts.coerce)?),
        ShapeType::MultiPolygon => {
            Shape::MultiPolygon(node.children().iter().map(|p| polygon(p, opts.coerce)).collect::<Result<_, _>>()?)
        }
        ShapeType::Envelope => {
            let corners = node.children();
            if corners.len() != 2 {
                return Err(GeoError::parse(format!(
                    "invalid number of points [{}] provided for geo_shape [envelope] when expecting an array of 2 coordinates",
                    corners.len()
                )));
            }
            let (top_left, bottom_right) = (corners[0].coord()?, corners[1].coord()?);
            envelope(top_left, bottom_right)?
        }
        ShapeType::GeometryCollection => return Err(GeoError::parse("geometries not included")),
    };
    check_range(&shape)?;
    Ok(shape)
}

/// `EnvelopeBuilder`: the box from its north-west and south-east corners.
pub(crate) fn envelope(top_left: Coord, bottom_right: Coord) -> Result<Shape, GeoError> {
    if top_left.y < bottom_right.y {
        return Err(GeoError::illegal_argument(format!(
            "top is below bottom corner: {} vs. {}",
            java_double(top_left.y),
            java_double(bottom_right.y)
        )));
    }
    Ok(Shape::Envelope { min_x: top_left.x, min_y: bottom_right.y, max_x: bottom_right.x, max_y: top_left.y })
}

fn line(node: &Node) -> Result<Vec<Coord>, GeoError> {
    let points = node.children();
    if points.len() < 2 {
        return Err(GeoError::parse(format!(
            "invalid number of points in LineString (found [{}] - must be >= 2)",
            points.len()
        )));
    }
    points.iter().map(Node::coord).collect()
}

fn polygon(node: &Node, coerce: bool) -> Result<Polygon, GeoError> {
    let rings = node.children();
    if rings.is_empty() {
        return Err(GeoError::parse(
            "invalid LinearRing provided for type polygon. Linear ring must be an array of coordinates",
        ));
    }
    let rings = rings.iter().map(|r| linear_ring(r, coerce)).collect::<Result<_, _>>()?;
    Ok(Polygon { rings })
}

/// `GeoShapeType.validateLinearRing`: at least 4 positions (3 with `coerce`), closed
/// (closed here with `coerce`).
pub(crate) fn linear_ring(node: &Node, coerce: bool) -> Result<Vec<Coord>, GeoError> {
    let points = match node {
        Node::Leaf(..) => {
            return Err(GeoError::parse(
                "Invalid LinearRing found. Found a single coordinate when expecting a coordinate array",
            ))
        }
        Node::List(p) if p.is_empty() => {
            return Err(GeoError::parse("Invalid LinearRing found. No coordinate array provided"))
        }
        Node::List(p) => p,
    };
    let least = if coerce { 3 } else { 4 };
    if points.len() < least {
        return Err(GeoError::parse(format!(
            "invalid number of points in LinearRing (found [{}] - must be >= [{least}])",
            points.len()
        )));
    }
    let mut ring: Vec<Coord> = points.iter().map(Node::coord).collect::<Result<_, _>>()?;
    if ring.first() != ring.last() {
        if !coerce {
            return Err(GeoError::parse("invalid LinearRing found (coordinates are not closed)"));
        }
        ring.push(ring[0]);
    }
    Ok(ring)
}

/// Spatial4j's check of every position against the world's bounds.
fn check_range(shape: &Shape) -> Result<(), GeoError> {
    let check = |c: &Coord| -> Result<(), GeoError> {
        let bounds = "Rect(minX=-180.0,maxX=180.0,minY=-90.0,maxY=90.0)";
        if !(-180.0..=180.0).contains(&c.x) {
            return Err(GeoError {
                kind: "invalid_shape_exception",
                reason: format!("Bad X value {} is not in boundary {bounds}", java_double(c.x)),
            });
        }
        if !(-90.0..=90.0).contains(&c.y) {
            return Err(GeoError {
                kind: "invalid_shape_exception",
                reason: format!("Bad Y value {} is not in boundary {bounds}", java_double(c.y)),
            });
        }
        Ok(())
    };
    match shape {
        Shape::Point(c) | Shape::Circle { center: c, .. } => check(c),
        Shape::MultiPoint(cs) | Shape::LineString(cs) => cs.iter().try_for_each(check),
        Shape::MultiLineString(ls) => ls.iter().flatten().try_for_each(check),
        Shape::Polygon(p) => p.rings.iter().flatten().try_for_each(check),
        Shape::MultiPolygon(ps) => ps.iter().flat_map(|p| p.rings.iter().flatten()).try_for_each(check),
        Shape::Envelope { min_x, min_y, max_x, max_y } => {
            check(&Coord { x: *min_x, y: *min_y })?;
            check(&Coord { x: *max_x, y: *max_y })
        }
        Shape::Collection(s) => s.iter().try_for_each(check_range),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<Shape, GeoError> {
        parse(&v, ShapeOptions::default()).map(|s| s.expect("a shape"))
    }

    #[test]
    fn geojson_forms_and_errors() {
        assert_eq!(
            read(json!({"type": "Point", "coordinates": [1.5, 2]})).unwrap(),
            Shape::Point(Coord { x: 1.5, y: 2.0 })
        );
        let ring = json!([[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]);
        let p = read(json!({"type": "polygon", "coordinates": [ring]})).unwrap();
        assert_eq!(p.bbox(), BBox { min_x: 0.0, min_y: 0.0, max_x: 10.0, max_y: 10.0 });
        let e = |v: Value| read(v).unwrap_err().reason;
        assert_eq!(e(json!({"coordinates": [1, 2]})), "shape type not included");
        assert_eq!(e(json!({"type": "point"})), "coordinates not included");
        assert_eq!(e(json!({"type": "blob", "coordinates": [1, 2]})), "unknown geo_shape [blob]");
        assert_eq!(
            e(json!({"type": "linestring", "coordinates": [[1, 2]]})),
            "invalid number of points in LineString (found [1] - must be >= 2)"
        );
        assert_eq!(
            e(json!({"type": "polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 2]]]})),
            "invalid LinearRing found (coordinates are not closed)"
        );
        assert_eq!(
            e(json!({"type": "envelope", "coordinates": [[0, 0], [1, 5]]})),
            "top is below bottom corner: 0.0 vs. 5.0"
        );
        assert_eq!(
            e(json!({"type": "point", "coordinates": [200, 0]})),
            "Bad X value 200.0 is not in boundary Rect(minX=-180.0,maxX=180.0,minY=-90.0,maxY=90.0)"
        );
        assert_eq!(e(json!(5)), "shape must be an object consisting of type and coordinates");
        // `coerce` closes an open ring.
        let open = json!({"type": "polygon", "coordinates": [[[0, 0], [1, 0], [1, 1]]]});
        let closed = parse(&open, ShapeOptions { coerce: true, ignore_z: true }).unwrap().unwrap();
        let Shape::Polygon(p) = closed else { panic!() };
        assert_eq!(p.rings[0].len(), 4);
        let c = read(json!({"type": "circle", "coordinates": [0, 0], "radius": "1km"})).unwrap();
        assert_eq!(c, Shape::Circle { center: Coord { x: 0.0, y: 0.0 }, radius: 1000.0 });
    }
}
