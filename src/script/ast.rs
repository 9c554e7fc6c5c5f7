//! The tree the parser builds and the interpreter walks. Variables are resolved to
//! frame slots and `doc['f'].value` with a literal name to a field number at parse time,
//! so a run looks nothing up by name on its hot path.

use std::sync::Arc;

/// A Painless type, as declarations, casts and `instanceof` name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    /// `def`: any value.
    Def,
    /// `boolean`.
    Boolean,
    /// `byte`.
    Byte,
    /// `short`.
    Short,
    /// `char`.
    Char,
    /// `int`.
    Int,
    /// `long`.
    Long,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `Boolean`, `Integer`, ... : a primitive type that may hold `null`.
    Boxed(Prim),
    /// `Number`.
    Number,
    /// `String`.
    String,
    /// `Object`.
    Object,
    /// `List` / `ArrayList` / `Collection` (lists are the collections scripts make most).
    List,
    /// `Map` / `HashMap`.
    Map,
    /// `Set` / `HashSet`.
    Set,
    /// `StringBuilder`.
    StringBuilder,
    /// An array type (`int[]`, `def[]`, ...); elements are not checked.
    Array,
    /// `Pattern` (a regex literal's value).
    Pattern,
    /// `Matcher`.
    Matcher,
    /// A functional interface (`Comparator`, `Function`, `Predicate`, ...): a lambda,
    /// a method reference or a comparator built from them.
    Function,
}

/// The primitive a boxed type holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prim {
    /// `Boolean`.
    Boolean,
    /// `Byte`, `Short`, `Integer`.
    Int,
    /// `Character`.
    Char,
    /// `Long`.
    Long,
    /// `Float`.
    Float,
    /// `Double`.
    Double,
}

impl Type {
    /// The type a name denotes, if it is one scripts may name.
    pub fn from_name(name: &str) -> Option<Type> {
        Some(match name {
            "def" => Type::Def,
            "boolean" => Type::Boolean,
            "byte" => Type::Byte,
            "short" => Type::Short,
            "char" => Type::Char,
            "int" => Type::Int,
            "long" => Type::Long,
            "float" => Type::Float,
            "double" => Type::Double,
            "Boolean" => Type::Boxed(Prim::Boolean),
            "Byte" | "Short" | "Integer" => Type::Boxed(Prim::Int),
            "Character" => Type::Boxed(Prim::Char),
            "Long" => Type::Boxed(Prim::Long),
            "Float" => Type::Boxed(Prim::Float),
            "Double" => Type::Boxed(Prim::Double),
            "Number" => Type::Number,
            "String" | "CharSequence" => Type::String,
            "Object" => Type::Object,
            "List" | "ArrayList" | "Collection" | "Iterable" => Type::List,
            "Map" | "HashMap" | "LinkedHashMap" | "TreeMap" => Type::Map,
            "Set" | "HashSet" | "LinkedHashSet" | "TreeSet" => Type::Set,
            "StringBuilder" => Type::StringBuilder,
            "Pattern" => Type::Pattern,
            "Matcher" => Type::Matcher,
            "Comparator" | "Function" | "BiFunction" | "Predicate" | "BiPredicate" | "Consumer" | "BiConsumer"
            | "Supplier" | "UnaryOperator" | "BinaryOperator" | "ToIntFunction" | "ToLongFunction"
            | "ToDoubleFunction" => Type::Function,
            _ => return None,
        })
    }

    /// The type's Java name in error messages.
    pub fn java_name(self) -> &'static str {
        match self {
            Type::Def => "def",
            Type::Boolean => "boolean",
            Type::Byte => "byte",
            Type::Short => "short",
            Type::Char => "char",
            Type::Int => "int",
            Type::Long => "long",
            Type::Float => "float",
            Type::Double => "double",
            Type::Boxed(Prim::Boolean) => "java.lang.Boolean",
            Type::Boxed(Prim::Int) => "java.lang.Integer",
            Type::Boxed(Prim::Char) => "java.lang.Character",
            Type::Boxed(Prim::Long) => "java.lang.Long",
            Type::Boxed(Prim::Float) => "java.lang.Float",
            Type::Boxed(Prim::Double) => "java.lang.Double",
            Type::Number => "java.lang.Number",
            Type::String => "java.lang.String",
            Type::Object => "java.lang.Object",
            Type::List => "java.util.List",
            Type::Map => "java.util.Map",
            Type::Set => "java.util.Set",
            Type::StringBuilder => "java.lang.StringBuilder",
            Type::Array => "array",
            Type::Pattern => "java.util.regex.Pattern",
            Type::Matcher => "java.util.regex.Matcher",
            Type::Function => "java.util.function.Function",
        }
    }
}

