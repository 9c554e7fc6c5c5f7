//! ES 6.8's variables of an expression (`ExpressionScriptEngine`'s bindings): what each
//! names in a script context and an index's mapping ("link error" when nothing), and
//! its value for one document from the field's doc values.

use crate::script::value::{DocKind, DocValues, Value};
use chrono::{DateTime, Datelike, Timelike};

/// The script contexts ES 6.8's expression engine compiles for (with the variables
/// each binds besides `params` and `doc`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Context {
    /// `function_score`'s `script_score` and `script` queries (`_score`; `_value` reads 0).
    Score,
    /// Aggregation scripts (`_score`, `_value`).
    Aggs,
    /// `_script` sort (`_score`).
    Sort,
    /// `script_fields` and `terms_set`'s minimum script (neither).
    Plain,
}

/// How a field's values become one number (ES's `MultiValueMode`, a missing value 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mode {
    /// The least value (`value`, `getValue()`, `min()`).
    Min,
    /// The greatest.
    Max,
    /// The mean.
    Avg,
    /// The median.
    Median,
    /// The sum.
    Sum,
}

/// A `Calendar` field of a date's least value (`getYear()`-style date methods).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CalendarField {
    /// `Calendar.YEAR`
    Year,
    /// `Calendar.MONTH` (0 for January)
    Month,
    /// `Calendar.DAY_OF_MONTH`
    DayOfMonth,
    /// `Calendar.HOUR_OF_DAY`
    HourOfDay,
    /// `Calendar.MINUTE`
    Minute,
    /// `Calendar.SECOND`
    Second,
}

/// What a `doc['field']` variable reads.
#[derive(Debug, Clone, PartialEq)]
pub enum Read {
    /// The values through a mode.
    Values(Mode),
    /// 1 when the document has no value.
    Empty,
    /// The number of values.
    Count,
    /// A calendar field of a date.
    Calendar(CalendarField),
    /// A Joda `ReadableDateTime` property of a date (`.date.year`), by its name.
    DateObject(&'static str),
    /// A geo point's latitude.
    Lat,
    /// A geo point's longitude.
    Lon,
}

/// One variable, linked.
#[derive(Debug, Clone, PartialEq)]
pub enum Binding {
    /// `_score`.
    Score,
    /// `_value` (the value an aggregation's value script is given; 0 elsewhere).
    Value,
    /// A numeric parameter.
    Const(f64),
    /// A field's doc values.
    Doc {
        /// The field's name.
        field: String,
        /// What of them.
        read: Read,
    },
}

/// The kind of a mapped field as the expression engine tells them apart.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldClass {
    /// Not in the mapping.
    Missing,
    /// Numeric field data (numbers and booleans).
    Numeric,
    /// A date.
    Date,
    /// A geo point.
    Geo,
    /// Field data that is neither.
    Other,
    /// Loading its field data fails with this `IllegalArgumentException` (text fields).
    Fails(String),
}

/// A link error: the variable, the offset of the `ParseException` (none for an
/// `IllegalArgumentException`), the Java exception and its message.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkError {
    /// The variable's text.
    pub variable: String,
    /// The pointer's offset in it, when the cause is a `ParseException`.
    pub offset: Option<usize>,
    /// The ES name of the cause.
    pub kind: &'static str,
    /// Its message.
    pub message: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Part {
    Member(String),
    Method(String),
    StrIndex(String),
    IntIndex,
}

/// Lucene's `VariableContext.parse`: a variable's text as its parts.
fn parts(text: &str) -> Vec<Part> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let id_end = |mut i: usize| {
        while i < b.len() && (b[i] == b'_' || b[i] == b'$' || b[i].is_ascii_alphanumeric()) {
            i += 1;
        }
        i
    };
    while i < b.len() {
        match b[i] {
            b'.' => i += 1,
            b'[' if matches!(b.get(i + 1), Some(b'\'' | b'"')) => {
                let q = b[i + 1];
                let mut s = String::new();
                let mut j = i + 2;
                let chars = &text[j..];
                let mut it = chars.char_indices();
                while let Some((k, c)) = it.next() {
                    if c == '\\' {
                        if let Some((_, e)) = it.next() {
                            s.push(e);
                        }
                    } else if c as u32 == u32::from(q) {
                        j += k + 1;
                        break;
                    } else {
                        s.push(c);
                    }
                }
                out.push(Part::StrIndex(s));
                i = j + 1;
            }
            b'[' => {
                let end = text[i..].find(']').map_or(b.len(), |e| i + e + 1);
                out.push(Part::IntIndex);
                i = end;
            }
            _ => {
                let end = id_end(i).max(i + 1);
                let name = text[i..end].to_string();
                if text[end..].starts_with("()") {
                    out.push(Part::Method(name));
                    i = end + 2;
                } else {
                    out.push(Part::Member(name));
                    i = end;
                }
            }
        }
    }
    out
}

