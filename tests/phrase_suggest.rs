//! The `phrase` suggester as ES 6.8 answers it: scores computed by hand from ES's
//! formulas (`WordScorer`, `StupidBackoffScorer`, `LaplaceScorer`,
//! `LinearInterpolatingScorer`, `CandidateScorer`) over a three-document index, the
//! order of the options, `highlight`, `collate`, `confidence` and ES's errors.
//!
//! The index: `quick fox`, `quick dog`, `quack dog`. In `body` (standard analyzer) the
//! total term frequency is V = 6 over N = 4 terms (quick 2, fox 1, dog 2, quack 1); in
//! `body.shingle` (unigrams and two-word shingles) V = 9 over N = 7 terms (the shingles
//! `quick fox`, `quick dog`, `quack dog` once each). The text `quock` is not indexed:
//! the spell checker offers `quick` and `quack`, one edit in five letters, similarity
//! `1 - 1/5` (a Java float). A word as written has the real word likelihood 0.95 (a
//! Java float) as its channel score; a path scores `exp(Σ log10(channel × P))`.

mod common;

use common::mapped_index::{index, Index};
use serde_json::{json, Value};

fn corpus() -> Index {
    index(
        "phrase_suggest",
        json!({
            "settings": {"analysis": {
                "filter": {
                    "pairs": {"type": "shingle", "min_shingle_size": 2, "max_shingle_size": 2},
                    "same": {"type": "synonym", "synonyms": ["fast, quick"]}
                },
                "analyzer": {
                    "shingled": {"tokenizer": "standard", "filter": ["lowercase", "pairs"]},
                    "synonyms": {"tokenizer": "standard", "filter": ["lowercase", "same"]}
                }
            }},
            "mappings": {"_doc": {"properties": {
                "body": {"type": "text", "fields": {"shingle": {"type": "text", "analyzer": "shingled"}}}
            }}}
        }),
        &[
            ("1", json!({"body": "quick fox"})),
            ("2", json!({"body": "quick dog"})),
            ("3", json!({"body": "quack dog"})),
        ],
    )
}

/// The spell checker's similarity of a one-edit candidate of a five-letter word.
fn one_edit() -> f64 {
    f64::from(1.0f32 - 1.0 / 5.0)
}

/// The real word likelihood, a Java float.
fn real_word() -> f64 {
    f64::from(0.95f32)
}

/// `exp` of the summed log10 scores, as a Java float.
fn path(words: &[f64]) -> f32 {
    words.iter().fold(0.0, |sum, p| sum + p.log10()).exp() as f32
}

