//! `function_score`: field_value_factor, weight and random_score, with ES 6.8's score and
//! boost modes.

use super::exec::Executor;
use super::matches::Matches;
use crate::error::{Error, Exception, Result};
use crate::query::{FunctionScoreQuery, ScoreFunctionKind};

fn modifier(name: &str, v: f64) -> f64 {
    match name {
        "log" => v.log10(),
        "log1p" => (v + 1.0).log10(),
        "log2p" => (v + 2.0).log10(),
        "ln" => v.ln(),
        "ln1p" => v.ln_1p(),
        "ln2p" => (v + 2.0).ln(),
        "square" => v * v,
        "sqrt" => v.sqrt(),
        "reciprocal" => 1.0 / v,
        _ => v,
    }
}

/// A 32-bit mix of (seed, doc) mapped to [0, 1): deterministic per seed, like ES's
/// random_score with a seed.
fn random_for(seed: i64, doc: u32, salt: u64) -> f32 {
    let mut x = (seed as u64) ^ ((doc as u64) << 32) ^ salt;
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    (x >> 40) as f32 / (1u64 << 24) as f32
}

/// Executes a function_score query.
pub fn run(ex: &Executor<'_>, fs: &FunctionScoreQuery, boost: f32, scoring: bool) -> Result<Matches> {
    let inner = ex.run(&fs.query, 1.0, scoring)?;
    let filters = fs
        .functions
        .iter()
        .map(|f| f.filter.as_ref().map(|q| ex.run(q, 1.0, false).map(|m| m.into_docset())).transpose())
        .collect::<Result<Vec<_>>>()?;
    let mut dvs = Vec::new();
    for f in &fs.functions {
        dvs.push(match &f.kind {
            ScoreFunctionKind::FieldValueFactor { field, .. } => ex.reader.numeric_doc_values(ex.snap, field)?,
            _ => None,
        });
    }
    let salt = ex.reader.meta.uuid.bytes().fold(0u64, |a, b| a.wrapping_mul(31).wrapping_add(b as u64));
    let mut out = Vec::with_capacity(inner.len() as usize);
    let mut err: Option<Error> = None;
    inner.for_each(|doc, q_score| {
        if err.is_some() {
            return;
        }
        let mut values: Vec<(f32, f32)> = Vec::new(); // (function value, weight)
        for (i, f) in fs.functions.iter().enumerate() {
            if let Some(filter) = &filters[i] {
                if !filter.contains(doc) {
                    continue;
                }
            }
            let w = f.weight.unwrap_or(1.0);
            let v = match &f.kind {
                ScoreFunctionKind::Weight => 1.0,
                ScoreFunctionKind::RandomScore { seed, .. } => random_for(seed.unwrap_or(0), doc, salt),
                ScoreFunctionKind::FieldValueFactor { field, factor, modifier: m, missing } => {
                    let value = dvs[i].as_ref().and_then(|dv| dv.values_f64(doc).next()).or(*missing);
                    let Some(value) = value else {
                        err = Some(Error::new(
                            400,
                            Exception::new("exception", format!("Missing value for field [{field}]")),
                        ));
                        return;
                    };
                    let r = modifier(m, value * *factor as f64);
                    if !r.is_finite() {
                        err = Some(Error::illegal_argument(format!(
                            "Result of field modification [{m}({})] must be a number",
                            value * *factor as f64
                        )));
                        return;
                    }
                    r as f32
                }
            };
            values.push((v * w, w));
        }
        let func = if values.is_empty() {
            1.0f32
        } else {
            match fs.score_mode.as_str() {
                "sum" => values.iter().map(|v| v.0).sum(),
                "avg" => {
                    let tw: f32 = values.iter().map(|v| v.1).sum();
                    values.iter().map(|v| v.0).sum::<f32>() / tw
                }
                "first" => values[0].0,
                "max" => values.iter().map(|v| v.0).fold(f32::NEG_INFINITY, f32::max),
                "min" => values.iter().map(|v| v.0).fold(f32::INFINITY, f32::min),
                _ => values.iter().map(|v| v.0).product(),
            }
        };
        let func = func.min(fs.max_boost);
        let combined = match fs.boost_mode.as_str() {
            "replace" => func,
            "sum" => q_score + func,
            "avg" => (q_score + func) / 2.0,
            "max" => q_score.max(func),
            "min" => q_score.min(func),
            _ => q_score * func,
        };
        let score = combined * boost * fs.boost;
        if let Some(min) = fs.min_score {
            if score < min {
                return;
            }
        }
        out.push((doc, score));
    });
    if let Some(e) = err {
        return Err(e);
    }
    Ok(Matches::Scored(out))
}
