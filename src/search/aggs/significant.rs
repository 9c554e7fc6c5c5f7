//! `significant_terms` and `significant_text` (ES 6.8's `SignificantTermsAggregator` family
//! and `SignificantTextAggregator`): terms more frequent in the foreground (the documents
//! reaching the aggregation) than in the background (the index, or `background_filter`),
//! scored by a significance heuristic in doubles as ES scores them.
//!
//! As on one ES shard: the candidates with at least `shard_min_doc_count` foreground
//! documents are scored and the best `shard_size` (twice `size` unless given) kept; of
//! those, the ones scoring above 0 with at least `min_doc_count` foreground documents are
//! returned, best first (equal scores by key, where ES's priority queue leaves the order
//! unspecified). The background is the index's documents — nested ones included, Lucene's
//! `maxDoc` — and a term's background frequency its document frequency there.
//!
//! `significant_text` analyses the text of `_source` (the field, or `source_fields`) with
//! the field's index analyzer, each term counting once per document, and takes the
//! background frequencies from the field's postings.

use super::buckets::docs_for_keys;
use super::dedup_text::{Spotter, RUN_BYTES};
use super::include::KeyFilter;
use super::values::{FieldValues, Key, TargetValues, ValueKind};
use super::{run_all, total, Ctx, Typed};
use crate::error::{Error, Exception, Result};
use crate::index::DocSet;
use crate::request::aggs::AggNode;
use crate::request::significant_agg::{Heuristic, SignificantSpec};
use crate::script::{Heap, NoDocument, Script, Value as ScriptValue};
use crate::search::response::aggregations::{AggBody, Bucket, BucketKey, BucketList, KeyValue, ListHead};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// `significant_terms` / `significant_text`.
pub fn significant(ctx: &Ctx<'_>, node: &AggNode, spec: &SignificantSpec, docs: &[DocSet]) -> Result<Typed> {
    if spec.text.is_some() {
        return significant_text(ctx, node, spec, docs);
    }
    let fv = FieldValues::open(ctx, &spec.field)?;
    if fv.unmapped && fv.missing.is_none() {
        // ES's UnmappedSignificantTerms, typed as string significant terms
        // (`UnmappedSignificantTerms.getType`).
        let list = BucketList { head: ListHead::Plain, buckets: Vec::new(), keyed: false };
        return Ok(("sigsterms", AggBody::Buckets(list)));
    }
    let type_name = match fv.kind {
        ValueKind::Keyword | ValueKind::Ip | ValueKind::Unmapped => "sigsterms",
        ValueKind::Double => {
            return Err(Error::all_shards_failed(
                500,
                ctx.targets.first().map(|t| t.meta.name.as_str()),
                Exception::new("unsupported_operation_exception", "No support for examining floating point numerics"),
            ))
        }
        _ => "siglterms",
    };
    let background = background_docs(ctx, spec)?;
    let foreground = doc_counts(&fv, docs);
    // The candidates are charged as a `terms` aggregation's are, and given back at the end.
    let charged: usize = foreground.keys().map(|k| super::CANDIDATE_BYTES + key_bytes(k)).sum();
    ctx.charge(charged, &node.name)?;
    let background_counts = background_counts(&fv, &background, &foreground);
    let include = spec.include.as_ref().map(|f| KeyFilter::compile(ctx, &node.name, &fv, f)).transpose()?;
    let exclude = spec.exclude.as_ref().map(|f| KeyFilter::compile(ctx, &node.name, &fv, f)).transpose()?;
    let candidates = foreground.into_iter().filter(|(k, _)| {
        let text = fv.key_text(k);
        include.as_ref().map(|f| f.accepts(k, &text)).unwrap_or(true)
            && !exclude.as_ref().map(|f| f.accepts(k, &text)).unwrap_or(false)
    });
    let sizes = Sizes { subset: total(docs), superset: total(&background) };
    let chosen = choose(
        ctx,
        spec,
        sizes,
        candidates.map(|(k, n)| (k.clone(), n, background_counts.get(&k).copied().unwrap_or(0))),
    )?;
    ctx.add_buckets(&node.name, chosen.len())?;
    let keys: Vec<Key> = chosen.iter().map(|c| c.key.clone()).collect();
    let bucket_docs = if node.subs.is_empty() { Vec::new() } else { docs_for_keys(&fv, docs, &keys) };
    let mut rendered = Vec::with_capacity(chosen.len());
    for (i, c) in chosen.into_iter().enumerate() {
        let as_string = if type_name == "siglterms" { fv.key_as_string(&c.key, None) } else { None };
        let key = BucketKey::Term { key: fv.key_value(&c.key), as_string };
        rendered.push(finish_bucket(ctx, node, key, &c, bucket_docs.get(i))?);
    }
    crate::budget::discharge(charged);
    Ok((type_name, render(sizes, rendered)))
}

