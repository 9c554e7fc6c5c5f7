//! A request's budget: when its work must stop (a deadline), whether its client is still
//! there (a cancel flag), and how many bytes it may build (a circuit breaker in the manner
//! of ES's `request` and `parent` breakers).
//!
//! The door that takes a request opens a [`Scope`] around answering it on the thread that
//! answers; every loop that can run long below it — term expansion, query text analysis,
//! phrase matching, scoring and collection, aggregation, fetch, highlight — asks the
//! current scope with a [`Ticker`] every few thousand steps. The scope is a thread-local
//! rather than an argument because it must reach every such loop (several dozen, at
//! every depth of the search) and answers "nothing to stop" outside any scope, so loads,
//! tests and tools pay nothing for it.
//!
//! - **Time.** The server's cap (`serve --max-request-time`) and a search's `timeout`
//!   both set the deadline; the earlier wins. Past it the search stops where it is and
//!   answers what it found with `timed_out: true`, as ES does.
//! - **Cancellation.** A transport whose client hangs up sets the flag; the work then ends
//!   with [`Error::cancelled`] at its next look (nobody reads that answer; the access log
//!   records it).
//! - **Bytes.** What a request builds (hits' sources, buckets, `_msearch` answers) is
//!   charged with [`charge`] against a per-request limit and a server-wide pool; past
//!   either, the request fails with ES's 429 `circuit_breaking_exception`. A scope gives
//!   its bytes back to the pool when it ends.

use crate::error::{Error, Exception, Result};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use web_time::{Duration, Instant};

/// Steps between two looks at the budget: a look reads the clock (tens of nanoseconds),
/// a step (a document, an expanded term) costs about as much, so this keeps the checks
/// under a percent of the work and the overshoot under a millisecond.
pub const CHECK_EVERY: u32 = 4096;

/// A flag a transport sets when the request's client has gone.
#[derive(Debug, Clone, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    /// A flag not set.
    pub fn new() -> CancelFlag {
        CancelFlag::default()
    }

    /// Sets the flag: the work of the request stops at its next look.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A byte budget shared by many requests (ES's `parent` breaker, or its
/// `in_flight_requests` breaker for request bodies).
#[derive(Debug)]
pub struct BytePool {
    name: &'static str,
    limit: usize,
    used: AtomicUsize,
}

impl BytePool {
    /// A pool named `name` (as ES names its breakers) of `limit` bytes.
    pub fn new(name: &'static str, limit: usize) -> BytePool {
        BytePool { name, limit, used: AtomicUsize::new(0) }
    }

    /// Takes `bytes` for `label` (what they are for, as ES's breakers name it), or the
    /// breaker's error when the pool would pass its limit.
    pub fn reserve(&self, bytes: usize, label: &str) -> Result<()> {
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            let wanted = used.saturating_add(bytes);
            if wanted > self.limit {
                return Err(Error::circuit_breaking(self.name, label, wanted, self.limit));
            }
            match self.used.compare_exchange_weak(used, wanted, Ordering::AcqRel, Ordering::Relaxed) {
                Ok(_) => return Ok(()),
                Err(now) => used = now,
            }
        }
    }

    /// Gives back `bytes` taken with [`BytePool::reserve`].
    pub fn release(&self, bytes: usize) {
        let _ = self.used.fetch_update(Ordering::AcqRel, Ordering::Relaxed, |u| Some(u.saturating_sub(bytes)));
    }

    /// Bytes taken now.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// The pool's limit in bytes.
    pub fn limit(&self) -> usize {
        self.limit
    }
}

/// What a door allows one request.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Set when the client has gone.
    pub cancel: Option<CancelFlag>,
    /// The longest the request may run (the server's cap); a search's own `timeout` may
    /// shorten it.
    pub max_time: Option<Duration>,
    /// The bytes one request may build (ES's `request` breaker).
    pub request_bytes: Option<usize>,
    /// The bytes all requests may build together (ES's `parent` breaker).
    pub total: Option<Arc<BytePool>>,
}

/// The state of the request answered on this thread.
#[derive(Default)]
struct State {
    cancel: Option<CancelFlag>,
    /// The server's cap, fixed when the scope opened.
    cap: Option<Instant>,
    /// A search's own `timeout`, while one runs.
    search: Option<Instant>,
    /// Whether a look found the deadline passed (sticky: the answer says `timed_out`).
    timed_out: bool,
    request_limit: Option<usize>,
    charged: usize,
    total: Option<Arc<BytePool>>,
}

