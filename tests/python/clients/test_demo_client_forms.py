"""Every request form of reference/client-usage.md, sent by the official 6.8 client to
`metagate serve` over the demo corpus. Each answer is checked against a second request or
the record it was built from, so a form that is accepted but answered wrongly fails."""
import json
import os
import urllib.request

import pytest

from conftest import ROOT, count

TOOLS = "RIN_Tool_pr"



@pytest.fixture(scope="module")
def tool(demo_es):
    """A tool record with keywords and types, to build queries from."""
    res = demo_es.search(index=TOOLS, body={"size": 50, "query": {"bool": {"filter": [
        {"exists": {"field": "item.keywords.keyword"}}, {"exists": {"field": "item.types.name"}}]}}})
    return res["hits"]["hits"][7]


def total(res):
    return res["hits"]["total"]


def ids(res):
    return [h["_id"] for h in res["hits"]["hits"]]


def test_request_forms(demo_es, tool):
    es = demo_es
    n = count(es, TOOLS)
    # POST with a body; a body without `query` is match_all; sizes as strings.
    assert total(es.search(index=TOOLS, body={"size": 0})) == n
    assert len(es.search(index=TOOLS, body={"size": "200"})["hits"]["hits"]) == 200
    for size in (999, 1000, 10000):
        assert len(es.search(index=TOOLS, body={"size": size, "_source": False})["hits"]["hits"]) == min(size, n)
    # URI search with size and from.
    first = es.search(index=TOOLS, q="genome", size=5)
    second = es.search(index=TOOLS, q="genome", size=5, from_=5)
    both = es.search(index=TOOLS, q="genome", size=10)
    assert ids(first) + ids(second) == ids(both)
    # The type segment, preference, and multi-index targets.
    assert total(es.search(index=TOOLS, doc_type="rin", size=0)) == n
    assert total(es.search(index=TOOLS, size=0, preference="_local")) == n
    pr = total(es.search(index="*_pr", size=0))
    assert pr > n
    assert total(es.search(index="*_pr,-%s" % TOOLS, size=0)) == pr - n
    assert total(es.search(index="%s,Lexicon_pr" % TOOLS, size=0)) == n + count(es, "Lexicon_pr")
    plasmids = total(es.search(index="RIN_PlasmidA_pr,RIN_PlasmidB_*_pr", size=0))
    assert plasmids == count(es, "RIN_PlasmidA_pr") + count(es, "RIN_PlasmidB_*_pr")


def test_get_with_a_body(demo_es):
    # Some clients send GET with a JSON body: it must be read like POST.
    conn = demo_es.transport.get_connection()
    status, headers, data = conn.perform_request(
        "GET", "/%s/_search" % TOOLS, body=json.dumps({"query": {"match": {"item.name": "blast"}}, "size": 1}).encode(),
        headers={"Content-Type": "application/json"})
    assert status == 200
    posted = demo_es.search(index=TOOLS, body={"query": {"match": {"item.name": "blast"}}, "size": 1})
    assert json.loads(data)["hits"] == posted["hits"]


def test_query_string_forms(demo_es, tool):
    es = demo_es
    ident = tool["_source"]["item"]["identifier"]
    kw = tool["_source"]["item"]["keywords"][0]["keyword"]
    by_id = es.search(index=TOOLS, body={"query": {"query_string": {"query": "_id:%s" % tool["_id"].replace(":", "\\:")}}})
    assert ids(by_id) == [tool["_id"]]
    escaped = ident.replace(":", "\\:").replace("/", "\\/")
    res = es.search(index=TOOLS, body={"query": {"query_string": {
        "query": escaped, "fields": ["*identifier"], "lenient": "true"}}})
    assert tool["_id"] in ids(res)
    res = es.search(index=TOOLS, body={"query": {"query_string": {
        "query": "item.keywords.keyword:((\"%s\") OR (nonexistentword))" % kw}}})
    assert total(res) == count(es, TOOLS, {"match_phrase": {"item.keywords.keyword": kw}})
    # cross_fields with AND: every word in some field; the tool's own words find it.
    words = [w for w in tool["_source"]["item"]["description"].split() if w.isalnum()][:3]
    cross = es.search(index=TOOLS, body={"query": {"bool": {"must": {"query_string": {
        "query": " ".join(words), "fields": ["*"], "type": "cross_fields", "default_operator": "and", "lenient": "true"}},
        "filter": {"ids": {"values": [tool["_id"]]}}}}})
    assert ids(cross) == [tool["_id"]]
    best = es.search(index=TOOLS, size=0, body={"query": {"query_string": {
        "query": "geno*", "fields": ["item.name", "item.description^2"], "type": "best_fields"}}})
    prefixed = es.search(index=TOOLS, size=0, body={"query": {"bool": {"should": [
        {"prefix": {"item.name": "geno"}}, {"prefix": {"item.description": "geno"}}]}}})
    assert total(best) == total(prefixed) > 0


