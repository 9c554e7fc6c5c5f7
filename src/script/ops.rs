//! Java's operators over script values: binary numeric promotion, wrapping integer
//! arithmetic, integer division with `ArithmeticException`, shifts, comparisons,
//! Painless `==` (numbers by value, references by `equals`) and casts.

use super::ast::{BinOp, Prim, Type, UnOp};
use super::error::Halt;
use super::value::{Heap, Value};

/// A number after unary promotion.
#[derive(Debug, Clone, Copy)]
pub enum Num {
    /// int (also char, byte, short)
    I(i32),
    /// long
    L(i64),
    /// float
    F(f32),
    /// double
    D(f64),
}

impl Num {
    /// The number a value holds (chars count as ints).
    pub fn of(v: &Value) -> Option<Num> {
        Some(match v {
            Value::Int(i) => Num::I(*i),
            Value::Long(l) => Num::L(*l),
            Value::Float(f) => Num::F(*f),
            Value::Double(d) => Num::D(*d),
            Value::Char(c) => Num::I(*c as i32),
            _ => return None,
        })
    }

    /// As a double.
    pub fn f64(self) -> f64 {
        match self {
            Num::I(i) => i as f64,
            Num::L(l) => l as f64,
            Num::F(f) => f as f64,
            Num::D(d) => d,
        }
    }

    /// As a float (each integer rounds once, as Java converts it).
    pub fn f32(self) -> f32 {
        match self {
            Num::I(i) => i as f32,
            Num::L(l) => l as f32,
            Num::F(f) => f,
            Num::D(d) => d as f32,
        }
    }

    /// As a long (Java's narrowing of floating values: saturating, NaN to 0).
    pub fn i64(self) -> i64 {
        match self {
            Num::I(i) => i as i64,
            Num::L(l) => l,
            Num::F(f) => f as i64,
            Num::D(d) => d as i64,
        }
    }

    /// The value.
    pub fn value(self) -> Value {
        match self {
            Num::I(i) => Value::Int(i),
            Num::L(l) => Value::Long(l),
            Num::F(f) => Value::Float(f),
            Num::D(d) => Value::Double(d),
        }
    }
}

/// Binary numeric promotion: both to the wider of the two types.
fn promote(a: Num, b: Num) -> (Num, Num) {
    match (a, b) {
        (Num::D(_), _) | (_, Num::D(_)) => (Num::D(a.f64()), Num::D(b.f64())),
        (Num::F(_), _) | (_, Num::F(_)) => (Num::F(a.f32()), Num::F(b.f32())),
        (Num::L(_), _) | (_, Num::L(_)) => (Num::L(a.i64()), Num::L(b.i64())),
        _ => (a, b),
    }
}

fn op_text(op: BinOp) -> &'static str {
    match op {
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::Ushr => ">>>",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::RefEq => "===",
        BinOp::RefNe => "!==",
        BinOp::BitAnd => "&",
        BinOp::BitXor => "^",
        BinOp::BitOr => "|",
    }
}

fn cannot_apply(op: BinOp, a: &Value, b: &Value, offset: usize) -> Halt {
    if matches!(a, Value::Null) || matches!(b, Value::Null) {
        return Halt::null_pointer(offset);
    }
    Halt::at(
        offset,
        "class_cast_exception",
        format!(
            "Cannot apply [{}] operation to types [{}] and [{}].",
            op_text(op),
            Heap::class_name(a),
            Heap::class_name(b)
        ),
    )
}

fn is_stringish(v: &Value) -> bool {
    matches!(v, Value::Str(_))
}

