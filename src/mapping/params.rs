//! The mapping parameters of a leaf field besides its analysis: which ones each type
//! takes (ES refuses the others), what they hold, and how `_mapping` prints them.
//!
//! Parameters change what the loader indexes (`null_value`, `copy_to`,
//! `ignore_malformed`, `coerce`) or what a search may do with the field (`index`,
//! `doc_values`, `norms`, `store`). Those metagate accepts but that change nothing it
//! computes (`eager_global_ordinals`, `term_vector`, the default `similarity`) are kept
//! for `_mapping` only; those that would change an answer metagate cannot give are
//! refused by name.

use super::{mapper_parsing, FieldType};
use crate::error::Result;
use serde_json::{json, Map, Value};

/// The parameters of a field beyond its type, analysis, `index`, `doc_values`,
/// `ignore_above` and `format`, each as given (defaults are not stored, so `_mapping`
/// prints what ES prints: the parameters set).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FieldParams {
    /// `store`: the value is returned by `stored_fields`.
    pub store: bool,
    /// `copy_to`: fields that also receive each value.
    pub copy_to: Vec<String>,
    /// `null_value`: indexed in place of an explicit `null`.
    pub null_value: Option<Value>,
    /// `ignore_malformed`, when given (else the index setting decides).
    pub ignore_malformed: Option<bool>,
    /// `ignore_z_value` of a `geo_point`, when given (a third coordinate is dropped
    /// unless `false`).
    pub ignore_z_value: Option<bool>,
    /// `coerce`, when given (else the index setting decides).
    pub coerce: Option<bool>,
    /// `norms`, when given (text fields have norms unless `false`).
    pub norms: Option<bool>,
    /// `index_options`, when given.
    pub index_options: Option<String>,
    /// `fielddata` on a text field.
    pub fielddata: bool,
    /// `eager_global_ordinals` (a loading hint: accepted, printed).
    pub eager_global_ordinals: bool,
    /// `similarity`, when given (only ES's default, BM25, is accepted).
    pub similarity: Option<String>,
    /// `term_vector`, when given (term vectors only serve the term vectors API and the
    /// fast vector highlighter's speed; hits are the same without them).
    pub term_vector: Option<String>,
    /// `scaling_factor` of a `scaled_float`.
    pub scaling_factor: Option<f64>,
    /// `locale` of a date field (English month and day names only).
    pub locale: Option<String>,
    /// The written name of a type metagate keeps as another: `half_float` and
    /// `scaled_float` (floats that round), `binary` (a keyword never searched),
    /// `token_count` (an integer counted from text).
    pub declared_type: Option<&'static str>,
    /// The analyzer a `token_count` counts with.
    pub token_analyzer: Option<crate::analysis::Analyzer>,
    /// `token_count`'s `enable_position_increments: false`: tokens counted one each,
    /// not by their position increments.
    pub count_without_increments: bool,
    /// A `completion` field's own parameters.
    pub completion: Option<Box<super::completion::CompletionMapping>>,
    /// A `geo_shape` field's own parameters.
    pub geo_shape: Option<Box<super::geo_shape::GeoShapeMapping>>,
    /// A text field's `index_prefixes`: the prefix lengths indexed in its hidden field.
    pub index_prefixes: Option<super::index_prefixes::IndexPrefixes>,
}

/// Whether `s` is base64 as Jackson decodes a binary value (padding optional).
pub(super) fn is_base64(s: &str) -> bool {
    use base64::Engine;
    const LENIENT: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    LENIENT.decode(s).is_ok()
}

