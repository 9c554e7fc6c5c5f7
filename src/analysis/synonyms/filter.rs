//! Lucene's (deprecated, ES's `synonym`) SynonymFilter: greedy longest matches of the
//! map's inputs, outputs stacked over the matched positions through rolling buffers of
//! `1 + maxHorizontalContext` slots. The port keeps the buffers and their reuse, since
//! offsets of outputs past the matched input come from whatever a slot last held.

use super::rules::{SynonymMap, WORD_SEPARATOR};
use crate::analysis::limits::Quota;
use crate::analysis::token::AnalyzedToken;
use crate::error::Result;
use std::collections::VecDeque;

/// Lucene's type for tokens the filter adds.
pub const TYPE_SYNONYM: &str = "SYNONYM";

#[derive(Default)]
struct PendingInput {
    term: String,
    state: Option<AnalyzedToken>,
    keep_orig: bool,
    matched: bool,
    consumed: bool,
    start_offset: usize,
    end_offset: usize,
}

impl PendingInput {
    fn reset(&mut self) {
        self.state = None;
        self.consumed = true;
        self.keep_orig = false;
        self.matched = false;
    }
}

struct PendingOutputs {
    /// (term, end offset or none for the input's, position length).
    outputs: Vec<(String, Option<usize>, u32)>,
    upto: usize,
    pos_incr: u32,
    last_end_offset: Option<usize>,
    last_pos_length: u32,
}

impl PendingOutputs {
    fn new() -> Self {
        PendingOutputs { outputs: Vec::new(), upto: 0, pos_incr: 1, last_end_offset: None, last_pos_length: 1 }
    }

    fn reset(&mut self) {
        self.outputs.clear();
        self.upto = 0;
        self.pos_incr = 1;
    }

    fn count(&self) -> usize {
        self.outputs.len()
    }

    fn pull_next(&mut self) -> String {
        let (term, end, len) = self.outputs[self.upto].clone();
        self.upto += 1;
        self.last_end_offset = end;
        self.last_pos_length = len;
        self.pos_incr = 0;
        if self.upto == self.outputs.len() {
            self.reset();
        }
        term
    }
}

struct Filter<'m> {
    map: &'m SynonymMap,
    input: VecDeque<AnalyzedToken>,
    /// The attributes: the token last pulled, restored or made.
    current: AnalyzedToken,
    roll: usize,
    future_inputs: Vec<PendingInput>,
    future_outputs: Vec<PendingOutputs>,
    input_skip_count: usize,
    next_read: usize,
    next_write: usize,
    finished: bool,
    last_start_offset: usize,
    last_end_offset: usize,
}

/// Runs the filter over `tokens`; what it emits is charged to an analysis quota.
pub fn apply(map: &SynonymMap, tokens: Vec<AnalyzedToken>) -> Result<Vec<AnalyzedToken>> {
    let roll = 1 + map.max_horizontal_context;
    let mut f = Filter {
        map,
        input: tokens.into(),
        current: AnalyzedToken::word(String::new(), 0, 0),
        roll,
        future_inputs: (0..roll).map(|_| PendingInput { consumed: true, ..Default::default() }).collect(),
        future_outputs: (0..roll).map(|_| PendingOutputs::new()).collect(),
        input_skip_count: 0,
        next_read: 0,
        next_write: 0,
        finished: false,
        last_start_offset: 0,
        last_end_offset: 0,
    };
    let mut out = Vec::new();
    let mut quota = Quota::default();
    while f.increment_token() {
        quota.token(f.current.term.len())?;
        out.push(f.current.clone());
    }
    Ok(out)
}

