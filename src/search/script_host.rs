//! Scripts in a search: what `doc`, `_score`, `_value` and `params._source` read in one
//! index, and a runner that keeps a script's heap and opened doc values across the
//! documents it runs on (compiled once per request; per index, only the doc values its
//! fields need are opened, once).

use crate::error::{Error, Exception, Result};
use crate::index::{IndexReader, KeywordDocValues, NumericDocValues, ID_FIELD, TYPE_FIELD};
use crate::mapping::{FieldType, Mapping};
use crate::script::expression::binding::{self, Binding, Context as LinkContext, FieldClass};
use crate::script::expression::{errors, Expression};
use crate::script::{DocKind, DocValues, Halt, Heap, Host, Script, Value};
use crate::store::Snapshot;
use std::collections::HashMap;
use std::sync::Arc;

/// One field's doc values as a script reads them.
#[derive(Clone)]
enum FieldReader {
    Keyword(Arc<KeywordDocValues>),
    Long(Arc<NumericDocValues>),
    Double(Arc<NumericDocValues>),
    Bool(Arc<NumericDocValues>),
    /// Milliseconds since the epoch, read as `JodaCompatibleZonedDateTime`s.
    Date(Arc<NumericDocValues>),
    /// Addresses by their term, read as their text.
    Ip(Arc<KeywordDocValues>),
    /// Geo points, packed.
    Geo(Arc<NumericDocValues>),
    /// Mapped, but no document has a value.
    Empty(DocKind),
    /// Reading it fails with this error (text fields, dates, unmapped names).
    Fails(&'static str, String),
}

/// What `doc[name]` reads in `mapping`: the stored field's name and type, or the error
/// ES 6.8 gives for it (unmapped names, text fields, fields without field data).
pub fn field_type(mapping: &Mapping, name: &str) -> std::result::Result<(String, FieldType), (&'static str, String)> {
    let stored = match name {
        "_id" => ID_FIELD,
        "_type" => TYPE_FIELD,
        n => mapping.resolve_alias(n),
    };
    if stored == crate::index::ROUTING_FIELD {
        return Err(("illegal_argument_exception", crate::index::ROUTING_FIELDDATA_ERROR.to_string()));
    }
    let ftype = if stored == ID_FIELD || stored == TYPE_FIELD {
        Some(FieldType::Keyword)
    } else {
        mapping.field(stored).map(|f| f.ftype)
    };
    let Some(ftype) = ftype else {
        return Err(("illegal_argument_exception", format!("No field found for [{name}] in mapping with types []")));
    };
    if ftype == FieldType::Text {
        return Err(("illegal_argument_exception", format!("Fielddata is disabled on text fields by default. Set fielddata=true on [{name}] in order to load fielddata in memory by uninverting the inverted index. Note that this can however use significant memory. Alternatively use a keyword field instead.")));
    }
    if let Some(e) = mapping.field(stored).and_then(|f| f.fielddata_error()) {
        return Err(("illegal_argument_exception", e));
    }
    Ok((stored.to_string(), ftype))
}

/// Which of the document's parts a context lets a script read.
#[derive(Debug, Clone, Copy, Default)]
pub struct Access {
    /// `params._source` (script fields and aggregations).
    pub source: bool,
    /// `_score` (scoring contexts).
    pub score: bool,
    /// The script context (what an expression may name, and what it returns).
    pub context: Context,
}

/// The script contexts of a search, as ES 6.8 names them to its script engines.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub enum Context {
    /// `script` queries (a boolean answer).
    #[default]
    Filter,
    /// `function_score` scripts.
    Score,
    /// Aggregation scripts.
    Aggs,
    /// `_script` sorts.
    Sort,
    /// `script_fields`.
    Field,
    /// `terms_set`'s `minimum_should_match_script`.
    TermsSet,
    /// `scripted_metric`'s map script (which expressions cannot be).
    AggsMap,
}

/// The mapping's kind of `name` as the expression engine sorts fields.
fn expression_field_class(mapping: &Mapping, name: &str) -> FieldClass {
    match field_type(mapping, name) {
        Err((_, message)) if message.starts_with("No field found") => FieldClass::Missing,
        Err((_, message)) => FieldClass::Fails(message),
        Ok((_, ftype)) => match ftype {
            FieldType::Long
            | FieldType::Integer
            | FieldType::Short
            | FieldType::Byte
            | FieldType::Double
            | FieldType::Float
            | FieldType::Boolean => FieldClass::Numeric,
            FieldType::Date => FieldClass::Date,
            FieldType::GeoPoint => FieldClass::Geo,
            _ => FieldClass::Other,
        },
    }
}

