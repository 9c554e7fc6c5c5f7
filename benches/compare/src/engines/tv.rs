//! tantivy: text fields with the default tokenizer (split on non-alphanumerics, lower
//! case), keyword fields as raw lower-cased strings with fast columns (sort, facets),
//! the creation date as an indexed fast i64. Totals come from a `(TopDocs, Count)`
//! collector tuple; the index is merged to one segment after loading (one shard, one
//! generation, as metagate has).

use super::Searcher;
use crate::corpus::Corpus;
use crate::queries::{Outcome, Query};
use std::ops::Bound;
use std::path::{Path, PathBuf};
use tantivy::aggregation::agg_req::Aggregations;
use tantivy::aggregation::{AggContextParams, AggregationCollector};
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{
    BooleanQuery, ConstScoreQuery, Occur, PhraseQuery, Query as TQuery, RangeQuery, RegexQuery, TermQuery, TermSetQuery,
};
use tantivy::schema::{Field, IndexRecordOption, Schema, Value, FAST, INDEXED, STORED, STRING, TEXT};
use tantivy::{DocAddress, Index, IndexReader, Order, ReloadPolicy, TantivyDocument, Term};

/// The writer's memory budget: large enough for few segments before the final merge.
const WRITER_HEAP: usize = 512 << 20;

fn dir_of(dir: &Path) -> PathBuf {
    dir.join("tantivy")
}

/// The schema's fields.
struct Fields {
    id: Field,
    source: Field,
    name: Field,
    description: Field,
    other: Field,
    identifier: Field,
    name_key: Field,
    organism: Field,
    types: Field,
    keywords: Field,
    created: Field,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let f = Fields {
        id: b.add_text_field("id", STRING | STORED),
        source: b.add_text_field("source", STORED),
        name: b.add_text_field("name", TEXT),
        description: b.add_text_field("description", TEXT),
        other: b.add_text_field("other", TEXT),
        identifier: b.add_text_field("identifier", STRING | FAST),
        name_key: b.add_text_field("name_key", STRING | FAST),
        organism: b.add_text_field("organism", STRING | FAST),
        types: b.add_text_field("types", STRING | FAST),
        keywords: b.add_text_field("keywords", STRING | FAST),
        created: b.add_i64_field("created", INDEXED | FAST),
    };
    (b.build(), f)
}

fn fields(s: &Schema) -> Fields {
    let f = |n: &str| s.get_field(n).expect("field");
    Fields {
        id: f("id"),
        source: f("source"),
        name: f("name"),
        description: f("description"),
        other: f("other"),
        identifier: f("identifier"),
        name_key: f("name_key"),
        organism: f("organism"),
        types: f("types"),
        keywords: f("keywords"),
        created: f("created"),
    }
}

/// Indexes `n` records with one indexing thread, commits, merges to one segment; returns
/// the directory's size.
pub fn build(corpus: &Corpus, n: u64, dir: &Path) -> u64 {
    let path = dir_of(dir);
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).expect("tantivy dir");
    let (schema, f) = schema();
    let index = Index::create_in_dir(&path, schema).expect("create index");
    let mut w = index.writer_with_num_threads::<TantivyDocument>(1, WRITER_HEAP).expect("writer");
    for i in 0..n {
        let r = corpus.flat(i);
        let mut d = TantivyDocument::default();
        d.add_text(f.id, &r.id);
        d.add_text(f.source, &r.source);
        d.add_text(f.name, &r.name);
        d.add_text(f.description, &r.description);
        d.add_text(f.other, &r.other);
        d.add_text(f.identifier, &r.identifier);
        d.add_text(f.name_key, &r.name_key);
        d.add_text(f.organism, &r.organism);
        for t in &r.types {
            d.add_text(f.types, t);
        }
        for k in &r.keywords {
            d.add_text(f.keywords, k);
        }
        d.add_i64(f.created, r.created);
        w.add_document(d).expect("add");
    }
    w.commit().expect("commit");
    let segments = index.searchable_segment_ids().expect("segments");
    if segments.len() > 1 {
        w.merge(&segments).wait().expect("merge");
    }
    w.garbage_collect_files().wait().expect("gc");
    w.wait_merging_threads().expect("merge threads");
    super::disk_bytes(&path)
}

/// An open tantivy index.
pub struct Tv {
    reader: IndexReader,
    f: Fields,
    /// Whether scored classes count the total beside the top hits (`(TopDocs, Count)`);
    /// without it, `TopDocs` alone may prune with block-max WAND (the speed anchor).
    count: bool,
}

impl Tv {
    /// Opens the index built by [`build`].
    pub fn open(dir: &Path) -> Tv {
        let index = Index::open_in_dir(dir_of(dir)).expect("open index");
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into().expect("reader");
        let f = fields(&index.schema());
        Tv { reader, f, count: true }
    }

    /// Opens the index for top hits alone: scored classes collect `TopDocs` without a
    /// count (their totals are reported as 0).
    pub fn open_top_docs_only(dir: &Path) -> Tv {
        Tv { count: false, ..Tv::open(dir) }
    }

    fn term(&self, field: Field, text: &str) -> Box<dyn TQuery> {
        Box::new(TermQuery::new(Term::from_field_text(field, text), IndexRecordOption::WithFreqs))
    }

