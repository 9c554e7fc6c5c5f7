//! Recorded answers: a fixed set of requests asked through every door of one built file —
//! HTTP-level (`Gateway::handle`, with an API key), in process (`Gateway::call` with typed
//! `Call`s), the Rust API (`Engine` methods) and the C ABI (`mg_*`, which the Python
//! package and its in-process Elasticsearch client call) — compared byte for byte with the answers
//! recorded under `tests/golden/doors_*.txt`. It is the safety net of refactors that must
//! not change a byte of any answer: searches (queries, aggregations of every kind, sort,
//! highlight, explain, rescore, `search_after`, source filtering, errors), `_msearch`,
//! `_count`, GET / `_mget` / `_source`, `_mapping`, aliases, `_field_caps`, `_cat`, and
//! scrolls (start, next, clear).
//!
//! Regenerate the files from the current code with `METAGATE_BLESS=1 cargo test --test
//! recorded_answers` (then read the diff: every changed byte is a changed answer).
//!
//! What legitimately varies between two runs over equal files is normalised before the
//! comparison, and only that:
//! - `took` (milliseconds the search took) is written as 0;
//! - scroll ids (random nonces, signed with the file's random secret) become
//!   `<scroll-id>`, and the nonce an unknown scroll's error names `<scroll-nonce>`;
//! - each index's `uuid` and `creation_date` (drawn when the file is built) become
//!   `<uuid:{index}>` and `<created:{index}>`;
//! - the date of a `Warning` header becomes `<date>`.
//!
//! `_cat/count` is asked without its time columns, which are the clock.

// The crate's own error type, returned from closures that chain a parse and a run.
#![allow(clippy::result_large_err)]

mod common;
use metagate::gateway::call::Call;
use metagate::gateway::{keys, Gateway, GatewayConfig, Request, Response};
use metagate::{
    AliasAction, AliasesRequest, CountRequest, Engine, Family, FieldCapsRequest, GetRequest, IndexRequest, LoadOptions,
    MappingRequest, MgetRequest, MsearchRequest, SearchRequest, SourceRequest,
};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::sync::Arc;

/// The seed of the generated tool corpus.
const SEED: u64 = 30;
/// Records of the generated tool corpus.
const TOOLS: u64 = 240;

/// The lab index: few documents with every field type the aggregations read.
fn lab_docs() -> Vec<(String, Value)> {
    let rows = [
        (
            "BLAST sequence alignment",
            "Basic local alignment search tool for sequences",
            "active",
            1990,
            2.5,
            true,
            "2001-02-03",
            &["dna", "protein"][..],
        ),
        (
            "Clustal multiple alignment",
            "Multiple sequence alignment of protein and nucleotide sequences",
            "inactive",
            1988,
            1.0,
            false,
            "1999-12-31",
            &["protein"][..],
        ),
        (
            "ImageJ",
            "Image analysis in Java for microscopy images",
            "active",
            1997,
            4.0,
            true,
            "2010-06-01",
            &["image"][..],
        ),
        (
            "Bowtie aligner",
            "An ultrafast memory-efficient short read aligner for sequence data",
            "Active",
            2009,
            3.25,
            true,
            "2009-03-04",
            &["dna", "reads"][..],
        ),
        (
            "Genome browser",
            "Interactive genome sequence browser and alignment viewer",
            "retired",
            2002,
            0.5,
            false,
            "2002-07-07",
            &["dna", "genome"][..],
        ),
        (
            "FastQC",
            "Quality control checks on raw sequence data",
            "active",
            2010,
            2.0,
            true,
            "2012-01-15",
            &["reads", "qc"][..],
        ),
        (
            "Cytoscape",
            "Network data integration, analysis and visualization",
            "active",
            2003,
            3.75,
            true,
            "2003-11-20",
            &["network"][..],
        ),
        (
            "Samtools",
            "Utilities for reads alignment in the SAM format",
            "active",
            2009,
            4.5,
            true,
            "2009-08-01",
            &["reads", "dna"][..],
        ),
    ];
    let mut docs: Vec<(String, Value)> = rows
        .iter()
        .enumerate()
        .map(|(i, (title, body, status, year, score, open, created, tags))| {
            (
                format!("lab{}", i + 1),
                json!({"title": title, "body": body, "status": status, "year": year, "score": score,
                       "open": open, "created": created, "tags": tags, "names": [{"n": title}]}),
            )
        })
        .collect();
    // Documents with fields missing, for `missing`, `exists` and sort's `missing`.
    docs.push(("lab9".into(), json!({"title": "Untitled draft", "status": "draft"})));
    docs.push(("lab10".into(), json!({"title": "Orphan record", "year": 1975, "tags": []})));
    docs
}

/// The built file, its gateway and an API key for the HTTP-level door.
struct Fixture {
    gateway: Gateway,
    key: String,
    path: std::path::PathBuf,
}

fn fixture() -> Fixture {
    let path = common::temp_file("recorded");
    let engine = Engine::open_or_create(&path).unwrap();
    let model = metagate::gen::Model::from_demo().unwrap();
    let mut tools = Vec::new();
    model.write_bulk(SEED, TOOLS, &mut tools).unwrap();
    let opts = LoadOptions { alias: Some("RIN_Tool_pr".into()), family: Some(Family::Registry), ..Default::default() };
    engine.load("scr_005400-tools-v1", tools.as_slice(), &opts, &mut |_, _| {}).unwrap();
    let opts = LoadOptions { alias: Some("Lab".into()), ..Default::default() };
    engine.load("lab-v1", common::bulk(&lab_docs()).as_bytes(), &opts, &mut |_, _| {}).unwrap();
    engine
        .update_aliases(&[
            AliasAction::Add { alias: "everything".into(), index: "lab-v1".into() },
            AliasAction::Add { alias: "everything".into(), index: "scr_005400-tools-v1".into() },
        ])
        .unwrap();
    let key = keys::add(&engine, "recorder").unwrap();
    let gateway = Gateway::new(Arc::new(engine), GatewayConfig { rate_limit: 0.0, ..Default::default() });
    Fixture { gateway, key, path }
}

