// The demo page in headless Chromium, served by `metagate serve`: type a query, compare
// the results and a facet count with the native engine's answers (fixtures from
// native-fixtures.mjs), click the facet, check the filter, page, save a screenshot.
//   METAGATE_DEMO_URL=http://127.0.0.1:PORT/demo/ METAGATE_WASM_FIXTURES=... \
//   METAGATE_SCREENSHOT=target/wasm/demo.png node --test wasm/test/browser.test.mjs
// The page's timings are written to METAGATE_BROWSER_STATS (JSON) for BENCHMARKS.md.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { PAGE_QUERY } from './queries.mjs';
import { indexById } from '../www/query.js';

const url = process.env.METAGATE_DEMO_URL;
const fixtures = JSON.parse(readFileSync(process.env.METAGATE_WASM_FIXTURES, 'utf8'));
const screenshot = process.env.METAGATE_SCREENSHOT ?? 'demo.png';
const statsOut = process.env.METAGATE_BROWSER_STATS;

let browser;
let page;
const pageErrors = [];
/** Content-Encoding of each response, by the last part of its URL. */
const encodings = {};

before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('response', (r) => {
    encodings[new URL(r.url()).pathname.split('/').pop()] = r.headers()['content-encoding'] ?? 'identity';
  });
  page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));
});

after(async () => {
  await browser?.close();
});

/** A stored native answer, which must be a response (not an error). */
function native(name) {
  const f = fixtures[name];
  assert.ok(f, `no native answer for ${name}`);
  assert.ok(!f.answer.error, `${name}: the native engine failed: ${JSON.stringify(f.answer.error)}`);
  return f.answer;
}
const ids = (answer) => answer.hits.hits.map((h) => h._id);
const shownIds = () => page.$$eval('#results li.hit', (lis) => lis.map((li) => li.dataset.id));
const shownTotal = async () => Number(await page.textContent('#total'));

/** Waits until the results drawn are those of the given box text, filters and page. */
async function settled(q, filters, pageNo) {
  await page.waitForFunction(
    ([q, f, p]) => {
      const r = document.getElementById('results');
      return r.dataset.q === q && r.dataset.filters === f && r.dataset.page === p;
    },
    [q, JSON.stringify(filters), String(pageNo)],
    { timeout: 30_000 },
  );
}

/** Page timings of each way of opening, for BENCHMARKS.md. */
const timings = {};

// Read over range requests (the default), and downloaded whole (`?load=whole`).
for (const mode of ['lazy', 'whole']) test(`the page opens the demo file (${mode}) in a worker and searches as you type`, async () => {
  const t0 = Date.now();
  await page.goto(mode === 'whole' ? `${url}?load=whole` : url);
  await page.waitForSelector('body[data-state="ready"]', { timeout: 60_000 });
  await settled('', {}, 0);
  const loadMs = Date.now() - t0;
  assert.deepEqual(await shownIds(), ids(native('page-tools-first-open')));
  const first = await page.evaluate(() => ({ ...window.metagateStats }));
  assert.equal(first.lazy, mode === 'lazy');

  // Typed key by key, as a person would; the page must end on the whole query's answer.
  await page.locator('#q').pressSequentially(PAGE_QUERY.text, { delay: 40 });
  await settled(PAGE_QUERY.text, {}, 0);
  const want = native('page-tools');
  assert.deepEqual(await shownIds(), ids(want));
  assert.equal(await shownTotal(), want.hits.total);
  assert.ok(await page.$('#results li.hit em'), 'no highlighted snippet');
  const facet = indexById(PAGE_QUERY.index).facets[0];
  const buckets = want.aggregations?.[facet.name]?.buckets ?? [];
  assert.ok(buckets.length > 0, 'the native answer has no facet buckets');
  for (const b of buckets) {
    const count = await page.textContent(`.facet[data-name="${facet.name}"] button[data-key="${b.key}"] .count`);
    assert.equal(Number(count), b.doc_count, `facet ${facet.name}: ${b.key}`);
  }

  // Paging.
  await page.click('#next');
  await settled(PAGE_QUERY.text, {}, 1);
  assert.deepEqual(await shownIds(), ids(native('page-tools-next')));
  await page.click('#prev');
  await settled(PAGE_QUERY.text, {}, 0);

  // A facet click filters.
  native('page-tools-filtered');
  const clicked = fixtures['page-tools-filtered'];
  const filters = { [clicked.facet.field]: [clicked.facet.key] };
  await page.click(`.facet[data-name="${facet.name}"] button[data-key="${clicked.facet.key}"]`);
  await settled(PAGE_QUERY.text, filters, 0);
  assert.equal(await shownTotal(), clicked.facet.doc_count);
  assert.equal(await shownTotal(), clicked.answer.hits.total);
  assert.deepEqual(await shownIds(), ids(clicked.answer));
  const pressed = await page.getAttribute(`.facet[data-name="${facet.name}"] button[data-key="${clicked.facet.key}"]`, 'aria-pressed');
  assert.equal(pressed, 'true');
  assert.match(await page.textContent('#chips'), new RegExp(clicked.facet.key));

  // The large downloads travel gzipped; the worker sees the file's own bytes. Range
  // answers are the file's bytes as they are.
  assert.equal(encodings['demo.redb'], mode === 'lazy' ? 'identity' : 'gzip');
  assert.equal(encodings['metagate_wasm_bg.wasm'], 'gzip');

  const last = await page.evaluate(() => ({ ...window.metagateStats }));
  if (mode === 'lazy') {
    // Everything above was answered from part of the file, and the page says how much.
    const { bytes, size, requests } = last.fetched;
    assert.ok(requests > 0 && bytes < size / 2, `fetched ${bytes} of ${size} bytes in ${requests} requests`);
    assert.match(await page.textContent('#status'), /fetched [0-9.]+ of [0-9.]+ MB in [0-9]+ range requests/);
    await page.screenshot({ path: screenshot, fullPage: true });
  }
  assert.deepEqual(pageErrors, []);
  timings[mode] = { ...first, loadToFirstResultsMs: loadMs, typedQueryMs: last.lastQueryMs, queries: last.queries, fetched: last.fetched };
  if (statsOut) writeFileSync(statsOut, JSON.stringify(timings));
});

test('the index picker switches index', async () => {
  await page.click('#picker button[data-index="lexicon"]');
  await page.fill('#q', 'heart valv');
  await settled('heart valv', {}, 0);
  assert.deepEqual(await shownIds(), ids(native('page-lexicon')));
  assert.deepEqual(pageErrors, []);
});
