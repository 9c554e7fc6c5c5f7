//! The phrase suggester, as ES 6.8's `PhraseSuggester` runs on each shard (here each
//! index): the text analysed into tokens (shingles skipped with `force_unigrams`, a
//! synonym stacked on a token becoming one of its candidates), candidates drawn for
//! each token by the direct generators (`candidates.rs`), the corrections scored by the
//! noisy channel model over the field's n-grams (`scorer.rs`) and kept above the
//! cutoff (`confidence` × the text's own score), optionally checked by the `collate`
//! query (`collate.rs`). Over several indices the entries merge as ES reduces them:
//! options of the same text keep their best score, those not above the highest cutoff
//! go, the rest sort by score then text and are cut at `size`.

pub mod candidates;
pub mod collate;
pub mod scorer;

use super::{SuggestEntry, SuggestOption};
use crate::analysis::token_filters::TokenFilter;
use crate::analysis::Analyzer;
use crate::analysis::Normalizer;
use crate::error::{Error, Exception, Result};
use crate::index::IndexReader;
use crate::mapping::FieldType;
use crate::request::phrase_suggest::{resolve_generator, PhraseSuggest};
use crate::store::Snapshot;
use candidates::{CandidateSet, FieldTerms, Generator, Generators};
use scorer::{best_corrections, chosen, input_score, Model, WordScorer};
use std::sync::Arc;

/// Java's `Double.MIN_VALUE`: the cutoff when no confidence is asked for.
const MIN_CUTOFF: f64 = 4.9e-324;

/// A failure on the shards, as ES reports one: `search_phase_execution_exception`.
fn shard_failure(targets: &[Arc<IndexReader>], status: u16, kind: &str, reason: String) -> Error {
    Error::all_shards_failed(status, targets.first().map(|t| t.meta.name.as_str()), Exception::new(kind, reason))
}

/// One index's answer: the cutoff its options passed and the options, best first.
struct ShardEntry {
    cutoff: f64,
    options: Vec<PhraseOption>,
}

/// One correction offered.
#[derive(Debug, Clone)]
struct PhraseOption {
    text: String,
    highlighted: Option<String>,
    score: f32,
    collate_match: Option<bool>,
}

/// How the suggestion's text becomes tokens: an analyzer, a keyword field's
/// normalizer, or the whole text as one token (a keyword field without one).
enum TextAnalysis {
    Analyzer(Analyzer),
    Normalizer(Normalizer),
    Whole,
}

/// A token of the text: its term, position increment and Lucene type.
struct TextToken {
    term: String,
    increment: u32,
    token_type: String,
}

impl TextAnalysis {
    fn tokens(&self, text: &str) -> Result<Vec<TextToken>> {
        let analyzer = match self {
            TextAnalysis::Whole => {
                return Ok(vec![TextToken { term: text.to_string(), increment: 1, token_type: "word".into() }])
            }
            TextAnalysis::Normalizer(n) => {
                return Ok(vec![TextToken { term: n.normalize(text)?, increment: 1, token_type: "word".into() }])
            }
            TextAnalysis::Analyzer(a) => a,
        };
        if let Some(chain) = analyzer.analysis() {
            let stream = chain.analyze(text)?;
            return Ok(stream
                .tokens
                .into_iter()
                .map(|t| TextToken {
                    term: t.term,
                    increment: t.position_increment,
                    token_type: t.token_type.to_string(),
                })
                .collect());
        }
        let mut out = Vec::new();
        let mut buf = String::new();
        analyzer.for_each_token(text, &mut buf, |term, increment, _, _| {
            out.push(TextToken { term: term.to_string(), increment, token_type: "<ALPHANUM>".into() })
        })?;
        Ok(out)
    }

    /// The analyzer's first shingle filter: its min and max sizes and whether it keeps
    /// unigrams (ES reads the gram size and the unigram checks from it).
    fn shingle(&self) -> Option<(usize, usize, bool)> {
        let TextAnalysis::Analyzer(a) = self else { return None };
        a.analysis()?.filters.iter().find_map(|f| match &f.component {
            TokenFilter::Shingle(s) => Some((s.min, s.max, s.output_unigrams)),
            _ => None,
        })
    }
}

