//! The `completion` field type and the `suggest` section of a search, as ES 6.8
//! answers them (cases from ES's REST tests `suggest/*` and its reference docs).

mod common;

use common::mapped_index::{index, load_error, mapped, Index};

use serde_json::{json, Value};

fn suggest(ix: &Index, body: Value) -> Value {
    let v = ix.search(body);
    v["suggest"].clone()
}

fn texts(v: &Value) -> Vec<String> {
    v[0]["options"].as_array().unwrap().iter().map(|o| o["text"].as_str().unwrap().to_string()).collect()
}

fn music() -> Index {
    index(
        "music",
        mapped(json!({"suggest": {"type": "completion"}, "title": {"type": "keyword"}})),
        &[
            ("1", json!({"suggest": {"input": ["Nevermind", "Nirvana"], "weight": 34}, "title": "Nevermind"})),
            ("2", json!({"suggest": [{"input": "Nevermore", "weight": 10}, {"input": "Metal", "weight": 3}]})),
            ("3", json!({"suggest": "Nirvana Unplugged", "title": "Unplugged"})),
            ("4", json!({"suggest": ["bar", "foo"]})),
        ],
    )
}

#[test]
fn completion_maps_and_prints_as_es() {
    let ix = music();
    assert!(ix.report.errors.is_empty(), "{:?}", ix.report.errors);
    assert_eq!(
        ix.mapping()["properties"]["suggest"],
        json!({"type": "completion", "analyzer": "simple", "preserve_separators": true,
               "preserve_position_increments": true, "max_input_length": 50})
    );
    let (_, caps) = ix.send("GET", "/test/_field_caps?fields=suggest", Value::Null);
    assert_eq!(
        caps["fields"]["suggest"],
        json!({"completion": {"type": "completion", "searchable": true, "aggregatable": false}})
    );
    let ctx = index(
        "ctx_mapping",
        mapped(json!({"s": {"type": "completion", "analyzer": "standard", "search_analyzer": "whitespace",
            "preserve_separators": false, "max_input_length": 20,
            "contexts": [{"name": "genre", "type": "category"}, {"name": "shelf", "type": "category", "path": "loc"}]}})),
        &[],
    );
    assert_eq!(
        ctx.mapping()["properties"]["s"],
        json!({"type": "completion", "analyzer": "standard", "search_analyzer": "whitespace",
               "preserve_separators": false, "preserve_position_increments": true, "max_input_length": 20,
               "contexts": [{"name": "genre", "type": "CATEGORY"}, {"name": "shelf", "type": "CATEGORY", "path": "loc"}]})
    );
}

#[test]
fn completion_as_a_multi_field_and_a_copy_target() {
    let ix = index(
        "multi_field",
        mapped(json!({
            "title": {"type": "text", "fields": {"suggest": {"type": "completion"}}, "copy_to": "all_suggest"},
            "all_suggest": {"type": "completion"}
        })),
        &[("1", json!({"title": "Nevermind"})), ("2", json!({"title": "Nirvana"}))],
    );
    assert!(ix.report.errors.is_empty(), "{:?}", ix.report.errors);
    for field in ["title.suggest", "all_suggest"] {
        let v = suggest(&ix, json!({"suggest": {"s": {"prefix": "ne", "completion": {"field": field}}}}));
        assert_eq!(texts(&v["s"]), vec!["Nevermind"], "{field}");
    }
    // The text field itself still searches its words.
    assert_eq!(ix.ids(json!({"match": {"title": "nirvana"}})), vec!["2"]);
    assert_eq!(
        ix.mapping()["properties"]["title"]["fields"]["suggest"],
        json!({"type": "completion", "analyzer": "simple", "preserve_separators": true,
               "preserve_position_increments": true, "max_input_length": 50})
    );
}

