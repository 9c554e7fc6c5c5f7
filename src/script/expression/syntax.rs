//! The text of a Lucene expression to a tree: the tokens of Lucene's `Javascript.g4`
//! (longest match, as ANTLR's lexer takes them) and its precedence grammar, with the
//! `ParseException` texts and offsets Lucene 8's lexer and error strategy give.

use super::ast::{Binary, Func, Node, Unary};

/// A `java.text.ParseException` of the compiler: its message and offset (in UTF-16
/// units of the source, as Java counts).
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    /// `getErrorOffset()`.
    pub offset: usize,
    /// `getMessage()`.
    pub message: String,
    /// Not a `ParseException` but this Java exception (`Long.parseLong` overflowing on a
    /// hex or octal literal throws `NumberFormatException`).
    pub java_kind: Option<&'static str>,
}

/// Trees deeper than this are refused (they are walked recursively); Lucene has no such
/// bound but the Java stack's.
pub const MAX_DEPTH: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Lp,
    Rp,
    Comma,
    BoolNot,
    BwNot,
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Lsh,
    Rsh,
    Ush,
    Lt,
    Lte,
    Gt,
    Gte,
    Eq,
    Ne,
    BwAnd,
    BwXor,
    BwOr,
    BoolAnd,
    BoolOr,
    Cond,
    Colon,
    Variable,
    Octal,
    Hex,
    Decimal,
    Eof,
    /// Where the lexer failed: the parser meets the error when it reaches this token,
    /// as ANTLR's parser pulls tokens from its lexer one at a time.
    LexError,
}

#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Kind,
    start: usize,
    end: usize,
}

fn is_id_start(c: u8) -> bool {
    c == b'_' || c == b'$' || c.is_ascii_alphabetic()
}

fn is_id_part(c: u8) -> bool {
    is_id_start(c) || c.is_ascii_digit()
}

/// The lexer: `Ok(Some(end))` is the longest token at `start` (its end and kind),
/// `Err(stuck)` the index where no rule could go on and none had matched.
struct Lexer<'a> {
    src: &'a [u8],
}

