#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what the suites need (Debian
# packages, Python packages in a virtualenv under target/), then runs every runner and
# prints each runner's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mkdir -p target

need_apt=()
command -v curl >/dev/null || need_apt+=(curl)
command -v gcc >/dev/null || need_apt+=(gcc)
if [ -d bindings/c ]; then command -v valgrind >/dev/null || need_apt+=(valgrind); fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "missing packages: ${need_apt[*]} (install them, or run as root)" >&2; exit 1
  fi
fi

echo "== cargo test (workspace) =="
cargo test --workspace --all-targets 2>&1 | tee target/cargo-test.log | grep -E '^(test result|running|error|failures|    [a-z_:]+$)' || true
if grep -qE '^error|test result: FAILED|^failures:' target/cargo-test.log; then
  echo "cargo test failed" >&2; exit 1
fi
passed=$(grep -E '^test result' target/cargo-test.log | sed -E 's/.* ([0-9]+) passed.*/\1/' | awk '{s+=$1} END {print s+0}')
failed=$(grep -E '^test result' target/cargo-test.log | sed -E 's/.* ([0-9]+) failed.*/\1/' | awk '{s+=$1} END {print s+0}')
echo "cargo: $passed passed, $failed failed"

if [ -f tests/extra.sh ]; then
  bash tests/extra.sh
fi
