//! Highlighting of matched terms in `_source` text, shaped like ES 6.8's default
//! (`unified`) highlighter: the query's terms per field (analyzed like the field, phrases
//! only where the whole phrase occurs), sentence passages bounded by `fragment_size`, the
//! best `number_of_fragments` passages in document order (`0`: every matching value
//! whole), the first pre/post tag around each matched term, snippets trimmed.

use super::exec::{Executor, Resolved};
use super::terms::{edit_distance, max_edits};
use crate::analysis::{Analyzer, Token};
use crate::error::{Error, Exception, Result};
use crate::mapping::{simple_match, FieldMapping, FieldType};
use crate::query::pattern::{translate_lucene_regex, wildcard_to_regex};
use crate::query::{MultiMatchType, Query};
use crate::request::highlight::{HighlightSpec, Options};
use regex_automata::meta::Regex;
use serde_json::{Map, Value};
use std::collections::HashMap;
use unicode_segmentation::UnicodeSegmentation;

/// A phrase to find: terms with their relative positions, the slop, and whether the last
/// term is a prefix.
type PhraseSpec = (Vec<(u32, String)>, u32, bool);

/// What to look for in one field's text.
#[derive(Default)]
struct Matchers {
    terms: Vec<String>,
    prefixes: Vec<String>,
    patterns: Vec<Regex>,
    fuzzy: Vec<(Vec<char>, u32, usize, bool)>,
    /// Phrase terms with their relative positions, slop, and whether the last is a prefix.
    phrases: Vec<PhraseSpec>,
}

impl Matchers {
    fn is_empty(&self) -> bool {
        self.terms.is_empty()
            && self.prefixes.is_empty()
            && self.patterns.is_empty()
            && self.fuzzy.is_empty()
            && self.phrases.is_empty()
    }

    fn single(&self, t: &str) -> bool {
        self.terms.iter().any(|x| x == t)
            || self.prefixes.iter().any(|p| t.starts_with(p.as_str()))
            || self.patterns.iter().any(|r| r.is_match(t))
            || self.fuzzy.iter().any(|(q, edits, prefix, tr)| {
                let c: Vec<char> = t.chars().collect();
                c.len() >= *prefix
                    && q.iter().take(*prefix).eq(c.iter().take(*prefix))
                    && edit_distance(q, &c, *tr, *edits).is_some()
            })
    }

    fn absorb(&mut self, other: &Matchers) {
        self.terms.extend(other.terms.iter().cloned());
        self.prefixes.extend(other.prefixes.iter().cloned());
        self.patterns.extend(other.patterns.iter().cloned());
        self.fuzzy.extend(other.fuzzy.iter().cloned());
        self.phrases.extend(other.phrases.iter().cloned());
    }
}

/// Most characters of one field's text the highlighter analyzes for one document (ES's
/// `index.highlight.max_analyzed_offset` default from 7.0): the work per hit stays bounded
/// however large a stored field is.
pub const MAX_ANALYZED_OFFSET: usize = 1_000_000;

/// Fails when the values of `fm` in document `id` are longer than
/// [`MAX_ANALYZED_OFFSET`], in UTF-16 units joined by one separator each, as Java counts
/// the highlighter's text. ES 6.8 logs this text as a deprecation and analyzes on; 7.0
/// fails the shard's fetch phase with it (400).
fn check_analyzed_length(ex: &Executor<'_>, fm: &FieldMapping, id: &str, values: &[String]) -> Result<()> {
    let len: usize = values.iter().map(|v| v.encode_utf16().count()).sum::<usize>() + values.len().saturating_sub(1);
    if len <= MAX_ANALYZED_OFFSET {
        return Ok(());
    }
    let index = &ex.reader.meta.name;
    let cause = Exception::new(
        "illegal_argument_exception",
        format!(
            "The length of [{}] field of [{id}] doc of [{index}] index has exceeded [{MAX_ANALYZED_OFFSET}] - maximum allowed to be analyzed for highlighting. This maximum can be set by changing the [index.highlight.max_analyzed_offset] index level setting. For large texts, indexing with offsets or term vectors is recommended!",
            fm.path
        ),
    );
    let mut e = Error::all_shards_failed(400, Some(index), cause);
    for (k, v) in e.exception.metadata.iter_mut() {
        if k == "phase" {
            *v = Value::from("fetch");
        }
    }
    Err(e)
}

