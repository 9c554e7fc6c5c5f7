//! This node: the clock, the versions it reports and the id it gives itself where ES
//! names a node. A leaf: every layer may read it, it reads nothing of the crate.

/// The node id this engine reports where ES names a node.
pub const NODE_ID: &str = "metagate-node-0";

/// The Elasticsearch version the API speaks (reported by `GET /` and in `Warning` headers).
pub const ES_VERSION: &str = "6.8.23";

/// The crate version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The build hash `GET /` reports and `Warning` headers carry in their agent
/// (`Elasticsearch-6.8.23-<hash>`): ES clients and ES's own test runner take a warning
/// only when this is 7 hex digits, so it is the crate version's FNV-1a hash, cut to 28 bits.
pub fn build_hash() -> String {
    format!("{:07x}", BUILD_HASH_BITS)
}

const BUILD_HASH_BITS: u32 = {
    let bytes = VERSION.as_bytes();
    let mut h: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u32;
        h = h.wrapping_mul(0x0100_0193);
        i += 1;
    }
    h & 0x0fff_ffff
};

/// Milliseconds since the epoch (web-time's clock: std's panics in the browser).
pub fn now_ms() -> i64 {
    web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}
