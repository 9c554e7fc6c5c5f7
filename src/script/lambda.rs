//! Functions in scripts: lambdas (with the values they capture), method references,
//! script functions (`int f(int x) { ... }`), comparators built from them, and the
//! allow-listed methods that take a functional interface (`List.sort`, `removeIf`,
//! `forEach`, `Map.computeIfAbsent` / `compute` / `merge`, `Collections.sort`, Painless's
//! `any` / `each` / `collect` / `find` / `findAll` / `groupBy` augmentations, ...).
//!
//! A call runs in a frame of its own (its parameters and locals; a lambda's captures
//! apart, read-only). Calls nest on the thread's stack, so their depth is bounded by the
//! stack they use: past [`MAX_CALL_STACK`] bytes, or [`MAX_CALL_DEPTH`] calls, the run
//! fails with Java's `StackOverflowError` as Painless lets it surface.

use super::api;
use super::ast::{Callable, Class, FuncRef, Type};
use super::error::{Halt, RuntimeError};
use super::interp::{Host, Run};
use super::ops;
use super::value::{Heap, ScriptMap, Value};
use std::cmp::Ordering;
use std::sync::Arc;

/// Stack bytes nested calls may take beyond where the first call started.
pub const MAX_CALL_STACK: usize = 1 << 20;
/// Calls that may nest.
pub const MAX_CALL_DEPTH: u32 = 2_000;
/// Calls between two looks at the request budget.
const BUDGET_EVERY: u32 = 4096;

/// A function value.
#[derive(Debug, Clone)]
pub enum Func {
    /// A lambda and the values it captured.
    Lambda(Arc<Callable>, Vec<Value>),
    /// `Class::name`.
    Class(Class, Arc<str>),
    /// `Type::name` / `Type::new`.
    Type(Type, Arc<str>),
    /// `this::name`.
    Script(Arc<str>),
    /// `x::name` with `x`'s value.
    Bound(Value, Arc<str>),
    /// `Comparator.naturalOrder()`.
    NaturalOrder,
    /// `Comparator.reverseOrder()` / `Collections.reverseOrder()`.
    ReverseOrder,
    /// `c.reversed()`.
    Reversed(Value),
    /// `c.thenComparing(d)`.
    Then(Value, Value),
    /// `Comparator.comparing(key)` / `comparing(key, c)`.
    Comparing(Value, Option<Value>),
    /// `pattern.asPredicate()`.
    PatternPredicate(u32),
    /// A stream collector (`Collectors.toList()`, ...).
    Collector(super::stream::Collector),
}

fn cce(v: &Value, to: &str, off: usize) -> Halt {
    if *v == Value::Null {
        return Halt::null_pointer(off);
    }
    Halt::at(off, "class_cast_exception", format!("Cannot cast [{}] to [{to}].", Heap::class_name(v)))
}

fn stack_overflow(off: usize) -> Halt {
    Halt::Error(Box::new(RuntimeError { offset: off, kind: "stack_overflow_error", message: None }))
}

/// Whether a call needs more than the plain API (a function argument, or a receiver
/// whose methods live here).
pub fn needs_run(r: &Value, name: &str, args: &[Value]) -> bool {
    matches!(r, Value::Func(_) | Value::Pattern(_) | Value::Matcher(_) | Value::Exception(_) | Value::Stream(_))
        || (name == "stream" && args.is_empty())
        || args.iter().any(|a| matches!(a, Value::Func(_) | Value::Pattern(_)))
        || (name == "sort" && args.len() == 1 && args[0] == Value::Null)
}

/// An address on the current stack (how deep the thread's stack is).
#[inline(never)]
fn stack_mark() -> usize {
    let probe = 0u8;
    std::ptr::addr_of!(probe) as usize
}

/// A stable merge sort whose comparison may fail (a script's comparator), and which
/// cannot panic whatever the comparator answers.
fn merge_sort(
    items: Vec<Value>,
    cmp: &mut dyn FnMut(&Value, &Value) -> Result<Ordering, Halt>,
) -> Result<Vec<Value>, Halt> {
    if items.len() <= 1 {
        return Ok(items);
    }
    let mut run = items;
    let mut width = 1;
    let n = run.len();
    while width < n {
        let mut out = Vec::with_capacity(n);
        let mut iter = run.into_iter().peekable();
        let mut taken = 0;
        while taken < n {
            let left: Vec<Value> = iter.by_ref().take(width).collect();
            let right: Vec<Value> = iter.by_ref().take(width).collect();
            taken += left.len() + right.len();
            let (mut i, mut j) = (0, 0);
            while i < left.len() && j < right.len() {
                if cmp(&right[j], &left[i])? == Ordering::Less {
                    out.push(right[j].clone());
                    j += 1;
                } else {
                    out.push(left[i].clone());
                    i += 1;
                }
            }
            out.extend_from_slice(&left[i..]);
            out.extend_from_slice(&right[j..]);
        }
        run = out;
        width *= 2;
    }
    Ok(run)
}

