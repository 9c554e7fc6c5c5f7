//! Index settings as Elasticsearch 6.8 takes them when an index is created: flat
//! (`{"index.number_of_shards": 1}`), nested (`{"index": {"number_of_shards": 1}}`) or
//! without the `index.` prefix (`{"number_of_shards": 1}`), every value kept as ES keeps
//! it (a string, or a list of strings), every key checked against the settings ES 6.8
//! knows, and the values of the ones it parses checked as it parses them.
//!
//! Settings that steer a search (`max_result_window`, `max_terms_count`, …) are read into
//! [`Limits`]; `analysis` and `similarity` stay as the JSON trees their modules read; the
//! rest (shards, replicas, refresh, translog, …) mean nothing to one file and are only
//! kept and reported, as a node would report them.

pub mod alias;
mod create_index;
mod keys;
mod render;

pub use create_index::CreateIndex;
pub use render::Created;

/// Whether ES 6.8 knows the flat setting `key` (`index.…`): what an import keeps of the
/// settings another cluster version reports.
#[cfg(all(feature = "cluster", not(target_arch = "wasm32")))]
pub fn is_known_setting(key: &str) -> bool {
    keys::lookup(key).is_some()
}

use crate::analysis::definition::AnalysisRegistry;
use crate::error::{Error, Exception, Result};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// One setting's value as ES holds it: settings are strings, or lists of strings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingValue {
    /// A single value (numbers and booleans are kept as their text).
    One(String),
    /// A list (`index.sort.field: ["a", "b"]`, an analyzer's `filter` list).
    List(Vec<String>),
}

impl SettingValue {
    /// The value as JSON: a string or an array of strings.
    pub fn to_json(&self) -> Value {
        match self {
            SettingValue::One(s) => Value::String(s.clone()),
            SettingValue::List(l) => Value::Array(l.iter().cloned().map(Value::String).collect()),
        }
    }

    fn text(&self) -> String {
        match self {
            SettingValue::One(s) => s.clone(),
            // Java's List.toString, which is what a list read as one value prints.
            SettingValue::List(l) => format!("[{}]", l.join(", ")),
        }
    }
}

/// The settings of one index: what was given, and the limits a search applies.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IndexSettings {
    /// Every setting given at creation, by flat key (`index.…`).
    given: BTreeMap<String, SettingValue>,
    /// The limits searches of this index apply.
    pub limits: Limits,
}

/// The index-level limits of ES 6.8 that bound a search, with ES's defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// `index.max_result_window`: `from + size` of a search.
    pub max_result_window: u64,
    /// `index.max_inner_result_window`: `from + size` of `top_hits` and inner hits.
    pub max_inner_result_window: u64,
    /// `index.max_rescore_window` (defaults to `max_result_window`).
    pub max_rescore_window: u64,
    /// `index.max_docvalue_fields_search`.
    pub max_docvalue_fields_search: u64,
    /// `index.max_script_fields`.
    pub max_script_fields: u64,
    /// `index.max_terms_count`: values of one `terms` query.
    pub max_terms_count: u64,
    /// `index.max_regex_length`: UTF-16 units of one `regexp` pattern.
    pub max_regex_length: u64,
    /// `index.max_ngram_diff`: `max_gram - min_gram` of n-gram tokenizers and filters.
    pub max_ngram_diff: u64,
    /// `index.max_shingle_diff`: `max_shingle_size - min_shingle_size`.
    pub max_shingle_diff: u64,
    /// `index.max_adjacency_matrix_filters`.
    pub max_adjacency_matrix_filters: u64,
    /// `index.highlight.max_analyzed_offset` (`None`: ES 6.8's default, unbounded but
    /// warned about past 1,000,000 characters).
    pub highlight_max_analyzed_offset: Option<u64>,
    /// `index.max_slices_per_scroll`.
    pub max_slices_per_scroll: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_result_window: 10_000,
            max_inner_result_window: 100,
            max_rescore_window: 10_000,
            max_docvalue_fields_search: 100,
            max_script_fields: 32,
            max_terms_count: 65_536,
            max_regex_length: 1_000,
            max_ngram_diff: 1,
            max_shingle_diff: 3,
            max_adjacency_matrix_filters: 100,
            highlight_max_analyzed_offset: None,
            max_slices_per_scroll: 1_024,
        }
    }
}

