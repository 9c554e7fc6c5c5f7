//! The range field types (`integer_range`, `long_range`, `float_range`, `double_range`,
//! `date_range`, `ip_range`) as ES 6.8's `RangeFieldMapper` reads their values: an
//! object of `gt` / `gte` / `lt` / `lte` (a missing or `null` bound is the type's least
//! or greatest value; an exclusive bound is stored as the next value inward: `gt: 5` as
//! 6, a float's `Math.nextUp`, an address's next address), or for `ip_range` a CIDR
//! block. The relations the `range` query tests (Lucene's `RangeFieldQuery`) are here
//! too.
//!
//! Each range is indexed as one keyword-like term of its two bounds, each an
//! order-preserving 128-bit key ([`Bound::key`]) in 32 hex digits: a query decodes the
//! field's terms and keeps those in the asked relation.

use super::{ip, FieldMapping, FieldType, FieldValue, Leaf, Mapping};
use crate::error::{Error, Exception, Result};

/// Which range type a field is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RangeKind {
    /// `integer_range`.
    Integer,
    /// `long_range`.
    Long,
    /// `float_range`.
    Float,
    /// `double_range`.
    Double,
    /// `date_range` (epoch milliseconds).
    Date,
    /// `ip_range`.
    Ip,
}

impl RangeKind {
    /// The kind an ES type name names.
    pub fn from_name(name: &str) -> Option<RangeKind> {
        Some(match name {
            "integer_range" => RangeKind::Integer,
            "long_range" => RangeKind::Long,
            "float_range" => RangeKind::Float,
            "double_range" => RangeKind::Double,
            "date_range" => RangeKind::Date,
            "ip_range" => RangeKind::Ip,
            _ => return None,
        })
    }

    /// The ES type name.
    pub fn name(self) -> &'static str {
        match self {
            RangeKind::Integer => "integer_range",
            RangeKind::Long => "long_range",
            RangeKind::Float => "float_range",
            RangeKind::Double => "double_range",
            RangeKind::Date => "date_range",
            RangeKind::Ip => "ip_range",
        }
    }

    /// The name of ES's `RangeType` constant (its errors print it).
    pub fn java_name(self) -> &'static str {
        match self {
            RangeKind::Integer => "INTEGER",
            RangeKind::Long => "LONG",
            RangeKind::Float => "FLOAT",
            RangeKind::Double => "DOUBLE",
            RangeKind::Date => "DATE",
            RangeKind::Ip => "IP",
        }
    }

    /// The field type of one bound (addresses have none: they parse on their own).
    fn element(self) -> FieldType {
        match self {
            RangeKind::Integer => FieldType::Integer,
            RangeKind::Long => FieldType::Long,
            RangeKind::Float => FieldType::Float,
            RangeKind::Double => FieldType::Double,
            RangeKind::Date => FieldType::Date,
            RangeKind::Ip => FieldType::Ip,
        }
    }

    /// The type's least value (an open lower end).
    pub fn min(self) -> Bound {
        match self {
            RangeKind::Integer => Bound::Int(i64::from(i32::MIN)),
            RangeKind::Long | RangeKind::Date => Bound::Int(i64::MIN),
            RangeKind::Float | RangeKind::Double => Bound::Float(f64::NEG_INFINITY),
            RangeKind::Ip => Bound::Ip(ip::MIN),
        }
    }

    /// The type's greatest value (an open upper end).
    pub fn max(self) -> Bound {
        match self {
            RangeKind::Integer => Bound::Int(i64::from(i32::MAX)),
            RangeKind::Long | RangeKind::Date => Bound::Int(i64::MAX),
            RangeKind::Float | RangeKind::Double => Bound::Float(f64::INFINITY),
            RangeKind::Ip => Bound::Ip(ip::MAX),
        }
    }

    /// The next value up, as ES's `RangeType.nextUp` computes it (Java's int and long
    /// arithmetic wraps); `None` past the highest address.
    pub fn next_up(self, b: Bound) -> Option<Bound> {
        Some(match (self, b) {
            (RangeKind::Integer, Bound::Int(v)) => Bound::Int(i64::from((v as i32).wrapping_add(1))),
            (_, Bound::Int(v)) => Bound::Int(v.wrapping_add(1)),
            (RangeKind::Float, Bound::Float(v)) => Bound::Float(f64::from((v as f32).next_up())),
            (_, Bound::Float(v)) => Bound::Float(v.next_up()),
            (_, Bound::Ip(a)) => Bound::Ip(ip::next_up(&a)?),
        })
    }

    /// The next value down (`RangeType.nextDown`); `None` below the lowest address.
    pub fn next_down(self, b: Bound) -> Option<Bound> {
        Some(match (self, b) {
            (RangeKind::Integer, Bound::Int(v)) => Bound::Int(i64::from((v as i32).wrapping_sub(1))),
            (_, Bound::Int(v)) => Bound::Int(v.wrapping_sub(1)),
            (RangeKind::Float, Bound::Float(v)) => Bound::Float(f64::from((v as f32).next_down())),
            (_, Bound::Float(v)) => Bound::Float(v.next_down()),
            (_, Bound::Ip(a)) => Bound::Ip(ip::next_down(&a)?),
        })
    }
}

