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
use super::ops;
use super::value::{Heap, Value};

/// A number or boolean as the fast form computes it: `Copy` and 16 bytes, so it moves
/// in registers (a [`Value`] is copied through memory, which is what this form avoids).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    /// `int`
    I(i32),
    /// `long`
    L(i64),
    /// `float`
    F(f32),
    /// `double`
    D(f64),
    /// `boolean`
    B(bool),
}

impl Scalar {
    /// The scalar of a value, if it is a number or boolean.
    #[inline]
    fn of(v: &Value) -> Option<Scalar> {
        Some(match v {
            Value::Int(i) => Scalar::I(*i),
            Value::Long(l) => Scalar::L(*l),
            Value::Float(f) => Scalar::F(*f),
            Value::Double(d) => Scalar::D(*d),
            Value::Bool(b) => Scalar::B(*b),
            _ => return None,
        })
    }

    /// The value of a scalar.
    #[inline]
    pub fn value(self) -> Value {
        match self {
            Scalar::I(i) => Value::Int(i),
            Scalar::L(l) => Value::Long(l),
            Scalar::F(f) => Value::Float(f),
            Scalar::D(d) => Value::Double(d),
            Scalar::B(b) => Value::Bool(b),
        }
    }

    #[inline]
    fn f64(self) -> Option<f64> {
        Some(match self {
            Scalar::I(i) => i as f64,
            Scalar::L(l) => l as f64,
            Scalar::F(f) => f as f64,
            Scalar::D(d) => d,
            Scalar::B(_) => return None,
        })
    }
}

/// A compiled numeric expression.
#[derive(Debug)]
pub enum Fast {
    /// A literal, or a `params` number read when compiling.
    Const(Scalar),
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
        ExprKind::Bool(b) => Fast::Const(Scalar::B(*b)),
        ExprKind::Int(i) => Fast::Const(Scalar::I(*i)),
        ExprKind::Long(l) => Fast::Const(Scalar::L(*l)),
        ExprKind::Float(f) => Fast::Const(Scalar::F(*f)),
        ExprKind::Double(d) => Fast::Const(Scalar::D(*d)),
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
fn param(j: &serde_json::Value) -> Option<Scalar> {
    match j {
        serde_json::Value::Bool(b) => Some(Scalar::B(*b)),
        serde_json::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Some(i32::try_from(i).map(Scalar::I).unwrap_or(Scalar::L(i)))
            } else if n.is_f64() {
                n.as_f64().map(Scalar::D)
            } else {
                None
            }
        }
        _ => None,
    }
}

impl Fast {
    /// The expression's value for the host's current document, or `None` to have the
    /// interpreter run it (see the module's comment). `heap` only serves `Math`
    /// functions and the rare operators left to the general code, which allocate
    /// nothing for scalars.
    pub fn eval<H: Host>(&self, host: &mut H, heap: &mut Heap) -> Option<Value> {
        self.scalar(host, heap).map(Scalar::value)
    }

    fn scalar<H: Host>(&self, host: &mut H, heap: &mut Heap) -> Option<Scalar> {
        match self {
            Fast::Const(v) => Some(*v),
            Fast::Doc(field, name, off) => Scalar::of(&host.doc_first(*field, name, *off).ok()?),
            Fast::Score(off) => host.score(*off).ok().map(Scalar::D),
            Fast::Value(off) => Scalar::of(&host.value(*off).ok()?),
            Fast::Unary(op, x, off) => {
                let v = x.scalar(host, heap)?;
                Scalar::of(&ops::unary(*op, &v.value(), *off).ok()?)
            }
            Fast::Binary(op, a, b, off) => {
                let a = a.scalar(host, heap)?;
                let b = b.scalar(host, heap)?;
                arithmetic(*op, a, b).or_else(|| {
                    // Equality and booleans: the general operator, which for these
                    // scalars allocates nothing.
                    Scalar::of(&ops::binary(heap, *op, &a.value(), &b.value(), *off).ok()?)
                })
            }
            Fast::And(a, b) => match a.scalar(host, heap)? {
                Scalar::B(false) => Some(Scalar::B(false)),
                Scalar::B(true) => b.scalar(host, heap).filter(|v| matches!(v, Scalar::B(_))),
                _ => None,
            },
            Fast::Or(a, b) => match a.scalar(host, heap)? {
                Scalar::B(true) => Some(Scalar::B(true)),
                Scalar::B(false) => b.scalar(host, heap).filter(|v| matches!(v, Scalar::B(_))),
                _ => None,
            },
            Fast::Cond(c, a, b) => match c.scalar(host, heap)? {
                Scalar::B(true) => a.scalar(host, heap),
                Scalar::B(false) => b.scalar(host, heap),
                _ => None,
            },
            Fast::Cast(ty, x, off) => match x.scalar(host, heap)? {
                Scalar::B(_) => None,
                v => Scalar::of(&ops::cast(v.value(), *ty, *off).ok()?),
            },
            Fast::Math1(f, x) => x.scalar(host, heap)?.f64().map(|d| Scalar::D(f(d))),
            Fast::Math(name, args, off) => {
                let mut vals = [Value::Null, Value::Null, Value::Null];
                if args.len() > vals.len() {
                    return None;
                }
                for (slot, a) in vals.iter_mut().zip(args) {
                    *slot = a.scalar(host, heap)?.value();
                }
                Scalar::of(&super::api::math(heap, name, &vals[..args.len()], *off).ok()?)
            }
        }
    }
}

