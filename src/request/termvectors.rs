//! `_termvectors` and `_mtermvectors` as typed requests: the documents to describe and
//! the options asked for, from the URL parameters and the body, as ES 6.8's
//! TermVectorsRequest and MultiTermVectorsRequest read them.

use crate::error::{Error, Exception, Result};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// What a term vectors request asks for.
#[derive(Debug, Clone)]
pub struct Options {
    /// `fields`: names and patterns; `None` for the default fields.
    pub fields: Option<Vec<String>>,
    /// `positions`.
    pub positions: bool,
    /// `offsets`.
    pub offsets: bool,
    /// `payloads`.
    pub payloads: bool,
    /// `term_statistics`.
    pub term_statistics: bool,
    /// `field_statistics`.
    pub field_statistics: bool,
    /// `per_field_analyzer`: field → analyzer name.
    pub per_field_analyzer: BTreeMap<String, String>,
    /// `filter`.
    pub filter: Option<Filter>,
}

/// `filter`: ES's TermVectorsFilter, which keeps each field's best terms by tf-idf
/// (Lucene's ClassicSimilarity idf over the index) and adds their `score`.
#[derive(Debug, Clone, Copy)]
pub struct Filter {
    /// `max_num_terms` (25).
    pub max_num_terms: i64,
    /// `min_term_freq`.
    pub min_term_freq: i64,
    /// `max_term_freq`.
    pub max_term_freq: i64,
    /// `min_doc_freq`.
    pub min_doc_freq: i64,
    /// `max_doc_freq`.
    pub max_doc_freq: i64,
    /// `min_word_length`.
    pub min_word_length: i64,
    /// `max_word_length` (0: none).
    pub max_word_length: i64,
}

impl Filter {
    /// A body's `filter` object.
    fn parse(v: &Value) -> Result<Filter> {
        let Value::Object(o) = v else {
            return Err(Error::parsing_no_pos("The parameter [filter] must be an object"));
        };
        let mut f = Filter {
            max_num_terms: 25,
            min_term_freq: 0,
            max_term_freq: i64::from(i32::MAX),
            min_doc_freq: 0,
            max_doc_freq: i64::from(i32::MAX),
            min_word_length: 0,
            max_word_length: 0,
        };
        for (k, x) in o {
            let n = x.as_i64().ok_or_else(|| {
                Error::parsing_no_pos(format!("failed to parse term vectors filter: [{k}] must be a number"))
            })?;
            match k.as_str() {
                "max_num_terms" => f.max_num_terms = n,
                "min_term_freq" => f.min_term_freq = n,
                "max_term_freq" => f.max_term_freq = n,
                "min_doc_freq" => f.min_doc_freq = n,
                "max_doc_freq" => f.max_doc_freq = n,
                "min_word_length" => f.min_word_length = n,
                "max_word_length" => f.max_word_length = n,
                other => {
                    return Err(Error::parsing_no_pos(format!(
                        "The parameter [{other}] is not valid for term vector filter!"
                    )))
                }
            }
        }
        Ok(f)
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            fields: None,
            positions: true,
            offsets: true,
            payloads: true,
            term_statistics: false,
            field_statistics: true,
            per_field_analyzer: BTreeMap::new(),
            filter: None,
        }
    }
}

/// One document to describe: stored (`id`) or artificial (`doc`).
#[derive(Debug, Clone)]
pub struct Target {
    /// An index, or an alias of exactly one index.
    pub index: String,
    /// The type named (`_doc` for any).
    pub doc_type: String,
    /// A stored document's `_id`.
    pub id: Option<String>,
    /// An artificial document.
    pub doc: Option<Value>,
    /// What to describe of it.
    pub options: Options,
}

fn bool_param(v: &str) -> Result<bool> {
    match v {
        "" | "true" => Ok(true),
        "false" => Ok(false),
        other => Err(Error::illegal_argument(format!(
            "Failed to parse value [{other}] as only [true] or [false] are allowed."
        ))),
    }
}

impl Options {
    /// The URL parameters over the defaults.
    fn from_params(params: &[(String, String)]) -> Result<Options> {
        let mut o = Options::default();
        for (k, v) in params {
            match k.as_str() {
                "fields" => o.fields = Some(v.split(',').filter(|f| !f.is_empty()).map(str::to_string).collect()),
                "positions" => o.positions = bool_param(v)?,
                "offsets" => o.offsets = bool_param(v)?,
                "payloads" => o.payloads = bool_param(v)?,
                "term_statistics" => o.term_statistics = bool_param(v)?,
                "field_statistics" => o.field_statistics = bool_param(v)?,
                "dfs" => return Err(unsupported("dfs")),
                _ => {}
            }
        }
        Ok(o)
    }

