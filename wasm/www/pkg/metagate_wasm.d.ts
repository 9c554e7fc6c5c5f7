/* tslint:disable */
/* eslint-disable */

/** How a file is opened: `scriptRegex` lets scripts use regexes (`/.../`, `=~`, `==~`),
 * as `metagate serve --script-regex` and ES's `script.painless.regex.enabled` do (off by
 * default, as in ES 6.8). */
export interface OpenOptions {
    scriptRegex?: boolean;
}

/** How a lazily opened file is fetched: in aligned chunks of `chunkBytes` (default
 * 65536), keeping at most `cacheBytes` of them (default 64 MiB). */
export interface LazyOptions extends OpenOptions {
    chunkBytes?: number;
    cacheBytes?: number;
}

/** What a lazily opened file has fetched so far, and its length. */
export interface FetchStats {
    requests: number;
    bytes: number;
    size: number;
}



/** What every method throws: `status` is the HTTP status the server would answer,
 * `body` the Elasticsearch error JSON. */
export interface MetagateError extends Error {
    status: number;
    body: string;
}



/**
 * An open metagate file image.
 */
export class Metagate {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Aliases as a JSON array string of `{alias, index}`.
     */
    aliases(): string;
    /**
     * Clears scroll ids; returns `num_freed`.
     */
    clearScroll(ids: string[]): number;
    /**
     * Counts the documents an index expression's `{"query": ..}` body (or `q=` in
     * `params`) matches: `{"count": N, "_shards": ..}` as `_count` answers.
     */
    count(index: string, body: string, params: string): string;
    /**
     * For a lazily opened file, the requests made and bytes fetched so far, and the
     * file's length; `undefined` for a file opened from bytes.
     */
    fetchStats(): FetchStats | undefined;
    /**
     * Opens a metagate file lazily through `read(offset, length)`, a function that returns
     * exactly that many bytes of the file as a `Uint8Array` (a `FileReaderSync` over a
     * picked `File` in a worker, `fs.readSync` in Node); `size` is the file's length.
     */
    static fromReader(read: (offset: number, length: number) => Uint8Array, size: number, options?: LazyOptions): Metagate;
    /**
     * Mappings by index and type, as `_mapping` answers (`include_type_name=false` in
     * `params` drops the type level).
     */
    getMapping(index: string | null | undefined, params: string): string;
    /**
     * The document `id` (`docType` defaults to `_doc`, which matches any type); a
     * missing one throws with `status` 404 and the `found: false` body.
     */
    get(index: string, id: string, doc_type: string | null | undefined, params: string): string;
    /**
     * Concrete indices as a JSON array string.
     */
    indices(): string;
    /**
     * Documents by id: `{"docs": [..]}` or `{"ids": [..]}` with `index`.
     */
    mget(index: string | null | undefined, body: string, params: string): string;
    /**
     * Runs an `_msearch` NDJSON body (newline-terminated); `index` applies where a header
     * names none. Each search answers in `responses`.
     */
    msearch(index: string | null | undefined, body: string, params: string): string;
    /**
     * Opens a metagate file from its bytes: the `.redb` file the CLI writes, as a
     * `Uint8Array` or an `ArrayBuffer` (copied; the caller's buffer is left untouched),
     * with `OpenOptions`.
     */
    constructor(bytes: Uint8Array | ArrayBuffer, options?: OpenOptions);
    /**
     * Opens a metagate file at `url` lazily, over HTTP range requests: only the pages the
     * searches touch are fetched, in chunks (see `LazyOptions`). The requests are
     * synchronous, so this works in a Web Worker (not on a page's main thread, and not
     * in Node, which has no XMLHttpRequest: use `fromReader` there).
     */
    static openUrl(url: string, options?: LazyOptions): Metagate;
    /**
     * The next page of a scroll.
     */
    scrollNext(scroll_id: string, keep_alive?: string | null): string;
    /**
     * Starts a scroll; the response carries `_scroll_id`.
     */
    scrollStart(index: string, body: string, keep_alive: string): string;
    /**
     * Searches with URI parameters (`q=...&size=3`) over an optional JSON body.
     */
    searchUri(index: string, body: string, params: string): string;
    /**
     * Searches an index expression with a JSON body (string; "" = match_all); returns the
     * response JSON string.
     */
    search(index: string, body: string): string;
    /**
     * The engine version.
     */
    static version(): string;
}

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_metagate_free: (a: number, b: number) => void;
    readonly metagate_aliases: (a: number) => [number, number, number, number];
    readonly metagate_clearScroll: (a: number, b: number, c: number) => [number, number, number];
    readonly metagate_count: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => [number, number, number, number];
    readonly metagate_fetchStats: (a: number) => any;
    readonly metagate_fromReader: (a: any, b: number, c: any) => [number, number, number];
    readonly metagate_get: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number) => [number, number, number, number];
    readonly metagate_getMapping: (a: number, b: number, c: number, d: number, e: number) => [number, number, number, number];
    readonly metagate_indices: (a: number) => [number, number, number, number];
    readonly metagate_mget: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => [number, number, number, number];
    readonly metagate_msearch: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => [number, number, number, number];
    readonly metagate_new: (a: any, b: any) => [number, number, number];
    readonly metagate_openUrl: (a: number, b: number, c: any) => [number, number, number];
    readonly metagate_scrollNext: (a: number, b: number, c: number, d: number, e: number) => [number, number, number, number];
    readonly metagate_scrollStart: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => [number, number, number, number];
    readonly metagate_search: (a: number, b: number, c: number, d: number, e: number) => [number, number, number, number];
    readonly metagate_searchUri: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => [number, number, number, number];
    readonly metagate_version: () => [number, number];
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __externref_drop_slice: (a: number, b: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
