//! A connection whose writes fail once the client has taken nothing for a while.
//!
//! hyper has no write timeout, and a socket's `SO_SNDTIMEO` does not apply to the
//! non-blocking sockets tokio uses: without this, a client that sends requests and never
//! reads the answers would keep its connection, and the answer buffered for it, forever.
//! Each write that cannot proceed starts a timer; any progress stops it; when it fires
//! the write fails with `TimedOut` and hyper closes the connection. Reads pass through
//! untouched (hyper's header timer and the body deadline bound those).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// `inner` with stalled writes failing after `timeout`.
pub(super) struct WriteDeadline<T> {
    inner: T,
    timeout: Duration,
    /// Running while a write waits for the client; `None` after any progress.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<T> WriteDeadline<T> {
    /// Wraps `inner`: a write waiting `timeout` for the client fails.
    pub(super) fn new(inner: T, timeout: Duration) -> WriteDeadline<T> {
        WriteDeadline { inner, timeout, stalled: None }
    }

    /// The wrapped connection.
    pub(super) fn into_inner(self) -> T {
        self.inner
    }

    /// Passes on a write's outcome: ready ends a stall, pending starts (or keeps) the
    /// timer and fails once it has run out.
    fn settle<R>(&mut self, outcome: Poll<io::Result<R>>, cx: &mut Context<'_>) -> Poll<io::Result<R>> {
        if outcome.is_ready() {
            self.stalled = None;
            return outcome;
        }
        let timeout = self.timeout;
        let timer = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client took no data for {timeout:?}"),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for WriteDeadline<T> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for WriteDeadline<T> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let outcome = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.settle(outcome, cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let outcome = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.settle(outcome, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let outcome = Pin::new(&mut this.inner).poll_flush(cx);
        this.settle(outcome, cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let outcome = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.settle(outcome, cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    /// A peer that never reads: the write fails after the timeout instead of waiting
    /// forever, and a peer that reads lets the same writes through.
    #[test]
    fn a_stalled_write_fails_after_the_timeout() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            // A 64 KiB pipe that nobody reads fills at once.
            let (ours, _theirs) = tokio::io::duplex(64 * 1024);
            let mut w = WriteDeadline::new(ours, Duration::from_millis(100));
            let big = vec![0u8; 1 << 20];
            let started = std::time::Instant::now();
            let err = w.write_all(&big).await.unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::TimedOut);
            assert!(started.elapsed() < Duration::from_secs(10));

            let (ours, mut theirs) = tokio::io::duplex(64 * 1024);
            let reader = tokio::spawn(async move {
                let mut sink = Vec::new();
                tokio::io::AsyncReadExt::read_to_end(&mut theirs, &mut sink).await.map(|_| sink.len())
            });
            let mut w = WriteDeadline::new(ours, Duration::from_millis(100));
            w.write_all(&big).await.unwrap();
            w.shutdown().await.unwrap();
            drop(w);
            assert_eq!(reader.await.unwrap().unwrap(), big.len());
        });
    }
}
