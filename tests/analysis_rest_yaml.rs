//! ES 6.8's REST tests for `_analyze` (rest-api-spec `indices.analyze/10_analyze.yml`,
//! analysis-common's `indices.analyze/10_synonyms.yml`) and for the analysis-common module
//! (`analysis-common/20_analyzers.yml`, `30_tokenizers.yml`, `40_token_filters.yml`,
//! `50_char_filters.yml`; `search.query/20_ngram_search.yml`, `40_query_string.yml`,
//! `50_queries_with_synonyms.yml` (its match test), `60_synonym_graph.yml`), translated for
//! the components and queries metagate runs. An `indices.create` with `settings.analysis`
//! becomes an analysis registry of those settings or an index of that body; 6.8's answers
//! are kept where the YAML of a later version differs (a too big `max_ngram_diff` is a
//! deprecation warning in 6.8, not an error).

// `metagate::Error` carries an ES exception tree: large, and only on cold paths.
#![allow(clippy::result_large_err)]

mod common;

use metagate::{AnalyzeRequest, Engine};
use serde_json::{json, Value};

/// `_analyze` without an index, answered as JSON.
fn analyze_request(body: &str) -> metagate::Result<Value> {
    metagate::analyze_request(&AnalyzeRequest::parse(body)?).map(|r| r.to_json())
}

/// `_analyze` with an index's `analysis` settings, answered as JSON.
fn analyze_request_with_analysis(analysis: &Value, body: &str) -> metagate::Result<Value> {
    metagate::analyze_request_with_analysis(analysis, &AnalyzeRequest::parse(body)?).map(|r| r.to_json())
}

/// `_analyze` on an index of `engine`, answered as JSON.
fn analyze_index(engine: &Engine, index: &str, body: Value) -> metagate::Result<Value> {
    engine.analyze(Some(index), &AnalyzeRequest::parse(&body.to_string())?).map(|r| r.to_json())
}

fn analyze(body: Value) -> Value {
    analyze_request(&body.to_string()).unwrap_or_else(|e| panic!("{body}: {}", e.reason()))
}

fn analyze_on(analysis: Value, body: Value) -> Value {
    analyze_request_with_analysis(&analysis, &body.to_string()).unwrap_or_else(|e| panic!("{body}: {}", e.reason()))
}

fn terms(v: &Value) -> Vec<&str> {
    v["tokens"].as_array().unwrap().iter().map(|t| t["token"].as_str().unwrap()).collect()
}

#[test]
fn basic() {
    assert_eq!(terms(&analyze(json!({"text": "Foo Bar"}))), ["foo", "bar"]);
}

#[test]
fn index_and_field() {
    let engine = common::engine_with("yaml-analyze", "test", None, &[("1", json!({"text": "x"}))], None);
    let v = analyze_index(&engine, "test", json!({"field": "text", "text": "Foo Bar!"})).unwrap();
    assert_eq!(terms(&v), ["foo", "bar"]);
    let e = analyze_index(&engine, "nope", json!({"text": "a"})).unwrap_err();
    assert_eq!(e.kind(), "index_not_found_exception");
}

#[test]
fn array_text() {
    let v = analyze(json!({"text": ["Foo Bar", "Baz"], "tokenizer": "standard"}));
    assert_eq!(terms(&v), ["Foo", "Bar", "Baz"]);
}

#[test]
fn detail_response_with_analyzer() {
    let v = analyze(json!({"text": "This is troubled", "analyzer": "standard", "explain": true}));
    let d = &v["detail"]["analyzer"];
    assert_eq!(d["name"], "standard");
    let tokens: Vec<&str> = d["tokens"].as_array().unwrap().iter().map(|t| t["token"].as_str().unwrap()).collect();
    assert_eq!(tokens, ["this", "is", "troubled"]);
}

#[test]
fn custom_filter_in_request() {
    let v = analyze(json!({"text": "foo bar buzz", "tokenizer": "standard", "explain": true,
                           "filter": [{"type": "stop", "stopwords": ["foo", "buzz"]}]}));
    let d = &v["detail"];
    assert_eq!(d["tokenizer"]["name"], "standard");
    assert_eq!(d["tokenizer"]["tokens"].as_array().unwrap().len(), 3);
    assert_eq!(d["tokenizer"]["tokens"][2]["token"], "buzz");
    assert_eq!(d["tokenfilters"][0]["name"], "_anonymous_tokenfilter");
    assert_eq!(d["tokenfilters"][0]["tokens"].as_array().unwrap().len(), 1);
    assert_eq!(d["tokenfilters"][0]["tokens"][0]["token"], "bar");
}

