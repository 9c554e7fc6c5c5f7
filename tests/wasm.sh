#!/usr/bin/env bash
# The WASM door: builds the module, asks the native engine (release CLI) the test requests
# and stores its answers as fixtures, then runs the Node test of the module and the
# headless Chromium test of the demo page served by `metagate serve`, then packs the npm
# package and tests it installed outside the tree (tests/packages/npm.sh). Needs what .ci/run
# installs: the wasm32 target, wasm-bindgen-cli at the crate's version, chromium, and
# `npm ci` in wasm/.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/wasm
mkdir -p "$out"

[ -d wasm/node_modules/playwright-core ] || { echo "wasm: run \`npm ci\` in wasm/ first" >&2; exit 1; }

echo "== WASM module =="
bash wasm/build.sh
cargo build --release --quiet
bin=target/release/metagate
file=$out/demo-web.redb
rm -f "$file"  # built fresh, so it always has this build's format
$bin demo --web --file "$file" 2>&1 | tail -1
node wasm/test/native-fixtures.mjs "$bin" "$file" "$out/fixtures.json"

passed=0
failed=0
# Adds a node --test run's "# pass N" / "# fail N" to the totals.
count() {
  local p f
  p=$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$1" | tail -1)
  f=$(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$1" | tail -1)
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-1}))
}

echo "== WASM module under Node =="
export METAGATE_WASM_FILE=$file METAGATE_WASM_FIXTURES=$out/fixtures.json
node --test wasm/test/module.test.mjs > "$out/node-test.log" 2>&1 || true
grep -E '^not ok|^# (tests|pass|fail)' "$out/node-test.log" || true
count "$out/node-test.log"

echo "== demo page in headless Chromium =="
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
$bin serve --file "$file" --demo-file "$file" --bind "127.0.0.1:$port" --threads 2 --rate-limit 0 > "$out/serve.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -sf -o /dev/null "http://127.0.0.1:$port/demo/" && break
  sleep 0.1
done
METAGATE_DEMO_URL="http://127.0.0.1:$port/demo/" METAGATE_SCREENSHOT=$out/demo.png \
  METAGATE_BROWSER_STATS=$out/browser-stats.json \
  node --test wasm/test/browser.test.mjs > "$out/browser-test.log" 2>&1 || true
grep -E '^not ok|^# (tests|pass|fail)' "$out/browser-test.log" || true
count "$out/browser-test.log"
[ -f "$out/demo.png" ] && echo "screenshot: $out/demo.png"
[ -f "$out/browser-stats.json" ] && echo "page timings (ms): $(cat "$out/browser-stats.json")"

echo "== npm package, installed outside the tree =="
bash tests/packages/npm.sh "$file" "$out/fixtures.json" > "$out/npm-package.log" 2>&1 || true
grep -E '^(ok|not ok|npm pack)' "$out/npm-package.log" || true
p=$(sed -nE 's/^npm-package: ([0-9]+) passed, ([0-9]+) failed$/\1/p' "$out/npm-package.log")
f=$(sed -nE 's/^npm-package: ([0-9]+) passed, ([0-9]+) failed$/\2/p' "$out/npm-package.log")
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-1}))

echo "== module size =="
# The gzipped module against its ceiling (wasm/size-ceiling): features must not grow it.
ceiling=$(grep -v '^#' wasm/size-ceiling | tr -d '[:space:]')
gz=$(gzip -9 -c wasm/pkg/metagate_wasm_bg.wasm | wc -c)
raw=$(stat -c %s wasm/pkg/metagate_wasm_bg.wasm)
if [ "$gz" -le "$ceiling" ]; then
  echo "ok - module size: $raw bytes, $gz gzipped (ceiling $ceiling, budget 409600)"
  passed=$((passed + 1))
else
  echo "not ok - module size: $gz gzipped is over the ceiling of $ceiling (wasm/size-ceiling)"
  failed=$((failed + 1))
fi

echo "wasm: $passed passed, $failed failed"
if [ "$failed" -ne 0 ]; then
  echo "failures: see $out/node-test.log, $out/browser-test.log and $out/npm-package.log" >&2
  exit 1
fi
