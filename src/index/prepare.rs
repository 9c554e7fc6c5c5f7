//! Turns parsed documents into what the segment writer indexes: each field's terms
//! (analysed text tokens with their positions, normalized keywords), text lengths and
//! numeric values, and the record the doc store will keep — everything that needs the
//! mapping, so that the writer, which needs none of it, can run on another thread.
//!
//! Documents arrive in load order and are numbered here (load ordinals); the mapping
//! grows as dynamic fields appear, and each field this creates or redefines is announced
//! in the batch before the first document that may use it.

use super::codec::put_varint;
use super::json::Json;
use super::merge::FieldPlan;
use super::segment::NumKind;
use super::{DocSet, ID_FIELD, NESTED_PATH_FIELD, ROUTING_FIELD, TYPE_FIELD};
use crate::error::{Error, Exception, Result};
use crate::mapping::index_prefixes::IndexPrefixes;
use crate::mapping::{FieldMapping, FieldType, FieldValue, Leaf, Mapping};
use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::Value;

/// The largest position Lucene indexes (`IndexWriter.MAX_POSITION`).
const MAX_POSITION: i64 = i32::MAX as i64 - 128;

/// How the writer records one term of a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TermUse {
    /// A text token at this position.
    At(u32),
    /// The document holds the term (booleans, and keywords without doc values).
    Doc,
    /// The document holds the term, which is also its keyword doc value.
    DocValue,
}

/// One term of one document in a [`Prepared`] batch.
#[derive(Clone, Copy, Debug)]
pub struct TermOp {
    /// Field number.
    pub field: u32,
    /// What to record.
    pub kind: TermUse,
    /// The term's bytes in [`Prepared::term_bytes`].
    pub at: usize,
    /// Their length.
    pub len: usize,
}

/// Where a document's entries end in each list of its batch.
#[derive(Clone, Copy, Debug)]
pub struct DocEnd {
    /// End in [`Prepared::ops`].
    pub ops: usize,
    /// End in [`Prepared::lengths`].
    pub lengths: usize,
    /// End in [`Prepared::numbers`].
    pub numbers: usize,
}

/// A field created (or given a new definition) before a document of the batch.
#[derive(Clone, Copy, Debug)]
pub struct FieldNotice {
    /// The batch's document it precedes (the batch's length when it follows them all).
    pub before_doc: usize,
    /// Field number.
    pub field: usize,
    /// What the field stores.
    pub plan: FieldPlan,
}

/// A batch of prepared documents, in load order.
#[derive(Default)]
pub struct Prepared {
    /// Term bytes of every op.
    pub term_bytes: Vec<u8>,
    /// The doc store records of the batch, each after its varint length.
    pub spool: Vec<u8>,
    /// Terms, document after document.
    pub ops: Vec<TermOp>,
    /// Text fields' token counts: (field, length).
    pub lengths: Vec<(u32, u32, u32)>,
    /// Numeric doc values: (field, value bits).
    pub numbers: Vec<(u32, u64)>,
    /// Each document's ends.
    pub docs: Vec<DocEnd>,
    /// Fields announced, in order.
    pub fields: Vec<FieldNotice>,
}

impl Prepared {
    /// Empties the batch, keeping its allocations.
    pub fn clear(&mut self) {
        self.term_bytes.clear();
        self.spool.clear();
        self.ops.clear();
        self.lengths.clear();
        self.numbers.clear();
        self.docs.clear();
        self.fields.clear();
    }

    fn term(&mut self, field: usize, kind: TermUse, bytes: &[u8]) {
        let at = self.term_bytes.len();
        self.term_bytes.extend_from_slice(bytes);
        self.ops.push(TermOp { field: field as u32, kind, at, len: bytes.len() });
    }
}

/// The fields of a load once every document is prepared: the mapping and, by field
/// number, each field's path and plan.
pub struct Schema {
    /// The mapping with every dynamic field added.
    pub mapping: Mapping,
    /// (path, plan) by field number.
    pub fields: Vec<(String, FieldPlan)>,
    /// The load ordinals of nested documents (each precedes its parent).
    pub children: DocSet,
}

impl Schema {
    /// The number of the field at `path`.
    pub fn field(&self, path: &str) -> Option<usize> {
        self.fields.iter().position(|(p, _)| p == path)
    }
}

/// A nested object's document, gathered while its root document is walked.
struct NestedDoc<'v> {
    path: String,
    values: Vec<(usize, FieldValue<'v>)>,
}

/// The nested documents of the root document being walked.
#[derive(Default)]
struct Block<'v> {
    /// In order of appearance (an object before the objects nested in it).
    children: Vec<NestedDoc<'v>>,
    /// Values `include_in_root` adds to the root document.
    root_extra: Vec<(usize, FieldValue<'v>)>,
    /// How many nested objects enclose the walk's position.
    depth: usize,
}

struct FieldSpec {
    mapping: FieldMapping,
    date_format: Option<crate::date::DateFormat>,
    subs: Vec<String>,
    plan: FieldPlan,
    /// A text field's `index_prefixes`: the hidden field's number and the lengths.
    prefixes: Option<(usize, IndexPrefixes)>,
}

