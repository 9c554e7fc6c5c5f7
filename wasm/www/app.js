// The demo page: a search box with results as you type, facets that filter when clicked,
// highlighted snippets, paging and an index picker. The engine lives in worker.js; this
// thread only draws, so typing never waits for a search.

import { INDICES, PAGE_SIZE, buildBody, indexById, pick } from './query.js';

const $ = (id) => document.getElementById(id);
const worker = new Worker(new URL('worker.js', import.meta.url), { type: 'module' });

/** Timings the browser test and the status line read. */
const stats = (window.metagateStats = { queries: 0 });

const state = { index: INDICES[0], q: '', filters: {}, page: 0 };
let available = INDICES;
let nextId = 1;
const waiting = new Map();
let busy = false;
let queued = null;

function ask(msg) {
  const id = nextId++;
  worker.postMessage({ ...msg, id }, msg.buffer ? [msg.buffer] : []);
  return new Promise((resolve) => waiting.set(id, resolve));
}

worker.onmessage = (event) => {
  const resolve = waiting.get(event.data.id);
  waiting.delete(event.data.id);
  resolve?.(event.data);
};

/** Searches for the current state. While a search runs, only the newest state waits:
 * keystrokes typed meanwhile are folded into one search when the worker is free. */
function refresh() {
  const request = { index: state.index, q: state.q, filters: structuredClone(state.filters), page: state.page };
  if (busy) {
    queued = request;
    return;
  }
  run(request);
}

async function run(request) {
  busy = true;
  const body = buildBody(request.index, request.q, request.filters, request.page);
  const answer = await ask({ type: 'search', index: request.index.alias, body });
  busy = false;
  if (queued) {
    const next = queued;
    queued = null;
    run(next);
    return;
  }
  if (!answer.ok) {
    showError(answer);
    return;
  }
  stats.queries += 1;
  stats.lastQueryMs = answer.ms;
  stats.firstQueryMs ??= answer.ms;
  if (answer.fetched) showFetched(answer.fetched);
  render(request, answer.response, answer.ms);
}

/** For a file read lazily: how much of it the searches have fetched so far. */
function showFetched(fetched) {
  stats.fetched = fetched;
  const mb = (n) => (n / 1048576).toFixed(1);
  $('fetched').textContent = ` · fetched ${mb(fetched.bytes)} of ${mb(fetched.size)} MB in ${fetched.requests} range requests`;
}

function showError(answer) {
  const reason = answer.body?.error?.reason ?? answer.message;
  $('summary').textContent = `The search failed: ${reason}`;
  $('results').replaceChildren();
  $('facets').replaceChildren();
  $('results').dataset.q = state.q;
}

function escapeHtml(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Text that may carry the highlighter's <em> tags: everything else is escaped, since
 * the fragments are record text, not markup. */
function highlighted(fragment) {
  return escapeHtml(fragment).replace(/&lt;(\/?)em&gt;/g, '<$1em>');
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k === 'html') node.innerHTML = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  node.append(...children.filter((c) => c != null));
  return node;
}

function titleOf(index, hit) {
  const hl = hit.highlight?.[index.title]?.[0];
  if (hl) return highlighted(hl);
  const text = index.title ? pick(hit._source, index.title) : firstText(hit._source);
  return escapeHtml(text ?? hit._id);
}

function firstText(source) {
  for (const k of ['name', 'label', 'title']) if (typeof source?.[k] === 'string') return source[k];
  return undefined;
}

function snippetOf(index, hit) {
  for (const f of index.highlight) {
    if (f === index.title) continue;
    const frags = hit.highlight?.[f];
    if (frags) return frags.map(highlighted).join(' … ');
  }
  const text = pick(hit._source, index.highlight.find((f) => f !== index.title) ?? '') ?? '';
  const plain = String(text);
  return escapeHtml(plain.length > 240 ? `${plain.slice(0, 240)}…` : plain);
}

function render(request, resp, ms) {
  const index = request.index;
  const total = resp.hits.total;
  const from = request.page * PAGE_SIZE;
  $('summary').textContent = total
    ? `${from + 1}–${Math.min(from + PAGE_SIZE, total)} of ${total.toLocaleString('en')} ${index.label.toLowerCase()} · ${ms.toFixed(1)} ms in the browser`
    : `No ${index.label.toLowerCase()} match · ${ms.toFixed(1)} ms`;
  $('total').textContent = String(total);
  const items = resp.hits.hits.map((hit) => {
    const tags = (pick(hit._source, 'item.types') ? [hit._source.item.types].flat().map((t) => t?.name) : [])
      .filter(Boolean).join(' · ');
    return el('li', { class: 'hit', 'data-id': hit._id },
      el('h3', { html: titleOf(index, hit) }),
      el('p', { class: 'sub' }, String(pick(hit._source, index.subtitle ?? '') ?? hit._id)),
      el('p', { class: 'snippet', html: snippetOf(index, hit) }),
      tags ? el('div', { class: 'tags' }, tags) : null);
  });
  $('results').replaceChildren(...items);
  $('results').dataset.q = request.q;
  $('results').dataset.index = index.id;
  $('results').dataset.filters = JSON.stringify(request.filters);
  $('results').dataset.page = String(request.page);
  $('page').textContent = total ? `page ${request.page + 1} of ${Math.ceil(total / PAGE_SIZE)}` : '';
  $('prev').disabled = request.page === 0;
  $('next').disabled = from + PAGE_SIZE >= Math.min(total, 10000);
  renderFacets(index, resp.aggregations ?? {}, request.filters);
  renderChips(index, request.filters);
}

