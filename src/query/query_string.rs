//! The Lucene "classic" query syntax as ES 6.8's `query_string` reads it, parsed into a
//! syntax tree. Field types and analysis are applied later, per index.
//!
//! Clause combination follows Lucene's `QueryParserBase.addClause`: `AND` makes both sides
//! required, `OR` (with default operator AND) makes the previous clause optional, `NOT` /
//! `-` / `!` prohibit, `+` requires; unmarked clauses take the default operator.

use super::Operator;

/// How a clause takes part in its boolean query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occur {
    /// Required, scored.
    Must,
    /// Optional, scored.
    Should,
    /// Excluded.
    MustNot,
}

/// Parser options.
#[derive(Debug, Clone, Copy)]
pub struct ParseOptions {
    /// `default_operator: AND`.
    pub default_operator_and: bool,
    /// `allow_leading_wildcard`.
    pub allow_leading_wildcard: bool,
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions { default_operator_and: false, allow_leading_wildcard: true }
    }
}

/// A node of the query-string syntax tree. `field: None` means the default fields.
#[derive(Debug, Clone, PartialEq)]
pub enum QsNode {
    /// A bare term (to be analyzed).
    Term { field: Option<String>, text: String, boost: Option<f32> },
    /// A quoted phrase with optional slop.
    Phrase { field: Option<String>, text: String, slop: Option<u32>, boost: Option<f32> },
    /// `term~` / `term~1`: `fuzziness` is the raw text after `~` (empty for the default).
    Fuzzy { field: Option<String>, text: String, fuzziness: String, boost: Option<f32> },
    /// A term with unescaped `*` or `?`; `pattern` keeps `\` escapes of literal `*`/`?`/`\`.
    Wildcard { field: Option<String>, pattern: String, boost: Option<f32> },
    /// `/regex/`.
    Regexp { field: Option<String>, pattern: String, boost: Option<f32> },
    /// `[a TO b]`, `{a TO b}`, `>=a` ...; `None` is an open end.
    Range {
        field: Option<String>,
        lower: Option<String>,
        upper: Option<String>,
        include_lower: bool,
        include_upper: bool,
        boost: Option<f32>,
    },
    /// `_exists_:field`, or `field:*`.
    Exists { field: String, boost: Option<f32> },
    /// `*` or `*:*`.
    MatchAll { boost: Option<f32> },
    /// A clause list.
    Bool { clauses: Vec<(Occur, QsNode)>, boost: Option<f32> },
}

/// A syntax error, with Lucene's message.
#[derive(Debug, Clone, PartialEq)]
pub struct QsError {
    /// The message (`Cannot parse '...': ...`).
    pub message: String,
    /// 0-based character position.
    pub column: usize,
}

const MAX_DEPTH: usize = 100;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    And,
    Or,
    Not,
    Plus,
    Minus,
    LParen,
    RParen,
    Colon,
    Caret(String),
    Tilde(String),
    Quoted(String),
    Regex(String),
    RangeStart(bool),
    RangeEnd(bool),
    Word { text: String, raw: String },
    Cmp(String),
}

fn is_special(c: char) -> bool {
    matches!(c, '+' | '-' | '!' | '(' | ')' | ':' | '^' | '[' | ']' | '"' | '{' | '}' | '~' | '\\' | '/' | '&' | '|')
}

struct Lexer<'a> {
    chars: Vec<char>,
    pos: usize,
    input: &'a str,
}

impl<'a> Lexer<'a> {
    fn err(&self, msg: String) -> QsError {
        QsError { message: format!("Cannot parse '{}': {msg}", self.input), column: self.pos }
    }