impl State {
    fn deadline(&self) -> Option<Instant> {
        match (self.cap, self.search) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

thread_local! {
    static CURRENT: RefCell<Option<State>> = const { RefCell::new(None) };
}

/// The budget of the request answered on this thread, from [`enter`] until it drops (the
/// budget that was current before comes back then).
#[must_use = "the budget holds only while the scope lives"]
pub struct Scope {
    outer: Option<State>,
}

/// Opens the budget `limits` for the request answered on this thread.
pub fn enter(limits: Limits) -> Scope {
    let state = State {
        cancel: limits.cancel,
        cap: limits.max_time.and_then(|d| Instant::now().checked_add(d)),
        request_limit: limits.request_bytes,
        total: limits.total,
        ..State::default()
    };
    Scope { outer: CURRENT.with(|c| c.replace(Some(state))) }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let ended = CURRENT.with(|c| c.replace(self.outer.take()));
        if let Some(State { total: Some(pool), charged, .. }) = ended {
            pool.release(charged);
        }
    }
}

/// A search's own deadline, in force until it drops: [`search_deadline`].
#[must_use = "the search's deadline holds only while the guard lives"]
pub struct SearchDeadline {
    outer: Option<(Option<Instant>, bool)>,
    /// The scope opened for a search outside any (dropped after `outer` is restored).
    _scope: Option<Scope>,
}

/// Sets a search's own deadline (its `timeout`) until the guard drops, and starts the
/// search not timed out: each search of an `_msearch` has its own `timeout`, so one that
/// ran out must not mark the next (the server's cap, if it passed, is found again at the
/// next look). When the guard drops, the deadline of before comes back, and the request
/// stays marked timed out if it was or if the search was. Outside a scope, the guard
/// opens one for the search.
pub fn search_deadline(at: Option<Instant>) -> SearchDeadline {
    // A search outside any door's scope (the Rust API) gets one of its own, so that its
    // `timeout` reaches every loop the same way.
    let scope = CURRENT.with(|c| c.borrow().is_none()).then(|| enter(Limits::default()));
    let outer = CURRENT.with(|c| {
        c.borrow_mut().as_mut().map(|s| {
            let outer = (s.search, s.timed_out);
            s.search = at;
            s.timed_out = false;
            outer
        })
    });
    SearchDeadline { outer, _scope: scope }
}

impl Drop for SearchDeadline {
    fn drop(&mut self) {
        if let Some((search, timed_out)) = self.outer.take() {
            CURRENT.with(|c| {
                if let Some(s) = c.borrow_mut().as_mut() {
                    s.search = search;
                    s.timed_out |= timed_out;
                }
            });
        }
    }
}

/// The deadline in force: the earlier of the server's cap and the search's `timeout`.
pub fn deadline() -> Option<Instant> {
    CURRENT.with(|c| c.borrow().as_ref().and_then(State::deadline))
}

/// Looks at the budget now: `Err` ([`Error::cancelled`]) when the client has gone,
/// `Ok(true)` when the deadline has passed (and marks the request timed out), `Ok(false)`
/// to go on.
pub fn check() -> Result<bool> {
    CURRENT.with(|c| {
        let mut c = c.borrow_mut();
        let Some(s) = c.as_mut() else { return Ok(false) };
        if s.cancel.as_ref().is_some_and(CancelFlag::is_cancelled) {
            return Err(Error::cancelled());
        }
        if s.timed_out {
            return Ok(true);
        }
        if s.deadline().is_some_and(|d| Instant::now() >= d) {
            s.timed_out = true;
        }
        Ok(s.timed_out)
    })
}

/// [`Error::cancelled`] when the client has gone; no look at the clock (work that must
/// not stop at the deadline, or a last look after loops that end quietly).
pub fn check_cancelled() -> Result<()> {
    CURRENT.with(|c| match c.borrow().as_ref().and_then(|s| s.cancel.as_ref()) {
        Some(flag) if flag.is_cancelled() => Err(Error::cancelled()),
        _ => Ok(()),
    })
}

/// Whether a look found the deadline passed during this scope.
pub fn timed_out() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(|s| s.timed_out))
}