#[test]
fn completion_mapping_errors() {
    assert_eq!(
        load_error(mapped(json!({"s": {"type": "completion", "max_input_length": 0}}))),
        "[mapper_parsing_exception] [max_input_length] must be > 0 but was [0]"
    );
    assert_eq!(
        load_error(mapped(json!({"s": {"type": "completion", "ignore_above": 3}}))),
        "[mapper_parsing_exception] Mapping definition for [s] has unsupported parameters:  [ignore_above : 3]"
    );
    assert_eq!(
        load_error(mapped(json!({"s": {"type": "completion", "contexts": [{"name": "x"}]}}))),
        "[mapper_parsing_exception] missing [type] in context mapping"
    );
    let geo = load_error(mapped(json!({"s": {"type": "completion", "contexts": [{"name": "loc", "type": "geo"}]}})));
    assert!(geo.contains("geo contexts are not supported by metagate"), "{geo}");
}

#[test]
fn bad_inputs_are_refused_as_es_refuses_them() {
    let ix = index(
        "bad_inputs",
        mapped(
            json!({"s": {"type": "completion"}, "c": {"type": "completion", "contexts": [{"name": "color", "type": "category"}]}}),
        ),
        &[
            ("1", json!({"s": {"input": "a", "weight": -1}})),
            ("2", json!({"s": {"input": "a", "weight": 2.5}})),
            ("3", json!({"s": {"input": "a", "weight": "x"}})),
            ("4", json!({"s": {"input": "a", "boost": 1}})),
            ("5", json!({"s": {"input": "a", "contexts": {"color": "red"}}})),
            ("6", json!({"c": "no context"})),
            ("7", json!({"s": {"input": "a\u{1f}b"}})),
            ("8", json!({"s": {"input": "ok", "weight": "7"}})),
        ],
    );
    let reasons: Vec<&str> = ix.report.errors.iter().map(|e| e.reason.as_str()).collect();
    assert_eq!(
        reasons,
        vec![
            "[mapper_parsing_exception] failed to parse [s]: weight must be in the interval [0..2147483647], but was [-1]",
            "[mapper_parsing_exception] failed to parse [s]: weight must be an integer, but was [2.5]",
            "[mapper_parsing_exception] failed to parse [s]: weight must be an integer, but was [x]",
            "[mapper_parsing_exception] failed to parse [s]: unknown field name [boost], must be one of [input, weight, contexts]",
            "[mapper_parsing_exception] failed to parse [s]: contexts field is not supported for field: [s]",
            "[mapper_parsing_exception] failed to parse [c]: Contexts are mandatory in context enabled completion field [c]",
            "[mapper_parsing_exception] failed to parse [s]: Illegal input [a\u{1f}b] reserved character [\u{1f}] at index 1",
        ]
    );
}

#[test]
fn completion_suggestions_answer_exactly_as_es() {
    let ix = music();
    let v = ix.search(json!({"_source": ["title"], "suggest": {"song-suggest": {"prefix": "nir", "completion": {"field": "suggest"}}}}));
    assert_eq!(
        v["suggest"],
        json!({"song-suggest": [{"text": "nir", "offset": 0, "length": 3, "options": [
            {"text": "Nirvana", "_index": "test", "_type": "_doc", "_id": "1", "_score": 34.0, "_source": {"title": "Nevermind"}},
            {"text": "Nirvana Unplugged", "_index": "test", "_type": "_doc", "_id": "3", "_score": 1.0, "_source": {"title": "Unplugged"}}
        ]}]})
    );
    // A document is one option, with its best input; the global text. As in Lucene's
    // top-N search, `size` entries are taken (document 1's two inputs count twice),
    // then each document's best is kept.
    assert_eq!(
        texts(
            &suggest(&ix, json!({"suggest": {"text": "n", "s": {"completion": {"field": "suggest", "size": 3}}}}))["s"]
        ),
        vec!["Nevermind", "Nevermore"]
    );
    assert_eq!(
        texts(&suggest(&ix, json!({"suggest": {"text": "n", "s": {"completion": {"field": "suggest"}}}}))["s"]),
        vec!["Nevermind", "Nevermore", "Nirvana Unplugged"]
    );
    // The separator keeps tokens apart: "nirvana u" is a prefix of one input only.
    assert_eq!(
        texts(&suggest(&ix, json!({"suggest": {"s": {"text": "Nirvana U", "completion": {"field": "suggest"}}}}))["s"]),
        vec!["Nirvana Unplugged"]
    );
    // `_source: false`, typed keys, and an entry with no option.
    let (status, v) = ix.send(
        "POST",
        "/test/_search?typed_keys=true",
        json!({"size": 0, "_source": false, "suggest": {"a": {"prefix": "ba", "completion": {"field": "suggest"}}, "0": {"prefix": "zz", "completion": {"field": "suggest"}}}}),
    );
    assert_eq!(status, 200);
    assert_eq!(
        v["suggest"],
        json!({"completion#0": [{"text": "zz", "offset": 0, "length": 2, "options": []}],
               "completion#a": [{"text": "ba", "offset": 0, "length": 2, "options": [
                   {"text": "bar", "_index": "test", "_type": "_doc", "_id": "4", "_score": 1.0}]}]})
    );
}

