//! The allow-listed Java API scripts call: `String`, `List`, `Map`, `Set`, boxed
//! numbers, `StringBuilder`, doc values, and the static members of `Math`, `Integer`,
//! `Long`, `Double`, `Float`, `Boolean`, `String`, `Objects`, `Collections`, `Arrays`.

use super::ast::{Class, Type};
use super::error::Halt;
use super::format::{double_to_string, float_to_string};
use super::ops::{self, Num};
use super::value::{DocKind, Heap, Key, ScriptMap, Value};
use std::cmp::Ordering;

fn no_method(r: &Value, name: &str, argc: usize, off: usize) -> Halt {
    Halt::at(
        off,
        "illegal_argument_exception",
        format!("Unable to find dynamic method [{name}] with [{argc}] arguments for class [{}].", Heap::class_name(r)),
    )
}

fn cce(v: &Value, to: &str, off: usize) -> Halt {
    if *v == Value::Null {
        return Halt::null_pointer(off);
    }
    Halt::at(off, "class_cast_exception", format!("Cannot cast [{}] to [{to}].", Heap::class_name(v)))
}

fn str_arg(v: &Value, off: usize) -> Result<&str, Halt> {
    match v {
        Value::Str(s) => Ok(s),
        other => Err(cce(other, "java.lang.String", off)),
    }
}

/// An `int` argument (list indices, substring bounds).
pub fn index_arg(v: &Value, off: usize) -> Result<i64, Halt> {
    match v {
        Value::Int(i) => Ok(*i as i64),
        Value::Char(c) => Ok(*c as i64),
        Value::Long(l) => Ok(*l),
        other => Err(cce(other, "int", off)),
    }
}

fn num_arg(v: &Value, off: usize) -> Result<Num, Halt> {
    Num::of(v).ok_or_else(|| cce(v, "java.lang.Number", off))
}

/// A list index, negative ones counted from the end (Painless's rule).
pub fn normalize(n: i64, len: usize, off: usize) -> Result<usize, Halt> {
    let at = if n < 0 { n + len as i64 } else { n };
    if at < 0 || at >= len as i64 {
        return Err(Halt::at(
            off,
            "index_out_of_bounds_exception",
            format!("Index {n} out of bounds for length {len}"),
        ));
    }
    Ok(at as usize)
}

/// Element `n` of a list, array or doc values.
pub fn list_get(heap: &Heap, r: &Value, n: i64, off: usize) -> Result<Value, Halt> {
    let items: &[Value] = match r {
        Value::List(i) | Value::Array(i) => &heap.lists[*i as usize],
        Value::DocField(i) => &heap.docs[*i as usize].values,
        _ => return Err(no_method(r, "get", 1, off)),
    };
    let at = normalize(n, items.len(), off)?;
    Ok(items[at].clone())
}

/// `new T(args)`.
pub fn construct(heap: &mut Heap, ty: Type, args: Vec<Value>, off: usize) -> Result<Value, Halt> {
    match ty {
        Type::List => {
            let items = match args.first() {
                None | Some(Value::Int(_)) => Vec::new(),
                Some(c) => elements(heap, c, off)?,
            };
            heap.new_list(items, off)
        }
        Type::Map => {
            let m = match args.first() {
                Some(Value::Map(i)) => heap.maps[*i as usize].clone(),
                _ => ScriptMap::default(),
            };
            heap.new_map(m, off)
        }
        Type::Set => {
            let mut m = ScriptMap::default();
            if let Some(c) = args.first().filter(|v| !matches!(v, Value::Int(_))) {
                for x in elements(heap, c, off)? {
                    m.put(x, Value::Null);
                }
            }
            let v = heap.new_map(m, off)?;
            let Value::Map(i) = v else { return Ok(v) };
            Ok(Value::Set(i))
        }
        Type::StringBuilder => {
            let s = match args.first() {
                Some(Value::Str(s)) => s.to_string(),
                _ => String::new(),
            };
            heap.builders.push(s);
            Ok(Value::Builder((heap.builders.len() - 1) as u32))
        }
        _ => Err(Halt::at(off, "illegal_argument_exception", format!("Cannot construct [{}].", ty.java_name()))),
    }
}

/// The elements of a collection value.
fn elements(heap: &Heap, c: &Value, off: usize) -> Result<Vec<Value>, Halt> {
    Ok(match c {
        Value::List(i) | Value::Array(i) => heap.lists[*i as usize].clone(),
        Value::DocField(i) => heap.docs[*i as usize].values.clone(),
        Value::Set(i) => heap.maps[*i as usize].iter_java().into_iter().map(|(k, _)| k).collect(),
        other => return Err(cce(other, "java.util.Collection", off)),
    })
}

/// Whether `r` has a method `name` taking `argc` arguments (the getter shortcut asks).
pub fn has_method(r: &Value, name: &str, argc: usize) -> bool {
    matches!(
        (r, name, argc),
        (Value::Str(_), "isEmpty" | "length" | "hashCode" | "toString", 0)
            | (Value::List(_) | Value::DocField(_) | Value::Set(_) | Value::Map(_), "isEmpty" | "size", 0)
            | (Value::DocField(_), "getValue" | "getValues", 0)
            | (Value::Double(_) | Value::Float(_), "isNaN" | "isInfinite", 0)
            | (Value::Exception(_), "getMessage" | "getLocalizedMessage", 0)
            | (Value::DocField(_), "getDate" | "getDates" | "getLat" | "getLon" | "getLats" | "getLons", 0)
    ) || matches!(r, Value::Time(k, _) if super::time::has_method(*k, name, argc))
        || matches!(r, Value::Geo(_) if super::geo::has_method(name, argc))
}

