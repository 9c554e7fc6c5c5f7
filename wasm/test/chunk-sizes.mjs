// What reading a file on demand costs per chunk size, under Node: opens FILE through
// `Metagate.fromReader` with each chunk size, runs the demo page's first screen (tools,
// match_all with facets) and then its typed query, and prints the requests made and the
// bytes fetched after each.
//   node wasm/test/chunk-sizes.mjs FILE [CHUNK ...]     (default: 16384 65536 262144 1048576)

import { readFileSync, openSync, readSync, fstatSync, closeSync } from 'node:fs';
import { initSync, Metagate } from '../pkg/metagate_wasm.js';
import { buildBody, indexById } from '../www/query.js';

const [file, ...sizes] = process.argv.slice(2);
if (!file) {
  console.error('usage: node wasm/test/chunk-sizes.mjs FILE [CHUNK ...]');
  process.exit(2);
}
initSync({ module: readFileSync(new URL('../pkg/metagate_wasm_bg.wasm', import.meta.url)) });
const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
const tools = indexById('tools');
for (const chunk of (sizes.length ? sizes : ['16384', '65536', '262144', '1048576']).map(Number)) {
  const fd = openSync(file, 'r');
  const read = (offset, length) => {
    const out = new Uint8Array(length);
    readSync(fd, out, 0, length, offset);
    return out;
  };
  const engine = Metagate.fromReader(read, fstatSync(fd).size, { chunkBytes: chunk });
  engine.search(tools.alias, JSON.stringify(buildBody(tools, '', {}, 0)));
  const first = engine.fetchStats();
  engine.search(tools.alias, JSON.stringify(buildBody(tools, 'sequence alignment', {}, 0)));
  const typed = engine.fetchStats();
  console.log(`chunk ${chunk}: first screen ${first.requests} requests, ${mb(first.bytes)}; ` +
    `with the typed query ${typed.requests} requests, ${mb(typed.bytes)}`);
  engine.free();
  closeSync(fd);
}
