//! The lookup form of the `terms` query (`{"terms": {"f": {"index": …, "id": …, "path":
//! …}}}`) as ES 6.8's `TermsLookup` parses it. The values stay unresolved here: the
//! search reads them from the named document when it runs.

use super::Query;
use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// `terms` whose values are read from a document's `_source`.
#[derive(Debug, Clone, PartialEq)]
pub struct TermsLookupQuery {
    /// The field the values are looked for in.
    pub field: String,
    /// Where the values come from.
    pub lookup: TermsLookup,
    /// The query's boost.
    pub boost: f32,
}

/// The document and path a `terms` query's values are read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermsLookup {
    /// The index (`None`: the index being searched, as ES 6.8 allows).
    pub index: Option<String>,
    /// The document's type.
    pub doc_type: String,
    /// The document's id.
    pub id: String,
    /// The dotted path of the values in the document's `_source`.
    pub path: String,
    /// The routing of the lookup (one shard here: kept, not needed).
    pub routing: Option<String>,
}

/// Parses the lookup object of `field`; `boost` is the query's.
pub fn parse(field: &str, o: &Map<String, Value>, boost: f32) -> Result<Query> {
    let (mut index, mut doc_type, mut id, mut path, mut routing) = (None, None, None, None, None);
    for (k, v) in o {
        let text = (!v.is_null()).then(|| crate::json_value::value_to_string(v));
        match k.as_str() {
            "index" => index = text,
            "type" => doc_type = text,
            "id" => id = text,
            "path" => path = text,
            "routing" => routing = text,
            _ => {
                return Err(Error::parsing_no_pos(format!(
                    "[terms] query does not support [{k}] within lookup element"
                )))
            }
        }
    }
    let required = |v: Option<String>, what: &str| {
        v.ok_or_else(|| {
            Error::illegal_argument(format!("[terms] query lookup element requires specifying the {what}."))
        })
    };
    let lookup = TermsLookup {
        index,
        id: required(id, "id")?,
        doc_type: required(doc_type, "type")?,
        path: required(path, "path")?,
        routing,
    };
    Ok(Query::TermsLookup(Box::new(TermsLookupQuery { field: field.to_string(), lookup, boost })))
}
