//! What compiling a query for one index needs to know: the index, its snapshot, the
//! clock, the mode (explaining, highlighting, the enclosing `nested` scope), and the
//! per-index lookups every query type makes (field resolution, analyzers, values as a
//! field reads them). It imports none of the query types' compile modules: they take an
//! [`Executor`] and reach sub-query compilation through its methods that `exec.rs` (the
//! dispatcher over `Query`) implements, so the dispatcher imports them and not the
//! reverse.

use crate::analysis::Analyzer;
use crate::error::{Error, Exception, Result};
use crate::index::{DocSet, IndexReader, Num, ID_FIELD, ROUTING_FIELD, TYPE_FIELD};
use crate::mapping::{FieldMapping, FieldType};
use crate::query::Scalar;
use crate::store::Snapshot;

/// The context of compiling queries for one index (its methods that compile are
/// implemented by the dispatcher, `search/exec.rs`).
#[derive(Clone, Copy)]
pub struct Executor<'a> {
    /// The index.
    pub reader: &'a IndexReader,
    /// The read snapshot.
    pub snap: &'a Snapshot,
    /// "now" for date math, epoch millis.
    pub now_ms: i64,
    /// Whether weights keep what explanations need (descriptions, filter clauses); the
    /// search path leaves it off and builds none of it.
    pub explain: bool,
    /// Whether weights record the terms their queries highlight; the search path leaves
    /// it off and records none of them.
    pub highlight: bool,
    /// The path of the enclosing `nested` query, whose documents its joins map to
    /// (`None`: the top level, whose joins map to root documents).
    pub nested_scope: Option<&'a str>,
}

