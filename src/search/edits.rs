//! Fuzziness: ES's `fuzziness` as a number of edits for a term's length, and the
//! bounded edit distance that fuzzy queries, their highlighting and the term suggester
//! measure terms with.

use crate::error::{Error, Result};

/// Maximum edits for ES `fuzziness` given the term length (`AUTO` = `AUTO:3,6`).
pub fn max_edits(fuzziness: &str, term_len: usize) -> Result<u32> {
    let f = fuzziness.trim();
    let upper = f.to_ascii_uppercase();
    if let Some(rest) = upper.strip_prefix("AUTO") {
        let (lo, hi) = match rest.strip_prefix(':') {
            Some(r) => {
                let (a, b) = r.split_once(',').ok_or_else(|| {
                    Error::illegal_argument(format!("failed to find low and high distance values in [{f}]"))
                })?;
                (
                    a.trim()
                        .parse::<usize>()
                        .map_err(|_| Error::illegal_argument(format!("invalid fuzziness [{f}]")))?,
                    b.trim()
                        .parse::<usize>()
                        .map_err(|_| Error::illegal_argument(format!("invalid fuzziness [{f}]")))?,
                )
            }
            None => (3, 6),
        };
        return Ok(if term_len < lo {
            0
        } else if term_len < hi {
            1
        } else {
            2
        });
    }
    match f.parse::<f32>() {
        Ok(v) if v >= 0.0 => Ok((v as u32).min(2)),
        _ => Err(Error::illegal_argument(format!("fuzziness [{f}] is not a valid value; use 0, 1, 2 or AUTO"))),
    }
}

/// Damerau (optimal string alignment) or plain Levenshtein distance, bounded by `max`.
pub fn edit_distance(a: &[char], b: &[char], transpositions: bool, max: u32) -> Option<u32> {
    let (n, m) = (a.len(), b.len());
    if n.abs_diff(m) as u32 > max {
        return None;
    }
    let mut prev2 = vec![0u32; m + 1];
    let mut prev: Vec<u32> = (0..=m as u32).collect();
    let mut cur = vec![0u32; m + 1];
    for i in 1..=n {
        cur[0] = i as u32;
        let mut row_min = cur[0];
        for j in 1..=m {
            let cost = u32::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if transpositions && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[m];
    (d <= max).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_fuzziness() {
        assert_eq!(max_edits("AUTO", 2).unwrap(), 0);
        assert_eq!(max_edits("AUTO", 4).unwrap(), 1);
        assert_eq!(max_edits("auto", 7).unwrap(), 2);
        assert_eq!(max_edits("AUTO:2,4", 3).unwrap(), 1);
        assert_eq!(max_edits("1", 9).unwrap(), 1);
        assert!(max_edits("x", 3).is_err());
    }

    #[test]
    fn distances() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(edit_distance(&c("abcd"), &c("abdc"), true, 2), Some(1));
        assert_eq!(edit_distance(&c("abcd"), &c("abdc"), false, 2), Some(2));
        assert_eq!(edit_distance(&c("kitten"), &c("sitting"), true, 2), None);
    }
}
