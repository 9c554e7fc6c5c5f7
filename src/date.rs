//! Dates as ES 6.8 reads them: mapping formats (named and Joda-style patterns, `||`
//! alternatives), date math (`now-1d/d`, `2020-01-01||+1M`), fixed time zones, and time
//! values (`1m`, `500ms`).

use chrono::{
    DateTime, Datelike, Duration as ChronoDuration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone as _, Timelike, Utc,
};
use std::fmt;

/// A date parsing or formatting failure, with ES's wording.
#[derive(Debug, Clone, PartialEq)]
pub struct DateError {
    /// The message.
    pub message: String,
}

impl fmt::Display for DateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

fn err(message: String) -> DateError {
    DateError { message }
}

/// One alternative of a format.
#[derive(Debug, Clone, PartialEq)]
enum Alt {
    /// `strict_date_optional_time` / `date_optional_time`.
    OptionalTime,
    /// Milliseconds since the epoch.
    EpochMillis,
    /// Seconds since the epoch.
    EpochSecond,
    /// A chrono pattern (translated from Joda) and whether it has a date, time, zone.
    Pattern { chrono: String, has_time: bool, has_zone: bool },
}

/// A parsed `format` (alternatives separated by `||`).
#[derive(Debug, Clone, PartialEq)]
pub struct DateFormat {
    name: String,
    alts: Vec<Alt>,
}

/// Joda pattern -> chrono pattern.
fn joda_to_chrono(p: &str) -> (String, bool, bool) {
    let mut out = String::new();
    let chars: Vec<char> = p.chars().collect();
    let (mut has_time, mut has_zone) = (false, false);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '\'' {
                out.push(chars[j]);
                j += 1;
            }
            i = j + 1;
            continue;
        }
        let mut n = 1;
        while i + n < chars.len() && chars[i + n] == c {
            n += 1;
        }
        let piece = match (c, n) {
            ('y', 2) | ('Y', 2) => "%y".to_string(),
            ('y', _) | ('Y', _) | ('u', _) => "%Y".to_string(),
            ('M', 1) | ('M', 2) => "%m".to_string(),
            ('M', 3) => "%b".to_string(),
            ('M', _) => "%B".to_string(),
            ('d', _) => "%d".to_string(),
            ('D', _) => "%j".to_string(),
            ('H', _) => {
                has_time = true;
                "%H".to_string()
            }
            ('m', _) => {
                has_time = true;
                "%M".to_string()
            }
            ('s', _) => {
                has_time = true;
                "%S".to_string()
            }
            ('S', _) => {
                has_time = true;
                "%3f".to_string()
            }
            ('Z', 1) => {
                has_zone = true;
                "%z".to_string()
            }
            ('Z', _) | ('X', _) | ('x', _) => {
                has_zone = true;
                "%:z".to_string()
            }
            (c, n) => std::iter::repeat_n(c, n).collect(),
        };
        out.push_str(&piece);
        i += n;
    }
    (out, has_time, has_zone)
}

fn named(name: &str) -> Option<Alt> {
    let n = name.strip_prefix("strict_").unwrap_or(name);
    let pat = |p: &str| {
        let (chrono, has_time, has_zone) = joda_to_chrono(p);
        Some(Alt::Pattern { chrono, has_time, has_zone })
    };
    match n {
        "date_optional_time" | "date_time" | "date_time_no_millis" => Some(Alt::OptionalTime),
        "epoch_millis" => Some(Alt::EpochMillis),
        "epoch_second" => Some(Alt::EpochSecond),
        "basic_date" => pat("yyyyMMdd"),
        "basic_date_time" => pat("yyyyMMdd'T'HHmmss.SSSZ"),
        "basic_date_time_no_millis" => pat("yyyyMMdd'T'HHmmssZ"),
        "date" | "year_month_day" => pat("yyyy-MM-dd"),
        "date_hour_minute_second" => pat("yyyy-MM-dd'T'HH:mm:ss"),
        "date_hour_minute_second_millis" | "date_hour_minute_second_fraction" => pat("yyyy-MM-dd'T'HH:mm:ss.SSS"),
        "date_hour_minute" => pat("yyyy-MM-dd'T'HH:mm"),
        "year_month" => pat("yyyy-MM"),
        "year" => pat("yyyy"),
        "hour_minute_second" => pat("HH:mm:ss"),
        _ => None,
    }
}