impl Lexer<'_> {
    fn at(&self, i: usize) -> Option<u8> {
        self.src.get(i).copied()
    }

    /// `[0-9]+` from `i`: the end, or `None` without a digit.
    fn digits(&self, mut i: usize) -> Option<usize> {
        let from = i;
        while self.at(i).is_some_and(|c| c.is_ascii_digit()) {
            i += 1;
        }
        (i > from).then_some(i)
    }

    /// An ID from `i` (the first character checked by the caller).
    fn id(&self, mut i: usize) -> usize {
        i += 1;
        while self.at(i).is_some_and(is_id_part) {
            i += 1;
        }
        i
    }

    /// One `[ STRING | INTEGER ]` from `i` (at `[`): its end, or where it stuck.
    fn array(&self, mut i: usize) -> Result<usize, usize> {
        i += 1;
        match self.at(i) {
            Some(q @ (b'\'' | b'"')) => {
                i += 1;
                loop {
                    match self.at(i) {
                        None => return Err(i),
                        Some(b'\\') if matches!(self.at(i + 1), Some(c) if c == q || c == b'\\') => i += 2,
                        Some(b'\\') => return Err(i + 1),
                        Some(c) if c == q => {
                            i += 1;
                            break;
                        }
                        Some(_) => i += 1,
                    }
                }
            }
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => i = self.digits(i).unwrap_or(i),
            _ => return Err(i),
        }
        if self.at(i) == Some(b']') {
            Ok(i + 1)
        } else {
            Err(i)
        }
    }

    /// VARIABLE: ID ARRAY* ( '.' ID ARRAY* )*, longest match.
    fn variable(&self, start: usize) -> usize {
        let mut accepted = self.id(start);
        let mut i = accepted;
        loop {
            match self.at(i) {
                Some(b'[') => match self.array(i) {
                    Ok(end) => {
                        i = end;
                        accepted = end;
                    }
                    Err(_) => return accepted,
                },
                Some(b'.') if self.at(i + 1).is_some_and(is_id_start) => {
                    i = self.id(i + 1);
                    accepted = i;
                }
                _ => return accepted,
            }
        }
    }

    /// A number at `start` (a digit or `.`): its end and kind, or where it stuck.
    fn number(&self, start: usize) -> Result<(usize, Kind), usize> {
        let c = self.src[start];
        if c == b'.' {
            // `.` [0-9]+ exponent?
            let Some(end) = self.digits(start + 1) else { return Err(start + 1) };
            return Ok((self.exponent(end), Kind::Decimal));
        }
        let mut best: Option<(usize, Kind)> = None;
        let mut consider = |end: usize, kind: Kind| {
            if best.is_none_or(|(e, _)| end > e) {
                best = Some((end, kind));
            }
        };
        if c == b'0' {
            let mut i = start + 1;
            while self.at(i).is_some_and(|d| (b'0'..=b'7').contains(&d)) {
                i += 1;
            }
            if i > start + 1 {
                consider(i, Kind::Octal);
            }
            if matches!(self.at(start + 1), Some(b'x' | b'X')) {
                let mut i = start + 2;
                while self.at(i).is_some_and(|d| d.is_ascii_hexdigit()) {
                    i += 1;
                }
                if i > start + 2 {
                    consider(i, Kind::Hex);
                }
            }
        }
        let int_end = if c == b'0' { start + 1 } else { self.digits(start).unwrap_or(start + 1) };
        let mut end = int_end;
        if self.at(end) == Some(b'.') {
            end += 1;
            while self.at(end).is_some_and(|d| d.is_ascii_digit()) {
                end += 1;
            }
        }
        consider(self.exponent(end), Kind::Decimal);
        Ok(best.expect("a decimal always matches"))
    }

    /// An optional exponent after a decimal ending at `end`.
    fn exponent(&self, end: usize) -> usize {
        if !matches!(self.at(end), Some(b'e' | b'E')) {
            return end;
        }
        let mut i = end + 1;
        if matches!(self.at(i), Some(b'+' | b'-')) {
            i += 1;
        }
        self.digits(i).unwrap_or(end)
    }

    /// The tokens up to the first lexing error, and that error's (token start, stuck
    /// index) if any.
    fn tokens_with_stuck(&self) -> (Vec<Token>, Option<(usize, usize)>) {
        let mut out = Vec::new();
        match self.scan(&mut out) {
            Ok(()) => (out, None),
            Err((start, stuck)) => {
                out.push(Token { kind: Kind::LexError, start, end: start });
                (out, Some((start, stuck)))
            }
        }
    }

    /// Scans every token into `out`, or stops at (token start, stuck index).
    fn scan(&self, out: &mut Vec<Token>) -> Result<(), (usize, usize)> {
        let mut i = 0;
        let two = |a: u8, b: u8, i: usize| self.at(i) == Some(a) && self.at(i + 1) == Some(b);
        while i < self.src.len() {
            let c = self.src[i];
            if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                i += 1;
                continue;
            }
            let (kind, len) = match c {
                b'(' => (Kind::Lp, 1),
                b')' => (Kind::Rp, 1),
                b',' => (Kind::Comma, 1),
                b'~' => (Kind::BwNot, 1),
                b'*' => (Kind::Mul, 1),
                b'/' => (Kind::Div, 1),
                b'%' => (Kind::Rem, 1),
                b'+' => (Kind::Add, 1),
                b'-' => (Kind::Sub, 1),
                b'^' => (Kind::BwXor, 1),
                b'?' => (Kind::Cond, 1),
                b':' => (Kind::Colon, 1),
                b'!' if self.at(i + 1) == Some(b'=') => (Kind::Ne, 2),
                b'!' => (Kind::BoolNot, 1),
                b'<' if two(b'<', b'<', i) => (Kind::Lsh, 2),
                b'<' if self.at(i + 1) == Some(b'=') => (Kind::Lte, 2),
                b'<' => (Kind::Lt, 1),
                b'>' if two(b'>', b'>', i) && self.at(i + 2) == Some(b'>') => (Kind::Ush, 3),
                b'>' if two(b'>', b'>', i) => (Kind::Rsh, 2),
                b'>' if self.at(i + 1) == Some(b'=') => (Kind::Gte, 2),
                b'>' => (Kind::Gt, 1),
                b'=' if self.at(i + 1) == Some(b'=') => (Kind::Eq, 2),
                b'=' => return Err((i, i + 1)),
                b'&' if self.at(i + 1) == Some(b'&') => (Kind::BoolAnd, 2),
                b'&' => (Kind::BwAnd, 1),
                b'|' if self.at(i + 1) == Some(b'|') => (Kind::BoolOr, 2),
                b'|' => (Kind::BwOr, 1),
                c if is_id_start(c) => (Kind::Variable, self.variable(i) - i),
                c if c.is_ascii_digit() || c == b'.' => match self.number(i) {
                    Ok((end, kind)) => (kind, end - i),
                    Err(stuck) => return Err((i, stuck)),
                },
                _ => return Err((i, i)),
            };
            out.push(Token { kind, start: i, end: i + len });
            i += len;
        }
        out.push(Token { kind: Kind::Eof, start: self.src.len(), end: self.src.len() });
        Ok(())
    }
}

