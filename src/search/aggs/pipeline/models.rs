//! The arithmetic of `moving_avg`'s models, in ES 6.8's order of operations (Java
//! doubles), so that values match to the last bit (`moving_fn`'s are in
//! `script::moving_functions`).

use crate::request::pipeline_aggs::MovAvgModel;
use crate::script::moving_functions::holt_winters_state;

/// Whether `moving_avg`'s model gives a value over `available` values (Holt-Winters
/// wants two seasons).
pub fn has_value(model: &MovAvgModel, available: usize) -> bool {
    match model {
        MovAvgModel::HoltWinters { period, .. } => available >= period * 2,
        _ => available > 0,
    }
}

/// The model's next value after `window` (its values, oldest first).
pub fn next(model: &MovAvgModel, window: &[f64]) -> Result<f64, String> {
    Ok(predict(model, window, 1)?.first().copied().unwrap_or(f64::NAN))
}

/// `n` predictions of the model after `window` (NaNs when it is empty), as ES 6.8's
/// `MovAvgModel` classes compute them.
pub fn predict(model: &MovAvgModel, window: &[f64], n: usize) -> Result<Vec<f64>, String> {
    if window.is_empty() {
        return Ok(vec![f64::NAN; n]);
    }
    let one = |v: f64| vec![v; n];
    Ok(match *model {
        MovAvgModel::Simple => {
            let mut avg = 0.0;
            for v in window {
                avg += v;
            }
            one(avg / window.len() as f64)
        }
        MovAvgModel::Linear => {
            let (mut avg, mut total, mut current) = (0.0, 1u64, 1u64);
            for v in window {
                avg += v * current as f64;
                total += current;
                current += 1;
            }
            one(avg / total as f64)
        }
        MovAvgModel::Ewma { alpha } => {
            let mut avg = 0.0;
            let mut first = true;
            for &v in window {
                if first {
                    avg = v;
                    first = false;
                } else {
                    avg = (v * alpha) + (avg * (1.0 - alpha));
                }
            }
            one(avg)
        }
        MovAvgModel::Holt { alpha, beta } => {
            // ES 6.8's HoltLinearModel: the first value goes through the smoothing step
            // too (from a level and trend of 0); the second starts the level afresh.
            let (mut s, mut last_s, mut b, mut last_b) = (0.0, 0.0, 0.0, 0.0);
            for (counter, &v) in window.iter().enumerate() {
                if counter == 1 {
                    s = v;
                    b = 0.0;
                } else {
                    s = alpha * v + (1.0 - alpha) * (last_s + last_b);
                    b = beta * (s - last_s) + (1.0 - beta) * last_b;
                }
                last_s = s;
                last_b = b;
            }
            (0..n).map(|i| s + i as f64 * b).collect()
        }
        MovAvgModel::HoltWinters { alpha, beta, gamma, period, multiplicative, pad } => {
            let padding = if multiplicative && pad { 0.0000000001 } else { 0.0 };
            let Some((s, b, seasonal)) =
                holt_winters_state(window, alpha, beta, gamma, period, multiplicative, padding)?
            else {
                return Ok(vec![f64::NAN; n]);
            };
            (1..=n)
                .map(|i| {
                    let idx = window.len() - period + ((i - 1) % period);
                    if multiplicative {
                        (s + i as f64 * b) * seasonal[idx]
                    } else {
                        s + i as f64 * b + seasonal[idx]
                    }
                })
                .collect()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_predict_like_es() {
        let w = [1.0, 2.0, 3.0];
        assert_eq!(next(&MovAvgModel::Simple, &w).unwrap(), 2.0);
        assert_eq!(next(&MovAvgModel::Linear, &w).unwrap(), (1.0 + 4.0 + 9.0) / 7.0);
        let hw =
            MovAvgModel::HoltWinters { alpha: 0.3, beta: 0.1, gamma: 0.3, period: 2, multiplicative: false, pad: true };
        let e = next(&hw, &w).unwrap_err();
        assert!(e.starts_with("Holt-Winters aggregation requires at least (2 * period == 2 * 2 == 4)"));
    }
}