/// Parses `strict_date_optional_time`: `yyyy[-MM[-dd]][Thh[:mm[:ss[.fff]]]][Z|±hh[:]mm]`.
fn parse_optional_time(s: &str) -> Option<i64> {
    let (date_part, rest) = match s.find('T') {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let mut it = date_part.splitn(3, '-');
    let y: i32 = it.next()?.parse().ok()?;
    if date_part.len() < 4 {
        return None;
    }
    let mo: u32 = it.next().map(|m| m.parse().ok()).unwrap_or(Some(1))?;
    let d: u32 = it.next().map(|m| m.parse().ok()).unwrap_or(Some(1))?;
    let date = NaiveDate::from_ymd_opt(y, mo, d)?;
    let Some(rest) = rest else { return Some(date.and_hms_opt(0, 0, 0)?.and_utc().timestamp_millis()) };
    // Split the zone off the time.
    let (time, zone) = match rest.find(['Z', 'z', '+', '-']) {
        Some(i) => (&rest[..i], Some(&rest[i..])),
        None => (rest, None),
    };
    let (hms, frac) = match time.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (time, None),
    };
    let mut parts = hms.split(':');
    let h: u32 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next().map(|x| x.parse().ok()).unwrap_or(Some(0))?;
    let sec: u32 = parts.next().map(|x| x.parse().ok()).unwrap_or(Some(0))?;
    let nanos: u32 = match frac {
        Some(f) if !f.is_empty() && f.len() <= 9 && f.chars().all(|c| c.is_ascii_digit()) => {
            format!("{f:0<9}").parse().ok()?
        }
        Some(_) => return None,
        None => 0,
    };
    let t = NaiveTime::from_hms_nano_opt(h, m, sec, nanos)?;
    let naive = NaiveDateTime::new(date, t);
    let offset = match zone {
        None | Some("Z") | Some("z") => 0,
        Some(z) => parse_offset(z)?,
    };
    Some(naive.and_utc().timestamp_millis() - offset as i64 * 1000)
}

/// `+01:00`, `-0530`, `+01` -> seconds east of UTC.
fn parse_offset(z: &str) -> Option<i32> {
    let sign = match z.chars().next()? {
        '+' => 1,
        '-' => -1,
        _ => return None,
    };
    let digits: String = z[1..].chars().filter(|c| *c != ':').collect();
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (h, m) = match digits.len() {
        2 => (digits.parse::<i32>().ok()?, 0),
        4 => (digits[..2].parse::<i32>().ok()?, digits[2..].parse::<i32>().ok()?),
        _ => return None,
    };
    if h > 18 || m > 59 {
        return None;
    }
    Some(sign * (h * 3600 + m * 60))
}

impl DateFormat {
    /// Parses a mapping `format`.
    pub fn parse_format(spec: &str) -> Result<DateFormat, DateError> {
        let mut alts = Vec::new();
        for part in spec.split("||").map(str::trim).filter(|p| !p.is_empty()) {
            let alt = match named(part) {
                Some(a) => a,
                None => {
                    if !part.chars().any(|c| "yYuMdHmsS".contains(c)) {
                        return Err(err(format!(
                            "Invalid format: [{part}]: Unknown pattern letter or unsupported format"
                        )));
                    }
                    let (chrono, has_time, has_zone) = joda_to_chrono(part);
                    Alt::Pattern { chrono, has_time, has_zone }
                }
            };
            alts.push(alt);
        }
        if alts.is_empty() {
            return Err(err(format!("Invalid format: [{spec}]")));
        }
        Ok(DateFormat { name: spec.to_string(), alts })
    }

    /// Parses a date into epoch milliseconds (UTC unless the value carries a zone).
    pub fn parse(&self, s: &str) -> Result<i64, DateError> {
        self.parse_in(s, 0)
    }