function toggleFilter(field, key) {
  const keys = state.filters[field] ?? [];
  const next = keys.includes(key) ? keys.filter((k) => k !== key) : [...keys, key];
  if (next.length) state.filters[field] = next;
  else delete state.filters[field];
  state.page = 0;
  saveHash();
  refresh();
}

function renderFacets(index, aggs, filters) {
  const groups = [];
  for (const facet of index.facets) {
    const buckets = aggs[facet.name]?.buckets ?? [];
    const selected = filters[facet.field] ?? [];
    if (!buckets.length && !selected.length) continue;
    const items = buckets.map((b) => el('li', {},
      el('button', {
        type: 'button',
        'data-key': b.key,
        'aria-pressed': String(selected.includes(b.key)),
        onclick: () => toggleFilter(facet.field, b.key),
      }, el('span', { class: 'key' }, String(b.key)), el('span', { class: 'count' }, String(b.doc_count)))));
    groups.push(el('div', { class: 'facet', 'data-name': facet.name, 'data-field': facet.field },
      el('h2', {}, facet.label), el('ul', {}, ...items)));
  }
  $('facets').replaceChildren(...groups);
}

function renderChips(index, filters) {
  const chips = [];
  for (const [field, keys] of Object.entries(filters)) {
    const label = index.facets.find((f) => f.field === field)?.label ?? field;
    for (const key of keys) {
      chips.push(el('button', { type: 'button', title: 'Remove this filter', onclick: () => toggleFilter(field, key) },
        `${label}: ${key} ✕`));
    }
  }
  $('chips').replaceChildren(...chips);
}

function renderPicker() {
  const buttons = available.map((i) => el('button', {
    type: 'button',
    role: 'tab',
    'data-index': i.id,
    'aria-selected': String(i === state.index),
    onclick: () => pickIndex(i),
  }, i.label));
  $('picker').replaceChildren(...buttons);
}

function pickIndex(index) {
  state.index = index;
  state.filters = {};
  state.page = 0;
  $('q').placeholder = `Search ${index.label.toLowerCase()}`;
  renderPicker();
  saveHash();
  refresh();
}

function saveHash() {
  const p = new URLSearchParams({ index: state.index.id, q: state.q });
  history.replaceState(null, '', `#${p}`);
}

/** The picker for an opened file: the demo's indices it holds, else each of its aliases
 * (or indices) searched with a plain query string and no facets. */
function pickerFor(aliases) {
  const names = new Set(aliases.map((a) => a.alias));
  const known = INDICES.filter((i) => names.has(i.alias));
  if (known.length) return known;
  const list = aliases.length ? [...names] : ['_all'];
  return list.map((name) => ({ id: name, label: name, alias: name, generic: true, fields: [], highlight: [], facets: [] }));
}

async function open(msg, what) {
  document.body.dataset.state = 'loading';
  $('status').textContent = `Opening ${what}…`;
  const answer = await ask({ type: 'open', ...msg });
  if (!answer.ok) {
    document.body.dataset.state = 'error';
    $('status').textContent = `Could not open ${what}: ${answer.message}`;
    return false;
  }
  Object.assign(stats, {
    initMs: answer.initMs, fetchMs: answer.fetchMs, openMs: answer.openMs, bytes: answer.bytes, lazy: answer.lazy,
  });
  stats.firstQueryMs = undefined;
  available = pickerFor(answer.aliases);
  const mb = (answer.bytes / 1048576).toFixed(1);
  const how = answer.lazy
    ? `read on demand, opened in ${answer.openMs.toFixed(0)} ms`
    : `downloaded in ${answer.fetchMs.toFixed(0)} ms · opened in ${answer.openMs.toFixed(1)} ms`;
  $('status').textContent = `${what}: ${mb} MB · engine ${answer.version} ready in ${answer.initMs.toFixed(0)} ms · ${how}`;
  $('status').append(Object.assign(document.createElement('span'), { id: 'fetched' }));
  if (answer.fetched) showFetched(answer.fetched);
  document.body.dataset.state = 'ready';
  return true;
}

function start() {
  const params = new URLSearchParams(location.hash.slice(1));
  state.q = params.get('q') ?? '';
  $('q').value = state.q;
  $('q').addEventListener('input', () => {
    state.q = $('q').value;
    state.page = 0;
    saveHash();
    refresh();
  });
  $('prev').addEventListener('click', () => { state.page = Math.max(0, state.page - 1); refresh(); });
  $('next').addEventListener('click', () => { state.page += 1; refresh(); });
  $('file').addEventListener('change', async () => {
    const f = $('file').files?.[0];
    if (!f) return;
    if (await open({ buffer: await f.arrayBuffer() }, f.name)) pickIndex(available[0]);
  });
  // The demo file is read over range requests as searches need it; `?load=whole`
  // downloads it first instead.
  const lazy = new URLSearchParams(location.search).get('load') !== 'whole';
  open({ url: new URL('demo.redb', location.href).href, lazy }, 'the demo file').then((ok) => {
    if (!ok) return;
    pickIndex(available.find((i) => i.id === params.get('index')) ?? indexById(params.get('index')));
  });
  renderPicker();
}

start();
