//! Lucene's SynonymGraphFilter (ES's `synonym_graph`): greedy longest matches of the
//! map's inputs, each output a side path of the token graph from the match's first node
//! to its end node, with position lengths saying where each token ends.

use super::filter::TYPE_SYNONYM;
use super::rules::{SynonymMap, WORD_SEPARATOR};
use crate::analysis::limits::Quota;
use crate::analysis::token::AnalyzedToken;
use crate::error::Result;
use std::collections::VecDeque;

/// A looked-ahead input token.
#[derive(Clone)]
struct BufferedInput {
    state: AnalyzedToken,
}

/// A token waiting to be released: an input token (`state`) or an output term.
struct BufferedOutput {
    state: Option<AnalyzedToken>,
    term: String,
    start_node: i64,
    end_node: i64,
}

/// Lucene's RollingBuffer of looked-ahead tokens, addressed by absolute position.
#[derive(Default)]
struct Lookahead {
    items: VecDeque<BufferedInput>,
    /// The position after the last one written.
    next_pos: usize,
}

impl Lookahead {
    fn first_pos(&self) -> usize {
        self.next_pos - self.items.len()
    }

    fn max_pos(&self) -> i64 {
        self.next_pos as i64 - 1
    }

    fn get(&self, pos: usize) -> &BufferedInput {
        &self.items[pos - self.first_pos()]
    }

    fn free_before(&mut self, pos: usize) {
        while !self.items.is_empty() && self.first_pos() < pos {
            self.items.pop_front();
        }
    }
}

struct Filter<'m> {
    map: &'m SynonymMap,
    input: VecDeque<AnalyzedToken>,
    current: AnalyzedToken,
    output_buffer: VecDeque<BufferedOutput>,
    next_node_out: i64,
    last_node_out: i64,
    live_token: bool,
    match_start_offset: Option<usize>,
    match_end_offset: usize,
    finished: bool,
    lookahead_next_read: usize,
    lookahead_next_write: usize,
    lookahead: Lookahead,
}

