// Serves the esbuild bundle of page.js with the browser demo file on 127.0.0.1 and opens
// it in headless Chromium (playwright-core, the launch flags of wasm/test/browser.test.mjs):
// the page's answer must be the native engine's, `took` aside.
//   node browser.mjs DIST_DIR DEMO_WEB_FILE FIXTURES.json PLAYWRIGHT_CORE_DIR

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';

const [dist, file, fixturesPath, playwrightDir] = process.argv.slice(2);
const fixture = JSON.parse(readFileSync(fixturesPath, 'utf8'))['tools-match-2-terms'];
const { chromium } = createRequire(join(playwrightDir, 'package.json'))('playwright-core');

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };
const server = createServer((req, res) => {
  const name = new URL(req.url, 'http://x').pathname.slice(1) || 'index.html';
  let body;
  if (name === 'demo-web.redb') body = readFileSync(file);
  else if (name === 'query.json') body = JSON.stringify({ index: fixture.index, body: fixture.body });
  else {
    try {
      body = readFileSync(join(dist, name.replace(/\.\.+/g, '')));
    } catch {
      res.writeHead(404).end();
      return;
    }
  }
  res.writeHead(200, { 'Content-Type': TYPES[extname(name)] ?? 'application/octet-stream' }).end(body);
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => window.__answer !== undefined, null, { timeout: 60000 });
  const result = await page.evaluate(() => window.__answer);
  assert.equal(result.error, undefined, `the page failed: ${result.error}`);
  assert.deepEqual(errors, []);
  const { took, ...answer } = result.answer;
  assert.equal(typeof took, 'number');
  const { took: _, ...native } = fixture.answer;
  assert.deepEqual(answer, native);
  console.log(`chromium: ${answer.hits.total} hits, ${answer.hits.hits.length} shown, as the native engine`);
} finally {
  await browser.close();
  server.close();
}