    fn tokens(mut self) -> Result<Vec<(Tok, usize)>, QsError> {
        let mut out = Vec::new();
        while self.pos < self.chars.len() {
            let c = self.chars[self.pos];
            let at = self.pos;
            if c.is_whitespace() {
                self.pos += 1;
                continue;
            }
            let two: String = self.chars[self.pos..(self.pos + 2).min(self.chars.len())].iter().collect();
            let tok = match c {
                '&' if two == "&&" => {
                    self.pos += 2;
                    Tok::And
                }
                '|' if two == "||" => {
                    self.pos += 2;
                    Tok::Or
                }
                '+' => {
                    self.pos += 1;
                    Tok::Plus
                }
                '-' => {
                    self.pos += 1;
                    Tok::Minus
                }
                '!' => {
                    self.pos += 1;
                    Tok::Not
                }
                '(' => {
                    self.pos += 1;
                    Tok::LParen
                }
                ')' => {
                    self.pos += 1;
                    Tok::RParen
                }
                ':' => {
                    self.pos += 1;
                    Tok::Colon
                }
                '[' | '{' => {
                    self.pos += 1;
                    Tok::RangeStart(c == '[')
                }
                ']' | '}' => {
                    self.pos += 1;
                    Tok::RangeEnd(c == ']')
                }
                '^' => {
                    self.pos += 1;
                    Tok::Caret(self.number())
                }
                '~' => {
                    self.pos += 1;
                    Tok::Tilde(self.number())
                }
                '"' => Tok::Quoted(self.quoted()?),
                '/' => Tok::Regex(self.regex()?),
                '>' | '<' => {
                    let mut op = c.to_string();
                    self.pos += 1;
                    if self.chars.get(self.pos) == Some(&'=') {
                        op.push('=');
                        self.pos += 1;
                    }
                    Tok::Cmp(op)
                }
                _ => {
                    let (text, raw) = self.word()?;
                    match raw.as_str() {
                        "AND" => Tok::And,
                        "OR" => Tok::Or,
                        "NOT" => Tok::Not,
                        _ => Tok::Word { text, raw },
                    }
                }
            };
            out.push((tok, at));
        }
        Ok(out)
    }

    fn number(&mut self) -> String {
        let start = self.pos;
        while self.pos < self.chars.len() && (self.chars[self.pos].is_ascii_digit() || self.chars[self.pos] == '.') {
            self.pos += 1;
        }
        self.chars[start..self.pos].iter().collect()
    }

    fn quoted(&mut self) -> Result<String, QsError> {
        self.pos += 1;
        let mut s = String::new();
        while self.pos < self.chars.len() {
            let c = self.chars[self.pos];
            match c {
                '\\' if self.pos + 1 < self.chars.len() => {
                    s.push(self.chars[self.pos + 1]);
                    self.pos += 2;
                }
                '"' => {
                    self.pos += 1;
                    return Ok(s);
                }
                _ => {
                    s.push(c);
                    self.pos += 1;
                }
            }
        }
        Err(self.err("Lexical error: Encountered: <EOF> after prefix \"\\\"\" (unterminated quoted phrase)".into()))
    }

    fn regex(&mut self) -> Result<String, QsError> {
        self.pos += 1;
        let mut s = String::new();
        while self.pos < self.chars.len() {
            let c = self.chars[self.pos];
            match c {
                '\\' if self.pos + 1 < self.chars.len() => {
                    s.push('\\');
                    s.push(self.chars[self.pos + 1]);
                    self.pos += 2;
                }
                '/' => {
                    self.pos += 1;
                    return Ok(s);
                }
                _ => {
                    s.push(c);
                    self.pos += 1;
                }
            }
        }
        Err(self.err("Lexical error: Encountered: <EOF> (unterminated regular expression)".into()))
    }

