//! The read APIs a `do:` may name, with the URL paths and methods of ES 6.8's
//! rest-api-spec (`rest-api-spec/api/*.json` of the 6.8 branch, types in paths included),
//! and how a call's parameters become a path and a query string.

use metagate::gateway::percent_encode;
use serde_json::{Map, Value};

/// An API's methods and URL path templates (`{part}` for a path part).
pub struct Api {
    /// Methods ES registers, preferred first.
    pub methods: &'static [&'static str],
    /// Path templates.
    pub paths: &'static [&'static str],
}

const GP: &[&str] = &["GET", "POST"];
const G: &[&str] = &["GET"];
const H: &[&str] = &["HEAD"];

/// The API named `name`, if it is a read API the runner sends to the gateway.
pub fn api(name: &str) -> Option<Api> {
    let (methods, paths): (&'static [&'static str], &'static [&'static str]) = match name {
        "info" => (G, &["/"]),
        "ping" => (H, &["/"]),
        "search" => (GP, &["/_search", "/{index}/_search", "/{index}/{type}/_search"]),
        "count" => (GP, &["/_count", "/{index}/_count", "/{index}/{type}/_count"]),
        "msearch" => (GP, &["/_msearch", "/{index}/_msearch", "/{index}/{type}/_msearch"]),
        "scroll" => (GP, &["/_search/scroll", "/_search/scroll/{scroll_id}"]),
        "clear_scroll" => (&["DELETE"], &["/_search/scroll", "/_search/scroll/{scroll_id}"]),
        "get" => (G, &["/{index}/{type}/{id}"]),
        "exists" => (H, &["/{index}/{type}/{id}"]),
        "get_source" => (G, &["/{index}/{type}/{id}/_source"]),
        "exists_source" => (H, &["/{index}/{type}/{id}/_source"]),
        "mget" => (GP, &["/_mget", "/{index}/_mget", "/{index}/{type}/_mget"]),
        "explain" => (GP, &["/{index}/{type}/{id}/_explain"]),
        "field_caps" => (GP, &["/_field_caps", "/{index}/_field_caps"]),
        "termvectors" => (GP, &["/{index}/{type}/_termvectors", "/{index}/{type}/{id}/_termvectors"]),
        "mtermvectors" => (GP, &["/_mtermvectors", "/{index}/_mtermvectors", "/{index}/{type}/_mtermvectors"]),
        "search_shards" => (GP, &["/_search_shards", "/{index}/_search_shards"]),
        "search_template" => {
            (GP, &["/_search/template", "/{index}/_search/template", "/{index}/{type}/_search/template"])
        }
        "msearch_template" => {
            (GP, &["/_msearch/template", "/{index}/_msearch/template", "/{index}/{type}/_msearch/template"])
        }
        "render_search_template" => (GP, &["/_render/template", "/_render/template/{id}"]),
        "scripts_painless_execute" => (GP, &["/_scripts/painless/_execute"]),
        "get_script" => (G, &["/_scripts/{id}"]),
        "indices.get" => (G, &["/{index}"]),
        "indices.exists" => (H, &["/{index}"]),
        "indices.exists_type" => (H, &["/{index}/_mapping/{type}"]),
        "indices.get_mapping" => {
            (G, &["/_mapping", "/{index}/_mapping", "/_mapping/{type}", "/{index}/_mapping/{type}"])
        }
        "indices.get_field_mapping" => (
            G,
            &[
                "/_mapping/field/{fields}",
                "/{index}/_mapping/field/{fields}",
                "/_mapping/{type}/field/{fields}",
                "/{index}/_mapping/{type}/field/{fields}",
            ],
        ),
        "indices.get_alias" => (G, &["/_alias", "/_alias/{name}", "/{index}/_alias/{name}", "/{index}/_alias"]),
        "indices.exists_alias" => (H, &["/_alias/{name}", "/{index}/_alias/{name}", "/{index}/_alias"]),
        "indices.get_settings" => {
            (G, &["/_settings", "/{index}/_settings", "/{index}/_settings/{name}", "/_settings/{name}"])
        }
        "indices.analyze" => (GP, &["/_analyze", "/{index}/_analyze"]),
        "indices.validate_query" => {
            (GP, &["/_validate/query", "/{index}/_validate/query", "/{index}/{type}/_validate/query"])
        }
        "indices.stats" => (G, &["/_stats", "/_stats/{metric}", "/{index}/_stats", "/{index}/_stats/{metric}"]),
        "cat.aliases" => (G, &["/_cat/aliases", "/_cat/aliases/{name}"]),
        "cat.count" => (G, &["/_cat/count", "/_cat/count/{index}"]),
        "cat.indices" => (G, &["/_cat/indices", "/_cat/indices/{index}"]),
        "cat.health" => (G, &["/_cat/health"]),
        "cat.shards" => (G, &["/_cat/shards", "/_cat/shards/{index}"]),
        "cluster.health" => (G, &["/_cluster/health", "/_cluster/health/{index}"]),
        _ => return None,
    };
    Some(Api { methods, paths })
}