#[test]
fn custom_normalizer_in_request() {
    let v = analyze(json!({"text": "ABc", "explain": true, "filter": ["lowercase"]}));
    let d = &v["detail"];
    assert_eq!(d["tokenizer"]["tokens"][0]["token"], "ABc");
    assert_eq!(d["tokenfilters"][0]["name"], "lowercase");
    assert_eq!(d["tokenfilters"][0]["tokens"][0]["token"], "abc");
    let e = analyze_request(&json!({"text": "ABc", "explain": true, "char_filter": ["html_strip"]}).to_string())
        .unwrap_err();
    assert_eq!((e.status, e.kind()), (400, "illegal_argument_exception"));
    assert_eq!(e.reason(), "Custom normalizer may not use char filter [html_strip]");
}

#[test]
fn tokenizers() {
    assert_eq!(terms(&analyze(json!({"text": "Foo Bar!", "tokenizer": "keyword"}))), ["Foo Bar!"]);
    let v =
        analyze(json!({"text": "good", "explain": true, "tokenizer": {"type": "nGram", "min_gram": 2, "max_gram": 2}}));
    assert_eq!(v["detail"]["tokenizer"]["name"], "_anonymous_tokenizer");
    let t: Vec<&str> =
        v["detail"]["tokenizer"]["tokens"].as_array().unwrap().iter().map(|t| t["token"].as_str().unwrap()).collect();
    assert_eq!(t, ["go", "oo", "od"]);
    // 6.8 warns where 7.x refuses.
    let v = analyze(json!({"text": "good", "tokenizer": {"type": "nGram", "min_gram": 2, "max_gram": 4}}));
    assert_eq!(terms(&v), ["go", "goo", "good", "oo", "ood", "od"]);
    let v = analyze(
        json!({"text": "a6bf fooo ff61", "tokenizer": {"type": "simple_pattern", "pattern": "[abcdef0123456789]{4}"}}),
    );
    assert_eq!(terms(&v), ["a6bf", "ff61"]);
    let v = analyze(json!({"text": "foo==bar", "tokenizer": {"type": "simple_pattern_split", "pattern": "=="}}));
    assert_eq!(terms(&v), ["foo", "bar"]);
}

#[test]
fn token_filters() {
    let kw = |filter: Value, text: &str| analyze(json!({"text": text, "tokenizer": "keyword", "filter": filter}));
    assert_eq!(terms(&kw(json!(["asciifolding"]), "Musée d'Orsay")), ["Musee d'Orsay"]);
    let v = kw(json!([{"type": "asciifolding", "preserve_original": true}]), "Musée d'Orsay");
    assert_eq!(terms(&v), ["Musee d'Orsay", "Musée d'Orsay"]);
    assert_eq!(terms(&kw(json!(["lowercase"]), "Foo Bar!")), ["foo bar!"]);
    let v = analyze(json!({"text": "This is troubled", "tokenizer": "standard", "filter": ["porter_stem"]}));
    assert_eq!((v["tokens"][2]["token"].as_str(), v["tokens"][2]["position"].as_i64()), (Some("troubl"), Some(2)));
    let v = analyze(json!({"text": "This is troubled", "tokenizer": "standard",
                           "filter": [{"type": "keyword_marker", "keywords": "troubled"}, {"type": "porter_stem"}]}));
    assert_eq!((v["tokens"][2]["token"].as_str(), v["tokens"][2]["position"].as_i64()), (Some("troubled"), Some(2)));
    let v = analyze(
        json!({"text": "This is troubled", "tokenizer": "standard", "filter": ["porter_stem"], "explain": true}),
    );
    let t = &v["detail"]["tokenfilters"][0]["tokens"][2];
    assert_eq!(
        (&t["token"], &t["position"], &t["positionLength"], &t["keyword"]),
        (&json!("troubl"), &json!(2), &json!(1), &json!(false))
    );
    assert!(t["bytes"].is_string());
    assert_eq!(terms(&kw(json!(["trim"]), "Foo Bar !")), ["Foo Bar !"]);
    let v = analyze(json!({"text": "Foo Foo Bar!", "tokenizer": "whitespace", "filter": ["unique"]}));
    assert_eq!(terms(&v), ["Foo", "Bar!"]);
    assert_eq!(terms(&kw(json!(["uppercase"]), "foobar")), ["FOOBAR"]);
    assert_eq!(terms(&kw(json!(["reverse"]), "foobar")), ["raboof"]);
    assert_eq!(terms(&kw(json!(["cjk_width"]), "ｶﾀｶﾅ")), ["カタカナ"]);
}