/// Applies a binary operator.
pub fn binary(heap: &mut Heap, op: BinOp, a: &Value, b: &Value, offset: usize) -> Result<Value, Halt> {
    match op {
        BinOp::Eq => return Ok(Value::Bool(equals(heap, a, b))),
        BinOp::Ne => return Ok(Value::Bool(!equals(heap, a, b))),
        BinOp::RefEq => return Ok(Value::Bool(identical(a, b))),
        BinOp::RefNe => return Ok(Value::Bool(!identical(a, b))),
        BinOp::Add if is_stringish(a) || is_stringish(b) => {
            let mut s = heap.to_string(a, 0);
            s.push_str(&heap.to_string(b, 0));
            return heap.new_str(s, offset);
        }
        _ => {}
    }
    if let (Value::Bool(x), Value::Bool(y)) = (a, b) {
        return match op {
            BinOp::BitAnd => Ok(Value::Bool(x & y)),
            BinOp::BitOr => Ok(Value::Bool(x | y)),
            BinOp::BitXor => Ok(Value::Bool(x ^ y)),
            _ => Err(cannot_apply(op, a, b, offset)),
        };
    }
    let (Some(x), Some(y)) = (Num::of(a), Num::of(b)) else {
        return Err(cannot_apply(op, a, b, offset));
    };
    if matches!(op, BinOp::Shl | BinOp::Shr | BinOp::Ushr) {
        let n = match y {
            Num::I(i) => i as i64,
            Num::L(l) => l,
            _ => return Err(cannot_apply(op, a, b, offset)),
        };
        return match x {
            Num::I(i) => {
                let n = (n & 31) as u32;
                Ok(Value::Int(match op {
                    BinOp::Shl => i.wrapping_shl(n),
                    BinOp::Shr => i.wrapping_shr(n),
                    _ => ((i as u32) >> n) as i32,
                }))
            }
            Num::L(l) => {
                let n = (n & 63) as u32;
                Ok(Value::Long(match op {
                    BinOp::Shl => l.wrapping_shl(n),
                    BinOp::Shr => l.wrapping_shr(n),
                    _ => ((l as u64) >> n) as i64,
                }))
            }
            _ => Err(cannot_apply(op, a, b, offset)),
        };
    }
    let by_zero = || Halt::at(offset, "arithmetic_exception", "/ by zero");
    Ok(match promote(x, y) {
        (Num::I(p), Num::I(q)) => match op {
            BinOp::Add => Value::Int(p.wrapping_add(q)),
            BinOp::Sub => Value::Int(p.wrapping_sub(q)),
            BinOp::Mul => Value::Int(p.wrapping_mul(q)),
            BinOp::Div => Value::Int(if q == 0 { return Err(by_zero()) } else { p.wrapping_div(q) }),
            BinOp::Rem => Value::Int(if q == 0 { return Err(by_zero()) } else { p.wrapping_rem(q) }),
            BinOp::BitAnd => Value::Int(p & q),
            BinOp::BitOr => Value::Int(p | q),
            BinOp::BitXor => Value::Int(p ^ q),
            _ => Value::Bool(compare(op, p.cmp(&q) as i8)),
        },
        (Num::L(p), Num::L(q)) => match op {
            BinOp::Add => Value::Long(p.wrapping_add(q)),
            BinOp::Sub => Value::Long(p.wrapping_sub(q)),
            BinOp::Mul => Value::Long(p.wrapping_mul(q)),
            BinOp::Div => Value::Long(if q == 0 { return Err(by_zero()) } else { p.wrapping_div(q) }),
            BinOp::Rem => Value::Long(if q == 0 { return Err(by_zero()) } else { p.wrapping_rem(q) }),
            BinOp::BitAnd => Value::Long(p & q),
            BinOp::BitOr => Value::Long(p | q),
            BinOp::BitXor => Value::Long(p ^ q),
            _ => Value::Bool(compare(op, p.cmp(&q) as i8)),
        },
        (Num::F(p), Num::F(q)) => match op {
            BinOp::Add => Value::Float(p + q),
            BinOp::Sub => Value::Float(p - q),
            BinOp::Mul => Value::Float(p * q),
            BinOp::Div => Value::Float(p / q),
            BinOp::Rem => Value::Float(p % q),
            BinOp::Lt => Value::Bool(p < q),
            BinOp::Le => Value::Bool(p <= q),
            BinOp::Gt => Value::Bool(p > q),
            BinOp::Ge => Value::Bool(p >= q),
            _ => return Err(cannot_apply(op, a, b, offset)),
        },
        (Num::D(p), Num::D(q)) => match op {
            BinOp::Add => Value::Double(p + q),
            BinOp::Sub => Value::Double(p - q),
            BinOp::Mul => Value::Double(p * q),
            BinOp::Div => Value::Double(p / q),
            BinOp::Rem => Value::Double(p % q),
            BinOp::Lt => Value::Bool(p < q),
            BinOp::Le => Value::Bool(p <= q),
            BinOp::Gt => Value::Bool(p > q),
            BinOp::Ge => Value::Bool(p >= q),
            _ => return Err(cannot_apply(op, a, b, offset)),
        },
        _ => return Err(cannot_apply(op, a, b, offset)),
    })
}

