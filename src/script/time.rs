//! Dates as ES 6.8 hands them to scripts: a date field's doc value is a
//! `JodaCompatibleZonedDateTime` in UTC (java.time's `ZonedDateTime` plus Joda's old
//! getters, which warn as deprecated); its methods lead to plain `ZonedDateTime`s,
//! `Instant`s and the `Month` / `DayOfWeek` enums. All are an instant in milliseconds
//! (doc values hold milliseconds) tagged with what Java class it is.

use super::error::Halt;
use super::value::{Heap, Value};
use chrono::{DateTime, Datelike, Months, Timelike, Utc};

/// Which Java class a time value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeKind {
    /// `org.elasticsearch.script.JodaCompatibleZonedDateTime` (a date doc value).
    Joda,
    /// `java.time.ZonedDateTime` in UTC (what its `plus…`/`minus…` answer).
    Zoned,
    /// `java.time.Instant`.
    Instant,
    /// `java.time.Month`; the value is 1..=12.
    Month,
    /// `java.time.DayOfWeek`; the value is 1 (Monday) ..= 7.
    DayOfWeek,
}

impl TimeKind {
    /// The Java class name (error messages).
    pub fn class_name(self) -> &'static str {
        match self {
            TimeKind::Joda => "org.elasticsearch.script.JodaCompatibleZonedDateTime",
            TimeKind::Zoned => "java.time.ZonedDateTime",
            TimeKind::Instant => "java.time.Instant",
            TimeKind::Month => "java.time.Month",
            TimeKind::DayOfWeek => "java.time.DayOfWeek",
        }
    }

    /// Whether it is a point in time (the zoned kinds and `Instant`), not an enum.
    fn is_instant(self) -> bool {
        matches!(self, TimeKind::Joda | TimeKind::Zoned | TimeKind::Instant)
    }

    fn is_zoned(self) -> bool {
        matches!(self, TimeKind::Joda | TimeKind::Zoned)
    }
}

const MONTHS: [&str; 12] = [
    "JANUARY",
    "FEBRUARY",
    "MARCH",
    "APRIL",
    "MAY",
    "JUNE",
    "JULY",
    "AUGUST",
    "SEPTEMBER",
    "OCTOBER",
    "NOVEMBER",
    "DECEMBER",
];
const DAYS: [&str; 7] = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"];

/// A date field's doc value.
pub fn doc_value(millis: i64) -> Value {
    Value::Time(TimeKind::Joda, millis)
}

fn utc(millis: i64) -> DateTime<Utc> {
    // Doc values hold what the mapping parsed, which chrono's range covers; clamp anyway.
    DateTime::from_timestamp_millis(millis).unwrap_or(DateTime::<Utc>::MIN_UTC)
}

/// The year as `LocalDate.toString` writes it: four digits at least, a sign past 9999.
fn write_year(y: i32, out: &mut String) {
    if y > 9999 {
        out.push_str(&format!("+{y}"));
    } else if y < 0 {
        out.push_str(&format!("-{:04}", -(y as i64)));
    } else {
        out.push_str(&format!("{y:04}"));
    }
}

/// `ZonedDateTime.toString` in UTC: `2019-03-01T10:05Z`, seconds only when not zero,
/// the fraction in groups of three digits only when not zero.
fn zoned_string(millis: i64) -> String {
    let t = utc(millis);
    let mut out = String::with_capacity(24);
    write_year(t.year(), &mut out);
    out.push_str(&format!("-{:02}-{:02}T{:02}:{:02}", t.month(), t.day(), t.hour(), t.minute()));
    let ms = millis.rem_euclid(1000);
    if t.second() > 0 || ms > 0 {
        out.push_str(&format!(":{:02}", t.second()));
        if ms > 0 {
            out.push_str(&format!(".{ms:03}"));
        }
    }
    out.push('Z');
    out
}