/// Binary operators (the short-circuit ones are their own expressions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
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
    Shl,
    /// `>>`
    Shr,
    /// `>>>`
    Ushr,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==` (equals)
    Eq,
    /// `!=`
    Ne,
    /// `===` (identity)
    RefEq,
    /// `!==`
    RefNe,
    /// `&`
    BitAnd,
    /// `^`
    BitXor,
    /// `|`
    BitOr,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-`
    Neg,
    /// `+`
    Plus,
    /// `!`
    Not,
    /// `~`
    BitNot,
}

/// Names a script reads besides its own variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Global {
    /// `doc`.
    Doc,
    /// `params`.
    Params,
    /// `_score`.
    Score,
    /// `_value` (value scripts of aggregations).
    Value,
    /// `values`: the window of a `moving_fn` script.
    Values,
}

/// Classes whose static members scripts call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// `Math`
    Math,
    /// `Integer`
    Integer,
    /// `Long`
    Long,
    /// `Double`
    Double,
    /// `Float`
    Float,
    /// `Boolean`
    Boolean,
    /// `String`
    String,
    /// `Objects`
    Objects,
    /// `Collections`
    Collections,
    /// `Arrays`
    Arrays,
    /// `Character`
    Character,
    /// `MovingFunctions` (`moving_fn` scripts).
    MovingFunctions,
    /// `Comparator` (its static helpers)
    Comparator,
    /// `Collectors` (collectors of streams)
    Collectors,
}

impl Class {
    /// The class a name denotes.
    pub fn from_name(name: &str) -> Option<Class> {
        Some(match name {
            "Math" => Class::Math,
            "Integer" => Class::Integer,
            "Long" => Class::Long,
            "Double" => Class::Double,
            "Float" => Class::Float,
            "Boolean" => Class::Boolean,
            "String" => Class::String,
            "Objects" => Class::Objects,
            "Collections" => Class::Collections,
            "Arrays" => Class::Arrays,
            "Character" => Class::Character,
            "MovingFunctions" => Class::MovingFunctions,
            "Comparator" => Class::Comparator,
            "Collectors" => Class::Collectors,
            _ => return None,
        })
    }
}

/// An expression and the byte offset errors in it point at.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it starts (an operator's own position for binary expressions).
    pub offset: usize,
}

