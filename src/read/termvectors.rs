//! `_termvectors` and `_mtermvectors`, as ES 6.8's TermVectorsService answers them for
//! fields without stored term vectors (the file stores none): the field's values are
//! taken from the document's `_source` (or from an artificial `doc`) and analysed again
//! as indexing analysed them (through `_analyze`'s field analysis: the same positions,
//! gaps and offsets, in UTF-16 units), and the statistics come from the index.
//!
//! Fields: those `fields` names (wildcards allowed) that are indexed `text` or `keyword`
//! fields (others are skipped, as ES skips them); without `fields`, the fields whose
//! mapping asks for term vectors (which ES would have stored), those of
//! `per_field_analyzer`, or for an artificial document all of its fields. Term vectors
//! carry no payloads (no field here produces them: an index whose analysis defines a
//! payload filter is refused when payloads are asked for), and `dfs` is refused.
//! `filter` keeps each field's best terms as ES's TermVectorsFilter does.

use super::docs::{lookup, single_index};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::index::IndexReader;
use crate::mapping::{simple_match, FieldMapping, FieldType};
use crate::store::Snapshot;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::time::Instant;

/// What a term vectors request asks for.
#[derive(Debug, Clone)]
struct Options {
    fields: Option<Vec<String>>,
    positions: bool,
    offsets: bool,
    payloads: bool,
    term_statistics: bool,
    field_statistics: bool,
    per_field_analyzer: BTreeMap<String, String>,
    filter: Option<Filter>,
}

/// `filter`: ES's TermVectorsFilter, which keeps each field's best terms by tf-idf
/// (Lucene's ClassicSimilarity idf over the index) and adds their `score`.
#[derive(Debug, Clone, Copy)]
struct Filter {
    max_num_terms: i64,
    min_term_freq: i64,
    max_term_freq: i64,
    min_doc_freq: i64,
    max_doc_freq: i64,
    min_word_length: i64,
    max_word_length: i64,
}

impl Filter {
    fn parse(v: &Value) -> Result<Filter> {
        let Value::Object(o) = v else {
            return Err(Error::parsing_no_pos("The parameter [filter] must be an object"));
        };
        let mut f = Filter {
            max_num_terms: 25,
            min_term_freq: 0,
            max_term_freq: i64::from(i32::MAX),
            min_doc_freq: 0,
            max_doc_freq: i64::from(i32::MAX),
            min_word_length: 0,
            max_word_length: 0,
        };
        for (k, x) in o {
            let n = x.as_i64().ok_or_else(|| {
                Error::parsing_no_pos(format!("failed to parse term vectors filter: [{k}] must be a number"))
            })?;
            match k.as_str() {
                "max_num_terms" => f.max_num_terms = n,
                "min_term_freq" => f.min_term_freq = n,
                "max_term_freq" => f.max_term_freq = n,
                "min_doc_freq" => f.min_doc_freq = n,
                "max_doc_freq" => f.max_doc_freq = n,
                "min_word_length" => f.min_word_length = n,
                "max_word_length" => f.max_word_length = n,
                other => {
                    return Err(Error::parsing_no_pos(format!(
                        "The parameter [{other}] is not valid for term vector filter!"
                    )))
                }
            }
        }
        Ok(f)
    }

    /// Whether a term of `freq` occurrences and `len` characters is noise.
    fn noise(&self, len: i64, freq: i64) -> bool {
        (self.min_word_length > 0 && len < self.min_word_length)
            || (self.max_word_length > 0 && len > self.max_word_length)
            || (self.min_term_freq > 0 && freq < self.min_term_freq)
            || freq > self.max_term_freq
    }

    /// Whether a term in `doc_freq` documents of the index is kept.
    fn accepts(&self, doc_freq: i64) -> bool {
        !(self.min_doc_freq > 0 && doc_freq < self.min_doc_freq) && doc_freq <= self.max_doc_freq && doc_freq != 0
    }
}

