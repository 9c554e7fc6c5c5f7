//! GET (and HEAD) `{index}` and GET `[{index}]/_settings[/{name}]` as typed requests, as
//! ES 6.8's RestGetIndicesAction and RestGetSettingsAction read them.

use crate::error::Result;
use crate::request::indices_options::{indices_options, IndicesOptions};

/// `flat_settings`: settings as flat `index.*` keys rather than nested objects.
fn flat_settings(params: &[(String, String)]) -> bool {
    params.iter().any(|(k, v)| k == "flat_settings" && v != "false")
}

/// GET `{index}` (its aliases, mapping and settings), or HEAD `{index}` (whether it
/// exists).
#[derive(Debug, Clone)]
pub struct IndexRequest {
    /// The index expression (names, aliases, patterns, date math).
    pub index: String,
    /// Settings as flat `index.*` keys.
    pub flat_settings: bool,
    /// How the index expression resolves.
    pub indices: IndicesOptions,
}

impl IndexRequest {
    /// The request of a path's index and the URL parameters.
    pub fn parse(index: &str, params: &[(String, String)]) -> Result<IndexRequest> {
        Ok(IndexRequest {
            index: index.to_string(),
            flat_settings: flat_settings(params),
            indices: indices_options(params)?,
        })
    }
}

/// GET `[{index}]/_settings[/{name}]`.
#[derive(Debug, Clone)]
pub struct SettingsRequest {
    /// The index expression (`_all` when the path names none).
    pub index: String,
    /// The settings asked for, as patterns; empty for all.
    pub names: Vec<String>,
    /// Settings as flat `index.*` keys.
    pub flat_settings: bool,
    /// `include_defaults`: each index's `defaults` block, the settings applied without
    /// being given.
    pub include_defaults: bool,
    /// How the index expression resolves.
    pub indices: IndicesOptions,
}

impl SettingsRequest {
    /// The request of a path's index and names and the URL parameters.
    pub fn parse(index: Option<&str>, names: Option<&str>, params: &[(String, String)]) -> Result<SettingsRequest> {
        Ok(SettingsRequest {
            index: index.unwrap_or("_all").to_string(),
            names: names
                .map(|n| n.split(',').filter(|p| !p.is_empty()).map(str::to_string).collect())
                .unwrap_or_default(),
            flat_settings: flat_settings(params),
            include_defaults: params.iter().any(|(k, v)| k == "include_defaults" && v != "false"),
            indices: indices_options(params)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_names_and_flat() {
        let p = vec![("flat_settings".to_string(), "".to_string())];
        let r = SettingsRequest::parse(None, Some("index.number*,,index.uuid"), &p).ok();
        assert_eq!(
            r.map(|r| (r.index, r.names, r.flat_settings)),
            Some(("_all".to_string(), vec!["index.number*".to_string(), "index.uuid".to_string()], true))
        );
        let p = vec![("flat_settings".to_string(), "false".to_string())];
        assert_eq!(IndexRequest::parse("i", &p).ok().map(|r| r.flat_settings), Some(false));
    }
}
