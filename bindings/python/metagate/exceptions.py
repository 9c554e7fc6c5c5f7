"""Exceptions shaped like elasticsearch-py's, so code written for it handles ours."""
from typing import Any, Dict, Optional


class ImproperlyConfigured(Exception):
    """The shared library could not be found or loaded."""


class TransportError(Exception):
    """An Elasticsearch-shaped error: HTTP-style status, error type, full error body."""

    def __init__(self, status_code: int, error: str, info: Optional[Dict[str, Any]] = None):
        super().__init__(status_code, error, info)
        self.status_code = status_code
        self.error = error
        self.info = info

    def __str__(self) -> str:
        reason = ""
        if isinstance(self.info, dict) and isinstance(self.info.get("error"), dict):
            reason = self.info["error"].get("reason", "")
        return "{}({}, {!r}, {!r})".format(type(self).__name__, self.status_code, self.error, reason)


class RequestError(TransportError):
    """400: the request is malformed."""


class AuthenticationException(TransportError):
    """401: no API key."""


class AuthorizationException(TransportError):
    """403: the API key is not valid."""


class NotFoundError(TransportError):
    """404: no such index, scroll context or route."""


class ConflictError(TransportError):
    """409: a conflict (e.g. a document created twice)."""


_BY_STATUS = {
    400: RequestError,
    401: AuthenticationException,
    403: AuthorizationException,
    404: NotFoundError,
    409: ConflictError,
}


def error_for(status: int, body: Any) -> TransportError:
    """Builds the exception for an error status and its JSON body."""
    kind = "unknown"
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict):
            kind = err.get("type", kind)
        elif isinstance(err, str):
            kind = err
    cls = _BY_STATUS.get(status, TransportError)
    return cls(status, kind, body)
