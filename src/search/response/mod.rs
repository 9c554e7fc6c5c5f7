//! The ES 6.8 search response: typed, written straight to JSON bytes.

pub mod aggregations;
pub mod hit_values;
pub mod suggest;

use super::explain::Expl;
use super::json_out::{write_score, Object};
use super::source::SourceJson;
use crate::error::{Error, Result};
use hit_values::{Highlight, HitFields, InnerHits, NestedIdentity, SortShown};
use serde_json::{json, Value};
use suggest::Suggest;

/// `_shards` for `n` searched indices (one shard each).
pub fn shards(n: usize) -> Value {
    json!({"total": n, "successful": n, "skipped": 0, "failed": 0})
}

/// A search response, typed: the engine builds it and writes it straight to JSON bytes
/// ([`SearchResponse::to_bytes`]) in ES's key order, copying stored sources verbatim.
#[derive(Debug, Clone)]
pub struct SearchResponse {
    /// `_scroll_id`, first when present.
    pub(crate) scroll_id: Option<String>,
    /// `took`, in milliseconds.
    pub(crate) took: u64,
    /// `terminated_early: true` is shown only when `terminate_after` cut the matches.
    pub(crate) terminated_early: bool,
    /// `timed_out`: the request's `timeout` stopped collection.
    pub(crate) timed_out: bool,
    /// Indices searched (one shard each).
    pub(crate) shards: usize,
    /// `hits`.
    pub(crate) hits: Hits,
    /// `aggregations`, when the request has any: the typed results, written at the end.
    pub(crate) aggregations: Option<aggregations::Aggregations>,
    /// `suggest`, when the request has suggestions.
    pub(crate) suggest: Option<Suggest>,
}

impl SearchResponse {
    /// `_scroll_id`, on scroll pages that carry one.
    pub fn scroll_id(&self) -> Option<&str> {
        self.scroll_id.as_deref()
    }

    /// `hits.total`; `None` when `track_total_hits` is off (written as -1).
    pub fn total(&self) -> Option<u64> {
        self.hits.total
    }

    /// Whether `terminate_after` stopped collection.
    pub fn terminated_early(&self) -> bool {
        self.terminated_early
    }

    /// Whether the request's `timeout` stopped collection (`timed_out`).
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// The returned hits, in order.
    pub fn hits(&self) -> &[HitJson] {
        &self.hits.hits
    }

    /// `suggest`, when the request has suggestions.
    pub fn suggest(&self) -> Option<&Suggest> {
        self.suggest.as_ref()
    }

    /// `aggregations`, when the request has any.
    pub fn aggregations(&self) -> Option<&aggregations::Aggregations> {
        self.aggregations.as_ref()
    }

    /// The response as JSON bytes, as ES writes it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(256 + self.hits.hits.iter().map(HitJson::size_hint).sum::<usize>());
        let mut o = Object::start(&mut out);
        self.write_members(&mut o);
        o.end();
        out
    }

    /// The response as a tree, read back from its bytes (for callers that walk it).
    pub fn to_value(&self) -> Result<Value> {
        read_back(&self.to_bytes())
    }

    /// Writes the members into an open object (`_msearch` adds its `status` after them).
    pub(crate) fn write_members(&self, o: &mut Object<'_>) {
        if let Some(id) = &self.scroll_id {
            o.str("_scroll_id", id);
        }
        o.int("took", self.took as i64);
        o.bool("timed_out", self.timed_out);
        if self.terminated_early {
            o.bool("terminated_early", true);
        }
        o.value("_shards", &shards(self.shards));
        self.hits.write(o.key("hits"));
        if let Some(a) = &self.aggregations {
            o.value("aggregations", &a.to_value());
        }
        if let Some(s) = &self.suggest {
            s.write(o.key("suggest"));
        }
    }
}

/// `hits`: the total, `max_score` and the rendered hits.
#[derive(Debug, Clone, Default)]
pub struct Hits {
    /// Matching documents; `None` when not tracked.
    pub(crate) total: Option<u64>,
    /// `max_score`; `None` is `null`.
    pub(crate) max_score: Option<f32>,
    /// The hits, in order.
    pub(crate) hits: Vec<HitJson>,
}

impl Hits {
    /// `total`; `None` when not tracked.
    pub fn total(&self) -> Option<u64> {
        self.total
    }

    /// `max_score`; `None` is `null`.
    pub fn max_score(&self) -> Option<f32> {
        self.max_score
    }

    /// The hits, in order.
    pub fn hits(&self) -> &[HitJson] {
        &self.hits
    }

    /// Writes `{"total", "max_score", "hits"}` at the end of `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        let mut o = Object::start(out);
        match self.total {
            Some(n) => o.int("total", n as i64),
            None => o.int("total", -1),
        }
        write_score(o.key("max_score"), self.max_score);
        let out = o.key("hits");
        out.push(b'[');
        for (i, h) in self.hits.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            h.write(out);
        }
        out.push(b']');
        o.end();
    }

    /// As a tree (`top_hits` puts hits inside aggregations, which are trees).
    pub fn to_value(&self) -> Result<Value> {
        let mut out = Vec::new();
        self.write(&mut out);
        read_back(&out)
    }
}