def test_term_bool_match_and_friends(demo_es, tool):
    es = demo_es
    tid = tool["_id"]
    ident_lc = tool["_source"]["item"]["identifier"].lower()
    for form in ({"item.identifier.aggregate": ident_lc},
                 {"item.identifier.aggregate": {"value": ident_lc, "boost": 2}},
                 {"item.identifier.aggregate": {"term": ident_lc, "boost": 2}}):
        assert ids(es.search(index=TOOLS, body={"query": {"term": form}})) == [tid]
    res = es.search(index=TOOLS, body={"query": {"terms": {"_id": [tid, "nope"], "boost": 3}}})
    assert ids(res) == [tid]
    type_lc = tool["_source"]["item"]["types"][0]["name"].lower()
    with_type = count(es, TOOLS, {"term": {"item.types.name.aggregate": type_lc}})
    for flt in ({"term": {"item.types.name.aggregate": type_lc}}, [{"term": {"item.types.name.aggregate": type_lc}}]):
        res = es.search(index=TOOLS, size=0, body={"query": {"bool": {"must": {"match_all": {}}, "filter": flt}}})
        assert total(res) == with_type
    res = es.search(index=TOOLS, size=0, body={"query": {"bool": {"must_not": {"term": {"item.types.name.aggregate": type_lc}}}}})
    assert total(res) == count(es, TOOLS) - with_type
    should = [{"match": {"item.description": "genome"}}, {"match": {"item.description": "protein"}},
              {"match": {"item.description": "alignment"}}]
    two = es.search(index=TOOLS, size=0, body={"query": {"bool": {"should": should, "minimum_should_match": 2}}})
    one = es.search(index=TOOLS, size=0, body={"query": {"bool": {"should": should}}})
    assert 0 < total(two) < total(one)
    anded = es.search(index=TOOLS, size=0, body={"query": {"match": {"item.description": {"query": "genome protein", "operator": "and", "boost": 2}}}})
    assert 0 < total(anded) <= total(es.search(index=TOOLS, size=0, body={"query": {"match": {"item.description": "genome"}}}))
    fuzzy = es.search(index=TOOLS, size=0, body={"query": {"match": {"item.description": {"query": "genme", "fuzziness": "AUTO"}}}})
    assert total(fuzzy) > 0
    phrase = es.search(index=TOOLS, size=0, body={"query": {"match_phrase": {"item.description": "sequence alignment"}}})
    assert 0 < total(phrase) <= total(es.search(index=TOOLS, size=0, body={"query": {"match": {"item.description": {"query": "sequence alignment", "operator": "and"}}}}))
    mm = es.search(index=TOOLS, body={"query": {"multi_match": {"query": "blast", "fields": ["item.name^3", "item.description"], "type": "best_fields", "fuzziness": "AUTO"}}})
    assert total(mm) > 0
    prefix = es.search(index=TOOLS, size=0, body={"query": {"prefix": {"item.identifier.aggregate": ident_lc[:10]}}})
    wildcard = es.search(index=TOOLS, size=0, body={"query": {"wildcard": {"item.identifier.aggregate": ident_lc[:10] + "*"}}})
    assert total(prefix) == total(wildcard) >= 1
    sqs = es.search(index=TOOLS, body={"query": {"simple_query_string": {"query": "genome", "fields": ["item.name^5", "item.description"]}}})
    assert total(sqs) == total(es.search(index=TOOLS, size=0, body={"query": {"multi_match": {"query": "genome", "fields": ["item.name", "item.description"]}}}))


