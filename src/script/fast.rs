//! The numeric fast path: a script that is one numeric expression over doc values,
//! `params`, `_score`, `_value`, literals and `Math` (the shape scoring, sorting and
//! aggregation scripts usually have) is compiled a second time into this form when the
//! request is parsed, with `params.x` already read and `Math.f` already resolved, so a
//! run is a walk over a few nodes that allocates nothing and sets up no run state.
//!
//! The form only ever answers what the interpreter would: any case it does not handle
//! itself (a string operand, an error, a value it does not know) makes the run fall back
//! to the interpreter, which then gives the value or the error as usual. That is sound
//! because the expressions it accepts read but never change anything.

use super::ast::{BinOp, Class, Expr, ExprKind, Global, Type, UnOp};
use super::interp::Host;
use super::ops::{self, Num};
use super::value::{Heap, Value};

/// A compiled numeric expression.
#[derive(Debug)]
pub enum Fast {
    /// A literal, or a `params` number read when compiling.
    Const(Value),
    /// `doc['f'].value`: the program's field number, the name, a source offset.
    Doc(usize, String, usize),
    /// `_score`.
    Score(usize),
    /// `_value`.
    Value(usize),
    /// A unary operator.
    Unary(UnOp, Box<Fast>, usize),
    /// A binary operator.
    Binary(BinOp, Box<Fast>, Box<Fast>, usize),
    /// `a && b`.
    And(Box<Fast>, Box<Fast>),
    /// `a || b`.
    Or(Box<Fast>, Box<Fast>),
    /// `c ? a : b`.
    Cond(Box<Fast>, Box<Fast>, Box<Fast>),
    /// A cast to a primitive type.
    Cast(Type, Box<Fast>, usize),
    /// A `Math` function of one double, resolved.
    Math1(fn(f64) -> f64, Box<Fast>),
    /// Another `Math` function, called by name.
    Math(std::sync::Arc<str>, Vec<Fast>, usize),
}

/// `Math`'s functions of one double answering a double, as `api::math` computes them.
fn math1(name: &str) -> Option<fn(f64) -> f64> {
    Some(match name {
        "sqrt" => f64::sqrt,
        "cbrt" => f64::cbrt,
        "log" => f64::ln,
        "log10" => f64::log10,
        "log1p" => f64::ln_1p,
        "exp" => f64::exp,
        "expm1" => f64::exp_m1,
        "floor" => f64::floor,
        "ceil" => f64::ceil,
        "rint" => f64::round_ties_even,
        _ => return None,
    })
}

/// Compiles `e` with `params`, or `None` when it is not of the form (then the
/// interpreter runs it).
pub fn compile(e: &Expr, params: &serde_json::Value, doc_fields: &[String]) -> Option<Fast> {
    let off = e.offset;
    let sub = |x: &Expr| compile(x, params, doc_fields).map(Box::new);
    Some(match &e.kind {
        ExprKind::Bool(b) => Fast::Const(Value::Bool(*b)),
        ExprKind::Int(i) => Fast::Const(Value::Int(*i)),
        ExprKind::Long(l) => Fast::Const(Value::Long(*l)),
        ExprKind::Float(f) => Fast::Const(Value::Float(*f)),
        ExprKind::Double(d) => Fast::Const(Value::Double(*d)),
        ExprKind::DocValue(i) => Fast::Doc(*i, doc_fields.get(*i)?.clone(), off),
        ExprKind::Global(Global::Score) => Fast::Score(off),
        ExprKind::Global(Global::Value) => Fast::Value(off),
        ExprKind::Field(recv, name, _) if matches!(recv.kind, ExprKind::Global(Global::Params)) => {
            Fast::Const(param(params.get(&**name)?)?)
        }
        ExprKind::Index(recv, key) if matches!(recv.kind, ExprKind::Global(Global::Params)) => match &key.kind {
            ExprKind::Str(k) if &**k != "_source" => Fast::Const(param(params.get(&**k)?)?),
            _ => return None,
        },
        ExprKind::Unary(op, x) => Fast::Unary(*op, sub(x)?, off),
        ExprKind::Binary(op, a, b) => match op {
            BinOp::Mul
            | BinOp::Div
            | BinOp::Rem
            | BinOp::Add
            | BinOp::Sub
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
            | BinOp::Eq
            | BinOp::Ne => Fast::Binary(*op, sub(a)?, sub(b)?, off),
            _ => return None,
        },
        ExprKind::And(a, b) => Fast::And(sub(a)?, sub(b)?),
        ExprKind::Or(a, b) => Fast::Or(sub(a)?, sub(b)?),
        ExprKind::Cond(c, a, b) => Fast::Cond(sub(c)?, sub(a)?, sub(b)?),
        ExprKind::Cast(ty @ (Type::Int | Type::Long | Type::Float | Type::Double), x) => Fast::Cast(*ty, sub(x)?, off),
        ExprKind::Static(Class::Math, name, args) => match (math1(name), args.as_slice()) {
            (Some(f), [x]) => Fast::Math1(f, sub(x)?),
            _ => Fast::Math(
                name.clone(),
                args.iter().map(|a| compile(a, params, doc_fields)).collect::<Option<_>>()?,
                off,
            ),
        },
        _ => return None,
    })
}

