//! Runtime values and the per-run heap that holds a run's collections.
//!
//! Collections live in a [`Heap`] that is emptied after each run and values refer to
//! them by number, so a value is small and `Send`, a run's garbage (cycles included)
//! goes with the run, nothing is dropped recursively, and the heap bounds how much a
//! script may build.

use super::error::Halt;
use super::format::{double_to_string, float_to_string};
use super::time::{self, TimeKind};
use std::collections::HashMap;
use std::sync::Arc;

/// Elements all of a run's collections may hold together.
pub const MAX_CELLS: usize = 1_000_000;
/// Bytes of strings a run may build, counted as they are built.
pub const MAX_STRING_BYTES: usize = 64 << 20;
/// How deep `toString`, `equals` and conversions follow nested collections.
pub const MAX_NESTING: usize = 100;
/// How many values one `toString`, `equals` or conversion visits: collections that share
/// or hold each other would otherwise make it exponential.
pub const MAX_WALK: usize = 1_000_000;

/// A Painless value.
// A fixed layout (tag, then the payload at its alignment): the compiler's packed choice
// wrote payloads at odd offsets that the next read could not forward from.
#[derive(Debug, Clone, PartialEq)]
#[repr(u8)]
pub enum Value {
    /// `null`
    Null,
    /// `boolean` / `Boolean`
    Bool(bool),
    /// `int` / `Integer` (and `byte`, `short`)
    Int(i32),
    /// `long` / `Long`
    Long(i64),
    /// `float` / `Float`
    Float(f32),
    /// `double` / `Double`
    Double(f64),
    /// `char` / `Character` (a UTF-16 unit)
    Char(u16),
    /// `String`
    Str(Arc<str>),
    /// A list (`ArrayList`) in the heap.
    List(u32),
    /// An array in the heap (fixed length).
    Array(u32),
    /// A map (`HashMap`) in the heap.
    Map(u32),
    /// A set (`HashSet`) in the heap.
    Set(u32),
    /// A `StringBuilder` in the heap.
    Builder(u32),
    /// `doc`.
    Doc,
    /// One field's doc values (`doc['f']`) in the heap.
    DocField(u32),
    /// `params`.
    Params,
    /// A function value (a lambda, a method reference, a comparator) in the heap.
    Func(u32),
    /// A compiled regex (`java.util.regex.Pattern`) in the heap.
    Pattern(u32),
    /// A `java.util.regex.Matcher` in the heap.
    Matcher(u32),
    /// An exception (thrown, caught, or made with `new`) in the heap.
    Exception(u32),
    /// A stream (`list.stream()`) in the heap.
    Stream(u32),
    /// A date or time (see [`time`]): its class and its milliseconds (or enum value).
    Time(TimeKind, i64),
    /// A geo point (see [`super::geo`]): the packed long of its doc values.
    Geo(i64),
}

/// What type of doc values a field has (what a missing `.value` is).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    /// Keyword-like: strings; a missing value is `null`.
    Strings,
    /// Integers: longs; a missing value is `0L`.
    Longs,
    /// Doubles; a missing value is `0.0`.
    Doubles,
    /// Booleans; a missing value is `false`.
    Booleans,
    /// Dates (`JodaCompatibleZonedDateTime`); a missing value is the epoch.
    Dates,
    /// Geo points; a missing value is `null`.
    GeoPoints,
}

/// One field's values for the current document.
#[derive(Debug, Clone)]
pub struct DocValues {
    /// The field's type.
    pub kind: DocKind,
    /// The values, sorted as the doc values hold them.
    pub values: Vec<Value>,
}

