//! Highlighting of matched terms in `_source` text, shaped like ES 6.8's default
//! (`unified`) highlighter: the query's terms per field (analyzed like the field, phrases
//! only where the whole phrase occurs), sentence passages bounded by `fragment_size`, the
//! best `number_of_fragments` passages in document order (`0`: every matching value
//! whole), the first pre/post tag around each matched term, snippets trimmed.
//!
//! What a query looks for comes from its weight compiled for highlighting, once per index
//! and request ([`Highlighter::new`], `highlight_terms.rs`); this module finds it in text.

use super::context::Executor;
use super::highlight_terms::{HighlightTerms, Matchers};
use crate::analysis::Token;
use crate::error::{Error, Exception, Result};
use crate::mapping::{simple_match, FieldMapping, FieldType};
use crate::query::Query;
use crate::request::highlight::{HighlightSpec, Options};
use crate::search::response::hit_values::Highlight;
use serde_json::Value;
use unicode_segmentation::UnicodeSegmentation;

/// Most characters of one field's text the highlighter analyzes for one document (ES's
/// `index.highlight.max_analyzed_offset` default from 7.0): the work per hit stays bounded
/// however large a stored field is.
pub const MAX_ANALYZED_OFFSET: usize = 1_000_000;

/// Whether `fm` is indexed with offsets (in its postings or term vectors): ES's unified
/// highlighter then reads them rather than re-analyzing the text, and the
/// `max_analyzed_offset` limit does not apply.
fn keeps_offsets(fm: &FieldMapping) -> bool {
    fm.params.index_options.as_deref() == Some("offsets")
        || fm.params.term_vector.as_deref().is_some_and(|t| t.contains("offsets"))
}

/// Fails when the values of `fm` in document `id` are longer than the index's
/// `index.highlight.max_analyzed_offset` (else [`MAX_ANALYZED_OFFSET`]), in UTF-16 units joined by one separator each, as Java counts
/// the highlighter's text. ES 6.8 logs this text as a deprecation and analyzes on; 7.0
/// fails the shard's fetch phase with it (400).
fn check_analyzed_length(ex: &Executor<'_>, fm: &FieldMapping, id: &str, values: &[String]) -> Result<()> {
    let len: usize = values.iter().map(|v| v.encode_utf16().count()).sum::<usize>() + values.len().saturating_sub(1);
    let max = ex.reader.meta.settings.limits.highlight_max_analyzed_offset.map_or(MAX_ANALYZED_OFFSET, |m| m as usize);
    if len <= max {
        return Ok(());
    }
    let index = &ex.reader.meta.name;
    let cause = Exception::new(
        "illegal_argument_exception",
        format!(
            "The length of [{}] field of [{id}] doc of [{index}] index has exceeded [{max}] - maximum allowed to be analyzed for highlighting. This maximum can be set by changing the [index.highlight.max_analyzed_offset] index level setting. For large texts, indexing with offsets or term vectors is recommended!",
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

/// A request's highlighting on one index: per highlighted field, what its query (the
/// search's, or its `highlight_query`) looks for, asked once of the query compiled for
/// highlighting; each hit is then highlighted from its `_source`.
pub struct Highlighter<'a, 's> {
    ex: Executor<'a>,
    spec: &'s HighlightSpec,
    /// Per entry of `spec.fields`, the index in `terms` of its query's terms.
    field_terms: Vec<usize>,
    terms: Vec<HighlightTerms>,
}

impl<'a, 's> Highlighter<'a, 's> {
    /// Compiles `q` and each distinct `highlight_query` of `spec` on `ex`'s index for
    /// highlighting.
    pub fn new(ex: Executor<'a>, q: &'s Query, spec: &'s HighlightSpec) -> Result<Highlighter<'a, 's>> {
        let mut queries: Vec<&Query> = Vec::new();
        let mut terms = Vec::new();
        let mut field_terms = Vec::with_capacity(spec.fields.len());
        for field in &spec.fields {
            let query = field.query.as_ref().unwrap_or(q);
            let i = match queries.iter().position(|x| *x == query) {
                Some(i) => i,
                None => {
                    let mut t = HighlightTerms::default();
                    ex.highlighting().compile(query, 1.0, true)?.highlights(&mut t);
                    queries.push(query);
                    terms.push(t);
                    terms.len() - 1
                }
            };
            field_terms.push(i);
        }
        Ok(Highlighter { ex, spec, field_terms, terms })
    }

    /// Highlight fragments per field for one hit (`id` names it in errors).
    pub fn highlight(&self, source: &Value, id: &str) -> Result<Highlight> {
        let ex = &self.ex;
        let mut out = Highlight::default();
        for (field, &ti) in self.spec.fields.iter().zip(&self.field_terms) {
            // A long text is real work per field: stop for a client that has gone (the
            // fetch phase, like ES's, does not stop at the deadline).
            crate::budget::check_cancelled()?;
            let opts = &field.options;
            let per_field = &self.terms[ti];
            for fm in target_fields(ex, &field.pattern) {
                let mut matchers = Matchers::default();
                if opts.require_field_match {
                    if let Some(m) = per_field.get(&fm.path) {
                        matchers.absorb(m);
                    }
                } else {
                    for m in per_field.all() {
                        matchers.absorb(m);
                    }
                }
                let source_path = fm.parent.as_deref().unwrap_or(&fm.path);
                let mut values = Vec::new();
                collect_values(source, source_path, &mut values);
                if values.is_empty() {
                    continue;
                }
                if opts.plain || !keeps_offsets(fm) {
                    check_analyzed_length(ex, fm, id, &values)?;
                }
                let frags = highlight_values(fm, &values, &matchers, opts);
                if !frags.is_empty() {
                    out.insert(fm.path.clone(), frags);
                }
            }
        }
        Ok(out)
    }
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

/// Byte ranges of the matched tokens of one value.
fn matched_spans(fm: &FieldMapping, value: &str, m: &Matchers) -> Vec<(usize, usize)> {
    let tokens: Vec<Token> = match fm.ftype {
        // A value the analyzer refuses was refused at load: it highlights nothing.
        FieldType::Text => fm.analyzer.analyze(value).unwrap_or_default(),
        _ => {
            let t = fm.keyword_term(value).unwrap_or_else(|_| value.to_string());
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
    let mut spans: Vec<(usize, usize)> =
        tokens.iter().zip(hit).filter(|(_, h)| *h).map(|(t, _)| (t.start, t.end)).collect();
    // In text order, whatever order the analyzer gave its tokens in.
    spans.sort_unstable();
    spans
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
    let mut inside = spans.iter().copied().filter(|(s, e)| *s >= start && *e <= end).peekable();
    while let Some((s, mut e)) = inside.next() {
        if s < at {
            continue;
        }
        // Overlapping matches (the n-grams of one word share its offsets) are tagged
        // once, as Lucene's passage formatter extends a match over those that overlap it.
        while let Some(&(_, next_end)) = inside.peek().filter(|(next_start, _)| *next_start < e) {
            e = e.max(next_end);
            inside.next();
        }
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
    fn overlapping_matches_are_tagged_once() {
        let o = Options { fragments: 0, ..Options::defaults() };
        let value = "logicacmg ehemals avinci";
        let spans = [(0, 9), (0, 9), (10, 17), (12, 17)];
        assert_eq!(render(value, 0, value.len(), &spans, &o), "<em>logicacmg</em> <em>ehemals</em> avinci");
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
