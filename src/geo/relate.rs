//! Exact relations between two shapes (`intersects`, `within`, `contains`,
//! `disjoint`), in plain longitude/latitude: edges are straight lines in degrees, not
//! great circles, and nothing is split at the dateline. A circle is the polygon of 64
//! points on its geodesic radius; an envelope its rectangle. Boundaries count as inside,
//! as for ES's shapes.

use super::shape::{BBox, Coord, Polygon, Shape};

/// ES's `relation` of a shape query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// The shapes share a point (the default).
    Intersects,
    /// The shapes share no point.
    Disjoint,
    /// The document's shape lies inside the query's.
    Within,
    /// The document's shape holds the query's.
    Contains,
}

impl Relation {
    /// `ShapeRelation.getRelationByName` (any case).
    pub fn from_name(name: &str) -> Option<Relation> {
        match name.to_lowercase().as_str() {
            "intersects" => Some(Relation::Intersects),
            "disjoint" => Some(Relation::Disjoint),
            "within" => Some(Relation::Within),
            "contains" => Some(Relation::Contains),
            _ => None,
        }
    }

    /// Whether a document's shape `doc` stands in this relation to the query's `query`.
    pub fn holds(self, doc: &Parts, query: &Parts) -> bool {
        match self {
            Relation::Intersects => intersects(doc, query),
            Relation::Disjoint => !intersects(doc, query),
            Relation::Within => within(doc, query),
            Relation::Contains => within(query, doc),
        }
    }

    /// Whether a document whose shapes' box is `doc` may stand in this relation to a
    /// query shape boxed by `query` (so documents outside it are never read).
    pub fn may_hold(self, doc: &BBox, query: &BBox) -> bool {
        // Box corners are quantized as geo points: a cell's slack keeps the test wide.
        const SLACK: f64 = 1e-6;
        let overlap = doc.min_x - SLACK <= query.max_x
            && query.min_x - SLACK <= doc.max_x
            && doc.min_y - SLACK <= query.max_y
            && query.min_y - SLACK <= doc.max_y;
        match self {
            Relation::Intersects | Relation::Within | Relation::Contains => overlap,
            Relation::Disjoint => true,
        }
    }
}

/// A shape as the primitives the relations test: points, paths and polygons.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parts {
    points: Vec<Coord>,
    lines: Vec<Vec<Coord>>,
    polygons: Vec<Polygon>,
}

impl Parts {
    /// The primitives of `shapes`.
    pub fn of(shapes: &[Shape]) -> Parts {
        let mut p = Parts::default();
        shapes.iter().for_each(|s| p.add(s));
        p
    }

    fn add(&mut self, s: &Shape) {
        match s {
            Shape::Point(c) => self.points.push(*c),
            Shape::MultiPoint(cs) => self.points.extend(cs),
            Shape::LineString(l) => self.lines.push(l.clone()),
            Shape::MultiLineString(ls) => self.lines.extend(ls.iter().cloned()),
            Shape::Polygon(p) => self.polygons.push(p.clone()),
            Shape::MultiPolygon(ps) => self.polygons.extend(ps.iter().cloned()),
            Shape::Collection(shapes) => shapes.iter().for_each(|s| self.add(s)),
            Shape::Envelope { min_x, min_y, max_x, max_y } => {
                let c = |x: f64, y: f64| Coord { x, y };
                let ring =
                    vec![c(*min_x, *min_y), c(*max_x, *min_y), c(*max_x, *max_y), c(*min_x, *max_y), c(*min_x, *min_y)];
                self.polygons.push(Polygon { rings: vec![ring] });
            }
            Shape::Circle { center, radius } => {
                self.polygons.push(Polygon { rings: vec![circle_ring(*center, *radius)] })
            }
        }
    }
}

/// 64 points at `radius` meters from `center` (great-circle destinations on ES's mean
/// earth radius), closed.
fn circle_ring(center: Coord, radius: f64) -> Vec<Coord> {
    const EARTH: f64 = 6_371_008.771_4;
    const SIDES: usize = 64;
    let (lat, lon) = (center.y.to_radians(), center.x.to_radians());
    let d = radius / EARTH;
    let mut ring: Vec<Coord> = (0..SIDES)
        .map(|i| {
            let bearing = (i as f64) * std::f64::consts::TAU / SIDES as f64;
            let lat2 = (lat.sin() * d.cos() + lat.cos() * d.sin() * bearing.cos()).asin();
            let lon2 = lon + (bearing.sin() * d.sin() * lat.cos()).atan2(d.cos() - lat.sin() * lat2.sin());
            Coord { x: lon2.to_degrees().clamp(-180.0, 180.0), y: lat2.to_degrees() }
        })
        .collect();
    ring.push(ring[0]);
    ring
}