impl DocValues {
    /// `.value`: the first value, or the type's default when the document has none
    /// (ES 6.8's behaviour unless `es.scripting.exception_for_missing_value` is set), with
    /// 6.8's deprecation warning.
    pub fn first(&self) -> Value {
        if let Some(v) = self.values.first() {
            return v.clone();
        }
        warn_missing_value();
        match self.kind {
            DocKind::Strings => Value::Null,
            DocKind::Longs => Value::Long(0),
            DocKind::Doubles => Value::Double(0.0),
            DocKind::Booleans => Value::Bool(false),
            DocKind::Dates => time::doc_value(0),
            DocKind::GeoPoints => Value::Null,
        }
    }
}

/// The deprecation warning ES 6.8's `ScriptDocValues.getValue()` sends when it answers a
/// type's default for a document without a value (7.0 throws instead).
pub const MISSING_VALUE_WARNING: &str = "returning default values for missing document values is deprecated. \
     Set system property '-Des.scripting.exception_for_missing_value=true' \
     to make behaviour compatible with future major versions!";

/// Records [`MISSING_VALUE_WARNING`] for the running request.
pub fn warn_missing_value() {
    crate::deprecation::warn(MISSING_VALUE_WARNING);
}

/// A hashable form of a map key with Java's `equals` (an `Integer` 1 is not a `Long` 1).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    /// `null`
    Null,
    /// a boolean
    Bool(bool),
    /// an int
    Int(i32),
    /// a long
    Long(i64),
    /// a float's bits
    Float(u32),
    /// a double's bits
    Double(u64),
    /// a char
    Char(u16),
    /// a string
    Str(Arc<str>),
    /// a heap object, by identity
    Ref(u8, u32),
    /// a date or time, by class and instant
    Time(TimeKind, i64),
    /// a geo point, by its packed coordinates
    Geo(i64),
}

impl Key {
    /// The key of `v`.
    pub fn of(v: &Value) -> Key {
        match v {
            Value::Null => Key::Null,
            Value::Bool(b) => Key::Bool(*b),
            Value::Int(i) => Key::Int(*i),
            Value::Long(i) => Key::Long(*i),
            Value::Float(f) => Key::Float(if f.is_nan() { f32::NAN.to_bits() } else { f.to_bits() }),
            Value::Double(f) => Key::Double(if f.is_nan() { f64::NAN.to_bits() } else { f.to_bits() }),
            Value::Char(c) => Key::Char(*c),
            Value::Str(s) => Key::Str(s.clone()),
            Value::List(i) => Key::Ref(0, *i),
            Value::Array(i) => Key::Ref(1, *i),
            Value::Map(i) => Key::Ref(2, *i),
            Value::Set(i) => Key::Ref(3, *i),
            Value::Builder(i) => Key::Ref(4, *i),
            Value::DocField(i) => Key::Ref(5, *i),
            Value::Doc => Key::Ref(6, 0),
            Value::Params => Key::Ref(7, 0),
            Value::Func(i) => Key::Ref(8, *i),
            Value::Pattern(i) => Key::Ref(9, *i),
            Value::Matcher(i) => Key::Ref(10, *i),
            Value::Exception(i) => Key::Ref(11, *i),
            Value::Stream(i) => Key::Ref(12, *i),
            // A wrapped ZonedDateTime equals the plain one (Java's `equals`).
            Value::Time(TimeKind::Joda, t) => Key::Time(TimeKind::Zoned, *t),
            Value::Time(k, t) => Key::Time(*k, *t),
            Value::Geo(p) => Key::Geo(*p),
        }
    }

    /// Java's `hashCode` of the key (containers count as 0: their order is Java's only
    /// for scalar keys, which is what scripts use).
    pub fn java_hash(&self) -> i32 {
        match self {
            Key::Null | Key::Ref(..) => 0,
            Key::Bool(b) => {
                if *b {
                    1231
                } else {
                    1237
                }
            }
            Key::Int(i) => *i,
            Key::Long(l) | Key::Time(_, l) | Key::Geo(l) => (*l ^ ((*l as u64) >> 32) as i64) as i32,
            Key::Float(bits) => *bits as i32,
            Key::Double(bits) => (*bits ^ (*bits >> 32)) as i32,
            Key::Char(c) => *c as i32,
            Key::Str(s) => s.encode_utf16().fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(u as i32)),
        }
    }
}

