//! The `simple_query_string` syntax, as Lucene's `SimpleQueryParser` reads it under ES
//! 6.8's flags: text, phrases (with slop), prefixes, fuzzy terms and `+ | -` operators
//! with precedence, into a tree of [`SNode`]s. Analysis per field happens at execution.

use crate::query::query_string::Occur;
use crate::query::Operator;

/// `AND` flag (`+`).
pub const AND: u32 = 1;
/// `NOT` flag (`-`).
pub const NOT: u32 = 1 << 1;
/// `OR` flag (`|`).
pub const OR: u32 = 1 << 2;
/// `PREFIX` flag (trailing `*`).
pub const PREFIX: u32 = 1 << 3;
/// `PHRASE` flag (`"`).
pub const PHRASE: u32 = 1 << 4;
/// `PRECEDENCE` flag (`(` `)`).
pub const PRECEDENCE: u32 = 1 << 5;
/// `ESCAPE` flag (`\`).
pub const ESCAPE: u32 = 1 << 6;
/// `WHITESPACE` flag (whitespace splits terms).
pub const WHITESPACE: u32 = 1 << 7;
/// `FUZZY` flag (`term~N`).
pub const FUZZY: u32 = 1 << 8;
/// `NEAR` / `SLOP` flag (`"phrase"~N`).
pub const NEAR: u32 = 1 << 9;

/// A node of the simple syntax tree.
#[derive(Debug, Clone, PartialEq)]
pub enum SNode {
    /// Text analyzed per field.
    Text(String),
    /// A phrase with slop.
    Phrase(String, u32),
    /// A fuzzy term with its edit distance.
    Fuzzy(String, u32),
    /// A prefix.
    Prefix(String),
    /// A boolean query.
    Bool(Vec<(Occur, SNode)>),
    /// `*`.
    MatchAll,
    /// Nothing (an empty query).
    MatchNone,
}

struct State {
    data: Vec<char>,
    index: usize,
    top: Option<SNode>,
    current: Option<Occur>,
    previous: Option<Occur>,
    not: u32,
}

/// Parses `text` with the enabled `flags` and the default operator.
pub fn parse(text: &str, flags: u32, op: Operator) -> SNode {
    if text.trim() == "*" {
        return SNode::MatchAll;
    }
    let default = match op {
        Operator::And => Occur::Must,
        Operator::Or => Occur::Should,
    };
    let mut p = Parser { flags, default, depth: 0 };
    let mut state = State { data: text.chars().collect(), index: 0, top: None, current: None, previous: None, not: 0 };
    p.parse_sub(&mut state);
    state.top.unwrap_or(SNode::MatchNone)
}

struct Parser {
    flags: u32,
    default: Occur,
    depth: usize,
}

impl Parser {
    fn on(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }

    fn is_ws(c: char) -> bool {
        matches!(c, ' ' | '\t' | '\n' | '\r')
    }

    fn parse_sub(&mut self, s: &mut State) {
        while s.index < s.data.len() {
            let c = s.data[s.index];
            if c == '(' && self.on(PRECEDENCE) {
                self.consume_sub(s);
            } else if c == ')' && self.on(PRECEDENCE) {
                s.index += 1;
            } else if c == '"' && self.on(PHRASE) {
                self.consume_phrase(s);
            } else if c == '+' && self.on(AND) {
                if s.current.is_none() && s.top.is_some() {
                    s.current = Some(Occur::Must);
                }
                s.index += 1;
            } else if c == '|' && self.on(OR) {
                if s.current.is_none() && s.top.is_some() {
                    s.current = Some(Occur::Should);
                }
                s.index += 1;
            } else if c == '-' && self.on(NOT) {
                s.not += 1;
                s.index += 1;
                continue;
            } else if Self::is_ws(c) && self.on(WHITESPACE) {
                s.index += 1;
            } else {
                self.consume_token(s);
            }
            s.not = 0;
        }
    }

