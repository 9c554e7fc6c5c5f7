//! TEMPORARY minimal date support (replaced by the full module).
use std::fmt;
#[derive(Debug, Clone)]
pub struct DateError {
    pub message: String,
}
impl fmt::Display for DateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
#[derive(Debug, Clone)]
pub struct DateFormat(String);
impl DateFormat {
    pub fn parse_format(s: &str) -> Result<DateFormat, DateError> {
        Ok(DateFormat(s.to_string()))
    }
    pub fn parse(&self, s: &str) -> Result<i64, DateError> {
        if let Ok(d) = chrono::DateTime::parse_from_rfc3339(s) {
            return Ok(d.timestamp_millis());
        }
        if let Ok(d) = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d") {
            return Ok(d.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_millis());
        }
        if let Ok(d) = chrono::DateTime::parse_from_str(s, "%Y%m%dT%H%M%S%z") {
            return Ok(d.timestamp_millis());
        }
        Err(DateError { message: format!("failed to parse date field [{s}] with format [{}]", self.0) })
    }
    pub fn format(&self, ms: i64) -> String {
        chrono::DateTime::from_timestamp_millis(ms)
            .map(|d| d.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
            .unwrap_or_default()
    }
}
#[derive(Debug, Clone)]
pub struct TimeZone;
impl TimeZone {
    pub fn parse(_s: &str) -> Result<TimeZone, DateError> {
        Ok(TimeZone)
    }
}
pub fn parse_date_math(
    s: &str,
    now: i64,
    _round_up: bool,
    f: &DateFormat,
    _tz: Option<&TimeZone>,
) -> Result<i64, DateError> {
    if s == "now" {
        Ok(now)
    } else {
        f.parse(s)
    }
}
pub fn parse_time_value(s: &str, _n: &str) -> Result<std::time::Duration, DateError> {
    Ok(std::time::Duration::from_secs(s.trim_end_matches(|c: char| c.is_alphabetic()).parse().unwrap_or(1)))
}
