//! Values an aggregation reads: doc values of one field in every target index, as keyword
//! ordinals or numbers, with the field's `missing` value and ES's key rendering.

use super::Ctx;
use crate::date::{DateFormat, TimeZone};
use crate::error::{Error, Exception, Result};
use crate::index::{KeywordDocValues, NumericDocValues, ID_FIELD, TYPE_FIELD};
use crate::json_value::java_double;
use crate::mapping::FieldType;
use crate::query::Scalar;
use crate::request::aggs::{FieldSpec, ValueType};
use crate::request::decimal_format::DecimalFormat;
use crate::search::response::aggregations::KeyValue;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

/// A bucket key.
#[derive(Debug, Clone)]
pub enum Key {
    /// A keyword term.
    Str(String),
    /// An integer, date (epoch millis) or boolean (0/1).
    Long(i64),
    /// A floating point number.
    Double(f64),
}

impl Key {
    fn as_f64(&self) -> f64 {
        match self {
            Key::Str(_) => f64::NAN,
            Key::Long(v) => *v as f64,
            Key::Double(v) => *v,
        }
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Key {}

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            Key::Str(s) => s.hash(state),
            Key::Long(v) => v.hash(state),
            Key::Double(v) => v.to_bits().hash(state),
        }
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    /// Terms by bytes (Lucene's order), numbers by value.
    fn cmp(&self, other: &Key) -> Ordering {
        match (self, other) {
            (Key::Str(a), Key::Str(b)) => a.as_bytes().cmp(b.as_bytes()),
            (Key::Long(a), Key::Long(b)) => a.cmp(b),
            (Key::Str(_), _) => Ordering::Greater,
            (_, Key::Str(_)) => Ordering::Less,
            (a, b) => a.as_f64().total_cmp(&b.as_f64()),
        }
    }
}

/// What kind of values a field holds across the target indices.
#[derive(Debug, Clone)]
pub enum ValueKind {
    /// Keyword terms.
    Keyword,
    /// Addresses, as their `mapping::ip` terms (printed as addresses).
    Ip,
    /// Integers.
    Long,
    /// Floating point numbers.
    Double,
    /// Dates, rendered with this format.
    Date(DateFormat),
    /// Booleans.
    Bool,
    /// No target maps the field.
    Unmapped,
}

impl ValueKind {
    /// The ES type name, for errors.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            ValueKind::Keyword => "keyword",
            ValueKind::Ip => "ip",
            ValueKind::Long => "long",
            ValueKind::Double => "double",
            ValueKind::Date(_) => "date",
            ValueKind::Bool => "boolean",
            ValueKind::Unmapped => "unmapped",
        }
    }
}

/// The doc values of one target.
pub enum TargetValues {
    /// Keyword ordinals.
    Keyword(Arc<KeywordDocValues>),
    /// Every document has this one value (`_index`).
    Constant(String),
    /// Numbers.
    Numeric(Arc<NumericDocValues>),
    /// A script's values, computed for the aggregation's documents (sorted per document).
    Computed(HashMap<u32, Box<[Key]>>),
    /// The field is not in this index.
    None,
}

/// One field's values in every target.
pub struct FieldValues {
    /// The field's kind.
    pub kind: ValueKind,
    /// Per target, in target order.
    pub targets: Vec<TargetValues>,
    /// The key of documents without a value (`missing`).
    pub missing: Option<Key>,
    /// Whether no target maps the field (its kind then comes from `value_type`).
    pub unmapped: bool,
    /// The `format` of a numeric field's keys and values (`DocValueFormat.Decimal`).
    pub decimal: Option<DecimalFormat>,
}