impl Filter<'_> {
    fn roll_incr(&self, i: usize) -> usize {
        if i + 1 == self.roll {
            0
        } else {
            i + 1
        }
    }

    fn capture(&mut self) {
        let slot = &mut self.future_inputs[self.next_write];
        slot.state = Some(self.current.clone());
        slot.consumed = false;
        slot.term.clone_from(&self.current.term);
        self.next_write = self.roll_incr(self.next_write);
    }

    fn parse(&mut self) {
        let mut cur_next_read = self.next_read;
        let mut match_output: Option<String> = None;
        let mut match_input_length = 0;
        let mut match_end_offset = 0;
        let mut prefix = String::new();
        let mut token_count = 0;
        loop {
            let term;
            let input_end_offset;
            if cur_next_read == self.next_write {
                if self.finished {
                    break;
                }
                match self.input.pop_front() {
                    Some(t) => {
                        self.current = t;
                        let slot = &mut self.future_inputs[self.next_write];
                        slot.start_offset = self.current.start_offset;
                        slot.end_offset = self.current.end_offset;
                        self.last_start_offset = self.current.start_offset;
                        self.last_end_offset = self.current.end_offset;
                        input_end_offset = self.current.end_offset;
                        term = self.current.term.clone();
                        if self.next_read != self.next_write {
                            self.capture();
                        } else {
                            self.future_inputs[self.next_write].consumed = false;
                        }
                    }
                    None => {
                        self.finished = true;
                        break;
                    }
                }
            } else {
                let slot = &self.future_inputs[cur_next_read];
                term = slot.term.clone();
                input_end_offset = slot.end_offset;
            }
            token_count += 1;
            prefix.push_str(&term);
            let whole = self.map.entries.contains_key(&prefix);
            prefix.push(WORD_SEPARATOR);
            let more = self.map.continuations.contains(&prefix);
            if !whole && !more {
                // The token's characters leave the map (or end where no rule does).
                break;
            }
            if whole {
                match_output = Some(prefix[..prefix.len() - 1].to_string());
                match_input_length = token_count;
                match_end_offset = input_end_offset;
            }
            if !more {
                break;
            }
            if self.next_read == self.next_write {
                self.capture();
            }
            cur_next_read = self.roll_incr(cur_next_read);
        }
        if self.next_read == self.next_write && !self.finished {
            self.next_write = self.roll_incr(self.next_write);
        }
        if let Some(input) = match_output {
            self.input_skip_count = match_input_length;
            self.add_output(&input, match_input_length, match_end_offset);
        } else if self.next_read != self.next_write {
            self.input_skip_count = 1;
        }
    }

    fn add_output(&mut self, input: &str, match_input_length: usize, match_end_offset: usize) {
        let entry = &self.map.entries[input];
        let keep_orig = entry.keep_original;
        for &ord in &entry.outputs {
            let words: Vec<&str> = self.map.output_words(ord).collect();
            let mut upto = self.next_read;
            for word in &words {
                let (end, len) = if words.len() == 1 {
                    (Some(match_end_offset), if keep_orig { match_input_length as u32 } else { 1 })
                } else {
                    (None, 1)
                };
                self.future_outputs[upto].outputs.push((word.to_string(), end, len));
                upto = self.roll_incr(upto);
            }
        }
        let mut upto = self.next_read;
        for _ in 0..match_input_length {
            self.future_inputs[upto].keep_orig |= keep_orig;
            self.future_inputs[upto].matched = true;
            upto = self.roll_incr(upto);
        }
    }

    fn increment_token(&mut self) -> bool {
        loop {
            while self.input_skip_count != 0 {
                let read = self.next_read;
                let (consumed, keep_orig, matched) = {
                    let i = &self.future_inputs[read];
                    (i.consumed, i.keep_orig, i.matched)
                };
                if !consumed && (keep_orig || !matched) {
                    if let Some(state) = self.future_inputs[read].state.take() {
                        self.current = state;
                    }
                    self.future_inputs[read].reset();
                    if self.future_outputs[read].count() > 0 {
                        self.future_outputs[read].pos_incr = 0;
                    } else {
                        self.next_read = self.roll_incr(read);
                        self.input_skip_count -= 1;
                    }
                    return true;
                } else if self.future_outputs[read].upto < self.future_outputs[read].count() {
                    self.future_inputs[read].reset();
                    let outputs = &mut self.future_outputs[read];
                    let pos_incr = outputs.pos_incr;
                    let term = outputs.pull_next();
                    let input = &self.future_inputs[read];
                    let end = outputs.last_end_offset.unwrap_or(input.end_offset);
                    self.current = AnalyzedToken {
                        term,
                        position_increment: pos_incr,
                        position_length: outputs.last_pos_length,
                        start_offset: input.start_offset,
                        end_offset: end,
                        token_type: TYPE_SYNONYM,
                        keyword: false,
                    };
                    if outputs.count() == 0 {
                        self.next_read = self.roll_incr(read);
                        self.input_skip_count -= 1;
                    }
                    return true;
                } else {
                    self.future_inputs[read].reset();
                    self.next_read = self.roll_incr(read);
                    self.input_skip_count -= 1;
                }
            }
            if self.finished && self.next_read == self.next_write {
                // Outputs that run past the end of the input.
                let read = self.next_read;
                let outputs = &mut self.future_outputs[read];
                if outputs.upto < outputs.count() {
                    let pos_incr = outputs.pos_incr;
                    let term = outputs.pull_next();
                    let done = outputs.count() == 0;
                    self.future_inputs[read].reset();
                    if done {
                        self.next_read = self.roll_incr(read);
                        self.next_write = self.next_read;
                    }
                    self.current = AnalyzedToken {
                        term,
                        position_increment: pos_incr,
                        position_length: 1,
                        start_offset: self.last_start_offset,
                        end_offset: self.last_end_offset,
                        token_type: TYPE_SYNONYM,
                        keyword: false,
                    };
                    return true;
                }
                return false;
            }
            self.parse();
        }
    }
}
