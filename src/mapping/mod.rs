//! ES 6.8 mappings: the field schema of one index, dynamic mapping, multi-fields and the
//! gateway's index templates.

pub mod completion;
mod dynamic;
mod geo_point;
pub mod geo_shape;
pub mod index_prefixes;
pub mod ip;
mod nested;
mod params;
pub mod ranges;
mod root;
mod templates;

pub use dynamic::{simple_match, DynamicTemplate};
pub use geo_point::points_of as geo_points_of;
pub use nested::NestedParams;
pub use params::FieldParams;
pub use root::{ObjectMapping, RootParams};
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
    /// An IPv4 or IPv6 address, indexed as a keyword-like term (`mapping::ip`).
    Ip,
    /// A range of numbers, dates or addresses (`mapping::ranges`).
    Range(ranges::RangeKind),
    /// A latitude and longitude, kept as Lucene's packed long (`geo::pack`).
    GeoPoint,
    /// A GeoJSON or WKT shape, kept as its box's corners (`mapping::geo_shape`).
    GeoShape,
}

impl FieldType {
    /// Parses an ES type name (`object` and `nested` are handled by the caller).
    pub fn from_name(name: &str) -> Option<FieldType> {
        Some(match name {
            "text" => FieldType::Text,
            // Base64 values kept whole, never searched (see `FieldParams::declared_type`).
            "keyword" | "binary" => FieldType::Keyword,
            "long" => FieldType::Long,
            // The number of tokens its analyzer makes of the value.
            "integer" | "token_count" => FieldType::Integer,
            "short" => FieldType::Short,
            "byte" => FieldType::Byte,
            "double" => FieldType::Double,
            "float" | "half_float" | "scaled_float" => FieldType::Float,
            "boolean" => FieldType::Boolean,
            "date" => FieldType::Date,
            "ip" => FieldType::Ip,
            "geo_point" => FieldType::GeoPoint,
            "geo_shape" => FieldType::GeoShape,
            other => FieldType::Range(ranges::RangeKind::from_name(other)?),
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
            FieldType::Ip => "ip",
            FieldType::Range(k) => k.name(),
            FieldType::GeoPoint => "geo_point",
            FieldType::GeoShape => "geo_shape",
        }
    }

    /// Integer types (stored as i64 doc values).
    pub fn is_integer(self) -> bool {
        matches!(self, FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte)
    }

    /// Types whose malformed values `ignore_malformed` skips (numbers and dates).
    pub fn takes_ignore_malformed(self) -> bool {
        !matches!(self, FieldType::Text | FieldType::Keyword | FieldType::Boolean | FieldType::Range(_))
    }

    /// Numeric types, dates and booleans: values kept as numbers in doc values.
    pub fn is_numeric_like(self) -> bool {
        !matches!(self, FieldType::Text | FieldType::Keyword | FieldType::Ip | FieldType::Range(_))
    }

    /// Dates and date ranges: values read with a date format.
    pub fn is_date_like(self) -> bool {
        matches!(self, FieldType::Date | FieldType::Range(ranges::RangeKind::Date))
    }

    /// Types indexed as whole terms with ordinal doc values (keywords, and addresses as
    /// their `mapping::ip` terms).
    pub fn is_keyword_like(self) -> bool {
        matches!(self, FieldType::Keyword | FieldType::Ip)
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
    /// The other mapping parameters (`store`, `copy_to`, `null_value`, ...).
    pub params: FieldParams,
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
            // A range's doc values serve no sort nor aggregation in ES 6.8.
            doc_values: !matches!(ftype, FieldType::Text | FieldType::Range(_)),
            format: if ftype.is_date_like() { Some(DEFAULT_DATE_FORMAT.to_string()) } else { None },
            multi_fields: Vec::new(),
            parent: None,
            params: FieldParams::default(),
        }
    }

    /// A `completion` field: its entries are keyword-like terms (see `completion`),
    /// without doc values.
    pub fn completion(path: &str, mapping: completion::CompletionMapping) -> FieldMapping {
        let mut f = FieldMapping::new(path, FieldType::Keyword);
        f.doc_values = false;
        f.params.declared_type = Some("completion");
        f.params.completion = Some(Box::new(mapping));
        f
    }

