//! The weight of a `function_score` query (compiled by `search/function_score.rs`):
//! field_value_factor, weight, random_score and script_score, with ES 6.8's score and
//! boost modes, its scorer and its explanation.
//!
//! The arithmetic follows ES 6.8's `FunctionScoreQuery`: the query's boost goes into the
//! inner query (Lucene passes it down to the sub-weight), function values and the score
//! mode are computed in doubles, and the boost mode combines the float query score with
//! the double factor before one cast to float. `random_score` with a seed is ES's own
//! generator (murmur3 of the field's bytes, salted by the index name) so a seed gives the
//! same order as ES. Explanations are ES's (`function score, product of:`, `min of:`
//! with `maxBoost`, the functions' own texts).

use super::Weight;
use crate::budget::Ticker;
use crate::error::{Error, Exception, Result};
use crate::index::{DocSet, KeywordDocValues, NumericDocValues};
use crate::json_value::java_double;
use crate::mapping::FieldType;
use crate::query::{FunctionScoreQuery, ScoreFunction, ScoreFunctionKind};
use crate::search::context::Executor;
use crate::search::explain::{java_float, Expl};
use crate::search::scorer::{BoxScorer, Scorer, NO_MORE};
use crate::search::script_host::{Access, ScriptRunner};
use std::sync::Arc;

/// `FieldValueFactorFunction.Modifier.apply`.
pub(crate) fn modifier(name: &str, v: f64) -> f64 {
    match name {
        "log" => v.log10(),
        "log1p" => (v + 1.0).log10(),
        "log2p" => (v + 2.0).log10(),
        "ln" => v.ln(),
        "ln1p" => v.ln_1p(),
        "ln2p" => (v + 1.0).ln_1p(),
        "square" => v.powi(2),
        "sqrt" => v.sqrt(),
        "reciprocal" => 1.0 / v,
        _ => v,
    }
}

/// hppc's `BitMixer.mix32` (murmur3's finalizer).
fn mix32(k: i32) -> i32 {
    let mut k = k as u32;
    k = (k ^ (k >> 16)).wrapping_mul(0x85eb_ca6b);
    k = (k ^ (k >> 13)).wrapping_mul(0xc2b2_ae35);
    (k ^ (k >> 16)) as i32
}

/// Lucene's `StringHelper.murmurhash3_x86_32`.
fn murmur3_x86_32(data: &[u8], seed: i32) -> i32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mut h1 = seed as u32;
    let chunks = data.chunks_exact(4);
    let tail = chunks.remainder();
    for c in chunks {
        let mut k1 = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        k1 = k1.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h1 ^= k1;
        h1 = h1.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let mut k1 = 0u32;
    if tail.len() == 3 {
        k1 = (tail[2] as u32) << 16;
    }
    if tail.len() >= 2 {
        k1 |= (tail[1] as u32) << 8;
    }
    if !tail.is_empty() {
        k1 |= tail[0] as u32;
        k1 = k1.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h1 ^= k1;
    }
    h1 ^= data.len() as u32;
    h1 ^= h1 >> 16;
    h1 = h1.wrapping_mul(0x85eb_ca6b);
    h1 ^= h1 >> 13;
    h1 = h1.wrapping_mul(0xc2b2_ae35);
    h1 ^= h1 >> 16;
    h1 as i32
}

/// Java's `String.hashCode` (UTF-16 code units).
fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// The int seed ES derives from a JSON seed: ints as they are, longs via `Long.hashCode`.
fn seed_int(seed: i64) -> i32 {
    if seed >= i32::MIN as i64 && seed <= i32::MAX as i64 {
        seed as i32
    } else {
        (seed ^ ((seed as u64) >> 32) as i64) as i32
    }
}

/// Per-index state of one function (doc values, random seeds).
pub(crate) enum Prepared<'a> {
    /// `weight` only (`ScoreOne`).
    One,
    /// `field_value_factor` with the field's values.
    Fvf { field: String, factor: f32, modifier: String, missing: Option<f64>, dv: Option<Arc<NumericDocValues>> },
    /// `random_score`: salted seed and the bytes source (`None`: document ids).
    Random { salted: i32, seed: i32, field: String, source: RandomSource },
    /// `script_score`: the script, ready on this index.
    Script(Box<std::cell::RefCell<ScriptRunner<'a>>>),
}

