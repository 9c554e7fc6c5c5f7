//! Runs a parsed script: statements, expressions, the loop counter and the budget looks.

use super::api;
use super::ast::*;
use super::error::Halt;
use super::ops::{self, Num};
use super::value::{DocValues, Heap, ScriptMap, Value};

/// Loop iterations one run may take (Painless's `max_loop_counter` default).
pub const MAX_LOOP_COUNTER: u32 = 1_000_000;

/// Painless's error when the loop counter runs out.
pub const LOOP_LIMIT_MESSAGE: &str =
    "The maximum number of statements that can be executed in a loop has been reached.";

/// Iterations between two looks at the request budget.
const BUDGET_EVERY: u32 = 4096;

/// What a script reads from the search it runs in.
pub trait Host {
    /// The values of field `name` for the current document.
    fn doc_values(&mut self, name: &str, offset: usize) -> Result<DocValues, Halt>;
    /// The first value of the program's field number `field` (`doc['f'].value`); the
    /// numeric path, which should not allocate.
    fn doc_first(&mut self, field: usize, name: &str, offset: usize) -> Result<Value, Halt> {
        let _ = field;
        self.doc_values(name, offset).map(|d| d.first())
    }
    /// Whether the index maps a field `name` (`doc.containsKey`).
    fn has_field(&mut self, name: &str) -> bool;
    /// The document's `_source`, where the context allows it.
    fn source(&mut self, offset: usize) -> Result<serde_json::Value, Halt>;
    /// `_score`, where the context has one.
    fn score(&mut self, offset: usize) -> Result<f64, Halt>;
    /// `_value`, in value scripts.
    fn value(&mut self, offset: usize) -> Result<Value, Halt>;
    /// A value the host gives `params.name` in place of the request's (a pipeline's NaN,
    /// which JSON cannot carry; a scripted metric's `_agg`, held in the heap across runs).
    fn param(&mut self, name: &str) -> Option<Value> {
        let _ = name;
        None
    }
    /// `values`, the window of a `moving_fn` script (other contexts have none).
    fn window(&mut self, offset: usize) -> Result<Vec<f64>, Halt> {
        Err(Halt::at(offset, "illegal_argument_exception", "Variable [values] is not defined."))
    }
}

/// How a statement ended.
pub(crate) enum Flow {
    Normal,
    Break,
    Continue,
    Return(Value),
}

/// One run's state.
pub struct Run<'a, H: Host> {
    /// The collections of this run.
    pub heap: &'a mut Heap,
    /// The host.
    pub host: &'a mut H,
    /// The request's `params`.
    pub params: &'a serde_json::Value,
    /// The program's literal doc field names, by number.
    pub doc_fields: &'a [String],
    /// Variable slots.
    pub slots: Vec<Value>,
    /// The captures of the lambda running (read-only).
    pub captures: Vec<Value>,
    /// The script's functions, by number.
    pub functions: &'a [std::sync::Arc<Callable>],
    /// Calls of functions and lambdas in progress.
    pub(crate) depth: u32,
    /// Where the stack was when the outermost call started.
    pub(crate) stack_base: usize,
    /// Calls made (the budget is looked at every so many).
    pub(crate) calls: u32,
    loops: u32,
}

