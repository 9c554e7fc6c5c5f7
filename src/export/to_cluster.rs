//! An export sent straight to a cluster: `PUT /{index}`, `_bulk` in batches, `_refresh`,
//! then `_aliases`, so that one command moves an index out.
//!
//! A cluster that is busy answers 429 (`es_rejected_execution_exception`) or 503, for a
//! whole `_bulk` request or for some of its documents; those are sent again after a pause
//! that doubles each time (up to [`SendOptions::attempts`] tries). A document the cluster
//! refuses for any other reason stops the export with the cluster's own error, naming
//! the document. Only one batch is held in memory.

use super::{bulk_entry, path_segment, Export, ExportIndex};
use crate::cluster::Cluster;
use crate::compat::Flavor;
use crate::error::{Error, Exception, Result};
use serde_json::Value;
use std::time::Duration;

/// How an export is sent.
#[derive(Debug, Clone)]
pub struct SendOptions {
    /// Documents per `_bulk` request at most.
    pub batch_docs: usize,
    /// Bytes per `_bulk` request at most (a single larger document goes alone).
    pub batch_bytes: usize,
    /// Tries per request when the cluster is busy or unreachable.
    pub attempts: u32,
    /// Pause before the first retry; it doubles for each further one.
    pub first_backoff: Duration,
    /// Longest pause between tries.
    pub max_backoff: Duration,
}

impl Default for SendOptions {
    fn default() -> SendOptions {
        SendOptions {
            batch_docs: 1_000,
            batch_bytes: 5 * 1024 * 1024,
            attempts: 8,
            first_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(30),
        }
    }
}

/// What was sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SendReport {
    /// Indices created.
    pub indices: usize,
    /// Documents indexed.
    pub docs: u64,
    /// `_bulk` requests that succeeded.
    pub bulk_requests: u64,
    /// Requests (or documents) sent again because the cluster was busy.
    pub retries: u64,
    /// Alias actions applied.
    pub aliases: usize,
}

/// Sends `export` to `cluster` in `flavor`; `progress` is called with the number of
/// documents the cluster has accepted so far.
pub fn send(
    export: &Export,
    cluster: &Cluster,
    flavor: Flavor,
    opts: &SendOptions,
    progress: &mut dyn FnMut(u64),
) -> Result<SendReport> {
    let mut report = SendReport::default();
    for index in export.indices() {
        let path = format!("/{}", path_segment(&index.name));
        let body = serde_json::to_vec(&export.create_index_body(index, flavor)).unwrap_or_default();
        expect_ok(cluster, "PUT", &path, &body, opts, &mut report)?;
        report.indices += 1;
        let mut batch = Batch::default();
        export.for_each_document(index, |doc, routing| {
            let start = batch.body.len();
            bulk_entry(index, doc, routing, flavor, &mut batch.body)?;
            batch.entries.push((start, batch.body.len(), doc.id().into_owned()));
            if batch.entries.len() >= opts.batch_docs || batch.body.len() >= opts.batch_bytes {
                send_batch(cluster, index, &mut batch, opts, &mut report)?;
                progress(report.docs);
            }
            Ok(())
        })?;
        if !batch.entries.is_empty() {
            send_batch(cluster, index, &mut batch, opts, &mut report)?;
            progress(report.docs);
        }
        expect_ok(cluster, "POST", &format!("{path}/_refresh"), &[], opts, &mut report)?;
    }
    if !export.aliases().is_empty() {
        let body = serde_json::to_vec(&export.alias_actions()).unwrap_or_default();
        expect_ok(cluster, "POST", "/_aliases", &body, opts, &mut report)?;
        report.aliases = export.aliases().len();
    }
    Ok(report)
}

/// The `_bulk` body being filled, with each document's byte range and `_id`.
#[derive(Default)]
struct Batch {
    body: Vec<u8>,
    entries: Vec<(usize, usize, String)>,
}

/// Whether a status means "busy, try again": ES's 429 rejections and 503s.
fn busy(status: u16) -> bool {
    status == 429 || status == 503
}

fn backoff(opts: &SendOptions, attempt: u32) -> Duration {
    opts.first_backoff.saturating_mul(1u32 << attempt.min(16)).min(opts.max_backoff)
}

