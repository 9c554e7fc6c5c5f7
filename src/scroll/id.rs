//! The scroll id: a self-contained cursor, signed so that it cannot be forged.
//!
//! Layout: `base64url(payload ‖ HMAC-SHA256(secret, DOMAIN ‖ payload))`, where
//! `payload = [VERSION, flags] ‖ body` and `body` is a small JSON document, deflated when
//! that makes it shorter (flag bit 0). The signature is checked before anything else is
//! read, so a tampered or random id costs one hash and is rejected; an accepted id was
//! written by this file's secret and is trusted (it still never panics on odd content).

use crate::search::sort::SortValue;
use base64::Engine as _;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};

/// Current id format (2: the id names its owner; ids of version 1, which did not, are
/// refused as unparseable, since their owner cannot be known).
const VERSION: u8 = 2;
/// Flag: the body is deflated.
const DEFLATED: u8 = 1;
/// Separates scroll signatures from any other use of the secret.
const DOMAIN: &[u8] = b"metagate scroll id\0";
const MAC_LEN: usize = 32;
/// Ids longer than this are rejected before hashing (real ids are a few hundred bytes;
/// a request body of megabytes would make an unusable id anyway).
const MAX_ID_LEN: usize = 8 << 20;
/// Bodies shorter than this are not worth deflating.
const DEFLATE_FROM: usize = 200;

/// The position after the last returned hit.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Position {
    /// Its sort values (its score for relevance order).
    pub values: Vec<SortValue>,
    /// Its index in the pinned target list.
    pub target: usize,
    /// Its document ordinal.
    pub doc: u32,
}

/// Everything a scroll id carries.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ScrollId {
    /// Random per scroll: names the scroll for clearing and in error messages.
    pub nonce: u64,
    /// The file's clear-all epoch when the scroll started (`_all` bumps it).
    pub epoch: u64,
    /// Pinned concrete indices: (name, generation).
    pub indices: Vec<(String, u64)>,
    /// `_type` filter from the path.
    pub types: Vec<String>,
    /// The request body.
    pub body: String,
    /// The filters of the aliases the scroll reached its indices through, as they were
    /// when it started (ES keeps them in the shards' contexts): (index, filters).
    pub alias_filters: Vec<(String, Vec<Value>)>,
    /// URI parameters that shape the request.
    pub params: Vec<(String, String)>,
    /// `now` pinned at the start, so date math matches the same documents on every page.
    pub now_ms: i64,
    /// Where the next page starts (`None` before the first hit).
    pub after: Option<Position>,
    /// Pages served after the first when this id was issued (0 for the first page's id):
    /// orders the id's position against the scroll's context.
    pub pages: u64,
    /// Keep-alive deadline (epoch milliseconds).
    pub expires_ms: i64,
    /// The name of the API key that started the scroll (`None`: an in-process or keyless
    /// caller). Only the same caller may continue or clear it.
    pub owner: Option<String>,
}

fn b64() -> base64::engine::GeneralPurpose {
    base64::engine::general_purpose::URL_SAFE_NO_PAD
}

/// HMAC-SHA256 (RFC 2104).
pub(crate) fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(block.map(|b| b ^ 0x36));
    for p in parts {
        inner.update(p);
    }
    let mut outer = Sha256::new();
    outer.update(block.map(|b| b ^ 0x5c));
    outer.update(inner.finalize());
    outer.finalize().into()
}

fn value_json(v: &SortValue) -> Value {
    // Tagged and bit-exact: a cursor must compare equal to the hit it came from, which
    // the ES rendering (missing sentinels, shortest float digits) does not guarantee.
    match v {
        SortValue::Missing => Value::Null,
        SortValue::Str(s) => json!({ "s": s }),
        SortValue::Ip(t) => json!({ "i": t }),
        SortValue::Long(n) => json!({ "l": n }),
        SortValue::Double(f) => json!({ "d": f.to_bits() }),
        SortValue::Score(f) => json!({ "f": f.to_bits() }),
        SortValue::Doc(d) => json!({ "o": d }),
    }
}

fn value_from_json(v: &Value) -> Option<SortValue> {
    if v.is_null() {
        return Some(SortValue::Missing);
    }
    let (tag, x) = v.as_object()?.iter().next()?;
    Some(match tag.as_str() {
        "s" => SortValue::Str(x.as_str()?.to_string()),
        "i" => SortValue::Ip(x.as_str()?.to_string()),
        "l" => SortValue::Long(x.as_i64()?),
        "d" => SortValue::Double(f64::from_bits(x.as_u64()?)),
        "f" => SortValue::Score(f32::from_bits(u32::try_from(x.as_u64()?).ok()?)),
        "o" => SortValue::Doc(u32::try_from(x.as_u64()?).ok()?),
        _ => return None,
    })
}

