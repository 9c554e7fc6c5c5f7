//! The `common_grams` token filter: Lucene's CommonGramsFilter, and with `query_mode` its
//! CommonGramsQueryFilter after it.
//!
//! Each pair of adjacent tokens of which one is a common word also gives a `gram` token
//! (`the_rain`) spanning both, stacked on the first and placed before the second. In query
//! mode only the grams stay where they cover a token, as Lucene's query filter keeps them.

use super::stopwords::WordSet;
use super::token::{AnalyzedToken, TokenStream};

/// Lucene's type of a bigram token.
const GRAM: &str = "gram";

/// Applies the filter.
pub fn apply(stream: &mut TokenStream, common: &WordSet, query_mode: bool) {
    let mut out = Vec::with_capacity(stream.tokens.len() * 2);
    // The previous token's term and start, and whether it was common.
    let mut last: Option<(String, usize, bool)> = None;
    for t in std::mem::take(&mut stream.tokens) {
        let is_common = common.contains(&t.term);
        if let Some((previous, start, previous_common)) = &last {
            if *previous_common || is_common {
                // Lucene clears every attribute for the gram but what it sets.
                out.push(AnalyzedToken {
                    term: format!("{previous}_{}", t.term),
                    position_increment: 0,
                    position_length: 2,
                    start_offset: *start,
                    end_offset: t.end_offset,
                    token_type: GRAM,
                    keyword: false,
                });
            }
        }
        last = Some((t.term.clone(), t.start_offset, is_common));
        out.push(t);
    }
    stream.tokens = if query_mode { query(out) } else { out };
}

/// Lucene's CommonGramsQueryFilter: a token followed by a gram is dropped (the gram covers
/// it), and the last token too when the token given before it was a gram. Grams take
/// increment and length 1.
fn query(tokens: Vec<AnalyzedToken>) -> Vec<AnalyzedToken> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut previous: Option<AnalyzedToken> = None;
    let mut previous_type: Option<&'static str> = None;
    let emit = |mut t: AnalyzedToken, out: &mut Vec<AnalyzedToken>| {
        if t.token_type == GRAM {
            t.position_increment = 1;
            t.position_length = 1;
        }
        out.push(t);
    };
    for current in tokens {
        match previous.take() {
            Some(p) if current.token_type != GRAM => {
                previous_type = Some(p.token_type);
                emit(p, &mut out);
                previous = Some(current);
            }
            _ => previous = Some(current),
        }
    }
    if let Some(p) = previous {
        if previous_type != Some(GRAM) {
            emit(p, &mut out);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(terms: &[&str], query_mode: bool) -> Vec<(String, u32)> {
        let tokens = terms.iter().map(|t| AnalyzedToken::word(t.to_string(), 0, t.len())).collect();
        let mut s = TokenStream { tokens, final_offset: 0, final_position_increment: 0 };
        apply(&mut s, &WordSet::resolve(&["the", "in"], false), query_mode);
        s.tokens.into_iter().map(|t| (t.term, t.position_increment)).collect()
    }

    #[test]
    fn grams_around_common_words() {
        let got = run(&["the", "rain", "in", "spain"], false);
        let want = [("the", 1), ("the_rain", 0), ("rain", 1), ("rain_in", 0), ("in", 1), ("in_spain", 0), ("spain", 1)];
        assert_eq!(got, want.map(|(a, b)| (a.to_string(), b)));
        let got = run(&["the", "rain", "in", "spain", "falls"], true);
        // Lucene keeps "spain": the token after a gram is dropped only when it ends the stream.
        let want = [("the_rain", 1), ("rain_in", 1), ("in_spain", 1), ("spain", 1), ("falls", 1)];
        assert_eq!(got, want.map(|(a, b)| (a.to_string(), b)));
    }
}
