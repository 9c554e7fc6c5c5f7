//! Sorting: per-document sort keys from doc values, `search_after` values converted to
//! the sort fields' types, and ES 6.8's order of hits. The sort criteria themselves are
//! parsed with the request (`request/sort.rs`).

use crate::error::{Error, Exception, Result};
use crate::index::{IndexReader, ID_FIELD, TYPE_FIELD};
use crate::mapping::FieldType;
use crate::query::Scalar;
use crate::request::sort::{Missing, Mode, Order, SortSpec};
use crate::search::response::hit_values::SortShown;
use crate::store::Snapshot;
use std::cmp::Ordering;

/// A sort value of one hit.
#[derive(Debug, Clone, PartialEq)]
pub enum SortValue {
    /// No value (placed per `missing`).
    Missing,
    /// Keyword value.
    Str(String),
    /// An `ip` field's value: its indexed term (`mapping::ip::term`), compared as bytes
    /// and printed as the address.
    Ip(String),
    /// Integral value (long, date millis, boolean).
    Long(i64),
    /// Floating value.
    Double(f64),
    /// Relevance.
    Score(f32),
    /// Document ordinal.
    Doc(u32),
}

impl SortValue {
    /// The value ES shows in a hit's `"sort"`.
    pub fn shown(&self, spec: &SortSpec) -> SortShown {
        match self {
            SortValue::Str(s) => SortShown::Str(s.clone()),
            SortValue::Ip(t) => SortShown::Str(crate::mapping::ip::format_term(t)),
            SortValue::Long(n) => SortShown::Long(*n),
            // Jackson quotes the numbers JSON has no token for (a `_geo_distance` sort's
            // missing value is +Infinity).
            SortValue::Double(f) if f.is_infinite() => {
                SortShown::Str(if *f > 0.0 { "Infinity" } else { "-Infinity" }.to_string())
            }
            SortValue::Double(f) if f.is_nan() => SortShown::Str("NaN".to_string()),
            SortValue::Double(f) => SortShown::Double(*f),
            SortValue::Score(f) => SortShown::Score(*f),
            SortValue::Doc(d) => SortShown::Long(i64::from(*d)),
            SortValue::Missing => match spec {
                // ES renders missing sort values as the sentinel the comparator used.
                SortSpec::Field { order, missing: Missing::Last, .. }
                | SortSpec::Field { order, missing: Missing::First, .. } => {
                    let last = matches!(spec, SortSpec::Field { missing: Missing::Last, .. });
                    let high = (*order == Order::Asc) == last;
                    SortShown::Long(if high { i64::MAX } else { i64::MIN })
                }
                _ => SortShown::Null,
            },
        }
    }
}

/// Whether the specs need scores.
pub fn needs_scores(specs: &[SortSpec]) -> bool {
    // A `_script` sort's script may read `_score`.
    specs.is_empty() || specs.iter().any(|s| matches!(s, SortSpec::Score(_) | SortSpec::Script { .. }))
}

/// Extracts sort values per document for one index.
pub struct KeyExtractor<'a> {
    specs: &'a [SortSpec],
    sources: Vec<Source<'a>>,
    /// Per spec, for a nested sort: the nested documents whose values count, and the
    /// documents delimiting the blocks (`search/nested/sort.rs`).
    nested: Vec<Option<(crate::index::DocSet, std::sync::Arc<crate::index::DocSet>)>>,
    /// The first error of a `_script` sort's script (see [`KeyExtractor::take_error`]).
    error: std::cell::RefCell<Option<Error>>,
}

enum Source<'a> {
    /// A `_script` sort: its runner, and whether its values are numbers.
    Script(Box<std::cell::RefCell<crate::search::script_host::ScriptRunner<'a>>>, bool),
    Score,
    Doc,
    Keyword(std::sync::Arc<crate::index::KeywordDocValues>),
    /// An `ip` field's ordinals (terms in address order).
    Ip(std::sync::Arc<crate::index::KeywordDocValues>),
    Number(std::sync::Arc<crate::index::NumericDocValues>, FieldType),
    /// A `_geo_distance` sort.
    GeoDistance(Box<crate::search::geo::sort::GeoSortSource>),
    None,
}

