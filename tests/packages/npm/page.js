// A page's script, bundled by esbuild from the installed package: loads the module from
// the .wasm the bundler copied, fetches the browser demo file and searches it. The answer
// (or the error) is left in `window.__answer` for the test driver.
import init, { Metagate } from 'metagate-wasm';
import wasmUrl from 'metagate-wasm/metagate_wasm_bg.wasm';

async function run() {
  const query = await (await fetch('query.json')).json();
  await init({ module_or_path: wasmUrl });
  const bytes = new Uint8Array(await (await fetch('demo-web.redb')).arrayBuffer());
  const engine = new Metagate(bytes);
  return JSON.parse(engine.search(query.index, JSON.stringify(query.body)));
}

run().then(
  (answer) => { window.__answer = { answer }; },
  (err) => { window.__answer = { error: String(err && err.stack || err) }; },
);