fn cross(o: Coord, a: Coord, b: Coord) -> f64 {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
}

fn on_segment(p: Coord, a: Coord, b: Coord) -> bool {
    cross(a, b, p) == 0.0 && p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

/// Whether segments `ab` and `cd` share a point.
fn segments_meet(a: Coord, b: Coord, c: Coord, d: Coord) -> bool {
    let (d1, d2, d3, d4) = (cross(c, d, a), cross(c, d, b), cross(a, b, c), cross(a, b, d));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0)) {
        return true;
    }
    on_segment(a, c, d) || on_segment(b, c, d) || on_segment(c, a, b) || on_segment(d, a, b)
}

/// Whether the interiors of `ab` and `cd` cross at one point (touching does not count).
fn segments_cross(a: Coord, b: Coord, c: Coord, d: Coord) -> bool {
    let (d1, d2, d3, d4) = (cross(c, d, a), cross(c, d, b), cross(a, b, c), cross(a, b, d));
    ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
}

/// Where `p` is against a closed ring: 1 inside, 0 on its boundary, -1 outside.
fn in_ring(p: Coord, ring: &[Coord]) -> i8 {
    let mut inside = false;
    for w in ring.windows(2) {
        let (a, b) = (w[0], w[1]);
        if on_segment(p, a, b) {
            return 0;
        }
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            inside = !inside;
        }
    }
    if inside {
        1
    } else {
        -1
    }
}

/// Where `p` is against a polygon with holes: 1 inside, 0 on a boundary, -1 outside.
fn in_polygon(p: Coord, poly: &Polygon) -> i8 {
    let Some((shell, holes)) = poly.rings.split_first() else { return -1 };
    match in_ring(p, shell) {
        1 => {
            for hole in holes {
                match in_ring(p, hole) {
                    1 => return -1,
                    0 => return 0,
                    _ => {}
                }
            }
            1
        }
        r => r,
    }
}

fn edges(poly: &Polygon) -> impl Iterator<Item = (Coord, Coord)> + '_ {
    poly.rings.iter().flat_map(|r| r.windows(2).map(|w| (w[0], w[1])))
}

fn line_edges(line: &[Coord]) -> impl Iterator<Item = (Coord, Coord)> + '_ {
    line.windows(2).map(|w| (w[0], w[1]))
}

fn point_meets_line(p: Coord, line: &[Coord]) -> bool {
    line_edges(line).any(|(a, b)| on_segment(p, a, b))
}

fn line_meets_polygon(line: &[Coord], poly: &Polygon) -> bool {
    line.iter().any(|p| in_polygon(*p, poly) >= 0)
        || line_edges(line).any(|(a, b)| edges(poly).any(|(c, d)| segments_meet(a, b, c, d)))
}

fn polygons_meet(a: &Polygon, b: &Polygon) -> bool {
    let first = |p: &Polygon| p.rings.first().and_then(|r| r.first()).copied();
    edges(a).any(|(p, q)| edges(b).any(|(r, s)| segments_meet(p, q, r, s)))
        || first(a).is_some_and(|v| in_polygon(v, b) >= 0)
        || first(b).is_some_and(|v| in_polygon(v, a) >= 0)
}

fn intersects(a: &Parts, b: &Parts) -> bool {
    let point_meets = |p: Coord, o: &Parts| {
        o.points.contains(&p)
            || o.lines.iter().any(|l| point_meets_line(p, l))
            || o.polygons.iter().any(|poly| in_polygon(p, poly) >= 0)
    };
    if a.points.iter().any(|p| point_meets(*p, b)) || b.points.iter().any(|p| point_meets(*p, a)) {
        return true;
    }
    let lines_meet =
        |l: &[Coord], m: &[Coord]| line_edges(l).any(|(p, q)| line_edges(m).any(|(r, s)| segments_meet(p, q, r, s)));
    a.lines
        .iter()
        .any(|l| b.lines.iter().any(|m| lines_meet(l, m)) || b.polygons.iter().any(|p| line_meets_polygon(l, p)))
        || b.lines.iter().any(|l| a.polygons.iter().any(|p| line_meets_polygon(l, p)))
        || a.polygons.iter().any(|p| b.polygons.iter().any(|q| polygons_meet(p, q)))
}