/// The search bodies every door asks (index, URL query, body).
fn searches() -> Vec<(&'static str, &'static str, Value)> {
    let mut s: Vec<(&str, &str, Value)> = vec![
        // Queries.
        ("RIN_Tool_pr", "", json!({"query": {"match_all": {}}, "size": 3})),
        ("RIN_Tool_pr", "", json!({"query": {"match": {"item.description": "sequence analysis"}}, "size": 5})),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"match": {"item.description": {"query": "sequence analysis data", "operator": "and"}}}}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"match": {"item.description": {"query": "sequence analysis data tool", "minimum_should_match": "75%"}}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"match": {"item.name": {"query": "anlysis", "fuzziness": "AUTO"}}}, "size": 4}),
        ),
        ("RIN_Tool_pr", "", json!({"query": {"match_phrase": {"item.description": "data analysis"}}, "size": 4})),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"match_phrase": {"item.description": {"query": "analysis data", "slop": 3}}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"match_phrase_prefix": {"item.description": "software for ana"}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"multi_match": {"query": "genome database", "fields": ["item.name^3", "item.description"]}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"multi_match": {"query": "genome database", "fields": ["item.name", "item.description"], "type": "most_fields"}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"multi_match": {"query": "genome database", "fields": ["item.name", "item.description"], "type": "cross_fields", "operator": "and"}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"multi_match": {"query": "data analysis", "fields": ["item.name", "item.description"], "type": "phrase"}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"multi_match": {"query": "data ana", "fields": ["item.description"], "type": "phrase_prefix"}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"bool": {"must": [{"match": {"item.description": "data"}}], "should": [{"match": {"item.name": "database"}}], "must_not": [{"term": {"recordValid": false}}], "filter": [{"range": {"mentions.totalMentions.count": {"gte": 10}}}]}}, "size": 5}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"bool": {"should": [{"match": {"item.description": "genome"}}, {"match": {"item.description": "protein"}}, {"match": {"item.description": "image"}}], "minimum_should_match": 2}}, "size": 5}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"bool": {"filter": {"term": {"item.types.name.aggregate": "software resource"}}}}, "size": 2}),
        ),
        ("RIN_Tool_pr", "", json!({"query": {"term": {"item.identifier.aggregate": "SCR_0000007"}}})),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"terms": {"item.keywords.keyword": ["Bioinformatics", "Genomics", "Proteomics"]}}, "size": 3}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"range": {"mentions.totalMentions.count": {"gt": 100, "lte": 1000}}}, "size": 3, "sort": [{"mentions.totalMentions.count": "desc"}, "_id"]}),
        ),
        ("RIN_Tool_pr", "", json!({"query": {"exists": {"field": "item.keywords"}}, "size": 1})),
        ("RIN_Tool_pr", "", json!({"query": {"prefix": {"item.name.aggregate": "Gen"}}, "size": 3})),
        ("RIN_Tool_pr", "", json!({"query": {"wildcard": {"item.identifier.aggregate": "SCR_000001?"}}, "size": 3})),
        ("RIN_Tool_pr", "", json!({"query": {"regexp": {"item.description": "gen.*e"}}, "size": 3})),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"fuzzy": {"item.description": {"value": "protien", "fuzziness": 2}}}, "size": 3}),
        ),
        ("RIN_Tool_pr", "", json!({"query": {"ids": {"values": ["rrid:scr_0000003", "rrid:scr_0000017", "nope"]}}})),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"query_string": {"query": "item.description:(genome OR protein) AND NOT item.name:database", "default_operator": "and"}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"query_string": {"query": "anal* \"sequence data\"~2 mentions.totalMentions.count:[10 TO 100]"}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"simple_query_string": {"query": "genome +data -protein", "fields": ["item.description", "item.name^2"]}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"dis_max": {"queries": [{"match": {"item.name": "data"}}, {"match": {"item.description": "data"}}], "tie_breaker": 0.3}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"constant_score": {"filter": {"match": {"item.description": "genome"}}, "boost": 1.5}}, "size": 3}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"boosting": {"positive": {"match": {"item.description": "data"}}, "negative": {"match": {"item.description": "image"}}, "negative_boost": 0.2}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"function_score": {"query": {"match": {"item.description": "data"}}, "field_value_factor": {"field": "mentions.totalMentions.count", "modifier": "log1p", "missing": 1}, "boost_mode": "multiply"}}, "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"function_score": {"query": {"match_all": {}}, "functions": [{"filter": {"match": {"item.description": "genome"}}, "weight": 3}, {"filter": {"match": {"item.description": "protein"}}, "weight": 2}], "score_mode": "sum"}}, "size": 4}),
        ),
        ("RIN_Tool_pr", "", json!({"query": {"match_none": {}}})),
        ("RIN_Tool_pr", "q=item.description:genome&size=3", json!(null)),
        ("RIN_Tool_pr", "q=genome%20data&default_operator=AND&df=item.description&size=2", json!(null)),
        ("RIN_Tool_pr", "size=2&from=5&sort=_id:desc", json!(null)),
        ("RIN_Tool_pr", "", json!({"query": {"match": {"item.description": "data"}}, "min_score": 2.0, "size": 2})),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"match": {"item.description": "data"}}, "post_filter": {"term": {"recordValid": true}}, "size": 2}),
        ),
        ("RIN_Tool_pr", "", json!({"query": {"match": {"item.description": "data"}}, "terminate_after": 5, "size": 2})),
        ("RIN_Tool_pr", "", json!({"query": {"match_all": {}}, "track_total_hits": false, "size": 1})),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"match": {"item.description": "data"}}, "from": 3, "size": 3, "version": true}),
        ),
        // Sort and search_after.
        (
            "RIN_Tool_pr",
            "",
            json!({"sort": [{"mentions.totalMentions.count": {"order": "desc"}}, {"item.identifier.aggregate": "asc"}], "size": 4}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"sort": [{"item.name.aggregate": {"order": "asc", "missing": "_first"}}], "size": 3, "_source": ["item.name"]}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"match": {"item.description": "data"}}, "sort": ["_score", {"_id": "asc"}], "size": 3, "track_scores": true}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"sort": [{"mentions.totalMentions.count": "asc"}, {"item.identifier.aggregate": "asc"}], "search_after": [9, "SCR_0000100"], "size": 3}),
        ),
        ("RIN_Tool_pr", "", json!({"sort": ["_doc"], "size": 3, "search_after": [10]})),
        (
            "Lab",
            "",
            json!({"sort": [{"year": {"order": "desc", "missing": "_last"}}, {"score": "asc"}], "_source": false}),
        ),
        (
            "Lab",
            "",
            json!({"sort": [{"created": "asc"}, {"status.keyword": {"order": "desc", "missing": "_first"}}], "size": 4}),
        ),
        (
            "Lab",
            "",
            json!({"sort": [{"tags.keyword": {"order": "asc", "mode": "max"}}], "size": 5, "_source": ["title", "tags"]}),
        ),
        (
            "Lab",
            "",
            json!({"sort": [{"score": {"order": "desc", "missing": 0}}], "size": 3, "docvalue_fields": ["year", "created", "status.keyword"]}),
        ),
        // Source filtering.
        (
            "RIN_Tool_pr",
            "",
            json!({"_source": {"includes": ["item.*"], "excludes": ["item.description", "item.keywords"]}, "size": 2}),
        ),
        ("RIN_Tool_pr", "_source_includes=item.name,rrid&size=2", json!(null)),
        ("RIN_Tool_pr", "_source=false&size=2", json!(null)),
        ("RIN_Tool_pr", "", json!({"_source": "item.identifier", "stored_fields": ["_source"], "size": 2})),
        // Highlight.
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"match": {"item.description": "genome data"}}, "highlight": {"fields": {"item.description": {}}}, "size": 3}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"match_phrase": {"item.description": "data analysis"}}, "highlight": {"pre_tags": ["<b>"], "post_tags": ["</b>"], "fields": {"item.description": {"fragment_size": 40, "number_of_fragments": 2}}}, "size": 3}),
        ),
        (
            "Lab",
            "",
            json!({"query": {"query_string": {"query": "align* OR sequ?nce"}}, "highlight": {"fields": {"*": {"number_of_fragments": 0}}, "require_field_match": false}, "size": 3}),
        ),
        (
            "Lab",
            "",
            json!({"query": {"match": {"body": "alignment"}}, "highlight": {"fields": {"body": {"highlight_query": {"match": {"body": "sequence"}}}, "title": {}}}}),
        ),
        // Explain.
        ("Lab", "", json!({"query": {"match": {"body": "sequence alignment"}}, "explain": true, "size": 2})),
        (
            "Lab",
            "",
            json!({"query": {"bool": {"must": {"match": {"title": "alignment"}}, "filter": {"range": {"year": {"gte": 1980}}}}}, "explain": true, "size": 1}),
        ),
        (
            "Lab",
            "explain=true&size=1",
            json!({"query": {"function_score": {"query": {"match": {"body": "data"}}, "field_value_factor": {"field": "score"}}}}),
        ),
        // Rescore.
        (
            "RIN_Tool_pr",
            "",
            json!({"query": {"match": {"item.description": "data"}}, "rescore": {"window_size": 10, "query": {"rescore_query": {"match_phrase": {"item.description": "data analysis"}}, "query_weight": 0.7, "rescore_query_weight": 1.2}}, "size": 4}),
        ),
        (
            "Lab",
            "",
            json!({"query": {"match": {"body": "sequence"}}, "rescore": [{"window_size": 3, "query": {"rescore_query": {"match": {"title": "alignment"}}, "score_mode": "max"}}]}),
        ),
        // Aggregations.
        (
            "RIN_Tool_pr",
            "",
            json!({"size": 0, "aggs": {"types": {"terms": {"field": "item.types.name.aggregate", "size": 5}}}}),
        ),
        (
            "RIN_Tool_pr",
            "typed_keys",
            json!({"size": 0, "aggs": {"kw": {"terms": {"field": "item.keywords.keyword", "size": 4, "order": {"_key": "asc"}, "min_doc_count": 2}, "aggs": {"m": {"avg": {"field": "mentions.totalMentions.count"}}}}}}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"size": 0, "aggs": {"kw": {"terms": {"field": "item.keywords.keyword", "size": 3, "order": {"m": "desc"}, "include": "B.*", "exclude": ["Biology"]}, "aggs": {"m": {"max": {"field": "mentions.totalMentions.count"}}}}}}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"size": 0, "aggs": {"org": {"terms": {"field": "organisms.related.species.name.aggregate", "missing": "none", "size": 3}}}}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"size": 0, "aggs": {"c": {"composite": {"size": 3, "sources": [{"t": {"terms": {"field": "item.types.name.aggregate"}}}, {"h": {"histogram": {"field": "mentions.totalMentions.count", "interval": 500}}}]}}}}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"size": 0, "aggs": {"c": {"composite": {"size": 2, "sources": [{"t": {"terms": {"field": "item.types.name.aggregate", "order": "desc"}}}], "after": {"t": "software resource"}}}}}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"size": 0, "aggs": {"h": {"histogram": {"field": "mentions.totalMentions.count", "interval": 256, "min_doc_count": 1}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"h": {"histogram": {"field": "score", "interval": 1, "offset": 0.5, "extended_bounds": {"min": -1, "max": 6}, "keyed": true}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"d": {"date_histogram": {"field": "created", "interval": "year", "min_doc_count": 1, "format": "yyyy"}}}}),
        ),
        (
            "RIN_Tool_pr",
            "",
            json!({"size": 0, "query": {"range": {"provenance.ingestTime": {"gte": "2015", "lt": "2020", "format": "yyyy"}}}, "aggs": {"d": {"date_histogram": {"field": "provenance.ingestTime", "interval": "1M", "min_doc_count": 2}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"d": {"date_histogram": {"field": "created", "interval": "quarter", "time_zone": "+05:00", "min_doc_count": 1}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"d": {"date_histogram": {"field": "created", "fixed_interval": "3650d", "extended_bounds": {"min": "1990-01-01", "max": "2020-01-01"}}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"r": {"range": {"field": "year", "ranges": [{"to": 1995}, {"from": 1995, "to": 2005}, {"from": 2005, "key": "recent"}]}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"r": {"range": {"field": "score", "keyed": true, "ranges": [{"to": 2}, {"from": 2}]}, "aggs": {"y": {"stats": {"field": "year"}}}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"r": {"date_range": {"field": "created", "format": "yyyy-MM", "ranges": [{"to": "2000-01"}, {"from": "2000-01", "to": "2010-01"}, {"from": "2010-01"}]}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"f": {"filter": {"term": {"open": true}}, "aggs": {"avg_score": {"avg": {"field": "score"}}}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"f": {"filters": {"filters": {"dna": {"term": {"tags.keyword": "dna"}}, "reads": {"term": {"tags.keyword": "reads"}}}, "other_bucket_key": "rest"}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"f": {"filters": {"filters": [{"match": {"body": "sequence"}}, {"match": {"body": "image"}}]}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"m": {"missing": {"field": "year"}}, "m2": {"missing": {"field": "tags.keyword"}}}}),
        ),
        (
            "Lab",
            "",
            json!({"query": {"term": {"open": true}}, "size": 0, "aggs": {"g": {"global": {}, "aggs": {"n": {"value_count": {"field": "year"}}}}, "n": {"value_count": {"field": "year"}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"s": {"terms": {"field": "status.keyword"}, "aggs": {"top": {"top_hits": {"size": 1, "sort": [{"year": "desc"}], "_source": ["title", "year"]}}}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"card": {"cardinality": {"field": "tags.keyword"}}, "mn": {"min": {"field": "created"}}, "mx": {"max": {"field": "year"}}, "sm": {"sum": {"field": "score"}}, "av": {"avg": {"field": "score"}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"st": {"stats": {"field": "score"}}, "ex": {"extended_stats": {"field": "year"}}, "pc": {"percentiles": {"field": "score", "percents": [10, 50, 99]}}}}),
        ),
        (
            "Lab",
            "typed_keys",
            json!({"size": 0, "aggs": {"y": {"histogram": {"field": "year", "interval": 10}, "aggs": {"t": {"terms": {"field": "tags.keyword"}}, "p": {"percentiles": {"field": "score"}}}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"o": {"terms": {"field": "open"}}, "y": {"terms": {"field": "year", "size": 3, "order": {"_count": "asc"}}}}}),
        ),
        (
            "Lab",
            "",
            json!({"size": 0, "aggs": {"with_meta": {"terms": {"field": "status.keyword"}, "meta": {"owner": "lab"}}}}),
        ),
        ("everything", "", json!({"size": 0, "aggs": {"idx": {"terms": {"field": "_index"}}}})),
        ("everything", "", json!({"query": {"match": {"_all": "sequence"}}, "size": 2})),
        (
            "Lab,RIN_Tool_pr",
            "",
            json!({"query": {"multi_match": {"query": "alignment", "fields": ["body", "item.description"]}}, "size": 3}),
        ),
        ("lab-*", "", json!({"query": {"match_all": {}}, "size": 1})),
        ("Lab", "", json!({"query": {"match_all": {}}, "slice": {"id": 0, "max": 2}})),
        // Errors.
        ("RIN_Tool_pr", "", json!({"query": {"bogus": {}}})),
        ("RIN_Tool_pr", "", json!({"query": {"match": {"item.description": {"query": "x", "nope": 1}}}})),
        ("RIN_Tool_pr", "", json!({"aggs": {"x": {"terms": {"field": "item.name.aggregate", "size": -1}}}})),
        ("RIN_Tool_pr", "", json!({"aggs": {"x": {"scripted_metric": {}}}})),
        ("RIN_Tool_pr", "", json!({"suggest": {"s": {"text": "genme", "term": {"field": "item.description"}}}})),
        ("RIN_Tool_pr", "", json!({"query": {"query_string": {"query": "item.description:(genome"}}})),
        ("RIN_Tool_pr", "", json!({"query": {"range": {"mentions.totalMentions.count": {"gte": "abc"}}}})),
        ("RIN_Tool_pr", "", json!({"from": 9999, "size": 10})),
        ("RIN_Tool_pr", "", json!({"search_after": [1], "size": 2})),
        ("RIN_Tool_pr", "", json!({"sort": [{"item.description": "asc"}]})),
        ("RIN_Tool_pr", "", json!({"script_fields": {"x": {"script": "1"}}})),
        ("no_such_index", "", json!({"query": {"match_all": {}}})),
        ("no_such_*", "", json!({"query": {"match_all": {}}})),
        ("RIN_Tool_pr", "size=abc", json!(null)),
    ];
    // A body that is not JSON.
    s.push(("RIN_Tool_pr", "", Value::String("{\"query\": {".into())));
    s
}

/// The text of a search body (a JSON string stands for raw text).
fn body_text(body: &Value) -> String {
    match body {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Everything that varies between two equal runs, replaced (see the module docs).
struct Normaliser {
    replacements: Vec<(String, String)>,
}

impl Normaliser {
    fn new(gateway: &Gateway) -> Normaliser {
        let mut replacements = Vec::new();
        // Each index's uuid and creation date, as GET {index} reports them.
        let r = gateway.handle_in_process(&Request::local("GET", "/_all", "", ""));
        let v: Value = serde_json::from_slice(&r.body).unwrap();
        for (name, index) in v.as_object().unwrap() {
            let settings = &index["settings"]["index"];
            replacements.push((settings["uuid"].as_str().unwrap().to_string(), format!("<uuid:{name}>")));
            replacements.push((settings["creation_date"].as_str().unwrap().to_string(), format!("<created:{name}>")));
        }
        Normaliser { replacements }
    }

    fn text(&self, body: &[u8]) -> String {
        let mut s = String::from_utf8_lossy(body).into_owned();
        for (from, to) in &self.replacements {
            s = s.replace(from.as_str(), to);
        }
        // Also inside a JSON string (an answer's bytes recorded as text).
        for member in ["\"took\":", "\"took\" : ", "\\\"took\\\":"] {
            s = zero_number_after(&s, member);
        }
        for member in ["\"_scroll_id\":\"", "\"_scroll_id\" : \""] {
            s = replace_after(&s, member, '"', "<scroll-id>");
        }
        s = replace_after(&s, "No search context found for id [", ']', "<scroll-nonce>");
        s
    }

    fn header(&self, name: &str, value: &str) -> String {
        if name.eq_ignore_ascii_case("Warning") {
            // `299 Elasticsearch-... "message" "Fri, 27 Nov 2026 04:00:00 GMT"`
            if let Some(at) = value.rfind(" \"") {
                return format!("{} \"<date>\"", &value[..at]);
            }
        }
        value.to_string()
    }
}

/// `s` with the number after each `member` written as 0.
fn zero_number_after(s: &str, member: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find(member) {
        out.push_str(&rest[..at + member.len()]);
        rest = &rest[at + member.len()..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        out.push('0');
        rest = &rest[digits..];
    }
    out.push_str(rest);
    out
}

/// `s` with what follows each `member` up to `end` replaced by `with`.
fn replace_after(s: &str, member: &str, end: char, with: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find(member) {
        out.push_str(&rest[..at + member.len()]);
        rest = &rest[at + member.len()..];
        let end = rest.find(end).unwrap_or(rest.len());
        out.push_str(with);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The value of `_scroll_id` in an answer.
fn scroll_id_of(body: &[u8]) -> String {
    let v: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    v["_scroll_id"].as_str().unwrap_or("").to_string()
}

/// One door's record: each request and its answer, as text.
struct Record<'a> {
    norm: &'a Normaliser,
    out: String,
    count: usize,
}

impl<'a> Record<'a> {
    fn new(norm: &'a Normaliser) -> Record<'a> {
        Record { norm, out: String::new(), count: 0 }
    }

    fn ask(&mut self, request: &str, body: &str) {
        self.count += 1;
        let _ = writeln!(self.out, "### {} {}", self.count, request);
        if !body.is_empty() {
            let _ = writeln!(self.out, "{}", body.trim_end());
        }
    }

    fn response(&mut self, r: &Response, headers: bool) {
        let _ = writeln!(self.out, "--- {}", r.status);
        if headers {
            for (k, v) in &r.headers {
                let _ = writeln!(self.out, "{k}: {}", self.norm.header(k, v));
            }
        }
        let _ = writeln!(self.out, "{}\n", self.norm.text(&r.body));
    }

    fn result<T: serde::Serialize>(&mut self, r: metagate::Result<T>) {
        match r {
            Ok(v) => {
                let text = serde_json::to_string(&v).unwrap();
                let _ = writeln!(self.out, "--- ok\n{}\n", self.norm.text(text.as_bytes()));
            }
            Err(e) => {
                let _ = writeln!(
                    self.out,
                    "--- error {}\n{}\n",
                    e.status,
                    self.norm.text(e.to_json().to_string().as_bytes())
                );
            }
        }
    }
}

/// The HTTP-level door: `Gateway::handle` with the API key in a header.
fn handle_door(f: &Fixture, norm: &Normaliser) -> (String, usize) {
    let mut rec = Record::new(norm);
    let ask = |rec: &mut Record, method: &str, path: &str, body: &str| -> Response {
        let mut headers = vec![("apikey".to_string(), f.key.clone())];
        if !body.is_empty() {
            let ct = if path.contains("_msearch") { "application/x-ndjson" } else { "application/json" };
            headers.push(("Content-Type".to_string(), ct.to_string()));
        }
        let shown = path.replace(&f.key, "<key>");
        rec.ask(&format!("{method} {shown}"), body);
        let r = f.gateway.handle(&Request {
            method: method.into(),
            path: format!("/elastic/v1{path}"),
            headers,
            body: body.as_bytes().to_vec(),
        });
        rec.response(&r, true);
        r
    };
    for (index, query, body) in searches() {
        let q = if query.is_empty() { String::new() } else { format!("?{query}") };
        let method = if body.is_null() { "GET" } else { "POST" };
        ask(&mut rec, method, &format!("/{index}/_search{q}"), &body_text(&body));
    }
    // Rendering: pretty, filter_path, HEAD; the root.
    ask(&mut rec, "GET", "/RIN_Tool_pr/_search?q=genome&size=2&pretty", "");
    ask(&mut rec, "GET", "/RIN_Tool_pr/_search?q=genome&size=2&filter_path=hits.hits._id,hits.total", "");
    ask(
        &mut rec,
        "GET",
        "/RIN_Tool_pr/_search?q=genome&size=1&error_trace=true&pretty=true&filter_path=-hits.hits._source",
        "",
    );
    ask(&mut rec, "HEAD", "/RIN_Tool_pr/_search?size=1", "");
    ask(&mut rec, "GET", "/", "");
    ask(&mut rec, "GET", "/RIN_Tool_pr/rin/_search?size=1&q=genome", "");
    ask(&mut rec, "GET", "/RIN_Tool_pr/other/_search?size=1", "");
    // _count.
    ask(&mut rec, "GET", "/RIN_Tool_pr/_count", "");
    ask(&mut rec, "GET", "/RIN_Tool_pr/_count?q=item.description:genome", "");
    ask(&mut rec, "POST", "/Lab/_count", r#"{"query":{"range":{"year":{"gte":2000}}}}"#);
    ask(&mut rec, "GET", "/_count?terminate_after=3", "");
    ask(&mut rec, "POST", "/RIN_Tool_pr/_count", r#"{"size":0}"#);
    ask(&mut rec, "POST", "/RIN_Tool_pr/_count?q=x", r#"{"query":{"match_all":{}}}"#);
    ask(&mut rec, "GET", "/missing/_count", "");
    // _msearch.
    let msearch = concat!(
        "{}\n{\"query\":{\"match\":{\"item.description\":\"genome\"}},\"size\":2}\n",
        "{\"index\":\"Lab\"}\n{\"size\":0,\"aggs\":{\"t\":{\"terms\":{\"field\":\"tags.keyword\"}}}}\n",
        "{\"index\":\"nope\"}\n{\"query\":{\"match_all\":{}}}\n",
        "{}\n{\"query\":{\"range\":{\"mentions.totalMentions.count\":{\"gte\":\"abc\"}}}}\n",
        "{\"index\":\"Lab\",\"search_type\":\"query_then_fetch\"}\n{\"query\":{\"match\":{\"body\":\"alignment\"}},\"highlight\":{\"fields\":{\"body\":{}}},\"size\":1}\n"
    );
    ask(&mut rec, "POST", "/RIN_Tool_pr/_msearch", msearch);
    ask(
        &mut rec,
        "POST",
        "/_msearch?typed_keys",
        "{\"index\":\"Lab\"}\n{\"size\":0,\"aggs\":{\"a\":{\"avg\":{\"field\":\"score\"}}}}\n",
    );
    ask(&mut rec, "POST", "/_msearch", "{\"index\":\"Lab\"}\n");
    ask(&mut rec, "POST", "/Lab/_msearch?max_concurrent_searches=1", "{}\n{\"size\":1}\n{\"bogus\":1}\n{\"size\":1}\n");
    // Documents.
    ask(&mut rec, "GET", "/RIN_Tool_pr/rin/rrid:scr_0000004", "");
    ask(&mut rec, "GET", "/RIN_Tool_pr/_doc/rrid:scr_0000004?_source_includes=item.name", "");
    ask(&mut rec, "GET", "/Lab/_doc/lab3?_source=false", "");
    ask(&mut rec, "GET", "/Lab/_doc/lab99", "");
    ask(&mut rec, "GET", "/Lab/_doc/lab3?version=7", "");
    ask(&mut rec, "GET", "/Lab/_doc/lab3?fields=title", "");
    ask(&mut rec, "HEAD", "/Lab/_doc/lab3", "");
    ask(&mut rec, "GET", "/nope/_doc/x", "");
    ask(&mut rec, "GET", "/Lab/_doc/lab2/_source", "");
    ask(&mut rec, "GET", "/Lab/_doc/lab2/_source?_source_excludes=body,names", "");
    ask(&mut rec, "GET", "/Lab/_doc/lab99/_source", "");
    ask(&mut rec, "POST", "/Lab/_mget", r#"{"ids":["lab1","lab99","lab4"]}"#);
    ask(
        &mut rec,
        "POST",
        "/_mget",
        r#"{"docs":[{"_index":"Lab","_id":"lab5","_source":["title"]},{"_index":"RIN_Tool_pr","_type":"rin","_id":"rrid:scr_0000009"},{"_index":"nope","_id":"1"}]}"#,
    );
    ask(&mut rec, "POST", "/_mget", r#"{"docs":[{"_id":"1"}]}"#);
    ask(&mut rec, "POST", "/Lab/_mget", r#"{"bogus":[]}"#);
    // Mapping, index, aliases, field_caps.
    ask(&mut rec, "GET", "/Lab/_mapping", "");
    ask(&mut rec, "GET", "/Lab/_mapping?include_type_name=false", "");
    ask(&mut rec, "GET", "/RIN_Tool_pr/_mapping/rin", "");
    ask(&mut rec, "GET", "/Lab/_mapping/nothing", "");
    ask(&mut rec, "HEAD", "/Lab/_mapping", "");
    ask(
        &mut rec,
        "GET",
        "/_mapping?include_type_name=false&filter_path=*.mappings.properties.item.properties.name",
        "",
    );
    ask(&mut rec, "GET", "/lab-v1", "");
    ask(&mut rec, "GET", "/_all", "");
    ask(&mut rec, "HEAD", "/Lab", "");
    ask(&mut rec, "HEAD", "/nope", "");
    ask(&mut rec, "GET", "/nope", "");
    ask(&mut rec, "GET", "/_alias", "");
    ask(&mut rec, "GET", "/_alias/Lab", "");
    ask(&mut rec, "GET", "/lab-v1/_alias", "");
    ask(&mut rec, "GET", "/_alias/nothing*,Lab", "");
    ask(&mut rec, "GET", "/_alias/nothing", "");
    ask(&mut rec, "HEAD", "/_alias/everything", "");
    ask(&mut rec, "GET", "/_aliases", "");
    ask(&mut rec, "GET", "/Lab/_field_caps?fields=year,title,created,open,score,tags*", "");
    ask(&mut rec, "GET", "/_field_caps?fields=item.name*", "");
    ask(&mut rec, "POST", "/Lab/_field_caps", r#"{"fields":["status*"]}"#);
    ask(&mut rec, "GET", "/Lab/_field_caps", "");
    // _cat.
    ask(&mut rec, "GET", "/_cat/aliases", "");
    ask(&mut rec, "GET", "/_cat/aliases?v&format=json", "");
    ask(&mut rec, "GET", "/_cat/aliases/ever*?v&h=alias,index", "");
    ask(&mut rec, "GET", "/_cat/indices?v&h=index,docs.count,health&s=index", "");
    ask(&mut rec, "GET", "/_cat/indices/Lab?format=json&h=index,pri,rep,docs.count", "");
    ask(&mut rec, "GET", "/_cat/indices?help", "");
    ask(&mut rec, "GET", "/_cat/count/Lab?ts=false&v", "");
    ask(&mut rec, "GET", "/_cat/count?h=count&format=json", "");
    ask(&mut rec, "GET", "/_cat/indices?h=bogus", "");
    // Scroll: start, next, next without keep-alive, clear, then a cleared id.
    let started = ask(
        &mut rec,
        "POST",
        "/RIN_Tool_pr/_search?scroll=1m",
        r#"{"size":4,"sort":["_doc"],"_source":["item.identifier"]}"#,
    );
    let id = scroll_id_of(&started.body);
    let body = |keep: Option<&str>| match keep {
        Some(k) => json!({"scroll_id": id, "scroll": k}).to_string(),
        None => json!({"scroll_id": id}).to_string(),
    };
    let shown = |rec: &mut Record, method: &str, body: &str| rec.ask(method, &body.replace(&id, "<scroll-id>"));
    for keep in [Some("1m"), Some("30s"), None] {
        shown(&mut rec, "POST /_search/scroll", &body(keep));
        let r = f.gateway.handle(&keyed(&f.key, "POST", "/_search/scroll", &body(keep)));
        rec.response(&r, true);
    }
    shown(&mut rec, "DELETE /_search/scroll", &json!({"scroll_id": [id]}).to_string());
    let r = f.gateway.handle(&keyed(&f.key, "DELETE", "/_search/scroll", &json!({"scroll_id": [id]}).to_string()));
    rec.response(&r, true);
    shown(&mut rec, "POST /_search/scroll", &body(Some("1m")));
    let r = f.gateway.handle(&keyed(&f.key, "POST", "/_search/scroll", &body(Some("1m"))));
    rec.response(&r, true);
    ask(&mut rec, "POST", "/Lab/_search?scroll=1m&size=3", r#"{"query":{"match_all":{}},"slice":{"id":1,"max":2}}"#);
    ask(&mut rec, "POST", "/_search/scroll", r#"{"scroll_id":"not-an-id","scroll":"1m"}"#);
    ask(&mut rec, "POST", "/_search/scroll", r#"{"scroll":"1m"}"#);
    ask(&mut rec, "DELETE", "/_search/scroll", r#"{"scroll_id":["_all"]}"#);
    ask(&mut rec, "POST", "/Lab/_search?scroll=2d", r#"{"size":1}"#);
    // Gateway errors.
    ask(&mut rec, "GET", "/RIN_Tool_pr/_search?bogus=1", "");
    ask(&mut rec, "GET", "/RIN_Tool_pr/_search?sze=1", "");
    ask(&mut rec, "DELETE", "/RIN_Tool_pr", "");
    ask(&mut rec, "PUT", "/RIN_Tool_pr/_doc/1", r#"{"a":1}"#);
    ask(&mut rec, "PATCH", "/RIN_Tool_pr/_search", "");
    ask(&mut rec, "GET", "/RIN_Tool_pr/_nothing_here", "");
    ask(&mut rec, "GET", "/RIN_Tool_pr/_search?df=x", "");
    let r = f.gateway.handle(&Request::local("GET", "/RIN_Tool_pr/_search", "size=1", ""));
    rec.ask("GET /RIN_Tool_pr/_search?size=1 (no key)", "");
    rec.response(&r, true);
    let mut bad = keyed("not-a-key", "GET", "/RIN_Tool_pr/_search", "");
    bad.path.push_str("?size=1");
    rec.ask("GET /RIN_Tool_pr/_search?size=1 (unknown key)", "");
    rec.response(&f.gateway.handle(&bad), true);
    let mut plain = keyed(&f.key, "POST", "/RIN_Tool_pr/_search", "{}");
    plain.headers.retain(|(k, _)| k != "Content-Type");
    plain.headers.push(("Content-Type".into(), "text/plain".into()));
    rec.ask("POST /RIN_Tool_pr/_search (text/plain)", "{}");
    rec.response(&f.gateway.handle(&plain), true);
    (rec.out, rec.count)
}

/// A request with the API key (and a JSON Content-Type when it has a body).
fn keyed(key: &str, method: &str, path: &str, body: &str) -> Request {
    let mut headers = vec![("apikey".to_string(), key.to_string())];
    if !body.is_empty() {
        headers.push(("Content-Type".to_string(), "application/json".to_string()));
    }
    Request { method: method.into(), path: format!("/elastic/v1{path}"), headers, body: body.as_bytes().to_vec() }
}

/// The in-process door: typed `Call`s through `Gateway::call`.
fn call_door(f: &Fixture, norm: &Normaliser) -> String {
    let mut rec = Record::new(norm);
    // Each call is titled by its door's arguments.
    let ask = |rec: &mut Record, title: String, call: Call| -> Response {
        rec.ask(&title, "");
        let r = f.gateway.call(call);
        rec.response(&r, false);
        r
    };
    let search = |rec: &mut Record, index: &str, query: &str, body: &str| {
        let title = format!("Search {{ index: {index:?}, query: {query:?}, body: {body:?} }}");
        ask(rec, title, Call::search(index, query, body));
    };
    for (index, query, body) in searches() {
        search(&mut rec, index, query, &body_text(&body));
    }
    search(&mut rec, "RIN_Tool_pr", "q=genome&size=1&pretty", "");
    search(&mut rec, "Lab", "filter_path=hits.hits._id", "");
    for (index, query, body) in [
        ("RIN_Tool_pr", "", ""),
        ("RIN_Tool_pr", "q=item.description:genome", ""),
        ("Lab", "", r#"{"query":{"term":{"open":true}}}"#),
        ("Lab", "", r#"{"query":{"bogus":{}}}"#),
        ("nope", "", ""),
        ("_all", "terminate_after=2", ""),
    ] {
        let title = format!("Count {{ index: {index:?}, query: {query:?}, body: {body:?} }}");
        ask(&mut rec, title, Call::count(index, query, body));
    }
    let ms = "{}\n{\"size\":1}\n{\"index\":\"Lab\"}\n{\"query\":{\"match\":{\"body\":\"sequence\"}},\"size\":2}\n{\"index\":\"nope\"}\n{}\n";
    for (index, query, body) in [
        (Some("RIN_Tool_pr"), "", ms),
        (None, "typed_keys", "{\"index\":\"Lab\"}\n{\"size\":0,\"aggs\":{\"s\":{\"stats\":{\"field\":\"year\"}}}}\n"),
        (None, "", "not json\n{}\n"),
    ] {
        let title = format!("Msearch {{ index: {index:?}, query: {query:?}, body: {body:?} }}");
        ask(&mut rec, title, Call::msearch(index, query, body));
    }
    for (index, doc_type, id, query) in [
        ("Lab", "_doc", "lab1", ""),
        ("Lab", "_doc", "lab1", "_source_excludes=body"),
        ("RIN_Tool_pr", "rin", "rrid:scr_0000011", "_source=item.name,rrid"),
        ("Lab", "_doc", "missing", ""),
        ("nope", "_doc", "lab1", ""),
        ("Lab", "_doc", "lab1", "stored_fields=title"),
        ("Lab", "_doc", "a/b c", ""),
    ] {
        let title = format!("Get {{ index: {index:?}, doc_type: {doc_type:?}, id: {id:?}, query: {query:?} }}");
        ask(&mut rec, title, Call::get(index, doc_type, id, query));
    }
    for (index, query, body) in [
        (Some("Lab"), "", r#"{"ids":["lab2","lab3","zzz"]}"#),
        (None, "_source=false", r#"{"docs":[{"_index":"Lab","_id":"lab2"}]}"#),
        (None, "", r#"{"docs":[]}"#),
    ] {
        let title = format!("Mget {{ index: {index:?}, query: {query:?}, body: {body:?} }}");
        ask(&mut rec, title, Call::mget(index, query, body));
    }
    for (index, query) in [
        (Some("Lab"), ""),
        (Some("Lab"), "include_type_name=false"),
        (Some("nope"), ""),
        (None, "filter_path=*.mappings.rin.properties.recordValid"),
    ] {
        ask(&mut rec, format!("Mapping {{ index: {index:?}, query: {query:?} }}"), Call::mapping(index, query));
    }
    let scroll_start = |rec: &mut Record, index: &str, keep_alive: &str, body: &str| -> Response {
        let title = format!("ScrollStart {{ index: {index:?}, keep_alive: {keep_alive:?}, body: {body:?} }}");
        ask(rec, title, Call::scroll_start(index, keep_alive, body))
    };
    let started = scroll_start(&mut rec, "Lab", "1m", r#"{"size":3,"sort":["_doc"]}"#);
    let id = scroll_id_of(&started.body);
    for keep in [Some("1m"), Some("1m"), None] {
        let title = format!("ScrollNext {{ scroll_id: <scroll-id>, keep_alive: {keep:?} }}");
        ask(&mut rec, title, Call::scroll_next(&id, keep));
    }
    for _ in 0..2 {
        ask(&mut rec, "ClearScroll { ids: [<scroll-id>] }".into(), Call::clear_scroll(vec![id.clone()]));
    }
    let title = "ScrollNext { scroll_id: <scroll-id>, keep_alive: Some(\"1m\") }".to_string();
    ask(&mut rec, title, Call::scroll_next(&id, Some("1m")));
    scroll_start(&mut rec, "RIN_Tool_pr", "10x", "");
    ask(&mut rec, "ScrollNext { scroll_id: \"garbage\", keep_alive: None }".into(), Call::scroll_next("garbage", None));
    for ids in [vec![], vec!["_all".to_string()]] {
        ask(&mut rec, format!("ClearScroll {{ ids: {ids:?} }}"), Call::clear_scroll(ids));
    }
    rec.out
}

/// The Rust API: `Engine` methods, their `Value`s or errors written as JSON.
fn rust_door(f: &Fixture, norm: &Normaliser) -> String {
    let e = f.gateway.engine();
    let mut rec = Record::new(norm);
    let params = |q: &str| -> Vec<(String, String)> {
        q.split('&')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                (k.to_string(), v.to_string())
            })
            .collect()
    };
    for (index, query, body) in searches() {
        let body = body_text(&body);
        rec.ask(&format!("search_with {index} {query}"), &body);
        rec.result(common::search_with(e, index, &body, &params(query)));
    }
    rec.ask("search Lab", r#"{"size":1}"#);
    rec.result(common::search(e, "Lab", r#"{"size":1}"#));
    rec.ask("search_response Lab", r#"{"size":2,"query":{"match":{"body":"sequence"}}}"#);
    rec.result(
        SearchRequest::from_body(r#"{"size":2,"query":{"match":{"body":"sequence"}}}"#)
            .and_then(|r| e.search_request("Lab", &r, Default::default()))
            .map(|r| String::from_utf8(r.to_bytes()).unwrap()),
    );
    for (index, types, body, q) in [
        ("RIN_Tool_pr", vec![], "", ""),
        ("Lab", vec![], r#"{"query":{"match":{"body":"sequence"}}}"#, ""),
        ("Lab", vec!["_doc".to_string()], "", "q=open:true"),
        ("Lab", vec!["other".to_string()], "", ""),
        ("nope", vec![], "", ""),
        ("Lab", vec![], r#"{"size":1}"#, ""),
    ] {
        rec.ask(&format!("count {index} {types:?} {q}"), body);
        rec.result(CountRequest::parse(body, &params(q), &types).and_then(|r| e.count(index, &r)).map(|c| c.to_json()));
    }
    let ms = "{}\n{\"size\":1,\"query\":{\"match\":{\"body\":\"image\"}}}\n{\"index\":\"RIN_Tool_pr\"}\n{\"size\":0,\"aggs\":{\"t\":{\"terms\":{\"field\":\"item.types.name.aggregate\",\"size\":2}}}}\n";
    rec.ask("msearch Lab", ms);
    rec.result(MsearchRequest::parse(Some("Lab"), &[], ms, &[]).and_then(|r| e.msearch(r).to_value()));
    rec.ask("msearch -", "{}\n");
    rec.result(MsearchRequest::parse(None, &[], "{}\n", &[]).and_then(|r| e.msearch(r).to_value()));
    for (index, doc_type, id, q) in [
        ("Lab", "_doc", "lab4", ""),
        ("Lab", "_doc", "lab4", "_source_includes=title,year"),
        ("Lab", "_doc", "nothing", ""),
        ("nope", "_doc", "lab4", ""),
        ("RIN_Tool_pr", "rin", "rrid:scr_0000001", "version=1"),
        ("Lab", "_doc", "lab4", "fields=x"),
    ] {
        rec.ask(&format!("get_document {index} {doc_type} {id} {q}"), "");
        match GetRequest::parse(index, doc_type, id, &params(q)) {
            Ok(req) => rec.result(e.get_document(&req).and_then(|r| Ok((r.status(), r.to_json()?)))),
            Err(err) => rec.result::<()>(Err(err)),
        }
    }
    rec.ask("get_source Lab _doc lab6", "");
    rec.result(e.get_source(&SourceRequest::parse("Lab", "_doc", "lab6", &[])).and_then(|r| r.to_json()));
    rec.ask("get_source Lab _doc none", "");
    rec.result(e.get_source(&SourceRequest::parse("Lab", "_doc", "none", &[])).and_then(|r| r.to_json()));
    rec.ask("mget Lab", r#"{"ids":["lab7","lab8","x"]}"#);
    let mget = |index, body| MgetRequest::parse(index, None, body, &[]).and_then(|r| e.mget(&r)?.to_json());
    rec.result(mget(Some("Lab"), r#"{"ids":["lab7","lab8","x"]}"#));
    rec.ask("mget -", r#"{"ids":["lab7"]}"#);
    rec.result(mget(None, r#"{"ids":["lab7"]}"#));
    for (index, types, q) in [
        (Some("Lab"), None, ""),
        (Some("RIN_Tool_pr"), Some("rin"), "include_type_name=false"),
        (None, Some("zz*"), ""),
        (Some("nope"), None, ""),
    ] {
        rec.ask(&format!("get_mapping {index:?} {types:?} {q}"), "");
        let answer = MappingRequest::parse(index, types, &params(q)).and_then(|r| e.get_mapping(&r));
        rec.result(answer.map(|r| (r.status(), r.to_json())));
    }
    for (index, fields) in [
        (Some("Lab"), vec!["*"]),
        (None, vec!["year", "item.identifier*", "mentions.*"]),
        (Some("Lab"), vec![]),
        (Some("nope"), vec!["x"]),
    ] {
        rec.ask(&format!("field_caps {index:?} {fields:?}"), "");
        let fields: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
        let req = FieldCapsRequest { index: index.map(str::to_string), fields, indices: Default::default() };
        rec.result(e.field_caps(&req).map(|r| r.to_json()));
    }
    for (index, names) in [(None, None), (Some("lab-v1"), None), (None, Some("ever*")), (None, Some("nothing"))] {
        rec.ask(&format!("get_aliases {index:?} {names:?}"), "");
        let answer = AliasesRequest::parse(index, names, &[]).and_then(|r| e.get_aliases(&r));
        rec.result(answer.map(|r| (r.status(), r.to_json())));
    }
    for index in ["Lab", "nope", "lab-*"] {
        rec.ask(&format!("index_exists {index}"), "");
        rec.result(IndexRequest::parse(index, &[]).and_then(|r| e.index_exists(&r)));
    }
    rec.ask("aliases", "");
    rec.result(e.aliases());
    rec.ask("aliases_json", "");
    rec.result(e.aliases_json());
    rec.ask("indices (name, docs, aliases, generation)", "");
    rec.result(
        e.indices().map(|v| v.into_iter().map(|i| (i.name, i.docs, i.aliases, i.generation)).collect::<Vec<_>>()),
    );
    rec.ask("scroll_start Lab 1m", r#"{"size":4,"sort":["_doc"]}"#);
    let started = common::scroll_start(e, "Lab", r#"{"size":4,"sort":["_doc"]}"#, &[], "1m");
    let id = started.as_ref().ok().and_then(|v| v["_scroll_id"].as_str()).unwrap_or("").to_string();
    rec.result(started);
    for keep in [Some("1m"), None] {
        rec.ask(&format!("scroll_next <scroll-id> {keep:?}"), "");
        rec.result(common::scroll_next(e, &id, keep));
    }
    rec.ask("clear_scroll [<scroll-id>]", "");
    rec.result(e.clear_scroll(std::slice::from_ref(&id), None));
    rec.ask("scroll_next <scroll-id> 1m", "");
    rec.result(common::scroll_next(e, &id, Some("1m")));
    rec.ask("scroll_start RIN_Tool_pr 1m with params", "");
    rec.result(common::scroll_start(e, "RIN_Tool_pr", "", &params("q=genome&size=2&_source=item.name"), "1m"));
    rec.ask("scroll_start_typed Lab [other] 1m", "");
    rec.result(common::scroll_start_typed(e, "Lab", &["other".to_string()], "", &[], "1m"));
    rec.ask("scroll_start Lab 3d", "");
    rec.result(common::scroll_start(e, "Lab", "", &[], "3d"));
    rec.ask("clear_scroll [_all]", "");
    rec.result(e.clear_scroll(&["_all".to_string()], None));
    rec.ask("scroll_iter Lab (every hit)", r#"{"size":3,"sort":["_doc"]}"#);
    let hits: metagate::Result<Vec<Value>> =
        e.scroll_iter(common::scroll_request("Lab", r#"{"size":3,"sort":["_doc"]}"#, "1m")).collect();
    rec.result(hits);
    rec.ask("analyze standard", "BLAST-2.0 sequence_alignment Tool's");
    rec.result(metagate::analyze("standard", "BLAST-2.0 sequence_alignment Tool's"));
    rec.ask("analyze nope", "x");
    rec.result(metagate::analyze("nope", "x"));
    rec.out
}

/// The C ABI's functions this test calls (`include/metagate.h`).
mod c_abi {
    use std::ffi::{c_char, c_void};
    extern "C" {
        pub fn mg_open(path: *const c_char, mode: i32, out: *mut *mut c_void, err: *mut *mut c_char) -> i32;
        pub fn mg_close(h: *mut c_void);
        pub fn mg_search_uri(
            h: *const c_void,
            index: *const c_char,
            body: *const c_char,
            params: *const c_char,
            out: *mut *mut c_char,
        ) -> i32;
        pub fn mg_count(
            h: *const c_void,
            index: *const c_char,
            body: *const c_char,
            params: *const c_char,
            out: *mut *mut c_char,
        ) -> i32;
        pub fn mg_msearch(
            h: *const c_void,
            index: *const c_char,
            body: *const c_char,
            params: *const c_char,
            out: *mut *mut c_char,
        ) -> i32;
        pub fn mg_get(
            h: *const c_void,
            index: *const c_char,
            doc_type: *const c_char,
            id: *const c_char,
            params: *const c_char,
            out: *mut *mut c_char,
        ) -> i32;
        pub fn mg_mget(
            h: *const c_void,
            index: *const c_char,
            body: *const c_char,
            params: *const c_char,
            out: *mut *mut c_char,
        ) -> i32;
        pub fn mg_get_mapping(
            h: *const c_void,
            index: *const c_char,
            params: *const c_char,
            out: *mut *mut c_char,
        ) -> i32;
        pub fn mg_scroll_start(
            h: *const c_void,
            index: *const c_char,
            body: *const c_char,
            keep_alive: *const c_char,
            out: *mut *mut c_char,
        ) -> i32;
        pub fn mg_scroll_next(
            h: *const c_void,
            scroll_id: *const c_char,
            keep_alive: *const c_char,
            out: *mut *mut c_char,
        ) -> i32;
        pub fn mg_scroll_clear(h: *const c_void, ids_json: *const c_char, out: *mut *mut c_char) -> i32;
        pub fn mg_indices(h: *const c_void, out: *mut *mut c_char) -> i32;
        pub fn mg_aliases(h: *const c_void, out: *mut *mut c_char) -> i32;
        #[allow(clippy::too_many_arguments)]
        pub fn mg_gateway_local(
            h: *const c_void,
            method: *const c_char,
            path: *const c_char,
            headers_json: *const c_char,
            body: *const u8,
            body_len: usize,
            out_headers: *mut *mut c_char,
            out_body: *mut *mut u8,
            out_body_len: *mut usize,
        ) -> i32;
        pub fn mg_string_free(s: *mut c_char);
        pub fn mg_bytes_free(p: *mut u8, len: usize);
    }
}

/// A C string argument; `None` is NULL.
struct CArg(Option<std::ffi::CString>);

impl CArg {
    fn of(s: Option<&str>) -> CArg {
        CArg(s.map(|s| std::ffi::CString::new(s).unwrap()))
    }

    fn ptr(&self) -> *const std::ffi::c_char {
        self.0.as_ref().map_or(std::ptr::null(), |c| c.as_ptr())
    }
}

/// Takes a string the C ABI returned (and frees it).
unsafe fn take_c_string(p: *mut std::ffi::c_char) -> String {
    if p.is_null() {
        return "<null>".to_string();
    }
    let s = std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned();
    c_abi::mg_string_free(p);
    s
}

/// The C ABI: the same file opened with `mg_open` and asked through the `mg_*` functions.
fn c_door(path: &std::path::Path, norm: &Normaliser) -> String {
    use std::ffi::c_void;
    let mut rec = Record::new(norm);
    let a = |s: &str| CArg::of(Some(s));
    let none = || CArg::of(None);
    let mut handle: *mut c_void = std::ptr::null_mut();
    let mut err: *mut std::ffi::c_char = std::ptr::null_mut();
    let file = a(path.to_str().unwrap());
    // SAFETY: valid C strings and writable out pointers, as mg_open asks.
    let status = unsafe { c_abi::mg_open(file.ptr(), 0, &mut handle, &mut err) };
    assert_eq!(status, 0, "mg_open: {}", unsafe { take_c_string(err) });
    let h = handle as *const c_void;
    // Each call: its record line, then the status and the string it returned.
    let answer = |rec: &mut Record, what: String, body: &str, f: &dyn Fn(*mut *mut std::ffi::c_char) -> i32| {
        rec.ask(&what, body);
        let mut out: *mut std::ffi::c_char = std::ptr::null_mut();
        let status = f(&mut out);
        // SAFETY: `out` was set by the call (or left NULL).
        let text = unsafe { take_c_string(out) };
        let _ = writeln!(rec.out, "--- {status}\n{}\n", norm.text(text.as_bytes()));
        text
    };
    for (index, query, body) in searches().into_iter().step_by(3) {
        let body = body_text(&body);
        let (i, b, q) = (a(index), a(&body), a(query));
        // SAFETY (every call below): valid C strings or NULL where the header allows it,
        // a live handle and a writable out pointer.
        answer(&mut rec, format!("mg_search_uri {index} {query}"), &body, &|out| unsafe {
            c_abi::mg_search_uri(h, i.ptr(), b.ptr(), q.ptr(), out)
        });
    }
    let (i, nb, nq) = (a("Lab"), none(), none());
    answer(&mut rec, "mg_search_uri Lab NULL NULL".into(), "", &|out| unsafe {
        c_abi::mg_search_uri(h, i.ptr(), nb.ptr(), nq.ptr(), out)
    });
    for (index, body, query) in [
        ("Lab", "", "q=open:true"),
        ("RIN_Tool_pr", r#"{"query":{"match":{"item.description":"genome"}}}"#, ""),
        ("nope", "", ""),
    ] {
        let (i, b, q) = (a(index), a(body), a(query));
        answer(&mut rec, format!("mg_count {index} {query}"), body, &|out| unsafe {
            c_abi::mg_count(h, i.ptr(), b.ptr(), q.ptr(), out)
        });
    }
    let ms = "{}\n{\"size\":1}\n{\"index\":\"nope\"}\n{}\n";
    let (i, b, q) = (a("Lab"), a(ms), a("typed_keys"));
    answer(&mut rec, "mg_msearch Lab typed_keys".into(), ms, &|out| unsafe {
        c_abi::mg_msearch(h, i.ptr(), b.ptr(), q.ptr(), out)
    });
    for (index, id, query) in
        [("Lab", "lab5", ""), ("Lab", "lab5", "_source_includes=title"), ("Lab", "zzz", ""), ("nope", "x", "")]
    {
        let (i, t, d, q) = (a(index), a("_doc"), a(id), a(query));
        answer(&mut rec, format!("mg_get {index} _doc {id} {query}"), "", &|out| unsafe {
            c_abi::mg_get(h, i.ptr(), t.ptr(), d.ptr(), q.ptr(), out)
        });
    }
    let (ni, b, q) = (none(), a(r#"{"docs":[{"_index":"Lab","_id":"lab1"},{"_index":"Lab","_id":"none"}]}"#), none());
    answer(
        &mut rec,
        "mg_mget NULL".into(),
        r#"{"docs":[{"_index":"Lab","_id":"lab1"},{"_index":"Lab","_id":"none"}]}"#,
        &|out| unsafe { c_abi::mg_mget(h, ni.ptr(), b.ptr(), q.ptr(), out) },
    );
    for (index, query) in [
        (Some("Lab"), ""),
        (Some("nope"), ""),
        (None, "include_type_name=false&filter_path=*.mappings.properties.year"),
    ] {
        let (i, q) = (CArg::of(index), a(query));
        answer(&mut rec, format!("mg_get_mapping {index:?} {query}"), "", &|out| unsafe {
            c_abi::mg_get_mapping(h, i.ptr(), q.ptr(), out)
        });
    }
    answer(&mut rec, "mg_indices".into(), "", &|out| unsafe { c_abi::mg_indices(h, out) });
    answer(&mut rec, "mg_aliases".into(), "", &|out| unsafe { c_abi::mg_aliases(h, out) });
    let (i, b, k) = (a("Lab"), a(r#"{"size":4,"sort":["_doc"]}"#), a("1m"));
    let started = answer(&mut rec, "mg_scroll_start Lab 1m".into(), r#"{"size":4,"sort":["_doc"]}"#, &|out| unsafe {
        c_abi::mg_scroll_start(h, i.ptr(), b.ptr(), k.ptr(), out)
    });
    let id = scroll_id_of(started.as_bytes());
    let (sid, k, nk) = (a(&id), a("1m"), none());
    answer(&mut rec, "mg_scroll_next <scroll-id> 1m".into(), "", &|out| unsafe {
        c_abi::mg_scroll_next(h, sid.ptr(), k.ptr(), out)
    });
    answer(&mut rec, "mg_scroll_next <scroll-id> NULL".into(), "", &|out| unsafe {
        c_abi::mg_scroll_next(h, sid.ptr(), nk.ptr(), out)
    });
    let ids = a(&json!([id]).to_string());
    answer(&mut rec, "mg_scroll_clear [<scroll-id>]".into(), "", &|out| unsafe {
        c_abi::mg_scroll_clear(h, ids.ptr(), out)
    });
    answer(&mut rec, "mg_scroll_clear [<scroll-id>]".into(), "", &|out| unsafe {
        c_abi::mg_scroll_clear(h, ids.ptr(), out)
    });
    let bad = a("[1]");
    answer(&mut rec, "mg_scroll_clear [1]".into(), "", &|out| unsafe { c_abi::mg_scroll_clear(h, bad.ptr(), out) });
    // Raw requests, as the Python package's in-process Elasticsearch client sends them.
    for (method, path, body) in [
        ("GET", "/elastic/v1/Lab/_search?q=title:alignment&size=1", ""),
        (
            "POST",
            "/elastic/v1/RIN_Tool_pr/_search",
            r#"{"size":0,"aggs":{"k":{"terms":{"field":"item.keywords.keyword","size":3}}}}"#,
        ),
        ("GET", "/elastic/v1/_cat/indices?h=index,docs.count&s=index", ""),
        ("GET", "/elastic/v1/_alias", ""),
        ("HEAD", "/elastic/v1/Lab", ""),
        ("GET", "/elastic/v1/Lab/_field_caps?fields=year", ""),
        ("DELETE", "/elastic/v1/Lab", ""),
        ("GET", "/elastic/v1/nothing/here/at/all", ""),
    ] {
        rec.ask(&format!("mg_gateway_local {method} {path}"), body);
        let (m, p) = (a(method), a(path));
        let headers = a(if body.is_empty() { "{}" } else { r#"{"Content-Type":"application/json"}"# });
        let (mut out_headers, mut out_body, mut out_len) = (std::ptr::null_mut(), std::ptr::null_mut(), 0usize);
        // SAFETY: as the header asks: C strings, `body.len()` readable bytes, writable outs.
        let status = unsafe {
            c_abi::mg_gateway_local(
                h,
                m.ptr(),
                p.ptr(),
                headers.ptr(),
                body.as_ptr(),
                body.len(),
                &mut out_headers,
                &mut out_body,
                &mut out_len,
            )
        };
        // SAFETY: the outs were set by the call; the body is `out_len` bytes (or NULL).
        let (headers, bytes) = unsafe {
            let bytes =
                if out_body.is_null() { Vec::new() } else { std::slice::from_raw_parts(out_body, out_len).to_vec() };
            if !out_body.is_null() {
                c_abi::mg_bytes_free(out_body, out_len);
            }
            (take_c_string(out_headers), bytes)
        };
        let _ = writeln!(rec.out, "--- {status}\n{headers}\n{}\n", norm.text(&bytes));
    }
    // SAFETY: the handle came from mg_open and is closed once.
    unsafe { c_abi::mg_close(handle) };
    rec.out
}

/// Compares `actual` with the recorded file `name` (or records it, when blessing);
/// returns a failure message.
fn compare(name: &str, actual: &str) -> Option<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name);
    if std::env::var("METAGATE_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, actual).unwrap();
        return None;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected == actual {
        return None;
    }
    let actual_path = std::env::temp_dir().join(format!("metagate-{name}"));
    std::fs::write(&actual_path, actual).unwrap();
    // The first record that differs, to read without a diff tool.
    let records = |s: &str| s.split("\n### ").map(str::to_string).collect::<Vec<_>>();
    let (e, a) = (records(&expected), records(actual));
    let first = e.iter().zip(&a).position(|(x, y)| x != y).unwrap_or(e.len().min(a.len()));
    Some(format!(
        "{name}: answers differ from the recorded ones (this run's answers: {}).\nfirst difference, recorded:\n### {}\nnow:\n### {}",
        actual_path.display(),
        e.get(first).map(String::as_str).unwrap_or("<none>"),
        a.get(first).map(String::as_str).unwrap_or("<none>"),
    ))
}

#[test]
fn every_door_answers_as_recorded() {
    let f = fixture();
    let norm = Normaliser::new(&f.gateway);
    let (handle, asked) = handle_door(&f, &norm);
    let call = call_door(&f, &norm);
    let rust = rust_door(&f, &norm);
    // The C ABI opens the file itself, once this process's other engine has closed it.
    let path = f.path.clone();
    drop(f);
    let c = c_door(&path, &norm);
    let records = |text: &str| text.matches("\n### ").count() + 1;
    let total = asked + records(&call) + records(&rust) + records(&c);
    assert!(total >= 200, "only {total} requests recorded");
    let failures: Vec<String> =
        [("doors_handle.txt", &handle), ("doors_call.txt", &call), ("doors_rust.txt", &rust), ("doors_c.txt", &c)]
            .into_iter()
            .filter_map(|(name, text)| compare(name, text))
            .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
