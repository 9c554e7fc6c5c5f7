//! Streams as Painless allow-lists them (`java.util.stream`): `list.stream()` and its
//! pipeline, run eagerly over a copy of the elements (scripts' collections are small and
//! bounded by the heap): `filter`, `map`, `mapToInt` / `mapToLong` / `mapToDouble` /
//! `mapToObj`, `boxed`, `sorted`, `distinct`, `limit`, `skip`, `peek`, and the terminal
//! `forEach`, `anyMatch` / `allMatch` / `noneMatch`, `count`, `sum`, `reduce(identity, op)`,
//! `collect(Collectors.toList() / toSet() / joining(...) / groupingBy(f) / counting())`,
//! `toArray`. Methods answering an `Optional` (`max`, `findFirst`, `average`, ...) are not
//! allow-listed here and fail as an unknown method.

use super::error::Halt;
use super::interp::{Host, Run};
use super::lambda::Func;
use super::ops::{self, Num};
use super::value::{Heap, ScriptMap, Value};

/// The primitive a stream holds, when it is an `IntStream`, `LongStream` or `DoubleStream`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prim {
    /// `IntStream`
    Int,
    /// `LongStream`
    Long,
    /// `DoubleStream`
    Double,
}

/// A stream's elements (already computed) and its kind.
#[derive(Debug, Clone)]
pub struct StreamState {
    /// The elements.
    pub items: Vec<Value>,
    /// `None` for a `Stream` of objects.
    pub prim: Option<Prim>,
}

/// What `collect` builds.
#[derive(Debug, Clone)]
pub enum Collector {
    /// `Collectors.toList()`
    ToList,
    /// `Collectors.toSet()`
    ToSet,
    /// `Collectors.joining(sep, prefix, suffix)`
    Joining(String, String, String),
    /// `Collectors.counting()`
    Counting,
    /// `Collectors.groupingBy(key)`: lists by key.
    GroupingBy(Value),
}

fn unknown(name: &str, argc: usize, off: usize) -> Halt {
    Halt::at(
        off,
        "illegal_argument_exception",
        format!("Unable to find dynamic method [{name}] with [{argc}] arguments for class [java.util.stream.Stream]."),
    )
}

fn to_prim(v: Value, prim: Prim, off: usize) -> Result<Value, Halt> {
    let ty = match prim {
        Prim::Int => super::ast::Type::Int,
        Prim::Long => super::ast::Type::Long,
        Prim::Double => super::ast::Type::Double,
    };
    ops::implicit(v, ty, off)
}

