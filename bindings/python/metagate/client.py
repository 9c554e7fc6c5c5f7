"""An Elasticsearch client without a server: ``metagate.Elasticsearch("file.redb")``.

It has elasticsearch-py 6.8's signatures for the calls that read (and the common writes),
sends each as the request elasticsearch-py would send (method, path, parameters, body),
and answers it through the engine's in-process gateway: the same routes, checks, bodies
and errors as ``metagate serve``, without sockets or an API key. Return values and
exceptions follow elasticsearch-py's transport: JSON answers parsed, ``HEAD`` calls as
booleans, error statuses as ``TransportError`` subclasses (elasticsearch-py's own classes
when it is installed, see :mod:`metagate.exceptions`), ``ignore=`` statuses returned.

So code written for elasticsearch-py 6.8 runs against a file unchanged, including
``elasticsearch.helpers.scan`` and elasticsearch-dsl's ``Search(using=client)``. Writes
are sent too and refused as the server refuses them (403 ``cluster_block_exception``).
"""
import json
import os
import uuid
from datetime import date, datetime
from decimal import Decimal
from functools import wraps
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, Union
from urllib.parse import quote, urlencode

from ._engine import Engine
from .exceptions import SerializationError, TransportError, error_from_raw

#: The API base of the gateway's routes.
_BASE = "/elastic/v1"
#: Path parts left out of a URL (elasticsearch-py's ``SKIP_IN_PATH``).
SKIP_IN_PATH = (None, "", b"", [], ())
#: Parameters every call accepts.
GLOBAL_PARAMS = ("pretty", "human", "error_trace", "format", "filter_path")


def _escape(value: Any) -> Union[str, bytes]:
    """A path part or parameter value as elasticsearch-py writes it: sequences joined by
    commas, dates in ISO form, booleans as ``true``/``false``."""
    if isinstance(value, (list, tuple)):
        value = ",".join(value)
    elif isinstance(value, (date, datetime)):
        value = value.isoformat()
    elif isinstance(value, bool):
        value = str(value).lower()
    elif isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    return str(value)


def _make_path(*parts: Any) -> str:
    """A URL path from its parts, empty ones left out; ``,`` and ``*`` kept readable."""
    return "/" + "/".join(quote(_escape(p), b",*") for p in parts if p not in SKIP_IN_PATH)