impl<H: Host> Run<'_, H> {
    /// A function value in the heap.
    pub(crate) fn new_func(&mut self, f: Func, off: usize) -> Result<Value, Halt> {
        self.heap.grow(1, off)?;
        self.heap.funcs.push(f);
        Ok(Value::Func((self.heap.funcs.len() - 1) as u32))
    }

    /// A lambda, capturing the current values of what it reads from its frame.
    pub(crate) fn make_lambda(&mut self, c: &Arc<Callable>, off: usize) -> Result<Value, Halt> {
        let mut captured = Vec::with_capacity(c.captures.len());
        for e in &c.captures {
            captured.push(self.eval(e)?);
        }
        self.new_func(Func::Lambda(c.clone(), captured), off)
    }

    /// A method reference's value.
    pub(crate) fn make_ref(&mut self, r: &FuncRef, off: usize) -> Result<Value, Halt> {
        let f = match r {
            FuncRef::Class(c, n) => Func::Class(*c, n.clone()),
            FuncRef::Type(t, n) => Func::Type(*t, n.clone()),
            FuncRef::Script(n) => Func::Script(n.clone()),
            FuncRef::Bound(e, n) => {
                let v = self.eval(e)?;
                if v == Value::Null {
                    return Err(Halt::null_pointer(off));
                }
                Func::Bound(v, n.clone())
            }
        };
        self.new_func(f, off)
    }

    /// Calls script function `id` with `args`.
    pub(crate) fn call_script_fn(&mut self, id: usize, args: Vec<Value>, off: usize) -> Result<Value, Halt> {
        let f = self.functions[id].clone();
        self.call_callable(&f, args, Vec::new(), off)
    }

    /// Runs a lambda or function body in a new frame.
    fn call_callable(
        &mut self,
        c: &Callable,
        args: Vec<Value>,
        captured: Vec<Value>,
        off: usize,
    ) -> Result<Value, Halt> {
        if args.len() != c.params.len() {
            return Err(Halt::at(
                off,
                "illegal_argument_exception",
                format!(
                    "Incorrect number of parameters for [{}]: expected [{}] but found [{}].",
                    c.name,
                    c.params.len(),
                    args.len()
                ),
            ));
        }
        let here = stack_mark();
        if self.depth == 0 {
            self.stack_base = here;
        }
        if self.depth >= MAX_CALL_DEPTH || self.stack_base.abs_diff(here) > MAX_CALL_STACK {
            return Err(stack_overflow(off));
        }
        self.calls = self.calls.wrapping_add(1);
        if self.calls % BUDGET_EVERY == 0 {
            match crate::budget::check() {
                Err(_) => return Err(Halt::Cancelled),
                Ok(true) => return Err(Halt::TimedOut),
                Ok(false) => {}
            }
        }
        let mut frame = vec![Value::Null; c.slots.max(c.params.len())];
        for (i, (v, ty)) in args.into_iter().zip(&c.params).enumerate() {
            frame[i] = ops::implicit(v, *ty, off)?;
        }
        let outer_slots = std::mem::replace(&mut self.slots, frame);
        let outer_captures = std::mem::replace(&mut self.captures, captured);
        self.depth += 1;
        let r = self.run_body(&c.body);
        self.depth -= 1;
        self.slots = outer_slots;
        self.captures = outer_captures;
        let v = r?;
        match c.ret {
            None => Ok(Value::Null),
            Some(ty) => ops::implicit(v, ty, off),
        }
    }

    /// Calls a function value with `args`.
    pub(crate) fn invoke(&mut self, f: &Value, mut args: Vec<Value>, off: usize) -> Result<Value, Halt> {
        let Value::Func(i) = f else { return Err(cce(f, "java.util.function.Function", off)) };
        let func = self.heap.funcs[*i as usize].clone();
        match func {
            Func::Lambda(c, captured) => self.call_callable(&c, args, captured, off),
            Func::Class(class, name) => match api::call_static(self.heap, class, &name, args.clone(), off) {
                // Not a static method: an instance method of the first argument.
                Err(Halt::Error(e))
                    if !args.is_empty() && e.message.as_deref().is_some_and(|m| m.starts_with("Unknown call [")) =>
                {
                    let recv = args.remove(0);
                    self.call_on(recv, &name, args, off)
                }
                other => other,
            },
            Func::Type(ty, name) => {
                if &*name == "new" {
                    return api::construct(self.heap, ty, args, off);
                }
                if args.is_empty() {
                    return Err(Halt::at(
                        off,
                        "illegal_argument_exception",
                        format!("Unknown method reference [{name}]."),
                    ));
                }
                let recv = args.remove(0);
                self.call_on(recv, &name, args, off)
            }
            Func::Script(name) => {
                let found = self.functions.iter().position(|c| *c.name == *name && c.params.len() == args.len());
                match found {
                    Some(id) => self.call_script_fn(id, args, off),
                    None => Err(Halt::at(
                        off,
                        "illegal_argument_exception",
                        format!("Unknown function [{name}] with [{}] arguments.", args.len()),
                    )),
                }
            }
            Func::Bound(recv, name) => self.call_on(recv, &name, args, off),
            Func::NaturalOrder | Func::ReverseOrder => {
                let [a, b] = two(&args, off)?;
                let o = api::compare(a, b, off)?;
                let o = if matches!(func, Func::ReverseOrder) { o.reverse() } else { o };
                Ok(Value::Int(o as i32))
            }
            Func::Reversed(c) => {
                let o = self.comparison(&c, &args, off)?;
                Ok(Value::Int(o.reverse() as i32))
            }
            Func::Then(c, d) => {
                let o = self.comparison(&c, &args, off)?;
                if o != Ordering::Equal {
                    return Ok(Value::Int(o as i32));
                }
                let o = self.comparison(&d, &args, off)?;
                Ok(Value::Int(o as i32))
            }
            Func::Comparing(key, c) => {
                let [a, b] = two(&args, off)?;
                let ka = self.invoke(&key, vec![a.clone()], off)?;
                let kb = self.invoke(&key, vec![b.clone()], off)?;
                let o = match c {
                    Some(c) => self.comparison(&c, &[ka, kb], off)?,
                    None => api::compare(&ka, &kb, off)?,
                };
                Ok(Value::Int(o as i32))
            }
            Func::PatternPredicate(p) => self.pattern_predicate(p, &args, off),
            Func::Collector(_) => Err(Halt::at(off, "illegal_argument_exception", "a collector is not a function")),
        }
    }

    /// A method call on a value (`null` fails as Java does).
    fn call_on(&mut self, recv: Value, name: &str, args: Vec<Value>, off: usize) -> Result<Value, Halt> {
        if recv == Value::Null {
            return Err(Halt::null_pointer(off));
        }
        self.call(recv, name, args, off)
    }

    /// A comparator's answer for `args` (two values): its sign.
    fn comparison(&mut self, c: &Value, args: &[Value], off: usize) -> Result<Ordering, Halt> {
        if *c == Value::Null {
            let [a, b] = two(args, off)?;
            return api::compare(a, b, off);
        }
        let v = self.invoke(c, args.to_vec(), off)?;
        match ops::implicit(v, Type::Int, off)? {
            Value::Int(n) => Ok(n.cmp(&0)),
            other => Err(cce(&other, "int", off)),
        }
    }

    /// A comparator's answer for `a` and `b` (`null`: natural order).
    pub(crate) fn comparison_of(&mut self, c: &Value, a: &Value, b: &Value, off: usize) -> Result<Ordering, Halt> {
        self.comparison(c, &[a.clone(), b.clone()], off)
    }

    /// A predicate's answer.
    pub(crate) fn test(&mut self, p: &Value, args: Vec<Value>, off: usize) -> Result<bool, Halt> {
        match self.invoke(p, args, off)? {
            Value::Bool(b) => Ok(b),
            other => Err(cce(&other, "boolean", off)),
        }
    }

    /// Sorts `items` with comparator `c` (`null`: natural order).
    pub(crate) fn sorted(&mut self, items: Vec<Value>, c: &Value, off: usize) -> Result<Vec<Value>, Halt> {
        merge_sort(items, &mut |a, b| self.comparison(c, &[a.clone(), b.clone()], off))
    }

    /// The methods that take functions, on collections, maps, functions, regexes and
    /// exceptions; `None` when `name` is none of them (the plain API answers).
    pub(crate) fn call_extended(
        &mut self,
        r: &Value,
        name: &str,
        args: &[Value],
        off: usize,
    ) -> Result<Option<Value>, Halt> {
        let argc = args.len();
        let v = match r {
            Value::Pattern(i) => self.pattern_method(*i, name, args, off)?,
            Value::Matcher(i) => self.matcher_method(*i, name, args, off)?,
            Value::Exception(i) => super::exceptions::call_method(self.heap, *i, name, argc, off)?,
            Value::Stream(i) => self.stream_method(*i, name, args, off)?,
            Value::Func(i) => match (name, argc) {
                ("reversed", 0) => self.new_func(Func::Reversed(r.clone()), off)?,
                ("thenComparing", 1) => {
                    let then = match &args[0] {
                        Value::Func(_) if self.is_key_extractor(&args[0]) => {
                            self.new_func(Func::Comparing(args[0].clone(), None), off)?
                        }
                        other => other.clone(),
                    };
                    self.new_func(Func::Then(r.clone(), then), off)?
                }
                ("equals", 1) => Value::Bool(*r == args[0]),
                ("toString", 0) => {
                    let s = self.heap.to_string(r, 0);
                    self.heap.new_str(s, off)?
                }
                _ => {
                    let _ = i;
                    self.invoke(r, args.to_vec(), off)?
                }
            },
            Value::Str(s) => match (name, argc) {
                ("replaceAll" | "replaceFirst", 2) => self.string_replace(s, name == "replaceAll", args, off)?,
                _ => return Ok(None),
            },
            Value::List(_) | Value::Set(_) | Value::DocField(_) | Value::Array(_) => {
                match self.collection_method(r, name, args, off)? {
                    Some(v) => v,
                    None => return Ok(None),
                }
            }
            Value::Map(i) => match self.map_method(*i, name, args, off)? {
                Some(v) => v,
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    /// Whether a function takes one argument (a key extractor, not a comparator).
    fn is_key_extractor(&self, f: &Value) -> bool {
        let Value::Func(i) = f else { return false };
        matches!(&self.heap.funcs[*i as usize], Func::Lambda(c, _) if c.params.len() == 1)
            || matches!(&self.heap.funcs[*i as usize], Func::Type(..))
    }

    fn elements_of(&self, r: &Value) -> Vec<Value> {
        match r {
            Value::List(i) | Value::Array(i) => self.heap.lists[*i as usize].clone(),
            Value::DocField(i) => self.heap.docs[*i as usize].values.clone(),
            Value::Set(i) => self.heap.maps[*i as usize].iter_java().into_iter().map(|(k, _)| k).collect(),
            _ => Vec::new(),
        }
    }

    fn collection_method(&mut self, r: &Value, name: &str, args: &[Value], off: usize) -> Result<Option<Value>, Halt> {
        let items = self.elements_of(r);
        let read_only = matches!(r, Value::DocField(_) | Value::Array(_));
        let f = || args.last().cloned().unwrap_or(Value::Null);
        Ok(Some(match (name, args.len()) {
            ("stream", 0) => self.new_stream(items, None, off)?,
            ("sort", 1) if matches!(r, Value::List(_)) => {
                let Value::List(i) = r else { return Ok(None) };
                let sorted = self.sorted(items, &args[0], off)?;
                self.heap.lists[*i as usize] = sorted;
                Value::Null
            }
            ("removeIf", 1) if !read_only => {
                let mut keep = Vec::with_capacity(items.len());
                let mut removed = false;
                for x in items {
                    if self.test(&args[0], vec![x.clone()], off)? {
                        removed = true;
                    } else {
                        keep.push(x);
                    }
                }
                match r {
                    Value::List(i) => self.heap.lists[*i as usize] = keep,
                    Value::Set(i) => {
                        let mut m = ScriptMap::default();
                        for x in keep {
                            m.put(x, Value::Null);
                        }
                        self.heap.maps[*i as usize] = m;
                    }
                    _ => {}
                }
                Value::Bool(removed)
            }
            ("replaceAll", 1) if matches!(r, Value::List(_)) => {
                let Value::List(i) = r else { return Ok(None) };
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(self.invoke(&args[0], vec![x], off)?);
                }
                self.heap.lists[*i as usize] = out;
                Value::Null
            }
            ("forEach" | "each", 1) => {
                for x in items {
                    self.invoke(&args[0], vec![x], off)?;
                }
                if name == "each" {
                    r.clone()
                } else {
                    Value::Null
                }
            }
            ("any" | "every", 1) => {
                let want = name == "any";
                for x in items {
                    if self.test(&args[0], vec![x], off)? == want {
                        return Ok(Some(Value::Bool(want)));
                    }
                }
                Value::Bool(!want)
            }
            ("find", 1) => {
                for x in items {
                    if self.test(&args[0], vec![x.clone()], off)? {
                        return Ok(Some(x));
                    }
                }
                Value::Null
            }
            ("findAll", 1) => {
                let mut out = Vec::new();
                for x in items {
                    if self.test(&args[0], vec![x.clone()], off)? {
                        out.push(x);
                    }
                }
                self.heap.new_list(out, off)?
            }
            ("collect", 1) | ("collect", 2) => {
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(self.invoke(&f(), vec![x], off)?);
                }
                if args.len() == 2 {
                    for x in out {
                        api::call_method(self.heap, args[0].clone(), "add", vec![x], off)?;
                    }
                    args[0].clone()
                } else {
                    self.heap.new_list(out, off)?
                }
            }
            ("findResult", 1) => {
                for x in items {
                    let v = self.invoke(&args[0], vec![x], off)?;
                    if v != Value::Null {
                        return Ok(Some(v));
                    }
                }
                Value::Null
            }
            ("sum", 1) => {
                let mut total = 0.0;
                for x in items {
                    let v = self.invoke(&args[0], vec![x], off)?;
                    total += ops::Num::of(&v).ok_or_else(|| cce(&v, "double", off))?.f64();
                }
                Value::Double(total)
            }
            ("groupBy", 1) => {
                let mut groups = ScriptMap::default();
                for x in items {
                    let k = self.invoke(&args[0], vec![x.clone()], off)?;
                    match groups.get(&k).cloned() {
                        Some(Value::List(l)) => {
                            self.heap.grow(1, off)?;
                            self.heap.lists[l as usize].push(x);
                        }
                        _ => {
                            let l = self.heap.new_list(vec![x], off)?;
                            groups.put(k, l);
                        }
                    }
                }
                self.heap.new_map(groups, off)?
            }
            ("split", 1) => {
                let (mut yes, mut no) = (Vec::new(), Vec::new());
                for x in items {
                    if self.test(&args[0], vec![x.clone()], off)? {
                        yes.push(x);
                    } else {
                        no.push(x);
                    }
                }
                let (a, b) = (self.heap.new_list(yes, off)?, self.heap.new_list(no, off)?);
                self.heap.new_list(vec![a, b], off)?
            }
            _ if read_only && matches!(name, "sort" | "removeIf" | "replaceAll") => {
                return Err(Halt::at(
                    off,
                    "unsupported_operation_exception",
                    format!("doc values are read-only: [{name}]"),
                ))
            }
            _ => return Ok(None),
        }))
    }

    fn map_method(&mut self, i: u32, name: &str, args: &[Value], off: usize) -> Result<Option<Value>, Halt> {
        let at = i as usize;
        let get = |run: &Self, k: &Value| run.heap.maps[at].get(k).cloned().unwrap_or(Value::Null);
        Ok(Some(match (name, args.len()) {
            ("forEach" | "each", 1) => {
                for (k, v) in self.heap.maps[at].iter_java() {
                    self.invoke(&args[0], vec![k, v], off)?;
                }
                if name == "each" {
                    Value::Map(i)
                } else {
                    Value::Null
                }
            }
            ("computeIfAbsent", 2) => {
                let old = get(self, &args[0]);
                if old != Value::Null {
                    return Ok(Some(old));
                }
                let v = self.invoke(&args[1], vec![args[0].clone()], off)?;
                if v != Value::Null {
                    self.heap.grow(1, off)?;
                    self.heap.maps[at].put(args[0].clone(), v.clone());
                }
                v
            }
            ("computeIfPresent" | "compute", 2) => {
                let old = get(self, &args[0]);
                if name == "computeIfPresent" && old == Value::Null {
                    return Ok(Some(Value::Null));
                }
                let v = self.invoke(&args[1], vec![args[0].clone(), old], off)?;
                self.store_or_remove(at, &args[0], v.clone(), off)?;
                v
            }
            ("merge", 3) => {
                let old = get(self, &args[0]);
                let v = if old == Value::Null {
                    args[1].clone()
                } else {
                    self.invoke(&args[2], vec![old, args[1].clone()], off)?
                };
                self.store_or_remove(at, &args[0], v.clone(), off)?;
                v
            }
            ("replaceAll", 1) => {
                for (k, v) in self.heap.maps[at].iter_java() {
                    let nv = self.invoke(&args[0], vec![k.clone(), v], off)?;
                    self.heap.maps[at].put(k, nv);
                }
                Value::Null
            }
            ("any" | "every" | "count", 1) => {
                let mut n = 0;
                for (k, v) in self.heap.maps[at].iter_java() {
                    let hit = self.test(&args[0], vec![k, v], off)?;
                    match name {
                        "any" if hit => return Ok(Some(Value::Bool(true))),
                        "every" if !hit => return Ok(Some(Value::Bool(false))),
                        _ => n += i32::from(hit),
                    }
                }
                match name {
                    "any" => Value::Bool(false),
                    "every" => Value::Bool(true),
                    _ => Value::Int(n),
                }
            }
            ("findAll", 1) => {
                let mut out = ScriptMap::default();
                for (k, v) in self.heap.maps[at].iter_java() {
                    if self.test(&args[0], vec![k.clone(), v.clone()], off)? {
                        out.put(k, v);
                    }
                }
                self.heap.new_map(out, off)?
            }
            ("collect", 1) => {
                let mut out = Vec::new();
                for (k, v) in self.heap.maps[at].iter_java() {
                    out.push(self.invoke(&args[0], vec![k, v], off)?);
                }
                self.heap.new_list(out, off)?
            }
            _ => return Ok(None),
        }))
    }

    /// Java's `Map.compute` ending: a `null` value removes the key.
    fn store_or_remove(&mut self, at: usize, k: &Value, v: Value, off: usize) -> Result<(), Halt> {
        if v == Value::Null {
            self.heap.maps[at].remove(k);
        } else {
            self.heap.grow(1, off)?;
            self.heap.maps[at].put(k.clone(), v);
        }
        Ok(())
    }

    /// Static methods that take or make functions (`Collections.sort(list, c)`,
    /// `Comparator.comparing(...)`, ...); `None` for the plain API's.
    pub(crate) fn call_static_extended(
        &mut self,
        class: Class,
        name: &str,
        args: &[Value],
        off: usize,
    ) -> Result<Option<Value>, Halt> {
        Ok(Some(match (class, name, args.len()) {
            (Class::Collections, "sort", 2) => {
                let Value::List(i) = &args[0] else { return Err(cce(&args[0], "java.util.List", off)) };
                let items = self.heap.lists[*i as usize].clone();
                let sorted = self.sorted(items, &args[1], off)?;
                self.heap.lists[*i as usize] = sorted;
                Value::Null
            }
            (Class::Collections, "reverseOrder", 0) | (Class::Comparator, "reverseOrder", 0) => {
                self.new_func(Func::ReverseOrder, off)?
            }
            (Class::Comparator, "naturalOrder", 0) => self.new_func(Func::NaturalOrder, off)?,
            (Class::Comparator, "comparing" | "comparingInt" | "comparingLong" | "comparingDouble", 1) => {
                self.new_func(Func::Comparing(args[0].clone(), None), off)?
            }
            (Class::Comparator, "comparing", 2) => {
                self.new_func(Func::Comparing(args[0].clone(), Some(args[1].clone())), off)?
            }
            (Class::Collectors, _, _) => return self.collector(name, args, off).map(Some),
            (Class::Comparator, _, n) => {
                return Err(Halt::at(
                    off,
                    "illegal_argument_exception",
                    format!("Unknown call [{name}] with [{n}] arguments on type [Comparator]."),
                ))
            }
            _ => return Ok(None),
        }))
    }
}

fn two(args: &[Value], off: usize) -> Result<[&Value; 2], Halt> {
    match args {
        [a, b] => Ok([a, b]),
        _ => Err(Halt::at(off, "illegal_argument_exception", "a comparator takes two arguments")),
    }
}
