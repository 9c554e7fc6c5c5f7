#!/usr/bin/env bash
# The Python wheel as people install it: `python -m build` of bindings/python gives a
# wheel tagged for the platform of the library it holds (py3-none-manylinux_2_N_<arch> on
# Linux), which auditwheel confirms; in a fresh virtualenv on a PATH without cargo or
# rustc, `pip install` of the wheel works and the package loads a file, searches it and
# answers elasticsearch-py calls in process.
#   METAGATE_LIB=target/release/libmetagate.so bash tests/packages/wheel.sh
# METAGATE_LIB (a built shared library) skips the cargo build inside the wheel build.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
out=$root/target/packages/wheel
rm -rf "$out"
mkdir -p "$out"
tools=$root/target/pkgtools

kind=wheel
# shellcheck source=tests/packages/checks.sh
source tests/packages/checks.sh

[ -x "$tools/bin/python" ] || python3 -m venv "$tools"
"$tools/bin/pip" install -q --disable-pip-version-check build auditwheel

build_wheel() {
  "$tools/bin/python" -m build --wheel --outdir "$out/dist" bindings/python &&
    ls "$out/dist"
}
check build build_wheel
wheel=$(ls "$out"/dist/*.whl 2>/dev/null | head -1)

# The file name's tag, and what the wheel says of itself.
tagged() {
  local name arch
  name=$(basename "$wheel")
  arch=$(uname -m)
  [[ $name =~ ^metagate-0\.1\.0-py3-none-manylinux_2_[0-9]+_${arch}\.whl$ ]] ||
    { echo "not a py3-none-manylinux wheel: $name"; return 1; }
  "$tools/bin/python" - "$wheel" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = z.namelist()
wheel = z.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
assert "Root-Is-Purelib: false" in wheel, wheel
tag = sys.argv[1].rsplit("/", 1)[1][len("metagate-0.1.0-"):-len(".whl")]
assert "Tag: " + tag in wheel, wheel
assert "metagate/libmetagate.so" in names, names
assert "metagate/client.py" in names, names
print(sys.argv[1].rsplit("/", 1)[1])
PY
}
check tag tagged

# auditwheel reads the library's needs itself: the tag must be the one it would give.
audited() {
  local tag
  tag=$(basename "$wheel" .whl | sed -E 's/^metagate-0\.1\.0-py3-none-//')
  "$tools/bin/auditwheel" show "$wheel" | tee "$out/auditwheel.txt"
  tr -s ' \n' ' ' < "$out/auditwheel.txt" | grep -q "consistent with the following platform tag: \"$tag\"" &&
    echo "auditwheel: consistent with $tag"
}
check auditwheel audited

# A fresh virtualenv; pip and Python run on a PATH where neither cargo nor rustc is.
bare_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
fresh=$out/venv
python3 -m venv "$fresh"
installs_without_cargo() {
  ! env PATH="$bare_path" sh -c 'command -v cargo || command -v rustc' &&
    env -u METAGATE_LIB PATH="$bare_path" "$fresh/bin/pip" install -q --disable-pip-version-check --no-index "$wheel" &&
    echo "installed $(basename "$wheel") without cargo"
}
check install installs_without_cargo

works() {
  (cd "$out" && env -u METAGATE_LIB PATH="$bare_path" "$fresh/bin/python" - <<'PY'
import os, shutil
import metagate
from metagate import _lib
assert shutil.which("cargo") is None and shutil.which("rustc") is None
lib = _lib._library_path()
assert lib.startswith(os.path.join(os.path.dirname(os.path.dirname(metagate.__file__)), "metagate")), lib
assert "site-packages" in lib, lib
docs = [{"_id": "1", "item": {"name": "BLAST", "description": "sequence alignment search"}},
        {"_id": "2", "item": {"name": "ImageJ", "description": "image analysis"}}]
with metagate.Engine("wheel.redb", create=True) as engine:
    engine.load("tools-v1", docs, alias="RIN_Tool_pr", family="registry", progress=False)
with metagate.Elasticsearch("wheel.redb") as es:
    res = es.search(index="RIN_Tool_pr", q="item.description:alignment")
    assert [h["_id"] for h in res["hits"]["hits"]] == ["1"], res
    assert es.get_source("RIN_Tool_pr", "_doc", "2")["item"]["name"] == "ImageJ"
    try:
        es.get("RIN_Tool_pr", "_doc", "3")
        raise AssertionError("no NotFoundError")
    except metagate.NotFoundError as e:
        assert e.status_code == 404 and e.info["found"] is False
print("import, load, search and get from", lib)
PY
  )
}
check works works

echo "wheel: $(basename "${wheel:-none}"), $(stat -c %s "${wheel:-/dev/null}") bytes"
echo "python-wheel: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
