//! Explanations and highlights of many query shapes, pinned byte for byte to a recorded
//! file (`tests/golden/explain_highlight.json`). The strings are ES 6.8's; this test keeps
//! them from drifting when the code that produces them moves. `METAGATE_BLESS=1` records
//! the file anew from the current code.

mod common;
use serde_json::{json, Value};

fn engine() -> metagate::Engine {
    let docs = vec![
        (
            "1",
            json!({"title": "BLAST sequence alignment", "body": "Basic local alignment search tool. It finds regions of local similarity between sequences.", "status": "active", "year": 1990, "score": 2.5, "open": true, "created": "2001-02-03", "names": [{"n": "Basic Local Alignment Search Tool"}, {"n": "blastn"}]}),
        ),
        (
            "2",
            json!({"title": "Clustal multiple alignment", "body": "Multiple sequence alignment of protein and nucleotide sequences", "status": "inactive", "year": 1988, "score": 1.0, "open": false, "created": "1999-12-31", "names": [{"n": "ClustalW"}]}),
        ),
        (
            "3",
            json!({"title": "ImageJ", "body": "Image analysis in Java for microscopy images", "status": "active", "year": 1997, "score": 4.0, "open": true, "created": "2010-06-01"}),
        ),
        (
            "4",
            json!({"title": "Bowtie aligner", "body": "An ultrafast memory-efficient short read aligner for sequence data", "status": "Active", "year": 2009, "score": 3.25, "open": true, "created": "2009-03-04", "names": [{"n": "bowtie2"}]}),
        ),
        (
            "5",
            json!({"title": "Genome browser", "body": "Interactive genome sequence browser and alignment viewer", "status": "retired", "year": 2002, "score": 0.5, "open": false, "created": "2002-07-07"}),
        ),
        (
            "6",
            json!({"title": "Sequence search", "body": "local search of sequence databases, local and fast", "status": "active", "year": 2015, "score": 5.0, "open": true, "created": "2015-01-01", "names": [{"n": "seqsearch"}]}),
        ),
    ];
    common::engine_with("pinned", "tools", None, &docs, None)
}

