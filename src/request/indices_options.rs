//! The index-expression options of a request's URI parameters (`ignore_unavailable`,
//! `allow_no_indices`, `expand_wildcards`), as ES 6.8's `IndicesOptions.fromRequest`
//! reads them.

use crate::error::{Error, Result};

/// Index-expression options (`ignore_unavailable`, `allow_no_indices`).
#[derive(Debug, Clone, Copy)]
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