/// Highlight fragments per field for one hit (`id` names it in errors).
pub fn highlight(
    ex: &Executor<'_>,
    q: &Query,
    spec: &HighlightSpec,
    source: &Value,
    id: &str,
) -> Result<Map<String, Value>> {
    let mut out = Map::new();
    let mut cache: HashMap<String, HashMap<String, Matchers>> = HashMap::new();
    for field in &spec.fields {
        let opts = &field.options;
        let query = field.query.as_ref().unwrap_or(q);
        let key = format!("{query:?}");
        if !cache.contains_key(&key) {
            let mut per_field = HashMap::new();
            extract(ex, query, &mut per_field)?;
            cache.insert(key.clone(), per_field);
        }
        let per_field = &cache[&key];
        for fm in target_fields(ex, &field.pattern) {
            let mut matchers = Matchers::default();
            if opts.require_field_match {
                if let Some(m) = per_field.get(&fm.path) {
                    matchers.absorb(m);
                }
            } else {
                for m in per_field.values() {
                    matchers.absorb(m);
                }
            }
            let source_path = fm.parent.as_deref().unwrap_or(&fm.path);
            let mut values = Vec::new();
            collect_values(source, source_path, &mut values);
            if values.is_empty() {
                continue;
            }
            check_analyzed_length(ex, fm, id, &values)?;
            let frags = highlight_values(fm, &values, &matchers, opts);
            if !frags.is_empty() {
                out.insert(fm.path.clone(), Value::Array(frags.into_iter().map(Value::String).collect()));
            }
        }
    }
    Ok(out)
}

/// The mapped fields a highlight field name stands for: itself, or for a pattern the text
/// and keyword fields it matches.
fn target_fields<'a>(ex: &Executor<'a>, pattern: &str) -> Vec<&'a FieldMapping> {
    let mapping = &ex.reader.meta.mapping;
    if pattern.contains('*') {
        mapping
            .field_paths()
            .filter(|p| simple_match(pattern, p))
            .filter_map(|p| mapping.field(p))
            .filter(|f| matches!(f.ftype, FieldType::Text | FieldType::Keyword))
            .collect()
    } else {
        mapping.field(pattern).into_iter().collect()
    }
}

/// The values at a dotted path of `_source` (arrays flattened at any level).
fn collect_values(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a.iter().for_each(|x| collect_values(x, path, out)),
        Value::Object(o) => {
            if path.is_empty() {
                return;
            }
            // Keys may themselves contain dots: try the longest matching key first.
            for (k, child) in o {
                if path == k {
                    collect_leaf(child, out);
                } else if path.len() > k.len() && path.starts_with(k.as_str()) && path.as_bytes()[k.len()] == b'.' {
                    collect_values(child, &path[k.len() + 1..], out);
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
        Value::Array(a) => a.iter().for_each(|x| collect_leaf(x, out)),
        _ => {}
    }
}

fn entry<'m>(out: &'m mut HashMap<String, Matchers>, field: &str) -> &'m mut Matchers {
    out.entry(field.to_string()).or_default()
}