/// Lucene's ClassicSimilarity idf.
fn classic_idf(doc_freq: i64, doc_count: i64) -> f32 {
    (((doc_count + 1) as f64 / (doc_freq + 1) as f64).ln() + 1.0) as f32
}

impl Default for Options {
    fn default() -> Options {
        Options {
            fields: None,
            positions: true,
            offsets: true,
            payloads: true,
            term_statistics: false,
            field_statistics: true,
            per_field_analyzer: BTreeMap::new(),
            filter: None,
        }
    }
}

/// One document to describe: stored (`id`) or artificial (`doc`).
#[derive(Debug, Clone)]
struct Target {
    index: String,
    doc_type: String,
    id: Option<String>,
    doc: Option<Value>,
    options: Options,
}

fn bool_param(v: &str) -> Result<bool> {
    match v {
        "" | "true" => Ok(true),
        "false" => Ok(false),
        other => Err(Error::illegal_argument(format!(
            "Failed to parse value [{other}] as only [true] or [false] are allowed."
        ))),
    }
}

impl Options {
    /// The URL parameters over the defaults.
    fn from_params(params: &[(String, String)]) -> Result<Options> {
        let mut o = Options::default();
        for (k, v) in params {
            match k.as_str() {
                "fields" => o.fields = Some(v.split(',').filter(|f| !f.is_empty()).map(str::to_string).collect()),
                "positions" => o.positions = bool_param(v)?,
                "offsets" => o.offsets = bool_param(v)?,
                "payloads" => o.payloads = bool_param(v)?,
                "term_statistics" => o.term_statistics = bool_param(v)?,
                "field_statistics" => o.field_statistics = bool_param(v)?,
                "dfs" => return Err(unsupported("dfs")),
                _ => {}
            }
        }
        Ok(o)
    }

    /// A body's members over these options (`doc` and the coordinates are the caller's).
    fn read_body(&mut self, body: &Map<String, Value>) -> Result<()> {
        let flag = |k: &str, v: &Value| {
            crate::json_value::bool_of(v)
                .ok_or_else(|| Error::illegal_argument(format!("failed to parse boolean value for [{k}]")))
        };
        for (k, v) in body {
            match k.as_str() {
                "fields" => {
                    self.fields = Some(match v {
                        Value::Array(a) => a.iter().map(crate::json_value::value_to_string).collect(),
                        other => vec![crate::json_value::value_to_string(other)],
                    })
                }
                "positions" => self.positions = flag(k, v)?,
                "offsets" => self.offsets = flag(k, v)?,
                "payloads" => self.payloads = flag(k, v)?,
                "term_statistics" | "termStatistics" => self.term_statistics = flag(k, v)?,
                "field_statistics" | "fieldStatistics" => self.field_statistics = flag(k, v)?,
                "per_field_analyzer" => {
                    let Value::Object(m) = v else {
                        return Err(Error::parsing_no_pos("per_field_analyzer must be an object"));
                    };
                    self.per_field_analyzer =
                        m.iter().map(|(f, a)| (f.clone(), crate::json_value::value_to_string(a))).collect();
                }
                "filter" => self.filter = Some(Filter::parse(v)?),
                "dfs" => return Err(unsupported("dfs")),
                "doc" | "_index" | "_type" | "_id" | "routing" | "_routing" | "version" | "_version"
                | "version_type" | "preference" | "realtime" | "parent" => {}
                other => {
                    return Err(Error::parsing_no_pos(format!(
                        "failed to parse term vectors request: unknown field [{other}]"
                    )))
                }
            }
        }
        Ok(())
    }
}

fn unsupported(what: &str) -> Error {
    Error::illegal_argument(format!("[{what}] of term vectors is not supported by metagate"))
}