fn compare(op: BinOp, ord: i8) -> bool {
    match op {
        BinOp::Lt => ord < 0,
        BinOp::Le => ord <= 0,
        BinOp::Gt => ord > 0,
        _ => ord >= 0,
    }
}

/// Painless `==`: numbers (and chars) by promoted value, otherwise `equals`.
pub fn equals(heap: &Heap, a: &Value, b: &Value) -> bool {
    if let (Some(x), Some(y)) = (Num::of(a), Num::of(b)) {
        return match promote(x, y) {
            (Num::I(p), Num::I(q)) => p == q,
            (Num::L(p), Num::L(q)) => p == q,
            (Num::F(p), Num::F(q)) => p == q,
            (p, q) => p.f64() == q.f64(),
        };
    }
    heap.equals(a, b, 0)
}

/// Painless `===`: identity for references; values of one type for primitives.
fn identical(a: &Value, b: &Value) -> bool {
    a == b
}

/// Applies a unary operator.
pub fn unary(op: UnOp, v: &Value, offset: usize) -> Result<Value, Halt> {
    let bad = || {
        if matches!(v, Value::Null) {
            return Halt::null_pointer(offset);
        }
        let text = match op {
            UnOp::Neg => "-",
            UnOp::Plus => "+",
            UnOp::Not => "!",
            UnOp::BitNot => "~",
        };
        Halt::at(
            offset,
            "class_cast_exception",
            format!("Cannot apply [{text}] operation to type [{}].", Heap::class_name(v)),
        )
    };
    if op == UnOp::Not {
        return match v {
            Value::Bool(b) => Ok(Value::Bool(!b)),
            _ => Err(bad()),
        };
    }
    let n = Num::of(v).ok_or_else(bad)?;
    Ok(match (op, n) {
        (UnOp::Neg, Num::I(i)) => Value::Int(i.wrapping_neg()),
        (UnOp::Neg, Num::L(l)) => Value::Long(l.wrapping_neg()),
        (UnOp::Neg, Num::F(f)) => Value::Float(-f),
        (UnOp::Neg, Num::D(d)) => Value::Double(-d),
        (UnOp::BitNot, Num::I(i)) => Value::Int(!i),
        (UnOp::BitNot, Num::L(l)) => Value::Long(!l),
        (UnOp::Plus, n) => n.value(),
        _ => return Err(bad()),
    })
}

fn cast_error(from: &Value, to: Type, offset: usize) -> Halt {
    Halt::at(
        offset,
        "class_cast_exception",
        format!("Cannot cast [{}] to [{}].", Heap::class_name(from), to.java_name()),
    )
}

/// An explicit cast `(T) v`: any numeric conversion Java allows.
pub fn cast(v: Value, to: Type, offset: usize) -> Result<Value, Halt> {
    let prim = match to {
        Type::Boxed(_) if v == Value::Null => return Ok(Value::Null),
        Type::Boxed(p) => p,
        Type::Int | Type::Byte | Type::Short => Prim::Int,
        Type::Long => Prim::Long,
        Type::Float => Prim::Float,
        Type::Double => Prim::Double,
        Type::Char => Prim::Char,
        Type::Boolean => Prim::Boolean,
        _ => return check_reference(v, to, offset),
    };
    if prim == Prim::Boolean {
        return match v {
            Value::Bool(_) => Ok(v),
            _ => Err(cast_error(&v, to, offset)),
        };
    }
    if prim == Prim::Char {
        if let Value::Str(s) = &v {
            let mut u = s.encode_utf16();
            if let (Some(c), None) = (u.next(), u.next()) {
                return Ok(Value::Char(c));
            }
        }
    }
    let Some(n) = Num::of(&v) else {
        return Err(if v == Value::Null { Halt::null_pointer(offset) } else { cast_error(&v, to, offset) });
    };
    Ok(match (to, prim) {
        (Type::Byte, _) => Value::Int(int_of(n) as i8 as i32),
        (Type::Short, _) => Value::Int(int_of(n) as i16 as i32),
        (_, Prim::Int) => Value::Int(int_of(n)),
        (_, Prim::Long) => Value::Long(n.i64()),
        (_, Prim::Float) => Value::Float(match n {
            Num::F(f) => f,
            Num::D(d) => d as f32,
            Num::L(l) => l as f32,
            Num::I(i) => i as f32,
        }),
        (_, Prim::Double) => Value::Double(n.f64()),
        (_, Prim::Char) => Value::Char(int_of(n) as u16),
        _ => v,
    })
}

