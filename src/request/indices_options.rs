//! `IndicesOptions.fromRequest`: how an index expression treats missing names and
//! wildcards that match nothing, read from a request's URL parameters.

use crate::error::{Error, Result};

/// Index-expression options (`ignore_unavailable`, `allow_no_indices`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndicesOptions {
    /// Missing concrete names are skipped instead of failing.
    pub ignore_unavailable: bool,
    /// Wildcards matching nothing are fine.
    pub allow_no_indices: bool,
}

impl Default for IndicesOptions {
    fn default() -> IndicesOptions {
        IndicesOptions { ignore_unavailable: false, allow_no_indices: true }
    }
}

/// Reads `ignore_unavailable`, `allow_no_indices` and `expand_wildcards` from URI params.
pub fn indices_options(params: &[(String, String)]) -> Result<IndicesOptions> {
    let mut o = IndicesOptions::default();
    for (k, v) in params {
        let b = || match v.as_str() {
            "" | "true" => Ok(true),
            "false" => Ok(false),
            other => Err(Error::illegal_argument(format!(
                "Failed to parse value [{other}] as only [true] or [false] are allowed."
            ))),
        };
        match k.as_str() {
            "ignore_unavailable" => o.ignore_unavailable = b()?,
            "allow_no_indices" => o.allow_no_indices = b()?,
            "expand_wildcards" => {
                for w in v.split(',') {
                    if !matches!(w, "open" | "closed" | "none" | "all") {
                        return Err(Error::illegal_argument(format!(
                            "No enum constant org.elasticsearch.action.support.IndicesOptions.WildcardStates.{}",
                            w.to_uppercase()
                        )));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(k: &str, v: &str) -> Vec<(String, String)> {
        vec![(k.to_string(), v.to_string())]
    }

    #[test]
    fn reads_the_flags_and_refuses_other_values() {
        assert_eq!(indices_options(&p("ignore_unavailable", "")).ok().map(|o| o.ignore_unavailable), Some(true));
        assert_eq!(indices_options(&p("allow_no_indices", "false")).ok().map(|o| o.allow_no_indices), Some(false));
        let e = indices_options(&p("allow_no_indices", "no")).err().map(|e| e.reason().to_string());
        assert_eq!(e.as_deref(), Some("Failed to parse value [no] as only [true] or [false] are allowed."));
        let e = indices_options(&p("expand_wildcards", "open,hidden")).err().map(|e| e.reason().to_string());
        assert_eq!(
            e.as_deref(),
            Some("No enum constant org.elasticsearch.action.support.IndicesOptions.WildcardStates.HIDDEN")
        );
    }
}
