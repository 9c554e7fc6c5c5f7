//! A document's value for a `completion` field, read as ES 6.8's
//! `CompletionFieldMapper.parse` reads it: a string, an object `{input, weight,
//! contexts}`, or an array of those; then made into the field's entry terms
//! (`mapping::completion::entry_term`).

use super::json::Json;
use crate::error::{Error, Exception, Result};
use crate::mapping::completion::{
    entry_term, reserved_char, CompletionMapping, CONTEXT_SEPARATOR, END_LABEL, HOLE_CHARACTER, SEP_LABEL,
};
use std::collections::BTreeSet;

/// One input of a document with its weight and contexts (by context number).
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// The text as given.
    pub input: String,
    /// `weight` (1 unless given).
    pub weight: u32,
    /// Context values by context number.
    pub contexts: Vec<BTreeSet<String>>,
}

fn illegal(reason: String) -> Error {
    Error::illegal_argument(reason)
}

fn parse_error(reason: String) -> Error {
    Error::new(400, Exception::new("parse_exception", reason))
}

/// Reads `v` (the field's whole value in the document) into `inputs`: an input given
/// twice keeps its highest weight, as ES's input map does.
pub fn read_inputs(path: &str, mapping: &CompletionMapping, v: &Json<'_>, inputs: &mut Vec<Input>) -> Result<()> {
    match v {
        Json::Null => Ok(()),
        Json::Array(items) => items.iter().try_for_each(|item| read_one(path, mapping, item, inputs)),
        other => read_one(path, mapping, other, inputs),
    }
}

fn token_name(v: &Json<'_>) -> &'static str {
    match v {
        Json::Null => "VALUE_NULL",
        Json::Bool(_) => "VALUE_BOOLEAN",
        Json::Number(_) => "VALUE_NUMBER",
        Json::Str(_) => "VALUE_STRING",
        Json::Array(_) => "START_ARRAY",
        Json::Object(_) => "START_OBJECT",
    }
}

fn add(inputs: &mut Vec<Input>, input: Input) {
    match inputs.iter_mut().find(|i| i.input == input.input) {
        Some(old) if old.weight < input.weight => *old = input,
        Some(_) => {}
        None => inputs.push(input),
    }
}

fn read_one(path: &str, mapping: &CompletionMapping, v: &Json<'_>, inputs: &mut Vec<Input>) -> Result<()> {
    let no_contexts = || vec![BTreeSet::new(); mapping.contexts.len()];
    match v {
        Json::Str(s) => {
            add(inputs, Input { input: s.to_string(), weight: 1, contexts: no_contexts() });
            Ok(())
        }
        Json::Object(members) => {
            let mut texts: Vec<String> = Vec::new();
            let mut weight = 1u32;
            let mut contexts = no_contexts();
            for (k, val) in members {
                match k.as_ref() {
                    "input" => match val {
                        Json::Str(s) => texts.push(s.to_string()),
                        Json::Array(a) => {
                            for item in a {
                                match item {
                                    Json::Str(s) => texts.push(s.to_string()),
                                    other => {
                                        return Err(illegal(format!(
                                            "input array must have string values, but was [{}]",
                                            token_name(other)
                                        )))
                                    }
                                }
                            }
                        }
                        other => {
                            return Err(illegal(format!(
                                "input must be a string or array, but was [{}]",
                                token_name(other)
                            )))
                        }
                    },
                    "weight" => weight = read_weight(val)?,
                    "contexts" => read_contexts(path, mapping, val, &mut contexts)?,
                    other => {
                        return Err(illegal(format!(
                            "unknown field name [{other}], must be one of [input, weight, contexts]"
                        )))
                    }
                }
            }
            for t in texts {
                add(inputs, Input { input: t, weight, contexts: contexts.clone() });
            }
            Ok(())
        }
        other => Err(Error::new(
            400,
            Exception::new(
                "parsing_exception",
                format!("failed to parse [{path}]: expected text or object, but got {}", token_name(other)),
            ),
        )),
    }
}

/// `weight`: an integer or a string of one, within `[0..2147483647]`.
fn read_weight(v: &Json<'_>) -> Result<u32> {
    let n: i64 = match v {
        Json::Str(s) => s.parse().map_err(|_| illegal(format!("weight must be an integer, but was [{s}]")))?,
        Json::Number(n) => match n.as_i64() {
            Some(i) => i,
            None => return Err(illegal(format!("weight must be an integer, but was [{n}]"))),
        },
        other => return Err(illegal(format!("weight must be a number or string, but was [{}]", token_name(other)))),
    };
    if !(0..=i64::from(i32::MAX)).contains(&n) {
        return Err(illegal(format!("weight must be in the interval [0..2147483647], but was [{n}]")));
    }
    Ok(n as u32)
}

fn read_contexts(
    path: &str,
    mapping: &CompletionMapping,
    v: &Json<'_>,
    contexts: &mut [BTreeSet<String>],
) -> Result<()> {
    if mapping.contexts.is_empty() {
        return Err(illegal(format!("contexts field is not supported for field: [{path}]")));
    }
    let Json::Object(members) = v else {
        return Err(illegal(format!("contexts must be an object or an array , but was [{}]", token_name(v))));
    };
    for (name, val) in members {
        let Some(i) = mapping.context_index(name) else {
            return Err(illegal(format!("Unknown context name [{name}], must be one of {}", context_names(mapping))));
        };
        let scalar = |item: &Json<'_>| match item {
            Json::Str(s) => Some(s.to_string()),
            Json::Number(n) => Some(n.to_string()),
            Json::Bool(b) => Some(b.to_string()),
            _ => None,
        };
        match val {
            Json::Array(a) => {
                for item in a {
                    let s = scalar(item).ok_or_else(|| {
                        parse_error(format!(
                            "context array must have string, number or boolean values, but was [{}]",
                            token_name(item)
                        ))
                    })?;
                    contexts[i].insert(s);
                }
            }
            other => {
                let s = scalar(other).ok_or_else(|| {
                    parse_error(format!(
                        "contexts must be a string, number or boolean or a list of string, number or boolean, but was [{}]",
                        token_name(other)
                    ))
                })?;
                contexts[i].insert(s);
            }
        }
    }
    Ok(())
}

