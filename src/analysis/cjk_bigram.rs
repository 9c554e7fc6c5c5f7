//! The `cjk_bigram` token filter: Lucene's CJKBigramFilter over the standard tokenizer's
//! `<IDEOGRAPHIC>`, `<HIRAGANA>`, `<KATAKANA>` and `<HANGUL>` tokens: adjacent characters
//! of adjacent tokens pair up into `<DOUBLE>` bigrams, a lone character stays a
//! `<SINGLE>` unigram, and other tokens pass unchanged. With `output_unigrams` every
//! character is a unigram too, each bigram stacked on its first character with length 2.
//!
//! This is Lucene's state machine step by step (buffer, index, the peeked "lone" token),
//! since its output order and offsets follow from it.

use super::token::{AnalyzedToken, TokenStream};

/// The scripts to pair up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scripts {
    /// `<IDEOGRAPHIC>` (han).
    pub han: bool,
    /// `<HIRAGANA>`.
    pub hiragana: bool,
    /// `<KATAKANA>`.
    pub katakana: bool,
    /// `<HANGUL>`.
    pub hangul: bool,
}

impl Scripts {
    fn pairs(&self, token_type: &str) -> bool {
        match token_type {
            "<IDEOGRAPHIC>" => self.han,
            "<HIRAGANA>" => self.hiragana,
            "<KATAKANA>" => self.katakana,
            "<HANGUL>" => self.hangul,
            _ => false,
        }
    }
}

struct Filter {
    scripts: Scripts,
    output_unigrams: bool,
    /// Buffered characters with their offsets.
    buffer: Vec<(char, usize, usize)>,
    index: usize,
    last_end_offset: usize,
    ngram_state: bool,
}

impl Filter {
    fn has_bigram(&self) -> bool {
        self.buffer.len() - self.index > 1
    }

    fn has_unigram(&self) -> bool {
        if self.output_unigrams {
            self.buffer.len() - self.index == 1
        } else {
            self.buffer.len() == 1 && self.index == 0
        }
    }

    fn bigram(&mut self) -> AnalyzedToken {
        let (a, start, _) = self.buffer[self.index];
        let (b, _, end) = self.buffer[self.index + 1];
        let mut t = AnalyzedToken::word(format!("{a}{b}"), start, end);
        t.token_type = "<DOUBLE>";
        if self.output_unigrams {
            t.position_increment = 0;
            t.position_length = 2;
        }
        self.index += 1;
        t
    }

    fn unigram(&mut self) -> AnalyzedToken {
        let (c, start, end) = self.buffer[self.index];
        let mut t = AnalyzedToken::word(c.to_string(), start, end);
        t.token_type = "<SINGLE>";
        self.index += 1;
        t
    }

    fn refill(&mut self, t: &AnalyzedToken) {
        if self.buffer.len() > 64 {
            // Lucene keeps only the last character when its buffer grows large.
            let last = self.buffer.len() - 1;
            self.buffer.drain(..last);
            self.index -= last;
        }
        let (mut start, end) = (t.start_offset, t.end_offset);
        self.last_end_offset = end;
        let aligned = end.checked_sub(start) == Some(super::chars::utf16_len(&t.term));
        for c in t.term.chars() {
            if aligned {
                self.buffer.push((c, start, start + c.len_utf16()));
                start += c.len_utf16();
            } else {
                // Offsets changed by a char filter or synonyms: each character keeps them.
                self.buffer.push((c, start, end));
            }
        }
    }
}

/// Applies the filter.
pub fn apply(stream: &mut TokenStream, scripts: Scripts, output_unigrams: bool) {
    let mut f =
        Filter { scripts, output_unigrams, buffer: Vec::new(), index: 0, last_end_offset: 0, ngram_state: false };
    let mut input = std::mem::take(&mut stream.tokens).into_iter();
    let mut lone: Option<AnalyzedToken> = None;
    let mut out = Vec::new();
    loop {
        if f.has_bigram() {
            if f.output_unigrams {
                if f.ngram_state {
                    let t = f.bigram();
                    out.push(t);
                } else {
                    let t = f.unigram();
                    out.push(t);
                    f.index -= 1;
                }
                f.ngram_state = !f.ngram_state;
            } else {
                let t = f.bigram();
                out.push(t);
            }
            continue;
        }
        let Some(t) = lone.take().or_else(|| input.next()) else {
            if f.has_unigram() {
                let t = f.unigram();
                out.push(t);
                continue;
            }
            break;
        };
        if f.scripts.pairs(t.token_type) {
            if t.start_offset != f.last_end_offset {
                if f.has_unigram() {
                    lone = Some(t);
                    let u = f.unigram();
                    out.push(u);
                    continue;
                }
                f.index = 0;
                f.buffer.clear();
            }
            f.refill(&t);
        } else {
            if f.has_unigram() {
                lone = Some(t);
                let u = f.unigram();
                out.push(u);
                continue;
            }
            out.push(t);
        }
    }
    stream.tokens = out;
}
