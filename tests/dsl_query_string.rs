//! `query_string`, `simple_query_string` and URI `q`: the Lucene syntax as ES 6.8 runs it,
//! through the engine API (body) and URI search (parameters).

mod common;
use common::hit_ids as ids;
use metagate::Engine;
use metagate::Family;
use serde_json::{json, Value};

fn corpus() -> Vec<(&'static str, Value)> {
    vec![
        (
            "rrid:scr_004870",
            json!({"item": {"name": "BLAST", "identifier": "SCR_004870",
                "description": "Basic local alignment search tool for protein and nucleotide sequence data.",
                "types": [{"name": "software application"}, {"name": "web service"}],
                "keywords": [{"keyword": "Sequence alignment"}]},
                "mentions": [{"totalMentions": {"count": 120}}], "recordValid": true}),
        ),
        (
            "rrid:scr_001591",
            json!({"item": {"name": "Clustal Omega", "identifier": "SCR_001591",
                "description": "Multiple sequence alignment program for proteins.",
                "types": [{"name": "software application"}]},
                "mentions": [{"totalMentions": {"count": 40}}], "recordValid": true}),
        ),
        (
            "rrid:scr_003070",
            json!({"item": {"name": "ImageJ", "identifier": "SCR_003070",
                "description": "Image processing and analysis in Java.",
                "types": [{"name": "software application"}]},
                "mentions": [{"totalMentions": {"count": 900}}], "recordValid": false}),
        ),
        (
            "rrid:scr_005780",
            json!({"item": {"name": "UCSC Genome Browser", "identifier": "SCR_005780",
                "description": "Interactive visualization of genome sequence data and local annotations.",
                "types": [{"name": "database"}, {"name": "web service"}]},
                "references": [{"curie": "DOI:10.26275/abc-123"}],
                "mentions": [{"totalMentions": {"count": 300}}], "recordValid": true}),
        ),
    ]
}

fn engine() -> Engine {
    common::engine_with("qs", "tools", Some("RIN_Tool_pr"), &corpus(), Some(Family::Registry))
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn qs(e: &Engine, q: Value) -> Vec<String> {
    let body = json!({"query": {"query_string": q}}).to_string();
    ids(&common::search(e, "tools", &body).unwrap_or_else(|err| panic!("{body}: {:?}", err.to_json())))
}

// The engine's own error type, as its API returns it.
#[allow(clippy::result_large_err)]
fn uri(e: &Engine, params: &[(&str, &str)]) -> metagate::Result<Value> {
    let p: Vec<(String, String)> = params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    common::search_with(e, "RIN_Tool_pr", "", &p)
}

fn scores(res: &Value) -> Vec<f64> {
    res["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_score"].as_f64().unwrap()).collect()
}

const S1: &str = "rrid:scr_004870";
const S2: &str = "rrid:scr_001591";
const S3: &str = "rrid:scr_003070";
const S4: &str = "rrid:scr_005780";

#[test]
fn terms_fields_and_boolean_syntax() {
    let e = engine();
    // Field-less text searches every field (`*`), leniently.
    assert_eq!(sorted(qs(&e, json!({"query": "alignment"}))), [S2, S1]);
    assert_eq!(sorted(qs(&e, json!({"query": "item.name:(blast OR clustal)"}))), [S2, S1]);
    assert_eq!(qs(&e, json!({"query": "item.name:((blast) OR (imagej)) AND recordValid:false"})), [S3]);
    assert_eq!(qs(&e, json!({"query": "alignment AND NOT clustal"})), [S1]);
    assert_eq!(qs(&e, json!({"query": "alignment && !clustal"})), [S1]);
    assert_eq!(qs(&e, json!({"query": "+alignment -blast"})), [S2]);
    assert_eq!(sorted(qs(&e, json!({"query": "imagej || clustal"}))), [S2, S3]);
    // Wildcard field names and `_id`.
    assert_eq!(qs(&e, json!({"query": "*identifier:SCR_004870"})), [S1]);
    assert_eq!(qs(&e, json!({"query": r"_id:rrid\:scr_003070"})), [S3]);
    // Escapes: `\:` and `\/` are literal.
    assert_eq!(qs(&e, json!({"query": r"references.curie:DOI\:10.26275\/abc-123"})), [S4]);
    // `_exists_` and `field:*`.
    assert_eq!(qs(&e, json!({"query": "_exists_:item.keywords.keyword"})), [S1]);
    assert_eq!(qs(&e, json!({"query": "references.curie:*"})), [S4]);
    assert_eq!(qs(&e, json!({"query": "*"})).len(), 4);
    assert_eq!(qs(&e, json!({"query": "*:*"})).len(), 4);
}

