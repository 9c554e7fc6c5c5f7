//! Requests parsed into typed values before any index is read: a search's body
//! (SearchSourceBuilder) merged with URI parameters into a [`SearchRequest`], and the
//! other read APIs' path parts, bodies and parameters into their requests (`get`,
//! `mget`, `mapping`, `field_caps`, `aliases`, `index_info`, `termvectors`), with ES 6.8's parse
//! errors. The engine and execution (`search`) take these values and never read
//! request text.

pub mod aggs;
pub mod aliases;
pub mod bucket_aggs_more;
pub mod collapse;
pub mod count;
pub mod decimal_format;
pub mod field_caps;
pub mod geo_aggs;
pub mod geo_sort;
pub mod get;
pub mod highlight;
pub mod index_info;
pub mod indices_boost;
pub mod indices_options;
pub mod inner_hits;
pub mod ip_range_agg;
pub mod mapping;
pub mod mget;
pub mod msearch;
pub mod mustache;
pub mod painless_execute;
pub mod phrase_suggest;
pub mod pipeline_aggs;
pub mod rescore;
pub mod scripted_metric_agg;
pub mod scroll;
pub mod significant_agg;
pub mod sort;
pub mod source;
pub mod suggest;
pub mod template;
pub mod termvectors;
pub mod weighted_avg_agg;

use crate::error::{Error, Exception, Result};
use crate::json_value::{bool_of, num_f32, token_name};
use crate::query::dsl::DslParser;
use crate::query::{MultiMatchType, Operator, Query, QueryStringQuery, QueryText, Scalar};
use serde_json::Value;
use sort::{parse_search_after, parse_sort, parse_uri_sort, SortSpec};
use source::SourceFilter;

/// Everything a search needs besides the target indices.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    /// The query (`match_all` when absent).
    pub query: Query,
    /// `post_filter`.
    pub post_filter: Option<Query>,
    /// `from`.
    pub from: i64,
    /// `size`.
    pub size: i64,
    /// `sort`.
    pub sort: Vec<SortSpec>,
    /// `search_after` (converted to the sort fields' types per index at search time).
    pub search_after: Option<Vec<Scalar>>,
    /// `_source` filter.
    pub source: SourceFilter,
    /// `stored_fields`. Fields are not stored (ES's default), so this shapes only what
    /// hits carry: `_source` only when asked for (`_source` in the list, or a `_source`
    /// option in the request), and with `_none_` not even `_id` and `_type`.
    pub stored_fields: Option<Vec<String>>,
    /// Whether the request names a `_source` option (body `_source`, URI `_source*`).
    pub source_requested: bool,
    /// `docvalue_fields`.
    pub docvalue_fields: Vec<String>,
    /// `script_fields`, compiled.
    pub script_fields: Vec<ScriptField>,
    /// `highlight`, parsed.
    pub highlight: Option<highlight::HighlightSpec>,
    /// `aggs` / `aggregations`, parsed.
    pub aggs: Option<Vec<aggs::AggNode>>,
    /// `version`.
    pub version: bool,
    /// `explain`.
    pub explain: bool,
    /// `seq_no_primary_term`: hits carry `_seq_no` (the document's load order) and
    /// `_primary_term` (1).
    pub seq_no_primary_term: bool,
    /// The `inner_hits` of the query's `nested` queries.
    pub inner_hits: Vec<inner_hits::InnerHitsSpec>,
    /// `track_scores`.
    pub track_scores: bool,
    /// `track_total_hits` (false renders total -1).
    pub track_total_hits: bool,
    /// `min_score`.
    pub min_score: Option<f32>,
    /// `terminate_after`.
    pub terminate_after: Option<u64>,
    /// `slice` (`id`, `max`) for sliced scrolls.
    pub slice: Option<(u32, u32)>,
    /// `typed_keys` (URI).
    pub typed_keys: bool,
    /// `suggest`: the named suggestions.
    pub suggest: Vec<suggest::SuggestSpec>,
    /// `_type` filter from the path.
    pub types: Vec<String>,
    /// `rescore`: query rescorers, applied in order.
    pub rescore: Vec<rescore::Rescore>,
    /// `collapse`: one hit per value of a field.
    pub collapse: Option<collapse::CollapseSpec>,
    /// The filters of the aliases the search goes through, per concrete index (set by
    /// the engine once it resolved the indices; ANDed as filters, as ES adds them).
    pub alias_filters: Vec<(String, Query)>,
    /// The request's `timeout` (body or URI); `None` for none (`-1` or `0`).
    pub timeout: Option<std::time::Duration>,
    /// When the request's `timeout` runs out, counted from when the request was parsed
    /// (or from [`SearchRequest::start_clock`]); the search stops there and answers
    /// `timed_out: true` with what it found.
    pub deadline: Option<web_time::Instant>,
    /// `indices_boost`: (index expression, boost) as given.
    pub indices_boost: Vec<(String, f32)>,
    /// The boost of each concrete index the search reads, resolved from `indices_boost`
    /// by the engine (indices not named keep 1).
    pub index_boosts: Vec<(String, f32)>,
    /// The `request_cache` URI parameter: `None` lets the index's setting and the
    /// request's `size` decide (see `read::request_cache`).
    pub request_cache: Option<bool>,
    /// `search_type=dfs_query_then_fetch` (never cached).
    pub dfs: bool,
}

