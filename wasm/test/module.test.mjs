// The WASM module under Node: opens the demo file from bytes and must answer every test
// request exactly as the native engine did (fixtures from native-fixtures.mjs), apart
// from `took`. Run by tests/wasm.sh; alone:
//   METAGATE_WASM_FILE=target/demo-web.redb METAGATE_WASM_FIXTURES=target/wasm/fixtures.json node --test wasm/test/

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const filePath = process.env.METAGATE_WASM_FILE ?? `${root}target/demo-web.redb`;
const fixturesPath = process.env.METAGATE_WASM_FIXTURES ?? `${root}target/wasm/fixtures.json`;
const wasmPath = new URL('../pkg/metagate_wasm_bg.wasm', import.meta.url);
const wasmBytes = readFileSync(wasmPath);
const image = readFileSync(filePath);
const fixtures = JSON.parse(readFileSync(fixturesPath, 'utf8'));

/** A fresh instance of the module: a trap leaves an instance unusable, so the
 * bad-input tests each get their own. */
let instances = 0;
async function freshModule() {
  const mod = await import(`../pkg/metagate_wasm.js?instance=${instances++}`);
  mod.initSync({ module: wasmBytes });
  return mod;
}

const mod = await freshModule();
const engine = new mod.Metagate(image);

function withoutTook(answer) {
  const { took, ...rest } = answer;
  assert.equal(typeof took, 'number');
  return rest;
}

/** The WASM answer as the CLI would print it: the response, or the error JSON. */
function wasmAnswer(q) {
  try {
    const out = q.q !== undefined
      ? engine.searchUri(q.index, '', `q=${encodeURIComponent(q.q)}`)
      : engine.search(q.index, JSON.stringify(q.body));
    return JSON.parse(out);
  } catch (err) {
    assert.ok(err instanceof Error, `${q.name}: threw ${err}`);
    assert.equal(typeof err.status, 'number', `${q.name}: error without status: ${err.message}`);
    const body = JSON.parse(err.body);
    assert.equal(body.status, err.status);
    return body;
  }
}

for (const [name, q] of Object.entries(fixtures)) {
  test(`same answer as native: ${name}`, () => {
    const native = q.answer;
    if (q.expectError) {
      assert.ok(native.error, `${name}: the native engine answered without an error`);
      assert.deepEqual(wasmAnswer(q), native);
      return;
    }
    assert.ok(!native.error, `${name}: the native engine failed: ${JSON.stringify(native.error)}`);
    const got = withoutTook(wasmAnswer(q));
    const want = withoutTook(native);
    // Key order is part of the wire format, so the texts must match, not only the values.
    assert.equal(JSON.stringify(got), JSON.stringify(want));
  });
}

test('the browser test query has facets, and its facet click filters', () => {
  const page = fixtures['page-tools'].answer;
  assert.ok(page.hits.total > 0, 'the page query finds nothing');
  assert.ok(page.aggregations, 'the page query has no aggregations');
  const filtered = fixtures['page-tools-filtered'];
  assert.ok(filtered, 'no facet bucket to click');
  assert.equal(filtered.answer.hits.total, filtered.facet.doc_count);
});

test('scroll pages through the same hits as one search', () => {
  const want = fixtures['scroll-all-organisms'].answer.hits.hits.map((h) => h._id);
  const body = JSON.stringify({ size: 300, sort: ['_doc'], _source: false });
  let page = JSON.parse(engine.scrollStart('RIN_Organism_pr', body, '1m'));
  const ids = [];
  const scrollIds = new Set();
  while (page.hits.hits.length > 0) {
    ids.push(...page.hits.hits.map((h) => h._id));
    scrollIds.add(page._scroll_id);
    page = JSON.parse(engine.scrollNext(page._scroll_id, '1m'));
  }
  assert.deepEqual(ids, want);
  assert.equal(page.hits.total, want.length);
  assert.equal(engine.clearScroll([...scrollIds]), scrollIds.size > 0 ? 1 : 0);
  assert.throws(() => engine.scrollNext(page._scroll_id, '1m'), (err) => err.status === 404);
});

test('aliases, indices and version', () => {
  const aliases = JSON.parse(engine.aliases()).map((a) => a.alias);
  for (const a of ['RIN_Tool_pr', 'RIN_Antibody_pr', 'RIN_CellLine_pr', 'RIN_Organism_pr', 'Lexicon_pr', 'Portal_Dataset_pr']) {
    assert.ok(aliases.includes(a), `alias ${a} missing`);
  }
  assert.equal(JSON.parse(engine.indices()).length, 10);
  assert.match(mod.Metagate.version(), /^\d+\.\d+\.\d+/);
});