#[test]
fn default_operator_fields_and_types() {
    let e = engine();
    let base = json!({"query": "sequence alignment", "fields": ["item.description"]});
    assert_eq!(sorted(qs(&e, base.clone())), [S2, S1, S4]);
    let mut and = base.clone();
    and["default_operator"] = json!("and");
    assert_eq!(sorted(qs(&e, and)), [S2, S1]);
    let mut and_upper = base.clone();
    and_upper["default_operator"] = json!("AND");
    assert_eq!(sorted(qs(&e, and_upper)), [S2, S1]);
    // minimum_should_match on the top-level clauses.
    let msm = json!({"query": "local genome java", "fields": ["item.description"], "minimum_should_match": "2"});
    assert_eq!(qs(&e, msm), [S4]);
    // Field boosts: the boosted field wins the dis_max.
    let body = |fields: Value| json!({"query": {"query_string": {"query": "blast", "fields": fields}}}).to_string();
    let plain = common::search(&e, "tools", &body(json!(["item.name", "item.description"]))).unwrap();
    let boosted = common::search(&e, "tools", &body(json!(["item.name^2", "item.description"]))).unwrap();
    assert_eq!(scores(&boosted)[0] as f32, (scores(&plain)[0] as f32) * 2.0);
    // type: every form is accepted and finds the same documents here.
    for t in ["best_fields", "most_fields", "cross_fields", "phrase"] {
        let q = json!({"query": "sequence alignment", "fields": ["item.name", "item.description"], "type": t,
                       "default_operator": "and"});
        let want: &[&str] = if t == "phrase" { &[S2] } else { &[S2, S1] };
        assert_eq!(sorted(qs(&e, q)), want, "type {t}");
    }
    // type phrase makes bare terms a phrase: "alignment sequence" is not one.
    let q = json!({"query": "alignment sequence", "fields": ["item.description"], "type": "phrase"});
    assert!(qs(&e, q).is_empty());
    // A pattern for fields, and a boost on the whole query.
    let q = json!({"query": "web", "fields": ["item.types.*"], "boost": 3});
    assert_eq!(sorted(qs(&e, q)), [S1, S4]);
}

#[test]
fn phrases_wildcards_regexps_fuzzy_and_ranges() {
    let e = engine();
    assert_eq!(qs(&e, json!({"query": "\"local alignment\""})), [S1]);
    assert!(qs(&e, json!({"query": "\"basic alignment\""})).is_empty());
    assert_eq!(qs(&e, json!({"query": "\"basic alignment\"~1"})), [S1]);
    // Wildcards are lowercased for text fields; a trailing `*` is a prefix.
    assert_eq!(qs(&e, json!({"query": "item.name:Clust*"})), [S2]);
    assert_eq!(qs(&e, json!({"query": "item.name:*mage*"})), [S3]);
    assert_eq!(qs(&e, json!({"query": "item.name:i?agej"})), [S3]);
    // Keyword fields keep their case unless normalized (`.aggregate` lowercases).
    assert_eq!(qs(&e, json!({"query": "item.keywords.keyword:Sequence*"})), [S1]);
    assert!(qs(&e, json!({"query": "item.keywords.keyword:sequence*"})).is_empty());
    assert_eq!(qs(&e, json!({"query": "item.name.aggregate:ucsc*"})), [S4]);
    assert_eq!(qs(&e, json!({"query": "item.name:/clust.*/"})), [S2]);
    assert_eq!(qs(&e, json!({"query": "item.name:imagj~1"})), [S3]);
    assert_eq!(qs(&e, json!({"query": "item.name:genme~"})), [S4]);
    // Ranges: numbers, open ends, comparison syntax.
    let count = "mentions.totalMentions.count";
    assert_eq!(sorted(qs(&e, json!({"query": format!("{count}:[100 TO 500]")}))), [S1, S4]);
    assert_eq!(qs(&e, json!({"query": format!("{count}:{{120 TO 500]")})), [S4]);
    assert_eq!(sorted(qs(&e, json!({"query": format!("{count}:>=300")}))), [S3, S4]);
    assert_eq!(qs(&e, json!({"query": format!("{count}:<100")})), [S2]);
    assert_eq!(sorted(qs(&e, json!({"query": format!("{count}:[300 TO *]")}))), [S3, S4]);
    assert_eq!(qs(&e, json!({"query": "item.identifier.aggregate:[scr_004000 TO scr_005000]"})), [S1]);
    // analyze_wildcard analyzes the prefix text.
    let q = json!({"query": "item.description:local-align*", "analyze_wildcard": true, "default_operator": "and"});
    assert_eq!(qs(&e, q), [S1]);
    let q = json!({"query": "item.description:local-align*", "analyze_wildcard": true});
    assert_eq!(sorted(qs(&e, q)), [S2, S1, S4]);
}

