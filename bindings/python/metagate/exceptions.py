"""The exceptions metagate raises: elasticsearch-py's own classes when a 6.x or 7.x
``elasticsearch`` package is installed (so ``except elasticsearch.NotFoundError`` catches
ours), otherwise classes of the same names, bases and attributes defined here.

elasticsearch-py 8 moved to another exception model (``ApiError(message, meta, body)``),
so with it installed the classes below are used as well.
"""
import json
from typing import Any, Dict, Optional, Type


class ImproperlyConfigured(Exception):
    """The shared library could not be found or loaded."""


def _elasticsearch_exceptions() -> Optional[Any]:
    """elasticsearch-py's ``exceptions`` module when it has the 6.x/7.x classes."""
    try:
        import elasticsearch  # type: ignore
        from elasticsearch import exceptions  # type: ignore
    except ImportError:
        return None
    version = getattr(elasticsearch, "VERSION", (0,))
    if not version or version[0] >= 8 or not hasattr(exceptions, "HTTP_EXCEPTIONS"):
        return None
    return exceptions


_ES = _elasticsearch_exceptions()

if _ES is not None:
    ElasticsearchException = _ES.ElasticsearchException
    SerializationError = _ES.SerializationError
    TransportError = _ES.TransportError
    RequestError = _ES.RequestError
    AuthenticationException = _ES.AuthenticationException
    AuthorizationException = _ES.AuthorizationException
    NotFoundError = _ES.NotFoundError
    ConflictError = _ES.ConflictError
else:

    class ElasticsearchException(Exception):  # type: ignore[no-redef]
        """Base of the exceptions of the package's operations (as elasticsearch-py's)."""

    class SerializationError(ElasticsearchException):  # type: ignore[no-redef]
        """A body could not be serialized or an answer not parsed."""

    class TransportError(ElasticsearchException):  # type: ignore[no-redef]
        """An error status: ``status_code``, ``error`` (the error type, or the plain text
        of a text answer) and ``info`` (the parsed error body, None for text)."""

        def __init__(self, status_code: Any, error: Any, info: Optional[Dict[str, Any]] = None):
            super().__init__(status_code, error, info)

        @property
        def status_code(self) -> Any:
            """The HTTP status."""
            return self.args[0]

        @property
        def error(self) -> Any:
            """The error type (``index_not_found_exception``, ...) or the text answer."""
            return self.args[1]

        @property
        def info(self) -> Any:
            """The parsed error body, when it is JSON."""
            return self.args[2]

        def __str__(self) -> str:
            # elasticsearch-py's text: the first root cause's reason.
            cause = ""
            try:
                if self.info and "error" in self.info:
                    if isinstance(self.info["error"], dict):
                        cause = ", %r" % self.info["error"]["root_cause"][0]["reason"]
                    else:
                        cause = ", %r" % self.info["error"]
            except LookupError:
                pass
            return "%s(%s, %r%s)" % (type(self).__name__, self.status_code, self.error, cause)

    class RequestError(TransportError):  # type: ignore[no-redef]
        """400: the request is malformed."""

    class AuthenticationException(TransportError):  # type: ignore[no-redef]
        """401: no API key."""

    class AuthorizationException(TransportError):  # type: ignore[no-redef]
        """403: the API key is not valid, or the request would write (the file is a
        read-only cluster)."""

    class NotFoundError(TransportError):  # type: ignore[no-redef]
        """404: no such index, document, scroll context or route."""

    class ConflictError(TransportError):  # type: ignore[no-redef]
        """409: a conflict (e.g. a document created twice)."""


_BY_STATUS: Dict[int, Type[Any]] = {
    400: RequestError,
    401: AuthenticationException,
    403: AuthorizationException,
    404: NotFoundError,
    409: ConflictError,
}


def error_for(status: int, body: Any) -> Any:
    """The exception for an error status and its parsed JSON body (``error`` is the
    body's ``error.type``, or its ``error`` string)."""
    kind = "unknown"
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict):
            kind = err.get("type", kind)
        elif isinstance(err, str):
            kind = err
    return _BY_STATUS.get(status, TransportError)(status, kind, body)


def error_from_raw(status: int, raw: str) -> Any:
    """The exception for an error answer's raw text, as elasticsearch-py's connection
    builds it: ``error`` is the JSON body's ``error.type`` (or ``error``), else the text;
    ``info`` the parsed body, None when it is not JSON."""
    message: Any = raw
    info = None
    try:
        if raw:
            info = json.loads(raw)
            message = info.get("error", message)
            if isinstance(message, dict) and "type" in message:
                message = message["type"]
    except (ValueError, TypeError, AttributeError):
        info = None
        message = raw
    return _BY_STATUS.get(status, TransportError)(status, message, info)
