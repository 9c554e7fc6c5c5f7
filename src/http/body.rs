//! Reading a request body within the server's limits: its size (`max_body`), its time
//! (`read_timeout` from the end of the head) and the in-flight byte budget that all bodies
//! being read or answered share (`max_in_flight_bytes`, ES's `in_flight_requests`
//! breaker).
//!
//! A body is read in two steps so that the gateway can refuse a request from its head
//! before the body is read: [`PendingBody::start`] learns whether a body comes (for a
//! chunked body, by reading its first chunk, which is at most hyper's read buffer), and
//! [`PendingBody::read`] reads the rest of an admitted request's.

use crate::budget::BytePool;
use crate::error::Error;
use http_body_util::BodyExt;
use hyper::body::{Body as _, Bytes, Incoming};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::{timeout_at, Instant};

/// What ES's in-flight breaker names the bytes of a request body.
const LABEL: &str = "<http_request>";

/// Why a body could not be read.
#[derive(Debug)]
pub(super) enum BodyError {
    /// Over `max_body` (413).
    TooLarge,
    /// The client closed or broke the chunked framing mid-body (400).
    Incomplete,
    /// Not complete within `read_timeout` (408).
    TimedOut,
    /// Over the in-flight byte budget (429).
    Breaker(Error),
}

/// Bytes of the in-flight budget a request holds; given back when it drops (once the
/// request is answered).
pub(super) struct Reservation {
    pool: Arc<BytePool>,
    bytes: usize,
}

impl Reservation {
    /// Holds nothing yet of `pool`.
    pub(super) fn new(pool: Arc<BytePool>) -> Reservation {
        Reservation { pool, bytes: 0 }
    }

    /// Takes `bytes` more, or the breaker's 429 when the pool would pass its limit.
    fn take(&mut self, bytes: usize) -> Result<(), BodyError> {
        self.pool.reserve(bytes, LABEL).map_err(BodyError::Breaker)?;
        self.bytes += bytes;
        Ok(())
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.pool.release(self.bytes);
    }
}

/// A body not read yet but for, when chunked, its first chunk.
pub(super) struct PendingBody {
    body: Incoming,
    /// The first chunk of a chunked body.
    first: Bytes,
    /// `Content-Length`, if the head gave one (none: no body).
    declared: Option<u64>,
    /// The end of the time the body has.
    deadline: Instant,
}

impl PendingBody {
    /// Starts reading `body`, which has `read_timeout` from now; `max` is the largest body.
    /// Polling a body is what sends `100 Continue` to a client that waits for it: a
    /// declared length needs no poll, so such a client is sent none before admission.
    pub(super) async fn start(body: Incoming, read_timeout: Duration, max: usize) -> Result<PendingBody, BodyError> {
        let deadline = Instant::now() + read_timeout;
        let declared = body.size_hint().exact();
        let mut pending = PendingBody { body, first: Bytes::new(), declared, deadline };
        if declared.is_none() {
            pending.first = timeout_at(deadline, pending.next_data()).await.map_err(|_| BodyError::TimedOut)??;
            if pending.first.len() > max {
                return Err(BodyError::TooLarge);
            }
        }
        Ok(pending)
    }

    /// The body's declared length (`None`: chunked).
    pub(super) fn declared(&self) -> Option<u64> {
        self.declared
    }

    /// Whether a body of at least one byte comes.
    pub(super) fn has_body(&self) -> bool {
        self.declared.map_or(!self.first.is_empty(), |n| n > 0)
    }

    /// The whole body, at most `max` bytes, its bytes taken from `budget` before they are
    /// read (a declared length at once, a chunked body's chunks as they arrive).
    pub(super) async fn read(mut self, max: usize, budget: &mut Reservation) -> Result<Vec<u8>, BodyError> {
        if let Some(n) = self.declared {
            budget.take(usize::try_from(n).map_err(|_| BodyError::TooLarge)?)?;
        } else {
            budget.take(self.first.len())?;
        }
        let deadline = self.deadline;
        let chunked = self.declared.is_none();
        let mut out = Vec::with_capacity(self.declared.map_or(self.first.len(), |n| n as usize));
        out.extend_from_slice(&self.first);
        let rest = async {
            loop {
                let data = self.next_data().await?;
                if data.is_empty() {
                    return Ok(out);
                }
                if out.len() + data.len() > max {
                    return Err(BodyError::TooLarge);
                }
                if chunked {
                    budget.take(data.len())?;
                }
                out.extend_from_slice(&data);
            }
        };
        timeout_at(deadline, rest).await.map_err(|_| BodyError::TimedOut)?
    }

    /// The next bytes of the body; empty at its end (trailers are skipped).
    async fn next_data(&mut self) -> Result<Bytes, BodyError> {
        loop {
            match self.body.frame().await {
                None => return Ok(Bytes::new()),
                Some(Err(_)) => return Err(BodyError::Incomplete),
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) if !data.is_empty() => return Ok(data),
                    _ => continue,
                },
            }
        }
    }
}
