//! Date math in index names, as ES 6.8's `DateMathExpressionResolver` reads them:
//! `<logs-{now/d}>` is `logs-2026.11.24` today; `{now/M{YYYY.MM}}` names a format,
//! `{now/d{YYYY.MM.dd|+12:00}}` a format and a time zone; `\{` and `\}` are literal braces.
//! Each part of a comma-separated expression that starts with `<` and ends with `>` is
//! resolved before aliases and wildcards are.

use crate::date::{parse_date_math, DateFormat, TimeZone};
use crate::error::{Error, Exception, Result};

/// The format of a placeholder that names none.
const DEFAULT_FORMAT: &str = "YYYY.MM.dd";

fn parse_error(reason: String) -> Error {
    Error::new(400, Exception::new("parse_exception", reason))
}

/// `expr` (a comma-separated index expression) with every date math part resolved at
/// `now_ms`.
pub fn resolve_date_math(expr: &str, now_ms: i64) -> Result<String> {
    if !expr.contains('<') {
        return Ok(expr.to_string());
    }
    let parts = expr.split(',').map(|p| resolve_one(p, now_ms)).collect::<Result<Vec<_>>>()?;
    Ok(parts.join(","))
}

/// One name: unchanged unless it is `<…>`.
fn resolve_one(expr: &str, now_ms: i64) -> Result<String> {
    if !(expr.starts_with('<') && expr.ends_with('>')) || expr.len() < 2 {
        return Ok(expr.to_string());
    }
    let chars: Vec<char> = expr.chars().collect();
    // ES quotes the expression from after the `<` to the end, `>` included.
    let shown: String = chars[1..].iter().collect();
    let (mut escape, mut in_format, mut in_placeholder) = (false, false, false);
    let mut out = String::new();
    let mut placeholder = String::new();
    for (i, &c) in chars.iter().enumerate().take(chars.len() - 1).skip(1) {
        let escaped = escape;
        escape = false;
        if c == '\\' {
            if escaped {
                out.push(c);
            } else {
                escape = true;
            }
            continue;
        }
        if in_placeholder {
            match c {
                '{' if in_format && escaped => placeholder.push(c),
                '{' if !in_format => {
                    in_format = true;
                    placeholder.push(c);
                }
                '{' => {
                    return Err(parse_error(format!(
                        "invalid dynamic name expression [{shown}]. invalid character in placeholder at position [{i}]"
                    )))
                }
                '}' if in_format => {
                    in_format = false;
                    placeholder.push(c);
                }
                '}' => {
                    out.push_str(&evaluate(&placeholder, now_ms)?);
                    placeholder.clear();
                    in_placeholder = false;
                }
                _ => placeholder.push(c),
            }
        } else {
            match c {
                '{' if escaped => out.push(c),
                '{' => in_placeholder = true,
                '}' if !escaped => {
                    return Err(parse_error(format!(
                        "invalid dynamic name expression [{shown}]. invalid character at position [{i}]. `{{` and `}}` are reserved characters and should be escaped when used as part of the index name using `\\` (e.g. `\\{{text\\}}`)"
                    )))
                }
                _ => out.push(c),
            }
        }
    }
    if in_placeholder {
        return Err(parse_error(format!(
            "invalid dynamic name expression [{shown}]. date math placeholder is open ended"
        )));
    }
    if out.is_empty() {
        return Err(parse_error("nothing captured".into()));
    }
    Ok(out)
}

/// One placeholder's text (`now/d`, `now/M{YYYY.MM}`, `now{YYYY|+01:00}`) as a date.
fn evaluate(placeholder: &str, now_ms: i64) -> Result<String> {
    let (math, pattern, zone) = match placeholder.find('{') {
        None => (placeholder, DEFAULT_FORMAT, None),
        Some(left) => {
            if placeholder.rfind('}') != Some(placeholder.len() - 1) {
                return Err(parse_error(format!(
                    "invalid dynamic name expression [{placeholder}]. missing closing `}}` for date math format"
                )));
            }
            if left == placeholder.len() - 2 {
                return Err(parse_error(format!(
                    "invalid dynamic name expression [{placeholder}]. missing date format"
                )));
            }
            let spec = &placeholder[left + 1..placeholder.len() - 1];
            match spec.split_once('|') {
                Some((pattern, zone)) => (&placeholder[..left], pattern, Some(zone)),
                None => (&placeholder[..left], spec, None),
            }
        }
    };
    let format = DateFormat::parse_format(pattern).map_err(|e| Error::illegal_argument(e.to_string()))?;
    let tz = zone.map(TimeZone::parse).transpose().map_err(|e| Error::illegal_argument(e.to_string()))?;
    let ms = parse_date_math(math, now_ms, false, &format, tz.as_ref()).map_err(|e| parse_error(e.to_string()))?;
    Ok(format.format_at(ms, tz.as_ref().map_or(0, TimeZone::offset_secs)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-11-24T06:30:00Z.
    const NOW: i64 = 1_795_501_800_000;

    fn ok(expr: &str) -> String {
        resolve_date_math(expr, NOW).unwrap_or_else(|e| panic!("{expr}: {}", e.reason()))
    }

    fn reason(expr: &str) -> String {
        resolve_date_math(expr, NOW).err().map(|e| format!("{} {}", e.kind(), e.reason())).unwrap_or_default()
    }

    #[test]
    fn resolves_placeholders_formats_and_zones() {
        assert_eq!(ok("<logs-{now/d}>"), "logs-2026.11.24");
        assert_eq!(ok("<logs-{now/M{YYYY.MM}}>"), "logs-2026.11");
        assert_eq!(ok("<logs-{now-1M/M{YYYY.MM}}>"), "logs-2026.10");
        assert_eq!(ok("<logs-{now/d{YYYY.MM.dd|+18:00}}>"), "logs-2026.11.25");
        assert_eq!(ok("<logs-{now/d{YYYY.MM.dd|-07:00}}>"), "logs-2026.11.23");
        assert_eq!(ok("<el\\{ast\\}ic-{now/d}>"), "el{ast}ic-2026.11.24");
        assert_eq!(ok("a,<b-{now/y{YYYY}}>,-c*"), "a,b-2026,-c*");
        assert_eq!(ok("<plain>"), "plain");
        assert_eq!(ok("logs-*"), "logs-*");
    }

    #[test]
    fn reports_es_errors() {
        assert_eq!(
            reason("<.mar}vel-{now/d}>"),
            "parse_exception invalid dynamic name expression [.mar}vel-{now/d}>]. invalid character at position [5]. `{` and `}` are reserved characters and should be escaped when used as part of the index name using `\\` (e.g. `\\{text\\}`)"
        );
        assert_eq!(
            reason("<.marvel-{now/d>"),
            "parse_exception invalid dynamic name expression [.marvel-{now/d>]. date math placeholder is open ended"
        );
        assert_eq!(
            reason("<.marvel-{now/d{}>"),
            "parse_exception invalid dynamic name expression [.marvel-{now/d{}>]. date math placeholder is open ended"
        );
        assert_eq!(
            reason("<.marvel-{now/d{}}>"),
            "parse_exception invalid dynamic name expression [now/d{}]. missing date format"
        );
        assert_eq!(reason("<{now/d}{now/d{x{}}>"), "parse_exception invalid dynamic name expression [{now/d}{now/d{x{}}>]. invalid character in placeholder at position [16]");
        assert_eq!(reason("<>"), "parse_exception nothing captured");
    }
}