impl<H: Host> Run<'_, H> {
    /// A new stream of `items`.
    pub(crate) fn new_stream(&mut self, items: Vec<Value>, prim: Option<Prim>, off: usize) -> Result<Value, Halt> {
        self.heap.grow(items.len() + 1, off)?;
        self.heap.streams.push(StreamState { items, prim });
        Ok(Value::Stream((self.heap.streams.len() - 1) as u32))
    }

    /// `Collectors.name(args)`.
    pub(crate) fn collector(&mut self, name: &str, args: &[Value], off: usize) -> Result<Value, Halt> {
        let text = |heap: &Heap, i: usize| args.get(i).map(|v| heap.to_string(v, 0)).unwrap_or_default();
        let c = match (name, args.len()) {
            ("toList", 0) => Collector::ToList,
            ("toSet", 0) => Collector::ToSet,
            ("joining", 0 | 1 | 3) => Collector::Joining(text(self.heap, 0), text(self.heap, 1), text(self.heap, 2)),
            ("counting", 0) => Collector::Counting,
            ("groupingBy", 1) => Collector::GroupingBy(args[0].clone()),
            _ => {
                return Err(Halt::at(
                    off,
                    "illegal_argument_exception",
                    format!("Unknown call [{name}] with [{}] arguments on type [Collectors].", args.len()),
                ))
            }
        };
        self.new_func(Func::Collector(c), off)
    }

    /// Methods of a stream.
    pub(crate) fn stream_method(&mut self, i: u32, name: &str, args: &[Value], off: usize) -> Result<Value, Halt> {
        let StreamState { items, prim } = self.heap.streams[i as usize].clone();
        let f = || args.first().cloned().unwrap_or(Value::Null);
        match (name, args.len()) {
            ("filter", 1) => {
                let mut out = Vec::new();
                for x in items {
                    if self.test(&f(), vec![x.clone()], off)? {
                        out.push(x);
                    }
                }
                self.new_stream(out, prim, off)
            }
            ("map" | "mapToInt" | "mapToLong" | "mapToDouble" | "mapToObj" | "peek", 1) => {
                let to = match name {
                    "mapToInt" => Some(Prim::Int),
                    "mapToLong" => Some(Prim::Long),
                    "mapToDouble" => Some(Prim::Double),
                    "mapToObj" => None,
                    _ => prim,
                };
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    let v = self.invoke(&f(), vec![x.clone()], off)?;
                    out.push(match (name, to) {
                        ("peek", _) => x,
                        (_, Some(p)) => to_prim(v, p, off)?,
                        (_, None) => v,
                    });
                }
                self.new_stream(out, to, off)
            }
            ("boxed", 0) => self.new_stream(items, None, off),
            ("sorted", 0 | 1) => {
                let sorted = self.sorted(items, &args.first().cloned().unwrap_or(Value::Null), off)?;
                self.new_stream(sorted, prim, off)
            }
            ("distinct", 0) => {
                let mut seen = ScriptMap::default();
                let mut out = Vec::new();
                for x in items {
                    if seen.put(x.clone(), Value::Null).is_none() {
                        out.push(x);
                    }
                }
                self.new_stream(out, prim, off)
            }
            ("limit" | "skip", 1) => {
                let n = super::api::index_arg(&args[0], off)?;
                if n < 0 {
                    return Err(Halt::at(off, "illegal_argument_exception", n.to_string()));
                }
                let n = (n as usize).min(items.len());
                let out = if name == "limit" { items[..n].to_vec() } else { items[n..].to_vec() };
                self.new_stream(out, prim, off)
            }
            ("forEach", 1) => {
                for x in items {
                    self.invoke(&f(), vec![x], off)?;
                }
                Ok(Value::Null)
            }
            ("anyMatch" | "allMatch" | "noneMatch", 1) => {
                for x in items {
                    let hit = self.test(&f(), vec![x], off)?;
                    match (name, hit) {
                        ("anyMatch", true) => return Ok(Value::Bool(true)),
                        ("allMatch", false) | ("noneMatch", true) => return Ok(Value::Bool(false)),
                        _ => {}
                    }
                }
                Ok(Value::Bool(name != "anyMatch"))
            }
            ("count", 0) => Ok(Value::Long(items.len() as i64)),
            ("sum", 0) if prim == Some(Prim::Double) => {
                // DoubleStream.sum: Kahan summation, as Java 8 to 17 finish it.
                let (mut sum, mut c, mut simple) = (0.0f64, 0.0f64, 0.0f64);
                for x in items {
                    let v = Num::of(&x).map_or(0.0, Num::f64);
                    let tmp = v - c;
                    let velvel = sum + tmp;
                    c = (velvel - sum) - tmp;
                    sum = velvel;
                    simple += v;
                }
                let total = sum + c;
                Ok(Value::Double(if total.is_nan() && simple.is_infinite() { simple } else { total }))
            }
            ("sum", 0) if prim.is_some() => {
                let mut acc = match prim {
                    Some(Prim::Int) => Value::Int(0),
                    Some(Prim::Long) => Value::Long(0),
                    _ => Value::Double(0.0),
                };
                for x in items {
                    acc = ops::binary(self.heap, super::ast::BinOp::Add, &acc, &x, off)?;
                }
                Ok(acc)
            }
            ("reduce", 2) => {
                let mut acc = args[0].clone();
                for x in items {
                    acc = self.invoke(&args[1], vec![acc, x], off)?;
                }
                Ok(acc)
            }
            ("toArray", 0) => {
                self.heap.grow(items.len() + 1, off)?;
                self.heap.lists.push(items);
                Ok(Value::Array((self.heap.lists.len() - 1) as u32))
            }
            ("collect", 1) => {
                let Value::Func(c) = &args[0] else { return Err(unknown(name, 1, off)) };
                let Func::Collector(c) = self.heap.funcs[*c as usize].clone() else {
                    return Err(unknown(name, 1, off));
                };
                self.collect(items, c, off)
            }
            _ => Err(unknown(name, args.len(), off)),
        }
    }

    fn collect(&mut self, items: Vec<Value>, c: Collector, off: usize) -> Result<Value, Halt> {
        match c {
            Collector::ToList => self.heap.new_list(items, off),
            Collector::ToSet => {
                let mut m = ScriptMap::default();
                for x in items {
                    m.put(x, Value::Null);
                }
                match self.heap.new_map(m, off)? {
                    Value::Map(j) => Ok(Value::Set(j)),
                    v => Ok(v),
                }
            }
            Collector::Joining(sep, prefix, suffix) => {
                let mut parts = Vec::with_capacity(items.len());
                for x in &items {
                    match x {
                        Value::Str(_) => parts.push(self.heap.to_string(x, 0)),
                        other => {
                            return Err(Halt::at(
                                off,
                                "class_cast_exception",
                                format!("Cannot cast [{}] to [java.lang.CharSequence].", Heap::class_name(other)),
                            ))
                        }
                    }
                }
                self.heap.new_str(format!("{prefix}{}{suffix}", parts.join(&sep)), off)
            }
            Collector::Counting => Ok(Value::Long(items.len() as i64)),
            Collector::GroupingBy(key) => {
                let mut groups = ScriptMap::default();
                for x in items {
                    let k = self.invoke(&key, vec![x.clone()], off)?;
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
                self.heap.new_map(groups, off)
            }
        }
    }
}