def query_params(*accepted: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Moves the accepted keyword arguments (and ``params=``, ``ignore=``,
    ``request_timeout=``) into the ``params`` dict, as elasticsearch-py's decorator does;
    any other keyword argument is a ``TypeError``."""

    def wrapper(func: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(func)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            params: Dict[str, Any] = {}
            if "params" in kwargs:
                params = kwargs.pop("params").copy()
            for p in accepted + GLOBAL_PARAMS:
                if p in kwargs:
                    v = kwargs.pop(p)
                    if v is not None:
                        params[p] = _escape(v)
            # Transport options, not URL parameters: left unescaped.
            for p in ("ignore", "request_timeout"):
                if p in kwargs:
                    params[p] = kwargs.pop(p)
            return func(*args, params=params, **kwargs)

        return wrapped

    return wrapper


def _json_default(data: Any) -> Any:
    """What JSON cannot write itself, as elasticsearch-py's serializer writes it."""
    if isinstance(data, (date, datetime)):
        return data.isoformat()
    if isinstance(data, uuid.UUID):
        return str(data)
    if isinstance(data, Decimal):
        return float(data)
    # NumPy arrays and scalars (without importing NumPy).
    if hasattr(data, "tolist"):
        return data.tolist()
    if hasattr(data, "item"):
        return data.item()
    raise TypeError("Unable to serialize %r (type: %s)" % (data, type(data)))


def _dumps(data: Any) -> str:
    """A body as JSON text; strings are sent as they are."""
    if isinstance(data, str):
        return data
    try:
        return json.dumps(data, default=_json_default, ensure_ascii=False, separators=(",", ":"))
    except (ValueError, TypeError) as e:
        raise SerializationError(data, e)


def _loads(text: str, content_type: Optional[str]) -> Any:
    """An answer parsed by its content type: JSON, or plain text as a string."""
    mimetype = (content_type or "application/json").split(";")[0].strip()
    if mimetype == "text/plain":
        return text
    if mimetype != "application/json":
        raise SerializationError("Unknown mimetype, unable to deserialize: %s" % mimetype)
    try:
        return json.loads(text)
    except (ValueError, TypeError) as e:
        raise SerializationError(text, e)


def _bulk_body(body: Any) -> Union[str, bytes]:
    """NDJSON text from a list of dicts or text, ending with a newline."""
    if not isinstance(body, (str, bytes)):
        body = "\n".join(map(_dumps, body))
    if isinstance(body, bytes):
        return body if body.endswith(b"\n") else body + b"\n"
    return body if body.endswith("\n") else body + "\n"


class Transport:
    """elasticsearch-py's ``Transport.perform_request`` over the engine's in-process
    gateway instead of a connection pool."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def perform_request(self, method: str, url: str, headers: Optional[Mapping[str, str]] = None, params: Optional[Dict[str, Any]] = None, body: Any = None) -> Any:
        """Answers one request: the parsed JSON body, the text of a text answer, a boolean
        for ``HEAD``; an error status raises its ``TransportError`` unless ``params``'
        ``ignore`` lists it."""
        raw: Optional[bytes] = None
        if isinstance(body, bytes):
            raw = body
        elif body is not None:
            raw = _dumps(body).encode("utf-8", "surrogatepass")
        ignore: Tuple[int, ...] = ()
        if params:
            # `request_timeout` has no meaning in process; helpers pass client metadata.
            params.pop("request_timeout", None)
            ignore = params.pop("ignore", ())
            if isinstance(ignore, int):
                ignore = (ignore,)
            params.pop("__elastic_client_meta", None)
        path = _BASE + url
        if params:
            path = "%s?%s" % (path, urlencode(params))
        resp = self.engine.request(method, path, raw, headers)
        data = resp.body.decode("utf-8", "surrogatepass")
        if not (200 <= resp.status < 300) and resp.status not in ignore:
            if method == "HEAD" and resp.status == 404:
                return False
            raise error_from_raw(resp.status, data)
        if method == "HEAD":
            return 200 <= resp.status < 300
        if data:
            content_type = next((v for k, v in resp.headers.items() if k.lower() == "content-type"), None)
            return _loads(data, content_type)
        return data


class Elasticsearch:
    """An elasticsearch-py 6.8 client on a metagate file, in this process.

    ``path`` is the file (or an open :class:`Engine`, which the client then leaves open on
    :meth:`close`). ``indices`` has the index-level calls.
    """

    def __init__(self, path: Union[str, "os.PathLike[str]", Engine], script_regex: bool = False) -> None:
        """Opens the file at ``path`` (or uses an open :class:`Engine`); ``script_regex``,
        for a file it opens, lets scripts use regexes (see :class:`Engine`)."""
        self._owns_engine = not isinstance(path, Engine)
        self.engine = Engine(path, script_regex=script_regex) if self._owns_engine else path  # type: ignore[arg-type]
        self.transport = Transport(self.engine)
        self.indices = IndicesClient(self)
        self.cluster = ClusterClient(self)
        self.cat = CatClient(self)

    def close(self) -> None:
        """Closes the file (unless it was given open)."""
        if self._owns_engine:
            self.engine.close()

    def __enter__(self) -> "Elasticsearch":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return "<Elasticsearch(%r)>" % (self.engine._path,)

    # -- cluster -----------------------------------------------------------------------
    @query_params()
    def ping(self, params: Any = None) -> bool:
        """True when the cluster answers (``HEAD /``)."""
        try:
            return self.transport.perform_request("HEAD", "/", params=params)
        except TransportError:
            return False

    @query_params()
    def info(self, params: Any = None) -> Any:
        """Cluster name and version (``GET /``)."""
        return self.transport.perform_request("GET", "/", params=params)

    # -- search ------------------------------------------------------------------------
    @query_params(
        "_source", "_source_exclude", "_source_include", "_source_excludes", "_source_includes",
        "allow_no_indices", "allow_partial_search_results", "analyze_wildcard", "analyzer",
        "batched_reduce_size", "default_operator", "df", "docvalue_fields", "expand_wildcards",
        "explain", "from_", "ignore_throttled", "ignore_unavailable", "lenient",
        "max_concurrent_shard_requests", "pre_filter_shard_size", "preference", "q",
        "request_cache", "rest_total_hits_as_int", "routing", "scroll", "search_type",
        "seq_no_primary_term", "size", "sort", "stats", "stored_fields", "suggest_field",
        "suggest_mode", "suggest_size", "suggest_text", "terminate_after", "timeout",
        "track_scores", "track_total_hits", "typed_keys", "version",
    )
    def search(self, index: Any = None, doc_type: Any = None, body: Any = None, params: Any = None) -> Any:
        """``_search`` on ``index`` (all indices when None)."""
        if "from_" in params:
            params["from"] = params.pop("from_")
        if doc_type and not index:
            index = "_all"
        return self.transport.perform_request("GET", _make_path(index, doc_type, "_search"), params=params, body=body)

    @query_params(
        "allow_no_indices", "analyze_wildcard", "analyzer", "default_operator", "df",
        "expand_wildcards", "ignore_unavailable", "lenient", "min_score", "preference", "q",
        "routing", "terminate_after",
    )
    def count(self, index: Any = None, doc_type: Any = None, body: Any = None, params: Any = None) -> Any:
        """``_count``: ``{"count": n, "_shards": ...}``."""
        if doc_type and not index:
            index = "_all"
        return self.transport.perform_request("GET", _make_path(index, doc_type, "_count"), params=params, body=body)

    @query_params(
        "max_concurrent_searches", "max_concurrent_shard_requests", "pre_filter_shard_size",
        "rest_total_hits_as_int", "search_type", "typed_keys",
    )
    def msearch(self, body: Any, index: Any = None, doc_type: Any = None, params: Any = None) -> Any:
        """``_msearch``: ``body`` alternates headers and searches (a list or NDJSON)."""
        if body in SKIP_IN_PATH:
            raise ValueError("Empty value passed for a required argument 'body'.")
        return self.transport.perform_request(
            "GET", _make_path(index, doc_type, "_msearch"), params=params, body=_bulk_body(body),
            headers={"content-type": "application/x-ndjson"},
        )

    @query_params("scroll", "rest_total_hits_as_int")
    def scroll(self, body: Any = None, scroll_id: Any = None, params: Any = None) -> Any:
        """The next page of a scroll (``scroll_id=``, or ``body={"scroll_id": ..}``)."""
        if scroll_id in SKIP_IN_PATH and body in SKIP_IN_PATH:
            raise ValueError("You need to supply scroll_id or body.")
        elif scroll_id and not body:
            body = {"scroll_id": scroll_id}
        elif scroll_id:
            params["scroll_id"] = scroll_id
        return self.transport.perform_request("GET", "/_search/scroll", params=params, body=body)

    @query_params()
    def clear_scroll(self, scroll_id: Any = None, body: Any = None, params: Any = None) -> Any:
        """Frees scroll contexts (``scroll_id=``, or ``body={"scroll_id": [..]}``)."""
        if scroll_id in SKIP_IN_PATH and body in SKIP_IN_PATH:
            raise ValueError("You need to supply scroll_id or body.")
        elif scroll_id and not body:
            body = {"scroll_id": [scroll_id]}
        elif scroll_id:
            params["scroll_id"] = scroll_id
        return self.transport.perform_request("DELETE", "/_search/scroll", params=params, body=body)

    @query_params("allow_no_indices", "expand_wildcards", "fields", "ignore_unavailable")
    def field_caps(self, index: Any = None, body: Any = None, params: Any = None) -> Any:
        """``_field_caps``: each field's type and whether it is searchable/aggregatable."""
        return self.transport.perform_request("GET", _make_path(index, "_field_caps"), params=params, body=body)

    @query_params(
        "_source", "_source_exclude", "_source_include", "_source_excludes", "_source_includes",
        "analyze_wildcard", "analyzer", "default_operator", "df", "lenient", "parent", "preference",
        "q", "routing", "stored_fields",
    )
    def explain(self, index: Any, doc_type: Any, id: Any, body: Any = None, params: Any = None) -> Any:
        """``_explain``: whether one document matches a query, and its score's explanation."""
        _require(index, doc_type, id)
        return self.transport.perform_request("GET", _make_path(index, doc_type, id, "_explain"), params=params, body=body)

    @query_params(
        "allow_no_indices", "expand_wildcards", "explain", "ignore_throttled", "ignore_unavailable", "preference",
        "profile", "rest_total_hits_as_int", "routing", "scroll", "search_type", "typed_keys",
    )
    def search_template(self, index: Any = None, doc_type: Any = None, body: Any = None, params: Any = None) -> Any:
        """``_search/template``: a search rendered from an inline Mustache template."""
        return self.transport.perform_request(
            "GET", _make_path(index, doc_type, "_search", "template"), params=params, body=body
        )

    @query_params("max_concurrent_searches", "rest_total_hits_as_int", "search_type", "typed_keys")
    def msearch_template(self, body: Any, index: Any = None, doc_type: Any = None, params: Any = None) -> Any:
        """``_msearch/template``: ``body`` alternates headers and template requests."""
        if body in SKIP_IN_PATH:
            raise ValueError("Empty value passed for a required argument 'body'.")
        return self.transport.perform_request(
            "GET", _make_path(index, doc_type, "_msearch", "template"), params=params, body=_bulk_body(body),
            headers={"content-type": "application/x-ndjson"},
        )

    @query_params()
    def render_search_template(self, id: Any = None, body: Any = None, params: Any = None) -> Any:
        """``_render/template``: the search an inline template renders to."""
        return self.transport.perform_request("GET", _make_path("_render", "template", id), params=params, body=body)

    @query_params("allow_no_indices", "expand_wildcards", "ignore_unavailable", "local", "preference", "routing")
    def search_shards(self, index: Any = None, doc_type: Any = None, params: Any = None) -> Any:
        """``_search_shards``: the node and the shard of each index a search would ask."""
        return self.transport.perform_request("GET", _make_path(index, doc_type, "_search_shards"), params=params)

    @query_params(
        "field_statistics", "fields", "offsets", "parent", "payloads", "positions", "preference", "realtime",
        "routing", "term_statistics", "version", "version_type",
    )
    def termvectors(self, index: Any, doc_type: Any, id: Any = None, body: Any = None, params: Any = None) -> Any:
        """``_termvectors`` of a stored document (``id``) or of ``body={"doc": ...}``."""
        _require(index, doc_type)
        return self.transport.perform_request(
            "GET", _make_path(index, doc_type, id, "_termvectors"), params=params, body=body
        )

    @query_params(
        "field_statistics", "fields", "ids", "offsets", "parent", "payloads", "positions", "preference",
        "realtime", "routing", "term_statistics", "version", "version_type",
    )
    def mtermvectors(self, index: Any = None, doc_type: Any = None, body: Any = None, params: Any = None) -> Any:
        """``_mtermvectors``: term vectors of several documents."""
        return self.transport.perform_request(
            "GET", _make_path(index, doc_type, "_mtermvectors"), params=params, body=body
        )

    # -- documents ---------------------------------------------------------------------
    @query_params(
        "_source", "_source_exclude", "_source_include", "_source_excludes", "_source_includes",
        "parent", "preference", "realtime", "refresh", "routing", "stored_fields", "version",
        "version_type",
    )
    def get(self, index: Any, doc_type: Any, id: Any, params: Any = None) -> Any:
        """A document by id; ``NotFoundError`` when there is none."""
        _require(index, doc_type, id)
        return self.transport.perform_request("GET", _make_path(index, doc_type, id), params=params)

    @query_params(
        "_source", "_source_exclude", "_source_include", "_source_excludes", "_source_includes",
        "parent", "preference", "realtime", "refresh", "routing", "version", "version_type",
    )
    def get_source(self, index: Any, doc_type: Any, id: Any, params: Any = None) -> Any:
        """A document's ``_source`` alone."""
        _require(index, doc_type, id)
        return self.transport.perform_request("GET", _make_path(index, doc_type, id, "_source"), params=params)

    @query_params(
        "_source", "_source_exclude", "_source_include", "_source_excludes", "_source_includes",
        "parent", "preference", "realtime", "refresh", "routing", "stored_fields", "version",
        "version_type",
    )
    def exists(self, index: Any, doc_type: Any, id: Any, params: Any = None) -> bool:
        """Whether a document exists (``HEAD``)."""
        _require(index, doc_type, id)
        return self.transport.perform_request("HEAD", _make_path(index, doc_type, id), params=params)

    @query_params(
        "_source", "_source_exclude", "_source_include", "_source_excludes", "_source_includes",
        "parent", "preference", "realtime", "refresh", "routing", "version", "version_type",
    )
    def exists_source(self, index: Any, doc_type: Any, id: Any, params: Any = None) -> bool:
        """Whether a document's source exists (``HEAD .../_source``)."""
        _require(index, doc_type, id)
        return self.transport.perform_request("HEAD", _make_path(index, doc_type, id, "_source"), params=params)

    @query_params(
        "_source", "_source_exclude", "_source_include", "_source_excludes", "_source_includes",
        "preference", "realtime", "refresh", "routing", "stored_fields",
    )
    def mget(self, body: Any, index: Any = None, doc_type: Any = None, params: Any = None) -> Any:
        """Documents by id (``{"docs": [..]}`` or ``{"ids": [..]}``)."""
        if body in SKIP_IN_PATH:
            raise ValueError("Empty value passed for a required argument 'body'.")
        return self.transport.perform_request("GET", _make_path(index, doc_type, "_mget"), params=params, body=body)

    # -- writes: sent as elasticsearch-py sends them; the gateway refuses them (403) ---
    @query_params(
        "op_type", "parent", "pipeline", "refresh", "routing", "timeout", "timestamp", "ttl",
        "version", "version_type", "wait_for_active_shards", "if_primary_term", "if_seq_no",
    )
    def index(self, index: Any, doc_type: Any, body: Any, id: Any = None, params: Any = None) -> Any:
        """Indexes a document: refused, the file is read-only here."""
        _require(index, doc_type, body)
        method = "POST" if id in SKIP_IN_PATH else "PUT"
        return self.transport.perform_request(method, _make_path(index, doc_type, id), params=params, body=body)

    @query_params(
        "parent", "pipeline", "refresh", "routing", "timeout", "timestamp", "ttl", "version",
        "version_type", "wait_for_active_shards",
    )
    def create(self, index: Any, doc_type: Any, id: Any, body: Any, params: Any = None) -> Any:
        """Creates a document: refused, the file is read-only here."""
        _require(index, doc_type, id, body)
        return self.transport.perform_request("PUT", _make_path(index, doc_type, id, "_create"), params=params, body=body)

    @query_params(
        "_source", "_source_exclude", "_source_include", "_source_excludes", "_source_includes",
        "fields", "if_primary_term", "if_seq_no", "lang", "parent", "refresh",
        "retry_on_conflict", "routing", "timeout", "timestamp", "ttl", "version",
        "version_type", "wait_for_active_shards",
    )
    def update(self, index: Any, doc_type: Any, id: Any, body: Any = None, params: Any = None) -> Any:
        """Updates a document: refused, the file is read-only here."""
        _require(index, doc_type, id)
        return self.transport.perform_request("POST", _make_path(index, doc_type, id, "_update"), params=params, body=body)

    @query_params(
        "parent", "refresh", "routing", "timeout", "version", "version_type",
        "wait_for_active_shards", "if_primary_term", "if_seq_no",
    )
    def delete(self, index: Any, doc_type: Any, id: Any, params: Any = None) -> Any:
        """Deletes a document: refused, the file is read-only here."""
        _require(index, doc_type, id)
        return self.transport.perform_request("DELETE", _make_path(index, doc_type, id), params=params)

    @query_params(
        "_source", "_source_exclude", "_source_excludes", "_source_include", "_source_includes",
        "fields", "pipeline", "refresh", "routing", "timeout", "wait_for_active_shards",
    )
    def bulk(self, body: Any, index: Any = None, doc_type: Any = None, params: Any = None) -> Any:
        """``_bulk``: refused, the file is read-only here."""
        if body in SKIP_IN_PATH:
            raise ValueError("Empty value passed for a required argument 'body'.")
        return self.transport.perform_request(
            "POST", _make_path(index, doc_type, "_bulk"), params=params, body=_bulk_body(body),
            headers={"content-type": "application/x-ndjson"},
        )

    @query_params(
        "_source", "_source_exclude", "_source_include", "_source_excludes", "_source_includes",
        "allow_no_indices", "analyze_wildcard", "analyzer", "conflicts", "default_operator",
        "df", "expand_wildcards", "from_", "ignore_unavailable", "lenient", "preference", "q",
        "refresh", "request_cache", "requests_per_second", "routing", "scroll", "scroll_size",
        "search_timeout", "search_type", "size", "slices", "sort", "stats", "terminate_after",
        "timeout", "version", "wait_for_active_shards", "wait_for_completion",
    )
    def delete_by_query(self, index: Any, body: Any, doc_type: Any = None, params: Any = None) -> Any:
        """``_delete_by_query``: refused, the file is read-only here."""
        _require(index, body)
        return self.transport.perform_request("POST", _make_path(index, doc_type, "_delete_by_query"), params=params, body=body)

    @query_params(
        "_source", "_source_exclude", "_source_include", "_source_excludes", "_source_includes",
        "allow_no_indices", "analyze_wildcard", "analyzer", "conflicts", "default_operator",
        "df", "expand_wildcards", "from_", "ignore_unavailable", "lenient", "pipeline",
        "preference", "q", "refresh", "request_cache", "requests_per_second", "routing",
        "scroll", "scroll_size", "search_timeout", "search_type", "size", "slices", "sort",
        "stats", "terminate_after", "timeout", "version", "version_type",
        "wait_for_active_shards", "wait_for_completion",
    )
    def update_by_query(self, index: Any, doc_type: Any = None, body: Any = None, params: Any = None) -> Any:
        """``_update_by_query``: refused, the file is read-only here."""
        if index in SKIP_IN_PATH:
            raise ValueError("Empty value passed for a required argument 'index'.")
        return self.transport.perform_request("POST", _make_path(index, doc_type, "_update_by_query"), params=params, body=body)


def _require(*parts: Any) -> None:
    """elasticsearch-py's check of required path parts."""
    for part in parts:
        if part in SKIP_IN_PATH:
            raise ValueError("Empty value passed for a required argument.")


class IndicesClient:
    """``client.indices``: the index-level calls of elasticsearch-py 6.8."""

    def __init__(self, client: Elasticsearch) -> None:
        self.client = client

    @property
    def transport(self) -> Transport:
        """The client's transport."""
        return self.client.transport

    @query_params("allow_no_indices", "expand_wildcards", "ignore_unavailable", "local", "include_type_name")
    def get_mapping(self, index: Any = None, doc_type: Any = None, params: Any = None) -> Any:
        """Mappings by index (``GET [/{index}]/_mapping[/{type}]``)."""
        return self.transport.perform_request("GET", _make_path(index, "_mapping", doc_type), params=params)

    @query_params("allow_no_indices", "expand_wildcards", "ignore_unavailable", "local")
    def get_alias(self, index: Any = None, name: Any = None, params: Any = None) -> Any:
        """Aliases by index (``GET [/{index}]/_alias[/{name}]``)."""
        return self.transport.perform_request("GET", _make_path(index, "_alias", name), params=params)

    @query_params("allow_no_indices", "expand_wildcards", "ignore_unavailable", "local")
    def exists_alias(self, index: Any = None, name: Any = None, params: Any = None) -> bool:
        """Whether an alias exists (``HEAD``)."""
        return self.transport.perform_request("HEAD", _make_path(index, "_alias", name), params=params)

    @query_params("allow_no_indices", "expand_wildcards", "flat_settings", "ignore_unavailable", "include_defaults", "local")
    def exists(self, index: Any, params: Any = None) -> bool:
        """Whether an index (or alias) exists (``HEAD /{index}``)."""
        if index in SKIP_IN_PATH:
            raise ValueError("Empty value passed for a required argument 'index'.")
        return self.transport.perform_request("HEAD", _make_path(index), params=params)

    @query_params(
        "allow_no_indices", "expand_wildcards", "flat_settings", "ignore_unavailable",
        "include_defaults", "local", "include_type_name", "master_timeout",
    )
    def get(self, index: Any, feature: Any = None, params: Any = None) -> Any:
        """An index's aliases, mappings and settings (``GET /{index}``)."""
        if index in SKIP_IN_PATH:
            raise ValueError("Empty value passed for a required argument 'index'.")
        return self.transport.perform_request("GET", _make_path(index, feature), params=params)

    @query_params("format", "prefer_local")
    def analyze(self, index: Any = None, body: Any = None, params: Any = None) -> Any:
        """``_analyze``, sent as elasticsearch-py sends it; answered as the server answers
        it."""
        return self.transport.perform_request("GET", _make_path(index, "_analyze"), params=params, body=body)

    @query_params(
        "all_shards", "allow_no_indices", "analyze_wildcard", "analyzer", "default_operator", "df",
        "expand_wildcards", "explain", "ignore_unavailable", "lenient", "q", "rewrite",
    )
    def validate_query(self, index: Any = None, doc_type: Any = None, body: Any = None, params: Any = None) -> Any:
        """``_validate/query``: whether a query is valid, with each index's Lucene query when
        ``explain`` is asked."""
        return self.transport.perform_request(
            "GET", _make_path(index, doc_type, "_validate", "query"), params=params, body=body
        )

    @query_params(
        "completion_fields", "fielddata_fields", "fields", "groups", "include_segment_file_sizes", "level", "types",
    )
    def stats(self, index: Any = None, metric: Any = None, params: Any = None) -> Any:
        """``_stats``: documents and store size by index."""
        return self.transport.perform_request("GET", _make_path(index, "_stats", metric), params=params)

    # -- writes: refused as the server refuses them --------------------------------------
    @query_params("master_timeout", "timeout", "wait_for_active_shards", "include_type_name", "update_all_types")
    def create(self, index: Any, body: Any = None, params: Any = None) -> Any:
        """Creates an index: refused, the file is read-only here."""
        if index in SKIP_IN_PATH:
            raise ValueError("Empty value passed for a required argument 'index'.")
        return self.transport.perform_request("PUT", _make_path(index), params=params, body=body)

    @query_params("allow_no_indices", "expand_wildcards", "ignore_unavailable", "master_timeout", "timeout")
    def delete(self, index: Any, params: Any = None) -> Any:
        """Deletes an index: refused, the file is read-only here."""
        if index in SKIP_IN_PATH:
            raise ValueError("Empty value passed for a required argument 'index'.")
        return self.transport.perform_request("DELETE", _make_path(index), params=params)

    @query_params(
        "allow_no_indices", "expand_wildcards", "ignore_unavailable", "master_timeout",
        "timeout", "include_type_name", "update_all_types",
    )
    def put_mapping(self, body: Any, doc_type: Any = None, index: Any = None, params: Any = None) -> Any:
        """Changes a mapping: refused, the file is read-only here."""
        _require(body)
        return self.transport.perform_request("PUT", _make_path(index, "_mapping", doc_type), params=params, body=body)

    @query_params("master_timeout", "timeout")
    def put_alias(self, index: Any, name: Any, body: Any = None, params: Any = None) -> Any:
        """Adds an alias: refused, the file is read-only here."""
        _require(index, name)
        return self.transport.perform_request("PUT", _make_path(index, "_alias", name), params=params, body=body)

    @query_params("master_timeout", "timeout")
    def delete_alias(self, index: Any, name: Any, params: Any = None) -> Any:
        """Removes an alias: refused, the file is read-only here."""
        _require(index, name)
        return self.transport.perform_request("DELETE", _make_path(index, "_alias", name), params=params)

    @query_params("master_timeout", "timeout")
    def update_aliases(self, body: Any, params: Any = None) -> Any:
        """Moves aliases: refused, the file is read-only here."""
        if body in SKIP_IN_PATH:
            raise ValueError("Empty value passed for a required argument 'body'.")
        return self.transport.perform_request("POST", "/_aliases", params=params, body=body)


class _Namespace:
    """A group of calls on the client's transport (``client.cluster``, ``client.cat``)."""

    def __init__(self, client: Elasticsearch) -> None:
        self.client = client

    @property
    def transport(self) -> Transport:
        """The client's transport."""
        return self.client.transport


class ClusterClient(_Namespace):
    """``client.cluster``: the cluster calls of elasticsearch-py 6.8 one node answers."""

    @query_params(
        "level", "local", "master_timeout", "timeout", "wait_for_active_shards", "wait_for_events",
        "wait_for_no_relocating_shards", "wait_for_nodes", "wait_for_status", "wait_for_no_initializing_shards",
    )
    def health(self, index: Any = None, params: Any = None) -> Any:
        """``_cluster/health``: green, one started primary shard per index."""
        return self.transport.perform_request("GET", _make_path("_cluster", "health", index), params=params)


class CatClient(_Namespace):
    """``client.cat``: the ``_cat`` tables of elasticsearch-py 6.8 the server answers."""

    @query_params("format", "h", "help", "local", "master_timeout", "s", "v")
    def aliases(self, name: Any = None, params: Any = None) -> Any:
        """``_cat/aliases``."""
        return self.transport.perform_request("GET", _make_path("_cat", "aliases", name), params=params)

    @query_params("format", "h", "help", "local", "master_timeout", "s", "v")
    def count(self, index: Any = None, params: Any = None) -> Any:
        """``_cat/count``."""
        return self.transport.perform_request("GET", _make_path("_cat", "count", index), params=params)

    @query_params("bytes", "format", "h", "health", "help", "local", "master_timeout", "pri", "s", "v")
    def indices(self, index: Any = None, params: Any = None) -> Any:
        """``_cat/indices``."""
        return self.transport.perform_request("GET", _make_path("_cat", "indices", index), params=params)

    @query_params("format", "h", "help", "local", "master_timeout", "s", "ts", "v")
    def health(self, params: Any = None) -> Any:
        """``_cat/health``."""
        return self.transport.perform_request("GET", "/_cat/health", params=params)

    @query_params("bytes", "format", "h", "help", "local", "master_timeout", "s", "v")
    def shards(self, index: Any = None, params: Any = None) -> Any:
        """``_cat/shards``."""
        return self.transport.perform_request("GET", _make_path("_cat", "shards", index), params=params)