    /// Parses with `default_offset` (seconds) for values without a zone.
    fn parse_in(&self, s: &str, default_offset: i32) -> Result<i64, DateError> {
        for alt in &self.alts {
            let r = match alt {
                Alt::OptionalTime => {
                    let has_zone = s.contains('T')
                        && s.rsplit('T').next().map(|t| t.contains(['Z', 'z', '+', '-'])).unwrap_or(false);
                    parse_optional_time(s).map(|ms| if has_zone { ms } else { ms - default_offset as i64 * 1000 })
                }
                Alt::EpochMillis => s.trim().parse::<i64>().ok(),
                Alt::EpochSecond => s.trim().parse::<f64>().ok().filter(|f| f.is_finite()).map(|f| (f * 1000.0) as i64),
                Alt::Pattern { chrono, has_time, has_zone } => {
                    if *has_zone {
                        DateTime::parse_from_str(s, chrono).ok().map(|d| d.timestamp_millis())
                    } else if *has_time {
                        NaiveDateTime::parse_from_str(s, chrono)
                            .ok()
                            .map(|d| d.and_utc().timestamp_millis() - default_offset as i64 * 1000)
                    } else {
                        parse_date_only(s, chrono).map(|ms| ms - default_offset as i64 * 1000)
                    }
                }
            };
            if let Some(ms) = r {
                return Ok(ms);
            }
        }
        Err(err(format!("failed to parse date field [{s}] with format [{}]", self.name)))
    }

    /// Formats epoch milliseconds with the first alternative (ES renders dates this way).
    pub fn format(&self, millis: i64) -> String {
        self.format_at(millis, 0)
    }

    /// Formats epoch milliseconds as local time in a zone `offset_secs` east of UTC (the
    /// zone renders as `Z` at offset 0, `+01:00` otherwise, as Joda does).
    pub fn format_at(&self, millis: i64, offset_secs: i32) -> String {
        let dt = Utc.timestamp_millis_opt(millis + offset_secs as i64 * 1000).single().unwrap_or_default();
        match &self.alts[0] {
            Alt::OptionalTime if offset_secs == 0 => dt.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
            Alt::OptionalTime => {
                let (sign, abs) = if offset_secs < 0 { ('-', -offset_secs) } else { ('+', offset_secs) };
                format!("{}{sign}{:02}:{:02}", dt.format("%Y-%m-%dT%H:%M:%S%.3f"), abs / 3600, abs % 3600 / 60)
            }
            Alt::EpochMillis => millis.to_string(),
            Alt::EpochSecond => (millis / 1000).to_string(),
            Alt::Pattern { chrono, .. } => dt.format(chrono).to_string(),
        }
    }
}

/// Date-only patterns (chrono cannot parse a NaiveDateTime without a time).
fn parse_date_only(s: &str, chrono_pat: &str) -> Option<i64> {
    if let Ok(d) = NaiveDate::parse_from_str(s, chrono_pat) {
        return Some(d.and_hms_opt(0, 0, 0)?.and_utc().timestamp_millis());
    }
    // Year or year-month patterns: complete the missing parts.
    for (extra_pat, extra) in [("-%m-%d", "-01-01"), ("-%d", "-01"), ("%m%d", "0101")] {
        if let Ok(d) = NaiveDate::parse_from_str(&format!("{s}{extra}"), &format!("{chrono_pat}{extra_pat}")) {
            return Some(d.and_hms_opt(0, 0, 0)?.and_utc().timestamp_millis());
        }
    }
    None
}

/// A fixed time zone (IANA names are not bundled).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeZone {
    offset_secs: i32,
}

impl TimeZone {
    /// `Z`, `UTC`, `GMT`, `+01:00`, `-0530`, `+01`.
    pub fn parse(s: &str) -> Result<TimeZone, DateError> {
        let t = s.trim();
        if matches!(t, "Z" | "UTC" | "GMT" | "UT" | "Etc/UTC" | "Etc/GMT") {
            return Ok(TimeZone { offset_secs: 0 });
        }
        parse_offset(t)
            .map(|offset_secs| TimeZone { offset_secs })
            .ok_or_else(|| err(format!("The datetime zone id '{t}' is not recognised")))
    }

    /// Seconds east of UTC.
    pub fn offset_secs(&self) -> i32 {
        self.offset_secs
    }
}

fn to_local(ms: i64, offset: i32) -> Option<NaiveDateTime> {
    DateTime::from_timestamp_millis(ms + offset as i64 * 1000).map(|d| d.naive_utc())
}

fn from_local(dt: NaiveDateTime, offset: i32) -> i64 {
    dt.and_utc().timestamp_millis() - offset as i64 * 1000
}

