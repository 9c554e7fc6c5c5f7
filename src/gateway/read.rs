//! The gateway's read endpoints: each takes its parsed request (or its path parts and
//! parameters), asks the engine, and shapes the answer as ES 6.8 does — the status, the
//! JSON, an empty body where ES sends none, or a cat table. The HTTP routes and the
//! in-process [`super::call::Call`]s answer through the same handlers.

use super::cat::{self, Cell, Column};
use super::routes::Route;
use super::{json_response, param, plain, written_response, Response};
use crate::analysis::analyze_api::AnalyzeRequest;
use crate::engine::Engine;
use crate::error::{Error, Exception, Result};
use crate::request::aliases::AliasesRequest;
use crate::request::count::CountRequest;
use crate::request::field_caps::FieldCapsRequest;
use crate::request::get::{GetRequest, SourceRequest};
use crate::request::index_info::{IndexRequest, SettingsRequest};
use crate::request::indices_options::IndicesOptions;
use crate::request::mapping::{FieldMappingRequest, MappingRequest};
use crate::request::mget::MgetRequest;
use crate::request::msearch::MsearchRequest;
use crate::request::scroll::{ClearScrollRequest, ScrollNextRequest, ScrollStartRequest};
use crate::request::SearchRequest;
use serde_json::json;
use serde_json::Value;

/// What a read endpoint answers.
pub(super) enum Reply {
    /// A status and a JSON body.
    Json(u16, Value),
    /// A status and a JSON body already written as bytes.
    Written(u16, Vec<u8>),
    /// A status and no body at all (`HEAD {index}`, `HEAD _alias/{name}`).
    Empty(u16),
}

/// 403 for anything that would write: the gateway serves a read-only cluster.
pub(super) fn cluster_read_only() -> Error {
    Error::new(403, Exception::new("cluster_block_exception", "blocked by: [FORBIDDEN/6/cluster read-only (api)];"))
}

/// Answers the read routes that return JSON (or nothing): each request is parsed here,
/// once, from its path parts, body and parameters, and answered by the engine.
pub(super) fn answer(
    engine: &Engine,
    route: Route,
    method: &str,
    body: &str,
    params: &[(String, String)],
) -> Result<Reply> {
    let head = method == "HEAD";
    match route {
        Route::Count { index, types } => count(engine, &index, &CountRequest::parse(body, params, &types)?),
        Route::Msearch { index, types } => {
            msearch(engine, MsearchRequest::parse(index.as_deref(), &types, body, params)?)
        }
        Route::Doc { index, doc_type, id } => get(engine, &GetRequest::parse(&index, &doc_type, &id, params)?),
        Route::Source { index, doc_type, id } => {
            let answer = engine.get_source(&SourceRequest::parse(&index, &doc_type, &id, params))?;
            Ok(Reply::Written(200, answer.to_bytes()))
        }
        Route::Mget { index, doc_type } => {
            mget(engine, &MgetRequest::parse(index.as_deref(), doc_type.as_deref(), body, params)?)
        }
        Route::Mapping { index, types } => {
            mapping(engine, &MappingRequest::parse(index.as_deref(), types.as_deref(), params)?, head)
        }
        Route::FieldMapping { index, types, fields } => {
            let req = FieldMappingRequest::parse(index.as_deref(), types.as_deref(), &fields, params)?;
            let answer = engine.get_field_mapping(&req)?;
            Ok(Reply::Json(answer.status(), answer.to_json()))
        }
        Route::FieldCaps { index } => {
            let answer = engine.field_caps(&FieldCapsRequest::parse(index.as_deref(), body, params)?)?;
            Ok(Reply::Json(200, answer.to_json()))
        }
        Route::Aliases { index, name, .. } => {
            let answer = engine.get_aliases(&AliasesRequest::parse(index.as_deref(), name.as_deref(), params)?)?;
            Ok(if head { Reply::Empty(answer.status()) } else { Reply::Json(answer.status(), answer.to_json()) })
        }
        Route::Index { index } if head => {
            Ok(Reply::Empty(if engine.index_exists(&IndexRequest::parse(&index, params)?)? { 200 } else { 404 }))
        }
        Route::Index { index } => {
            Ok(Reply::Json(200, engine.get_index(&IndexRequest::parse(&index, params)?)?.to_json()))
        }
        Route::Settings { index, name } => {
            let req = SettingsRequest::parse(index.as_deref(), name.as_deref(), params)?;
            Ok(Reply::Json(200, engine.get_settings(&req)?.to_json()))
        }
        Route::Analyze { index } => {
            Ok(Reply::Written(200, engine.analyze(index.as_deref(), &AnalyzeRequest::parse(body)?)?.to_bytes()))
        }
        // The other routes are answered by the gateway itself before this is called.
        _ => Err(Error::illegal_argument("this endpoint is answered elsewhere")),
    }
}

