//! This node: the clock, the versions it reports and the id it gives itself where ES
//! names a node. A leaf: every layer may read it, it reads nothing of the crate.

/// The node id this engine reports where ES names a node.
pub const NODE_ID: &str = "metagate-node-0";

/// The Elasticsearch version the API speaks (reported by `GET /` and in `Warning` headers).
pub const ES_VERSION: &str = "6.8.23";

/// The crate version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Milliseconds since the epoch (web-time's clock: std's panics in the browser).
pub fn now_ms() -> i64 {
    web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}