/// A number's `format`: a `java.text.DecimalFormat` pattern, compiled on the shard (so a
/// bad one fails every shard).
pub(super) fn decimal_format(ctx: &Ctx<'_>, kind: &ValueKind, spec: &FieldSpec) -> Result<Option<DecimalFormat>> {
    match (kind, &spec.format) {
        (ValueKind::Long | ValueKind::Double, Some(pattern)) => {
            Ok(Some(DecimalFormat::parse(pattern).map_err(|e| {
                Error::all_shards_failed(
                    400,
                    ctx.targets.first().map(|t| t.meta.name.as_str()),
                    Exception::new("illegal_argument_exception", e),
                )
            })?))
        }
        _ => Ok(None),
    }
}

impl FieldValues {
    /// Opens `spec.field` in every target.
    pub fn open(ctx: &Ctx<'_>, spec: &FieldSpec) -> Result<FieldValues> {
        let name = match spec.field.as_str() {
            "_id" => ID_FIELD,
            "_type" => TYPE_FIELD,
            f => f,
        };
        let mut kind = ValueKind::Unmapped;
        let mut targets = Vec::with_capacity(ctx.targets.len());
        for reader in ctx.targets {
            let name = reader.meta.mapping.resolve_alias(name);
            if name == "_index" {
                kind = ValueKind::Keyword;
                targets.push(TargetValues::Constant(reader.meta.name.clone()));
                continue;
            }
            if name == crate::index::ROUTING_FIELD {
                return Err(Error::all_shards_failed(
                    400,
                    Some(&reader.meta.name),
                    Exception::new("illegal_argument_exception", crate::index::ROUTING_FIELDDATA_ERROR),
                ));
            }
            let ftype = if name == ID_FIELD || name == TYPE_FIELD {
                Some(FieldType::Keyword)
            } else {
                reader.meta.mapping.field(name).map(|f| f.ftype)
            };
            let Some(ftype) = ftype else {
                targets.push(TargetValues::None);
                continue;
            };
            if let Some(e) = reader.meta.mapping.field(name).and_then(|f| f.fielddata_error()) {
                return Err(Error::all_shards_failed(
                    400,
                    Some(&reader.meta.name),
                    Exception::new("illegal_argument_exception", e),
                ));
            }
            if ftype == FieldType::GeoPoint {
                // ES's values source of a geo point is neither numbers nor terms.
                return Err(Error::all_shards_failed(
                    400,
                    Some(&reader.meta.name),
                    Exception::new(
                        "illegal_argument_exception",
                        format!("Expected numeric type on field [{name}], but got [geo_point]"),
                    ),
                ));
            }
            let this_kind = match ftype {
                FieldType::Keyword => ValueKind::Keyword,
                FieldType::Ip => ValueKind::Ip,
                FieldType::Double | FieldType::Float => ValueKind::Double,
                FieldType::Boolean => ValueKind::Bool,
                FieldType::Date => {
                    let fmt = spec.format.clone().unwrap_or_else(|| {
                        reader.meta.mapping.field(name).map(|f| f.date_format().to_string()).unwrap_or_default()
                    });
                    ValueKind::Date(DateFormat::parse_format(&fmt).map_err(|e| Error::illegal_argument(e.message))?)
                }
                _ => ValueKind::Long,
            };
            kind = match (kind, this_kind) {
                (ValueKind::Unmapped, k) => k,
                // Longs in one index and doubles in another reduce as doubles, as ES
                // reduces LongTerms with DoubleTerms: equal values share a bucket.
                (ValueKind::Long, ValueKind::Double) | (ValueKind::Double, ValueKind::Long) => ValueKind::Double,
                (k, _) => k,
            };
            targets.push(if ftype.is_keyword_like() {
                match reader.keyword_doc_values(ctx.snap, name)? {
                    Some(dv) => TargetValues::Keyword(dv),
                    None => TargetValues::None,
                }
            } else {
                match reader.numeric_doc_values(ctx.snap, name)? {
                    Some(dv) => TargetValues::Numeric(dv),
                    None => TargetValues::None,
                }
            });
        }
        let unmapped = matches!(kind, ValueKind::Unmapped);
        if let (true, Some(vt)) = (unmapped, spec.value_type) {
            // No index maps the field: `value_type` says what its values (the `missing`
            // one) are, and so how keys are typed and rendered.
            kind = match vt {
                ValueType::String => ValueKind::Unmapped,
                ValueType::Long => ValueKind::Long,
                ValueType::Double => ValueKind::Double,
                ValueType::Boolean => ValueKind::Bool,
                ValueType::Date => ValueKind::Date(
                    DateFormat::parse_format(spec.format.as_deref().unwrap_or(crate::mapping::DEFAULT_DATE_FORMAT))
                        .map_err(|e| Error::illegal_argument(e.message))?,
                ),
            };
        }
        let missing = match &spec.missing {
            None => None,
            Some(v) => Some(missing_key(&kind, v, &spec.field, ctx.now_ms)?),
        };
        let decimal = decimal_format(ctx, &kind, spec)?;
        Ok(FieldValues { kind, targets, missing, unmapped, decimal })
    }

