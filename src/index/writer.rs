//! Builds one immutable generation in memory, then writes it in one transaction.

use super::codec::{encode_list, put_u32};
use super::docstore::{DocStoreWriter, MemorySink};
use super::meta::{FieldStats, IndexMeta};
use super::norms::int_to_byte4;
use super::norms::{avg_field_length, norm_cache};
use super::postings::{encode_term, BlockScoring, TextTerm};
use super::stream::write_stream;
use super::{ID_FIELD, TYPE_FIELD};
use crate::analysis::Token;
use crate::error::{Error, Exception, Result};
use crate::mapping::{FieldMapping, FieldType, FieldValue, Mapping};
use crate::store::WriteTxn;
use rustc_hash::FxHashMap;
use serde_json::Value;
use std::collections::BTreeMap;

/// Lucene's position increment gap between the values of a multi-valued text field.
pub const POSITION_INCREMENT_GAP: u32 = 100;

#[derive(Default)]
struct TermAcc {
    docs: Vec<u32>,
    tfs: Vec<u32>,
    positions: Vec<u32>,
}

#[derive(Default)]
struct InvertedBuild {
    terms: FxHashMap<String, TermAcc>,
    norms: Option<Vec<u8>>,
    doc_count: u64,
    sum_total_term_freq: u64,
    with_freqs: bool,
    /// Last document counted in `doc_count` (keyword-like fields add terms one by one).
    last_doc: Option<u32>,
}

enum DocValuesBuild {
    Keyword(Vec<(u32, String)>),
    Long(Vec<(u32, i64)>),
    Double(Vec<(u32, f64)>),
}

struct FieldBuild {
    mapping: FieldMapping,
    date_format: Option<crate::date::DateFormat>,
    subs: Vec<String>,
    inverted: Option<InvertedBuild>,
    doc_values: Option<DocValuesBuild>,
}

impl FieldBuild {
    fn new(mapping: FieldMapping, subs: Vec<String>) -> Result<FieldBuild> {
        let ftype = mapping.ftype;
        let inverted = match ftype {
            FieldType::Text | FieldType::Keyword | FieldType::Boolean => mapping.index,
            _ => false,
        };
        let doc_values = match ftype {
            FieldType::Text => false,
            FieldType::Boolean => true,
            _ => mapping.doc_values || !mapping.index,
        };
        let date_format = if ftype == FieldType::Date {
            Some(
                crate::date::DateFormat::parse_format(mapping.date_format())
                    .map_err(|e| mapper_error(e.to_string()))?,
            )
        } else {
            None
        };
        Ok(FieldBuild {
            inverted: inverted.then(|| InvertedBuild {
                norms: (ftype == FieldType::Text).then(Vec::new),
                with_freqs: ftype == FieldType::Text,
                ..Default::default()
            }),
            doc_values: doc_values.then(|| match ftype {
                FieldType::Text | FieldType::Keyword => DocValuesBuild::Keyword(Vec::new()),
                FieldType::Double | FieldType::Float => DocValuesBuild::Double(Vec::new()),
                _ => DocValuesBuild::Long(Vec::new()),
            }),
            mapping,
            date_format,
            subs,
        })
    }

