// A TypeScript user of the package's API, checked by `tsc --noEmit` against the
// package's own declarations (both entries).
import init, { initSync, Metagate, type MetagateError, type LazyOptions } from 'metagate-wasm';
import { Metagate as BundlerMetagate } from 'metagate-wasm/bundler';

interface Hit { _id: string; _source: Record<string, unknown> }

export function search(image: Uint8Array, wasm: BufferSource, text: string): Hit[] {
  initSync({ module: wasm });
  const engine = new Metagate(image);
  try {
    const body = JSON.stringify({ query: { match: { 'item.description': text } } });
    const answer = JSON.parse(engine.search('RIN_Tool_pr', body)) as { hits: { hits: Hit[] } };
    return answer.hits.hits;
  } catch (err) {
    const e = err as MetagateError;
    throw new Error(`status ${e.status}: ${e.body}`);
  } finally {
    engine.free();
  }
}

export async function boot(url: URL): Promise<string> {
  await init({ module_or_path: url });
  return Metagate.version();
}

export function lazy(read: (offset: number, length: number) => Uint8Array, size: number): number | undefined {
  const options: LazyOptions = { chunkBytes: 65536 };
  return Metagate.fromReader(read, size, options).fetchStats()?.requests;
}

export function viaBundler(image: Uint8Array): string {
  return new BundlerMetagate(image).count('RIN_Tool_pr', '', 'q=blast');
}

export function misuse(engine: Metagate): void {
  // @ts-expect-error a body is JSON text: the declarations are checked, not `any`
  engine.search('RIN_Tool_pr', { query: {} });
}