/// One end of a range, typed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// Integers, longs and dates.
    Int(i64),
    /// Floats (exactly widened) and doubles.
    Float(f64),
    /// An address.
    Ip(ip::Ip),
}

impl Bound {
    /// A 128-bit key whose order is the values' order (floats by their sortable bits,
    /// `-0.0` below `0.0` as Lucene's encoding has it).
    pub fn key(self) -> u128 {
        match self {
            Bound::Int(v) => u128::from((v as u64) ^ (1 << 63)),
            Bound::Float(f) => {
                let bits = f.to_bits();
                u128::from(if bits >> 63 == 1 { !bits } else { bits | (1 << 63) })
            }
            Bound::Ip(a) => u128::from_be_bytes(a),
        }
    }

    /// The value as Java prints it in Lucene's range errors.
    fn java_text(self, kind: RangeKind) -> String {
        match self {
            Bound::Int(v) => v.to_string(),
            Bound::Float(f) if kind == RangeKind::Float => {
                java_layout(f64::from(f as f32), format!("{}", f as f32), format!("{:e}", f as f32))
            }
            Bound::Float(f) => java_layout(f, format!("{f}"), format!("{f:e}")),
            Bound::Ip(a) => ip::format(&a),
        }
    }
}

/// Java's `Float.toString` / `Double.toString` from Rust's shortest digits.
fn java_layout(v: f64, plain: String, scientific: String) -> String {
    if v.is_infinite() {
        return if v > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    let with_fraction = |s: &str| if s.contains('.') { s.to_string() } else { format!("{s}.0") };
    if v == 0.0 || (1e-3..1e7).contains(&v.abs()) {
        with_fraction(&plain)
    } else {
        let (mantissa, exp) = scientific.split_once('e').unwrap_or((&scientific, "0"));
        format!("{}E{exp}", with_fraction(mantissa))
    }
}

/// The indexed term of a range: both bounds' keys in hex.
pub fn term(lo: Bound, hi: Bound) -> String {
    format!("{:032x}{:032x}", lo.key(), hi.key())
}

/// The bounds' keys a term holds.
pub fn decode_term(t: &[u8]) -> Option<(u128, u128)> {
    if t.len() != 64 {
        return None;
    }
    let text = std::str::from_utf8(t).ok()?;
    Some((u128::from_str_radix(text.get(..32)?, 16).ok()?, u128::from_str_radix(text.get(32..)?, 16).ok()?))
}

/// How a `range` query relates its range to a document's (`relation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Relation {
    /// The ranges overlap (the default).
    Intersects,
    /// The document's range contains the query's.
    Contains,
    /// The document's range lies within the query's.
    Within,
}

impl Relation {
    /// Whether a document range `doc` stands in this relation to `query` (inclusive
    /// keys).
    pub fn holds(self, doc: (u128, u128), query: (u128, u128)) -> bool {
        match self {
            Relation::Intersects => doc.0 <= query.1 && doc.1 >= query.0,
            Relation::Contains => doc.0 <= query.0 && doc.1 >= query.1,
            Relation::Within => doc.0 >= query.0 && doc.1 <= query.1,
        }
    }
}