/// Java's `Comparable.compareTo` over script values (numbers, strings, booleans, chars).
pub fn compare(a: &Value, b: &Value, off: usize) -> Result<Ordering, Halt> {
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => Ok(x.encode_utf16().cmp(y.encode_utf16())),
        (Value::Bool(x), Value::Bool(y)) => Ok(x.cmp(y)),
        (Value::Time(k, x), Value::Time(l, y)) if super::time::compare((*k, *x), (*l, *y)).is_some() => Ok(x.cmp(y)),
        _ => match (Num::of(a), Num::of(b)) {
            (Some(Num::I(x)), Some(Num::I(y))) => Ok(x.cmp(&y)),
            (Some(Num::L(x)), Some(Num::L(y))) => Ok(x.cmp(&y)),
            (Some(x), Some(y)) if std::mem::discriminant(a) == std::mem::discriminant(b) => {
                Ok(x.f64().total_cmp(&y.f64()))
            }
            _ => Err(Halt::at(
                off,
                "class_cast_exception",
                format!("Cannot compare [{}] with [{}].", Heap::class_name(a), Heap::class_name(b)),
            )),
        },
    }
}

fn java_compare_to(x: &str, y: &str) -> i32 {
    let (mut a, mut b) = (x.encode_utf16(), y.encode_utf16());
    let (la, lb) = (x.encode_utf16().count() as i32, y.encode_utf16().count() as i32);
    loop {
        match (a.next(), b.next()) {
            (Some(p), Some(q)) if p != q => return p as i32 - q as i32,
            (Some(_), Some(_)) => {}
            _ => return la - lb,
        }
    }
}

/// Java's `String.trim`: strips characters up to U+0020 at both ends.
fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

