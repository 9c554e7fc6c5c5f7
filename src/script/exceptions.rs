//! `try` / `catch` / `throw`: the Java exception classes Painless allow-lists, which
//! failures each `catch` takes, and exception values (`e.getMessage()`).
//!
//! A failure is a [`Halt::Error`] carrying the ES name of its Java exception; a `catch`
//! takes it when that class is the caught one or a subclass. Painless's own errors (the
//! loop counter), a stack overflow, this engine's breakers and a request's timeout or
//! cancellation are not exceptions and pass every `catch`, as Java `Error`s do.

use super::ast::{Catch, Stmt};
use super::error::{Halt, RuntimeError};
use super::interp::{Flow, Host, Run};
use super::value::{Heap, Value};

/// A Java exception class scripts may name.
#[derive(Debug, PartialEq, Eq)]
pub struct ExceptionClass {
    /// Its simple name, as scripts write it.
    pub name: &'static str,
    /// Its package (for `toString`).
    pub package: &'static str,
    /// Its ES name (`illegal_argument_exception`).
    pub kind: &'static str,
    /// Its superclass's ES name (`None` for `Exception`).
    pub parent: Option<&'static str>,
}

macro_rules! classes {
    ($(($name:literal, $pkg:literal, $kind:literal, $parent:expr)),* $(,)?) => {
        &[$(ExceptionClass { name: $name, package: $pkg, kind: $kind, parent: $parent }),*]
    };
}

/// The allow-listed exceptions, with their place in Java's hierarchy.
pub static CLASSES: &[ExceptionClass] = classes![
    ("Exception", "java.lang", "exception", None),
    ("RuntimeException", "java.lang", "runtime_exception", Some("exception")),
    ("ArithmeticException", "java.lang", "arithmetic_exception", Some("runtime_exception")),
    ("ArrayStoreException", "java.lang", "array_store_exception", Some("runtime_exception")),
    ("ClassCastException", "java.lang", "class_cast_exception", Some("runtime_exception")),
    ("IllegalArgumentException", "java.lang", "illegal_argument_exception", Some("runtime_exception")),
    ("IllegalStateException", "java.lang", "illegal_state_exception", Some("runtime_exception")),
    ("IndexOutOfBoundsException", "java.lang", "index_out_of_bounds_exception", Some("runtime_exception")),
    ("NegativeArraySizeException", "java.lang", "negative_array_size_exception", Some("runtime_exception")),
    ("NullPointerException", "java.lang", "null_pointer_exception", Some("runtime_exception")),
    ("UnsupportedOperationException", "java.lang", "unsupported_operation_exception", Some("runtime_exception")),
    ("SecurityException", "java.lang", "security_exception", Some("runtime_exception")),
    ("NumberFormatException", "java.lang", "number_format_exception", Some("illegal_argument_exception")),
    (
        "ArrayIndexOutOfBoundsException",
        "java.lang",
        "array_index_out_of_bounds_exception",
        Some("index_out_of_bounds_exception")
    ),
    (
        "StringIndexOutOfBoundsException",
        "java.lang",
        "string_index_out_of_bounds_exception",
        Some("index_out_of_bounds_exception")
    ),
    ("ConcurrentModificationException", "java.util", "concurrent_modification_exception", Some("runtime_exception")),
    ("NoSuchElementException", "java.util", "no_such_element_exception", Some("runtime_exception")),
    ("PatternSyntaxException", "java.util.regex", "pattern_syntax_exception", Some("illegal_argument_exception")),
];

/// ES names of failures no `catch` takes (Java `Error`s, and this engine's limits).
const UNCATCHABLE: &[&str] = &["painless_error", "stack_overflow_error", "circuit_breaking_exception"];

/// The class a script names.
pub fn by_name(name: &str) -> Option<&'static ExceptionClass> {
    CLASSES.iter().find(|c| c.name == name)
}

fn by_kind(kind: &str) -> Option<&'static ExceptionClass> {
    CLASSES.iter().find(|c| c.kind == kind)
}

/// Whether a failure of ES name `kind` is an instance of `class`.
pub fn is_instance(kind: &str, class: &ExceptionClass) -> bool {
    if UNCATCHABLE.contains(&kind) {
        return false;
    }
    let mut at = Some(kind);
    while let Some(k) = at {
        if k == class.kind {
            return true;
        }
        // A failure of a kind not in the table (a host's `exception`) is an Exception.
        at = match by_kind(k) {
            Some(c) => c.parent,
            None => Some("exception"),
        };
        if at == Some(k) {
            break;
        }
    }
    false
}