    /// A body's members over these options (`doc` and the coordinates are the caller's).
    fn read_body(&mut self, body: &Map<String, Value>) -> Result<()> {
        let flag = |k: &str, v: &Value| {
            crate::json_value::bool_of(v)
                .ok_or_else(|| Error::illegal_argument(format!("failed to parse boolean value for [{k}]")))
        };
        for (k, v) in body {
            match k.as_str() {
                "fields" => {
                    self.fields = Some(match v {
                        Value::Array(a) => a.iter().map(crate::json_value::value_to_string).collect(),
                        other => vec![crate::json_value::value_to_string(other)],
                    })
                }
                "positions" => self.positions = flag(k, v)?,
                "offsets" => self.offsets = flag(k, v)?,
                "payloads" => self.payloads = flag(k, v)?,
                "term_statistics" | "termStatistics" => self.term_statistics = flag(k, v)?,
                "field_statistics" | "fieldStatistics" => self.field_statistics = flag(k, v)?,
                "per_field_analyzer" => {
                    let Value::Object(m) = v else {
                        return Err(Error::parsing_no_pos("per_field_analyzer must be an object"));
                    };
                    self.per_field_analyzer =
                        m.iter().map(|(f, a)| (f.clone(), crate::json_value::value_to_string(a))).collect();
                }
                "filter" => self.filter = Some(Filter::parse(v)?),
                "dfs" => return Err(unsupported("dfs")),
                "doc" | "_index" | "_type" | "_id" | "routing" | "_routing" | "version" | "_version"
                | "version_type" | "preference" | "realtime" | "parent" => {}
                other => {
                    return Err(Error::parsing_no_pos(format!(
                        "failed to parse term vectors request: unknown field [{other}]"
                    )))
                }
            }
        }
        Ok(())
    }
}

fn unsupported(what: &str) -> Error {
    Error::illegal_argument(format!("[{what}] of term vectors is not supported by metagate"))
}

/// `{index}/{type}[/{id}]/_termvectors`: one stored document (`id`) or the body's
/// artificial `doc`.
#[derive(Debug, Clone)]
pub struct TermVectorsRequest {
    /// The document and the options.
    pub target: Target,
}

impl TermVectorsRequest {
    /// The request of a path's parts, a body and the URL parameters.
    pub fn parse(
        index: &str,
        doc_type: &str,
        id: Option<&str>,
        body: &str,
        params: &[(String, String)],
    ) -> Result<TermVectorsRequest> {
        let mut options = Options::from_params(params)?;
        let mut doc = None;
        if !body.trim().is_empty() {
            let v: Value =
                serde_json::from_str(body).map_err(|e| Error::json_parse(crate::request::json_error_text(&e)))?;
            let Value::Object(o) = v else {
                return Err(Error::parsing_no_pos("term vectors request must be an object"));
            };
            options.read_body(&o)?;
            doc = o.get("doc").cloned();
        }
        if id.is_none() && doc.is_none() {
            return Err(Error::new(
                400,
                Exception::new("action_request_validation_exception", "Validation Failed: 1: id is missing;"),
            ));
        }
        let target =
            Target { index: index.into(), doc_type: doc_type.into(), id: id.map(str::to_string), doc, options };
        Ok(TermVectorsRequest { target })
    }
}

/// One document of `_mtermvectors` whose own members failed to parse: its index, type
/// and id as named, and why (answered as that document's `error`).
pub type FailedTarget = (String, String, String, Error);

/// `[{index}[/{type}]]/_mtermvectors`: `docs` (each with its own `_index`, `_type`,
/// `_id` or `doc`, and options over the URL's) or `ids`.
#[derive(Debug, Clone)]
pub struct MtermvectorsRequest {
    /// The documents, in order.
    pub targets: Vec<std::result::Result<Target, FailedTarget>>,
}