impl FieldSpec {
    /// `v` as this field indexes it; `None` for a malformed value the field ignores
    /// (`ignore_malformed`, which coerce resolved from the index setting).
    fn coerce<'v>(&self, v: Leaf<'v>) -> Result<Option<FieldValue<'v>>> {
        match Mapping::coerce_with(&self.mapping, v, self.date_format.as_ref()) {
            Ok(fv) => Ok(Some(fv)),
            Err(_)
                if self.mapping.params.ignore_malformed == Some(true)
                    && self.mapping.ftype.takes_ignore_malformed() =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    fn new(mapping: FieldMapping, subs: Vec<String>) -> Result<FieldSpec> {
        let ftype = mapping.ftype;
        let inverted = match ftype {
            FieldType::Text | FieldType::Keyword | FieldType::Ip | FieldType::Boolean | FieldType::Range(_) => {
                mapping.index
            }
            _ => false,
        };
        // Numbers keep their points and columns whatever `index` and `doc_values` say:
        // one structure serves both range queries and sorting here, and searches refuse
        // what the mapping turns off (`Mapping::fielddata_error`, not indexed fields).
        let doc_values = match ftype {
            FieldType::Text | FieldType::Range(_) => false,
            FieldType::Keyword => mapping.doc_values || !mapping.index,
            FieldType::Ip => mapping.doc_values,
            _ => true,
        };
        let date_format = if ftype.is_date_like() {
            Some(
                crate::date::DateFormat::parse_format(mapping.date_format())
                    .map_err(|e| mapper_error(e.to_string()))?,
            )
        } else {
            None
        };
        let plan = FieldPlan {
            inverted,
            with_freqs: inverted && ftype == FieldType::Text,
            keyword_values: doc_values && ftype.is_keyword_like(),
            numbers: match ftype {
                _ if !doc_values => None,
                FieldType::Text | FieldType::Keyword | FieldType::Ip => None,
                FieldType::Double | FieldType::Float => Some(NumKind::Double),
                _ => Some(NumKind::Long),
            },
        };
        Ok(FieldSpec { mapping, date_format, subs, plan, prefixes: None })
    }

    /// The keyword-like use of a term of this field (`None`: not kept).
    fn keyword_use(&self) -> Option<TermUse> {
        match (self.plan.inverted, self.plan.keyword_values) {
            (_, true) => Some(TermUse::DocValue),
            (true, false) => Some(TermUse::Doc),
            (false, false) => None,
        }
    }

    /// Appends the terms and values of all of this field's values in one document.
    fn prepare<'v>(
        &self,
        field: usize,
        vals: impl Iterator<Item = &'v FieldValue<'v>>,
        lower: &mut String,
        out: &mut Prepared,
    ) -> Result<()> {
        let fm = &self.mapping;
        let plan = self.plan;
        match fm.ftype {
            FieldType::Text => {
                if !plan.inverted {
                    return Ok(());
                }
                // Lucene's FieldInvertState: positions from -1, each token's increment
                // added, the gap added before every value but the first and the stream's
                // final increment after each; tokens stacked on the one before (increment
                // 0) do not count toward the length norm (BM25's discountOverlaps), but
                // every token counts toward the field's sum of term frequencies.
                let gap = i64::from(fm.position_gap());
                let mut length = 0u32;
                let mut tokens = 0u32;
                let mut position = -1i64;
                for (i, v) in vals.enumerate() {
                    let FieldValue::Str(s) = v else { continue };
                    if i > 0 {
                        position += gap;
                    }
                    let end = fm.analyzer.for_each_token(s, lower, |term, increment, _, _| {
                        position += i64::from(increment);
                        length += u32::from(increment > 0);
                        tokens = tokens.saturating_add(1);
                        out.term(field, TermUse::At(position.clamp(0, MAX_POSITION) as u32), term.as_bytes());
                        if let Some((prefix_field, prefixes)) = self.prefixes {
                            prefixes.for_each_prefix(term, |p| out.term(prefix_field, TermUse::Doc, p.as_bytes()));
                        }
                    })?;
                    position += i64::from(end);
                    if position > MAX_POSITION {
                        return Err(Error::illegal_argument(format!(
                            "position overflowed Integer.MAX_VALUE in field [{}]",
                            fm.path
                        )));
                    }
                }
                out.lengths.push((field as u32, length, tokens));
            }
            // An address's or a range's value is already its term (`mapping::ip::term`,
            // `mapping::ranges::term`).
            FieldType::Ip | FieldType::Range(_) => {
                let Some(kind) = self.keyword_use() else { return Ok(()) };
                for v in vals {
                    if let FieldValue::Str(s) = v {
                        out.term(field, kind, s.as_bytes());
                    }
                }
            }
            FieldType::Keyword => {
                let Some(kind) = self.keyword_use() else { return Ok(()) };
                for v in vals {
                    let FieldValue::Str(s) = v else { continue };
                    if let Some(limit) = fm.ignore_above {
                        if s.len() > limit && s.chars().count() > limit {
                            continue;
                        }
                    }
                    match &fm.normalizer {
                        Some(n) => {
                            n.normalize_into(s, lower)?;
                            out.term(field, kind, lower.as_bytes());
                        }
                        None => out.term(field, kind, s.as_bytes()),
                    }
                }
            }
            FieldType::Boolean => {
                for v in vals {
                    let FieldValue::Long(b) = v else { continue };
                    if plan.inverted {
                        out.term(field, TermUse::Doc, if *b != 0 { b"T" } else { b"F" });
                    }
                    if plan.numbers.is_some() {
                        out.numbers.push((field as u32, *b as u64));
                    }
                }
            }
            _ => {
                for v in vals {
                    let bits = match (plan.numbers, v) {
                        (Some(NumKind::Long), FieldValue::Long(n)) => *n as u64,
                        (Some(NumKind::Double), FieldValue::Double(f)) => f.to_bits(),
                        (Some(NumKind::Double), FieldValue::Long(n)) => (*n as f64).to_bits(),
                        _ => continue,
                    };
                    out.numbers.push((field as u32, bits));
                }
            }
        }
        Ok(())
    }
}