#[test]
fn token_filters_of_index_settings() {
    let on = |filter: Value, tokenizer: &str, text: &str| {
        analyze_on(json!({"filter": {"my": filter}}), json!({"text": text, "tokenizer": tokenizer, "filter": ["my"]}))
    };
    assert_eq!(terms(&on(json!({"type": "length", "min": 6}), "whitespace", "foo bar foobar")), ["foobar"]);
    assert_eq!(
        terms(&on(json!({"type": "ngram", "min_gram": 3, "max_gram": 3}), "keyword", "foobar")),
        ["foo", "oob", "oba", "bar"]
    );
    assert_eq!(
        terms(&on(json!({"type": "edge_ngram", "min_gram": 3, "max_gram": 6}), "keyword", "foobar")),
        ["foo", "foob", "fooba", "foobar"]
    );
    assert_eq!(terms(&on(json!({"type": "reverse"}), "keyword", "foobar")), ["raboof"]);
    let elision = json!({"type": "elision", "articles": ["l", "m", "t", "qu", "n", "s", "j"]});
    assert_eq!(terms(&on(elision, "keyword", "l'avion")), ["avion"]);
    assert_eq!(terms(&on(json!({"type": "truncate", "length": 3}), "keyword", "foobar")), ["foo"]);
    assert_eq!(
        terms(&on(json!({"type": "pattern_replace", "pattern": "a", "replacement": "b"}), "keyword", "a")),
        ["b"]
    );
    assert_eq!(terms(&on(json!({"type": "limit", "max_token_count": 2}), "whitespace", "a b c")), ["a", "b"]);
}

#[test]
fn components_metagate_does_not_run_are_refused() {
    for filter in ["german_stem", "dictionary_decompounder", "hunspell"] {
        let e =
            analyze_request(&json!({"text": "a", "tokenizer": "keyword", "filter": [filter]}).to_string()).unwrap_err();
        assert_eq!(e.kind(), "illegal_argument_exception");
        assert!(e.reason().contains("not supported by metagate"), "{filter}: {}", e.reason());
    }
    let e = analyze_request(&json!({"text": "a", "tokenizer": "keyword", "filter": ["nope"]}).to_string()).unwrap_err();
    assert_eq!(e.reason(), "failed to find global token filter under [nope]");
}

#[test]
fn normalizer_of_index_settings() {
    let analysis =
        json!({"normalizer": {"my_normalizer": {"type": "custom", "filter": ["lowercase", "asciifolding"]}}});
    let v = analyze_on(analysis.clone(), json!({"text": "ÀbC Déf", "normalizer": "my_normalizer"}));
    assert_eq!(terms(&v), ["abc def"]);
    let e =
        analyze_request_with_analysis(&analysis, &json!({"text": "a", "normalizer": "nope"}).to_string()).unwrap_err();
    assert_eq!(e.reason(), "failed to find normalizer under [nope]");
}

#[test]
fn analyses_that_would_explode_stop_with_an_error() {
    // 1-to-1000-grams of 20,000 characters would be ~20 million tokens.
    let text = "abcdefghij".repeat(2000);
    let body = json!({"text": text, "tokenizer": {"type": "ngram", "min_gram": 1, "max_gram": 1000}});
    let e = analyze_request(&body.to_string()).unwrap_err();
    assert_eq!(e.kind(), "illegal_argument_exception");
    assert!(e.reason().starts_with("The analysis produced more than"), "{}", e.reason());
    let body = json!({"text": "x".repeat(10000), "tokenizer": "keyword",
                      "char_filter": [{"type": "pattern_replace", "pattern": "x", "replacement": "y".repeat(40000)}]});
    assert!(analyze_request(&body.to_string()).is_err());
}

