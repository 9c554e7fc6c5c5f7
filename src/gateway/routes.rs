//! The gateway's routes: which ES 6.8 endpoint a path below a base names, the methods ES
//! registers for it, and the URL parameters its handler consumes (everything else is
//! `contains unrecognized parameter`).

use super::params::percent_decode;
use super::upstream::Forwarded;

/// Consumed by ES's REST channel on every request (`format`, `filter_path`, `pretty`,
/// `human`, `error_trace`), plus our key parameter.
pub const COMMON: [&str; 6] = ["pretty", "human", "filter_path", "error_trace", "format", "key"];
/// What `IndicesOptions.fromRequest` consumes.
const INDICES_OPTIONS: [&str; 4] = ["expand_wildcards", "ignore_unavailable", "allow_no_indices", "ignore_throttled"];
/// A body given as parameters (RestRequest.contentOrSourceParam).
const SOURCE: [&str; 2] = ["source", "source_content_type"];
/// What ES 6.8's RestSearchAction reads (es68-wire.md section 3), path parts included.
pub(super) const SEARCH_PARAMS: [&str; 42] = [
    "index",
    "type",
    "batched_reduce_size",
    "pre_filter_shard_size",
    "max_concurrent_shard_requests",
    "allow_partial_search_results",
    "search_type",
    "request_cache",
    "scroll",
    "routing",
    "preference",
    "q",
    "from",
    "size",
    "explain",
    "version",
    "seq_no_primary_term",
    "timeout",
    "terminate_after",
    "stored_fields",
    "docvalue_fields",
    "_source",
    "_source_includes",
    "_source_excludes",
    "_source_include",
    "_source_exclude",
    "track_scores",
    "track_total_hits",
    "sort",
    "stats",
    "suggest_field",
    "suggest_text",
    "suggest_size",
    "suggest_mode",
    "ignore_unavailable",
    "allow_no_indices",
    "expand_wildcards",
    "ignore_throttled",
    "typed_keys",
    "rest_total_hits_as_int",
    "source",
    "source_content_type",
];
/// Read by ES only when `q` is present (`urlParamsToQueryBuilder` returns early otherwise).
const Q_PARAMS: [&str; 5] = ["df", "analyzer", "analyze_wildcard", "lenient", "default_operator"];
const SCROLL_PARAMS: [&str; 5] = ["scroll", "scroll_id", "rest_total_hits_as_int", "source", "source_content_type"];
/// AbstractCatAction reads `help` and declares the table parameters as response
/// parameters.
const CAT_PARAMS: [&str; 10] = ["local", "help", "format", "h", "v", "ts", "pri", "bytes", "size", "time"];
const SOURCE_PARAMS: [&str; 5] =
    ["_source", "_source_includes", "_source_excludes", "_source_include", "_source_exclude"];

/// An endpoint and its path parts (decoded).
#[derive(Debug, Clone)]
pub enum Route {
    /// `/`: cluster information.
    Root,
    /// `_search` on an index expression, with the types of the path.
    Search { index: String, types: Vec<String> },
    /// `_search/scroll[/{id}]`.
    Scroll { ids: Option<String> },
    /// `_cat/aliases[/{name}]`.
    CatAliases { name: Option<String> },
    /// `_cat/indices[/{index}]`.
    CatIndices { index: Option<String> },
    /// `_cat/count[/{index}]`.
    CatCount { index: Option<String> },
    /// `[{index}[/{type}]]/_count`.
    Count { index: String, types: Vec<String> },
    /// `[{index}[/{type}]]/_msearch`.
    Msearch { index: Option<String>, types: Vec<String> },
    /// `{index}/{type}/{id}`: GET, or a write.
    Doc { index: String, doc_type: String, id: String },
    /// `{index}/{type}/{id}/_source`.
    Source { index: String, doc_type: String, id: String },
    /// `[{index}[/{type}]]/_mget`.
    Mget { index: Option<String>, doc_type: Option<String> },
    /// `[{index}]/_mapping[/{type}]` and the other spellings.
    Mapping { index: Option<String>, types: Option<String> },
    /// `[{index}]/_mapping[/{type}]/field/{fields}` and `{index}/{type}/_mapping/field/{fields}`.
    FieldMapping { index: Option<String>, types: Option<String>, fields: String },
    /// `[{index}]/_field_caps`.
    FieldCaps { index: Option<String> },
    /// `_alias`, `_aliases`, `{index}/_alias[/{name}]`, `_alias/{name}`.
    Aliases { index: Option<String>, name: Option<String>, all: bool },
    /// `{index}`: HEAD (exists), GET (the index), or a write.
    Index { index: String },
    /// `[{index}]/_settings[/{name}]`: GET (the indices' settings), or a write.
    Settings { index: Option<String>, name: Option<String> },
    /// `[{index}]/_analyze`.
    Analyze { index: Option<String> },
    /// Endpoints that change data: a read-only cluster refuses them.
    Write(WriteKind),
    /// The read endpoints of `super::endpoints` (explain, validate, templates, term
    /// vectors, shards, health, stats).
    Endpoint(super::endpoints::Endpoint),
}

