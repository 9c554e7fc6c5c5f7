#!/usr/bin/env bash
# The suites outside `cargo test`: the C example (also under valgrind) and, when present,
# the Python package, the HTTP clients and the WASM module. Called by tests/run_all.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== release build (CLI, shared and static library) =="
cargo build --release --quiet
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
