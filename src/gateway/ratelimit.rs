//! Per-key token buckets: `rate` requests per second with a burst of the same size.

use std::collections::HashMap;
use std::sync::Mutex;
use web_time::{Duration, Instant};

/// A thread-safe per-key rate limiter.
#[derive(Debug)]
pub struct RateLimiter {
    rate: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

/// Buckets kept before idle ones are dropped (bounds memory whatever keys are sent).
const MAX_BUCKETS: usize = 10_000;

impl RateLimiter {
    /// `rate` requests per second per key (`<= 0` disables limiting).
    pub fn new(rate: f64) -> RateLimiter {
        RateLimiter { rate, buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes a token for `key`, or says how long to wait.
    pub fn check(&self, key: &str, now: Instant) -> Result<(), Duration> {
        if self.rate <= 0.0 {
            return Ok(());
        }
        let mut b = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if b.len() >= MAX_BUCKETS && !b.contains_key(key) {
            let rate = self.rate;
            b.retain(|_, (tokens, at)| *tokens + now.duration_since(*at).as_secs_f64() * rate < rate);
        }
        let (tokens, at) = b.entry(key.to_string()).or_insert((self.rate, now));
        let refill = now.duration_since(*at).as_secs_f64() * self.rate;
        *tokens = (*tokens + refill).min(self.rate);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - *tokens) / self.rate))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burst_then_wait() {
        let r = RateLimiter::new(2.0);
        let t = Instant::now();
        assert!(r.check("a", t).is_ok());
        assert!(r.check("a", t).is_ok());
        let wait = r.check("a", t).unwrap_err();
        assert!(wait > Duration::from_millis(400) && wait <= Duration::from_millis(500));
        assert!(r.check("b", t).is_ok());
        assert!(r.check("a", t + Duration::from_millis(600)).is_ok());
    }
}
