//! Java's `String.valueOf` of numbers: `Double.toString` and `Float.toString` layouts
//! (plain between 10^-3 and 10^7, computerized scientific `d.dddE±n` outside), over the
//! shortest digits that read back as the same value.

/// `Double.toString(v)`.
pub fn double_to_string(v: f64) -> String {
    special(v).unwrap_or_else(|| layout(&format!("{v:e}"), v.abs() >= 1e-3 && v.abs() < 1e7))
}

/// `Float.toString(v)`.
pub fn float_to_string(v: f32) -> String {
    special(f64::from(v)).unwrap_or_else(|| layout(&format!("{v:e}"), v.abs() >= 1e-3 && v.abs() < 1e7))
}

/// The values both print alike and without digits: NaN, the infinities and the zeros
/// (widening a float keeps each of them).
fn special(v: f64) -> Option<String> {
    if v.is_nan() {
        Some("NaN".into())
    } else if v.is_infinite() {
        Some(if v > 0.0 { "Infinity" } else { "-Infinity" }.into())
    } else if v == 0.0 {
        Some(if v.is_sign_negative() { "-0.0" } else { "0.0" }.into())
    } else {
        None
    }
}

/// Lays out Rust's `{:e}` form (`-1.2345e-7`) as Java does.
fn layout(sci: &str, plain: bool) -> String {
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (neg, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let mut out = String::with_capacity(digits.len() + 8);
    if neg {
        out.push('-');
    }
    if plain {
        if exp >= 0 {
            let int_len = exp as usize + 1;
            if digits.len() <= int_len {
                out.push_str(&digits);
                out.extend(std::iter::repeat_n('0', int_len - digits.len()));
                out.push_str(".0");
            } else {
                out.push_str(&digits[..int_len]);
                out.push('.');
                out.push_str(&digits[int_len..]);
            }
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-exp - 1) as usize));
            out.push_str(&digits);
        }
    } else {
        out.push_str(&digits[..1]);
        out.push('.');
        if digits.len() > 1 {
            out.push_str(&digits[1..]);
        } else {
            out.push('0');
        }
        out.push('E');
        out.push_str(&exp.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_layouts() {
        assert_eq!(double_to_string(1.0), "1.0");
        assert_eq!(double_to_string(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(double_to_string(1e7), "1.0E7");
        assert_eq!(double_to_string(1234567.0), "1234567.0");
        assert_eq!(double_to_string(0.001), "0.001");
        assert_eq!(double_to_string(0.0001), "1.0E-4");
        assert_eq!(double_to_string(-1.5e-10), "-1.5E-10");
        assert_eq!(double_to_string(-0.0), "-0.0");
        assert_eq!(float_to_string(0.1), "0.1");
        assert_eq!(float_to_string(1.0e10), "1.0E10");
        assert_eq!(float_to_string(f32::NAN), "NaN");
    }
}