    /// A term: runs until whitespace or a special character; `\x` escapes. Returns the
    /// unescaped text and a raw form that keeps escapes of `*`, `?` and `\` (so wildcard
    /// detection can tell literal from wildcard characters).
    fn word(&mut self) -> Result<(String, String), QsError> {
        let mut text = String::new();
        let mut raw = String::new();
        while self.pos < self.chars.len() {
            let c = self.chars[self.pos];
            if c == '\\' {
                let Some(&n) = self.chars.get(self.pos + 1) else {
                    return Err(self.err("Lexical error: Encountered: <EOF> after prefix \"\\\\\"".into()));
                };
                text.push(n);
                if matches!(n, '*' | '?' | '\\') {
                    raw.push('\\');
                }
                raw.push(n);
                self.pos += 2;
                continue;
            }
            if c.is_whitespace() || (is_special(c) && !(c == '-' || c == '+' || c == '!')) {
                break;
            }
            // `-`, `+` and `!` inside a word are literal (Lucene only treats them as
            // operators at the start of a clause).
            if (c == '-' || c == '+' || c == '!') && text.is_empty() {
                break;
            }
            if c == '&' || c == '|' {
                break;
            }
            text.push(c);
            raw.push(c);
            self.pos += 1;
        }
        if text.is_empty() {
            let c = self.chars.get(self.pos).copied().unwrap_or(' ');
            self.pos += 1;
            return Err(self.err(format!("Encountered \" \"{c}\" \"{c} \"\" at line 1, column {}.", self.pos - 1)));
        }
        Ok((text, raw))
    }
}

struct Parser<'a> {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    input: &'a str,
    opts: ParseOptions,
}

const CONJ_NONE: u8 = 0;
const CONJ_AND: u8 = 1;
const CONJ_OR: u8 = 2;
const MOD_NONE: u8 = 0;
const MOD_NOT: u8 = 1;
const MOD_REQ: u8 = 2;

impl<'a> Parser<'a> {
    fn err(&self, msg: &str) -> QsError {
        let column = self.toks.get(self.pos).map(|t| t.1).unwrap_or(self.input.chars().count());
        let found = match self.toks.get(self.pos) {
            Some((t, _)) => format!("{t:?}"),
            None => "<EOF>".to_string(),
        };
        QsError {
            message: format!(
                "Cannot parse '{}': Encountered \"{found}\" at line 1, column {column}. {msg}",
                self.input
            ),
            column,
        }
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }

    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).map(|t| t.0.clone());
        self.pos += 1;
        t
    }

    fn clause_body(&mut self, field: Option<&str>, depth: usize) -> Result<QsNode, QsError> {
        let f = field.map(str::to_string);
        match self.next() {
            Some(Tok::LParen) => {
                let mut q = self.query_with(field, depth + 1)?;
                match self.next() {
                    Some(Tok::RParen) => {}
                    _ => {
                        self.pos -= 1;
                        return Err(self.err("Expected \")\""));
                    }
                }
                if let Some(b) = self.boost()? {
                    set_boost(&mut q, b);
                }
                Ok(q)
            }
            Some(Tok::Quoted(text)) => {
                let slop = match self.peek() {
                    Some(Tok::Tilde(n)) => {
                        let n = n.clone();
                        self.next();
                        Some(n.split('.').next().unwrap_or("0").parse::<u32>().unwrap_or(0))
                    }
                    _ => None,
                };
                let boost = self.boost()?;
                Ok(QsNode::Phrase { field: f, text, slop, boost })
            }
            Some(Tok::Regex(pattern)) => {
                let boost = self.boost()?;
                Ok(QsNode::Regexp { field: f, pattern, boost })
            }
            Some(Tok::RangeStart(include_lower)) => {
                let lower = self.range_bound()?;
                match self.next() {
                    Some(Tok::Word { text, .. }) if text == "TO" => {}
                    _ => {
                        self.pos -= 1;
                        return Err(self.err("Expected \"TO\""));
                    }
                }
                let upper = self.range_bound()?;
                let include_upper = match self.next() {
                    Some(Tok::RangeEnd(i)) => i,
                    _ => {
                        self.pos -= 1;
                        return Err(self.err("Expected \"]\" or \"}\""));
                    }
                };
                let boost = self.boost()?;
                Ok(QsNode::Range { field: f, lower, upper, include_lower, include_upper, boost })
            }
            Some(Tok::Cmp(op)) => {
                let v = match self.next() {
                    Some(Tok::Word { text, .. }) => text,
                    Some(Tok::Quoted(text)) => text,
                    _ => {
                        self.pos -= 1;
                        return Err(self.err("Expected a value after a comparison"));
                    }
                };
                let boost = self.boost()?;
                let (lower, upper, il, iu) = match op.as_str() {
                    ">" => (Some(v), None, false, true),
                    ">=" => (Some(v), None, true, true),
                    "<" => (None, Some(v), true, false),
                    _ => (None, Some(v), true, true),
                };
                Ok(QsNode::Range { field: f, lower, upper, include_lower: il, include_upper: iu, boost })
            }
            Some(Tok::Word { text, raw }) => {
                if text == "*" && raw == "*" {
                    let boost = self.boost()?;
                    return Ok(match f {
                        None => QsNode::MatchAll { boost },
                        Some(fl) if fl == "*" => QsNode::MatchAll { boost },
                        Some(fl) => QsNode::Exists { field: fl, boost },
                    });
                }
                let fuzzy = match self.peek() {
                    Some(Tok::Tilde(n)) => {
                        let n = n.clone();
                        self.next();
                        Some(n)
                    }
                    _ => None,
                };
                let boost = self.boost()?;
                if let Some(fuzziness) = fuzzy {
                    return Ok(QsNode::Fuzzy { field: f, text, fuzziness, boost });
                }
                if has_wildcard(&raw) {
                    let first = raw.chars().next().unwrap_or(' ');
                    if !self.opts.allow_leading_wildcard && (first == '*' || first == '?') {
                        return Err(QsError {
                            message: format!(
                                "Cannot parse '{}': '*' or '?' not allowed as first character in WildcardQuery",
                                self.input
                            ),
                            column: 0,
                        });
                    }
                    return Ok(QsNode::Wildcard { field: f, pattern: raw, boost });
                }
                Ok(QsNode::Term { field: f, text, boost })
            }
            Some(_) => {
                self.pos -= 1;
                Err(self.err("Was expecting a term, a phrase or a group"))
            }
            None => Err(self.err("Was expecting a term, a phrase or a group")),
        }
    }

    fn range_bound(&mut self) -> Result<Option<String>, QsError> {
        match self.next() {
            Some(Tok::Word { text, raw }) => Ok(if raw == "*" { None } else { Some(text) }),
            Some(Tok::Quoted(text)) => Ok(Some(text)),
            _ => {
                self.pos -= 1;
                Err(self.err("Expected a range bound"))
            }
        }
    }

    fn boost(&mut self) -> Result<Option<f32>, QsError> {
        if let Some(Tok::Caret(n)) = self.peek() {
            let n = n.clone();
            self.next();
            return n.parse::<f32>().map(Some).map_err(|_| self.err("Expected a number after ^"));
        }
        Ok(None)
    }
}