/// An expression's variables linked in one index, and a buffer for their values.
struct LinkedExpression {
    bindings: Vec<Binding>,
    values: Vec<f64>,
    /// A filter script: true when the value is not 0.
    filter: bool,
}

impl LinkedExpression {
    /// Links `script`'s variables in `reader`'s mapping for `context`, or the search's
    /// failure with ES's "link error" (the first variable, in order, that does not link).
    fn new(script: &Script, expr: &Expression, reader: &IndexReader, context: Context) -> Result<LinkedExpression> {
        let index = reader.meta.name.as_str();
        let linking = match context {
            Context::Filter | Context::Score => LinkContext::Score,
            Context::Aggs => LinkContext::Aggs,
            Context::Sort => LinkContext::Sort,
            Context::Field | Context::TermsSet => LinkContext::Plain,
            Context::AggsMap => {
                let e = Exception::new(
                    "illegal_argument_exception",
                    "expression engine does not know how to handle script context [aggs_map]",
                );
                return Err(Error::all_shards_failed(400, Some(index), e));
            }
        };
        let mapping = &reader.meta.mapping;
        let mut class = |f: &str| expression_field_class(mapping, f);
        let bindings = expr
            .variables
            .iter()
            .map(|v| binding::link(v, linking, &script.params, &mut class))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| Error::all_shards_failed(400, Some(index), errors::link_exception(&script.source, &e)))?;
        Ok(LinkedExpression { values: vec![0.0; bindings.len()], bindings, filter: context == Context::Filter })
    }

    /// The expression's value for the host's current document.
    fn run(&mut self, expr: &Expression, host: &mut DocHost<'_>) -> std::result::Result<Value, Halt> {
        for (slot, b) in self.values.iter_mut().zip(&self.bindings) {
            *slot = match b {
                Binding::Score => host.score,
                Binding::Const(v) => *v,
                Binding::Value => match &host.value {
                    Value::Null => 0.0,
                    v => match crate::script::ops::Num::of(v) {
                        Some(n) => n.f64(),
                        None => {
                            return Err(Halt::at(
                                0,
                                "general_script_exception",
                                format!(
                                    "Cannot use expression with text variable using {}",
                                    errors::java_object_name(expr)
                                ),
                            ))
                        }
                    },
                },
                Binding::Doc { field, read } => binding::read(read, &host.doc_values(field, 0)?),
            };
        }
        let v = expr.evaluate(&self.values);
        Ok(if self.filter { Value::Bool(v != 0.0) } else { Value::Double(v) })
    }
}

/// The [`Host`] of scripts over one index.
pub struct DocHost<'a> {
    reader: &'a IndexReader,
    snap: &'a Snapshot,
    access: Access,
    /// The current document.
    pub doc: u32,
    /// The current document's score.
    pub score: f64,
    /// The current `_value`.
    pub value: Value,
    literal: Vec<Option<FieldReader>>,
    named: HashMap<String, FieldReader>,
    /// `params` entries the context adds (a scripted metric's `_agg`).
    pub extra_params: Vec<(String, Value)>,
}

impl<'a> DocHost<'a> {
    fn open(&self, name: &str) -> Result<FieldReader> {
        let (stored, ftype) = match field_type(&self.reader.meta.mapping, name) {
            Ok(found) => found,
            Err((kind, message)) => return Ok(FieldReader::Fails(kind, message)),
        };
        let stored = stored.as_str();
        Ok(match ftype {
            FieldType::Keyword => match self.reader.keyword_doc_values(self.snap, stored)? {
                Some(dv) => FieldReader::Keyword(dv),
                None => FieldReader::Empty(DocKind::Strings),
            },
            FieldType::Ip => match self.reader.keyword_doc_values(self.snap, stored)? {
                Some(dv) => FieldReader::Ip(dv),
                None => FieldReader::Empty(DocKind::Strings),
            },
            FieldType::Date => match self.reader.numeric_doc_values(self.snap, stored)? {
                Some(dv) => FieldReader::Date(dv),
                None => FieldReader::Empty(DocKind::Dates),
            },
            FieldType::GeoPoint => match self.reader.numeric_doc_values(self.snap, stored)? {
                Some(dv) => FieldReader::Geo(dv),
                None => FieldReader::Empty(DocKind::GeoPoints),
            },
            t => {
                let kind = match t {
                    FieldType::Boolean => DocKind::Booleans,
                    FieldType::Double | FieldType::Float => DocKind::Doubles,
                    _ => DocKind::Longs,
                };
                match (self.reader.numeric_doc_values(self.snap, stored)?, kind) {
                    (None, k) => FieldReader::Empty(k),
                    (Some(dv), DocKind::Booleans) => FieldReader::Bool(dv),
                    (Some(dv), DocKind::Doubles) => FieldReader::Double(dv),
                    (Some(dv), _) if dv.is_double() => FieldReader::Double(dv),
                    (Some(dv), _) => FieldReader::Long(dv),
                }
            }
        })
    }