fn mapper_error(reason: String) -> Error {
    Error::new(400, Exception::new("mapper_parsing_exception", reason))
}

/// ES 6.8's metadata fields (the mappers `IndicesModule` registers).
const METADATA_FIELDS: [&str; 12] = [
    "_ignored",
    "_uid",
    "_id",
    "_routing",
    "_index",
    "_source",
    "_type",
    "_all",
    "_version",
    "_parent",
    "_seq_no",
    "_field_names",
];

/// Prepares the documents of one load, keeping its mapping and field numbers.
pub struct Preparer {
    mapping: Mapping,
    /// Whether the mapping has nested objects (only then is an object's path looked up).
    has_nested: bool,
    /// The load ordinals of nested documents.
    children: DocSet,
    fields: Vec<FieldSpec>,
    by_path: FxHashMap<String, usize>,
    docs: u32,
    path: String,
    lower: String,
    /// Whether the mapping may hold `completion` fields (their values are read whole,
    /// objects included, rather than walked).
    completions: bool,
    /// The current document's completion inputs, by field number, made into terms once
    /// the whole document is read (a context's `path` may name a later field).
    pending_completions: Vec<(usize, Vec<super::completion_input::Input>)>,
    /// The paths of the mapping's geo points and shapes: their objects and arrays are values, not
    /// objects to walk (empty for most indices, so the walk looks nothing up).
    geo_paths: FxHashSet<String>,
}

impl Preparer {
    /// A preparer that starts from `mapping` (dynamic fields are added as documents arrive).
    pub fn new(mapping: Mapping) -> Preparer {
        let geo_paths = mapping
            .fields
            .values()
            .filter(|f| matches!(f.ftype, FieldType::GeoPoint | FieldType::GeoShape))
            .map(|f| f.path.clone())
            .collect();
        Preparer {
            geo_paths,
            has_nested: mapping.has_nested(),
            children: DocSet::new(),
            fields: Vec::new(),
            by_path: FxHashMap::default(),
            docs: 0,
            path: String::new(),
            lower: String::new(),
            completions: mapping.fields.values().any(|f| f.params.completion.is_some())
                || mapping.dynamic_templates.iter().any(|t| t.raw.to_string().contains("\"completion\"")),
            pending_completions: Vec::new(),
            mapping,
        }
    }