/// Which write endpoint (they differ only in the methods ES registers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteKind {
    /// `_bulk`.
    Bulk,
    /// `{index}/{type}`: index with a generated id.
    AutoId,
    /// `{index}/{type}/{id}/_update` and `_create`.
    Update,
    /// `_delete_by_query`, `_update_by_query`.
    ByQuery,
}

impl Route {
    /// The methods ES registers for the path (HEAD where it registers it).
    pub fn methods(&self) -> &'static [&'static str] {
        match self {
            Route::Search { .. } => &["GET", "POST", "HEAD"],
            Route::Scroll { .. } => &["GET", "POST", "DELETE", "HEAD"],
            Route::CatAliases { .. } | Route::CatIndices { .. } | Route::CatCount { .. } | Route::Root => {
                &["GET", "HEAD"]
            }
            Route::Count { .. } | Route::Msearch { .. } | Route::Mget { .. } | Route::FieldCaps { .. } => {
                &["GET", "POST", "HEAD"]
            }
            Route::Doc { .. } => &["GET", "HEAD", "PUT", "POST", "DELETE"],
            Route::Source { .. } => &["GET", "HEAD"],
            Route::Mapping { index: Some(_), .. } => &["GET", "HEAD", "PUT", "POST"],
            Route::Mapping { .. } => &["GET", "HEAD"],
            Route::FieldMapping { .. } => &["GET"],
            Route::Aliases { all: true, .. } => &["GET", "HEAD", "POST"],
            Route::Aliases { index: Some(_), name: Some(_), .. } => &["GET", "HEAD", "PUT", "POST", "DELETE"],
            Route::Aliases { .. } => &["GET", "HEAD"],
            Route::Index { .. } => &["GET", "HEAD", "PUT", "DELETE"],
            Route::Settings { name: None, .. } => &["GET", "PUT"],
            Route::Settings { .. } => &["GET"],
            Route::Analyze { .. } => &["GET", "POST"],
            Route::Write(WriteKind::Bulk | WriteKind::Update) => &["POST", "PUT"],
            Route::Write(WriteKind::AutoId | WriteKind::ByQuery) => &["POST"],
            Route::Endpoint(e) => e.methods(),
        }
    }

    /// Whether `method` changes data on this path (a read-only cluster refuses it).
    pub fn writes(&self, method: &str) -> bool {
        match self {
            Route::Write(_) => true,
            Route::Doc { .. } | Route::Index { .. } => matches!(method, "PUT" | "POST" | "DELETE"),
            Route::Mapping { .. } | Route::Aliases { .. } => matches!(method, "PUT" | "POST" | "DELETE"),
            Route::Settings { .. } => method == "PUT",
            _ => false,
        }
    }

    /// What a cluster behind the gateway answers for this route (`GET /` stays the
    /// gateway's own, and writes are refused by the gateway).
    pub fn forwarded(&self) -> Option<Forwarded> {
        match self {
            Route::Root | Route::Write(_) => None,
            Route::Search { types, .. } => Some(Forwarded::Search { typed: !types.is_empty() }),
            Route::Scroll { .. } => Some(Forwarded::Scroll),
            Route::CatAliases { .. } => Some(Forwarded::CatAliases),
            Route::Msearch { .. } => Some(Forwarded::Msearch),
            _ => Some(Forwarded::Read),
        }
    }

    /// The URL parameters ES's handler for this route consumes (with `method` and
    /// whether the request has a body, which some handlers look at).
    pub fn params(&self, method: &str, has_body: bool, has_q: bool) -> Vec<&'static str> {
        let mut p: Vec<&'static str> = COMMON.to_vec();
        let q_params = |p: &mut Vec<&'static str>| {
            p.extend(["q"]);
            p.extend(Q_PARAMS);
        };
        match self {
            Route::Root => {}
            Route::Search { .. } => {
                p.extend(SEARCH_PARAMS);
                if has_q {
                    p.extend(Q_PARAMS);
                }
            }
            Route::Scroll { .. } => p.extend(SCROLL_PARAMS),
            Route::CatAliases { .. } => {
                p.extend(CAT_PARAMS);
                p.extend(["alias", "s"]);
            }
            Route::CatIndices { .. } => {
                p.extend(CAT_PARAMS);
                p.extend(["index", "s", "master_timeout", "health"]);
            }
            Route::CatCount { .. } => {
                p.extend(CAT_PARAMS);
                p.extend(["index", "s"]);
                if !has_body {
                    q_params(&mut p);
                }
            }
            Route::Count { .. } => {
                p.extend(["index", "type", "routing", "min_score", "preference", "terminate_after"]);
                p.extend(INDICES_OPTIONS);
                p.extend(SOURCE);
                if !has_body {
                    q_params(&mut p);
                }
            }
            Route::Msearch { .. } => {
                p.extend([
                    "index",
                    "type",
                    "search_type",
                    "routing",
                    "max_concurrent_searches",
                    "pre_filter_shard_size",
                    "max_concurrent_shard_requests",
                    "typed_keys",
                    "rest_total_hits_as_int",
                ]);
                p.extend(INDICES_OPTIONS);
                p.extend(SOURCE);
            }
            Route::Doc { .. } if method == "GET" || method == "HEAD" => {
                p.extend(["index", "type", "id", "refresh", "routing", "parent", "preference", "realtime"]);
                p.extend(["stored_fields", "version", "version_type", "fields"]);
                p.extend(SOURCE_PARAMS);
            }
            Route::Source { .. } => {
                p.extend(["index", "type", "id", "refresh", "routing", "parent", "preference", "realtime"]);
                p.extend(SOURCE_PARAMS);
            }
            Route::Mget { .. } => {
                p.extend(["index", "type", "refresh", "preference", "realtime", "stored_fields", "routing", "fields"]);
                p.extend(SOURCE_PARAMS);
                p.extend(SOURCE);
            }
            Route::Mapping { .. } => {
                p.extend(["index", "type", "include_type_name", "master_timeout", "local"]);
                p.extend(INDICES_OPTIONS);
            }
            Route::FieldMapping { .. } => {
                p.extend(["index", "type", "fields", "include_type_name", "include_defaults", "local"]);
                p.extend(INDICES_OPTIONS);
            }
            Route::FieldCaps { .. } => {
                p.extend(["fields", "index"]);
                p.extend(INDICES_OPTIONS);
            }
            Route::Aliases { .. } => {
                p.extend(["name", "index", "local"]);
                p.extend(INDICES_OPTIONS);
            }
            Route::Settings { .. } => {
                p.extend(["index", "name", "local", "master_timeout", "include_defaults", "flat_settings"]);
                p.extend(INDICES_OPTIONS);
            }
            Route::Index { .. } => {
                p.extend([
                    "index",
                    "local",
                    "master_timeout",
                    "include_defaults",
                    "include_type_name",
                    "flat_settings",
                ]);
                p.extend(INDICES_OPTIONS);
            }
            Route::Analyze { .. } => {
                p.extend(["index"]);
                p.extend(SOURCE);
            }
            Route::Endpoint(e) => e.params(&mut p, has_body, has_q),
            // Writes are refused whatever their parameters.
            Route::Doc { .. } | Route::Write(_) => return Vec::new(),
        }
        p
    }
}

