//! ES 6.8 mappings: the field schema of one index, dynamic mapping, multi-fields and the
//! gateway's index templates.

mod dynamic;
mod templates;

pub use dynamic::{simple_match, DynamicTemplate};
pub use templates::{family_template, Family};

use crate::analysis::definition::AnalysisRegistry;
use crate::analysis::{Analyzer, Normalizer};
use crate::error::{Error, Exception, Result};
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The field types we index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// Analyzed full text.
    Text,
    /// One exact term per value.
    Keyword,
    /// 64-bit integer.
    Long,
    /// 32-bit integer.
    Integer,
    /// 16-bit integer.
    Short,
    /// 8-bit integer.
    Byte,
    /// 64-bit float.
    Double,
    /// 32-bit float.
    Float,
    /// `true` / `false`.
    Boolean,
    /// Milliseconds since the epoch, parsed with the field's format.
    Date,
}

impl FieldType {
    /// Parses an ES type name (`object` and `nested` are handled by the caller).
    pub fn from_name(name: &str) -> Option<FieldType> {
        Some(match name {
            "text" => FieldType::Text,
            "keyword" => FieldType::Keyword,
            "long" => FieldType::Long,
            "integer" => FieldType::Integer,
            "short" => FieldType::Short,
            "byte" => FieldType::Byte,
            "double" => FieldType::Double,
            "float" | "half_float" | "scaled_float" => FieldType::Float,
            "boolean" => FieldType::Boolean,
            "date" => FieldType::Date,
            _ => return None,
        })
    }

    /// The ES type name.
    pub fn name(self) -> &'static str {
        match self {
            FieldType::Text => "text",
            FieldType::Keyword => "keyword",
            FieldType::Long => "long",
            FieldType::Integer => "integer",
            FieldType::Short => "short",
            FieldType::Byte => "byte",
            FieldType::Double => "double",
            FieldType::Float => "float",
            FieldType::Boolean => "boolean",
            FieldType::Date => "date",
        }
    }

    /// Integer types (stored as i64 doc values).
    pub fn is_integer(self) -> bool {
        matches!(self, FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte)
    }

    /// Numeric types, dates and booleans: values kept as numbers in doc values.
    pub fn is_numeric_like(self) -> bool {
        !matches!(self, FieldType::Text | FieldType::Keyword)
    }

    /// Range of values an integer type accepts.
    fn integer_bounds(self) -> (i64, i64) {
        match self {
            FieldType::Integer => (i32::MIN as i64, i32::MAX as i64),
            FieldType::Short => (i16::MIN as i64, i16::MAX as i64),
            FieldType::Byte => (i8::MIN as i64, i8::MAX as i64),
            _ => (i64::MIN, i64::MAX),
        }
    }
}

/// One mapped leaf field (a multi-field is a field of its own, path `parent.sub`).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldMapping {
    /// Full dotted name, as queries address it.
    pub path: String,
    /// The field type.
    pub ftype: FieldType,
    /// Index-time analyzer (text fields).
    pub analyzer: Analyzer,
    /// Query-time analyzer (text fields).
    pub search_analyzer: Analyzer,
    /// Query-time analyzer of quoted text (query_string's and simple_query_string's
    /// phrases, `match_phrase`).
    pub search_quote_analyzer: Analyzer,
    /// Positions between the values of a multi-valued text field, where the mapping sets
    /// them (else the index analyzer's).
    pub position_increment_gap: Option<u32>,
    /// Keyword normalizer.
    pub normalizer: Option<Normalizer>,
    /// Keyword values longer than this many characters are not indexed.
    pub ignore_above: Option<usize>,
    /// Whether the field is searchable.
    pub index: bool,
    /// Whether doc values are kept (sort, aggregations).
    pub doc_values: bool,
    /// Date format (`date` fields).
    pub format: Option<String>,
    /// Sub-field names (`fields`), in mapping order.
    pub multi_fields: Vec<String>,
    /// For a multi-field, the path of its parent.
    pub parent: Option<String>,
}