/// (label, query, extra request members)
fn cases() -> Vec<(&'static str, Value, Value)> {
    let hl = json!({"fields": {"*": {}}});
    let hl_all = json!({"require_field_match": false, "fields": {"title": {}, "body": {}, "names.n": {}}});
    vec![
        ("term_text", json!({"term": {"body": "local"}}), json!({})),
        ("term_keyword_boost", json!({"term": {"status.keyword": {"value": "active", "boost": 2}}}), json!({})),
        ("term_numeric", json!({"term": {"year": 1990}}), json!({})),
        ("term_bool", json!({"term": {"open": true}}), json!({})),
        ("term_id", json!({"term": {"_id": "3"}}), json!({})),
        ("terms", json!({"terms": {"status.keyword": ["active", "retired"], "boost": 1.5}}), json!({})),
        ("ids", json!({"ids": {"values": ["1", "2"]}}), json!({})),
        ("range_numeric", json!({"range": {"year": {"gte": 1990, "lt": 2010}}}), json!({})),
        ("range_date", json!({"range": {"created": {"gt": "2000-01-01"}}}), json!({})),
        ("range_keyword", json!({"range": {"status.keyword": {"gte": "a", "lte": "q"}}}), json!({})),
        ("exists_text", json!({"exists": {"field": "names.n"}}), json!({})),
        ("exists_keyword", json!({"exists": {"field": "status.keyword"}}), json!({})),
        ("prefix", json!({"prefix": {"body": "seq"}}), json!({})),
        ("wildcard", json!({"wildcard": {"title": "al*gn*"}}), json!({})),
        ("regexp", json!({"regexp": {"body": "seq.*s"}}), json!({})),
        ("fuzzy_text", json!({"fuzzy": {"body": "sequense"}}), json!({})),
        ("fuzzy_keyword", json!({"fuzzy": {"status.keyword": {"value": "activ", "boost": 3}}}), json!({})),
        ("fuzzy_id", json!({"fuzzy": {"_id": "3"}}), json!({})),
        ("match_one", json!({"match": {"body": "alignment"}}), json!({})),
        ("match_or", json!({"match": {"body": "local sequence"}}), json!({})),
        (
            "match_and",
            json!({"match": {"body": {"query": "local sequence", "operator": "and", "boost": 2}}}),
            json!({}),
        ),
        (
            "match_msm",
            json!({"match": {"body": {"query": "local sequence alignment", "minimum_should_match": "2"}}}),
            json!({}),
        ),
        ("match_fuzzy", json!({"match": {"body": {"query": "alignmnt sequense", "fuzziness": "AUTO"}}}), json!({})),
        ("match_keyword", json!({"match": {"status.keyword": "active"}}), json!({})),
        ("match_keyword_fuzzy", json!({"match": {"status.keyword": {"query": "activ", "fuzziness": 1}}}), json!({})),
        ("match_numeric", json!({"match": {"year": "1997"}}), json!({})),
        ("match_zero_terms", json!({"match": {"body": {"query": "", "zero_terms_query": "all"}}}), json!({})),
        ("match_id", json!({"match": {"_id": "4"}}), json!({})),
        ("phrase", json!({"match_phrase": {"body": "local similarity"}}), json!({})),
        ("phrase_slop", json!({"match_phrase": {"body": {"query": "local sequence", "slop": 3}}}), json!({})),
        ("phrase_one", json!({"match_phrase": {"body": "genome"}}), json!({})),
        ("phrase_prefix", json!({"match_phrase_prefix": {"body": "sequence al"}}), json!({})),
        ("phrase_prefix_one", json!({"match_phrase_prefix": {"body": "seq"}}), json!({})),
        ("phrase_prefix_keyword", json!({"match_phrase_prefix": {"status.keyword": "act"}}), json!({})),
        ("phrase_numeric", json!({"match_phrase": {"year": "2009"}}), json!({})),
        (
            "bool_full",
            json!({"bool": {"must": {"match": {"title": "alignment"}}, "filter": [{"term": {"status": "active"}}, {"range": {"year": {"gte": 1900}}}], "should": {"match": {"body": "local"}}, "must_not": {"term": {"status": "retired"}}, "boost": 2}}),
            json!({}),
        ),
        ("bool_single_must", json!({"bool": {"must": {"match": {"body": "sequence"}}}}), json!({})),
        ("bool_single_should", json!({"bool": {"should": {"match": {"body": "sequence"}}}}), json!({})),
        ("bool_single_filter", json!({"bool": {"filter": {"match": {"body": "sequence"}}}}), json!({})),
        ("bool_empty", json!({"bool": {"boost": 3}}), json!({})),
        ("bool_negative", json!({"bool": {"must_not": {"term": {"status": "active"}}}}), json!({})),
        (
            "bool_should_msm",
            json!({"bool": {"should": [{"term": {"body": "local"}}, {"term": {"body": "sequence"}}, {"term": {"body": "alignment"}}], "minimum_should_match": 2}}),
            json!({}),
        ),
        (
            "bool_filter_scored_kinds",
            json!({"bool": {"filter": [{"match_phrase": {"body": "local search"}}, {"match": {"title": "sequence"}}], "should": {"term": {"status.keyword": "active"}}}}),
            json!({}),
        ),
        (
            "bool_nested",
            json!({"bool": {"should": [{"bool": {"must": [{"term": {"body": "local"}}, {"term": {"body": "search"}}]}}, {"match_all": {}}]}}),
            json!({}),
        ),
        (
            "constant_score",
            json!({"constant_score": {"filter": {"bool": {"must": {"term": {"status": "active"}}, "must_not": {"term": {"year": 1997}}, "should": [{"match": {"title": "blast sequence"}}], "filter": {"range": {"score": {"gte": 1}}}, "minimum_should_match": 1}}, "boost": 1.5}}),
            json!({}),
        ),
        (
            "constant_score_kinds",
            json!({"constant_score": {"filter": {"dis_max": {"queries": [{"match_phrase": {"body": {"query": "local search", "slop": 1}}}, {"multi_match": {"query": "x", "fields": ["title", "body"]}}, {"term": {"year": "2015"}}, {"term": {"status.keyword": "active"}}], "tie_breaker": 0.5}}}}),
            json!({}),
        ),
        (
            "constant_score_more",
            json!({"constant_score": {"filter": {"bool": {"should": [{"boosting": {"positive": {"match_none": {}}, "negative": {"match_all": {}}, "negative_boost": 0.5}}, {"function_score": {"query": {"match_all": {}}}}, {"query_string": {"query": "title:(bowtie OR blast)"}}, {"prefix": {"title": "gen"}}, {"exists": {"field": "year"}}, {"fuzzy": {"title": "genom"}}, {"wildcard": {"title": "ge?ome"}}, {"regexp": {"title": "gen.*"}}, {"ids": {"values": ["5"]}}, {"terms": {"year": [2002, 1990]}}, {"range": {"year": {"gt": 2000}}}, {"match_all": {}}]}}}}),
            json!({}),
        ),
        (
            "constant_score_single_clauses",
            json!({"constant_score": {"filter": {"bool": {"should": [{"bool": {"must": {"term": {"body": "local"}}}}, {"bool": {"filter": {"match": {"body": "sequence"}}}}, {"bool": {"should": {"term": {"body": "search"}}, "minimum_should_match": 1}}, {"bool": {"must_not": {"term": {"status": "retired"}}}}, {"match": {"body": {"query": "", "zero_terms_query": "all"}}}]}}}}),
            json!({}),
        ),
        (
            "function_filter_strings",
            json!({"function_score": {"query": {"match_all": {}}, "functions": [{"filter": {"bool": {"must_not": {"match_phrase": {"body": "local search"}}, "should": [{"dis_max": {"queries": [{"term": {"year": 1990}}]}}, {"match": {"_id": "2"}}]}}, "weight": 2}, {"filter": {"constant_score": {"filter": {"match": {"title": {"query": "blast sequence", "operator": "and"}}}}}, "weight": 3}, {"filter": {"multi_match": {"query": "active", "fields": ["status*", "title"], "type": "phrase"}}, "weight": 4}], "score_mode": "sum"}}),
            json!({}),
        ),
        ("match_all_boost", json!({"match_all": {"boost": 0.5}}), json!({})),
        (
            "dis_max",
            json!({"dis_max": {"tie_breaker": 0.3, "boost": 1.2, "queries": [{"match": {"title": "sequence"}}, {"match": {"body": "sequence"}}]}}),
            json!({}),
        ),
        (
            "dis_max_one",
            json!({"dis_max": {"tie_breaker": 0.3, "queries": [{"match": {"body": "sequence"}}]}}),
            json!({}),
        ),
        (
            "boosting",
            json!({"boosting": {"positive": {"match": {"body": "sequence"}}, "negative": {"term": {"status": "inactive"}}, "negative_boost": 0.2}}),
            json!({}),
        ),
        (
            "multi_best",
            json!({"multi_match": {"query": "sequence alignment", "fields": ["title^2", "body"]}}),
            json!({}),
        ),
        (
            "multi_best_tie",
            json!({"multi_match": {"query": "sequence alignment", "fields": ["title", "body"], "tie_breaker": 0.4}}),
            json!({}),
        ),
        (
            "multi_one_field_tie",
            json!({"multi_match": {"query": "sequence", "fields": ["body"], "tie_breaker": 0.4}}),
            json!({}),
        ),
        (
            "multi_most",
            json!({"multi_match": {"query": "sequence local", "fields": ["title", "body"], "type": "most_fields"}}),
            json!({}),
        ),
        (
            "multi_most_one",
            json!({"multi_match": {"query": "sequence", "fields": ["body"], "type": "most_fields"}}),
            json!({}),
        ),
        (
            "multi_phrase",
            json!({"multi_match": {"query": "sequence alignment", "fields": ["title", "body", "status.keyword"], "type": "phrase", "tie_breaker": 0.2}}),
            json!({}),
        ),
        (
            "multi_phrase_prefix",
            json!({"multi_match": {"query": "sequence al", "fields": ["title", "body"], "type": "phrase_prefix"}}),
            json!({}),
        ),
        (
            "multi_cross",
            json!({"multi_match": {"query": "sequence local active", "fields": ["title", "body", "status.keyword"], "type": "cross_fields"}}),
            json!({}),
        ),
        (
            "multi_cross_and",
            json!({"multi_match": {"query": "sequence local", "fields": ["title", "body"], "type": "cross_fields", "operator": "and", "tie_breaker": 0.3}}),
            json!({}),
        ),
        (
            "multi_cross_one",
            json!({"multi_match": {"query": "sequence", "fields": ["title", "body", "year"], "type": "cross_fields", "lenient": true}}),
            json!({}),
        ),
        ("multi_star", json!({"multi_match": {"query": "active"}}), json!({})),
        (
            "multi_numeric_lenient",
            json!({"multi_match": {"query": "1990", "fields": ["year", "title"], "lenient": true}}),
            json!({}),
        ),
        (
            "function_score_weight",
            json!({"function_score": {"query": {"match": {"body": "sequence"}}, "weight": 2, "boost_mode": "multiply"}}),
            json!({}),
        ),
        (
            "function_score_fvf",
            json!({"function_score": {"query": {"match": {"body": "sequence"}}, "field_value_factor": {"field": "score", "factor": 1.5, "modifier": "log1p", "missing": 1}, "boost_mode": "sum", "max_boost": 3}}),
            json!({}),
        ),
        (
            "function_score_multi",
            json!({"function_score": {"query": {"match_all": {}}, "functions": [{"filter": {"term": {"status": "active"}}, "weight": 3}, {"filter": {"range": {"year": {"gte": 2000}}}, "field_value_factor": {"field": "year", "modifier": "ln"}}, {"random_score": {"seed": 7, "field": "_id"}, "weight": 0.5}], "score_mode": "avg", "boost_mode": "replace"}}),
            json!({}),
        ),
        (
            "function_score_modes",
            json!({"function_score": {"query": {"match": {"title": "alignment"}}, "functions": [{"weight": 2}, {"filter": {"match": {"body": "local"}}, "weight": 4}], "score_mode": "max", "boost_mode": "avg", "min_score": 0.1}}),
            json!({}),
        ),
        (
            "function_score_empty",
            json!({"function_score": {"query": {"match": {"title": "alignment"}}, "boost": 2}}),
            json!({}),
        ),
        (
            "function_score_in_filter",
            json!({"bool": {"must": {"match": {"body": "sequence"}}, "filter": {"function_score": {"query": {"match": {"title": "sequence"}}, "weight": 2}}}}),
            json!({}),
        ),
        ("qs_simple", json!({"query_string": {"query": "body:local OR title:alignment"}}), json!({})),
        (
            "qs_default_fields",
            json!({"query_string": {"query": "local sequence", "fields": ["title", "body"]}}),
            json!({}),
        ),
        (
            "qs_and_not",
            json!({"query_string": {"query": "sequence AND NOT status:retired", "default_field": "body"}}),
            json!({}),
        ),
        ("qs_only_not", json!({"query_string": {"query": "NOT status:retired", "default_field": "body"}}), json!({})),
        (
            "qs_phrase_boost",
            json!({"query_string": {"query": "\"local search\"^2 OR body:fast~1", "default_field": "body"}}),
            json!({}),
        ),
        (
            "qs_wildcards",
            json!({"query_string": {"query": "seq* OR ali?nment OR /gen.*/", "default_field": "body"}}),
            json!({}),
        ),
        ("qs_range", json!({"query_string": {"query": "year:[1990 TO 2000] OR created:>2010-01-01"}}), json!({})),
        (
            "qs_cross",
            json!({"query_string": {"query": "sequence local", "fields": ["title", "body"], "type": "cross_fields", "tie_breaker": 0.2}}),
            json!({}),
        ),
        (
            "qs_cross_mixed",
            json!({"query_string": {"query": "2009 active", "fields": ["title", "status.keyword", "year"], "type": "cross_fields", "lenient": true}}),
            json!({}),
        ),
        (
            "qs_msm",
            json!({"query_string": {"query": "local sequence alignment", "default_field": "body", "minimum_should_match": "2"}}),
            json!({}),
        ),
        ("qs_single_must", json!({"query_string": {"query": "+sequence", "default_field": "body"}}), json!({})),
        ("qs_star", json!({"query_string": {"query": "active"}}), json!({})),
        (
            "qs_analyze_wildcard",
            json!({"query_string": {"query": "local seq*", "default_field": "body", "analyze_wildcard": true}}),
            json!({}),
        ),
        (
            "qs_most_fields",
            json!({"query_string": {"query": "sequence", "fields": ["title", "body"], "type": "most_fields"}}),
            json!({}),
        ),
        (
            "sqs",
            json!({"simple_query_string": {"query": "sequence +local -retired \"local search\" seq* fast~1", "fields": ["title", "body"]}}),
            json!({}),
        ),
        ("uri_like_q", json!({"query_string": {"query": "alignment"}}), json!({})),
        // Highlighting.
        ("hl_match", json!({"match": {"body": "local sequence"}}), json!({"highlight": hl.clone()})),
        ("hl_all_fields", json!({"match": {"title": "alignment"}}), json!({"highlight": hl_all.clone()})),
        (
            "hl_term_raw",
            json!({"bool": {"should": [{"term": {"body": "Local"}}, {"term": {"title": "Search"}}, {"match": {"body": "fast"}}]}}),
            json!({"highlight": hl_all.clone()}),
        ),
        (
            "hl_bool",
            json!({"bool": {"must": {"match": {"title": "alignment"}}, "filter": {"term": {"body": "local"}}, "must_not": {"term": {"body": "protein"}}, "should": {"prefix": {"body": "simil"}}}}),
            json!({"highlight": hl.clone()}),
        ),
        (
            "hl_multi_term",
            json!({"bool": {"should": [{"wildcard": {"body": "al*gn*"}}, {"regexp": {"title": "gen.*"}}, {"fuzzy": {"body": "imag"}}, {"terms": {"status.keyword": ["active"]}}, {"term": {"year": 1997}}]}}),
            json!({"highlight": hl.clone()}),
        ),
        (
            "hl_phrase",
            json!({"match_phrase": {"body": {"query": "local search", "slop": 2}}}),
            json!({"highlight": hl.clone()}),
        ),
        ("hl_phrase_prefix", json!({"match_phrase_prefix": {"body": "sequence al"}}), json!({"highlight": hl.clone()})),
        (
            "hl_phrase_keyword",
            json!({"match_phrase_prefix": {"status.keyword": "act"}}),
            json!({"highlight": hl.clone()}),
        ),
        (
            "hl_multi",
            json!({"multi_match": {"query": "sequence alignment", "fields": ["title", "body"], "type": "phrase"}}),
            json!({"highlight": hl.clone()}),
        ),
        (
            "hl_multi_star_fuzzy",
            json!({"multi_match": {"query": "sequense", "fuzziness": 1}}),
            json!({"highlight": hl_all.clone()}),
        ),
        (
            "hl_cross",
            json!({"multi_match": {"query": "sequence local", "fields": ["title", "body"], "type": "cross_fields"}}),
            json!({"highlight": hl.clone()}),
        ),
        (
            "hl_wrapped",
            json!({"function_score": {"query": {"boosting": {"positive": {"dis_max": {"queries": [{"constant_score": {"filter": {"match": {"body": "image"}}}}, {"match": {"title": "genome"}}]}}, "negative": {"term": {"body": "java"}}, "negative_boost": 0.5}}, "weight": 2}}),
            json!({"highlight": hl.clone()}),
        ),
        (
            "hl_qs",
            json!({"query_string": {"query": "body:(local OR imag*) AND NOT body:protein title:\"sequence search\"", "fields": ["title", "body"]}}),
            json!({"highlight": hl.clone()}),
        ),
        (
            "hl_qs_cross",
            json!({"query_string": {"query": "Sequence local", "fields": ["title", "body"], "type": "cross_fields"}}),
            json!({"highlight": hl.clone()}),
        ),
        (
            "hl_sqs",
            json!({"simple_query_string": {"query": "local \"sequence alignment\" imag* fast~1"}}),
            json!({"highlight": hl.clone()}),
        ),
        (
            "hl_highlight_query",
            json!({"match": {"title": "blast"}}),
            json!({"highlight": {"highlight_query": {"match": {"body": "similarity"}}, "fields": {"body": {}, "title": {"highlight_query": {"wildcard": {"title": "b*"}}}}}}),
        ),
        (
            "hl_id_and_meta",
            json!({"bool": {"should": [{"term": {"_id": "1"}}, {"match": {"_id": "2"}}, {"ids": {"values": ["3"]}}, {"exists": {"field": "body"}}, {"range": {"year": {"gt": 1}}}]}}),
            json!({"highlight": hl.clone()}),
        ),
        (
            "hl_numeric_match",
            json!({"match": {"year": "1990"}}),
            json!({"highlight": {"require_field_match": false, "fields": {"year": {}, "title": {}}}}),
        ),
        ("hl_explain_both", json!({"match": {"body": "alignment"}}), json!({"highlight": hl.clone(), "explain": true})),
        // Highlighting what the search does not run or score.
        (
            "hl_query_failing_to_run",
            json!({"match": {"title": "alignment"}}),
            json!({"highlight": {"require_field_match": false, "highlight_query": {"bool": {"should": [{"term": {"year": "local"}}, {"match": {"body": {"query": "tool", "analyzer": "nope"}}}, {"regexp": {"year": "seq.*"}}]}}, "fields": {"body": {}, "title": {}}}}),
        ),
        (
            "hl_bool_msm_unmet",
            json!({"bool": {"should": [{"bool": {"should": [{"match": {"body": "local"}}], "minimum_should_match": 3}}, {"match": {"title": "alignment"}}]}}),
            json!({"highlight": hl.clone()}),
        ),
        (
            "hl_bool_single_filter",
            json!({"bool": {"filter": {"match": {"body": "local sequence"}}}}),
            json!({"highlight": hl.clone()}),
        ),
        (
            "hl_function_filters",
            json!({"function_score": {"query": {"match": {"title": "alignment"}}, "functions": [{"filter": {"match": {"body": "local"}}, "weight": 2}]}}),
            json!({"highlight": hl.clone()}),
        ),
        (
            "hl_qs_lenient_all_fields",
            json!({"query_string": {"query": "alignment OR sequnce~1 OR seq* OR /loc.*/", "lenient": true}}),
            json!({"highlight": hl_all.clone()}),
        ),
        (
            "hl_qs_cross_mixed",
            json!({"query_string": {"query": "search true", "fields": ["title", "open", "status.keyword"], "type": "cross_fields", "lenient": true}}),
            json!({"highlight": {"require_field_match": false, "fields": {"title": {}, "status.keyword": {}, "body": {}}}}),
        ),
        (
            "hl_phrase_exact_fields",
            json!({"bool": {"should": [{"match_phrase": {"status.keyword": "active"}}, {"match_phrase": {"year": "1990"}}]}}),
            json!({"highlight": {"fields": {"status.keyword": {}, "year": {}}}}),
        ),
        (
            "hl_fuzzy_id_match",
            json!({"bool": {"should": [{"match": {"_id": {"query": "is", "fuzziness": 1}}}, {"match": {"title": "blast"}}]}}),
            json!({"highlight": {"require_field_match": false, "fields": {"body": {}}}}),
        ),
        (
            "hl_multi_star_phrase",
            json!({"multi_match": {"query": "sequence alignment", "type": "phrase_prefix"}}),
            json!({"highlight": hl_all.clone()}),
        ),
    ]
}

