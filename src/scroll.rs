//! Scroll cursors that outlive the process and cannot be forged.
//!
//! A scroll id is self-contained: it names the pinned concrete indices and generations,
//! the request, the position after the last returned hit and the keep-alive deadline, and
//! is signed with HMAC-SHA256 under a secret kept in the file. Any process that opens the
//! file (a restarted server, a second server behind a load balancer) can continue it; a
//! tampered id fails the signature and costs nothing. Live scrolls are registered in the
//! file's `scrolls` table, so clearing one stops it everywhere at once.
//!
//! Each page returns a fresh id carrying the new position and deadline (clients echo
//! whatever id the last response gave, as the ES clients do).
//!
//! `_doc` order is the fast path: pages walk the pinned generations' match sets from the
//! cursor, so a page costs time proportional to the page. Other sorts re-run the query
//! phase from the cursor (`search_after` semantics).

use crate::engine::{indices_options, now_ms, Engine};
use crate::error::{Error, Exception, Result};
use crate::index::IndexReader;
use crate::search::exec::Executor;
use crate::search::request::SearchRequest;
use crate::search::sort::{SortSpec, SortValue};
use crate::search::{self, After, Hit, QueryResult};
use crate::store::Catalog;
use base64::Engine as _;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// Longest keep-alive accepted (ES's default `search.max_keep_alive`).
const MAX_KEEP_ALIVE_MS: i64 = 24 * 60 * 60 * 1000;

fn b64() -> base64::engine::GeneralPurpose {
    base64::engine::general_purpose::URL_SAFE_NO_PAD
}

fn hmac(secret: &[u8], msg: &[u8]) -> [u8; 32] {
    let mut key = [0u8; 64];
    if secret.len() > 64 {
        key[..32].copy_from_slice(&Sha256::digest(secret));
    } else {
        key[..secret.len()].copy_from_slice(secret);
    }
    let mut inner = Sha256::new();
    inner.update(key.iter().map(|b| b ^ 0x36).collect::<Vec<u8>>());
    inner.update(msg);
    let mut outer = Sha256::new();
    outer.update(key.iter().map(|b| b ^ 0x5c).collect::<Vec<u8>>());
    outer.update(inner.finalize());
    outer.finalize().into()
}

fn cannot_parse(detail: &str) -> Error {
    Error::new(
        400,
        Exception::new("illegal_argument_exception", "Cannot parse scroll id")
            .caused_by(Exception::new("illegal_argument_exception", detail.to_string())),
    )
}

fn context_missing(context: u64) -> Error {
    let cause =
        Exception::new("search_context_missing_exception", format!("No search context found for id [{context}]"));
    let mut e = Error::all_shards_failed(404, None, cause.clone());
    e.exception = e.exception.caused_by(cause);
    e
}

/// Parses an ES duration into milliseconds, bounded by the maximum keep-alive.
fn keep_alive_ms(s: &str) -> Result<i64> {
    let d = crate::date::parse_time_value(s, "scroll").map_err(|e| Error::illegal_argument(e.to_string()))?;
    let ms = d.as_millis().min(i64::MAX as u128) as i64;
    if ms > MAX_KEEP_ALIVE_MS {
        return Err(Error::illegal_argument(format!(
            "Keep alive for scroll ({s}) is too large. It must be less than (1d). This limit can be set by changing the [search.max_keep_alive] cluster level setting."
        )));
    }
    Ok(ms)
}

/// The decoded content of a scroll id.
struct Cursor {
    context: u64,
    indices: Vec<(String, u64)>,
    body: String,
    params: Vec<(String, String)>,
    /// Sort values of the last hit, and its (target, doc).
    after: Option<(Vec<Value>, usize, u32)>,
    expires_ms: i64,
    total: u64,
}

impl Engine {
    fn scroll_secret(&self) -> Result<Vec<u8>> {
        self.snapshot()?
            .get(Catalog::Meta, "scroll_secret")?
            .ok_or_else(|| Error::storage("the file has no scroll secret"))
    }

    fn encode_cursor(&self, c: &Cursor) -> Result<String> {
        let payload = json!({
            "c": c.context, "i": c.indices, "b": c.body, "p": c.params,
            "a": c.after.as_ref().map(|(v, t, d)| json!([v, t, d])), "e": c.expires_ms, "t": c.total
        });
        let bytes = payload.to_string().into_bytes();
        let mac = hmac(&self.scroll_secret()?, &bytes);
        Ok(format!("{}.{}", b64().encode(&bytes), b64().encode(mac)))
    }

