//! The `flatten_graph` token filter: Lucene 8's FlattenGraphFilter, which turns a token
//! graph (from `word_delimiter_graph` or `synonym_graph`) into a sausage an index can hold:
//! input positions that side paths join are merged into one output position, each
//! token's length is recounted in output positions, and offsets are shrink-wrapped so
//! they never go backwards.
//!
//! This keeps Lucene's steps (input nodes, output nodes, the frontier it releases once
//! no buffered token can still reach past it), since order and offsets follow from them.
//! Lucene's rolling buffers become vectors indexed by position: one analysis holds them
//! all, and they are as long as the stream's positions.

use super::token::{AnalyzedToken, TokenStream};

/// The tokens leaving one input position.
#[derive(Default)]
struct InputNode {
    tokens: Vec<AnalyzedToken>,
    /// The input position, once assigned (`-1` before).
    node: i64,
    /// The furthest input position a token leaving here reaches.
    max_to_node: i64,
    /// The output position this input position maps to (`-1` before).
    output_node: i64,
    /// The next token to release.
    next_out: usize,
}

/// Input positions merged into one output position.
#[derive(Default)]
struct OutputNode {
    input_nodes: Vec<i64>,
    next_out: usize,
    /// Start offset of the tokens leaving here (`-1` before any).
    start_offset: i64,
    /// End offset of the tokens arriving here (`-1` before any).
    end_offset: i64,
}

struct Flatten {
    inputs: Vec<InputNode>,
    outputs: Vec<OutputNode>,
    input_from: i64,
    output_from: i64,
    done: bool,
    last_output_from: i64,
    last_start_offset: i64,
}

impl Flatten {
    /// `RollingBuffer.get`: the node at `pos`, created (reset) up to it.
    fn input(&mut self, pos: i64) -> &mut InputNode {
        let pos = pos.max(0) as usize;
        while self.inputs.len() <= pos {
            self.inputs.push(InputNode { node: -1, max_to_node: -1, output_node: -1, ..Default::default() });
        }
        &mut self.inputs[pos]
    }

    fn output(&mut self, pos: i64) -> &mut OutputNode {
        let pos = pos.max(0) as usize;
        while self.outputs.len() <= pos {
            self.outputs.push(OutputNode { start_offset: -1, end_offset: -1, ..Default::default() });
        }
        &mut self.outputs[pos]
    }

    /// `RollingBuffer.getMaxPos`.
    fn outputs_max_pos(&self) -> i64 {
        self.outputs.len() as i64 - 1
    }

    /// `releaseBufferedToken`.
    fn release(&mut self) -> Option<AnalyzedToken> {
        while self.output_from < self.outputs_max_pos() {
            let from = self.output_from;
            if self.output(from).input_nodes.is_empty() {
                // The first node after a hole: no token arrived to it.
                self.output_from += 1;
                continue;
            }
            let ids = self.output(from).input_nodes.clone();
            let max_to_node = ids.iter().map(|&id| self.input(id).max_to_node).max().unwrap_or(-1);
            if !(max_to_node <= self.input_from || self.done) {
                return None;
            }
            let next = self.output(from).next_out;
            let input_id = ids[next.min(ids.len() - 1)];
            let max_pos = self.outputs_max_pos();
            if self.input(input_id).tokens.is_empty() {
                if self.done && from >= max_pos {
                    return None;
                }
                self.output_from += 1;
                continue;
            }
            let input = self.input(input_id);
            let mut token = input.tokens[input.next_out].clone();
            input.next_out += 1;
            let (input_node, input_done) = (input.node, input.next_out == input.tokens.len());
            token.position_increment = (from - self.last_output_from).max(0) as u32;
            let to_output = self.input(input_node + i64::from(token.position_length)).output_node;
            token.position_length = (to_output - from).max(0) as u32;
            self.last_output_from = from;
            let end_node_offset = self.output(to_output).end_offset;
            let start = self.last_start_offset.max(self.output(from).start_offset);
            let end = start.max(end_node_offset);
            token.start_offset = start.max(0) as usize;
            token.end_offset = end.max(0) as usize;
            self.last_start_offset = start;
            if input_done {
                let output = self.output(from);
                output.next_out += 1;
                if output.next_out == output.input_nodes.len() {
                    self.output_from += 1;
                }
            }
            return Some(token);
        }
        None
    }

