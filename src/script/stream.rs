//! Streams as Painless allow-lists them (`java.util.stream`): `list.stream()` and its
//! pipeline, run eagerly over a copy of the elements (scripts' collections are small and
//! bounded by the heap): `filter`, `map`, `mapToInt` / `mapToLong` / `mapToDouble` /
//! `mapToObj`, `boxed`, `sorted`, `distinct`, `limit`, `skip`, `peek`, and the terminal
//! `forEach`, `anyMatch` / `allMatch` / `noneMatch`, `count`, `sum`, `reduce`, `max`,
//! `min`, `average`, `findFirst` (those four as `Optional`s),
//! `collect(Collectors.toList() / toSet() / joining(...) / groupingBy(f) / counting())`,
//! `toArray`.

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

/// A stream's elements (already computed) and its kind; or an `Optional` (at most one
/// element), which terminal operations answer.
#[derive(Debug, Clone)]
pub struct StreamState {
    /// The elements.
    pub items: Vec<Value>,
    /// `None` for a `Stream` of objects.
    pub prim: Option<Prim>,
    /// Whether this is an `Optional` (`OptionalInt`, ... with `prim`).
    pub optional: bool,
}

impl StreamState {
    /// Java's `toString` of an `Optional` (`Optional[x]`, `OptionalInt.empty`); `None`
    /// for a stream.
    pub fn describe_optional(&self, heap: &Heap) -> Option<String> {
        if !self.optional {
            return None;
        }
        let class = match self.prim {
            None => "Optional",
            Some(Prim::Int) => "OptionalInt",
            Some(Prim::Long) => "OptionalLong",
            Some(Prim::Double) => "OptionalDouble",
        };
        Some(match self.items.first() {
            Some(v) => format!("{class}[{}]", heap.to_string(v, 1)),
            None => format!("{class}.empty"),
        })
    }
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
        self.heap.streams.push(StreamState { items, prim, optional: false });
        Ok(Value::Stream((self.heap.streams.len() - 1) as u32))
    }

    fn new_optional(&mut self, item: Option<Value>, prim: Option<Prim>, off: usize) -> Result<Value, Halt> {
        self.heap.grow(2, off)?;
        self.heap.streams.push(StreamState { items: item.into_iter().collect(), prim, optional: true });
        Ok(Value::Stream((self.heap.streams.len() - 1) as u32))
    }

    /// Methods of an `Optional`.
    fn optional_method(&mut self, state: StreamState, name: &str, args: &[Value], off: usize) -> Result<Value, Halt> {
        let item = state.items.first().cloned();
        match (name, args.len(), item) {
            ("isPresent", 0, v) => Ok(Value::Bool(v.is_some())),
            ("get" | "getAsInt" | "getAsLong" | "getAsDouble" | "orElseThrow", 0, Some(v)) => Ok(v),
            ("get" | "getAsInt" | "getAsLong" | "getAsDouble" | "orElseThrow", 0, None) => {
                Err(Halt::at(off, "no_such_element_exception", "No value present"))
            }
            ("orElse", 1, v) => Ok(v.unwrap_or_else(|| args[0].clone())),
            ("orElseGet", 1, Some(v)) => Ok(v),
            ("orElseGet", 1, None) => self.invoke(&args[0], Vec::new(), off),
            ("ifPresent", 1, Some(v)) => self.invoke(&args[0], vec![v], off).map(|_| Value::Null),
            ("ifPresent", 1, None) => Ok(Value::Null),
            ("toString", 0, _) => {
                let text = state.describe_optional(self.heap).unwrap_or_default();
                self.heap.new_str(text, off)
            }
            _ => Err(Halt::at(
                off,
                "illegal_argument_exception",
                format!(
                    "Unable to find dynamic method [{name}] with [{}] arguments for class [java.util.Optional].",
                    args.len()
                ),
            )),
        }
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
        let state = self.heap.streams[i as usize].clone();
        if state.optional {
            return self.optional_method(state, name, args, off);
        }
        let StreamState { items, prim, .. } = state;
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
            ("findFirst" | "findAny", 0) => self.new_optional(items.into_iter().next(), prim, off),
            ("max" | "min", 0) if prim.is_some() => self.extreme(items, &Value::Null, name == "max", prim, off),
            ("max" | "min", 1) => self.extreme(items, &args[0], name == "max", prim, off),
            ("reduce", 1) => {
                let mut acc: Option<Value> = None;
                for x in items {
                    acc = Some(match acc {
                        None => x,
                        Some(a) => self.invoke(&args[0], vec![a, x], off)?,
                    });
                }
                self.new_optional(acc, prim, off)
            }
            ("average", 0) if prim.is_some() => {
                if items.is_empty() {
                    return self.new_optional(None, Some(Prim::Double), off);
                }
                let n = items.len() as f64;
                let total = match prim {
                    Some(Prim::Double) => self.stream_method(i, "sum", &[], off)?,
                    // Int and long streams sum in a long (wrapping), then divide.
                    _ => {
                        Value::Double(items.iter().filter_map(Num::of).fold(0i64, |t, x| t.wrapping_add(x.i64())) as f64)
                    }
                };
                let avg = Num::of(&total).map_or(0.0, Num::f64) / n;
                self.new_optional(Some(Value::Double(avg)), Some(Prim::Double), off)
            }
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

    /// `max` / `min` (with a comparator, or the natural order of a primitive stream): the
    /// first of the greatest (or least) elements, as Java's `reduce` keeps it.
    fn extreme(
        &mut self,
        items: Vec<Value>,
        cmp: &Value,
        max: bool,
        prim: Option<Prim>,
        off: usize,
    ) -> Result<Value, Halt> {
        let mut best: Option<Value> = None;
        for x in items {
            best = Some(match best {
                None => x,
                Some(b) => {
                    let o = self.comparison_of(cmp, &x, &b, off)?;
                    let better = if max { o == std::cmp::Ordering::Greater } else { o == std::cmp::Ordering::Less };
                    if better {
                        x
                    } else {
                        b
                    }
                }
            });
        }
        self.new_optional(best, prim, off)
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
