//! `[{index}[/{type}]]/_validate/query`, as ES 6.8's RestValidateQueryAction and
//! TransportValidateQueryAction answer it: the query (the body's `query`, else the URL's
//! `q`, else `match_all`) is read, then compiled on each index as a search would compile
//! it. A query that does not read is `{"valid": false}` (with ES's `error` text when
//! `explain` is asked); a query an index refuses is invalid on that index. With `explain`
//! (or `rewrite`, or `all_shards`) each index gets an entry: `valid`, and Lucene's
//! `Query.toString` of the query as compiled there, or the error ES's shard reports.
//!
//! One index is one shard, so `_shards` counts the indices, and `all_shards` adds
//! `"shard": 0` to each entry.

use crate::engine::{indices_options, Engine};
use crate::error::{Error, Exception, Result};
use crate::index::IndexReader;
use crate::query::Query;
use crate::request::count::parse_body_query;
use crate::request::uri_query;
use crate::search::context::Executor;
use serde_json::{json, Map, Value};

impl Engine {
    /// `_validate/query` on `index` (an expression; `_all` for every index), with the
    /// types of the path: ES's ValidateQueryResponse as JSON (always status 200).
    pub fn validate_query(
        &self,
        index: &str,
        types: &[String],
        body: &str,
        params: &[(String, String)],
    ) -> Result<Value> {
        let flag = |name: &str| -> Result<bool> {
            match params.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str()) {
                None | Some("false") => Ok(false),
                Some("" | "true") => Ok(true),
                Some(other) => Err(Error::illegal_argument(format!(
                    "Failed to parse value [{other}] as only [true] or [false] are allowed."
                ))),
            }
        };
        let (explain, rewrite, all_shards) = (flag("explain")?, flag("rewrite")?, flag("all_shards")?);
        let opts = indices_options(params)?;
        // ES reads the query on the REST layer and answers a failure there itself.
        let query = match validated_query(body, params) {
            Ok(q) => q,
            Err(e) => {
                let mut out = Map::new();
                out.insert("valid".into(), json!(false));
                if explain {
                    out.insert("error".into(), json!(rest_layer_message(&e)));
                }
                return Ok(Value::Object(out));
            }
        };
        if rewrite && !rewrites_to_itself(&query) {
            return Err(Error::illegal_argument(
                "[rewrite] is not supported by metagate for this query: only match_all, term and boolean combinations of them are rewritten",
            ));
        }
        let snap = self.snapshot()?;
        let targets = self.resolve(&snap, index, opts)?;
        // The filters of the aliases the expression goes through, added as a search's
        // shard context adds them.
        let alias_filters = self.alias_filters(&snap, index)?;
        let filter_of =
            |reader: &IndexReader| alias_filters.iter().find(|(name, _)| *name == reader.meta.name).map(|(_, f)| f);
        if explain || rewrite || all_shards {
            for reader in &targets {
                let printed =
                    unprintable(&query, reader).or_else(|| filter_of(reader).and_then(|f| unprintable(f, reader)));
                if let Some(what) = printed {
                    return Err(Error::illegal_argument(format!(
                        "metagate does not print the Lucene query of {what} for [explain] of _validate/query"
                    )));
                }
            }
        }
        let now = crate::node::now_ms();
        let mut valid = true;
        let mut entries = Vec::new();
        for reader in &targets {
            let ex = Executor::new(reader, &snap, now);
            let mut entry = Map::new();
            entry.insert("index".into(), json!(reader.meta.name));
            if all_shards {
                entry.insert("shard".into(), json!(0));
            }
            let compiled = ex.compile_explained(&query).and_then(|weight| {
                let filter = match filter_of(reader) {
                    Some(f) => Some((f, ex.compile_explained(f)?.query_string())),
                    None => None,
                };
                Ok((weight.query_string(), filter))
            });
            match compiled {
                Ok((printed, filter)) => {
                    entry.insert("valid".into(), json!(true));
                    let explanation = with_filters(&query, printed, reader, types, filter);
                    entry.insert("explanation".into(), json!(explanation));
                }
                Err(e) => {
                    valid = false;
                    entry.insert("valid".into(), json!(false));
                    entry.insert("error".into(), json!(shard_message(&e, reader)));
                }
            }
            entries.push(Value::Object(entry));
        }
        let mut out = Map::new();
        let n = targets.len();
        out.insert("_shards".into(), json!({"total": n, "successful": n, "failed": 0}));
        out.insert("valid".into(), json!(valid));
        if (explain || rewrite || all_shards) && !entries.is_empty() {
            out.insert("explanations".into(), Value::Array(entries));
        }
        Ok(Value::Object(out))
    }
}

