//! The `format` of a numeric field's aggregation values and of pipeline aggregations'
//! `value_as_string`: ES 6.8's `DocValueFormat.Decimal`, a `java.text.DecimalFormat`
//! pattern with `Locale.ROOT` symbols and Java's default `HALF_EVEN` rounding (6.8 sets
//! no rounding mode).
//!
//! The patterns read are Java's plain ones: a prefix, the integer digits (`#`, `0`, `,`
//! for grouping), an optional fraction (`.`, `0`, `#`), a suffix, quotes for literal
//! text, `%` and `‰` multiplying by 100 and 1000, and a negative subpattern after `;`.
//! Scientific (`E`) and currency (`¤`) patterns are refused by name.
//!
//! Digits come as Java's: from the shortest decimal that reads back as the double (what
//! `Double.toString` prints), rounded half even; a tie in those digits is decided by the
//! double's exact value, as `DigitList` does since JDK 8.

/// A compiled pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct DecimalFormat {
    positive_prefix: String,
    positive_suffix: String,
    /// `None`: `-` then the positive prefix and suffix.
    negative: Option<(String, String)>,
    min_int: usize,
    min_frac: usize,
    max_frac: usize,
    /// Digits per group (`None`: no grouping).
    grouping: Option<usize>,
    /// `#.`: the separator even without fraction digits.
    separator_always: bool,
    multiplier: f64,
}

/// One subpattern's parts.
struct Sub {
    prefix: String,
    suffix: String,
    number: String,
    multiplier: f64,
}

impl DecimalFormat {
    /// Compiles `pattern`, or says why it cannot be.
    pub fn parse(pattern: &str) -> Result<DecimalFormat, String> {
        let malformed = || format!("Malformed pattern \"{pattern}\"");
        let mut subs = split_subpatterns(pattern, &malformed)?;
        if subs.is_empty() || subs.len() > 2 {
            return Err(malformed());
        }
        let positive = subs.remove(0);
        if positive.number.contains(['E', '\u{a4}']) {
            return Err(format!("the format [{pattern}] (scientific or currency) is not supported by metagate"));
        }
        let number = positive.number.as_str();
        if number.matches('.').count() > 1 {
            return Err(format!("Multiple decimal separators in pattern \"{pattern}\""));
        }
        // Java's counts (`DecimalFormat.applyPattern`): '#'s before the first '0', the
        // '0's, the '#'s after them, and the digits before the decimal point.
        let (mut left, mut zeros, mut right) = (0usize, 0usize, 0usize);
        let mut decimal_pos: Option<usize> = None;
        for c in number.chars() {
            match c {
                '#' if zeros > 0 => right += 1,
                '#' => left += 1,
                '0' if right > 0 => return Err(format!("Unexpected '0' in pattern \"{pattern}\"")),
                '0' => zeros += 1,
                '.' => decimal_pos = Some(left + zeros + right),
                _ => {}
            }
        }
        if left + zeros + right == 0 {
            return Err(malformed());
        }
        // `#.##` and `.##` print at least one digit: Java turns a '#' into a '0'.
        if zeros == 0 && left > 0 {
            if let Some(d) = decimal_pos {
                let n = d.max(1);
                right = left - n;
                left = n - 1;
                zeros = 1;
            }
        }
        let misplaced_point = decimal_pos.is_some_and(|d| d < left || d > left + zeros);
        if (decimal_pos.is_none() && right > 0) || misplaced_point {
            return Err(malformed());
        }
        let total = left + zeros + right;
        let (min_int, min_frac, max_frac) = match decimal_pos {
            Some(d) => (d.saturating_sub(left), (left + zeros).saturating_sub(d), total - d),
            None => (zeros, 0, 0),
        };
        let int_part = number.split('.').next().unwrap_or("");
        let grouping = int_part.rfind(',').map(|i| int_part[i + 1..].len()).filter(|g| *g > 0);
        let frac_part = number.split_once('.').map(|(_, f)| f);
        let negative = subs.pop().map(|n| (n.prefix, n.suffix));
        Ok(DecimalFormat {
            positive_prefix: positive.prefix,
            positive_suffix: positive.suffix,
            negative,
            min_int,
            min_frac,
            max_frac,
            grouping,
            separator_always: frac_part == Some(""),
            multiplier: positive.multiplier,
        })
    }