/// UTF-16 length of `s` (Java's offsets and positions).
fn java_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// ANTLR's line and position in line of byte `at`.
fn line_and_position(src: &str, at: usize) -> (usize, usize) {
    let before = &src[..at];
    let line = 1 + before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, java_len(&before[line_start..]))
}

/// ANTLR's `getErrorDisplay`: line breaks and tabs escaped.
fn error_display(text: &str) -> String {
    text.replace('\n', "\\n").replace('\r', "\\r").replace('\t', "\\t")
}

struct Parser<'a> {
    src: &'a str,
    tokens: Vec<Token>,
    /// The lexer's error, met at the `LexError` token.
    lex_error: Option<ParseError>,
    pos: usize,
    depth: usize,
}

/// Whether a token can start an expression (the FIRST set of the grammar's `expression`).
fn starts_expression(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Lp
            | Kind::Octal
            | Kind::Hex
            | Kind::Decimal
            | Kind::Variable
            | Kind::BoolNot
            | Kind::BwNot
            | Kind::Add
            | Kind::Sub
    )
}

fn binary_of(kind: Kind) -> Option<(Binary, u8)> {
    Some(match kind {
        Kind::Mul => (Binary::Mul, 10),
        Kind::Div => (Binary::Div, 10),
        Kind::Rem => (Binary::Rem, 10),
        Kind::Add => (Binary::Add, 9),
        Kind::Sub => (Binary::Sub, 9),
        Kind::Lsh => (Binary::Lsh, 8),
        Kind::Rsh => (Binary::Rsh, 8),
        Kind::Ush => (Binary::Ush, 8),
        Kind::Lt => (Binary::Lt, 7),
        Kind::Lte => (Binary::Lte, 7),
        Kind::Gt => (Binary::Gt, 7),
        Kind::Gte => (Binary::Gte, 7),
        Kind::Eq => (Binary::Eq, 6),
        Kind::Ne => (Binary::Ne, 6),
        Kind::BwAnd => (Binary::BwAnd, 5),
        Kind::BwXor => (Binary::BwXor, 4),
        Kind::BwOr => (Binary::BwOr, 3),
        Kind::BoolAnd => (Binary::And, 2),
        Kind::BoolOr => (Binary::Or, 1),
        _ => return None,
    })
}