fn run(e: &metagate::Engine) -> Value {
    let mut out = serde_json::Map::new();
    for (label, query, extra) in cases() {
        let mut body = json!({"query": query, "size": 10});
        if extra.get("highlight").is_none() || extra.get("explain").is_some() {
            body["explain"] = json!(true);
        }
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let res = match common::search(e, "tools", &body.to_string()) {
            Ok(r) => r,
            Err(err) => {
                out.insert(label.to_string(), json!({"error": err.to_json()}));
                continue;
            }
        };
        let hits: Vec<Value> = res["hits"]["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| json!({"_id": h["_id"], "_score": h["_score"], "_explanation": h.get("_explanation"), "highlight": h.get("highlight")}))
            .collect();
        out.insert(label.to_string(), Value::Array(hits));
    }
    Value::Object(out)
}

#[test]
fn explanations_and_highlights_stay_as_recorded() {
    let e = engine();
    let got = run(&e);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/explain_highlight.json");
    if std::env::var_os("METAGATE_BLESS").is_some() {
        // One line per case: a change shows as the lines of the cases it touches.
        let lines: Vec<String> = got.as_object().unwrap().iter().map(|(k, v)| format!("{}: {}", json!(k), v)).collect();
        std::fs::write(&path, format!("{{\n{}\n}}\n", lines.join(",\n"))).unwrap();
        return;
    }
    let want: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for (label, w) in want.as_object().unwrap() {
        assert_eq!(&got[label], w, "{label}");
    }
    assert_eq!(got.as_object().unwrap().len(), want.as_object().unwrap().len());
}
