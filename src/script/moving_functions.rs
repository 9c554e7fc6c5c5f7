//! `MovingFunctions`, the helpers ES 6.8 gives `moving_fn` scripts (`max`, `min`,
//! `sum`, `unweightedAvg`, `linearWeightedAvg`, `ewma`, `holt`, `holtWinters`,
//! `stdDev`), computed in ES's order of operations, and their allow-list entry: the
//! class's static methods over a `double[]`.

use super::ops::Num;
use super::value::{Heap, Value};
use super::Halt;

/// Java's `DoubleStream.sum` as the JDK ES 6.8 ships (12) computes it: Kahan summation
/// (`Collectors.sumWithCompensation`), then `computeFinalSum` adding the compensation to
/// the sum (JDK 18 subtracts it instead), the simple sum when that is NaN and the simple
/// sum infinite.
fn java_stream_sum(values: impl Iterator<Item = f64>) -> f64 {
    let (mut sum, mut c, mut simple) = (0.0f64, 0.0f64, 0.0f64);
    for v in values {
        simple += v;
        let y = v - c;
        let t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    let total = sum + c;
    if total.is_nan() && simple.is_infinite() {
        simple
    } else {
        total
    }
}

/// `MovingFunctions.max`: NaN for no values (a NaN among them wins, as `Math.max`).
pub fn max(values: &[f64]) -> f64 {
    values.iter().copied().reduce(|a, b| if a.is_nan() || b.is_nan() { f64::NAN } else { a.max(b) }).unwrap_or(f64::NAN)
}

/// `MovingFunctions.min`.
pub fn min(values: &[f64]) -> f64 {
    values.iter().copied().reduce(|a, b| if a.is_nan() || b.is_nan() { f64::NAN } else { a.min(b) }).unwrap_or(f64::NAN)
}

/// `MovingFunctions.sum`: NaNs count as 0; 0.0 for no values.
pub fn sum(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    java_stream_sum(values.iter().map(|v| if v.is_nan() { 0.0 } else { *v }))
}

/// `MovingFunctions.unweightedAvg`: the mean of the non-NaN values.
pub fn unweighted_avg(values: &[f64]) -> f64 {
    let (mut avg, mut count) = (0.0, 0u64);
    for v in values.iter().filter(|v| !v.is_nan()) {
        avg += v;
        count += 1;
    }
    if count == 0 {
        f64::NAN
    } else {
        avg / count as f64
    }
}

/// `MovingFunctions.stdDev` around `avg`.
pub fn std_dev(values: &[f64], avg: f64) -> f64 {
    if avg.is_nan() {
        return f64::NAN;
    }
    let (mut squared, mut count) = (0.0, 0u64);
    for v in values.iter().filter(|v| !v.is_nan()) {
        squared += (v - avg).powi(2);
        count += 1;
    }
    (squared / count as f64).sqrt()
}

/// `MovingFunctions.linearWeightedAvg`.
pub fn linear_weighted_avg(values: &[f64]) -> f64 {
    let (mut avg, mut total, mut current) = (0.0, 1u64, 1u64);
    for v in values.iter().filter(|v| !v.is_nan()) {
        avg += v * current as f64;
        total += current;
        current += 1;
    }
    if total == 1 {
        f64::NAN
    } else {
        avg / total as f64
    }
}

/// `MovingFunctions.ewma`.
pub fn ewma(values: &[f64], alpha: f64) -> f64 {
    let mut avg = f64::NAN;
    let mut first = true;
    for &v in values.iter().filter(|v| !v.is_nan()) {
        if first {
            avg = v;
            first = false;
        } else {
            avg = (v * alpha) + (avg * (1.0 - alpha));
        }
    }
    avg
}

/// Holt's linear smoothing: the last level and trend of the non-NaN values (`None`
/// without any).
fn holt_state(values: &[f64], alpha: f64, beta: f64) -> Option<(f64, f64)> {
    let (mut s, mut last_s, mut b, mut last_b) = (0.0, 0.0, 0.0, 0.0);
    let mut counter = 0;
    for &v in values.iter().filter(|v| !v.is_nan()) {
        if counter == 0 {
            s = v;
            b = 0.0;
        } else {
            s = alpha * v + (1.0 - alpha) * (last_s + last_b);
            b = beta * (s - last_s) + (1.0 - beta) * last_b;
        }
        counter += 1;
        last_s = s;
        last_b = b;
    }
    (counter > 0).then_some((s, b))
}

/// `MovingFunctions.holt`.
pub fn holt(values: &[f64], alpha: f64, beta: f64) -> f64 {
    holt_state(values, alpha, beta).map(|(s, _)| s).unwrap_or(f64::NAN)
}

/// Holt-Winters' smoothing over `values`: the level, trend and seasonal components, or
/// ES's error when there are fewer than two seasons.
pub(crate) fn holt_winters_state(
    values: &[f64],
    alpha: f64,
    beta: f64,
    gamma: f64,
    period: usize,
    multiplicative: bool,
    padding: f64,
) -> Result<Option<(f64, f64, Vec<f64>)>, String> {
    if values.len() < period * 2 {
        return Err(format!(
            "Holt-Winters aggregation requires at least (2 * period == 2 * {period} == {}) data-points to function.  Only [{}] were provided.",
            2 * period,
            values.len()
        ));
    }
    let vs: Vec<f64> = values.iter().filter(|v| !v.is_nan()).map(|v| v + padding).collect();
    if vs.is_empty() || vs.len() < period * 2 {
        return Ok(None);
    }
    let (mut s, mut b) = (0.0, 0.0);
    for i in 0..period {
        s += vs[i];
        b += (vs[i + period] - vs[i]) / period as f64;
    }
    s /= period as f64;
    b /= period as f64;
    let mut last_s = s;
    let mut last_b = 0.0;
    let mut seasonal = vec![0.0; vs.len()];
    if s != 0.0 {
        for i in 0..period {
            seasonal[i] = vs[i] / s;
        }
    }
    for i in period..vs.len() {
        s = if multiplicative {
            alpha * (vs[i] / seasonal[i - period]) + (1.0 - alpha) * (last_s + last_b)
        } else {
            alpha * (vs[i] - seasonal[i - period]) + (1.0 - alpha) * (last_s + last_b)
        };
        b = beta * (s - last_s) + (1.0 - beta) * last_b;
        seasonal[i] = if multiplicative {
            gamma * (vs[i] / (last_s + last_b)) + (1.0 - gamma) * seasonal[i - period]
        } else {
            gamma * (vs[i] - (last_s - last_b)) + (1.0 - gamma) * seasonal[i - period]
        };
        last_s = s;
        last_b = b;
    }
    Ok(Some((s, b, seasonal)))
}

/// `MovingFunctions.holtWinters`.
pub fn holt_winters(
    values: &[f64],
    alpha: f64,
    beta: f64,
    gamma: f64,
    period: usize,
    multiplicative: bool,
) -> Result<f64, String> {
    if values.is_empty() {
        return Ok(f64::NAN);
    }
    let padding = if multiplicative { 0.0000000001 } else { 0.0 };
    let Some((s, b, seasonal)) = holt_winters_state(values, alpha, beta, gamma, period, multiplicative, padding)?
    else {
        return Ok(f64::NAN);
    };
    let idx = values.len() - period;
    Ok(if multiplicative { (s + b) * seasonal[idx] } else { s + b + seasonal[idx] })
}

/// The values of a `double[]` argument.
fn doubles(heap: &Heap, v: &Value, off: usize) -> Result<Vec<f64>, Halt> {
    match v {
        Value::Array(i) | Value::List(i) => heap.lists[*i as usize]
            .iter()
            .map(|x| Num::of(x).map(Num::f64).ok_or_else(|| cast(x, "double", off)))
            .collect(),
        other => Err(cast(other, "double[]", off)),
    }
}

fn cast(v: &Value, to: &str, off: usize) -> Halt {
    if *v == Value::Null {
        return Halt::null_pointer(off);
    }
    Halt::at(off, "class_cast_exception", format!("Cannot cast [{}] to [{to}].", Heap::class_name(v)))
}

/// `MovingFunctions.name(args)`.
pub fn call(heap: &Heap, name: &str, args: &[Value], off: usize) -> Result<Value, Halt> {
    let d = |i: usize| -> Result<f64, Halt> {
        Num::of(&args[i]).map(Num::f64).ok_or_else(|| cast(&args[i], "double", off))
    };
    let int = |i: usize| -> Result<i64, Halt> {
        match Num::of(&args[i]) {
            Some(Num::I(n)) => Ok(n as i64),
            Some(Num::L(n)) => Ok(n),
            _ => Err(cast(&args[i], "int", off)),
        }
    };
    let values = || doubles(heap, &args[0], off);
    Ok(Value::Double(match (name, args.len()) {
        ("max", 1) => max(&values()?),
        ("min", 1) => min(&values()?),
        ("sum", 1) => sum(&values()?),
        ("unweightedAvg", 1) => unweighted_avg(&values()?),
        ("linearWeightedAvg", 1) => linear_weighted_avg(&values()?),
        ("stdDev", 2) => std_dev(&values()?, d(1)?),
        ("ewma", 2) => ewma(&values()?, d(1)?),
        ("holt", 3) => holt(&values()?, d(1)?, d(2)?),
        ("holtWinters", 6) => {
            let multiplicative = match &args[5] {
                Value::Bool(b) => *b,
                other => return Err(cast(other, "boolean", off)),
            };
            let period = int(4)?.max(0) as usize;
            holt_winters(&values()?, d(1)?, d(2)?, d(3)?, period, multiplicative)
                .map_err(|m| Halt::at(off, "illegal_argument_exception", m))?
        }
        _ => {
            return Err(Halt::at(
                off,
                "illegal_argument_exception",
                format!("Unknown call [{name}] with [{}] arguments on type [MovingFunctions].", args.len()),
            ))
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_functions_skip_nans() {
        let v = [1.0, f64::NAN, 3.0];
        assert_eq!(unweighted_avg(&v), 2.0);
        assert_eq!(sum(&v), 4.0);
        assert_eq!(linear_weighted_avg(&[1.0, 2.0]), (1.0 + 4.0) / 4.0);
        assert!(max(&[]).is_nan());
        assert_eq!(sum(&[]), 0.0);
        assert_eq!(ewma(&[1.0, 2.0], 0.5), 1.5);
        assert_eq!(holt(&[1.0], 0.5, 0.5), 1.0);
        assert_eq!(std_dev(&[1.0, 3.0], 2.0), 1.0);
        // The compensation is added back, as JDK 12's computeFinalSum does: 1e16 + 1 + 1
        // keeps both ones (a plain sum loses them).
        assert_eq!(sum(&[1e16, 1.0, 1.0]), 1e16 + 2.0);
        assert_eq!(sum(&[f64::INFINITY, 1.0]), f64::INFINITY);
    }
}
