"""The Python package end to end: every method and error class."""
import gzip
import json
import threading

import pytest

import metagate
from metagate import (
    AuthenticationException,
    AuthorizationException,
    ConflictError,
    NotFoundError,
    RequestError,
    TransportError,
)


def test_search_with_body_and_params(engine):
    res = engine.search(index="RIN_Tool_pr", body={"query": {"match": {"item.description": "alignment"}}}, _source=["item.name"])
    assert res["hits"]["total"] == 2
    assert [h["_source"] for h in res["hits"]["hits"]] == [{"item": {"name": "Clustal Omega"}}, {"item": {"name": "BLAST"}}] or \
        sorted(h["_id"] for h in res["hits"]["hits"]) == ["rrid:scr_000001", "rrid:scr_000002"]
    assert res["hits"]["hits"][0]["_index"] == "tools-v1"
    assert set(res) >= {"took", "timed_out", "_shards", "hits"}


def test_size_from_and_sort_params(engine):
    res = engine.search(index="RIN_Tool_pr", body={"sort": [{"mentions.totalMentions.count": "desc"}]}, size=2, from_=1)
    assert [h["_id"] for h in res["hits"]["hits"]] == ["rrid:scr_000001", "rrid:scr_000002"]
    assert res["hits"]["hits"][0]["sort"] == [120]


def test_count(engine):
    assert engine.count(index="RIN_Tool_pr") == 3
    assert engine.count(index="RIN_Tool_pr", body={"query": {"term": {"item.keywords.keyword.aggregate": "alignment"}}}) == 2


def test_scan_reads_everything_once(engine):
    ids = [h["_id"] for h in engine.scan("Many_pr", query={"query": {"match_all": {}}}, size=300)]
    assert len(ids) == 2500
    assert len(set(ids)) == 2500


def test_indices_and_aliases(engine):
    names = {i["index"]: i for i in engine.indices()}
    assert names["tools-v1"]["docs.count"] == 3
    assert names["tools-v1"]["aliases"] == ["RIN_Tool_pr"]
    assert {"alias": "RIN_Tool_pr", "index": "tools-v1"} in engine.aliases()


def test_load_from_gzip_path_and_errors(engine, tmp_path):
    p = tmp_path / "terms.jsonl.gz"
    with gzip.open(p, "wt") as f:
        f.write(json.dumps({"ilx": "ilx_1", "label": "heart"}) + "\n")
        f.write("{not json\n")
        f.write(json.dumps({"ilx": "ilx_2", "label": "brain"}) + "\n")
    with pytest.raises(RequestError) as e:
        engine.load("lexicon-v1", p, id_field="ilx")
    assert "line 2" in str(e.value.info)
    report = engine.load("lexicon-v1", p, alias="Lexicon_pr", id_field="ilx", doc_type="term", max_errors=1)
    assert report["docs"] == 2
    assert report["errors"][0]["line"] == 2
    hit = engine.search(index="Lexicon_pr", q="label:brain")["hits"]["hits"][0]
    assert (hit["_id"], hit["_type"]) == ("ilx_2", "term")


def test_error_classes(engine, db_path):
    with pytest.raises(NotFoundError) as e:
        engine.search(index="nope")
    assert e.value.status_code == 404
    assert e.value.error == "index_not_found_exception"
    assert e.value.info["error"]["index"] == "nope"
    with pytest.raises(RequestError) as e:
        engine.search(index="RIN_Tool_pr", body={"query": {"bogus": {}}})
    assert e.value.error == "parsing_exception"
    assert isinstance(e.value, TransportError)
    with pytest.raises(ConflictError):
        raise metagate.exceptions.error_for(409, {"error": {"type": "version_conflict_engine_exception"}})
    assert isinstance(metagate.exceptions.error_for(401, {}), AuthenticationException)
    assert isinstance(metagate.exceptions.error_for(403, {}), AuthorizationException)
    with pytest.raises(TransportError) as e:
        engine.search(index="RIN_Tool_pr", body={"from": 9999, "size": 10})
    assert e.value.status_code == 500
    with pytest.raises(TransportError):
        metagate.Engine(db_path + ".missing")


def test_closed_engine_refuses_calls(db_path):
    es = metagate.Engine(db_path, create=True)
    es.close()
    es.close()
    with pytest.raises(ValueError):
        es.indices()


def test_version():
    assert metagate.Engine.version() == metagate.__version__


def test_hits_to_dataframe(engine):
    pd = pytest.importorskip("pandas")
    res = engine.search(index="RIN_Tool_pr", body={"query": {"match_all": {}}, "sort": ["_id"]})
    df = pd.json_normalize([h["_source"] for h in res["hits"]["hits"]])
    assert list(df["item.name"]) == ["BLAST", "Clustal Omega", "ImageJ"]


