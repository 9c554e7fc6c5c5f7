//! Span queries (and the other queries of this file's later sections) as ES 6.8 answers
//! them: scores checked against Lucene itself (tests/lucene/LuceneQueries.java: Lucene's
//! span queries with Lucene 7's BM25) over generated documents, and ES's REST behaviour
//! (the span examples of ES 6.8's query DSL reference and its builders' parse errors).

mod common;

use base64::Engine as _;
use common::lucene_analysis::{java_oracle, JARS};
use metagate::Engine;
use serde_json::{json, Value};

const WORDS: &[&str] =
    &["quick", "brown", "fox", "jumps", "over", "lazy", "dog", "the", "red", "fast", "fence", "foxes", "jumped"];

/// Deterministic documents of 1 to 14 words.
fn documents() -> Vec<(String, String)> {
    let mut state: u64 = 7;
    let mut next = move || {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    (0..300)
        .map(|i| {
            let n = 1 + next() % 14;
            (format!("d{i}"), (0..n).map(|_| WORDS[next() % WORDS.len()]).collect::<Vec<_>>().join(" "))
        })
        .collect()
}

/// A span query written once, rendered as ES's DSL and as the oracle's notation.
enum S {
    T(&'static str),
    Prefix(&'static str),
    Or(Vec<S>),
    Near(u32, bool, Vec<S>),
    Not(Box<S>, Box<S>, u32, u32),
    First(Box<S>, u32),
    Containing(Box<S>, Box<S>),
    Within(Box<S>, Box<S>),
    /// `span_gap` (a clause of an ordered near only).
    Gap(i32),
}

impl S {
    fn dsl(&self) -> Value {
        match self {
            S::T(w) => json!({"span_term": {"d": w}}),
            S::Prefix(p) => json!({"span_multi": {"match": {"prefix": {"d": p}}}}),
            S::Or(c) => json!({"span_or": {"clauses": c.iter().map(S::dsl).collect::<Vec<_>>()}}),
            S::Near(slop, ordered, c) => json!({"span_near": {
                "clauses": c.iter().map(S::dsl).collect::<Vec<_>>(), "slop": slop, "in_order": ordered}}),
            S::Not(i, e, pre, post) => {
                json!({"span_not": {"include": i.dsl(), "exclude": e.dsl(), "pre": pre, "post": post}})
            }
            S::First(m, end) => json!({"span_first": {"match": m.dsl(), "end": end}}),
            S::Containing(b, l) => json!({"span_containing": {"big": b.dsl(), "little": l.dsl()}}),
            S::Within(b, l) => json!({"span_within": {"big": b.dsl(), "little": l.dsl()}}),
            S::Gap(w) => json!({"span_gap": {"d": w}}),
        }
    }

    fn notation(&self) -> String {
        let list = |c: &[S]| c.iter().map(S::notation).collect::<Vec<_>>().join(",");
        match self {
            S::T(w) => format!("t:{w}"),
            S::Prefix(p) => format!("prefix:{p}"),
            S::Or(c) => format!("or({})", list(c)),
            S::Near(slop, ordered, c) => format!("near({slop},{ordered},{})", list(c)),
            S::Not(i, e, pre, post) => format!("not({},{},{pre},{post})", i.notation(), e.notation()),
            S::First(m, end) => format!("first({},{end})", m.notation()),
            S::Containing(b, l) => format!("containing({},{})", b.notation(), l.notation()),
            S::Within(b, l) => format!("within({},{})", b.notation(), l.notation()),
            S::Gap(w) => format!("gap:{w}"),
        }
    }
}

fn b(s: S) -> Box<S> {
    Box::new(s)
}

fn span_queries() -> Vec<S> {
    use S::*;
    let mut qs = vec![
        T("fox"),
        Near(0, true, vec![T("quick"), T("brown")]),
        Near(2, true, vec![T("quick"), T("fox")]),
        Near(3, false, vec![T("fox"), T("quick")]),
        Near(1, false, vec![T("the"), T("the")]),
        Near(4, true, vec![T("the"), T("lazy"), T("dog")]),
        Near(2, false, vec![T("dog"), T("the"), T("red")]),
        Or(vec![T("fox"), T("dog")]),
        Or(vec![T("fox"), T("nothing")]),
        Near(2, true, vec![Or(vec![T("quick"), T("fast")]), T("fox")]),
        Near(5, false, vec![Near(1, true, vec![T("lazy"), T("dog")]), T("fox")]),
        Not(b(T("fox")), b(T("quick")), 1, 0),
        Not(b(T("dog")), b(T("lazy")), 0, 2),
        Not(b(Near(3, false, vec![T("quick"), T("fox")])), b(T("brown")), 0, 0),
        First(b(T("the")), 2),
        First(b(Near(2, true, vec![T("the"), T("dog")])), 5),
        Containing(b(Near(4, true, vec![T("the"), T("dog")])), b(T("lazy"))),
        Within(b(Near(4, true, vec![T("the"), T("dog")])), b(T("lazy"))),
        Near(1, true, vec![Prefix("fox"), T("jumps")]),
        Or(vec![Prefix("jump"), T("over")]),
        // Gaps (Lucene's SpanNearQuery.addGap), first, between and last, and in a nested near.
        Near(0, true, vec![T("the"), Gap(1), T("fox")]),
        Near(1, true, vec![T("quick"), Gap(1), T("fox")]),
        Near(2, true, vec![T("the"), Gap(2), T("dog"), Gap(1), T("the")]),
        Near(0, true, vec![Gap(2), T("fox")]),
        Near(1, true, vec![T("lazy"), Gap(3)]),
        Near(0, true, vec![T("red"), Gap(0), T("fox")]),
        Near(0, true, vec![T("brown"), Gap(-1), T("fox")]),
        Near(3, false, vec![Near(0, true, vec![T("the"), Gap(1), T("dog")]), T("quick")]),
        Or(vec![Near(1, true, vec![T("fast"), Gap(2), T("fence")]), T("foxes")]),
    ];
    // Every pair of words, ordered and not, at a few slops.
    for (i, a) in ["quick", "fox", "the", "dog"].iter().enumerate() {
        for c in ["brown", "jumps", "lazy", "over"].iter().skip(i % 2) {
            qs.push(Near(1 + i as u32, i % 2 == 0, vec![T(a), T(c)]));
        }
    }
    qs
}

fn engine() -> Engine {
    let docs: Vec<(String, Value)> = documents().into_iter().map(|(id, d)| (id, json!({"d": d}))).collect();
    common::engine_with("queries-more-spans", "spans", None, &docs, None)
}

fn oracle_jars() -> String {
    format!("{JARS}:/usr/share/java/lucene-misc-8.7.0.jar:/usr/share/java/lucene-queries-8.7.0.jar")
}

/// Lucene's total and top 10 (id, score bits) per query, in the oracle's notation.
fn lucene_lines(queries: &[String]) -> Vec<(u64, Vec<(String, u32)>)> {
    let docs = documents();
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let mut input = format!("{}\n", docs.len());
    for (id, text) in &docs {
        input.push_str(&format!("{id}\t{}\n", b64(text)));
    }
    for q in queries {
        input.push_str(&format!("{q}\n"));
    }
    java_oracle("LuceneQueries", &oracle_jars(), input).iter().map(|line| parse_oracle_line(line)).collect()
}

/// Lucene's total and top 10 (id, score bits) per span query.
fn lucene(queries: &[S]) -> Vec<(u64, Vec<(String, u32)>)> {
    let docs = documents();
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let mut input = format!("{}\n", docs.len());
    for (id, text) in &docs {
        input.push_str(&format!("{id}\t{}\n", b64(text)));
    }
    for q in queries {
        input.push_str(&format!("{}\n", q.notation()));
    }
    java_oracle("LuceneQueries", &oracle_jars(), input).iter().map(|line| parse_oracle_line(line)).collect()
}

fn parse_oracle_line(line: &str) -> (u64, Vec<(String, u32)>) {
    let (total, top) = line.split_once('\t').unwrap_or((line, ""));
    let hits = top
        .split_whitespace()
        .map(|h| {
            let (id, bits) = h.split_once(':').unwrap();
            (id.to_string(), u32::from_str_radix(bits, 16).unwrap())
        })
        .collect();
    (total.parse().unwrap(), hits)
}

fn ours(e: &Engine, index: &str, query: &Value) -> (u64, Vec<(String, u32)>) {
    let answer = common::search(e, index, &json!({"query": query, "size": 10, "_source": false}).to_string()).unwrap();
    let hits = answer["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["_id"].as_str().unwrap().to_string(), (h["_score"].as_f64().unwrap() as f32).to_bits()))
        .collect();
    (answer["hits"]["total"].as_u64().unwrap(), hits)
}

/// Lucene 8 keeps Lucene 7's BM25 but computes it as `w - w / (1 + freq * normInverse)`
/// instead of Lucene 7's (ES 6.8's) `w * freq / (freq + norm)`: its scores are rounded to
/// the precision of the weight `w` (boost × summed idfs × (k1 + 1)), several times the
/// score for sloppy spans. So: the same total and documents, scores within 2 ulps of a
/// weight up to 16 times the score, the same order but for neighbours that close.
fn same(o: &(u64, Vec<(String, u32)>), l: &(u64, Vec<(String, u32)>)) -> bool {
    let close = |a: u32, b: u32| {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        (x - y).abs() <= 2.0 * f32::EPSILON * 16.0 * x.max(y)
    };
    let by_id = |h: &[(String, u32)]| h.iter().cloned().collect::<std::collections::HashMap<_, _>>();
    let (mine, theirs) = (by_id(&o.1), by_id(&l.1));
    o.0 == l.0
        && mine.len() == theirs.len()
        && mine.iter().all(|(id, s)| theirs.get(id).is_some_and(|t| close(*s, *t)))
        && o.1.iter().zip(&l.1).all(|(a, b)| a.0 == b.0 || close(a.1, b.1))
}

#[test]
fn span_queries_score_as_lucene() {
    let e = engine();
    let queries = span_queries();
    let theirs = lucene(&queries);
    assert_eq!(theirs.len(), queries.len());
    let mut differ = Vec::new();
    for (q, l) in queries.iter().zip(&theirs) {
        let o = ours(&e, "spans", &q.dsl());
        if !same(&o, l) {
            differ.push(format!("{}\n  metagate {o:?}\n  lucene   {l:?}", q.notation()));
        }
    }
    assert!(theirs.iter().filter(|(t, _)| *t > 0).count() > queries.len() * 3 / 4);
    assert!(differ.is_empty(), "{} differ:\n{}", differ.len(), differ.join("\n"));
}

/// Common terms queries: (cutoff, low operator AND, high operator AND, low msm, high msm,
/// words).
fn common_cases() -> Vec<(f32, bool, bool, u32, u32, &'static str)> {
    vec![
        (0.44, false, false, 0, 0, "the quick fox"),
        (0.46, false, false, 0, 0, "the quick fox dog"),
        (0.01, false, false, 0, 0, "the lazy dog"),
        (0.9, false, false, 0, 0, "lazy dog jumps"),
        (0.45, true, false, 0, 0, "red fence over zebra"),
        (0.45, false, true, 0, 0, "red fence over the brown"),
        (0.45, false, false, 2, 0, "red fence over the brown fox"),
        (0.01, false, false, 0, 2, "red fence over the"),
        (130.0, false, false, 0, 0, "jumped foxes fast the"),
        (140.0, true, true, 0, 0, "jumped foxes fast"),
        (0.45, false, false, 0, 0, "zebra"),
    ]
}

fn common_dsl(c: &(f32, bool, bool, u32, u32, &str)) -> Value {
    let op = |and: bool| if and { "and" } else { "or" };
    let mut msm = serde_json::Map::new();
    if c.3 > 0 {
        msm.insert("low_freq".into(), json!(c.3));
    }
    if c.4 > 0 {
        msm.insert("high_freq".into(), json!(c.4));
    }
    json!({"common": {"d": {"query": c.5, "cutoff_frequency": c.0, "low_freq_operator": op(c.1),
        "high_freq_operator": op(c.2), "minimum_should_match": msm}}})
}

#[test]
fn common_terms_score_as_lucene() {
    let e = engine();
    let cases = common_cases();
    let notation: Vec<String> =
        cases.iter().map(|c| format!("common({},{},{},{},{},{})", c.0, c.1, c.2, c.3, c.4, c.5)).collect();
    let theirs = lucene_lines(&notation);
    assert_eq!(theirs.len(), cases.len());
    let mut differ = Vec::new();
    for ((c, n), l) in cases.iter().zip(&notation).zip(&theirs) {
        let o = ours(&e, "spans", &common_dsl(c));
        if !same(&o, l) {
            differ.push(format!("{n}\n  metagate {o:?}\n  lucene   {l:?}"));
        }
        // `match` with `cutoff_frequency` builds the same query when both operators and
        // the low-frequency minimum are the match's.
        if c.1 == c.2 && c.4 == 0 {
            let mut m = json!({"query": c.5, "cutoff_frequency": c.0, "operator": if c.1 { "and" } else { "or" }});
            if c.3 > 0 {
                m["minimum_should_match"] = json!(c.3);
            }
            let o = ours(&e, "spans", &json!({"match": {"d": m}}));
            if !same(&o, l) {
                differ.push(format!("match {n}\n  metagate {o:?}\n  lucene   {l:?}"));
            }
        }
    }
    assert!(differ.is_empty(), "{} differ:\n{}", differ.len(), differ.join("\n"));
    let totals: Vec<u64> = theirs.iter().map(|(t, _)| *t).collect();
    assert!(totals.iter().filter(|t| **t > 0).count() >= cases.len() - 3, "{totals:?}");
}

// ES 6.8's query DSL reference examples for spans, on a small index.

fn small() -> Engine {
    let docs = [
        ("1", json!({"user": "kimchy", "text": "the quick brown fox jumps over the lazy dog", "tag": "Ab"})),
        ("2", json!({"user": "other", "text": "quick fox", "tag": "ab"})),
        ("3", json!({"user": "kimchy", "text": "the lazy fox and the quick dog", "tag": "cd"})),
    ];
    let e = Engine::open_or_create(&common::temp_file("queries-more-small")).unwrap();
    let body = json!({
        "settings": {"analysis": {"normalizer": {"lower": {"type": "custom", "filter": ["lowercase"]}}}},
        "mappings": {"rin": {"properties": {
            "user": {"type": "text"}, "text": {"type": "text"},
            "tag": {"type": "keyword", "normalizer": "lower"}, "n": {"type": "long"}}}}
    });
    let opts = metagate::LoadOptions { create_body: Some(body), ..Default::default() };
    e.load("test", common::bulk(&docs).as_bytes(), &opts, &mut |_, _| {}).unwrap();
    e
}

fn search(e: &Engine, body: Value) -> Value {
    common::search(e, "test", &body.to_string()).unwrap_or_else(|err| panic!("{body}: {}", err.reason()))
}

fn ids(v: &Value) -> Vec<String> {
    let mut ids = common::hit_ids(v);
    ids.sort();
    ids
}

fn shard_reason(v: &Value) -> (String, String) {
    let r = &v["_shards"]["failures"][0]["reason"];
    (r["type"].as_str().unwrap_or("").to_string(), r["reason"].as_str().unwrap_or("").to_string())
}

#[test]
fn span_term_forms() {
    let e = small();
    for q in [
        json!({"span_term": {"user": "kimchy"}}),
        json!({"span_term": {"user": {"value": "kimchy", "boost": 2.0}}}),
        json!({"span_term": {"user": {"term": "kimchy", "boost": 2.0}}}),
    ] {
        assert_eq!(ids(&search(&e, json!({"query": q}))), ["1", "3"]);
    }
    // Boosts multiply the score as a term query's do.
    let one = search(&e, json!({"query": {"span_term": {"user": "kimchy"}}}));
    let two = search(&e, json!({"query": {"span_term": {"user": {"value": "kimchy", "boost": 2.0}}}}));
    let s = |v: &Value| v["hits"]["hits"][0]["_score"].as_f64().unwrap() as f32;
    assert_eq!(s(&two), s(&one) * 2.0);
}

#[test]
fn span_near_first_not_or_containing_within() {
    let e = small();
    let t = |w: &str| json!({"span_term": {"text": w}});
    let near = |c: Vec<Value>, slop: u32, in_order: bool| json!({"span_near": {"clauses": c, "slop": slop, "in_order": in_order}});
    assert_eq!(ids(&search(&e, json!({"query": near(vec![t("quick"), t("fox")], 0, true)}))), ["2"]);
    assert_eq!(ids(&search(&e, json!({"query": near(vec![t("quick"), t("fox")], 1, true)}))), ["1", "2"]);
    assert_eq!(ids(&search(&e, json!({"query": near(vec![t("fox"), t("quick")], 3, false)}))), ["1", "2", "3"]);
    let first = json!({"span_first": {"match": t("quick"), "end": 1}});
    assert_eq!(ids(&search(&e, json!({"query": first}))), ["2"]);
    let not = json!({"span_not": {"include": t("fox"), "exclude": t("lazy"), "pre": 1}});
    assert_eq!(ids(&search(&e, json!({"query": not}))), ["1", "2"]);
    let or = json!({"span_or": {"clauses": [t("brown"), t("and")]}});
    assert_eq!(ids(&search(&e, json!({"query": or}))), ["1", "3"]);
    let big = near(vec![t("the"), t("fox")], 3, true);
    let containing = json!({"span_containing": {"big": big, "little": t("lazy")}});
    assert_eq!(ids(&search(&e, json!({"query": containing}))), ["3"]);
    let within = json!({"span_within": {"big": big, "little": t("quick")}});
    assert_eq!(ids(&search(&e, json!({"query": within}))), ["1"]);
    let multi = json!({"span_multi": {"match": {"prefix": {"text": {"value": "qui"}}}}});
    assert_eq!(ids(&search(&e, json!({"query": near(vec![multi, t("dog")], 0, true)}))), ["3"]);
    let masked = json!({"span_near": {"clauses": [t("quick"),
        {"field_masking_span": {"query": {"span_term": {"user": "other"}}, "field": "text"}}], "slop": 5, "in_order": false}});
    assert_eq!(ids(&search(&e, json!({"query": masked}))), ["2"]);
}

#[test]
fn span_explain_prints_lucenes_queries() {
    let e = small();
    let q = json!({"span_near": {"clauses": [{"span_term": {"text": "quick"}}, {"span_term": {"text": "fox"}}],
        "slop": 1, "in_order": true}});
    let v = search(&e, json!({"query": q, "explain": true}));
    let hit = v["hits"]["hits"].as_array().unwrap().iter().find(|h| h["_id"] == "1").unwrap();
    let x = &hit["_explanation"];
    assert_eq!(
        x["description"],
        "weight(spanNear([text:quick, text:fox], 1, true) in 0) [PerFieldSimilarity], result of:"
    );
    assert_eq!(x["details"][0]["description"], "score(doc=0,freq=0.5 = phraseFreq=0.5\n), product of:");
    assert_eq!(x["details"][0]["details"][0]["description"], "idf(), sum of:");
    // Lucene's explanation multiplies boost, idf and tfNorm: the last bit may differ
    // from the scorer's.
    let (value, score) = (x["value"].as_f64().unwrap() as f32, hit["_score"].as_f64().unwrap() as f32);
    assert!(value.to_bits().abs_diff(score.to_bits()) <= 2, "{value} {score}");
}

#[test]
fn span_highlight_marks_the_terms() {
    let e = small();
    let q = json!({"span_near": {"clauses": [{"span_term": {"text": "quick"}}, {"span_term": {"text": "fox"}}],
        "slop": 0, "in_order": true}});
    let v = search(&e, json!({"query": q, "highlight": {"fields": {"text": {}}}}));
    assert_eq!(v["hits"]["hits"][0]["highlight"]["text"][0], "<em>quick</em> <em>fox</em>");
}

#[test]
fn span_errors_as_es() {
    let e = small();
    let err = |q: Value| common::search(&e, "test", &json!({"query": q}).to_string()).unwrap_err();
    let x = err(json!({"span_near": {"clauses": [{"match": {"text": "a"}}]}}));
    assert_eq!((x.kind(), x.reason()), ("parsing_exception", "span_near [clauses] must be of type span query"));
    let x = err(json!({"span_or": {"clauses": [{"span_term": {"text": "a"}}], "foo": 1}}));
    assert_eq!(x.reason(), "[span_or] query does not support [foo]");
    let x = err(json!({"span_first": {"end": 3}}));
    assert_eq!(x.reason(), "spanFirst must have [match] span query clause");
    // Clauses on two fields: ES 6.8 adds each clause through Lucene's
    // SpanNearQuery.Builder, which refuses the query on the shard.
    assert_build_failure(
        &e,
        json!({"span_near": {"clauses": [{"span_term": {"text": "a"}}, {"span_term": {"user": "b"}}]}}),
        json!({"type": "illegal_argument_exception", "reason": "Cannot add clause user:b to SpanNearQuery for field text"}),
    );
    // A keyword has no positions: Lucene's SpanTermQuery refuses it.
    let v = common::search(&e, "test", &json!({"query": {"span_term": {"tag": "AB"}}}).to_string());
    let reason = match v {
        Ok(v) => shard_reason(&v).1,
        Err(x) => x.reason().to_string(),
    };
    assert_eq!(reason, "field \"tag\" was indexed without position data; cannot run SpanTermQuery (term=ab)");
}

/// The status and failed shard's reason of a query that fails every shard.
fn shard_failure(e: &Engine, q: Value) -> (u64, Value) {
    let x = common::search(e, "test", &json!({"query": q}).to_string()).unwrap_err().to_json();
    (x["status"].as_u64().unwrap(), x["error"]["failed_shards"][0]["reason"].clone())
}

/// Asserts ES 6.8's failure of a query's `toQuery` on the shard: a
/// `query_shard_exception` (400) caused by `cause`.
fn assert_build_failure(e: &Engine, q: Value, cause: Value) {
    let (status, mut reason) = shard_failure(e, q);
    let uuid = reason.as_object_mut().unwrap().remove("index_uuid");
    assert!(uuid.is_some_and(|u| u.is_string()), "{reason}");
    let text = format!("failed to create query: {}", cause["reason"].as_str().unwrap_or("null"));
    assert_eq!(
        (status, reason),
        (400, json!({"type": "query_shard_exception", "reason": text, "index": "test", "caused_by": cause}))
    );
}

#[test]
fn span_gap_places_clauses_of_an_ordered_near() {
    let e = small();
    let t = |w: &str| json!({"span_term": {"text": w}});
    let gap = |w: i32| json!({"span_gap": {"text": w}});
    let near = |c: Vec<Value>, slop: u32| json!({"span_near": {"clauses": c, "slop": slop, "in_order": true}});
    // "the lazy fox": one position between; "the quick brown fox" has two.
    assert_eq!(ids(&search(&e, json!({"query": near(vec![t("the"), gap(1), t("fox")], 0)}))), ["3"]);
    assert_eq!(ids(&search(&e, json!({"query": near(vec![t("the"), gap(1), t("fox")], 1)}))), ["1", "3"]);
    assert_eq!(ids(&search(&e, json!({"query": near(vec![gap(1), t("fox")], 0)}))), ["1", "2", "3"]);
    // Lucene prints the gap without its field.
    let v = search(&e, json!({"query": near(vec![t("the"), gap(1), t("fox")], 0), "explain": true}));
    assert_eq!(
        v["hits"]["hits"][0]["_explanation"]["description"],
        "weight(spanNear([text:the, SpanGap(:1), text:fox], 0, true) in 2) [PerFieldSimilarity], result of:"
    );

    let unordered = json!({"span_near": {"clauses": [t("the"), gap(1), t("fox")], "in_order": false}});
    let illegal = |reason: &str| json!({"type": "illegal_argument_exception", "reason": reason});
    assert_build_failure(&e, unordered, illegal("Gaps can only be added to ordered near queries"));
    let other_field = near(vec![t("the"), json!({"span_gap": {"user": 1}}), t("fox")], 0);
    assert_build_failure(&e, other_field, illegal("[span_near] clauses must have same field"));
    let x =
        common::search(&e, "test", &json!({"query": {"span_gap": {"text": 1, "user": 2}}}).to_string()).unwrap_err();
    assert_eq!(
        (x.kind(), x.reason()),
        ("parsing_exception", "[span_gap] query doesn't support multiple fields, found [text] and [user]")
    );
    // Anywhere but in a near, ES asks the gap's builder for a query, which throws.
    for q in [json!({"span_gap": {"text": 1}}), json!({"span_or": {"clauses": [t("fox"), gap(1)]}})] {
        assert_build_failure(&e, q, json!({"type": "unsupported_operation_exception", "reason": null}));
    }
}

// `wrapper`, `type` and `common` as ES 6.8's reference shows them.

#[test]
fn wrapper_runs_the_query_it_holds() {
    let e = small();
    // The reference's example: {"term" : { "user" : "kimchy" }} in base64.
    let v = search(&e, json!({"query": {"wrapper": {"query": "eyJ0ZXJtIiA6IHsgInVzZXIiIDogImtpbWNoeSIgfX0="}}}));
    let direct = search(&e, json!({"query": {"term": {"user": "kimchy"}}}));
    assert_eq!(ids(&v), ["1", "3"]);
    assert_eq!(common::hit_scores(&v), common::hit_scores(&direct));
    let err = common::search(&e, "test", &json!({"query": {"wrapper": {"source": "e30="}}}).to_string()).unwrap_err();
    assert_eq!(err.reason(), "[wrapper] query malformed, expected `query` but was source");
}

#[test]
fn type_matches_the_documents_of_its_mapping_type() {
    let e = small();
    assert_eq!(ids(&search(&e, json!({"query": {"type": {"value": "rin"}}}))), ["1", "2", "3"]);
    assert_eq!(search(&e, json!({"query": {"type": {"value": "other"}}}))["hits"]["total"], 0);
}

#[test]
fn common_terms_split_by_frequency() {
    let e = small();
    // "the" is in two of three documents: above a cutoff of 0.5 (ceil(1.5) = 2 is not
    // above 2, so with 0.4: ceil(1.2) = 2, "the" is not common either); with a count of
    // 1, "the" (2) and "quick" (3) are common, "brown" (1) is not: it must match.
    let q = json!({"common": {"text": {"query": "the quick brown", "cutoff_frequency": 1}}});
    assert_eq!(ids(&search(&e, json!({"query": q}))), ["1"]);
    // Only common terms: all of them are required.
    let q = json!({"common": {"text": {"query": "the quick", "cutoff_frequency": 1}}});
    assert_eq!(ids(&search(&e, json!({"query": q}))), ["1", "3"]);
    let q = json!({"common": {"text": {"query": "the quick", "cutoff_frequency": 1,
        "minimum_should_match": {"high_freq": 1}}}});
    assert_eq!(ids(&search(&e, json!({"query": q}))), ["1", "2", "3"]);
    let q = json!({"match": {"text": {"query": "the quick brown", "cutoff_frequency": 1}}});
    assert_eq!(ids(&search(&e, json!({"query": q}))), ["1"]);
}

// `terms_set`: the reference's example (codes with a required number of matches).

fn codes() -> Engine {
    let docs = [
        ("1", json!({"codes": ["ghi", "jkl"], "required_matches": 2})),
        ("2", json!({"codes": ["def", "ghi"], "required_matches": 2})),
        ("3", json!({"codes": ["abc"], "required_matches": 0})),
        ("4", json!({"codes": ["abc", "def"]})),
    ];
    let e = Engine::open_or_create(&common::temp_file("queries-more-codes")).unwrap();
    let body = json!({"mappings": {"rin": {"properties": {
        "codes": {"type": "keyword"}, "required_matches": {"type": "long"}}}}});
    let opts = metagate::LoadOptions { create_body: Some(body), ..Default::default() };
    e.load("codes", common::bulk(&docs).as_bytes(), &opts, &mut |_, _| {}).unwrap();
    e
}

#[test]
fn terms_set_by_field_and_by_script() {
    let e = codes();
    let run = |q: Value| common::search(&e, "codes", &json!({"query": q}).to_string()).unwrap();
    let by_field = run(json!({"terms_set": {"codes": {"terms": ["abc", "def", "ghi"],
        "minimum_should_match_field": "required_matches"}}}));
    // Doc 3 asks for 0 matches: at least one is required, and it has one; doc 4 has no
    // number and never matches.
    assert_eq!(ids(&by_field), ["2", "3"]);
    // The score is the sum of the matching terms' scores.
    let both = run(json!({"bool": {"should": [{"term": {"codes": "def"}}, {"term": {"codes": "ghi"}}],
        "minimum_should_match": 2}}));
    let score = |v: &Value, id: &str| {
        v["hits"]["hits"].as_array().unwrap().iter().find(|h| h["_id"] == id).unwrap()["_score"].as_f64().unwrap()
    };
    assert_eq!(score(&by_field, "2"), score(&both, "2"));
    let by_script = run(json!({"terms_set": {"codes": {"terms": ["abc", "def", "ghi"],
        "minimum_should_match_script": {"source": "Math.min(params.num_terms, params.at_least)",
            "params": {"at_least": 2}}}}}));
    assert_eq!(ids(&by_script), ["2", "4"]);
    let with_doc = run(json!({"terms_set": {"codes": {"terms": ["abc", "def", "ghi"],
        "minimum_should_match_script": {
            "source": "doc['required_matches'].size() == 0 ? 10 : doc['required_matches'].value - 1"}}}}));
    assert_eq!(ids(&with_doc), ["1", "2", "3"]);
}

// ES 6.8's search/40_indices_boost.yml.

fn two_indices() -> Engine {
    let e = Engine::open_or_create(&common::temp_file("queries-more-boost")).unwrap();
    for (index, alias) in [("test_1", "alias_1"), ("test_2", "alias_2")] {
        let opts = metagate::LoadOptions { alias: Some(alias.into()), ..Default::default() };
        e.load(index, common::bulk(&[("1", json!({"foo": "bar"}))]).as_bytes(), &opts, &mut |_, _| {}).unwrap();
    }
    e
}

fn indices_in_order(e: &Engine, boost: Value, params: &[(String, String)]) -> Vec<String> {
    let body = json!({"indices_boost": boost}).to_string();
    let v = common::search_with(e, "_all", &body, params).unwrap_or_else(|err| panic!("{body}: {}", err.reason()));
    assert_eq!(v["hits"]["total"], 2);
    v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_index"].as_str().unwrap().to_string()).collect()
}

#[test]
fn indices_boost_using_object() {
    use metagate::gateway::{keys, Gateway, GatewayConfig, Request};
    let e = two_indices();
    let key = keys::add(&e, "tester").unwrap();
    let g = Gateway::new(std::sync::Arc::new(e), GatewayConfig { rate_limit: 0.0, ..Default::default() });
    for (boost, order) in [
        (json!({"test_1": 2.0, "test_2": 1.0}), ["test_1", "test_2"]),
        (json!({"test_1": 1.0, "test_2": 2.0}), ["test_2", "test_1"]),
    ] {
        let headers =
            vec![("apikey".to_string(), key.clone()), ("Content-Type".to_string(), "application/json".to_string())];
        let body = json!({"indices_boost": boost}).to_string().into_bytes();
        let r = g.handle(&Request { method: "POST".into(), path: "/elastic/v1/_all/_search".into(), headers, body });
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v: Value = serde_json::from_slice(&r.body).unwrap();
        let got: Vec<&str> =
            v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_index"].as_str().unwrap()).collect();
        assert_eq!(got, order);
        let warnings = common::response_header(&r, "Warning");
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].contains("\"Object format in indices_boost is deprecated, please use array format instead\"")
        );
    }
}

#[test]
fn indices_boost_using_array_alias_and_wildcard() {
    let e = two_indices();
    assert_eq!(indices_in_order(&e, json!([{"test_1": 2.0}, {"test_2": 1.0}]), &[]), ["test_1", "test_2"]);
    assert_eq!(indices_in_order(&e, json!([{"test_1": 1.0}, {"test_2": 2.0}]), &[]), ["test_2", "test_1"]);
    assert_eq!(indices_in_order(&e, json!([{"alias_1": 2.0}]), &[]), ["test_1", "test_2"]);
    assert_eq!(indices_in_order(&e, json!([{"alias_2": 2.0}]), &[]), ["test_2", "test_1"]);
    assert_eq!(indices_in_order(&e, json!([{"*_1": 2.0}]), &[]), ["test_1", "test_2"]);
    assert_eq!(indices_in_order(&e, json!([{"*_2": 2.0}]), &[]), ["test_2", "test_1"]);
    // The first entry naming an index gives its boost.
    let first = json!([{"*_1": 3.0}, {"alias_1": 1.0}, {"test_2": 2.0}]);
    assert_eq!(indices_in_order(&e, first, &[]), ["test_1", "test_2"]);
    let first = json!([{"*_1": 1.0}, {"test_2": 2.0}, {"alias_1": 3.0}]);
    assert_eq!(indices_in_order(&e, first, &[]), ["test_2", "test_1"]);
}

#[test]
fn indices_boost_for_nonexistent_index() {
    let e = two_indices();
    let body = json!({"indices_boost": [{"nonexistent": 2.0}, {"test_1": 1.0}, {"test_2": 2.0}]}).to_string();
    let err = common::search_with(&e, "_all", &body, &[]).unwrap_err();
    assert_eq!((err.status, err.kind()), (404, "index_not_found_exception"));
    assert_eq!(err.reason(), "no such index");
    let ignore = [("ignore_unavailable".to_string(), "true".to_string())];
    let boost = json!([{"nonexistent": 2.0}, {"test_1": 1.0}, {"test_2": 2.0}]);
    assert_eq!(indices_in_order(&e, boost, &ignore), ["test_2", "test_1"]);
}