/// Java's `(int)` of a number: longs wrap, floating values saturate (NaN is 0).
fn int_of(n: Num) -> i32 {
    match n {
        Num::I(i) => i,
        Num::L(l) => l as i32,
        Num::F(f) => f as i32,
        Num::D(d) => d as i32,
    }
}

/// A reference type accepts the value as it is, or the cast fails.
fn check_reference(v: Value, to: Type, offset: usize) -> Result<Value, Halt> {
    if v == Value::Null || instance_of(&v, to) {
        Ok(v)
    } else {
        Err(cast_error(&v, to, offset))
    }
}

/// An assignment's implicit conversion to a declared type: widening only.
pub fn implicit(v: Value, to: Type, offset: usize) -> Result<Value, Halt> {
    let ok = match (to, &v) {
        (Type::Def | Type::Object, _) => return Ok(v),
        (Type::Int | Type::Short | Type::Byte, Value::Int(_)) => true,
        (Type::Int, Value::Char(c)) => return Ok(Value::Int(*c as i32)),
        (Type::Long, Value::Int(_) | Value::Long(_) | Value::Char(_)) => return cast(v, to, offset),
        (Type::Float, Value::Int(_) | Value::Long(_) | Value::Float(_) | Value::Char(_)) => return cast(v, to, offset),
        (Type::Double, Value::Int(_) | Value::Long(_) | Value::Float(_) | Value::Double(_) | Value::Char(_)) => {
            return cast(v, to, offset)
        }
        (Type::Char, Value::Char(_)) | (Type::Boolean, Value::Bool(_)) => true,
        (Type::Boxed(Prim::Int), Value::Int(_)) | (Type::Boxed(Prim::Long), Value::Long(_)) => true,
        (Type::Boxed(Prim::Double), Value::Double(_)) | (Type::Boxed(Prim::Float), Value::Float(_)) => true,
        (Type::Boxed(Prim::Boolean), Value::Bool(_)) | (Type::Boxed(Prim::Char), Value::Char(_)) => true,
        (Type::Boxed(_), Value::Null) => true,
        (
            Type::Int | Type::Long | Type::Float | Type::Double | Type::Char | Type::Boolean | Type::Short | Type::Byte,
            Value::Null,
        ) => return Err(Halt::null_pointer(offset)),
        (
            Type::Int | Type::Long | Type::Float | Type::Double | Type::Char | Type::Boolean | Type::Short | Type::Byte,
            _,
        )
        | (Type::Boxed(_), _) => false,
        _ => return check_reference(v, to, offset),
    };
    if ok {
        Ok(v)
    } else {
        Err(cast_error(&v, to, offset))
    }
}

/// `v instanceof T`.
pub fn instance_of(v: &Value, ty: Type) -> bool {
    match ty {
        Type::Def | Type::Object => !matches!(v, Value::Null),
        Type::Int | Type::Boxed(Prim::Int) | Type::Short | Type::Byte => matches!(v, Value::Int(_)),
        Type::Long | Type::Boxed(Prim::Long) => matches!(v, Value::Long(_)),
        Type::Float | Type::Boxed(Prim::Float) => matches!(v, Value::Float(_)),
        Type::Double | Type::Boxed(Prim::Double) => matches!(v, Value::Double(_)),
        Type::Char | Type::Boxed(Prim::Char) => matches!(v, Value::Char(_)),
        Type::Boolean | Type::Boxed(Prim::Boolean) => matches!(v, Value::Bool(_)),
        Type::Number => matches!(v, Value::Int(_) | Value::Long(_) | Value::Float(_) | Value::Double(_)),
        Type::String => matches!(v, Value::Str(_)),
        Type::List => matches!(v, Value::List(_) | Value::DocField(_)),
        Type::Map => matches!(v, Value::Map(_) | Value::Params | Value::Doc),
        Type::Set => matches!(v, Value::Set(_)),
        Type::StringBuilder => matches!(v, Value::Builder(_)),
        Type::Array => matches!(v, Value::Array(_)),
        Type::Pattern => matches!(v, Value::Pattern(_)),
        Type::Matcher => matches!(v, Value::Matcher(_)),
        Type::Function => matches!(v, Value::Func(_)),
    }
}