    fn decode_cursor(&self, id: &str) -> Result<Cursor> {
        let (p, m) = id.trim().split_once('.').ok_or_else(|| cannot_parse("malformed scroll id"))?;
        let bytes = b64().decode(p).map_err(|_| cannot_parse("malformed scroll id"))?;
        let mac = b64().decode(m).map_err(|_| cannot_parse("malformed scroll id"))?;
        let expected = hmac(&self.scroll_secret()?, &bytes);
        use subtle::ConstantTimeEq;
        if mac.len() != 32 || !bool::from(expected.ct_eq(&mac)) {
            return Err(cannot_parse("scroll id signature does not match"));
        }
        let v: Value = serde_json::from_slice(&bytes).map_err(|_| cannot_parse("malformed scroll id"))?;
        let bad = || cannot_parse("malformed scroll id");
        let indices = v["i"]
            .as_array()
            .ok_or_else(bad)?
            .iter()
            .filter_map(|x| Some((x[0].as_str()?.to_string(), x[1].as_u64()?)))
            .collect();
        let params = v["p"]
            .as_array()
            .ok_or_else(bad)?
            .iter()
            .filter_map(|x| Some((x[0].as_str()?.to_string(), x[1].as_str()?.to_string())))
            .collect();
        let after = match &v["a"] {
            Value::Array(a) if a.len() == 3 => Some((
                a[0].as_array().cloned().unwrap_or_default(),
                a[1].as_u64().unwrap_or(0) as usize,
                a[2].as_u64().unwrap_or(0) as u32,
            )),
            _ => None,
        };
        Ok(Cursor {
            context: v["c"].as_u64().ok_or_else(bad)?,
            indices,
            body: v["b"].as_str().ok_or_else(bad)?.to_string(),
            params,
            after,
            expires_ms: v["e"].as_i64().ok_or_else(bad)?,
            total: v["t"].as_u64().unwrap_or(0),
        })
    }

    fn register(&self, context: u64, expires_ms: i64) -> Result<()> {
        let mut w = self.store().write()?;
        let now = now_ms();
        // Drop registrations whose deadline passed long ago, keeping the table small.
        for (k, v) in w.list(Catalog::Scrolls)? {
            let exp = String::from_utf8_lossy(&v).parse::<i64>().unwrap_or(0);
            if exp + MAX_KEEP_ALIVE_MS < now {
                w.remove(Catalog::Scrolls, &k)?;
            }
        }
        w.put(Catalog::Scrolls, &context.to_string(), (expires_ms + MAX_KEEP_ALIVE_MS).to_string().as_bytes())?;
        w.commit()
    }

    fn pinned_readers(&self, c: &Cursor) -> Result<Vec<Arc<IndexReader>>> {
        let snap = self.snapshot()?;
        let metas = self.index_metas(&snap)?;
        c.indices
            .iter()
            .map(|(name, generation)| {
                metas
                    .iter()
                    .find(|m| &m.name == name && m.generation == *generation)
                    .cloned()
                    .map(|m| self.reader(m))
                    .ok_or_else(|| context_missing(c.context))
            })
            .collect()
    }

    /// Starts a scrolled search: like `search_with`, plus `_scroll_id` first in the response.
    pub fn scroll_start(
        &self,
        index: &str,
        body: &str,
        params: &[(String, String)],
        keep_alive: &str,
    ) -> Result<Value> {
        let ka = keep_alive_ms(keep_alive)?;
        let mut req = SearchRequest::from_body(body)?;
        req.apply_uri_params(params)?;
        req.validate()?;
        if req.size == 0 {
            return Err(Error::new(
                400,
                Exception::new(
                    "action_request_validation_exception",
                    "Validation Failed: 1: [size] cannot be [0] in a scroll context;",
                ),
            ));
        }
        if req.from > 0 {
            return Err(Error::new(
                400,
                Exception::new(
                    "action_request_validation_exception",
                    "Validation Failed: 1: using [from] is not allowed in a scroll context;",
                ),
            ));
        }
        if req.search_after.is_some() {
            return Err(Error::new(
                400,
                Exception::new(
                    "action_request_validation_exception",
                    "Validation Failed: 1: [search_after] cannot be used in a scroll context;",
                ),
            ));
        }
        let snap = self.snapshot()?;
        let targets = self.resolve(&snap, index, indices_options(params)?)?;
        search::check_window(&targets, 0, req.size, true)?;
        let context: u64 = rand::random::<u64>() >> 12;
        let expires = now_ms() + ka;
        let mut cursor = Cursor {
            context,
            indices: targets.iter().map(|t| (t.meta.name.clone(), t.meta.generation)).collect(),
            body: body.to_string(),
            params: params.to_vec(),
            after: None,
            expires_ms: expires,
            total: 0,
        };
        let started = web_time::Instant::now();
        let page = self.scroll_page(&targets, &req, &mut cursor, true)?;
        self.register(context, expires)?;
        let id = self.encode_cursor(&cursor)?;
        Ok(self.scroll_response(Some(&id), started, &targets, &req, page))
    }