impl IndexSettings {
    /// Parses and checks the `settings` of a create-index body, as ES 6.8's create-index
    /// API does: keys normalised to `index.…`, unknown keys refused (with ES's "did you
    /// mean"), values of parsed settings checked.
    pub fn parse(settings: &Value) -> Result<IndexSettings> {
        let mut flat = BTreeMap::new();
        match settings {
            Value::Null => {}
            Value::Object(o) => flatten("", o, &mut flat)?,
            other => {
                return Err(Error::new(
                    400,
                    Exception::new("settings_exception", format!("Failed to load settings from [{other}]")),
                ))
            }
        }
        let given: BTreeMap<String, SettingValue> = flat
            .into_iter()
            .map(|(k, v)| (if k.starts_with("index.") { k } else { format!("index.{k}") }, v))
            .collect();
        for (key, value) in &given {
            if let Some(builtin) = ["classic", "BM25", "boolean"].iter().find(|b| {
                key.strip_prefix("index.similarity.")
                    .and_then(|r| r.strip_prefix(**b))
                    .is_some_and(|r| r.starts_with('.'))
            }) {
                return Err(Error::illegal_argument(format!(
                    "illegal value for [index.similarity.{builtin}] cannot redefine built-in similarity"
                )));
            }
            let Some(kind) = keys::lookup(key) else {
                return Err(Error::illegal_argument(keys::unknown_setting_message(key)));
            };
            check_value(key, kind, value)?;
        }
        let mut s = IndexSettings { given, limits: Limits::default() };
        s.limits = s.read_limits()?;
        Ok(s)
    }

    /// Settings with only `index.max_result_window` set (the load option of that name).
    pub fn with_max_result_window(mut self, window: u64) -> IndexSettings {
        self.given.insert("index.max_result_window".into(), SettingValue::One(window.to_string()));
        self.limits.max_result_window = window;
        if !self.given.contains_key("index.max_rescore_window") {
            self.limits.max_rescore_window = window;
        }
        self
    }

    /// Every given setting by flat key.
    pub fn given(&self) -> &BTreeMap<String, SettingValue> {
        &self.given
    }

    /// `index.number_of_replicas` as given at creation (0 when not given).
    pub fn number_of_replicas(&self) -> u64 {
        match self.given.get("index.number_of_replicas") {
            Some(SettingValue::One(n)) => n.parse().unwrap_or(0),
            _ => 0,
        }
    }

    /// `index.requests.cache.enable` (true unless given false): whether `size: 0`
    /// searches may use the shard request cache without asking.
    pub fn request_cache_enabled(&self) -> bool {
        !matches!(self.given.get("index.requests.cache.enable"), Some(SettingValue::One(v)) if v == "false")
    }

    /// The given settings under `prefix` (for example `index.analysis.`) as a nested JSON
    /// tree, with the prefix removed: the form `analysis` and `similarity` are read in.
    pub fn subtree(&self, prefix: &str) -> Value {
        let mut root = Map::new();
        for (k, v) in self.given.range(prefix.to_string()..) {
            let Some(rest) = k.strip_prefix(prefix) else { break };
            let mut node = &mut root;
            let mut parts = rest.split('.').peekable();
            while let Some(part) = parts.next() {
                if parts.peek().is_none() {
                    node.insert(part.to_string(), v.to_json());
                    break;
                }
                let entry = node.entry(part.to_string()).or_insert_with(|| Value::Object(Map::new()));
                if !entry.is_object() {
                    // A value and a group under one name: the value wins, as the later key
                    // of a flat map would.
                    break;
                }
                node = entry.as_object_mut().expect("checked above");
            }
        }
        Value::Object(root)
    }