fn add_unit(dt: NaiveDateTime, n: i64, unit: char) -> Option<NaiveDateTime> {
    match unit {
        'y' => add_months(dt, n.checked_mul(12)?),
        'M' => add_months(dt, n),
        'q' => add_months(dt, n.checked_mul(3)?),
        'w' => dt.checked_add_signed(ChronoDuration::try_weeks(n)?),
        'd' => dt.checked_add_signed(ChronoDuration::try_days(n)?),
        'h' | 'H' => dt.checked_add_signed(ChronoDuration::try_hours(n)?),
        'm' => dt.checked_add_signed(ChronoDuration::try_minutes(n)?),
        's' => dt.checked_add_signed(ChronoDuration::try_seconds(n)?),
        _ => None,
    }
}

fn add_months(dt: NaiveDateTime, n: i64) -> Option<NaiveDateTime> {
    let total = dt.year() as i64 * 12 + dt.month0() as i64 + n;
    let (y, m) = (total.div_euclid(12) as i32, total.rem_euclid(12) as u32 + 1);
    let last = (28..=31).rev().find(|d| NaiveDate::from_ymd_opt(y, m, *d).is_some())?;
    Some(NaiveDateTime::new(NaiveDate::from_ymd_opt(y, m, dt.day().min(last))?, dt.time()))
}

const DAY_MS: i64 = 86_400_000;

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The (year, month) of a day count since 1970-01-01.
fn year_month_of_days(z: i64) -> (i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m)
}

/// Length in milliseconds of the units that have one in a fixed-offset zone.
fn fixed_unit_ms(unit: char) -> Option<i64> {
    Some(match unit {
        's' => 1000,
        'm' => 60_000,
        'h' | 'H' => 3_600_000,
        'd' => DAY_MS,
        'w' => 7 * DAY_MS,
        _ => return None,
    })
}

/// Start of the calendar unit holding `ms` (`y`, `q`, `M`, `w`, `d`, `h`, `m`, `s`), in a
/// fixed time zone `offset_secs` east of UTC; epoch millis. Integer arithmetic only: date
/// histograms call this for every value.
pub fn calendar_floor(ms: i64, unit: char, offset_secs: i32) -> Option<i64> {
    let off = offset_secs as i64 * 1000;
    let local = ms.checked_add(off)?;
    let start = match unit {
        // 1970-01-01 was a Thursday: weeks start 3 days later, on Monday.
        'w' => (local - 4 * DAY_MS).div_euclid(7 * DAY_MS) * 7 * DAY_MS + 4 * DAY_MS,
        'M' | 'q' | 'y' => {
            let (y, m) = year_month_of_days(local.div_euclid(DAY_MS));
            let first = match unit {
                'M' => m,
                'q' => (m - 1) / 3 * 3 + 1,
                _ => 1,
            };
            days_from_civil(y, first, 1).checked_mul(DAY_MS)?
        }
        u => {
            let len = fixed_unit_ms(u)?;
            local.div_euclid(len) * len
        }
    };
    start.checked_sub(off)
}

/// Start of the calendar unit after the one starting at `start` (see [`calendar_floor`]).
pub fn calendar_next(start: i64, unit: char, offset_secs: i32) -> Option<i64> {
    let months = match unit {
        'M' => 1,
        'q' => 3,
        'y' => 12,
        u => return start.checked_add(fixed_unit_ms(u)?),
    };
    let off = offset_secs as i64 * 1000;
    let local = start.checked_add(off)?;
    let (y, m) = year_month_of_days(local.div_euclid(DAY_MS));
    let total = y * 12 + (m - 1) + months;
    let next = days_from_civil(total.div_euclid(12), total.rem_euclid(12) + 1, 1).checked_mul(DAY_MS)?;
    next.checked_sub(off)
}

fn round_down(dt: NaiveDateTime, unit: char) -> Option<NaiveDateTime> {
    let d = dt.date();
    Some(match unit {
        'y' => NaiveDate::from_ymd_opt(d.year(), 1, 1)?.and_hms_opt(0, 0, 0)?,
        'M' => NaiveDate::from_ymd_opt(d.year(), d.month(), 1)?.and_hms_opt(0, 0, 0)?,
        'q' => NaiveDate::from_ymd_opt(d.year(), d.month0() / 3 * 3 + 1, 1)?.and_hms_opt(0, 0, 0)?,
        'w' => (d - ChronoDuration::days(d.weekday().num_days_from_monday() as i64)).and_hms_opt(0, 0, 0)?,
        'd' => d.and_hms_opt(0, 0, 0)?,
        'h' | 'H' => d.and_hms_opt(dt.hour(), 0, 0)?,
        'm' => d.and_hms_opt(dt.hour(), dt.minute(), 0)?,
        's' => d.and_hms_opt(dt.hour(), dt.minute(), dt.second())?,
        _ => return None,
    })
}

