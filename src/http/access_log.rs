//! The access log: one line per request on stderr, whatever became of it — answered,
//! refused at its head, or abandoned by its client (`499 ... cancelled`, the status
//! nginx logs for a client that closed the connection first). The line of an abandoned
//! request is written when hyper drops the request's future, which is also when the
//! request's cancel flag is set, so that its work stops.

use crate::budget::CancelFlag;
use crate::gateway::{redact, Response};
use std::sync::mpsc::Sender;
use std::time::Instant;

/// Where access-log lines go.
#[derive(Debug, Clone)]
pub(super) enum Sink {
    /// Nowhere.
    Off,
    /// Standard error.
    Stderr,
    /// A channel (a test reads them).
    Channel(Sender<String>),
}

/// The status logged for a request whose client hung up before its answer.
const CLIENT_CLOSED: u16 = 499;

/// One request on its way; logs it once, and cancels its work if dropped unanswered.
pub(super) struct RequestLog {
    sink: Sink,
    method: String,
    path: String,
    started: Instant,
    key: Option<String>,
    cancel: CancelFlag,
    answered: bool,
}

impl RequestLog {
    /// A request of `method` for `path` (with its query string), started now, whose line
    /// goes to `sink`.
    pub(super) fn new(sink: Sink, method: &str, path: &str) -> RequestLog {
        RequestLog {
            sink,
            method: method.to_string(),
            path: path.to_string(),
            started: Instant::now(),
            key: None,
            cancel: CancelFlag::new(),
            answered: false,
        }
    }

    /// The flag set when the request is dropped unanswered.
    pub(super) fn cancel_flag(&self) -> CancelFlag {
        self.cancel.clone()
    }

    /// The name of the key the request was admitted with, for a line without an answer.
    pub(super) fn set_key(&mut self, key: Option<&str>) {
        self.key = key.map(str::to_string);
    }

    /// Logs the request's answer (before it is written, so the line exists once the
    /// client has its answer).
    pub(super) fn answered(&mut self, resp: &Response) {
        self.answered = true;
        let key = resp.key_name.clone().or_else(|| self.key.clone());
        self.write(resp.status, key.as_deref(), "");
    }

    fn write(&self, status: u16, key: Option<&str>, note: &str) {
        if matches!(self.sink, Sink::Off) {
            return;
        }
        let line = format!(
            "{} {} {} {:.1}ms key={}{note}",
            self.method,
            redact(&self.path),
            status,
            self.started.elapsed().as_secs_f64() * 1000.0,
            key.unwrap_or("-")
        );
        match &self.sink {
            Sink::Off => {}
            Sink::Stderr => eprintln!("{line}"),
            Sink::Channel(tx) => {
                let _ = tx.send(line);
            }
        }
    }
}

impl Drop for RequestLog {
    fn drop(&mut self) {
        if !self.answered {
            self.cancel.cancel();
            self.write(CLIENT_CLOSED, self.key.as_deref(), " cancelled");
        }
    }
}
