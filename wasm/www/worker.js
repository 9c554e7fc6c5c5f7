// The engine's thread: the page posts requests here so that opening a file and searching
// never block typing. One request at a time, answered in order.
//
// Requests:  {id, type: 'open', url, lazy} | {id, type: 'open', buffer} | {id, type: 'search', index, body}
// Answers:   {id, ok: true, ...} | {id, ok: false, message, status, body}
//
// A URL opened `lazy` is read over HTTP range requests as searches need its pages
// (synchronous requests, which only a worker may make with binary answers); a server
// that does not answer ranges gets the whole file downloaded instead. Bytes (a download,
// a picked file) are checked page by page when opened.

import init, { Metagate } from './pkg/metagate_wasm.js';

/** Compiling the module starts at once, while the page still fetches the file. */
const started = performance.now();
const ready = init().then(() => performance.now() - started);

let engine = null;

async function download(url) {
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`${url}: HTTP ${resp.status}: ${(await resp.text()).slice(0, 200)}`);
  return new Uint8Array(await resp.arrayBuffer());
}

async function open(msg) {
  const initMs = await ready;
  const t0 = performance.now();
  let next = null;
  let bytes = null;
  let fetchMs = 0;
  if (msg.url && msg.lazy) {
    try {
      next = Metagate.openUrl(msg.url);
    } catch (err) {
      if (!/range requests/.test(String(err?.message))) throw err;
    }
  }
  if (!next) {
    bytes = msg.url ? await download(msg.url) : new Uint8Array(msg.buffer);
    fetchMs = performance.now() - t0;
    next = new Metagate(bytes);
  }
  const openMs = performance.now() - t0 - fetchMs;
  engine?.free();
  engine = next;
  const fetched = engine.fetchStats();
  return {
    initMs,
    fetchMs,
    openMs,
    lazy: fetched !== undefined,
    bytes: fetched ? fetched.size : bytes.length,
    fetched,
    version: Metagate.version(),
    aliases: JSON.parse(engine.aliases()),
  };
}

function search(msg) {
  if (!engine) throw new Error('no file is open');
  const t0 = performance.now();
  const out = engine.search(msg.index, JSON.stringify(msg.body));
  const ms = performance.now() - t0;
  return { ms, response: JSON.parse(out), fetched: engine.fetchStats() };
}

self.onmessage = async (event) => {
  const msg = event.data;
  try {
    const answer = msg.type === 'open' ? await open(msg) : search(msg);
    self.postMessage({ id: msg.id, ok: true, ...answer });
  } catch (err) {
    if (err instanceof WebAssembly.RuntimeError) {
      // A trap leaves the module unusable (a damaged file read lazily can cause one).
      engine = null;
      self.postMessage({ id: msg.id, ok: false, message: `the engine stopped (${err.message}): reload the page` });
      return;
    }
    let body = err?.body;
    try {
      body = body ? JSON.parse(body) : undefined;
    } catch {
      // keep the raw text
    }
    self.postMessage({ id: msg.id, ok: false, message: String(err?.message ?? err), status: err?.status, body });
  }
};