fn has_wildcard(raw: &str) -> bool {
    let mut escaped = false;
    for c in raw.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '*' | '?' => return true,
            _ => {}
        }
    }
    false
}

fn set_boost(q: &mut QsNode, b: f32) {
    let slot = match q {
        QsNode::Term { boost, .. }
        | QsNode::Phrase { boost, .. }
        | QsNode::Fuzzy { boost, .. }
        | QsNode::Wildcard { boost, .. }
        | QsNode::Regexp { boost, .. }
        | QsNode::Range { boost, .. }
        | QsNode::Exists { boost, .. }
        | QsNode::MatchAll { boost }
        | QsNode::Bool { boost, .. } => boost,
    };
    *slot = Some(slot.unwrap_or(1.0) * b);
}

/// Lucene's `addClause`: the conjunction can change the previous clause's occur.
fn add_clause(clauses: &mut Vec<(Occur, QsNode)>, conj: u8, mods: u8, q: QsNode, default_and: bool) {
    if let Some(last) = clauses.last_mut() {
        if conj == CONJ_AND && last.0 != Occur::MustNot {
            last.0 = Occur::Must;
        }
        if default_and && conj == CONJ_OR && last.0 != Occur::MustNot {
            last.0 = Occur::Should;
        }
    }
    let (required, prohibited) = if !default_and {
        let prohibited = mods == MOD_NOT;
        let required = mods == MOD_REQ || (conj == CONJ_AND && !prohibited);
        (required, prohibited)
    } else {
        let prohibited = mods == MOD_NOT;
        (!prohibited && conj != CONJ_OR, prohibited)
    };
    let occur = if prohibited {
        Occur::MustNot
    } else if required {
        Occur::Must
    } else {
        Occur::Should
    };
    clauses.push((occur, q));
}

