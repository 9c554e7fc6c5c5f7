//! The `geo_shape` query of ES 6.8's DSL, read as `GeoShapeQueryBuilder.fromXContent`
//! reads it: one field with an inline `shape` (GeoJSON or WKT, read with ES's defaults)
//! or an `indexed_shape`, a `relation`, `ignore_unmapped`, `boost` and `_name`.

use super::Query;
use crate::error::{Error, Exception, Result};
use crate::geo::relate::Relation;
use crate::geo::shape::{self, Shape, ShapeOptions};
use crate::json_value::{bool_of, num_f32, value_to_string};
use serde_json::Value;

/// A `geo_shape` query.
#[derive(Debug, Clone, PartialEq)]
pub struct GeoShapeQuery {
    /// The geo shape field.
    pub field: String,
    /// The query's shape.
    pub shape: ShapeSource,
    /// `relation` (`intersects` unless given).
    pub relation: Relation,
    /// `ignore_unmapped`: an unmapped field matches nothing instead of failing.
    pub ignore_unmapped: bool,
    /// `boost`.
    pub boost: f32,
}

/// Where the query's shape comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum ShapeSource {
    /// Given in the query.
    Inline(Shape),
    /// A shape of another document (`indexed_shape`).
    Indexed(IndexedShape),
}

/// `indexed_shape`: the document holding the shape, and the path of the shape in it.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexedShape {
    /// `id`.
    pub id: String,
    /// `type`, when given.
    pub doc_type: Option<String>,
    /// `index` (ES's default is `shapes`).
    pub index: String,
    /// `path` (ES's default is `shape`).
    pub path: String,
}

const NAME: &str = "geo_shape";

fn parsing(msg: String) -> Error {
    Error::parsing_no_pos(msg)
}

fn shape_error(e: crate::geo::GeoError) -> Error {
    Error::new(400, Exception::new(e.kind, e.reason))
}

/// Parses the body of a `geo_shape` query.
pub fn parse(body: &Value) -> Result<Query> {
    let o = body
        .as_object()
        .ok_or_else(|| parsing(format!("[{NAME}] query malformed, no start_object after query name")))?;
    let mut field: Option<String> = None;
    let mut shape: Option<Shape> = None;
    let mut indexed: Option<IndexedShape> = None;
    let mut relation = Relation::Intersects;
    let (mut ignore_unmapped, mut boost) = (false, 1.0f32);
    for (key, v) in o {
        match v {
            Value::Object(members) => {
                if field.is_some() {
                    return Err(parsing(format!("[{NAME}] point specified twice. [{key}]")));
                }
                field = Some(key.clone());
                for (k, inner) in members {
                    match k.as_str() {
                        "shape" => shape = shape::parse(inner, ShapeOptions::default()).map_err(shape_error)?,
                        "strategy" => {
                            let s = value_to_string(inner);
                            if !["recursive", "term"].contains(&s.as_str()) {
                                return Err(Error::illegal_argument(format!("Unknown strategy [{s}]")));
                            }
                        }
                        "relation" => {
                            let name = value_to_string(inner);
                            relation = Relation::from_name(&name)
                                .ok_or_else(|| parsing(format!("Unknown shape operation [{name} ]")))?;
                        }
                        "indexed_shape" => indexed = Some(indexed_shape(inner)?),
                        other => return Err(parsing(format!("[{NAME}] query does not support [{other}]"))),
                    }
                }
            }
            _ => match key.as_str() {
                "_name" => {}
                "boost" => {
                    boost = num_f32(v).ok_or_else(|| parsing(format!("[{NAME}] query [boost] must be a number")))?
                }
                "ignore_unmapped" => {
                    ignore_unmapped = bool_of(v).ok_or_else(|| {
                        Error::illegal_argument(format!(
                            "Failed to parse value [{}] as only [true] or [false] are allowed.",
                            value_to_string(v)
                        ))
                    })?
                }
                other => return Err(parsing(format!("[{NAME}] query does not support [{other}]"))),
            },
        }
    }
    let field = field.ok_or_else(|| Error::illegal_argument("fieldName is required"))?;
    let shape = match (shape, indexed) {
        (Some(s), _) => ShapeSource::Inline(s),
        (None, Some(i)) => ShapeSource::Indexed(i),
        (None, None) => {
            return Err(Error::illegal_argument(
                "either shapeBytes or indexedShapeId and indexedShapeType are required",
            ))
        }
    };
    Ok(Query::GeoShape(Box::new(GeoShapeQuery { field, shape, relation, ignore_unmapped, boost })))
}

fn indexed_shape(v: &Value) -> Result<IndexedShape> {
    let o = v.as_object().ok_or_else(|| parsing(format!("[{NAME}] query does not support [indexed_shape]")))?;
    let mut shape = IndexedShape { id: String::new(), doc_type: None, index: "shapes".into(), path: "shape".into() };
    let mut id = None;
    for (k, v) in o {
        let text = value_to_string(v);
        match k.as_str() {
            "id" => id = Some(text),
            "type" => shape.doc_type = Some(text),
            "index" => shape.index = text,
            "path" => shape.path = text,
            "routing" => {}
            other => return Err(parsing(format!("[{NAME}] query does not support [{other}]"))),
        }
    }
    shape.id = id.ok_or_else(|| {
        Error::illegal_argument("either shapeBytes or indexedShapeId and indexedShapeType are required")
    })?;
    Ok(shape)
}
