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
use crate::request::termvectors::{Filter, MtermvectorsRequest, Options, Target, TermVectorsRequest};
use crate::store::Snapshot;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::time::Instant;

/// What the term vectors filter does with a field's terms.
impl Filter {
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

impl Engine {
    /// `{index}/{type}[/{id}]/_termvectors`: the term vectors of a stored document (`id`)
    /// or of the body's artificial `doc`.
    pub fn termvectors(&self, req: &TermVectorsRequest) -> Result<Value> {
        let snap = self.snapshot()?;
        self.describe(&snap, &req.target)
    }

    /// `[{index}[/{type}]]/_mtermvectors`: each document answered as `_termvectors`
    /// answers it, a failure being that document's `error`.
    pub fn mtermvectors(&self, req: &MtermvectorsRequest) -> Result<Value> {
        let snap = self.snapshot()?;
        let mut out = Vec::new();
        for t in &req.targets {
            let (idx, ty, id, result) = match t {
                Ok(t) if t.index.is_empty() => {
                    let e = Error::illegal_argument("index is missing");
                    (t.index.clone(), t.doc_type.clone(), t.id.clone().unwrap_or_default(), Err(e))
                }
                Ok(t) => {
                    (t.index.clone(), t.doc_type.clone(), t.id.clone().unwrap_or_default(), self.describe(&snap, t))
                }
                Err((idx, ty, id, e)) => (idx.clone(), ty.clone(), id.clone(), Err(e.clone())),
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
            t.insert("score".into(), crate::search::json_out::score_json(*score));
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