impl FieldMapping {
    /// A field of `ftype` with ES defaults.
    pub fn new(path: &str, ftype: FieldType) -> FieldMapping {
        FieldMapping {
            path: path.to_string(),
            ftype,
            analyzer: Analyzer::index_default(),
            search_analyzer: Analyzer::index_default(),
            search_quote_analyzer: Analyzer::index_default(),
            position_increment_gap: None,
            normalizer: None,
            ignore_above: None,
            index: true,
            doc_values: ftype != FieldType::Text,
            format: if ftype == FieldType::Date { Some(DEFAULT_DATE_FORMAT.to_string()) } else { None },
            multi_fields: Vec::new(),
            parent: None,
        }
    }

    /// Positions between the values of a multi-valued text field.
    pub fn position_gap(&self) -> u32 {
        self.position_increment_gap.unwrap_or_else(|| self.analyzer.position_increment_gap())
    }

    /// A value as this field indexes it whole: normalized for a keyword with a
    /// normalizer, else as given (what term-level queries look up).
    pub fn keyword_term(&self, value: &str) -> Result<String> {
        match (&self.normalizer, self.ftype) {
            (Some(n), FieldType::Keyword) => n.normalize(value),
            _ => Ok(value.to_string()),
        }
    }

    /// The date format to use for this field.
    pub fn date_format(&self) -> &str {
        self.format.as_deref().unwrap_or(DEFAULT_DATE_FORMAT)
    }

    /// Renders the field as ES mapping JSON (without its sub-fields).
    fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), json!(self.ftype.name()));
        if self.ftype == FieldType::Text {
            // ES's FieldMapper.doXContentAnalyzers: the analyzers print from the first
            // one that is not the default.
            let search_differs = self.search_analyzer != self.analyzer;
            let quote_differs = self.search_quote_analyzer != self.search_analyzer;
            if self.analyzer.name() != "default" || search_differs || quote_differs {
                m.insert("analyzer".into(), json!(self.analyzer.name()));
                if search_differs || quote_differs {
                    m.insert("search_analyzer".into(), json!(self.search_analyzer.name()));
                    if quote_differs {
                        m.insert("search_quote_analyzer".into(), json!(self.search_quote_analyzer.name()));
                    }
                }
            }
            if let Some(gap) = self.position_increment_gap {
                m.insert("position_increment_gap".into(), json!(gap));
            }
        }
        if let Some(n) = &self.normalizer {
            m.insert("normalizer".into(), json!(n.name()));
        }
        if let Some(i) = self.ignore_above {
            m.insert("ignore_above".into(), json!(i));
        }
        if !self.index {
            m.insert("index".into(), json!(false));
        }
        if !self.doc_values && self.ftype != FieldType::Text {
            m.insert("doc_values".into(), json!(false));
        }
        if self.ftype == FieldType::Date && self.date_format() != DEFAULT_DATE_FORMAT {
            m.insert("format".into(), json!(self.date_format()));
        }
        Value::Object(m)
    }
}

/// ES's default format for `date` fields.
pub const DEFAULT_DATE_FORMAT: &str = "strict_date_optional_time||epoch_millis";

/// The mapping of one index: every leaf field by its full path, plus the dynamic rules.
#[derive(Debug, Clone, PartialEq)]
pub struct Mapping {
    /// Leaf fields (including multi-fields) by full path.
    pub fields: BTreeMap<String, FieldMapping>,
    /// Object paths (for `exists` and wildcard expansion).
    pub objects: BTreeMap<String, ()>,
    /// Top-level field order of first appearance, for rendering.
    order: Vec<String>,
    /// Dynamic templates, tried in order for unmapped fields.
    pub dynamic_templates: Vec<DynamicTemplate>,
    /// Formats tried for dynamic date detection.
    pub dynamic_date_formats: Vec<String>,
    /// Whether string values are checked for dates.
    pub date_detection: bool,
    /// `dynamic`: true (map new fields), false (ignore them), strict (reject).
    pub dynamic: Dynamic,
    /// The index's analysis: what fields' `analyzer`, `search_analyzer`, ... and
    /// `normalizer` names, and a query's `analyzer`, resolve through.
    pub analysis: AnalysisRegistry,
}

