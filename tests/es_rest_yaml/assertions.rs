//! The stash and the assertions of ES's REST test runner: `match`, `length`, `is_true`,
//! `is_false`, `gt`/`gte`/`lt`/`lte`, `contains`, `close_to` and `set`, over dotted paths
//! (`\.` for a dot in a key, numbers for array positions, `$name` for stashed values).

use regex_automata::meta::Regex;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Values saved by `set` (and the last response, `$body`).
#[derive(Default)]
pub struct Stash {
    values: HashMap<String, Value>,
    /// The body of the last response.
    pub last: Value,
}

impl Stash {
    /// Saves `value` as `name`.
    pub fn set(&mut self, name: &str, value: Value) {
        self.values.insert(name.to_string(), value);
    }

    /// The value stashed as `name` (`$name`, `${name}` or `name`); as ES's `Stash`
    /// reads keys as paths, `name.a.0` is the value at `a.0` inside it (so
    /// `$body.a.0` reads the last response).
    fn get(&self, key: &str) -> Result<Value, String> {
        let name = key.trim_start_matches('$').trim_start_matches('{').trim_end_matches('}');
        let mut segments = split_path(name).into_iter();
        let root = segments.next().unwrap_or_default();
        let mut current = if root == "body" {
            self.last.clone()
        } else {
            self.values.get(&root).cloned().ok_or_else(|| format!("nothing stashed as [{name}]"))?
        };
        for seg in segments {
            let next = match &current {
                Value::Object(m) => m.get(&seg),
                Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
                _ => None,
            };
            current = next.cloned().ok_or_else(|| format!("nothing stashed as [{name}]"))?;
        }
        Ok(current)
    }

    /// `v` with stashed values put in: a string `$name` is replaced by the value, `${name}`
    /// inside a string by its text, and keys starting with `$` by the value's text.
    pub fn replace(&self, v: &Value) -> Result<Value, String> {
        Ok(match v {
            Value::String(s) if s.starts_with('$') && !s.contains(' ') && !s.starts_with("${") => self.get(s)?,
            Value::String(s) if s.contains("${") => Value::String(self.embed(s)?),
            Value::Array(a) => Value::Array(a.iter().map(|x| self.replace(x)).collect::<Result<_, _>>()?),
            Value::Object(m) => {
                let mut out = Map::new();
                for (k, x) in m {
                    let key = if k.starts_with('$') { text(&self.get(k)?) } else { k.clone() };
                    out.insert(key, self.replace(x)?);
                }
                Value::Object(out)
            }
            other => other.clone(),
        })
    }

