//! WKT shapes as ES 6.8's `GeoWKTParser` reads them: `POINT`, `MULTIPOINT`,
//! `LINESTRING`, `MULTILINESTRING`, `POLYGON`, `MULTIPOLYGON`, `GEOMETRYCOLLECTION`,
//! `BBOX (minLon, maxLon, maxLat, minLat)` and `EMPTY`, with its errors. The positions
//! are gathered into the same coordinate tree GeoJSON makes, so both forms share the
//! shape checks of `shape.rs`.

use super::parse::GeoError;
use super::shape::{build, envelope, Coord, Node, Shape, ShapeOptions, ShapeType};

/// A token of Java's `StreamTokenizer` as ES configures it.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    Number(f64),
    Char(char),
    End,
}

impl Token {
    /// `GeoWKTParser.tokenString`: how an error names the token found.
    fn describe(&self) -> String {
        match self {
            Token::Word(w) => w.clone(),
            Token::Number(_) => "<NUMBER>".into(),
            Token::Char(c) => format!("'{c}'"),
            Token::End => "END-OF-STREAM".into(),
        }
    }
}

struct Tokens<'a> {
    rest: &'a str,
    /// Parentheses open (bounded, so nothing a client sends recurses without end).
    depth: usize,
}

const MAX_DEPTH: usize = 16;

impl Tokens<'_> {
    fn next(&mut self) -> Token {
        self.rest = self.rest.trim_start();
        let Some(c) = self.rest.chars().next() else { return Token::End };
        if c.is_ascii_alphabetic() || c == '_' {
            let end = self
                .rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(self.rest.len());
            let (w, rest) = self.rest.split_at(end);
            self.rest = rest;
            return Token::Word(w.to_string());
        }
        if c.is_ascii_digit() || c == '-' || c == '.' || c == '+' {
            let end = self
                .rest
                .char_indices()
                .skip(1)
                .find(|(i, c)| {
                    let prev = self.rest.as_bytes()[i - 1];
                    !(c.is_ascii_digit()
                        || *c == '.'
                        || *c == 'e'
                        || *c == 'E'
                        || ((*c == '-' || *c == '+') && (prev == b'e' || prev == b'E')))
                })
                .map_or(self.rest.len(), |(i, _)| i);
            let (n, rest) = self.rest.split_at(end);
            self.rest = rest;
            return match n.parse::<f64>() {
                Ok(v) => Token::Number(v),
                Err(_) => Token::Char(c),
            };
        }
        self.rest = &self.rest[c.len_utf8()..];
        Token::Char(c)
    }

    fn number(&mut self) -> Result<f64, GeoError> {
        match self.next() {
            Token::Number(n) => Ok(n),
            t => Err(GeoError::parse(format!("expected number but found: {}", t.describe()))),
        }
    }

    /// `nextEmptyOrOpen`: `true` for `EMPTY`, `false` after `(`.
    fn empty_or_open(&mut self) -> Result<bool, GeoError> {
        match self.next() {
            Token::Word(w) if w.eq_ignore_ascii_case("EMPTY") => Ok(true),
            Token::Char('(') => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err(GeoError::parse("WKT nests too deep"));
                }
                Ok(false)
            }
            t => Err(GeoError::parse(format!("expected EMPTY or ( but found: {}", t.describe()))),
        }
    }

    /// `nextCloserOrComma`: `true` after `,`, `false` after `)`.
    fn comma_or_close(&mut self) -> Result<bool, GeoError> {
        match self.next() {
            Token::Char(',') => Ok(true),
            Token::Char(')') => {
                self.depth -= 1;
                Ok(false)
            }
            t => Err(GeoError::parse(format!("expected , or ) but found: {}", t.describe()))),
        }
    }

    fn close(&mut self) -> Result<(), GeoError> {
        match self.next() {
            Token::Char(')') => {
                self.depth -= 1;
                Ok(())
            }
            t => Err(GeoError::parse(format!("expected ) but found: {}", t.describe()))),
        }
    }
}

/// Reads a WKT shape: `None` for an `EMPTY` geometry.
pub fn parse(text: &str, opts: ShapeOptions) -> Result<Option<Shape>, GeoError> {
    let mut tokens = Tokens { rest: text, depth: 0 };
    let shape = geometry(&mut tokens, opts)?;
    match tokens.next() {
        Token::End => Ok(shape),
        t => Err(GeoError::parse(format!("expected end of WKT string but found additional text: {}", t.describe()))),
    }
}

