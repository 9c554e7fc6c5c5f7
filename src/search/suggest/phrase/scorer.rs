//! The noisy channel model of ES 6.8's phrase suggester: each word of a path scores
//! `log10(channel × P(word | previous words))` (`WordScorer`), P from the n-gram
//! frequencies of the suggestion's field under a smoothing model, and a path scores
//! `exp` of the sum (ES's own mix of bases). `CandidateScorer` walks every path with at
//! most the allowed number of corrected words and keeps the best above the cutoff.
//!
//! Models, with `f` the field's frequency of an n-gram (words joined by the separator),
//! `V` its total term frequency, `N` its number of terms and `tf(w)` a candidate's own
//! total term frequency in its generator's field:
//! - unigram (default and stupid backoff, linear): `(1 + f(w)) / (V + N)`;
//! - stupid backoff: bigram `f(w₋₁ w) / tf(w₋₁)`, else `discount × unigram`; trigram
//!   `f(w₋₂ w₋₁ w) / f(w₋₁ w)`, else `discount × f(w₋₁ w) / tf(w₋₁)`, else
//!   `discount × unigram`;
//! - laplace: `(α + f(w)) / (V + αN)`, `(α + f(w₋₁ w)) / (tf(w₋₁) + αN)`,
//!   `(α + f(w₋₂ w₋₁ w)) / (f(w₋₁ w) + αN)`;
//! - linear (lambdas normalized to sum 1): bigram `λ₂ f(w₋₁ w) / (0.5 + tf(w₋₁)) + λ₁
//!   unigram` (only `λ₁ unigram` without the bigram); trigram, ES looking the words up
//!   in reverse order (`w w₋₁ w₋₂`, then `w w₋₁`), `λ₃ f(w w₋₁ w₋₂) / (1 + f(w w₋₁)) +
//!   bigram`, else the bigram score.

use super::candidates::{Candidate, CandidateSet, FieldTerms};
use crate::error::{Error, Result};
use crate::request::phrase_suggest::Smoothing;
use std::cmp::Ordering;

/// The most path steps one suggestion may take: a bound on the walk's time for texts
/// with many tokens, candidates and allowed errors (ES has none).
const MAX_STEPS: u64 = 4_000_000;

/// The most tokens a walk goes through (one level of recursion each): ES's own
/// recursion has only the JVM's stack as its bound.
const MAX_TOKENS: usize = 256;

/// How P(word | previous words) is smoothed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Model {
    /// Stupid backoff with its discount.
    StupidBackoff(f64),
    /// Additive smoothing with its alpha.
    Laplace(f64),
    /// Linear interpolation: trigram, bigram, unigram lambdas (normalized).
    Linear(f64, f64, f64),
}

impl Model {
    /// The request's model; none given is stupid backoff with ES's default discount
    /// (0.4 as a Java `float`).
    pub fn of(smoothing: Option<&Smoothing>) -> Model {
        match smoothing {
            None => Model::StupidBackoff(f64::from(0.4f32)),
            Some(Smoothing::StupidBackoff(d)) => Model::StupidBackoff(*d),
            Some(Smoothing::Laplace(a)) => Model::Laplace(*a),
            Some(Smoothing::Linear(t, b, u)) => {
                let sum = u + b + t;
                Model::Linear(t / sum, b / sum, u / sum)
            }
        }
    }
}

/// Scores words of a path against the suggestion field's n-grams.
pub struct WordScorer<'t, 'r> {
    terms: &'t FieldTerms<'r>,
    model: Model,
    real_word_likelihood: f64,
    separator: String,
}

impl<'t, 'r> WordScorer<'t, 'r> {
    /// A scorer over `terms` (the suggestion's field).
    pub fn new(terms: &'t FieldTerms<'r>, model: Model, real_word_likelihood: f64, separator: &str) -> Self {
        WordScorer { terms, model, real_word_likelihood, separator: separator.to_string() }
    }

    fn frequency(&self, words: &[&str]) -> Result<u64> {
        self.terms.frequency(&words.join(&self.separator))
    }

    /// The channel's likelihood of a candidate: the real word likelihood for a word
    /// as written, its similarity otherwise.
    fn channel(&self, c: &Candidate) -> f64 {
        if c.string_distance == 1.0 {
            self.real_word_likelihood
        } else {
            c.string_distance
        }
    }

