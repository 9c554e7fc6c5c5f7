//! What the gateway decides from a request's head alone, before its body is read: a
//! transport asks [`Gateway::admit`](super::Gateway::admit) with the head, reads the body
//! only of an admitted request, and answers it with
//! [`Gateway::answer_admitted`](super::Gateway::answer_admitted), which does not check
//! again what admission checked. A refused request costs no more than its head.

use super::routes::Route;
use super::{Caller, Request};

/// A request's head: everything but the body's bytes.
#[derive(Debug, Clone, Default)]
pub struct RequestHead {
    /// Method (`GET`, `POST`, ...).
    pub method: String,
    /// Path with the query string, as sent (still percent-encoded).
    pub path: String,
    /// Headers in order (names case-insensitive).
    pub headers: Vec<(String, String)>,
    /// The body's length when the head declares it (`Content-Length`); `None` for a body
    /// of unknown length (chunked), which the transport caps as it reads.
    pub body_len: Option<u64>,
    /// Whether a body of at least one byte comes (a transport learns it of a chunked body
    /// from its first chunk).
    pub has_body: bool,
}

impl RequestHead {
    /// The head of a request whose body has been read.
    pub fn of(req: &Request) -> RequestHead {
        RequestHead {
            method: req.method.clone(),
            path: req.path.clone(),
            headers: req.headers.clone(),
            body_len: Some(req.body.len() as u64),
            has_body: !req.body.is_empty(),
        }
    }
}

/// A request the gateway has admitted from its head: its route, parameters and key are
/// known and checked. Only the gateway makes one.
#[derive(Debug)]
pub struct Admission {
    pub(super) caller: Caller,
    pub(super) method: String,
    pub(super) route: Route,
    pub(super) params: Vec<(String, String)>,
    /// The key's name, for a remote caller.
    pub(super) key_name: Option<String>,
    /// Deprecation warnings raised while checking the head (given with the answer).
    pub(super) warnings: Vec<String>,
}

impl Admission {
    /// The name of the API key the request was admitted with (a remote caller's).
    pub fn key_name(&self) -> Option<&str> {
        self.key_name.as_deref()
    }
}