/// What happens to fields the mapping does not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dynamic {
    /// Add them to the mapping.
    True,
    /// Keep them in `_source` only.
    False,
    /// Reject the document.
    Strict,
}

impl Default for Mapping {
    fn default() -> Mapping {
        Mapping {
            fields: BTreeMap::new(),
            objects: BTreeMap::new(),
            order: Vec::new(),
            dynamic_templates: Vec::new(),
            dynamic_date_formats: vec![
                "strict_date_optional_time".into(),
                "yyyy/MM/dd HH:mm:ss Z||yyyy/MM/dd Z".into(),
            ],
            date_detection: true,
            dynamic: Dynamic::True,
            analysis: AnalysisRegistry::empty_index(),
        }
    }
}

fn mapper_parsing(reason: impl Into<String>) -> Error {
    Error::new(400, Exception::new("mapper_parsing_exception", reason))
}

impl Mapping {
    /// Parses ES mapping JSON of an index without analysis settings (see [`Mapping::parse`]).
    #[cfg(test)]
    pub fn from_json(v: &Value) -> Result<Mapping> {
        Mapping::parse(v, AnalysisRegistry::empty_index())
    }

    /// Parses ES mapping JSON: either `{"properties": ..}` or `{"<type>": {"properties": ..}}`
    /// (6.x mappings are keyed by the type name), with the index's analysis.
    pub fn parse(v: &Value, analysis: AnalysisRegistry) -> Result<Mapping> {
        let obj = v.as_object().ok_or_else(|| mapper_parsing("mapping must be an object"))?;
        let body = if obj.contains_key("properties")
            || obj.contains_key("dynamic_templates")
            || obj.contains_key("dynamic")
            || obj.is_empty()
        {
            v
        } else if obj.len() == 1 {
            obj.values().next().unwrap_or(v)
        } else {
            v
        };
        let mut m = Mapping { analysis, ..Mapping::default() };
        if let Some(d) = body.get("dynamic") {
            m.dynamic = match d {
                Value::Bool(true) => Dynamic::True,
                Value::Bool(false) => Dynamic::False,
                Value::String(s) if s == "true" => Dynamic::True,
                Value::String(s) if s == "false" => Dynamic::False,
                Value::String(s) if s == "strict" => Dynamic::Strict,
                _ => return Err(mapper_parsing(format!("Could not convert [dynamic] to boolean: {d}"))),
            };
        }
        if let Some(dd) = body.get("date_detection") {
            m.date_detection = dd.as_bool().unwrap_or(true);
        }
        if let Some(Value::Array(fmts)) = body.get("dynamic_date_formats") {
            m.dynamic_date_formats = fmts.iter().filter_map(|f| f.as_str().map(str::to_string)).collect();
        }
        if let Some(Value::Array(ts)) = body.get("dynamic_templates") {
            for t in ts {
                m.dynamic_templates.push(DynamicTemplate::from_json(t)?);
            }
        }
        if let Some(props) = body.get("properties") {
            m.add_properties("", props)?;
        }
        Ok(m)
    }

    fn add_properties(&mut self, prefix: &str, props: &Value) -> Result<()> {
        let props = props.as_object().ok_or_else(|| mapper_parsing("[properties] must be an object"))?;
        for (name, def) in props {
            let path = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
            self.add_definition(&path, def)?;
        }
        Ok(())
    }