impl<'a> KeyExtractor<'a> {
    /// Prepares doc-value access for `specs` in `reader`.
    pub fn new(specs: &'a [SortSpec], reader: &'a IndexReader, snap: &'a Snapshot) -> Result<KeyExtractor<'a>> {
        let mut sources = Vec::with_capacity(specs.len());
        let mut nested = Vec::with_capacity(specs.len());
        for s in specs {
            nested.push(match s {
                SortSpec::Field { nested: Some(ns), .. } => {
                    let docs = crate::search::nested::sort::sort_docs(reader, snap, ns)?;
                    let roots = match reader.root_docs(snap)? {
                        Some(r) => r,
                        None => std::sync::Arc::new(crate::index::DocSet::full(reader.max_doc())),
                    };
                    Some((docs, roots))
                }
                _ => None,
            });
            sources.push(match s {
                SortSpec::Score(_) => Source::Score,
                SortSpec::Doc(_) => Source::Doc,
                SortSpec::GeoDistance(g) => {
                    Source::GeoDistance(Box::new(crate::search::geo::sort::GeoSortSource::new(g, reader, snap)?))
                }
                SortSpec::Script { script, numeric, .. } => {
                    let access = crate::search::script_host::Access {
                        source: false,
                        score: true,
                        context: crate::search::script_host::Context::Sort,
                    };
                    let runner = crate::search::script_host::ScriptRunner::new(script, reader, snap, access)?;
                    Source::Script(Box::new(std::cell::RefCell::new(runner)), *numeric)
                }
                SortSpec::Field { field, unmapped_type, .. } => {
                    let name = match field.as_str() {
                        "_id" => ID_FIELD,
                        "_type" => TYPE_FIELD,
                        f => reader.meta.mapping.resolve_alias(f),
                    };
                    let fm = reader.meta.mapping.field(name);
                    if name == crate::index::ROUTING_FIELD {
                        return Err(Error::illegal_argument(crate::index::ROUTING_FIELDDATA_ERROR));
                    }
                    if let Some(e) = fm.and_then(|f| f.fielddata_error()) {
                        return Err(Error::illegal_argument(e));
                    }
                    if fm.is_some_and(|f| f.ftype == FieldType::GeoPoint) {
                        return Err(Error::illegal_argument(
                            "can't sort on geo_point field without using specific sorting feature, like geo_distance",
                        ));
                    }
                    match fm.map(|f| f.ftype) {
                        Some(FieldType::Ip) => match reader.keyword_doc_values(snap, name)? {
                            Some(dv) => Source::Ip(dv),
                            None => Source::None,
                        },
                        Some(FieldType::Keyword) | None if name.starts_with('_') || fm.is_some() => {
                            match reader.keyword_doc_values(snap, name)? {
                                Some(dv) => Source::Keyword(dv),
                                None => Source::None,
                            }
                        }
                        Some(t) => match reader.numeric_doc_values(snap, name)? {
                            Some(dv) => Source::Number(dv, t),
                            None => Source::None,
                        },
                        None => {
                            if unmapped_type.is_none() && !reader.meta.fields.contains_key(name) {
                                return Err(Error::new(
                                    400,
                                    Exception::new(
                                        "query_shard_exception",
                                        format!("No mapping found for [{field}] in order to sort on"),
                                    )
                                    .with_meta("index_uuid", reader.meta.uuid.as_str())
                                    .with_meta("index", reader.meta.name.as_str()),
                                ));
                            }
                            Source::None
                        }
                    }
                }
            });
        }
        Ok(KeyExtractor { specs, sources, nested, error: std::cell::RefCell::new(None) })
    }

    /// The error a `_script` sort's script failed with, if any (its value then sorted
    /// as missing); the search fails with it.
    pub fn take_error(&self) -> Option<Error> {
        self.error.borrow_mut().take()
    }

    /// A `_script` sort's value of `doc`.
    fn script_value(
        &self,
        runner: &std::cell::RefCell<crate::search::script_host::ScriptRunner<'a>>,
        numeric: bool,
        doc: u32,
        score: f32,
    ) -> SortValue {
        let mut runner = runner.borrow_mut();
        runner.host.score = score as f64;
        let value = match runner.run(doc) {
            Ok(Some(v)) => v,
            Ok(None) => return SortValue::Missing,
            Err(e) => {
                self.error.borrow_mut().get_or_insert(e);
                return SortValue::Missing;
            }
        };
        if value == crate::script::Value::Null {
            let e = runner.script.failure(Some(&runner.host_index()), &crate::script::Halt::null_pointer(0));
            self.error.borrow_mut().get_or_insert(e);
            return SortValue::Missing;
        }
        if !numeric {
            return SortValue::Str(runner.text(&value));
        }
        match runner.number(&value) {
            Ok(v) => SortValue::Double(v),
            Err(e) => {
                self.error.borrow_mut().get_or_insert(e);
                SortValue::Missing
            }
        }
    }

    /// The sort values of `doc`.
    pub fn values(&self, doc: u32, score: f32) -> Vec<SortValue> {
        self.specs
            .iter()
            .zip(&self.sources)
            .zip(&self.nested)
            .map(|((spec, src), nested)| {
                let (order, mode) = match spec {
                    SortSpec::Field { order, mode, .. } => (*order, *mode),
                    _ => (Order::Asc, None),
                };
                let mode = mode.unwrap_or(if order == Order::Asc { Mode::Min } else { Mode::Max });
                if let Some((docs, roots)) = nested {
                    return nested_value(src, docs, roots, doc, mode);
                }
                match src {
                    Source::Script(runner, numeric) => self.script_value(runner, *numeric, doc, score),
                    Source::Score => SortValue::Score(score),
                    Source::Doc => SortValue::Doc(doc),
                    Source::GeoDistance(g) => SortValue::Double(g.value(doc)),
                    Source::None => SortValue::Missing,
                    Source::Keyword(dv) | Source::Ip(dv) => {
                        let mut ords = dv.ords(doc);
                        let ord = match mode {
                            Mode::Max => ords.last(),
                            _ => ords.next(),
                        };
                        match (ord, src) {
                            (Some(o), Source::Ip(_)) => SortValue::Ip(dv.term(o).to_string()),
                            (Some(o), _) => SortValue::Str(dv.term(o).to_string()),
                            (None, _) => SortValue::Missing,
                        }
                    }
                    Source::Number(dv, t) => {
                        if dv.count(doc) == 0 {
                            return SortValue::Missing;
                        }
                        let vals: Vec<f64> = dv.values_f64(doc).collect();
                        let integral = !dv.is_double();
                        let pick = |v: f64| {
                            if integral {
                                SortValue::Long(v as i64)
                            } else {
                                SortValue::Double(v)
                            }
                        };
                        match mode {
                            Mode::Min => {
                                if integral {
                                    SortValue::Long(dv.values_i64(doc).next().unwrap_or(0))
                                } else {
                                    pick(vals[0])
                                }
                            }
                            Mode::Max => {
                                if integral {
                                    SortValue::Long(dv.values_i64(doc).last().unwrap_or(0))
                                } else {
                                    pick(vals[vals.len() - 1])
                                }
                            }
                            Mode::Sum => pick(vals.iter().sum()),
                            Mode::Avg => {
                                let avg = vals.iter().sum::<f64>() / vals.len() as f64;
                                if integral && *t != FieldType::Date {
                                    SortValue::Long(avg.round() as i64)
                                } else {
                                    pick(avg)
                                }
                            }
                            Mode::Median => {
                                let m = vals.len() / 2;
                                let v = if vals.len() % 2 == 0 { (vals[m - 1] + vals[m]) / 2.0 } else { vals[m] };
                                pick(v)
                            }
                        }
                    }
                }
            })
            .collect()
    }
}

/// A document's value of a nested sort: its block's documents of `docs` give their
/// values, reduced by `mode` as ES's `MultiValueMode` reduces nested values.
fn nested_value(
    src: &Source<'_>,
    docs: &crate::index::DocSet,
    roots: &crate::index::DocSet,
    doc: u32,
    mode: Mode,
) -> SortValue {
    let start = roots.prev_before(doc).map_or(0, |p| p + 1);
    let mut cursor = docs.cursor();
    let mut children = Vec::new();
    let mut c = cursor.seek(start);
    while let Some(d) = c.filter(|d| *d < doc) {
        children.push(d);
        c = cursor.next_doc();
    }
    match src {
        Source::Keyword(dv) => {
            let ords = children.iter().flat_map(|&d| dv.ords(d));
            let ord = match mode {
                Mode::Max => ords.max(),
                _ => ords.min(),
            };
            ord.map_or(SortValue::Missing, |o| SortValue::Str(dv.term(o).to_string()))
        }
        Source::Number(dv, t) => {
            let mut vals: Vec<f64> = children.iter().flat_map(|&d| dv.values_f64(d)).collect();
            if vals.is_empty() {
                return SortValue::Missing;
            }
            let integral = !dv.is_double();
            if integral && matches!(mode, Mode::Min | Mode::Max) {
                let ints = children.iter().flat_map(|&d| dv.values_i64(d));
                let v = if mode == Mode::Min { ints.min() } else { ints.max() };
                return v.map_or(SortValue::Missing, SortValue::Long);
            }
            vals.sort_by(f64::total_cmp);
            let pick = |v: f64| if integral { SortValue::Long(v as i64) } else { SortValue::Double(v) };
            match mode {
                Mode::Min => pick(vals[0]),
                Mode::Max => pick(vals[vals.len() - 1]),
                Mode::Sum => pick(vals.iter().sum()),
                Mode::Avg => {
                    let avg = vals.iter().sum::<f64>() / vals.len() as f64;
                    if integral && *t != FieldType::Date {
                        SortValue::Long(avg.round() as i64)
                    } else {
                        pick(avg)
                    }
                }
                Mode::Median => {
                    let m = vals.len() / 2;
                    pick(if vals.len() % 2 == 0 { (vals[m - 1] + vals[m]) / 2.0 } else { vals[m] })
                }
            }
        }
        _ => SortValue::Missing,
    }
}

/// The first sort criterion as one integer per document, when it is a keyword field:
/// ordinals order like the terms within one index, so candidates for the top of a sort can
/// be chosen without building a string per matching document.
pub struct KeywordPrimary {
    dv: std::sync::Arc<crate::index::KeywordDocValues>,
    desc: bool,
    max_mode: bool,
    missing_first: bool,
}

impl KeywordPrimary {
    /// `Some` when the first criterion is a keyword field sorted by its min or max value
    /// with missing values first or last.
    pub fn new(specs: &[SortSpec], reader: &IndexReader, snap: &Snapshot) -> Result<Option<KeywordPrimary>> {
        let Some(SortSpec::Field { field, order, mode, missing, nested: None, .. }) = specs.first() else {
            return Ok(None);
        };
        let name = match field.as_str() {
            "_id" => ID_FIELD,
            "_type" => TYPE_FIELD,
            f => reader.meta.mapping.resolve_alias(f),
        };
        let keyword = name == ID_FIELD
            || name == TYPE_FIELD
            || reader.meta.mapping.field(name).map(|f| f.ftype == FieldType::Keyword).unwrap_or(false);
        let mode = mode.unwrap_or(if *order == Order::Asc { Mode::Min } else { Mode::Max });
        if !keyword || !matches!(mode, Mode::Min | Mode::Max) || matches!(missing, Missing::Value(_)) {
            return Ok(None);
        }
        let Some(dv) = reader.keyword_doc_values(snap, name)? else { return Ok(None) };
        Ok(Some(KeywordPrimary {
            dv,
            desc: *order == Order::Desc,
            max_mode: mode == Mode::Max,
            missing_first: matches!(missing, Missing::First),
        }))
    }