    /// The index's analysis: the analyzers, normalizers and components of its
    /// `index.analysis` settings, checked against its `index.max_ngram_diff`.
    pub fn analysis_registry(&self) -> AnalysisRegistry {
        let analysis = match self.subtree("index.analysis.") {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        let mut registry = AnalysisRegistry::for_index(analysis);
        registry.max_ngram_diff = i64::try_from(self.limits.max_ngram_diff).unwrap_or(i64::MAX);
        registry
    }

    /// The given settings as the catalog stores them: one flat JSON object.
    pub fn to_json(&self) -> Value {
        Value::Object(self.given.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
    }

    /// Reads settings the catalog stored (see [`IndexSettings::to_json`]). Files written
    /// before every setting was kept hold `index.max_result_window` as a number.
    pub fn from_catalog(v: &Value) -> Result<IndexSettings> {
        let mut given = BTreeMap::new();
        if let Value::Object(o) = v {
            for (k, v) in o {
                let value = match v {
                    Value::Array(a) => SettingValue::List(a.iter().map(scalar_text).collect()),
                    other => SettingValue::One(scalar_text(other)),
                };
                given.insert(k.clone(), value);
            }
        }
        let mut s = IndexSettings { given, limits: Limits::default() };
        s.limits = s.read_limits()?;
        Ok(s)
    }

    fn int(&self, key: &str, default: u64) -> Result<u64> {
        match self.given.get(key) {
            None => Ok(default),
            Some(v) => {
                let kind = keys::lookup(key).unwrap_or(keys::Kind::Int { min: 0, max: i32::MAX as i64 });
                check_value(key, kind, v)?;
                Ok(v.text().trim_start_matches('+').parse::<u64>().unwrap_or(default))
            }
        }
    }

    fn read_limits(&self) -> Result<Limits> {
        let d = Limits::default();
        let max_result_window = self.int("index.max_result_window", d.max_result_window)?;
        Ok(Limits {
            max_result_window,
            max_inner_result_window: self.int("index.max_inner_result_window", d.max_inner_result_window)?,
            max_rescore_window: self.int("index.max_rescore_window", max_result_window)?,
            max_docvalue_fields_search: self.int("index.max_docvalue_fields_search", d.max_docvalue_fields_search)?,
            max_script_fields: self.int("index.max_script_fields", d.max_script_fields)?,
            max_terms_count: self.int("index.max_terms_count", d.max_terms_count)?,
            max_regex_length: self.int("index.max_regex_length", d.max_regex_length)?,
            max_ngram_diff: self.int("index.max_ngram_diff", d.max_ngram_diff)?,
            max_shingle_diff: self.int("index.max_shingle_diff", d.max_shingle_diff)?,
            max_adjacency_matrix_filters: self
                .int("index.max_adjacency_matrix_filters", d.max_adjacency_matrix_filters)?,
            // -1, its default in 6.8, leaves it unset.
            highlight_max_analyzed_offset: match self.given.get("index.highlight.max_analyzed_offset") {
                Some(SettingValue::One(v)) if v == "-1" => None,
                Some(_) => Some(self.int("index.highlight.max_analyzed_offset", 0)?),
                None => None,
            },
            max_slices_per_scroll: self.int("index.max_slices_per_scroll", d.max_slices_per_scroll)?,
        })
    }
}

/// The text ES keeps for a scalar JSON value.
fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Flattens nested settings objects into dotted keys, as ES's settings loader does.
fn flatten(prefix: &str, o: &Map<String, Value>, out: &mut BTreeMap<String, SettingValue>) -> Result<()> {
    for (k, v) in o {
        let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        match v {
            Value::Object(inner) => flatten(&key, inner, out)?,
            Value::Array(items) => {
                let mut list = Vec::with_capacity(items.len());
                for item in items {
                    if item.is_object() || item.is_array() {
                        return Err(Error::new(
                            400,
                            Exception::new(
                                "settings_exception",
                                format!("Failed to load settings from [{}]", Value::Object(o.clone())),
                            ),
                        ));
                    }
                    list.push(scalar_text(item));
                }
                out.insert(key, SettingValue::List(list));
            }
            // A null removes a setting: at creation there is nothing to remove.
            Value::Null => {}
            scalar => {
                out.insert(key, SettingValue::One(scalar_text(scalar)));
            }
        }
    }
    Ok(())
}

/// Checks one value the way ES's parser of that setting would read it.
fn check_value(key: &str, kind: keys::Kind, value: &SettingValue) -> Result<()> {
    let text = value.text();
    match kind {
        keys::Kind::Int { min, max } => {
            let n = java_parse_int(&text).ok_or_else(|| {
                Error::new(
                    400,
                    Exception::new(
                        "illegal_argument_exception",
                        format!("Failed to parse value [{text}] for setting [{key}]"),
                    )
                    .caused_by(Exception::new("number_format_exception", format!("For input string: \"{text}\""))),
                )
            })?;
            if n < min {
                return Err(Error::illegal_argument(format!(
                    "Failed to parse value [{text}] for setting [{key}] must be >= {min}"
                )));
            }
            if n > max {
                return Err(Error::illegal_argument(format!(
                    "Failed to parse value [{text}] for setting [{key}] must be <= {max}"
                )));
            }
        }
        keys::Kind::Bool => {
            if text != "true" && text != "false" {
                return Err(Error::illegal_argument(format!(
                    "Failed to parse value [{text}] as only [true] or [false] are allowed."
                )));
            }
        }
        keys::Kind::Time => {
            if !is_time_value(&text) {
                return Err(Error::illegal_argument(format!(
                    "failed to parse setting [{key}] with value [{text}] as a time value: unit is missing or unrecognized"
                )));
            }
        }
        keys::Kind::Any => {}
    }
    Ok(())
}

/// `Integer.parseInt`: an optional sign and decimal digits, within 32 bits.
fn java_parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i64 = s.parse().ok()?;
    (i32::MIN as i64..=i32::MAX as i64).contains(&n).then_some(n)
}

/// ES's `TimeValue.parseTimeValue`: `-1`, `0`, or a number with one of its units.
fn is_time_value(s: &str) -> bool {
    if s == "-1" || s == "0" {
        return true;
    }
    let lower = s.to_ascii_lowercase();
    let number =
        ["nanos", "micros", "ms", "s", "m", "h", "d"].iter().find_map(|unit| lower.strip_suffix(unit)).map(str::trim);
    number.is_some_and(|n| !n.is_empty() && n.parse::<f64>().is_ok())
}

#[cfg(test)]
mod tests;
