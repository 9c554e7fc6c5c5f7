//! The trees of an expression: [`Node`] as parsed, [`Expr`] as compiled (functions
//! resolved, variables numbered in order of first use, as Lucene's `variables`).

/// A numeric literal as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// Hex or octal digits and their radix (`Long.parseLong` at compile time).
    Long(String, u32),
    /// A decimal (`Double.parseDouble`).
    Double(f64),
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Unary {
    /// `!`
    Not,
    /// `~`
    BwNot,
    /// `+`
    Plus,
    /// `-`
    Neg,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Binary {
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `<<`
    Lsh,
    /// `>>`
    Rsh,
    /// `>>>`
    Ush,
    /// `<`
    Lt,
    /// `<=`
    Lte,
    /// `>`
    Gt,
    /// `>=`
    Gte,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&`
    BwAnd,
    /// `^`
    BwXor,
    /// `|`
    BwOr,
    /// `&&`
    And,
    /// `||`
    Or,
}

/// Lucene 8's `JavascriptCompiler.DEFAULT_FUNCTIONS`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Func {
    /// `Math.abs`
    Abs,
    /// `Math.acos`
    Acos,
    /// `MathUtil.acosh`
    Acosh,
    /// `Math.asin`
    Asin,
    /// `MathUtil.asinh`
    Asinh,
    /// `Math.atan`
    Atan,
    /// `Math.atan2`
    Atan2,
    /// `MathUtil.atanh`
    Atanh,
    /// `Math.ceil`
    Ceil,
    /// `Math.cos`
    Cos,
    /// `Math.cosh`
    Cosh,
    /// `Math.exp`
    Exp,
    /// `Math.floor`
    Floor,
    /// `SloppyMath.haversinKilometers`
    Haversin,
    /// `Math.log`
    Ln,
    /// `Math.log10`
    Log10,
    /// `MathUtil.log(base, x)`
    Logn,
    /// `Math.max`
    Max,
    /// `Math.min`
    Min,
    /// `Math.pow`
    Pow,
    /// `Math.sin`
    Sin,
    /// `Math.sinh`
    Sinh,
    /// `Math.sqrt`
    Sqrt,
    /// `Math.tan`
    Tan,
    /// `Math.tanh`
    Tanh,
}

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A number.
    Literal(Literal),
    /// A VARIABLE token.
    Variable {
        /// Its text.
        text: String,
        /// Byte offset.
        at: usize,
    },
    /// `name(args)`.
    Call {
        /// The VARIABLE token's text.
        name: String,
        /// The arguments.
        args: Vec<Node>,
        /// Byte offset.
        at: usize,
    },
    /// A unary operator.
    Unary(Unary, Box<Node>),
    /// A binary operator.
    Binary(Binary, Box<Node>, Box<Node>),
    /// `c ? a : b`.
    Cond(Box<Node>, Box<Node>, Box<Node>),
}

/// A compiled expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A hex or octal literal (a long).
    Long(i64),
    /// A decimal literal.
    Double(f64),
    /// The `i`-th variable.
    Var(usize),
    /// A function call.
    Call(Func, Vec<Expr>),
    /// A unary operator.
    Unary(Unary, Box<Expr>),
    /// A binary operator.
    Binary(Binary, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
}
