//! Java's `DecimalFormat` for the patterns ES's `DocValueFormat.Decimal` takes in a
//! pipeline aggregation's `format` (root locale symbols, HALF_EVEN rounding of the
//! double's exact value): literal prefix and suffix, `#`/`0` integer digits with `,`
//! grouping, `.` and `0`/`#` fraction digits. Patterns beyond that (exponents,
//! percent, quotes, `;` negative subpatterns) are refused rather than formatted wrong.

use crate::error::{Error, Result};

/// A parsed pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct DecimalFormat {
    prefix: String,
    suffix: String,
    min_int: usize,
    min_frac: usize,
    max_frac: usize,
    /// Digits per group (0: no grouping).
    grouping: usize,
}

impl DecimalFormat {
    /// Parses `pattern`.
    pub fn parse(pattern: &str) -> Result<DecimalFormat> {
        let unsupported = || {
            Error::illegal_argument(format!(
                "the decimal format [{pattern}] is not supported by metagate (only literal text around #, 0, ',' and '.')"
            ))
        };
        if pattern.contains(['%', '\u{2030}', 'E', ';', '\'', '\u{a4}']) {
            return Err(unsupported());
        }
        let is_num = |c: char| matches!(c, '#' | '0' | ',' | '.');
        let start = pattern.find(is_num).ok_or_else(unsupported)?;
        let end = pattern.rfind(is_num).map(|i| i + 1).unwrap_or(start);
        let (prefix, rest) = pattern.split_at(start);
        let (number, suffix) = rest.split_at(end - start);
        let (int, frac) = match number.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (number, None),
        };
        if !int.chars().all(|c| matches!(c, '#' | '0' | ',')) {
            return Err(unsupported());
        }
        let frac = frac.unwrap_or("");
        if !frac.chars().all(|c| matches!(c, '#' | '0')) || frac.trim_end_matches('#').contains('#') {
            return Err(unsupported());
        }
        let grouping = match int.rfind(',') {
            Some(i) => int.len() - i - 1,
            None => 0,
        };
        // Java's applyPattern: with no `0` at all, the last `#` before the point counts
        // as a `0` (`#.##` writes `0.46`).
        let zero_less = !number.contains('0') && number.contains('.') && int.contains('#');
        Ok(DecimalFormat {
            prefix: prefix.to_string(),
            suffix: suffix.to_string(),
            min_int: if zero_less { 1 } else { int.chars().filter(|c| *c == '0').count() },
            min_frac: frac.chars().filter(|c| *c == '0').count(),
            max_frac: frac.len(),
            grouping,
        })
    }

    /// `v` formatted (finite values; ES formats no others).
    pub fn format(&self, v: f64) -> String {
        if !v.is_finite() {
            return if v.is_nan() {
                "NaN".into()
            } else if v > 0.0 {
                "\u{221e}".into()
            } else {
                "-\u{221e}".into()
            };
        }
        let digits = round_half_even(v.abs(), self.max_frac);
        let (int, frac) = digits.split_once('.').unwrap_or((&digits, ""));
        let mut frac = frac.trim_end_matches('0').to_string();
        while frac.len() < self.min_frac {
            frac.push('0');
        }
        let int = int.trim_start_matches('0');
        let mut int = int.to_string();
        while int.len() < self.min_int {
            int.insert(0, '0');
        }
        // Java writes a lone zero when neither part would show a digit.
        if int.is_empty() && frac.is_empty() {
            int.push('0');
        }
        if self.grouping > 0 && int.len() > self.grouping {
            let mut g = String::with_capacity(int.len() + int.len() / self.grouping);
            for (i, c) in int.chars().enumerate() {
                if i > 0 && (int.len() - i) % self.grouping == 0 {
                    g.push(',');
                }
                g.push(c);
            }
            int = g;
        }
        let mut out = String::new();
        if v.is_sign_negative() {
            out.push('-');
        }
        out.push_str(&self.prefix);
        out.push_str(&int);
        if !frac.is_empty() {
            out.push('.');
            out.push_str(&frac);
        }
        out.push_str(&self.suffix);
        out
    }
}

/// `v` (non-negative, finite) with `places` fraction digits, rounded half-even on its
/// exact binary value, as Java's DecimalFormat rounds.
fn round_half_even(v: f64, places: usize) -> String {
    // Rust prints the exact decimal expansion to the asked precision; 40 more digits
    // than kept show whether the rest is exactly one half (a double's expansion ends
    // well before that when it is a tie at `places`).
    let long = format!("{:.*}", places + 40, v);
    let cut = long.len() - 40;
    let (kept, rest) = long.split_at(cut);
    let first = rest.as_bytes()[0];
    let tail_zero = rest[1..].bytes().all(|b| b == b'0');
    let last_kept_odd = kept.bytes().rev().find(u8::is_ascii_digit).map(|d| (d - b'0') % 2 == 1).unwrap_or(false);
    let up = first > b'5' || (first == b'5' && (!tail_zero || last_kept_odd));
    let kept = kept.trim_end_matches('.');
    if !up {
        return kept.to_string();
    }
    let mut bytes = kept.as_bytes().to_vec();
    let mut i = bytes.len();
    loop {
        if i == 0 {
            bytes.insert(0, b'1');
            break;
        }
        i -= 1;
        match bytes[i] {
            b'.' => continue,
            b'9' => bytes[i] = b'0',
            d => {
                bytes[i] = d + 1;
                break;
            }
        }
    }
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(p: &str, v: f64) -> String {
        DecimalFormat::parse(p).unwrap().format(v)
    }

    #[test]
    fn formats_as_java_decimal_format() {
        assert_eq!(f("$#,##0.00", 1234567.891), "$1,234,567.89");
        assert_eq!(f("#", 0.2), "0");
        assert_eq!(f("#.##", 0.456), "0.46");
        assert_eq!(f("#", -0.2), "-0");
        assert_eq!(f("#,##0.###", 0.0), "0");
        assert_eq!(f("0.0", 2.25), "2.2");
        assert_eq!(f("0.0", 2.35), "2.4");
        assert_eq!(f("0", 2.5), "2");
        assert_eq!(f("0", 3.5), "4");
        assert_eq!(f("#.00", -1.0), "-1.00");
        assert_eq!(f("000", 7.0), "007");
        assert_eq!(f("#,##0", 999.5), "1,000");
        assert!(DecimalFormat::parse("0.0E0").is_err());
    }
}
