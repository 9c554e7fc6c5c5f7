//! metagate: loaded through `Engine::load` with the registry family (the `.aggregate`
//! keyword sub-fields), queried with ES 6.8 DSL bodies through `Engine::search_response`,
//! each response written out as the JSON bytes a client receives.

use super::Searcher;
use crate::corpus::Corpus;
use crate::queries::{Outcome, Query};
use metagate::Family;
use metagate::LoadOptions;
use metagate::{Engine, ScrollNextRequest, ScrollStartRequest, SearchRequest, SearchResponse};
use metagate::aggregations::{AggBody, BucketKey, KeyValue};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The index name inside the file.
const INDEX: &str = "gen";

fn file(dir: &Path) -> PathBuf {
    dir.join("metagate.redb")
}

/// Loads `n` records; returns the file's size.
pub fn build(corpus: &Corpus, n: u64, dir: &Path) -> u64 {
    let path = file(dir);
    let _ = std::fs::remove_file(&path);
    let mut engine = Engine::open_or_create(&path).expect("create the metagate file");
    let opts = LoadOptions { family: Some(Family::Registry), ..LoadOptions::default() };
    let report = engine.load(INDEX, corpus.bulk(n), &opts, &mut |_, _| {}).expect("load");
    assert_eq!(report.docs, n, "every record loads");
    // As `metagate load` does: the file gives back the pages the load worked in.
    assert_eq!(engine.compact().expect("compact"), metagate::Compaction::Done);
    drop(engine);
    super::disk_bytes(&path)
}

/// The ES 6.8 request body of a query.
pub fn body(q: &Query) -> Value {
    match q {
        Query::Term { identifier } => json!({"query": {"term": {"item.identifier.aggregate": identifier}}}),
        Query::Match { words, and } => json!({"query": {"match": {"item.description": {
            "query": words.join(" "), "operator": if *and { "and" } else { "or" }}}}}),
        Query::Phrase { words } => json!({"query": {"match_phrase": {"item.description": words.join(" ")}}}),
        Query::Portal { words, types, from_year, to_year } => json!({"query": {"bool": {
        "must": {"query_string": {"query": words.join(" "), "fields": ["*"],
                                  "type": "cross_fields", "default_operator": "and"}},
        "filter": [
            {"terms": {"item.types.name.aggregate": types}},
            {"range": {"provenance.creationDate": {"gte": format!("{from_year}-01-01"),
                                                   "lt": format!("{to_year}-01-01"),
                                                   "format": "yyyy-MM-dd"}}}
        ]}}}),
        Query::Facet { word } => json!({"size": 0, "query": {"match": {"item.description": word}},
            "aggs": {"k": {"terms": {"field": "item.keywords.keyword.aggregate", "size": 200}}}}),
        Query::SortedFilter { organism } => json!({"size": 100,
            "query": {"bool": {"filter": {"term": {"organisms.related.species.name.aggregate": organism}}}},
            "sort": [{"item.name.aggregate": "asc"}]}),
        Query::Prefix { prefix } => json!({"query": {"prefix": {"item.identifier.aggregate": prefix}}}),
        Query::Wildcard { pattern } => json!({"query": {"wildcard": {"item.name.aggregate": pattern}}}),
    }
}

/// An open metagate file.
pub struct Mg {
    engine: Engine,
}

impl Mg {
    /// Opens the file built by [`build`].
    pub fn open(dir: &Path) -> Mg {
        Mg { engine: Engine::open(&file(dir)).expect("open the metagate file") }
    }
}

/// The signature of an ES response: the first facet buckets, or the first sort keys.
fn signature(q: &Query, r: &SearchResponse) -> String {
    match q {
        Query::Facet { .. } => match r.aggregations().and_then(|a| a.results.find("k")).map(|k| &k.body) {
            Some(AggBody::Buckets(list)) => list
                .buckets
                .iter()
                .take(3)
                .map(|b| match &b.key {
                    BucketKey::Term { key: KeyValue::Str(key), .. } => format!("{key}:{}", b.doc_count),
                    _ => format!(":{}", b.doc_count),
                })
                .collect::<Vec<_>>()
                .join(","),
            _ => String::new(),
        },
        Query::SortedFilter { .. } => r
            .hits()
            .iter()
            .take(3)
            .map(|h| h.sort().first().and_then(|v| v.as_str()).unwrap_or_default().to_string())
            .collect::<Vec<_>>()
            .join(","),
        _ => String::new(),
    }
}

impl Searcher for Mg {
    fn run(&self, q: &Query) -> Outcome {
        let r = self
            .engine
            .search_request(
                INDEX,
                &SearchRequest::parse(&body(q).to_string(), &[], &[]).expect("request"),
                Default::default(),
            )
            .expect("metagate search");
        std::hint::black_box(r.to_bytes());
        Outcome { total: r.total().expect("hits.total"), hits: r.hits().len(), sig: signature(q, &r) }
    }

    fn scroll(&self, page: usize, on_page: &mut dyn FnMut(usize)) -> u64 {
        let body = json!({"size": page, "sort": ["_doc"]}).to_string();
        let mut r = self
            .engine
            .start_scroll(ScrollStartRequest::parse(INDEX, &[], &body, &[], "1m").expect("request"), None)
            .expect("scroll start");
        let mut read = 0;
        loop {
            std::hint::black_box(r.to_bytes());
            let hits = r.hits().len();
            if hits == 0 {
                break;
            }
            read += hits as u64;
            on_page(hits);
            let id = r.scroll_id().expect("_scroll_id").to_string();
            r = self
                .engine
                .next_scroll_page(&ScrollNextRequest::new(&id, Some("1m")).expect("request"), None)
                .expect("scroll next");
        }
        read
    }
}