/// Charges `bytes` that the request builds for `label` against its limit and the
/// server's pool; the breaker's 429 when either would pass its limit. Outside a scope,
/// free.
pub fn charge(bytes: usize, label: &str) -> Result<()> {
    CURRENT.with(|c| {
        let mut c = c.borrow_mut();
        let Some(s) = c.as_mut() else { return Ok(()) };
        let wanted = s.charged.saturating_add(bytes);
        if let Some(limit) = s.request_limit {
            if wanted > limit {
                return Err(Error::circuit_breaking("request", label, wanted, limit));
            }
        }
        if let Some(pool) = &s.total {
            pool.reserve(bytes, label)?;
        }
        s.charged = wanted;
        Ok(())
    })
}

/// The bytes the request has charged and not given back (0 outside a scope): a caller
/// that runs several searches in one request (`_msearch`) gives back what each built.
pub fn charged() -> usize {
    CURRENT.with(|c| c.borrow().as_ref().map_or(0, |s| s.charged))
}

/// Gives back `bytes` charged with [`charge`] that the request no longer holds.
pub fn discharge(bytes: usize) {
    CURRENT.with(|c| {
        if let Some(s) = c.borrow_mut().as_mut() {
            let bytes = bytes.min(s.charged);
            s.charged -= bytes;
            if let Some(pool) = &s.total {
                pool.release(bytes);
            }
        }
    });
}

/// Counts the steps of one loop and looks at the budget every [`CHECK_EVERY`] of them,
/// so that a loop pays a counter decrement and a compare per step (no division).
#[derive(Debug, Clone)]
pub struct Ticker {
    /// Steps until the next look (the first step looks).
    left: u32,
    every: u32,
}

impl Default for Ticker {
    fn default() -> Ticker {
        Ticker::new()
    }
}

impl Ticker {
    /// Looks every [`CHECK_EVERY`] steps.
    pub fn new() -> Ticker {
        Ticker::every(CHECK_EVERY)
    }

    /// Looks every `every` steps (for loops whose steps are costly: a phrase's document,
    /// an analysed value).
    pub fn every(every: u32) -> Ticker {
        Ticker { left: 1, every: every.max(1) }
    }

    /// One step: `Err` when the client has gone, `Ok(true)` when the deadline has passed
    /// (looked at on the first step and every `every` steps after), `Ok(false)` to go on.
    #[inline]
    pub fn tick(&mut self) -> Result<bool> {
        self.left -= 1;
        if self.left != 0 {
            return Ok(false);
        }
        self.look()
    }

    /// `steps` steps at once (a loop whose step has a known size, such as a phrase
    /// candidate of many words): as [`Ticker::tick`], looking when the count runs out.
    #[inline]
    pub fn tick_by(&mut self, steps: u32) -> Result<bool> {
        if self.left > steps {
            self.left -= steps;
            return Ok(false);
        }
        self.look()
    }

    /// The look itself, kept out of line so that the step a loop pays stays two
    /// instructions.
    #[cold]
    #[inline(never)]
    fn look(&mut self) -> Result<bool> {
        self.left = self.every;
        check()
    }
}

/// Document ids between two looks of a [`DocTicker`]: one roaring container's worth, so a
/// loop over a million-document index looks at most 16 times a pass, and between two looks
/// it handles at most 65,536 documents (a few milliseconds of work).
pub const DOC_ID_STRIDE: u32 = 1 << 16;

/// Looks at the budget when a loop over documents in ascending order passes a mark, the
/// marks [`DOC_ID_STRIDE`] ids apart, so that the look costs the loop one comparison per
/// document (the marks never pass `u32::MAX`, a scorer's end).
#[derive(Debug, Clone, Default)]
pub struct DocTicker {
    mark: u32,
}

impl DocTicker {
    /// A ticker whose first look is at the first document.
    pub fn new() -> DocTicker {
        DocTicker::default()
    }

    /// Whether `doc` is at or past the next mark: the loop then calls [`DocTicker::look`].
    #[inline(always)]
    pub fn passes(&self, doc: u32) -> bool {
        doc >= self.mark
    }

