"""metagate: search a metagate file in-process with the Elasticsearch 6.8 search API.

The engine runs inside this process through the metagate C ABI (ctypes). Calls release
the GIL while the engine works, so searches from several threads run in parallel.
"""
from ._engine import Engine
from .exceptions import (
    AuthenticationException,
    AuthorizationException,
    ConflictError,
    ImproperlyConfigured,
    NotFoundError,
    RequestError,
    TransportError,
)

__all__ = [
    "Engine",
    "TransportError",
    "RequestError",
    "AuthenticationException",
    "AuthorizationException",
    "NotFoundError",
    "ConflictError",
    "ImproperlyConfigured",
    "__version__",
]

__version__ = "0.1.0"