/// The bytes of a key's text.
fn key_bytes(k: &Key) -> usize {
    match k {
        Key::Str(s) => s.len(),
        _ => 8,
    }
}

/// The background documents of each foreground key (only those: the background is the
/// whole index, whose other terms are not needed).
fn background_counts(fv: &FieldValues, background: &[DocSet], wanted: &HashMap<Key, u64>) -> HashMap<Key, u64> {
    let mut counts: HashMap<Key, u64> = HashMap::with_capacity(wanted.len());
    for (t, d) in background.iter().enumerate() {
        match &fv.targets[t] {
            TargetValues::Keyword(dv) => {
                // Ordinal -> wanted, so the walk does no string work.
                let mut of_ord = vec![false; dv.term_count()];
                for k in wanted.keys() {
                    if let Key::Str(s) = k {
                        if let Ok(o) = dv.lookup(s) {
                            of_ord[o as usize] = true;
                        }
                    }
                }
                let mut per_ord: HashMap<u32, u64> = HashMap::new();
                let mut missing = 0u64;
                for doc in super::walk(d) {
                    let mut any = false;
                    for o in dv.ords(doc) {
                        any = true;
                        if of_ord.get(o as usize).copied().unwrap_or(false) {
                            *per_ord.entry(o).or_default() += 1;
                        }
                    }
                    missing += u64::from(!any);
                }
                for (o, c) in per_ord {
                    *counts.entry(Key::Str(dv.term(o).to_string())).or_default() += c;
                }
                if let (true, Some(m)) = (missing > 0, &fv.missing) {
                    *counts.entry(m.clone()).or_default() += missing;
                }
            }
            _ => {
                for doc in super::walk(d) {
                    fv.for_each_key(t, doc, |k| {
                        if wanted.contains_key(&k) {
                            *counts.entry(k).or_default() += 1;
                        }
                    });
                }
            }
        }
    }
    counts
}

/// The foreground and background sizes.
#[derive(Clone, Copy)]
struct Sizes {
    subset: u64,
    superset: u64,
}

/// A scored candidate.
struct Scored {
    key: Key,
    subset_df: u64,
    superset_df: u64,
    score: f64,
}

/// A significant term's bucket: its counts, score and sub-aggregations.
fn finish_bucket(
    ctx: &Ctx<'_>,
    node: &AggNode,
    key: BucketKey,
    c: &Scored,
    docs: Option<&Vec<DocSet>>,
) -> Result<Bucket> {
    let subs = match docs {
        Some(d) => run_all(ctx, &node.subs, d)?,
        None => Default::default(),
    };
    Ok(Bucket { key, doc_count: c.subset_df, significance: Some((c.score, c.superset_df)), subs })
}

/// The result: the foreground and background sizes and the buckets.
fn render(sizes: Sizes, buckets: Vec<Bucket>) -> AggBody {
    let head = ListHead::Significant { doc_count: sizes.subset, bg_count: sizes.superset };
    AggBody::Buckets(BucketList { head, buckets, keyed: false })
}

/// Scores the candidates `(key, foreground docs, background docs)` and keeps the returned
/// ones, best first.
fn choose(
    ctx: &Ctx<'_>,
    spec: &SignificantSpec,
    sizes: Sizes,
    candidates: impl Iterator<Item = (Key, u64, u64)>,
) -> Result<Vec<Scored>> {
    // ES's BucketCountThresholds.ensureValidity.
    let shard_min = spec.shard_min_doc_count.min(spec.min_doc_count);
    let shard_size = spec.shard_size.unwrap_or(spec.size.saturating_mul(2)).max(spec.size);
    let index = ctx.targets.first().map(|t| t.meta.name.as_str());
    let mut script = match &spec.script {
        Some(s) if spec.heuristic == Heuristic::Script => Some(ScriptScorer::new(s, index)?),
        _ => None,
    };
    let mut scored = Vec::new();
    for (key, subset_df, superset_df) in candidates {
        if subset_df < shard_min || subset_df == 0 {
            continue;
        }
        let score = match script.as_mut() {
            Some(s) => s.score(subset_df, sizes.subset, superset_df, sizes.superset)?,
            None => score(spec.heuristic, subset_df, sizes.subset, superset_df, sizes.superset).map_err(|reason| {
                Error::all_shards_failed(400, index, Exception::new("illegal_argument_exception", reason))
            })?,
        };
        scored.push(Scored { key, subset_df, superset_df, score });
    }
    let by_score = |a: &Scored, b: &Scored| b.score.total_cmp(&a.score).then_with(|| a.key.cmp(&b.key));
    scored.sort_by(by_score);
    scored.truncate(shard_size);
    scored.retain(|c| c.score > 0.0 && c.subset_df >= spec.min_doc_count);
    scored.truncate(spec.size);
    Ok(scored)
}