impl ScrollId {
    fn to_json(&self) -> Value {
        json!({
            "n": self.nonce,
            "ep": self.epoch,
            "i": self.indices,
            "ty": self.types,
            "b": self.body,
            "af": self.alias_filters,
            "p": self.params,
            "now": self.now_ms,
            "a": self.after.as_ref().map(|p| json!([p.values.iter().map(value_json).collect::<Vec<_>>(), p.target, p.doc])),
            "e": self.expires_ms,
            "pg": self.pages,
            "ow": self.owner,
        })
    }

    fn from_json(v: &Value) -> Option<ScrollId> {
        let pairs = |v: &Value| -> Option<Vec<(String, String)>> {
            v.as_array()?
                .iter()
                .map(|x| Some((x.get(0)?.as_str()?.to_string(), x.get(1)?.as_str()?.to_string())))
                .collect()
        };
        let indices = v["i"]
            .as_array()?
            .iter()
            .map(|x| Some((x.get(0)?.as_str()?.to_string(), x.get(1)?.as_u64()?)))
            .collect::<Option<Vec<_>>>()?;
        let types = v["ty"].as_array()?.iter().map(|t| t.as_str().map(str::to_string)).collect::<Option<Vec<_>>>()?;
        let after = match &v["a"] {
            Value::Null => None,
            a => Some(Position {
                values: a.get(0)?.as_array()?.iter().map(value_from_json).collect::<Option<Vec<_>>>()?,
                target: usize::try_from(a.get(1)?.as_u64()?).ok()?,
                doc: u32::try_from(a.get(2)?.as_u64()?).ok()?,
            }),
        };
        Some(ScrollId {
            nonce: v["n"].as_u64()?,
            epoch: v["ep"].as_u64()?,
            indices,
            types,
            body: v["b"].as_str()?.to_string(),
            // Ids issued before alias filters were carried have none.
            alias_filters: match &v["af"] {
                Value::Null => Vec::new(),
                af => af
                    .as_array()?
                    .iter()
                    .map(|x| Some((x.get(0)?.as_str()?.to_string(), x.get(1)?.as_array()?.clone())))
                    .collect::<Option<Vec<_>>>()?,
            },
            params: pairs(&v["p"])?,
            now_ms: v["now"].as_i64()?,
            after,
            expires_ms: v["e"].as_i64()?,
            pages: v["pg"].as_u64().unwrap_or(0),
            owner: match &v["ow"] {
                Value::Null => None,
                o => Some(o.as_str()?.to_string()),
            },
        })
    }

    /// The signed text form.
    pub(crate) fn encode(&self, secret: &[u8]) -> String {
        let json = self.to_json().to_string().into_bytes();
        let mut payload = vec![VERSION, 0];
        let deflated = (json.len() >= DEFLATE_FROM)
            .then(|| {
                let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
                enc.write_all(&json).ok()?;
                enc.finish().ok()
            })
            .flatten()
            .filter(|d| d.len() < json.len());
        match deflated {
            Some(d) => {
                payload[1] = DEFLATED;
                payload.extend_from_slice(&d);
            }
            None => payload.extend_from_slice(&json),
        }
        let mac = hmac_sha256(secret, &[DOMAIN, &payload]);
        payload.extend_from_slice(&mac);
        b64().encode(payload)
    }

    /// Signs `payload` (an id's JSON, or when `deflated` its deflate stream) as
    /// [`ScrollId::encode`] would, so a fuzzer reaches the parser behind the signature.
    #[cfg(feature = "fuzzing")]
    pub(crate) fn sign_payload(payload: &[u8], deflated: bool, secret: &[u8]) -> String {
        let mut raw = vec![VERSION, if deflated { DEFLATED } else { 0 }];
        raw.extend_from_slice(payload);
        let mac = hmac_sha256(secret, &[DOMAIN, &raw]);
        raw.extend_from_slice(&mac);
        b64().encode(raw)
    }