fn part_text(p: &Part) -> &str {
    match p {
        Part::Member(s) | Part::Method(s) | Part::StrIndex(s) => s,
        Part::IntIndex => "",
    }
}

/// Links `variable` in `context`, with `params` (the script's) and `class` telling a
/// field's kind in the index.
pub fn link(
    variable: &str,
    context: Context,
    params: &serde_json::Value,
    class: &mut dyn FnMut(&str) -> FieldClass,
) -> Result<Binding, LinkError> {
    let parse_error = |offset: usize, message: String| LinkError {
        variable: variable.to_string(),
        offset: Some(offset),
        kind: "parse_exception",
        message,
    };
    let illegal = |message: String| LinkError {
        variable: variable.to_string(),
        offset: None,
        kind: "illegal_argument_exception",
        message,
    };
    if variable == "_score" && context != Context::Plain {
        return Ok(Binding::Score);
    }
    if variable == "_value" && matches!(context, Context::Aggs | Context::Score) {
        return Ok(Binding::Value);
    }
    if let Some(v) = params.get(variable) {
        return match v.as_f64() {
            Some(n) => Ok(Binding::Const(n)),
            None => Err(parse_error(0, format!("Parameter [{variable}] must be a numeric type"))),
        };
    }
    let parts = parts(variable);
    let first = parts.first().map(part_text).unwrap_or_default();
    if first != "doc" {
        return Err(parse_error(0, format!("Unknown variable [{first}]")));
    }
    let field = match parts.get(1) {
        Some(Part::StrIndex(f)) => f.clone(),
        _ => {
            return Err(parse_error(3, "Variable 'doc' must be used with a specific field like: doc['myfield']".into()))
        }
    };
    let mut member = "value".to_string();
    let mut method = None;
    if parts.len() == 3 {
        match &parts[2] {
            Part::Method(m) => method = Some(m.clone()),
            Part::Member(m) => member = m.clone(),
            _ => {
                return Err(illegal(
                    "Only member variables or member methods may be accessed on a field when not accessing the field directly"
                        .into(),
                ))
            }
        }
    }
    let mut date_accessor = false;
    if parts.len() > 3 {
        if parts.len() == 4 && matches!(part_text(&parts[2]), "date" | "getDate") {
            match &parts[3] {
                Part::Method(m) => {
                    method = Some(m.clone());
                    date_accessor = true;
                }
                Part::Member(m) => {
                    member = m.clone();
                    date_accessor = true;
                }
                _ => {}
            }
        }
        if !date_accessor {
            return Err(illegal(format!(
                "Variable [{variable}] does not follow an allowed format of either doc['field'] or doc['field'].method()"
            )));
        }
    }
    let read = match class(&field) {
        FieldClass::Missing => return Err(parse_error(5, format!("Field [{field}] does not exist in mappings"))),
        FieldClass::Fails(message) => return Err(illegal(message)),
        FieldClass::Other => return Err(parse_error(5, format!("Field [{field}] must be numeric, date, or geopoint"))),
        FieldClass::Geo => geo_read(&field, &member, method.as_deref()),
        FieldClass::Date if date_accessor => date_object_read(&field, &member, method.as_deref()),
        FieldClass::Date => number_read("date", &field, &member, method.as_deref(), true),
        FieldClass::Numeric => number_read("numeric", &field, &member, method.as_deref(), false),
    }
    .map_err(illegal)?;
    Ok(Binding::Doc { field, read })
}

fn geo_read(field: &str, member: &str, method: Option<&str>) -> Result<Read, String> {
    match method {
        None => match member {
            "empty" => Ok(Read::Empty),
            "lat" => Ok(Read::Lat),
            "lon" => Ok(Read::Lon),
            m => Err(format!("Member variable [{m}] does not exist for geo field [{field}].")),
        },
        Some(m) => match m {
            "isEmpty" => Ok(Read::Empty),
            "getLat" => Ok(Read::Lat),
            "getLon" => Ok(Read::Lon),
            m => Err(format!("Member method [{m}] does not exist for geo field [{field}].")),
        },
    }
}