#[test]
fn weights_order_options_and_ties_go_by_text() {
    // ES's REST test "Suggestion entry array should work".
    let ix = index(
        "entry_array",
        mapped(json!({"suggest_4": {"type": "completion"}})),
        &[
            ("1", json!({"suggest_4": [{"input": "bar", "weight": 3}, {"input": "fo", "weight": 3}]})),
            ("2", json!({"suggest_4": [{"input": "baz", "weight": 2}, {"input": "foo", "weight": 1}]})),
            ("3", json!({"suggest_4": [{"input": "fob", "weight": 3}]})),
        ],
    );
    let b = suggest(&ix, json!({"suggest": {"result": {"text": "b", "completion": {"field": "suggest_4"}}}}));
    assert_eq!(texts(&b["result"]), vec!["bar", "baz"]);
    let f = suggest(&ix, json!({"suggest": {"result": {"text": "f", "completion": {"field": "suggest_4"}}}}));
    assert_eq!(texts(&f["result"]), vec!["fo", "fob", "foo"]);
}

#[test]
fn skip_duplicates_keeps_one_option_per_text() {
    let ix = index(
        "dups",
        mapped(json!({"s": {"type": "completion"}})),
        &[("1", json!({"s": "bar"})), ("2", json!({"s": "bar"})), ("3", json!({"s": {"input": "baz", "weight": 0}}))],
    );
    let all = suggest(&ix, json!({"suggest": {"r": {"text": "b", "completion": {"field": "s"}}}}));
    assert_eq!(texts(&all["r"]), vec!["bar", "bar", "baz"]);
    assert_eq!(all["r"][0]["options"][2]["_score"], json!(0.0));
    let one =
        suggest(&ix, json!({"suggest": {"r": {"text": "b", "completion": {"field": "s", "skip_duplicates": true}}}}));
    assert_eq!(texts(&one["r"]), vec!["bar", "baz"]);
    assert_eq!(one["r"][0]["options"][0]["_id"], json!("1"));
}