/// A `params` value the fast path may hold: numbers as the interpreter reads them
/// (`Integer` when they fit, else `Long`, or `Double`) and booleans.
fn param(j: &serde_json::Value) -> Option<Value> {
    match j {
        serde_json::Value::Bool(b) => Some(Value::Bool(*b)),
        serde_json::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Some(i32::try_from(i).map(Value::Int).unwrap_or(Value::Long(i)))
            } else if n.is_f64() {
                n.as_f64().map(Value::Double)
            } else {
                None
            }
        }
        _ => None,
    }
}

fn is_number(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Long(_) | Value::Float(_) | Value::Double(_))
}

fn is_scalar(v: &Value) -> bool {
    is_number(v) || matches!(v, Value::Bool(_))
}

impl Fast {
    /// The expression's value for the host's current document, or `None` to have the
    /// interpreter run it (see the module's comment). `heap` only serves `Math`
    /// functions, which allocate nothing.
    #[inline]
    pub fn eval<H: Host>(&self, host: &mut H, heap: &mut Heap) -> Option<Value> {
        match self {
            Fast::Const(v) => Some(v.clone()),
            Fast::Doc(field, name, off) => {
                let v = host.doc_first(*field, name, *off).ok()?;
                is_scalar(&v).then_some(v)
            }
            Fast::Score(off) => host.score(*off).ok().map(Value::Double),
            Fast::Value(off) => host.value(*off).ok().filter(is_scalar),
            Fast::Unary(op, x, off) => {
                let v = x.eval(host, heap)?;
                ops::unary(*op, &v, *off).ok()
            }
            Fast::Binary(op, a, b, off) => {
                let a = a.eval(host, heap)?;
                let b = b.eval(host, heap)?;
                arithmetic(*op, &a, &b).or_else(|| {
                    // Booleans and mixed cases: the general operator, which for these
                    // scalars allocates nothing.
                    ops::binary(heap, *op, &a, &b, *off).ok()
                })
            }
            Fast::And(a, b) => match a.eval(host, heap)? {
                Value::Bool(false) => Some(Value::Bool(false)),
                Value::Bool(true) => b.eval(host, heap).filter(|v| matches!(v, Value::Bool(_))),
                _ => None,
            },
            Fast::Or(a, b) => match a.eval(host, heap)? {
                Value::Bool(true) => Some(Value::Bool(true)),
                Value::Bool(false) => b.eval(host, heap).filter(|v| matches!(v, Value::Bool(_))),
                _ => None,
            },
            Fast::Cond(c, a, b) => match c.eval(host, heap)? {
                Value::Bool(true) => a.eval(host, heap),
                Value::Bool(false) => b.eval(host, heap),
                _ => None,
            },
            Fast::Cast(ty, x, off) => {
                let v = x.eval(host, heap)?;
                if !is_number(&v) {
                    return None;
                }
                ops::cast(v, *ty, *off).ok()
            }
            Fast::Math1(f, x) => match x.eval(host, heap)? {
                Value::Double(d) => Some(Value::Double(f(d))),
                v => Num::of(&v).filter(|_| is_number(&v)).map(|n| Value::Double(f(n.f64()))),
            },
            Fast::Math(name, args, off) => {
                let mut vals = [Value::Null, Value::Null, Value::Null];
                if args.len() > vals.len() {
                    return None;
                }
                for (slot, a) in vals.iter_mut().zip(args) {
                    *slot = a.eval(host, heap)?;
                }
                super::api::math(heap, name, &vals[..args.len()], *off).ok().filter(is_scalar)
            }
        }
    }
}