impl<'a, H: Host> Run<'a, H> {
    /// A run over `heap` (emptied first).
    pub fn new(
        heap: &'a mut Heap,
        host: &'a mut H,
        params: &'a serde_json::Value,
        doc_fields: &'a [String],
        slots: usize,
    ) -> Run<'a, H> {
        heap.reset();
        // The slots' allocation is kept between runs.
        let mut vars = std::mem::take(&mut heap.slots);
        vars.clear();
        vars.resize(slots, Value::Null);
        Run {
            heap,
            host,
            params,
            doc_fields,
            slots: vars,
            captures: Vec::new(),
            functions: &[],
            depth: 0,
            stack_base: 0,
            calls: 0,
            loops: 0,
        }
    }

    /// The run with the script's functions.
    pub fn with_functions(mut self, functions: &'a [std::sync::Arc<Callable>]) -> Run<'a, H> {
        self.functions = functions;
        self
    }

    /// A run over `heap` as a previous run left it (a scripted metric's scripts keep
    /// their state there), its first slots set to `locals`.
    pub fn resume(
        heap: &'a mut Heap,
        host: &'a mut H,
        params: &'a serde_json::Value,
        doc_fields: &'a [String],
        slots: usize,
        locals: &[Value],
    ) -> Run<'a, H> {
        let mut vars = std::mem::take(&mut heap.slots);
        vars.clear();
        vars.resize(slots.max(locals.len()), Value::Null);
        vars[..locals.len()].clone_from_slice(locals);
        Run {
            heap,
            host,
            params,
            doc_fields,
            slots: vars,
            captures: Vec::new(),
            functions: &[],
            depth: 0,
            stack_base: 0,
            calls: 0,
            loops: 0,
        }
    }

    /// Runs `body`: the value of its `return`, or of its last statement when that is
    /// an expression, or `null`.
    pub fn run(&mut self, body: &[Stmt]) -> Result<Value, Halt> {
        let r = self.run_body(body);
        self.heap.slots = std::mem::take(&mut self.slots);
        r
    }

    pub(crate) fn run_body(&mut self, body: &[Stmt]) -> Result<Value, Halt> {
        match self.exec_block_last(body)? {
            Flow::Return(v) => Ok(v),
            _ => Ok(Value::Null),
        }
    }

    /// A body whose last statement is in "last source" position: an expression there is
    /// the body's value, as Painless returns it, also at the end of a block, of an `if`'s
    /// branches and of a `try`'s blocks.
    pub(crate) fn exec_block_last(&mut self, body: &[Stmt]) -> Result<Flow, Halt> {
        let Some((last, rest)) = body.split_last() else { return Ok(Flow::Normal) };
        for s in rest {
            match self.exec(s)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        match &last.kind {
            StmtKind::Expr(e) => Ok(Flow::Return(self.eval(e)?)),
            StmtKind::Block(b) => self.exec_block_last(b),
            StmtKind::If(c, a, b) => {
                if self.condition(c)? {
                    self.exec_block_last(std::slice::from_ref(a))
                } else if let Some(b) = b {
                    self.exec_block_last(std::slice::from_ref(b))
                } else {
                    Ok(Flow::Normal)
                }
            }
            StmtKind::Try(body, catches) => self.exec_try(body, catches, true),
            _ => self.exec(last),
        }
    }

    fn tick(&mut self, offset: usize) -> Result<(), Halt> {
        self.loops += 1;
        if self.loops > MAX_LOOP_COUNTER {
            return Err(Halt::at(offset, "painless_error", LOOP_LIMIT_MESSAGE));
        }
        if self.loops % BUDGET_EVERY == 0 {
            match crate::budget::check() {
                Err(_) => return Err(Halt::Cancelled),
                Ok(true) => return Err(Halt::TimedOut),
                Ok(false) => {}
            }
        }
        Ok(())
    }

    pub(crate) fn exec_block(&mut self, body: &[Stmt]) -> Result<Flow, Halt> {
        for s in body {
            match self.exec(s)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    fn exec(&mut self, s: &Stmt) -> Result<Flow, Halt> {
        match &s.kind {
            StmtKind::Expr(e) => {
                self.eval(e)?;
            }
            StmtKind::Decl(vars) => {
                for (ty, slot, init) in vars {
                    let v = match init {
                        Some(e) => {
                            let v = self.eval(e)?;
                            ops::implicit(v, *ty, e.offset)?
                        }
                        None => default_of(*ty),
                    };
                    self.slots[*slot] = v;
                }
            }
            StmtKind::If(c, a, b) => {
                if self.condition(c)? {
                    return self.exec(a);
                } else if let Some(b) = b {
                    return self.exec(b);
                }
            }
            StmtKind::While(c, body) => {
                while self.condition(c)? {
                    self.tick(s.offset)?;
                    match self.exec(body)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                }
            }
            StmtKind::DoWhile(body, c) => loop {
                self.tick(s.offset)?;
                match self.exec(body)? {
                    Flow::Break => break,
                    Flow::Return(v) => return Ok(Flow::Return(v)),
                    _ => {}
                }
                if !self.condition(c)? {
                    break;
                }
            },
            StmtKind::For(init, cond, update, body) => {
                if let Some(init) = init {
                    self.exec(init)?;
                }
                loop {
                    if let Some(c) = cond {
                        if !self.condition(c)? {
                            break;
                        }
                    }
                    self.tick(s.offset)?;
                    match self.exec(body)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                    for u in update {
                        self.eval(u)?;
                    }
                }
            }
            StmtKind::ForEach(ty, slot, iter, body) => {
                let items = self.iterate(iter)?;
                for item in items {
                    self.tick(s.offset)?;
                    self.slots[*slot] = ops::implicit(item, *ty, iter.offset)?;
                    match self.exec(body)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                }
            }
            StmtKind::Block(body) => return self.exec_block(body),
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            StmtKind::Return(v) => {
                let v = match v {
                    Some(e) => self.eval(e)?,
                    None => Value::Null,
                };
                return Ok(Flow::Return(v));
            }
            StmtKind::Empty => {}
            StmtKind::Try(body, catches) => return self.exec_try(body, catches, false),
            StmtKind::Throw(e) => {
                let v = self.eval(e)?;
                return Err(self.throw(v, s.offset));
            }
        }
        Ok(Flow::Normal)
    }

    /// The elements a for-each walks (a copy: Java would throw on concurrent changes).
    fn iterate(&mut self, e: &Expr) -> Result<Vec<Value>, Halt> {
        let v = self.eval(e)?;
        Ok(match v {
            Value::List(i) | Value::Array(i) => self.heap.lists[i as usize].clone(),
            Value::DocField(i) => self.heap.docs[i as usize].values.clone(),
            Value::Set(i) | Value::Map(i) => {
                // Iterating a map is a compile error in Painless unless it is a set;
                // a map's keySet()/values() give collections.
                if matches!(v, Value::Map(_)) {
                    return Err(Halt::at(
                        e.offset,
                        "illegal_argument_exception",
                        "Cannot iterate over [java.util.HashMap]",
                    ));
                }
                self.heap.maps[i as usize].iter_java().into_iter().map(|(k, _)| k).collect()
            }
            Value::Null => return Err(Halt::null_pointer(e.offset)),
            other => {
                return Err(Halt::at(
                    e.offset,
                    "illegal_argument_exception",
                    format!("Cannot iterate over [{}]", Heap::class_name(&other)),
                ))
            }
        })
    }

    fn condition(&mut self, e: &Expr) -> Result<bool, Halt> {
        match self.eval(e)? {
            Value::Bool(b) => Ok(b),
            Value::Null => Err(Halt::null_pointer(e.offset)),
            other => Err(Halt::at(
                e.offset,
                "class_cast_exception",
                format!("Cannot cast [{}] to [boolean].", Heap::class_name(&other)),
            )),
        }
    }

    /// Evaluates an expression.
    pub fn eval(&mut self, e: &Expr) -> Result<Value, Halt> {
        let off = e.offset;
        Ok(match &e.kind {
            ExprKind::Null => Value::Null,
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::Int(i) => Value::Int(*i),
            ExprKind::Long(l) => Value::Long(*l),
            ExprKind::Float(f) => Value::Float(*f),
            ExprKind::Double(d) => Value::Double(*d),
            ExprKind::Str(s) => Value::Str(s.clone()),
            ExprKind::Local(slot, _) => self.slots[*slot].clone(),
            ExprKind::Global(g) => match g {
                Global::Doc => Value::Doc,
                Global::Params => Value::Params,
                Global::Score => Value::Double(self.host.score(off)?),
                Global::Value => self.host.value(off)?,
                Global::Values => {
                    let window = self.host.window(off)?;
                    match self.heap.new_list(window.into_iter().map(Value::Double).collect(), off)? {
                        Value::List(i) => Value::Array(i),
                        other => other,
                    }
                }
            },
            ExprKind::DocValue(i) => {
                let name = &self.doc_fields[*i];
                self.host.doc_first(*i, name, off)?
            }
            ExprKind::DocField(i) => {
                let name = self.doc_fields[*i].clone();
                self.doc_field(&name, off)?
            }
            ExprKind::ListInit(items) => {
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(self.eval(x)?);
                }
                self.heap.new_list(out, off)?
            }
            ExprKind::MapInit(entries) => {
                let mut m = ScriptMap::default();
                for (k, v) in entries {
                    let k = self.eval(k)?;
                    let v = self.eval(v)?;
                    m.put(k, v);
                }
                self.heap.new_map(m, off)?
            }
            ExprKind::New(ty, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a)?);
                }
                api::construct(self.heap, *ty, vals, off)?
            }
            ExprKind::NewArray(ty, n) => {
                let n = match self.eval(n)? {
                    Value::Int(n) => n,
                    Value::Char(c) => c as i32,
                    _ => return Err(Halt::at(n.offset, "class_cast_exception", "array size must be an int")),
                };
                if n < 0 {
                    return Err(Halt::at(off, "negative_array_size_exception", n.to_string()));
                }
                self.heap.grow(n as usize, off)?;
                let items = vec![default_of(*ty); n as usize];
                self.heap.lists.push(items);
                Value::Array((self.heap.lists.len() - 1) as u32)
            }
            ExprKind::ArrayInit(items) => {
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(self.eval(x)?);
                }
                self.heap.grow(out.len() + 1, off)?;
                self.heap.lists.push(out);
                Value::Array((self.heap.lists.len() - 1) as u32)
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                ops::unary(*op, &v, off)?
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.eval(a)?;
                let b = self.eval(b)?;
                ops::binary(self.heap, *op, &a, &b, off)?
            }
            ExprKind::And(a, b) => Value::Bool(self.condition(a)? && self.condition(b)?),
            ExprKind::Or(a, b) => Value::Bool(self.condition(a)? || self.condition(b)?),
            ExprKind::Cond(c, a, b) => {
                if self.condition(c)? {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            ExprKind::Elvis(a, b) => match self.eval(a)? {
                Value::Null => self.eval(b)?,
                v => v,
            },
            ExprKind::Assign(target, op, value) => {
                let v = match op {
                    None => self.eval(value)?,
                    Some(op) => {
                        let old = self.eval(target)?;
                        let rhs = self.eval(value)?;
                        let v = ops::binary(self.heap, *op, &old, &rhs, off)?;
                        // A compound assignment casts back to the target's type (Java).
                        match (&target.kind, &old) {
                            (ExprKind::Local(_, ty), _) if *ty != Type::Def => ops::cast(v, *ty, off)?,
                            (_, Value::Int(_)) if matches!(v, Value::Long(_) | Value::Float(_) | Value::Double(_)) => {
                                if matches!(target.kind, ExprKind::Local(..)) {
                                    v
                                } else {
                                    ops::cast(v, Type::Int, off)?
                                }
                            }
                            _ => v,
                        }
                    }
                };
                self.store(target, v.clone(), op.is_some())?;
                v
            }
            ExprKind::IncDec(target, step, post) => {
                let old = self.eval(target)?;
                let new = ops::binary(self.heap, BinOp::Add, &old, &Value::Int(*step as i32), off)?;
                // `x++` keeps x's type (a char or byte stays one in Java).
                let new = match &old {
                    Value::Char(_) => ops::cast(new, Type::Char, off)?,
                    _ => new,
                };
                let new = match &target.kind {
                    ExprKind::Local(_, ty @ (Type::Byte | Type::Short)) => ops::cast(new, *ty, off)?,
                    _ => new,
                };
                self.store(target, new.clone(), true)?;
                if *post {
                    old
                } else {
                    new
                }
            }
            ExprKind::Cast(ty, x) => {
                let v = self.eval(x)?;
                ops::cast(v, *ty, off)?
            }
            ExprKind::InstanceOf(x, ty) => {
                let v = self.eval(x)?;
                Value::Bool(ops::instance_of(&v, *ty))
            }
            ExprKind::Field(recv, name, null_safe) => {
                let r = self.eval(recv)?;
                if r == Value::Null {
                    if *null_safe {
                        return Ok(Value::Null);
                    }
                    return Err(Halt::null_pointer(off));
                }
                self.field(r, name, off)?
            }
            ExprKind::Index(recv, idx) => {
                let r = self.eval(recv)?;
                let i = self.eval(idx)?;
                self.index(r, i, off)?
            }
            ExprKind::Call(recv, name, args, null_safe) => {
                let r = self.eval(recv)?;
                if r == Value::Null {
                    if *null_safe {
                        return Ok(Value::Null);
                    }
                    return Err(Halt::null_pointer(off));
                }
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a)?);
                }
                self.call(r, name, vals, off)?
            }
            // Math's one- and two-argument functions, the numeric path, without a Vec.
            ExprKind::Static(Class::Math, name, args) if args.len() <= 2 => {
                let mut vals = [Value::Null, Value::Null];
                for (slot, a) in vals.iter_mut().zip(args) {
                    *slot = self.eval(a)?;
                }
                api::math(self.heap, name, &vals[..args.len()], off)?
            }
            ExprKind::Static(class, name, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a)?);
                }
                if matches!(class, Class::Collections | Class::Comparator | Class::Collectors) {
                    if let Some(v) = self.call_static_extended(*class, name, &vals, off)? {
                        return Ok(v);
                    }
                }
                api::call_static(self.heap, *class, name, vals, off)?
            }
            ExprKind::StaticField(class, name) => api::static_field(*class, name, off)?,
            ExprKind::Capture(i, _) => self.captures[*i].clone(),
            ExprKind::Lambda(c) => self.make_lambda(c, off)?,
            ExprKind::FuncRef(r) => self.make_ref(r, off)?,
            ExprKind::CallFn(id, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a)?);
                }
                self.call_script_fn(*id, vals, off)?
            }
            ExprKind::Pattern(p) => self.pattern_value(p, off)?,
            ExprKind::RegexTest(whole, text, pattern) => {
                let text = self.eval(text)?;
                let pattern = self.eval(pattern)?;
                self.regex_test(*whole, &text, &pattern, off)?
            }
            ExprKind::NewException(class, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a)?);
                }
                self.new_exception(class, vals, off)?
            }
        })
    }

    fn doc_field(&mut self, name: &str, off: usize) -> Result<Value, Halt> {
        let dv = self.host.doc_values(name, off)?;
        self.heap.grow(dv.values.len() + 1, off)?;
        self.heap.docs.push(dv);
        Ok(Value::DocField((self.heap.docs.len() - 1) as u32))
    }

    fn params_get(&mut self, key: &Value, off: usize) -> Result<Value, Halt> {
        let Value::Str(k) = key else { return Ok(Value::Null) };
        if let Some(v) = self.host.param(k) {
            return Ok(v);
        }
        if &**k == "_source" {
            if let Some(v) = &self.heap.source {
                return Ok(v.clone());
            }
            let src = self.host.source(off)?;
            let v = self.heap.from_json(&src, 0, off)?;
            self.heap.source = Some(v.clone());
            return Ok(v);
        }
        if let Some(v) = self.host.param(k) {
            return Ok(v);
        }
        match self.params.get(&**k) {
            Some(j) => {
                let j = j.clone();
                self.heap.from_json(&j, 0, off)
            }
            None => Ok(Value::Null),
        }
    }

    /// `params.name`: numbers and booleans straight from the request's JSON, so the
    /// numeric path allocates nothing.
    fn params_field(&mut self, name: &str, off: usize) -> Result<Value, Halt> {
        if let Some(v) = self.host.param(name) {
            return Ok(v);
        }
        match self.params.get(name) {
            Some(serde_json::Value::Number(n)) => {
                if let Some(i) = n.as_i64() {
                    return Ok(i32::try_from(i).map(Value::Int).unwrap_or(Value::Long(i)));
                }
                if n.is_f64() {
                    return Ok(Value::Double(n.as_f64().unwrap_or(0.0)));
                }
            }
            Some(serde_json::Value::Bool(b)) => return Ok(Value::Bool(*b)),
            _ => {}
        }
        self.params_get(&Value::Str(name.into()), off)
    }

    /// The whole `params` as a map (for methods over it).
    fn params_map(&mut self, off: usize) -> Result<Value, Halt> {
        let p = self.params.clone();
        self.heap.from_json(&p, 0, off)
    }

    fn field(&mut self, r: Value, name: &str, off: usize) -> Result<Value, Halt> {
        match &r {
            Value::Map(i) => {
                return Ok(self.heap.maps[*i as usize].get(&Value::Str(name.into())).cloned().unwrap_or(Value::Null))
            }
            Value::Params => return self.params_field(name, off),
            Value::Doc => return self.doc_field(name, off),
            Value::DocField(i) => {
                let d = &self.heap.docs[*i as usize];
                match name {
                    "value" => return Ok(d.first()),
                    "values" => {
                        let vals = d.values.clone();
                        return self.heap.new_list(vals, off);
                    }
                    "empty" => return Ok(Value::Bool(d.values.is_empty())),
                    "length" => return Ok(Value::Int(d.values.len() as i32)),
                    "date" | "dates" => {
                        let getter = if name == "date" { "getDate" } else { "getDates" };
                        return self.call(r, getter, Vec::new(), off);
                    }
                    _ => {}
                }
            }
            Value::List(i) | Value::Array(i) if name == "length" => {
                return Ok(Value::Int(self.heap.lists[*i as usize].len() as i32))
            }
            _ => {}
        }
        // Painless's getter shortcut: x.foo is x.getFoo() (or x.isFoo()).
        let mut cap = String::with_capacity(name.len() + 3);
        let mut chars = name.chars();
        if let Some(c) = chars.next() {
            cap.extend(c.to_uppercase());
            cap.push_str(chars.as_str());
        }
        for prefix in ["get", "is"] {
            let getter = format!("{prefix}{cap}");
            if api::has_method(&r, &getter, 0) {
                return self.call(r, &getter, Vec::new(), off);
            }
        }
        // Lists (doc values among them) read `x.0` as `x.get(0)`; any other name is
        // Def.lookupGetter's list-shortcut error.
        if matches!(r, Value::List(_) | Value::DocField(_)) {
            return match name.parse::<i32>() {
                Ok(n) => api::list_get(self.heap, &r, n as i64, off),
                Err(_) => {
                    Err(Halt::at(off, "illegal_argument_exception", format!("Illegal list shortcut value [{name}].")))
                }
            };
        }
        Err(Halt::at(
            off,
            "illegal_argument_exception",
            format!("Unable to find dynamic field [{name}] for class [{}].", Heap::class_name(&r)),
        ))
    }

    fn index(&mut self, r: Value, i: Value, off: usize) -> Result<Value, Halt> {
        match &r {
            Value::Map(m) => Ok(self.heap.maps[*m as usize].get(&i).cloned().unwrap_or(Value::Null)),
            Value::Params => self.params_get(&i, off),
            Value::Doc => match &i {
                Value::Str(name) => {
                    let name = name.to_string();
                    self.doc_field(&name, off)
                }
                _ => Err(Halt::null_pointer(off)),
            },
            Value::List(_) | Value::Array(_) | Value::DocField(_) => {
                let n = api::index_arg(&i, off)?;
                api::list_get(self.heap, &r, n, off)
            }
            Value::Null => Err(Halt::null_pointer(off)),
            _ => Err(Halt::at(
                off,
                "illegal_argument_exception",
                format!("Attempting to address a non-array-like type [{}] as an array.", Heap::class_name(&r)),
            )),
        }
    }

    fn store(&mut self, target: &Expr, v: Value, compound: bool) -> Result<(), Halt> {
        let off = target.offset;
        match &target.kind {
            ExprKind::Local(slot, ty) => {
                self.slots[*slot] = if compound { v } else { ops::implicit(v, *ty, off)? };
                Ok(())
            }
            ExprKind::Field(recv, name, _) => {
                let r = self.eval(recv)?;
                match r {
                    Value::Map(m) => {
                        self.heap.grow(1, off)?;
                        self.heap.maps[m as usize].put(Value::Str(name.clone()), v);
                        Ok(())
                    }
                    Value::Null => Err(Halt::null_pointer(off)),
                    other => Err(read_only(&other, off)),
                }
            }
            ExprKind::Index(recv, idx) => {
                let r = self.eval(recv)?;
                let i = self.eval(idx)?;
                match r {
                    Value::Map(m) => {
                        self.heap.grow(1, off)?;
                        self.heap.maps[m as usize].put(i, v);
                        Ok(())
                    }
                    Value::List(l) | Value::Array(l) => {
                        let n = api::index_arg(&i, off)?;
                        let list = &mut self.heap.lists[l as usize];
                        let at = api::normalize(n, list.len(), off)?;
                        list[at] = v;
                        Ok(())
                    }
                    Value::Null => Err(Halt::null_pointer(off)),
                    other => Err(read_only(&other, off)),
                }
            }
            _ => Err(Halt::at(off, "illegal_argument_exception", "Left-hand side cannot be assigned a value.")),
        }
    }

    pub(crate) fn call(&mut self, r: Value, name: &str, args: Vec<Value>, off: usize) -> Result<Value, Halt> {
        if super::lambda::needs_run(&r, name, &args) {
            if let Some(v) = self.call_extended(&r, name, &args, off)? {
                return Ok(v);
            }
        }
        match (&r, name, args.len()) {
            (Value::Doc, "containsKey", 1) => {
                let Value::Str(f) = &args[0] else { return Ok(Value::Bool(false)) };
                let f = f.to_string();
                return Ok(Value::Bool(self.host.has_field(&f)));
            }
            (Value::Doc, "get", 1) => return self.index(Value::Doc, args[0].clone(), off),
            (Value::Params, "get", 1) => return self.params_get(&args[0], off),
            (Value::Params, "containsKey", 1) => {
                let has = match &args[0] {
                    Value::Str(k) => &**k == "_source" || self.params.get(&**k).is_some(),
                    _ => false,
                };
                return Ok(Value::Bool(has));
            }
            (Value::Params, _, _) => {
                let m = self.params_map(off)?;
                return api::call_method(self.heap, m, name, args, off);
            }
            _ => {}
        }
        api::call_method(self.heap, r, name, args, off)
    }
}

fn read_only(v: &Value, off: usize) -> Halt {
    Halt::at(off, "illegal_argument_exception", format!("Cannot assign to a member of [{}].", Heap::class_name(v)))
}

/// The value a declaration without an initialiser starts with.
pub fn default_of(ty: Type) -> Value {
    match ty {
        Type::Int | Type::Short | Type::Byte => Value::Int(0),
        Type::Long => Value::Long(0),
        Type::Float => Value::Float(0.0),
        Type::Double => Value::Double(0.0),
        Type::Char => Value::Char(0),
        Type::Boolean => Value::Bool(false),
        _ => Value::Null,
    }
}

/// Whether a number is integral (for API argument checks).
pub fn is_integral(v: &Value) -> bool {
    matches!(Num::of(v), Some(Num::I(_) | Num::L(_)))
}