#[test]
fn fuzzy_and_regex_completion() {
    let ix = music();
    // One edit away after the exact first letter: the score is the weight times the
    // labels the shortest accepted path ("nir") shares with the query (Lucene's fuzzy
    // boost).
    let scored = |v: &Value| -> Vec<(String, f64)> {
        v["s"][0]["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| (o["text"].as_str().unwrap().to_string(), o["_score"].as_f64().unwrap()))
            .collect()
    };
    let v = suggest(
        &ix,
        json!({"suggest": {"s": {"prefix": "nor", "completion": {"field": "suggest", "fuzzy": {"fuzziness": 1}}}}}),
    );
    assert_eq!(scored(&v), vec![("Nirvana".into(), 34.0), ("Nirvana Unplugged".into(), 1.0)]);
    // "nevr": accepted at "nev" (one deletion), which shares three labels.
    let v =
        suggest(&ix, json!({"suggest": {"s": {"prefix": "nevr", "completion": {"field": "suggest", "fuzzy": {}}}}}));
    assert_eq!(scored(&v), vec![("Nevermind".into(), 102.0), ("Nevermore".into(), 30.0)]);
    // A transposition is one edit unless `transpositions` is false.
    let v = suggest(
        &ix,
        json!({"suggest": {"s": {"prefix": "nveer", "completion": {"field": "suggest", "fuzzy": {"prefix_length": 0}}}}}),
    );
    assert_eq!(texts(&v["s"]), vec!["Nevermind", "Nevermore"]);
    let v = suggest(
        &ix,
        json!({"suggest": {"s": {"prefix": "nveer", "completion": {"field": "suggest", "fuzzy": {"prefix_length": 0, "transpositions": false}}}}}),
    );
    assert_eq!(texts(&v["s"]), Vec::<String>::new());
    // Shorter than min_length: exact, boosted by its length.
    let v =
        suggest(&ix, json!({"suggest": {"s": {"prefix": "ni", "completion": {"field": "suggest", "fuzzy": true}}}}));
    assert_eq!(v["s"][0]["options"][0]["_score"], json!(68.0));
    let v = suggest(&ix, json!({"suggest": {"s": {"regex": "n[ei]v.*", "completion": {"field": "suggest"}}}}));
    assert_eq!(texts(&v["s"]), vec!["Nevermind", "Nevermore"]);
    assert_eq!(v["s"][0]["text"], json!("n[ei]v.*"));
    let v = suggest(&ix, json!({"suggest": {"s": {"regex": "ba|fo", "completion": {"field": "suggest"}}}}));
    assert_eq!(texts(&v["s"]), vec!["bar"]);
    let v = suggest(&ix, json!({"suggest": {"s": {"regex": "nirvanas?", "completion": {"field": "suggest"}}}}));
    assert_eq!(texts(&v["s"]), vec!["Nirvana", "Nirvana Unplugged"]);
}

#[test]
fn category_contexts_filter_and_boost() {
    let ix = index(
        "contexts",
        mapped(json!({
            "s": {"type": "completion", "contexts": [{"name": "color", "type": "category"}]},
            "p": {"type": "completion", "contexts": [{"name": "color", "type": "category", "path": "color"}]},
            "color": {"type": "keyword"}
        })),
        &[
            (
                "1",
                json!({"s": {"input": "foo red", "weight": 2, "contexts": {"color": "red"}}, "p": {"input": "Foo red", "contexts": {"color": "red"}}}),
            ),
            (
                "2",
                json!({"s": {"input": "foo blue", "weight": 3, "contexts": {"color": ["blue", "navy"]}}, "p": "Foo blue", "color": "blue"}),
            ),
        ],
    );
    assert!(ix.report.errors.is_empty(), "{:?}", ix.report.errors);
    let red = suggest(
        &ix,
        json!({"suggest": {"r": {"text": "foo", "completion": {"field": "s", "contexts": {"color": "red"}}}}}),
    );
    assert_eq!(
        red["r"][0]["options"][0],
        json!({"text": "foo red", "_index": "test", "_type": "_doc", "_id": "1", "_score": 2.0,
               "_source": {"s": {"input": "foo red", "weight": 2, "contexts": {"color": "red"}}, "p": {"input": "Foo red", "contexts": {"color": "red"}}},
               "contexts": {"color": ["red"]}})
    );
    let boosted = suggest(
        &ix,
        json!({"_source": false, "suggest": {"r": {"text": "foo", "completion": {"field": "s", "contexts": {"color": [{"context": "red", "boost": 4}, "blue"]}}}}}),
    );
    let scores: Vec<(String, f64)> = boosted["r"][0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["text"].as_str().unwrap().to_string(), o["_score"].as_f64().unwrap()))
        .collect();
    assert_eq!(scores, vec![("foo red".into(), 8.0), ("foo blue".into(), 3.0)]);
    let prefixed = suggest(
        &ix,
        json!({"_source": false, "suggest": {"r": {"text": "foo", "completion": {"field": "s", "contexts": {"color": {"context": "na", "prefix": true}}}}}}),
    );
    assert_eq!(
        prefixed["r"][0]["options"],
        json!([{"text": "foo blue", "_index": "test", "_type": "_doc", "_id": "2", "_score": 3.0, "contexts": {"color": ["navy"]}}])
    );
    // Without contexts, every context: the option shows the entry's contexts.
    let all = suggest(&ix, json!({"_source": false, "suggest": {"r": {"text": "foo", "completion": {"field": "s"}}}}));
    assert_eq!(all["r"][0]["options"][0]["contexts"], json!({"color": ["blue", "navy"]}));
    // A context from the document's `path` field.
    for (color, text) in [("red", "Foo red"), ("blue", "Foo blue")] {
        let v = suggest(
            &ix,
            json!({"suggest": {"r": {"text": "foo", "completion": {"field": "p", "contexts": {"color": color}}}}}),
        );
        assert_eq!(texts(&v["r"]), vec![text]);
    }
    let (status, kind, reason) = ix.refused(
        json!({"suggest": {"r": {"text": "foo", "completion": {"field": "s", "contexts": {"shade": "red"}}}}}),
    );
    assert_eq!(
        (status, kind.as_str(), reason.as_str()),
        (400, "illegal_argument_exception", "Unknown context name [shade], must be one of [color]")
    );
}