/// `Instant.toString` (ISO_INSTANT): seconds always, the fraction only when not zero.
fn instant_string(millis: i64) -> String {
    let t = utc(millis);
    let mut out = String::with_capacity(24);
    write_year(t.year(), &mut out);
    out.push_str(&format!("-{:02}-{:02}T{:02}:{:02}:{:02}", t.month(), t.day(), t.hour(), t.minute(), t.second()));
    let ms = millis.rem_euclid(1000);
    if ms > 0 {
        out.push_str(&format!(".{ms:03}"));
    }
    out.push('Z');
    out
}

/// Java's `toString` of a time value.
pub fn to_string(kind: TimeKind, v: i64) -> String {
    match kind {
        TimeKind::Joda | TimeKind::Zoned => zoned_string(v),
        TimeKind::Instant => instant_string(v),
        TimeKind::Month => MONTHS[(v.clamp(1, 12) - 1) as usize].to_string(),
        TimeKind::DayOfWeek => DAYS[(v.clamp(1, 7) - 1) as usize].to_string(),
    }
}

/// How a date renders in a response (`script_fields`, keys): ES's default date printer,
/// `strict_date_optional_time` with milliseconds (`2019-03-01T10:05:00.000Z`).
pub fn to_json(kind: TimeKind, v: i64) -> serde_json::Value {
    if !kind.is_instant() {
        return serde_json::Value::String(to_string(kind, v));
    }
    let t = utc(v);
    let mut out = String::with_capacity(24);
    write_year(t.year(), &mut out);
    out.push_str(&format!(
        "-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        v.rem_euclid(1000)
    ));
    serde_json::Value::String(out)
}

/// Whether a time value of `kind` has the method `name` with `argc` arguments (the
/// getter shortcut `.millis`, `.year`, … asks).
pub fn has_method(kind: TimeKind, name: &str, argc: usize) -> bool {
    if argc != 0 {
        return false;
    }
    match kind {
        TimeKind::Joda => {
            zoned_getter(name).is_some()
                || joda_getter(name).is_some()
                || matches!(name, "getDayOfWeek" | "getDayOfWeekEnum" | "getMonth" | "getZonedDateTime")
        }
        TimeKind::Zoned => zoned_getter(name).is_some() || matches!(name, "getDayOfWeek" | "getMonth"),
        TimeKind::Instant => matches!(name, "getEpochSecond" | "getNano"),
        TimeKind::Month | TimeKind::DayOfWeek => name == "getValue",
    }
}

/// A getter of a date's field.
type Getter = fn(&DateTime<Utc>) -> i64;

/// A `ZonedDateTime` getter answering an `int`.
fn zoned_getter(name: &str) -> Option<Getter> {
    Some(match name {
        "getYear" => |t| t.year() as i64,
        "getMonthValue" => |t| t.month() as i64,
        "getDayOfMonth" => |t| t.day() as i64,
        "getDayOfYear" => |t| t.ordinal() as i64,
        "getHour" => |t| t.hour() as i64,
        "getMinute" => |t| t.minute() as i64,
        "getSecond" => |t| t.second() as i64,
        "getNano" => |t| t.nanosecond() as i64,
        _ => return None,
    })
}

