//! Regexes in scripts: `/pattern/flags` literals (compiled with the script, through the
//! Java regex translation of `analysis::java_regex`, which refuses what it cannot match
//! as Java does), `=~` (find) and `==~` (matches), and the `Pattern` and `Matcher`
//! methods Painless allow-lists, with Java's UTF-16 offsets.
//!
//! As in ES 6.8, regexes are off unless the node enables them
//! (`script.painless.regex.enabled`; here `metagate serve --script-regex` or
//! `Engine::set_script_regex`): a script that uses one fails to compile on the shard.
//! The switch is per thread, set by the engine for the search it answers ([`allow`]).

use super::error::{CompileError, Halt};
use super::interp::{Host, Run};
use super::value::{Heap, Value};
use crate::analysis::java_regex::{CaseFold, JavaRegex};
use std::cell::Cell;
use std::sync::Arc;

thread_local! {
    static ENABLED: Cell<bool> = const { Cell::new(false) };
}

/// Regexes allowed (or not) on this thread until the guard drops.
#[must_use = "the setting holds only while the guard lives"]
pub struct Allow {
    before: bool,
}

/// Allows regexes on this thread (`on`) until the guard drops.
pub fn allow(on: bool) -> Allow {
    Allow { before: ENABLED.with(|e| e.replace(on)) }
}

impl Drop for Allow {
    fn drop(&mut self) {
        ENABLED.with(|e| e.set(self.before));
    }
}

/// Whether scripts on this thread may use regexes.
pub fn enabled() -> bool {
    ENABLED.with(Cell::get)
}

/// A compiled regex literal.
#[derive(Debug)]
pub struct ScriptPattern {
    source: String,
    flags: i32,
    regex: JavaRegex,
}

impl ScriptPattern {
    /// Compiles `/pattern/flags` (Painless's flag letters) found at `offset`.
    pub fn compile(pattern: &str, flags: &str, offset: usize) -> Result<ScriptPattern, CompileError> {
        let refuse = |message: String| CompileError::new(offset, "illegal_argument_exception", message);
        let (mut bits, mut dotall, mut insensitive, mut unicode, mut literal) = (0, false, false, false, false);
        for f in flags.chars() {
            bits |= match f {
                'c' => return Err(refuse("regex flag [c] (CANON_EQ) is not supported by metagate".into())),
                'i' => {
                    insensitive = true;
                    2
                }
                'l' => {
                    literal = true;
                    16
                }
                'm' => return Err(refuse("regex flag [m] (MULTILINE) is not supported by metagate".into())),
                's' => {
                    dotall = true;
                    32
                }
                'U' => {
                    return Err(refuse("regex flag [U] (UNICODE_CHARACTER_CLASS) is not supported by metagate".into()))
                }
                'u' => {
                    unicode = true;
                    64
                }
                'x' => return Err(refuse("regex flag [x] (COMMENTS) is not supported by metagate".into())),
                other => return Err(refuse(format!("invalid regular expression: unknown flag [{other}]"))),
            };
        }
        let fold = match (insensitive, unicode) {
            (false, _) => CaseFold::Exact,
            (true, false) => CaseFold::Ascii,
            (true, true) => CaseFold::Unicode,
        };
        // LITERAL: the whole pattern quoted (a `\E` inside closes and reopens the quote).
        let java =
            if literal { format!("\\Q{}\\E", pattern.replace("\\E", "\\E\\\\E\\Q")) } else { pattern.to_string() };
        let regex = JavaRegex::compile(&java, dotall, fold).map_err(|m| {
            let kind =
                if m.contains("not supported") { "illegal_argument_exception" } else { "pattern_syntax_exception" };
            CompileError::new(offset, kind, m)
        })?;
        Ok(ScriptPattern { source: pattern.to_string(), flags: bits, regex })
    }

    /// The pattern's text (`Pattern.pattern()`, `toString()`).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The first match at or after byte `from`, refusing texts the translation would
    /// match otherwise than Java.
    fn find_at(&self, text: &str, from: usize, off: usize) -> Result<Option<Spans>, Halt> {
        self.check_text(text, off)?;
        Ok(self.regex.find_at(text, from))
    }

