//! The `ip` field type as ES 6.8 indexes and answers it: IPv4 and IPv6 addresses in
//! `InetAddressPoint` order, `term` / `terms` with addresses and CIDR blocks, `range`,
//! `exists`, sort and `docvalue_fields` printed as `DocValueFormat.IP` prints them,
//! aggregations keyed by address, `_mapping` and `_field_caps`.

mod common;

use common::mapped_index::{index, load_error, mapped, Index};
use serde_json::{json, Value};

fn addresses() -> Index {
    index(
        "ip",
        mapped(json!({"ip": {"type": "ip"}, "tag": {"type": "keyword"}})),
        &[
            ("1", json!({"ip": "::1", "tag": "a"})),
            ("2", json!({"ip": "192.168.0.1", "tag": "a"})),
            ("3", json!({"ip": "192.168.0.7", "tag": "b"})),
            ("4", json!({"ip": "2001:db8::ff00:42:8329"})),
            ("5", json!({"ip": ["10.0.0.5", "::ffff:10.0.0.200"]})),
            ("6", json!({"tag": "c"})),
            ("7", json!({"ip": "1.2.3"})),
        ],
    )
}

#[test]
fn malformed_addresses_are_refused_as_es_refuses_them() {
    let ix = addresses();
    assert_eq!(ix.report.errors.len(), 1);
    assert_eq!(
        ix.report.errors[0].reason,
        "[mapper_parsing_exception] failed to parse field [ip] of type [ip]: [illegal_argument_exception] '1.2.3' is not \
         an IP string literal."
    );
    let lenient = index(
        "ip_lenient",
        mapped(json!({"ip": {"type": "ip", "ignore_malformed": true, "null_value": "::ffff:127.0.0.1"}})),
        &[("1", json!({"ip": "nope"})), ("2", json!({"ip": null})), ("3", json!({"ip": "127.0.0.1"}))],
    );
    assert!(lenient.report.errors.is_empty());
    assert_eq!(lenient.ids(json!({"term": {"ip": "127.0.0.1"}})), vec!["2", "3"]);
    assert_eq!(lenient.ids(json!({"exists": {"field": "ip"}})), vec!["2", "3"]);
    // The null value prints as ES prints the address it parsed.
    assert_eq!(
        lenient.mapping()["properties"]["ip"],
        json!({"type": "ip", "ignore_malformed": true, "null_value": "127.0.0.1"})
    );
    assert_eq!(
        load_error(mapped(json!({"ip": {"type": "ip", "null_value": "300.1.1.1"}}))),
        "[mapper_parsing_exception] '300.1.1.1' is not an IP string literal."
    );
    assert_eq!(
        load_error(mapped(json!({"ip": {"type": "ip", "normalizer": "lowercase"}}))),
        "[mapper_parsing_exception] Mapping definition for [ip] has unsupported parameters:  [normalizer : lowercase]"
    );
}