/// Runs the filter over `tokens`; what it emits is charged to an analysis quota.
pub fn apply(map: &SynonymMap, tokens: Vec<AnalyzedToken>) -> Result<Vec<AnalyzedToken>> {
    let mut f = Filter {
        map,
        input: tokens.into(),
        current: AnalyzedToken::word(String::new(), 0, 0),
        output_buffer: VecDeque::new(),
        next_node_out: 0,
        last_node_out: -1,
        live_token: false,
        match_start_offset: None,
        match_end_offset: 0,
        finished: false,
        lookahead_next_read: 0,
        lookahead_next_write: 0,
        lookahead: Lookahead::default(),
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
    fn increment_token(&mut self) -> bool {
        if !self.output_buffer.is_empty() {
            self.release_buffered_token();
            return true;
        }
        if self.parse() {
            self.release_buffered_token();
            return true;
        }
        if self.lookahead_next_read == self.lookahead_next_write {
            // The token parse pulled matched no rule: it goes out as it came.
            if self.finished {
                return false;
            }
            self.live_token = false;
        } else {
            // Replay a token looked ahead by an earlier parse.
            self.current = self.lookahead.get(self.lookahead_next_read).state.clone();
            self.lookahead_next_read += 1;
            self.lookahead.free_before(self.lookahead_next_read);
        }
        self.last_node_out += i64::from(self.current.position_increment);
        self.next_node_out = self.last_node_out + i64::from(self.current.position_length);
        true
    }

    fn release_buffered_token(&mut self) {
        let Some(token) = self.output_buffer.pop_front() else { return };
        self.current = match token.state {
            Some(state) => state,
            None => AnalyzedToken {
                term: token.term,
                position_increment: 1,
                position_length: 1,
                start_offset: self.match_start_offset.unwrap_or(0),
                end_offset: self.match_end_offset,
                token_type: TYPE_SYNONYM,
                keyword: false,
            },
        };
        self.current.position_increment = (token.start_node - self.last_node_out).max(0) as u32;
        self.last_node_out = token.start_node;
        self.current.position_length = (token.end_node - token.start_node).max(0) as u32;
    }

    fn capture(&mut self) {
        self.live_token = false;
        self.lookahead.items.push_back(BufferedInput { state: self.current.clone() });
        self.lookahead.next_pos += 1;
        self.lookahead_next_write += 1;
    }

    fn parse(&mut self) -> bool {
        let mut match_output: Option<String> = None;
        let mut match_input_length = 0;
        let mut match_length = 0;
        let mut do_final_capture = false;
        let mut lookahead_upto = self.lookahead_next_read;
        self.match_start_offset = None;
        let mut prefix = String::new();
        loop {
            let term;
            let input_end_offset;
            if (lookahead_upto as i64) <= self.lookahead.max_pos() {
                let token = &self.lookahead.get(lookahead_upto).state;
                lookahead_upto += 1;
                term = token.term.clone();
                input_end_offset = token.end_offset;
                self.match_start_offset.get_or_insert(token.start_offset);
            } else if self.finished {
                break;
            } else if let Some(t) = self.input.pop_front() {
                self.current = t;
                self.live_token = true;
                term = self.current.term.clone();
                self.match_start_offset.get_or_insert(self.current.start_offset);
                input_end_offset = self.current.end_offset;
                lookahead_upto += 1;
            } else {
                self.finished = true;
                break;
            }
            match_length += 1;
            prefix.push_str(&term);
            let whole = self.map.entries.contains_key(&prefix);
            prefix.push(WORD_SEPARATOR);
            let more = self.map.continuations.contains(&prefix);
            if !whole && !more {
                break;
            }
            if whole {
                match_output = Some(prefix[..prefix.len() - 1].to_string());
                match_input_length = match_length;
                self.match_end_offset = input_end_offset;
            }
            if !more {
                break;
            }
            do_final_capture = true;
            if self.live_token {
                self.capture();
            }
        }
        if do_final_capture && self.live_token && !self.finished {
            // Every token after a captured one is captured too.
            self.capture();
        }
        let Some(input) = match_output else { return false };
        if self.live_token {
            self.capture();
        }
        self.buffer_output_tokens(&input, match_input_length);
        self.lookahead_next_read += match_input_length;
        self.lookahead.free_before(self.lookahead_next_read);
        true
    }

    fn buffer_output_tokens(&mut self, input: &str, match_input_length: usize) {
        let entry = &self.map.entries[input];
        let keep_orig = entry.keep_original;
        let mut total_path_nodes = if keep_orig { match_input_length as i64 - 1 } else { 0 };
        let paths: Vec<Vec<String>> = entry
            .outputs
            .iter()
            .map(|&ord| self.map.output_words(ord).map(str::to_string).collect::<Vec<_>>())
            .collect();
        for path in &paths {
            total_path_nodes += path.len() as i64 - 1;
        }
        let start_node = self.next_node_out;
        let end_node = start_node + total_path_nodes + 1;
        // First every token leaving the start node, each output's first word.
        let mut new_node_count = 0;
        for path in &paths {
            let path_end = if path.len() == 1 {
                end_node
            } else {
                let end = self.next_node_out + new_node_count + 1;
                new_node_count += path.len() as i64 - 1;
                end
            };
            self.output_buffer.push_back(BufferedOutput {
                state: None,
                term: path[0].clone(),
                start_node,
                end_node: path_end,
            });
        }
        // The original tokens last, else offsets would go backwards.
        if keep_orig {
            let token = self.lookahead.get(self.lookahead_next_read).state.clone();
            let input_end = if match_input_length == 1 { end_node } else { self.next_node_out + new_node_count + 1 };
            self.output_buffer.push_back(BufferedOutput {
                term: token.term.clone(),
                state: Some(token),
                start_node,
                end_node: input_end,
            });
        }
        self.next_node_out = end_node;
        for (path_id, path) in paths.iter().enumerate() {
            if path.len() > 1 {
                let mut last_node = self.output_buffer[path_id].end_node;
                for word in &path[1..path.len() - 1] {
                    self.output_buffer.push_back(BufferedOutput {
                        state: None,
                        term: word.clone(),
                        start_node: last_node,
                        end_node: last_node + 1,
                    });
                    last_node += 1;
                }
                self.output_buffer.push_back(BufferedOutput {
                    state: None,
                    term: path[path.len() - 1].clone(),
                    start_node: last_node,
                    end_node,
                });
            }
        }
        if keep_orig && match_input_length > 1 {
            let first_node = self.output_buffer[paths.len()].end_node;
            for (i, last_node) in (1..match_input_length).zip(first_node..) {
                let token = self.lookahead.get(self.lookahead_next_read + i).state.clone();
                let end = if i == match_input_length - 1 { end_node } else { last_node + 1 };
                self.output_buffer.push_back(BufferedOutput {
                    term: token.term.clone(),
                    state: Some(token),
                    start_node: last_node,
                    end_node: end,
                });
            }
        }
    }
}
