//! The `suggest` section of a search: each named suggestion run over every searched
//! index and written as ES 6.8 writes the response's `suggest` member (suggestions by
//! name, each a list of entries with `text`, `offset`, `length` and `options`).

pub mod completion;
pub mod term;

use super::json_out::{self, Object};
use super::response::HitJson;
use super::source::{self, SourceJson, StoredSource};
use crate::error::{Error, Exception, Result};
use crate::index::IndexReader;
use crate::mapping::FieldType;
use crate::request::suggest::{SuggestSpec, SuggesterKind};
use crate::request::SearchRequest;
use crate::store::Snapshot;
use completion::{CompletionIndex, Target};
use std::sync::Arc;

/// A suggestion's failure on the shards: ES raises these per shard, so they come as
/// `search_phase_execution_exception`.
fn shard_failure(targets: &[Arc<IndexReader>], reason: String) -> Error {
    Error::all_shards_failed(
        400,
        targets.first().map(|t| t.meta.name.as_str()),
        Exception::new("illegal_argument_exception", reason),
    )
}

/// Runs the request's suggestions; the `suggest` member's value as JSON bytes.
pub fn run(targets: &[Arc<IndexReader>], snap: &Snapshot, req: &SearchRequest) -> Result<Vec<u8>> {
    let mut specs: Vec<&SuggestSpec> = req.suggest.iter().collect();
    // ES sorts suggestions by name (Java's String order).
    specs.sort_by(|a, b| a.name.encode_utf16().cmp(b.name.encode_utf16()));
    let mut out = Vec::new();
    let mut o = Object::start(&mut out);
    for spec in specs {
        let key = if req.typed_keys { format!("{}#{}", spec.kind.type_name(), spec.name) } else { spec.name.clone() };
        let entries = match &spec.kind {
            SuggesterKind::Completion(_) => completion_entries(targets, snap, req, spec)?,
            SuggesterKind::Term(_) => term_entries(targets, snap, spec)?,
        };
        let w = o.key(&key);
        w.push(b'[');
        w.extend_from_slice(&entries);
        w.push(b']');
    }
    o.end();
    Ok(out)
}

/// Java's `String.length()`: UTF-16 units.
fn java_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// A completion suggestion's one entry over every index.
fn completion_entries(
    targets: &[Arc<IndexReader>],
    snap: &Snapshot,
    req: &SearchRequest,
    spec: &SuggestSpec,
) -> Result<Vec<u8>> {
    let SuggesterKind::Completion(c) = &spec.kind else { return Ok(Vec::new()) };
    // ES: a prefix wins, then a regex, then the text; the entry shows the text, else
    // the prefix, else the regex.
    let (target, shown) = match (&spec.prefix, &spec.regex, &spec.text) {
        (Some(p), _, t) => (Target::Prefix(p, c.fuzzy.as_ref()), t.as_deref().unwrap_or(p)),
        (None, Some(r), t) => (Target::Regex(r), t.as_deref().unwrap_or(r)),
        (None, None, Some(t)) => (Target::Prefix(t, c.fuzzy.as_ref()), t.as_str()),
        (None, None, None) => {
            return Err(shard_failure(targets, "'prefix/text' or 'regex' must be defined".into()));
        }
    };
    let mut options: Vec<(usize, completion::Found)> = Vec::new();
    for (t, reader) in targets.iter().enumerate() {
        let mapping = reader.meta.mapping.field(&c.field).and_then(|f| f.params.completion.as_deref());
        let Some(mapping) = mapping else {
            return Err(shard_failure(targets, format!("Field [{}] is not a completion suggest field", c.field)));
        };
        let ix = CompletionIndex::of(reader, snap, &c.field, !mapping.contexts.is_empty())?;
        let target = match &target {
            Target::Prefix(p, f) => Target::Prefix(p, *f),
            Target::Regex(r) => Target::Regex(r),
        };
        for found in ix.lookup(mapping, c, target)? {
            options.push((t, found));
        }
    }
    // The coordinating node's merge: score, then text, then shard and document.
    options.sort_by(|(ta, a), (tb, b)| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.text.encode_utf16().cmp(b.text.encode_utf16()))
            .then(ta.cmp(tb))
            .then(a.doc.cmp(&b.doc))
    });
    if c.skip_duplicates {
        let mut seen = std::collections::HashSet::new();
        options.retain(|(_, o)| seen.insert(o.text.clone()));
    }
    options.truncate(c.size);
    let mut out = Vec::new();
    let mut entry = Object::start(&mut out);
    entry.str("text", shown);
    entry.int("offset", 0);
    entry.int("length", java_len(shown) as i64);
    let w = entry.key("options");
    w.push(b'[');
    for (i, (t, found)) in options.iter().enumerate() {
        if i > 0 {
            w.push(b',');
        }
        let reader = &targets[*t];
        let names: Vec<String> = reader
            .meta
            .mapping
            .field(&c.field)
            .and_then(|f| f.params.completion.as_deref())
            .map(|m| m.contexts.iter().map(|c| c.name.clone()).collect())
            .unwrap_or_default();
        write_option(w, reader, snap, req, found, &names)?;
    }
    w.push(b']');
    entry.end();
    Ok(out)
}