/// `{index}/_search`.
pub(super) fn search(engine: &Engine, index: &str, req: &SearchRequest, indices: IndicesOptions) -> Result<Reply> {
    Ok(Reply::Written(200, engine.search_request(index, req, indices)?.to_bytes()))
}

/// `{index}/_search?scroll=`: the first page, its scroll owned by `owner` (the caller's
/// API key; `None` in process).
pub(super) fn scroll_start(engine: &Engine, req: ScrollStartRequest, owner: Option<&str>) -> Result<Reply> {
    Ok(Reply::Written(200, engine.start_scroll(req, owner)?.to_bytes()))
}

/// `_search/scroll`: the next page of a scroll `owner` started.
pub(super) fn scroll_next(engine: &Engine, req: &ScrollNextRequest, owner: Option<&str>) -> Result<Reply> {
    Ok(Reply::Written(200, engine.next_scroll_page(req, owner)?.to_bytes()))
}

/// DELETE `_search/scroll`: 404 when nothing was freed, with the same body.
pub(super) fn clear_scroll(engine: &Engine, req: &ClearScrollRequest, owner: Option<&str>) -> Result<Reply> {
    let freed = engine.clear_scroll(&req.ids, owner)?;
    let status = if freed == 0 { 404 } else { 200 };
    Ok(Reply::Json(status, json!({"succeeded": true, "num_freed": freed})))
}

/// `{index}/_count`.
pub(super) fn count(engine: &Engine, index: &str, req: &CountRequest) -> Result<Reply> {
    Ok(Reply::Json(200, engine.count(index, req)?.to_json()))
}

/// `_msearch`: each search's failure is its item's, so the whole answers 200.
pub(super) fn msearch(engine: &Engine, req: MsearchRequest) -> Result<Reply> {
    Ok(Reply::Written(200, engine.msearch(req).into_bytes()))
}

/// GET (or HEAD) `{index}/{type}/{id}`.
pub(super) fn get(engine: &Engine, req: &GetRequest) -> Result<Reply> {
    let answer = engine.get_document(req)?;
    Ok(Reply::Written(answer.status(), answer.to_bytes()))
}

/// `_mget`.
pub(super) fn mget(engine: &Engine, req: &MgetRequest) -> Result<Reply> {
    Ok(Reply::Written(200, engine.mget(req)?.to_bytes()))
}

/// GET `_mapping`, or HEAD (the status alone).
pub(super) fn mapping(engine: &Engine, req: &MappingRequest, head: bool) -> Result<Reply> {
    let answer = engine.get_mapping(req)?;
    Ok(if head { Reply::Empty(answer.status()) } else { Reply::Json(answer.status(), answer.to_json()) })
}

/// The answer of a read route: JSON through the renderer (`pretty`, `filter_path`), or
/// an empty `text/plain` body.
pub(super) fn respond(reply: Reply, params: &[(String, String)]) -> Response {
    match reply {
        Reply::Json(status, v) => json_response(status, &v, params),
        Reply::Written(status, body) => written_response(status, body, params),
        Reply::Empty(status) => plain(status, "text/plain; charset=UTF-8", Vec::new()),
    }
}