    /// The type name as the mapping gave it (`half_float` and `scaled_float` are
    /// floats with their own rounding).
    pub fn type_name(&self) -> &'static str {
        self.params.declared_type.unwrap_or(self.ftype.name())
    }

    /// `value` rounded to what the field keeps: a half float's 11 significant bits, a
    /// scaled float's multiple of `1 / scaling_factor`; other fields keep it as is.
    pub fn round_float(&self, value: f64) -> f64 {
        match (self.params.declared_type, self.params.scaling_factor) {
            (Some("half_float"), _) => f64::from(half::f16::from_f32(value as f32).to_f32()),
            (Some("scaled_float"), Some(factor)) => java_round(value * factor) as f64 / factor,
            _ => value,
        }
    }

    /// ES's refusal to sort, aggregate or script on this field, when it has no doc
    /// values (or is text without `fielddata`, which metagate does not build).
    pub fn fielddata_error(&self) -> Option<String> {
        match self.ftype {
            FieldType::Range(_) | FieldType::GeoShape => {
                Some(format!("Fielddata is not supported on field [{}] of type [{}]", self.path, self.type_name()))
            }
            FieldType::Text if self.params.fielddata => Some(format!(
                "fielddata of text field [{}] is not supported by metagate: aggregate or sort on a keyword field instead",
                self.path
            )),
            FieldType::Text => Some(format!("Fielddata is disabled on text fields by default. Set fielddata=true on [{}] in order to load fielddata in memory by uninverting the inverted index. Note that this can however use significant memory. Alternatively use a keyword field instead.", self.path)),
            _ if !self.doc_values => Some(format!(
                "Can't load fielddata on [{}] because fielddata is unsupported on fields of type [{}]. Use doc values instead.",
                self.path,
                self.type_name()
            )),
            _ => None,
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

    /// Renders the field as ES mapping JSON, its multi-fields (`subs`) where ES puts
    /// them: after the parameters every field has, before the type's own.
    fn to_json(&self, subs: Option<Map<String, Value>>) -> Value {
        if let Some(c) = &self.params.completion {
            return c.to_json();
        }
        if let Some(g) = &self.params.geo_shape {
            return geo_shape::to_json(self, g);
        }
        let mut m = Map::new();
        m.insert("type".into(), json!(self.type_name()));
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
        // A binary field is neither indexed nor has doc values unless asked: ES prints
        // what differs from those defaults.
        let binary = self.params.declared_type == Some("binary");
        if !self.index && !binary {
            m.insert("index".into(), json!(false));
        }
        self.params.render_common(&mut m);
        if binary && self.doc_values {
            m.insert("doc_values".into(), json!(true));
        } else if !binary && !self.doc_values && !matches!(self.ftype, FieldType::Text | FieldType::Range(_)) {
            m.insert("doc_values".into(), json!(false));
        }
        self.params.render_after_doc_values(&mut m);
        if let Some(subs) = subs {
            m.insert("fields".into(), Value::Object(subs));
        }
        self.params.render_after_fields(&mut m);
        if let Some(i) = self.ignore_above {
            m.insert("ignore_above".into(), json!(i));
        }
        if let Some(n) = &self.normalizer {
            m.insert("normalizer".into(), json!(n.name()));
        }
        if self.ftype == FieldType::GeoPoint {
            geo_point::render(self, &mut m);
        }
        if self.ftype.is_date_like() && self.date_format() != DEFAULT_DATE_FORMAT {
            m.insert("format".into(), json!(self.date_format()));
        }
        Value::Object(m)
    }
}

/// ES 6.8's field types metagate does not index yet: refused by name rather than with
/// the "No handler" ES gives a type it does not know.
const ES_TYPES_NOT_RUN: [&str; 3] = ["percolator", "join", "murmur3"];

/// ES's default format for `date` fields.
pub const DEFAULT_DATE_FORMAT: &str = "strict_date_optional_time||epoch_millis";

/// The mapping of one index: every leaf field by its full path, plus the dynamic rules.
#[derive(Debug, Clone, PartialEq)]
pub struct Mapping {
    /// Leaf fields (including multi-fields) by full path.
    pub fields: BTreeMap<String, FieldMapping>,
    /// Object paths (for `exists` and wildcard expansion), with their own parameters.
    pub objects: BTreeMap<String, ObjectMapping>,
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
    /// The root's metadata fields, `_meta` and `numeric_detection`.
    pub root: RootParams,
    /// Field aliases: alias path → the path of the field it stands for.
    pub aliases: BTreeMap<String, String>,
    /// Whether some object is mapped `enabled: false` (the loader looks each object up
    /// only then: the look-up is on every value's path).
    any_disabled_object: bool,
    /// The index's `index.mapping.ignore_malformed` (fields without their own).
    pub index_ignore_malformed: bool,
    /// `index.mapping.coerce: false` (fields without their own refuse coercion).
    pub index_no_coerce: bool,
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
            root: RootParams::default(),
            aliases: BTreeMap::new(),
            any_disabled_object: false,
            index_ignore_malformed: false,
            index_no_coerce: false,
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
        let root_key = |k: &String| {
            matches!(
                k.as_str(),
                "properties"
                    | "dynamic_templates"
                    | "dynamic"
                    | "_source"
                    | "_all"
                    | "_meta"
                    | "_routing"
                    | "date_detection"
                    | "numeric_detection"
                    | "dynamic_date_formats"
            )
        };
        let body = if obj.keys().any(root_key) || obj.is_empty() {
            v
        } else if obj.len() == 1 {
            obj.values().next().unwrap_or(v)
        } else {
            v
        };
        let mut m = Mapping { analysis, ..Mapping::default() };
        if let Some(obj) = body.as_object() {
            m.root = RootParams::parse(obj)?;
        }
        if let Some(d) = body.get("dynamic") {
            m.dynamic = root::parse_dynamic(d)?;
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
        m.check_aliases()?;
        // Stored fields are read back from the stored `_source` (metagate keeps no
        // second copy), so `_source` must keep them.
        if let Some(f) =
            m.fields.values().find(|f| f.params.store && !m.root.source.keeps(f.parent.as_deref().unwrap_or(&f.path)))
        {
            return Err(mapper_parsing(format!(
                "field [{}] is stored while [_source] does not keep it: not supported by metagate",
                f.path
            )));
        }
        Ok(m)
    }

    /// Parses the mapping a catalog entry keeps. A file written before the mapping
    /// parameters were checked may hold ones this version refuses (its loader ignored
    /// them, so its data never had them): such a mapping is read with only what that
    /// loader read, so the index stays readable.
    pub fn from_catalog(v: &Value, analysis: AnalysisRegistry) -> Result<Mapping> {
        Mapping::parse(v, analysis.clone()).or_else(|_| Mapping::parse(&earlier_reading(v, true), analysis))
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
            None | Some("object") | Some("nested") => {
                let object = match tname {
                    Some("nested") => nested::parse(path, def)?,
                    _ => ObjectMapping::parse(path, def)?,
                };
                self.note_object(path);
                if !object.is_plain() {
                    self.any_disabled_object |= !object.enabled;
                    self.objects.insert(path.to_string(), object);
                }
                if let Some(props) = def.get("properties") {
                    self.add_properties(path, props)?;
                }
                Ok(())
            }
            Some("alias") => {
                params::check_known(path, "alias", def)?;
                let target = def.get("path").and_then(Value::as_str).ok_or_else(|| {
                    mapper_parsing(format!(
                        "The [path] property must be specified for field [{}].",
                        path.rsplit('.').next().unwrap_or(path)
                    ))
                })?;
                self.note_parents(path);
                let top = path.split('.').next().unwrap_or("").to_string();
                if !self.order.contains(&top) {
                    self.order.push(top);
                }
                self.aliases.insert(path.to_string(), target.to_string());
                Ok(())
            }
            Some("completion") => {
                let completion = completion::CompletionMapping::parse(path, def, &self.analysis)?;
                self.note_parents(path);
                self.insert_field(FieldMapping::completion(path, completion));
                Ok(())
            }
            Some(t) => {
                let ftype = FieldType::from_name(t).ok_or_else(|| match ES_TYPES_NOT_RUN.contains(&t) {
                    true => mapper_parsing(format!("field type [{t}] (field [{path}]) is not supported by metagate")),
                    false => mapper_parsing(format!(
                        "No handler for type [{t}] declared on field [{}]",
                        path.rsplit('.').next().unwrap_or(path)
                    )),
                })?;
                let field = parse_field(path, ftype, t, def, &self.analysis)?;
                self.note_parents(path);
                let subs = def.get("fields").and_then(Value::as_object).cloned();
                self.insert_field(field);
                if let Some(subs) = subs {
                    for (sub, sdef) in subs {
                        let stype = sdef.get("type").and_then(Value::as_str).unwrap_or("object");
                        let spath = format!("{path}.{sub}");
                        let mut sf = if stype == "completion" {
                            let c = completion::CompletionMapping::parse(&spath, &sdef, &self.analysis)?;
                            FieldMapping::completion(&spath, c)
                        } else {
                            let sft = FieldType::from_name(stype).ok_or_else(|| {
                                mapper_parsing(format!("No handler for type [{stype}] declared on field [{sub}]"))
                            })?;
                            parse_field(&spath, sft, stype, &sdef, &self.analysis)?
                        };
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
        self.objects.entry(path.to_string()).or_default();
        let top = path.split('.').next().unwrap_or("").to_string();
        if !self.order.contains(&top) {
            self.order.push(top);
        }
    }

    fn note_parents(&mut self, path: &str) {
        let mut end = 0;
        while let Some(i) = path[end..].find('.') {
            let p = &path[..end + i];
            self.objects.entry(p.to_string()).or_default();
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

    /// The path a field name stands for: an alias's target, else the name itself.
    pub fn resolve_alias<'a>(&'a self, path: &'a str) -> &'a str {
        self.aliases.get(path).map(String::as_str).unwrap_or(path)
    }

    /// ES's checks of each alias's `path` (`FieldAliasMapper.validate`).
    fn check_aliases(&self) -> Result<()> {
        for (alias, target) in &self.aliases {
            let why = if self.aliases.contains_key(target) {
                "an alias cannot refer to another alias."
            } else if target == alias {
                "an alias cannot refer to itself."
            } else if !self.fields.contains_key(target) {
                "an alias must refer to an existing field in the mappings."
            } else {
                continue;
            };
            return Err(mapper_parsing(format!("Invalid [path] value [{target}] for field alias [{alias}]: {why}")));
        }
        Ok(())
    }

    /// Whether `path` is an object mapped with `enabled: false`: its content is kept in
    /// `_source` only, neither indexed nor mapped.
    pub fn is_disabled_object(&self, path: &str) -> bool {
        self.any_disabled_object && self.objects.get(path).is_some_and(|o| !o.enabled)
    }

    /// The `dynamic` rule for a new field at `path`: its nearest enclosing object's,
    /// else the root's.
    pub fn dynamic_for(&self, path: &str) -> Dynamic {
        let mut p = path;
        while let Some((parent, _)) = p.rsplit_once('.') {
            if let Some(d) = self.objects.get(parent).and_then(|o| o.dynamic) {
                return d;
            }
            p = parent;
        }
        self.dynamic
    }

    /// Renders the mapping as ES JSON `{"properties": ...}`.
    pub fn to_json(&self) -> Value {
        let mut root = Map::new();
        // The rules for fields not mapped yet, where they differ from ES's defaults.
        if self.dynamic != Dynamic::True {
            root.insert("dynamic".into(), json!(root::dynamic_name(self.dynamic)));
        }
        self.root.render(&mut root);
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
        if self.root.numeric_detection {
            root.insert("numeric_detection".into(), json!(true));
        }
        let mut props = Map::new();
        for (path, f) in &self.fields {
            if f.parent.is_some() {
                continue;
            }
            let subs = (!f.multi_fields.is_empty()).then(|| {
                let mut subs = Map::new();
                for s in &f.multi_fields {
                    if let Some(sf) = self.fields.get(&format!("{path}.{s}")) {
                        subs.insert(s.clone(), sf.to_json(None));
                    }
                }
                subs
            });
            insert_at(&mut props, path, f.to_json(subs));
        }
        for (path, target) in &self.aliases {
            insert_at(&mut props, path, json!({"type": "alias", "path": target}));
        }
        for (path, object) in &self.objects {
            ensure_object(&mut props, path, object);
        }
        root.insert("properties".into(), Value::Object(sort_props(props)));
        Value::Object(root)
    }

    /// One field's mapping as ES renders it under its leaf name (multi-fields inside),
    /// or a field alias's; `None` when the path names no field.
    pub fn field_json(&self, path: &str) -> Option<Value> {
        if let Some(target) = self.aliases.get(path) {
            return Some(json!({"type": "alias", "path": target}));
        }
        let f = self.fields.get(path)?;
        let subs = (!f.multi_fields.is_empty()).then(|| {
            f.multi_fields
                .iter()
                .filter_map(|s| self.fields.get(&format!("{path}.{s}")).map(|sf| (s.clone(), sf.to_json(None))))
                .collect()
        });
        Some(f.to_json(subs))
    }

    /// Paths of every field and field alias, for field-name patterns.
    pub fn field_and_alias_paths(&self) -> impl Iterator<Item = &String> {
        self.fields.keys().chain(self.aliases.keys())
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
            // Jackson's reading of a binary value: base64 text.
            FieldType::Keyword if field.params.declared_type == Some("binary") => match v {
                Leaf::Str(s) if params::is_base64(s) => Ok(FieldValue::Str(Cow::Borrowed(s))),
                _ => Err(bad("binary")),
            },
            FieldType::Text | FieldType::Keyword => match v {
                Leaf::Str(s) => Ok(FieldValue::Str(Cow::Borrowed(s))),
                Leaf::Number(n) => Ok(FieldValue::Str(Cow::Owned(n.to_string()))),
                Leaf::Bool(b) => Ok(FieldValue::Str(Cow::Borrowed(if b { "true" } else { "false" }))),
            },
            // A token count is the number of tokens of the value read as text.
            t if field.params.declared_type == Some("token_count") => {
                let text = match v {
                    Leaf::Str(s) => Cow::Borrowed(s),
                    Leaf::Number(n) => Cow::Owned(n.to_string()),
                    Leaf::Bool(b) => Cow::Borrowed(if b { "true" } else { "false" }),
                };
                // ES's TokenCountFieldMapper.countPositions: the position increments,
                // the final one included (or one per token without them).
                let analyzer = field.params.token_analyzer.as_ref().ok_or_else(|| bad(t.name()))?;
                let without = field.params.count_without_increments;
                let (mut n, mut buf) = (0i64, String::new());
                let end = analyzer.for_each_token(&text, &mut buf, |_, increment, _, _| {
                    n += if without { i64::from(increment.min(1)) } else { i64::from(increment) };
                })?;
                if !without {
                    n += i64::from(end);
                }
                Ok(FieldValue::Long(n))
            }
            // `coerce: false` takes numbers only, and integers only for integer types.
            t if t.is_integer() && field.params.coerce == Some(false) => {
                let n = match v {
                    Leaf::Number(n) => n.as_i64(),
                    _ => None,
                }
                .ok_or_else(|| bad(t.name()))?;
                let (lo, hi) = t.integer_bounds();
                if n < lo || n > hi {
                    return Err(bad(t.name()));
                }
                Ok(FieldValue::Long(n))
            }
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
                    Leaf::Str(s) if field.params.coerce != Some(false) => s.trim().parse::<f64>().ok(),
                    Leaf::Str(_) | Leaf::Bool(_) => None,
                }
                .filter(|f| f.is_finite())
                .ok_or_else(|| bad(field.type_name()))?;
                let f = match field.params.declared_type {
                    Some(_) => field.round_float(f),
                    None if field.ftype == FieldType::Float => f as f32 as f64,
                    None => f,
                };
                if !f.is_finite() {
                    return Err(bad(field.type_name()));
                }
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
                    // ES 6.8 reads a number's text (`textOrNull`) and parses it with the
                    // field's format: `epoch_second` reads seconds, the default
                    // `strict_date_optional_time||epoch_millis` milliseconds.
                    Leaf::Number(n) => fmt.parse(&n.to_string()).map_err(|e| {
                        mapper_parsing(format!("failed to parse field [{}] of type [date]: {e}", field.path))
                    })?,
                    Leaf::Bool(_) => return Err(bad("date")),
                };
                Ok(FieldValue::Long(millis))
            }
            // ES reads any scalar's text (`textOrNull`) and parses it as an address.
            FieldType::Ip => {
                let text = match v {
                    Leaf::Str(s) => Cow::Borrowed(s),
                    Leaf::Number(n) => Cow::Owned(n.to_string()),
                    Leaf::Bool(b) => Cow::Borrowed(if b { "true" } else { "false" }),
                };
                let addr = ip::parse(&text).map_err(|e| {
                    Error::new(
                        400,
                        Exception::new(
                            "mapper_parsing_exception",
                            format!("failed to parse field [{}] of type [ip]", field.path),
                        )
                        .caused_by(Exception::new("illegal_argument_exception", e)),
                    )
                })?;
                Ok(FieldValue::Str(Cow::Owned(ip::term(&addr.bytes))))
            }
            // A range given as a scalar (objects are read by the loader).
            FieldType::Range(kind) => Ok(FieldValue::Str(Cow::Owned(ranges::scalar_term(field, kind, v)?))),
            // A value copied into a geo point (`copy_to`): read as a point's text.
            FieldType::GeoPoint => geo_point::coerce(field, v),
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

impl FieldValue<'_> {
    /// The value owning its text.
    pub fn into_owned(self) -> FieldValue<'static> {
        match self {
            FieldValue::Str(s) => FieldValue::Str(Cow::Owned(s.into_owned())),
            FieldValue::Long(n) => FieldValue::Long(n),
            FieldValue::Double(f) => FieldValue::Double(f),
        }
    }
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

fn parse_field(
    path: &str,
    ftype: FieldType,
    type_name: &str,
    def: &Value,
    analysis: &AnalysisRegistry,
) -> Result<FieldMapping> {
    let mut f = FieldMapping::new(path, ftype);
    f.params = FieldParams::parse(path, ftype, type_name, def, analysis)?;
    if type_name == "binary" {
        // ES never indexes a binary field, and keeps no doc values unless asked.
        f.index = false;
        f.doc_values = def.get("doc_values").and_then(Value::as_bool).unwrap_or(false);
    }
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
        f.doc_values = d && !matches!(ftype, FieldType::Text | FieldType::Range(_));
    }
    if f.params.index_prefixes.is_some() && !f.index {
        let reason = format!("Cannot set index_prefixes on unindexed field [{}]", leaf_name(path));
        return Err(Error::new(
            400,
            Exception::new("mapper_parsing_exception", reason.clone())
                .caused_by(Exception::new("illegal_argument_exception", reason)),
        ));
    }
    if let FieldType::Range(kind) = ftype {
        range_params(&mut f, kind, def)?;
    }
    if ftype == FieldType::Ip {
        // ES parses the address when it reads the mapping and prints it back formatted.
        if let Some(v) = f.params.null_value.as_mut() {
            let text = v.as_str().map_or_else(|| params::java_string(v), str::to_string);
            *v = Value::String(ip::format(&ip::parse(&text).map_err(mapper_parsing)?.bytes));
        }
    }
    if ftype == FieldType::GeoPoint {
        geo_point::parse_params(&mut f, def)?;
    }
    if ftype == FieldType::GeoShape {
        geo_shape::parse_params(&mut f, def)?;
    }
    if let Some(fmt) = get_str("format") {
        crate::date::DateFormat::parse_format(fmt).map_err(|e| mapper_parsing(e.to_string()))?;
        f.format = Some(fmt.to_string());
    }
    Ok(f)
}

/// What ES 6.8's `RangeFieldMapper` refuses of a range field's parameters.
fn range_params(f: &mut FieldMapping, kind: ranges::RangeKind, def: &Value) -> Result<()> {
    if f.params.null_value.is_some() {
        return Err(mapper_parsing(format!(
            "Property [null_value] is not supported for [{}] field types.",
            kind.name()
        )));
    }
    if def.get("doc_values").and_then(Value::as_bool) == Some(true) {
        return Err(mapper_parsing(format!("field [{}] does not currently support doc_values", leaf_name(&f.path))));
    }
    if def.get("format").is_some() && kind != ranges::RangeKind::Date {
        return Err(mapper_parsing(format!(
            "field [{}] of type [{}] should not define a dateTimeFormatter unless it is a DATE type",
            leaf_name(&f.path),
            kind.java_name()
        )));
    }
    // A stored range is returned as ES prints its `Range` ("[1 : 10]"), which metagate
    // does not keep.
    if f.params.store {
        return Err(mapper_parsing(format!("[store: true] of field [{}] is not supported by metagate", f.path)));
    }
    // The loader reads a range object whole, for the field itself only.
    for (name, given) in [("copy_to", !f.params.copy_to.is_empty()), ("fields", def.get("fields").is_some())] {
        if given {
            return Err(mapper_parsing(format!("[{name}] of field [{}] is not supported by metagate", f.path)));
        }
    }
    Ok(())
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

fn ensure_object(props: &mut Map<String, Value>, path: &str, object: &ObjectMapping) {
    let (head, rest) = match path.split_once('.') {
        None => (path, None),
        Some((h, r)) => (h, Some(r)),
    };
    let entry = props.entry(head.to_string()).or_insert_with(|| json!({"properties": {}}));
    match (rest, entry.get_mut("properties")) {
        (Some(rest), Some(Value::Object(inner))) => ensure_object(inner, rest, object),
        (None, _) if !object.is_plain() => {
            // ES prints an object's own parameters before its properties, and `type`
            // when it has none.
            let props = entry.get("properties").cloned().filter(|p| p.as_object().is_some_and(|p| !p.is_empty()));
            let mut o = Map::new();
            if let Some(n) = &object.nested {
                nested::render(n, &mut o);
            } else if props.is_none() {
                o.insert("type".into(), json!("object"));
            }
            if let Some(d) = object.dynamic {
                o.insert("dynamic".into(), json!(root::dynamic_name(d)));
            }
            if !object.enabled {
                o.insert("enabled".into(), json!(false));
            }
            if let Some(p) = props {
                o.insert("properties".into(), p);
            }
            *entry = Value::Object(o);
        }
        _ => {}
    }
}

/// What loaders before the parameter checks read of a mapping (`root`: the root
/// object): the keys below, recursively through `properties` and `fields`.
fn earlier_reading(v: &Value, root: bool) -> Value {
    const ROOT: [&str; 5] = ["properties", "dynamic", "date_detection", "dynamic_date_formats", "dynamic_templates"];
    const FIELD: [&str; 9] = [
        "type",
        "properties",
        "fields",
        "analyzer",
        "search_analyzer",
        "normalizer",
        "ignore_above",
        "index",
        "doc_values",
    ];
    let Value::Object(o) = v else { return v.clone() };
    let keep = |k: &str| if root { ROOT.contains(&k) } else { FIELD.contains(&k) || k == "format" };
    let mut out = Map::new();
    for (k, child) in o {
        match k.as_str() {
            "properties" | "fields" => {
                let inner = child.as_object().map(|m| {
                    m.iter().map(|(name, def)| (name.clone(), earlier_reading(def, false))).collect::<Map<_, _>>()
                });
                out.insert(k.clone(), inner.map(Value::Object).unwrap_or_else(|| child.clone()));
            }
            k2 if keep(k2) => {
                out.insert(k.clone(), child.clone());
            }
            _ => {}
        }
    }
    Value::Object(out)
}

/// Java's `toString` of a parsed mapping value (ES prints refused parameters with it).
pub(crate) fn java_string_of(v: &Value) -> String {
    params::java_string(v)
}

/// Java's `Math.round` of a double: the nearest long, halves up.
pub(crate) fn java_round(x: f64) -> i64 {
    (x + 0.5).floor() as i64
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
    fn rejects_unknown_types() {
        assert!(Mapping::from_json(&json!({"properties": {"a": {"type": "percolator"}}})).is_err());
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
    fn catalogs_of_earlier_loaders_stay_readable() {
        // Written when unchecked parameters were ignored: read as that loader read it.
        let old = json!({"properties": {"a": {"type": "keyword", "copy_to": "b", "boost": 3, "weird": 1}}, "_x": 1});
        assert!(Mapping::from_json(&old).is_err());
        let m = Mapping::from_catalog(&old, AnalysisRegistry::empty_index()).unwrap();
        assert_eq!(m.field("a").unwrap().params, FieldParams::default());
        assert_eq!(m.to_json(), json!({"properties": {"a": {"type": "keyword"}}}));
    }

    #[test]
    fn renders_mapping_json() {
        let src = json!({"properties": {"a": {"properties": {"b": {"type": "keyword", "ignore_above": 256}}}}});
        let m = Mapping::from_json(&src).unwrap();
        assert_eq!(m.to_json(), src);
    }
}
