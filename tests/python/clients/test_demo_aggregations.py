"""The aggregation requests real portals send (reference/client-usage.md), against the
embedded demo corpus served by `metagate serve`, through the official 6.8 client.

Facets: `size: 0` with terms aggregations of size 200 ordered by count then key; every
bucket is checked against a separate filtered count. Composite: every identifier of an
index paged 1000 at a time with `after`, checked against the index's size.
"""
import pytest

from conftest import count

FACET_ORDER = [{"_count": "desc"}, {"_key": "asc"}]



@pytest.mark.parametrize("index,field", [
    ("RIN_Tool_pr", "item.types.name.aggregate"),
    ("RIN_Tool_pr", "item.keywords.keyword.aggregate"),
    ("Portal_Dataset_pr", "organisms.primary.species.name.aggregate"),
    ("Portal_Dataset_pr", "anatomy.organ.name.aggregate"),
    ("Lexicon_pr", "type.aggregate"),
])
def test_facets_match_filtered_counts(demo_es, index, field):
    res = demo_es.search(index=index, body={"size": 0, "aggregations": {
        "facet": {"terms": {"field": field, "size": 200, "order": FACET_ORDER}}}})
    agg = res["aggregations"]["facet"]
    buckets = agg["buckets"]
    assert buckets, "no buckets for %s on %s" % (field, index)
    assert agg["doc_count_error_upper_bound"] == 0
    # Ordered by count descending, then key ascending; keys lower-cased by the normalizer.
    assert buckets == sorted(buckets, key=lambda b: (-b["doc_count"], b["key"].encode()))
    assert all(b["key"] == b["key"].lower() for b in buckets)
    for b in buckets[:25]:
        n = count(demo_es, index, {"term": {field: b["key"]}})
        assert n == b["doc_count"], b
    # Buckets plus the rest account for every value of the field.
    values = demo_es.search(index=index, body={"size": 0, "aggs": {"n": {"cardinality": {"field": field}}}})
    assert len(buckets) == min(200, values["aggregations"]["n"]["value"])
    if len(buckets) < 200:
        assert agg["sum_other_doc_count"] == 0


def test_facets_with_a_query_and_typed_keys(demo_es):
    res = demo_es.search(index="RIN_Tool_pr", typed_keys=True, body={
        "size": 0, "query": {"match": {"item.description": "sequence alignment"}},
        "aggs": {"types": {"terms": {"field": "item.types.name.aggregate", "size": 200, "order": FACET_ORDER}}}})
    buckets = res["aggregations"]["sterms#types"]["buckets"]
    top = buckets[0]
    n = count(demo_es, "RIN_Tool_pr", {"bool": {
        "must": {"match": {"item.description": "sequence alignment"}},
        "filter": {"term": {"item.types.name.aggregate": top["key"]}}}})
    assert n == top["doc_count"]


@pytest.mark.parametrize("index", ["RIN_Antibody_pr", "Portal_Dataset_pr", "RIN_Tool_pr"])
def test_composite_pages_every_identifier(demo_es, index):
    total = count(demo_es, index)
    keys, after = [], None
    while True:
        composite = {"size": 1000, "sources": [{"id": {"terms": {"field": "item.identifier.aggregate"}}}]}
        if after:
            composite["after"] = after
        res = demo_es.search(index=index, body={"size": 0, "aggs": {"ids": {"composite": composite}}})
        page = res["aggregations"]["ids"]
        if not page["buckets"]:
            assert "after_key" not in page
            break
        keys += [b["key"]["id"] for b in page["buckets"]]
        assert page["after_key"] == page["buckets"][-1]["key"]
        after = page["after_key"]
    assert keys == sorted(keys, key=str.encode)
    assert len(set(keys)) == len(keys)
    with_identifier = count(demo_es, index, {"exists": {"field": "item.identifier.aggregate"}})
    assert with_identifier == total
    # Identifiers are unique per record in the demo, so every record has its own bucket.
    assert len(keys) == total
