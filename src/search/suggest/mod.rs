//! The `suggest` section of a search: each named suggestion run over every searched
//! index and written as ES 6.8 writes the response's `suggest` member (suggestions by
//! name, each a list of entries with `text`, `offset`, `length` and `options`).

pub mod completion;
pub mod phrase;
pub mod term;

pub use super::response::suggest::{Suggest, SuggestEntry, SuggestOption};
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

/// Runs the request's suggestions: the response's `suggest` member (`now` is the
/// search's clock, for the date math of collate queries).
pub fn run(targets: &[Arc<IndexReader>], snap: &Snapshot, req: &SearchRequest, now: i64) -> Result<Suggest> {
    let mut specs: Vec<&SuggestSpec> = req.suggest.iter().collect();
    // ES sorts suggestions by name (Java's String order).
    specs.sort_by(|a, b| a.name.encode_utf16().cmp(b.name.encode_utf16()));
    let mut out = Suggest::default();
    for spec in specs {
        let key = if req.typed_keys { format!("{}#{}", spec.kind.type_name(), spec.name) } else { spec.name.clone() };
        let entries = match &spec.kind {
            SuggesterKind::Completion(_) => completion_entries(targets, snap, req, spec)?,
            SuggesterKind::Term(_) => term_entries(targets, snap, spec)?,
            SuggesterKind::Phrase(p) => phrase::entries(targets, snap, now, spec.text.as_deref(), p)?,
        };
        out.0.push((key, entries));
    }
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
) -> Result<Vec<SuggestEntry>> {
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
    let mut written = Vec::with_capacity(options.len());
    for (t, found) in &options {
        let reader = &targets[*t];
        let names: Vec<String> = reader
            .meta
            .mapping
            .field(&c.field)
            .and_then(|f| f.params.completion.as_deref())
            .map(|m| m.contexts.iter().map(|c| c.name.clone()).collect())
            .unwrap_or_default();
        written.push(option(reader, snap, req, found, &names)?);
    }
    Ok(vec![SuggestEntry { text: shown.to_string(), offset: 0, length: java_len(shown), options: written }])
}

/// A term suggestion's entries (one per token of the text) over every index: options
/// of the same text merged as ES merges them (frequencies added, the best score kept),
/// sorted and cut at `size`.
fn term_entries(targets: &[Arc<IndexReader>], snap: &Snapshot, spec: &SuggestSpec) -> Result<Vec<SuggestEntry>> {
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
    Ok(entries
        .into_iter()
        .map(|(token, mut options)| {
            options.sort_by(|a, b| term::compare(a, b, t.sort_by_frequency));
            options.truncate(t.size);
            let options = options
                .into_iter()
                .map(|o| SuggestOption::Term { text: o.text, score: o.score, freq: o.freq })
                .collect();
            SuggestEntry { text: token.term, offset: token.offset, length: token.length, options }
        })
        .collect())
}

/// One completion option: `text`, the hit, `contexts`.
fn option(
    reader: &IndexReader,
    snap: &Snapshot,
    req: &SearchRequest,
    found: &completion::Found,
    context_names: &[String],
) -> Result<SuggestOption> {
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
        routing: match req.stored_fields_disabled() {
            true => None,
            false => reader.routing(snap, found.doc)?,
        },
        source,
        fields: None,
        highlight: None,
        sort: None,
        explanation: None,
        inner_hits: None,
    };
    let contexts = match context_names.is_empty() {
        true => Vec::new(),
        false => named_contexts(context_names, &found.contexts),
    };
    Ok(SuggestOption::Completion { text: found.text.clone(), hit: Box::new(hit), contexts })
}

/// An option's `contexts`: ES's `getNamedContexts` builds a `HashMap` of `HashSet`s,
/// so names and values come out in Java's hash order.
fn named_contexts(names: &[String], contexts: &[(usize, String)]) -> Vec<(String, Vec<String>)> {
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
    names_in_order
        .into_iter()
        .map(|name| {
            let values = by_name.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone()).unwrap_or_default();
            (name.to_string(), java_hash_order(values, 16).into_iter().map(str::to_string).collect())
        })
        .collect()
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