    /// Fetches the next page of a scroll; `keep_alive` None means the response has no
    /// `_scroll_id` (ES 6.8 behaviour).
    pub fn scroll_next(&self, scroll_id: &str, keep_alive: Option<&str>) -> Result<Value> {
        let started = web_time::Instant::now();
        let mut cursor = self.decode_cursor(scroll_id)?;
        let alive = self.snapshot()?.get(Catalog::Scrolls, &cursor.context.to_string())?.is_some();
        if !alive || now_ms() > cursor.expires_ms {
            return Err(context_missing(cursor.context));
        }
        if let Some(ka) = keep_alive {
            cursor.expires_ms = now_ms() + keep_alive_ms(ka)?;
        }
        let targets = self.pinned_readers(&cursor)?;
        let mut req = SearchRequest::from_body(&cursor.body)?;
        req.apply_uri_params(&cursor.params)?;
        req.aggs = None;
        let page = self.scroll_page(&targets, &req, &mut cursor, false)?;
        let id = match keep_alive {
            Some(_) => Some(self.encode_cursor(&cursor)?),
            None => None,
        };
        Ok(self.scroll_response(id.as_deref(), started, &targets, &req, page))
    }

    /// Clears scroll ids (`_all` clears every scroll); returns `num_freed`.
    pub fn clear_scroll(&self, ids: &[String]) -> Result<u64> {
        let mut w = self.store().write()?;
        let mut freed = 0;
        for id in ids {
            if id == "_all" {
                for (k, _) in w.list(Catalog::Scrolls)? {
                    if w.remove(Catalog::Scrolls, &k)? {
                        freed += 1;
                    }
                }
                continue;
            }
            let cursor = self.decode_cursor(id)?;
            if w.remove(Catalog::Scrolls, &cursor.context.to_string())? && now_ms() <= cursor.expires_ms {
                freed += 1;
            }
        }
        w.commit()?;
        Ok(freed)
    }

    /// Runs one page, advancing `cursor`; returns the page's query result.
    fn scroll_page(
        &self,
        targets: &[Arc<IndexReader>],
        req: &SearchRequest,
        cursor: &mut Cursor,
        first: bool,
    ) -> Result<(QueryResult, Value, Option<Value>)> {
        let snap = self.snapshot()?;
        let now = now_ms();
        let size = req.size.max(1) as usize;
        let doc_order = matches!(req.sort.as_slice(), [SortSpec::Doc(crate::search::sort::Order::Asc)]);
        let result = if doc_order {
            self.doc_order_page(targets, &snap, req, cursor, size, now)?
        } else {
            let after = match &cursor.after {
                None => After::Start,
                Some((values, t, d)) => {
                    let sv = if req.sort.is_empty() {
                        vec![SortValue::Score(values.first().and_then(Value::as_f64).unwrap_or(0.0) as f32)]
                    } else {
                        crate::search::sort::parse_search_after(&Value::Array(values.clone()), &req.sort)?
                    };
                    After::Values(sv, Some((*t, *d)))
                }
            };
            search::query_phase(targets, &snap, req, now, &after, size)?
        };
        if first {
            cursor.total = result.total;
        }
        if let Some(last) = result.hits.last() {
            let values: Vec<Value> = if req.sort.is_empty() {
                vec![json!(last.score)]
            } else {
                last.sort.iter().zip(&req.sort).map(|(v, s)| v.to_json(s)).collect()
            };
            cursor.after = Some((values, last.target, last.doc));
        }
        let hits = search::fetch_phase(targets, &snap, req, &result, now)?;
        let aggs = match (&req.aggs, first) {
            (Some(spec), true) => {
                Some(search::aggs::aggregate(spec, targets, &result.matched, &snap, req.typed_keys, now)?)
            }
            _ => None,
        };
        Ok((result, hits, aggs))
    }