def test_calls_release_the_gil(engine):
    """Proves a foreign call runs without the GIL, with no timing assumption: with thread
    switching effectively disabled, the main thread can only run while the worker holds
    no GIL, which between `inside = True` and `done = True` happens only inside the call."""
    import sys

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    state = {"inside": False, "done": False, "seen_inside": False}
    body = {"query": {"match": {"item.description": "sequence tool"}}, "size": 100}

    def worker():
        state["inside"] = True
        for _ in range(200):
            engine.search(index="Many_pr", body=body)
        state["done"] = True

    try:
        t = threading.Thread(target=worker)
        t.start()
        while not state["inside"]:
            threading.Event().wait(0.0001)
        # The worker set `inside` and then released the GIL: only a foreign call does that.
        state["seen_inside"] = not state["done"]
        # And our own call overlaps with the worker's.
        engine.search(index="Many_pr", body=body)
        t.join()
    finally:
        sys.setswitchinterval(old)
    assert state["seen_inside"]


def test_handle_answers_like_the_http_server(engine):
    r = engine.handle("GET", "/elastic/v1/RIN_Tool_pr/_search?q=blast")
    assert r.status == 401
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert r.json()["error"]["type"] == "security_exception"
    r = engine.handle("OPTIONS", "/elastic/v1/RIN_Tool_pr/_search")
    assert (r.status, r.body) == (200, b"")
    r = engine.handle("GET", "/elastic/v1/RIN_Tool_pr/_search?api_key=x")
    assert r.status == 400
    assert "unrecognized parameter: [api_key]" in r.json()["error"]["reason"]
    r = engine.handle("GET", "/nowhere")
    assert (r.status, r.body) == (400, b"No handler found for uri [/nowhere] and method [GET]")


def test_count_msearch_get_mget_and_mapping(engine):
    assert engine.count(index="RIN_Tool_pr", q="item.description:alignment") == 2
    with pytest.raises(RequestError) as e:
        engine.count(index="RIN_Tool_pr", body={"size": 0})
    assert e.value.info["error"]["reason"] == "request does not support [size]"
    res = engine.msearch([{"index": "RIN_Tool_pr"}, {"query": {"match": {"item.description": "alignment"}}},
                          {"index": "Nope_pr"}, {}])
    assert [r["status"] for r in res["responses"]] == [200, 404]
    assert res["responses"][0]["hits"]["total"] == 2
    assert engine.msearch('{}\n{"size": 0}\n', index="Many_pr")["responses"][0]["hits"]["total"] == 2500
    doc = engine.get("RIN_Tool_pr", "rrid:scr_000003", _source_includes="item.name")
    assert (doc["found"], doc["_type"], doc["_source"]) == (True, "_doc", {"item": {"name": "ImageJ"}})
    with pytest.raises(NotFoundError) as e:
        engine.get("RIN_Tool_pr", "nope")
    assert e.value.info == {"_index": "tools-v1", "_type": "_doc", "_id": "nope", "found": False}
    docs = engine.mget({"ids": ["rrid:scr_000001", "nope"]}, index="RIN_Tool_pr")["docs"]
    assert [d["found"] for d in docs] == [True, False]
    mapping = engine.get_mapping("RIN_Tool_pr")
    assert mapping["tools-v1"]["mappings"]["_doc"]["properties"]["item"]["properties"]["name"]["type"] == "text"
    assert "properties" in engine.get_mapping("RIN_Tool_pr", include_type_name=False)["tools-v1"]["mappings"]


def test_script_regex_is_an_open_option(db_path):
    with metagate.Engine(db_path, create=True) as es:
        es.load("words", [{"_id": "1", "w": "metagate"}], progress=False)
    body = {"script_fields": {"m": {"script": "params._source.w ==~ /meta.*/"}}}
    with metagate.Engine(db_path) as es:
        with pytest.raises(RequestError) as e:
            es.search(index="words", body=body)
        cause = e.value.info["error"]["failed_shards"][0]["reason"]["caused_by"]
        assert cause["type"] == "illegal_state_exception"
        assert cause["reason"].startswith("Regexes are disabled.")
    with metagate.Engine(db_path, script_regex=True) as es:
        assert es.search(index="words", body=body)["hits"]["hits"][0]["fields"]["m"] == [True]
    with metagate.Elasticsearch(db_path, script_regex=True) as client:
        assert client.search(index="words", body=body)["hits"]["hits"][0]["fields"]["m"] == [True]
    with metagate.Elasticsearch(db_path) as client:
        with pytest.raises(RequestError):
            client.search(index="words", body=body)