fn number_read(what: &str, field: &str, member: &str, method: Option<&str>, date: bool) -> Result<Read, String> {
    match method {
        None => match member {
            "value" => Ok(Read::Values(Mode::Min)),
            "empty" => Ok(Read::Empty),
            "length" => Ok(Read::Count),
            m => Err(format!("Member variable [{m}] does not exist for {what} field [{field}].")),
        },
        Some(m) => Ok(match m {
            "getValue" | "min" => Read::Values(Mode::Min),
            "isEmpty" => Read::Empty,
            "size" | "count" => Read::Count,
            "max" => Read::Values(Mode::Max),
            "avg" => Read::Values(Mode::Avg),
            "median" => Read::Values(Mode::Median),
            "sum" => Read::Values(Mode::Sum),
            "getYear" if date => Read::Calendar(CalendarField::Year),
            "getMonth" if date => Read::Calendar(CalendarField::Month),
            "getDayOfMonth" if date => Read::Calendar(CalendarField::DayOfMonth),
            "getHourOfDay" if date => Read::Calendar(CalendarField::HourOfDay),
            "getMinutes" if date => Read::Calendar(CalendarField::Minute),
            "getSeconds" if date => Read::Calendar(CalendarField::Second),
            m => return Err(format!("Member method [{m}] does not exist for {what} field [{field}].")),
        }),
    }
}

/// Joda's `ReadableDateTime` properties the `.date` object offers, by variable and
/// by method name.
const DATE_PROPERTIES: [(&str, &str); 18] = [
    ("centuryOfEra", "getCenturyOfEra"),
    ("dayOfMonth", "getDayOfMonth"),
    ("dayOfWeek", "getDayOfWeek"),
    ("dayOfYear", "getDayOfYear"),
    ("era", "getEra"),
    ("hourOfDay", "getHourOfDay"),
    ("millisOfDay", "getMillisOfDay"),
    ("millisOfSecond", "getMillisOfSecond"),
    ("minuteOfDay", "getMinuteOfDay"),
    ("minuteOfHour", "getMinuteOfHour"),
    ("monthOfYear", "getMonthOfYear"),
    ("secondOfDay", "getSecondOfDay"),
    ("secondOfMinute", "getSecondOfMinute"),
    ("weekOfWeekyear", "getWeekOfWeekyear"),
    ("weekyear", "getWeekyear"),
    ("year", "getYear"),
    ("yearOfCentury", "getYearOfCentury"),
    ("yearOfEra", "getYearOfEra"),
];

fn date_object_read(field: &str, member: &str, method: Option<&str>) -> Result<Read, String> {
    match method {
        None => DATE_PROPERTIES
            .iter()
            .find(|(v, _)| *v == member)
            .map(|(v, _)| Read::DateObject(v))
            .ok_or_else(|| format!("Member variable [{member}] does not exist for date object on field [{field}].")),
        Some(m) => DATE_PROPERTIES
            .iter()
            .find(|(_, g)| *g == m)
            .map(|(v, _)| Read::DateObject(v))
            .ok_or_else(|| format!("Member method [{m}] does not exist for date object on field [{field}].")),
    }
}

/// A doc value as a double (dates as their milliseconds, geo points never asked).
fn number(v: &Value) -> f64 {
    match v {
        Value::Long(x) => *x as f64,
        Value::Int(x) => f64::from(*x),
        Value::Double(x) => *x,
        Value::Float(x) => f64::from(*x),
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Time(_, ms) => *ms as f64,
        _ => 0.0,
    }
}

/// ES's `MultiValueMode` over a document's sorted values, 0 when it has none.
fn select(values: &[f64], mode: Mode) -> f64 {
    let n = values.len();
    if n == 0 {
        return 0.0;
    }
    match mode {
        Mode::Min => values[0],
        Mode::Max => values[n - 1],
        Mode::Sum => values.iter().sum(),
        Mode::Avg => values.iter().sum::<f64>() / n as f64,
        Mode::Median if n % 2 == 0 => (values[(n - 1) / 2] + values[(n - 1) / 2 + 1]) / 2.0,
        Mode::Median => values[(n - 1) / 2],
    }
}

/// The value `read` gives for a document with the field's `dv`.
pub fn read(read: &Read, dv: &DocValues) -> f64 {
    let values: Vec<f64> = match dv.kind {
        DocKind::GeoPoints => Vec::new(),
        _ => dv.values.iter().map(number).collect(),
    };
    match read {
        Read::Values(mode) => select(&values, *mode),
        Read::Empty => f64::from(u8::from(dv.values.is_empty())),
        Read::Count => dv.values.len() as f64,
        // The least value's milliseconds (`(long)` of the double), the epoch if none.
        Read::Calendar(f) => calendar_field(select(&values, Mode::Min) as i64, *f),
        Read::DateObject(name) => date_property(select(&values, Mode::Min) as i64, name),
        Read::Lat | Read::Lon => match dv.values.first() {
            Some(Value::Geo(packed)) => {
                let method = if *read == Read::Lat { "getLat" } else { "getLon" };
                match crate::script::geo::call(*packed, method, 0, 0) {
                    Ok(Value::Double(v)) => v,
                    _ => 0.0,
                }
            }
            _ => 0.0,
        },
    }
}