    /// The document's rank key: smaller sorts first, as [`compare`] orders the first
    /// criterion within this index.
    pub fn key(&self, doc: u32) -> u32 {
        let mut ords = self.dv.ords(doc);
        let ord = if self.max_mode { ords.last() } else { ords.next() };
        match ord {
            None if self.missing_first => 0,
            None => u32::MAX,
            Some(o) => {
                let rank = if self.desc { self.dv.term_count() as u32 - 1 - o } else { o };
                rank + u32::from(self.missing_first)
            }
        }
    }
}

impl KeyExtractor<'_> {
    /// Converts `search_after` values to this index's sort types, as ES 6.8's
    /// `SearchAfterBuilder.convertValueFromSortType` does per shard: strings are parsed
    /// for numeric sorts, numbers are rendered for keyword sorts, `null` means missing.
    /// The error is the shard failure's cause.
    pub fn convert_after(&self, raw: &[Scalar]) -> std::result::Result<Vec<SortValue>, Exception> {
        self.specs
            .iter()
            .zip(&self.sources)
            .zip(raw)
            .map(|((spec, src), v)| convert_after_value(spec, src, v))
            .collect()
    }
}

/// Java's `NumberFormatException` text for an unparseable number.
fn number_format(input: &str) -> Exception {
    Exception::new("number_format_exception", format!("For input string: \"{input}\""))
}