impl MtermvectorsRequest {
    /// The request of a path's index and type, a body and the URL parameters.
    pub fn parse(
        index: Option<&str>,
        doc_type: Option<&str>,
        body: &str,
        params: &[(String, String)],
    ) -> Result<MtermvectorsRequest> {
        let defaults = Options::from_params(params)?;
        let body: Value = if body.trim().is_empty() {
            json!({})
        } else {
            serde_json::from_str(body).map_err(|e| Error::json_parse(crate::request::json_error_text(&e)))?
        };
        let mut targets: Vec<std::result::Result<Target, FailedTarget>> = Vec::new();
        let url_ids: Vec<String> = params
            .iter()
            .rev()
            .find(|(k, _)| k == "ids")
            .map(|(_, v)| v.split(',').filter(|s| !s.is_empty()).map(str::to_string).collect())
            .unwrap_or_default();
        let body_ids: Vec<String> = match body.get("ids") {
            Some(Value::Array(a)) => a.iter().map(crate::json_value::value_to_string).collect(),
            _ => Vec::new(),
        };
        let shared = match body.get("parameters") {
            Some(Value::Object(p)) => {
                let mut o = defaults.clone();
                o.read_body(p)?;
                o
            }
            _ => defaults.clone(),
        };
        for id in url_ids.iter().chain(&body_ids) {
            targets.push(Ok(Target {
                index: index.unwrap_or_default().to_string(),
                doc_type: doc_type.unwrap_or("_doc").to_string(),
                id: Some(id.clone()),
                doc: None,
                options: shared.clone(),
            }));
        }
        if let Some(Value::Array(docs)) = body.get("docs") {
            for d in docs {
                let Value::Object(o) = d else {
                    return Err(Error::illegal_argument("docs array element should include an object"));
                };
                let text = |k: &str| o.get(k).map(crate::json_value::value_to_string);
                let idx = text("_index").or_else(|| index.map(str::to_string));
                let ty = text("_type").or_else(|| doc_type.map(str::to_string)).unwrap_or_else(|| "_doc".into());
                let id = text("_id");
                let mut options = defaults.clone();
                let target = options.read_body(o).map(|_| Target {
                    index: idx.clone().unwrap_or_default(),
                    doc_type: ty.clone(),
                    id: id.clone(),
                    doc: o.get("doc").cloned(),
                    options,
                });
                targets.push(target.map_err(|e| (idx.unwrap_or_default(), ty, id.unwrap_or_default(), e)));
            }
        }
        if targets.is_empty() {
            return Err(Error::new(
                400,
                Exception::new(
                    "action_request_validation_exception",
                    "Validation Failed: 1: multi term vectors: no documents requested;",
                ),
            ));
        }
        Ok(MtermvectorsRequest { targets })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason<T>(r: Result<T>) -> Option<String> {
        r.err().map(|e| e.reason().to_string())
    }

    #[test]
    fn options_from_parameters_and_body() {
        let p = vec![("fields".to_string(), "a,b".to_string()), ("positions".to_string(), "false".to_string())];
        let r =
            TermVectorsRequest::parse("i", "_doc", Some("1"), r#"{"offsets":false,"filter":{"max_num_terms":3}}"#, &p);
        let o = r.map(|r| r.target.options).ok();
        assert_eq!(o.as_ref().and_then(|o| o.fields.clone()), Some(vec!["a".to_string(), "b".to_string()]));
        assert_eq!(o.as_ref().map(|o| (o.positions, o.offsets, o.payloads)), Some((false, false, true)));
        assert_eq!(o.and_then(|o| o.filter).map(|f| f.max_num_terms), Some(3));
    }

    #[test]
    fn es_errors() {
        assert_eq!(
            reason(TermVectorsRequest::parse("i", "_doc", None, "", &[])).as_deref(),
            Some("Validation Failed: 1: id is missing;")
        );
        let dfs = vec![("dfs".to_string(), "true".to_string())];
        assert!(reason(TermVectorsRequest::parse("i", "_doc", Some("1"), "", &dfs)).is_some());
        assert_eq!(
            reason(MtermvectorsRequest::parse(Some("i"), None, "{}", &[])).as_deref(),
            Some("Validation Failed: 1: multi term vectors: no documents requested;")
        );
        let r = MtermvectorsRequest::parse(Some("i"), None, r#"{"docs":[{"_id":"1","bogus":1}],"ids":["2"]}"#, &[]);
        let failed = r.ok().map(|r| r.targets.iter().map(|t| t.is_err()).collect::<Vec<_>>());
        assert_eq!(failed, Some(vec![false, true]));
    }
}