#[test]
fn suggest_errors_answer_as_es() {
    let ix = music();
    let (status, kind, reason) = ix.refused(json!({"suggest": {"s": {"text": "n", "completion": {"field": "title"}}}}));
    assert_eq!(
        (status, kind.as_str(), reason.as_str()),
        (400, "illegal_argument_exception", "Field [title] is not a completion suggest field")
    );
    let (_, kind, reason) = ix
        .refused(json!({"suggest": {"s": {"text": "n", "completion": {"field": "suggest", "contexts": {"c": "x"}}}}}));
    assert_eq!(
        (kind.as_str(), reason.as_str()),
        ("illegal_argument_exception", "suggester [suggest] doesn't expect any context")
    );
    let (_, kind, reason) =
        ix.refused(json!({"suggest": {"s": {"text": "n", "completion": {"field": "suggest", "size": 0}}}}));
    assert_eq!((kind.as_str(), reason.as_str()), ("illegal_argument_exception", "size must be positive"));
    let (status, v) = ix.send(
        "POST",
        "/test/_search?scroll=1m",
        json!({"suggest": {"s": {"text": "n", "completion": {"field": "suggest"}}}}),
    );
    assert_eq!((status, &v["error"]["reason"]), (400, &json!("[suggest] is not supported in a scroll by metagate")));
    let (_, _, reason) = ix.refused(json!({"suggest": {"s": {"text": "n"}}}));
    assert_eq!(reason, "missing suggestion object");
    let (_, _, reason) = ix.refused(json!({"suggest": {"s": {"text": "n", "phrase": {"field": "title", "foo": 1}}}}));
    assert_eq!(reason, "suggester[phrase] doesn't support field [foo]");
}

fn spelled() -> Index {
    index(
        "spelled",
        mapped(json!({"body": {"type": "text"}, "tag": {"type": "keyword"}})),
        &[
            ("1", json!({"body": "Amsterdam meetup", "tag": "Amsterdam"})),
            ("2", json!({"body": "amsterdam rotterdam"})),
            ("3", json!({"body": "amsterdem"})),
            ("4", json!({"body": "meetup meeting"})),
            ("5", json!({"body": "house"})),
            ("6", json!({"body": "horse horse"})),
            ("7", json!({"body": "horse"})),
            ("8", json!({"body": "houses"})),
        ],
    )
}