    fn check_text(&self, text: &str, off: usize) -> Result<(), Halt> {
        if self.regex.differs_on(text) {
            return Err(Halt::at(
                off,
                "illegal_argument_exception",
                format!(
                    "the regex [{}] would not match this text as Java does; not supported by metagate",
                    self.source
                ),
            ));
        }
        Ok(())
    }
}

/// Byte spans of a match's groups (group 0 the whole match).
type Spans = Vec<Option<(usize, usize)>>;

/// A `Matcher`: its pattern, its text, where the next `find` starts, the last match.
#[derive(Debug, Clone)]
pub struct MatcherState {
    pattern: Arc<ScriptPattern>,
    text: Arc<str>,
    /// Byte offset where the next `find` searches from; `None` once past the end.
    from: Option<usize>,
    last: Option<Spans>,
}

impl MatcherState {
    /// Java's `Matcher.toString`.
    pub fn describe(&self) -> String {
        let last = match &self.last {
            Some(g) => g[0].map(|(s, e)| self.text[s..e].to_string()).unwrap_or_default(),
            None => String::new(),
        };
        format!(
            "java.util.regex.Matcher[pattern={} region=0,{} lastmatch={last}]",
            self.pattern.source,
            utf16_len(&self.text)
        )
    }
}

fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// The byte offset of UTF-16 index `i` in `s` (its length when past the end).
fn byte_at_utf16(s: &str, i: usize) -> usize {
    let mut units = 0;
    for (b, c) in s.char_indices() {
        if units >= i {
            return b;
        }
        units += c.len_utf16();
    }
    s.len()
}

fn no_match(off: usize) -> Halt {
    Halt::at(off, "illegal_state_exception", "No match found")
}

fn text_arg(v: &Value, off: usize) -> Result<Arc<str>, Halt> {
    match v {
        Value::Str(s) => Ok(s.clone()),
        Value::Null => Err(Halt::null_pointer(off)),
        other => Err(Halt::at(
            off,
            "class_cast_exception",
            format!("Cannot cast [{}] to [java.lang.CharSequence].", Heap::class_name(other)),
        )),
    }
}

fn int_arg(v: &Value, off: usize) -> Result<i64, Halt> {
    super::api::index_arg(v, off)
}