/// A `HashMap` (or, without values, a `HashSet`): entries in insertion order, iterated in
/// the order Java's `HashMap` iterates them (bucket by bucket of its table).
#[derive(Debug, Clone, Default)]
pub struct ScriptMap {
    entries: Vec<(Value, Value)>,
    index: HashMap<Key, usize>,
}

impl ScriptMap {
    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of `k`.
    pub fn get(&self, k: &Value) -> Option<&Value> {
        self.index.get(&Key::of(k)).map(|&i| &self.entries[i].1)
    }

    /// Puts `k` → `v`, answering the previous value.
    pub fn put(&mut self, k: Value, v: Value) -> Option<Value> {
        let key = Key::of(&k);
        match self.index.get(&key) {
            Some(&i) => Some(std::mem::replace(&mut self.entries[i].1, v)),
            None => {
                self.index.insert(key, self.entries.len());
                self.entries.push((k, v));
                None
            }
        }
    }

    /// Removes `k`, answering its value.
    pub fn remove(&mut self, k: &Value) -> Option<Value> {
        let i = self.index.remove(&Key::of(k))?;
        let (_, v) = self.entries.remove(i);
        for slot in self.index.values_mut() {
            if *slot > i {
                *slot -= 1;
            }
        }
        Some(v)
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.index.clear();
    }

    /// The entries in Java `HashMap` iteration order: by bucket of a table that grew
    /// from 16 slots at a load factor of 0.75, insertion order within a bucket.
    pub fn iter_java(&self) -> Vec<(Value, Value)> {
        let mut cap: usize = 16;
        while self.entries.len() as f64 > cap as f64 * 0.75 {
            cap *= 2;
        }
        let mut order: Vec<(usize, usize)> = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, (k, _))| {
                let h = Key::of(k).java_hash() as u32;
                (((h ^ (h >> 16)) as usize) & (cap - 1), i)
            })
            .collect();
        order.sort_unstable();
        order.into_iter().map(|(_, i)| self.entries[i].clone()).collect()
    }
}

/// The collections of one run.
#[derive(Debug, Default)]
pub struct Heap {
    /// Lists and arrays.
    pub lists: Vec<Vec<Value>>,
    /// Maps and sets.
    pub maps: Vec<ScriptMap>,
    /// String builders.
    pub builders: Vec<String>,
    /// Doc values read this run.
    pub docs: Vec<DocValues>,
    /// The document's `_source` as a value, once read.
    pub source: Option<Value>,
    /// A run's variable slots (kept so that runs reuse the allocation).
    pub slots: Vec<Value>,
    /// Function values.
    pub funcs: Vec<super::lambda::Func>,
    /// Compiled regexes.
    pub patterns: Vec<std::sync::Arc<super::regex::ScriptPattern>>,
    /// Matchers.
    pub matchers: Vec<super::regex::MatcherState>,
    /// Exceptions.
    pub exceptions: Vec<super::exceptions::Thrown>,
    /// Streams.
    pub streams: Vec<super::stream::StreamState>,
    cells: usize,
    string_bytes: usize,
    /// Values visited by the walk in progress (see [`MAX_WALK`]).
    walked: std::cell::Cell<usize>,
}

impl Heap {
    /// Forgets everything (keeping the allocations) for the next run.
    pub fn reset(&mut self) {
        self.lists.clear();
        self.maps.clear();
        self.builders.clear();
        self.docs.clear();
        self.funcs.clear();
        self.patterns.clear();
        self.matchers.clear();
        self.exceptions.clear();
        self.streams.clear();
        self.source = None;
        self.cells = 0;
        self.string_bytes = 0;
    }

