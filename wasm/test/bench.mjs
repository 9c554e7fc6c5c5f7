// Query latency of the WASM module under Node: opens FILE and runs the budget query (a
// two-term match on the tool registry) N times after a warm-up.
//   node wasm/test/bench.mjs FILE [N] [TEXT]     (TEXT: "sequence alignment")
// Prints the open time and the median, mean and 95th percentile per search.

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { initSync, Metagate } from '../pkg/metagate_wasm.js';

const [file, n = '200', text = 'sequence alignment'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node wasm/test/bench.mjs FILE [N] [TEXT]');
  process.exit(2);
}
const runs = Number(n);
initSync({ module: readFileSync(new URL('../pkg/metagate_wasm_bg.wasm', import.meta.url)) });
const bytes = readFileSync(file);

let t0 = performance.now();
const engine = new Metagate(bytes);
const openMs = performance.now() - t0;

const body = JSON.stringify({ query: { match: { 'item.description': text } } });
const total = JSON.parse(engine.search('RIN_Tool_pr', body)).hits.total;
for (let i = 0; i < 20; i++) engine.search('RIN_Tool_pr', body);
const times = [];
for (let i = 0; i < runs; i++) {
  t0 = performance.now();
  engine.search('RIN_Tool_pr', body);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const mean = times.reduce((a, b) => a + b, 0) / runs;
const at = (q) => times[Math.min(runs - 1, Math.floor(q * runs))];
console.log(
  `${file}: ${(bytes.length / 1048576).toFixed(1)} MB opened in ${openMs.toFixed(1)} ms; ` +
    `match "${text}" on RIN_Tool_pr (${total} hits), ${runs} runs: ` +
    `median ${at(0.5).toFixed(3)} ms, mean ${mean.toFixed(3)} ms, p95 ${at(0.95).toFixed(3)} ms`,
);