#[test]
fn term_and_terms_match_addresses_and_cidr_blocks() {
    let ix = addresses();
    assert_eq!(ix.ids(json!({"term": {"ip": "192.168.0.1"}})), vec!["2"]);
    // An IPv4-mapped IPv6 text is the same address.
    assert_eq!(ix.ids(json!({"term": {"ip": "::ffff:192.168.0.7"}})), vec!["3"]);
    assert_eq!(ix.ids(json!({"term": {"ip": "192.168.0.0/16"}})), vec!["2", "3"]);
    assert_eq!(ix.ids(json!({"term": {"ip": "10.0.0.0/25"}})), vec!["5"]);
    assert_eq!(ix.ids(json!({"term": {"ip": "2001:db8::/64"}})), vec!["4"]);
    assert_eq!(ix.ids(json!({"term": {"ip": "::/0"}})), vec!["1", "2", "3", "4", "5"]);
    assert_eq!(ix.ids(json!({"term": {"ip": "0.0.0.0/0"}})), vec!["2", "3", "5"]);
    assert_eq!(ix.ids(json!({"term": {"ip": "192.168.1.5/32"}})), Vec::<String>::new());
    assert_eq!(ix.ids(json!({"terms": {"ip": ["::1", "10.0.0.200", "192.168.0.0/30"]}})), vec!["1", "2", "5"]);
    assert_eq!(ix.ids(json!({"match": {"ip": "2001:db8:0:0:0:ff00:42:8329"}})), vec!["4"]);
    let refused = |v: &str| ix.refused(json!({"query": {"term": {"ip": v}}}));
    assert_eq!(
        refused("0/0/0/0/0"),
        (
            400,
            "query_shard_exception".into(),
            "failed to create query: Expected [ip/prefix] but was [0/0/0/0/0]".into()
        )
    );
    assert_eq!(
        refused("not-an-ip"),
        (
            400,
            "query_shard_exception".into(),
            "failed to create query: 'not-an-ip' is not an IP string literal.".into()
        )
    );
    assert_eq!(
        refused("10.0.0.0/33").2,
        "failed to create query: illegal prefixLength '33'. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges"
    );
    assert_eq!(
        ix.refused(json!({"query": {"prefix": {"ip": "192"}}})).2,
        "Can only use prefix queries on keyword and text fields - not on [ip] which is of type [ip]"
    );
}

#[test]
fn ranges_follow_address_order() {
    let ix = addresses();
    assert_eq!(ix.ids(json!({"range": {"ip": {"gte": "192.168.0.0", "lt": "192.169.0.0"}}})), vec!["2", "3"]);
    assert_eq!(ix.ids(json!({"range": {"ip": {"gt": "192.168.0.1", "lte": "192.168.0.7"}}})), vec!["3"]);
    // IPv4 addresses sit inside ::ffff:0:0/96, above ::1 and below 2001:db8::.
    assert_eq!(ix.ids(json!({"range": {"ip": {"lt": "0.0.0.0"}}})), vec!["1"]);
    assert_eq!(ix.ids(json!({"range": {"ip": {"gt": "255.255.255.255"}}})), vec!["4"]);
    assert_eq!(ix.ids(json!({"range": {"ip": {"lt": "::"}}})), Vec::<String>::new());
    assert_eq!(ix.ids(json!({"exists": {"field": "ip"}})), vec!["1", "2", "3", "4", "5"]);
}

