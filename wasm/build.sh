#!/usr/bin/env bash
# Builds the browser module: the metagate-wasm crate for wasm32 with the size profile,
# then wasm-bindgen's JS glue and TypeScript definitions.
#   wasm/pkg/          --target web      (the npm package's main entry; also loads in Node)
#   wasm/pkg-bundler/  --target bundler  (for webpack/vite-style bundlers)
#   wasm/www/pkg/      the web build the demo page loads (checked in, so that
#                      `metagate serve` shows the page without a WASM toolchain)
# METAGATE_WASM_OPT=1 also runs binaryen's wasm-opt -Oz. It is off by default: it shrinks
# the raw module by about 9% but the gzipped one grows by about 7% (see BENCHMARKS.md),
# and what travels is the gzipped module.
set -euo pipefail
cd "$(dirname "$0")/.."

want=$(sed -nE 's/^wasm-bindgen = "=([0-9.]+)"/\1/p' wasm/Cargo.toml)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "wasm-bindgen CLI $want is needed (found: ${have:-none}): cargo install wasm-bindgen-cli --version $want" >&2
  exit 1
fi

cargo build --quiet -p metagate-wasm --target wasm32-unknown-unknown --profile wasm-release
raw=target/wasm32-unknown-unknown/wasm-release/metagate_wasm.wasm

rm -rf wasm/pkg/snippets wasm/pkg-bundler/snippets
wasm-bindgen --target web --remove-name-section --remove-producers-section --out-dir wasm/pkg "$raw"
wasm-bindgen --target bundler --remove-name-section --remove-producers-section --out-dir wasm/pkg-bundler "$raw"

if [ "${METAGATE_WASM_OPT:-0}" = 1 ]; then
  for d in wasm/pkg wasm/pkg-bundler; do
    # The features rustc enables by default for wasm32 must be allowed here too.
    wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
      --enable-nontrapping-float-to-int --enable-multivalue --enable-reference-types \
      "$d/metagate_wasm_bg.wasm" -o "$d/metagate_wasm_bg.wasm"
  done
fi

# Snippets (js/range.js, the synchronous range reader) are imported by the glue.
rm -rf wasm/www/pkg
mkdir -p wasm/www/pkg
cp -r wasm/pkg/metagate_wasm.js wasm/pkg/metagate_wasm_bg.wasm wasm/pkg/metagate_wasm.d.ts wasm/pkg/snippets wasm/www/pkg/
bytes=$(stat -c %s wasm/pkg/metagate_wasm_bg.wasm)
gz=$(gzip -9 -c wasm/pkg/metagate_wasm_bg.wasm | wc -c)
echo "wasm/pkg/metagate_wasm_bg.wasm: $bytes bytes, $gz gzipped (gzip -9)"