/// The options of suggestion `s`: (text, score).
fn options(ix: &Index, phrase: Value, text: &str) -> Vec<(String, f32)> {
    let v = ix.search(json!({"size": 0, "suggest": {"s": {"text": text, "phrase": phrase}}}));
    let entry = &v["suggest"]["s"][0];
    assert_eq!((&entry["text"], &entry["offset"], &entry["length"]), (&json!(text), &json!(0), &json!(text.len())));
    entry["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["text"].as_str().unwrap().to_string(), o["score"].as_f64().unwrap() as f32))
        .collect()
}

fn owned(pairs: &[(&str, f32)]) -> Vec<(String, f32)> {
    pairs.iter().map(|(t, s)| (t.to_string(), *s)).collect()
}

#[test]
fn unigram_model_scores_words_by_their_frequency() {
    let ix = corpus();
    // gram_size 1 (no shingles in `body`): P(w) = (1 + f(w)) / (V + N) = (1 + f) / 10.
    let got = options(&ix, json!({"field": "body"}), "quock dog");
    let dog = real_word() * 3.0 / 10.0;
    let expected = owned(&[
        ("quick dog", path(&[one_edit() * 3.0 / 10.0, dog])),
        ("quack dog", path(&[one_edit() * 2.0 / 10.0, dog])),
    ]);
    assert_eq!(got, expected);
}

#[test]
fn stupid_backoff_bigrams_prefer_the_seen_pair() {
    let ix = corpus();
    // gram_size 2 from the field's shingle filter. The first word scores its unigram
    // (1 + f) / 16; the second f(w₋₁ dog) / tf(w₋₁) when the pair is indexed, else
    // 0.4 (a Java float, ES's default discount) × the unigram.
    let got = options(
        &ix,
        json!({"field": "body.shingle", "highlight": {"pre_tag": "<b>", "post_tag": "</b>"}}),
        "quock dog",
    );
    let expected = owned(&[
        ("quack dog", path(&[one_edit() * 2.0 / 16.0, real_word() * (1.0 / (1.0 + 0.00000000001))])),
        ("quick dog", path(&[one_edit() * 3.0 / 16.0, real_word() * (1.0 / (2.0 + 0.00000000001))])),
    ]);
    assert_eq!(got, expected);
    let v = ix.search(json!({"size": 0, "suggest": {"s": {"text": "quock dog",
        "phrase": {"field": "body.shingle", "highlight": {"pre_tag": "<b>", "post_tag": "</b>"}}}}}));
    assert_eq!(v["suggest"]["s"][0]["options"][0]["highlighted"], json!("<b>quack</b> dog"));
    // The text's own score is the cutoff: with `confidence` 0 it is an option too.
    let input = path(&[real_word() * 1.0 / 16.0, real_word() * f64::from(0.4f32) * 3.0 / 16.0]);
    let all = options(&ix, json!({"field": "body.shingle", "confidence": 0}), "quock dog");
    assert_eq!(all.last(), Some(&("quock dog".to_string(), input)));
    assert_eq!(all.len(), 3);
}

#[test]
fn laplace_and_linear_interpolation_smoothing() {
    let ix = corpus();
    // Laplace α = 0.7: unigram (α + f) / (V + αN) = (0.7 + f) / 13.9; bigram
    // (α + f(w₋₁ w)) / (tf(w₋₁) + αN).
    let got = options(&ix, json!({"field": "body.shingle", "smoothing": {"laplace": {"alpha": 0.7}}}), "quock dog");
    // Here the unigram outweighs the pair: `quick dog` comes first.
    let expected = owned(&[
        (
            "quick dog",
            path(&[one_edit() * (0.7 + 2.0) / (9.0 + 0.7 * 7.0), real_word() * (0.7 + 1.0) / (2.0 + 0.7 * 7.0)]),
        ),
        (
            "quack dog",
            path(&[one_edit() * (0.7 + 1.0) / (9.0 + 0.7 * 7.0), real_word() * (0.7 + 1.0) / (1.0 + 0.7 * 7.0)]),
        ),
    ]);
    assert_eq!(got, expected);
    // Linear interpolation, lambdas normalized by their sum: bigram
    // λ₂ f(w₋₁ w) / (0.5 + tf(w₋₁)) + λ₁ (1 + f(w)) / (V + N).
    let (t, b, u) = (0.1f64, 0.6f64, 0.3f64);
    let sum = u + b + t;
    let (b, u) = (b / sum, u / sum);
    let smoothing = json!({"linear": {"trigram_lambda": 0.1, "bigram_lambda": 0.6, "unigram_lambda": 0.3}});
    let got = options(&ix, json!({"field": "body.shingle", "smoothing": smoothing}), "quock dog");
    let expected = owned(&[
        ("quack dog", path(&[one_edit() * 2.0 / 16.0, real_word() * (b * (1.0 / 1.5) + u * 3.0 / 16.0)])),
        ("quick dog", path(&[one_edit() * 3.0 / 16.0, real_word() * (b * (1.0 / 2.5) + u * 3.0 / 16.0)])),
    ]);
    assert_eq!(got, expected);
}

#[test]
fn collate_keeps_or_marks_corrections_its_query_matches() {
    let ix = corpus();
    let collate = |prune: bool| {
        json!({"field": "body", "collate": {
            "query": {"source": {"match_phrase": {"{{field}}": "{{suggestion}}"}}},
            "params": {"field": "body"},
            "prune": prune
        }})
    };
    let fox = real_word() * 2.0 / 10.0;
    let quick = path(&[one_edit() * 3.0 / 10.0, fox]);
    let quack = path(&[one_edit() * 2.0 / 10.0, fox]);
    // Without pruning the phrase no document holds is dropped.
    assert_eq!(options(&ix, collate(false), "quock fox"), owned(&[("quick fox", quick)]));
    let v = ix.search(json!({"size": 0, "suggest": {"s": {"text": "quock fox", "phrase": collate(true)}}}));
    let marked: Vec<(String, f32, bool)> = v["suggest"]["s"][0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let keys: Vec<&String> = o.as_object().unwrap().keys().collect();
            assert_eq!(keys, ["text", "score", "collate_match"]);
            (
                o["text"].as_str().unwrap().into(),
                o["score"].as_f64().unwrap() as f32,
                o["collate_match"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(marked, vec![("quick fox".into(), quick, true), ("quack fox".into(), quack, false)]);
}

#[test]
fn limits_typed_keys_and_errors() {
    let ix = corpus();
    // `max_errors` 1 of two tokens, `size` 1, a global text and `typed_keys`.
    let (_, v) = ix.send(
        "POST",
        "/test/_search?typed_keys",
        json!({"size": 0, "suggest": {"text": "quock dogg", "s": {"phrase": {"field": "body", "size": 1, "max_errors": 2,
            "direct_generator": [{"field": "body", "suggest_mode": "always"}]}}}}),
    );
    let typed = &v["suggest"]["phrase#s"][0]["options"];
    assert_eq!(typed.as_array().map(Vec::len), Some(1), "{v}");
    assert_eq!(typed[0]["text"], json!("quick dog"));
    // As many tokens as `token_limit`: no corrections.
    assert!(options(&ix, json!({"field": "body", "token_limit": 2}), "quock dog").is_empty());
    // A collate without a query collates nothing.
    let plain = options(&ix, json!({"field": "body"}), "quock fox");
    assert_eq!(options(&ix, json!({"field": "body", "collate": {"prune": true}}), "quock fox"), plain);
    // The walk over the corrections is bounded (ES's recursion has only the JVM's stack).
    let long = vec!["quock"; 300].join(" ");
    let (status, v) = ix.send(
        "POST",
        "/test/_search",
        json!({"suggest": {"s": {"text": long, "phrase": {"field": "body", "token_limit": 1000}}}}),
    );
    assert_eq!(status, 400, "{v}");
    let refused = |phrase: Value| ix.refused(json!({"suggest": {"s": {"text": "quock", "phrase": phrase}}}));
    assert_eq!(
        refused(json!({"field": "nope"})),
        (400, "illegal_argument_exception".into(), "no mapping found for field [nope]".into())
    );
    assert_eq!(
        refused(json!({"field": "body", "max_errors": 0})),
        (400, "illegal_argument_exception".into(), "max_error must be > 0.0".into())
    );
    assert_eq!(refused(json!({"size": 2})).2, "the required field option [field] is missing".to_string());
    assert_eq!(
        refused(json!({"field": "body", "direct_generator": [{"field": "body", "suggest_mode": "sometimes"}]})).2,
        "Illegal suggest mode sometimes".to_string()
    );
    assert_eq!(refused(json!({"field": "body", "analyzer": "nope"})).2, "analyzer [nope] doesn't exists".to_string());
    let generator = |g: Value| refused(json!({"field": "body", "direct_generator": [g]})).2;
    assert_eq!(
        generator(json!({"field": "body", "sort": "best"})),
        "No enum constant org.elasticsearch.search.suggest.SortBy.BEST"
    );
    assert_eq!(
        generator(json!({"field": "body", "min_doc_freq": 2.5})),
        "Fractional absolute document frequencies are not allowed"
    );
    assert_eq!(generator(json!({"field": "body", "pre_filter": "nope"})), "Analyzer [nope] doesn't exists");
    assert_eq!(generator(json!({"size": 2})), "Required [field]");
}

#[test]
fn stacked_synonyms_are_candidates_with_the_real_word_likelihood() {
    let ix = corpus();
    // `fast` is not indexed and no indexed word is two edits from it; its synonym
    // `quick`, stacked on it, is a candidate whose channel score is the real word
    // likelihood: P = 0.95 × (1 + 2) / 10.
    let got = options(&ix, json!({"field": "body", "analyzer": "synonyms"}), "fast dog");
    assert_eq!(got, owned(&[("quick dog", path(&[real_word() * 3.0 / 10.0, real_word() * 3.0 / 10.0]))]));
}

#[test]
fn trigrams_back_off_to_bigrams_then_unigrams() {
    let ix = index(
        "phrase_trigrams",
        json!({
            "settings": {"analysis": {
                "filter": {"grams": {"type": "shingle", "min_shingle_size": 2, "max_shingle_size": 3}},
                "analyzer": {"grams": {"tokenizer": "standard", "filter": ["lowercase", "grams"]}}
            }},
            "mappings": {"_doc": {"properties": {"body": {"type": "text", "analyzer": "grams"}}}}
        }),
        &[
            ("1", json!({"body": "the quick dog"})),
            ("2", json!({"body": "the quack dog"})),
            ("3", json!({"body": "a quack dog"})),
        ],
    );
    // Each document has 3 words, 2 pairs and 1 triple: V = 18; N = 13 distinct terms
    // (5 words, 5 pairs, 3 triples). gram_size 3 from the shingle filter. `the` scores
    // its unigram; the second word its bigram after `the` (f(the w) / tf(the), tf(the) =
    // 2), else 0.4 × its unigram; `dog` its trigram f(the w dog) / f(w dog), with
    // f(quick dog) = 1 and f(quack dog) = 2, else 0.4 × its unigram.
    let the = real_word() * 3.0 / 31.0;
    let pair = 1.0 / (2.0 + 0.00000000001);
    let got = options(&ix, json!({"field": "body"}), "the quock dog");
    let expected = owned(&[
        ("the quick dog", path(&[the, one_edit() * pair, real_word() * (1.0 / (1.0 + 0.00000000001))])),
        ("the quack dog", path(&[the, one_edit() * pair, real_word() * (1.0 / (2.0 + 0.00000000001))])),
    ]);
    assert_eq!(got, expected);
}
