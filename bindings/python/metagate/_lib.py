"""Loads the bundled shared library and declares the C signatures."""
import ctypes
import os
import sys

from .exceptions import ImproperlyConfigured

_NAMES = {"linux": "libmetagate.so", "darwin": "libmetagate.dylib", "win32": "metagate.dll"}


def _library_path() -> str:
    env = os.environ.get("METAGATE_LIB")
    if env:
        return env
    name = next((n for p, n in _NAMES.items() if sys.platform.startswith(p)), "libmetagate.so")
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), name)


def load() -> ctypes.CDLL:
    path = _library_path()
    try:
        # CDLL (not PyDLL): ctypes releases the GIL for the duration of each call.
        lib = ctypes.CDLL(path)
    except OSError as e:  # pragma: no cover - depends on the install
        raise ImproperlyConfigured("cannot load the metagate library at {}: {}".format(path, e))
    c = ctypes
    out = c.POINTER(c.c_void_p)
    lib.mg_version.restype = c.c_char_p
    lib.mg_version.argtypes = []
    lib.mg_open.restype = c.c_int32
    lib.mg_open.argtypes = [c.c_char_p, c.c_int32, c.POINTER(c.c_void_p), out]
    lib.mg_close.restype = None
    lib.mg_close.argtypes = [c.c_void_p]
    for name, extra in [
        ("mg_search", [c.c_char_p, c.c_char_p]),
        ("mg_search_uri", [c.c_char_p, c.c_char_p, c.c_char_p]),
        ("mg_scroll_start", [c.c_char_p, c.c_char_p, c.c_char_p]),
        ("mg_scroll_next", [c.c_char_p, c.c_char_p]),
        ("mg_scroll_clear", [c.c_char_p]),
        ("mg_load_file", [c.c_char_p, c.c_char_p, c.c_char_p, c.c_char_p]),
        ("mg_load_bytes", [c.c_char_p, c.c_char_p, c.c_size_t, c.c_char_p, c.c_char_p]),
        ("mg_count", [c.c_char_p, c.c_char_p, c.c_char_p]),
        ("mg_msearch", [c.c_char_p, c.c_char_p, c.c_char_p]),
        ("mg_get", [c.c_char_p, c.c_char_p, c.c_char_p, c.c_char_p]),
        ("mg_mget", [c.c_char_p, c.c_char_p, c.c_char_p]),
        ("mg_get_mapping", [c.c_char_p, c.c_char_p]),
        ("mg_indices", []),
        ("mg_aliases", []),
    ]:
        f = getattr(lib, name)
        f.restype = c.c_int32
        f.argtypes = [c.c_void_p] + extra + [out]
    for name in ("mg_gateway", "mg_gateway_local"):
        f = getattr(lib, name)
        f.restype = c.c_int32
        f.argtypes = [
            c.c_void_p, c.c_char_p, c.c_char_p, c.c_char_p, c.c_char_p, c.c_size_t,
            out, c.POINTER(c.c_void_p), c.POINTER(c.c_size_t),
        ]
    lib.mg_set_script_regex.restype = c.c_int32
    lib.mg_set_script_regex.argtypes = [c.c_void_p, c.c_int32]
    lib.mg_string_free.restype = None
    lib.mg_string_free.argtypes = [c.c_void_p]
    lib.mg_bytes_free.restype = None
    lib.mg_bytes_free.argtypes = [c.c_void_p, c.c_size_t]
    return lib


LIB = load()


def take_string(ptr: ctypes.c_void_p) -> str:
    """Copies a metagate-owned string and frees it."""
    if not ptr.value:
        return ""
    try:
        return ctypes.string_at(ptr.value).decode("utf-8")
    finally:
        LIB.mg_string_free(ptr)
