"""Real Elasticsearch clients against `metagate serve` over HTTP on 127.0.0.1.

Uses the official Python client of the 6.8 line and elasticsearch-dsl 6.x, unchanged:
only the API key header is added, as clients of the production gateway do.
"""
import gzip
import json
import os
import socket
import subprocess
import time

import pytest
from elasticsearch import Elasticsearch, helpers
from elasticsearch import exceptions as es_exceptions

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("METAGATE_BIN", os.path.join(ROOT, "target", "release", "metagate"))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("srv")
    db = str(d / "t.redb")
    bulk = d / "tools.ndjson.gz"
    with gzip.open(bulk, "wt") as f:
        for i in range(1500):
            f.write(json.dumps({"index": {"_id": "rrid:scr_%06d" % i, "_type": "rin"}}) + "\n")
            kind = ["alignment", "imaging", "genome assembly"][i % 3]
            f.write(json.dumps({"item": {"name": "tool %d" % i, "description": "a %s tool" % kind, "identifier": "SCR_%06d" % i,
                                         "types": [{"name": ["software", "database"][i % 2]}]}}) + "\n")
    subprocess.run([BIN, "load", "--file", db, "--index", "tools-v1", "--alias", "RIN_Tool_pr", "--family", "registry", str(bulk)], check=True)
    key = subprocess.run([BIN, "keys", "add", "client", "--file", db], check=True, capture_output=True, text=True).stdout.strip()
    port = free_port()
    proc = subprocess.Popen([BIN, "serve", "--file", db, "--bind", "127.0.0.1:%d" % port, "--rate-limit", "0"], stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    yield "http://127.0.0.1:%d/elastic/v1" % port, key
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture()
def es(server):
    url, key = server
    return Elasticsearch([url], headers={"apikey": key})


def test_search_and_uri_search(es):
    res = es.search(index="RIN_Tool_pr", body={"query": {"match": {"item.description": "alignment"}}})
    assert res["hits"]["total"] == 500
    assert res["hits"]["hits"][0]["_index"] == "tools-v1"
    res = es.search(index="RIN_Tool_pr", q="item.description:imaging", size=3)
    assert res["hits"]["total"] == 500
    assert len(res["hits"]["hits"]) == 3


def test_scan_over_scroll(es):
    ids = [h["_id"] for h in helpers.scan(es, index="RIN_Tool_pr", query={"query": {"match_all": {}}}, size=400, scroll="1m")]
    assert len(ids) == 1500
    assert len(set(ids)) == 1500


def test_error_classes(server, es):
    url, key = server
    with pytest.raises(es_exceptions.RequestError) as e:
        es.search(index="RIN_Tool_pr", body={"query": {"nope": {}}})
    assert e.value.status_code == 400
    assert e.value.error == "parsing_exception"
    with pytest.raises(es_exceptions.NotFoundError) as e:
        es.search(index="Nope_pr")
    assert e.value.error == "index_not_found_exception"
    with pytest.raises(es_exceptions.AuthenticationException) as e:
        Elasticsearch([url]).search(index="RIN_Tool_pr")
    assert e.value.status_code == 401
    with pytest.raises(es_exceptions.AuthorizationException) as e:
        Elasticsearch([url], headers={"apikey": "wrong"}).search(index="RIN_Tool_pr")
    assert e.value.status_code == 403
    with pytest.raises(es_exceptions.TransportError) as e:
        es.search(index="RIN_Tool_pr", body={"from": 10000, "size": 10})
    assert e.value.status_code == 500
    assert e.value.error == "search_phase_execution_exception"


def test_dsl_search(es):
    from elasticsearch_dsl import Search

    s = Search(using=es, index="RIN_Tool_pr").query("match", **{"item.description": "tool"}).filter("term", **{"item.types.name.aggregate": "software"})
    res = s.execute()
    assert res.hits.total == 750
    assert all(h.item.types[0].name == "software" for h in res)