/// Where random_score reads the bytes it hashes.
pub(crate) enum RandomSource {
    /// Internal document ids (no seed given).
    DocId,
    /// First keyword value (`_id` by default).
    Keyword(Option<Arc<KeywordDocValues>>),
    /// First numeric value, as its decimal text.
    Numeric(Option<Arc<NumericDocValues>>, bool),
}

/// Prepares the functions for one index.
pub(crate) fn prepare<'a>(ex: &Executor<'a>, functions: &[ScoreFunction]) -> Result<Vec<Prepared<'a>>> {
    let mut out = Vec::with_capacity(functions.len());
    let salt = java_string_hash(&ex.reader.meta.name).wrapping_shl(10);
    for f in functions {
        out.push(match &f.kind {
            ScoreFunctionKind::Weight => Prepared::One,
            ScoreFunctionKind::Script(script) => {
                let access = Access { source: false, score: true, context: crate::search::script_host::Context::Score };
                Prepared::Script(Box::new(std::cell::RefCell::new(ScriptRunner::new(script, ex.reader, ex.snap, access)?)))
            }
            ScoreFunctionKind::FieldValueFactor { field, factor, modifier, missing } => Prepared::Fvf {
                field: field.clone(),
                factor: *factor,
                modifier: modifier.clone(),
                missing: *missing,
                dv: ex.reader.numeric_doc_values(ex.snap, field)?,
            },
            ScoreFunctionKind::RandomScore { seed, field } => match seed {
                None => {
                    let s = seed_int(ex.now_ms);
                    Prepared::Random { salted: mix32(s ^ salt), seed: s, field: String::new(), source: RandomSource::DocId }
                }
                Some(seed) => {
                    let s = seed_int(*seed);
                    let name = field.clone().unwrap_or_else(|| crate::index::ID_FIELD.to_string());
                    let source = if name == crate::index::ID_FIELD {
                        RandomSource::Keyword(ex.reader.keyword_doc_values(ex.snap, crate::index::ID_FIELD)?)
                    } else {
                        match ex.reader.meta.mapping.field(&name) {
                            None => {
                                return Err(Error::illegal_argument(format!(
                                    "Field [{name}] is not mapped on [{}] and cannot be used as a source of random numbers.",
                                    ex.reader.meta.name
                                )))
                            }
                            Some(fm) if fm.ftype == FieldType::Keyword => {
                                RandomSource::Keyword(ex.reader.keyword_doc_values(ex.snap, &name)?)
                            }
                            Some(fm) => RandomSource::Numeric(
                                ex.reader.numeric_doc_values(ex.snap, &name)?,
                                matches!(fm.ftype, FieldType::Double | FieldType::Float),
                            ),
                        }
                    };
                    Prepared::Random { salted: mix32(s ^ salt), seed: s, field: name, source }
                }
            },
        });
    }
    Ok(out)
}

fn shard_failure(ex: &Executor<'_>, reason: String) -> Error {
    Error::all_shards_failed(500, Some(&ex.reader.meta.name), Exception::new("exception", reason))
}

/// The value of one prepared function for `doc` (before its weight), as ES's
/// `LeafScoreFunction.score`.
pub(crate) fn function_value(ex: &Executor<'_>, p: &Prepared<'_>, doc: u32, query_score: f32) -> Result<f64> {
    Ok(match p {
        Prepared::One => 1.0,
        Prepared::Script(runner) => {
            let mut runner = runner.borrow_mut();
            runner.host.score = query_score as f64;
            match runner.run(doc)? {
                Some(v) => runner.number(&v)?,
                // Past the deadline: the collection stops at its next look.
                None => 0.0,
            }
        }
        Prepared::Fvf { field, factor, modifier: m, missing, dv } => {
            let value = match dv.as_ref().and_then(|dv| dv.values_f64(doc).next()).or(*missing) {
                Some(v) => v,
                None => return Err(shard_failure(ex, format!("Missing value for field [{field}]"))),
            };
            let val = value * *factor as f64;
            let r = modifier(m, val);
            if !r.is_finite() {
                return Err(shard_failure(
                    ex,
                    format!("Result of field modification [{m}({})] must be a number", java_double(val)),
                ));
            }
            r
        }
        Prepared::Random { salted, source, .. } => {
            let hash = match source {
                RandomSource::DocId => mix32(doc as i32 ^ *salted),
                RandomSource::Keyword(dv) => match dv.as_ref().and_then(|dv| dv.ords(doc).next().map(|o| dv.term(o))) {
                    Some(t) => murmur3_x86_32(t.as_bytes(), *salted),
                    None => *salted,
                },
                RandomSource::Numeric(dv, is_double) => {
                    let text = dv.as_ref().and_then(|dv| {
                        if *is_double {
                            dv.values_f64(doc).next().map(java_double)
                        } else {
                            dv.values_i64(doc).next().map(|v| v.to_string())
                        }
                    });
                    match text {
                        Some(t) => murmur3_x86_32(t.as_bytes(), *salted),
                        None => *salted,
                    }
                }
            };
            ((hash & 0x00FF_FFFF) as f32 / (1u32 << 24) as f32) as f64
        }
    })
}