#[test]
fn leniency_and_errors() {
    let e = engine();
    let count = "mentions.totalMentions.count";
    // Text against a number: an error unless lenient (the string "true" is accepted).
    let q = json!({"query": {"query_string": {"query": format!("{count}:abc"), "default_field": "item.name"}}});
    let err = common::search(&e, "tools", &q.to_string()).unwrap_err();
    assert_eq!(err.status, 400);
    let ok = json!({"query": {"query_string": {"query": format!("{count}:abc"), "default_field": "item.name", "lenient": "true"}}});
    assert!(ids(&common::search(&e, "tools", &ok.to_string()).unwrap()).is_empty());
    // The default `*` field makes the whole query lenient, as in ES.
    assert!(qs(&e, json!({"query": "zzz"})).is_empty());
    assert!(qs(&e, json!({"query": format!("{count}:abc")})).is_empty());
    // Syntax errors: ES's shard failure with the parser's reason.
    let err = common::search(&e, "tools", r#"{"query":{"query_string":{"query":"item.name:(blast"}}}"#).unwrap_err();
    let j = err.to_json();
    assert_eq!(err.status, 400);
    assert_eq!(j["error"]["type"], "search_phase_execution_exception");
    assert_eq!(j["error"]["reason"], "all shards failed");
    assert_eq!(j["error"]["root_cause"][0]["type"], "query_shard_exception");
    assert_eq!(j["error"]["root_cause"][0]["reason"], "Failed to parse query [item.name:(blast]");
    assert_eq!(j["error"]["root_cause"][0]["index"], "tools");
    let cause = &j["error"]["failed_shards"][0]["reason"]["caused_by"];
    assert_eq!(cause["type"], "parse_exception");
    assert!(cause["reason"].as_str().unwrap().starts_with("Cannot parse 'item.name:(blast': "), "{cause}");
    // Leading wildcards can be refused.
    let q = json!({"query": {"query_string": {"query": "*mage", "allow_leading_wildcard": false}}});
    assert!(common::search(&e, "tools", &q.to_string()).is_err());
    // Unknown analyzer.
    let q = json!({"query": {"query_string": {"query": "x", "analyzer": "nope"}}});
    let j = common::search(&e, "tools", &q.to_string()).unwrap_err().to_json();
    assert_eq!(j["error"]["root_cause"][0]["reason"], "[query_string] analyzer [nope] not found");
    // Garbage never panics.
    for q in ["((((", "a:b:c", "\"open", "[1 TO", "\\", "&&", "!!", "/x", "a~~", "^2", "x:", ":", "*:", "a^"] {
        let _ = common::search(&e, "tools", &json!({"query": {"query_string": {"query": q}}}).to_string());
        let _ = common::search(&e, "tools", &json!({"query": {"simple_query_string": {"query": q}}}).to_string());
    }
}

#[test]
fn simple_query_string() {
    let e = engine();
    let sqs = |q: Value| {
        let body = json!({"query": {"simple_query_string": q}}).to_string();
        ids(&common::search(&e, "tools", &body).unwrap_or_else(|err| panic!("{body}: {:?}", err.to_json())))
    };
    assert_eq!(sorted(sqs(json!({"query": "alignment", "fields": ["item.name^5", "item.description"]}))), [S2, S1]);
    assert_eq!(sqs(json!({"query": "alignment +blast"})), [S1]);
    assert_eq!(sorted(sqs(json!({"query": "blast | imagej", "default_operator": "and"}))), [S3, S1]);
    assert_eq!(sqs(json!({"query": "\"local alignment\"", "fields": ["item.description"]})), [S1]);
    assert_eq!(sqs(json!({"query": "clust*", "fields": ["item.name"]})), [S2]);
    assert_eq!(sqs(json!({"query": "imagj~1", "fields": ["item.name"]})), [S3]);
    assert_eq!(
        sqs(
            json!({"query": "alignment -clustal", "fields": ["item.description", "item.name"], "default_operator": "and"})
        ),
        [S1]
    );
    // Flags off: no operators, not even whitespace: one text, analyzed as a whole.
    let off = sqs(json!({"query": "alignment +blast", "flags": "NONE", "fields": ["item.name"]}));
    assert_eq!(off, [S1]);
    assert_eq!(sqs(json!({"query": "clust*", "flags": "AND|OR", "fields": ["item.name"]})), Vec::<String>::new());
    assert_eq!(sqs(json!({"query": "*"})).len(), 4);
}

#[test]
fn uri_q_and_its_parameters() {
    let e = engine();
    let q =
        |params: &[(&str, &str)]| ids(&uri(&e, params).unwrap_or_else(|err| panic!("{params:?}: {:?}", err.to_json())));
    assert_eq!(sorted(q(&[("q", "alignment")])), [S2, S1]);
    assert_eq!(q(&[("q", "item.name:imagej")]), [S3]);
    assert_eq!(sorted(q(&[("q", "sequence alignment"), ("df", "item.description")])), [S2, S1, S4]);
    assert_eq!(
        sorted(q(&[("q", "sequence alignment"), ("df", "item.description"), ("default_operator", "AND")])),
        [S2, S1]
    );
    let abc = "mentions.totalMentions.count:abc OR imagej";
    assert_eq!(q(&[("q", abc), ("df", "item.name"), ("lenient", "true")]), [S3]);
    assert!(uri(&e, &[("q", abc), ("df", "item.name")]).is_err());
    assert_eq!(q(&[("q", abc)]), [S3]);
    let aw = [("q", "item.description:local-align*"), ("analyze_wildcard", "true"), ("default_operator", "and")];
    assert_eq!(q(&aw), [S1]);
    assert_eq!(
        sorted(q(&[("q", "Alignment"), ("analyzer", "whitespace"), ("df", "item.description")])),
        Vec::<String>::new()
    );
    assert_eq!(q(&[("q", "imagej"), ("size", "1"), ("from", "0")]), [S3]);
    // URI and body give the same scores.
    let via_uri = uri(&e, &[("q", "sequence OR genome")]).unwrap();
    let via_body =
        common::search(&e, "RIN_Tool_pr", r#"{"query":{"query_string":{"query":"sequence OR genome"}}}"#).unwrap();
    assert_eq!(via_uri["hits"], via_body["hits"]);
    let err = uri(&e, &[("q", "a:")]).unwrap_err().to_json();
    assert_eq!(err["error"]["root_cause"][0]["reason"], "Failed to parse query [a:]");
}

#[test]
fn bare_terms_are_analyzed_together_per_field() {
    let e = engine();
    // "local sequence" over two fields: ES scores the best field's sum of both terms,
    // not the sum of each term's best field.
    let body = |q: &str| {
        json!({"query": {"query_string": {"query": q, "fields": ["item.name", "item.description"]}}, "explain": true})
            .to_string()
    };
    let grouped = common::search(&e, "tools", &body("local sequence")).unwrap();
    let explicit_or = common::search(&e, "tools", &body("local OR sequence")).unwrap();
    let top = &grouped["hits"]["hits"][0];
    assert_eq!(top["_explanation"]["description"], "max of:");
    assert_eq!(top["_explanation"]["details"][0]["description"], "sum of:");
    let first = top["_explanation"]["details"][0]["details"][0]["description"].as_str().unwrap();
    assert!(first.starts_with("weight(item.description:local in "), "{first}");
    // With an explicit OR each term is its own clause (a dis_max per term).
    let top_or = &explicit_or["hits"]["hits"][0];
    assert_eq!(top_or["_explanation"]["description"], "sum of:");
    assert_eq!(grouped["hits"]["total"], explicit_or["hits"]["total"]);
}