/// Parses a query string.
pub fn parse(input: &str, opts: &ParseOptions) -> Result<QsNode, QsError> {
    let toks = Lexer { chars: input.chars().collect(), pos: 0, input }.tokens()?;
    let mut p = Parser { toks, pos: 0, input, opts: *opts };
    let q = p.query_top()?;
    if p.pos < p.toks.len() {
        return Err(p.err("Unexpected input"));
    }
    Ok(q)
}

impl<'a> Parser<'a> {
    fn query_top(&mut self) -> Result<QsNode, QsError> {
        self.query_with(None, 0)
    }

    /// The clause loop, with Lucene's combination rules.
    fn query_with(&mut self, field: Option<&str>, depth: usize) -> Result<QsNode, QsError> {
        if depth > MAX_DEPTH {
            return Err(self.err("Query nested too deeply"));
        }
        let mut clauses: Vec<(Occur, QsNode)> = Vec::new();
        let mut first = true;
        loop {
            if matches!(self.peek(), None | Some(Tok::RParen)) {
                break;
            }
            let mut conj = CONJ_NONE;
            if !first {
                match self.peek() {
                    Some(Tok::And) => {
                        self.next();
                        conj = CONJ_AND;
                    }
                    Some(Tok::Or) => {
                        self.next();
                        conj = CONJ_OR;
                    }
                    _ => {}
                }
            }
            let mods = match self.peek() {
                Some(Tok::Plus) => {
                    self.next();
                    MOD_REQ
                }
                Some(Tok::Minus) | Some(Tok::Not) => {
                    self.next();
                    MOD_NOT
                }
                _ => MOD_NONE,
            };
            if matches!(self.peek(), None | Some(Tok::RParen)) {
                return Err(self.err("Was expecting a clause"));
            }
            let q = self.clause_in(field, depth)?;
            add_clause(&mut clauses, conj, mods, q, self.opts.default_operator_and);
            first = false;
        }
        if clauses.len() == 1 && clauses[0].0 != Occur::MustNot {
            if let Some((_, q)) = clauses.pop() {
                return Ok(q);
            }
        }
        Ok(QsNode::Bool { clauses, boost: None })
    }

    fn clause_in(&mut self, field: Option<&str>, depth: usize) -> Result<QsNode, QsError> {
        if let (Some(Tok::Word { text, .. }), Some((Tok::Colon, _))) =
            (self.peek().cloned(), self.toks.get(self.pos + 1).cloned())
        {
            self.pos += 2;
            if text == "_exists_" {
                return match self.next() {
                    Some(Tok::Word { text, .. }) => {
                        let boost = self.boost()?;
                        Ok(QsNode::Exists { field: text, boost })
                    }
                    _ => {
                        self.pos -= 1;
                        Err(self.err("Expected a field name after _exists_:"))
                    }
                };
            }
            return self.group_or_term(Some(&text), depth);
        }
        self.group_or_term(field, depth)
    }

    fn group_or_term(&mut self, field: Option<&str>, depth: usize) -> Result<QsNode, QsError> {
        if let Some(Tok::LParen) = self.peek() {
            self.next();
            let mut q = self.query_with(field, depth + 1)?;
            match self.next() {
                Some(Tok::RParen) => {}
                _ => {
                    self.pos -= 1;
                    return Err(self.err("Was expecting \")\""));
                }
            }
            if let Some(b) = self.boost()? {
                set_boost(&mut q, b);
            }
            return Ok(q);
        }
        self.clause_body(field, depth)
    }
}

/// The occur of clauses made with the default operator.
pub fn default_occur(op: Operator) -> Occur {
    match op {
        Operator::And => Occur::Must,
        Operator::Or => Occur::Should,
    }
}