/// APIs whose path has a `{type}` that 7.x-era test texts leave out (6.8 requires it;
/// the typeless form is `_doc`).
const TYPE_DEFAULTS_TO_DOC: [&str; 6] = ["get", "exists", "get_source", "exists_source", "explain", "termvectors"];

/// A request as the runner sends it: method, path below the API base, query string, body.
#[derive(Debug, Clone)]
pub struct HttpCall {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, parts percent-encoded.
    pub path: String,
    /// The query string without `?`.
    pub query: String,
    /// The body (JSON or NDJSON text), may be empty.
    pub body: String,
}

/// The request for a call of `api_name` with `params` (`body` and `ignore` removed by the
/// caller; `body` text passed apart).
pub fn http_call(api_name: &str, api: &Api, params: &Map<String, Value>, body: &str) -> HttpCall {
    let mut params = params.clone();
    if TYPE_DEFAULTS_TO_DOC.contains(&api_name) && !params.contains_key("type") {
        params.insert("type".into(), Value::String("_doc".into()));
    }
    // The path whose parts are all given, with the most parts (as ES's clients choose).
    let parts_of = |p: &str| -> Vec<String> {
        p.split('/')
            .filter(|s| s.starts_with('{'))
            .map(|s| s.trim_matches(|c| c == '{' || c == '}').to_string())
            .collect()
    };
    let template = api
        .paths
        .iter()
        .filter(|p| parts_of(p).iter().all(|part| params.contains_key(part)))
        .max_by_key(|p| parts_of(p).len())
        .copied()
        .unwrap_or(api.paths[0]);
    let mut path = String::new();
    for seg in template.split('/').filter(|s| !s.is_empty()) {
        path.push('/');
        if seg.starts_with('{') {
            let part = seg.trim_matches(|c| c == '{' || c == '}');
            let value = params.remove(part).map(|v| param_text(&v)).unwrap_or_default();
            path.push_str(&percent_encode(&value));
        } else {
            path.push_str(seg);
        }
    }
    if path.is_empty() {
        path.push('/');
    }
    let query: Vec<String> =
        params.iter().map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(&param_text(v)))).collect();
    let method = if api.methods == H {
        "HEAD"
    } else if !body.is_empty() && api.methods.contains(&"POST") {
        "POST"
    } else {
        api.methods[0]
    };
    HttpCall { method: method.to_string(), path, query: query.join("&"), body: body.to_string() }
}

/// A parameter as URL text: lists joined with commas.
pub fn param_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(param_text).collect::<Vec<_>>().join(","),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// A `do` body as request text: a string as it is, a list as NDJSON lines, anything
/// else as JSON.
pub fn body_text(body: &Value) -> String {
    match body {
        Value::String(s) => s.clone(),
        Value::Array(lines) => {
            let mut out = String::new();
            for l in lines {
                match l {
                    Value::String(s) => out.push_str(s.trim_end()),
                    other => out.push_str(&other.to_string()),
                }
                out.push('\n');
            }
            out
        }
        Value::Null => String::new(),
        other => other.to_string(),
    }
}