/// The expressions.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// An `int` literal.
    Int(i32),
    /// A `long` literal.
    Long(i64),
    /// A `float` literal.
    Float(f32),
    /// A `double` literal.
    Double(f64),
    /// A string literal.
    Str(Arc<str>),
    /// `[a, b]`
    ListInit(Vec<Expr>),
    /// `[k: v, ...]` / `[:]`
    MapInit(Vec<(Expr, Expr)>),
    /// `new T(args)` of a collection or builder type.
    New(Type, Vec<Expr>),
    /// `new T[n]`: an array of `n` default values.
    NewArray(Type, Box<Expr>),
    /// `new T[] {a, b}`.
    ArrayInit(Vec<Expr>),
    /// A local variable's slot and declared type (assignments convert to it).
    Local(usize, Type),
    /// `doc`, `params`, `_score`, `_value`.
    Global(Global),
    /// `doc['name'].value` with a literal name: the program's field number.
    DocValue(usize),
    /// `doc['name']` with a literal name.
    DocField(usize),
    /// A unary operator.
    Unary(UnOp, Box<Expr>),
    /// A binary operator.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `&&`
    And(Box<Expr>, Box<Expr>),
    /// `||`
    Or(Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a ?: b`
    Elvis(Box<Expr>, Box<Expr>),
    /// `target = value` or a compound assignment.
    Assign(Box<Expr>, Option<BinOp>, Box<Expr>),
    /// `++x`, `x--`, ...: the target, the step, whether the old value is the result.
    IncDec(Box<Expr>, i8, bool),
    /// `(T) x`
    Cast(Type, Box<Expr>),
    /// `x instanceof T`
    InstanceOf(Box<Expr>, Type),
    /// `x.name` / `x?.name`
    Field(Box<Expr>, Arc<str>, bool),
    /// `x[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `x.name(args)` / `x?.name(args)`
    Call(Box<Expr>, Arc<str>, Vec<Expr>, bool),
    /// `Class.name(args)`
    Static(Class, Arc<str>, Vec<Expr>),
    /// `Class.NAME` (constants such as `Math.PI`, `Integer.MAX_VALUE`).
    StaticField(Class, Arc<str>),
    /// A variable captured by the lambda being run: its number in the lambda's captures.
    Capture(usize, Type),
    /// A lambda: made into a function value capturing the current values of what it reads.
    Lambda(Arc<Callable>),
    /// A method reference (`String::length`, `Integer::compare`, `this::f`, `x::add`).
    FuncRef(FuncRef),
    /// A call of a script function, by its number.
    CallFn(usize, Vec<Expr>),
    /// A regex literal `/.../flags`, compiled.
    Pattern(Arc<super::regex::ScriptPattern>),
    /// `text =~ pattern` (`find`, false) or `text ==~ pattern` (`matches`, true).
    RegexTest(bool, Box<Expr>, Box<Expr>),
    /// `new IllegalArgumentException(message)` and the other exception types.
    NewException(&'static super::exceptions::ExceptionClass, Vec<Expr>),
}

/// A lambda's or a script function's body, run in a frame of its own.
#[derive(Debug, Clone)]
pub struct Callable {
    /// The function's name (`lambda` for lambdas).
    pub name: Arc<str>,
    /// The parameters' types; parameter `i` is the frame's slot `i`.
    pub params: Vec<Type>,
    /// What a lambda captures, evaluated where it is made (locals or captures of the
    /// enclosing frame), in capture order.
    pub captures: Vec<Expr>,
    /// The statements; an expression lambda is one `return`.
    pub body: Vec<Stmt>,
    /// Slots its frame needs.
    pub slots: usize,
    /// The declared return type (`def` for lambdas, `void` as `None`).
    pub ret: Option<Type>,
}

/// What a method reference names.
#[derive(Debug, Clone)]
pub enum FuncRef {
    /// `Class::name`: a static method, or an instance method of the first argument.
    Class(Class, Arc<str>),
    /// `Type::name`: an instance method of the first argument; `Type::new` constructs.
    Type(Type, Arc<str>),
    /// `this::name`: a script function.
    Script(Arc<str>),
    /// `x::name`: a method of the value `x` has where the reference is made.
    Bound(Box<Expr>, Arc<str>),
}

/// A statement and the byte offset where it starts.
#[derive(Debug, Clone)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where it starts.
    pub offset: usize,
}

/// The statements.
#[derive(Debug, Clone)]
pub enum StmtKind {
    /// An expression for its effect (or the script's value when last).
    Expr(Expr),
    /// Declarations: each variable's type, slot and initial value.
    Decl(Vec<(Type, usize, Option<Expr>)>),
    /// `if (c) a else b`
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    /// `while (c) body`
    While(Expr, Box<Stmt>),
    /// `do body while (c)`
    DoWhile(Box<Stmt>, Expr),
    /// `for (init; cond; update) body`
    For(Option<Box<Stmt>>, Option<Expr>, Vec<Expr>, Box<Stmt>),
    /// `for (T x : iterable) body` / `for (x in iterable) body`
    ForEach(Type, usize, Expr, Box<Stmt>),
    /// `{ ... }`
    Block(Vec<Stmt>),
    /// `break`
    Break,
    /// `continue`
    Continue,
    /// `return` with an optional value.
    Return(Option<Expr>),
    /// `;`
    Empty,
    /// `try { ... } catch (T e) { ... } ...`
    Try(Vec<Stmt>, Vec<Catch>),
    /// `throw e;`
    Throw(Expr),
}

/// One `catch` clause.
#[derive(Debug, Clone)]
pub struct Catch {
    /// The exception type it catches (and its subclasses).
    pub class: &'static super::exceptions::ExceptionClass,
    /// The slot of its variable.
    pub slot: usize,
    /// Its block.
    pub body: Vec<Stmt>,
}
