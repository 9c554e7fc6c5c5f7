//! Index templates for the gateway's three index families.
//!
//! The real indices add a lower-cased `aggregate` keyword sub-field to their string
//! fields (clients sort, facet and filter on `<field>.aggregate`), map object properties
//! literally named `keyword`, `value` or `status` as keywords, and range-filter compact
//! timestamps (`YYYYMMDDThhmmss+0000`) as dates.

use serde_json::{json, Value};

/// The index families of the gateway.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Resource registry records (tools, antibodies, cell lines, ...).
    Registry,
    /// Terminology terms.
    Lexicon,
    /// Research dataset records.
    Dataset,
}

impl Family {
    /// Parses a family name.
    pub fn from_name(s: &str) -> crate::Result<Family> {
        match s {
            "registry" => Ok(Family::Registry),
            "lexicon" => Ok(Family::Lexicon),
            "dataset" => Ok(Family::Dataset),
            _ => Err(crate::Error::illegal_argument(format!("unknown family [{s}]: use registry, lexicon or dataset"))),
        }
    }
}

fn keyword_with_aggregate() -> Value {
    json!({"type": "keyword", "ignore_above": 256,
           "fields": {"aggregate": {"type": "keyword", "normalizer": "lowercase", "ignore_above": 256}}})
}

/// The mapping (dynamic templates, date formats, fixed fields) an index of `family`
/// starts from. Strings are `text` with the lower-cased `aggregate` sub-field everywhere;
/// the lexicon also keeps the default `keyword` sub-field, which its clients use
/// (`type.keyword`). A registry record's citable identifier `rrid.curie` is a keyword: the
/// antibody pages look records up with `{"terms": {"rrid.curie": ["RRID:AB_…"]}}`, exact
/// and case-sensitive, which an analysed field would never match.
pub fn family_template(family: Family) -> Value {
    let mut fields = json!({"aggregate": {"type": "keyword", "normalizer": "lowercase", "ignore_above": 256}});
    if family == Family::Lexicon {
        fields["keyword"] = json!({"type": "keyword", "ignore_above": 256});
    }
    let properties = match family {
        Family::Registry => json!({"rrid": {"properties": {"curie": keyword_with_aggregate()}}}),
        Family::Lexicon | Family::Dataset => json!({}),
    };
    json!({
        "dynamic_date_formats": ["strict_date_optional_time", "basic_date_time_no_millis", "yyyy/MM/dd HH:mm:ss Z||yyyy/MM/dd Z"],
        "dynamic_templates": [
            {"keyword_properties": {"match": "keyword", "match_mapping_type": "string", "mapping": keyword_with_aggregate()}},
            {"enum_values": {"match": "value", "match_mapping_type": "string", "mapping": keyword_with_aggregate()}},
            {"status_values": {"match": "status", "match_mapping_type": "string", "mapping": keyword_with_aggregate()}},
            {"strings": {"match_mapping_type": "string", "mapping": {"type": "text", "fields": fields}}}
        ],
        "properties": properties
    })
}