/// `script_heuristic`'s scorer (ES's ExecutableScriptHeuristic): the script runs once per
/// candidate with `params` holding the script's own and `_subset_freq`, `_subset_size`,
/// `_superset_freq` and `_superset_size`. ES passes these as `LongAccessor`s, Numbers
/// that Painless's dynamic arithmetic takes as ints (neither Long nor Double): ints here
/// too. The result must be a number (ES casts it to `Number`).
struct ScriptScorer<'s> {
    script: Script,
    own: &'s Script,
    heap: Heap,
    index: Option<&'s str>,
}

impl<'s> ScriptScorer<'s> {
    fn new(script: &'s Script, index: Option<&'s str>) -> Result<ScriptScorer<'s>> {
        script.check(index)?;
        // Without the fast path, which reads `params` once, when compiled.
        Ok(ScriptScorer { script: script.with_locals(&[]), own: script, heap: Heap::default(), index })
    }

    fn score(&mut self, subset_df: u64, subset: u64, superset_df: u64, superset: u64) -> Result<f64> {
        let mut params = match &self.own.params {
            Value::Object(m) => m.clone(),
            _ => serde_json::Map::new(),
        };
        for (name, n) in [
            ("_subset_freq", subset_df),
            ("_subset_size", subset),
            ("_superset_freq", superset_df),
            ("_superset_size", superset),
        ] {
            params.insert(name.to_string(), Value::from(n));
        }
        self.script.params = Value::Object(params);
        self.heap.reset();
        let result =
            self.script.run(&mut self.heap, &mut NoDocument).map_err(|h| self.script.failure(self.index, &h))?;
        match crate::script::ops::Num::of(&result) {
            Some(n) => Ok(n.f64()),
            None => {
                let cause = match result {
                    ScriptValue::Null => Exception::new("null_pointer_exception", String::new()).with_null_reason(),
                    other => Exception::new(
                        "class_cast_exception",
                        format!("{} cannot be cast to java.lang.Number", Heap::class_name(&other)),
                    ),
                };
                Err(Error::all_shards_failed(500, self.index, cause))
            }
        }
    }
}

/// The background documents of every target: all of them, or `background_filter`'s.
fn background_docs(ctx: &Ctx<'_>, spec: &SignificantSpec) -> Result<Vec<DocSet>> {
    match &spec.background_filter {
        Some(q) => ctx.filter_docs(q),
        None => Ok(ctx.targets.iter().map(|r| DocSet::full(r.max_doc())).collect()),
    }
}

/// The number of documents of each key (a document counts once per key).
fn doc_counts(fv: &FieldValues, docs: &[DocSet]) -> HashMap<Key, u64> {
    let mut counts: HashMap<Key, u64> = HashMap::new();
    for (t, d) in docs.iter().enumerate() {
        match &fv.targets[t] {
            TargetValues::Keyword(dv) => {
                let mut per_ord = vec![0u64; dv.term_count()];
                let mut missing = 0u64;
                for doc in super::walk(d) {
                    let mut any = false;
                    for o in dv.ords(doc) {
                        any = true;
                        if let Some(c) = per_ord.get_mut(o as usize) {
                            *c += 1;
                        }
                    }
                    missing += u64::from(!any);
                }
                for (o, c) in per_ord.iter().enumerate().filter(|(_, c)| **c > 0) {
                    *counts.entry(Key::Str(dv.term(o as u32).to_string())).or_default() += c;
                }
                if let (true, Some(m)) = (missing > 0, &fv.missing) {
                    *counts.entry(m.clone()).or_default() += missing;
                }
            }
            _ => {
                for doc in super::walk(d) {
                    fv.for_each_key(t, doc, |k| *counts.entry(k).or_default() += 1);
                }
            }
        }
    }
    counts
}

