//! Painless source text → tokens, each with its byte offset (errors point at it).

use super::error::CompileError;

/// A token of the Painless grammar.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// An identifier or keyword (keywords are told apart by the parser).
    Ident(String),
    /// An integer literal: its value and whether it carried `L`.
    Int(i64, bool),
    /// A floating literal: its value and whether it carried `F`.
    Float(f64, bool),
    /// A string literal, escapes resolved.
    Str(String),
    /// A regex literal `/…/flags`: the pattern as written and the flag letters.
    Regex(String, String),
    /// Punctuation or an operator.
    Op(&'static str),
    /// The end of the source.
    Eof,
}

/// A token and where it starts.
#[derive(Debug, Clone)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Byte offset of its first character.
    pub offset: usize,
}

/// Longest first, so that `>>>=` wins over `>>`.
const OPS: &[&str] = &[
    ">>>=", "==~", "===", "!==", ">>>", "<<=", ">>=", "?.", "?:", "->", "::", "==", "!=", "<=", ">=", "&&", "||", "++",
    "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "=~", "+", "-", "*", "/", "%", "=", "<", ">",
    "!", "~", "&", "|", "^", "?", ":", ";", ",", ".", "(", ")", "[", "]", "{", "}",
];

/// Splits `src` into tokens; the last is [`Tok::Eof`].
pub fn lex(src: &str) -> Result<Vec<Token>, CompileError> {
    let b = src.as_bytes();
    let mut out: Vec<Token> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let start = i;
            i += 2;
            loop {
                if i + 1 >= b.len() {
                    return Err(CompileError::new(start, "illegal_argument_exception", "unterminated comment"));
                }
                if b[i] == b'*' && b[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                i += 1;
            }
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
            out.push(Token { tok: Tok::Ident(src[start..i].to_string()), offset: start });
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let (tok, end) = number(src, i)?;
            out.push(Token { tok, offset: start });
            i = end;
            continue;
        }
        if c == b'"' || c == b'\'' {
            let (s, end) = string(src, i)?;
            out.push(Token { tok: Tok::Str(s), offset: start });
            i = end;
            continue;
        }
        if c == b'/' && regex_may_start(out.last()) {
            // A regex literal: the text up to the closing slash, as written (Java's
            // regex syntax reads its escapes), then its flag letters.
            i += 1;
            while i < b.len() && b[i] != b'/' && b[i] != b'\n' {
                if b[i] == b'\\' && b.get(i + 1).is_some_and(|&c| c != b'\n') {
                    i += 1;
                }
                i += 1;
            }
            if i >= b.len() || b[i] != b'/' || i == start + 1 {
                return Err(CompileError::new(start, "illegal_argument_exception", "unterminated regex"));
            }
            let pattern = src[start + 1..i].to_string();
            i += 1;
            let flags_start = i;
            while i < b.len() && b[i].is_ascii_alphabetic() {
                i += 1;
            }
            out.push(Token { tok: Tok::Regex(pattern, src[flags_start..i].to_string()), offset: start });
            continue;
        }
        let rest = &src[i..];
        match OPS.iter().find(|op| rest.starts_with(**op)) {
            Some(op) => {
                out.push(Token { tok: Tok::Op(op), offset: start });
                i += op.len();
            }
            None => {
                let ch = rest.chars().next().unwrap_or('?');
                return Err(CompileError::new(
                    start,
                    "illegal_argument_exception",
                    format!("unexpected character [{ch}]."),
                ));
            }
        }
    }
    out.push(Token { tok: Tok::Eof, offset: src.len() });
    Ok(out)
}

/// A `/` starts a regex where an operand is expected (as Painless's lexer decides).
fn regex_may_start(prev: Option<&Token>) -> bool {
    match prev.map(|t| &t.tok) {
        None => true,
        Some(Tok::Op(op)) => !matches!(*op, ")" | "]" | "}" | "++" | "--"),
        Some(Tok::Ident(w)) => matches!(w.as_str(), "return"),
        _ => false,
    }
}