/// Java's `toString` of a JSON scalar (what ES parses search_after strings from).
fn java_string(v: &Scalar) -> String {
    match v {
        Scalar::Double(f) => {
            // `Double.toString` always shows a fraction digit for plain-range values.
            if f.fract() == 0.0 && f.abs() < 1e7 {
                format!("{f:.1}")
            } else {
                format!("{f}")
            }
        }
        other => other.text(),
    }
}

fn convert_after_value(spec: &SortSpec, src: &Source, v: &Scalar) -> std::result::Result<SortValue, Exception> {
    if *v == Scalar::Null {
        return Ok(SortValue::Missing);
    }
    let field = match spec {
        SortSpec::Field { field, .. } => field.as_str(),
        // Lucene's score and doc sort fields have no name.
        _ => "null",
    };
    let failed = |input: &str| {
        Exception::new("illegal_argument_exception", format!("Failed to parse search_after value for field [{field}]."))
            .caused_by(number_format(input))
    };
    let text = java_string(v);
    let as_long = || -> std::result::Result<i64, Exception> {
        match v {
            Scalar::Long(n) => Ok(*n),
            // Java's narrowing of a double: saturating, as Rust's `as`.
            Scalar::Unsigned(_) | Scalar::Double(_) => Ok(v.as_f64().map(|f| f as i64).unwrap_or(i64::MAX)),
            _ => text.parse::<i64>().map_err(|_| failed(&text)),
        }
    };
    let as_double = || -> std::result::Result<f64, Exception> {
        match v.as_f64() {
            Some(f) => Ok(f),
            None => {
                let t = text.trim();
                // Java accepts a trailing type suffix (`1.5d`, `2f`).
                let t = t.strip_suffix(['d', 'D', 'f', 'F']).unwrap_or(t);
                t.parse::<f64>().map_err(|_| failed(&text))
            }
        }
    };
    // The numbers `SortValue::to_json` renders for a missing value mean "missing" again.
    if let (SortSpec::Field { order, missing, .. }, Some(n)) = (spec, v.as_i64()) {
        let sentinel = match missing {
            Missing::Last => Some(if *order == Order::Asc { i64::MAX } else { i64::MIN }),
            Missing::First => Some(if *order == Order::Asc { i64::MIN } else { i64::MAX }),
            Missing::Value(_) => None,
        };
        if sentinel == Some(n) {
            return Ok(SortValue::Missing);
        }
    }
    Ok(match src {
        Source::Script(_, true) => SortValue::Double(as_double()?),
        Source::Script(_, false) => SortValue::Str(text),
        Source::Score => SortValue::Score(as_double()? as f32),
        Source::Doc => SortValue::Doc(as_long()?.clamp(0, u32::MAX as i64) as u32),
        Source::GeoDistance(_) => SortValue::Double(as_double()?),
        Source::Keyword(_) => SortValue::Str(text),
        // `DocValueFormat.IP.parseBytesRef`: the address's encoded bytes.
        Source::Ip(_) => match crate::mapping::ip::parse(&text) {
            Ok(a) => SortValue::Ip(crate::mapping::ip::term(&a.bytes)),
            Err(e) => {
                return Err(Exception::new(
                    "illegal_argument_exception",
                    format!("Failed to parse search_after value for field [{field}]."),
                )
                .caused_by(Exception::new("illegal_argument_exception", e)))
            }
        },
        Source::Number(dv, _) if dv.is_double() => SortValue::Double(as_double()?),
        Source::Number(..) => SortValue::Long(as_long()?),
        // Unmapped here: only documents' missing values are compared with it.
        Source::None => match v {
            Scalar::Double(f) => SortValue::Double(*f),
            Scalar::Long(_) | Scalar::Unsigned(_) => SortValue::Long(as_long()?),
            _ => SortValue::Str(text),
        },
    })
}