impl Engine {
    /// `{index}/{type}[/{id}]/_termvectors`: the term vectors of a stored document (`id`)
    /// or of the body's artificial `doc`.
    pub fn termvectors(
        &self,
        index: &str,
        doc_type: &str,
        id: Option<&str>,
        body: &str,
        params: &[(String, String)],
    ) -> Result<Value> {
        let mut options = Options::from_params(params)?;
        let mut doc = None;
        if !body.trim().is_empty() {
            let v: Value =
                serde_json::from_str(body).map_err(|e| Error::json_parse(crate::request::json_error_text(&e)))?;
            let Value::Object(o) = v else {
                return Err(Error::parsing_no_pos("term vectors request must be an object"));
            };
            options.read_body(&o)?;
            doc = o.get("doc").cloned();
        }
        if id.is_none() && doc.is_none() {
            return Err(Error::new(
                400,
                crate::error::Exception::new(
                    "action_request_validation_exception",
                    "Validation Failed: 1: id is missing;",
                ),
            ));
        }
        let snap = self.snapshot()?;
        let target =
            Target { index: index.into(), doc_type: doc_type.into(), id: id.map(str::to_string), doc, options };
        self.describe(&snap, &target)
    }

    /// `[{index}[/{type}]]/_mtermvectors`: `docs` (each with its own `_index`, `_type`,
    /// `_id` or `doc`, and options over the URL's) or `ids`; each answered as
    /// `_termvectors` answers it, a failure being that document's `error`.
    pub fn mtermvectors(
        &self,
        index: Option<&str>,
        doc_type: Option<&str>,
        body: &str,
        params: &[(String, String)],
    ) -> Result<Value> {
        let defaults = Options::from_params(params)?;
        let body: Value = if body.trim().is_empty() {
            json!({})
        } else {
            serde_json::from_str(body).map_err(|e| Error::json_parse(crate::request::json_error_text(&e)))?
        };
        let mut targets: Vec<std::result::Result<Target, (String, String, String, Error)>> = Vec::new();
        let url_ids: Vec<String> = params
            .iter()
            .rev()
            .find(|(k, _)| k == "ids")
            .map(|(_, v)| v.split(',').filter(|s| !s.is_empty()).map(str::to_string).collect())
            .unwrap_or_default();
        let body_ids: Vec<String> = match body.get("ids") {
            Some(Value::Array(a)) => a.iter().map(crate::json_value::value_to_string).collect(),
            _ => Vec::new(),
        };
        let shared = match body.get("parameters") {
            Some(Value::Object(p)) => {
                let mut o = defaults.clone();
                o.read_body(p)?;
                o
            }
            _ => defaults.clone(),
        };
        for id in url_ids.iter().chain(&body_ids) {
            targets.push(Ok(Target {
                index: index.unwrap_or_default().to_string(),
                doc_type: doc_type.unwrap_or("_doc").to_string(),
                id: Some(id.clone()),
                doc: None,
                options: shared.clone(),
            }));
        }
        if let Some(Value::Array(docs)) = body.get("docs") {
            for d in docs {
                let Value::Object(o) = d else {
                    return Err(Error::illegal_argument("docs array element should include an object"));
                };
                let text = |k: &str| o.get(k).map(crate::json_value::value_to_string);
                let idx = text("_index").or_else(|| index.map(str::to_string));
                let ty = text("_type").or_else(|| doc_type.map(str::to_string)).unwrap_or_else(|| "_doc".into());
                let id = text("_id");
                let mut options = defaults.clone();
                let target = options.read_body(o).map(|_| Target {
                    index: idx.clone().unwrap_or_default(),
                    doc_type: ty.clone(),
                    id: id.clone(),
                    doc: o.get("doc").cloned(),
                    options,
                });
                targets.push(target.map_err(|e| (idx.unwrap_or_default(), ty, id.unwrap_or_default(), e)));
            }
        }
        if targets.is_empty() {
            return Err(Error::new(
                400,
                crate::error::Exception::new(
                    "action_request_validation_exception",
                    "Validation Failed: 1: multi term vectors: no documents requested;",
                ),
            ));
        }
        let snap = self.snapshot()?;
        let mut out = Vec::new();
        for t in targets {
            let (idx, ty, id, result) = match t {
                Ok(t) if t.index.is_empty() => {
                    let e = Error::illegal_argument("index is missing");
                    (t.index.clone(), t.doc_type.clone(), t.id.clone().unwrap_or_default(), Err(e))
                }
                Ok(t) => {
                    (t.index.clone(), t.doc_type.clone(), t.id.clone().unwrap_or_default(), self.describe(&snap, &t))
                }
                Err((idx, ty, id, e)) => (idx, ty, id, Err(e)),
            };
            out.push(match result {
                Ok(v) => v,
                Err(e) => json!({"_index": idx, "_type": ty, "_id": id, "error": e.to_json()["error"]}),
            });
        }
        Ok(json!({ "docs": out }))
    }

