//! `highlight` and `explain` through the engine API and URI search.

mod common;
use metagate::Family;
use serde_json::{json, Value};

fn twitter() -> metagate::Engine {
    // The ES 6.x explain documentation example: docFreq 1, docCount 5, avgFieldLength 5.4,
    // fieldLength 3.
    let mut docs = vec![("0", json!({"message": "trying out Elasticsearch"}))];
    for id in ["1", "2", "3", "4"] {
        docs.push((id, json!({"message": "one two three four five six"})));
    }
    common::engine_with("explain", "twitter", None, &docs, None)
}

#[test]
fn explanation_of_the_documented_example() {
    let e = twitter();
    let res =
        common::search(&e, "twitter", r#"{"query":{"term":{"message":"elasticsearch"}},"explain":true}"#).unwrap();
    let hit = &res["hits"]["hits"][0];
    assert_eq!(hit["_shard"], "[twitter][0]");
    assert_eq!(hit["_score"].as_f64().unwrap() as f32, 1.6943598f32);
    let want = json!({"value":1.6943599,"description":"weight(message:elasticsearch in 0) [PerFieldSimilarity], result of:","details":[
        {"value":1.6943599,"description":"score(doc=0,freq=1.0 = termFreq=1.0\n), product of:","details":[
            {"value":1.3862944,"description":"idf, computed as log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)) from:","details":[
                {"value":1.0,"description":"docFreq","details":[]},{"value":5.0,"description":"docCount","details":[]}]},
            {"value":1.2222223,"description":"tfNorm, computed as (freq * (k1 + 1)) / (freq + k1 * (1 - b + b * fieldLength / avgFieldLength)) from:","details":[
                {"value":1.0,"description":"termFreq=1.0","details":[]},{"value":1.2,"description":"parameter k1","details":[]},
                {"value":0.75,"description":"parameter b","details":[]},{"value":5.4,"description":"avgFieldLength","details":[]},
                {"value":3.0,"description":"fieldLength","details":[]}]}]}]});
    assert_eq!(hit["_explanation"], want);
    // The same through URI search.
    let p = vec![("q".to_string(), "message:elasticsearch".to_string()), ("explain".to_string(), "true".to_string())];
    let res = common::search_with(&e, "twitter", "", &p).unwrap();
    assert_eq!(res["hits"]["hits"][0]["_explanation"], want);
}

fn registry() -> metagate::Engine {
    common::engine_with(
        "hl",
        "tools",
        None,
        &[
            (
                "1",
                json!({"item": {"name": "BLAST", "status": "active",
                    "description": "Basic local alignment search tool. It finds regions of local similarity between sequences. The program compares nucleotide or protein sequences to sequence databases and calculates the statistical significance of matches.",
                    "synonyms": [{"name": "Basic Local Alignment Search Tool"}, {"name": "blastn"}]}}),
            ),
            (
                "2",
                json!({"item": {"name": "Clustal", "status": "inactive", "description": "Multiple <sequence> alignment & more"}}),
            ),
            ("3", json!({"item": {"name": "ImageJ", "status": "active", "description": "Image analysis"}})),
        ],
        Some(Family::Registry),
    )
}

fn explanation(e: &metagate::Engine, query: Value) -> Value {
    let body = json!({"query": query, "explain": true}).to_string();
    let res = common::search(e, "tools", &body).unwrap();
    res["hits"]["hits"][0]["_explanation"].clone()
}

#[test]
fn explanation_shapes_per_query_type() {
    let e = registry();
    // bool: sum of the scoring clauses, filters as required clauses scoring 0.
    let x = explanation(
        &e,
        json!({"bool": {"must": {"match": {"item.name": "blast"}}, "filter": {"term": {"item.status": "active"}},
                        "should": {"match": {"item.description": "alignment"}}}}),
    );
    assert_eq!(x["description"], "sum of:");
    let d = x["details"].as_array().unwrap();
    assert_eq!(d.len(), 3);
    assert!(d[0]["description"].as_str().unwrap().starts_with("weight(item.name:blast in 0)"));
    assert!(d[1]["description"].as_str().unwrap().starts_with("weight(item.description:alignment in 0)"));
    assert_eq!(d[2]["description"], "match on required clause, product of:");
    assert_eq!(d[2]["details"][0]["description"], "# clause");
    assert_eq!(d[2]["details"][1]["value"], 0.0);
    let sum = d[0]["value"].as_f64().unwrap() as f32 + d[1]["value"].as_f64().unwrap() as f32;
    assert_eq!(x["value"].as_f64().unwrap() as f32, sum);
    // Keyword terms have no norms.
    let x = explanation(&e, json!({"term": {"item.status": {"value": "active", "boost": 2}}}));
    let score = &x["details"][0];
    assert_eq!(score["details"][0], json!({"value": 2.0, "description": "boost", "details": []}));
    assert_eq!(score["details"][2]["description"], "tfNorm, computed as (freq * (k1 + 1)) / (freq + k1) from:");
    assert_eq!(score["details"][2]["details"][2]["description"], "parameter b (norms omitted for field)");
    // dis_max
    let x = explanation(
        &e,
        json!({"dis_max": {"tie_breaker": 0.3, "queries": [{"match": {"item.name": "blast"}}, {"match": {"item.description": "blast"}}]}}),
    );
    assert_eq!(x["description"], "max plus 0.3 times others of:");
    let x = explanation(
        &e,
        json!({"dis_max": {"queries": [{"match": {"item.name": "blast"}}, {"match": {"item.synonyms.name": "blast"}}]}}),
    );
    assert_eq!(x["description"], "max of:");
    // constant score and match_all
    let x = explanation(&e, json!({"constant_score": {"filter": {"term": {"item.status": "active"}}, "boost": 1.5}}));
    assert_eq!(x, json!({"value": 1.5, "description": "ConstantScore(item.status:active)^1.5", "details": []}));
    assert_eq!(explanation(&e, json!({"match_all": {}})), json!({"value": 1.0, "description": "*:*", "details": []}));
    // phrases: summed idf and the phrase frequency.
    let x = explanation(&e, json!({"match_phrase": {"item.description": "local alignment"}}));
    assert_eq!(x["description"], "weight(item.description:\"local alignment\" in 0) [PerFieldSimilarity], result of:");
    assert_eq!(x["details"][0]["details"][0]["description"], "idf(), sum of:");
    assert_eq!(x["details"][0]["details"][1]["details"][0]["description"], "phraseFreq=1.0");
    // function_score: the query, then min(function, maxBoost).
    let x = explanation(
        &e,
        json!({"function_score": {"query": {"match": {"item.name": "blast"}}, "weight": 2, "boost_mode": "multiply"}}),
    );
    assert_eq!(x["description"], "function score, product of:");
    assert_eq!(x["details"][1]["description"], "min of:");
    assert_eq!(x["details"][1]["details"][0]["description"], "product of:");
    assert_eq!(x["details"][1]["details"][1]["description"], "maxBoost");
    // The explanation value is the hit's score (up to Lucene's own last-bit differences).
    let res =
        common::search(&e, "tools", r#"{"query":{"match":{"item.description":"sequences alignment"}},"explain":true}"#)
            .unwrap();
    for h in res["hits"]["hits"].as_array().unwrap() {
        let (s, v) = (h["_score"].as_f64().unwrap() as f32, h["_explanation"]["value"].as_f64().unwrap() as f32);
        assert!((s - v).abs() <= f32::EPSILON * 4.0 * s.max(1.0), "{s} vs {v}");
    }
    // query_string explanations follow its Lucene structure.
    let x = explanation(&e, json!({"query_string": {"query": "item.name:blast OR item.status:active"}}));
    assert_eq!(x["description"], "sum of:");
}

/// Highlights by document: `h[0]` is document "1", `h[1]` document "2", ...
fn highlight(e: &metagate::Engine, query: Value, hl: Value) -> Vec<Value> {
    let body = json!({"query": query, "highlight": hl}).to_string();
    let res = common::search(e, "tools", &body).unwrap();
    let mut out = vec![Value::Null; 3];
    for h in res["hits"]["hits"].as_array().unwrap() {
        let i: usize = h["_id"].as_str().unwrap().parse().unwrap();
        out[i - 1] = h.get("highlight").cloned().unwrap_or(Value::Null);
    }
    out
}

#[test]
fn highlighting() {
    let e = registry();
    let h =
        highlight(&e, json!({"match": {"item.description": "alignment"}}), json!({"fields": {"item.description": {}}}));
    assert_eq!(h[0]["item.description"], json!(["Basic local <em>alignment</em> search tool."]));
    assert_eq!(h[1]["item.description"], json!(["Multiple <sequence> <em>alignment</em> & more"]));
    // Tags, whole values (number_of_fragments 0), html encoder.
    let h = highlight(
        &e,
        json!({"match": {"item.description": "alignment"}}),
        json!({"pre_tags": ["<b>"], "post_tags": ["</b>"], "number_of_fragments": 0, "encoder": "html", "fields": {"item.description": {}}}),
    );
    assert!(h[0]["item.description"][0]
        .as_str()
        .unwrap()
        .starts_with("Basic local <b>alignment</b> search tool. It finds"));
    assert_eq!(h[1]["item.description"], json!(["Multiple &lt;sequence&gt; <b>alignment</b> &amp; more"]));
    // Several fragments from a long value, bounded by fragment_size, in document order.
    let h = highlight(
        &e,
        json!({"match": {"item.description": "sequences local"}}),
        json!({"fields": {"item.description": {"fragment_size": 60, "number_of_fragments": 2}}}),
    );
    let frags = h[0]["item.description"].as_array().unwrap();
    assert_eq!(frags.len(), 2);
    assert!(frags.iter().all(|f| f.as_str().unwrap().contains("<em>")));
    // Wildcard field names; require_field_match.
    let h = highlight(&e, json!({"match": {"item.name": "blast"}}), json!({"fields": {"item.*": {}}}));
    assert_eq!(h[0]["item.name"], json!(["<em>BLAST</em>"]));
    assert!(h[0].get("item.synonyms.name").is_none());
    let q = json!({"match": {"item.name": "blast local"}});
    let h = highlight(&e, q.clone(), json!({"fields": {"item.synonyms.name": {}}}));
    assert_eq!(h[0], Value::Null);
    let h = highlight(&e, q, json!({"require_field_match": false, "fields": {"item.synonyms.name": {}}}));
    assert_eq!(h[0]["item.synonyms.name"], json!(["Basic <em>Local</em> Alignment Search Tool"]));
    // highlight_query replaces the query's terms.
    let h = highlight(
        &e,
        json!({"match": {"item.name": "blast"}}),
        json!({"fields": {"item.description": {"highlight_query": {"match": {"item.description": "tool"}}}}}),
    );
    assert_eq!(h[0]["item.description"], json!(["Basic local alignment search <em>tool</em>."]));
    // Phrases highlight only where the whole phrase occurs; query_string terms too.
    let h = highlight(
        &e,
        json!({"match_phrase": {"item.description": "local similarity"}}),
        json!({"fields": {"item.description": {}}}),
    );
    assert_eq!(
        h[0]["item.description"],
        json!(["It finds regions of <em>local</em> <em>similarity</em> between sequences."])
    );
    let h = highlight(&e, json!({"query_string": {"query": "imag*"}}), json!({"fields": {"item.*": {}}}));
    assert_eq!(h[2]["item.name"], json!(["<em>ImageJ</em>"]));
    assert_eq!(h[2]["item.description"], json!(["<em>Image</em> analysis"]));
    // Keyword fields highlight whole values.
    let h = highlight(&e, json!({"term": {"item.status": "inactive"}}), json!({"fields": {"item.status": {}}}));
    assert_eq!(h[1]["item.status"], json!(["<em>inactive</em>"]));
    // URI search with a body highlight.
    let p = vec![("q".to_string(), "clustal".to_string())];
    let res = common::search_with(&e, "tools", r#"{"highlight":{"fields":{"item.name":{}}}}"#, &p).unwrap();
    assert_eq!(res["hits"]["hits"][0]["highlight"]["item.name"], json!(["<em>Clustal</em>"]));
}