/// The parameters ES 6.8's mapper for `type_name` reads, besides `type`.
fn known_params(type_name: &str) -> &'static [&'static str] {
    const COMMON: [&str; 6] = ["index", "store", "doc_values", "boost", "copy_to", "fields"];
    const TEXT: &[&str] = &[
        "index",
        "store",
        "doc_values",
        "boost",
        "copy_to",
        "fields",
        "analyzer",
        "search_analyzer",
        "search_quote_analyzer",
        "norms",
        "index_options",
        "fielddata",
        "fielddata_frequency_filter",
        "eager_global_ordinals",
        "position_increment_gap",
        "term_vector",
        "index_prefixes",
        "index_phrases",
        "similarity",
        "include_in_all",
    ];
    const KEYWORD: &[&str] = &[
        "index",
        "store",
        "doc_values",
        "boost",
        "copy_to",
        "fields",
        "normalizer",
        "ignore_above",
        "null_value",
        "norms",
        "index_options",
        "eager_global_ordinals",
        "similarity",
        "split_queries_on_whitespace",
        "term_vector",
        "include_in_all",
    ];
    const NUMBER: &[&str] = &[
        "index",
        "store",
        "doc_values",
        "boost",
        "copy_to",
        "fields",
        "coerce",
        "ignore_malformed",
        "null_value",
        "include_in_all",
    ];
    const SCALED: &[&str] = &[
        "index",
        "store",
        "doc_values",
        "boost",
        "copy_to",
        "fields",
        "coerce",
        "ignore_malformed",
        "null_value",
        "scaling_factor",
        "include_in_all",
    ];
    const DATE: &[&str] = &[
        "index",
        "store",
        "doc_values",
        "boost",
        "copy_to",
        "fields",
        "format",
        "locale",
        "ignore_malformed",
        "null_value",
        "include_in_all",
    ];
    const BOOLEAN: &[&str] =
        &["index", "store", "doc_values", "boost", "copy_to", "fields", "null_value", "include_in_all"];
    match type_name {
        "text" => TEXT,
        "keyword" => KEYWORD,
        "scaled_float" => SCALED,
        "date" => DATE,
        "boolean" => BOOLEAN,
        "binary" => &["index", "store", "doc_values", "boost", "copy_to", "fields"],
        "token_count" => &[
            "index",
            "store",
            "doc_values",
            "boost",
            "copy_to",
            "fields",
            "analyzer",
            "null_value",
            "enable_position_increments",
            "include_in_all",
        ],
        "alias" => &["path"],
        "integer_range" | "long_range" | "float_range" | "double_range" | "date_range" | "ip_range" => &[
            "index",
            "store",
            "doc_values",
            "boost",
            "copy_to",
            "fields",
            "coerce",
            "locale",
            "format",
            "null_value",
            "include_in_all",
        ],
        "ip" => &[
            "index",
            "store",
            "doc_values",
            "boost",
            "copy_to",
            "fields",
            "ignore_malformed",
            "null_value",
            "include_in_all",
        ],
        "geo_point" => &[
            "index",
            "store",
            "doc_values",
            "boost",
            "copy_to",
            "fields",
            "ignore_malformed",
            "ignore_z_value",
            "null_value",
            "include_in_all",
        ],
        "geo_shape" => &[
            "index",
            "store",
            "doc_values",
            "boost",
            "copy_to",
            "fields",
            "tree",
            "tree_levels",
            "precision",
            "strategy",
            "distance_error_pct",
            "orientation",
            "points_only",
            "ignore_malformed",
            "ignore_z_value",
            "coerce",
        ],
        "long" | "integer" | "short" | "byte" | "double" | "float" | "half_float" => NUMBER,
        _ => &COMMON,
    }
}

/// Java's `toString` of a parsed mapping value, as ES prints unsupported parameters.
pub(super) fn java_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => format!("[{}]", a.iter().map(java_string).collect::<Vec<_>>().join(", ")),
        Value::Object(o) => {
            format!("{{{}}}", o.iter().map(|(k, v)| format!("{k}={}", java_string(v))).collect::<Vec<_>>().join(", "))
        }
        other => other.to_string(),
    }
}

/// ES's refusal of the parameters its mapper does not read (`DocumentMapperParser.
/// checkNoRemainingFields`): every leftover as ` [name : value]`.
pub(super) fn check_known(path: &str, type_name: &str, def: &Value) -> Result<()> {
    let Some(obj) = def.as_object() else { return Ok(()) };
    let known = known_params(type_name);
    let rest: String = obj
        .iter()
        .filter(|(k, _)| k.as_str() != "type" && !known.contains(&k.as_str()))
        .map(|(k, v)| format!(" [{k} : {}]", java_string(v)))
        .collect();
    if rest.is_empty() {
        return Ok(());
    }
    let name = path.rsplit('.').next().unwrap_or(path);
    Err(mapper_parsing(format!("Mapping definition for [{name}] has unsupported parameters: {rest}")))
}

/// A parameter metagate knows but does not run: refused by name rather than ignored.
pub(super) fn unsupported(path: &str, what: String) -> crate::error::Error {
    mapper_parsing(format!("{what} of field [{path}] is not supported by metagate"))
}