/// The terms `q` looks for, per field.
fn extract(ex: &Executor<'_>, q: &Query, out: &mut HashMap<String, Matchers>) -> Result<()> {
    match q {
        Query::Match(m) => {
            if let Some(f) = m.fuzziness.as_deref() {
                add_text(
                    ex,
                    &m.field,
                    &m.text,
                    m.analyzer.as_deref(),
                    Some((f, m.prefix_length, m.transpositions)),
                    out,
                );
            } else {
                add_text(ex, &m.field, &m.text, m.analyzer.as_deref(), None, out);
            }
        }
        Query::MatchPhrase { field, text, slop, analyzer, prefix, .. } => {
            add_phrase(ex, field, text, *slop, analyzer.as_deref(), *prefix, out)
        }
        Query::MultiMatch { fields, text, kind, options, .. } => {
            let default = vec![("*".to_string(), 1.0)];
            let patterns = if fields.is_empty() { &default } else { fields };
            for (fm, _) in ex.expand_fields(patterns, true) {
                match kind {
                    MultiMatchType::Phrase | MultiMatchType::PhrasePrefix => add_phrase(
                        ex,
                        &fm.path,
                        text,
                        0,
                        options.analyzer.as_deref(),
                        *kind == MultiMatchType::PhrasePrefix,
                        out,
                    ),
                    _ => add_text(
                        ex,
                        &fm.path,
                        text,
                        options.analyzer.as_deref(),
                        options.fuzziness.as_deref().map(|f| (f, options.prefix_length, options.transpositions)),
                        out,
                    ),
                }
            }
        }
        Query::Term { field, value, .. } => {
            let t = exact_term(ex, field, &value.text());
            entry(out, field).terms.push(t);
        }
        Query::Terms { field, values, .. } => {
            for v in values {
                let t = exact_term(ex, field, &v.text());
                entry(out, field).terms.push(t);
            }
        }
        Query::Prefix { field, value, .. } => {
            let t = exact_term(ex, field, value);
            entry(out, field).prefixes.push(t);
        }
        Query::Wildcard { field, pattern, .. } => {
            let (re, _) = wildcard_to_regex(&exact_term(ex, field, pattern));
            if let Ok(r) = Regex::new(&re) {
                entry(out, field).patterns.push(r);
            }
        }
        Query::Regexp { field, pattern, .. } => {
            let re = format!("(?s)^(?:{})$", translate_lucene_regex(&exact_term(ex, field, pattern)));
            if let Ok(r) = Regex::new(&re) {
                entry(out, field).patterns.push(r);
            }
        }
        Query::Fuzzy { field, value, fuzziness, prefix_length, transpositions, .. } => {
            let t = exact_term(ex, field, value);
            let chars: Vec<char> = t.chars().collect();
            if let Ok(edits) = max_edits(fuzziness, chars.len()) {
                entry(out, field).fuzzy.push((chars, edits, *prefix_length, *transpositions));
            }
        }
        Query::Bool(b) => {
            for c in b.must.iter().chain(&b.filter).chain(&b.should) {
                extract(ex, c, out)?;
            }
        }
        Query::ConstantScore { filter, .. } => extract(ex, filter, out)?,
        Query::DisMax { queries, .. } => {
            for c in queries {
                extract(ex, c, out)?;
            }
        }
        Query::Boosting { positive, .. } => extract(ex, positive, out)?,
        Query::FunctionScore(fs) => extract(ex, &fs.query, out)?,
        Query::QueryString(qs) => {
            // A query that fails to build has already failed the search.
            if let Ok(node) = super::query_text::build(ex, qs) {
                let mut leaves = Vec::new();
                super::query_text::leaf_queries(&node, &mut leaves);
                for l in &leaves {
                    extract(ex, l, out)?;
                }
            }
        }
        Query::MatchAll { .. } | Query::MatchNone | Query::Range(_) | Query::Exists { .. } | Query::Ids { .. } => {}
    }
    Ok(())
}

/// A term as the field indexes it (keyword normalizers applied).
fn exact_term(ex: &Executor<'_>, field: &str, value: &str) -> String {
    match ex.resolve(field) {
        Resolved::Field(fm) if fm.ftype == FieldType::Keyword => {
            fm.normalizer.map(|n| n.normalize(value)).unwrap_or_else(|| value.to_string())
        }
        _ => value.to_string(),
    }
}