    /// Indexes all values of this field for `doc`.
    fn index<'v>(&mut self, doc: u32, vals: impl Iterator<Item = &'v FieldValue>, tokens: &mut Vec<Token>) {
        let fm = &self.mapping;
        match fm.ftype {
            FieldType::Text => {
                let Some(inv) = self.inverted.as_mut() else {
                    return;
                };
                let mut length = 0u32;
                let mut next_pos = 0u32;
                for (i, v) in vals.enumerate() {
                    let FieldValue::Str(s) = v else { continue };
                    tokens.clear();
                    fm.analyzer.analyze_into(s, tokens);
                    let base = if i == 0 { 0 } else { next_pos + POSITION_INCREMENT_GAP };
                    for t in tokens.drain(..) {
                        let p = base + t.position;
                        next_pos = p + 1;
                        length += 1;
                        let acc = match inv.terms.get_mut(t.text.as_str()) {
                            Some(a) => a,
                            None => inv.terms.entry(t.text).or_default(),
                        };
                        if acc.docs.last() != Some(&doc) {
                            acc.docs.push(doc);
                            acc.tfs.push(0);
                        }
                        if let Some(tf) = acc.tfs.last_mut() {
                            *tf += 1;
                        }
                        acc.positions.push(p);
                    }
                    if i > 0 && next_pos < base {
                        next_pos = base;
                    }
                }
                let norms = inv.norms.get_or_insert_with(Vec::new);
                if norms.len() <= doc as usize {
                    norms.resize(doc as usize + 1, 0);
                }
                norms[doc as usize] = int_to_byte4(length);
                if length > 0 {
                    inv.doc_count += 1;
                    inv.sum_total_term_freq += length as u64;
                }
            }
            FieldType::Keyword => {
                for v in vals {
                    let FieldValue::Str(s) = v else { continue };
                    if let Some(limit) = fm.ignore_above {
                        if s.len() > limit && s.chars().count() > limit {
                            continue;
                        }
                    }
                    let normalized;
                    let term: &str = match fm.normalizer {
                        Some(n) => {
                            normalized = n.normalize(s);
                            &normalized
                        }
                        None => s,
                    };
                    if let Some(inv) = self.inverted.as_mut() {
                        add_term_once(inv, term, doc);
                    }
                    if let Some(DocValuesBuild::Keyword(dv)) = self.doc_values.as_mut() {
                        dv.push((doc, term.to_string()));
                    }
                }
            }
            FieldType::Boolean => {
                for v in vals {
                    let FieldValue::Long(b) = v else { continue };
                    if let Some(inv) = self.inverted.as_mut() {
                        add_term_once(inv, if *b != 0 { "T" } else { "F" }, doc);
                    }
                    if let Some(DocValuesBuild::Long(dv)) = self.doc_values.as_mut() {
                        dv.push((doc, *b));
                    }
                }
            }
            _ => {
                for v in vals {
                    match (self.doc_values.as_mut(), v) {
                        (Some(DocValuesBuild::Long(dv)), FieldValue::Long(n)) => dv.push((doc, *n)),
                        (Some(DocValuesBuild::Double(dv)), FieldValue::Double(f)) => dv.push((doc, *f)),
                        (Some(DocValuesBuild::Double(dv)), FieldValue::Long(n)) => dv.push((doc, *n as f64)),
                        _ => {}
                    }
                }
            }
        }
    }
}

/// Accumulates documents for one new generation.
pub struct GenerationBuilder {
    mapping: Mapping,
    fields: FxHashMap<String, FieldBuild>,
    docs: DocStoreWriter<MemorySink>,
    doc_count: u32,
    tokens: Vec<Token>,
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

impl GenerationBuilder {
    /// A builder that starts from `mapping` (dynamic fields are added as documents arrive).
    pub fn new(mapping: Mapping) -> GenerationBuilder {
        GenerationBuilder {
            mapping,
            fields: FxHashMap::default(),
            docs: DocStoreWriter::new(MemorySink::default()),
            doc_count: 0,
            tokens: Vec::new(),
        }
    }

    /// Number of documents added so far.
    pub fn doc_count(&self) -> u32 {
        self.doc_count
    }