    /// `value` as the pattern prints it.
    pub fn format(&self, value: f64) -> String {
        let negative = value < 0.0 || (value == 0.0 && value.is_sign_negative());
        let (prefix, suffix) = match (&self.negative, negative) {
            (Some((p, s)), true) => (p.clone(), s.clone()),
            (None, true) => (format!("-{}", self.positive_prefix), self.positive_suffix.clone()),
            _ => (self.positive_prefix.clone(), self.positive_suffix.clone()),
        };
        if value.is_nan() {
            // Java prints NaN bare, without prefix or suffix.
            return "NaN".to_string();
        }
        let v = (value * self.multiplier).abs();
        if v.is_infinite() {
            return format!("{prefix}\u{221e}{suffix}");
        }
        let (int_digits, frac_digits) = self.round(v);
        let mut out = prefix;
        let int_digits = int_digits.trim_start_matches('0');
        let int_digits = if int_digits.len() < self.min_int {
            format!("{}{int_digits}", "0".repeat(self.min_int - int_digits.len()))
        } else {
            int_digits.to_string()
        };
        let mut frac_digits = frac_digits;
        while frac_digits.len() > self.min_frac && frac_digits.ends_with('0') {
            frac_digits.pop();
        }
        while frac_digits.len() < self.min_frac {
            frac_digits.push('0');
        }
        let int_digits = if int_digits.is_empty() && frac_digits.is_empty() { "0".to_string() } else { int_digits };
        match self.grouping {
            Some(g) => {
                let n = int_digits.len();
                for (i, c) in int_digits.chars().enumerate() {
                    if i > 0 && (n - i) % g == 0 {
                        out.push(',');
                    }
                    out.push(c);
                }
            }
            None => out.push_str(&int_digits),
        }
        if !frac_digits.is_empty() || self.separator_always {
            out.push('.');
        }
        out.push_str(&frac_digits);
        out.push_str(&suffix);
        out
    }

    /// The integer and fraction digits of `v` (finite, not negative) rounded half even to
    /// `max_frac` fraction digits.
    fn round(&self, v: f64) -> (String, String) {
        let (digits, point) = shortest_digits(v);
        let keep = point + self.max_frac as i64;
        let rounded = if keep >= digits.len() as i64 {
            digits.clone()
        } else if keep < 0 {
            String::new()
        } else {
            let keep = keep as usize;
            let dropped = &digits[keep..];
            let up = if dropped.starts_with('5') && dropped[1..].bytes().all(|b| b == b'0') {
                // A tie in the shortest digits: the double's exact value decides, and an
                // exact tie goes to the even digit.
                match exact_against_tie(v, &digits, point, keep) {
                    std::cmp::Ordering::Greater => true,
                    std::cmp::Ordering::Less => false,
                    std::cmp::Ordering::Equal => keep > 0 && (digits.as_bytes()[keep - 1] - b'0') % 2 == 1,
                }
            } else {
                dropped.as_bytes()[0] >= b'5'
            };
            let mut kept: Vec<u8> = digits.as_bytes()[..keep].to_vec();
            if up {
                let mut i = kept.len();
                loop {
                    if i == 0 {
                        kept.insert(0, b'1');
                        // One more integer digit.
                        return split_at_point(&String::from_utf8(kept).unwrap_or_default(), point + 1, self.max_frac);
                    }
                    i -= 1;
                    if kept[i] == b'9' {
                        kept[i] = b'0';
                    } else {
                        kept[i] += 1;
                        break;
                    }
                }
            }
            String::from_utf8(kept).unwrap_or_default()
        };
        split_at_point(&rounded, point, self.max_frac)
    }
}