#[test]
fn sort_and_docvalue_fields_print_addresses() {
    let ix = addresses();
    let v = ix.search(json!({
        "query": {"exists": {"field": "ip"}},
        "sort": [{"ip": "asc"}],
        "docvalue_fields": ["ip"],
        "_source": false
    }));
    let hits = v["hits"]["hits"].as_array().unwrap();
    let got: Vec<(String, Value, Value)> = hits
        .iter()
        .map(|h| (h["_id"].as_str().unwrap().to_string(), h["sort"].clone(), h["fields"]["ip"].clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("1".into(), json!(["::1"]), json!(["::1"])),
            ("5".into(), json!(["10.0.0.5"]), json!(["10.0.0.5", "10.0.0.200"])),
            ("2".into(), json!(["192.168.0.1"]), json!(["192.168.0.1"])),
            ("3".into(), json!(["192.168.0.7"]), json!(["192.168.0.7"])),
            ("4".into(), json!(["2001:db8::ff00:42:8329"]), json!(["2001:db8::ff00:42:8329"])),
        ]
    );
    // search_after takes an address as the sort value.
    let v = ix.search(json!({"sort": [{"ip": "desc"}], "search_after": ["192.168.0.1"], "_source": false}));
    let ids: Vec<&str> = v["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap()).collect();
    assert_eq!(ids, vec!["5", "1", "6"]);
}

#[test]
fn terms_aggregation_keys_are_addresses() {
    let ix = addresses();
    let v = ix.search(json!({"size": 0, "aggs": {
        "ips": {"terms": {"field": "ip", "order": {"_key": "asc"}}},
        "n": {"cardinality": {"field": "ip"}},
        "none": {"missing": {"field": "ip"}}
    }}));
    let keys: Vec<&str> =
        v["aggregations"]["ips"]["buckets"].as_array().unwrap().iter().map(|b| b["key"].as_str().unwrap()).collect();
    assert_eq!(keys, vec!["::1", "10.0.0.5", "10.0.0.200", "192.168.0.1", "192.168.0.7", "2001:db8::ff00:42:8329"]);
    assert_eq!(v["aggregations"]["n"]["value"], json!(6));
    assert_eq!(v["aggregations"]["none"]["doc_count"], json!(1));
}

#[test]
fn mapping_and_field_caps() {
    let ix = addresses();
    assert_eq!(ix.mapping()["properties"]["ip"], json!({"type": "ip"}));
    let (_, caps) = ix.send("GET", "/test/_field_caps?fields=ip", Value::Null);
    assert_eq!(caps["fields"]["ip"], json!({"ip": {"type": "ip", "searchable": true, "aggregatable": true}}));
}

/// ES's REST test `search.aggregation/40_range.yml`, "IP range" and "IP Range Key
/// Generation", over its three documents.
#[test]
fn ip_range_aggregation_as_the_rest_tests_expect() {
    let ix = index(
        "ip_range_agg",
        mapped(json!({"ip": {"type": "ip"}})),
        &[("1", json!({"ip": "::1"})), ("2", json!({"ip": "192.168.0.1"})), ("3", json!({"ip": "192.168.0.7"}))],
    );
    let agg = |ranges: Value| {
        let v = ix.search(json!({"size": 0, "aggs": {"ip_range": {"ip_range": {"field": "ip", "ranges": ranges}}}}));
        v["aggregations"]["ip_range"]["buckets"].clone()
    };
    let expected = json!([
        {"key": "*-192.168.0.0", "to": "192.168.0.0", "doc_count": 1},
        {"key": "192.168.0.0-192.169.0.0", "from": "192.168.0.0", "to": "192.169.0.0", "doc_count": 2},
        {"key": "192.169.0.0-*", "from": "192.169.0.0", "doc_count": 0}
    ]);
    assert_eq!(
        agg(json!([{"to": "192.168.0.0"}, {"from": "192.168.0.0", "to": "192.169.0.0"}, {"from": "192.169.0.0"}])),
        expected
    );
    assert_eq!(
        agg(json!([
            {"from": null, "to": "192.168.0.0"},
            {"from": "192.168.0.0", "to": "192.169.0.0"},
            {"from": "192.169.0.0", "to": null}
        ])),
        expected
    );
    assert_eq!(
        agg(json!([{"mask": "::/24"}, {"mask": "192.168.0.0/16"}])),
        json!([
            {"key": "::/24", "to": "0:100::", "doc_count": 3},
            {"key": "192.168.0.0/16", "from": "192.168.0.0", "to": "192.169.0.0", "doc_count": 2}
        ])
    );
    // Ranges answer sorted by their bounds; keyed buckets by key.
    let v = ix.search(json!({"size": 0, "aggs": {"r": {"ip_range": {"field": "ip", "keyed": true, "ranges": [
        {"key": "late", "from": "192.168.0.5"},
        {"key": "early", "to": "::ffff:192.168.0.5"}
    ]}}}}));
    assert_eq!(
        v["aggregations"]["r"]["buckets"],
        json!({"early": {"to": "192.168.0.5", "doc_count": 2}, "late": {"from": "192.168.0.5", "doc_count": 1}})
    );
    let (status, _, reason) =
        ix.refused(json!({"aggs": {"r": {"ip_range": {"field": "ip", "ranges": [{"from": "192.168.0"}]}}}}));
    assert_eq!((status, reason.as_str()), (400, "'192.168.0' is not an IP string literal."));
    let (_, _, reason) = ix.refused(json!({"aggs": {"r": {"range": {"field": "ip", "ranges": [{"to": 5}]}}}}));
    assert_eq!(reason, "Field [ip] of type [ip] is not supported for aggregation [range]");
}

/// ES's REST test `search.aggregation/20_terms.yml`, "IP test".
#[test]
fn terms_aggregation_as_the_rest_test_expects() {
    let ix = index(
        "ip_terms",
        mapped(json!({"ip": {"type": "ip"}})),
        &[("1", json!({"ip": "::1"})), ("2", json!({"ip": "127.0.0.1"})), ("3", json!({"ip": "::1"}))],
    );
    let buckets = |terms: Value| {
        let v = ix.search(json!({"size": 0, "aggs": {"ip_terms": {"terms": terms}}}));
        v["aggregations"]["ip_terms"]["buckets"].clone()
    };
    assert_eq!(
        buckets(json!({"field": "ip"})),
        json!([{"key": "::1", "doc_count": 2}, {"key": "127.0.0.1", "doc_count": 1}])
    );
    assert_eq!(
        buckets(json!({"field": "ip", "include": ["127.0.0.1"]})),
        json!([{"key": "127.0.0.1", "doc_count": 1}])
    );
    assert_eq!(buckets(json!({"field": "ip", "exclude": ["127.0.0.1"]})), json!([{"key": "::1", "doc_count": 2}]));
    assert_eq!(
        ix.refused(json!({"size": 0, "aggs": {"ip_terms": {"terms": {"field": "ip", "exclude": "127.*"}}}})),
        (
            500,
            "aggregation_execution_exception".into(),
            "Aggregation [ip_terms] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of values for include/exclude clauses".into()
        )
    );
}

#[test]
fn query_string_and_multi_valued_ranges() {
    let ix = addresses();
    let qs = |q: &str| ix.ids(json!({"query_string": {"query": q}}));
    assert_eq!(qs("ip:192.168.0.1"), vec!["2"]);
    assert_eq!(qs("ip:\"192.168.0.0/16\""), vec!["2", "3"]);
    assert_eq!(qs("ip:[10.0.0.0 TO 10.0.0.255]"), vec!["5"]);
    assert_eq!(qs("ip:\"::1\" OR tag:b"), vec!["1", "3"]);
    // A document with two addresses in one block counts once.
    let v = ix
        .search(json!({"size": 0, "aggs": {"r": {"ip_range": {"field": "ip", "ranges": [{"mask": "10.0.0.0/24"}]}}}}));
    assert_eq!(
        v["aggregations"]["r"]["buckets"],
        json!([{"key": "10.0.0.0/24", "from": "10.0.0.0", "to": "10.0.1.0", "doc_count": 1}])
    );
}

#[test]
fn ip_range_masks_are_read_as_cidr_blocks() {
    let ix = addresses();
    let refused =
        |mask: &str| ix.refused(json!({"aggs": {"r": {"ip_range": {"field": "ip", "ranges": [{"mask": mask}]}}}})).2;
    assert_eq!(refused("10.0.0.0"), "Expected [ip/prefix] but was [10.0.0.0]");
    assert_eq!(
        refused("10.0.0.0/33"),
        "Illegal prefix length [33] in [10.0.0.0/33]. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges"
    );
    assert_eq!(
        refused("::ffff:0:0/96"),
        "CIDR notation is not allowed with IPv6-mapped IPv4 address [::ffff:0:0 as it introduces ambiguity as to whether the prefix length should be interpreted as a v4 prefix length or a v6 prefix length"
    );
    // The whole IPv4 space: its block ends below ::1:0:0:0, the next address.
    let v = ix.search(json!({"size": 0, "aggs": {"r": {"ip_range": {"field": "ip", "ranges": [{"mask": "0.0.0.0/0"}, {"mask": "::/0"}]}}}}));
    assert_eq!(
        v["aggregations"]["r"]["buckets"],
        json!([
            {"key": "::/0", "doc_count": 5},
            {"key": "0.0.0.0/0", "from": "0.0.0.0", "to": "::1:0:0:0", "doc_count": 3}
        ])
    );
}