fn cmp_present(a: &SortValue, b: &SortValue) -> Ordering {
    match (a, b) {
        (SortValue::Str(x), SortValue::Str(y)) | (SortValue::Ip(x), SortValue::Ip(y)) => x.as_bytes().cmp(y.as_bytes()),
        (SortValue::Long(x), SortValue::Long(y)) => x.cmp(y),
        (SortValue::Double(x), SortValue::Double(y)) => x.total_cmp(y),
        (SortValue::Long(x), SortValue::Double(y)) => (*x as f64).total_cmp(y),
        (SortValue::Double(x), SortValue::Long(y)) => x.total_cmp(&(*y as f64)),
        (SortValue::Score(x), SortValue::Score(y)) => x.total_cmp(y),
        (SortValue::Doc(x), SortValue::Doc(y)) => x.cmp(y),
        _ => Ordering::Equal,
    }
}

/// Converts a `missing` value into a sort value comparable with the field's values.
fn missing_value(v: &Scalar, like: &SortValue) -> SortValue {
    match like {
        SortValue::Str(_) => SortValue::Str(v.text()),
        SortValue::Ip(_) => match crate::mapping::ip::parse(&v.text()) {
            Ok(a) => SortValue::Ip(crate::mapping::ip::term(&a.bytes)),
            Err(_) => SortValue::Str(v.text()),
        },
        SortValue::Long(_) => v
            .as_i64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
            .map(SortValue::Long)
            .unwrap_or(SortValue::Missing),
        SortValue::Double(_) => v
            .as_f64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
            .map(SortValue::Double)
            .unwrap_or(SortValue::Missing),
        _ => SortValue::Missing,
    }
}