    /// Takes one input token into the graph.
    fn take(&mut self, token: AnalyzedToken) {
        let increment = i64::from(token.position_increment);
        // A first token stacked on nothing starts at position 0 (Lucene would fail).
        self.input_from = (self.input_from + increment).max(0);
        let input_from = self.input_from;
        let (start, end) = (token.start_offset as i64, token.end_offset as i64);
        let input_to = input_from + i64::from(token.position_length);
        if self.input(input_from).node == -1 {
            // The first token after a hole: its node was never a destination, so it
            // jumps to a new output node.
            let out = self.outputs_max_pos() + 1;
            let src = self.input(input_from);
            src.node = input_from;
            src.output_node = out;
            let out_src = self.output(out);
            out_src.input_nodes.push(input_from);
            out_src.start_offset = start;
        } else {
            let out = self.input(input_from).output_node;
            let out_src = self.output(out);
            if out_src.start_offset == -1 || start > out_src.start_offset {
                // Shrink-wrap: the most restrictive offsets win.
                out_src.start_offset = start.max(out_src.start_offset);
            }
        }
        let src = self.input(input_from);
        src.tokens.push(token);
        src.max_to_node = src.max_to_node.max(input_to);
        let output_end = src.output_node + 1;
        let dest = self.input(input_to);
        if dest.node == -1 {
            dest.node = input_to;
        }
        let dest_output = dest.output_node;
        if output_end > dest_output {
            if dest_output != -1 {
                let nodes = &mut self.output(dest_output).input_nodes;
                if let Some(i) = nodes.iter().position(|&n| n == input_to) {
                    nodes.remove(i);
                }
            }
            self.output(output_end).input_nodes.push(input_to);
            self.input(input_to).output_node = output_end;
        }
        let dest_output = self.input(input_to).output_node;
        let out_dest = self.output(dest_output);
        if out_dest.end_offset == -1 || end < out_dest.end_offset {
            out_dest.end_offset = end;
        }
    }
}

/// Applies the filter.
pub fn apply(stream: &mut TokenStream) {
    let mut f = Flatten {
        inputs: Vec::new(),
        outputs: Vec::new(),
        input_from: -1,
        output_from: 0,
        done: false,
        last_output_from: -1,
        last_start_offset: 0,
    };
    let first = f.input(0);
    first.node = 0;
    first.output_node = 0;
    let out = f.output(0);
    out.input_nodes.push(0);
    out.start_offset = 0;
    let mut input = std::mem::take(&mut stream.tokens).into_iter();
    let mut tokens = Vec::new();
    loop {
        if let Some(t) = f.release() {
            tokens.push(t);
            continue;
        }
        if f.done {
            break;
        }
        match input.next() {
            Some(t) => f.take(t),
            None => f.done = true,
        }
    }
    stream.tokens = tokens;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(term: &str, inc: u32, len: u32, start: usize, end: usize) -> AnalyzedToken {
        AnalyzedToken { position_increment: inc, position_length: len, ..AnalyzedToken::word(term.into(), start, end) }
    }

    #[test]
    fn side_paths_merge() {
        // wi-fi as word_delimiter_graph leaves it: wifi spanning wi and fi.
        let mut s = TokenStream {
            tokens: vec![token("wifi", 1, 2, 0, 5), token("wi", 0, 1, 0, 2), token("fi", 1, 1, 3, 5)],
            final_offset: 5,
            final_position_increment: 0,
        };
        apply(&mut s);
        let got: Vec<_> = s.tokens.iter().map(|t| (t.term.as_str(), t.position_increment, t.position_length)).collect();
        assert_eq!(got, [("wifi", 1, 2), ("wi", 0, 1), ("fi", 1, 1)]);
    }
}