/// The query to validate: the body's `query` (a body holds nothing else; `{}` is
/// `match_all`), else the URL's `q` with its companions, else `match_all`.
fn validated_query(body: &str, params: &[(String, String)]) -> Result<Query> {
    let query = match body.trim().is_empty() {
        false => parse_body_query(body)?,
        true => uri_query(params)?,
    };
    Ok(query.unwrap_or(Query::MatchAll { boost: 1.0 }))
}

/// Whether Lucene's `rewrite` leaves the query's string as it is: `match_all`, `term`,
/// and booleans of two or more such clauses that are not all exclusions.
fn rewrites_to_itself(q: &Query) -> bool {
    match q {
        Query::MatchAll { .. } | Query::Term { .. } => true,
        Query::Bool(b) => {
            let clauses = b.must.len() + b.should.len() + b.must_not.len();
            b.filter.is_empty()
                && clauses >= 2
                && b.must.len() + b.should.len() > 0
                && b.minimum_should_match.is_none()
                && b.must.iter().chain(&b.should).chain(&b.must_not).all(rewrites_to_itself)
        }
        _ => false,
    }
}

/// What of `q` the explanation could not print as Lucene prints it, if anything: the
/// compiled weights record Lucene's `toString` for these queries with boost 1 (a boost is
/// Lucene's `(q)^b`, which they leave out), dates ranges print their millis in Lucene.
fn unprintable(q: &Query, reader: &IndexReader) -> Option<String> {
    let boosted = |b: f32| (b != 1.0).then(|| "a boosted query".to_string());
    match q {
        Query::MatchAll { boost } => boosted(*boost),
        Query::MatchNone => None,
        Query::Term { boost, .. }
        | Query::Terms { boost, .. }
        | Query::Exists { boost, .. }
        | Query::Prefix { boost, .. }
        | Query::Wildcard { boost, .. }
        | Query::Regexp { boost, .. }
        | Query::Ids { boost, .. } => boosted(*boost),
        Query::Match(m) => boosted(m.boost).or_else(|| m.fuzziness.as_ref().map(|_| "a fuzzy match".into())),
        Query::MatchPhrase { prefix: false, boost, .. } => boosted(*boost),
        Query::MultiMatch { options, .. } => {
            boosted(options.boost).or_else(|| options.fuzziness.as_ref().map(|_| "a fuzzy match".into()))
        }
        Query::Range(r) => {
            let date = reader.meta.mapping.field(&r.field).is_some_and(|f| f.ftype.is_date_like());
            date.then(|| "a date range".to_string()).or_else(|| boosted(r.boost))
        }
        Query::Bool(b) => {
            let negative = b.must.is_empty() && b.should.is_empty() && b.filter.is_empty() && !b.must_not.is_empty();
            if negative {
                return Some("a boolean of exclusions only".into());
            }
            boosted(b.boost).or_else(|| {
                b.must.iter().chain(&b.filter).chain(&b.should).chain(&b.must_not).find_map(|c| unprintable(c, reader))
            })
        }
        Query::ConstantScore { filter, boost } => boosted(*boost).or_else(|| unprintable(filter, reader)),
        Query::DisMax { queries, boost, .. } => {
            boosted(*boost).or_else(|| queries.iter().find_map(|c| unprintable(c, reader)))
        }
        Query::Nested(n) => boosted(n.boost).or_else(|| unprintable(&n.query, reader)),
        Query::Geo(_) => None,
        other => Some(format!("a [{}] query", query_name(other))),
    }
}

/// The DSL name of a query kind the explanation does not print.
fn query_name(q: &Query) -> &'static str {
    match q {
        Query::Script { .. } => "script",
        Query::MatchPhrase { .. } => "match_phrase_prefix",
        Query::Fuzzy { .. } => "fuzzy",
        Query::Boosting { .. } => "boosting",
        Query::FunctionScore(_) => "function_score",
        Query::TermsLookup(_) => "terms",
        Query::QueryString(q) if q.simple => "simple_query_string",
        Query::QueryString(_) => "query_string",
        _ => "this",
    }
}

/// The query as ES's search context builds it (`DefaultSearchContext.buildFilteredQuery`):
/// with filters, a boolean of the query as a required clause and each filter as a filter
/// clause — the type filter when the request names types (`*:*` when the index's type is
/// among them, else a query matching nothing), then the aliases' filter. Nested booleans
/// print in parentheses, as Lucene prints them.
fn with_filters(
    query: &Query,
    printed: String,
    reader: &IndexReader,
    types: &[String],
    alias_filter: Option<(&Query, String)>,
) -> String {
    let clause = |q: &Query, s: String| if matches!(q, Query::Bool(_)) { format!("({s})") } else { s };
    let mut filters = Vec::new();
    if !types.is_empty() {
        let own = reader.meta.type_name.as_deref().unwrap_or("_doc");
        filters.push(if types.iter().any(|t| t == own) {
            "*:*".to_string()
        } else {
            "MatchNoDocsQuery(\"Type list does not contain the index type\")".to_string()
        });
    }
    if let Some((q, s)) = alias_filter {
        filters.push(clause(q, s));
    }
    if filters.is_empty() {
        return printed;
    }
    let mut out = format!("+{}", clause(query, printed));
    for f in filters {
        out.push_str(&format!(" #{f}"));
    }
    out
}