/// A `mapper_parsing_exception` for a range value, as ES's `FieldMapper.parse` wraps
/// its cause.
fn value_error(field: &FieldMapping, kind: RangeKind, cause: Exception) -> Error {
    Error::new(
        400,
        Exception::new(
            "mapper_parsing_exception",
            format!("failed to parse field [{}] of type [{}]", field.path, kind.name()),
        )
        .caused_by(cause),
    )
}

/// The term of a range given as an object: `members` are its keys with their values
/// (`None` for `null`).
pub fn object_term(
    field: &FieldMapping,
    kind: RangeKind,
    members: &[(&str, Option<Leaf<'_>>)],
    date_format: Option<&crate::date::DateFormat>,
) -> Result<String> {
    let (mut lo, mut hi) = (kind.min(), kind.max());
    for (name, value) in members {
        let (lower, included) = match *name {
            "gt" => (true, false),
            "gte" => (true, true),
            "lt" => (false, false),
            "lte" => (false, true),
            other => {
                return Err(value_error(
                    field,
                    kind,
                    Exception::new(
                        "mapper_parsing_exception",
                        format!("error parsing field [{}], with unknown parameter [{other}]", field.path),
                    ),
                ))
            }
        };
        let Some(value) = value else { continue };
        let v = parse_bound(field, kind, *value, date_format)?;
        let v = match (lower, included) {
            (_, true) => Some(v),
            (true, false) => kind.next_up(v),
            (false, false) => kind.next_down(v),
        }
        .ok_or_else(|| {
            value_error(field, kind, Exception::new("arithmetic_exception", "Overflow: there is no next InetAddress"))
        })?;
        if lower {
            lo = v;
        } else {
            hi = v;
        }
    }
    if lo.key() > hi.key() {
        return Err(value_error(field, kind, Exception::new("illegal_argument_exception", min_over_max(kind, lo, hi))));
    }
    Ok(term(lo, hi))
}

/// Lucene's refusal of a range whose least value is over its greatest.
pub fn min_over_max(kind: RangeKind, lo: Bound, hi: Bound) -> String {
    match kind {
        RangeKind::Ip => "min value cannot be greater than max value for InetAddressRange field".to_string(),
        _ => format!("min value ({}) is greater than max value ({})", lo.java_text(kind), hi.java_text(kind)),
    }
}

/// The term of a range given as a scalar: a CIDR block for `ip_range`, else ES's error.
pub fn scalar_term(field: &FieldMapping, kind: RangeKind, v: Leaf<'_>) -> Result<String> {
    let leaf = field.path.rsplit('.').next().unwrap_or(&field.path);
    match (kind, v) {
        (RangeKind::Ip, Leaf::Str(s)) => {
            let (lo, hi) = ip::parse_cidr(s)
                .map_err(|e| value_error(field, kind, Exception::new("illegal_argument_exception", e)))?;
            Ok(term(Bound::Ip(lo), Bound::Ip(hi)))
        }
        _ => Err(value_error(
            field,
            kind,
            Exception::new(
                "mapper_parsing_exception",
                format!("error parsing field [{}], expected an object but got {leaf}", field.path),
            ),
        )),
    }
}

/// One bound of a document's range, read as the element type reads it (`coerce` and
/// the date format are the field's).
fn parse_bound(
    field: &FieldMapping,
    kind: RangeKind,
    v: Leaf<'_>,
    date_format: Option<&crate::date::DateFormat>,
) -> Result<Bound> {
    if kind == RangeKind::Ip {
        let text = match v {
            Leaf::Str(s) => s.to_string(),
            Leaf::Number(n) => n.to_string(),
            Leaf::Bool(b) => b.to_string(),
        };
        return ip::parse(&text)
            .map(|a| Bound::Ip(a.bytes))
            .map_err(|e| value_error(field, kind, Exception::new("illegal_argument_exception", e)));
    }
    let mut element = field.clone();
    element.ftype = kind.element();
    element.params.declared_type = None;
    match Mapping::coerce_with(&element, v, date_format) {
        Ok(FieldValue::Long(n)) => Ok(Bound::Int(n)),
        Ok(FieldValue::Double(f)) => Ok(Bound::Float(f)),
        Ok(FieldValue::Str(_)) => {
            Err(value_error(field, kind, Exception::new("illegal_argument_exception", "not a number")))
        }
        Err(e) => {
            let cause = Exception::new(e.kind(), e.reason().to_string());
            Err(value_error(field, kind, cause))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_value_order() {
        let ints = [i64::MIN, -5, 0, 7, i64::MAX].map(|v| Bound::Int(v).key());
        assert!(ints.windows(2).all(|w| w[0] < w[1]));
        let floats = [f64::NEG_INFINITY, -1.5, -0.0, 0.0, 1e-300, 2.5, f64::INFINITY].map(|v| Bound::Float(v).key());
        assert!(floats.windows(2).all(|w| w[0] < w[1]));
        let t = term(Bound::Int(1), Bound::Int(10));
        assert_eq!(decode_term(t.as_bytes()), Some((Bound::Int(1).key(), Bound::Int(10).key())));
    }

    #[test]
    fn exclusive_bounds_move_inward_as_es() {
        assert_eq!(RangeKind::Integer.next_up(Bound::Int(5)), Some(Bound::Int(6)));
        assert_eq!(RangeKind::Integer.next_up(Bound::Int(i64::from(i32::MAX))), Some(Bound::Int(i64::from(i32::MIN))));
        assert_eq!(RangeKind::Float.next_up(Bound::Float(1.5)), Some(Bound::Float(f64::from(1.5f32.next_up()))));
        assert_eq!(Bound::Float(f64::from(1.5f32.next_up())).java_text(RangeKind::Float), "1.5000001");
        assert_eq!(Bound::Float(f64::from(1.5f32.next_down())).java_text(RangeKind::Float), "1.4999999");
    }

    /// The cause under ES's `failed to parse field [..] of type [..]`.
    fn cause(kind: RangeKind, members: &[(&str, Option<Leaf<'_>>)]) -> (String, String) {
        let field = FieldMapping::new("r", FieldType::Range(kind));
        let e = object_term(&field, kind, members, None).unwrap_err().to_json();
        let c = &e["error"]["caused_by"];
        (c["type"].as_str().unwrap().to_string(), c["reason"].as_str().unwrap().to_string())
    }

    #[test]
    fn malformed_values_have_es_causes() {
        let n = |v: f64| serde_json::Number::from_f64(v).unwrap();
        let (a, b) = (n(1.5), n(1.5));
        assert_eq!(
            cause(RangeKind::Float, &[("gt", Some(Leaf::Number(&a))), ("lt", Some(Leaf::Number(&b)))]),
            ("illegal_argument_exception".into(), "min value (1.5000001) is greater than max value (1.4999999)".into())
        );
        let (ten, one) = (serde_json::Number::from(10), serde_json::Number::from(1));
        assert_eq!(
            cause(RangeKind::Integer, &[("gte", Some(Leaf::Number(&ten))), ("lte", Some(Leaf::Number(&one)))]).1,
            "min value (10) is greater than max value (1)"
        );
        assert_eq!(
            cause(RangeKind::Integer, &[("foo", Some(Leaf::Number(&one)))]).1,
            "error parsing field [r], with unknown parameter [foo]"
        );
        assert_eq!(
            cause(RangeKind::Ip, &[("gte", Some(Leaf::Str("10.0.0.9"))), ("lte", Some(Leaf::Str("10.0.0.1")))]).1,
            "min value cannot be greater than max value for InetAddressRange field"
        );
        let field = FieldMapping::new("r", FieldType::Range(RangeKind::Ip));
        let e = scalar_term(&field, RangeKind::Ip, Leaf::Str("10.0.0.1")).unwrap_err().to_json();
        assert_eq!(e["error"]["caused_by"]["reason"], "Expected [ip/prefix] but was [10.0.0.1]");
        let field = FieldMapping::new("a.r", FieldType::Range(RangeKind::Long));
        let e = scalar_term(&field, RangeKind::Long, Leaf::Number(&one)).unwrap_err().to_json();
        assert_eq!(e["error"]["caused_by"]["reason"], "error parsing field [a.r], expected an object but got r");
    }

    #[test]
    fn relations_as_lucene() {
        let q = (5, 10);
        assert!(Relation::Intersects.holds((1, 5), q) && !Relation::Intersects.holds((1, 4), q));
        assert!(Relation::Contains.holds((5, 10), q) && !Relation::Contains.holds((6, 20), q));
        assert!(Relation::Within.holds((6, 9), q) && !Relation::Within.holds((4, 9), q));
    }
}
