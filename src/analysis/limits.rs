//! Bounds on what one analysis may build. n-grams, shingles, path hierarchies and
//! replacements can produce far more than the text they read (a 1 MB text cut into
//! 1-to-1000-grams is half a billion tokens); every such producer takes its tokens and
//! bytes from a [`Quota`], which charges the request's byte breaker as it grows and stops
//! the analysis, with an error, past a hard cap that holds even outside a request.

use crate::budget;
use crate::error::{Error, Result};

/// The most tokens one analysis stage may produce.
pub const MAX_TOKENS: usize = 1 << 20;
/// The most bytes (terms plus bookkeeping) one analysis stage may build.
pub const MAX_BYTES: usize = 256 << 20;
/// Bookkeeping bytes counted per token besides its term.
const TOKEN_OVERHEAD: usize = 64;
/// Bytes charged to the request's breaker at a time.
const CHARGE_STEP: usize = 1 << 20;

/// What one stage has produced so far.
#[derive(Debug, Default)]
pub struct Quota {
    tokens: usize,
    bytes: usize,
    uncharged: usize,
}

fn too_much() -> Error {
    Error::illegal_argument(format!(
        "The analysis produced more than [{MAX_TOKENS}] tokens or [{MAX_BYTES}] bytes; metagate stops there"
    ))
}

impl Quota {
    /// Takes one token of `term_bytes` bytes.
    pub fn token(&mut self, term_bytes: usize) -> Result<()> {
        self.tokens += 1;
        if self.tokens > MAX_TOKENS {
            return Err(too_much());
        }
        self.bytes(term_bytes + TOKEN_OVERHEAD)
    }

    /// Takes `n` bytes of text.
    pub fn bytes(&mut self, n: usize) -> Result<()> {
        self.bytes += n;
        if self.bytes > MAX_BYTES {
            return Err(too_much());
        }
        self.uncharged += n;
        if self.uncharged >= CHARGE_STEP {
            budget::charge(self.uncharged, "<analysis>")?;
            self.uncharged = 0;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_past_the_cap() {
        let mut q = Quota::default();
        assert!(q.bytes(MAX_BYTES).is_ok());
        assert!(q.bytes(1).is_err());
        let mut q = Quota::default();
        for _ in 0..MAX_TOKENS {
            q.token(0).unwrap();
        }
        assert!(q.token(0).is_err());
    }
}