    /// The nearest tantivy query.
    fn query(&self, q: &Query) -> Box<dyn TQuery> {
        let f = &self.f;
        match q {
            Query::Term { identifier } => self.term(f.identifier, identifier),
            Query::Match { words, and } => {
                let occur = if *and { Occur::Must } else { Occur::Should };
                Box::new(BooleanQuery::new(words.iter().map(|w| (occur, self.term(f.description, w))).collect()))
            }
            Query::Phrase { words } => {
                Box::new(PhraseQuery::new(words.iter().map(|w| Term::from_field_text(f.description, w)).collect()))
            }
            Query::Portal { words, types, from_year, to_year } => {
                // Every word in some field (per word: the sum over fields, not ES's blended
                // cross_fields score); the filters score nothing.
                let mut clauses: Vec<(Occur, Box<dyn TQuery>)> = words
                    .iter()
                    .map(|w| {
                        let per_field: Vec<(Occur, Box<dyn TQuery>)> = [f.name, f.description, f.other]
                            .iter()
                            .map(|&fl| (Occur::Should, self.term(fl, w)))
                            .collect();
                        (Occur::Must, Box::new(BooleanQuery::new(per_field)) as Box<dyn TQuery>)
                    })
                    .collect();
                let types = TermSetQuery::new(types.iter().map(|t| Term::from_field_text(f.types, t)));
                clauses.push((Occur::Must, Box::new(ConstScoreQuery::new(Box::new(types), 0.0))));
                let from = crate::corpus::days_from_civil(*from_year, 1, 1) * 86_400;
                let to = crate::corpus::days_from_civil(*to_year, 1, 1) * 86_400;
                let range = RangeQuery::new(
                    Bound::Included(Term::from_field_i64(f.created, from)),
                    Bound::Excluded(Term::from_field_i64(f.created, to)),
                );
                clauses.push((Occur::Must, Box::new(ConstScoreQuery::new(Box::new(range), 0.0))));
                Box::new(BooleanQuery::new(clauses))
            }
            Query::Facet { word } => self.term(f.description, word),
            Query::SortedFilter { organism } => {
                Box::new(TermQuery::new(Term::from_field_text(f.organism, organism), IndexRecordOption::Basic))
            }
            Query::Prefix { prefix } => {
                Box::new(RegexQuery::from_pattern(&format!("{}.*", regex_escape(prefix)), f.identifier).expect("regex"))
            }
            Query::Wildcard { pattern } => {
                let re: Vec<String> = pattern.split('*').map(regex_escape).collect();
                Box::new(RegexQuery::from_pattern(&re.join(".*"), f.name_key).expect("regex"))
            }
        }
    }

    fn source(&self, searcher: &tantivy::Searcher, addr: DocAddress) -> usize {
        let d: TantivyDocument = searcher.doc(addr).expect("stored doc");
        d.get_first(self.f.source).and_then(|v| v.as_str()).map_or(0, str::len)
    }
}

/// Escapes regex syntax in a literal.
fn regex_escape(s: &str) -> String {
    s.chars()
        .flat_map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == ' ' { vec![c] } else { vec!['\\', c] })
        .collect()
}

impl Searcher for Tv {
    fn run(&self, q: &Query) -> Outcome {
        let searcher = self.reader.searcher();
        let query = self.query(q);
        match q {
            Query::Facet { .. } => {
                let aggs: Aggregations = serde_json::from_value(serde_json::json!(
                    {"k": {"terms": {"field": "keywords", "size": 200}}}))
                .expect("aggregation request");
                let collector = AggregationCollector::from_aggs(aggs, AggContextParams::default());
                let (res, total) = searcher.search(&query, &(collector, Count)).expect("search");
                let res = serde_json::to_value(res).expect("aggregation JSON");
                let sig = res["k"]["buckets"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .take(3)
                    .map(|b| format!("{}:{}", b["key"].as_str().unwrap_or_default(), b["doc_count"]))
                    .collect::<Vec<_>>()
                    .join(",");
                Outcome { total: total as u64, hits: 0, sig }
            }
            Query::SortedFilter { .. } => {
                let top = TopDocs::with_limit(100).order_by_string_fast_field("name_key", Order::Asc);
                let (hits, total) = searcher.search(&query, &(top, Count)).expect("search");
                for (_, addr) in &hits {
                    self.source(&searcher, *addr);
                }
                let sig = hits.iter().take(3).map(|(k, _)| k.clone().unwrap_or_default()).collect::<Vec<_>>().join(",");
                Outcome { total: total as u64, hits: hits.len(), sig }
            }
            _ => {
                let top = TopDocs::with_limit(10).order_by_score();
                let (hits, total) = if self.count {
                    searcher.search(&query, &(top, Count)).expect("search")
                } else {
                    (searcher.search(&query, &top).expect("search"), 0)
                };
                for (_, addr) in &hits {
                    self.source(&searcher, *addr);
                }
                Outcome { total: total as u64, hits: hits.len(), sig: String::new() }
            }
        }
    }

    fn scroll(&self, page: usize, on_page: &mut dyn FnMut(usize)) -> u64 {
        // A cursor over (segment, doc) held between pages, as an ES scroll context is.
        let searcher = self.reader.searcher();
        let mut read = 0;
        let mut in_page = 0;
        for (ord, seg) in searcher.segment_readers().iter().enumerate() {
            for doc in seg.doc_ids_alive() {
                self.source(&searcher, DocAddress::new(ord as u32, doc));
                in_page += 1;
                if in_page == page {
                    read += in_page as u64;
                    on_page(in_page);
                    in_page = 0;
                }
            }
        }
        if in_page > 0 {
            read += in_page as u64;
            on_page(in_page);
        }
        read
    }
}