/// One rendered hit; its members are written in ES's order.
#[derive(Debug, Clone)]
pub struct HitJson {
    /// `_shard` and `_node` first (`explain`).
    pub(crate) located: bool,
    /// `_index`.
    pub(crate) index: String,
    /// `_type` and `_id`; `None` with `stored_fields: _none_`.
    pub(crate) type_id: Option<(String, String)>,
    /// `_nested`: a nested inner hit's place in its root document.
    pub(crate) nested: Option<NestedIdentity>,
    /// `_version: 1` (`version: true`).
    pub(crate) version: bool,
    /// `_seq_no` (the document's load order) and `_primary_term: 1`
    /// (`seq_no_primary_term: true`).
    pub(crate) seq_no: Option<u32>,
    /// `_score`; `None` is `null`.
    pub(crate) score: Option<f32>,
    /// `_routing`: the routing the document was loaded with (ES's metadata fields, after
    /// `_score`).
    pub(crate) routing: Option<String>,
    /// `_source`.
    pub(crate) source: Option<SourceJson>,
    /// `fields` (`stored_fields`, `docvalue_fields`, `script_fields`).
    pub(crate) fields: Option<HitFields>,
    /// `highlight`.
    pub(crate) highlight: Option<Highlight>,
    /// `sort`.
    pub(crate) sort: Option<Vec<SortShown>>,
    /// `_explanation`.
    pub(crate) explanation: Option<Expl>,
    /// `inner_hits` (of `nested` queries, and of a collapse's groups).
    pub(crate) inner_hits: Option<InnerHits>,
}

impl HitJson {
    /// `_index`.
    pub fn index(&self) -> &str {
        &self.index
    }

    /// `_id` (`None` with `stored_fields: _none_`).
    pub fn id(&self) -> Option<&str> {
        self.type_id.as_ref().map(|(_, id)| id.as_str())
    }

    /// `_source` as JSON text, as the response writes it.
    pub fn source_json(&self) -> Option<Vec<u8>> {
        self.source.as_ref().map(|s| {
            let mut out = Vec::new();
            s.write(&mut out);
            out
        })
    }

    /// The `sort` values (empty when the hits are not sorted).
    pub fn sort(&self) -> &[SortShown] {
        self.sort.as_deref().unwrap_or_default()
    }

    /// `fields`: stored, doc-value and script fields' values.
    pub fn fields(&self) -> Option<&HitFields> {
        self.fields.as_ref()
    }

    /// `highlight`: each field's fragments.
    pub fn highlight(&self) -> Option<&Highlight> {
        self.highlight.as_ref()
    }

    /// `_explanation` (`explain: true`).
    pub fn explanation(&self) -> Option<&Expl> {
        self.explanation.as_ref()
    }

    /// `_nested`: a nested inner hit's place in its root document.
    pub fn nested(&self) -> Option<&NestedIdentity> {
        self.nested.as_ref()
    }

    /// `inner_hits`: each definition's hits.
    pub fn inner_hits(&self) -> Option<&InnerHits> {
        self.inner_hits.as_ref()
    }

    /// As a tree, read back from its bytes.
    pub fn to_value(&self) -> Result<Value> {
        let mut out = Vec::new();
        self.write(&mut out);
        read_back(&out)
    }

    /// About how many bytes the hit writes.
    fn size_hint(&self) -> usize {
        let source = match &self.source {
            Some(SourceJson::Stored(s)) => s.as_bytes().len(),
            _ => 0,
        };
        source + self.index.len() + 96
    }

    /// Writes the hit at the end of `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        let mut o = Object::start(out);
        self.write_members(&mut o);
        o.end();
    }

    /// Writes the hit's members into an open object (a completion option holds them).
    pub(crate) fn write_members(&self, o: &mut Object<'_>) {
        if self.located {
            o.str("_shard", &format!("[{}][0]", self.index));
            o.str("_node", crate::node::NODE_ID);
        }
        o.str("_index", &self.index);
        if let Some((doc_type, id)) = &self.type_id {
            o.str("_type", doc_type);
            o.str("_id", id);
        }
        if let Some(n) = &self.nested {
            n.write(o.key("_nested"));
        }
        if self.version {
            o.int("_version", 1);
        }
        if let Some(seq_no) = self.seq_no {
            o.int("_seq_no", i64::from(seq_no));
            o.int("_primary_term", 1);
        }
        write_score(o.key("_score"), self.score);
        if let Some(r) = &self.routing {
            o.str("_routing", r);
        }
        if let Some(s) = &self.source {
            s.write(o.key("_source"));
        }
        if let Some(f) = &self.fields {
            hit_values::write_fields(o.key("fields"), f);
        }
        if let Some(h) = &self.highlight {
            hit_values::write_highlight(o.key("highlight"), h);
        }
        if let Some(s) = &self.sort {
            hit_values::write_sort(o.key("sort"), s);
        }
        if let Some(e) = &self.explanation {
            e.write(o.key("_explanation"));
        }
        if let Some(i) = &self.inner_hits {
            hit_values::write_inner_hits(o.key("inner_hits"), i);
        }
    }
}

/// Parses JSON this module wrote (valid by construction; an error would be a bug).
fn read_back(bytes: &[u8]) -> Result<Value> {
    serde_json::from_slice(bytes).map_err(|e| Error::storage(format!("response is not JSON: {e}")))
}