    /// Reads the `missing` value of a field no target maps as a number, as ES 6.8 does
    /// for an aggregation of numbers (`ValuesSourceConfig.toValuesSource`: the value through
    /// `DocValueFormat.RAW.parseDouble`), so that every document counts it.
    pub fn numeric_missing_when_unmapped(&mut self, ctx: &Ctx<'_>) -> Result<()> {
        if let (true, ValueKind::Unmapped, Some(Key::Str(s))) = (self.unmapped, &self.kind, &self.missing) {
            let v: f64 = s.trim().parse().map_err(|_| {
                Error::all_shards_failed(
                    400,
                    ctx.targets.first().map(|t| t.meta.name.as_str()),
                    Exception::new("number_format_exception", format!("For input string: \"{s}\"")),
                )
            })?;
            self.missing = Some(Key::Double(v));
        }
        Ok(())
    }

    /// Fails unless the values are numbers (`agg_type` needs them).
    pub fn require_numeric(&self, ctx: &Ctx<'_>, field: &str, agg_type: &str) -> Result<()> {
        if matches!(self.kind, ValueKind::Keyword | ValueKind::Ip) {
            return Err(Error::all_shards_failed(
                400,
                ctx.targets.first().map(|t| t.meta.name.as_str()),
                Exception::new(
                    "illegal_argument_exception",
                    format!(
                        "Field [{field}] of type [{}] is not supported for aggregation [{agg_type}]",
                        self.kind.type_name()
                    ),
                ),
            ));
        }
        Ok(())
    }

    /// Calls `f` with each distinct key of `doc` in target `t` (or the missing key).
    pub fn for_each_key(&self, t: usize, doc: u32, mut f: impl FnMut(Key)) {
        let mut any = false;
        match &self.targets[t] {
            TargetValues::Keyword(dv) => {
                for o in dv.ords(doc) {
                    any = true;
                    f(Key::Str(dv.term(o).to_string()));
                }
            }
            TargetValues::Constant(s) => {
                any = true;
                f(Key::Str(s.clone()));
            }
            TargetValues::Computed(values) => {
                let keys = values.get(&doc).map(|k| &k[..]).unwrap_or_default();
                for (i, k) in keys.iter().enumerate() {
                    any = true;
                    if i == 0 || keys[i - 1] != *k {
                        f(k.clone());
                    }
                }
            }
            TargetValues::Numeric(dv) => {
                let mut last: Option<Key> = None;
                for k in self.numeric_keys(dv, doc) {
                    any = true;
                    if last.as_ref() != Some(&k) {
                        last = Some(k.clone());
                        f(k);
                    }
                }
            }
            TargetValues::None => {}
        }
        if !any {
            if let Some(m) = &self.missing {
                f(m.clone());
            }
        }
    }