    /// The term vectors answer of one document.
    fn describe(&self, snap: &Snapshot, t: &Target) -> Result<Value> {
        let started = Instant::now();
        let reader = single_index(self, snap, &t.index)?;
        let name = reader.meta.name.clone();
        let (source, id) = match (&t.doc, &t.id) {
            (Some(doc), _) => (doc.clone(), None),
            (None, Some(id)) => match lookup(&reader, snap, Some(&t.doc_type), id)? {
                Some((_, stored)) if !stored.source().is_empty() => {
                    (crate::search::source::parse_stored(stored.source(), id)?, Some(id.clone()))
                }
                // Without a `_source` nothing can be analysed again: ES finds no field.
                Some(_) => (json!({}), Some(id.clone())),
                None => {
                    return Ok(json!({"_index": name, "_type": t.doc_type, "_id": id, "_version": -1, "found": false,
                                     "took": started.elapsed().as_millis() as u64}))
                }
            },
            (None, None) => return Err(Error::illegal_argument("id is missing")),
        };
        if t.options.payloads && analysis_defines_payloads(&reader) {
            return Err(Error::illegal_argument(
                "[payloads] of term vectors are not kept by metagate; ask with payloads=false",
            ));
        }
        let fields = self.selected_fields(&reader, t, &source);
        let mut vectors = Map::new();
        for fm in fields {
            let values = field_values(&source, fm.parent.as_deref().unwrap_or(&fm.path));
            if values.is_empty() {
                continue;
            }
            let tokens = self.field_tokens(&name, fm, t.options.per_field_analyzer.get(&fm.path), &values)?;
            if tokens.is_empty() {
                continue;
            }
            vectors.insert(fm.path.clone(), field_vector(&reader, snap, fm, &tokens, &t.options)?);
        }
        let mut out = Map::new();
        out.insert("_index".into(), json!(name));
        out.insert("_type".into(), json!(t.doc_type));
        if let Some(id) = id {
            out.insert("_id".into(), json!(id));
            out.insert("_version".into(), json!(1));
        } else {
            out.insert("_version".into(), json!(0));
        }
        out.insert("found".into(), json!(true));
        out.insert("took".into(), json!(started.elapsed().as_millis() as u64));
        out.insert("term_vectors".into(), Value::Object(vectors));
        Ok(Value::Object(out))
    }

