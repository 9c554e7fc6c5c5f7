//! Create-index bodies from public projects that run Elasticsearch 6 (tests/es_bodies/,
//! sources and licences in SOURCES.md), each loaded with a few documents of its kind.
//! Each one either loads — `_mapping` reports its fields and searches through its
//! analyzers find the documents ES would find — or is refused with the exact error
//! written here. Where a refusal is a metagate gap rather than ES's own refusal,
//! SOURCES.md names the missing feature; the expectation here is today's behaviour, so
//! the test fails (and is updated) when a gap closes.
//!
//! The analyzers of the bodies that load are also compared with Lucene's tokens
//! (tests/lucene/LuceneAnalysis.java) over the bodies' own document texts.

mod common;

use base64::Engine as _;
use common::lucene_analysis::{lucene_tokens, oracle_line};
use metagate::{Engine, LoadOptions};
use serde_json::{json, Value};

const BODIES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/es_bodies");

/// A search whose answer differs from ES 6.8's today, because of a named metagate gap.
struct Gap {
    query: Value,
    /// What ES 6.8 finds.
    es: &'static [&'static str],
    /// What metagate finds today, or the reason it refuses the search.
    today: Result<&'static [&'static str], &'static str>,
    /// The missing feature (SOURCES.md lists it).
    feature: &'static str,
}

/// What loading a body gives today.
enum Expect {
    /// It loads; `_mapping` reports these field paths (dotted, `fields` included), and
    /// each search (a query object) finds exactly these ids, as ES finds them.
    Loads { fields: &'static [&'static str], searches: Vec<(Value, &'static [&'static str])>, gaps: Vec<Gap> },
    /// It is refused with this exception type and reason (status 400).
    Refused { kind: &'static str, reason: &'static str },
}

struct Case {
    /// The file stem under tests/es_bodies/.
    name: &'static str,
    /// The document field that holds `_id`.
    id_field: &'static str,
    expect: Expect,
}

fn refused(kind: &'static str, reason: &'static str) -> Expect {
    Expect::Refused { kind, reason }
}