test('count, msearch, get, mget and getMapping answer as the read APIs do', () => {
  const total = JSON.parse(engine.search('RIN_Tool_pr', '{"size":0}')).hits.total;
  const count = JSON.parse(engine.count('RIN_Tool_pr', '', ''));
  assert.deepEqual(count, { count: total, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } });
  assert.equal(JSON.parse(engine.count('RIN_Tool_pr', '', 'q=alignment')).count,
    JSON.parse(engine.searchUri('RIN_Tool_pr', '', 'q=alignment&size=0')).hits.total);
  const multi = JSON.parse(engine.msearch('RIN_Tool_pr', '{}\n{"size":1}\n{"index":"Nope_pr"}\n{}\n', ''));
  assert.deepEqual(multi.responses.map((r) => r.status), [200, 404]);
  const first = JSON.parse(engine.search('RIN_Tool_pr', '{"size":1,"sort":["_id"]}')).hits.hits[0];
  const doc = JSON.parse(engine.get('RIN_Tool_pr', first._id, undefined, ''));
  assert.equal(doc.found, true);
  assert.deepEqual(doc._source, first._source);
  assert.throws(() => engine.get('RIN_Tool_pr', 'no-such-id', 'rin', ''),
    (err) => err.status === 404 && JSON.parse(err.body).found === false);
  const docs = JSON.parse(engine.mget('RIN_Tool_pr', JSON.stringify({ ids: [first._id, 'no-such-id'] }), '_source=false'));
  assert.deepEqual(docs.docs.map((d) => d.found), [true, false]);
  const mapping = JSON.parse(engine.getMapping('RIN_Tool_pr', ''));
  assert.equal(Object.keys(mapping).length, 1);
  assert.ok(Object.values(Object.values(mapping)[0].mappings)[0].properties.item);
});

test('opens an ArrayBuffer as well as a Uint8Array', () => {
  const buf = image.buffer.slice(image.byteOffset, image.byteOffset + image.byteLength);
  const other = new mod.Metagate(buf);
  const q = fixtures['tools-match-2-terms'];
  assert.equal(JSON.stringify(withoutTook(JSON.parse(other.search(q.index, JSON.stringify(q.body))))),
    JSON.stringify(withoutTook(q.answer)));
  other.free();
});

/** Bad images: each must be refused (or, when redb cannot tell, searched) with a JS
 * Error carrying a status, never a trap of the module. */
function corruptions() {
  const flip = (offsets) => {
    const b = Uint8Array.from(image);
    for (const o of offsets) b[o] ^= 0xff;
    return b;
  };
  const n = image.length;
  // Seeded pseudo-random flips: the same damage on every run.
  const seeded = {};
  for (let seed = 1; seed <= 12; seed++) {
    let x = seed;
    const offsets = Array.from({ length: 16 }, () => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return x % n;
    });
    seeded[`16 bytes flipped, seed ${seed}`] = flip(offsets);
  }
  return {
    ...seeded,
    empty: new Uint8Array(0),
    'not redb': new TextEncoder().encode('{"hits":{"total":0}} this is JSON, not a metagate file'),
    'header only': image.subarray(0, 4096),
    'first half': image.subarray(0, Math.floor(n / 2)),
    'last byte missing': image.subarray(0, n - 1),
    'header bytes flipped': flip([9, 10, 11, 64, 65, 100, 200, 300]),
    'bytes flipped everywhere': flip(Array.from({ length: 64 }, (_, i) => Math.floor(((i + 0.5) * n) / 64))),
    'a page zeroed': (() => {
      const b = Uint8Array.from(image);
      b.fill(0, 4096, 4096 * 8);
      return b;
    })(),
  };
}

for (const [what, bytes] of Object.entries(corruptions())) {
  test(`bad image is an error, not a crash: ${what}`, async () => {
    const m = await freshModule();
    let opened;
    try {
      opened = new m.Metagate(bytes);
    } catch (err) {
      assert.ok(!(err instanceof WebAssembly.RuntimeError), `trapped: ${err}`);
      assert.ok(err instanceof Error);
      assert.equal(typeof err.status, 'number', err.message);
      assert.ok(JSON.parse(err.body).error, err.body);
      return;
    }
    // Damage redb could not see on opening: searching must still end in an answer or an Error.
    for (const q of ['tools-match-2-terms', 'page-tools', 'lexicon-source-filter']) {
      try {
        opened.search(fixtures[q].index, JSON.stringify(fixtures[q].body));
      } catch (err) {
        assert.ok(!(err instanceof WebAssembly.RuntimeError), `trapped in ${q}: ${err}`);
        assert.equal(typeof err.status, 'number', err.message);
      }
    }
  });
}

test('not bytes at all is a clear error', () => {
  assert.throws(() => new mod.Metagate('metagate.redb'), (err) => err.status === 400 && /Uint8Array/.test(err.message));
});