    /// Looks at the budget at `doc` and sets the next mark: `Err` when the client has
    /// gone, `Ok(true)` when the deadline has passed.
    #[cold]
    #[inline(never)]
    pub fn look(&mut self, doc: u32) -> Result<bool> {
        self.mark = doc.saturating_add(DOC_ID_STRIDE);
        check()
    }
}

/// A byte count as ES's `ByteSizeValue` prints it: the largest unit in which it is at
/// least one, with one decimal unless whole (`117.5mb`, `600mb`, `512b`).
pub fn byte_size(bytes: usize) -> String {
    const UNITS: [(&str, f64); 5] =
        [("pb", 1125899906842624.0), ("tb", 1099511627776.0), ("gb", 1073741824.0), ("mb", 1048576.0), ("kb", 1024.0)];
    let b = bytes as f64;
    for (unit, size) in UNITS {
        if b >= size {
            let v = b / size;
            // Java's `Strings.format1Decimals`: the first decimal of the shortest digits,
            // cut rather than rounded, and none when it is zero.
            let digits = format!("{v}");
            let (whole, fraction) = digits.split_once('.').unwrap_or((&digits, "0"));
            return match fraction.as_bytes()[0] {
                b'0' => format!("{whole}{unit}"),
                d => format!("{whole}.{}{unit}", d as char),
            };
        }
    }
    format!("{bytes}b")
}

/// The time left before the deadline in force.
#[cfg(test)]
fn remaining() -> Option<Duration> {
    deadline().map(|d| d.saturating_duration_since(Instant::now()))
}

impl Error {
    /// ES's `task_cancelled_exception` for work whose client has gone.
    pub fn cancelled() -> Error {
        Error::new(500, Exception::new("task_cancelled_exception", "cancelled"))
    }

