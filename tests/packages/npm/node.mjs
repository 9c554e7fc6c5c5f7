// The installed npm package under Node, as a user's ESM script uses it: resolves each
// `exports` entry, loads the module from the package's own .wasm, opens the browser demo
// file from bytes and searches it; the answer must be the native engine's (a fixture of
// wasm/test/native-fixtures.mjs), `took` aside.
//   node node.mjs DEMO_WEB_FILE FIXTURES.json   (from the project that installed the tarball)

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initSync, Metagate } from 'metagate-wasm';

const [file, fixturesPath] = process.argv.slice(2);
const fixture = JSON.parse(readFileSync(fixturesPath, 'utf8'))['tools-match-2-terms'];

for (const spec of ['metagate-wasm', 'metagate-wasm/bundler', 'metagate-wasm/metagate_wasm_bg.wasm']) {
  const path = fileURLToPath(import.meta.resolve(spec));
  assert.ok(path.includes('/node_modules/metagate-wasm/'), `${spec} resolved outside the package: ${path}`);
  assert.ok(existsSync(path), `${spec} resolves to a missing file: ${path}`);
}

initSync({ module: readFileSync(new URL(import.meta.resolve('metagate-wasm/metagate_wasm_bg.wasm'))) });
const engine = new Metagate(readFileSync(file));
const { took, ...answer } = JSON.parse(engine.search(fixture.index, JSON.stringify(fixture.body)));
assert.equal(typeof took, 'number');
const { took: _, ...native } = fixture.answer;
assert.ok(native.hits.total > 0, 'the fixture query finds nothing');
assert.deepEqual(answer, native);
console.log(`node: ${answer.hits.total} hits, ${answer.hits.hits.length} shown, as the native engine`);
