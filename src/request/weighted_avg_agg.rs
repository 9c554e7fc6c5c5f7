//! `weighted_avg` (ES 6.8's `WeightedAvgAggregationBuilder`): a `value` and a `weight`
//! source, each a field with an optional `missing`, and the output `format`.

use super::aggs::{field_key, parse_err, unknown_field, FieldSpec};
use crate::error::{Error, Exception, Result};
use crate::json_value::token_name;
use serde_json::{Map, Value};

/// `weighted_avg`.
#[derive(Debug, Clone)]
pub struct WeightedAvgSpec {
    /// The values averaged.
    pub value: FieldSpec,
    /// Their weights (one per document).
    pub weight: FieldSpec,
    /// `format` of `value_as_string`.
    pub format: Option<String>,
}

/// Parses the body of a `weighted_avg`.
pub fn parse(o: &Map<String, Value>) -> Result<WeightedAvgSpec> {
    let t = "weighted_avg";
    let (mut value, mut weight, mut format) = (None, None, None);
    for (k, v) in o {
        match k.as_str() {
            "value" => value = Some(source_config(k, v)?),
            "weight" => weight = Some(source_config(k, v)?),
            "format" => {
                format = Some(
                    v.as_str()
                        .ok_or_else(|| {
                            parse_err(format!("[{t}] {k} doesn't support values of type: {}", token_name(v)))
                        })?
                        .to_string(),
                )
            }
            // ES reads `value_type` and only checks it names a type.
            "value_type" | "valueType" => {
                let mut ignored = FieldSpec::default();
                field_key(t, "value_type", v, &mut ignored)?;
            }
            _ => return Err(unknown_field(t, k)),
        }
    }
    // ES 6.8 builds the aggregator with whatever was given and fails with a null pointer
    // without one of them; a 400 says what is missing instead.
    let (Some(value), Some(weight)) = (value, weight) else {
        return Err(Error::illegal_argument("[weighted_avg] requires both a [value] and a [weight]"));
    };
    Ok(WeightedAvgSpec { value, weight, format })
}

/// One `MultiValuesSourceFieldConfig`: `field`, `missing` (and `script`, refused).
fn source_config(key: &str, v: &Value) -> Result<FieldSpec> {
    let Value::Object(o) = v else {
        return Err(parse_err(format!("[weighted_avg] {key} doesn't support values of type: {}", token_name(v))));
    };
    let mut f = FieldSpec::default();
    for (k, x) in o {
        match k.as_str() {
            "field" | "missing" => {
                field_key("field_config", k, x, &mut f)?;
            }
            "script" => {
                return Err(Error::all_shards_failed(
                    400,
                    None,
                    Exception::new("illegal_argument_exception", "cannot execute scripts using [aggs] context"),
                ))
            }
            _ => return Err(unknown_field("field_config", k)),
        }
    }
    if f.field.is_empty() {
        return Err(Error::illegal_argument(
            "[field] and [script] cannot both be null.  Please specify one or the other.",
        ));
    }
    Ok(f)
}
