//! Tokens → the statement tree, with Painless's compile errors. Recursive descent in
//! Java's precedence order; nesting is bounded so that no input overflows the stack.

use super::ast::*;
use super::error::CompileError;
use super::exceptions;
use super::lexer::{lex, Tok, Token};
use super::regex::ScriptPattern;
use std::sync::Arc;

/// How deep expressions and statements may nest (ES's own parser gives up far earlier
/// than a thread's stack would).
pub const MAX_DEPTH: usize = 64;

/// The message Painless gives for a regex when they are disabled.
pub const REGEX_DISABLED: &str = "Regexes are disabled. Set [script.painless.regex.enabled] to [true] in elasticsearch.yaml to allow them. Be careful though, regexes break out of Painless's protection against deep recursion and long loops.";

/// A parsed script.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The statements.
    pub body: Vec<Stmt>,
    /// How many variable slots a run needs.
    pub slots: usize,
    /// Field names `doc['name']` reads with a literal name, by field number.
    pub doc_fields: Vec<String>,
    /// Start offsets of every statement, sorted (runtime errors show their statement).
    pub statements: Vec<usize>,
    /// The script's functions, by number.
    pub functions: Vec<Arc<Callable>>,
    /// Where the first regex literal is (a script with one compiles only where regexes
    /// are enabled).
    pub regex_at: Option<usize>,
    /// The first regex literal that does not compile (raised only where regexes are
    /// enabled: where they are not, that is the error).
    pub regex_error: Option<CompileError>,
    /// Whether the script reads `_score` (ES's `needs_score()`: only then does a context
    /// that may give scores compute them).
    pub reads_score: bool,
    /// The context variables the script names (`doc`, `_score`, `_value`, `values`),
    /// each with its first offset: a context that does not define one refuses the script.
    pub context_variables: Vec<(&'static str, usize)>,
}

/// Parses `src`.
pub fn parse(src: &str) -> Result<Parsed, CompileError> {
    parse_with_locals(src, &[])
}

/// Parses `src` where the context defines the variables `locals` (`def`, in slots 0, 1,
/// … in that order, which the run fills): `state` in a scripted metric's scripts.
pub fn parse_with_locals(src: &str, locals: &[&str]) -> Result<Parsed, CompileError> {
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        frames: vec![Frame::new(FrameKind::Script)],
        doc_fields: Vec::new(),
        statements: Vec::new(),
        depth: 0,
        fn_uses: Vec::new(),
        fn_defs: Vec::new(),
        regex_at: None,
        regex_error: None,
        reads_score: false,
        context_variables: Vec::new(),
    };
    for name in locals {
        p.declare(name, Type::Def, 0)?;
    }
    if matches!(p.peek(), Tok::Eof) {
        return Err(CompileError::new(0, "illegal_argument_exception", "Cannot generate an empty script."));
    }
    // Functions come first, as Painless's grammar has them.
    while p.function_ahead() {
        p.function()?;
    }
    let mut body = Vec::new();
    while !matches!(p.peek(), Tok::Eof) {
        body.push(p.statement()?);
    }
    let mut functions = Vec::with_capacity(p.fn_defs.len());
    for ((name, argc, offset), def) in p.fn_uses.iter().zip(&p.fn_defs) {
        match def {
            Some(f) => functions.push(f.clone()),
            None => return Err(err(*offset, format!("Unknown call [{name}] with [{argc}] arguments."))),
        }
    }
    p.statements.sort_unstable();
    p.statements.dedup();
    Ok(Parsed {
        body,
        slots: p.frames[0].max_slots,
        doc_fields: p.doc_fields,
        statements: p.statements,
        functions,
        regex_at: p.regex_at,
        regex_error: p.regex_error,
        reads_score: p.reads_score,
        context_variables: p.context_variables,
    })
}

/// What a frame of variables belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    /// The script's body.
    Script,
    /// A script function: its parameters and locals only.
    Function,
    /// A lambda: its own, and what it captures from the frame it is in.
    Lambda,
}

/// The variables of one body: nested scopes of (name, slot, type), and a lambda's
/// captures (name, where it reads in the enclosing frame, type).
struct Frame {
    kind: FrameKind,
    scopes: Vec<Vec<(String, usize, Type)>>,
    next_slot: usize,
    max_slots: usize,
    captures: Vec<(String, Expr, Type)>,
}

impl Frame {
    fn new(kind: FrameKind) -> Frame {
        Frame { kind, scopes: vec![Vec::new()], next_slot: 0, max_slots: 0, captures: Vec::new() }
    }
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    frames: Vec<Frame>,
    doc_fields: Vec<String>,
    statements: Vec<usize>,
    depth: usize,
    /// Functions called or declared: name, arity, first offset; by function number.
    fn_uses: Vec<(String, usize, usize)>,
    /// Their definitions, by function number.
    fn_defs: Vec<Option<Arc<Callable>>>,
    regex_at: Option<usize>,
    regex_error: Option<CompileError>,
    reads_score: bool,
    context_variables: Vec<(&'static str, usize)>,
}

fn err(offset: usize, message: impl Into<String>) -> CompileError {
    CompileError::new(offset, "illegal_argument_exception", message)
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }

    fn offset(&self) -> usize {
        self.toks[self.pos].offset
    }

    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(i) if i == w)
    }

    fn eat_op(&mut self, op: &str) -> bool {
        if self.is_op(op) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// The error for the token at hand, as Painless words it.
    fn unexpected(&self) -> CompileError {
        let t = &self.toks[self.pos];
        match &t.tok {
            Tok::Eof => err(t.offset, "unexpected end of script."),
            tok => err(t.offset, format!("invalid sequence of tokens near ['{}'].", display(tok))),
        }
    }

    fn expect_op(&mut self, op: &str) -> Result<(), CompileError> {
        if self.eat_op(op) {
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    fn ident(&mut self) -> Result<(String, usize), CompileError> {
        match self.peek().clone() {
            Tok::Ident(name) if !is_keyword(&name) => {
                let off = self.offset();
                self.bump();
                Ok((name, off))
            }
            _ => Err(self.unexpected()),
        }
    }

    fn enter(&mut self) -> Result<(), CompileError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(err(self.offset(), format!("script nests deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn frame(&mut self) -> &mut Frame {
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    fn push_scope(&mut self) {
        self.frame().scopes.push(Vec::new());
    }

    fn pop_scope(&mut self) {
        let f = self.frame();
        if let Some(s) = f.scopes.pop() {
            f.next_slot -= s.len();
        }
    }

    fn declare(&mut self, name: &str, ty: Type, offset: usize) -> Result<usize, CompileError> {
        if self.visible(name) || matches!(name, "doc" | "params" | "_score" | "_value") {
            return Err(err(offset, format!("variable [{name}] is already defined.")));
        }
        let f = self.frame();
        let slot = f.next_slot;
        f.next_slot += 1;
        f.max_slots = f.max_slots.max(f.next_slot);
        if let Some(s) = f.scopes.last_mut() {
            s.push((name.to_string(), slot, ty));
        }
        Ok(slot)
    }

    /// Whether `name` is a variable here (a local, or one a lambda could capture).
    fn visible(&self, name: &str) -> bool {
        for f in self.frames.iter().rev() {
            if f.scopes.iter().flatten().any(|(n, _, _)| n == name) || f.captures.iter().any(|(n, _, _)| n == name) {
                return true;
            }
            if f.kind != FrameKind::Lambda {
                break;
            }
        }
        false
    }

    /// The variable `name` as an expression: a local of this frame, or a capture (made
    /// on first use, through every enclosing lambda).
    fn lookup(&mut self, name: &str) -> Option<ExprKind> {
        self.lookup_in(self.frames.len() - 1, name)
    }

    fn lookup_in(&mut self, at: usize, name: &str) -> Option<ExprKind> {
        let f = &self.frames[at];
        if let Some((_, slot, ty)) = f.scopes.iter().rev().flat_map(|s| s.iter().rev()).find(|(n, _, _)| n == name) {
            return Some(ExprKind::Local(*slot, *ty));
        }
        if let Some(k) = f.captures.iter().position(|(n, _, _)| n == name) {
            return Some(ExprKind::Capture(k, f.captures[k].2));
        }
        if at == 0 || f.kind != FrameKind::Lambda {
            return None;
        }
        let outer = self.lookup_in(at - 1, name)?;
        let ty = match outer {
            ExprKind::Local(_, t) | ExprKind::Capture(_, t) => t,
            _ => Type::Def,
        };
        let f = &mut self.frames[at];
        f.captures.push((name.to_string(), Expr { kind: outer, offset: 0 }, ty));
        Some(ExprKind::Capture(f.captures.len() - 1, ty))
    }

    /// Whether code here is inside a script function (where `doc`, `params`, ... are not
    /// defined).
    fn in_function(&self) -> bool {
        self.frames.iter().rev().find(|f| f.kind != FrameKind::Lambda).is_some_and(|f| f.kind == FrameKind::Function)
    }

    /// The number of function `name` taking `argc` arguments.
    fn fn_id(&mut self, name: &str, argc: usize, offset: usize) -> usize {
        match self.fn_uses.iter().position(|(n, a, _)| n == name && *a == argc) {
            Some(i) => i,
            None => {
                self.fn_uses.push((name.to_string(), argc, offset));
                self.fn_defs.push(None);
                self.fn_uses.len() - 1
            }
        }
    }

    /// The read-only error for an assignment to a captured variable.
    fn check_writable(&mut self, e: &Expr) -> Result<(), CompileError> {
        if let ExprKind::Capture(k, _) = e.kind {
            let name = self.frame().captures[k].0.clone();
            return Err(err(e.offset, format!("Variable [{name}] is read-only.")));
        }
        Ok(())
    }

    fn doc_field(&mut self, name: &str) -> usize {
        match self.doc_fields.iter().position(|f| f == name) {
            Some(i) => i,
            None => {
                self.doc_fields.push(name.to_string());
                self.doc_fields.len() - 1
            }
        }
    }

    // ---- statements ----

    fn statement(&mut self) -> Result<Stmt, CompileError> {
        self.enter()?;
        let r = self.statement_inner();
        self.leave();
        r
    }

    fn statement_inner(&mut self) -> Result<Stmt, CompileError> {
        let offset = self.offset();
        self.statements.push(offset);
        let kind = match self.peek().clone() {
            Tok::Op("{") => {
                self.bump();
                self.push_scope();
                let mut body = Vec::new();
                while !self.is_op("}") {
                    if matches!(self.peek(), Tok::Eof) {
                        self.pop_scope();
                        return Err(self.unexpected());
                    }
                    body.push(self.statement()?);
                }
                self.bump();
                self.pop_scope();
                StmtKind::Block(body)
            }
            Tok::Op(";") => {
                self.bump();
                StmtKind::Empty
            }
            Tok::Ident(w) if w == "if" => {
                self.bump();
                self.expect_op("(")?;
                let c = self.expression()?;
                self.expect_op(")")?;
                let then = self.scoped_statement()?;
                let other = if self.is_word("else") {
                    self.bump();
                    Some(Box::new(self.scoped_statement()?))
                } else {
                    None
                };
                StmtKind::If(c, Box::new(then), other)
            }
            Tok::Ident(w) if w == "while" => {
                self.bump();
                self.expect_op("(")?;
                let c = self.expression()?;
                self.expect_op(")")?;
                let body = self.scoped_statement()?;
                if let ExprKind::Bool(constant) = c.kind {
                    if !constant {
                        return Err(err(offset, "Extraneous while loop."));
                    }
                    if is_empty(&body) {
                        return Err(err(offset, "While loop has no escape."));
                    }
                }
                StmtKind::While(c, Box::new(body))
            }
            Tok::Ident(w) if w == "do" => {
                self.bump();
                let body = self.scoped_statement()?;
                if !self.is_word("while") {
                    return Err(self.unexpected());
                }
                self.bump();
                self.expect_op("(")?;
                let c = self.expression()?;
                self.expect_op(")")?;
                self.end_of_statement()?;
                StmtKind::DoWhile(Box::new(body), c)
            }
            Tok::Ident(w) if w == "for" => {
                self.bump();
                self.for_statement()?
            }
            Tok::Ident(w) if w == "break" => {
                self.bump();
                self.end_of_statement()?;
                StmtKind::Break
            }
            Tok::Ident(w) if w == "continue" => {
                self.bump();
                self.end_of_statement()?;
                StmtKind::Continue
            }
            Tok::Ident(w) if w == "return" => {
                self.bump();
                let value = if self.is_op(";") || self.is_op("}") || matches!(self.peek(), Tok::Eof) {
                    None
                } else {
                    Some(self.expression()?)
                };
                self.end_of_statement()?;
                StmtKind::Return(value)
            }
            Tok::Ident(w) if w == "try" => {
                self.bump();
                let body = self.block()?;
                let mut catches = Vec::new();
                while self.is_word("catch") {
                    self.bump();
                    self.expect_op("(")?;
                    let (tname, toff) = match self.peek().clone() {
                        Tok::Ident(n) => (n, self.offset()),
                        _ => return Err(self.unexpected()),
                    };
                    let class =
                        exceptions::by_name(&tname).ok_or_else(|| err(toff, format!("Not a type [{tname}].")))?;
                    self.bump();
                    let (name, noff) = self.ident()?;
                    self.expect_op(")")?;
                    self.push_scope();
                    let clause = self.declare(&name, Type::Object, noff).and_then(|slot| Ok((slot, self.block()?)));
                    self.pop_scope();
                    let (slot, body) = clause?;
                    catches.push(Catch { class, slot, body });
                }
                if catches.is_empty() {
                    return Err(self.unexpected());
                }
                StmtKind::Try(body, catches)
            }
            Tok::Ident(w) if w == "throw" => {
                self.bump();
                let e = self.expression()?;
                self.end_of_statement()?;
                StmtKind::Throw(e)
            }
            _ => {
                let kind = if let Some(ty) = self.declaration_type() {
                    self.declaration(ty)?
                } else {
                    StmtKind::Expr(self.expression()?)
                };
                self.end_of_statement()?;
                kind
            }
        };
        Ok(Stmt { kind, offset })
    }

    /// `{ statements }` in a scope of its own.
    fn block(&mut self) -> Result<Vec<Stmt>, CompileError> {
        self.expect_op("{")?;
        self.push_scope();
        let mut body = Vec::new();
        while !self.is_op("}") {
            if matches!(self.peek(), Tok::Eof) {
                self.pop_scope();
                return Err(self.unexpected());
            }
            match self.statement() {
                Ok(s) => body.push(s),
                Err(e) => {
                    self.pop_scope();
                    return Err(e);
                }
            }
        }
        self.bump();
        self.pop_scope();
        Ok(body)
    }

    /// Whether the tokens start a function declaration: a type (or `void`), a name, `(`.
    fn function_ahead(&self) -> bool {
        let Tok::Ident(t) = self.peek() else { return false };
        if t != "void" && Type::from_name(t).is_none() {
            return false;
        }
        let mut k = 1;
        while matches!(self.peek_at(k), Tok::Op("[")) && matches!(self.peek_at(k + 1), Tok::Op("]")) {
            k += 2;
        }
        matches!(self.peek_at(k), Tok::Ident(n) if !is_keyword(n)) && matches!(self.peek_at(k + 1), Tok::Op("("))
    }

    /// `T name(T a, ...) { ... }`.
    fn function(&mut self) -> Result<(), CompileError> {
        let ret = if self.is_word("void") {
            self.bump();
            None
        } else {
            Some(self.type_name()?)
        };
        let (name, offset) = self.ident()?;
        self.statements.push(offset);
        self.expect_op("(")?;
        let mut params = Vec::new();
        if !self.eat_op(")") {
            loop {
                let ty = self.type_name()?;
                let (p, poff) = self.ident()?;
                params.push((ty, p, poff));
                if self.eat_op(")") {
                    break;
                }
                self.expect_op(",")?;
            }
        }
        let id = self.fn_id(&name, params.len(), offset);
        if self.fn_defs[id].is_some() {
            return Err(err(offset, format!("Illegal duplicate functions [{name}/{}].", params.len())));
        }
        self.frames.push(Frame::new(FrameKind::Function));
        let body = (|| {
            for (ty, p, poff) in &params {
                self.declare(p, *ty, *poff)?;
            }
            self.block()
        })();
        let frame = self.frames.pop().expect("the function's frame");
        let body = body?;
        if ret.is_some() && !always_returns(&body) {
            return Err(err(offset, format!("Not all paths provide a return value for method [{name}].")));
        }
        self.fn_defs[id] = Some(Arc::new(Callable {
            name: name.into(),
            params: params.iter().map(|(t, _, _)| *t).collect(),
            captures: Vec::new(),
            body,
            slots: frame.max_slots,
            ret,
        }));
        Ok(())
    }

    /// Whether a lambda starts here: `x ->`, `() ->`, `(a, b) ->`, `(int a) ->`.
    fn lambda_ahead(&self) -> bool {
        match self.peek() {
            Tok::Ident(_) => matches!(self.peek_at(1), Tok::Op("->")),
            Tok::Op("(") => {
                let mut k = 1;
                loop {
                    match self.peek_at(k) {
                        Tok::Ident(_) | Tok::Op("," | "[" | "]") => k += 1,
                        Tok::Op(")") => break matches!(self.peek_at(k + 1), Tok::Op("->")),
                        _ => break false,
                    }
                }
            }
            _ => false,
        }
    }

    /// A lambda argument.
    fn lambda(&mut self) -> Result<Expr, CompileError> {
        let offset = self.offset();
        let mut params: Vec<(Type, String, usize)> = Vec::new();
        if self.is_op("(") {
            self.bump();
            while !self.eat_op(")") {
                let ty = match (self.peek(), self.peek_at(1)) {
                    (Tok::Ident(_), Tok::Ident(_) | Tok::Op("[")) => self.type_name()?,
                    _ => Type::Def,
                };
                let (p, poff) = self.ident()?;
                params.push((ty, p, poff));
                if !self.is_op(")") {
                    self.expect_op(",")?;
                }
            }
        } else {
            let (p, poff) = self.ident()?;
            params.push((Type::Def, p, poff));
        }
        self.expect_op("->")?;
        self.frames.push(Frame::new(FrameKind::Lambda));
        let body = (|| {
            for (ty, p, poff) in &params {
                self.declare(p, *ty, *poff)?;
            }
            if self.is_op("{") {
                self.block()
            } else {
                let e = self.expression()?;
                let offset = e.offset;
                Ok(vec![Stmt { kind: StmtKind::Return(Some(e)), offset }])
            }
        })();
        let frame = self.frames.pop().expect("the lambda's frame");
        let body = body?;
        let callable = Callable {
            name: "lambda".into(),
            params: params.iter().map(|(t, _, _)| *t).collect(),
            captures: frame.captures.into_iter().map(|(_, e, _)| e).collect(),
            body,
            slots: frame.max_slots,
            ret: Some(Type::Def),
        };
        Ok(Expr { kind: ExprKind::Lambda(Arc::new(callable)), offset })
    }

    /// A method reference argument: `Type::name`, `this::name`, `x::name`, `Type::new`.
    fn func_ref(&mut self) -> Result<Expr, CompileError> {
        let offset = self.offset();
        let Tok::Ident(w) = self.peek().clone() else { return Err(self.unexpected()) };
        self.bump();
        self.expect_op("::")?;
        let name: Arc<str> = match self.peek().clone() {
            Tok::Ident(n) => {
                self.bump();
                n.into()
            }
            _ => return Err(self.unexpected()),
        };
        let r = if w == "this" {
            FuncRef::Script(name)
        } else if let Some(local) = self.lookup(&w) {
            FuncRef::Bound(Box::new(Expr { kind: local, offset }), name)
        } else if let Some(class) = Class::from_name(&w).filter(|_| &*name != "new") {
            FuncRef::Class(class, name)
        } else if let Some(ty) = Type::from_name(&w) {
            FuncRef::Type(ty, name)
        } else {
            return Err(err(offset, format!("Variable [{w}] is not defined.")));
        };
        Ok(Expr { kind: ExprKind::FuncRef(r), offset })
    }

    /// A statement in a scope of its own (the body of `if`, a loop, ...).
    fn scoped_statement(&mut self) -> Result<Stmt, CompileError> {
        self.push_scope();
        let s = self.statement();
        self.pop_scope();
        s
    }

    /// A `;`, or nothing before a closing brace or the end (Painless lets the last
    /// statement of a block go without one).
    fn end_of_statement(&mut self) -> Result<(), CompileError> {
        if self.eat_op(";") || self.is_op("}") || matches!(self.peek(), Tok::Eof) {
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    /// The type a declaration starts with, consumed, when the tokens start one.
    fn declaration_type(&mut self) -> Option<Type> {
        let Tok::Ident(name) = self.peek() else { return None };
        let ty = Type::from_name(name)?;
        let mut k = 1;
        let mut array = false;
        while matches!(self.peek_at(k), Tok::Op("[")) && matches!(self.peek_at(k + 1), Tok::Op("]")) {
            k += 2;
            array = true;
        }
        if !matches!(self.peek_at(k), Tok::Ident(_)) {
            return None;
        }
        self.pos += k;
        Some(if array { Type::Array } else { ty })
    }

    fn declaration(&mut self, ty: Type) -> Result<StmtKind, CompileError> {
        let mut vars = Vec::new();
        loop {
            let (name, off) = self.ident()?;
            let init = if self.eat_op("=") { Some(self.expression()?) } else { None };
            // The variable is visible after its own initialiser, as in Java.
            let slot = self.declare(&name, ty, off)?;
            vars.push((ty, slot, init));
            if !self.eat_op(",") {
                break;
            }
        }
        Ok(StmtKind::Decl(vars))
    }

    fn for_statement(&mut self) -> Result<StmtKind, CompileError> {
        self.expect_op("(")?;
        self.push_scope();
        let r = self.for_rest();
        self.pop_scope();
        r
    }

    fn for_rest(&mut self) -> Result<StmtKind, CompileError> {
        // for (x in list)
        if matches!(self.peek(), Tok::Ident(_)) && matches!(self.peek_at(1), Tok::Ident(w) if w == "in") {
            let (name, off) = self.ident()?;
            self.bump();
            let iter = self.expression()?;
            self.expect_op(")")?;
            let slot = self.declare(&name, Type::Def, off)?;
            let body = self.scoped_statement()?;
            return Ok(StmtKind::ForEach(Type::Def, slot, iter, Box::new(body)));
        }
        let save = self.pos;
        if let Some(ty) = self.declaration_type() {
            if matches!(self.peek_at(1), Tok::Op(":")) {
                let (name, off) = self.ident()?;
                self.bump();
                let iter = self.expression()?;
                self.expect_op(")")?;
                let slot = self.declare(&name, ty, off)?;
                let body = self.scoped_statement()?;
                return Ok(StmtKind::ForEach(ty, slot, iter, Box::new(body)));
            }
            self.pos = save;
        }
        let init = if self.is_op(";") {
            None
        } else {
            let off = self.offset();
            let kind = match self.declaration_type() {
                Some(ty) => self.declaration(ty)?,
                None => StmtKind::Expr(self.expression()?),
            };
            Some(Box::new(Stmt { kind, offset: off }))
        };
        self.expect_op(";")?;
        let cond = if self.is_op(";") { None } else { Some(self.expression()?) };
        self.expect_op(";")?;
        let mut update = Vec::new();
        if !self.is_op(")") {
            loop {
                update.push(self.expression()?);
                if !self.eat_op(",") {
                    break;
                }
            }
        }
        self.expect_op(")")?;
        let body = self.scoped_statement()?;
        Ok(StmtKind::For(init, cond, update, Box::new(body)))
    }

    // ---- expressions ----

    fn expression(&mut self) -> Result<Expr, CompileError> {
        self.enter()?;
        let r = self.assignment();
        self.leave();
        r
    }

    fn assignment(&mut self) -> Result<Expr, CompileError> {
        let lhs = self.elvis()?;
        let op = match self.peek() {
            Tok::Op("=") => None,
            Tok::Op(o) => match compound_op(o) {
                Some(op) => Some(op),
                None => return Ok(lhs),
            },
            _ => return Ok(lhs),
        };
        let offset = lhs.offset;
        self.check_writable(&lhs)?;
        if !assignable(&lhs) {
            return Err(err(lhs.offset, "Left-hand side cannot be assigned a value."));
        }
        self.bump();
        let rhs = self.expression()?;
        Ok(Expr { kind: ExprKind::Assign(Box::new(lhs), op, Box::new(rhs)), offset })
    }

    fn elvis(&mut self) -> Result<Expr, CompileError> {
        let lhs = self.conditional()?;
        if self.is_op("?:") {
            let offset = self.offset();
            self.bump();
            self.enter()?;
            let rhs = self.elvis();
            self.leave();
            return Ok(Expr { kind: ExprKind::Elvis(Box::new(lhs), Box::new(rhs?)), offset });
        }
        Ok(lhs)
    }

    fn conditional(&mut self) -> Result<Expr, CompileError> {
        let c = self.binary(0)?;
        if self.is_op("?") {
            let offset = self.offset();
            self.bump();
            let a = self.expression()?;
            self.expect_op(":")?;
            self.enter()?;
            let b = self.elvis();
            self.leave();
            return Ok(Expr { kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b?)), offset });
        }
        Ok(c)
    }

    /// Binary operators by precedence level (0 is `||`).
    fn binary(&mut self, level: usize) -> Result<Expr, CompileError> {
        const LEVELS: usize = 11;
        if level == LEVELS {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        loop {
            // Painless places a binary expression's errors at its start.
            let offset = lhs.offset;
            let Tok::Op(op) = *self.peek() else {
                if level == 5 && self.is_word("instanceof") {
                    let offset = self.offset();
                    self.bump();
                    let ty = self.type_name()?;
                    lhs = Expr { kind: ExprKind::InstanceOf(Box::new(lhs), ty), offset };
                    continue;
                }
                return Ok(lhs);
            };
            let bin = match (level, op) {
                (0, "||") => None,
                (1, "&&") => None,
                (2, "|") => Some(BinOp::BitOr),
                (3, "^") => Some(BinOp::BitXor),
                (4, "&") => Some(BinOp::BitAnd),
                (5, "==") => Some(BinOp::Eq),
                (5, "!=") => Some(BinOp::Ne),
                (5, "===") => Some(BinOp::RefEq),
                (5, "!==") => Some(BinOp::RefNe),
                (6, "<") => Some(BinOp::Lt),
                (6, "<=") => Some(BinOp::Le),
                (6, ">") => Some(BinOp::Gt),
                (6, ">=") => Some(BinOp::Ge),
                (7, "<<") => Some(BinOp::Shl),
                (7, ">>") => Some(BinOp::Shr),
                (7, ">>>") => Some(BinOp::Ushr),
                (8, "=~" | "==~") => {
                    let whole = op == "==~";
                    self.bump();
                    let rhs = self.binary(level + 1)?;
                    lhs = Expr { kind: ExprKind::RegexTest(whole, Box::new(lhs), Box::new(rhs)), offset };
                    continue;
                }
                (9, "+") => Some(BinOp::Add),
                (9, "-") => Some(BinOp::Sub),
                (10, "*") => Some(BinOp::Mul),
                (10, "/") => Some(BinOp::Div),
                (10, "%") => Some(BinOp::Rem),
                _ => return Ok(lhs),
            };
            self.bump();
            let rhs = self.binary(level + 1)?;
            lhs = match bin {
                Some(b) => Expr { kind: ExprKind::Binary(b, Box::new(lhs), Box::new(rhs)), offset },
                None if level == 0 => Expr { kind: ExprKind::Or(Box::new(lhs), Box::new(rhs)), offset },
                None => Expr { kind: ExprKind::And(Box::new(lhs), Box::new(rhs)), offset },
            };
        }
    }

    fn unary(&mut self) -> Result<Expr, CompileError> {
        self.enter()?;
        let r = self.unary_inner();
        self.leave();
        r
    }

    fn unary_inner(&mut self) -> Result<Expr, CompileError> {
        let offset = self.offset();
        let op = match self.peek() {
            Tok::Op("!") => Some(UnOp::Not),
            Tok::Op("~") => Some(UnOp::BitNot),
            Tok::Op("-") => Some(UnOp::Neg),
            Tok::Op("+") => Some(UnOp::Plus),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            // A negated literal is one constant, so that the least int and long parse.
            if op == UnOp::Neg {
                if let Tok::Int(v, long) = *self.peek() {
                    if !matches!(self.peek_at(1), Tok::Op("." | "[" | "?.")) {
                        self.bump();
                        let kind = if long {
                            ExprKind::Long(v.wrapping_neg())
                        } else {
                            ExprKind::Int((v as i32).wrapping_neg())
                        };
                        return Ok(Expr { kind, offset });
                    }
                }
            }
            let e = self.unary()?;
            return Ok(Expr { kind: ExprKind::Unary(op, Box::new(e)), offset });
        }
        if self.is_op("++") || self.is_op("--") {
            let step = if self.is_op("++") { 1 } else { -1 };
            self.bump();
            let e = self.unary()?;
            self.check_writable(&e)?;
            if !assignable(&e) {
                return Err(err(e.offset, "Left-hand side cannot be assigned a value."));
            }
            return Ok(Expr { kind: ExprKind::IncDec(Box::new(e), step, false), offset });
        }
        if self.is_op("(") {
            if let Tok::Ident(name) = self.peek_at(1) {
                if let Some(mut ty) = Type::from_name(name) {
                    let mut k = 2;
                    while matches!(self.peek_at(k), Tok::Op("[")) && matches!(self.peek_at(k + 1), Tok::Op("]")) {
                        k += 2;
                        ty = Type::Array;
                    }
                    if matches!(self.peek_at(k), Tok::Op(")")) && starts_operand(self.peek_at(k + 1)) {
                        self.pos += k + 1;
                        let e = self.unary()?;
                        return Ok(Expr { kind: ExprKind::Cast(ty, Box::new(e)), offset });
                    }
                }
            }
        }
        self.postfix()
    }

    fn type_name(&mut self) -> Result<Type, CompileError> {
        let (name, off) = match self.peek().clone() {
            Tok::Ident(n) => (n, self.offset()),
            _ => return Err(self.unexpected()),
        };
        let mut ty = Type::from_name(&name).ok_or_else(|| err(off, format!("Not a type [{name}].")))?;
        self.bump();
        while self.is_op("[") && matches!(self.peek_at(1), Tok::Op("]")) {
            self.bump();
            self.bump();
            ty = Type::Array;
        }
        Ok(ty)
    }

    fn postfix(&mut self) -> Result<Expr, CompileError> {
        let mut e = self.primary()?;
        let mut chain = 0usize;
        loop {
            chain += 1;
            if chain > MAX_DEPTH * 4 {
                return Err(err(self.offset(), format!("script nests deeper than {MAX_DEPTH} levels")));
            }
            let offset = self.offset();
            if self.is_op(".") || self.is_op("?.") {
                let null_safe = self.is_op("?.");
                self.bump();
                let (name, _) = match self.peek().clone() {
                    // `list.0`-style access is not Painless; names only.
                    Tok::Ident(n) => (n, self.bump()),
                    _ => return Err(self.unexpected()),
                };
                if self.is_op("(") {
                    let args = self.arguments()?;
                    e = match (&e.kind, name.as_str(), args.len()) {
                        (ExprKind::DocField(i), "getValue", 0) if !null_safe => {
                            Expr { kind: ExprKind::DocValue(*i), offset: e.offset }
                        }
                        _ => Expr { kind: ExprKind::Call(Box::new(e), name.into(), args, null_safe), offset },
                    };
                } else {
                    e = match (&e.kind, name.as_str()) {
                        (ExprKind::DocField(i), "value") if !null_safe => {
                            Expr { kind: ExprKind::DocValue(*i), offset: e.offset }
                        }
                        (ExprKind::Global(Global::Doc), _) if !null_safe => {
                            let i = self.doc_field(&name);
                            Expr { kind: ExprKind::DocField(i), offset: e.offset }
                        }
                        _ => Expr { kind: ExprKind::Field(Box::new(e), name.into(), null_safe), offset },
                    };
                }
                continue;
            }
            if self.is_op("[") {
                self.bump();
                let idx = self.expression()?;
                self.expect_op("]")?;
                e = match (&e.kind, &idx.kind) {
                    (ExprKind::Global(Global::Doc), ExprKind::Str(name)) => {
                        let name = name.to_string();
                        let i = self.doc_field(&name);
                        Expr { kind: ExprKind::DocField(i), offset: e.offset }
                    }
                    _ => Expr { kind: ExprKind::Index(Box::new(e), Box::new(idx)), offset },
                };
                continue;
            }
            if self.is_op("++") || self.is_op("--") {
                let step = if self.is_op("++") { 1 } else { -1 };
                self.check_writable(&e)?;
                if !assignable(&e) {
                    return Err(err(e.offset, "Left-hand side cannot be assigned a value."));
                }
                self.bump();
                e = Expr { kind: ExprKind::IncDec(Box::new(e), step, true), offset };
                continue;
            }
            return Ok(e);
        }
    }

    fn arguments(&mut self) -> Result<Vec<Expr>, CompileError> {
        self.expect_op("(")?;
        let mut args = Vec::new();
        if self.eat_op(")") {
            return Ok(args);
        }
        loop {
            if self.lambda_ahead() {
                args.push(self.lambda()?);
            } else if matches!(self.peek(), Tok::Ident(_)) && matches!(self.peek_at(1), Tok::Op("::")) {
                args.push(self.func_ref()?);
            } else {
                args.push(self.expression()?);
            }
            if self.eat_op(")") {
                return Ok(args);
            }
            self.expect_op(",")?;
        }
    }

    fn primary(&mut self) -> Result<Expr, CompileError> {
        let offset = self.offset();
        let tok = self.peek().clone();
        let kind = match tok {
            Tok::Int(v, true) => {
                self.bump();
                ExprKind::Long(v)
            }
            Tok::Int(v, false) => {
                if v > i32::MAX as i64 && v as u64 > u32::MAX as u64 / 2 && v <= u32::MAX as i64 {
                    // 2147483648 is only legal negated (handled in `unary`); hex and
                    // octal spellings were already folded to their int value.
                    if v == i32::MAX as i64 + 1 {
                        return Err(err(offset, format!("Invalid int constant [{v}].")));
                    }
                }
                self.bump();
                ExprKind::Int(v as i32)
            }
            Tok::Float(v, true) => {
                self.bump();
                ExprKind::Float(v as f32)
            }
            Tok::Float(v, false) => {
                self.bump();
                ExprKind::Double(v)
            }
            Tok::Str(s) => {
                self.bump();
                ExprKind::Str(s.into())
            }
            Tok::Regex(pattern, flags) => {
                self.bump();
                self.regex_at.get_or_insert(offset);
                match ScriptPattern::compile(&pattern, &flags, offset) {
                    Ok(p) => ExprKind::Pattern(Arc::new(p)),
                    Err(e) => {
                        self.regex_error.get_or_insert(e);
                        ExprKind::Null
                    }
                }
            }
            Tok::Op("(") => {
                if self.lambda_ahead() {
                    return Err(self.lambda_out_of_place());
                }
                self.bump();
                let e = self.expression()?;
                self.expect_op(")")?;
                return Ok(e);
            }
            Tok::Op("[") => {
                self.bump();
                self.initializer()?
            }
            Tok::Ident(w) => match w.as_str() {
                "true" => {
                    self.bump();
                    ExprKind::Bool(true)
                }
                "false" => {
                    self.bump();
                    ExprKind::Bool(false)
                }
                "null" => {
                    self.bump();
                    ExprKind::Null
                }
                "new" => {
                    self.bump();
                    self.new_expr()?
                }
                _ => {
                    if self.lambda_ahead() || matches!(self.peek_at(1), Tok::Op("::")) {
                        return Err(self.lambda_out_of_place());
                    }
                    self.bump();
                    self.name(&w, offset)?
                }
            },
            _ => return Err(self.unexpected()),
        };
        Ok(Expr { kind, offset })
    }

    /// Painless's error for a lambda or method reference that is not a call's argument.
    fn lambda_out_of_place(&self) -> CompileError {
        let mut k = 0;
        while !matches!(self.peek_at(k), Tok::Op("->" | "::") | Tok::Eof) {
            k += 1;
        }
        let t = &self.toks[(self.pos + k).min(self.toks.len() - 1)];
        err(t.offset, format!("invalid sequence of tokens near ['{}'].", display(&t.tok)))
    }

    fn name(&mut self, w: &str, offset: usize) -> Result<ExprKind, CompileError> {
        if let Some(local) = self.lookup(w) {
            return Ok(local);
        }
        if self.in_function() && matches!(w, "doc" | "params" | "_score" | "_value") {
            return Err(err(offset, format!("Variable [{w}] is not defined.")));
        }
        if let Some(name) = ["doc", "params", "_score", "_value", "values"].into_iter().find(|n| *n == w) {
            if name != "params" && !self.context_variables.iter().any(|(n, _)| *n == name) {
                self.context_variables.push((name, offset));
            }
        }
        match w {
            "doc" => return Ok(ExprKind::Global(Global::Doc)),
            "params" => return Ok(ExprKind::Global(Global::Params)),
            "_score" => {
                self.reads_score = true;
                return Ok(ExprKind::Global(Global::Score));
            }
            "_value" => return Ok(ExprKind::Global(Global::Value)),
            "values" => return Ok(ExprKind::Global(Global::Values)),
            _ => {}
        }
        if let Some(class) = Class::from_name(w) {
            if self.is_op(".") {
                self.bump();
                let (member, _) = match self.peek().clone() {
                    Tok::Ident(n) => (n, self.bump()),
                    _ => return Err(self.unexpected()),
                };
                if self.is_op("(") {
                    let args = self.arguments()?;
                    return Ok(ExprKind::Static(class, member.into(), args));
                }
                return Ok(ExprKind::StaticField(class, member.into()));
            }
        }
        if self.is_op("(") {
            let args = self.arguments()?;
            let id = self.fn_id(w, args.len(), offset);
            return Ok(ExprKind::CallFn(id, args));
        }
        if is_keyword(w) || Type::from_name(w).is_some() {
            self.pos -= 1;
            return Err(self.unexpected());
        }
        Err(err(offset, format!("Variable [{w}] is not defined.")))
    }

    /// After `[`: a list `[a, b]`, a map `[k: v]`, or the empty `[]` / `[:]`.
    fn initializer(&mut self) -> Result<ExprKind, CompileError> {
        if self.eat_op("]") {
            return Ok(ExprKind::ListInit(Vec::new()));
        }
        if self.is_op(":") && matches!(self.peek_at(1), Tok::Op("]")) {
            self.bump();
            self.bump();
            return Ok(ExprKind::MapInit(Vec::new()));
        }
        let first = self.expression()?;
        if self.eat_op(":") {
            let v = self.expression()?;
            let mut entries = vec![(first, v)];
            while self.eat_op(",") {
                let k = self.expression()?;
                self.expect_op(":")?;
                let v = self.expression()?;
                entries.push((k, v));
            }
            self.expect_op("]")?;
            return Ok(ExprKind::MapInit(entries));
        }
        let mut items = vec![first];
        while self.eat_op(",") {
            items.push(self.expression()?);
        }
        self.expect_op("]")?;
        Ok(ExprKind::ListInit(items))
    }

    fn new_expr(&mut self) -> Result<ExprKind, CompileError> {
        let (name, off) = match self.peek().clone() {
            Tok::Ident(n) => (n, self.offset()),
            _ => return Err(self.unexpected()),
        };
        if let Some(class) = exceptions::by_name(&name) {
            self.bump();
            let args = self.arguments()?;
            return Ok(ExprKind::NewException(class, args));
        }
        let ty = Type::from_name(&name).ok_or_else(|| err(off, format!("Not a type [{name}].")))?;
        self.bump();
        if self.is_op("[") {
            self.bump();
            if self.eat_op("]") {
                while self.is_op("[") {
                    self.bump();
                    self.expect_op("]")?;
                }
                self.expect_op("{")?;
                let mut items = Vec::new();
                if !self.eat_op("}") {
                    loop {
                        items.push(self.expression()?);
                        if self.eat_op("}") {
                            break;
                        }
                        self.expect_op(",")?;
                    }
                }
                return Ok(ExprKind::ArrayInit(items));
            }
            let n = self.expression()?;
            self.expect_op("]")?;
            if self.is_op("[") {
                return Err(err(self.offset(), "multi-dimensional arrays are not supported by this engine's scripts."));
            }
            return Ok(ExprKind::NewArray(ty, Box::new(n)));
        }
        let args = self.arguments()?;
        match ty {
            Type::List | Type::Map | Type::Set | Type::StringBuilder if args.len() <= 1 => Ok(ExprKind::New(ty, args)),
            _ => Err(err(off, format!("Unknown new call on type [{name}] with [{}] arguments.", args.len()))),
        }
    }
}

fn is_keyword(w: &str) -> bool {
    matches!(
        w,
        "if" | "else"
            | "while"
            | "do"
            | "for"
            | "in"
            | "continue"
            | "break"
            | "return"
            | "new"
            | "try"
            | "catch"
            | "throw"
            | "this"
            | "instanceof"
            | "true"
            | "false"
            | "null"
    )
}

/// Whether a function body ends in a `return` or `throw` on every path (or in an
/// expression, whose value a body's last statement returns).
fn always_returns(body: &[Stmt]) -> bool {
    body.last().is_some_and(|s| matches!(s.kind, StmtKind::Expr(_)) || stmt_returns(s))
}

fn stmt_returns(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) | StmtKind::Throw(_) => true,
        StmtKind::Block(b) => b.last().is_some_and(stmt_returns),
        StmtKind::If(_, a, Some(b)) => stmt_returns(a) && stmt_returns(b),
        StmtKind::Try(b, catches) => {
            b.last().is_some_and(stmt_returns) && catches.iter().all(|c| c.body.last().is_some_and(stmt_returns))
        }
        StmtKind::While(c, _) => matches!(c.kind, ExprKind::Bool(true)),
        _ => false,
    }
}

fn is_empty(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Empty => true,
        StmtKind::Block(b) => b.iter().all(is_empty),
        _ => false,
    }
}

fn assignable(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Local(..) | ExprKind::Field(_, _, false) | ExprKind::Index(..))
}

fn compound_op(op: &str) -> Option<BinOp> {
    Some(match op {
        "+=" => BinOp::Add,
        "-=" => BinOp::Sub,
        "*=" => BinOp::Mul,
        "/=" => BinOp::Div,
        "%=" => BinOp::Rem,
        "&=" => BinOp::BitAnd,
        "|=" => BinOp::BitOr,
        "^=" => BinOp::BitXor,
        "<<=" => BinOp::Shl,
        ">>=" => BinOp::Shr,
        ">>>=" => BinOp::Ushr,
        _ => return None,
    })
}

/// Whether a token can start the operand of a cast (so `(int) x` is a cast and `(x) + 1`
/// is not).
fn starts_operand(t: &Tok) -> bool {
    match t {
        Tok::Ident(w) => w != "instanceof",
        Tok::Int(..) | Tok::Float(..) | Tok::Str(_) | Tok::Regex(..) => true,
        Tok::Op(o) => matches!(*o, "(" | "[" | "!" | "~" | "-" | "+" | "++" | "--"),
        _ => false,
    }
}

fn display(t: &Tok) -> String {
    match t {
        Tok::Ident(w) => w.clone(),
        Tok::Int(v, l) => format!("{v}{}", if *l { "L" } else { "" }),
        Tok::Float(v, _) => v.to_string(),
        Tok::Str(s) => format!("'{s}'"),
        Tok::Regex(p, f) => format!("/{p}/{f}"),
        Tok::Op(o) => (*o).to_string(),
        Tok::Eof => "<EOF>".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_value_with_a_literal_name_resolves_to_a_field_number() {
        let p = parse("doc['n'].value * 2 + doc.m.value + doc['n'].size()").unwrap();
        assert_eq!(p.doc_fields, vec!["n".to_string(), "m".to_string()]);
    }

    #[test]
    fn errors_point_at_their_token() {
        let e = parse("int x = 1; y = 2").unwrap_err();
        assert_eq!((e.offset, e.message.as_str()), (11, "Variable [y] is not defined."));
        let e = parse("while (true) {}").unwrap_err();
        assert_eq!(e.message, "While loop has no escape.");
        let e = parse("def a = 1 +").unwrap_err();
        assert_eq!(e.message, "unexpected end of script.");
        assert_eq!(parse("x = /a/").unwrap_err().kind, "illegal_argument_exception");
        assert_eq!(parse("def x = /a/").unwrap().regex_at, Some(8));
        assert_eq!(parse("def x = /(?<=a)/").unwrap().regex_error.unwrap().kind, "illegal_argument_exception");
        assert_eq!(parse("def f = x -> x").unwrap_err().message, "invalid sequence of tokens near ['->'].");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let src = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(parse(&src).unwrap_err().message.contains("nests deeper"));
        let src = format!("{}1", "-".repeat(100_000));
        assert!(parse(&src).is_err());
        let src = "if (true) ".repeat(50_000) + "1";
        assert!(parse(&src).is_err());
    }
}
