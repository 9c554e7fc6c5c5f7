"""Real Elasticsearch clients against `metagate serve` over HTTP on 127.0.0.1.

Uses the official Python client of the 6.8 line and elasticsearch-dsl 6.x, unchanged:
only the API key header (or the `key=` parameter) is added, as clients of the production
gateway do. The server binary is $METAGATE_BIN, else target/debug/metagate, else
target/release/metagate (build it first with `cargo build`).

Run:  pip install pytest "elasticsearch>=6.8,<7" "elasticsearch-dsl>=6.4,<7"
      python -m pytest -q tests/python/clients
"""
import subprocess
import time

import pytest
from elasticsearch import Elasticsearch, helpers
from elasticsearch import exceptions as es_exceptions

from conftest import KINDS, TYPES, add_key, find_bin, load_tools, running_server

N = 1500


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    binary = find_bin()
    d = tmp_path_factory.mktemp("srv")
    db = load_tools(binary, d, N)
    key = add_key(binary, db, "client")
    revoked = add_key(binary, db, "gone")
    with running_server(binary, db, d / "server.log") as url:
        # Revoked while the server runs: refused from the next request on.
        subprocess.run([binary, "keys", "revoke", "gone", "--file", db], check=True, capture_output=True)
        yield {"url": url, "key": key, "revoked": revoked,
               "log": str(d / "server.log")}


@pytest.fixture()
def es(server):
    return Elasticsearch([server["url"]], headers={"apikey": server["key"]})


def test_search_and_uri_search(es):
    res = es.search(index="RIN_Tool_pr", body={"query": {"match": {"item.description": "alignment"}}})
    assert res["hits"]["total"] == N // 3
    assert res["hits"]["hits"][0]["_index"] == "tools-v1"
    assert res["hits"]["hits"][0]["_type"] == "rin"
    assert res["_shards"] == {"total": 1, "successful": 1, "skipped": 0, "failed": 0}
    res = es.search(index="RIN_Tool_pr", q="item.description:imaging", size=3)
    assert res["hits"]["total"] == N // 3
    assert len(res["hits"]["hits"]) == 3
    # The type segment, and the whole-cluster search.
    assert es.search(index="RIN_Tool_pr", doc_type="rin", size=0)["hits"]["total"] == N
    assert es.search(size=0)["hits"]["total"] == N


def test_key_parameter_and_ping(server):
    plain = Elasticsearch([server["url"]])
    res = plain.search(index="RIN_Tool_pr", q="alignment", size=1, params={"key": server["key"]})
    assert res["hits"]["total"] == N // 3
    assert Elasticsearch([server["url"]], headers={"apikey": server["key"]}).ping()
    assert not plain.ping()


def test_scan_over_scroll(es):
    ids = [h["_id"] for h in helpers.scan(es, index="RIN_Tool_pr", query={"query": {"match_all": {}}},
                                          size=400, scroll="1m")]
    assert len(ids) == N
    assert len(set(ids)) == N


def test_scroll_and_clear_by_hand(es):
    res = es.search(index="RIN_Tool_pr", scroll="1s", size=1000, body={"query": {"match_all": {}}})
    sid = res["_scroll_id"]
    nxt = es.scroll(scroll_id=sid, scroll="1s")
    assert len(nxt["hits"]["hits"]) == N - 1000
    assert es.clear_scroll(scroll_id=nxt["_scroll_id"])["succeeded"]
    with pytest.raises(es_exceptions.NotFoundError):
        es.scroll(scroll_id=nxt["_scroll_id"], scroll="1s")


