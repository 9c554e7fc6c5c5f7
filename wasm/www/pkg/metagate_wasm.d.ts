/* tslint:disable */
/* eslint-disable */

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
     * Concrete indices as a JSON array string.
     */
    indices(): string;
    /**
     * Opens a metagate file from its bytes: the `.redb` file the CLI writes, as a
     * `Uint8Array` or an `ArrayBuffer` (copied; the caller's buffer is left untouched).
     */
    constructor(bytes: Uint8Array | ArrayBuffer);
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
    readonly metagate_indices: (a: number) => [number, number, number, number];
    readonly metagate_new: (a: any) => [number, number, number];
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
