//! `weighted_avg` (ES 6.8's `WeightedAvgAggregator`): per document with a value and a
//! weight (its own or the `missing` one), each value times the weight is summed and the
//! weight once per value; the answer is their ratio (`null` when the weights sum to 0).

use super::metrics::Sum;
use super::values::{FieldValues, ValueKind};
use super::{Ctx, Typed};
use crate::date::DateFormat;
use crate::error::{Error, Exception, Result};
use crate::index::DocSet;
use crate::request::weighted_avg_agg::WeightedAvgSpec;
use crate::search::response::aggregations::{AggBody, Num};

/// `weighted_avg`.
pub fn weighted_avg(ctx: &Ctx<'_>, spec: &WeightedAvgSpec, docs: &[DocSet]) -> Result<Typed> {
    let mut values = FieldValues::open(ctx, &spec.value)?;
    let mut weights = FieldValues::open(ctx, &spec.weight)?;
    for (fv, f) in [(&mut values, &spec.value), (&mut weights, &spec.weight)] {
        fv.require_numeric(ctx, &f.field, "weighted_avg")?;
        fv.numeric_missing_when_unmapped(ctx)?;
    }
    let (mut sum, mut weight_sum) = (Sum::default(), Sum::default());
    let mut doc_weights = Vec::with_capacity(1);
    for (t, d) in docs.iter().enumerate() {
        for doc in super::walk(d) {
            doc_weights.clear();
            weights.for_each_number(t, doc, |w| doc_weights.push(w));
            let weight = match doc_weights.as_slice() {
                [] => continue,
                [w] => *w,
                _ => {
                    return Err(Error::all_shards_failed(
                        500,
                        ctx.targets.first().map(|t| t.meta.name.as_str()),
                        Exception::new(
                            "aggregation_execution_exception",
                            "Encountered more than one weight for a single document. Use a script to combine multiple weights-per-doc into a single value.",
                        ),
                    ))
                }
            };
            values.for_each_number(t, doc, |v| {
                sum.add(v * weight);
                weight_sum.add(weight);
            });
        }
    }
    let body = if weight_sum.value == 0.0 {
        AggBody::Value { value: Num::Double(f64::NAN), as_string: None }
    } else {
        let avg = sum.value / weight_sum.value;
        AggBody::Value { value: Num::Double(avg), as_string: value_as_string(&values, spec.format.as_deref(), avg)? }
    };
    Ok(("weighted_avg", body))
}

/// `value_as_string`: the average in the request's date `format` over a date value
/// field, or in the field's own format.
fn value_as_string(values: &FieldValues, format: Option<&str>, v: f64) -> Result<Option<String>> {
    match (&values.kind, format) {
        (ValueKind::Date(_), Some(f)) => {
            let fmt = DateFormat::parse_format(f).map_err(|e| Error::illegal_argument(e.message))?;
            Ok(Some(fmt.format(v as i64)))
        }
        _ => Ok(values.value_as_string(v)),
    }
}