/// A cat table in the format the request asks for.
pub(super) fn cat_table(
    columns: &[Column],
    rows: &[Vec<Cell>],
    params: &[(String, String)],
    accept: Option<&str>,
) -> Result<Response> {
    let flag = |k: &str| param(params, k).is_some_and(|v| v != "false");
    let p = cat::CatParams {
        v: flag("v"),
        help: flag("help"),
        h: param(params, "h").map(str::to_string),
        s: param(params, "s").map(str::to_string),
        format: param(params, "format").map(str::to_string),
        accept: accept.map(str::to_string),
    };
    let (body, ct) = cat::render(columns, rows, &p)?;
    if ct.starts_with("application/json") {
        // Through the JSON renderer, so `pretty` and `filter_path` apply.
        let v: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        return Ok(json_response(200, &v, params));
    }
    Ok(plain(200, ct, body.into_bytes()))
}

/// The columns of `_cat/indices` shown by default.
const INDEX_COLUMNS: [Column; 12] = [
    Column { name: "health", aliases: &["h"], desc: "current health status", right: false },
    Column { name: "status", aliases: &["s"], desc: "open/close status", right: false },
    Column { name: "index", aliases: &["i", "idx"], desc: "index name", right: false },
    Column { name: "uuid", aliases: &["id", "uuid"], desc: "index uuid", right: false },
    Column {
        name: "pri",
        aliases: &["p", "shards.primary", "shardsPrimary"],
        desc: "number of primary shards",
        right: true,
    },
    Column {
        name: "rep",
        aliases: &["r", "shards.replica", "shardsReplica"],
        desc: "number of replica shards",
        right: true,
    },
    Column { name: "docs.count", aliases: &["dc", "docsCount"], desc: "available docs", right: true },
    Column { name: "docs.deleted", aliases: &["dd", "docsDeleted"], desc: "deleted docs", right: true },
    Column { name: "creation.date", aliases: &["cd"], desc: "index creation date (millisecond value)", right: true },
    Column { name: "creation.date.string", aliases: &["cds"], desc: "index creation date (as string)", right: false },
    Column {
        name: "store.size",
        aliases: &["ss", "storeSize"],
        desc: "store size of primaries & replicas",
        right: true,
    },
    Column { name: "pri.store.size", aliases: &[], desc: "store size of primaries", right: true },
];

/// `_cat/indices[/{index}]`: one row per index (one shard, no replica: green, open).
pub(super) fn cat_indices(
    engine: &Engine,
    index: Option<&str>,
    params: &[(String, String)],
    accept: Option<&str>,
) -> Result<Response> {
    let unit = param(params, "bytes");
    let wanted_health = match param(params, "health") {
        None => None,
        Some(h @ ("green" | "yellow" | "red")) => Some(h),
        Some(other) => return Err(Error::illegal_argument(format!("unknown cluster health status [{other}]"))),
    };
    let mut rows = Vec::new();
    for meta in engine.index_entries(index.unwrap_or("_all"))? {
        let meta = &meta;
        let replicas = meta.settings.number_of_replicas();
        let health = crate::read::shards::index_health(replicas);
        if wanted_health.is_some_and(|h| h != health) {
            continue;
        }
        let size = || Cell::number(meta.size_bytes as f64, byte_size(meta.size_bytes, unit));
        let created = meta.creation_date_ms();
        rows.push(vec![
            Cell::text(health),
            Cell::text("open"),
            Cell::text(&meta.name),
            Cell::text(&meta.uuid),
            Cell::number(1.0, "1"),
            Cell::number(replicas as f64, replicas.to_string()),
            Cell::number(meta.doc_count as f64, meta.doc_count.to_string()),
            Cell::number(0.0, "0"),
            Cell::number(created as f64, created.to_string()),
            Cell::text(iso_millis(created)),
            size(),
            size(),
        ]);
    }
    rows.sort_by(|a, b| a[2].text.cmp(&b[2].text));
    // The creation date columns are shown only when `h` names them, as in ES.
    let mut params = params.to_vec();
    if param(&params, "h").is_none() {
        let shown: Vec<&str> =
            INDEX_COLUMNS.iter().map(|c| c.name).filter(|n| !INDEX_COLUMNS_NOT_DEFAULT.contains(n)).collect();
        params.push(("h".into(), shown.join(",")));
    }
    cat_table(&INDEX_COLUMNS, &rows, &params, accept)
}