/// Digits with the decimal point after `point` of them, as integer and fraction digits
/// (the fraction at most `max_frac` long, the integer at least empty).
fn split_at_point(digits: &str, point: i64, max_frac: usize) -> (String, String) {
    if point <= 0 {
        let mut frac = "0".repeat((-point) as usize);
        frac.push_str(digits);
        frac.truncate(max_frac);
        return (String::new(), frac);
    }
    let p = point as usize;
    if p >= digits.len() {
        return (format!("{digits}{}", "0".repeat(p - digits.len())), String::new());
    }
    let mut frac = digits[p..].to_string();
    frac.truncate(max_frac);
    (digits[..p].to_string(), frac)
}

/// The shortest decimal digits that read back as `v` (no leading zeros; `"0"` for zero)
/// and the position of the decimal point among them.
fn shortest_digits(v: f64) -> (String, i64) {
    if v == 0.0 {
        return ("0".to_string(), 1);
    }
    let sci = format!("{v:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    (digits, exp.parse::<i64>().unwrap_or(0) + 1)
}

/// How the exact value of `v` compares with the tie `digits[..keep] 5` (the digits with
/// the decimal point after `point`).
fn exact_against_tie(v: f64, digits: &str, point: i64, keep: usize) -> std::cmp::Ordering {
    // Rust prints a double's exact expansion at any precision; 1100 fraction digits hold
    // every double's.
    let exact = format!("{v:.1100}");
    let (int, frac) = exact.split_once('.').unwrap_or((&exact, ""));
    let exact_digits = format!("{}{frac}", int.trim_start_matches('0'));
    let exact_point = int.trim_start_matches('0').len() as i64;
    // Align both on the same point: pad the shorter integer side.
    let (a, b) = if exact_point >= point {
        (exact_digits, format!("{}{}5", "0".repeat((exact_point - point) as usize), &digits[..keep]))
    } else {
        (format!("{}{exact_digits}", "0".repeat((point - exact_point) as usize)), format!("{}5", &digits[..keep]))
    };
    let a = a.trim_end_matches('0');
    let b = b.trim_end_matches('0');
    // Equal-length comparison of digit strings, padding with zeros.
    let n = a.len().max(b.len());
    let pad = |s: &str| format!("{s}{}", "0".repeat(n - s.len()));
    pad(a).cmp(&pad(b))
}

/// Splits a pattern into its subpatterns, reading quotes and the prefix, number and
/// suffix of each.
fn split_subpatterns(pattern: &str, malformed: &dyn Fn() -> String) -> Result<Vec<Sub>, String> {
    let mut subs = Vec::new();
    let mut cur = Sub { prefix: String::new(), suffix: String::new(), number: String::new(), multiplier: 1.0 };
    // 0: prefix, 1: number, 2: suffix.
    let mut phase = 0;
    let mut chars = pattern.chars().peekable();
    let mut in_quote = false;
    while let Some(c) = chars.next() {
        if c == '\'' {
            if chars.peek() == Some(&'\'') {
                chars.next();
                push_literal(&mut cur, &mut phase, '\'');
            } else {
                in_quote = !in_quote;
            }
            continue;
        }
        if in_quote {
            push_literal(&mut cur, &mut phase, c);
            continue;
        }
        match c {
            '#' | '0' | ',' | '.' | 'E' | '\u{a4}' => {
                if phase == 2 {
                    return Err(malformed());
                }
                phase = 1;
                cur.number.push(c);
            }
            ';' => {
                if cur.number.is_empty() && subs.is_empty() {
                    return Err(malformed());
                }
                subs.push(std::mem::replace(
                    &mut cur,
                    Sub { prefix: String::new(), suffix: String::new(), number: String::new(), multiplier: 1.0 },
                ));
                phase = 0;
            }
            '%' => {
                cur.multiplier = 100.0;
                push_literal(&mut cur, &mut phase, c);
            }
            '\u{2030}' => {
                cur.multiplier = 1000.0;
                push_literal(&mut cur, &mut phase, c);
            }
            _ => push_literal(&mut cur, &mut phase, c),
        }
    }
    if in_quote {
        return Err(malformed());
    }
    if !cur.number.is_empty() || !subs.is_empty() {
        subs.push(cur);
    }
    Ok(subs)
}

fn push_literal(cur: &mut Sub, phase: &mut u8, c: char) {
    if *phase == 0 {
        cur.prefix.push(c);
    } else {
        *phase = 2;
        cur.suffix.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(p: &str, v: f64) -> String {
        DecimalFormat::parse(p).unwrap().format(v)
    }

    #[test]
    fn patterns_print_as_java_prints_them() {
        assert_eq!(f("0.00", 1.0), "1.00");
        // Exact ties go to the even digit.
        assert_eq!(f("0.00", 0.125), "0.12");
        assert_eq!(f("0.00", 0.375), "0.38");
        // 1.005 is just under 1.005: it keeps 1.00, as Java since JDK 8.
        assert_eq!(f("0.00", 1.005), "1.00");
        assert_eq!(f("0.00", 2.5), "2.50");
        assert_eq!(f("0", 2.5), "2");
        assert_eq!(f("0", 3.5), "4");
        assert_eq!(f("0", -2.5), "-2");
        assert_eq!(f("#.##", 0.5), "0.5");
        assert_eq!(f("#.00", 0.5), ".50");
        assert_eq!(f("#.##", 0.0), "0");
        assert_eq!(f("#,##0.00", 1234567.891), "1,234,567.89");
        assert_eq!(f("#,##0", -1234.0), "-1,234");
        assert_eq!(f("000", 7.0), "007");
        assert_eq!(f("0.0", 100.0), "100.0");
        assert_eq!(f("##0.0#", 0.999), "1.0");
        assert_eq!(f("0.###", 9.9996), "10");
        assert_eq!(f("0.00", -0.001), "-0.00");
        assert_eq!(f("#%", 0.256), "26%");
        assert_eq!(f("'$'0.00", 3.0), "$3.00");
        assert_eq!(f("0.00;(0.00)", -3.0), "(3.00)");
        assert_eq!(f("0 units", 3.0), "3 units");
        assert_eq!(f("#", 1e20), "100000000000000000000");
        assert_eq!(f("0.0", 0.00001), "0.0");
        assert_eq!(f("0.00", 0.006), "0.01");
        assert_eq!(f("0.00", f64::NAN), "NaN");
        assert_eq!(f("0.00", f64::INFINITY), "\u{221e}");
        assert_eq!(f("#.", 3.0), "3.");
        assert_eq!(f("#", 1.2345678901234567e25), "12345678901234566000000000");
        assert_eq!(f("0.0", 0.05), "0.1");
        assert_eq!(f("0.0", 0.15), "0.1");
        assert_eq!(f("0.0", 0.25), "0.2");
        assert_eq!(f("0.0", 0.35), "0.3");
        assert_eq!(f("0", -0.0), "-0");
        assert_eq!(f("#,##,##0", 123456789.0), "123,456,789");
        assert_eq!(f("$#,##0.00", 1234567.891), "$1,234,567.89");
        assert_eq!(f("#", 0.2), "0");
        assert_eq!(f("#.##", 0.456), "0.46");
        assert_eq!(f("#", -0.2), "-0");
        assert_eq!(f("#,##0", 999.5), "1,000");
    }

    #[test]
    fn malformed_and_unsupported_patterns() {
        assert!(DecimalFormat::parse("0.0.0").is_err());
        assert!(DecimalFormat::parse("'0").is_err());
        assert!(DecimalFormat::parse("0.00E0").unwrap_err().contains("not supported by metagate"));
        assert!(DecimalFormat::parse("abc").is_err());
        assert!(DecimalFormat::parse("#0#").is_err());
    }
}