/// `CombineFunction.toFloat`: clamps to the float range before the cast.
fn to_float(v: f64) -> f32 {
    if v > f32::MAX as f64 {
        f32::MAX
    } else if v < -(f32::MAX as f64) {
        -f32::MAX
    } else {
        v as f32
    }
}

/// `CombineFunction.combine` (the boost mode).
pub(crate) fn combine(boost_mode: &str, query_score: f32, factor: f64, max_boost: f32) -> f32 {
    let f = factor.min(max_boost as f64);
    let q = query_score as f64;
    match boost_mode {
        "replace" => to_float(f),
        "sum" => to_float(q + f),
        "avg" => to_float((f + q) / 2.0),
        "max" => to_float(q.max(f)),
        "min" => to_float(q.min(f)),
        _ => to_float(q * f),
    }
}

/// `FunctionFactorScorer.computeScore`: the functions' combined factor for `doc`
/// (`values[i]` is `Some(weighted value)` for the functions whose filter matched).
pub(crate) fn score_mode_factor(mode: &str, functions: &[ScoreFunction], values: &[Option<f64>]) -> f64 {
    let mut factor = 1f64;
    match mode {
        "first" => {
            if let Some(v) = values.iter().flatten().next() {
                factor = *v;
            }
        }
        "max" => {
            let m = values.iter().flatten().fold(f64::NEG_INFINITY, |a, b| a.max(*b));
            if m != f64::NEG_INFINITY {
                factor = m;
            }
        }
        "min" => {
            let m = values.iter().flatten().fold(f64::INFINITY, |a, b| a.min(*b));
            if m != f64::INFINITY {
                factor = m;
            }
        }
        "multiply" => {
            for v in values.iter().flatten() {
                factor *= v;
            }
        }
        _ => {
            // sum and avg: the weights of the matching functions divide the average.
            let mut total = 0f64;
            let mut weight_sum = 0f64;
            for (f, v) in functions.iter().zip(values) {
                if let Some(v) = v {
                    total += v;
                    weight_sum += f.weight.unwrap_or(1.0) as f64;
                }
            }
            if weight_sum != 0.0 {
                factor = total;
                if mode == "avg" {
                    factor /= weight_sum;
                }
            }
        }
    }
    factor
}

/// The weighted values of every function for `doc` (`None` where the filter fails).
pub(crate) fn weighted_values(
    ex: &Executor<'_>,
    functions: &[ScoreFunction],
    prepared: &[Prepared<'_>],
    filters: &[Option<DocSet>],
    doc: u32,
    query_score: f32,
) -> Result<Vec<Option<f64>>> {
    let mut values = Vec::with_capacity(functions.len());
    for (i, f) in functions.iter().enumerate() {
        if let Some(filter) = &filters[i] {
            if !filter.contains(doc) {
                values.push(None);
                continue;
            }
        }
        let v = function_value(ex, &prepared[i], doc, query_score)?;
        values.push(Some(match f.weight {
            Some(w) => v * w as f64,
            None => v,
        }));
    }
    Ok(values)
}

/// The filters of the functions, as document sets.
pub(crate) fn filter_sets(ex: &Executor<'_>, functions: &[ScoreFunction]) -> Result<Vec<Option<DocSet>>> {
    functions.iter().map(|f| f.filter.as_ref().map(|q| ex.filter(q)).transpose()).collect()
}

/// A function_score query compiled for one index.
pub struct FunctionScoreWeight<'a> {
    /// The index it runs on.
    pub(crate) ex: Executor<'a>,
    /// The query.
    pub(crate) query: FunctionScoreQuery,
    /// Per function, its filter's documents.
    pub(crate) filters: Vec<Option<DocSet>>,
    /// The functions, ready on this index.
    pub(crate) prepared: Vec<Prepared<'a>>,
    /// The scored query.
    pub inner: Weight<'a>,
    /// Per function, Lucene's string of its filter (compiled for explanations only).
    pub(crate) filter_descs: Vec<Option<String>>,
}