    fn embed(&self, s: &str) -> Result<String, String> {
        let mut out = String::new();
        let mut rest = s;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let end = rest[start..].find('}').ok_or_else(|| format!("unclosed stash key in [{s}]"))? + start;
            out.push_str(&text(&self.get(&rest[start..=end])?));
            rest = &rest[end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    /// The value at `path` of the last response (`None` when absent).
    pub fn at(&self, path: &str) -> Result<Option<Value>, String> {
        if path.is_empty() || path == "$body" {
            return Ok(Some(self.last.clone()));
        }
        let mut current = &self.last;
        let mut owned;
        for seg in split_path(path) {
            let seg = if seg.starts_with('$') { text(&self.get(&seg)?) } else { seg };
            let next = match current {
                Value::Object(m) => m.get(&seg),
                Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
                _ => None,
            };
            match next {
                Some(v) => {
                    owned = v.clone();
                    current = &owned;
                }
                None => return Ok(None),
            }
        }
        Ok(Some(current.clone()))
    }
}

/// A path's segments: split at dots not escaped with `\`.
fn split_path(path: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = path.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'.') => {
                chars.next();
                out.last_mut().unwrap().push('.');
            }
            '.' => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out
}

/// A scalar's text (strings without quotes).
pub fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Runs one assertion step (`kind` with its `{path: expected}` argument).
pub fn check(kind: &str, arg: &Value, stash: &mut Stash) -> Result<(), String> {
    // `is_true` and `is_false` name a path alone.
    let single;
    let pairs = match arg {
        Value::Object(pairs) => pairs,
        Value::String(path) if kind == "is_true" || kind == "is_false" => {
            single = Map::from_iter([(path.clone(), Value::Null)]);
            &single
        }
        _ => return Err(format!("{kind}: argument is not an object")),
    };
    for (path, expected) in pairs {
        match kind {
            "set" => {
                let name = expected.as_str().ok_or("set: the name is not a string")?;
                let v = stash.at(path)?.ok_or_else(|| format!("set: nothing at [{path}]"))?;
                stash.set(name, v);
            }
            "match" => {
                let expected = stash.replace(expected)?;
                let actual = stash.at(path)?;
                if !matches(actual.as_ref(), &expected)? {
                    return Err(format!(
                        "match [{path}]: expected {expected}, got {}",
                        actual.map_or("nothing".into(), |a| a.to_string())
                    ));
                }
            }
            "length" => {
                let want = stash.replace(expected)?.as_u64().ok_or("length: not a number")?;
                let actual = stash.at(path)?.ok_or_else(|| format!("length [{path}]: nothing there"))?;
                let got = match &actual {
                    Value::Array(a) => a.len(),
                    Value::Object(m) => m.len(),
                    Value::String(s) => s.chars().count(),
                    _ => return Err(format!("length [{path}]: {actual} has no length")),
                } as u64;
                if got != want {
                    return Err(format!("length [{path}]: expected {want}, got {got}"));
                }
            }
            "is_true" | "is_false" => {
                let actual = stash.at(path)?;
                let truthy = match &actual {
                    None | Some(Value::Null) | Some(Value::Bool(false)) => false,
                    Some(Value::String(s)) => !(s.is_empty() || s == "false"),
                    Some(Value::Number(n)) => n.as_f64() != Some(0.0),
                    Some(_) => true,
                };
                if truthy != (kind == "is_true") {
                    return Err(format!("{kind} [{path}]: got {}", actual.map_or("nothing".into(), |a| a.to_string())));
                }
            }
            "gt" | "gte" | "lt" | "lte" => {
                let want = stash.replace(expected)?;
                let actual = stash.at(path)?.ok_or_else(|| format!("{kind} [{path}]: nothing there"))?;
                let ord = compare(&actual, &want).ok_or_else(|| format!("{kind} [{path}]: {actual} vs {want}"))?;
                let ok = match kind {
                    "gt" => ord.is_gt(),
                    "gte" => ord.is_ge(),
                    "lt" => ord.is_lt(),
                    _ => ord.is_le(),
                };
                if !ok {
                    return Err(format!("{kind} [{path}]: {actual} is not {kind} {want}"));
                }
            }
            "contains" => {
                let want = stash.replace(expected)?;
                let actual = stash.at(path)?.ok_or_else(|| format!("contains [{path}]: nothing there"))?;
                let found = match &actual {
                    Value::Array(a) => a.iter().any(|x| json_eq(x, &want) || subset(&want, x)),
                    _ => false,
                };
                if !found {
                    return Err(format!("contains [{path}]: {want} not in {actual}"));
                }
            }
            "close_to" => {
                let want = stash.replace(expected)?;
                let (value, error) = (want["value"].as_f64(), want["error"].as_f64());
                let actual = stash.at(path)?.and_then(|v| v.as_f64());
                match (actual, value, error) {
                    (Some(a), Some(v), Some(e)) if (a - v).abs() <= e => {}
                    _ => return Err(format!("close_to [{path}]: {actual:?} not within {want}")),
                }
            }
            other => return Err(format!("unknown assertion [{other}]")),
        }
    }
    Ok(())
}

/// ES's `match`: a `/regex/` string (comments allowed, as Java's Pattern.COMMENTS) found in
/// the value's text; otherwise equality with numbers compared by value.
fn matches(actual: Option<&Value>, expected: &Value) -> Result<bool, String> {
    if let Value::String(s) = expected {
        let t = s.trim();
        if t.len() > 1 && t.starts_with('/') && t.ends_with('/') {
            let re = java_regex(&t[1..t.len() - 1], true)?;
            return Ok(actual.is_some_and(|a| re.is_match(&text(a))));
        }
    }
    Ok(match actual {
        None => expected.is_null(),
        Some(a) => json_eq(a, expected),
    })
}

/// A Java regex as ES's runner compiles it (`comments`: `Pattern.COMMENTS`, as `match`
/// uses; `catch` does not), found anywhere in the text as its `RegexMatcher` does. Java's
/// `$` also matches before a final line break, which Rust's does not: it is rewritten.
pub fn java_regex(pattern: &str, comments: bool) -> Result<Regex, String> {
    let mut out = String::from(if comments { "(?x)" } else { "" });
    let (mut escaped, mut in_class) = (false, false);
    for c in pattern.chars() {
        match c {
            _ if escaped => {
                escaped = false;
                out.push(c);
            }
            '\\' => {
                escaped = true;
                out.push(c);
            }
            '[' => {
                in_class = true;
                out.push(c);
            }
            ']' => {
                in_class = false;
                out.push(c);
            }
            '$' if !in_class => out.push_str("(?:\\n?\\z)"),
            c => out.push(c),
        }
    }
    Regex::new(&out).map_err(|e| format!("regex /{pattern}/: {e}"))
}

/// Equality with numbers compared by value (1 equals 1.0).
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

fn subset(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => w.iter().all(|(k, v)| g.get(k).is_some_and(|x| json_eq(x, v))),
        _ => false,
    }
}

fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64()?.partial_cmp(&y.as_f64()?),
        (Value::String(x), Value::Number(y)) => x.parse::<f64>().ok()?.partial_cmp(&y.as_f64()?),
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        _ => None,
    }
}