const MAPPER: &str = "mapper_parsing_exception";
const IAE: &str = "illegal_argument_exception";

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "biodiv_observation",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["authorname", "authorname.keyword", "all", "agreeterms", "createdon", "acceptednameid"],
                searches: vec![
                    (json!({"term": {"name.keyword": "Pavo cristatus"}}), &["o1"]),
                    (json!({"match": {"placename": "western ghats"}}), &["o2"]),
                    (json!({"term": {"agreeterms": false}}), &["o3"]),
                    // `copy_to` fills `all` from the author, name and place fields.
                    (json!({"match": {"all": "priya"}}), &["o1", "o3"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "code_search",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["id", "path", "path.raw", "content", "language", "size"],
                searches: vec![
                    // `word_delimiter_graph` splits `HttpClient` and `XMLHttpRequest`;
                    // `flatten_graph` lays the parts in a line the index holds.
                    (json!({"match": {"content": "client"}}), &["f1"]),
                    // No split between capitals and the lowercase after them: `XMLHttp`.
                    (json!({"match": {"content": "http"}}), &["f1"]),
                    (json!({"match": {"content": "xmlhttp"}}), &["f3"]),
                    (json!({"match": {"content": "json"}}), &["f2"]),
                    (json!({"match_phrase": {"content": "http client"}}), &["f1"]),
                    (json!({"match_phrase": {"content": "xmlhttp request"}}), &["f3"]),
                    (json!({"term": {"path": "src/util"}}), &["f2"]),
                    (json!({"term": {"path": "src"}}), &["f1", "f2"]),
                    // The search analyzer keeps `sendRequest` and its parts: a token graph,
                    // queried as ES's graph query.
                    (json!({"match": {"content": "sendRequest"}}), &["f1"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "dsg_datalog",
            id_field: "id",
            expect: refused(IAE, "Unknown tokenizer type [hanlp_index] for [as_hanlp]"),
        },
        Case {
            name: "dsg_datalog_nohanlp",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["id", "name", "name.ngram", "name.keyword", "code", "updated_at"],
                searches: vec![
                    // `code`: the whole value lowercased, split at delimiters only.
                    (json!({"match": {"code": "order"}}), &["d1"]),
                    (json!({"match": {"code": "SalesReport"}}), &["d2"]),
                    (json!({"match": {"code": "sales"}}), &[]),
                    (json!({"match": {"code": "2023"}}), &["d2"]),
                    (json!({"match_phrase": {"code": "stock-detail"}}), &["d3"]),
                    (json!({"match": {"name": "report"}}), &["d2"]),
                    (json!({"match": {"name.ngram": "订单"}}), &["d1"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "gbif_occurrence",
            id_field: "gbifID",
            expect: Expect::Loads {
                fields: &["gbifID", "decimalLatitude", "year"],
                searches: vec![
                    (json!({"range": {"year": {"gte": 2000}}}), &["1001", "1003"]),
                    (json!({"range": {"decimalLatitude": {"lt": 0}}}), &["1003"]),
                    // The dynamic template maps every string as `keyword`.
                    (json!({"term": {"scientificName": "Puma concolor"}}), &["1001", "1003"]),
                    (json!({"match": {"scientificName": "puma"}}), &[]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "hypothesis_annotations",
            id_field: "id",
            expect: refused(
                IAE,
                "Custom Analyzer [uni_normalizer] failed to find tokenizer under name [icu_tokenizer]",
            ),
        },
        Case {
            name: "hypothesis_annotations_noicu",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["authority", "quote", "tags", "user", "user_raw", "uri", "uri.parts"],
                searches: vec![
                    // `user` keeps `acct:alice@hypothes.is` and captures `alice@hypothes.is`, `alice`.
                    (json!({"match": {"user": "alice"}}), &["a1"]),
                    (json!({"match": {"user": "BOB@hypothes.is"}}), &["a2"]),
                    (json!({"match": {"tags": "Method"}}), &["a1"]),
                    // `target.selector.exact` (not indexed) is copied into `quote`.
                    (json!({"match": {"quote": "measured"}}), &["a1"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "if_landmarks",
            id_field: "id",
            expect: refused(IAE, "IOException while reading synonyms_path_path: if_synonyms.txt"),
        },
        Case {
            name: "if_landmarks_inline",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["description", "id", "name"],
                searches: vec![
                    // The rebuilt `english` analyzer stems: `boathouses` finds `Boathouse`.
                    (json!({"match": {"name": "boathouses"}}), &["l2"]),
                    (json!({"match_phrase": {"description": "selling vegetable"}}), &["l3"]),
                    // `if_synonyms`: `espresso` is indexed beside `coffee`, and the query's
                    // stacked terms make a SynonymQuery.
                    (json!({"match": {"name": "Espresso"}}), &["l1"]),
                    (json!({"query_string": {"query": "cafe OR market", "default_field": "name"}}), &["l1"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "importpipeline_dutch",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["id", "title", "keywords", "issued", "version"],
                searches: vec![
                    (json!({"match": {"title": "rijksmuseum"}}), &["n1"]),
                    // `html_strip` leaves no `p` of the markup; `de` is a stop word.
                    (json!({"match": {"title": "p"}}), &[]),
                    (json!({"match": {"title": "de"}}), &[]),
                    (json!({"match": {"keywords": "Café-cultuur"}}), &["n1"]),
                    (json!({"match": {"version": "v1"}}), &["n1", "n3"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "inaturalist_taxa",
            id_field: "id",
            expect: refused(
                IAE,
                "Custom Analyzer [autocomplete_analyzer_ja] failed to find tokenizer under name [kuromoji_tokenizer]",
            ),
        },
        Case {
            name: "inaturalist_taxa_legacy",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["id", "rank", "names.name", "names.name_autocomplete", "names.locale"],
                searches: vec![
                    // Snowball English: `beetles` and `Beetle` stem alike.
                    (json!({"match": {"names.name": "beetles"}}), &["48484"]),
                    (json!({"match": {"names.name": "honey"}}), &["47219"]),
                    // Edge n-grams (the legacy `edgeNGram` name) indexed, `standard` searched.
                    (json!({"match": {"names.name_autocomplete": "pige"}}), &["3017"]),
                    (json!({"match": {"names.name_autocomplete": "the"}}), &[]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "ingrid_mcloud",
            id_field: "id",
            expect: refused(IAE, "Unknown filter type [decompound] for [decomp]"),
        },
        Case {
            name: "ingrid_mcloud_nodecomp",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["id", "title", "title.bigram", "description", "publisher"],
                searches: vec![
                    (json!({"match": {"title": "Wasserstraßen"}}), &["g2"]),
                    // german_normalization folds `ü`, as the query's own analysis does.
                    (json!({"match": {"description": "stundliche"}}), &["g1"]),
                    (json!({"match": {"description": "flughafen"}}), &["g3"]),
                    (json!({"match": {"title.bigram": "Wetterdaten Flughäfen"}}), &["g3"]),
                    (json!({"match": {"title.bigram": "wetterdaten"}}), &[]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "koha_biblios",
            id_field: "id",
            expect: refused(IAE, "Custom Analyzer [analyzer_phrase] failed to find filter under name [icu_folding]"),
        },
        Case {
            name: "koha_biblios_folding",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["title", "title.phrase", "title.ci_raw", "author", "isbn"],
                searches: vec![
                    (json!({"match": {"title": "anos"}}), &["2"]),
                    (json!({"match": {"author": "garcia marquez"}}), &["2"]),
                    (json!({"term": {"title.ci_raw": "LE PETIT PRINCE"}}), &["1"]),
                    (json!({"match": {"title.phrase": "der zauberberg!"}}), &["3"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "media_archive",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["title", "title.raw", "synopsis", "contributors", "genre"],
                searches: vec![
                    (json!({"match": {"synopsis": "election"}}), &["v1"]),
                    (json!({"match": {"synopsis": "run"}}), &["v3"]),
                    (json!({"match": {"synopsis": "b"}}), &[]),
                    (json!({"match": {"contributors": "zoe"}}), &["v1", "v3"]),
                    (json!({"match": {"title": "news"}}), &["v1"]),
                    (json!({"match": {"title": "run"}}), &["v3"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "muruca_archive",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["author", "id", "kind", "text", "title", "title.partial", "title.sort"],
                searches: vec![
                    (json!({"match": {"text": "citta"}}), &["m2"]),
                    (json!({"term": {"kind": "codex"}}), &["m2"]),
                    (json!({"term": {"kind": "manuscript"}}), &["m2"]),
                    (json!({"match": {"kind": "epistle"}}), &["m1"]),
                    (
                        json!({"multi_match": {"query": "manuscript letter", "fields": ["kind", "title"]}}),
                        &["m1", "m2"],
                    ),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "oceanbestpractices",
            id_field: "uuid",
            expect: Expect::Loads {
                fields: &["dc_title", "dc_title.keyword", "_terms.label", "_terms.uri", "dc_date_issued"],
                searches: vec![
                    (json!({"match": {"dc_title": "salinity"}}), &["u2"]),
                    (
                        json!({"nested": {"path": "_terms", "query": {"term": {"_terms.source_terminology": "P01"}}}}),
                        &["u1", "u2"],
                    ),
                    (json!({"nested": {"path": "_terms", "query": {"match": {"_terms.label": "salinity"}}}}), &["u2"]),
                    // Nested fields are not in the parent: no match without `nested`, as in ES.
                    (json!({"term": {"_terms.source_terminology": "P01"}}), &[]),
                    (json!({"term": {"_primaryAuthor.keyword": "Simpson, Pauline"}}), &["u3"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "oceanbestpractices_flat",
            id_field: "uuid",
            expect: Expect::Loads {
                fields: &["dc_title", "dc_title.keyword", "_terms.label", "dc_date_issued", "lastModified"],
                searches: vec![
                    (json!({"match": {"dc_title": "salinity"}}), &["u2"]),
                    (json!({"range": {"dc_date_issued": {"gte": "2019"}}}), &["u1", "u2"]),
                    (json!({"term": {"_terms.source_terminology": "P01"}}), &["u1", "u2"]),
                    (json!({"term": {"_primaryAuthor.keyword": "Simpson, Pauline"}}), &["u3"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "ons_search",
            id_field: "id",
            expect: refused(
                IAE,
                "setting [index.analysis.analyzer.default_index] is not supported anymore, use \
                 [index.analysis.analyzer.default] instead for index [ons_search]",
            ),
        },
        Case {
            name: "openfmri_datasets",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["title", "description", "keywords", "subjects"],
                searches: vec![
                    (json!({"match": {"description": "recording"}}), &["ds000003"]),
                    (json!({"match": {"title": "classifications"}}), &["ds000002"]),
                    // `keyword_marker` keeps "mri" whole; "fMRI" is another term.
                    (json!({"match": {"description": "MRI"}}), &["ds000002"]),
                    (json!({"match": {"description": "study"}}), &["ds000002"]),
                    (json!({"match": {"description": "naive"}}), &["ds000003"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "pop_joconde",
            id_field: "REF",
            expect: Expect::Loads {
                fields: &["REF", "TICO", "POP_COORDONNEES"],
                searches: vec![
                    (json!({"match": {"TICO": "Nymphéas"}}), &["000PE000001"]),
                    // The musée d'Orsay is about 950 m from the musée Rodin.
                    (
                        json!({"geo_distance": {"distance": "500m", "POP_COORDONNEES": {"lat": 48.86, "lon": 2.326}}}),
                        &["000PE000001", "000PE000002"],
                    ),
                    (
                        json!({"geo_distance": {"distance": "1km", "POP_COORDONNEES": "48.86,2.326"}}),
                        &["000PE000001", "000PE000002", "000SC000003"],
                    ),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "pop_joconde_text",
            id_field: "REF",
            expect: Expect::Loads {
                fields: &["REF", "AUTR", "AUTR.keyword", "TICO", "TICO.keyword", "DENO", "LOCA"],
                searches: vec![
                    (json!({"match": {"TICO": "Nymphéas"}}), &["000PE000001"]),
                    // `le` is a French stop word; `d'Orsay` is one standard token.
                    (json!({"match": {"TICO": "le"}}), &[]),
                    (json!({"match": {"LOCA": "orsay"}}), &[]),
                    (json!({"term": {"DENO.keyword": "statue"}}), &["000SC000003"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "pubman_items",
            id_field: "objectId",
            expect: Expect::Loads {
                fields: &[
                    "creator.name",
                    "creator.name.keyword",
                    "creator.name.keyword_default",
                    "metadata.title.keyword",
                ],
                searches: vec![
                    (json!({"term": {"creator.name.keyword": "MULLER, ANNA"}}), &["item_1", "item_3"]),
                    (json!({"term": {"creator.name.keyword_default": "Müller, Anna"}}), &["item_1"]),
                    (json!({"match": {"metadata.title": "quantenfeldtheorie"}}), &["item_1"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "recogito_annotation",
            id_field: "annotation_id",
            expect: Expect::Loads {
                fields: &[
                    "contributors",
                    "bodies.value",
                    "bodies.value.raw",
                    "last_modified_at",
                    "annotates.document_id",
                ],
                searches: vec![
                    (json!({"term": {"contributors": "ELISE"}}), &["b1", "b2"]),
                    (json!({"match": {"bodies.value.raw": "Trade Route"}}), &["b2"]),
                    (json!({"match": {"bodies.value.raw": "trade"}}), &[]),
                    (json!({"range": {"last_modified_at": {"gte": "2018-05-15T00:00:00+0000"}}}), &["b3"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "recogito_place",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["id", "labels", "representative_point", "temporal_bounds.from", "is_conflation_of.title.raw"],
                searches: vec![
                    (
                        json!({"geo_distance": {"distance": "100km", "representative_point": {"lat": 37.97, "lon": 23.72}}}),
                        &["pleiades:579885"],
                    ),
                    (
                        json!({"nested": {"path": "temporal_bounds", "query": {"exists": {"field": "temporal_bounds.from"}}}}),
                        &["pleiades:579885"],
                    ),
                    // A field under a nested path matches nothing without a `nested` query.
                    (json!({"exists": {"field": "temporal_bounds.from"}}), &[]),
                    (json!({"match": {"labels": "londinium"}}), &["geonames:2643743"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "recogito_place_es2",
            id_field: "id",
            expect: refused(MAPPER, "No handler for type [string] declared on field [id]"),
        },
        Case {
            name: "rikolti_records",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["title", "title.raw", "title.sort", "subject", "repository_name"],
                searches: vec![
                    // Possessive and Porter stemming: "Photographer's" and "Photographs" meet.
                    (json!({"match": {"title": "photographs"}}), &["r1", "r2"]),
                    // `keyword_marker` keeps "collection" unstemmed.
                    (json!({"match": {"title": "collection"}}), &["r2"]),
                    (json!({"match": {"title": "collections"}}), &[]),
                    (json!({"term": {"repository_name": "BANCROFT LIBRARY"}}), &["r1", "r3"]),
                    (json!({"match": {"subject": "architecture"}}), &["r1"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "shop_catalog_en",
            id_field: "id",
            expect: Expect::Loads {
                fields: &[
                    "id",
                    "sku",
                    "sku.raw",
                    "title",
                    "title.autocomplete",
                    "title.shingles",
                    "brand",
                    "price",
                    "suggest",
                ],
                searches: vec![
                    (json!({"match": {"title": "tv"}}), &["p1"]),
                    (json!({"match": {"sku": "55X900"}}), &["p1"]),
                    // `scaled_float` with factor 100: 899.99 is kept as 89999 hundredths.
                    (json!({"range": {"price": {"gte": 899.99, "lte": 899.99}}}), &["p1"]),
                    (json!({"range": {"price": {"lt": 1000}}}), &["p1", "p3"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "shop_catalog_en_basic",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["id", "sku", "sku.raw", "title", "title.autocomplete", "title.shingles", "brand", "price"],
                searches: vec![
                    // `synonym_graph` at search time: tv, television; laptop, notebook; phone => smartphone.
                    (json!({"match": {"title": "tv"}}), &["p1"]),
                    (json!({"match": {"title": "laptop"}}), &["p2"]),
                    (json!({"match": {"title": "phone"}}), &["p3"]),
                    // `word_delimiter_graph` with the original kept: the query is a token graph.
                    (json!({"match": {"sku": "55X900"}}), &["p1"]),
                    // The normalizer folds the term of a `term` query too.
                    (json!({"term": {"brand": "SÖNIK"}}), &["p1"]),
                    (json!({"match": {"title.autocomplete": "sma"}}), &["p3"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "shop_products_ru",
            id_field: "id",
            expect: Expect::Loads {
                fields: &[
                    "id",
                    "name",
                    "name.autocomplete",
                    "name.keyword",
                    "description",
                    "vendor",
                    "price",
                    "available",
                ],
                searches: vec![
                    // Snowball Russian: `краски` and `Краска` stem alike.
                    (json!({"match": {"name": "краски"}}), &["1"]),
                    (json!({"match": {"name.autocomplete": "грун"}}), &["2"]),
                    (json!({"term": {"available": false}}), &["3"]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "swisnl_dutch",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["id", "type", "title", "body"],
                searches: vec![
                    // The index's `default` analyzer: Snowball Dutch, stop words, length 3+.
                    (json!({"match": {"body": "Websites"}}), &["s1"]),
                    (json!({"match": {"title": "nieuw"}}), &["s2"]),
                    (json!({"match": {"body": "of"}}), &[]),
                    (json!({"match": {"body": "het"}}), &[]),
                ],
                gaps: vec![],
            },
        },
        Case {
            name: "trackhub_registry",
            id_field: "id",
            expect: Expect::Loads {
                fields: &["hub.name", "hub.name.lowercase", "species.scientific_name", "created", "owner"],
                searches: vec![
                    (json!({"match": {"species.scientific_name": "HOMO SAPIENS"}}), &["t1"]),
                    (json!({"match": {"species.scientific_name": "homo"}}), &[]),
                    (json!({"match": {"hub.name.lowercase": "mouse_rnaseq"}}), &["t2"]),
                    (json!({"term": {"owner": "ensembl"}}), &["t1", "t3"]),
                    (json!({"range": {"created": {"gte": 1525100000}}}), &["t2", "t3"]),
                ],
                gaps: vec![],
            },
        },
    ]
}

fn read(name: &str, ext: &str) -> String {
    std::fs::read_to_string(format!("{BODIES}/{name}.{ext}")).unwrap_or_else(|e| panic!("{name}.{ext}: {e}"))
}

fn body_of(name: &str) -> Value {
    serde_json::from_str(&read(name, "json")).unwrap_or_else(|e| panic!("{name}.json: {e}"))
}

/// A fresh file with the body loaded under its own name, its documents keyed by `id_field`.
#[allow(clippy::result_large_err)]
fn load(case: &Case) -> (Engine, metagate::Result<metagate::LoadReport>) {
    let e = Engine::open_or_create(&common::temp_file(case.name)).unwrap();
    let opts = LoadOptions {
        create_body: Some(body_of(case.name)),
        id_field: Some(case.id_field.into()),
        ..Default::default()
    };
    let report = e.load(case.name, read(case.name, "ndjson").as_bytes(), &opts, &mut |_, _| {});
    (e, report)
}

/// Whether a dotted field path is in a mapping's `properties` (through objects and multi-fields).
fn has_field(properties: &Value, path: &str) -> bool {
    let mut node = properties;
    for part in path.split('.') {
        let found = node.get(part).or_else(|| node.get("properties").and_then(|p| p.get(part)));
        match found {
            Some(next) => node = next,
            None => match node.get("fields").and_then(|f| f.get(part)) {
                Some(next) => node = next,
                None => return false,
            },
        }
    }
    true
}

fn hit_ids(e: &Engine, index: &str, query: &Value) -> Vec<String> {
    let answer = common::search(e, index, &json!({"query": query, "size": 100}).to_string())
        .unwrap_or_else(|err| panic!("{index} {query}: {}", err.reason()));
    let mut ids: Vec<String> =
        answer["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap().to_string()).collect();
    ids.sort();
    ids
}

/// The ids a search finds, or the reason metagate refuses it.
fn try_hit_ids(e: &Engine, index: &str, query: &Value) -> Result<Vec<String>, String> {
    let answer = common::search(e, index, &json!({"query": query, "size": 100}).to_string())
        .map_err(|err| err.reason().to_string())?;
    let mut ids: Vec<String> =
        answer["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap().to_string()).collect();
    ids.sort();
    Ok(ids)
}

#[test]
fn every_body_file_has_documents_and_a_case() {
    let mut stems: Vec<String> = std::fs::read_dir(BODIES)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".json").map(str::to_string))
        .collect();
    stems.sort();
    let cases: Vec<&str> = cases().iter().map(|c| c.name).collect();
    assert_eq!(stems, cases, "tests/es_bodies/*.json and the cases listed here");
    assert!(stems.len() >= 25);
    let sources = read("SOURCES", "md");
    for stem in &stems {
        let docs = read(stem, "ndjson");
        let n = docs.lines().filter(|l| !l.trim().is_empty()).count();
        assert!((3..=6).contains(&n), "{stem}.ndjson has {n} documents");
        assert!(sources.contains(&format!("`{stem}`")), "SOURCES.md does not describe {stem}");
    }
}

#[test]
fn each_body_loads_or_is_refused_as_expected() {
    let mut failures = Vec::new();
    for case in cases() {
        let (e, report) = load(&case);
        match (&case.expect, report) {
            (Expect::Refused { kind, reason }, Err(err)) => {
                let got = (err.status, err.kind().to_string(), err.reason().to_string());
                if got != (400, kind.to_string(), reason.to_string()) {
                    failures.push(format!("{}: refused with {got:?}, expected {kind} [{reason}]", case.name));
                }
                // A refused body leaves no index behind.
                assert!(e.indices().unwrap().is_empty(), "{}", case.name);
            }
            (Expect::Refused { reason, .. }, Ok(_)) => {
                failures.push(format!("{}: loads now (expected refusal [{reason}]): update the case", case.name))
            }
            (Expect::Loads { .. }, Err(err)) => {
                failures.push(format!("{}: refused: {} [{}]", case.name, err.kind(), err.reason()))
            }
            (Expect::Loads { fields, searches, gaps }, Ok(report)) => {
                let docs = read(case.name, "ndjson").lines().filter(|l| !l.trim().is_empty()).count();
                assert_eq!(report.docs as usize, docs, "{}", case.name);
                assert!(report.errors.is_empty(), "{}: {:?}", case.name, report.errors);
                check_mapping(&e, &case, fields, &mut failures);
                for (query, want) in searches {
                    let got = hit_ids(&e, case.name, query);
                    if got != *want {
                        failures.push(format!("{}: {query} found {got:?}, expected {want:?}", case.name));
                    }
                }
                for gap in gaps {
                    assert_ne!(Ok(gap.es), gap.today);
                    let got = try_hit_ids(&e, case.name, &gap.query);
                    if got
                        .as_ref()
                        .map(|ids| ids.iter().map(String::as_str).collect::<Vec<_>>())
                        .map_err(String::as_str)
                        != gap.today.map(<[&str]>::to_vec)
                    {
                        failures.push(format!(
                            "{}: {} found {got:?}, not {:?} as before ({}; ES finds {:?}): update the case",
                            case.name, gap.query, gap.today, gap.feature, gap.es
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `_mapping` keeps the body's type name and reports every listed field.
fn check_mapping(e: &Engine, case: &Case, fields: &[&str], failures: &mut Vec<String>) {
    let body = body_of(case.name);
    let type_name = body["mappings"].as_object().unwrap().keys().next().unwrap().clone();
    let params = [("include_type_name".to_string(), "true".to_string())];
    let answer = e.get_mapping(&metagate::MappingRequest::parse(Some(case.name), None, &params).unwrap()).unwrap();
    assert_eq!(answer.status(), 200);
    let mapping = answer.to_json();
    let properties = &mapping[case.name]["mappings"][&type_name]["properties"];
    assert!(properties.is_object(), "{}: no mapping under [{type_name}]: {mapping}", case.name);
    for field in fields {
        if !has_field(properties, field) {
            failures.push(format!("{}: _mapping lacks [{field}]", case.name));
        }
    }
}

/// The `analysis` section of a body's settings (nested or under `index`).
fn analysis_of(body: &Value) -> Value {
    let settings = &body["settings"];
    for candidate in [&settings["analysis"], &settings["index"]["analysis"]] {
        if candidate.is_object() {
            return candidate.clone();
        }
    }
    Value::Null
}

/// A custom analyzer of an index as an `_analyze` spec with its components inline, the
/// form the Lucene oracle reads; built-in analyzer types go as `{"analyzer": def}`.
fn inline_spec(analysis: &Value, def: &Value) -> Value {
    let kind = def["type"].as_str().unwrap_or("custom");
    if kind != "custom" {
        return json!({ "analyzer": def });
    }
    let resolve = |section: &str, item: &Value| -> Value {
        match item.as_str().and_then(|name| analysis[section].get(name)) {
            Some(defined) => defined.clone(),
            None => item.clone(),
        }
    };
    let list = |key: &str, section: &str| -> Vec<Value> {
        match &def[key] {
            Value::Null => Vec::new(),
            Value::Array(items) => items.iter().map(|i| resolve(section, i)).collect(),
            one => vec![resolve(section, one)],
        }
    };
    // The oracle speaks Lucene 8's names: ES 6.8's `standard` token filter is a no-op
    // (Lucene 8 has none), and its legacy camel-case names are the n-gram filters.
    let filters: Vec<Value> = list("filter", "filter")
        .into_iter()
        .filter(|f| f != "standard")
        .map(|mut f| {
            let modern = match f["type"].as_str() {
                Some("edgeNGram") => "edge_ngram",
                Some("nGram") => "ngram",
                _ => return f,
            };
            f["type"] = json!(modern);
            f
        })
        .collect();
    json!({
        "tokenizer": resolve("tokenizer", &def["tokenizer"]),
        "filter": filters,
        "char_filter": list("char_filter", "char_filter"),
    })
}

/// Every string in the body's documents.
fn document_texts(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in read(name, "ndjson").lines().filter(|l| !l.trim().is_empty()) {
        let mut stack = vec![serde_json::from_str::<Value>(line).unwrap()];
        while let Some(v) = stack.pop() {
            match v {
                Value::String(s) => out.push(s),
                Value::Array(a) => stack.extend(a),
                Value::Object(o) => stack.extend(o.into_iter().map(|(_, v)| v)),
                _ => {}
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// An oracle line with its terms and types readable.
fn decoded(line: &str) -> String {
    let text = |b: &str| {
        let bytes = base64::engine::general_purpose::STANDARD.decode(b).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    line.split(' ')
        .filter(|t| !t.is_empty())
        .map(|t| {
            let f: Vec<&str> = t.split(',').collect();
            if f.len() < 6 {
                return t.to_string();
            }
            format!("{}@{}[{}-{}]x{}:{}", text(f[0]), f[1], f[2], f[3], f[4], text(f[5]))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Analyzers of the bodies that metagate cannot build today, with the reason its
/// `_analyze` gives (SOURCES.md: plugin components ES refuses too, and gaps).
fn analyzers_refused_today() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "dsg_datalog/as_hanlp_analyzer",
            "Custom Analyzer [as_hanlp_analyzer] failed to find tokenizer under name [as_hanlp]",
        ),
        (
            "hypothesis_annotations/uni_normalizer",
            "Custom Analyzer [uni_normalizer] failed to find tokenizer under name [icu_tokenizer]",
        ),
        ("if_landmarks/english", "IOException while reading synonyms_path_path: if_synonyms.txt"),
        (
            "inaturalist_taxa/autocomplete_analyzer_ja",
            "Custom Analyzer [autocomplete_analyzer_ja] failed to find tokenizer under name [kuromoji_tokenizer]",
        ),
        ("ingrid_mcloud/mcloud_bigram", "Unknown filter type [decompound] for [decomp]"),
        (
            "koha_biblios/analyzer_standard",
            "Custom Analyzer [analyzer_standard] failed to find tokenizer under name [icu_tokenizer]",
        ),
        (
            "koha_biblios/analyzer_phrase",
            "Custom Analyzer [analyzer_phrase] failed to find filter under name [icu_folding]",
        ),
    ]
}

/// Every custom analyzer of every body, built from the body's `settings.analysis` as
/// `{index}/_analyze` builds it, gives Lucene's tokens over the body's own document
/// texts; for the bodies that load, the index's own `_analyze` answers the same. The
/// analyzers metagate cannot build are listed in [`analyzers_refused_today`].
#[test]
fn analyzers_of_the_bodies_give_lucenes_tokens() {
    let mut lines = Vec::new();
    let mut ours = Vec::new();
    let mut refused = Vec::new();
    for case in cases() {
        let analysis = analysis_of(&body_of(case.name));
        let Some(analyzers) = analysis["analyzer"].as_object() else { continue };
        let loaded = match &case.expect {
            Expect::Loads { .. } => Some(load(&case).0),
            Expect::Refused { .. } => None,
        };
        for (name, def) in analyzers {
            let which = format!("{}/{name}", case.name);
            let spec = inline_spec(&analysis, def).to_string();
            for text in document_texts(case.name) {
                let request =
                    metagate::AnalyzeRequest::parse(&json!({"analyzer": name, "text": text}).to_string()).unwrap();
                let answer = match metagate::analyze_request_with_analysis(&analysis, &request) {
                    Ok(answer) => answer.to_json(),
                    Err(err) => {
                        refused.push((which.clone(), err.reason().to_string()));
                        break;
                    }
                };
                if let Some(e) = &loaded {
                    let on_index = e.analyze(Some(case.name), &request).unwrap().to_json();
                    assert_eq!(on_index, answer, "{which} {text:?}");
                }
                ours.push((which.clone(), oracle_line(&answer)));
                lines.push((spec.clone(), text));
            }
        }
    }
    let expected: Vec<(String, String)> =
        analyzers_refused_today().into_iter().map(|(a, r)| (a.to_string(), r.to_string())).collect();
    assert_eq!(refused, expected, "analyzers metagate cannot build (update the list when one is added)");
    println!("{} analyzer x text pairs", lines.len());
    let theirs = lucene_tokens(&lines);
    assert_eq!(theirs.len(), lines.len());
    let differ: Vec<String> = lines
        .iter()
        .zip(&ours)
        .zip(&theirs)
        .filter(|((_, (_, mine)), lucene)| mine != *lucene)
        .map(|(((spec, text), (which, mine)), lucene)| {
            format!("{which} {spec} {text:?}\n  ours   {}\n  lucene {}", decoded(mine), decoded(lucene))
        })
        .collect();
    assert!(differ.is_empty(), "{} differ:\n{}", differ.len(), differ.join("\n"));
}