/// analysis-common `50_char_filters.yml` "html_strip" (`read_ahead` is ignored, as ES 6.8
/// ignores settings a component does not read).
#[test]
fn html_strip_char_filter() {
    let v = analyze(json!({"text": "<html>test<yyy>foo</yyy></html>", "tokenizer": "keyword",
                           "char_filter": [{"type": "html_strip", "escaped_tags": ["xxx", "yyy"], "read_ahead": 1024}]}));
    assert_eq!(terms(&v), ["\ntest<yyy>foo</yyy>\n"]);
}

/// analysis-common `30_tokenizers.yml` "classic", and the `classic` filter after it.
#[test]
fn classic_tokenizer_and_filter() {
    for tokenizer in [json!("classic"), json!({"type": "classic"})] {
        let v = analyze(json!({"text": "Brown-Foxes don't jump.", "tokenizer": tokenizer}));
        assert_eq!(terms(&v), ["Brown", "Foxes", "don't", "jump"]);
    }
    let v = analyze(json!({"text": "I.B.M. O'Reilly's", "tokenizer": "classic", "filter": ["classic"]}));
    assert_eq!(terms(&v), ["IBM", "O'Reilly"]);
    assert_eq!(v["tokens"][1]["type"], "<APOSTROPHE>");
    let e = analyze_request(&json!({"text": "a", "tokenizer": {"type": "classic", "max_token_length": 0}}).to_string())
        .unwrap_err();
    assert_eq!(e.reason(), "maxTokenLength must be greater than zero");
}

/// The `pattern_capture` filter: the original, then every capture group stacked on it.
#[test]
fn pattern_capture_filter() {
    let v = analyze(json!({"text": "abc123def", "tokenizer": "keyword",
                           "filter": [{"type": "pattern_capture", "patterns": ["([a-z]+)", "(\\d+)"]}]}));
    assert_eq!(terms(&v), ["abc123def", "abc", "123", "def"]);
    assert_eq!(v["tokens"][3]["position"], 0);
    let e = analyze_request(
        &json!({"text": "a", "tokenizer": "keyword", "filter": [{"type": "pattern_capture"}]}).to_string(),
    )
    .unwrap_err();
    assert_eq!(e.reason(), "required setting 'patterns' is missing for token filter [_anonymous_tokenfilter]");
}

/// The `common_grams` filter (ES's reference example), in index and query mode.
#[test]
fn common_grams_filter() {
    let filter = json!({"type": "common_grams", "common_words": ["the", "is", "a"]});
    let v = analyze(json!({"text": "the quick fox is brown", "tokenizer": "whitespace", "filter": [filter]}));
    assert_eq!(terms(&v), ["the", "the_quick", "quick", "fox", "fox_is", "is", "is_brown", "brown"]);
    assert_eq!((&v["tokens"][1]["type"], &v["tokens"][1]["position"]), (&json!("gram"), &json!(0)));
    let filter = json!({"type": "common_grams", "common_words": ["the", "is", "a"], "query_mode": true});
    let v = analyze(json!({"text": "the quick fox is brown", "tokenizer": "whitespace", "filter": [filter]}));
    assert_eq!(terms(&v), ["the_quick", "quick", "fox_is", "is_brown"]);
    let e = analyze_request(
        &json!({"text": "a", "tokenizer": "keyword", "filter": [{"type": "common_grams"}]}).to_string(),
    )
    .unwrap_err();
    assert_eq!(
        e.reason(),
        "missing or empty [common_words] or [common_words_path] configuration for common_grams token filter"
    );
}

/// The `cjk_bigram` filter (ES's reference example).
#[test]
fn cjk_bigram_filter() {
    let v = analyze(json!({"text": "東京都は、日本の首都であり", "tokenizer": "standard", "filter": ["cjk_bigram"]}));
    assert_eq!(terms(&v), ["東京", "京都", "都は", "日本", "本の", "の首", "首都", "都で", "であ", "あり"]);
    assert_eq!(v["tokens"][0]["type"], "<DOUBLE>");
}

