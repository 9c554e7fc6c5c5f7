#!/usr/bin/env bash
# The CLI as people install it: `cargo install --path .` (into target/packages/cli, reusing
# the release build), then the installed binary's `--version` names this source's version
# and file format, and it loads and searches a file.
#   bash tests/packages/cli.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(pwd)/target/packages/cli
rm -rf "$out"
mkdir -p "$out"

kind=cli
# shellcheck source=tests/packages/checks.sh
source tests/packages/checks.sh

install_cli() {
  cargo install --quiet --locked --path . --root "$out/root" && echo "installed $out/root/bin/metagate"
}
check install install_cli
bin=$out/root/bin/metagate

version() {
  local want got
  want="metagate $(sed -nE 's/^version = "(.*)"$/\1/p' Cargo.toml | head -1) (file format $(sed -nE 's/^pub const FORMAT_VERSION: u32 = ([0-9]+);$/\1/p' src/store/mod.rs))"
  got=$("$bin" --version)
  [ "$got" = "$want" ] || { echo "--version printed [$got], not [$want]"; return 1; }
  echo "$got"
}
check version version

load_and_search() {
  printf '%s\n' '{"index":{"_id":"1"}}' '{"item":{"name":"BLAST","description":"sequence alignment"}}' \
    '{"index":{"_id":"2"}}' '{"item":{"name":"ImageJ","description":"image analysis"}}' > "$out/tools.ndjson"
  "$bin" load --file "$out/cli.redb" --index tools-v1 --alias RIN_Tool_pr --family registry "$out/tools.ndjson" &&
    "$bin" search --file "$out/cli.redb" RIN_Tool_pr -q alignment > "$out/answer.json" &&
    python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); ids=[h["_id"] for h in a["hits"]["hits"]]; assert ids == ["1"], ids; print("search: hits", ids)' "$out/answer.json"
}
check search load_and_search

echo "cli-install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