    /// The log score of the word at `at` of a path (`path(i)` is its word `i`).
    pub fn score<'c>(&self, path: impl Fn(usize) -> &'c Candidate, at: usize, gram_size: usize) -> Result<f64> {
        let word = path(at);
        let p = if at == 0 || gram_size == 1 {
            self.unigram(word)?
        } else if at == 1 || gram_size == 2 {
            self.bigram(word, path(at - 1))?
        } else {
            self.trigram(word, path(at - 1), path(at - 2))?
        };
        Ok((self.channel(word) * p).log10())
    }

    fn base_unigram(&self, w: &Candidate) -> Result<f64> {
        let denominator = (self.terms.sum_total_term_freq + self.terms.num_terms) as f64;
        Ok((1.0 + self.terms.frequency(&w.term)? as f64) / denominator)
    }

    fn unigram(&self, w: &Candidate) -> Result<f64> {
        match self.model {
            Model::Laplace(alpha) => {
                let f = self.terms.frequency(&w.term)? as f64;
                Ok((alpha + f) / (self.terms.sum_total_term_freq as f64 + alpha * self.terms.num_terms as f64))
            }
            _ => self.base_unigram(w),
        }
    }

    fn bigram(&self, w: &Candidate, w1: &Candidate) -> Result<f64> {
        let count = self.frequency(&[&w1.term, &w.term])?;
        let tf1 = w1.stats.total_term_freq as f64;
        match self.model {
            Model::StupidBackoff(discount) => {
                if count < 1 {
                    return Ok(discount * self.unigram(w)?);
                }
                Ok(count as f64 / (tf1 + 0.00000000001))
            }
            Model::Laplace(alpha) => Ok((alpha + count as f64) / (tf1 + alpha * self.terms.num_terms as f64)),
            Model::Linear(_, bigram, unigram) => {
                if count < 1 {
                    return Ok(unigram * self.base_unigram(w)?);
                }
                Ok(bigram * (count as f64 / (0.5 + tf1)) + unigram * self.base_unigram(w)?)
            }
        }
    }

    fn trigram(&self, w: &Candidate, w1: &Candidate, w2: &Candidate) -> Result<f64> {
        match self.model {
            Model::StupidBackoff(discount) => {
                let bigram = self.frequency(&[&w1.term, &w.term])?;
                if bigram < 1 {
                    return Ok(discount * self.unigram(w)?);
                }
                let trigram = self.frequency(&[&w2.term, &w1.term, &w.term])?;
                if trigram < 1 {
                    return Ok(discount * (bigram as f64 / (w1.stats.total_term_freq as f64 + 0.00000000001)));
                }
                Ok(trigram as f64 / (bigram as f64 + 0.00000000001))
            }
            Model::Laplace(alpha) => {
                let trigram = self.frequency(&[&w2.term, &w1.term, &w.term])? as f64;
                let bigram = self.frequency(&[&w1.term, &w.term])? as f64;
                Ok((alpha + trigram) / (bigram + alpha * self.terms.num_terms as f64))
            }
            Model::Linear(trigram_lambda, _, _) => {
                let count = self.frequency(&[&w.term, &w1.term, &w2.term])?;
                if count < 1 {
                    return self.bigram(w, w1);
                }
                let pair = self.frequency(&[&w.term, &w1.term])? as f64;
                Ok(trigram_lambda * (count as f64 / (1.0 + pair)) + self.bigram(w, w1)?)
            }
        }
    }
}

/// A correction: for each token, `0` for the token as written or `i + 1` for its
/// candidate `i`; and its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Correction {
    /// `exp` of the summed log scores.
    pub score: f64,
    /// The choice at each token.
    pub choices: Vec<usize>,
}

/// The candidate a choice names.
pub fn chosen(set: &CandidateSet, choice: usize) -> &Candidate {
    match choice {
        0 => &set.original,
        i => &set.candidates[i - 1],
    }
}

/// ES's order of corrections: by score, then (equal scores) the one with the earlier
/// terms is the greater.
fn compare(sets: &[CandidateSet], a_score: f64, a: &[usize], b_score: f64, b: &[usize]) -> Ordering {
    if a_score == b_score {
        for (i, set) in sets.iter().enumerate() {
            let (ta, tb) = (&chosen(set, a[i]).term, &chosen(set, b[i]).term);
            match ta.as_bytes().cmp(tb.as_bytes()) {
                Ordering::Equal => continue,
                other => return other.reverse(),
            }
        }
        return Ordering::Equal;
    }
    a_score.total_cmp(&b_score)
}

/// The walk over the paths: the best corrections found so far.
struct Walk<'s, 'w, 't, 'r> {
    sets: &'s [CandidateSet],
    scorer: &'w WordScorer<'t, 'r>,
    gram_size: usize,
    cutoff: f64,
    max: usize,
    found: Vec<Correction>,
    steps: u64,
    ticker: crate::budget::Ticker,
}

impl Walk<'_, '_, '_, '_> {
    fn word_score(&self, choices: &[usize], at: usize) -> Result<f64> {
        let sets = self.sets;
        self.scorer.score(|i| chosen(&sets[i], choices[i]), at, self.gram_size)
    }