/// Markup or joined words that would make the scanners look ahead quadratically stop
/// with an error, or finish, in bounded time.
#[test]
fn scanners_do_not_run_quadratically() {
    let started = std::time::Instant::now();
    let markup = "<b <!--#".repeat(20_000);
    let body = json!({"text": markup, "tokenizer": "keyword", "char_filter": ["html_strip"]});
    match analyze_request(&body.to_string()) {
        Ok(v) => assert_eq!(v["tokens"].as_array().map(Vec::len), Some(1)),
        Err(e) => assert!(e.reason().starts_with("[html_strip] the text's markup needs too much"), "{}", e.reason()),
    }
    for (words, tokens) in [("a-".repeat(100_000), 100_000), ("a.1@".repeat(50_000), 50_000)] {
        let body = json!({"text": words, "tokenizer": "classic"});
        match analyze_request(&body.to_string()) {
            Ok(v) => assert!(v["tokens"].as_array().map(Vec::len) <= Some(tokens)),
            Err(e) => assert_eq!(e.kind(), "illegal_argument_exception", "{}", e.reason()),
        }
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "{:?}", started.elapsed());
}

/// The `standard_html_strip` analyzer, deprecated in 6.8 (a warning, tested with the
/// definitions) but still run.
#[test]
fn standard_html_strip_analyzer() {
    let v = analyze(json!({"text": "<p>The <b>Quick</b> &amp; brown</p>", "analyzer": "standard_html_strip"}));
    assert_eq!(terms(&v), ["the", "quick", "brown"]);
}

/// The stemming components of ES 6.8's analysis-common module, with the examples of its
/// reference documentation (stemmer, snowball, stemmer_override, language analyzers).
#[test]
fn stemming_components() {
    let v = analyze(json!({"text": "the foxes jumping quickly", "tokenizer": "standard",
                           "filter": ["lowercase", {"type": "snowball", "language": "English"}]}));
    assert_eq!(terms(&v), ["the", "fox", "jump", "quick"]);
    let v = analyze(json!({"text": "generously running", "tokenizer": "standard",
                           "filter": [{"type": "stemmer", "language": "porter2"}]}));
    assert_eq!(terms(&v), ["generous", "run"]);
    let analysis = json!({
        "analyzer": {"my_analyzer": {"tokenizer": "standard", "filter": ["lowercase", "custom_stems", "porter_stem"]}},
        "filter": {"custom_stems": {"type": "stemmer_override", "rules": ["running => run", "stemmer => stemmer"]}}
    });
    let v = analyze_on(analysis, json!({"analyzer": "my_analyzer", "text": "running stemmer stemmers"}));
    assert_eq!(terms(&v), ["run", "stemmer", "stemmer"]);
    let v = analyze(json!({"analyzer": "dutch", "text": "De kinderen fietsten met hun fietsen"}));
    assert_eq!(terms(&v), ["kinder", "fietst", "fiets"]);
    let v = analyze(json!({"analyzer": "french", "text": "L'avion des hôpitaux"}));
    assert_eq!(terms(&v), ["avion", "hopital"]);
    let v = analyze(json!({"analyzer": "portuguese", "text": "As canções dos papéis"}));
    assert_eq!(terms(&v), ["canca", "papel"]);
    let v = analyze(json!({"analyzer": "german", "text": "Die Häuser der Straße"}));
    assert_eq!(terms(&v), ["haus", "strass"]);
    for (body, reason) in [
        (
            json!({"text": "a", "tokenizer": "standard", "filter": [{"type": "stemmer", "language": "klingon"}]}),
            "Invalid stemmer class specified: Klingon",
        ),
        (
            json!({"text": "a", "tokenizer": "standard", "filter": [{"type": "snowball", "language": "Kp"}]}),
            "the snowball language [Kp] is not supported by metagate",
        ),
        (
            json!({"text": "a", "tokenizer": "standard", "filter": [{"type": "stemmer_override"}]}),
            "stemmer override filter requires either `rules` or `rules_path` to be configured",
        ),
        (json!({"text": "a", "analyzer": "thai"}), "the analyzer [thai] is not supported by metagate"),
    ] {
        let e = analyze_request(&body.to_string()).unwrap_err();
        assert_eq!((e.status, e.kind(), e.reason()), (400, "illegal_argument_exception", reason), "{body}");
    }
}

