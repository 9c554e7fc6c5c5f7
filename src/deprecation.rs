//! Deprecation warnings, as ES 6.8 sends them: the request that used a deprecated form is
//! answered as usual, plus a `Warning` header per distinct message.
//!
//! ES collects them in the request's thread context; here too: code anywhere below a
//! request calls [`warn`] on the thread that runs it, and the gateway takes them with
//! [`take`] when it writes the response. A door that has no headers (Rust, C, Python,
//! WASM) simply never takes them; [`start`] clears what a previous request left.

use std::cell::RefCell;

thread_local! {
    static WARNINGS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Forgets warnings left on this thread (call before handling a request).
pub fn start() {
    WARNINGS.with(|w| w.borrow_mut().clear());
}

/// Records a deprecation message for the request running on this thread (once per text).
pub fn warn(message: impl Into<String>) {
    let message = message.into();
    WARNINGS.with(|w| {
        let mut w = w.borrow_mut();
        if !w.contains(&message) {
            w.push(message);
        }
    });
}

/// The messages recorded since [`start`], emptied.
pub fn take() -> Vec<String> {
    WARNINGS.with(|w| std::mem::take(&mut *w.borrow_mut()))
}

/// The `Warning` header value of ES 6.8's DeprecationLogger: code 299, the agent
/// `Elasticsearch-{version}-{build}`, the quoted message (`\` and `"` escaped) and the
/// quoted date in RFC 7231 form.
pub fn header_value(message: &str, now: chrono::DateTime<chrono::Utc>) -> String {
    let escaped = message.replace('\\', "\\\\").replace('"', "\\\"");
    format!(
        "299 Elasticsearch-{}-{} \"{escaped}\" \"{}\"",
        crate::node::ES_VERSION,
        crate::node::build_hash(),
        now.format("%a, %d %b %Y %H:%M:%S GMT")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_once_per_message_and_renders_es_headers() {
        start();
        warn("Deprecated aggregation order key [_term] used, replaced by [_key]");
        warn("Deprecated aggregation order key [_term] used, replaced by [_key]");
        warn("a \"quoted\" one");
        assert_eq!(take().len(), 2);
        assert!(take().is_empty());
        // The agent's build must be 7 hex digits: the Java client and ES's test runner
        // drop a warning whose agent does not match their pattern.
        let build = crate::node::build_hash();
        assert!(build.len() == 7 && build.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()), "{build}");
        let at = chrono::DateTime::from_timestamp(1_795_500_000, 0).unwrap_or_default();
        assert_eq!(
            header_value("a \"quoted\" one", at),
            format!(
                "299 Elasticsearch-6.8.23-{} \"a \\\"quoted\\\" one\" \"Tue, 24 Nov 2026 06:00:00 GMT\"",
                crate::node::build_hash()
            )
        );
    }
}
