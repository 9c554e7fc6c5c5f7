"""Builds the metagate shared library from this checkout's Rust sources and bundles it.

`pip install ./bindings/python` (and `pip wheel` / `python -m build`) run `cargo rustc
--release --lib --crate-type cdylib` on the repository's Cargo.toml and put the library
inside the package, so it imports without any path set-up. Set METAGATE_LIB to a prebuilt
library to skip the build (it is copied instead).

The wheel holds a native library but no Python extension (the package loads it with
ctypes), so it is tagged for any Python 3 and for the platform of the library:
`py3-none-manylinux_2_<N>_<arch>` on Linux when the library needs nothing beyond the
libraries every manylinux system has (N: the newest glibc symbol version it uses, read
from the library itself, as auditwheel reads it), else the plain platform tag.
"""
import os
import platform
import re
import shutil
import struct
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1 has it in the wheel package
    from wheel.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
LIB_NAMES = {"linux": "libmetagate.so", "darwin": "libmetagate.dylib", "win32": "metagate.dll"}
# The libraries a manylinux system provides (PEP 600's policy list, the ones a Rust
# cdylib may link).
MANYLINUX_LIBS = {
    "libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "libutil.so.1",
    "libgcc_s.so.1", "libresolv.so.2", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
}


def lib_name():
    for prefix, name in LIB_NAMES.items():
        if sys.platform.startswith(prefix):
            return name
    return "libmetagate.so"


def bundled_lib():
    return os.path.join(HERE, "metagate", lib_name())


class BuildWithLibrary(build_py):
    def run(self):
        prebuilt = os.environ.get("METAGATE_LIB")
        if prebuilt:
            source = prebuilt
        else:
            target = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))
            # Debug info is for the repository's own profiling (profile.release keeps it):
            # the packaged library goes without.
            subprocess.check_call(
                ["cargo", "rustc", "--release", "--lib", "--crate-type", "cdylib",
                 "--manifest-path", os.path.join(REPO, "Cargo.toml"), "--", "-C", "strip=debuginfo"],
                env=dict(os.environ, CARGO_TARGET_DIR=target),
            )
            source = os.path.join(target, "release", lib_name())
        shutil.copyfile(source, bundled_lib())
        super().run()


def elf_dependencies(path):
    """The libraries an ELF64 little-endian shared object needs (DT_NEEDED) and the symbol
    versions it needs from them (`GLIBC_2.17`, ...), from its section headers."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = []
    for i in range(shnum):
        _, sh_type, _, _, off, size, link = struct.unpack_from("<IIQQQQI", data, shoff + i * shentsize)
        sections.append((sh_type, off, size, link))

    def string(table, at):
        start = sections[table][1] + at
        return data[start:data.index(b"\0", start)].decode()

    needed, versions = [], set()
    for sh_type, off, size, link in sections:
        if sh_type == 6:  # SHT_DYNAMIC
            for at in range(off, off + size, 16):
                tag, val = struct.unpack_from("<qQ", data, at)
                if tag == 1:  # DT_NEEDED
                    needed.append(string(link, val))
        elif sh_type == 0x6FFFFFFE:  # SHT_GNU_verneed
            at = off
            while True:
                _, cnt, _, aux, nxt = struct.unpack_from("<HHIII", data, at)
                a = at + aux
                for _ in range(cnt):
                    _, _, _, name, anext = struct.unpack_from("<IHHII", data, a)
                    versions.add(string(link, name))
                    a += anext
                if not nxt:
                    break
                at += nxt
    return needed, versions


def manylinux_tag(path, arch):
    """`manylinux_2_<N>_<arch>` for a library that needs only manylinux libraries, N the
    newest glibc version it needs (at least 17, the oldest tag pip still installs);
    None when it needs anything else."""
    needed, versions = elf_dependencies(path)
    if any(lib not in MANYLINUX_LIBS for lib in needed):
        return None
    minors = [int(m.group(1)) for v in versions for m in [re.match(r"GLIBC_2\.(\d+)$", v)] if m]
    return "manylinux_2_%d_%s" % (max([17] + minors), arch)


class BinaryDistribution(Distribution):
    """Installs into the platform's directory: the package holds a native library."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    """A `py3-none-<platform>` wheel: any Python 3 (ctypes, no extension module), the
    library's platform."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        _, _, plat = super().get_tag()
        if sys.platform.startswith("linux") and os.path.exists(bundled_lib()):
            plat = manylinux_tag(bundled_lib(), platform.machine()) or plat
        return "py3", "none", plat

setup(
    cmdclass={"build_py": BuildWithLibrary, "bdist_wheel": PlatformWheel},
    distclass=BinaryDistribution,
)
