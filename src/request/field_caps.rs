//! `[{index}]/_field_caps` as a typed request, as ES 6.8's RestFieldCapabilitiesAction
//! reads it: the `fields` parameter, or (deprecated) a body `{"fields": [..]}`, not both.

use crate::error::{Error, Exception, Result};
use crate::request::indices_options::{indices_options, IndicesOptions};
use serde_json::Value;

/// `_field_caps`.
#[derive(Debug, Clone)]
pub struct FieldCapsRequest {
    /// The index expression; `None` for every index.
    pub index: Option<String>,
    /// Field names and patterns; never empty once parsed.
    pub fields: Vec<String>,
    /// How the index expression resolves.
    pub indices: IndicesOptions,
}

/// ES's validation error for a request naming no field (also raised by the engine for
/// a request built without any).
pub fn no_fields_specified() -> Error {
    Error::new(400, Exception::new("action_request_validation_exception", "Validation Failed: 1: no fields specified;"))
}

impl FieldCapsRequest {
    /// The request of a path's index, a body and the URL parameters.
    pub fn parse(index: Option<&str>, body: &str, params: &[(String, String)]) -> Result<FieldCapsRequest> {
        let fields = fields(body, params)?;
        if fields.is_empty() {
            return Err(no_fields_specified());
        }
        Ok(FieldCapsRequest { index: index.map(str::to_string), fields, indices: indices_options(params)? })
    }
}

/// The `fields` of the parameter or the body.
fn fields(body: &str, params: &[(String, String)]) -> Result<Vec<String>> {
    let from_param = params
        .iter()
        .rev()
        .find(|(k, _)| k == "fields")
        .map(|(_, f)| f.split(',').map(str::trim).map(str::to_string).collect::<Vec<_>>());
    if body.trim().is_empty() {
        return Ok(from_param.unwrap_or_default());
    }
    if from_param.is_some() {
        return Err(Error::illegal_argument(
            "can't specify a request body and [fields] request parameter, either specify a request body or the [fields] request parameter",
        ));
    }
    let v: Value = serde_json::from_str(body).map_err(|e| Error::json_parse(crate::request::json_error_text(&e)))?;
    Ok(match v.get("fields") {
        Some(Value::Array(a)) => a.iter().map(crate::json_value::value_to_string).collect(),
        Some(other) => crate::json_value::value_to_string(other).split(',').map(str::to_string).collect(),
        None => Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(r: Result<FieldCapsRequest>) -> Option<String> {
        r.err().map(|e| e.reason().to_string())
    }

    #[test]
    fn fields_from_the_parameter_or_the_body() {
        let p = vec![("fields".to_string(), "a, b*".to_string())];
        assert_eq!(FieldCapsRequest::parse(None, "", &p).ok().map(|r| r.fields), Some(vec!["a".into(), "b*".into()]));
        let r = FieldCapsRequest::parse(Some("i"), r#"{"fields":["x",1]}"#, &[]);
        assert_eq!(r.ok().map(|r| r.fields), Some(vec!["x".into(), "1".into()]));
        let r = FieldCapsRequest::parse(Some("i"), r#"{"fields":"x,y"}"#, &[]);
        assert_eq!(r.ok().map(|r| r.fields), Some(vec!["x".into(), "y".into()]));
    }

    #[test]
    fn es_errors() {
        assert_eq!(
            reason(FieldCapsRequest::parse(None, "", &[])).as_deref(),
            Some("Validation Failed: 1: no fields specified;")
        );
        let p = vec![("fields".to_string(), "a".to_string())];
        assert!(reason(FieldCapsRequest::parse(None, r#"{"fields":["b"]}"#, &p))
            .is_some_and(|r| r.starts_with("can't specify")));
    }
}
