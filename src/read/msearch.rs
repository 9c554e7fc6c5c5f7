//! `_msearch`, as ES 6.8's RestMultiSearchAction reads it and MultiSearchResponse writes
//! it: NDJSON header/body pairs, each answered on its own (a failure is that item's
//! `error` with its `status`), in order, under `responses`.

use crate::budget;
use crate::engine::{indices_options, Engine};
use crate::error::{Error, Exception, Result};
use crate::request::SearchRequest;
use crate::search::json_out::Object;
use serde_json::Value;

/// The breaker label of the item answers an `_msearch` holds until it is sent (ES 6.8
/// has no breaker for them: it names them in its `<...>` style).
pub const MSEARCH_LABEL: &str = "<msearch>";

/// Header keys a search line may carry (with their camelCase spellings).
const HEADER_KEYS: [&str; 19] = [
    "index",
    "indices",
    "type",
    "types",
    "search_type",
    "searchType",
    "request_cache",
    "requestCache",
    "preference",
    "routing",
    "allow_partial_search_results",
    "expand_wildcards",
    "expandWildcards",
    "ignore_unavailable",
    "ignoreUnavailable",
    "allow_no_indices",
    "allowNoIndices",
    "ignore_throttled",
    "ignoreThrottled",
];

/// One search of the request: where, and what.
struct Item {
    index: String,
    types: Vec<String>,
    params: Vec<(String, String)>,
    request: SearchRequest,
}

impl Engine {
    /// Runs every search of an `_msearch` body; `index` and `types` come from the path and
    /// apply where a header names none.
    pub fn msearch(
        &self,
        index: Option<&str>,
        types: &[String],
        body: &str,
        params: &[(String, String)],
    ) -> Result<Value> {
        let bytes = self.msearch_bytes(index, types, body, params)?;
        serde_json::from_slice(&bytes).map_err(|e| Error::storage(format!("response is not JSON: {e}")))
    }

    /// [`Engine::msearch`] written as JSON bytes: each response as `_search` writes it,
    /// then its `status`.
    pub(crate) fn msearch_bytes(
        &self,
        index: Option<&str>,
        types: &[String],
        body: &str,
        params: &[(String, String)],
    ) -> Result<Vec<u8>> {
        let mut items = parse(index, types, body, params)?;
        let mut out = Vec::new();
        let mut top = Object::start(&mut out);
        let list = top.key("responses");
        list.push(b'[');
        for (i, item) in items.iter_mut().enumerate() {
            if i > 0 {
                list.push(b',');
            }
            // Each search counts its `timeout` from its own start, as ES's do.
            item.request.start_clock();
            let held = budget::charged();
            let answer =
                indices_options(&item.params).and_then(|opts| self.search_request(&item.index, &item.request, opts));
            // What the search charged while it built its answer (hits, buckets) is given
            // back: the answer is held from here on as the bytes written below.
            budget::discharge(budget::charged().saturating_sub(held));
            let at = list.len();
            write_item(list, answer);
            // The answers written so far stay in memory until the response is sent: an
            // item that would pass the request's breaker answers the breaker's 429 in
            // their place, as ES answers an item that trips a breaker, and the response
            // stays within the limit.
            if let Err(e) = budget::charge(list.len() - at, MSEARCH_LABEL) {
                list.truncate(at);
                write_item(list, Err(e));
            }
        }
        list.push(b']');
        top.end();
        Ok(out)
    }
}

/// Writes one item of `responses`: the search's answer and status 200, or its error and
/// that error's status.
fn write_item(list: &mut Vec<u8>, answer: Result<crate::search::response::SearchResponse>) {
    let mut o = Object::start(list);
    match answer {
        Ok(r) => {
            r.write_members(&mut o);
            o.int("status", 200);
        }
        Err(e) => {
            o.value("error", &e.to_json()["error"]);
            o.int("status", i64::from(e.status));
        }
    }
    o.end();
}