/// How a field name resolves in one index.
#[derive(Debug, Clone)]
pub enum Resolved<'m> {
    /// A mapped leaf field.
    Field(&'m FieldMapping),
    /// `_id` or `_type`.
    Meta(&'static str),
    /// Nothing by that name.
    Unmapped,
}

impl<'a> Executor<'a> {
    /// The context for searching `reader` at `snap`.
    pub fn new(reader: &'a IndexReader, snap: &'a Snapshot, now_ms: i64) -> Executor<'a> {
        Executor { reader, snap, now_ms, explain: false, highlight: false, nested_scope: None }
    }

    /// The same context compiling weights that can explain documents.
    pub fn explaining(self) -> Executor<'a> {
        Executor { explain: true, ..self }
    }

    /// The same context compiling weights that record what their queries highlight
    /// ([`Weight::highlights`]). Such weights never search, and compiling one never
    /// fails: the highlighter looks for what a query names even where the query cannot
    /// run (a lenient field, a `highlight_query` the search never ran).
    pub fn highlighting(self) -> Executor<'a> {
        Executor { highlight: true, ..self }
    }

    /// A query value as `field` indexes it whole (keyword normalizers applied, other
    /// fields' values as written): what term-level queries highlight.
    pub fn exact_term(&self, field: &str, value: &str) -> String {
        match self.resolve(field) {
            // A value the normalizer refuses highlights as written.
            Resolved::Field(fm) => fm.keyword_term(value).unwrap_or_else(|_| value.to_string()),
            _ => value.to_string(),
        }
    }

    /// Resolves a field name.
    pub fn resolve(&self, field: &str) -> Resolved<'a> {
        match field {
            "_id" => Resolved::Meta(ID_FIELD),
            "_type" => Resolved::Meta(TYPE_FIELD),
            "_routing" => Resolved::Meta(ROUTING_FIELD),
            _ => {
                let mapping = &self.reader.meta.mapping;
                match mapping.field(mapping.resolve_alias(field)) {
                    Some(f) => Resolved::Field(f),
                    None => Resolved::Unmapped,
                }
            }
        }
    }

    /// Resolves a field a query searches: ES refuses a field mapped `index: false`
    /// (`MappedFieldType.failIfNotIndexed`). Highlighting still looks for its terms.
    pub fn searched(&self, field: &str) -> Result<Resolved<'a>> {
        match self.resolve(field) {
            Resolved::Field(fm) if fm.params.declared_type == Some("binary") && !self.highlight => {
                Err(Error::new(400, Exception::new("query_shard_exception", "Binary fields do not support searching")))
            }
            Resolved::Field(fm) if !fm.index && !self.highlight => {
                Err(query_shard_error(format!("Cannot search on field [{}] since it is not indexed.", fm.path)))
            }
            r => Ok(r),
        }
    }

    pub(crate) fn all_docs(&self) -> DocSet {
        DocSet::full(self.reader.max_doc())
    }

    /// Documents of an exact keyword-like term (no scoring).
    pub fn keyword_docs(&self, field: &str, term: &str) -> Result<DocSet> {
        match self.reader.term_addr(self.snap, field, term)? {
            Some(addr) => Ok(self.reader.postings(self.snap, field, addr)?.docs),
            None => Ok(DocSet::new()),
        }
    }

    /// The analyzer a query uses on `fm`: the one it names, else the field's search
    /// analyzer (its search quote analyzer for a phrase).
    pub fn search_analyzer(&self, fm: &FieldMapping, override_name: Option<&str>, quoted: bool) -> Result<Analyzer> {
        match override_name {
            Some(n) => self.named_analyzer(n),
            None if quoted => Ok(fm.search_quote_analyzer.clone()),
            None => Ok(fm.search_analyzer.clone()),
        }
    }

    /// An analyzer a query names: the index's, else a built-in.
    pub fn named_analyzer(&self, name: &str) -> Result<Analyzer> {
        self.reader.meta.mapping.analysis.field_analyzer(name).map_err(|_| {
            Error::new(400, Exception::new("illegal_argument_exception", format!("failed to find analyzer [{name}]")))
        })
    }

    /// Parses a query value for a numeric-like field into a comparable number.
    pub fn number_value(&self, fm: &FieldMapping, v: &Scalar, round_up: bool, fmt: Option<&str>) -> Result<Num> {
        number_value(fm, v, round_up, fmt, None, self.now_ms)
    }

    /// Expands field patterns (`*`, `item.*`, `*identifier`) into mapped searchable fields,
    /// keeping each pattern's boost.
    pub fn expand_fields(&self, fields: &[(String, f32)], all_types: bool) -> Vec<(&'a FieldMapping, f32)> {
        let mapping = &self.reader.meta.mapping;
        let mut out: Vec<(&'a FieldMapping, f32)> = Vec::new();
        for (pat, boost) in fields {
            if pat.contains('*') {
                for p in mapping.field_paths() {
                    if crate::mapping::simple_match(pat, p) {
                        if let Some(fm) = mapping.field(p) {
                            let ok = fm.index
                                && fm.ftype != FieldType::GeoPoint
                                && (all_types || matches!(fm.ftype, FieldType::Text | FieldType::Keyword));
                            if ok && !out.iter().any(|(f, _)| f.path == fm.path) {
                                out.push((fm, *boost));
                            }
                        }
                    }
                }
            } else if let Some(fm) = mapping.field(pat) {
                if let Some(e) = out.iter_mut().find(|(f, _)| f.path == fm.path) {
                    e.1 = *boost;
                } else {
                    out.push((fm, *boost));
                }
            }
        }
        out
    }
}

/// The number of tokens `analyzer` makes of `text`, without building them.
pub(crate) fn token_count(analyzer: &Analyzer, text: &str) -> Result<usize> {
    let (mut n, mut buf) = (0usize, String::new());
    analyzer.for_each_token(text, &mut buf, |_, _, _, _| n += 1)?;
    Ok(n)
}

/// A `query_shard_exception` (400) as ES reports failures to build a query for a field.
pub fn query_shard_error(reason: String) -> Error {
    Error::new(400, Exception::new("query_shard_exception", "failed to create query: ".to_string() + &reason))
}