    /// Parses and verifies an id; the error is the detail ES puts under `caused_by`.
    pub(crate) fn decode(text: &str, secret: &[u8]) -> Result<ScrollId, &'static str> {
        let text = text.trim();
        if text.len() > MAX_ID_LEN {
            return Err("scroll id is too long");
        }
        let raw = b64().decode(text.trim_end_matches('=')).map_err(|_| "scroll id is not base64url")?;
        if raw.len() < 2 + MAC_LEN {
            return Err("scroll id is too short");
        }
        let (payload, mac) = raw.split_at(raw.len() - MAC_LEN);
        let expected = hmac_sha256(secret, &[DOMAIN, payload]);
        use subtle::ConstantTimeEq;
        if !bool::from(expected.ct_eq(mac)) {
            return Err("scroll id signature does not match this file");
        }
        if payload[0] != VERSION {
            return Err("scroll id version is not supported");
        }
        let body = if payload[1] & DEFLATED != 0 {
            let mut out = Vec::new();
            flate2::read::DeflateDecoder::new(&payload[2..])
                .take(MAX_ID_LEN as u64 * 16)
                .read_to_end(&mut out)
                .map_err(|_| "scroll id body is corrupt")?;
            out
        } else {
            payload[2..].to_vec()
        };
        let v: Value = serde_json::from_slice(&body).map_err(|_| "scroll id body is corrupt")?;
        ScrollId::from_json(&v).ok_or("scroll id body is corrupt")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn hmac_matches_rfc4231() {
        // Test case 2 and test case 6 (a key longer than the block).
        assert_eq!(
            hex(&hmac_sha256(b"Jefe", &[b"what do ya want ", b"for nothing?"])),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            hex(&hmac_sha256(&[0xaa; 131], &[b"Test Using Larger Than Block-Size Key - Hash Key First"])),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    fn sample(body: &str) -> ScrollId {
        ScrollId {
            nonce: 42,
            epoch: 3,
            indices: vec![("a".into(), 7), ("b".into(), 9)],
            types: vec!["rin".into()],
            body: body.into(),
            alias_filters: vec![("a".into(), vec![json!({"term": {"f": "v"}}), json!({"match_all": {}})])],
            params: vec![("q".into(), "x".into())],
            now_ms: 1_700_000_000_000,
            after: Some(Position {
                values: vec![
                    SortValue::Missing,
                    SortValue::Str("k".into()),
                    SortValue::Long(i64::MIN),
                    SortValue::Double(f64::NAN),
                    SortValue::Score(0.1),
                    SortValue::Doc(5),
                ],
                target: 1,
                doc: 5,
            }),
            expires_ms: 1_700_000_060_000,
            pages: 3,
            owner: Some("reader".into()),
        }
    }

    #[test]
    fn round_trips_small_and_deflated_bodies() {
        for body in
            ["{}".to_string(), format!(r#"{{"query":{{"terms":{{"f":[{}]}}}}}}"#, "\"abc\",".repeat(500) + "\"z\"")]
        {
            let id = sample(&body);
            let text = id.encode(b"secret");
            let back = ScrollId::decode(&text, b"secret").unwrap();
            assert_eq!(back.body, id.body);
            assert_eq!(back.indices, id.indices);
            assert_eq!(back.owner.as_deref(), Some("reader"));
            let (a, b) = (back.after.unwrap(), id.after.clone().unwrap());
            assert_eq!(a.values.len(), b.values.len());
            assert!(matches!(a.values[3], SortValue::Double(f) if f.is_nan()));
            assert_eq!(a.values[4], SortValue::Score(0.1));
            assert_eq!((a.target, a.doc), (1, 5));
        }
        let long = sample(&"x".repeat(5000)).encode(b"k");
        assert!(long.len() < 1000, "deflated: {}", long.len());
    }

    #[test]
    fn rejects_other_secrets_tampering_and_garbage() {
        let text = sample("{}").encode(b"secret");
        assert!(ScrollId::decode(&text, b"other").is_err());
        let mut bytes = b64().decode(&text).unwrap();
        bytes[10] ^= 1;
        assert!(ScrollId::decode(&b64().encode(&bytes), b"secret").is_err());
        for junk in ["", "garbage", "DXF1ZXJ5QW5kRmV0Y2gBAAAAAAAAAAEWZ2VvZ2VvAA==", "%%%"] {
            assert!(ScrollId::decode(junk, b"secret").is_err());
        }
        // A version-1 id, signed by the file, is refused: it names no owner.
        let mut old = b64().decode(&text).unwrap();
        old.truncate(old.len() - MAC_LEN);
        old[0] = 1;
        let mac = hmac_sha256(b"secret", &[DOMAIN, &old]);
        old.extend_from_slice(&mac);
        assert_eq!(ScrollId::decode(&b64().encode(&old), b"secret"), Err("scroll id version is not supported"));
    }
}