impl FunctionScoreWeight<'_> {
    /// Whether `min_score` drops documents (matching then depends on the score).
    pub fn filters_by_score(&self) -> bool {
        self.query.min_score.is_some()
    }

    /// Streams the inner query's matches with the functions applied.
    pub fn scorer(&self) -> Result<BoxScorer<'_>> {
        let mut s = FunctionScorer {
            w: self,
            inner: self.inner.scorer()?,
            score: 0.0,
            error: None,
            ticker: Ticker::new(),
            ended: false,
        };
        s.settle();
        Ok(Box::new(s))
    }

    /// ES's `FunctionScoreQuery` explanation of `doc`: the inner query's, combined by the
    /// boost mode with `min of:` the functions' factor and `maxBoost`; `None` when the
    /// inner query does not match or `min_score` drops the document.
    pub fn explain(&self, doc: u32, scoring: bool) -> Result<Option<Expl>> {
        let ex = &self.ex;
        let fs = &self.query;
        let Some(sub) = self.inner.explain(doc, scoring)? else { return Ok(None) };
        let expl = match fs.functions.is_empty() {
            true => sub,
            false => {
                let values = weighted_values(ex, &fs.functions, &self.prepared, &self.filters, doc, sub.value)?;
                // ES wraps every function in a filter function unless there is exactly one
                // without a filter.
                let filtered = !(fs.functions.len() == 1 && fs.functions[0].filter.is_none());
                let mut fexpls = Vec::new();
                for (i, weighted) in values.iter().enumerate() {
                    let Some(weighted) = *weighted else { continue };
                    let fe = self.function_expl(i, doc, sub.value)?;
                    fexpls.push(if filtered {
                        let filter = self.filter_descs.get(i).cloned().flatten().unwrap_or_else(|| "*:*".into());
                        Expl::new(
                            weighted as f32,
                            "function score, product of:",
                            vec![Expl::leaf(1.0, format!("match filter: {filter}")), fe],
                        )
                    } else {
                        fe
                    });
                }
                let factor_e = if fexpls.is_empty() {
                    Expl::leaf(1.0, "No function matched")
                } else if !filtered && fexpls.len() == 1 {
                    fexpls.remove(0)
                } else {
                    let factor = score_mode_factor(&fs.score_mode, &fs.functions, &values);
                    Expl::new(factor as f32, format!("function score, score mode [{}]", fs.score_mode), fexpls)
                };
                let max_e = Expl::leaf(fs.max_boost, "maxBoost");
                let min_e = Expl::new(factor_e.value.min(fs.max_boost), "min of:", vec![factor_e, max_e]);
                let (q, m) = (sub.value, min_e.value);
                match fs.boost_mode.as_str() {
                    "replace" => min_e,
                    "sum" => Expl::new(m + q, "sum of", vec![sub, min_e]),
                    "avg" => Expl::new((m + q) / 2.0, "avg of", vec![sub, min_e]),
                    "min" => Expl::new(q.min(m), "min of", vec![sub, min_e]),
                    "max" => Expl::new(q.max(m), "max of", vec![sub, min_e]),
                    _ => Expl::new(q * m, "function score, product of:", vec![sub, min_e]),
                }
            }
        };
        if fs.min_score.is_some_and(|min| min > expl.value) {
            return Ok(None);
        }
        Ok(Some(expl))
    }

    /// The explanation of function `i`'s value for `doc`, with its weight.
    fn function_expl(&self, i: usize, doc: u32, query_score: f32) -> Result<Expl> {
        let f = &self.query.functions[i];
        let raw = function_value(&self.ex, &self.prepared[i], doc, query_score)?;
        let inner = match (&f.kind, &self.prepared[i]) {
            (ScoreFunctionKind::FieldValueFactor { field, factor, modifier, missing }, _) => Expl::leaf(
                raw as f32,
                format!(
                    "field value function: {modifier}(doc['{field}'].value{} * factor={})",
                    missing.map(|m| format!("?:{}", java_double(m))).unwrap_or_default(),
                    java_float(*factor)
                ),
            ),
            (ScoreFunctionKind::RandomScore { .. }, Prepared::Random { seed, field, .. }) => Expl::leaf(
                raw as f32,
                format!(
                    "random score function (seed: {seed}, field: {})",
                    if field.is_empty() { "null" } else { field.as_str() }
                ),
            ),
            (ScoreFunctionKind::Script(script), _) => Expl::leaf(
                raw as f32,
                format!(
                    "script score function, computed with script:\"{}\" and parameters: \n{}",
                    script.source, script.params
                ),
            ),
            _ => Expl::leaf(1.0, "constant score 1.0 - no function provided"),
        };
        Ok(match f.weight {
            Some(w) => Expl::new(inner.value * w, "product of:", vec![inner, Expl::leaf(w, "weight")]),
            None => inner,
        })
    }

    /// The function-adjusted score of `doc` given the inner query's score.
    fn score(&self, doc: u32, query_score: f32) -> Result<f32> {
        let fs = &self.query;
        if fs.functions.is_empty() {
            return Ok(query_score);
        }
        let values = weighted_values(&self.ex, &fs.functions, &self.prepared, &self.filters, doc, query_score)?;
        let factor = score_mode_factor(&fs.score_mode, &fs.functions, &values);
        Ok(combine(&fs.boost_mode, query_score, factor, fs.max_boost))
    }
}

