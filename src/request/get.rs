//! GET `{index}/{type}/{id}` (and HEAD) and GET `{index}/{type}/{id}/_source` as typed
//! requests: the path parts and what ES 6.8's RestGetAction and RestGetSourceAction read
//! from the URL parameters.

use crate::error::{Error, Result};
use crate::request::source::SourceFilter;

/// The last value of URL parameter `name`.
fn last<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

/// What of a document to return.
#[derive(Debug, Clone, Default)]
pub struct GetOptions {
    /// The `_source` filter, when one was asked for.
    pub source: Option<SourceFilter>,
    /// `stored_fields`: `_source` among them, and fields mapped `store: true`.
    pub stored_fields: Option<Vec<String>>,
    /// `version`: the version the caller expects (a mismatch is a conflict).
    pub version: Option<i64>,
}

impl GetOptions {
    /// The options of ES 6.8's GET parameters.
    pub fn from_params(params: &[(String, String)]) -> Result<GetOptions> {
        let get = |k: &str| last(params, k);
        if get("fields").is_some() {
            return Err(Error::illegal_argument(
                "the parameter [fields] is no longer supported, please use [stored_fields] to retrieve stored fields or [_source] to load the field from _source",
            ));
        }
        let version = match get("version") {
            Some(v) => Some(v.parse::<i64>().map_err(|_| {
                Error::illegal_argument(format!("Failed to parse long parameter [version] with value [{v}]"))
            })?),
            None => None,
        };
        Ok(GetOptions {
            source: SourceFilter::from_params(&get),
            stored_fields: get("stored_fields").map(|v| v.split(',').map(str::to_string).collect()),
            version,
        })
    }

    /// Whether `_source` is returned: asked for, or not excluded by `stored_fields`.
    pub fn fetches_source(&self) -> bool {
        match (&self.source, &self.stored_fields) {
            (Some(f), _) => !f.disabled,
            (None, Some(fields)) => fields.iter().any(|f| f == "_source"),
            (None, None) => true,
        }
    }
}

/// GET (or HEAD) `{index}/{type}/{id}`.
#[derive(Debug, Clone)]
pub struct GetRequest {
    /// An index, or an alias of exactly one index.
    pub index: String,
    /// The type the request names (`_doc` finds a document of any type).
    pub doc_type: String,
    /// The document's `_id`.
    pub id: String,
    /// What of the document to return.
    pub options: GetOptions,
}

impl GetRequest {
    /// The request of a path's parts and its URL parameters.
    pub fn parse(index: &str, doc_type: &str, id: &str, params: &[(String, String)]) -> Result<GetRequest> {
        Ok(GetRequest {
            index: index.to_string(),
            doc_type: doc_type.to_string(),
            id: id.to_string(),
            options: GetOptions::from_params(params)?,
        })
    }
}

/// GET `{index}/{type}/{id}/_source`.
#[derive(Debug, Clone)]
pub struct SourceRequest {
    /// An index, or an alias of exactly one index.
    pub index: String,
    /// The type the request names.
    pub doc_type: String,
    /// The document's `_id`.
    pub id: String,
    /// The `_source` filter of the `_source*` parameters, if any.
    pub filter: Option<SourceFilter>,
}

impl SourceRequest {
    /// The request of a path's parts and its URL parameters.
    pub fn parse(index: &str, doc_type: &str, id: &str, params: &[(String, String)]) -> SourceRequest {
        SourceRequest {
            index: index.to_string(),
            doc_type: doc_type.to_string(),
            id: id.to_string(),
            filter: SourceFilter::from_params(&|k: &str| last(params, k)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn get_parameters() {
        let r = GetRequest::parse("i", "_doc", "1", &params(&[("stored_fields", "a,_source"), ("version", "3")]));
        let o = r.map(|r| r.options).unwrap_or_default();
        assert_eq!((o.stored_fields, o.version), (Some(vec!["a".to_string(), "_source".to_string()]), Some(3)));
        let e = GetRequest::parse("i", "_doc", "1", &params(&[("version", "x")])).err().map(|e| e.reason().to_string());
        assert_eq!(e.as_deref(), Some("Failed to parse long parameter [version] with value [x]"));
        assert!(GetRequest::parse("i", "_doc", "1", &params(&[("fields", "a")])).is_err());
    }

    #[test]
    fn source_fetching() {
        let opts = |p: &[(&str, &str)]| GetOptions::from_params(&params(p)).unwrap_or_default();
        assert!(opts(&[]).fetches_source());
        assert!(!opts(&[("stored_fields", "a")]).fetches_source());
        assert!(opts(&[("stored_fields", "a,_source")]).fetches_source());
        assert!(!opts(&[("_source", "false")]).fetches_source());
        let r = SourceRequest::parse("i", "_doc", "1", &params(&[("_source_includes", "a")]));
        assert!(r.filter.is_some());
    }
}