/// The `_cat/indices` columns ES prints only when `h` asks for them.
const INDEX_COLUMNS_NOT_DEFAULT: [&str; 2] = ["creation.date", "creation.date.string"];

/// Epoch millis as ES prints a date in UTC: `2016-09-20T16:45:51.325Z`.
fn iso_millis(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms).unwrap_or_default().format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// The columns of `_cat/count`.
const COUNT_COLUMNS: [Column; 3] = [
    Column { name: "epoch", aliases: &["t", "time"], desc: "seconds since 1970-01-01 00:00:00", right: false },
    Column { name: "timestamp", aliases: &["ts", "hms", "hhmmss"], desc: "time in HH:MM:SS", right: false },
    Column { name: "count", aliases: &["dc", "docs.count", "docsCount"], desc: "the document count", right: false },
];

/// `_cat/count[/{index}]`: the time and the number of documents (matching `q` or the body).
pub(super) fn cat_count(
    engine: &Engine,
    index: Option<&str>,
    body: &str,
    params: &[(String, String)],
    accept: Option<&str>,
) -> Result<Response> {
    let count = engine.count(index.unwrap_or("_all"), &CountRequest::parse(body, params, &[])?)?;
    let now_ms = crate::node::now_ms();
    let at = chrono::DateTime::from_timestamp_millis(now_ms).unwrap_or_default();
    let n = count.count;
    let secs = now_ms.div_euclid(1000);
    let row = vec![
        Cell::number(secs as f64, secs.to_string()),
        Cell::text(at.format("%H:%M:%S").to_string()),
        Cell::number(n as f64, n.to_string()),
    ];
    // `ts=false` drops the time columns.
    if param(params, "ts") == Some("false") {
        return cat_table(&COUNT_COLUMNS[2..], &[row[2..].to_vec()], params, accept);
    }
    cat_table(&COUNT_COLUMNS, &[row], params, accept)
}

/// ES's `ByteSizeValue`: `230b`, `3.2kb` (one decimal, truncated, dropped when 0), or a
/// whole number of `unit` (`b`, `k`/`kb`, `m`/`mb`, ...) when the request names one.
pub(super) fn byte_size(bytes: u64, unit: Option<&str>) -> String {
    const K: f64 = 1024.0;
    let scale = |u: &str| -> Option<u32> {
        Some(match u {
            "b" => 0,
            "k" | "kb" => 1,
            "m" | "mb" => 2,
            "g" | "gb" => 3,
            "t" | "tb" => 4,
            "p" | "pb" => 5,
            _ => return None,
        })
    };
    if let Some(e) = unit.and_then(scale) {
        return (bytes / 1024u64.pow(e)).to_string();
    }
    let b = bytes as f64;
    let (value, suffix) = match bytes {
        n if n >= 1 << 50 => (b / K.powi(5), "pb"),
        n if n >= 1 << 40 => (b / K.powi(4), "tb"),
        n if n >= 1 << 30 => (b / K.powi(3), "gb"),
        n if n >= 1 << 20 => (b / K.powi(2), "mb"),
        n if n >= 1 << 10 => (b / K, "kb"),
        _ => (b, "b"),
    };
    let whole = value.trunc();
    let tenth = ((value - whole) * 10.0).trunc() as u64;
    if tenth == 0 {
        format!("{whole}{suffix}")
    } else {
        format!("{whole}.{tenth}{suffix}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_sizes_as_es_writes_them() {
        assert_eq!(byte_size(230, None), "230b");
        assert_eq!(byte_size(3325, None), "3.2kb");
        assert_eq!(byte_size(1024, None), "1kb");
        assert_eq!(byte_size(1_572_864, None), "1.5mb");
        assert_eq!(byte_size(286 * 1024 * 1024 + 1023 * 1024, None), "286.9mb");
        assert_eq!(byte_size(3325, Some("b")), "3325");
        assert_eq!(byte_size(3325, Some("kb")), "3");
    }
}