    /// ES's 429 `circuit_breaking_exception` of the breaker `breaker` when `label` would
    /// bring it to `wanted` bytes past its `limit`.
    pub fn circuit_breaking(breaker: &str, label: &str, wanted: usize, limit: usize) -> Error {
        Error::new(
            429,
            Exception::new(
                "circuit_breaking_exception",
                format!(
                    "[{breaker}] Data too large, data for [{label}] would be [{wanted}/{}], which is larger than the limit of [{limit}/{}]",
                    byte_size(wanted),
                    byte_size(limit)
                ),
            )
            .with_meta("bytes_wanted", wanted as u64)
            .with_meta("bytes_limit", limit as u64),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_a_scope_nothing_stops() {
        assert!(!check().unwrap());
        assert!(charge(usize::MAX, "x").is_ok());
        assert_eq!(deadline(), None);
    }

    #[test]
    fn the_earlier_deadline_wins_and_timing_out_is_sticky() {
        let _s = enter(Limits { max_time: Some(Duration::from_secs(60)), ..Default::default() });
        assert!(remaining().unwrap() > Duration::from_secs(59));
        {
            let _search = search_deadline(Some(Instant::now()));
            assert!(check().unwrap());
        }
        assert!(check().unwrap(), "a request that timed out stays timed out");
        assert!(timed_out());
    }

    #[test]
    fn scopes_nest_and_restore() {
        let flag = CancelFlag::new();
        let _outer = enter(Limits { cancel: Some(flag.clone()), ..Default::default() });
        {
            let _inner = enter(Limits::default());
            flag.cancel();
            assert!(!check().unwrap());
        }
        assert_eq!(check().unwrap_err().kind(), "task_cancelled_exception");
    }

    #[test]
    fn a_ticker_looks_on_its_first_step_and_every_nth() {
        let flag = CancelFlag::new();
        let _s = enter(Limits { cancel: Some(flag.clone()), ..Default::default() });
        let mut t = Ticker::every(3);
        assert!(!t.tick().unwrap());
        flag.cancel();
        assert!(!t.tick().unwrap());
        assert!(!t.tick().unwrap());
        assert!(t.tick().is_err());
    }

    #[test]
    fn a_search_deadline_holds_while_its_guard_lives() {
        let _s = enter(Limits::default());
        {
            let _g = search_deadline(Some(Instant::now()));
            assert!(check().unwrap());
            assert!(timed_out());
        }
        assert!(timed_out(), "the request stays marked");
        assert_eq!(deadline(), None);
        let _g = search_deadline(Some(Instant::now() + Duration::from_secs(60)));
        assert!(!timed_out(), "the next search starts afresh");
        assert!(!check().unwrap());
    }

    #[test]
    fn a_passed_cap_is_found_again_by_the_next_search() {
        let _s = enter(Limits { max_time: Some(Duration::ZERO), ..Default::default() });
        assert!(check().unwrap());
        let _g = search_deadline(None);
        assert!(!timed_out());
        assert!(Ticker::new().tick().unwrap(), "the cap is found again");
        assert!(timed_out());
    }

    #[test]
    fn a_ticker_looks_every_nth_step_after_the_first() {
        let _s = enter(Limits { max_time: Some(Duration::from_secs(60)), ..Default::default() });
        let mut t = Ticker::every(2);
        assert!(!t.tick().unwrap());
        let _search = search_deadline(Some(Instant::now()));
        assert!(!t.tick().unwrap(), "the second step does not look");
        assert!(t.tick().unwrap(), "the third does");
    }

    #[test]
    fn a_doc_ticker_looks_once_per_stride_and_never_past_the_end() {
        let flag = CancelFlag::new();
        let _s = enter(Limits { cancel: Some(flag.clone()), ..Default::default() });
        let mut t = DocTicker::new();
        assert!(t.passes(0));
        assert!(!t.look(5).unwrap());
        assert!(!t.passes(5 + DOC_ID_STRIDE - 1));
        assert!(t.passes(5 + DOC_ID_STRIDE));
        flag.cancel();
        assert!(t.look(5 + DOC_ID_STRIDE).is_err());
        t.look(u32::MAX - 3).unwrap_err();
        assert!(t.passes(u32::MAX), "the end always passes the mark");
        let mut own = DocTicker::new();
        let _inner = enter(Limits::default());
        let _search = search_deadline(Some(Instant::now()));
        assert!(own.look(0).unwrap());
    }

    #[test]
    fn a_ticker_counts_steps_of_a_size() {
        let flag = CancelFlag::new();
        let _s = enter(Limits { cancel: Some(flag.clone()), ..Default::default() });
        let mut t = Ticker::every(100);
        assert!(!t.tick_by(1).unwrap(), "the first step looks");
        flag.cancel();
        assert!(!t.tick_by(60).unwrap());
        assert!(!t.tick_by(39).unwrap());
        assert!(t.tick_by(1).is_err(), "the hundredth step looks");
    }

    #[test]
    fn a_search_deadline_outside_any_scope_times_out() {
        let _search = search_deadline(Some(Instant::now()));
        let mut t = Ticker::new();
        assert!(t.tick().unwrap());
    }

    #[test]
    fn bytes_are_charged_against_the_request_and_the_pool() {
        let pool = Arc::new(BytePool::new("parent", 950));
        {
            let _s = enter(Limits { request_bytes: Some(600), total: Some(pool.clone()), ..Default::default() });
            charge(500, "a").unwrap();
            let e = charge(200, "<reused_arrays>").unwrap_err();
            assert_eq!((e.status, e.kind()), (429, "circuit_breaking_exception"));
            assert_eq!(
                e.reason(),
                "[request] Data too large, data for [<reused_arrays>] would be [700/700b], which is larger than the limit of [600/600b]"
            );
            assert_eq!(pool.used(), 500);
            pool.reserve(400, "other").unwrap();
            let e = charge(90, "b").unwrap_err();
            assert!(
                e.reason().starts_with("[parent] Data too large, data for [b] would be [990/990b]"),
                "{}",
                e.reason()
            );
            discharge(100);
            assert_eq!(pool.used(), 800);
            assert_eq!(charged(), 400);
        }
        assert_eq!(pool.used(), 400, "a scope gives its bytes back when it ends");
    }

    #[test]
    fn byte_sizes_print_as_es_prints_them() {
        assert_eq!(byte_size(512), "512b");
        assert_eq!(byte_size(629145600), "600mb");
        assert_eq!(byte_size(123273216), "117.5mb");
        assert_eq!(byte_size(123848638), "118.1mb");
        assert_eq!(byte_size(2048), "2kb");
        assert_eq!(byte_size(1610612736), "1.5gb");
        assert_eq!(byte_size(1048575), "1023.9kb");
    }
}
