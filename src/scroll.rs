//! Scroll cursors (the scroll helper replaces these bodies; the signatures are the contract
//! the gateway and the other doors call).

use crate::engine::Engine;
use crate::error::{Error, Result};
use serde_json::Value;

impl Engine {
    /// Starts a scrolled search: like `search_with`, plus `_scroll_id` first in the response.
    pub fn scroll_start(
        &self,
        index: &str,
        body: &str,
        params: &[(String, String)],
        keep_alive: &str,
    ) -> Result<Value> {
        let _ = (index, body, params, keep_alive);
        Err(Error::illegal_argument("scroll is not supported by this build"))
    }

    /// Fetches the next page of a scroll; `keep_alive` None means the response has no
    /// `_scroll_id` (ES 6.8 behaviour).
    pub fn scroll_next(&self, scroll_id: &str, keep_alive: Option<&str>) -> Result<Value> {
        let _ = (scroll_id, keep_alive);
        Err(Error::illegal_argument("scroll is not supported by this build"))
    }

    /// Clears scroll ids (`_all` clears every scroll); returns `num_freed`.
    pub fn clear_scroll(&self, ids: &[String]) -> Result<u64> {
        let _ = ids;
        Err(Error::illegal_argument("scroll is not supported by this build"))
    }
}