/// The route of a path below a base (`rest` starts with `/` or is empty).
pub fn route(rest: &str) -> Option<Route> {
    let segments: Vec<String> = rest.split('/').filter(|s| !s.is_empty()).map(|s| percent_decode(s, false)).collect();
    let seg: Vec<&str> = segments.iter().map(String::as_str).collect();
    // Names starting with `_` are ES endpoints, not indices (`_all` is the exception).
    let index_like = |s: &str| !s.starts_with('_') || s == "_all";
    let types = |t: &str| t.split(',').filter(|t| !t.is_empty()).map(str::to_string).collect::<Vec<_>>();
    let own = |s: &str| Some(s.to_string());
    if let Some(e) = super::endpoints::route(&seg) {
        return Some(Route::Endpoint(e));
    }
    // The field mapping API's spellings, before the shorter `_mapping` paths they extend.
    let field_mapping = |index: Option<&str>, ty: Option<&str>, fields: &str| Route::FieldMapping {
        index: index.map(str::to_string),
        types: ty.map(str::to_string),
        fields: fields.to_string(),
    };
    match seg.as_slice() {
        ["_mapping", "field", f] => return Some(field_mapping(None, None, f)),
        ["_mapping", ty, "field", f] => return Some(field_mapping(None, Some(ty), f)),
        [index, "_mapping", "field", f] if index_like(index) => return Some(field_mapping(Some(index), None, f)),
        [index, "_mapping", ty, "field", f] if index_like(index) => {
            return Some(field_mapping(Some(index), Some(ty), f))
        }
        [index, ty, "_mapping", "field", f] if index_like(index) => {
            return Some(field_mapping(Some(index), Some(ty), f))
        }
        _ => {}
    }
    Some(match seg.as_slice() {
        [] => Route::Root,
        ["_search"] => Route::Search { index: "_all".into(), types: Vec::new() },
        ["_search", "scroll"] => Route::Scroll { ids: None },
        ["_search", "scroll", ids] => Route::Scroll { ids: own(ids) },
        ["_cat", "aliases"] => Route::CatAliases { name: None },
        ["_cat", "aliases", name] => Route::CatAliases { name: own(name) },
        ["_cat", "indices"] => Route::CatIndices { index: None },
        ["_cat", "indices", index] => Route::CatIndices { index: own(index) },
        ["_cat", "count"] => Route::CatCount { index: None },
        ["_cat", "count", index] => Route::CatCount { index: own(index) },
        ["_count"] => Route::Count { index: "_all".into(), types: Vec::new() },
        ["_msearch"] => Route::Msearch { index: None, types: Vec::new() },
        ["_mget"] => Route::Mget { index: None, doc_type: None },
        ["_mapping" | "_mappings"] => Route::Mapping { index: None, types: None },
        ["_mapping" | "_mappings", ty] => Route::Mapping { index: None, types: own(ty) },
        ["_field_caps"] => Route::FieldCaps { index: None },
        ["_alias"] => Route::Aliases { index: None, name: None, all: false },
        ["_aliases"] => Route::Aliases { index: None, name: None, all: true },
        ["_alias", name] => Route::Aliases { index: None, name: own(name), all: false },
        ["_bulk"] => Route::Write(WriteKind::Bulk),
        ["_settings"] => Route::Settings { index: None, name: None },
        ["_settings", name] => Route::Settings { index: None, name: own(name) },
        ["_analyze"] => Route::Analyze { index: None },
        [index] if index_like(index) => Route::Index { index: index.to_string() },
        [index, "_search"] if index_like(index) => Route::Search { index: index.to_string(), types: Vec::new() },
        [index, "_count"] if index_like(index) => Route::Count { index: index.to_string(), types: Vec::new() },
        [index, "_msearch"] if index_like(index) => Route::Msearch { index: own(index), types: Vec::new() },
        [index, "_mget"] if index_like(index) => Route::Mget { index: own(index), doc_type: None },
        [index, "_mapping" | "_mappings"] if index_like(index) => Route::Mapping { index: own(index), types: None },
        [index, "_field_caps"] if index_like(index) => Route::FieldCaps { index: own(index) },
        [index, "_settings"] if index_like(index) => Route::Settings { index: own(index), name: None },
        [index, "_alias" | "_aliases"] if index_like(index) => {
            Route::Aliases { index: own(index), name: None, all: false }
        }
        [index, "_bulk"] if index_like(index) => Route::Write(WriteKind::Bulk),
        [index, "_analyze"] if index_like(index) => Route::Analyze { index: own(index) },
        [index, "_delete_by_query" | "_update_by_query"] if index_like(index) => Route::Write(WriteKind::ByQuery),
        [index, ty] if index_like(index) && (ty == &"_doc" || !ty.starts_with('_')) => Route::Write(WriteKind::AutoId),
        // Three segments: a literal second segment wins over a literal third (ES's path
        // trie matches literals first, left to right); the type may be anything.
        [index, "_mapping" | "_mappings", ty] if index_like(index) => {
            Route::Mapping { index: own(index), types: own(ty) }
        }
        [index, "_settings", name] if index_like(index) => Route::Settings { index: own(index), name: own(name) },
        [index, "_alias" | "_aliases", name] if index_like(index) => {
            Route::Aliases { index: own(index), name: own(name), all: false }
        }
        [index, ty, "_search"] if index_like(index) => Route::Search { index: index.to_string(), types: types(ty) },
        [index, ty, "_count"] if index_like(index) => Route::Count { index: index.to_string(), types: types(ty) },
        [index, ty, "_msearch"] if index_like(index) => Route::Msearch { index: own(index), types: types(ty) },
        [index, ty, "_mget"] if index_like(index) => Route::Mget { index: own(index), doc_type: own(ty) },
        [index, ty, "_mapping"] if index_like(index) => Route::Mapping { index: own(index), types: own(ty) },
        [index, _, "_bulk"] if index_like(index) => Route::Write(WriteKind::Bulk),
        [index, _, "_delete_by_query" | "_update_by_query"] if index_like(index) => Route::Write(WriteKind::ByQuery),
        [index, ty, id] if index_like(index) => {
            Route::Doc { index: index.to_string(), doc_type: ty.to_string(), id: id.to_string() }
        }
        [index, ty, id, "_source"] if index_like(index) => {
            Route::Source { index: index.to_string(), doc_type: ty.to_string(), id: id.to_string() }
        }
        [index, _, _, "_update" | "_create"] if index_like(index) => Route::Write(WriteKind::Update),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes() {
        assert!(matches!(route(""), Some(Route::Root)));
        assert!(matches!(route("/x/_search/"), Some(Route::Search { index, .. }) if index == "x"));
        assert!(matches!(route("/x/rin,term/_search"), Some(Route::Search { types, .. }) if types == ["rin", "term"]));
        assert!(matches!(route("/_search/scroll/abc"), Some(Route::Scroll { ids: Some(i) }) if i == "abc"));
        assert!(matches!(route("/a%2Cb/_search"), Some(Route::Search { index, .. }) if index == "a,b"));
        assert!(matches!(route("/_mapping/_search"), Some(Route::Mapping { types: Some(t), .. }) if t == "_search"));
        assert!(matches!(route("/x/_mapping"), Some(Route::Mapping { index: Some(i), types: None }) if i == "x"));
        assert!(matches!(route("/x/rin/_mapping"), Some(Route::Mapping { types: Some(t), .. }) if t == "rin"));
        // The field mapping API's five spellings, and `field` as a plain type name.
        for (path, i, t) in [
            ("/_mapping/field/a*", None, None),
            ("/_mapping/rin/field/a*", None, Some("rin")),
            ("/x/_mapping/field/a*", Some("x"), None),
            ("/x/_mapping/rin/field/a*", Some("x"), Some("rin")),
            ("/x/rin/_mapping/field/a*", Some("x"), Some("rin")),
        ] {
            let Some(Route::FieldMapping { index, types, fields }) = route(path) else { panic!("{path}") };
            assert_eq!((index.as_deref(), types.as_deref(), fields.as_str()), (i, t, "a*"), "{path}");
        }
        assert!(matches!(route("/x/_mapping/field"), Some(Route::Mapping { types: Some(t), .. }) if t == "field"));
        assert!(matches!(route("/x/_doc/1"), Some(Route::Doc { doc_type, id, .. }) if doc_type == "_doc" && id == "1"));
        assert!(matches!(route("/x/rin/a%2Fb/_source"), Some(Route::Source { id, .. }) if id == "a/b"));
        // 6.8 has no `{index}/_source/{id}`: it is a GET of type `_source`.
        assert!(matches!(route("/x/_source/1"), Some(Route::Doc { doc_type, .. }) if doc_type == "_source"));
        assert!(matches!(route("/x/_alias/a"), Some(Route::Aliases { name: Some(n), all: false, .. }) if n == "a"));
        assert!(matches!(route("/_aliases"), Some(Route::Aliases { all: true, .. })));
        assert!(matches!(route("/x"), Some(Route::Index { index }) if index == "x"));
        assert!(matches!(route("/x/_settings"), Some(Route::Settings { index: Some(i), name: None }) if i == "x"));
        assert!(
            matches!(route("/_settings/index.n*"), Some(Route::Settings { index: None, name: Some(n) }) if n == "index.n*")
        );
        assert!(matches!(route("/x/_bulk"), Some(Route::Write(WriteKind::Bulk))));
        assert!(matches!(route("/x/_doc"), Some(Route::Write(WriteKind::AutoId))));
        assert!(matches!(route("/x/_doc/_count"), Some(Route::Count { types, .. }) if types == ["_doc"]));
        assert!(matches!(route("/_analyze"), Some(Route::Analyze { index: None })));
        assert!(matches!(route("/x/_analyze"), Some(Route::Analyze { index: Some(i) }) if i == "x"));
        assert!(route("/_nope").is_none());
    }
}