def test_error_classes(server, es):
    url = server["url"]
    # 400: an unknown query, and api_key as a parameter.
    with pytest.raises(es_exceptions.RequestError) as e:
        es.search(index="RIN_Tool_pr", body={"query": {"nope": {}}})
    assert e.value.status_code == 400
    assert e.value.error == "parsing_exception"
    with pytest.raises(es_exceptions.RequestError) as e:
        Elasticsearch([url]).search(index="RIN_Tool_pr", params={"api_key": server["key"]})
    assert e.value.error == "illegal_argument_exception"
    assert e.value.info["error"]["reason"] == \
        "request [/elastic/v1/RIN_Tool_pr/_search] contains unrecognized parameter: [api_key]"
    # 401 without a key, with the three challenges.
    with pytest.raises(es_exceptions.AuthenticationException) as e:
        Elasticsearch([url]).search(index="RIN_Tool_pr")
    assert e.value.status_code == 401
    assert e.value.error == "security_exception"
    assert e.value.info["error"]["header"]["WWW-Authenticate"] == [
        'Bearer realm="security"', "ApiKey", 'Basic realm="security" charset="UTF-8"']
    # 403: unknown and revoked keys.
    for bad in ("wrong", server["revoked"]):
        with pytest.raises(es_exceptions.AuthorizationException) as e:
            Elasticsearch([url], headers={"apikey": bad}).search(index="RIN_Tool_pr")
        assert e.value.status_code == 403
        assert e.value.error == "security_exception"
    # 404.
    with pytest.raises(es_exceptions.NotFoundError) as e:
        es.search(index="Nope_pr")
    assert e.value.error == "index_not_found_exception"
    assert e.value.info["error"]["resource.id"] == "Nope_pr"
    # 500: a body that is not JSON, and a window past 10,000.
    with pytest.raises(es_exceptions.TransportError) as e:
        es.transport.perform_request("POST", "/RIN_Tool_pr/_search", body='{"query" {"match_all": {}}}')
    assert e.value.status_code == 500
    assert e.value.error == "json_parse_exception"
    with pytest.raises(es_exceptions.TransportError) as e:
        es.search(index="RIN_Tool_pr", body={"from": 10000, "size": 10})
    assert e.value.status_code == 500
    assert e.value.error == "search_phase_execution_exception"


def test_cat_aliases(es):
    assert es.cat.aliases(format="json") == [
        {"alias": "RIN_Tool_pr", "index": "tools-v1", "filter": "-", "routing.index": "-", "routing.search": "-"}]
    assert es.cat.aliases(v=True, h="alias,index") == "alias       index\nRIN_Tool_pr tools-v1\n"