/// Date math: `now`, `now-1d/d`, `2020-01-01||+1M/d`. With `round_up`, a rounding goes to
/// the last millisecond of the unit (ES does so for `gt` and `lte`).
pub fn parse_date_math(
    expr: &str,
    now_millis: i64,
    round_up: bool,
    format: &DateFormat,
    tz: Option<&TimeZone>,
) -> Result<i64, DateError> {
    let offset = tz.map(|t| t.offset_secs).unwrap_or(0);
    let (base, math) = if let Some(rest) = expr.strip_prefix("now") {
        (now_millis, rest)
    } else if let Some((d, m)) = expr.split_once("||") {
        (format.parse_in(d, offset)?, m)
    } else {
        return format.parse_in(expr, offset);
    };
    let bad = || err(format!("operation [{math}] is not supported in date math expression [{expr}]"));
    let mut dt = to_local(base, offset).ok_or_else(bad)?;
    let chars: Vec<char> = math.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let op = chars[i];
        i += 1;
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let n: i64 =
            if i > start { chars[start..i].iter().collect::<String>().parse().map_err(|_| bad())? } else { 1 };
        let unit = *chars.get(i).ok_or_else(|| err(format!("truncated date math [{math}]")))?;
        i += 1;
        dt = match op {
            '+' => add_unit(dt, n, unit).ok_or_else(bad)?,
            '-' => add_unit(dt, -n, unit).ok_or_else(bad)?,
            '/' => {
                let down = round_down(dt, unit).ok_or_else(bad)?;
                if round_up {
                    add_unit(down, 1, unit).ok_or_else(bad)? - ChronoDuration::milliseconds(1)
                } else {
                    down
                }
            }
            _ => return Err(bad()),
        };
    }
    Ok(from_local(dt, offset))
}

/// ES `TimeValue.parseTimeValue`: `nanos`, `micros`, `ms`, `s`, `m`, `h`, `d`; `-1` and
/// `0` mean zero here.
pub fn parse_time_value(s: &str, setting_name: &str) -> Result<std::time::Duration, DateError> {
    let t = s.trim().to_ascii_lowercase();
    if t == "-1" || t == "0" {
        return Ok(std::time::Duration::ZERO);
    }
    let units: [(&str, f64); 7] =
        [("nanos", 1e-6), ("micros", 1e-3), ("ms", 1.0), ("s", 1e3), ("m", 6e4), ("h", 3.6e6), ("d", 8.64e7)];
    for (suffix, factor) in units {
        if let Some(num) = t.strip_suffix(suffix) {
            // `ms` must not be read as minutes of "m" + "s".
            if suffix == "s" && (t.ends_with("ms") || t.ends_with("nanos") || t.ends_with("micros")) {
                continue;
            }
            if suffix == "m" && t.ends_with("ms") {
                continue;
            }
            let n: f64 = num.trim().parse().map_err(|_| err(format!("failed to parse [{s}]")))?;
            if n < 0.0 {
                return Err(err(format!("failed to parse setting [{setting_name}] with value [{s}] as a time value: negative durations are not supported")));
            }
            return Ok(std::time::Duration::from_micros((n * factor * 1000.0) as u64));
        }
    }
    Err(err(format!(
        "failed to parse setting [{setting_name}] with value [{s}] as a time value: unit is missing or unrecognized"
    )))
}

