#!/usr/bin/env bash
# The npm package as people install it: `npm pack` in wasm/, then in a fresh project
# outside the tree `npm install` of the tarball, and there
#   - the tarball holds every file its `exports` name (both builds: pkg/, pkg-bundler/);
#   - a Node ESM script opens the browser demo file and searches it (npm/node.mjs);
#   - an esbuild bundle of a small page does the same in headless Chromium (npm/browser.mjs);
#   - `tsc --noEmit` checks a TypeScript user of the API (npm/app.ts).
# Answers must be the native engine's (wasm/test/native-fixtures.mjs). Run by tests/wasm.sh
# after the module is built:  bash tests/packages/npm.sh DEMO_WEB_FILE FIXTURES.json
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
file=$(realpath "$1")
fixtures=$(realpath "$2")
out=$root/target/packages/npm
rm -rf "$out"
mkdir -p "$out/project"
# Exact versions of the tools the test project installs from the registry.
TYPESCRIPT=7.0.2
ESBUILD=0.28.2

kind=npm
# shellcheck source=tests/packages/checks.sh
source tests/packages/checks.sh

(cd wasm && npm pack --silent --pack-destination "$out" > "$out/pack.log")
tgz=$(ls "$out"/metagate-wasm-*.tgz)
echo "npm pack: $(basename "$tgz"), $(stat -c %s "$tgz") bytes"

# Every `exports` target (and main/module/types) is in the tarball.
tarball_resolves() {
  tar -tzf "$tgz" > "$out/contents.txt"
  node -e '
    const fs = require("fs");
    const [pkgPath, listPath] = process.argv.slice(1);
    const files = new Set(fs.readFileSync(listPath, "utf8").split("\n").filter(Boolean).map((f) => f.replace(/^package\//, "")));
    const pkg = JSON.parse(require("child_process").execFileSync("tar", ["-xzOf", pkgPath, "package/package.json"]));
    const targets = [pkg.main, pkg.module, pkg.types];
    const walk = (v) => (typeof v === "string" ? targets.push(v) : Object.values(v).forEach(walk));
    walk(pkg.exports);
    const missing = targets.map((t) => t.replace(/^\.\//, "")).filter((t) => !files.has(t));
    if (missing.length) throw new Error("not in the tarball: " + missing.join(", "));
    const snippets = [...files].filter((f) => f.includes("/snippets/"));
    if (snippets.length < 2) throw new Error("the glue imports snippets the tarball lacks");
    console.log(`${targets.length} entry points and ${snippets.length} snippets in ${files.size} files`);
  ' "$tgz" "$out/contents.txt"
}
check tarball tarball_resolves

cp tests/packages/npm/{node.mjs,page.js,index.html,browser.mjs,app.ts,tsconfig.json} "$out/project/"
cd "$out/project"
echo '{ "name": "metagate-wasm-user", "private": true, "type": "module" }' > package.json
install_package() {
  npm install --no-audit --no-fund --silent "$tgz" "typescript@$TYPESCRIPT" "esbuild@$ESBUILD" &&
    node -p '"installed metagate-wasm " + require("./node_modules/metagate-wasm/package.json").version'
}
check install install_package
check node node node.mjs "$file" "$fixtures"
bundle() {
  mkdir -p dist && cp index.html dist/ &&
    ./node_modules/.bin/esbuild page.js --bundle --format=esm --loader:.wasm=file --outdir=dist --log-level=warning &&
    ls dist | tr '\n' ' '
}
check bundle bundle
check chromium node browser.mjs dist "$file" "$fixtures" "$root/wasm/node_modules/playwright-core"
check tsc sh -c "./node_modules/.bin/tsc -p tsconfig.json && echo 'tsc --noEmit: app.ts checks against both entries'"

echo "npm-package: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