def test_dsl_search_with_filter_and_terms_aggregation(es):
    from elasticsearch_dsl import Search

    s = (Search(using=es, index="RIN_Tool_pr")
         .query("match", **{"item.description": "tool"})
         .filter("term", **{"item.types.name.aggregate": "software"}))
    s.aggs.bucket("kinds", "terms", field="item.description.aggregate", size=10)
    res = s.execute()
    assert res.hits.total == N // 2
    assert all(h.item.types[0].name == "software" for h in res)
    buckets = {b.key: b.doc_count for b in res.aggregations.kinds.buckets}
    assert buckets == {"a %s tool" % k: N // 6 for k in KINDS}


def test_access_log_never_holds_the_key(server, es):
    es.search(index="RIN_Tool_pr", size=0)
    Elasticsearch([server["url"]]).search(index="RIN_Tool_pr", size=0, params={"key": server["key"]})
    time.sleep(0.2)
    with open(server["log"]) as f:
        log = f.read()
    assert "key=client" in log
    assert server["key"] not in log


def test_read_apis_besides_search(es):
    """The calls ES clients make on a read-only cluster besides search, unchanged."""
    assert es.count(index="RIN_Tool_pr")["count"] == N
    assert es.count(index="RIN_Tool_pr", body={"query": {"match": {"item.description": "imaging"}}})["count"] == N // 3
    assert es.count(index="RIN_Tool_pr", q="item.description:alignment")["count"] == N // 3
    res = es.msearch(body=[{"index": "RIN_Tool_pr"}, {"query": {"match": {"item.description": "imaging"}}, "size": 2},
                           {"index": "Nope_pr"}, {"query": {"match_all": {}}}])
    assert [r["status"] for r in res["responses"]] == [200, 404]
    assert res["responses"][0]["hits"]["total"] == N // 3
    assert res["responses"][1]["error"]["type"] == "index_not_found_exception"
    doc = es.get(index="RIN_Tool_pr", doc_type="rin", id="rrid:scr_000007")
    assert (doc["found"], doc["_source"]["item"]["name"], doc["_version"]) == (True, "tool 7", 1)
    assert es.get(index="RIN_Tool_pr", doc_type="_doc", id="rrid:scr_000007", _source_includes="item.name")["_source"] == \
        {"item": {"name": "tool 7"}}
    with pytest.raises(es_exceptions.NotFoundError):
        es.get(index="RIN_Tool_pr", doc_type="rin", id="nope")
    assert es.exists(index="RIN_Tool_pr", doc_type="rin", id="rrid:scr_000007")
    assert not es.exists(index="RIN_Tool_pr", doc_type="rin", id="nope")
    assert es.get_source(index="RIN_Tool_pr", doc_type="rin", id="rrid:scr_000008")["item"]["identifier"] == "SCR_000008"
    docs = es.mget(index="RIN_Tool_pr", body={"ids": ["rrid:scr_000001", "nope"]})["docs"]
    assert [d["found"] for d in docs] == [True, False]
    mapping = es.indices.get_mapping(index="RIN_Tool_pr")
    assert mapping["tools-v1"]["mappings"]["rin"]["properties"]["item"]["properties"]["name"]["type"] == "text"
    assert es.indices.get_alias(index="tools-v1") == {"tools-v1": {"aliases": {"RIN_Tool_pr": {}}}}
    assert es.indices.get_alias(name="RIN_Tool_pr") == {"tools-v1": {"aliases": {"RIN_Tool_pr": {}}}}
    assert es.indices.exists_alias(name="RIN_Tool_pr")
    assert not es.indices.exists_alias(name="Nope_pr")
    assert es.indices.exists(index="RIN_Tool_pr")
    assert not es.indices.exists(index="nope")
    caps = es.field_caps(index="RIN_Tool_pr", fields="item.name*")
    assert caps["fields"]["item.name.aggregate"] == {"keyword": {"type": "keyword", "searchable": True, "aggregatable": True}}
    assert es.cat.count(index="RIN_Tool_pr", format="json")[0]["count"] == str(N)
    assert es.cat.indices(format="json", h="index,docs.count") == [{"index": "tools-v1", "docs.count": str(N)}]
    # Writes meet a read-only cluster.
    with pytest.raises(es_exceptions.AuthorizationException) as e:
        es.index(index="tools-v1", doc_type="rin", id="x", body={"a": 1})
    assert e.value.error == "cluster_block_exception"


def test_dsl_count(server):
    from elasticsearch_dsl import Search
    from elasticsearch_dsl.connections import connections
    connections.create_connection(alias="count", hosts=[server["url"]], headers={"apikey": server["key"]})
    s = Search(using="count", index="RIN_Tool_pr").query("match", **{"item.description": "genome assembly"})
    assert s.count() == N // 3
    assert Search(using="count", index="RIN_Tool_pr").count() == N


def test_sliced_scroll_slices_as_es(es):
    """Slices hold the documents ES puts in them: MurmurHash3 (seed 7919) of the `_id` term
    as ES stores it (a non-numeric, non-base64 id is 0xff + its UTF-8), floor-mod `max`.
    mmh3 is an independent implementation of the hash."""
    import mmh3

    def es_slice(doc_id, max_slices):
        return mmh3.hash(b"\xff" + doc_id.encode("utf-8"), 7919, signed=True) % max_slices

    every = ["rrid:scr_%06d" % k for k in range(N)]
    for max_slices in (2, 3):
        seen = []
        for i in range(max_slices):
            body = {"slice": {"id": i, "max": max_slices}, "query": {"match_all": {}}}
            ids = [h["_id"] for h in helpers.scan(es, index="RIN_Tool_pr", query=body, size=500, scroll="1m")]
            assert sorted(ids) == sorted(d for d in every if es_slice(d, max_slices) == i)
            seen.extend(ids)
        assert sorted(seen) == sorted(every)


def test_partitioned_terms_as_es(es):
    """A partition holds the terms ES puts in it: MurmurHash3 (seed 31) of the term's
    UTF-8 bytes, floor-mod `num_partitions` (checked with mmh3)."""
    import mmh3
    names = {n.lower() for n in TYPES}
    got = set()
    for p in range(3):
        body = {"size": 0, "aggs": {"t": {"terms": {"field": "item.types.name.aggregate",
                                                    "include": {"partition": p, "num_partitions": 3}}}}}
        keys = {b["key"] for b in es.search(index="RIN_Tool_pr", body=body)["aggregations"]["t"]["buckets"]}
        assert keys == {n for n in names if mmh3.hash(n.encode("utf-8"), 31, signed=True) % 3 == p}
        got |= keys
    assert got == names
