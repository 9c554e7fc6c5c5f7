//! Loading, generations, aliases, index expressions and the file format, through the engine.

mod common;
use metagate::LoadOptions;
use metagate::{AliasAction, Engine};
use serde_json::json;
use std::io::Write;

fn tool(name: &str, desc: &str) -> serde_json::Value {
    json!({"item": {"name": name, "description": desc, "identifier": format!("SCR_{name}")}})
}

#[test]
fn bad_lines_are_reported_with_line_numbers_and_abort_leaves_nothing() {
    let path = common::temp_file("badlines");
    let e = Engine::open_or_create(&path).unwrap();
    let input = "{\"index\":{\"_id\":\"1\"}}\n{\"a\":1}\n{\"index\":{\"_id\":\"2\"}}\n{\"a\": oops}\n{\"index\":{\"_id\":\"3\"}}\n{\"a\":\"x\"}\n";
    // max_errors 0: the whole load fails and no index appears.
    let err = e.load("t", input.as_bytes(), &LoadOptions::default(), &mut |_, _| {}).unwrap_err();
    assert!(err.reason().contains("line 4"), "{}", err.reason());
    assert!(e.indices().unwrap().is_empty());
    // Tolerating one error: two documents, the error names line 4; line 6 maps a as long
    // and fails to coerce "x" -> a second error.
    let opts = LoadOptions { max_errors: 5, ..Default::default() };
    let r = e.load("t", input.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    assert_eq!(r.docs, 1);
    assert_eq!(r.errors.iter().map(|x| x.line).collect::<Vec<_>>(), vec![4, 6]);
    assert_eq!(e.indices().unwrap()[0].docs, 1);
}

#[test]
fn gzip_plain_lines_and_id_field() {
    let path = common::temp_file("gz");
    let e = Engine::open_or_create(&path).unwrap();
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    writeln!(enc, "{{\"ilx\":\"ilx_1\",\"label\":\"heart\"}}").unwrap();
    writeln!(enc, "{{\"ilx\":\"ilx_2\",\"label\":\"Heart valve\"}}").unwrap();
    let gz = enc.finish().unwrap();
    let opts = LoadOptions {
        id_field: Some("ilx".into()),
        doc_type: "term".into(),
        alias: Some("Lexicon_pr".into()),
        ..Default::default()
    };
    let r = e.load("lexicon-v1", &gz[..], &opts, &mut |_, _| {}).unwrap();
    assert_eq!(r.docs, 2);
    let res = common::search(&e, "Lexicon_pr", r#"{"query":{"term":{"_id":"ilx_2"}}}"#).unwrap();
    assert_eq!(res["hits"]["hits"][0]["_type"], "term");
    assert_eq!(res["hits"]["hits"][0]["_index"], "lexicon-v1");
    assert_eq!(res["hits"]["hits"][0]["_source"], json!({"ilx":"ilx_2","label":"Heart valve"}));
}

#[test]
fn duplicate_ids_replace_and_create_conflicts() {
    let path = common::temp_file("dup");
    let e = Engine::open_or_create(&path).unwrap();
    let input = "{\"index\":{\"_id\":\"1\"}}\n{\"v\":\"old\"}\n{\"index\":{\"_id\":\"1\"}}\n{\"v\":\"new\"}\n{\"create\":{\"_id\":\"1\"}}\n{\"v\":\"third\"}\n";
    let opts = LoadOptions { max_errors: 1, ..Default::default() };
    let r = e.load("d", input.as_bytes(), &opts, &mut |_, _| {}).unwrap();
    assert_eq!((r.docs, r.replaced, r.errors.len()), (1, 1, 1));
    assert!(r.errors[0].reason.contains("version conflict"));
    let res = common::search(&e, "d", "").unwrap();
    assert_eq!(res["hits"]["hits"][0]["_source"]["v"], "new");
}

#[test]
fn alias_swap_is_atomic_and_expressions_resolve_like_es() {
    let path = common::temp_file("alias");
    let e = Engine::open_or_create(&path).unwrap();
    let load = |name: &str, alias: Option<&str>, docs: &[(&str, serde_json::Value)]| {
        let opts = LoadOptions { alias: alias.map(str::to_string), ..Default::default() };
        e.load(name, common::bulk(docs).as_bytes(), &opts, &mut |_, _| {}).unwrap();
    };
    load("tools-a", Some("RIN_Tool_pr"), &[("1", tool("a", "first"))]);
    load("plasmid-a", Some("RIN_PlasmidA_pr"), &[("p1", tool("p", "plasmid"))]);
    load("plasmid-b", Some("RIN_PlasmidB_main_pr"), &[("p2", tool("q", "plasmid")), ("p3", tool("r", "plasmid"))]);
    load("tools-b", None, &[("1", tool("a", "second")), ("2", tool("b", "second"))]);
    assert_eq!(common::search(&e, "RIN_Tool_pr", "").unwrap()["hits"]["total"], 1);
    e.swap_alias("RIN_Tool_pr", "tools-b").unwrap();
    let res = common::search(&e, "RIN_Tool_pr", "").unwrap();
    assert_eq!(res["hits"]["total"], 2);
    assert_eq!(res["hits"]["hits"][0]["_index"], "tools-b");
    // The specification's list-with-wildcard expression.
    assert_eq!(common::search(&e, "RIN_PlasmidA_pr,RIN_PlasmidB_*_pr", "").unwrap()["hits"]["total"], 3);
    assert_eq!(common::search(&e, "RIN_PlasmidA_pr,RIN_PlasmidB_*_pr", "").unwrap()["_shards"]["total"], 2);
    // *_pr: every index behind a _pr alias.
    assert_eq!(common::search(&e, "*_pr", "").unwrap()["hits"]["total"], 5);
    // Exclusion and concrete names.
    assert_eq!(common::search(&e, "*_pr,-RIN_Tool_pr", "").unwrap()["hits"]["total"], 3);
    assert_eq!(common::search(&e, "tools-a,tools-b", "").unwrap()["hits"]["total"], 3);
    // Missing names: the exact ES 6.8 404; unmatched wildcards: empty result.
    let err = common::search(&e, "nope", "").unwrap_err();
    assert_eq!(err.status, 404);
    assert_eq!(
        err.to_json(),
        json!({"error":{"root_cause":[{"type":"index_not_found_exception","reason":"no such index","resource.type":"index_or_alias","resource.id":"nope","index_uuid":"_na_","index":"nope"}],"type":"index_not_found_exception","reason":"no such index","resource.type":"index_or_alias","resource.id":"nope","index_uuid":"_na_","index":"nope"},"status":404})
    );
    assert_eq!(common::search(&e, "zzz*", "").unwrap()["hits"]["total"], 0);
    // Removing an alias that is not there.
    assert_eq!(
        e.update_aliases(&[AliasAction::Remove { alias: "RIN_Tool_pr".into(), index: "tools-a".into() }])
            .unwrap_err()
            .status,
        404
    );
}

#[test]
fn reopening_needs_no_rebuild_and_other_versions_are_refused() {
    let path = common::temp_file("reopen");
    {
        let e = Engine::open_or_create(&path).unwrap();
        e.load(
            "x",
            common::bulk(&[("1", tool("a", "hello world"))]).as_bytes(),
            &LoadOptions::default(),
            &mut |_, _| {},
        )
        .unwrap();
    }
    let e = Engine::open(&path).unwrap();
    assert_eq!(
        common::search(&e, "x", r#"{"query":{"match":{"item.description":"world"}}}"#).unwrap()["hits"]["total"],
        1
    );
    drop(e);
    // A redb file that is not a metagate file is refused with a clear message.
    let other = common::temp_file("foreign");
    {
        let db = redb::Database::create(&other).unwrap();
        let w = db.begin_write().unwrap();
        {
            let def: redb::TableDefinition<&str, &str> = redb::TableDefinition::new("something");
            let mut t = w.open_table(def).unwrap();
            t.insert("a", "b").unwrap();
        }
        w.commit().unwrap();
    }
    let err = Engine::open(&other).err().expect("foreign file refused");
    assert!(err.reason().contains("not a metagate file"), "{}", err.reason());
    // A file of another format version.
    let old = common::temp_file("oldversion");
    {
        let db = redb::Database::create(&old).unwrap();
        let w = db.begin_write().unwrap();
        {
            let def: redb::TableDefinition<&str, &[u8]> = redb::TableDefinition::new("meta");
            let mut t = w.open_table(def).unwrap();
            t.insert("format_version", b"999".as_slice()).unwrap();
        }
        w.commit().unwrap();
    }
    let err = Engine::open(&old).err().expect("old version refused");
    assert!(err.reason().contains("format version 999"), "{}", err.reason());
}

#[test]
fn registry_template_adds_lowercase_aggregate_subfields() {
    let e = common::engine_with(
        "tmpl",
        "tools",
        Some("RIN_Tool_pr"),
        &[(
            "rrid:scr_1",
            json!({"item": {"identifier": "SCR_000001", "keywords": [{"keyword": "Alignment"}]}, "recordValid": true,
            "provenance": {"creationDate": ["20190219T123401+0000"]}, "mentions": [{"totalMentions": {"count": 12}}]}),
        )],
        Some(metagate::Family::Registry),
    );
    for (q, total) in [
        (r#"{"query":{"term":{"item.identifier.aggregate":"scr_000001"}}}"#, 1),
        (r#"{"query":{"term":{"item.identifier.aggregate":"SCR_000001"}}}"#, 1),
        (r#"{"query":{"term":{"item.identifier.keyword":"SCR_000001"}}}"#, 0),
        (r#"{"query":{"term":{"item.keywords.keyword":"Alignment"}}}"#, 1),
        (r#"{"query":{"term":{"recordValid":true}}}"#, 1),
        (r#"{"query":{"range":{"mentions.totalMentions.count":{"gt":10}}}}"#, 1),
        (r#"{"query":{"range":{"provenance.creationDate":{"gte":"20190101T000000+0000"}}}}"#, 1),
        (r#"{"query":{"range":{"provenance.creationDate":{"gte":"20200101T000000+0000"}}}}"#, 0),
        (r#"{"query":{"match":{"item.identifier":"scr_000001"}}}"#, 1),
    ] {
        assert_eq!(common::search(&e, "RIN_Tool_pr", q).unwrap()["hits"]["total"], total, "{q}");
    }
    let res = common::search(&e, "RIN_Tool_pr", r#"{"sort":[{"item.identifier.aggregate":"asc"}]}"#).unwrap();
    assert_eq!(res["hits"]["hits"][0]["sort"], json!(["scr_000001"]));
}

#[test]
fn registry_citation_identifiers_are_exact_keywords() {
    let docs = [
        ("rrid:ab_2877222", json!({"item": {"name": "S100A5 antibody"}, "rrid": {"curie": "RRID:AB_2877222"}})),
        ("rrid:ab_2315917", json!({"item": {"name": "S100A5 purified"}, "rrid": {"curie": "RRID:AB_2315917"}})),
    ];
    let e = common::engine_with("curie", "ab-v1", Some("RIN_Antibody_pr"), &docs, Some(metagate::Family::Registry));
    let ids = |body: serde_json::Value| -> Vec<String> {
        common::hit_ids(&common::search(&e, "RIN_Antibody_pr", &body.to_string()).unwrap())
    };
    // The antibody pages' lookup: exact, case-sensitive.
    assert_eq!(ids(json!({"query": {"terms": {"rrid.curie": ["RRID:AB_2877222"]}}})), ["rrid:ab_2877222"]);
    assert!(ids(json!({"query": {"terms": {"rrid.curie": ["rrid:ab_2877222"]}}})).is_empty());
    assert_eq!(ids(json!({"query": {"match": {"rrid.curie": "RRID:AB_2315917"}}})), ["rrid:ab_2315917"]);
    // The lower-cased sub-field is there too, as on every registry string.
    assert_eq!(ids(json!({"query": {"term": {"rrid.curie.aggregate": "rrid:ab_2877222"}}})), ["rrid:ab_2877222"]);
    let params = [("include_type_name".to_string(), "false".to_string())];
    let answer =
        e.get_mapping(&metagate::MappingRequest::parse(Some("RIN_Antibody_pr"), None, &params).unwrap()).unwrap();
    assert_eq!(answer.status(), 200);
    let mapping = answer.to_json();
    let properties = &mapping["ab-v1"]["mappings"]["properties"];
    assert_eq!(properties["rrid"]["properties"]["curie"]["type"], "keyword");
    assert_eq!(properties["item"]["properties"]["name"]["type"], "text");
}

#[test]
fn another_engine_on_the_file_sees_every_catalog_change_on_its_next_search() {
    // The reader parses the catalog once per catalog version: a change made through a
    // second handle on the file (as a CLI `load` beside a `serve`) must still show at once.
    let path = common::temp_file("catalog-version");
    let writer = Engine::open_or_create(&path).unwrap();
    let reader = Engine::open(&path).unwrap();
    let load = |name: &str, alias: Option<&str>, docs: &[(&str, serde_json::Value)]| {
        let opts = LoadOptions { alias: alias.map(str::to_string), replace: true, ..Default::default() };
        writer.load(name, common::bulk(docs).as_bytes(), &opts, &mut |_, _| {}).unwrap();
    };
    load("tools-a", Some("tools"), &[("1", tool("a", "first"))]);
    assert_eq!(common::search(&reader, "tools", "").unwrap()["hits"]["total"], 1);
    load("tools-b", None, &[("1", tool("a", "second")), ("2", tool("b", "second"))]);
    assert_eq!(common::search(&reader, "tools-b", "").unwrap()["hits"]["total"], 2);
    writer.swap_alias("tools", "tools-b").unwrap();
    assert_eq!(common::search(&reader, "tools", "").unwrap()["hits"]["hits"][0]["_index"], "tools-b");
    // Replacing an index under the same name gives a new generation to the reader.
    load("tools-b", None, &[("3", tool("c", "third"))]);
    assert_eq!(common::search(&reader, "tools", "").unwrap()["hits"]["total"], 1);
    writer.update_aliases(&[AliasAction::Remove { alias: "tools".into(), index: "tools-b".into() }]).unwrap();
    assert_eq!(common::search(&reader, "tools", "").unwrap_err().status, 404);
}