fn field_analyzer(fm: &FieldMapping, forced: Option<&str>) -> Analyzer {
    forced.and_then(Analyzer::from_name).unwrap_or(fm.search_analyzer)
}

fn add_text(
    ex: &Executor<'_>,
    field: &str,
    text: &str,
    analyzer: Option<&str>,
    fuzzy: Option<(&str, usize, bool)>,
    out: &mut HashMap<String, Matchers>,
) {
    let terms: Vec<String> = match ex.resolve(field) {
        Resolved::Field(fm) if fm.ftype == FieldType::Text => {
            field_analyzer(fm, analyzer).analyze(text).into_iter().map(|t| t.text).collect()
        }
        Resolved::Unmapped => return,
        _ => vec![exact_term(ex, field, text)],
    };
    let m = entry(out, field);
    for t in terms {
        match fuzzy {
            Some((f, prefix, tr)) => {
                let chars: Vec<char> = t.chars().collect();
                if let Ok(edits) = max_edits(f, chars.len()) {
                    m.fuzzy.push((chars, edits, prefix, tr));
                }
            }
            None => m.terms.push(t),
        }
    }
}

fn add_phrase(
    ex: &Executor<'_>,
    field: &str,
    text: &str,
    slop: u32,
    analyzer: Option<&str>,
    prefix: bool,
    out: &mut HashMap<String, Matchers>,
) {
    let tokens: Vec<Token> = match ex.resolve(field) {
        Resolved::Field(fm) if fm.ftype == FieldType::Text => field_analyzer(fm, analyzer).analyze(text),
        Resolved::Unmapped => return,
        _ => {
            let t = exact_term(ex, field, text);
            let m = entry(out, field);
            if prefix {
                m.prefixes.push(t);
            } else {
                m.terms.push(t);
            }
            return;
        }
    };
    let m = entry(out, field);
    match tokens.len() {
        0 => {}
        1 if prefix => m.prefixes.push(tokens[0].text.clone()),
        1 => m.terms.push(tokens[0].text.clone()),
        _ => {
            let base = tokens[0].position;
            m.phrases.push((tokens.iter().map(|t| (t.position - base, t.text.clone())).collect(), slop, prefix));
        }
    }
}

/// Byte ranges of the matched tokens of one value.
fn matched_spans(fm: &FieldMapping, value: &str, m: &Matchers) -> Vec<(usize, usize)> {
    let tokens: Vec<Token> = match fm.ftype {
        FieldType::Text => fm.analyzer.analyze(value),
        _ => {
            let t = fm.normalizer.map(|n| n.normalize(value)).unwrap_or_else(|| value.to_string());
            vec![Token { text: t, position: 0, start: 0, end: value.len() }]
        }
    };
    let mut hit = vec![false; tokens.len()];
    for (i, t) in tokens.iter().enumerate() {
        if m.single(&t.text) {
            hit[i] = true;
        }
    }
    for (terms, slop, prefix) in &m.phrases {
        let n = terms.len();
        let matches_at = |k: usize, j: usize| -> bool {
            let t = &tokens[j].text;
            if *prefix && k + 1 == n {
                t.starts_with(terms[k].1.as_str())
            } else {
                *t == terms[k].1
            }
        };
        if *slop == 0 {
            // Exact: every term at its offset from the first.
            for start in 0..tokens.len() {
                if !matches_at(0, start) {
                    continue;
                }
                let base = tokens[start].position;
                let mut idx = vec![start];
                let ok = terms.iter().enumerate().skip(1).all(|(k, (off, _))| {
                    match tokens.iter().position(|t| t.position == base + off) {
                        Some(j) if matches_at(k, j) => {
                            idx.push(j);
                            true
                        }
                        _ => false,
                    }
                });
                if ok {
                    idx.into_iter().for_each(|j| hit[j] = true);
                }
            }
        } else {
            // Sloppy: every term within slop of some occurrence of the others.
            let present = (0..n).all(|k| (0..tokens.len()).any(|j| matches_at(k, j)));
            if present {
                for (j, h) in hit.iter_mut().enumerate() {
                    if (0..n).any(|k| matches_at(k, j)) {
                        *h = true;
                    }
                }
            }
        }
    }
    tokens.iter().zip(hit).filter(|(_, h)| *h).map(|(t, _)| (t.start, t.end)).collect()
}

