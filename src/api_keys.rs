//! API keys, operations of the engine on its file: random keys shown once, stored as
//! salted SHA-256 hashes, compared in constant time. Revocation is a write to the file, so
//! it is seen at once by every server reading that file. The gateway authenticates with
//! [`Engine::authenticate_key`] and never reads the store itself.

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::store::Catalog;
use base64::Engine as _;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A stored key (no secret in it).
#[derive(Debug, Clone, PartialEq)]
pub struct KeyInfo {
    /// Key name.
    pub name: String,
    /// Creation time (epoch ms).
    pub created_ms: i64,
    /// Last successful use (epoch ms), if recorded.
    pub last_used_ms: Option<i64>,
    salt: Vec<u8>,
    hash: Vec<u8>,
}

fn hash(salt: &[u8], key: &str) -> Vec<u8> {
    let mut h = Sha256::new();
    h.update(salt);
    h.update(key.as_bytes());
    h.finalize().to_vec()
}

fn b64(b: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD_NO_PAD.encode(b)
}

fn unb64(s: &str) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD_NO_PAD.decode(s).unwrap_or_default()
}

impl KeyInfo {
    fn from_json(name: &str, v: &Value) -> KeyInfo {
        KeyInfo {
            name: name.to_string(),
            created_ms: v.get("created_ms").and_then(Value::as_i64).unwrap_or(0),
            last_used_ms: v.get("last_used_ms").and_then(Value::as_i64),
            salt: unb64(v.get("salt").and_then(Value::as_str).unwrap_or("")),
            hash: unb64(v.get("hash").and_then(Value::as_str).unwrap_or("")),
        }
    }

    fn to_json(&self) -> Value {
        json!({"created_ms": self.created_ms, "last_used_ms": self.last_used_ms, "salt": b64(&self.salt), "hash": b64(&self.hash)})
    }

    /// Whether `key` is this key (constant time).
    pub fn verify(&self, key: &str) -> bool {
        bool::from(hash(&self.salt, key).ct_eq(&self.hash))
    }
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

impl Engine {
    /// Creates a key named `name`; returns the secret (shown once, never stored).
    pub fn add_key(&self, name: &str) -> Result<String> {
        if !valid_name(name) {
            return Err(Error::illegal_argument(format!(
                "invalid key name [{name}]: use 1-64 letters, digits, '_', '-' or '.'"
            )));
        }
        let secret_bytes: [u8; 32] = rand::random();
        let secret = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(secret_bytes);
        let salt: [u8; 16] = rand::random();
        let info = KeyInfo {
            name: name.to_string(),
            created_ms: crate::node::now_ms(),
            last_used_ms: None,
            salt: salt.to_vec(),
            hash: hash(&salt, &secret),
        };
        let mut w = self.store().write()?;
        if w.get(Catalog::Keys, name)?.is_some() {
            return Err(Error::illegal_argument(format!("a key named [{name}] exists; revoke it first")));
        }
        w.put(Catalog::Keys, name, info.to_json().to_string().as_bytes())?;
        w.commit()?;
        Ok(secret)
    }

    /// Every key of the file.
    pub fn keys(&self) -> Result<Vec<KeyInfo>> {
        Ok(self
            .store()
            .read()?
            .list(Catalog::Keys)?
            .into_iter()
            .map(|(k, v)| KeyInfo::from_json(&k, &serde_json::from_slice(&v).unwrap_or(Value::Null)))
            .collect())
    }

    /// Deletes a key; false when there was none.
    pub fn revoke_key(&self, name: &str) -> Result<bool> {
        let mut w = self.store().write()?;
        let existed = w.remove(Catalog::Keys, name)?;
        w.commit()?;
        Ok(existed)
    }

    /// The name of the key `secret` belongs to, if any.
    pub(crate) fn authenticate_key(&self, secret: &str) -> Result<Option<String>> {
        // Every stored key is checked, so the time taken does not reveal which one matched.
        let mut found = None;
        for k in self.keys()? {
            if k.verify(secret) && found.is_none() {
                found = Some(k.name.clone());
            }
        }
        Ok(found)
    }

    /// Records a key's last use (best effort; a busy file is not an error for the request).
    pub(crate) fn record_key_use(&self, name: &str) {
        let name = name.to_string();
        // A bookkeeping write: at once when the file's write lock is free, else by the
        // store's background writer, so that no request waits for a load holding the lock.
        let _ = self.store().write_or_defer(Box::new(move |w| {
            let Some(raw) = w.get(Catalog::Keys, &name)? else { return Ok(()) };
            let mut info = KeyInfo::from_json(&name, &serde_json::from_slice(&raw).unwrap_or(Value::Null));
            info.last_used_ms = Some(crate::node::now_ms());
            w.put(Catalog::Keys, &name, info.to_json().to_string().as_bytes())
        }));
    }
}