/// Java's arithmetic on the common numeric pairs, inline; `None` for the rest (which
/// the general operator answers).
#[inline]
fn arithmetic(op: BinOp, a: &Value, b: &Value) -> Option<Value> {
    let (x, y) = match (a, b) {
        (Value::Double(x), Value::Double(y)) => (*x, *y),
        (Value::Long(x), Value::Double(y)) => (*x as f64, *y),
        (Value::Double(x), Value::Long(y)) => (*x, *y as f64),
        (Value::Int(x), Value::Double(y)) => (*x as f64, *y),
        (Value::Double(x), Value::Int(y)) => (*x, *y as f64),
        _ => return None,
    };
    Some(Value::Double(match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => x / y,
        _ => return None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::error::Halt;
    use crate::script::value::DocValues;
    use crate::script::{interp, parser, DocKind};

    /// One document: `n` a long, `m` a double, `s` a string, no `z`.
    struct OneDoc;

    impl Host for OneDoc {
        fn doc_values(&mut self, name: &str, offset: usize) -> Result<DocValues, Halt> {
            Ok(match name {
                "n" => DocValues { kind: DocKind::Longs, values: vec![Value::Long(7)] },
                "m" => DocValues { kind: DocKind::Doubles, values: vec![Value::Double(2.5)] },
                "s" => DocValues { kind: DocKind::Strings, values: vec![Value::Str("x".into())] },
                _ => return Err(Halt::at(offset, "illegal_argument_exception", format!("No field [{name}]"))),
            })
        }
        fn has_field(&mut self, _name: &str) -> bool {
            true
        }
        fn source(&mut self, offset: usize) -> Result<serde_json::Value, Halt> {
            Err(Halt::null_pointer(offset))
        }
        fn score(&mut self, _offset: usize) -> Result<f64, Halt> {
            Ok(1.25)
        }
        fn value(&mut self, offset: usize) -> Result<Value, Halt> {
            Err(Halt::at(offset, "illegal_argument_exception", "Variable [_value] is not defined."))
        }
    }

    /// What the interpreter alone answers (the error kind for an error).
    fn interpreted(source: &str, params: &serde_json::Value) -> Result<Value, String> {
        let p = parser::parse(source).unwrap();
        let mut heap = Heap::default();
        let mut host = OneDoc;
        let mut run = interp::Run::new(&mut heap, &mut host, params, &p.doc_fields, p.slots);
        run.run(&p.body).map_err(|h| format!("{h:?}"))
    }

    #[test]
    fn the_fast_path_answers_what_the_interpreter_answers() {
        let params = serde_json::json!({"f": 1.5, "i": 3, "big": 5_000_000_000i64, "b": true, "s": "str"});
        let fast_ones = [
            "doc['n'].value * params.f + Math.log(1 + doc['m'].value)",
            "doc['n'].value / 2",
            "doc['n'].value % 4 + params['i']",
            "doc['n'].value * params.big",
            "-doc['m'].value < params.i ? 1 : 2L",
            "doc['n'].value > 3 && params.b || false",
            "(int) doc['m'].value + (float) 1.5",
            "Math.max(doc['n'].value, params.i) + Math.sqrt(doc['m'].value)",
            "Math.pow(_score, 2) + Math.abs(-3)",
            "return doc['n'].value == 7",
            "doc['m'].value / 0",
        ];
        for source in fast_ones {
            let p = parser::parse(source).unwrap();
            let [stmt] = p.body.as_slice() else { panic!("{source}") };
            let e = match &stmt.kind {
                crate::script::ast::StmtKind::Expr(e) | crate::script::ast::StmtKind::Return(Some(e)) => e,
                _ => panic!("{source}"),
            };
            let fast = compile(e, &params, &p.doc_fields).unwrap_or_else(|| panic!("not fast: {source}"));
            let got = fast.eval(&mut OneDoc, &mut Heap::default());
            assert_eq!(got.ok_or_else(String::new), interpreted(source, &params), "{source}");
        }
        // What the fast path leaves to the interpreter: strings, errors, unknown params.
        for source in ["doc['s'].value + 1", "doc['n'].value / 0", "doc['z'].value * 2", "_value * 2"] {
            let s = crate::script::Script::compile(source, params.clone());
            let p = parser::parse(source).unwrap();
            let [stmt] = p.body.as_slice() else { panic!() };
            let crate::script::ast::StmtKind::Expr(e) = &stmt.kind else { panic!() };
            if let Some(f) = compile(e, &params, &p.doc_fields) {
                assert_eq!(f.eval(&mut OneDoc, &mut Heap::default()), None, "{source}");
            }
            let via_script = s.run(&mut Heap::default(), &mut OneDoc).map_err(|h| format!("{h:?}"));
            assert_eq!(via_script, interpreted(source, &params), "{source}");
        }
        assert!(crate::script::Script::compile("params.s + 1", params.clone()).fast.is_none());
        assert!(crate::script::Script::compile("params.missing * 2", params).fast.is_none());
    }
}