/// ES's HTML encoder (`encoder: html`).
fn encode(s: &str, html: bool) -> String {
    if !html {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("&quot;"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\'' => out.push_str("&#x27;"),
            '/' => out.push_str("&#x2F;"),
            c => out.push(c),
        }
    }
    out
}

/// The text of `value[start..end]` with the spans inside it tagged.
fn render(value: &str, start: usize, end: usize, spans: &[(usize, usize)], o: &Options) -> String {
    let mut out = String::new();
    let mut at = start;
    for &(s, e) in spans.iter().filter(|(s, e)| *s >= start && *e <= end) {
        out.push_str(&encode(&value[at..s], o.html));
        out.push_str(&o.pre);
        out.push_str(&encode(&value[s..e], o.html));
        out.push_str(&o.post);
        at = e;
    }
    out.push_str(&encode(&value[at..end], o.html));
    out.trim().to_string()
}

/// One passage: value index, byte range, matches inside and a score.
struct Passage {
    value: usize,
    start: usize,
    end: usize,
    score: f32,
}

/// Passages around the matches, as Lucene's `FieldHighlighter` cuts them with ES's
/// `BoundedBreakIteratorScanner`: a new passage starts at the first match past the
/// current one; it is the sentence holding the match, or, when that sentence is longer
/// than `max_len`, a window of word boundaries around the match of about `max_len`.
fn passages_of(value: &str, spans: &[(usize, usize)], max_len: usize, vi: usize, out: &mut Vec<Passage>) {
    let sentences: Vec<usize> =
        value.split_sentence_bound_indices().map(|(i, _)| i).chain(std::iter::once(value.len())).collect();
    let words: Vec<usize> =
        value.split_word_bound_indices().map(|(i, _)| i).chain(std::iter::once(value.len())).collect();
    // BreakIterator.preceding / following: the last boundary before, the first after.
    let preceding = |b: &[usize], x: usize| b.iter().rev().copied().find(|p| *p < x).unwrap_or(0);
    let following = |b: &[usize], x: usize| b.iter().copied().find(|p| *p > x).unwrap_or(value.len());
    let (mut window_start, mut window_end) = (0usize, 0usize);
    let mut inner_end = 0usize;
    let mut current: Option<Passage> = None;
    let mut distinct: Vec<&str> = Vec::new();
    for &(ms, me) in spans {
        let starts_new = current.as_ref().map(|p| ms >= p.end).unwrap_or(true);
        if starts_new {
            if let Some(p) = current.take() {
                out.push(p);
            }
            distinct.clear();
            let offset = ms + 1;
            let mut inner_start;
            if offset > window_start && offset < window_end {
                inner_start = inner_end;
                inner_end = window_end;
            } else {
                window_start = preceding(&sentences, offset);
                inner_start = window_start;
                window_end = following(&sentences, ms);
                inner_end = window_end;
            }
            if inner_end - inner_start > max_len {
                if offset > max_len && offset - max_len > inner_start {
                    inner_start = inner_start.max(preceding(&words, offset - max_len));
                }
                let remaining = max_len.saturating_sub(offset - inner_start);
                if offset + remaining < window_end {
                    inner_end = window_end.min(following(&words, offset + remaining));
                }
            }
            current = Some(Passage { value: vi, start: inner_start, end: inner_end.max(me), score: 0.0 });
        }
        if let Some(p) = current.as_mut() {
            p.end = p.end.max(me);
            let t = &value[ms..me];
            if !distinct.iter().any(|d| d.eq_ignore_ascii_case(t)) {
                distinct.push(t);
                p.score += 1.0;
            }
            p.score += 0.1;
        }
    }
    if let Some(p) = current {
        out.push(p);
    }
}