/// The inner query's matches, rescored by the functions and cut by `min_score`.
struct FunctionScorer<'w, 'a> {
    w: &'w FunctionScoreWeight<'a>,
    inner: BoxScorer<'w>,
    /// The current document's score.
    score: f32,
    error: Option<Error>,
    /// Counts the documents `min_score` turns away (none of them reaches collection,
    /// which looks at the budget only for those it sees).
    ticker: Ticker,
    /// Whether the scorer ended early (past the deadline, or for a client gone).
    ended: bool,
}

impl FunctionScorer<'_, '_> {
    /// Scores the inner scorer's document, moving on while `min_score` rejects it.
    fn settle(&mut self) {
        loop {
            let doc = self.inner.doc();
            if doc == NO_MORE {
                return;
            }
            let q = self.inner.score();
            match self.w.score(doc, q) {
                Ok(s) if self.w.query.min_score.is_none_or(|min| s >= min) => {
                    self.score = s;
                    return;
                }
                Ok(_) => {}
                Err(e) => {
                    self.error.get_or_insert(e);
                }
            }
            match self.ticker.tick() {
                Ok(false) => {}
                // Past the deadline the scorer ends: the matches found until then stand.
                Ok(true) => {
                    self.ended = true;
                    return;
                }
                Err(e) => {
                    self.error.get_or_insert(e);
                    self.ended = true;
                    return;
                }
            }
            self.inner.advance();
        }
    }
}

impl Scorer for FunctionScorer<'_, '_> {
    fn doc(&self) -> u32 {
        if self.ended {
            return NO_MORE;
        }
        self.inner.doc()
    }
    fn advance(&mut self) -> u32 {
        if !self.ended {
            self.inner.advance();
            self.settle();
        }
        self.doc()
    }
    fn seek(&mut self, target: u32) -> u32 {
        if !self.ended && target > self.inner.doc() {
            self.inner.seek(target);
            self.settle();
        }
        self.doc()
    }
    fn score(&mut self) -> f32 {
        self.score
    }
    fn cost(&self) -> u64 {
        self.inner.cost()
    }
    fn take_error(&mut self) -> Option<Error> {
        self.error.take().or_else(|| self.inner.take_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn murmur_matches_reference_vectors() {
        // Reference values of MurmurHash3_x86_32.
        assert_eq!(murmur3_x86_32(b"", 0), 0);
        assert_eq!(murmur3_x86_32(b"", 1) as u32, 0x514e_28b7);
        assert_eq!(murmur3_x86_32(b"hello", 0) as u32, 0x248b_fa47);
        assert_eq!(murmur3_x86_32(b"The quick brown fox jumps over the lazy dog", 0) as u32, 0x2e4f_f723);
    }

    #[test]
    fn java_helpers() {
        assert_eq!(java_string_hash("abc"), 96354);
        assert_eq!(java_double(-1.0), "-1.0");
        assert_eq!(seed_int(5), 5);
        assert_eq!(seed_int(1 << 40), 256);
    }

    #[test]
    fn modes() {
        assert_eq!(combine("multiply", 2.0, 3.0, f32::MAX), 6.0);
        assert_eq!(combine("sum", 2.0, 3.0, 1.0), 3.0);
        assert_eq!(combine("replace", 2.0, 3.0, f32::MAX), 3.0);
        assert_eq!(modifier("ln2p", 0.0), 2f64.ln());
    }
}
