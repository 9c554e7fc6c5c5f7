//! GET (and HEAD) `[{index}]/_mapping[/{type}]` as a typed request, as ES 6.8's
//! RestGetMappingAction reads it.

use crate::error::{Error, Result};
use crate::request::indices_options::{indices_options, IndicesOptions};

/// The deprecation 6.8 attaches to a mapping request that leaves `include_type_name` out.
const INCLUDE_TYPE_NAME_WARNING: &str = "[types removal] The parameter include_type_name should be explicitly specified in get mapping requests to prepare for 7.0. In 7.0 include_type_name will default to 'false', which means responses will omit the type name in mapping definitions.";

/// GET `_mapping`.
#[derive(Debug, Clone)]
pub struct MappingRequest {
    /// The index expression; `None` for every index.
    pub index: Option<String>,
    /// The types asked for (names and patterns, comma-separated); `None` for every type
    /// (`_all` or `*` alone ask for every type too).
    pub types: Option<String>,
    /// Whether each mapping is keyed by its type (6.8's default: true).
    pub include_type_name: bool,
    /// How the index expression resolves.
    pub indices: IndicesOptions,
}

impl MappingRequest {
    /// The request of a path's index and types and the URL parameters. Leaving
    /// `include_type_name` out warns, as 6.8 does.
    pub fn parse(index: Option<&str>, types: Option<&str>, params: &[(String, String)]) -> Result<MappingRequest> {
        let include_type_name = match params.iter().rev().find(|(k, _)| k == "include_type_name") {
            Some((_, v)) => v != "false",
            None => {
                crate::deprecation::warn(INCLUDE_TYPE_NAME_WARNING);
                true
            }
        };
        if types.is_some() && !include_type_name {
            return Err(Error::illegal_argument(
                "Types cannot be provided in get mapping requests, unless include_type_name is set to true.",
            ));
        }
        Ok(MappingRequest {
            index: index.map(str::to_string),
            // `paramAsStringArrayOrEmptyIfAll`: `_all` or `*` alone asks for every type.
            types: types.filter(|t| !matches!(t.trim(), "" | "_all" | "*")).map(str::to_string),
            include_type_name,
            indices: indices_options(params)?,
        })
    }
}

/// GET `[{index}]/_mapping[/{type}]/field/{fields}` (and `{index}/{type}/_mapping/field/{fields}`),
/// as ES 6.8's RestGetFieldMappingAction reads it.
#[derive(Debug, Clone)]
pub struct FieldMappingRequest {
    /// The index expression; `None` for every index.
    pub index: Option<String>,
    /// The types asked for (names and patterns, comma-separated); `None` for every type.
    pub types: Option<String>,
    /// The field names and patterns asked for (full dotted names).
    pub fields: Vec<String>,
    /// Whether each index's fields are keyed by its type (6.8's default: true).
    pub include_type_name: bool,
    /// How the index expression resolves.
    pub indices: IndicesOptions,
    /// One index, one type and one field named: ES answers `{}` when that field is
    /// missing.
    pub single_field: bool,
}

impl FieldMappingRequest {
    /// The request of a path's index, types and fields and the URL parameters.
    pub fn parse(
        index: Option<&str>,
        types: Option<&str>,
        fields: &str,
        params: &[(String, String)],
    ) -> Result<FieldMappingRequest> {
        let flag =
            |k: &str, default: bool| params.iter().rev().find(|(p, _)| p == k).map_or(default, |(_, v)| v != "false");
        let include_type_name = flag("include_type_name", true);
        // `paramAsStringArrayOrEmptyIfAll`: `_all` or `*` alone asks for every type.
        let named_types = types.filter(|t| !matches!(t.trim(), "" | "_all" | "*"));
        if named_types.is_some() && !include_type_name {
            return Err(Error::illegal_argument("Types cannot be specified unless include_type_name is set to true."));
        }
        // The defaults of every mapper parameter are not rendered here: refuse rather
        // than answer without them.
        if flag("include_defaults", false) {
            return Err(Error::illegal_argument(
                "[include_defaults] is not supported by this cluster's field mapping API",
            ));
        }
        let list = |s: Option<&str>| -> Vec<String> {
            s.map(|s| s.split(',').map(str::trim).filter(|p| !p.is_empty()).map(str::to_string).collect())
                .unwrap_or_default()
        };
        let fields = list(Some(fields));
        // ES fills in a missing field only for a name, not a pattern.
        let single_field =
            list(index).len() == 1 && list(named_types).len() == 1 && fields.len() == 1 && !fields[0].contains('*');
        Ok(FieldMappingRequest {
            index: index.map(str::to_string),
            types: named_types.map(str::to_string),
            fields,
            include_type_name,
            indices: indices_options(params)?,
            single_field,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn types_and_include_type_name() {
        let r = MappingRequest::parse(Some("i"), Some("_all"), &params(&[("include_type_name", "true")]));
        assert_eq!(r.ok().map(|r| (r.types, r.include_type_name)), Some((None, true)));
        let r = MappingRequest::parse(None, None, &params(&[("include_type_name", "false")]));
        assert_eq!(r.ok().map(|r| r.include_type_name), Some(false));
        let e = MappingRequest::parse(None, Some("t"), &params(&[("include_type_name", "false")]));
        assert_eq!(
            e.err().map(|e| e.reason().to_string()).as_deref(),
            Some("Types cannot be provided in get mapping requests, unless include_type_name is set to true.")
        );
    }

    #[test]
    fn leaving_include_type_name_out_warns() {
        crate::deprecation::start();
        let r = MappingRequest::parse(None, Some("t"), &[]);
        assert_eq!(r.ok().and_then(|r| r.types).as_deref(), Some("t"));
        assert_eq!(crate::deprecation::take(), vec![INCLUDE_TYPE_NAME_WARNING.to_string()]);
    }
}