fn number(src: &str, start: usize) -> Result<(Tok, usize), CompileError> {
    let b = src.as_bytes();
    let mut i = start;
    let bad = |text: &str| {
        CompileError::new(start, "illegal_argument_exception", format!("Invalid numeric constant [{text}]."))
    };
    if b[i] == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X')) {
        i += 2;
        let ds = i;
        while i < b.len() && b[i].is_ascii_hexdigit() {
            i += 1;
        }
        let digits = &src[ds..i];
        let long = matches!(b.get(i), Some(b'l' | b'L'));
        if long {
            i += 1;
        }
        let v = u64::from_str_radix(digits, 16).map_err(|_| bad(&src[start..i]))?;
        return if long {
            Ok((Tok::Int(v as i64, true), i))
        } else if v <= u32::MAX as u64 {
            Ok((Tok::Int(v as u32 as i32 as i64, false), i))
        } else {
            Err(bad(&src[start..i]))
        };
    }
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut float = false;
    if i < b.len() && b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        float = true;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i < b.len() && matches!(b[i], b'e' | b'E') {
        let mut j = i + 1;
        if j < b.len() && matches!(b[j], b'+' | b'-') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            float = true;
            i = j;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
    }
    let body = &src[start..i];
    match b.get(i) {
        Some(b'f' | b'F') => {
            let v: f32 = body.parse().map_err(|_| bad(body))?;
            Ok((Tok::Float(v as f64, true), i + 1))
        }
        Some(b'd' | b'D') => {
            let v: f64 = body.parse().map_err(|_| bad(body))?;
            Ok((Tok::Float(v, false), i + 1))
        }
        _ if float => {
            let v: f64 = body.parse().map_err(|_| bad(body))?;
            Ok((Tok::Float(v, false), i))
        }
        Some(b'l' | b'L') => {
            let v = integer(body).ok_or_else(|| bad(&src[start..=i]))?;
            Ok((Tok::Int(v as i64, true), i + 1))
        }
        _ => {
            let v = integer(body).ok_or_else(|| bad(body))?;
            if v > u32::MAX as u64 || (!body.starts_with('0') && v > i32::MAX as u64 + 1) {
                return Err(bad(body));
            }
            Ok((Tok::Int(v as i64, false), i))
        }
    }
}

/// Decimal, or octal with a leading zero (as in Java).
fn integer(digits: &str) -> Option<u64> {
    if digits.len() > 1 && digits.starts_with('0') {
        u64::from_str_radix(&digits[1..], 8).ok()
    } else {
        digits.parse().ok()
    }
}

fn string(src: &str, start: usize) -> Result<(String, usize), CompileError> {
    let quote = src.as_bytes()[start] as char;
    let mut out = String::new();
    let mut chars = src[start + 1..].char_indices();
    while let Some((k, c)) = chars.next() {
        if c == quote {
            return Ok((out, start + 1 + k + 1));
        }
        if c == '\\' {
            // Painless strings know two escapes: the quote and the backslash.
            match chars.next() {
                Some((_, e)) if e == quote || e == '\\' => out.push(e),
                Some((_, e)) => {
                    out.push('\\');
                    out.push(e);
                }
                None => break,
            }
            continue;
        }
        out.push(c);
    }
    Err(CompileError::new(start, "illegal_argument_exception", "unterminated string"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_take_java_suffixes_and_radixes() {
        assert_eq!(
            toks("0x1F 010 5L 1.5f 2d 1e3")[..6],
            [
                Tok::Int(31, false),
                Tok::Int(8, false),
                Tok::Int(5, true),
                Tok::Float(1.5, true),
                Tok::Float(2.0, false),
                Tok::Float(1000.0, false)
            ]
        );
        assert_eq!(toks("0xFFFFFFFF")[0], Tok::Int(-1, false));
        assert!(lex("3000000000").is_err());
    }

    #[test]
    fn strings_and_offsets() {
        let t = lex(r#"a = 'it\'s' + "q\"";"#).unwrap();
        assert_eq!(t[2].tok, Tok::Str("it's".into()));
        assert_eq!(t[4].tok, Tok::Str("q\"".into()));
        assert_eq!(t[4].offset, 14);
    }

    #[test]
    fn slash_after_an_operand_divides() {
        assert_eq!(toks("a / b")[1], Tok::Op("/"));
        assert_eq!(toks("x = /ab/")[2], Tok::Regex("ab".into(), String::new()));
        assert_eq!(toks("x = /a\\/b/iu")[2], Tok::Regex("a\\/b".into(), "iu".into()));
    }
}
