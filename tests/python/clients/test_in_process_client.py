"""`metagate.Elasticsearch(file)`, the in-process client, against elasticsearch-py 6.8 over
HTTP to `metagate serve` on the same file: the same signatures, the same answers, the
same exceptions, and elasticsearch-py's helpers and elasticsearch-dsl run on it unchanged.

Needs the metagate package installed beside elasticsearch 6.8 and elasticsearch-dsl 6.x
(tests/extra.sh installs it into the clients' virtualenv).
"""
import inspect

import pytest
from elasticsearch import Elasticsearch, helpers
from elasticsearch import exceptions as es_exceptions

import metagate
from conftest import add_key, find_bin, load_tools, running_server

N = 1200


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """(HTTP client, in-process client) on one file."""
    binary = find_bin()
    d = tmp_path_factory.mktemp("pair")
    db = load_tools(binary, d, N, year=True)
    key = add_key(binary, db, "client")
    with running_server(binary, db, d / "server.log") as url:
        local = metagate.Elasticsearch(db)
        yield Elasticsearch([url], headers={"apikey": key}), local
        local.close()


def without_took(value):
    """An answer without its timings, which differ between two runs."""
    if isinstance(value, dict):
        return {k: without_took(v) for k, v in value.items() if k != "took"}
    if isinstance(value, list):
        return [without_took(v) for v in value]
    return value


def both(pair, call):
    """`call(client)` on each client: (answer, None) or (None, exception)."""
    out = []
    for client in pair:
        try:
            out.append((without_took(call(client)), None))
        except es_exceptions.TransportError as e:
            out.append((None, e))
    return out


