//! The `ip_range` aggregation's body, read as ES 6.8's `IpRangeAggregationBuilder` reads
//! it: ranges of addresses (`from` included, `to` excluded) or CIDR `mask`s, `keyed`,
//! and the values-source keys (`field`, `missing`, ...). Addresses are checked here, as
//! ES checks them when it parses the request.

use super::aggs::FieldSpec;
use crate::error::{Error, Result};
use crate::mapping::ip::{self, Ip};
use serde_json::{Map, Value};

/// `ip_range`.
#[derive(Debug, Clone)]
pub struct IpRangeSpec {
    /// The field.
    pub field: FieldSpec,
    /// The ranges, in request order.
    pub ranges: Vec<IpRange>,
    /// Render buckets as an object keyed by the range key.
    pub keyed: bool,
}

/// One range: its key (a mask's is the mask) and bounds (`None`: open).
#[derive(Debug, Clone, PartialEq)]
pub struct IpRange {
    /// The key given, or the mask.
    pub key: Option<String>,
    /// Lowest address, included.
    pub from: Option<Ip>,
    /// Address past the range, excluded.
    pub to: Option<Ip>,
}

/// Parses an `ip_range` body; `field_key` reads the values-source keys.
pub fn parse(
    name: &str,
    o: &Map<String, Value>,
    field_key: impl Fn(&str, &Value, &mut FieldSpec) -> Result<bool>,
) -> Result<IpRangeSpec> {
    let t = "ip_range";
    let mut spec = IpRangeSpec { field: FieldSpec::default(), ranges: Vec::new(), keyed: false };
    for (k, v) in o {
        if field_key(k, v, &mut spec.field)? {
            continue;
        }
        match k.as_str() {
            "keyed" => {
                spec.keyed = crate::json_value::bool_of(v)
                    .ok_or_else(|| Error::parsing_no_pos(format!("[{t}] failed to parse field [keyed]")))?
            }
            "ranges" => {
                let Value::Array(items) = v else {
                    return Err(Error::parsing_no_pos(format!("[{t}] failed to parse field [ranges]")));
                };
                for item in items {
                    let Value::Object(r) = item else {
                        return Err(Error::parsing_no_pos(format!("[{t}] failed to parse field [ranges]")));
                    };
                    spec.ranges.push(parse_range(r)?);
                }
            }
            _ => return Err(Error::parsing_no_pos(format!("[{t}] unknown field [{k}], parser not found"))),
        }
    }
    if spec.ranges.is_empty() {
        return Err(Error::illegal_argument(format!("No [ranges] specified for the [{name}] aggregation")));
    }
    if spec.field.field.is_empty() {
        return Err(Error::illegal_argument("Required one of fields [field, script], but none were specified. "));
    }
    Ok(spec)
}

fn parse_range(r: &Map<String, Value>) -> Result<IpRange> {
    let text = |v: &Value| match v {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    };
    let (mut key, mut from, mut to, mut mask) = (None, None, None, None);
    for (k, v) in r {
        match k.as_str() {
            "key" => key = text(v),
            "from" => from = text(v),
            "to" => to = text(v),
            "mask" => mask = text(v),
            other => return Err(Error::parsing_no_pos(format!("Unexpected ip range parameter: [{other}]"))),
        }
    }
    let address = |s: &str| ip::parse(s).map(|a| a.bytes).map_err(Error::illegal_argument);
    match mask {
        Some(mask) => {
            let (lo, hi) = mask_block(&mask)?;
            // A block from the lowest address has no `from`; one up to the highest no `to`.
            Ok(IpRange {
                key: Some(key.unwrap_or_else(|| mask.clone())),
                from: (lo != ip::MIN).then_some(lo),
                to: ip::next_up(&hi),
            })
        }
        None => Ok(IpRange {
            key,
            from: from.as_deref().map(address).transpose()?,
            to: to.as_deref().map(address).transpose()?,
        }),
    }
}

/// A `mask`'s first and last address (`InetAddresses.parseCidr`, with its errors).
fn mask_block(mask: &str) -> Result<(Ip, Ip)> {
    ip::parse_cidr(mask).map_err(Error::illegal_argument)
}