/// A phrase suggestion's one entry over every index.
pub fn entries(
    targets: &[Arc<IndexReader>],
    snap: &Snapshot,
    now: i64,
    text: Option<&str>,
    p: &PhraseSuggest,
) -> Result<Vec<SuggestEntry>> {
    let mut shards = Vec::with_capacity(targets.len());
    for reader in targets {
        shards.push(run_shard(targets, reader, snap, now, text, p)?);
    }
    let text = text.unwrap_or_default();
    let options = if shards.len() == 1 { shards.pop().map(|s| s.options).unwrap_or_default() } else { merge(shards) };
    let options = options
        .into_iter()
        .take(p.size)
        .map(|o| SuggestOption::Phrase {
            text: o.text,
            highlighted: o.highlighted,
            score: o.score,
            collate_match: o.collate_match,
        })
        .collect();
    Ok(vec![SuggestEntry { text: text.to_string(), offset: 0, length: super::java_len(text), options }])
}

/// ES's reduction of the entries of several shards.
fn merge(shards: Vec<ShardEntry>) -> Vec<PhraseOption> {
    let cutoff = shards.iter().map(|s| s.cutoff).fold(MIN_CUTOFF, f64::max);
    let mut merged: Vec<PhraseOption> = Vec::new();
    for option in shards.into_iter().flat_map(|s| s.options) {
        match merged.iter_mut().find(|m| m.text == option.text) {
            Some(m) => m.score = m.score.max(option.score),
            None => merged.push(option),
        }
    }
    merged.retain(|o| f64::from(o.score) > cutoff);
    merged.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.text.as_bytes().cmp(b.text.as_bytes())));
    merged
}

/// The suggestion on one index.
fn run_shard(
    targets: &[Arc<IndexReader>],
    reader: &IndexReader,
    snap: &Snapshot,
    now: i64,
    text: Option<&str>,
    p: &PhraseSuggest,
) -> Result<ShardEntry> {
    let fail = |reason: String| shard_failure(targets, 400, "illegal_argument_exception", reason);
    let mapping = &reader.meta.mapping;
    let field = mapping.resolve_alias(&p.field);
    let Some(fm) = mapping.field(field) else {
        return Err(fail(format!("no mapping found for field [{}]", p.field)));
    };
    let analysis = match (&p.analyzer, &fm.normalizer) {
        (Some(name), _) => TextAnalysis::Analyzer(
            mapping.analysis.field_analyzer(name).map_err(|_| fail(format!("analyzer [{name}] doesn't exists")))?,
        ),
        (None, Some(n)) => TextAnalysis::Normalizer(n.clone()),
        (None, None) if fm.ftype == FieldType::Text => TextAnalysis::Analyzer(fm.search_analyzer.clone()),
        (None, None) => TextAnalysis::Whole,
    };
    let shingle = analysis.shingle();
    let gram_size = p.gram_size.or(shingle.map(|s| s.1)).unwrap_or(1);
    let mut specs = p.generators.clone();
    if specs.is_empty() {
        if let Some((min, _, unigrams)) = shingle {
            if min > 1 && !unigrams && p.force_unigrams {
                return Err(fail(format!(
                    "The default candidate generator for phrase suggest can't operate on field: [{}] since it doesn't \
                     emit unigrams. If this is intentional try to set the candidate generator field explicitly",
                    p.field
                )));
            }
        }
        specs.push(crate::request::phrase_suggest::default_generator(&p.field));
    }
    let Some(text) = text else {
        return Err(fail("The required text option is missing".into()));
    };
    let rwl = f64::from(p.real_word_error_likelihood);
    let shard_size = p.shard_size.unwrap_or(p.size.max(5));
    let mut generators = Vec::new();
    for g in &specs {
        let mut settings = resolve_generator(g).map_err(|e| fail(e.reason().to_string()))?;
        let named = |name: &Option<String>| -> Result<Option<Analyzer>> {
            match name {
                None => Ok(None),
                Some(n) => mapping
                    .analysis
                    .field_analyzer(n)
                    .map(Some)
                    .map_err(|_| fail(format!("Analyzer [{n}] doesn't exists"))),
            }
        };
        let filters = (named(&g.pre_filter)?, named(&g.post_filter)?);
        let gen_field = mapping.resolve_alias(&g.settings.field).to_string();
        settings.field = gen_field.clone();
        if let Some(terms) = FieldTerms::open(reader, snap, &gen_field) {
            generators.push(Generator::new(terms, settings, g.size, filters, rwl));
        }
    }
    let generators = Generators { all: generators, shard_size };
    let suggest_terms = FieldTerms::open(reader, snap, field);
    let (Some(suggest_terms), false) = (suggest_terms, generators.all.is_empty()) else {
        return Ok(ShardEntry { cutoff: MIN_CUTOFF, options: Vec::new() });
    };
    let mut sets = token_sets(targets, &analysis, text, &generators, p.force_unigrams, rwl)?;
    if sets.is_empty() || sets.len() >= p.token_limit {
        return Ok(ShardEntry { cutoff: MIN_CUTOFF, options: Vec::new() });
    }
    for set in &mut sets {
        generators.draw(set)?;
    }
    let scorer = WordScorer::new(&suggest_terms, Model::of(p.smoothing.as_ref()), rwl, &p.separator);
    let cutoff =
        if p.confidence > 0.0 { input_score(&sets, &scorer, gram_size)? * f64::from(p.confidence) } else { MIN_CUTOFF };
    let corrections = best_corrections(&sets, &scorer, gram_size, p.max_errors, shard_size, cutoff)?;
    let mut options = Vec::new();
    for correction in corrections {
        let words: Vec<&candidates::Candidate> =
            correction.choices.iter().enumerate().map(|(i, &c)| chosen(&sets[i], c)).collect();
        let phrase = words.iter().map(|c| c.term.as_str()).collect::<Vec<_>>().join(" ");
        let collate_match = match &p.collate {
            Some(c) => Some(collate::matches(reader, snap, now, c, &phrase)?),
            None => None,
        };
        let prune = p.collate.as_ref().is_some_and(|c| c.prune);
        if collate_match == Some(false) && !prune {
            continue;
        }
        let highlighted = p.highlight.as_ref().map(|(pre, post)| highlight(&words, pre, post));
        let score = correction.score as f32;
        if f64::from(score) > cutoff {
            options.push(PhraseOption {
                text: phrase,
                highlighted,
                score,
                collate_match: collate_match.filter(|_| prune),
            });
        }
    }
    Ok(ShardEntry { cutoff, options })
}