    /// Adds one document. On error nothing of the document is indexed.
    pub fn add(&mut self, id: &str, doc_type: &str, source: &Value, raw_source: &[u8]) -> Result<()> {
        let Some(members) = source.as_object() else {
            return Err(mapper_error("failed to parse, document is empty or not an object".into()));
        };
        // ES 6.8's DocumentParser refuses its metadata fields at the top of a document
        // (MapperService.META_FIELDS); indexing them as fields would mix them with the
        // document's own `_id`, `_type`, ... terms.
        if let Some(name) = members.keys().find(|k| METADATA_FIELDS.contains(&k.as_str())) {
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
        let mut leaves = Vec::new();
        flatten("", source, &mut leaves);
        // Coerce every value first, so a bad value rejects the whole document.
        let mut values: Vec<(String, FieldValue)> = Vec::with_capacity(leaves.len() * 2);
        for (path, v) in leaves {
            if v.is_object() {
                if self.mapping.field(&path).is_some() {
                    return Err(mapper_error(format!(
                        "failed to parse field [{path}]: a concrete field cannot hold an object"
                    )));
                }
                if !self.mapping.is_object(&path) {
                    self.mapping.map_dynamic(&path, v)?;
                }
                continue;
            }
            if !self.fields.contains_key(path.as_str()) {
                if self.mapping.field(&path).is_none() {
                    if self.mapping.is_object(&path) {
                        return Err(mapper_error(format!(
                            "object mapping for [{path}] tried to parse field [{path}] as object, but found a concrete value"
                        )));
                    }
                    if !self.mapping.map_dynamic(&path, v)? {
                        continue;
                    }
                }
                self.prepare_field(&path)?;
            }
            let Some(fb) = self.fields.get(path.as_str()) else {
                continue;
            };
            let fv = Mapping::coerce_with(&fb.mapping, v, fb.date_format.as_ref())?;
            for sub in fb.subs.iter() {
                if let Some(sb) = self.fields.get(sub.as_str()) {
                    values.push((sub.clone(), Mapping::coerce_with(&sb.mapping, v, sb.date_format.as_ref())?));
                }
            }
            values.push((path, fv));
        }
        self.docs.append(id, doc_type, raw_source)?;
        let doc = self.doc_count;
        self.doc_count += 1;
        self.index_meta_keyword(ID_FIELD, doc, id);
        self.index_meta_keyword(TYPE_FIELD, doc, doc_type);
        // Group values per field (stable: value order kept) so a multi-valued field is
        // inverted as one field instance.
        values.sort_by(|a, b| a.0.cmp(&b.0));
        let mut tokens = std::mem::take(&mut self.tokens);
        let mut i = 0;
        while i < values.len() {
            let mut j = i + 1;
            while j < values.len() && values[j].0 == values[i].0 {
                j += 1;
            }
            if let Some(fb) = self.fields.get_mut(values[i].0.as_str()) {
                fb.index(doc, values[i..j].iter().map(|(_, v)| v), &mut tokens);
            }
            i = j;
        }
        self.tokens = tokens;
        Ok(())
    }

    /// Creates the build state of a mapped field and its multi-fields.
    fn prepare_field(&mut self, path: &str) -> Result<()> {
        let Some(fm) = self.mapping.field(path).cloned() else {
            return Ok(());
        };
        let subs: Vec<String> = fm.multi_fields.iter().map(|s| format!("{path}.{s}")).collect();
        for sub in &subs {
            if !self.fields.contains_key(sub.as_str()) {
                if let Some(sfm) = self.mapping.field(sub).cloned() {
                    self.fields.insert(sub.clone(), FieldBuild::new(sfm, Vec::new())?);
                }
            }
        }
        self.fields.insert(path.to_string(), FieldBuild::new(fm, subs)?);
        Ok(())
    }

    fn index_meta_keyword(&mut self, path: &str, doc: u32, value: &str) {
        let fb = match self.fields.get_mut(path) {
            Some(f) => f,
            None => {
                let fm = FieldMapping::new(path, FieldType::Keyword);
                self.fields.entry(path.to_string()).or_insert(FieldBuild {
                    inverted: Some(InvertedBuild::default()),
                    doc_values: Some(DocValuesBuild::Keyword(Vec::new())),
                    mapping: fm,
                    date_format: None,
                    subs: Vec::new(),
                })
            }
        };
        if let Some(inv) = fb.inverted.as_mut() {
            add_term_once(inv, value, doc);
        }
        if let Some(DocValuesBuild::Keyword(dv)) = fb.doc_values.as_mut() {
            dv.push((doc, value.to_string()));
        }
    }

    /// Writes the generation and returns its catalog entry (not yet registered).
    pub fn write(
        self,
        txn: &mut WriteTxn,
        name: &str,
        generation: u64,
        family: Option<String>,
        max_result_window: u64,
    ) -> Result<IndexMeta> {
        let n = self.doc_count;
        let mut size: u64 = 0;
        let (docs, docs_bytes) = self.docs.finish()?;
        docs.write(txn, generation)?;
        size += docs_bytes;
        let mut paths: Vec<&String> = self.fields.keys().collect();
        paths.sort();
        let mut stats = BTreeMap::new();
        for (fid, path) in paths.into_iter().enumerate() {
            let fid = fid as u32;
            let fb = &self.fields[path];
            let mut st = FieldStats {
                id: fid,
                doc_count: 0,
                sum_total_term_freq: 0,
                sum_doc_freq: 0,
                terms: 0,
                inverted: fb.inverted.is_some(),
                doc_values: fb.doc_values.is_some(),
            };
            let mut sorted_terms: Vec<&String> = Vec::new();
            if let Some(inv) = &fb.inverted {
                let mut terms: Vec<(&String, &TermAcc)> = inv.terms.iter().collect();
                terms.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                let mut fst_builder = fst::MapBuilder::memory();
                let mut postings = Vec::new();
                let mut positions = Vec::new();
                let norms = inv.norms.as_ref().map(|norms| {
                    let mut norms = norms.clone();
                    norms.resize(n as usize, 0);
                    norms
                });
                let scoring = BlockScoring {
                    norms: norms.as_deref().unwrap_or_default(),
                    length_factor: norm_cache(avg_field_length(inv.sum_total_term_freq, inv.doc_count)),
                };
                for (term, acc) in terms.iter() {
                    let text = inv.with_freqs.then_some(TextTerm {
                        tfs: &acc.tfs,
                        positions: &acc.positions,
                        positions_out: &mut positions,
                        scoring: &scoring,
                    });
                    let addr = encode_term(&mut postings, &acc.docs, text);
                    fst_builder
                        .insert(term.as_bytes(), addr)
                        .map_err(|e| Error::storage(format!("term dictionary: {e}")))?;
                    st.sum_doc_freq += acc.docs.len() as u64;
                    if !inv.with_freqs {
                        st.sum_total_term_freq += acc.docs.len() as u64;
                    }
                    sorted_terms.push(*term);
                }
                size += (postings.len() + positions.len()) as u64;
                write_stream(txn, generation, "postings", fid, &postings)?;
                if inv.with_freqs {
                    write_stream(txn, generation, "positions", fid, &positions)?;
                }
                st.terms = terms.len() as u64;
                st.doc_count = inv.doc_count;
                if inv.with_freqs {
                    st.sum_total_term_freq = inv.sum_total_term_freq;
                }
                let fst_bytes =
                    fst_builder.into_inner().map_err(|e| Error::storage(format!("term dictionary: {e}")))?;
                size += fst_bytes.len() as u64;
                txn.gen_put_blob(generation, &format!("fst/{fid}"), &fst_bytes)?;
                if let Some(norms) = &norms {
                    size += norms.len() as u64;
                    txn.gen_put_blob(generation, &format!("norms/{fid}"), norms)?;
                }
            }
            if let Some(dv) = &fb.doc_values {
                let blobs = encode_doc_values(dv, n, &sorted_terms);
                for (key, bytes) in blobs {
                    size += bytes.len() as u64;
                    txn.gen_put_blob(generation, &format!("{key}/{fid}"), &bytes)?;
                }
                if fb.inverted.is_none() {
                    st.doc_count = count_docs_with_values(dv);
                }
            }
            stats.insert(path.clone(), st);
        }
        Ok(IndexMeta {
            name: name.to_string(),
            generation,
            uuid: random_id(22),
            created_ms: crate::engine::now_ms(),
            doc_count: n as u64,
            size_bytes: size,
            family,
            mapping: self.mapping,
            max_result_window,
            fields: stats,
        })
    }
}

/// Adds `term` for `doc` with frequency 1 unless already present (keyword semantics).
fn add_term_once(inv: &mut InvertedBuild, term: &str, doc: u32) -> bool {
    if inv.last_doc != Some(doc) {
        inv.last_doc = Some(doc);
        inv.doc_count += 1;
    }
    let acc = match inv.terms.get_mut(term) {
        Some(a) => a,
        None => inv.terms.entry(term.to_string()).or_default(),
    };
    if acc.docs.last() == Some(&doc) {
        return false;
    }
    acc.docs.push(doc);
    acc.tfs.push(1);
    true
}

fn count_docs_with_values(dv: &DocValuesBuild) -> u64 {
    let mut last = None;
    let mut c = 0;
    let mut bump = |d: u32| {
        if last != Some(d) {
            c += 1;
            last = Some(d);
        }
    };
    match dv {
        DocValuesBuild::Keyword(v) => v.iter().for_each(|(d, _)| bump(*d)),
        DocValuesBuild::Long(v) => v.iter().for_each(|(d, _)| bump(*d)),
        DocValuesBuild::Double(v) => v.iter().for_each(|(d, _)| bump(*d)),
    }
    c
}

/// Doc values as blobs: `dv` (per-doc sorted values) and, for numbers, `pts` (values
/// sorted with their docs, for ranges); for keywords the ordinals index the sorted terms.
fn encode_doc_values(dv: &DocValuesBuild, n: u32, sorted_terms: &[&String]) -> Vec<(&'static str, Vec<u8>)> {
    let mut out = Vec::new();
    match dv {
        DocValuesBuild::Keyword(pairs) => {
            let ord_of: FxHashMap<&str, u32> =
                sorted_terms.iter().enumerate().map(|(i, t)| (t.as_str(), i as u32)).collect();
            // Terms only in doc values (index: false) extend the list past the inverted terms.
            let mut extra: Vec<&str> =
                pairs.iter().map(|(_, t)| t.as_str()).filter(|t| !ord_of.contains_key(t)).collect();
            extra.sort_unstable();
            extra.dedup();
            let mut all_terms: Vec<&str> = sorted_terms.iter().map(|s| s.as_str()).collect();
            let merged = !extra.is_empty();
            if merged {
                all_terms.extend(extra);
                all_terms.sort_unstable();
                all_terms.dedup();
            }
            let ord_of: FxHashMap<&str, u32> =
                if merged { all_terms.iter().enumerate().map(|(i, t)| (*t, i as u32)).collect() } else { ord_of };
            let mut per_doc: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
            for (d, t) in pairs {
                per_doc[*d as usize].push(ord_of[t.as_str()]);
            }
            out.push(("dv", encode_ords(&mut per_doc)));
            out.push(("terms", encode_list(all_terms.iter().map(|t| t.as_bytes()))));
        }
        DocValuesBuild::Long(pairs) => {
            let mut per_doc: Vec<Vec<u64>> = vec![Vec::new(); n as usize];
            for (d, v) in pairs {
                per_doc[*d as usize].push(*v as u64);
            }
            for v in &mut per_doc {
                v.sort_by_key(|x| *x as i64);
            }
            out.push(("dv", encode_numbers(0, &per_doc)));
            let mut pts: Vec<(i64, u32)> = pairs.iter().map(|(d, v)| (*v, *d)).collect();
            pts.sort_unstable();
            pts.dedup();
            out.push(("pts", encode_points(0, pts.iter().map(|(v, d)| (*v as u64, *d)))));
        }
        DocValuesBuild::Double(pairs) => {
            let mut per_doc: Vec<Vec<f64>> = vec![Vec::new(); n as usize];
            for (d, v) in pairs {
                per_doc[*d as usize].push(*v);
            }
            for v in &mut per_doc {
                v.sort_by(|a, b| a.total_cmp(b));
            }
            let bits: Vec<Vec<u64>> = per_doc.iter().map(|v| v.iter().map(|f| f.to_bits()).collect()).collect();
            out.push(("dv", encode_numbers(1, &bits)));
            let mut pts: Vec<(f64, u32)> = pairs.iter().map(|(d, v)| (*v, *d)).collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            pts.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
            out.push(("pts", encode_points(1, pts.iter().map(|(v, d)| (v.to_bits(), *d)))));
        }
    }
    out
}

fn encode_ords(per_doc: &mut [Vec<u32>]) -> Vec<u8> {
    let mut out = Vec::new();
    put_u32(&mut out, per_doc.len() as u32);
    let mut off = 0u32;
    put_u32(&mut out, 0);
    for v in per_doc.iter_mut() {
        v.sort_unstable();
        v.dedup();
        off += v.len() as u32;
        put_u32(&mut out, off);
    }
    for v in per_doc.iter() {
        for o in v {
            put_u32(&mut out, *o);
        }
    }
    out
}

fn encode_numbers(kind: u8, per_doc: &[Vec<u64>]) -> Vec<u8> {
    let mut out = vec![kind];
    put_u32(&mut out, per_doc.len() as u32);
    let mut off = 0u32;
    put_u32(&mut out, 0);
    for v in per_doc {
        off += v.len() as u32;
        put_u32(&mut out, off);
    }
    for v in per_doc {
        for x in v {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    out
}

fn encode_points(kind: u8, pts: impl Iterator<Item = (u64, u32)>) -> Vec<u8> {
    let pts: Vec<(u64, u32)> = pts.collect();
    let mut out = vec![kind];
    put_u32(&mut out, pts.len() as u32);
    for (v, d) in pts {
        out.extend_from_slice(&v.to_le_bytes());
        put_u32(&mut out, d);
    }
    out
}

/// Flattens a document into (dotted path, value) leaves; arrays are transparent and
/// objects are reported too (so their paths are mapped as objects).
fn flatten<'a>(prefix: &str, v: &'a Value, out: &mut Vec<(String, &'a Value)>) {
    match v {
        Value::Object(m) => {
            if !prefix.is_empty() {
                out.push((prefix.to_string(), v));
            }
            for (k, child) in m {
                let p = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                flatten(&p, child, out);
            }
        }
        Value::Array(a) => {
            for item in a {
                flatten(prefix, item, out);
            }
        }
        Value::Null => {}
        _ => out.push((prefix.to_string(), v)),
    }
}

/// A random URL-safe id (ES auto-generated ids are 20 characters).
pub fn random_id(len: usize) -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut rng = rand::thread_rng();
    (0..len).map(|_| ALPHABET[rng.gen_range(0..64)] as char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_fields_are_refused_inside_documents() {
        let mut b = GenerationBuilder::new(Mapping::default());
        let doc = serde_json::json!({"_id": "a", "name": "blast aligner"});
        let e = b
            .add("a", "_doc", &doc, doc.to_string().as_bytes())
            .err()
            .map(|e| (e.kind().to_string(), e.reason().to_string()));
        assert_eq!(
            e,
            Some((
                "mapper_parsing_exception".into(),
                "Field [_id] is a metadata field and cannot be added inside a document. Use the index API request parameters.".into()
            ))
        );
        // Below the top level the name is an ordinary field, as in ES.
        let nested = serde_json::json!({"item": {"_id": "x"}});
        assert!(b.add("b", "_doc", &nested, nested.to_string().as_bytes()).is_ok());
        assert_eq!(b.doc_count(), 1);
    }
}