/// The text ES answers for a query the REST layer could not read: a ParsingException's
/// detailed message (`class: reason`), any other exception's message.
fn rest_layer_message(e: &Error) -> String {
    let x = &e.exception;
    match x.kind.as_str() {
        "parsing_exception" => detailed_message(x),
        _ => x.reason.clone(),
    }
}

/// The `error` of an index that refused the query: ES's `getDetailedMessage` of the shard's
/// exception (its index, `Name[reason]` for each exception of the chain, then the cause's
/// own detailed message).
fn shard_message(e: &Error, reader: &IndexReader) -> String {
    let x = &e.exception;
    // A failure every shard reports comes wrapped; the shard's own exception is inside.
    let x = match x.metadata.iter().find(|(k, _)| k == "failed_shards") {
        Some((_, Value::Array(shards))) => match shards.first().and_then(|s| s.get("reason")) {
            Some(reason) => exception_from_json(reason),
            None => x.clone(),
        },
        _ => x.clone(),
    };
    match &x.caused_by {
        None => detailed_message(&x),
        Some(cause) => {
            let mut chain = Vec::new();
            let mut cur = Some(&x);
            while let Some(c) = cur {
                chain.push(format!("{}[{}]", simple_name(&c.kind), c.reason));
                cur = c.caused_by.as_deref();
            }
            let index = format!("[{}/{}] ", reader.meta.name, reader.meta.uuid);
            format!("{index}{};; {}", chain.join("; nested: "), detailed_message(cause))
        }
    }
}

/// An exception tree read back from its JSON form (`type`, `reason`, `caused_by`).
fn exception_from_json(v: &Value) -> Exception {
    let mut x = Exception::new(
        v.get("type").and_then(Value::as_str).unwrap_or("exception"),
        v.get("reason").and_then(Value::as_str).unwrap_or(""),
    );
    if let Some(c) = v.get("caused_by") {
        x = x.caused_by(exception_from_json(c));
    }
    x
}

/// Java's `Throwable.toString` of an exception without a cause: `class: reason`.
fn detailed_message(x: &Exception) -> String {
    format!("{}: {}", class_name(&x.kind), x.reason)
}

/// The Java class ES's exception type names (the ones a query's reading and compiling
/// raise); others are named after their type in ES's base package.
fn class_name(kind: &str) -> String {
    match kind {
        "parsing_exception" => "org.elasticsearch.common.ParsingException".into(),
        "query_shard_exception" => "org.elasticsearch.index.query.QueryShardException".into(),
        "illegal_argument_exception" => "java.lang.IllegalArgumentException".into(),
        "number_format_exception" => "java.lang.NumberFormatException".into(),
        "x_content_parse_exception" => "org.elasticsearch.common.xcontent.XContentParseException".into(),
        "json_parse_exception" => "com.fasterxml.jackson.core.JsonParseException".into(),
        "elasticsearch_parse_exception" => "org.elasticsearch.ElasticsearchParseException".into(),
        other => format!("org.elasticsearch.{}", simple_name(other)),
    }
}

/// `query_shard_exception` → `QueryShardException`.
fn simple_name(kind: &str) -> String {
    kind.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_names() {
        assert_eq!(simple_name("query_shard_exception"), "QueryShardException");
        assert_eq!(
            detailed_message(&Exception::new("parsing_exception", "request does not support [match_all]")),
            "org.elasticsearch.common.ParsingException: request does not support [match_all]"
        );
    }

    #[test]
    fn rewrite_is_refused_where_lucene_would_change_the_query() {
        let q = |s: &str| parse_body_query(s).unwrap().unwrap();
        assert!(rewrites_to_itself(&q(r#"{"query":{"term":{"a":"b"}}}"#)));
        assert!(rewrites_to_itself(&q(
            r#"{"query":{"bool":{"must":[{"term":{"a":"b"}}],"should":[{"term":{"a":"c"}}]}}}"#
        )));
        assert!(!rewrites_to_itself(&q(r#"{"query":{"bool":{"must":[{"term":{"a":"b"}}]}}}"#)));
        assert!(!rewrites_to_itself(&q(r#"{"query":{"prefix":{"a":"b"}}}"#)));
    }
}