/// `analysis-common/20_analyzers.yml`.
#[test]
fn analyzers_smoke() {
    let v = analyze(json!({"text": "Foo Bar!", "analyzer": "whitespace"}));
    assert_eq!(terms(&v), ["Foo", "Bar!"]);
    let v = analyze(json!({"text": "Foo Bar!", "analyzer": "whitespace", "explain": true}));
    let d = &v["detail"];
    assert_eq!(d["custom_analyzer"], false);
    assert_eq!(d["analyzer"]["name"], "whitespace");
    let tokens = d["analyzer"]["tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), 2);
    let at = |i: usize, k: &str| tokens[i][k].clone();
    assert_eq!(
        (at(0, "token"), at(0, "start_offset"), at(0, "end_offset"), at(0, "position")),
        (json!("Foo"), json!(0), json!(3), json!(0))
    );
    assert_eq!(
        (at(1, "token"), at(1, "start_offset"), at(1, "end_offset"), at(1, "position")),
        (json!("Bar!"), json!(4), json!(8), json!(1))
    );
    assert_eq!(terms(&analyze(json!({"text": "বাড়ী", "analyzer": "bengali"}))), ["বার"]);
}

/// `analysis-common/50_char_filters.yml` (its `html_strip` case is `html_strip_char_filter`).
#[test]
fn char_filters_smoke() {
    let v = analyze(json!({"text": "sample6 sample1", "tokenizer": "keyword",
                           "char_filter": [{"type": "pattern_replace", "pattern": "sample(.*)", "replacement": "replacedSample $1"}]}));
    assert_eq!(terms(&v), ["replacedSample 6 sample1"]);
    let v = analyze(json!({"text": "jeff quit phish", "tokenizer": "keyword",
                           "char_filter": [{"type": "mapping", "mappings": ["ph => f", "qu => q"]}]}));
    assert_eq!(terms(&v), ["jeff qit fish"]);
}

/// `search.query/20_ngram_search.yml`: the filter's `min` / `max` (not `min_gram` /
/// `max_gram`) are not its options, so it makes 1- and 2-grams, and `foa` matches `foo`.
#[test]
fn ngram_search() {
    let body = json!({
        "settings": {"number_of_shards": 1, "number_of_replicas": 0, "analysis": {
            "analyzer": {"my_analyzer": {"tokenizer": "standard", "filter": ["my_ngram"]}},
            "filter": {"my_ngram": {"type": "ngram", "min": "2,", "max": 2}}}},
        "mappings": {"doc": {"properties": {"text": {"type": "text", "analyzer": "my_analyzer"}}}}
    });
    let index = common::mapped_index::index("yaml-ngram", body, &[("1", json!({"text": "foo bar baz"}))]);
    let v = index.search(json!({"query": {"match": {"text": {"query": "foa"}}}}));
    assert_eq!(v["hits"]["total"], 1);
}

/// `search.query/40_query_string.yml` (its `search`, `count`, `_validate/query` and
/// `_explain` steps): `q` with `analyzer: snowball` stems `bars` to `bar`.
#[test]
fn query_string_with_snowball() {
    let body =
        json!({"mappings": {"test": {"properties": {"field": {"type": "text"}, "number": {"type": "integer"}}}}});
    let index = common::mapped_index::index("yaml-qs-snowball", body, &[("1", json!({"field": "foo bar"}))]);
    let (status, v) = index.send("GET", "/test/_search?q=field:bars&analyzer=snowball", Value::Null);
    assert_eq!((status, v["hits"]["total"].clone()), (200, json!(1)), "{v}");
    let (status, v) = index.send("GET", "/test/_count?q=field:bars&analyzer=snowball", Value::Null);
    assert_eq!((status, v["count"].clone()), (200, json!(1)), "{v}");
    let (status, v) = index.send("GET", "/test/_validate/query?q=field:bars&analyzer=snowball", Value::Null);
    assert_eq!((status, v["valid"].clone()), (200, json!(true)), "{v}");
    let (status, v) = index.send("GET", "/test/test/1/_explain?q=field:bars&analyzer=snowball", Value::Null);
    assert_eq!((status, v["matched"].clone()), (200, json!(true)), "{v}");
}

#[test]
fn word_delimiters() {
    // 40_token_filters.yml "word_delimiter" (6.8 has no deprecation warning for it) and
    // "word_delimiter_graph".
    for filter in ["word_delimiter", "word_delimiter_graph"] {
        let v = analyze(json!({"text": "the qu1ck brown fox", "tokenizer": "standard", "filter": [filter]}));
        assert_eq!(terms(&v), ["the", "qu", "1", "ck", "brown", "fox"]);
        let v = analyze(json!({"text": "the qu1ck brown fox", "tokenizer": "standard",
                               "filter": [{"type": filter, "split_on_numerics": false}]}));
        assert_eq!(terms(&v), ["the", "qu1ck", "brown", "fox"]);
    }
    let v = analyze(json!({"text": "the qu1ck brown fox", "explain": true, "tokenizer": "standard",
                           "filter": ["word_delimiter_graph"]}));
    let d = &v["detail"];
    assert_eq!(d["custom_analyzer"], true);
    assert_eq!(d["tokenfilters"][0]["name"], "word_delimiter_graph");
    let got: Vec<(String, i64, i64, i64)> = d["tokenfilters"][0]["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let n = |k: &str| t[k].as_i64().unwrap();
            (t["token"].as_str().unwrap().to_string(), n("start_offset"), n("end_offset"), n("position"))
        })
        .collect();
    let want =
        [("the", 0, 3, 0), ("qu", 4, 6, 1), ("1", 6, 7, 2), ("ck", 7, 9, 3), ("brown", 10, 15, 4), ("fox", 16, 19, 5)];
    assert_eq!(got, want.map(|(t, s, e, p)| (t.to_string(), s, e, p)));
}