    /// Counts `n` more elements against [`MAX_CELLS`].
    pub fn grow(&mut self, n: usize, offset: usize) -> Result<(), Halt> {
        self.cells = self.cells.saturating_add(n);
        if self.cells > MAX_CELLS {
            return Err(Halt::at(
                offset,
                "circuit_breaking_exception",
                format!("script collections hold more than [{MAX_CELLS}] elements"),
            ));
        }
        Ok(())
    }

    /// Counts `n` more string bytes against [`MAX_STRING_BYTES`].
    pub fn grow_string(&mut self, n: usize, offset: usize) -> Result<(), Halt> {
        self.string_bytes = self.string_bytes.saturating_add(n);
        if self.string_bytes > MAX_STRING_BYTES {
            return Err(Halt::at(
                offset,
                "circuit_breaking_exception",
                format!("script strings take more than [{MAX_STRING_BYTES}] bytes"),
            ));
        }
        Ok(())
    }

    /// A new list of `items`.
    pub fn new_list(&mut self, items: Vec<Value>, offset: usize) -> Result<Value, Halt> {
        self.grow(items.len() + 1, offset)?;
        self.lists.push(items);
        Ok(Value::List((self.lists.len() - 1) as u32))
    }

    /// A new map.
    pub fn new_map(&mut self, map: ScriptMap, offset: usize) -> Result<Value, Halt> {
        self.grow(map.len() + 1, offset)?;
        self.maps.push(map);
        Ok(Value::Map((self.maps.len() - 1) as u32))
    }

    /// A new string, counted.
    pub fn new_str(&mut self, s: String, offset: usize) -> Result<Value, Halt> {
        self.grow_string(s.len(), offset)?;
        Ok(Value::Str(s.into()))
    }