    fn values_of(reader: &FieldReader, doc: u32, offset: usize) -> std::result::Result<DocValues, Halt> {
        Ok(match reader {
            FieldReader::Keyword(dv) => DocValues {
                kind: DocKind::Strings,
                values: dv.ords(doc).map(|o| Value::Str(dv.term(o).into())).collect(),
            },
            FieldReader::Long(dv) => {
                DocValues { kind: DocKind::Longs, values: dv.values_i64(doc).map(Value::Long).collect() }
            }
            FieldReader::Double(dv) => {
                DocValues { kind: DocKind::Doubles, values: dv.values_f64(doc).map(Value::Double).collect() }
            }
            FieldReader::Bool(dv) => {
                DocValues { kind: DocKind::Booleans, values: dv.values_i64(doc).map(|v| Value::Bool(v != 0)).collect() }
            }
            FieldReader::Date(dv) => DocValues {
                kind: DocKind::Dates,
                values: dv.values_i64(doc).map(crate::script::time::doc_value).collect(),
            },
            FieldReader::Geo(dv) => {
                DocValues { kind: DocKind::GeoPoints, values: dv.values_i64(doc).map(Value::Geo).collect() }
            }
            FieldReader::Ip(dv) => DocValues {
                kind: DocKind::Strings,
                values: dv.ords(doc).map(|o| Value::Str(crate::mapping::ip::format_term(dv.term(o)).into())).collect(),
            },
            FieldReader::Empty(kind) => DocValues { kind: *kind, values: Vec::new() },
            FieldReader::Fails(kind, message) => return Err(Halt::at(offset, kind, message.clone())),
        })
    }

    fn first_of(reader: &FieldReader, doc: u32, offset: usize) -> std::result::Result<Value, Halt> {
        Ok(match reader {
            FieldReader::Long(dv) => Value::Long(dv.values_i64(doc).next().unwrap_or_else(|| {
                crate::script::value::warn_missing_value();
                0
            })),
            FieldReader::Double(dv) => Value::Double(dv.values_f64(doc).next().unwrap_or_else(|| {
                crate::script::value::warn_missing_value();
                0.0
            })),
            other => Self::values_of(other, doc, offset)?.first(),
        })
    }

    fn named_reader(&mut self, name: &str, offset: usize) -> std::result::Result<FieldReader, Halt> {
        if let Some(r) = self.named.get(name) {
            return Ok(r.clone());
        }
        let r = self.open(name).map_err(|e| Halt::at(offset, "exception", e.reason().to_string()))?;
        self.named.insert(name.to_string(), r.clone());
        Ok(r)
    }
}

impl Host for DocHost<'_> {
    fn doc_values(&mut self, name: &str, offset: usize) -> std::result::Result<DocValues, Halt> {
        let r = self.named_reader(name, offset)?;
        Self::values_of(&r, self.doc, offset)
    }

    fn doc_first(&mut self, field: usize, name: &str, offset: usize) -> std::result::Result<Value, Halt> {
        if let Some(Some(r)) = self.literal.get(field) {
            return Self::first_of(r, self.doc, offset);
        }
        let r = self.named_reader(name, offset)?;
        if let Some(slot) = self.literal.get_mut(field) {
            *slot = Some(r.clone());
        }
        Self::first_of(&r, self.doc, offset)
    }

    fn has_field(&mut self, name: &str) -> bool {
        matches!(name, "_id" | "_type") || self.reader.meta.mapping.field(name).is_some()
    }

    fn source(&mut self, offset: usize) -> std::result::Result<serde_json::Value, Halt> {
        if !self.access.source {
            return Ok(serde_json::Value::Null);
        }
        let stored = self
            .reader
            .document(self.snap, self.doc)
            .map_err(|e| Halt::at(offset, "exception", e.reason().to_string()))?;
        serde_json::from_slice(stored.source()).map_err(|e| Halt::at(offset, "exception", e.to_string()))
    }

    fn score(&mut self, offset: usize) -> std::result::Result<f64, Halt> {
        if !self.access.score {
            return Err(Halt::at(offset, "illegal_argument_exception", "Variable [_score] is not defined."));
        }
        Ok(self.score)
    }

    fn value(&mut self, offset: usize) -> std::result::Result<Value, Halt> {
        if self.value == Value::Null {
            return Err(Halt::at(offset, "illegal_argument_exception", "Variable [_value] is not defined."));
        }
        Ok(self.value.clone())
    }

    fn param(&mut self, key: &str) -> Option<Value> {
        self.extra_params.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    }
}