#[test]
fn kstem() {
    // 40_token_filters.yml "kstem": defined in an index, and the preconfigured filter.
    let analysis = json!({"filter": {"my_kstem": {"type": "kstem"}}});
    let v = analyze_on(analysis, json!({"text": "bricks", "tokenizer": "keyword", "filter": ["my_kstem"]}));
    assert_eq!(terms(&v), ["brick"]);
    let v = analyze(json!({"text": "bricks", "tokenizer": "keyword", "filter": ["kstem"]}));
    assert_eq!(terms(&v), ["brick"]);
}

/// `indices.analyze/10_synonyms.yml`: the rules of a `synonym` filter are analysed by the
/// chain before it, char filters included.
#[test]
fn synonyms_with_a_char_filter() {
    let analysis = json!({"analyzer": {"synonymAnalyzerWithCharfilter": {
            "tokenizer": "whitespace", "char_filter": ["html_strip"], "filter": ["synonym"]}},
        "filter": {"synonym": {"type": "synonym", "synonyms":
            ["<p>kimchy</p> => shay", "dude => <html>elasticsearch</html>", "<font>abides</font> => man!"]}}});
    let v = analyze_on(
        analysis,
        json!({"analyzer": "synonymAnalyzerWithCharfilter", "text": "kimchy is the dude <html>abides</html>"}),
    );
    assert_eq!(terms(&v), ["shay", "is", "the", "elasticsearch", "man!"]);
}

/// `search.query/50_queries_with_synonyms.yml`, "Test match query with synonyms" (#3881):
/// synonyms in the search analyzer only, `operator: and`.
#[test]
fn match_with_search_time_synonyms() {
    let body = json!({
        "settings": {"analysis": {
            "filter": {"synonym": {"type": "synonym", "synonyms": ["quick,fast"]}},
            "analyzer": {
                "index": {"type": "custom", "tokenizer": "standard", "filter": "lowercase"},
                "search": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "synonym"]}}}},
        "mappings": {"test": {"properties": {"text": {"type": "text", "analyzer": "index", "search_analyzer": "search"}}}}
    });
    let total = |index: &common::mapped_index::Index, query: &str| {
        index.search(json!({"query": {"match": {"text": {"query": query, "operator": "and"}}}}))["hits"]["total"]
            .clone()
    };
    let one = common::mapped_index::index("yaml-syn-3881a", body.clone(), &[("1", json!({"text": "quick brown fox"}))]);
    for query in ["quick", "quick brown", "fast"] {
        assert_eq!(total(&one, query), 1, "{query}");
    }
    let two = common::mapped_index::index(
        "yaml-syn-3881b",
        body,
        &[("1", json!({"text": "quick brown fox"})), ("2", json!({"text": "fast brown fox"}))],
    );
    for query in ["quick", "quick brown"] {
        assert_eq!(total(&two, query), 2, "{query}");
    }
}