    /// Adds one field or object definition at `path`.
    pub fn add_definition(&mut self, path: &str, def: &Value) -> Result<()> {
        let tname = def.get("type").and_then(Value::as_str);
        match tname {
            None | Some("object") => {
                self.note_object(path);
                if let Some(props) = def.get("properties") {
                    self.add_properties(path, props)?;
                }
                Ok(())
            }
            Some("nested") => {
                Err(mapper_parsing(format!("[nested] fields are not supported (field [{path}]); map it as [object]")))
            }
            Some(t) => {
                let ftype = FieldType::from_name(t).ok_or_else(|| {
                    mapper_parsing(format!(
                        "No handler for type [{t}] declared on field [{}]",
                        path.rsplit('.').next().unwrap_or(path)
                    ))
                })?;
                let field = parse_field(path, ftype, def, &self.analysis)?;
                self.note_parents(path);
                let subs = def.get("fields").and_then(Value::as_object).cloned();
                self.insert_field(field);
                if let Some(subs) = subs {
                    for (sub, sdef) in subs {
                        let stype = sdef.get("type").and_then(Value::as_str).unwrap_or("object");
                        let sft = FieldType::from_name(stype).ok_or_else(|| {
                            mapper_parsing(format!("No handler for type [{stype}] declared on field [{sub}]"))
                        })?;
                        let spath = format!("{path}.{sub}");
                        let mut sf = parse_field(&spath, sft, &sdef, &self.analysis)?;
                        sf.parent = Some(path.to_string());
                        if let Some(p) = self.fields.get_mut(path) {
                            if !p.multi_fields.contains(&sub) {
                                p.multi_fields.push(sub.clone());
                            }
                        }
                        self.fields.insert(spath, sf);
                    }
                }
                Ok(())
            }
        }
    }

    fn insert_field(&mut self, field: FieldMapping) {
        let top = field.path.split('.').next().unwrap_or("").to_string();
        if !self.order.contains(&top) {
            self.order.push(top);
        }
        self.fields.insert(field.path.clone(), field);
    }

    fn note_object(&mut self, path: &str) {
        self.note_parents(path);
        self.objects.insert(path.to_string(), ());
        let top = path.split('.').next().unwrap_or("").to_string();
        if !self.order.contains(&top) {
            self.order.push(top);
        }
    }

    fn note_parents(&mut self, path: &str) {
        let mut end = 0;
        while let Some(i) = path[end..].find('.') {
            let p = &path[..end + i];
            self.objects.insert(p.to_string(), ());
            end += i + 1;
        }
    }

    /// The field at `path`, if mapped.
    pub fn field(&self, path: &str) -> Option<&FieldMapping> {
        self.fields.get(path)
    }

    /// Whether `path` is an object in this mapping.
    pub fn is_object(&self, path: &str) -> bool {
        self.objects.contains_key(path)
    }

    /// Renders the mapping as ES JSON `{"properties": ...}`.
    pub fn to_json(&self) -> Value {
        let mut root = Map::new();
        // The rules for fields not mapped yet, where they differ from ES's defaults.
        match self.dynamic {
            Dynamic::True => {}
            Dynamic::False => {
                root.insert("dynamic".into(), json!("false"));
            }
            Dynamic::Strict => {
                root.insert("dynamic".into(), json!("strict"));
            }
        }
        if self.dynamic_date_formats != Mapping::default().dynamic_date_formats {
            root.insert("dynamic_date_formats".into(), json!(self.dynamic_date_formats));
        }
        if !self.date_detection {
            root.insert("date_detection".into(), json!(false));
        }
        if !self.dynamic_templates.is_empty() {
            root.insert(
                "dynamic_templates".into(),
                Value::Array(self.dynamic_templates.iter().map(|t| t.raw.clone()).collect()),
            );
        }
        let mut props = Map::new();
        for (path, f) in &self.fields {
            if f.parent.is_some() {
                continue;
            }
            let mut leaf = f.to_json();
            if !f.multi_fields.is_empty() {
                let mut subs = Map::new();
                for s in &f.multi_fields {
                    if let Some(sf) = self.fields.get(&format!("{path}.{s}")) {
                        subs.insert(s.clone(), sf.to_json());
                    }
                }
                leaf["fields"] = Value::Object(subs);
            }
            insert_at(&mut props, path, leaf);
        }
        for path in self.objects.keys() {
            ensure_object(&mut props, path);
        }
        root.insert("properties".into(), Value::Object(sort_props(props)));
        Value::Object(root)
    }

    /// Paths of every searchable leaf field, in path order.
    pub fn field_paths(&self) -> impl Iterator<Item = &String> {
        self.fields.keys()
    }

