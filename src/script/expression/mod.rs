//! Lucene expressions (`"lang": "expression"`), as ES 6.8's lang-expression module runs
//! them: Lucene's `JavascriptCompiler` grammar and error texts (`syntax`), its
//! typed evaluation in doubles, longs and ints (`eval`), and ES's variables — `_score`,
//! `_value`, numeric `params`, `doc['field']` with its members and methods — linked to
//! an index's mapping and read per document (`binding`).
//!
//! An expression compiles once per request; its variables are then linked in each
//! index it runs on (ES's "link error"), and it runs per document on the values its
//! variables read there.

pub mod ast;
pub mod binding;
pub mod errors;
pub mod eval;
pub mod fdlibm;
pub mod syntax;

use ast::{Expr, Literal, Node};
pub use syntax::ParseError;

/// A compiled expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Expression {
    /// Its tree.
    pub root: Expr,
    /// Its variables by number, as Lucene names them (`Expression.variables`: the
    /// text with quotes normalized, `()` kept on a method).
    pub variables: Vec<String>,
}

impl Expression {
    /// Compiles `source` as `JavascriptCompiler.compile` does, or its `ParseException`.
    pub fn compile(source: &str) -> Result<Expression, ParseError> {
        let node = syntax::parse(source)?;
        let mut variables = Vec::new();
        let root = lower(&node, source, &mut variables)?;
        Ok(Expression { root, variables })
    }

    /// The value with `values[i]` for the `i`-th variable.
    pub fn evaluate(&self, values: &[f64]) -> f64 {
        eval::evaluate(&self.root, values)
    }
}

fn java_offset(source: &str, at: usize) -> usize {
    source[..at].encode_utf16().count()
}

/// The compiler's second pass, in its visiting order: functions resolved and checked,
/// variables numbered, literals converted.
fn lower(node: &Node, source: &str, variables: &mut Vec<String>) -> Result<Expr, ParseError> {
    Ok(match node {
        Node::Literal(Literal::Double(v)) => Expr::Double(*v),
        Node::Literal(Literal::Long(digits, radix)) => match i64::from_str_radix(digits, *radix) {
            Ok(v) => Expr::Long(v),
            Err(_) => {
                let message = format!("For input string: \"{digits}\" under radix {radix}");
                return Err(ParseError { offset: 0, message, java_kind: Some("number_format_exception") });
            }
        },
        Node::Variable { text, .. } => Expr::Var(variable(normalize_quotes(text), variables)),
        Node::Call { name, args, at } => match syntax::function(name) {
            Some((f, arity)) => {
                if args.len() != arity {
                    return Err(ParseError {
                        offset: java_offset(source, *at),
                        message: format!(
                            "Invalid expression '{source}': Expected ({arity}) arguments for function call ({name}), but found ({}).",
                            args.len()
                        ),
                        java_kind: None,
                    });
                }
                let args = args.iter().map(|a| lower(a, source, variables)).collect::<Result<Vec<_>, _>>()?;
                Expr::Call(f, args)
            }
            None if args.is_empty() && name.contains('.') => {
                Expr::Var(variable(normalize_quotes(&format!("{name}()")), variables))
            }
            None => {
                return Err(ParseError {
                    offset: java_offset(source, *at),
                    message: format!("Invalid expression '{source}': Unrecognized function call ({name})."),
                    java_kind: None,
                })
            }
        },
        Node::Unary(op, x) => Expr::Unary(*op, Box::new(lower(x, source, variables)?)),
        Node::Binary(op, a, b) => {
            let a = lower(a, source, variables)?;
            Expr::Binary(*op, Box::new(a), Box::new(lower(b, source, variables)?))
        }
        Node::Cond(c, a, b) => {
            let c = lower(c, source, variables)?;
            let a = lower(a, source, variables)?;
            Expr::Cond(Box::new(c), Box::new(a), Box::new(lower(b, source, variables)?))
        }
    })
}

fn variable(text: String, variables: &mut Vec<String>) -> usize {
    match variables.iter().position(|v| *v == text) {
        Some(i) => i,
        None => {
            variables.push(text);
            variables.len() - 1
        }
    }
}

/// Lucene's `normalizeQuotes`: string indexes in double quotes rewritten in single
/// quotes (`\"` unescaped, `'` escaped), so that `doc["f"]` and `doc['f']` are one
/// variable.
pub fn normalize_quotes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                out.push('\'');
                while let Some(c) = chars.next() {
                    out.push(c);
                    match c {
                        '\\' => out.extend(chars.next()),
                        '\'' => break,
                        _ => {}
                    }
                }
            }
            '"' => {
                out.push('\'');
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => match chars.next() {
                            Some('"') => out.push('"'),
                            Some(other) => {
                                out.push('\\');
                                out.push(other);
                            }
                            None => out.push('\\'),
                        },
                        '\'' => out.push_str("\\'"),
                        '"' => {
                            out.push('\'');
                            break;
                        }
                        other => out.push(other),
                    }
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests;