/// Java's binary numeric promotion and arithmetic (wrapping integers, IEEE floats) and
/// comparisons on two numbers; `None` for booleans, equality and integer division by
/// zero (which the general operator answers, or fails as Java does).
#[inline]
fn arithmetic(op: BinOp, a: Scalar, b: Scalar) -> Option<Scalar> {
    use Scalar::*;
    let cmp = |o: std::cmp::Ordering| -> Option<Scalar> {
        use std::cmp::Ordering::*;
        Some(B(match op {
            BinOp::Lt => o == Less,
            BinOp::Le => o != Greater,
            BinOp::Gt => o == Greater,
            BinOp::Ge => o != Less,
            _ => return None,
        }))
    };
    match (a, b) {
        (B(_), _) | (_, B(_)) => None,
        (D(_), _) | (_, D(_)) => {
            let (x, y) = (a.f64()?, b.f64()?);
            Some(D(match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
                // NaN compares false both ways, as Java's operators do.
                BinOp::Lt => return Some(B(x < y)),
                BinOp::Le => return Some(B(x <= y)),
                BinOp::Gt => return Some(B(x > y)),
                BinOp::Ge => return Some(B(x >= y)),
                _ => return None,
            }))
        }
        (F(_), _) | (_, F(_)) => {
            let f32_of = |s: Scalar| match s {
                I(i) => i as f32,
                L(l) => l as f32,
                F(f) => f,
                _ => f32::NAN,
            };
            let (x, y) = (f32_of(a), f32_of(b));
            Some(F(match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
                BinOp::Lt => return Some(B(x < y)),
                BinOp::Le => return Some(B(x <= y)),
                BinOp::Gt => return Some(B(x > y)),
                BinOp::Ge => return Some(B(x >= y)),
                _ => return None,
            }))
        }
        (L(_), _) | (_, L(_)) => {
            let long = |s: Scalar| match s {
                I(i) => i as i64,
                L(l) => l,
                _ => 0,
            };
            let (x, y) = (long(a), long(b));
            Some(L(match op {
                BinOp::Add => x.wrapping_add(y),
                BinOp::Sub => x.wrapping_sub(y),
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::Div if y != 0 => x.wrapping_div(y),
                BinOp::Rem if y != 0 => x.wrapping_rem(y),
                BinOp::Div | BinOp::Rem => return None,
                _ => return cmp(x.cmp(&y)),
            }))
        }
        (I(x), I(y)) => Some(I(match op {
            BinOp::Add => x.wrapping_add(y),
            BinOp::Sub => x.wrapping_sub(y),
            BinOp::Mul => x.wrapping_mul(y),
            BinOp::Div if y != 0 => x.wrapping_div(y),
            BinOp::Rem if y != 0 => x.wrapping_rem(y),
            BinOp::Div | BinOp::Rem => return None,
            _ => return cmp(x.cmp(&y)),
        })),
    }
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
            "7 / 2 + 7 % 3 + 7L / 2 - (float) 1 / 3",
            "1.5f * 2 + 1 < 4.0 ? 1 : 0",
            "(long) (doc['m'].value * 3) + (int) -2.7",
            "doc['n'].value % 2 == 1 && doc['m'].value != 2.5",
            "-(float) doc['n'].value / 0 > 0",
            "2147483647 + 1 < 0 && 2147483647L + 1 > 0",
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