/// `significant_text`.
fn significant_text(ctx: &Ctx<'_>, node: &AggNode, spec: &SignificantSpec, docs: &[DocSet]) -> Result<Typed> {
    let field = spec.field.field.as_str();
    let source_fields: Vec<String> =
        spec.text.as_ref().and_then(|t| t.source_fields.clone()).unwrap_or_else(|| vec![field.to_string()]);
    let dedup = spec.text.as_ref().is_some_and(|t| t.filter_duplicate_text);
    let background = background_docs(ctx, spec)?;
    let sizes = Sizes { subset: total(docs), superset: total(&background) };
    let include =
        spec.include.as_ref().map(|f| KeyFilter::compile(ctx, &node.name, &keyword_values(), f)).transpose()?;
    let exclude =
        spec.exclude.as_ref().map(|f| KeyFilter::compile(ctx, &node.name, &keyword_values(), f)).transpose()?;
    // Per target: the documents of each foreground term (for counts and sub-aggregations).
    let mut term_docs: HashMap<String, Vec<DocSet>> = HashMap::new();
    // Each distinct term is charged as a candidate bucket; given back at the end.
    let mut charged = 0usize;
    for (t, d) in docs.iter().enumerate() {
        let reader = &ctx.targets[t];
        let name = reader.meta.mapping.resolve_alias(field);
        let Some(mapping) = reader.meta.mapping.field(name) else { continue };
        if mapping.ftype != crate::mapping::FieldType::Text {
            return Err(Error::all_shards_failed(
                400,
                Some(&reader.meta.name),
                Exception::new(
                    "illegal_argument_exception",
                    format!("Field [{name}] has no analyzer, but SignificantText requires an analyzed field"),
                ),
            ));
        }
        let mut seen = HashSet::new();
        // ES's aggregator (one per shard and parent bucket) keeps one spotter.
        let mut spotter = dedup.then(Spotter::default);
        for doc in super::walk(d) {
            let stored = reader.document(ctx.snap, doc)?;
            let source: Value = serde_json::from_slice(stored.source()).unwrap_or(Value::Null);
            seen.clear();
            for path in &source_fields {
                let mut texts = Vec::new();
                collect_texts(&source, path, &mut texts);
                for text in texts {
                    let tokens: Vec<String> = mapping.analyzer.analyze(&text)?.into_iter().map(|t| t.text).collect();
                    let tokens = match spotter.as_mut() {
                        Some(s) => {
                            let before = s.runs();
                            let kept = s.filter(tokens);
                            let bytes = (s.runs() - before) * RUN_BYTES;
                            ctx.charge(bytes, &node.name)?;
                            charged += bytes;
                            kept
                        }
                        None => tokens,
                    };
                    seen.extend(tokens);
                }
            }
            if let Some(s) = spotter.as_mut() {
                s.start_new_sequence();
            }
            for term in seen.drain() {
                let entry = term_docs.entry(term);
                if let std::collections::hash_map::Entry::Vacant(v) = &entry {
                    let bytes = super::CANDIDATE_BYTES + v.key().len();
                    ctx.charge(bytes, &node.name)?;
                    charged += bytes;
                }
                entry.or_insert_with(|| vec![DocSet::new(); docs.len()])[t].insert(doc);
            }
        }
    }
    let mut candidates = Vec::new();
    for (term, per_target) in &term_docs {
        let key = Key::Str(term.clone());
        if !include.as_ref().map(|f| f.accepts(&key, term)).unwrap_or(true)
            || exclude.as_ref().map(|f| f.accepts(&key, term)).unwrap_or(false)
        {
            continue;
        }
        let mut superset_df = 0u64;
        for (t, bg) in background.iter().enumerate() {
            let reader = &ctx.targets[t];
            let name = reader.meta.mapping.resolve_alias(field);
            if let Some(addr) = reader.term_addr(ctx.snap, name, term)? {
                let mut postings = reader.postings(ctx.snap, name, addr)?.docs;
                if spec.background_filter.is_some() {
                    postings.and_with(bg);
                }
                superset_df += postings.len();
            }
        }
        candidates.push((key, total(per_target), superset_df));
    }
    let chosen = choose(ctx, spec, sizes, candidates.into_iter())?;
    ctx.add_buckets(&node.name, chosen.len())?;
    let mut rendered = Vec::with_capacity(chosen.len());
    for c in chosen {
        let Key::Str(term) = &c.key else { continue };
        let sub_docs = if node.subs.is_empty() { None } else { term_docs.get(term) };
        let key = BucketKey::Term { key: KeyValue::Str(term.clone()), as_string: None };
        rendered.push(finish_bucket(ctx, node, key, &c, sub_docs)?);
    }
    crate::budget::discharge(charged);
    Ok(("sigsterms", render(sizes, rendered)))
}

