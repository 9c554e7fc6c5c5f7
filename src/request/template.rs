//! Search templates as ES 6.8's SearchTemplateRequest reads them (`_search/template`,
//! `_msearch/template`, `_render/template`): an inline template (`source`, or the
//! deprecated `inline` / `template`; an object is written as JSON first), its `params`,
//! `explain` and `profile`. Stored templates (`id`) are refused as stored scripts are:
//! the file holds none. The template renders with [`super::mustache`].

use super::mustache::Template;
use crate::error::{Error, Exception, Result};
use serde_json::Value;

/// A search template request.
#[derive(Debug, Clone)]
pub struct SearchTemplate {
    /// The template text.
    pub source: String,
    /// `params`: the template's context.
    pub params: Value,
    /// `explain`: set on the rendered search (ES overrides the template's own).
    pub explain: bool,
    /// `profile`.
    pub profile: bool,
}

impl SearchTemplate {
    /// Reads a template request body (JSON text).
    pub fn parse(body: &str) -> Result<SearchTemplate> {
        if body.trim().is_empty() {
            return Err(Error::new(
                400,
                Exception::new("parse_exception", "request body or source parameter is required"),
            ));
        }
        let v: Value = serde_json::from_str(body).map_err(|e| Error::json_parse(super::json_error_text(&e)))?;
        SearchTemplate::from_value(&v)
    }

    /// Reads a template request from its JSON.
    pub fn from_value(v: &Value) -> Result<SearchTemplate> {
        let Value::Object(o) = v else {
            return Err(Error::parsing_no_pos(format!(
                "Expected [START_OBJECT] but found [{}]",
                crate::json_value::token_name(v)
            )));
        };
        let mut t = SearchTemplate {
            source: String::new(),
            params: Value::Object(Default::default()),
            explain: false,
            profile: false,
        };
        let mut stored = None;
        for (k, x) in o {
            match k.as_str() {
                "source" | "inline" | "template" => {
                    if k != "source" {
                        crate::deprecation::warn(format!("Deprecated field [{k}] used, expected [source] instead"));
                    }
                    t.source = match x {
                        Value::String(s) => s.clone(),
                        Value::Object(_) => x.to_string(),
                        other => return Err(field_error(k, other)),
                    };
                    stored = None;
                }
                "id" => match x {
                    Value::String(s) => stored = Some(s.clone()),
                    other => return Err(field_error(k, other)),
                },
                "params" => match x {
                    Value::Object(_) => t.params = x.clone(),
                    Value::Null => {}
                    other => return Err(field_error(k, other)),
                },
                "explain" => t.explain = crate::json_value::bool_of(x).ok_or_else(|| field_error(k, x))?,
                "profile" => t.profile = crate::json_value::bool_of(x).ok_or_else(|| field_error(k, x))?,
                other => {
                    return Err(Error::parsing_no_pos(format!(
                        "[search_template] unknown field [{other}], parser not found"
                    )))
                }
            }
        }
        if let Some(id) = stored {
            return Err(stored_template(&id));
        }
        if t.source.is_empty() {
            return Err(Error::new(
                400,
                Exception::new("action_request_validation_exception", "Validation Failed: 1: template is missing;"),
            ));
        }
        Ok(t)
    }

    /// The template rendered with its params: the search body text. A template that does
    /// not compile is ES's `script_exception` (lang `mustache`).
    pub fn render(&self) -> Result<String> {
        let fail = |message: String| {
            let cause = Exception::new("mustache_exception", message.clone());
            Error::new(
                400,
                Exception::new("script_exception", message)
                    .with_meta("script_stack", Vec::<String>::new())
                    .with_meta("script", self.source.as_str())
                    .with_meta("lang", "mustache")
                    .caused_by(cause),
            )
        };
        let template = Template::compile(&self.source).map_err(|e| fail(e.0))?;
        template.render(&self.params).map_err(|e| fail(e.0))
    }

    /// The rendered search as JSON (what `_render/template` shows as `template_output`).
    pub fn rendered_json(&self) -> Result<Value> {
        let text = self.render()?;
        serde_json::from_str(&text).map_err(|e| Error::json_parse(super::json_error_text(&e)))
    }
}

/// What ES answers for a stored template: the file holds no stored scripts.
pub fn stored_template(id: &str) -> Error {
    Error::new(
        404,
        Exception::new("resource_not_found_exception", format!("unable to find script [{id}] in cluster state")),
    )
}

fn field_error(k: &str, v: &Value) -> Error {
    Error::parsing_no_pos(format!(
        "[search_template] {k} doesn't support values of type: {}",
        crate::json_value::token_name(v)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inline_templates_render_with_their_params() {
        // 20_render_search_template.yml, "Inline Template validate tests".
        let t = SearchTemplate::from_value(&json!({"source": {"query": {"match": {"text": "{{my_value}}"}},
            "aggs": {"my_terms": {"terms": {"field": "{{my_field}}"}}}}, "params": {"my_value": "foo", "my_field": "field1"}}))
        .unwrap();
        assert_eq!(
            t.rendered_json().unwrap(),
            json!({"query": {"match": {"text": "foo"}}, "aggs": {"my_terms": {"terms": {"field": "field1"}}}})
        );
        // "Escaped Inline Template validate tests".
        let t = SearchTemplate::parse(r#"{"source": "{ \"query\": { \"match\": { \"text\": \"{{my_value}}\" } }, \"size\": {{my_size}} }", "params": {"my_value": "bar", "my_size": 100}}"#).unwrap();
        assert_eq!(t.rendered_json().unwrap(), json!({"query": {"match": {"text": "bar"}}, "size": 100}));
        let t = SearchTemplate::parse(
            r#"{"source": "{ \"query\": { \"match\": { \"text\": \"{{{my_value}}\" } } }", "params": {}}"#,
        )
        .unwrap();
        let e = t.render().unwrap_err();
        assert_eq!((e.status, e.kind()), (400, "script_exception"));
        assert!(e.reason().contains("Improperly closed variable in query-template"));
    }

    #[test]
    fn stored_and_missing_templates_are_refused() {
        let e = SearchTemplate::parse(r#"{"id": "unknown", "params": {}}"#).unwrap_err();
        assert_eq!((e.status, e.reason()), (404, "unable to find script [unknown] in cluster state"));
        let e = SearchTemplate::parse(r#"{"source": ""}"#).unwrap_err();
        assert_eq!(e.reason(), "Validation Failed: 1: template is missing;");
        let e = SearchTemplate::parse(r#"{"source": "{}", "nope": 1}"#).unwrap_err();
        assert_eq!(e.reason(), "[search_template] unknown field [nope], parser not found");
    }
}