/// The first instant of the Gregorian calendar (`GregorianCalendar`'s default
/// cutover, 1582-10-15T00:00Z): before it `Calendar` counts Julian dates.
const GREGORIAN_CUTOVER_MILLIS: i64 = -12_219_292_800_000;

/// `Calendar.get(field)` of a UTC `GregorianCalendar` at `millis`.
fn calendar_field(millis: i64, field: CalendarField) -> f64 {
    let days = millis.div_euclid(86_400_000);
    let ms_of_day = millis.rem_euclid(86_400_000);
    let (year, month, day) =
        if millis >= GREGORIAN_CUTOVER_MILLIS { gregorian_from_days(days) } else { julian_from_days(days) };
    // YEAR is the year of the era: 1 BC is 1.
    let year_of_era = if year > 0 { year } else { 1 - year };
    let v = match field {
        CalendarField::Year => year_of_era,
        CalendarField::Month => month - 1,
        CalendarField::DayOfMonth => day,
        CalendarField::HourOfDay => ms_of_day / 3_600_000,
        CalendarField::Minute => ms_of_day / 60_000 % 60,
        CalendarField::Second => ms_of_day / 1000 % 60,
    };
    v as f64
}

/// Proleptic Gregorian (year, month, day) of days since the epoch.
fn gregorian_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Julian (year, month, day) of days since the epoch (astronomical years: 0 is 1 BC).
fn julian_from_days(days: i64) -> (i64, i64, i64) {
    // Days since 0000-03-01 in the Julian calendar (the epoch is Julian 1969-12-19).
    let z = days + 719_470;
    let era = z.div_euclid(1461);
    let doe = z.rem_euclid(1461);
    let yoe = (doe - doe / 1460) / 365;
    let doy = doe - 365 * yoe;
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 4 + i64::from(month <= 2);
    (year, month, day)
}

/// A Joda `ReadableDateTime` property (ISO chronology, UTC) of `millis`.
fn date_property(millis: i64, name: &str) -> f64 {
    let Some(t) = DateTime::from_timestamp_millis(millis) else { return 0.0 };
    let year = i64::from(t.year());
    let year_of_era = if year > 0 { year } else { 1 - year };
    let ms_of_day = millis.rem_euclid(86_400_000);
    let v: i64 = match name {
        "centuryOfEra" => year_of_era / 100,
        "dayOfMonth" => i64::from(t.day()),
        "dayOfWeek" => i64::from(t.weekday().number_from_monday()),
        "dayOfYear" => i64::from(t.ordinal()),
        "era" => i64::from(year > 0),
        "hourOfDay" => i64::from(t.hour()),
        "millisOfDay" => ms_of_day,
        "millisOfSecond" => ms_of_day % 1000,
        "minuteOfDay" => ms_of_day / 60_000,
        "minuteOfHour" => i64::from(t.minute()),
        "monthOfYear" => i64::from(t.month()),
        "secondOfDay" => ms_of_day / 1000,
        "secondOfMinute" => i64::from(t.second()),
        "weekOfWeekyear" => i64::from(t.iso_week().week()),
        "weekyear" => i64::from(t.iso_week().year()),
        "year" => year,
        "yearOfCentury" => year_of_era % 100,
        _ => year_of_era,
    };
    v as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_fields_switch_to_julian_dates_before_the_cutover() {
        // 1582-10-15 (Gregorian) follows 1582-10-04 (Julian).
        assert_eq!(calendar_field(GREGORIAN_CUTOVER_MILLIS, CalendarField::DayOfMonth), 15.0);
        assert_eq!(calendar_field(GREGORIAN_CUTOVER_MILLIS - 1, CalendarField::DayOfMonth), 4.0);
        assert_eq!(calendar_field(GREGORIAN_CUTOVER_MILLIS - 1, CalendarField::Month), 9.0);
        assert_eq!(calendar_field(0, CalendarField::Year), 1970.0);
        assert_eq!(calendar_field(1_500_000_000_000, CalendarField::Month), 6.0);
    }

    #[test]
    fn median_and_modes_as_multi_value_mode() {
        assert_eq!(select(&[1.0, 2.0, 10.0, 20.0], Mode::Median), 6.0);
        assert_eq!(select(&[1.0, 2.0, 10.0], Mode::Median), 2.0);
        assert_eq!(select(&[], Mode::Avg), 0.0);
        assert_eq!(select(&[1.0, 4.0], Mode::Avg), 2.5);
    }

    #[test]
    fn variables_split_as_lucene() {
        assert_eq!(
            parts("doc['a\\'b'].date.getYear()"),
            vec![
                Part::Member("doc".into()),
                Part::StrIndex("a'b".into()),
                Part::Member("date".into()),
                Part::Method("getYear".into())
            ]
        );
    }
}