    /// Prepares one document into `out` and returns its load ordinal. On error nothing of
    /// the document is added (the fields its values created stay announced). `routing`
    /// is the routing its action gave, kept as the `_routing` field.
    pub fn prepare(
        &mut self,
        id: &str,
        doc_type: &str,
        routing: Option<&str>,
        source: &Json<'_>,
        raw_source: &[u8],
        out: &mut Prepared,
    ) -> Result<u32> {
        let Some(mut members) = source.members() else {
            return Err(mapper_error("failed to parse, document is empty or not an object".into()));
        };
        // ES 6.8's DocumentParser refuses its metadata fields at the top of a document
        // (MapperService.META_FIELDS); indexing them as fields would mix them with the
        // document's own `_id`, `_type`, ... terms.
        if let Some((name, _)) = members.find(|(k, _)| METADATA_FIELDS.contains(k)) {
            return Err(mapper_error(format!(
                "Field [{name}] is a metadata field and cannot be added inside a document. Use the index API request parameters."
            )));
        }
        if id.is_empty() || id.len() > 512 {
            return Err(Error::illegal_argument(format!(
                "id [{id}] is too long, must be no longer than 512 bytes but was: {}",
                id.len()
            )));
        }
        // Coerce every value first, so a bad value rejects the whole document.
        let mut values: Vec<(usize, FieldValue<'_>)> = Vec::with_capacity(64);
        let mut block = Block::default();
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        self.pending_completions.clear();
        let walked = self.walk(&mut path, source, &mut values, &mut block, out);
        self.path = path;
        walked?;
        values.append(&mut block.root_extra);
        if !self.pending_completions.is_empty() {
            self.completion_terms(&mut values)?;
        }
        // Where the batch's lists stand before this document: an analyzer that refuses a
        // value leaves the batch as it was.
        let marks = (out.term_bytes.len(), out.ops.len(), out.lengths.len(), out.numbers.len());
        let batch_marks = (out.docs.len(), out.spool.len(), self.docs);
        // Nested documents first, as ES 6.8 orders a block: its objects in reverse order
        // of appearance, the root last (so every document follows its own children).
        let mut emitted = Ok(());
        for child in block.children.iter_mut().rev() {
            emitted = self.emit(&[b"", b"", b""], None, &mut child.values, Some(&child.path), out);
            if emitted.is_err() {
                break;
            }
            self.children.insert(self.docs - 1);
        }
        if emitted.is_ok() {
            emitted = self.emit(&[id.as_bytes(), doc_type.as_bytes(), raw_source], routing, &mut values, None, out);
        }
        if let Err(e) = emitted {
            out.term_bytes.truncate(marks.0);
            out.ops.truncate(marks.1);
            out.lengths.truncate(marks.2);
            out.numbers.truncate(marks.3);
            out.docs.truncate(batch_marks.0);
            out.spool.truncate(batch_marks.1);
            while self.docs > batch_marks.2 {
                self.docs -= 1;
                self.children.remove(self.docs);
            }
            return Err(e);
        }
        Ok(self.docs - 1)
    }

    /// Appends one document: its metadata terms (`_id` and `_type` for a root document,
    /// the path for a nested one), its values' terms and its doc-store record
    /// (`parts`: `_id`, `_type`, `_source`; empty for a nested document), and the root's
    /// `routing`.
    fn emit(
        &mut self,
        parts: &[&[u8]; 3],
        routing: Option<&str>,
        values: &mut [(usize, FieldValue<'_>)],
        nested_path: Option<&str>,
        out: &mut Prepared,
    ) -> Result<()> {
        match nested_path {
            None => {
                let id_field = self.meta_field(ID_FIELD, out);
                out.term(id_field, TermUse::DocValue, parts[0]);
                let type_field = self.meta_field(TYPE_FIELD, out);
                out.term(type_field, TermUse::DocValue, parts[1]);
                if let Some(r) = routing {
                    let routing_field = self.meta_field(ROUTING_FIELD, out);
                    out.term(routing_field, TermUse::DocValue, r.as_bytes());
                }
            }
            Some(path) => {
                let field = self.nested_path_field(out);
                out.term(field, TermUse::Doc, path.as_bytes());
            }
        }
        // Group values per field (stable: value order kept) so a multi-valued field is
        // inverted as one field instance.
        values.sort_by_key(|a| a.0);
        let mut i = 0;
        while i < values.len() {
            let mut j = i + 1;
            while j < values.len() && values[j].0 == values[i].0 {
                j += 1;
            }
            let field = values[i].0;
            self.fields[field].prepare(field, values[i..j].iter().map(|(_, v)| v), &mut self.lower, out)?;
            i = j;
        }
        self.docs += 1;
        let record_len = parts.iter().map(|p| varint_len(p.len()) + p.len()).sum::<usize>();
        put_varint(&mut out.spool, record_len as u32);
        for part in parts {
            put_varint(&mut out.spool, part.len() as u32);
            out.spool.extend_from_slice(part);
        }
        out.docs.push(DocEnd { ops: out.ops.len(), lengths: out.lengths.len(), numbers: out.numbers.len() });
        Ok(())
    }

    /// The number of the internal field naming nested documents' paths: inverted only
    /// (a query's child filter), created on first use.
    fn nested_path_field(&mut self, out: &mut Prepared) -> usize {
        if let Some(&i) = self.by_path.get(NESTED_PATH_FIELD) {
            return i;
        }
        let spec = FieldSpec {
            mapping: FieldMapping::new(NESTED_PATH_FIELD, FieldType::Keyword),
            date_format: None,
            subs: Vec::new(),
            plan: FieldPlan { inverted: true, with_freqs: false, keyword_values: false, numbers: None },
            prefixes: None,
        };
        self.insert_field(NESTED_PATH_FIELD, spec, out)
    }

    /// One object under a nested path: a document of its own (its values gathered apart,
    /// its own nested objects after it in `block`), whose values `include_in_parent` and
    /// `include_in_root` also give the enclosing document and the root.
    fn nested_object<'v>(
        &mut self,
        path: &mut String,
        v: &'v Json<'_>,
        params: crate::mapping::NestedParams,
        parent_values: &mut Vec<(usize, FieldValue<'v>)>,
        block: &mut Block<'v>,
        out: &mut Prepared,
    ) -> Result<()> {
        let slot = block.children.len();
        block.children.push(NestedDoc { path: path.clone(), values: Vec::new() });
        let mut own = Vec::new();
        block.depth += 1;
        let walked = self.walk_members(path, v, &mut own, block, out);
        block.depth -= 1;
        walked?;
        if params.include_in_parent {
            parent_values.extend(own.iter().cloned());
        }
        // ES does not add them twice when the parent is the root.
        if params.include_in_root && !(params.include_in_parent && block.depth == 0) {
            block.root_extra.extend(own.iter().cloned());
        }
        block.children[slot].values = own;
        Ok(())
    }

    /// Visits the members of the object `v` at `path`.
    fn walk_members<'v>(
        &mut self,
        path: &mut String,
        v: &'v Json<'_>,
        values: &mut Vec<(usize, FieldValue<'v>)>,
        block: &mut Block<'v>,
        out: &mut Prepared,
    ) -> Result<()> {
        for (k, child) in v.members().into_iter().flatten() {
            let len = path.len();
            if len > 0 {
                path.push('.');
            }
            path.push_str(k);
            let walked = self.walk(path, child, values, block, out);
            path.truncate(len);
            walked?;
        }
        Ok(())
    }

    /// Visits `v` at `path` (objects are mapped as objects, arrays are transparent),
    /// coercing each leaf into `values`.
    fn walk<'v>(
        &mut self,
        path: &mut String,
        v: &'v Json<'_>,
        values: &mut Vec<(usize, FieldValue<'v>)>,
        block: &mut Block<'v>,
        out: &mut Prepared,
    ) -> Result<()> {
        // An object mapped `enabled: false` is kept in `_source` only, whatever it holds.
        if !path.is_empty() && self.mapping.is_disabled_object(path) {
            return Ok(());
        }
        if self.completions && self.mapping.field(path).is_some_and(|f| f.params.completion.is_some()) {
            return self.completion_value(path, v, out);
        }
        if !self.geo_paths.is_empty() && self.geo_paths.contains(path.as_str()) {
            return self.geo_point(path, v, values, out);
        }
        match v {
            Json::Object(_) => {
                if !path.is_empty() {
                    if let Some(FieldType::Range(kind)) = self.mapping.field(path).map(|f| f.ftype) {
                        return self.range_object(path, kind, v, values, out);
                    }
                    self.object(path)?;
                    if let Some(params) = self.has_nested.then(|| self.mapping.nested_at(path)).flatten() {
                        return self.nested_object(path, v, params, values, block, out);
                    }
                }
                self.walk_members(path, v, values, block, out)
            }
            Json::Array(a) => a.iter().try_for_each(|item| self.walk(path, item, values, block, out)),
            Json::Null => self.null(path, values, out),
            Json::Str(s) => self.leaf(path, Leaf::Str(s), values, out, true),
            Json::Number(n) => self.leaf(path, Leaf::Number(n), values, out, true),
            Json::Bool(b) => self.leaf(path, Leaf::Bool(*b), values, out, true),
        }
    }

    /// A geo point field's value (a point in any form, an array of them, `null`): its
    /// points as packed longs; a geo shape's: its shapes' box corners, packed alike.
    fn geo_point<'v>(
        &mut self,
        path: &str,
        v: &Json<'_>,
        values: &mut Vec<(usize, FieldValue<'v>)>,
        out: &mut Prepared,
    ) -> Result<()> {
        if !self.by_path.contains_key(path) {
            self.prepare_field(path, out)?;
        }
        let Some(&field) = self.by_path.get(path) else { return Ok(()) };
        let fm = &self.fields[field].mapping;
        let value = match v {
            Json::Null => match &fm.params.null_value {
                Some(nv) => nv.clone(),
                None => return Ok(()),
            },
            other => other.to_value(),
        };
        if fm.ftype == FieldType::GeoShape {
            let mut corners = Vec::new();
            crate::mapping::geo_shape::packed_corners(fm, &value, &mut corners)?;
            values.extend(corners.into_iter().map(|c| (field, FieldValue::Long(c))));
            return Ok(());
        }
        let mut points = Vec::new();
        crate::mapping::geo_points_of(fm, &value, &mut points)?;
        values.extend(points.into_iter().map(|p| (field, FieldValue::Long(crate::geo::pack(p)))));
        Ok(())
    }

    /// An explicit `null`: a mapped field with a `null_value` indexes that instead (its
    /// multi-fields their own); anything else indexes nothing, as in ES.
    fn null<'v>(&mut self, path: &str, values: &mut Vec<(usize, FieldValue<'v>)>, out: &mut Prepared) -> Result<()> {
        if self.mapping.field(path).is_none() {
            return Ok(());
        }
        if !self.by_path.contains_key(path) {
            self.prepare_field(path, out)?;
        }
        let Some(&field) = self.by_path.get(path) else { return Ok(()) };
        let spec = &self.fields[field];
        let mut fields = vec![field];
        fields.extend(spec.subs.iter().filter_map(|sub| self.by_path.get(sub.as_str()).copied()));
        for f in fields {
            let spec = &self.fields[f];
            let Some(nv) = &spec.mapping.params.null_value else { continue };
            let leaf = match nv {
                Value::String(s) => Leaf::Str(s),
                Value::Number(n) => Leaf::Number(n),
                Value::Bool(b) => Leaf::Bool(*b),
                _ => continue,
            };
            let fv = Mapping::coerce_with(&spec.mapping, leaf, spec.date_format.as_ref())?.into_owned();
            values.push((f, fv));
        }
        Ok(())
    }

    /// A range field's object value (`{"gte": .., "lt": ..}`) as its one term.
    fn range_object<'v>(
        &mut self,
        path: &str,
        kind: crate::mapping::ranges::RangeKind,
        v: &'v Json<'_>,
        values: &mut Vec<(usize, FieldValue<'v>)>,
        out: &mut Prepared,
    ) -> Result<()> {
        if !self.by_path.contains_key(path) {
            self.prepare_field(path, out)?;
        }
        let Some(&field) = self.by_path.get(path) else { return Ok(()) };
        let spec = &self.fields[field];
        let mut members = Vec::new();
        for (k, child) in v.members().into_iter().flatten() {
            let leaf = match child {
                Json::Str(s) => Some(Leaf::Str(s)),
                Json::Number(n) => Some(Leaf::Number(n)),
                Json::Bool(b) => Some(Leaf::Bool(*b)),
                Json::Null => None,
                Json::Object(_) | Json::Array(_) => {
                    return Err(mapper_error(format!("failed to parse field [{path}] of type [{}]", kind.name())))
                }
            };
            members.push((k, leaf));
        }
        let term = crate::mapping::ranges::object_term(&spec.mapping, kind, &members, spec.date_format.as_ref())?;
        values.push((field, FieldValue::Str(std::borrow::Cow::Owned(term))));
        Ok(())
    }

    fn object(&mut self, path: &str) -> Result<()> {
        if self.mapping.field(path).is_some() {
            return Err(mapper_error(format!(
                "failed to parse field [{path}]: a concrete field cannot hold an object"
            )));
        }
        if !self.mapping.is_object(path) {
            // Dynamic mapping looks only at the kind of an object.
            self.mapping.map_dynamic(path, &Value::Object(Default::default()))?;
        }
        Ok(())
    }

    /// Coerces `v` into the field at `path` (mapping it if new) and its multi-fields,
    /// then, unless this is a copy already (`copy_to` does not chain), into its
    /// `copy_to` targets.
    fn leaf<'v>(
        &mut self,
        path: &str,
        v: Leaf<'v>,
        values: &mut Vec<(usize, FieldValue<'v>)>,
        out: &mut Prepared,
        follow_copies: bool,
    ) -> Result<()> {
        let field = match self.by_path.get(path) {
            Some(&field) => field,
            None => {
                if self.mapping.aliases.contains_key(path) {
                    return Err(mapper_error(format!("Cannot write to a field alias [{path}].")));
                }
                if self.mapping.field(path).is_none() {
                    if self.mapping.is_object(path) {
                        return Err(mapper_error(format!(
                            "object mapping for [{path}] tried to parse field [{path}] as object, but found a concrete value"
                        )));
                    }
                    let first = match v {
                        Leaf::Str(s) => Value::String(s.to_string()),
                        Leaf::Number(n) => Value::Number(n.clone()),
                        Leaf::Bool(b) => Value::Bool(b),
                    };
                    if !self.mapping.map_dynamic(path, &first)? {
                        return Ok(());
                    }
                }
                self.prepare_field(path, out)?;
                match self.by_path.get(path) {
                    Some(&field) => field,
                    None => return Ok(()),
                }
            }
        };
        if self.completions {
            // A completion field reached as a copy or a multi-field takes the value as
            // one input, as ES's completion mapper reads a lone value.
            let as_json = match v {
                Leaf::Str(s) => Json::Str(std::borrow::Cow::Borrowed(s)),
                Leaf::Number(n) => Json::Number(n.clone()),
                Leaf::Bool(b) => Json::Bool(b),
            };
            if self.fields[field].mapping.params.completion.is_some() {
                return self.completion_value(path, &as_json, out);
            }
            let subs = self.fields[field].subs.clone();
            for sub in subs {
                let completion = self
                    .by_path
                    .get(sub.as_str())
                    .is_some_and(|&si| self.fields[si].mapping.params.completion.is_some());
                if completion {
                    self.completion_value(&sub, &as_json, out)?;
                }
            }
        }
        let spec = &self.fields[field];
        let fv = spec.coerce(v)?;
        for sub in spec.subs.iter() {
            if let Some(&si) = self.by_path.get(sub.as_str()) {
                if self.fields[si].mapping.params.completion.is_some() {
                    continue;
                }
                if let Some(sv) = self.fields[si].coerce(v)? {
                    values.push((si, sv));
                }
            }
        }
        if let Some(fv) = fv {
            values.push((field, fv));
        }
        if follow_copies && !self.fields[field].mapping.params.copy_to.is_empty() {
            for target in self.fields[field].mapping.params.copy_to.clone() {
                if self.mapping.is_object(&target) {
                    return Err(mapper_error(format!(
                        "Cannot copy to field [{target}] since it is mapped as an object"
                    )));
                }
                self.leaf(&target, v, values, out, false)?;
            }
        }
        Ok(())
    }

    /// Reads a completion field's whole value (see `completion_input`).
    fn completion_value(&mut self, path: &str, v: &Json<'_>, out: &mut Prepared) -> Result<()> {
        if !self.by_path.contains_key(path) {
            self.prepare_field(path, out)?;
        }
        let Some(&field) = self.by_path.get(path) else { return Ok(()) };
        let Some(mapping) = self.fields[field].mapping.params.completion.as_deref() else { return Ok(()) };
        let mut inputs = Vec::new();
        super::completion_input::read_inputs(path, mapping, v, &mut inputs)
            .map_err(|e| mapper_error(format!("failed to parse [{path}]: {}", e.reason())))?;
        match self.pending_completions.iter_mut().find(|(f, _)| *f == field) {
            Some((_, pending)) => pending.extend(inputs),
            None => self.pending_completions.push((field, inputs)),
        }
        Ok(())
    }

    /// Turns the document's completion inputs into their entry terms, each context's
    /// `path` values taken from the document's values of that field.
    fn completion_terms<'v>(&mut self, values: &mut Vec<(usize, FieldValue<'v>)>) -> Result<()> {
        for (field, inputs) in std::mem::take(&mut self.pending_completions) {
            let spec = &self.fields[field];
            let Some(mapping) = spec.mapping.params.completion.as_deref() else { continue };
            let path_values = |i: usize| -> Vec<String> {
                let Some(source) = mapping.contexts[i].path.as_deref().and_then(|p| self.by_path.get(p)) else {
                    return Vec::new();
                };
                values
                    .iter()
                    .filter(|(f, _)| f == source)
                    .filter_map(|(_, v)| match v {
                        FieldValue::Str(s) => Some(s.to_string()),
                        _ => None,
                    })
                    .collect()
            };
            let terms = super::completion_input::entry_terms(&spec.mapping.path, mapping, &inputs, &path_values)
                .map_err(|e| mapper_error(format!("failed to parse [{}]: {}", spec.mapping.path, e.reason())))?;
            values.extend(terms.into_iter().map(|t| (field, FieldValue::Str(std::borrow::Cow::Owned(t)))));
        }
        Ok(())
    }

    /// Creates the field at `path` and its multi-fields from the mapping.
    fn prepare_field(&mut self, path: &str, out: &mut Prepared) -> Result<()> {
        let Some(fm) = self.resolved_field(path) else {
            return Ok(());
        };
        let subs: Vec<String> = fm.multi_fields.iter().map(|s| format!("{path}.{s}")).collect();
        for sub in &subs {
            if !self.by_path.contains_key(sub.as_str()) {
                if let Some(sfm) = self.resolved_field(sub) {
                    let spec = self.field_spec(sfm, Vec::new(), out)?;
                    self.insert_field(sub, spec, out);
                }
            }
        }
        let spec = self.field_spec(fm, subs, out)?;
        self.insert_field(path, spec, out);
        Ok(())
    }

    /// The spec of a field, with the hidden field of its `index_prefixes` created.
    fn field_spec(&mut self, fm: FieldMapping, subs: Vec<String>, out: &mut Prepared) -> Result<FieldSpec> {
        let prefixes = match fm.params.index_prefixes {
            Some(p) if fm.index && fm.ftype == FieldType::Text => Some((self.prefix_field(&fm.path, out), p)),
            _ => None,
        };
        let mut spec = FieldSpec::new(fm, subs)?;
        spec.prefixes = prefixes;
        Ok(spec)
    }

    /// The number of the hidden field holding the prefixes of the text field at `path`
    /// (`IndexPrefixes::hidden_field`: terms only, no frequencies nor positions, as
    /// prefix queries score constantly), created on first use.
    fn prefix_field(&mut self, path: &str, out: &mut Prepared) -> usize {
        let hidden = IndexPrefixes::hidden_field(path);
        if let Some(&i) = self.by_path.get(hidden.as_str()) {
            return i;
        }
        let spec = FieldSpec {
            mapping: FieldMapping::new(&hidden, FieldType::Keyword),
            date_format: None,
            subs: Vec::new(),
            plan: FieldPlan { inverted: true, with_freqs: false, keyword_values: false, numbers: None },
            prefixes: None,
        };
        self.insert_field(&hidden, spec, out)
    }

    /// The field at `path` with `coerce` and `ignore_malformed` resolved: its own, else
    /// the index's `index.mapping.*` settings.
    fn resolved_field(&self, path: &str) -> Option<FieldMapping> {
        let mut fm = self.mapping.field(path).cloned()?;
        fm.params.coerce.get_or_insert(!self.mapping.index_no_coerce);
        fm.params.ignore_malformed.get_or_insert(self.mapping.index_ignore_malformed);
        Some(fm)
    }

    /// The mapping as it stands (with the fields mapped so far).
    pub fn mapping(&self) -> &Mapping {
        &self.mapping
    }

    fn insert_field(&mut self, path: &str, spec: FieldSpec, out: &mut Prepared) -> usize {
        let plan = spec.plan;
        let field = match self.by_path.get(path) {
            Some(&i) => {
                // Redefined: the writer keeps what the field gathered so far.
                self.fields[i] = spec;
                i
            }
            None => {
                self.fields.push(spec);
                self.by_path.insert(path.to_string(), self.fields.len() - 1);
                self.fields.len() - 1
            }
        };
        out.fields.push(FieldNotice { before_doc: out.docs.len(), field, plan });
        field
    }

    /// The number of an internal keyword field (`_id`, `_type`), created on first use.
    fn meta_field(&mut self, path: &str, out: &mut Prepared) -> usize {
        if let Some(&i) = self.by_path.get(path) {
            return i;
        }
        let spec = FieldSpec {
            mapping: FieldMapping::new(path, FieldType::Keyword),
            date_format: None,
            subs: Vec::new(),
            plan: FieldPlan { inverted: true, with_freqs: false, keyword_values: true, numbers: None },
            prefixes: None,
        };
        self.insert_field(path, spec, out)
    }

    /// The mapping and fields, once every document is prepared.
    pub fn into_schema(self) -> Schema {
        let mut paths = vec![String::new(); self.fields.len()];
        for (path, &i) in &self.by_path {
            paths[i] = path.clone();
        }
        let fields = paths.into_iter().zip(self.fields).map(|(p, f)| (p, f.plan)).collect();
        Schema { mapping: self.mapping, fields, children: self.children }
    }
}