/// The context names as Java prints the key set of ES's context map.
fn context_names(mapping: &CompletionMapping) -> String {
    let names: Vec<&str> = mapping.contexts.iter().map(|c| c.name.as_str()).collect();
    format!("[{}]", names.join(", "))
}

/// The entry terms of a document's inputs: each input truncated to
/// `max_input_length` and analysed; blank inputs are skipped (ES records them as
/// ignored); `path_values(i)` gives the values of context `i`'s `path` field.
pub fn entry_terms(
    path: &str,
    mapping: &CompletionMapping,
    inputs: &[Input],
    path_values: &dyn Fn(usize) -> Vec<String>,
) -> Result<Vec<String>> {
    let mut terms = Vec::new();
    let from_paths: Vec<Vec<String>> = (0..mapping.contexts.len()).map(path_values).collect();
    for input in inputs {
        if input.input.trim().is_empty() {
            continue;
        }
        let surface = mapping.truncate(&input.input);
        if let Some((c, at)) = reserved_char(surface, &[END_LABEL, SEP_LABEL, HOLE_CHARACTER]) {
            return Err(illegal(format!("Illegal input [{surface}] reserved character [{c}] at index {at}")));
        }
        let analysed = mapping.analyse_input(surface)?;
        if mapping.contexts.is_empty() {
            terms.push(entry_term(&analysed, input.weight, surface, &[]));
            continue;
        }
        let mut contexts: Vec<(usize, &str)> = Vec::new();
        for (i, given) in input.contexts.iter().enumerate() {
            let all: BTreeSet<&str> =
                given.iter().map(String::as_str).chain(from_paths[i].iter().map(String::as_str)).collect();
            for value in all {
                if let Some((c, at)) = reserved_char(value, &[CONTEXT_SEPARATOR, END_LABEL]) {
                    return Err(illegal(format!("Illegal value [{value}] reserved character [{c}] at index {at}")));
                }
                contexts.push((i, value));
            }
        }
        if contexts.is_empty() {
            return Err(illegal(format!("Contexts are mandatory in context enabled completion field [{path}]")));
        }
        terms.push(entry_term(&analysed, input.weight, surface, &contexts));
    }
    Ok(terms)
}
