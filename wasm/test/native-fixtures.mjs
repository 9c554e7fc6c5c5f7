// Asks the native engine (the release CLI) every test request and stores its answers:
//   node native-fixtures.mjs METAGATE_BIN FILE OUT.json
// The answer to the browser test's query decides its facet click: the first bucket of the
// page's first facet, whose filtered answer is stored as `page-tools-filtered`.

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { PAGE_QUERY, QUERIES, pageBodies } from './queries.mjs';
import { indexById } from '../www/query.js';

const [bin, file, out] = process.argv.slice(2);
if (!out) {
  console.error('usage: node native-fixtures.mjs METAGATE_BIN FILE OUT.json');
  process.exit(2);
}

/** The CLI's answer: the response JSON, or the error JSON it prints before failing. */
function native(q) {
  const args = ['search', '--file', file, q.index];
  if (q.body !== undefined) args.push('--body', JSON.stringify(q.body));
  if (q.q !== undefined) args.push('-q', q.q);
  let stdout;
  try {
    stdout = execFileSync(bin, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  } catch (err) {
    stdout = err.stdout;
  }
  return JSON.parse(stdout);
}

const fixtures = {};
for (const q of QUERIES) fixtures[q.name] = { ...q, answer: native(q) };

const facet = indexById(PAGE_QUERY.index).facets[0];
const bucket = fixtures['page-tools'].answer.aggregations?.[facet.name]?.buckets?.[0];
if (bucket) {
  const filters = { [facet.field]: [bucket.key] };
  const q = { name: 'page-tools-filtered', index: indexById(PAGE_QUERY.index).alias, body: pageBodies(filters) };
  fixtures[q.name] = { ...q, facet: { field: facet.field, key: bucket.key, doc_count: bucket.doc_count }, answer: native(q) };
}

writeFileSync(out, JSON.stringify(fixtures));
console.log(`native fixtures: ${Object.keys(fixtures).length} answers in ${out}`);
