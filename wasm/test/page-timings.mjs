// The demo page's timings in headless Chromium, one fresh browser per run:
//   node wasm/test/page-timings.mjs http://127.0.0.1:9200/demo/ [RUNS]
// Each run loads the page, types "sequence alignment" and prints the page's own figures
// (window.metagateStats): module start, download (none when the file is read on demand),
// open, first query, last typed query, and for a file read on demand what it fetched.
// Add `?load=whole` to the URL to time the whole-file download instead.

import { chromium } from 'playwright-core';

const [url, n = '3'] = process.argv.slice(2);
if (!url) {
  console.error('usage: node wasm/test/page-timings.mjs URL [RUNS]');
  process.exit(2);
}
const args = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
for (let i = 0; i < Number(n); i++) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args });
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector('body[data-state="ready"]', { timeout: 60_000 });
  await page.waitForFunction(() => window.metagateStats.firstQueryMs !== undefined);
  await page.locator('#q').pressSequentially('sequence alignment', { delay: 40 });
  await page.waitForFunction(() => document.getElementById('results').dataset.q === 'sequence alignment');
  const s = await page.evaluate(() => window.metagateStats);
  const ms = (v) => `${v.toFixed(1)} ms`;
  const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
  const how = s.lazy
    ? `read on demand (${mb(s.bytes)})`
    : `download ${ms(s.fetchMs)} (${mb(s.bytes)})`;
  const fetched = s.fetched ? `, fetched ${mb(s.fetched.bytes)} in ${s.fetched.requests} requests` : '';
  console.log(
    `run ${i + 1}: module ${ms(s.initMs)}, ${how}, open ${ms(s.openMs)}, ` +
      `first query ${ms(s.firstQueryMs)}, typed query ${ms(s.lastQueryMs)}${fetched}`,
  );
  await browser.close();
}