fn geometry(tokens: &mut Tokens<'_>, opts: ShapeOptions) -> Result<Option<Shape>, GeoError> {
    let word = match tokens.next() {
        Token::Word(w) => w,
        t => return Err(GeoError::parse(format!("expected word but found: {}", t.describe()))),
    };
    let shape_type = if word.eq_ignore_ascii_case("BBOX") { ShapeType::Envelope } else { ShapeType::from_name(&word)? };
    if tokens.empty_or_open()? {
        return Ok(None);
    }
    let shape = match shape_type {
        ShapeType::Point => {
            let point = coordinate(tokens)?;
            tokens.close()?;
            build(shape_type, &point, None, opts)?
        }
        ShapeType::MultiPoint => {
            let mut points = Vec::new();
            loop {
                // Each point bare or in its own parentheses.
                let inner = tokens.rest.trim_start().starts_with('(');
                if inner {
                    tokens.empty_or_open()?;
                }
                points.push(coordinate(tokens)?);
                if inner {
                    tokens.close()?;
                }
                if !tokens.comma_or_close()? {
                    break;
                }
            }
            build(shape_type, &Node::List(points), None, opts)?
        }
        ShapeType::LineString => build(shape_type, &coordinates(tokens)?, None, opts)?,
        ShapeType::MultiLineString | ShapeType::Polygon => {
            build(shape_type, &Node::List(lists(tokens, coordinates)?), None, opts)?
        }
        ShapeType::MultiPolygon => {
            let polygons = lists(tokens, |t| Ok(Node::List(lists(t, coordinates)?)))?;
            build(shape_type, &Node::List(polygons), None, opts)?
        }
        ShapeType::GeometryCollection => {
            let mut shapes = Vec::new();
            loop {
                shapes.extend(geometry(tokens, opts)?);
                if !tokens.comma_or_close()? {
                    break;
                }
            }
            Shape::Collection(shapes)
        }
        ShapeType::Envelope => {
            let min_x = tokens.number()?;
            comma(tokens)?;
            let max_x = tokens.number()?;
            comma(tokens)?;
            let max_y = tokens.number()?;
            comma(tokens)?;
            let min_y = tokens.number()?;
            tokens.close()?;
            envelope(Coord { x: min_x, y: max_y }, Coord { x: max_x, y: min_y })?
        }
        ShapeType::Circle => {
            return Err(GeoError::illegal_argument(format!("Unknown geometry type: {}", word.to_lowercase())))
        }
    };
    Ok(Some(shape))
}

fn comma(tokens: &mut Tokens<'_>) -> Result<(), GeoError> {
    match tokens.next() {
        Token::Char(',') => Ok(()),
        t => Err(GeoError::parse(format!("expected , but found: {}", t.describe()))),
    }
}

/// `lon lat` or `lon lat z`.
fn coordinate(tokens: &mut Tokens<'_>) -> Result<Node, GeoError> {
    let x = tokens.number()?;
    let y = tokens.number()?;
    let z = tokens.rest.trim_start().starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '.');
    if z {
        tokens.number()?;
    }
    Ok(Node::Leaf(Coord { x, y }, z))
}

/// Positions up to the closing parenthesis (the opening one read).
fn coordinates(tokens: &mut Tokens<'_>) -> Result<Node, GeoError> {
    let mut points = Vec::new();
    loop {
        points.push(coordinate(tokens)?);
        if !tokens.comma_or_close()? {
            return Ok(Node::List(points));
        }
    }
}

/// Parenthesized lists of `item` up to the closing parenthesis (the opening one read).
fn lists(
    tokens: &mut Tokens<'_>,
    item: impl Fn(&mut Tokens<'_>) -> Result<Node, GeoError>,
) -> Result<Vec<Node>, GeoError> {
    let mut out = Vec::new();
    loop {
        if tokens.empty_or_open()? {
            out.push(Node::List(Vec::new()));
        } else {
            out.push(item(tokens)?);
        }
        if !tokens.comma_or_close()? {
            return Ok(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wkt_forms_and_errors() {
        let o = ShapeOptions::default();
        assert_eq!(parse("POINT (1.5 -2)", o).unwrap(), Some(Shape::Point(Coord { x: 1.5, y: -2.0 })));
        assert_eq!(parse("POINT EMPTY", o).unwrap(), None);
        let Some(Shape::Polygon(p)) =
            parse("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 3 2, 3 3, 2 2))", o).unwrap()
        else {
            panic!()
        };
        assert_eq!(p.rings.len(), 2);
        let Some(Shape::MultiPoint(m)) = parse("MULTIPOINT ((1 2), (3 4))", o).unwrap() else { panic!() };
        assert_eq!(m.len(), 2);
        let Some(Shape::MultiPolygon(m)) =
            parse("MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))", o).unwrap()
        else {
            panic!()
        };
        assert_eq!(m.len(), 2);
        assert_eq!(
            parse("BBOX (1, 5, 10, 2)", o).unwrap(),
            Some(Shape::Envelope { min_x: 1.0, min_y: 2.0, max_x: 5.0, max_y: 10.0 })
        );
        let Some(Shape::Collection(c)) = parse("GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (0 0, 1 1))", o).unwrap()
        else {
            panic!()
        };
        assert_eq!(c.len(), 2);
        assert_eq!(
            parse("POINT (1 2) x", o).unwrap_err().reason,
            "expected end of WKT string but found additional text: x"
        );
        assert_eq!(parse("POINT 1 2", o).unwrap_err().reason, "expected EMPTY or ( but found: <NUMBER>");
        assert_eq!(parse("BLOB (1 2)", o).unwrap_err().reason, "unknown geo_shape [BLOB]");
        assert_eq!(parse("POINT (1 2", o).unwrap_err().reason, "expected ) but found: END-OF-STREAM");
        assert!(parse(&"GEOMETRYCOLLECTION (".repeat(100), o).is_err());
    }
}
