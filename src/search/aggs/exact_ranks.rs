//! Exact rank statistics over sorted values: `percentile_ranks` and
//! `median_absolute_deviation`. ES estimates both with a t-digest (or an HDR histogram);
//! here they are computed exactly, with the definition `percentiles` uses (linear
//! interpolation between the closest ranks), so that a percentile rank is the inverse of a
//! percentile: `percentile(percent_rank(v)) == v` for any `v` between the smallest and the
//! largest value.

use super::metrics::percentile;

/// The percentile rank of `v` among `sorted` values, in percent: 0 below the smallest
/// value, 100 at or above the largest, and in between the fractional rank
/// `i + (v - x[i]) / (x[i+1] - x[i])` of the last value `x[i] <= v` over `n - 1`. Equal
/// values take the highest rank (all values at or below `v`). NaN without values.
pub fn percent_rank(sorted: &[f64], v: f64) -> f64 {
    let n = sorted.len();
    if n == 0 || v.is_nan() {
        return f64::NAN;
    }
    if v < sorted[0] {
        return 0.0;
    }
    if v >= sorted[n - 1] {
        return 100.0;
    }
    // Here n >= 2 and sorted[0] <= v < sorted[n - 1], so i < n - 1 and x[i+1] > v.
    let i = sorted.partition_point(|x| *x <= v) - 1;
    let fraction = (v - sorted[i]) / (sorted[i + 1] - sorted[i]);
    (i as f64 + fraction) / (n - 1) as f64 * 100.0
}

/// The median of the absolute deviations from the median (NaN without values).
pub fn median_absolute_deviation(sorted: &[f64]) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let median = percentile(sorted, 50.0);
    let mut deviations: Vec<f64> = sorted.iter().map(|x| (x - median).abs()).collect();
    deviations.sort_by(f64::total_cmp);
    percentile(&deviations, 50.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_percent_rank_inverts_the_percentile() {
        let v = [1.0, 51.0, 101.0, 151.0];
        assert_eq!(percent_rank(&v, 0.0), 0.0);
        assert_eq!(percent_rank(&v, 1.0), 0.0);
        assert_eq!(percent_rank(&v, 151.0), 100.0);
        assert_eq!(percent_rank(&v, 500.0), 100.0);
        for p in [10.0, 33.0, 50.0, 90.0] {
            let x = percentile(&v, p);
            assert!((percent_rank(&v, x) - p).abs() < 1e-9, "{p}");
        }
        // Equal values: the highest rank.
        assert_eq!(percent_rank(&[1.0, 2.0, 2.0, 3.0], 2.0), 2.0 / 3.0 * 100.0);
        assert_eq!(percent_rank(&[5.0], 4.0), 0.0);
        assert_eq!(percent_rank(&[5.0], 5.0), 100.0);
        assert!(percent_rank(&[], 1.0).is_nan());
    }

    #[test]
    fn mad_of_small_sets() {
        assert_eq!(median_absolute_deviation(&[100.0, 200.0, 300.0]), 100.0);
        assert_eq!(median_absolute_deviation(&[1.0, 1.0, 2.0, 2.0, 4.0, 6.0, 9.0]), 1.0);
        assert!(median_absolute_deviation(&[]).is_nan());
    }
}