/// The deprecated Joda getters of `JodaCompatibleZonedDateTime`: their value and the
/// deprecation message ES 6.8 logs (and sends as a `Warning` header).
fn joda_getter(name: &str) -> Option<(Getter, &'static str)> {
    Some(match name {
        "getMillis" => (|t| t.timestamp_millis(), "toInstant().toEpochMilli()"),
        "getCenturyOfEra" => (|t| t.year().abs() as i64 / 100, "get(ChronoField.YEAR_OF_ERA) / 100"),
        "getEra" => (|t| i64::from(t.year() > 0), "get(ChronoField.ERA)"),
        "getHourOfDay" => (|t| t.hour() as i64, "getHour()"),
        "getMillisOfDay" => (
            |t| t.num_seconds_from_midnight() as i64 * 1000 + t.timestamp_subsec_millis() as i64,
            "get(ChronoField.MILLI_OF_DAY)",
        ),
        "getMillisOfSecond" => (|t| t.timestamp_subsec_millis() as i64, "get(ChronoField.MILLI_OF_SECOND)"),
        "getMinuteOfDay" => (|t| t.num_seconds_from_midnight() as i64 / 60, "get(ChronoField.MINUTE_OF_DAY)"),
        "getMinuteOfHour" => (|t| t.minute() as i64, "getMinute()"),
        "getMonthOfYear" => (|t| t.month() as i64, "getMonthValue()"),
        "getSecondOfDay" => (|t| t.num_seconds_from_midnight() as i64, "get(ChronoField.SECOND_OF_DAY)"),
        "getSecondOfMinute" => (|t| t.second() as i64, "getSecond()"),
        "getWeekOfWeekyear" => {
            (|t| t.iso_week().week() as i64, "get(DateFormatters.WEEK_FIELDS_ROOT.weekOfWeekBasedYear())")
        }
        "getWeekyear" => (|t| t.iso_week().year() as i64, "get(DateFormatters.WEEK_FIELDS_ROOT.weekBasedYear())"),
        "getYearOfCentury" => (|t| (t.year().abs() % 100) as i64, "get(ChronoField.YEAR_OF_ERA) % 100"),
        "getYearOfEra" => (|t| t.year().abs() as i64, "get(ChronoField.YEAR_OF_ERA)"),
        _ => return None,
    })
}

fn no_method(kind: TimeKind, name: &str, argc: usize, off: usize) -> Halt {
    Halt::at(
        off,
        "illegal_argument_exception",
        format!("Unable to find dynamic method [{name}] with [{argc}] arguments for class [{}].", kind.class_name()),
    )
}

/// The instant of a time argument (`isBefore(other)`, `compareTo(other)`).
fn instant_arg(kind: TimeKind, v: &Value, off: usize) -> Result<i64, Halt> {
    match v {
        Value::Time(k, m) if k.is_zoned() == kind.is_zoned() && k.is_instant() => Ok(*m),
        Value::Null => Err(Halt::null_pointer(off)),
        other => Err(Halt::at(
            off,
            "class_cast_exception",
            format!("Cannot cast [{}] to [{}].", Heap::class_name(other), kind.class_name()),
        )),
    }
}

fn long_arg(v: &Value, off: usize) -> Result<i64, Halt> {
    match v {
        Value::Int(i) => Ok(*i as i64),
        Value::Long(l) => Ok(*l),
        Value::Null => Err(Halt::null_pointer(off)),
        other => {
            Err(Halt::at(off, "class_cast_exception", format!("Cannot cast [{}] to [long].", Heap::class_name(other))))
        }
    }
}

/// `plusDays(n)`, `minusMonths(n)`, …: the new `ZonedDateTime`'s milliseconds.
fn shifted(millis: i64, name: &str, n: i64, off: usize) -> Option<Result<i64, Halt>> {
    let (sign, unit) = if let Some(u) = name.strip_prefix("plus") { (1, u) } else { (-1, name.strip_prefix("minus")?) };
    let overflow = || Halt::at(off, "date_time_exception", "Instant exceeds minimum or maximum instant");
    let n = n.checked_mul(sign);
    let t = utc(millis);
    let fixed = |ms_per: i64| -> Result<i64, Halt> {
        n.and_then(|n| n.checked_mul(ms_per)).and_then(|d| millis.checked_add(d)).ok_or_else(overflow)
    };
    let calendar = |months: Option<i64>| -> Result<i64, Halt> {
        let months = months.ok_or_else(overflow)?;
        let m = Months::new(u32::try_from(months.unsigned_abs()).map_err(|_| overflow())?);
        let moved = if months >= 0 { t.checked_add_months(m) } else { t.checked_sub_months(m) };
        moved.map(|d| d.timestamp_millis()).ok_or_else(overflow)
    };
    Some(match unit {
        "Years" => calendar(n.and_then(|n| n.checked_mul(12))),
        "Months" => calendar(n),
        "Weeks" => fixed(7 * 86_400_000),
        "Days" => fixed(86_400_000),
        "Hours" => fixed(3_600_000),
        "Minutes" => fixed(60_000),
        "Seconds" => fixed(1000),
        "Nanos" => n.map(|n| n.div_euclid(1_000_000)).and_then(|d| millis.checked_add(d)).ok_or_else(overflow),
        _ => return None,
    })
}