/// Sends one request, again while the cluster is busy or unreachable, and turns any
/// other non-2xx answer into the cluster's error (`import` reads through it too).
pub(crate) fn expect_ok(
    cluster: &Cluster,
    method: &str,
    path: &str,
    body: &[u8],
    opts: &SendOptions,
    report: &mut SendReport,
) -> Result<Vec<u8>> {
    let ct = if path.ends_with("/_bulk") { "application/x-ndjson" } else { "application/json" };
    let mut attempt = 0;
    loop {
        let last = attempt + 1 >= opts.attempts;
        match cluster.request(method, path, Some(ct), body) {
            Ok(a) if (200..300).contains(&a.status) => return Ok(a.body),
            Ok(a) if busy(a.status) && !last => {}
            Ok(a) => return Err(cluster_error(a.status, &a.body, method, path)),
            // 502/504: not reached or no answer in time; worth another try.
            Err(e) if (e.status == 502 || e.status == 504) && !last => {}
            Err(e) => return Err(e),
        }
        std::thread::sleep(backoff(opts, attempt));
        attempt += 1;
        report.retries += 1;
    }
}

/// Sends a batch until every document is in, resending those the cluster rejected as
/// busy; empties the batch.
fn send_batch(
    cluster: &Cluster,
    index: &ExportIndex,
    batch: &mut Batch,
    opts: &SendOptions,
    report: &mut SendReport,
) -> Result<()> {
    let mut attempt = 0;
    loop {
        let answer = expect_ok(cluster, "POST", "/_bulk", &batch.body, opts, report)?;
        report.bulk_requests += 1;
        let v: Value = serde_json::from_slice(&answer)
            .map_err(|e| Error::simple(502, format!("the cluster's _bulk answer is not JSON: {e}")))?;
        let items = v.get("items").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
        if items.len() != batch.entries.len() {
            return Err(Error::simple(
                502,
                format!("the cluster answered {} _bulk items for {} documents", items.len(), batch.entries.len()),
            ));
        }
        let mut again = Batch::default();
        for (item, (start, end, id)) in items.iter().zip(&batch.entries) {
            let result = item.as_object().and_then(|o| o.values().next()).unwrap_or(&Value::Null);
            let status = result.get("status").and_then(Value::as_u64).unwrap_or(0) as u16;
            if (200..300).contains(&status) {
                report.docs += 1;
            } else if busy(status) && attempt + 1 < opts.attempts {
                let s = again.body.len();
                again.body.extend_from_slice(&batch.body[*start..*end]);
                again.entries.push((s, again.body.len(), id.clone()));
            } else {
                let kind = result.pointer("/error/type").and_then(Value::as_str).unwrap_or("exception");
                let reason = result.pointer("/error/reason").and_then(Value::as_str).unwrap_or("no reason given");
                return Err(Error::new(
                    status.max(400),
                    Exception::new(kind, format!("document [{id}] of [{}] was refused: {reason}", index.name)),
                ));
            }
        }
        if again.entries.is_empty() {
            batch.body.clear();
            batch.entries.clear();
            return Ok(());
        }
        report.retries += again.entries.len() as u64;
        std::thread::sleep(backoff(opts, attempt));
        attempt += 1;
        *batch = again;
    }
}

/// The cluster's error answer as an [`Error`]: its `error.type` and `error.reason` when it
/// sent ES JSON, else its text.
fn cluster_error(status: u16, body: &[u8], method: &str, path: &str) -> Error {
    let v: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let kind = v.pointer("/error/type").and_then(Value::as_str);
    let reason = v.pointer("/error/reason").and_then(Value::as_str);
    match (kind, reason) {
        (Some(k), Some(r)) => Error::new(status, Exception::new(k, format!("{method} {path}: {r}"))),
        _ => {
            let text = String::from_utf8_lossy(body);
            let text: String = text.chars().take(500).collect();
            Error::simple(status, format!("{method} {path} answered {status}: {text}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let o = SendOptions::default();
        let b: Vec<u64> = (0..8).map(|a| backoff(&o, a).as_millis() as u64).collect();
        assert_eq!(b, [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    }

    #[test]
    fn cluster_errors_keep_type_and_reason() {
        let e = cluster_error(
            400,
            br#"{"error":{"type":"resource_already_exists_exception","reason":"index [t/abc] already exists"},"status":400}"#,
            "PUT",
            "/t",
        );
        assert_eq!(
            (e.status, e.kind(), e.reason()),
            (400, "resource_already_exists_exception", "PUT /t: index [t/abc] already exists")
        );
        let e = cluster_error(502, b"<html>bad gateway</html>", "POST", "/_bulk");
        assert_eq!(e.reason(), "POST /_bulk answered 502: <html>bad gateway</html>");
    }
}
