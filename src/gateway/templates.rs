//! Search templates on the gateway, as ES 6.8's lang-mustache module answers them:
//! `_search/template` (the rendered search run as `_search`), `_msearch/template` (each
//! header and template pair rendered and run on its own, a failure being that item's
//! `error`) and `_render/template` (`{"template_output": …}`).

use super::{json_response, written_response, Response};
use crate::engine::Engine;
use crate::error::{Error, Exception, Result};
use crate::request::msearch::{MsearchItem, MsearchRequest};
use crate::request::template::{stored_template, SearchTemplate};
use serde_json::{json, Value};

/// URL parameters of `_search/template` that reach the search: where and how it runs.
/// The others RestSearchAction reads (`q`, `from`, `size`, ...) shape a search source
/// that the rendered template replaces, so ES drops them.
const KEPT_SEARCH_PARAMS: [&str; 13] = [
    "scroll",
    "typed_keys",
    "rest_total_hits_as_int",
    "search_type",
    "routing",
    "preference",
    "request_cache",
    "batched_reduce_size",
    "allow_partial_search_results",
    "expand_wildcards",
    "ignore_unavailable",
    "allow_no_indices",
    "ignore_throttled",
];

/// The search body a template request renders to (`explain` and `profile` of the
/// template request set over the template's own, as ES sets them), and the URL
/// parameters that still apply to it.
pub(super) fn search_body(body: &str, params: &[(String, String)]) -> Result<(String, Vec<(String, String)>)> {
    let template = SearchTemplate::parse(body)?;
    let rendered = rendered_search(&template)?;
    let kept = params.iter().filter(|(k, _)| KEPT_SEARCH_PARAMS.contains(&k.as_str())).cloned().collect();
    Ok((rendered, kept))
}

/// The rendered search of `template` as body text.
fn rendered_search(template: &SearchTemplate) -> Result<String> {
    let mut source = template.rendered_json()?;
    if let Value::Object(o) = &mut source {
        o.insert("explain".into(), json!(template.explain));
        if template.profile {
            o.insert("profile".into(), json!(true));
        }
    }
    Ok(source.to_string())
}

/// `_render/template[/{id}]`: the rendered template as JSON.
pub(super) fn render(id: Option<&str>, body: &str, params: &[(String, String)]) -> Result<Response> {
    if let Some(id) = id {
        return Err(stored_template(id));
    }
    let template = SearchTemplate::parse(body)?;
    Ok(json_response(200, &json!({ "template_output": template.rendered_json()? }), params))
}

/// `[{index}[/{type}]]/_msearch/template`: NDJSON pairs of a header (as `_msearch` reads
/// it) and a template request; each rendered and searched on its own.
pub(super) fn msearch(
    engine: &Engine,
    index: Option<&str>,
    types: &[String],
    body: &str,
    params: &[(String, String)],
) -> Result<Response> {
    if body.is_empty() {
        return Err(Error::new(400, Exception::new("parse_exception", "request body or source parameter is required")));
    }
    if !body.ends_with('\n') {
        return Err(Error::illegal_argument("The msearch request must be terminated by a newline [\n]"));
    }
    let lines: Vec<&str> = body.split('\n').collect();
    // Read every template first: a request without a template fails as a whole.
    let mut items: Vec<(&str, Result<String>)> = Vec::new();
    let mut i = 0;
    while i + 2 < lines.len() {
        let (header, line) = (lines[i], lines[i + 1]);
        i += 2;
        let template = serde_json::from_str::<Value>(line)
            .map_err(|e| Error::json_parse(crate::request::json_error_text(&e)))
            .and_then(|v| SearchTemplate::from_value(&v));
        match template {
            Err(e) if e.kind() == "action_request_validation_exception" => return Err(e),
            Err(e) => items.push((header, Err(e))),
            Ok(t) => items.push((header, rendered_search(&t))),
        }
    }
    if items.is_empty() {
        return Err(Error::new(
            400,
            Exception::new("action_request_validation_exception", "Validation Failed: 1: no requests added;"),
        ));
    }
    let search_params: Vec<(String, String)> =
        params.iter().filter(|(k, _)| matches!(k.as_str(), "typed_keys" | "rest_total_hits_as_int")).cloned().collect();
    let mut out = Vec::new();
    out.extend_from_slice(b"{\"responses\":[");
    for (n, (header, rendered)) in items.into_iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        let answer = rendered.and_then(|search| {
            let item = MsearchItem::read(index, types, header, &search, &search_params)?;
            Ok(engine.msearch(MsearchRequest { items: vec![item] }).into_bytes())
        });
        match answer {
            // `{"responses":[ITEM]}`: the item's bytes as the search wrote them.
            Ok(bytes) => {
                let inner = bytes
                    .strip_prefix(b"{\"responses\":[".as_slice())
                    .and_then(|b| b.strip_suffix(b"]}".as_slice()))
                    .ok_or_else(|| Error::storage("msearch answer not in its expected form"))?;
                out.extend_from_slice(inner);
            }
            Err(e) => {
                let item = json!({"error": e.to_json()["error"], "status": e.status});
                out.extend_from_slice(item.to_string().as_bytes());
            }
        }
    }
    out.extend_from_slice(b"]}");
    Ok(written_response(200, out, params))
}