    /// The fields to describe, in name order (see the module's documentation).
    fn selected_fields<'r>(&self, reader: &'r IndexReader, t: &Target, source: &Value) -> Vec<&'r FieldMapping> {
        let mapping = &reader.meta.mapping;
        let valid = |f: &&FieldMapping| f.index && matches!(f.ftype, FieldType::Text | FieldType::Keyword);
        let chosen: Vec<&FieldMapping> = match &t.options.fields {
            Some(names) => mapping
                .fields
                .values()
                .filter(|f| names.iter().any(|n| n == &f.path || simple_match(n, &f.path)))
                .filter(valid)
                .collect(),
            None if t.doc.is_some() => mapping
                .fields
                .values()
                .filter(valid)
                .filter(|f| !field_values(source, f.parent.as_deref().unwrap_or(&f.path)).is_empty())
                .collect(),
            None => mapping
                .fields
                .values()
                .filter(valid)
                .filter(|f| {
                    f.params.term_vector.as_deref().is_some_and(|v| v != "no")
                        || t.options.per_field_analyzer.contains_key(&f.path)
                })
                .collect(),
        };
        let mut chosen = chosen;
        chosen.sort_by(|a, b| a.path.cmp(&b.path));
        chosen
    }

    /// The tokens indexing made of `values` (`_analyze` of the field, or of the
    /// per-field analyzer): (term, position, start, end) in UTF-16 offsets.
    fn field_tokens(
        &self,
        index: &str,
        fm: &FieldMapping,
        analyzer: Option<&String>,
        values: &[String],
    ) -> Result<Vec<(String, i64, i64, i64)>> {
        let values: Vec<&String> = match (fm.ftype, fm.ignore_above) {
            (FieldType::Keyword, Some(limit)) => values.iter().filter(|v| v.chars().count() <= limit).collect(),
            _ => values.iter().collect(),
        };
        if values.is_empty() {
            return Ok(Vec::new());
        }
        let request = crate::analysis::analyze_api::AnalyzeRequest {
            text: values.iter().map(|v| v.to_string()).collect(),
            analyzer: analyzer.cloned(),
            field: analyzer.is_none().then(|| fm.path.clone()),
            ..Default::default()
        };
        let analyzed = self.analyze(Some(index), &request)?.to_json();
        let tokens = analyzed["tokens"].as_array().cloned().unwrap_or_default();
        Ok(tokens
            .iter()
            .map(|t| {
                let n = |k: &str| t[k].as_i64().unwrap_or(0);
                (t["token"].as_str().unwrap_or_default().to_string(), n("position"), n("start_offset"), n("end_offset"))
            })
            .collect())
    }
}

/// Whether the index's analysis defines a filter that makes payloads.
fn analysis_defines_payloads(reader: &IndexReader) -> bool {
    reader.meta.settings.to_json().to_string().contains("payload")
}