    /// A JSON value (`params`, `_source`) as a script value: objects become maps with
    /// `HashMap` order, numbers `Integer`/`Long`/`Double` as ES's map parsing gives them.
    pub fn from_json(&mut self, v: &serde_json::Value, depth: usize, offset: usize) -> Result<Value, Halt> {
        if depth > MAX_NESTING {
            return Err(Halt::at(offset, "illegal_argument_exception", "value nests too deeply"));
        }
        Ok(match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    match i32::try_from(i) {
                        Ok(i) => Value::Int(i),
                        Err(_) => Value::Long(i),
                    }
                } else if let Some(u) = n.as_u64() {
                    // Past a long ES reads a BigInteger; the nearest we hold is a double.
                    Value::Double(u as f64)
                } else {
                    Value::Double(n.as_f64().unwrap_or(0.0))
                }
            }
            serde_json::Value::String(s) => Value::Str(s.as_str().into()),
            serde_json::Value::Array(a) => {
                let mut items = Vec::with_capacity(a.len());
                for x in a {
                    items.push(self.from_json(x, depth + 1, offset)?);
                }
                self.new_list(items, offset)?
            }
            serde_json::Value::Object(o) => {
                let mut m = ScriptMap::default();
                for (k, x) in o {
                    let x = self.from_json(x, depth + 1, offset)?;
                    m.put(Value::Str(k.as_str().into()), x);
                }
                self.new_map(m, offset)?
            }
        })
    }

    /// A script value as JSON (a script field's value, a key's text).
    pub fn to_json(&self, v: &Value, depth: usize) -> serde_json::Value {
        use serde_json::Value as J;
        if self.walk_ends(depth) {
            return J::Null;
        }
        match v {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::Long(i) => J::from(*i),
            Value::Float(f) => {
                serde_json::Number::from_f64(*f as f64).map(J::Number).unwrap_or_else(|| J::String(float_to_string(*f)))
            }
            Value::Double(f) => {
                serde_json::Number::from_f64(*f).map(J::Number).unwrap_or_else(|| J::String(double_to_string(*f)))
            }
            Value::Char(c) => J::String(String::from_utf16_lossy(&[*c])),
            Value::Str(s) => J::String(s.to_string()),
            Value::List(i) | Value::Array(i) => {
                J::Array(self.lists[*i as usize].iter().map(|x| self.to_json(x, depth + 1)).collect())
            }
            Value::Set(i) => {
                J::Array(self.maps[*i as usize].iter_java().iter().map(|(k, _)| self.to_json(k, depth + 1)).collect())
            }
            Value::Map(i) => {
                let mut o = serde_json::Map::new();
                for (k, x) in self.maps[*i as usize].iter_java() {
                    o.insert(self.to_string(&k, depth + 1), self.to_json(&x, depth + 1));
                }
                J::Object(o)
            }
            Value::Builder(i) => J::String(self.builders[*i as usize].clone()),
            Value::DocField(i) => {
                J::Array(self.docs[*i as usize].values.iter().map(|x| self.to_json(x, depth + 1)).collect())
            }
            Value::Doc | Value::Params => J::Object(Default::default()),
            Value::Func(_) | Value::Pattern(_) | Value::Matcher(_) | Value::Exception(_) | Value::Stream(_) => {
                J::String(self.to_string(v, depth + 1))
            }
            Value::Time(k, t) => time::to_json(*k, *t),
            Value::Geo(p) => super::geo::to_json(*p),
        }
    }

    /// Counts one more visited value (a walk starts again at depth 0); whether the walk
    /// must stop here: too deep, or too many values visited.
    fn walk_ends(&self, depth: usize) -> bool {
        let n = if depth == 0 { 1 } else { self.walked.get() + 1 };
        self.walked.set(n);
        depth > MAX_NESTING || n > MAX_WALK
    }

    /// Java's `String.valueOf(v)`.
    pub fn to_string(&self, v: &Value, depth: usize) -> String {
        let mut out = String::new();
        self.write_string(v, depth, &mut out);
        out
    }

    fn write_string(&self, v: &Value, depth: usize, out: &mut String) {
        if self.walk_ends(depth) {
            out.push_str("(this Collection)");
            return;
        }
        match v {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Int(i) => out.push_str(&i.to_string()),
            Value::Long(i) => out.push_str(&i.to_string()),
            Value::Float(f) => out.push_str(&float_to_string(*f)),
            Value::Double(f) => out.push_str(&double_to_string(*f)),
            Value::Char(c) => out.push_str(&String::from_utf16_lossy(&[*c])),
            Value::Str(s) => out.push_str(s),
            Value::List(i) | Value::DocField(i) => {
                let items: &[Value] = match v {
                    Value::List(_) => &self.lists[*i as usize],
                    _ => &self.docs[*i as usize].values,
                };
                out.push('[');
                for (n, x) in items.iter().enumerate() {
                    if n > 0 {
                        out.push_str(", ");
                    }
                    if x == v {
                        out.push_str("(this Collection)");
                    } else {
                        self.write_string(x, depth + 1, out);
                    }
                }
                out.push(']');
            }
            Value::Array(i) => out.push_str(&format!("[Ljava.lang.Object;@{i:x}")),
            Value::Set(i) => {
                out.push('[');
                for (n, (x, _)) in self.maps[*i as usize].iter_java().iter().enumerate() {
                    if n > 0 {
                        out.push_str(", ");
                    }
                    self.write_string(x, depth + 1, out);
                }
                out.push(']');
            }
            Value::Map(i) => {
                out.push('{');
                for (n, (k, x)) in self.maps[*i as usize].iter_java().iter().enumerate() {
                    if n > 0 {
                        out.push_str(", ");
                    }
                    if k == v {
                        out.push_str("(this Map)");
                    } else {
                        self.write_string(k, depth + 1, out);
                    }
                    out.push('=');
                    if x == v {
                        out.push_str("(this Map)");
                    } else {
                        self.write_string(x, depth + 1, out);
                    }
                }
                out.push('}');
            }
            Value::Builder(i) => out.push_str(&self.builders[*i as usize]),
            Value::Doc => out.push_str("{}"),
            Value::Params => out.push_str("{}"),
            Value::Func(i) => out.push_str(&format!("org.elasticsearch.painless.lambda${i}")),
            Value::Pattern(i) => out.push_str(self.patterns[*i as usize].source()),
            Value::Matcher(i) => out.push_str(&self.matchers[*i as usize].describe()),
            Value::Exception(i) => out.push_str(&self.exceptions[*i as usize].describe()),
            Value::Stream(i) => match self.streams[*i as usize].describe_optional(self) {
                Some(text) => out.push_str(&text),
                None => out.push_str(&format!("java.util.stream.ReferencePipeline@{i:x}")),
            },
            Value::Time(k, t) => out.push_str(&time::to_string(*k, *t)),
            Value::Geo(p) => out.push_str(&super::geo::to_string(*p)),
        }
    }

    /// Java's `equals` (Painless `==` on references): numbers of one boxed type by value,
    /// collections by content.
    pub fn equals(&self, a: &Value, b: &Value, depth: usize) -> bool {
        if self.walk_ends(depth) {
            return false;
        }
        match (a, b) {
            (Value::List(x), Value::List(y)) => {
                let (x, y) = (&self.lists[*x as usize], &self.lists[*y as usize]);
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| self.equals(p, q, depth + 1))
            }
            (Value::Map(x), Value::Map(y)) | (Value::Set(x), Value::Set(y)) => {
                let (x, y) = (&self.maps[*x as usize], &self.maps[*y as usize]);
                x.len() == y.len()
                    && x.entries.iter().all(|(k, v)| y.get(k).is_some_and(|w| self.equals(v, w, depth + 1)))
            }
            (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
            (Value::Double(x), Value::Double(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
            (Value::Time(k, x), Value::Time(l, y)) => time::equals((*k, *x), (*l, *y)),
            _ => a == b,
        }
    }

    /// The Java class name of a value (error messages).
    pub fn class_name(v: &Value) -> &'static str {
        match v {
            Value::Null => "null",
            Value::Bool(_) => "java.lang.Boolean",
            Value::Int(_) => "java.lang.Integer",
            Value::Long(_) => "java.lang.Long",
            Value::Float(_) => "java.lang.Float",
            Value::Double(_) => "java.lang.Double",
            Value::Char(_) => "java.lang.Character",
            Value::Str(_) => "java.lang.String",
            Value::List(_) => "java.util.ArrayList",
            Value::Array(_) => "java.lang.Object[]",
            Value::Map(_) => "java.util.HashMap",
            Value::Set(_) => "java.util.HashSet",
            Value::Builder(_) => "java.lang.StringBuilder",
            Value::DocField(_) => "org.elasticsearch.index.fielddata.ScriptDocValues",
            Value::Doc => "org.elasticsearch.search.lookup.LeafDocLookup",
            Value::Params => "java.util.HashMap",
            Value::Func(_) => "java.util.function.Function",
            Value::Pattern(_) => "java.util.regex.Pattern",
            Value::Matcher(_) => "java.util.regex.Matcher",
            Value::Exception(_) => "java.lang.Exception",
            Value::Stream(_) => "java.util.stream.Stream",
            Value::Time(k, _) => k.class_name(),
            Value::Geo(_) => super::geo::CLASS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_map_order_is_javas() {
        // Java: new HashMap with curie, name, matchingStatus put in that order prints
        // {name=..., curie=..., matchingStatus=...} (pinned by the Java oracle test too).
        let mut m = ScriptMap::default();
        for k in ["curie", "name", "matchingStatus"] {
            m.put(Value::Str(k.into()), Value::Int(1));
        }
        let keys: Vec<String> = m
            .iter_java()
            .into_iter()
            .map(|(k, _)| match k {
                Value::Str(s) => s.to_string(),
                _ => String::new(),
            })
            .collect();
        assert_eq!(Key::Str("name".into()).java_hash(), 3373707);
        assert_eq!(keys.len(), 3);
    }
}
