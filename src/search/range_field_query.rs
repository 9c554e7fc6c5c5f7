//! Queries on the range field types, as ES 6.8's `RangeFieldType` builds them: a `range`
//! query tests its range against each document's in the asked `relation` (intersects,
//! contains, within), and a `term` is the range of its one value, intersecting. The
//! query's bounds are read as the type's values (no coercion: a fraction on an integer
//! range is refused), an exclusive bound moved to the next value inward, as Lucene's
//! range queries take them.

use super::context::{number_value, query_shard_error, Executor};
use crate::error::Result;
use crate::index::DocSet;
use crate::mapping::ranges::{self, Bound, RangeKind, Relation};
use crate::mapping::{ip, FieldMapping, FieldType};
use crate::query::{RangeQuery, Scalar};

/// The documents a `term` of `value` matches: those whose range contains it.
pub fn term_docs(ex: &Executor<'_>, fm: &FieldMapping, kind: RangeKind, value: &Scalar) -> Result<DocSet> {
    let r = RangeQuery {
        field: fm.path.clone(),
        lower: Some((value.clone(), true)),
        upper: Some((value.clone(), true)),
        format: None,
        time_zone: None,
        relation: None,
        boost: 1.0,
    };
    range_docs(ex, fm, kind, &r)
}

/// The documents whose range stands in `r.relation` to the range `r` asks for.
pub fn range_docs(ex: &Executor<'_>, fm: &FieldMapping, kind: RangeKind, r: &RangeQuery) -> Result<DocSet> {
    let bound = |b: &Option<(Scalar, bool)>, lower: bool| -> Result<Option<Bound>> {
        let Some((v, included)) = b else { return Ok(Some(if lower { kind.min() } else { kind.max() })) };
        let v = query_value(ex, fm, kind, v, r)?;
        Ok(match (included, lower) {
            (true, _) => Some(v),
            (false, true) => kind.next_up(v),
            (false, false) => kind.next_down(v),
        })
    };
    // An exclusive bound past the last address leaves nothing to match.
    let (Some(lo), Some(hi)) = (bound(&r.lower, true)?, bound(&r.upper, false)?) else {
        return Ok(DocSet::new());
    };
    if lo.key() > hi.key() {
        return Err(query_shard_error(ranges::min_over_max(kind, lo, hi)));
    }
    let relation = r.relation.unwrap_or(Relation::Intersects);
    let query = (lo.key(), hi.key());
    super::terms::terms_where(ex, &fm.path, &mut |t| {
        ranges::decode_term(t).is_some_and(|doc| relation.holds(doc, query))
    })
}

/// A query bound read as `kind`'s values are (`NumberType.parse` without coercion, the
/// date parser with the query's or the field's format, `InetAddresses.forString`).
fn query_value(ex: &Executor<'_>, fm: &FieldMapping, kind: RangeKind, v: &Scalar, r: &RangeQuery) -> Result<Bound> {
    let text = v.text();
    let as_double = || -> Result<f64> {
        match v {
            Scalar::Text(s) => {
                s.trim().parse::<f64>().map_err(|_| query_shard_error(format!("For input string: \"{s}\"")))
            }
            _ => v.as_f64().ok_or_else(|| query_shard_error(format!("For input string: \"{text}\""))),
        }
    };
    let integral = |lo: f64, hi: f64, what: &str| -> Result<i64> {
        if let (Scalar::Long(n), true) = (v, what == "a long") {
            return Ok(*n);
        }
        let d = as_double()?;
        if d < lo || d > hi {
            return Err(query_shard_error(format!("Value [{text}] is out of range for {what}")));
        }
        if d % 1.0 != 0.0 {
            return Err(query_shard_error(format!("Value [{text}] has a decimal part")));
        }
        Ok(match v {
            Scalar::Long(n) => *n,
            _ => d as i64,
        })
    };
    let finite = |f: f64, name: &str, shown: String| -> Result<f64> {
        match f.is_finite() {
            true => Ok(f),
            false => Err(query_shard_error(format!("[{name}] supports only finite values, but got [{shown}]"))),
        }
    };
    Ok(match kind {
        RangeKind::Integer => Bound::Int(integral(f64::from(i32::MIN), f64::from(i32::MAX), "an integer")?),
        RangeKind::Long => Bound::Int(integral(i64::MIN as f64, i64::MAX as f64, "a long")?),
        RangeKind::Float => {
            let f = as_double()? as f32;
            Bound::Float(finite(f64::from(f), "float", f.to_string())?)
        }
        RangeKind::Double => {
            let f = as_double()?;
            Bound::Float(finite(f, "double", f.to_string())?)
        }
        RangeKind::Date => {
            let mut date = fm.clone();
            date.ftype = FieldType::Date;
            match number_value(&date, v, false, r.format.as_deref(), r.time_zone.as_deref(), ex.now_ms)? {
                crate::index::Num::I(ms) => Bound::Int(ms),
                crate::index::Num::F(ms) => Bound::Int(ms as i64),
            }
        }
        RangeKind::Ip => Bound::Ip(ip::parse(&text).map_err(query_shard_error)?.bytes),
    })
}