/// `search.query/60_synonym_graph.yml`'s index: `syns` and `graph_syns` over the same
/// rules; the documents' `text` is mapped dynamically (standard analyzer).
fn synonym_graph_index() -> common::mapped_index::Index {
    let rules = json!(["wtf, what the fudge", "foo, bar baz"]);
    let body = json!({
        "settings": {"index": {"number_of_shards": 1}, "analysis": {
            "filter": {"syns": {"type": "synonym", "synonyms": rules}, "graph_syns": {"type": "synonym_graph", "synonyms": rules}},
            "analyzer": {
                "lower_syns": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "syns"]},
                "lower_graph_syns": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "graph_syns"]}}}},
        "mappings": {"test": {"properties": {"field": {"type": "text"}}}}
    });
    let docs = [
        ("1", json!({"text": "say wtf happened foo"})),
        ("2", json!({"text": "bar baz what the fudge man"})),
        ("3", json!({"text": "wtf"})),
        ("4", json!({"text": "what is the name for fudge"})),
        ("5", json!({"text": "bar two three"})),
        ("6", json!({"text": "bar baz two three"})),
    ];
    common::mapped_index::index("yaml-synonym-graph", body, &docs)
}

/// The `_id`s of a search's hits, in the answer's order, and its total.
fn hit_ids_and_total(v: &Value) -> (Vec<String>, Value) {
    let ids = v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap().to_string()).collect();
    (ids, v["hits"]["total"].clone())
}

/// `search.query/60_synonym_graph.yml`: `simple multiterm and`, `minimum should match`
/// (without phrases), `multiterm synonyms phrase` and the non-graph half of `simple
/// multiterm phrase`. The graph halves of `simple multiterm phrase` (`match_phrase` over
/// a token graph), `minimum should match` with a percentage and `phrase prefix` are
/// refused with an error that says so.
#[test]
fn synonym_graph_queries() {
    let index = synonym_graph_index();
    let search = |query: Value| hit_ids_and_total(&index.search(json!({"query": query})));
    let q = |kind: &str, text: &str, analyzer: &str, extra: Value| {
        let mut m = json!({"query": text, "analyzer": analyzer});
        m.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        json!({kind: {"text": m}})
    };
    assert_eq!(search(q("match_phrase", "foo two three", "lower_syns", json!({}))), (vec!["5".to_string()], json!(1)));
    for analyzer in ["lower_syns", "lower_graph_syns"] {
        let got = search(q("match", "say what the fudge", analyzer, json!({"operator": "and"})));
        assert_eq!(got, (vec!["1".to_string()], json!(1)), "{analyzer}");
    }
    let got = search(q(
        "match",
        "three what the fudge foo",
        "lower_graph_syns",
        json!({"operator": "or", "auto_generate_synonyms_phrase_query": false}),
    ));
    assert_eq!(got.1, json!(6));
    let got = search(q("match", "wtf", "lower_graph_syns", json!({"operator": "and"})));
    assert_eq!(got, (vec!["2".to_string(), "3".to_string(), "1".to_string()], json!(3)));
    for refused in [
        q("match_phrase", "foo two three", "lower_graph_syns", json!({})),
        q("match", "three what the fudge foo", "lower_graph_syns", json!({"minimum_should_match": "80%"})),
        q("match_phrase_prefix", "wtf", "lower_graph_syns", json!({})),
    ] {
        let (status, v) = index.send("POST", "/test/_search", json!({"query": refused}));
        assert_eq!(status, 400, "{v}");
        assert!(v["error"]["root_cause"][0]["reason"].as_str().unwrap().contains("not supported by metagate"), "{v}");
    }
}