impl Parser<'_> {
    fn peek(&self) -> Token {
        self.tokens[self.pos]
    }

    fn text(&self, t: Token) -> &str {
        &self.src[t.start..t.end]
    }

    fn error(&self, t: Token, message: String) -> ParseError {
        ParseError { offset: java_len(&self.src[..t.start]), message, java_kind: None }
    }

    fn display(&self, t: Token) -> String {
        if t.kind == Kind::Eof {
            "'<EOF>'".into()
        } else {
            format!("'{}'", error_display(self.text(t)))
        }
    }

    fn at_line(&self, t: Token) -> String {
        let (line, position) = line_and_position(self.src, t.start);
        format!("on line ({line}) position ({position})")
    }

    /// The `InputMismatchException` text when `expected` is missing.
    fn mismatch(&self, expected: &str) -> ParseError {
        let t = self.peek();
        if let (Kind::LexError, Some(e)) = (t.kind, &self.lex_error) {
            return e.clone();
        }
        self.error(
            t,
            format!("unexpected token {} {} was expecting one of {expected}", self.display(t), self.at_line(t)),
        )
    }

    /// The `NoViableAltException` text: where an expression was wanted.
    fn no_viable(&self) -> ParseError {
        let t = self.peek();
        // ANTLR's report of a no-viable-alternative error prints the tokens from where
        // prediction started, which lexes the rest of the input first: a lexing error
        // anywhere after is what surfaces (not at the end of the input).
        if let (false, Some(e)) = (t.kind == Kind::Eof, &self.lex_error) {
            return e.clone();
        }
        if t.kind == Kind::Eof {
            return self.error(t, "unexpected end of expression".into());
        }
        self.error(t, format!("invalid sequence of tokens near {} {}", self.display(t), self.at_line(t)))
    }

    fn expect(&mut self, kind: Kind, name: &str) -> Result<(), ParseError> {
        if self.peek().kind != kind {
            return Err(self.mismatch(name));
        }
        self.pos += 1;
        Ok(())
    }

    /// The error of a tree deeper than [`MAX_DEPTH`], at token `t`.
    fn too_deep(&self, t: Token) -> ParseError {
        self.error(t, format!("expression nests deeper than {MAX_DEPTH} levels"))
    }

    /// A node of depth `depth` made at token `t`, or the error of a too deep tree.
    fn bounded(&self, node: Node, depth: usize, t: Token) -> Result<(Node, usize), ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.too_deep(t));
        }
        Ok((node, depth))
    }

    /// An expression whose binary operators bind at least as tight as `min` (the
    /// conditional is level 0), and its tree's depth.
    fn expression(&mut self, min: u8) -> Result<(Node, usize), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.too_deep(self.peek()));
        }
        let (mut left, mut depth) = self.primary()?;
        loop {
            let t = self.peek();
            if let Some((op, level)) = binary_of(t.kind) {
                if level < min.max(1) {
                    break;
                }
                self.pos += 1;
                let (right, d) = self.expression(level + 1)?;
                (left, depth) = self.bounded(Node::Binary(op, Box::new(left), Box::new(right)), depth.max(d) + 1, t)?;
            } else if t.kind == Kind::Cond && min == 0 {
                self.pos += 1;
                let (then, d1) = self.expression(0)?;
                self.expect(Kind::Colon, "COLON")?;
                let (otherwise, d2) = self.expression(0)?;
                let node = Node::Cond(Box::new(left), Box::new(then), Box::new(otherwise));
                (left, depth) = self.bounded(node, depth.max(d1).max(d2) + 1, t)?;
            } else {
                break;
            }
        }
        self.depth -= 1;
        Ok((left, depth))
    }

    fn primary(&mut self) -> Result<(Node, usize), ParseError> {
        let t = self.peek();
        match t.kind {
            Kind::Lp => {
                self.pos += 1;
                let inner = self.expression(0)?;
                self.expect(Kind::Rp, "RP")?;
                Ok(inner)
            }
            Kind::Octal | Kind::Hex | Kind::Decimal => {
                self.pos += 1;
                Ok((Node::Literal(t.kind_literal(self.text(t))), 1))
            }
            Kind::Variable => {
                self.pos += 1;
                if self.peek().kind != Kind::Lp {
                    return Ok((Node::Variable { text: self.text(t).to_string(), at: t.start }, 1));
                }
                self.pos += 1;
                let mut args = Vec::new();
                let mut depth = 0;
                // ANTLR's LL(1) choice: arguments when the next token can start one,
                // else the closing parenthesis is what it expects.
                if starts_expression(self.peek().kind) {
                    loop {
                        let (arg, d) = self.expression(0)?;
                        args.push(arg);
                        depth = depth.max(d);
                        if self.peek().kind != Kind::Comma {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                self.expect(Kind::Rp, "RP")?;
                self.bounded(Node::Call { name: self.text(t).to_string(), args, at: t.start }, depth + 1, t)
            }
            Kind::BoolNot | Kind::BwNot | Kind::Add | Kind::Sub => {
                self.pos += 1;
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err(self.too_deep(t));
                }
                let (operand, depth) = self.primary()?;
                self.depth -= 1;
                let op = match t.kind {
                    Kind::BoolNot => Unary::Not,
                    Kind::BwNot => Unary::BwNot,
                    Kind::Add => Unary::Plus,
                    _ => Unary::Neg,
                };
                self.bounded(Node::Unary(op, Box::new(operand)), depth + 1, t)
            }
            _ => Err(self.no_viable()),
        }
    }
}

impl Token {
    fn kind_literal(self, text: &str) -> super::ast::Literal {
        use super::ast::Literal;
        match self.kind {
            Kind::Hex => Literal::Long(text[2..].to_string(), 16),
            Kind::Octal => Literal::Long(text[1..].to_string(), 8),
            _ => Literal::Double(text.parse().unwrap_or(f64::NAN)),
        }
    }
}

/// Parses `src` into its tree, as Lucene's lexer and parser accept it.
pub fn parse(src: &str) -> Result<Node, ParseError> {
    let lexer = Lexer { src: src.as_bytes() };
    let (tokens, stuck) = lexer.tokens_with_stuck();
    let lex_error = stuck.map(|(start, stuck)| {
        // The text from the token's start through the character it stuck at.
        let mut end = (stuck + 1).min(src.len());
        while !src.is_char_boundary(end) {
            end += 1;
        }
        let (line, position) = line_and_position(src, start);
        ParseError {
            offset: java_len(&src[..start]),
            message: format!(
                "unexpected character '{}' on line ({line}) position ({position})",
                error_display(&src[start..end])
            ),
            java_kind: None,
        }
    });
    let mut p = Parser { src, tokens, lex_error, pos: 0, depth: 0 };
    let (root, _) = p.expression(0)?;
    if p.peek().kind != Kind::Eof {
        return Err(p.mismatch("<EOF>"));
    }
    Ok(root)
}

/// The function `name` of Lucene's `DEFAULT_FUNCTIONS` and its arity.
pub fn function(name: &str) -> Option<(Func, usize)> {
    Some(match name {
        "abs" => (Func::Abs, 1),
        "acos" => (Func::Acos, 1),
        "acosh" => (Func::Acosh, 1),
        "asin" => (Func::Asin, 1),
        "asinh" => (Func::Asinh, 1),
        "atan" => (Func::Atan, 1),
        "atan2" => (Func::Atan2, 2),
        "atanh" => (Func::Atanh, 1),
        "ceil" => (Func::Ceil, 1),
        "cos" => (Func::Cos, 1),
        "cosh" => (Func::Cosh, 1),
        "exp" => (Func::Exp, 1),
        "floor" => (Func::Floor, 1),
        "haversin" => (Func::Haversin, 4),
        "ln" => (Func::Ln, 1),
        "log10" => (Func::Log10, 1),
        "logn" => (Func::Logn, 2),
        "max" => (Func::Max, 2),
        "min" => (Func::Min, 2),
        "pow" => (Func::Pow, 2),
        "sin" => (Func::Sin, 1),
        "sinh" => (Func::Sinh, 1),
        "sqrt" => (Func::Sqrt, 1),
        "tan" => (Func::Tan, 1),
        "tanh" => (Func::Tanh, 1),
        _ => return None,
    })
}