READS = {
    "search": lambda es: es.search(index="RIN_Tool_pr", body={"query": {"match": {"item.description": "alignment"}}}),
    "uri search": lambda es: es.search(index="RIN_Tool_pr", q="item.description:imaging", size=3, from_=2,
                                       sort="item.year:desc", _source_includes=["item.name", "item.year"]),
    "typed search": lambda es: es.search(index="RIN_Tool_pr", doc_type="rin", size=0),
    "all indices": lambda es: es.search(size=1, filter_path="hits.total"),
    "aggregation": lambda es: es.search(index="RIN_Tool_pr", body={
        "size": 0, "aggs": {"t": {"terms": {"field": "item.types.name.aggregate"}},
                            "y": {"stats": {"field": "item.year"}}}}, typed_keys=True),
    "count": lambda es: es.count(index="RIN_Tool_pr", body={"query": {"match": {"item.description": "imaging"}}}),
    "count q": lambda es: es.count(index="RIN_Tool_pr", q="item.description:alignment"),
    "msearch": lambda es: es.msearch(body=[
        {"index": "RIN_Tool_pr"}, {"query": {"match": {"item.description": "imaging"}}, "size": 2},
        {"index": "Nope_pr"}, {"query": {"match_all": {}}}]),
    "msearch text": lambda es: es.msearch(index="RIN_Tool_pr", body='{}\n{"size": 1}\n'),
    "get": lambda es: es.get(index="RIN_Tool_pr", doc_type="rin", id="rrid:scr_000007"),
    "get includes": lambda es: es.get("RIN_Tool_pr", "_doc", "rrid:scr_000007", _source_includes="item.name"),
    "get_source": lambda es: es.get_source(index="RIN_Tool_pr", doc_type="rin", id="rrid:scr_000008"),
    "exists": lambda es: es.exists(index="RIN_Tool_pr", doc_type="rin", id="rrid:scr_000007"),
    "exists not": lambda es: es.exists(index="RIN_Tool_pr", doc_type="rin", id="nope"),
    "mget": lambda es: es.mget(index="RIN_Tool_pr", body={"ids": ["rrid:scr_000001", "nope"]}),
    "mget docs": lambda es: es.mget(body={"docs": [{"_index": "RIN_Tool_pr", "_id": "rrid:scr_000002"}]}),
    "field_caps": lambda es: es.field_caps(index="RIN_Tool_pr", fields="item.name*"),
    "info": lambda es: es.info(),
    "ping": lambda es: es.ping(),
    "get_mapping": lambda es: es.indices.get_mapping(index="RIN_Tool_pr"),
    "get_mapping untyped": lambda es: es.indices.get_mapping(index="RIN_Tool_pr", include_type_name=False),
    "get_alias by index": lambda es: es.indices.get_alias(index="tools-v1"),
    "get_alias by name": lambda es: es.indices.get_alias(name="RIN_Tool_pr"),
    "indices.exists": lambda es: es.indices.exists(index="RIN_Tool_pr"),
    "indices.exists not": lambda es: es.indices.exists(index="nope"),
    "exists_alias": lambda es: es.indices.exists_alias(name="RIN_Tool_pr"),
    "indices.analyze": lambda es: es.indices.analyze(body={"text": ["Foo Bar", "Baz"], "tokenizer": "whitespace",
                                                           "filter": ["lowercase", {"type": "edge_ngram", "max_gram": 3}]}),
    "indices.analyze field": lambda es: es.indices.analyze(index="RIN_Tool_pr", body={"field": "item.description",
                                                                                       "text": "Image ALIGNMENT"}),
    "indices.analyze explain": lambda es: es.indices.analyze(body={"text": "the fox", "analyzer": "stop", "explain": True}),
    "explain": lambda es: es.explain("RIN_Tool_pr", "rin", "rrid:scr_000007",
                                     body={"query": {"match": {"item.description": "alignment"}}}),
    "explain q": lambda es: es.explain("RIN_Tool_pr", "rin", "rrid:scr_000007", q="item.name:nope",
                                       _source_includes="item.name"),
    "validate_query": lambda es: es.indices.validate_query(index="RIN_Tool_pr", explain=True, body={
        "query": {"bool": {"must": {"match": {"item.description": "alignment"}}, "filter": {"term": {"item.year": 2004}}}}}),
    "validate_query invalid": lambda es: es.indices.validate_query(explain=True, body={"query": {"nope": {}}}),
    "validate_query q": lambda es: es.indices.validate_query(index="RIN_Tool_pr", q="item.name:blast"),
    "search_shards": lambda es: es.search_shards(index="RIN_Tool_pr", routing="x"),
    "cluster.health": lambda es: es.cluster.health(),
    "cluster.health indices": lambda es: es.cluster.health(index="RIN_Tool_pr", level="indices", wait_for_status="green"),
    "indices.stats": lambda es: es.indices.stats(index="RIN_Tool_pr"),
    "indices.stats docs": lambda es: es.indices.stats(metric="docs", level="cluster"),
    "cat.health": lambda es: es.cat.health(h="cluster,status,shards"),
    "cat.shards": lambda es: es.cat.shards(index="RIN_Tool_pr", format="json", bytes="b"),
    "seq_no_primary_term": lambda es: es.search(index="RIN_Tool_pr", size=2, sort="_id", seq_no_primary_term=True),
    "search_template": lambda es: es.search_template(index="RIN_Tool_pr", body={
        "source": {"query": {"match": {"item.description": "{{text}}"}}, "size": "{{size}}"}, "params": {"text": "alignment", "size": 2}}),
    "msearch_template": lambda es: es.msearch_template(body=[
        {"index": "RIN_Tool_pr"}, {"source": '{"query": {"match": {"item.name": "{{v}}"}}}', "params": {"v": "blast"}},
        {"index": "RIN_Tool_pr"}, {"source": '{"query": {"nope": {}}}'}]),
    "render_search_template": lambda es: es.render_search_template(body={
        "source": '{"query": {"terms": {"item.name": {{#toJson}}names{{/toJson}} }}}', "params": {"names": ["a", "b"]}}),
    "termvectors": lambda es: es.termvectors("RIN_Tool_pr", "rin", "rrid:scr_000007", fields="item.description,item.name",
                                             term_statistics=True),
    "termvectors artificial": lambda es: es.termvectors("RIN_Tool_pr", "rin", body={"doc": {"item": {"description": "image alignment"}}}),
    "mtermvectors": lambda es: es.mtermvectors(index="RIN_Tool_pr", doc_type="rin", body={"ids": ["rrid:scr_000001", "nope"]},
                                               fields="item.description"),
    "ignored 404": lambda es: es.get(index="RIN_Tool_pr", doc_type="rin", id="nope", ignore=404),
    "ignored 404 list": lambda es: es.search(index="Nope_pr", ignore=[400, 404], request_timeout=5),
}


@pytest.mark.parametrize("name", sorted(READS))
def test_reads_answer_as_over_http(pair, name):
    (http, http_err), (local, local_err) = both(pair, READS[name])
    assert http_err is None and local_err is None, (http_err, local_err)
    assert local == http
    assert local not in (None, "", {}, [])


def test_answers_have_the_documents(pair):
    _, es = pair
    assert es.search(index="RIN_Tool_pr", q="item.description:alignment")["hits"]["total"] == N // 3
    assert es.count(index="RIN_Tool_pr")["count"] == N
    assert es.get_source("RIN_Tool_pr", "rin", "rrid:scr_000008")["item"]["identifier"] == "SCR_000008"
    assert es.exists("RIN_Tool_pr", "rin", "rrid:scr_000008") is True
    assert es.exists("RIN_Tool_pr", "rin", "nope") is False
    assert es.indices.get_alias(name="RIN_Tool_pr") == {"tools-v1": {"aliases": {"RIN_Tool_pr": {}}}}
    assert es.ping() is True
    assert es.info()["version"]["number"] == "6.8.23"


