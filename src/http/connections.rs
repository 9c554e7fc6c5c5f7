//! Accepting connections and serving each one with hyper, within the connection cap.
//!
//! The accept loop is ours rather than hyper's, which is what lets the server count
//! connections: each holds a permit of a semaphore of `max_connections`. A connection
//! that finds none left is answered 503 by a minimal hyper connection and closed; those
//! refusals are capped too (beyond [`REFUSALS`] at once the socket is just closed), so a
//! flood of connections costs a bounded amount of work.

use super::service::{http_settings, Body, Shared};
use super::write_deadline::WriteDeadline;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use std::future::{poll_fn, Future};
use std::net::IpAddr;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;

/// Connections over the cap being answered 503 at once, at most.
const REFUSALS: usize = 64;

/// How long a connection over the cap has to send its request head, and to take the 503.
const REFUSAL_TIMEOUT: Duration = Duration::from_secs(2);

/// Once an answer that closes the connection is written, request bytes still arriving
/// are read and dropped for this long (at most [`LINGER_BYTES`]) before the socket is
/// closed: closing with unread bytes would reset the connection, and a client still
/// sending (an oversized body) could lose the answer.
const LINGER: Duration = Duration::from_millis(500);

/// See [`LINGER`].
const LINGER_BYTES: usize = 1 << 20;

/// Accepts on `listener` until `stopped` turns true (or its sender is gone), then gives
/// open connections `write_timeout` to finish the request they are answering.
pub(super) async fn accept_loop(listener: TcpListener, shared: Arc<Shared>, mut stopped: watch::Receiver<bool>) {
    let open = Arc::new(Semaphore::new(shared.opts.max_connections.max(1)));
    let refusing = Arc::new(Semaphore::new(REFUSALS));
    let mut connections = JoinSet::new();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stopped.changed() => break,
        };
        // Finished connections are reaped here, so the set holds only open ones.
        while connections.try_join_next().is_some() {}
        let Ok((stream, peer)) = accepted else {
            // Out of descriptors or an aborted handshake: back off briefly, keep serving.
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        let _ = stream.set_nodelay(true);
        if let Ok(permit) = open.clone().try_acquire_owned() {
            connections.spawn(serve(stream, peer.ip(), shared.clone(), stopped.clone(), permit));
        } else if let Ok(permit) = refusing.clone().try_acquire_owned() {
            connections.spawn(refuse(stream, shared.clone(), permit));
        }
    }
    drop(listener);
    let drained = async { while connections.join_next().await.is_some() {} };
    // Connections still open after that are dropped with the set.
    let _ = tokio::time::timeout(shared.opts.write_timeout, drained).await;
}

/// Serves one connection until the client or a limit ends it, or the server stops (the
/// request being answered is finished first); `peer` is the client's address, `_permit`
/// the connection's place under the cap.
async fn serve(
    stream: TcpStream,
    peer: IpAddr,
    shared: Arc<Shared>,
    mut stopped: watch::Receiver<bool>,
    _permit: OwnedSemaphorePermit,
) {
    let io = TokioIo::new(WriteDeadline::new(stream, shared.opts.write_timeout));
    let service = {
        let shared = shared.clone();
        // Boxed: hyper hands the connection back (for the linger) only if its futures are Unpin.
        service_fn(move |req: hyper::Request<Incoming>| Box::pin(shared.clone().respond(req, peer)))
    };
    let mut conn = shared.http.serve_connection(io, service);
    let mut stop = pin!(stopped.changed());
    let mut stopping = false;
    let ended = poll_fn(|cx| {
        if !stopping && stop.as_mut().poll(cx).is_ready() {
            stopping = true;
            std::pin::Pin::new(&mut conn).graceful_shutdown();
        }
        conn.poll_without_shutdown(cx)
    })
    .await;
    // An error (a timeout, a malformed request, a client gone) drops the socket at once;
    // a clean end, the client's or after an answer that closes, lingers first.
    if ended.is_ok() {
        let stream = conn.into_parts().io.into_inner().into_inner();
        linger(stream).await;
    }
}

/// Answers the one request of a connection over the cap with 503 and closes it.
async fn refuse(stream: TcpStream, shared: Arc<Shared>, _permit: OwnedSemaphorePermit) {
    let io = TokioIo::new(WriteDeadline::new(stream, REFUSAL_TIMEOUT));
    let service = service_fn(|_req: hyper::Request<Incoming>| {
        std::future::ready(Ok::<hyper::Response<Body>, Infallible>(shared.too_many_connections()))
    });
    let _ = http_settings(REFUSAL_TIMEOUT, false).serve_connection(io, service).await;
}

/// Closes our side of `stream`, then reads what the client still sends for a moment
/// (see [`LINGER`]).
async fn linger(mut stream: TcpStream) {
    let _ = stream.shutdown().await;
    let drain = async {
        let mut sink = [0u8; 8192];
        let mut total = 0;
        while let Ok(n) = stream.read(&mut sink).await {
            total += n;
            if n == 0 || total > LINGER_BYTES {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(LINGER, drain).await;
}
