// The engine's thread: the page posts requests here so that opening a file and searching
// never block typing. One request at a time, answered in order.
//
// Requests:  {id, type: 'open', url} | {id, type: 'open', buffer} | {id, type: 'search', index, body}
// Answers:   {id, ok: true, ...} | {id, ok: false, message, status, body}

import init, { Metagate } from './pkg/metagate_wasm.js';

/** Compiling the module starts at once, while the page still fetches the file. */
const started = performance.now();
const ready = init().then(() => performance.now() - started);

let engine = null;

async function open(msg) {
  const initMs = await ready;
  const t0 = performance.now();
  let bytes;
  if (msg.url) {
    const resp = await fetch(msg.url);
    if (!resp.ok) throw new Error(`${msg.url}: HTTP ${resp.status}: ${(await resp.text()).slice(0, 200)}`);
    bytes = new Uint8Array(await resp.arrayBuffer());
  } else {
    bytes = new Uint8Array(msg.buffer);
  }
  const t1 = performance.now();
  const next = new Metagate(bytes);
  const t2 = performance.now();
  engine?.free();
  engine = next;
  return {
    initMs,
    fetchMs: t1 - t0,
    openMs: t2 - t1,
    bytes: bytes.length,
    version: Metagate.version(),
    aliases: JSON.parse(engine.aliases()),
  };
}

function search(msg) {
  if (!engine) throw new Error('no file is open');
  const t0 = performance.now();
  const out = engine.search(msg.index, JSON.stringify(msg.body));
  const ms = performance.now() - t0;
  return { ms, response: JSON.parse(out) };
}

self.onmessage = async (event) => {
  const msg = event.data;
  try {
    const answer = msg.type === 'open' ? await open(msg) : search(msg);
    self.postMessage({ id: msg.id, ok: true, ...answer });
  } catch (err) {
    let body = err?.body;
    try {
      body = body ? JSON.parse(body) : undefined;
    } catch {
      // keep the raw text
    }
    self.postMessage({ id: msg.id, ok: false, message: String(err?.message ?? err), status: err?.status, body });
  }
};
