//! `_msearch`'s request, as ES 6.8's RestMultiSearchAction reads it: NDJSON pairs of a
//! header (where: indices, types, index options) and a search body, each read into its
//! own search request.

use super::indices_options::{indices_options, IndicesOptions};
use super::SearchRequest;
use crate::error::{Error, Exception, Result};
use serde_json::Value;

/// A parsed `_msearch` request: its searches, in order.
#[derive(Debug)]
pub struct MsearchRequest {
    /// The searches.
    pub items: Vec<MsearchItem>,
}

/// One search of an `_msearch`.
#[derive(Debug)]
pub struct MsearchItem {
    /// The index expression (the header's, else the path's, else `_all`).
    pub index: String,
    /// The search.
    pub search: SearchRequest,
    /// How the index expression resolves; a bad value fails this item only, as in ES.
    pub indices: Result<IndicesOptions>,
}

impl MsearchItem {
    /// Reads one search of an `_msearch`: its header line (empty for none) and its body
    /// line; `index`, `types` and `params` as [`MsearchRequest::parse`] takes them.
    pub fn read(
        index: Option<&str>,
        types: &[String],
        header: &str,
        source: &str,
        params: &[(String, String)],
    ) -> Result<MsearchItem> {
        let mut item = Header {
            index: index.unwrap_or("_all").to_string(),
            types: types.to_vec(),
            params: params
                .iter()
                .filter(|(k, _)| matches!(k.as_str(), "ignore_unavailable" | "allow_no_indices" | "expand_wildcards"))
                .cloned()
                .collect(),
        };
        let header = header.trim();
        if !header.is_empty() {
            read_header(header, &mut item)?;
        }
        let typed_keys: Vec<(String, String)> = params.iter().filter(|(k, _)| k == "typed_keys").cloned().collect();
        let search = SearchRequest::parse(source.trim(), &typed_keys, &item.types)?;
        Ok(MsearchItem { indices: indices_options(&item.params), index: item.index, search })
    }
}

/// The parts of an item a header sets, before its search is read.
struct Header {
    index: String,
    types: Vec<String>,
    params: Vec<(String, String)>,
}

impl MsearchRequest {
    /// Reads an `_msearch` body; `index` and `types` come from the path and apply where a
    /// header names none; of `params`, `typed_keys` and the index options apply to every
    /// search.
    pub fn parse(
        index: Option<&str>,
        types: &[String],
        body: &str,
        params: &[(String, String)],
    ) -> Result<MsearchRequest> {
        Ok(MsearchRequest { items: parse(index, types, body, params)? })
    }
}

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

fn parse(index: Option<&str>, types: &[String], body: &str, params: &[(String, String)]) -> Result<Vec<MsearchItem>> {
    if body.is_empty() {
        return Err(Error::new(400, Exception::new("parse_exception", "request body or source parameter is required")));
    }
    if !body.ends_with('\n') {
        return Err(Error::illegal_argument("The msearch request must be terminated by a newline [\n]"));
    }
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
        items.push(MsearchItem::read(index, types, header, source, params)?);
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
fn read_header(header: &str, item: &mut Header) -> Result<()> {
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

fn set_param(item: &mut Header, name: &str, v: &Value) {
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
        let got: Vec<(String, i64)> = items.iter().map(|i| (i.index.clone(), i.search.size)).collect();
        // The dangling third header has no body line: dropped.
        assert_eq!(got, [("b,c".to_string(), 1), ("a".to_string(), 10)]);
    }
}