fn parse(index: Option<&str>, types: &[String], body: &str, params: &[(String, String)]) -> Result<Vec<Item>> {
    if body.is_empty() {
        return Err(Error::new(400, Exception::new("parse_exception", "request body or source parameter is required")));
    }
    if !body.ends_with('\n') {
        return Err(Error::illegal_argument("The msearch request must be terminated by a newline [\n]"));
    }
    let typed_keys: Vec<(String, String)> = params.iter().filter(|(k, _)| k == "typed_keys").cloned().collect();
    let lines: Vec<&str> = body.split('\n').collect();
    let mut items = Vec::new();
    let mut i = 0;
    // The last element is what follows the final newline: empty.
    while i + 1 < lines.len() {
        let header = lines[i].trim();
        let Some(source) = lines.get(i + 1).filter(|_| i + 2 < lines.len()) else {
            break; // A header without its body line is dropped, as ES drops it.
        };
        i += 2;
        let mut item = Item {
            index: index.unwrap_or("_all").to_string(),
            types: types.to_vec(),
            params: params
                .iter()
                .filter(|(k, _)| matches!(k.as_str(), "ignore_unavailable" | "allow_no_indices" | "expand_wildcards"))
                .cloned()
                .collect(),
            request: SearchRequest::default(),
        };
        if !header.is_empty() {
            read_header(header, &mut item)?;
        }
        item.request = SearchRequest::parse(source.trim(), &typed_keys, &item.types)?;
        items.push(item);
    }
    if items.is_empty() {
        return Err(Error::new(
            400,
            Exception::new("action_request_validation_exception", "Validation Failed: 1: no requests added;"),
        ));
    }
    Ok(items)
}

/// Reads a header line into `item`. Unknown keys are accepted with ES 6.8's deprecation
/// warning (7.x rejects them).
fn read_header(header: &str, item: &mut Item) -> Result<()> {
    let v: Value = serde_json::from_str(header).map_err(|e| Error::json_parse(crate::request::json_error_text(&e)))?;
    let Value::Object(o) = v else {
        return Err(Error::illegal_argument("Malformed content, must start with an object"));
    };
    let list = |v: &Value| -> Vec<String> {
        match v {
            Value::Array(a) => a.iter().map(crate::json_value::value_to_string).collect(),
            other => crate::json_value::value_to_string(other).split(',').map(str::to_string).collect(),
        }
    };
    for (k, v) in &o {
        match k.as_str() {
            "index" | "indices" => item.index = list(v).join(","),
            "type" | "types" => item.types = list(v),
            "expand_wildcards" | "expandWildcards" => set_param(item, "expand_wildcards", v),
            "ignore_unavailable" | "ignoreUnavailable" => set_param(item, "ignore_unavailable", v),
            "allow_no_indices" | "allowNoIndices" => set_param(item, "allow_no_indices", v),
            "search_type" | "searchType" => {
                let t = crate::json_value::value_to_string(v);
                if t != "query_then_fetch" && t != "dfs_query_then_fetch" {
                    return Err(Error::illegal_argument(format!("No search type for [{t}]")));
                }
            }
            known if HEADER_KEYS.contains(&known) => {}
            other => crate::deprecation::warn(format!(
                "key [{other}] is not supported in the metadata section and will be rejected in 7.x"
            )),
        }
    }
    Ok(())
}

fn set_param(item: &mut Item, name: &str, v: &Value) {
    item.params.retain(|(k, _)| k != name);
    item.params.push((name.to_string(), crate::json_value::value_to_string(v)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_newlines_and_headers() {
        let e = parse(None, &[], "{}\n{}", &[]).err().map(|e| e.reason().to_string());
        assert_eq!(e.as_deref(), Some("The msearch request must be terminated by a newline [\n]"));
        let e = parse(None, &[], "\n", &[]).err().map(|e| e.reason().to_string());
        assert_eq!(e.as_deref(), Some("Validation Failed: 1: no requests added;"));
        let items = parse(Some("a"), &[], "{\"index\":[\"b\",\"c\"]}\n{\"size\":1}\n\n{}\n{\"index\":\"x\"}\n", &[])
            .unwrap_or_default();
        let got: Vec<(String, i64)> = items.iter().map(|i| (i.index.clone(), i.request.size)).collect();
        // The dangling third header has no body line: dropped.
        assert_eq!(got, [("b,c".to_string(), 1), ("a".to_string(), 10)]);
    }
}