fn utf16(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

fn from_utf16(u: &[u16]) -> String {
    String::from_utf16_lossy(u)
}

fn index_of(hay: &[u16], needle: &[u16], from: i64) -> i32 {
    let from = from.max(0) as usize;
    if needle.is_empty() {
        return from.min(hay.len()) as i32;
    }
    if hay.len() < needle.len() {
        return -1;
    }
    (from..=hay.len() - needle.len()).find(|&i| hay[i..i + needle.len()] == *needle).map_or(-1, |i| i as i32)
}

fn last_index_of(hay: &[u16], needle: &[u16]) -> i32 {
    if hay.len() < needle.len() {
        return -1;
    }
    (0..=hay.len() - needle.len()).rev().find(|&i| hay[i..i + needle.len()] == *needle).map_or(-1, |i| i as i32)
}

fn string_method(heap: &mut Heap, s: &str, name: &str, args: &[Value], off: usize) -> Result<Value, Halt> {
    let sio = |msg: String| Halt::at(off, "string_index_out_of_bounds_exception", msg);
    Ok(match (name, args.len()) {
        ("length", 0) => Value::Int(s.encode_utf16().count() as i32),
        ("isEmpty", 0) => Value::Bool(s.is_empty()),
        ("toString", 0) => Value::Str(s.into()),
        ("hashCode", 0) => Value::Int(Key::Str(s.into()).java_hash()),
        ("equals", 1) => Value::Bool(matches!(&args[0], Value::Str(t) if **t == *s)),
        ("equalsIgnoreCase", 1) => {
            Value::Bool(matches!(&args[0], Value::Str(t) if t.to_lowercase() == s.to_lowercase()))
        }
        ("compareTo", 1) => Value::Int(java_compare_to(s, str_arg(&args[0], off)?)),
        ("compareToIgnoreCase", 1) => {
            Value::Int(java_compare_to(&s.to_lowercase(), &str_arg(&args[0], off)?.to_lowercase()))
        }
        ("contains", 1) => Value::Bool(s.contains(str_arg(&args[0], off)?)),
        ("startsWith", 1) => Value::Bool(s.starts_with(str_arg(&args[0], off)?)),
        ("endsWith", 1) => Value::Bool(s.ends_with(str_arg(&args[0], off)?)),
        ("toLowerCase", 0) => heap.new_str(s.to_lowercase(), off)?,
        ("toUpperCase", 0) => heap.new_str(s.to_uppercase(), off)?,
        ("trim", 0) => Value::Str(java_trim(s).into()),
        ("concat", 1) => heap.new_str(format!("{s}{}", str_arg(&args[0], off)?), off)?,
        ("replace", 2) => {
            let (from, to) = (heap.to_string(&args[0], 0), heap.to_string(&args[1], 0));
            let out = s.replace(&from, &to);
            heap.new_str(out, off)?
        }
        ("charAt", 1) => {
            let u = utf16(s);
            let i = index_arg(&args[0], off)?;
            if i < 0 || i >= u.len() as i64 {
                return Err(sio(format!("index {i}, length {}", u.len())));
            }
            Value::Char(u[i as usize])
        }
        ("indexOf", 1 | 2) => {
            let needle = match &args[0] {
                Value::Char(c) => vec![*c],
                Value::Int(c) => vec![*c as u16],
                other => utf16(str_arg(other, off)?),
            };
            let from = if args.len() == 2 { index_arg(&args[1], off)? } else { 0 };
            Value::Int(index_of(&utf16(s), &needle, from))
        }
        ("lastIndexOf", 1) => {
            let needle = match &args[0] {
                Value::Char(c) => vec![*c],
                other => utf16(str_arg(other, off)?),
            };
            Value::Int(last_index_of(&utf16(s), &needle))
        }
        ("substring", 1 | 2) => {
            let u = utf16(s);
            let len = u.len() as i64;
            let begin = index_arg(&args[0], off)?;
            let end = if args.len() == 2 { index_arg(&args[1], off)? } else { len };
            if begin < 0 || end > len || begin > end {
                return Err(sio(format!("begin {begin}, end {end}, length {len}")));
            }
            Value::Str(from_utf16(&u[begin as usize..end as usize]).into())
        }
        ("splitOnToken", 1 | 2) => {
            let token = str_arg(&args[0], off)?;
            if token.is_empty() {
                return Err(Halt::at(off, "illegal_argument_exception", "Cannot splitOnToken with an empty token"));
            }
            let limit = if args.len() == 2 { index_arg(&args[1], off)? } else { 0 };
            let parts: Vec<Value> = if limit > 0 {
                s.splitn(limit as usize, token).map(|p| Value::Str(p.into())).collect()
            } else {
                s.split(token).map(|p| Value::Str(p.into())).collect()
            };
            heap.grow(parts.len() + 1, off)?;
            heap.lists.push(parts);
            Value::Array((heap.lists.len() - 1) as u32)
        }
        _ => return Err(no_method(&Value::Str(s.into()), name, args.len(), off)),
    })
}

fn collection_contains(heap: &Heap, items: &[Value], x: &Value) -> bool {
    items.iter().any(|y| heap.equals(y, x, 0))
}

/// Calls `name` on `r` (not `null`: the caller answers that).
pub fn call_method(heap: &mut Heap, r: Value, name: &str, args: Vec<Value>, off: usize) -> Result<Value, Halt> {
    let argc = args.len();
    // Methods every object has.
    match (name, argc) {
        ("equals", 1) if !matches!(r, Value::Str(_)) => return Ok(Value::Bool(heap.equals(&r, &args[0], 0))),
        ("toString", 0) if !matches!(r, Value::Str(_)) => {
            let s = heap.to_string(&r, 0);
            return heap.new_str(s, off);
        }
        _ => {}
    }
    match &r {
        Value::Str(s) => {
            let s = s.clone();
            string_method(heap, &s, name, &args, off)
        }
        Value::List(i) | Value::Array(i) | Value::DocField(i) => {
            let i = *i as usize;
            let is_doc = matches!(r, Value::DocField(_));
            let is_array = matches!(r, Value::Array(_));
            let items: Vec<Value> = if is_doc { heap.docs[i].values.clone() } else { Vec::new() };
            let len = if is_doc { items.len() } else { heap.lists[i].len() };
            let read_only = |op: &str| {
                Halt::at(off, "unsupported_operation_exception", format!("doc values are read-only: [{op}]"))
            };
            Ok(match (name, argc) {
                ("size", 0) | ("getLength", 0) => Value::Int(len as i32),
                ("isEmpty", 0) => Value::Bool(len == 0),
                ("get", 1) => list_get(heap, &r, index_arg(&args[0], off)?, off)?,
                ("getValue", 0) if is_doc => heap.docs[i].first(),
                // 6.8 kept 5.x's date getters on date fields, deprecated.
                ("getDate", 0) if is_doc && heap.docs[i].kind == DocKind::Dates => {
                    crate::deprecation::warn(
                        "getDate is no longer necessary on date fields as the value is now a date.",
                    );
                    heap.docs[i].first()
                }
                // GeoPoints' getters of the first point's coordinates, and of all of them.
                ("getLat" | "getLon", 0) if is_doc && heap.docs[i].kind == DocKind::GeoPoints => {
                    match heap.docs[i].first() {
                        Value::Geo(p) => super::geo::call(p, name, 0, off)?,
                        _ => return Err(Halt::null_pointer(off)),
                    }
                }
                ("getLats" | "getLons", 0) if is_doc && heap.docs[i].kind == DocKind::GeoPoints => {
                    let coordinates = super::geo::coordinates(&items, name == "getLats");
                    heap.new_list(coordinates, off)?
                }
                ("getDates", 0) if is_doc && heap.docs[i].kind == DocKind::Dates => {
                    crate::deprecation::warn(
                        "getDates is no longer necessary on date fields as the values are now dates.",
                    );
                    heap.new_list(items, off)?
                }
                ("getValues", 0) if is_doc => heap.new_list(items, off)?,
                ("contains", 1) => {
                    let all = if is_doc { items } else { heap.lists[i].clone() };
                    Value::Bool(collection_contains(heap, &all, &args[0]))
                }
                ("indexOf", 1) | ("lastIndexOf", 1) => {
                    let all = if is_doc { items } else { heap.lists[i].clone() };
                    let mut found = all.iter().enumerate().filter(|(_, y)| heap.equals(y, &args[0], 0));
                    let hit = if name == "indexOf" { found.next() } else { found.next_back() };
                    Value::Int(hit.map_or(-1, |(n, _)| n as i32))
                }
                _ if is_doc => return Err(read_only(name)),
                _ if is_array => return Err(no_method(&r, name, argc, off)),
                ("add", 1) => {
                    heap.grow(1, off)?;
                    heap.lists[i].push(args[0].clone());
                    Value::Bool(true)
                }
                ("add", 2) => {
                    let at = index_arg(&args[0], off)?;
                    if at < 0 || at > len as i64 {
                        return Err(Halt::at(
                            off,
                            "index_out_of_bounds_exception",
                            format!("Index: {at}, Size: {len}"),
                        ));
                    }
                    heap.grow(1, off)?;
                    heap.lists[i].insert(at as usize, args[1].clone());
                    Value::Null
                }
                ("addAll", 1) => {
                    let more = elements(heap, &args[0], off)?;
                    heap.grow(more.len(), off)?;
                    heap.lists[i].extend(more);
                    Value::Bool(true)
                }
                ("set", 2) => {
                    let at = normalize(index_arg(&args[0], off)?, len, off)?;
                    std::mem::replace(&mut heap.lists[i][at], args[1].clone())
                }
                ("remove", 1) => {
                    let at = normalize(index_arg(&args[0], off)?, len, off)?;
                    heap.lists[i].remove(at)
                }
                ("clear", 0) => {
                    heap.lists[i].clear();
                    Value::Null
                }
                ("subList", 2) => {
                    let (a, b) = (index_arg(&args[0], off)?, index_arg(&args[1], off)?);
                    if a < 0 || b > len as i64 || a > b {
                        return Err(Halt::at(
                            off,
                            "index_out_of_bounds_exception",
                            format!("fromIndex: {a}, toIndex: {b}, size: {len}"),
                        ));
                    }
                    let part = heap.lists[i][a as usize..b as usize].to_vec();
                    heap.new_list(part, off)?
                }
                ("containsAll", 1) => {
                    let want = elements(heap, &args[0], off)?;
                    let all = heap.lists[i].clone();
                    Value::Bool(want.iter().all(|w| collection_contains(heap, &all, w)))
                }
                _ => return Err(no_method(&r, name, argc, off)),
            })
        }
        Value::Map(i) => {
            let i = *i as usize;
            Ok(match (name, argc) {
                ("size", 0) => Value::Int(heap.maps[i].len() as i32),
                ("isEmpty", 0) => Value::Bool(heap.maps[i].is_empty()),
                ("get", 1) => heap.maps[i].get(&args[0]).cloned().unwrap_or(Value::Null),
                ("getOrDefault", 2) => heap.maps[i].get(&args[0]).cloned().unwrap_or_else(|| args[1].clone()),
                ("containsKey", 1) => Value::Bool(heap.maps[i].get(&args[0]).is_some()),
                ("containsValue", 1) => {
                    let vals: Vec<Value> = heap.maps[i].iter_java().into_iter().map(|(_, v)| v).collect();
                    Value::Bool(collection_contains(heap, &vals, &args[0]))
                }
                ("put", 2) => {
                    heap.grow(1, off)?;
                    heap.maps[i].put(args[0].clone(), args[1].clone()).unwrap_or(Value::Null)
                }
                ("putAll", 1) => {
                    let Value::Map(j) = &args[0] else { return Err(cce(&args[0], "java.util.Map", off)) };
                    let more = heap.maps[*j as usize].iter_java();
                    heap.grow(more.len(), off)?;
                    for (k, v) in more {
                        heap.maps[i].put(k, v);
                    }
                    Value::Null
                }
                ("remove", 1) => heap.maps[i].remove(&args[0]).unwrap_or(Value::Null),
                ("clear", 0) => {
                    heap.maps[i].clear();
                    Value::Null
                }
                ("keySet", 0) => {
                    let mut s = ScriptMap::default();
                    for (k, _) in heap.maps[i].iter_java() {
                        s.put(k, Value::Null);
                    }
                    match heap.new_map(s, off)? {
                        Value::Map(j) => Value::Set(j),
                        v => v,
                    }
                }
                ("values", 0) => {
                    let vals = heap.maps[i].iter_java().into_iter().map(|(_, v)| v).collect();
                    heap.new_list(vals, off)?
                }
                _ => return Err(no_method(&r, name, argc, off)),
            })
        }
        Value::Set(i) => {
            let i = *i as usize;
            Ok(match (name, argc) {
                ("size", 0) => Value::Int(heap.maps[i].len() as i32),
                ("isEmpty", 0) => Value::Bool(heap.maps[i].is_empty()),
                ("contains", 1) => Value::Bool(heap.maps[i].get(&args[0]).is_some()),
                ("add", 1) => {
                    heap.grow(1, off)?;
                    Value::Bool(heap.maps[i].put(args[0].clone(), Value::Null).is_none())
                }
                ("addAll", 1) => {
                    let more = elements(heap, &args[0], off)?;
                    heap.grow(more.len(), off)?;
                    let mut changed = false;
                    for x in more {
                        changed |= heap.maps[i].put(x, Value::Null).is_none();
                    }
                    Value::Bool(changed)
                }
                ("remove", 1) => Value::Bool(heap.maps[i].remove(&args[0]).is_some()),
                ("clear", 0) => {
                    heap.maps[i].clear();
                    Value::Null
                }
                _ => return Err(no_method(&r, name, argc, off)),
            })
        }
        Value::Time(k, t) => super::time::call(heap, *k, *t, name, &args, off),
        Value::Geo(p) => super::geo::call(*p, name, argc, off),
        Value::Builder(i) => {
            let i = *i as usize;
            Ok(match (name, argc) {
                ("append", 1) => {
                    let s = heap.to_string(&args[0], 0);
                    heap.grow_string(s.len(), off)?;
                    heap.builders[i].push_str(&s);
                    r.clone()
                }
                ("length", 0) => Value::Int(heap.builders[i].encode_utf16().count() as i32),
                _ => return Err(no_method(&r, name, argc, off)),
            })
        }
        Value::Int(_) | Value::Long(_) | Value::Float(_) | Value::Double(_) | Value::Char(_) => {
            let n = num_arg(&r, off)?;
            Ok(match (name, argc) {
                ("intValue", 0) => ops::cast(r.clone(), Type::Int, off)?,
                ("longValue", 0) => Value::Long(n.i64()),
                ("floatValue", 0) => Value::Float(n.f32()),
                ("doubleValue", 0) => Value::Double(n.f64()),
                ("isNaN", 0) => Value::Bool(n.f64().is_nan()),
                ("isInfinite", 0) => Value::Bool(n.f64().is_infinite()),
                ("compareTo", 1) => Value::Int(compare(&r, &args[0], off)? as i32),
                ("hashCode", 0) => Value::Int(Key::of(&r).java_hash()),
                _ => return Err(no_method(&r, name, argc, off)),
            })
        }
        Value::Bool(b) => match (name, argc) {
            ("booleanValue", 0) => Ok(Value::Bool(*b)),
            ("compareTo", 1) => Ok(Value::Int(compare(&r, &args[0], off)? as i32)),
            _ => Err(no_method(&r, name, argc, off)),
        },
        _ => Err(no_method(&r, name, argc, off)),
    }
}

fn parse_int(s: &str, radix: u32, long: bool, off: usize) -> Result<Value, Halt> {
    let bad = || {
        Halt::at(
            off,
            "number_format_exception",
            if radix == 10 {
                format!("For input string: \"{s}\"")
            } else {
                format!("For input string: \"{s}\" under radix {radix}")
            },
        )
    };
    let body = s.strip_prefix('+').filter(|b| !b.starts_with(['-', '+'])).unwrap_or(s);
    if body.is_empty()
        || body == "-"
        || !body.trim_start_matches('-').chars().all(|c| c.is_digit(radix))
        || body[1..].contains('-')
    {
        return Err(bad());
    }
    if long {
        i64::from_str_radix(body, radix).map(Value::Long).map_err(|_| bad())
    } else {
        i32::from_str_radix(body, radix).map(Value::Int).map_err(|_| bad())
    }
}

/// Java's `Double.parseDouble`: surrounding blanks allowed, a `d`/`f` suffix, `NaN` and
/// `Infinity`; nothing else Rust's parser would take.
fn parse_double(s: &str, off: usize) -> Result<f64, Halt> {
    let t = java_trim(s);
    let bad = || {
        Halt::at(
            off,
            "number_format_exception",
            if t.is_empty() { "empty String".to_string() } else { format!("For input string: \"{s}\"") },
        )
    };
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    let neg = t.starts_with('-');
    match unsigned {
        "NaN" => return Ok(f64::NAN),
        "Infinity" => return Ok(if neg { f64::NEG_INFINITY } else { f64::INFINITY }),
        _ => {}
    }
    let body = t.strip_suffix(['d', 'D', 'f', 'F']).unwrap_or(t);
    if body.is_empty() || !body.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-')) {
        return Err(bad());
    }
    body.parse::<f64>().map_err(|_| bad())
}