    fn numeric_keys<'d>(&self, dv: &'d NumericDocValues, doc: u32) -> Box<dyn Iterator<Item = Key> + 'd> {
        if dv.is_double() || matches!(self.kind, ValueKind::Double) {
            Box::new(dv.values_f64(doc).map(Key::Double))
        } else {
            Box::new(dv.values_i64(doc).map(Key::Long))
        }
    }

    /// Calls `f` with every numeric value of `doc` (duplicates included, as metrics count
    /// them), or the missing value.
    pub fn for_each_number(&self, t: usize, doc: u32, mut f: impl FnMut(f64)) {
        let mut any = false;
        if let TargetValues::Computed(values) = &self.targets[t] {
            for k in values.get(&doc).map(|k| &k[..]).unwrap_or_default() {
                any = true;
                f(k.as_f64());
            }
        }
        if let TargetValues::Numeric(dv) = &self.targets[t] {
            if dv.is_double() {
                for v in dv.values_f64(doc) {
                    any = true;
                    f(v);
                }
            } else {
                for v in dv.values_i64(doc) {
                    any = true;
                    f(v as f64);
                }
            }
        }
        if !any {
            if let Some(m) = &self.missing {
                let v = m.as_f64();
                if !v.is_nan() {
                    f(v);
                }
            }
        }
    }

    /// Number of values of `doc` (the missing value counts as one).
    pub fn value_count(&self, t: usize, doc: u32) -> usize {
        let n = match &self.targets[t] {
            TargetValues::Keyword(dv) => dv.ords(doc).count(),
            TargetValues::Constant(_) => 1,
            TargetValues::Numeric(dv) => dv.count(doc),
            TargetValues::Computed(values) => values.get(&doc).map_or(0, |k| k.len()),
            TargetValues::None => 0,
        };
        if n == 0 && self.missing.is_some() {
            1
        } else {
            n
        }
    }

    /// A key as its bucket writes it (`key`).
    pub fn key_value(&self, k: &Key) -> KeyValue {
        match k {
            Key::Str(s) if matches!(self.kind, ValueKind::Ip) => KeyValue::Str(crate::mapping::ip::format_term(s)),
            Key::Str(s) => KeyValue::Str(s.clone()),
            Key::Long(v) => KeyValue::Long(*v),
            Key::Double(v) => KeyValue::Double(*v),
        }
    }

    /// `key_as_string` for dates, booleans and numbers with a `format`.
    pub fn key_as_string(&self, k: &Key, tz: Option<&TimeZone>) -> Option<String> {
        match (&self.decimal, k) {
            (Some(d), Key::Long(v)) => return Some(d.format(*v as f64)),
            (Some(d), Key::Double(v)) => return Some(d.format(*v)),
            _ => {}
        }
        self.typed_key_string(k, tz)
    }

    /// A date or boolean key as text.
    fn typed_key_string(&self, k: &Key, tz: Option<&TimeZone>) -> Option<String> {
        match (&self.kind, k) {
            (ValueKind::Date(fmt), Key::Long(v)) => Some(fmt.format_at(*v, tz.map(TimeZone::offset_secs).unwrap_or(0))),
            (ValueKind::Date(fmt), Key::Double(v)) => {
                Some(fmt.format_at(*v as i64, tz.map(TimeZone::offset_secs).unwrap_or(0)))
            }
            (ValueKind::Bool, Key::Long(v)) => Some((*v != 0).to_string()),
            _ => None,
        }
    }

    /// A value written in a request (an `include` list) as a key of this field: numbers
    /// parsed (ES's `DocValueFormat.RAW.parseLong` floors fractions), dates in the field's
    /// format with date math, booleans as 1/0.
    pub fn parse_key(&self, text: &str, now_ms: i64) -> Result<Key> {
        let number_error =
            || Error::new(400, Exception::new("number_format_exception", format!("For input string: \"{text}\"")));
        Ok(match &self.kind {
            ValueKind::Keyword | ValueKind::Unmapped => Key::Str(text.to_string()),
            // `DocValueFormat.IP.parseBytesRef`.
            ValueKind::Ip => Key::Str(crate::mapping::ip::term(
                &crate::mapping::ip::parse(text).map_err(Error::illegal_argument)?.bytes,
            )),
            ValueKind::Long => Key::Long(text.trim().parse::<f64>().map_err(|_| number_error())?.floor() as i64),
            ValueKind::Double => Key::Double(text.trim().parse().map_err(|_| number_error())?),
            ValueKind::Bool => match text {
                "true" => Key::Long(1),
                "false" => Key::Long(0),
                _ => {
                    return Err(Error::illegal_argument(format!(
                        "Cannot parse boolean [{text}], expected either [true] or [false]"
                    )))
                }
            },
            ValueKind::Date(fmt) => Key::Long(
                crate::date::parse_date_math(text, now_ms, false, fmt, None)
                    .map_err(|e| Error::new(400, Exception::new("parse_exception", e.message)))?,
            ),
        })
    }

    /// The key as text, for include/exclude and keyed output.
    pub fn key_text(&self, k: &Key) -> String {
        match k {
            Key::Str(s) if matches!(self.kind, ValueKind::Ip) => crate::mapping::ip::format_term(s),
            Key::Str(s) => s.clone(),
            Key::Long(v) => self.typed_key_string(k, None).unwrap_or_else(|| v.to_string()),
            Key::Double(v) => java_double(*v),
        }
    }

    /// The value of a metric as `value_as_string` (dates, and numbers with a `format`).
    pub fn value_as_string(&self, v: f64) -> Option<String> {
        if let Some(d) = &self.decimal {
            return Some(d.format(v));
        }
        match &self.kind {
            ValueKind::Date(fmt) if v.is_finite() => Some(fmt.format(v as i64)),
            _ => None,
        }
    }
}

