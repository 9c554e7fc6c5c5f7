//! `_mget` as a typed request: the documents a body's `docs` or `ids` name, each with
//! its index, type and GET options, as ES 6.8's RestMultiGetAction and
//! MultiGetRequest read them (the path's index and type, then the URL parameters, are
//! the defaults every item may override).

use crate::error::{Error, Exception, Result};
use crate::request::get::GetOptions;
use crate::request::source::SourceFilter;
use serde_json::Value;

/// `_mget`: the documents to get, in order.
#[derive(Debug, Clone)]
pub struct MgetRequest {
    /// The documents, each answered as GET answers it.
    pub items: Vec<MgetItem>,
}

impl MgetRequest {
    /// The request of a path's index and type, a body and the URL parameters; a
    /// malformed body, or an item without index or id, is ES's 400.
    pub fn parse(
        index: Option<&str>,
        doc_type: Option<&str>,
        body: &str,
        params: &[(String, String)],
    ) -> Result<MgetRequest> {
        if params.iter().any(|(n, _)| n == "fields") {
            return Err(Error::illegal_argument(
                "The parameter [fields] is no longer supported, please use [stored_fields] to retrieve stored fields or _source filtering if the field is not stored",
            ));
        }
        let defaults =
            GetOptions::from_params(&params.iter().filter(|(k, _)| k != "version").cloned().collect::<Vec<_>>())?;
        Ok(MgetRequest { items: parse_mget(body, index, doc_type, &defaults)? })
    }
}

/// One `_mget` item.
#[derive(Debug, Clone)]
pub struct MgetItem {
    /// An index, or an alias of exactly one index.
    pub index: String,
    /// The type, when the item or the path names one.
    pub doc_type: Option<String>,
    /// The document's `_id`.
    pub id: String,
    /// What of the document to return.
    pub opts: GetOptions,
}

fn parsing(reason: impl Into<String>) -> Error {
    Error::new(400, Exception::new("parsing_exception", reason))
}

fn validation(messages: &[String]) -> Error {
    let listed: String = messages.iter().enumerate().map(|(i, m)| format!("{}: {m};", i + 1)).collect();
    Error::new(400, Exception::new("action_request_validation_exception", format!("Validation Failed: {listed}")))
}

fn parse_mget(body: &str, index: Option<&str>, doc_type: Option<&str>, defaults: &GetOptions) -> Result<Vec<MgetItem>> {
    if body.trim().is_empty() {
        return Err(Error::new(400, Exception::new("parse_exception", "request body or source parameter is required")));
    }
    let v: Value = serde_json::from_str(body).map_err(|e| Error::json_parse(crate::request::json_error_text(&e)))?;
    let Value::Object(o) = v else {
        return Err(parsing("Expected [START_OBJECT] but found [START_ARRAY]"));
    };
    let mut items = Vec::new();
    let mut problems = Vec::new();
    for (k, v) in &o {
        let Value::Array(list) = v else {
            return Err(parsing(format!(
                "unexpected token [{}], expected [FIELD_NAME] or [START_ARRAY]",
                crate::json_value::token_name(v)
            )));
        };
        match k.as_str() {
            "docs" => {
                for d in list {
                    let Value::Object(d) = d else {
                        return Err(parsing("docs array element should include an object"));
                    };
                    let mut item = MgetItem {
                        index: index.unwrap_or_default().to_string(),
                        doc_type: doc_type.map(str::to_string),
                        id: String::new(),
                        opts: defaults.clone(),
                    };
                    for (dk, dv) in d {
                        let text = || crate::json_value::value_to_string(dv);
                        match dk.as_str() {
                            "_index" => item.index = text(),
                            "_type" => item.doc_type = Some(text()),
                            "_id" => item.id = text(),
                            "routing" | "_routing" | "parent" | "_parent" | "version_type" | "_version_type" => {}
                            "version" | "_version" => item.opts.version = dv.as_i64(),
                            "stored_fields" => {
                                item.opts.stored_fields = Some(match dv {
                                    Value::Array(a) => a.iter().map(crate::json_value::value_to_string).collect(),
                                    other => vec![crate::json_value::value_to_string(other)],
                                })
                            }
                            "_source" => {
                                item.opts.source =
                                    Some(SourceFilter::from_json(dv).map_err(crate::error::Error::parsing_no_pos)?)
                            }
                            other => {
                                return Err(Error::illegal_argument(format!(
                                    "failed to parse multi get request. unknown field [{other}]"
                                )))
                            }
                        }
                    }
                    items.push(item);
                }
            }
            "ids" => {
                for id in list {
                    items.push(MgetItem {
                        index: index.unwrap_or_default().to_string(),
                        doc_type: doc_type.map(str::to_string),
                        id: crate::json_value::value_to_string(id),
                        opts: defaults.clone(),
                    });
                }
            }
            other => return Err(parsing(format!("unknown key [{other}] for a START_ARRAY, expected [docs] or [ids]"))),
        }
    }
    if items.is_empty() {
        problems.push("no documents to get".to_string());
    }
    for (i, item) in items.iter().enumerate() {
        if item.index.is_empty() {
            problems.push(format!("index is missing for doc {i}"));
        }
        if item.id.is_empty() {
            problems.push(format!("id is missing for doc {i}"));
        }
    }
    if !problems.is_empty() {
        return Err(validation(&problems));
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(r: Result<MgetRequest>) -> Option<String> {
        r.err().map(|e| e.reason().to_string())
    }

    #[test]
    fn items_take_the_path_and_parameters_as_defaults() {
        let p = vec![("_source".to_string(), "false".to_string())];
        let r = MgetRequest::parse(Some("i"), None, r#"{"docs":[{"_id":"a"},{"_index":"j","_id":1,"_type":"t"}]}"#, &p);
        let items = r.map(|r| r.items).unwrap_or_default();
        let shown: Vec<_> = items.iter().map(|i| (i.index.as_str(), i.doc_type.as_deref(), i.id.as_str())).collect();
        assert_eq!(shown, [("i", None, "a"), ("j", Some("t"), "1")]);
        assert!(items.iter().all(|i| !i.opts.fetches_source()));
    }

    #[test]
    fn es_errors() {
        assert_eq!(
            reason(MgetRequest::parse(None, None, r#"{"ids":["a"]}"#, &[])).as_deref(),
            Some("Validation Failed: 1: index is missing for doc 0;")
        );
        assert_eq!(
            reason(MgetRequest::parse(Some("i"), None, "", &[])).as_deref(),
            Some("request body or source parameter is required")
        );
        assert_eq!(
            reason(MgetRequest::parse(Some("i"), None, r#"{"docs":[{"x":1}]}"#, &[])).as_deref(),
            Some("failed to parse multi get request. unknown field [x]")
        );
        assert_eq!(
            reason(MgetRequest::parse(Some("i"), None, r#"{"docs":[]}"#, &[])).as_deref(),
            Some("Validation Failed: 1: no documents to get;")
        );
    }
}
