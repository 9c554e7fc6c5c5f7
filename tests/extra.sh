#!/usr/bin/env bash
# The suites outside `cargo test`: the CLI installed with `cargo install`, the C example
# (also under valgrind) and, when present, the Python package, the HTTP clients, the
# Python wheel installed without cargo, and the WASM module with its demo page in headless
# Chromium and its npm package. Called by tests/run_all.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== release build (CLI, shared and static library) =="
cargo build --release --quiet
echo "== CLI installed with cargo install =="
bash tests/packages/cli.sh
cargo rustc --release --quiet --lib --crate-type cdylib,staticlib,rlib
demo=target/demo.redb
target/release/metagate demo --file "$demo" 2>&1 | tail -1

echo "== C example =="
gcc -Wall -Wextra -O1 -g bindings/c/example.c -Iinclude target/release/libmetagate.a -lpthread -ldl -lm -o target/example
target/example "$demo" RIN_Tool_pr alignment | tee target/example.out
grep -q '^1\. ' target/example.out || { echo "C example printed no hits" >&2; exit 1; }
echo "== C example under valgrind =="
valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --error-exitcode=9 target/example "$demo" RIN_Tool_pr alignment >/dev/null
echo "c-example: 2 passed, 0 failed"

echo "== Python package =="
venv="$(pwd)/target/pyenv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check pytest pandas tqdm
METAGATE_LIB="$(pwd)/target/release/libmetagate.so" "$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps ./bindings/python
(cd target && "$venv/bin/python" -m pytest -q -p no:cacheprovider ../tests/python/package)

echo "== real Elasticsearch 6.8 clients over HTTP =="
# The 6.8 client predates NumPy 2, so it gets a virtualenv without NumPy.
esenv="$(pwd)/target/esenv"
[ -x "$esenv/bin/python" ] || python3 -m venv "$esenv"
"$esenv/bin/pip" install -q --disable-pip-version-check pytest mmh3 "elasticsearch>=6.8,<7" "elasticsearch-dsl>=6.4,<7"
# The package too: its in-process client is compared with the HTTP one.
METAGATE_LIB="$(pwd)/target/release/libmetagate.so" "$esenv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps ./bindings/python
(cd target && METAGATE_BIN="$(pwd)/release/metagate" METAGATE_DEMO="$(pwd)/demo.redb" "$esenv/bin/python" -m pytest -q -p no:cacheprovider ../tests/python/clients)
echo "== Python wheel, installed without cargo =="
METAGATE_LIB="$(pwd)/target/release/libmetagate.so" bash tests/packages/wheel.sh

echo "== WASM module and demo page =="; bash tests/wasm.sh