/// Compares two hits' sort values under the specs (first differing criterion decides).
pub fn compare(specs: &[SortSpec], a: &[SortValue], b: &[SortValue]) -> Ordering {
    for (i, spec) in specs.iter().enumerate() {
        // A position shorter than the specs (a scroll id signed for another sort) reads
        // as missing values rather than failing.
        let (x, y) = (a.get(i).unwrap_or(&SortValue::Missing), b.get(i).unwrap_or(&SortValue::Missing));
        let ord = match spec {
            SortSpec::Score(o) => {
                let c = cmp_present(x, y);
                // Scores sort descending by default; `asc` flips it.
                if *o == Order::Desc {
                    c.reverse()
                } else {
                    c
                }
            }
            SortSpec::GeoDistance(g) => {
                let c = cmp_present(x, y);
                if g.order == Order::Desc {
                    c.reverse()
                } else {
                    c
                }
            }
            SortSpec::Script { order: o, .. } => {
                let c = cmp_present(x, y);
                if *o == Order::Desc {
                    c.reverse()
                } else {
                    c
                }
            }
            SortSpec::Doc(o) => {
                let c = cmp_present(x, y);
                if *o == Order::Desc {
                    c.reverse()
                } else {
                    c
                }
            }
            SortSpec::Field { order, missing, .. } => {
                let (x2, y2);
                let (x, y) = match missing {
                    Missing::Value(v) => {
                        x2 = if *x == SortValue::Missing { missing_value(v, y) } else { x.clone() };
                        y2 = if *y == SortValue::Missing { missing_value(v, x) } else { y.clone() };
                        (&x2, &y2)
                    }
                    _ => (x, y),
                };
                match (x == &SortValue::Missing, y == &SortValue::Missing) {
                    (true, true) => Ordering::Equal,
                    (true, false) => {
                        if matches!(missing, Missing::First) {
                            Ordering::Less
                        } else {
                            Ordering::Greater
                        }
                    }
                    (false, true) => {
                        if matches!(missing, Missing::First) {
                            Ordering::Greater
                        } else {
                            Ordering::Less
                        }
                    }
                    (false, false) => {
                        let c = cmp_present(x, y);
                        if *order == Order::Desc {
                            c.reverse()
                        } else {
                            c
                        }
                    }
                }
            }
        };
        if ord != Ordering::Equal {
            return ord;
        }
    }
    Ordering::Equal
}