/// Values of keyword kind with no targets: what include/exclude of terms compile against.
fn keyword_values() -> FieldValues {
    FieldValues { kind: ValueKind::Keyword, targets: Vec::new(), missing: None, unmapped: false, decimal: None }
}

/// The strings at a dotted `path` of a source (arrays flattened; numbers and booleans as
/// their text, as ES's source lookup gives them to the analyzer).
fn collect_texts(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Array(items) => {
            for item in items {
                collect_texts(item, path, out);
            }
        }
        Value::Object(o) => {
            if let Some(x) = o.get(path) {
                collect_leaf(x, out);
                return;
            }
            // The longest prefix naming an object, as dotted paths may be written either way.
            for (i, _) in path.match_indices('.') {
                if let Some(inner) = o.get(&path[..i]) {
                    collect_texts(inner, &path[i + 1..], out);
                }
            }
        }
        _ => {}
    }
}

fn collect_leaf(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Number(n) => out.push(n.to_string()),
        Value::Bool(b) => out.push(b.to_string()),
        Value::Array(items) => items.iter().for_each(|x| collect_leaf(x, out)),
        _ => {}
    }
}

/// A heuristic's score of a term seen in `subset_df` of `subset` foreground documents and
/// `superset_df` of `superset` background ones, as ES computes it, or ES's refusal.
pub fn score(
    h: Heuristic,
    subset_df: u64,
    subset: u64,
    superset_df: u64,
    superset: u64,
) -> std::result::Result<f64, String> {
    let name = match h {
        Heuristic::Jlh => "JLHScore",
        Heuristic::MutualInformation { .. } => "MutualInformation",
        Heuristic::ChiSquare { .. } => "ChiSquare",
        Heuristic::Gnd { .. } => "GND",
        Heuristic::Percentage => "PercentageScore",
        // Scored by its script (ScriptScorer), which ES does not check.
        Heuristic::Script => return Err("a script heuristic scores with its script".to_string()),
    };
    if !matches!(h, Heuristic::Percentage) {
        if subset_df > subset {
            return Err(format!("subsetFreq > subsetSize, in {name}"));
        }
        if superset_df > superset {
            return Err(format!("supersetFreq > supersetSize, in {name}"));
        }
    }
    Ok(match h {
        Heuristic::Jlh => jlh(subset_df, subset, superset_df, superset),
        Heuristic::Percentage => {
            if superset_df == 0 {
                0.0
            } else {
                subset_df as f64 / superset_df as f64
            }
        }
        Heuristic::MutualInformation { include_negatives, background_is_superset } => {
            let f = Frequencies::new(subset_df, subset, superset_df, superset, background_is_superset);
            let mut s = (mi_term(f.n00, f.n0_, f.n_0, f.n)
                + mi_term(f.n01, f.n0_, f.n_1, f.n)
                + mi_term(f.n10, f.n1_, f.n_0, f.n)
                + mi_term(f.n11, f.n1_, f.n_1, f.n))
                / std::f64::consts::LN_2;
            if s.is_nan() {
                s = f64::NEG_INFINITY;
            }
            if !include_negatives && f.n11 / f.n_1 < f.n10 / f.n_0 {
                s = f64::NEG_INFINITY;
            }
            s
        }
        Heuristic::ChiSquare { include_negatives, background_is_superset } => {
            let f = Frequencies::new(subset_df, subset, superset_df, superset, background_is_superset);
            if !include_negatives && f.n11 / f.n_1 < f.n10 / f.n_0 {
                f64::NEG_INFINITY
            } else {
                f.n * (f.n11 * f.n00 - f.n01 * f.n10).powi(2) / (f.n_1 * f.n1_ * f.n0_ * f.n_0)
            }
        }
        // Refused above.
        Heuristic::Script => 0.0,
        Heuristic::Gnd { background_is_superset } => {
            let f = Frequencies::new(subset_df, subset, superset_df, superset, background_is_superset);
            let (fx, fy, fxy) = (f.n1_, f.n_1, f.n11);
            if fxy == 0.0 {
                0.0
            } else if fx == fy && fx == fxy {
                1.0
            } else {
                let s = (fx.ln().max(fy.ln()) - fxy.ln()) / (f.n.ln() - fx.ln().min(fy.ln()));
                (-s).exp()
            }
        }
    })
}

