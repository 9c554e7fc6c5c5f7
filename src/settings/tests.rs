use super::*;
use serde_json::json;

fn reason(e: &Error) -> String {
    e.to_json()["error"]["reason"].as_str().unwrap_or_default().to_string()
}

#[test]
fn nested_flat_and_unprefixed_forms_are_one_set_of_index_keys() {
    let nested = IndexSettings::parse(&json!({"index": {"number_of_shards": 3, "refresh_interval": "5s"}})).unwrap();
    let flat = IndexSettings::parse(&json!({"index.number_of_shards": "3", "index.refresh_interval": "5s"})).unwrap();
    let bare = IndexSettings::parse(&json!({"number_of_shards": 3, "refresh_interval": "5s"})).unwrap();
    assert_eq!(nested, flat);
    assert_eq!(nested, bare);
    assert_eq!(nested.given()["index.number_of_shards"], SettingValue::One("3".into()));
}

#[test]
fn limits_take_their_settings_and_es_defaults() {
    let s = IndexSettings::parse(&json!({"index": {"max_result_window": 500, "max_terms_count": "10"}})).unwrap();
    assert_eq!(s.limits.max_result_window, 500);
    // The rescore window follows the result window unless set.
    assert_eq!(s.limits.max_rescore_window, 500);
    assert_eq!(s.limits.max_terms_count, 10);
    assert_eq!(s.limits.max_inner_result_window, 100);
    assert_eq!(s.limits.max_regex_length, 1000);
    assert_eq!(s.limits.highlight_max_analyzed_offset, None);
    let s = IndexSettings::default().with_max_result_window(20);
    assert_eq!((s.limits.max_result_window, s.limits.max_rescore_window), (20, 20));
}

#[test]
fn unknown_settings_answer_es_texts_with_suggestions() {
    let e = IndexSettings::parse(&json!({"index.foo_bar_baz": 1})).unwrap_err();
    assert_eq!(e.status, 400);
    assert_eq!(e.kind(), "illegal_argument_exception");
    assert_eq!(
        reason(&e),
        "unknown setting [index.foo_bar_baz] please check that any required plugins are installed, or check the breaking changes documentation for removed settings"
    );
    let e = IndexSettings::parse(&json!({"index": {"numbe_of_replica": 1}})).unwrap_err();
    assert_eq!(reason(&e), "unknown setting [index.numbe_of_replica] did you mean [index.number_of_replicas]?");
}

#[test]
fn values_are_checked_as_es_parses_them() {
    let e = IndexSettings::parse(&json!({"index.number_of_shards": "abc"})).unwrap_err();
    assert_eq!(reason(&e), "Failed to parse value [abc] for setting [index.number_of_shards]");
    assert_eq!(e.to_json()["error"]["caused_by"]["type"], "number_format_exception");
    assert_eq!(e.to_json()["error"]["caused_by"]["reason"], "For input string: \"abc\"");
    let e = IndexSettings::parse(&json!({"index.number_of_shards": 0})).unwrap_err();
    assert_eq!(reason(&e), "Failed to parse value [0] for setting [index.number_of_shards] must be >= 1");
    let e = IndexSettings::parse(&json!({"index.max_result_window": 2147483648u64})).unwrap_err();
    assert_eq!(reason(&e), "Failed to parse value [2147483648] for setting [index.max_result_window]");
    let e = IndexSettings::parse(&json!({"index.blocks.write": "yes"})).unwrap_err();
    assert_eq!(reason(&e), "Failed to parse value [yes] as only [true] or [false] are allowed.");
    let e = IndexSettings::parse(&json!({"index.refresh_interval": "soon"})).unwrap_err();
    assert_eq!(
        reason(&e),
        "failed to parse setting [index.refresh_interval] with value [soon] as a time value: unit is missing or unrecognized"
    );
    assert!(IndexSettings::parse(&json!({"index.refresh_interval": -1})).is_ok());
}

#[test]
fn analysis_and_similarity_are_groups_read_back_as_trees() {
    let body = json!({"analysis": {"analyzer": {"folded": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "asciifolding"]}}},
                      "similarity": {"short": {"type": "BM25", "b": 0.3}}});
    let s = IndexSettings::parse(&body).unwrap();
    assert_eq!(
        s.subtree("index.analysis."),
        json!({"analyzer": {"folded": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "asciifolding"]}}})
    );
    assert_eq!(s.subtree("index.similarity."), json!({"short": {"type": "BM25", "b": "0.3"}}));
    let e = IndexSettings::parse(&json!({"similarity": {"BM25": {"type": "BM25", "b": 0.3}}})).unwrap_err();
    assert_eq!(reason(&e), "illegal value for [index.similarity.BM25] cannot redefine built-in similarity");
}

#[test]
fn the_catalog_form_reads_back_and_older_files_too() {
    let s = IndexSettings::parse(&json!({"index": {"max_result_window": 50, "sort.field": ["a", "b"]}})).unwrap();
    assert_eq!(IndexSettings::from_catalog(&s.to_json()).unwrap(), s);
    let old = IndexSettings::from_catalog(&json!({"index.max_result_window": 700})).unwrap();
    assert_eq!(old.limits.max_result_window, 700);
}

#[test]
fn create_index_bodies_keep_their_type_name() {
    let body = json!({"settings": {"number_of_shards": 1},
                      "mappings": {"record": {"properties": {"title": {"type": "text"}}}},
                      "aliases": {"records": {}}});
    let c = CreateIndex::parse(&body).unwrap();
    assert_eq!(c.type_name.as_deref(), Some("record"));
    assert_eq!(Value::Object(c.mapping), json!({"properties": {"title": {"type": "text"}}}));
    assert_eq!(c.aliases, vec!["records".to_string()]);
    // A 7.x body without a type name reads as 6.8 reads it with include_type_name=false.
    let c = CreateIndex::parse(&json!({"mappings": {"properties": {"t": {"type": "keyword"}}}})).unwrap();
    assert_eq!(c.type_name.as_deref(), Some("_doc"));
    let e = CreateIndex::parse(&json!({"mappings": {"a": {}, "b": {}}})).unwrap_err();
    assert_eq!(
        reason(&e),
        "Rejecting mapping update to [index] as the final mapping would have more than 1 type: [a, b]"
    );
    let e = CreateIndex::parse(&json!({"setting": {}})).unwrap_err();
    assert_eq!((e.kind(), reason(&e).as_str()), ("parse_exception", "unknown key [setting] for create index"));
}

#[test]
fn levenshtein_similarity_is_lucenes() {
    assert_eq!(keys::levenshtein_similarity("", ""), 1.0);
    assert_eq!(keys::levenshtein_similarity("abc", ""), 0.0);
    assert_eq!(keys::levenshtein_similarity("kitten", "sitting"), 1.0 - 3.0 / 7.0);
}

#[test]
fn similarities_other_than_default_bm25_are_refused() {
    assert!(CreateIndex::parse(&json!({"settings": {"similarity": {"default": {"type": "BM25"}}}})).is_ok());
    let e =
        CreateIndex::parse(&json!({"settings": {"similarity": {"short": {"type": "BM25", "b": 0.3}}}})).unwrap_err();
    assert_eq!(reason(&e), "similarity [short] is not supported: metagate scores with BM25 (k1 1.2, b 0.75)");
}