    fn step(&mut self) -> Result<bool> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(Error::illegal_argument(format!(
                "the phrase suggestion would score more than [{MAX_STEPS}] partial corrections: not supported by \
                 metagate (lower max_errors, token_limit or the generators' size)"
            )));
        }
        self.ticker.tick()
    }

    /// ES's `findCandidates`: the paths from token `ord` on.
    fn walk(&mut self, choices: &mut Vec<usize>, ord: usize, left: usize, path_score: f64) -> Result<()> {
        if self.step()? {
            return Ok(());
        }
        let n = self.sets[ord].candidates.len();
        let last = ord == self.sets.len() - 1;
        let alternatives = if left > 0 { n } else { 0 };
        for choice in 0..=alternatives {
            choices[ord] = choice;
            let score = path_score + self.word_score(choices, ord)?;
            if last {
                self.update(choices, score.exp());
            } else {
                let left = if choice == 0 { left } else { left - 1 };
                self.walk(choices, ord + 1, left, score)?;
            }
        }
        Ok(())
    }

    /// ES's `updateTop`: a path above the cutoff enters a full queue when it beats
    /// the queue's least.
    fn update(&mut self, choices: &[usize], score: f64) {
        if score <= self.cutoff || score.is_nan() {
            return;
        }
        if self.found.len() < self.max {
            self.found.push(Correction { score, choices: choices.to_vec() });
            return;
        }
        let sets = self.sets;
        let least = self
            .found
            .iter()
            .enumerate()
            .min_by(|(_, a), (_, b)| compare(sets, a.score, &a.choices, b.score, &b.choices))
            .map(|(i, _)| i);
        if let Some(i) = least {
            let top = &self.found[i];
            if compare(sets, top.score, &top.choices, score, choices) == Ordering::Less {
                self.found[i] = Correction { score, choices: choices.to_vec() };
            }
        }
    }
}

/// The score of the text as written: `exp` of its words' summed log scores.
pub fn input_score(sets: &[CandidateSet], scorer: &WordScorer<'_, '_>, gram_size: usize) -> Result<f64> {
    let mut sum = 0.0;
    for at in 0..sets.len() {
        sum += scorer.score(|i| &sets[i].original, at, gram_size)?;
    }
    Ok(sum.exp())
}

/// The best `max` corrections scoring above `cutoff` with at most the allowed number
/// of corrected tokens (`max_errors`: a count from 1, else a fraction of the tokens,
/// rounded; at least 1), best first.
pub fn best_corrections(
    sets: &[CandidateSet],
    scorer: &WordScorer<'_, '_>,
    gram_size: usize,
    max_errors: f32,
    max: usize,
    cutoff: f64,
) -> Result<Vec<Correction>> {
    if sets.is_empty() {
        return Ok(Vec::new());
    }
    if sets.len() > MAX_TOKENS {
        return Err(Error::illegal_argument(format!(
            "the phrase suggestion's text has [{}] tokens: metagate corrects at most [{MAX_TOKENS}] (lower token_limit)",
            sets.len()
        )));
    }
    let allowed = if max_errors >= 1.0 {
        max_errors as usize
    } else {
        // Java's Math.round(float).
        (max_errors * sets.len() as f32 + 0.5).floor().max(0.0) as usize
    };
    let mut walk = Walk {
        sets,
        scorer,
        gram_size,
        cutoff,
        max,
        found: Vec::new(),
        steps: 0,
        ticker: crate::budget::Ticker::new(),
    };
    let mut choices = vec![0; sets.len()];
    walk.walk(&mut choices, 0, allowed.max(1), 0.0)?;
    let mut found = walk.found;
    found.sort_by(|a, b| compare(sets, b.score, &b.choices, a.score, &a.choices));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::suggest::phrase::candidates::TermStats;

    fn cand(term: &str) -> Candidate {
        Candidate { term: term.into(), stats: TermStats::default(), string_distance: 1.0, score: 0.0, user_input: true }
    }

    #[test]
    fn equal_scores_put_earlier_terms_first() {
        let sets = vec![CandidateSet { original: cand("xor"), candidates: vec![cand("xorr"), cand("xorn")] }];
        assert_eq!(compare(&sets, 1.0, &[1], 1.0, &[2]), Ordering::Less);
        assert_eq!(compare(&sets, 2.0, &[1], 1.0, &[2]), Ordering::Greater);
    }

    #[test]
    fn linear_lambdas_are_normalized() {
        assert_eq!(Model::of(Some(&Smoothing::Linear(0.5, 0.25, 0.25))), Model::Linear(0.5, 0.25, 0.25));
        assert_eq!(Model::of(None), Model::StupidBackoff(f64::from(0.4f32)));
    }
}
