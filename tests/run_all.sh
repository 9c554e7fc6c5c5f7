#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what the suites need (Debian
# packages when root, the wasm32 target and wasm-bindgen-cli, Node packages under wasm/,
# Python packages in virtualenvs under target/), then runs every runner and prints each
# runner's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mkdir -p target

# Debian packages: compilers and tools of the C, Python and HTTP suites, and Chromium for
# the demo page's browser test (driven by playwright-core: no browser download).
need_apt=()
command -v curl >/dev/null || need_apt+=(curl)
command -v gcc >/dev/null || need_apt+=(gcc)
command -v valgrind >/dev/null || need_apt+=(valgrind)
python3 -c 'import ensurepip, venv' 2>/dev/null || need_apt+=(python3-venv)
command -v chromium >/dev/null || need_apt+=(chromium)
command -v npm >/dev/null || need_apt+=(nodejs npm)
# Lucene's own analyzer, the oracle of the `standard` analyzer test (tests/lucene).
command -v javac >/dev/null || need_apt+=(default-jdk-headless)
ls /usr/share/java/lucene-core-8*.jar >/dev/null 2>&1 || need_apt+=(liblucene8-java)
# The expressions oracle (tests/script_expression_lucene.rs): lucene-expressions' ANTLR and ASM.
ls /usr/share/java/antlr4-runtime.jar >/dev/null 2>&1 || need_apt+=(libantlr4-runtime-java)
ls /usr/share/java/asm-commons.jar >/dev/null 2>&1 || need_apt+=(libasm-java)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "missing packages: ${need_apt[*]} (install them, or run as root)" >&2; exit 1
  fi
fi

# The WASM door: the wasm32 target, wasm-bindgen-cli at exactly the crate's version, and
# the Node packages of wasm/ (playwright-core).
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
bindgen=$(sed -nE 's/^wasm-bindgen = "=([0-9.]+)"/\1/p' wasm/Cargo.toml)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$bindgen" ]; then
  echo "== installing wasm-bindgen-cli $bindgen =="
  cargo install --quiet wasm-bindgen-cli --version "$bindgen" --locked ||
    cargo install --quiet wasm-bindgen-cli --version "$bindgen"
fi
[ -d wasm/node_modules/playwright-core ] || (cd wasm && npm ci --no-audit --no-fund --silent)

echo "== cargo test (workspace) =="
# `--all-targets` leaves out documentation tests; the crate page's examples run after.
{ cargo test --workspace --all-targets 2>&1; cargo test --doc 2>&1; } | tee target/cargo-test.log | grep -E '^(test result|running|error|failures|    [a-z_:]+$)' || true
if grep -qE '^error|test result: FAILED|^failures:' target/cargo-test.log; then
  echo "cargo test failed" >&2; exit 1
fi
passed=$(grep -E '^test result' target/cargo-test.log | sed -E 's/.* ([0-9]+) passed.*/\1/' | awk '{s+=$1} END {print s+0}')
failed=$(grep -E '^test result' target/cargo-test.log | sed -E 's/.* ([0-9]+) failed.*/\1/' | awk '{s+=$1} END {print s+0}')
echo "cargo: $passed passed, $failed failed"

if [ -f tests/extra.sh ]; then
  bash tests/extra.sh
fi