fn mid(a: Coord, b: Coord) -> Coord {
    Coord { x: (a.x + b.x) / 2.0, y: (a.y + b.y) / 2.0 }
}

/// Whether the segment `ab` lies in `poly` (boundary included): its ends and middle
/// inside, and no edge of the polygon crossing it.
fn segment_in_polygon(a: Coord, b: Coord, poly: &Polygon) -> bool {
    in_polygon(a, poly) >= 0
        && in_polygon(b, poly) >= 0
        && in_polygon(mid(a, b), poly) >= 0
        && !edges(poly).any(|(c, d)| segments_cross(a, b, c, d))
}

fn polygon_in_polygon(inner: &Polygon, outer: &Polygon) -> bool {
    let Some(shell) = inner.rings.first() else { return true };
    line_edges(shell).all(|(a, b)| segment_in_polygon(a, b, outer))
        // A hole of the outer polygon inside the inner one leaves part of it uncovered.
        && outer.rings.iter().skip(1).all(|hole| {
            hole.iter().all(|v| in_polygon(*v, inner) < 1) && !hole.windows(2).any(|w| in_polygon(mid(w[0], w[1]), inner) == 1)
        })
}

/// Whether every part of `a` lies within one part of `b`.
fn within(a: &Parts, b: &Parts) -> bool {
    if a.points.is_empty() && a.lines.is_empty() && a.polygons.is_empty() {
        return false;
    }
    let point_within = |p: Coord| {
        b.points.contains(&p)
            || b.lines.iter().any(|l| point_meets_line(p, l))
            || b.polygons.iter().any(|poly| in_polygon(p, poly) >= 0)
    };
    let segment_within = |s: Coord, e: Coord| {
        b.polygons.iter().any(|poly| segment_in_polygon(s, e, poly))
            || b.lines.iter().any(|l| line_edges(l).any(|(c, d)| on_segment(s, c, d) && on_segment(e, c, d)))
    };
    a.points.iter().all(|p| point_within(*p))
        && a.lines.iter().all(|l| line_edges(l).all(|(s, e)| segment_within(s, e)))
        && a.polygons.iter().all(|p| b.polygons.iter().any(|q| polygon_in_polygon(p, q)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: f64, y: f64) -> Coord {
        Coord { x, y }
    }

    fn square(x: f64, y: f64, size: f64) -> Shape {
        Shape::Envelope { min_x: x, min_y: y, max_x: x + size, max_y: y + size }
    }

    #[test]
    fn relations_of_simple_shapes() {
        let big = Parts::of(&[square(0.0, 0.0, 10.0)]);
        let small = Parts::of(&[square(2.0, 2.0, 2.0)]);
        let apart = Parts::of(&[square(20.0, 20.0, 2.0)]);
        let across = Parts::of(&[Shape::LineString(vec![c(-5.0, 5.0), c(15.0, 5.0)])]);
        assert!(Relation::Within.holds(&small, &big));
        assert!(!Relation::Within.holds(&big, &small));
        assert!(Relation::Contains.holds(&big, &small));
        assert!(Relation::Disjoint.holds(&apart, &big));
        assert!(Relation::Intersects.holds(&across, &big));
        assert!(!Relation::Within.holds(&across, &big));
        // A point in a hole is outside the polygon.
        let holed = Polygon {
            rings: vec![
                vec![c(0.0, 0.0), c(10.0, 0.0), c(10.0, 10.0), c(0.0, 10.0), c(0.0, 0.0)],
                vec![c(4.0, 4.0), c(6.0, 4.0), c(6.0, 6.0), c(4.0, 6.0), c(4.0, 4.0)],
            ],
        };
        let holed = Parts::of(&[Shape::Polygon(holed)]);
        assert!(!Relation::Intersects.holds(&Parts::of(&[Shape::Point(c(5.0, 5.0))]), &holed));
        assert!(Relation::Intersects.holds(&Parts::of(&[Shape::Point(c(4.0, 5.0))]), &holed));
        // The polygon does not contain a square over its hole.
        assert!(!Relation::Contains.holds(&holed, &Parts::of(&[square(3.0, 3.0, 4.0)])));
        // A point 1 km from a circle's center of 2 km radius is inside it.
        let circle = Parts::of(&[Shape::Circle { center: c(0.0, 0.0), radius: 2000.0 }]);
        assert!(Relation::Within.holds(&Parts::of(&[Shape::Point(c(0.009, 0.0))]), &circle));
        assert!(!Relation::Intersects.holds(&Parts::of(&[Shape::Point(c(0.02, 0.0))]), &circle));
    }
}