/// `Math.name(args)`.
pub fn math(heap: &mut Heap, name: &str, args: &[Value], off: usize) -> Result<Value, Halt> {
    let d = |i: usize| -> Result<f64, Halt> { Ok(num_arg(&args[i], off)?.f64()) };
    Ok(match (name, args.len()) {
        ("abs", 1) => match num_arg(&args[0], off)? {
            Num::I(i) => Value::Int(i.wrapping_abs()),
            Num::L(l) => Value::Long(l.wrapping_abs()),
            Num::F(f) => Value::Float(f.abs()),
            Num::D(x) => Value::Double(x.abs()),
        },
        ("max" | "min", 2) => {
            let (a, b) = (num_arg(&args[0], off)?, num_arg(&args[1], off)?);
            let pick_max = name == "max";
            match (a, b) {
                (Num::I(x), Num::I(y)) => Value::Int(if pick_max { x.max(y) } else { x.min(y) }),
                (Num::D(_), _) | (_, Num::D(_)) | (Num::F(_), _) | (_, Num::F(_)) => {
                    let (x, y) = (a.f64(), b.f64());
                    let r = if x.is_nan() || y.is_nan() {
                        f64::NAN
                    } else if pick_max {
                        if x == y && x == 0.0 {
                            if x.is_sign_positive() {
                                x
                            } else {
                                y
                            }
                        } else {
                            x.max(y)
                        }
                    } else if x == y && x == 0.0 {
                        if x.is_sign_negative() {
                            x
                        } else {
                            y
                        }
                    } else {
                        x.min(y)
                    };
                    if matches!((a, b), (Num::D(_), _) | (_, Num::D(_))) {
                        Value::Double(r)
                    } else {
                        Value::Float(r as f32)
                    }
                }
                _ => {
                    let (x, y) = (a.i64(), b.i64());
                    Value::Long(if pick_max { x.max(y) } else { x.min(y) })
                }
            }
        }
        ("pow", 2) => Value::Double(d(0)?.powf(d(1)?)),
        ("sqrt", 1) => Value::Double(d(0)?.sqrt()),
        ("cbrt", 1) => Value::Double(d(0)?.cbrt()),
        ("log", 1) => Value::Double(d(0)?.ln()),
        ("log10", 1) => Value::Double(d(0)?.log10()),
        ("log1p", 1) => Value::Double(d(0)?.ln_1p()),
        ("exp", 1) => Value::Double(d(0)?.exp()),
        ("expm1", 1) => Value::Double(d(0)?.exp_m1()),
        ("floor", 1) => Value::Double(d(0)?.floor()),
        ("ceil", 1) => Value::Double(d(0)?.ceil()),
        ("rint", 1) => Value::Double(d(0)?.round_ties_even()),
        ("round", 1) => match num_arg(&args[0], off)? {
            Num::F(f) => {
                let fl = f.floor();
                Value::Int((if f - fl >= 0.5 { fl + 1.0 } else { fl }) as i32)
            }
            n => {
                let x = n.f64();
                let fl = x.floor();
                Value::Long((if x - fl >= 0.5 { fl + 1.0 } else { fl }) as i64)
            }
        },
        ("signum", 1) => {
            let x = d(0)?;
            Value::Double(if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            })
        }
        ("sin", 1) => Value::Double(d(0)?.sin()),
        ("cos", 1) => Value::Double(d(0)?.cos()),
        ("tan", 1) => Value::Double(d(0)?.tan()),
        ("asin", 1) => Value::Double(d(0)?.asin()),
        ("acos", 1) => Value::Double(d(0)?.acos()),
        ("atan", 1) => Value::Double(d(0)?.atan()),
        ("atan2", 2) => Value::Double(d(0)?.atan2(d(1)?)),
        ("hypot", 2) => Value::Double(d(0)?.hypot(d(1)?)),
        ("toRadians", 1) => Value::Double(d(0)? / 180.0 * std::f64::consts::PI),
        ("toDegrees", 1) => Value::Double(d(0)? * 180.0 / std::f64::consts::PI),
        ("floorDiv" | "floorMod", 2) => {
            let (a, b) = (num_arg(&args[0], off)?, num_arg(&args[1], off)?);
            let long = matches!(a, Num::L(_)) || matches!(b, Num::L(_));
            let (x, y) = (a.i64(), b.i64());
            if y == 0 {
                return Err(Halt::at(off, "arithmetic_exception", "/ by zero"));
            }
            // Wrapping: the least long over -1 overflows in Java too, without an error.
            let rem = x.wrapping_rem(y);
            let r = if name == "floorDiv" {
                x.wrapping_div(y).wrapping_sub(i64::from(rem != 0 && ((x < 0) != (y < 0))))
            } else if rem != 0 && ((rem < 0) != (y < 0)) {
                rem.wrapping_add(y)
            } else {
                rem
            };
            if long {
                Value::Long(r)
            } else {
                Value::Int(r as i32)
            }
        }
        _ => return Err(no_static(heap, "Math", name, args.len(), off)),
    })
}