/// The candidate sets of the text's tokens, as ES's `NoisyChannelSpellChecker` makes
/// them.
fn token_sets(
    targets: &[Arc<IndexReader>],
    analysis: &TextAnalysis,
    text: &str,
    generators: &Generators<'_>,
    force_unigrams: bool,
    rwl: f64,
) -> Result<Vec<CandidateSet>> {
    let mut sets: Vec<CandidateSet> = Vec::new();
    let (mut any_unigram, mut any_tokens) = (false, false);
    for token in analysis.tokens(text)? {
        any_tokens = true;
        if force_unigrams && token.token_type == "shingle" {
            continue;
        }
        any_unigram = true;
        match sets.last_mut() {
            Some(current) if token.increment == 0 && token.token_type == "SYNONYM" => {
                let stats = generators.term_stats(&token.term)?;
                if stats.doc_freq > 0 {
                    current.candidates.push(generators.candidate(token.term, stats, rwl, false));
                }
            }
            _ => {
                let stats = generators.term_stats(&token.term)?;
                let original = generators.candidate(token.term, stats, 1.0, true);
                sets.push(CandidateSet { original, candidates: Vec::new() });
            }
        }
    }
    if force_unigrams && !any_unigram && any_tokens {
        return Err(shard_failure(
            targets,
            500,
            "illegal_state_exception",
            "At least one unigram is required but all tokens were ngrams".into(),
        ));
    }
    Ok(sets)
}

/// The correction with each run of corrected words between the tags.
fn highlight(words: &[&candidates::Candidate], pre: &str, post: &str) -> String {
    let mut out = String::new();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if w.user_input {
            out.push_str(&w.term);
            continue;
        }
        if i == 0 || words[i - 1].user_input {
            out.push_str(pre);
        }
        out.push_str(&w.term);
        if i + 1 == words.len() || words[i + 1].user_input {
            out.push_str(post);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::candidates::{Candidate, TermStats};
    use super::*;

    fn word(term: &str, user_input: bool) -> Candidate {
        Candidate { term: term.into(), stats: TermStats::default(), string_distance: 1.0, score: 0.0, user_input }
    }

    #[test]
    fn highlight_wraps_runs_of_corrected_words() {
        let words = [word("xorr", false), word("the", true), word("god", false), word("jewel", false)];
        let refs: Vec<&Candidate> = words.iter().collect();
        assert_eq!(highlight(&refs, "<em>", "</em>"), "<em>xorr</em> the <em>god jewel</em>");
    }

    #[test]
    fn merged_options_keep_best_scores_above_the_highest_cutoff() {
        let option =
            |text: &str, score: f32| PhraseOption { text: text.into(), highlighted: None, score, collate_match: None };
        let merged = merge(vec![
            ShardEntry { cutoff: 0.1, options: vec![option("b", 0.5), option("c", 0.15)] },
            ShardEntry { cutoff: 0.2, options: vec![option("a", 0.5), option("b", 0.7)] },
        ]);
        let got: Vec<(&str, f32)> = merged.iter().map(|o| (o.text.as_str(), o.score)).collect();
        assert_eq!(got, vec![("b", 0.7), ("a", 0.5)]);
    }
}