def test_ranges_function_score_and_shaping(demo_es, tool):
    es = demo_es
    ident_lc = tool["_source"]["item"]["identifier"].lower()
    # Keyset paging with gt on a keyword, sorted on it.
    page = es.search(index=TOOLS, body={"size": 5, "sort": [{"item.identifier.aggregate": "asc"}],
                                        "query": {"range": {"item.identifier.aggregate": {"gt": ident_lc}}}})
    keys = [h["sort"][0] for h in page["hits"]["hits"]]
    assert keys == sorted(keys) and all(k > ident_lc for k in keys)
    dated = es.search(index="Portal_Dataset_pr", size=0, body={"query": {"range": {"dates.created.timestamp": {"gte": "2000-01-01"}}}})
    assert total(dated) > 0
    fs = es.search(index=TOOLS, body={"query": {"function_score": {
        "query": {"match": {"item.description": "genome"}},
        "field_value_factor": {"field": "mentions.totalMentions.count", "modifier": "log1p", "factor": 1.2, "missing": 1},
        "boost_mode": "multiply"}}})
    plain = es.search(index=TOOLS, body={"query": {"match": {"item.description": "genome"}}})
    assert total(fs) == total(plain)
    # Sorting forms, _source forms, search_after on _id, version, highlight.
    res = es.search(index=TOOLS, body={"size": 3, "sort": [{"item.name.aggregate": "asc"}, "_score"], "_source": ["item.name"]})
    assert [list(h["_source"]["item"].keys()) for h in res["hits"]["hits"]] == [["name"]] * 3
    res = es.search(index=TOOLS, body={"size": 3, "sort": [{"item.name.aggregate": {"order": "desc"}}],
                                       "_source": {"includes": ["item.identifier"]}, "version": True})
    assert all(h["_version"] == 1 and list(h["_source"]["item"]) == ["identifier"] for h in res["hits"]["hits"])
    first = es.search(index=TOOLS, body={"size": 4, "sort": [{"_id": "asc"}]})
    after = es.search(index=TOOLS, body={"size": 2, "sort": [{"_id": "asc"}], "search_after": first["hits"]["hits"][1]["sort"]})
    assert ids(after) == ids(first)[2:4]
    hl = es.search(index=TOOLS, body={"query": {"match": {"item.description": "genome"}},
                                      "highlight": {"fields": {"item.description": {}}}})
    assert "<em>" in hl["hits"]["hits"][0]["highlight"]["item.description"][0].lower()


def test_key_parameter_and_scroll(demo_es):
    es = demo_es
    url = es.metagate_url + "/%s/_search?q=genome&size=1&key=%s" % (TOOLS, es.metagate_key)
    with urllib.request.urlopen(url) as r:
        assert json.loads(r.read())["hits"]["total"] == total(es.search(index=TOOLS, q="genome", size=0))
    res = es.search(index="Lexicon_pr", scroll="1s", size=1000, body={"query": {"match_all": {}}})
    seen = len(res["hits"]["hits"])
    while True:
        res = es.scroll(scroll_id=res["_scroll_id"], scroll="1s")
        if not res["hits"]["hits"]:
            break
        seen += len(res["hits"]["hits"])
    assert seen == count(es, "Lexicon_pr") > 10000  # past the result window


def test_antibody_lookup_by_citation_identifier(demo_es):
    """The antibody pages' lookup: `rrid.curie` is an exact keyword, as in production."""
    res = demo_es.search(index="RIN_Antibody_pr", body={"query": {"terms": {"rrid.curie": ["RRID:AB_2877222"]}}})
    assert ids(res) == ["rrid:ab_2877222"]
    assert res["hits"]["hits"][0]["_source"]["rrid"]["curie"] == "RRID:AB_2877222"
    assert total(demo_es.search(index="RIN_Antibody_pr", body={"query": {"terms": {"rrid.curie": ["rrid:ab_2877222"]}}})) == 0


def test_every_cellosaurus_record_is_searchable(demo_es):
    """The cell-line index holds the whole Cellosaurus label table: HeLa is found by its
    name, first, and by its accession; the count is the table's."""
    res = demo_es.search(index="RIN_CellLine_pr", q="HeLa", size=3)
    first = res["hits"]["hits"][0]
    assert first["_id"] == "rrid:cvcl_0030"
    assert first["_source"]["item"]["name"] == "HeLa"
    assert first["_source"]["rrid"]["curie"] == "RRID:CVCL_0030"
    res = demo_es.search(index="RIN_CellLine_pr", body={"query": {"term": {"rrid.curie": "RRID:CVCL_0030"}}})
    assert ids(res) == ["rrid:cvcl_0030"]
    table = os.path.join(ROOT, "..", "shared", "data", "cellosaurus_cvcl_labels.tsv")
    with open(table, encoding="utf-8") as f:
        rows = sum(1 for line in list(f)[1:] if len(line.rstrip("\n").split("\t")) == 3)
    assert count(demo_es, "RIN_CellLine_pr") == rows == 167186