/** A lazily opened copy of the test file, read with `fs.readSync` and counted. */
function lazyEngine(options) {
  const fd = openSync(filePath, 'r');
  const reads = { calls: 0, bytes: 0 };
  const read = (offset, length) => {
    const out = new Uint8Array(length);
    const got = readSync(fd, out, 0, length, offset);
    reads.calls += 1;
    reads.bytes += got;
    return out.subarray(0, got);
  };
  return { engine: mod.Metagate.fromReader(read, fstatSync(fd).size, options), reads, close: () => closeSync(fd) };
}

test('a file opened lazily answers as the native engine and reads only part of the file', () => {
  const lazy = lazyEngine({ chunkBytes: 65536, cacheBytes: 64 << 20 });
  const size = image.length;
  assert.equal(lazy.reads.calls > 0 && lazy.reads.bytes < size / 10, true, `opening read ${lazy.reads.bytes} of ${size} bytes`);
  const q = fixtures['tools-match-2-terms'];
  const got = JSON.parse(lazy.engine.search(q.index, JSON.stringify(q.body)));
  assert.equal(JSON.stringify(withoutTook(got)), JSON.stringify(withoutTook(q.answer)));
  const afterFirst = lazy.engine.fetchStats();
  assert.deepEqual(afterFirst, { size, requests: lazy.reads.calls, bytes: lazy.reads.bytes });
  assert.ok(afterFirst.bytes < size / 2, `the first query fetched ${afterFirst.bytes} of ${size} bytes`);
  for (const [name, f] of Object.entries(fixtures)) {
    if (f.expectError || f.q !== undefined) continue;
    const answer = JSON.parse(lazy.engine.search(f.index, JSON.stringify(f.body)));
    assert.equal(JSON.stringify(withoutTook(answer)), JSON.stringify(withoutTook(f.answer)), name);
  }
  // Asked again, a query is answered from cached chunks.
  const before = lazy.engine.fetchStats();
  lazy.engine.search(q.index, JSON.stringify(q.body));
  assert.deepEqual(lazy.engine.fetchStats(), before);
  assert.equal(engine.fetchStats(), undefined);
  lazy.engine.free();
  lazy.close();
});

test('a lazily opened file is read-only: scroll clears are kept in memory', () => {
  const lazy = lazyEngine();
  const first = JSON.parse(lazy.engine.scrollStart('RIN_Organism_pr', JSON.stringify({ size: 5 }), '1m'));
  assert.equal(lazy.engine.clearScroll([first._scroll_id]), 1);
  assert.throws(() => lazy.engine.scrollNext(first._scroll_id, '1m'), (err) => err.status === 404);
  lazy.engine.free();
  lazy.close();
});

test('lazy options and readers are checked', () => {
  const size = image.length;
  const read = () => new Uint8Array(0);
  assert.throws(() => mod.Metagate.fromReader(read, size, { chunkBytes: 0 }), (err) => err.status === 400 && /chunkBytes/.test(err.message));
  assert.throws(() => mod.Metagate.fromReader(read, size, { cacheBytes: 1.5 }), (err) => err.status === 400 && /cacheBytes/.test(err.message));
  assert.throws(() => mod.Metagate.fromReader(read, -1), (err) => err.status === 400 && /size/.test(err.message));
  // A reader that answers short, or with something else than bytes, is a storage error.
  assert.throws(() => mod.Metagate.fromReader(read, size), (err) => err.status === 500 && /asked for 9 bytes/.test(err.message));
  assert.throws(() => mod.Metagate.fromReader(() => 'abc', size), (err) => err.status === 500 && /Uint8Array/.test(err.message));
  assert.throws(() => mod.Metagate.fromReader(() => { throw new Error('disk gone'); }, size), (err) => err.status === 500 && /disk gone/.test(err.message));
  // Not a metagate file at all.
  const json = new TextEncoder().encode('{"not": "a metagate file"}');
  assert.throws(() => mod.Metagate.fromReader((o, l) => json.subarray(o, o + l), json.length), (err) => err.status === 400 && /redb header/.test(err.message));
});

test('scriptRegex opens the file with regexes allowed in scripts', () => {
  const index = JSON.parse(engine.indices())[0].index;
  const body = JSON.stringify({ size: 1, script_fields: { m: { script: "'metagate' ==~ /meta.*/" } } });
  assert.throws(() => engine.search(index, body), (err) => err.status === 400 && /Regexes are disabled/.test(err.body));
  const allowed = new mod.Metagate(image, { scriptRegex: true });
  assert.deepEqual(JSON.parse(allowed.search(index, body)).hits.hits[0].fields.m, [true]);
  assert.throws(() => new mod.Metagate(image, { scriptRegex: 'yes' }), (err) => err.status === 400 && /scriptRegex/.test(err.message));
});