impl Default for SearchRequest {
    fn default() -> SearchRequest {
        SearchRequest {
            query: Query::match_all(),
            post_filter: None,
            inner_hits: Vec::new(),
            from: 0,
            size: 10,
            sort: Vec::new(),
            search_after: None,
            source: SourceFilter::default(),
            stored_fields: None,
            source_requested: false,
            docvalue_fields: Vec::new(),
            script_fields: Vec::new(),
            highlight: None,
            aggs: None,
            version: false,
            explain: false,
            seq_no_primary_term: false,
            track_scores: false,
            track_total_hits: true,
            min_score: None,
            terminate_after: None,
            slice: None,
            typed_keys: false,
            suggest: Vec::new(),
            types: Vec::new(),
            rescore: Vec::new(),
            collapse: None,
            alias_filters: Vec::new(),
            timeout: None,
            deadline: None,
            indices_boost: Vec::new(),
            index_boosts: Vec::new(),
            request_cache: None,
            dfs: false,
        }
    }
}

/// One entry of `script_fields`.
#[derive(Debug, Clone)]
pub struct ScriptField {
    /// The field's name in each hit's `fields`.
    pub name: String,
    /// The script.
    pub script: std::sync::Arc<crate::script::Script>,
    /// `ignore_failure`: a hit whose script fails goes without the field.
    pub ignore_failure: bool,
}

/// Parses `script_fields` as ES 6.8's `SearchSourceBuilder` does.
fn parse_script_fields(v: &Value) -> Result<Vec<ScriptField>> {
    let Value::Object(o) = v else {
        return Err(Error::parsing_no_pos(format!(
            "Expected [START_OBJECT] in [script_fields] but found [{}]",
            token_name(v)
        )));
    };
    let mut out = Vec::with_capacity(o.len());
    for (name, body) in o {
        let Value::Object(b) = body else {
            return Err(Error::parsing_no_pos(format!(
                "Expected [START_OBJECT] in [{name}] but found [{}]",
                token_name(body)
            )));
        };
        let mut script = None;
        let mut ignore_failure = false;
        for (k, x) in b {
            match k.as_str() {
                "script" => script = Some(crate::script::Script::parse(x)?),
                "ignore_failure" => {
                    ignore_failure = x.as_bool().ok_or_else(|| {
                        Error::parsing_no_pos(format!("Unknown key for a {} in [{k}].", token_name(x)))
                    })?
                }
                _ => return Err(Error::parsing_no_pos(format!("Unknown key for a {} in [{k}].", token_name(x)))),
            }
        }
        let script = script.ok_or_else(|| Error::parsing_no_pos(format!("Expected [script] in [{name}]")))?;
        out.push(ScriptField { name: name.clone(), script: std::sync::Arc::new(script), ignore_failure });
    }
    Ok(out)
}

fn unknown_key(key: &str, v: &Value) -> Error {
    Error::parsing_no_pos(format!("Unknown key for a {} in [{key}].", token_name(v)))
}

/// An integer that may be sent as a number or numeric string.
fn int_value(v: &Value, name: &str) -> Result<i64> {
    match v {
        Value::Number(n) => n.as_i64().ok_or_else(|| Error::parsing_no_pos(format!("[{name}] must be an integer"))),
        Value::String(s) => {
            s.trim().parse().map_err(|_| Error::parsing_no_pos(format!("[{name}] must be an integer, found [{s}]")))
        }
        _ => Err(Error::parsing_no_pos(format!("[{name}] must be an integer"))),
    }
}