fn varint_len(n: usize) -> usize {
    let mut len = 1;
    let mut n = n >> 7;
    while n > 0 {
        len += 1;
        n >>= 7;
    }
    len
}

/// The parts of a spooled document record: `_id`, `_type` and `_source`.
pub fn spooled_parts(rec: &[u8]) -> Result<[&[u8]; 3]> {
    let mut at = 0;
    let mut part = || -> Option<&[u8]> {
        let len = super::codec::get_varint(rec, &mut at)? as usize;
        let bytes = rec.get(at..at.checked_add(len)?)?;
        at += len;
        Some(bytes)
    };
    match (part(), part(), part()) {
        (Some(id), Some(doc_type), Some(source)) => Ok([id, doc_type, source]),
        _ => Err(Error::storage("load temporary file: damaged document")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_fields_are_refused_inside_documents() {
        let mut p = Preparer::new(Mapping::default());
        let mut out = Prepared::default();
        let text = r#"{"_id": "a", "name": "blast aligner"}"#;
        let e = p
            .prepare("a", "_doc", None, &Json::parse(text.as_bytes()).unwrap(), text.as_bytes(), &mut out)
            .err()
            .map(|e| (e.kind().to_string(), e.reason().to_string()));
        assert_eq!(
            e,
            Some((
                "mapper_parsing_exception".into(),
                "Field [_id] is a metadata field and cannot be added inside a document. Use the index API request parameters."
                    .into()
            ))
        );
        // Below the top level the name is an ordinary field, as in ES.
        let nested = r#"{"item": {"_id": "x"}}"#;
        assert_eq!(
            p.prepare("b", "_doc", None, &Json::parse(nested.as_bytes()).unwrap(), nested.as_bytes(), &mut out).ok(),
            Some(0)
        );
        assert_eq!(out.docs.len(), 1);
    }

    #[test]
    fn a_multi_valued_text_field_is_one_instance_with_the_position_gap() {
        let mut p = Preparer::new(Mapping::default());
        let mut out = Prepared::default();
        let doc = Json::parse(br#"{"t": ["a b", "c"]}"#).unwrap();
        p.prepare("1", "_doc", None, &doc, b"{}", &mut out).unwrap();
        let t = p.by_path["t"];
        let text: Vec<(String, TermUse)> = out
            .ops
            .iter()
            .filter(|o| o.field as usize == t)
            .map(|o| (String::from_utf8_lossy(&out.term_bytes[o.at..o.at + o.len]).into_owned(), o.kind))
            .collect();
        assert_eq!(
            text,
            vec![("a".into(), TermUse::At(0)), ("b".into(), TermUse::At(1)), ("c".into(), TermUse::At(102))]
        );
        assert!(out.lengths.contains(&(t as u32, 3, 3)));
        // The dynamic keyword sub-field holds each value whole, as its doc value.
        let kw = p.by_path["t.keyword"];
        let kws: Vec<&[u8]> =
            out.ops.iter().filter(|o| o.field as usize == kw).map(|o| &out.term_bytes[o.at..o.at + o.len]).collect();
        assert_eq!(kws, vec![&b"a b"[..], &b"c"[..]]);
        // Every field was announced before the document.
        assert!(out.fields.iter().all(|f| f.before_doc == 0));
        assert_eq!(out.fields.len(), p.fields.len());
    }
}