ERRORS = {
    "missing index": (es_exceptions.NotFoundError, lambda es: es.search(index="Nope_pr")),
    "unknown query": (es_exceptions.RequestError, lambda es: es.search(index="RIN_Tool_pr", body={"query": {"nope": {}}})),
    "unknown parameter": (es_exceptions.RequestError, lambda es: es.search(index="RIN_Tool_pr", params={"sise": "3"})),
    "analyze unknown tokenizer": (es_exceptions.RequestError,
                                  lambda es: es.indices.analyze(body={"text": "a", "tokenizer": "icu_tokenizer"})),
    "missing document": (es_exceptions.NotFoundError, lambda es: es.get(index="RIN_Tool_pr", doc_type="rin", id="nope")),
    "explain missing document": (es_exceptions.NotFoundError,
                                 lambda es: es.explain("RIN_Tool_pr", "rin", "nope", q="item.name:x")),
    "explain without query": (es_exceptions.RequestError, lambda es: es.explain("RIN_Tool_pr", "rin", "rrid:scr_000007")),
    "cluster.health timeout": (es_exceptions.TransportError, lambda es: es.cluster.health(index="nope", wait_for_status="green")),
    "search_template stored": (es_exceptions.NotFoundError, lambda es: es.search_template(body={"id": "t"})),
    "stats unknown metric": (es_exceptions.RequestError, lambda es: es.indices.stats(metric="nope")),
    "missing source": (es_exceptions.NotFoundError, lambda es: es.get_source(index="RIN_Tool_pr", doc_type="rin", id="nope")),
    "not json": (es_exceptions.TransportError, lambda es: es.transport.perform_request(
        "POST", "/RIN_Tool_pr/_search", body='{"query" {"match_all": {}}}')),
    "window": (es_exceptions.TransportError, lambda es: es.search(index="RIN_Tool_pr", body={"from": 10000, "size": 10})),
    "malformed scroll id": (es_exceptions.RequestError, lambda es: es.scroll(scroll_id="DXF1ZXJ5QW5kRmV0Y2gBAAAAAAAAAAEWbm9wZQ==", scroll="1m")),
    # Writes meet a read-only cluster.
    "index": (es_exceptions.AuthorizationException, lambda es: es.index(index="tools-v1", doc_type="rin", id="x", body={"a": 1})),
    "index auto id": (es_exceptions.AuthorizationException, lambda es: es.index(index="tools-v1", doc_type="rin", body={"a": 1})),
    "create": (es_exceptions.AuthorizationException, lambda es: es.create(index="tools-v1", doc_type="rin", id="x", body={"a": 1})),
    "update": (es_exceptions.AuthorizationException, lambda es: es.update(index="tools-v1", doc_type="rin", id="x", body={"doc": {"a": 1}})),
    "delete": (es_exceptions.AuthorizationException, lambda es: es.delete(index="tools-v1", doc_type="rin", id="rrid:scr_000001")),
    "bulk": (es_exceptions.AuthorizationException, lambda es: es.bulk(body=[{"index": {"_index": "tools-v1", "_type": "rin"}}, {"a": 1}])),
    "delete_by_query": (es_exceptions.AuthorizationException, lambda es: es.delete_by_query(index="tools-v1", body={"query": {"match_all": {}}})),
    "indices.create": (es_exceptions.AuthorizationException, lambda es: es.indices.create(index="new-v1")),
    "indices.delete": (es_exceptions.AuthorizationException, lambda es: es.indices.delete(index="tools-v1")),
    "put_alias": (es_exceptions.AuthorizationException, lambda es: es.indices.put_alias(index="tools-v1", name="x")),
    "update_aliases": (es_exceptions.AuthorizationException, lambda es: es.indices.update_aliases(
        body={"actions": [{"add": {"index": "tools-v1", "alias": "x"}}]})),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_raise_as_over_http(pair, name):
    cls, call = ERRORS[name]
    (_, http_err), (_, local_err) = both(pair, call)
    assert type(http_err) is cls, http_err
    assert type(local_err) is cls, local_err
    assert (local_err.status_code, local_err.error, local_err.info) == (http_err.status_code, http_err.error, http_err.info)
    assert str(local_err) == str(http_err)


def test_writes_are_refused_as_a_read_only_cluster(pair):
    _, es = pair
    with pytest.raises(es_exceptions.AuthorizationException) as e:
        es.index(index="tools-v1", doc_type="rin", id="x", body={"a": 1})
    assert e.value.status_code == 403
    assert e.value.error == "cluster_block_exception"
    assert e.value.info["error"]["reason"] == "blocked by: [FORBIDDEN/6/cluster read-only (api)];"


def test_exceptions_are_elasticsearch_pys(pair):
    assert metagate.NotFoundError is es_exceptions.NotFoundError
    assert metagate.TransportError is es_exceptions.TransportError
    assert metagate.AuthorizationException is es_exceptions.AuthorizationException
    # The Engine API raises them too.
    with pytest.raises(es_exceptions.NotFoundError):
        pair[1].engine.search(index="Nope_pr")


METHODS = ["termvectors", "mtermvectors", "search_template", "msearch_template", "render_search_template", "search_shards", "search", "count", "msearch", "get", "mget", "get_source", "exists", "exists_source", "scroll",
           "clear_scroll", "field_caps", "info", "ping", "index", "create", "update", "delete", "bulk",
           "delete_by_query", "update_by_query", "explain"]
INDICES_METHODS = ["validate_query", "stats", "get_mapping", "get_alias", "exists_alias", "exists", "get", "analyze", "create", "delete",
                   "put_mapping", "put_alias", "delete_alias", "update_aliases"]


def shape(fn):
    """A function's parameters: names, kinds and defaults."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("name", METHODS)
def test_signatures_are_elasticsearch_pys(pair, name):
    http, local = pair
    assert shape(getattr(local, name)) == shape(getattr(http, name))


@pytest.mark.parametrize("name", INDICES_METHODS)
def test_indices_signatures_are_elasticsearch_pys(pair, name):
    http, local = pair
    assert shape(getattr(local.indices, name)) == shape(getattr(http.indices, name))


def test_unknown_keyword_arguments_are_type_errors(pair):
    for client in pair:
        with pytest.raises(TypeError):
            client.search(index="RIN_Tool_pr", sise=3)


def test_helpers_scan(pair):
    results = []
    for client in pair:
        hits = list(helpers.scan(client, index="RIN_Tool_pr", query={"query": {"match": {"item.description": "tool"}}},
                                 size=250, scroll="1m"))
        results.append(sorted(h["_id"] for h in hits))
    assert results[0] == results[1]
    assert len(results[1]) == N
    # preserve_order keeps the query's sort; request_timeout and scroll_kwargs pass through.
    ordered = [h["_id"] for h in helpers.scan(pair[1], index="RIN_Tool_pr", preserve_order=True, size=500,
                                               query={"sort": [{"item.name.aggregate": "desc"}]}, request_timeout=30,
                                               scroll_kwargs={"rest_total_hits_as_int": True})]
    assert ordered == ["rrid:scr_%06d" % i for i in sorted(range(N), key=lambda i: "tool %d" % i, reverse=True)]


def test_scroll_by_hand(pair):
    for es in pair:
        page = es.search(index="RIN_Tool_pr", scroll="1m", size=500, body={"sort": ["_doc"]})
        sid = page["_scroll_id"]
        second = es.scroll(scroll_id=sid, scroll="1m")
        third = es.scroll(body={"scroll_id": second["_scroll_id"], "scroll": "1m"})
        assert [len(p["hits"]["hits"]) for p in (page, second, third)] == [500, 500, N - 1000]
        assert es.clear_scroll(scroll_id=third["_scroll_id"]) == {"succeeded": True, "num_freed": 1}
        with pytest.raises(es_exceptions.NotFoundError):
            es.scroll(scroll_id=third["_scroll_id"], scroll="1m")
        # As helpers.scan clears: a body, 404 ignored.
        gone = es.clear_scroll(body={"scroll_id": [third["_scroll_id"]]}, ignore=(404,),
                               params={"__elastic_client_meta": (("h", "s"),)})
        assert gone == {"succeeded": True, "num_freed": 0}


def test_elasticsearch_dsl(pair):
    from elasticsearch_dsl import Search

    answers = []
    for es in pair:
        s = (Search(using=es, index="RIN_Tool_pr")
             .query("match", **{"item.description": "tool"})
             .filter("term", **{"item.types.name.aggregate": "software"}))
        s.aggs.bucket("kinds", "terms", field="item.description.aggregate", size=10)
        res = s.execute()
        assert res.hits.total == N // 2
        answers.append((without_took(res.to_dict()), s.count(), sorted(h.meta.id for h in s.scan())))
    assert answers[0] == answers[1]
    assert answers[1][1] == N // 2


@pytest.mark.parametrize("namespace,name", [("cluster", "health"), ("cat", "health"), ("cat", "shards"),
                                            ("cat", "aliases"), ("cat", "count"), ("cat", "indices")])
def test_namespace_signatures_are_elasticsearch_pys(pair, namespace, name):
    http, local = pair
    assert shape(getattr(getattr(local, namespace), name)) == shape(getattr(getattr(http, namespace), name))