/// A script ready to run on the documents of one index.
pub struct ScriptRunner<'a> {
    /// The script.
    pub script: Arc<Script>,
    /// Its per-run heap (reused).
    pub heap: Heap,
    /// What it reads.
    pub host: DocHost<'a>,
    /// An expression script's linked variables.
    expression: Option<LinkedExpression>,
}

impl<'a> ScriptRunner<'a> {
    /// A runner of `script` over `reader`; the compile error (as ES raises it on the
    /// shard) if the script did not compile.
    pub fn new(
        script: &Arc<Script>,
        reader: &'a IndexReader,
        snap: &'a Snapshot,
        access: Access,
    ) -> Result<ScriptRunner<'a>> {
        script.check(Some(&reader.meta.name))?;
        let expression = match script.expression() {
            Some(e) => Some(LinkedExpression::new(script, e, reader, access.context)?),
            None => None,
        };
        let literal = vec![None; script.doc_fields().len()];
        Ok(ScriptRunner {
            script: script.clone(),
            heap: Heap::default(),
            host: DocHost {
                reader,
                snap,
                access,
                doc: 0,
                score: 0.0,
                value: Value::Null,
                literal,
                named: HashMap::new(),
                extra_params: Vec::new(),
            },
            expression,
        })
    }

    /// Runs the script on `doc`: its value, `None` when the request's deadline passed
    /// during the run, or the runtime error as the search fails with it.
    pub fn run(&mut self, doc: u32) -> Result<Option<Value>> {
        self.host.doc = doc;
        let result = match (&mut self.expression, self.script.expression()) {
            (Some(linked), Some(expr)) => linked.run(expr, &mut self.host),
            _ => self.script.run(&mut self.heap, &mut self.host),
        };
        match result {
            Ok(v) => Ok(Some(v)),
            Err(Halt::TimedOut) => Ok(None),
            Err(h) => Err(self.script.failure(Some(&self.host.reader.meta.name), &h)),
        }
    }

    /// Runs the script on `doc` over the heap as the previous run left it, with its
    /// context variables set to `locals` (a scripted metric's scripts, which keep their
    /// state in the heap); as [`ScriptRunner::run`] otherwise.
    pub fn run_resumed(&mut self, doc: u32, locals: &[Value]) -> Result<Option<Value>> {
        self.host.doc = doc;
        match self.script.run_resumed(&mut self.heap, &mut self.host, locals) {
            Ok(v) => Ok(Some(v)),
            Err(Halt::TimedOut) => Ok(None),
            Err(h) => Err(self.script.failure(Some(&self.host.reader.meta.name), &h)),
        }
    }

    /// The name of the index the runner reads.
    pub fn host_index(&self) -> String {
        self.host.reader.meta.name.clone()
    }

    /// The value as JSON (heap references resolved).
    pub fn json(&self, v: &Value) -> serde_json::Value {
        self.heap.to_json(v, 0)
    }

    /// Java's `String.valueOf` of a value.
    pub fn text(&self, v: &Value) -> String {
        self.heap.to_string(v, 0)
    }

    /// The elements of a script's result: a collection's, or the value itself (none for
    /// `null`), as ES's script value sources read them.
    pub fn elements(&self, v: &Value) -> Vec<Value> {
        match v {
            Value::Null => Vec::new(),
            Value::List(i) | Value::Array(i) => self.heap.lists[*i as usize].clone(),
            Value::DocField(i) => self.heap.docs[*i as usize].values.clone(),
            Value::Set(i) => self.heap.maps[*i as usize].iter_java().into_iter().map(|(k, _)| k).collect(),
            other => vec![other.clone()],
        }
    }

    /// A script result as a number (a score, a numeric sort key or metric value), or
    /// the error ES gives when it is not one.
    pub fn number(&self, v: &Value) -> Result<f64> {
        match crate::script::ops::Num::of(v) {
            Some(n) => Ok(n.f64()),
            None => Err(Error::all_shards_failed(
                400,
                Some(&self.host.reader.meta.name),
                Exception::new(
                    "class_cast_exception",
                    format!("Cannot cast [{}] to [java.lang.Number].", Heap::class_name(v)),
                ),
            )),
        }
    }
}