/// A body member ES 6.8 reads with `XContentParser.intValue()` (`from`, `size`): a Java
/// `int`. A number outside it is Jackson's overflow (`json_parse_exception`, 500 in 6.8,
/// at the position after the number); a numeric string outside it is the parser's
/// `Value [..] is out of range for an integer` (400).
fn java_int(raw: &str, v: &Value, name: &str) -> Result<i64> {
    let n = int_value(v, name)?;
    if i32::try_from(n).is_ok() {
        return Ok(n);
    }
    if let Value::String(s) = v {
        return Err(Error::illegal_argument(format!("Value [{s}] is out of range for an integer")));
    }
    let (line, column) = number_end(raw, name);
    Err(Error::json_parse(format!(
        "Numeric value ({n}) out of range of int ({} - {})\n at [Source: org.elasticsearch.transport.netty4.ByteBufStreamInput@{:x}; line: {line}, column: {column}]",
        i32::MIN,
        i32::MAX,
        0x1f2e3d4cu32
    )))
}

/// Line and column (1-based, as Jackson reports its position) just after the number that
/// follows the first `"key":` in `raw`.
fn number_end(raw: &str, key: &str) -> (usize, usize) {
    let needle = format!("\"{key}\"");
    let at = raw.find(&needle).map_or(0, |i| i + needle.len());
    let rest = &raw[at..];
    let start = rest.find(|c: char| c == '-' || c.is_ascii_digit()).unwrap_or(0);
    let len = rest[start..]
        .find(|c: char| !(c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' || c.is_ascii_digit()))
        .unwrap_or(rest.len() - start);
    let end = at + start + len;
    let before = &raw[..end];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// A URI parameter ES 6.8 reads with `RestRequest.paramAsInt`: `Integer.parseInt`, whose
/// `NumberFormatException` ES wraps in an `illegal_argument_exception` (400).
/// Its root cause is that exception itself: ES guesses the root causes of an exception
/// that is not its own as the exception, whatever caused it.
fn int_param(name: &str, v: &str) -> Result<i32> {
    v.parse::<i32>().map_err(|_| {
        let e = Exception::new(
            "illegal_argument_exception",
            format!("Failed to parse int parameter [{name}] with value [{v}]"),
        );
        let cause = Exception::new("number_format_exception", format!("For input string: \"{v}\""));
        Error::new(400, e.clone().caused_by(cause)).with_root_causes(vec![e])
    })
}

impl SearchRequest {
    /// The query as it runs on `index`: with that index's `indices_boost` factor, ES's
    /// function score of one weight over the query (the scores multiplied, in float).
    pub fn query_for(&self, index: &str) -> std::borrow::Cow<'_, Query> {
        match self.index_boosts.iter().find(|(name, _)| name == index) {
            Some((_, boost)) if *boost != 1.0 => {
                std::borrow::Cow::Owned(Query::FunctionScore(Box::new(crate::query::FunctionScoreQuery {
                    query: self.query.clone(),
                    functions: vec![crate::query::ScoreFunction {
                        filter: None,
                        weight: Some(*boost),
                        kind: crate::query::ScoreFunctionKind::Weight,
                    }],
                    score_mode: "multiply".into(),
                    boost_mode: "multiply".into(),
                    max_boost: f32::MAX,
                    min_score: None,
                    boost: 1.0,
                })))
            }
            _ => std::borrow::Cow::Borrowed(&self.query),
        }
    }

    /// The one way a search request is read: the body, then the URI parameters over it
    /// (ES's RestSearchAction order), then the `_type`s of the path.
    pub fn parse(body: &str, params: &[(String, String)], types: &[String]) -> Result<SearchRequest> {
        let mut req = SearchRequest::from_body(body)?;
        req.apply_uri_params(params)?;
        req.types = types.to_vec();
        Ok(req)
    }

    /// Parses a request body (raw text kept for error positions). Empty text = defaults.
    pub fn from_body(raw: &str) -> Result<SearchRequest> {
        let mut req = SearchRequest::default();
        if raw.trim().is_empty() {
            return Ok(req);
        }
        let body: Value =
            serde_json::from_str(raw).map_err(|e| crate::error::Error::json_parse(json_error_text(&e)))?;
        let obj = match &body {
            Value::Object(o) => o,
            other => {
                return Err(Error::parsing_no_pos(format!("Expected [START_OBJECT] but found [{}]", token_name(other))))
            }
        };
        let mut parser = DslParser::new(raw);
        for (k, v) in obj {
            match k.as_str() {
                "query" => req.query = parser.parse(v)?,
                "post_filter" => req.post_filter = Some(parser.parse(v)?),
                "from" => req.from = java_int(raw, v, "from")?,
                "size" => req.size = java_int(raw, v, "size")?,
                "sort" => req.sort = parse_sort(v)?,
                "search_after" => req.search_after = Some(parse_search_after(v)?),
                "_source" => {
                    req.source = SourceFilter::from_json(v).map_err(Error::parsing_no_pos)?;
                    req.source_requested = true;
                }
                "stored_fields" | "fields" => {
                    req.stored_fields = Some(match v {
                        Value::String(s) => vec![s.clone()],
                        Value::Array(a) => a.iter().filter_map(Value::as_str).map(str::to_string).collect(),
                        _ => return Err(unknown_key(k, v)),
                    })
                }
                "docvalue_fields" => {
                    req.docvalue_fields = match v {
                        Value::Array(a) => a
                            .iter()
                            .map(|x| match x {
                                Value::String(s) => Ok(s.clone()),
                                Value::Object(o) => {
                                    o.get("field").and_then(Value::as_str).map(str::to_string).ok_or_else(|| {
                                        Error::parsing_no_pos("[docvalue_fields] entries need a [field]")
                                    })
                                }
                                _ => Err(Error::parsing_no_pos("[docvalue_fields] entries must be strings")),
                            })
                            .collect::<Result<Vec<_>>>()?,
                        Value::String(s) => vec![s.clone()],
                        _ => return Err(unknown_key(k, v)),
                    }
                }
                "highlight" => req.highlight = Some(highlight::HighlightSpec::parse(v)?),
                "aggs" | "aggregations" => {
                    if req.aggs.is_some() {
                        return Err(Error::parsing_no_pos(format!("Found two aggregation type definitions in [{k}]")));
                    }
                    req.aggs = Some(aggs::parse_aggs(v, raw)?)
                }
                "version" => req.version = bool_of(v).ok_or_else(|| unknown_key(k, v))?,
                "explain" => req.explain = bool_of(v).ok_or_else(|| unknown_key(k, v))?,
                "track_scores" => req.track_scores = bool_of(v).ok_or_else(|| unknown_key(k, v))?,
                "track_total_hits" => req.track_total_hits = bool_of(v).ok_or_else(|| unknown_key(k, v))?,
                "min_score" => req.min_score = Some(num_f32(v).ok_or_else(|| unknown_key(k, v))?),
                "terminate_after" => {
                    let n = int_value(v, k)?;
                    if n <= 0 {
                        return Err(Error::illegal_argument("terminateAfter must be > 0"));
                    }
                    req.terminate_after = Some(n as u64)
                }
                "timeout" => {
                    let t = crate::date::parse_time_value(&crate::json_value::value_to_string(v), "timeout")
                        .map_err(|e| Error::parsing_no_pos(e.to_string()))?;
                    req.set_timeout(t);
                }
                "slice" => {
                    let id = v
                        .get("id")
                        .and_then(Value::as_u64)
                        .ok_or_else(|| Error::parsing_no_pos("[slice] requires an [id]"))?;
                    let max = v
                        .get("max")
                        .and_then(Value::as_u64)
                        .ok_or_else(|| Error::parsing_no_pos("[slice] requires a [max]"))?;
                    if max <= 1 {
                        return Err(Error::illegal_argument("max must be greater than 1"));
                    }
                    if id >= max {
                        return Err(Error::illegal_argument("max must be greater than id"));
                    }
                    if v.get("field").and_then(Value::as_str).map(|f| f != "_id" && f != "_uid").unwrap_or(false) {
                        return Err(Error::illegal_argument("sliced scroll is supported on [_id] only"));
                    }
                    req.slice = Some((id as u32, max as u32));
                }
                "indices_boost" => req.indices_boost = indices_boost::parse(v)?,
                "seq_no_primary_term" => req.seq_no_primary_term = bool_of(v).ok_or_else(|| unknown_key(k, v))?,
                "stats" | "ext" => {}
                "script_fields" => req.script_fields = parse_script_fields(v)?,
                "rescore" => req.rescore = rescore::parse(v, &mut parser)?,
                "suggest" => req.suggest = suggest::parse(v)?,
                "collapse" => req.collapse = Some(collapse::CollapseSpec::parse(v)?),
                "profile" => return Err(Error::illegal_argument(format!("[{k}] is not supported by this engine"))),
                _ => return Err(unknown_key(k, v)),
            }
        }
        req.inner_hits = inner_hits::collect(&req.query)?;
        if let Some(c) = &mut req.collapse {
            c.query_given = obj.contains_key("query");
        }
        Ok(req)
    }

    /// Applies URI parameters (they override the body, as in ES). `q` becomes a query_string.
    pub fn apply_uri_params(&mut self, params: &[(String, String)]) -> Result<()> {
        let get = |name: &str| params.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        // RestSearchAction reads these first, in this order; each setter refuses values
        // below its minimum.
        for (name, min, text) in [
            ("batched_reduce_size", 2, "batchedReduceSize must be >= 2"),
            ("pre_filter_shard_size", 1, "preFilterShardSize must be >= 1"),
            ("max_concurrent_shard_requests", 1, "maxConcurrentShardRequests must be >= 1"),
        ] {
            if let Some(v) = get(name) {
                if int_param(name, v)? < min {
                    return Err(Error::illegal_argument(text));
                }
            }
        }
        if let Some(v) = get("allow_partial_search_results") {
            bool_param("allow_partial_search_results", v)?;
        }
        match get("search_type") {
            None | Some("query_then_fetch") => {}
            Some("dfs_query_then_fetch") => self.dfs = true,
            Some(v @ ("query_and_fetch" | "dfs_query_and_fetch")) => {
                return Err(Error::illegal_argument(format!("Unsupported search type [{v}]")))
            }
            Some(v) => return Err(Error::illegal_argument(format!("No search type for [{v}]"))),
        }
        if let Some(v) = get("request_cache") {
            self.request_cache = Some(bool_param("request_cache", v)?);
        }
        if let Some(query) = uri_query(params)? {
            self.query = query;
            if let Some(c) = &mut self.collapse {
                c.query_given = true;
            }
        }
        if let Some(v) = get("from") {
            self.from = i64::from(int_param("from", v)?);
        }
        if let Some(v) = get("size") {
            self.size = i64::from(int_param("size", v)?);
        }
        if let Some(v) = get("sort") {
            self.sort = parse_uri_sort(v)?;
        }
        for (name, target) in [
            ("explain", 0),
            ("version", 1),
            ("track_scores", 2),
            ("track_total_hits", 3),
            ("typed_keys", 4),
            ("seq_no_primary_term", 5),
        ] {
            if let Some(v) = get(name) {
                let b = bool_param(name, v)?;
                match target {
                    0 => self.explain = b,
                    1 => self.version = b,
                    2 => self.track_scores = b,
                    3 => self.track_total_hits = b,
                    4 => self.typed_keys = b,
                    _ => self.seq_no_primary_term = b,
                }
            }
        }
        // ES's RestSearchAction: `suggest_field` adds a term suggestion named after the
        // field, over `suggest_text` (else `q`), replacing the body's suggestions.
        if let Some(field) = get("suggest_field") {
            let size = match get("suggest_size") {
                Some(v) => int_param("suggest_size", v)?,
                None => 5,
            };
            let text = get("suggest_text").or_else(|| get("q")).map(str::to_string);
            self.suggest = vec![suggest::uri_term_suggestion(field, text, size, get("suggest_mode"))?];
        }
        if let Some(v) = get("terminate_after") {
            if let Some(n) = terminate_after_param(v)? {
                self.terminate_after = Some(n);
            }
        }
        if let Some(v) = get("timeout") {
            let t = crate::date::parse_time_value(v, "timeout").map_err(|e| Error::illegal_argument(e.to_string()))?;
            self.set_timeout(t);
        }
        if let Some(v) = get("stored_fields") {
            self.stored_fields = Some(v.split(',').map(str::to_string).collect());
        }
        if let Some(v) = get("docvalue_fields") {
            self.docvalue_fields = v.split(',').map(str::to_string).collect();
        }
        if let Some(filter) = SourceFilter::from_params(&get) {
            self.source = filter;
            self.source_requested = true;
        }
        Ok(())
    }

    /// Validates from/size (ES 6.8 rejects negatives).
    /// Whether hits carry `_source` (see [`SearchRequest::stored_fields`]).
    pub fn returns_source(&self) -> bool {
        match &self.stored_fields {
            None => !self.source.disabled,
            Some(f) if f.iter().any(|x| x == "_none_") => false,
            Some(f) => f.iter().any(|x| x == "_source") || (self.source_requested && !self.source.disabled),
        }
    }

    /// Whether `stored_fields` is `_none_`: hits without `_id` and `_type`.
    pub fn stored_fields_disabled(&self) -> bool {
        self.stored_fields.as_ref().is_some_and(|f| f.iter().any(|x| x == "_none_"))
    }

    pub fn validate(&self) -> Result<()> {
        if self.from < 0 {
            return Err(Error::illegal_argument("[from] parameter cannot be negative"));
        }
        if self.size < 0 {
            return Err(Error::illegal_argument(format!("[size] parameter cannot be negative, found [{}]", self.size)));
        }
        Ok(())
    }
}

/// The query of the URI parameter `q`, read with its companions `df`, `analyzer`,
/// `default_operator`, `lenient` and `analyze_wildcard` as ES 6.8's
/// `RestActions.urlParamsToQueryBuilder` reads them into a `query_string` query; `None`
/// without `q`. The last value of a repeated parameter counts.
pub fn uri_query(params: &[(String, String)]) -> Result<Option<Query>> {
    let get = |name: &str| params.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let Some(q) = get("q") else { return Ok(None) };
    let mut qs = QueryStringQuery {
        query: q.to_string(),
        fields: Vec::new(),
        default_field: get("df").map(str::to_string),
        default_operator: Operator::Or,
        kind: MultiMatchType::BestFields,
        tie_breaker: None,
        lenient: false,
        analyzer: get("analyzer").map(str::to_string),
        analyze_wildcard: false,
        allow_leading_wildcard: true,
        minimum_should_match: None,
        fuzziness: None,
        phrase_slop: 0,
        simple: false,
        simple_flags: u32::MAX,
        boost: 1.0,
        parsed: QueryText::Unparsed,
    };
    if let Some(op) = get("default_operator") {
        qs.default_operator = match op.to_ascii_uppercase().as_str() {
            "AND" => Operator::And,
            "OR" => Operator::Or,
            other => {
                return Err(Error::illegal_argument(format!(
                    "No enum constant org.elasticsearch.index.query.Operator.{other}"
                )))
            }
        };
    }
    if let Some(l) = get("lenient") {
        qs.lenient = bool_param("lenient", l)?;
    }
    if let Some(a) = get("analyze_wildcard") {
        qs.analyze_wildcard = bool_param("analyze_wildcard", a)?;
    }
    qs.parse_text();
    Ok(Some(Query::QueryString(Box::new(qs))))
}

/// A boolean URI parameter as ES 6.8's `RestRequest.paramAsBoolean` reads it (empty is
/// true).
fn bool_param(name: &str, v: &str) -> Result<bool> {
    match v {
        "" | "true" => Ok(true),
        "false" => Ok(false),
        other => Err(Error::illegal_argument(format!(
            "Failed to parse value [{other}] as only [true] or [false] are allowed."
        ))
        .with_param(name)),
    }
}

/// `min_score` as ES 6.8's RestCountAction reads it (`paramAsFloat`).
fn min_score_param(v: &str) -> Result<f32> {
    v.parse()
        .map_err(|_| Error::illegal_argument(format!("Failed to parse float parameter [min_score] with value [{v}]")))
}

/// `terminate_after` as ES 6.8's RestSearchAction and RestCountAction read it: `None`
/// for 0 (no limit), an error below.
fn terminate_after_param(v: &str) -> Result<Option<u64>> {
    let n = int_param("terminate_after", v)?;
    if n < 0 {
        return Err(Error::illegal_argument("terminateAfter must be > 0"));
    }
    Ok((n > 0).then_some(n as u64))
}

trait WithParam {
    fn with_param(self, name: &str) -> Self;
}

impl WithParam for Error {
    fn with_param(self, _name: &str) -> Self {
        self
    }
}

/// ES 6.8 renders Jackson's message; serde's is reworded into that shape.
pub fn json_error_text(e: &serde_json::Error) -> String {
    let what = match e.classify() {
        serde_json::error::Category::Eof => "Unexpected end-of-input".to_string(),
        _ => {
            let s = e.to_string();
            let msg = s.split(" at line").next().unwrap_or(&s).to_string();
            format!("Unexpected character: {msg}")
        }
    };
    format!(
        "{what}\n at [Source: org.elasticsearch.transport.netty4.ByteBufStreamInput@{:x}; line: {}, column: {}]",
        0x1f2e3d4cu32,
        e.line(),
        e.column()
    )
}

impl SearchRequest {
    /// Sets the `timeout` and starts its clock. `-1` (ES's "no timeout") and `0` parse to
    /// zero: no timeout.
    fn set_timeout(&mut self, t: std::time::Duration) {
        self.timeout = Some(t).filter(|t| !t.is_zero());
        self.start_clock();
    }

    /// Counts the `timeout` from now: a search that waited its turn (an `_msearch` item
    /// after others) has its whole `timeout`, as each ES search counts it from its own start.
    pub fn start_clock(&mut self) {
        self.deadline = self.timeout.and_then(|t| web_time::Instant::now().checked_add(t));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(body: &str) -> String {
        SearchRequest::from_body(body).unwrap_err().reason().to_string()
    }

    #[test]
    fn from_and_size_are_java_ints_in_the_url() {
        for name in ["from", "size", "terminate_after"] {
            let params = vec![(name.to_string(), "99999999999".to_string())];
            let e = SearchRequest::parse("", &params, &[]).unwrap_err();
            let want = format!("Failed to parse int parameter [{name}] with value [99999999999]");
            assert_eq!(
                e.to_json(),
                serde_json::json!({"error": {
                    "root_cause": [{"type": "illegal_argument_exception", "reason": want}],
                    "type": "illegal_argument_exception", "reason": want,
                    "caused_by": {"type": "number_format_exception", "reason": "For input string: \"99999999999\""}},
                    "status": 400})
            );
        }
        let params = vec![("from".to_string(), "2147483647".to_string())];
        assert_eq!(SearchRequest::parse("", &params, &[]).map(|r| r.from).ok(), Some(2147483647));
    }

    #[test]
    fn from_and_size_are_java_ints_in_the_body() {
        let e = SearchRequest::from_body("{\"size\": 1,\n \"from\": 99999999999}").unwrap_err();
        assert_eq!((e.status, e.kind()), (500, "json_parse_exception"));
        assert_eq!(
            e.reason(),
            "Numeric value (99999999999) out of range of int (-2147483648 - 2147483647)\n at [Source: org.elasticsearch.transport.netty4.ByteBufStreamInput@1f2e3d4c; line: 2, column: 21]"
        );
        assert_eq!(reason(r#"{"size": "-3000000000"}"#), "Value [-3000000000] is out of range for an integer");
        assert_eq!(SearchRequest::from_body(r#"{"from": 2147483647}"#).map(|r| r.from).ok(), Some(2147483647));
    }

    #[test]
    fn an_msearch_item_counts_its_timeout_from_its_start() {
        let mut r = SearchRequest::from_body(r#"{"timeout": "10s"}"#).unwrap();
        assert_eq!(r.timeout, Some(std::time::Duration::from_secs(10)));
        let first = r.deadline.unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
        r.start_clock();
        assert!(r.deadline.unwrap() > first);
        let r = SearchRequest::from_body(r#"{"timeout": "-1"}"#).unwrap();
        assert_eq!((r.timeout, r.deadline), (None, None));
    }

    #[test]
    fn a_body_that_is_no_object_names_its_token() {
        assert_eq!(reason(r#""q""#), "Expected [START_OBJECT] but found [VALUE_STRING]");
        assert_eq!(reason("[1]"), "Expected [START_OBJECT] but found [START_ARRAY]");
        assert_eq!(reason("7"), "Expected [START_OBJECT] but found [VALUE_NUMBER]");
    }

    #[test]
    fn source_errors_are_parse_errors() {
        let e = SearchRequest::from_body(r#"{"_source": {"fields": ["a"]}}"#).unwrap_err();
        assert_eq!(
            (e.status, e.kind(), e.reason()),
            (400, "parsing_exception", "Unknown key for a START_ARRAY in [fields].")
        );
    }
}