fn highlight_values(fm: &FieldMapping, values: &[String], m: &Matchers, o: &Options) -> Vec<String> {
    let spans: Vec<Vec<(usize, usize)>> =
        values.iter().map(|v| if m.is_empty() { Vec::new() } else { matched_spans(fm, v, m) }).collect();
    if spans.iter().all(|s| s.is_empty()) {
        if o.no_match_size > 0 {
            let v = &values[0];
            let cut = v
                .split_word_bound_indices()
                .map(|(i, w)| i + w.len())
                .take_while(|e| *e <= o.no_match_size)
                .last()
                .unwrap_or(0);
            let s = encode(&v[..cut], o.html).trim().to_string();
            if !s.is_empty() {
                return vec![s];
            }
        }
        return Vec::new();
    }
    if o.fragments == 0 {
        return values
            .iter()
            .zip(&spans)
            .filter(|(_, s)| !s.is_empty())
            .map(|(v, s)| render(v, 0, v.len(), s, o))
            .collect();
    }
    let mut passages = Vec::new();
    for (vi, (v, s)) in values.iter().zip(&spans).enumerate() {
        if !s.is_empty() {
            passages_of(v, s, o.fragment_size.max(1), vi, &mut passages);
        }
    }
    // The best passages, then (unless ordered by score) back in document order.
    passages.sort_by(|a, b| b.score.total_cmp(&a.score).then((a.value, a.start).cmp(&(b.value, b.start))));
    passages.truncate(o.fragments);
    if !o.by_score {
        passages.sort_by_key(|p| (p.value, p.start));
    }
    passages.iter().map(|p| render(&values[p.value], p.start, p.end, &spans[p.value], o)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_field() -> FieldMapping {
        FieldMapping::new("t", FieldType::Text)
    }

    fn terms(ts: &[&str]) -> Matchers {
        Matchers { terms: ts.iter().map(|s| s.to_string()).collect(), ..Default::default() }
    }

    #[test]
    fn tags_whole_values_and_fragments() {
        let o = Options { fragments: 0, ..Options::defaults() };
        let v = vec!["The BLAST tool aligns sequences.".to_string(), "nothing here".to_string()];
        assert_eq!(
            highlight_values(&text_field(), &v, &terms(&["blast"]), &o),
            vec!["The <em>BLAST</em> tool aligns sequences."]
        );
        let long = "First sentence is here. ".repeat(10)
            + "Then blast appears in this one. "
            + &"Filler words again. ".repeat(10);
        let o = Options::defaults();
        let f = highlight_values(&text_field(), &[long], &terms(&["blast"]), &o);
        assert_eq!(f.len(), 1);
        assert!(f[0].contains("<em>blast</em>"), "{f:?}");
        assert!(f[0].len() <= 100 + 9 + 20, "{}", f[0]);
    }

    #[test]
    fn phrases_only_where_whole() {
        let m = Matchers {
            phrases: vec![(vec![(0, "sequence".into()), (1, "alignment".into())], 0, false)],
            ..Default::default()
        };
        let o = Options { fragments: 0, ..Options::defaults() };
        let v = vec!["sequence alignment and alignment of sequence".to_string()];
        assert_eq!(
            highlight_values(&text_field(), &v, &m, &o),
            vec!["<em>sequence</em> <em>alignment</em> and alignment of sequence"]
        );
    }

    #[test]
    fn html_encoder_and_source_paths() {
        assert_eq!(encode("<a & 'b'>", true), "&lt;a &amp; &#x27;b&#x27;&gt;");
        let src = serde_json::json!({"item": {"names": [{"n": "a"}, {"n": "b"}]}, "x.y": "dotted"});
        let mut out = Vec::new();
        collect_values(&src, "item.names.n", &mut out);
        assert_eq!(out, vec!["a", "b"]);
        out.clear();
        collect_values(&src, "x.y", &mut out);
        assert_eq!(out, vec!["dotted"]);
    }
}