/// A term suggestion's entries (one per token of the text) over every index: options
/// of the same text merged as ES merges them (frequencies added, the best score kept),
/// sorted and cut at `size`.
fn term_entries(targets: &[Arc<IndexReader>], snap: &Snapshot, spec: &SuggestSpec) -> Result<Vec<u8>> {
    let SuggesterKind::Term(t) = &spec.kind else { return Ok(Vec::new()) };
    let Some(text) = &spec.text else {
        return Err(shard_failure(targets, "The required text option is missing".into()));
    };
    let shard_size = t.shard_size.unwrap_or(t.size.max(5));
    let mut entries: Vec<(term::Token, Vec<term::Suggested>)> = Vec::new();
    for reader in targets {
        let mapping = &reader.meta.mapping;
        let field = mapping.resolve_alias(&t.field);
        let Some(fm) = mapping.field(field) else {
            return Err(shard_failure(targets, format!("no mapping found for field [{}]", t.field)));
        };
        let tokens = match (&t.analyzer, &fm.normalizer) {
            (Some(name), _) => {
                let analyzer = mapping
                    .analysis
                    .field_analyzer(name)
                    .map_err(|_| shard_failure(targets, format!("analyzer [{name}] doesn't exists")))?;
                term::tokens(&analyzer, text)?
            }
            (None, Some(n)) => vec![term::Token { term: n.normalize(text)?, offset: 0, length: java_len(text) }],
            (None, None) if fm.ftype == FieldType::Text => term::tokens(&fm.search_analyzer, text)?,
            (None, None) => vec![term::Token { term: text.clone(), offset: 0, length: java_len(text) }],
        };
        if entries.is_empty() {
            entries = tokens.iter().map(|tk| (tk.clone(), Vec::new())).collect();
        }
        for (i, tk) in tokens.iter().enumerate() {
            let found = term::suggest_token(reader, snap, field, &tk.term, t, shard_size)?;
            let Some((_, options)) = entries.get_mut(i) else { continue };
            for f in found {
                match options.iter_mut().find(|o| o.text == f.text) {
                    Some(o) => {
                        o.freq += f.freq;
                        o.score = o.score.max(f.score);
                    }
                    None => options.push(f),
                }
            }
        }
    }
    let mut out = Vec::new();
    for (i, (token, mut options)) in entries.into_iter().enumerate() {
        options.sort_by(|a, b| term::compare(a, b, t.sort_by_frequency));
        options.truncate(t.size);
        if i > 0 {
            out.push(b',');
        }
        let mut e = Object::start(&mut out);
        e.str("text", &token.term);
        e.int("offset", token.offset as i64);
        e.int("length", token.length as i64);
        let w = e.key("options");
        w.push(b'[');
        for (j, o) in options.iter().enumerate() {
            if j > 0 {
                w.push(b',');
            }
            let mut opt = Object::start(w);
            opt.str("text", &o.text);
            write_float(opt.key("score"), o.score);
            opt.int("freq", o.freq as i64);
            opt.end();
        }
        w.push(b']');
        e.end();
    }
    Ok(out)
}

