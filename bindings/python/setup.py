"""Builds the metagate shared library from this checkout's Rust sources during install.

`pip install ./bindings/python` runs `cargo rustc --release --lib --crate-type cdylib` on
the repository's Cargo.toml and bundles the resulting library inside the package, so the
package imports without any path set-up. Set METAGATE_LIB to a prebuilt library to skip
the build (it is copied instead).
"""
import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
LIB_NAMES = {"linux": "libmetagate.so", "darwin": "libmetagate.dylib", "win32": "metagate.dll"}


def lib_name():
    for prefix, name in LIB_NAMES.items():
        if sys.platform.startswith(prefix):
            return name
    return "libmetagate.so"


class BuildWithLibrary(build_py):
    def run(self):
        name = lib_name()
        prebuilt = os.environ.get("METAGATE_LIB")
        if prebuilt:
            source = prebuilt
        else:
            target = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))
            subprocess.check_call(
                ["cargo", "rustc", "--release", "--lib", "--crate-type", "cdylib",
                 "--manifest-path", os.path.join(REPO, "Cargo.toml")],
                env=dict(os.environ, CARGO_TARGET_DIR=target),
            )
            source = os.path.join(target, "release", name)
        dest = os.path.join(HERE, "metagate", name)
        shutil.copyfile(source, dest)
        super().run()


setup(cmdclass={"build_py": BuildWithLibrary})
