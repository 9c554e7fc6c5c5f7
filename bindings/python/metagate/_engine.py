"""The Engine: an open metagate file with an elasticsearch-py shaped API."""
import ctypes
import json
import os
import threading
from typing import Any, Dict, Iterable, Iterator, List, Mapping, NamedTuple, Optional, Tuple, Union
from urllib.parse import urlencode

from . import _lib
from .exceptions import TransportError, error_for

PathLike = Union[str, "os.PathLike[str]"]

_OPEN_EXISTING = 0
_OPEN_CREATE = 1


class Response(NamedTuple):
    """A raw gateway answer: status, headers and body bytes."""

    status: int
    headers: Dict[str, str]
    body: bytes

    def json(self) -> Any:
        """The body parsed as JSON."""
        return json.loads(self.body.decode("utf-8")) if self.body else None


def _param_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(_param_value(x) for x in v)
    return str(v)


def _query(params: Mapping[str, Any]) -> bytes:
    """Keyword arguments as a URL query string (``None`` values left out)."""
    return urlencode({k: _param_value(v) for k, v in params.items() if v is not None}).encode("utf-8")


def _encode(s: Optional[str]) -> Optional[bytes]:
    return None if s is None else s.encode("utf-8")


class Engine:
    """An open metagate file. Use as a context manager or call :meth:`close`.

    Searches may run from many threads at once; :meth:`close` must come last.
    """

    def __init__(self, path: PathLike, create: bool = False, script_regex: bool = False) -> None:
        """Opens ``path`` (``create``: make an empty file when missing). ``script_regex``
        lets scripts use regexes (``/.../``, ``=~``, ``==~``), as ``metagate serve
        --script-regex`` and ES's ``script.painless.regex.enabled`` do; off, as in ES 6.8."""
        self._path = os.fspath(path)
        handle = ctypes.c_void_p()
        err = ctypes.c_void_p()
        status = _lib.LIB.mg_open(
            self._path.encode("utf-8"), _OPEN_CREATE if create else _OPEN_EXISTING, ctypes.byref(handle), ctypes.byref(err)
        )
        if status != 0:
            raise self._error(status, _lib.take_string(err))
        self._handle: Optional[int] = handle.value
        self._lock = threading.Lock()
        if script_regex:
            status = _lib.LIB.mg_set_script_regex(self._handle, 1)
            if status != 0:  # pragma: no cover - only a NULL handle is refused
                raise self._error(status, "")

    # -- lifecycle -------------------------------------------------------------------
    def close(self) -> None:
        """Closes the file. Further calls raise ``ValueError``."""
        with self._lock:
            if self._handle is not None:
                _lib.LIB.mg_close(self._handle)
                self._handle = None

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:  # pragma: no cover - best effort
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        return "Engine({!r})".format(self._path)

    # -- plumbing --------------------------------------------------------------------
    def _h(self) -> int:
        if self._handle is None:
            raise ValueError("the engine is closed")
        return self._handle

    @staticmethod
    def _error(status: int, text: str) -> TransportError:
        try:
            body = json.loads(text)
        except ValueError:
            body = {"error": text, "status": status}
        return error_for(status, body)

    def _call(self, fn: Any, *args: Any) -> Any:
        out = ctypes.c_void_p()
        status = fn(self._h(), *args, ctypes.byref(out))
        text = _lib.take_string(out)
        if status >= 300:
            raise self._error(status, text)
        return json.loads(text) if text else None

    # -- search ----------------------------------------------------------------------
    def search(self, index: Optional[str] = None, body: Optional[Mapping[str, Any]] = None, q: Optional[str] = None, **params: Any) -> Dict[str, Any]:
        """Searches ``index`` (alias, name, list or wildcard; all indices when None).

        ``body`` is the JSON request; ``q`` and other keyword arguments are URI parameters
        (``size``, ``from_``, ``sort``, ``_source``, ``default_operator``, ...), as in
        elasticsearch-py.
        """
        if q is not None:
            params["q"] = q
        if "from_" in params:
            params["from"] = params.pop("from_")
        qs = urlencode({k: _param_value(v) for k, v in params.items() if v is not None})
        raw_body = None if body is None else json.dumps(body)
        return self._call(_lib.LIB.mg_search_uri, (index or "_all").encode("utf-8"), _encode(raw_body), qs.encode("utf-8"))

    def count(self, index: Optional[str] = None, body: Optional[Mapping[str, Any]] = None, q: Optional[str] = None, **params: Any) -> int:
        """The exact number of documents matching ``body``'s query (``{"query": ..}``, as
        ``_count`` takes it) or ``q``."""
        if q is not None:
            params["q"] = q
        raw_body = None if body is None else json.dumps(body)
        res = self._call(_lib.LIB.mg_count, (index or "_all").encode("utf-8"), _encode(raw_body), _query(params))
        return int(res["count"])

    def msearch(self, body: Union[str, Iterable[Mapping[str, Any]]], index: Optional[str] = None, **params: Any) -> Dict[str, Any]:
        """Several searches at once, as ``_msearch``: ``body`` alternates headers
        (``{"index": ...}``) and search bodies, as a list or as NDJSON text; ``index``
        applies where a header names none. Each search answers in ``responses``, a
        failure as that item's ``error`` and ``status``."""
        if isinstance(body, str):
            text = body if body.endswith("\n") else body + "\n"
        else:
            text = "".join(json.dumps(line) + "\n" for line in body)
        return self._call(_lib.LIB.mg_msearch, _encode(index), text.encode("utf-8"), _query(params))

    def get(self, index: str, id: str, doc_type: str = "_doc", **params: Any) -> Dict[str, Any]:
        """The document ``id`` (``_source_includes``, ``_source_excludes``, ``_source`` and
        ``stored_fields`` as keyword arguments); NotFoundError when there is none."""
        return self._call(_lib.LIB.mg_get, index.encode("utf-8"), doc_type.encode("utf-8"), id.encode("utf-8"), _query(params))

    def mget(self, body: Mapping[str, Any], index: Optional[str] = None, **params: Any) -> Dict[str, Any]:
        """Documents by id: ``{"docs": [{"_index": .., "_id": ..}]}``, or ``{"ids": [..]}``
        with ``index``; a missing one is ``found: false``."""
        return self._call(_lib.LIB.mg_mget, _encode(index), json.dumps(body).encode("utf-8"), _query(params))

    def get_mapping(self, index: Optional[str] = None, **params: Any) -> Dict[str, Any]:
        """Mappings by index and type, as ``_mapping`` answers (``include_type_name=False``
        drops the type level)."""
        return self._call(_lib.LIB.mg_get_mapping, _encode(index), _query(params))

    def scan(self, index: str, query: Optional[Mapping[str, Any]] = None, size: int = 1000, scroll: str = "1m", clear_scroll: bool = True, **kwargs: Any) -> Iterator[Dict[str, Any]]:
        """Yields every hit of ``query`` through a scroll, like ``elasticsearch.helpers.scan``."""
        body = dict(query or {})
        body.setdefault("size", size)
        body.setdefault("sort", ["_doc"])
        page = self._call(
            _lib.LIB.mg_scroll_start, index.encode("utf-8"), json.dumps(body).encode("utf-8"), scroll.encode("utf-8")
        )
        scroll_id = page.get("_scroll_id")
        try:
            while page["hits"]["hits"]:
                for hit in page["hits"]["hits"]:
                    yield hit
                page = self._call(_lib.LIB.mg_scroll_next, scroll_id.encode("utf-8"), scroll.encode("utf-8"))
                scroll_id = page.get("_scroll_id", scroll_id)
        finally:
            if clear_scroll and scroll_id and self._handle is not None:
                try:
                    self.clear_scroll(scroll_id)
                except TransportError:
                    pass

    def scroll(self, scroll_id: str, scroll: Optional[str] = "1m") -> Dict[str, Any]:
        """The next page of a scroll (no ``_scroll_id`` in the answer when ``scroll`` is None)."""
        return self._call(_lib.LIB.mg_scroll_next, scroll_id.encode("utf-8"), _encode(scroll))

    def clear_scroll(self, scroll_id: Union[str, List[str]]) -> Dict[str, Any]:
        """Frees scroll ids (``"_all"`` frees all); NotFoundError when nothing was freed."""
        return self._call(_lib.LIB.mg_scroll_clear, json.dumps(scroll_id).encode("utf-8"))

    # -- catalog ---------------------------------------------------------------------
    def indices(self) -> List[Dict[str, Any]]:
        """Concrete indices with ``docs.count``, ``store.size``, ``aliases``, ``generation``."""
        return self._call(_lib.LIB.mg_indices)

    def aliases(self) -> List[Dict[str, str]]:
        """``[{"alias": ..., "index": ...}]``."""
        return self._call(_lib.LIB.mg_aliases)

    # -- loading ---------------------------------------------------------------------
    def load(
        self,
        index: str,
        source: Union[PathLike, Iterable[Mapping[str, Any]]],
        alias: Optional[str] = None,
        family: Optional[str] = None,
        id_field: Optional[str] = None,
        doc_type: Optional[str] = None,
        mapping: Optional[Mapping[str, Any]] = None,
        create_body: Optional[Mapping[str, Any]] = None,
        max_errors: int = 0,
        replace: bool = False,
        progress: Optional[bool] = None,
        config: Optional[PathLike] = None,
    ) -> Dict[str, Any]:
        """Loads a new index from an NDJSON file (``_bulk`` or JSON lines, gzip accepted) or
        from an iterable of dicts (each may carry ``_id``; with ``id_field`` that field is
        the id). ``create_body`` is an Elasticsearch 6.8 create-index body (``settings``,
        ``mappings`` under their type name, ``aliases``); ``mapping`` is merged over it.
        ``config`` is the configuration folder the body's ``synonyms_path`` files are read
        from. ``alias`` moves to the new index in the same transaction. A tqdm progress
        bar is shown for iterables when tqdm is installed (``progress=False`` hides it).
        Returns ``{"docs", "errors": [{"line", "reason"}], ...}``.
        """
        opts: Dict[str, Any] = {"max_errors": max_errors, "replace": replace}
        if family:
            opts["family"] = family
        if id_field:
            opts["id_field"] = id_field
        if doc_type:
            opts["type"] = doc_type
        if mapping is not None:
            opts["mapping"] = mapping
        if create_body is not None:
            opts["create_body"] = create_body
        if config is not None:
            opts["config"] = os.fsdecode(config)
        o = json.dumps(opts).encode("utf-8")
        a = _encode(alias)
        if isinstance(source, (str, bytes)) or hasattr(source, "__fspath__"):
            path = os.fsencode(source) if not isinstance(source, bytes) else source
            return self._call(_lib.LIB.mg_load_file, index.encode("utf-8"), path, a, o)
        data = self._serialize(source, id_field, progress)
        buf = ctypes.create_string_buffer(data, len(data))
        return self._call(_lib.LIB.mg_load_bytes, index.encode("utf-8"), buf, len(data), a, o)

    @staticmethod
    def _serialize(docs: Iterable[Mapping[str, Any]], id_field: Optional[str], progress: Optional[bool]) -> bytes:
        it: Iterable[Mapping[str, Any]] = docs
        if progress is not False:
            try:
                from tqdm.auto import tqdm  # type: ignore

                it = tqdm(docs, unit="docs", desc="serializing", disable=progress is None and not os.isatty(2))
            except ImportError:
                pass
        parts: List[str] = []
        for d in it:
            doc = dict(d)
            action: Dict[str, Any] = {}
            if "_id" in doc:
                action["_id"] = str(doc.pop("_id"))
            elif id_field and id_field in doc:
                action["_id"] = str(doc[id_field])
            parts.append(json.dumps({"index": action}))
            parts.append(json.dumps(doc, ensure_ascii=False))
        return ("\n".join(parts) + "\n").encode("utf-8") if parts else b""

    # -- the raw gateway -------------------------------------------------------------
    def handle(self, method: str, path: str, body: Union[None, bytes, str, Mapping[str, Any]] = None, headers: Optional[Mapping[str, str]] = None) -> Response:
        """Answers one HTTP-shaped request exactly as ``metagate serve`` would (routes,
        API keys, CORS, errors) without sockets. Never raises for HTTP error statuses."""
        return self._raw(_lib.LIB.mg_gateway, method, path, body, headers)

    def request(self, method: str, path: str, body: Union[None, bytes, str, Mapping[str, Any]] = None, headers: Optional[Mapping[str, str]] = None) -> Response:
        """Answers one HTTP-shaped request as an in-process door: :meth:`handle` without
        the API key, rate limit and body cap that guard a port (``path`` starts with
        ``/elastic/v1``). Never raises for HTTP error statuses."""
        return self._raw(_lib.LIB.mg_gateway_local, method, path, body, headers)

    def _raw(self, fn: Any, method: str, path: str, body: Union[None, bytes, str, Mapping[str, Any]], headers: Optional[Mapping[str, str]]) -> Response:
        if isinstance(body, Mapping):
            raw = json.dumps(body).encode("utf-8")
        elif isinstance(body, str):
            raw = body.encode("utf-8")
        else:
            raw = body or b""
        hdrs = dict(headers or {})
        if raw and not any(k.lower() == "content-type" for k in hdrs):
            hdrs["Content-Type"] = "application/json"
        out_headers = ctypes.c_void_p()
        out_body = ctypes.c_void_p()
        out_len = ctypes.c_size_t()
        status = fn(
            self._h(), method.encode("utf-8"), path.encode("utf-8"), json.dumps(hdrs).encode("utf-8"),
            raw, len(raw), ctypes.byref(out_headers), ctypes.byref(out_body), ctypes.byref(out_len),
        )
        header_text = _lib.take_string(out_headers)
        data = b""
        if out_body.value:
            data = ctypes.string_at(out_body.value, out_len.value)
            _lib.LIB.mg_bytes_free(out_body, out_len.value)
        pairs: List[Tuple[str, str]] = [tuple(p) for p in json.loads(header_text)] if header_text else []  # type: ignore
        return Response(status, dict(pairs), data)

    @staticmethod
    def version() -> str:
        """The engine library's version."""
        return _lib.LIB.mg_version().decode("utf-8")