/// Calls method `name` on a time value (the methods every object has, `equals` and
/// `toString`, are answered before this).
pub fn call(heap: &mut Heap, kind: TimeKind, v: i64, name: &str, args: &[Value], off: usize) -> Result<Value, Halt> {
    let argc = args.len();
    match kind {
        TimeKind::Month | TimeKind::DayOfWeek => {
            return match (name, argc) {
                ("getValue", 0) => Ok(Value::Int(v as i32)),
                ("ordinal", 0) => Ok(Value::Int(v as i32 - 1)),
                ("name", 0) => heap.new_str(to_string(kind, v), off),
                ("compareTo", 1) => match &args[0] {
                    Value::Time(k, w) if *k == kind => Ok(Value::Int((v - w) as i32)),
                    other => Err(Halt::at(
                        off,
                        "class_cast_exception",
                        format!("Cannot cast [{}] to [{}].", Heap::class_name(other), kind.class_name()),
                    )),
                },
                _ => Err(no_method(kind, name, argc, off)),
            };
        }
        TimeKind::Instant => {
            return match (name, argc) {
                ("toEpochMilli", 0) => Ok(Value::Long(v)),
                ("getEpochSecond", 0) => Ok(Value::Long(v.div_euclid(1000))),
                ("getNano", 0) => Ok(Value::Int((v.rem_euclid(1000) * 1_000_000) as i32)),
                ("isBefore", 1) => Ok(Value::Bool(v < instant_arg(kind, &args[0], off)?)),
                ("isAfter", 1) => Ok(Value::Bool(v > instant_arg(kind, &args[0], off)?)),
                ("compareTo", 1) => Ok(Value::Int(v.cmp(&instant_arg(kind, &args[0], off)?) as i32)),
                ("plusMillis", 1) => Ok(Value::Time(kind, v.wrapping_add(long_arg(&args[0], off)?))),
                ("minusMillis", 1) => Ok(Value::Time(kind, v.wrapping_sub(long_arg(&args[0], off)?))),
                ("plusSeconds", 1) => {
                    Ok(Value::Time(kind, v.wrapping_add(long_arg(&args[0], off)?.wrapping_mul(1000))))
                }
                _ => Err(no_method(kind, name, argc, off)),
            };
        }
        TimeKind::Joda | TimeKind::Zoned => {}
    }
    let t = utc(v);
    if argc == 0 {
        if let Some(get) = zoned_getter(name) {
            return Ok(Value::Int(get(&t) as i32));
        }
        if kind == TimeKind::Joda {
            if name == "getDayOfWeek" {
                crate::deprecation::warn(
                    "The return type of [getDayOfWeek()] will change to an enum in 7.0. Use getDayOfWeekEnum().getValue().",
                );
                return Ok(Value::Int(t.weekday().number_from_monday() as i32));
            }
            if let Some((get, instead)) = joda_getter(name) {
                let old = format!("{name}()");
                crate::deprecation::warn(format!(
                    "Use of the joda time method [{old}] is deprecated. Use [{instead}] instead."
                ));
                let x = get(&t);
                return Ok(if name == "getMillis" { Value::Long(x) } else { Value::Int(x as i32) });
            }
        }
        match name {
            "getDayOfWeek" | "getDayOfWeekEnum" if name == "getDayOfWeek" || kind == TimeKind::Joda => {
                return Ok(Value::Time(TimeKind::DayOfWeek, t.weekday().number_from_monday() as i64))
            }
            "getMonth" => return Ok(Value::Time(TimeKind::Month, t.month() as i64)),
            "toInstant" => return Ok(Value::Time(TimeKind::Instant, v)),
            "toEpochSecond" => return Ok(Value::Long(v.div_euclid(1000))),
            "getZonedDateTime" if kind == TimeKind::Joda => return Ok(Value::Time(TimeKind::Zoned, v)),
            _ => {}
        }
    }
    if argc == 1 {
        match name {
            "isBefore" => return Ok(Value::Bool(v < instant_arg(kind, &args[0], off)?)),
            "isAfter" => return Ok(Value::Bool(v > instant_arg(kind, &args[0], off)?)),
            "isEqual" => return Ok(Value::Bool(v == instant_arg(kind, &args[0], off)?)),
            "compareTo" => return Ok(Value::Int(v.cmp(&instant_arg(kind, &args[0], off)?) as i32)),
            _ => {}
        }
        if let Some(r) = shifted(v, name, long_arg(&args[0], off)?, off) {
            return Ok(Value::Time(TimeKind::Zoned, r?));
        }
    }
    Err(no_method(kind, name, argc, off))
}

