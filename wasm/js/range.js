// Synchronous HTTP range reads, for opening a metagate file lazily inside a Web Worker
// (where synchronous XMLHttpRequest may return an ArrayBuffer; on a page's main thread it
// may not, and would block the page).

/** The answer's total length and validator, from `Content-Range` and `ETag`. */
function identity(xhr, url) {
  const range = xhr.getResponseHeader('Content-Range') || '';
  const total = Number(range.split('/')[1]);
  if (!Number.isSafeInteger(total)) {
    throw new Error(`${url}: the server sent no usable Content-Range (got "${range}")`);
  }
  return { total, etag: xhr.getResponseHeader('ETag') || '' };
}

/**
 * Reads `length` bytes at `offset` of `url` with one `Range` request. Answers
 * `{bytes, total, etag}`; throws when the server does not answer the range exactly.
 */
export function rangeRead(url, offset, length) {
  const xhr = new XMLHttpRequest();
  xhr.open('GET', url, false);
  xhr.responseType = 'arraybuffer';
  xhr.setRequestHeader('Range', `bytes=${offset}-${offset + length - 1}`);
  xhr.send();
  if (xhr.status !== 206) {
    const why = xhr.status === 200 ? 'the server does not answer range requests' : `HTTP ${xhr.status}`;
    throw new Error(`${url}: bytes ${offset}-${offset + length - 1}: ${why}`);
  }
  const bytes = new Uint8Array(xhr.response);
  if (bytes.length !== length) {
    throw new Error(`${url}: asked for ${length} bytes at ${offset}, got ${bytes.length}`);
  }
  return { bytes, ...identity(xhr, url) };
}