/// The key a `missing` value stands for, in the field's kind.
pub(super) fn missing_key(kind: &ValueKind, v: &Scalar, field: &str, now_ms: i64) -> Result<Key> {
    let bad =
        || Error::illegal_argument(format!("Cannot use [{}] as the missing value of field [{field}]", v.to_json()));
    Ok(match kind {
        ValueKind::Keyword | ValueKind::Unmapped => Key::Str(v.text()),
        ValueKind::Ip => Key::Str(crate::mapping::ip::term(
            &crate::mapping::ip::parse(&v.text()).map_err(Error::illegal_argument)?.bytes,
        )),
        ValueKind::Long => match v {
            Scalar::Long(n) => Key::Long(*n),
            // Java's narrowing of a double: saturating, as Rust's `as`.
            Scalar::Unsigned(_) | Scalar::Double(_) => Key::Long(v.as_f64().unwrap_or(0.0) as i64),
            Scalar::Text(s) => Key::Long(s.trim().parse().map_err(|_| bad())?),
            _ => return Err(bad()),
        },
        ValueKind::Double => match v {
            Scalar::Long(_) | Scalar::Unsigned(_) | Scalar::Double(_) => Key::Double(v.as_f64().unwrap_or(0.0)),
            Scalar::Text(s) => Key::Double(s.trim().parse().map_err(|_| bad())?),
            _ => return Err(bad()),
        },
        ValueKind::Bool => match v {
            Scalar::Bool(b) => Key::Long(*b as i64),
            Scalar::Text(s) if s == "true" => Key::Long(1),
            Scalar::Text(s) if s == "false" => Key::Long(0),
            _ => return Err(bad()),
        },
        ValueKind::Date(fmt) => match v {
            Scalar::Long(n) => Key::Long(*n),
            Scalar::Text(s) => Key::Long(
                crate::date::parse_date_math(s, now_ms, false, fmt, None)
                    .map_err(|e| Error::illegal_argument(e.message))?,
            ),
            _ => return Err(bad()),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_order_terms_by_bytes_and_numbers_by_value() {
        assert!(Key::Str("B".into()) < Key::Str("a".into()));
        assert!(Key::Long(-1) < Key::Long(2));
        assert!(Key::Double(1.5) < Key::Long(2));
        assert_eq!(Key::Long(2), Key::Long(2));
    }
}