/// ES's boolean parameter: `true`/`false` or their strings.
pub(super) fn boolean(path: &str, name: &str, v: &Value) -> Result<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" => Ok(true),
        Value::String(s) if s == "false" => Ok(false),
        other => Err(mapper_parsing(format!(
            "Failed to parse value [{}] as only [true] or [false] are allowed. (parameter [{name}] of field [{path}])",
            java_string(other)
        ))),
    }
}

impl FieldParams {
    /// Reads the parameters of `def` for a field of `ftype` (`type_name` as written:
    /// `half_float` and `scaled_float` are floats with their own parameters).
    pub(super) fn parse(
        path: &str,
        ftype: FieldType,
        type_name: &str,
        def: &Value,
        analysis: &crate::analysis::definition::AnalysisRegistry,
    ) -> Result<FieldParams> {
        check_known(path, type_name, def)?;
        let mut p = FieldParams::default();
        let get = |k: &str| def.get(k).filter(|v| !v.is_null());
        if let Some(v) = def.get("null_value") {
            if v.is_null() {
                return Err(mapper_parsing("Property [null_value] cannot be null."));
            }
            p.null_value = Some(v.clone());
        }
        if let Some(v) = get("store") {
            p.store = boolean(path, "store", v)?;
        }
        if let Some(v) = get("copy_to") {
            p.copy_to = match v {
                Value::String(s) => vec![s.clone()],
                Value::Array(a) => {
                    a.iter().map(|t| t.as_str().map(str::to_string).unwrap_or_else(|| t.to_string())).collect()
                }
                other => vec![java_string(other)],
            };
        }
        if let Some(v) = get("ignore_malformed") {
            p.ignore_malformed = Some(boolean(path, "ignore_malformed", v)?);
        }
        if let Some(v) = get("coerce") {
            p.coerce = Some(boolean(path, "coerce", v)?);
        }
        if let Some(v) = get("norms") {
            let on = boolean(path, "norms", v)?;
            // Keyword terms score as one occurrence with no length: norms on a keyword
            // would change scores metagate computes without them.
            if on && ftype != FieldType::Text {
                return Err(unsupported(path, "[norms: true]".into()));
            }
            p.norms = Some(on);
        }
        if let Some(v) = get("index_options") {
            let s = v.as_str().unwrap_or_default();
            let allowed: &[&str] = match ftype {
                FieldType::Text => &["positions", "offsets"],
                _ => &["docs"],
            };
            if !["docs", "freqs", "positions", "offsets"].contains(&s) {
                return Err(mapper_parsing(format!("Unknown index_options [{}]", java_string(v))));
            }
            if !allowed.contains(&s) {
                return Err(unsupported(path, format!("[index_options: {s}]")));
            }
            p.index_options = Some(s.to_string());
        }
        if let Some(v) = get("fielddata") {
            p.fielddata = boolean(path, "fielddata", v)?;
        }
        if let Some(v) = get("eager_global_ordinals") {
            p.eager_global_ordinals = boolean(path, "eager_global_ordinals", v)?;
        }
        if let Some(v) = get("similarity") {
            let name = v.as_str().map_or_else(|| v.to_string(), str::to_string);
            if name != "BM25" {
                return Err(mapper_parsing(format!(
                    "similarity [{name}] of field [{path}] is not supported: metagate scores with BM25 (k1 1.2, b 0.75)"
                )));
            }
            p.similarity = Some(name);
        }
        if let Some(v) = get("term_vector") {
            let s = v.as_str().unwrap_or_default();
            const OPTIONS: [&str; 7] = [
                "no",
                "yes",
                "with_positions",
                "with_offsets",
                "with_positions_offsets",
                "with_positions_payloads",
                "with_positions_offsets_payloads",
            ];
            if !OPTIONS.contains(&s) {
                return Err(mapper_parsing(format!("Unknown term vector setting: {}", java_string(v))));
            }
            p.term_vector = Some(s.to_string());
        }
        if let Some(v) = get("include_in_all") {
            let _ = v;
            return Err(mapper_parsing(
                "[include_in_all] is not allowed for indices created on or after version 6.0.0 as [_all] is deprecated. As a replacement, you can use an [copy_to] on mapping fields to create your own catch all field.",
            ));
        }
        if let Some(v) = get("boost") {
            // A mapping's boost multiplies every query on the field: a different score.
            if v.as_f64() != Some(1.0) {
                return Err(unsupported(path, format!("[boost: {}]", java_string(v))));
            }
        }
        if let Some(v) = get("index_prefixes") {
            p.index_prefixes = Some(super::index_prefixes::IndexPrefixes::parse(v)?);
        }
        for name in ["fielddata_frequency_filter", "index_phrases"] {
            if let Some(v) = get(name) {
                if !(name == "index_phrases" && v == &json!(false)) {
                    return Err(unsupported(path, format!("[{name}]")));
                }
            }
        }
        if let Some(v) = get("split_queries_on_whitespace") {
            if boolean(path, "split_queries_on_whitespace", v)? {
                return Err(unsupported(path, "[split_queries_on_whitespace: true]".into()));
            }
        }
        if let Some(v) = get("locale") {
            let s = v.as_str().unwrap_or_default();
            let english = s.is_empty() || s.eq_ignore_ascii_case("root") || s.to_ascii_lowercase().starts_with("en");
            if !english {
                return Err(unsupported(path, format!("[locale: {s}]")));
            }
            p.locale = Some(s.to_string());
        }
        p.declared_type = match type_name {
            "half_float" => Some("half_float"),
            "scaled_float" => Some("scaled_float"),
            "binary" => Some("binary"),
            "token_count" => Some("token_count"),
            _ => None,
        };
        if type_name == "token_count" {
            let name = get("analyzer")
                .ok_or_else(|| mapper_parsing(format!("Analyzer must be set for field [{path}] but wasn't.")))?;
            let name = name.as_str().unwrap_or_default();
            p.token_analyzer = Some(
                analysis
                    .field_analyzer(name)
                    .map_err(|_| mapper_parsing(format!("analyzer [{name}] not found for field [{path}]")))?,
            );
            p.count_without_increments = get("enable_position_increments").is_some_and(|v| v == &json!(false));
        }
        if type_name == "scaled_float" {
            let f = get("scaling_factor")
                .ok_or_else(|| mapper_parsing(format!("Field [{path}] misses required parameter [scaling_factor]")))?;
            let f = f.as_f64().ok_or_else(|| {
                mapper_parsing(format!("[scaling_factor] must be a number, got [{}]", java_string(f)))
            })?;
            p.scaling_factor = Some(f);
        }
        Ok(p)
    }