/// Java's `Matcher.appendReplacement` reading of a replacement: `$n`, `${name}`, `\x`.
fn expand(
    replacement: &str,
    text: &str,
    groups: &Spans,
    names: &[(String, usize)],
    off: usize,
) -> Result<String, Halt> {
    let mut out = String::new();
    let chars: Vec<char> = replacement.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                i += 1;
                let Some(c) = chars.get(i) else {
                    return Err(Halt::at(off, "illegal_argument_exception", "character to be escaped is missing"));
                };
                out.push(*c);
                i += 1;
            }
            '$' => {
                i += 1;
                let Some(&c) = chars.get(i) else {
                    return Err(Halt::at(
                        off,
                        "illegal_argument_exception",
                        "Illegal group reference: group index is missing",
                    ));
                };
                let group = if c == '{' {
                    let end = chars[i..].iter().position(|&x| x == '}').map(|p| p + i);
                    let Some(end) = end else {
                        return Err(Halt::at(
                            off,
                            "illegal_argument_exception",
                            "named capturing group is missing trailing '}'",
                        ));
                    };
                    let name: String = chars[i + 1..end].iter().collect();
                    i = end + 1;
                    match names.iter().find(|(n, _)| *n == name) {
                        Some((_, g)) => *g,
                        None => {
                            return Err(Halt::at(
                                off,
                                "illegal_argument_exception",
                                format!("No group with name {{{name}}}"),
                            ))
                        }
                    }
                } else {
                    let Some(mut g) = c.to_digit(10).map(|d| d as usize) else {
                        return Err(Halt::at(off, "illegal_argument_exception", "Illegal group reference"));
                    };
                    i += 1;
                    if g >= groups.len() {
                        return Err(Halt::at(off, "index_out_of_bounds_exception", format!("No group {g}")));
                    }
                    // Java takes more digits while the number stays a group.
                    while let Some(d) = chars.get(i).and_then(|c| c.to_digit(10)) {
                        let more = g * 10 + d as usize;
                        if more >= groups.len() {
                            break;
                        }
                        g = more;
                        i += 1;
                    }
                    g
                };
                if let Some(Some((s, e))) = groups.get(group) {
                    out.push_str(&text[*s..*e]);
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

impl<H: Host> Run<'_, H> {
    /// A regex literal's value.
    pub(crate) fn pattern_value(&mut self, p: &Arc<ScriptPattern>, off: usize) -> Result<Value, Halt> {
        self.heap.grow(1, off)?;
        self.heap.patterns.push(p.clone());
        Ok(Value::Pattern((self.heap.patterns.len() - 1) as u32))
    }

    fn pattern_of(&self, v: &Value, off: usize) -> Result<Arc<ScriptPattern>, Halt> {
        match v {
            Value::Pattern(i) => Ok(self.heap.patterns[*i as usize].clone()),
            Value::Null => Err(Halt::null_pointer(off)),
            other => Err(Halt::at(
                off,
                "class_cast_exception",
                format!("Cannot cast [{}] to [java.util.regex.Pattern].", Heap::class_name(other)),
            )),
        }
    }

    /// `text =~ pattern` (`whole` false: `find`) or `text ==~ pattern` (`matches`).
    pub(crate) fn regex_test(&mut self, whole: bool, text: &Value, pattern: &Value, off: usize) -> Result<Value, Halt> {
        let p = self.pattern_of(pattern, off)?;
        let text = text_arg(text, off)?;
        p.check_text(&text, off)?;
        Ok(Value::Bool(if whole { p.regex.match_whole(&text).is_some() } else { p.regex.find_at(&text, 0).is_some() }))
    }

    fn new_matcher(&mut self, pattern: Arc<ScriptPattern>, text: Arc<str>, off: usize) -> Result<Value, Halt> {
        self.heap.grow(1, off)?;
        self.heap.matchers.push(MatcherState { pattern, text, from: Some(0), last: None });
        Ok(Value::Matcher((self.heap.matchers.len() - 1) as u32))
    }

    /// Methods of a `Pattern`.
    pub(crate) fn pattern_method(&mut self, i: u32, name: &str, args: &[Value], off: usize) -> Result<Value, Halt> {
        let p = self.heap.patterns[i as usize].clone();
        match (name, args.len()) {
            ("matcher", 1) => {
                let text = text_arg(&args[0], off)?;
                self.new_matcher(p, text, off)
            }
            ("pattern" | "toString", 0) => Ok(Value::Str(p.source.as_str().into())),
            ("flags", 0) => Ok(Value::Int(p.flags)),
            ("split", 1 | 2) => {
                let text = text_arg(&args[0], off)?;
                let limit = if args.len() == 2 { int_arg(&args[1], off)? } else { 0 };
                let parts = self.split(&p, &text, limit, off)?;
                self.heap.grow(parts.len() + 1, off)?;
                self.heap.lists.push(parts);
                Ok(Value::Array((self.heap.lists.len() - 1) as u32))
            }
            ("asPredicate", 0) => self.new_func(super::lambda::Func::PatternPredicate(i), off),
            _ => Err(Halt::at(
                off,
                "illegal_argument_exception",
                format!(
                    "Unable to find dynamic method [{name}] with [{}] arguments for class [java.util.regex.Pattern].",
                    args.len()
                ),
            )),
        }
    }

    /// Java's `Pattern.split(input, limit)`.
    fn split(&mut self, p: &ScriptPattern, text: &str, limit: i64, off: usize) -> Result<Vec<Value>, Halt> {
        let mut parts: Vec<String> = Vec::new();
        let mut index = 0usize;
        let mut from = 0usize;
        let limited = limit > 0;
        while from <= text.len() {
            let Some(g) = p.find_at(text, from, off)? else { break };
            let (s, e) = g[0].unwrap_or((from, from));
            from = if s == e { e + text[e..].chars().next().map_or(1, char::len_utf8) } else { e };
            if !limited || (parts.len() as i64) < limit - 1 {
                // A zero-width match at the very start makes no leading empty string.
                if index == 0 && s == 0 && s == e {
                    continue;
                }
                parts.push(text[index..s].to_string());
                index = e;
            } else {
                break;
            }
        }
        if index == 0 && parts.is_empty() {
            return Ok(vec![Value::Str(text.into())]);
        }
        parts.push(text[index..].to_string());
        if limit == 0 {
            while parts.last().is_some_and(String::is_empty) {
                parts.pop();
            }
        }
        Ok(parts.into_iter().map(|s| Value::Str(s.into())).collect())
    }

    /// Methods of a `Matcher`.
    pub(crate) fn matcher_method(&mut self, i: u32, name: &str, args: &[Value], off: usize) -> Result<Value, Halt> {
        let m = self.heap.matchers[i as usize].clone();
        let text = m.text.clone();
        let group_of = |m: &MatcherState, g: i64| -> Result<Option<(usize, usize)>, Halt> {
            let last = m.last.as_ref().ok_or_else(|| no_match(off))?;
            if g < 0 || g as usize >= last.len() {
                return Err(Halt::at(off, "index_out_of_bounds_exception", format!("No group {g}")));
            }
            Ok(last[g as usize])
        };
        let named = |m: &MatcherState, n: &Value| -> Result<i64, Halt> {
            let n = text_arg(n, off)?;
            m.pattern
                .regex
                .group_names()
                .into_iter()
                .find(|(x, _)| **x == *n)
                .map(|(_, g)| g as i64)
                .ok_or_else(|| Halt::at(off, "illegal_argument_exception", format!("No group with name <{n}>")))
        };
        let utf16 = |b: usize| Value::Int(utf16_len(&text[..b]) as i32);
        let set = |run: &mut Self, last: Option<Spans>, from: Option<usize>| {
            let st = &mut run.heap.matchers[i as usize];
            st.last = last;
            st.from = from;
        };
        match (name, args.len()) {
            ("matches", 0) | ("lookingAt", 0) => {
                m.pattern.check_text(&text, off)?;
                let hit = if name == "matches" {
                    m.pattern.regex.match_whole(&text)
                } else {
                    m.pattern.regex.match_prefix(&text)
                };
                let found = hit.is_some();
                let next = hit.as_ref().and_then(|g| g[0]).map(|(_, e)| e);
                set(self, hit, next.or(Some(0)));
                Ok(Value::Bool(found))
            }
            ("find", 0 | 1) => {
                let from = if args.len() == 1 {
                    let at = int_arg(&args[0], off)?;
                    if at < 0 || at as usize > utf16_len(&text) {
                        return Err(Halt::at(off, "index_out_of_bounds_exception", "Illegal start index"));
                    }
                    Some(byte_at_utf16(&text, at as usize))
                } else {
                    m.from
                };
                let Some(from) = from else {
                    set(self, None, None);
                    return Ok(Value::Bool(false));
                };
                match m.pattern.find_at(&text, from, off)? {
                    Some(g) => {
                        let (s, e) = g[0].unwrap_or((from, from));
                        // After an empty match Java searches again one character on.
                        let next = if s == e { text[e..].chars().next().map(|c| e + c.len_utf8()) } else { Some(e) };
                        set(self, Some(g), next);
                        Ok(Value::Bool(true))
                    }
                    None => {
                        set(self, None, None);
                        Ok(Value::Bool(false))
                    }
                }
            }
            ("group", 0 | 1) | ("namedGroup", 1) => {
                let g = match args.first() {
                    None => 0,
                    Some(v @ Value::Str(_)) => named(&m, v)?,
                    Some(v) => int_arg(v, off)?,
                };
                Ok(match group_of(&m, g)? {
                    Some((s, e)) => Value::Str(text[s..e].into()),
                    None => Value::Null,
                })
            }
            ("groupCount", 0) => Ok(Value::Int(m.pattern.regex.groups() as i32)),
            ("start" | "end", 0 | 1) => {
                let g = match args.first() {
                    None => 0,
                    Some(v @ Value::Str(_)) => named(&m, v)?,
                    Some(v) => int_arg(v, off)?,
                };
                Ok(match group_of(&m, g)? {
                    Some((s, e)) => utf16(if name == "start" { s } else { e }),
                    None => Value::Int(-1),
                })
            }
            ("hitEnd", 0) => Ok(Value::Bool(m.from.is_none())),
            ("reset", 0) => {
                set(self, None, Some(0));
                Ok(Value::Matcher(i))
            }
            ("pattern", 0) => {
                let p = m.pattern.clone();
                self.pattern_value(&p, off)
            }
            ("replaceAll" | "replaceFirst", 1) => {
                let replacement = text_arg(&args[0], off)?;
                let names = m.pattern.regex.group_names();
                let all = name == "replaceAll";
                let out =
                    self.replace(&m.pattern, &text, all, off, &mut |_, g| expand(&replacement, &text, g, &names, off))?;
                set(self, None, Some(0));
                self.heap.new_str(out, off)
            }
            ("toString", 0) => self.heap.new_str(m.describe(), off),
            _ => Err(Halt::at(
                off,
                "illegal_argument_exception",
                format!(
                    "Unable to find dynamic method [{name}] with [{}] arguments for class [java.util.regex.Matcher].",
                    args.len()
                ),
            )),
        }
    }

    /// Replaces the first or every match of `p` in `text` with what `with` makes of it.
    fn replace(
        &mut self,
        p: &ScriptPattern,
        text: &str,
        all: bool,
        off: usize,
        with: &mut dyn FnMut(&mut Self, &Spans) -> Result<String, Halt>,
    ) -> Result<String, Halt> {
        let mut out = String::new();
        let mut copied = 0usize;
        let mut from = 0usize;
        while from <= text.len() {
            let Some(g) = p.find_at(text, from, off)? else { break };
            let (s, e) = g[0].unwrap_or((from, from));
            out.push_str(&text[copied..s]);
            let piece = with(self, &g)?;
            self.heap.grow_string(piece.len(), off)?;
            out.push_str(&piece);
            copied = e;
            if !all {
                break;
            }
            from = if s == e {
                match text[e..].chars().next() {
                    Some(c) => e + c.len_utf8(),
                    None => break,
                }
            } else {
                e
            };
        }
        out.push_str(&text[copied..]);
        Ok(out)
    }

    /// Painless's `String.replaceAll(Pattern, Function<Matcher, String>)` and
    /// `replaceFirst`: each match's replacement is the function's value for a matcher at it.
    pub(crate) fn string_replace(
        &mut self,
        text: &Arc<str>,
        all: bool,
        args: &[Value],
        off: usize,
    ) -> Result<Value, Halt> {
        let p = self.pattern_of(&args[0], off)?;
        let f = args[1].clone();
        let m = self.new_matcher(p.clone(), text.clone(), off)?;
        let Value::Matcher(mi) = m else { return Ok(Value::Null) };
        let out = self.replace(&p, text, all, off, &mut |run, g| {
            run.heap.matchers[mi as usize].last = Some(g.clone());
            let v = run.invoke(&f, vec![m.clone()], off)?;
            Ok(run.heap.to_string(&v, 0))
        })?;
        self.heap.new_str(out, off)
    }

    /// `Pattern.asPredicate()`'s test: whether the pattern is found in the text.
    pub(crate) fn pattern_predicate(&mut self, i: u32, args: &[Value], off: usize) -> Result<Value, Halt> {
        let [text] = args else {
            return Err(Halt::at(off, "illegal_argument_exception", "a predicate takes one argument"));
        };
        let text = text_arg(text, off)?;
        let p = self.heap.patterns[i as usize].clone();
        Ok(Value::Bool(p.find_at(&text, 0, off)?.is_some()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_compile_or_are_refused() {
        assert!(ScriptPattern::compile("a.c", "s", 0).is_ok());
        assert!(ScriptPattern::compile("abc", "i", 0).is_ok());
        assert_eq!(ScriptPattern::compile("abc", "iu", 0).unwrap().flags, 66);
        assert!(ScriptPattern::compile("abc", "m", 0).is_err());
        assert!(ScriptPattern::compile("(?<=a)b", "", 0).is_err());
        assert!(ScriptPattern::compile("é", "i", 0).is_err());
    }

    #[test]
    fn the_switch_is_scoped() {
        assert!(!enabled());
        {
            let _on = allow(true);
            assert!(enabled());
        }
        assert!(!enabled());
    }
}