    /// Coerces a JSON leaf into the field's type, as ES does at index time (with the
    /// date format already parsed: the loader parses it once).
    pub fn coerce_with<'v>(
        field: &FieldMapping,
        v: Leaf<'v>,
        date_format: Option<&crate::date::DateFormat>,
    ) -> Result<FieldValue<'v>> {
        let bad = |what: &str| mapper_parsing(format!("failed to parse field [{}] of type [{}]", field.path, what));
        match field.ftype {
            FieldType::Text | FieldType::Keyword => match v {
                Leaf::Str(s) => Ok(FieldValue::Str(Cow::Borrowed(s))),
                Leaf::Number(n) => Ok(FieldValue::Str(Cow::Owned(n.to_string()))),
                Leaf::Bool(b) => Ok(FieldValue::Str(Cow::Borrowed(if b { "true" } else { "false" }))),
            },
            t if t.is_integer() => {
                let n =
                    match v {
                        Leaf::Number(n) => {
                            n.as_i64().or_else(|| n.as_f64().filter(|f| f.is_finite()).map(|f| f.trunc() as i64))
                        }
                        Leaf::Str(s) => s.trim().parse::<i64>().ok().or_else(|| {
                            s.trim().parse::<f64>().ok().filter(|f| f.is_finite()).map(|f| f.trunc() as i64)
                        }),
                        Leaf::Bool(_) => None,
                    }
                    .ok_or_else(|| bad(t.name()))?;
                let (lo, hi) = t.integer_bounds();
                if n < lo || n > hi {
                    return Err(mapper_parsing(format!(
                        "failed to parse field [{}] of type [{}]: Value [{n}] is out of range",
                        field.path,
                        t.name()
                    )));
                }
                Ok(FieldValue::Long(n))
            }
            FieldType::Double | FieldType::Float => {
                let f = match v {
                    Leaf::Number(n) => n.as_f64(),
                    Leaf::Str(s) => s.trim().parse::<f64>().ok(),
                    Leaf::Bool(_) => None,
                }
                .filter(|f| f.is_finite())
                .ok_or_else(|| bad(field.ftype.name()))?;
                let f = if field.ftype == FieldType::Float { f as f32 as f64 } else { f };
                Ok(FieldValue::Double(f))
            }
            FieldType::Boolean => match v {
                Leaf::Bool(b) => Ok(FieldValue::Long(b as i64)),
                Leaf::Str("true") => Ok(FieldValue::Long(1)),
                Leaf::Str("false" | "") => Ok(FieldValue::Long(0)),
                _ => Err(mapper_parsing(format!("failed to parse field [{}] of type [boolean]", field.path))),
            },
            FieldType::Date => {
                let parsed;
                let fmt = match date_format {
                    Some(f) => f,
                    None => {
                        parsed = crate::date::DateFormat::parse_format(field.date_format())
                            .map_err(|e| mapper_parsing(e.to_string()))?;
                        &parsed
                    }
                };
                let millis = match v {
                    Leaf::Str(s) => fmt.parse(s).map_err(|e| {
                        mapper_parsing(format!("failed to parse field [{}] of type [date]: {e}", field.path))
                    })?,
                    Leaf::Number(n) => n.as_i64().ok_or_else(|| bad("date"))?,
                    Leaf::Bool(_) => return Err(bad("date")),
                };
                Ok(FieldValue::Long(millis))
            }
            _ => Err(bad(field.ftype.name())),
        }
    }
}

