//! The tokens an analysis chain produces, with every attribute Lucene gives them.

/// One token: Lucene's term, position increment, offsets, position length and type
/// attributes, plus the keyword flag that stemmers respect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalyzedToken {
    /// The term text.
    pub term: String,
    /// Positions advanced from the previous token (0 stacks it on the previous one).
    pub position_increment: u32,
    /// How many positions the token spans (more than 1 for shingles and graph tokens).
    pub position_length: u32,
    /// Start offset in the original text, in UTF-16 code units (as Lucene counts).
    pub start_offset: usize,
    /// End offset in the original text, in UTF-16 code units.
    pub end_offset: usize,
    /// Lucene's type attribute (`<ALPHANUM>`, `word`, `shingle`, ...).
    pub token_type: &'static str,
    /// Lucene's keyword attribute: set by `keyword_marker`, left alone by stemmers.
    pub keyword: bool,
}

impl AnalyzedToken {
    /// A token of type `word` with increment and length 1.
    pub fn word(term: String, start_offset: usize, end_offset: usize) -> Self {
        AnalyzedToken {
            term,
            position_increment: 1,
            position_length: 1,
            start_offset,
            end_offset,
            token_type: "word",
            keyword: false,
        }
    }
}

/// A whole token stream: its tokens and what `end()` leaves in the attributes, which
/// `_analyze` and multi-valued fields use to place the next value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TokenStream {
    /// The tokens in order.
    pub tokens: Vec<AnalyzedToken>,
    /// The offset after the last character (corrected through the char filters).
    pub final_offset: usize,
    /// The position increment left at the end (positions of tokens removed last).
    pub final_position_increment: u32,
}

impl TokenStream {
    /// Removes the tokens `keep` refuses, moving their position increments onto the next
    /// kept token (or the end), as Lucene's FilteringTokenFilter does.
    pub fn retain(&mut self, mut keep: impl FnMut(&AnalyzedToken) -> bool) {
        let mut skipped = 0u32;
        let mut kept = Vec::with_capacity(self.tokens.len());
        for mut t in std::mem::take(&mut self.tokens) {
            if keep(&t) {
                t.position_increment += skipped;
                skipped = 0;
                kept.push(t);
            } else {
                skipped += t.position_increment;
            }
        }
        self.final_position_increment += skipped;
        self.tokens = kept;
    }
}
