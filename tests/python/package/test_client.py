"""metagate.Elasticsearch without elasticsearch-py installed: the package's own exception
classes, with elasticsearch-py's names, attributes and text (tests/python/clients
compares the client with elasticsearch-py over HTTP where it is installed)."""
import pytest

import metagate
from metagate import AuthorizationException, NotFoundError, RequestError, TransportError

try:
    import elasticsearch  # noqa: F401

    HAS_ES = True
except ImportError:
    HAS_ES = False


@pytest.fixture()
def es(engine):
    return metagate.Elasticsearch(engine)


def test_reads(es):
    both = es.search(index="RIN_Tool_pr", q="item.description:alignment")
    assert sorted(h["_id"] for h in both["hits"]["hits"]) == ["rrid:scr_000001", "rrid:scr_000002"]
    res = es.search(index="RIN_Tool_pr", q="item.description:alignment", size=1, from_=1)
    assert res["hits"]["total"] == 2
    assert res["hits"]["hits"] == both["hits"]["hits"][1:]
    assert es.count(index="RIN_Tool_pr", body={"query": {"match": {"item.name": "imagej"}}})["count"] == 1
    assert es.get("RIN_Tool_pr", "_doc", "rrid:scr_000003")["_source"]["item"]["name"] == "ImageJ"
    assert es.get_source("RIN_Tool_pr", "_doc", "rrid:scr_000001", _source_includes="item.name") == {"item": {"name": "BLAST"}}
    assert es.exists("RIN_Tool_pr", "_doc", "rrid:scr_000001") is True
    assert es.exists("RIN_Tool_pr", "_doc", "nope") is False
    assert es.indices.exists("RIN_Tool_pr") is True
    assert es.indices.exists("Nope_pr") is False
    assert es.ping() is True
    assert es.info()["version"]["number"] == "6.8.23"
    assert list(es.indices.get_mapping("RIN_Tool_pr")) == ["tools-v1"]
    assert es.indices.get_alias(name="RIN_Tool_pr") == {"tools-v1": {"aliases": {"RIN_Tool_pr": {}}}}
    # ignore= returns the error body instead of raising.
    assert es.get("RIN_Tool_pr", "_doc", "nope", ignore=404)["found"] is False


def test_scroll_as_helpers_scan_drives_it(es):
    page = es.search(index="Many_pr", scroll="1m", size=1000, request_timeout=10, params={"__elastic_client_meta": (("h", "s"),)})
    seen = len(page["hits"]["hits"])
    sid = page["_scroll_id"]
    while True:
        page = es.scroll(scroll_id=sid, scroll="1m", request_timeout=None, params={"__elastic_client_meta": (("h", "s"),)})
        if not page["hits"]["hits"]:
            break
        seen += len(page["hits"]["hits"])
        sid = page["_scroll_id"]
    assert seen == 2500
    assert es.clear_scroll(body={"scroll_id": [sid]}, ignore=(404,)) == {"succeeded": True, "num_freed": 1}
    assert es.clear_scroll(body={"scroll_id": [sid]}, ignore=(404,)) == {"succeeded": True, "num_freed": 0}


@pytest.mark.skipif(HAS_ES, reason="elasticsearch-py is installed: its classes are used")
def test_own_exception_classes():
    assert NotFoundError.__module__ == "metagate.exceptions"
    assert issubclass(NotFoundError, TransportError)
    assert issubclass(TransportError, metagate.ElasticsearchException)


def test_errors(es):
    with pytest.raises(NotFoundError) as e:
        es.search(index="Nope_pr")
    assert (e.value.status_code, e.value.error) == (404, "index_not_found_exception")
    assert e.value.info["error"]["resource.id"] == "Nope_pr"
    assert str(e.value) == "NotFoundError(404, 'index_not_found_exception', 'no such index')"
    with pytest.raises(NotFoundError) as e:
        es.get("RIN_Tool_pr", "_doc", "nope")
    assert e.value.info == {"_index": "tools-v1", "_type": "_doc", "_id": "nope", "found": False}
    # A text answer: the text is the error, there is no info.
    with pytest.raises(RequestError) as e:
        es.transport.perform_request("GET", "/_nope")
    assert e.value.error == "No handler found for uri [/elastic/v1/_nope] and method [GET]"
    assert e.value.info is None
    with pytest.raises(RequestError) as e:
        es.indices.analyze(body={"text": "a b", "tokenizer": "icu_tokenizer"})
    assert e.value.info["error"]["reason"] == "failed to find global tokenizer under [icu_tokenizer]"
    with pytest.raises(TypeError):
        es.search(index="RIN_Tool_pr", sise=3)
    with pytest.raises(ValueError):
        es.get("RIN_Tool_pr", "_doc", "")


def test_analyze(es):
    tokens = es.indices.analyze(body={"text": ["Foo Bar", "Baz"], "tokenizer": "standard", "filter": ["lowercase"]})["tokens"]
    assert [(t["token"], t["position"], t["start_offset"]) for t in tokens] == [("foo", 0, 0), ("bar", 1, 4), ("baz", 2, 8)]
    field = es.indices.analyze(index="RIN_Tool_pr", body={"field": "item.name", "text": "Image J"})["tokens"]
    assert [t["token"] for t in field] == ["image", "j"]


def test_writes_are_refused(es):
    for write in (lambda: es.index("tools-v1", "_doc", {"a": 1}, id="x"),
                  lambda: es.bulk([{"index": {"_index": "tools-v1"}}, {"a": 1}]),
                  lambda: es.delete("tools-v1", "_doc", "rrid:scr_000001"),
                  lambda: es.indices.create("new-v1")):
        with pytest.raises(AuthorizationException) as e:
            write()
        assert (e.value.status_code, e.value.error) == (403, "cluster_block_exception")
        assert e.value.info["error"]["reason"] == "blocked by: [FORBIDDEN/6/cluster read-only (api)];"
    assert es.count(index="RIN_Tool_pr")["count"] == 3


def test_an_open_engine_stays_open(engine):
    metagate.Elasticsearch(engine).close()
    assert engine.count(index="RIN_Tool_pr") == 3


def test_engine_request_is_the_keyless_in_process_door(engine):
    assert engine.handle("GET", "/elastic/v1/RIN_Tool_pr/_count").status == 401
    r = engine.request("GET", "/elastic/v1/RIN_Tool_pr/_count")
    assert (r.status, r.json()["count"]) == (200, 3)
    assert r.headers["Content-Type"] == "application/json; charset=UTF-8"
    # Everything else is the gateway's as over HTTP: routes, parameter checks.
    r = engine.request("GET", "/elastic/v1/RIN_Tool_pr/_count?api_key=x")
    assert r.status == 400
    assert "unrecognized parameter: [api_key]" in r.json()["error"]["reason"]