/// A scalar of a document, as coercion reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Leaf<'v> {
    /// A string.
    Str(&'v str),
    /// A number.
    Number(&'v serde_json::Number),
    /// `true` or `false`.
    Bool(bool),
}

/// A leaf value coerced to its field's type (text borrowed from the document when it
/// was a JSON string).
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue<'v> {
    /// Text or keyword.
    Str(Cow<'v, str>),
    /// Integer types, dates (millis) and booleans (0/1).
    Long(i64),
    /// Floating types.
    Double(f64),
}

fn parse_field(path: &str, ftype: FieldType, def: &Value, analysis: &AnalysisRegistry) -> Result<FieldMapping> {
    let mut f = FieldMapping::new(path, ftype);
    let get_str = |k: &str| def.get(k).and_then(Value::as_str);
    if ftype == FieldType::Text {
        analyzers(&mut f, def, analysis)?;
    }
    if let Some(n) = get_str("normalizer") {
        f.normalizer =
            Some(analysis.field_normalizer(n).map_err(|e| mapper_parsing(e.reason()))?.ok_or_else(|| {
                mapper_parsing(format!("normalizer [{n}] not found for field [{}]", leaf_name(path)))
            })?);
    }
    // Scores follow BM25 (see settings' similarity check); another similarity is refused.
    if let Some(sim) = def.get("similarity") {
        let name = sim.as_str().map_or_else(|| sim.to_string(), str::to_string);
        if name != "BM25" {
            return Err(mapper_parsing(format!(
                "similarity [{name}] of field [{path}] is not supported: metagate scores with BM25 (k1 1.2, b 0.75)"
            )));
        }
    }
    if let Some(i) = def.get("ignore_above") {
        f.ignore_above = Some(i.as_u64().ok_or_else(|| mapper_parsing("[ignore_above] must be a number"))? as usize);
    }
    if let Some(i) = def.get("index") {
        f.index = match i {
            Value::Bool(b) => *b,
            Value::String(s) => s != "false" && s != "no",
            _ => true,
        };
    }
    if let Some(d) = def.get("doc_values").and_then(Value::as_bool) {
        f.doc_values = d && ftype != FieldType::Text;
    }
    if let Some(fmt) = get_str("format") {
        crate::date::DateFormat::parse_format(fmt).map_err(|e| mapper_parsing(e.to_string()))?;
        f.format = Some(fmt.to_string());
    }
    Ok(f)
}

/// A text field's analyzers, as ES's `TypeParsers.parseTextField` sets them: the index's
/// defaults, overridden by `analyzer`, `search_analyzer` and `search_quote_analyzer`
/// (each falling back to the one before it).
fn analyzers(f: &mut FieldMapping, def: &Value, analysis: &AnalysisRegistry) -> Result<()> {
    let path = f.path.clone();
    let named = |key: &str| -> Result<Option<Analyzer>> {
        let Some(v) = def.get(key) else { return Ok(None) };
        let name = v.as_str().map_or_else(|| v.to_string(), str::to_string);
        match analysis.field_analyzer(&name) {
            Ok(a) => Ok(Some(a)),
            Err(e) if e.reason().starts_with("failed to find") => {
                Err(mapper_parsing(format!("analyzer [{name}] not found for field [{}]", leaf_name(&path))))
            }
            Err(e) => Err(e),
        }
    };
    let (index, search, quote) = (named("analyzer")?, named("search_analyzer")?, named("search_quote_analyzer")?);
    let leaf = leaf_name(&path);
    if index.is_none() && search.is_some() {
        return Err(mapper_parsing(format!("analyzer on field [{leaf}] must be set when search_analyzer is set")));
    }
    if search.is_none() && quote.is_some() {
        return Err(mapper_parsing(format!(
            "analyzer and search_analyzer on field [{leaf}] must be set when search_quote_analyzer is set"
        )));
    }
    let [default_index, default_search, default_quote] = analysis.default_analyzers()?;
    match index {
        Some(index) => {
            let search = search.unwrap_or_else(|| index.clone());
            f.search_quote_analyzer = quote.unwrap_or_else(|| search.clone());
            f.search_analyzer = search;
            f.analyzer = index;
        }
        None => {
            f.analyzer = default_index;
            f.search_analyzer = default_search;
            f.search_quote_analyzer = default_quote;
        }
    }
    if let Some(gap) = def.get("position_increment_gap") {
        let gap = gap
            .as_i64()
            .or_else(|| gap.as_str().and_then(|s| s.parse().ok()))
            .ok_or_else(|| mapper_parsing(format!("[position_increment_gap] must be an integer, got [{gap}]")))?;
        if gap < 0 {
            return Err(mapper_parsing(
                "[position_increment_gap] must be positive, got ".to_string() + &gap.to_string(),
            ));
        }
        f.position_increment_gap = Some(gap.min(u32::MAX as i64) as u32);
    }
    Ok(())
}

/// A field's own name, without its parents (as ES's mapping errors name fields).
fn leaf_name(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or(path)
}

fn insert_at(props: &mut Map<String, Value>, path: &str, leaf: Value) {
    match path.split_once('.') {
        None => {
            props.insert(path.to_string(), leaf);
        }
        Some((head, rest)) => {
            let entry = props.entry(head.to_string()).or_insert_with(|| json!({"properties": {}}));
            if entry.get("properties").is_none() {
                entry["properties"] = json!({});
            }
            if let Some(Value::Object(inner)) = entry.get_mut("properties") {
                insert_at(inner, rest, leaf);
            }
        }
    }
}

fn ensure_object(props: &mut Map<String, Value>, path: &str) {
    let (head, rest) = match path.split_once('.') {
        None => (path, None),
        Some((h, r)) => (h, Some(r)),
    };
    let entry = props.entry(head.to_string()).or_insert_with(|| json!({"properties": {}}));
    if let (Some(rest), Some(Value::Object(inner))) = (rest, entry.get_mut("properties")) {
        ensure_object(inner, rest);
    }
}

/// ES renders mapping properties sorted by name.
fn sort_props(props: Map<String, Value>) -> Map<String, Value> {
    let mut entries: Vec<(String, Value)> = props.into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries
        .into_iter()
        .map(|(k, mut v)| {
            if let Some(Value::Object(p)) = v.get_mut("properties").map(std::mem::take) {
                v["properties"] = Value::Object(sort_props(p));
            }
            (k, v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_typed_mapping_with_multi_fields() {
        let m = Mapping::from_json(&json!({"rin": {"properties": {
            "item": {"properties": {
                "name": {"type": "text", "fields": {"aggregate": {"type": "keyword", "normalizer": "lowercase"}}},
                "count": {"type": "integer"},
                "when": {"type": "date", "format": "basic_date_time_no_millis"}
            }}
        }}}))
        .unwrap();
        assert_eq!(m.field("item.name").unwrap().ftype, FieldType::Text);
        let agg = m.field("item.name.aggregate").unwrap();
        assert_eq!(agg.normalizer, Some(Normalizer::Lowercase));
        assert_eq!(agg.keyword_term("DOI:X").unwrap(), "doi:x");
        assert_eq!(agg.parent.as_deref(), Some("item.name"));
        assert!(m.is_object("item"));
        assert_eq!(m.field("item.when").unwrap().date_format(), "basic_date_time_no_millis");
    }

    #[test]
    fn rejects_unknown_types_and_nested() {
        assert!(Mapping::from_json(&json!({"properties": {"a": {"type": "geo_point"}}})).is_err());
        let e = Mapping::from_json(&json!({"properties": {"a": {"type": "nested"}}})).unwrap_err();
        assert_eq!(e.kind(), "mapper_parsing_exception");
    }

    #[test]
    fn coerces_values_like_es() {
        let f = FieldMapping::new("n", FieldType::Integer);
        assert_eq!(Mapping::coerce_with(&f, Leaf::Str("42"), None).unwrap(), FieldValue::Long(42));
        assert_eq!(
            Mapping::coerce_with(&f, Leaf::Number(&serde_json::Number::from_f64(4.7).unwrap()), None).unwrap(),
            FieldValue::Long(4)
        );
        assert!(Mapping::coerce_with(&f, Leaf::Number(&(1u64 << 40).into()), None).is_err());
        assert!(Mapping::coerce_with(&f, Leaf::Str("x"), None).is_err());
        let b = FieldMapping::new("b", FieldType::Boolean);
        assert_eq!(Mapping::coerce_with(&b, Leaf::Str("true"), None).unwrap(), FieldValue::Long(1));
    }

    #[test]
    fn renders_mapping_json() {
        let src = json!({"properties": {"a": {"properties": {"b": {"type": "keyword", "ignore_above": 256}}}}});
        let m = Mapping::from_json(&src).unwrap();
        assert_eq!(m.to_json(), src);
    }
}