/// Fixed millisecond length of a date-histogram style interval (`90m`, `1d`).
pub fn fixed_interval_ms(s: &str) -> Option<i64> {
    parse_time_value(s, "interval").ok().map(|d| d.as_millis() as i64).filter(|ms| *ms > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(s: &str) -> i64 {
        DateTime::parse_from_rfc3339(s).unwrap().timestamp_millis()
    }

    #[test]
    fn default_format_forms() {
        let f = DateFormat::parse_format("strict_date_optional_time||epoch_millis").unwrap();
        assert_eq!(f.parse("2020").unwrap(), ms("2020-01-01T00:00:00Z"));
        assert_eq!(f.parse("2020-02").unwrap(), ms("2020-02-01T00:00:00Z"));
        assert_eq!(f.parse("2020-02-03T04:05").unwrap(), ms("2020-02-03T04:05:00Z"));
        assert_eq!(f.parse("2020-02-03T04:05:06.789+01:00").unwrap(), ms("2020-02-03T04:05:06.789+01:00"));
        assert_eq!(f.parse("2021-01-19T10:04:24.754663Z").unwrap(), ms("2021-01-19T10:04:24.754Z"));
        assert_eq!(f.parse("1500000000000").unwrap(), 1_500_000_000_000);
        assert!(f.parse("yesterday").is_err());
        assert_eq!(f.format(0), "1970-01-01T00:00:00.000Z");
    }

    #[test]
    fn compact_and_custom_formats() {
        let f = DateFormat::parse_format("basic_date_time_no_millis").unwrap();
        assert_eq!(f.parse("20190219T123401+0000").unwrap(), ms("2019-02-19T12:34:01Z"));
        let c = DateFormat::parse_format("yyyy/MM/dd").unwrap();
        assert_eq!(c.parse("2019/02/19").unwrap(), ms("2019-02-19T00:00:00Z"));
        assert_eq!(c.format(ms("2019-02-19T00:00:00Z")), "2019/02/19");
    }

    #[test]
    fn date_math_and_rounding() {
        let f = DateFormat::parse_format("strict_date_optional_time").unwrap();
        let now = ms("2020-03-15T10:30:00Z");
        assert_eq!(parse_date_math("now-1d/d", now, false, &f, None).unwrap(), ms("2020-03-14T00:00:00Z"));
        assert_eq!(parse_date_math("now-1d/d", now, true, &f, None).unwrap(), ms("2020-03-14T23:59:59.999Z"));
        assert_eq!(parse_date_math("2020-01-31||+1M", now, false, &f, None).unwrap(), ms("2020-02-29T00:00:00Z"));
        assert_eq!(parse_date_math("now/M", now, false, &f, None).unwrap(), ms("2020-03-01T00:00:00Z"));
        let tz = TimeZone::parse("+05:30").unwrap();
        assert_eq!(parse_date_math("now/d", now, false, &f, Some(&tz)).unwrap(), ms("2020-03-15T00:00:00+05:30"));
        assert!(TimeZone::parse("Europe/Paris").unwrap_err().message.contains("is not recognised"));
        assert!(parse_date_math("now+1x", now, false, &f, None).is_err());
    }

    #[test]
    fn calendar_rounding_agrees_with_chrono() {
        let mut x: u64 = 42;
        for _ in 0..20_000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let ms = (x >> 20) as i64 % 8_000_000_000_000 - 2_000_000_000_000;
            for offset in [0, 3600, -19800] {
                for unit in ['y', 'q', 'M', 'w', 'd', 'h', 'm', 's'] {
                    let want =
                        to_local(ms, offset).and_then(|dt| round_down(dt, unit)).map(|dt| from_local(dt, offset));
                    assert_eq!(calendar_floor(ms, unit, offset), want, "{ms} {unit} {offset}");
                    let start = want.unwrap();
                    let next =
                        to_local(start, offset).and_then(|dt| add_unit(dt, 1, unit)).map(|dt| from_local(dt, offset));
                    assert_eq!(calendar_next(start, unit, offset), next, "{start} {unit} {offset}");
                }
            }
        }
    }

    #[test]
    fn time_values() {
        assert_eq!(parse_time_value("1m", "scroll").unwrap(), std::time::Duration::from_secs(60));
        assert_eq!(parse_time_value("500ms", "scroll").unwrap(), std::time::Duration::from_millis(500));
        assert_eq!(parse_time_value("1ms", "scroll").unwrap(), std::time::Duration::from_millis(1));
        assert_eq!(parse_time_value("2h", "x").unwrap(), std::time::Duration::from_secs(7200));
        assert_eq!(parse_time_value("1d", "x").unwrap(), std::time::Duration::from_secs(86400));
        assert_eq!(parse_time_value("30s", "x").unwrap(), std::time::Duration::from_secs(30));
        assert_eq!(
            parse_time_value("10", "scroll").unwrap_err().message,
            "failed to parse setting [scroll] with value [10] as a time value: unit is missing or unrecognized"
        );
        for garbage in ["", "m", "-5s", "1.5.5m", "\u{0}"] {
            let _ = parse_time_value(garbage, "x");
        }
    }
}