    /// Whether the field's text has norms (scored by its length).
    pub fn has_norms(&self, ftype: FieldType) -> bool {
        ftype == FieldType::Text && self.norms != Some(false)
    }

    /// The parameters ES prints between `doc_values` and the multi-fields, in its order
    /// (`FieldMapper.doXContentBody`): `store` after `index` comes first.
    pub(super) fn render_common(&self, m: &mut Map<String, Value>) {
        if self.store {
            m.insert("store".into(), json!(true));
        }
    }

    /// The parameters ES prints after `doc_values` and before the multi-fields.
    pub(super) fn render_after_doc_values(&self, m: &mut Map<String, Value>) {
        if let Some(t) = &self.term_vector {
            m.insert("term_vector".into(), json!(t));
        }
        if let Some(n) = self.norms {
            m.insert("norms".into(), json!(n));
        }
        if let Some(o) = &self.index_options {
            m.insert("index_options".into(), json!(o));
        }
        if self.eager_global_ordinals {
            m.insert("eager_global_ordinals".into(), json!(true));
        }
        if let Some(s) = &self.similarity {
            m.insert("similarity".into(), json!(s));
        }
    }

    /// `copy_to`, printed after the multi-fields, then the type's own parameters.
    pub(super) fn render_after_fields(&self, m: &mut Map<String, Value>) {
        if let Some(a) = &self.token_analyzer {
            m.insert("analyzer".into(), json!(a.name()));
        }
        if self.count_without_increments {
            m.insert("enable_position_increments".into(), json!(false));
        }
        if !self.copy_to.is_empty() {
            m.insert("copy_to".into(), json!(self.copy_to));
        }
        if let Some(f) = self.scaling_factor {
            m.insert("scaling_factor".into(), json!(f));
        }
        if let Some(b) = self.ignore_malformed {
            m.insert("ignore_malformed".into(), json!(b));
        }
        if let Some(b) = self.coerce {
            m.insert("coerce".into(), json!(b));
        }
        if let Some(l) = &self.locale {
            m.insert("locale".into(), json!(l));
        }
        if let Some(v) = &self.null_value {
            m.insert("null_value".into(), v.clone());
        }
        if self.fielddata {
            m.insert("fielddata".into(), json!(true));
        }
        if let Some(p) = self.index_prefixes {
            m.insert("index_prefixes".into(), p.to_json());
        }
    }
}
