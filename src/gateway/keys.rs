//! API keys as the gateway's callers manage them (the CLI's `keys`, tests): the engine's
//! key operations ([`Engine::add_key`], [`Engine::keys`], [`Engine::revoke_key`]) under
//! their long-standing names. The gateway authenticates through the engine too; nothing
//! here touches the file.

use crate::engine::Engine;
use crate::error::Result;

pub use crate::api_keys::KeyInfo;

/// Creates a key named `name`; returns the secret (shown once, never stored).
pub fn add(engine: &Engine, name: &str) -> Result<String> {
    engine.add_key(name)
}

/// Every key of the engine's file.
pub fn list(engine: &Engine) -> Result<Vec<KeyInfo>> {
    engine.keys()
}

/// Deletes a key; false when there was none.
pub fn revoke(engine: &Engine, name: &str) -> Result<bool> {
    engine.revoke_key(name)
}