/// Parses a query value for a numeric-like field. Dates go through the field's (or the
/// query's) format with date math; `round_up` picks the end of a rounded unit.
pub fn number_value(
    fm: &FieldMapping,
    v: &Scalar,
    round_up: bool,
    fmt: Option<&str>,
    tz: Option<&str>,
    now_ms: i64,
) -> Result<Num> {
    let bad = |what: String| query_shard_error(what);
    match fm.ftype {
        FieldType::Date => {
            let s = v.text();
            let format = crate::date::DateFormat::parse_format(fmt.unwrap_or(fm.date_format()))
                .map_err(|e| bad(e.to_string()))?;
            let tz = match tz {
                Some(t) => Some(crate::date::TimeZone::parse(t).map_err(|e| Error::illegal_argument(e.to_string()))?),
                None => None,
            };
            // ES 6.8 parses every value's text with the format (`parseToLong`), numbers
            // too: an `epoch_second` field's `1525100000` is seconds.
            let ms = crate::date::parse_date_math(&s, now_ms, round_up, &format, tz.as_ref())
                .map_err(|e| Error::new(400, Exception::new("parse_exception", e.to_string())))?;
            let ms = if round_up { ms.saturating_add(missing_time_fill(&s)) } else { ms };
            Ok(Num::I(ms))
        }
        FieldType::Boolean => match v {
            Scalar::Bool(b) => Ok(Num::I(*b as i64)),
            Scalar::Text(s) if s == "true" => Ok(Num::I(1)),
            Scalar::Text(s) if s == "false" => Ok(Num::I(0)),
            _ => Err(bad(format!("Can't parse boolean value [{}], expected [true] or [false]", v.text()))),
        },
        t if t.is_integer() => match v {
            Scalar::Long(n) => Ok(Num::I(*n)),
            Scalar::Unsigned(_) | Scalar::Double(_) => Ok(Num::F(v.as_f64().unwrap_or(0.0))),
            Scalar::Text(s) => s
                .trim()
                .parse::<i64>()
                .map(Num::I)
                .or_else(|_| s.trim().parse::<f64>().map(Num::F))
                .map_err(|_| bad(format!("For input string: \"{s}\""))),
            other => Err(bad(format!("For input string: \"{}\"", other.text()))),
        },
        _ => match v {
            Scalar::Long(_) | Scalar::Unsigned(_) | Scalar::Double(_) => Ok(Num::F(v.as_f64().unwrap_or(0.0))),
            Scalar::Text(s) => {
                s.trim().parse::<f64>().map(Num::F).map_err(|_| bad(format!("For input string: \"{s}\"")))
            }
            other => Err(bad(format!("For input string: \"{}\"", other.text()))),
        },
    }
}

/// What ES 6.8's date parser adds when rounding up a date without `||` math: it parses
/// onto 1970-01-01T23:59:59.999, so the time fields the text leaves out take their
/// largest values (`lte: 2020-01-15` means the end of that day, `gt: 2020-01-15T10` the
/// end of that hour). Dates and epoch numbers with full precision get nothing.
fn missing_time_fill(s: &str) -> i64 {
    let s = s.trim();
    let epoch = s.strip_prefix('-').unwrap_or(s).chars().all(|c| c.is_ascii_digit());
    if s.is_empty() || s.contains("||") || s.starts_with("now") || epoch {
        return 0;
    }
    let (date, time) = match s.find('T') {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => match s.find(' ') {
            // `yyyy/MM/dd HH:mm:ss`-style patterns.
            Some(i) if s[i + 1..].contains(':') => (&s[..i], Some(&s[i + 1..])),
            _ => (s, None),
        },
    };
    if date.is_empty() {
        return 0;
    }
    let Some(time) = time else { return 86_399_999 };
    // The clock part, without a zone suffix.
    let clock: &str = time.split(['Z', 'z', '+', ' ']).next().unwrap_or("");
    let clock = match clock.rfind('-') {
        Some(i) if i > 0 => &clock[..i],
        _ => clock,
    };
    if clock.contains(['.', ',']) {
        return 0;
    }
    match clock.chars().filter(|c| c.is_ascii_digit()).count() {
        0 => 86_399_999,
        1 | 2 => 3_599_999,
        3 | 4 => 59_999,
        _ => 999,
    }
}