/// Java's `equals` between two time values: the same instant of the same class (a
/// `JodaCompatibleZonedDateTime` also equals the `ZonedDateTime` it wraps).
pub fn equals(a: (TimeKind, i64), b: (TimeKind, i64)) -> bool {
    a.1 == b.1 && (a.0 == b.0 || (a.0.is_zoned() && b.0 == TimeKind::Zoned))
}

/// `Comparable.compareTo` between time values of comparable classes.
pub fn compare(a: (TimeKind, i64), b: (TimeKind, i64)) -> Option<std::cmp::Ordering> {
    let comparable = (a.0.is_zoned() && b.0.is_zoned()) || a.0 == b.0;
    comparable.then(|| a.1.cmp(&b.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_javas() {
        // 2019-03-01T10:05:00Z
        assert_eq!(to_string(TimeKind::Joda, 1_551_434_700_000), "2019-03-01T10:05Z");
        assert_eq!(to_string(TimeKind::Zoned, 1_551_434_700_123), "2019-03-01T10:05:00.123Z");
        assert_eq!(to_string(TimeKind::Zoned, 1_551_434_701_000), "2019-03-01T10:05:01Z");
        assert_eq!(to_string(TimeKind::Instant, 1_551_434_700_000), "2019-03-01T10:05:00Z");
        assert_eq!(to_string(TimeKind::Instant, -1), "1969-12-31T23:59:59.999Z");
        assert_eq!(to_json(TimeKind::Joda, 0), serde_json::json!("1970-01-01T00:00:00.000Z"));
        assert_eq!(to_string(TimeKind::Month, 3), "MARCH");
    }

    #[test]
    fn getters_and_shifts() {
        let mut heap = Heap::default();
        let v = 1_551_434_700_000; // a Friday
        let get = |heap: &mut Heap, name: &str| call(heap, TimeKind::Joda, v, name, &[], 0).unwrap();
        assert_eq!(get(&mut heap, "getDayOfWeek"), Value::Int(5));
        assert_eq!(get(&mut heap, "getDayOfYear"), Value::Int(60));
        assert_eq!(get(&mut heap, "getMillis"), Value::Long(v));
        assert_eq!(get(&mut heap, "getMonth"), Value::Time(TimeKind::Month, 3));
        let next = call(&mut heap, TimeKind::Joda, v, "plusMonths", &[Value::Int(11)], 0).unwrap();
        assert_eq!(next, Value::Time(TimeKind::Zoned, 1_580_551_500_000));
        assert_eq!(
            call(&mut heap, TimeKind::Zoned, v, "getDayOfWeek", &[], 0).unwrap(),
            Value::Time(TimeKind::DayOfWeek, 5)
        );
        assert!(call(&mut heap, TimeKind::Zoned, v, "getMillis", &[], 0).is_err());
    }
}