/// One field's term vector: its statistics, then each term in order with its statistics,
/// frequency and tokens.
fn field_vector(
    reader: &IndexReader,
    snap: &Snapshot,
    fm: &FieldMapping,
    tokens: &[(String, i64, i64, i64)],
    o: &Options,
) -> Result<Value> {
    let with_freqs = fm.ftype == FieldType::Text;
    let mut terms: BTreeMap<&str, Vec<(i64, i64, i64)>> = BTreeMap::new();
    for (term, pos, start, end) in tokens {
        terms.entry(term.as_str()).or_default().push((*pos, *start, *end));
    }
    let mut out = Map::new();
    if o.field_statistics {
        if let Some(st) = reader.field_stats(&fm.path).filter(|s| s.doc_count > 0) {
            let sum_ttf = if with_freqs { st.sum_total_term_freq as i64 } else { -1 };
            out.insert(
                "field_statistics".into(),
                json!({"sum_doc_freq": st.sum_doc_freq, "doc_count": st.doc_count, "sum_ttf": sum_ttf}),
            );
        }
    }
    // The index's document frequency of each term (0 for a term it does not hold).
    let mut doc_freqs: BTreeMap<&str, (i64, Option<i64>)> = BTreeMap::new();
    if o.term_statistics || o.filter.is_some() {
        for term in terms.keys() {
            let mut stats = (0, None);
            if let Some(addr) = reader.term_addr(snap, &fm.path, term)? {
                let postings = reader.postings(snap, &fm.path, addr)?;
                let doc_freq = postings.docs.len() as i64;
                let ttf = match &postings.freqs {
                    Some(f) if with_freqs => (0..doc_freq as usize).filter_map(|k| f.get(k)).map(i64::from).sum(),
                    _ if with_freqs => doc_freq,
                    _ => -1,
                };
                stats = (doc_freq, Some(ttf));
            }
            doc_freqs.insert(term, stats);
        }
    }
    // `filter`: the best terms by score; ties keep the earlier term, as Lucene's queue.
    let mut scores: BTreeMap<&str, f32> = BTreeMap::new();
    if let Some(f) = &o.filter {
        let doc_count = reader.field_stats(&fm.path).map(|s| s.doc_count as i64).filter(|&n| n > 0).unwrap_or(1);
        let mut ranked: Vec<(&str, f32)> = Vec::new();
        for (term, occurrences) in &terms {
            let freq = occurrences.len() as i64;
            if f.noise(term.encode_utf16().count() as i64, freq) {
                continue;
            }
            let doc_freq = doc_freqs.get(term).map_or(0, |s| s.0);
            if !f.accepts(doc_freq) {
                continue;
            }
            ranked.push((term, freq as f32 * classic_idf(doc_freq, doc_count)));
        }
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        ranked.truncate(f.max_num_terms.max(0) as usize);
        scores = ranked.into_iter().collect();
    }
    let mut term_map = Map::new();
    // Lucene orders terms by their UTF-8 bytes, which is `str` order.
    for (term, occurrences) in terms {
        if o.filter.is_some() && !scores.contains_key(term) {
            continue;
        }
        let mut t = Map::new();
        if o.term_statistics {
            if let Some(&(doc_freq, Some(ttf))) = doc_freqs.get(term).filter(|s| s.0 > 0) {
                t.insert("doc_freq".into(), json!(doc_freq));
                t.insert("ttf".into(), json!(ttf));
            }
        }
        t.insert("term_freq".into(), json!(occurrences.len()));
        if o.positions || o.offsets {
            let list: Vec<Value> = occurrences
                .iter()
                .map(|(pos, start, end)| {
                    let mut tok = Map::new();
                    if o.positions {
                        tok.insert("position".into(), json!(pos));
                    }
                    if o.offsets {
                        tok.insert("start_offset".into(), json!(start));
                        tok.insert("end_offset".into(), json!(end));
                    }
                    Value::Object(tok)
                })
                .collect();
            t.insert("tokens".into(), Value::Array(list));
        }
        if let Some(score) = scores.get(term) {
            t.insert("score".into(), crate::search::response::score_json(*score));
        }
        term_map.insert(term.to_string(), Value::Object(t));
    }
    out.insert("terms".into(), Value::Object(term_map));
    Ok(Value::Object(out))
}

/// The values of `path` in a source, as text: strings, numbers and booleans as written,
/// through objects and arrays.
fn field_values(source: &Value, path: &str) -> Vec<String> {
    let mut out = Vec::new();
    collect(source, path, &mut out);
    out
}

fn collect(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| collect(i, path, out)),
        Value::Object(o) => {
            if let Some(x) = o.get(path) {
                leaves(x, out);
            }
            // A dotted path may be spelled as nested objects, in part or whole.
            for (i, _) in path.match_indices('.') {
                if let Some(x) = o.get(&path[..i]) {
                    collect(x, &path[i + 1..], out);
                }
            }
        }
        _ => {}
    }
}

fn leaves(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| leaves(i, out)),
        Value::String(s) => out.push(s.clone()),
        Value::Number(_) | Value::Bool(_) => out.push(crate::json_value::value_to_string(v)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_by_path() {
        let src = json!({"a": {"b": ["x", "y"]}, "a.c": 1, "l": [{"m": "p"}, {"m": ["q"]}]});
        assert_eq!(field_values(&src, "a.b"), ["x", "y"]);
        assert_eq!(field_values(&src, "a.c"), ["1"]);
        assert_eq!(field_values(&src, "l.m"), ["p", "q"]);
        assert!(field_values(&src, "nope").is_empty());
    }
}