/// Lucene 7's classic parser does not split on whitespace: a run of bare terms (no
/// field, boost, fuzziness or operator) is analyzed as one text. Our parser yields one
/// node per term, so runs are merged back when the query has no explicit operators (with
/// them, a run cannot be told apart from `a OR b`); a merged run is marked by the space
/// that joins its terms.
pub fn group_bare_terms(node: QsNode, raw: &str, op: Operator) -> QsNode {
    if has_explicit_operators(raw) {
        return node;
    }
    group_node(node, default_occur(op))
}

fn group_node(node: QsNode, occur: Occur) -> QsNode {
    let QsNode::Bool { clauses, boost } = node else { return node };
    let mut out: Vec<(Occur, QsNode)> = Vec::with_capacity(clauses.len());
    let mut run: Vec<String> = Vec::new();
    let flush = |run: &mut Vec<String>, out: &mut Vec<(Occur, QsNode)>| {
        if run.is_empty() {
            return;
        }
        let text = run.join(" ");
        run.clear();
        out.push((occur, QsNode::Term { field: None, text, boost: None }));
    };
    for (o, c) in clauses {
        match c {
            QsNode::Term { field: None, text, boost: None } if o == occur => run.push(text),
            other => {
                flush(&mut run, &mut out);
                out.push((o, group_node(other, occur)));
            }
        }
    }
    flush(&mut run, &mut out);
    if out.len() == 1 && boost.is_none() && out[0].0 == occur {
        if let Some((_, only)) = out.pop() {
            return only;
        }
    }
    QsNode::Bool { clauses: out, boost }
}