    fn consume_sub(&mut self, s: &mut State) {
        s.index += 1;
        let start = s.index;
        let mut depth = 1;
        let mut escaped = false;
        while s.index < s.data.len() {
            let c = s.data[s.index];
            if !escaped {
                if c == '\\' && self.on(ESCAPE) {
                    escaped = true;
                    s.index += 1;
                    continue;
                } else if c == '(' {
                    depth += 1;
                } else if c == ')' {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            escaped = false;
            s.index += 1;
        }
        let inner: Vec<char> = s.data[start..s.index.min(s.data.len())].to_vec();
        if s.index < s.data.len() {
            // The closing parenthesis.
            s.index += 1;
        }
        if self.depth >= 64 {
            return;
        }
        self.depth += 1;
        let mut sub = State { data: inner, index: 0, top: None, current: None, previous: None, not: 0 };
        self.parse_sub(&mut sub);
        self.depth -= 1;
        if let Some(branch) = sub.top {
            self.build(s, branch);
        }
    }

    fn consume_phrase(&mut self, s: &mut State) {
        s.index += 1;
        let start = s.index;
        let mut buf = String::new();
        let mut escaped = false;
        let mut slop = None;
        let mut closed = false;
        while s.index < s.data.len() {
            let c = s.data[s.index];
            if !escaped {
                if c == '\\' && self.on(ESCAPE) {
                    escaped = true;
                    s.index += 1;
                    continue;
                } else if c == '"' {
                    closed = true;
                    if s.index + 1 < s.data.len() && s.data[s.index + 1] == '~' && self.on(NEAR) {
                        s.index += 1;
                        slop = Some(self.parse_fuzziness(s));
                    } else {
                        s.index += 1;
                    }
                    break;
                }
            }
            escaped = false;
            buf.push(c);
            s.index += 1;
        }
        if !closed {
            // No closing quote: the quote is an ordinary character.
            s.index = start - 1;
            self.consume_token_from(s, true);
            return;
        }
        self.build(s, SNode::Phrase(buf, slop.unwrap_or(0)));
    }

    fn token_finished(&self, c: char) -> bool {
        (c == '"' && self.on(PHRASE))
            || (c == '|' && self.on(OR))
            || (c == '+' && self.on(AND))
            || ((c == '(' || c == ')') && self.on(PRECEDENCE))
            || (Self::is_ws(c) && self.on(WHITESPACE))
    }

    /// Reads `~N` at the cursor (just after `~` handling), returning the edit distance
    /// or slop: empty means 2 for terms (and the phrase default), garbage means 0.
    fn parse_fuzziness(&self, s: &mut State) -> u32 {
        let mut text = String::new();
        if s.index < s.data.len() && s.data[s.index] == '~' {
            while s.index < s.data.len() {
                s.index += 1;
                if s.index < s.data.len() {
                    if self.token_finished(s.data[s.index]) {
                        break;
                    }
                    text.push(s.data[s.index]);
                }
            }
            if text.is_empty() {
                return 2;
            }
            return text.parse::<i64>().map(|v| v.max(0) as u32).unwrap_or(0);
        }
        0
    }

    fn consume_token(&mut self, s: &mut State) {
        self.consume_token_from(s, false)
    }

    fn consume_token_from(&mut self, s: &mut State, quote_is_char: bool) {
        let mut buf = String::new();
        let mut escaped = false;
        let mut prefix = false;
        let mut fuzzy = false;
        let mut first = true;
        while s.index < s.data.len() {
            let c = s.data[s.index];
            if !escaped {
                if c == '\\' && self.on(ESCAPE) {
                    escaped = true;
                    prefix = false;
                    s.index += 1;
                    continue;
                } else if self.token_finished(c) && !(quote_is_char && first && c == '"') {
                    break;
                } else if !buf.is_empty() && c == '~' && self.on(FUZZY) {
                    fuzzy = true;
                    break;
                }
                prefix = !buf.is_empty() && c == '*' && self.on(PREFIX);
            }
            escaped = false;
            first = false;
            buf.push(c);
            s.index += 1;
        }
        if buf.is_empty() {
            return;
        }
        let branch = if fuzzy {
            let edits = self.parse_fuzziness(s).min(2);
            if edits == 0 {
                SNode::Text(buf)
            } else {
                SNode::Fuzzy(buf, edits)
            }
        } else if prefix {
            buf.pop();
            SNode::Prefix(buf)
        } else {
            SNode::Text(buf)
        };
        self.build(s, branch);
    }

    /// `SimpleQueryParser.buildQueryTree`.
    fn build(&self, s: &mut State, branch: SNode) {
        let branch = if s.not % 2 == 1 {
            SNode::Bool(vec![(Occur::MustNot, branch), (Occur::Should, SNode::MatchAll)])
        } else {
            branch
        };
        match s.top.take() {
            None => s.top = Some(branch),
            Some(top) => {
                let current = s.current.unwrap_or(self.default);
                let mut clauses = if s.previous != Some(current) {
                    vec![(current, top)]
                } else {
                    match top {
                        SNode::Bool(c) => c,
                        other => vec![(current, other)],
                    }
                };
                clauses.push((current, branch));
                s.top = Some(SNode::Bool(clauses));
                s.previous = Some(current);
            }
        }
        s.current = None;
        s.not = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sparse(s: &str, flags: u32, op: Operator) -> SNode {
        parse(s, flags, op)
    }

    fn text(s: &str) -> SNode {
        SNode::Text(s.into())
    }

    #[test]
    fn simple_syntax() {
        let all = u32::MAX;
        assert_eq!(sparse("foo", all, Operator::Or), text("foo"));
        assert_eq!(
            sparse("foo bar", all, Operator::Or),
            SNode::Bool(vec![(Occur::Should, text("foo")), (Occur::Should, text("bar"))])
        );
        assert_eq!(
            sparse("foo +bar", all, Operator::Or),
            SNode::Bool(vec![(Occur::Must, text("foo")), (Occur::Must, text("bar"))])
        );
        assert_eq!(
            sparse("-foo", all, Operator::Or),
            SNode::Bool(vec![(Occur::MustNot, text("foo")), (Occur::Should, SNode::MatchAll)])
        );
        assert_eq!(sparse("\"a b\"~2", all, Operator::Or), SNode::Phrase("a b".into(), 2));
        assert_eq!(sparse("blas*", all, Operator::Or), SNode::Prefix("blas".into()));
        assert_eq!(sparse("blast~1", all, Operator::Or), SNode::Fuzzy("blast".into(), 1));
        assert_eq!(sparse("blast~", all, Operator::Or), SNode::Fuzzy("blast".into(), 2));
        assert_eq!(sparse("*", all, Operator::Or), SNode::MatchAll);
        assert_eq!(sparse("", all, Operator::Or), SNode::MatchNone);
        // Precedence change: the previous clauses become one clause of the new operator.
        assert_eq!(
            sparse("a b | c", all, Operator::And),
            SNode::Bool(vec![
                (Occur::Should, SNode::Bool(vec![(Occur::Must, text("a")), (Occur::Must, text("b"))])),
                (Occur::Should, text("c"))
            ])
        );
        // Flags off: the operator characters are plain text.
        assert_eq!(sparse("a+b", 0, Operator::Or), text("a+b"));
        for s in ["\"open", "((((", "a~~~", "\\", "-", "+|", "(a \"b)", "~", "*~2"] {
            let _ = sparse(s, all, Operator::Or);
        }
    }
}