/// ES's JLHScore: the absolute change of probability times the relative one (0 unless
/// the term is more probable in the foreground).
fn jlh(subset_df: u64, subset: u64, superset_df: u64, superset: u64) -> f64 {
    if subset == 0 || superset == 0 {
        return 0.0;
    }
    let superset_df = superset_df.max(1);
    let sub_p = subset_df as f64 / subset as f64;
    let super_p = superset_df as f64 / superset as f64;
    let absolute = sub_p - super_p;
    if absolute <= 0.0 {
        return 0.0;
    }
    absolute * (sub_p / super_p)
}

/// The contingency counts of NXYSignificanceHeuristic (`N` + in-class digit + has-term).
struct Frequencies {
    n00: f64,
    n01: f64,
    n10: f64,
    n11: f64,
    n0_: f64,
    n1_: f64,
    n_0: f64,
    n_1: f64,
    n: f64,
}

impl Frequencies {
    fn new(subset_df: u64, subset: u64, superset_df: u64, superset: u64, background_is_superset: bool) -> Frequencies {
        let (sf, ss, bf, bs) = (subset_df as f64, subset as f64, superset_df as f64, superset as f64);
        if background_is_superset {
            Frequencies {
                n00: bs - bf - (ss - sf),
                n01: ss - sf,
                n10: bf - sf,
                n11: sf,
                n0_: bs - bf,
                n1_: bf,
                n_0: bs - ss,
                n_1: ss,
                n: bs,
            }
        } else {
            Frequencies {
                n00: bs - bf,
                n01: ss - sf,
                n10: bf,
                n11: sf,
                n0_: bs - bf + ss - sf,
                n1_: bf + sf,
                n_0: bs,
                n_1: ss,
                n: bs + ss,
            }
        }
    }
}

/// One term of the mutual information sum.
fn mi_term(nxy: f64, nx_: f64, n_y: f64, n: f64) -> f64 {
    let numerator = (n * nxy).abs();
    let denominator = (nx_ * n_y).abs();
    let factor = (nxy / n).abs();
    if numerator < 1e-7 && factor < 1e-7 {
        0.0
    } else {
        factor * (numerator / denominator).ln()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heuristics_score_as_es_does() {
        // JLH: (2/3 - 2/10) * ((2/3) / (2/10)).
        let s = score(Heuristic::Jlh, 2, 3, 2, 10).unwrap();
        assert!((s - (2.0 / 3.0 - 0.2) * (2.0 / 3.0 / 0.2)).abs() < 1e-12);
        assert_eq!(score(Heuristic::Jlh, 1, 10, 5, 10).unwrap(), 0.0);
        assert_eq!(score(Heuristic::Percentage, 2, 3, 4, 10).unwrap(), 0.5);
        assert_eq!(score(Heuristic::Percentage, 2, 3, 0, 10).unwrap(), 0.0);
        let gnd = Heuristic::Gnd { background_is_superset: true };
        assert_eq!(score(gnd, 3, 3, 3, 10).unwrap(), 1.0);
        assert_eq!(score(gnd, 0, 3, 3, 10).unwrap(), 0.0);
        let chi = Heuristic::ChiSquare { include_negatives: false, background_is_superset: true };
        // A term only in the foreground: N=10, N11=2, N01=1, N10=0, N00=7.
        let expected = 10.0 * (2.0f64 * 7.0 - 0.0).powi(2) / (3.0 * 2.0 * 8.0 * 7.0);
        assert!((score(chi, 2, 3, 2, 10).unwrap() - expected).abs() < 1e-12);
        // Rarer in the foreground than in the rest: -inf unless negatives are included.
        assert_eq!(score(chi, 1, 5, 8, 10).unwrap(), f64::NEG_INFINITY);
        let mi = Heuristic::MutualInformation { include_negatives: false, background_is_superset: true };
        assert!(score(mi, 2, 3, 2, 10).unwrap() > 0.0);
        assert_eq!(score(mi, 1, 5, 8, 10).unwrap(), f64::NEG_INFINITY);
        assert_eq!(score(Heuristic::Jlh, 4, 3, 2, 10).unwrap_err(), "subsetFreq > subsetSize, in JLHScore");
    }
}