    /// `_doc` order: walk each pinned index's match set from the cursor.
    fn doc_order_page(
        &self,
        targets: &[Arc<IndexReader>],
        snap: &crate::store::Snapshot,
        req: &SearchRequest,
        cursor: &Cursor,
        size: usize,
        now: i64,
    ) -> Result<QueryResult> {
        let mut hits: Vec<Hit> = Vec::with_capacity(size);
        let mut total = 0;
        let mut matched = Vec::new();
        let (start_target, start_doc) = match &cursor.after {
            None => (0, None),
            Some((_, t, d)) => (*t, Some(*d)),
        };
        for (ti, reader) in targets.iter().enumerate() {
            let ex = Executor { reader, snap, now_ms: now };
            let mut docs = ex.run(&req.query, 1.0, false)?.into_docset();
            if let Some(pf) = &req.post_filter {
                docs.and_with(&ex.run(pf, 1.0, false)?.into_docset());
            }
            if !req.types.is_empty() {
                let mut types = crate::index::DocSet::new();
                for t in &req.types {
                    types.or_with(&ex.keyword_docs(crate::index::TYPE_FIELD, t)?);
                }
                docs.and_with(&types);
            }
            if let Some((id, max)) = req.slice {
                docs.and_with(&search::slice_docs(&ex, id, max)?);
            }
            total += docs.len();
            if ti >= start_target && hits.len() < size {
                let from = if ti == start_target { start_doc.map(|d| d + 1).unwrap_or(0) } else { 0 };
                for d in docs.iter_from(from).take(size - hits.len()) {
                    hits.push(Hit { target: ti, doc: d, score: f32::NAN, sort: vec![SortValue::Doc(d)] });
                }
            }
            matched.push(docs);
        }
        Ok(QueryResult {
            total: if cursor.after.is_some() { cursor.total } else { total },
            max_score: f32::NAN,
            hits,
            matched,
            terminated_early: false,
        })
    }

    fn scroll_response(
        &self,
        id: Option<&str>,
        started: web_time::Instant,
        targets: &[Arc<IndexReader>],
        _req: &SearchRequest,
        page: (QueryResult, Value, Option<Value>),
    ) -> Value {
        let (_, hits, aggs) = page;
        search::response::envelope(id, started.elapsed().as_millis() as u64, false, targets.len(), hits, aggs)
    }

    /// Iterates every hit of a query through a scroll (`_doc` order unless the body sorts),
    /// clearing the scroll at the end.
    pub fn scroll_iter<'a>(&'a self, index: &str, body: &str, keep_alive: &'a str) -> ScrollIter<'a> {
        ScrollIter {
            engine: self,
            index: index.to_string(),
            body: body.to_string(),
            keep_alive,
            state: IterState::Start,
            buffer: Vec::new(),
        }
    }
}

enum IterState {
    Start,
    Going(String),
    Done,
}

/// An iterator over every hit of a scroll (see `Engine::scroll_iter`).
pub struct ScrollIter<'a> {
    engine: &'a Engine,
    index: String,
    body: String,
    keep_alive: &'a str,
    state: IterState,
    buffer: Vec<Value>,
}

impl Iterator for ScrollIter<'_> {
    type Item = Result<Value>;

    fn next(&mut self) -> Option<Result<Value>> {
        loop {
            if let Some(h) = self.buffer.pop() {
                return Some(Ok(h));
            }
            let page = match std::mem::replace(&mut self.state, IterState::Done) {
                IterState::Done => return None,
                IterState::Start => self.engine.scroll_start(&self.index, &self.body, &[], self.keep_alive),
                IterState::Going(id) => self.engine.scroll_next(&id, Some(self.keep_alive)),
            };
            let page = match page {
                Ok(p) => p,
                Err(e) => return Some(Err(e)),
            };
            let mut hits = page["hits"]["hits"].as_array().cloned().unwrap_or_default();
            let id = page["_scroll_id"].as_str().map(str::to_string);
            if hits.is_empty() {
                if let Some(id) = id {
                    let _ = self.engine.clear_scroll(&[id]);
                }
                return None;
            }
            if let Some(id) = id {
                self.state = IterState::Going(id);
            }
            hits.reverse();
            self.buffer = hits;
        }
    }
}