#[test]
fn term_suggester_answers_as_lucenes_direct_spell_checker() {
    let ix = spelled();
    // ES's REST test "Basic tests for suggest API", with every number.
    let v = suggest(&ix, json!({"suggest": {"s": {"text": "The Amsterdma meetpu", "term": {"field": "body"}}}}));
    assert_eq!(
        v,
        json!({"s": [
            {"text": "the", "offset": 0, "length": 3, "options": []},
            {"text": "amsterdma", "offset": 4, "length": 9, "options": [
                {"text": "amsterdam", "score": 0.8888889, "freq": 2},
                {"text": "amsterdem", "score": 0.7777778, "freq": 1}]},
            {"text": "meetpu", "offset": 14, "length": 6, "options": [{"text": "meetup", "score": 0.8333333, "freq": 2}]}
        ]})
    );
    let opts = |body: Value| -> Vec<(String, f64, u64)> {
        let v = suggest(&ix, json!({"suggest": {"s": body}}));
        v["s"][0]["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| (o["text"].as_str().unwrap().into(), o["score"].as_f64().unwrap(), o["freq"].as_u64().unwrap()))
            .collect()
    };
    // Scores are Java floats, printed shortest: read back as these doubles.
    let f = |x: f64| x;
    // Two-edit candidates only join when the one-edit pass found too few.
    assert_eq!(
        opts(json!({"text": "hause", "term": {"field": "body"}})),
        vec![("house".into(), f(0.8), 1), ("horse".into(), f(0.6), 2), ("houses".into(), f(0.6), 1)]
    );
    assert_eq!(
        opts(json!({"text": "hause", "term": {"field": "body", "sort": "frequency"}})),
        vec![("horse".into(), f(0.6), 2), ("house".into(), f(0.8), 1), ("houses".into(), f(0.6), 1)]
    );
    assert_eq!(
        opts(json!({"text": "hause", "term": {"field": "body", "max_edits": 1, "size": 1}})),
        vec![("house".into(), f(0.8), 1)]
    );
    assert_eq!(
        opts(json!({"text": "hause", "term": {"field": "body", "accuracy": 0.7}})),
        vec![("house".into(), f(0.8), 1)]
    );
    // An indexed token gets nothing in `missing` mode; `popular` wants more frequent
    // terms, `always` any (a token in more than `max_term_freq` of the documents gets
    // nothing).
    assert_eq!(opts(json!({"text": "amsterdem", "term": {"field": "body"}})), vec![]);
    assert_eq!(
        opts(json!({"text": "amsterdem", "term": {"field": "body", "suggest_mode": "popular", "max_term_freq": 5}})),
        vec![("amsterdam".into(), f(0.8888889), 2)]
    );
    assert_eq!(
        opts(json!({"text": "horse", "term": {"field": "body", "suggest_mode": "always", "max_term_freq": 5}})),
        vec![("house".into(), f(0.8), 1), ("houses".into(), f(0.6), 1)]
    );
    assert_eq!(opts(json!({"text": "horse", "term": {"field": "body", "suggest_mode": "always"}})), vec![]);
    assert_eq!(opts(json!({"text": "hous", "term": {"field": "body", "min_word_length": 5}})), vec![]);
    // Lucene keeps terms in more documents than the threshold.
    assert_eq!(
        opts(json!({"text": "hause", "term": {"field": "body", "min_doc_freq": 1}})),
        vec![("horse".into(), f(0.6), 2)]
    );
    assert_eq!(opts(json!({"text": "hause", "term": {"field": "body", "min_doc_freq": 2}})), vec![]);
    // A keyword field: the text whole.
    assert_eq!(
        opts(json!({"text": "Amsterdan", "term": {"field": "tag"}})),
        vec![("Amsterdam".into(), f(0.8888889), 1)]
    );
}

#[test]
fn term_suggester_errors_and_typed_keys() {
    let ix = spelled();
    let (status, v) = ix.send(
        "POST",
        "/test/_search?typed_keys=true",
        json!({"size": 0, "suggest": {"text": "meetpu", "t": {"term": {"field": "body"}}}}),
    );
    assert_eq!(status, 200);
    assert_eq!(v["suggest"]["term#t"][0]["options"][0]["text"], json!("meetup"));
    // The URI form: a term suggestion named after its field.
    let (status, v) =
        ix.send("GET", "/test/_search?size=0&suggest_field=body&suggest_text=hause&suggest_size=1", Value::Null);
    assert_eq!(status, 200);
    assert_eq!(
        v["suggest"],
        json!({"body": [{"text": "hause", "offset": 0, "length": 5, "options": [{"text": "house", "score": 0.8, "freq": 1}]}]})
    );
    let (status, kind, reason) = ix.refused(json!({"suggest": {"t": {"text": "x", "term": {"field": "nope"}}}}));
    assert_eq!(
        (status, kind.as_str(), reason.as_str()),
        (400, "illegal_argument_exception", "no mapping found for field [nope]")
    );
    let (_, _, reason) = ix.refused(json!({"suggest": {"t": {"term": {"field": "body"}}}}));
    assert_eq!(reason, "The required text option is missing");
    let (_, _, reason) =
        ix.refused(json!({"suggest": {"t": {"text": "x", "term": {"field": "body", "max_edits": 3}}}}));
    assert_eq!(reason, "max_edits must be between 1 and 2");
    let (_, _, reason) =
        ix.refused(json!({"suggest": {"t": {"text": "x", "term": {"field": "body", "suggest_mode": "sometimes"}}}}));
    assert_eq!(reason, "Illegal suggest mode SOMETIMES");
}