/// An exception value: its ES name and message.
#[derive(Debug, Clone)]
pub struct Thrown {
    /// ES name of its class.
    pub kind: &'static str,
    /// Its message (`getMessage()`), `None` for none.
    pub message: Option<String>,
}

impl Thrown {
    /// Java's `toString`: the class's full name, then `: message` when there is one.
    pub fn describe(&self) -> String {
        let class = match by_kind(self.kind) {
            Some(c) => format!("{}.{}", c.package, c.name),
            None => "java.lang.Exception".to_string(),
        };
        match &self.message {
            Some(m) => format!("{class}: {m}"),
            None => class,
        }
    }
}

/// Methods of an exception value.
pub fn call_method(heap: &mut Heap, i: u32, name: &str, argc: usize, off: usize) -> Result<Value, Halt> {
    let t = heap.exceptions[i as usize].clone();
    match (name, argc) {
        ("getMessage" | "getLocalizedMessage", 0) => Ok(t.message.map_or(Value::Null, |m| Value::Str(m.into()))),
        ("toString", 0) => heap.new_str(t.describe(), off),
        _ => Err(Halt::at(
            off,
            "illegal_argument_exception",
            format!(
                "Unable to find dynamic method [{name}] with [{argc}] arguments for class [{}].",
                t.describe().split(':').next().unwrap_or("java.lang.Exception")
            ),
        )),
    }
}

impl<H: Host> Run<'_, H> {
    /// `new T(message)` of an exception class.
    pub(crate) fn new_exception(
        &mut self,
        class: &'static ExceptionClass,
        args: Vec<Value>,
        off: usize,
    ) -> Result<Value, Halt> {
        let message = match args.as_slice() {
            [] => None,
            [Value::Null] => None,
            [m] => Some(self.heap.to_string(m, 0)),
            _ => {
                return Err(Halt::at(
                    off,
                    "illegal_argument_exception",
                    format!("Unknown new call on type [{}] with [{}] arguments.", class.name, args.len()),
                ))
            }
        };
        self.heap.exceptions.push(Thrown { kind: class.kind, message });
        Ok(Value::Exception((self.heap.exceptions.len() - 1) as u32))
    }

    /// `throw v`: the failure the value is, at `off`.
    pub(crate) fn throw(&mut self, v: Value, off: usize) -> Halt {
        match v {
            Value::Exception(i) => {
                let t = &self.heap.exceptions[i as usize];
                Halt::Error(Box::new(RuntimeError { offset: off, kind: t.kind, message: t.message.clone() }))
            }
            Value::Null => Halt::null_pointer(off),
            other => Halt::at(
                off,
                "class_cast_exception",
                format!("Cannot cast [{}] to [java.lang.Throwable].", Heap::class_name(&other)),
            ),
        }
    }

    /// `try { body } catch ...`: the body's flow, or the first matching clause's (`last`:
    /// the statement ends a body, so its blocks' last expressions are its value).
    pub(crate) fn exec_try(&mut self, body: &[Stmt], catches: &[Catch], last: bool) -> Result<Flow, Halt> {
        let run = |run: &mut Self, b: &[Stmt]| if last { run.exec_block_last(b) } else { run.exec_block(b) };
        let e = match run(self, body) {
            Err(Halt::Error(e)) => e,
            other => return other,
        };
        let Some(c) = catches.iter().find(|c| is_instance(e.kind, c.class)) else {
            return Err(Halt::Error(e));
        };
        self.heap.exceptions.push(Thrown { kind: e.kind, message: e.message });
        self.slots[c.slot] = Value::Exception((self.heap.exceptions.len() - 1) as u32);
        run(self, &c.body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catches_follow_javas_hierarchy() {
        let iae = by_name("IllegalArgumentException").unwrap();
        let ioobe = by_name("IndexOutOfBoundsException").unwrap();
        let ex = by_name("Exception").unwrap();
        assert!(is_instance("number_format_exception", iae));
        assert!(is_instance("string_index_out_of_bounds_exception", ioobe));
        assert!(!is_instance("null_pointer_exception", iae));
        assert!(is_instance("null_pointer_exception", ex));
        assert!(is_instance("exception", ex));
        assert!(!is_instance("painless_error", ex));
        assert!(!is_instance("stack_overflow_error", ex));
    }
}