fn no_static(_heap: &Heap, class: &str, name: &str, argc: usize, off: usize) -> Halt {
    Halt::at(
        off,
        "illegal_argument_exception",
        format!("Unknown call [{name}] with [{argc}] arguments on type [{class}]."),
    )
}

/// `Class.name(args)`.
pub fn call_static(heap: &mut Heap, class: Class, name: &str, args: Vec<Value>, off: usize) -> Result<Value, Halt> {
    let argc = args.len();
    let s = |i: usize| -> Result<String, Halt> {
        match &args[i] {
            Value::Str(s) => Ok(s.to_string()),
            Value::Null => Ok("null".into()),
            other => Err(cce(other, "java.lang.String", off)),
        }
    };
    match class {
        Class::Math => math(heap, name, &args, off),
        Class::MovingFunctions => super::moving_functions::call(heap, name, &args, off),
        Class::Integer | Class::Long => {
            let long = class == Class::Long;
            match (name, argc) {
                ("parseInt", 1 | 2) if !long => parse_int(&s(0)?, radix(&args, off)?, false, off),
                ("parseLong", 1 | 2) if long => parse_int(&s(0)?, radix(&args, off)?, true, off),
                ("valueOf", 1) => match &args[0] {
                    Value::Str(t) => parse_int(t, 10, long, off),
                    v => ops::cast(v.clone(), if long { Type::Long } else { Type::Int }, off),
                },
                ("toString", 1) => {
                    let v = ops::cast(args[0].clone(), if long { Type::Long } else { Type::Int }, off)?;
                    let t = heap.to_string(&v, 0);
                    heap.new_str(t, off)
                }
                ("compare", 2) => Ok(Value::Int(compare(&args[0], &args[1], off)? as i32)),
                ("sum" | "max" | "min", 2) => {
                    let op = match name {
                        "sum" => return ops::binary(heap, super::ast::BinOp::Add, &args[0], &args[1], off),
                        other => other,
                    };
                    math(heap, op, &args, off)
                }
                ("toHexString", 1) => {
                    let t = match num_arg(&args[0], off)? {
                        Num::L(l) if long => format!("{:x}", l as u64),
                        n => format!("{:x}", n.i64() as i32 as u32),
                    };
                    heap.new_str(t, off)
                }
                _ => Err(no_static(heap, if long { "Long" } else { "Integer" }, name, argc, off)),
            }
        }
        Class::Double | Class::Float => {
            let float = class == Class::Float;
            match (name, argc) {
                ("parseDouble", 1) if !float => Ok(Value::Double(parse_double(&s(0)?, off)?)),
                ("parseFloat", 1) if float => Ok(Value::Float(parse_double(&s(0)?, off)? as f32)),
                ("valueOf", 1) => match &args[0] {
                    Value::Str(t) => {
                        let v = parse_double(t, off)?;
                        Ok(if float { Value::Float(v as f32) } else { Value::Double(v) })
                    }
                    v => ops::cast(v.clone(), if float { Type::Float } else { Type::Double }, off),
                },
                ("toString", 1) => {
                    let n = num_arg(&args[0], off)?;
                    let t = if float { float_to_string(n.f32()) } else { double_to_string(n.f64()) };
                    heap.new_str(t, off)
                }
                ("isNaN", 1) => Ok(Value::Bool(num_arg(&args[0], off)?.f64().is_nan())),
                ("isInfinite", 1) => Ok(Value::Bool(num_arg(&args[0], off)?.f64().is_infinite())),
                ("isFinite", 1) => Ok(Value::Bool(num_arg(&args[0], off)?.f64().is_finite())),
                ("compare", 2) => {
                    let (a, b) = (num_arg(&args[0], off)?.f64(), num_arg(&args[1], off)?.f64());
                    Ok(Value::Int(a.total_cmp(&b) as i32))
                }
                _ => Err(no_static(heap, if float { "Float" } else { "Double" }, name, argc, off)),
            }
        }
        Class::Boolean => match (name, argc) {
            ("parseBoolean", 1) | ("valueOf", 1) => Ok(Value::Bool(match &args[0] {
                Value::Bool(b) => *b,
                Value::Str(t) => t.eq_ignore_ascii_case("true"),
                _ => false,
            })),
            ("toString", 1) => {
                let t = heap.to_string(&args[0], 0);
                heap.new_str(t, off)
            }
            _ => Err(no_static(heap, "Boolean", name, argc, off)),
        },
        Class::String => match (name, argc) {
            ("valueOf", 1) => {
                let t = heap.to_string(&args[0], 0);
                heap.new_str(t, off)
            }
            ("join", 2) => {
                let sep = s(0)?;
                let items = elements(heap, &args[1], off)?;
                let parts: Vec<String> = items.iter().map(|x| heap.to_string(x, 0)).collect();
                heap.new_str(parts.join(&sep), off)
            }
            _ => Err(no_static(heap, "String", name, argc, off)),
        },
        Class::Objects => match (name, argc) {
            ("equals", 2) => Ok(Value::Bool(heap.equals(&args[0], &args[1], 0))),
            ("isNull", 1) => Ok(Value::Bool(args[0] == Value::Null)),
            ("nonNull", 1) => Ok(Value::Bool(args[0] != Value::Null)),
            ("toString", 1) => {
                let t = heap.to_string(&args[0], 0);
                heap.new_str(t, off)
            }
            ("toString", 2) => {
                if args[0] == Value::Null {
                    Ok(args[1].clone())
                } else {
                    let t = heap.to_string(&args[0], 0);
                    heap.new_str(t, off)
                }
            }
            ("requireNonNull", 1) => {
                if args[0] == Value::Null {
                    Err(Halt::null_pointer(off))
                } else {
                    Ok(args[0].clone())
                }
            }
            ("hashCode", 1) => Ok(Value::Int(Key::of(&args[0]).java_hash())),
            _ => Err(no_static(heap, "Objects", name, argc, off)),
        },
        Class::Collections => match (name, argc) {
            ("sort", 1) | ("reverse", 1) => {
                let Value::List(i) = &args[0] else { return Err(cce(&args[0], "java.util.List", off)) };
                let mut items = std::mem::take(&mut heap.lists[*i as usize]);
                if name == "reverse" {
                    items.reverse();
                } else {
                    // Elements of one comparable type only, so that the comparator is a
                    // total order (Java throws ClassCastException otherwise).
                    let comparable = |v: &Value| {
                        matches!(
                            v,
                            Value::Str(_)
                                | Value::Bool(_)
                                | Value::Int(_)
                                | Value::Long(_)
                                | Value::Float(_)
                                | Value::Double(_)
                                | Value::Char(_)
                        )
                    };
                    let mixed = items
                        .iter()
                        .find(|v| !comparable(v) || std::mem::discriminant(*v) != std::mem::discriminant(&items[0]));
                    if let Some(bad) = mixed {
                        let e =
                            compare(&items[0], bad, off).err().unwrap_or_else(|| cce(bad, "java.lang.Comparable", off));
                        heap.lists[*i as usize] = items;
                        return Err(e);
                    }
                    items.sort_by(|a, b| compare(a, b, off).unwrap_or(Ordering::Equal));
                }
                heap.lists[*i as usize] = items;
                Ok(Value::Null)
            }
            ("max" | "min", 1) => {
                let items = elements(heap, &args[0], off)?;
                let mut best: Option<Value> = None;
                for x in items {
                    best = Some(match best {
                        None => x,
                        Some(b) => {
                            let o = compare(&x, &b, off)?;
                            if (name == "max" && o == Ordering::Greater) || (name == "min" && o == Ordering::Less) {
                                x
                            } else {
                                b
                            }
                        }
                    });
                }
                best.ok_or_else(|| Halt::at(off, "no_such_element_exception", ""))
            }
            ("emptyList", 0) => heap.new_list(Vec::new(), off),
            ("emptyMap", 0) => heap.new_map(ScriptMap::default(), off),
            ("singletonList", 1) => heap.new_list(vec![args[0].clone()], off),
            ("unmodifiableList" | "unmodifiableMap" | "unmodifiableSet", 1) => Ok(args[0].clone()),
            ("frequency", 2) => {
                let items = elements(heap, &args[0], off)?;
                Ok(Value::Int(items.iter().filter(|x| heap.equals(x, &args[1], 0)).count() as i32))
            }
            _ => Err(no_static(heap, "Collections", name, argc, off)),
        },
        Class::Arrays => match name {
            "asList" => heap.new_list(args, off),
            _ => Err(no_static(heap, "Arrays", name, argc, off)),
        },
        Class::Comparator => Err(no_static(heap, "Comparator", name, argc, off)),
        Class::Collectors => Err(no_static(heap, "Collectors", name, argc, off)),
        Class::Character => {
            let c = match args.first() {
                Some(Value::Char(c)) => *c,
                Some(other) => return Err(cce(other, "char", off)),
                None => return Err(no_static(heap, "Character", name, argc, off)),
            };
            let ch = char::from_u32(c as u32).unwrap_or('\u{fffd}');
            Ok(match (name, argc) {
                ("isDigit", 1) => Value::Bool(ch.is_numeric()),
                ("isLetter", 1) => Value::Bool(ch.is_alphabetic()),
                ("isLetterOrDigit", 1) => Value::Bool(ch.is_alphanumeric()),
                ("isWhitespace", 1) => Value::Bool(ch.is_whitespace()),
                ("isUpperCase", 1) => Value::Bool(ch.is_uppercase()),
                ("isLowerCase", 1) => Value::Bool(ch.is_lowercase()),
                ("toUpperCase", 1) => Value::Char(ch.to_uppercase().next().map_or(c, |u| u as u32 as u16)),
                ("toLowerCase", 1) => Value::Char(ch.to_lowercase().next().map_or(c, |u| u as u32 as u16)),
                _ => return Err(no_static(heap, "Character", name, argc, off)),
            })
        }
    }
}