/// Whether the raw query uses `AND`, `OR`, `NOT`, `&&`, `||` or a `+`/`-`/`!` prefix.
fn has_explicit_operators(raw: &str) -> bool {
    if raw.contains("&&") || raw.contains("||") {
        return true;
    }
    raw.split_whitespace().any(|w| {
        let w = w.trim_start_matches('(');
        matches!(w, "AND" | "OR" | "NOT") || w.starts_with(['+', '-', '!'])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> QsNode {
        parse(s, &ParseOptions::default()).unwrap()
    }

    fn term(f: Option<&str>, t: &str) -> QsNode {
        QsNode::Term { field: f.map(str::to_string), text: t.into(), boost: None }
    }

    #[test]
    fn terms_fields_and_default_or() {
        assert_eq!(p("alignment"), term(None, "alignment"));
        assert_eq!(
            p("a b"),
            QsNode::Bool {
                clauses: vec![(Occur::Should, term(None, "a")), (Occur::Should, term(None, "b"))],
                boost: None
            }
        );
        assert_eq!(p("item.name:blast"), term(Some("item.name"), "blast"));
        assert_eq!(p("*identifier:x"), term(Some("*identifier"), "x"));
    }

    #[test]
    fn lucene_conjunction_rules() {
        use Occur::*;
        let occurs = |s: &str, and: bool| match parse(
            s,
            &ParseOptions { default_operator_and: and, allow_leading_wildcard: true },
        )
        .unwrap()
        {
            QsNode::Bool { clauses, .. } => clauses.into_iter().map(|c| c.0).collect::<Vec<_>>(),
            _ => vec![],
        };
        assert_eq!(occurs("a AND b OR c", false), vec![Must, Must, Should]);
        assert_eq!(occurs("a OR b AND c", false), vec![Should, Must, Must]);
        assert_eq!(occurs("a -b +c", false), vec![Should, MustNot, Must]);
        assert_eq!(occurs("a && !b", false), vec![Must, MustNot]);
        assert_eq!(occurs("a b", true), vec![Must, Must]);
        assert_eq!(occurs("a OR b", true), vec![Should, Should]);
        assert_eq!(occurs("NOT a", false), vec![MustNot]);
    }

    #[test]
    fn client_forms() {
        match p("item.identifier:((SCR_1) OR (SCR_2))") {
            QsNode::Bool { clauses, .. } => {
                assert_eq!(clauses[0].1, term(Some("item.identifier"), "SCR_1"));
                assert_eq!(clauses[1].1, term(Some("item.identifier"), "SCR_2"));
            }
            q => panic!("{q:?}"),
        }
        assert_eq!(p(r"_id:rrid\:scr_000415"), term(Some("_id"), "rrid:scr_000415"));
        assert_eq!(p(r"DOI\:10.26275\/abc"), term(None, "DOI:10.26275/abc"));
        assert_eq!(p("*x*"), QsNode::Wildcard { field: None, pattern: "*x*".into(), boost: None });
        assert_eq!(p(r"a\*b"), term(None, "a*b"));
        assert_eq!(p("\"a b\"~3"), QsNode::Phrase { field: None, text: "a b".into(), slop: Some(3), boost: None });
        assert_eq!(
            p("year:[2019 TO 2020}"),
            QsNode::Range {
                field: Some("year".into()),
                lower: Some("2019".into()),
                upper: Some("2020".into()),
                include_lower: true,
                include_upper: false,
                boost: None
            }
        );
        assert_eq!(
            p("n:>=2020"),
            QsNode::Range {
                field: Some("n".into()),
                lower: Some("2020".into()),
                upper: None,
                include_lower: true,
                include_upper: true,
                boost: None
            }
        );
        assert_eq!(p("/jo.*n/"), QsNode::Regexp { field: None, pattern: "jo.*n".into(), boost: None });
        assert_eq!(p("_exists_:title"), QsNode::Exists { field: "title".into(), boost: None });
        assert_eq!(p("*"), QsNode::MatchAll { boost: None });
        assert_eq!(p("*:*"), QsNode::MatchAll { boost: None });
        assert_eq!(p("roam~1"), QsNode::Fuzzy { field: None, text: "roam".into(), fuzziness: "1".into(), boost: None });
        match p("title:(quick brown)^2") {
            QsNode::Bool { boost, clauses } => {
                assert_eq!(boost, Some(2.0));
                assert_eq!(clauses.len(), 2);
            }
            q => panic!("{q:?}"),
        }
        assert_eq!(p("a-b"), term(None, "a-b"));
    }

    #[test]
    fn errors_and_garbage_never_panic() {
        for bad in ["(a", "a)", "\"open", "a AND", "[a TO", "x:", "\\", "a^x", "((((", "&&", "!"] {
            assert!(parse(bad, &ParseOptions::default()).is_err(), "{bad}");
        }
        let deep = "(".repeat(300) + "a" + &")".repeat(300);
        assert!(parse(&deep, &ParseOptions::default()).is_err());
        let no_leading = ParseOptions { default_operator_and: false, allow_leading_wildcard: false };
        assert!(parse("*x", &no_leading).unwrap_err().message.contains("not allowed as first character"));
        for s in ["a:b:c", "+-a", "a || || b", "éàü ~ ^", "\u{0}", "a~~", "[* TO *]", "}{", "/x", "a:(b", ":"] {
            let _ = parse(s, &ParseOptions::default());
        }
    }

    #[test]
    fn grouping_of_bare_terms() {
        let g = |s: &str, op| {
            let tree =
                parse(s, &ParseOptions { default_operator_and: op == Operator::And, allow_leading_wildcard: true })
                    .unwrap();
            group_bare_terms(tree, s, op)
        };
        assert_eq!(g("a b c", Operator::Or), QsNode::Term { field: None, text: "a b c".into(), boost: None });
        assert_eq!(g("a b c", Operator::And), QsNode::Term { field: None, text: "a b c".into(), boost: None });
        match g("a OR b", Operator::Or) {
            QsNode::Bool { clauses, .. } => assert_eq!(clauses.len(), 2),
            other => panic!("{other:?}"),
        }
        match g("a b x:c d e", Operator::Or) {
            QsNode::Bool { clauses, .. } => {
                assert_eq!(clauses.len(), 3);
                assert_eq!(clauses[0].1, QsNode::Term { field: None, text: "a b".into(), boost: None });
                assert_eq!(clauses[2].1, QsNode::Term { field: None, text: "d e".into(), boost: None });
            }
            other => panic!("{other:?}"),
        }
        assert!(has_explicit_operators("a -b"));
        assert!(!has_explicit_operators("single-cell rna"));
    }
}
