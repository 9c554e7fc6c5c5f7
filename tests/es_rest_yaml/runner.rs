//! Runs one test: `skip`, then the `setup` steps and the test's steps, each `do` sent
//! (reads through the gateway, writes as loads) and checked as ES's runner checks it
//! (`catch`, `warnings`, `allowed_warnings`, `headers`, `ignore`), each assertion run
//! against the last response.

use super::apis::{api, body_text, http_call};
use super::assertions::{check, java_regex, Stash};
use super::suite::{skip_reason, TestCase};
use super::world::{Answer, World};
use regex_automata::meta::Regex;
use serde_json::{Map, Value};

/// How a test ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Every step passed.
    Passed,
    /// A step failed (the message says which and why).
    Failed(String),
    /// `skip` excluded it for 6.8.23 (the version ranges of the test texts).
    SkippedByVersion(String),
    /// `skip` names a runner feature this runner does not have.
    SkippedByFeature(String),
}

/// Runs `test` over a new file at `path`.
pub fn run(test: &TestCase, path: &std::path::Path) -> Outcome {
    for steps in [&test.setup, &test.steps] {
        if let Some(skip) = steps.first().and_then(|s| s.get("skip")) {
            if let Some(why) = skip_reason(skip) {
                return if why.starts_with("version") {
                    Outcome::SkippedByVersion(why)
                } else {
                    Outcome::SkippedByFeature(why)
                };
            }
        }
    }
    let mut world = World::new(path);
    let mut stash = Stash::default();
    for (section, steps) in [("setup", &test.setup), ("test", &test.steps)] {
        for (i, step) in steps.iter().enumerate() {
            if let Err(e) = run_step(step, &mut world, &mut stash) {
                return Outcome::Failed(format!("{section} step {}: {e}", i + 1));
            }
        }
    }
    Outcome::Passed
}

fn run_step(step: &Value, world: &mut World, stash: &mut Stash) -> Result<(), String> {
    let Some((kind, arg)) = step.as_object().and_then(|o| o.iter().next()) else {
        return Err(format!("step is not an object: {step}"));
    };
    match kind.as_str() {
        "skip" => Ok(()),
        "do" => run_do(arg, world, stash),
        _ => check(kind, arg, stash),
    }
}

fn run_do(arg: &Value, world: &mut World, stash: &mut Stash) -> Result<(), String> {
    let arg = arg.as_object().ok_or("do: not an object")?;
    let mut catch = None;
    let mut expected_warnings = Vec::new();
    let mut allowed_warnings = Vec::new();
    let mut warning_regexes = Vec::new();
    let mut headers = Vec::new();
    let mut call = None;
    for (k, v) in arg {
        match k.as_str() {
            "catch" => catch = v.as_str().map(str::to_string),
            "warnings" => expected_warnings = strings(v),
            "allowed_warnings" => allowed_warnings = strings(v),
            "warnings_regex" | "allowed_warnings_regex" => warning_regexes.extend(strings(v)),
            "headers" => {
                for (h, val) in v.as_object().into_iter().flatten() {
                    headers.push((h.clone(), super::assertions::text(&stash.replace(val)?)));
                }
            }
            "node_selector" => return Err("unsupported: node_selector".into()),
            _ => call = Some((k.clone(), v.clone())),
        }
    }
    let (api_name, params) = call.ok_or("do: no API named")?;
    let params = match stash.replace(&params)? {
        Value::Object(m) => m,
        Value::Null => Map::new(),
        other => return Err(format!("do {api_name}: parameters are not an object: {other}")),
    };
    let answer = send(world, &api_name, params.clone(), &headers)?;
    let ignore: Vec<u64> = match params.get("ignore") {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_u64).collect(),
        Some(v) => v.as_u64().into_iter().collect(),
        None => Vec::new(),
    };
    let is_error = answer.status >= 400 && !ignore.contains(&u64::from(answer.status));
    stash.last = answer.body.clone();
    match (&catch, is_error) {
        (None, true) => return Err(format!("do {api_name}: status {} {}", answer.status, short(&answer.body))),
        (Some(c), false) => {
            return Err(format!(
                "do {api_name}: expected catch [{c}], got status {} {}",
                answer.status,
                short(&answer.body)
            ))
        }
        (Some(c), true) => check_catch(c, &answer)?,
        (None, false) => {}
    }
    check_warnings(&answer.warnings, &expected_warnings, &allowed_warnings, &warning_regexes)
        .map_err(|e| format!("do {api_name}: {e}"))
}

/// Sends a call: a read API through the gateway, a write to the world.
fn send(
    world: &mut World,
    api_name: &str,
    mut params: Map<String, Value>,
    headers: &[(String, String)],
) -> Result<Answer, String> {
    let Some(spec) = api(api_name) else {
        return world.write(api_name, &params).map_err(|u| format!("unsupported: {}", u.0));
    };
    let body = params.remove("body").map(|b| body_text(&b)).unwrap_or_default();
    params.remove("ignore");
    let call = http_call(api_name, &spec, &params, &body);
    let mut answer = world.send(&call.method, &call.path, &call.query, &call.body, headers);
    if call.method == "HEAD" {
        // ES's runner reads a HEAD as true (found) or false (not found).
        answer.body = Value::Bool(answer.status == 200);
        if answer.status == 404 {
            answer.status = 200;
        }
    }
    Ok(answer)
}

fn check_catch(catch: &str, answer: &Answer) -> Result<(), String> {
    let status = answer.status;
    let ok = match catch {
        "missing" => status == 404,
        "conflict" => status == 409,
        "forbidden" => status == 403,
        "unauthorized" => status == 401,
        "request_timeout" => status == 408,
        "bad_request" => status == 400,
        "unavailable" => status == 503,
        // 6.x's runner: any error but those the named catches take (400 included).
        "request" => status >= 400 && ![401, 403, 404, 408, 409].contains(&status),
        "param" => return Err("unsupported: catch param (a client-side parameter check)".into()),
        c if c.len() > 1 && c.starts_with('/') && c.ends_with('/') => {
            let re = java_regex(&c[1..c.len() - 1], false)?;
            let text = match &answer.body {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            re.is_match(&text)
        }
        other => return Err(format!("unknown catch [{other}]")),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("catch [{catch}] did not match status {status} {}", short(&answer.body)))
    }
}

fn check_warnings(got: &[String], expected: &[String], allowed: &[String], regexes: &[String]) -> Result<(), String> {
    for w in expected {
        if !got.contains(w) {
            return Err(format!("expected warning [{w}], got {got:?}"));
        }
    }
    for w in got {
        let regex_allows = regexes.iter().any(|r| Regex::new(r).is_ok_and(|re| re.is_match(w)));
        if !expected.contains(w) && !allowed.contains(w) && !regex_allows {
            return Err(format!("unexpected warning [{w}]"));
        }
    }
    Ok(())
}

fn strings(v: &Value) -> Vec<String> {
    match v {
        Value::Array(a) => a.iter().map(super::assertions::text).collect(),
        Value::Null => Vec::new(),
        other => vec![super::assertions::text(other)],
    }
}

/// A body cut for a failure message.
fn short(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(300) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s,
    }
}