/// A float as Jackson writes a Java `float`.
fn write_float(out: &mut Vec<u8>, f: f32) {
    use std::io::Write;
    let start = out.len();
    // Writing into a Vec cannot fail.
    let _ = write!(out, "{f}");
    if !out[start..].contains(&b'.') {
        out.extend_from_slice(b".0");
    }
}

/// One completion option: `text`, the hit's members, `contexts`.
fn write_option(
    out: &mut Vec<u8>,
    reader: &IndexReader,
    snap: &Snapshot,
    req: &SearchRequest,
    found: &completion::Found,
    context_names: &[String],
) -> Result<()> {
    let stored = reader.document(snap, found.doc)?;
    let (id, doc_type) = (stored.id().into_owned(), stored.doc_type().into_owned());
    let returns_source = req.returns_source() && reader.meta.mapping.root.source.enabled;
    let source = if !returns_source {
        None
    } else if req.source.is_identity() {
        Some(SourceJson::Stored(StoredSource::from_store(stored)))
    } else {
        let parsed = source::parse_stored(stored.source(), &id)?;
        Some(SourceJson::Filtered(req.source.apply(&parsed)))
    };
    let hit = HitJson {
        located: false,
        index: reader.meta.name.clone(),
        type_id: (!req.stored_fields_disabled()).then_some((doc_type, id)),
        nested: None,
        version: false,
        seq_no: None,
        score: Some(found.score),
        source,
        fields: None,
        highlight: None,
        sort: None,
        explanation: None,
        inner_hits: None,
    };
    let mut hit_bytes = Vec::new();
    hit.write(&mut hit_bytes);
    let mut o = Object::start(out);
    o.str("text", &found.text);
    // The hit's members go inside the option, as ES's `serializeHit` writes them.
    o.members(&hit_bytes[1..hit_bytes.len() - 1]);
    if !context_names.is_empty() {
        write_contexts(o.key("contexts"), context_names, &found.contexts);
    }
    o.end();
    Ok(())
}

/// An option's `contexts`: ES's `getNamedContexts` builds a `HashMap` of `HashSet`s,
/// so names and values come out in Java's hash order.
fn write_contexts(out: &mut Vec<u8>, names: &[String], contexts: &[(usize, String)]) {
    let mut by_name: Vec<(&str, Vec<&str>)> = Vec::new();
    for (i, v) in contexts {
        let Some(name) = names.get(*i) else { continue };
        match by_name.iter_mut().find(|(n, _)| n == name) {
            Some((_, values)) => {
                if !values.contains(&v.as_str()) {
                    values.push(v)
                }
            }
            None => by_name.push((name, vec![v])),
        }
    }
    let names_in_order = java_hash_order(by_name.iter().map(|(n, _)| *n).collect(), table_size_for(contexts.len()));
    let mut o = Object::start(out);
    for name in names_in_order {
        let values = by_name.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone()).unwrap_or_default();
        let w = o.key(name);
        w.push(b'[');
        for (i, v) in java_hash_order(values, 16).into_iter().enumerate() {
            if i > 0 {
                w.push(b',');
            }
            json_out::string(w, v);
        }
        w.push(b']');
    }
    o.end();
}

/// Java's `HashMap.tableSizeFor`: the table a map made with this capacity starts with.
fn table_size_for(n: usize) -> usize {
    n.max(1).next_power_of_two()
}

/// The iteration order of a Java `HashMap`/`HashSet` of strings inserted in this
/// order into a table of `initial` buckets (doubled past a load of 0.75): by bucket of
/// the spread `String.hashCode`, then insertion order.
fn java_hash_order(keys: Vec<&str>, initial: usize) -> Vec<&str> {
    let mut cap = initial.max(1);
    while keys.len() as f64 > cap as f64 * 0.75 {
        cap *= 2;
    }
    let bucket = |s: &str| {
        let h = s.encode_utf16().fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)));
        let h = h ^ ((h as u32) >> 16) as i32;
        (h as u32 as usize) & (cap - 1)
    };
    let mut indexed: Vec<(usize, usize, &str)> = keys.into_iter().enumerate().map(|(i, k)| (bucket(k), i, k)).collect();
    indexed.sort();
    indexed.into_iter().map(|(_, _, k)| k).collect()
}
