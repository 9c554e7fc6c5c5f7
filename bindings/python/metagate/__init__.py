"""metagate: search a metagate file in-process with the Elasticsearch 6.8 search API.

The engine runs inside this process through the metagate C ABI (ctypes). Calls release
the GIL while the engine works, so searches from several threads run in parallel.

:class:`Engine` is the package's own API; :class:`Elasticsearch` is elasticsearch-py
6.8's client API over the same engine, for code written for a cluster.
"""
from ._engine import Engine
from .client import Elasticsearch
from .exceptions import (
    AuthenticationException,
    AuthorizationException,
    ConflictError,
    ElasticsearchException,
    ImproperlyConfigured,
    NotFoundError,
    RequestError,
    SerializationError,
    TransportError,
)

__all__ = [
    "Engine",
    "Elasticsearch",
    "ElasticsearchException",
    "SerializationError",
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