fn radix(args: &[Value], off: usize) -> Result<u32, Halt> {
    match args.get(1) {
        None => Ok(10),
        Some(v) => {
            let r = index_arg(v, off)?;
            if !(2..=36).contains(&r) {
                return Err(Halt::at(off, "number_format_exception", format!("radix {r} out of range")));
            }
            Ok(r as u32)
        }
    }
}

/// `Class.NAME`.
pub fn static_field(class: Class, name: &str, off: usize) -> Result<Value, Halt> {
    Ok(match (class, name) {
        (Class::Math, "PI") => Value::Double(std::f64::consts::PI),
        (Class::Math, "E") => Value::Double(std::f64::consts::E),
        (Class::Integer, "MAX_VALUE") => Value::Int(i32::MAX),
        (Class::Integer, "MIN_VALUE") => Value::Int(i32::MIN),
        (Class::Long, "MAX_VALUE") => Value::Long(i64::MAX),
        (Class::Long, "MIN_VALUE") => Value::Long(i64::MIN),
        (Class::Double, "MAX_VALUE") => Value::Double(f64::MAX),
        (Class::Double, "MIN_VALUE") => Value::Double(f64::from_bits(1)),
        (Class::Double, "POSITIVE_INFINITY") => Value::Double(f64::INFINITY),
        (Class::Double, "NEGATIVE_INFINITY") => Value::Double(f64::NEG_INFINITY),
        (Class::Double, "NaN") => Value::Double(f64::NAN),
        (Class::Float, "MAX_VALUE") => Value::Float(f32::MAX),
        (Class::Float, "MIN_VALUE") => Value::Float(f32::from_bits(1)),
        (Class::Float, "NaN") => Value::Float(f32::NAN),
        _ => return Err(Halt::at(off, "illegal_argument_exception", format!("Unknown static field [{name}]."))),
    })
}
