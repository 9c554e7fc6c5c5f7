//! The `pattern_capture` token filter: Lucene's PatternCaptureGroupTokenFilter. Each
//! token is followed, at its position, by the capture groups of every match of every
//! pattern, ordered as Lucene walks them: at each step the capture starting first among
//! the patterns' current groups (the earlier pattern on a tie). Empty groups, and with
//! `preserve_original` a group equal to the whole term, are passed over.

use super::java_regex::JavaRegex;
use super::limits::Quota;
use super::token::TokenStream;
use crate::error::Result;

/// One pattern's walk over a term: its matches and where it stands.
struct Walk {
    matches: Vec<Vec<Option<(usize, usize)>>>,
    /// The current match.
    at: usize,
    /// The current group of it; `None` before the walk has found its next match.
    group: Option<usize>,
    groups: usize,
}

impl Walk {
    /// Lucene's `nextCapture` step for one pattern: the span of its current usable group,
    /// advancing past unusable groups and exhausted matches.
    fn current(&mut self, term_len: usize, preserve_original: bool) -> Option<(usize, usize)> {
        loop {
            if self.group.is_none() {
                if self.at >= self.matches.len() {
                    return None;
                }
                self.group = Some(1);
            }
            let mut g = self.group.unwrap_or(1);
            while g <= self.groups {
                match self.matches[self.at].get(g).copied().flatten() {
                    Some((s, e)) if s != e && !(preserve_original && s == 0 && e == term_len) => {
                        self.group = Some(g);
                        return Some((s, e));
                    }
                    _ => g += 1,
                }
            }
            // This match is used up: the next one.
            self.at += 1;
            self.group = None;
        }
    }
}

/// Applies the filter.
pub fn apply(stream: &mut TokenStream, patterns: &[JavaRegex], preserve_original: bool) -> Result<()> {
    let mut quota = Quota::default();
    let mut out = Vec::with_capacity(stream.tokens.len());
    for token in std::mem::take(&mut stream.tokens) {
        let term = token.term.clone();
        let mut walks: Vec<Walk> = patterns
            .iter()
            .map(|p| Walk { matches: p.captures_iter(&term).collect(), at: 0, group: None, groups: p.groups() })
            .collect();
        let next = |walks: &mut Vec<Walk>| -> Option<(usize, usize, usize)> {
            let mut best: Option<(usize, usize, usize)> = None;
            for (i, w) in walks.iter_mut().enumerate() {
                if let Some((s, e)) = w.current(term.len(), preserve_original) {
                    if best.is_none_or(|(_, bs, _)| s < bs) {
                        best = Some((i, s, e));
                    }
                }
            }
            best
        };
        let mut first = true;
        if preserve_original {
            out.push(token.clone());
            first = false;
        }
        while let Some((i, s, e)) = next(&mut walks) {
            if let Some(g) = walks[i].group.as_mut() {
                *g += 1;
            }
            let mut t = token.clone();
            t.term = term[s..e].to_string();
            quota.token(t.term.len())?;
            if !first {
                t.position_increment = 0;
            }
            first = false;
            out.push(t);
        }
        if first {
            // No capture: the token passes unchanged.
            out.push(token);
        }
    }
    stream.tokens = out;
    Ok(())
}
